//! The chat mode's own UI: the command card (Copy, paste the output, "it failed", decline,
//! and a confirmation first for a dangerous command), the attach button and drag-and-drop,
//! the context meter under the composer, and the chat's section of the artifacts pane.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::act;
use super::cards::SourceBadge;
use super::i18n::{strings, tr};
use super::shell::Shell;
use crate::engine::chat::tools::CommandOutcome;
use crate::engine::chat::{ChatAction, ChatArtifact, CommandCard, CommandState};
use crate::engine::lang::Lang;
use crate::engine::session::{AppArtifact, Body, Event, ModeKind};
use crate::engine::tokens::BudgetLevel;

/// Largest file the attach button reads, in bytes.
const MAX_FILE_BYTES: f64 = 2_000_000.0;

/// A command the assistant proposes for the user to run on their own machine.
#[component]
pub fn CommandCardView(message_id: u32, card: CommandCard) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let output = RwSignal::new(String::new());
    let copied = RwSignal::new(false);
    let done = move |outcome: CommandOutcome| {
        move |_| shell.dispatch(Event::chat(ChatAction::CommandDone { message: message_id, outcome: outcome.clone() }))
    };
    let danger = card.danger;
    let can_copy = card.can_copy();
    let open = card.is_open();
    let command = card.command.clone();
    let copy = move |_| {
        let _ = window().navigator().clipboard().write_text(&command);
        copied.set(true);
    };
    let send_output = move |_| {
        shell.dispatch(Event::chat(ChatAction::CommandDone {
            message: message_id,
            outcome: CommandOutcome::Output(output.get_untracked()),
        }))
    };
    let send_failed = move |_| {
        shell.dispatch(Event::chat(ChatAction::CommandDone {
            message: message_id,
            outcome: CommandOutcome::Failed(output.get_untracked()),
        }))
    };
    type Pick = fn(&super::i18n::Strings) -> &'static str;
    let state_label: Option<Pick> = match &card.state {
        CommandState::Done { outcome: CommandOutcome::Output(_) } => Some(|s| s.command_ran),
        CommandState::Done { outcome: CommandOutcome::Failed(_) } => Some(|s| s.command_failed),
        CommandState::Done { outcome: CommandOutcome::Declined } => Some(|s| s.command_declined),
        _ => None,
    };
    let output_id = format!("output-{message_id}");
    view! {
        <div
            class="card command-card"
            class:dangerous=danger.is_some()
            data-open=open.to_string()
            data-danger=danger.is_some().to_string()
        >
            <div class="card-head">
                <h3>{move || if danger.is_some() { t().danger_title } else { t().command_title }}</h3>
                <SourceBadge source=card.source.clone() />
            </div>
            <p class="why" lang=super::text_lang(&card.why)>{card.why.clone()}</p>
            <pre class="command"><code>{card.command.clone()}</code></pre>
            {danger.map(|d| view! { <p class="danger-reason">"⚠ "{move || d.message(shell.ui_lang.get())}</p> })}
            {state_label.map(|label| view! { <p class="command-state" role="status">{tr(shell.ui_lang, label)}</p> })}
            <Show when=move || can_copy>
                <div class="command-actions">
                    <button class="button copy" type="button" on:click=copy.clone()>
                        {move || if copied.get() { t().copied } else { t().copy }}
                    </button>
                    <button class="button decline" type="button" on:click=done(CommandOutcome::Declined)>
                        {tr(shell.ui_lang, |s| s.decline)}
                    </button>
                </div>
                <label class="output-label" for=output_id.clone()>{tr(shell.ui_lang, |s| s.output_label)}</label>
                <textarea
                    id=output_id.clone()
                    class="command-output"
                    rows="4"
                    prop:value=move || output.get()
                    on:input=move |ev| output.set(event_target_value(&ev))
                ></textarea>
                <div class="command-actions">
                    <button class="button primary send-output" type="button" on:click=send_output>
                        {tr(shell.ui_lang, |s| s.send_output)}
                    </button>
                    <button class="button it-failed" type="button" on:click=send_failed>
                        {tr(shell.ui_lang, |s| s.it_failed)}
                    </button>
                </div>
            </Show>
        </div>
    }
}

/// The newest command flagged as dangerous that waits for the user's confirmation.
fn awaiting_confirmation(shell: Shell) -> Option<(u32, CommandCard)> {
    shell.session.with(|s| {
        s.messages.iter().rev().find_map(|m| match &m.body {
            Body::Artifact { artifact: AppArtifact::Chat(ChatArtifact::Command { card }) }
                if card.danger.is_some() && card.state == CommandState::Open =>
            {
                Some((m.id, card.clone()))
            }
            _ => None,
        })
    })
}

/// Where focus goes when the confirmation closes and what had focus before is gone: the
/// command's next step (Copy), else the composer.
fn after_confirmation() -> Option<web_sys::HtmlElement> {
    let doc = document();
    doc.query_selector(".command-card[data-open=true] button")
        .ok()
        .flatten()
        .or_else(|| doc.get_element_by_id("composer-input"))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
}

/// The confirmation a dangerous command needs before it can be copied, as a modal dialog:
/// Decline (also Escape) or confirm; the safe choice has focus first. It waits while the
/// Settings dialog is open, so only one dialog is ever shown.
#[component]
pub fn DangerConfirmDialog(settings_open: RwSignal<bool>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let pending = Memo::new(move |_| if settings_open.get() { None } else { awaiting_confirmation(shell) });
    let decline = move || {
        if let Some((message, _)) = pending.get_untracked() {
            act::dispatch(shell, Event::chat(ChatAction::CommandDone { message, outcome: CommandOutcome::Declined }));
        }
    };
    let on_keydown = super::modal::use_modal(
        ".dialog.danger-confirm",
        move || pending.with(Option::is_some),
        decline,
        after_confirmation,
    );
    move || {
        pending.get().map(|(message, card)| {
            let reason = card.danger;
            let lang = Lang::detect(&format!("{}{}", card.why, card.command)).tag();
            view! {
                <div class="dialog-backdrop"></div>
                <div
                    class="dialog danger-confirm"
                    role="alertdialog"
                    aria-modal="true"
                    aria-labelledby="danger-confirm-title"
                    aria-describedby="danger-confirm-reason"
                    data-message=message.to_string()
                    on:keydown=on_keydown
                >
                    <h2 id="danger-confirm-title">{tr(shell.ui_lang, |s| s.danger_title)}</h2>
                    <p class="why" lang=lang>{card.why.clone()}</p>
                    <pre class="command"><code>{card.command.clone()}</code></pre>
                    <p class="danger-reason" id="danger-confirm-reason">
                        "⚠ "{move || reason.map(|d| d.message(shell.ui_lang.get())).unwrap_or_default()}
                    </p>
                    <div class="dialog-actions">
                        <button class="button decline" type="button" on:click=move |_| decline()>
                            {tr(shell.ui_lang, |s| s.decline)}
                        </button>
                        <button
                            class="button danger confirm-danger"
                            type="button"
                            on:click=move |_| act::dispatch(shell, Event::chat(ChatAction::ConfirmCommand { message }))
                        >
                            {tr(shell.ui_lang, |s| s.confirm_danger)}
                        </button>
                    </div>
                </div>
            }
        })
    }
}

/// Reads the text files of a file list and attaches each to the chat; binary or huge
/// files are skipped.
pub fn attach_files(shell: Shell, files: web_sys::FileList) {
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        if file.size() > MAX_FILE_BYTES {
            continue;
        }
        let name = file.name();
        let promise = file.text();
        spawn_local(async move {
            let Ok(value) = wasm_bindgen_futures::JsFuture::from(promise).await else { return };
            let Some(text) = value.as_string() else { return };
            if text.contains('\0') {
                return;
            }
            shell.dispatch(Event::chat(ChatAction::Attach { name, text }));
        });
    }
}

/// The attach button (a file input for text files), shown in chat mode.
#[component]
pub fn AttachButton() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        if let Some(files) = input.files() {
            attach_files(shell, files);
        }
        input.set_value("");
    };
    view! {
        <label class="button attach" title=tr(shell.ui_lang, |s| s.drop_hint)>
            {tr(shell.ui_lang, |s| s.attach)}
            <input
                class="sr-only attach-input"
                type="file"
                multiple
                accept="text/*,.txt,.md,.csv,.json,.log,.rs,.py,.js,.ts,.toml,.yaml,.yml,.sql,.sh,.ini,.conf,.xml,.html,.css"
                on:change=on_change
            />
        </label>
    }
}

/// The context meter: tokens used of the model's window, with the 80 % warning.
#[component]
pub fn ContextMeter() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let meter = Memo::new(move |_| shell.session.with(|s| s.chat_meter()));
    move || {
        meter.get().map(|m| {
            let warn = m.level != BudgetLevel::Comfortable;
            let width = m.percent.min(100);
            view! {
                <div class="context-meter" class:warn=warn data-percent=m.percent.to_string()>
                    <span class="meter-label">{tr(shell.ui_lang, |s| s.meter_label)}</span>
                    <div
                        class="meter-bar"
                        role="meter"
                        aria-valuemin="0"
                        aria-valuemax="100"
                        aria-valuenow=m.percent.to_string()
                        aria-label=tr(shell.ui_lang, |s| s.meter_label)
                    >
                        <span style:width=format!("{width}%")></span>
                    </div>
                    <span class="meter-value">{format!("{} / {} · {}%", m.used, m.window, m.percent)}</span>
                    {m.from_server.then(|| view! { <span class="meter-source">{tr(shell.ui_lang, |s| s.meter_from_server)}</span> })}
                    {warn.then(|| view! { <p class="meter-warning" role="status">{tr(shell.ui_lang, |s| s.meter_warning)}</p> })}
                </div>
            }
        })
    }
}

thread_local! {
    /// The window each server reported, by base URL and model; None while asking or when it
    /// told none (asked once per endpoint and model for the page's life).
    static SERVER_WINDOWS: std::cell::RefCell<crate::engine::pairs::Pairs<String, Option<u32>>> =
        Default::default();
}

/// The window an OpenAI-compatible server reported for this endpoint and model, once asked.
pub fn cached_server_window(cfg: &crate::llm::ProviderConfig) -> Option<u32> {
    let key = format!("{}|{}", cfg.base(), cfg.model.trim());
    SERVER_WINDOWS.with(|m| m.borrow().get(&key).copied().flatten())
}

/// While the app talks to an OpenAI-compatible server (in any mode), asks that server once for
/// its context window in the background (the composer never waits; a failure is silent and the
/// default or the user's setting stays). Every mode's prompts are fitted into it (the shell's
/// `Env::window`); in the chat the engine is told too, so the meter and folding use it.
pub fn ask_server_window(shell: Shell) {
    Effect::new(move |_| {
        let Some(cfg) = shell.llm.with(|l| l.designer_config()) else { return };
        let current = shell.session.with(|s| s.chat().map(|c| c.server_window()));
        if cfg.kind != crate::llm::ProviderKind::OpenAiCompatible {
            return;
        }
        let key = format!("{}|{}", cfg.base(), cfg.model.trim());
        let known = SERVER_WINDOWS.with(|m| m.borrow().get(&key).copied());
        match known {
            Some(Some(tokens)) if current.is_some_and(|c| c != Some(tokens)) => {
                shell.dispatch(Event::chat(ChatAction::ServerWindow { tokens }));
            }
            Some(_) => {}
            None => {
                SERVER_WINDOWS.with(|m| m.borrow_mut().insert(key.clone(), None));
                spawn_local(async move {
                    // Reading the server's answer is code of the rest of the app: ask once it is here.
                    super::rest::linked().await;
                    let Some(tokens) = crate::llm::transport::server_window(&cfg, 5_000).await else { return };
                    SERVER_WINDOWS.with(|m| m.borrow_mut().insert(key.clone(), Some(tokens)));
                    let same = shell.llm.with_untracked(|l| {
                        l.designer_config().is_some_and(|c| format!("{}|{}", c.base(), c.model.trim()) == key)
                    });
                    let in_chat = shell.session.with_untracked(|s| s.chat().is_some());
                    if same && in_chat {
                        shell.dispatch(Event::chat(ChatAction::ServerWindow { tokens }));
                    }
                });
            }
        }
    });
}

/// True while the session is in chat mode.
pub fn in_chat(shell: Shell) -> bool {
    shell.session.with(|s| s.mode_kind() == ModeKind::Chat)
}

/// The chat's section of the artifacts pane: attachments, tool calls made, and undo.
#[component]
pub fn ChatPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let chat = Memo::new(move |_| {
        shell.session.with(|s| {
            s.chat().map(|c| {
                let files: Vec<(String, usize)> =
                    c.attachments.iter().map(|a| (a.name.clone(), a.text.chars().count())).collect();
                let tools: Vec<(String, String, bool)> =
                    c.tool_log.iter().map(|u| (u.tool.clone(), u.summary.clone(), u.ok)).collect();
                (files, tools, c.can_undo())
            })
        })
    });
    move || {
        chat.get().map(|(files, tools, can_undo)| {
            view! {
                <section class="panel chat-panel" aria-labelledby="chat-panel-title">
                    <div class="panel-head">
                        <h2 id="chat-panel-title">{tr(shell.ui_lang, |s| s.chat_title)}</h2>
                    </div>
                    <h3>{tr(shell.ui_lang, |s| s.attachments_title)}</h3>
                    {if files.is_empty() {
                        view! { <p class="empty">{t().no_attachments}</p> }.into_any()
                    } else {
                        view! {
                            <ul class="attachments">
                                {files.into_iter().map(|(name, chars)| view! { <li data-name=name.clone()>{format!("{name} · {chars}")}</li> }).collect_view()}
                            </ul>
                        }
                        .into_any()
                    }}
                    <h3>{tr(shell.ui_lang, |s| s.tool_calls_title)}</h3>
                    <ul class="tool-calls">
                        {tools
                            .into_iter()
                            .map(|(tool, summary, ok)| {
                                let name = tool.clone();
                                view! { <li class:failed=!ok data-tool=name><code>{tool}</code>" "{summary}</li> }
                            })
                            .collect_view()}
                    </ul>
                    {can_undo.then(|| view! {
                        <button class="button undo-reset" type="button" on:click=move |_| shell.dispatch(Event::chat(ChatAction::Undo))>
                            {tr(shell.ui_lang, |s| s.undo_reset)}
                        </button>
                    })}
                </section>
            }
        })
    }
}
