//! Tolerant reading of JSON that language models write: fenced, bare, or buried in prose.

use serde_json::Value;

/// Why no JSON value could be read from a model's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonProblem {
    /// The answer was empty or only whitespace.
    Empty,
    /// No stage found a parsable JSON object or array.
    NotFound,
}

impl JsonProblem {
    /// A short reason for the UI.
    pub fn reason(&self) -> &'static str {
        match self {
            JsonProblem::Empty => "empty answer",
            JsonProblem::NotFound => "no JSON in the answer",
        }
    }
}

/// Reads the first JSON object or array from `raw`, trying in order:
/// 1. the body of a ```json (or bare ```) fenced block,
/// 2. the whole (trimmed) text,
/// 3. the first balanced `{…}` or `[…]` (string literals and escapes respected),
///
/// and gives up with a reason. Never panics.
pub fn extract_json(raw: &str) -> Result<Value, JsonProblem> {
    if raw.trim().is_empty() {
        return Err(JsonProblem::Empty);
    }
    let body = fenced_body(raw).unwrap_or(raw).trim();
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        if value.is_object() || value.is_array() {
            return Ok(value);
        }
    }
    // Stage 3 tries every opening bracket in turn, so prose with a stray "{" before
    // the real object still works.
    for (start, c) in body.char_indices() {
        if c != '{' && c != '[' {
            continue;
        }
        if let Some(candidate) = balanced_from(body, start) {
            if let Ok(value) = serde_json::from_str::<Value>(candidate) {
                return Ok(value);
            }
        }
    }
    Err(JsonProblem::NotFound)
}

/// The text between the first ``` fence (optionally tagged `json`) and its closing fence.
fn fenced_body(raw: &str) -> Option<&str> {
    let open = raw.find("```")?;
    let after = &raw[open + 3..];
    // Skip the info string ("json", "JSON", ...) up to the end of the line.
    let body_start = after.find('\n').map(|i| i + 1).unwrap_or(0);
    let info = after[..body_start].trim();
    if !info.is_empty() && !info.eq_ignore_ascii_case("json") {
        return None;
    }
    let body = &after[body_start..];
    let close = body.find("```").unwrap_or(body.len());
    Some(&body[..close])
}

/// The balanced object or array starting at byte `start`, if it closes.
fn balanced_from(text: &str, start: usize) -> Option<&str> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (offset, c) in text[start..].char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&text[start..start + offset + c.len_utf8()]);
                }
            }
            _ => {}
        }
    }
    None
}

/// A string field, trimmed; empty when missing or not a string.
pub fn str_field(value: &Value, key: &str) -> String {
    match value.get(key) {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// A list of non-empty strings from an array field (a lone string counts as one item),
/// at most `max` of them.
pub fn str_list(value: &Value, key: &str, max: usize) -> Vec<String> {
    let items: Vec<String> = match value.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(s) => Some(s.trim().to_string()),
                Value::Number(n) => Some(n.to_string()),
                Value::Object(_) => item
                    .get("text")
                    .or_else(|| item.get("question"))
                    .or_else(|| item.get("name"))
                    .and_then(Value::as_str)
                    .map(|s| s.trim().to_string()),
                _ => None,
            })
            .collect(),
        Some(Value::String(s)) => vec![s.trim().to_string()],
        _ => Vec::new(),
    };
    items.into_iter().filter(|s| !s.is_empty()).take(max).collect()
}

/// A boolean field, accepting `true`, `"true"`, `"yes"` and 1.
pub fn bool_field(value: &Value, key: &str) -> bool {
    match value.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "yes" | "y"),
        Some(Value::Number(n)) => n.as_f64() == Some(1.0),
        _ => false,
    }
}

/// A number field, accepting numbers and numeric strings ("0.7", "70%").
pub fn f64_field(value: &Value, key: &str) -> Option<f64> {
    match value.get(key)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim();
            if let Some(pct) = s.strip_suffix('%') {
                pct.trim().parse::<f64>().ok().map(|p| p / 100.0)
            } else {
                s.parse::<f64>().ok()
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn reads_json_in_every_shape_models_write() {
        let cases = [
            (r#"{"a": 1}"#, "a"),
            ("```json\n{\"a\": 1}\n```", "a"),
            ("```JSON\n{\"b\": 2}\n```\nHope this helps!", "b"),
            ("```\n{\"c\": 3}\n```", "c"),
            ("Sure! Here is the analysis:\n{\"d\": {\"e\": \"}\"}}\nLet me know.", "d"),
            ("The braces {like this} are prose. {\"f\": \"x\\\"}\"}", "f"),
            ("[{\"g\": 1}]", ""),
        ];
        for (raw, key) in cases {
            let value = extract_json(raw).unwrap_or_else(|e| panic!("{raw}: {e:?}"));
            if key.is_empty() {
                assert!(value.is_array(), "{raw}");
            } else {
                assert!(value.get(key).is_some(), "{raw} should have {key}");
            }
        }
    }

    #[test]
    fn gives_up_with_a_reason_instead_of_panicking() {
        let cases = [
            ("", JsonProblem::Empty),
            ("   \n", JsonProblem::Empty),
            ("no json here", JsonProblem::NotFound),
            ("{\"unterminated\": \"", JsonProblem::NotFound),
            ("}}}{{{", JsonProblem::NotFound),
            ("```json\n{broken\n```", JsonProblem::NotFound),
            ("42", JsonProblem::NotFound),
        ];
        for (raw, want) in cases {
            assert_eq!(extract_json(raw), Err(want), "{raw:?}");
        }
    }

    #[test]
    fn field_readers_coerce_types() {
        let v: Value = serde_json::from_str(
            r#"{"s":" x ","n":3,"list":["a"," ",{"text":"b"},7],"one":"solo","t":"yes","p":"70%","f":0.5}"#,
        )
        .unwrap();
        assert_eq!(str_field(&v, "s"), "x");
        assert_eq!(str_field(&v, "n"), "3");
        assert_eq!(str_field(&v, "missing"), "");
        assert_eq!(str_list(&v, "list", 10), vec!["a", "b", "7"]);
        assert_eq!(str_list(&v, "list", 1), vec!["a"]);
        assert_eq!(str_list(&v, "one", 4), vec!["solo"]);
        assert!(bool_field(&v, "t"));
        assert!(!bool_field(&v, "s"));
        assert_eq!(f64_field(&v, "p"), Some(0.7));
        assert_eq!(f64_field(&v, "f"), Some(0.5));
        assert_eq!(f64_field(&v, "s"), None);
    }
}
