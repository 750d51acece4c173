//! Failed calls: HTTP errors mapped to failure kinds, the retry rule, and the messages people see.
//!
//! Retry rule: only `RateLimited` and `Server` failures are retried automatically, at most
//! `max_retries` times, with exponential backoff from `base_delay_ms`, or after the server's
//! `Retry-After` when it sent one; every wait is capped at `max_delay_ms`. Not retried:
//! `Timeout` (the user has already waited the whole limit; a retry is one click away),
//! `Network` (a stopped server, a wrong URL or a CORS block does not fix itself in a second;
//! the message says what to change), and any failure that already streamed text (a retry
//! would show the answer twice; the partial text is kept and the user may retry).

use regex_lite::Regex;
use serde_json::Value;

use super::provider::{header_value, host_of, is_local_host, page_may_connect, port_of, ProviderConfig, ProviderKind};
use crate::engine::call::{FailureKind, LlmFailure};
use crate::engine::json::decimal;
use crate::engine::lang::{clip, Lang};

/// Longest provider detail kept in a failure, in characters.
const DETAIL_MAX_CHARS: usize = 300;

/// The failure kind an HTTP status stands for.
pub fn kind_for_status(status: u16) -> FailureKind {
    match status {
        401 | 403 => FailureKind::Auth,
        404 => FailureKind::NotFound,
        429 => FailureKind::RateLimited,
        500..=599 => FailureKind::Server,
        _ => FailureKind::BadRequest,
    }
}

/// Maps a non-success HTTP response to a failure carrying the provider's own message.
///
/// Beyond the status: OpenAI's `insufficient_quota` 429 is `BadRequest`, since waiting does not
/// help and the provider's message says to check billing; an OpenAI-compatible server's 400
/// that says the model does not exist is `NotFound`, so the advice names the model.
pub fn map_http_error(kind: ProviderKind, status: u16, headers: &[(String, String)], body: &str) -> LlmFailure {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let code = parsed.as_ref().and_then(error_code);
    let detail = match parsed.as_ref().and_then(provider_message) {
        Some(message) => message,
        None if looks_like_html(headers, body) => html_title(body).unwrap_or_default(),
        None => collapse_whitespace(body),
    };
    let mut failure_kind = kind_for_status(status);
    match code.as_deref() {
        Some("insufficient_quota") => failure_kind = FailureKind::BadRequest,
        Some("model_not_found") => failure_kind = FailureKind::NotFound,
        _ => {}
    }
    if kind == ProviderKind::OpenAiCompatible
        && failure_kind == FailureKind::BadRequest
        && says_model_is_missing(&detail)
    {
        failure_kind = FailureKind::NotFound;
    }
    LlmFailure { kind: failure_kind, detail: clean_detail(&detail), status: Some(status), partial: None }
}

/// A failure from an error object a provider sent with a success status or inside a stream:
/// OpenAI `{"error":{..}}`, Anthropic `{"type":"error","error":{..}}`, Ollama `{"error":".."}`.
/// `None` when the value is not an error object.
pub(crate) fn failure_from_error_value(value: &Value) -> Option<LlmFailure> {
    let is_error = match value.get("error") {
        Some(Value::Null) | None => value.get("type").and_then(Value::as_str) == Some("error"),
        Some(_) => true,
    };
    if !is_error {
        return None;
    }
    let error = value.get("error").unwrap_or(value);
    let status = error
        .get("code")
        .and_then(Value::as_u64)
        .or_else(|| error.get("status").and_then(Value::as_u64))
        .and_then(|n| u16::try_from(n).ok());
    let kind = error_code(value)
        .and_then(|code| kind_for_error_code(&code))
        .or_else(|| status.map(kind_for_status))
        // An error in the middle of an answer is most likely the server's trouble.
        .unwrap_or(FailureKind::Server);
    let detail = provider_message(value).unwrap_or_default();
    Some(LlmFailure { kind, detail: clean_detail(&detail), status, partial: None })
}

/// The provider's own error message in a JSON error body, if there is one.
pub fn provider_message(value: &Value) -> Option<String> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(String::from);
    match value.get("error") {
        Some(Value::String(s)) if !s.trim().is_empty() => return Some(s.trim().to_string()),
        Some(error @ Value::Object(_)) => {
            if let Some(message) = text(error.get("message")) {
                return Some(message);
            }
        }
        _ => {}
    }
    // vLLM `{"object":"error","message":..}`, FastAPI-style `{"detail":".."}`.
    text(value.get("message")).or_else(|| text(value.get("detail")))
}

/// The machine-readable error code or type in a JSON error body.
fn error_code(value: &Value) -> Option<String> {
    let error = value.get("error")?;
    ["code", "type"]
        .iter()
        .filter_map(|k| error.get(*k).and_then(Value::as_str))
        .find(|s| kind_for_error_code(s).is_some())
        .or_else(|| error.get("code").and_then(Value::as_str))
        .map(String::from)
}

/// Failure kinds for the error types and codes OpenAI and Anthropic document.
fn kind_for_error_code(code: &str) -> Option<FailureKind> {
    Some(match code {
        "authentication_error" | "permission_error" | "invalid_api_key" => FailureKind::Auth,
        "not_found_error" | "model_not_found" => FailureKind::NotFound,
        "rate_limit_error" | "rate_limit_exceeded" => FailureKind::RateLimited,
        "api_error" | "overloaded_error" | "server_error" => FailureKind::Server,
        "invalid_request_error" | "request_too_large" | "insufficient_quota" | "context_length_exceeded" => {
            FailureKind::BadRequest
        }
        "timeout_error" => FailureKind::Timeout,
        _ => return None,
    })
}

/// True when a server's message says the requested model does not exist.
fn says_model_is_missing(detail: &str) -> bool {
    let d = detail.to_ascii_lowercase();
    d.contains("model")
        && ["not found", "does not exist", "not a valid model", "no such model"].iter().any(|p| d.contains(p))
}

fn looks_like_html(headers: &[(String, String)], body: &str) -> bool {
    header_value(headers, "content-type").is_some_and(|ct| ct.contains("text/html"))
        || body.trim_start().starts_with('<')
}

/// The text of an HTML page's `<title>`, e.g. a proxy's "502 Bad Gateway" page.
fn html_title(body: &str) -> Option<String> {
    let lower = body.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let title = collapse_whitespace(body.get(start..end)?);
    (!title.is_empty()).then_some(title)
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Clips a detail and hides anything that looks like an API key.
fn clean_detail(detail: &str) -> String {
    clip(&redact_secrets(detail, None), DETAIL_MAX_CHARS)
}

/// Replaces the given key and key-looking tokens (`sk-…`) with a mask; also the start of
/// the key when a clipped text ends in the middle of it ("… key abc12…").
pub fn redact_secrets(text: &str, key: Option<&str>) -> String {
    let mut out = text.to_string();
    if let Some(key) = key.map(str::trim).filter(|k| k.len() >= 4) {
        out = out.replace(key, "••••");
        if let Some(body) = out.strip_suffix('…') {
            let cut = (4..key.len())
                .rev()
                .filter(|&n| key.is_char_boundary(n))
                .find(|&n| body.ends_with(&key[..n]))
                .map(|n| body.len() - n);
            if let Some(at) = cut {
                out = format!("{}••••…", &body[..at]);
            }
        }
    }
    match Regex::new(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{12,}") {
        Ok(re) => re.replace_all(&out, "••••").into_owned(),
        Err(_) => out,
    }
}

/// The same failure with the key masked in everything it carries that came from the server
/// (its detail): a failure is shown, saved with the conversation and exported, and some
/// servers echo the key they were sent in their error messages.
pub fn redact_failure(failure: LlmFailure, key: Option<&str>) -> LlmFailure {
    LlmFailure { detail: redact_secrets(&failure.detail, key), ..failure }
}

/// How long the server asked us to wait, from `retry-after-ms` or `Retry-After` (seconds);
/// `None` when absent or in the HTTP-date form.
pub fn retry_after_ms(headers: &[(String, String)]) -> Option<u64> {
    let number = |name: &str| decimal(header_value(headers, name)?.trim()).filter(|n| n.is_finite() && *n >= 0.0);
    if let Some(ms) = number("retry-after-ms") {
        return Some(ms.round() as u64);
    }
    number("retry-after").map(|s| (s * 1000.0).round() as u64)
}

/// When and how often a failed call is tried again (see the module docs for the rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Wait before the first retry; doubled for each further one.
    pub base_delay_ms: u64,
    /// Longest wait, even when the server asks for more.
    pub max_delay_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { max_retries: 2, base_delay_ms: 1_000, max_delay_ms: 20_000 }
    }
}

impl RetryPolicy {
    /// True when this kind of failure is worth retrying automatically.
    pub fn retries(&self, failure: &LlmFailure) -> bool {
        let streamed_text = failure.partial.as_deref().is_some_and(|p| !p.is_empty());
        matches!(failure.kind, FailureKind::RateLimited | FailureKind::Server) && !streamed_text
    }

    /// Milliseconds to wait before retrying, or `None` to give up; `attempt` is how many
    /// retries have already been made (0 after the first failure).
    pub fn delay_before_retry(&self, attempt: u32, failure: &LlmFailure, retry_after_ms: Option<u64>) -> Option<u64> {
        if attempt >= self.max_retries || !self.retries(failure) {
            return None;
        }
        let backoff = self.base_delay_ms.saturating_mul(1u64.checked_shl(attempt).unwrap_or(u64::MAX));
        Some(retry_after_ms.unwrap_or(backoff).min(self.max_delay_ms))
    }
}

/// What happened and what to do about it, in the UI language; never contains the key.
pub fn failure_message(f: &LlmFailure, lang: Lang, provider: &ProviderConfig) -> String {
    let status = f.status.map(|s| format!(" ({s})")).unwrap_or_default();
    let detail = f.detail.trim();
    let label = provider.kind.label();
    let base = provider.base();
    let host = host_of(&base).to_string();
    // Who answered: the provider's name, or for a compatible server its host.
    let (who_en, who_ko) = match provider.kind {
        ProviderKind::OpenAiCompatible => (format!("The server at {host}"), format!("{host} 서버")),
        _ => (label.to_string(), format!("{label} 서버")),
    };
    let model = provider.model.trim();
    let mut msg = match f.kind {
        FailureKind::Auth => match (provider.key(), f.status) {
            (None, _) => match lang {
                Lang::Ko => format!(
                    "키가 없어 {who_ko}가 요청을 거부했습니다{status}: 설정에서 키를 입력하세요."
                ),
                Lang::En => format!(
                    "{who_en} refused the request because no key is set{status}: add a key in Settings."
                ),
            },
            (Some(_), Some(403)) => match lang {
                Lang::Ko => format!(
                    "이 키로는 접근이 허용되지 않습니다{status}: 설정에서 키의 권한과 사용할 모델(\"{model}\")을 확인하세요."
                ),
                Lang::En => format!(
                    "The key was refused access{status}: check in Settings that it may use model \"{model}\"."
                ),
            },
            (Some(_), _) => lang
                .pick(
                    "키가 거부되었습니다{status}: 설정에서 키를 확인하세요.",
                    "The key was rejected{status}: check it in Settings.",
                )
                .replace("{status}", &status),
        },
        FailureKind::NotFound => {
            let mut m = match lang {
                Lang::Ko => format!(
                    "모델이나 주소를 찾을 수 없습니다{status}: 모델 \"{model}\", 주소 {base}. 설정에서 모델 이름과 기본 URL을 확인하세요."
                ),
                Lang::En => format!(
                    "Model \"{model}\" or the address {base} was not found{status}: check the model name and base URL in Settings."
                ),
            };
            if provider.kind == ProviderKind::OpenAiCompatible && port_of(&base) == Some(11434) {
                m.push(' ');
                m.push_str(&match lang {
                    Lang::Ko => format!("Ollama라면 먼저 `ollama pull {model}` 명령으로 모델을 받으세요."),
                    Lang::En => format!("With Ollama, run `ollama pull {model}` first."),
                });
            }
            m
        }
        FailureKind::RateLimited => lang
            .pick(
                "요청이 너무 많습니다{status}: 잠시 기다린 뒤 다시 시도하세요. 계속되면 요금제의 사용 한도를 확인하세요.",
                "Too many requests{status}: wait a moment and retry. If it keeps happening, check your plan's rate limits.",
            )
            .replace("{status}", &status),
        FailureKind::Server => {
            let overloaded = f.status == Some(529) || detail.to_ascii_lowercase().contains("overload");
            match (lang, overloaded) {
                (Lang::Ko, true) => format!("{who_ko}가 과부하 상태입니다{status}: 잠시 후 다시 시도하세요."),
                (Lang::Ko, false) => format!("{who_ko}에서 오류가 났습니다{status}: 잠시 후 다시 시도하세요."),
                (Lang::En, true) => format!("{who_en} is overloaded{status}: retry in a moment."),
                (Lang::En, false) => format!("{who_en} had a server error{status}: retry in a moment."),
            }
        }
        FailureKind::BadRequest => lang
            .pick(
                "요청이 거부되었습니다{status}: 아래 사유를 보고 설정이나 대화 길이를 조정하세요.",
                "The request was refused{status}: see the reason below and adjust the settings or shorten the conversation.",
            )
            .replace("{status}", &status),
        FailureKind::Timeout => lang
            .pick(
                "제한 시간 안에 응답이 없습니다: 모델이 느리거나 바쁠 수 있습니다. 다시 시도하거나 더 빠른 모델을 고르세요.",
                "No answer within the time limit: the model may be slow or busy. Retry, or pick a faster model.",
            )
            .to_string(),
        FailureKind::Network => network_message(lang, provider, &base, &host),
        FailureKind::Interrupted => {
            let kept = f.partial.as_deref().is_some_and(|p| !p.trim().is_empty());
            lang.pick(
                if kept {
                    "응답이 중간에 끊겼습니다. 받은 부분은 남겨 두었습니다: 다시 시도하면 전체 답을 받을 수 있습니다."
                } else {
                    "답이 오기 전에 연결이 끊겼습니다: 다시 시도하세요."
                },
                if kept {
                    "The answer stopped midway; the partial text was kept. Retry to get the whole answer."
                } else {
                    "The connection closed before any answer arrived: retry."
                },
            )
            .to_string()
        }
        FailureKind::Malformed => match lang {
            Lang::Ko => format!(
                "응답을 읽을 수 없습니다: 기본 URL({base})이 {label} API를 가리키는지 확인하고 다시 시도하세요."
            ),
            Lang::En => format!(
                "The answer could not be read: check that the base URL {base} points to an {label} API, then retry."
            ),
        },
        FailureKind::Unusable => lang
            .pick(
                "모델이 답했지만 요청한 형식이 아닙니다: 이 단계는 휴리스틱이 대신했습니다. 다시 시도하거나 더 큰 모델을 고르세요.",
                "The model answered, but not in the form asked for: heuristics stood in. Retry, or pick a stronger model.",
            )
            .to_string(),
        FailureKind::Empty => lang
            .pick(
                "모델이 빈 답을 보냈습니다: 다시 시도하거나 다른 모델을 고르세요.",
                "The model returned an empty answer: retry, or pick another model.",
            )
            .to_string(),
        FailureKind::Aborted => lang.pick("중지했습니다.", "Stopped.").to_string(),
        FailureKind::AppIncomplete => lang
            .pick(
                "모델에게 줄 지시문을 담은 앱의 나머지를 불러오지 못해 보내지 않았습니다: 이 단계는 휴리스틱이 대신했습니다. 페이지를 다시 불러오세요.",
                "The part of the app that holds the model's instructions did not load, so nothing was sent: heuristics stood in for this step. Reload the page.",
            )
            .to_string(),
    };
    // A prompt too long for the window is worth naming: the fix is the conversation's length
    // or the server's window, not the settings.
    if f.kind != FailureKind::Aborted && super::window::is_context_overflow(f) {
        msg = super::window::overflow_message(lang, super::window::known_window(model));
    }
    // An unusable answer's detail is the engine's own parse reason, and an incomplete app's
    // the reason its texts were refused, not the provider's words; the message above already
    // says what happened.
    if !detail.is_empty()
        && !matches!(f.kind, FailureKind::Aborted | FailureKind::Unusable | FailureKind::AppIncomplete)
    {
        let reason = lang.pick("사유", "Reason");
        msg.push_str(&format!("\n{reason}: {detail}"));
    }
    redact_secrets(&msg, provider.key())
}

/// The Network message: for a local OpenAI-compatible server, concrete steps per server.
fn network_message(lang: Lang, provider: &ProviderConfig, base: &str, host: &str) -> String {
    if !page_may_connect(base) {
        return match lang {
            Lang::Ko => format!(
                "페이지의 보안 정책(CSP)이 {base} 연결을 막았습니다: Deliberate는 https:// 주소와 이 컴퓨터의 서버(http://localhost, http://127.0.0.1)에만 연결합니다. 서버의 https:// 주소를 쓰거나, 이 컴퓨터의 localhost로 연결되게 하세요 (예: SSH 터널)."
            ),
            Lang::En => format!(
                "The page's security policy (CSP) blocked {base}: Deliberate connects only to https:// addresses and to servers on this computer (http://localhost, http://127.0.0.1). Use the server's https:// address, or reach it through localhost (an SSH tunnel, for example)."
            ),
        };
    }
    let local = is_local_host(host);
    // The official APIs allow browsers; anything else (a proxy, a gateway, a local
    // server) may be down, mistyped or missing CORS headers.
    let official = matches!(host, "api.openai.com" | "api.anthropic.com");
    if provider.kind != ProviderKind::OpenAiCompatible && official {
        return match lang {
            Lang::Ko => format!(
                "{host}에 연결할 수 없습니다: 인터넷 연결과 기본 URL을 확인하세요. 브라우저 확장 프로그램이나 네트워크 정책이 막고 있을 수도 있습니다."
            ),
            Lang::En => format!(
                "Could not reach {host}: check your internet connection and the base URL. A browser extension or network policy may also be blocking it."
            ),
        };
    }
    let mut m = match lang {
        Lang::Ko => format!(
            "{base}에 연결할 수 없습니다: 서버가 실행 중이 아니거나, URL·포트가 틀렸거나, 서버가 이 페이지의 요청을 허용하지 않습니다 (CORS)."
        ),
        Lang::En => format!(
            "Could not reach {base}: the server may not be running, the URL or port may be wrong, or the server does not allow requests from this page (CORS)."
        ),
    };
    if !local {
        m.push(' ');
        m.push_str(lang.pick(
            "서버가 이 페이지의 출처에 대해 Access-Control-Allow-Origin 헤더를 보내는지 확인하세요.",
            "Make sure the server sends an Access-Control-Allow-Origin header for this page's origin.",
        ));
        return m;
    }
    let ollama = lang.pick(
        "Ollama: 종료한 뒤 `OLLAMA_ORIGINS=* ollama serve`로 다시 시작하세요 (* 대신 이 페이지의 출처를 써도 됩니다).",
        "Ollama: quit it, then start it with `OLLAMA_ORIGINS=* ollama serve` (or set OLLAMA_ORIGINS to this page's origin).",
    );
    let lm_studio = lang.pick(
        "LM Studio: 서버 설정에서 \"Enable CORS\"를 켜고 서버를 시작하세요.",
        "LM Studio: turn on \"Enable CORS\" in the server settings and start the server.",
    );
    let llama_cpp = lang.pick(
        "llama.cpp: `llama-server --host 127.0.0.1 --port 8080`처럼 URL과 같은 호스트·포트로 실행하세요 (CORS 헤더는 기본으로 보냅니다).",
        "llama.cpp: start `llama-server --host 127.0.0.1 --port 8080` with the host and port of the URL (it sends CORS headers by default).",
    );
    let steps: Vec<&str> = match port_of(base) {
        Some(11434) => vec![ollama],
        Some(1234) => vec![lm_studio],
        Some(8080) => vec![llama_cpp],
        _ => vec![ollama, lm_studio, llama_cpp],
    };
    for step in steps {
        m.push_str("\n• ");
        m.push_str(step);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn failure(kind: FailureKind, status: Option<u16>, detail: &str) -> LlmFailure {
        LlmFailure { kind, detail: detail.into(), status, partial: None }
    }

    fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn context_overflow_errors_say_what_happened_and_what_to_do() {
        let cases = [
            (
                ProviderKind::OpenAiCompatible,
                "llama3.2",
                r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5120,"n_ctx":4096}}"#,
                None,
            ),
            (
                ProviderKind::OpenAi,
                "gpt-4o-mini",
                r#"{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
                Some("128,000"),
            ),
            (
                ProviderKind::Anthropic,
                "claude-sonnet-4-5",
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}"#,
                Some("200,000"),
            ),
        ];
        for (kind, model, body, window) in cases {
            let f = map_http_error(kind, 400, &[], body);
            let provider = ProviderConfig::new(kind, model);
            let en = failure_message(&f, Lang::En, &provider);
            assert!(en.starts_with("The conversation no longer fits the model's context window"), "{en}");
            assert!(en.contains("Reason: "), "{en}");
            if let Some(window) = window {
                assert!(en.contains(&format!("({window} tokens)")), "{en}");
            }
            let ko = failure_message(&f, Lang::Ko, &provider);
            assert!(ko.contains("컨텍스트 창"), "{ko}");
        }
        let other = map_http_error(ProviderKind::OpenAi, 400, &[], r#"{"error":{"message":"Invalid 'temperature'"}}"#);
        let en = failure_message(&other, Lang::En, &ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o"));
        assert!(!en.contains("context window"), "{en}");
    }

    #[test]
    fn http_statuses_map_to_failure_kinds() {
        let cases = [
            (400, FailureKind::BadRequest),
            (401, FailureKind::Auth),
            (403, FailureKind::Auth),
            (404, FailureKind::NotFound),
            (408, FailureKind::BadRequest),
            (413, FailureKind::BadRequest),
            (422, FailureKind::BadRequest),
            (429, FailureKind::RateLimited),
            (500, FailureKind::Server),
            (502, FailureKind::Server),
            (503, FailureKind::Server),
            (504, FailureKind::Server),
            (529, FailureKind::Server),
        ];
        for (status, want) in cases {
            let f = map_http_error(ProviderKind::OpenAi, status, &[], "");
            assert_eq!(f.kind, want, "{status}");
            assert_eq!(f.status, Some(status));
            assert_eq!(f.partial, None);
        }
    }

    #[test]
    fn error_detail_is_the_providers_own_message() {
        let cases = [
            (
                ProviderKind::OpenAi,
                r#"{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
                "Incorrect API key provided.",
            ),
            (
                ProviderKind::Anthropic,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                "Overloaded",
            ),
            (
                ProviderKind::OpenAiCompatible,
                r#"{"error":"model \"llama9\" not found, try pulling it first"}"#,
                "model \"llama9\" not found, try pulling it first",
            ),
            (
                ProviderKind::OpenAiCompatible,
                r#"{"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","code":404}"#,
                "The model `x` does not exist.",
            ),
            (ProviderKind::OpenAiCompatible, r#"{"detail":"Not authenticated"}"#, "Not authenticated"),
            (ProviderKind::OpenAiCompatible, "  upstream\n  timed out ", "upstream timed out"),
            (
                ProviderKind::OpenAi,
                "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
                "502 Bad Gateway",
            ),
            (ProviderKind::OpenAi, "", ""),
        ];
        for (kind, body, want) in cases {
            assert_eq!(map_http_error(kind, 500, &[], body).detail, want, "{body}");
        }
    }

    #[test]
    fn raw_error_body_is_clipped_to_300_chars() {
        let body = "x".repeat(1000);
        let f = map_http_error(ProviderKind::OpenAiCompatible, 500, &[], &body);
        assert_eq!(f.detail.chars().count(), 300);
        assert!(f.detail.ends_with('…'));
    }

    #[test]
    fn html_error_page_without_title_gives_no_detail() {
        let h = headers(&[("Content-Type", "text/html; charset=utf-8")]);
        let f = map_http_error(ProviderKind::OpenAi, 503, &h, "<p>down</p>");
        assert_eq!(f.detail, "");
        assert_eq!(f.kind, FailureKind::Server);
    }

    #[test]
    fn quota_exhaustion_is_not_a_rate_limit() {
        let body = r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#;
        let f = map_http_error(ProviderKind::OpenAi, 429, &[], body);
        assert_eq!(f.kind, FailureKind::BadRequest);
        assert_eq!(f.status, Some(429));
        assert!(!RetryPolicy::default().retries(&f));
    }

    #[test]
    fn compatible_server_saying_model_is_missing_is_not_found() {
        let cases = [
            r#"{"error":{"message":"foo/bar is not a valid model ID","code":400}}"#,
            r#"{"error":"model 'qwen9' not found"}"#,
        ];
        for body in cases {
            let f = map_http_error(ProviderKind::OpenAiCompatible, 400, &[], body);
            assert_eq!(f.kind, FailureKind::NotFound, "{body}");
        }
        let official = map_http_error(ProviderKind::OpenAi, 400, &[], cases[0]);
        assert_eq!(official.kind, FailureKind::BadRequest);
    }

    #[test]
    fn key_looking_text_in_error_bodies_is_masked() {
        let body = r#"{"error":"invalid key sk-abcdefghijklmnopqrstuvwxyz"}"#;
        let f = map_http_error(ProviderKind::OpenAiCompatible, 401, &[], body);
        assert!(!f.detail.contains("abcdefghijklmnop"), "{}", f.detail);
        assert!(f.detail.contains("••••"));
    }

    #[test]
    fn error_objects_in_streams_map_by_type_or_code() {
        let cases = [
            (
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                FailureKind::Server,
                None,
            ),
            (
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#,
                FailureKind::RateLimited,
                None,
            ),
            (r#"{"error":{"message":"upstream failed","code":502}}"#, FailureKind::Server, Some(502)),
            (r#"{"error":{"message":"bad","type":"invalid_request_error"}}"#, FailureKind::BadRequest, None),
            (r#"{"error":"boom"}"#, FailureKind::Server, None),
        ];
        for (body, kind, status) in cases {
            let value: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            let f = failure_from_error_value(&value);
            assert_eq!(f.as_ref().map(|f| f.kind), Some(kind), "{body}");
            assert_eq!(f.and_then(|f| f.status), status, "{body}");
        }
        let ok: Value = serde_json::from_str(r#"{"choices":[],"error":null}"#).unwrap_or(Value::Null);
        assert_eq!(failure_from_error_value(&ok), None);
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_milliseconds() {
        type Headers<'a> = &'a [(&'a str, &'a str)];
        let cases: [(Headers, Option<u64>); 8] = [
            (&[("Retry-After", "3")], Some(3_000)),
            (&[("retry-after", " 1.5 ")], Some(1_500)),
            (&[("retry-after-ms", "250")], Some(250)),
            (&[("retry-after", "9"), ("retry-after-ms", "120")], Some(120)),
            (&[("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")], None),
            (&[("retry-after", "-4")], None),
            (&[("retry-after", "NaN")], None),
            (&[], None),
        ];
        for (pairs, want) in cases {
            assert_eq!(retry_after_ms(&headers(pairs)), want, "{pairs:?}");
        }
    }

    #[test]
    fn retries_only_rate_limits_and_server_errors() {
        let policy = RetryPolicy::default();
        let cases = [
            (FailureKind::RateLimited, true),
            (FailureKind::Server, true),
            (FailureKind::Timeout, false),
            (FailureKind::Network, false),
            (FailureKind::Auth, false),
            (FailureKind::NotFound, false),
            (FailureKind::BadRequest, false),
            (FailureKind::Interrupted, false),
            (FailureKind::Malformed, false),
            (FailureKind::Empty, false),
            (FailureKind::Aborted, false),
        ];
        for (kind, retried) in cases {
            let delay = policy.delay_before_retry(0, &failure(kind, None, ""), None);
            assert_eq!(delay.is_some(), retried, "{kind:?}");
        }
    }

    #[test]
    fn retry_backs_off_exponentially_and_stops_after_max_retries() {
        let policy = RetryPolicy::default();
        let f = failure(FailureKind::Server, Some(503), "");
        assert_eq!(policy.delay_before_retry(0, &f, None), Some(1_000));
        assert_eq!(policy.delay_before_retry(1, &f, None), Some(2_000));
        assert_eq!(policy.delay_before_retry(2, &f, None), None);
        let patient = RetryPolicy { max_retries: 10, ..RetryPolicy::default() };
        assert_eq!(patient.delay_before_retry(6, &f, None), Some(20_000));
        assert_eq!(patient.delay_before_retry(9, &f, None), Some(20_000));
        let unbounded = RetryPolicy { max_retries: u32::MAX, ..RetryPolicy::default() };
        assert_eq!(unbounded.delay_before_retry(200, &f, None), Some(20_000));
    }

    #[test]
    fn retry_honours_retry_after_up_to_the_cap() {
        let policy = RetryPolicy::default();
        let f = failure(FailureKind::RateLimited, Some(429), "");
        assert_eq!(policy.delay_before_retry(0, &f, Some(5_000)), Some(5_000));
        assert_eq!(policy.delay_before_retry(1, &f, Some(300)), Some(300));
        assert_eq!(policy.delay_before_retry(0, &f, Some(90_000)), Some(20_000));
        assert_eq!(policy.delay_before_retry(2, &f, Some(1_000)), None);
    }

    #[test]
    fn failure_that_already_streamed_text_is_not_retried() {
        let mut f = failure(FailureKind::Server, None, "Overloaded");
        f.partial = Some("Half an answer".into());
        assert_eq!(RetryPolicy::default().delay_before_retry(0, &f, None), None);
    }

    fn openai() -> ProviderConfig {
        ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o-mini").with_key("sk-test-1234567890abcdef")
    }

    fn ollama() -> ProviderConfig {
        ProviderConfig::new(ProviderKind::OpenAiCompatible, "llama3.2")
    }

    #[test]
    fn messages_say_what_happened_and_what_to_do_in_both_languages() {
        let cases = [
            (
                failure(FailureKind::Auth, Some(401), ""),
                openai(),
                "The key was rejected (401): check it in Settings.",
                "키가 거부되었습니다 (401): 설정에서 키를 확인하세요.",
            ),
            (
                failure(FailureKind::Auth, Some(401), ""),
                ProviderConfig::new(ProviderKind::Anthropic, "claude-sonnet-4-5"),
                "Anthropic refused the request because no key is set (401): add a key in Settings.",
                "설정에서 키를 입력하세요.",
            ),
            (failure(FailureKind::Auth, Some(403), ""), openai(), "\"gpt-4o-mini\"", "\"gpt-4o-mini\""),
            (
                failure(FailureKind::NotFound, Some(404), ""),
                openai(),
                "Model \"gpt-4o-mini\" or the address https://api.openai.com/v1 was not found (404)",
                "모델 \"gpt-4o-mini\", 주소 https://api.openai.com/v1",
            ),
            (
                failure(FailureKind::NotFound, Some(404), ""),
                ollama(),
                "`ollama pull llama3.2`",
                "`ollama pull llama3.2`",
            ),
            (
                failure(FailureKind::RateLimited, Some(429), ""),
                openai(),
                "Too many requests (429): wait a moment and retry.",
                "잠시 기다린 뒤 다시 시도하세요.",
            ),
            (
                failure(FailureKind::Server, Some(529), ""),
                ProviderConfig::new(ProviderKind::Anthropic, "claude-sonnet-4-5").with_key("k-1234"),
                "Anthropic is overloaded (529): retry in a moment.",
                "Anthropic 서버가 과부하 상태입니다 (529)",
            ),
            (
                failure(FailureKind::Server, Some(500), ""),
                openai(),
                "OpenAI had a server error (500): retry in a moment.",
                "OpenAI 서버에서 오류가 났습니다 (500)",
            ),
            (
                failure(FailureKind::Server, Some(502), ""),
                ollama(),
                "The server at localhost had a server error (502)",
                "localhost 서버에서 오류가 났습니다 (502)",
            ),
            (
                failure(FailureKind::BadRequest, Some(400), "max_tokens is too large"),
                openai(),
                "The request was refused (400)",
                "요청이 거부되었습니다 (400)",
            ),
            (
                failure(FailureKind::BadRequest, Some(400), "max_tokens is too large"),
                openai(),
                "Reason: max_tokens is too large",
                "사유: max_tokens is too large",
            ),
            (
                failure(FailureKind::Timeout, None, ""),
                openai(),
                "No answer within the time limit",
                "제한 시간 안에 응답이 없습니다",
            ),
            (
                failure(FailureKind::Malformed, None, ""),
                ollama(),
                "check that the base URL http://localhost:11434/v1 points to an OpenAI-compatible API",
                "응답을 읽을 수 없습니다",
            ),
            (
                failure(FailureKind::Empty, None, ""),
                openai(),
                "The model returned an empty answer: retry, or pick another model.",
                "모델이 빈 답을 보냈습니다",
            ),
            (failure(FailureKind::Aborted, None, ""), openai(), "Stopped.", "중지했습니다."),
            (
                failure(FailureKind::Network, None, ""),
                openai(),
                "Could not reach api.openai.com: check your internet connection",
                "api.openai.com에 연결할 수 없습니다",
            ),
        ];
        for (f, cfg, en, ko) in cases {
            let got_en = failure_message(&f, Lang::En, &cfg);
            let got_ko = failure_message(&f, Lang::Ko, &cfg);
            assert!(got_en.contains(en), "{:?}: {got_en}", f.kind);
            assert!(got_ko.contains(ko), "{:?}: {got_ko}", f.kind);
        }
    }

    #[test]
    fn interrupted_message_says_whether_partial_text_was_kept() {
        let mut f = failure(FailureKind::Interrupted, None, "");
        let none_en = failure_message(&f, Lang::En, &openai());
        assert!(none_en.contains("before any answer arrived"), "{none_en}");
        f.partial = Some("Half".into());
        let en = failure_message(&f, Lang::En, &openai());
        let ko = failure_message(&f, Lang::Ko, &openai());
        assert!(en.contains("the partial text was kept. Retry"), "{en}");
        assert!(ko.contains("받은 부분은 남겨 두었습니다"), "{ko}");
    }

    #[test]
    fn an_incomplete_app_says_nothing_was_sent_and_to_reload_without_the_english_reason_in_korean() {
        let f = failure(FailureKind::AppIncomplete, None, "the prompt texts are not loaded");
        let en = failure_message(&f, Lang::En, &openai());
        let ko = failure_message(&f, Lang::Ko, &openai());
        assert!(en.contains("nothing was sent") && en.contains("Reload the page"), "{en}");
        assert!(ko.contains("보내지 않았습니다") && ko.contains("다시 불러오세요"), "{ko}");
        assert!(!ko.contains("prompt texts") && !en.contains("Reason"), "{en} / {ko}");
    }

    #[test]
    fn network_message_for_local_servers_gives_concrete_cors_steps() {
        let f = failure(FailureKind::Network, None, "");
        let cases = [
            ("http://localhost:11434/v1", "OLLAMA_ORIGINS=* ollama serve", "LM Studio"),
            ("http://127.0.0.1:1234/v1", "Enable CORS", "OLLAMA"),
            ("http://localhost:8080/v1", "llama-server --host", "OLLAMA"),
        ];
        for (url, present, absent) in cases {
            let cfg = ollama().with_base_url(url);
            let en = failure_message(&f, Lang::En, &cfg);
            assert!(en.contains("CORS"), "{en}");
            assert!(en.contains(present), "{en}");
            assert!(!en.contains(absent), "{en}");
            let ko = failure_message(&f, Lang::Ko, &cfg);
            assert!(ko.contains(present), "{ko}");
        }
        let unknown_port = ollama().with_base_url("http://localhost:5000/v1");
        let en = failure_message(&f, Lang::En, &unknown_port);
        for step in ["OLLAMA_ORIGINS", "Enable CORS", "llama-server"] {
            assert!(en.contains(step), "{en}");
        }
    }

    #[test]
    fn network_message_names_cors_for_official_kinds_on_other_hosts() {
        let f = failure(FailureKind::Network, None, "");
        let official = ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o").with_key("k");
        let en = failure_message(&f, Lang::En, &official);
        assert!(en.contains("check your internet connection"), "{en}");
        for url in ["http://127.0.0.1:9000/v1", "https://gateway.example.com/v1"] {
            for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
                let proxied = ProviderConfig::new(kind, "m").with_key("k").with_base_url(url);
                let en = failure_message(&f, Lang::En, &proxied);
                assert!(en.contains("CORS"), "{url}: {en}");
            }
        }
    }

    #[test]
    fn network_message_for_a_plain_http_server_elsewhere_names_the_page_policy() {
        let f = failure(FailureKind::Network, None, "Failed to fetch");
        // (base URL, refused by the page's CSP)
        let cases = [
            ("http://gpu-box.lan:8000/v1", true),
            ("http://192.168.1.20:11434/v1", true),
            ("http://127.0.0.2:8080/v1", true),
            ("http://[::1]:11434/v1", true),
            ("https://gateway.example.com/v1", false),
            ("http://localhost:11434/v1", false),
            ("http://127.0.0.1:1234/v1", false),
            ("http://ollama.localhost:11434/v1", false),
        ];
        for (url, refused) in cases {
            let cfg = ollama().with_base_url(url);
            let en = failure_message(&f, Lang::En, &cfg);
            let ko = failure_message(&f, Lang::Ko, &cfg);
            assert_eq!(en.contains("security policy (CSP)"), refused, "{url}: {en}");
            assert_eq!(ko.contains("보안 정책(CSP)"), refused, "{url}: {ko}");
            if refused {
                assert!(en.contains("https://") && en.contains(url), "{en}");
                assert!(ko.contains("https://") && ko.contains(url), "{ko}");
                assert!(!en.contains("OLLAMA_ORIGINS"), "no CORS steps for a refused address: {en}");
            }
        }
    }

    #[test]
    fn failures_carry_no_key_from_an_echoing_server() {
        let key = "local-secret-0123456789";
        let sk = "sk-proj-Abc123Def456Ghi789Jkl";
        // (status, body): servers that echo the key they were sent.
        let bodies = [
            (401, format!(r#"{{"error":{{"message":"Incorrect API key provided: {key}","code":"invalid_api_key"}}}}"#)),
            (401, format!("invalid x-api-key {key}")),
            (403, format!(r#"{{"detail":"key {key} may not use this model"}}"#)),
            (429, format!(r#"{{"error":"rate limit for key {key}"}}"#)),
            (500, format!("<html><title>500 key={key}</title></html>")),
            (502, format!(r#"{{"message":"upstream refused Bearer {sk}"}}"#)),
            // Long enough that the detail is clipped in the middle of the key.
            (500, format!("{}{key}", "x".repeat(290))),
        ];
        for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic, ProviderKind::OpenAiCompatible] {
            let cfg = ProviderConfig::new(kind, "m").with_key(key);
            for (status, body) in &bodies {
                let raw = map_http_error(kind, *status, &[], &redact_secrets(body, cfg.key()));
                let f = redact_failure(raw, cfg.key());
                assert!(!f.detail.contains(&key[..6]) && !f.detail.contains(sk), "{status}: {}", f.detail);
                for lang in [Lang::En, Lang::Ko] {
                    let shown = failure_message(&f, lang, &cfg);
                    assert!(!shown.contains(&key[..6]) && !shown.contains(sk), "{status}: {shown}");
                }
            }
        }
        // A failure made from a body that was not redacted first is still cleaned, clipped key included.
        let clipped = map_http_error(ProviderKind::OpenAiCompatible, 500, &[], &format!("{}{key}", "y".repeat(290)));
        assert!(clipped.detail.contains(&key[..5]), "the clip cut into the key: {}", clipped.detail);
        let cleaned = redact_failure(clipped, Some(key));
        assert!(!cleaned.detail.contains(&key[..5]) && cleaned.detail.ends_with("••••…"), "{}", cleaned.detail);
        // Text without the key is left as it is.
        let plain = redact_failure(failure(FailureKind::Auth, Some(401), "bad key"), Some(key));
        assert_eq!(plain.detail, "bad key");
    }

    #[test]
    fn messages_never_contain_the_key() {
        let key = "sk-proj-Abc123Def456Ghi789Jkl";
        let local_key = "lm-studio-secret";
        let configs = [
            ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o").with_key(key),
            ProviderConfig::new(ProviderKind::OpenAiCompatible, "qwen").with_key(local_key),
        ];
        let kinds = [
            FailureKind::Auth,
            FailureKind::NotFound,
            FailureKind::RateLimited,
            FailureKind::Server,
            FailureKind::BadRequest,
            FailureKind::Timeout,
            FailureKind::Network,
            FailureKind::Interrupted,
            FailureKind::Malformed,
            FailureKind::Empty,
            FailureKind::Aborted,
            FailureKind::AppIncomplete,
        ];
        for cfg in &configs {
            for kind in kinds {
                // A server that echoes the key back in its error message.
                let detail = format!("bad key {key} / {local_key}");
                let f = failure(kind, Some(401), &detail);
                for lang in [Lang::En, Lang::Ko] {
                    let msg = failure_message(&f, lang, cfg);
                    assert!(!msg.contains(key), "{kind:?}: {msg}");
                    if cfg.key() == Some(local_key) {
                        assert!(!msg.contains(local_key), "{kind:?}: {msg}");
                    }
                }
            }
        }
    }
}
