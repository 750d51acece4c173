//! The browser transport: sends a built request with `fetch`, reads a streamed answer
//! chunk by chunk, retries what is worth retrying, and stops for real on abort or timeout.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, Headers, ReadableStreamDefaultReader, RequestMode, Response};

use super::error::{redact_failure, redact_secrets};
use super::{
    build_chat_request, build_model_list_request, map_http_error, new_stream, openai, parse_chat_response,
    parse_model_list, retry_after_ms, Completion, HttpRequest, Method, ProviderConfig, RetryPolicy,
};
use crate::engine::call::{FailureKind, LlmFailure};
use crate::engine::prompt::Prompt;

/// How one call is allowed to run.
#[derive(Debug, Clone, Copy)]
pub struct CallOptions {
    /// The longest wait for the first byte, and between two chunks of a stream.
    pub timeout_ms: u32,
    pub retry: RetryPolicy,
}

/// Aborts one call: from Stop, from leaving the session, or from its own timeout.
pub struct CallControl {
    controller: AbortController,
    stopped: Cell<bool>,
    timed_out: Rc<Cell<bool>>,
    timer: RefCell<Option<Timer>>,
}

/// A running `setTimeout`: its id, and the callback it keeps alive until it fires or is cleared.
type Timer = (i32, Closure<dyn FnMut()>);

impl CallControl {
    /// A control for a new call.
    pub fn new() -> Rc<CallControl> {
        Rc::new(CallControl {
            controller: AbortController::new().expect("AbortController exists in every supported browser"),
            stopped: Cell::new(false),
            timed_out: Rc::new(Cell::new(false)),
            timer: RefCell::new(None),
        })
    }

    /// Stops the call: the request is aborted in the browser.
    pub fn stop(&self) {
        self.stopped.set(true);
        self.disarm();
        self.controller.abort();
    }

    /// True once `stop` was called.
    pub fn is_stopped(&self) -> bool {
        self.stopped.get()
    }

    /// (Re)starts the inactivity timer: with no progress for `ms`, the call is aborted.
    fn arm(&self, ms: u32) {
        self.disarm();
        let controller = self.controller.clone();
        let timed_out = self.timed_out.clone();
        let callback = Closure::<dyn FnMut()>::new(move || {
            timed_out.set(true);
            controller.abort();
        });
        if let Some(window) = web_sys::window() {
            if let Ok(id) = window
                .set_timeout_with_callback_and_timeout_and_arguments_0(callback.as_ref().unchecked_ref(), ms as i32)
            {
                *self.timer.borrow_mut() = Some((id, callback));
            }
        }
    }

    fn disarm(&self) {
        if let Some((id, _)) = self.timer.borrow_mut().take() {
            if let Some(window) = web_sys::window() {
                window.clear_timeout_with_handle(id);
            }
        }
    }

    /// The failure kind for an aborted request: the user's Stop or the timeout.
    fn abort_kind(&self) -> Option<FailureKind> {
        if self.stopped.get() {
            Some(FailureKind::Aborted)
        } else if self.timed_out.get() {
            Some(FailureKind::Timeout)
        } else {
            None
        }
    }
}

impl Drop for CallControl {
    fn drop(&mut self) {
        self.disarm();
    }
}

fn failure(kind: FailureKind, detail: impl Into<String>) -> LlmFailure {
    LlmFailure { kind, detail: detail.into(), status: None, partial: None }
}

/// The request's headers. A value the browser refuses (a key pasted with a line break or a
/// non-Latin-1 character) is a clear failure here, never a thrown exception.
fn headers_of(req: &HttpRequest) -> Result<gloo_net::http::Headers, LlmFailure> {
    let headers = Headers::new().map_err(|_| failure(FailureKind::Malformed, "could not build headers"))?;
    for (name, value) in &req.headers {
        headers.append(name, value).map_err(|_| failure(FailureKind::BadRequest, format!("invalid header {name}")))?;
    }
    Ok(gloo_net::http::Headers::from_raw(headers))
}

/// Sends a request (gloo-net's fetch wrapper) and waits for the response head. Network
/// errors, CORS blocks, aborts and timeouts become failures.
async fn send(req: &HttpRequest, control: &CallControl, timeout_ms: u32) -> Result<Response, LlmFailure> {
    let builder = match req.method {
        Method::Get => gloo_net::http::Request::get(&req.url),
        Method::Post => gloo_net::http::Request::post(&req.url),
    };
    let signal = control.controller.signal();
    let builder = builder.headers(headers_of(req)?).mode(RequestMode::Cors).abort_signal(Some(&signal));
    let request = match &req.body {
        Some(body) => builder.body(body.as_str()),
        None => builder.build(),
    }
    .map_err(|_| failure(FailureKind::BadRequest, format!("the URL {} is not valid", req.url)))?;
    control.arm(timeout_ms);
    match request.send().await {
        Ok(resp) => Ok(Response::from(resp)),
        // The browser gives the same TypeError for a refused connection, a wrong host and a
        // CORS block; the message explains all three.
        Err(err) => Err(match control.abort_kind() {
            Some(kind) => failure(kind, String::new()),
            None => failure(FailureKind::Network, err.to_string()),
        }),
    }
}

fn js_message(err: &JsValue) -> String {
    Reflect::get(err, &"message".into()).ok().and_then(|m| m.as_string()).unwrap_or_else(|| "fetch failed".to_string())
}

fn header_pairs(headers: &Headers) -> Vec<(String, String)> {
    ["retry-after", "retry-after-ms", "content-type", "x-request-id"]
        .iter()
        .filter_map(|name| headers.get(name).ok().flatten().map(|v| (name.to_string(), v)))
        .collect()
}

async fn body_text(resp: &Response, control: &CallControl) -> Result<String, LlmFailure> {
    let promise = resp.text().map_err(|_| failure(FailureKind::Malformed, "unreadable body"))?;
    match JsFuture::from(promise).await {
        Ok(text) => Ok(text.as_string().unwrap_or_default()),
        Err(err) => Err(failure(control.abort_kind().unwrap_or(FailureKind::Interrupted), js_message(&err))),
    }
}

/// Waits `ms`, or less if the call is stopped meanwhile.
async fn pause(ms: u64, control: &CallControl) {
    let _ = JsFuture::from(after_or_on(ms.min(60_000) as i32, &control.controller.signal(), "abort")).await;
}

/// A promise that settles after `ms` or at the first `event` on `target`, whichever comes
/// first. Nothing of Rust runs when it settles: only the awaiting task wakes.
pub fn after_or_on(ms: i32, target: &web_sys::EventTarget, event: &str) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
        let once = web_sys::AddEventListenerOptions::new();
        once.set_once(true);
        let _ = target.add_event_listener_with_callback_and_add_event_listener_options(event, &resolve, &once);
    })
}

/// Runs one chat call: retries rate limits and server errors as the policy says,
/// streams text into `on_text` (the whole text so far) when `stream` is set, and ends
/// with the completion or a failure that keeps any partial text. A failure never carries
/// the key, even when the server echoed it.
pub async fn run_chat(
    cfg: &ProviderConfig,
    prompt: &Prompt,
    stream: bool,
    opts: CallOptions,
    control: &CallControl,
    on_text: &dyn Fn(&str),
) -> Result<Completion, LlmFailure> {
    run_chat_attempts(cfg, prompt, stream, opts, control, on_text).await.map_err(|f| redact_failure(f, cfg.key()))
}

async fn run_chat_attempts(
    cfg: &ProviderConfig,
    prompt: &Prompt,
    stream: bool,
    opts: CallOptions,
    control: &CallControl,
    on_text: &dyn Fn(&str),
) -> Result<Completion, LlmFailure> {
    let mut prompt = prompt.clone();
    let mut attempt = 0;
    let mut json_mode_dropped = false;
    loop {
        let req = build_chat_request(cfg, &prompt, stream);
        let result = chat_once(cfg, &req, stream, opts.timeout_ms, control, on_text).await;
        control.disarm();
        let (failure, retry_after) = match result {
            Ok(done) => return Ok(done),
            Err(f) => f,
        };
        if control.is_stopped() {
            return Err(LlmFailure { kind: FailureKind::Aborted, ..failure });
        }
        // Some OpenAI-compatible servers refuse JSON mode; the prompt still asks for JSON.
        if prompt.json_output && !json_mode_dropped && openai::rejects_json_mode(&failure) {
            prompt.json_output = false;
            json_mode_dropped = true;
            continue;
        }
        match opts.retry.delay_before_retry(attempt, &failure, retry_after) {
            Some(delay) if failure.partial.is_none() => {
                attempt += 1;
                pause(delay, control).await;
                if control.is_stopped() {
                    return Err(failure_from(FailureKind::Aborted, &failure));
                }
            }
            _ => return Err(failure),
        }
    }
}

fn failure_from(kind: FailureKind, f: &LlmFailure) -> LlmFailure {
    LlmFailure { kind, ..f.clone() }
}

type Attempt = Result<Completion, (LlmFailure, Option<u64>)>;

async fn chat_once(
    cfg: &ProviderConfig,
    req: &HttpRequest,
    stream: bool,
    timeout_ms: u32,
    control: &CallControl,
    on_text: &dyn Fn(&str),
) -> Attempt {
    let resp = send(req, control, timeout_ms).await.map_err(|f| (f, None))?;
    let status = resp.status();
    if !(200..300).contains(&status) {
        let headers = header_pairs(&resp.headers());
        // Masked before the detail is clipped, so no part of an echoed key survives.
        let body = redact_secrets(&body_text(&resp, control).await.unwrap_or_default(), cfg.key());
        let retry_after = retry_after_ms(&headers);
        return Err((map_http_error(cfg.kind, status, &headers, &body), retry_after));
    }
    if !stream {
        control.arm(timeout_ms);
        let body = body_text(&resp, control).await.map_err(|f| (f, None))?;
        return parse_chat_response(cfg.kind, &body).map_err(|f| (f, None));
    }
    let mut acc = new_stream(cfg.kind);
    let Some(body) = resp.body() else {
        return Err((failure(FailureKind::Empty, "the response had no body"), None));
    };
    let reader: ReadableStreamDefaultReader = match body.get_reader().dyn_into() {
        Ok(r) => r,
        Err(_) => return Err((failure(FailureKind::Malformed, "the body cannot be read as a stream"), None)),
    };
    loop {
        control.arm(timeout_ms);
        let chunk = JsFuture::from(reader.read()).await;
        let chunk = match chunk {
            Ok(c) => c,
            Err(err) => {
                let kind = control.abort_kind().unwrap_or(FailureKind::Interrupted);
                return Err((acc.into_failure(kind, js_message(&err)), None));
            }
        };
        let done = Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = Reflect::get(&chunk, &"value".into()) {
            let bytes = Uint8Array::new(&value).to_vec();
            let before = acc.text().len();
            acc.push_bytes(&bytes);
            if acc.is_finished() {
                // The whole answer is here: it goes to the engine at once. Showing its text
                // first would only re-render the page in the way of the next call (a short
                // answer, such as a counseling check, often comes in a single chunk).
                let _ = reader.cancel();
                break;
            }
            if acc.text().len() != before {
                on_text(acc.text());
            }
        }
    }
    acc.finish().map_err(|f| (f, None))
}

/// The models the server offers, for the settings' picker (a failure never carries the key).
pub async fn list_models(cfg: &ProviderConfig, timeout_ms: u32) -> Result<Vec<String>, LlmFailure> {
    models_once(cfg, timeout_ms).await.map_err(|f| redact_failure(f, cfg.key()))
}

async fn models_once(cfg: &ProviderConfig, timeout_ms: u32) -> Result<Vec<String>, LlmFailure> {
    let control = CallControl::new();
    let req = build_model_list_request(cfg);
    let resp = send(&req, &control, timeout_ms).await?;
    let status = resp.status();
    let headers = header_pairs(&resp.headers());
    let body = body_text(&resp, &control).await?;
    control.disarm();
    if !(200..300).contains(&status) {
        return Err(map_http_error(cfg.kind, status, &headers, &redact_secrets(&body, cfg.key())));
    }
    parse_model_list(&body)
}

/// The context window an OpenAI-compatible local server reports (llama.cpp `/props`, Ollama
/// `/api/ps` and `/api/show`), trying each question in turn; None when none answers with one.
/// Failures are silent: the caller keeps the default or the user's setting.
pub async fn server_window(cfg: &ProviderConfig, timeout_ms: u32) -> Option<u32> {
    for (probe, req) in super::window::window_probes(cfg) {
        let control = CallControl::new();
        let Ok(resp) = send(&req, &control, timeout_ms).await else { continue };
        if !(200..300).contains(&resp.status()) {
            control.disarm();
            continue;
        }
        let body = body_text(&resp, &control).await;
        control.disarm();
        if let Some(tokens) = body.ok().and_then(|b| super::window::parse_probe(probe, &b, &cfg.model)) {
            return Some(tokens);
        }
    }
    None
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use crate::llm::ProviderKind;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A key the browser cannot put in a header (pasted with a Hangul syllable or a line
    /// break) fails the call with a clear error, without the key and without throwing.
    #[wasm_bindgen_test]
    async fn a_key_no_header_can_carry_is_a_clear_failure() {
        for key in ["sk-abc키def", "sk-abc\ndef"] {
            let mut cfg = ProviderConfig::new(ProviderKind::OpenAi, "gpt-test").with_key(key);
            cfg.base_url = "http://127.0.0.1:9/v1".into();
            let failure = list_models(&cfg, 2_000).await.expect_err("the request cannot be built");
            assert_eq!(failure.kind, FailureKind::BadRequest, "{failure:?}");
            assert!(failure.detail.contains("invalid header"), "{failure:?}");
            assert!(!failure.detail.contains("abc"), "the key stays out of the error: {failure:?}");
        }
    }
}
