//! What a conversation showed, kept beside its journal: one record per message, one per
//! finished call and one of the rest of the session, each as its JSON text.
//!
//! The journal is replayed on open, and today's engine may read an old step differently
//! from the build that took it (a reply read as feedback then is a pick now). The
//! snapshot tells: a replay that does not give back the recorded messages and state is
//! not the conversation that was saved, and it is opened from its records instead.
//!
//! A step writes only the records it changed: messages are compared by (id, revision),
//! calls are only ever appended, and the state record is written when its text changed.
//!
//! The session's header keeps a digest of its records (how many, and the sum of each
//! one's fingerprint), written in the same transaction as they are. A replay whose own
//! digest is the header's shows what was saved, and opens without reading the records
//! (the replay of 2,000 messages opened about 40 ms sooner so in `./dev bench`).
//!
//! Reading records back needs serde's readers for every type a session holds, which cost
//! about 120 KB gzip in the wasm (measured). The page's first load leaves them out
//! (`READS` is false there): a release page that finds a conversation its build would
//! show differently hands it to the reader build (`/reader/`, the same app built with the
//! `reader` feature), which opens it from its records. Native and debug builds read them
//! in place.

use crate::engine::core::State;
use crate::engine::session::{AppMode, CallRecord, Message, MessageId, Session};

/// True when this build reads snapshots (the reader build, debug builds, native tests).
pub const READS: bool = cfg!(any(feature = "reader", debug_assertions, not(target_arch = "wasm32")));

/// The place of a record among its conversation's records: the state at 0, messages at
/// their id (from 1), calls at -1, -2, … in the order they finished.
pub type Slot = f64;

/// A slot as a sort key: slots are whole numbers within ±2^32.
fn order_key(slot: Slot) -> u128 {
    (slot + 4_294_967_296.0).max(0.0) as u128
}

/// The state record's slot.
pub const STATE: Slot = 0.0;

fn call_slot(index: usize) -> Slot {
    -(index as f64) - 1.0
}

fn message_slot(id: MessageId) -> Slot {
    f64::from(id)
}

/// One record: its slot and its JSON text.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    pub slot: Slot,
    pub json: String,
}

/// What a step writes: records to put and slots whose records go.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Changes {
    /// True when the conversation's other records go first: what they hold is not known
    /// (a first write, or one after a failed write), and none may outlive it.
    pub clear: bool,
    pub put: Vec<Record>,
    pub gone: Vec<Slot>,
}

impl Changes {
    /// Writes `records`, as they are and in place of any others (an import, an undo).
    pub fn all(records: Vec<Record>) -> Changes {
        Changes { clear: true, put: records, gone: Vec::new() }
    }

    /// True when nothing is written.
    pub fn is_empty(&self) -> bool {
        !self.clear && self.put.is_empty() && self.gone.is_empty()
    }
}

/// A record's fingerprint: 64-bit FNV-1a of its slot and its text, then mixed so that
/// sums of fingerprints spread over all 64 bits.
fn fingerprint(slot: Slot, json: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in slot.to_bits().to_le_bytes().iter().chain(json.as_bytes()) {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
}

/// The digest of records with these fingerprints: their count and their sum, as text
/// (what a header keeps).
fn digest(count: usize, sum: u64) -> String {
    format!("{count}:{sum:016x}")
}

/// The digest of `records` (any order).
pub fn digest_of(records: &[Record]) -> String {
    let sum = records.iter().fold(0u64, |sum, r| sum.wrapping_add(fingerprint(r.slot, &r.json)));
    digest(records.len(), sum)
}

/// What the saved records hold, as far as this page knows: each message's (id, revision)
/// and fingerprint, the calls' count and fingerprints, and the state's text (never empty
/// once written). A default `Shown` knows of nothing, so its first changes are the whole
/// conversation, in place of whatever was saved.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    messages: Vec<(MessageId, u32, u64)>,
    calls: usize,
    calls_sum: u64,
    state: String,
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    // Every type a session holds serializes (no maps with non-string keys): the text is
    // never empty, and an empty one would only be written again next step.
    serde_json::to_string(value).unwrap_or_default()
}

impl Shown {
    /// What `session` shows when all of it is saved (after a verified open).
    pub fn of(session: &Session) -> Shown {
        let mut shown = Shown::default();
        shown.changes(session);
        shown
    }

    /// True once this knows what the saved records hold.
    fn known(&self) -> bool {
        !self.state.is_empty()
    }

    /// The digest of the records this knows of (what the header written with them keeps).
    pub fn digest(&self) -> String {
        let state = if self.known() { fingerprint(STATE, &self.state) } else { 0 };
        let sum = self.messages.iter().fold(self.calls_sum.wrapping_add(state), |sum, m| sum.wrapping_add(m.2));
        digest(self.messages.len() + self.calls + usize::from(self.known()), sum)
    }

    /// The records to write so that the saved ones show `session`; `self` then knows them
    /// as written (a failed write calls for `Shown::default()`, which writes everything).
    pub fn changes(&mut self, session: &Session) -> Changes {
        let mut changes = Changes { clear: !self.known(), ..Changes::default() };
        let mut messages = Vec::with_capacity(session.messages.len());
        // Both lists are in id order: messages are appended with growing ids and only
        // ever removed, never moved.
        let mut old = self.messages.iter().peekable();
        for m in &session.messages {
            while let Some(&&(id, _, _)) = old.peek() {
                if id >= m.id {
                    break;
                }
                changes.gone.push(message_slot(id));
                old.next();
            }
            let kept = old.peek().filter(|&&&(id, rev, _)| id == m.id && rev == m.rev).map(|&&(_, _, print)| print);
            if old.peek().is_some_and(|&&(id, _, _)| id == m.id) {
                old.next();
            }
            let print = kept.unwrap_or_else(|| {
                let record = Record { slot: message_slot(m.id), json: to_json(m) };
                let print = fingerprint(record.slot, &record.json);
                changes.put.push(record);
                print
            });
            messages.push((m.id, m.rev, print));
        }
        changes.gone.extend(old.map(|&(id, _, _)| message_slot(id)));
        // The call log only grows; a shorter one (never, today) is written whole again.
        let from = if session.calls.len() < self.calls {
            changes.gone.extend((session.calls.len()..self.calls).map(call_slot));
            self.calls_sum = 0;
            0
        } else {
            self.calls
        };
        for (i, call) in session.calls.iter().enumerate().skip(from) {
            let record = Record { slot: call_slot(i), json: to_json(call) };
            self.calls_sum = self.calls_sum.wrapping_add(fingerprint(record.slot, &record.json));
            changes.put.push(record);
        }
        let state = to_json(&session.state());
        if state != self.state {
            changes.put.push(Record { slot: STATE, json: state.clone() });
        }
        self.messages = messages;
        self.calls = session.calls.len();
        self.state = state;
        changes
    }
}

/// Every record of `session`'s snapshot (for an export).
pub fn records_of(session: &Session) -> Vec<Record> {
    Shown::default().changes(session).put
}

/// `records` of a conversation renamed from `from` to `to` (an import of one whose id was
/// taken): the state record names its conversation first (`StateRef`'s first field), and
/// only that is rewritten, so the record stays the text this build writes. A state record
/// that does not start so is left as it is (it then differs, and says so when opened).
pub fn renamed(records: &mut [Record], from: &str, to: &str) {
    let old = format!("{{\"id\":{}", to_json(&from));
    let new = format!("{{\"id\":{}", to_json(&to));
    for record in records.iter_mut().filter(|r| r.slot == STATE) {
        if let Some(rest) = record.json.strip_prefix(&old) {
            record.json = format!("{new}{rest}");
        }
    }
}

/// How a replayed conversation compares with its saved records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// No records (saved before snapshots were kept): the replay is all there is.
    None,
    /// The replay shows exactly what was saved.
    Same,
    /// The replay differs from what was saved: open the records.
    Differs,
}

/// Compares a replayed `session` with the records saved for it (any order).
pub fn check(session: &Session, records: &[Record]) -> Check {
    if records.is_empty() {
        return Check::None;
    }
    let mut sorted: Vec<&Record> = records.iter().collect();
    crate::engine::order::sort_by_key(&mut sorted, |r| order_key(r.slot));
    let find = |slot: Slot| {
        let at = sorted.partition_point(|r| order_key(r.slot) < order_key(slot));
        sorted.get(at).filter(|r| r.slot == slot).map(|r| r.json.as_str())
    };
    let expected = session.messages.len() + session.calls.len() + 1;
    let same = records.len() == expected
        && find(STATE) == Some(to_json(&session.state()).as_str())
        && session.messages.iter().all(|m| find(message_slot(m.id)) == Some(to_json(m).as_str()))
        && session.calls.iter().enumerate().all(|(i, c)| find(call_slot(i)) == Some(to_json(c).as_str()));
    if same {
        Check::Same
    } else {
        Check::Differs
    }
}

/// How a conversation opens from the replay of its journal and its snapshot records.
#[derive(Debug)]
pub enum Opened {
    /// The session to show, and what its saved records hold.
    Ready(Session, Shown),
    /// Saved showing something else than this build replays, in records only the reader
    /// build can read: the replay, for a page that cannot hand it over.
    NeedsReader(Session),
    /// Records no build can read: the replay, and the user is to be told.
    Unreadable(Session),
}

impl Opened {
    /// The session it opens as here, whichever way.
    pub fn session(self) -> Session {
        match self {
            Opened::Ready(session, _) | Opened::NeedsReader(session) | Opened::Unreadable(session) => session,
        }
    }
}

/// Opens a conversation: the `replayed` session when it shows what `records` hold (or
/// there are none), else the records read back.
pub fn open(replayed: Session, records: &[Record]) -> Opened {
    match check(&replayed, records) {
        Check::None => Opened::Ready(replayed, Shown::default()),
        Check::Same => {
            let shown = Shown::of(&replayed);
            Opened::Ready(replayed, shown)
        }
        Check::Differs => match read(records) {
            Ok(kept) => {
                let shown = Shown::of(&kept);
                Opened::Ready(kept, shown)
            }
            Err(ReadError::NotHere) => Opened::NeedsReader(replayed),
            Err(_) => Opened::Unreadable(replayed),
        },
    }
}

/// What the saved records hold when `digest` (its header's) is the `replayed` session's
/// own: they show exactly the replay, which opens without reading them. None when the
/// records are to be read (`open`).
pub fn shown_by_digest(replayed: &Session, digest: Option<&str>) -> Option<Shown> {
    let digest = digest?;
    let shown = Shown::of(replayed);
    (shown.digest() == digest).then_some(shown)
}

/// Why records could not be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// This build does not carry the readers (the first-load page).
    NotHere,
    /// No state record among them.
    NoState,
    /// A record this build cannot read (written by a newer one, or damaged).
    Unreadable,
}

/// The session `records` describe, exactly as it was saved.
pub fn read(records: &[Record]) -> Result<Session, ReadError> {
    if !READS {
        return Err(ReadError::NotHere);
    }
    let state = records.iter().find(|r| r.slot == STATE).ok_or(ReadError::NoState)?;
    let state: State<AppMode> = serde_json::from_str(&state.json).map_err(|_| ReadError::Unreadable)?;
    let mut messages: Vec<(Slot, Message)> = Vec::new();
    let mut calls: Vec<(Slot, CallRecord)> = Vec::new();
    for r in records {
        if r.slot > STATE {
            messages.push((r.slot, serde_json::from_str(&r.json).map_err(|_| ReadError::Unreadable)?));
        } else if r.slot < STATE {
            calls.push((-r.slot, serde_json::from_str(&r.json).map_err(|_| ReadError::Unreadable)?));
        }
    }
    crate::engine::order::sort_by_key(&mut messages, |(slot, _)| order_key(*slot));
    crate::engine::order::sort_by_key(&mut calls, |(slot, _)| order_key(*slot));
    Ok(Session::from_parts(
        state,
        messages.into_iter().map(|(_, m)| m).collect(),
        calls.into_iter().map(|(_, c)| c).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lang::Lang;
    use crate::engine::session::{Body, Env, Event, Settings};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn stepped(texts: &[&str]) -> Session {
        let mut session = Session::new("s1", Lang::En, Settings::default(), 1_000);
        for (i, text) in texts.iter().enumerate() {
            session.step(Event::UserMessage { text: (*text).into() }, &Env::offline(2_000 + i as u64));
        }
        session
    }

    /// Applies changes to a map of records, as the database does.
    fn apply(records: &mut Vec<Record>, changes: Changes) {
        if changes.clear {
            records.clear();
        }
        records.retain(|r| !changes.gone.contains(&r.slot) && !changes.put.iter().any(|p| p.slot == r.slot));
        records.extend(changes.put);
    }

    const REQUEST: &str = "Build a pipeline that summarizes IT news every morning as markdown";

    #[test]
    fn a_step_writes_only_what_it_changed_and_the_records_give_the_session_back() {
        let mut shown = Shown::default();
        let mut records = Vec::new();
        let mut session = stepped(&[REQUEST]);
        let first = shown.changes(&session);
        assert_eq!(first.put.len(), session.messages.len() + 1, "every message and the state at first");
        apply(&mut records, first);
        assert_eq!(check(&session, &records), Check::Same);
        assert!(shown.changes(&session).is_empty(), "no step, nothing to write");

        let before = session.messages.len();
        session.step(Event::UserMessage { text: "too expensive, make it cheaper".into() }, &Env::offline(9_000));
        let next = shown.changes(&session);
        let messages_written = next.put.iter().filter(|r| r.slot > STATE).count();
        assert!(messages_written >= session.messages.len() - before, "the new messages are written");
        assert!(messages_written < session.messages.len(), "the older, unchanged messages are not");
        apply(&mut records, next);
        assert_eq!(check(&session, &records), Check::Same);

        let mut back = read(&records).expect("the records read back");
        back.heuristic_why = session.heuristic_why.clone();
        assert_eq!(back, session);
    }

    #[test]
    fn a_replay_that_shows_something_else_is_told_apart() {
        let session = stepped(&[REQUEST, "2"]);
        assert_eq!(check(&session, &[]), Check::None);
        let mut records = Vec::new();
        apply(&mut records, Shown::default().changes(&session));
        // What an older build wrote: the same steps, read another way.
        let mut older = records.clone();
        let last = older.iter_mut().filter(|r| r.slot > STATE).last().expect("a message");
        let mut message: Message = serde_json::from_str(&last.json).unwrap();
        message.body = Body::Notice { text: "read as feedback by an older build".into() };
        last.json = serde_json::to_string(&message).unwrap();
        assert_eq!(check(&session, &older), Check::Differs);
        let shown = read(&older).expect("reads");
        assert!(matches!(&shown.messages.last().unwrap().body, Body::Notice { text } if text.contains("older build")));
        // A message the replay lacks, or one too many, differs too.
        assert_eq!(check(&session, &records[1..]), Check::Differs);
        let mut more = records.clone();
        more.push(Record { slot: 999.0, json: records.iter().find(|r| r.slot > STATE).unwrap().json.clone() });
        assert_eq!(check(&session, &more), Check::Differs);
    }

    #[test]
    fn a_conversation_opens_as_its_replay_as_its_records_or_says_it_cannot() {
        let session = stepped(&[REQUEST, "2"]);
        let records = records_of(&session);
        assert!(
            matches!(open(session.clone(), &[]), Opened::Ready(s, shown) if s == session && shown == Shown::default())
        );
        assert!(
            matches!(open(session.clone(), &records), Opened::Ready(s, shown) if s == session && shown == Shown::of(&session))
        );
        let mut shown = session.clone();
        shown.notice("read otherwise by an earlier build", 9_000);
        let kept = records_of(&shown);
        assert!(matches!(open(session.clone(), &kept), Opened::Ready(s, _) if s.messages == shown.messages));
        let broken: Vec<Record> = kept
            .iter()
            .map(|r| if r.slot == STATE { Record { slot: STATE, json: "{\"broken\":true}".into() } } else { r.clone() })
            .collect();
        assert!(matches!(open(session.clone(), &broken), Opened::Unreadable(s) if s == session));
    }

    #[test]
    fn records_renamed_with_their_conversation_still_show_its_replay() {
        use crate::store::saved::Journal;
        let mut session = Session::new("s1", Lang::En, Settings::default(), 1_000);
        let mut journal = Journal::begin(&session);
        for (i, text) in [REQUEST, "2"].into_iter().enumerate() {
            let event = Event::UserMessage { text: text.into() };
            journal.record(&event, &Env::offline(2_000 + i as u64));
            session.step(event, &Env::offline(2_000 + i as u64));
        }
        let mut records = records_of(&session);
        journal.start.id = "s-copy".into();
        assert_eq!(check(&journal.replay(), &records), Check::Differs, "the state names the old id");
        renamed(&mut records, "s1", "s-copy");
        assert_eq!(check(&journal.replay(), &records), Check::Same);
    }

    #[test]
    fn the_digest_follows_the_saved_records_step_by_step() {
        let mut shown = Shown::default();
        let mut records = Vec::new();
        let mut session = stepped(&[REQUEST]);
        let first = shown.changes(&session);
        assert!(first.clear, "a first write replaces whatever was saved");
        apply(&mut records, first);
        assert_eq!(shown.digest(), digest_of(&records));
        for (i, text) in
            ["too expensive, make it cheaper", "2", "keep it", "/mode chat", "hello"].into_iter().enumerate()
        {
            session.step(Event::UserMessage { text: text.into() }, &Env::offline(9_000 + i as u64));
            let changes = shown.changes(&session);
            assert!(!changes.clear, "later steps change only their records");
            apply(&mut records, changes);
            assert_eq!(shown.digest(), digest_of(&records), "after {text:?}");
            assert_eq!(Shown::of(&session).digest(), shown.digest(), "what an open computes, after {text:?}");
        }
        // A message removed, and its record deleted.
        session.messages.remove(1);
        apply(&mut records, shown.changes(&session));
        assert_eq!(shown.digest(), digest_of(&records));
        // After a failed write nothing is known: everything is written again, and a record
        // left over from before (a message since removed) goes.
        records.push(Record { slot: 999.0, json: "{\"left\":\"over\"}".into() });
        let mut unknown = Shown::default();
        apply(&mut records, unknown.changes(&session));
        assert!(records.iter().all(|r| r.slot != 999.0), "{records:?}");
        assert_eq!(unknown.digest(), digest_of(&records));
        assert_eq!(unknown.digest(), shown.digest());
    }

    #[test]
    fn a_replay_opens_by_the_digest_only_when_it_shows_the_saved_records() {
        let session = stepped(&[REQUEST, "2"]);
        let records = records_of(&session);
        let digest = digest_of(&records);
        assert_eq!(shown_by_digest(&session, Some(&digest)), Some(Shown::of(&session)));
        assert_eq!(shown_by_digest(&session, None), None, "a header from before digests: read the records");
        // What an earlier build showed otherwise, a record more or less, or one record
        // moved to another slot, is another digest.
        let mut otherwise = session.clone();
        otherwise.notice("read otherwise by an earlier build", 9_000);
        assert_eq!(shown_by_digest(&session, Some(&digest_of(&records_of(&otherwise)))), None);
        assert_eq!(shown_by_digest(&session, Some(&digest_of(&records[1..]))), None);
        let mut moved = records.clone();
        let last = moved.iter_mut().filter(|r| r.slot > STATE).last().unwrap();
        last.slot += 1.0;
        assert_eq!(shown_by_digest(&session, Some(&digest_of(&moved))), None);
        let mut swapped = records.clone();
        let (a, b) = (swapped[1].json.clone(), swapped[2].json.clone());
        (swapped[1].json, swapped[2].json) = (b, a);
        assert_eq!(shown_by_digest(&session, Some(&digest_of(&swapped))), None, "two records' texts swapped");
        assert_eq!(digest_of(&swapped.iter().rev().cloned().collect::<Vec<_>>()), digest_of(&swapped), "any order");
    }

    #[test]
    fn removed_messages_are_deleted_and_records_that_cannot_be_read_say_so() {
        let mut shown = Shown::default();
        let mut session = stepped(&[REQUEST]);
        shown.changes(&session);
        let first = session.messages[0].id;
        session.messages.remove(0);
        let changes = shown.changes(&session);
        assert_eq!(changes.gone, vec![message_slot(first)]);
        assert!(changes.put.iter().all(|r| r.slot == STATE), "only the state may change: {changes:?}");

        let broken = vec![Record { slot: STATE, json: "{\"id\":1}".into() }];
        assert_eq!(read(&broken), Err(ReadError::Unreadable));
        assert_eq!(read(&[Record { slot: 1.0, json: "{}".into() }]), Err(ReadError::NoState));
    }
}
