//! Dev-only tooling for end-to-end tests and benchmarks: a minimal HTTP/1.1 layer, a
//! static file server, a W3C WebDriver client for Chromium and a mock LLM server.

#![warn(missing_docs)]

pub mod base64;
pub mod http;
pub mod mock_llm;
pub mod sse;
pub mod static_server;
pub mod tempdir;
pub mod webdriver;
