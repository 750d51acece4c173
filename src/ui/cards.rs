//! Cards in the conversation: questions to answer, design proposals, critique scores,
//! and the plan; plus the badge saying who made an artifact.

use leptos::prelude::*;

use super::act;
use super::i18n::{strings, tr};
use super::markdown_view::Markdown;
use super::shell::Shell;
use super::text_lang;
use crate::engine::critique::Lens;
use crate::engine::design::DesignProposal;
use crate::engine::plan::Plan;
use crate::engine::session::{Artifact, CardKind, Event, QuestionCard, Reviewed};
use crate::engine::source::Source;

/// Who made an artifact: an LLM (its model) or the heuristics, always visible.
#[component]
pub fn SourceBadge(source: Source) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let is_llm = source.is_llm();
    let label = source.clone();
    view! {
        <span
            class=if is_llm { "badge badge-llm" } else { "badge badge-heuristic" }
            data-source=if is_llm { "llm" } else { "heuristic" }
            title=move || if is_llm { strings(shell.ui_lang.get()).llm_hint } else { strings(shell.ui_lang.get()).heuristic_hint }
        >
            {move || {
                let text = label.badge(shell.ui_lang.get());
                if is_llm { format!("LLM · {text}") } else { text }
            }}
        </span>
    }
}

/// A card of questions: open, it takes answers; answered, it only shows them.
#[component]
pub fn QuestionCardView(card: QuestionCard) -> impl IntoView {
    match card.answers.clone() {
        Some(given) => view! { <AnsweredCard card given /> }.into_any(),
        None => view! { <OpenCard card /> }.into_any(),
    }
}

fn kind_class(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Clarify => "clarify",
        CardKind::ConfirmAssumptions => "confirm",
        CardKind::ChooseDesign => "choose",
    }
}

/// An answered card, read-only: no signals, no handlers, the choices shown as given.
#[component]
fn AnsweredCard(card: QuestionCard, given: Vec<String>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let card_id = card.id;
    let questions = card
        .questions
        .iter()
        .enumerate()
        .map(|(qi, q)| {
            let answer = given.get(qi).cloned().unwrap_or_default();
            let options = q
                .options
                .iter()
                .map(|option| {
                    // Multi-select answers list the chosen labels one per line.
                    let chosen = answer.lines().any(|l| l == option.as_str());
                    let role = if q.multi_select { "checkbox" } else { "radio" };
                    view! {
                        <button type="button" class="option" role=role aria-checked=chosen.to_string() disabled=true>
                            {option.clone()}
                        </button>
                    }
                })
                .collect_view();
            let shown = move || {
                if answer.is_empty() {
                    strings(shell.ui_lang.get()).skipped.to_string()
                } else {
                    answer.clone()
                }
            };
            view! {
                <fieldset class="question" lang=text_lang(&q.text)>
                    <legend>{q.text.clone()}</legend>
                    <div class="options" role="radiogroup" aria-label=q.text.clone()>
                        {options}
                    </div>
                    <p class="given"><span class="given-label" lang=move || shell.ui_lang.get().tag()>{tr(shell.ui_lang, |s| s.answered)}</span>" "{shown}</p>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <div class=format!("card question-card {}", kind_class(card.kind)) data-card=card_id.to_string() data-open="false">
            <div class="card-head">
                <h3>{tr(shell.ui_lang, |s| s.questions_title)}</h3>
                <SourceBadge source=card.source.clone() />
            </div>
            {questions}
        </div>
    }
}

/// An open card: options as buttons, "Other" as free text, one submit. A card with a
/// single choice question answers on the first click. Answering re-renders the card as
/// `AnsweredCard`, so the answer is dispatched after the click handler has returned.
#[component]
fn OpenCard(card: QuestionCard) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let card_id = card.id;
    // Per question, the options chosen (one label per line) and the "Other" text, apart: a
    // multi-select answer is both, a single choice one or the other.
    let answers: Vec<RwSignal<String>> = card.questions.iter().map(|_| RwSignal::new(String::new())).collect();
    let others: Vec<RwSignal<String>> = card.questions.iter().map(|_| RwSignal::new(String::new())).collect();
    let answered = card.answers.clone();
    let single_choice =
        card.questions.len() == 1 && !card.questions[0].options.is_empty() && !card.questions[0].multi_select;
    let submit = {
        let answers = answers.clone();
        let others = others.clone();
        move || {
            let values: Vec<String> = answers
                .iter()
                .zip(&others)
                .map(|(chosen, other)| answer_value(&chosen.get_untracked(), &other.get_untracked()))
                .collect();
            if values.iter().all(|v| v.trim().is_empty()) {
                return;
            }
            act::dispatch(shell, Event::Answer { card: card_id, answers: values });
        }
    };
    let kind_class = match card.kind {
        CardKind::Clarify => "clarify",
        CardKind::ConfirmAssumptions => "confirm",
        CardKind::ChooseDesign => "choose",
    };
    let questions = card
        .questions
        .iter()
        .enumerate()
        .map(|(qi, q)| {
            let value = answers[qi];
            let other = others[qi];
            let given = answered.as_ref().and_then(|a| a.get(qi).cloned());
            let group = format!("q-{card_id}-{qi}");
            let multi = q.multi_select;
            let locked = given.is_some();
            // Multi-select answers list the chosen labels one per line.
            let is_chosen = move |label: &str, v: &str| {
                if multi {
                    v.lines().any(|l| l == label)
                } else {
                    v == label
                }
            };
            let all_labels = q.options.clone();
            let options = q
                .options
                .iter()
                .enumerate()
                .map(|(oi, option)| {
                    let option = option.clone();
                    let label = option.clone();
                    let submit = submit.clone();
                    let given_here = given.clone();
                    let description = q.descriptions.get(oi).filter(|d| !d.trim().is_empty()).cloned();
                    let check = option.clone();
                    let roving = option.clone();
                    let all = all_labels.clone();
                    // One Tab stop per group: the chosen option, else the first; arrows move.
                    let tab_stop = move || {
                        let v = value.get();
                        let any = all.iter().any(|l| is_chosen(l, &v));
                        if is_chosen(&roving, &v) || (!any && oi == 0) { "0" } else { "-1" }
                    };
                    view! {
                        <button
                            type="button"
                            class="option"
                            tabindex=tab_stop
                            role=if multi { "checkbox" } else { "radio" }
                            data-index=(oi + 1).to_string()
                            aria-keyshortcuts=(oi + 1).to_string()
                            aria-checked=move || {
                                let shown = given_here.clone().unwrap_or_else(|| value.get());
                                is_chosen(&check, &shown).to_string()
                            }
                            disabled=locked
                            on:click=move |_| {
                                if multi {
                                    let mut chosen: Vec<String> =
                                        value.get_untracked().lines().map(str::to_string).collect();
                                    match chosen.iter().position(|c| *c == label) {
                                        Some(at) => {
                                            chosen.remove(at);
                                        }
                                        None => chosen.push(label.clone()),
                                    }
                                    value.set(chosen.join("\n"));
                                } else {
                                    // A choice replaces the other answer.
                                    other.set(String::new());
                                    value.set(label.clone());
                                    if single_choice {
                                        submit();
                                    }
                                }
                            }
                        >
                            <span class="option-label" lang=text_lang(&option)>{option.clone()}</span>
                            {description.map(|d| view! { <span class="option-description" lang=text_lang(&d)>{d.clone()}</span> })}
                        </button>
                    }
                })
                .collect_view();
            let show_other = q.allow_other && given.is_none();
            let other_id = format!("{group}-other");
            let header = q.header.clone();
            let submit_other = submit.clone();
            // Arrow keys move between options; number keys pick one.
            let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
                use wasm_bindgen::JsCast;
                let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
                if target.tag_name().eq_ignore_ascii_case("input") {
                    return;
                }
                let Some(set) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                let Ok(buttons) = set.query_selector_all("button.option") else { return };
                let count = buttons.length();
                let at = (0..count).find(|i| buttons.get(*i).is_some_and(|b| b.is_same_node(Some(&target))));
                let key = ev.key();
                let goto = match key.as_str() {
                    "ArrowDown" | "ArrowRight" => at.map(|i| (i + 1) % count.max(1)).or(Some(0)),
                    "ArrowUp" | "ArrowLeft" => at.map(|i| (i + count - 1) % count.max(1)).or(Some(0)),
                    k if k.len() == 1 && k.chars().all(|c| c.is_ascii_digit() && c != '0') => {
                        let n = k.parse::<u32>().unwrap_or(0);
                        if n >= 1 && n <= count {
                            if let Some(b) = buttons.get(n - 1).and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
                                ev.prevent_default();
                                let _ = b.focus();
                                b.click();
                            }
                        }
                        None
                    }
                    _ => None,
                };
                if let Some(i) = goto {
                    if let Some(b) = buttons.get(i).and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
                        ev.prevent_default();
                        let _ = b.focus();
                    }
                }
            };
            view! {
                <fieldset class="question" class:multi=multi on:keydown=on_keydown>
                    {header.map(|h| view! { <span class="question-header" lang=text_lang(&h)>{h.clone()}</span> })}
                    <legend lang=text_lang(&q.text)>{q.text.clone()}</legend>
                    <Show when=move || multi && !locked>
                        <p class="hint">{tr(shell.ui_lang, |s| s.select_all_that_apply)}</p>
                    </Show>
                    <div
                        class="options"
                        role=if multi { "group" } else { "radiogroup" }
                        aria-label=q.text.clone()
                    >
                        {options}
                    </div>
                    <Show when=move || show_other>
                        <label class="sr-only" for=other_id.clone()>{tr(shell.ui_lang, |s| s.other)}</label>
                        <input
                            id=other_id.clone()
                            class="other"
                            type="text"
                            placeholder=move || t().other_placeholder
                            prop:value=move || other.get()
                            on:input=move |ev| {
                                // Written instead of a single choice, or beside several.
                                if !multi {
                                    value.set(String::new());
                                }
                                other.set(event_target_value(&ev));
                            }
                            on:keydown={
                                let submit = submit_other.clone();
                                move |ev: leptos::ev::KeyboardEvent| {
                                    if ev.key() == "Enter" && !ev.is_composing() {
                                        ev.prevent_default();
                                        submit();
                                    }
                                }
                            }
                        />
                    </Show>
                    {given.clone().map(|a| {
                        let shown = if a.is_empty() { strings(shell.ui_lang.get_untracked()).skipped.to_string() } else { a.replace('\n', ", ") };
                        view! { <p class="given"><span class="given-label">{tr(shell.ui_lang, |s| s.answered)}</span>" "{shown}</p> }
                    })}
                </fieldset>
            }
        })
        .collect_view();
    let open = answered.is_none();
    let submit_click = submit.clone();
    view! {
        <div class=format!("card question-card {kind_class}") data-card=card_id.to_string() data-open=open.to_string()>
            <div class="card-head">
                <h3>{tr(shell.ui_lang, |s| s.questions_title)}</h3>
                <SourceBadge source=card.source.clone() />
            </div>
            {questions}
            <Show when=move || open && !single_choice>
                <button class="button primary submit" type="button" on:click={
                    let submit = submit_click.clone();
                    move |_| submit()
                }>
                    {tr(shell.ui_lang, |s| s.answer)}
                </button>
            </Show>
            <Show when=move || open && shell.session.with(|s| s.can_cancel_cards())>
                <button
                    class="button cancel-card"
                    type="button"
                    on:click=move |_| act::dispatch(shell, Event::chat(crate::engine::chat::ChatAction::CancelCard { card: card_id }))
                >
                    {tr(shell.ui_lang, |s| s.cancel)}
                </button>
            </Show>
        </div>
    }
}

/// One question's answer: the options chosen (one label per line) and the "Other" text after
/// them; either may be empty.
fn answer_value(chosen: &str, other: &str) -> String {
    [chosen.trim(), other.trim()].into_iter().filter(|v| !v.is_empty()).collect::<Vec<_>>().join("\n")
}

/// The proposals of one round as cards; the latest round's cards can be chosen.
#[component]
pub fn DesignsView(
    message_id: u32,
    round: u32,
    designs: Vec<DesignProposal>,
    source: Source,
    changes: Vec<String>,
) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let lang = move || shell.ui_lang.get();
    // Only the newest design message is live, and only while a choice is open.
    let live = Memo::new(move |_| {
        shell.session.with(|s| {
            let newest = s
                .messages
                .iter()
                .rev()
                .find(|m| {
                    matches!(m.body.artifact().and_then(|a| a.discussion()), Some(Artifact::DesignsPresented { .. }))
                })
                .map(|m| m.id);
            newest == Some(message_id) && s.can_choose_design()
        })
    });
    let chosen = Memo::new(move |_| shell.session.with(|s| s.chosen_design().map(str::to_string)));
    let has_changes = !changes.is_empty();
    view! {
        <div class="designs-block">
            <div class="card-head">
                <h3>{move || format!("{} · {} {}", t().designs_title, t().round, round)}</h3>
                <SourceBadge source=source.clone() />
            </div>
            <Show when=move || has_changes>
                <div class="changes">
                    <strong>{tr(shell.ui_lang, |s| s.changes)}</strong>
                    <ul>{changes.iter().map(|c| view! { <li lang=text_lang(c)>{c.clone()}</li> }).collect_view()}</ul>
                </div>
            </Show>
            <div class="design-grid">
                {designs
                    .into_iter()
                    .enumerate()
                    .map(|(index, d)| {
                        let name = d.name.clone();
                        let is_chosen = move || chosen.get().as_deref() == Some(name.as_str()) && !live.get();
                        let complexity = d.complexity;
                        view! {
                            <article class="card design-card" class:recommended=d.recommended data-design=index.to_string()>
                                <header>
                                    <span class="design-index">{(index + 1).to_string()}</span>
                                    <h4 lang=text_lang(&d.name)>{d.name.clone()}</h4>
                                    <Show when=move || d.recommended>
                                        <span class="badge badge-recommended">{tr(shell.ui_lang, |s| s.recommended)}</span>
                                    </Show>
                                    <Show when=is_chosen>
                                        <span class="badge badge-chosen">{tr(shell.ui_lang, |s| s.chosen)}</span>
                                    </Show>
                                </header>
                                <p class="description" lang=text_lang(&d.description)>{d.description.clone()}</p>
                                <div class="flow" aria-label=tr(shell.ui_lang, |s| s.agents)>
                                    {d.agents
                                        .iter()
                                        .enumerate()
                                        .map(|(i, a)| {
                                            let title = if a.model.is_empty() {
                                                a.description.clone()
                                            } else {
                                                let model = crate::engine::design::model_label(&a.model, shell.ui_lang.get_untracked());
                                                format!("{} · {}", a.description, model)
                                            };
                                            view! {
                                                {(i > 0).then(|| view! { <span class="arrow" aria-hidden="true">"→"</span> })}
                                                <span class="agent" title=title data-role=a.role.clone() lang=text_lang(&a.name)>{a.name.clone()}</span>
                                            }
                                        })
                                        .collect_view()}
                                </div>
                                <dl class="facts">
                                    <dt>{tr(shell.ui_lang, |s| s.cost)}</dt>
                                    <dd lang=text_lang(&d.estimated_cost)>{d.estimated_cost.clone()}</dd>
                                    <dt>{tr(shell.ui_lang, |s| s.complexity)}</dt>
                                    <dd class=format!("complexity {complexity:?}").to_ascii_lowercase()>{move || complexity.label(lang())}</dd>
                                </dl>
                                <div class="pros-cons">
                                    <div>
                                        <h5>{tr(shell.ui_lang, |s| s.pros)}</h5>
                                        <ul class="pros">{d.pros.iter().map(|p| view! { <li lang=text_lang(p)>{p.clone()}</li> }).collect_view()}</ul>
                                    </div>
                                    <div>
                                        <h5>{tr(shell.ui_lang, |s| s.cons)}</h5>
                                        <ul class="cons">{d.cons.iter().map(|c| view! { <li lang=text_lang(c)>{c.clone()}</li> }).collect_view()}</ul>
                                    </div>
                                </div>
                                <Show when=move || live.get()>
                                    <button
                                        class="button primary choose"
                                        type="button"
                                        on:click=move |_| act::dispatch(shell, Event::choose_design(index))
                                    >
                                        {tr(shell.ui_lang, |s| s.choose_design)}
                                    </button>
                                </Show>
                            </article>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}

/// Critique of each design: a score bar and the six lenses.
#[component]
pub fn CritiqueView(critiques: Vec<Reviewed>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    view! {
        <div class="critique-block">
            <div class="card-head">
                <h3>{tr(shell.ui_lang, |s| s.critique_title)}</h3>
            </div>
            {critiques
                .into_iter()
                .map(|r| {
                    let c = r.critique.clone();
                    let percent = (c.overall_score * 100.0).round() as u32;
                    let level = if percent >= 80 { "good" } else if percent >= 60 { "fair" } else { "poor" };
                    view! {
                        <section class="card critique" data-score=percent.to_string()>
                            <header>
                                <h4 lang=text_lang(&c.design_name)>{c.design_name.clone()}</h4>
                                <SourceBadge source=r.source.clone() />
                            </header>
                            <div class="score-row">
                                <span class="score-label">{tr(shell.ui_lang, |s| s.score)}</span>
                                <div
                                    class=format!("score-bar {level}")
                                    role="meter"
                                    aria-valuemin="0"
                                    aria-valuemax="100"
                                    aria-valuenow=percent.to_string()
                                    aria-label=move || format!("{} {}", c.design_name, t().score)
                                >
                                    <span style:width=format!("{percent}%")></span>
                                </div>
                                <span class="score-value">{percent.to_string()}</span>
                            </div>
                            <p class="recommendation" lang=text_lang(&r.critique.recommendation)>{r.critique.recommendation.clone()}</p>
                            <details>
                                <summary>{move || Lens::ALL.iter().map(|l| l.label(shell.ui_lang.get())).collect::<Vec<_>>().join(" · ")}</summary>
                                <div class="lenses">
                                    {Lens::ALL
                                        .into_iter()
                                        .map(|lens| {
                                            let notes = r.critique.notes(lens).to_vec();
                                            view! {
                                                <div class="lens" data-lens=format!("{lens:?}").to_ascii_lowercase()>
                                                    <h5>{move || lens.label(shell.ui_lang.get())}</h5>
                                                    <ul>{notes.into_iter().map(|n| view! { <li lang=text_lang(&n)>{n.clone()}</li> }).collect_view()}</ul>
                                                </div>
                                            }
                                        })
                                        .collect_view()}
                                </div>
                            </details>
                        </section>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// The plan: the chosen design, the Markdown, and copy/download actions.
#[component]
pub fn PlanView(plan: Plan, selected_design: DesignProposal, discussion_summary: String) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let copied = RwSignal::new(false);
    let markdown = plan.markdown.clone();
    let for_copy = markdown.clone();
    let copy = move |_| {
        let clipboard = window().navigator().clipboard();
        let _ = clipboard.write_text(&for_copy);
        copied.set(true);
    };
    let href = format!("data:text/markdown;charset=utf-8,{}", js_sys::encode_uri_component(&markdown));
    let interrupted = plan.interrupted;
    view! {
        <div class="card plan-card">
            <div class="card-head">
                <h3>{tr(shell.ui_lang, |s| s.plan_title)}</h3>
                <SourceBadge source=plan.source.clone() />
            </div>
            <p class="plan-meta">
                <strong>{tr(shell.ui_lang, |s| s.chosen_design)}</strong>": "
                <span lang=text_lang(&selected_design.name)>{selected_design.name.clone()}</span>
                <br />
                <strong>{tr(shell.ui_lang, |s| s.summary)}</strong>": "
                <span lang=text_lang(&discussion_summary)>{discussion_summary.clone()}</span>
            </p>
            <Show when=move || interrupted>
                <p class="interrupted" role="status">{tr(shell.ui_lang, |s| s.interrupted)}</p>
            </Show>
            <div lang=text_lang(&markdown)>
                <Markdown text=markdown.clone() />
            </div>
            {plan.partial.clone().map(|partial| view! {
                <details class="partial-plan">
                    <summary>{tr(shell.ui_lang, |s| s.partial_plan)}</summary>
                    <Markdown text=partial />
                </details>
            })}
            <div class="plan-actions">
                <button class="button" type="button" on:click=copy>
                    {move || if copied.get() { t().copied } else { t().copy }}
                </button>
                <a class="button" href=href download="plan.md">
                    {tr(shell.ui_lang, |s| s.download)}
                </a>
            </div>
        </div>
    }
}
