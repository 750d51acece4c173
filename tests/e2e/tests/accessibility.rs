//! axe-core on every stage of every mode, in Korean and English, light and dark: no
//! violation of impact serious or critical. One page for the whole walk; the language and
//! the theme are switched in the page through the top bar, as a person would.

use deliberate::scenario::COUNSEL_EN;
use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::axe::{audit, axe_source, Violation};
use deliberate_e2e::counsel_turn::{send_and_wait, switch_to_counseling};
use serde_json::json;

/// Every look a page is checked in: (UI language, theme).
const LOOKS: [(&str, &str); 4] = [("ko", "light"), ("ko", "dark"), ("en", "dark"), ("en", "light")];

/// Switches the UI language and the theme through the top bar's controls, then waits
/// until the document says so.
fn set_look(page: &AppPage, lang: &str, theme: &str) {
    page.browser
        .execute(
            "const [lang, theme] = arguments;\n\
             const select = document.querySelector('#lang-select');\n\
             if (select.value !== lang) { select.value = lang; select.dispatchEvent(new Event('change', { bubbles: true })); }\n\
             if (document.documentElement.dataset.theme !== theme) document.querySelector('.theme-toggle').click();\n\
             return true;",
            vec![json!(lang), json!(theme)],
        )
        .expect("the look can be switched");
    page.browser
        .wait_for(STEP, &format!("lang {lang}, theme {theme}"), |b| {
            let now =
                b.execute("return [document.documentElement.lang, document.documentElement.dataset.theme];", vec![])?;
            Ok((now == json!([lang, theme])).then_some(()))
        })
        .expect("the look applies");
}

/// Runs axe in every look and collects what it refuses.
struct Audit<'p> {
    page: &'p AppPage,
    axe: String,
    runs: usize,
    failures: Vec<String>,
    /// Rules broken at a lower impact, with where: printed, not refused.
    notes: Vec<String>,
}

impl<'p> Audit<'p> {
    fn new(page: &'p AppPage) -> Self {
        Audit { page, axe: axe_source(), runs: 0, failures: Vec::new(), notes: Vec::new() }
    }

    fn check(&mut self, state: &str) {
        for (lang, theme) in LOOKS {
            set_look(self.page, lang, theme);
            let found: Vec<Violation> = audit(&self.page.browser, &self.axe).expect("axe runs");
            self.runs += 1;
            for v in found {
                let line = format!("{state} · {lang} · {theme}: {}", v.describe());
                if v.is_blocking() {
                    self.failures.push(line);
                } else {
                    self.notes.push(format!("{state} · {lang} · {theme}: [{}] {}", v.impact, v.rule));
                }
            }
        }
    }

    fn finish(self) {
        eprintln!("axe: {} runs, {} serious or critical, {} lesser", self.runs, self.failures.len(), self.notes.len());
        for n in &self.notes {
            eprintln!("  note: {n}");
        }
        assert!(self.failures.is_empty(), "axe found serious or critical violations:\n{}", self.failures.join("\n"));
    }
}

/// Opens every `<details>` so that what they hide is checked too.
fn open_details(page: &AppPage) {
    page.browser
        .execute("document.querySelectorAll('details').forEach(d => d.open = true); return true;", vec![])
        .unwrap();
}

fn click(page: &AppPage, css: &str) {
    page.browser.find(css).unwrap_or_else(|e| panic!("{css}: {e}")).click().unwrap_or_else(|e| panic!("{css}: {e}"));
}

#[test]
fn every_stage_of_every_mode_passes_axe_in_both_languages_and_themes() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    let b = &page.browser;
    let mut axe = Audit::new(&page);

    // The discussion, from the empty page to the plan.
    axe.check("discussion: fresh");
    page.send("매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘").unwrap();
    b.wait_for_element(".question-card[data-open=true]", STEP).unwrap();
    axe.check("discussion: clarifying card");
    page.click_text(".question-card[data-open=true] .option-label", "마크다운").unwrap();
    click(&page, ".question-card[data-open=true] .submit");
    page.wait_stage("DEBATE").unwrap();
    page.wait_count(".critique", 3).unwrap();
    open_details(&page);
    axe.check("discussion: designs and critique (debate)");
    page.send("비용을 더 줄여 주세요").unwrap();
    page.wait_count(".designs-block", 2).unwrap();
    open_details(&page);
    axe.check("discussion: refined designs");
    page.send("2번이 좋아요").unwrap();
    page.wait_stage("PLAN").unwrap();
    b.wait_for_element(".plan-card", STEP).unwrap();
    open_details(&page);
    axe.check("discussion: confirmed, plan");

    // The Settings dialog over the plan.
    click(&page, ".settings-button");
    b.wait_for_element(".dialog.settings", STEP).unwrap();
    axe.check("settings dialog");
    // With the LLM fields enabled (not saved: Escape cancels).
    click(&page, ".dialog.settings #llm-enabled");
    b.wait_for(STEP, "the endpoint fields enabled", |b| Ok((b.find("#designer-model")?.is_enabled()?).then_some(())))
        .unwrap();
    axe.check("settings dialog, LLM fields enabled");
    b.find("#designer-model").unwrap().send_keys("\u{E00C}").unwrap();
    b.wait_for(STEP, "the dialog closes", |b| Ok(b.try_find(".dialog.settings")?.is_none().then_some(()))).unwrap();

    // The sessions list over the plan, then renaming in it (Escape closes it).
    click(&page, ".sessions-button");
    b.wait_for_element(".dialog.sessions .session-row", STEP).unwrap();
    axe.check("sessions list");
    click(&page, ".dialog.sessions .session-rename-button");
    b.wait_for_element(".dialog.sessions .session-rename input", STEP).unwrap();
    axe.check("sessions list, renaming");
    b.find(".dialog.sessions .session-rename input").unwrap().send_keys("\u{E00C}").unwrap();
    b.wait_for(STEP, "the list closes", |b| Ok(b.try_find(".dialog.sessions")?.is_none().then_some(()))).unwrap();

    // The chat: empty, a question card, a dangerous command to confirm, a reply.
    click(&page, ".new-conversation");
    b.wait_for(STEP, "an empty conversation", |b| Ok(b.try_find(".welcome")?.map(|_| ()))).unwrap();
    page.send("/mode chat").unwrap();
    b.wait_for_element(".context-meter", STEP).unwrap();
    axe.check("chat: empty");
    page.send("빌드 폴더 좀 지워 줘").unwrap();
    b.wait_for_element(".question-card[data-open=true]", STEP).unwrap();
    axe.check("chat: question card");
    page.click_text(".question-card[data-open=true] .option-label", "빌드 결과물").unwrap();
    b.wait_for_element(".command-card[data-open=true][data-danger=true]", STEP).unwrap();
    axe.check("chat: dangerous command to confirm");
    click(&page, ".confirm-danger");
    b.wait_for_element(".command-card[data-open=true] .copy", STEP).unwrap();
    axe.check("chat: command to run");
    click(&page, ".command-card[data-open=true] .it-failed");
    b.wait_for_text(".messages", "실패했군요", STEP).unwrap();
    axe.check("chat: reply");

    // Counseling: the opening, a reply, the summary at the end.
    click(&page, ".new-conversation");
    b.wait_for(STEP, "an empty conversation", |b| Ok(b.try_find(".welcome")?.map(|_| ()))).unwrap();
    switch_to_counseling(&page).unwrap();
    axe.check("counseling: opening");
    send_and_wait(&page, "Sometimes I think it would be easier if I just didn't wake up").unwrap();
    b.wait_for_element(".counsel-crisis", STEP).unwrap();
    axe.check("counseling: crisis response");
    for text in COUNSEL_EN {
        send_and_wait(&page, text).unwrap();
        if b.try_find(".counsel-summary").unwrap().is_some() {
            break;
        }
    }
    b.wait_for_element(".counsel-summary", STEP).unwrap();
    axe.check("counseling: summary");

    axe.finish();
}
