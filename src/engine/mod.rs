//! The engine decides: pure Rust, no browser APIs, no I/O. Time and randomness come in
//! as arguments, LLM requests go out as effects and their answers come back as events.

pub mod call;
pub mod lang;
pub mod prompt;
pub mod slots;
