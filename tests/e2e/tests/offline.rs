//! Offline and installable, against the release build: the service worker serves the app
//! with the server stopped, the manifest is linked and complete, a new deploy is offered
//! (not forced) as a reload; and the post_build hook that fills in the worker's file list.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use deliberate_e2e::app::{assert_no_panic_in, browser_in, dist_copy, dist_dir, one_browser, workspace_root, STEP};
use deliberate_e2e::http::send;
use deliberate_e2e::mock_llm::{MockConfig, MockLlm};
use deliberate_e2e::static_server::StaticServer;
use deliberate_e2e::tempdir::TempDir;
use deliberate_e2e::webdriver::Browser;
use serde_json::{json, Value};

/// Installing the worker downloads the whole build again (the test server says no-store).
const INSTALL: Duration = Duration::from_secs(40);

/// Waits until a service worker controls the page.
fn wait_controlled(browser: &Browser) {
    browser
        .wait_until(
            INSTALL,
            "a service worker to control the page",
            "return !!(navigator.serviceWorker && navigator.serviceWorker.controller);",
        )
        .unwrap();
}

/// Waits for the app's `app-ready` mark (the composer accepts input).
fn wait_app_ready(browser: &Browser) {
    browser.wait_until(STEP, "app-ready", "return performance.getEntriesByName('app-ready').length > 0;").unwrap();
}

/// The names of the page's Cache Storage caches.
fn cache_names(browser: &Browser) -> Vec<String> {
    let v = browser.execute_async("const done = arguments[0]; caches.keys().then(done, () => done(null));", vec![]);
    serde_json::from_value(v.unwrap()).unwrap()
}

/// The URLs kept in the cache named `name`.
fn kept_urls(browser: &Browser, name: &str) -> Vec<String> {
    let v = browser.execute_async(
        "const done = arguments[1]; caches.open(arguments[0]).then(c => c.keys()).then(rs => done(rs.map(r => r.url)), () => done(null));",
        vec![json!(name)],
    );
    serde_json::from_value(v.unwrap()).unwrap()
}

/// The constant a line of the served sw.js sets, e.g. `VERSION`.
fn sw_line<'a>(sw: &'a str, name: &str) -> &'a str {
    let prefix = format!("const {name} = ");
    sw.lines().find(|l| l.trim_start().starts_with(&prefix)).unwrap_or_else(|| panic!("no {name} in sw.js:\n{sw}"))
}

#[test]
fn the_app_starts_and_answers_with_the_server_stopped() {
    let _one = one_browser();
    let server = StaticServer::start(&dist_dir()).unwrap();
    let url = server.url();
    let browser = browser_in("en-US").expect("Chromium starts");
    browser.goto(&url).unwrap();
    wait_app_ready(&browser);
    wait_controlled(&browser);
    // The first install is no update: nothing to offer.
    assert!(browser.try_find("#update-notice").unwrap().is_none(), "no update notice on the first visit");
    let caches = cache_names(&browser);
    assert_eq!(caches.len(), 1, "{caches:?}");
    assert!(caches[0].starts_with("deliberate-"), "{caches:?}");

    drop(server);
    let down = send("GET", &url, &[], None, Duration::from_secs(2));
    assert!(down.is_err(), "the server is stopped");

    browser.refresh().unwrap();
    wait_app_ready(&browser);
    assert_eq!(browser.find(".restart").unwrap().text().unwrap(), "Restart");
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("Classify support tickets into a table").unwrap();
    area.send_keys("\u{E007}").unwrap();
    browser
        .wait_for(STEP, "three designs, offline", |b| {
            let current = b.try_find(".step.current")?.map(|e| e.attr("data-stage")).transpose()?.flatten();
            let designs = b.find_all(".design-card")?.len();
            Ok((current.as_deref() == Some("DEBATE") && designs == 3).then_some(()))
        })
        .unwrap();
    // What was done offline was saved: any navigation of the origin (a query included)
    // gets the kept page, which reopens the conversation where it was.
    browser.goto(&format!("{url}?from=offline")).unwrap();
    wait_app_ready(&browser);
    // The conversation opens once the rest of the wasm is linked, after the composer is up.
    browser
        .wait_until(
            STEP,
            "the saved conversation, open",
            "return document.querySelector('.app').dataset.store === 'ready';",
        )
        .unwrap();
    assert_eq!(browser.find(".step.current").unwrap().attr("data-stage").unwrap().as_deref(), Some("DEBATE"));
    assert_eq!(browser.find_all(".design-card").unwrap().len(), 3);
    // The reader build opens conversations an earlier version saved: on the first install
    // there are none, and it is not downloaded (the update test below finds it kept).
    let kept = kept_urls(&browser, &caches[0]);
    assert!(kept.iter().any(|u| u.ends_with(".wasm")), "{kept:?}");
    assert!(!kept.iter().any(|u| u.contains("/reader/")), "the first install keeps no reader file: {kept:?}");
    assert_no_panic_in(&browser);
}

#[test]
fn the_manifest_is_linked_and_names_the_app_and_its_icons() {
    let _one = one_browser();
    let server = StaticServer::start(&dist_dir()).unwrap();
    let browser = browser_in("ko-KR").expect("Chromium starts");
    browser.goto(&server.url()).unwrap();
    wait_app_ready(&browser);
    let read = r#"
const done = arguments[0];
const link = document.querySelector('link[rel="manifest"]');
if (!link) { done({error: 'no manifest link'}); return; }
(async () => {
  try {
    const resp = await fetch(link.href);
    const manifest = await resp.json();
    const icons = [];
    for (const icon of manifest.icons || []) {
      const r = await fetch(new URL(icon.src, link.href));
      const bitmap = await createImageBitmap(await r.blob());
      icons.push({sizes: icon.sizes, type: r.headers.get('content-type'), width: bitmap.width, height: bitmap.height});
    }
    done({type: resp.headers.get('content-type'), manifest, icons});
  } catch (e) {
    done({error: String(e)});
  }
})();
"#;
    let got = browser.execute_async(read, vec![]).unwrap();
    assert_eq!(got["error"], Value::Null, "{got}");
    assert_eq!(got["type"], "application/manifest+json");
    let m = &got["manifest"];
    assert_eq!(m["name"], "Deliberate");
    assert_eq!(m["short_name"], "Deliberate");
    assert_eq!(m["start_url"], "./");
    assert_eq!(m["display"], "standalone");
    // The light theme's accent and background (www/style.css).
    assert_eq!(m["theme_color"], "#3b5bdb");
    assert_eq!(m["background_color"], "#f6f7fb");
    let description = m["description"].as_str().unwrap();
    assert!(description.contains("plan") && description.contains("계획"), "{description}");
    let icons = got["icons"].as_array().unwrap();
    let sizes: Vec<(&str, &str, u64, u64)> = icons
        .iter()
        .map(|i| {
            (
                i["sizes"].as_str().unwrap(),
                i["type"].as_str().unwrap(),
                i["width"].as_u64().unwrap(),
                i["height"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(sizes, [("192x192", "image/png", 192, 192), ("512x512", "image/png", 512, 512)]);
    assert_no_panic_in(&browser);
}

#[test]
fn a_new_deploy_is_offered_as_a_reload_and_taken_only_when_asked() {
    let _one = one_browser();
    let site = dist_copy("offline-dist");
    let server = StaticServer::start(site.path()).unwrap();
    let browser = browser_in("ko-KR").expect("Chromium starts");
    browser.goto(&server.url()).unwrap();
    wait_app_ready(&browser);
    wait_controlled(&browser);
    let first = cache_names(&browser);

    // A new build: sw.js with another version (same files, as after a change of sw.js only).
    let sw_path = site.path().join("sw.js");
    let sw = fs::read_to_string(&sw_path).unwrap();
    let version = sw_line(&sw, "VERSION").to_string();
    fs::write(&sw_path, sw.replace(&version, "const VERSION = 'e2e-next'; // precache: version")).unwrap();

    // Something of the running page that a reload would lose.
    browser.execute("window.e2eSamePage = true; return true;", vec![]).unwrap();
    browser
        .execute_async(
            "const done = arguments[0]; navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => done(true), e => done(String(e)));",
            vec![],
        )
        .unwrap();
    let notice = browser.wait_for_text("#update-notice", "새 버전이 준비되었습니다.", INSTALL).unwrap();
    assert!(notice.contains("새 버전"), "{notice}");
    let still = browser.execute("return window.e2eSamePage === true;", vec![]).unwrap();
    assert_eq!(still, json!(true), "the page did not reload by itself");
    assert_eq!(cache_names(&browser).len(), 2, "the new version is kept next to the running one");

    let shot = deliberate_e2e::app::screenshot_dir().join("offline-update-notice.png");
    browser.save_screenshot(&shot).unwrap();
    let button = browser.find("#update-notice button").unwrap();
    assert_eq!(button.text().unwrap(), "새로 고침");
    button.click().unwrap();
    browser
        .wait_until(
            STEP,
            "the reload into the new version",
            "return window.e2eSamePage === undefined && document.readyState === 'complete';",
        )
        .unwrap();
    wait_app_ready(&browser);
    assert!(browser.try_find("#update-notice").unwrap().is_none(), "the new version runs: nothing to offer");
    browser
        .wait_for(STEP, &format!("the old cache {first:?} to be deleted"), |b| {
            Ok((cache_names(b) == ["deliberate-e2e-next"]).then_some(()))
        })
        .unwrap();
    // An update keeps the reader build (conversations the earlier version saved may need it):
    // its page opens offline, as itself.
    let kept = kept_urls(&browser, "deliberate-e2e-next");
    assert!(kept.iter().any(|u| u.contains("/reader/") && u.ends_with(".wasm")), "{kept:?}");
    let url = server.url();
    drop(server);
    browser.goto(&format!("{url}reader/")).unwrap();
    wait_app_ready(&browser);
    let wasm = browser
        .execute(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.wasm'));",
            vec![],
        )
        .unwrap();
    assert!(
        wasm.as_array().is_some_and(|w| w.len() == 1 && w[0].as_str().unwrap_or("").contains("/reader/")),
        "{wasm}"
    );
    assert_no_panic_in(&browser);
}

/// A staged build as Trunk leaves it for the post_build hook.
fn staged(dir: &Path, wasm_name: &str, index: &str) {
    let www = workspace_root().join("www");
    fs::copy(www.join("sw.js"), dir.join("sw.js")).unwrap();
    fs::copy(www.join("sw-register.js"), dir.join("sw-register.js")).unwrap();
    fs::write(dir.join("index.html"), index).unwrap();
    fs::write(dir.join("returning.html"), "<p>kept</p>").unwrap();
    fs::write(dir.join(wasm_name), b"\0asm").unwrap();
    fs::write(dir.join("style-0011.css"), "body{}").unwrap();
}

/// Runs tools/precache.sh on a staged directory; its exit status and the two files it fills.
fn run_hook(dir: &Path, profile: &str) -> (bool, String, String) {
    let status = Command::new("bash")
        .arg(workspace_root().join("tools/precache.sh"))
        .env("TRUNK_STAGING_DIR", dir)
        .env("TRUNK_PROFILE", profile)
        .status()
        .unwrap();
    let sw = fs::read_to_string(dir.join("sw.js")).unwrap_or_default();
    let register = fs::read_to_string(dir.join("sw-register.js")).unwrap_or_default();
    (status.success(), sw, register)
}

#[test]
fn the_hook_lists_the_build_and_versions_it_by_its_files_not_by_index_html() {
    let a = TempDir::new("precache-a").unwrap();
    staged(a.path(), "app-aaaa_bg.wasm", "<p>one</p>");
    let (ok, sw_a, register) = run_hook(a.path(), "release");
    assert!(ok);
    assert_eq!(
        sw_line(&sw_a, "FILES"),
        r#"const FILES = ["./", "app-aaaa_bg.wasm", "style-0011.css", "sw-register.js"]; // precache: files"#
    );
    assert!(register.contains("const ENABLED = true;"), "{register}");
    let comment_lines = sw_a.lines().chain(register.lines()).filter(|l| l.trim_start().starts_with("//")).count();
    assert_eq!(comment_lines, 0, "comments are stripped:\n{sw_a}\n{register}");

    // index.html rewritten (as the CSP hook does): same version. Another wasm: another version.
    let cases = [("app-aaaa_bg.wasm", "<p>two</p>", true), ("app-bbbb_bg.wasm", "<p>one</p>", false)];
    let version_a = sw_line(&sw_a, "VERSION");
    assert!(!version_a.contains("unbuilt"), "{version_a}");
    for (wasm, index, same) in cases {
        let b = TempDir::new("precache-b").unwrap();
        staged(b.path(), wasm, index);
        let (ok, sw_b, _) = run_hook(b.path(), "release");
        assert!(ok);
        assert_eq!(sw_line(&sw_b, "VERSION") == version_a, same, "{wasm} {index}");
    }
    // The page the worker keeps is returning.html, not listed by its name: a change to it
    // alone is a new version (a returning visit would otherwise keep the old page).
    let c = TempDir::new("precache-c").unwrap();
    staged(c.path(), "app-aaaa_bg.wasm", "<p>one</p>");
    fs::write(c.path().join("returning.html"), "<p>kept, changed</p>").unwrap();
    let (ok, sw_c, _) = run_hook(c.path(), "release");
    assert!(ok);
    assert_eq!(sw_line(&sw_c, "FILES"), sw_line(&sw_a, "FILES"));
    assert_ne!(sw_line(&sw_c, "VERSION"), version_a);
}

#[test]
fn the_hook_leaves_debug_builds_without_a_worker_and_refuses_odd_builds() {
    let debug = TempDir::new("precache-debug").unwrap();
    staged(debug.path(), "app-aaaa_bg.wasm", "<p>one</p>");
    let (ok, sw, register) = run_hook(debug.path(), "debug");
    assert!(ok);
    assert!(register.contains("const ENABLED = false;"), "{register}");
    assert!(sw.contains("const VERSION = 'unbuilt';"), "{sw}");

    // A name that cannot go into the list unescaped, and a missing sw.js, fail the build.
    let odd = TempDir::new("precache-odd").unwrap();
    staged(odd.path(), "app 'x'.wasm", "<p>one</p>");
    assert!(!run_hook(odd.path(), "release").0);
    let missing = TempDir::new("precache-missing").unwrap();
    staged(missing.path(), "app-aaaa_bg.wasm", "<p>one</p>");
    fs::remove_file(missing.path().join("sw.js")).unwrap();
    assert!(!run_hook(missing.path(), "release").0);
    let no_page = TempDir::new("precache-no-page").unwrap();
    staged(no_page.path(), "app-aaaa_bg.wasm", "<p>one</p>");
    fs::remove_file(no_page.path().join("returning.html")).unwrap();
    assert!(!run_hook(no_page.path(), "release").0, "a release build without returning.html fails");
}

/// Runs tools/returning_page.mjs on `index`: its exit status, returning.html, and its log.
fn returning_page(index: &str) -> (bool, String, String) {
    let dir = TempDir::new("returning-page").unwrap();
    fs::write(dir.path().join("index.html"), index).unwrap();
    let out = Command::new("node")
        .arg(workspace_root().join("tools/returning_page.mjs"))
        .env("TRUNK_STAGING_DIR", dir.path())
        .output()
        .expect("node runs (./dev installs it for wasm-opt)");
    assert_eq!(fs::read_to_string(dir.path().join("index.html")).unwrap(), index, "index.html is left as it was");
    let page = fs::read_to_string(dir.path().join("returning.html")).unwrap_or_default();
    let log = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), page, log)
}

#[test]
fn the_returning_page_is_index_html_without_its_shell() {
    let index = fs::read_to_string(workspace_root().join("index.html")).unwrap();
    let (ok, page, log) = returning_page(&index);
    assert!(ok, "{log}");
    let (start, end) = ("<!-- shell: start -->", "<!-- shell: end -->");
    let before = &index[..index.find(start).unwrap()];
    let after = &index[index.find(end).unwrap() + end.len()..];
    assert!(page.starts_with(before) && page.ends_with(after), "only the shell is replaced:\n{page}");
    for gone in ["boot-shell", "boot-input", "shell-input", "shell: start", "shell: end"] {
        assert!(!page.contains(gone), "{gone} is left in the returning page");
    }
    // In its place one inline script, www/returning.js without its comment lines.
    let middle = &page[before.len()..page.len() - after.len()];
    assert!(middle.starts_with("<script>") && middle.ends_with("</script>"), "{middle}");
    assert_eq!(middle.matches("<script").count(), 1, "{middle}");
    assert!(middle.contains("boot-note") && middle.contains("앱을 불러오지 못했습니다"), "{middle}");
    assert!(!middle.contains("//"), "comments are left out: {middle}");
    // The early compile, the theme and language, the policy and everything else of the page stay.
    assert!(page.contains("globalThis.deliberateWasm") && page.contains("Content-Security-Policy"));
    assert!(page.contains("localStorage.getItem(\"deliberate.theme\")"));

    // A page that does not mark its shell once, start then end, fails the build.
    for bad in [index.replace(start, ""), index.replace(end, ""), index.replace(end, &format!("{end}{start}"))] {
        let (ok, _, log) = returning_page(&bad);
        assert!(!ok, "a page with its markers missing or doubled was taken");
        assert!(log.contains("shell: start"), "{log}");
    }
}

/// Whether the page of this visit ran the static shell's script.
fn shell_ran(browser: &Browser) -> bool {
    browser.execute("return performance.getEntriesByName('shell-input').length > 0;", vec![]).unwrap() == json!(true)
}

/// Serves `site`, opens it in an English Chromium and waits until the app stands and a
/// service worker controls it: the server, its address and the browser.
fn opened_under_the_worker(site: &Path) -> (StaticServer, String, Browser) {
    let server = StaticServer::start(site).unwrap();
    let url = server.url();
    let browser = browser_in("en-US").expect("Chromium starts");
    browser.goto(&url).unwrap();
    wait_app_ready(&browser);
    assert!(shell_ran(&browser), "a first visit gets index.html from the network, shell and all");
    wait_controlled(&browser);
    (server, url, browser)
}

/// The server's page gets another title, "Deliberate (server)", as a deploy of the page would
/// change it: a page with that title came from the network.
fn change_the_served_title(site: &Path) {
    let path = site.join("index.html");
    let index = fs::read_to_string(&path).unwrap();
    let changed = index.replacen("<title>Deliberate</title>", "<title>Deliberate (server)</title>", 1);
    assert_ne!(changed, index, "the page has the title the test changes");
    fs::write(path, changed).unwrap();
}

/// A visit of the app's address, once the worker keeps the app, is answered from the kept
/// returning.html: no static shell (the app itself is the first paint), the user's theme and
/// language set before it, and no wait for the network, which a new deploy reaches as an
/// offered reload instead. Other page loads still go to the network first. If a kept file is
/// gone and the network is down, the page says so in the user's language.
#[test]
fn a_visit_the_worker_answers_gets_the_kept_page_without_the_shell_or_the_network() {
    let _one = one_browser();
    let site = dist_copy("returning-dist");
    let (_server, url, browser) = opened_under_the_worker(site.path());
    // The user reads Korean, in the dark theme.
    browser
        .execute(
            "localStorage.setItem('deliberate.lang', 'ko'); localStorage.setItem('deliberate.theme', 'dark'); return true;",
            vec![],
        )
        .unwrap();
    // The server's page changes: a visit the worker answers does not wait for it, or see it.
    change_the_served_title(site.path());

    browser.goto(&url).unwrap();
    wait_app_ready(&browser);
    assert_eq!(browser.title().unwrap(), "Deliberate", "the kept page, not the server's");
    assert!(!shell_ran(&browser), "the kept page has no shell");
    assert!(browser.try_find("#boot-shell").unwrap().is_none());
    assert_eq!(
        browser
            .execute(
                "return [document.documentElement.lang, document.documentElement.dataset.theme, \
                 getComputedStyle(document.body).backgroundColor];",
                vec![]
            )
            .unwrap(),
        json!(["ko", "dark", "rgb(17, 21, 33)"]),
        "the saved language and theme"
    );
    browser.wait_for_text(".restart", "다시 시작", STEP).unwrap();
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("매주 금요일 팀 점심 메뉴 정하기").unwrap();
    area.send_keys("\u{E007}").unwrap();
    browser.wait_for_text(".message.user", "팀 점심", STEP).unwrap();

    // Another page load of the origin (here a query) goes to the network first.
    browser.goto(&format!("{url}?from=link")).unwrap();
    wait_app_ready(&browser);
    assert_eq!(browser.title().unwrap(), "Deliberate (server)");
    assert!(shell_ran(&browser), "the network's page has the shell");
    let logs = browser.browser_logs().unwrap();
    let refused: Vec<&Value> =
        logs.iter().filter(|l| l["message"].as_str().is_some_and(|m| m.contains("Content Security Policy"))).collect();
    assert!(refused.is_empty(), "the kept page's policy allows its own scripts: {refused:?}");
    assert_no_panic_in(&browser);

    // A kept file gone (a browser that evicted part of the cache) and gone from the server
    // too (a newer deploy): the page says the app could not load, instead of staying blank.
    let removed = browser
        .execute_async(
            "const done = arguments[0];\
             caches.keys().then(ks => caches.open(ks[0])).then(c => c.keys().then(rs => \
               Promise.all(rs.filter(r => r.url.endsWith('_bg.wasm')).map(r => c.delete(r))))) \
             .then(gone => done(gone.length), () => done(-1));",
            vec![],
        )
        .unwrap();
    assert_eq!(removed, json!(1), "the page's wasm was kept, and is gone");
    for entry in fs::read_dir(site.path()).unwrap().flatten() {
        if entry.file_name().to_string_lossy().ends_with("_bg.wasm") {
            fs::remove_file(entry.path()).unwrap();
        }
    }
    browser.goto(&url).unwrap();
    let note = browser.wait_for_text("#boot-note[role=alert]", "앱을 불러오지 못했습니다", STEP).unwrap();
    assert!(note.contains("페이지를 다시 불러오세요"), "{note}");
    assert!(browser.try_find("#composer-input").unwrap().is_none());
}

/// The page the worker keeps is answered without the network, so a new deploy must reach a
/// returning visit through the worker: the visit itself finds the new sw.js (no explicit
/// update() call here) and the page offers the reload.
#[test]
fn a_visit_answered_from_the_cache_still_finds_a_new_deploy_and_offers_it() {
    let _one = one_browser();
    let site = dist_copy("returning-update-dist");
    let (_server, url, browser) = opened_under_the_worker(site.path());
    browser.goto(&url).unwrap();
    wait_app_ready(&browser);
    assert!(!shell_ran(&browser), "the kept page");
    assert!(browser.try_find("#update-notice").unwrap().is_none(), "nothing new yet");

    let sw_path = site.path().join("sw.js");
    let sw = fs::read_to_string(&sw_path).unwrap();
    let version = sw_line(&sw, "VERSION").to_string();
    fs::write(&sw_path, sw.replace(&version, "const VERSION = 'e2e-next'; // precache: version")).unwrap();
    browser.goto(&url).unwrap();
    wait_app_ready(&browser);
    assert!(!shell_ran(&browser), "still the kept page of the running version");
    let notice = browser.wait_for_text("#update-notice", "A new version is ready.", INSTALL).unwrap();
    assert!(notice.contains("Reload"), "{notice}");
    browser.execute("window.e2eSamePage = true; return true;", vec![]).unwrap();
    browser.find("#update-notice button").unwrap().click().unwrap();
    // The page reloads into the new version; only then are its caches asked for (a script
    // running across the reload would never return).
    browser
        .wait_until(
            STEP,
            "the reload into the new version",
            "return window.e2eSamePage === undefined && document.readyState === 'complete';",
        )
        .unwrap();
    browser
        .wait_for(STEP, "the new version's cache alone", |b| {
            Ok((cache_names(b) == ["deliberate-e2e-next"]).then_some(()))
        })
        .unwrap();
    wait_app_ready(&browser);
    assert!(!shell_ran(&browser), "the new version's kept page");
    assert_no_panic_in(&browser);
}

/// A browser without the Static Routing API (Firefox and Safari today) hands every request to
/// the worker's fetch handler: it too answers a visit of the app's address with the kept page,
/// without the network, and other page loads from the network.
#[test]
fn without_static_routing_the_fetch_handler_answers_the_apps_address_from_the_cache() {
    let _one = one_browser();
    let site = dist_copy("returning-handler-dist");
    let sw_path = site.path().join("sw.js");
    let sw = fs::read_to_string(&sw_path).unwrap();
    let check = "if (typeof event.addRoutes !== 'function') return Promise.resolve();";
    assert!(sw.contains(check), "the worker adds its routes only where the browser can");
    fs::write(&sw_path, sw.replacen(check, "return Promise.resolve();", 1)).unwrap();
    let (_server, url, browser) = opened_under_the_worker(site.path());
    change_the_served_title(site.path());

    browser.goto(&url).unwrap();
    wait_app_ready(&browser);
    let navigation =
        browser.execute("return performance.getEntriesByType('navigation')[0].workerStart > 0;", vec![]).unwrap();
    assert_eq!(navigation, json!(true), "the fetch handler answered the page");
    assert_eq!(browser.title().unwrap(), "Deliberate", "the kept page, not the server's");
    assert!(!shell_ran(&browser), "the kept page has no shell");
    browser.goto(&format!("{url}?from=link")).unwrap();
    wait_app_ready(&browser);
    assert_eq!(browser.title().unwrap(), "Deliberate (server)");
    assert!(shell_ran(&browser));
    assert_no_panic_in(&browser);
}

/// The LLM's requests go straight to the network: the worker's fetch handler never sees
/// them (each would otherwise wait for it, and after the worker has idled, for the worker to
/// start). The build's own files are read from the worker's cache by the browser, also
/// without the handler; other same-origin requests still reach it. The test serves a worker
/// that also notes every request its handler is given.
#[test]
fn llm_requests_pass_the_service_worker_by() {
    let _one = one_browser();
    let dist = dist_copy("offline-dist");
    let sw_path = dist.path().join("sw.js");
    let sw = fs::read_to_string(&sw_path).unwrap();
    let anchor = "const request = event.request;";
    assert!(sw.contains(anchor), "the worker's fetch handler reads event.request");
    let noted = sw.replacen(anchor, &format!("{anchor} self.seen.push(request.method + ' ' + request.url);"), 1)
        + "\nself.seen = [];\nself.addEventListener('message', (e) => { if (e.data === 'seen?') e.source.postMessage(self.seen); });\n";
    fs::write(&sw_path, noted).unwrap();
    let server = StaticServer::start(dist.path()).unwrap();
    let mock = MockLlm::start(MockConfig::default()).unwrap();
    let browser = browser_in("en-US").expect("Chromium starts");
    browser.goto(&server.url()).unwrap();
    browser
        .execute(
            "localStorage.setItem('deliberate.llm', arguments[0]); return true;",
            vec![Value::String(mock.app_settings(30).to_string())],
        )
        .unwrap();
    wait_controlled(&browser);
    // Loaded again under the worker, with the LLM configured.
    browser.refresh().unwrap();
    wait_app_ready(&browser);
    let area = browser.find("#composer-input").unwrap();
    area.send_keys("Classify support tickets into a table").unwrap();
    area.send_keys("\u{E007}").unwrap();
    let requests = mock.wait_for_finished(1, STEP);
    assert!(!requests.is_empty(), "the page called the mock");
    // A same-origin GET the worker keeps nothing for: its handler sees it (so an empty list
    // below means the requests passed it by, not that nothing was noted).
    let status = browser
        .execute_async(
            "const done = arguments[0]; fetch('not-kept.txt').then(r => done(r.status), () => done(0));",
            vec![],
        )
        .unwrap();
    assert_eq!(status, json!(404), "the test server answers a file it does not have");
    let seen = browser
        .execute_async(
            "const done = arguments[0]; navigator.serviceWorker.onmessage = (e) => done(e.data); \
             navigator.serviceWorker.controller.postMessage('seen?');",
            vec![],
        )
        .unwrap();
    let seen: Vec<String> = serde_json::from_value(seen).unwrap();
    assert!(
        seen.iter().any(|r| r.starts_with("GET ") && r.ends_with("/not-kept.txt")),
        "the worker's handler saw the same-origin GET: {seen:?}"
    );
    let llm: Vec<&String> = seen.iter().filter(|r| r.contains(&mock.url())).collect();
    assert!(llm.is_empty(), "the worker saw requests to the LLM: {llm:?}");
    // The build's files were read from the worker's cache by the browser's own routing: the
    // reload fetched the glue and the wasm without handing them to the handler.
    let build: Vec<&String> = seen.iter().filter(|r| r.ends_with(".wasm") || r.contains("/deliberate-")).collect();
    assert!(build.is_empty(), "the build's files went through the worker's handler: {build:?}");
    assert_no_panic_in(&browser);
}
