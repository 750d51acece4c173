//! The two wire formats the mock speaks: OpenAI chat completions and Anthropic
//! messages, as whole JSON bodies, as SSE event sequences and as error bodies.

use serde_json::{json, Value};

use super::ScriptedToolCall;

/// Which provider's wire format a request uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// `POST /v1/chat/completions` and OpenAI-compatible servers.
    OpenAi,
    /// `POST /v1/messages`.
    Anthropic,
}

/// What the mock answers to one model request, before it is put on the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The request's sequence number, used in ids.
    pub seq: u64,
    /// The model named in the request, echoed back.
    pub model: String,
    /// The answer's text (may be empty).
    pub text: String,
    /// Tool calls to answer with (only from scripts).
    pub tool_calls: Vec<ScriptedToolCall>,
    /// Estimated prompt tokens.
    pub input_tokens: u64,
}

impl Reply {
    /// Estimated answer tokens: a quarter of the characters, at least one.
    pub fn output_tokens(&self) -> u64 {
        let chars = self.text.chars().count()
            + self.tool_calls.iter().map(|c| c.arguments_text().chars().count()).sum::<usize>();
        (chars as u64 / 4).max(1)
    }
}

/// Fixed creation time in the answers, so that they are reproducible.
const CREATED: u64 = 1_735_689_600;

/// Splits text into token-like pieces of a few characters, ending after whitespace
/// where possible; pieces always end on character boundaries.
pub fn text_pieces(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    let mut count = 0;
    for c in text.chars() {
        current.push(c);
        count += 1;
        if (count >= 8 && c.is_whitespace()) || count >= 24 {
            pieces.push(std::mem::take(&mut current));
            count = 0;
        }
    }
    if !current.is_empty() {
        pieces.push(current);
    }
    pieces
}

/// The whole (non-streamed) answer body.
pub fn json_body(provider: Provider, reply: &Reply) -> Value {
    match provider {
        Provider::OpenAi => openai_body(reply),
        Provider::Anthropic => anthropic_body(reply),
    }
}

fn openai_tool_call_id(reply: &Reply, i: usize) -> String {
    format!("call_mock_{}_{i}", reply.seq)
}

fn anthropic_tool_use_id(reply: &Reply, i: usize) -> String {
    format!("toolu_mock_{}_{i}", reply.seq)
}

fn openai_usage(reply: &Reply) -> Value {
    let out = reply.output_tokens();
    json!({
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": out,
        "total_tokens": reply.input_tokens + out,
    })
}

fn openai_body(reply: &Reply) -> Value {
    let mut message = json!({"role": "assistant", "content": reply.text, "refusal": null});
    let mut finish = "stop";
    if !reply.tool_calls.is_empty() {
        finish = "tool_calls";
        if reply.text.is_empty() {
            message["content"] = Value::Null;
        }
        message["tool_calls"] = reply
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                json!({
                    "id": openai_tool_call_id(reply, i),
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments_text()},
                })
            })
            .collect();
    }
    json!({
        "id": format!("chatcmpl-mock-{}", reply.seq),
        "object": "chat.completion",
        "created": CREATED,
        "model": reply.model,
        "system_fingerprint": "fp_mock",
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish}],
        "usage": openai_usage(reply),
    })
}

fn anthropic_body(reply: &Reply) -> Value {
    let mut content = Vec::new();
    if !reply.text.is_empty() || reply.tool_calls.is_empty() {
        content.push(json!({"type": "text", "text": reply.text}));
    }
    for (i, c) in reply.tool_calls.iter().enumerate() {
        content.push(json!({
            "type": "tool_use",
            "id": anthropic_tool_use_id(reply, i),
            "name": c.name,
            "input": c.arguments_object(),
        }));
    }
    let stop = if reply.tool_calls.is_empty() { "end_turn" } else { "tool_use" };
    json!({
        "id": format!("msg_mock_{}", reply.seq),
        "type": "message",
        "role": "assistant",
        "model": reply.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens()},
    })
}

/// What to put into an SSE stream besides the reply itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamShape {
    /// OpenAI `stream_options.include_usage`: a last chunk with usage and no choices.
    pub include_usage: bool,
    /// Insert one `data:` line of broken JSON after the first text piece.
    pub malformed: bool,
}

/// The SSE events of a streamed answer, each a complete `...\n\n` block.
pub fn sse_events(provider: Provider, reply: &Reply, shape: StreamShape) -> Vec<Vec<u8>> {
    match provider {
        Provider::OpenAi => openai_events(reply, shape),
        Provider::Anthropic => anthropic_events(reply, shape),
    }
}

fn data_event(value: &Value) -> Vec<u8> {
    format!("data: {value}\n\n").into_bytes()
}

fn named_event(name: &str, value: &Value) -> Vec<u8> {
    format!("event: {name}\ndata: {value}\n\n").into_bytes()
}

fn openai_events(reply: &Reply, shape: StreamShape) -> Vec<Vec<u8>> {
    let chunk = |choices: Value| {
        let mut c = json!({
            "id": format!("chatcmpl-mock-{}", reply.seq),
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": reply.model,
            "system_fingerprint": "fp_mock",
            "choices": choices,
        });
        if shape.include_usage {
            c["usage"] = Value::Null;
        }
        c
    };
    let delta = |d: Value| json!([{"index": 0, "delta": d, "logprobs": null, "finish_reason": null}]);

    let mut events = vec![data_event(&chunk(delta(json!({"role": "assistant", "content": ""}))))];
    for (i, piece) in text_pieces(&reply.text).into_iter().enumerate() {
        events.push(data_event(&chunk(delta(json!({"content": piece})))));
        if i == 0 && shape.malformed {
            events.push(
                format!(
                    "data: {{\"id\":\"chatcmpl-mock-{}\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"broken\n\n",
                    reply.seq
                )
                .into_bytes(),
            );
        }
    }
    if reply.text.is_empty() && shape.malformed {
        events.push(b"data: {\"choices\":[{\"delta\":\n\n".to_vec());
    }
    for (i, call) in reply.tool_calls.iter().enumerate() {
        events.push(data_event(&chunk(delta(json!({"tool_calls": [{
            "index": i,
            "id": openai_tool_call_id(reply, i),
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }]})))));
        for piece in text_pieces(&call.arguments_text()) {
            events.push(data_event(&chunk(delta(json!({"tool_calls": [{
                "index": i,
                "function": {"arguments": piece},
            }]})))));
        }
    }
    let finish = if reply.tool_calls.is_empty() { "stop" } else { "tool_calls" };
    events.push(data_event(&chunk(json!([{
        "index": 0, "delta": {}, "logprobs": null, "finish_reason": finish,
    }]))));
    if shape.include_usage {
        let mut last = chunk(json!([]));
        last["usage"] = openai_usage(reply);
        events.push(data_event(&last));
    }
    events.push(b"data: [DONE]\n\n".to_vec());
    events
}

fn anthropic_events(reply: &Reply, shape: StreamShape) -> Vec<Vec<u8>> {
    let mut events = vec![named_event(
        "message_start",
        &json!({"type": "message_start", "message": {
            "id": format!("msg_mock_{}", reply.seq),
            "type": "message",
            "role": "assistant",
            "model": reply.model,
            "content": [],
            "stop_reason": null,
            "stop_sequence": null,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }}),
    )];
    let mut index = 0;
    let mut pinged = false;
    let mut ping = |events: &mut Vec<Vec<u8>>| {
        if !pinged {
            events.push(named_event("ping", &json!({"type": "ping"})));
            pinged = true;
        }
    };
    if !reply.text.is_empty() || reply.tool_calls.is_empty() {
        events.push(named_event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "text", "text": ""}}),
        ));
        ping(&mut events);
        for (i, piece) in text_pieces(&reply.text).into_iter().enumerate() {
            events.push(named_event(
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "text_delta", "text": piece}}),
            ));
            if i == 0 && shape.malformed {
                events.push(
                    format!("event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":{index},\"delta\":{{\"type\":\"text_delta\",\"text\":\"broken\n\n")
                        .into_bytes(),
                );
            }
        }
        if reply.text.is_empty() && shape.malformed {
            events.push(b"event: content_block_delta\ndata: {\"type\":\n\n".to_vec());
        }
        events.push(named_event("content_block_stop", &json!({"type": "content_block_stop", "index": index})));
        index += 1;
    }
    for (i, call) in reply.tool_calls.iter().enumerate() {
        events.push(named_event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": anthropic_tool_use_id(reply, i),
                "name": call.name, "input": {},
            }}),
        ));
        ping(&mut events);
        for piece in text_pieces(&call.arguments_text()) {
            events.push(named_event(
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": piece}}),
            ));
        }
        events.push(named_event("content_block_stop", &json!({"type": "content_block_stop", "index": index})));
        index += 1;
    }
    let stop = if reply.tool_calls.is_empty() { "end_turn" } else { "tool_use" };
    events.push(named_event(
        "message_delta",
        &json!({"type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": reply.output_tokens()}}),
    ));
    events.push(named_event("message_stop", &json!({"type": "message_stop"})));
    events
}

/// A non-streamed body that is not valid JSON, for the `malformed` fault.
pub fn malformed_body(provider: Provider, reply: &Reply) -> String {
    match provider {
        Provider::OpenAi => format!(
            "{{\"id\":\"chatcmpl-mock-{}\",\"object\":\"chat.completion\",\"choices\":[{{\"index\":0,\"message\":{{\"role\":\"assistant\",\"content\":\"broken",
            reply.seq
        ),
        Provider::Anthropic => format!(
            "{{\"id\":\"msg_mock_{}\",\"type\":\"message\",\"content\":[{{\"type\":\"text\",\"text\":\"broken",
            reply.seq
        ),
    }
}

/// The provider's error body for a status, with its usual wording unless `message` is given.
pub fn error_body(provider: Provider, status: u16, message: Option<&str>, seq: u64) -> Value {
    match provider {
        Provider::OpenAi => {
            let (default_message, kind, code) = match status {
                400 => ("Invalid request (mock).", "invalid_request_error", Value::Null),
                401 => (
                    "Incorrect API key provided: sk-mock***. You can find your API key in your account settings (mock).",
                    "invalid_request_error",
                    json!("invalid_api_key"),
                ),
                403 => (
                    "You are not allowed to sample from this model (mock).",
                    "invalid_request_error",
                    json!("model_not_allowed"),
                ),
                404 => (
                    "The model does not exist or you do not have access to it (mock).",
                    "invalid_request_error",
                    json!("model_not_found"),
                ),
                429 => (
                    "Rate limit reached for requests (mock). Please try again in 1s.",
                    "requests",
                    json!("rate_limit_exceeded"),
                ),
                503 => (
                    "The engine is currently overloaded, please try again later (mock).",
                    "server_error",
                    Value::Null,
                ),
                s if s >= 500 => (
                    "The server had an error while processing your request (mock). Sorry about that!",
                    "server_error",
                    Value::Null,
                ),
                _ => ("The request was rejected (mock).", "invalid_request_error", Value::Null),
            };
            json!({"error": {
                "message": message.unwrap_or(default_message),
                "type": kind,
                "param": null,
                "code": code,
            }})
        }
        Provider::Anthropic => {
            let (default_message, kind) = match status {
                400 => ("Invalid request (mock).", "invalid_request_error"),
                401 => ("invalid x-api-key (mock)", "authentication_error"),
                403 => {
                    ("Your API key does not have permission to use the specified resource (mock).", "permission_error")
                }
                404 => ("The requested resource could not be found (mock).", "not_found_error"),
                413 => ("Request exceeds the maximum allowed size (mock).", "request_too_large"),
                429 => {
                    ("This request would exceed your rate limit (mock). Please try again later.", "rate_limit_error")
                }
                503 | 529 => ("Overloaded (mock)", "overloaded_error"),
                s if s >= 500 => ("Internal server error (mock)", "api_error"),
                _ => ("The request was rejected (mock).", "invalid_request_error"),
            };
            json!({
                "type": "error",
                "error": {"type": kind, "message": message.unwrap_or(default_message)},
                "request_id": format!("req_mock_{seq}"),
            })
        }
    }
}

/// The model list, shaped to satisfy both OpenAI's and Anthropic's `GET /v1/models` readers.
pub fn models_body() -> Value {
    let model = |id: &str, name: &str| {
        json!({
            "id": id, "object": "model", "created": CREATED, "owned_by": "mock",
            "type": "model", "display_name": name, "created_at": "2025-01-01T00:00:00Z",
        })
    };
    json!({
        "object": "list",
        "data": [model("mock-small", "Mock Small"), model("mock-large", "Mock Large")],
        "has_more": false,
        "first_id": "mock-small",
        "last_id": "mock-large",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str) -> Reply {
        Reply { seq: 7, model: "mock-small".into(), text: text.into(), tool_calls: Vec::new(), input_tokens: 10 }
    }

    #[test]
    fn text_pieces_rejoin_to_the_text_and_respect_char_boundaries() {
        let text = "계획을 세웁니다. A plan with several words and a longword_without_any_space_inside.";
        let pieces = text_pieces(text);
        assert!(pieces.len() > 3);
        assert_eq!(pieces.concat(), text);
        assert!(pieces.iter().all(|p| p.chars().count() <= 24));
    }

    #[test]
    fn openai_stream_ends_with_usage_then_done() {
        let events = sse_events(
            Provider::OpenAi,
            &reply("hello mock world"),
            StreamShape { include_usage: true, malformed: false },
        );
        let last_two: Vec<String> =
            events[events.len() - 2..].iter().map(|e| String::from_utf8(e.clone()).unwrap()).collect();
        assert!(last_two[0].contains("\"choices\":[]"), "{}", last_two[0]);
        assert!(last_two[0].contains("\"total_tokens\""));
        assert_eq!(last_two[1], "data: [DONE]\n\n");
    }

    #[test]
    fn anthropic_stream_has_the_real_event_order() {
        let events = sse_events(Provider::Anthropic, &reply("hi there mock"), StreamShape::default());
        let names: Vec<String> = events
            .iter()
            .map(|e| {
                let s = String::from_utf8(e.clone()).unwrap();
                s.lines().next().unwrap().trim_start_matches("event: ").to_string()
            })
            .collect();
        let mut expected = vec!["message_start", "content_block_start", "ping"];
        expected.extend(std::iter::repeat_n("content_block_delta", names.len() - 6));
        expected.extend(["content_block_stop", "message_delta", "message_stop"]);
        assert_eq!(names, expected);
    }

    #[test]
    fn error_bodies_have_each_providers_shape() {
        let o = error_body(Provider::OpenAi, 429, None, 1);
        assert_eq!(o["error"]["code"], "rate_limit_exceeded");
        let a = error_body(Provider::Anthropic, 401, Some("nope"), 1);
        assert_eq!(a["type"], "error");
        assert_eq!(a["error"]["type"], "authentication_error");
        assert_eq!(a["error"]["message"], "nope");
    }
}
