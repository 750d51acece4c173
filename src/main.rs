#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    // The static first paint of index.html gives way to the app.
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot-shell") {
        boot.remove();
    }
    leptos::mount::mount_to_body(deliberate::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Deliberate runs in the browser: use `./dev serve`.");
}
