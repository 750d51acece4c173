//! The sessions list: a dialog of every saved conversation, grouped by mode and most
//! recently used first, searchable by title and content, to open, rename, delete (with
//! undo) or start a new one, and to export them all at once.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::act;
use super::i18n::{strings, tr};
use super::shell::Shell;
use crate::engine::title::{read_title, title_prompt};
use crate::llm::transport::{run_chat, CallControl, CallOptions};
use crate::llm::RetryPolicy;
use crate::store::sessions::{arrange, to_name, Header};

/// How many conversations one opening of the list asks the model to name.
const NAMED_PER_OPENING: usize = 3;

/// With an LLM configured: asks it to name the most recent conversations that neither the
/// user nor the model named yet (each once per visit), and writes each usable name into the
/// list. An answer that is not a title, or a failed call, leaves the title made from the
/// request; nothing is shown for it.
fn name_with_model(shell: Shell, asked: StoredValue<Vec<String>>) {
    let Some(cfg) = shell.llm.with_untracked(|l| l.designer_config()) else { return };
    let wanted = asked.with_value(|a| shell.saver.sessions.with_untracked(|l| to_name(l, a, NAMED_PER_OPENING)));
    asked.update_value(|a| a.extend(wanted.iter().map(|h| h.id.clone())));
    spawn_local(async move {
        for header in wanted {
            let prompt = title_prompt(&header.opening_words());
            let opts =
                CallOptions { timeout_ms: 20_000, retry: RetryPolicy { max_retries: 0, ..RetryPolicy::default() } };
            let Ok(done) = run_chat(&cfg, &prompt, false, opts, &CallControl::new(), &|_| {}).await else {
                continue;
            };
            if let Some(title) = (!done.refusal).then(|| read_title(&done.text)).flatten() {
                shell.saver.model_title(&header.id, &title);
            }
        }
    });
}

/// The dialog; `open` shows it.
#[component]
pub fn SessionsDialog(open: RwSignal<bool>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let query = RwSignal::new(String::new());
    let renaming = RwSignal::new(None::<String>);
    let deleted = RwSignal::new(None::<super::saving::Deleted>);
    let close = move || {
        renaming.set(None);
        open.set(false);
    };
    let on_keydown = super::modal::use_modal(".dialog.sessions", move || open.get(), close, || None);
    let current = move || {
        shell.session.track();
        shell.saver.current_id()
    };
    let groups = move || shell.saver.sessions.with(|l| arrange(l, &query.get()));
    // Opening the list names the recent conversations the model has not named yet.
    let asked = StoredValue::new(Vec::<String>::new());
    Effect::new(move |_| {
        if open.get() {
            name_with_model(shell, asked);
        }
    });
    let export_failed = RwSignal::new(None::<String>);
    let export_all = move |_| {
        export_failed.set(None);
        spawn_local(async move {
            let journals = match shell.saver.all_journals().await {
                Ok(journals) => journals,
                Err(unreadable) => {
                    let lang = shell.ui_lang.get_untracked();
                    export_failed.set(Some(format!("{} {unreadable}", strings(lang).sessions_unreadable)));
                    return;
                }
            };
            match crate::store::export::export_all_json(journals) {
                Ok(text) => {
                    let text = shell.llm.with_untracked(|llm| crate::store::export::without_keys(&text, llm));
                    super::export_panel::download("deliberate-all.json", "application/json", &text);
                }
                Err(why) => {
                    let why = shell.llm.with_untracked(|llm| crate::store::export::without_keys(&why, llm));
                    export_failed.set(Some(why));
                }
            }
        });
    };
    let delete = move |id: String| {
        spawn_local(async move {
            if id == shell.saver.current_id() {
                shell.new_conversation();
            }
            if let Some(gone) = shell.saver.delete(&id).await {
                deleted.set(Some(gone));
            }
        });
    };
    let undo = move |_| {
        if let Some(gone) = deleted.get_untracked() {
            deleted.set(None);
            spawn_local(async move { shell.saver.undelete(gone).await });
        }
    };
    let row = move |h: Header| {
        let id = h.id.clone();
        let (open_id, rename_id, delete_id, edit_id, save_id) =
            (id.clone(), id.clone(), id.clone(), id.clone(), id.clone());
        let title = if h.title.is_empty() { None } else { Some(h.title.clone()) };
        let shown = title.clone();
        let name = move || shown.clone().unwrap_or_else(|| strings(shell.ui_lang.get()).sessions_untitled.to_string());
        let is_current = {
            let id = id.clone();
            move || current() == id
        };
        let is_current_attr = is_current.clone();
        let messages = h.messages;
        let draft = RwSignal::new(h.title.clone());
        let editing = move || renaming.get().as_deref() == Some(edit_id.as_str());
        let input_id = format!("rename-{}", h.id);
        let input_for = input_id.clone();
        view! {
            <li class="session-row" data-session=id.clone() aria-current=move || is_current_attr().then_some("true")>
                <Show
                    when=editing
                    fallback=move || {
                        let open_id = open_id.clone();
                        let name = name.clone();
                        view! {
                            <button
                                class="session-open"
                                type="button"
                                on:click=move |_| {
                                    let id = open_id.clone();
                                    act::run(move || shell.switch_to(id));
                                    open.set(false);
                                }
                            >
                                <span class="session-title">{name}</span>
                                <span class="session-meta">
                                    {move || format!("{messages} {}", strings(shell.ui_lang.get()).sessions_messages)}
                                </span>
                            </button>
                        }
                    }
                >
                    {
                        let save_id = save_id.clone();
                        let input_id = input_id.clone();
                        let input_for = input_for.clone();
                        view! {
                            <form
                                class="session-rename"
                                on:submit=move |ev| {
                                    ev.prevent_default();
                                    shell.saver.rename(&save_id, &draft.get_untracked());
                                    renaming.set(None);
                                }
                            >
                                <label class="sr-only" for=input_for>{tr(shell.ui_lang, |s| s.sessions_rename_label)}</label>
                                <input
                                    id=input_id
                                    type="text"
                                    prop:value=move || draft.get()
                                    on:input=move |ev| draft.set(event_target_value(&ev))
                                />
                                <button class="button" type="submit">{tr(shell.ui_lang, |s| s.sessions_save_name)}</button>
                            </form>
                        }
                    }
                </Show>
                <button
                    class="button session-rename-button"
                    type="button"
                    aria-label=move || format!("{}: {}", strings(shell.ui_lang.get()).sessions_rename, title.clone().unwrap_or_default())
                    on:click=move |_| renaming.set(Some(rename_id.clone()))
                >
                    {tr(shell.ui_lang, |s| s.sessions_rename)}
                </button>
                <button
                    class="button session-delete"
                    type="button"
                    aria-label=move || format!("{}: {}", strings(shell.ui_lang.get()).sessions_delete, h.title.clone())
                    on:click=move |_| delete(delete_id.clone())
                >
                    {tr(shell.ui_lang, |s| s.sessions_delete)}
                </button>
            </li>
        }
    };
    view! {
        <Show when=move || open.get()>
            <div class="dialog-backdrop" on:click=move |_| close()></div>
            <div
                class="dialog sessions"
                role="dialog"
                aria-modal="true"
                aria-labelledby="sessions-title"
                on:keydown=on_keydown
            >
                <h2 id="sessions-title">{tr(shell.ui_lang, |s| s.sessions_title)}</h2>
                <div class="sessions-tools">
                    <label class="sr-only" for="sessions-search">{tr(shell.ui_lang, |s| s.sessions_search)}</label>
                    <input
                        id="sessions-search"
                        type="search"
                        placeholder=tr(shell.ui_lang, |s| s.sessions_search)
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))
                    />
                    <button
                        class="button sessions-new"
                        type="button"
                        on:click=move |_| {
                            act::run(move || shell.new_conversation());
                            close();
                        }
                    >
                        {tr(shell.ui_lang, |s| s.new_conversation)}
                    </button>
                    <button class="button sessions-export-all" type="button" on:click=export_all>
                        {tr(shell.ui_lang, |s| s.sessions_export_all)}
                    </button>
                </div>
                {move || export_failed.get().map(|why| view! {
                    <p class="sessions-export-failed error" role="alert">
                        {tr(shell.ui_lang, |s| s.sessions_export_failed)} " " {why}
                    </p>
                })}
                {move || deleted.with(|d| d.is_some()).then(|| view! {
                    <p class="sessions-deleted" role="status">
                        {tr(shell.ui_lang, |s| s.sessions_deleted)} " "
                        <button class="button sessions-undo" type="button" on:click=undo>
                            {tr(shell.ui_lang, |s| s.sessions_undo)}
                        </button>
                    </p>
                })}
                {move || {
                    let groups = groups();
                    if groups.is_empty() {
                        return view! { <p class="sessions-none">{tr(shell.ui_lang, |s| s.sessions_none)}</p> }.into_any();
                    }
                    groups
                        .into_iter()
                        .map(|(mode, headers)| {
                            let heading = format!("sessions-mode-{}", mode.name());
                            let labelled_by = heading.clone();
                            view! {
                                <section class="sessions-group" aria-labelledby=labelled_by>
                                    <h3 id=heading>{move || mode.label(shell.ui_lang.get())}</h3>
                                    <ul class="sessions-list">{headers.into_iter().map(row).collect_view()}</ul>
                                </section>
                            }
                        })
                        .collect_view()
                        .into_any()
                }}
                <div class="dialog-actions">
                    <button class="button sessions-close" type="button" on:click=move |_| close()>
                        {tr(shell.ui_lang, |s| s.dismiss)}
                    </button>
                </div>
            </div>
        </Show>
    }
}
