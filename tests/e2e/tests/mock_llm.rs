//! The mock LLM over real sockets: both wire formats, CORS, every fault kind,
//! scripts, role routing, concurrency, the request log and the key rules.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::thread;
use std::time::Duration;

use deliberate::llm::sse::{SseDecoder, SseEvent};
use deliberate_e2e::http::{self, decode_chunked, send, ClientResponse, HttpError};
use deliberate_e2e::mock_llm::{
    default_reply, Fault, FaultRule, MockConfig, MockLlm, Pacing, ScriptedReply, ScriptedToolCall,
};
use serde_json::{json, Value};

const TIMEOUT: Duration = Duration::from_secs(10);

fn mock() -> MockLlm {
    MockLlm::start(MockConfig::default()).unwrap()
}

fn system(role: &str) -> String {
    format!("# role: {role}\nYou are the {role} of Deliberate.")
}

fn openai_body(role: &str, user: &str, stream: bool) -> Value {
    let mut body = json!({
        "model": "mock-small",
        "messages": [
            {"role": "system", "content": system(role)},
            {"role": "user", "content": user},
        ],
    });
    if stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

fn anthropic_body(role: &str, user: &str, stream: bool) -> Value {
    json!({
        "model": "mock-large",
        "max_tokens": 1024,
        "system": system(role),
        "messages": [{"role": "user", "content": [{"type": "text", "text": user}]}],
        "stream": stream,
    })
}

const ANTHROPIC_HEADERS: [(&str, &str); 3] =
    [("Content-Type", "application/json"), ("x-api-key", "sk-ant-test"), ("anthropic-version", "2023-06-01")];

fn openai(mock: &MockLlm, body: &Value) -> ClientResponse {
    let bytes = body.to_string().into_bytes();
    let headers = [("Content-Type", "application/json"), ("Authorization", "Bearer sk-test")];
    send("POST", &format!("{}/chat/completions", mock.base_url()), &headers, Some(&bytes), TIMEOUT).unwrap()
}

fn anthropic_with(mock: &MockLlm, headers: &[(&str, &str)], body: &Value) -> ClientResponse {
    let bytes = body.to_string().into_bytes();
    send("POST", &format!("{}/messages", mock.base_url()), headers, Some(&bytes), TIMEOUT).unwrap()
}

fn anthropic(mock: &MockLlm, body: &Value) -> ClientResponse {
    anthropic_with(mock, &ANTHROPIC_HEADERS, body)
}

/// Sends raw bytes and reads until the server closes: (head text, raw body bytes).
fn raw_exchange(mock: &MockLlm, request: &[u8]) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", mock.port())).unwrap();
    s.set_read_timeout(Some(TIMEOUT)).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    match out.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(i) => (String::from_utf8_lossy(&out[..i]).into_owned(), out[i + 4..].to_vec()),
        None => (String::from_utf8_lossy(&out).into_owned(), Vec::new()),
    }
}

fn raw_post(path: &str, headers: &str, body: &Value) -> Vec<u8> {
    let body = body.to_string();
    format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn stream_text(resp: &ClientResponse) -> StreamSummary {
    summarize(&parse_events(&resp.text()))
}

/// The complete events of an SSE body, read by the app's own decoder; a last event
/// without its closing blank line is left out, as a browser leaves it out.
fn parse_events(body: &str) -> Vec<SseEvent> {
    SseDecoder::new().push(body.as_bytes())
}

/// What a streamed model answer came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct StreamSummary {
    /// The concatenated text deltas (OpenAI `delta.content`, Anthropic `text_delta`).
    text: String,
    /// Whether the proper end arrived (`data: [DONE]` or `message_stop`).
    finished: bool,
    /// `data:` payloads that were not JSON.
    malformed: Vec<String>,
}

/// Folds the events of an OpenAI or Anthropic stream into its text and end state; unlike
/// the app, it reads on past broken JSON, so a test can count the broken lines.
fn summarize(events: &[SseEvent]) -> StreamSummary {
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

#[test]
fn sse_summary_joins_deltas_of_both_providers_and_drops_an_unterminated_event() {
    let openai = "data: {\"choices\":[{\"delta\":{\"content\":\"계\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"획\"}}]}\n\ndata: [DONE]\n\ndata: unterminated";
    let s = summarize(&parse_events(openai));
    assert_eq!((s.text.as_str(), s.finished), ("계획", true));
    assert!(s.malformed.is_empty(), "the unterminated event is not read: {:?}", s.malformed);
    let anthropic = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\nevent: x\ndata: {oops\n\n";
    let s = summarize(&parse_events(anthropic));
    assert_eq!((s.text.as_str(), s.finished), ("hi", false));
    assert_eq!(s.malformed, vec!["{oops".to_string()]);
}

#[test]
fn openai_non_stream_answers_with_the_roles_default_reply() {
    let mock = mock();
    let resp = openai(&mock, &openai_body("designer", "Plan a trip", false));
    assert_eq!(resp.status, 200);
    assert_eq!(resp.header("access-control-allow-origin"), Some("*"));
    let v = resp.json().unwrap();
    assert_eq!(v["object"], "chat.completion");
    assert_eq!(v["model"], "mock-small");
    assert_eq!(v["choices"][0]["message"]["role"], "assistant");
    assert_eq!(v["choices"][0]["finish_reason"], "stop");
    let text = v["choices"][0]["message"]["content"].as_str().unwrap();
    assert_eq!(text, default_reply(Some("designer"), "Plan a trip"));
    let designs: Value = serde_json::from_str(text).unwrap();
    assert_eq!(designs["designs"].as_array().unwrap().len(), 3);
    assert!(v["usage"]["total_tokens"].as_u64().unwrap() > 0);
}

#[test]
fn openai_stream_reassembles_to_the_default_reply_even_when_split_inside_characters() {
    let mock = mock();
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 0, chunk_bytes: 7 });
    let resp = openai(&mock, &openai_body("planner", "Plan a trip", true));
    assert_eq!(resp.status, 200);
    assert_eq!(resp.header("content-type"), Some("text/event-stream; charset=utf-8"));
    assert_eq!(resp.header("transfer-encoding"), Some("chunked"));
    let events = parse_events(&resp.text());
    let summary = summarize(&events);
    assert_eq!(summary.text, default_reply(Some("planner"), "Plan a trip"));
    assert!(summary.text.contains("계획"));
    assert!(summary.finished && summary.malformed.is_empty());
    let usage: Value = serde_json::from_str(&events[events.len() - 2].data).unwrap();
    assert_eq!(usage["choices"], json!([]));
    assert!(usage["usage"]["completion_tokens"].as_u64().unwrap() > 100);
    assert_eq!(events.last().unwrap().data, "[DONE]");
}

#[test]
fn anthropic_non_stream_has_the_message_shape() {
    let mock = mock();
    let resp = anthropic(&mock, &anthropic_body("critic", "Design A", false));
    assert_eq!(resp.status, 200);
    let v = resp.json().unwrap();
    assert_eq!(v["type"], "message");
    assert_eq!(v["role"], "assistant");
    assert_eq!(v["model"], "mock-large");
    assert_eq!(v["stop_reason"], "end_turn");
    assert_eq!(v["content"][0]["type"], "text");
    let critique: Value = serde_json::from_str(v["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(critique["overall_score"], 0.72);
    assert!(v["usage"]["input_tokens"].as_u64().unwrap() > 0);
    assert!(v["usage"]["output_tokens"].as_u64().unwrap() > 0);
}

#[test]
fn anthropic_stream_sends_the_real_event_sequence() {
    let mock = mock();
    let resp = anthropic(&mock, &anthropic_body("worker", "Do it", true));
    let events = parse_events(&resp.text());
    let names: Vec<&str> = events.iter().map(|e| e.event.as_deref().unwrap_or("")).collect();
    assert_eq!(&names[..3], ["message_start", "content_block_start", "ping"]);
    assert_eq!(&names[names.len() - 3..], ["content_block_stop", "message_delta", "message_stop"]);
    assert!(names[3..names.len() - 3].iter().all(|n| *n == "content_block_delta"));
    for e in &events {
        let v: Value = serde_json::from_str(&e.data).unwrap();
        assert_eq!(v["type"].as_str(), e.event.as_deref(), "data type matches event name");
    }
    let delta: Value = serde_json::from_str(&events[events.len() - 2].data).unwrap();
    assert_eq!(delta["delta"]["stop_reason"], "end_turn");
    assert!(delta["usage"]["output_tokens"].as_u64().unwrap() > 0);
    let summary = summarize(&events);
    assert_eq!(summary.text, default_reply(Some("worker"), "Do it"));
    assert!(summary.finished);
}

#[test]
fn models_lists_two_mock_models() {
    let mock = mock();
    let (status, v) = http::request("GET", &format!("{}/models", mock.base_url()), None).unwrap();
    assert_eq!(status, 200);
    let ids: Vec<&str> = v["data"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["mock-small", "mock-large"]);
}

#[test]
fn unknown_paths_are_404_with_cors() {
    let mock = mock();
    let resp = send("GET", &format!("{}/v1/nope", mock.url()), &[], None, TIMEOUT).unwrap();
    assert_eq!(resp.status, 404);
    assert_eq!(resp.header("access-control-allow-origin"), Some("*"));
    assert!(resp.json().unwrap()["error"]["message"].as_str().unwrap().contains("/v1/nope"));
}

fn preflight(mock: &MockLlm, path: &str) -> ClientResponse {
    send(
        "OPTIONS",
        &format!("{}{path}", mock.url()),
        &[
            ("Origin", "http://127.0.0.1:1"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type,x-api-key,anthropic-version,anthropic-dangerous-direct-browser-access",
            ),
        ],
        None,
        TIMEOUT,
    )
    .unwrap()
}

#[test]
fn preflight_allows_the_providers_headers() {
    let mock = mock();
    let resp = preflight(&mock, "/v1/messages");
    assert_eq!(resp.status, 204);
    assert_eq!(resp.header("access-control-allow-origin"), Some("*"));
    let methods = resp.header("access-control-allow-methods").unwrap();
    for m in ["GET", "POST", "OPTIONS"] {
        assert!(methods.contains(m), "{methods}");
    }
    let allowed = resp.header("access-control-allow-headers").unwrap();
    for h in
        ["authorization", "content-type", "x-api-key", "anthropic-version", "anthropic-dangerous-direct-browser-access"]
    {
        assert!(allowed.contains(h), "{h} in {allowed}");
    }
    assert!(resp.header("access-control-max-age").is_some());
    assert!(mock.requests().is_empty(), "preflights are not recorded");
}

#[test]
fn cors_fault_strips_access_control_headers_from_preflight_then_response() {
    let mock = mock();
    mock.fault(Fault::Cors);
    let pre = preflight(&mock, "/v1/chat/completions");
    assert_eq!(pre.status, 204);
    assert!(pre.headers.iter().all(|(n, _)| !n.to_ascii_lowercase().starts_with("access-control-")));
    // Consumed by the preflight: the next exchange is normal again.
    assert!(preflight(&mock, "/v1/chat/completions").header("access-control-allow-origin").is_some());

    // A role-filtered cors fault cannot match a preflight; it hits the response instead.
    mock.push_fault(FaultRule::new(Fault::Cors).role("critic"));
    assert!(preflight(&mock, "/v1/chat/completions").header("access-control-allow-origin").is_some());
    let resp = openai(&mock, &openai_body("critic", "x", false));
    assert_eq!(resp.status, 200);
    assert!(resp.headers.iter().all(|(n, _)| !n.to_ascii_lowercase().starts_with("access-control-")));
    let again = openai(&mock, &openai_body("critic", "x", false));
    assert_eq!(again.header("access-control-allow-origin"), Some("*"));
}

#[test]
fn status_faults_use_each_providers_error_json_and_retry_after() {
    let mock = mock();
    let cases = [
        (401, "invalid_request_error", "authentication_error"),
        (403, "invalid_request_error", "permission_error"),
        (404, "invalid_request_error", "not_found_error"),
        (429, "requests", "rate_limit_error"),
        (500, "server_error", "api_error"),
        (502, "server_error", "api_error"),
        (503, "server_error", "overloaded_error"),
    ];
    for (status, openai_type, anthropic_type) in cases {
        mock.fault(Fault::Status { status, retry_after: Some(3), body: None });
        let resp = openai(&mock, &openai_body("designer", "x", true));
        assert_eq!(resp.status, status);
        assert_eq!(resp.header("retry-after"), Some("3"));
        assert_eq!(resp.header("access-control-allow-origin"), Some("*"));
        let v = resp.json().unwrap();
        assert_eq!(v["error"]["type"], openai_type, "{status}");
        assert!(v["error"]["message"].as_str().unwrap().contains("mock"));

        mock.fault(Fault::Status { status, retry_after: None, body: None });
        let resp = anthropic(&mock, &anthropic_body("designer", "x", false));
        assert_eq!(resp.status, status);
        assert_eq!(resp.header("retry-after"), None);
        let v = resp.json().unwrap();
        assert_eq!(v["type"], "error");
        assert_eq!(v["error"]["type"], anthropic_type, "{status}");
    }
    // Consumed: the next request is answered normally.
    assert_eq!(openai(&mock, &openai_body("designer", "x", false)).status, 200);
}

#[test]
fn status_fault_with_a_custom_body_sends_it_as_is() {
    let mock = mock();
    mock.fault(Fault::Status {
        status: 502,
        retry_after: None,
        body: Some(json!("<html><body>Bad gateway</body></html>")),
    });
    let resp = openai(&mock, &openai_body("designer", "x", false));
    assert_eq!(resp.status, 502);
    assert_eq!(resp.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(resp.text(), "<html><body>Bad gateway</body></html>");
}

#[test]
fn hang_fault_sends_nothing_so_the_client_times_out() {
    let mock = mock();
    mock.fault(Fault::Hang { ms: 3000 });
    let bytes = openai_body("designer", "x", false).to_string().into_bytes();
    let err = send(
        "POST",
        &format!("{}/chat/completions", mock.base_url()),
        &[("Content-Type", "application/json")],
        Some(&bytes),
        Duration::from_millis(300),
    )
    .unwrap_err();
    assert!(matches!(err, HttpError::Timeout(_)), "{err}");
    assert_eq!(mock.requests()[0].finished_ms, None, "the mock was still silent when the client gave up");
    let log = mock.wait_for_finished(1, TIMEOUT);
    assert_eq!(log[0].fault.as_deref(), Some("hang"));
    assert_eq!(log[0].status, None, "it then closed without an answer");
    assert!(log[0].finished_ms.is_some());
}

#[test]
fn cut_fault_closes_the_stream_after_n_body_bytes_without_an_end() {
    let mock = mock();
    mock.fault(Fault::Cut { after_bytes: 300, clean: false });
    let (head, body) = raw_exchange(&mock, &raw_post("/v1/chat/completions", "", &openai_body("planner", "x", true)));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_ascii_lowercase().contains("transfer-encoding: chunked"));
    let (data, complete) = decode_chunked(&body);
    assert!(!complete, "the zero chunk must be missing");
    assert_eq!(data.len(), 300);
    let text = String::from_utf8_lossy(&data);
    assert!(!text.contains("[DONE]"));

    // With `clean`, the body ends like a Connection: close body, still without its end.
    mock.fault(Fault::Cut { after_bytes: 500, clean: true });
    let headers = "x-api-key: k\r\nanthropic-version: 2023-06-01\r\n";
    let (head, body) = raw_exchange(&mock, &raw_post("/v1/messages", headers, &anthropic_body("planner", "x", true)));
    assert!(head.to_ascii_lowercase().contains("connection: close"), "{head}");
    assert_eq!(body.len(), 500);
    let summary = summarize(&parse_events(&String::from_utf8_lossy(&body)));
    assert!(!summary.finished);
    assert!(!String::from_utf8_lossy(&body).contains("message_stop"));
}

#[test]
fn cut_fault_on_a_whole_answer_leaves_the_content_length_unmet() {
    let mock = mock();
    mock.fault(Fault::Cut { after_bytes: 20, clean: false });
    let bytes = openai_body("designer", "x", false).to_string().into_bytes();
    let err = send("POST", &format!("{}/chat/completions", mock.base_url()), &[], Some(&bytes), TIMEOUT).unwrap_err();
    assert!(matches!(err, HttpError::Incomplete(_)), "{err}");
}

#[test]
fn malformed_fault_puts_broken_json_into_the_stream_and_body() {
    let mock = mock();
    mock.fault(Fault::Malformed);
    let resp = openai(&mock, &openai_body("planner", "x", true));
    let summary = stream_text(&resp);
    assert_eq!(summary.malformed.len(), 1, "{:?}", summary.malformed);
    assert!(summary.finished);

    mock.fault(Fault::Malformed);
    let resp = anthropic(&mock, &anthropic_body("planner", "x", true));
    assert_eq!(stream_text(&resp).malformed.len(), 1);

    mock.fault(Fault::Malformed);
    let resp = anthropic(&mock, &anthropic_body("designer", "x", false));
    assert_eq!(resp.status, 200);
    assert!(matches!(resp.json(), Err(HttpError::Json(_))));
}

#[test]
fn empty_fault_gives_a_well_formed_answer_without_text() {
    let mock = mock();
    mock.fault(Fault::Empty);
    let v = openai(&mock, &openai_body("designer", "x", false)).json().unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "");
    assert_eq!(v["choices"][0]["finish_reason"], "stop");

    mock.fault(Fault::Empty);
    let summary = stream_text(&openai(&mock, &openai_body("designer", "x", true)));
    assert_eq!((summary.text.as_str(), summary.finished), ("", true));

    mock.fault(Fault::Empty);
    let summary = stream_text(&anthropic(&mock, &anthropic_body("designer", "x", true)));
    assert_eq!((summary.text.as_str(), summary.finished), ("", true));

    mock.fault(Fault::Empty);
    let v = anthropic(&mock, &anthropic_body("designer", "x", false)).json().unwrap();
    assert_eq!(v["content"][0]["text"], "");
}

#[test]
fn drop_fault_closes_without_any_response() {
    let mock = mock();
    mock.fault(Fault::Drop);
    let (head, body) = raw_exchange(&mock, &raw_post("/v1/chat/completions", "", &openai_body("designer", "x", false)));
    assert_eq!((head.as_str(), body.len()), ("", 0));
    let log = mock.wait_for_finished(1, TIMEOUT);
    assert_eq!(log[0].fault.as_deref(), Some("drop"));
}

#[test]
fn faults_are_consumed_in_order_and_filtered_by_role_and_path() {
    let mock = mock();
    mock.push_fault(FaultRule::new(Fault::Empty).role("critic"));
    mock.push_fault(FaultRule::new(Fault::Status { status: 500, retry_after: None, body: None }).path("/v1/messages"));
    mock.fault(Fault::Status { status: 429, retry_after: None, body: None });
    // designer on OpenAI: skips the critic rule and the /v1/messages rule, takes the 429.
    assert_eq!(openai(&mock, &openai_body("designer", "x", false)).status, 429);
    // designer on Anthropic: takes the 500.
    assert_eq!(anthropic(&mock, &anthropic_body("designer", "x", false)).status, 500);
    // critic: takes the empty answer; then nothing is left.
    let v = openai(&mock, &openai_body("critic", "x", false)).json().unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "");
    let (_, pending) = http::request("GET", &format!("{}/faults", mock.admin_url()), None).unwrap();
    assert_eq!(pending, json!([]));
}

#[test]
fn scripted_reply_is_used_once_then_the_default_returns() {
    let mock = mock();
    mock.script(Some("designer"), "scripted designs");
    mock.script(None, "for anyone");
    // The critic skips the designer's script and takes the role-less one.
    let critic = openai(&mock, &openai_body("critic", "x", false)).json().unwrap();
    assert_eq!(critic["choices"][0]["message"]["content"], "for anyone");
    let first = openai(&mock, &openai_body("designer", "x", true));
    assert_eq!(stream_text(&first).text, "scripted designs");
    let second = openai(&mock, &openai_body("designer", "x", false)).json().unwrap();
    assert_eq!(second["choices"][0]["message"]["content"], default_reply(Some("designer"), "x"));
}

#[test]
fn scripted_tool_calls_come_back_in_both_formats() {
    let mock = mock();
    let call = ScriptedReply {
        role: Some("worker".into()),
        reply: Value::Null,
        tool_calls: vec![ScriptedToolCall { name: "search".into(), arguments: json!({"query": "계획"}) }],
    };
    mock.push_script(call.clone());
    let v = openai(&mock, &openai_body("worker", "x", false)).json().unwrap();
    assert_eq!(v["choices"][0]["finish_reason"], "tool_calls");
    let tc = &v["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(tc["function"]["name"], "search");
    let args: Value = serde_json::from_str(tc["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, json!({"query": "계획"}));

    mock.push_script(call);
    let resp = anthropic(&mock, &anthropic_body("worker", "x", true));
    let events = parse_events(&resp.text());
    let mut partial = String::new();
    for e in &events {
        let v: Value = serde_json::from_str(&e.data).unwrap();
        if v["delta"]["type"] == "input_json_delta" {
            partial.push_str(v["delta"]["partial_json"].as_str().unwrap());
        }
        if v["type"] == "content_block_start" {
            assert_eq!(v["content_block"]["type"], "tool_use");
        }
    }
    assert_eq!(serde_json::from_str::<Value>(&partial).unwrap(), json!({"query": "계획"}));
}

#[test]
fn roles_route_to_their_default_replies() {
    let mock = mock();
    let user = "Context\n[REQUEST]\n도쿄 여행 계획을 세워줘\n";
    for role in ["contract-analyst", "question-writer", "worker", "designer", "critic", "refiner", "planner"] {
        let v = openai(&mock, &openai_body(role, user, false)).json().unwrap();
        let text = v["choices"][0]["message"]["content"].as_str().unwrap();
        assert_eq!(text, default_reply(Some(role), user), "{role}");
    }
    let v = openai(&mock, &openai_body("contract-analyst", user, false)).json().unwrap();
    let contract: Value = serde_json::from_str(v["choices"][0]["message"]["content"].as_str().unwrap()).unwrap();
    assert_eq!(contract["goal"], "도쿄 여행 계획을 세워줘");
    assert_eq!(contract["format"], "Markdown document");
    // No role line: a short plain text.
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "hello"}]});
    let v = openai(&mock, &body).json().unwrap();
    assert!(v["choices"][0]["message"]["content"].as_str().unwrap().contains("mock"));
    let roles: Vec<Option<String>> = mock.requests().into_iter().map(|r| r.role).collect();
    assert_eq!(roles[0].as_deref(), Some("contract-analyst"));
    assert_eq!(roles.last().unwrap(), &None);
}

#[test]
fn concurrent_requests_are_served_at_the_same_time() {
    let mock = mock();
    // Each answer waits for the other two requests: a mock serving one connection at a
    // time could not take them in, and the three would not overlap.
    mock.gather(Some("critic"), 3);
    let base = mock.base_url();
    let workers: Vec<_> = (0..3)
        .map(|i| {
            let base = base.clone();
            thread::spawn(move || {
                let body = openai_body("critic", &format!("design {i}"), false).to_string().into_bytes();
                send("POST", &format!("{base}/chat/completions"), &[], Some(&body), TIMEOUT).unwrap().status
            })
        })
        .collect();
    for w in workers {
        assert_eq!(w.join().unwrap(), 200);
    }
    let log = mock.wait_for_finished(3, TIMEOUT);
    assert_eq!(log.len(), 3);
    for a in &log {
        for b in &log {
            if a.seq != b.seq {
                assert!(a.overlaps(b), "{a:?} and {b:?} should overlap");
            }
        }
    }
}

#[test]
fn request_log_records_prompts_headers_and_timing() {
    let mock = mock();
    openai(&mock, &openai_body("designer", "Plan a trip to Busan", true));
    anthropic(&mock, &anthropic_body("critic", "Design B", false));
    let (status, log) = http::request("GET", &format!("{}/requests", mock.admin_url()), None).unwrap();
    assert_eq!(status, 200);
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 2);
    assert_eq!(log[0]["seq"], 1);
    assert_eq!(log[0]["path"], "/v1/chat/completions");
    assert_eq!(log[0]["role"], "designer");
    assert_eq!(log[0]["stream"], true);
    assert_eq!(log[0]["has_auth"], true);
    assert_eq!(log[0]["headers"]["authorization"], "Bearer [redacted]");
    assert_eq!(log[0]["body"]["messages"][1]["content"], "Plan a trip to Busan");
    assert!(log[0]["finished_ms"].as_u64().unwrap() >= log[0]["started_ms"].as_u64().unwrap());
    assert_eq!(log[1]["role"], "critic");
    assert_eq!(log[1]["headers"]["x-api-key"], "[redacted]");
    assert_eq!(log[1]["status"], 200);
    let typed = mock.requests();
    assert_eq!(typed[1].system_prompt(), system("critic"));
    assert_eq!(typed[1].last_user_text(), "Design B");
    assert!(!log.iter().any(|r| r.to_string().contains("sk-test")));
}

#[test]
fn a_required_key_is_checked_per_provider() {
    let mock = MockLlm::start(MockConfig { api_key: Some("sk-right".into()), ..MockConfig::default() }).unwrap();
    let body = openai_body("designer", "x", false).to_string().into_bytes();
    let url = format!("{}/chat/completions", mock.base_url());
    let post = |headers: &[(&str, &str)]| send("POST", &url, headers, Some(&body), TIMEOUT).unwrap();

    let missing = post(&[]);
    assert_eq!(missing.status, 401);
    assert_eq!(missing.json().unwrap()["error"]["type"], "invalid_request_error");
    let wrong = post(&[("Authorization", "Bearer sk-wrong")]);
    assert_eq!(wrong.status, 401);
    let wrong_body = wrong.json().unwrap();
    assert!(!wrong_body.to_string().contains("sk-wrong"), "the key is masked");
    assert_eq!(post(&[("Authorization", "Bearer sk-right")]).status, 200);

    let abody = anthropic_body("designer", "x", false);
    let with_key = |key: &'static str| [("x-api-key", key), ("anthropic-version", "2023-06-01")];
    let resp = anthropic_with(&mock, &with_key("sk-wrong"), &abody);
    assert_eq!(resp.status, 401);
    assert_eq!(resp.json().unwrap()["error"]["type"], "authentication_error");
    assert_eq!(anthropic_with(&mock, &with_key("sk-right"), &abody).status, 200);
    let models =
        send("GET", &format!("{}/models", mock.base_url()), &[("Authorization", "Bearer sk-wrong")], None, TIMEOUT)
            .unwrap();
    assert_eq!(models.status, 401);
}

#[test]
fn anthropic_requires_its_key_and_version_headers() {
    let mock = mock();
    let body = anthropic_body("designer", "x", false);
    let no_key = anthropic_with(&mock, &[("anthropic-version", "2023-06-01")], &body);
    assert_eq!(no_key.status, 401);
    assert!(no_key.text().contains("x-api-key"));
    let no_version = anthropic_with(&mock, &[("x-api-key", "k")], &body);
    assert_eq!(no_version.status, 400);
    assert!(no_version.text().contains("anthropic-version"));
}

#[test]
fn anthropic_refuses_browser_requests_without_the_direct_access_header() {
    let mock = mock();
    let body = anthropic_body("designer", "x", false);
    let mut headers = ANTHROPIC_HEADERS.to_vec();
    headers.push(("Origin", "http://127.0.0.1:8080"));
    let refused = anthropic_with(&mock, &headers, &body);
    assert_eq!(refused.status, 401);
    assert_eq!(refused.header("access-control-allow-origin"), Some("*"));
    let v = refused.json().unwrap();
    assert_eq!(v["error"]["type"], "authentication_error");
    assert!(v["error"]["message"].as_str().unwrap().contains("anthropic-dangerous-direct-browser-access"));
    headers.push(("anthropic-dangerous-direct-browser-access", "true"));
    assert_eq!(anthropic_with(&mock, &headers, &body).status, 200);
}

#[test]
fn requests_missing_required_fields_are_400() {
    let mock = mock();
    let resp = openai(&mock, &json!({"messages": [{"role": "user", "content": "x"}]}));
    assert_eq!(resp.status, 400);
    let mut body = anthropic_body("designer", "x", false);
    body.as_object_mut().unwrap().remove("max_tokens");
    let resp = anthropic(&mock, &body);
    assert_eq!(resp.status, 400);
    assert_eq!(resp.json().unwrap()["error"]["type"], "invalid_request_error");
    let bytes = b"{not json".to_vec();
    let resp = send("POST", &format!("{}/chat/completions", mock.base_url()), &[], Some(&bytes), TIMEOUT).unwrap();
    assert_eq!(resp.status, 400);
}

#[test]
fn admin_api_scripts_faults_config_and_reset_over_http() {
    let mock = mock();
    let admin = mock.admin_url();
    let (status, v) =
        http::request("POST", &format!("{admin}/config"), Some(&json!({"latency_ms": 5, "chunk_bytes": 3}))).unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        (v["latency_ms"].as_u64(), v["chunk_delay_ms"].as_u64(), v["chunk_bytes"].as_u64()),
        (Some(5), Some(0), Some(3))
    );
    let (status, _) = http::request("POST", &format!("{admin}/config"), Some(&json!({"latency": 5}))).unwrap();
    assert_eq!(status, 400, "unknown config fields are refused");

    let (status, v) = http::request(
        "POST",
        &format!("{admin}/script"),
        Some(&json!([{"role": "designer", "reply": "one"}, {"role": null, "reply": {"a": 1}}])),
    )
    .unwrap();
    assert_eq!((status, v["queued"].as_u64()), (200, Some(2)));
    let (status, v) = http::request(
        "POST",
        &format!("{admin}/faults"),
        Some(&json!({"kind": "status", "status": 503, "retry_after": 1, "role": "critic"})),
    )
    .unwrap();
    assert_eq!((status, v["pending"].as_u64()), (200, Some(1)));
    let (status, v) = http::request("POST", &format!("{admin}/faults"), Some(&json!([{"kind": "explode"}]))).unwrap();
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("explode"), "{v}");
    let (status, _) =
        http::request("POST", &format!("{admin}/faults"), Some(&json!({"kind": "status", "status": 200}))).unwrap();
    assert_eq!(status, 400);

    let other = openai(&mock, &openai_body("question-writer", "x", false)).json().unwrap();
    assert_eq!(other["choices"][0]["message"]["content"], "{\"a\":1}");
    assert_eq!(openai(&mock, &openai_body("critic", "x", false)).status, 503);

    let (status, _) = http::request("POST", &format!("{admin}/reset"), None).unwrap();
    assert_eq!(status, 200);
    assert!(mock.requests().is_empty());
    assert_eq!(mock.pacing(), Pacing::default());
    let designer = openai(&mock, &openai_body("designer", "x", false)).json().unwrap();
    assert_eq!(
        designer["choices"][0]["message"]["content"],
        default_reply(Some("designer"), "x"),
        "reset drops the designer's queued script"
    );
    assert_eq!(mock.requests()[0].seq, 1, "reset restarts the sequence");
    let (status, _) = http::request("GET", &format!("{admin}/nope"), None).unwrap();
    assert_eq!(status, 404);
}

#[test]
fn streamed_chunks_are_paced_by_the_chunk_delay() {
    let mock = mock();
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 100, chunk_bytes: 2000 });
    let mut socket = TcpStream::connect(("127.0.0.1", mock.port())).unwrap();
    socket.set_read_timeout(Some(TIMEOUT)).unwrap();
    socket.write_all(&raw_post("/v1/chat/completions", "", &openai_body("planner", "x", true))).unwrap();
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    while !received.windows(5).any(|w| w == b"data:") {
        let n = socket.read(&mut buf).unwrap();
        assert!(n > 0, "the stream ended before its first event");
        received.extend_from_slice(&buf[..n]);
    }
    // Ordering, not duration: the first piece is in while the mock still holds the rest back.
    assert_eq!(mock.requests()[0].finished_ms, None, "the first piece came before the stream's end was sent");
    let _ = socket.read_to_end(&mut received);
    let head_end = received.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let (body, complete) = decode_chunked(&received[head_end..]);
    assert!(complete);
    assert!(body.len().div_ceil(2000) >= 5, "a planner stream spans several 2000-byte chunks");
    let text = summarize(&parse_events(&String::from_utf8_lossy(&body))).text;
    assert_eq!(text, default_reply(Some("planner"), "x"));
}

#[test]
fn a_client_leaving_mid_stream_is_recorded_and_a_whole_stream_is_not() {
    let mock = mock();
    openai(&mock, &openai_body("planner", "x", true));
    assert!(!mock.wait_for_end_of(1, TIMEOUT).unwrap().client_left, "a stream read to its end");

    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 50, chunk_bytes: 100 });
    let mut socket = TcpStream::connect(("127.0.0.1", mock.port())).unwrap();
    socket.set_read_timeout(Some(TIMEOUT)).unwrap();
    socket.write_all(&raw_post("/v1/chat/completions", "", &openai_body("planner", "x", true))).unwrap();
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    while !received.windows(5).any(|w| w == b"data:") {
        let n = socket.read(&mut buf).unwrap();
        assert!(n > 0);
        received.extend_from_slice(&buf[..n]);
    }
    drop(socket);
    let left = mock.wait_for_end_of(2, TIMEOUT).unwrap();
    assert!(left.finished_ms.is_some() && left.client_left, "{left:?}");
}
