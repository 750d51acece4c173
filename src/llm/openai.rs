//! OpenAI chat completions, as spoken by api.openai.com and by compatible servers.

use serde_json::{json, Map, Value};

use super::completion::Completion;
use super::error::failure_from_error_value;
use super::provider::{HttpRequest, Method, ProviderConfig, ProviderKind};
use super::stream::{ToolDelta, WireEvent};
use super::wire::{arguments_or_empty_object, count, malformed, str_field, temperature_number, with_json_instruction};
use crate::engine::call::{FailureKind, LlmFailure, Usage};
use crate::engine::prompt::{Prompt, ToolCall, TurnRole};

/// The chat completions request for a prompt; streaming asks for the usage chunk too.
pub fn build_request(cfg: &ProviderConfig, prompt: &Prompt, stream: bool) -> HttpRequest {
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if let Some(key) = cfg.key() {
        headers.push(("authorization".to_string(), format!("Bearer {key}")));
    }
    HttpRequest {
        method: Method::Post,
        url: cfg.endpoint("/chat/completions"),
        headers,
        body: Some(request_body(cfg, prompt, stream).to_string()),
    }
}

/// The JSON body of a chat completions request.
pub fn request_body(cfg: &ProviderConfig, prompt: &Prompt, stream: bool) -> Value {
    // OpenAI refuses JSON mode unless the messages mention JSON; local models need telling anyway.
    let system = if prompt.json_output && !mentions_json(prompt) {
        with_json_instruction(&prompt.system)
    } else {
        prompt.system.clone()
    };
    let mut messages = Vec::with_capacity(prompt.turns.len() + 1);
    if !system.trim().is_empty() {
        messages.push(json!({"role": "system", "content": system}));
    }
    for turn in &prompt.turns {
        messages.push(match turn.role {
            TurnRole::User => json!({"role": "user", "content": turn.text}),
            TurnRole::Assistant if turn.tool_calls.is_empty() => {
                json!({"role": "assistant", "content": turn.text})
            }
            TurnRole::Assistant => {
                let calls: Vec<Value> = turn
                    .tool_calls
                    .iter()
                    .map(|c| {
                        json!({
                            "id": c.id,
                            "type": "function",
                            "function": {
                                "name": c.name,
                                "arguments": arguments_or_empty_object(c.arguments.clone()),
                            },
                        })
                    })
                    .collect();
                let content = if turn.text.is_empty() { Value::Null } else { Value::String(turn.text.clone()) };
                json!({"role": "assistant", "content": content, "tool_calls": calls})
            }
            TurnRole::Tool => json!({
                "role": "tool",
                "tool_call_id": turn.tool_call_id.clone().unwrap_or_default(),
                "content": turn.text,
            }),
        });
    }

    let mut body = Map::new();
    body.insert("model".into(), Value::String(cfg.model.trim().to_string()));
    body.insert("messages".into(), Value::Array(messages));
    if prompt.max_tokens > 0 {
        // OpenAI replaced `max_tokens` (rejected by its reasoning models); servers kept it.
        let field = match cfg.kind {
            ProviderKind::OpenAi => "max_completion_tokens",
            _ => "max_tokens",
        };
        body.insert(field.into(), json!(prompt.max_tokens));
    }
    if !(cfg.kind == ProviderKind::OpenAi && has_fixed_temperature(&cfg.model)) {
        if let Some(t) = temperature_number(prompt.temperature, 2.0) {
            body.insert("temperature".into(), t);
        }
    }
    if !prompt.tools.is_empty() {
        let tools: Vec<Value> = prompt
            .tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if prompt.json_output {
        body.insert("response_format".into(), json!({"type": "json_object"}));
    }
    if stream {
        body.insert("stream".into(), Value::Bool(true));
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    Value::Object(body)
}

/// True when the system text or a turn mentions JSON, as OpenAI's JSON mode requires.
fn mentions_json(prompt: &Prompt) -> bool {
    std::iter::once(&prompt.system)
        .chain(prompt.turns.iter().map(|t| &t.text))
        .any(|text| text.to_ascii_lowercase().contains("json"))
}

/// OpenAI reasoning models accept only the default temperature and reject any other value.
fn has_fixed_temperature(model: &str) -> bool {
    let model = model.trim().to_ascii_lowercase();
    ["o1", "o3", "o4", "gpt-5"].iter().any(|prefix| model.starts_with(prefix))
}

/// True when a server refused the request because of `response_format` (LM Studio accepts
/// only `json_schema`): the caller may resend the prompt with `json_output` off.
pub fn rejects_json_mode(failure: &LlmFailure) -> bool {
    failure.kind == FailureKind::BadRequest && failure.detail.to_ascii_lowercase().contains("response_format")
}

/// Reads a non-streaming chat completions answer.
pub fn parse_response(body: &str) -> Result<Completion, LlmFailure> {
    let value: Value = serde_json::from_str(body).map_err(|_| malformed("the answer is not JSON", body))?;
    if let Some(failure) = failure_from_error_value(&value) {
        return Err(failure);
    }
    let choice = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or_else(|| malformed("the answer has no choices", body))?;
    let message = choice.get("message").unwrap_or(&Value::Null);
    let mut text = content_text(message.get("content"));
    let mut refused = false;
    if let Some(refusal) = str_field(message, "refusal").filter(|r| !r.trim().is_empty() && text.trim().is_empty()) {
        text = refusal.to_string();
        refused = true;
    }
    let tool_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .map(|c| {
                    let function = c.get("function").unwrap_or(&Value::Null);
                    ToolCall {
                        id: str_field(c, "id").unwrap_or_default().to_string(),
                        name: str_field(function, "name").unwrap_or_default().to_string(),
                        arguments: arguments_text(function.get("arguments")),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Completion {
        text,
        model: str_field(&value, "model").unwrap_or_default().to_string(),
        usage: value.get("usage").and_then(usage_of),
        tool_calls,
        stop_reason: str_field(choice, "finish_reason").map(String::from),
        refusal: refused,
    })
}

/// Message content as text: a string, or the text parts of a content array.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| str_field(p, "text")).collect(),
        _ => String::new(),
    }
}

/// Tool arguments as JSON text; some servers send an object instead of a string.
fn arguments_text(arguments: Option<&Value>) -> String {
    match arguments {
        Some(Value::String(s)) => arguments_or_empty_object(s.clone()),
        Some(v @ Value::Object(_)) => v.to_string(),
        _ => "{}".to_string(),
    }
}

fn usage_of(usage: &Value) -> Option<Usage> {
    let input = count(usage, "prompt_tokens");
    let output = count(usage, "completion_tokens");
    (input.is_some() || output.is_some())
        .then(|| Usage { input_tokens: input.unwrap_or(0), output_tokens: output.unwrap_or(0) })
}

/// Reads one `data:` payload of a chat completions stream.
pub(crate) fn parse_stream_data(data: &str) -> Result<Vec<WireEvent>, LlmFailure> {
    if data.trim() == "[DONE]" {
        return Ok(vec![WireEvent::Done]);
    }
    let value: Value = serde_json::from_str(data).map_err(|_| malformed("a stream chunk is not JSON", data))?;
    if let Some(failure) = failure_from_error_value(&value) {
        return Ok(vec![WireEvent::Failed(failure)]);
    }
    let mut events = Vec::new();
    if let Some(model) = str_field(&value, "model").filter(|m| !m.is_empty()) {
        events.push(WireEvent::Model(model.to_string()));
    }
    let choices = value.get("choices").and_then(Value::as_array);
    // Only the first choice: prompts never ask for more than one.
    let choice = choices.and_then(|cs| cs.iter().find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0));
    if let Some(choice) = choice {
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        let text = content_text(delta.get("content"));
        if !text.is_empty() {
            events.push(WireEvent::Text(text));
        }
        // A refusal streams in its own field, in place of content.
        if let Some(refusal) = str_field(delta, "refusal").filter(|r| !r.is_empty()) {
            events.push(WireEvent::Refusal(refusal.to_string()));
        }
        for call in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let function = call.get("function").unwrap_or(&Value::Null);
            let arguments = match function.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(v @ Value::Object(_)) => v.to_string(),
                _ => String::new(),
            };
            events.push(WireEvent::Tool(ToolDelta {
                key: call.get("index").and_then(Value::as_u64).and_then(|i| usize::try_from(i).ok()),
                id: str_field(call, "id").map(String::from),
                name: str_field(function, "name").map(String::from),
                arguments,
                fallback_arguments: None,
            }));
        }
        if let Some(reason) = str_field(choice, "finish_reason") {
            events.push(WireEvent::Finish(reason.to_string()));
        }
    }
    if let Some(usage) = value.get("usage").filter(|u| u.is_object()) {
        events
            .push(WireEvent::Usage { input: count(usage, "prompt_tokens"), output: count(usage, "completion_tokens") });
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::prompt::{ToolSpec, Turn};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn openai() -> ProviderConfig {
        ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o-mini").with_key("sk-test")
    }

    fn ollama() -> ProviderConfig {
        ProviderConfig::new(ProviderKind::OpenAiCompatible, "llama3.2")
    }

    fn weather_tool() -> ToolSpec {
        ToolSpec {
            name: "get_weather".into(),
            description: "Current weather in a city".into(),
            parameters: json!({
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            }),
        }
    }

    fn body_of(req: &HttpRequest) -> Value {
        req.body.as_deref().and_then(|b| serde_json::from_str(b).ok()).unwrap_or(Value::Null)
    }

    #[test]
    fn plain_prompt_becomes_system_and_user_messages() {
        let prompt = Prompt::single("You are terse.", "Hi");
        let req = build_request(&openai(), &prompt, false);
        assert_eq!(req.method, Method::Post);
        assert_eq!(req.url, "https://api.openai.com/v1/chat/completions");
        assert_eq!(req.header("authorization"), Some("Bearer sk-test"));
        assert_eq!(req.header("content-type"), Some("application/json"));
        assert_eq!(
            body_of(&req),
            json!({
                "model": "gpt-4o-mini",
                "messages": [
                    {"role": "system", "content": "You are terse."},
                    {"role": "user", "content": "Hi"},
                ],
                "max_completion_tokens": 2048,
                "temperature": 0.4,
            })
        );
        let sent = req.body.unwrap_or_default();
        assert!(sent.contains("\"temperature\":0.4"), "{sent}");
        assert!(!sent.contains("0.4000"), "{sent}");
    }

    #[test]
    fn compatible_streaming_json_request_uses_max_tokens_and_no_auth_without_key() {
        let prompt = Prompt::single("Extract the fields.", "Seoul, 3 people").expecting_json();
        let req = build_request(&ollama(), &prompt, true);
        assert_eq!(req.url, "http://localhost:11434/v1/chat/completions");
        assert_eq!(req.header("authorization"), None);
        assert_eq!(
            body_of(&req),
            json!({
                "model": "llama3.2",
                "messages": [
                    {
                        "role": "system",
                        "content": "Extract the fields.\n\nAnswer with a single JSON object only: no prose before or after it, no Markdown code fences.",
                    },
                    {"role": "user", "content": "Seoul, 3 people"},
                ],
                "max_tokens": 2048,
                "temperature": 0.4,
                "response_format": {"type": "json_object"},
                "stream": true,
                "stream_options": {"include_usage": true},
            })
        );
    }

    #[test]
    fn json_instruction_is_not_repeated_when_the_prompt_mentions_json() {
        let prompt = Prompt::single("Reply in JSON.", "Hi").expecting_json();
        let body = request_body(&openai(), &prompt, false);
        assert_eq!(body["messages"][0]["content"], "Reply in JSON.");
        assert_eq!(body["response_format"], json!({"type": "json_object"}));
    }

    #[test]
    fn tools_and_tool_turns_use_the_function_calling_shape() {
        let mut prompt = Prompt::single("", "Weather in Seoul?");
        prompt.tools = vec![weather_tool()];
        prompt.turns.push(Turn {
            role: TurnRole::Assistant,
            text: String::new(),
            tool_calls: vec![ToolCall {
                id: "call_1".into(),
                name: "get_weather".into(),
                arguments: r#"{"city":"Seoul"}"#.into(),
            }],
            tool_call_id: None,
        });
        prompt.turns.push(Turn {
            role: TurnRole::Tool,
            text: "12°C, rain".into(),
            tool_calls: vec![],
            tool_call_id: Some("call_1".into()),
        });
        prompt.temperature = 0.0;
        let body = request_body(&openai(), &prompt, false);
        assert_eq!(
            body,
            json!({
                "model": "gpt-4o-mini",
                "messages": [
                    {"role": "user", "content": "Weather in Seoul?"},
                    {
                        "role": "assistant",
                        "content": null,
                        "tool_calls": [{
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": "{\"city\":\"Seoul\"}"},
                        }],
                    },
                    {"role": "tool", "tool_call_id": "call_1", "content": "12°C, rain"},
                ],
                "max_completion_tokens": 2048,
                "temperature": 0.0,
                "tools": [{
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Current weather in a city",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    },
                }],
            })
        );
    }

    #[test]
    fn reasoning_models_get_no_temperature_on_official_openai_only() {
        let prompt = Prompt::single("s", "u");
        let cases = [
            (ProviderKind::OpenAi, "o3-mini", false),
            (ProviderKind::OpenAi, "gpt-5", false),
            (ProviderKind::OpenAi, "o1", false),
            (ProviderKind::OpenAi, "gpt-4.1", true),
            (ProviderKind::OpenAiCompatible, "o3-mini", true),
        ];
        for (kind, model, has) in cases {
            let body = request_body(&ProviderConfig::new(kind, model), &prompt, false);
            assert_eq!(body.get("temperature").is_some(), has, "{model}");
        }
    }

    #[test]
    fn temperature_is_clamped_and_non_numbers_are_left_out() {
        let cases = [(3.5, Some(json!(2.0))), (-1.0, Some(json!(0.0))), (f32::NAN, None)];
        for (t, want) in cases {
            let mut prompt = Prompt::single("s", "u");
            prompt.temperature = t;
            let body = request_body(&openai(), &prompt, false);
            assert_eq!(body.get("temperature").cloned(), want, "{t}");
        }
    }

    #[test]
    fn non_streaming_answer_gives_text_model_usage_and_stop_reason() {
        let body = r#"{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini-2024-07-18",
            "choices":[{"index":0,"message":{"role":"assistant","content":"안녕하세요","refusal":null},"logprobs":null,"finish_reason":"stop"}],
            "usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}"#;
        assert_eq!(
            parse_response(body),
            Ok(Completion {
                text: "안녕하세요".into(),
                model: "gpt-4o-mini-2024-07-18".into(),
                usage: Some(Usage { input_tokens: 12, output_tokens: 5 }),
                tool_calls: vec![],
                stop_reason: Some("stop".into()),
                refusal: false,
            })
        );
    }

    #[test]
    fn non_streaming_answer_reads_tool_calls() {
        let body = r#"{"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,
            "tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Seoul\"}"}},
                          {"id":"call_b","type":"function","function":{"name":"now","arguments":""}}]},
            "finish_reason":"tool_calls"}]}"#;
        let c = parse_response(body);
        assert_eq!(
            c.map(|c| (c.text, c.tool_calls, c.usage)),
            Ok((
                String::new(),
                vec![
                    ToolCall {
                        id: "call_a".into(),
                        name: "get_weather".into(),
                        arguments: r#"{"city":"Seoul"}"#.into()
                    },
                    ToolCall { id: "call_b".into(), name: "now".into(), arguments: "{}".into() },
                ],
                None
            ))
        );
    }

    #[test]
    fn non_streaming_answer_variants_from_other_servers() {
        let cases = [
            (r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}"#, "ab"),
            (
                r#"{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}"#,
                "I can't help with that.",
            ),
        ];
        for (body, want) in cases {
            assert_eq!(parse_response(body).map(|c| c.text), Ok(want.to_string()), "{body}");
        }
        let refusals = [
            (r#"{"choices":[{"message":{"content":null,"refusal":"No."}}]}"#, true),
            (r#"{"choices":[{"message":{"content":"Sure","refusal":null}}]}"#, false),
            (r#"{"choices":[{"message":{"content":"Sure","refusal":""}}]}"#, false),
        ];
        for (body, want) in refusals {
            assert_eq!(parse_response(body).map(|c| c.refusal), Ok(want), "{body}");
        }
    }

    #[test]
    fn unreadable_or_error_answers_are_failures() {
        let cases = [
            ("not json", FailureKind::Malformed),
            (r#"{"object":"list"}"#, FailureKind::Malformed),
            (r#"{"choices":[]}"#, FailureKind::Malformed),
            (
                r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
                FailureKind::RateLimited,
            ),
        ];
        for (body, kind) in cases {
            assert_eq!(parse_response(body).map_err(|f| f.kind), Err(kind), "{body}");
        }
    }

    #[test]
    fn json_mode_rejection_is_recognised() {
        let lm_studio = r#"{"error":"'response_format.type' must be 'json_schema' or 'text'"}"#;
        let f = super::super::error::map_http_error(ProviderKind::OpenAiCompatible, 400, &[], lm_studio);
        assert!(rejects_json_mode(&f));
        let other = super::super::error::map_http_error(ProviderKind::OpenAiCompatible, 400, &[], "bad");
        assert!(!rejects_json_mode(&other));
    }

    #[test]
    fn stream_chunks_become_wire_events() {
        let cases: [(&str, Vec<WireEvent>); 5] = [
            ("[DONE]", vec![WireEvent::Done]),
            (
                r#"{"model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"usage":null}"#,
                vec![WireEvent::Model("m".into()), WireEvent::Text("Hi".into())],
            ),
            (r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#, vec![WireEvent::Finish("stop".into())]),
            (
                r#"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}"#,
                vec![WireEvent::Usage { input: Some(3), output: Some(4) }],
            ),
            (
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_x","type":"function","function":{"name":"f","arguments":""}}]}}]}"#,
                vec![WireEvent::Tool(ToolDelta {
                    key: Some(1),
                    id: Some("call_x".into()),
                    name: Some("f".into()),
                    arguments: String::new(),
                    fallback_arguments: None,
                })],
            ),
        ];
        for (data, want) in cases {
            assert_eq!(parse_stream_data(data), Ok(want), "{data}");
        }
        assert_eq!(parse_stream_data("{oops").map_err(|f| f.kind), Err(FailureKind::Malformed));
    }
}
