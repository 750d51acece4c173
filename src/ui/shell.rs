//! The browser shell: holds the session in a signal, feeds user events to the engine,
//! and runs the effects the engine returns through its pieces: the call runner
//! (`calls`), the journal saver (`saving`) and the display preferences (`prefs`).

use leptos::prelude::*;

use crate::engine::call::{CallId, Purpose};
use crate::engine::core::{CallKind, Endpoint};
use crate::engine::lang::Lang;
use crate::engine::session::{Effect, Env, Event, Session, Settings};
use crate::llm::transport::CallOptions;
use crate::llm::{ProviderConfig, ProviderKind, RetryPolicy};
use crate::store::local::{load_llm_settings, load_session_settings, save_llm_settings, save_session_settings};
use crate::store::saved::Journal;
use crate::store::sessions::Header;
use crate::store::settings::LlmSettings;
use crate::store::snapshot::{self, Opened, Record, Shown};

use super::calls::CallRunner;
pub use super::prefs::{Preferences, Theme};
use super::saving::Saver;
pub use super::saving::StorageProblem;

/// Where the reader build lives, relative to the page: the same app with the readers of a
/// whole session, for conversations this build would show differently (`store::snapshot`).
const READER: &str = "reader/";

/// What a conversation being opened has of its snapshot.
enum Snapshot {
    /// Its records, in hand (an import).
    Records(Vec<Record>),
    /// Its saved header: the digest of its records in the database, read only when its
    /// replay does not give that digest.
    Saved(Header),
}

/// The app's state and its single way to change the session: `dispatch`.
#[derive(Clone, Copy)]
pub struct Shell {
    pub session: RwSignal<Session>,
    /// The UI language (the same signal as `prefs.ui_lang`).
    pub ui_lang: RwSignal<Lang>,
    /// Light or dark (the same signal as `prefs.theme`).
    pub theme: RwSignal<Theme>,
    pub prefs: Preferences,
    /// LLM settings in use (keys in memory).
    pub llm: RwSignal<LlmSettings>,
    /// Keys sealed with a passphrase: stored, locked or opened this visit.
    pub keys: super::unlock::KeyVault,
    /// The LLM calls in flight.
    pub calls: CallRunner,
    /// The journal and the trouble keeping it.
    pub saver: Saver,
    /// Trouble saving or restoring the conversation, if any (`saver.problem`).
    pub storage_problem: RwSignal<Option<StorageProblem>>,
}

/// Milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

fn new_session_id() -> String {
    // 64 random bits after the time: the session's isolation tag is derived from its id.
    let random = || (js_sys::Math::random() * 4_294_967_296.0) as u32;
    session_id(now_ms(), [random(), random()])
}

/// `s`, the time in hex, then the random bits as 16 hex digits. The digits are written one by
/// one rather than with `{:08x}`: a zero-padded format runs its padding code only for a value
/// that needs it, so one start in eight would call code that no profiled start of the split
/// build (tools/split.mjs) ran, and load the rest of the wasm at once to run it.
fn session_id(time: u64, random: [u32; 2]) -> String {
    let mut id = format!("s{time:x}");
    for bits in random {
        for shift in (0..32).step_by(4).rev() {
            id.push(char::from_digit((bits >> shift) & 0xf, 16).unwrap_or('0'));
        }
    }
    id
}

impl Shell {
    /// The shell with the session the last page saved (else a fresh one), the saved
    /// preferences and LLM settings. Calls the saved session was waiting for died with
    /// the old page: the engine is told, so it offers to redo them.
    pub fn new() -> Self {
        super::rest::provide_prompt_texts();
        let prefs = Preferences::load();
        let ui_lang = prefs.ui_lang.get_untracked();
        let (session, journal, problem, from_local) =
            Saver::restore(|| Session::new(new_session_id(), ui_lang, load_session_settings(), now_ms()));
        let interrupted = !session.pending.is_empty();
        let session = RwSignal::new(session);
        let saver = Saver::new(session, journal, problem);
        let keys = super::unlock::KeyVault::load();
        let mut llm = load_llm_settings();
        if keys.is_locked() {
            // A sealed record is stored: the keys are remembered, behind a passphrase.
            llm.remember_keys = true;
            llm.passphrase_lock = true;
        }
        let shell = Shell {
            session,
            ui_lang: prefs.ui_lang,
            theme: prefs.theme,
            prefs,
            llm: RwSignal::new(llm),
            keys,
            calls: CallRunner::new(),
            saver,
            storage_problem: saver.problem,
        };
        if interrupted {
            shell.reopen();
        }
        // The database opens in the background; the most recent conversation then opens,
        // unless the user already began one. Both run code of the rest of the app (see
        // `super::rest`), which a returning visit fetches beside the page's part: the start
        // does not wait for it, the database does, and asks for it again if it fails.
        leptos::task::spawn_local(async move {
            super::rest::linked_asking_again(saver.rest_missing).await;
            // As the page goes away, what the calls in flight streamed is kept for the next
            // one: at `beforeunload`, before a navigation breaks off the page's fetches (their
            // streams end then), and at `pagehide` where there is no `beforeunload` (mobile).
            // Listened to once the rest is linked: a call needs the rest, and a handler the
            // split's profile never saw run would, before then, reach for the rest while the
            // page is dismissed, when the browser refuses the request that loads it.
            for event in ["beforeunload", "pagehide"] {
                std::mem::forget(window_event_listener_untyped(event, move |_| shell.keep_partials()));
            }
            if let Some((journal, header)) = saver.open(from_local).await {
                let opened = shell.opened(&journal, Snapshot::Saved(header), true).await;
                if let Some((session, shown)) = opened.filter(|_| shell.saver.with_journal(|j| j.events.is_empty())) {
                    shell.take(journal, session, shown, true).await;
                }
            }
            saver.ready.set(true);
        });
        // A step another tab takes in the conversation shown here shows here too.
        saver.hear_other_tabs(move |id| {
            leptos::task::spawn_local(async move {
                let calls_here = || shell.calls.streams.with_untracked(|m| m.keys().next().is_some());
                let Some((journal, header)) = shell.saver.other_tab_wrote(&id, calls_here).await else { return };
                let Some((session, shown)) = shell.opened(&journal, Snapshot::Saved(header), true).await else {
                    return;
                };
                if shell.saver.may_follow(&id, calls_here) {
                    shell.show_other_tabs_steps(journal, session, shown);
                }
            })
        });
        shell
    }

    /// The session `journal` and its `snapshot` describe, and what the saved records then
    /// hold: the replay when it shows what was saved (or nothing was), else the records
    /// read back (`saved`: the conversation is in the database). None when the records
    /// could not be read (the problem is shown) or this page cannot read them: it has
    /// handed the conversation to the reader build.
    async fn opened(self, journal: &Journal, snapshot: Snapshot, saved: bool) -> Option<(Session, Shown)> {
        let replayed = journal.replay();
        super::perf_mark("deliberate:open-replayed");
        let opened = match snapshot {
            Snapshot::Records(records) => snapshot::open(replayed, &records),
            Snapshot::Saved(header) => match snapshot::shown_by_digest(&replayed, header.digest.as_deref()) {
                Some(shown) => Opened::Ready(replayed, shown),
                None => snapshot::open(replayed, &self.saver.records(&header).await?),
            },
        };
        super::perf_mark("deliberate:open-checked");
        match opened {
            Opened::Ready(session, shown) => Some((session, shown)),
            Opened::NeedsReader(replayed) => {
                // Only a saved conversation can be handed over: the reader opens it from
                // the database.
                crate::store::local::save_current(&journal.start.id);
                if saved && window().location().assign(READER).is_ok() {
                    return None;
                }
                self.saver.problem.set(Some(StorageProblem::SnapshotUnreadable));
                Some((replayed, Shown::default()))
            }
            Opened::Unreadable(replayed) => {
                self.saver.problem.set(Some(StorageProblem::SnapshotUnreadable));
                Some((replayed, Shown::default()))
            }
        }
    }

    /// Makes `journal`, opened as `session` (`opened`), the current conversation (`saved`:
    /// it came from the database, and its saved records hold `shown`). Calls in flight are
    /// aborted; calls the journal was waiting for are offered again.
    async fn take(self, journal: Journal, session: Session, shown: Shown, saved: bool) {
        self.calls.abort_all();
        self.calls.clear();
        super::perf_mark("deliberate:open-take");
        let interrupted = !session.pending.is_empty();
        self.saver.adopt(journal, saved);
        self.saver.set_shown(shown);
        // The message list keys rows by message id, and every conversation numbers its
        // messages from 1: show an empty list for one task first, so no row of the old
        // conversation is kept for the new one.
        let blank = Session::new(session.id.clone(), session.lang, session.settings.clone(), session.created_at);
        self.session.set(blank);
        let next_task = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().set_timeout_with_callback(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(next_task).await;
        super::perf_mark("deliberate:open-set");
        self.session.set(session);
        if interrupted {
            self.reopen();
        } else {
            self.saver.save();
        }
    }

    /// Shows the steps another tab took in the conversation shown here. The same
    /// conversation, so the rows already drawn stay; a call it waits for runs in the other
    /// tab, so it is not reported interrupted here, and nothing is written.
    fn show_other_tabs_steps(self, journal: Journal, session: Session, shown: Shown) {
        self.saver.adopt(journal, true);
        self.saver.set_shown(shown);
        self.session.set(session);
    }

    /// Keeps the text the calls in flight streamed so far (the page is going away).
    fn keep_partials(self) {
        let partials: Vec<(CallId, String)> = self.calls.streams.with_untracked(|m| {
            m.iter().map(|(id, text)| (*id, text.get_untracked())).filter(|(_, t)| !t.trim().is_empty()).collect()
        });
        if !partials.is_empty() {
            crate::store::local::save_partials(&self.session.with_untracked(|s| s.id.clone()), &partials);
        }
    }

    /// The calls the conversation waited for died with the old page: the engine halts,
    /// keeping what they had streamed.
    fn reopen(self) {
        let partials = crate::store::local::take_partials(&self.session.with_untracked(|s| s.id.clone()));
        self.dispatch(Event::Reopened { partials });
    }

    /// Opens a saved conversation from the sessions list.
    pub fn switch_to(&self, id: String) {
        if id == self.saver.current_id() {
            return;
        }
        let shell = *self;
        leptos::task::spawn_local(async move {
            let header = shell.saver.sessions.with_untracked(|l| l.iter().find(|h| h.id == id).cloned());
            if let Some(header) = header {
                let Some(journal) = shell.saver.read(&header).await else { return };
                if let Some((session, shown)) = shell.opened(&journal, Snapshot::Saved(header), true).await {
                    shell.take(journal, session, shown, true).await;
                }
            }
        });
    }

    /// What the engine needs to know about the world right now.
    pub fn env(&self) -> Env {
        let llm = self.llm.get_untracked();
        // The same window the chat's meter uses: the user's setting, else the server's report,
        // else the model's published window, else the default.
        let window = llm.designer_config().map(|cfg| {
            let user = self.session.with_untracked(|s| s.settings.common.context_window).filter(|w| *w >= 256);
            let server = super::chat_mode::cached_server_window(&cfg).filter(|w| *w >= 256);
            crate::llm::window::resolve_window(user, server, &cfg.model).tokens
        });
        Env {
            now: now_ms(),
            primary: llm.designer_config().is_some(),
            secondary: llm.critic_config().is_some(),
            window,
        }
    }

    /// Feeds an event to the engine and runs the effects it returns.
    pub fn dispatch(&self, event: Event) {
        let env = self.env();
        self.saver.record(&event, &env);
        let mut effects = Vec::new();
        // The batch of a call whose answer this is, while its siblings may still be running.
        let batch = match &event {
            Event::LlmResult { call, .. } => {
                self.session.with_untracked(|s| s.pending.iter().find(|p| p.call == *call).map(|p| p.batch))
            }
            _ => None,
        };
        // The calls the step starts are queued before the page re-renders and the journal is
        // written, so a step's next request leaves at once (a counseling turn is 3 calls deep).
        self.session.update_untracked(|s| effects = s.step(event, &env));
        let starts_nothing = !effects.iter().any(|e| matches!(e, Effect::CallLlm(_) | Effect::Cancel { .. }));
        // The first answer of a concurrent batch (the counseling checker ∥ detector) waits for
        // its siblings before the page re-renders: rendering in between delayed the sibling's
        // answer, and with it the next call, by 20–30 ms. The last answer of the batch renders.
        let siblings_running = batch.is_some_and(|b| {
            let sibling = |p: &crate::engine::core::Pending<_>| p.batch == b && p.kind == CallKind::Foreground;
            self.session.with_untracked(|s| s.pending.iter().any(sibling))
        });
        let wait_for_siblings = starts_nothing && siblings_running;
        let save = effects.iter().any(|e| matches!(e, Effect::Save));
        self.run(effects);
        // Nor is such an answer saved yet: a write marks the page as writing, and the frame
        // that draws it delayed the sibling's answer the same way. The batch's last answer
        // saves both.
        if !wait_for_siblings {
            self.session.notify();
            // The journal is written once the page has re-rendered the step (the re-render
            // just queued runs first): a reply is in the page before the write starts.
            if save {
                let saver = self.saver;
                leptos::task::spawn_local(async move { saver.save() });
            }
        }
    }

    /// Starts and cancels calls; the save is the caller's (`dispatch` orders it).
    fn run(&self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::CallLlm(call) => {
                    let shell = *self;
                    let cfg = self.config_for(call.endpoint);
                    let opts = CallOptions {
                        timeout_ms: self.llm.get_untracked().timeout_ms(),
                        retry: RetryPolicy::default(),
                    };
                    self.calls.start(call, cfg, opts, move |id, outcome| {
                        shell.dispatch(Event::LlmResult { call: id, outcome })
                    });
                }
                Effect::Cancel { calls } => {
                    for id in calls {
                        self.calls.stop(id);
                    }
                }
                Effect::Save => {}
            }
        }
    }

    fn config_for(&self, endpoint: Endpoint) -> Option<ProviderConfig> {
        let llm = self.llm.get_untracked();
        match endpoint {
            Endpoint::Primary => llm.designer_config(),
            Endpoint::Secondary => llm.critic_config(),
        }
    }

    /// Stop: abort every call the user waits for, keeping what has streamed so far.
    pub fn stop(&self) {
        let partials: Vec<(CallId, String)> = self
            .session
            .with_untracked(|s| {
                s.pending.iter().filter(|p| p.kind == CallKind::Foreground).map(|p| p.call).collect::<Vec<_>>()
            })
            .into_iter()
            .map(|id| (id, self.stream_text(id).map(|t| t.get_untracked()).unwrap_or_default()))
            .collect();
        self.dispatch(Event::Stop { partials });
    }

    /// Replaces the conversation with an empty one (and saves that): calls in flight are
    /// aborted, and their late answers are dropped.
    pub fn new_conversation(&self) {
        self.calls.abort_all();
        self.calls.clear();
        let settings = self.session.with_untracked(|s| s.settings.clone());
        let session = Session::new(new_session_id(), self.ui_lang.get_untracked(), settings, now_ms());
        self.saver.begin(&session);
        self.session.set(session);
        self.saver.save();
    }

    /// Opens a conversation from an exported JSON file as a new saved conversation (the
    /// current one stays in the list). A file that cannot be read changes nothing and
    /// says why, in the UI language.
    pub fn import(&self, text: &str) -> Result<(), String> {
        use crate::store::export::{import_any, Imported};
        let imported = import_any(text).map_err(|e| e.import_message(self.ui_lang.get_untracked()))?;
        let journals = match imported {
            Imported::One(journal) => vec![journal],
            Imported::All(journals) => journals,
        };
        // Every imported conversation is a new one: an id already here gets a new one.
        let mut journals: Vec<Journal> = journals
            .into_iter()
            .map(|mut journal| {
                let taken = self.saver.sessions.with_untracked(|l| l.iter().any(|h| h.id == journal.start.id));
                if taken || journal.start.id == self.saver.current_id() {
                    let old = std::mem::replace(&mut journal.start.id, new_session_id());
                    snapshot::renamed(&mut journal.shown, &old, &journal.start.id);
                }
                journal
            })
            .collect();
        let Some(first) = (!journals.is_empty()).then(|| journals.remove(0)) else {
            return Ok(());
        };
        let shell = *self;
        leptos::task::spawn_local(async move {
            for journal in journals {
                shell.saver.write_whole(&journal.replay(), &journal).await;
            }
            // Saved first, so that one an earlier build showed differently can be handed to
            // the reader build, which opens it from the database.
            let mut first = first;
            let saved = shell.saver.write_whole(&first.replay(), &first).await;
            let records = std::mem::take(&mut first.shown);
            if let Some((session, shown)) = shell.opened(&first, Snapshot::Records(records), saved).await {
                shell.take(first, session, shown, saved).await;
            }
        });
        Ok(())
    }

    /// Aborts every call in flight without telling the engine (the session is going away).
    pub fn abort_all(&self) {
        self.calls.abort_all();
    }

    /// The live text of a call, if it is in flight.
    pub fn stream_text(&self, id: CallId) -> Option<RwSignal<String>> {
        self.calls.stream_text(id)
    }

    /// Uses new LLM settings and stores them (keys in the clear only if remembered without
    /// a passphrase; sealed keys are stored by `keys`).
    pub fn apply_llm_settings(&self, settings: LlmSettings) -> Result<(), String> {
        let stored = save_llm_settings(&settings);
        self.llm.set(settings);
        stored
    }

    /// Uses new discussion settings: question limits at once, the round limit from the
    /// next discussion (restart or new request).
    pub fn apply_session_settings(&self, settings: Settings) -> Result<(), String> {
        let stored = save_session_settings(&settings);
        self.dispatch(Event::Settings { settings });
        stored
    }

    /// The provider a purpose's calls go to; error messages name it and its URL.
    pub fn provider_config(&self, purpose: Option<Purpose>) -> ProviderConfig {
        let secondary = purpose.is_some_and(|p| p.endpoint() == Endpoint::Secondary);
        let llm = self.llm.get_untracked();
        let endpoint = if secondary && llm.separate_critic { &llm.critic } else { &llm.designer };
        endpoint.config().unwrap_or_else(|| ProviderConfig::new(ProviderKind::OpenAiCompatible, ""))
    }

    /// True while the engine waits for a call the user waits for.
    pub fn busy(&self) -> bool {
        self.session.with(|s| s.is_busy())
    }

    /// Switches the UI language and remembers the choice.
    pub fn set_lang(&self, lang: Lang) {
        self.prefs.set_lang(lang);
    }

    /// Switches between light and dark and remembers the choice.
    pub fn toggle_theme(&self) {
        self.prefs.toggle_theme();
    }
}

impl Default for Shell {
    fn default() -> Self {
        Shell::new()
    }
}

#[cfg(test)]
mod tests {
    use super::session_id;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_session_id_is_the_time_then_sixteen_hex_digits_whatever_the_random_bits() {
        assert_eq!(session_id(0x19a, [0x1, 0xdead_beef]), "s19a00000001deadbeef");
        assert_eq!(session_id(0x19a, [0, 0]), "s19a0000000000000000");
        assert_eq!(session_id(0x19a, [u32::MAX, 0x0f0f_0f0f]), "s19affffffff0f0f0f0f");
    }
}
