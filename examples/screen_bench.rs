//! Native time of the injection screen per message and per KB:
//! `cargo run --profile bench-native --example screen_bench` (the same figures `./dev bench`
//! prints; the measuring code is `tests/e2e/src/screen_speed.rs`).

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/e2e/src/screen_speed.rs"]
mod screen_speed;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!("{}", screen_speed::report());
}

#[cfg(target_arch = "wasm32")]
fn main() {}
