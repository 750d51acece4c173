//! Keyboard only, through WebDriver key actions: the Settings dialog takes focus, keeps
//! Tab inside, makes the page behind inert, closes with Escape, and gives focus back.

use std::sync::{Mutex, MutexGuard};

use deliberate_e2e::app::{AppPage, STEP};
use deliberate_e2e::webdriver::Browser;
use serde_json::{json, Value};

static ONE_BROWSER: Mutex<()> = Mutex::new(());

fn one_browser() -> MutexGuard<'static, ()> {
    ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner())
}

const TAB: &str = "\u{E004}";
const SHIFT: &str = "\u{E008}";
const ESCAPE: &str = "\u{E00C}";
const ENTER: &str = "\u{E007}";

/// Presses keys in order, as a person would; `SHIFT` is held for the next key.
fn press(browser: &Browser, keys: &[&str]) {
    let mut actions = Vec::new();
    let mut held = None;
    for key in keys {
        if *key == SHIFT {
            actions.push(json!({"type": "keyDown", "value": SHIFT}));
            held = Some(SHIFT);
            continue;
        }
        actions.push(json!({"type": "keyDown", "value": key}));
        actions.push(json!({"type": "keyUp", "value": key}));
        if let Some(h) = held.take() {
            actions.push(json!({"type": "keyUp", "value": h}));
        }
    }
    let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
    browser.command("POST", "/actions", Some(body)).expect("key actions");
}

/// What has focus: its id, class and whether it is inside the dialog.
fn focus(browser: &Browser) -> Value {
    browser
        .execute(
            "const a = document.activeElement;\n\
             return { tag: a ? a.tagName : null, id: a ? a.id : null, cls: a ? a.className : null,\n\
                      inDialog: !!(a && a.closest('.dialog')) };",
            vec![],
        )
        .expect("script runs")
}

#[test]
fn the_settings_dialog_manages_focus_by_keyboard_alone() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    // Reach the Settings button with the keyboard: focus the first control, then Tab.
    b.execute("document.querySelector('#mode-select').focus(); return true;", vec![]).unwrap();
    let mut found = false;
    for _ in 0..12 {
        if focus(b)["cls"].as_str().is_some_and(|c| c.contains("settings-button")) {
            found = true;
            break;
        }
        press(b, &[TAB]);
    }
    assert!(found, "Tab reaches the Settings button");
    press(b, &[ENTER]);
    b.wait_for_element(".dialog.settings", STEP).expect("the dialog opens");
    b.wait_for(STEP, "focus inside the dialog", |b| Ok(focus(b)["inDialog"].as_bool().filter(|x| *x)))
        .expect("focus moved into the dialog");
    let inert = b.execute("return document.querySelector('.app > .layout').hasAttribute('inert');", vec![]).unwrap();
    assert_eq!(inert, Value::Bool(true), "the page behind is inert");

    for _ in 0..25 {
        press(b, &[TAB]);
        assert_eq!(focus(b)["inDialog"], Value::Bool(true), "Tab stays inside: {}", focus(b));
    }
    for _ in 0..5 {
        press(b, &[SHIFT, TAB]);
        assert_eq!(focus(b)["inDialog"], Value::Bool(true), "Shift+Tab stays inside: {}", focus(b));
    }

    press(b, &[ESCAPE]);
    b.wait_for(STEP, "the dialog closes", |b| Ok(b.try_find(".dialog.settings")?.is_none().then_some(())))
        .expect("Escape closes it");
    let back = focus(b);
    assert!(back["cls"].as_str().is_some_and(|c| c.contains("settings-button")), "focus returns: {back}");
    let inert = b.execute("return document.querySelector('.app > .layout').hasAttribute('inert');", vec![]).unwrap();
    assert_eq!(inert, Value::Bool(false), "the page is usable again");
}

#[test]
fn the_page_has_one_h1_and_its_lang_follows_the_ui_language() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    let b = &page.browser;
    let h1 = b.execute("return document.querySelectorAll('h1').length;", vec![]).unwrap();
    assert_eq!(h1, json!(1));
    assert_eq!(b.execute("return document.documentElement.lang;", vec![]).unwrap(), json!("ko"));
    b.find("#lang-select").unwrap().send_keys("English").unwrap();
    b.wait_for(STEP, "lang=en", |b| {
        Ok((b.execute("return document.documentElement.lang;", vec![])? == json!("en")).then_some(()))
    })
    .expect("the lang attribute follows the UI language");
}

#[test]
fn after_a_card_is_answered_by_keyboard_focus_stays_in_the_conversation() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    page.send("Build a pipeline that summarizes IT news every morning").unwrap();
    let option = b.wait_for_element(".question-card[data-open=true] button.option", STEP).expect("a card with options");
    let stops = b
        .execute(
            "return [...document.querySelectorAll('.question-card[data-open=true] .options')]\n\
             .filter(g => g.querySelector('button.option'))\n\
             .map(g => g.querySelectorAll('button.option[tabindex=\"0\"]').length);",
            vec![],
        )
        .unwrap();
    assert!(
        stops.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(|n| n == 1)),
        "one Tab stop per group: {stops}"
    );
    b.execute("arguments[0].focus(); return true;", vec![option.to_json()]).unwrap();
    press(b, &[ENTER]);
    // A card of several questions takes its answers with its Answer button, by keyboard too.
    if let Some(submit) = b.try_find(".question-card[data-open=true] button.submit").unwrap() {
        b.execute("arguments[0].focus(); return true;", vec![submit.to_json()]).unwrap();
        press(b, &[ENTER]);
    }
    b.wait_for(STEP, "the card is answered", |b| {
        Ok(b.try_find(".question-card[data-open=false]")?.is_some().then_some(()))
    })
    .expect("Enter on an option answers the card");
    b.wait_for(STEP, "focus back in the conversation", |b| {
        let f = focus(b);
        Ok((f["tag"].as_str().is_some_and(|t| t != "BODY")).then_some(f))
    })
    .expect("focus never falls to <body>");
    let named = b
        .execute("return [...document.querySelectorAll('[role=meter]')].every(m => (m.getAttribute('aria-label') || '').trim().length > 0);", vec![])
        .unwrap();
    assert_eq!(named, Value::Bool(true), "every meter has a name");
    let pane = b.execute("return document.getElementById('artifacts').tabIndex;", vec![]).unwrap();
    assert_eq!(pane, json!(0), "the scrollable artifacts pane can take focus");
}
