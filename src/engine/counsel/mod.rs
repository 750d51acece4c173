//! Counseling mode (seed 004): Part (linear) · Task (chosen within a part) · Module (global).
//! Pure parts: every step has a prompt, a tolerant parser and a heuristic twin.

pub mod checker;
pub mod counselor;
pub mod crisis;
pub mod module;
pub mod selector;
pub mod state;
pub mod supervisor;
pub mod task;
