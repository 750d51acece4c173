//! Renders parsed Markdown as DOM nodes: text is always text, links carry
//! `rel="noopener noreferrer"`, and images load only when the user clicks.

use leptos::prelude::*;

use crate::markdown::{parse, Block, Inline, ListItem};

/// Inline code of at most this many characters is kept on one line (`.md code.nowrap`); longer
/// code may wrap, so that it never runs out of a narrow message.
const SHORT_CODE: usize = 32;

/// Markdown text rendered safely.
#[component]
pub fn Markdown(#[prop(into)] text: String) -> impl IntoView {
    let blocks = parse(&text);
    view! { <div class="md">{blocks.into_iter().map(block_view).collect_view()}</div> }
}

fn block_view(block: Block) -> AnyView {
    match block {
        Block::Heading { level, content } => {
            let inner = inlines_view(content);
            match level {
                1 => view! { <h3>{inner}</h3> }.into_any(),
                2 => view! { <h4>{inner}</h4> }.into_any(),
                _ => view! { <h5>{inner}</h5> }.into_any(),
            }
        }
        Block::Paragraph(content) => view! { <p>{inlines_view(content)}</p> }.into_any(),
        Block::List { start: Some(start), items } => view! {
            <ol start=start.to_string()>
                {items.into_iter().map(list_item).collect_view()}
            </ol>
        }
        .into_any(),
        Block::List { start: None, items } => view! {
            <ul>
                {items.into_iter().map(list_item).collect_view()}
            </ul>
        }
        .into_any(),
        Block::Code { lang, text } => view! { <pre data-lang=lang><code>{text}</code></pre> }.into_any(),
        Block::Quote(blocks) => view! { <blockquote>{blocks.into_iter().map(block_view).collect_view()}</blockquote> }.into_any(),
        Block::Table { header, rows } => view! {
            <div class="md-table">
                <table>
                    <thead>
                        <tr>{header.into_iter().map(|cell| view! { <th>{inlines_view(cell)}</th> }).collect_view()}</tr>
                    </thead>
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|row| view! { <tr>{row.into_iter().map(|cell| view! { <td>{inlines_view(cell)}</td> }).collect_view()}</tr> })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        }
        .into_any(),
        Block::Rule => view! { <hr /> }.into_any(),
    }
}

/// A list item; a task's checkbox is labelled by the task's own words.
fn list_item(item: ListItem) -> AnyView {
    let content = inlines_view(item.content);
    match item.checked {
        Some(c) => view! {
            <li class="task">
                <label>
                    <input type="checkbox" disabled=true checked=c />
                    " "
                    {content}
                </label>
            </li>
        }
        .into_any(),
        None => view! { <li>{content}</li> }.into_any(),
    }
}

fn inlines_view(inlines: Vec<Inline>) -> AnyView {
    inlines.into_iter().map(inline_view).collect_view().into_any()
}

fn inline_view(inline: Inline) -> AnyView {
    match inline {
        Inline::Text(text) => text.into_any(),
        // A short command stays on one line: "git reset --soft HEAD~1" is not broken after "--".
        Inline::Code(code) => {
            let short = code.chars().count() <= SHORT_CODE;
            view! { <code class:nowrap=short>{code}</code> }.into_any()
        }
        Inline::Strong(content) => view! { <strong>{inlines_view(content)}</strong> }.into_any(),
        Inline::Emphasis(content) => view! { <em>{inlines_view(content)}</em> }.into_any(),
        Inline::Link { href, content } => view! {
            <a href=href target="_blank" rel="noopener noreferrer">
                {inlines_view(content)}
            </a>
        }
        .into_any(),
        Inline::Image { src, alt } => view! { <ClickToLoadImage src alt /> }.into_any(),
        Inline::LineBreak => view! { <br /> }.into_any(),
    }
}

/// An image from a model's answer: a remote URL can carry data out, so it is fetched
/// only after the user asks for it.
#[component]
fn ClickToLoadImage(src: String, alt: String) -> impl IntoView {
    let loaded = RwSignal::new(false);
    let host = src.split("//").nth(1).and_then(|rest| rest.split('/').next()).unwrap_or("").to_string();
    let lang = expect_context::<super::shell::Shell>().ui_lang;
    let label = move || match lang.get() {
        crate::engine::lang::Lang::Ko => format!("이미지 불러오기 ({host})"),
        crate::engine::lang::Lang::En => format!("Load image ({host})"),
    };
    let alt_text = alt.clone();
    view! {
        <Show
            when=move || loaded.get()
            fallback=move || {
                view! {
                    <button class="img-gate" type="button" on:click=move |_| loaded.set(true) title=alt_text.clone()>
                        {label.clone()}
                    </button>
                }
            }
        >
            <img src=src.clone() alt=alt.clone() referrerpolicy="no-referrer" loading="lazy" />
        </Show>
    }
}
