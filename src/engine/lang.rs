//! Languages and text helpers shared by the engine's rules.

use serde::{Deserialize, Serialize};

/// A language the app speaks: the UI and the engine's own wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Ko,
    #[default]
    En,
}

impl Lang {
    /// Korean when the text has any Hangul syllable or jamo, else English.
    pub fn detect(text: &str) -> Lang {
        if text.chars().any(is_hangul) {
            Lang::Ko
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
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// At most `max` characters of `text`, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn clip_marks_cut_text() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(clip("가나다라마", 3), "가나…");
    }
}
