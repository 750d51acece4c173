//! The engine's heuristic turn time inside the browser: built to wasm by `./dev bench`,
//! loaded in headless Chromium, results left in `window.__bench` as JSON.

#[cfg(target_arch = "wasm32")]
fn main() {
    use deliberate::engine::lang::Lang;
    use deliberate::scenario::play_heuristic_discussion;

    const RUNS: usize = 40;
    let window = web_sys::window().expect("a window");
    let perf = window.performance().expect("performance");
    let mut clock = || perf.now();
    // One warm-up run per language so lazily compiled patterns are not counted.
    for lang in [Lang::Ko, Lang::En] {
        play_heuristic_discussion(lang, &mut clock);
    }
    let mut turns = Vec::new();
    let mut reached_plan = true;
    for _ in 0..RUNS {
        for lang in [Lang::Ko, Lang::En] {
            let (timings, stage) = play_heuristic_discussion(lang, &mut clock);
            reached_plan &= stage == deliberate::engine::state_machine::Stage::Plan;
            turns.extend(timings.into_iter().map(|t| t.millis));
        }
    }
    let json = serde_json::json!({ "turn_ms": turns, "reached_plan": reached_plan });
    let _ = js_sys::Reflect::set(&window, &"__bench".into(), &json.to_string().into());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("engine_bench runs in the browser: use ./dev bench");
}
