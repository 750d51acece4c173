//! Keeping conversations: the current one's journal of steps, appended to the browser's
//! database (`store::idb`) after every step (only the new events and the small header),
//! the list of saved conversations, and what went wrong doing so (shown until dismissed).
//! Without a usable database the conversation goes on in memory and the banner says so.

use std::cell::RefCell;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::engine::session::{Env, Event, Session};
use crate::store::idb::{Db, StoreError};
use crate::store::local::load_journal;
use crate::store::saved::{DecodeError, Journal, Logged, VERSION};
use crate::store::sessions::{follow, Follow, Header};
use crate::store::snapshot::{Changes, Record, Shown};

/// Something wrong with keeping the conversation in the browser, shown until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageProblem {
    /// The last save was refused (storage full or blocked): a reload would lose the
    /// conversation.
    SaveFailed,
    /// The saved conversation could not be read; it was kept aside and a new one started.
    Unreadable(DecodeError),
    /// The browser's database cannot be used (some private modes): kept in memory only.
    Unavailable,
    /// Another tab keeps an older version of the database open.
    Blocked,
    /// Another tab changed this conversation: this tab stopped saving it.
    Stale,
    /// A saved conversation has a step that cannot be read: it was not opened.
    Damaged,
    /// A conversation an earlier build showed differently, whose saved view this build
    /// cannot read: it is shown as this build replays it.
    SnapshotUnreadable,
}

thread_local! {
    /// The open database, once opened.
    static DB: RefCell<Option<Db>> = const { RefCell::new(None) };
    /// Where this page tells the other tabs of the app which conversation it wrote (a
    /// channel does not hear its own messages).
    static TABS: RefCell<Option<web_sys::BroadcastChannel>> = const { RefCell::new(None) };
}

/// Tells the other tabs that the saved conversation `id` changed.
fn announce(id: &str) {
    TABS.with(|t| {
        if let Some(channel) = t.borrow().as_ref() {
            let _ = channel.post_message(&wasm_bindgen::JsValue::from_str(id));
        }
    });
}

fn db() -> Option<Db> {
    DB.with(|d| d.borrow().clone())
}

/// A deleted conversation, kept for an undo.
#[derive(Debug, Clone, PartialEq)]
pub struct Deleted {
    pub header: Header,
    pub events: Vec<Logged>,
    pub records: Vec<Record>,
}

/// Where the database stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreState {
    /// Being opened: steps wait in memory and are written once it is open.
    Opening,
    /// Open: every step is written.
    Open,
    /// Not usable, or this tab is stale: the conversation lives in memory only.
    Memory,
}

/// The journal of the current conversation, the saved ones, and the trouble saving.
#[derive(Clone, Copy)]
pub struct Saver {
    session: RwSignal<Session>,
    /// Every step of the conversation, saved so a reload replays it.
    journal: StoredValue<Journal>,
    /// How many of the journal's events the database holds.
    saved: StoredValue<u64>,
    /// The header last written for the current conversation.
    header: StoredValue<Option<Header>>,
    /// What the current conversation's saved snapshot records hold.
    shown: StoredValue<Shown>,
    /// A write is in flight.
    pub writing: RwSignal<bool>,
    /// Another save was asked for while a write was in flight.
    again: StoredValue<bool>,
    /// Where the database stands.
    pub state: RwSignal<StoreState>,
    /// Trouble saving or restoring the conversation, if any.
    pub problem: RwSignal<Option<StorageProblem>>,
    /// Every saved conversation's header (the current one included once saved).
    pub sessions: RwSignal<Vec<Header>>,
    /// True once the database was opened (or found unusable) and the conversation to
    /// resume is shown.
    pub ready: RwSignal<bool>,
    /// The rest of the app, which opening the database waits for, could not be loaded (yet):
    /// it is asked for again (`rest::linked_asking_again`).
    pub rest_missing: RwSignal<bool>,
    /// Whether the page started with a conversation chosen before (the id an earlier page
    /// left; see `opening`).
    resuming: bool,
}

impl Saver {
    /// The conversation the last page left in localStorage (before the database), replayed;
    /// else `fresh()`. Saved text that cannot be read is reported (and kept aside).
    pub fn restore(fresh: impl FnOnce() -> Session) -> (Session, Journal, Option<StorageProblem>, bool) {
        match load_journal() {
            Ok(Some(journal)) => (journal.replay(), journal, None, true),
            Ok(None) => {
                let session = fresh();
                let journal = Journal::begin(&session);
                (session, journal, None, false)
            }
            Err(error) => {
                let session = fresh();
                let journal = Journal::begin(&session);
                (session, journal, Some(StorageProblem::Unreadable(error)), false)
            }
        }
    }

    /// A saver for `session`, whose journal is `journal`.
    pub fn new(session: RwSignal<Session>, journal: Journal, problem: Option<StorageProblem>) -> Saver {
        Saver {
            session,
            journal: StoredValue::new(journal),
            saved: StoredValue::new(0),
            header: StoredValue::new(None),
            shown: StoredValue::new(Shown::default()),
            writing: RwSignal::new(false),
            again: StoredValue::new(false),
            state: RwSignal::new(StoreState::Opening),
            problem: RwSignal::new(problem),
            sessions: RwSignal::new(Vec::new()),
            ready: RwSignal::new(false),
            rest_missing: RwSignal::new(false),
            resuming: crate::store::local::load_current().is_some(),
        }
    }

    /// True while the conversation shown is only a stand-in: the page started with one chosen
    /// before, which the database has not opened yet (tracks `ready`).
    pub fn opening(&self) -> bool {
        self.resuming && !self.ready.get()
    }

    /// Opens the database: moves a conversation from localStorage into it (once; the old
    /// value is removed only after the write succeeded), reads the list, and returns the
    /// conversation to open (the most recent) when the current one is still empty.
    pub async fn open(&self, migrate: bool) -> Option<(Journal, Header)> {
        let db = match Db::open(None).await {
            Ok(db) => db,
            Err(error) => {
                self.state.set(StoreState::Memory);
                self.problem.set(Some(match error {
                    StoreError::Blocked => StorageProblem::Blocked,
                    _ => StorageProblem::Unavailable,
                }));
                return None;
            }
        };
        DB.with(|d| *d.borrow_mut() = Some(db.clone()));
        super::perf_mark("deliberate:open-db");
        if migrate {
            let (journal, header, changes) = self.session.with_untracked(|s| {
                self.journal.with_value(|j| {
                    let (header, changes) = self.save_parts(s, j);
                    (j.clone(), header, changes)
                })
            });
            match db.append(&header, &journal.events, &changes, None).await {
                Ok(()) => {
                    announce(&header.id);
                    self.saved.set_value(header.events);
                    self.header.set_value(Some(header));
                    crate::store::local::forget_journal();
                }
                Err(_) => {
                    self.shown.set_value(Shown::default());
                    self.problem.set(Some(StorageProblem::SaveFailed));
                }
            }
        }
        let headers = db.headers().await.unwrap_or_default();
        super::perf_mark("deliberate:open-headers");
        self.sessions.set(headers.clone());
        self.state.set(StoreState::Open);
        let empty = self.journal.with_value(|j| j.events.is_empty());
        // The conversation chosen last (an id not saved yet is a new, empty one), else
        // the most recent.
        let chosen = match crate::store::local::load_current() {
            Some(id) => headers.iter().find(|h| h.id == id).cloned(),
            None => crate::store::sessions::most_recent(&headers).cloned(),
        };
        match chosen {
            Some(header) if empty => self.read(&header).await.map(|journal| (journal, header)),
            _ => {
                self.save();
                None
            }
        }
    }

    /// A saved conversation's journal, read back as it is stored.
    async fn journal_of(header: &Header) -> Result<Journal, StoreError> {
        let db = db().ok_or_else(|| StoreError::Unavailable("not open".into()))?;
        let events = db.events(&header.id).await?;
        Ok(Journal { version: VERSION, start: header.start.clone(), events, shown: Vec::new() })
    }

    /// A saved conversation's snapshot records.
    async fn records_of(header: &Header) -> Result<Vec<Record>, StoreError> {
        let db = db().ok_or_else(|| StoreError::Unavailable("not open".into()))?;
        db.records(&header.id).await
    }

    /// A saved conversation's journal, read back to open it; what went wrong is shown.
    pub async fn read(&self, header: &Header) -> Option<Journal> {
        let journal = Self::journal_of(header).await;
        super::perf_mark("deliberate:open-read");
        self.reported(journal)
    }

    /// A saved conversation's snapshot records, read back to open it from them (its
    /// replay does not show what its header's digest says was saved); what went wrong is
    /// shown.
    pub async fn records(&self, header: &Header) -> Option<Vec<Record>> {
        let records = Self::records_of(header).await;
        super::perf_mark("deliberate:open-records");
        self.reported(records)
    }

    /// What a read gave, or None with the problem shown.
    fn reported<T>(&self, read: Result<T, StoreError>) -> Option<T> {
        match read {
            Ok(read) => Some(read),
            Err(StoreError::Damaged) => {
                self.problem.set(Some(StorageProblem::Damaged));
                None
            }
            Err(_) => {
                self.problem.set(Some(StorageProblem::Unavailable));
                None
            }
        }
    }

    /// Hears the other tabs of the app: `wrote` gets the id of every conversation another
    /// tab writes. Without `BroadcastChannel` a tab still never overwrites another's
    /// steps: its write is refused as stale.
    pub fn hear_other_tabs(&self, wrote: impl Fn(String) + 'static) {
        use wasm_bindgen::JsCast;
        let Ok(channel) = web_sys::BroadcastChannel::new("deliberate") else { return };
        let on_message = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                if let Some(id) = event.data().as_string() {
                    wrote(id);
                }
            },
        );
        channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        // An app mounted again in the same page (the component tests do) stops the earlier
        // one's hearing: its channel would go on showing other tabs' steps in a dead view.
        if let Some(earlier) = TABS.with(|t| t.borrow_mut().replace(channel)) {
            earlier.close();
        }
    }

    /// True when this tab has a step of its own at stake: not saved yet, being written, or
    /// (`calls_here`) waiting for a call it runs.
    fn busy(&self, calls_here: bool) -> bool {
        calls_here
            || self.writing.get_untracked()
            || self.journal.with_value(|j| j.events.len() as u64) != self.saved.get_value()
    }

    /// Another tab wrote the conversation `id`: the list is read again, a rename of the
    /// current conversation is taken, and when the current one has steps this tab has not
    /// seen (and none of its own at stake; `calls_here`: whether this tab runs a call) its
    /// stored journal and header are returned, to show.
    pub async fn other_tab_wrote(&self, id: &str, calls_here: impl Fn() -> bool) -> Option<(Journal, Header)> {
        if self.state.get_untracked() != StoreState::Open {
            return None;
        }
        let headers = db()?.headers().await.ok()?;
        self.sessions.set(headers.clone());
        if id != self.current_id() {
            return None;
        }
        let stored = headers.into_iter().find(|h| h.id == id)?;
        match follow(stored.events, self.saved.get_value(), self.busy(calls_here())) {
            Follow::Header => {
                self.header.set_value(Some(stored));
                None
            }
            Follow::Reopen => {
                let journal = self.read(&stored).await?;
                self.may_follow(id, calls_here).then_some((journal, stored))
            }
            Follow::Keep | Follow::Nothing => None,
        }
    }

    /// True when the conversation shown is still `id` and this tab has no step of its own
    /// at stake (the user may have taken one while the database read).
    pub fn may_follow(&self, id: &str, calls_here: impl Fn() -> bool) -> bool {
        !self.busy(calls_here()) && self.current_id() == id
    }

    /// The header and the snapshot changes that save `session` (whose journal is
    /// `journal`); the header keeps the digest of the records as they then are.
    fn save_parts(&self, session: &Session, journal: &Journal) -> (Header, Changes) {
        let mut header =
            self.header.with_value(|h| Header::of(session, journal, h.as_ref(), crate::ui::shell::now_ms()));
        let written = self.shown.try_update_value(|shown| (shown.changes(session), shown.digest()));
        let (changes, digest) = written.map_or((Changes::default(), None), |(c, d)| (c, Some(d)));
        header.digest = digest;
        (header, changes)
    }

    /// Records a step about to be applied.
    pub fn record(&self, event: &Event, env: &Env) {
        self.journal.update_value(|j| j.record(event, env));
    }

    /// Reads the journal.
    pub fn with_journal<T>(&self, f: impl FnOnce(&Journal) -> T) -> T {
        self.journal.with_value(f)
    }

    /// The current conversation's id.
    pub fn current_id(&self) -> String {
        self.journal.with_value(|j| j.start.id.clone())
    }

    /// Takes over a journal: one read back from the database (`saved`: its events are
    /// there already) or a new one (imported, or begun).
    pub fn adopt(&self, journal: Journal, saved: bool) {
        let header = saved
            .then(|| self.sessions.with_untracked(|l| l.iter().find(|h| h.id == journal.start.id).cloned()))
            .flatten();
        self.saved.set_value(header.as_ref().map_or(0, |h| h.events));
        self.header.set_value(header);
        // Until the caller says what the saved records hold: the next save writes them all.
        self.shown.set_value(Shown::default());
        crate::store::local::save_current(&journal.start.id);
        self.journal.set_value(journal);
    }

    /// What the saved snapshot records of the current conversation hold (after an open
    /// checked or read them).
    pub fn set_shown(&self, shown: Shown) {
        self.shown.set_value(shown);
    }

    /// Starts a new journal for a new conversation.
    pub fn begin(&self, session: &Session) {
        self.adopt(Journal::begin(session), false);
    }

    /// Writes what the journal added since the last save, and the header. A conversation
    /// nobody wrote in yet is not written. A refusal is shown, not swallowed: the
    /// conversation goes on in memory, and the next save tries again.
    pub fn save(&self) {
        if self.state.get_untracked() != StoreState::Open {
            return;
        }
        let Some(db) = db() else { return };
        if self.writing.get_untracked() {
            self.again.set_value(true);
            return;
        }
        // `./dev bench` times a step's save from here to the write's commit.
        super::perf_mark("deliberate:save-start");
        let saved = self.saved.get_value();
        let Some((header, new, changes)) = self.session.with_untracked(|s| {
            self.journal.with_value(|j| {
                if j.events.is_empty() {
                    return None;
                }
                let (header, changes) = self.save_parts(s, j);
                let new: Vec<Logged> = j.events.get(saved as usize..).unwrap_or_default().to_vec();
                Some((header, new, changes))
            })
        }) else {
            return;
        };
        super::perf_mark("deliberate:save-built");
        self.writing.set(true);
        // Set before the write commits: a reload right after it opens this conversation
        // (the database orders its read after this write).
        if saved == 0 {
            crate::store::local::save_current(&header.id);
        }
        let saver = *self;
        // Handed to the database now, before the page renders the step.
        let write = db.append(&header, &new, &changes, Some(saved));
        super::perf_mark("deliberate:save-queued");
        // When the page's work for the step is done and its frame begins (the bench splits
        // a save's wall time into the page's render and the database's commit with it).
        request_animation_frame(|| super::perf_mark("deliberate:save-frame"));
        spawn_local(async move {
            let result = write.await;
            saver.writing.set(false);
            let still_current = saver.current_id() == header.id;
            match result {
                Ok(()) => {
                    super::perf_mark("deliberate:save-end");
                    announce(&header.id);
                    if still_current {
                        saver.saved.set_value(header.events);
                        saver.header.set_value(Some(header.clone()));
                    }
                    saver.remember(header);
                    if saver.problem.with_untracked(|p| p == &Some(StorageProblem::SaveFailed)) {
                        saver.problem.set(None);
                    }
                }
                Err(StoreError::Stale) => {
                    saver.state.set(StoreState::Memory);
                    saver.problem.set(Some(StorageProblem::Stale));
                    return;
                }
                Err(_) => {
                    // What the records hold is no longer known: the next save writes them all.
                    if still_current {
                        saver.shown.set_value(Shown::default());
                    }
                    if saver.problem.with_untracked(|p| p != &Some(StorageProblem::SaveFailed)) {
                        saver.problem.set(Some(StorageProblem::SaveFailed));
                    }
                }
            }
            if saver.again.get_value() {
                saver.again.set_value(false);
                saver.save();
            }
        });
    }

    /// Puts a written header into the list (replacing its older self).
    fn remember(&self, header: Header) {
        self.sessions.update(|list| match list.iter_mut().find(|h| h.id == header.id) {
            Some(old) => *old = header,
            None => list.push(header),
        });
    }

    /// Gives a saved conversation a name of the user's.
    pub fn rename(&self, id: &str, title: &str) {
        self.retitle(id, title, true);
    }

    /// Gives a saved conversation the name the model made for it, unless the user named
    /// it meanwhile.
    pub fn model_title(&self, id: &str, title: &str) {
        let renamed = self.sessions.with_untracked(|l| l.iter().any(|h| h.id == id && h.renamed));
        if !renamed {
            self.retitle(id, title, false);
        }
    }

    /// Writes a new title into a saved conversation's header: the user's (`by_user`) or
    /// the model's.
    fn retitle(&self, id: &str, title: &str, by_user: bool) {
        let title = title.trim();
        let Some(mut header) = self.sessions.with_untracked(|l| l.iter().find(|h| h.id == id).cloned()) else {
            return;
        };
        if title.is_empty() {
            return;
        }
        header.title = title.to_string();
        header.renamed |= by_user;
        header.titled |= !by_user;
        if self.current_id() == id {
            self.header.set_value(Some(header.clone()));
        }
        self.remember(header.clone());
        let Some(db) = db() else { return };
        let saver = *self;
        spawn_local(async move {
            match db.append(&header, &[], &Changes::default(), Some(header.events)).await {
                Ok(()) => announce(&header.id),
                Err(error) => saver.problem.set(Some(if error == StoreError::Stale {
                    StorageProblem::Stale
                } else {
                    StorageProblem::SaveFailed
                })),
            }
        });
    }

    /// Deletes a saved conversation; what was deleted comes back for an undo.
    pub async fn delete(&self, id: &str) -> Option<Deleted> {
        let header = self.sessions.with_untracked(|l| l.iter().find(|h| h.id == id).cloned())?;
        let db = db()?;
        let events = db.events(id).await.ok()?;
        let records = db.records(id).await.ok()?;
        match db.delete(id).await {
            Ok(()) => {
                announce(id);
                self.sessions.update(|l| l.retain(|h| h.id != id));
                Some(Deleted { header, events, records })
            }
            Err(_) => {
                self.problem.set(Some(StorageProblem::SaveFailed));
                None
            }
        }
    }

    /// Puts a deleted conversation back, its snapshot with it.
    pub async fn undelete(&self, deleted: Deleted) {
        let Deleted { mut header, events, records } = deleted;
        let Some(db) = db() else { return };
        header.digest = Some(crate::store::snapshot::digest_of(&records));
        match db.append(&header, &events, &Changes::all(records), None).await {
            Ok(()) => {
                announce(&header.id);
                self.remember(header)
            }
            Err(_) => self.problem.set(Some(StorageProblem::SaveFailed)),
        }
    }

    /// Every saved conversation's journal, oldest first (for "export all"); or how many
    /// could not be read (an export must not quietly leave some out).
    pub async fn all_journals(&self) -> Result<Vec<Journal>, usize> {
        let mut headers = self.sessions.get_untracked();
        crate::engine::order::sort_by_key(&mut headers, |h| u128::from(h.created));
        let mut out = Vec::new();
        let mut unreadable = 0;
        for header in &headers {
            match (Self::journal_of(header).await, Self::records_of(header).await) {
                (Ok(mut journal), Ok(shown)) => {
                    journal.shown = shown;
                    out.push(journal)
                }
                _ => unreadable += 1,
            }
        }
        if unreadable == 0 {
            Ok(out)
        } else {
            Err(unreadable)
        }
    }

    /// Writes a whole journal as a new saved conversation (an import): with the snapshot
    /// it came with, else one of `session`, its replay.
    pub async fn write_whole(&self, session: &Session, journal: &Journal) -> bool {
        let Some(db) = db() else {
            self.problem.set(Some(StorageProblem::Unavailable));
            return false;
        };
        let mut header = Header::of(session, journal, None, crate::ui::shell::now_ms());
        let changes = if journal.shown.is_empty() {
            Shown::default().changes(session)
        } else {
            Changes::all(journal.shown.clone())
        };
        header.digest = Some(crate::store::snapshot::digest_of(&changes.put));
        match db.append(&header, &journal.events, &changes, Some(0)).await {
            Ok(()) => {
                announce(&header.id);
                self.remember(header);
                true
            }
            Err(_) => {
                self.problem.set(Some(StorageProblem::SaveFailed));
                false
            }
        }
    }
}
