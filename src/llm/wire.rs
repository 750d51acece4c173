//! Small pieces both wire protocols share.

use serde_json::{Number, Value};

use crate::engine::call::{FailureKind, LlmFailure};
use crate::engine::lang::clip;

/// Appended to the system text when a JSON answer is wanted and the protocol cannot enforce it
/// (or, for OpenAI, requires the word "JSON" in the messages).
pub(crate) const JSON_ONLY_INSTRUCTION: &str =
    "Answer with a single JSON object only: no prose before or after it, no Markdown code fences.";

/// The system text with the JSON instruction appended.
pub(crate) fn with_json_instruction(system: &str) -> String {
    let system = system.trim_end();
    if system.is_empty() {
        JSON_ONLY_INSTRUCTION.to_string()
    } else {
        format!("{system}\n\n{JSON_ONLY_INSTRUCTION}")
    }
}

/// A temperature as a JSON number clamped to `0..=max`, rounded to 3 decimals so `0.4f32`
/// is sent as `0.4`, not `0.4000000059604645`; `None` when it is not a finite number.
pub(crate) fn temperature_number(t: f32, max: f32) -> Option<Value> {
    if !t.is_finite() {
        return None;
    }
    let t = f64::from(t.clamp(0.0, max));
    Number::from_f64((t * 1000.0).round() / 1000.0).map(Value::Number)
}

/// A token count field, when present and a non-negative integer.
pub(crate) fn count(value: &Value, key: &str) -> Option<u32> {
    value.get(key).and_then(Value::as_u64).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// A string field, when present and a string.
pub(crate) fn str_field<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// A `Malformed` failure describing what could not be read.
pub(crate) fn malformed(what: &str, data: &str) -> LlmFailure {
    LlmFailure {
        kind: FailureKind::Malformed,
        detail: format!("{what}: {}", clip(data.trim(), 120)),
        status: None,
        partial: None,
    }
}

/// Tool arguments as JSON text; providers send `""` for a call without input.
pub(crate) fn arguments_or_empty_object(arguments: String) -> String {
    if arguments.trim().is_empty() {
        "{}".to_string()
    } else {
        arguments
    }
}
