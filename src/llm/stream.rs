//! Streaming answers: SSE events in, live deltas for the UI out, and the completion at the end.
//!
//! When a stream counts as complete:
//! - OpenAI: only after `data: [DONE]`.
//! - Anthropic: only after `message_stop`.
//! - OpenAI-compatible servers: after `[DONE]`, or when the stream ends after a chunk with a
//!   `finish_reason` (some servers never send `[DONE]`); a finish reason is sent only once the
//!   model has stopped, so the text is whole.
//!
//! Otherwise the end of the bytes is `Interrupted`, with the text so far in `partial`. A data
//! payload that is not JSON is `Malformed`; an error sent inside the stream is mapped like an
//! HTTP error body (so is a `finish_reason` of `error`); a complete answer with neither text
//! nor tool calls is `Empty`. After the stream is complete or has failed, further events are
//! ignored.

use serde_json::Value;

use super::completion::Completion;
use super::error::failure_from_error_value;
use super::provider::ProviderKind;
use super::sse::{SseDecoder, SseEvent};
use super::wire::{arguments_or_empty_object, malformed};
use super::{anthropic, openai, parse_chat_response};
use crate::engine::call::{FailureKind, LlmFailure, Usage};
use crate::engine::prompt::ToolCall;

/// What the UI can show while an answer streams in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamDelta {
    /// More answer text, to append.
    Text(String),
    /// Progress of a tool call.
    ToolCall {
        /// Position of the call in `Completion::tool_calls`.
        index: usize,
        /// The tool's name as known so far (empty until the provider sends it).
        name: String,
        /// Argument text added by this delta.
        arguments_delta: String,
    },
    /// Token usage as reported so far.
    Usage(Usage),
}

/// A piece of a tool call as a provider streams it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolDelta {
    /// The provider's position for the call (OpenAI `index`, Anthropic content block index).
    pub key: Option<usize>,
    pub id: Option<String>,
    pub name: Option<String>,
    pub arguments: String,
    /// Arguments to use when no argument text arrives.
    pub fallback_arguments: Option<String>,
}

/// One protocol-neutral fact read from a stream event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WireEvent {
    Model(String),
    Text(String),
    /// Text of a refusal (OpenAI `delta.refusal`): shown as the answer, marked as a refusal.
    Refusal(String),
    Tool(ToolDelta),
    /// Counts reported so far; `None` leaves a count unchanged.
    Usage {
        input: Option<u32>,
        output: Option<u32>,
    },
    /// The model stopped, for this reason.
    Finish(String),
    /// The protocol's end-of-stream marker.
    Done,
    Failed(LlmFailure),
}

#[derive(Debug, Default)]
struct ToolSlot {
    key: Option<usize>,
    id: String,
    name: String,
    arguments: String,
    fallback_arguments: Option<String>,
}

/// Most bytes kept from a body that never produced an event, to read it as a plain answer.
const RAW_BODY_LIMIT: usize = 256 * 1024;

/// Accumulates one streamed answer for a provider.
#[derive(Debug)]
pub struct StreamAccumulator {
    kind: ProviderKind,
    decoder: SseDecoder,
    text: String,
    model: String,
    usage: Option<Usage>,
    tools: Vec<ToolSlot>,
    stop_reason: Option<String>,
    refusal: bool,
    done: bool,
    failure: Option<LlmFailure>,
    saw_event: bool,
    /// The body's bytes until the first event: a server that ignored `stream: true` or sent an
    /// error body answers with plain JSON, which is read at `finish`.
    raw_body: Vec<u8>,
}

impl StreamAccumulator {
    /// An empty accumulator for this provider's stream format.
    pub fn new(kind: ProviderKind) -> Self {
        StreamAccumulator {
            kind,
            decoder: SseDecoder::new(),
            text: String::new(),
            model: String::new(),
            usage: None,
            tools: Vec::new(),
            stop_reason: None,
            refusal: false,
            done: false,
            failure: None,
            saw_event: false,
            raw_body: Vec::new(),
        }
    }

    /// Feeds raw response bytes, split anywhere; returns what to show.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Vec<StreamDelta> {
        if !self.saw_event && self.raw_body.len() < RAW_BODY_LIMIT {
            let room = RAW_BODY_LIMIT - self.raw_body.len();
            self.raw_body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let events = self.decoder.push(chunk);
        self.push_events(&events)
    }

    /// Feeds decoded SSE events; returns what to show.
    pub fn push_events(&mut self, events: &[SseEvent]) -> Vec<StreamDelta> {
        let mut deltas = Vec::new();
        for event in events {
            deltas.extend(self.push_event(event));
        }
        deltas
    }

    /// Feeds one decoded SSE event; returns what to show.
    pub fn push_event(&mut self, event: &SseEvent) -> Vec<StreamDelta> {
        self.saw_event = true;
        self.raw_body = Vec::new();
        if self.is_finished() || event.data.trim().is_empty() {
            return Vec::new();
        }
        let parsed = if self.kind.speaks_openai() {
            openai::parse_stream_data(&event.data)
        } else {
            anthropic::parse_stream_event(event.event.as_deref(), &event.data)
        };
        let wire = match parsed {
            Ok(wire) => wire,
            // A server's `event: error` whose data is plain text rather than an error object.
            Err(_) if event.event.as_deref() == Some("error") => {
                vec![WireEvent::Failed(error_event_failure(&event.data))]
            }
            Err(failure) => vec![WireEvent::Failed(failure)],
        };
        let mut deltas = Vec::new();
        for w in wire {
            self.apply(w, &mut deltas);
            if self.failure.is_some() {
                break;
            }
        }
        deltas
    }

    /// True once the stream has its end marker or has failed: the rest can be dropped.
    pub fn is_finished(&self) -> bool {
        self.done || self.failure.is_some()
    }

    /// The answer text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Ends the stream with a failure from outside it (Stop, timeout, a read error), keeping
    /// the text so far as `partial`.
    pub fn into_failure(self, kind: FailureKind, detail: impl Into<String>) -> LlmFailure {
        LlmFailure { kind, detail: detail.into(), status: None, partial: non_empty(self.text) }
    }

    /// Ends the stream: the completion, or why there is none (see the module docs).
    pub fn finish(mut self) -> Result<Completion, LlmFailure> {
        let last = self.decoder.finish();
        self.push_events(&last);
        if let Some(mut failure) = self.failure.take() {
            failure.partial = non_empty(std::mem::take(&mut self.text));
            return Err(failure);
        }
        if !self.saw_event {
            return self.finish_without_events();
        }
        let complete = self.done || (self.kind == ProviderKind::OpenAiCompatible && self.stop_reason.is_some());
        if !complete {
            let marker = if self.kind.speaks_openai() { "[DONE]" } else { "message_stop" };
            return Err(LlmFailure {
                kind: FailureKind::Interrupted,
                detail: format!("the stream ended before {marker}"),
                status: None,
                partial: non_empty(self.text),
            });
        }
        let refusal = self.refusal || self.stop_reason.as_deref() == Some("refusal");
        let completion = Completion {
            text: self.text,
            model: self.model,
            usage: self.usage,
            tool_calls: self
                .tools
                .into_iter()
                .map(|slot| ToolCall {
                    id: slot.id,
                    name: slot.name,
                    arguments: match slot.fallback_arguments {
                        Some(fallback) if slot.arguments.trim().is_empty() => fallback,
                        _ => arguments_or_empty_object(slot.arguments),
                    },
                })
                .collect(),
            stop_reason: self.stop_reason,
            refusal,
        };
        if completion.is_empty() {
            return Err(empty_failure(completion.stop_reason.as_deref()));
        }
        Ok(completion)
    }

    /// A body with no SSE event: a plain JSON answer or error, or nothing at all.
    fn finish_without_events(self) -> Result<Completion, LlmFailure> {
        let body = String::from_utf8_lossy(&self.raw_body);
        if body.trim().is_empty() {
            return Err(LlmFailure {
                kind: FailureKind::Interrupted,
                detail: "the stream ended before any event".to_string(),
                status: None,
                partial: None,
            });
        }
        if serde_json::from_str::<Value>(&body).is_err() {
            return Err(malformed("the answer is not an event stream", &body));
        }
        parse_chat_response(self.kind, &body)
    }

    fn apply(&mut self, wire: WireEvent, deltas: &mut Vec<StreamDelta>) {
        match wire {
            WireEvent::Model(model) => {
                if self.model.is_empty() {
                    self.model = model;
                }
            }
            WireEvent::Text(text) => {
                self.text.push_str(&text);
                deltas.push(StreamDelta::Text(text));
            }
            WireEvent::Refusal(text) => {
                self.refusal = true;
                self.text.push_str(&text);
                deltas.push(StreamDelta::Text(text));
            }
            // Anthropic streams the input of server-side tools (`server_tool_use`,
            // `mcp_tool_use`) as `input_json_delta` too: only deltas of a block that started as
            // the model's own `tool_use` belong to a tool call.
            WireEvent::Tool(delta) if self.is_foreign_tool_delta(&delta) => {}
            WireEvent::Tool(delta) => {
                let index = self.tool_slot(&delta);
                let slot = &mut self.tools[index];
                if let Some(id) = delta.id.filter(|id| !id.is_empty()) {
                    if slot.id.is_empty() {
                        slot.id = id;
                    }
                }
                if let Some(name) = delta.name.filter(|n| !n.is_empty()) {
                    if slot.name.is_empty() {
                        slot.name = name;
                    }
                }
                if delta.fallback_arguments.is_some() {
                    slot.fallback_arguments = delta.fallback_arguments;
                }
                slot.arguments.push_str(&delta.arguments);
                deltas.push(StreamDelta::ToolCall { index, name: slot.name.clone(), arguments_delta: delta.arguments });
            }
            WireEvent::Usage { input, output } => {
                let mut usage = self.usage.unwrap_or_default();
                if let Some(input) = input {
                    usage.input_tokens = input;
                }
                if let Some(output) = output {
                    usage.output_tokens = output;
                }
                if self.usage != Some(usage) {
                    self.usage = Some(usage);
                    deltas.push(StreamDelta::Usage(usage));
                }
            }
            // OpenRouter ends a failed generation this way, sometimes with no error object.
            WireEvent::Finish(reason) if reason == "error" => {
                self.failure = Some(LlmFailure {
                    kind: FailureKind::Server,
                    detail: "the provider stopped the answer with an error".to_string(),
                    status: None,
                    partial: None,
                });
            }
            WireEvent::Finish(reason) => self.stop_reason = Some(reason),
            WireEvent::Done => self.done = true,
            WireEvent::Failed(failure) => self.failure = Some(failure),
        }
    }

    /// True for an Anthropic argument delta whose content block never started as a `tool_use`.
    fn is_foreign_tool_delta(&self, delta: &ToolDelta) -> bool {
        self.kind == ProviderKind::Anthropic
            && delta.id.is_none()
            && delta.name.is_none()
            && !self.tools.iter().any(|slot| slot.key.is_some() && slot.key == delta.key)
    }

    /// The position of the call a delta belongs to, adding a slot for a new call. Without a
    /// provider index, a new id starts a new call and anything else continues the last one.
    fn tool_slot(&mut self, delta: &ToolDelta) -> usize {
        let found = match delta.key {
            Some(key) => self.tools.iter().position(|s| s.key == Some(key)),
            None => {
                let last = self.tools.len().checked_sub(1);
                match (&delta.id, last) {
                    (Some(id), Some(last))
                        if !id.is_empty() && !self.tools[last].id.is_empty() && self.tools[last].id != *id =>
                    {
                        None
                    }
                    (_, last) => last,
                }
            }
        };
        found.unwrap_or_else(|| {
            self.tools.push(ToolSlot { key: delta.key, ..ToolSlot::default() });
            self.tools.len() - 1
        })
    }
}

/// A failure for an `event: error` whose data is not an error object.
fn error_event_failure(data: &str) -> LlmFailure {
    serde_json::from_str::<Value>(data).ok().and_then(|v| failure_from_error_value(&v)).unwrap_or_else(|| LlmFailure {
        kind: FailureKind::Server,
        detail: crate::engine::lang::clip(data.trim(), 300),
        status: None,
        partial: None,
    })
}

/// The `Empty` failure, saying why when the stop reason tells.
pub(crate) fn empty_failure(stop_reason: Option<&str>) -> LlmFailure {
    let detail = match stop_reason {
        Some("length" | "max_tokens") => {
            "the token limit was reached before any answer (reasoning models spend tokens thinking first)".to_string()
        }
        Some(reason) => format!("stop reason: {reason}"),
        None => String::new(),
    };
    LlmFailure { kind: FailureKind::Empty, detail, status: None, partial: None }
}

fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A realistic OpenAI stream: role chunk, Korean text, two parallel tool calls, the finish
    /// chunk, the usage chunk with empty `choices`, and `[DONE]`.
    const OPENAI_STREAM: &str = concat!(
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"날씨를 \"},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"확인할게요 🌧\"},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\": \"}}]},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"서울\\\"}\"}}]},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\": \\\"부산\\\"}\"}}]},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}],\"usage\":null}\n\n",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[],\"usage\":{\"prompt_tokens\":81,\"completion_tokens\":42,\"total_tokens\":123}}\n\n",
        "data: [DONE]\n\n",
    );

    /// A realistic Anthropic stream with `\r\n` line ends: text, a ping, a tool call whose
    /// input arrives in pieces, and the closing events.
    const ANTHROPIC_STREAM: &str = concat!(
        "event: message_start\r\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5-20250929\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":472,\"output_tokens\":2}}}\r\n\r\n",
        "event: content_block_start\r\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\r\n\r\n",
        "event: ping\r\ndata: {\"type\": \"ping\"}\r\n\r\n",
        "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"서울 날씨를 \"}}\r\n\r\n",
        "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"볼게요 ☔\"}}\r\n\r\n",
        "event: content_block_stop\r\ndata: {\"type\":\"content_block_stop\",\"index\":0}\r\n\r\n",
        "event: content_block_start\r\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"get_weather\",\"input\":{}}}\r\n\r\n",
        "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\r\n\r\n",
        "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \\\"서\"}}\r\n\r\n",
        "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"울\\\"}\"}}\r\n\r\n",
        "event: content_block_stop\r\ndata: {\"type\":\"content_block_stop\",\"index\":1}\r\n\r\n",
        "event: message_delta\r\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}\r\n\r\n",
        "event: message_stop\r\ndata: {\"type\":\"message_stop\"}\r\n\r\n",
    );

    type Run = (Vec<StreamDelta>, Result<Completion, LlmFailure>);

    fn run(kind: ProviderKind, chunks: &[&[u8]]) -> Run {
        let mut acc = StreamAccumulator::new(kind);
        let mut deltas = Vec::new();
        for chunk in chunks {
            deltas.extend(acc.push_bytes(chunk));
        }
        (deltas, acc.finish())
    }

    fn run_str(kind: ProviderKind, stream: &str) -> Run {
        run(kind, &[stream.as_bytes()])
    }

    /// Deltas merged so that a split inside one server chunk gives the same sequence.
    fn streamed_text(deltas: &[StreamDelta]) -> String {
        deltas
            .iter()
            .filter_map(|d| match d {
                StreamDelta::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    fn tool(id: &str, name: &str, arguments: &str) -> ToolCall {
        ToolCall { id: id.into(), name: name.into(), arguments: arguments.into() }
    }

    #[test]
    fn openai_stream_yields_text_tool_calls_and_usage() {
        let (deltas, result) = run_str(ProviderKind::OpenAi, OPENAI_STREAM);
        assert_eq!(
            result,
            Ok(Completion {
                text: "날씨를 확인할게요 🌧".into(),
                model: "gpt-4o-mini-2024-07-18".into(),
                usage: Some(Usage { input_tokens: 81, output_tokens: 42 }),
                tool_calls: vec![
                    tool("call_a", "get_weather", r#"{"city": "서울"}"#),
                    tool("call_b", "get_weather", r#"{"city": "부산"}"#),
                ],
                stop_reason: Some("tool_calls".into()),
                refusal: false,
            })
        );
        assert_eq!(
            deltas,
            vec![
                StreamDelta::Text("날씨를 ".into()),
                StreamDelta::Text("확인할게요 🌧".into()),
                StreamDelta::ToolCall { index: 0, name: "get_weather".into(), arguments_delta: String::new() },
                StreamDelta::ToolCall { index: 0, name: "get_weather".into(), arguments_delta: "{\"city\": ".into() },
                StreamDelta::ToolCall { index: 0, name: "get_weather".into(), arguments_delta: "\"서울\"}".into() },
                StreamDelta::ToolCall {
                    index: 1,
                    name: "get_weather".into(),
                    arguments_delta: "{\"city\": \"부산\"}".into()
                },
                StreamDelta::Usage(Usage { input_tokens: 81, output_tokens: 42 }),
            ]
        );
    }

    #[test]
    fn anthropic_stream_yields_text_tool_calls_and_usage() {
        let (deltas, result) = run_str(ProviderKind::Anthropic, ANTHROPIC_STREAM);
        assert_eq!(
            result,
            Ok(Completion {
                text: "서울 날씨를 볼게요 ☔".into(),
                model: "claude-sonnet-4-5-20250929".into(),
                usage: Some(Usage { input_tokens: 472, output_tokens: 89 }),
                tool_calls: vec![tool("toolu_01", "get_weather", r#"{"city": "서울"}"#)],
                stop_reason: Some("tool_use".into()),
                refusal: false,
            })
        );
        let usages: Vec<&StreamDelta> = deltas.iter().filter(|d| matches!(d, StreamDelta::Usage(_))).collect();
        assert_eq!(
            usages,
            vec![
                &StreamDelta::Usage(Usage { input_tokens: 472, output_tokens: 2 }),
                &StreamDelta::Usage(Usage { input_tokens: 472, output_tokens: 89 }),
            ]
        );
        assert_eq!(streamed_text(&deltas), "서울 날씨를 볼게요 ☔");
    }

    #[test]
    fn streams_give_identical_results_however_the_bytes_are_split() {
        let streams = [
            (ProviderKind::OpenAi, OPENAI_STREAM),
            (ProviderKind::OpenAiCompatible, OPENAI_STREAM),
            (ProviderKind::Anthropic, ANTHROPIC_STREAM),
        ];
        for (kind, stream) in streams {
            let bytes = stream.as_bytes();
            let (want_deltas, want) = run(kind, &[bytes]);
            assert!(want.is_ok(), "{kind:?}: {want:?}");
            for cut in 0..=bytes.len() {
                let (deltas, got) = run(kind, &[&bytes[..cut], &bytes[cut..]]);
                assert_eq!(got, want, "{kind:?} cut at {cut}");
                assert_eq!(deltas, want_deltas, "{kind:?} cut at {cut}");
            }
            let one_byte: Vec<&[u8]> = bytes.chunks(1).collect();
            let (deltas, got) = run(kind, &one_byte);
            assert_eq!(got, want, "{kind:?} in 1-byte chunks");
            assert_eq!(deltas, want_deltas, "{kind:?} in 1-byte chunks");
        }
    }

    #[test]
    fn openai_stream_without_done_is_interrupted_with_partial_text() {
        let cut = OPENAI_STREAM
            .find("\"tool_calls\":[{\"index\":0,\"id\"")
            .and_then(|at| OPENAI_STREAM[..at].rfind("data:"))
            .unwrap_or(0);
        let (_, result) = run_str(ProviderKind::OpenAi, &OPENAI_STREAM[..cut]);
        let failure = result.err();
        assert_eq!(failure.as_ref().map(|f| f.kind), Some(FailureKind::Interrupted));
        assert_eq!(failure.and_then(|f| f.partial), Some("날씨를 확인할게요 🌧".to_string()));
    }

    #[test]
    fn official_openai_stream_needs_done_even_after_a_finish_reason() {
        let stream =
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n";
        let (_, result) = run_str(ProviderKind::OpenAi, stream);
        assert_eq!(result.map_err(|f| f.kind), Err(FailureKind::Interrupted));
    }

    #[test]
    fn compatible_stream_with_finish_reason_and_no_done_is_complete() {
        let stream = concat!(
            "data: {\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n",
            "data: {\"model\":\"llama3.2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\n",
        );
        let (_, result) = run_str(ProviderKind::OpenAiCompatible, stream);
        assert_eq!(
            result.map(|c| (c.text, c.model, c.stop_reason)),
            Ok(("Hello".into(), "llama3.2".into(), Some("stop".into())))
        );
    }

    #[test]
    fn compatible_stream_without_finish_reason_or_done_is_interrupted() {
        let stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n";
        let (_, result) = run_str(ProviderKind::OpenAiCompatible, stream);
        let failure = result.err();
        assert_eq!(failure.as_ref().map(|f| f.kind), Some(FailureKind::Interrupted));
        assert_eq!(failure.and_then(|f| f.partial), Some("Hel".into()));
    }

    #[test]
    fn anthropic_stream_without_message_stop_is_interrupted_even_after_stop_reason() {
        let cut = ANTHROPIC_STREAM.find("event: message_stop").unwrap_or(0);
        let (_, result) = run_str(ProviderKind::Anthropic, &ANTHROPIC_STREAM[..cut]);
        let failure = result.err();
        assert_eq!(failure.as_ref().map(|f| f.kind), Some(FailureKind::Interrupted));
        assert_eq!(failure.and_then(|f| f.partial), Some("서울 날씨를 볼게요 ☔".into()));
    }

    #[test]
    fn malformed_data_line_fails_and_keeps_partial_text() {
        let cases = [
            (
                ProviderKind::OpenAi,
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"choices\":[{\n\ndata: [DONE]\n\n",
            ),
            (
                ProviderKind::Anthropic,
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\nevent: content_block_delta\ndata: not json\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
            ),
        ];
        for (kind, stream) in cases {
            let (_, result) = run_str(kind, stream);
            let failure = result.err();
            assert_eq!(failure.as_ref().map(|f| f.kind), Some(FailureKind::Malformed), "{kind:?}");
            assert_eq!(failure.and_then(|f| f.partial), Some("Hi".into()), "{kind:?}");
        }
    }

    #[test]
    fn error_inside_the_stream_is_mapped() {
        let cases = [
            (
                ProviderKind::Anthropic,
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"c\",\"usage\":{\"input_tokens\":1}}}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
                FailureKind::Server,
                "Overloaded",
            ),
            (
                ProviderKind::OpenAi,
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}\n\n",
                FailureKind::Server,
                "The server had an error",
            ),
            (
                ProviderKind::OpenAiCompatible,
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"error\":{\"code\":429,\"message\":\"Rate limit exceeded\"},\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"error\"}]}\n\n",
                FailureKind::RateLimited,
                "Rate limit exceeded",
            ),
            (
                ProviderKind::OpenAiCompatible,
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"error\"}]}\n\ndata: [DONE]\n\n",
                FailureKind::Server,
                "the provider stopped the answer with an error",
            ),
            (
                ProviderKind::OpenAiCompatible,
                "event: error\ndata: model crashed\n\n",
                FailureKind::Server,
                "model crashed",
            ),
        ];
        for (kind, stream, want_kind, want_detail) in cases {
            let (_, result) = run_str(kind, stream);
            let failure = result.err();
            assert_eq!(failure.as_ref().map(|f| f.kind), Some(want_kind), "{stream}");
            assert_eq!(failure.map(|f| f.detail), Some(want_detail.into()), "{stream}");
        }
    }

    #[test]
    fn complete_stream_with_nothing_in_it_is_empty() {
        let cases = [
            (
                ProviderKind::OpenAi,
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n",
                "token limit",
            ),
            (
                ProviderKind::Anthropic,
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
                "end_turn",
            ),
        ];
        for (kind, stream, detail) in cases {
            let (_, result) = run_str(kind, stream);
            let failure = result.err();
            assert_eq!(failure.as_ref().map(|f| f.kind), Some(FailureKind::Empty), "{kind:?}");
            assert!(failure.is_some_and(|f| f.detail.contains(detail)), "{kind:?}");
        }
    }

    #[test]
    fn empty_body_is_interrupted_without_partial() {
        let (_, result) = run(ProviderKind::OpenAi, &[]);
        assert_eq!(result.map_err(|f| (f.kind, f.partial)), Err((FailureKind::Interrupted, None)));
    }

    #[test]
    fn plain_json_body_instead_of_a_stream_is_read_as_an_answer() {
        let cases = [
            (
                ProviderKind::OpenAiCompatible,
                r#"{"model":"qwen","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}"#,
                Ok("Hi".to_string()),
            ),
            (
                ProviderKind::Anthropic,
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#,
                Err(FailureKind::RateLimited),
            ),
            (ProviderKind::OpenAi, "<html>bad gateway</html>", Err(FailureKind::Malformed)),
        ];
        for (kind, body, want) in cases {
            let (_, result) = run_str(kind, body);
            assert_eq!(result.map(|c| c.text).map_err(|f| f.kind), want, "{body}");
        }
    }

    #[test]
    fn events_after_the_end_marker_are_ignored() {
        let stream =
            format!("{OPENAI_STREAM}data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"late\"}}}}]}}\n\n");
        let (deltas, result) = run_str(ProviderKind::OpenAi, &stream);
        assert!(!streamed_text(&deltas).contains("late"));
        assert!(result.is_ok_and(|c| !c.text.contains("late")));
    }

    #[test]
    fn accumulator_reports_when_the_rest_of_the_body_can_be_dropped() {
        let mut acc = StreamAccumulator::new(ProviderKind::OpenAi);
        acc.push_bytes(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n");
        assert!(!acc.is_finished());
        assert_eq!(acc.text(), "a");
        acc.push_bytes(b"data: [DONE]\n\n");
        assert!(acc.is_finished());
    }

    #[test]
    fn stopping_a_stream_keeps_its_partial_text() {
        let mut acc = StreamAccumulator::new(ProviderKind::Anthropic);
        acc.push_bytes(ANTHROPIC_STREAM.as_bytes().split_at(900).0);
        let text = acc.text().to_string();
        assert!(!text.is_empty());
        let failure = acc.into_failure(FailureKind::Aborted, "");
        assert_eq!((failure.kind, failure.partial), (FailureKind::Aborted, Some(text)));
    }

    #[test]
    fn tool_call_deltas_without_index_follow_ids() {
        // Some servers send whole tool calls with no `index`.
        let stream = concat!(
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"c1\",\"function\":{\"name\":\"a\",\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"c2\",\"function\":{\"name\":\"b\",\"arguments\":{\"y\":2}}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
        );
        let (_, result) = run_str(ProviderKind::OpenAiCompatible, stream);
        assert_eq!(
            result.map(|c| c.tool_calls),
            Ok(vec![tool("c1", "a", r#"{"x":1}"#), tool("c2", "b", r#"{"y":2}"#)])
        );
    }

    #[test]
    fn tool_call_without_arguments_gets_an_empty_object() {
        let stream = concat!(
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"now\",\"input\":{}}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        );
        let (_, result) = run_str(ProviderKind::Anthropic, stream);
        assert_eq!(result.map(|c| c.tool_calls), Ok(vec![tool("t1", "now", "{}")]));
    }

    /// An Anthropic answer that used server-side tools (web search, an MCP server) before its
    /// own client tool call: every tool block streams its input as `input_json_delta`.
    const ANTHROPIC_SERVER_TOOLS_STREAM: &str = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_7\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":900,\"output_tokens\":3}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01\",\"name\":\"web_search\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \\\"서울 날씨\\\"}\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":[{\"type\":\"web_search_result\",\"title\":\"날씨\",\"url\":\"https://weather.example/seoul\"}]}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"mcp_tool_use\",\"id\":\"mcptoolu_01\",\"name\":\"lookup\",\"server_name\":\"calendar\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"day\\\":\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\" \\\"today\\\"}\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"mcp_tool_result\",\"tool_use_id\":\"mcptoolu_01\",\"is_error\":false,\"content\":[{\"type\":\"text\",\"text\":\"no events\"}]}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":3}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":4,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":4,\"delta\":{\"type\":\"text_delta\",\"text\":\"비가 옵니다. 질문할게요.\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":4}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":5,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_05\",\"name\":\"AskUserQuestion\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":5,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"question\\\": \\\"우산?\\\"}\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":5}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":120,\"server_tool_use\":{\"web_search_requests\":1}}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );

    #[test]
    fn anthropic_server_tool_blocks_are_not_tool_calls() {
        let (deltas, result) = run_str(ProviderKind::Anthropic, ANTHROPIC_SERVER_TOOLS_STREAM);
        let completion = result.expect("the stream is complete");
        assert_eq!(completion.tool_calls, vec![tool("toolu_05", "AskUserQuestion", r#"{"question": "우산?"}"#)]);
        assert_eq!(completion.text, "비가 옵니다. 질문할게요.");
        let tool_deltas: Vec<&StreamDelta> =
            deltas.iter().filter(|d| matches!(d, StreamDelta::ToolCall { .. })).collect();
        assert_eq!(
            tool_deltas,
            vec![
                &StreamDelta::ToolCall { index: 0, name: "AskUserQuestion".into(), arguments_delta: String::new() },
                &StreamDelta::ToolCall {
                    index: 0,
                    name: "AskUserQuestion".into(),
                    arguments_delta: "{\"question\": \"우산?\"}".into()
                },
            ]
        );
        // Split anywhere, the same.
        let bytes = ANTHROPIC_SERVER_TOOLS_STREAM.as_bytes();
        for cut in (0..bytes.len()).step_by(7) {
            let (_, got) = run(ProviderKind::Anthropic, &[&bytes[..cut], &bytes[cut..]]);
            assert_eq!(got.map(|c| c.tool_calls.len()), Ok(1), "cut at {cut}");
        }
    }

    #[test]
    fn anthropic_server_tools_alone_give_text_and_no_tool_call() {
        let end = ANTHROPIC_SERVER_TOOLS_STREAM
            .find("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":5")
            .unwrap_or(0);
        let stream = format!(
            "{}event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"end_turn\"}},\"usage\":{{\"output_tokens\":80}}}}\n\nevent: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n",
            &ANTHROPIC_SERVER_TOOLS_STREAM[..end]
        );
        let (_, result) = run_str(ProviderKind::Anthropic, &stream);
        assert_eq!(result.map(|c| (c.text, c.tool_calls)), Ok(("비가 옵니다. 질문할게요.".to_string(), vec![])));
    }

    #[test]
    fn openai_refusal_is_the_answer_marked_as_refusal_streamed_or_not() {
        let streamed = concat!(
            "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"refusal\":\"\"},\"finish_reason\":null}]}\n\n",
            "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I'm sorry, \"},\"finish_reason\":null}]}\n\n",
            "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't help with that.\"},\"finish_reason\":null}]}\n\n",
            "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
            "data: [DONE]\n\n",
        );
        let whole = r#"{"id":"chatcmpl-9","object":"chat.completion","model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I'm sorry, I can't help with that."},"finish_reason":"stop"}]}"#;
        let (deltas, streamed) = run_str(ProviderKind::OpenAi, streamed);
        let whole = parse_chat_response(ProviderKind::OpenAi, whole);
        let want = Ok(("I'm sorry, I can't help with that.".to_string(), true));
        assert_eq!(streamed.map(|c| (c.text, c.refusal)), want);
        assert_eq!(whole.map(|c| (c.text, c.refusal)), want);
        assert_eq!(streamed_text(&deltas), "I'm sorry, I can't help with that.");
    }

    #[test]
    fn anthropic_refusal_stop_reason_marks_the_answer() {
        let stream = concat!(
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"I can't continue.\"}}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"refusal\"},\"usage\":{\"output_tokens\":5}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        );
        let (_, result) = run_str(ProviderKind::Anthropic, stream);
        assert_eq!(result.map(|c| (c.text, c.refusal)), Ok(("I can't continue.".to_string(), true)));
        let (_, plain) = run_str(ProviderKind::Anthropic, ANTHROPIC_STREAM);
        assert_eq!(plain.map(|c| c.refusal), Ok(false));
    }

    #[test]
    fn accumulator_survives_arbitrary_bytes() {
        let mut seed: u32 = 11;
        for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
            for round in 0..100 {
                let mut bytes: Vec<u8> = OPENAI_STREAM.as_bytes()[..(round * 37) % 400].to_vec();
                for _ in 0..(round % 50) {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    bytes.push((seed >> 16) as u8);
                }
                let mut acc = StreamAccumulator::new(kind);
                for chunk in bytes.chunks(1 + round % 7) {
                    acc.push_bytes(chunk);
                }
                let _ = acc.finish();
            }
        }
    }
}
