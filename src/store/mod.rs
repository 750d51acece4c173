//! What the app keeps between visits: settings, and the current session so a reload
//! resumes it (in localStorage; a sessions list in IndexedDB comes later).

pub mod export;
pub mod saved;
pub mod sessions;
pub mod settings;

#[cfg(target_arch = "wasm32")]
pub mod idb;
#[cfg(target_arch = "wasm32")]
pub mod local;
