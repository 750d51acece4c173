//! The user's display preferences: UI language and theme, read from the saved choice or
//! the browser, applied to the document, and remembered through `store::local`.

use leptos::prelude::*;

use crate::engine::lang::Lang;
use crate::store::local::{load_lang, load_theme, save_lang, save_theme};

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

/// The UI language and the theme, as signals.
#[derive(Clone, Copy)]
pub struct Preferences {
    pub ui_lang: RwSignal<Lang>,
    pub theme: RwSignal<Theme>,
}

impl Preferences {
    /// The saved choices, else the browser's language and the system's colour scheme;
    /// applied to the document at once.
    pub fn load() -> Self {
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
        let prefs = Preferences { ui_lang: RwSignal::new(ui_lang), theme: RwSignal::new(theme) };
        prefs.apply_theme();
        prefs.apply_lang();
        prefs
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
