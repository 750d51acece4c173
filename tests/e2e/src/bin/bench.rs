//! `./dev bench`: prints the project's figures. Nothing here passes or fails; it measures.
//!
//! - first-load transfer of the release build (bytes and gzip, per file and total)
//! - where the wasm's bytes go, by crate or module group
//! - time from navigation to `app-ready` in headless Chromium from 127.0.0.1
//! - engine time per heuristic turn, native and in Chromium
//! - slot-extraction accuracy and LLM calls per completed gate
//! - token-estimate error per language against o200k_base
//! - injection-filter recall and false positives per language
//! - fuzzing: inputs run and panics found per reader of untrusted text

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use deliberate::engine::lang::Lang;
use deliberate::scenario::play_heuristic_discussion;
use deliberate_e2e::app::{dist_dir, workspace_root, AppPage, STEP};
use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing};
use deliberate_e2e::static_server::StaticServer;
use deliberate_e2e::webdriver::Browser;

fn main() {
    // `./dev bench [SECTION ...]` prints only the named sections (for iterating on one figure);
    // no names, every section.
    let only: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    let dist = dist_dir();
    let sections: [(&str, &dyn Fn()); 15] = [
        ("transfer", &|| transfer(&dist)),
        // Where the wasm's bytes go (issue 14).
        ("breakdown", &|| println!("{}", deliberate_e2e::wasm_breakdown::report(&workspace_root()))),
        ("ready", &time_to_ready),
        ("first-visit", &first_visit),
        ("engine", &engine_native),
        ("engine-browser", &engine_in_browser),
        ("slots", &slots),
        ("injection", &injection_filter),
        ("fuzz", &fuzzing),
        ("llm", &llm_figures),
        // Chat mode (issue 9): token estimate against o200k_base.
        ("tokens", &|| println!("{}", deliberate_e2e::token_accuracy::report())),
        // Chat mode: engine cost of a loop turn.
        ("chat", &|| println!("{}", deliberate_e2e::chat_loop::report())),
        // Counseling mode (issue 10): a turn's wall time over the mock's delay L.
        ("counsel", &|| println!("{}", deliberate_e2e::counsel_turn::measure())),
        // Sessions (issue 11): open, save and keystroke figures of a short and a long conversation.
        ("sessions", &|| println!("{}", deliberate_e2e::long_session::report())),
        // Injection screen: time per message and per KB (every message is screened, also on replay).
        ("screen", &|| println!("{}", deliberate_e2e::screen_speed::report())),
    ];
    println!("# Deliberate figures\n");
    if let Some(unknown) = only.iter().find(|o| !sections.iter().any(|(n, _)| n == o)) {
        let names: Vec<&str> = sections.iter().map(|(n, _)| *n).collect();
        eprintln!("bench: no section {unknown:?}; sections: {}", names.join(", "));
        std::process::exit(2);
    }
    for (name, run) in &sections {
        if wanted(name) {
            run();
        }
    }
}

fn gzip_size(path: &Path) -> usize {
    let out = Command::new("gzip").arg("-9").arg("-c").arg(path).output().expect("gzip runs");
    out.stdout.len()
}

fn transfer(dist: &Path) {
    println!("## First-load transfer ({})  budget: ≤ 400 KB gzip, goal: ≤ 200 KB\n", dist.display());
    println!("{:<44} {:>10} {:>10}", "file", "bytes", "gzip");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dist)
        .expect("dist is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let (mut raw, mut gz) = (0, 0);
    for f in &files {
        // The service worker and manifest are fetched after load, but count them anyway.
        let size = std::fs::metadata(f).map(|m| m.len() as usize).unwrap_or(0);
        let g = gzip_size(f);
        raw += size;
        gz += g;
        println!("{:<44} {:>10} {:>10}", f.file_name().unwrap().to_string_lossy(), size, g);
    }
    println!("{:<44} {:>10} {:>10}  ({:.1} KB gzip)\n", "total", raw, gz, gz as f64 / 1024.0);
    // The first load: what a first visit fetches before the composer takes input. The rest of
    // the split wasm (tools/split.mjs) is fetched after the app has started; the service
    // worker, manifest and icons after the page has loaded.
    let name_of = |f: &PathBuf| f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let first: Vec<&PathBuf> = files
        .iter()
        .filter(|f| {
            let n = name_of(f);
            n == "index.html"
                || n == "crash.js"
                || n == "sw-register.js"
                || (n.starts_with("deliberate-") && (n.ends_with("_bg.wasm") || n.ends_with(".js")))
        })
        .collect();
    let first_gz: usize = first.iter().map(|f| gzip_size(f)).sum();
    println!(
        "first load ({}): {} B gzip ({:.1} KB; budget 400 KB)",
        first.iter().map(|f| name_of(f)).collect::<Vec<_>>().join(" + "),
        first_gz,
        first_gz as f64 / 1024.0
    );
    if let Some(rest) = files.iter().find(|f| name_of(f).ends_with("_rest.wasm")) {
        let g = gzip_size(rest);
        println!(
            "the rest of the wasm, fetched once the app has started: {} B gzip ({:.1} KB); page + rest {:.1} KB\n",
            g,
            g as f64 / 1024.0,
            (first_gz + g) as f64 / 1024.0
        );
    }
    // Not part of the first load: the reader build opens only conversations an earlier
    // build showed differently (src/store/snapshot.rs); the service worker keeps it.
    let reader = dist.join("reader");
    if let Ok(entries) = std::fs::read_dir(&reader) {
        let (mut raw, mut gz) = (0, 0);
        for path in entries.flatten().map(|e| e.path()).filter(|p| p.is_file()) {
            raw += std::fs::metadata(&path).map(|m| m.len() as usize).unwrap_or(0);
            gz += gzip_size(&path);
        }
        println!(
            "{:<44} {:>10} {:>10}  ({:.1} KB gzip, loaded only to open such a conversation)\n",
            "reader/ (the reader build, all files)",
            raw,
            gz,
            gz as f64 / 1024.0
        );
    }
}

fn time_to_ready() {
    println!("## Navigation → composer accepts input (performance mark \"app-ready\")  goal: ≤ 200 ms\n");
    let page = match AppPage::open("en-US") {
        Ok(p) => p,
        Err(e) => {
            println!("could not open the page: {e:?}\n");
            return;
        }
    };
    let mut visits = returning_visits(&page, false);
    let n = visits.ready.len();
    print_stats("app-ready (ms, 10 cold navigations, no-store cache)", &mut visits.ready);
    // What the user first sees: the service worker's page has no static shell (the app's files
    // are on the device), so the first paint is the app's own.
    print_stats("first contentful paint (ms)", &mut visits.painted);
    // The largest element painted by the time the conversation is open: when the app's content
    // stands in full.
    print_stats("largest contentful paint (ms)", &mut visits.largest);
    println!("returning visits that loaded the rest of the wasm at once: {} of {n}", visits.early);
    // A user who comes back later finds the service worker stopped (the browser stops an idle
    // one after about 30 s): the page's request must not wait for it to start.
    let mut idle = returning_visits(&page, true);
    print_stats(
        "app-ready after the service worker idled (ms, stopped before each of 10 navigations)",
        &mut idle.ready,
    );
    print_stats("first contentful paint after the service worker idled (ms)", &mut idle.painted);
    println!();
}

/// What `returning_visits` measured, one entry per visit.
#[derive(Default)]
struct Visits {
    ready: Vec<f64>,
    painted: Vec<f64>,
    largest: Vec<f64>,
    /// How many visits loaded the rest of the wasm at once.
    early: usize,
}

/// Ten returning visits in `page`'s profile, each with the service worker stopped first if
/// `worker_stopped`: their app-ready times, first and largest contentful paints, and how many
/// loaded the rest of the wasm at once.
fn returning_visits(page: &AppPage, worker_stopped: bool) -> Visits {
    let cdp = |cmd: &str| page.browser.cdp(cmd, serde_json::json!({})).is_ok();
    if worker_stopped && !cdp("ServiceWorker.enable") {
        println!("(the browser did not let the service worker be stopped)");
        return Visits::default();
    }
    // Every navigation after the first is a returning visit: it starts without the rest of the
    // split wasm and links it once compiled; one that needed it before then loaded it at once.
    let mut visits = Visits::default();
    for _ in 0..10 {
        if worker_stopped && !cdp("ServiceWorker.stopAllWorkers") {
            continue;
        }
        if page.browser.goto(&page.server.url()).is_err() {
            continue;
        }
        let ready = page.browser.wait_for(Duration::from_secs(10), "app-ready", |_| page.app_ready_ms());
        visits.ready.extend(ready.ok());
        let paint = page
            .browser
            .wait_for(Duration::from_secs(10), "the first paint", |_| page.mark_ms("first-contentful-paint"));
        visits.painted.extend(paint.ok());
        let linked = page.browser.wait_for(Duration::from_secs(10), "the rest linked", |b| {
            let v = b.execute(
                "return performance.getEntriesByName('deliberate:rest-linked').length ? performance.getEntriesByName('deliberate:rest-now').length : null;",
                vec![],
            )?;
            Ok(v.as_u64())
        });
        visits.early += usize::from(linked.is_ok_and(|n| n > 0));
        let open = page.browser.wait_for(Duration::from_secs(10), "the conversation open", |b| {
            let v = b.execute(
                "const app = document.querySelector('.app'); return app && app.dataset.store !== 'opening';",
                vec![],
            )?;
            Ok((v == serde_json::json!(true)).then_some(()))
        });
        if open.is_ok() {
            visits.largest.extend(largest_paint_ms(&page.browser));
        }
    }
    visits
}

/// The start of the page's latest largest-contentful-paint candidate, in ms from navigation.
fn largest_paint_ms(browser: &Browser) -> Option<f64> {
    browser
        .execute_async(
            "const done = arguments[0]; setTimeout(() => done(null), 1000); \
             new PerformanceObserver((list, o) => { o.disconnect(); const e = list.getEntries(); \
             done(e[e.length - 1].startTime); }).observe({ type: 'largest-contentful-paint', buffered: true });",
            vec![],
        )
        .ok()?
        .as_f64()
}

/// A first visit: a fresh browser profile (empty cache) for every sample, so nothing of
/// an earlier load is reused. First contentful paint (goal ≤ 100 ms: the static shell of
/// index.html paints before the wasm arrives), the shell's composer taking typing, and the
/// app's composer accepting input (goal ≤ 150 ms). Then when the page's wasm had arrived and
/// what the app did after that, against the harness's floors for both.
fn first_visit() {
    println!("## First visit (fresh profile, empty cache)  goals: first paint ≤ 100 ms, composer ≤ 150 ms\n");
    let dist = dist_dir();
    let server = match StaticServer::start(&dist) {
        Ok(s) => s,
        Err(e) => {
            println!("the static server did not start: {e}\n");
            return;
        }
    };
    // The page's part of the wasm, by its hashed name: its resource entry says when its last
    // byte arrived.
    let wasm = page_wasm(&dist);
    let wasm_url =
        wasm.as_ref().and_then(|w| w.file_name()).map(|n| format!("{}{}", server.url(), n.to_string_lossy()));
    let optional: Vec<&str> = ["deliberate:rest-now"].into_iter().chain(wasm_url.as_deref()).collect();
    let marks = fresh_visits(&server, &["first-contentful-paint", "shell-input", "app-ready"], &optional);
    let column = |i: usize| marks.iter().map(|m| m[i]).collect::<Vec<f64>>();
    print_stats("first contentful paint (ms)", &mut column(0));
    // The shell's composer takes typing from its script on (what is typed is kept by the app,
    // an Enter is sent once the app is there); the app's own composer from app-ready.
    print_stats("the shell's composer takes typing (mark \"shell-input\", ms)", &mut column(1));
    print_stats("app-ready: the app's composer (ms)", &mut column(2));
    // The split wasm (tools/split.mjs): a first visit that called into the rest before it
    // had arrived loaded it synchronously (mark "deliberate:rest-now"); the profile should
    // leave none.
    let early = marks.iter().filter(|m| m[3] >= 0.0).count();
    println!("first visits that needed the rest of the wasm before their first send: {early} of {}", marks.len());
    if wasm_url.is_some() {
        let arrived: Vec<&Vec<f64>> = marks.iter().filter(|m| m[4] >= 0.0).collect();
        print_stats(
            "the page's wasm had arrived (its last byte, resource timing, ms)",
            &mut arrived.iter().map(|m| m[4]).collect::<Vec<f64>>(),
        );
        // What the page does once its wasm is here: the rest of the parse and the shell's
        // first frame where they are not done yet, the glue, compiling, instantiating, the
        // app's start and its first layout.
        print_stats(
            "app-ready after the page's wasm had arrived (ms, per visit)",
            &mut arrived.iter().map(|m| m[2] - m[4]).collect::<Vec<f64>>(),
        );
    }
    first_paint_floor();
    if let Some(wasm) = wasm {
        fetch_floor(&wasm);
    }
    println!();
}

/// The release build's page wasm (the part a first visit fetches), if dist has one.
fn page_wasm(dist: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dist)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with("_bg.wasm")))
}

/// Nine visits (a median that one slow launch of the browser does not move), each in a fresh browser profile: the times of the named performance
/// entries of every visit that reached all of them, then those of the `optional` ones (-1
/// where a visit had none). A paint entry or a mark counts at its start; a resource (named
/// by its URL) when its last byte arrived. Each navigation waits until the newly
/// launched browser has finished its own start (its new-tab and toolbar pages render for
/// a while after the session opens, on the same two cores): a user's first visit happens
/// in a browser that is already running.
fn fresh_visits(server: &StaticServer, entries: &[&str], optional: &[&str]) -> Vec<Vec<f64>> {
    let script = format!(
        "const names = {entries:?};\n\
         const at = e => e.entryType === 'resource' ? e.responseEnd : e.startTime;\n\
         const found = names.map(n => performance.getEntriesByName(n));\n\
         const optional = {optional:?}.map(n => performance.getEntriesByName(n)).map(e => e.length ? at(e[0]) : -1);\n\
         return found.every(e => e.length) ? found.map(e => at(e[0])).concat(optional) : null;"
    );
    let mut visits = Vec::new();
    for _ in 0..9 {
        let Ok(browser) = Browser::builder().window_size(1280, 900).launch() else {
            continue;
        };
        if !cpu_quiet(Duration::from_millis(300), Duration::from_secs(10)) {
            println!("(a visit started on a machine that did not go quiet within 10 s)");
        }
        if browser.goto(&server.url()).is_err() {
            continue;
        }
        let marks = browser.wait_for(Duration::from_secs(10), "performance entries", |b| {
            let v = b.execute(&script, vec![])?;
            Ok(v.as_array().map(|a| a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect::<Vec<f64>>()))
        });
        if let Ok(m) = marks {
            visits.push(m);
        }
    }
    visits
}

/// Waits until the machine's processors are at least 90 % idle over one `window`, or the
/// `deadline` passes (false then). Reads /proc/stat; where it cannot be read, does not wait.
fn cpu_quiet(window: Duration, deadline: Duration) -> bool {
    // (idle, total) jiffies over all processors since boot: idle and iowait count as idle.
    let read = || -> Option<(u64, u64)> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let fields: Vec<u64> = stat.lines().next()?.split_whitespace().skip(1).filter_map(|f| f.parse().ok()).collect();
        let idle = fields.get(3)? + fields.get(4).copied().unwrap_or(0);
        Some((idle, fields.iter().sum()))
    };
    let end = Instant::now() + deadline;
    let Some(mut before) = read() else { return true };
    while Instant::now() < end {
        std::thread::sleep(window);
        let Some(now) = read() else { return true };
        let (idle, total) = (now.0 - before.0, now.1 - before.1);
        if total > 0 && idle * 10 >= total * 9 {
            return true;
        }
        before = now;
    }
    false
}

/// The harness's own floor: the first paint of a one-line page with no stylesheet or script,
/// served and measured the same way. What the app adds is the difference.
fn first_paint_floor() {
    let page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Deliberate</title></head>\
                <body><p>Deliberate</p></body></html>";
    floor(
        "first-paint-floor",
        page,
        None,
        |_| "first-contentful-paint".into(),
        "a one-line page, same harness, first contentful paint",
    );
}

/// The harness's floor for the wasm's arrival: a one-line page whose head preloads a file of
/// the page wasm's size (the same bytes), served and measured the same way, and when its last
/// byte arrived. The app's figure above is later by what its own page does first.
fn fetch_floor(wasm: &Path) {
    let page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Deliberate</title>\
                <link rel=\"preload\" href=\"page.wasm\" as=\"fetch\" crossorigin=\"anonymous\" type=\"application/wasm\">\
                </head><body><p>Deliberate</p></body></html>";
    floor(
        "first-visit-fetch-floor",
        page,
        Some(("page.wasm", wasm)),
        |server| format!("{}page.wasm", server.url()),
        "a one-line page preloading the page wasm's bytes, when they had arrived",
    );
}

/// One of the harness's floors: `page` (and `file`, copied beside it as the name given) written
/// under target/`dir`, served, visited in fresh profiles, and the time of the performance entry
/// `entry` names (see `fresh_visits`) printed under `label`.
fn floor(dir: &str, page: &str, file: Option<(&str, &Path)>, entry: impl Fn(&StaticServer) -> String, label: &str) {
    let dir = workspace_root().join("target").join(dir);
    let written = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(dir.join("index.html"), page))
        .and_then(|_| file.map_or(Ok(()), |(name, from)| std::fs::copy(from, dir.join(name)).map(|_| ())));
    if written.is_err() {
        println!("floor: could not write {}", dir.display());
        return;
    }
    let Ok(server) = StaticServer::start(&dir) else {
        println!("floor: the static server did not start");
        return;
    };
    let name = entry(&server);
    let mut times: Vec<f64> = fresh_visits(&server, &[name.as_str()], &[]).iter().map(|m| m[0]).collect();
    print_stats(&format!("floor: {label} (ms)"), &mut times);
}

fn print_stats(label: &str, samples: &mut [f64]) {
    if samples.is_empty() {
        println!("{label}: no samples");
        return;
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let median = samples[samples.len() / 2];
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    println!(
        "{label}: min {:.2} · median {:.2} · mean {:.2} · max {:.2}  (n = {})",
        samples[0],
        median,
        mean,
        samples[samples.len() - 1],
        samples.len()
    );
}

fn engine_native() {
    println!("## Engine time per heuristic turn\n");
    let start = Instant::now();
    let mut clock = move || start.elapsed().as_secs_f64() * 1000.0;
    for lang in [Lang::Ko, Lang::En] {
        play_heuristic_discussion(lang, &mut clock);
    }
    let mut samples = Vec::new();
    for _ in 0..200 {
        for lang in [Lang::Ko, Lang::En] {
            let (timings, _) = play_heuristic_discussion(lang, &mut clock);
            samples.extend(timings.into_iter().map(|t| t.millis));
        }
    }
    print_stats("native (ms per turn)", &mut samples);
}

fn engine_in_browser() {
    let dir = workspace_root().join("target").join("engine-bench-web");
    if !dir.join("engine_bench.js").is_file() {
        println!("in Chromium: not built (./dev bench builds target/engine-bench-web)\n");
        return;
    }
    let _ = std::fs::write(
        dir.join("index.html"),
        "<!doctype html><meta charset=utf-8><script type=module>import init from './engine_bench.js'; init();</script>",
    );
    let result = (|| -> Result<String, String> {
        let server = StaticServer::start(&dir).map_err(|e| e.to_string())?;
        let browser = Browser::launch().map_err(|e| format!("{e:?}"))?;
        browser.goto(&server.url()).map_err(|e| format!("{e:?}"))?;
        browser
            .wait_for(Duration::from_secs(60), "window.__bench", |b| {
                Ok(b.execute("return window.__bench || null;", vec![])?.as_str().map(str::to_string))
            })
            .map_err(|e| format!("{e:?}"))
    })();
    match result.and_then(|json| serde_json::from_str::<serde_json::Value>(&json).map_err(|e| e.to_string())) {
        Ok(v) => {
            let mut samples: Vec<f64> =
                v["turn_ms"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
            print_stats("in Chromium, release wasm (ms per turn)", &mut samples);
            if v["reached_plan"] != serde_json::Value::Bool(true) {
                println!("warning: the scenario did not reach PLAN in the browser");
            }
            // The long-conversation open's largest part, without the database (see the
            // sessions section for the page's whole open and the native replay).
            let mut replay: Vec<f64> =
                v["replay_ms"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
            let messages = v["replay_messages"].as_u64().unwrap_or(0);
            print_stats(
                &format!("in Chromium, release wasm: replaying a {messages}-message chat's journal (ms)"),
                &mut replay,
            );
            if v["replayed_alike"] != serde_json::Value::Bool(true) {
                println!("warning: a replay in the browser did not give the played conversation back");
            }
        }
        Err(e) => println!("in Chromium: {e}"),
    }
    println!();
}

fn slots() {
    println!("## Slot extraction accuracy\n");
    println!("{}", deliberate_e2e::slot_accuracy::evaluate_bundled());
    println!("## LLM calls per completed gate (counting fake LLM)\n");
    println!("{}\n", deliberate_e2e::gate_calls::measure());
    println!("## Debate reply reading accuracy\n");
    println!("{}", deliberate_e2e::reply_accuracy::evaluate_bundled());
    println!("{}", deliberate_e2e::reply_accuracy::turns_report());
    println!("## Counseling: engine time per heuristic turn\n");
    println!("{}", deliberate_e2e::counsel_turns::measure());
    println!("## Counseling crisis check, per bundled set (the last one never tuned on)\n");
    for set in deliberate_e2e::crisis_accuracy::SETS {
        println!("({}: {})\n", set.file, set.about);
        println!("{}", deliberate_e2e::crisis_accuracy::evaluate(set.data));
    }
}

/// Recall and false positives of the injection filter per language, on both splits.
fn injection_filter() {
    println!("## Injection filter on tests/data/injection (tune and held-out test split)\n");
    println!("{}", deliberate_e2e::injection_accuracy::evaluate_bundled());
}

/// Generated inputs fed to every reader of untrusted text, and the panics they caused.
fn fuzzing() {
    println!("## Fuzzing the readers of untrusted text (5000 generated inputs each)\n");
    println!("{}", deliberate_e2e::fuzz_figures::run(5000));
}

/// With the mock answering every call after a fixed delay L: the design stage's wall
/// time over L (goal ≤ 2.1: one design call, then one parallel batch of critiques), and
/// the time from the plan's first streamed byte leaving the server to its first paint.
fn llm_figures() {
    println!("## LLM stages against the mock server\n");
    const L: u64 = 400;
    let Ok(mock) =
        MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing { latency_ms: L, ..Pacing::default() } })
    else {
        println!("the mock server did not start\n");
        return;
    };
    let settings = mock.app_settings(30);
    let page = match AppPage::open_with_llm("en-US", &settings, &serde_json::json!({})) {
        Ok(p) => p,
        Err(e) => {
            println!("could not open the page: {e:?}\n");
            return;
        }
    };
    let mut ratios = Vec::new();
    let mut paint = Vec::new();
    for _ in 0..5 {
        mock.reset();
        mock.set_pacing(Pacing { latency_ms: L, ..Pacing::default() });
        if page.start_over().is_err() {
            continue;
        }
        if page.send("Build a daily IT news digest as a Markdown document").is_err()
            || page.wait_stage("DEBATE").is_err()
        {
            continue;
        }
        let requests = mock.requests();
        let design_start = requests.iter().find(|r| r.role.as_deref() == Some("designer")).map(|r| r.started_ms);
        let critiques_end =
            requests.iter().filter(|r| r.role.as_deref() == Some("critic")).filter_map(|r| r.finished_ms).max();
        if let (Some(start), Some(end)) = (design_start, critiques_end) {
            ratios.push((end - start) as f64 / L as f64);
        }
        // The plan streams at once (no latency) so its first byte is what is timed.
        mock.set_pacing(Pacing::default());
        if page.send("option 1 looks good").is_err() || page.browser.wait_for_element(".plan-card", STEP).is_err() {
            continue;
        }
        let first_byte = mock
            .requests()
            .iter()
            .rev()
            .find(|r| r.role.as_deref() == Some("planner"))
            .and_then(|r| r.first_byte_epoch_ms);
        let painted = page.browser.execute(
            "const m = performance.getEntriesByType('mark').filter(m => m.name.startsWith('deliberate:first-text:'));\n\
             if (!m.length) return null;\n\
             const last = m.reduce((a, b) => (+a.name.split(':')[2] > +b.name.split(':')[2] ? a : b));\n\
             return performance.timeOrigin + last.startTime;",
            vec![],
        );
        if let (Some(byte), Ok(serde_json::Value::Number(at))) = (first_byte, painted) {
            if let Some(at) = at.as_f64() {
                paint.push(at - byte as f64);
            }
        }
    }
    print_stats(&format!("design stage wall time / L (L = {L} ms; goal ≤ 2.1)"), &mut ratios);
    print_stats("first streamed byte at the server → its paint (ms)", &mut paint);
    println!();
}
