//! The release build aborts on a panic at once (no panic hook runs; see `release_env` in
//! `./dev`): the page itself catches the wasm's trap and shows the crash banner
//! (`www/crash.js`), in the user's language; other script errors show nothing.

use std::time::Duration;

use deliberate_e2e::app::{dist_dir, AppPage};
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(10);

/// Throws `error` (a script expression) as an uncaught error would reach the window,
/// without the console logging it (the page's own checks would count a logged trap).
fn raise(page: &AppPage, error: &str) {
    let script = format!("window.dispatchEvent(new ErrorEvent('error', {{ error: {error} }})); return true;");
    page.browser.execute(&script, vec![]).expect("the script runs");
}

fn banner(page: &AppPage) -> Option<String> {
    page.browser.try_find("#panic-banner").expect("the page can be read").map(|b| b.text().expect("text"))
}

#[test]
fn a_trap_shows_the_crash_banner_in_the_users_language() {
    for (language, crashed, reload) in [
        ("en-US", "Something went wrong. Your conversation is saved.", "Reload"),
        ("ko-KR", "문제가 생겼습니다. 대화는 저장되어 있습니다.", "다시 불러오기"),
    ] {
        let page = AppPage::open(language).expect("the app opens");
        // An ordinary script error (an extension's, say) is not a crash of the app.
        raise(&page, "new TypeError('not the wasm')");
        assert_eq!(banner(&page), None, "{language}: a plain error shows no banner");

        raise(&page, "new WebAssembly.RuntimeError('unreachable')");
        let text = page
            .browser
            .wait_for(WAIT, "the crash banner", |b| b.try_find("#panic-banner")?.map(|e| e.text()).transpose())
            .expect("the banner appears");
        assert!(text.contains(crashed), "{language}: {text}");
        assert!(text.contains(reload), "{language}: {text}");
        let role = page.browser.execute("return document.getElementById('panic-banner').getAttribute('role');", vec![]);
        assert_eq!(role.expect("role"), Value::String("alert".into()));

        // A second trap adds no second banner.
        raise(&page, "new WebAssembly.RuntimeError('unreachable')");
        let count = page.browser.execute("return document.querySelectorAll('#panic-banner').length;", vec![]);
        assert_eq!(count.expect("count"), Value::from(1));
        // The page's own panic check would count the banner this test raised on purpose.
        page.browser.execute("document.getElementById('panic-banner').remove(); return true;", vec![]).unwrap();
    }
}

#[test]
fn the_release_wasm_carries_no_panic_messages() {
    let wasm = std::fs::read_dir(dist_dir())
        .expect("dist/ is readable")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "wasm"))
        .expect("dist/ holds the wasm");
    let bytes = std::fs::read(&wasm).expect("the wasm is readable");
    // core's message for unwrapping None: present in any build whose panics format.
    let message = b"called `Option::unwrap()` on a `None` value";
    assert!(
        !bytes.windows(message.len()).any(|w| w == message),
        "{} still formats panics: is the release built with release_env (./dev)?",
        wasm.display()
    );
}
