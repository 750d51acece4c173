//! An incremental Server-Sent Events decoder over bytes, as the HTML standard defines the
//! format: chunks may split anywhere, even inside a UTF-8 character or a `\r\n`.

/// One dispatched server-sent event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, when the server named the event.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The last `id:` seen so far on the stream (the standard's "last event ID").
    pub id: Option<String>,
}

/// The UTF-8 byte order mark, skipped at the start of a stream.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Turns a byte stream into events; holds back only the unfinished last line.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of the line being received; lines are decoded only once complete, so a
    /// multi-byte character split between chunks is decoded whole.
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a `\n` opening the next chunk belongs to it.
    after_cr: bool,
    /// Past the start of the stream, where a byte order mark may be.
    past_start: bool,
    event_type: String,
    data: String,
    has_data: bool,
    last_id: Option<String>,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        SseDecoder::default()
    }

    /// Feeds the next chunk of bytes; returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let events = Vec::new();
        let mut bytes = chunk;
        if !self.past_start {
            // The BOM may itself arrive split; keep it in `line` until it is whole or ruled out.
            let mut pending = std::mem::take(&mut self.line);
            pending.extend_from_slice(bytes);
            if pending.len() < BOM.len() && BOM.starts_with(&pending) {
                self.line = pending;
                return events;
            }
            self.past_start = true;
            let rest = pending.strip_prefix(BOM).unwrap_or(&pending).to_vec();
            return self.push_lines(&rest, events);
        }
        if self.after_cr {
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                bytes = rest;
            }
            if !chunk.is_empty() {
                self.after_cr = false;
            }
        }
        self.push_lines(bytes, events)
    }

    /// Ends the stream: the last line and event count even without a closing blank line.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        self.past_start = true;
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut events);
        }
        self.dispatch(&mut events);
        self.after_cr = false;
        self.event_type.clear();
        events
    }

    fn push_lines(&mut self, bytes: &[u8], mut events: Vec<SseEvent>) -> Vec<SseEvent> {
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' | b'\r' => {
                    let mut line = std::mem::take(&mut self.line);
                    line.extend_from_slice(&bytes[start..i]);
                    self.process_line(&line, &mut events);
                    if bytes[i] == b'\r' {
                        match bytes.get(i + 1) {
                            Some(b'\n') => i += 1,
                            Some(_) => {}
                            // The `\n` of a `\r\n` may open the next chunk.
                            None => self.after_cr = true,
                        }
                    }
                    i += 1;
                    start = i;
                }
                _ => i += 1,
            }
        }
        self.line.extend_from_slice(&bytes[start..]);
        events
    }

    fn process_line(&mut self, line: &[u8], events: &mut Vec<SseEvent>) {
        if line.is_empty() {
            self.dispatch(events);
            return;
        }
        // Comment lines (keep-alives such as `: ping`).
        if line[0] == b':' {
            return;
        }
        let line = String::from_utf8_lossy(line);
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => self.event_type = value.to_string(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "id" if !value.contains('\0') => {
                self.last_id = (!value.is_empty()).then(|| value.to_string());
            }
            // `retry:` and unknown fields are ignored, as the standard says.
            _ => {}
        }
    }

    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        let event_type = std::mem::take(&mut self.event_type);
        if !self.has_data {
            return;
        }
        self.has_data = false;
        events.push(SseEvent {
            event: (!event_type.is_empty()).then_some(event_type),
            data: std::mem::take(&mut self.data),
            id: self.last_id.clone(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn ev(event: Option<&str>, data: &str) -> SseEvent {
        SseEvent { event: event.map(String::from), data: data.into(), id: None }
    }

    fn decode_whole(bytes: &[u8]) -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let mut out = d.push(bytes);
        out.extend(d.finish());
        out
    }

    fn decode_in_chunks(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        for c in chunks {
            out.extend(d.push(c));
        }
        out.extend(d.finish());
        out
    }

    #[test]
    fn sse_decoder_reads_fields_per_the_standard() {
        let cases: [(&str, Vec<SseEvent>); 10] = [
            ("data: hello\n\n", vec![ev(None, "hello")]),
            ("data:hello\n\n", vec![ev(None, "hello")]),
            ("data:  two spaces\n\n", vec![ev(None, " two spaces")]),
            ("data: a\ndata: b\n\n", vec![ev(None, "a\nb")]),
            ("data\n\n", vec![ev(None, "")]),
            ("data:\ndata:\n\n", vec![ev(None, "\n")]),
            ("event: message_start\ndata: {}\n\n", vec![ev(Some("message_start"), "{}")]),
            (": keep-alive\n\ndata: x\n\n", vec![ev(None, "x")]),
            ("event: ping\n\n", vec![]),
            ("retry: 3000\nfoo: bar\ndata: y\n\n", vec![ev(None, "y")]),
        ];
        for (input, want) in cases {
            assert_eq!(decode_whole(input.as_bytes()), want, "{input:?}");
        }
    }

    #[test]
    fn sse_decoder_accepts_every_line_ending() {
        let cases = [
            "data: a\n\ndata: b\n\n",
            "data: a\r\n\r\ndata: b\r\n\r\n",
            "data: a\r\rdata: b\r\r",
            "data: a\r\n\ndata: b\n\r\n",
        ];
        for input in cases {
            assert_eq!(decode_whole(input.as_bytes()), vec![ev(None, "a"), ev(None, "b")], "{input:?}");
        }
    }

    #[test]
    fn sse_decoder_dispatches_only_at_a_blank_line() {
        let mut d = SseDecoder::new();
        assert_eq!(d.push(b"data: a\n"), vec![]);
        assert_eq!(d.push(b"data: b\n"), vec![]);
        assert_eq!(d.push(b"\n"), vec![ev(None, "a\nb")]);
    }

    #[test]
    fn sse_decoder_finish_flushes_a_last_event_without_blank_line() {
        let cases: [(&str, Vec<SseEvent>); 4] = [
            ("data: [DONE]", vec![ev(None, "[DONE]")]),
            ("data: [DONE]\n", vec![ev(None, "[DONE]")]),
            ("data: a\n\ndata: b\r", vec![ev(None, "a"), ev(None, "b")]),
            ("", vec![]),
        ];
        for (input, want) in cases {
            assert_eq!(decode_whole(input.as_bytes()), want, "{input:?}");
        }
    }

    #[test]
    fn sse_decoder_joins_line_split_mid_line() {
        let got = decode_in_chunks(&[b"da", b"ta: hel", b"lo\n", b"\n"]);
        assert_eq!(got, vec![ev(None, "hello")]);
    }

    #[test]
    fn sse_decoder_joins_crlf_split_between_chunks() {
        // `\r` ends one chunk and its `\n` opens the next: one line end, not two.
        let got = decode_in_chunks(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]);
        assert_eq!(got, vec![ev(None, "a\nb")]);
    }

    #[test]
    fn sse_decoder_treats_lone_cr_at_chunk_end_as_a_line_end() {
        let got = decode_in_chunks(&[b"data: a\r", b"\r", b"data: b\r", b"\r"]);
        assert_eq!(got, vec![ev(None, "a"), ev(None, "b")]);
    }

    #[test]
    fn sse_decoder_keeps_cr_state_across_empty_chunks() {
        let got = decode_in_chunks(&[b"data: a\r", b"", b"\n\n"]);
        assert_eq!(got, vec![ev(None, "a")]);
    }

    #[test]
    fn sse_decoder_joins_event_split_inside_utf8_character() {
        let text = "data: 안녕하세요 👋\n\n".as_bytes();
        // Split inside the 3-byte Hangul syllable and inside the 4-byte emoji.
        let hangul = 7;
        let emoji = text.len() - 4;
        let got = decode_in_chunks(&[&text[..hangul], &text[hangul..emoji], &text[emoji..]]);
        assert_eq!(got, vec![ev(None, "안녕하세요 👋")]);
    }

    #[test]
    fn sse_decoder_replaces_invalid_utf8_without_panicking() {
        let got = decode_whole(b"data: a\xFF\xFEb\n\ndata: \xE2\x82\n\n");
        assert_eq!(got, vec![ev(None, "a\u{FFFD}\u{FFFD}b"), ev(None, "\u{FFFD}")]);
    }

    #[test]
    fn sse_decoder_survives_arbitrary_bytes() {
        // Every byte value, in many arrangements: nothing may panic.
        let mut seed: u32 = 7;
        for round in 0..200 {
            let len = (round * 13) % 97;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (seed >> 16) as u8
                })
                .collect();
            let mut d = SseDecoder::new();
            for chunk in bytes.chunks(1 + round % 5) {
                d.push(chunk);
            }
            d.finish();
        }
    }

    #[test]
    fn sse_decoder_skips_a_byte_order_mark_even_when_split() {
        let whole = b"\xEF\xBB\xBFdata: x\n\n";
        assert_eq!(decode_whole(whole), vec![ev(None, "x")]);
        let split = decode_in_chunks(&[b"\xEF", b"\xBB", b"\xBFdata: x\n\n"]);
        assert_eq!(split, vec![ev(None, "x")]);
    }

    #[test]
    fn sse_decoder_reports_the_last_event_id() {
        let got = decode_whole(b"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n");
        let ids: Vec<Option<&str>> = got.iter().map(|e| e.id.as_deref()).collect();
        assert_eq!(ids, vec![Some("7"), Some("7"), None]);
    }

    #[test]
    fn sse_decoder_gives_identical_events_however_the_bytes_are_split() {
        let stream = "event: a\r\ndata: 첫째 줄\r\ndata: second\r\n\r\n: comment\n\nid: 1\ndata: 🎉 done\r\rdata: tail"
            .as_bytes();
        let want = decode_whole(stream);
        assert_eq!(want.len(), 3);
        for cut in 0..=stream.len() {
            let got = decode_in_chunks(&[&stream[..cut], &stream[cut..]]);
            assert_eq!(got, want, "cut at {cut}");
        }
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(decode_in_chunks(&bytes), want);
    }
}
