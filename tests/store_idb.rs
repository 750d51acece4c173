//! The IndexedDB store in headless Chromium: append-only events and snapshot records read
//! back, a stale writer refused, delete, the upgrade from the first schema, and the
//! failures (no database, a blocked upgrade).

#![cfg(target_arch = "wasm32")]

use deliberate::engine::lang::Lang;
use deliberate::engine::session::{Event, Session};
use deliberate::store::idb::{Db, StoreError};
use deliberate::store::saved::Journal;
use deliberate::store::sessions::Header;
use deliberate::store::snapshot::{self, Changes, Check, Shown};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A session stepped through `texts`, its journal, and its header.
fn played(id: &str, texts: &[&str]) -> (Session, Journal) {
    deliberate::scenario::played(id, Lang::En, texts.iter().map(|t| Event::UserMessage { text: (*t).into() }))
}

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}", js_sys::Math::random())
}

#[wasm_bindgen_test]
async fn steps_append_their_events_and_read_back_in_order() {
    let db = Db::open(None).await.expect("the database opens");
    let id = unique("s");
    let texts = ["Classify support tickets into a table", "too expensive, make it cheaper", "the second one"];
    let (session, journal) = played(&id, &texts[..2]);
    let header = Header::of(&session, &journal, None, 5_000);
    let mut shown = Shown::default();
    db.append(&header, &journal.events, &shown.changes(&session), Some(0)).await.expect("the first write");

    // The next step writes only its own event, and only the records it changed.
    let (session, journal) = played(&id, &texts);
    let header = Header::of(&session, &journal, Some(&header), 6_000);
    let changes = shown.changes(&session);
    assert!(changes.put.len() < session.messages.len(), "{} records for {}", changes.put.len(), session.messages.len());
    db.append(&header, &journal.events[2..], &changes, Some(2)).await.expect("the append");

    let events = db.events(&id).await.unwrap();
    assert_eq!(events, journal.events, "every event, in order");
    let back = Journal { version: 1, start: header.start.clone(), events, shown: Vec::new() };
    assert_eq!(back.replay(), session, "replaying the stored events gives the session");
    let headers = db.headers().await.unwrap();
    assert_eq!(headers.iter().find(|h| h.id == id), Some(&header));
    let records = db.records(&id).await.unwrap();
    assert_eq!(snapshot::check(&session, &records), Check::Same, "the records show the session");
    let mut kept = snapshot::read(&records).expect("the records read back");
    kept.heuristic_why = session.heuristic_why.clone();
    assert_eq!(kept, session);
}

/// A write that knows nothing of the saved records (a first one, or the one after a failed
/// write) replaces them all: a record of a message since removed does not outlive it, and
/// the header's digest is then the records' own.
#[wasm_bindgen_test]
async fn a_write_of_every_record_replaces_the_ones_saved_before() {
    let db = Db::open(None).await.unwrap();
    let id = unique("whole");
    let (session, journal) = played(&id, &["Classify support tickets into a table", "the second one"]);
    let mut left = snapshot::records_of(&session);
    left.push(snapshot::Record { slot: 999.0, json: "{\"left\":\"over\"}".into() });
    let header = Header::of(&session, &journal, None, 1);
    let stale = Changes { clear: false, ..Changes::all(left) };
    db.append(&header, &journal.events, &stale, Some(0)).await.unwrap();
    assert!(db.records(&id).await.unwrap().iter().any(|r| r.slot == 999.0), "written as it was");

    let mut shown = Shown::default();
    let changes = shown.changes(&session);
    assert!(changes.clear);
    let header = Header { digest: Some(shown.digest()), ..header };
    db.append(&header, &[], &changes, Some(header.events)).await.unwrap();
    let records = db.records(&id).await.unwrap();
    assert!(records.iter().all(|r| r.slot != 999.0), "the left-over record goes");
    assert_eq!(snapshot::check(&session, &records), Check::Same);
    let stored = db.headers().await.unwrap().into_iter().find(|h| h.id == id).expect("the header");
    assert_eq!(stored.digest, Some(snapshot::digest_of(&records)), "the header's digest is the records'");
    assert_eq!(snapshot::shown_by_digest(&session, stored.digest.as_deref()), Some(shown));
}

#[wasm_bindgen_test]
async fn a_writer_that_missed_another_tabs_step_is_refused() {
    let db = Db::open(None).await.unwrap();
    let id = unique("stale");
    let (session, journal) = played(&id, &["Classify support tickets", "cheaper"]);
    let header = Header::of(&session, &journal, None, 1);
    db.append(&header, &journal.events, &Changes::default(), Some(0)).await.unwrap();
    // This tab believes only one event is stored: its write would overwrite the other tab's.
    let (session1, journal1) = played(&id, &["Classify support tickets"]);
    let stale = Header::of(&session1, &journal1, None, 2);
    assert_eq!(db.append(&stale, &journal1.events, &Changes::default(), Some(0)).await, Err(StoreError::Stale));
    assert_eq!(db.events(&id).await.unwrap(), journal.events, "nothing was overwritten");
    assert_eq!(db.headers().await.unwrap().iter().find(|h| h.id == id).map(|h| h.events), Some(2));
}

/// A write is handed to the database when `append` is called, not when its future is first
/// awaited: two writes run in the order they were made, whatever order they are awaited in.
#[wasm_bindgen_test]
async fn writes_reach_the_database_in_the_order_they_were_made() {
    let db = Db::open(None).await.unwrap();
    let id = unique("order");
    let (session, journal) = played(&id, &["Classify support tickets", "cheaper"]);
    let header = Header::of(&session, &journal, None, 1);
    let first = db.append(&header, &journal.events, &Changes::default(), Some(0));
    // Made second, while the first is under way: the database then counts 2 events, not 0.
    let second = db.append(&header, &journal.events, &Changes::default(), Some(0));
    assert_eq!(second.await, Err(StoreError::Stale), "the second write met the first one's events");
    assert_eq!(first.await, Ok(()));
    assert_eq!(db.events(&id).await.unwrap(), journal.events);
}

#[wasm_bindgen_test]
async fn delete_removes_the_header_and_the_events_of_that_session_only() {
    let db = Db::open(None).await.unwrap();
    let (gone, keep) = (unique("gone"), unique("keep"));
    for id in [&gone, &keep] {
        let (session, journal) = played(id, &["Plan a trip to Busan"]);
        let changes = Shown::default().changes(&session);
        db.append(&Header::of(&session, &journal, None, 1), &journal.events, &changes, Some(0)).await.unwrap();
    }
    db.delete(&gone).await.unwrap();
    assert!(db.events(&gone).await.unwrap().is_empty());
    assert!(db.records(&gone).await.unwrap().is_empty(), "its snapshot goes with it");
    assert_eq!(db.events(&keep).await.unwrap().len(), 1);
    assert!(!db.records(&keep).await.unwrap().is_empty());
    let headers = db.headers().await.unwrap();
    assert!(!headers.iter().any(|h| h.id == gone) && headers.iter().any(|h| h.id == keep));
}

#[wasm_bindgen_test]
async fn a_factory_that_refuses_or_an_upgrade_that_is_blocked_is_reported() {
    // `open` throws, as where storage is denied.
    let refusing = js_sys::eval("({ open() { throw new DOMException('denied', 'SecurityError'); } })").unwrap();
    match Db::open(Some(refusing.unchecked_into())).await {
        Err(StoreError::Unavailable(why)) => assert!(why.contains("SecurityError"), "{why}"),
        Err(other) => panic!("unexpected {other:?}"),
        Ok(_) => panic!("opened"),
    }
    // The request errors, as when the browser cannot open the database.
    let failing = js_sys::eval(
        "({ open() { const r = { error: new DOMException('broken', 'UnknownError') }; \
           setTimeout(() => r.onerror && r.onerror(), 0); return r; } })",
    )
    .unwrap();
    assert!(matches!(Db::open(Some(failing.unchecked_into())).await, Err(StoreError::Unavailable(_))));
    // Another tab holds an older version open and does not let go.
    let blocked =
        js_sys::eval("({ open() { const r = {}; setTimeout(() => r.onblocked && r.onblocked(), 0); return r; } })")
            .unwrap();
    assert_eq!(Db::open(Some(blocked.unchecked_into())).await.err(), Some(StoreError::Blocked));
}

/// A database of the first schema (headers and events, no snapshot) is upgraded in place:
/// what it held stays, and its conversations have no records until they are saved again.
#[wasm_bindgen_test]
async fn a_database_of_the_first_schema_is_upgraded_keeping_its_conversations() {
    let id = unique("v1");
    let (session, journal) = played(&id, &["Plan a trip to Busan"]);
    let header = serde_json::to_string(&Header::of(&session, &journal, None, 1)).unwrap();
    let event = serde_json::to_string(&serde_json::json!({"sid": id, "seq": 0, "logged": journal.events[0]})).unwrap();
    let made = js_sys::Function::new_with_args(
        "header, event",
        "return new Promise((resolve, reject) => { \
           const gone = indexedDB.deleteDatabase('deliberate'); \
           gone.onblocked = () => reject('blocked'); \
           gone.onsuccess = () => { const open = indexedDB.open('deliberate', 1); \
             open.onupgradeneeded = () => { const db = open.result; \
               db.createObjectStore('sessions', { keyPath: 'id' }); \
               db.createObjectStore('events', { keyPath: ['sid', 'seq'] }); }; \
             open.onsuccess = () => { const db = open.result; \
               const tx = db.transaction(['sessions', 'events'], 'readwrite'); \
               tx.objectStore('sessions').put(JSON.parse(header)); tx.objectStore('events').put(JSON.parse(event)); \
               tx.oncomplete = () => { db.close(); resolve(true); }; tx.onerror = () => reject('write'); }; \
             open.onerror = () => reject('open'); }; });",
    )
    .call2(&wasm_bindgen::JsValue::NULL, &header.into(), &event.into())
    .unwrap();
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(made)).await.expect("a first-schema database");
    let db = Db::open(None).await.expect("the upgrade opens it");
    assert!(db.headers().await.unwrap().iter().any(|h| h.id == id), "the header stays");
    assert_eq!(db.events(&id).await.unwrap(), journal.events, "the events stay");
    assert!(db.records(&id).await.unwrap().is_empty(), "no snapshot yet");
    let mut header = Header::of(&session, &journal, None, 2);
    header.events = 1;
    db.append(&header, &[], &Shown::default().changes(&session), Some(1)).await.expect("the records are written");
    assert_eq!(snapshot::check(&session, &db.records(&id).await.unwrap()), Check::Same);
}
