//! The chat mode in the browser: a whole tool loop against the mock LLM in both wire formats
//! (a question card answered by keyboard, a dangerous command confirmed and one declined, an
//! attachment read and cut, the context meter past 80 %), and the no-key assistant.

use std::time::Duration;

use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing, ScriptedReply, ScriptedToolCall};
use serde_json::{json, Value};

const KEY: &str = "test-key-not-secret";

fn settings(kind: &str, base_url: &str) -> (Value, Value) {
    (
        json!({
            "enabled": true,
            "designer": { "kind": kind, "base_url": base_url, "model": "mock-small" },
            "separate_critic": false,
            "critic": { "kind": kind, "base_url": base_url, "model": "mock-small" },
            "remember_keys": true,
            "timeout_secs": 10
        }),
        json!({ "designer": KEY, "critic": KEY }),
    )
}

fn tool(name: &str, arguments: Value) -> ScriptedReply {
    ScriptedReply {
        role: Some("chat".into()),
        reply: Value::Null,
        tool_calls: vec![ScriptedToolCall { name: name.into(), arguments }],
    }
}

fn has(page: &AppPage, css: &str) -> bool {
    page.browser.try_find(css).ok().flatten().is_some()
}

/// The English page with `kind`'s endpoint at `mock`, switched to the chat (its meter shown).
fn open_chat(mock: &MockLlm, kind: &str) -> AppPage {
    let (s, k) = settings(kind, &mock.base_url());
    let page = AppPage::open_with_llm("en-US", &s, &k).expect("the page opens");
    page.send("/mode chat").unwrap();
    page.browser.wait_for_element(".context-meter", STEP).unwrap();
    page
}

fn tool_loop(kind: &str) {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: Some(KEY.to_string()), pacing: Pacing::default() })
        .expect("mock starts");
    let (s, k) = settings(kind, &mock.base_url());
    let page = AppPage::open_with_llm("en-US", &s, &k).expect("the page opens");
    // A 4,096-token window, so that reading a long file fills the meter past 80 %.
    page.browser
        .execute(
            "localStorage.setItem('deliberate.discussion', arguments[0]); return true;",
            vec![Value::String(
                json!({"max_rounds": 5, "alignment_rounds": 3, "strict": false, "context_window": 4096}).to_string(),
            )],
        )
        .unwrap();
    page.start_over().unwrap();
    page.send("/mode chat").unwrap();
    page.browser.wait_for_element(".context-meter", STEP).unwrap();

    // Attach a 25,000-character log through the file input.
    let dir = std::env::temp_dir().join(format!("deliberate-chat-{kind}"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("build.log");
    let log: String = (0..2_500).map(|i| format!("line {i:04}\n")).collect();
    std::fs::write(&file, &log).unwrap();
    page.browser.find(".attach-input").unwrap().send_keys(file.to_str().unwrap()).unwrap();
    page.browser.wait_for_text(".chat-panel .attachments", "build.log", STEP).unwrap();
    // Beside a chat the pane holds the chat's panels, not a discussion's empty ones.
    for panel in [".contract-panel", ".slots-panel", ".designs-panel", ".plan-panel"] {
        assert!(!has(&page, panel), "no {panel} beside a chat");
    }
    assert!(has(&page, ".export-panel"), "the pane still offers the export");

    mock.push_script(tool(
        "AskUserQuestion",
        json!({"questions": [{"header": "Target", "question": "What should be cleaned?",
            "options": [{"label": "Cache", "description": "the cache folder"}, {"label": "Build", "description": "./build"}]}]}),
    ));
    mock.push_script(tool("propose_command", json!({"command": "rm -rf ./build", "why": "Removes the build output."})));
    mock.push_script(tool("propose_command", json!({"command": "git reset --hard", "why": "Drops local changes."})));
    mock.push_script(tool("read_attachment", json!({"name": "build.log"})));
    mock.push_script(ScriptedReply::text(Some("chat"), "All done: the build folder is gone."));

    page.send("clean up my project").unwrap();
    // The question card, answered by keyboard: "2" picks the second option.
    let option = page.browser.wait_for_element(".question-card[data-open=true] .option", STEP).unwrap();
    assert!(page
        .browser
        .find(".question-card .question-header")
        .unwrap()
        .text()
        .unwrap()
        .to_lowercase()
        .contains("target"));
    option.send_keys("2").unwrap();

    // A dangerous command: no Copy until confirmed.
    page.browser.wait_for_element(".command-card[data-open=true][data-danger=true]", STEP).unwrap();
    assert!(!has(&page, ".command-card[data-open=true] .copy"), "Copy waits for the confirmation");
    assert!(page.browser.find(".command-card[data-open=true] .danger-reason").unwrap().text().unwrap().len() > 5);
    page.screenshot("chat-01-danger").unwrap();
    page.browser.find(".dialog.danger-confirm .confirm-danger").unwrap().click().unwrap();
    page.browser.wait_for_element(".command-card[data-open=true] .copy", STEP).unwrap();
    page.browser.find(".command-card[data-open=true] .command-output").unwrap().send_keys("removed ./build").unwrap();
    page.browser.find(".command-card[data-open=true] .send-output").unwrap().click().unwrap();

    // The second dangerous command is declined.
    page.browser
        .wait_for(STEP, "the second command card", |b| {
            Ok(b.try_find(".dialog.danger-confirm .confirm-danger")?.is_some().then_some(()))
        })
        .unwrap();
    page.browser.find(".dialog.danger-confirm .decline").unwrap().click().unwrap();

    page.browser.wait_for_text(".messages", "All done", STEP).unwrap();
    // The 25,000-character read crossed 80 % of the 4,096 window: the user was told. The request
    // that carried it was fitted into the window (its middle cut), so the provider's count
    // that the meter shows afterwards is back under it.
    page.browser.wait_for_text(".messages", "of the model's context", STEP).unwrap();
    page.screenshot(&format!("chat-02-done-{kind}")).unwrap();

    let requests: Vec<_> = mock.requests().into_iter().filter(|r| r.role.as_deref() == Some("chat")).collect();
    assert_eq!(requests.len(), 5, "five model turns");
    let body = |i: usize| requests[i].body.to_string();
    assert!(body(0).contains("AskUserQuestion"), "the tools are offered");
    assert!(body(1).contains("the user chose: Build"), "the card's answer is the tool result");
    assert!(body(2).contains("removed ./build"), "the pasted output is the tool result");
    assert!(body(3).contains("declined"), "the model is told of the decline");
    assert!(body(4).contains("characters cut") && body(4).contains("offset=6000"), "the read is cut");
    assert!(body(4).contains("cut to fit the model's context window"), "the read was fitted into the window");
}

#[test]
fn a_tool_loop_runs_against_the_mock_in_the_openai_format() {
    tool_loop("openai");
}

#[test]
fn a_tool_loop_runs_against_the_mock_in_the_anthropic_format() {
    tool_loop("anthropic");
}

#[test]
fn the_no_key_assistant_asks_with_cards_and_checks_commands_in_korean() {
    let _one = one_browser();
    let page = AppPage::open("ko-KR").expect("the page opens");
    page.send("/mode 채팅").unwrap();
    page.browser.wait_for_element(".context-meter", STEP).unwrap();
    page.send("빌드 폴더 좀 지워 줘").unwrap();
    page.browser.wait_for_text(".messages", "키 없이", STEP).unwrap();
    page.browser.wait_for_element(".question-card[data-open=true]", STEP).unwrap();
    page.click_text(".question-card[data-open=true] .option-label", "빌드 결과물").unwrap();
    page.browser.wait_for_element(".command-card[data-open=true][data-danger=true]", STEP).unwrap();
    assert!(!has(&page, ".command-card[data-open=true] .copy"));
    page.browser.find(".dialog.danger-confirm .confirm-danger").unwrap().click().unwrap();
    page.browser.wait_for_element(".command-card[data-open=true] .copy", STEP).unwrap();
    page.browser.find(".command-card[data-open=true] .it-failed").unwrap().click().unwrap();
    page.browser.wait_for_text(".messages", "실패했군요", STEP).unwrap();
    let meter = page.browser.find(".context-meter .meter-value").unwrap().text().unwrap();
    assert!(meter.contains(" / 8192"), "{meter}");
    std::thread::sleep(Duration::from_millis(200));
    page.screenshot("chat-03-no-key-ko").unwrap();
}

#[test]
fn a_confirmation_that_arrives_while_settings_is_open_waits_and_one_escape_closes_one_dialog() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: Some(KEY.to_string()), pacing: Pacing::default() })
        .expect("mock starts");
    let (s, k) = settings("openai", &mock.base_url());
    let page = AppPage::open_with_llm("en-US", &s, &k).expect("the page opens");
    let b = &page.browser;
    page.send("/mode chat").unwrap();
    b.wait_for_element(".context-meter", STEP).unwrap();
    mock.set_pacing(Pacing { latency_ms: 1500, ..Pacing::default() });
    mock.push_script(tool("propose_command", json!({"command": "rm -rf ./build", "why": "Removes the build output."})));
    page.send("clean up my project").unwrap();
    b.find(".settings-button").unwrap().click().unwrap();
    b.wait_for_element(".dialog.settings", STEP).unwrap();
    b.wait_for_element(".command-card[data-open=true][data-danger=true]", STEP).expect("the command arrives");
    assert!(!has(&page, ".dialog.danger-confirm"), "the confirmation waits while Settings is open");
    // One Escape closes Settings only; the confirmation then opens, modal.
    b.find("#llm-timeout").unwrap().send_keys("\u{E00C}").unwrap();
    b.wait_for_element(".dialog.danger-confirm", STEP).expect("the confirmation opens after Settings closes");
    assert!(!has(&page, ".dialog.settings"));
    let inert = || b.execute("return document.querySelector('.app > .layout').hasAttribute('inert');", vec![]).unwrap();
    assert_eq!(inert(), Value::Bool(true), "the page stays inert under the confirmation");
    assert!(has(&page, ".command-card[data-open=true][data-danger=true]"), "the command still waits");
    b.find(".dialog.danger-confirm .decline").unwrap().send_keys("\u{E00C}").unwrap();
    b.wait_for(STEP, "the confirmation closes", |b| Ok(b.try_find(".dialog")?.is_none().then_some(()))).unwrap();
    assert_eq!(inert(), Value::Bool(false), "the page is usable again");
}

fn mock() -> MockLlm {
    MockLlm::start(MockConfig { port: 0, api_key: Some(KEY.to_string()), pacing: Pacing::default() })
        .expect("mock starts")
}

/// The chat's requests the mock received, in order.
fn chat_requests(mock: &MockLlm) -> Vec<String> {
    mock.requests().into_iter().filter(|r| r.role.as_deref() == Some("chat")).map(|r| r.body.to_string()).collect()
}

#[test]
fn the_meter_shows_the_window_the_local_server_reports() {
    let _one = one_browser();
    let mock = mock();
    mock.set_server_window(Some(2048));
    let page = open_chat(&mock, "openai_compatible");
    let value = page.browser.wait_for_text(".context-meter .meter-value", " / 2048", STEP).unwrap();
    assert!(!value.contains("8192"), "{value}");
    page.browser.wait_for_text(".context-meter .meter-source", "reported by the server", STEP).unwrap();
    page.screenshot("chat-04-server-window").unwrap();
}

#[test]
fn text_files_attached_by_drag_and_drop_and_by_the_button_are_read_by_the_model() {
    let _one = one_browser();
    let mock = mock();
    let page = open_chat(&mock, "openai");

    // Drag and drop: a synthetic drop of a File on the conversation.
    page.browser
        .execute(
            "const dt = new DataTransfer();\
             dt.items.add(new File([arguments[0]], 'notes.txt', {type: 'text/plain'}));\
             const target = document.querySelector('.conversation');\
             for (const type of ['dragenter', 'dragover', 'drop']) {\
               target.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));\
             }\
             return true;",
            vec![Value::String("DROPPED-NOTE: the release is on Friday.\n".into())],
        )
        .unwrap();
    page.browser.wait_for_text(".chat-panel .attachments", "notes.txt", STEP).unwrap();
    page.browser.wait_for_text(".messages", "Attached notes.txt", STEP).unwrap();

    // The button: the file input is given a file on disk.
    let dir = std::env::temp_dir().join("deliberate-chat-attach");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("checklist.md");
    std::fs::write(&file, "BUTTON-NOTE: write the changelog.\n").unwrap();
    page.browser.find(".attach-input").unwrap().send_keys(file.to_str().unwrap()).unwrap();
    page.browser.wait_for_text(".chat-panel .attachments", "checklist.md", STEP).unwrap();

    mock.push_script(tool("read_attachment", json!({"name": "notes.txt"})));
    mock.push_script(tool("read_attachment", json!({"name": "checklist.md"})));
    mock.push_script(ScriptedReply::text(Some("chat"), "Both files read (mock)."));
    page.send("what do my files say?").unwrap();
    page.browser.wait_for_text(".messages", "Both files read", STEP).unwrap();

    let bodies = chat_requests(&mock);
    assert_eq!(bodies.len(), 3, "three model turns");
    assert!(bodies[0].contains("notes.txt") && bodies[0].contains("checklist.md"), "the model is told of both files");
    assert!(bodies[1].contains("DROPPED-NOTE: the release is on Friday."), "the dropped file is read");
    assert!(bodies[2].contains("BUTTON-NOTE: write the changelog."), "the chosen file is read");
    page.screenshot("chat-05-attachments").unwrap();
}

#[test]
fn a_multi_select_question_card_sends_every_chosen_option_to_the_model() {
    let _one = one_browser();
    let mock = mock();
    let page = open_chat(&mock, "openai");
    mock.push_script(tool(
        "AskUserQuestion",
        json!({"questions": [{"header": "Checks", "question": "Which checks should run?", "multiSelect": true,
            "options": [{"label": "Lint"}, {"label": "Unit tests"}, {"label": "Benchmarks"}]}]}),
    ));
    mock.push_script(ScriptedReply::text(Some("chat"), "Running the chosen checks (mock)."));
    page.send("set up CI checks").unwrap();
    page.browser.wait_for_element(".question-card[data-open=true] .question.multi", STEP).unwrap();
    page.click_text(".question-card[data-open=true] .option-label", "Lint").unwrap();
    page.click_text(".question-card[data-open=true] .option-label", "Unit tests").unwrap();
    let checked = page.browser.find_all(".question-card[data-open=true] .option[aria-checked=true]").unwrap().len();
    assert_eq!(checked, 2, "two options are chosen");
    // "Other" is an answer of its own beside the chosen options: empty until typed into, and
    // typing keeps the choices.
    let other = page.browser.find(".question-card[data-open=true] input.other").unwrap();
    assert_eq!(other.prop("value").unwrap(), json!(""), "the choices are not copied into Other");
    other.send_keys("Security scan").unwrap();
    let checked = page.browser.find_all(".question-card[data-open=true] .option[aria-checked=true]").unwrap().len();
    assert_eq!(checked, 2, "typing Other keeps the two choices");
    page.browser.find(".question-card[data-open=true] .submit").unwrap().click().unwrap();
    page.browser.wait_for_text(".messages", "Running the chosen checks", STEP).unwrap();

    let bodies = chat_requests(&mock);
    assert_eq!(bodies.len(), 2);
    let answer = &bodies[1];
    assert!(answer.contains("the user chose: Lint, Unit tests, (in their own words) Security scan"), "{answer}");
    assert!(!answer.contains(", Benchmarks") && !answer.contains("chose: Benchmarks"), "only what was chosen");
}

#[test]
fn an_english_no_key_chat_answers_in_english_only() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    page.send("/mode chat").unwrap();
    page.browser.wait_for_element(".context-meter", STEP).unwrap();
    let hint = page.browser.find("#composer-input").unwrap().attr("placeholder").unwrap().unwrap_or_default();
    assert!(hint.starts_with("Write a message"), "the chat's own hint: {hint}");
    page.send("please delete the old build files").unwrap();
    page.browser.wait_for_text(".messages", "no-key assistant", STEP).unwrap();
    page.click_text(".question-card[data-open=true] .option-label", "Old logs").unwrap();
    page.browser.wait_for_element(".command-card[data-open=true] .copy", STEP).unwrap();
    page.browser.find(".command-card[data-open=true] .command-output").unwrap().send_keys("./logs/a.log").unwrap();
    page.browser.find(".command-card[data-open=true] .send-output").unwrap().click().unwrap();
    page.browser.wait_for_text(".messages", "Got the output", STEP).unwrap();
    page.send("what a nice day").unwrap();
    page.browser.wait_for_text(".question-card[data-open=true]", "What would you like to do?", STEP).unwrap();
    // A question about a destructive command is answered with its danger: not refused as an
    // injection, and no card of things to run.
    page.send("what does rm -rf / do?").unwrap();
    page.browser.wait_for_text(".messages", "rm -rf / is dangerous", STEP).unwrap();
    page.browser.wait_for_text(".messages", "cannot be undone", STEP).unwrap();
    assert!(!has(&page, ".message[data-kind=security]"), "the question was not refused");
    assert!(!has(&page, ".question-card[data-open=true]"), "no card follows the answer");
    // An everyday command is explained too: what it does, and that it changes nothing.
    page.send("what does ls -la do?").unwrap();
    page.browser.wait_for_text(".messages", "ls -la lists the files", STEP).unwrap();
    page.browser.wait_for_text(".messages", "It only reads; it changes nothing.", STEP).unwrap();
    assert!(!has(&page, ".question-card[data-open=true]"), "no card follows the explanation");
    // A thanks is answered, not met with the topic card; containers are a topic of their own.
    page.send("thanks!").unwrap();
    page.browser.wait_for_text(".messages", "You're welcome", STEP).unwrap();
    assert!(!has(&page, ".question-card[data-open=true]"), "no card follows the thanks");
    // What the request names is proposed at once, with no card to pick it.
    page.send("my docker containers keep restarting, how do I see why?").unwrap();
    page.browser.wait_for_text(".command-card[data-open=true]", "docker inspect", STEP).unwrap();
    assert!(!has(&page, ".question-card[data-open=true]"), "no card to pick what was named");
    let hangul = page
        .browser
        .execute(
            "return Array.from(document.querySelectorAll('.messages .message'))\
               .map(m => m.innerText).filter(t => /[\\uAC00-\\uD7A3\\u3131-\\u318E]/.test(t));",
            vec![],
        )
        .unwrap();
    assert_eq!(hangul, json!([]), "no Korean text in the English chat");
    page.screenshot("chat-06-no-key-en").unwrap();
}

#[test]
fn a_full_window_is_folded_by_the_model_and_the_user_is_told() {
    let _one = one_browser();
    let mock = mock();
    mock.set_server_window(Some(2048));
    let (s, k) = settings("openai_compatible", &mock.base_url());
    let page = AppPage::open_with_llm("en-US", &s, &k).expect("the page opens");
    page.send("/mode chat").unwrap();
    page.browser.wait_for_text(".context-meter .meter-value", " / 2048", STEP).unwrap();
    page.send("FIRST-TURN: you must never touch the production database.").unwrap();
    page.browser.wait_for_text(".messages", "> FIRST-TURN", STEP).unwrap();
    let filler = "the parser reads the config and the layout of the modules ".repeat(8);
    for i in 0..6 {
        page.send(&format!("turn {i}: {filler}")).unwrap();
        page.browser.wait_for_text(".messages", &format!("> turn {i}:"), STEP).unwrap();
        if page.browser.try_find(".messages").unwrap().unwrap().text().unwrap().contains("were folded") {
            break;
        }
    }
    page.browser.wait_for_text(".messages", "The model wrote the summary.", STEP).unwrap();
    let folds: Vec<String> = mock
        .requests()
        .into_iter()
        .filter(|r| r.role.as_deref() == Some("chat-fold"))
        .map(|r| r.body.to_string())
        .collect();
    assert!(!folds.is_empty(), "a fold call went to the model");
    assert!(folds[0].contains("FIRST-TURN: you must never touch the production database."), "{}", folds[0]);
    // The next turn carries the summary and the constraint word for word.
    page.send("what next?").unwrap();
    page.browser.wait_for_text(".messages", "> what next?", STEP).unwrap();
    let last = chat_requests(&mock).pop().unwrap();
    assert!(last.contains("(verbatim): FIRST-TURN: you must never touch the production database."), "{last}");
    page.screenshot("chat-07-folded").unwrap();
}

#[test]
fn the_no_key_assistant_reads_an_attached_file_and_says_when_a_big_one_was_cut() {
    let _one = one_browser();
    let page = AppPage::open("en-US").expect("the page opens");
    page.send("/mode chat").unwrap();
    page.browser.wait_for_element(".context-meter", STEP).unwrap();

    // The button: a small file on disk.
    let dir = std::env::temp_dir().join("deliberate-chat-nokey-attach");
    std::fs::create_dir_all(&dir).unwrap();
    let notes = dir.join("release-notes.txt");
    std::fs::write(&notes, "Release checklist\nFREEZE: the release is on Friday at noon.\nOwner: Mina\n").unwrap();
    page.browser.find(".attach-input").unwrap().send_keys(notes.to_str().unwrap()).unwrap();
    page.browser.wait_for_text(".chat-panel .attachments", "release-notes.txt", STEP).unwrap();
    page.send("what does release-notes.txt say about the release?").unwrap();
    let reply = page.browser.wait_for_text(".messages", "I read release-notes.txt", STEP).unwrap();
    assert!(reply.contains("FREEZE: the release is on Friday at noon."), "the file's words are shown: {reply}");
    assert!(reply.contains("Without a key"), "the reply says it is the no-key assistant: {reply}");

    // Drag and drop: a file far over the 10,000-character read limit.
    let big = format!("BIG-HEAD: first line\n{}\nBIG-TAIL: last line\n", "filler line of the log\n".repeat(1500));
    page.browser
        .execute(
            "const dt = new DataTransfer();\
             dt.items.add(new File([arguments[0]], 'server.log', {type: 'text/plain'}));\
             const target = document.querySelector('.conversation');\
             for (const type of ['dragenter', 'dragover', 'drop']) {\
               target.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));\
             }\
             return true;",
            vec![Value::String(big.clone())],
        )
        .unwrap();
    page.browser.wait_for_text(".chat-panel .attachments", "server.log", STEP).unwrap();
    page.send("what is in server.log?").unwrap();
    let reply = page.browser.wait_for_text(".messages", "I read server.log", STEP).unwrap();
    let cut = big.chars().count() - 10_000;
    assert!(reply.contains("BIG-HEAD: first line"), "{reply}");
    assert!(reply.contains("were cut") && reply.contains(&cut.to_string()), "the cut is shown: {reply}");
    page.screenshot("chat-08-no-key-attachment").unwrap();
}
