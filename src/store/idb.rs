//! The browser's database (IndexedDB) through thin web-sys calls: a `sessions` store of
//! headers and an append-only `events` store keyed `[session id, seq]`. Values cross the
//! boundary as JSON (`JSON.parse` of serde_json text), so no extra serializer is linked.
//! Schema 2 adds a `shown` store keyed `[session id, slot]`: the snapshot's records
//! (`store::snapshot`), each kept as its JSON text.
//! A step writes its new events, its changed snapshot records and the header in one
//! transaction that first checks the header still counts the events this tab saw: a stale
//! tab is refused, never overwrites.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Promise, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbFactory, IdbKeyRange, IdbObjectStoreParameters, IdbRequest, IdbTransactionMode};

use super::saved::Logged;
use super::sessions::{Header, SCHEMA};
use super::snapshot::{Changes, Record};

/// The database's name in the browser.
pub const DB_NAME: &str = "deliberate";
const SESSIONS: &str = "sessions";
const EVENTS: &str = "events";
const SHOWN: &str = "shown";

/// Why the database could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// No IndexedDB here (some private modes), or opening it failed.
    Unavailable(String),
    /// Another tab holds an older version of the database open.
    Blocked,
    /// The browser refused to write (storage full, or the write failed).
    WriteFailed(String),
    /// Another tab changed this conversation since this tab last saved it.
    Stale,
    /// A saved step could not be read (changed by something else, or written by a newer
    /// build): the conversation is not opened or exported without it.
    Damaged,
}

/// An open database.
#[derive(Clone)]
pub struct Db {
    db: IdbDatabase,
}

/// An event as stored: the journal entry with its session and position.
#[derive(serde::Serialize)]
struct EventOut<'a> {
    sid: &'a str,
    seq: u64,
    logged: &'a Logged,
}

/// An event as read back (its key fields are not needed).
#[derive(serde::Deserialize)]
struct EventIn {
    logged: Logged,
}

fn describe(value: &JsValue) -> String {
    if let Some(e) = value.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", e.name(), e.message());
    }
    value.as_string().unwrap_or_else(|| "unknown".to_string())
}

/// Waits for a request's success (its result) or error.
async fn done(request: &IdbRequest) -> Result<JsValue, JsValue> {
    let promise = Promise::new(&mut |resolve, reject| {
        let r = request.clone();
        let ok = Closure::once_into_js(move || {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = request.clone();
        let failed = Closure::once_into_js(move || {
            let error = r.error().ok().flatten().map(JsValue::from).unwrap_or(JsValue::NULL);
            let _ = reject.call1(&JsValue::NULL, &error);
        });
        request.set_onsuccess(Some(ok.unchecked_ref()));
        request.set_onerror(Some(failed.unchecked_ref()));
    });
    JsFuture::from(promise).await
}

/// The commit (Ok) or abort (the error) of a transaction, to wait for; listened for at once.
fn committed(tx: &web_sys::IdbTransaction) -> JsFuture {
    let promise = Promise::new(&mut |resolve, reject| {
        let ok = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let t = tx.clone();
        let failed = Closure::once_into_js(move || {
            let error = t.error().map(JsValue::from).unwrap_or_else(|| JsValue::from_str("aborted"));
            let _ = reject.call1(&JsValue::NULL, &error);
        });
        tx.set_oncomplete(Some(ok.unchecked_ref()));
        tx.set_onabort(Some(failed.unchecked_ref()));
    });
    JsFuture::from(promise)
}

/// Brings a database from `old` to `SCHEMA`. Each version adds its own block; none is
/// ever edited once released.
fn upgrade(db: &IdbDatabase, old: u32) -> Result<(), JsValue> {
    if old < 1 {
        let by_id = IdbObjectStoreParameters::new();
        by_id.set_key_path(&JsValue::from_str("id"));
        db.create_object_store_with_optional_parameters(SESSIONS, &by_id)?;
        let by_position = IdbObjectStoreParameters::new();
        by_position.set_key_path(&Array::of2(&"sid".into(), &"seq".into()));
        db.create_object_store_with_optional_parameters(EVENTS, &by_position)?;
    }
    if old < 2 {
        let by_slot = IdbObjectStoreParameters::new();
        by_slot.set_key_path(&Array::of2(&"sid".into(), &"slot".into()));
        db.create_object_store_with_optional_parameters(SHOWN, &by_slot)?;
    }
    Ok(())
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, StoreError> {
    let text = serde_json::to_string(value).map_err(|e| StoreError::WriteFailed(e.to_string()))?;
    JSON::parse(&text).map_err(|e| StoreError::WriteFailed(describe(&e)))
}

fn from_js<T: serde::de::DeserializeOwned>(value: &JsValue) -> Option<T> {
    serde_json::from_str(&JSON::stringify(value).ok()?.as_string()?).ok()
}

/// The key range of one session's rows in a store keyed `[session id, number]` (its events,
/// its snapshot records).
fn rows_of(id: &str) -> Result<IdbKeyRange, JsValue> {
    let low = Array::of2(&id.into(), &f64::NEG_INFINITY.into());
    let high = Array::of2(&id.into(), &f64::INFINITY.into());
    IdbKeyRange::bound(&low, &high)
}

impl Db {
    /// Opens (creating or upgrading) the database of `factory`, or of the page's window.
    pub async fn open(factory: Option<IdbFactory>) -> Result<Db, StoreError> {
        let factory = match factory {
            Some(f) => f,
            None => web_sys::window()
                .ok_or_else(|| StoreError::Unavailable("no window".into()))?
                .indexed_db()
                .map_err(|e| StoreError::Unavailable(describe(&e)))?
                .ok_or_else(|| StoreError::Unavailable("IndexedDB is not offered".into()))?,
        };
        let request = factory.open_with_u32(DB_NAME, SCHEMA).map_err(|e| StoreError::Unavailable(describe(&e)))?;
        let upgrade_failed = Rc::new(Cell::new(false));
        let r = request.clone();
        let failed = upgrade_failed.clone();
        let on_upgrade = Closure::once_into_js(move |event: web_sys::IdbVersionChangeEvent| {
            let db = r.result().ok().and_then(|v| v.dyn_into::<IdbDatabase>().ok());
            if let Some(db) = db {
                if upgrade(&db, event.old_version() as u32).is_err() {
                    failed.set(true);
                }
            }
        });
        request.set_onupgradeneeded(Some(on_upgrade.unchecked_ref()));
        let blocked = Rc::new(Cell::new(false));
        let opened = {
            let blocked = blocked.clone();
            let promise = Promise::new(&mut |resolve, reject| {
                let r = request.clone();
                let ok = Closure::once_into_js(move || {
                    let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
                });
                let r = request.clone();
                let err_reject = reject.clone();
                let failed = Closure::once_into_js(move || {
                    let error = r.error().ok().flatten().map(JsValue::from).unwrap_or(JsValue::NULL);
                    let _ = err_reject.call1(&JsValue::NULL, &error);
                });
                let b = blocked.clone();
                let on_blocked = Closure::once_into_js(move || {
                    b.set(true);
                    let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("blocked"));
                });
                request.set_onsuccess(Some(ok.unchecked_ref()));
                request.set_onerror(Some(failed.unchecked_ref()));
                request.set_onblocked(Some(on_blocked.unchecked_ref()));
            });
            JsFuture::from(promise).await
        };
        match opened {
            Ok(value) if !upgrade_failed.get() => {
                let db: IdbDatabase = value.dyn_into().map_err(|_| StoreError::Unavailable("not a database".into()))?;
                // A newer version opened in another tab: let it upgrade; this tab stops saving.
                let closing = db.clone();
                let on_change = Closure::<dyn FnMut()>::new(move || closing.close());
                db.set_onversionchange(Some(on_change.as_ref().unchecked_ref()));
                on_change.forget();
                Ok(Db { db })
            }
            Ok(_) => Err(StoreError::Unavailable("the upgrade failed".into())),
            Err(_) if blocked.get() => Err(StoreError::Blocked),
            Err(e) => Err(StoreError::Unavailable(describe(&e))),
        }
    }

    fn tx(&self, mode: IdbTransactionMode) -> Result<web_sys::IdbTransaction, JsValue> {
        let names = Array::of3(&SESSIONS.into(), &EVENTS.into(), &SHOWN.into());
        self.db.transaction_with_str_sequence_and_mode(&names, mode)
    }

    /// Every saved conversation's header (unreadable ones are skipped, not deleted).
    pub async fn headers(&self) -> Result<Vec<Header>, StoreError> {
        let read = async {
            let tx = self.tx(IdbTransactionMode::Readonly)?;
            let all = done(&tx.object_store(SESSIONS)?.get_all()?).await?;
            Ok::<_, JsValue>(Array::from(&all).iter().filter_map(|v| from_js::<Header>(&v)).collect())
        };
        read.await.map_err(|e| StoreError::Unavailable(describe(&e)))
    }

    /// One conversation's events, in order.
    pub async fn events(&self, id: &str) -> Result<Vec<Logged>, StoreError> {
        let read = async {
            let tx = self.tx(IdbTransactionMode::Readonly)?;
            let all = done(&tx.object_store(EVENTS)?.get_all_with_key(&rows_of(id)?.into())?).await?;
            Ok::<_, JsValue>(all)
        };
        let all = read.await.map_err(|e| StoreError::Unavailable(describe(&e)))?;
        // Every step or none: a conversation replayed without one of its steps is not the
        // conversation that was saved. (Read as one text: one crossing, not one per step.)
        let events: Option<Vec<EventIn>> = from_js(&all);
        events.map(|all| all.into_iter().map(|r| r.logged).collect()).ok_or(StoreError::Damaged)
    }

    /// One conversation's snapshot records (none for one saved before they were kept).
    pub async fn records(&self, id: &str) -> Result<Vec<Record>, StoreError> {
        let read = async {
            let tx = self.tx(IdbTransactionMode::Readonly)?;
            done(&tx.object_store(SHOWN)?.get_all_with_key(&rows_of(id)?.into())?).await
        };
        let all = read.await.map_err(|e| StoreError::Unavailable(describe(&e)))?;
        let mut records = Vec::new();
        for value in Array::from(&all).iter() {
            let slot = Reflect::get(&value, &"slot".into()).ok().and_then(|v| v.as_f64());
            let json = Reflect::get(&value, &"json".into()).ok().and_then(|v| v.as_string());
            match (slot, json) {
                (Some(slot), Some(json)) => records.push(Record { slot, json }),
                _ => return Err(StoreError::Damaged),
            }
        }
        Ok(records)
    }

    /// Writes `header`, the events `new` (numbered from `header.events - new.len()`) and
    /// the snapshot's `changes`, in one transaction. With `expected`, refuses (`Stale`) unless the stored header
    /// still counts `expected` events (none stored counts 0). The write is handed to the
    /// database at once, when this is called; the future only waits for its commit, so
    /// the database works while the page renders the step.
    pub fn append(
        &self,
        header: &Header,
        new: &[Logged],
        changes: &Changes,
        expected: Option<u64>,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + 'static {
        let started = self.start_append(header, new, changes, expected);
        async move {
            let (commit, stale) = started?;
            match commit.await {
                Ok(_) => Ok(()),
                Err(_) if stale.get() => Err(StoreError::Stale),
                Err(e) => Err(StoreError::WriteFailed(describe(&e))),
            }
        }
    }

    /// Starts `append`'s transaction: its commit to wait for, and whether it was refused as stale.
    fn start_append(
        &self,
        header: &Header,
        new: &[Logged],
        changes: &Changes,
        expected: Option<u64>,
    ) -> Result<(JsFuture, Rc<Cell<bool>>), StoreError> {
        let first = header.events - new.len() as u64;
        let mut records = Vec::with_capacity(new.len());
        for (i, logged) in new.iter().enumerate() {
            let record = EventOut { sid: &header.id, seq: first + i as u64, logged };
            records.push(to_js(&record)?);
        }
        let header_js = to_js(header)?;
        let sid = JsValue::from_str(&header.id);
        let mut shown_put = Vec::with_capacity(changes.put.len());
        for record in &changes.put {
            let value = js_sys::Object::new();
            let _ = Reflect::set(&value, &"sid".into(), &sid);
            let _ = Reflect::set(&value, &"slot".into(), &record.slot.into());
            let _ = Reflect::set(&value, &"json".into(), &JsValue::from_str(&record.json));
            shown_put.push(value);
        }
        // A clearing write deletes all of the conversation's records, the ones it names with them.
        let shown_gone: Vec<JsValue> = if changes.clear {
            vec![rows_of(&header.id).map_err(|e| StoreError::WriteFailed(describe(&e)))?.into()]
        } else {
            changes.gone.iter().map(|slot| Array::of2(&sid, &(*slot).into()).into()).collect()
        };
        let write_failed = |e: JsValue| StoreError::WriteFailed(describe(&e));
        let tx = self.tx(IdbTransactionMode::Readwrite).map_err(write_failed)?;
        let sessions = tx.object_store(SESSIONS).map_err(write_failed)?;
        let events = tx.object_store(EVENTS).map_err(write_failed)?;
        let shown = tx.object_store(SHOWN).map_err(write_failed)?;
        let stale = Rc::new(Cell::new(false));
        let write = {
            let (sessions, events) = (sessions.clone(), events.clone());
            move || -> Result<(), JsValue> {
                for record in &records {
                    events.put(record)?;
                }
                for key in &shown_gone {
                    shown.delete(key)?;
                }
                for record in &shown_put {
                    shown.put(record)?;
                }
                sessions.put(&header_js)?;
                Ok(())
            }
        };
        match expected {
            None => write().map_err(write_failed)?,
            Some(count) => {
                // The check and the write happen in the same transaction, inside its callback.
                let get = sessions.get(&JsValue::from_str(&header.id)).map_err(write_failed)?;
                let (g, t, s) = (get.clone(), tx.clone(), stale.clone());
                let on_read = Closure::once_into_js(move || {
                    let stored = g.result().ok().filter(|v| !v.is_undefined());
                    let saw =
                        stored.map_or(Some(0.0), |h| Reflect::get(&h, &"events".into()).ok().and_then(|v| v.as_f64()));
                    if saw == Some(count as f64) {
                        if write().is_err() {
                            let _ = t.abort();
                        }
                    } else {
                        s.set(true);
                        let _ = t.abort();
                    }
                });
                get.set_onsuccess(Some(on_read.unchecked_ref()));
            }
        }
        Ok((committed(&tx), stale))
    }

    /// Deletes a conversation: its header, its events and its snapshot.
    pub async fn delete(&self, id: &str) -> Result<(), StoreError> {
        let write_failed = |e: JsValue| StoreError::WriteFailed(describe(&e));
        let tx = self.tx(IdbTransactionMode::Readwrite).map_err(write_failed)?;
        tx.object_store(SESSIONS).and_then(|s| s.delete(&JsValue::from_str(id))).map_err(write_failed)?;
        let range = rows_of(id).map_err(write_failed)?;
        tx.object_store(EVENTS).and_then(|s| s.delete(&range)).map_err(write_failed)?;
        tx.object_store(SHOWN).and_then(|s| s.delete(&range)).map_err(write_failed)?;
        committed(&tx).await.map(|_| ()).map_err(write_failed)
    }
}
