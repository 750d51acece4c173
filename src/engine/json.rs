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

/// Why a model's answer that should be prose cannot be shown as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProseProblem {
    /// Nothing, or only whitespace.
    Empty,
    /// A JSON value with no text in it to show: `{"answer": null}`, `[]`, `null`, `42`.
    Json,
}

impl ProseProblem {
    /// A short reason for the UI.
    pub fn reason(self, lang: crate::engine::lang::Lang) -> &'static str {
        match self {
            ProseProblem::Empty => lang.pick("답이 비어 있습니다", "the answer was empty"),
            ProseProblem::Json => lang.pick("답이 문장이 아니라 JSON이었습니다", "the answer was JSON, not a reply"),
        }
    }
}

/// The text of an answer that should be prose: the answer itself, or the text a small model
/// wrapped in JSON (`{"reply": "…"}`, `"…"`, or a fenced block of either). An answer that is
/// nothing but a JSON value with no text to show is a problem, not a reply.
pub fn prose(answer: &str) -> Result<String, ProseProblem> {
    let answer = answer.trim();
    if answer.is_empty() {
        return Err(ProseProblem::Empty);
    }
    let body = fenced_body(answer).map(str::trim).filter(|b| !b.is_empty()).unwrap_or(answer);
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return Ok(answer.to_string());
    };
    let text = match &value {
        Value::String(s) => s.trim().to_string(),
        Value::Object(map) => {
            // The reply under a usual name, else the one field that holds text.
            let named = ["reply", "response", "answer", "message", "text", "content"]
                .iter()
                .find_map(|k| map.get(*k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()));
            let texts: Vec<&str> =
                map.values().filter_map(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).collect();
            named.or(if texts.len() == 1 { texts.first().copied() } else { None }).unwrap_or("").to_string()
        }
        _ => String::new(),
    };
    if text.is_empty() {
        Err(ProseProblem::Json)
    } else {
        Ok(text)
    }
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
                decimal(pct.trim()).map(|p| p / 100.0)
            } else {
                decimal(s)
            }
        }
        _ => None,
    }
}

/// A decimal number written out ("7", "-0.5", "1.5e3", ".25"), as `f64`. Not `str::parse`:
/// that links the standard library's correctly rounded float reader and its tables (about
/// 14 KB of gzip in the wasm) for numbers a model or a header writes with a few digits.
/// Exact (correctly rounded) when the digits, without the point, fit in 2^53 and the
/// power of ten is at most 22 either way, which covers every such number; otherwise
/// within a few units in the last place. No "inf" or "NaN": `None`, as for any other text.
pub fn decimal(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            at = 1;
            true
        }
        Some(b'+') => {
            at = 1;
            false
        }
        _ => false,
    };
    let (mut mantissa, mut exponent, mut digits) = (0u64, 0i32, 0usize);
    let mut seen_point = false;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                if mantissa < 1_000_000_000_000_000_000 {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    exponent -= i32::from(seen_point);
                } else {
                    // Digits past the 19th only scale the number (after the point: dropped).
                    exponent += i32::from(!seen_point);
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        at += 1;
    }
    if digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        let sign = match bytes.get(at) {
            Some(b'-') => {
                at += 1;
                -1
            }
            Some(b'+') => {
                at += 1;
                1
            }
            _ => 1,
        };
        let start = at;
        let mut power = 0i32;
        while let Some(&b @ b'0'..=b'9') = bytes.get(at) {
            power = power.saturating_mul(10).saturating_add(i32::from(b - b'0'));
            at += 1;
        }
        if at == start {
            return None;
        }
        exponent = exponent.saturating_add(sign * power);
    }
    if at != bytes.len() {
        return None;
    }
    let value = mantissa as f64;
    // 10^k is exact in an f64 up to k = 22, so one multiplication or division by it rounds once.
    let power = |k: i32| (0..k).fold(1.0f64, |p, _| p * 10.0);
    // Beyond that, steps of 10^22: a rounding per step, a few steps for any real number.
    let (mut scaled, mut left) = (value, exponent.clamp(-400, 400));
    while left > 22 {
        scaled *= power(22);
        left -= 22;
    }
    while left < -22 {
        scaled /= power(22);
        left += 22;
    }
    let scaled = if left >= 0 { scaled * power(left) } else { scaled / power(-left) };
    Some(if negative { -scaled } else { scaled })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn prose_is_the_answer_or_the_text_a_model_wrapped_in_json_and_bare_json_is_a_problem() {
        let shown = [
            ("  That sounds hard. What happened next?  ", "That sounds hard. What happened next?"),
            (r#"{"reply": "힘드셨겠어요. 언제부터 그랬나요?"}"#, "힘드셨겠어요. 언제부터 그랬나요?"),
            (r#"{"emotion": "sad", "response": "That sounds heavy."}"#, "That sounds heavy."),
            (r#"{"thought": "Reflect first."}"#, "Reflect first."),
            ("```json\n{\"answer\": \"Tell me more.\"}\n```", "Tell me more."),
            (r#""Quoted, as a JSON string.""#, "Quoted, as a JSON string."),
            // Braces inside prose are prose.
            ("Try {one thing} this week.", "Try {one thing} this week."),
        ];
        for (answer, want) in shown {
            assert_eq!(prose(answer).as_deref(), Ok(want), "{answer}");
        }
        for (answer, want) in [
            ("", ProseProblem::Empty),
            ("  \n ", ProseProblem::Empty),
            (r#"{"answer": null}"#, ProseProblem::Json),
            ("{}", ProseProblem::Json),
            ("[]", ProseProblem::Json),
            ("null", ProseProblem::Json),
            ("42", ProseProblem::Json),
            (r#"{"a": "one", "b": "two"}"#, ProseProblem::Json),
            (r#"{"reply": "   "}"#, ProseProblem::Json),
        ] {
            assert_eq!(prose(answer), Err(want), "{answer}");
        }
        assert!(ProseProblem::Json.reason(crate::engine::lang::Lang::Ko).contains("JSON"));
    }

    #[test]
    fn decimals_read_as_the_standard_reader_reads_them() {
        let agree = [
            "0",
            "7",
            "-3",
            "+4",
            "7.5",
            "0.1",
            "0.3",
            "-0.5",
            ".25",
            "1.",
            "70",
            "1.5e3",
            "2E-2",
            "1e22",
            "1e-22",
            "123456789012345678",
            "9007199254740993",
            "3.141592653589793",
            "0.000001",
            "00012.50",
            "1e+2",
            "-0",
        ];
        for text in agree {
            let want: f64 = text.parse().unwrap();
            assert_eq!(decimal(text), Some(want), "{text}");
        }
        // Past the exact range: within a few units in the last place.
        for text in ["12345678901234567890123", "1.234e-30", "6.02214076e23", "1e300"] {
            let want: f64 = text.parse().unwrap();
            let got = decimal(text).unwrap();
            assert!(((got - want) / want).abs() < 1e-15, "{text}: {got} vs {want}");
        }
        assert_eq!(decimal("1e400"), Some(f64::INFINITY));
        for text in ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "7 ", " 7", "7a", "inf", "NaN", "0x10", "1_000"] {
            assert_eq!(decimal(text), None, "{text:?}");
        }
    }

    #[test]
    fn number_fields_take_numbers_strings_and_percentages() {
        let v = serde_json::json!({"a": 0.7, "b": "0.7", "c": "70%", "d": " 7.5 ", "e": "seven", "f": "NaN"});
        assert_eq!(f64_field(&v, "a"), Some(0.7));
        assert_eq!(f64_field(&v, "b"), Some(0.7));
        assert_eq!(f64_field(&v, "c"), Some(0.7));
        assert_eq!(f64_field(&v, "d"), Some(7.5));
        assert_eq!(f64_field(&v, "e"), None);
        assert_eq!(f64_field(&v, "f"), None);
        assert_eq!(f64_field(&v, "missing"), None);
    }

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
