//! Task Selector (only when the current task is done) and Module Selector (every turn).

use super::module::{ChangeReason, Module};
use super::state::UserState;
use super::supervisor::SupervisorFeedback;
use super::task::{Part, Task, TaskStatus};

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
#[derive(Debug, Clone, PartialEq, Eq)]
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
}
