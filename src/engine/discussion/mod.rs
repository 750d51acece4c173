//! The discussion mode end to end: UNDERSTAND (contract + slot gate) → DESIGN →
//! PRESENT (with critiques) → DEBATE ⇄ REFINE → CONFIRM → PLAN.
//!
//! The flow is data-driven: after every event, `drive` looks at the stage and at which
//! artifacts exist, and either produces the next one (heuristic twin, synchronously),
//! starts the LLM calls for it (and waits), or waits for the user. One file per stage:
//! `understand` (contract and gate), `designs` (designs, critiques, refinement),
//! `confirm` (the choice and the plan); the lunch intent of the gate is `engine::lunch`.

mod calls;
mod confirm;
mod designs;
mod understand;

pub use self::calls::{DiscussionPurpose, DiscussionRole};

use serde::{Deserialize, Serialize};

use super::call::Purpose;
use super::contract::{
    add_criterion, choice_condition, choice_requirement, empty_request_question, limits_in, only_recounts,
    only_reschedules, recount, reschedule, stated_criterion, Contract, Field,
};
use super::core::{Conversation, Endpoint, Settled};
use super::design::{
    estimate_complexity, new_destination, reformat, retarget, revise_chosen, revise_delivery, rules_read, Complexity,
    DesignProposal, RuleReading,
};
use super::gate::slot_label;
use super::gate::{ConversationState, GateStatus, Intent};
use super::grounding::{Grounding, MEMORY_MAX_CHARS};
use super::lang::{clip, with_instrumental, with_object, Lang};
use super::memory::{preferences_in, Memory};
use super::plan::Plan;
use super::reply::{
    answer_question, answered_design, asks_for_recommendation, asks_something, briefs, combined, picks_with_change,
    read_reply, read_reply_names, refers_back, turns_down, Reading,
};
use super::session::{AppMode, Body, CardKind, Env, Reviewed, Role, Target};
use super::slots::{is_cancel, parse_format, Format};
use super::source::{HeuristicWhy, Source};
use super::state_machine::{Stage, StateMachine, Transition};
use super::words::WordList;

/// The app's conversation, as the discussion sees it.
pub(crate) type C = Conversation<AppMode>;
/// The effects of a step.
pub(crate) type Fx = super::core::Effects<AppMode>;

/// User events only the discussion understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscussionAction {
    /// The user picked a design from its card.
    ChooseDesign { index: usize },
}

/// What only the discussion shows in the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "artifact", rename_all = "snake_case")]
pub enum DiscussionArtifact {
    /// Design proposals of a round.
    DesignsPresented { round: u32, designs: Vec<DesignProposal>, source: Source, changes: Vec<String> },
    /// Critiques of a round's designs.
    CritiqueComplete { round: u32, critiques: Vec<Reviewed> },
    /// The final plan.
    PlanGenerated { plan: Plan, selected_design: DesignProposal, discussion_summary: String },
}

/// The discussion's state: stage machine, contract and gate, designs, critiques,
/// memory, the chosen design and the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Discussion {
    pub machine: StateMachine,
    /// The request being discussed, sanitized.
    pub request: Option<String>,
    pub gate: Option<ConversationState>,
    pub contract: Option<Contract>,
    pub contract_source: Option<Source>,
    /// The contract must be (re)analysed before the gate is checked.
    pub analysis_due: bool,
    /// Alignment rounds asked so far (seed 003).
    pub alignment_round: u32,
    /// The decisive questions of a low-confidence contract were asked once already.
    pub decisive_asked: bool,
    /// Every question asked in this session, to never ask the same one twice.
    pub asked: Vec<String>,
    /// How much machinery the request calls for.
    pub expected: Complexity,
    pub designs: Vec<DesignProposal>,
    pub designs_source: Option<Source>,
    /// What the latest refinement changed.
    pub changes: Vec<String>,
    pub critiques: Vec<Option<Reviewed>>,
    /// The current designs and critiques have been shown.
    pub presented: bool,
    pub memory: Memory,
    pub selected: Option<usize>,
    /// The confirmed design, stored directly (never found again by searching text).
    pub selected_design: Option<DesignProposal>,
    pub plan: Option<Plan>,
    /// The feedback the current refinement works from.
    pub feedback: Option<String>,
    /// Designs before the latest refinement, so it can be redone.
    pub pre_refine: Option<Vec<DesignProposal>>,
    /// Redo the refinement while in DEBATE (after Retry).
    pub redo_refine: bool,
    /// What the user said in another mode before switching here (seed 003: the last 10
    /// turns, each cut to 200 characters); the analyzer takes it as stated fact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior_chat: Option<String>,
    /// The latest message from the user, for prompts.
    pub latest_user: String,
    /// The lunch intent has given its answer.
    pub worker_done: bool,
    /// The one design the user's latest question or change was about, which "go with that"
    /// then picks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<usize>,
    /// "go with 2 but drop the validator": the design picked (its index and name) with a change
    /// to make first, taken as soon as the refined designs are shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_after_refine: Option<(usize, String)>,
}

impl Discussion {
    /// A fresh discussion allowing `max_rounds` refine rounds.
    pub fn new(max_rounds: u32) -> Self {
        Discussion {
            machine: StateMachine::new(max_rounds),
            request: None,
            gate: None,
            contract: None,
            contract_source: None,
            analysis_due: false,
            alignment_round: 0,
            decisive_asked: false,
            asked: Vec::new(),
            expected: Complexity::Medium,
            designs: Vec::new(),
            designs_source: None,
            changes: Vec::new(),
            critiques: Vec::new(),
            presented: false,
            memory: Memory::default(),
            selected: None,
            selected_design: None,
            plan: None,
            feedback: None,
            pre_refine: None,
            redo_refine: false,
            prior_chat: None,
            latest_user: String::new(),
            worker_done: false,
            focus: None,
            take_after_refine: None,
        }
    }

    /// A fresh discussion in a conversation that had another mode before: what was said
    /// there (the last 10 turns, each cut to 200 characters, as seed 003 says) counts as
    /// stated fact for the analyzer, so it is not asked again.
    pub fn after_chat(max_rounds: u32, c: &C) -> Self {
        let summary = c.recent_turns(10, 200);
        Discussion { prior_chat: (!summary.is_empty()).then_some(summary), ..Discussion::new(max_rounds) }
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.machine.stage()
    }

    /// Index of the recommended design.
    pub fn recommended(&self) -> Option<usize> {
        self.designs.iter().position(|d| d.recommended)
    }

    pub(crate) fn fire(&mut self, t: Transition) {
        // Transitions are only fired where the stage allows them; a refusal here would
        // be an engine bug, and the machine leaves the stage unchanged in that case.
        let _ = self.machine.fire(t);
    }
}

/// The discussion with the conversation it runs in, for the length of one step.
pub(crate) struct Discussing<'a> {
    pub(crate) d: &'a mut Discussion,
    pub(crate) c: &'a mut C,
}

/// What the session's mode switch calls.
impl Discussion {
    pub(crate) fn on_message(&mut self, c: &mut C, text: &str, env: &Env, fx: &mut Fx) {
        Discussing { d: self, c }.on_user_message(text, env, fx);
    }

    /// Seed 003: an empty request is answered with a question, not ignored.
    pub(crate) fn on_empty_message(&mut self, c: &mut C, env: &Env) {
        if self.stage() == Stage::Understand && self.request.is_none() {
            c.notice(empty_request_question(c.lang), env.now);
        }
    }

    pub(crate) fn on_answer(&mut self, c: &mut C, card: u32, answers: Vec<String>, env: &Env, fx: &mut Fx) {
        Discussing { d: self, c }.on_answer(card, answers, env, fx);
    }

    pub(crate) fn on_action(&mut self, c: &mut C, action: DiscussionAction, env: &Env, fx: &mut Fx) {
        match action {
            DiscussionAction::ChooseDesign { index } => Discussing { d: self, c }.on_choose_design(index, env, fx),
        }
    }

    pub(crate) fn on_result(&mut self, c: &mut C, done: Settled<AppMode>, env: &Env, fx: &mut Fx) {
        let mut x = Discussing { d: self, c };
        let Settled { call, purpose, outcome, .. } = done;
        let Purpose::Discussion(purpose) = purpose else { return x.drive(env, fx) };
        match purpose {
            DiscussionPurpose::Contract => x.finish_contract(call, outcome, env),
            DiscussionPurpose::Question => x.finish_question(outcome, env),
            DiscussionPurpose::LunchAnswer => x.finish_lunch_answer(call, outcome, env),
            DiscussionPurpose::Designs => x.finish_designs(call, outcome, env),
            DiscussionPurpose::Critique { design } => x.finish_critique(design, call, outcome, env),
            DiscussionPurpose::Refine => x.finish_refine(call, outcome, env),
            DiscussionPurpose::Plan => x.finish_plan(call, outcome, env),
        }
        x.drive(env, fx);
    }

    pub(crate) fn advance(&mut self, c: &mut C, env: &Env, fx: &mut Fx) {
        Discussing { d: self, c }.drive(env, fx);
    }

    /// True when the step a purpose names can still be redone: the session is at that
    /// step and its current artifact is a heuristic stand-in (or an interrupted plan).
    pub fn can_retry(&self, c: &C, purpose: DiscussionPurpose) -> bool {
        let d = self;
        let stood_in =
            |source: Option<&Source>| matches!(source, Some(Source::Heuristic(why)) if *why != HeuristicWhy::NoLlm);
        let collecting = d.gate.as_ref().is_some_and(|g| g.status == GateStatus::Collecting);
        let _ = c;
        match (purpose, d.stage()) {
            (DiscussionPurpose::Contract, Stage::Understand) => collecting && stood_in(d.contract_source.as_ref()),
            (DiscussionPurpose::Question, Stage::Understand) => collecting,
            (DiscussionPurpose::LunchAnswer, Stage::Understand) => d.worker_done,
            (DiscussionPurpose::Designs, Stage::Debate) => {
                d.machine.round() == 0 && stood_in(d.designs_source.as_ref())
            }
            (DiscussionPurpose::Refine, Stage::Debate) => {
                d.machine.round() > 0 && d.pre_refine.is_some() && stood_in(d.designs_source.as_ref())
            }
            (DiscussionPurpose::Critique { design }, Stage::Debate) => {
                d.critiques.get(design).and_then(|c| c.as_ref()).is_some_and(|r| stood_in(Some(&r.source)))
            }
            (DiscussionPurpose::Plan, Stage::Plan) => {
                d.plan.as_ref().is_some_and(|p| p.interrupted || stood_in(Some(&p.source)))
            }
            _ => false,
        }
    }

    pub(crate) fn reset_step(&mut self, c: &mut C, purpose: DiscussionPurpose) {
        let d = &mut *self;
        match purpose {
            DiscussionPurpose::Contract => d.analysis_due = true,
            DiscussionPurpose::Question => {}
            DiscussionPurpose::LunchAnswer => d.worker_done = false,
            DiscussionPurpose::Designs => {
                d.designs.clear();
                d.critiques.clear();
                d.presented = false;
            }
            DiscussionPurpose::Critique { design } => {
                if let Some(slot) = d.critiques.get_mut(design) {
                    *slot = None;
                }
                d.presented = false;
            }
            DiscussionPurpose::Refine => d.redo_refine = true,
            DiscussionPurpose::Plan => d.plan = None,
        }
        if let Some(card) = c.open_card().filter(|card| card.kind == CardKind::Clarify).map(|card| card.id) {
            c.close_card(card, Vec::new());
        }
    }

    pub(crate) fn restart(&mut self, c: &mut C, env: &Env) {
        let mut machine = self.machine.clone();
        machine.fire(Transition::Restart).ok();
        *self = Discussion::new(c.settings.discussion.max_rounds);
        self.machine = machine;
        self.machine.set_max_rounds(c.settings.discussion.max_rounds);
        let t = c.lang.pick(
            "처음부터 다시 시작합니다. 새 요청을 한 줄로 알려 주세요.",
            "Starting over. Tell me the new request in one line.",
        );
        c.notice(t, env.now);
    }
}

/// The prompt context every call after UNDERSTAND carries.
pub(crate) fn grounding(d: &Discussion, c: &C) -> Grounding {
    let contract = d
        .contract
        .clone()
        .unwrap_or_else(|| Contract { original_request: d.request.clone().unwrap_or_default(), ..Contract::default() });
    Grounding {
        contract: contract.format_for_prompt(),
        memory: d.memory.context_for_llm(MEMORY_MAX_CHARS),
        latest_user: d.latest_user.clone(),
        lang: c.lang,
    }
}

impl Discussing<'_> {
    // ---- events ----

    pub(crate) fn on_user_message(&mut self, text: &str, env: &Env, fx: &mut Fx) {
        let text = text.to_string();
        self.d.latest_user = text.clone();

        match self.d.stage() {
            Stage::Understand => self.on_understand_message(&text, env, fx),
            Stage::Debate => self.on_feedback(&text, env, fx),
            Stage::Confirm => {
                let names: Vec<&str> = self.d.designs.iter().map(|d| d.name.as_str()).collect();
                match read_reply_names(&text, &names, self.d.recommended(), self.c.lang).picked() {
                    Some(index) => self.choose(index, env, fx),
                    None => {
                        let t = self
                            .c
                            .lang
                            .pick("어느 설계안으로 할지 카드에서 골라 주세요.", "Please pick a design on the card.");
                        self.c.notice(t, env.now);
                    }
                }
            }
            Stage::Plan => {
                let t = self.c.lang.pick(
                    "계획이 완성되었습니다. 새 요청을 논의하려면 '다시 시작'을 누르세요.",
                    "The plan is done. Press Restart to discuss a new request.",
                );
                self.c.notice(t, env.now);
            }
            // The remaining stages advance without user input; a message arriving while
            // they wait (after Stop) is kept as feedback and the step is resumed.
            Stage::Design | Stage::Present | Stage::Refine => {
                let note = format!("{}: {}", self.c.lang.pick("사용자 메모", "User note"), clip(&text, 200));
                self.d.memory.agree(note);
                self.drive(env, fx);
            }
        }
    }

    pub(crate) fn on_understand_message(&mut self, text: &str, env: &Env, fx: &mut Fx) {
        let collecting = self.d.gate.as_ref().is_some_and(|g| g.status == GateStatus::Collecting);
        if collecting && is_cancel(text) {
            self.cancel_request(env);
            return;
        }
        let lunch_done =
            self.d.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation) && self.d.worker_done;
        if !collecting || lunch_done {
            if is_cancel(text) {
                let t = self.c.lang.pick(
                    "취소할 요청이 없습니다. 무엇을 도와드릴까요?",
                    "There is no request to cancel. What would you like to do?",
                );
                self.c.notice(t, env.now);
                return;
            }
            // "매운 건 빼 주세요" after a lunch answer changes that answer; it is no new request.
            if lunch_done && crate::engine::gate::is_lunch_follow_up(text) {
                if let Some(gate) = self.d.gate.as_mut() {
                    let before = gate.slots.get(crate::engine::gate::PREFERENCES).map(|v| v.display(self.c.lang));
                    let said = before.map_or_else(|| text.to_string(), |b| format!("{b}, {text}"));
                    let _ = gate.set(crate::engine::gate::PREFERENCES, crate::engine::gate::SlotValue::Text(said));
                }
                self.d.latest_user = text.to_string();
                self.d.worker_done = false;
                self.drive(env, fx);
                return;
            }
            // "how do I clear the npm cache?": a question the chat answers, not a plan to make.
            if self.d.request.is_none() && crate::engine::chat::nokey::is_command_question(text) {
                let t = Lang::detect(text).pick(
                    "명령어에 관한 짧은 질문으로 보여요. 그런 질문은 채팅 모드가 답해요: `/mode chat`을 입력한 뒤 다시 물어봐 주세요. \
                     무언가를 만들거나 자동화할 계획을 세우려면, 그것이 무엇을 해야 하는지 말씀해 주세요.",
                    "That reads as a quick question about a command, which the chat mode answers: type `/mode chat` and ask it there. \
                     To plan something to build or automate instead, tell me what it should do.",
                );
                self.c.notice(t, env.now);
                return;
            }
            self.start_request(text, env, fx);
            return;
        }
        // A message while collecting answers the open card (or the gate directly); a question
        // there ("how long would 2 take to build?") is no format: the card stays open.
        let asks_format =
            |card: &super::core::QuestionCard| card.questions.iter().any(|q| q.target == Target::Field(Field::Format));
        if self.c.open_card().is_some_and(asks_format) && parse_format(text).is_none() && asks_something(text) {
            let t = self.c.lang.pick(
                "설계안은 아직 없어요. 위 카드의 질문에 먼저 답해 주시면(형식을 고르거나 직접 입력) 그 내용으로 설계안을 만들어 드릴게요.",
                "There are no designs yet. Answer the card above first (pick a format, or type your own) and I will draft designs from it.",
            );
            self.c.notice(t, env.now);
            return;
        }
        // "it should watch prices and tell me about the changes": a sentence that names no format
        // is no format's name. It joins the request, and the card still asks for the format.
        let format_first = |card: &super::core::QuestionCard| {
            card.questions.first().is_some_and(|q| q.target == Target::Field(Field::Format))
        };
        // "no, too complex" there pushes back; it names no format either, and adds nothing.
        let lower = text.to_lowercase();
        let pushback = lower
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| WordList("no|nope|nah|not|아니|아니요|아뇨|싫어요|싫어").contains(w))
            || WordList("too complex|too complicated|너무 복잡|별로").any(|w| lower.contains(w));
        if self.c.open_card().is_some_and(format_first) && parse_format(text).is_none() && pushback {
            let t = self.c.lang.pick(
                "위 카드는 결과물의 형식을 묻고 있어요. 형식을 고르거나 직접 입력해 주세요. 요청을 바꾸고 싶으시면 바꿀 내용을 말씀해 주시고, 처음부터 하려면 '다시 시작'을 누르세요.",
                "The card above asks what form the result should take: pick one, or type your own. To change the request, say what to change; to start over, press Restart.",
            );
            self.c.notice(t, env.now);
            return;
        }
        if self.c.open_card().is_some_and(format_first)
            && parse_format(text).is_none()
            && text.split_whitespace().count() > 6
        {
            self.apply_free_answer(text, env);
            let t = self.c.lang.pick(
                "요청에 더해 두었습니다. 결과물의 형식은 위 카드에서 골라 주세요(직접 입력도 됩니다).",
                "Added that to the request. The card above still asks what form the result should take: pick one, or type your own.",
            );
            self.c.notice(t, env.now);
            return;
        }
        if let Some(card) = self.c.open_card().cloned() {
            let answers: Vec<String> = card
                .questions
                .iter()
                .enumerate()
                .map(|(i, q)| {
                    let fits_format = q.target == Target::Field(Field::Format) && parse_format(text).is_some();
                    if i == 0 || fits_format {
                        text.to_string()
                    } else {
                        String::new()
                    }
                })
                .collect();
            self.answer_card(card.id, answers, Some(text), env, fx);
        } else {
            self.apply_free_answer(text, env);
            self.drive(env, fx);
        }
    }

    pub(crate) fn start_request(&mut self, text: &str, env: &Env, fx: &mut Fx) {
        let max_rounds = self.c.settings.discussion.max_rounds;
        let history_kept = std::mem::replace(&mut *self.d, Discussion::new(max_rounds));
        // A new request after a finished lunch answer keeps the machine's history.
        self.d.machine = history_kept.machine;
        self.d.prior_chat = history_kept.prior_chat;
        self.d.machine.set_max_rounds(self.c.settings.discussion.max_rounds);
        self.c.lang = Lang::detect(text);
        if self.c.title.is_empty() {
            self.c.title = clip(text, 48);
        }
        let intent = Intent::classify(text);
        let mut gate = ConversationState::for_intent(intent, self.c.lang);
        if intent == Intent::LunchRecommendation {
            let extraction = gate.extract(text);
            for r in extraction.rejected {
                self.c.notice(r.error.message(self.c.lang), env.now);
            }
        }
        self.d.request = Some(text.to_string());
        self.d.latest_user = text.to_string();
        self.d.expected = estimate_complexity(text);
        self.d.analysis_due = intent == Intent::DiscussionRequest;
        self.d.gate = Some(gate);
        self.drive(env, fx);
    }

    pub(crate) fn cancel_request(&mut self, env: &Env) {
        if let Some(card) = self.c.open_card().map(|c| c.id) {
            self.c.close_card(card, Vec::new());
        }
        let machine = self.d.machine.clone();
        *self.d = Discussion::new(self.c.settings.discussion.max_rounds);
        self.d.machine = machine;
        self.d.machine.set_max_rounds(self.c.settings.discussion.max_rounds);
        let t = self.c.lang.pick(
            "요청을 취소했습니다. 새로 하고 싶은 일을 알려 주세요.",
            "Cancelled. Tell me what you would like to do instead.",
        );
        self.c.notice(t, env.now);
    }

    pub(crate) fn on_answer(&mut self, card: u32, answers: Vec<String>, env: &Env, fx: &mut Fx) {
        let shown: Vec<String> = answers.iter().filter(|a| !a.is_empty()).cloned().collect();
        if !shown.is_empty() {
            self.d.latest_user = shown.join("\n");
        }
        self.answer_card(card, answers, None, env, fx);
    }

    /// Applies a card's answers. `typed` is the composer text when the answer came from
    /// there (it is already in the transcript); card answers are echoed as a user message.
    fn answer_card(&mut self, card_id: u32, answers: Vec<String>, typed: Option<&str>, env: &Env, fx: &mut Fx) {
        let Some((kind, questions)) = self.c.close_card(card_id, answers.clone()) else {
            return;
        };
        self.c.halted = false;
        if typed.is_none() {
            let echo: Vec<String> = answers.iter().filter(|a| !a.trim().is_empty()).cloned().collect();
            if !echo.is_empty() {
                self.c.push(Role::User, Body::Text { text: echo.join("\n"), source: None }, env.now);
            }
        }
        match kind {
            CardKind::Clarify => {
                for (q, a) in questions.iter().zip(&answers) {
                    if !a.trim().is_empty() {
                        self.apply_answer(q, a.trim(), env);
                    }
                }
                self.after_answers();
                self.drive(env, fx);
            }
            CardKind::ConfirmAssumptions => {
                let answer = answers.first().map(|a| a.trim()).unwrap_or("");
                let proceed = self.proceed_option();
                if answer.is_empty() || answer == proceed {
                    self.proceed_with_assumptions(env);
                } else {
                    self.apply_free_answer(answer, env);
                    self.after_answers();
                    let filled = self.d.gate.as_ref().is_some_and(|g| g.is_required_filled());
                    if filled {
                        self.complete_understand(env);
                    } else {
                        self.post_assumptions_card(env);
                    }
                }
                self.drive(env, fx);
            }
            CardKind::ChooseDesign => {
                let answer = answers.first().cloned().unwrap_or_default();
                let names: Vec<&str> = self.d.designs.iter().map(|d| d.name.as_str()).collect();
                let index = questions
                    .first()
                    .and_then(|q| q.options.iter().position(|o| *o == answer))
                    .or_else(|| read_reply_names(&answer, &names, self.d.recommended(), self.c.lang).picked());
                match index {
                    Some(i) => self.choose(i, env, fx),
                    None => {
                        let t = self.c.lang.pick(
                            "설계안을 알아보지 못했습니다. 카드에서 하나를 골라 주세요.",
                            "I could not tell which design you meant. Please pick one on the card.",
                        );
                        self.c.notice(t, env.now);
                        self.post_choose_card(env);
                    }
                }
            }
        }
    }

    pub(crate) fn on_choose_design(&mut self, index: usize, env: &Env, fx: &mut Fx) {
        if self.c.is_busy() || index >= self.d.designs.len() {
            return;
        }
        match self.d.stage() {
            Stage::Debate | Stage::Confirm => {
                if let Some(card) = self.c.open_card().filter(|c| c.kind == CardKind::ChooseDesign).map(|c| c.id) {
                    let name = self.d.designs[index].name.clone();
                    self.c.close_card(card, vec![name]);
                }
                let name = self.d.designs[index].name.clone();
                let t = match self.c.lang {
                    Lang::Ko => format!("{} 하겠습니다.", with_instrumental(&name)),
                    Lang::En => format!("Let's go with {name}."),
                };
                self.c.push(Role::User, Body::Text { text: t, source: None }, env.now);
                self.choose(index, env, fx);
            }
            _ => {}
        }
    }

    /// Settles on a design: DEBATE → CONFIRM → PLAN at once.
    pub(crate) fn choose(&mut self, index: usize, env: &Env, fx: &mut Fx) {
        if index >= self.d.designs.len() {
            return;
        }
        if let Some(card) = self.c.open_card().filter(|c| c.kind == CardKind::ChooseDesign).map(|c| c.id) {
            let name = self.d.designs[index].name.clone();
            self.c.close_card(card, vec![name]);
        }
        self.d.selected = Some(index);
        if self.d.stage() == Stage::Debate {
            self.d.fire(Transition::UserSatisfied);
        }
        self.drive(env, fx);
    }

    pub(crate) fn on_feedback(&mut self, text: &str, env: &Env, fx: &mut Fx) {
        let reading = read_reply(text, &briefs(&self.d.designs), self.d.recommended(), self.c.lang);
        let focus_before = self.d.focus;
        match reading {
            Reading::StartOver => {
                if let Some(card) = self.c.open_card().map(|card| card.id) {
                    self.c.close_card(card, Vec::new());
                }
                self.d.restart(self.c, env);
                return;
            }
            Reading::Question(about) => {
                self.d.focus = answered_design(text, about, &self.d.designs);
                let answer = answer_question(text, about, &self.d.designs, self.c.lang);
                self.c.notice(answer, env.now);
                return;
            }
            Reading::Choose(_) | Reading::Approve(_) | Reading::ApproveRecommended { .. } => {
                let note = format!("{}: {}", self.c.lang.pick("사용자 만족", "User satisfied"), clip(text, 120));
                self.d.memory.agree(note);
                let only = (self.d.designs.len() == 1).then_some(0);
                // "ok go with that", right after a question about one design: that design; a bare
                // "ok" right after "which one would you pick?" takes the one recommended.
                let after_recommendation = self
                    .c
                    .messages
                    .iter()
                    .rev()
                    .filter(|m| m.role == Role::User)
                    .nth(1)
                    .is_some_and(|m| matches!(&m.body, Body::Text { text, .. } if asks_for_recommendation(text)));
                let meant = match reading {
                    Reading::ApproveRecommended { named: false, .. } if refers_back(text) || after_recommendation => {
                        self.d.focus
                    }
                    _ => None,
                };
                match reading.picked().or(meant).or(only) {
                    Some(i) => {
                        // "I'd go with 2 if it can run hourly": the plan is held to the condition.
                        if let Some(condition) = choice_condition(text) {
                            self.add_stated_criterion(&condition, env);
                        }
                        // "2번으로 하되 사내 서버에서 돌아가야 해요": a requirement beside the choice too;
                        // what the rules can build of it ("사람이 최종 검토해야 해요": a human review
                        // step) goes into the design taken.
                        if let Some(requirement) = choice_requirement(text) {
                            self.add_stated_criterion(&requirement, env);
                            let built = revise_chosen(&self.d.designs, &requirement, i, self.c.lang);
                            if !built.changes.is_empty() && built.designs != self.d.designs {
                                self.d.designs = built.designs;
                                self.c.notice(built.changes.join(" "), env.now);
                            }
                        }
                        self.take_delivery_along(text, env);
                        self.choose(i, env, fx)
                    }
                    None => {
                        self.d.fire(Transition::UserSatisfied);
                        self.drive(env, fx);
                    }
                }
                return;
            }
            Reading::Feedback(about) => self.d.focus = about,
            Reading::Unclear => {}
        }
        for (key, value) in preferences_in(text, self.c.lang) {
            self.d.memory.prefer(key, value);
        }
        // With no model to redesign, a round that would change nothing is not spent: "다 별로예요"
        // (nothing the rules can revise from) asks what to change, and "skip the human review"
        // where no design has one says so.
        // "3번으로 하되 검증 단계는 빼 주세요": the change is made, then that design is taken; "ok go
        // with that, but it must run on our own server" right after a question about one design:
        // that design.
        // "actually make it every Monday instead": the goal says the new schedule, and a schedule
        // alone changes no design, so no round is spent on it.
        // "5개 말고 3개만", "only 3": the same for how many the goal asks for (and a criterion that
        // said the old count).
        // Both in one message ("every Monday, and only 3") change both.
        let rescheduled = self.d.contract.as_ref().and_then(|c| reschedule(&c.goal, text));
        let recounted = self.d.contract.as_ref().and_then(|c| recount(rescheduled.as_deref().unwrap_or(&c.goal), text));
        if let Some(goal) = recounted.clone().or(rescheduled.clone()) {
            let lang = self.c.lang;
            if let Some(contract) = self.d.contract.as_mut() {
                contract.goal = goal.clone();
                if recounted.is_some() {
                    for criterion in contract.criteria.iter_mut() {
                        if let Some(new) = recount(criterion, text) {
                            *criterion = new;
                        }
                    }
                }
            }
            self.d.memory.restate(goal_key(lang), &goal);
            let alone =
                (rescheduled.is_some() && only_reschedules(text)) || (recounted.is_some() && only_recounts(text));
            let what = match (rescheduled.is_some(), recounted.is_some(), lang) {
                (true, true, Lang::Ko) => "일정과 개수",
                (true, false, Lang::Ko) => "일정",
                (false, _, Lang::Ko) => "개수",
                (true, true, Lang::En) => "schedule and count",
                (true, false, Lang::En) => "schedule",
                (false, _, Lang::En) => "count",
            };
            let t = match (lang, alone) {
                (Lang::Ko, true) => format!(
                    "목표의 {what}을 바꿨습니다: {goal}. {what}만 바뀌어 설계안은 그대로입니다. 마음에 드는 설계안을 고르거나, 바꾸고 싶은 점을 말씀해 주세요."
                ),
                (Lang::Ko, false) => format!("목표의 {what}을 바꿨습니다: {goal}."),
                (Lang::En, true) => format!(
                    "Changed the {what} in the goal: {goal}. Only the {what} changed, so the designs stay as they are. \
                     Pick a design, or tell me what to change."
                ),
                (Lang::En, false) => format!("Changed the {what} in the goal: {goal}."),
            };
            self.c.notice(t, env.now);
            if alone {
                return;
            }
        }
        let picked = match reading {
            Reading::Feedback(Some(i)) => Some(i),
            Reading::Feedback(None) if refers_back(text) => focus_before,
            _ => None,
        }
        .filter(|&i| i < self.d.designs.len() && picks_with_change(text));
        // "…, but it must run on our own server": what the plan is held to.
        let requirement = picked.and(choice_requirement(text));
        if let Some(requirement) = &requirement {
            self.add_stated_criterion(requirement, env);
        }
        if !env.has(Endpoint::Primary) {
            // "1번이랑 2번 섞어서 해 주세요": which parts of each, the rules cannot guess.
            let combined = combined(text, &briefs(&self.d.designs));
            if !combined.is_empty() {
                let numbers: Vec<String> = combined.iter().map(|i| (i + 1).to_string()).collect();
                let t = match self.c.lang {
                    Lang::Ko => format!(
                        "{}번을 어떻게 합칠지 규칙만으로는 정할 수 없어요. 한 설계안을 바탕으로 무엇을 더하거나 뺄지 말씀해 주세요. \
                         예: \"{}번에 검증 단계를 더해 주세요\", \"{}번은 작은 모델로 바꿔 주세요\".",
                        numbers.join("번과 "),
                        numbers[0],
                        numbers[numbers.len() - 1]
                    ),
                    Lang::En => format!(
                        "Without a model I can't tell which parts of {} to combine. Take one design and say what to add or drop, \
                         for example \"add a validation step to {}\" or \"use small models in {}\".",
                        numbers.join(" and "),
                        numbers[0],
                        numbers[numbers.len() - 1]
                    ),
                };
                self.c.notice(t, env.now);
                return;
            }
            match (rules_read(&self.d.designs, text, self.c.lang), picked) {
                // What the rules cannot change, or need not, is no round: the design is taken.
                (RuleReading::Nothing, Some(i)) if requirement.is_some() => return self.choose(i, env, fx),
                (RuleReading::Unchanged(said), Some(i)) => {
                    self.c.notice(said.join(" "), env.now);
                    return self.choose(i, env, fx);
                }
                (RuleReading::Nothing, _) if turns_down(text) => {
                    let t = self.c.lang.pick(
                        "어떤 점이 마음에 들지 않으세요? 예를 들어 \"비용을 줄여 주세요\", \"검증 단계를 넣어 주세요\", \
                         \"더 단순하게 해 주세요\", \"결과는 표로 주세요\"처럼 말씀해 주시면 그대로 고칩니다.",
                        "What don't you like about them? Say, for example, \"make it cheaper\", \"add a validation step\", \
                         \"make it simpler\" or \"the result as a table\", and I will revise them for it.",
                    );
                    self.c.notice(t, env.now);
                    return;
                }
                (RuleReading::Unchanged(said), None) => {
                    self.c.notice(said.join(" "), env.now);
                    return;
                }
                _ => {}
            }
        }
        if self.d.machine.force_decision_mode() {
            self.ask_for_decision(env);
            return;
        }
        // "it's good if every new bug is listed": what a good result is joins the contract. "슬랙
        // 메시지로 알려 주면 좋겠어요" (I'd like it by a Slack message) says where it goes, below.
        let delivery = parse_format(text).is_some() || new_destination(text).is_some();
        if let Some(criterion) = stated_criterion(text).filter(|_| !delivery) {
            self.add_stated_criterion(&criterion, env);
        }
        // "비용은 한 달에 5만원 이하였으면 해요", "keep it under $50 a month": a limit the plan is held to.
        for limit in limits_in(text) {
            self.add_stated_criterion(&limit, env);
        }
        // "make it JSON instead": the output the designs are refined to is the contract's
        // format too, so the plan and the panes say what the user asked for.
        if let Some(format) = parse_format(text) {
            self.change_format(format);
        }
        // "노션 페이지로 바꿔 주세요": the goal says where the result goes now.
        if let Some(tool) = new_destination(text) {
            self.change_destination(&tool);
        }
        self.d.take_after_refine = picked.map(|i| {
            self.d.focus = Some(i);
            (i, self.d.designs[i].name.clone())
        });
        self.d.feedback = Some(text.to_string());
        self.d.fire(Transition::FeedbackReceived);
        self.drive(env, fx);
    }

    /// "2번으로 하고 슬랙으로 보내 주세요": a choice that says where the result goes, or in what
    /// form, takes that along: the designs, the contract and the memory say it before the plan
    /// is written, and the user is told.
    fn take_delivery_along(&mut self, text: &str, env: &Env) {
        let delivery = revise_delivery(&self.d.designs, text, self.c.lang);
        if delivery.designs == self.d.designs {
            return;
        }
        if let Some(format) = parse_format(text) {
            self.change_format(format);
        }
        if let Some(tool) = new_destination(text) {
            self.change_destination(&tool);
        }
        self.d.designs = delivery.designs;
        self.c.notice(delivery.changes.join(" "), env.now);
    }

    /// Sets the contract's format (and the gate's slot and the agreed format in memory) to
    /// `format`, asked for in feedback.
    fn change_format(&mut self, format: Format) {
        let lang = self.c.lang;
        let label = format.label(lang);
        let Some(contract) = self.d.contract.as_mut() else { return };
        if contract.format != label {
            // "…마크다운으로 정리하기" says the new form too: "…표로 정리하기".
            if let Some(goal) = reformat(&contract.goal, &contract.format, format, lang) {
                contract.goal = goal;
                self.d.memory.restate(goal_key(lang), &contract.goal);
            }
            contract.format = label.to_string();
            self.d.memory.restate(format_key(self.c.lang), label);
            self.sync_gate_from_contract();
        }
    }

    /// Renames, in the contract's goal (and the agreed goal in memory), the tool the result
    /// went to as `tool`, named as the new destination in feedback.
    fn change_destination(&mut self, tool: &str) {
        let Some(contract) = self.d.contract.as_mut() else { return };
        if let Some(goal) = retarget(&contract.goal, tool) {
            contract.goal = goal;
            self.d.memory.restate(goal_key(self.c.lang), &contract.goal);
        }
    }

    /// Adds a criterion the user stated to the contract, and says so.
    fn add_stated_criterion(&mut self, criterion: &str, env: &Env) {
        let Some(contract) = self.d.contract.as_mut() else { return };
        if add_criterion(contract, criterion) {
            let note = match self.c.lang {
                Lang::Ko => format!("수용 기준에 더했습니다: {criterion}"),
                Lang::En => format!("Added to the acceptance criteria: {criterion}"),
            };
            self.c.notice(note, env.now);
        }
    }

    // ---- the driver ----

    /// Advances the discussion as far as it can go without the user or a pending call.
    pub(crate) fn drive(&mut self, env: &Env, fx: &mut Fx) {
        // Each pass either makes progress or stops; the bound only guards against an
        // engine bug turning into a hang.
        for _ in 0..64 {
            if self.c.is_busy() || self.c.halted {
                return;
            }
            let progressed = match self.d.stage() {
                Stage::Understand => self.drive_understand(env, fx),
                Stage::Design => self.drive_design(env, fx),
                Stage::Present => self.drive_present(env, fx),
                Stage::Debate => self.drive_debate(env, fx),
                Stage::Refine => self.drive_refine(env, fx),
                Stage::Confirm => self.drive_confirm(env),
                Stage::Plan => self.drive_plan(env, fx),
            };
            if !progressed {
                return;
            }
        }
    }
}

/// The question used for a slot at the re-ask limit: choose, or take the default.
pub(crate) fn limit_question(slot: &str, lang: Lang) -> String {
    match lang {
        Lang::Ko => format!("{} 아래에서 고르거나 기본값을 선택해 주세요.", with_object(&slot_label(slot, lang))),
        Lang::En => format!("Choose a {} below, or take the default.", slot_label(slot, lang)),
    }
}

/// The memory's key for the agreed output format: the line the analysis records and a
/// format asked for while refining restates.
pub(crate) fn format_key(lang: Lang) -> &'static str {
    lang.pick("형식", "Format")
}

/// The memory's key for the agreed goal: the line the analysis records and a new destination
/// asked for while refining restates.
pub(crate) fn goal_key(lang: Lang) -> &'static str {
    lang.pick("목표", "Goal")
}
