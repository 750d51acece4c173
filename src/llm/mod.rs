//! LLM provider protocols (pure) and, in the browser, the transport over fetch.

pub mod error;
pub mod provider;
pub mod sse;

pub use error::{failure_message, map_http_error, retry_after_ms, RetryPolicy};
pub use provider::{
    key_required, normalize_base_url, HttpRequest, Method, ProviderConfig, ProviderKind,
};
pub use sse::{SseDecoder, SseEvent};
