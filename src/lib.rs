//! Deliberate: talks a one-line request into an agreed plan, in the browser.
//!
//! `engine` decides (pure, native and wasm), `llm` speaks the provider protocols,
//! `markdown` reads model output safely, and `ui` (wasm only) is the Leptos shell.

pub mod engine;
pub mod llm;
pub mod markdown;
pub mod scenario;
pub mod store;

#[cfg(target_arch = "wasm32")]
pub mod ui;

#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
