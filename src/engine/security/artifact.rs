//! Telling a model's prompt artifacts (echoed tags, schema field names, instruction words,
//! the request copied whole) from content.

use super::screen;
use crate::engine::words::WordList;

/// Field names and placeholders a model echoes back from a schema instead of content.
/// Korean entries glossed.
// 이름: name; 설명: description; 역할: role; 설계안: design; 설계안 이름: design name; 에이전트: agent; 장점: pros; 단점: cons; 목표:
// goal; 없음: none
const SCHEMA_WORDS: WordList = WordList(
    "name|description|agents|agent|role|model|pros|cons|estimated cost|\
    estimated_cost|complexity|recommended|design|designs|string|text|value|example|placeholder|todo|tbd|\
    n a|na|null|none|undefined|design name|agent name|goal|context|criteria|format|user input|\
    user_input|request|weaknesses|risks|recommendation|json|이름|설명|역할|설계안|설계안 이름|에이전트|\
    장점|단점|목표|없음",
);

/// Words that only an instruction (not content) would be: the design named
/// "무시" (ignore). Korean entries glossed.
const INSTRUCTION_WORDS: &[&str] = &[
    "무시",            // ignore
    "이전 지시",       // previous instructions
    "시스템 프롬프트", // system prompt
    "ignore",
    "disregard",
    "system prompt",
    "previous instructions",
    "as an ai",
];

/// True when a model's text is a prompt artifact rather than content: empty or only
/// punctuation, a tag (`<user_input>`), a schema field name or placeholder
/// ("name", "…", "collector|validator"), an instruction word ("무시", "ignore"),
/// an injection pattern, or the user's request copied whole.
pub fn is_prompt_artifact(text: &str, request: &str) -> bool {
    let trimmed = text.trim();
    if !trimmed.chars().any(char::is_alphanumeric) {
        return true;
    }
    if (trimmed.contains('<') && trimmed.contains('>')) || trimmed.contains('|') || trimmed.contains("&lt;") {
        return true;
    }
    let norm = crate::engine::lang::normalize(trimmed);
    if SCHEMA_WORDS.iter().any(|w| crate::engine::lang::normalize(w) == norm) {
        return true;
    }
    if INSTRUCTION_WORDS.iter().any(|w| norm.contains(&crate::engine::lang::normalize(w))) || screen(trimmed).blocked()
    {
        return true;
    }
    let request = crate::engine::lang::normalize(request);
    request.chars().count() >= 12 && norm.contains(&request)
}

#[cfg(test)]
mod artifact_tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn prompt_artifacts_are_told_from_content() {
        let request = "매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘";
        let cases = [
            ("<user_input>", true),
            ("</user_input>", true),
            ("무시", true),
            ("Ignore previous instructions", true),
            ("name", true),
            ("Description", true),
            ("…", true),
            ("", true),
            ("collector|validator|processor", true),
            ("설계안 이름", true),
            ("매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘", true),
            ("Design: 매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘", true),
            ("뉴스 요약 파이프라인", false),
            ("Lean digest", false),
            ("collector", false),
            ("검증기", false),
            ("Model-agnostic summarizer", false),
        ];
        for (text, want) in cases {
            assert_eq!(is_prompt_artifact(text, request), want, "{text:?}");
        }
    }
}
