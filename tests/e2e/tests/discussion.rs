//! End to end against the release build: a one-line Korean request to a plan with no
//! key, in headless Chromium driven over WebDriver, with a screenshot of every stage
//! under `target/e2e-screenshots/`.

use deliberate_e2e::app::{one_browser, AppPage};

#[test]
fn korean_request_to_plan_without_a_key() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    assert!(page.app_ready_ms().unwrap().is_some(), "the app marks app-ready");
    // The UI follows the browser language.
    assert_eq!(page.browser.find(".restart").unwrap().text().unwrap(), "다시 시작");
    page.screenshot("00-welcome").unwrap();

    page.send("매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘").unwrap();
    page.browser.wait_for_element(".question-card[data-open=true]", deliberate_e2e::app::STEP).unwrap();
    assert_eq!(page.stage().unwrap(), "UNDERSTAND");
    page.screenshot("01-understand-question").unwrap();

    // The format question offers choices; pick Markdown, skip the criteria question.
    page.click_text(".question-card[data-open=true] .option", "마크다운").unwrap();
    page.browser.find(".question-card[data-open=true] .submit").unwrap().click().unwrap();
    page.wait_stage("DEBATE").unwrap();
    assert_eq!(page.wait_count(".design-card", 3).unwrap(), 3);
    assert_eq!(page.browser.find_all(".critique .score-bar").unwrap().len(), 3);
    assert!(
        !page.browser.find_all(".designs-block .badge-heuristic").unwrap().is_empty(),
        "heuristic artifacts are marked"
    );
    page.scroll_to(".designs-block").unwrap();
    page.screenshot("02-present-designs").unwrap();
    page.scroll_to(".critique-block").unwrap();
    page.screenshot("03-debate-critique").unwrap();

    page.send("비용을 더 줄여 주세요").unwrap();
    page.wait_count(".designs-block", 2).unwrap();
    let round = page.browser.find(".stepper .round").unwrap().text().unwrap();
    assert!(round.contains("1/5"), "{round}");
    page.scroll_to(".changes").unwrap();
    page.screenshot("04-refine").unwrap();

    page.send("2번이 좋아요").unwrap();
    page.wait_stage("PLAN").unwrap();
    let plan = page.browser.wait_for_text(".plan-card", "실행 계획", deliberate_e2e::app::STEP).unwrap();
    assert!(plan.contains("구축 단계"), "{plan}");
    page.scroll_to(".plan-card").unwrap();
    page.screenshot("05-plan").unwrap();

    // Every stage was passed: six done, PLAN current.
    assert_eq!(page.browser.find_all(".step.done").unwrap().len(), 6);
}

#[test]
fn english_browser_gets_the_english_interface_and_narrow_layout_works() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    assert_eq!(page.browser.find(".restart").unwrap().text().unwrap(), "Restart");
    page.send("Classify support tickets into a table").unwrap();
    page.wait_stage("DEBATE").unwrap();
    page.browser.set_window_size(400, 800).unwrap();
    let toggle = page.browser.find(".drawer-toggle").unwrap();
    assert!(toggle.is_displayed().unwrap(), "the drawer toggle appears on a narrow screen");
    toggle.click().unwrap();
    page.browser.wait_for_element(".artifacts.open", deliberate_e2e::app::STEP).unwrap();
    page.wait_still(".artifacts.open").unwrap();
    page.screenshot("06-narrow-artifacts-drawer").unwrap();
}
