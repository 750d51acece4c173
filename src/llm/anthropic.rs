//! Anthropic messages API.

use serde_json::{json, Map, Value};

use super::completion::Completion;
use super::error::failure_from_error_value;
use super::provider::{HttpRequest, Method, ProviderConfig};
use super::stream::{ToolDelta, WireEvent};
use super::wire::{count, malformed, str_field, temperature_number, with_json_instruction};
use crate::engine::call::{LlmFailure, Usage};
use crate::engine::prompt::{Prompt, ToolCall, TurnRole};

/// The API version this module speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// Anthropic's headers: key, API version, and the opt-in for calls made from a browser.
pub fn headers(cfg: &ProviderConfig) -> Vec<(String, String)> {
    let mut headers = Vec::with_capacity(4);
    if let Some(key) = cfg.key() {
        headers.push(("x-api-key".to_string(), key.to_string()));
    }
    headers.push(("anthropic-version".to_string(), ANTHROPIC_VERSION.to_string()));
    headers.push(("anthropic-dangerous-direct-browser-access".to_string(), "true".to_string()));
    headers
}

/// The messages request for a prompt.
pub fn build_request(cfg: &ProviderConfig, prompt: &Prompt, stream: bool) -> HttpRequest {
    let mut headers = headers(cfg);
    headers.push(("content-type".to_string(), "application/json".to_string()));
    HttpRequest {
        method: Method::Post,
        url: cfg.endpoint("/messages"),
        headers,
        body: Some(request_body(cfg, prompt, stream).to_string()),
    }
}

/// The JSON body of a messages request.
pub fn request_body(cfg: &ProviderConfig, prompt: &Prompt, stream: bool) -> Value {
    // Anthropic has no JSON mode: the instruction is the only lever.
    let system = if prompt.json_output { with_json_instruction(&prompt.system) } else { prompt.system.clone() };

    let mut messages: Vec<Value> = Vec::with_capacity(prompt.turns.len());
    // Results of parallel tool calls go back together in one user message, before any text.
    let mut open_tool_results: Option<Vec<Value>> = None;
    let close = |messages: &mut Vec<Value>, blocks: &mut Option<Vec<Value>>| {
        if let Some(blocks) = blocks.take() {
            messages.push(json!({"role": "user", "content": blocks}));
        }
    };
    for turn in &prompt.turns {
        match turn.role {
            TurnRole::Tool => {
                open_tool_results.get_or_insert_with(Vec::new).push(json!({
                    "type": "tool_result",
                    "tool_use_id": turn.tool_call_id.clone().unwrap_or_default(),
                    "content": turn.text,
                }));
            }
            TurnRole::User => match open_tool_results.as_mut() {
                Some(blocks) => {
                    blocks.push(json!({"type": "text", "text": turn.text}));
                    close(&mut messages, &mut open_tool_results);
                }
                None => messages.push(json!({"role": "user", "content": turn.text})),
            },
            TurnRole::Assistant => {
                close(&mut messages, &mut open_tool_results);
                if turn.tool_calls.is_empty() {
                    messages.push(json!({"role": "assistant", "content": turn.text}));
                    continue;
                }
                let mut blocks = Vec::with_capacity(turn.tool_calls.len() + 1);
                if !turn.text.is_empty() {
                    blocks.push(json!({"type": "text", "text": turn.text}));
                }
                for call in &turn.tool_calls {
                    blocks.push(json!({
                        "type": "tool_use",
                        "id": call.id,
                        "name": call.name,
                        "input": tool_input(&call.arguments),
                    }));
                }
                messages.push(json!({"role": "assistant", "content": blocks}));
            }
        }
    }
    close(&mut messages, &mut open_tool_results);

    let mut body = Map::new();
    body.insert("model".into(), Value::String(cfg.model.trim().to_string()));
    // Required by the API, and at least 1.
    body.insert("max_tokens".into(), json!(prompt.max_tokens.max(1)));
    if !system.trim().is_empty() {
        body.insert("system".into(), Value::String(system));
    }
    body.insert("messages".into(), Value::Array(messages));
    if let Some(t) = temperature_number(prompt.temperature, 1.0) {
        body.insert("temperature".into(), t);
    }
    if !prompt.tools.is_empty() {
        let tools: Vec<Value> = prompt
            .tools
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "description": t.description,
                    "input_schema": t.parameters,
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if stream {
        body.insert("stream".into(), Value::Bool(true));
    }
    Value::Object(body)
}

/// A tool call's JSON-text arguments as the object `tool_use.input` must be; arguments that
/// are not a JSON object (never produced by the model itself) become `{}`.
fn tool_input(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(v @ Value::Object(_)) => v,
        _ => json!({}),
    }
}

/// Reads a non-streaming messages answer.
pub fn parse_response(body: &str) -> Result<Completion, LlmFailure> {
    let value: Value = serde_json::from_str(body).map_err(|_| malformed("the answer is not JSON", body))?;
    if let Some(failure) = failure_from_error_value(&value) {
        return Err(failure);
    }
    let blocks =
        value.get("content").and_then(Value::as_array).ok_or_else(|| malformed("the answer has no content", body))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in blocks {
        match str_field(block, "type") {
            Some("text") => text.push_str(str_field(block, "text").unwrap_or_default()),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: str_field(block, "id").unwrap_or_default().to_string(),
                name: str_field(block, "name").unwrap_or_default().to_string(),
                arguments: block
                    .get("input")
                    .filter(|i| !i.is_null())
                    .map_or_else(|| "{}".to_string(), Value::to_string),
            }),
            // Thinking and server-tool blocks are not part of the answer.
            _ => {}
        }
    }
    let usage = value.get("usage").map(usage_counts).and_then(|(i, o)| {
        (i.is_some() || o.is_some()).then(|| Usage { input_tokens: i.unwrap_or(0), output_tokens: o.unwrap_or(0) })
    });
    Ok(Completion {
        text,
        model: str_field(&value, "model").unwrap_or_default().to_string(),
        usage,
        tool_calls,
        stop_reason: str_field(&value, "stop_reason").map(String::from),
        refusal: str_field(&value, "stop_reason") == Some("refusal"),
    })
}

/// Input and output token counts; input includes prompt-cache reads and writes, since they
/// fill the context window all the same.
fn usage_counts(usage: &Value) -> (Option<u32>, Option<u32>) {
    let parts: Vec<u32> = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
        .iter()
        .filter_map(|k| count(usage, k))
        .collect();
    let input = (!parts.is_empty()).then(|| parts.iter().fold(0u32, |a, b| a.saturating_add(*b)));
    (input, count(usage, "output_tokens"))
}

/// Reads one event of a messages stream; the `type` inside the data names it, the SSE
/// `event:` field is the fallback.
pub(crate) fn parse_stream_event(event: Option<&str>, data: &str) -> Result<Vec<WireEvent>, LlmFailure> {
    let value: Value = serde_json::from_str(data).map_err(|_| malformed("a stream event is not JSON", data))?;
    let kind = str_field(&value, "type").or(event).unwrap_or_default();
    let index = value.get("index").and_then(Value::as_u64).and_then(|i| usize::try_from(i).ok());
    let mut events = Vec::new();
    match kind {
        "message_start" => {
            let message = value.get("message").unwrap_or(&Value::Null);
            if let Some(model) = str_field(message, "model").filter(|m| !m.is_empty()) {
                events.push(WireEvent::Model(model.to_string()));
            }
            if let Some(usage) = message.get("usage") {
                let (input, output) = usage_counts(usage);
                events.push(WireEvent::Usage { input, output });
            }
        }
        "content_block_start" => {
            let block = value.get("content_block").unwrap_or(&Value::Null);
            match str_field(block, "type") {
                Some("text") => {
                    let text = str_field(block, "text").unwrap_or_default();
                    if !text.is_empty() {
                        events.push(WireEvent::Text(text.to_string()));
                    }
                }
                Some("tool_use") => events.push(WireEvent::Tool(ToolDelta {
                    key: index,
                    id: str_field(block, "id").map(String::from),
                    name: str_field(block, "name").map(String::from),
                    arguments: String::new(),
                    fallback_arguments: block
                        .get("input")
                        .filter(|i| i.as_object().is_some_and(|o| !o.is_empty()))
                        .map(Value::to_string),
                })),
                _ => {}
            }
        }
        "content_block_delta" => {
            let delta = value.get("delta").unwrap_or(&Value::Null);
            match str_field(delta, "type") {
                Some("text_delta") => {
                    let text = str_field(delta, "text").unwrap_or_default();
                    if !text.is_empty() {
                        events.push(WireEvent::Text(text.to_string()));
                    }
                }
                Some("input_json_delta") => events.push(WireEvent::Tool(ToolDelta {
                    key: index,
                    id: None,
                    name: None,
                    arguments: str_field(delta, "partial_json").unwrap_or_default().to_string(),
                    fallback_arguments: None,
                })),
                // Thinking, signature and citation deltas are not part of the answer.
                _ => {}
            }
        }
        "message_delta" => {
            if let Some(reason) = value.get("delta").and_then(|d| str_field(d, "stop_reason")) {
                events.push(WireEvent::Finish(reason.to_string()));
            }
            if let Some(usage) = value.get("usage") {
                let (input, output) = usage_counts(usage);
                events.push(WireEvent::Usage { input, output });
            }
        }
        "message_stop" => events.push(WireEvent::Done),
        "error" => {
            if let Some(failure) = failure_from_error_value(&value) {
                events.push(WireEvent::Failed(failure));
            }
        }
        // `ping`, `content_block_stop` and event types added later carry nothing we need.
        _ => {}
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::call::FailureKind;
    use crate::engine::prompt::{ToolSpec, Turn};
    use crate::llm::provider::ProviderKind;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn claude() -> ProviderConfig {
        ProviderConfig::new(ProviderKind::Anthropic, "claude-sonnet-4-5").with_key("sk-ant-test")
    }

    fn body_of(req: &HttpRequest) -> Value {
        req.body.as_deref().and_then(|b| serde_json::from_str(b).ok()).unwrap_or(Value::Null)
    }

    #[test]
    fn messages_request_has_browser_headers_and_plain_body() {
        let req = build_request(&claude(), &Prompt::single("Be brief.", "Hi"), false);
        assert_eq!(req.url, "https://api.anthropic.com/v1/messages");
        let cases = [
            ("x-api-key", Some("sk-ant-test")),
            ("anthropic-version", Some("2023-06-01")),
            ("anthropic-dangerous-direct-browser-access", Some("true")),
            ("content-type", Some("application/json")),
            ("authorization", None),
        ];
        for (name, want) in cases {
            assert_eq!(req.header(name), want, "{name}");
        }
        assert_eq!(
            body_of(&req),
            json!({
                "model": "claude-sonnet-4-5",
                "max_tokens": 2048,
                "system": "Be brief.",
                "messages": [{"role": "user", "content": "Hi"}],
                "temperature": 0.4,
            })
        );
    }

    #[test]
    fn json_output_adds_an_instruction_to_the_system_text() {
        let prompt = Prompt::single("Extract the contract.", "뉴스 요약").expecting_json();
        let body = request_body(&claude(), &prompt, true);
        assert_eq!(
            body["system"],
            "Extract the contract.\n\nAnswer with a single JSON object only: no prose before or after it, no Markdown code fences."
        );
        assert_eq!(body["stream"], true);
        assert!(body.get("response_format").is_none());
        let no_system = request_body(&claude(), &Prompt::single("", "x").expecting_json(), false);
        assert!(no_system["system"].as_str().is_some_and(|s| s.starts_with("Answer with a single JSON object only")));
    }

    #[test]
    fn tool_calls_and_results_become_content_blocks() {
        let mut prompt = Prompt::single("", "Weather in Seoul and Busan?");
        prompt.tools = vec![ToolSpec {
            name: "get_weather".into(),
            description: "Current weather".into(),
            parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}}),
        }];
        prompt.turns.push(Turn {
            role: TurnRole::Assistant,
            text: "Checking both.".into(),
            tool_calls: vec![
                ToolCall { id: "toolu_1".into(), name: "get_weather".into(), arguments: r#"{"city":"Seoul"}"#.into() },
                ToolCall { id: "toolu_2".into(), name: "get_weather".into(), arguments: "not json".into() },
            ],
            tool_call_id: None,
        });
        for (id, text) in [("toolu_1", "12°C"), ("toolu_2", "15°C")] {
            prompt.turns.push(Turn {
                role: TurnRole::Tool,
                text: text.into(),
                tool_calls: vec![],
                tool_call_id: Some(id.into()),
            });
        }
        prompt.turns.push(Turn::user("Which is warmer?"));
        prompt.temperature = 1.7;
        prompt.max_tokens = 0;
        assert_eq!(
            request_body(&claude(), &prompt, false),
            json!({
                "model": "claude-sonnet-4-5",
                "max_tokens": 1,
                "messages": [
                    {"role": "user", "content": "Weather in Seoul and Busan?"},
                    {"role": "assistant", "content": [
                        {"type": "text", "text": "Checking both."},
                        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Seoul"}},
                        {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {}},
                    ]},
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "12°C"},
                        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "15°C"},
                        {"type": "text", "text": "Which is warmer?"},
                    ]},
                ],
                "temperature": 1.0,
                "tools": [{
                    "name": "get_weather",
                    "description": "Current weather",
                    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
                }],
            })
        );
    }

    #[test]
    fn tool_results_at_the_end_form_their_own_user_message() {
        let mut prompt = Prompt::single("", "Go");
        prompt.turns.push(Turn {
            role: TurnRole::Assistant,
            text: String::new(),
            tool_calls: vec![ToolCall { id: "t".into(), name: "f".into(), arguments: String::new() }],
            tool_call_id: None,
        });
        prompt.turns.push(Turn {
            role: TurnRole::Tool,
            text: "done".into(),
            tool_calls: vec![],
            tool_call_id: Some("t".into()),
        });
        let body = request_body(&claude(), &prompt, false);
        assert_eq!(
            body["messages"],
            json!([
                {"role": "user", "content": "Go"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "done"}]},
            ])
        );
    }

    #[test]
    fn request_without_key_sends_no_key_header() {
        let cfg = ProviderConfig::new(ProviderKind::Anthropic, "claude-haiku-4-5");
        let req = build_request(&cfg, &Prompt::single("", "x"), false);
        assert_eq!(req.header("x-api-key"), None);
    }

    #[test]
    fn non_streaming_answer_joins_text_blocks_and_reads_tool_use() {
        let body = r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
            "content":[{"type":"thinking","thinking":"hmm","signature":"x"},
                       {"type":"text","text":"Let me "},{"type":"text","text":"check."},
                       {"type":"tool_use","id":"toolu_9","name":"get_weather","input":{"city":"서울"}}],
            "stop_reason":"tool_use","stop_sequence":null,
            "usage":{"input_tokens":100,"cache_read_input_tokens":20,"output_tokens":30}}"#;
        assert_eq!(
            parse_response(body),
            Ok(Completion {
                text: "Let me check.".into(),
                model: "claude-sonnet-4-5-20250929".into(),
                usage: Some(Usage { input_tokens: 120, output_tokens: 30 }),
                tool_calls: vec![ToolCall {
                    id: "toolu_9".into(),
                    name: "get_weather".into(),
                    arguments: r#"{"city":"서울"}"#.into(),
                }],
                stop_reason: Some("tool_use".into()),
                refusal: false,
            })
        );
    }

    #[test]
    fn non_streaming_server_tool_blocks_are_not_tool_calls() {
        let body = r#"{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5",
            "content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"서울 날씨"}},
                       {"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]},
                       {"type":"mcp_tool_use","id":"mcptoolu_1","name":"lookup","server_name":"calendar","input":{"day":"today"}},
                       {"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"none"}]},
                       {"type":"text","text":"비가 와요."},
                       {"type":"tool_use","id":"toolu_2","name":"AskUserQuestion","input":{"question":"우산?"}}],
            "stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}"#;
        let completion = parse_response(body).expect("a complete answer");
        assert_eq!(completion.text, "비가 와요.");
        assert_eq!(
            completion.tool_calls,
            vec![ToolCall {
                id: "toolu_2".into(),
                name: "AskUserQuestion".into(),
                arguments: r#"{"question":"우산?"}"#.into()
            }]
        );
        assert!(!completion.refusal);
    }

    #[test]
    fn non_streaming_errors_and_junk_are_failures() {
        let cases = [
            (r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, FailureKind::Server),
            (
                r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
                FailureKind::Auth,
            ),
            (r#"{"type":"message"}"#, FailureKind::Malformed),
            ("<html>", FailureKind::Malformed),
        ];
        for (body, kind) in cases {
            assert_eq!(parse_response(body).map_err(|f| f.kind), Err(kind), "{body}");
        }
    }

    #[test]
    fn stream_events_become_wire_events() {
        let cases: [(&str, Vec<WireEvent>); 8] = [
            (
                r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-x","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}"#,
                vec![WireEvent::Model("claude-x".into()), WireEvent::Usage { input: Some(25), output: Some(1) }],
            ),
            (r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#, vec![]),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
                vec![WireEvent::Text("Hi".into())],
            ),
            (
                r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}"#,
                vec![WireEvent::Tool(ToolDelta {
                    key: Some(1),
                    id: Some("toolu_1".into()),
                    name: Some("f".into()),
                    arguments: String::new(),
                    fallback_arguments: None,
                })],
            ),
            (
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}"#,
                vec![WireEvent::Tool(ToolDelta {
                    key: Some(1),
                    id: None,
                    name: None,
                    arguments: "{\"a\":".into(),
                    fallback_arguments: None,
                })],
            ),
            (
                r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}"#,
                vec![WireEvent::Finish("end_turn".into()), WireEvent::Usage { input: None, output: Some(15) }],
            ),
            (r#"{"type":"message_stop"}"#, vec![WireEvent::Done]),
            (r#"{"type": "ping"}"#, vec![]),
        ];
        for (data, want) in cases {
            assert_eq!(parse_stream_event(None, data), Ok(want), "{data}");
        }
    }
}
