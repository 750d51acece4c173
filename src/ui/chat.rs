//! The message list. Each row is keyed by (id, revision), so only new or changed
//! messages render; typing in the composer never touches the history.

use leptos::prelude::*;

use super::act;
use super::cards::{CritiqueView, DesignsView, PlanView, QuestionCardView, SourceBadge};
use super::chat_mode::CommandCardView;
use super::i18n::{strings, tr};
use super::markdown_view::Markdown;
use super::shell::Shell;
use crate::engine::call::{LlmFailure, Purpose};
use crate::engine::chat::ChatArtifact;
use crate::engine::core::failures_shown_with;
use crate::engine::lang::Lang;
use crate::engine::security::InjectionKind;
use crate::engine::session::{AppArtifact, Artifact, Body, Event, Message, Role};
use crate::llm::error::failure_message;

/// Rows drawn when a conversation opens: the newest ones. Older rows are drawn as the user
/// scrolls up to them (or asks for them), so a conversation of thousands of messages opens,
/// saves and takes typing as fast as a short one.
const FIRST_ROWS: usize = 50;
/// Rows added each time the user reaches the top of what is drawn.
const MORE_ROWS: usize = 100;
/// How near the top (px) scrolling draws the earlier rows.
const NEAR_TOP: i32 = 120;

/// The conversation, newest at the bottom, scrolled into view as it grows.
#[component]
pub fn MessageList() -> impl IntoView {
    let shell = expect_context::<Shell>();
    // How many of the newest rows are drawn, and in which conversation: another conversation
    // starts again from the first screenful.
    let conversation = Memo::new(move |_| shell.session.with(|s| s.id.clone()));
    let drawn = RwSignal::new((String::new(), FIRST_ROWS));
    let rows = move || {
        let id = conversation.get();
        drawn.with(|(of, n)| if *of == id { *n } else { FIRST_ROWS })
    };
    let keys = Memo::new(move |_| {
        let rows = rows();
        shell.session.with(|s| {
            let from = s.messages.len().saturating_sub(rows);
            s.messages[from..].iter().map(|m| (m.id, m.rev)).collect::<Vec<_>>()
        })
    });
    let hidden = Memo::new(move |_| shell.session.with(|s| s.messages.len()).saturating_sub(rows()));
    let busy = RwSignal::new(false);
    let newest = Memo::new(move |_| keys.with(|k| k.last().copied()));
    let list = NodeRef::<leptos::html::Div>::new();
    // Keep the newest message in view: syncing scroll position is an outside-world effect.
    // The scroll waits for the next frame: by then the new rows are in the page. (The memo is
    // read, not only tracked: a lazy memo that is only tracked is never brought up to date,
    // and the effect then ran once and never again.)
    Effect::new(move |_| {
        let _ = newest.get();
        if let Some(el) = list.get() {
            request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
        }
    });
    // Draws earlier rows above the drawn ones, keeping what is on screen where it was.
    let draw_earlier = move || {
        let Some(el) = list.get_untracked() else { return };
        if hidden.get_untracked() == 0 {
            return;
        }
        let from_bottom = el.scroll_height() - el.scroll_top();
        let more = untrack(rows) + MORE_ROWS;
        // Old rows put back are not news: the log is busy meanwhile, so it does not read them out.
        busy.set(true);
        drawn.set((conversation.get_untracked(), more));
        // The rows are in the page by the next frame, before it is painted.
        request_animation_frame(move || {
            el.set_scroll_top(el.scroll_height() - from_bottom);
            busy.set(false);
        });
    };
    let on_scroll = move |_| {
        if list.get_untracked().is_some_and(|el| el.scroll_top() < NEAR_TOP) {
            draw_earlier();
        }
    };
    let empty = move || keys.with(|k| k.is_empty());
    // Until the conversation a returning visit left is open, the list stays empty instead of
    // showing a new conversation's welcome for a moment.
    let opening = move || shell.saver.opening();
    view! {
        // A log (announced politely as messages arrive) that scrolls, so it takes focus too.
        <div
            class="messages"
            node_ref=list
            role="log"
            aria-live="polite"
            aria-relevant="additions"
            aria-busy=move || (busy.get() || opening()).then_some("true")
            tabindex="0"
            aria-label=move || shell.ui_lang.get().pick("메시지", "Messages")
            on:scroll=on_scroll
        >
            <Show when=move || empty() && !opening()>
                <Welcome />
            </Show>
            <Show when=move || empty() && opening() && !shell.saver.rest_missing.get()>
                <p class="opening-note">{tr(shell.ui_lang, |s| s.opening_conversation)}</p>
            </Show>
            // The rest cannot be loaded: said at once, with the page's plain reload (no code of
            // the app runs for it) beside the retries.
            <Show when=move || empty() && opening() && shell.saver.rest_missing.get()>
                <p class="opening-note" role="alert">
                    {tr(shell.ui_lang, |s| s.opening_rest_missing)} " "
                    <a href="">{tr(shell.ui_lang, |s| s.reload)}</a>
                </p>
            </Show>
            <Show when=move || hidden.get() != 0>
                <button class="button earlier" type="button" on:click=move |_| draw_earlier()>
                    {move || strings(shell.ui_lang.get()).show_earlier.replace("{n}", &hidden.get().to_string())}
                </button>
            </Show>
            <For
                each=move || keys.get()
                key=|k| *k
                children=move |(id, _)| {
                    let message = shell.session.with_untracked(|s| s.messages.iter().rev().find(|m| m.id == id).cloned());
                    message.map(|m| view! { <MessageView message=m /> })
                }
            />
            // What keeps the view at the bottom while a row there grows (a streamed answer, a
            // card drawn in full): the browser's scroll anchoring holds on to it.
            <div class="bottom-anchor" aria-hidden="true"></div>
        </div>
    }
}

/// The empty state: what the app does, with example requests to click.
#[component]
fn Welcome() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    view! {
        <div class="welcome">
            <h2>{tr(shell.ui_lang, |s| s.welcome_title)}</h2>
            <p>{tr(shell.ui_lang, |s| s.welcome_body)}</p>
            <p class="examples-label">{tr(shell.ui_lang, |s| s.examples_label)}</p>
            <div class="examples">
                {move || {
                    t().examples
                        .iter()
                        .map(|example| {
                            let text = example.to_string();
                            view! {
                                <button
                                    class="example"
                                    type="button"
                                    on:click=move |_| act::dispatch(shell, Event::UserMessage { text: text.clone() })
                                >
                                    {*example}
                                </button>
                            }
                        })
                        .collect_view()
                }}
            </div>
        </div>
    }
}

/// One message, drawn by its kind.
#[component]
pub fn MessageView(message: Message) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let kind = match &message.body {
        Body::Text { .. } => "text",
        Body::SecurityWarning { .. } => "security",
        Body::Clarification { .. } => "clarification",
        Body::Artifact { artifact: AppArtifact::Discussion(Artifact::DesignsPresented { .. }) } => "designs",
        Body::Artifact { artifact: AppArtifact::Discussion(Artifact::CritiqueComplete { .. }) } => "critique",
        Body::Artifact { artifact: AppArtifact::Discussion(Artifact::PlanGenerated { .. }) } => "plan",
        Body::Artifact { artifact: AppArtifact::Chat(_) } => "command",
        Body::Error { .. } => "error",
        Body::Notice { .. } => "notice",
        Body::Streaming { .. } => "streaming",
    };
    let id = message.id;
    // A failure shows on the newest card of its turn (`failures_shown_with`): the card's
    // failures, or None while a later card shows this one.
    let folded = matches!(message.body, Body::Error { .. }).then(|| {
        Memo::new(move |_| {
            shell.session.with(|s| {
                failures_shown_with(&s.messages, id).map(|card| {
                    card.iter()
                        .filter_map(|m| match &m.body {
                            Body::Error { purpose, failure, fell_back } => {
                                Some((*purpose, (failure.clone(), *fell_back)))
                            }
                            _ => None,
                        })
                        .collect::<Vec<_>>()
                })
            })
        })
    });
    let content = match message.body {
        // The words carry their own language, so a screen reader pronounces Korean text
        // inside an English UI (and the reverse) right.
        Body::Text { text, source } => {
            let lang = Lang::detect(&text).tag();
            match message.role {
                Role::User => view! { <p class="user-text" lang=lang>{text}</p> }.into_any(),
                Role::Assistant => view! {
                    <div class="bubble">
                        {source.map(|s| view! { <SourceBadge source=s /> })}
                        <div lang=lang>
                            <Markdown text />
                        </div>
                    </div>
                }
                .into_any(),
            }
        }
        Body::Notice { text } => {
            let lang = Lang::detect(&text).tag();
            view! { <p class="notice-text" lang=lang>{text}</p> }.into_any()
        }
        Body::SecurityWarning { findings } => {
            // Only the newest warning can be overridden, and only while its text waits.
            let can_send = Memo::new(move |_| {
                shell.session.with(|s| {
                    s.blocked.is_some()
                        && s.messages
                            .iter()
                            .rev()
                            .find(|m| matches!(m.body, Body::SecurityWarning { .. }))
                            .map(|m| m.id)
                            == Some(id)
                })
            });
            let send_anyway = move |_| {
                let ask = strings(shell.ui_lang.get_untracked()).send_anyway_confirm;
                if window().confirm_with_message(ask).unwrap_or(false) {
                    act::dispatch(shell, Event::SendAnyway);
                }
            };
            view! {
                <div class="alert alert-security" role="alert">
                    <strong>{tr(shell.ui_lang, |s| s.security_title)}</strong>
                    <p>{tr(shell.ui_lang, |s| s.security_body)}</p>
                    <p class="findings">
                        {move || findings.iter().map(|f| injection_label(*f, shell.ui_lang.get())).collect::<Vec<_>>().join(" · ")}
                    </p>
                    <Show when=move || can_send.get()>
                        <button class="button send-anyway" type="button" on:click=send_anyway>
                            {tr(shell.ui_lang, |s| s.send_anyway)}
                        </button>
                    </Show>
                </div>
            }
            .into_any()
        }
        Body::Clarification { card } => view! { <QuestionCardView card /> }.into_any(),
        Body::Artifact {
            artifact: AppArtifact::Discussion(Artifact::DesignsPresented { round, designs, source, changes }),
        } => view! { <DesignsView message_id=id round designs source changes /> }.into_any(),
        Body::Artifact { artifact: AppArtifact::Discussion(Artifact::CritiqueComplete { critiques, .. }) } => {
            view! { <CritiqueView critiques /> }.into_any()
        }
        Body::Artifact {
            artifact: AppArtifact::Discussion(Artifact::PlanGenerated { plan, selected_design, discussion_summary }),
        } => view! { <PlanView plan selected_design discussion_summary /> }.into_any(),
        Body::Artifact { artifact: AppArtifact::Chat(ChatArtifact::Command { card }) } => {
            view! { <CommandCardView message_id=id card /> }.into_any()
        }
        Body::Error { .. } => {
            let card = folded.expect("a failure has its card");
            // Retry stays offered only while a step of the card can still be redone: the
            // newest such step.
            let retry = Memo::new(move |_| {
                let card = card.get()?;
                shell.session.with(|s| {
                    if s.is_busy() {
                        return None;
                    }
                    card.iter().rev().filter_map(|(p, _)| *p).find(|p| s.can_retry(*p))
                })
            });
            let lines = move || {
                let lang = shell.ui_lang.get();
                card.get().map(|failures| failure_lines(shell, &failures, lang)).unwrap_or_default()
            };
            let many = move || card.with(|c| c.as_ref().is_some_and(|c| c.len() > 1));
            // A folded failure draws nothing: only shown cards match `.alert-error`.
            view! {
                <Show when=move || card.with(|c| c.is_some())>
                <div class="alert alert-error" role="alert">
                    <strong>
                        {move || {
                            let n = card.with(|c| c.as_ref().map_or(0, |c| c.len()));
                            let s = strings(shell.ui_lang.get());
                            if n > 1 { s.errors_title.replace("{n}", &n.to_string()) } else { s.error_title.to_string() }
                        }}
                    </strong>
                    {move || {
                        let lines = lines();
                        if lines.len() == 1 && !many() {
                            view! { <p>{lines[0].1.clone()}</p> }.into_any()
                        } else {
                            view! {
                                <ul class="failures">
                                    {lines
                                        .into_iter()
                                        .map(|(steps, text)| view! { <li><span class="steps">{steps}</span>": "{text}</li> })
                                        .collect_view()}
                                </ul>
                            }
                            .into_any()
                        }
                    }}
                    <Show when=move || card.with(|c| c.as_ref().is_some_and(|c| c.iter().any(|(_, f)| f.1)))>
                        <p>{move || { let s = strings(shell.ui_lang.get()); if many() { s.fell_back_many } else { s.fell_back } }}</p>
                    </Show>
                    <Show when=move || retry.get().is_some()>
                        <button
                            class="button retry"
                            type="button"
                            on:click=move |_| {
                                if let Some(purpose) = retry.get_untracked() {
                                    act::dispatch(shell, Event::Retry { purpose: Some(purpose) })
                                }
                            }
                        >
                            {tr(shell.ui_lang, |s| s.retry)}
                        </button>
                    </Show>
                </div>
                </Show>
            }
            .into_any()
        }
        Body::Streaming { call, .. } => view! { <StreamingText call /> }.into_any(),
    };
    view! {
        <article
            class=format!("message {role} {kind}")
            data-kind=kind
            data-id=id.to_string()
            hidden=move || folded.is_some_and(|card| card.with(|c| c.is_none()))
        >
            {content}
        </article>
    }
}

/// Text arriving from an LLM, rendered as it streams.
#[component]
fn StreamingText(call: u32) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let text = move || shell.stream_text(call).map(|s| s.get()).unwrap_or_default();
    view! {
        <div class="bubble streaming" aria-busy="true">
            <span class="badge badge-llm">{tr(shell.ui_lang, |s| s.streaming)}</span>
            {move || {
                let so_far = text();
                if so_far.is_empty() { ().into_any() } else { view! { <Markdown text=so_far /> }.into_any() }
            }}
        </div>
    }
}

/// A short name for a kind of injection attempt.
fn injection_label(kind: InjectionKind, lang: Lang) -> &'static str {
    let i = match kind {
        InjectionKind::OverrideInstructions => 0,
        InjectionKind::RevealPrompt => 1,
        InjectionKind::RoleHijack => 2,
        InjectionKind::TagInjection => 3,
        InjectionKind::Jailbreak => 4,
        InjectionKind::SecretRequest => 5,
        InjectionKind::ToolMisuse => 6,
        InjectionKind::HiddenInstruction => 7,
        InjectionKind::Obfuscated => 8,
    };
    strings(lang).injection_kinds[i]
}

/// A card's failures as lines: the steps that failed the same way, and how.
fn failure_lines(
    shell: Shell,
    failures: &[(Option<Purpose>, (LlmFailure, bool))],
    lang: Lang,
) -> Vec<(String, String)> {
    let mut lines: Vec<(String, String)> = Vec::new();
    for (purpose, (failure, _)) in failures {
        let text = failure_message(failure, lang, &shell.provider_config(*purpose));
        let step = purpose.map(|p| super::composer::purpose_label(p, lang)).unwrap_or_default();
        match lines.iter_mut().find(|(_, t)| *t == text) {
            Some((steps, _)) if !step.is_empty() && !steps.contains(step) => {
                steps.push_str(", ");
                steps.push_str(step);
            }
            Some(_) => {}
            None => lines.push((capitalised(step), text)),
        }
    }
    lines
}

/// `text` with its first letter in upper case (Hangul has none).
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}
