//! What the app keeps between visits: settings now; sessions in IndexedDB later.

pub mod settings;

#[cfg(target_arch = "wasm32")]
pub mod local;
