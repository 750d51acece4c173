//! The Leptos UI: thin components that read the session and send events to the engine.

pub mod artifacts;
pub mod cards;
pub mod chat;
pub mod composer;
pub mod i18n;
pub mod markdown_view;
pub mod shell;
pub mod stepper;

use leptos::prelude::*;

use crate::engine::lang::Lang;
use crate::engine::session::Event;
use i18n::strings;
use shell::{Shell, Theme};

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let shell = Shell::new();
    provide_context(shell);
    let drawer_open = RwSignal::new(false);
    let t = move || strings(shell.ui_lang.get());
    view! {
        <div class="app">
            <TopBar drawer_open />
            <main class="layout">
                <section class="conversation" aria-label=move || t().conversation_label>
                    <stepper::Stepper />
                    <chat::MessageList />
                    <composer::Composer />
                </section>
                <aside
                    id="artifacts"
                    class="artifacts"
                    class:open=move || drawer_open.get()
                    aria-label=move || t().artifacts_label
                >
                    <artifacts::Artifacts />
                </aside>
            </main>
        </div>
    }
}

/// Title, mode, LLM status, language, theme, restart, and the artifacts drawer toggle.
#[component]
fn TopBar(drawer_open: RwSignal<bool>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let restart = move |_| shell.dispatch(Event::Restart);
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"◆"</span>
                <span class="name">"Deliberate"</span>
                <span class="tagline">{move || t().app_tagline}</span>
            </div>
            <div class="topbar-tools">
                <span class="mode-chip">{move || t().mode_discussion}</span>
                <span class="status-chip" title=move || t().heuristic_hint>{move || t().no_llm}</span>
                <label class="sr-only" for="lang-select">{move || t().language}</label>
                <select
                    id="lang-select"
                    class="lang-select"
                    on:change=move |ev| shell.set_lang(Lang::from_tag(&event_target_value(&ev)))
                    prop:value=move || shell.ui_lang.get().tag()
                >
                    <option value="ko">"한국어"</option>
                    <option value="en">"English"</option>
                </select>
                <button class="icon-button" type="button" on:click=move |_| shell.toggle_theme()>
                    {move || if shell.theme.get() == Theme::Dark { t().theme_to_light } else { t().theme_to_dark }}
                </button>
                <button class="button restart" type="button" on:click=restart>
                    {move || t().restart}
                </button>
                <button
                    class="button drawer-toggle"
                    type="button"
                    aria-controls="artifacts"
                    aria-expanded=move || drawer_open.get().to_string()
                    on:click=move |_| drawer_open.update(|o| *o = !*o)
                >
                    {move || if drawer_open.get() { t().hide_artifacts } else { t().show_artifacts }}
                </button>
            </div>
        </header>
    }
}
