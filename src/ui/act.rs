//! User actions, run after the event handler that asked for them.
//!
//! A click handler runs under the reactive owner of the component that drew its button.
//! Dispatching from there has two hazards: what the action creates (the live text of an
//! LLM call it starts) belongs to that component and dies with it, and the action often
//! re-renders that very component (an answered card, a Retry that hides itself). So a
//! handler reads what it needs, then hands the action to `dispatch` or `run`: it runs in
//! a microtask, once the handler has returned, under the app's root owner.

use std::cell::RefCell;

use leptos::prelude::*;

use super::shell::Shell;
use crate::engine::session::Event;

thread_local! {
    /// The owner of the mounted app (the last one mounted, in component tests).
    static ROOT: RefCell<Option<Owner>> = const { RefCell::new(None) };
}

/// Remembers the current owner as the app's root; `App` calls it once when it mounts.
pub fn remember_root() {
    let owner = Owner::current();
    ROOT.with(|root| *root.borrow_mut() = owner);
}

/// Runs `action` after the current event handler has returned, under the app's root owner.
/// When the action removed the focused control (an answered card, a chosen design), focus
/// goes to the newest open card's first control, else to the composer, never to `<body>`.
pub fn run(action: impl FnOnce() + 'static) {
    queue_microtask(move || {
        match ROOT.with(|root| root.borrow().clone()) {
            Some(owner) => owner.with(action),
            None => action(),
        }
        request_animation_frame(rescue_focus);
    });
}

/// Puts focus back into the conversation when it fell to the page itself.
fn rescue_focus() {
    use wasm_bindgen::JsCast;
    let doc = document();
    let lost = match doc.active_element() {
        None => true,
        Some(el) => doc.body().is_some_and(|b| el == *b.unchecked_ref::<web_sys::Element>()),
    };
    if !lost {
        return;
    }
    let open_card = doc
        .query_selector_all(".question-card[data-open=true]")
        .ok()
        .and_then(|cards| cards.item(cards.length().checked_sub(1)?))
        .and_then(|card| card.dyn_into::<web_sys::Element>().ok())
        .and_then(|card| card.query_selector(":is(button, input, textarea):not([disabled])").ok().flatten());
    let target = open_card.or_else(|| doc.get_element_by_id("composer-input"));
    if let Some(el) = target.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// Feeds `event` to the engine after the current event handler has returned.
pub fn dispatch(shell: Shell, event: Event) {
    run(move || shell.dispatch(event));
}
