//! Dev-only tooling for end-to-end tests and benchmarks: a minimal HTTP/1.1 layer, a
//! static file server, a W3C WebDriver client for Chromium, a mock LLM server, and the
//! slot-extraction accuracy table.

#![warn(missing_docs)]

pub mod app;
pub mod base64;
pub mod counsel_turn;
pub mod gate_calls;
pub mod http;
pub mod mock_llm;
pub mod slot_accuracy;
pub mod sse;
pub mod static_server;
pub mod tempdir;
pub mod token_accuracy;
pub mod webdriver;
