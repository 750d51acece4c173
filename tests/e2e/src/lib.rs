//! Dev-only tooling for end-to-end tests and benchmarks: a minimal HTTP/1.1 layer, a
//! static file server, a W3C WebDriver client for Chromium, a mock LLM server, and the
//! slot-extraction accuracy table.

#![warn(missing_docs)]

pub mod app;
pub mod axe;
pub mod chat_loop;
pub mod counsel_turn;
pub mod counsel_turns;
pub mod crisis_accuracy;
pub mod fuzz_figures;
pub mod gate_calls;
pub mod http;
pub mod injection_accuracy;
pub mod long_session;
pub mod mock_llm;
pub mod reply_accuracy;
pub mod screen_speed;
pub mod slot_accuracy;
pub mod static_server;
pub mod tempdir;
pub mod token_accuracy;
pub mod wasm_breakdown;
pub mod webdriver;
