//! The artifacts pane: the contract and slots (filled vs missing), the current designs
//! with their critique scores, where the plan stands, and the LLM calls made. Updated live
//! from the session.

use leptos::prelude::*;

use super::cards::SourceBadge;
use super::composer::purpose_label;
use super::i18n::{strings, tr};
use super::shell::Shell;
use crate::engine::call::Purpose;
use crate::engine::discussion::DiscussionPurpose;
use crate::engine::gate::{slot_label, GateStatus};
use crate::engine::lang::group_thousands;
use crate::engine::session::CallRecord;

/// Everything the current conversation has produced so far: the discussion's contract, slots,
/// designs and plan while it is a discussion (a chat has none of them: no empty panels stand
/// beside it), the chat's files and tools while it is a chat, the LLM calls and the export.
#[component]
pub fn Artifacts() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let discussing = Memo::new(move |_| shell.session.with(|s| s.discussion().is_some()));
    view! {
        <super::chat_mode::ChatPanel />
        <Show when=move || discussing.get()>
            <ContractPanel />
            <SlotsPanel />
            <DesignsPanel />
            <PlanPanel />
        </Show>
        <CallsPanel />
        <super::export_panel::ExportPanel />
    }
}

/// The requirement contract, each field marked filled or missing.
#[component]
fn ContractPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let contract = Memo::new(move |_| shell.session.with(|s| s.discussion().and_then(|d| d.contract.clone())));
    let source = Memo::new(move |_| shell.session.with(|s| s.discussion().and_then(|d| d.contract_source.clone())));
    let row = move |label: fn(&super::i18n::Strings) -> &'static str, value: String| {
        let filled = !value.trim().is_empty();
        view! {
            <div class="field" class:missing=!filled data-filled=filled.to_string()>
                <dt>
                    <span class="mark" aria-hidden="true">{if filled { "●" } else { "○" }}</span>
                    {move || label(t())}
                </dt>
                {if filled {
                    view! { <dd lang=super::text_lang(&value)>{value.clone()}</dd> }.into_any()
                } else {
                    view! { <dd>{move || t().missing}</dd> }.into_any()
                }}
            </div>
        }
    };
    view! {
        <section class="panel contract-panel" aria-labelledby="contract-title">
            <div class="panel-head">
                <h2 id="contract-title">{tr(shell.ui_lang, |s| s.contract_title)}</h2>
                {move || source.get().map(|s| view! { <SourceBadge source=s /> })}
            </div>
            {move || match contract.get() {
                None => view! { <p class="empty">{t().no_request}</p> }.into_any(),
                Some(c) => {
                    let confidence = c.confidence;
                    let level = match confidence {
                        crate::engine::contract::Confidence::Low => 1,
                        crate::engine::contract::Confidence::Medium => 2,
                        crate::engine::contract::Confidence::High => 3,
                    };
                    view! {
                        <dl class="contract">
                            {row(|s| s.original_request, c.original_request.clone())}
                            {row(|s| s.context, c.context.clone())}
                            {row(|s| s.goal, c.goal.clone())}
                            {row(|s| s.criteria, c.criteria.join(" · "))}
                            {row(|s| s.format, c.format.clone())}
                        </dl>
                        <div class="confidence" data-level=level.to_string()>
                            <span>{t().confidence}</span>
                            <span class="pips" aria-hidden="true">
                                {(1..=3).map(|i| view! { <span class=if i <= level { "pip on" } else { "pip" }></span> }).collect_view()}
                            </span>
                            <span class="confidence-label">{confidence.label(shell.ui_lang.get())}</span>
                        </div>
                        {(!c.open_questions.is_empty()).then(|| view! {
                            <h3>{t().open_questions}</h3>
                            <ul class="open-questions">{c.open_questions.iter().map(|q| view! { <li lang=super::text_lang(q)>{q.clone()}</li> }).collect_view()}</ul>
                        })}
                        {(!c.answered.is_empty()).then(|| view! {
                            <h3>{t().answered_questions}</h3>
                            <ul class="answered">
                                {c.answered.iter().map(|qa| view! { <li><span class="q" lang=super::text_lang(&qa.q)>{qa.q.clone()}</span>" → "<span class="a" lang=super::text_lang(&qa.a)>{qa.a.clone()}</span></li> }).collect_view()}
                            </ul>
                        })}
                        {(!c.assumptions.is_empty()).then(|| view! {
                            <h3>{t().assumptions}</h3>
                            <ul class="assumptions">{c.assumptions.iter().map(|a| view! { <li lang=super::text_lang(a)>{a.clone()}</li> }).collect_view()}</ul>
                        })}
                    }
                    .into_any()
                }
            }}
        </section>
    }
}

/// The gate's slots: required ones filled or missing, and the gate's status.
#[component]
fn SlotsPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let gate = Memo::new(move |_| shell.session.with(|s| s.discussion().and_then(|d| d.gate.clone())));
    view! {
        <section class="panel slots-panel" aria-labelledby="slots-title">
            <div class="panel-head">
                <h2 id="slots-title">{tr(shell.ui_lang, |s| s.slots_title)}</h2>
                {move || gate.get().map(|g| {
                    let status = match g.status {
                        GateStatus::Completed => t().gate_complete,
                        GateStatus::Cancelled => t().gate_cancelled,
                        GateStatus::Collecting => "",
                    };
                    view! { <span class="gate-status" data-status=format!("{:?}", g.status).to_ascii_lowercase()>{status}</span> }
                })}
            </div>
            {move || match gate.get() {
                None => view! { <p class="empty">{t().no_request}</p> }.into_any(),
                Some(g) => {
                    let lang = shell.ui_lang.get();
                    let names: Vec<String> = g.required_slots.iter().chain(g.optional_slots.iter()).cloned().collect();
                    view! {
                        <ul class="slots">
                            {names
                                .into_iter()
                                .map(|name| {
                                    let value = g.slots.get(&name).map(|v| v.display(lang));
                                    let required = g.required_slots.contains(&name);
                                    let filled = value.is_some();
                                    let asked = g.ask_counts.get(&name).copied().unwrap_or(0);
                                    view! {
                                        <li class="slot" class:filled=filled class:required=required data-slot=name.clone() data-filled=filled.to_string()>
                                            <span class="slot-name">{slot_label(&name, lang)}{required.then_some(" *")}</span>
                                            <span class="slot-value" lang=value.as_deref().map(super::text_lang)>{value.clone().unwrap_or_else(|| t().missing.to_string())}</span>
                                            {(asked > 0 && !filled).then(|| view! { <span class="asked">{format!("×{asked}")}</span> })}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                    .into_any()
                }
            }}
        </section>
    }
}

/// The current designs with their critique scores as bars.
#[component]
fn DesignsPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let rows = Memo::new(move |_| {
        shell.session.with(|s| {
            let Some(d) = s.discussion() else {
                return Vec::new();
            };
            d.designs
                .iter()
                .enumerate()
                .map(|(i, design)| {
                    let score = d
                        .critiques
                        .get(i)
                        .and_then(|c| c.as_ref())
                        .map(|r| (r.critique.overall_score * 100.0).round() as u32);
                    let chosen = d.selected_design.as_ref().is_some_and(|x| x.name == design.name);
                    (design.name.clone(), design.recommended, score, chosen)
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="panel designs-panel" aria-labelledby="designs-title">
            <div class="panel-head">
                <h2 id="designs-title">{tr(shell.ui_lang, |s| s.designs_title)}</h2>
            </div>
            {move || {
                let rows = rows.get();
                if rows.is_empty() {
                    return view! { <p class="empty">{t().no_designs}</p> }.into_any();
                }
                view! {
                    <ol class="design-scores">
                        {rows
                            .into_iter()
                            .map(|(name, recommended, score, chosen)| {
                                let percent = score.unwrap_or(0);
                                let label = format!("{name} · {}", t().score);
                                view! {
                                    <li class:chosen=chosen>
                                        <span class="name"><span lang=super::text_lang(&name)>{name.clone()}</span>{recommended.then(|| format!(" · {}", t().recommended))}{chosen.then(|| format!(" · {}", t().chosen))}</span>
                                        <span class="score-bar small" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow=percent.to_string() aria-label=label>
                                            <span style:width=format!("{percent}%")></span>
                                        </span>
                                        <span class="score-value">{score.map(|s| s.to_string()).unwrap_or_else(|| "…".into())}</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                }
                .into_any()
            }}
        </section>
    }
}

/// Whether the plan exists yet.
#[component]
fn PlanPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    let plan = Memo::new(move |_| {
        shell.session.with(|s| {
            s.discussion().and_then(|d| d.plan.as_ref()).map(|p| {
                (p.source.clone(), p.markdown.lines().next().unwrap_or("").trim_start_matches('#').trim().to_string())
            })
        })
    });
    view! {
        <section class="panel plan-panel" aria-labelledby="plan-title">
            <div class="panel-head">
                <h2 id="plan-title">{tr(shell.ui_lang, |s| s.plan_title)}</h2>
                {move || plan.get().map(|(s, _)| view! { <SourceBadge source=s /> })}
            </div>
            {move || match plan.get() {
                None => view! { <p class="empty">{t().no_plan}</p> }.into_any(),
                Some((_, title)) => view! { <p class="plan-title" lang=super::text_lang(&title)>{title.clone()}</p> }.into_any(),
            }}
        </section>
    }
}

/// Every LLM call of the discussion: what it was for, the model that answered, the tokens
/// the provider reported and how long it took. Shown once there is a call.
#[component]
pub fn CallsPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let t = move || strings(shell.ui_lang.get());
    // Calls are only ever added to a conversation: the panel follows their count (and which
    // conversation it is), so a step that adds none leaves it alone, and no step copies the
    // whole list.
    let conversation = Memo::new(move |_| shell.session.with(|s| s.id.clone()));
    let count = Memo::new(move |_| shell.session.with(|s| s.calls.len()));
    let changed = move || {
        conversation.track();
        count.track();
    };
    let total = move || {
        changed();
        let u = shell.session.with_untracked(|s| s.total_usage());
        format!("{} {}", group_thousands(u64::from(u.input_tokens) + u64::from(u.output_tokens)), t().tokens)
    };
    // One row per finished call, keyed: a new call adds its row and leaves the others alone.
    let row = move |c: CallRecord| {
        let ms = c.finished_at.saturating_sub(c.started_at);
        let time = if ms < 1000 { format!("{ms} ms") } else { format!("{}.{} s", ms / 1000, ms % 1000 / 100) };
        let step = move || {
            let lang = shell.ui_lang.get();
            match c.purpose {
                Purpose::Discussion(DiscussionPurpose::Critique { design }) => {
                    format!("{} {}", purpose_label(c.purpose, lang), design + 1)
                }
                other => purpose_label(other, lang).to_string(),
            }
        };
        let model = c.model.clone();
        let model = move || match (&model, c.ok) {
            (_, false) => t().call_failed.to_string(),
            (Some(m), true) => m.clone(),
            (None, true) => "—".to_string(),
        };
        let tokens = move || match c.usage {
            Some(u) => format!(
                "{} → {}",
                group_thousands(u64::from(u.input_tokens)),
                group_thousands(u64::from(u.output_tokens))
            ),
            None => t().usage_not_reported.to_string(),
        };
        view! {
            <tr class:failed=!c.ok data-call=c.call.to_string()>
                <td>
                    <div class="step-name">{step}</div>
                    <div class="model">{model}</div>
                </td>
                <td class="num">{tokens}</td>
                <td class="num">{time}</td>
            </tr>
        }
    };
    view! {
        <Show when=move || count.get() != 0>
            <section class="panel calls-panel" aria-labelledby="calls-title">
                <div class="panel-head">
                    <h2 id="calls-title">{tr(shell.ui_lang, |s| s.calls_title)}</h2>
                    <span class="calls-total">{total}</span>
                </div>
                <table class="calls">
                    <thead>
                        <tr>
                            <th scope="col">{tr(shell.ui_lang, |s| s.col_step)}</th>
                            <th scope="col">{tr(shell.ui_lang, |s| s.col_tokens)}</th>
                            <th scope="col">{tr(shell.ui_lang, |s| s.col_time)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || {
                                changed();
                                shell.session.with_untracked(|s| {
                                    let row = |(at, c): (usize, &CallRecord)| (c.call, c.started_at, c.finished_at, at);
                                    s.calls.iter().enumerate().map(row).collect::<Vec<_>>()
                                })
                            }
                            key=|&(call, started, finished, _)| (call, started, finished)
                            children=move |(.., at)| shell.session.with_untracked(|s| s.calls.get(at).cloned()).map(row)
                        />
                    </tbody>
                </table>
            </section>
        </Show>
    }
}
