//! A small W3C WebDriver client for headless Chromium through ChromeDriver.
//!
//! `Browser::launch()` starts its own ChromeDriver on a free port with a fresh
//! profile; dropping the `Browser` (also while a test panics) ends the session and
//! kills ChromeDriver and every Chromium process it started.
//!
//! Processes are found three ways, so none survive: ChromeDriver runs in its own
//! process group (Chromium and its zygote children inherit it); every process
//! started from it inherits a unique environment tag (which reaches the crashpad
//! handlers that leave the group); and Chromium's command line names the unique
//! profile directory.

use std::fmt;
use std::fs::{self, File};
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Map, Value};

use crate::http::{self, HttpError};
use crate::tempdir::TempDir;

/// The W3C web element identifier: the key under which an element reference travels
/// in JSON (WebDriver spec, "Elements").
pub const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The Chromium flags every browser gets: headless, and quiet on a closed network.
pub const REQUIRED_ARGS: [&str; 8] = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
];

const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";
const DEFAULT_CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const READY_TIMEOUT: Duration = Duration::from_secs(20);
const SESSION_TIMEOUT: Duration = Duration::from_secs(60);
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(30);
const POLL_INTERVAL: Duration = Duration::from_millis(50);
const PAGE_TEXT_LIMIT: usize = 2000;
/// The environment variable that tags every process a `Browser` starts.
const TAG_VAR: &str = "DELIBERATE_E2E_BROWSER_TAG";

/// What went wrong while driving the browser.
#[derive(Debug)]
pub enum Error {
    /// ChromeDriver or Chromium could not be started; says why and what to check.
    Launch(String),
    /// Talking to ChromeDriver failed at the HTTP level.
    Http(HttpError),
    /// ChromeDriver answered a command with a W3C error.
    WebDriver {
        /// The command, e.g. `POST /element`.
        command: String,
        /// The HTTP status.
        status: u16,
        /// The W3C error code, e.g. `no such element`.
        error: String,
        /// The driver's message.
        message: String,
    },
    /// A `wait_for` ran out of time.
    Timeout {
        /// What was awaited.
        what: String,
        /// How long it waited.
        waited: Duration,
        /// The page's `document.body.innerText` at that moment (clipped).
        page_text: String,
    },
    /// An answer did not have the shape the protocol promises.
    Protocol(String),
    /// A local file operation failed (screenshots, profile directory).
    Io(io::Error),
}

impl Error {
    /// Whether this is the W3C error with this code (e.g. `no such element`).
    pub fn is_webdriver(&self, code: &str) -> bool {
        matches!(self, Error::WebDriver { error, .. } if error == code)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Launch(m) => write!(f, "could not start the browser: {m}"),
            Error::Http(e) => write!(f, "talking to ChromeDriver failed: {e}"),
            Error::WebDriver { command, status, error, message } => {
                let first_line = message.lines().next().unwrap_or("");
                write!(f, "{command} failed ({status} {error}): {first_line}")
            }
            Error::Timeout { what, waited, page_text } => write!(
                f,
                "timed out after {:.1}s waiting for {what}; the page said:\n---\n{page_text}\n---",
                waited.as_secs_f64()
            ),
            Error::Protocol(m) => write!(f, "unexpected WebDriver answer: {m}"),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<HttpError> for Error {
    fn from(e: HttpError) -> Self {
        Error::Http(e)
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// Options for launching a browser; `Browser::launch()` uses the defaults.
#[derive(Debug, Clone)]
pub struct BrowserBuilder {
    args: Vec<String>,
    prefs: Map<String, Value>,
    window: (u32, u32),
    chromium: Option<PathBuf>,
    chromedriver: Option<PathBuf>,
}

impl Default for BrowserBuilder {
    fn default() -> Self {
        BrowserBuilder { args: Vec::new(), prefs: Map::new(), window: (1280, 900), chromium: None, chromedriver: None }
    }
}

impl BrowserBuilder {
    /// One more Chromium command-line flag, e.g. `--lang=ko-KR`.
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// A Chromium profile preference, by dotted name.
    pub fn pref(mut self, name: &str, value: Value) -> Self {
        self.prefs.insert(name.to_string(), value);
        self
    }

    /// The `Accept-Language` list, e.g. `"ko-KR,ko"` (the `intl.accept_languages` pref).
    pub fn accept_languages(self, languages: &str) -> Self {
        self.pref("intl.accept_languages", json!(languages))
    }

    /// The initial window size (default 1280×900).
    pub fn window_size(mut self, width: u32, height: u32) -> Self {
        self.window = (width, height);
        self
    }

    /// Another Chromium binary (default: `$DELIBERATE_CHROMIUM` or /usr/bin/chromium).
    pub fn chromium(mut self, path: impl Into<PathBuf>) -> Self {
        self.chromium = Some(path.into());
        self
    }

    /// Another ChromeDriver binary (default: `$CHROMEDRIVER` or /usr/bin/chromedriver).
    pub fn chromedriver(mut self, path: impl Into<PathBuf>) -> Self {
        self.chromedriver = Some(path.into());
        self
    }

    /// Starts ChromeDriver and a Chromium session.
    pub fn launch(self) -> Result<Browser, Error> {
        let chromium = self
            .chromium
            .clone()
            .unwrap_or_else(|| env_path("DELIBERATE_CHROMIUM").unwrap_or_else(|| DEFAULT_CHROMIUM.into()));
        let chromedriver = self
            .chromedriver
            .clone()
            .unwrap_or_else(|| env_path("CHROMEDRIVER").unwrap_or_else(|| DEFAULT_CHROMEDRIVER.into()));
        for (what, path) in [("Chromium", &chromium), ("ChromeDriver", &chromedriver)] {
            if !path.is_file() {
                return Err(Error::Launch(format!(
                    "{what} not found at {} (install it with ./dev setup, or point \
                     DELIBERATE_CHROMIUM / CHROMEDRIVER at it)",
                    path.display()
                )));
            }
        }
        let driver = Driver::start(&chromedriver)?;
        let session_id = driver.new_session(&chromium, &self)?;
        let browser = Browser {
            session_url: format!("{}/session/{session_id}", driver.url),
            session_id: Some(session_id),
            driver,
        };
        browser.command(
            "POST",
            "/timeouts",
            Some(json!({
                "script": SCRIPT_TIMEOUT.as_millis() as u64,
                "pageLoad": 30_000,
                "implicit": 0,
            })),
        )?;
        Ok(browser)
    }
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn free_port() -> io::Result<u16> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    Ok(listener.local_addr()?.port())
}

fn clip(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(limit).collect();
    clipped.push_str(" …[clipped]");
    clipped
}

/// A running ChromeDriver with its profile directory; kills everything it started when dropped.
struct Driver {
    child: Child,
    url: String,
    tag: String,
    profile: TempDir,
}

impl Driver {
    fn user_data_dir(&self) -> PathBuf {
        self.profile.path().join("profile")
    }

    fn log_path(&self) -> PathBuf {
        self.profile.path().join("chromedriver.log")
    }

    fn log_tail(&self) -> String {
        let text = fs::read_to_string(self.log_path()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    fn start(chromedriver: &Path) -> Result<Driver, Error> {
        let mut last_problem = String::new();
        // A free port can be taken between probing and binding: try a few.
        for _ in 0..3 {
            let profile = TempDir::new("chromium")?;
            fs::create_dir(profile.path().join("profile"))?;
            let port = free_port()?;
            let tag = profile.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let log = File::create(profile.path().join("chromedriver.log"))?;
            let child = Command::new(chromedriver)
                .arg(format!("--port={port}"))
                .env(TAG_VAR, &tag)
                .stdin(Stdio::null())
                .stdout(log.try_clone()?)
                .stderr(log)
                .process_group(0)
                .spawn()
                .map_err(|e| Error::Launch(format!("cannot run {}: {e}", chromedriver.display())))?;
            let mut driver = Driver { child, url: format!("http://127.0.0.1:{port}"), tag, profile };
            match driver.wait_until_ready() {
                Ok(()) => return Ok(driver),
                Err(problem) => last_problem = problem,
            }
        }
        Err(Error::Launch(last_problem))
    }

    fn wait_until_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + READY_TIMEOUT;
        let status_url = format!("{}/status", self.url);
        loop {
            if let Ok(Some(exit)) = self.child.try_wait() {
                return Err(format!("ChromeDriver exited ({exit}) before it was ready:\n{}", self.log_tail()));
            }
            if let Ok((200, v)) = http::request_with_timeout("GET", &status_url, None, Duration::from_secs(2)) {
                if v["value"]["ready"] == true {
                    return Ok(());
                }
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "ChromeDriver did not become ready within {}s:\n{}",
                    READY_TIMEOUT.as_secs(),
                    self.log_tail()
                ));
            }
            thread::sleep(POLL_INTERVAL);
        }
    }

    fn new_session(&self, chromium: &Path, options: &BrowserBuilder) -> Result<String, Error> {
        let mut args: Vec<String> = REQUIRED_ARGS.iter().map(|a| a.to_string()).collect();
        args.push(format!("--window-size={},{}", options.window.0, options.window.1));
        args.push(format!("--user-data-dir={}", self.user_data_dir().display()));
        args.extend(options.args.iter().cloned());
        let mut chrome_options = json!({
            "binary": chromium.display().to_string(),
            "args": args,
        });
        if !options.prefs.is_empty() {
            chrome_options["prefs"] = Value::Object(options.prefs.clone());
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": chrome_options,
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let url = format!("{}/session", self.url);
        let (status, v) = http::request_with_timeout("POST", &url, Some(&capabilities), SESSION_TIMEOUT)
            .map_err(|e| Error::Launch(format!("creating a session failed: {e}\n{}", self.log_tail())))?;
        match v["value"]["sessionId"].as_str() {
            Some(id) if status == 200 => Ok(id.to_string()),
            _ => Err(Error::Launch(format!(
                "ChromeDriver refused the session ({status} {}): {}\n{}",
                v["value"]["error"].as_str().unwrap_or("?"),
                clip(v["value"]["message"].as_str().unwrap_or(""), 800),
                self.log_tail()
            ))),
        }
    }

    /// Processes that belong to this driver: same process group, our environment tag
    /// or our profile directory on the command line; each with whether it is a zombie
    /// (dead, waiting to be reaped by init).
    fn own_processes(&self) -> Vec<(i32, bool)> {
        let own_pid = std::process::id() as i32;
        let pgid = self.child.id() as i32;
        let tag_entry = format!("{TAG_VAR}={}", self.tag);
        let profile = self.profile.path().display().to_string();
        let Ok(entries) = fs::read_dir("/proc") else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
                continue;
            };
            if pid == own_pid {
                continue;
            }
            let dir = entry.path();
            let Ok(stat) = fs::read_to_string(dir.join("stat")) else {
                continue;
            };
            // Fields after the parenthesised command name: state, ppid, pgrp, ...
            let Some(after_name) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
                continue;
            };
            let fields: Vec<&str> = after_name.split_whitespace().collect();
            let zombie = fields.first() == Some(&"Z");
            let in_group = fields.get(2).and_then(|g| g.parse::<i32>().ok()) == Some(pgid);
            let tagged = fs::read(dir.join("environ"))
                .map(|env| env.split(|b| *b == 0).any(|e| e == tag_entry.as_bytes()))
                .unwrap_or(false);
            let names_profile =
                fs::read(dir.join("cmdline")).map(|c| String::from_utf8_lossy(&c).contains(&profile)).unwrap_or(false);
            if in_group || tagged || names_profile {
                found.push((pid, zombie));
            }
        }
        found
    }
}

mod signal {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }

    const SIGKILL: i32 = 9;

    /// Sends SIGKILL to a process (positive id) or a process group (negative id).
    pub fn kill_now(pid: i32) {
        // SAFETY: kill(2) takes two integers and touches no memory of ours; callers
        // pass only ids found to belong to processes this crate started.
        unsafe {
            kill(pid, SIGKILL);
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group first, while ChromeDriver (its leader) is not yet reaped, so the
        // group id cannot have been reused.
        signal::kill_now(-(self.child.id() as i32));
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Also wait for the zombies to be reaped, so that a `pgrep` right after a test
        // run finds nothing.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let left = self.own_processes();
            if left.is_empty() || Instant::now() >= deadline {
                break;
            }
            for (pid, zombie) in left {
                if !zombie {
                    signal::kill_now(pid);
                }
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A Chromium session driven through ChromeDriver.
pub struct Browser {
    session_url: String,
    session_id: Option<String>,
    driver: Driver,
}

/// An element of the current page.
#[derive(Clone)]
pub struct Element<'b> {
    browser: &'b Browser,
    id: String,
}

impl fmt::Debug for Element<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Element({})", self.id)
    }
}

impl Browser {
    /// Starts ChromeDriver and Chromium with the default options.
    pub fn launch() -> Result<Browser, Error> {
        BrowserBuilder::default().launch()
    }

    /// Options for a launch: extra flags, prefs, window size, binaries.
    pub fn builder() -> BrowserBuilder {
        BrowserBuilder::default()
    }

    /// The session id ChromeDriver gave.
    pub fn session_id(&self) -> &str {
        self.session_id.as_deref().unwrap_or("")
    }

    /// The profile directory Chromium uses (deleted on drop).
    pub fn user_data_dir(&self) -> PathBuf {
        self.driver.user_data_dir()
    }

    /// Runs one Chrome DevTools Protocol command (ChromeDriver's `goog/cdp/execute`) and
    /// returns its result.
    pub fn cdp(&self, cmd: &str, params: Value) -> Result<Value, Error> {
        self.command("POST", "/goog/cdp/execute", Some(json!({"cmd": cmd, "params": params})))
    }

    /// Runs one WebDriver command relative to the session and returns its `value`.
    pub fn command(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, Error> {
        self.command_with_timeout(method, path, body, COMMAND_TIMEOUT)
    }

    fn command_with_timeout(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        timeout: Duration,
    ) -> Result<Value, Error> {
        let url = format!("{}{path}", self.session_url);
        // W3C wants a JSON object body on every POST, even an empty one.
        let body = match (method, body) {
            ("POST", None) => Some(json!({})),
            (_, b) => b,
        };
        let (status, v) = http::request_with_timeout(method, &url, body.as_ref(), timeout)?;
        let value = match v {
            Value::Object(mut o) => o.remove("value").unwrap_or(Value::Null),
            other => {
                return Err(Error::Protocol(format!(
                    "{method} {path} answered {status} without an object: {}",
                    clip(&other.to_string(), 300)
                )))
            }
        };
        // W3C errors always come with a non-200 status; a 200 value may well hold an
        // "error" field of its own (a script's result).
        if status != 200 {
            return Err(Error::WebDriver {
                command: format!("{method} {path}"),
                status,
                error: value["error"].as_str().unwrap_or("unknown error").to_string(),
                message: value["message"].as_str().unwrap_or("").to_string(),
            });
        }
        Ok(value)
    }

    /// Opens a URL and waits for the page load.
    pub fn goto(&self, url: &str) -> Result<(), Error> {
        self.command("POST", "/url", Some(json!({"url": url}))).map(|_| ())
    }

    /// The current page's URL.
    pub fn current_url(&self) -> Result<String, Error> {
        let v = self.command("GET", "/url", None)?;
        as_string(v, "current URL")
    }

    /// The current page's title.
    pub fn title(&self) -> Result<String, Error> {
        let v = self.command("GET", "/title", None)?;
        as_string(v, "title")
    }

    /// Reloads the page.
    pub fn refresh(&self) -> Result<(), Error> {
        self.command("POST", "/refresh", None).map(|_| ())
    }

    /// The first element matching a CSS selector, or a `no such element` error naming it.
    pub fn find(&self, css: &str) -> Result<Element<'_>, Error> {
        let v = self.command("POST", "/element", Some(json!({"using": "css selector", "value": css})));
        match v {
            Ok(v) => self
                .element_from(&v)
                .ok_or_else(|| Error::Protocol(format!("find({css:?}) returned no element reference: {v}"))),
            Err(Error::WebDriver { command, status, error, message }) if error == "no such element" => {
                Err(Error::WebDriver { command: format!("{command} {css:?}"), status, error, message })
            }
            Err(e) => Err(e),
        }
    }

    /// The first element matching a CSS selector, if there is one.
    pub fn try_find(&self, css: &str) -> Result<Option<Element<'_>>, Error> {
        match self.find(css) {
            Ok(e) => Ok(Some(e)),
            Err(e) if e.is_webdriver("no such element") => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every element matching a CSS selector, in document order.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element<'_>>, Error> {
        let v = self.command("POST", "/elements", Some(json!({"using": "css selector", "value": css})))?;
        self.elements_from(&v, css)
    }

    fn elements_from(&self, v: &Value, css: &str) -> Result<Vec<Element<'_>>, Error> {
        let list = v.as_array().ok_or_else(|| Error::Protocol(format!("find_all({css:?}) returned {v}")))?;
        list.iter()
            .map(|item| {
                self.element_from(item)
                    .ok_or_else(|| Error::Protocol(format!("find_all({css:?}) returned a non-element {item}")))
            })
            .collect()
    }

    /// The element a JSON value refers to (as returned by a script), if it is one.
    pub fn element_from(&self, value: &Value) -> Option<Element<'_>> {
        // "ELEMENT" is the pre-W3C (JSON wire protocol) key, still seen from old drivers.
        let id = value[ELEMENT_KEY].as_str().or_else(|| value["ELEMENT"].as_str());
        id.map(|id| Element { browser: self, id: id.to_string() })
    }

    /// Runs a synchronous script (`return ...;`) with arguments and returns its result.
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, Error> {
        self.command("POST", "/execute/sync", Some(json!({"script": script, "args": args})))
    }

    /// Runs an asynchronous script: it gets a callback as its last argument
    /// (`arguments[arguments.length - 1]`) and ends by calling it with the result.
    /// Times out after 30 s.
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value, Error> {
        self.command_with_timeout(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": args})),
            SCRIPT_TIMEOUT + Duration::from_secs(10),
        )
    }

    /// The viewport as a PNG image.
    pub fn screenshot_png(&self) -> Result<Vec<u8>, Error> {
        let v = self.command("GET", "/screenshot", None)?;
        let encoded = as_string(v, "screenshot")?;
        base64::engine::general_purpose::STANDARD
            .decode(&encoded)
            .map_err(|e| Error::Protocol(format!("screenshot: {e}")))
    }

    /// Saves a PNG screenshot, creating parent directories.
    pub fn save_screenshot(&self, path: &Path) -> Result<(), Error> {
        let png = self.screenshot_png()?;
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(path, png)?;
        Ok(())
    }

    /// Resizes the window (outer size, in CSS pixels).
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<(), Error> {
        self.command("POST", "/window/rect", Some(json!({"width": width, "height": height}))).map(|_| ())
    }

    /// The page's `document.body.innerText` (empty when there is no body).
    pub fn page_text(&self) -> Result<String, Error> {
        let v = self.execute("return document.body ? document.body.innerText : '';", Vec::new())?;
        as_string(v, "page text")
    }

    /// Console and error messages the page logged since the last call, as
    /// `{level, message, timestamp}` objects (ChromeDriver's legacy log endpoint).
    pub fn browser_logs(&self) -> Result<Vec<Value>, Error> {
        let body = Some(json!({"type": "browser"}));
        let v = match self.command("POST", "/se/log", body.clone()) {
            Err(e) if e.is_webdriver("unknown command") || e.is_webdriver("unknown method") => {
                self.command("POST", "/log", body)?
            }
            other => other?,
        };
        match v {
            Value::Array(entries) => Ok(entries),
            other => Err(Error::Protocol(format!("browser logs: {other}"))),
        }
    }

    /// Polls every 50 ms until `poll` gives `Some`, or fails with a timeout that names
    /// `what` and shows the page text. Errors from `poll` end the wait, except a
    /// stale element reference (the page re-rendered), which polls again.
    pub fn wait_for<T>(
        &self,
        timeout: Duration,
        what: &str,
        mut poll: impl FnMut(&Browser) -> Result<Option<T>, Error>,
    ) -> Result<T, Error> {
        let started = Instant::now();
        loop {
            match poll(self) {
                Ok(Some(v)) => return Ok(v),
                Ok(None) => {}
                Err(e) if e.is_webdriver("stale element reference") => {}
                Err(e) => return Err(e),
            }
            if started.elapsed() >= timeout {
                let page_text = match self.page_text() {
                    Ok(t) => clip(&t, PAGE_TEXT_LIMIT),
                    Err(e) => format!("(could not read the page: {e})"),
                };
                return Err(Error::Timeout { what: what.to_string(), waited: started.elapsed(), page_text });
            }
            thread::sleep(POLL_INTERVAL);
        }
    }

    /// Waits until `script` (a synchronous script ending in `return ...;`) returns `true`.
    pub fn wait_until(&self, timeout: Duration, what: &str, script: &str) -> Result<(), Error> {
        self.wait_for(timeout, what, |b| Ok((b.execute(script, vec![])? == Value::Bool(true)).then_some(())))
    }

    /// Waits for an element matching a CSS selector to exist.
    pub fn wait_for_element(&self, css: &str, timeout: Duration) -> Result<Element<'_>, Error> {
        self.wait_for(timeout, &format!("an element matching {css:?}"), |_| self.try_find(css))
    }

    /// Waits until an element matching a CSS selector shows text containing `needle`;
    /// returns the whole text.
    pub fn wait_for_text(&self, css: &str, needle: &str, timeout: Duration) -> Result<String, Error> {
        self.wait_for(timeout, &format!("{css:?} to contain {needle:?}"), |b| {
            Ok(match b.try_find(css)? {
                Some(e) => Some(e.text()?).filter(|t| t.contains(needle)),
                None => None,
            })
        })
    }

    /// Ends the session now (also done on drop); ChromeDriver closes Chromium.
    pub fn quit(mut self) -> Result<(), Error> {
        self.delete_session()
    }

    fn delete_session(&mut self) -> Result<(), Error> {
        if self.session_id.take().is_some() {
            http::request_with_timeout("DELETE", &self.session_url, None, Duration::from_secs(10))?;
        }
        Ok(())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // A polite goodbye lets Chromium exit on its own; the driver's drop then
        // kills whatever is left, whether or not this worked.
        let _ = self.delete_session();
    }
}

fn as_string(v: Value, what: &str) -> Result<String, Error> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(Error::Protocol(format!("{what} should be a string, got {}", clip(&other.to_string(), 200)))),
    }
}

impl<'b> Element<'b> {
    /// The W3C element id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The reference as JSON, to pass to `execute` as an argument.
    pub fn to_json(&self) -> Value {
        json!({ ELEMENT_KEY: self.id })
    }

    fn path(&self, rest: &str) -> String {
        format!("/element/{}{rest}", self.id)
    }

    /// Clicks the element (scrolling it into view).
    pub fn click(&self) -> Result<(), Error> {
        self.browser.command("POST", &self.path("/click"), None).map(|_| ())
    }

    /// Types text into the element as key presses; any Unicode text, Hangul included.
    pub fn send_keys(&self, text: &str) -> Result<(), Error> {
        self.browser.command("POST", &self.path("/value"), Some(json!({"text": text}))).map(|_| ())
    }

    /// Empties an input or textarea.
    pub fn clear(&self) -> Result<(), Error> {
        self.browser.command("POST", &self.path("/clear"), None).map(|_| ())
    }

    /// The rendered text.
    pub fn text(&self) -> Result<String, Error> {
        let v = self.browser.command("GET", &self.path("/text"), None)?;
        as_string(v, "element text")
    }

    /// An HTML attribute, `None` when absent.
    pub fn attr(&self, name: &str) -> Result<Option<String>, Error> {
        let v = self.browser.command("GET", &self.path(&format!("/attribute/{name}")), None)?;
        match v {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s)),
            other => Ok(Some(other.to_string())),
        }
    }

    /// A DOM property, e.g. `value` or `checked`, as JSON.
    pub fn prop(&self, name: &str) -> Result<Value, Error> {
        self.browser.command("GET", &self.path(&format!("/property/{name}")), None)
    }

    /// Whether the element is displayed.
    pub fn is_displayed(&self) -> Result<bool, Error> {
        let v = self.browser.command("GET", &self.path("/displayed"), None)?;
        v.as_bool().ok_or_else(|| Error::Protocol(format!("displayed should be a bool, got {v}")))
    }

    /// Whether the element is enabled (not `disabled`).
    pub fn is_enabled(&self) -> Result<bool, Error> {
        let v = self.browser.command("GET", &self.path("/enabled"), None)?;
        v.as_bool().ok_or_else(|| Error::Protocol(format!("enabled should be a bool, got {v}")))
    }

    /// The first descendant matching a CSS selector.
    pub fn find(&self, css: &str) -> Result<Element<'b>, Error> {
        let v = self.browser.command(
            "POST",
            &self.path("/element"),
            Some(json!({"using": "css selector", "value": css})),
        )?;
        self.browser.element_from(&v).ok_or_else(|| Error::Protocol(format!("find({css:?}) returned {v}")))
    }

    /// Every descendant matching a CSS selector.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element<'b>>, Error> {
        let v = self.browser.command(
            "POST",
            &self.path("/elements"),
            Some(json!({"using": "css selector", "value": css})),
        )?;
        self.browser.elements_from(&v, css)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_short_text_and_marks_long_text() {
        assert_eq!(clip("짧다", 5), "짧다");
        assert_eq!(clip("가나다라마바", 3), "가나다 …[clipped]");
    }

    #[test]
    fn timeout_error_names_what_was_awaited_and_the_page() {
        let e = Error::Timeout {
            what: "the plan".into(),
            waited: Duration::from_millis(1500),
            page_text: "Error: key rejected".into(),
        };
        let shown = e.to_string();
        assert!(shown.contains("1.5s") && shown.contains("the plan"), "{shown}");
        assert!(shown.contains("key rejected"));
    }

    #[test]
    fn missing_binaries_fail_with_a_hint() {
        let err = Browser::builder().chromedriver("/nonexistent/chromedriver").launch().err().unwrap();
        let shown = err.to_string();
        assert!(shown.contains("/nonexistent/chromedriver") || shown.contains("Chromium"), "{shown}");
        assert!(shown.contains("./dev setup"), "{shown}");
    }
}
