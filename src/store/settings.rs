//! LLM settings: which provider, model and key each role uses, and how they are stored.
//! Keys stay in memory unless the user asks to remember them on this device, and they
//! are stored apart from the settings so that settings can be shown or exported safely.

use serde::{Deserialize, Serialize};

use crate::llm::{ProviderConfig, ProviderKind};

/// One endpoint: provider kind, base URL, model and key.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub kind: ProviderKind,
    /// Empty means the provider's default URL.
    #[serde(default)]
    pub base_url: String,
    #[serde(default)]
    pub model: String,
    /// Never serialized with the settings; see [`StoredKeys`].
    #[serde(skip)]
    pub key: String,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("key", &if self.key.is_empty() { "<none>" } else { "<redacted>" })
            .finish()
    }
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint { kind: ProviderKind::OpenAi, base_url: String::new(), model: String::new(), key: String::new() }
    }
}

impl Endpoint {
    /// The configuration for listing models: like `config`, but no model needed.
    pub fn config_for_listing(&self) -> Option<ProviderConfig> {
        let probe = Endpoint { model: "list".into(), ..self.clone() };
        probe.config().map(|mut cfg| {
            cfg.model.clear();
            cfg
        })
    }

    /// The protocol configuration, if the endpoint can be called: a model, and a key
    /// where the provider needs one.
    pub fn config(&self) -> Option<ProviderConfig> {
        let mut cfg = ProviderConfig::new(self.kind, self.model.trim());
        if !self.base_url.trim().is_empty() {
            cfg = cfg.with_base_url(self.base_url.trim());
        }
        if !self.key.trim().is_empty() {
            cfg = cfg.with_key(self.key.trim());
        }
        cfg.is_ready().then_some(cfg)
    }
}

/// Default time without progress before a call is abandoned.
pub const DEFAULT_TIMEOUT_SECS: u32 = 60;

/// All LLM settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmSettings {
    /// Off: every step uses its heuristic twin, whatever is configured.
    pub enabled: bool,
    /// Analysis, questions, designs, refinement, plan.
    pub designer: Endpoint,
    /// Use `critic` for critiques instead of the designer's endpoint.
    pub separate_critic: bool,
    pub critic: Endpoint,
    /// Keep keys in this browser's storage.
    pub remember_keys: bool,
    /// Remembered keys are stored only sealed with a passphrase (`store::keylock`).
    #[serde(default)]
    pub passphrase_lock: bool,
    /// Seconds without progress before a call is abandoned.
    pub timeout_secs: u32,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            enabled: false,
            designer: Endpoint::default(),
            separate_critic: false,
            critic: Endpoint::default(),
            remember_keys: false,
            passphrase_lock: false,
            timeout_secs: DEFAULT_TIMEOUT_SECS,
        }
    }
}

/// The keys, stored only when the user asked to remember them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct StoredKeys {
    #[serde(default)]
    pub designer: String,
    #[serde(default)]
    pub critic: String,
}

impl LlmSettings {
    /// The endpoint designs and plans go to, when usable.
    pub fn designer_config(&self) -> Option<ProviderConfig> {
        if !self.enabled {
            return None;
        }
        self.designer.config()
    }

    /// The endpoint critiques go to: the critic's when separate, else the designer's.
    pub fn critic_config(&self) -> Option<ProviderConfig> {
        if !self.enabled {
            return None;
        }
        if self.separate_critic {
            self.critic.config()
        } else {
            self.designer.config()
        }
    }

    /// The call timeout in milliseconds (at least 1 s).
    pub fn timeout_ms(&self) -> u32 {
        self.timeout_secs.max(1).saturating_mul(1000)
    }

    /// What to store: the settings without keys, and the keys in the clear only if
    /// remembered without a passphrase (sealed keys are stored by `store::keylock`).
    pub fn to_storage(&self) -> (String, Option<String>) {
        let settings = serde_json::to_string(self).unwrap_or_default();
        let keys = (self.remember_keys && !self.passphrase_lock).then(|| {
            serde_json::to_string(&StoredKeys { designer: self.designer.key.clone(), critic: self.critic.key.clone() })
                .unwrap_or_default()
        });
        (settings, keys)
    }

    /// Settings read back from storage; anything unreadable gives the defaults.
    pub fn from_storage(settings: Option<&str>, keys: Option<&str>) -> LlmSettings {
        let mut out: LlmSettings = settings.and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        if let Some(keys) = keys.and_then(|k| serde_json::from_str::<StoredKeys>(k).ok()) {
            out.designer.key = keys.designer;
            out.critic.key = keys.critic;
        }
        out
    }
}

/// How the keys are kept when settings are saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPlan {
    /// Nothing stored: no keys in the clear and no sealed record.
    MemoryOnly,
    /// Stored in the clear (remembered, no passphrase); any sealed record removed.
    Plain,
    /// Sealed with a new passphrase (a new salt).
    SealNew,
    /// Sealed again with the passphrase unlocked this visit (a fresh IV).
    SealAgain,
    /// A sealed record that is not unlocked stays as it is.
    LeaveLocked,
}

/// What is stored now, as far as choosing a plan goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealedState {
    /// No sealed record.
    None,
    /// A sealed record this visit has not opened (or cannot read).
    Locked,
    /// A sealed record unlocked (or made) this visit.
    Open,
}

/// Why the keys cannot be stored as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanError {
    /// The passphrase and its confirmation differ.
    PassphrasesDiffer,
    /// Keys to seal and no passphrase.
    PassphraseNeeded,
    /// A passphrase shorter than `MIN_PASSPHRASE_CHARS`.
    PassphraseTooShort,
}

/// The shortest passphrase accepted.
pub const MIN_PASSPHRASE_CHARS: usize = 8;

impl PlanError {
    /// What to tell the user, in `lang`.
    pub fn message(self, lang: crate::engine::lang::Lang) -> &'static str {
        match self {
            PlanError::PassphrasesDiffer => lang.pick(
                "두 암호가 다릅니다. 같은 암호를 두 번 입력하세요.",
                "The two passphrases differ: type the same one twice.",
            ),
            PlanError::PassphraseNeeded => lang.pick(
                "키를 암호화하려면 암호를 입력하세요(또는 암호 보호를 끄세요).",
                "Enter a passphrase to encrypt the keys (or untick the passphrase option).",
            ),
            PlanError::PassphraseTooShort => {
                lang.pick("암호는 8자 이상이어야 합니다.", "The passphrase needs at least 8 characters.")
            }
        }
    }
}

impl LlmSettings {
    /// True when some key is set.
    pub fn has_keys(&self) -> bool {
        !self.designer.key.trim().is_empty() || !self.critic.key.trim().is_empty()
    }

    /// How saving these settings keeps the keys, given what is stored (`sealed`) and the
    /// passphrase fields of the dialog (empty: unchanged).
    pub fn key_plan(&self, sealed: SealedState, passphrase: &str, confirm: &str) -> Result<KeyPlan, PlanError> {
        if sealed == SealedState::Locked {
            return Ok(KeyPlan::LeaveLocked);
        }
        if !self.remember_keys {
            return Ok(KeyPlan::MemoryOnly);
        }
        if !self.passphrase_lock {
            return Ok(KeyPlan::Plain);
        }
        if !passphrase.is_empty() || !confirm.is_empty() {
            if passphrase != confirm {
                return Err(PlanError::PassphrasesDiffer);
            }
            if passphrase.chars().count() < MIN_PASSPHRASE_CHARS {
                return Err(PlanError::PassphraseTooShort);
            }
            return Ok(KeyPlan::SealNew);
        }
        match (sealed, self.has_keys()) {
            (SealedState::Open, _) => Ok(KeyPlan::SealAgain),
            (_, false) => Ok(KeyPlan::MemoryOnly),
            (_, true) => Err(PlanError::PassphraseNeeded),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn configured() -> LlmSettings {
        LlmSettings {
            enabled: true,
            designer: Endpoint {
                kind: ProviderKind::OpenAi,
                base_url: String::new(),
                model: "gpt-4o-mini".into(),
                key: "sk-secret-1".into(),
            },
            separate_critic: true,
            critic: Endpoint {
                kind: ProviderKind::Anthropic,
                base_url: String::new(),
                model: "claude-x".into(),
                key: "sk-ant-2".into(),
            },
            remember_keys: false,
            passphrase_lock: false,
            timeout_secs: 30,
        }
    }

    #[test]
    fn keys_are_not_stored_unless_remembered() {
        let s = configured();
        let (settings, keys) = s.to_storage();
        assert!(!settings.contains("sk-secret-1") && !settings.contains("sk-ant-2"));
        assert_eq!(keys, None);
        let back = LlmSettings::from_storage(Some(&settings), None);
        assert_eq!(back.designer.model, "gpt-4o-mini");
        assert!(back.designer.key.is_empty(), "a reload without remembered keys has no key");
    }

    #[test]
    fn remembered_keys_come_back() {
        let s = LlmSettings { remember_keys: true, ..configured() };
        let (settings, keys) = s.to_storage();
        assert!(!settings.contains("sk-secret-1"), "keys are kept apart from the settings");
        let back = LlmSettings::from_storage(Some(&settings), keys.as_deref());
        assert_eq!(back, s);
    }

    #[test]
    fn debug_output_never_shows_keys() {
        let text = format!("{:?}", configured());
        assert!(!text.contains("sk-secret-1") && !text.contains("sk-ant-2"));
        assert!(text.contains("<redacted>"));
    }

    #[test]
    fn roles_get_their_endpoints_and_nothing_when_disabled_or_incomplete() {
        let s = configured();
        assert_eq!(s.designer_config().unwrap().kind, ProviderKind::OpenAi);
        assert_eq!(s.critic_config().unwrap().kind, ProviderKind::Anthropic);
        let same = LlmSettings { separate_critic: false, ..configured() };
        assert_eq!(same.critic_config().unwrap().kind, ProviderKind::OpenAi);
        let off = LlmSettings { enabled: false, ..configured() };
        assert!(off.designer_config().is_none() && off.critic_config().is_none());
        let mut keyless = configured();
        keyless.designer.key.clear();
        assert!(keyless.designer_config().is_none(), "OpenAI needs a key");
        let mut local = configured();
        local.designer = Endpoint {
            kind: ProviderKind::OpenAiCompatible,
            base_url: "http://127.0.0.1:8080".into(),
            model: "llama".into(),
            key: String::new(),
        };
        assert!(local.designer_config().is_some(), "a local server needs no key");
    }

    #[test]
    fn keys_sealed_with_a_passphrase_are_never_stored_in_the_clear() {
        let s = LlmSettings { remember_keys: true, passphrase_lock: true, ..configured() };
        let (settings, keys) = s.to_storage();
        assert_eq!(keys, None);
        assert!(!settings.contains("sk-secret-1") && settings.contains("\"passphrase_lock\":true"));
        let back = LlmSettings::from_storage(Some(&settings), None);
        assert!(back.remember_keys && back.passphrase_lock && back.designer.key.is_empty());
        // Settings saved before the option existed read as "no passphrase".
        let old = settings.replace(",\"passphrase_lock\":true", "");
        assert!(!LlmSettings::from_storage(Some(&old), None).passphrase_lock);
    }

    #[test]
    fn the_key_plan_follows_the_choices_and_what_is_stored() {
        use KeyPlan::*;
        use PlanError::*;
        use SealedState::{Locked, Open};
        let none = SealedState::None;
        let (long, other) = ("correct horse", "correct hoarse");
        // (remember, passphrase option, has keys, stored, passphrase, confirm, plan)
        type Case<'a> = (bool, bool, bool, SealedState, &'a str, &'a str, Result<KeyPlan, PlanError>);
        let cases: [Case; 13] = [
            (false, false, true, none, "", "", Ok(MemoryOnly)),
            (false, true, true, Open, long, long, Ok(MemoryOnly)),
            (true, false, true, none, "", "", Ok(Plain)),
            (true, false, true, Open, "", "", Ok(Plain)),
            (true, true, true, none, long, long, Ok(SealNew)),
            (true, true, true, Open, long, long, Ok(SealNew)),
            (true, true, true, Open, "", "", Ok(SealAgain)),
            (true, true, false, none, "", "", Ok(MemoryOnly)),
            (true, true, true, none, "", "", Err(PassphraseNeeded)),
            (true, true, true, none, long, other, Err(PassphrasesDiffer)),
            (true, true, true, none, long, "", Err(PassphrasesDiffer)),
            (true, true, true, none, "short", "short", Err(PassphraseTooShort)),
            (false, false, true, Locked, "", "", Ok(LeaveLocked)),
        ];
        for (remember, lock, keys, stored, pass, confirm, want) in cases {
            let mut s = LlmSettings { remember_keys: remember, passphrase_lock: lock, ..configured() };
            if !keys {
                s.designer.key.clear();
                s.critic.key.clear();
            }
            assert_eq!(s.key_plan(stored, pass, confirm), want, "{remember} {lock} {keys} {stored:?} {pass:?}");
        }
    }

    #[test]
    fn plan_errors_are_worded_in_both_languages() {
        use crate::engine::lang::Lang;
        for e in [PlanError::PassphrasesDiffer, PlanError::PassphraseNeeded, PlanError::PassphraseTooShort] {
            assert_ne!(e.message(Lang::Ko), e.message(Lang::En));
        }
    }

    #[test]
    fn unreadable_storage_gives_defaults() {
        assert_eq!(LlmSettings::from_storage(Some("{not json"), Some("[]")), LlmSettings::default());
        assert_eq!(LlmSettings::from_storage(None, None), LlmSettings::default());
    }
}
