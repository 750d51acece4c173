//! LLM provider protocols (pure) and, in the browser, the transport over fetch.
//!
//! Everything here is sans-IO: requests are built as [`HttpRequest`] values, answers are
//! parsed from strings and bytes. The transport sends a request as is, feeds a streamed body
//! to a [`StreamAccumulator`] (or a whole body to [`parse_chat_response`]), and maps a
//! non-success status with [`map_http_error`], retrying as [`RetryPolicy`] says.

pub mod anthropic;
pub mod completion;
pub mod error;
pub mod models;
pub mod openai;
pub mod provider;
pub mod sse;
pub mod stream;
#[cfg(target_arch = "wasm32")]
pub mod transport;
pub mod window;
pub mod window_fit;
mod wire;

pub use completion::Completion;
pub use error::{failure_message, map_http_error, retry_after_ms, RetryPolicy};
pub use models::{build_model_list_request, parse_model_list};
pub use provider::{key_required, normalize_base_url, HttpRequest, Method, ProviderConfig, ProviderKind};
pub use sse::{SseDecoder, SseEvent};
pub use stream::{StreamAccumulator, StreamDelta};

use crate::engine::call::LlmFailure;
use crate::engine::prompt::Prompt;

/// The chat request for a prompt, in the configured provider's protocol.
pub fn build_chat_request(cfg: &ProviderConfig, prompt: &Prompt, stream: bool) -> HttpRequest {
    match cfg.kind {
        ProviderKind::OpenAi | ProviderKind::OpenAiCompatible => openai::build_request(cfg, prompt, stream),
        ProviderKind::Anthropic => anthropic::build_request(cfg, prompt, stream),
    }
}

/// Reads a whole (non-streamed) chat answer; an answer with no text and no tool calls is `Empty`.
pub fn parse_chat_response(kind: ProviderKind, body: &str) -> Result<Completion, LlmFailure> {
    let completion = match kind {
        ProviderKind::OpenAi | ProviderKind::OpenAiCompatible => openai::parse_response(body),
        ProviderKind::Anthropic => anthropic::parse_response(body),
    }?;
    if completion.is_empty() {
        return Err(stream::empty_failure(completion.stop_reason.as_deref()));
    }
    Ok(completion)
}

/// A stream accumulator for this provider's answers.
pub fn new_stream(kind: ProviderKind) -> StreamAccumulator {
    StreamAccumulator::new(kind)
}
