//! Counseling mode end to end against the release build: a whole session through the page
//! with no key, and one against the mock LLM (checker ∥ detector, counselor, supervisor).

use std::time::Duration;

use deliberate::scenario::COUNSEL_EN;
use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::counsel_turn::{replies, send_and_wait, switch_to_counseling, REPLIES as REPLIES_CSS};
use deliberate_e2e::mock_llm::{Fault, FaultRule, MockConfig, MockLlm, Pacing};
use serde_json::json;

fn text_of(page: &AppPage, css: &str) -> String {
    page.browser.find(css).and_then(|e| e.text()).unwrap_or_default()
}

#[test]
fn a_whole_counseling_session_through_the_page_without_a_key() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    switch_to_counseling(&page).unwrap();
    let opening = replies(&page).unwrap().last().cloned().unwrap_or_default();
    assert!(opening.contains("not a licensed counselor") && opening.contains("no-key"), "{opening}");
    assert!(text_of(&page, ".counsel-part").contains("Part 1"));
    assert_eq!(page.browser.find_all(".counsel-tasks .task").unwrap().len(), 3, "Part 1's fixed tasks");
    // The composer invites a counseling message, not a discussion's answer or feedback.
    let hint = page.browser.find("#composer-input").unwrap().attr("placeholder").unwrap().unwrap_or_default();
    assert!(hint.starts_with("Say what's on your mind"), "{hint}");
    // The module reads as its name and what it does, not its name twice.
    let module = text_of(&page, ".counsel-module");
    assert!(module.starts_with("rapport building module — Greet warmly"), "{module}");
    page.screenshot("counsel-00-opening").unwrap();

    // Crisis language gets the fixed safety response at once.
    let safety = send_and_wait(&page, "Sometimes I think it would be easier if I just didn't wake up").unwrap();
    assert!(safety.contains("109") && safety.contains("119"), "{safety}");
    assert!(page.browser.try_find(".counsel-crisis").unwrap().is_some(), "the panel notes it");

    for (n, text) in COUNSEL_EN.iter().enumerate() {
        let reply = send_and_wait(&page, text).unwrap();
        assert!(!reply.trim().is_empty(), "message {}", n + 1);
        if n == 4 {
            page.scroll_to(".counsel-module-panel").unwrap();
            page.screenshot("counsel-01-exploration").unwrap();
        }
    }
    page.browser
        .wait_for(STEP, "the session ended", |b| Ok((b.find_all(".part-stepper .step.done")?.len() == 3).then_some(())))
        .unwrap();
    // The part changes are announced politely, as the discussion's stages are.
    let said = page.browser.wait_for_text("#stage-announcer", "session ended", STEP).expect("the end is announced");
    assert!(said.starts_with("Counseling:"), "{said}");
    // The module changed at least once and says why.
    assert!(!text_of(&page, ".counsel-module-why").contains("not changed"));
    // Supervision every 3rd user message: 11 messages → 3 scores in the chart.
    let chart = page.browser.find(".score-chart[role=img]").unwrap();
    assert_eq!(chart.attr("data-scores").unwrap().unwrap_or_default().split(',').count(), 3);
    assert!(chart.attr("aria-label").unwrap().unwrap_or_default().starts_with("Supervision scores"));
    let summary = text_of(&page, ".counsel-summary");
    assert!(summary.contains("Goals set") && summary.contains("Next steps"), "{summary}");
    let href = page.browser.find(".counsel-download").unwrap().attr("href").unwrap().unwrap_or_default();
    assert!(href.starts_with("data:text/markdown"), "{href}");
    page.scroll_to(".counsel-summary-panel").unwrap();
    page.screenshot("counsel-02-summary").unwrap();

    // The saved session comes back after a reload, still in counseling.
    page.browser.refresh().unwrap();
    page.browser.wait_for_element(".part-stepper", STEP).unwrap();
    assert!(text_of(&page, ".counsel-summary").contains("Goals set"));
}

#[test]
fn a_counseling_session_against_the_mock_llm() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    mock.set_pacing(Pacing { latency_ms: 300, chunk_delay_ms: 0, chunk_bytes: 0 });
    let settings = mock.app_settings(10);
    let page = AppPage::open_with_llm("ko-KR", &settings, &json!({})).expect("the page opens");
    switch_to_counseling(&page).unwrap();
    let opening = replies(&page).unwrap().last().cloned().unwrap_or_default();
    assert!(opening.contains("상담사는 아니에요") && !opening.contains("API 키 없이"), "{opening}");

    for text in ["안녕하세요, 저는 민지예요", "회사 일 때문에 힘들어서 왔어요", "상사가 자꾸 소리를 질러요"]
    {
        let reply = send_and_wait(&page, text).unwrap();
        assert!(reply.contains("(mock counselor)"), "{reply}");
    }
    // Per turn: checker ∥ detector, the Module Selector (with the Task Planner on message 3),
    // the counselor; one supervision after message 3.
    let requests = mock.wait_for_finished(14, Duration::from_secs(10));
    let of = |role: &str| requests.iter().filter(|r| r.role.as_deref() == Some(role)).collect::<Vec<_>>();
    let (checks, states, replies_made) = (of("counsel-task-checker"), of("counsel-state-detector"), of("counselor"));
    assert_eq!((checks.len(), states.len(), replies_made.len()), (3, 3, 3));
    let (selectors, planners) = (of("counsel-module-selector"), of("counsel-planner"));
    assert_eq!(selectors.len(), 3, "one Module Selector call per turn");
    for (sel, reply) in selectors.iter().zip(&replies_made) {
        assert!(
            sel.finished_ms.is_some_and(|end| end <= reply.started_ms),
            "the selector answers before the counselor"
        );
    }
    assert!(planners.iter().all(|p| selectors.iter().any(|s| s.overlaps(p))), "the planner runs with the selector");
    for (c, s) in checks.iter().zip(&states) {
        assert!(c.overlaps(s), "checker and detector run at the same time");
    }
    assert!(replies_made.iter().all(|r| r.stream), "the counselor streams");
    assert_eq!(of("counsel-supervisor").len(), 1, "one supervision after the 3rd message");
    // The mock's supervision (score 6) reaches the chart and the next counselor prompt.
    page.browser.wait_for_element(".score-chart", STEP).unwrap();
    send_and_wait(&page, "잠도 잘 못 자요").unwrap();
    let last = mock.requests().into_iter().rev().find(|r| r.role.as_deref() == Some("counselor")).unwrap();
    assert!(last.system_prompt().contains("(mock) Reflect the feeling"), "feedback applied on the next turn");

    // The mock's checker completes every task: the session walks to its end.
    for text in ["네", "이번 주에는 산책을 해 볼게요", "고마워요", "안녕히 계세요"] {
        send_and_wait(&page, text).unwrap();
        if page.browser.try_find(".counsel-summary").unwrap().is_some() {
            break;
        }
    }
    page.browser.wait_for_element(".counsel-summary", STEP).unwrap();
    assert!(text_of(&page, ".counsel-summary").contains("정한 목표"));
    page.screenshot("counsel-03-mock-llm").unwrap();
}

#[test]
fn a_user_who_asks_to_stop_closes_the_session_with_a_yes_and_no_model_call() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    let settings = mock.app_settings(10);
    let page = AppPage::open_with_llm("ko-KR", &settings, &json!({})).expect("the page opens");
    switch_to_counseling(&page).unwrap();
    let reply = send_and_wait(&page, "회사 일 때문에 힘들어서 왔어요").unwrap();
    assert!(reply.contains("(mock counselor)"), "{reply}");
    let counselor_calls =
        |mock: &MockLlm| mock.requests().iter().filter(|r| r.role.as_deref() == Some("counselor")).count();
    mock.wait_for_finished(1, Duration::from_secs(10));
    let before = counselor_calls(&mock);
    let offer = send_and_wait(&page, "오늘은 여기까지 할게요").unwrap();
    assert!(offer.contains("마무리할까요"), "{offer}");
    assert!(page.browser.try_find(".counsel-summary").unwrap().is_none(), "an offer only: nothing closed yet");
    let farewell = send_and_wait(&page, "네").unwrap();
    assert!(farewell.contains("마무리할게요") && farewell.contains("요약"), "{farewell}");
    page.browser.wait_for_element(".counsel-summary", STEP).unwrap();
    assert_eq!(counselor_calls(&mock), before, "the closing is the app's own text, not the model's");
    page.assert_no_panic();
}

/// The mock counselor's whole reply.
const MOCK_REPLY: &str = "(mock counselor) Thank you for telling me. What feels most important right now?";

#[test]
fn stop_halts_a_streaming_counselor_reply_retry_redoes_it_and_the_supervision_runs_on() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    mock.set_pacing(Pacing { latency_ms: 100, chunk_delay_ms: 0, chunk_bytes: 0 });
    let settings = mock.app_settings(30);
    let page = AppPage::open_with_llm("en-US", &settings, &json!({})).expect("the page opens");
    switch_to_counseling(&page).unwrap();
    // The supervision after message 3 stays in flight for a while (the server holds it).
    mock.push_fault(FaultRule::new(Fault::Hang { ms: 15_000 }).role("counsel-supervisor"));
    for text in ["Hi, I'm Sam", "Work has been really stressful lately", "My boss criticizes me in every meeting"] {
        assert!(send_and_wait(&page, text).unwrap().ends_with(MOCK_REPLY));
    }
    let supervisor = mock
        .requests()
        .into_iter()
        .find(|r| r.role.as_deref() == Some("counsel-supervisor"))
        .expect("the supervision started after the 3rd reply");

    // Message 4: every answer comes in slow pieces (the counselor's stream over seconds);
    // Stop while the reply streams.
    mock.set_pacing(Pacing { latency_ms: 100, chunk_delay_ms: 150, chunk_bytes: 40 });
    let before = replies(&page).unwrap().len();
    page.send("I can't sleep well because of it").unwrap();
    page.browser
        .wait_for(STEP, "the counselor's reply streaming", |b| {
            Ok(match b.try_find(".message.streaming .md")? {
                Some(md) if md.text()?.contains("(mock") => Some(()),
                _ => None,
            })
        })
        .unwrap();
    page.browser.find(".composer .stop").unwrap().click().unwrap();
    page.browser
        .wait_for(STEP, "the composer taking input again", |b| {
            Ok((b.try_find(".bubble.streaming")?.is_none() && b.try_find(".composer .send")?.is_some()).then_some(()))
        })
        .unwrap();
    let halted = text_of(&page, ".halted");
    assert!(halted.contains("Stopped"), "the stopped step is marked: {halted}");
    let after_stop = replies(&page).unwrap();
    assert_eq!(after_stop.len(), before + 1, "the partial reply stays");
    // The message's last line is its text (a source label comes first).
    let partial = after_stop.last().unwrap().lines().last().unwrap_or_default().trim().to_string();
    assert!(!partial.is_empty() && partial.len() < MOCK_REPLY.len() && MOCK_REPLY.starts_with(&partial), "{partial}");
    page.browser.find("#composer-input").unwrap().send_keys("typing works").unwrap();
    let typed = page.browser.find("#composer-input").unwrap().prop("value").unwrap();
    assert_eq!(typed.as_str(), Some("typing works"), "the composer accepts input again");
    page.browser.execute("document.querySelector('#composer-input').value = ''; return true;", vec![]).unwrap();
    // Stop left the background supervision alone.
    let now = mock.requests().into_iter().find(|r| r.seq == supervisor.seq).unwrap();
    assert!(!now.client_left, "Stop did not abort the supervision: {now:?}");

    // Retry redoes the turn; a full reply arrives.
    mock.set_pacing(Pacing { latency_ms: 100, chunk_delay_ms: 0, chunk_bytes: 0 });
    page.browser.find(".halted .retry").unwrap().click().unwrap();
    page.browser
        .wait_for(STEP, "the retried full reply", |b| {
            let all = b.find_all(REPLIES_CSS)?;
            let idle = b.try_find(".bubble.streaming")?.is_none() && b.try_find(".composer .send")?.is_some();
            Ok((idle && all.len() > before + 1 && all[all.len() - 1].text()?.ends_with(MOCK_REPLY)).then_some(()))
        })
        .unwrap();
    assert!(page.browser.try_find(".halted").unwrap().is_none());
    // The supervision ends on the server's side, not the client's, and its score shows.
    let ended = mock.wait_for_end_of(supervisor.seq, Duration::from_secs(25)).expect("the supervision ended");
    assert!(!ended.client_left, "{ended:?}");
    let chart = page.browser.wait_for_element(".score-chart[role=img]", Duration::from_secs(15)).unwrap();
    assert!(!chart.attr("data-scores").unwrap().unwrap_or_default().is_empty());
}

/// The `max_tokens` every model request asked for.
fn answer_limits(mock: &MockLlm) -> Vec<(Option<String>, u64)> {
    mock.requests().into_iter().map(|r| (r.role.clone(), r.body["max_tokens"].as_u64().unwrap_or(0))).collect()
}

#[test]
fn a_discussion_and_a_counseling_session_with_long_inputs_fit_a_2048_window() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    // A llama.cpp server started with `-c 2048`: its `/props` says so.
    mock.set_server_window(Some(2048));
    let settings = mock.app_settings(10);
    let page = AppPage::open_with_llm("en-US", &settings, &json!({})).expect("the page opens");
    // The window is asked for in the background as the page opens: wait for the answer.
    page.browser
        .wait_for(STEP, "the server's window was reported", |_| Ok((mock.window_reports() > 0).then_some(())))
        .unwrap();

    let detail = "The team reads it every morning, so each item needs its source, a two-line summary and a tag. ";
    page.send(&format!("Build a daily IT news digest as a Markdown document. {}", detail.repeat(5))).unwrap();
    page.wait_stage("DEBATE").unwrap();
    for i in 0..3 {
        page.send(&format!("round {i}: add more validation and keep it cheap. {}", detail.repeat(4))).unwrap();
        page.wait_count(".designs-block", i + 2).unwrap();
    }
    page.send("option 2 looks good").unwrap();
    page.wait_stage("PLAN").unwrap();
    page.browser.wait_for_element(".plan-card [data-source=llm]", STEP).unwrap();

    page.send("/mode counseling").unwrap();
    page.browser.wait_for_element(".part-stepper", STEP).unwrap();
    let long = "Work has been too much lately: my manager keeps adding tasks, I cannot say no, I work on weekends and I barely see my family. ";
    for text in [long.repeat(3), long.repeat(4), long.repeat(5)] {
        let reply = send_and_wait(&page, &text).unwrap();
        assert!(reply.contains("(mock counselor)"), "{reply}");
    }

    let messages = text_of(&page, ".messages");
    assert!(!messages.contains("context window"), "no overflow was reported: {messages}");
    let limits = answer_limits(&mock);
    for role in ["contract-analyst", "designer", "critic", "refiner", "planner", "counselor", "counsel-task-checker"] {
        assert!(limits.iter().any(|(r, _)| r.as_deref() == Some(role)), "{role} never called: {limits:?}");
    }
    // The designer and planner ask for 3,000 tokens at most: at a 2,048 window every answer
    // limit is what the window leaves after the prompt.
    assert!(limits.iter().all(|(_, max)| *max > 0 && *max < 2048), "{limits:?}");
    page.screenshot("counsel-05-window-2048").unwrap();
}
