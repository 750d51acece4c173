//! Chat mode (seed 001): an assistant in a bounded tool loop that asks the user when unsure
//! and before anything dangerous. The tools and their checks live in `tools`, the loop in
//! `agent`, and the assistant that works with no key in `nokey`.

pub mod agent;
pub mod nokey;
pub mod tools;

pub use agent::{Chat, ChatAction, ChatArtifact, CommandCard, CommandState, Meter};

use crate::engine::core::Endpoint;

/// What a chat call is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatPurpose {
    /// One model turn of the tool loop.
    Turn,
    /// A summary of the oldest turns when the context window is full.
    Fold,
}

/// Who answers the chat's calls: the assistant, on the main model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatRole {
    /// The assistant of the tool loop (and its own summaries).
    Assistant,
}

impl ChatPurpose {
    /// Who answers calls made for this purpose.
    pub fn role(self) -> ChatRole {
        ChatRole::Assistant
    }
}

impl ChatRole {
    /// The configured endpoint this role's calls go to.
    pub fn endpoint(self) -> Endpoint {
        Endpoint::Primary
    }
}
