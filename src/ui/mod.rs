//! The Leptos UI: thin components that read the session and send events to the engine.

pub mod act;
pub mod artifacts;
pub mod calls;
pub mod cards;
pub mod chat;
pub mod chat_mode;
pub mod composer;
pub mod counsel_panel;
pub mod export_panel;
pub mod i18n;
pub mod markdown_view;
pub mod modal;
pub mod panic_banner;
pub mod prefs;
pub mod rest;
pub mod saving;
pub mod sessions;
pub mod settings;
pub mod shell;
pub mod stepper;
pub mod unlock;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::engine::counsel::task::Part;
use crate::engine::lang::Lang;
use crate::engine::session::{Event, ModeKind};
use crate::engine::state_machine::Stage;
use i18n::{strings, tr};
use shell::{Shell, Theme};

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    act::remember_root();
    let shell = Shell::new();
    provide_context(shell);
    // Leaving the page ends the calls in flight.
    on_cleanup(move || shell.abort_all());
    let drawer_open = RwSignal::new(false);
    let counseling = Memo::new(move |_| shell.session.with(|s| s.mode_kind() == ModeKind::Counseling));
    let settings_open = RwSignal::new(false);
    let sessions_open = RwSignal::new(false);
    // The side pane mounts right after the first mount, in a task of its own: the composer
    // takes input that much sooner, and the pane follows before the user can look for it.
    let pane = RwSignal::new(false);
    set_timeout(move || pane.set(true), std::time::Duration::ZERO);
    view! {
        <div class="app" data-store=move || match (shell.saver.ready.get(), shell.saver.writing.get()) {
            (false, _) => "opening",
            (true, true) => "saving",
            (true, false) => "ready",
        }>
            <TopBar drawer_open settings_open sessions_open />
            <settings::SettingsDialog open=settings_open />
            <sessions::SessionsDialog open=sessions_open />
            <chat_mode::DangerConfirmDialog settings_open />
            <main class="layout">
                <section
                    class="conversation"
                    aria-labelledby="conversation-title"
                    on:dragover=move |ev: leptos::ev::DragEvent| {
                        if chat_mode::in_chat(shell) {
                            ev.prevent_default();
                        }
                    }
                    on:drop=move |ev: leptos::ev::DragEvent| {
                        if chat_mode::in_chat(shell) {
                            ev.prevent_default();
                            if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                                chat_mode::attach_files(shell, files);
                            }
                        }
                    }
                >
                    <h2 id="conversation-title" class="sr-only">{tr(shell.ui_lang, |s| s.conversation_label)}</h2>
                    <StageAnnouncer />
                    <Show when=move || !chat_mode::in_chat(shell)>
                        {move || if counseling.get() {
                            view! { <counsel_panel::PartStepper /> }.into_any()
                        } else {
                            view! { <stepper::Stepper /> }.into_any()
                        }}
                    </Show>
                    <StorageAlert />
                    <unlock::UnlockPrompt />
                    <chat::MessageList />
                    <composer::Composer />
                </section>
                <aside
                    id="artifacts"
                    class="artifacts"
                    tabindex="0"
                    class:open=move || drawer_open.get()
                    aria-label=tr(shell.ui_lang, |s| s.artifacts_label)
                >
                    {move || match (pane.get(), counseling.get()) {
                        (false, _) => ().into_any(),
                        (true, true) => view! { <counsel_panel::CounselPanel /> }.into_any(),
                        (true, false) => view! { <artifacts::Artifacts /> }.into_any(),
                    }}
                </aside>
            </main>
        </div>
    }
}

/// Title, mode, LLM status, the artifacts drawer's button, and the rest (settings, language,
/// theme, restart, conversations, new conversation) in a menu that folds away on a narrow screen.
#[component]
fn TopBar(drawer_open: RwSignal<bool>, settings_open: RwSignal<bool>, sessions_open: RwSignal<bool>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    // "gpt-4o-mini" (and the critic's model when it differs), or why heuristics run.
    let status = move || {
        let llm = shell.llm.get();
        match (llm.enabled, llm.designer_config(), llm.critic_config()) {
            (false, _, _) => (false, t().no_llm.to_string()),
            (true, Some(d), Some(c)) if d.model != c.model => (true, format!("LLM · {} / {}", d.model, c.model)),
            (true, Some(d), _) => (true, format!("LLM · {}", d.model)),
            (true, None, _) => (false, t().llm_not_ready.to_string()),
        }
    };
    let usage = move || {
        let u = shell.session.with(|s| s.total_usage());
        format!("{} {}", u.input_tokens + u.output_tokens, t().tokens)
    };
    let restart = move |_| act::dispatch(shell, Event::Restart);
    let menu_open = RwSignal::new(false);
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"◆"</span>
                <h1 class="name">"Deliberate"</h1>
                <span class="tagline">{tr(shell.ui_lang, |s| s.app_tagline)}</span>
            </div>
            <div class="topbar-tools">
                <label class="sr-only" for="mode-select">{tr(shell.ui_lang, |s| s.mode_label)}</label>
                <select
                    id="mode-select"
                    class="mode-chip"
                    on:change=move |ev| {
                        if let Some(to) = ModeKind::parse(&event_target_value(&ev)) {
                            act::dispatch(shell, Event::switch_mode(to));
                        }
                    }
                    prop:value=move || shell.session.with(|s| s.mode_kind().name())
                >
                    {ModeKind::ALL
                        .into_iter()
                        .map(|m| view! { <option value=m.name()>{move || m.label(shell.ui_lang.get())}</option> })
                        .collect_view()}
                </select>
                <button
                    class="status-chip"
                    class:llm-on=move || status().0
                    type="button"
                    title=usage
                    on:click=move |_| settings_open.set(true)
                >
                    {move || status().1}
                </button>
            </div>
            // The artifacts drawer's button and the menu: on a phone they share the brand's row
            // and the mode and status take the second.
            <div
                class="topbar-end"
                on:keydown=move |ev| {
                    if ev.key() == "Escape" && !ev.default_prevented() && menu_open.get_untracked() {
                        ev.prevent_default();
                        menu_open.set(false);
                        focus_menu_toggle();
                    }
                }
            >
                <button
                    class="button drawer-toggle"
                    type="button"
                    aria-controls="artifacts"
                    aria-expanded=move || drawer_open.get().to_string()
                    on:click=move |_| drawer_open.update(|o| *o = !*o)
                >
                    {move || if drawer_open.get() { t().hide_artifacts } else { t().show_artifacts }}
                </button>
                <button
                    class="button menu-toggle"
                    type="button"
                    aria-controls="topbar-menu"
                    aria-expanded=move || menu_open.get().to_string()
                    on:click=move |_| menu_open.update(|o| *o = !*o)
                >
                    {tr(shell.ui_lang, |s| s.menu)}
                </button>
                // On a wide screen the menu's controls stand in the bar itself (`display:
                // contents`); on a narrow one they drop down from the menu button. A click on
                // one of its buttons, Escape, a click beside it or the focus leaving it closes it.
                <Show when=move || menu_open.get()>
                    <div class="menu-backdrop" on:click=move |_| menu_open.set(false)></div>
                </Show>
                <div
                    id="topbar-menu"
                    class="topbar-menu"
                    class:open=move || menu_open.get()
                    on:click=move |ev| {
                        let on_button = ev
                            .target()
                            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .is_some_and(|el| el.closest("button").ok().flatten().is_some());
                        // The focus goes back to the menu button, which a dialog opened
                        // from the menu then returns it to.
                        if on_button && menu_open.get_untracked() {
                            menu_open.set(false);
                            focus_menu_toggle();
                        }
                    }
                    on:focusout=move |ev| {
                        let leaves = ev
                            .related_target()
                            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .is_some_and(|to| to.closest(".topbar-menu, .menu-toggle").ok().flatten().is_none());
                        if leaves {
                            menu_open.set(false);
                        }
                    }
                >
                    <button class="button settings-button" type="button" on:click=move |_| settings_open.set(true)>
                        {tr(shell.ui_lang, |s| s.settings)}
                    </button>
                    <label class="sr-only" for="lang-select">{tr(shell.ui_lang, |s| s.language)}</label>
                    <select
                        id="lang-select"
                        class="lang-select"
                        on:change=move |ev| shell.set_lang(Lang::from_tag(&event_target_value(&ev)))
                        prop:value=move || shell.ui_lang.get().tag()
                    >
                        <option value="ko" lang="ko">"한국어"</option>
                        <option value="en" lang="en">"English"</option>
                    </select>
                    <button class="icon-button theme-toggle" type="button" on:click=move |_| shell.toggle_theme()>
                        {move || if shell.theme.get() == Theme::Dark { t().theme_to_light } else { t().theme_to_dark }}
                    </button>
                    <button class="button restart" type="button" title=tr(shell.ui_lang, |s| s.restart_hint) on:click=restart>
                        {tr(shell.ui_lang, |s| s.restart)}
                    </button>
                    <button class="button sessions-button" type="button" on:click=move |_| sessions_open.set(true)>
                        {tr(shell.ui_lang, |s| s.sessions_open)}
                    </button>
                    <button
                        class="button new-conversation"
                        type="button"
                        title=tr(shell.ui_lang, |s| s.new_conversation_hint)
                        on:click=move |_| act::run(move || shell.new_conversation())
                    >
                        {tr(shell.ui_lang, |s| s.new_conversation)}
                    </button>
                </div>
            </div>
        </header>
    }
}

/// Puts the focus on the top bar's menu button.
fn focus_menu_toggle() {
    let toggle = document().query_selector(".menu-toggle").ok().flatten();
    if let Some(el) = toggle.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// Where the conversation is: the discussion's stage or the counseling part.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Stage(Stage),
    Part(Part),
}

/// A visually hidden polite live region that names the discussion's stage or the
/// counseling part when it changes (not when a saved conversation opens), without taking
/// focus.
#[component]
fn StageAnnouncer() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let phase = Memo::new(move |_| {
        shell
            .session
            .with(|s| s.stage().map(Phase::Stage).or_else(|| s.counseling().map(|m| Phase::Part(m.state.part))))
    });
    let announced = RwSignal::new(None::<Phase>);
    Effect::new(move |before: Option<Option<Phase>>| {
        let now = phase.get();
        if before.is_some_and(|b| b != now) {
            announced.set(now);
        }
        now
    });
    let text = move || {
        announced.get().map(|p| {
            let lang = shell.ui_lang.get();
            match p {
                Phase::Stage(s) => format!("{}: {}", lang.pick("현재 단계", "Stage"), i18n::stage_name(s, lang)),
                Phase::Part(part) => format!("{}: {}", lang.pick("상담", "Counseling"), part.label(lang)),
            }
        })
    };
    view! { <p id="stage-announcer" class="sr-only" role="status" aria-live="polite" aria-atomic="true">{text}</p> }
}

/// A performance mark `./dev bench` reads (app-ready, streamed text painted, saves).
pub(crate) fn perf_mark(name: &str) {
    if let Some(perf) = window().performance() {
        let _ = perf.mark(name);
    }
}

/// The language tag of a text the engine or a model wrote, for its element's `lang`, so a
/// screen reader pronounces Korean inside an English UI (and the reverse) right.
pub(crate) fn text_lang(text: &str) -> &'static str {
    Lang::detect(text).tag()
}

/// Trouble keeping the conversation in the browser, until dismissed.
#[component]
fn StorageAlert() -> impl IntoView {
    let shell = expect_context::<Shell>();
    move || {
        shell.storage_problem.get().map(|problem| {
            let text = move || match &problem {
                shell::StorageProblem::SaveFailed => strings(shell.ui_lang.get()).save_failed.to_string(),
                shell::StorageProblem::Unreadable(error) => error.message(shell.ui_lang.get()),
                shell::StorageProblem::Unavailable => strings(shell.ui_lang.get()).storage_unavailable.to_string(),
                shell::StorageProblem::Blocked => strings(shell.ui_lang.get()).storage_blocked.to_string(),
                shell::StorageProblem::Stale => strings(shell.ui_lang.get()).storage_stale.to_string(),
                shell::StorageProblem::Damaged => strings(shell.ui_lang.get()).storage_damaged.to_string(),
                shell::StorageProblem::SnapshotUnreadable => {
                    strings(shell.ui_lang.get()).snapshot_unreadable.to_string()
                }
            };
            view! {
                <div class="alert alert-storage" role="alert">
                    <p>{text}</p>
                    <button class="button dismiss" type="button" on:click=move |_| shell.storage_problem.set(None)>
                        {tr(shell.ui_lang, |s| s.dismiss)}
                    </button>
                </div>
            }
        })
    }
}
