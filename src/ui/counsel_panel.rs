//! The counseling side panel: the current part, the task list with statuses, the current
//! module and why it changed, the supervisor's scores as a small chart, and at the end the
//! session summary with a Markdown download. Also the part stepper shown above the chat.

use leptos::prelude::*;

use super::artifacts::CallsPanel;
use super::i18n::{counsel_strings, strings};
use super::markdown_view::Markdown;
use super::shell::Shell;
use crate::engine::counsel::crisis::CrisisKind;
use crate::engine::counsel::module::{Module, ModuleChange};
use crate::engine::counsel::task::{Part, TaskStatus};
use crate::engine::counsel::Counseling;

/// What the side panel shows of the counseling state (None outside counseling mode). The
/// conversation itself is left out: a reply changes none of this, so it re-renders none of
/// the panel.
#[derive(Clone, PartialEq)]
struct PanelState {
    part: Part,
    /// The latest crisis the session recorded.
    crisis: Option<CrisisKind>,
    tasks: Vec<TaskRow>,
    module: Module,
    change: Option<ModuleChange>,
    scores: Vec<u8>,
    summary: Option<String>,
}

/// A task as the panel lists it.
#[derive(Clone, PartialEq)]
struct TaskRow {
    id: String,
    part: Part,
    title: String,
    status: TaskStatus,
    current: bool,
}

impl PanelState {
    fn of(s: &Counseling) -> Self {
        PanelState {
            part: s.part,
            crisis: s.crises.last().map(|c| c.kind),
            tasks: s
                .tasks
                .iter()
                .map(|task| TaskRow {
                    id: task.id.clone(),
                    part: task.part,
                    title: task.title.clone(),
                    status: task.status,
                    current: s.current_task.as_deref() == Some(task.id.as_str()),
                })
                .collect(),
            module: s.module,
            change: s.module_changes.last().cloned(),
            scores: s.supervision.iter().map(|f| f.score).collect(),
            summary: (s.part == Part::Ended).then(|| s.summary_markdown()),
        }
    }
}

/// Part 1 … Part 3 in a row, the current part highlighted, all done once the session ended.
#[component]
pub fn PartStepper() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let part = Memo::new(move |_| shell.session.with(|s| s.counseling().map(|m| m.state.part).unwrap_or_default()));
    let lang = shell.ui_lang;
    // The stepper shows whenever the counseling mode does: build the crisis check's patterns
    // while the user writes the first message, not when it is sent.
    request_idle_callback(crate::engine::counsel::crisis::prepare);
    view! {
        <nav class="stepper part-stepper" aria-label=move || counsel_strings(lang.get()).parts_label>
            <ol>
                {[Part::Start, Part::Exploration, Part::Closing]
                    .into_iter()
                    .map(|p| {
                        let state = move || {
                            let current = part.get();
                            if p == current {
                                "current"
                            } else if p < current {
                                "done"
                            } else {
                                "todo"
                            }
                        };
                        view! {
                            <li
                                class=move || format!("step {}", state())
                                data-part=p.number().to_string()
                                aria-current=move || (state() == "current").then_some("step")
                            >
                                <span class="dot" aria-hidden="true">
                                    {move || if state() == "done" { "✓".to_string() } else { p.number().to_string() }}
                                </span>
                                <span class="label">{move || p.label(lang.get())}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </nav>
    }
}

/// Everything the counseling side panel shows.
#[component]
pub fn CounselPanel() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let lang = shell.ui_lang;
    let t = move || counsel_strings(lang.get());
    let state = Memo::new(move |_| shell.session.with(|s| s.counseling().map(|m| PanelState::of(&m.state))));
    let part = move || {
        state.with(|s| s.as_ref().map(|s| (s.part.label(lang.get()).to_string(), s.part.goal(lang.get()).to_string())))
    };
    let crisis = move || state.with(|s| s.as_ref().and_then(|s| s.crisis));
    let tasks = move || {
        let lang = lang.get();
        state.with(|s| {
            let Some(s) = s else { return Vec::new() };
            s.tasks
                .iter()
                .map(|task| {
                    let status = match task.status {
                        TaskStatus::Pending => "pending",
                        TaskStatus::InProgress => "in_progress",
                        TaskStatus::Sufficient => "sufficient",
                        TaskStatus::Completed => "completed",
                    };
                    view! {
                        <li
                            class=format!("task status-{status}")
                            class:current=task.current
                            data-task=task.id.clone()
                            data-status=status
                            aria-current=task.current.then_some("step")
                        >
                            <span class="task-part">{format!("P{}", task.part.number())}</span>
                            <span class="task-title">{task.title.clone()}</span>
                            <span class="task-status">{task.status.label(lang)}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let module = move || {
        let lang = lang.get();
        state.with(|s| {
            let s = s.as_ref()?;
            let why = match &s.change {
                Some(change) => {
                    format!("{} ({} → {})", change.reason.describe(lang), change.from.name(lang), change.to.name(lang))
                }
                None => counsel_strings(lang).module_initial.to_string(),
            };
            Some((s.module.name(lang).to_string(), s.module.summary(lang).to_string(), why))
        })
    };
    let scores = Memo::new(move |_| state.with(|s| s.as_ref().map(|s| s.scores.clone()).unwrap_or_default()));
    let summary = Memo::new(move |_| state.with(|s| s.as_ref().and_then(|s| s.summary.clone())));
    view! {
        <section class="panel counsel-part-panel" aria-labelledby="counsel-part-title">
            <div class="panel-head">
                <h2 id="counsel-part-title">{move || t().part_title}</h2>
            </div>
            {move || part().map(|(label, goal)| view! {
                <p class="counsel-part" data-testid="counsel-part">{label}</p>
                <p class="counsel-part-goal">{goal}</p>
            })}
            <Show when=move || crisis().is_some()>
                <p class="counsel-crisis" role="note">
                    {move || if crisis() == Some(CrisisKind::Abuse) { t().abuse_noted } else { t().crisis_noted }}
                </p>
            </Show>
            <p class="counsel-disclaimer">{move || t().disclaimer}</p>
        </section>
        <section class="panel counsel-tasks-panel" aria-labelledby="counsel-tasks-title">
            <div class="panel-head">
                <h2 id="counsel-tasks-title">{move || t().tasks_title}</h2>
            </div>
            <ul class="counsel-tasks">{tasks}</ul>
        </section>
        <section class="panel counsel-module-panel" aria-labelledby="counsel-module-title">
            <div class="panel-head">
                <h2 id="counsel-module-title">{move || t().module_title}</h2>
            </div>
            {move || module().map(|(name, summary, why)| view! {
                <p class="counsel-module" data-testid="counsel-module">
                    <strong>{name}</strong>
                    " — "
                    {summary}
                </p>
                <p class="counsel-module-why">
                    <span class="muted">{move || t().module_why}": "</span>
                    {why}
                </p>
            })}
        </section>
        <section class="panel counsel-supervision-panel" aria-labelledby="counsel-supervision-title">
            <div class="panel-head">
                <h2 id="counsel-supervision-title">{move || t().supervision_title}</h2>
            </div>
            {move || {
                let scores = scores.get();
                if scores.is_empty() {
                    view! { <p class="empty">{t().supervision_none}</p> }.into_any()
                } else {
                    view! { <ScoreChart scores /> }.into_any()
                }
            }}
        </section>
        <section class="panel counsel-summary-panel" aria-labelledby="counsel-summary-title">
            <div class="panel-head">
                <h2 id="counsel-summary-title">{move || t().summary_title}</h2>
            </div>
            {move || match summary.get() {
                None => view! { <p class="empty">{t().summary_pending}</p> }.into_any(),
                Some(markdown) => {
                    let href = format!("data:text/markdown;charset=utf-8,{}", js_sys::encode_uri_component(&markdown));
                    // The panel has its own heading; the file keeps the Markdown title.
                    let markdown = match markdown.split_once('\n') {
                        Some((title, rest)) if title.starts_with("# ") => rest.to_string(),
                        _ => markdown,
                    };
                    // Its sections then sit one level up, right under the panel's heading.
                    let markdown = markdown
                        .lines()
                        .map(|l| if l.starts_with("##") { &l[1..] } else { l })
                        .collect::<Vec<_>>()
                        .join("\n");
                    view! {
                        <div class="counsel-summary">
                            <Markdown text=markdown />
                            <a class="button counsel-download" href=href download="counseling-summary.md">
                                {strings(lang.get()).download}
                            </a>
                        </div>
                    }
                    .into_any()
                }
            }}
        </section>
        <CallsPanel />
    }
}

/// Chart geometry: width, height and the inner margin of the score chart.
const CHART: (f32, f32, f32) = (200.0, 64.0, 6.0);

/// The (x, y) of each score (0..=10) in the chart.
pub fn chart_points(scores: &[u8]) -> Vec<(f32, f32)> {
    let (w, h, m) = CHART;
    let step = if scores.len() > 1 { (w - 2.0 * m) / (scores.len() - 1) as f32 } else { 0.0 };
    scores
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let x = if scores.len() > 1 { m + step * i as f32 } else { w / 2.0 };
            (x, h - m - f32::from((*s).min(10)) * (h - 2.0 * m) / 10.0)
        })
        .collect()
}

/// A chart coordinate to one decimal ("12.5", "64"), written without core's float
/// formatting (which would cost the first load about 4 KB gzip for this chart alone). It
/// rounds `v × 10`, so next to a tie (99.95) it may differ from `{:.1}` by a tenth of a
/// unit, which the chart cannot show.
pub fn tenths(v: f32) -> String {
    let t = (v * 10.0).round() as i32;
    let sign = if t < 0 { "-" } else { "" };
    let (whole, tenth) = ((t / 10).abs(), (t % 10).abs());
    if tenth == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{tenth}")
    }
}

/// The supervisor's scores as a line over the session, with the attention line at 7.
#[component]
fn ScoreChart(scores: Vec<u8>) -> impl IntoView {
    let shell = expect_context::<Shell>();
    let lang = shell.ui_lang;
    let list = scores.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
    let label = move || format!("{}: {}", counsel_strings(lang.get()).chart_label, list);
    let points = chart_points(&scores);
    let line = points.iter().map(|(x, y)| format!("{},{}", tenths(*x), tenths(*y))).collect::<Vec<_>>().join(" ");
    let (w, h, m) = CHART;
    let threshold = tenths(h - m - 7.0 * (h - 2.0 * m) / 10.0);
    let right = tenths(w - m);
    let csv = scores.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let view_box = format!("0 0 {} {}", tenths(w), tenths(h));
    let m = tenths(m);
    view! {
        <svg
            class="score-chart"
            viewBox=view_box
            role="img"
            aria-label=label
            data-scores=csv
        >
            <line class="threshold" x1=m y1=threshold.clone() x2=right y2=threshold />
            <polyline class="scores" points=line fill="none" />
            {points
                .into_iter()
                .zip(scores)
                .map(|((x, y), s)| view! {
                    <circle cx=tenths(x) cy=tenths(y) r="3" class:low=s < 7>
                        <title>{s.to_string()}</title>
                    </circle>
                })
                .collect_view()}
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::{chart_points, tenths};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn chart_points_span_the_width_and_higher_scores_sit_higher() {
        let points = chart_points(&[10, 0, 7]);
        assert_eq!(points.len(), 3);
        assert!(points[0].0 < points[1].0 && points[1].0 < points[2].0);
        assert!(points[0].1 < points[2].1 && points[2].1 < points[1].1, "{points:?}");
        assert_eq!(chart_points(&[5]).len(), 1);
        assert!(chart_points(&[]).is_empty());
    }

    #[test]
    fn coordinates_are_written_to_one_decimal_as_float_formatting_would() {
        for v in [0.0f32, 6.0, 64.0, 200.0, 12.26, 12.34, 57.8, 0.04, -0.5, -3.0, 31.96, 99.94, 45.333_332] {
            assert_eq!(tenths(v), format!("{v:.1}").trim_end_matches(".0"), "{v}");
        }
        // Every point the chart can draw: scores 0..=10 over sessions of 1 to 40 messages.
        for n in 1..=40 {
            let scores: Vec<u8> = (0..n).map(|i| (i % 11) as u8).collect();
            for (x, y) in chart_points(&scores) {
                for v in [x, y] {
                    let std = format!("{v:.1}");
                    let ours: f32 = tenths(v).parse().unwrap();
                    assert!((ours - std.parse::<f32>().unwrap()).abs() <= 0.1 + 1e-4, "{v}: {ours} vs {std}");
                }
            }
        }
    }
}
