//! The build hook that fills the Content-Security-Policy (tools/csp_hashes.mjs), run with Node
//! on small pages: the hash is that of the script's exact text (checked against an
//! independent SHA-256), scripts with a `src` are not hashed, the dev server's page is
//! relaxed, and a page without the placeholder fails the build; inline styles likewise.

use std::path::Path;

use base64::Engine;
use deliberate_e2e::app::{run_page_step, workspace_root};
use sha2::{Digest, Sha256};

const PLACEHOLDER: &str = "'inline-script-hashes'";
const STYLE_PLACEHOLDER: &str = "'inline-style-hashes'";

fn page(head: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; \
         script-src 'self' 'wasm-unsafe-eval' {PLACEHOLDER}; connect-src 'self' https:\" />{head}</head>\
         <body>{body}</body></html>"
    )
}

/// Runs the hook on `html` the way Trunk does: exit success, the page after, and its log.
fn run_hook(html: &str) -> (bool, String, String) {
    run_page_step("csp_hashes.mjs", html)
}

fn sha256_source(text: &str) -> String {
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes())))
}

/// The `script-src` directive of the page's policy meta tag.
fn script_src(page: &str) -> String {
    let meta = page.find("http-equiv=\"Content-Security-Policy\"").expect("a policy meta tag");
    let start = meta + page[meta..].find("script-src").expect("a script-src directive");
    page[start..].split(';').next().unwrap().to_string()
}

#[test]
fn each_inline_script_is_allowed_by_the_hash_of_its_exact_text() {
    let loader = "\nimport init from '/app.js';\nconst wasm = await init({ module_or_path: '/app_bg.wasm' });\n";
    let other = "window.答 = '한글 ✓';";
    let html = page(
        &format!("<script type=\"module\">{loader}</script><script src=\"/external.js\"></script>"),
        &format!("<SCRIPT>{other}</SCRIPT>"),
    );
    let (ok, after, log) = run_hook(&html);
    assert!(ok, "{log}");
    let policy = script_src(&after);
    assert_eq!(
        policy,
        format!("script-src 'self' 'wasm-unsafe-eval' {} {}", sha256_source(loader), sha256_source(other)),
        "one hash per inline script, none for the one with src"
    );
    assert!(!after.contains(PLACEHOLDER) && !policy.contains("unsafe-inline"));
    // Only the policy changed.
    assert_eq!(after.replace(&policy, ""), html.replace(&script_src(&html), ""));
}

/// The `style-src` directive of a page's policy.
fn style_src(page: &str) -> String {
    let meta = page.find("http-equiv=\"Content-Security-Policy\"").expect("a policy meta tag");
    let start = meta + page[meta..].find("style-src").expect("a style-src directive");
    page[start..].split(['"', ';']).next().unwrap().to_string()
}

#[test]
fn each_inline_style_is_allowed_by_the_hash_of_its_exact_text_and_nothing_else() {
    let css = "\n.topbar { display: flex; }\n.logo::before { content: \"◆ 한\"; }\n";
    let with_styles = |head: &str| {
        page(head, "").replace(
            "connect-src 'self' https:",
            &format!("style-src 'self' {STYLE_PLACEHOLDER}; connect-src 'self' https:"),
        )
    };
    let (ok, after, log) =
        run_hook(&with_styles(&format!("<style>{css}</style><script type=\"module\">start();</script>")));
    assert!(ok, "{log}");
    assert_eq!(style_src(&after), format!("style-src 'self' {}", sha256_source(css)));
    assert!(script_src(&after).contains(&sha256_source("start();")), "scripts are still hashed: {after}");
    assert!(!after.contains(STYLE_PLACEHOLDER));
    // No inline style: only 'self' is left.
    let (ok, after, log) = run_hook(&with_styles("<script type=\"module\">start();</script>"));
    assert!(ok, "{log}");
    assert_eq!(style_src(&after), "style-src 'self'");
    // An inline style the policy has no place for would be refused by the browser: the build fails.
    let (ok, _, log) = run_hook(&page(&format!("<style>{css}</style>"), ""));
    assert!(!ok && log.contains("style"), "{log}");
}

#[test]
fn windows_line_endings_are_hashed_as_the_browser_reads_them() {
    let (ok, after, log) = run_hook(&page("<script type=\"module\">\r\nstart();\r\n</script>", ""));
    assert!(ok, "{log}");
    assert!(script_src(&after).contains(&sha256_source("\nstart();\n")), "{after}");
}

#[test]
fn the_dev_servers_live_reload_page_is_relaxed_and_says_so() {
    let reload = "(function () { const url = 'ws://' + '{{__TRUNK_ADDRESS__}}' + '/.well-known/trunk/ws'; })()";
    let (ok, after, log) =
        run_hook(&page("<script type=\"module\">start();</script>", &format!("<script>{reload}</script>")));
    assert!(ok, "{log}");
    assert!(script_src(&after).contains("'unsafe-inline'") && !script_src(&after).contains("sha256"), "{after}");
    assert!(after.contains("connect-src ws://127.0.0.1:* ws://localhost:* 'self'"), "{after}");
    assert!(log.contains("dev server"), "{log}");
}

#[test]
fn a_page_without_the_placeholder_fails_the_build_and_is_left_alone() {
    let html = page("<script type=\"module\">start();</script>", "").replace(PLACEHOLDER, "");
    let (ok, after, log) = run_hook(&html);
    assert!(!ok, "the hook must fail: {log}");
    assert!(log.contains("placeholder"), "{log}");
    assert_eq!(after, html);
}

#[test]
fn the_source_page_has_one_placeholder_in_its_policy() {
    let source = std::fs::read_to_string(workspace_root().join("index.html")).unwrap();
    assert_eq!(source.matches(PLACEHOLDER).count(), 1, "exactly one placeholder, in the policy");
    assert!(script_src(&source).contains(PLACEHOLDER), "{}", script_src(&source));
    assert_eq!(source.matches(STYLE_PLACEHOLDER).count(), 1, "exactly one style placeholder, in the policy");
    assert!(style_src(&source).contains(STYLE_PLACEHOLDER), "{}", style_src(&source));
    assert!(Path::new(&workspace_root().join("tools/csp_hashes.mjs")).is_file());
}
