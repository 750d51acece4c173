//! What the page does when the wasm panics: log the panic to the console as before, and
//! put a banner at the top of the page saying so, in the user's language. The banner is
//! built with plain DOM calls: the reactive system may be the thing that broke, and after
//! the panic nothing may call back into the wasm (so the banner's reload is a plain link).
//! Its look is in the stylesheet (`#panic-banner`): the page's Content-Security-Policy
//! refuses inline `style` attributes.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Once;

use super::i18n::strings;
use crate::engine::lang::Lang;

/// The id of the banner element, for tests and styles.
pub const BANNER_ID: &str = "panic-banner";

/// How many panics the page has seen; never reset (the wasm instance is done for).
static PANICS: AtomicU32 = AtomicU32::new(0);

/// Installs the panic hook, once: the hook it replaces (a test harness's, say), the
/// console message, then the banner. Calling it again does nothing.
pub fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            console_error_panic_hook::hook(info);
            // A panic while showing the banner must not try again.
            if PANICS.fetch_add(1, Ordering::SeqCst) == 0 {
                show_banner();
            }
        }));
    });
}

/// True once the page has panicked.
pub fn has_panicked() -> bool {
    panic_count() > 0
}

/// How many panics the page has seen (component tests compare it before and after a step).
pub fn panic_count() -> u32 {
    PANICS.load(Ordering::SeqCst)
}

/// The language the user reads: the saved UI choice, else the browser's language.
fn banner_lang(window: &web_sys::Window) -> Lang {
    // The key the shell saves the UI language under.
    let saved = crate::store::local::load_lang();
    match saved {
        Some(tag) => Lang::from_tag(&tag),
        None => Lang::from_tag(&window.navigator().language().unwrap_or_default()),
    }
}

/// Puts the banner first in the body unless it is there already; every failure is ignored
/// (this is the last resort). The panic hook calls it.
pub fn show_banner() {
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    if document.get_element_by_id(BANNER_ID).is_some() {
        return;
    }
    let Some(body) = document.body() else { return };
    let lang = banner_lang(&window);
    let Ok(banner) = document.create_element("div") else { return };
    banner.set_id(BANNER_ID);
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute("lang", lang.tag());
    banner.set_text_content(Some(strings(lang).crashed));
    // A link to this very page reloads it without calling back into the wasm.
    if let Ok(link) = document.create_element("a") {
        let _ = link.set_attribute("href", "");
        link.set_text_content(Some(strings(lang).reload));
        let _ = banner.append_child(&link);
    }
    let _ = body.prepend_with_node_1(&banner);
}
