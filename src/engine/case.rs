//! Lower case for the scripts people write to this app in, without core's Unicode case table.
//!
//! `str::to_lowercase` links a table of every upper-case letter in Unicode (≈ 1,500 pairs) and
//! the word-boundary rules of final sigma: about 5 KB gzip of the first load. The readers here
//! only compare words of Latin, Greek, Cyrillic and Armenian text (Hangul has no case), so the
//! blocks those scripts use are mapped by rule; a letter of any other script stays as it is.
//! Within the mapped blocks the result is the first char of `char::to_lowercase` (a test
//! checks every code point of them).

/// `c` in lower case where its block is one of the mapped ones, else `c`.
pub fn lower_char(c: char) -> char {
    let code = c as u32;
    let to = match code {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE => code + 0x20,
        0x80..=0xFF => code,
        0x130 => 'i' as u32,
        0x178 => 0xFF,
        0x139..=0x148 | 0x179..=0x17E if code % 2 == 1 => code + 1,
        0x100..=0x137 | 0x14A..=0x177 if code % 2 == 0 => code + 1,
        0x370..=0x373 | 0x376 | 0x3D8..=0x3EF if code % 2 == 0 => code + 1,
        0x37F => 0x3F3,
        0x386 => 0x3AC,
        0x388..=0x38A => code + 0x25,
        0x38C => 0x3CC,
        0x38E..=0x38F => code + 0x3F,
        0x391..=0x3A1 | 0x3A3..=0x3AB => code + 0x20,
        0x3CF => 0x3D7,
        0x3F4 => 0x3B8,
        0x3F7 | 0x3FA => code + 1,
        0x3F9 => 0x3F2,
        0x3FD..=0x3FF => code - 0x82,
        0x400..=0x40F => code + 0x50,
        0x410..=0x42F => code + 0x20,
        0x4C0 => 0x4CF,
        0x4C1..=0x4CE if code % 2 == 1 => code + 1,
        0x460..=0x481 | 0x48A..=0x4BF | 0x4D0..=0x52F if code % 2 == 0 => code + 1,
        0x531..=0x556 => code + 0x30,
        0x1E9E => 0xDF,
        0x1E00..=0x1E95 | 0x1EA0..=0x1EFF if code % 2 == 0 => code + 1,
        0x2160..=0x216F => code + 0x10,
        0x24B6..=0x24CF => code + 0x1A,
        0xFF21..=0xFF3A => code + 0x20,
        // Capital script g, whose small form the injection filter reads as a look-alike of g.
        0xA7AC => 0x261,
        _ => code,
    };
    char::from_u32(to).unwrap_or(c)
}

/// `text` in lower case, letter by letter (see [`lower_char`]).
pub fn lower(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars().map(lower_char).collect()
}

/// [`lower`] as a method, for the readers' chains.
pub trait Lower {
    fn lower(&self) -> String;
}

impl Lower for str {
    fn lower(&self) -> String {
        lower(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks mapped by rule: Basic Latin through Latin Extended-A, Greek, Cyrillic with
    /// its supplement, Armenian, Latin Extended Additional, Roman numerals, circled letters
    /// and fullwidth Latin.
    const MAPPED: [(u32, u32); 9] = [
        (0x0, 0x17F),
        (0x370, 0x3FF),
        (0x400, 0x52F),
        (0x530, 0x58F),
        (0x1E00, 0x1EFF),
        (0x2160, 0x216F),
        (0x24B6, 0x24E9),
        (0xFF00, 0xFFEF),
        (0xAC00, 0xD7A3),
    ];

    fn std_lower(c: char) -> char {
        c.to_lowercase().next().unwrap_or(c)
    }

    #[test]
    fn every_letter_of_the_mapped_blocks_lowers_as_std_does() {
        let mut checked = 0;
        for (from, to) in MAPPED {
            for c in (from..=to).filter_map(char::from_u32) {
                assert_eq!(
                    lower_char(c),
                    std_lower(c),
                    "U+{:04X} lowers to U+{:04X}, std to U+{:04X}",
                    c as u32,
                    lower_char(c) as u32,
                    std_lower(c) as u32
                );
                checked += 1;
            }
        }
        assert!(checked > 12_000, "{checked}");
    }

    #[test]
    fn outside_the_mapped_blocks_letters_stay() {
        assert_eq!(lower_char('Ⴀ'), 'Ⴀ', "Georgian is not mapped");
        assert_eq!(lower_char('가'), '가');
        assert_eq!(lower_char('Ⅻ'), 'ⅻ');
        assert_eq!(lower_char('Ⓘ'), 'ⓘ');
        assert_eq!(lower_char('\u{A7AC}'), std_lower('\u{A7AC}'));
    }

    #[test]
    fn words_lower_as_std_does_but_for_final_sigma_and_dotted_i() {
        for (text, want) in [
            ("IGNORE Previous", "ignore previous"),
            ("ＩＧＮＯＲＥ", "ｉｇｎｏｒｅ"),
            ("ÜBER Straße", "über straße"),
            ("ПРИВЕТ Мир", "привет мир"),
            ("ΑΘΗΝΑ", "αθηνα"),
            ("Zażółć GĘŚLĄ", "zażółć gęślą"),
            ("점심 MENU", "점심 menu"),
        ] {
            assert_eq!(lower(text), want);
            assert_eq!(lower(text), text.to_lowercase(), "{text}");
        }
        // std writes a final sigma at a word's end and keeps İ's dot as a combining mark;
        // the readers compare letters, so the plain forms are what they want.
        assert_eq!(lower("ΟΔΟΣ"), "οδοσ");
        assert_eq!(lower("İstanbul"), "istanbul");
    }
}
