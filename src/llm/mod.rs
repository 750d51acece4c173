//! LLM provider protocols (pure) and, in the browser, the transport over fetch.

pub mod provider;
pub mod sse;

pub use provider::{
    key_required, normalize_base_url, HttpRequest, Method, ProviderConfig, ProviderKind,
};
pub use sse::{SseDecoder, SseEvent};
