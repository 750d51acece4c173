//! The rest of the app. The release page's wasm is split in two (tools/split.mjs): the page's
//! part runs a visit up to the composer taking input, the rest arrives in the background.
//! Whatever runs code of the rest waits for it here instead of loading it synchronously in the
//! middle of the start. Other builds are not split: there the rest is always here.

use leptos::wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The loader's function named `name`, if the build is split.
fn loader(name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined())
}

/// `None` when the rest is here (or the build is not split), else a promise that settles when
/// it is linked in (and fails when it cannot be loaded; asking again tries again).
pub fn pending() -> Option<js_sys::Promise> {
    let gate: js_sys::Function = loader("deliberateRest")?.dyn_into().ok()?;
    gate.call0(&JsValue::UNDEFINED).ok()?.dyn_into().ok()
}

/// Returns once the rest is linked in, however it got there (the background load, a send that
/// asked for it again after a failure, or a placeholder that loaded it at once). It never
/// fails: if the rest cannot be loaded, whatever waits here waits until it can.
pub async fn linked() {
    if pending().is_none() {
        return;
    }
    if let Some(linked) = loader("deliberateRestLinked").and_then(|p| p.dyn_into::<js_sys::Promise>().ok()) {
        let _ = JsFuture::from(linked).await;
    }
}

/// The prompt texts the rest of the app carries (tools/split.mjs appends them to it, the
/// loader lays them out as `globalThis.deliberatePrompts`). A text is asked for only by code of
/// the rest, so it is normally here; if not, the rest is loaded at once, as a placeholder would.
fn prompt_texts() -> Option<String> {
    if loader("deliberatePrompts").is_none() {
        let now: js_sys::Function = loader("deliberateRestNow")?.dyn_into().ok()?;
        now.call0(&JsValue::UNDEFINED).ok()?;
    }
    let bytes = js_sys::Uint8Array::new(&loader("deliberatePrompts")?);
    String::from_utf8(bytes.to_vec()).ok()
}

/// Tells the engine where a release build's prompt texts are (see `engine::prompt_text`).
pub fn provide_prompt_texts() {
    crate::engine::prompt_text::set_source(prompt_texts);
}
