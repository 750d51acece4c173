//! Supervisor: rates the counseling every 3rd user message, in the background, after the
//! reply; its feedback (score 0–10, points to improve) applies from the next turn.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::module::Module;
use super::state::{detect_state, transcript};
use super::task::{Part, Task};
use crate::engine::grounding::system_prompt;
use crate::engine::json::{extract_json, f64_field, str_field, str_list};
use crate::engine::lang::{clip, normalize, Lang};
use crate::engine::prompt::{Prompt, Turn, TurnRole};
use crate::engine::prompt_text::{self, PromptText};

/// The supervisor runs after every this many user messages.
pub const CADENCE: u32 = 3;

/// Feedback below this score reaches the counselor prompt (seed: "점수 < 7일 때만").
pub const ATTENTION_BELOW: u8 = 7;

/// True exactly on the 3rd, 6th, 9th … user message.
pub fn is_due(user_messages: u32) -> bool {
    user_messages > 0 && user_messages % CADENCE == 0
}

/// One supervision: a score and what to improve (the seed drops "what went well").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupervisorFeedback {
    /// Quality of the counseling so far, 0..=10.
    pub score: u8,
    /// Points to improve, at most three.
    pub improvements: Vec<String>,
    /// A module the supervisor recommends, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_module: Option<Module>,
    /// The user message count it was made at.
    pub at_user_message: u32,
    /// True when an LLM wrote it, false for the heuristic twin.
    #[serde(default)]
    pub by_llm: bool,
}

impl SupervisorFeedback {
    /// True when the counselor must hear about it (score below 7).
    pub fn needs_attention(&self) -> bool {
        self.score < ATTENTION_BELOW
    }

    /// The block the counselor prompt carries when the score is below 7.
    pub fn format_for_counselor(&self, lang: Lang) -> String {
        let mut out = match lang {
            Lang::Ko => format!("=== Supervision 피드백 (점수 {}/10) ===\n개선할 점:", self.score),
            Lang::En => format!("=== Supervision feedback (score {}/10) ===\nTo improve:", self.score),
        };
        for point in &self.improvements {
            out.push_str("\n- ");
            out.push_str(point);
        }
        out
    }
}

/// The supervisor prompt: part, task, module and the recent conversation.
pub fn supervisor_prompt(history: &[Turn], part: Part, task: Option<&Task>, module: Module, lang: Lang) -> Prompt {
    let mut lines = vec![
        format!("[PART] {}", part.label(Lang::En)),
        format!("[TASK] {}", task.map(|t| format!("{} — {}", t.title, t.target)).unwrap_or_else(|| "(none)".into())),
        format!("[MODULE] {}", module.id()),
        String::new(),
        "[RECENT CONVERSATION]".into(),
    ];
    lines.extend(transcript(history, 6));
    lines.push(String::new());
    lines.push("Output the supervision JSON only.".into());
    let system =
        system_prompt("counsel-supervisor", prompt_text::text(PromptText::CounselSupervisorInstructions), lang);
    Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(500)
}

/// Reads the supervisor's answer: the score must be a number in 0..=10, a named module must
/// exist. Fails with a reason; never panics.
pub fn parse_feedback(raw: &str, at_user_message: u32) -> Result<SupervisorFeedback, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    if !value.is_object() {
        return Err("the answer is not a JSON object".into());
    }
    let score = match f64_field(&value, "score") {
        Some(n) if (0.0..=10.0).contains(&n) => n.round() as u8,
        Some(_) => return Err(format!("score {} is outside 0..10", value["score"])),
        None => return Err("the answer has no numeric score".into()),
    };
    let key = if value.get("improvements").is_some() { "improvements" } else { "points_to_improve" };
    let improvements = str_list(&value, key, 3).into_iter().map(|p| clip(&p, 200)).collect();
    let suggested_module = match value.get("suggested_module") {
        None | Some(Value::Null) => None,
        Some(_) => {
            let id = str_field(&value, "suggested_module");
            match id.to_ascii_lowercase().as_str() {
                "" | "null" | "none" => None,
                _ => Some(Module::from_id(&id).ok_or_else(|| format!("unknown module '{id}'"))?),
            }
        }
    };
    Ok(SupervisorFeedback { score, improvements, suggested_module, at_user_message, by_llm: true })
}

/// Heuristic twin: starts at 8 and takes points off for repeated phrasing, several
/// questions at once, long replies, not echoing the user's words, and ignoring resistance
/// or a strong feeling in the current module.
pub fn heuristic_review(history: &[Turn], module: Module, at_user_message: u32, lang: Lang) -> SupervisorFeedback {
    let replies: Vec<&str> =
        history.iter().filter(|t| t.role == TurnRole::Assistant).map(|t| t.text.as_str()).rev().take(3).collect();
    let mut score: i32 = 8;
    let mut improvements: Vec<String> = Vec::new();
    let mut suggested_module = None;
    let mut take = |points: i32, ko: &str, en: &str, improvements: &mut Vec<String>| {
        score -= points;
        improvements.push(lang.pick(ko, en).to_string());
    };

    let openings: Vec<String> = replies.iter().map(|r| normalize(r).chars().take(10).collect()).collect();
    let repeated = openings.iter().enumerate().any(|(i, a)| openings[i + 1..].iter().any(|b| a == b && !a.is_empty()));
    if repeated {
        take(
            2,
            "공감 표현과 첫마디를 더 다양하게 해 보세요.",
            "Vary the empathy phrases and openings.",
            &mut improvements,
        );
    }
    if replies.iter().any(|r| r.matches(['?', '？']).count() >= 3) {
        take(1, "한 번에 질문은 하나만 해 주세요.", "Ask one question at a time.", &mut improvements);
    }
    if !replies.is_empty() && replies.iter().map(|r| r.chars().count()).sum::<usize>() / replies.len() > 400 {
        take(1, "응답을 더 짧고 간결하게 해 주세요.", "Keep the replies shorter.", &mut improvements);
    }
    let last_user = history.iter().rev().find(|t| t.role == TurnRole::User).map(|t| t.text.as_str()).unwrap_or("");
    let earlier_users: Vec<String> =
        history.iter().filter(|t| t.role == TurnRole::User).map(|t| t.text.clone()).collect();
    let state = detect_state(last_user, &earlier_users[..earlier_users.len().saturating_sub(1)], &[]);
    if state.resistance && module != Module::ResistanceHandling {
        take(
            2,
            "사용자의 망설임을 먼저 인정하고 다뤄 주세요.",
            "Acknowledge and handle the user's reluctance first.",
            &mut improvements,
        );
        suggested_module = Some(Module::ResistanceHandling);
    } else if state.strong_negative_emotion() && module != Module::EmpathicReflection {
        take(
            1,
            "강한 감정을 먼저 충분히 공감해 주세요.",
            "Meet the strong feeling with empathy first.",
            &mut improvements,
        );
        suggested_module = Some(Module::EmpathicReflection);
    }
    SupervisorFeedback {
        score: score.clamp(0, 10) as u8,
        improvements,
        suggested_module,
        at_user_message,
        by_llm: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn supervisor_is_due_exactly_every_third_user_message() {
        let due: Vec<u32> = (0..=10).filter(|n| is_due(*n)).collect();
        assert_eq!(due, [3, 6, 9]);
    }

    #[test]
    fn feedback_parser_checks_the_score_and_module() {
        let fb = parse_feedback(
            r#"{"score": "6", "improvements": ["공감을 더 다양하게"], "suggested_module": "empathic_reflection"}"#,
            3,
        )
        .expect("parses");
        assert_eq!((fb.score, fb.at_user_message, fb.by_llm), (6, 3, true));
        assert_eq!(fb.suggested_module, Some(Module::EmpathicReflection));
        assert!(fb.needs_attention());
        assert!(!parse_feedback(r#"{"score": 7, "improvements": []}"#, 3).unwrap().needs_attention());
        let bad = [
            "",
            "good job",
            r#"{"improvements": ["x"]}"#,
            r#"{"score": 11}"#,
            r#"{"score": -2}"#,
            r#"{"score": "great"}"#,
            r#"{"score": 5, "suggested_module": "hypnosis"}"#,
        ];
        for raw in bad {
            assert!(parse_feedback(raw, 3).is_err(), "{raw}");
        }
        assert_eq!(parse_feedback(r#"{"score": 12.5}"#, 3).unwrap_err(), "score 12.5 is outside 0..10");
        assert_eq!(parse_feedback(r#"{"score": "-3"}"#, 3).unwrap_err(), r#"score "-3" is outside 0..10"#);
    }

    #[test]
    fn heuristic_review_takes_points_for_repetition_and_ignored_resistance() {
        let good = [
            Turn::assistant("반가워요. 오늘 어떤 이야기를 하고 싶으세요?"),
            Turn::user("회사 일이 힘들어요"),
            Turn::assistant("회사 일이 힘드시군요. 어떤 점이 가장 힘드세요?"),
        ];
        let fb = heuristic_review(&good, Module::InformationGathering, 3, Lang::Ko);
        assert_eq!(fb.score, 8);
        assert!(!fb.needs_attention());

        let poor = [
            Turn::assistant("그렇군요. 더 말씀해 주실래요?"),
            Turn::user("회사 일이요"),
            Turn::assistant("그렇군요. 더 말씀해 주실래요? 언제부터요? 누구와요?"),
            Turn::user("왜 자꾸 물어보세요? 말하기 싫어요"),
        ];
        let fb = heuristic_review(&poor, Module::InformationGathering, 6, Lang::Ko);
        assert!(fb.needs_attention(), "{fb:?}");
        assert_eq!(fb.suggested_module, Some(Module::ResistanceHandling));
        assert!(fb.improvements.iter().any(|p| p.contains("다양하게")));
        assert!(fb.improvements.iter().any(|p| p.contains("질문은 하나만")));
        let en = heuristic_review(&poor, Module::ResistanceHandling, 6, Lang::En);
        assert!(en.improvements.iter().all(|p| !p.chars().any(crate::engine::lang::is_hangul)));
        assert_eq!(en.suggested_module, None);
    }

    #[test]
    fn counselor_block_lists_points_to_improve_only() {
        let fb = SupervisorFeedback {
            score: 5,
            improvements: vec!["Ask one question at a time.".into()],
            suggested_module: None,
            at_user_message: 3,
            by_llm: false,
        };
        assert_eq!(
            fb.format_for_counselor(Lang::En),
            "=== Supervision feedback (score 5/10) ===\nTo improve:\n- Ask one question at a time."
        );
        let prompt = supervisor_prompt(&[Turn::user("hi")], Part::Start, None, Module::RapportBuilding, Lang::En);
        assert!(prompt.system.starts_with("# role: counsel-supervisor") && prompt.json_output);
    }
}
