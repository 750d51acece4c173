//! Counseling mode end to end against the release build: a whole session through the page
//! with no key, and one against the mock LLM (checker ∥ detector, counselor, supervisor).

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use deliberate::scenario::COUNSEL_EN;
use deliberate_e2e::app::{AppPage, STEP};
use deliberate_e2e::counsel_turn::{replies, send_and_wait, switch_to_counseling};
use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing};
use serde_json::json;

/// One Chromium at a time: the machine has two cores.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

fn one_browser() -> MutexGuard<'static, ()> {
    ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner())
}

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
    let settings = json!({
        "enabled": true,
        "designer": { "kind": "openai_compatible", "base_url": mock.base_url(), "model": "mock-small" },
        "separate_critic": false,
        "critic": { "kind": "openai_compatible", "base_url": mock.base_url(), "model": "mock-small" },
        "remember_keys": false,
        "timeout_secs": 10
    });
    let page = AppPage::open_with_llm("ko-KR", &settings, &json!({})).expect("the page opens");
    switch_to_counseling(&page).unwrap();
    let opening = replies(&page).unwrap().last().cloned().unwrap_or_default();
    assert!(opening.contains("상담사는 아니에요") && !opening.contains("API 키 없이"), "{opening}");

    for text in ["안녕하세요, 저는 민지예요", "회사 일 때문에 힘들어서 왔어요", "상사가 자꾸 소리를 질러요"]
    {
        let reply = send_and_wait(&page, text).unwrap();
        assert!(reply.contains("(mock counselor)"), "{reply}");
    }
    let requests = mock.wait_for_finished(11, Duration::from_secs(10));
    let of = |role: &str| requests.iter().filter(|r| r.role.as_deref() == Some(role)).collect::<Vec<_>>();
    let (checks, states, replies_made) = (of("counsel-task-checker"), of("counsel-state-detector"), of("counselor"));
    assert_eq!((checks.len(), states.len(), replies_made.len()), (3, 3, 3));
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
