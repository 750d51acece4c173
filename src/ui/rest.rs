//! The rest of the app. The release page's wasm is split in two (tools/split.mjs): the page's
//! part runs a visit up to the composer taking input, the rest arrives in the background.
//! Whatever runs code of the rest waits for it here instead of loading it synchronously in the
//! middle of the start. Other builds are not split: there the rest is always here.

use leptos::prelude::*;
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

/// Returns once the rest is linked in, like `linked`, but asks for it again after a failure:
/// after 2 s, then twice as long each time up to 30 s, at once when the browser is back
/// online, and not at all once something else linked it. `missing` says, from a failed try
/// until the rest is here, that it could not be loaded. Waiting only on JavaScript promises,
/// each retry runs the same code as the first try: nothing here needs the rest to go on.
pub async fn linked_asking_again(missing: RwSignal<bool>) {
    let mut wait_ms = 2_000;
    while let Some(coming) = pending() {
        if JsFuture::from(coming).await.is_ok() {
            break;
        }
        missing.set(true);
        let _ = JsFuture::from(retry_signal(wait_ms)).await;
        wait_ms = (wait_ms * 2).min(30_000);
    }
    missing.set(false);
}

/// A promise that settles after `ms`, when the browser comes back online, or when the rest
/// is linked, whichever comes first.
fn retry_signal(ms: i32) -> js_sys::Promise {
    let Some(window) = web_sys::window() else { return js_sys::Promise::resolve(&JsValue::UNDEFINED) };
    let retry = crate::llm::transport::after_or_on(ms, &window, "online");
    match loader("deliberateRestLinked") {
        Some(linked) => js_sys::Promise::race(&js_sys::Array::of2(&retry, &linked)),
        None => retry,
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
