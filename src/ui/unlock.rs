//! Keys sealed with a passphrase: what this visit knows of them (`KeyVault`), the small
//! prompt that asks for the passphrase once per visit (it blocks nothing: the app runs on
//! heuristics meanwhile), and "Forget saved keys", here and in Settings.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::i18n::strings;
use super::shell::Shell;
use crate::engine::lang::Lang;
use crate::store::keylock::{load_record, remove_record, store_record, KeyLock, LockError, LockedKeys, RecordError};
use crate::store::settings::{KeyPlan, LlmSettings, SealedState, StoredKeys};

/// What is stored of the sealed keys, and whether this visit opened them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyStatus {
    /// No sealed record.
    None,
    /// A sealed record not opened yet.
    Locked,
    /// Opened (or sealed) this visit: the keys are in memory.
    Open,
    /// A record that cannot be read; kept until the user forgets it.
    Unreadable(RecordError),
}

/// The sealed keys of this visit: the record, and once unlocked the derived key (never
/// the passphrase) that seals them again on the next save.
#[derive(Clone, Copy)]
pub struct KeyVault {
    /// What is stored and whether it is open.
    pub status: RwSignal<KeyStatus>,
    /// The prompt was put away for this visit ("Not now").
    pub prompt_closed: RwSignal<bool>,
    record: StoredValue<Option<LockedKeys>>,
    lock: StoredValue<Option<KeyLock>, LocalStorage>,
}

impl KeyVault {
    /// The vault as the last visit left it.
    pub fn load() -> KeyVault {
        let (status, record) = match load_record() {
            None => (KeyStatus::None, None),
            Some(Ok(record)) => (KeyStatus::Locked, Some(record)),
            Some(Err(e)) => (KeyStatus::Unreadable(e), None),
        };
        KeyVault {
            status: RwSignal::new(status),
            prompt_closed: RwSignal::new(false),
            record: StoredValue::new(record),
            lock: StoredValue::new_local(None),
        }
    }

    /// True while a stored record is not open (locked or unreadable).
    pub fn is_locked(&self) -> bool {
        self.status.with(|s| matches!(s, KeyStatus::Locked | KeyStatus::Unreadable(_)))
    }

    /// What is stored, for choosing how a save keeps the keys.
    pub fn sealed_state(&self) -> SealedState {
        match self.status.get_untracked() {
            KeyStatus::None => SealedState::None,
            KeyStatus::Open => SealedState::Open,
            KeyStatus::Locked | KeyStatus::Unreadable(_) => SealedState::Locked,
        }
    }

    /// Opens the stored record with `passphrase` (at the count stored with it) and puts
    /// its keys in use.
    pub async fn unlock(self, shell: Shell, passphrase: String) -> Result<(), LockError> {
        let record = self.record.get_value().ok_or(LockError::Record(RecordError::NotJson))?;
        let (lock, keys) = KeyLock::unlock(&record, &passphrase).await?;
        shell.llm.update(|l| {
            if !keys.designer.is_empty() {
                l.designer.key = keys.designer;
            }
            if !keys.critic.is_empty() {
                l.critic.key = keys.critic;
            }
        });
        self.lock.set_value(Some(lock));
        self.status.set(KeyStatus::Open);
        Ok(())
    }

    /// Removes every stored key (sealed or not) and stops remembering keys; the keys in
    /// memory stay for this visit.
    pub fn forget(self, shell: Shell) -> Result<(), LockError> {
        self.drop_record()?;
        let mut llm = shell.llm.get_untracked();
        llm.remember_keys = false;
        shell.apply_llm_settings(llm).map_err(|_| LockError::Storage)
    }

    /// Removes the sealed record, if any (keys kept in the clear or not at all).
    pub fn drop_record(self) -> Result<(), LockError> {
        remove_record()?;
        self.record.set_value(None);
        self.lock.set_value(None);
        self.status.set(KeyStatus::None);
        Ok(())
    }

    /// Seals the keys of `settings` and stores the record (the settings themselves are
    /// stored by the caller): `SealNew` with `passphrase` and a new salt, `SealAgain` with
    /// the key of this visit; either way with a fresh IV. Other plans store nothing here.
    pub async fn seal(self, plan: KeyPlan, settings: &LlmSettings, passphrase: &str) -> Result<(), LockError> {
        let lock = match plan {
            KeyPlan::SealNew => KeyLock::new(passphrase).await?,
            KeyPlan::SealAgain => self.lock.get_value().ok_or(LockError::Crypto)?,
            KeyPlan::MemoryOnly | KeyPlan::Plain | KeyPlan::LeaveLocked => return Ok(()),
        };
        let keys = StoredKeys { designer: settings.designer.key.clone(), critic: settings.critic.key.clone() };
        let sealed = lock.seal(&keys).await?;
        store_record(&sealed)?;
        self.record.set_value(Some(sealed));
        self.lock.set_value(Some(lock));
        self.status.set(KeyStatus::Open);
        Ok(())
    }
}

/// The strings of the sealed keys, in one language.
pub struct KeyStrings {
    pub storage_title: &'static str,
    pub passphrase_lock: &'static str,
    pub passphrase: &'static str,
    pub passphrase_confirm: &'static str,
    pub passphrase_hint_new: &'static str,
    pub passphrase_hint_change: &'static str,
    pub locked_note: &'static str,
    pub prompt_title: &'static str,
    pub prompt_body: &'static str,
    pub unlock_label: &'static str,
    pub unlock: &'static str,
    pub unlocking: &'static str,
    pub unlocked: &'static str,
    pub not_now: &'static str,
    pub forget: &'static str,
    pub forget_confirm: &'static str,
    pub forget_yes: &'static str,
    pub forgotten: &'static str,
    pub sealing: &'static str,
}

const KEYS_KO: KeyStrings = KeyStrings {
    storage_title: "이 기기에 키 보관",
    passphrase_lock: "암호로 암호화해서 저장",
    passphrase: "암호",
    passphrase_confirm: "암호 확인",
    passphrase_hint_new: "8자 이상. 암호 자체는 어디에도 저장되지 않습니다. 잊으면 저장된 키를 열 수 없으니, 저장된 키를 지우고 키를 다시 입력하세요.",
    passphrase_hint_change: "비워 두면 지금 암호를 그대로 씁니다. 새 암호를 입력하면 그 암호로 다시 암호화합니다.",
    locked_note: "저장된 키가 잠겨 있습니다. 잠금을 풀거나 지워야 키 보관 방식을 바꿀 수 있습니다.",
    prompt_title: "저장된 API 키가 잠겨 있습니다",
    prompt_body: "키는 이 기기에 암호화되어 있습니다. 이번 방문에 쓰려면 암호를 입력하세요. 그때까지 앱은 키 없이(휴리스틱으로) 동작합니다.",
    unlock_label: "저장된 키의 암호",
    unlock: "잠금 해제",
    unlocking: "푸는 중…",
    unlocked: "저장된 키의 잠금을 풀었습니다. 이번 방문 동안 메모리에만 있습니다.",
    not_now: "나중에",
    forget: "저장된 키 지우기",
    forget_confirm: "이 기기에 저장된 키를 지울까요? 되돌릴 수 없습니다. 지금 메모리에 있는 키는 이 페이지를 닫을 때까지 남습니다.",
    forget_yes: "지우기",
    forgotten: "저장된 키를 이 기기에서 지웠습니다.",
    sealing: "암호화하는 중…",
};

const KEYS_EN: KeyStrings = KeyStrings {
    storage_title: "Keys on this device",
    passphrase_lock: "Encrypt them with a passphrase",
    passphrase: "Passphrase",
    passphrase_confirm: "Confirm passphrase",
    passphrase_hint_new: "At least 8 characters. The passphrase itself is never stored: if you forget it, the saved keys cannot be opened; forget them and enter the keys again.",
    passphrase_hint_change: "Leave empty to keep the current passphrase; a new one encrypts the keys again with it.",
    locked_note: "The saved keys are locked: unlock or forget them to change how keys are kept.",
    prompt_title: "Saved API keys are locked",
    prompt_body: "They are encrypted on this device. Enter your passphrase to use them this visit; until then the app works without them (heuristics).",
    unlock_label: "Passphrase for the saved keys",
    unlock: "Unlock",
    unlocking: "Unlocking…",
    unlocked: "Saved keys unlocked: they stay in memory for this visit.",
    not_now: "Not now",
    forget: "Forget saved keys",
    forget_confirm: "Remove the saved keys from this device? This cannot be undone. Keys in memory stay until this page closes.",
    forget_yes: "Forget",
    forgotten: "The saved keys were removed from this device.",
    sealing: "Encrypting…",
};

/// The sealed keys' strings of a language.
pub fn key_strings(lang: Lang) -> &'static KeyStrings {
    match lang {
        Lang::Ko => &KEYS_KO,
        Lang::En => &KEYS_EN,
    }
}

/// A reactive key string in the UI language.
pub fn kt(lang: RwSignal<Lang>, pick: fn(&KeyStrings) -> &'static str) -> impl Fn() -> &'static str + Copy + 'static {
    move || pick(key_strings(lang.get()))
}

/// Focuses the element with `id` after the next frame (once it is rendered).
pub(crate) fn focus_later(id: &'static str) {
    request_animation_frame(move || {
        if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

/// The passphrase field with Unlock (Enter submits) and "Forget saved keys". `place`
/// keeps ids apart; `on_done` runs after a successful unlock or forget.
#[component]
pub fn UnlockForm(place: &'static str, on_done: Callback<()>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let vault = shell.keys;
    let passphrase = RwSignal::new(String::new());
    // The message, in the language of the moment it was shown.
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let input_id = format!("{place}-unlock-passphrase");
    let error_id = format!("{place}-unlock-error");
    let focus_id: &'static str =
        if place == "prompt" { "prompt-unlock-passphrase" } else { "settings-unlock-passphrase" };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let pass = passphrase.get_untracked();
        if pass.is_empty() {
            focus_later(focus_id);
            return;
        }
        busy.set(true);
        error.set(None);
        spawn_local(async move {
            let result = vault.unlock(shell, pass).await;
            busy.set(false);
            match result {
                Ok(()) => {
                    passphrase.set(String::new());
                    on_done.run(());
                }
                Err(e) => {
                    error.set(Some(e.message(shell.ui_lang.get_untracked())));
                    focus_later(focus_id);
                }
            }
        });
    };
    let error_for_input = error_id.clone();
    view! {
        <form class="unlock-form" on:submit=submit>
            <label class="field-row">
                <span>{kt(shell.ui_lang, |s| s.unlock_label)}</span>
                <input
                    type="password"
                    id=input_id
                    autocomplete="current-password"
                    spellcheck="false"
                    aria-invalid=move || error.with(|e| e.is_some()).to_string()
                    aria-describedby=move || error.with(|e| e.is_some()).then(|| error_for_input.clone())
                    prop:value=move || passphrase.get()
                    on:input=move |ev| passphrase.set(event_target_value(&ev))
                />
            </label>
            <div class="unlock-actions">
                <button class="button primary" type="submit" id=format!("{place}-unlock") prop:disabled=move || busy.get()>
                    {move || if busy.get() { key_strings(shell.ui_lang.get()).unlocking } else { key_strings(shell.ui_lang.get()).unlock }}
                </button>
                <ForgetButton place on_done />
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert" id=error_id.clone()>{e}</p> })}
        </form>
    }
}

/// "Forget saved keys", with an inline confirmation; errors are shown in place.
#[component]
pub fn ForgetButton(place: &'static str, on_done: Callback<()>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let confirming = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let ask_id: &'static str = if place == "prompt" { "prompt-forget" } else { "settings-forget" };
    let yes_id: &'static str = if place == "prompt" { "prompt-forget-yes" } else { "settings-forget-yes" };
    let forget = move |_| match shell.keys.forget(shell) {
        Ok(()) => {
            confirming.set(false);
            on_done.run(());
        }
        Err(e) => error.set(Some(e.message(shell.ui_lang.get_untracked()))),
    };
    view! {
        <button
            class="button forget-keys"
            type="button"
            id=ask_id
            aria-expanded=move || confirming.get().to_string()
            on:click=move |_| {
                confirming.set(true);
                focus_later(yes_id);
            }
        >
            {kt(shell.ui_lang, |s| s.forget)}
        </button>
        <Show when=move || confirming.get()>
            <div class="forget-confirm" role="group" aria-labelledby=format!("{place}-forget-question")>
                <p id=format!("{place}-forget-question")>{kt(shell.ui_lang, |s| s.forget_confirm)}</p>
                <button class="button danger" type="button" id=yes_id on:click=forget>
                    {kt(shell.ui_lang, |s| s.forget_yes)}
                </button>
                <button
                    class="button"
                    type="button"
                    on:click=move |_| {
                        confirming.set(false);
                        focus_later(ask_id);
                    }
                >
                    {move || strings(shell.ui_lang.get()).cancel}
                </button>
            </div>
        </Show>
        {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}

/// Asks for the passphrase once per visit while saved keys are locked; says when they
/// were unlocked or forgotten (a polite status, no focus taken on load).
#[component]
pub fn UnlockPrompt() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let vault = shell.keys;
    let done = RwSignal::new(None::<fn(&KeyStrings) -> &'static str>);
    let after = Callback::new(move |()| {
        done.set(Some(if vault.status.get_untracked() == KeyStatus::Open { |s| s.unlocked } else { |s| s.forgotten }));
        focus_later("composer-input");
    });
    let shown = move || vault.is_locked() && !vault.prompt_closed.get();
    view! {
        <Show when=shown>
            <section class="alert unlock-prompt" aria-labelledby="unlock-title">
                <h2 id="unlock-title">{kt(shell.ui_lang, |s| s.prompt_title)}</h2>
                {move || match vault.status.get() {
                    KeyStatus::Unreadable(e) => view! {
                        <p class="error" role="alert">{move || e.message(shell.ui_lang.get())}</p>
                        <div class="unlock-actions"><ForgetButton place="prompt" on_done=after /></div>
                    }
                    .into_any(),
                    _ => view! {
                        <p>{kt(shell.ui_lang, |s| s.prompt_body)}</p>
                        <UnlockForm place="prompt" on_done=after />
                    }
                    .into_any(),
                }}
                <button class="button dismiss" type="button" on:click=move |_| {
                    vault.prompt_closed.set(true);
                    focus_later("composer-input");
                }>
                    {kt(shell.ui_lang, |s| s.not_now)}
                </button>
            </section>
        </Show>
        <p class="sr-only" role="status" id="keys-status">
            {move || done.get().map(|pick| pick(key_strings(shell.ui_lang.get())))}
        </p>
    }
}
