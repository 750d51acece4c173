//! Task Selector (only when the current task is done) and Module Selector (every turn).

use serde::{Deserialize, Serialize};

use super::module::{ChangeReason, Module};
use super::state::UserState;
use super::supervisor::SupervisorFeedback;
use super::task::{Part, Task, TaskStatus};
use crate::engine::grounding::system_prompt;
use crate::engine::json::{extract_json, str_field};
use crate::engine::lang::{clip, Lang};
use crate::engine::prompt::Prompt;
use crate::engine::prompt_text::{self, PromptText};

/// 0 for pending, 1 for in progress, 2 for sufficient: the seed's status priority.
fn status_rank(status: TaskStatus) -> u8 {
    match status {
        TaskStatus::Pending => 0,
        TaskStatus::InProgress => 1,
        TaskStatus::Sufficient => 2,
        TaskStatus::Completed => 3,
    }
}

/// The next task of `part`: status pending > in_progress > sufficient, then priority
/// high > medium > low, then list order; completed tasks and other parts never. Run it only
/// when the checker said the current task is done.
pub fn select_task(tasks: &[Task], part: Part) -> Option<&Task> {
    tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.part == part && t.status != TaskStatus::Completed)
        .min_by_key(|(i, t)| (status_rank(t.status), t.priority.rank(), *i))
        .map(|(_, t)| t)
}

/// The Module Selector's answer: the module to use and, when it differs from the current
/// one, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleChoice {
    /// The module for this turn's reply.
    pub module: Module,
    /// Set only when the module changed.
    pub reason: Option<ChangeReason>,
}

/// Heuristic Module Selector, in order: resistance → resistance handling; a strong negative
/// feeling → empathic reflection; going in circles → summarizing; fresh supervision below 7
/// with a suggestion → that module; a new task → the task's module; a topic change →
/// information gathering; a module chosen for a passing state with that state gone → back to
/// the task's module; otherwise keep the current one. `feedback` is passed only on the turn
/// after it arrived, so it steers once.
pub fn select_module(
    current: Module,
    task: Option<&Task>,
    state: &UserState,
    feedback: Option<&SupervisorFeedback>,
    task_changed: bool,
) -> ModuleChoice {
    let task_module = task.map(|t| t.module_hint).unwrap_or(current);
    let suggestion = feedback.filter(|f| f.needs_attention()).and_then(|f| f.suggested_module.map(|m| (m, f)));
    let (module, reason) = if state.resistance {
        (Module::ResistanceHandling, ChangeReason::Resistance)
    } else if state.strong_negative_emotion() {
        (Module::EmpathicReflection, ChangeReason::StrongEmotion)
    } else if state.going_in_circles {
        (Module::Summarizing, ChangeReason::GoingInCircles)
    } else if let Some((module, fb)) = suggestion {
        (module, ChangeReason::SupervisorFeedback(fb.improvements.first().cloned().unwrap_or_default()))
    } else if task_changed {
        (task_module, ChangeReason::NewTask)
    } else if state.topic_change.is_some() {
        (Module::InformationGathering, ChangeReason::TopicChange)
    } else if current == Module::ResistanceHandling {
        (task_module, ChangeReason::ResistanceEased)
    } else if matches!(current, Module::EmpathicReflection | Module::Summarizing) {
        (task_module, ChangeReason::BackToTask)
    } else {
        (current, ChangeReason::BackToTask)
    };
    ModuleChoice { module, reason: (module != current).then_some(reason) }
}

/// One line per module for the selector's catalog: what it is for.
fn catalog_line(module: Module) -> &'static str {
    match module {
        Module::RapportBuilding => "warmth and safety first; build the relationship",
        Module::InformationGathering => "open questions about the concrete situation",
        Module::EmpathicReflection => "name and reflect the feelings; understanding before solutions",
        Module::ResistanceHandling => "meet hesitation or refusal without pushing; give the user a choice",
        Module::Summarizing => "pull what was said together and check it (also when going in circles)",
        Module::GoalSetting => "turn wishes into small concrete goals",
        Module::Closing => "close warmly and say what comes next",
    }
}

/// The Module Selector prompt: the catalog (ids and one-line purposes), the part and its
/// goal, the current task (none while the Task Planner is still writing the part's tasks),
/// the detected user state, the current module, fresh supervision and the user's message.
pub fn module_prompt(
    part: Part,
    task: Option<&Task>,
    state: &UserState,
    current: Module,
    feedback: Option<&SupervisorFeedback>,
    user_text: &str,
    lang: Lang,
) -> Prompt {
    let mut lines = vec!["[MODULE CATALOG]".to_string()];
    lines.extend(Module::ALL.iter().map(|m| format!("- {}: {}", m.id(), catalog_line(*m))));
    lines.push(format!("[PART] {}: {}", part.label(Lang::En), part.goal(Lang::En)));
    match task {
        Some(t) => lines.push(format!("[CURRENT TASK] {} ({}): {}", t.title, t.module_hint.id(), t.target)),
        None => lines.push("[CURRENT TASK] none yet: the part's tasks are being planned".into()),
    }
    let topic = state.topic_change.map(|t| t.id()).unwrap_or("none");
    lines.push(format!(
        "[USER STATE] emotion: {}, intensity: {}/10, resistance: {}, engagement: {:?}, topic_change: {topic}, going_in_circles: {}, wants_to_close: {}",
        state.emotion.id(),
        state.intensity,
        state.resistance,
        state.engagement,
        state.going_in_circles,
        state.wants_to_close
    ));
    lines.push(format!("[CURRENT MODULE] {}", current.id()));
    if let Some(f) = feedback.filter(|f| f.needs_attention()) {
        let suggested = f.suggested_module.map(|m| m.id()).unwrap_or("none");
        let point = f.improvements.first().map(|p| clip(p, 200)).unwrap_or_default();
        lines.push(format!("[SUPERVISION] score {}/10, suggested module: {suggested}, point: {point}", f.score));
    }
    lines.push(format!("[USER MESSAGE] {}", clip(user_text, 300)));
    lines.push(String::new());
    lines.push("Output the module JSON only.".into());
    let system = system_prompt(
        "counsel-module-selector",
        prompt_text::text(PromptText::CounselModuleSelectorInstructions),
        lang,
    );
    Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(120)
}

/// Reads the Module Selector's answer: a catalog id and a non-empty reason. Fails with a
/// reason (not JSON, unknown id, no reason); never panics.
pub fn parse_module_choice(raw: &str) -> Result<(Module, String), String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    if !value.is_object() {
        return Err("the answer is not a JSON object".into());
    }
    let id = str_field(&value, "module");
    let module = Module::from_id(&id).ok_or_else(|| {
        if id.trim().is_empty() {
            "the answer names no module".to_string()
        } else {
            format!("unknown module id '{}'", clip(&id, 40))
        }
    })?;
    let reason = str_field(&value, "reason");
    if reason.trim().is_empty() {
        return Err("the answer gives no reason".into());
    }
    Ok((module, reason.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::super::state::Emotion;
    use super::super::task::{fixed_tasks, plan_exploration, Priority};
    use super::*;
    use crate::engine::lang::Lang;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn task_selection_orders_by_status_then_priority_within_the_part() {
        use TaskStatus::*;
        let mut tasks = fixed_tasks(Part::Start, Lang::En);
        tasks.extend(plan_exploration(&["work is hard"], Lang::En));
        // Part 1: welcome (high), info (high), rapport (medium).
        let cases: &[([TaskStatus; 3], Option<&str>)] = &[
            ([Pending, Pending, Pending], Some("task_welcome_1")),
            ([Sufficient, Pending, Pending], Some("task_info_1")),
            ([Sufficient, Sufficient, Pending], Some("task_rapport_1")),
            ([Sufficient, InProgress, Pending], Some("task_rapport_1")),
            ([Sufficient, InProgress, Sufficient], Some("task_info_1")),
            ([Sufficient, Sufficient, Sufficient], Some("task_welcome_1")),
            ([Completed, Completed, Sufficient], Some("task_rapport_1")),
            ([Completed, Completed, Completed], None),
        ];
        for (statuses, want) in cases {
            for (task, status) in tasks.iter_mut().zip(statuses) {
                task.status = *status;
            }
            assert_eq!(select_task(&tasks, Part::Start).map(|t| t.id.as_str()), *want, "{statuses:?}");
        }
        // Part 2 tasks were never candidates above; in Part 2 the high one comes first.
        let first = select_task(&tasks, Part::Exploration).unwrap();
        assert_eq!((first.id.as_str(), first.priority), ("task_work_2", Priority::High));
        assert!(select_task(&tasks, Part::Closing).is_none());
    }

    #[test]
    fn module_selection_reacts_to_state_feedback_and_task() {
        let tasks = fixed_tasks(Part::Start, Lang::Ko);
        let info = Some(&tasks[1]);
        let calm = UserState::default();
        let resistant = UserState { resistance: true, ..UserState::default() };
        let upset = UserState { emotion: Emotion::Sad, intensity: 9, ..UserState::default() };
        let circling = UserState { going_in_circles: true, ..UserState::default() };
        let feedback = SupervisorFeedback {
            score: 5,
            improvements: vec!["공감을 더 다양하게".into()],
            suggested_module: Some(Module::EmpathicReflection),
            at_user_message: 3,
            by_llm: false,
        };
        let good_feedback = SupervisorFeedback { score: 8, ..feedback.clone() };
        use ChangeReason::{BackToTask, GoingInCircles, NewTask, Resistance, ResistanceEased, StrongEmotion};
        use Module::*;
        type Case<'a> = (Module, &'a UserState, Option<&'a SupervisorFeedback>, bool, Module, Option<ChangeReason>);
        let cases: &[Case] = &[
            (InformationGathering, &resistant, None, false, ResistanceHandling, Some(Resistance)),
            (ResistanceHandling, &resistant, None, false, ResistanceHandling, None),
            (ResistanceHandling, &calm, None, false, InformationGathering, Some(ResistanceEased)),
            (InformationGathering, &upset, None, false, EmpathicReflection, Some(StrongEmotion)),
            (InformationGathering, &circling, None, false, Summarizing, Some(GoingInCircles)),
            (
                InformationGathering,
                &calm,
                Some(&feedback),
                false,
                EmpathicReflection,
                Some(ChangeReason::SupervisorFeedback("공감을 더 다양하게".into())),
            ),
            (InformationGathering, &calm, Some(&good_feedback), false, InformationGathering, None),
            (RapportBuilding, &calm, None, true, InformationGathering, Some(NewTask)),
            (InformationGathering, &calm, None, false, InformationGathering, None),
            (EmpathicReflection, &calm, None, false, InformationGathering, Some(BackToTask)),
        ];
        for (current, state, fb, task_changed, want, reason) in cases {
            let choice = select_module(*current, info, state, *fb, *task_changed);
            assert_eq!((choice.module, &choice.reason), (*want, reason), "{current:?} {state:?}");
        }
    }

    #[test]
    fn module_answer_parser_takes_catalog_ids_with_a_reason_and_never_panics() {
        let cases: &[(&str, Option<Module>)] = &[
            (r#"{"module":"empathic_reflection","reason":"she is very sad"}"#, Some(Module::EmpathicReflection)),
            ("```json\n{\"module\": \"Goal-Setting\", \"reason\": \"ready\"}\n```", Some(Module::GoalSetting)),
            (r#"{"module":"hypnosis","reason":"deep trance"}"#, None),
            (r#"{"module":"summarizing","reason":"  "}"#, None),
            (r#"{"module":"","reason":"x"}"#, None),
            (r#"{"reason":"x"}"#, None),
            (r#"["summarizing"]"#, None),
            ("I would use empathy here.", None),
            ("", None),
            ("{\"module\": 3, \"reason\": {}}", None),
        ];
        for (raw, want) in cases {
            assert_eq!(parse_module_choice(raw).ok().map(|(m, _)| m), *want, "{raw}");
        }
        assert_eq!(
            parse_module_choice(r#"{"module":"hypnosis","reason":"x"}"#),
            Err("unknown module id 'hypnosis'".into())
        );
    }

    #[test]
    fn module_prompt_carries_catalog_task_state_and_current_module() {
        let tasks = fixed_tasks(Part::Start, Lang::En);
        let upset = UserState { emotion: Emotion::Sad, intensity: 8, resistance: true, ..UserState::default() };
        let p = module_prompt(
            Part::Start,
            Some(&tasks[1]),
            &upset,
            Module::RapportBuilding,
            None,
            "leave me alone",
            Lang::Ko,
        );
        assert!(p.system.starts_with("# role: counsel-module-selector"));
        let user = &p.turns[0].text;
        for m in Module::ALL {
            assert!(user.contains(&format!("- {}: ", m.id())), "{m:?}");
        }
        assert!(user.contains(&tasks[1].title) && user.contains("resistance: true") && user.contains("intensity: 8"));
        assert!(user.contains("[CURRENT MODULE] rapport_building") && user.contains("leave me alone"));
        let planning = module_prompt(Part::Exploration, None, &upset, Module::RapportBuilding, None, "x", Lang::En);
        assert!(planning.turns[0].text.contains(Part::Exploration.goal(Lang::En)));
    }
}
