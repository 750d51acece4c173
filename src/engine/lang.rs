//! Languages and text helpers shared by the engine's rules.

/// A language the app speaks: the UI and the engine's own wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    Ko,
    #[default]
    En,
}

crate::engine::named::by_name!(Lang { Ko = "ko", En = "en" });

impl Lang {
    /// Korean when the text has any Hangul syllable or jamo, else English.
    pub fn detect(text: &str) -> Lang {
        if text.chars().any(is_hangul) {
            Lang::Ko
        } else {
            Lang::En
        }
    }

    /// The language to answer `text` in, the conversation being in `current`: the message's
    /// own, except that a pasted error line with no Hangul ("npm ERR! code ERESOLVE", "fatal: not
    /// a git repository", "ssh: connect to host … refused") keeps the conversation's.
    pub fn of_message(text: &str, current: Lang) -> Lang {
        if text.chars().any(is_hangul) {
            return Lang::Ko;
        }
        let first = text.split_whitespace().next().unwrap_or("");
        let pasted = (first.len() > 1 && first.ends_with(':'))
            || text.contains("ERR!")
            || text.starts_with("Traceback")
            || text.contains("Error:")
            || text.contains("error:");
        if pasted {
            current
        } else {
            Lang::En
        }
    }

    /// The language of a BCP 47 tag such as `ko-KR` or `en-US`; English for anything else.
    pub fn from_tag(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("ko") {
            Lang::Ko
        } else {
            Lang::En
        }
    }

    /// The BCP 47 tag of this language.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    /// Picks the text for this language.
    pub fn pick<'a>(self, ko: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ko => ko,
            Lang::En => en,
        }
    }
}

/// True for Hangul syllables and jamo.
pub fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

/// Lower-cased text with punctuation dropped and whitespace collapsed: for comparing
/// what people and models wrote, where "Who is it for?" and "who is it for" are the same.
///
/// Case folding here and across the engine is ASCII only (`to_ascii_lowercase`): Hangul has
/// no case, and the full Unicode case tables would add ~15 KB gzip to the page.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(c.to_ascii_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// True when the last Hangul syllable of `word` ends in a consonant (has a batchim).
/// Words not ending in Hangul count as ending in a vowel, except those ending in a digit
/// that is read with a final consonant (0, 1, 3, 6, 7, 8).
fn has_batchim(word: &str) -> bool {
    match word.trim_end().chars().last() {
        Some(c @ '\u{AC00}'..='\u{D7A3}') => (c as u32 - 0xAC00) % 28 != 0,
        Some(c) if c.is_ascii_digit() => matches!(c, '0' | '1' | '3' | '6' | '7' | '8'),
        Some(c) if c.is_ascii_alphabetic() => matches!(c.to_ascii_lowercase(), 'l' | 'm' | 'n' | 'b' | 'k' | 'p' | 't'),
        _ => false,
    }
}

/// `word` followed by the object particle that fits it: "뉴스를", "문서를", "리뷰를", "결과를", "목록을".
pub fn with_object(word: &str) -> String {
    format!("{word}{}", if has_batchim(word) { "을" } else { "를" })
}

/// `word` followed by the instrumental particle that fits it: "표로", "마크다운으로", "파일로".
pub fn with_instrumental(word: &str) -> String {
    let last_is_rieul =
        matches!(word.trim_end().chars().last(), Some(c @ '\u{AC00}'..='\u{D7A3}') if (c as u32 - 0xAC00) % 28 == 8);
    format!("{word}{}", if has_batchim(word) && !last_is_rieul { "으로" } else { "로" })
}

/// `word` followed by the subject particle that fits it: "설계안이", "파이프라인이", "표가".
pub fn with_subject(word: &str) -> String {
    format!("{word}{}", if has_batchim(word) { "이" } else { "가" })
}

/// `word` followed by the particle "and" that fits it: "표준안과", "파이프라인과", "설계와".
pub fn with_and(word: &str) -> String {
    format!("{word}{}", if has_batchim(word) { "과" } else { "와" })
}

/// `word` followed by the topic particle that fits it: "형식은", "인원은", "장소는".
pub fn with_topic(word: &str) -> String {
    format!("{word}{}", if has_batchim(word) { "은" } else { "는" })
}

/// `word` in single quotes followed by the particle `with` would give it: "'예산'이",
/// "'마크다운'으로" (the particle follows the word's sound, not the quote mark).
pub fn quoted(word: &str, with: fn(&str) -> String) -> String {
    let full = with(word);
    format!("'{word}'{}", full.get(word.len()..).unwrap_or(""))
}

/// `1234567` as `1,234,567`: counts as people read them (the same in Korean and English).
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// At most `max` characters of `text`, with an ellipsis when cut. The cut falls between
/// words when a space lies in the kept text's second half, so no word is left in pieces
/// ("stressed at work lat…" reads as "stressed at work…").
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(1);
    let mut out: String = text.chars().take(keep).collect();
    let next_starts_word = text.chars().nth(keep).is_some_and(|c| !c.is_whitespace());
    if next_starts_word {
        if let Some((at, _)) = out.char_indices().rev().find(|(_, c)| c.is_whitespace()) {
            if out[..at].chars().count() >= keep / 2 {
                out.truncate(at);
            }
        }
    }
    let end = out.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '—')).len();
    out.truncate(end);
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_error_keeps_the_conversations_language() {
        for pasted in [
            "npm ERR! code ERESOLVE",
            "fatal: not a git repository",
            "ssh: connect to host 10.0.0.5 port 22: Connection refused",
            "ModuleNotFoundError: No module named 'requests'",
        ] {
            assert_eq!(Lang::of_message(pasted, Lang::Ko), Lang::Ko, "{pasted}");
            assert_eq!(Lang::of_message(pasted, Lang::En), Lang::En, "{pasted}");
        }
        assert_eq!(Lang::of_message("how do I undo my last commit", Lang::Ko), Lang::En);
        assert_eq!(Lang::of_message("커밋 취소하는 법", Lang::En), Lang::Ko);
    }

    #[test]
    fn counts_are_grouped_in_threes() {
        let cases = [(0, "0"), (999, "999"), (1000, "1,000"), (12345, "12,345"), (1234567, "1,234,567")];
        for (n, want) in cases {
            assert_eq!(group_thousands(n), want);
        }
    }
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn detects_korean_by_hangul_and_english_otherwise() {
        let cases = [
            ("뉴스 요약 파이프라인 만들어줘", Lang::Ko),
            ("build a news digest", Lang::En),
            ("GPT로 report 만들기", Lang::Ko),
            ("", Lang::En),
        ];
        for (text, want) in cases {
            assert_eq!(Lang::detect(text), want, "{text}");
        }
    }

    #[test]
    fn normalize_ignores_case_punctuation_and_spacing() {
        assert_eq!(normalize("  Who is it FOR?? "), "who is it for");
        assert_eq!(normalize("누구를 위한 건가요?"), "누구를 위한 건가요");
        assert_eq!(normalize("a-b"), "a b");
    }

    #[test]
    fn korean_particles_follow_the_final_sound() {
        assert_eq!(with_object("뉴스"), "뉴스를");
        assert_eq!(with_object("목록"), "목록을");
        assert_eq!(with_instrumental("표"), "표로");
        assert_eq!(with_instrumental("마크다운 문서"), "마크다운 문서로");
        assert_eq!(with_instrumental("파일"), "파일로");
        assert_eq!(with_instrumental("JSON"), "JSON으로");
        assert_eq!(with_instrumental("보고서"), "보고서로");
        assert_eq!(with_subject("설계안"), "설계안이");
        assert_eq!(with_subject("표"), "표가");
        assert_eq!(with_topic("형식"), "형식은");
        assert_eq!(with_topic("장소"), "장소는");
        assert_eq!(quoted("예산", with_subject), "'예산'이");
        assert_eq!(quoted("마크다운", with_instrumental), "'마크다운'으로");
        assert_eq!(quoted("표", with_object), "'표'를");
    }

    #[test]
    fn clip_marks_cut_text() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(clip("가나다라마", 3), "가나…");
        assert_eq!(clip("I have been really stressed at work lately", 25), "I have been really…");
        assert_eq!(clip("요즘 회사 일 때문에 너무 힘들어요", 12), "요즘 회사 일 때문에…");
        // A word boundary right at the cut keeps every kept word whole.
        assert_eq!(clip("one two three four", 9), "one two…");
        // One long word is cut inside it: there is no space to fall back to.
        assert_eq!(clip("supercalifragilistic and more", 10), "supercali…");
    }
}
