//! The browser shell: holds the session in a signal, feeds user events to the engine,
//! and runs the effects the engine returns: LLM calls over fetch (streamed, cancellable),
//! cancellations, and saving.

use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::engine::call::{CallId, LlmCall, LlmFailure, LlmOutcome, Purpose};
use crate::engine::core::Endpoint;
use crate::engine::lang::Lang;
use crate::engine::session::{Effect, Env, Event, Session, Settings};
use crate::llm::transport::{run_chat, CallControl, CallOptions};
use crate::llm::{ProviderConfig, ProviderKind, RetryPolicy};
use crate::store::local::{
    load_discussion_settings, load_journal, load_lang, load_llm_settings, load_theme, save_discussion_settings,
    save_journal, save_lang, save_llm_settings, save_theme,
};
use crate::store::saved::{DecodeError, Journal};
use crate::store::settings::LlmSettings;

/// Light or dark colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// Something wrong with keeping the conversation in the browser, shown until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageProblem {
    /// The last save was refused (storage full or blocked): a reload would lose the
    /// conversation.
    SaveFailed,
    /// The saved conversation could not be read; it was kept aside and a new one started.
    Unreadable(DecodeError),
}

/// The app's state and its single way to change the session: `dispatch`.
#[derive(Clone, Copy)]
pub struct Shell {
    pub session: RwSignal<Session>,
    pub ui_lang: RwSignal<Lang>,
    pub theme: RwSignal<Theme>,
    /// LLM settings in use (keys in memory).
    pub llm: RwSignal<LlmSettings>,
    /// Text received so far for each call in flight.
    pub streams: RwSignal<HashMap<CallId, RwSignal<String>>>,
    /// Abort handles of the calls in flight.
    controls: StoredValue<HashMap<CallId, Rc<CallControl>>, LocalStorage>,
    /// Trouble saving or restoring the conversation, if any.
    pub storage_problem: RwSignal<Option<StorageProblem>>,
    /// Every step of the conversation, saved so a reload replays it.
    journal: StoredValue<Journal>,
    /// The app's reactive owner: per-call signals belong to it, not to whichever card's
    /// button started the call (a card re-renders when answered, disposing its signals).
    owner: StoredValue<Owner, LocalStorage>,
}

/// Milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

fn new_session_id() -> String {
    format!("s{:x}{:06x}", now_ms(), (js_sys::Math::random() * 16_777_215.0) as u32)
}

impl Shell {
    /// The shell with the session the last page saved (else a fresh one), the UI language
    /// from the saved choice or the browser, the theme from the saved choice or the system
    /// preference, and the saved LLM settings. Calls the saved session was waiting for
    /// died with the old page: the engine is told, so it offers to redo them.
    pub fn new() -> Self {
        let ui_lang = match load_lang() {
            Some(tag) => Lang::from_tag(&tag),
            None => Lang::from_tag(&window().navigator().language().unwrap_or_default()),
        };
        let theme = match load_theme().as_deref() {
            Some("dark") => Theme::Dark,
            Some("light") => Theme::Light,
            _ => {
                let dark =
                    window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches());
                if dark {
                    Theme::Dark
                } else {
                    Theme::Light
                }
            }
        };
        let fresh = || {
            let session = Session::new(new_session_id(), ui_lang, load_discussion_settings(), now_ms());
            let journal = Journal::begin(&session);
            (session, journal)
        };
        let ((session, journal), problem) = match load_journal() {
            Ok(Some(journal)) => ((journal.replay(), journal), None),
            Ok(None) => (fresh(), None),
            Err(error) => (fresh(), Some(StorageProblem::Unreadable(error))),
        };
        let interrupted = session.is_busy();
        let shell = Shell {
            session: RwSignal::new(session),
            ui_lang: RwSignal::new(ui_lang),
            theme: RwSignal::new(theme),
            llm: RwSignal::new(load_llm_settings()),
            streams: RwSignal::new(HashMap::new()),
            controls: StoredValue::new_local(HashMap::new()),
            storage_problem: RwSignal::new(problem),
            journal: StoredValue::new(journal),
            owner: StoredValue::new_local(Owner::current().unwrap_or_default()),
        };
        shell.apply_theme();
        shell.apply_lang();
        if interrupted {
            shell.dispatch(Event::Resume);
        }
        shell
    }

    /// What the engine needs to know about the world right now.
    pub fn env(&self) -> Env {
        let llm = self.llm.get_untracked();
        Env { now: now_ms(), primary: llm.designer_config().is_some(), secondary: llm.critic_config().is_some() }
    }

    /// Feeds an event to the engine and runs the effects it returns.
    pub fn dispatch(&self, event: Event) {
        let env = self.env();
        self.journal.update_value(|j| j.record(&event, &env));
        let mut effects = Vec::new();
        self.session.update(|s| effects = s.step(event, &env));
        self.run(effects);
    }

    fn run(&self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::CallLlm(call) => self.start_call(call),
                Effect::Cancel { calls } => {
                    for id in calls {
                        self.stop_call(id);
                    }
                }
                Effect::Save => self.save(),
            }
        }
    }

    /// Writes the journal so a reload replays it; a refusal is shown, not swallowed, and
    /// the conversation goes on in memory.
    fn save(&self) {
        match self.journal.with_value(save_journal) {
            Ok(()) => {
                if self.storage_problem.with_untracked(|p| p == &Some(StorageProblem::SaveFailed)) {
                    self.storage_problem.set(None);
                }
            }
            Err(_) => {
                if self.storage_problem.with_untracked(|p| p != &Some(StorageProblem::SaveFailed)) {
                    self.storage_problem.set(Some(StorageProblem::SaveFailed));
                }
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

    /// Runs one call in the background and feeds its outcome back to the engine.
    fn start_call(&self, call: LlmCall) {
        let shell = *self;
        let id = call.id;
        let text = self.owner.with_value(|owner| owner.with(|| RwSignal::new(String::new())));
        self.streams.update(|m| {
            m.insert(id, text);
        });
        let Some(cfg) = self.config_for(call.endpoint) else {
            // Settings changed between the step and now: answer at once so nothing hangs.
            let outcome = LlmOutcome::Failed(LlmFailure {
                kind: crate::engine::call::FailureKind::Aborted,
                detail: "no LLM configured".into(),
                status: None,
                partial: None,
            });
            spawn_local(async move { shell.finish_call(id, outcome) });
            return;
        };
        let control = CallControl::new();
        self.controls.update_value(|m| {
            m.insert(id, control.clone());
        });
        let opts = CallOptions { timeout_ms: self.llm.get_untracked().timeout_ms(), retry: RetryPolicy::default() };
        spawn_local(async move {
            let first_paint = std::cell::Cell::new(false);
            let on_text = |so_far: &str| {
                text.set(so_far.to_string());
                if !first_paint.replace(true) {
                    mark_first_text_paint(id);
                }
            };
            let result = run_chat(&cfg, &call.prompt, true, opts, &control, &on_text).await;
            shell.controls.update_value(|m| {
                m.remove(&id);
            });
            // A stopped call was already settled by the engine (Stop or Restart).
            if control.is_stopped() {
                shell.drop_stream(id);
                return;
            }
            shell.finish_call(id, LlmOutcome::from(result));
        });
    }

    fn finish_call(&self, id: CallId, outcome: LlmOutcome) {
        self.dispatch(Event::LlmResult { call: id, outcome });
        self.drop_stream(id);
    }

    fn drop_stream(&self, id: CallId) {
        self.streams.update(|m| {
            m.remove(&id);
        });
    }

    fn stop_call(&self, id: CallId) {
        if let Some(control) = self.controls.with_value(|m| m.get(&id).cloned()) {
            control.stop();
        }
    }

    /// Stop: abort every call in flight, keeping what has streamed so far.
    pub fn stop(&self) {
        let partials: Vec<(CallId, String)> = self
            .session
            .with_untracked(|s| s.pending.iter().map(|p| p.call).collect::<Vec<_>>())
            .into_iter()
            .map(|id| (id, self.stream_text(id).map(|t| t.get_untracked()).unwrap_or_default()))
            .collect();
        self.dispatch(Event::Stop { partials });
    }

    /// Replaces the conversation with an empty one (and saves that): calls in flight are
    /// aborted, and their late answers are dropped.
    pub fn new_conversation(&self) {
        self.abort_all();
        self.streams.set(HashMap::new());
        let settings = self.session.with_untracked(|s| s.settings.clone());
        let session = Session::new(new_session_id(), self.ui_lang.get_untracked(), settings, now_ms());
        self.journal.set_value(Journal::begin(&session));
        self.session.set(session);
        self.save();
    }

    /// Aborts every call in flight without telling the engine (the session is going away).
    pub fn abort_all(&self) {
        let ids: Vec<CallId> = self.controls.with_value(|m| m.keys().copied().collect());
        for id in ids {
            self.stop_call(id);
        }
    }

    /// The live text of a call, if it is in flight.
    pub fn stream_text(&self, id: CallId) -> Option<RwSignal<String>> {
        self.streams.with(|m| m.get(&id).copied())
    }

    /// Uses new LLM settings and stores them (keys only if remembered).
    pub fn apply_llm_settings(&self, settings: LlmSettings) -> Result<(), String> {
        let stored = save_llm_settings(&settings);
        self.llm.set(settings);
        stored
    }

    /// Uses new discussion settings: question limits at once, the round limit from the
    /// next discussion (restart or new request).
    pub fn apply_discussion_settings(&self, settings: Settings) -> Result<(), String> {
        let stored = save_discussion_settings(&settings);
        self.dispatch(Event::Settings { settings });
        stored
    }

    /// The provider a purpose's calls go to; error messages name it and its URL.
    pub fn provider_config(&self, purpose: Option<Purpose>) -> ProviderConfig {
        let secondary = purpose.is_some_and(|p| p.role().endpoint() == Endpoint::Secondary);
        let llm = self.llm.get_untracked();
        let endpoint = if secondary && llm.separate_critic { &llm.critic } else { &llm.designer };
        endpoint.config().unwrap_or_else(|| ProviderConfig::new(ProviderKind::OpenAiCompatible, ""))
    }

    /// True while the engine waits for LLM calls.
    pub fn busy(&self) -> bool {
        self.session.with(|s| s.is_busy())
    }

    /// Switches the UI language and remembers the choice.
    pub fn set_lang(&self, lang: Lang) {
        self.ui_lang.set(lang);
        save_lang(lang.tag());
        self.apply_lang();
    }

    /// Switches between light and dark and remembers the choice.
    pub fn toggle_theme(&self) {
        let next = if self.theme.get_untracked() == Theme::Dark { Theme::Light } else { Theme::Dark };
        self.theme.set(next);
        save_theme(next.as_str());
        self.apply_theme();
    }

    fn apply_theme(&self) {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", self.theme.get_untracked().as_str());
        }
    }

    fn apply_lang(&self) {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", self.ui_lang.get_untracked().tag());
        }
    }
}

impl Default for Shell {
    fn default() -> Self {
        Shell::new()
    }
}

/// Marks the frame that paints a call's first streamed text (`./dev bench` reads it).
fn mark_first_text_paint(id: CallId) {
    request_animation_frame(move || {
        if let Some(perf) = window().performance() {
            let _ = perf.mark(&format!("deliberate:first-text:{id}"));
        }
    });
}
