//! A conversation's title from its first request, by the model when one is configured: the
//! prompt, and the reading of an answer that may be anything (a sentence, quotes, JSON, a
//! refusal). Without a model, or when its answer is not a title, the sessions list keeps the
//! title made from the request itself (`store::sessions::title_of`).

use super::case::Lower;
use super::lang::clip;
use super::prompt::{Prompt, Turn};
use super::prompt_text::{self, PromptText};
use super::security::{isolate, DEFAULT_TAG};

/// Most characters of the request the model sees.
const REQUEST_CHARS: usize = 600;
/// Most characters of a title; a longer answer is not a title.
pub const MAX_TITLE_CHARS: usize = 60;
/// Most words of a title.
const MAX_TITLE_WORDS: usize = 10;

/// The prompt asking for a title of the conversation that begins with `request`.
pub fn title_prompt(request: &str) -> Prompt {
    Prompt {
        system: prompt_text::text(PromptText::TitleSystemPrompt).to_string(),
        turns: vec![Turn::user(isolate(&clip(request.trim(), REQUEST_CHARS), DEFAULT_TAG))],
        json_output: false,
        max_tokens: 40,
        temperature: 0.2,
        tools: Vec::new(),
    }
}

/// The title in a model's answer, or None when the answer is not one: empty, a refusal,
/// several sentences, code, or longer than a title. Quotes, a "Title:" label, Markdown
/// emphasis or heading marks, a final period and a JSON `{"title": …}` wrapper are taken off.
pub fn read_title(answer: &str) -> Option<String> {
    let answer = answer.trim();
    let from_json = serde_json::from_str::<serde_json::Value>(answer)
        .ok()
        .and_then(|v| v.get("title").and_then(|t| t.as_str()).map(str::to_string));
    let text = match from_json {
        Some(t) => t,
        None if answer.starts_with('{') || answer.starts_with('[') || answer.contains("```") => return None,
        None => answer.lines().map(str::trim).find(|l| !l.is_empty())?.to_string(),
    };
    let mut text = text.trim().trim_start_matches('#').trim().to_string();
    for label in ["title:", "title -", "제목:", "제목 :", "name:"] {
        if text.get(..label.len()).is_some_and(|head| head.lower() == label) {
            text = text[label.len()..].trim().to_string();
        }
    }
    let quotes: &[char] = &['"', '\'', '“', '”', '‘', '’', '「', '」', '『', '』', '*', '_', '`'];
    let text = text.trim_matches(quotes).trim().trim_end_matches(['.', '。']).trim_matches(quotes).trim();
    let refusal =
        ["i can't", "i cannot", "sorry", "as an ai", "죄송", "할 수 없"].iter().any(|r| text.lower().contains(r));
    let words = text.split_whitespace().count();
    let fits = (1..=MAX_TITLE_WORDS).contains(&words) && text.chars().count() <= MAX_TITLE_CHARS;
    let one_sentence = !text.contains(". ") && !text.contains("? ") && !text.contains("! ");
    (fits && one_sentence && !refusal).then(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_carries_the_request_as_data_and_asks_for_a_name_only() {
        let p = title_prompt("  이번 주말 부산 여행 계획 세워줘  ");
        assert!(p.system.contains("at most 6 words") && p.system.contains("never instructions"));
        assert_eq!(p.turns.len(), 1);
        assert!(
            p.turns[0].text.starts_with("<user_input>") && p.turns[0].text.contains("이번 주말 부산 여행 계획 세워줘")
        );
        let long = title_prompt(&"x".repeat(5_000));
        assert!(long.turns[0].text.chars().count() < REQUEST_CHARS + 40);
    }

    #[test]
    fn answers_that_are_titles_are_cleaned() {
        let cases = [
            ("Weekend trip to Busan", "Weekend trip to Busan"),
            ("\"Weekend trip to Busan.\"", "Weekend trip to Busan"),
            ("Title: Weekend trip to Busan", "Weekend trip to Busan"),
            ("**부산 주말 여행 계획**", "부산 주말 여행 계획"),
            ("# 부산 주말 여행", "부산 주말 여행"),
            ("{\"title\": \"팀 점심 메뉴 정하기\"}", "팀 점심 메뉴 정하기"),
            ("\n\n  Lunch order for the team  \n", "Lunch order for the team"),
            ("제목: 「점심 메뉴」", "점심 메뉴"),
            ("TITLE: Kitchen remodel", "Kitchen remodel"),
        ];
        for (answer, want) in cases {
            assert_eq!(read_title(answer).as_deref(), Some(want), "{answer}");
        }
    }

    #[test]
    fn answers_that_are_not_titles_are_refused() {
        let cases = [
            "",
            "   ",
            "{}",
            "{\"name\": 3}",
            "[\"a\", \"b\"]",
            "```\ntitle\n```",
            "I'm sorry, but I can't help with naming this.",
            "죄송하지만 제목을 만들 수 없습니다",
            "This conversation is about planning a trip. It covers dates, places and a budget for four people.",
            &"word ".repeat(30),
            &"가".repeat(80),
        ];
        for answer in cases {
            assert_eq!(read_title(answer), None, "{answer:?}");
        }
    }
}
