//! The settings dialog: provider, base URL, model (from the server's list when it has
//! one), key, an optional separate critic, and a connection test with a clear result.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::i18n::{strings, tr, Strings};
use super::shell::Shell;
use super::unlock::{focus_later, key_strings, kt, ForgetButton, KeyStatus, UnlockForm};
use crate::engine::lang::Lang;
use crate::engine::prompt::Prompt;
use crate::llm::transport::{list_models, run_chat, CallControl, CallOptions};
use crate::llm::{failure_message, ProviderKind, RetryPolicy};
use crate::store::settings::{Endpoint, KeyPlan, LlmSettings};

/// Which endpoint an editor changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Designer,
    Critic,
}

fn endpoint(s: &LlmSettings, which: Which) -> &Endpoint {
    match which {
        Which::Designer => &s.designer,
        Which::Critic => &s.critic,
    }
}

fn endpoint_mut(s: &mut LlmSettings, which: Which) -> &mut Endpoint {
    match which {
        Which::Designer => &mut s.designer,
        Which::Critic => &mut s.critic,
    }
}

/// The dialog; edits a draft and applies it on Save.
#[component]
pub fn SettingsDialog(open: RwSignal<bool>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let draft = RwSignal::new(shell.llm.get_untracked());
    let rounds = RwSignal::new(shell.session.with_untracked(|s| s.settings.clone()));
    let save_error = RwSignal::new(None::<String>);
    // The passphrase fields: never stored, cleared on every opening and after a save.
    let passphrase = RwSignal::new(String::new());
    let confirm = RwSignal::new(String::new());
    let sealing = RwSignal::new(false);
    // Each opening starts from the settings in use.
    Effect::new(move |_| {
        if open.get() {
            draft.set(shell.llm.get_untracked());
            rounds.set(shell.session.with_untracked(|s| s.settings.clone()));
            save_error.set(None);
            passphrase.set(String::new());
            confirm.set(String::new());
        }
    });
    let close = move || open.set(false);
    let on_keydown = super::modal::use_modal(".dialog.settings", move || open.get(), close, || None);
    let save = move || {
        if sealing.get_untracked() {
            return;
        }
        let lang = shell.ui_lang.get_untracked();
        let settings = draft.get_untracked();
        let pass = passphrase.get_untracked();
        let plan = match settings.key_plan(shell.keys.sealed_state(), &pass, &confirm.get_untracked()) {
            Ok(plan) => plan,
            Err(e) => {
                save_error.set(Some(e.message(lang).to_string()));
                return;
            }
        };
        save_error.set(None);
        let finish = move |settings: LlmSettings| {
            passphrase.set(String::new());
            confirm.set(String::new());
            let llm = shell.apply_llm_settings(settings);
            let discussion = shell.apply_session_settings(rounds.get_untracked());
            match llm.and(discussion) {
                Ok(()) => close(),
                Err(e) => save_error.set(Some(e)),
            }
        };
        match plan {
            KeyPlan::SealNew | KeyPlan::SealAgain => {
                // Deriving the key takes a moment (600,000 PBKDF2 rounds): the dialog stays
                // open, says so, and ignores further saves until it is done.
                sealing.set(true);
                spawn_local(async move {
                    let sealed = shell.keys.seal(plan, &settings, &pass).await;
                    sealing.set(false);
                    match sealed {
                        Ok(()) => finish(settings),
                        Err(e) => save_error.set(Some(e.message(lang))),
                    }
                });
            }
            KeyPlan::LeaveLocked => finish(settings),
            KeyPlan::MemoryOnly | KeyPlan::Plain => match shell.keys.drop_record() {
                Ok(()) => finish(settings),
                Err(e) => save_error.set(Some(e.message(lang))),
            },
        }
    };
    let on_enter = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" {
            ev.prevent_default();
            save();
        }
    };
    // After an unlock or a forget in the dialog, the draft takes the keys and choice in use.
    let vault_changed = Callback::new(move |()| {
        let llm = shell.llm.get_untracked();
        draft.update(|d| {
            d.designer.key = llm.designer.key.clone();
            d.critic.key = llm.critic.key.clone();
            d.remember_keys = llm.remember_keys;
        });
        focus_later("remember-keys");
    });
    let locked = move || shell.keys.is_locked();
    // Something stored to forget: a sealed record (open or not), or keys in the clear.
    let forget_offered =
        move || shell.keys.status.with(|s| *s != KeyStatus::None) || shell.llm.with(|l| l.remember_keys);
    view! {
        <Show when=move || open.get()>
            <div class="dialog-backdrop" on:click=move |_| close()></div>
            <div
                class="dialog settings"
                role="dialog"
                aria-modal="true"
                aria-labelledby="settings-title"
                on:keydown=on_keydown
            >
                <h2 id="settings-title">{tr(shell.ui_lang, |s| s.settings_title)}</h2>
                <CheckField
                    id="llm-enabled"
                    label=|s| s.use_llm
                    get=move || draft.with(|d| d.enabled)
                    set=move |on| draft.update(|d| d.enabled = on)
                />
                <p class="hint">{tr(shell.ui_lang, |s| s.use_llm_hint)}</p>
                <fieldset class="endpoint" prop:disabled=move || !draft.with(|d| d.enabled)>
                    <legend>{tr(shell.ui_lang, |s| s.designer_title)}</legend>
                    <EndpointEditor draft which=Which::Designer />
                </fieldset>
                <CheckField
                    id="separate-critic"
                    label=|s| s.separate_critic
                    get=move || draft.with(|d| d.separate_critic)
                    set=move |on| draft.update(|d| d.separate_critic = on)
                />
                <Show when=move || draft.with(|d| d.separate_critic)>
                    <fieldset class="endpoint" prop:disabled=move || !draft.with(|d| d.enabled)>
                        <legend>{tr(shell.ui_lang, |s| s.critic_title)}</legend>
                        <EndpointEditor draft which=Which::Critic />
                    </fieldset>
                </Show>
                <fieldset class="endpoint key-storage" prop:disabled=locked>
                    <legend>{kt(shell.ui_lang, |s| s.storage_title)}</legend>
                    <CheckField
                        id="remember-keys"
                        label=|s| s.remember_keys
                        get=move || draft.with(|d| d.remember_keys)
                        set=move |on| draft.update(|d| d.remember_keys = on)
                    />
                    <Show when=move || draft.with(|d| d.remember_keys)>
                        <label class="check">
                            <input
                                type="checkbox"
                                id="passphrase-lock"
                                prop:checked=move || draft.with(|d| d.passphrase_lock)
                                on:change=move |ev| draft.update(|d| d.passphrase_lock = event_target_checked(&ev))
                            />
                            {kt(shell.ui_lang, |s| s.passphrase_lock)}
                        </label>
                        <Show when=move || draft.with(|d| d.passphrase_lock) && !locked()>
                            <label class="field-row">
                                <span>{kt(shell.ui_lang, |s| s.passphrase)}</span>
                                <input
                                    type="password"
                                    id="passphrase"
                                    autocomplete="new-password"
                                    spellcheck="false"
                                    aria-describedby="passphrase-hint"
                                    prop:value=move || passphrase.get()
                                    on:input=move |ev| passphrase.set(event_target_value(&ev))
                                    on:keydown=on_enter
                                />
                            </label>
                            <label class="field-row">
                                <span>{kt(shell.ui_lang, |s| s.passphrase_confirm)}</span>
                                <input
                                    type="password"
                                    id="passphrase-confirm"
                                    autocomplete="new-password"
                                    spellcheck="false"
                                    prop:value=move || confirm.get()
                                    on:input=move |ev| confirm.set(event_target_value(&ev))
                                    on:keydown=on_enter
                                />
                            </label>
                            <p class="hint" id="passphrase-hint">
                                {move || {
                                    let t = key_strings(shell.ui_lang.get());
                                    if shell.keys.status.get() == KeyStatus::Open { t.passphrase_hint_change } else { t.passphrase_hint_new }
                                }}
                            </p>
                        </Show>
                    </Show>
                    <p class="hint">{tr(shell.ui_lang, |s| s.remember_note)}</p>
                </fieldset>
                <div class="key-lock-state">
                    {move || shell.keys.status.with(|s| match s {
                        KeyStatus::Unreadable(e) => Some(view! { <p class="error" role="alert">{e.message(shell.ui_lang.get())}</p> }),
                        _ => None,
                    })}
                    <Show
                        when=move || shell.keys.status.with(|s| *s == KeyStatus::Locked)
                        fallback=move || view! {
                            <Show when=forget_offered><ForgetButton place="settings" on_done=vault_changed /></Show>
                        }
                    >
                        <p class="hint">{kt(shell.ui_lang, |s| s.locked_note)}</p>
                        <UnlockForm place="settings" on_done=vault_changed />
                    </Show>
                </div>
                <NumberField
                    id="llm-timeout"
                    label=|s| s.timeout
                    range=(5, 600)
                    get=move || draft.with(|d| d.timeout_secs)
                    set=move |secs| draft.update(|d| d.timeout_secs = secs)
                />
                // Common to every mode: the model's window bounds every prompt.
                <NumberField
                    id="context-window"
                    label=|s| s.context_window
                    range=(0, 2_000_000)
                    get=move || rounds.with(|r| r.common.context_window.unwrap_or(0))
                    set=move |n| rounds.update(|r| r.common.context_window = (n >= 256).then_some(n))
                />
                <fieldset class="endpoint discussion-settings">
                    <legend>{tr(shell.ui_lang, |s| s.discussion_title)}</legend>
                    <NumberField
                        id="max-rounds"
                        label=|s| s.max_rounds
                        range=(1, 10)
                        get=move || rounds.with(|r| r.discussion.max_rounds)
                        set=move |n| rounds.update(|r| r.discussion.max_rounds = n)
                    />
                    <NumberField
                        id="alignment-rounds"
                        label=|s| s.alignment_rounds
                        range=(1, 5)
                        get=move || rounds.with(|r| r.discussion.alignment_limit())
                        set=move |n| rounds.update(|r| r.discussion.alignment_rounds = n)
                    />
                    <CheckField
                        id="strict-mode"
                        label=|s| s.strict_mode
                        get=move || rounds.with(|r| r.discussion.strict)
                        set=move |on| rounds.update(|r| r.discussion.strict = on)
                    />
                    <p class="hint">{tr(shell.ui_lang, |s| s.rounds_note)}</p>
                </fieldset>
                <fieldset class="endpoint chat-settings">
                    <legend>{tr(shell.ui_lang, |s| s.chat_settings_title)}</legend>
                    <NumberField
                        id="chat-max-turns"
                        label=|s| s.chat_max_turns
                        range=(1, 100)
                        get=move || rounds.with(|r| r.chat.max_turns)
                        set=move |n| rounds.update(|r| r.chat.max_turns = n)
                    />
                </fieldset>
                {move || save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <div class="dialog-actions">
                    <button class="button" type="button" on:click=move |_| close()>{tr(shell.ui_lang, |s| s.cancel)}</button>
                    <button class="button primary" type="button" id="settings-save" aria-busy=move || sealing.get().to_string() on:click=move |_| save()>
                        {move || if sealing.get() { key_strings(shell.ui_lang.get()).sealing } else { strings(shell.ui_lang.get()).save }}
                    </button>
                </div>
            </div>
        </Show>
    }
}

/// A labelled checkbox bound to one flag of a draft.
#[component]
fn CheckField(
    id: &'static str,
    label: fn(&Strings) -> &'static str,
    get: impl Fn() -> bool + Send + Sync + 'static,
    set: impl Fn(bool) + 'static,
) -> impl IntoView {
    let shell = expect_context::<Shell>();
    view! {
        <label class="check">
            <input type="checkbox" id=id prop:checked=get on:change=move |ev| set(event_target_checked(&ev)) />
            {tr(shell.ui_lang, label)}
        </label>
    }
}

/// A labelled whole-number input bound to one field of a draft. What the user
/// types is clamped to `range`; text that is not a number changes nothing.
#[component]
fn NumberField(
    id: &'static str,
    label: fn(&Strings) -> &'static str,
    range: (u32, u32),
    get: impl Fn() -> u32 + Send + Sync + 'static,
    set: impl Fn(u32) + 'static,
) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let (lo, hi) = range;
    view! {
        <label class="field-row">
            <span>{tr(shell.ui_lang, label)}</span>
            <input
                type="number"
                id=id
                min=lo
                max=hi
                prop:value=move || get().to_string()
                on:change=move |ev| {
                    if let Ok(n) = event_target_value(&ev).trim().parse::<u32>() {
                        set(n.clamp(lo, hi));
                    }
                }
            />
        </label>
    }
}

/// Provider, base URL, model, key and the connection test of one endpoint.
#[component]
fn EndpointEditor(draft: RwSignal<LlmSettings>, which: Which) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let prefix = match which {
        Which::Designer => "designer",
        Which::Critic => "critic",
    };
    let get = move |f: fn(&Endpoint) -> String| draft.with(|d| f(endpoint(d, which)));
    let models = RwSignal::new(Vec::<String>::new());
    let status = RwSignal::new(None::<(bool, String)>);
    let show_key = RwSignal::new(false);
    let datalist = format!("{prefix}-models");

    let load_models = move |_| {
        let Some(cfg) = draft.with_untracked(|d| endpoint(d, which).config_for_listing()) else {
            return;
        };
        let lang = shell.ui_lang.get_untracked();
        status.set(Some((true, strings(lang).loading.to_string())));
        spawn_local(async move {
            match list_models(&cfg, 15_000).await {
                Ok(list) => {
                    let n = list.len();
                    models.set(list);
                    status.set(Some((true, models_loaded(n, lang))));
                }
                Err(f) => status.set(Some((false, failure_message(&f, lang, &cfg)))),
            }
        });
    };
    let test_connection = move |_| {
        let lang = shell.ui_lang.get_untracked();
        let Some(cfg) = draft.with_untracked(|d| endpoint(d, which).config()) else {
            status.set(Some((false, strings(lang).incomplete.to_string())));
            return;
        };
        status.set(Some((true, strings(lang).testing.to_string())));
        spawn_local(async move {
            let prompt = Prompt::single("Reply with the single word OK.", "ping").with_max_tokens(16);
            let control = CallControl::new();
            let opts =
                CallOptions { timeout_ms: 20_000, retry: RetryPolicy { max_retries: 0, ..RetryPolicy::default() } };
            let started = js_sys::Date::now();
            match run_chat(&cfg, &prompt, false, opts, &control, &|_| {}).await {
                Ok(done) => {
                    let ms = (js_sys::Date::now() - started) as u64;
                    status.set(Some((true, connected(&done.model, ms, lang))));
                }
                Err(f) => status.set(Some((false, failure_message(&f, lang, &cfg)))),
            }
        });
    };

    view! {
        <label class="field-row">
            <span>{tr(shell.ui_lang, |s| s.provider)}</span>
            <select
                id=format!("{prefix}-kind")
                prop:value=move || draft.with(|d| endpoint(d, which).kind.name())
                on:change=move |ev| draft.update(|d| endpoint_mut(d, which).kind = ProviderKind::from_name(&event_target_value(&ev)).unwrap_or(ProviderKind::OpenAi))
            >
                <option value="openai">"OpenAI"</option>
                <option value="anthropic">"Anthropic"</option>
                <option value="openai_compatible">{tr(shell.ui_lang, |s| s.compatible)}</option>
            </select>
        </label>
        <label class="field-row">
            <span>{tr(shell.ui_lang, |s| s.base_url)}</span>
            <input
                type="url"
                id=format!("{prefix}-base-url")
                placeholder=move || draft.with(|d| endpoint(d, which).kind.default_base_url())
                prop:value=move || get(|e| e.base_url.clone())
                on:input=move |ev| draft.update(|d| endpoint_mut(d, which).base_url = event_target_value(&ev))
            />
        </label>
        <label class="field-row">
            <span>{tr(shell.ui_lang, |s| s.model)}</span>
            <input
                type="text"
                id=format!("{prefix}-model")
                list=datalist.clone()
                autocomplete="off"
                prop:value=move || get(|e| e.model.clone())
                on:input=move |ev| draft.update(|d| endpoint_mut(d, which).model = event_target_value(&ev))
            />
            <button class="button" type="button" on:click=load_models>{tr(shell.ui_lang, |s| s.load_models)}</button>
        </label>
        <datalist id=datalist>
            // Filled once per "load models": a plain list, no keyed diffing needed.
            {move || models.get().into_iter().map(|m| view! { <option value=m></option> }).collect_view()}
        </datalist>
        <label class="field-row">
            <span>{tr(shell.ui_lang, |s| s.api_key)}</span>
            <input
                type=move || if show_key.get() { "text" } else { "password" }
                id=format!("{prefix}-key")
                autocomplete="off"
                spellcheck="false"
                placeholder=move || if draft.with(|d| endpoint(d, which).kind) == ProviderKind::OpenAiCompatible { t().key_optional } else { "" }
                prop:value=move || get(|e| e.key.clone())
                on:input=move |ev| draft.update(|d| endpoint_mut(d, which).key = event_target_value(&ev))
            />
            <button class="button" type="button" on:click=move |_| show_key.update(|s| *s = !*s)>
                {move || if show_key.get() { t().hide_key } else { t().show_key }}
            </button>
        </label>
        <p class="hint">{tr(shell.ui_lang, |s| s.key_note)}</p>
        <div class="test-row">
            <button class="button" type="button" id=format!("{prefix}-test") on:click=test_connection>
                {tr(shell.ui_lang, |s| s.test_connection)}
            </button>
            {move || status.get().map(|(ok, text)| view! {
                <span class=if ok { "test-result ok" } else { "test-result fail" } role="status">{text}</span>
            })}
        </div>
    }
}

fn models_loaded(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Ko => format!("모델 {n}개를 불러왔습니다."),
        Lang::En => format!("Loaded {n} models."),
    }
}

fn connected(model: &str, ms: u64, lang: Lang) -> String {
    match lang {
        Lang::Ko => format!("연결됨: {model} 모델이 {ms} ms 만에 답했습니다."),
        Lang::En => format!("Connected: {model} answered in {ms} ms."),
    }
}
