//! Conversations kept in IndexedDB, against the release build: the localStorage journal
//! of an older build moves in once, a reload mid-flow resumes, the sessions list (new,
//! switch, rename, search, delete with undo), and a second tab's step shows in an idle
//! tab and is never silently overwritten by a busy one.

use deliberate::engine::lang::Lang;
use deliberate::engine::session::{Env, Event, Session, Settings};
use deliberate::store::saved::Journal;
use deliberate_e2e::app::{one_browser, AppPage, STEP};
use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing};
use serde_json::{json, Value};

fn user_messages(page: &AppPage) -> Vec<String> {
    let texts = page
        .browser
        .execute("return [...document.querySelectorAll('.message.user')].map(m => m.textContent.trim());", vec![])
        .unwrap();
    serde_json::from_value(texts).unwrap()
}

/// Waits until the page shows exactly `want` as the user's messages.
fn wait_user_messages(page: &AppPage, want: &[String]) {
    page.browser
        .wait_for(STEP, &format!("user messages {want:?}"), |_| Ok((user_messages(page) == want).then_some(())))
        .unwrap();
}

fn count_where(records: &[Value], field: &str, value: &str) -> usize {
    records.iter().filter(|r| r[field] == value).count()
}

#[test]
fn the_localstorage_conversation_moves_into_the_database_once() {
    let _one = one_browser();
    // An older build's saved conversation.
    let mut session = Session::new("s-legacy", Lang::En, Settings::default(), 1_000);
    let mut journal = Journal::begin(&session);
    for (i, text) in ["Classify support tickets into a table", "too expensive, make it cheaper"].iter().enumerate() {
        let event = Event::UserMessage { text: (*text).into() };
        let env = Env::offline(2_000 + i as u64);
        journal.record(&event, &env);
        session.step(event, &env);
    }
    let page = AppPage::open("en-US").unwrap();
    page.wait_saved().unwrap();
    page.browser
        .execute(
            "localStorage.removeItem('deliberate.current'); localStorage.setItem('deliberate.session', arguments[0]); return true;",
            vec![Value::String(journal.encode().unwrap())],
        )
        .unwrap();
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    let want: Vec<String> =
        vec!["Classify support tickets into a table".into(), "too expensive, make it cheaper".into()];
    wait_user_messages(&page, &want);
    let headers = page.stored("sessions").unwrap();
    assert_eq!(count_where(&headers, "id", "s-legacy"), 1, "{headers:?}");
    let events = page.stored("events").unwrap();
    assert_eq!(count_where(&events, "sid", "s-legacy"), 2, "both events are in the store");
    let old = page.browser.execute("return localStorage.getItem('deliberate.session');", vec![]).unwrap();
    assert_eq!(old, Value::Null, "the old value is gone once the store holds it");

    // Again: the same conversation, from the store, still once.
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    wait_user_messages(&page, &want);
    assert_eq!(page.stage().unwrap(), "DEBATE");
    assert_eq!(count_where(&page.stored("sessions").unwrap(), "id", "s-legacy"), 1);
    assert_eq!(count_where(&page.stored("events").unwrap(), "sid", "s-legacy"), 2);
    page.assert_no_panic();
}

/// A new page whose discussion ("Classify support tickets into a table") shows its three
/// designs.
fn at_the_debate() -> AppPage {
    let page = AppPage::open("en-US").unwrap();
    page.wait_saved().unwrap();
    page.send("Classify support tickets into a table").unwrap();
    page.wait_stage("DEBATE").unwrap();
    page.wait_count(".design-card", 3).unwrap();
    page
}

#[test]
fn a_reload_mid_discussion_resumes_the_same_stage_and_messages() {
    let _one = one_browser();
    let page = at_the_debate();
    page.send("too expensive, make it cheaper").unwrap();
    page.browser.wait_for_text(".stepper .round", "1/", STEP).unwrap();
    page.wait_saved().unwrap();
    let before = user_messages(&page);
    let round = page.browser.find(".stepper .round").unwrap().text().unwrap();
    let designs = page.browser.find_all(".design-card").unwrap().len();

    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    wait_user_messages(&page, &before);
    assert_eq!(page.stage().unwrap(), "DEBATE");
    assert_eq!(page.browser.find(".stepper .round").unwrap().text().unwrap(), round);
    assert_eq!(page.wait_count(".design-card", designs).unwrap(), designs, "the designs are back");
    // Only the new events were written: one record per step, no duplicates.
    let events = page.stored("events").unwrap();
    let sid = events[0]["sid"].as_str().unwrap().to_string();
    let seqs: Vec<u64> =
        events.iter().filter(|e| e["sid"] == sid.as_str()).map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>(), "events are numbered 0.. once each");
    page.assert_no_panic();
}

/// A page with two saved discussions: "Classify support tickets into a table" (at the
/// designs) and, current, "Plan a weekend trip to Busan".
fn two_conversations() -> AppPage {
    let page = AppPage::open("en-US").unwrap();
    page.wait_saved().unwrap();
    page.send("Classify support tickets into a table").unwrap();
    page.wait_stage("DEBATE").unwrap();
    page.wait_saved().unwrap();
    page.browser.find(".new-conversation").unwrap().click().unwrap();
    page.send("Plan a weekend trip to Busan").unwrap();
    page.wait_saved().unwrap();
    page
}

fn open_list(page: &AppPage) {
    page.browser.find(".sessions-button").unwrap().click().unwrap();
    page.browser.wait_for_element(".dialog.sessions", STEP).unwrap();
}

/// Opens the listed conversation whose title starts with `title`.
fn open_session(page: &AppPage, title: &str) {
    let clicked = page
        .browser
        .execute(
            "const t = [...document.querySelectorAll('.session-title')].find(t => t.textContent.trim().startsWith(arguments[0])); \
             if (!t) return false; t.closest('button').click(); return true;",
            vec![Value::String(title.to_string())],
        )
        .unwrap();
    assert_eq!(clicked, Value::Bool(true), "no listed conversation titled {title:?}");
}

fn titles(page: &AppPage) -> Vec<String> {
    let texts = page
        .browser
        .execute("return [...document.querySelectorAll('.session-title')].map(t => t.textContent.trim());", vec![])
        .unwrap();
    serde_json::from_value(texts).unwrap()
}

#[test]
fn the_sessions_list_opens_renames_searches_and_deletes_with_undo() {
    let _one = one_browser();
    let page = two_conversations();
    page.send("with a small budget").unwrap();
    page.wait_saved().unwrap();

    open_list(&page);
    // Most recent first; titles from the first line of the first request.
    page.browser.wait_for(STEP, "two conversations listed", |_| Ok((titles(&page).len() == 2).then_some(()))).unwrap();
    assert_eq!(titles(&page), vec!["Plan a weekend trip to Busan", "Classify support tickets into a table"]);
    assert!(page.browser.find(".sessions-group h3").unwrap().text().unwrap().contains("Discussion"));

    // Search by content (the second line is not in the title).
    page.browser.find("#sessions-search").unwrap().send_keys("budget").unwrap();
    page.browser.wait_for(STEP, "the search", |_| Ok((titles(&page).len() == 1).then_some(()))).unwrap();
    assert_eq!(titles(&page), vec!["Plan a weekend trip to Busan"]);
    page.browser.find("#sessions-search").unwrap().clear().unwrap();
    page.browser.find("#sessions-search").unwrap().send_keys(" ").unwrap();
    page.browser.wait_for(STEP, "the search cleared", |_| Ok((titles(&page).len() == 2).then_some(()))).unwrap();

    // Switch to the older one.
    open_session(&page, "Classify support tickets");
    wait_user_messages(&page, &["Classify support tickets into a table".to_string()]);
    page.wait_stage("DEBATE").unwrap();
    page.wait_saved().unwrap();

    // Rename it; the name survives a reload.
    open_list(&page);
    page.browser.wait_for(STEP, "the list", |_| Ok((titles(&page).len() == 2).then_some(()))).unwrap();
    assert_eq!(titles(&page)[0], "Classify support tickets into a table", "now the most recent");
    page.browser.find(".session-row[aria-current='true'] .session-rename-button").unwrap().click().unwrap();
    let input = page.browser.find(".session-rename input").unwrap();
    input.clear().unwrap();
    input.send_keys("Ticket triage\u{E007}").unwrap();
    page.browser.wait_for_text(".session-title", "Ticket triage", STEP).unwrap();
    page.browser.find(".sessions-close").unwrap().click().unwrap();
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    wait_user_messages(&page, &["Classify support tickets into a table".to_string()]);
    open_list(&page);
    page.browser.wait_for(STEP, "the list", |_| Ok((titles(&page).len() == 2).then_some(()))).unwrap();
    assert_eq!(titles(&page), vec!["Ticket triage", "Plan a weekend trip to Busan"]);

    // Delete the Busan one, then undo.
    page.browser.find(".session-row:not([aria-current='true']) .session-delete").unwrap().click().unwrap();
    page.browser.wait_for(STEP, "deleted", |_| Ok((titles(&page).len() == 1).then_some(()))).unwrap();
    assert_eq!(count_where(&page.stored("sessions").unwrap(), "title", "Plan a weekend trip to Busan"), 0);
    page.browser.find(".sessions-undo").unwrap().click().unwrap();
    page.browser.wait_for(STEP, "restored", |_| Ok((titles(&page).len() == 2).then_some(()))).unwrap();
    assert_eq!(count_where(&page.stored("sessions").unwrap(), "title", "Plan a weekend trip to Busan"), 1);
    open_session(&page, "Plan a weekend trip");
    wait_user_messages(&page, &["Plan a weekend trip to Busan".to_string(), "with a small budget".to_string()]);
    page.assert_no_panic();
}

#[test]
fn with_an_llm_the_list_names_conversations_once_and_never_over_the_users_name() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).unwrap();
    let page = AppPage::open_with_llm("en-US", &mock.app_settings(10), &Value::Object(Default::default())).unwrap();
    let title_calls = || mock.requests().iter().filter(|r| r.role.as_deref() == Some("title")).count();
    page.wait_saved().unwrap();
    // A conversation whose name the model answers with quotes and a period: cleaned.
    page.send("Build a daily IT news digest for my team, please").unwrap();
    page.wait_stage("DEBATE").unwrap();
    page.wait_saved().unwrap();
    mock.script(Some("title"), "\"Daily IT news digest.\"");
    open_list(&page);
    wait_title(&page, "Daily IT news digest");
    assert_eq!(titles(&page), vec!["Daily IT news digest"]);
    let asked = mock.requests().into_iter().find(|r| r.role.as_deref() == Some("title")).unwrap();
    assert!(asked.body.to_string().contains("Build a daily IT news digest"), "the request is what is named");

    // A second one whose name the model answers with nonsense: the request's line stays.
    page.browser.find(".sessions-close").unwrap().click().unwrap();
    page.browser.find(".new-conversation").unwrap().click().unwrap();
    page.send("Plan a weekend trip to Busan").unwrap();
    page.wait_stage("DEBATE").unwrap();
    page.wait_saved().unwrap();
    mock.script(Some("title"), "{}");
    open_list(&page);
    page.browser.wait_for(STEP, "the second title call", |_| Ok((title_calls() == 2).then_some(()))).unwrap();
    page.browser.wait_for(STEP, "two listed", |_| Ok((titles(&page).len() == 2).then_some(()))).unwrap();
    assert_eq!(titles(&page), vec!["Plan a weekend trip to Busan", "Daily IT news digest"]);

    // The model's name survives a reload and later steps; the user's name wins over it,
    // and nothing is asked twice.
    page.browser.find(".sessions-close").unwrap().click().unwrap();
    open_session_after_close(&page, "Daily IT news digest");
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    page.send("make it cheaper").unwrap();
    page.wait_saved().unwrap();
    mock.script(Some("title"), "Sure! Here is a title for your conversation. It is about a trip.");
    open_list(&page);
    wait_title(&page, "Daily IT news digest");
    // A new visit asks again for the one still named by its request, and only for it.
    page.browser.wait_for(STEP, "the third title call", |_| Ok((title_calls() == 3).then_some(()))).unwrap();
    page.browser.find(".session-row[aria-current='true'] .session-rename-button").unwrap().click().unwrap();
    let input = page.browser.find(".session-rename input").unwrap();
    input.clear().unwrap();
    input.send_keys("My digest\u{E007}").unwrap();
    wait_title(&page, "My digest");
    page.browser.find(".sessions-close").unwrap().click().unwrap();
    open_list(&page);
    wait_title(&page, "My digest");
    assert_eq!(titles(&page), vec!["My digest", "Plan a weekend trip to Busan"]);
    assert_eq!(title_calls(), 3, "asked: the digest, Busan, Busan again after the reload; never twice a visit");
    page.assert_no_panic();
}

/// Waits until the list shows a conversation titled `title`.
fn wait_title(page: &AppPage, title: &str) {
    page.browser
        .wait_for(STEP, &format!("{title:?} listed"), |_| Ok(titles(page).iter().any(|t| t == title).then_some(())))
        .unwrap();
}

/// Opens the list and the conversation titled `title`.
fn open_session_after_close(page: &AppPage, title: &str) {
    open_list(page);
    wait_title(page, title);
    open_session(page, title);
    page.wait_saved().unwrap();
}

#[test]
fn a_conversation_with_a_damaged_step_is_neither_opened_nor_left_out_of_an_export() {
    let _one = one_browser();
    let page = two_conversations();
    // Something outside the app overwrites one saved step of the first conversation.
    let damaged = page
        .browser
        .execute_async(
            "const done = arguments[arguments.length - 1]; const open = indexedDB.open('deliberate'); \
             open.onsuccess = () => { const db = open.result; const tx = db.transaction('events', 'readwrite'); \
               const store = tx.objectStore('events'); const all = store.getAll(); \
               all.onsuccess = () => { const rec = all.result.find(r => r.seq === 0 && \
                   JSON.stringify(r).includes('Classify support tickets')); \
                 if (!rec) { done(false); return; } \
                 rec.logged = 'not a step'; store.put(rec); tx.oncomplete = () => { db.close(); done(true); }; }; };",
            vec![],
        )
        .unwrap();
    assert_eq!(damaged, Value::Bool(true), "a step of the first conversation was overwritten");

    // Export all refuses rather than leave it out, and says why.
    open_list(&page);
    page.browser.find(".sessions-export-all").unwrap().click().unwrap();
    let alert = page.browser.wait_for_element(".sessions-export-failed", STEP).unwrap().text().unwrap();
    assert!(alert.contains("Nothing was exported") && alert.ends_with('1'), "{alert}");

    // Opening it is refused with a banner; the conversation shown stays as it was.
    open_session(&page, "Classify support tickets");
    let banner = page.browser.wait_for_element(".alert-storage", STEP).unwrap().text().unwrap();
    assert!(banner.contains("cannot be read") && banner.contains("not opened"), "{banner}");
    wait_user_messages(&page, &["Plan a weekend trip to Busan".to_string()]);
    page.assert_no_panic();
}

/// Opens a second tab on the app and makes it the current window; returns the first's handle.
fn second_tab(page: &AppPage) -> Value {
    let first = page.browser.command("GET", "/window", None).unwrap();
    let second = page.browser.command("POST", "/window/new", Some(json!({"type": "tab"}))).unwrap();
    page.browser.command("POST", "/window", Some(json!({"handle": second["handle"]}))).unwrap();
    page.browser.goto(&page.server.url()).unwrap();
    page.wait_saved().unwrap();
    first
}

#[test]
fn a_step_another_tab_takes_shows_in_an_idle_tab_which_goes_on_from_it() {
    let _one = one_browser();
    let page = AppPage::open("en-US").unwrap();
    page.wait_saved().unwrap();
    page.send("Classify support tickets into a table").unwrap();
    page.wait_stage("DEBATE").unwrap();
    page.wait_saved().unwrap();
    // A second tab opens the same conversation and takes a step in it.
    let first = second_tab(&page);
    wait_user_messages(&page, &["Classify support tickets into a table".to_string()]);
    page.send("too expensive, make it cheaper").unwrap();
    page.browser.wait_for_text(".stepper .round", "1/", STEP).unwrap();
    page.wait_saved().unwrap();
    // Back in the first tab, with no reload: the step shows there too.
    page.browser.command("POST", "/window", Some(json!({"handle": first}))).unwrap();
    wait_user_messages(
        &page,
        &["Classify support tickets into a table".to_string(), "too expensive, make it cheaper".to_string()],
    );
    page.browser.wait_for_text(".stepper .round", "1/", STEP).unwrap();
    // And this tab goes on from it: its step is saved after the other tab's, nothing refused.
    page.send("make it simpler").unwrap();
    page.browser
        .wait_for(STEP, "the third step saved", |_| {
            let events = page.stored("events")?;
            Ok((events.len() == 3).then_some(events))
        })
        .unwrap();
    let events = page.stored("events").unwrap();
    let said: Vec<&Value> = events.iter().map(|e| &e["logged"]["event"]["user_message"]["text"]).collect();
    assert_eq!(said, ["Classify support tickets into a table", "too expensive, make it cheaper", "make it simpler"]);
    assert!(page.browser.try_find(".alert-storage").unwrap().is_none(), "nothing was refused");
    // A conversation begun in the other tab is listed here, while the list is open.
    open_list(&page);
    assert_eq!(titles(&page), vec!["Classify support tickets into a table"]);
    let second = page.browser.command("GET", "/window/handles", None).unwrap();
    let other = second.as_array().unwrap().iter().find(|h| **h != first).unwrap().clone();
    page.browser.command("POST", "/window", Some(json!({"handle": other}))).unwrap();
    page.browser.find(".new-conversation").unwrap().click().unwrap();
    page.send("Plan a weekend trip to Busan").unwrap();
    page.wait_saved().unwrap();
    page.browser.command("POST", "/window", Some(json!({"handle": first}))).unwrap();
    page.browser
        .wait_for(STEP, "the other tab's new conversation listed", |_| Ok((titles(&page).len() == 2).then_some(())))
        .unwrap();
    assert_eq!(titles(&page), vec!["Plan a weekend trip to Busan", "Classify support tickets into a table"]);
    page.assert_no_panic();
}

#[test]
fn a_tab_waiting_for_a_call_when_another_tab_steps_never_overwrites_it() {
    let _one = one_browser();
    let mock = MockLlm::start(MockConfig { port: 0, api_key: None, pacing: Pacing::default() }).unwrap();
    // The first tab's call is still out when the second tab opens the conversation.
    mock.set_pacing(Pacing { latency_ms: 6_000, chunk_delay_ms: 0, chunk_bytes: 0 });
    let page = AppPage::open_with_llm("en-US", &mock.app_settings(15), &Value::Object(Default::default())).unwrap();
    page.wait_saved().unwrap();
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.browser.wait_for_element(".composer .stop", STEP).unwrap();
    page.wait_saved().unwrap();
    // The second tab finds the call cut off (it cannot know the first tab still runs it)
    // and records that: a step the first tab has not seen.
    let first = second_tab(&page);
    page.browser.wait_for_text(".message.notice", "reloaded", STEP).unwrap();
    page.browser
        .wait_for(STEP, "the second tab's step saved", |_| {
            let events = page.stored("events")?;
            Ok((events.len() == 2).then_some(()))
        })
        .unwrap();
    // The first tab keeps its own step (the call's answer) and is refused when it writes it.
    page.browser.command("POST", "/window", Some(json!({"handle": first}))).unwrap();
    let alert = page.browser.wait_for_text(".alert-storage", "another tab", STEP).unwrap();
    assert!(alert.contains("reload"), "{alert}");
    let events = page.stored("events").unwrap();
    assert_eq!(events.len(), 2, "the other tab's step is kept: {events:?}");
    assert!(events[1]["logged"]["event"].get("reopened").is_some(), "{:?}", events[1]);
    page.assert_no_panic();
}

#[test]
fn export_all_then_import_brings_every_conversation_back_as_new_ones() {
    let _one = one_browser();
    let page = two_conversations();

    // Export all: the download link's data is caught instead of saved to disk.
    page.browser
        .execute(
            "window.__exported = null; \
             HTMLAnchorElement.prototype.click = function () { window.__exported = decodeURIComponent(this.href.split(',')[1]); }; \
             window.confirm = () => true; return true;",
            vec![],
        )
        .unwrap();
    open_list(&page);
    page.browser.find(".sessions-export-all").unwrap().click().unwrap();
    let exported = page
        .browser
        .wait_for(STEP, "the export", |b| {
            let v = b.execute("return window.__exported;", vec![])?;
            Ok(v.as_str().map(str::to_string))
        })
        .unwrap();
    let bundle: Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(bundle["version"], 1);
    let sessions = bundle["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "both conversations: {exported}");
    page.browser.find(".sessions-close").unwrap().click().unwrap();

    // Import it: both come back as new conversations, the first one opens.
    let dir = deliberate_e2e::tempdir::TempDir::new("sessions-import").unwrap();
    let file = dir.path().join("all.json");
    std::fs::write(&file, &exported).unwrap();
    page.browser.find(".export-panel input[type=file]").unwrap().send_keys(file.to_str().unwrap()).unwrap();
    page.browser.wait_for_text(".import-ok", "imported", STEP).unwrap();
    wait_user_messages(&page, &["Classify support tickets into a table".to_string()]);
    page.wait_saved().unwrap();
    page.browser
        .wait_for(STEP, "four conversations stored", |_| Ok((page.stored("sessions")?.len() == 4).then_some(())))
        .unwrap();
    let headers = page.stored("sessions").unwrap();
    assert_eq!(count_where(&headers, "title", "Classify support tickets into a table"), 2);
    assert_eq!(count_where(&headers, "title", "Plan a weekend trip to Busan"), 2);
    // The imported conversations replay to what was exported: same events, new ids.
    let events = page.stored("events").unwrap();
    for exported in sessions {
        let id = exported["start"]["id"].as_str().unwrap();
        let copy = headers
            .iter()
            .find(|h| h["id"] != id && h["start"]["created_at"] == exported["start"]["created_at"])
            .expect("an imported copy");
        let copied: Vec<&Value> = events.iter().filter(|e| e["sid"] == copy["id"]).map(|e| &e["logged"]).collect();
        let original: Vec<&Value> = exported["events"].as_array().unwrap().iter().collect();
        assert_eq!(copied, original, "the imported events equal the exported ones");
    }
    page.assert_no_panic();
}

/// How many rows the message list shows, and the earlier-messages button's text (if shown).
fn drawn(page: &AppPage) -> (usize, Option<String>) {
    let rows = page.browser.find_all(".messages .message").unwrap().len();
    let button = page.browser.try_find(".messages .earlier").unwrap().map(|b| b.text().unwrap());
    (rows, button)
}

#[test]
fn a_long_conversation_draws_its_newest_rows_and_the_earlier_ones_on_the_way_up() {
    let _one = one_browser();
    // Two messages a turn (the question and the assistant's card), the introduction once.
    let turns = 105;
    let (journal, messages) = deliberate_e2e::long_session::chat_journal(turns);
    assert!(messages > 200, "{messages} messages");
    let page = AppPage::open("en-US").unwrap();
    page.browser
        .execute(
            "localStorage.setItem('deliberate.session', arguments[0]); localStorage.removeItem('deliberate.current'); \
             return true;",
            vec![Value::String(journal)],
        )
        .unwrap();
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    page.wait_count(".messages .message", 50).unwrap();
    // The newest rows, the newest in view; the rest behind a button that says how many.
    let (rows, button) = drawn(&page);
    assert_eq!(rows, 50);
    assert_eq!(button.as_deref(), Some(format!("Show {} earlier messages", messages - 50).as_str()));
    assert!(user_messages(&page).last().unwrap().starts_with(&format!("Question {}:", turns - 1)));
    let at_bottom =
        "const l = document.querySelector('.messages'); return l.scrollHeight - l.scrollTop - l.clientHeight;";
    let gap = page.browser.execute(at_bottom, vec![]).unwrap().as_f64().unwrap();
    assert!(gap < 2.0, "the newest message is in view ({gap} px below)");

    // Scrolling to the top draws a hundred more, and what was on screen stays on screen.
    let first_drawn = "return document.querySelector('.messages .message').getBoundingClientRect().top \
         - document.querySelector('.messages').getBoundingClientRect().top;";
    page.browser
        .execute("const l = document.querySelector('.messages'); l.scrollTop = 0; return true;", vec![])
        .unwrap();
    page.wait_count(".messages .message", 150).unwrap();
    page.browser
        .wait_for(STEP, "the old first row kept in place", |b| {
            let top = b.execute("return document.querySelector('.messages').scrollTop;", vec![])?.as_f64();
            Ok(top.filter(|t| *t > 100.0))
        })
        .unwrap();
    let (rows, button) = drawn(&page);
    assert_eq!(rows, 150, "scrolling up drew one more batch, not all");
    assert_eq!(button.as_deref(), Some(format!("Show {} earlier messages", messages - 150).as_str()));
    assert!(page.browser.execute(first_drawn, vec![]).unwrap().as_f64().unwrap() < 0.0, "the new rows are above");

    // The button draws the rest; the very first message is there and the button is gone.
    // (Clicked from the page: the driver would scroll it into view first, and reaching the
    // top draws the earlier rows by itself.)
    let click = "document.querySelector('.messages .earlier').click(); return true;";
    page.browser.execute(click, vec![]).unwrap();
    page.wait_count(".messages .message", messages).unwrap();
    assert_eq!(drawn(&page), (messages, None));
    assert!(user_messages(&page)[0].starts_with("Question 0:"));

    // A new step still lands at the bottom, in view.
    page.send("One more question: what else should I clean?").unwrap();
    page.wait_count(".messages .message", messages + 2).unwrap();
    page.browser
        .wait_for(STEP, "the newest message in view", |b| {
            Ok(b.execute(at_bottom, vec![])?.as_f64().filter(|gap| *gap < 2.0))
        })
        .unwrap();
    page.assert_no_panic();
}

/// Rewrites every snapshot record of the saved conversations with `script`, a function
/// body given `json` (the record's text) that returns the new text, and runs `header` (a
/// statement on `h`) on every header: what the build that wrote the records left of their
/// digest. Run it on a page of the site where no app runs: an app opening a conversation
/// may write its records meanwhile.
fn rewrite_snapshot(page: &AppPage, script: &str, header: &str) -> u64 {
    let changed = page
        .browser
        .execute_async(
            &format!(
                "const done = arguments[arguments.length - 1]; const open = indexedDB.open('deliberate'); \
                 open.onsuccess = () => {{ const db = open.result; const tx = db.transaction(['shown', 'sessions'], 'readwrite'); \
                   const heads = tx.objectStore('sessions'); const each = heads.getAll(); \
                   each.onsuccess = () => {{ for (const h of each.result) {{ {header}; heads.put(h); }} }}; \
                   const store = tx.objectStore('shown'); const all = store.getAll(); let n = 0; \
                   all.onsuccess = () => {{ for (const rec of all.result) {{ \
                       const next = ((json) => {{ {script} }})(rec.json); \
                       if (next !== rec.json) {{ rec.json = next; store.put(rec); n += 1; }} }} \
                     tx.oncomplete = () => {{ db.close(); done(n); }}; }}; }};"
            ),
            vec![],
        )
        .unwrap();
    changed.as_u64().unwrap_or(0)
}

#[test]
fn a_conversation_an_older_build_showed_differently_opens_as_it_was_saved() {
    let _one = one_browser();
    let page = at_the_debate();
    page.wait_saved().unwrap();
    // The snapshot: the state, and one record per message shown.
    let shown = page.stored("shown").unwrap();
    let rows = page.browser.find_all(".message").unwrap().len();
    assert!(shown.iter().any(|r| r["slot"] == 0), "a state record: {shown:?}");
    let messages = shown.iter().filter(|r| r["slot"].as_f64().is_some_and(|s| s > 0.0)).count();
    assert!(messages >= rows && rows > 0, "{messages} message records for {rows} rows");
    let headers = page.stored("sessions").unwrap();
    let digest = headers[0]["digest"].as_str().unwrap_or_default().to_string();
    assert!(digest.starts_with(&format!("{}:", shown.len())), "the header keeps the records' digest: {headers:?}");
    // A conversation this build replays as it was saved opens here, on the page itself.
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    wait_user_messages(&page, &["Classify support tickets into a table".to_string()]);
    assert!(!page.browser.current_url().unwrap().contains("/reader/"));

    // What an older build kept, one from before digests: the same steps, shown otherwise
    // (written where no app runs).
    page.browser.goto(&format!("{}manifest.webmanifest", page.server.url())).unwrap();
    let changed = rewrite_snapshot(
        &page,
        "return json.split('Classify support tickets').join('Sort support tickets');",
        "delete h.digest",
    );
    assert!(changed >= 2, "the request is in the user's message and in the state: {changed}");
    page.browser.goto(&page.server.url()).unwrap();
    page.browser
        .wait_for(STEP, "the reader build", |b| Ok(b.current_url()?.contains("/reader/").then_some(())))
        .unwrap();
    page.wait_saved().unwrap();
    let kept = vec!["Sort support tickets into a table".to_string()];
    wait_user_messages(&page, &kept);
    assert_eq!(page.stage().unwrap(), "DEBATE");
    assert_eq!(page.wait_count(".design-card", 3).unwrap(), 3, "the designs are as they were");

    // It goes on from there, and a reload keeps what it showed and what came after.
    page.send("too expensive, make it cheaper").unwrap();
    page.browser.wait_for_text(".stepper .round", "1/", STEP).unwrap();
    page.wait_saved().unwrap();
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    let both = vec![kept[0].clone(), "too expensive, make it cheaper".to_string()];
    wait_user_messages(&page, &both);
    page.assert_no_panic();

    // Exported and imported again, it comes back as it was shown, not as a replay would.
    let files = page.export_both().unwrap();
    let exported: Value = serde_json::from_str(&files[0]).unwrap();
    assert!(exported["shown"].as_array().is_some_and(|s| !s.is_empty()), "the export holds the snapshot");
    assert!(files[1].contains("Sort support tickets into a table"), "{}", files[1]);
    let original = page.browser.execute("return localStorage.getItem('deliberate.current');", vec![]).unwrap();
    let dir = deliberate_e2e::tempdir::TempDir::new("sessions-import-shown").unwrap();
    let file = dir.path().join("one.json");
    std::fs::write(&file, &files[0]).unwrap();
    page.browser.execute("window.confirm = () => true; return true;", vec![]).unwrap();
    page.browser.find(".export-panel input[type=file]").unwrap().send_keys(file.to_str().unwrap()).unwrap();
    page.browser.wait_for_text(".import-ok", "imported", STEP).unwrap();
    page.browser
        .wait_for(STEP, "the copy stored and current", |b| {
            let current = b.execute("return localStorage.getItem('deliberate.current');", vec![])?;
            Ok((page.stored("sessions")?.len() == 2 && current != original).then_some(()))
        })
        .unwrap();
    page.wait_saved().unwrap();
    wait_user_messages(&page, &both);
    page.browser.refresh().unwrap();
    page.wait_saved().unwrap();
    wait_user_messages(&page, &both);
    assert_ne!(page.browser.execute("return localStorage.getItem('deliberate.current');", vec![]).unwrap(), original);
    page.assert_no_panic();

    // Records no build can read: the replay is shown, and the banner says why. They are
    // rewritten on a page of the site that runs no app, so no app writes its own meanwhile
    // (the page that opens the copy hands it to the reader build, which saves it).
    page.browser.goto(&format!("{}manifest.webmanifest", page.server.url())).unwrap();
    // Written by a newer build: their digest is not this build's replay's.
    let broken = rewrite_snapshot(
        &page,
        "return json.includes('\"next_message\"') ? '{\"broken\":true}' : json;",
        "h.digest = '1:0123456789abcdef'",
    );
    assert_eq!(broken, 2, "the state records of the conversation and of its imported copy");
    page.browser.goto(&page.server.url()).unwrap();
    page.browser
        .wait_for(STEP, "the reader build", |b| Ok(b.current_url()?.contains("/reader/").then_some(())))
        .unwrap();
    let banner = page.browser.wait_for_element(".alert-storage", STEP).unwrap().text().unwrap();
    assert!(banner.contains("showed this conversation differently"), "{banner}");
    wait_user_messages(
        &page,
        &["Classify support tickets into a table".to_string(), "too expensive, make it cheaper".to_string()],
    );
    page.assert_no_panic();
}
