//! Keyboard only, through WebDriver key actions: the Settings dialog takes focus, keeps
//! Tab inside, makes the page behind inert, closes with Escape, and gives focus back.

use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::webdriver::Browser;
use serde_json::{json, Value};

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
    // The dialog gives the focus back after the frame that removes it: wait for it.
    let back = b.wait_for(STEP, "focus back on the Settings button", |b| {
        Ok(focus(b)["cls"].as_str().is_some_and(|c| c.contains("settings-button")).then_some(()))
    });
    assert!(back.is_ok(), "focus returns: {}", focus(b));
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

const SPACE: &str = "\u{E00D}";
const ARROW_RIGHT: &str = "\u{E014}";
const CONTROL: &str = "\u{E009}";

/// Types text as key presses on whatever has focus (ASCII text).
fn type_text(browser: &Browser, text: &str) {
    let keys: Vec<String> = text.chars().map(|c| c.to_string()).collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    press(browser, &refs);
}

/// Presses Ctrl+A (select everything in the focused field).
fn select_all(browser: &Browser) {
    let actions = json!([
        {"type": "keyDown", "value": CONTROL}, {"type": "keyDown", "value": "a"},
        {"type": "keyUp", "value": "a"}, {"type": "keyUp", "value": CONTROL}
    ]);
    let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
    browser.command("POST", "/actions", Some(body)).expect("key actions");
}

/// What has focus, in more detail: tag, id, class, and whether it is a question option of
/// an open card (with its `aria-checked`), a design's Choose button, or the composer.
fn where_focus(browser: &Browser) -> Value {
    browser
        .execute(
            "const a = document.activeElement;\n\
             return { tag: a ? a.tagName : null, id: a ? a.id : null, cls: a ? String(a.className) : null,\n\
                      option: !!(a && a.matches('.question-card[data-open=true] button.option')),\n\
                      checked: a ? a.getAttribute('aria-checked') : null,\n\
                      text: a ? (a.textContent || '').trim().slice(0, 40) : null,\n\
                      body: a === document.body || !a, inDialog: !!(a && a.closest('.dialog')) };",
            vec![],
        )
        .expect("script runs")
}

/// Presses `key` until `arrived` says focus is where it should be (at most `limit` times);
/// once moving, focus never falls to `<body>` on the way.
fn move_focus_until(browser: &Browser, key: &[&str], limit: usize, what: &str, arrived: impl Fn(&Value) -> bool) {
    for step in 0..limit {
        let f = where_focus(browser);
        if arrived(&f) {
            return;
        }
        if step > 0 {
            assert_ne!(f["body"], Value::Bool(true), "focus fell to <body> on the way to {what}");
        }
        press(browser, key);
    }
    panic!("{what} not reached with {limit} key presses; focus is on {}", where_focus(browser));
}

fn is_composer(f: &Value) -> bool {
    f["id"] == json!("composer-input")
}

/// Waits until the composer has focus, as it does when the page opens.
fn wait_composer_focused(b: &Browser) {
    b.wait_for(STEP, "focus in the composer", |b| Ok(is_composer(&where_focus(b)).then_some(())))
        .expect("the page opens with focus in the composer");
}

/// Answers the newest open card from the keyboard: Shift+Tab back from the composer to
/// its options, the number key 1, an arrow, Space, then Tab to Answer and Enter.
fn answer_card_by_keyboard(b: &Browser) {
    move_focus_until(b, &[SHIFT, TAB], 30, "an option of the open card", |f| f["option"] == Value::Bool(true));
    press(b, &["1"]);
    let f = where_focus(b);
    let single = b.try_find(".question-card[data-open=true] button.submit").unwrap().is_none();
    if single {
        // A single choice question answers on the pick.
        return;
    }
    assert_eq!(f["checked"], json!("true"), "the number key picks the first option: {f}");
    press(b, &[ARROW_RIGHT]);
    let moved = where_focus(b);
    assert!(moved["option"] == Value::Bool(true) && moved["text"] != f["text"], "the arrow moves: {moved}");
    press(b, &[SPACE]);
    assert_eq!(where_focus(b)["checked"], json!("true"), "Space chooses the focused option");
    move_focus_until(b, &[TAB], 20, "the card's Answer button", |f| {
        f["cls"].as_str().is_some_and(|c| c.contains("submit"))
    });
    press(b, &[ENTER]);
}

#[test]
fn a_whole_discussion_from_request_to_plan_by_keyboard_alone() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    wait_composer_focused(b);
    type_text(b, "Build a pipeline that summarizes IT news every morning");
    press(b, &[ENTER]);
    b.wait_for_element(".question-card[data-open=true]", STEP).expect("a question card");
    assert!(is_composer(&where_focus(b)), "sending leaves focus in the composer: {}", where_focus(b));

    for _ in 0..4 {
        if b.try_find(".question-card[data-open=true]").unwrap().is_none() {
            break;
        }
        let before = b.find_all(".question-card[data-open=false]").unwrap().len();
        answer_card_by_keyboard(b);
        b.wait_for(STEP, "the card is answered", |b| {
            Ok((b.find_all(".question-card[data-open=false]")?.len() > before).then_some(()))
        })
        .expect("the keyboard answers the card");
        let f = b
            .wait_for(STEP, "focus back in the conversation", |b| {
                let f = where_focus(b);
                Ok((f["body"] == Value::Bool(false)).then_some(f))
            })
            .expect("focus never falls to <body>");
        assert!(is_composer(&f) || f["option"] == Value::Bool(true), "focus on the next card or the composer: {f}");
        if is_composer(&f) && b.try_find(".design-card .choose").unwrap().is_some() {
            break;
        }
    }
    page.wait_stage("DEBATE").expect("the designs are debated");

    // Choose the first design with the keyboard: back from the composer to a Choose button.
    if !is_composer(&where_focus(b)) {
        move_focus_until(b, &[TAB], 60, "the composer", is_composer);
    }
    move_focus_until(b, &[SHIFT, TAB], 120, "a design's Choose button", |f| {
        f["cls"].as_str().is_some_and(|c| c.contains("choose"))
    });
    press(b, &[ENTER]);
    for _ in 0..3 {
        let reached = b.wait_for(STEP, "the plan or a confirmation card", |b| {
            let plan = b.try_find(".plan-card")?.is_some();
            let card = b.try_find(".question-card[data-open=true]")?.is_some();
            Ok((plan || card).then_some(plan))
        });
        if reached.expect("choosing moves on") {
            break;
        }
        answer_card_by_keyboard(b);
    }
    page.wait_stage("PLAN").expect("the plan is written");
    let f = b
        .wait_for(STEP, "focus after the plan", |b| {
            let f = where_focus(b);
            Ok((f["body"] == Value::Bool(false)).then_some(f))
        })
        .expect("focus never falls to <body>");
    assert!(is_composer(&f), "after the choice focus is back in the composer: {f}");
}

#[test]
fn the_settings_dialog_is_filled_and_saved_by_keyboard_and_gives_focus_back() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    let on_settings = |f: &Value| f["cls"].as_str().is_some_and(|c| c.contains("settings-button"));
    wait_composer_focused(b);
    // Back from the composer through the conversation to the top bar.
    move_focus_until(b, &[SHIFT, TAB], 40, "the Settings button", on_settings);
    press(b, &[ENTER]);
    b.wait_for(STEP, "focus inside the dialog", |b| Ok(focus(b)["inDialog"].as_bool().filter(|x| *x)))
        .expect("focus moved into the dialog");
    move_focus_until(b, &[TAB], 40, "the rounds field", |f| f["id"] == json!("max-rounds"));
    select_all(b);
    type_text(b, "3");
    move_focus_until(b, &[TAB], 40, "the Save button", |f| f["id"] == json!("settings-save"));
    press(b, &[ENTER]);
    b.wait_for(STEP, "the dialog closes", |b| Ok(b.try_find(".dialog.settings")?.is_none().then_some(())))
        .expect("Save closes it");
    b.wait_for(STEP, "focus back on Settings", |b| Ok(on_settings(&where_focus(b)).then_some(())))
        .unwrap_or_else(|e| panic!("focus returns to Settings: {e:?}; it is on {}", where_focus(b)));
    // Opened again from the keyboard, it shows what was saved; Escape closes it.
    press(b, &[ENTER]);
    b.wait_for_element(".dialog.settings", STEP).expect("the dialog opens again");
    assert_eq!(b.find("#max-rounds").unwrap().prop("value").unwrap(), json!("3"), "the value typed was saved");
    press(b, &[ESCAPE]);
    b.wait_for(STEP, "the dialog closes", |b| Ok(b.try_find(".dialog.settings")?.is_none().then_some(())))
        .expect("Escape closes it");
    b.wait_for(STEP, "focus back on Settings", |b| Ok(on_settings(&where_focus(b)).then_some(())))
        .unwrap_or_else(|e| panic!("focus returns to Settings: {e:?}; it is on {}", where_focus(b)));
}

/// Asks the no-key chat to delete the build folder and picks `rm -rf` with the key 1: the
/// dangerous command's confirmation opens as a modal dialog.
fn ask_for_a_dangerous_command(b: &Browser) {
    move_focus_until(b, &[TAB], 30, "the composer", is_composer);
    type_text(b, "please delete the old build files");
    press(b, &[ENTER]);
    b.wait_for_element(".question-card[data-open=true] button.option", STEP).expect("the assistant asks");
    move_focus_until(b, &[SHIFT, TAB], 30, "an option", |f| f["option"] == Value::Bool(true));
    press(b, &["1"]);
    b.wait_for_element(".dialog.danger-confirm", STEP).expect("the confirmation opens");
    b.wait_for(STEP, "focus inside the confirmation", |b| Ok(where_focus(b)["inDialog"].as_bool().filter(|x| *x)))
        .expect("focus moved into the dialog");
}

#[test]
fn the_chat_confirmation_of_a_dangerous_command_is_a_modal_dialog() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    page.send("/mode chat").unwrap();
    b.wait_for_element(".context-meter", STEP).unwrap();

    ask_for_a_dangerous_command(b);
    let first = where_focus(b);
    assert!(first["cls"].as_str().is_some_and(|c| c.contains("decline")), "the safe choice has focus: {first}");
    let inert = b.execute("return document.querySelector('.app > .layout').hasAttribute('inert');", vec![]).unwrap();
    assert_eq!(inert, Value::Bool(true), "the page behind is inert");
    for _ in 0..5 {
        press(b, &[TAB]);
        assert_eq!(where_focus(b)["inDialog"], Value::Bool(true), "Tab stays inside");
    }
    press(b, &[SHIFT, TAB]);
    assert_eq!(where_focus(b)["inDialog"], Value::Bool(true), "Shift+Tab stays inside");
    // Escape declines.
    press(b, &[ESCAPE]);
    b.wait_for(STEP, "the dialog closes", |b| Ok(b.try_find(".dialog.danger-confirm")?.is_none().then_some(())))
        .expect("Escape closes it");
    b.wait_for_element(".command-card[data-open=false]", STEP).expect("the command is declined");
    b.wait_for(STEP, "focus back in the composer", |b| Ok(is_composer(&where_focus(b)).then_some(())))
        .unwrap_or_else(|e| panic!("focus back in the conversation: {e:?}; it is on {}", where_focus(b)));
    let inert = b.execute("return document.querySelector('.app > .layout').hasAttribute('inert');", vec![]).unwrap();
    assert_eq!(inert, Value::Bool(false), "the page is usable again");

    // Asked again and confirmed with the keyboard: Copy is offered and has focus.
    ask_for_a_dangerous_command(b);
    move_focus_until(b, &[TAB], 5, "the confirm button", |f| {
        f["cls"].as_str().is_some_and(|c| c.contains("confirm-danger"))
    });
    press(b, &[ENTER]);
    b.wait_for(STEP, "the dialog closes", |b| Ok(b.try_find(".dialog.danger-confirm")?.is_none().then_some(())))
        .expect("confirming closes it");
    b.wait_for_element(".command-card[data-open=true] .copy", STEP).expect("Copy is offered");
    let f = b
        .wait_for(STEP, "focus on the command", |b| {
            let f = where_focus(b);
            Ok((f["body"] == Value::Bool(false)).then_some(f))
        })
        .unwrap();
    assert!(f["cls"].as_str().is_some_and(|c| c.contains("copy")), "focus on Copy, the next step: {f}");
}

#[test]
fn a_stage_change_is_announced_politely_in_the_ui_language_without_moving_focus() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    let b = &page.browser;
    let region = b.find("#stage-announcer").expect("a live region for stages");
    assert_eq!(region.attr("aria-live").unwrap().as_deref(), Some("polite"));
    assert_eq!(region.text().unwrap(), "", "nothing is announced on open");
    page.send("Classify support tickets into a table").unwrap();
    page.wait_stage("DEBATE").unwrap();
    let said = b.wait_for_text("#stage-announcer", "토론", STEP).expect("the new stage is named in Korean");
    assert!(said.contains("현재 단계"), "{said}");
    assert!(is_composer(&where_focus(b)), "focus stays in the composer: {}", where_focus(b));
    let hidden = b
        .execute(
            "const r = document.getElementById('stage-announcer').getBoundingClientRect(); return r.width <= 1 && r.height <= 1;",
            vec![],
        )
        .unwrap();
    assert_eq!(hidden, Value::Bool(true), "the region is visually hidden");
    // The message list is itself a polite log, so new messages are announced once.
    let log = b.find(".messages").unwrap();
    assert_eq!(log.attr("role").unwrap().as_deref(), Some("log"));
    assert_eq!(log.attr("aria-live").unwrap().as_deref(), Some("polite"));
}

#[test]
fn korean_engine_text_inside_the_english_ui_carries_lang_ko() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    let b = &page.browser;
    assert_eq!(b.execute("return document.documentElement.lang;", vec![]).unwrap(), json!("en"));
    page.send("매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘").unwrap();
    b.wait_for_element(".question-card[data-open=true]", STEP).unwrap();
    page.click_text(".question-card[data-open=true] .option-label", "마크다운").unwrap();
    b.find(".question-card[data-open=true] .submit").unwrap().click().unwrap();
    page.wait_stage("DEBATE").unwrap();
    // Every element whose own text holds Hangul is inside an element marked lang="ko".
    let unmarked = b
        .execute(
            "const bad = [];\n\
             const walker = document.createTreeWalker(document.querySelector('.app'), NodeFilter.SHOW_TEXT);\n\
             for (let n = walker.nextNode(); n; n = walker.nextNode()) {\n\
               if (!/[\\uac00-\\ud7a3]/.test(n.textContent)) continue;\n\
               const el = n.parentElement; if (el.closest('[aria-hidden=true]')) continue;\n\
               const tagged = el.closest('[lang]');\n\
               if (!tagged || tagged.getAttribute('lang') !== 'ko') bad.push(el.tagName + '.' + el.className + ': ' + n.textContent.trim().slice(0, 40));\n\
             }\n\
             return bad;",
            vec![],
        )
        .unwrap();
    assert_eq!(unmarked, json!([]), "Korean text without lang=ko in the English UI");
    let marked = b.execute("return document.querySelectorAll('.app [lang=ko]').length;", vec![]).unwrap();
    assert!(marked.as_u64().unwrap_or(0) > 10, "the Korean parts are marked: {marked}");
}
