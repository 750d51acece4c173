//! Counseling mode (seed 004): Part (linear) · Task (chosen within a part) · Module (global).
//! Every LLM-backed step has a prompt, a checked parser and a heuristic twin; this file holds
//! the mode's state and the order of one turn:
//! crisis check → (Task Completion Checker ∥ User State Detector) → Task Selector (only when
//! the task is done) → Module Selector → Counselor reply → Supervisor every 3rd user message.

mod boundary;
pub mod calls;
pub mod checker;
pub mod counselor;
pub mod crisis;
mod crisis_cues;
pub mod ending;
pub mod flow;
pub mod module;
pub mod safety;
pub mod selector;
pub mod state;
pub mod supervisor;
pub mod task;

pub use self::calls::{CounselPurpose, CounselRole};

use serde::{Deserialize, Serialize};

use self::checker::{agrees, declines_name, heuristic_check, name_answer, name_in, states_goal, Verdict};
use self::counselor::{CounselorContext, ReplyNotes};
use self::crisis::{Crisis, CrisisKind};
use self::module::{ChangeReason, Module, ModuleChange};
use self::selector::{select_module, select_task, ModuleChoice};
use self::state::{detect_state, UserState};
use self::supervisor::SupervisorFeedback;
use self::task::{
    complete_part, fixed_tasks, plan_exploration, topics_in, transition, update_exploration, Part, PlanUpdate, Task,
    TaskStatus, Topic, GOALS,
};
use crate::engine::lang::{clip, with_object, Lang};
use crate::engine::prompt::{Prompt, Turn};

/// User messages kept for planning, summaries and the heuristics.
const SAID_KEPT: usize = 16;
/// Turns kept for the heuristic supervisor.
const RECENT_TURNS_KEPT: usize = 8;
/// User messages a task may stay in progress before it counts as covered anyway, so a
/// checker that never says "done" cannot hold the session on one task.
pub const MAX_TURNS_PER_TASK: u32 = 5;

/// A crisis the session recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrisisRecord {
    /// What kind.
    pub kind: CrisisKind,
    /// The user message count when it happened.
    pub at_user_message: u32,
}

/// The counseling mode's state: plain serde data, saved and replayed with the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counseling {
    /// The language the fixed texts and tasks were written in.
    pub lang: Lang,
    /// The current part.
    pub part: Part,
    /// Every task so far, of every part.
    pub tasks: Vec<Task>,
    /// The id of the task in progress.
    pub current_task: Option<String>,
    /// The module in use.
    pub module: Module,
    /// Every module change, oldest first.
    pub module_changes: Vec<ModuleChange>,
    /// Every supervision, oldest first (the side panel's chart).
    pub supervision: Vec<SupervisorFeedback>,
    /// True until the latest supervision has steered one turn.
    pub feedback_fresh: bool,
    /// Crises the session recorded.
    pub crises: Vec<CrisisRecord>,
    /// User messages so far (the supervisor's cadence counts these).
    pub user_messages: u32,
    /// The user's name, if given.
    pub user_name: Option<String>,
    /// The user message count when the no-key counselor asked for the name on its own
    /// (the name-and-purpose question having been skipped); asked once.
    #[serde(default)]
    pub name_asked_at: Option<u32>,
    /// Topics talked about, in order of first mention.
    pub topics: Vec<Topic>,
    /// Goals the user set in Part 3.
    pub goals: Vec<String>,
    /// The user's recent messages, clipped (planning, summary, heuristics).
    pub said: Vec<String>,
    /// The recent conversation (the heuristic supervisor reads it).
    pub recent: Vec<Turn>,
    /// This turn's module change: goes into this turn's counselor prompt only.
    pub turn_module_change: Option<ModuleChange>,
    /// This turn's part transition: goes into this turn's counselor prompt only.
    pub turn_part_transition: Option<(Part, Part)>,
    /// The counselor offered to close early (the user asked to stop) and awaits the answer.
    #[serde(default)]
    pub end_offered: bool,
    /// This turn's message answered the question for the name by declining to give one ("I'd
    /// rather not say", "비밀이에요"): the reply says that is fine and does not ask again.
    #[serde(default)]
    pub turn_name_declined: bool,
    /// The user message count when the counselor asked, after words of hopelessness, whether
    /// the user has thoughts of ending their life (`safety::question`).
    #[serde(default)]
    pub safety_asked_at: Option<u32>,
    /// This turn's message answered that question with a no: the reply thanks the user first.
    #[serde(default)]
    pub turn_safety_denied: bool,
    /// The user message count when a plan the user made while exploring was noted as the goal
    /// (the reply asked whether there is anything else to talk about).
    #[serde(default)]
    pub goal_noted_at: Option<u32>,
    /// This turn's message gave the user's name for the first time: the reply greets them by it.
    #[serde(default)]
    pub turn_name_given: bool,
}

/// What the steps after the checker and the detector decided this turn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TurnPlan {
    /// The task the selector picked, when it picked another one.
    pub selected_task: Option<String>,
    /// The module change, when there was one.
    pub module_change: Option<ModuleChange>,
    /// The part transition, when there was one.
    pub part_transition: Option<(Part, Part)>,
    /// The Part-2 task update the planner made, if any.
    pub plan_update: Option<PlanUpdate>,
    /// A crisis the detector saw that the keyword check missed: answer with
    /// `crisis::safety_response` instead of calling the counselor. Nothing else moved.
    pub crisis: Option<CrisisKind>,
}

/// Everything a heuristic turn produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnOutcome {
    /// The counselor's reply (the fixed safety response on a crisis).
    pub reply: String,
    /// The crisis found in the user's message, if any.
    pub crisis: Option<Crisis>,
    /// The checker's verdict (none on a crisis or after the end).
    pub verdict: Option<Verdict>,
    /// The detector's reading (none on a crisis or after the end).
    pub state: Option<UserState>,
    /// What the selectors and the part manager decided.
    pub plan: TurnPlan,
    /// The supervision made after the reply, on every 3rd user message.
    pub supervision: Option<SupervisorFeedback>,
}

impl Counseling {
    /// A fresh session in Part 1 with the seed's fixed tasks.
    pub fn new(lang: Lang) -> Counseling {
        Counseling {
            lang,
            part: Part::Start,
            tasks: fixed_tasks(Part::Start, lang),
            current_task: None,
            module: Module::RapportBuilding,
            module_changes: Vec::new(),
            supervision: Vec::new(),
            feedback_fresh: false,
            crises: Vec::new(),
            user_messages: 0,
            user_name: None,
            name_asked_at: None,
            turn_name_declined: false,
            topics: Vec::new(),
            goals: Vec::new(),
            said: Vec::new(),
            recent: Vec::new(),
            turn_module_change: None,
            turn_part_transition: None,
            end_offered: false,
            safety_asked_at: None,
            turn_safety_denied: false,
            goal_noted_at: None,
            turn_name_given: false,
        }
    }

    /// The counselor's first message; puts the first task in progress.
    pub fn opening(&mut self, no_key: bool) -> String {
        self.select_next_task();
        let text = counselor::opening(self.lang, no_key);
        self.remember(Turn::assistant(text.clone()));
        text
    }

    /// The task in progress.
    pub fn current(&self) -> Option<&Task> {
        let id = self.current_task.as_deref()?;
        self.tasks.iter().find(|t| t.id == id)
    }

    /// The latest supervision.
    pub fn latest_feedback(&self) -> Option<&SupervisorFeedback> {
        self.supervision.last()
    }

    /// The most recent crisis kind, if the session recorded one.
    pub fn crisis_noted(&self) -> Option<CrisisKind> {
        self.crises.last().map(|c| c.kind)
    }

    /// True when the supervisor should run after this turn's reply.
    pub fn supervisor_due(&self) -> bool {
        supervisor::is_due(self.user_messages)
    }

    fn remember(&mut self, turn: Turn) {
        self.recent.push(turn);
        if self.recent.len() > RECENT_TURNS_KEPT {
            self.recent.remove(0);
        }
    }

    /// Step 1 of a turn, before any LLM call: counts the message, clears last turn's
    /// one-time notices, notes the name and topics, and checks for a crisis. A crisis is
    /// recorded; the caller answers with `crisis::safety_response` at once.
    pub fn begin_turn(&mut self, user_text: &str) -> Option<Crisis> {
        // Read before this message counts: did the last reply ask for the name?
        let answering_name = self.user_name.is_none() && self.name_question_open();
        self.user_messages += 1;
        self.turn_module_change = None;
        self.turn_part_transition = None;
        if let Some(id) = self.current_task.clone() {
            if let Some(task) = self.tasks.iter_mut().find(|t| t.id == id) {
                task.turns += 1;
            }
        }
        let had_name = self.user_name.is_some();
        if self.user_name.is_none() {
            // The answer to a question for the name may be the name alone ("민지예요", "Sam").
            self.user_name = if answering_name { name_answer(user_text) } else { name_in(user_text) };
        }
        self.turn_name_given = !had_name && self.user_name.is_some();
        self.turn_name_declined = answering_name && self.user_name.is_none() && declines_name(user_text);
        self.said.push(clip(user_text.trim(), 300));
        if self.said.len() > SAID_KEPT {
            self.said.remove(0);
        }
        self.remember(Turn::user(user_text));
        // A yes (or "sometimes", "I don't know") to the question about thoughts of suicide is
        // a crisis, whatever words it is said in.
        let answering_safety = self.safety_asked_at.is_some_and(|at| at + 1 == self.user_messages);
        let answer = if answering_safety { safety::answer(user_text) } else { safety::Answer::Other };
        self.turn_safety_denied = answer == safety::Answer::No;
        let crisis = crisis::detect(user_text)
            .or_else(|| {
                (answer == safety::Answer::Yes)
                    .then(|| Crisis { kind: CrisisKind::Suicide, cue: clip(user_text.trim(), 40) })
            })
            .or_else(|| {
                // "아빠가 술 마시면 저를 때려요": someone harms the user.
                safety::harmed(user_text).then(|| Crisis { kind: CrisisKind::Abuse, cue: clip(user_text.trim(), 40) })
            });
        if let Some(found) = &crisis {
            self.crises.push(CrisisRecord { kind: found.kind, at_user_message: self.user_messages });
        }
        crisis
    }

    /// Words of hopelessness that name no crisis ("다 그만두고 싶어요"), answered before the turn's
    /// checks with the fixed question whether the user has thoughts of ending their life. Not
    /// asked again within three messages of the last time, nor right after a crisis, whose
    /// response has just given the crisis lines.
    pub fn safety_question(&mut self, user_text: &str) -> Option<&'static str> {
        let recent = |at: u32| at + 3 >= self.user_messages;
        if self.part == Part::Ended
            || self.safety_asked_at.is_some_and(recent)
            || self.crises.last().is_some_and(|c| recent(c.at_user_message))
            || !safety::hopeless(user_text)
        {
            return None;
        }
        self.safety_asked_at = Some(self.user_messages);
        Some(safety::question(self.lang))
    }

    /// The user asking to close early, answered before the turn's checks: the first wish gets
    /// an offer to close; a yes to it (or the wish again) ends the session with a farewell.
    /// `None` when the message is not about closing: the turn goes on as usual.
    pub fn closing_reply(&mut self, user_text: &str) -> Option<String> {
        if self.part == Part::Ended {
            return None;
        }
        // Part 3 is the closing itself: a goodbye there ends it the usual way, at whichever of
        // its steps it comes ("오늘은 여기까지 할게요" while the summary is being checked).
        if self.part == Part::Closing {
            if ending::wants_to_end(user_text) {
                for task in self.tasks.iter_mut().filter(|t| t.part == Part::Closing) {
                    task.status = task.status.max(TaskStatus::Completed);
                }
            }
            return None;
        }
        if std::mem::take(&mut self.end_offered) {
            if ending::accepts_closing(user_text) {
                self.enter_part(Part::Ended, Vec::new());
                return Some(counselor::early_farewell(self.lang));
            }
            return None;
        }
        // "bye", "안녕히 계세요": the user is leaving; a goodbye is said back, not asked about.
        if ending::says_goodbye(user_text) {
            self.enter_part(Part::Ended, Vec::new());
            return Some(counselor::early_farewell(self.lang));
        }
        if ending::wants_to_end(user_text) {
            self.end_offered = true;
            return Some(counselor::closing_offer(self.lang));
        }
        None
    }

    /// The user's messages before the latest one (the detector's snapshot).
    pub fn earlier_messages(&self) -> &[String] {
        &self.said[..self.said.len().saturating_sub(1)]
    }

    /// The checker's heuristic twin for this turn (none when no task is in progress).
    pub fn heuristic_verdict(&self, user_text: &str, state: &UserState) -> Option<Verdict> {
        let task = self.current()?;
        let mut verdict = heuristic_check(task, &self.tasks, user_text, state, self.lang);
        // "yes" to making an idea the user offered earlier this week's goal sets that goal; with
        // a goal set while exploring, any answer to "anything to add or change?" ends the task.
        let settled = !self.goals.is_empty() || (self.offered_idea().is_some() && agrees(user_text));
        if task.id == GOALS && !verdict.is_completed && settled {
            verdict.is_completed = true;
            verdict.new_status = Some(TaskStatus::Completed);
        }
        Some(verdict)
    }

    /// The latest idea the user offered before this message ("I guess I could try studying in
    /// shorter blocks"), which the goal question comes back to.
    pub fn offered_idea(&self) -> Option<&str> {
        self.earlier_messages().iter().rev().find(|s| counselor::offers_idea(s)).map(String::as_str)
    }

    /// The goal this message makes of the idea in the message before it, once past the start
    /// (also while the session is summed up: an idea said on the turn it turned to its summary
    /// gets its yes after the summary's question): a yes to the idea makes the idea the goal,
    /// with what the yes adds ("maybe I should talk to her calmly — yeah I'll try this
    /// weekend"; "네 해볼게요" adds nothing); a plan it states
    /// is the goal as said ("팀장님이랑 따로 이야기해 볼까 해요", then "다음 주 월요일에 면담 신청해
    /// 볼게요"), without a filler in front ("음 …", "well, …").
    fn committed_goal(&self) -> Option<String> {
        if self.part == Part::Start {
            return None;
        }
        let idea = self.earlier_messages().last().filter(|s| counselor::offers_idea(s))?;
        let said = self.said.last()?;
        // A yes with a doubt after it ("yeah, but I'm worried I won't stick with it") is not one yet.
        // 근데/그런데/하지만/그래도: but; 걱정: worry; 모르겠: not sure.
        let doubts = crate::engine::words::WordList(
            "but|though|worried|not sure|don't know|근데|그런데|하지만|그래도|걱정|모르겠",
        )
        .any(|w| crate::engine::case::lower(said).contains(w));
        if ending::says_yes(said) && agrees(said) && !doubts {
            Some(idea_with(idea, said))
        } else {
            states_goal(said).then(|| ending::without_fillers(said).to_string())
        }
    }

    /// True when this message makes the idea of the message before it a goal (`committed_goal`).
    fn commits_to_idea(&self) -> bool {
        self.committed_goal().is_some()
    }

    /// The detector's heuristic twin for this turn.
    pub fn heuristic_state(&self, user_text: &str) -> UserState {
        let mut state = detect_state(user_text, self.earlier_messages(), &self.topics);
        // The first topic of a session is where it starts, not a change.
        if self.topics.is_empty() {
            state.topic_change = None;
        }
        state
    }

    /// Steps 3–5 of a turn, once the checker and the detector have answered (from an LLM or
    /// their twins): apply the verdict, update Part-2 tasks, move to the next part when its
    /// condition holds, select a task when the current one is done, select the module.
    ///
    /// The seed checks the part transition after the reply; it is checked here, before the
    /// Task Selector, so the reply of the same turn already opens the new part instead of
    /// spending a turn on a task that is done.
    pub fn apply_checks(&mut self, verdict: Option<&Verdict>, state: &UserState) -> TurnPlan {
        let (mut plan, choice) = self.prepare_turn(verdict, state);
        if plan.crisis.is_none() {
            self.apply_module(choice, &mut plan);
        }
        plan
    }

    /// `apply_checks` up to the Module Selector: applies the verdict, updates Part-2 tasks,
    /// moves parts, selects a task, and returns what was decided with the heuristic module
    /// choice (the LLM Module Selector's twin). The module itself is not changed yet.
    pub fn prepare_turn(&mut self, verdict: Option<&Verdict>, state: &UserState) -> (TurnPlan, ModuleChoice) {
        if let Some(goal) = self.committed_goal().filter(|_| state.crisis.is_none()) {
            if !self.goals.contains(&goal) {
                self.goals.push(goal);
            }
            if self.part == Part::Exploration {
                self.goal_noted_at = Some(self.user_messages);
            }
        }
        // "Anything else you'd like to talk about?" after the goal was noted, answered "no",
        // "thanks" or "없어요": the exploration is done, and the session turns to its summary.
        let nothing_more = self.part == Part::Exploration
            && self.goal_noted_at.is_some_and(|at| at + 1 == self.user_messages)
            && self.said.last().is_some_and(|s| ending::says_nothing_more(s));
        let mut plan = TurnPlan::default();
        if let Some(kind) = state.crisis {
            // The keyword check in `begin_turn` records what it sees; this is what only the
            // detector (an LLM reading the same snapshot) saw.
            if self.crises.last().map(|c| c.at_user_message) != Some(self.user_messages) {
                self.crises.push(CrisisRecord { kind, at_user_message: self.user_messages });
            }
            plan.crisis = Some(kind);
            return (plan, ModuleChoice { module: self.module, reason: None });
        }
        let mut task_done = self.current().is_none();
        if let Some(verdict) = verdict.filter(|v| Some(v.task_id.as_str()) == self.current_task.as_deref()) {
            if verdict.is_completed {
                task_done = true;
                let status = verdict.new_status.unwrap_or(TaskStatus::Sufficient);
                let closing = self.part == Part::Closing;
                if let Some(task) = self.tasks.iter_mut().find(|t| t.id == verdict.task_id) {
                    // Part 3 has no later transition to close its tasks, so done is completed.
                    task.status = task.status.max(if closing { TaskStatus::Completed } else { status });
                }
                if verdict.task_id == GOALS {
                    let said = self.said.last().cloned().unwrap_or_default();
                    let goal = if states_goal(&said) {
                        // "네 이번 주말에 만나서 얘기해볼게요": the plan, not the yes before it.
                        Some(ending::without_fillers(&said).to_string())
                    } else {
                        // Yes to the idea offered earlier (no goal set yet): the idea, with what
                        // the answer adds.
                        let idea =
                            self.offered_idea().filter(|_| agrees(&said) && self.goals.is_empty()).map(str::to_string);
                        idea.map(|idea| idea_with(&idea, &said))
                    };
                    // The goal this message made of an idea (`committed_goal`) is noted already.
                    if self.committed_goal().is_none() {
                        self.goals.extend(goal.filter(|g| !self.goals.contains(g)));
                    }
                }
            }
            for id in &verdict.also_sufficient {
                if let Some(task) = self.tasks.iter_mut().find(|t| &t.id == id && t.part == self.part) {
                    task.status = task.status.max(TaskStatus::Sufficient);
                }
            }
        }
        if !task_done {
            let closing = self.part == Part::Closing;
            if let Some(task) = self.current_task.clone().and_then(|id| self.tasks.iter_mut().find(|t| t.id == id)) {
                if task.turns >= MAX_TURNS_PER_TASK {
                    task.status = task.status.max(if closing { TaskStatus::Completed } else { TaskStatus::Sufficient });
                    task_done = true;
                }
            }
        }
        let latest = self.said.last().map(|s| topics_in(s)).unwrap_or_default();
        for topic in latest.into_iter().chain(state.topic_change) {
            if !self.topics.contains(&topic) {
                self.topics.push(topic);
            }
        }

        if self.part == Part::Exploration {
            if let Some(update) = self.plan_update_reason(state) {
                let current = self.current_task.clone();
                if update_exploration(&mut self.tasks, &update, current.as_deref(), self.lang) {
                    plan.plan_update = Some(update);
                }
            }
        }

        let covered = verdict.is_some_and(|v| v.part_covered) || (nothing_more && state.crisis.is_none());
        if let Some(next) = transition(self.part, &self.tasks, covered) {
            let exploration = plan_exploration(&self.said.iter().map(String::as_str).collect::<Vec<_>>(), self.lang);
            self.enter_part(next, exploration);
            plan.part_transition = self.turn_part_transition;
            task_done = true;
        }

        let before = self.current_task.clone();
        if task_done {
            self.select_next_task();
        }
        let task_changed = self.current_task != before;
        if task_changed {
            plan.selected_task = self.current_task.clone();
        }

        let fresh = if self.feedback_fresh { self.supervision.last() } else { None };
        let mut choice = select_module(self.module, self.current(), state, fresh, task_changed);
        if self.part == Part::Ended && choice.module != Module::Closing {
            choice = ModuleChoice { module: Module::Closing, reason: Some(ChangeReason::NewTask) };
        }
        (plan, choice)
    }

    /// The fresh supervision the Module Selector may follow this turn, if any.
    pub fn fresh_feedback(&self) -> Option<&SupervisorFeedback> {
        self.supervision.last().filter(|_| self.feedback_fresh)
    }

    /// Step 5 of a turn: uses `choice` (from the LLM Module Selector or its twin); a change
    /// records the previous module and the reason, and tells this turn's counselor. The
    /// fresh supervision has steered its turn.
    pub fn apply_module(&mut self, choice: ModuleChoice, plan: &mut TurnPlan) {
        self.feedback_fresh = false;
        if let Some(reason) = choice.reason.filter(|_| choice.module != self.module) {
            let change =
                ModuleChange { from: self.module, to: choice.module, reason, at_user_message: self.user_messages };
            self.module = choice.module;
            self.module_changes.push(change.clone());
            self.turn_module_change = Some(change.clone());
            plan.module_change = Some(change);
        }
    }

    /// Why the Task Planner should update Part 2 now (seed: topic change, resistance,
    /// supervision feedback, going in circles), if at all.
    pub fn plan_update_reason(&self, state: &UserState) -> Option<PlanUpdate> {
        if let Some(topic) = state.topic_change {
            return Some(PlanUpdate::TopicChange(topic));
        }
        if state.resistance {
            return Some(PlanUpdate::Resistance);
        }
        if state.going_in_circles {
            return Some(PlanUpdate::GoingInCircles);
        }
        let feedback = self.supervision.last().filter(|f| self.feedback_fresh && f.needs_attention())?;
        feedback.improvements.first().map(|p| PlanUpdate::SupervisorFeedback(p.clone()))
    }

    /// Moves to `next`: closes the tasks of the part left, adds the new part's tasks (the
    /// fixed ones, or `exploration` for Part 2 — from the LLM planner or `plan_exploration`),
    /// and notes the transition for this turn's prompt.
    pub fn enter_part(&mut self, next: Part, exploration: Vec<Task>) {
        let from = self.part;
        complete_part(&mut self.tasks, from);
        self.part = next;
        match next {
            Part::Exploration => self.tasks.extend(exploration),
            Part::Closing => self.tasks.extend(fixed_tasks(Part::Closing, self.lang)),
            Part::Start | Part::Ended => {}
        }
        self.current_task = None;
        self.turn_part_transition = Some((from, next));
    }

    /// Adopts the LLM Task Planner's Part-2 tasks (from `task::parse_plan`): pending
    /// Part-2 tasks are replaced, tasks already started are kept, ids never collide.
    /// Outside Part 2 it does nothing and returns false.
    pub fn adopt_plan(&mut self, planned: Vec<Task>) -> bool {
        if self.part != Part::Exploration || planned.is_empty() {
            return false;
        }
        self.tasks.retain(|t| t.part != Part::Exploration || t.status != TaskStatus::Pending);
        for mut task in planned {
            task.part = Part::Exploration;
            task.status = TaskStatus::Pending;
            if !self.tasks.iter().any(|t| t.id == task.id) {
                self.tasks.push(task);
            }
        }
        if self.current().is_none() {
            self.select_next_task();
        }
        true
    }

    /// Puts the Task Planner's Part-2 tasks in place of the ones the heuristic planned
    /// when Part 2 began, and selects the task to start with.
    pub fn replace_exploration(&mut self, planned: Vec<Task>) {
        if self.part != Part::Exploration || planned.is_empty() {
            return;
        }
        self.tasks.retain(|t| t.part != Part::Exploration);
        self.tasks.extend(planned.into_iter().map(|t| Task {
            part: Part::Exploration,
            status: TaskStatus::Pending,
            turns: 0,
            ..t
        }));
        self.select_next_task();
    }

    fn select_next_task(&mut self) {
        let next = select_task(&self.tasks, self.part).map(|t| t.id.clone());
        if let Some(id) = &next {
            if let Some(task) = self.tasks.iter_mut().find(|t| &t.id == id) {
                task.status = task.status.max(TaskStatus::InProgress);
            }
        }
        self.current_task = next;
    }

    /// The counselor's context for this turn: the one-time notices only when set this turn.
    pub fn counselor_context(&self) -> CounselorContext<'_> {
        CounselorContext {
            lang: self.lang,
            part: self.part,
            task: self.current(),
            module: self.module,
            feedback: self.latest_feedback(),
            module_change: self.turn_module_change.as_ref(),
            part_transition: self.turn_part_transition,
            crisis: self.crisis_noted(),
        }
    }

    /// The counselor prompt for this turn over the shared history.
    pub fn counselor_prompt(&self, history: &[Turn]) -> Prompt {
        counselor::counselor_prompt(&self.counselor_context(), history)
    }

    /// User messages answered while the task `id` was in progress.
    fn turns_of(&self, id: &str) -> u32 {
        self.tasks.iter().find(|t| t.id == id).map_or(0, |t| t.turns)
    }

    /// True when the last reply asked for the name: the name-and-purpose task's question,
    /// or the no-key counselor's own question after that task was skipped.
    fn name_question_open(&self) -> bool {
        match self.current_task.as_deref() {
            Some(task::NAME_AND_PURPOSE) => self.turns_of(task::NAME_AND_PURPOSE) == 0,
            _ => self.name_asked_at == Some(self.user_messages),
        }
    }

    /// The no-key counselor reply for this turn.
    pub fn heuristic_reply(&mut self, user_text: &str, state: &UserState) -> String {
        if self.turn_part_transition.is_some_and(|(_, to)| to == Part::Ended) {
            return counselor::farewell(self.lang, user_text, self.goals.last().map(String::as_str));
        }
        // Asked once, when the name-and-purpose question was skipped.
        let ask_name = self.user_name.is_none()
            && self.name_asked_at.is_none()
            && self.current_task.as_deref() == Some(task::RAPPORT)
            && self.turns_of(task::NAME_AND_PURPOSE) == 0
            && self.turns_of(task::RAPPORT) == 0;
        if ask_name {
            self.name_asked_at = Some(self.user_messages);
        }
        let notes = ReplyNotes {
            name: self.user_name.as_deref(),
            topics: &self.topics,
            goals: &self.goals,
            turn: self.user_messages,
            check_in: self.crises.last().is_some_and(|c| c.at_user_message + 1 == self.user_messages),
            ask_name,
            name_declined: self.turn_name_declined,
            safety_denied: self.turn_safety_denied,
            idea: self.offered_idea(),
            committed: self.commits_to_idea(),
            name_given: self.turn_name_given,
            answers_tried: self.last_reply_asked(counselor::asked_what_was_tried(self.lang)),
            answers_obstacles: self.last_reply_asked(counselor::asked_about_obstacles(self.lang)),
        };
        counselor::heuristic_reply(&self.counselor_context(), user_text, state, &notes)
    }

    /// True when the counselor's last reply ended with `question`.
    fn last_reply_asked(&self, question: &str) -> bool {
        self.recent
            .iter()
            .rev()
            .find(|t| t.role == crate::engine::prompt::TurnRole::Assistant)
            .is_some_and(|t| t.text.ends_with(question))
    }

    /// Records a supervision; it steers the next turn.
    pub fn record_feedback(&mut self, feedback: SupervisorFeedback) {
        self.supervision.push(feedback);
        self.feedback_fresh = true;
    }

    /// Records the reply shown to the user (the heuristic supervisor reads recent turns).
    pub fn record_reply(&mut self, reply: &str) {
        self.remember(Turn::assistant(reply));
    }

    /// One whole turn with heuristics only: crisis check, checker ∥ detector, task selector,
    /// module selector, counselor reply, and the supervisor on every 3rd user message.
    /// Tasks created from now on are written in `lang`.
    pub fn heuristic_turn(&mut self, user_text: &str, lang: Lang) -> TurnOutcome {
        self.lang = lang;
        let crisis = self.begin_turn(user_text);
        let mut outcome = TurnOutcome {
            reply: String::new(),
            crisis,
            verdict: None,
            state: None,
            plan: TurnPlan::default(),
            supervision: None,
        };
        if let Some(found) = &outcome.crisis {
            outcome.reply = found.kind.response(lang);
        } else if self.part == Part::Ended {
            outcome.reply = counselor::ended_reply(lang);
        } else if let Some(question) = self.safety_question(user_text) {
            outcome.reply = question.to_string();
        } else if let Some(reply) = self.closing_reply(user_text) {
            outcome.reply = reply;
            outcome.plan.part_transition = self.turn_part_transition;
        } else {
            // Both read the same snapshot and neither needs the other: they could run at once.
            let state = self.heuristic_state(user_text);
            let verdict = self.heuristic_verdict(user_text, &state);
            outcome.plan = self.apply_checks(verdict.as_ref(), &state);
            outcome.reply = self.heuristic_reply(user_text, &state);
            outcome.verdict = verdict;
            outcome.state = Some(state);
        }
        self.record_reply(&outcome.reply.clone());
        if self.supervisor_due() {
            let review = supervisor::heuristic_review(&self.recent, self.module, self.user_messages, lang);
            self.record_feedback(review.clone());
            outcome.supervision = Some(review);
        }
        outcome
    }

    /// The session summary as Markdown: what was talked about, goals, next steps.
    pub fn summary_markdown(&self) -> String {
        let lang = self.lang;
        let ko = lang == Lang::Ko;
        let mut out = String::new();
        out.push_str(lang.pick("# 상담 요약\n\n", "# Session summary\n\n"));
        out.push_str(lang.pick(
            "_AI 대화 상대와 나눈 대화의 요약이며, 자격을 갖춘 상담사의 상담을 대신하지 않습니다._\n\n",
            "_A summary of a conversation with an AI conversation partner; it does not replace a licensed counselor._\n\n",
        ));
        if let Some(name) = &self.user_name {
            out.push_str(&format!("{}: {name}\n\n", lang.pick("이름", "Name")));
        }
        out.push_str(lang.pick("## 나눈 이야기\n", "## What we talked about\n"));
        if self.topics.is_empty() {
            out.push_str(lang.pick("- 아직 구체적인 주제는 정해지지 않았어요.\n", "- No particular topic yet.\n"));
        }
        for topic in &self.topics {
            out.push_str(&format!("- {}\n", topic.label(lang)));
        }
        // Tasks are closed at every part transition; the ones with turns were talked about.
        let covered: Vec<&Task> = self.tasks.iter().filter(|t| t.part == Part::Exploration && t.turns > 0).collect();
        for task in covered {
            out.push_str(&format!("- {} ✓\n", task.title));
        }
        out.push_str(lang.pick("\n## 정한 목표\n", "\n## Goals set\n"));
        if self.goals.is_empty() {
            out.push_str(lang.pick("- 아직 정한 목표가 없어요.\n", "- No goal set yet.\n"));
        }
        for goal in &self.goals {
            out.push_str(&format!("- “{}”\n", clip(goal, 120)));
        }
        out.push_str(lang.pick("\n## 다음 단계\n", "\n## Next steps\n"));
        if let Some(goal) = self.goals.last() {
            out.push_str(&if ko {
                let goal = clip(goal, 60);
                // The particle follows the quoted goal's last syllable: "…볼게요”를", "…산책”을".
                let particle = with_object(&goal)[goal.len()..].to_string();
                format!("- 이번 주에 목표 “{goal}”{particle} 작게라도 시도해 보기\n")
            } else {
                format!("- Try the goal “{}” this week, even a little\n", clip(goal, 60))
            });
        }
        let topics: Vec<&str> = self.topics.iter().take(3).map(|t| t.label(lang)).collect();
        if !topics.is_empty() {
            out.push_str(&if ko {
                format!("- 다음 대화에서 {} 이야기 이어가기\n", topics.join(", "))
            } else {
                format!("- Pick up {} in the next conversation\n", topics.join(", "))
            });
        }
        out.push_str(lang.pick(
            "- 힘들 때: 자살예방 상담전화 109, 정신건강 위기상담 1577-0199, 긴급 112·119 (해외: 현지 긴급 전화)\n",
            "- When things get hard: your local emergency number or crisis line (in Korea: 109, 1577-0199, 112, 119)\n",
        ));
        if !self.crises.is_empty() {
            out.push_str(lang.pick(
                "- 이 대화에서 위기 표현이 있었어요. 믿을 수 있는 사람이나 전문 기관과 꼭 이야기해 주세요.\n",
                "- Crisis language came up in this conversation. Please talk to someone you trust or a professional service.\n",
            ));
        }
        out.push_str(lang.pick("\n## 진행\n", "\n## Progress\n"));
        out.push_str(&format!("- {}\n", self.part.label(lang)));
        let done = self.tasks.iter().filter(|t| t.turns > 0).count();
        out.push_str(&if ko {
            format!("- 이야기한 Task {done}/{}개\n", self.tasks.len())
        } else {
            format!("- Tasks talked through: {done} of {}\n", self.tasks.len())
        });
        if !self.supervision.is_empty() {
            let scores: Vec<String> = self.supervision.iter().map(|f| f.score.to_string()).collect();
            out.push_str(&format!(
                "- {}: {}\n",
                lang.pick("Supervision 점수", "Supervision scores"),
                scores.join(", ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;

/// A goal made of an idea the user said yes to, with the yes when it adds something ("… — yes,
/// every weekday after dinner", "… — ok tonight"); a bare yes adds nothing ("네 해볼게요", "ok,
/// I'll try").
fn idea_with(idea: &str, said: &str) -> String {
    // Besides a yes (`ending::is_yes_word`), "I'll try": 해볼게요/해 볼게요/할게요/그럴게요: I'll try, I will.
    const WILL_TRY: crate::engine::words::WordList = crate::engine::words::WordList(
        "will|do|i'll|i|try|it|that|해볼게요|해볼게|해|볼게요|볼게|할게요|할게|그럴게요|그럴게",
    );
    let adds = said.split_whitespace().any(|w| {
        let word = crate::engine::case::lower(w.trim_matches(|c: char| c.is_ascii_punctuation()));
        !ending::is_yes_word(&word) && !WILL_TRY.contains(word.as_str())
    });
    if adds {
        // "yes, I'll ask for a meeting on Tuesday": the goal keeps what the yes adds, not the yes.
        let mut rest = said.trim();
        while let Some((word, after)) = rest.split_once(char::is_whitespace) {
            let bare = crate::engine::case::lower(word.trim_matches(|c: char| c.is_ascii_punctuation()));
            if !ending::is_yes_word(&bare) {
                break;
            }
            rest = after.trim_start();
        }
        format!("{idea} — {rest}")
    } else {
        idea.to_string()
    }
}
