//! The IndexedDB store in headless Chromium: append-only events read back in order, a
//! stale writer refused, delete, and the failures (no database, a blocked upgrade).

#![cfg(target_arch = "wasm32")]

use deliberate::engine::lang::Lang;
use deliberate::engine::session::{Event, Session};
use deliberate::store::idb::{Db, StoreError};
use deliberate::store::saved::Journal;
use deliberate::store::sessions::Header;
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
    db.append(&header, &journal.events, Some(0)).await.expect("the first write");

    // The next step writes only its own event.
    let (session, journal) = played(&id, &texts);
    let header = Header::of(&session, &journal, Some(&header), 6_000);
    db.append(&header, &journal.events[2..], Some(2)).await.expect("the append");

    let events = db.events(&id).await.unwrap();
    assert_eq!(events, journal.events, "every event, in order");
    let back = Journal { version: 1, start: header.start.clone(), events };
    assert_eq!(back.replay(), session, "replaying the stored events gives the session");
    let headers = db.headers().await.unwrap();
    assert_eq!(headers.iter().find(|h| h.id == id), Some(&header));
}

#[wasm_bindgen_test]
async fn a_writer_that_missed_another_tabs_step_is_refused() {
    let db = Db::open(None).await.unwrap();
    let id = unique("stale");
    let (session, journal) = played(&id, &["Classify support tickets", "cheaper"]);
    let header = Header::of(&session, &journal, None, 1);
    db.append(&header, &journal.events, Some(0)).await.unwrap();
    // This tab believes only one event is stored: its write would overwrite the other tab's.
    let (session1, journal1) = played(&id, &["Classify support tickets"]);
    let stale = Header::of(&session1, &journal1, None, 2);
    assert_eq!(db.append(&stale, &journal1.events, Some(0)).await, Err(StoreError::Stale));
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
    let first = db.append(&header, &journal.events, Some(0));
    // Made second, while the first is under way: the database then counts 2 events, not 0.
    let second = db.append(&header, &journal.events, Some(0));
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
        db.append(&Header::of(&session, &journal, None, 1), &journal.events, Some(0)).await.unwrap();
    }
    db.delete(&gone).await.unwrap();
    assert!(db.events(&gone).await.unwrap().is_empty());
    assert_eq!(db.events(&keep).await.unwrap().len(), 1);
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
