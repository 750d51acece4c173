//! The panic hook in headless Chromium: a panic in a click handler is recorded (the flag
//! the component tests check) and puts the crash banner on the page. In its own test
//! binary, because the wasm instance is broken after the panic.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn a_panic_in_a_click_handler_is_recorded_and_shows_the_banner() {
    deliberate::ui::panic_banner::install();
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone().unchecked_into(), || {
        view! { <button id="boom" on:click=move |_| panic!("probe panic")>"x"</button> }
    });
    handle.forget();
    assert!(!deliberate::ui::panic_banner::has_panicked());
    document().get_element_by_id("boom").unwrap().unchecked_into::<web_sys::HtmlElement>().click();
    assert!(deliberate::ui::panic_banner::has_panicked(), "the panic is recorded");
    let banner = document().get_element_by_id("panic-banner").expect("the banner is shown");
    assert!(banner.text_content().unwrap_or_default().contains("Reload"), "{:?}", banner.text_content());
}
