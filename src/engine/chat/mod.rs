//! Chat mode (seed 001): an assistant in a bounded tool loop that asks the user when unsure
//! and before anything dangerous. The tools and their checks live in `tools`, the loop in
//! `agent`, and the assistant that works with no key in `nokey`.

pub mod agent;
pub mod nokey;
pub mod tools;

pub use agent::{Chat, ChatAction, ChatArtifact, CommandCard, CommandState, Meter};
