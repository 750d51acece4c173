//! The static shell of index.html, against the release build, with the wasm held back by the
//! test server: it paints in the user's theme and language with the app's own words, its composer
//! takes typing before the app arrives, and the app keeps what was typed (text, caret, focus)
//! and sends it if Enter was pressed, into the conversation it resumes; and when the app
//! never arrives, the shell says so and a reload keeps what was typed. The app starts from the
//! wasm module the page began compiling while it was parsed, or, where the host's file type
//! prevents that, compiles it itself.

use std::path::Path;

use deliberate_e2e::app::{assert_no_panic_in, browser_in, dist_copy, dist_dir, one_browser, STEP};
use deliberate_e2e::axe::{audit, axe_source};
use deliberate_e2e::static_server::{Hold, StaticServer};
use deliberate_e2e::webdriver::Browser;
use serde_json::{json, Value};

const ENTER: &str = "\u{E007}";

/// The stepper's labels, shell or app.
const LABELS: &str = "return [...document.querySelectorAll('.stepper .step .label')].map(e => e.textContent.trim());";

/// Chromium in `language` on the release build, whose wasm the server holds back.
fn held_page(language: &str) -> (Browser, StaticServer, Hold) {
    held_page_of(&dist_dir(), language)
}

/// The same for the build in `dir`.
fn held_page_of(dir: &Path, language: &str) -> (Browser, StaticServer, Hold) {
    let (server, hold) = StaticServer::start_holding(dir, ".wasm").expect("the static server starts");
    let browser = browser_in(language).expect("Chromium starts");
    // Not `goto`: it would wait for the page's load, which waits for the held wasm.
    browser.execute("window.location.href = arguments[0]; return true;", vec![json!(server.url())]).unwrap();
    browser.wait_for_element("#boot-input", STEP).unwrap();
    (browser, server, hold)
}

fn app_mounted(browser: &Browser) -> bool {
    browser.try_find("#composer-input").unwrap().is_some()
}

fn value(browser: &Browser, script: &str) -> Value {
    browser.execute(script, vec![]).unwrap()
}

/// The shell as it stands passes axe's serious and critical rules.
fn assert_accessible(browser: &Browser, state: &str) {
    let blocking: Vec<String> =
        audit(browser, &axe_source()).unwrap().iter().filter(|v| v.is_blocking()).map(|v| v.describe()).collect();
    assert!(blocking.is_empty(), "{state}:\n{}", blocking.join("\n"));
}

/// Where the stepper starts, shell or app: below the top bar.
const STEPPER_TOP: &str = "return document.querySelector('.stepper').getBoundingClientRect().top;";

/// The stepper starts where the app's will: the top bar of the shell is as high as the app's,
/// on a wide window and on a phone (where the app's takes two rows).
#[test]
fn the_app_takes_over_without_moving_the_stepper() {
    let _one = one_browser();
    for width in [1280, 390] {
        let (browser, _server, hold) = held_page("en-US");
        browser
            .cdp(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
            )
            .unwrap();
        let shell = value(&browser, STEPPER_TOP).as_f64().unwrap();
        hold.release();
        browser.wait_for_element("#composer-input", STEP).unwrap();
        let app = value(&browser, STEPPER_TOP).as_f64().unwrap();
        assert!((app - shell).abs() <= 3.0, "{width} px: the stepper moved from {shell} to {app}");
    }
}

#[test]
fn what_is_typed_before_the_app_arrives_stays_in_the_composer_with_its_caret_and_focus() {
    let _one = one_browser();
    let (browser, _server, hold) = held_page("en-US");
    assert_eq!(
        value(&browser, "return document.activeElement.id;"),
        json!("boot-input"),
        "the shell's composer has the focus from the first paint"
    );
    let shell_labels = value(&browser, LABELS);
    browser.find("#boot-input").unwrap().send_keys("a pipeline that summarizes IT news").unwrap();
    // The caret goes back before "IT news", where the user goes on typing once the app is there.
    browser
        .execute("const a = document.getElementById('boot-input'); a.setSelectionRange(27, 27); return true;", vec![])
        .unwrap();
    assert!(!app_mounted(&browser), "the wasm is still held: the app must not be there yet");
    assert_accessible(&browser, "the shell with text typed");

    hold.release();
    browser.wait_for_element("#composer-input", STEP).unwrap();
    assert_eq!(value(&browser, "return document.getElementById('boot-shell');"), Value::Null, "the shell is gone");
    assert_eq!(
        value(&browser, "const a = document.getElementById('composer-input'); return [a.value, a.selectionStart, a.selectionEnd, document.activeElement === a];"),
        json!(["a pipeline that summarizes IT news", 27, 27, true]),
        "the app's composer holds the text, the caret and the focus"
    );
    assert_eq!(
        value(&browser, "return document.querySelectorAll('.message.user').length;"),
        json!(0),
        "no Enter: nothing sent"
    );
    assert_eq!(value(&browser, LABELS), shell_labels, "the shell's stepper shows the app's labels");
    browser.find("#composer-input").unwrap().send_keys("every morning ").unwrap();
    assert_eq!(
        value(&browser, "return document.getElementById('composer-input').value;"),
        json!("a pipeline that summarizes every morning IT news")
    );
    assert_no_panic_in(&browser);
}

#[test]
fn an_enter_pressed_in_the_shell_sends_once_the_app_is_there_and_joins_the_resumed_conversation() {
    let _one = one_browser();
    let (browser, _server, hold) = held_page("ko-KR");
    assert_eq!(value(&browser, "return document.documentElement.lang;"), json!("ko"));
    let shell_labels = value(&browser, LABELS);
    assert_eq!(shell_labels[0], json!("이해"), "{shell_labels}");
    let area = browser.find("#boot-input").unwrap();
    assert!(area.attr("placeholder").unwrap().unwrap_or_default().starts_with("한 줄로 요청을"));
    assert_eq!(browser.find("#boot-note").unwrap().text().unwrap(), "", "no note before Enter");
    area.send_keys("팀 점심 메뉴 정하기").unwrap();
    area.send_keys(ENTER).unwrap();
    assert_eq!(
        value(&browser, "const a = document.getElementById('boot-input'); return [a.value, a.readOnly];"),
        json!(["팀 점심 메뉴 정하기", true]),
        "Enter adds no line and the text waits, read-only"
    );
    assert_eq!(browser.find("#boot-note").unwrap().text().unwrap(), "앱이 열리는 대로 보냅니다.");
    assert!(!app_mounted(&browser));
    assert_accessible(&browser, "the shell waiting to send");

    hold.release();
    browser.wait_for_text(".message.user", "팀 점심 메뉴 정하기", STEP).unwrap();
    assert_eq!(value(&browser, "return document.getElementById('composer-input').value;"), json!(""));
    assert_eq!(value(&browser, LABELS), shell_labels, "the shell's stepper shows the app's Korean labels");
    // The reply comes, and the conversation is saved.
    browser
        .wait_for(STEP, "the assistant's reply", |b| Ok((!b.find_all(".message.assistant")?.is_empty()).then_some(())))
        .unwrap();
    browser
        .wait_for(STEP, "the conversation saved", |b| {
            let v = b.execute("return document.querySelector('.app').dataset.store;", vec![])?;
            Ok((v == json!("ready")).then_some(()))
        })
        .unwrap();

    // A returning visit, the wasm held again and not served by the worker: the Enter typed in
    // the shell waits for the saved conversation to open and goes into it.
    browser
        .execute_async(
            "const done = arguments[0];\
             navigator.serviceWorker.getRegistrations()\
               .then(rs => Promise.all(rs.map(r => r.unregister())))\
               .then(() => caches.keys()).then(ks => Promise.all(ks.map(k => caches.delete(k))))\
               .then(() => done(true), () => done(false));",
            vec![],
        )
        .unwrap();
    // The user chose the dark theme: the shell paints in it too.
    browser.execute("localStorage.setItem('deliberate.theme', 'dark'); return true;", vec![]).unwrap();
    hold.engage();
    browser.execute("window.location.reload(); return true;", vec![]).unwrap();
    browser
        .wait_until(
            STEP,
            "the shell after the reload",
            "return !!document.getElementById('boot-input') && !document.getElementById('composer-input');",
        )
        .unwrap();
    assert_eq!(
        value(
            &browser,
            "return [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor];"
        ),
        json!(["dark", "rgb(17, 21, 33)"]),
        "the shell in the saved dark theme"
    );
    let area = browser.find("#boot-input").unwrap();
    area.send_keys("금요일 점심, 8명").unwrap();
    area.send_keys(ENTER).unwrap();
    hold.release();
    browser
        .wait_for(STEP, "both messages in one conversation", |b| {
            let v =
                b.execute("return [...document.querySelectorAll('.message.user')].map(e => e.textContent);", vec![])?;
            let texts: Vec<String> = serde_json::from_value(v).unwrap_or_default();
            Ok((texts.len() == 2).then_some(texts))
        })
        .map(|texts| {
            assert!(texts[0].contains("팀 점심 메뉴 정하기"), "{texts:?}");
            assert!(texts[1].contains("금요일 점심, 8명"), "{texts:?}");
        })
        .unwrap();
    assert_no_panic_in(&browser);
}

#[test]
fn when_the_wasm_never_arrives_the_shell_says_so_and_a_reload_keeps_what_was_typed() {
    let _one = one_browser();
    // A half-deployed site: the page names a wasm the server does not have.
    let site = dist_copy("boot-shell-no-wasm");
    for entry in std::fs::read_dir(site.path()).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "wasm") {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    let (browser, _server, hold) = held_page_of(site.path(), "en-US");
    let area = browser.find("#boot-input").unwrap();
    area.send_keys("a weekly digest of team updates").unwrap();
    area.send_keys(ENTER).unwrap();
    assert_eq!(browser.find("#boot-note").unwrap().text().unwrap(), "Sends as soon as the app has loaded.");

    hold.release();
    let note = browser.wait_for_text("#boot-note", "could not load", STEP).unwrap();
    assert!(note.contains("reload the page"), "{note}");
    assert_eq!(browser.find("#boot-note").unwrap().attr("role").unwrap().as_deref(), Some("alert"));
    assert_eq!(
        value(
            &browser,
            "const a = document.getElementById('boot-input'); return [a.value, a.readOnly, 'send' in a.dataset];"
        ),
        json!(["a weekly digest of team updates", false, false]),
        "the text stays, editable, and is no longer waiting to be sent"
    );
    browser.find("#boot-input").unwrap().send_keys(", on Fridays").unwrap();
    assert_accessible(&browser, "the shell saying the app did not load");

    // The reload gets the same page (the wasm still missing): the text comes back.
    browser.refresh().unwrap();
    browser.wait_for_text("#boot-note", "could not load", STEP).unwrap();
    assert_eq!(
        value(&browser, "return document.getElementById('boot-input').value;"),
        json!("a weekly digest of team updates, on Fridays")
    );
    assert!(!app_mounted(&browser));
}

/// Whether the page's early compile (index.html's first script) holds a module, and how many
/// times the page asked for its wasm.
const EARLY: &str = "const done = arguments[0]; \
     const asked = performance.getEntriesByType('resource').filter(e => e.name.endsWith('_bg.wasm')).length; \
     globalThis.deliberateWasm.then(m => done([m instanceof WebAssembly.Module, asked]), e => done(String(e)));";

fn wait_ready(browser: &Browser) {
    browser
        .wait_until(STEP, "the app's composer", "return performance.getEntriesByName('app-ready').length > 0;")
        .unwrap();
}

#[test]
fn the_app_starts_from_the_wasm_compiled_while_the_page_is_parsed_or_compiles_it_itself_where_the_host_prevents_that() {
    let _one = one_browser();
    let server = StaticServer::start(&dist_dir()).expect("the static server starts");
    let browser = browser_in("en-US").expect("Chromium starts");
    browser.goto(&server.url()).unwrap();
    wait_ready(&browser);
    assert_eq!(
        browser.execute_async(EARLY, vec![]).unwrap(),
        json!([true, 1]),
        "the start took the module compiled early, from the page's one request for its wasm"
    );

    // A host that serves the wasm as application/octet-stream: streaming compilation refuses
    // it, the promise holds a second fetch instead, and the glue compiles that from its bytes.
    let plain = StaticServer::start_retyped(&dist_dir(), ".wasm", "application/octet-stream")
        .expect("the static server starts");
    browser.goto(&plain.url()).unwrap();
    wait_ready(&browser);
    assert_eq!(browser.execute_async(EARLY, vec![]).unwrap(), json!([false, 2]));
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("A pipeline that summarizes IT news every morning").unwrap();
    area.send_keys(ENTER).unwrap();
    browser.wait_for_text(".message.user", "A pipeline that summarizes IT news every morning", STEP).unwrap();
    browser
        .wait_for(STEP, "the assistant's reply", |b| Ok((!b.find_all(".message.assistant")?.is_empty()).then_some(())))
        .unwrap();
    assert_no_panic_in(&browser);
}
