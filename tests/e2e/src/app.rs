//! Driving the built Deliberate page: serve `dist/`, open it in Chromium, and the few
//! actions the end-to-end tests and benchmarks repeat.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::static_server::StaticServer;
use crate::webdriver::{Browser, Error};

/// How long a UI step may take before a test gives up.
pub const STEP: Duration = Duration::from_secs(20);

/// The release build to test: `$DELIBERATE_DIST`, else `<workspace>/dist`.
pub fn dist_dir() -> PathBuf {
    let dir = std::env::var_os("DELIBERATE_DIST").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("dist"));
    assert!(
        dir.join("index.html").is_file(),
        "no release build at {} — run `./dev test` (it builds dist/ first) or `./dev release`",
        dir.display()
    );
    dir
}

/// A copy of the release build's files that a test may change, in a directory of its own.
pub fn dist_copy(name: &str) -> crate::tempdir::TempDir {
    let dir = crate::tempdir::TempDir::new(name).expect("a temporary directory");
    copy_tree(&dist_dir(), dir.path());
    dir
}

/// Copies the files of `from` into `to`, folders (the reader build's) included.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).expect("the release build is readable").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).expect("a folder of the build is made");
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("a file of the build copies");
        }
    }
}

/// One Chromium at a time: the machine has two cores. Every browser test holds this first.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Waits for the other browser tests of this test binary to end (a failed one too).
pub fn one_browser() -> std::sync::MutexGuard<'static, ()> {
    ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner())
}

/// Chromium in `language` (`"ko-KR"` or `"en-US"`), 1280 × 900, on no page yet.
pub fn browser_in(language: &str) -> Result<Browser, Error> {
    Browser::builder()
        .arg(format!("--lang={language}"))
        .accept_languages(&format!("{language},{}", &language[..2]))
        .window_size(1280, 900)
        .launch()
}

/// Fails when the console of `browser` says the wasm panicked since it was last read, or the
/// page shows the crash banner (for pages not opened through `AppPage`).
pub fn assert_no_panic_in(browser: &Browser) {
    let logs = browser.browser_logs().expect("the browser log can be read");
    let panics: Vec<&str> = logs.iter().filter_map(|l| l["message"].as_str()).filter(|m| is_panic_message(m)).collect();
    assert!(panics.is_empty(), "the page panicked: {panics:?}");
    assert!(browser.try_find("#panic-banner").unwrap().is_none(), "the crash banner is shown");
}

/// The workspace's root directory.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap_or_else(|_| PathBuf::from("."))
}

/// Runs the build step `tool` (a script under `tools/`) with Node on a staged `index.html`
/// holding `html`, the way Trunk's hook runs it (`TRUNK_STAGING_DIR`): whether it succeeded,
/// the page after, and what it printed.
pub fn run_page_step(tool: &str, html: &str) -> (bool, String, String) {
    let dir = crate::tempdir::TempDir::new("page-step").expect("a temporary directory");
    std::fs::write(dir.path().join("index.html"), html).expect("the page is written");
    let out = std::process::Command::new("node")
        .arg(workspace_root().join("tools").join(tool))
        .env("TRUNK_STAGING_DIR", dir.path())
        .output()
        .expect("node runs (./dev installs it for wasm-opt)");
    let after = std::fs::read_to_string(dir.path().join("index.html")).expect("the page is there after the step");
    let log = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), after, log)
}

/// Where screenshots go: `<workspace>/target/e2e-screenshots/`.
pub fn screenshot_dir() -> PathBuf {
    workspace_root().join("target").join("e2e-screenshots")
}

/// What the browser console shows when the wasm panicked: the panic hook's message,
/// the trap that follows it, and the reactive system's and `RefCell`'s own complaints.
const PANIC_MARKERS: [&str; 6] = [
    "panicked at",
    "RuntimeError: unreachable",
    "unreachable executed",
    "already been disposed",
    "already borrowed",
    "already mutably borrowed",
];

/// Whether a browser console message says the wasm panicked.
pub fn is_panic_message(message: &str) -> bool {
    PANIC_MARKERS.iter().any(|m| message.contains(m))
}

/// Whether a browser console message is Chromium reporting the page's Content-Security-Policy:
/// something refused, or a policy it could not read.
pub fn is_csp_message(message: &str) -> bool {
    message.contains("Content Security Policy") || message.contains("Content-Security-Policy")
}

/// The page open in a browser, with its static server. Dropping it fails the test when
/// the browser console showed a panic at any time (unless the test already failed).
pub struct AppPage {
    /// The browser showing the page.
    pub browser: Browser,
    /// The server of `dist/`.
    pub server: StaticServer,
    /// Every console message read so far (reading the browser's log empties it).
    console: RefCell<Vec<String>>,
    /// The test provokes CSP refusals on purpose: dropping the page does not fail on them.
    csp_refusals_expected: Cell<bool>,
}

impl AppPage {
    /// Serves `dist/`, opens it in Chromium with the given browser language
    /// (`"ko-KR"` or `"en-US"`), and waits until the composer accepts input.
    pub fn open(language: &str) -> Result<AppPage, Error> {
        let page = Self::launch(language)?;
        page.browser.goto(&page.server.url())?;
        page.browser.wait_for_element("#composer-input", STEP)?;
        Ok(page)
    }

    /// Serves `dist/` and starts Chromium in `language`, on no page yet.
    fn launch(language: &str) -> Result<AppPage, Error> {
        let server = StaticServer::start(&dist_dir()).map_err(Error::Io)?;
        let browser = browser_in(language)?;
        Ok(AppPage { browser, server, console: RefCell::new(Vec::new()), csp_refusals_expected: Cell::new(false) })
    }

    /// Like `open`, with LLM settings stored before the app starts, as the app stores
    /// them: `settings` is the `deliberate.llm` JSON, `keys` the remembered keys.
    pub fn open_with_llm(language: &str, settings: &Value, keys: &Value) -> Result<AppPage, Error> {
        let page = Self::launch(language)?;
        // localStorage belongs to the origin: set it from any page of the origin first.
        page.browser.goto(&format!("{}seed-settings", page.server.url()))?;
        page.browser.execute(
            "localStorage.clear(); localStorage.setItem('deliberate.llm', arguments[0]); \
             localStorage.setItem('deliberate.llm.keys', arguments[1]); return true;",
            vec![Value::String(settings.to_string()), Value::String(keys.to_string())],
        )?;
        page.browser.goto(&page.server.url())?;
        page.browser.wait_for_element("#composer-input", STEP)?;
        Ok(page)
    }

    /// Starts a new, empty conversation by reloading (settings stay; the saved ones stay
    /// in the sessions list): the conversation the reload opens is one not saved yet.
    pub fn start_over(&self) -> Result<(), Error> {
        self.browser.execute(
            "localStorage.removeItem('deliberate.session'); \
             localStorage.setItem('deliberate.current', 'none-' + Math.random()); return true;",
            vec![],
        )?;
        self.browser.refresh()?;
        self.browser.wait_for_element("#composer-input", STEP)?;
        Ok(())
    }

    /// Waits until the app opened its database and wrote every step (`data-store`).
    pub fn wait_saved(&self) -> Result<(), Error> {
        self.browser.wait_for_element(".app[data-store='ready']", STEP).map(|_| ())
    }

    /// Every record of an IndexedDB store of the app's database (`sessions`, `events`).
    pub fn stored(&self, store: &str) -> Result<Vec<Value>, Error> {
        let all = self.browser.execute_async(
            "const done = arguments[arguments.length - 1]; \
             const open = indexedDB.open('deliberate'); \
             open.onerror = () => done(null); \
             open.onsuccess = () => { const db = open.result; \
               if (!db.objectStoreNames.contains(arguments[0])) { db.close(); done([]); return; } \
               const all = db.transaction(arguments[0]).objectStore(arguments[0]).getAll(); \
               all.onsuccess = () => { db.close(); done(all.result); }; \
               all.onerror = () => { db.close(); done(null); }; };",
            vec![Value::String(store.to_string())],
        )?;
        Ok(all.as_array().cloned().unwrap_or_default())
    }

    /// Clicks the export panel's JSON and Markdown buttons with downloads caught instead of
    /// saved; the two files' texts (their data: URLs decoded).
    pub fn export_both(&self) -> Result<Vec<String>, Error> {
        self.browser.execute(
            "window.__exports = []; \
             HTMLAnchorElement.prototype.click = function () { \
               window.__exports.push(decodeURIComponent(this.href.slice(this.href.indexOf(',') + 1))); }; \
             return true;",
            vec![],
        )?;
        self.browser.find(".export-panel .export-json")?.click()?;
        self.browser.find(".export-panel .export-markdown")?.click()?;
        let exports = self.browser.execute("return window.__exports;", vec![])?;
        serde_json::from_value(exports).map_err(|e| Error::Protocol(e.to_string()))
    }

    /// Types a message into the composer and presses Enter.
    pub fn send(&self, text: &str) -> Result<(), Error> {
        let area = self.browser.find("#composer-input")?;
        area.send_keys(text)?;
        area.send_keys("\u{E007}")
    }

    /// The stage the stepper marks as current ("UNDERSTAND" … "PLAN").
    pub fn stage(&self) -> Result<String, Error> {
        Ok(self.browser.find(".step.current")?.attr("data-stage")?.unwrap_or_default())
    }

    /// Waits until the stepper shows `stage`.
    pub fn wait_stage(&self, stage: &str) -> Result<(), Error> {
        self.browser.wait_for(STEP, &format!("stage {stage}"), |b| {
            let current = b.try_find(".step.current")?.map(|e| e.attr("data-stage")).transpose()?.flatten();
            Ok((current.as_deref() == Some(stage)).then_some(()))
        })
    }

    /// Waits until at least `n` elements match `css`.
    pub fn wait_count(&self, css: &str, n: usize) -> Result<usize, Error> {
        self.browser.wait_for(STEP, &format!("{n} × {css}"), |b| {
            let found = b.find_all(css)?.len();
            Ok((found >= n).then_some(found))
        })
    }

    /// Clicks the first element matching `css` whose text is `label`.
    pub fn click_text(&self, css: &str, label: &str) -> Result<(), Error> {
        for el in self.browser.find_all(css)? {
            if el.text()?.trim() == label {
                return el.click();
            }
        }
        Err(Error::Protocol(format!("no {css} with text {label:?}")))
    }

    /// Scrolls an element into view (for screenshots of a given part).
    pub fn scroll_to(&self, css: &str) -> Result<(), Error> {
        self.browser.execute(
            "const el = document.querySelector(arguments[0]); if (el) el.scrollIntoView({block: 'start'}); return !!el;",
            vec![Value::String(css.to_string())],
        )?;
        std::thread::sleep(Duration::from_millis(100));
        Ok(())
    }

    /// Waits until the element matching `css` has no animation or transition running
    /// (a drawer done sliding in, before a screenshot).
    pub fn wait_still(&self, css: &str) -> Result<(), Error> {
        self.browser.wait_for(STEP, &format!("{css} to stop moving"), |b| {
            let running = b.execute(
                "const el = document.querySelector(arguments[0]); \
                 return el ? el.getAnimations().filter(a => a.playState === 'running').length : -1;",
                vec![Value::String(css.to_string())],
            )?;
            Ok((running == 0).then_some(()))
        })
    }

    /// Saves a screenshot as `<screenshot_dir>/<name>.png` and returns the path.
    pub fn screenshot(&self, name: &str) -> Result<PathBuf, Error> {
        let path = screenshot_dir().join(format!("{name}.png"));
        self.browser.save_screenshot(&path)?;
        Ok(path)
    }

    /// Milliseconds from navigation start to the app's `app-ready` mark, if set.
    pub fn app_ready_ms(&self) -> Result<Option<f64>, Error> {
        self.mark_ms("app-ready")
    }

    /// Milliseconds from navigation start to the performance entry `name` (a mark, or a paint
    /// such as `first-contentful-paint`), if there is one.
    pub fn mark_ms(&self, name: &str) -> Result<Option<f64>, Error> {
        let v = self.browser.execute(
            "const m = performance.getEntriesByName(arguments[0]); return m.length ? m[0].startTime : null;",
            vec![serde_json::json!(name)],
        )?;
        Ok(v.as_f64())
    }

    /// Every browser console message since the page opened, oldest first.
    pub fn console_messages(&self) -> Result<Vec<String>, Error> {
        let fresh = self.browser.browser_logs()?;
        let mut all = self.console.borrow_mut();
        all.extend(fresh.iter().map(|e| e["message"].as_str().unwrap_or_default().to_string()));
        Ok(all.clone())
    }

    /// The console messages that say the wasm panicked, plus the crash banner's text if
    /// the page shows it.
    pub fn panics(&self) -> Result<Vec<String>, Error> {
        let mut found: Vec<String> = self.console_messages()?.into_iter().filter(|m| is_panic_message(m)).collect();
        if let Some(banner) = self.browser.try_find("#panic-banner")? {
            found.push(format!("crash banner shown: {}", banner.text()?));
        }
        Ok(found)
    }

    /// Fails when the page panicked at any time since it opened.
    pub fn assert_no_panic(&self) {
        let panics = self.panics().expect("the browser log can be read");
        assert!(panics.is_empty(), "the page panicked:\n{}", panics.join("\n"));
    }

    /// The console messages about the Content-Security-Policy since the page opened.
    pub fn csp_messages(&self) -> Result<Vec<String>, Error> {
        Ok(self.console_messages()?.into_iter().filter(|m| is_csp_message(m)).collect())
    }

    /// Fails when the browser refused anything under the page's policy, or could not read it.
    pub fn assert_no_csp_refusal(&self) {
        let refused = self.csp_messages().expect("the browser log can be read");
        assert!(refused.is_empty(), "the Content-Security-Policy refused something:\n{}", refused.join("\n"));
    }

    /// Says that this test provokes CSP refusals on purpose (dropping the page then checks
    /// only for panics).
    pub fn expect_csp_refusals(&self) {
        self.csp_refusals_expected.set(true);
    }
}

impl Drop for AppPage {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.assert_no_panic();
            if !self.csp_refusals_expected.get() {
                self.assert_no_csp_refusal();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_messages_are_told_from_ordinary_console_output() {
        let cases = [
            ("http://127.0.0.1:1/app.js 0:100 \"panicked at src/ui/cards.rs:10:5:\\nboom\"", true),
            ("Uncaught RuntimeError: unreachable", true),
            ("RuntimeError: unreachable executed", true),
            ("Tried to access a reactive value that has already been disposed.", true),
            ("already borrowed: BorrowMutError", true),
            ("already mutably borrowed: BorrowError", true),
            ("Failed to load resource: net::ERR_CONNECTION_REFUSED", false),
            ("The server is unreachable right now", false),
            ("deliberate: plan ready", false),
            ("", false),
        ];
        for (message, panic) in cases {
            assert_eq!(is_panic_message(message), panic, "{message}");
        }
    }

    #[test]
    fn csp_reports_are_told_from_other_console_output() {
        let cases = [
            ("Refused to connect to 'http://example.invalid/' because it violates the following Content Security Policy directive: \"connect-src 'self'\".", true),
            ("Refused to apply inline style because it violates the following Content Security Policy directive: \"style-src 'self'\".", true),
            ("The source list for the Content Security Policy directive 'connect-src' contains an invalid source: 'x'. It will be ignored.", true),
            ("Failed to load resource: net::ERR_CONNECTION_REFUSED", false),
            ("deliberate: security warning shown", false),
        ];
        for (message, csp) in cases {
            assert_eq!(is_csp_message(message), csp, "{message}");
        }
    }
}
