//! The settings dialog: provider, base URL, model (from the server's list when it has
//! one), key, an optional separate critic, and a connection test with a clear result.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::i18n::{strings, tr};
use super::shell::Shell;
use crate::engine::lang::Lang;
use crate::engine::prompt::Prompt;
use crate::llm::transport::{list_models, run_chat, CallControl, CallOptions};
use crate::llm::{failure_message, ProviderKind, RetryPolicy};
use crate::store::settings::{Endpoint, LlmSettings};

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

fn kind_value(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAi => "openai",
        ProviderKind::Anthropic => "anthropic",
        ProviderKind::OpenAiCompatible => "openai_compatible",
    }
}

fn kind_from_value(value: &str) -> ProviderKind {
    match value {
        "anthropic" => ProviderKind::Anthropic,
        "openai_compatible" => ProviderKind::OpenAiCompatible,
        _ => ProviderKind::OpenAi,
    }
}

/// The dialog; edits a draft and applies it on Save.
#[component]
pub fn SettingsDialog(open: RwSignal<bool>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let draft = RwSignal::new(shell.llm.get_untracked());
    let rounds = RwSignal::new(shell.session.with_untracked(|s| s.settings.clone()));
    let save_error = RwSignal::new(None::<String>);
    // Each opening starts from the settings in use.
    Effect::new(move |_| {
        if open.get() {
            draft.set(shell.llm.get_untracked());
            rounds.set(shell.session.with_untracked(|s| s.settings.clone()));
            save_error.set(None);
        }
    });
    let close = move || open.set(false);
    let save = move |_| {
        let llm = shell.apply_llm_settings(draft.get_untracked());
        let discussion = shell.apply_discussion_settings(rounds.get_untracked());
        match llm.and(discussion) {
            Ok(()) => close(),
            Err(e) => save_error.set(Some(e)),
        }
    };
    let number = move |value: &str, lo: u32, hi: u32| value.parse::<u32>().ok().map(|n| n.clamp(lo, hi));
    view! {
        <Show when=move || open.get()>
            <div class="dialog-backdrop" on:click=move |_| close()></div>
            <div
                class="dialog settings"
                role="dialog"
                aria-modal="true"
                aria-labelledby="settings-title"
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Escape" {
                        close();
                    }
                }
            >
                <h2 id="settings-title">{tr(shell.ui_lang, |s| s.settings_title)}</h2>
                <label class="check">
                    <input
                        type="checkbox"
                        id="llm-enabled"
                        prop:checked=move || draft.with(|d| d.enabled)
                        on:change=move |ev| draft.update(|d| d.enabled = event_target_checked(&ev))
                    />
                    {tr(shell.ui_lang, |s| s.use_llm)}
                </label>
                <p class="hint">{tr(shell.ui_lang, |s| s.use_llm_hint)}</p>
                <fieldset class="endpoint" prop:disabled=move || !draft.with(|d| d.enabled)>
                    <legend>{tr(shell.ui_lang, |s| s.designer_title)}</legend>
                    <EndpointEditor draft which=Which::Designer />
                </fieldset>
                <label class="check">
                    <input
                        type="checkbox"
                        id="separate-critic"
                        prop:checked=move || draft.with(|d| d.separate_critic)
                        on:change=move |ev| draft.update(|d| d.separate_critic = event_target_checked(&ev))
                    />
                    {tr(shell.ui_lang, |s| s.separate_critic)}
                </label>
                <Show when=move || draft.with(|d| d.separate_critic)>
                    <fieldset class="endpoint" prop:disabled=move || !draft.with(|d| d.enabled)>
                        <legend>{tr(shell.ui_lang, |s| s.critic_title)}</legend>
                        <EndpointEditor draft which=Which::Critic />
                    </fieldset>
                </Show>
                <label class="check">
                    <input
                        type="checkbox"
                        id="remember-keys"
                        prop:checked=move || draft.with(|d| d.remember_keys)
                        on:change=move |ev| draft.update(|d| d.remember_keys = event_target_checked(&ev))
                    />
                    {tr(shell.ui_lang, |s| s.remember_keys)}
                </label>
                <p class="hint">{tr(shell.ui_lang, |s| s.remember_note)}</p>
                <label class="field-row">
                    <span>{tr(shell.ui_lang, |s| s.timeout)}</span>
                    <input
                        type="number"
                        id="llm-timeout"
                        min="5"
                        max="600"
                        prop:value=move || draft.with(|d| d.timeout_secs.to_string())
                        on:change=move |ev| {
                            if let Ok(secs) = event_target_value(&ev).parse::<u32>() {
                                draft.update(|d| d.timeout_secs = secs.clamp(1, 600));
                            }
                        }
                    />
                </label>
                <fieldset class="endpoint discussion-settings">
                    <legend>{tr(shell.ui_lang, |s| s.discussion_title)}</legend>
                    <label class="field-row">
                        <span>{tr(shell.ui_lang, |s| s.max_rounds)}</span>
                        <input
                            type="number"
                            id="max-rounds"
                            min="1"
                            max="10"
                            prop:value=move || rounds.with(|r| r.max_rounds.to_string())
                            on:change=move |ev| {
                                if let Some(n) = number(&event_target_value(&ev), 1, 10) {
                                    rounds.update(|r| r.max_rounds = n);
                                }
                            }
                        />
                    </label>
                    <label class="field-row">
                        <span>{tr(shell.ui_lang, |s| s.alignment_rounds)}</span>
                        <input
                            type="number"
                            id="alignment-rounds"
                            min="1"
                            max="5"
                            prop:value=move || rounds.with(|r| r.alignment_limit().to_string())
                            on:change=move |ev| {
                                if let Some(n) = number(&event_target_value(&ev), 1, 5) {
                                    rounds.update(|r| r.alignment_rounds = n);
                                }
                            }
                        />
                    </label>
                    <label class="check">
                        <input
                            type="checkbox"
                            id="strict-mode"
                            prop:checked=move || rounds.with(|r| r.strict)
                            on:change=move |ev| rounds.update(|r| r.strict = event_target_checked(&ev))
                        />
                        {tr(shell.ui_lang, |s| s.strict_mode)}
                    </label>
                    <p class="hint">{tr(shell.ui_lang, |s| s.rounds_note)}</p>
                </fieldset>
                {move || save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <div class="dialog-actions">
                    <button class="button" type="button" on:click=move |_| close()>{tr(shell.ui_lang, |s| s.cancel)}</button>
                    <button class="button primary" type="button" id="settings-save" on:click=save>{tr(shell.ui_lang, |s| s.save)}</button>
                </div>
            </div>
        </Show>
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
                prop:value=move || draft.with(|d| kind_value(endpoint(d, which).kind))
                on:change=move |ev| draft.update(|d| endpoint_mut(d, which).kind = kind_from_value(&event_target_value(&ev)))
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
            <For each=move || models.get() key=|m| m.clone() children=|m| view! { <option value=m.clone()></option> } />
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
