//! The build step that hands Trunk's start script the wasm module index.html began compiling
//! early (tools/early_compile.mjs), run with Node on small pages: it changes Trunk's `init`
//! call and nothing else, and a start script written otherwise stops the build with the page
//! untouched. `boot_shell.rs` checks the built page in Chromium.

use deliberate_e2e::app::run_page_step;

/// Runs the step on `html` the way Trunk does: exit success, the page after, and its log.
fn run_step(html: &str) -> (bool, String, String) {
    run_page_step("early_compile.mjs", html)
}

fn page(start: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><script type=\"module\">\nimport init, * as bindings from '/app-1f.js';\n\
         const wasm = await init({start});\n</script></head><body><p>init({{ module_or_path: 'x' }})</p></body></html>"
    )
}

#[test]
fn trunks_init_call_takes_the_early_module_and_nothing_else_changes() {
    let before = page("{ module_or_path: '/app-1f_bg.wasm' }");
    let (ok, after, log) = run_step(&before);
    assert!(ok, "{log}");
    assert_eq!(
        after,
        page("{ module_or_path: globalThis.deliberateWasm ?? '/app-1f_bg.wasm' }"),
        "the call passes the promise when there is one and the path as before when not"
    );
}

#[test]
fn a_start_script_written_otherwise_stops_the_build_and_leaves_the_page() {
    for start in ["'/app-1f_bg.wasm'", "{ module_or_path: new URL('/app-1f_bg.wasm', import.meta.url) }"] {
        let before = page(start);
        let (ok, after, log) = run_step(&before);
        assert!(!ok, "{start}: {log}");
        assert!(log.contains("expected one init({ module_or_path: '…_bg.wasm' })"), "{log}");
        assert_eq!(after, before, "{start}: the page is untouched");
    }
    // Two calls are as wrong as none.
    let twice = page("{ module_or_path: '/app-1f_bg.wasm' }") + &page("{ module_or_path: '/app-1f_bg.wasm' }");
    let (ok, after, _) = run_step(&twice);
    assert!(!ok);
    assert_eq!(after, twice);
}
