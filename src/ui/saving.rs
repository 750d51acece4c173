//! Keeping the conversation: its journal of steps, written after every step through
//! `store::local`, and what went wrong doing so (shown until dismissed).

use leptos::prelude::*;

use crate::engine::session::{Env, Event, Session};
use crate::store::local::{load_journal, save_journal};
use crate::store::saved::{DecodeError, Journal};

/// Something wrong with keeping the conversation in the browser, shown until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageProblem {
    /// The last save was refused (storage full or blocked): a reload would lose the
    /// conversation.
    SaveFailed,
    /// The saved conversation could not be read; it was kept aside and a new one started.
    Unreadable(DecodeError),
}

/// The journal of the current conversation and the trouble saving it.
#[derive(Clone, Copy)]
pub struct Saver {
    /// Every step of the conversation, saved so a reload replays it.
    journal: StoredValue<Journal>,
    /// Trouble saving or restoring the conversation, if any.
    pub problem: RwSignal<Option<StorageProblem>>,
}

impl Saver {
    /// The conversation the last page saved, replayed; else `fresh()`. Saved text that
    /// cannot be read is reported (and kept aside by the store).
    pub fn restore(fresh: impl FnOnce() -> Session) -> (Session, Saver) {
        let (session, journal, problem) = match load_journal() {
            Ok(Some(journal)) => (journal.replay(), journal, None),
            Ok(None) => {
                let session = fresh();
                let journal = Journal::begin(&session);
                (session, journal, None)
            }
            Err(error) => {
                let session = fresh();
                let journal = Journal::begin(&session);
                (session, journal, Some(StorageProblem::Unreadable(error)))
            }
        };
        (session, Saver { journal: StoredValue::new(journal), problem: RwSignal::new(problem) })
    }

    /// Records a step about to be applied.
    pub fn record(&self, event: &Event, env: &Env) {
        self.journal.update_value(|j| j.record(event, env));
    }

    /// Reads the journal.
    pub fn with_journal<T>(&self, f: impl FnOnce(&Journal) -> T) -> T {
        self.journal.with_value(f)
    }

    /// Takes over an imported journal.
    pub fn adopt(&self, journal: Journal) {
        self.journal.set_value(journal);
    }

    /// Starts a new journal for a new conversation.
    pub fn begin(&self, session: &Session) {
        self.journal.set_value(Journal::begin(session));
    }

    /// Writes the journal so a reload replays it; a refusal is shown, not swallowed, and
    /// the conversation goes on in memory.
    pub fn save(&self) {
        let failed = self.journal.with_value(save_journal).is_err();
        let shown = self.problem.with_untracked(|p| p == &Some(StorageProblem::SaveFailed));
        if failed && !shown {
            self.problem.set(Some(StorageProblem::SaveFailed));
        } else if !failed && shown {
            self.problem.set(None);
        }
    }
}
