//! The effect runner for LLM calls: each call runs over fetch in the background, its
//! streamed text kept in a signal of its own (so only that message re-renders), its abort
//! handle kept for Stop; the outcome is handed back to whoever started it.

use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::engine::call::{CallId, FailureKind, LlmCall, LlmFailure, LlmOutcome};
use crate::engine::pairs::Pairs;
use crate::llm::transport::{run_chat, CallControl, CallOptions};
use crate::llm::ProviderConfig;

/// The LLM calls in flight.
#[derive(Clone, Copy)]
pub struct CallRunner {
    /// Text received so far for each call in flight.
    pub streams: RwSignal<Pairs<CallId, RwSignal<String>>>,
    /// Abort handles of the calls in flight.
    controls: StoredValue<Pairs<CallId, Rc<CallControl>>, LocalStorage>,
    /// The app's reactive owner: per-call signals belong to it, not to whichever card's
    /// button started the call (a card re-renders when answered, disposing its signals).
    owner: StoredValue<Owner, LocalStorage>,
}

impl CallRunner {
    /// No calls yet.
    pub fn new() -> Self {
        CallRunner {
            streams: RwSignal::new(Pairs::new()),
            controls: StoredValue::new_local(Pairs::new()),
            owner: StoredValue::new_local(Owner::current().unwrap_or_default()),
        }
    }

    /// Runs one call to `cfg` (None: no LLM is configured any more) and calls `done` with
    /// its outcome, unless it was stopped first.
    pub fn start(
        &self,
        call: LlmCall,
        cfg: Option<ProviderConfig>,
        opts: CallOptions,
        done: impl Fn(CallId, LlmOutcome) + 'static,
    ) {
        let runner = *self;
        let id = call.id;
        let text = self.owner.with_value(|owner| owner.with(|| RwSignal::new(String::new())));
        self.streams.update(|m| {
            m.insert(id, text);
        });
        // Settings changed between the step and now, or the model's instructions are not
        // here (a release build takes them from the rest of the app): answer at once so
        // nothing hangs, and send nothing.
        let cfg = match cfg {
            Some(cfg) if crate::engine::prompt_text::is_ready() => cfg,
            refused => {
                let (kind, detail) = match refused {
                    None => (FailureKind::Aborted, "no LLM configured"),
                    Some(_) => (FailureKind::AppIncomplete, "the prompt texts are not loaded"),
                };
                let outcome =
                    LlmOutcome::Failed(LlmFailure { kind, detail: detail.into(), status: None, partial: None });
                spawn_local(async move {
                    done(id, outcome);
                    runner.drop_stream(id);
                });
                return;
            }
        };
        watch_page_leaving();
        let control = CallControl::new();
        self.controls.update_value(|m| {
            m.insert(id, control.clone());
        });
        // Only a call streamed into a message of its own shows its text as it comes.
        let shown = call.stream_into.is_some();
        spawn_local(async move {
            let first_paint = std::cell::Cell::new(false);
            let on_text = |so_far: &str| {
                text.set(so_far.to_string());
                if shown && !first_paint.replace(true) {
                    mark_first_text_paint(id);
                }
            };
            let result = run_chat(&cfg, &call.prompt, true, opts, &control, &on_text).await;
            runner.controls.update_value(|m| {
                m.remove(&id);
            });
            // A stopped call was already settled by the engine (Stop or Restart). A call the
            // browser broke off because the page is going away is no failure: it stays in
            // flight in what was saved, and the next page reports it interrupted, with Retry.
            if !control.is_stopped() && !PAGE_LEAVING.load(Relaxed) {
                done(id, LlmOutcome::from(result));
                // An answer that came whole in one read was never drawn live: its first text
                // is painted with the step that takes the answer.
                if shown && !first_paint.get() {
                    mark_first_text_paint(id);
                }
            }
            runner.drop_stream(id);
        });
    }

    /// Forgets a finished call's live text without waking what reads the map: the engine's
    /// step for the answer re-renders the page (or, for the first answer of a batch whose
    /// siblings still run, deliberately does not yet).
    fn drop_stream(&self, id: CallId) {
        self.streams.update_untracked(|m| {
            m.remove(&id);
        });
    }

    /// Aborts one call in the browser.
    pub fn stop(&self, id: CallId) {
        if let Some(control) = self.controls.with_value(|m| m.get(&id).cloned()) {
            control.stop();
        }
    }

    /// Aborts every call in flight and forgets their text.
    pub fn abort_all(&self) {
        let ids: Vec<CallId> = self.controls.with_value(|m| m.keys().copied().collect());
        for id in ids {
            self.stop(id);
        }
    }

    /// Forgets every stream (a new conversation).
    pub fn clear(&self) {
        self.streams.set(Pairs::new());
    }

    /// The live text of a call, if it is in flight.
    pub fn stream_text(&self, id: CallId) -> Option<RwSignal<String>> {
        self.streams.with(|m| m.get(&id).copied())
    }
}

/// True from `pagehide` (reload, navigation, closing) until the page shows again.
static PAGE_LEAVING: AtomicBool = AtomicBool::new(false);

/// Follows the page going away and coming back (from the back/forward cache), once, from the
/// first call sent: only a call in flight asks. Chromium aborts a leaving page's fetches after
/// `pagehide` and still runs their handlers. Listening from the start would put the handler
/// in the rest of the wasm (the split's profile never leaves the page), and a page left before
/// the rest is linked would reach for it during dismissal, where the browser refuses the
/// request that loads it.
fn watch_page_leaving() {
    static WATCHING: AtomicBool = AtomicBool::new(false);
    if WATCHING.swap(true, Relaxed) {
        return;
    }
    // Never removed: the page's lifetime.
    std::mem::forget(window_event_listener_untyped("pagehide", |_| PAGE_LEAVING.store(true, Relaxed)));
    std::mem::forget(window_event_listener_untyped("pageshow", |_| PAGE_LEAVING.store(false, Relaxed)));
}

impl Default for CallRunner {
    fn default() -> Self {
        CallRunner::new()
    }
}

/// Marks the frame that paints a call's first streamed text (`./dev bench` reads it).
fn mark_first_text_paint(id: CallId) {
    request_animation_frame(move || super::perf_mark(&format!("deliberate:first-text:{id}")));
}
