//! The layout at 360 CSS px wide (a small phone), at 1,100 px (a laptop window) and at 200 %
//! zoom (a 1280 px window seen through a 640 px wide viewport): neither the page nor the
//! stepper scrolls sideways, the tagline shows whole words or none, and
//! the composer, the send button, the top bar's controls and a card's options can be seen
//! and clicked; on a phone the top bar keeps to two rows and folds its other controls into a
//! menu that the keyboard, a click beside it and a dialog opened from it all handle.

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
             const tagline = document.querySelector('.brand .tagline');\n\
             if (tagline && tagline.offsetWidth > 0 && tagline.offsetWidth < 60) problems.push(`the tagline shows a stub: ${tagline.offsetWidth} px`);\n\
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

/// The top bar's own controls (not its menu's, which a narrow screen folds away) and the
/// composer's.
const CONTROLS: &str = ".topbar-tools > :is(button, select), .topbar-end > button, #composer-input, .composer button";

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
fn in_a_laptop_window_the_stepper_fits_and_the_tagline_shows_whole_words_or_none() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    // 1,100 px: the conversation column beside the side pane is about 740 px.
    set_viewport(&page, 1100, 800);
    assert_eq!(layout_problems(&page, "#composer-input"), json!([]), "1100px: the empty page");
    page.send("Build a pipeline that summarizes IT news every morning as Markdown").unwrap();
    page.browser.wait_for_element(".design-card .choose", STEP).unwrap();
    assert_eq!(layout_problems(&page, ".design-card .choose"), json!([]), "1100px: the designs");
}

#[test]
fn at_200_percent_zoom_nothing_scrolls_sideways_and_every_control_is_reachable() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    // A 1280 × 900 window at 200 %: 640 × 450 CSS px.
    walk(&page, 640, 450, "zoom-200");
}

/// What has focus, by its class.
fn focused_class(page: &AppPage) -> String {
    let cls = page.browser.execute("const a = document.activeElement; return a ? a.className : '';", vec![]);
    cls.expect("script runs").as_str().unwrap_or_default().to_string()
}

/// The menu's state: whether it is shown and what its button says of it.
fn menu_state(page: &AppPage) -> (bool, String) {
    let shown = page.browser.find("#topbar-menu").unwrap().is_displayed().unwrap();
    let expanded = page.browser.find(".menu-toggle").unwrap().attr("aria-expanded").unwrap().unwrap_or_default();
    (shown, expanded)
}

fn wait_menu(page: &AppPage, open: bool, what: &str) {
    let want = (open, open.to_string());
    page.browser.wait_for(STEP, what, |_| Ok((menu_state(page) == want).then_some(()))).expect(what);
}

#[test]
fn on_a_phone_the_top_bar_keeps_two_rows_and_its_menu_holds_the_rest() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    set_viewport(&page, 360, 740);
    // Nine controls wrapped to four rows (165 px) before; the brand and one row of tools now.
    let height = b.execute("return document.querySelector('.app > .topbar').getBoundingClientRect().height;", vec![]);
    let height = height.unwrap().as_f64().unwrap();
    assert!(height <= 100.0, "the top bar is {height} px high");
    wait_menu(&page, false, "the menu starts closed");
    assert_eq!(
        b.execute("return document.querySelectorAll('#topbar-menu :is(button, select)').length;", vec![]).unwrap(),
        json!(6),
        "settings, language, theme, restart, conversations and new conversation are in the menu"
    );

    // By keyboard: Enter opens it, every control in it can be seen and clicked, Escape closes
    // it and gives the focus back to its button.
    b.execute("document.querySelector('.menu-toggle').focus(); return true;", vec![]).unwrap();
    b.find(".menu-toggle").unwrap().send_keys("\u{E007}").unwrap();
    wait_menu(&page, true, "Enter opens the menu");
    assert_eq!(layout_problems(&page, "#topbar-menu :is(button, select)"), json!([]), "the open menu");
    b.find("#topbar-menu .theme-toggle").unwrap().send_keys("\u{E00C}").unwrap();
    wait_menu(&page, false, "Escape closes the menu");
    assert!(focused_class(&page).contains("menu-toggle"), "focus on the menu button: {}", focused_class(&page));

    // Tab past its last control closes it.
    b.find(".menu-toggle").unwrap().click().unwrap();
    wait_menu(&page, true, "a click opens the menu");
    b.execute("document.querySelector('#topbar-menu .new-conversation').focus(); return true;", vec![]).unwrap();
    b.find("#topbar-menu .new-conversation").unwrap().send_keys("\u{E004}").unwrap();
    wait_menu(&page, false, "Tab out of the menu closes it");

    // A click beside it closes it and does nothing else.
    b.find(".menu-toggle").unwrap().click().unwrap();
    wait_menu(&page, true, "the menu opens again");
    b.execute(
        "const r = document.querySelector('.composer').getBoundingClientRect();\n\
         document.elementFromPoint(r.left + 20, r.top - 40).click(); return true;",
        vec![],
    )
    .unwrap();
    wait_menu(&page, false, "a click beside the menu closes it");

    // A control in it does its work and closes it; the dialog it opens gives the focus back to
    // the menu button.
    b.find(".menu-toggle").unwrap().click().unwrap();
    wait_menu(&page, true, "the menu opens once more");
    b.find("#topbar-menu .settings-button").unwrap().click().unwrap();
    b.wait_for_element(".dialog.settings", STEP).expect("Settings opens from the menu");
    wait_menu(&page, false, "the menu closed behind the dialog");
    let escape = json!({"type": "key", "id": "keyboard", "actions": [
        {"type": "keyDown", "value": "\u{E00C}"}, {"type": "keyUp", "value": "\u{E00C}"}]});
    b.command("POST", "/actions", Some(json!({"actions": [escape]}))).expect("Escape pressed");
    let back = b.wait_for(STEP, "focus back on the menu button", |_| {
        Ok(focused_class(&page).contains("menu-toggle").then_some(()))
    });
    assert!(back.is_ok(), "the dialog gives the focus back to the menu button, not to \"{}\"", focused_class(&page));
    page.screenshot("layout-phone-menu").unwrap();
}
