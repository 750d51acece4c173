//! The layout at 360 CSS px wide (a small phone) and at 200 % zoom (a 1280 px window seen
//! through a 640 px wide viewport): neither the page nor the stepper scrolls sideways, and
//! the composer, the send button, the top bar's controls and a card's options can be seen
//! and clicked.

use deliberate_e2e::app::{one_browser, AppPage, STEP};
use serde_json::{json, Value};

/// Makes the viewport `width` × `height` CSS px through Chromium's device metrics, so the
/// page really reflows (a window cannot be made as narrow as a phone).
fn set_viewport(page: &AppPage, width: u32, height: u32) {
    page.browser
        .cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        )
        .expect("device metrics");
    page.browser
        .wait_for(STEP, &format!("a {width} px viewport"), |b| {
            Ok((b.execute("return window.innerWidth;", vec![])? == json!(width)).then_some(()))
        })
        .expect("the viewport takes the width");
    // The artifacts pane slides away when the layout turns narrow.
    page.wait_still(".artifacts").expect("the pane stops moving");
}

/// What overflows: the page's scroll width against its width, and every control of
/// `selector` that is hidden, off screen or covered at its centre (after scrolling it
/// into view), by a short description.
fn layout_problems(page: &AppPage, selector: &str) -> Value {
    page.browser
        .execute(
            "const sel = arguments[0];\n\
             const doc = document.documentElement;\n\
             const problems = [];\n\
             if (doc.scrollWidth > window.innerWidth) problems.push(`page scrolls sideways: ${doc.scrollWidth} > ${window.innerWidth}`);\n\
             const steps = document.querySelector('.stepper');\n\
             if (steps && steps.scrollWidth > steps.clientWidth + 1) problems.push(`the stepper scrolls sideways: ${steps.scrollWidth} > ${steps.clientWidth}`);\n\
             for (const el of document.querySelectorAll(sel)) {\n\
               el.scrollIntoView({ block: 'center', inline: 'center' });\n\
               const r = el.getBoundingClientRect();\n\
               const name = `${el.tagName.toLowerCase()}.${el.className} \"${(el.textContent || '').trim().slice(0, 30)}\"`;\n\
               if (r.width === 0 || r.height === 0) { problems.push(`${name} is not shown`); continue; }\n\
               if (r.left < 0 || r.right > window.innerWidth + 0.5) problems.push(`${name} sticks out: ${r.left}..${r.right}`);\n\
               const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);\n\
               if (!hit || !(el === hit || el.contains(hit) || hit.contains(el) || (el.labels && [...el.labels].some(l => l.contains(hit)))))\n\
                 problems.push(`${name} is covered by ${hit ? hit.tagName + '.' + hit.className : 'nothing'}`);\n\
             }\n\
             return problems;",
            vec![json!(selector)],
        )
        .expect("the layout can be measured")
}

const CONTROLS: &str = ".topbar-tools button, .topbar-tools select, #composer-input, .composer button";

fn assert_usable(page: &AppPage, what: &str, extra: &str) {
    let selector = if extra.is_empty() { CONTROLS.to_string() } else { format!("{CONTROLS}, {extra}") };
    let problems = layout_problems(page, &selector);
    assert_eq!(problems, json!([]), "{what}");
}

fn walk(page: &AppPage, width: u32, height: u32, label: &str) {
    set_viewport(page, width, height);
    assert_usable(page, &format!("{label}: the empty page"), "");
    // The send button shows once there is text.
    page.browser.find("#composer-input").unwrap().send_keys("x").unwrap();
    assert_usable(page, &format!("{label}: with text to send"), "");
    page.browser.find("#composer-input").unwrap().clear().unwrap();
    page.send("Build a pipeline that summarizes IT news every morning").unwrap();
    page.browser.wait_for_element(".question-card[data-open=true] .option", STEP).unwrap();
    assert_usable(
        page,
        &format!("{label}: a question card"),
        ".question-card[data-open=true] :is(.option, .submit, input)",
    );
    page.send("Markdown, and it must cover at least five sources").unwrap();
    page.browser.wait_for_element(".design-card .choose", STEP).ok();
    assert_usable(page, &format!("{label}: the designs"), ".design-card .choose");
    page.screenshot(&format!("layout-{label}")).unwrap();
}

#[test]
fn at_360_px_wide_nothing_scrolls_sideways_and_every_control_is_reachable() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    walk(&page, 360, 740, "360px");
}

#[test]
fn at_200_percent_zoom_nothing_scrolls_sideways_and_every_control_is_reachable() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    // A 1280 × 900 window at 200 %: 640 × 450 CSS px.
    walk(&page, 640, 450, "zoom-200");
}
