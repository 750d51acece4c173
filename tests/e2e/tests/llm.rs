//! End to end with real HTTP: the release build talks to the mock LLM server in both
//! wire formats, streams, stops, and recovers from every fault with a clear message.

use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::mock_llm::{Fault, FaultRule, MockConfig, MockLlm, Pacing, RecordedRequest};
use serde_json::{json, Value};

const KEY: &str = "test-key-not-secret";

fn settings(kind: &str, base_url: &str, timeout_secs: u32) -> (Value, Value) {
    (
        json!({
            "enabled": true,
            "designer": { "kind": kind, "base_url": base_url, "model": "mock-small" },
            "separate_critic": false,
            "critic": { "kind": kind, "base_url": base_url, "model": "mock-small" },
            "remember_keys": true,
            "timeout_secs": timeout_secs
        }),
        json!({ "designer": KEY, "critic": KEY }),
    )
}

fn mock() -> MockLlm {
    MockLlm::start(MockConfig { port: 0, api_key: Some(KEY.to_string()), pacing: Pacing::default() })
        .expect("mock starts")
}

fn open(kind: &str, mock: &MockLlm, language: &str) -> AppPage {
    let (s, k) = settings(kind, &mock.base_url(), 5);
    AppPage::open_with_llm(language, &s, &k).expect("the page opens")
}

fn by_role<'a>(requests: &'a [RecordedRequest], role: &str) -> Vec<&'a RecordedRequest> {
    requests.iter().filter(|r| r.role.as_deref() == Some(role)).collect()
}

fn page_has(page: &AppPage, css: &str) -> bool {
    page.browser.try_find(css).ok().flatten().is_some()
}

/// A discussion in one wire format: every stage by the LLM, critiques in parallel,
/// the plan streamed visibly, and every prompt after UNDERSTAND grounded in the contract.
fn full_discussion(kind: &str, expected_path: &str) {
    let _one = one_browser();
    let mock = mock();
    // The critiques' answers wait until all three requests are in: if the app sent them
    // one after another, the first would finish before the others started.
    mock.gather(Some("critic"), 3);
    let page = open(kind, &mock, "en-US");
    let chip = page.browser.find(".status-chip").unwrap().text().unwrap();
    assert!(chip.contains("mock-small"), "the top bar names the model: {chip}");

    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.wait_stage("DEBATE").unwrap();
    assert_eq!(page.browser.find_all(".design-card").unwrap().len(), 3);
    assert!(
        !page.browser.find_all(".designs-block [data-source=llm]").unwrap().is_empty(),
        "designs are marked as LLM-made"
    );
    assert_eq!(page.browser.find_all(".critique [data-source=llm]").unwrap().len(), 3);

    let requests = mock.requests();
    assert!(
        requests.iter().all(|r| r.path.ends_with(expected_path)),
        "{:?}",
        requests.iter().map(|r| &r.path).collect::<Vec<_>>()
    );
    assert!(requests.iter().all(|r| r.has_auth));
    let critics = by_role(&requests, "critic");
    assert_eq!(critics.len(), 3);
    assert!(critics[0].overlaps(critics[1]) && critics[1].overlaps(critics[2]), "critiques run concurrently");
    assert_eq!(by_role(&requests, "contract-analyst").len(), 1);

    // Rows of finished calls stay as they are when new calls finish: marked now, seen later.
    let marked = page
        .browser
        .execute(
            "const r = document.querySelector('.calls-panel tbody tr'); if (!r) return null; \
             r.dataset.seen = 'yes'; return r.dataset.call;",
            vec![],
        )
        .unwrap();
    let marked = marked.as_str().expect("a calls row before the refine").to_string();

    page.send("add more validation please").unwrap();
    page.wait_count(".designs-block", 2).unwrap();

    // Slow the plan down so its streaming can be seen.
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 40, chunk_bytes: 400 });
    page.send("option 2 looks good").unwrap();
    let partial = page
        .browser
        .wait_for(STEP, "streamed text in a streaming bubble", |b| {
            Ok(match b.try_find(".message.streaming .md")? {
                Some(el) => Some(el.text()?).filter(|t| !t.is_empty()),
                None => None,
            })
        })
        .unwrap();
    page.wait_stage("PLAN").unwrap();
    let plan = page.browser.wait_for_text(".plan-card", "mock", STEP).unwrap();
    assert!(plan.len() > partial.len(), "the partial text grew into the plan");
    assert!(page_has(&page, ".plan-card [data-source=llm]"));

    for r in mock.requests().iter().filter(|r| r.role.as_deref() != Some("contract-analyst")) {
        assert!(r.last_user_text().contains("## REQUIREMENT CONTRACT"), "{:?} lacks the contract", r.role);
    }
    // Every step's instructions reach the model: the release page takes them from the rest of
    // its wasm (tools/split.mjs), not from the part a first visit loads.
    let requests = mock.requests();
    for (role, instructions) in [
        ("contract-analyst", "You turn a user's request into a requirement contract"),
        ("designer", "You design agent pipelines that satisfy a requirement contract"),
        ("refiner", "You revise agent-pipeline designs after the user's feedback"),
        ("critic", "You are the devil's advocate. Attack the design from six angles"),
        ("planner", "You write the implementation plan for the design the user confirmed"),
    ] {
        let asked = by_role(&requests, role);
        assert!(!asked.is_empty(), "no {role} request");
        for r in asked {
            assert!(r.system_prompt().contains(instructions), "the {role} request lacks its instructions");
        }
    }

    // The calls panel lists every call with the model and the tokens the provider reported.
    let chat_calls = mock.requests().iter().filter(|r| r.path.ends_with(expected_path)).count();
    let rows = page.browser.find_all(".calls-panel tbody tr").unwrap();
    assert_eq!(rows.len(), chat_calls, "one row per call");
    for row in &rows {
        let text = row.text().unwrap();
        assert!(text.contains("mock-small"), "{text}");
        assert!(!text.contains("not reported") && text.contains(" → "), "usage is shown: {text}");
    }
    let kept = page
        .browser
        .execute(
            &format!("return document.querySelector('.calls-panel tr[data-call=\"{marked}\"]').dataset.seen || null;"),
            vec![],
        )
        .unwrap();
    assert_eq!(kept.as_str(), Some("yes"), "the first call's row was kept, not rebuilt");
    let total = page.browser.find(".calls-total").unwrap().text().unwrap();
    assert!(total.ends_with("tokens") && !total.starts_with("0 "), "{total}");
    page.browser.execute("document.querySelector('.calls-panel').scrollIntoView()", vec![]).unwrap();
    page.screenshot(&format!("llm-{kind}-calls")).unwrap();
    page.screenshot(&format!("llm-{kind}-plan")).unwrap();
}

#[test]
fn full_discussion_over_openai_chat_completions() {
    full_discussion("openai", "/v1/chat/completions");
}

#[test]
fn full_discussion_over_anthropic_messages() {
    full_discussion("anthropic", "/v1/messages");
}

#[test]
fn stop_aborts_the_stream_keeps_the_text_and_retry_finishes() {
    let _one = one_browser();
    let mock = mock();
    let page = open("openai_compatible", &mock, "en-US");
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.wait_stage("DEBATE").unwrap();
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 150, chunk_bytes: 30 });
    page.send("option 1 is good").unwrap();
    page.browser.wait_for(STEP, "streaming text", |b| Ok(b.try_find(".message.streaming .md")?.map(|_| ()))).unwrap();
    page.browser.find(".composer .stop").unwrap().click().unwrap();
    let kept = page.browser.wait_for(STEP, "the partial text kept after Stop", |b| {
        Ok(if b.try_find(".message.streaming")?.is_none() {
            b.try_find(".message.assistant .bubble .md")?.map(|_| ())
        } else {
            None
        })
    });
    kept.unwrap();
    assert!(page.browser.page_text().unwrap().contains("Stopped"));
    let planner = by_role(&mock.requests(), "planner").into_iter().last().cloned().unwrap();
    let after = mock.wait_for_end_of(planner.seq, STEP).unwrap();
    assert!(
        after.finished_ms.is_some() && after.client_left,
        "the server saw the request end when Stop aborted it: {after:?}"
    );
    assert!(!page_has(&page, ".plan-card"), "a stopped plan is not the plan");

    mock.set_pacing(Pacing::default());
    page.browser.find(".halted .retry").unwrap().click().unwrap();
    page.browser.wait_for_text(".plan-card", "mock", STEP).unwrap();
}

#[test]
fn a_reload_during_a_call_keeps_the_conversation_and_retry_finishes() {
    let _one = one_browser();
    let mock = mock();
    // Slow enough that the page is reloaded while the contract analysis is in flight.
    mock.set_pacing(Pacing { latency_ms: 5_000, chunk_delay_ms: 0, chunk_bytes: 0 });
    let page = open("openai", &mock, "en-US");
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.browser.wait_for_element(".composer .stop", STEP).unwrap();
    page.browser.refresh().unwrap();
    page.browser.wait_for_element("#composer-input", STEP).unwrap();

    let notice = page.browser.wait_for_text(".message.notice", "reloaded", STEP).unwrap();
    assert!(notice.contains("conversation is intact"), "{notice}");
    let users: Vec<String> =
        page.browser.find_all(".message.user").unwrap().iter().map(|m| m.text().unwrap()).collect();
    assert_eq!(users, vec!["Build a daily IT news digest as a Markdown document".to_string()]);
    assert!(page.browser.try_find(".composer .stop").unwrap().is_none(), "nothing is waited for any more");

    mock.set_pacing(Pacing::default());
    page.browser.find(".halted .retry").unwrap().click().unwrap();
    page.wait_stage("DEBATE").unwrap();
    assert!(!page.browser.find_all(".designs-block [data-source=llm]").unwrap().is_empty());
    page.screenshot("llm-reload-resumed").unwrap();
}

#[test]
fn a_reload_during_a_streamed_answer_keeps_what_had_arrived() {
    let _one = one_browser();
    let mock = mock();
    let page = open("openai", &mock, "en-US");
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.wait_stage("DEBATE").unwrap();
    // The plan streams slowly: the page is reloaded once some of it has arrived.
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 400, chunk_bytes: 40 });
    page.send("option 2 looks good").unwrap();
    let partial = page
        .browser
        .wait_for(STEP, "streamed text in a streaming bubble", |b| {
            Ok(match b.try_find(".message.streaming .md")? {
                Some(el) => Some(el.text()?).filter(|t| t.len() > 20),
                None => None,
            })
        })
        .unwrap();
    page.browser.refresh().unwrap();
    page.browser.wait_for_element("#composer-input", STEP).unwrap();

    // The newest notice (earlier steps left notices of their own).
    let notice = page
        .browser
        .wait_for(STEP, "a notice that the answer was cut off", |b| {
            let notices = b.find_all(".message.notice")?;
            Ok(match notices.last() {
                Some(n) => Some(n.text()?).filter(|t| t.contains("cut off")),
                None => None,
            })
        })
        .unwrap();
    assert!(notice.contains("reloaded"), "{notice}");
    let kept = page.browser.find(".messages").unwrap().text().unwrap();
    assert!(kept.contains(&partial), "the streamed part stays: {partial:?} in {kept}");
    assert!(page.browser.try_find(".composer .stop").unwrap().is_none(), "nothing is waited for any more");

    mock.set_pacing(Pacing::default());
    page.browser.find(".halted .retry").unwrap().click().unwrap();
    page.browser.wait_for_text(".plan-card", "mock", STEP).unwrap();
}

/// One failing call during DESIGN: what the user must see, and whether the transport's
/// own bounded retry is expected to hide it.
struct Case {
    name: &'static str,
    fault: Fault,
    times: usize,
    message: &'static str,
    auto_retried: bool,
}

fn status(code: u16, retry_after: Option<u64>) -> Fault {
    Fault::Status { status: code, retry_after, body: None }
}

/// Each fault on the design call: its message shows, the discussion goes on with the
/// heuristic designs (nothing lost), and Retry redoes the step with the LLM.
#[test]
fn every_fault_gives_its_message_loses_nothing_and_retry_succeeds() {
    let _one = one_browser();
    let mock = mock();
    let (s, k) = settings("openai", &mock.base_url(), 2);
    let page = AppPage::open_with_llm("en-US", &s, &k).expect("the page opens");
    let cases = [
        Case {
            name: "401",
            fault: status(401, None),
            times: 1,
            message: "The key was rejected (401)",
            auto_retried: false,
        },
        Case {
            name: "403",
            fault: status(403, None),
            times: 1,
            message: "The key was refused access (403)",
            auto_retried: false,
        },
        Case { name: "404", fault: status(404, None), times: 1, message: "mock-small", auto_retried: false },
        Case { name: "429 once", fault: status(429, Some(1)), times: 1, message: "", auto_retried: true },
        Case {
            name: "429 always",
            fault: status(429, Some(1)),
            times: 3,
            message: "Too many requests (429)",
            auto_retried: false,
        },
        Case { name: "500 once", fault: status(500, None), times: 1, message: "", auto_retried: true },
        Case { name: "502 always", fault: status(502, None), times: 3, message: "(502)", auto_retried: false },
        Case { name: "503 always", fault: status(503, None), times: 3, message: "(503)", auto_retried: false },
        Case {
            name: "timeout",
            fault: Fault::Hang { ms: 6000 },
            times: 1,
            message: "No answer within the time limit",
            auto_retried: false,
        },
        Case { name: "cors", fault: Fault::Cors, times: 1, message: "CORS", auto_retried: false },
        Case {
            name: "malformed",
            fault: Fault::Malformed,
            times: 1,
            message: "could not be read",
            auto_retried: false,
        },
        Case { name: "empty", fault: Fault::Empty, times: 1, message: "empty answer", auto_retried: false },
    ];
    for case in cases {
        mock.reset();
        for _ in 0..case.times {
            mock.push_fault(FaultRule::new(case.fault.clone()).role("designer"));
        }
        page.start_over().unwrap();
        page.send("Build a daily IT news digest as a Markdown document").unwrap();
        page.wait_stage("DEBATE").unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
        let designers = by_role(&mock.requests(), "designer").len();
        if case.auto_retried {
            assert_eq!(designers, 2, "{}: one automatic retry", case.name);
            assert!(!page_has(&page, ".alert-error"), "{}: a retried success shows no error", case.name);
            assert!(page_has(&page, ".designs-block [data-source=llm]"), "{}", case.name);
            continue;
        }
        let alert = page
            .browser
            .wait_for_element(".alert-error", STEP)
            .unwrap_or_else(|e| panic!("{}: no error shown: {e:?}", case.name))
            .text()
            .unwrap();
        assert!(alert.contains(case.message), "{}: {alert}", case.name);
        assert!(alert.contains("Heuristics handled this step"), "{}: {alert}", case.name);
        // Nothing lost: the request, the contract and heuristic designs are there.
        assert!(page.browser.page_text().unwrap().contains("Build a daily IT news digest"), "{}", case.name);
        assert_eq!(page.browser.find_all(".design-card").unwrap().len(), 3, "{}", case.name);
        assert!(page_has(&page, ".designs-block [data-source=heuristic]"), "{}", case.name);
        page.screenshot(&format!("fault-{}", case.name.replace(' ', "-"))).unwrap();

        page.browser.find(".alert-error .button").unwrap().click().unwrap();
        page.browser
            .wait_for(STEP, "LLM designs after Retry", |b| {
                let blocks = b.find_all(".designs-block")?;
                Ok(match blocks.last() {
                    Some(last) => last.find_all("[data-source=llm]")?.first().map(|_| ()),
                    None => None,
                })
            })
            .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
        assert_eq!(page.stage().unwrap(), "DEBATE", "{}", case.name);
    }
}

#[test]
fn connection_refused_then_server_up_and_retry_succeeds() {
    let _one = one_browser();
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let (s, k) = settings("openai_compatible", &format!("http://127.0.0.1:{port}/v1"), 5);
    let page = AppPage::open_with_llm("ko-KR", &s, &k).expect("the page opens");
    page.send("매일 아침 IT 뉴스를 요약해서 마크다운으로 정리해줘").unwrap();
    let alert = page.browser.wait_for_element(".alert-error", STEP).unwrap().text().unwrap();
    assert!(alert.contains("CORS") || alert.contains("연결"), "{alert}");
    // Nothing lost: the request is in the conversation and the contract was still read.
    assert!(page.browser.page_text().unwrap().contains("매일 아침 IT 뉴스"));
    let mock = MockLlm::start(MockConfig { port, api_key: Some(KEY.to_string()), pacing: Pacing::default() }).unwrap();
    page.browser.find(".alert-error .button").unwrap().click().unwrap();
    page.wait_stage("DEBATE").unwrap();
    assert_eq!(by_role(&mock.requests(), "contract-analyst").len(), 1);
    assert!(page_has(&page, ".designs-block [data-source=llm]"));
}

#[test]
fn a_cut_stream_keeps_the_partial_plan_marks_it_and_retry_completes_it() {
    let _one = one_browser();
    let mock = mock();
    let page = open("anthropic", &mock, "en-US");
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.wait_stage("DEBATE").unwrap();
    // Paced, so the browser has read part of the answer when the connection breaks.
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 40, chunk_bytes: 300 });
    mock.push_fault(FaultRule::new(Fault::Cut { after_bytes: 2400, clean: false }).role("planner"));
    page.send("option 1 looks good").unwrap();
    page.wait_stage("PLAN").unwrap();
    let interrupted = page.browser.wait_for_element(".plan-card .interrupted", STEP).unwrap().text().unwrap();
    assert!(interrupted.contains("Interrupted"));
    let alert = page.browser.find(".alert-error").unwrap().text().unwrap();
    assert!(alert.contains("The answer stopped midway"), "{alert}");
    let partial = page.browser.find(".plan-card .md").unwrap().text().unwrap();
    assert!(!partial.is_empty(), "the partial text is kept");
    page.browser.find(".alert-error .button").unwrap().click().unwrap();
    page.browser
        .wait_for(STEP, "a whole plan", |b| {
            Ok(b.find_all(".plan-card")?
                .last()
                .map(|c| c.find_all(".interrupted").map(|v| v.is_empty()))
                .transpose()?
                .filter(|ok| *ok))
        })
        .unwrap();
}

#[test]
fn streamed_model_output_cannot_run_script_or_load_images() {
    let _one = one_browser();
    let mock = mock();
    let page = open("openai", &mock, "en-US");
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.wait_stage("DEBATE").unwrap();
    let payloads = [
        "# Plan",
        "<script>window.__x1 = 1</script>",
        "<img src=x onerror=\"window.__x2 = 1\">",
        "<svg onload=\"window.__x3=1\"><script>window.__x3=1</script></svg>",
        "[click me](javascript:window.__x4=1)",
        "[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194NT0xPC9zY3JpcHQ+)",
        "![tracker](https://127.0.0.1:9/pixel.png?leak=secret)",
        "<a href=\"javascript:window.__x6=1\">raw link</a>",
        "<iframe src=\"javascript:window.__x7=1\"></iframe>",
        "<details open ontoggle=\"window.__x8=1\">x</details>",
        "[ok](https://example.com)",
    ];
    mock.set_pacing(Pacing { latency_ms: 0, chunk_delay_ms: 10, chunk_bytes: 17 });
    mock.script(Some("planner"), payloads.join("\n\n"));
    page.send("option 1 looks good").unwrap();
    page.wait_stage("PLAN").unwrap();
    // Wait for the last payload (the safe link) to be rendered: then every payload is in
    // the DOM as it will stay. No element that could run a handler exists (checked below),
    // so no handler can set a flag later; no waiting on a clock is needed.
    page.browser
        .wait_for(STEP, "the whole plan rendered", |b| {
            Ok(b.execute("return document.querySelectorAll('.plan-card .md a[href^=\"https:\"]').length;", vec![])?
                .as_u64()
                .filter(|n| *n >= 1))
        })
        .unwrap();
    let flags = page
        .browser
        .execute("return [1,2,3,4,5,6,7,8].map(i => window['__x' + i]).filter(v => v !== undefined).length;", vec![])
        .unwrap();
    assert_eq!(flags, json!(0), "no payload ran");
    let dangerous = page
        .browser
        .execute(
            "return document.querySelectorAll('.plan-card script, .plan-card img, .plan-card svg, .plan-card iframe, .plan-card [onerror], .plan-card [onload], .plan-card [ontoggle]').length;",
            vec![],
        )
        .unwrap();
    assert_eq!(dangerous, json!(0));
    let hrefs = page
        .browser
        .execute(
            "return [...document.querySelectorAll('.plan-card .md a')].map(a => a.getAttribute('href') + '|' + a.rel);",
            vec![],
        )
        .unwrap();
    assert_eq!(hrefs, json!(["https://example.com|noopener noreferrer"]), "only the safe link survives");
    assert!(page_has(&page, ".plan-card .img-gate"), "the image waits for a click");
    let pixel_requested = mock.requests().iter().any(|r| r.path.contains("pixel"));
    assert!(!pixel_requested);
}

#[test]
fn settings_dialog_connects_lists_models_and_keeps_the_key_in_memory_only() {
    let _one = one_browser();
    let mock = mock();
    let page = AppPage::open("en-US").expect("the page opens");
    assert!(page.browser.find(".status-chip").unwrap().text().unwrap().contains("No LLM"));
    page.browser.find(".settings-button").unwrap().click().unwrap();
    page.browser.wait_for_element(".dialog.settings", STEP).unwrap();
    page.browser.find("#llm-enabled").unwrap().click().unwrap();
    page.browser.execute(
        "const s = document.querySelector('#designer-kind'); s.value = 'openai'; s.dispatchEvent(new Event('change', {bubbles: true})); return true;",
        vec![],
    ).unwrap();
    page.browser.find("#designer-base-url").unwrap().send_keys(&mock.base_url()).unwrap();
    page.browser.find("#designer-key").unwrap().send_keys(KEY).unwrap();
    page.click_text(".dialog .button", "Load list").unwrap();
    page.browser.wait_for_text(".dialog .test-result.ok", "Loaded 2 models", STEP).unwrap();
    let options = page
        .browser
        .execute("return [...document.querySelectorAll('#designer-models option')].map(o => o.value);", vec![])
        .unwrap();
    assert_eq!(options, json!(["mock-large", "mock-small"]));
    page.browser.find("#designer-model").unwrap().send_keys("mock-small").unwrap();
    page.browser.find("#designer-test").unwrap().click().unwrap();
    page.browser.wait_for_text(".dialog .test-result.ok", "Connected", STEP).unwrap();
    page.screenshot("settings-dialog").unwrap();
    page.browser.find("#settings-save").unwrap().click().unwrap();
    page.browser.wait_for_text(".status-chip", "mock-small", STEP).unwrap();

    // Not remembered: the key is nowhere in storage, and a reload forgets it.
    let stored = page.browser.execute("return JSON.stringify(localStorage);", vec![]).unwrap();
    assert!(!stored.as_str().unwrap().contains(KEY), "{stored}");
    assert!(stored.as_str().unwrap().contains("mock-small"));
    page.browser.refresh().unwrap();
    page.browser.wait_for_element("#composer-input", STEP).unwrap();
    let chip = page.browser.find(".status-chip").unwrap().text().unwrap();
    assert!(chip.contains("not set up"), "{chip}");

    // A wrong key: the test says so in words a person can act on.
    page.browser.find(".settings-button").unwrap().click().unwrap();
    page.browser.find("#designer-key").unwrap().send_keys("wrong-key").unwrap();
    page.browser.find("#designer-test").unwrap().click().unwrap();
    page.browser.wait_for_text(".dialog .test-result.fail", "rejected", STEP).unwrap();
    let logs = page.console_messages().unwrap_or_default();
    assert!(!serde_json::to_string(&logs).unwrap().contains(KEY), "the key never reaches the console");
}

/// The analyzer's answer with a free-text question and no format: the card then asks two
/// questions, the format (with options) and the analyzer's own.
fn contract_with_an_open_question() -> String {
    json!({
        "context": "(mock) A digest for a team.",
        "goal": "(mock) A daily IT news digest",
        "criteria": ["(mock) Five items a day"],
        "format": "",
        "openQuestions": ["(mock) Who reads the digest?"],
        "confidence": "low",
    })
    .to_string()
}

#[test]
fn answering_a_two_question_card_with_its_answer_button_does_not_panic() {
    let _one = one_browser();
    let mock = mock();
    mock.script(Some("contract-analyst"), contract_with_an_open_question());
    let page = open("openai", &mock, "en-US");
    page.send("Build a daily IT news digest").unwrap();
    let card = ".question-card[data-open=true]";
    page.browser.wait_for_element(card, STEP).unwrap();
    assert_eq!(page.browser.find_all(&format!("{card} .question")).unwrap().len(), 2, "two questions on one card");
    let options = page.browser.find_all(&format!("{card} .option")).unwrap();
    assert!(!options.is_empty(), "the format question offers options");
    options[0].click().unwrap();
    let fields = page.browser.find_all(&format!("{card} input.other")).unwrap();
    // A single choice is not copied into its question's Other field.
    assert!(fields.iter().all(|f| f.prop("value").unwrap() == serde_json::json!("")), "Other fields stay empty");
    fields.last().unwrap().send_keys("(mock) the whole team").unwrap();
    page.browser.find(&format!("{card} .submit")).unwrap().click().unwrap();
    page.wait_stage("DEBATE").unwrap();
    let answered = page.browser.find(".question-card[data-open=false]").unwrap().text().unwrap();
    assert!(answered.contains("the whole team"), "the answer is shown on the card: {answered}");
    page.assert_no_panic();
}
