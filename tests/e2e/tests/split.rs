//! The release page's wasm in two parts (tools/split.mjs): the page's part starts a first visit
//! and takes a request with the rest held back by the test server; the request waits, said so,
//! and goes when the rest arrives. A returning visit starts while the rest is held and opens its
//! conversation when it arrives. A rest that cannot load is said plainly and loses nothing;
//! a conversation waiting for it to open says so and opens once it can. Leaving the page
//! before the rest is here runs none of it.
//! Every other browser suite runs the split build too, rest and placeholders included.

use std::fs;
use std::path::Path;

use deliberate_e2e::app::{assert_no_panic_in, browser_in, dist_copy, dist_dir, one_browser, STEP};
use deliberate_e2e::static_server::StaticServer;
use deliberate_e2e::webdriver::Browser;
use serde_json::{json, Value};

const ENTER: &str = "\u{E007}";

fn value(browser: &Browser, script: &str) -> Value {
    browser.execute(script, vec![]).unwrap()
}

fn rest_file() -> String {
    fs::read_dir(dist_dir())
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .find(|n| n.starts_with("deliberate-") && n.ends_with("_rest.wasm"))
        .expect("the release build has a rest wasm beside the page's")
}

/// Waits until the app's composer takes input.
fn wait_ready(browser: &Browser) {
    browser.wait_until(STEP, "the app's composer", "const a = document.getElementById('composer-input'); return !!a && !a.disabled && performance.getEntriesByName('app-ready').length > 0;")
        .unwrap();
}

/// Leaves the service worker out of `dir` (a copy of the build): its cache would serve the
/// rest, and without the rest it would fail to install.
fn without_worker(dir: &Path) {
    fs::write(dir.join("sw-register.js"), "").unwrap();
}

/// A first visit in `lang` to `server`, the composer ready.
fn first_visit(server: &StaticServer, lang: &str) -> Browser {
    let browser = browser_in(lang).expect("Chromium starts");
    browser.goto(&server.url()).unwrap();
    wait_ready(&browser);
    browser
}

/// Serves `dir` (a copy of the build) with no service worker; a first visit in `lang`.
fn first_visit_without_worker(dir: &Path, lang: &str) -> (StaticServer, Browser) {
    without_worker(dir);
    let server = StaticServer::start(dir).expect("the static server starts");
    let browser = first_visit(&server, lang);
    (server, browser)
}

/// Sends `text` and waits until the reply is shown and the conversation saved.
fn send_and_wait_saved(browser: &Browser, text: &str) {
    let area = browser.find("#composer-input").unwrap();
    area.send_keys(text).unwrap();
    area.send_keys(ENTER).unwrap();
    browser.wait_until(STEP, "the reply, saved", "return document.querySelectorAll('.message.assistant').length > 0 && document.querySelector('.app').dataset.store === 'ready';")
        .unwrap();
}

#[test]
fn a_first_visit_starts_and_takes_a_request_while_the_rest_is_held_back() {
    let _one = one_browser();
    let (server, hold) = StaticServer::start_holding(&dist_dir(), "_rest.wasm").expect("the static server starts");
    let browser = browser_in("en-US").expect("Chromium starts");
    // Not `goto`: it would wait for the page's load, and the rest is being fetched.
    browser.execute("window.location.href = arguments[0]; return true;", vec![json!(server.url())]).unwrap();
    wait_ready(&browser);
    assert_eq!(
        value(
            &browser,
            "return typeof globalThis.deliberateRest === 'function' && globalThis.deliberateRest() instanceof Promise;"
        ),
        json!(true),
        "the page runs without the rest, which is still coming"
    );
    assert_eq!(
        value(&browser, OPENING),
        json!([true, false, null]),
        "no conversation was chosen before: the welcome shows at once, with no wait for the database"
    );
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("A pipeline that summarizes IT news every morning").unwrap();
    area.send_keys(ENTER).unwrap();
    browser
        .wait_for_text(".boot-note[role=status]", "Loading the rest of the app; sends as soon as it is here.", STEP)
        .unwrap();
    assert_eq!(
        value(&browser, "return [document.getElementById('composer-input').value, document.querySelectorAll('.message.user').length];"),
        json!(["A pipeline that summarizes IT news every morning", 0]),
        "the request waits in the composer"
    );
    // A second Enter while waiting sends nothing twice.
    area.send_keys(ENTER).unwrap();

    hold.release();
    browser.wait_for_text(".message.user", "A pipeline that summarizes IT news every morning", STEP).unwrap();
    browser
        .wait_for(STEP, "the assistant's reply", |b| Ok((!b.find_all(".message.assistant")?.is_empty()).then_some(())))
        .unwrap();
    assert_eq!(
        value(&browser, "return [document.querySelectorAll('.message.user').length, document.querySelectorAll('.boot-note').length, document.getElementById('composer-input').value, globalThis.deliberateRest()];"),
        json!([1, 0, "", null]),
        "sent once, the note gone, the rest linked"
    );
    assert_no_panic_in(&browser);
}

/// Whether the conversation shows the welcome, the note of a conversation being opened, and
/// whether the message list says it is busy.
const OPENING: &str = "const log = document.querySelector('.messages'); \
     return [!!log.querySelector('.welcome'), !!log.querySelector('.opening-note'), log.getAttribute('aria-busy')];";

/// A script that returns the texts of the user's messages on the page.
const USER_MESSAGES: &str = "return [...document.querySelectorAll('.message.user')].map(e => e.textContent);";

/// The texts of the user's messages on the page.
fn user_messages(browser: &Browser) -> Vec<String> {
    serde_json::from_value(value(browser, USER_MESSAGES)).unwrap()
}

#[test]
fn a_returning_visit_starts_without_the_rest_and_opens_its_conversation_once_it_is_here() {
    let _one = one_browser();
    // The service worker would serve the rest from its cache: left out, so the server holds it.
    let dir = dist_copy("split-returning");
    without_worker(dir.path());
    let (server, hold) = StaticServer::start_holding(dir.path(), "_rest.wasm").expect("the static server starts");
    hold.release();
    let browser = first_visit(&server, "en-US");
    send_and_wait_saved(&browser, "Plan a weekend trip to the coast");

    // What a returning user has stored besides the conversation: LLM settings with a key (a
    // local server on a closed port, asked for its window only once the rest is here), the
    // session settings and a theme. The rest is held back at the server.
    let llm = json!({ "kind": "openai_compatible", "base_url": "http://127.0.0.1:9/v1", "model": "local-model" });
    browser
        .execute(
            "localStorage.setItem('deliberate.llm', arguments[0]);\
             localStorage.setItem('deliberate.llm.keys', arguments[1]);\
             localStorage.setItem('deliberate.discussion', arguments[2]);\
             localStorage.setItem('deliberate.theme', 'dark'); return true;",
            vec![
                json!(json!({ "enabled": true, "designer": llm, "separate_critic": false, "critic": llm, "remember_keys": true, "timeout_secs": 10 }).to_string()),
                json!(json!({ "designer": "sk-local", "critic": "sk-local" }).to_string()),
                json!(json!({ "max_rounds": 4, "alignment_rounds": 2, "strict": false, "context_window": 8192 }).to_string()),
            ],
        )
        .unwrap();
    // Random bits that a zero-padded format would pad (the new conversation's id): code that
    // runs for some values only must be in the page's part too.
    browser.cdp("Page.addScriptToEvaluateOnNewDocument", json!({"source": "Math.random = () => 0.001;"})).unwrap();
    hold.engage();
    browser.execute("window.location.reload(); return true;", vec![]).unwrap();
    // The app starts while the rest is held: a start that called into the rest would load it
    // synchronously and block on the held request.
    browser.wait_until(STEP, "the reloaded app's composer", "const a = document.getElementById('composer-input'); return !!a && !document.getElementById('boot-input') && performance.getEntriesByName('app-ready').length > 0;")
        .unwrap();
    assert_eq!(
        value(
            &browser,
            "return [globalThis.deliberateRest() instanceof Promise, performance.getEntriesByName('deliberate:rest-now').length, \
             document.querySelector('.app').dataset.store, document.querySelector('.status-chip').textContent, document.documentElement.dataset.theme];"
        ),
        json!([true, 0, "opening", "LLM · local-model", "dark"]),
        "started with the stored settings, the rest still coming, the database waiting for it"
    );
    assert!(user_messages(&browser).is_empty(), "the conversation opens only with the rest");
    assert_eq!(
        value(&browser, OPENING),
        json!([false, true, "true"]),
        "the conversation to resume is being opened: no new conversation's welcome meanwhile"
    );
    // A message sent now waits for the rest and for the conversation to open, and joins it.
    // (Typing runs nothing of the rest either: a closure the garbage collector takes meanwhile
    // is destroyed once the rest is here, not by loading it at once.)
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("Make it two days").unwrap();
    area.send_keys(ENTER).unwrap();
    browser
        .wait_for_text(".boot-note[role=status]", "Loading the rest of the app; sends as soon as it is here.", STEP)
        .unwrap();
    assert_eq!(
        value(&browser, "return performance.getEntriesByName('deliberate:rest-now').length;"),
        json!(0),
        "nothing of the rest was needed before it came"
    );

    hold.release();
    let texts = browser
        .wait_for(STEP, "both messages in one conversation", |b| {
            let texts: Vec<String> = serde_json::from_value(b.execute(USER_MESSAGES, vec![])?).unwrap_or_default();
            Ok((texts.len() == 2).then_some(texts))
        })
        .unwrap();
    assert!(texts[0].contains("Plan a weekend trip to the coast"), "{texts:?}");
    assert!(texts[1].contains("Make it two days"), "{texts:?}");
    assert_eq!(value(&browser, OPENING), json!([false, false, null]), "opened: the note gone, the list no longer busy");
    assert_eq!(value(&browser, "return globalThis.deliberateRest();"), Value::Null, "the rest is linked");
    assert_no_panic_in(&browser);
}

#[test]
fn a_returning_visit_whose_rest_cannot_load_says_so_and_opens_its_conversation_once_it_can() {
    let _one = one_browser();
    let dir = dist_copy("split-returning-missing-rest");
    let (_server, browser) = first_visit_without_worker(dir.path(), "en-US");
    send_and_wait_saved(&browser, "Plan a weekend trip to the coast");

    // The next visit finds no rest at the server (a network down, a deploy that removed it).
    let rest = dir.path().join(rest_file());
    let away = dir.path().join("rest.away");
    fs::rename(&rest, &away).unwrap();
    browser.execute("window.location.reload(); return true;", vec![]).unwrap();
    browser
        .wait_for_text(
            ".opening-note[role=alert]",
            "The rest of the app could not load, so your conversation cannot open yet. It is tried again on its own; nothing is lost.",
            STEP,
        )
        .unwrap();
    assert_eq!(
        value(
            &browser,
            "return [document.querySelector('.opening-note[role=alert] a').getAttribute('href'), \
             document.querySelectorAll('.message.user').length, !!document.querySelector('.welcome'), \
             performance.getEntriesByName('deliberate:rest-now').length, document.getElementById('composer-input').disabled];"
        ),
        json!(["", 0, false, 0, false]),
        "a plain reload offered, no new conversation's welcome, nothing of the rest run, the composer open"
    );

    // Back: the next try (a timer, or the browser coming back online) links it and the
    // conversation opens.
    fs::rename(&away, &rest).unwrap();
    browser.execute("window.dispatchEvent(new Event('online')); return true;", vec![]).unwrap();
    browser.wait_for_text(".message.user", "Plan a weekend trip to the coast", STEP).unwrap();
    assert_eq!(value(&browser, OPENING), json!([false, false, null]), "opened: no note, the list no longer busy");
    assert_eq!(value(&browser, "return globalThis.deliberateRest();"), Value::Null, "the rest is linked");
    assert_no_panic_in(&browser);
}

#[test]
fn a_rest_that_cannot_load_is_said_and_the_message_stays() {
    let _one = one_browser();
    let dir = dist_copy("split-missing-rest");
    fs::remove_file(dir.path().join(rest_file())).unwrap();
    let (_server, browser) = first_visit_without_worker(dir.path(), "ko-KR");
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("팀 점심 메뉴 정하기").unwrap();
    area.send_keys(ENTER).unwrap();
    browser
        .wait_for_text(
            ".boot-note[role=alert]",
            "앱의 나머지를 불러오지 못했습니다. 연결을 확인하고 다시 보내 주세요. 쓴 글은 그대로 있습니다.",
            STEP,
        )
        .unwrap();
    assert_eq!(
        value(&browser, "return [document.getElementById('composer-input').value, document.querySelectorAll('.message.user').length];"),
        json!(["팀 점심 메뉴 정하기", 0]),
        "nothing is lost and nothing half-sent"
    );
    assert_no_panic_in(&browser);
}

#[test]
fn leaving_the_page_before_the_rest_is_here_runs_no_code_of_the_rest() {
    let _one = one_browser();
    let dir = dist_copy("split-leaving-early");
    // The rest never comes: a handler that reached for it would hit a placeholder, and during
    // a real page dismissal the browser refuses the synchronous request a placeholder makes.
    fs::remove_file(dir.path().join(rest_file())).unwrap();
    let (_server, browser) = first_visit_without_worker(dir.path(), "en-US");
    // What a reload, a navigation or a close fires, then what a return from the
    // back/forward cache fires: the same listeners run, with no dismissal to refuse anything.
    assert_eq!(
        value(
            &browser,
            "window.dispatchEvent(new Event('beforeunload', { cancelable: true })); \
             window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })); \
             window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })); \
             return performance.getEntriesByName('deliberate:rest-now').length;"
        ),
        json!(0),
        "the page's own listeners for leaving and coming back are in the page's part"
    );
    assert_no_panic_in(&browser);
}

#[test]
fn a_glue_the_split_cannot_read_stops_the_build_and_changes_nothing() {
    let dir = dist_copy("split-odd-glue");
    let glue = fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "js")
                && p.file_name().unwrap().to_string_lossy().starts_with("deliberate-")
        })
        .expect("the glue");
    let js = fs::read_to_string(&glue).unwrap();
    // A wasm-bindgen that names its import object differently: the loader would not be wired.
    let odd = js.replace("\"./deliberate_bg.js\": import0,", "\"./deliberate_bg.js\": imports0,");
    assert_ne!(odd, js);
    fs::write(&glue, &odd).unwrap();
    let before: Vec<(std::path::PathBuf, Vec<u8>)> = fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| (p.clone(), fs::read(&p).unwrap()))
        .collect();
    let out = std::process::Command::new("node")
        .arg(deliberate_e2e::app::workspace_root().join("tools/split.mjs"))
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the build must stop");
    assert!(stderr.contains("split: the glue's import object is not as expected"), "{stderr}");
    for (path, bytes) in before {
        assert_eq!(fs::read(&path).unwrap(), bytes, "{} is untouched", path.display());
    }
}

/// Runs `script` in Node with the split tool's path, the built dist directory and the rest's
/// file name in `SPLIT_TOOL`, `SPLIT_DIR` and `SPLIT_REST`.
fn run_with_split_tool(script: &str) -> std::process::Output {
    std::process::Command::new("node")
        .args(["-e", script])
        .env("SPLIT_TOOL", deliberate_e2e::app::workspace_root().join("tools/split.mjs"))
        .env("SPLIT_DIR", dist_dir())
        .env("SPLIT_REST", rest_file())
        .output()
        .unwrap()
}

#[test]
fn the_build_check_links_the_halves_and_refuses_the_table_mistake_of_wasm_split_108() {
    // wasm-split 108 exported the function table under the name of wasm-bindgen's externref
    // table; the tool mends the exports by type and links both halves before it writes. Here
    // the built halves link, and the same page with that mistake put back does not.
    let script = r#"
        const fs = require("fs");
        const { SPLIT_TOOL: tool, SPLIT_DIR: dir, SPLIT_REST: rest } = process.env;
        import(tool).then((split) => {
            const page = fs.readFileSync(dir + "/" + fs.readdirSync(dir).find((f) => f.endsWith("_bg.wasm")));
            const second = fs.readFileSync(dir + "/" + rest);
            split.link(page, second);
            const wrong = Buffer.from(page);
            split.fixTableExports(wrong, () => 0x70);
            try {
                split.link(wrong, second);
                console.log("linked with the mistake");
            } catch (e) {
                console.log("refused: " + e.message);
            }
        });
    "#;
    let out = run_with_split_tool(script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("refused: "), "{stdout}");
}

#[test]
fn the_page_hands_the_rest_its_functions_through_the_table_not_as_exports() {
    // Every export costs the page's start a JS function: the functions the rest calls are in
    // the function table's last slots instead, in the order the rest imports them. Here the
    // built page exports none of them, and the rest is given a function for each. (That each is
    // the right one, the build's own link check and every browser suite running the rest show.)
    let script = r#"
        const fs = require("fs");
        const { SPLIT_TOOL: tool, SPLIT_DIR: dir, SPLIT_REST: rest } = process.env;
        import(tool).then((split) => {
            const page = new WebAssembly.Module(fs.readFileSync(dir + "/" + fs.readdirSync(dir).find((f) => f.endsWith("_bg.wasm"))));
            const second = new WebAssembly.Module(fs.readFileSync(dir + "/" + rest));
            const wanted = WebAssembly.Module.imports(second).filter((i) => i.module === "primary" && i.kind === "function");
            const exported = WebAssembly.Module.exports(page).filter((e) => e.kind === "function" && e.name.startsWith("%"));
            const imports = {};
            for (const i of WebAssembly.Module.imports(page)) (imports[i.module] ??= {})[i.name] = () => {};
            const instance = new WebAssembly.Instance(page, imports);
            const given = split.restImports(second, instance.exports, "%table").primary;
            const functions = wanted.filter((i) => typeof given[i.name] === "function");
            console.log(JSON.stringify({ wanted: wanted.length, exported: exported.length, functions: functions.length }));
        });
    "#;
    let out = run_with_split_tool(script);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(found["wanted"].as_u64().unwrap() > 100, "the rest calls the page's functions: {found}");
    assert_eq!(found["exported"], 0, "the page exports none of them: {found}");
    assert_eq!(found["functions"], found["wanted"], "each is given a function: {found}");
}
