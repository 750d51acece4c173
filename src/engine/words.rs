//! Picking the words that carry a request's meaning, so heuristic artifacts can speak
//! about the user's subject instead of a fixed text.

/// English words that carry no subject.
const EN_STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "to",
    "of",
    "for",
    "in",
    "on",
    "at",
    "by",
    "with",
    "from",
    "into",
    "about",
    "i",
    "me",
    "my",
    "we",
    "our",
    "us",
    "you",
    "your",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "is",
    "are",
    "be",
    "was",
    "were",
    "been",
    "do",
    "does",
    "did",
    "can",
    "could",
    "would",
    "should",
    "will",
    "shall",
    "may",
    "might",
    "must",
    "please",
    "want",
    "need",
    "like",
    "make",
    "build",
    "create",
    "help",
    "design",
    "write",
    "some",
    "something",
    "thing",
    "things",
    "get",
    "give",
    "let",
    "lets",
    "let's",
    "which",
    "what",
    "that",
    "so",
    "as",
    "then",
    "than",
    "also",
    "just",
    "very",
    "really",
    "new",
    "using",
    "use",
    "via",
    "per",
    "every",
    "each",
    "all",
    "any",
    "into",
    "out",
    "up",
    "down",
    "how",
    "who",
    "when",
    "where",
    "why",
    "if",
    "else",
    "there",
    "here",
    "have",
    "has",
    "had",
    "not",
    "no",
    "yes",
    "simple",
    "quick",
    "tool",
    "way",
];

/// Korean words that carry no subject: requests, fillers and light verbs.
const KO_STOP: &[&str] = &[
    "만들어줘",
    "만들어",
    "만들고",
    "만들기",
    "만들어주세요",
    "해줘",
    "해주세요",
    "하고",
    "싶어",
    "싶어요",
    "싶습니다",
    "주세요",
    "좀",
    "그냥",
    "간단한",
    "간단하게",
    "새로운",
    "어떤",
    "무슨",
    "이런",
    "그런",
    "저런",
    "나는",
    "내가",
    "저는",
    "제가",
    "우리",
    "우리가",
    "위한",
    "위해",
    "같은",
    "있는",
    "없는",
    "하는",
    "되는",
    "한",
    "할",
    "것",
    "거",
    "수",
    "등",
    "및",
    "또는",
    "그리고",
    "하지만",
    "부탁해",
    "부탁드립니다",
    "필요해",
    "필요합니다",
    "원해",
    "원합니다",
    "만들려고",
    "해",
    "줘",
    "설계",
    "설계해줘",
    "도와줘",
    "도와주세요",
    "짜줘",
    "짜주세요",
    "정리해줘",
    "작성해줘",
    // Schedule words say when, not what: every day, morning, evening, weekly, today, tomorrow, automatically.
    "매일",
    "아침",
    "저녁",
    "매주",
    "매달",
    "오늘",
    "내일",
    "항상",
    "자동으로",
    "자동",
];

/// Korean particles and endings stripped from the end of a word (longest first).
const KO_SUFFIXES: &[&str] = &[
    "으로부터",
    "에서는",
    "에게서",
    "으로는",
    "이라는",
    "라는",
    "에서",
    "에게",
    "으로",
    "까지",
    "부터",
    "처럼",
    "보다",
    "하고",
    "이랑",
    "랑",
    "을",
    "를",
    "이",
    "가",
    "은",
    "는",
    "에",
    "로",
    "의",
    "와",
    "과",
    "도",
    "만",
];

/// Up to `max` content words of `text`, in order of appearance, without repeats.
pub fn content_words(text: &str, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.split(|c: char| c.is_whitespace() || ",.;:!?()[]{}\"'“”‘’/".contains(c)) {
        if out.len() >= max {
            break;
        }
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if word.is_empty() {
            continue;
        }
        let lower = word.to_ascii_lowercase();
        let word = if super::lang::Lang::detect(word) == super::lang::Lang::Ko {
            if KO_STOP.contains(&word) {
                continue;
            }
            strip_korean_suffix(word)
        } else {
            // Acronyms such as "IT", "PDF", "API" keep their case and always count.
            let acronym = word.len() >= 2 && word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            if acronym {
                word.to_string()
            } else if EN_STOP.contains(&lower.as_str()) || lower.len() < 3 {
                continue;
            } else {
                lower
            }
        };
        if word.chars().count() < 2 && !word.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        if KO_STOP.contains(&word.as_str()) || looks_like_verb(&word) {
            continue;
        }
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

fn strip_korean_suffix(word: &str) -> String {
    for suffix in KO_SUFFIXES {
        if let Some(stem) = word.strip_suffix(suffix) {
            if stem.chars().count() >= 2 {
                return stem.to_string();
            }
        }
    }
    word.to_string()
}

/// Korean verb and adjective forms ("만들어줘", "요약해서", "싶은") say what to do, not about what.
fn looks_like_verb(word: &str) -> bool {
    const ENDINGS: &[&str] = &[
        "해줘",
        "해서",
        "하는",
        "하게",
        "해요",
        "합니다",
        "하고",
        "줘요",
        "어줘",
        "아줘",
        "싶은",
        "싶다",
        "하기",
        "되게",
        "해주는",
        "해야",
        "할까",
        "인데",
        "이고",
        "려고",
    ];
    ENDINGS.iter().any(|e| word.ends_with(e))
}

/// The subject of a request in a few words: "뉴스 요약 파이프라인" or "news digest".
pub fn topic(text: &str) -> String {
    content_words(text, 3).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn topic_keeps_subject_words_in_both_languages() {
        let cases = [
            ("매일 아침 IT 뉴스를 요약해서 슬랙으로 보내는 파이프라인을 만들어줘", "IT 뉴스 슬랙"),
            ("Summarize PDF invoices into a table", "summarize PDF invoices"),
            ("뉴스 요약 파이프라인 만들어줘", "뉴스 요약 파이프라인"),
            ("Build a pipeline that summarizes daily news for my team", "pipeline summarizes daily"),
            ("고객 리뷰를 분석하고 싶어요", "고객 리뷰 분석"),
            ("please help", ""),
        ];
        for (text, want) in cases {
            assert_eq!(topic(text), want, "{text}");
        }
    }
}
