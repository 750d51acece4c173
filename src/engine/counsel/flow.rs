//! Counseling as a mode of the app: one turn's calls on the conversation core.
//! crisis check (before any call) → Task Completion Checker ∥ User State Detector (one
//! batch, one history snapshot) → Task Selector and part manager (rules) → Module
//! Selector (with the Task Planner in the same batch when Part 1 completes, so no turn is
//! more than three calls deep) → Counselor reply (streamed) → Supervisor in the background
//! on every 3rd user message. Every call has its heuristic twin; a failed or unusable
//! answer falls back with the error shown.

use serde::{Deserialize, Serialize};

use super::checker::{parse_verdict, Verdict};
use super::module::ChangeReason;
use super::selector::{module_prompt, parse_module_choice, ModuleChoice};
use super::state::{parse_state, state_prompt, UserState};
use super::supervisor::{heuristic_review, parse_feedback, supervisor_prompt};
use super::task::{parse_plan, planner_prompt, Part};
use super::{counselor, Counseling};
use crate::engine::call::{CallId, LlmOutcome, Purpose};
use crate::engine::core::{Body, CallRequest, Conversation, Effects, Endpoint, Env, Role, Settled};
use crate::engine::counsel::CounselPurpose;
use crate::engine::prompt::Turn;
use crate::engine::session::AppMode;
use crate::engine::source::Source;

type C = Conversation<AppMode>;

/// Conversation turns the prompts are built from (the counselor keeps the last 12).
const HISTORY_KEPT: usize = 24;

/// Where the current turn is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum TurnStep {
    /// Waiting for the user.
    #[default]
    Idle,
    /// The checker and the detector: to launch, in flight, or partly answered.
    Checks {
        /// The user's message.
        text: String,
        /// True once the checker answered (or was not needed: no task in progress).
        checked: bool,
        /// The checker's verdict.
        verdict: Option<Verdict>,
        /// The detector's reading, once it answered.
        state: Option<UserState>,
    },
    /// The Module Selector (and, when Part 2 has just begun, the Task Planner writing its
    /// tasks, concurrently): to launch, in flight, or partly answered.
    #[serde(alias = "plan")]
    Select {
        /// The user's message.
        text: String,
        /// The detector's reading.
        state: UserState,
        /// The heuristic choice, the selector's twin (none: keep the current module).
        #[serde(default)]
        twin: Option<ModuleChoice>,
        /// The choice to use, once the selector answered or fell back.
        #[serde(default)]
        chosen: Option<ModuleChoice>,
        /// The Task Planner has not answered yet.
        #[serde(default = "yes")]
        planning: bool,
    },
    /// The counselor reply: to launch or in flight.
    Reply {
        /// The user's message.
        text: String,
        /// The detector's reading.
        state: UserState,
    },
}

fn yes() -> bool {
    true
}

/// The counseling mode: its pure state plus where the current turn is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounselMode {
    /// Parts, tasks, modules, supervision, crises.
    pub state: Counseling,
    /// Where the current turn is.
    #[serde(default)]
    pub step: TurnStep,
    /// A supervision is due and has not been launched yet.
    #[serde(default)]
    pub supervise_due: bool,
    /// The last supervision fell back to its heuristic: Retry may redo it.
    #[serde(default)]
    pub supervisor_fell_back: bool,
    /// The last reply fell back to its heuristic: Retry may redo it.
    #[serde(default)]
    pub reply_fell_back: bool,
    /// The user message and reading of the last reply, for a Retry of it.
    #[serde(default)]
    pub last_turn: Option<(String, UserState)>,
    /// The user message count the last supervision was started at.
    #[serde(default)]
    pub supervised_at: u32,
}

/// The conversation's text turns, oldest first: the snapshot every prompt of a turn reads.
pub fn history(c: &C) -> Vec<Turn> {
    let turns: Vec<Turn> = c
        .messages
        .iter()
        .filter_map(|m| match (&m.role, &m.body) {
            // A mode command is not part of the conversation.
            (Role::User, Body::Text { text, .. }) if text.trim_start().starts_with("/mode") => None,
            (Role::User, Body::Text { text, .. }) => Some(Turn::user(text.clone())),
            (Role::Assistant, Body::Text { text, .. }) if !text.trim().is_empty() => {
                Some(Turn::assistant(text.clone()))
            }
            _ => None,
        })
        .collect();
    turns[turns.len().saturating_sub(HISTORY_KEPT)..].to_vec()
}

impl CounselMode {
    /// Starts counseling on the conversation: the opening says this is an AI conversation
    /// partner, not a licensed counselor, and whether an LLM answers.
    pub fn start(c: &mut C, env: &Env) -> CounselMode {
        let mut state = Counseling::new(c.lang);
        let opening = state.opening(!env.has(Endpoint::Primary));
        c.say(Body::Text { text: opening, source: Some(c.heuristic()) }, env.now);
        CounselMode {
            state,
            step: TurnStep::Idle,
            supervise_due: false,
            supervisor_fell_back: false,
            reply_fell_back: false,
            last_turn: None,
            supervised_at: 0,
        }
    }

    /// A user message: the crisis check first, then the turn's calls.
    pub fn on_message(&mut self, c: &mut C, text: &str, env: &Env, fx: &mut Effects<AppMode>) {
        // A new message abandons a turn interrupted by Stop.
        self.step = TurnStep::Idle;
        self.reply_fell_back = false;
        self.state.lang = c.lang;
        if let Some(found) = self.state.begin_turn(text) {
            // Fixed text, before and regardless of any model output.
            self.finish_reply(c, found.kind.response(c.lang), None, env, fx);
            return;
        }
        if self.state.part == Part::Ended {
            self.finish_reply(c, counselor::ended_reply(c.lang), None, env, fx);
            return;
        }
        if let Some(question) = self.state.safety_question(text) {
            // Fixed text too: the question is asked whatever a model would have said.
            self.finish_reply(c, question.to_string(), None, env, fx);
            return;
        }
        if let Some(reply) = self.state.closing_reply(text) {
            self.finish_reply(c, reply, None, env, fx);
            return;
        }
        let checked = self.state.current().is_none();
        self.step = TurnStep::Checks { text: text.to_string(), checked, verdict: None, state: None };
        self.advance(c, env, fx);
    }

    /// Starts whatever the turn waits for: the missing checks, the reply, a due supervision.
    pub fn advance(&mut self, c: &mut C, env: &Env, fx: &mut Effects<AppMode>) {
        if let TurnStep::Checks { text, checked, state, .. } = &self.step {
            let snapshot = history(c);
            let lang = c.lang;
            let mut requests = Vec::new();
            if !checked {
                if let Some(task) = self.state.current() {
                    let points: Vec<String> =
                        self.state.latest_feedback().map(|f| f.improvements.clone()).unwrap_or_default();
                    let prompt = super::checker::checker_prompt(
                        self.state.part,
                        task,
                        &self.state.tasks,
                        &points,
                        &snapshot,
                        lang,
                    );
                    requests.push(CallRequest::foreground(CounselPurpose::Checker, prompt, false));
                }
            }
            if state.is_none() {
                let prompt = state_prompt(&snapshot, &self.state.topics, lang);
                requests.push(CallRequest::foreground(CounselPurpose::Detector, prompt, false));
            }
            let text = text.clone();
            if c.launch(requests, env, fx) {
                return;
            }
            // No LLM: both twins on the same snapshot.
            let reading = match &self.step {
                TurnStep::Checks { state: Some(s), .. } => s.clone(),
                _ => self.state.heuristic_state(&text),
            };
            let verdict = match &self.step {
                TurnStep::Checks { checked: true, verdict, .. } => verdict.clone(),
                _ => self.state.heuristic_verdict(&text, &reading),
            };
            self.step = TurnStep::Checks { text, checked: true, verdict, state: Some(reading) };
            self.after_checks(c, env, fx);
            return;
        }
        if let TurnStep::Select { text, state, chosen, planning, .. } = &self.step {
            let s = &self.state;
            let mut requests = Vec::new();
            if chosen.is_none() {
                // While the planner writes the part's tasks, the selector works from the part's goal.
                let task = if *planning { None } else { s.current() };
                let prompt = module_prompt(s.part, task, state, s.module, s.fresh_feedback(), text, c.lang);
                requests.push(CallRequest::foreground(CounselPurpose::Module, prompt, false));
            }
            if *planning {
                let said: Vec<&str> = s.said.iter().map(String::as_str).collect();
                let prompt = planner_prompt(&said, &s.tasks, None, c.lang);
                requests.push(CallRequest::foreground(CounselPurpose::Planner, prompt, false));
            }
            if c.launch(requests, env, fx) {
                return;
            }
            // No LLM: the twin's choice; the heuristic plan made at the transition stands.
            if let TurnStep::Select { twin, chosen, planning, .. } = &mut self.step {
                *planning = false;
                if chosen.is_none() {
                    *chosen = Some(twin.clone().unwrap_or(ModuleChoice { module: self.state.module, reason: None }));
                }
            }
            self.after_select(c, env, fx);
            return;
        }
        if let TurnStep::Reply { text, state } = &self.step {
            let (text, state) = (text.clone(), state.clone());
            let prompt = self.state.counselor_prompt(&history(c));
            if c.launch(vec![CallRequest::foreground(CounselPurpose::Reply, prompt, true)], env, fx) {
                return;
            }
            let reply = self.state.heuristic_reply(&text, &state);
            self.last_turn = Some((text, state));
            self.finish_reply(c, reply, None, env, fx);
            return;
        }
        self.supervise(c, env, fx);
    }

    /// Both checks are in: the selectors and the part manager decide, then the reply.
    fn after_checks(&mut self, c: &mut C, env: &Env, fx: &mut Effects<AppMode>) {
        let TurnStep::Checks { text, checked: true, verdict, state: Some(state) } = &self.step else {
            return;
        };
        let (text, verdict, state) = (text.clone(), verdict.clone(), state.clone());
        let (plan, twin) = self.state.prepare_turn(verdict.as_ref(), &state);
        if let Some(kind) = plan.crisis {
            // A crisis only the detector saw gets the same fixed text as one the keyword check
            // found: no model writes this reply.
            self.finish_reply(c, kind.response(c.lang), None, env, fx);
            return;
        }
        // Once the session has ended there is nothing to choose.
        let decided = self.state.part == Part::Ended;
        let planning = plan.part_transition == Some((Part::Start, Part::Exploration));
        let chosen = decided.then(|| twin.clone());
        self.step = TurnStep::Select { text, state, twin: Some(twin), chosen, planning };
        self.advance(c, env, fx);
    }

    /// The module is chosen and the tasks are planned: the module is used, then the reply.
    fn after_select(&mut self, c: &mut C, env: &Env, fx: &mut Effects<AppMode>) {
        let TurnStep::Select { text, state, chosen: Some(choice), planning: false, .. } = &self.step else {
            return;
        };
        let (text, state, choice) = (text.clone(), state.clone(), choice.clone());
        let mut plan = super::TurnPlan::default();
        self.state.apply_module(choice, &mut plan);
        self.step = TurnStep::Reply { text, state };
        self.advance(c, env, fx);
    }

    /// Shows the reply (in place of its stream when `call` streamed), records it, and
    /// starts the supervision when it is due.
    fn finish_reply(
        &mut self,
        c: &mut C,
        reply: String,
        call: Option<(CallId, Source)>,
        env: &Env,
        fx: &mut Effects<AppMode>,
    ) {
        self.step = TurnStep::Idle;
        self.state.record_reply(&reply);
        match call {
            Some((id, source)) => c.say_in_place_of(id, Body::Text { text: reply, source: Some(source) }, env.now),
            None => {
                let source = c.heuristic();
                c.say(Body::Text { text: reply, source: Some(source) }, env.now);
            }
        }
        // Once per user message, even when a retried reply comes again.
        if self.state.supervisor_due() && self.supervised_at != self.state.user_messages {
            self.supervised_at = self.state.user_messages;
            self.supervise_due = true;
        }
        self.supervise(c, env, fx);
    }

    /// Starts a due supervision in the background, or makes it with the heuristic now.
    fn supervise(&mut self, c: &mut C, env: &Env, fx: &mut Effects<AppMode>) {
        if !self.supervise_due {
            return;
        }
        self.supervise_due = false;
        let s = &self.state;
        let prompt = supervisor_prompt(&history(c), s.part, s.current(), s.module, c.lang);
        if c.launch(vec![CallRequest::background(CounselPurpose::Supervisor, prompt)], env, fx) {
            return;
        }
        let review = heuristic_review(&s.recent, s.module, s.user_messages, c.lang);
        self.state.record_feedback(review);
    }

    /// A call of the turn ended.
    pub fn on_result(&mut self, c: &mut C, done: Settled<AppMode>, env: &Env, fx: &mut Effects<AppMode>) {
        let (text, model, failure) = match done.outcome {
            LlmOutcome::Ok { text, model, .. } => (text, model, None),
            LlmOutcome::Failed(f) => (String::new(), String::new(), Some(f)),
        };
        let Purpose::Counseling(purpose) = done.purpose else { return };
        match purpose {
            CounselPurpose::Checker => {
                let TurnStep::Checks { text: said, checked: false, state, .. } = &self.step else { return };
                let (said, reading) = (said.clone(), state.clone());
                let parsed = match (&failure, self.state.current()) {
                    (None, Some(task)) => parse_verdict(&text, task, &self.state.tasks).map(Some),
                    _ => Err(String::new()),
                };
                let verdict = match parsed {
                    Ok(v) => v,
                    Err(reason) => {
                        c.fell_back(done.purpose, failure, reason, env.now);
                        let reading = reading.unwrap_or_else(|| self.state.heuristic_state(&said));
                        self.state.heuristic_verdict(&said, &reading)
                    }
                };
                if let TurnStep::Checks { checked, verdict: v, .. } = &mut self.step {
                    *checked = true;
                    *v = verdict;
                }
            }
            CounselPurpose::Detector => {
                let TurnStep::Checks { text: said, state: None, .. } = &self.step else { return };
                let said = said.clone();
                let reading = match failure {
                    None => parse_state(&text).map_err(|reason| (None, reason)),
                    Some(f) => Err((Some(f), String::new())),
                };
                let reading = reading.unwrap_or_else(|(failure, reason)| {
                    c.fell_back(done.purpose, failure, reason, env.now);
                    self.state.heuristic_state(&said)
                });
                if let TurnStep::Checks { state, .. } = &mut self.step {
                    *state = Some(reading);
                }
            }
            CounselPurpose::Module => {
                let TurnStep::Select { chosen: None, twin, .. } = &self.step else { return };
                let twin = twin.clone().unwrap_or(ModuleChoice { module: self.state.module, reason: None });
                let answer = match failure {
                    None => parse_module_choice(&text).map_err(|reason| (None, reason)),
                    Some(f) => Err((Some(f), String::new())),
                };
                let choice = match answer {
                    Ok((module, reason)) => ModuleChoice { module, reason: Some(ChangeReason::Selected(reason)) },
                    Err((failure, reason)) => {
                        c.fell_back(done.purpose, failure, reason, env.now);
                        twin
                    }
                };
                if let TurnStep::Select { chosen, .. } = &mut self.step {
                    *chosen = Some(choice);
                }
                self.after_select(c, env, fx);
                return;
            }
            CounselPurpose::Planner => {
                let TurnStep::Select { planning: true, .. } = &self.step else { return };
                let planned = match failure {
                    None => parse_plan(&text).map_err(|reason| (None, reason)),
                    Some(f) => Err((Some(f), String::new())),
                };
                match planned {
                    Ok(tasks) => self.state.replace_exploration(tasks),
                    // The heuristic plan made at the transition stands.
                    Err((failure, reason)) => {
                        c.fell_back(done.purpose, failure, reason, env.now);
                    }
                }
                if let TurnStep::Select { planning, .. } = &mut self.step {
                    *planning = false;
                }
                self.after_select(c, env, fx);
                return;
            }
            CounselPurpose::Reply => {
                let TurnStep::Reply { text: said, state } = &self.step else { return };
                let (said, reading) = (said.clone(), state.clone());
                self.last_turn = Some((said.clone(), reading.clone()));
                // A small model may answer `{"answer": null}`: no reply to show.
                match (failure, crate::engine::json::prose(&text)) {
                    (None, Ok(reply)) => {
                        self.finish_reply(c, reply, Some((done.call, Source::Llm { model })), env, fx);
                    }
                    (failure, read) => {
                        c.drop_stream_message(done.call);
                        let reason = match (&failure, read) {
                            (None, Err(problem)) => problem.reason(c.lang).to_string(),
                            _ => String::new(),
                        };
                        c.fell_back(done.purpose, failure, reason, env.now);
                        let reply = self.state.heuristic_reply(&said, &reading);
                        self.finish_reply(c, reply, None, env, fx);
                        self.reply_fell_back = true;
                    }
                }
                return;
            }
            CounselPurpose::Supervisor => {
                let at = self.state.user_messages;
                match failure.map(Err).unwrap_or_else(|| Ok(parse_feedback(&text, at))) {
                    Ok(Ok(feedback)) => {
                        self.supervisor_fell_back = false;
                        self.state.record_feedback(feedback);
                    }
                    other => {
                        let (failure, reason) = match other {
                            Err(f) => (Some(f), String::new()),
                            Ok(Err(reason)) => (None, reason),
                            Ok(Ok(_)) => (None, String::new()),
                        };
                        c.fell_back(done.purpose, failure, reason, env.now);
                        self.supervisor_fell_back = true;
                        let s = &self.state;
                        let review = heuristic_review(&s.recent, s.module, at, c.lang);
                        self.state.record_feedback(review);
                    }
                }
                return;
            }
        }
        if matches!(self.step, TurnStep::Checks { checked: true, state: Some(_), .. }) {
            self.after_checks(c, env, fx);
        }
    }

    /// True when Retry can redo the step `purpose` names.
    pub fn can_retry(&self, purpose: CounselPurpose) -> bool {
        match purpose {
            CounselPurpose::Checker | CounselPurpose::Detector => matches!(self.step, TurnStep::Checks { .. }),
            CounselPurpose::Module => matches!(self.step, TurnStep::Select { chosen: None, .. }),
            CounselPurpose::Planner => matches!(self.step, TurnStep::Select { planning: true, .. }),
            CounselPurpose::Reply => {
                matches!(self.step, TurnStep::Reply { .. }) || (self.reply_fell_back && self.last_turn.is_some())
            }
            CounselPurpose::Supervisor => self.supervisor_fell_back,
        }
    }

    /// Makes `advance` redo the step `purpose` names.
    pub fn reset_step(&mut self, purpose: CounselPurpose) {
        match purpose {
            CounselPurpose::Reply if matches!(self.step, TurnStep::Idle) => {
                if let Some((text, state)) = self.last_turn.clone() {
                    self.reply_fell_back = false;
                    self.step = TurnStep::Reply { text, state };
                }
            }
            CounselPurpose::Supervisor => {
                self.supervisor_fell_back = false;
                self.supervise_due = true;
            }
            _ => {}
        }
    }

    /// Starts counseling over: a fresh Part 1 with a new opening.
    pub fn restart(&mut self, c: &mut C, env: &Env) {
        *self = CounselMode::start(c, env);
    }
}
