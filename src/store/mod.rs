//! What the app keeps between visits: settings (localStorage), and every conversation
//! (IndexedDB: `idb` stores, `sessions` headers and list logic), exported and imported
//! as JSON (`export`).

pub mod export;
pub mod keylock;
pub mod saved;
pub mod sessions;
pub mod settings;
pub mod snapshot;

#[cfg(target_arch = "wasm32")]
pub mod idb;
#[cfg(target_arch = "wasm32")]
pub mod local;
