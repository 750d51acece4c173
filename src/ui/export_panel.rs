//! Export the conversation (JSON to import again, Markdown to read) and import one.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::i18n::tr;
use super::shell::Shell;
use crate::store::export::{export_json, export_markdown, file_name, without_keys};

/// Download links and an import button, with what the last import did.
#[component]
pub fn ExportPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let outcome = RwSignal::new(None::<Result<(), String>>);
    // Made when asked for, not after every step: a long conversation's export is large.
    let export_json_file = move |_| {
        let text =
            shell.session.with_untracked(|s| shell.saver.with_journal(|j| export_json(j, s).unwrap_or_default()));
        let text = shell.llm.with_untracked(|llm| without_keys(&text, llm));
        download(&shell.session.with_untracked(|s| file_name(s, "json")), "application/json", &text);
    };
    let export_markdown_file = move |_| {
        let text = shell.session.with_untracked(export_markdown);
        let text = shell.llm.with_untracked(|llm| without_keys(&text, llm));
        download(&shell.session.with_untracked(|s| file_name(s, "md")), "text/markdown", &text);
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        let replace = shell.ui_lang.get_untracked().pick(
            "가져온 대화는 새 대화로 열리고, 지금 대화는 대화 목록에 남습니다. 계속할까요?",
            "The imported conversation opens as a new one; the current one stays in the conversations list. Continue?",
        );
        if !window().confirm_with_message(replace).unwrap_or(false) {
            return;
        }
        spawn_local(async move {
            let text = JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string()).unwrap_or_default();
            outcome.set(Some(shell.import(&text)));
        });
    };
    view! {
        <section class="panel export-panel" aria-labelledby="export-title">
            <div class="panel-head">
                <h2 id="export-title">{tr(shell.ui_lang, |s| s.export_title)}</h2>
            </div>
            <div class="export-actions">
                <button class="button export-json" type="button" on:click=export_json_file>
                    {tr(shell.ui_lang, |s| s.export_json)}
                </button>
                <button class="button export-markdown" type="button" on:click=export_markdown_file>
                    {tr(shell.ui_lang, |s| s.export_markdown)}
                </button>
                <label class="button import-button">
                    {tr(shell.ui_lang, |s| s.import_json)}
                    <input class="sr-only" type="file" accept=".json,application/json" on:change=on_file />
                </label>
            </div>
            {move || outcome.get().map(|r| match r {
                Ok(()) => view! { <p class="import-ok" role="status">{tr(shell.ui_lang, |s| s.import_done)}</p> }.into_any(),
                Err(e) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
            })}
        </section>
    }
}

/// Offers `text` as a file download named `name`.
pub(super) fn download(name: &str, mime: &str, text: &str) {
    let href = format!("data:{mime};charset=utf-8,{}", js_sys::encode_uri_component(text));
    let Ok(link) = document().create_element("a") else { return };
    let _ = link.set_attribute("href", &href);
    let _ = link.set_attribute("download", name);
    if let Ok(link) = link.dyn_into::<web_sys::HtmlElement>() {
        link.click();
    }
}
