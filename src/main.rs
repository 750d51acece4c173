#[cfg(target_arch = "wasm32")]
fn main() {
    deliberate::ui::panic_banner::install();
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
