//! Deliberate: talks a one-line request into an agreed plan, in the browser.

pub mod engine;
pub mod llm;
