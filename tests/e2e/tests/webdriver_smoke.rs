//! The WebDriver client against real headless Chromium: typing (Hangul too), clicking,
//! waiting, scripts, screenshots, a cross-origin streamed fetch from the mock LLM,
//! and no processes left behind.

use std::fs;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use deliberate_e2e::app::one_browser;
use deliberate_e2e::mock_llm::{default_reply, Fault, MockConfig, MockLlm, Pacing};
use deliberate_e2e::static_server::StaticServer;
use deliberate_e2e::tempdir::TempDir;
use deliberate_e2e::webdriver::{Browser, Error};
use serde_json::{json, Value};

const WAIT: Duration = Duration::from_secs(10);

const PAGE: &str = r#"<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><title>Smoke 스모크</title></head>
<body>
  <h1>Deliberate smoke 계획</h1>
  <input id="name" type="text" autocomplete="off">
  <button id="add">Add</button>
  <ul id="list"></ul>
  <script>
    console.log('smoke page loaded');
    document.getElementById('add').addEventListener('click', () => {
      // Later, not at once, so that the test has to wait.
      setTimeout(() => {
        const li = document.createElement('li');
        li.textContent = 'added: ' + document.getElementById('name').value;
        document.getElementById('list').appendChild(li);
      }, 150);
    });
  </script>
</body>
</html>
"#;

fn site() -> (TempDir, StaticServer) {
    let dir = TempDir::new("smoke-site").unwrap();
    fs::write(dir.path().join("index.html"), PAGE).unwrap();
    let server = StaticServer::start(dir.path()).unwrap();
    (dir, server)
}

/// Processes whose command line names this path (a browser profile).
fn processes_naming(path: &std::path::Path) -> Vec<String> {
    let needle = path.display().to_string();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if !entry.file_name().to_string_lossy().chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(&needle) {
                found.push(format!("{}: {cmdline}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

fn screenshot_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp; the screenshots go next to it.
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().join("e2e-smoke")
}

#[test]
fn browser_types_clicks_waits_runs_scripts_and_takes_screenshots() {
    let _one = one_browser();
    let (_dir, server) = site();
    let browser = Browser::launch().unwrap();
    browser.goto(&server.url()).unwrap();
    assert_eq!(browser.title().unwrap(), "Smoke 스모크");
    assert_eq!(browser.current_url().unwrap(), server.url());

    let input = browser.find("#name").unwrap();
    input.send_keys("hello ").unwrap();
    input.send_keys("안녕하세요").unwrap();
    assert_eq!(input.prop("value").unwrap(), json!("hello 안녕하세요"));
    input.clear().unwrap();
    assert_eq!(input.prop("value").unwrap(), json!(""));
    input.send_keys("계획 plan").unwrap();
    assert_eq!(input.attr("id").unwrap().as_deref(), Some("name"));
    assert_eq!(input.attr("data-missing").unwrap(), None);
    assert!(input.is_displayed().unwrap());

    browser.find("#add").unwrap().click().unwrap();
    let text = browser.wait_for_text("#list li", "added: 계획 plan", WAIT).unwrap();
    assert_eq!(text, "added: 계획 plan");
    assert_eq!(browser.find_all("#list li").unwrap().len(), 1);
    let list = browser.find("#list").unwrap();
    assert_eq!(list.find("li").unwrap().text().unwrap(), "added: 계획 plan");

    assert_eq!(browser.execute("return 6 * 7;", vec![]).unwrap(), json!(42));
    let sum = browser.execute("return arguments[0] + arguments[1];", vec![json!(1), json!(2)]).unwrap();
    assert_eq!(sum, json!(3));
    let id = browser.execute("return arguments[0].id;", vec![input.to_json()]).unwrap();
    assert_eq!(id, json!("name"));
    let returned = browser.execute("return document.querySelector('h1');", vec![]).unwrap();
    let heading = browser.element_from(&returned).unwrap();
    assert_eq!(heading.text().unwrap(), "Deliberate smoke 계획");
    let later = browser
        .execute_async(
            "const done = arguments[arguments.length - 1]; setTimeout(() => done('later ' + arguments[0]), 50);",
            vec![json!("준비")],
        )
        .unwrap();
    assert_eq!(later, json!("later 준비"));

    assert!(browser.try_find("#missing").unwrap().is_none());
    let missing = browser.find("#missing").unwrap_err();
    assert!(missing.is_webdriver("no such element"), "{missing}");
    assert!(missing.to_string().contains("#missing"), "{missing}");

    let waited =
        browser.wait_for(Duration::from_millis(300), "a thing that never happens", |_| Ok(None::<()>)).unwrap_err();
    match &waited {
        Error::Timeout { what, page_text, .. } => {
            assert_eq!(what, "a thing that never happens");
            assert!(page_text.contains("Deliberate smoke 계획"), "{page_text}");
        }
        other => panic!("expected a timeout, got {other}"),
    }

    browser.set_window_size(800, 600).unwrap();
    let width = browser.execute("return window.outerWidth;", vec![]).unwrap();
    assert_eq!(width, json!(800));

    let logs = browser.browser_logs().unwrap();
    assert!(logs.iter().any(|l| l["message"].as_str().unwrap_or("").contains("smoke page loaded")), "{logs:?}");

    let path = screenshot_dir().join("smoke.png");
    let _ = fs::remove_file(&path);
    browser.save_screenshot(&path).unwrap();
    let png = fs::read(&path).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 2_000, "a rendered page is more than {} bytes", png.len());
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert!((600..=900).contains(&width) && (300..=700).contains(&height), "{width}x{height}");
}

/// Reads a streamed chat completion with fetch, as the app does, and reports the text.
const FETCH_STREAM: &str = r#"
const [url, headers, body, done] = arguments;
(async () => {
  try {
    const resp = await fetch(url, {method: 'POST', headers, body: JSON.stringify(body)});
    if (!resp.body || !resp.ok) {
      done({status: resp.status, error: await resp.text()});
      return;
    }
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '', text = '', reads = 0, finished = false;
    for (;;) {
      const {value, done: end} = await reader.read();
      if (end) break;
      reads += 1;
      buffer += decoder.decode(value, {stream: true});
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        for (const line of block.split('\n')) {
          if (!line.startsWith('data: ')) continue;
          const data = line.slice(6);
          if (data === '[DONE]') { finished = true; continue; }
          const event = JSON.parse(data);
          if (event.choices && event.choices[0] && event.choices[0].delta.content) {
            text += event.choices[0].delta.content;
          }
          if (event.type === 'content_block_delta') text += event.delta.text;
          if (event.type === 'message_stop') finished = true;
        }
      }
    }
    done({status: resp.status, text, reads, finished});
  } catch (e) {
    done({error: String(e), name: e.name});
  }
})();
"#;

fn fetch_stream(browser: &Browser, url: &str, headers: Value, body: Value) -> Value {
    browser.execute_async(FETCH_STREAM, vec![json!(url), headers, body]).unwrap()
}

#[test]
fn page_reads_a_streamed_answer_from_the_mock_across_origins() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig {
        pacing: Pacing {
            latency_ms: 0,
            // An odd size, so chunks end inside lines and inside Hangul characters.
            chunk_delay_ms: 1,
            chunk_bytes: 61,
        },
        ..MockConfig::default()
    })
    .unwrap();
    let (_dir, server) = site();
    let browser = Browser::launch().unwrap();
    browser.goto(&server.url()).unwrap();

    let user = "[REQUEST]\n부산 여행 계획";
    let openai_body = json!({
        "model": "mock-small",
        "stream": true,
        "stream_options": {"include_usage": true},
        "messages": [
            {"role": "system", "content": "# role: planner\nWrite the plan."},
            {"role": "user", "content": user},
        ],
    });
    let headers = json!({"content-type": "application/json", "authorization": "Bearer sk-test"});
    let url = format!("{}/chat/completions", mock.base_url());
    let got = fetch_stream(&browser, &url, headers.clone(), openai_body.clone());
    assert_eq!(got["status"], 200, "{got}");
    assert_eq!(got["text"], json!(default_reply(Some("planner"), user)));
    assert_eq!(got["finished"], true);
    assert!(got["reads"].as_u64().unwrap() > 1, "streamed in pieces: {got}");
    let origin = server.url().trim_end_matches('/').to_string();
    assert_eq!(
        mock.requests()[0].headers.get("origin"),
        Some(&origin),
        "the request came from the static server's origin"
    );

    // Anthropic from a browser: refused without the direct-access header, readable with it.
    let anthropic_url = format!("{}/messages", mock.base_url());
    let anthropic_body = json!({
        "model": "mock-large", "max_tokens": 512, "stream": true,
        "system": "# role: worker", "messages": [{"role": "user", "content": "일"}],
    });
    let mut anthropic_headers = json!({
        "content-type": "application/json", "x-api-key": "sk-ant", "anthropic-version": "2023-06-01",
    });
    let refused = fetch_stream(&browser, &anthropic_url, anthropic_headers.clone(), anthropic_body.clone());
    assert_eq!(refused["status"], 401, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("anthropic-dangerous-direct-browser-access"));
    anthropic_headers["anthropic-dangerous-direct-browser-access"] = json!("true");
    let answered = fetch_stream(&browser, &anthropic_url, anthropic_headers, anthropic_body);
    assert_eq!(answered["text"], json!(default_reply(Some("worker"), "일")), "{answered}");
    assert_eq!(answered["finished"], true);

    // Without CORS headers the browser refuses to hand over the answer.
    mock.fault(Fault::Cors);
    let blocked = fetch_stream(&browser, &url, headers.clone(), openai_body.clone());
    assert_eq!(blocked["name"], "TypeError", "{blocked}");

    // A cut stream ends the reader with an error, not a clean end.
    mock.fault(Fault::Cut { after_bytes: 400, clean: false });
    let cut = fetch_stream(&browser, &url, headers, openai_body);
    assert_eq!(cut["name"], "TypeError", "{cut}");
}

#[test]
fn language_flags_reach_the_page() {
    let _one = one_browser();
    let (_dir, server) = site();
    let browser =
        Browser::builder().arg("--lang=ko-KR").accept_languages("ko-KR,ko").window_size(1024, 700).launch().unwrap();
    browser.goto(&server.url()).unwrap();
    let languages = browser.execute("return navigator.languages;", vec![]).unwrap();
    assert_eq!(languages[0], "ko-KR", "{languages}");
    let width = browser.execute("return window.outerWidth;", vec![]).unwrap();
    assert_eq!(width, json!(1024));
}

#[test]
fn dropping_the_browser_ends_chromium_and_the_driver_even_on_panic() {
    let _one = one_browser();
    let browser = Browser::launch().unwrap();
    let profile = browser.user_data_dir();
    assert!(!processes_naming(&profile).is_empty(), "Chromium runs with its profile");
    drop(browser);
    assert_eq!(processes_naming(&profile), Vec::<String>::new());

    let (tx, rx) = mpsc::channel();
    let panicked = std::thread::spawn(move || {
        let browser = Browser::launch().unwrap();
        tx.send(browser.user_data_dir()).unwrap();
        panic!("a test failing while its browser is open");
    })
    .join();
    assert!(panicked.is_err());
    let profile = rx.recv().unwrap();
    assert_eq!(processes_naming(&profile), Vec::<String>::new());
    assert!(!profile.exists(), "the profile directory is removed");
}
