//! The browser shell: holds the session in a signal, feeds user events to the engine,
//! and runs the effects the engine returns.

use leptos::prelude::*;

use crate::engine::lang::Lang;
use crate::engine::session::{Effect, Env, Event, Session, Settings};
use crate::llm::provider::{ProviderConfig, ProviderKind};

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

const LANG_KEY: &str = "deliberate.lang";
const THEME_KEY: &str = "deliberate.theme";

/// The app's state and its single way to change the session: `dispatch`.
#[derive(Clone, Copy)]
pub struct Shell {
    pub session: RwSignal<Session>,
    pub ui_lang: RwSignal<Lang>,
    pub theme: RwSignal<Theme>,
}

/// Milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

fn local_storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn new_session_id() -> String {
    format!("s{:x}{:06x}", now_ms(), (js_sys::Math::random() * 16_777_215.0) as u32)
}

impl Shell {
    /// The shell with a fresh session, the UI language from the saved choice or the
    /// browser, and the theme from the saved choice or the system preference.
    pub fn new() -> Self {
        let storage = local_storage();
        let saved_lang = storage.as_ref().and_then(|s| s.get_item(LANG_KEY).ok().flatten());
        let ui_lang = match saved_lang {
            Some(tag) => Lang::from_tag(&tag),
            None => Lang::from_tag(&window().navigator().language().unwrap_or_default()),
        };
        let saved_theme = storage.as_ref().and_then(|s| s.get_item(THEME_KEY).ok().flatten());
        let theme = match saved_theme.as_deref() {
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
        let session = Session::new(new_session_id(), ui_lang, Settings::default(), now_ms());
        let shell =
            Shell { session: RwSignal::new(session), ui_lang: RwSignal::new(ui_lang), theme: RwSignal::new(theme) };
        shell.apply_theme();
        shell.apply_lang();
        shell
    }

    /// What the engine needs to know about the world right now.
    pub fn env(&self) -> Env {
        Env::offline(now_ms())
    }

    /// Feeds an event to the engine and runs the effects it returns.
    pub fn dispatch(&self, event: Event) {
        let env = self.env();
        let mut effects = Vec::new();
        self.session.update(|s| effects = s.step(event, &env));
        self.run(effects);
    }

    fn run(&self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                // Without a configured LLM the engine asks for no calls; sessions are kept
                // in memory for the page's lifetime.
                Effect::CallLlm(_) | Effect::Cancel { .. } | Effect::Save => {}
            }
        }
    }

    /// The provider the designer role uses; error messages name it.
    pub fn provider_config(&self) -> ProviderConfig {
        ProviderConfig::new(ProviderKind::OpenAiCompatible, "")
    }

    /// True while the engine waits for LLM calls.
    pub fn busy(&self) -> bool {
        self.session.with(|s| s.is_busy())
    }

    /// Switches the UI language and remembers the choice.
    pub fn set_lang(&self, lang: Lang) {
        self.ui_lang.set(lang);
        if let Some(s) = local_storage() {
            let _ = s.set_item(LANG_KEY, lang.tag());
        }
        self.apply_lang();
    }

    /// Switches between light and dark and remembers the choice.
    pub fn toggle_theme(&self) {
        let next = if self.theme.get_untracked() == Theme::Dark { Theme::Light } else { Theme::Dark };
        self.theme.set(next);
        if let Some(s) = local_storage() {
            let _ = s.set_item(THEME_KEY, next.as_str());
        }
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
