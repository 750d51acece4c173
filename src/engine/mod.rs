//! The engine decides: pure Rust, no browser APIs, no I/O. Time and randomness come in
//! as arguments, LLM requests go out as effects and their answers come back as events.

pub mod call;
pub mod case;
pub mod chat;
pub mod contract;
pub mod core;
pub mod counsel;
pub mod critique;
pub mod danger;
pub mod design;
pub mod discussion;
pub mod gate;
pub mod grounding;
pub mod json;
pub mod lang;
pub mod lunch;
pub mod memory;
pub mod named;
pub mod order;
pub mod pairs;
pub mod pattern;
pub mod plan;
pub mod prompt;
pub mod prompt_text;
pub mod reply;
pub mod security;
pub mod session;
pub mod signals;
pub mod slots;
pub mod source;
pub mod state_machine;
pub mod step;
pub mod tagged;
pub mod title;
pub mod tokens;
pub mod words;

pub use session::{Effect, Env, Event, Session};
