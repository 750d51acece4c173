//! Reading server-sent events back, as a client would: for tests of the mock and for
//! benchmarks that watch a stream arrive.

use serde_json::Value;

/// One event: its `event:` name (if any) and its `data:` lines joined by `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when present.
    pub event: Option<String>,
    /// The `data:` fields joined with newlines.
    pub data: String,
}

/// Splits an SSE body into events (LF or CRLF line ends; comments and unknown fields
/// ignored; a trailing event without its blank line is dropped, as browsers do).
pub fn parse_events(body: &str) -> Vec<SseEvent> {
    let mut events = Vec::new();
    let mut event = None;
    let mut data: Vec<String> = Vec::new();
    let mut saw_field = false;
    let normalized = body.replace("\r\n", "\n");
    let mut lines = normalized.split('\n').peekable();
    while let Some(line) = lines.next() {
        let is_last = lines.peek().is_none();
        if is_last {
            // The text after the last newline is an unterminated line: not an event yet.
            break;
        }
        if line.is_empty() {
            if saw_field && !data.is_empty() {
                events.push(SseEvent { event: event.take(), data: data.join("\n") });
            }
            event = None;
            data.clear();
            saw_field = false;
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        saw_field = true;
        match field {
            "event" => event = Some(value.to_string()),
            "data" => data.push(value.to_string()),
            _ => {}
        }
    }
    events
}

/// What a streamed model answer came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamSummary {
    /// The concatenated text deltas (OpenAI `delta.content`, Anthropic `text_delta`).
    pub text: String,
    /// Whether the proper end arrived (`data: [DONE]` or `message_stop`).
    pub finished: bool,
    /// `data:` payloads that were not JSON.
    pub malformed: Vec<String>,
}

/// Folds the events of an OpenAI or Anthropic stream into its text and end state.
pub fn summarize(events: &[SseEvent]) -> StreamSummary {
    let mut summary = StreamSummary::default();
    for e in events {
        if e.data == "[DONE]" {
            summary.finished = true;
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&e.data) else {
            summary.malformed.push(e.data.clone());
            continue;
        };
        if let Some(t) = v["choices"][0]["delta"]["content"].as_str() {
            summary.text.push_str(t);
        }
        if v["type"] == "content_block_delta" && v["delta"]["type"] == "text_delta" {
            summary.text.push_str(v["delta"]["text"].as_str().unwrap_or(""));
        }
        if v["type"] == "message_stop" {
            summary.finished = true;
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_split_on_blank_lines_with_names_and_multiline_data() {
        let body = "event: ping\ndata: {\"type\":\"ping\"}\n\n: comment\ndata: a\ndata: b\r\n\r\ndata: [DONE]\n\ndata: unterminated";
        let events = parse_events(body);
        assert_eq!(
            events,
            vec![
                SseEvent { event: Some("ping".into()), data: "{\"type\":\"ping\"}".into() },
                SseEvent { event: None, data: "a\nb".into() },
                SseEvent { event: None, data: "[DONE]".into() },
            ]
        );
    }

    #[test]
    fn summary_joins_deltas_of_both_providers() {
        let openai = "data: {\"choices\":[{\"delta\":{\"content\":\"계\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"획\"}}]}\n\ndata: [DONE]\n\n";
        let s = summarize(&parse_events(openai));
        assert_eq!((s.text.as_str(), s.finished), ("계획", true));
        let anthropic = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\nevent: x\ndata: {oops\n\n";
        let s = summarize(&parse_events(anthropic));
        assert_eq!((s.text.as_str(), s.finished), ("hi", false));
        assert_eq!(s.malformed, vec!["{oops".to_string()]);
    }
}
