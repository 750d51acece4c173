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
    // Opening a long conversation replays its journal (store::saved::Journal::replay): the
    // 1,000-question chat the sessions benchmark opens in the page, here without the database.
    let (long, journal) = deliberate::scenario::long_chat(1000);
    let mut replay_ms = Vec::new();
    let mut replayed_alike = true;
    for _ in 0..5 {
        let start = clock();
        let replayed = journal.replay();
        replay_ms.push(clock() - start);
        replayed_alike &= replayed.messages.len() == long.messages.len();
    }
    let json = serde_json::json!({
        "turn_ms": turns,
        "reached_plan": reached_plan,
        "replay_ms": replay_ms,
        "replayed_alike": replayed_alike,
        "replay_messages": long.messages.len(),
    });
    let _ = js_sys::Reflect::set(&window, &"__bench".into(), &json.to_string().into());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("engine_bench runs in the browser: use ./dev bench");
}
