//! The stage stepper: UNDERSTAND … PLAN, the current stage highlighted.

use leptos::prelude::*;

use super::i18n::{stage_name, strings};
use super::shell::Shell;
use crate::engine::state_machine::Stage;

/// Seven stages in a row; those before the current one are done.
#[component]
pub fn Stepper() -> impl IntoView {
    let shell = expect_context::<Shell>();
    let stage = Memo::new(move |_| shell.session.with(|s| s.stage().unwrap_or(Stage::Understand)));
    let round = Memo::new(move |_| {
        shell.session.with(|s| s.discussion().map(|d| (d.machine.round(), d.machine.max_rounds())).unwrap_or((0, 0)))
    });
    let lang = shell.ui_lang;
    view! {
        <nav class="stepper" aria-label=move || strings(lang.get()).stages_label>
            <ol>
                {Stage::ALL
                    .into_iter()
                    .map(|s| {
                        let state = move || {
                            let current = stage.get();
                            if s == current {
                                "current"
                            } else if s.index() < current.index() {
                                "done"
                            } else {
                                "todo"
                            }
                        };
                        view! {
                            <li
                                class=move || format!("step {}", state())
                                data-stage=format!("{s:?}").to_ascii_uppercase()
                                aria-current=move || (state() == "current").then_some("step")
                                title=move || stage_name(s, lang.get())
                            >
                                <span class="dot" aria-hidden="true">{move || if state() == "done" { "✓".to_string() } else { (s.index() + 1).to_string() }}</span>
                                <span class="label">{move || stage_name(s, lang.get())}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
            <span class="round" title=move || strings(lang.get()).round>
                {move || {
                    let (r, max) = round.get();
                    format!("{} {}/{}", strings(lang.get()).round, r, max)
                }}
            </span>
        </nav>
    }
}
