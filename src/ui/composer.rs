//! The composer. Enter sends, Shift+Enter adds a line. With a Korean (or any) IME, an
//! Enter that commits a syllable sends once the composition has ended, so the message
//! is whole and a second Enter is never needed.

use std::cell::RefCell;

use leptos::ev::{CompositionEvent, KeyboardEvent};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::act;
use super::i18n::{strings, tr};
use super::shell::Shell;
use crate::engine::call::Purpose;
use crate::engine::lang::Lang;
use crate::engine::session::{CallKind, Event, ModeKind};

/// What was typed into the composer of index.html's static shell before the app arrived,
/// and whether it had the focus.
struct EarlyInput {
    text: String,
    /// The selection (UTF-16 offsets, as the DOM counts them).
    selection: (u32, u32),
    focused: bool,
    /// Enter was pressed: send once the conversation to resume is open.
    send: bool,
}

/// Where the part of the wasm that sending needs stands (see `super::rest`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum RestState {
    Here,
    Coming,
    Failed,
}

thread_local! {
    static EARLY_INPUT: RefCell<Option<EarlyInput>> = const { RefCell::new(None) };
}

/// Removes the static shell of index.html, keeping what its composer holds for the app's.
/// The shell paints before the wasm arrives and already takes typing, so nothing typed
/// while the app loads is lost.
pub fn take_over_boot_shell() {
    let document = document();
    let Some(boot) = document.get_element_by_id("boot-shell") else {
        return;
    };
    let area = document.get_element_by_id("boot-input").and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
    // Kept even when empty: the shell's composer has the page's one autofocus, so the focus
    // moves on from it.
    if let Some(area) = area {
        let element: &web_sys::Element = area.as_ref();
        let focused = document.active_element().is_some_and(|e| e == *element);
        let start = area.selection_start().ok().flatten().unwrap_or(0);
        let end = area.selection_end().ok().flatten().unwrap_or(start);
        let send = area.get_attribute("data-send").is_some();
        EARLY_INPUT.set(Some(EarlyInput { text: area.value(), selection: (start, end), focused, send }));
    }
    boot.remove();
}

/// Text area, send and stop.
#[component]
pub fn Composer() -> impl IntoView {
    let shell = expect_context::<Shell>();
    // Every mode fits its prompts into the server's window: ask for it whatever the mode.
    super::chat_mode::ask_server_window(shell);
    let area = NodeRef::<leptos::html::Textarea>::new();
    let has_text = RwSignal::new(false);
    // Set by an Enter pressed while the IME was composing: send when composition ends.
    let send_when_composed = StoredValue::new(false);
    let busy = Memo::new(move |_| shell.busy());
    // What the composer invites: a request, a reply in a discussion, a chat or a counseling message.
    let placeholder = Memo::new(move |_| {
        let t = strings(shell.ui_lang.get());
        shell.session.with(|s| match s.mode_kind() {
            ModeKind::Chat => t.placeholder_chat,
            ModeKind::Counseling => t.placeholder_counsel,
            ModeKind::Discussion if s.is_fresh() => t.placeholder_request,
            ModeKind::Discussion => t.placeholder_reply,
        })
    });

    // Sending runs the engines, which may be in the part of the wasm that has not arrived
    // yet: wait for it, keeping the text, and say so (and say it if it cannot load).
    let rest = RwSignal::new(RestState::Here);
    // An Enter pressed before the database has opened the conversation to resume (the boot
    // shell's, or this composer's): sent once it has, so the message joins that conversation.
    let send_when_ready = RwSignal::new(false);
    let send_now = move || {
        let Some(el) = area.get_untracked() else {
            return;
        };
        let text = el.value();
        if text.trim().is_empty() || shell.busy() {
            return;
        }
        el.set_value("");
        has_text.set(false);
        act::dispatch(shell, Event::UserMessage { text: text.trim_end_matches('\n').to_string() });
    };
    let send = move || {
        let Some(coming) = super::rest::pending() else {
            if rest.get_untracked() != RestState::Here {
                rest.set(RestState::Here);
            }
            if !shell.saver.ready.get_untracked() {
                send_when_ready.set(true);
                return;
            }
            return send_now();
        };
        if rest.get_untracked() == RestState::Coming {
            return;
        }
        rest.set(RestState::Coming);
        spawn_local(async move {
            if JsFuture::from(coming).await.is_ok() {
                rest.set(RestState::Here);
                send_when_ready.set(true);
            } else {
                rest.set(RestState::Failed);
            }
        });
    };

    let on_keydown = move |ev: KeyboardEvent| {
        if ev.key() != "Enter" || ev.shift_key() {
            return;
        }
        if ev.is_composing() || ev.key_code() == 229 {
            // The IME uses this Enter to commit the syllable; the text is not final yet.
            send_when_composed.set_value(true);
            return;
        }
        ev.prevent_default();
        send();
    };
    let on_composition_end = move |_: CompositionEvent| {
        if send_when_composed.get_value() {
            send_when_composed.set_value(false);
            // After compositionend the committed syllable is in the value on the next tick.
            set_timeout(send, std::time::Duration::from_millis(0));
        }
    };
    let on_input = move |_| {
        has_text.set(area.get_untracked().is_some_and(|el| !el.value().trim().is_empty()));
    };

    // What was typed into the shell's composer goes on here; an Enter pressed there sends it
    // once the database has opened the conversation to resume.
    Effect::new(move |_| {
        let Some(el) = area.get() else {
            return;
        };
        let Some(early) = EARLY_INPUT.take() else {
            return;
        };
        el.set_value(&early.text);
        let _ = el.set_selection_range(early.selection.0, early.selection.1);
        if early.focused {
            // Without scrolling: the composer is in view, and a focus that may scroll makes
            // the browser lay the whole new page out at once (≈ 20 ms of a first visit's
            // start, measured) instead of with its first frame.
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = el.focus_with_options(&options);
        }
        has_text.set(!early.text.trim().is_empty());
        send_when_ready.set(early.send);
    });
    Effect::new(move |_| {
        if send_when_ready.get() && shell.saver.ready.get() {
            send_when_ready.set(false);
            send();
        }
    });

    // The composer accepts input from here on: the figure `./dev bench` reports.
    Effect::new(move |_| {
        if area.get().is_some() {
            if let Some(perf) = window().performance() {
                if perf.get_entries_by_name("app-ready").length() == 0 {
                    let _ = perf.mark("app-ready");
                }
            }
        }
    });

    let progress = move |shell: Shell| {
        let lang = shell.ui_lang.get();
        let pending = shell.session.with(|s| {
            s.pending.iter().filter(|p| p.kind == CallKind::Foreground).map(|p| (p.call, p.purpose)).collect::<Vec<_>>()
        });
        let chars: usize =
            pending.iter().filter_map(|(id, _)| shell.stream_text(*id)).map(|t| t.with(|s| s.chars().count())).sum();
        let what: Vec<&str> = pending.iter().map(|(_, p)| purpose_label(*p, lang)).collect();
        let mut what = what;
        what.dedup();
        format!(
            "{} {}{}",
            strings(lang).working,
            what.join(", "),
            if chars > 0 { format!(" · {chars}") } else { String::new() }
        )
    };
    let halted = Memo::new(move |_| shell.session.with(|s| s.halted));
    view! {
        <Show when=move || halted.get()>
            <div class="halted" role="status">
                <span>{tr(shell.ui_lang, |s| s.stopped_partial)}</span>
                <button class="button retry" type="button" on:click=move |_| act::dispatch(shell, Event::Retry { purpose: None })>
                    {tr(shell.ui_lang, |s| s.retry)}
                </button>
                <button class="button skip" type="button" on:click=move |_| act::dispatch(shell, Event::SkipLlm)>
                    {tr(shell.ui_lang, |s| s.continue_without_llm)}
                </button>
            </div>
        </Show>
        {move || match rest.get() {
            RestState::Here => None,
            RestState::Coming => Some(view! { <p class="boot-note" role="status">{tr(shell.ui_lang, |s| s.loading_rest)}</p> }),
            RestState::Failed => Some(view! { <p class="boot-note" role="alert">{tr(shell.ui_lang, |s| s.rest_failed)}</p> }),
        }}
        <form class="composer" on:submit=move |ev| {
            ev.prevent_default();
            send();
        }>
            <label class="sr-only" for="composer-input">{tr(shell.ui_lang, |s| s.composer_label)}</label>
            <textarea
                id="composer-input"
                node_ref=area
                rows="2"
                autofocus
                placeholder=move || placeholder.get()
                on:keydown=on_keydown
                on:compositionend=on_composition_end
                on:input=on_input
            ></textarea>
            <Show
                when=move || busy.get()
                fallback=move || {
                    view! {
                        <button class="button primary send" type="submit" disabled=move || !has_text.get()>
                            {tr(shell.ui_lang, |s| s.send)}
                        </button>
                    }
                }
            >
                <span class="working" role="status">{move || progress(shell)}</span>
                <button
                    class="button stop"
                    type="button"
                    on:click=move |_| act::run(move || shell.stop())
                >
                    {tr(shell.ui_lang, |s| s.stop)}
                </button>
            </Show>
        </form>
        <Show when=move || super::chat_mode::in_chat(shell)>
            <div class="composer-extras">
                <super::chat_mode::AttachButton />
                <super::chat_mode::ContextMeter />
            </div>
        </Show>
    }
}

/// What an LLM call is doing, for the progress line and the calls panel.
pub(super) fn purpose_label(purpose: Purpose, lang: Lang) -> &'static str {
    use crate::engine::{chat::ChatPurpose as Ch, counsel::CounselPurpose as Co, discussion::DiscussionPurpose as D};
    match purpose {
        Purpose::Discussion(p) => match p {
            D::Contract => lang.pick("요청 분석", "analysing the request"),
            D::Question => lang.pick("질문 작성", "wording a question"),
            D::LunchAnswer => lang.pick("답 작성", "writing the answer"),
            D::Designs => lang.pick("설계안 작성", "drafting designs"),
            D::Critique { .. } => lang.pick("비판 분석", "critiquing"),
            D::Refine => lang.pick("설계안 수정", "revising designs"),
            D::Plan => lang.pick("계획 작성", "writing the plan"),
        },
        Purpose::Chat(p) => match p {
            Ch::Turn => lang.pick("답 작성", "answering"),
            Ch::Fold => lang.pick("오래된 대화 요약", "summarising older turns"),
        },
        Purpose::Counseling(p) => match p {
            Co::Checker => lang.pick("Task 확인", "checking the task"),
            Co::Detector => lang.pick("상태 파악", "reading how you are"),
            Co::Planner => lang.pick("탐색 Task 계획", "planning what to explore"),
            Co::Module => lang.pick("상담 모듈 선택", "choosing the approach"),
            Co::Reply => lang.pick("답장 작성", "writing a reply"),
            Co::Supervisor => lang.pick("Supervision", "supervising"),
        },
    }
}
