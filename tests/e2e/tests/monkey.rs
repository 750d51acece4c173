//! A monkey in the release build: at every stage of a discussion, with no key and against
//! the mock LLM (whose analyzer asks several questions at once), click every enabled
//! button and option on the page, old cards included, and type into every field. The
//! page must not panic, and the conversation must be intact afterwards: every message the
//! user sent is still there and the composer still takes a message.
//!
//! A second monkey works inside the Conversations dialog (open, rename, delete, undo,
//! search, new, export) with several saved conversations of every mode.
//!
//! Bounded: at most `ACTIONS_PER_ROUND` actions at each of the four stages.

use std::collections::BTreeSet;

use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::counsel_turn::{send_and_wait, switch_to_counseling};
use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing, ScriptedReply, ScriptedToolCall};
use serde_json::{json, Value};

/// The most clicks and keystrokes in one round of the monkey.
const ACTIONS_PER_ROUND: u64 = 60;

/// One round: every enabled control of the page once (and the new ones that appear),
/// each action followed by two turns of the event loop so the page reacts as it would
/// to a person. Not touched: the buttons that end the conversation on purpose (Restart,
/// New conversation, the sessions list that switches and deletes conversations), the
/// settings dialog (it would point the app away from the mock), links (downloads), and
/// what the optional second argument names. Returns what was done, each action with the
/// stage it was done at.
const MONKEY: &str = r#"
const budget = arguments[0];
const done = arguments[arguments.length - 1];
const skip = '.restart, .new-conversation, .sessions-button, .settings-button, .status-chip, .dialog, .dialog-backdrop, a'
  + (typeof arguments[1] === 'string' ? ', ' + arguments[1] : '');
const seen = new Set();
const turn = () => new Promise(r => setTimeout(r, 0));
const name = el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : '')
  + (el.textContent.trim() ? ' "' + el.textContent.trim().slice(0, 30) + '"' : '');
(async () => {
  const log = [];
  while (log.length < budget) {
    const el = [...document.querySelectorAll('button, [role=radio], input, textarea, select')]
      .find(e => !seen.has(e) && !e.disabled && e.isConnected && !e.closest(skip) && e.getClientRects().length > 0);
    if (!el) break;
    seen.add(el);
    const stage = document.querySelector('.step.current')?.getAttribute('data-stage') ?? '?';
    if (el.matches('textarea, input[type=text], input:not([type])')) {
      el.focus();
      el.value = 'monkey ' + log.length;
      el.dispatchEvent(new Event('input', {bubbles: true}));
      log.push(stage + ': type ' + name(el));
    } else if (el.matches('select')) {
      el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
      el.dispatchEvent(new Event('change', {bubbles: true}));
      log.push(stage + ': select ' + name(el));
    } else {
      el.click();
      log.push(stage + ': click ' + name(el));
    }
    await turn();
    await turn();
  }
  done(log);
})();
"#;

/// The monkey of the Conversations dialog: every enabled control inside it once (and the
/// new ones that appear), reopening the dialog whenever a click closed it (opening a
/// conversation, New conversation). Links (downloads) are not touched. Returns what was done.
const SESSIONS_MONKEY: &str = r#"
const budget = arguments[0];
const done = arguments[arguments.length - 1];
const seen = new Set();
const turn = () => new Promise(r => setTimeout(r, 0));
const settle = async () => { for (let i = 0; i < 10; i++) await turn(); };
const name = el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : '')
  + (el.textContent.trim() ? ' "' + el.textContent.trim().slice(0, 30) + '"' : '');
(async () => {
  const log = [];
  let reopened = 0;
  while (log.length < budget) {
    if (!document.querySelector('.dialog.sessions')) {
      if (reopened++ > budget) break;
      document.querySelector('.sessions-button').click();
      await settle();
      log.push('reopen the dialog');
      continue;
    }
    // Controls are known by what they are and which row they sit in: the dialog's nodes
    // are new each time it opens.
    const key = e => name(e) + ' @' + (e.closest('.session-row')?.dataset.session ?? '');
    const el = [...document.querySelectorAll('.dialog.sessions :is(button, input, select)')]
      .find(e => !seen.has(key(e)) && !e.disabled && e.isConnected && !e.closest('a') && e.getClientRects().length > 0);
    if (!el) break;
    seen.add(key(el));
    if (el.matches('input[type=text], input[type=search], input:not([type])')) {
      el.focus();
      el.value = log.length % 2 ? 'monkey ' + log.length : '';
      el.dispatchEvent(new Event('input', {bubbles: true}));
      el.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
      log.push('type ' + name(el));
    } else {
      el.click();
      log.push('click ' + name(el));
    }
    await settle();
  }
  done(log);
})();
"#;

/// What the user sent so far, in order.
fn user_messages(page: &AppPage) -> Vec<String> {
    let v = page
        .browser
        // textContent, not innerText: a message scrolled out of view skips rendering
        // (content-visibility), and innerText reads only what is rendered.
        .execute(
            "return [...document.querySelectorAll('article.message.user')].map(m => m.textContent.trim());",
            vec![],
        )
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Waits until no LLM call is being waited for (the Stop button is gone).
fn wait_idle(page: &AppPage) {
    page.browser
        .wait_for(STEP, "the composer to stop waiting", |b| Ok(b.try_find(".composer .stop")?.is_none().then_some(())))
        .unwrap();
}

/// One monkey round, then the checks: no panic, every user message still there, and the
/// composer still takes a message. Returns the actions, each as `STAGE: action`.
fn monkey_round(page: &AppPage, stage: &str) -> Vec<String> {
    monkey_round_leaving(page, stage, None)
}

/// As `monkey_round`, leaving alone the controls `keep_off` matches too.
fn monkey_round_leaving(page: &AppPage, stage: &str, keep_off: Option<&str>) -> Vec<String> {
    let before = user_messages(page);
    let mut args = vec![json!(ACTIONS_PER_ROUND)];
    args.extend(keep_off.map(|css| json!(css)));
    let log = page.browser.execute_async(MONKEY, args).unwrap();
    let log: Vec<String> = serde_json::from_value(log).unwrap();
    assert!(!log.is_empty(), "{stage}: the monkey found something to do");
    wait_idle(page);
    // A modal confirmation the monkey left open (a dangerous command in chat) holds the
    // page; a person declines it with Escape.
    if let Some(button) = page.browser.try_find(".dialog button").unwrap() {
        button.send_keys("\u{E00C}").unwrap();
        page.browser
            .wait_for(STEP, "the dialog to close", |b| Ok(b.try_find(".dialog")?.is_none().then_some(())))
            .unwrap();
    }
    let panics = page.panics().unwrap();
    assert!(panics.is_empty(), "{stage}: the page panicked after:\n{}\n{}", log.join("\n"), panics.join("\n"));
    let after: BTreeSet<String> = user_messages(page).into_iter().collect();
    for message in &before {
        assert!(after.contains(message), "{stage}: the message {message:?} is gone after:\n{}", log.join("\n"));
    }
    // The composer still works: typing enables Send.
    let area = page.browser.find("#composer-input").unwrap();
    area.clear().unwrap();
    area.send_keys("still here").unwrap();
    page.browser
        .wait_for(STEP, "Send enabled by typing", |b| {
            Ok(match b.try_find(".composer .send")? {
                Some(send) => send.is_enabled()?.then_some(()),
                None => None,
            })
        })
        .unwrap_or_else(|e| panic!("{stage}: the composer does not take a message: {e:?}"));
    area.clear().unwrap();
    log
}

/// Moves the discussion one step on, whatever state the monkey left it in: answers an
/// open card, asks for one revision of the designs, chooses a design, or retries a
/// stopped step. Returns the stage it left.
fn step_forward(page: &AppPage, revised: &mut bool) -> String {
    wait_idle(page);
    let stage = page.stage().unwrap();
    if stage == "PLAN" {
        return stage;
    }
    if let Some(retry) = page.browser.try_find(".halted .retry").unwrap() {
        retry.click().unwrap();
    } else if page.browser.try_find(".question-card[data-open=true]").unwrap().is_some() {
        let card = ".question-card[data-open=true]";
        for field in page.browser.find_all(&format!("{card} input.other")).unwrap() {
            field.clear().unwrap();
            field.send_keys("Markdown").unwrap();
        }
        match page.browser.try_find(&format!("{card} .submit")).unwrap() {
            Some(submit) => submit.click().unwrap(),
            None => page.browser.find(&format!("{card} .option")).unwrap().click().unwrap(),
        }
    } else if page.browser.try_find(".design-card .choose").unwrap().is_some() {
        if *revised {
            page.browser.find(".design-card .choose").unwrap().click().unwrap();
        } else {
            *revised = true;
            page.send("make it cheaper").unwrap();
        }
    } else {
        page.send("A Markdown document for the whole team").unwrap();
    }
    wait_idle(page);
    page.stage().unwrap()
}

/// Steps forward from the request to the plan: answer the card, revise once, choose.
const STEPS_TO_THE_PLAN: usize = 3;

/// For each stage of a discussion (the card open, the designs, the revised designs with
/// the old ones above, the plan): a new conversation driven to that stage, then a monkey
/// round there (which may carry the discussion further). `before_each` runs before each
/// new conversation (the mock's scripts).
fn monkey_at_every_stage(page: &AppPage, request: &str, before_each: &dyn Fn()) {
    let mut actions = Vec::new();
    for steps in 0..=STEPS_TO_THE_PLAN {
        before_each();
        page.start_over().unwrap();
        page.send(request).unwrap();
        let mut revised = false;
        for _ in 0..steps {
            step_forward(page, &mut revised);
        }
        wait_idle(page);
        let stage = page.stage().unwrap();
        actions.extend(monkey_round(page, &format!("{stage} after {steps} steps")));
        assert!(user_messages(page).iter().any(|m| m == request), "the request is still there");
    }
    let stages: BTreeSet<&str> = actions.iter().filter_map(|a| a.split(':').next()).collect();
    for stage in ["UNDERSTAND", "DEBATE", "PLAN"] {
        assert!(stages.contains(stage), "the monkey acted at {stage}: {stages:?}");
    }
    assert!(actions.len() as u64 <= ACTIONS_PER_ROUND * (STEPS_TO_THE_PLAN as u64 + 1), "bounded");
    println!("{} actions at {stages:?}:\n{}", actions.len(), actions.join("\n"));
}

#[test]
fn a_monkey_without_a_key_breaks_nothing() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    monkey_at_every_stage(&page, "Build a daily IT news digest", &|| {});
    page.assert_no_panic();
}

#[test]
fn a_monkey_against_an_analyzer_asking_several_questions_breaks_nothing() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    // Every analysis asks three questions and leaves the format open, so cards carry
    // several questions (the format's options and free text).
    let asking = json!({
        "context": "(mock) A digest for a team.",
        "goal": "(mock) A daily IT news digest",
        "criteria": [],
        "format": "",
        "openQuestions": ["(mock) Who reads it?", "(mock) How long may it be?", "(mock) Which sources count?"],
        "confidence": "low",
    })
    .to_string();
    let settings = json!({
        "enabled": true,
        "designer": { "kind": "openai_compatible", "base_url": mock.base_url(), "model": "mock-small" },
        "separate_critic": false,
        "critic": { "kind": "openai_compatible", "base_url": mock.base_url(), "model": "mock-small" },
        "remember_keys": true,
        "timeout_secs": 10
    });
    let page = AppPage::open_with_llm("en-US", &settings, &Value::Object(Default::default())).expect("the page opens");
    monkey_at_every_stage(&page, "Build a daily IT news digest", &|| {
        mock.reset();
        for _ in 0..4 {
            mock.script(Some("contract-analyst"), asking.clone());
        }
    });
    let analyses = mock.requests().iter().filter(|r| r.role.as_deref() == Some("contract-analyst")).count();
    assert!(analyses >= 1, "the mock's analyzer was asked");
    page.assert_no_panic();
}

/// Korean conversations in the chat and counseling modes, with no key: after each message
/// the monkey clicks every card, option, command button and field the mode shows (the mode
/// menu left alone, so the round stays in the mode). Each round must leave the page whole.
#[test]
fn a_monkey_in_korean_chat_and_counseling_breaks_nothing() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    let mut actions = Vec::new();
    let chat = [
        "빌드 폴더 좀 지워 줘",
        "ls -la는 뭐 하는 명령이야?",
        "git 브랜치 정리하고 싶어",
        "프로젝트에서 invoice라는 단어가 든 파일 찾아 줘",
        "도커 컨테이너가 계속 재시작돼요",
        "포트 3000번을 누가 쓰고 있는지 알고 싶어",
        "서버 로그에서 에러만 보고 싶어",
    ];
    for (n, text) in chat.iter().enumerate() {
        page.start_over().unwrap();
        page.send("/mode 채팅").unwrap();
        page.browser.wait_for_element(".context-meter", STEP).unwrap();
        page.send(text).unwrap();
        wait_idle(&page);
        actions.extend(monkey_round_leaving(&page, &format!("chat {n}"), Some("#mode-select")));
        assert!(user_messages(&page).iter().any(|m| m == text), "the request {text:?} is still there");
        assert!(page.browser.try_find(".part-stepper").unwrap().is_none(), "still the chat, not counseling");
    }
    page.start_over().unwrap();
    switch_to_counseling(&page).unwrap();
    for (n, text) in
        ["안녕하세요, 민수예요", "요즘 회사 일 때문에 잠을 잘 못 자요", "잘 모르겠어요", "운동을 좀 해 볼까 해요"]
            .iter()
            .enumerate()
    {
        page.send(text).unwrap();
        wait_idle(&page);
        actions.extend(monkey_round_leaving(&page, &format!("counseling {n}"), Some("#mode-select")));
        assert!(page.browser.try_find(".part-stepper").unwrap().is_some(), "still counseling");
    }
    let kinds: BTreeSet<&str> = actions.iter().filter_map(|a| a.split(": ").nth(1)?.split(' ').nth(1)).collect();
    println!("{} actions on {kinds:?}:\n{}", actions.len(), actions.join("\n"));
    for control in [".option", ".send", ".copy"] {
        assert!(kinds.iter().any(|k| k.contains(control)), "the monkey used a {control}: {kinds:?}");
    }
    page.assert_no_panic();
}

/// The chat against the mock model, whose tool calls open cards of several questions,
/// propose commands (a dangerous one among them), and, like a small local model, call
/// tools with arguments that mean nothing. After each request the monkey clicks every card,
/// option and command button; no panic, and every message stays.
#[test]
fn a_monkey_against_a_model_calling_tools_in_chat_breaks_nothing() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    let endpoint = json!({ "kind": "openai_compatible", "base_url": mock.base_url(), "model": "mock-small" });
    let settings = json!({
        "enabled": true, "designer": endpoint, "separate_critic": false, "critic": endpoint,
        "remember_keys": true, "timeout_secs": 10
    });
    let page = AppPage::open_with_llm("en-US", &settings, &Value::Object(Default::default())).expect("the page opens");
    page.send("/mode chat").unwrap();
    page.browser.wait_for_element(".context-meter", STEP).unwrap();
    let tool = |name: &str, arguments: Value| ScriptedReply {
        role: Some("chat".into()),
        reply: Value::Null,
        tool_calls: vec![ScriptedToolCall { name: name.into(), arguments }],
    };
    let option = |label: &str| json!({"label": label, "description": format!("{label}, described")});
    let rounds: Vec<(&str, Vec<ScriptedReply>)> = vec![
        (
            "clean up my project",
            vec![
                tool(
                    "AskUserQuestion",
                    json!({"questions": [
                        {"header": "Target", "question": "What should be cleaned?", "multiSelect": true,
                         "options": [option("Cache"), option("Build"), option("Logs")]},
                        {"header": "When", "question": "When?", "options": [option("Now"), option("Tonight")]}
                    ]}),
                ),
                tool("propose_command", json!({"command": "rm -rf ./build", "why": "Removes the build output."})),
                tool("propose_command", json!({"command": "git status", "why": "Shows what changed."})),
                ScriptedReply::text(Some("chat"), "Done."),
            ],
        ),
        (
            "now tidy the logs",
            vec![
                tool("AskUserQuestion", json!({"questions": []})),
                tool("AskUserQuestion", json!({"questions": [{"question": "", "options": [{"label": "only one"}]}]})),
                tool("propose_command", json!({"command": ""})),
                tool("no_such_tool", json!({"anything": 1})),
                tool("read_attachment", json!({"name": "missing.txt"})),
                ScriptedReply::text(Some("chat"), "{\"answer\": null}"),
            ],
        ),
    ];
    let mut actions = Vec::new();
    for (n, (request, scripts)) in rounds.into_iter().enumerate() {
        for script in scripts {
            mock.push_script(script);
        }
        page.send(request).unwrap();
        page.browser
            .wait_for(STEP, "the model's first answer", |b| Ok(b.try_find(".composer .stop")?.is_none().then_some(())))
            .unwrap();
        actions.extend(monkey_round_leaving(&page, &format!("chat round {n}"), Some("#mode-select")));
        assert!(page.browser.try_find(".context-meter").unwrap().is_some(), "still the chat");
        assert!(user_messages(&page).iter().any(|m| m == request), "the request {request:?} is still there");
    }
    println!("{} actions:\n{}", actions.len(), actions.join("\n"));
    assert!(actions.iter().any(|a| a.contains("option")), "the monkey answered a card: {actions:?}");
    let asked = mock.requests().iter().filter(|r| r.role.as_deref() == Some("chat")).count();
    assert!(asked >= 3, "the model was asked again after its tool calls: {asked}");
    page.assert_no_panic();
}

/// Counseling against a mock model that answers every step as a small local model may:
/// valid JSON that means nothing (a checker's "perhaps", an emotion of 42, a module that does
/// not exist, a plan of nulls, a score of 42, a counselor's `{"answer": null}`). Every turn
/// still gets a counselor's reply in words, the failures are shown, and the monkey's clicks
/// (Retry among them) break nothing.
#[test]
fn a_monkey_against_a_model_answering_nonsense_in_counseling_breaks_nothing() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).expect("mock starts");
    let page = AppPage::open_with_llm("en-US", &mock.app_settings(10), &json!({})).expect("the page opens");
    switch_to_counseling(&page).unwrap();
    let per_turn = [
        ("counsel-task-checker", r#"{"is_completed": "perhaps", "new_status": 7}"#),
        ("counsel-state-detector", r#"{"emotion": 42, "intensity": "very", "engagement": null}"#),
        ("counsel-module-selector", r#"{"module": "no_such_module"}"#),
        ("counselor", r#"{"answer": null}"#),
    ];
    mock.script(Some("counsel-planner"), r#"{"tasks": [{"id": null}, 5]}"#);
    mock.script(Some("counsel-supervisor"), r#"{"score": 42, "improvements": "be nicer"}"#);
    let mut actions = Vec::new();
    let said = ["Hi, I'm Sam", "Work has been stressful and I can't sleep", "I don't know", "Maybe I could walk more"];
    for (n, text) in said.iter().enumerate() {
        for (role, answer) in per_turn {
            mock.script(Some(role), answer);
        }
        let reply = send_and_wait(&page, text).unwrap();
        assert!(!reply.trim().is_empty() && !reply.contains("\"answer\""), "a reply in words: {reply:?}");
        wait_idle(&page);
        if n == 0 {
            // The turn's failed steps share one card, which names each of them.
            let all = page.browser.find_all("article.message.error").unwrap();
            let shown: Vec<String> =
                all.iter().filter(|e| e.is_displayed().unwrap()).map(|e| e.text().unwrap()).collect();
            assert_eq!(shown.len(), 1, "one card for the first turn: {shown:?}");
            assert!(all.len() > 1, "several failures, folded into it: {}", all.len());
            page.screenshot("counseling-failures-on-one-card").unwrap();
            let card = shown[0].to_lowercase();
            assert!(card.contains("writing a reply") && card.contains("llm calls failed"), "{card:?}");
        }
        actions.extend(monkey_round_leaving(&page, &format!("counseling {n}"), Some("#mode-select")));
        assert!(page.browser.try_find(".part-stepper").unwrap().is_some(), "still counseling");
        assert!(user_messages(&page).iter().any(|m| m == text), "the message {text:?} is still there");
    }
    let errors: Vec<String> =
        page.browser.find_all("article.message.error").unwrap().iter().map(|e| e.text().unwrap()).collect();
    assert!(
        errors.iter().any(|e| e.contains("not in the form asked for")),
        "the unusable answers are reported: {errors:?}"
    );
    let counselor = mock.requests().iter().filter(|r| r.role.as_deref() == Some("counselor")).count();
    assert!(counselor >= said.len(), "the counselor was asked every turn: {counselor}");
    println!("{} actions:\n{}", actions.len(), actions.join("\n"));
    page.assert_no_panic();
}

#[test]
fn a_monkey_in_the_conversations_dialog_breaks_nothing() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    // Saved conversations of every mode to open, rename, delete and bring back.
    for (mode, text) in [
        (None, "Build a daily IT news digest"),
        (Some("chat"), "How do I clean the build folder?"),
        (Some("counseling"), "Hi, I'm Sam"),
        (None, "Plan a team lunch for Friday"),
    ] {
        page.start_over().unwrap();
        if let Some(mode) = mode {
            page.send(&format!("/mode {mode}")).unwrap();
            wait_idle(&page);
        }
        page.send(text).unwrap();
        wait_idle(&page);
        page.wait_saved().unwrap();
    }
    page.browser.find(".sessions-button").unwrap().click().unwrap();
    page.browser.wait_for_element(".dialog.sessions", STEP).unwrap();
    let listed = page.browser.find_all(".session-row").unwrap().len();
    assert!(listed >= 4, "the four conversations are listed: {listed}");

    let log = page.browser.execute_async(SESSIONS_MONKEY, vec![json!(ACTIONS_PER_ROUND)]).unwrap();
    let log: Vec<String> = serde_json::from_value(log).unwrap();
    assert!(log.iter().any(|a| a.contains("session-delete")), "the monkey deleted: {log:?}");
    assert!(log.iter().any(|a| a.contains("session-rename")), "the monkey renamed: {log:?}");
    let panics = page.panics().unwrap();
    assert!(panics.is_empty(), "the page panicked after:\n{}\n{}", log.join("\n"), panics.join("\n"));

    // Afterwards the app still works: a message sent now is shown and saved, and the
    // list opens again.
    if let Some(search) = page.browser.try_find(".dialog.sessions #sessions-search").unwrap() {
        search.send_keys("\u{E00C}").unwrap();
        page.browser
            .wait_for(STEP, "the dialog to close", |b| Ok(b.try_find(".dialog")?.is_none().then_some(())))
            .unwrap();
    }
    wait_idle(&page);
    page.send("still here after the monkey").unwrap();
    wait_idle(&page);
    assert!(user_messages(&page).iter().any(|m| m == "still here after the monkey"));
    page.wait_saved().unwrap();
    page.browser.find(".sessions-button").unwrap().click().unwrap();
    page.browser.wait_for_element(".dialog.sessions .session-row", STEP).unwrap();
    println!("{} actions in the dialog:\n{}", log.len(), log.join("\n"));
    page.assert_no_panic();
}
