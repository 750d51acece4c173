//! Counseling mode (seed 004) through the page: switching into it, sending a message and
//! waiting for the counselor's reply, and the `./dev bench` figure of a turn's wall time
//! over the mock's fixed delay L.

use std::time::Duration;

use serde_json::Value;

use crate::app::{AppPage, STEP};
use crate::mock_llm::{MockConfig, MockLlm, Pacing};
use crate::webdriver::Error;

/// The assistant's text messages in the conversation.
pub const REPLIES: &str = "article.message.assistant[data-kind=text]";

/// Picks counseling in the top bar's mode switch and waits for the part stepper.
pub fn switch_to_counseling(page: &AppPage) -> Result<(), Error> {
    page.browser.execute(
        "const s = document.querySelector('#mode-select'); s.value = 'counseling'; \
         s.dispatchEvent(new Event('change', { bubbles: true })); return true;",
        vec![],
    )?;
    page.browser.wait_for_element(".part-stepper", STEP)?;
    Ok(())
}

/// The texts of the assistant's text messages, oldest first.
pub fn replies(page: &AppPage) -> Result<Vec<String>, Error> {
    page.browser.find_all(REPLIES)?.iter().map(|e| e.text()).collect()
}

/// Sends `text` and waits until one more assistant text message has arrived and the
/// composer takes input again; returns that message's text.
pub fn send_and_wait(page: &AppPage, text: &str) -> Result<String, Error> {
    let before = page.browser.find_all(REPLIES)?.len();
    page.send(text)?;
    // One more reply drawn, or (a long conversation draws a window of its newest rows, so the
    // count can stay the same while one more arrives) a reply after the newest user message,
    // when that is `text` as drawn.
    const REPLY_AFTER: &str = "const rows = [...document.querySelectorAll('.messages .message')]; \
         const asked = rows.findLastIndex(r => r.classList.contains('user')); \
         if (asked < 0 || rows[asked].textContent.trim() !== arguments[0]) return null; \
         const reply = rows.slice(asked + 1).reverse().find(r => r.matches(arguments[1])); \
         return reply ? reply.innerText : null;";
    page.browser.wait_for(STEP, "the counselor's reply", |b| {
        let streaming = b.try_find(".bubble.streaming")?.is_some();
        let idle = b.try_find(".composer .send")?.is_some();
        if streaming || !idle {
            return Ok(None);
        }
        let all = b.find_all(REPLIES)?;
        if all.len() > before {
            return Ok(Some(all[all.len() - 1].text()?));
        }
        let reply = b.execute(REPLY_AFTER, vec![Value::from(text), Value::from(REPLIES)])?;
        Ok(reply.as_str().map(str::to_string))
    })
}

/// Like `send_and_wait`, timed inside the page: milliseconds from the Enter keydown to the
/// moment the reply stands in the DOM (no stream running, the composer takes input).
pub fn send_timed(page: &AppPage, text: &str) -> Result<f64, Error> {
    let area = page.browser.find("#composer-input")?;
    area.send_keys(text)?;
    page.browser.execute(
        "window.__t0 = null; window.__t1 = null;\n\
         const sel = arguments[0]; const n = document.querySelectorAll(sel).length;\n\
         document.querySelector('#composer-input').addEventListener('keydown', e => {\n\
           if (e.key === 'Enter' && window.__t0 === null) window.__t0 = performance.now(); }, { capture: true });\n\
         const obs = new MutationObserver(() => {\n\
           if (document.querySelectorAll(sel).length > n && !document.querySelector('.bubble.streaming')\n\
               && document.querySelector('.composer .send')) { window.__t1 = performance.now(); obs.disconnect(); } });\n\
         obs.observe(document.body, { childList: true, subtree: true, characterData: true });\n\
         return true;",
        vec![Value::String(REPLIES.to_string())],
    )?;
    area.send_keys("\u{E007}")?;
    page.browser.wait_for(STEP, "the timed reply", |b| {
        let v = b.execute(
            "return (window.__t0 !== null && window.__t1 !== null) ? window.__t1 - window.__t0 : null;",
            vec![],
        )?;
        Ok(v.as_f64())
    })
}

/// Messages of one measured session (the 3rd and 6th start a supervision).
const MESSAGES: [&str; 6] = [
    "Hi, I'm Sam",
    "Work has been really stressful lately",
    "My boss criticizes me in every meeting",
    "I can't sleep well because of it",
    "I keep replaying the meetings at night",
    "I'd like to feel calmer at work",
];

/// With the mock answering every call after L ms: each counseling turn's wall time, from
/// pressing Enter to the reply standing in the page, over L (goal ≤ 3.1: checker ∥
/// detector, then the Module Selector, then the counselor — three calls deep; on the Part
/// 1 → 2 turn the Task Planner runs alongside the selector; the supervisor off the path).
/// Returns the report lines.
pub fn measure() -> String {
    const L: u64 = 400;
    let mut out = String::from("## Counseling turn against the mock server\n\n");
    let Ok(mock) =
        MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing { latency_ms: L, ..Pacing::default() } })
    else {
        return out + "the mock server did not start\n";
    };
    let settings = mock.app_settings(30);
    let page = match AppPage::open_with_llm("en-US", &settings, &Value::Object(Default::default())) {
        Ok(p) => p,
        Err(e) => return out + &format!("could not open the page: {e:?}\n"),
    };
    let mut ratios = Vec::new();
    let mut supervised = Vec::new();
    let mut server = Vec::new();
    let mut planned = Vec::new();
    let planners = |m: &MockLlm| m.requests().iter().filter(|r| r.role.as_deref() == Some("counsel-planner")).count();
    for _ in 0..3 {
        if page.start_over().is_err() || switch_to_counseling(&page).is_err() {
            continue;
        }
        mock.reset();
        mock.set_pacing(Pacing { latency_ms: L, ..Pacing::default() });
        for (i, text) in MESSAGES.iter().enumerate() {
            let planned_before = planners(&mock);
            let Ok(ms) = send_timed(&page, text) else {
                break;
            };
            let ratio = ms / L as f64;
            if planners(&mock) > planned_before {
                // Part 1 → 2: the Task Planner runs alongside the Module Selector.
                planned.push(ratio);
                continue;
            }
            ratios.push(ratio);
            if (i + 1) % 3 == 0 {
                supervised.push(ratio);
            }
        }
        // Let the last supervision finish before the next session starts over.
        std::thread::sleep(Duration::from_millis(L + 200));
        server.extend(critical_paths(&mock.requests()).into_iter().map(|ms| ms as f64 / L as f64));
    }
    let requests = mock.requests();
    let count = |role: &str| requests.iter().filter(|r| r.role.as_deref() == Some(role)).count();
    let supervisor_calls = count("counsel-supervisor");
    let (selector_calls, planner_calls) = (count("counsel-module-selector"), count("counsel-planner"));
    let overlapping = planner_overlaps(&requests);
    out += &stats(
        &format!("turn wall time / L (L = {L} ms, Enter keydown → reply in the DOM, timed in the page; goal ≤ 3.1)"),
        &mut ratios,
    );
    out += &stats("  of which turns that start a supervision", &mut supervised);
    out +=
        &stats("the Part 1 → 2 turn (checks, Module Selector ∥ Task Planner, reply; not counted above)", &mut planned);
    out += &stats("at the mock: first check's start → the reply's last byte, / L", &mut server);
    out += &gaps(&requests);
    out += &format!("supervisor calls in the last session: {supervisor_calls} (expected 2)\n");
    out += &format!(
        "module selector calls in the last session: {selector_calls}; Task Planner calls: {planner_calls}, \
         of which ran while a selector call was in flight: {overlapping}\n"
    );
    out
}

/// Per turn, milliseconds from the first counseling call's start (checker or detector)
/// to the end of the counselor's reply, as the mock server saw them.
pub fn critical_paths(requests: &[crate::mock_llm::RecordedRequest]) -> Vec<u64> {
    let role = |r: &crate::mock_llm::RecordedRequest| r.role.clone().unwrap_or_default();
    let mut out = Vec::new();
    let mut turn_start: Option<u64> = None;
    for r in requests {
        match role(r).as_str() {
            "counsel-task-checker" | "counsel-state-detector" => {
                turn_start = Some(turn_start.map_or(r.started_ms, |s| s.min(r.started_ms)));
            }
            "counselor" => {
                if let (Some(start), Some(end)) = (turn_start.take(), r.finished_ms) {
                    out.push(end.saturating_sub(start));
                }
            }
            _ => {}
        }
    }
    out
}

/// Where a turn's time beyond 3 L goes at the mock, ms (median over the turns of the last
/// session): from the later check's end to the selector's request, from the selector's end to
/// the counselor's request, and the counselor's answer beyond L (its stream).
pub fn gaps(requests: &[crate::mock_llm::RecordedRequest]) -> String {
    let role = |r: &crate::mock_llm::RecordedRequest| r.role.clone().unwrap_or_default();
    let (mut to_selector, mut to_counselor, mut stream) = (Vec::new(), Vec::new(), Vec::new());
    let (mut checks_end, mut selector_end): (Option<u64>, Option<u64>) = (None, None);
    for r in requests {
        let end = r.finished_ms.unwrap_or(r.started_ms);
        match role(r).as_str() {
            "counsel-task-checker" | "counsel-state-detector" => checks_end = checks_end.max(Some(end)),
            "counsel-module-selector" => {
                if let Some(done) = checks_end.take() {
                    to_selector.push(r.started_ms.saturating_sub(done) as f64);
                }
                selector_end = Some(end);
            }
            "counselor" => {
                if let Some(done) = selector_end.take() {
                    to_counselor.push(r.started_ms.saturating_sub(done) as f64);
                    stream.push(end.saturating_sub(r.started_ms) as f64);
                }
                checks_end = None;
            }
            _ => {}
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    format!(
        "at the mock, ms (median): checks' end → selector's request {:.1} · selector's end → counselor's request {:.1} \
         · counselor's request → last byte {:.1} (n = {})\n",
        median(&mut to_selector),
        median(&mut to_counselor),
        median(&mut stream),
        stream.len()
    )
}

/// How many Task Planner requests overlapped a Module Selector request in time.
pub fn planner_overlaps(requests: &[crate::mock_llm::RecordedRequest]) -> usize {
    let spans = |role: &str| -> Vec<(u64, u64)> {
        requests
            .iter()
            .filter(|r| r.role.as_deref() == Some(role))
            .map(|r| (r.started_ms, r.finished_ms.unwrap_or(u64::MAX)))
            .collect()
    };
    let selectors = spans("counsel-module-selector");
    spans("counsel-planner").iter().filter(|(s, e)| selectors.iter().any(|(s2, e2)| s2 < e && s < e2)).count()
}

fn stats(label: &str, samples: &mut [f64]) -> String {
    if samples.is_empty() {
        return format!("{label}: no samples\n");
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    format!(
        "{label}: min {:.2} · median {:.2} · mean {:.2} · max {:.2}  (n = {})\n",
        samples[0],
        samples[samples.len() / 2],
        mean,
        samples[samples.len() - 1],
        samples.len()
    )
}
