//! What makes a dialog modal, shared by every dialog of the app (Settings, the chat's
//! confirmation of a dangerous command): focus moves in on open and back to what had it
//! on close, Tab stays inside, the page behind is inert (and hidden from assistive
//! technology), and Escape closes it from anywhere.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// How many modal dialogs are open: the page is inert while any is.
    static OPEN_MODALS: Cell<u32> = const { Cell::new(0) };
}

/// Makes the dialog matching `selector` modal while `is_open` says so. `on_escape` runs
/// when Escape is pressed while it is open; `fallback_focus` says where focus goes on
/// close when the control that had it before is gone. Returns the keydown handler the
/// dialog element must carry (it keeps Tab inside).
pub fn use_modal(
    selector: &'static str,
    is_open: impl Fn() -> bool + Send + Sync + 'static,
    on_escape: impl Fn() + 'static,
    fallback_focus: fn() -> Option<web_sys::HtmlElement>,
) -> impl Fn(leptos::ev::KeyboardEvent) + Copy + 'static {
    let is_open = Signal::derive(is_open);
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    // Whether this dialog counts as open, readable after its signals are gone.
    let counted = Arc::new(AtomicBool::new(false));
    let counted_on_cleanup = counted.clone();
    Effect::new(move |was_open: Option<bool>| {
        let open = is_open.get();
        if open && was_open != Some(true) {
            opener.set_value(document().active_element().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()));
            counted.store(true, Relaxed);
            set_page_inert(true);
            request_animation_frame(move || {
                if let Some(first) = focusables(selector).first() {
                    let _ = first.focus();
                }
            });
        } else if !open && was_open == Some(true) {
            counted.store(false, Relaxed);
            set_page_inert(false);
            let opener = opener.get_value();
            // After the frame, so the controls the closing action re-rendered are there.
            request_animation_frame(move || {
                let back = opener.filter(|el| el.is_connected() && !is_body(el)).and_then(shown_or_disclosure);
                let back = back.or_else(fallback_focus);
                if let Some(el) = back {
                    let _ = el.focus();
                }
            });
        }
        open
    });
    let escape = window_event_listener(leptos::ev::keydown, move |ev| {
        // One Escape closes one dialog: the first to see it marks it handled.
        if ev.key() == "Escape" && !ev.default_prevented() && is_open.get_untracked() {
            ev.prevent_default();
            on_escape();
        }
    });
    on_cleanup(move || {
        escape.remove();
        if counted_on_cleanup.swap(false, Relaxed) {
            set_page_inert(false);
        }
    });
    move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Tab" {
            keep_tab_inside(&ev, selector);
        }
    }
}

/// `el` if it is shown; else the shown button that discloses a container it is in (its
/// `aria-controls`), as the top bar's menu button for a control of the menu, which closed
/// when the control opened the dialog.
fn shown_or_disclosure(el: web_sys::HtmlElement) -> Option<web_sys::HtmlElement> {
    let shown = |el: &web_sys::HtmlElement| el.offset_width() > 0 || el.offset_height() > 0;
    if shown(&el) {
        return Some(el);
    }
    let mut node = el.parent_element();
    while let Some(container) = node {
        let id = container.id();
        if !id.is_empty() {
            let button = document().query_selector(&format!("[aria-controls=\"{id}\"]")).ok().flatten();
            if let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()).filter(shown) {
                return Some(button);
            }
        }
        node = container.parent_element();
    }
    None
}

fn is_body(el: &web_sys::HtmlElement) -> bool {
    document().body().is_some_and(|b| b == *el)
}

/// Counts a dialog opening or closing; everything but the dialogs is inert (and hidden
/// from assistive technology) while at least one is open, whatever order they close in.
fn set_page_inert(opening: bool) {
    let open = OPEN_MODALS.with(|n| {
        n.set(if opening { n.get() + 1 } else { n.get().saturating_sub(1) });
        n.get()
    });
    let inert = open > 0;
    for selector in [".app > .topbar", ".app > .layout"] {
        if let Ok(Some(el)) = document().query_selector(selector) {
            let _ = if inert { el.set_attribute("inert", "") } else { el.remove_attribute("inert") };
        }
    }
}

/// The enabled controls of the dialog matching `selector`, in tab order.
fn focusables(selector: &str) -> Vec<web_sys::HtmlElement> {
    let query =
        format!("{selector} :is(button, input, select, textarea, a[href]):not([disabled]):not(fieldset:disabled *)");
    let Ok(list) = document().query_selector_all(&query) else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.item(i)).filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok()).collect()
}

/// Tab from the last control goes to the first, Shift+Tab from the first to the last.
fn keep_tab_inside(ev: &leptos::ev::KeyboardEvent, selector: &str) {
    let items = focusables(selector);
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        return;
    };
    let active = document().active_element();
    let at = |el: &web_sys::HtmlElement| active.as_ref().is_some_and(|a| a == el.unchecked_ref::<web_sys::Element>());
    let inside = active.as_ref().is_some_and(|a| items.iter().any(|el| a == el.unchecked_ref::<web_sys::Element>()));
    if ev.shift_key() && (at(first) || !inside) {
        ev.prevent_default();
        let _ = last.focus();
    } else if !ev.shift_key() && (at(last) || !inside) {
        ev.prevent_default();
        let _ = first.focus();
    }
}
