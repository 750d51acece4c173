//! A finished answer, whichever protocol and whether streamed or not.

use crate::engine::call::{LlmFailure, LlmOutcome, Usage};
use crate::engine::prompt::ToolCall;

/// A complete answer from a model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Completion {
    /// The answer text (text blocks joined, for Anthropic).
    pub text: String,
    /// The model that answered, as the provider reported it (empty when it did not say).
    pub model: String,
    /// Token usage, when the provider reported it.
    pub usage: Option<Usage>,
    /// Tool calls in the order the model made them.
    pub tool_calls: Vec<ToolCall>,
    /// Why the model stopped, in the provider's words (`stop`, `length`, `end_turn`, `max_tokens`, ...).
    pub stop_reason: Option<String>,
    /// True when `text` is the model's refusal (OpenAI `refusal`, Anthropic stop reason `refusal`).
    pub refusal: bool,
}

impl Completion {
    /// True when the model stopped because it hit the token limit, so the text may be cut.
    pub fn is_truncated(&self) -> bool {
        matches!(self.stop_reason.as_deref(), Some("length" | "max_tokens"))
    }

    /// True when there is neither text nor a tool call.
    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty() && self.tool_calls.is_empty()
    }
}

impl From<Result<Completion, LlmFailure>> for LlmOutcome {
    fn from(result: Result<Completion, LlmFailure>) -> Self {
        match result {
            Ok(c) => LlmOutcome::Ok {
                text: c.text,
                model: c.model,
                usage: c.usage,
                tool_calls: c.tool_calls,
                refusal: c.refusal,
            },
            Err(f) => LlmOutcome::Failed(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::call::FailureKind;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn completion_converts_to_engine_outcome() {
        let c = Completion {
            text: "hi".into(),
            model: "m".into(),
            usage: Some(Usage { input_tokens: 1, output_tokens: 2 }),
            tool_calls: vec![],
            stop_reason: Some("stop".into()),
            refusal: false,
        };
        let outcome: LlmOutcome = Ok(c).into();
        assert_eq!(
            outcome,
            LlmOutcome::Ok {
                text: "hi".into(),
                model: "m".into(),
                usage: Some(Usage { input_tokens: 1, output_tokens: 2 }),
                tool_calls: vec![],
                refusal: false,
            }
        );
        let failure = LlmFailure { kind: FailureKind::Empty, detail: String::new(), status: None, partial: None };
        let outcome: LlmOutcome = Err(failure.clone()).into();
        assert_eq!(outcome, LlmOutcome::Failed(failure));
    }

    #[test]
    fn truncation_is_read_from_either_providers_stop_reason() {
        let cases = [
            (Some("length"), true),
            (Some("max_tokens"), true),
            (Some("stop"), false),
            (Some("end_turn"), false),
            (None, false),
        ];
        for (reason, want) in cases {
            let c = Completion { stop_reason: reason.map(String::from), ..Completion::default() };
            assert_eq!(c.is_truncated(), want, "{reason:?}");
        }
    }
}
