#[cfg(target_arch = "wasm32")]
fn main() {
    deliberate::ui::panic_banner::install();
    leptos::mount::mount_to_body(deliberate::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Deliberate runs in the browser: use `./dev serve`.");
}
