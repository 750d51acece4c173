//! Which endpoint a call goes to, and the plain HTTP request the transport sends.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The wire protocol an endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    /// api.openai.com: chat completions.
    OpenAi,
    /// api.anthropic.com: messages.
    Anthropic,
    /// Any server speaking OpenAI chat completions: Ollama, llama.cpp, LM Studio, vLLM, OpenRouter.
    OpenAiCompatible,
}

crate::engine::named::by_name!(ProviderKind { OpenAi = "openai", Anthropic = "anthropic", OpenAiCompatible = "openai_compatible" });

impl ProviderKind {
    /// The base URL used when the user has not entered one.
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com/v1",
            ProviderKind::OpenAiCompatible => "http://localhost:11434/v1",
        }
    }

    /// A short name for settings and status lines.
    pub fn label(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OpenAI",
            ProviderKind::Anthropic => "Anthropic",
            ProviderKind::OpenAiCompatible => "OpenAI-compatible",
        }
    }

    /// True when the wire format is OpenAI chat completions.
    pub fn speaks_openai(self) -> bool {
        matches!(self, ProviderKind::OpenAi | ProviderKind::OpenAiCompatible)
    }
}

/// True when calls to this kind of provider cannot work without an API key.
pub fn key_required(kind: ProviderKind) -> bool {
    match kind {
        ProviderKind::OpenAi | ProviderKind::Anthropic => true,
        // Local servers (Ollama, llama.cpp, LM Studio) usually take no key.
        ProviderKind::OpenAiCompatible => false,
    }
}

/// One configured endpoint: protocol, base URL, model and the user's key.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderConfig {
    /// The wire protocol.
    pub kind: ProviderKind,
    /// Base URL ending before `/chat/completions` or `/messages`, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    /// The model id sent with every request.
    pub model: String,
    /// Never serialized: whether and how a key is remembered is the store's decision.
    #[serde(skip)]
    pub api_key: Option<String>,
}

impl ProviderConfig {
    /// A config with the kind's default base URL and no key.
    pub fn new(kind: ProviderKind, model: impl Into<String>) -> Self {
        ProviderConfig { kind, base_url: kind.default_base_url().to_string(), model: model.into(), api_key: None }
    }

    /// The same config with this key (blank means none).
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        let key = key.into();
        self.api_key = if key.trim().is_empty() { None } else { Some(key) };
        self
    }

    /// The same config with this base URL, normalized.
    pub fn with_base_url(mut self, url: &str) -> Self {
        self.base_url = normalize_base_url(url);
        self
    }

    /// The key to send, trimmed; `None` when unset or blank.
    pub fn key(&self) -> Option<&str> {
        self.api_key.as_deref().map(str::trim).filter(|k| !k.is_empty())
    }

    /// The normalized base URL, or the kind's default when none was entered.
    pub fn base(&self) -> String {
        let base = normalize_base_url(&self.base_url);
        if base.is_empty() {
            self.kind.default_base_url().to_string()
        } else {
            base
        }
    }

    /// `base` joined with an endpoint path such as `/chat/completions`.
    pub fn endpoint(&self, path: &str) -> String {
        format!("{}{}", self.base(), path)
    }

    /// True when this config can be used as is: a model, and a key where one is required.
    pub fn is_ready(&self) -> bool {
        !self.model.trim().is_empty() && (!key_required(self.kind) || self.key().is_some())
    }
}

impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field(
                "api_key",
                &match self.key() {
                    Some(_) => "<redacted>",
                    None => "<none>",
                },
            )
            .finish()
    }
}

/// Endpoint paths people paste by mistake along with the base URL.
const ENDPOINT_SUFFIXES: [&str; 3] = ["/chat/completions", "/messages", "/models"];

/// Cleans a user-entered base URL: trims, drops trailing `/` and a pasted endpoint path,
/// adds a scheme when missing (`http://` for local hosts) and `/v1` when there is no path;
/// an explicit path such as OpenRouter's `/api/v1` is kept.
pub fn normalize_base_url(url: &str) -> String {
    let mut url = url.trim().trim_end_matches('/').to_string();
    if url.is_empty() {
        return url;
    }
    if !url.contains("://") {
        let scheme = if is_local_host(host_of(&format!("http://{url}"))) { "http://" } else { "https://" };
        url = format!("{scheme}{url}");
    }
    for suffix in ENDPOINT_SUFFIXES {
        if url.len() > suffix.len() && url.ends_with(suffix) {
            url.truncate(url.len() - suffix.len());
            url = url.trim_end_matches('/').to_string();
        }
    }
    let after_scheme = url.split_once("://").map_or("", |(_, rest)| rest);
    if !after_scheme.contains('/') {
        url.push_str("/v1");
    }
    url
}

/// The host of a URL, without scheme, credentials, port or path; `[::1]` keeps its brackets.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => &authority[..=end],
            None => authority,
        };
    }
    authority.split(':').next().unwrap_or("")
}

/// The explicit port of a URL, if any.
pub fn port_of(url: &str) -> Option<u16> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let after_host = match authority.find(']') {
        Some(end) => &authority[end + 1..],
        None => authority,
    };
    after_host.rsplit_once(':')?.1.parse().ok()
}

/// True for the loopback hosts a local model server listens on.
pub fn is_local_host(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "[::1]"
        || host == "0.0.0.0"
}

/// True when the page's Content-Security-Policy (`connect-src` in index.html) lets it call
/// this URL: any https address, and plain http only to this computer (localhost,
/// `*.localhost`, 127.0.0.1). Browsers cannot name IPv6 literals such as `[::1]` in a policy,
/// so those are refused too.
pub fn page_may_connect(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("https://") {
        return true;
    }
    if !lower.starts_with("http://") {
        return false;
    }
    let host = host_of(&lower);
    host == "localhost" || host.ends_with(".localhost") || host == "127.0.0.1"
}

/// An HTTP method the protocols use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Model lists.
    Get,
    /// Chat requests.
    Post,
}

impl Method {
    /// The method's name as fetch expects it.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// A request ready to send as is: the transport adds nothing but the abort signal.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// The HTTP method.
    pub method: Method,
    /// The full endpoint URL.
    pub url: String,
    /// Header names are lower case.
    pub headers: Vec<(String, String)>,
    /// The JSON body, for POST.
    pub body: Option<String>,
}

impl HttpRequest {
    /// The value of a header, looked up without regard to case.
    pub fn header(&self, name: &str) -> Option<&str> {
        header_value(&self.headers, name)
    }
}

/// Headers whose values are secrets and are redacted in `Debug`.
const SECRET_HEADERS: [&str; 2] = ["authorization", "x-api-key"];

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| {
                if SECRET_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                    (name.as_str(), "<redacted>")
                } else {
                    (name.as_str(), value.as_str())
                }
            })
            .collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body", &self.body)
            .finish()
    }
}

/// The value of a header in a list, looked up without regard to case.
pub fn header_value<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn normalize_base_url_cleans_what_people_paste() {
        let cases = [
            ("https://api.openai.com/v1", "https://api.openai.com/v1"),
            ("  https://api.openai.com/v1/  ", "https://api.openai.com/v1"),
            ("https://api.openai.com", "https://api.openai.com/v1"),
            ("https://api.openai.com/", "https://api.openai.com/v1"),
            ("http://localhost:11434", "http://localhost:11434/v1"),
            ("http://localhost:11434/v1//", "http://localhost:11434/v1"),
            ("https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"),
            ("https://openrouter.ai/api/v1/", "https://openrouter.ai/api/v1"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"),
            ("localhost:1234", "http://localhost:1234/v1"),
            ("my-vllm.example.com", "https://my-vllm.example.com/v1"),
            ("http://localhost:11434/v1/chat/completions", "http://localhost:11434/v1"),
            ("https://api.anthropic.com/v1/messages", "https://api.anthropic.com/v1"),
            ("https://api.openai.com/v1/models", "https://api.openai.com/v1"),
            ("", ""),
            ("   ", ""),
        ];
        for (input, want) in cases {
            assert_eq!(normalize_base_url(input), want, "{input:?}");
        }
    }

    #[test]
    fn default_base_urls_per_kind() {
        let cases = [
            (ProviderKind::OpenAi, "https://api.openai.com/v1"),
            (ProviderKind::Anthropic, "https://api.anthropic.com/v1"),
            (ProviderKind::OpenAiCompatible, "http://localhost:11434/v1"),
        ];
        for (kind, want) in cases {
            assert_eq!(kind.default_base_url(), want);
            assert_eq!(ProviderConfig::new(kind, "m").base(), want);
        }
    }

    #[test]
    fn empty_base_url_falls_back_to_the_default() {
        let mut cfg = ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o-mini");
        cfg.base_url = "  ".into();
        assert_eq!(cfg.endpoint("/chat/completions"), "https://api.openai.com/v1/chat/completions");
    }

    #[test]
    fn key_is_required_only_by_hosted_providers() {
        assert!(key_required(ProviderKind::OpenAi));
        assert!(key_required(ProviderKind::Anthropic));
        assert!(!key_required(ProviderKind::OpenAiCompatible));
    }

    #[test]
    fn config_is_ready_with_model_and_required_key() {
        let openai = ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o-mini");
        assert!(!openai.is_ready());
        assert!(openai.clone().with_key("sk-x").is_ready());
        assert!(!openai.with_key("   ").is_ready());
        assert!(ProviderConfig::new(ProviderKind::OpenAiCompatible, "llama3.2").is_ready());
        assert!(!ProviderConfig::new(ProviderKind::OpenAiCompatible, " ").is_ready());
    }

    #[test]
    fn debug_output_never_shows_the_key() {
        let secret = "sk-proj-SECRETSECRETSECRET1234";
        let cfg = ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o").with_key(secret);
        let shown = format!("{cfg:?} {cfg:#?}");
        assert!(!shown.contains(secret), "{shown}");
        assert!(shown.contains("<redacted>"));
        assert!(shown.contains("gpt-4o"));
    }

    #[test]
    fn serialized_config_has_no_key_and_reads_back_without_one() {
        let secret = "sk-ant-SECRETSECRETSECRET";
        let cfg = ProviderConfig::new(ProviderKind::Anthropic, "claude-sonnet-4-5").with_key(secret);
        let json = serde_json::to_string(&cfg).unwrap_or_default();
        assert!(!json.contains(secret), "{json}");
        assert!(json.contains("\"anthropic\""), "{json}");
        let back: Result<ProviderConfig, _> = serde_json::from_str(&json);
        assert_eq!(back.ok().and_then(|c| c.api_key), None);
    }

    #[test]
    fn request_debug_redacts_secret_headers() {
        let req = HttpRequest {
            method: Method::Post,
            url: "https://api.openai.com/v1/chat/completions".into(),
            headers: vec![
                ("authorization".into(), "Bearer sk-SECRET".into()),
                ("X-Api-Key".into(), "sk-ant-SECRET".into()),
                ("content-type".into(), "application/json".into()),
            ],
            body: None,
        };
        let shown = format!("{req:?}");
        assert!(!shown.contains("SECRET"), "{shown}");
        assert!(shown.contains("application/json"));
        assert_eq!(req.header("Authorization"), Some("Bearer sk-SECRET"));
    }

    #[test]
    fn host_and_port_are_read_from_urls() {
        let cases = [
            ("http://localhost:11434/v1", "localhost", Some(11434)),
            ("https://api.openai.com/v1", "api.openai.com", None),
            ("http://127.0.0.1:8080", "127.0.0.1", Some(8080)),
            ("http://[::1]:1234/v1", "[::1]", Some(1234)),
            ("http://user:pw@host.lan:9000/x", "host.lan", Some(9000)),
            ("", "", None),
        ];
        for (url, host, port) in cases {
            assert_eq!(host_of(url), host, "{url}");
            assert_eq!(port_of(url), port, "{url}");
        }
    }

    #[test]
    fn local_hosts_are_loopback_names() {
        let cases = [
            ("localhost", true),
            ("LOCALHOST", true),
            ("127.0.0.1", true),
            ("[::1]", true),
            ("0.0.0.0", true),
            ("api.openai.com", false),
            ("192.168.0.10", false),
        ];
        for (host, want) in cases {
            assert_eq!(is_local_host(host), want, "{host}");
        }
    }
}
