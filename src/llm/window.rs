//! A model's context window: read where the server tells it, known for OpenAI and Anthropic
//! models, a cautious default otherwise; and recognising a failure caused by overflowing it.
//!
//! Local servers often run with a much smaller window than the model was trained for (llama.cpp
//! with `-c 4096`, Ollama with 2,048 or 4,096 unless told otherwise), and that smaller runtime
//! window is the one a prompt must fit. So the server's own report comes first: llama.cpp's
//! `/props` (`n_ctx`), Ollama's `/api/show` (`num_ctx` when the model sets one) and `/api/ps`
//! (the window of the loaded model), and `max_model_len` or `context_length` in a `/models` list
//! (vLLM, OpenRouter, LM Studio).

use serde_json::{json, Value};

use super::provider::{HttpRequest, Method, ProviderConfig, ProviderKind};
use super::wire::str_field;
use crate::engine::call::{FailureKind, LlmFailure};
use crate::engine::lang::{group_thousands, Lang};
use crate::engine::words::WordList;

/// The window assumed when nothing better is known.
pub const DEFAULT_WINDOW: u32 = 8192;
/// Ollama's runtime window when neither the model nor the server sets one (newer releases on
/// small GPUs; older releases used 2,048).
pub const OLLAMA_DEFAULT_WINDOW: u32 = 4096;

/// Where a window figure came from, for the meter's tooltip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowSource {
    /// The server reported it.
    Server,
    /// The provider's published figure for this model name.
    KnownModel,
    /// The user set it in Settings.
    User,
    /// Nothing was known: [`DEFAULT_WINDOW`].
    Default,
}

/// A model's context window in tokens, and how it is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextWindow {
    /// Tokens the prompt and answer together may use.
    pub tokens: u32,
    /// Where the figure came from.
    pub source: WindowSource,
}

/// Published windows of hosted models, by model-name prefix (the longest matching prefix wins).
const KNOWN_WINDOWS: &[(&str, u32)] = &[
    ("gpt-5", 400_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("chatgpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4-1106", 128_000),
    ("gpt-4-0125", 128_000),
    ("gpt-4-32k", 32_768),
    ("gpt-4", 8_192),
    ("gpt-3.5-turbo", 16_385),
    ("o1-mini", 128_000),
    ("o1-preview", 128_000),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("gpt-oss", 131_072),
    ("claude-", 200_000),
];

/// The published window of a hosted model (OpenAI, Anthropic; also behind a router prefix such
/// as `openai/` or `anthropic/`), if its name is known.
pub fn known_window(model: &str) -> Option<u32> {
    let model = model.trim().to_ascii_lowercase();
    let name = model.rsplit('/').next().unwrap_or(&model);
    KNOWN_WINDOWS
        .iter()
        .filter(|(prefix, _)| name.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, w)| *w)
}

/// The window to use: the user's setting, else the server's report, else the published figure
/// for the model, else [`DEFAULT_WINDOW`].
pub fn resolve_window(user: Option<u32>, server: Option<u32>, model: &str) -> ContextWindow {
    let pick = |tokens: Option<u32>, source| tokens.filter(|t| *t > 0).map(|tokens| ContextWindow { tokens, source });
    pick(user, WindowSource::User)
        .or_else(|| pick(server, WindowSource::Server))
        .or_else(|| pick(known_window(model), WindowSource::KnownModel))
        .unwrap_or(ContextWindow { tokens: DEFAULT_WINDOW, source: WindowSource::Default })
}

/// A question to ask a server about its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowProbe {
    /// llama.cpp `GET /props`.
    LlamaCppProps,
    /// Ollama `POST /api/show`.
    OllamaShow,
    /// Ollama `GET /api/ps`: the loaded models and their runtime windows.
    OllamaRunning,
}

/// The server's root: the base URL without a trailing `/v1` (llama.cpp and Ollama serve
/// `/props` and `/api/...` beside the OpenAI-compatible `/v1`).
fn server_root(cfg: &ProviderConfig) -> String {
    let base = cfg.base();
    base.strip_suffix("/v1").unwrap_or(&base).to_string()
}

/// The requests that may tell a compatible server's window, in the order to try them; none for
/// OpenAI and Anthropic, whose windows are known by model name.
pub fn window_probes(cfg: &ProviderConfig) -> Vec<(WindowProbe, HttpRequest)> {
    if cfg.kind != ProviderKind::OpenAiCompatible {
        return Vec::new();
    }
    let root = server_root(cfg);
    let mut headers = Vec::new();
    if let Some(key) = cfg.key() {
        headers.push(("authorization".to_string(), format!("Bearer {key}")));
    }
    let get = |path: &str| HttpRequest {
        method: Method::Get,
        url: format!("{root}{path}"),
        headers: headers.clone(),
        body: None,
    };
    let mut show_headers = headers.clone();
    show_headers.push(("content-type".to_string(), "application/json".to_string()));
    vec![
        (WindowProbe::LlamaCppProps, get("/props")),
        (WindowProbe::OllamaRunning, get("/api/ps")),
        (
            WindowProbe::OllamaShow,
            HttpRequest {
                method: Method::Post,
                url: format!("{root}/api/show"),
                headers: show_headers,
                body: Some(json!({"model": cfg.model.trim()}).to_string()),
            },
        ),
    ]
}

/// The window a probe's answer tells, if it tells one.
pub fn parse_probe(probe: WindowProbe, body: &str, model: &str) -> Option<u32> {
    match probe {
        WindowProbe::LlamaCppProps => parse_llama_cpp_props(body),
        WindowProbe::OllamaShow => parse_ollama_show(body),
        WindowProbe::OllamaRunning => parse_ollama_running(body, model),
    }
}

fn positive(value: Option<&Value>) -> Option<u32> {
    let n = match value? {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    u32::try_from(n).ok().filter(|n| *n > 0)
}

/// llama.cpp `/props`: `default_generation_settings.n_ctx`, or `n_ctx` at the top level or in
/// `default_generation_settings.params` as other builds put it.
pub fn parse_llama_cpp_props(body: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let settings = value.get("default_generation_settings");
    positive(settings.and_then(|s| s.get("n_ctx")))
        .or_else(|| positive(value.get("n_ctx")))
        .or_else(|| positive(settings.and_then(|s| s.get("params")).and_then(|p| p.get("n_ctx"))))
}

/// Ollama `/api/show`: the model's `num_ctx` parameter when it sets one; otherwise Ollama's
/// default runtime window, no larger than what the model was trained for
/// (`model_info["<arch>.context_length"]`).
pub fn parse_ollama_show(body: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let configured = str_field(&value, "parameters").and_then(|params| {
        params.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("num_ctx")).then(|| words.next()?.parse::<u32>().ok()).flatten()
        })
    });
    if let Some(n) = configured.filter(|n| *n > 0) {
        return Some(n);
    }
    let trained = value.get("model_info").and_then(Value::as_object).and_then(|info| {
        info.iter().find(|(key, _)| key.ends_with(".context_length")).and_then(|(_, v)| positive(Some(v)))
    });
    match trained {
        Some(trained) => Some(trained.min(OLLAMA_DEFAULT_WINDOW)),
        None if value.is_object() && value.get("error").is_none() => Some(OLLAMA_DEFAULT_WINDOW),
        None => None,
    }
}

/// Ollama `/api/ps`: the runtime window (`context_length`) of the loaded model of that name
/// (`llama3.2` matches `llama3.2:latest`).
pub fn parse_ollama_running(body: &str, model: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let wanted = model.trim();
    let wanted_tagged = if wanted.contains(':') { wanted.to_string() } else { format!("{wanted}:latest") };
    value.get("models")?.as_array()?.iter().find_map(|m| {
        let name = str_field(m, "name").or_else(|| str_field(m, "model"))?;
        (name == wanted || name == wanted_tagged).then(|| positive(m.get("context_length")))?
    })
}

/// The window of `model` in a `/models` list that reports one: vLLM `max_model_len`, OpenRouter
/// `context_length`, LM Studio `loaded_context_length` or `max_context_length`.
pub fn parse_model_list_window(body: &str, model: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let items = value.get("data").or_else(|| value.get("models")).and_then(Value::as_array)?;
    let wanted = model.trim();
    let item = items.iter().find(|m| str_field(m, "id").or_else(|| str_field(m, "name")) == Some(wanted))?;
    WordList("loaded_context_length|max_model_len|context_length|max_context_length|context_window")
        .iter()
        .find_map(|key| positive(item.get(key)))
}

/// Phrases servers use when a prompt does not fit the window (compared in lower case): from
/// llama.cpp server the first four, then OpenAI, vLLM and OpenRouter three, Anthropic two,
/// LM Studio two, and two from others.
const OVERFLOW_PHRASES: WordList = WordList(
    "exceeds the available context size|exceed_context_size|context size has been exceeded|\
    input is too large to process|context_length_exceeded|maximum context length|\
    longer than the maximum model length|prompt is too long|exceed context limit|context length of only|\
    context overflow|context window|too many tokens",
);

/// True when a failure's text says the prompt did not fit the model's context window.
pub fn is_context_overflow(failure: &LlmFailure) -> bool {
    let detail = failure.detail.to_ascii_lowercase();
    OVERFLOW_PHRASES.iter().any(|p| detail.contains(p))
}

/// True when a failure is an overflow by its text, or looks like one: a stream that was cut or
/// came back empty, or an answer stopped by length, while the prompt filled at least 90 % of
/// the window (local servers often just stop the stream).
pub fn overflow_likely(failure: &LlmFailure, prompt_tokens: u32, window: u32) -> bool {
    let near_full = window > 0 && prompt_tokens as u64 * 10 >= window as u64 * 9;
    is_context_overflow(failure)
        || (near_full && matches!(failure.kind, FailureKind::Interrupted | FailureKind::Empty | FailureKind::Malformed))
}

/// What happened and what to do, when a prompt overflowed the window.
pub fn overflow_message(lang: Lang, window: Option<u32>) -> String {
    let size = window.map(|w| group_thousands(w.into()));
    match (lang, size) {
        (Lang::Ko, Some(size)) => format!(
            "대화가 모델의 컨텍스트 창({size} 토큰)을 넘어서 서버가 답을 멈췄습니다. 오래된 대화를 요약하거나 \
             첨부 파일을 줄이세요. 로컬 서버라면 창을 키울 수 있습니다(llama.cpp: -c 8192, Ollama: \
             OLLAMA_CONTEXT_LENGTH=8192). 설정에서 창 크기를 직접 지정할 수도 있습니다."
        ),
        (Lang::Ko, None) => "대화가 모델의 컨텍스트 창을 넘어서 서버가 답을 멈췄습니다. 오래된 대화를 요약하거나 \
             첨부 파일을 줄이세요. 로컬 서버라면 창을 키울 수 있습니다(llama.cpp: -c 8192, Ollama: \
             OLLAMA_CONTEXT_LENGTH=8192). 설정에서 창 크기를 직접 지정할 수도 있습니다."
            .to_string(),
        (Lang::En, Some(size)) => format!(
            "The conversation no longer fits the model's context window ({size} tokens), so the server stopped. \
             Fold the older turns into a summary or shorten the attachments. On a local server you can enlarge \
             the window (llama.cpp: -c 8192; Ollama: OLLAMA_CONTEXT_LENGTH=8192), and you can set the window \
             size in Settings."
        ),
        (Lang::En, None) => "The conversation no longer fits the model's context window, so the server stopped. \
             Fold the older turns into a summary or shorten the attachments. On a local server you can enlarge \
             the window (llama.cpp: -c 8192; Ollama: OLLAMA_CONTEXT_LENGTH=8192), and you can set the window \
             size in Settings."
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn llama_cpp_props_give_the_runtime_window() {
        let cases = [
            (
                r#"{"default_generation_settings":{"n_ctx":4096,"params":{"temperature":0.8}},"total_slots":1,"model_path":"m.gguf"}"#,
                Some(4096),
            ),
            (r#"{"n_ctx":2048,"default_generation_settings":{"params":{}}}"#, Some(2048)),
            (r#"{"default_generation_settings":{"params":{"n_ctx":8192}}}"#, Some(8192)),
            (r#"{"default_generation_settings":{"n_ctx":0}}"#, None),
            (r#"{"total_slots":1}"#, None),
            ("<html>404</html>", None),
            ("", None),
        ];
        for (body, want) in cases {
            assert_eq!(parse_llama_cpp_props(body), want, "{body}");
            assert_eq!(parse_probe(WindowProbe::LlamaCppProps, body, "m"), want, "{body}");
        }
    }

    #[test]
    fn ollama_show_prefers_num_ctx_then_the_default_runtime_window() {
        let cases = [
            (
                r#"{"parameters":"num_ctx                        16384\nstop                           \"<|eot_id|>\"","model_info":{"general.architecture":"llama","llama.context_length":131072}}"#,
                Some(16384),
            ),
            (
                r#"{"parameters":"stop \"<|im_end|>\"","model_info":{"qwen2.context_length":32768}}"#,
                Some(OLLAMA_DEFAULT_WINDOW),
            ),
            (r#"{"model_info":{"gemma.context_length":2048}}"#, Some(2048)),
            (r#"{"modelfile":"FROM x"}"#, Some(OLLAMA_DEFAULT_WINDOW)),
            (r#"{"error":"model 'nope' not found"}"#, None),
            ("not json", None),
        ];
        for (body, want) in cases {
            assert_eq!(parse_ollama_show(body), want, "{body}");
        }
    }

    #[test]
    fn ollama_ps_and_model_lists_give_the_window_of_the_named_model() {
        let ps = r#"{"models":[{"name":"qwen3:8b","model":"qwen3:8b","size":1,"context_length":8192},
                               {"name":"llama3.2:latest","model":"llama3.2:latest","context_length":4096}]}"#;
        let cases =
            [("llama3.2", Some(4096)), ("llama3.2:latest", Some(4096)), ("qwen3:8b", Some(8192)), ("mistral", None)];
        for (model, want) in cases {
            assert_eq!(parse_ollama_running(ps, model), want, "{model}");
        }
        let lists = [
            (
                r#"{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B","object":"model","max_model_len":32768}]}"#,
                "Qwen/Qwen2.5-7B",
                Some(32768),
            ),
            (
                r#"{"data":[{"id":"anthropic/claude-sonnet-4.5","context_length":1000000}]}"#,
                "anthropic/claude-sonnet-4.5",
                Some(1_000_000),
            ),
            (
                r#"{"data":[{"id":"qwen2.5-7b-instruct","max_context_length":32768,"loaded_context_length":4096}]}"#,
                "qwen2.5-7b-instruct",
                Some(4096),
            ),
            (r#"{"data":[{"id":"gpt-4o"}]}"#, "gpt-4o", None),
            (r#"{"data":[{"id":"a","max_model_len":100}]}"#, "b", None),
        ];
        for (body, model, want) in lists {
            assert_eq!(parse_model_list_window(body, model), want, "{body}");
        }
    }

    #[test]
    fn known_hosted_models_have_their_published_windows() {
        let cases = [
            ("gpt-4o-mini", Some(128_000)),
            ("gpt-4o-2024-08-06", Some(128_000)),
            ("gpt-4.1-mini", Some(1_047_576)),
            ("gpt-4", Some(8_192)),
            ("gpt-4-turbo-preview", Some(128_000)),
            ("gpt-3.5-turbo", Some(16_385)),
            ("o1-mini", Some(128_000)),
            ("o3-mini", Some(200_000)),
            ("gpt-5-mini", Some(400_000)),
            ("claude-sonnet-4-5-20250929", Some(200_000)),
            ("claude-3-5-haiku-latest", Some(200_000)),
            ("anthropic/claude-3.7-sonnet", Some(200_000)),
            ("openai/gpt-4o", Some(128_000)),
            ("llama3.2", None),
            ("", None),
        ];
        for (model, want) in cases {
            assert_eq!(known_window(model), want, "{model}");
        }
    }

    #[test]
    fn window_resolution_prefers_user_then_server_then_known_then_default() {
        let cases = [
            (Some(16_000), Some(4096), "gpt-4o", ContextWindow { tokens: 16_000, source: WindowSource::User }),
            (None, Some(4096), "gpt-4o", ContextWindow { tokens: 4096, source: WindowSource::Server }),
            (Some(0), None, "gpt-4o", ContextWindow { tokens: 128_000, source: WindowSource::KnownModel }),
            (None, None, "llama3.2", ContextWindow { tokens: DEFAULT_WINDOW, source: WindowSource::Default }),
        ];
        for (user, server, model, want) in cases {
            assert_eq!(resolve_window(user, server, model), want, "{user:?} {server:?} {model}");
        }
    }

    #[test]
    fn probes_go_to_the_server_root_of_compatible_servers_only() {
        let cfg =
            ProviderConfig::new(ProviderKind::OpenAiCompatible, "llama3.2").with_base_url("http://127.0.0.1:11434/v1");
        let probes = window_probes(&cfg);
        let urls: Vec<(WindowProbe, &str, Method)> =
            probes.iter().map(|(p, r)| (*p, r.url.as_str(), r.method)).collect();
        assert_eq!(
            urls,
            vec![
                (WindowProbe::LlamaCppProps, "http://127.0.0.1:11434/props", Method::Get),
                (WindowProbe::OllamaRunning, "http://127.0.0.1:11434/api/ps", Method::Get),
                (WindowProbe::OllamaShow, "http://127.0.0.1:11434/api/show", Method::Post),
            ]
        );
        assert_eq!(probes[2].1.body.as_deref(), Some(r#"{"model":"llama3.2"}"#));
        assert!(window_probes(&ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o")).is_empty());
        assert!(window_probes(&ProviderConfig::new(ProviderKind::Anthropic, "claude-sonnet-4-5")).is_empty());
    }

    fn failure(kind: FailureKind, detail: &str) -> LlmFailure {
        LlmFailure { kind, detail: detail.to_string(), status: Some(400), partial: None }
    }

    #[test]
    fn overflow_errors_are_recognised_by_their_text() {
        let overflow = [
            "the request exceeds the available context size, try increasing it",
            "request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it",
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
            "context_length_exceeded",
            "prompt is too long: 208000 tokens > 200000 maximum",
            "input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000",
            "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens",
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
        ];
        for detail in overflow {
            assert!(is_context_overflow(&failure(FailureKind::BadRequest, detail)), "{detail}");
        }
        let other = [
            "Incorrect API key provided",
            "Rate limit reached",
            "model 'x' not found",
            "the stream ended before [DONE]",
            "",
        ];
        for detail in other {
            assert!(!is_context_overflow(&failure(FailureKind::BadRequest, detail)), "{detail}");
        }
    }

    #[test]
    fn a_cut_stream_with_a_nearly_full_window_is_a_likely_overflow() {
        let cut = failure(FailureKind::Interrupted, "the stream ended before [DONE]");
        let cases = [
            (&cut, 3_900, 4_096, true),
            (&cut, 1_000, 4_096, false),
            (&cut, 3_900, 0, false),
            (&failure(FailureKind::Auth, "bad key"), 4_000, 4_096, false),
            (&failure(FailureKind::BadRequest, "prompt is too long"), 10, 200_000, true),
        ];
        for (f, prompt, window, want) in cases {
            assert_eq!(overflow_likely(f, prompt, window), want, "{f:?} {prompt} {window}");
        }
    }

    #[test]
    fn overflow_message_says_what_happened_and_what_to_do_in_both_languages() {
        let ko = overflow_message(Lang::Ko, Some(4096));
        assert!(ko.contains("4,096 토큰") && ko.contains("요약") && ko.contains("설정"), "{ko}");
        let en = overflow_message(Lang::En, Some(4096));
        assert!(en.contains("(4,096 tokens)") && en.contains("summary") && en.contains("Settings"), "{en}");
        assert!(!overflow_message(Lang::En, None).contains("tokens)"));
        assert!(overflow_message(Lang::Ko, None).chars().any(crate::engine::lang::is_hangul));
    }
}
