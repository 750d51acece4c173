//! Browser storage (localStorage) for settings and the current session. Failures to
//! write are reported to the caller, never silently dropped.

use super::saved::{DecodeError, Journal};
use super::settings::LlmSettings;

const SETTINGS_KEY: &str = "deliberate.llm";
const DISCUSSION_KEY: &str = "deliberate.discussion";
const KEYS_KEY: &str = "deliberate.llm.keys";
const LANG_KEY: &str = "deliberate.lang";
const THEME_KEY: &str = "deliberate.theme";
/// The current conversation's journal, saved after every step.
pub const SESSION_KEY: &str = "deliberate.session";
/// Saved text that could not be read back, kept for the user instead of deleted.
pub const UNREADABLE_SESSION_KEY: &str = "deliberate.session.unreadable";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved LLM settings (with remembered keys), or the defaults.
pub fn load_llm_settings() -> LlmSettings {
    let Some(s) = storage() else {
        return LlmSettings::default();
    };
    let settings = s.get_item(SETTINGS_KEY).ok().flatten();
    let keys = s.get_item(KEYS_KEY).ok().flatten();
    LlmSettings::from_storage(settings.as_deref(), keys.as_deref())
}

/// The saved session settings (the common ones and each mode's), or the defaults.
pub fn load_session_settings() -> crate::engine::session::Settings {
    storage()
        .and_then(|s| s.get_item(DISCUSSION_KEY).ok().flatten())
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

/// Saves the session settings.
pub fn save_session_settings(settings: &crate::engine::session::Settings) -> Result<(), String> {
    let s = storage().ok_or_else(|| "this browser offers no local storage".to_string())?;
    let json = serde_json::to_string(settings).map_err(|e| e.to_string())?;
    s.set_item(DISCUSSION_KEY, &json).map_err(|_| "the browser refused to store the settings".to_string())
}

/// Saves the settings; keys only when remembered (otherwise any stored keys are removed).
pub fn save_llm_settings(settings: &LlmSettings) -> Result<(), String> {
    let s = storage().ok_or_else(|| "this browser offers no local storage".to_string())?;
    let (json, keys) = settings.to_storage();
    s.set_item(SETTINGS_KEY, &json).map_err(|_| "the browser refused to store the settings".to_string())?;
    match keys {
        Some(keys) => s.set_item(KEYS_KEY, &keys).map_err(|_| "the browser refused to store the keys".to_string())?,
        None => s.remove_item(KEYS_KEY).map_err(|_| "the stored keys could not be removed".to_string())?,
    }
    Ok(())
}

/// The conversation saved by the last page, if any. Text that cannot be read is moved to
/// `UNREADABLE_SESSION_KEY` (nothing is deleted) and the reason returned.
pub fn load_journal() -> Result<Option<Journal>, DecodeError> {
    let Some(s) = storage() else {
        return Ok(None);
    };
    let Some(text) = s.get_item(SESSION_KEY).ok().flatten() else {
        return Ok(None);
    };
    Journal::decode(&text).map(Some).inspect_err(|_error| {
        // If even this fails the text stays where it was, and the next save overwrites it:
        // there is nowhere else to put it.
        if s.set_item(UNREADABLE_SESSION_KEY, &text).is_ok() {
            let _ = s.remove_item(SESSION_KEY);
        }
    })
}

/// The conversation a reload opens: its id in the database (an id not there means a new,
/// still empty conversation).
pub const CURRENT_KEY: &str = "deliberate.current";

/// The id of the conversation a reload opens, if one was chosen.
pub fn load_current() -> Option<String> {
    storage()?.get_item(CURRENT_KEY).ok().flatten()
}

/// Remembers which conversation a reload opens; a refusal means the most recent one opens.
pub fn save_current(id: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(CURRENT_KEY, id);
    }
}

/// Removes the conversation saved here once the database holds it.
pub fn forget_journal() {
    if let Some(s) = storage() {
        let _ = s.remove_item(SESSION_KEY);
    }
}

/// The UI language the user chose, as its tag ("ko", "en"), if they chose one.
pub fn load_lang() -> Option<String> {
    storage()?.get_item(LANG_KEY).ok().flatten()
}

/// Remembers the UI language; a refusal only means it is asked of the browser next time.
pub fn save_lang(tag: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, tag);
    }
}

/// The theme the user chose ("light", "dark"), if they chose one.
pub fn load_theme() -> Option<String> {
    storage()?.get_item(THEME_KEY).ok().flatten()
}

/// Remembers the theme; a refusal only means the system preference applies next time.
pub fn save_theme(name: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(THEME_KEY, name);
    }
}

/// What the calls in flight had streamed when the page went away, by session.
const PARTIALS_KEY: &str = "deliberate.partials";

/// Keeps the text the calls in flight streamed so far, as the page goes away. Written to
/// localStorage because it is synchronous: a database write may not finish on a leaving page.
pub fn save_partials(session: &str, partials: &[(u32, String)]) {
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(&(session, partials))) {
        let _ = s.set_item(PARTIALS_KEY, &text);
    }
}

/// The streamed text the last page kept for `session`, read once (another session's is
/// dropped too: it belongs to a conversation no longer waiting for it).
pub fn take_partials(session: &str) -> Vec<(u32, String)> {
    let Some(s) = storage() else { return Vec::new() };
    let text = s.get_item(PARTIALS_KEY).ok().flatten();
    let _ = s.remove_item(PARTIALS_KEY);
    match text.and_then(|t| serde_json::from_str::<(String, Vec<(u32, String)>)>(&t).ok()) {
        Some((id, partials)) if id == session => partials,
        _ => Vec::new(),
    }
}
