#[cfg(target_arch = "wasm32")]
fn main() {
    // A release build aborts on a panic at once (./dev's release_env): no hook would ever
    // run, and its formatting would only weigh on the wasm; www/crash.js shows the banner.
    #[cfg(not(panic = "immediate-abort"))]
    deliberate::ui::panic_banner::install();
    // The static first paint of index.html gives way to the app, which keeps what was typed.
    deliberate::ui::composer::take_over_boot_shell();
    leptos::mount::mount_to_body(deliberate::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Deliberate runs in the browser: use `./dev serve`.");
}
