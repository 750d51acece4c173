//! The discussion mode end to end: UNDERSTAND (contract + slot gate) → DESIGN →
//! PRESENT (with critiques) → DEBATE ⇄ REFINE → CONFIRM → PLAN.
//!
//! The flow is data-driven: after every event, `drive` looks at the stage and at which
//! artifacts exist, and either produces the next one (heuristic twin, synchronously),
//! starts the LLM calls for it (and waits), or waits for the user.

use serde::{Deserialize, Serialize};

use super::call::{FailureKind, LlmFailure, LlmOutcome, LlmRole, Purpose};
use super::contract::{
    adjust_confidence, analysis_prompt, criteria_in, field_question, heuristic_analysis, parse_analysis, same_question,
    AnalysisInput, Answered, Confidence, Contract, Field,
};
use super::critique::{critique_prompt, heuristic_critique, parse_critique};
use super::design::{
    designs_prompt, estimate_complexity, fallback_designs, parse_designs, refine_heuristic, refine_prompt,
    settle_recommendation, Complexity, DesignProposal,
};
use super::gate::{
    lunch_recommendation, parse_question, question_prompt, slot_label, slot_options, slot_question, worker_prompt,
    ConversationState, GateDecision, GateStatus, Intent, SlotKind, SlotValue,
};
use super::grounding::{Grounding, MEMORY_MAX_CHARS};
use super::lang::{clip, Lang};
use super::memory::{preferences_in, Memory};
use super::plan::{heuristic_plan, plan_prompt, Plan};
use super::security::{sanitize, screen};
use super::session::{Body, CardKind, Effect, Env, Event, Question, Reviewed, Role, Session, Target};
use super::signals::{is_satisfied, parse_choice};
use super::slots::{is_cancel, parse_format};
use super::source::{HeuristicWhy, Source};
use super::state_machine::{Stage, StateMachine, Transition};

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
    /// The latest message from the user, for prompts.
    pub latest_user: String,
    /// The lunch worker has answered.
    pub worker_done: bool,
    /// Stopped by the user: nothing new starts until Retry, SkipLlm or a new message.
    pub halted: bool,
    /// The latest step a failure handed to a heuristic, for Retry.
    pub last_fallback: Option<Purpose>,
    /// Why heuristics run in the current step.
    #[serde(skip, default = "no_llm")]
    heuristic_why: HeuristicWhy,
}

fn no_llm() -> HeuristicWhy {
    HeuristicWhy::NoLlm
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
            latest_user: String::new(),
            worker_done: false,
            halted: false,
            last_fallback: None,
            heuristic_why: HeuristicWhy::NoLlm,
        }
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.machine.stage()
    }

    /// Index of the recommended design.
    pub fn recommended(&self) -> Option<usize> {
        self.designs.iter().position(|d| d.recommended)
    }

    fn heuristic(&self) -> Source {
        Source::Heuristic(self.heuristic_why.clone())
    }

    fn fire(&mut self, t: Transition) {
        // Transitions are only fired where the stage allows them; a refusal here would
        // be an engine bug, and the machine leaves the stage unchanged in that case.
        let _ = self.machine.fire(t);
    }
}

impl Session {
    pub(crate) fn discussion_step(&mut self, event: Event, env: &Env, fx: &mut Vec<Effect>) {
        self.discussion.heuristic_why = HeuristicWhy::NoLlm;
        match event {
            Event::UserMessage { text } => self.on_user_message(&text, env, fx),
            Event::Answer { card, answers } => self.on_answer(card, answers, env, fx),
            Event::ChooseDesign { index } => self.on_choose_design(index, env, fx),
            Event::LlmResult { call, outcome } => self.on_llm_result(call, outcome, env, fx),
            Event::Stop { partials } => self.on_stop(partials, env, fx),
            Event::Retry { purpose } => self.on_retry(purpose, env, fx),
            Event::SkipLlm => {
                if self.discussion.halted {
                    self.discussion.halted = false;
                    self.discussion.heuristic_why = HeuristicWhy::Stopped;
                    let offline = Env::offline(env.now);
                    self.drive(&offline, fx);
                }
            }
            Event::Restart => self.on_restart(env, fx),
            Event::Resume => self.on_resume(env, fx),
            // Handled by `Session::step` for every mode.
            Event::Settings { .. } => {}
        }
    }

    // ---- events ----

    fn on_user_message(&mut self, raw: &str, env: &Env, fx: &mut Vec<Effect>) {
        let clean = sanitize(raw);
        if clean.text.is_empty() {
            return;
        }
        if self.is_busy() {
            let text = self.lang.pick(
                "아직 이전 단계를 처리하는 중입니다. 끝날 때까지 기다리거나 중지를 누르세요.",
                "Still working on the previous step. Wait for it, or press Stop.",
            );
            self.notice(text, env.now);
            return;
        }
        let text = clean.text;
        let screening = screen(&text);
        self.push(Role::User, Body::Text { text: text.clone(), source: None }, env.now);
        if screening.blocked() {
            self.say(Body::SecurityWarning { findings: screening.findings }, env.now);
            return;
        }
        if clean.truncated {
            let note = self.lang.pick(
                "메시지가 너무 길어 앞부분만 사용합니다.",
                "The message was too long; only its beginning is used.",
            );
            self.notice(note, env.now);
        }
        self.discussion.halted = false;
        self.discussion.latest_user = text.clone();

        match self.discussion.stage() {
            Stage::Understand => self.on_understand_message(&text, env, fx),
            Stage::Debate => self.on_feedback(&text, env, fx),
            Stage::Confirm => {
                let names: Vec<&str> = self.discussion.designs.iter().map(|d| d.name.as_str()).collect();
                match parse_choice(&text, &names, self.discussion.recommended()) {
                    Some(index) => self.choose(index, env, fx),
                    None => {
                        let t = self
                            .lang
                            .pick("어느 설계안으로 할지 카드에서 골라 주세요.", "Please pick a design on the card.");
                        self.notice(t, env.now);
                    }
                }
            }
            Stage::Plan => {
                let t = self.lang.pick(
                    "계획이 완성되었습니다. 새 요청을 논의하려면 '다시 시작'을 누르세요.",
                    "The plan is done. Press Restart to discuss a new request.",
                );
                self.notice(t, env.now);
            }
            // The remaining stages advance without user input; a message arriving while
            // they wait (after Stop) is kept as feedback and the step is resumed.
            Stage::Design | Stage::Present | Stage::Refine => {
                let note = format!("{}: {}", self.lang.pick("사용자 메모", "User note"), clip(&text, 200));
                self.discussion.memory.agree(note);
                self.drive(env, fx);
            }
        }
    }

    fn on_understand_message(&mut self, text: &str, env: &Env, fx: &mut Vec<Effect>) {
        let collecting = self.discussion.gate.as_ref().is_some_and(|g| g.status == GateStatus::Collecting);
        if collecting && is_cancel(text) {
            self.cancel_request(env);
            return;
        }
        let lunch_done = self.discussion.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation)
            && self.discussion.worker_done;
        if !collecting || lunch_done {
            if is_cancel(text) {
                let t = self.lang.pick(
                    "취소할 요청이 없습니다. 무엇을 도와드릴까요?",
                    "There is no request to cancel. What would you like to do?",
                );
                self.notice(t, env.now);
                return;
            }
            self.start_request(text, env, fx);
            return;
        }
        // A message while collecting answers the open card (or the gate directly).
        if let Some(card) = self.open_card().cloned() {
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

    fn start_request(&mut self, text: &str, env: &Env, fx: &mut Vec<Effect>) {
        let max_rounds = self.settings.max_rounds;
        let history_kept = std::mem::replace(&mut self.discussion, Discussion::new(max_rounds));
        // A new request after a finished lunch answer keeps the machine's history.
        self.discussion.machine = history_kept.machine;
        self.discussion.machine.set_max_rounds(self.settings.max_rounds);
        self.lang = Lang::detect(text);
        if self.title.is_empty() {
            self.title = clip(text, 48);
        }
        let intent = Intent::classify(text);
        let mut gate = ConversationState::for_intent(intent, self.lang);
        if intent == Intent::LunchRecommendation {
            let extraction = gate.extract(text);
            for r in extraction.rejected {
                self.notice(r.error.message(self.lang), env.now);
            }
        }
        self.discussion.request = Some(text.to_string());
        self.discussion.latest_user = text.to_string();
        self.discussion.expected = estimate_complexity(text);
        self.discussion.analysis_due = intent == Intent::DiscussionRequest;
        self.discussion.gate = Some(gate);
        self.drive(env, fx);
    }

    fn cancel_request(&mut self, env: &Env) {
        if let Some(card) = self.open_card().map(|c| c.id) {
            self.close_card(card, Vec::new());
        }
        let machine = self.discussion.machine.clone();
        self.discussion = Discussion::new(self.settings.max_rounds);
        self.discussion.machine = machine;
        self.discussion.machine.set_max_rounds(self.settings.max_rounds);
        let t = self.lang.pick(
            "요청을 취소했습니다. 새로 하고 싶은 일을 알려 주세요.",
            "Cancelled. Tell me what you would like to do instead.",
        );
        self.notice(t, env.now);
    }

    fn on_answer(&mut self, card: u32, answers: Vec<String>, env: &Env, fx: &mut Vec<Effect>) {
        if self.is_busy() {
            return;
        }
        let answers: Vec<String> = answers.into_iter().map(|a| sanitize(&a).text).collect();
        if let Some(blocked) = answers.iter().map(|a| screen(a)).find(|s| s.blocked()) {
            self.say(Body::SecurityWarning { findings: blocked.findings }, env.now);
            return;
        }
        let shown: Vec<String> = answers.iter().filter(|a| !a.is_empty()).cloned().collect();
        if !shown.is_empty() {
            self.discussion.latest_user = shown.join("\n");
        }
        self.answer_card(card, answers, None, env, fx);
    }

    /// Applies a card's answers. `typed` is the composer text when the answer came from
    /// there (it is already in the transcript); card answers are echoed as a user message.
    fn answer_card(
        &mut self,
        card_id: u32,
        answers: Vec<String>,
        typed: Option<&str>,
        env: &Env,
        fx: &mut Vec<Effect>,
    ) {
        let Some((kind, questions)) = self.close_card(card_id, answers.clone()) else {
            return;
        };
        self.discussion.halted = false;
        if typed.is_none() {
            let echo: Vec<String> = answers.iter().filter(|a| !a.trim().is_empty()).cloned().collect();
            if !echo.is_empty() {
                self.push(Role::User, Body::Text { text: echo.join("\n"), source: None }, env.now);
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
                    let filled = self.discussion.gate.as_ref().is_some_and(|g| g.is_required_filled());
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
                let names: Vec<&str> = self.discussion.designs.iter().map(|d| d.name.as_str()).collect();
                let index = questions
                    .first()
                    .and_then(|q| q.options.iter().position(|o| *o == answer))
                    .or_else(|| parse_choice(&answer, &names, self.discussion.recommended()));
                match index {
                    Some(i) => self.choose(i, env, fx),
                    None => {
                        let t = self.lang.pick(
                            "설계안을 알아보지 못했습니다. 카드에서 하나를 골라 주세요.",
                            "I could not tell which design you meant. Please pick one on the card.",
                        );
                        self.notice(t, env.now);
                        self.post_choose_card(env);
                    }
                }
            }
        }
    }

    fn on_choose_design(&mut self, index: usize, env: &Env, fx: &mut Vec<Effect>) {
        if self.is_busy() || index >= self.discussion.designs.len() {
            return;
        }
        match self.discussion.stage() {
            Stage::Debate | Stage::Confirm => {
                if let Some(card) = self.open_card().filter(|c| c.kind == CardKind::ChooseDesign).map(|c| c.id) {
                    let name = self.discussion.designs[index].name.clone();
                    self.close_card(card, vec![name]);
                }
                let name = self.discussion.designs[index].name.clone();
                let t = match self.lang {
                    Lang::Ko => format!("{name}(으)로 하겠습니다."),
                    Lang::En => format!("Let's go with {name}."),
                };
                self.push(Role::User, Body::Text { text: t, source: None }, env.now);
                self.choose(index, env, fx);
            }
            _ => {}
        }
    }

    /// Settles on a design: DEBATE → CONFIRM → PLAN at once.
    fn choose(&mut self, index: usize, env: &Env, fx: &mut Vec<Effect>) {
        if index >= self.discussion.designs.len() {
            return;
        }
        if let Some(card) = self.open_card().filter(|c| c.kind == CardKind::ChooseDesign).map(|c| c.id) {
            let name = self.discussion.designs[index].name.clone();
            self.close_card(card, vec![name]);
        }
        self.discussion.selected = Some(index);
        if self.discussion.stage() == Stage::Debate {
            self.discussion.fire(Transition::UserSatisfied);
        }
        self.drive(env, fx);
    }

    fn on_feedback(&mut self, text: &str, env: &Env, fx: &mut Vec<Effect>) {
        let names: Vec<&str> = self.discussion.designs.iter().map(|d| d.name.as_str()).collect();
        let choice = parse_choice(text, &names, self.discussion.recommended());
        let only_a_choice = choice.is_some() && is_bare_choice(text);
        if is_satisfied(text) || only_a_choice {
            let index = choice.or(if self.discussion.designs.len() == 1 { Some(0) } else { None });
            let note = format!("{}: {}", self.lang.pick("사용자 만족", "User satisfied"), clip(text, 120));
            self.discussion.memory.agree(note);
            match index {
                Some(i) => self.choose(i, env, fx),
                None => {
                    self.discussion.fire(Transition::UserSatisfied);
                    self.drive(env, fx);
                }
            }
            return;
        }
        if self.discussion.machine.force_decision_mode() {
            self.ask_for_decision(env);
            return;
        }
        for (key, value) in preferences_in(text, self.lang) {
            self.discussion.memory.prefer(key, value);
        }
        self.discussion.feedback = Some(text.to_string());
        self.discussion.fire(Transition::FeedbackReceived);
        self.drive(env, fx);
    }

    fn on_llm_result(&mut self, call: u32, outcome: LlmOutcome, env: &Env, fx: &mut Vec<Effect>) {
        let Some(pending) = self.settle(call, &outcome, env.now) else {
            return;
        };
        let purpose = pending.purpose;
        let (text, source, failure) = match outcome {
            LlmOutcome::Ok { text, model, .. } => (text, Source::Llm { model }, None),
            LlmOutcome::Failed(f) => {
                (String::new(), Source::Heuristic(HeuristicWhy::CallFailed { kind: f.kind }), Some(f))
            }
        };
        match purpose {
            Purpose::Contract => self.finish_contract(&text, source, failure, env),
            Purpose::Question => self.finish_question(&text, failure, env),
            Purpose::Worker => self.finish_worker(call, &text, source, failure, env),
            Purpose::Designs => self.finish_designs(&text, source, failure, env),
            Purpose::Critique { design } => self.finish_critique(design, &text, source, failure, env),
            Purpose::Refine => self.finish_refine(&text, source, failure, env),
            Purpose::Plan => self.finish_plan(call, &text, source, failure, env),
        }
        self.drive(env, fx);
    }

    fn on_stop(&mut self, partials: Vec<(u32, String)>, env: &Env, fx: &mut Vec<Effect>) {
        let t = self.lang.pick(
            "중지했습니다. 받은 내용은 그대로 두었습니다. '다시 시도'로 이어서 하거나 'LLM 없이 계속'을 고르세요.",
            "Stopped. Whatever arrived is kept. Retry to run the step again, or continue without the LLM.",
        );
        self.halt(partials, t, env, fx);
    }

    fn on_resume(&mut self, env: &Env, fx: &mut Vec<Effect>) {
        let t = self.lang.pick(
            "페이지를 다시 열면서 진행 중이던 LLM 호출이 끊겼습니다. 대화는 그대로입니다. '다시 시도'로 이어서 하거나 'LLM 없이 계속'을 고르세요.",
            "The page was reloaded while an LLM call was running, so that call was lost; the conversation is intact. Retry to run the step again, or continue without the LLM.",
        );
        self.halt(Vec::new(), t, env, fx);
    }

    /// Ends every call in flight, keeps what each streamed, and waits for Retry or
    /// "continue without the LLM". Does nothing when no call is in flight.
    fn halt(&mut self, partials: Vec<(u32, String)>, notice: &str, env: &Env, fx: &mut Vec<Effect>) {
        let cancelled = self.cancel_all(fx);
        if cancelled.is_empty() {
            return;
        }
        for p in &cancelled {
            let partial =
                partials.iter().find(|(c, _)| *c == p.call).map(|(_, t)| t.trim().to_string()).unwrap_or_default();
            match self.stream_message(p.call) {
                Some(id) if !partial.is_empty() => {
                    self.replace(id, Body::Text { text: partial, source: Some(Source::Llm { model: String::new() }) })
                }
                _ => self.drop_stream_message(p.call),
            }
        }
        self.discussion.halted = true;
        self.notice(notice, env.now);
    }

    fn on_retry(&mut self, purpose: Option<Purpose>, env: &Env, fx: &mut Vec<Effect>) {
        if self.is_busy() {
            return;
        }
        if self.discussion.halted && purpose.is_none() {
            self.discussion.halted = false;
            self.drive(env, fx);
            return;
        }
        let Some(purpose) = purpose.or(self.discussion.last_fallback) else {
            return;
        };
        if !self.can_retry(purpose) {
            let t =
                self.lang.pick("다시 시도할 단계가 지나갔습니다.", "That step is already behind us; nothing to retry.");
            self.notice(t, env.now);
            return;
        }
        let d = &mut self.discussion;
        d.halted = false;
        if d.last_fallback == Some(purpose) {
            d.last_fallback = None;
        }
        match purpose {
            Purpose::Contract => d.analysis_due = true,
            Purpose::Question => {}
            Purpose::Worker => d.worker_done = false,
            Purpose::Designs => {
                d.designs.clear();
                d.critiques.clear();
                d.presented = false;
            }
            Purpose::Critique { design } => {
                d.critiques[design] = None;
                d.presented = false;
            }
            Purpose::Refine => d.redo_refine = true,
            Purpose::Plan => d.plan = None,
        }
        if let Some(card) = self.open_card().filter(|c| c.kind == CardKind::Clarify).map(|c| c.id) {
            self.close_card(card, Vec::new());
        }
        self.drive(env, fx);
    }

    /// True when the step a purpose names can still be redone: the session is at that
    /// step and its current artifact is a heuristic stand-in (or an interrupted plan).
    pub fn can_retry(&self, purpose: Purpose) -> bool {
        let d = &self.discussion;
        let stood_in =
            |source: Option<&Source>| matches!(source, Some(Source::Heuristic(why)) if *why != HeuristicWhy::NoLlm);
        let collecting = d.gate.as_ref().is_some_and(|g| g.status == GateStatus::Collecting);
        match (purpose, d.stage()) {
            (Purpose::Contract, Stage::Understand) => collecting && stood_in(d.contract_source.as_ref()),
            (Purpose::Question, Stage::Understand) => collecting,
            (Purpose::Worker, Stage::Understand) => d.worker_done,
            (Purpose::Designs, Stage::Debate) => d.machine.round() == 0 && stood_in(d.designs_source.as_ref()),
            (Purpose::Refine, Stage::Debate) => {
                d.machine.round() > 0 && d.pre_refine.is_some() && stood_in(d.designs_source.as_ref())
            }
            (Purpose::Critique { design }, Stage::Debate) => {
                d.critiques.get(design).and_then(|c| c.as_ref()).is_some_and(|r| stood_in(Some(&r.source)))
            }
            (Purpose::Plan, Stage::Plan) => d.plan.as_ref().is_some_and(|p| p.interrupted || stood_in(Some(&p.source))),
            _ => false,
        }
    }

    fn on_restart(&mut self, env: &Env, fx: &mut Vec<Effect>) {
        self.cancel_all(fx);
        for id in
            self.messages.iter().filter(|m| matches!(m.body, Body::Streaming { .. })).map(|m| m.id).collect::<Vec<_>>()
        {
            self.messages.retain(|m| m.id != id);
        }
        if let Some(card) = self.open_card().map(|c| c.id) {
            self.close_card(card, Vec::new());
        }
        let mut machine = self.discussion.machine.clone();
        machine.fire(Transition::Restart).ok();
        self.discussion = Discussion::new(self.settings.max_rounds);
        self.discussion.machine = machine;
        self.discussion.machine.set_max_rounds(self.settings.max_rounds);
        let t = self.lang.pick(
            "처음부터 다시 시작합니다. 새 요청을 한 줄로 알려 주세요.",
            "Starting over. Tell me the new request in one line.",
        );
        self.notice(t, env.now);
    }

    // ---- the driver ----

    /// Advances the discussion as far as it can go without the user or a pending call.
    fn drive(&mut self, env: &Env, fx: &mut Vec<Effect>) {
        // Each pass either makes progress or stops; the bound only guards against an
        // engine bug turning into a hang.
        for _ in 0..64 {
            if self.is_busy() || self.discussion.halted {
                return;
            }
            let progressed = match self.discussion.stage() {
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

    fn grounding(&self) -> Grounding {
        let contract = self.discussion.contract.clone().unwrap_or_else(|| Contract {
            original_request: self.discussion.request.clone().unwrap_or_default(),
            ..Contract::default()
        });
        Grounding {
            contract: contract.format_for_prompt(),
            memory: self.discussion.memory.context_for_llm(MEMORY_MAX_CHARS),
            latest_user: self.discussion.latest_user.clone(),
            lang: self.lang,
        }
    }

    // ---- UNDERSTAND ----

    fn drive_understand(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        let Some(gate) = self.discussion.gate.as_ref() else {
            return false;
        };
        if gate.status == GateStatus::Cancelled {
            return false;
        }
        match gate.intent {
            Intent::DiscussionRequest => self.drive_alignment(env, fx),
            Intent::LunchRecommendation => self.drive_lunch(env, fx),
        }
    }

    fn analysis_input_owned(&self) -> (String, Option<Contract>, Vec<Answered>) {
        let request = self.discussion.request.clone().unwrap_or_default();
        let previous = self.discussion.contract.clone();
        let answers = previous.as_ref().map(|c| c.answered.clone()).unwrap_or_default();
        (request, previous, answers)
    }

    fn drive_alignment(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        if self.discussion.analysis_due {
            let (request, previous, answers) = self.analysis_input_owned();
            let input = AnalysisInput {
                request: &request,
                prior_chat_summary: None,
                mode: "discussion",
                previous: previous.as_ref(),
                answers: &answers,
                lang: self.lang,
            };
            let prompt = analysis_prompt(&input);
            if self.launch(LlmRole::Designer, vec![(Purpose::Contract, prompt, false)], env, fx) {
                return false;
            }
            let contract = heuristic_analysis(&input);
            let source = self.discussion.heuristic();
            self.apply_contract(contract, source);
            return true;
        }
        if self.open_card().is_some() {
            return false;
        }
        self.check_gate(env)
    }

    fn apply_contract(&mut self, mut contract: Contract, source: Source) {
        let d = &mut self.discussion;
        // Answers given earlier stay, whatever the analyzer returned.
        if let Some(previous) = &d.contract {
            for qa in &previous.answered {
                if !contract.answered.iter().any(|x| same_question(&x.q, &qa.q)) {
                    contract.answered.push(qa.clone());
                }
            }
        }
        contract.open_questions.retain(|q| !contract.answered.iter().any(|qa| same_question(q, &qa.q)));
        d.memory.open_questions = contract.open_questions.clone();
        d.contract = Some(contract);
        d.contract_source = Some(source);
        d.analysis_due = false;
        self.sync_gate_from_contract();
    }

    fn sync_gate_from_contract(&mut self) {
        let d = &mut self.discussion;
        let (Some(contract), Some(gate)) = (&d.contract, &mut d.gate) else {
            return;
        };
        if gate.intent != Intent::DiscussionRequest {
            return;
        }
        // Contract fields are the discussion intent's slots; values come from analysis and
        // answers, which the parsers and validation already went through.
        for (slot, value) in [("goal", &contract.goal), ("format", &contract.format)] {
            if !value.trim().is_empty() {
                let _ = gate.set(slot, SlotValue::Text(value.trim().to_string()));
            }
        }
    }

    /// The gate rule, then the alignment round limit.
    fn check_gate(&mut self, env: &Env) -> bool {
        let Some(contract) = self.discussion.contract.clone() else {
            return false;
        };
        let filled = self.discussion.gate.as_ref().is_some_and(|g| g.is_required_filled());
        let decisive = contract.confidence == Confidence::Low
            && !contract.open_questions.is_empty()
            && !self.discussion.decisive_asked;
        if filled && !decisive {
            self.complete_understand(env);
            return true;
        }
        if self.discussion.alignment_round >= self.settings.alignment_limit() {
            return self.at_alignment_limit(env);
        }
        if filled {
            self.discussion.decisive_asked = true;
        }
        if self.ask_round(env) {
            false
        } else {
            // Everything worth asking was asked already: treat as the limit.
            self.at_alignment_limit(env)
        }
    }

    fn complete_understand(&mut self, env: &Env) {
        let lang = self.lang;
        if let Some(gate) = self.discussion.gate.as_mut() {
            gate.decide();
            gate.status = GateStatus::Completed;
        }
        let Some(contract) = self.discussion.contract.clone() else {
            return;
        };
        let d = &mut self.discussion;
        d.memory.agree(format!("{}: {}", lang.pick("목표", "Goal"), contract.goal));
        d.memory.agree(format!("{}: {}", lang.pick("형식", "Format"), contract.format));
        let mut text = match lang {
            Lang::Ko => format!(
                "요청을 이렇게 정리했습니다.\n\n- **목표:** {}\n- **형식:** {}\n",
                contract.goal, contract.format
            ),
            Lang::En => format!(
                "Here is what I understood.\n\n- **Goal:** {}\n- **Format:** {}\n",
                contract.goal, contract.format
            ),
        };
        if !contract.criteria.is_empty() {
            text.push_str(&format!("- **{}:** {}\n", lang.pick("기준", "Criteria"), contract.criteria.join(", ")));
        }
        if !contract.assumptions.is_empty() {
            text.push_str(&format!(
                "- **{}:** {}\n",
                lang.pick("가정", "Assumptions"),
                contract.assumptions.join("; ")
            ));
        }
        text.push('\n');
        text.push_str(lang.pick("이 내용으로 설계안을 만듭니다.", "Drafting designs from this now."));
        let source = d.contract_source.clone();
        d.fire(Transition::RequirementsAnalyzed);
        self.say(Body::Text { text, source }, env.now);
    }

    fn at_alignment_limit(&mut self, env: &Env) -> bool {
        if self.settings.strict {
            if self.open_card().is_none() {
                self.post_assumptions_card(env);
            }
            return false;
        }
        self.proceed_with_assumptions(env);
        true
    }

    fn proceed_option(&self) -> String {
        self.lang.pick("이 가정으로 진행", "Proceed with these assumptions").to_string()
    }

    fn assumptions_for_gaps(&self) -> Vec<(String, String)> {
        let lang = self.lang;
        let mut out = Vec::new();
        if let (Some(gate), Some(contract)) = (&self.discussion.gate, &self.discussion.contract) {
            for slot in gate.missing_required() {
                let value = match slot.as_str() {
                    "goal" => contract.original_request.clone(),
                    _ => gate.defaults.get(&slot).map(|v| v.display(lang)).unwrap_or_default(),
                };
                out.push((slot, value));
            }
        }
        out
    }

    fn post_assumptions_card(&mut self, env: &Env) {
        let lang = self.lang;
        let gaps = self.assumptions_for_gaps();
        let listed: Vec<String> = gaps.iter().map(|(s, v)| format!("{} = {v}", slot_label(s, lang))).collect();
        let text = match lang {
            Lang::Ko => format!("질문 한도에 도달했습니다. 다음 가정으로 진행할까요? {}", listed.join(", ")),
            Lang::En => {
                format!("We have reached the question limit. Proceed on these assumptions? {}", listed.join(", "))
            }
        };
        let options = vec![self.proceed_option()];
        let question = Question { text, options, allow_other: true, target: Target::Proceed };
        self.post_card(CardKind::ConfirmAssumptions, vec![question], self.discussion.heuristic(), env.now);
    }

    fn proceed_with_assumptions(&mut self, env: &Env) {
        let lang = self.lang;
        let gaps = self.assumptions_for_gaps();
        let d = &mut self.discussion;
        if let (Some(gate), Some(contract)) = (d.gate.as_mut(), d.contract.as_mut()) {
            for (slot, value) in &gaps {
                match slot.as_str() {
                    "goal" => contract.goal = value.clone(),
                    "format" => contract.format = value.clone(),
                    _ => {}
                }
                let _ = gate.set(slot, SlotValue::Text(value.clone()));
                gate.approvals.insert(slot.clone(), false);
                contract.assumptions.push(match lang {
                    Lang::Ko => format!("{}: 답을 받지 못해 '{value}'(으)로 가정", slot_label(slot, lang)),
                    Lang::En => format!("{}: not given, assumed '{value}'", slot_label(slot, lang)),
                });
            }
            for q in std::mem::take(&mut contract.open_questions) {
                contract.assumptions.push(match lang {
                    Lang::Ko => format!("미답변: {q}"),
                    Lang::En => format!("Unanswered: {q}"),
                });
            }
        }
        self.complete_understand(env);
    }

    /// Posts the questions of one alignment round. False when nothing new is left to ask.
    fn ask_round(&mut self, env: &Env) -> bool {
        let lang = self.lang;
        let Some(contract) = self.discussion.contract.clone() else {
            return false;
        };
        let Some(gate) = self.discussion.gate.clone() else {
            return false;
        };
        let missing = gate.missing_required();
        let mut questions: Vec<Question> = Vec::new();
        let already_asked = |asked: &[String], text: &str| asked.iter().any(|a| same_question(a, text));

        for q in &contract.open_questions {
            if questions.len() >= super::contract::QUESTIONS_ASKED || already_asked(&self.discussion.asked, q) {
                continue;
            }
            questions.push(self.question_from_text(q));
        }
        for slot in &missing {
            let field = if slot == "goal" { Field::Goal } else { Field::Format };
            if questions.iter().any(|q| q.target == Target::Field(field)) {
                continue;
            }
            let mut attempt = gate.ask_counts.get(slot).copied().unwrap_or(0);
            let question = loop {
                let at_limit = attempt >= super::gate::REASK_LIMIT;
                let text = if at_limit { limit_question(slot, lang) } else { slot_question(slot, attempt, lang) };
                if !already_asked(&self.discussion.asked, &text) {
                    let mut options = slot_options(slot, lang);
                    if slot == "goal" && at_limit {
                        options = vec![self.goal_default_option()];
                    }
                    break Some(Question { text, options, allow_other: true, target: Target::Field(field) });
                }
                if at_limit {
                    break None;
                }
                attempt += 1;
            };
            match question {
                Some(q) => questions.insert(0, q),
                None => {
                    // Every wording was used: take the default instead of asking again.
                    self.default_slot(slot, env);
                }
            }
        }
        questions.truncate(super::contract::QUESTIONS_ASKED);
        if questions.is_empty() {
            return false;
        }
        let d = &mut self.discussion;
        d.alignment_round += 1;
        for q in &questions {
            d.asked.push(q.text.clone());
        }
        let asked_slots: Vec<String> = missing.clone();
        if let Some(g) = d.gate.as_mut() {
            g.mark_asked(&asked_slots);
        }
        let source = d.contract_source.clone().unwrap_or(Source::NO_LLM);
        self.post_card(CardKind::Clarify, questions, source, env.now);
        true
    }

    fn goal_default_option(&self) -> String {
        self.lang.pick("요청 그대로를 목표로", "Use my request as the goal").to_string()
    }

    fn default_slot(&mut self, slot: &str, env: &Env) {
        let value = match slot {
            "goal" => self.discussion.request.clone().unwrap_or_default(),
            _ => self
                .discussion
                .gate
                .as_ref()
                .and_then(|g| g.defaults.get(slot))
                .map(|v| v.display(self.lang))
                .unwrap_or_default(),
        };
        if value.is_empty() {
            return;
        }
        let lang = self.lang;
        if let Some(contract) = self.discussion.contract.as_mut() {
            match slot {
                "goal" => contract.goal = value.clone(),
                "format" => contract.format = value.clone(),
                _ => {}
            }
            contract.assumptions.push(match lang {
                Lang::Ko => format!("{}: 기본값 '{value}' 사용", slot_label(slot, lang)),
                Lang::En => format!("{}: default '{value}' used", slot_label(slot, lang)),
            });
        }
        self.sync_gate_from_contract();
        let t = match lang {
            Lang::Ko => {
                format!("{}은(는) 기본값 '{value}'(으)로 두겠습니다. 나중에 바꿀 수 있어요.", slot_label(slot, lang))
            }
            Lang::En => {
                format!("I will use the default {} '{value}'; you can change it later.", slot_label(slot, lang))
            }
        };
        self.notice(t, env.now);
    }

    /// A card question from an analyzer's question text: heuristic wordings map to their
    /// field; a question about the format gets the format choices.
    fn question_from_text(&self, text: &str) -> Question {
        let lang = self.lang;
        for field in [Field::Goal, Field::Format, Field::Criteria, Field::Context] {
            if same_question(text, field_question(field, lang)) {
                let options = if field == Field::Format { slot_options("format", lang) } else { Vec::new() };
                return Question { text: text.to_string(), options, allow_other: true, target: Target::Field(field) };
            }
        }
        let lower = text.to_ascii_lowercase();
        let about_format = ["format", "형식", "형태"].iter().any(|k| lower.contains(k));
        Question {
            text: text.to_string(),
            options: if about_format { slot_options("format", lang) } else { Vec::new() },
            allow_other: true,
            target: if about_format { Target::Field(Field::Format) } else { Target::Free },
        }
    }

    fn apply_answer(&mut self, question: &Question, answer: &str, env: &Env) {
        let lang = self.lang;
        if let Target::Slot(slot) = &question.target {
            self.apply_slot_answer(slot, answer, env);
            return;
        }
        let lunch = self.discussion.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation);
        if lunch {
            // A question worded for several slots: read every slot the answer mentions.
            self.extract_slots(answer, env);
            return;
        }
        let request = self.discussion.request.clone().unwrap_or_default();
        let goal_default = self.goal_default_option();
        let d = &mut self.discussion;
        let Some(contract) = d.contract.as_mut() else {
            return;
        };
        contract.answered.push(Answered { q: question.text.clone(), a: answer.to_string() });
        contract.open_questions.retain(|q| !same_question(q, &question.text));
        d.memory.resolve(&question.text, answer);
        match question.target {
            Target::Field(Field::Goal) => {
                contract.goal = if answer == goal_default { request } else { answer.to_string() };
            }
            Target::Field(Field::Format) => {
                contract.format =
                    parse_format(answer).map(|f| f.label(lang).to_string()).unwrap_or_else(|| answer.to_string());
            }
            Target::Field(Field::Criteria) => {
                let found = criteria_in(answer, lang);
                if found.is_empty() {
                    contract.criteria.push(clip(answer, 160));
                } else {
                    for c in found {
                        if !contract.criteria.contains(&c) {
                            contract.criteria.push(c);
                        }
                    }
                }
            }
            Target::Field(Field::Context) => contract.context = clip(answer, 300),
            _ => {
                if contract.format.is_empty() {
                    if let Some(f) = parse_format(answer) {
                        contract.format = f.label(lang).to_string();
                    }
                }
            }
        }
        self.sync_gate_from_contract();
    }

    /// Text typed while no card is open, in UNDERSTAND: read it for every field and slot.
    fn apply_free_answer(&mut self, text: &str, env: &Env) {
        let lunch = self.discussion.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation);
        if lunch {
            self.extract_slots(text, env);
            return;
        }
        let lang = self.lang;
        if let Some(contract) = self.discussion.contract.as_mut() {
            if let Some(f) = parse_format(text) {
                contract.format = f.label(lang).to_string();
            }
            if contract.goal.is_empty() {
                contract.goal = super::contract::goal_in(text);
            }
            contract
                .answered
                .push(Answered { q: lang.pick("추가 설명", "Further detail").to_string(), a: text.to_string() });
        }
        self.sync_gate_from_contract();
    }

    /// After answers: all slots filled ⇒ completed with no LLM call (seed 002), the
    /// contract's confidence corrected as seed 003 says; otherwise analyse again.
    fn after_answers(&mut self) {
        let filled = self.discussion.gate.as_ref().is_some_and(|g| g.is_required_filled());
        let lunch = self.discussion.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation);
        if lunch {
            return;
        }
        if let Some(contract) = self.discussion.contract.as_mut() {
            contract.confidence =
                adjust_confidence(contract.confidence, contract.open_questions.len(), contract.answered.len());
        }
        self.discussion.analysis_due = !filled;
    }

    fn finish_contract(&mut self, text: &str, source: Source, failure: Option<LlmFailure>, env: &Env) {
        let (request, previous, answers) = self.analysis_input_owned();
        let input = AnalysisInput {
            request: &request,
            prior_chat_summary: None,
            mode: "discussion",
            previous: previous.as_ref(),
            answers: &answers,
            lang: self.lang,
        };
        let parsed = match &failure {
            Some(_) => Err(String::new()),
            None => parse_analysis(text, &input),
        };
        match parsed {
            Ok(contract) => self.apply_contract(contract, source),
            Err(reason) => {
                // Never slide into guessing: the rules fill what the request states, but
                // confidence stays low and the user is asked, as seed 003's fallback does.
                let mut contract = heuristic_analysis(&input);
                contract.confidence = Confidence::Low;
                let ask = self.lang.pick(
                    "요청을 조금 더 구체적으로 설명해 주시겠어요? (자동 분석이 실패했습니다)",
                    "Could you describe the request in a bit more detail? (the automatic analysis failed)",
                );
                contract.open_questions.insert(0, ask.to_string());
                contract.open_questions.truncate(super::contract::QUESTIONS_ASKED);
                let source = self.fell_back(Purpose::Contract, failure, source, reason, env);
                self.apply_contract(contract, source);
            }
        }
    }

    fn report_failure(&mut self, purpose: Purpose, failure: LlmFailure, env: &Env) {
        self.discussion.last_fallback = Some(purpose);
        self.say(Body::Error { purpose: Some(purpose), failure, fell_back: true }, env.now);
    }

    /// A heuristic stands in for a failed call (`failure`) or an unusable answer
    /// (`reason`): the user is told, Retry is offered, and the heuristic's source returned.
    fn fell_back(
        &mut self,
        purpose: Purpose,
        failure: Option<LlmFailure>,
        source: Source,
        reason: String,
        env: &Env,
    ) -> Source {
        match failure {
            Some(f) => {
                self.report_failure(purpose, f, env);
                source
            }
            None => {
                let failure =
                    LlmFailure { kind: FailureKind::Unusable, detail: reason.clone(), status: None, partial: None };
                self.report_failure(purpose, failure, env);
                Source::Heuristic(HeuristicWhy::Unparseable { reason })
            }
        }
    }

    // ---- the lunch intent ----

    fn drive_lunch(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        if self.discussion.worker_done || self.open_card().is_some() {
            return false;
        }
        let Some(gate) = self.discussion.gate.as_mut() else {
            return false;
        };
        match gate.decide() {
            GateDecision::Complete => {
                let state = gate.clone();
                let prompt = worker_prompt(&state, self.lang);
                if self.launch(LlmRole::Designer, vec![(Purpose::Worker, prompt, true)], env, fx) {
                    return false;
                }
                let text = lunch_recommendation(&state, self.lang);
                let source = self.discussion.heuristic();
                self.discussion.worker_done = true;
                self.say(Body::Text { text, source: Some(source) }, env.now);
                false
            }
            GateDecision::Ask(missing) => {
                // Past the re-ask limit a slot takes its default instead of a new question.
                let mut missing_now = Vec::new();
                for slot in missing {
                    let over = gate.ask_counts.get(&slot).copied().unwrap_or(0) > super::gate::REASK_LIMIT;
                    if over && gate.apply_default(&slot).is_some() {
                        let value = gate.slots.get(&slot).map(|v| v.display(self.lang)).unwrap_or_default();
                        let t = match self.lang {
                            Lang::Ko => {
                                format!("{}은(는) 기본값 {value}(으)로 두겠습니다.", slot_label(&slot, self.lang))
                            }
                            Lang::En => format!("Using the default {}: {value}.", slot_label(&slot, self.lang)),
                        };
                        self.notice(t, env.now);
                        return true;
                    }
                    missing_now.push(slot);
                }
                let at_limit = missing_now.iter().any(|s| gate.reask_limit_reached(s));
                if !at_limit {
                    let prompt = question_prompt(gate, &missing_now, &self.discussion.asked, self.lang);
                    if self.launch(LlmRole::Designer, vec![(Purpose::Question, prompt, false)], env, fx) {
                        return false;
                    }
                }
                let source = self.discussion.heuristic();
                self.post_slot_card(&missing_now, None, source, env);
                false
            }
        }
    }

    /// A card for missing slots: the LLM's wording when given, else templates; at the
    /// re-ask limit, choices plus the default.
    fn post_slot_card(&mut self, missing: &[String], worded: Option<(String, Vec<String>)>, source: Source, env: &Env) {
        let lang = self.lang;
        let Some(gate) = self.discussion.gate.clone() else {
            return;
        };
        let mut questions = Vec::new();
        if let Some((text, options)) =
            worded.filter(|(t, _)| !self.discussion.asked.iter().any(|a| same_question(a, t)))
        {
            let target = if missing.len() == 1 { Target::Slot(missing[0].clone()) } else { Target::Free };
            questions.push(Question { text, options, allow_other: true, target });
        } else {
            for slot in missing {
                let attempt = gate.ask_counts.get(slot).copied().unwrap_or(0);
                let at_limit = gate.reask_limit_reached(slot);
                let mut text =
                    if at_limit { limit_question(slot, lang) } else { slot_question(slot, attempt.min(1), lang) };
                if self.discussion.asked.iter().any(|a| same_question(a, &text)) {
                    text = limit_question(slot, lang);
                }
                let mut options = if at_limit || gate.intent.slot(slot).is_some_and(|s| s.kind == SlotKind::Count) {
                    slot_options(slot, lang)
                } else {
                    Vec::new()
                };
                if at_limit {
                    if let Some(default) = gate.defaults.get(slot) {
                        let label = default.display(lang);
                        if !options.contains(&label) {
                            options.insert(0, label);
                        }
                    }
                }
                questions.push(Question { text, options, allow_other: true, target: Target::Slot(slot.clone()) });
            }
        }
        questions.truncate(super::contract::QUESTIONS_ASKED);
        let d = &mut self.discussion;
        for q in &questions {
            d.asked.push(q.text.clone());
        }
        if let Some(g) = d.gate.as_mut() {
            g.mark_asked(missing);
        }
        self.post_card(CardKind::Clarify, questions, source, env.now);
    }

    fn apply_slot_answer(&mut self, slot: &str, answer: &str, env: &Env) {
        let changed = self.extract_slots(answer, env);
        let Some(gate) = self.discussion.gate.as_mut() else {
            return;
        };
        if changed || gate.slots.contains_key(slot) && !gate.pending_slots.contains(&slot.to_string()) {
            return;
        }
        // A short answer to a place or free-text question is the value itself.
        let kind = gate.intent.slot(slot).map(|s| s.kind);
        let value = match kind {
            Some(SlotKind::Place) | Some(SlotKind::Text) => Some(SlotValue::Text(clip(answer.trim(), 60))),
            Some(SlotKind::Count) => answer.trim().parse::<u32>().ok().map(SlotValue::Count),
            _ => None,
        };
        let lang = self.lang;
        match value.map(|v| gate.set(slot, v)) {
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                let t = e.message(lang);
                self.notice(t, env.now);
            }
            None => {
                let t = match lang {
                    Lang::Ko => format!("'{}'에서 {}을(를) 읽지 못했습니다.", clip(answer, 40), slot_label(slot, lang)),
                    Lang::En => format!("I could not read a {} from '{}'.", slot_label(slot, lang), clip(answer, 40)),
                };
                self.notice(t, env.now);
            }
        }
    }

    /// Reads every slot a message mentions; reports corrections and rejected values.
    fn extract_slots(&mut self, text: &str, env: &Env) -> bool {
        let lang = self.lang;
        let Some(gate) = self.discussion.gate.as_mut() else {
            return false;
        };
        let extraction = gate.extract(text);
        let changed = !extraction.changes.is_empty();
        let mut notes = Vec::new();
        for change in &extraction.changes {
            if let Some(before) = &change.before {
                notes.push(match lang {
                    Lang::Ko => format!(
                        "{}을(를) {} → {}(으)로 고쳤습니다.",
                        slot_label(&change.slot, lang),
                        before.display(lang),
                        change.after.display(lang)
                    ),
                    Lang::En => format!(
                        "Updated {}: {} → {}.",
                        slot_label(&change.slot, lang),
                        before.display(lang),
                        change.after.display(lang)
                    ),
                });
            }
        }
        for r in &extraction.rejected {
            notes.push(r.error.message(lang));
        }
        for n in notes {
            self.notice(n, env.now);
        }
        changed
    }

    fn finish_question(&mut self, text: &str, failure: Option<LlmFailure>, env: &Env) {
        let missing = self.discussion.gate.as_ref().map(|g| g.missing_required()).unwrap_or_default();
        let worded = match &failure {
            None => parse_question(text).ok(),
            Some(_) => None,
        };
        let source = match (&failure, &worded) {
            (Some(f), _) => Source::Heuristic(HeuristicWhy::CallFailed { kind: f.kind }),
            (None, Some(_)) => self
                .calls
                .last()
                .and_then(|c| c.model.clone())
                .map(|model| Source::Llm { model })
                .unwrap_or(Source::NO_LLM),
            (None, None) => Source::Heuristic(HeuristicWhy::Unparseable { reason: "no question in the answer".into() }),
        };
        if let Some(f) = failure {
            self.report_failure(Purpose::Question, f, env);
        }
        if !missing.is_empty() && self.open_card().is_none() {
            self.post_slot_card(&missing, worded, source, env);
        }
    }

    fn finish_worker(&mut self, call: u32, text: &str, source: Source, failure: Option<LlmFailure>, env: &Env) {
        let state = self.discussion.gate.clone();
        let body = match (failure, text.trim().is_empty()) {
            (None, false) => Body::Text { text: text.to_string(), source: Some(source) },
            (failure, _) => {
                let why = match failure {
                    Some(f) => {
                        let kind = f.kind;
                        self.report_failure(Purpose::Worker, f, env);
                        HeuristicWhy::CallFailed { kind }
                    }
                    None => HeuristicWhy::Unparseable { reason: "empty answer".into() },
                };
                let text = state.as_ref().map(|s| lunch_recommendation(s, self.lang)).unwrap_or_default();
                Body::Text { text, source: Some(Source::Heuristic(why)) }
            }
        };
        self.discussion.worker_done = true;
        match self.stream_message(call) {
            Some(id) => self.replace(id, body),
            None => {
                self.say(body, env.now);
            }
        }
    }

    // ---- DESIGN, PRESENT, DEBATE, REFINE ----

    fn drive_design(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        if self.discussion.designs.is_empty() {
            return self.make_designs(env, fx);
        }
        self.discussion.fire(Transition::DesignsGenerated);
        true
    }

    /// Starts the design call, or makes the fallback designs at once.
    fn make_designs(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        let prompt = designs_prompt(&self.grounding());
        if self.launch(LlmRole::Designer, vec![(Purpose::Designs, prompt, false)], env, fx) {
            return false;
        }
        let designs = self.fallback_designs();
        let source = self.discussion.heuristic();
        self.apply_designs(designs, source);
        true
    }

    fn fallback_designs(&self) -> Vec<DesignProposal> {
        let request = self.discussion.request.clone().unwrap_or_default();
        let format = self.discussion.contract.as_ref().map(|c| c.format.clone()).unwrap_or_default();
        fallback_designs(&request, &format, self.lang)
    }

    fn apply_designs(&mut self, mut designs: Vec<DesignProposal>, source: Source) {
        settle_recommendation(&mut designs);
        let d = &mut self.discussion;
        d.critiques = vec![None; designs.len()];
        d.memory.record_designs(d.machine.round(), &designs);
        d.designs = designs;
        d.designs_source = Some(source);
        d.presented = false;
    }

    fn finish_designs(&mut self, text: &str, source: Source, failure: Option<LlmFailure>, env: &Env) {
        let parsed = if failure.is_none() { parse_designs(text) } else { Err(String::new()) };
        match parsed {
            Ok(designs) => self.apply_designs(designs, source),
            Err(reason) => {
                let source = self.fell_back(Purpose::Designs, failure, source, reason, env);
                let designs = self.fallback_designs();
                self.apply_designs(designs, source);
            }
        }
    }

    /// Critiques every design that has none yet: one parallel batch when an LLM critic
    /// is configured, the rule table otherwise.
    fn make_critiques(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        let grounding = self.grounding();
        let missing: Vec<usize> =
            (0..self.discussion.designs.len()).filter(|i| self.discussion.critiques[*i].is_none()).collect();
        let calls = missing
            .iter()
            .map(|i| {
                (Purpose::Critique { design: *i }, critique_prompt(&grounding, &self.discussion.designs[*i]), false)
            })
            .collect();
        if self.launch(LlmRole::Critic, calls, env, fx) {
            return false;
        }
        let source = self.discussion.heuristic();
        for i in missing {
            let critique = heuristic_critique(&self.discussion.designs[i], self.discussion.expected, self.lang);
            self.discussion.critiques[i] = Some(Reviewed { critique, source: source.clone() });
        }
        true
    }

    fn finish_critique(&mut self, design: usize, text: &str, source: Source, failure: Option<LlmFailure>, env: &Env) {
        let Some(proposal) = self.discussion.designs.get(design).cloned() else {
            return;
        };
        let parsed = if failure.is_none() { parse_critique(text, &proposal.name) } else { Err(String::new()) };
        let reviewed = match parsed {
            Ok(critique) => Reviewed { critique, source },
            Err(reason) => {
                let source = self.fell_back(Purpose::Critique { design }, failure, source, reason, env);
                Reviewed { critique: heuristic_critique(&proposal, self.discussion.expected, self.lang), source }
            }
        };
        if let Some(slot) = self.discussion.critiques.get_mut(design) {
            *slot = Some(reviewed);
        }
    }

    /// Shows the current designs and their critiques.
    fn present(&mut self, env: &Env) {
        let d = &mut self.discussion;
        let round = d.machine.round();
        let critiques: Vec<Reviewed> = d.critiques.iter().flatten().cloned().collect();
        d.memory.record_critiques(round, &critiques.iter().map(|r| r.critique.clone()).collect::<Vec<_>>());
        d.presented = true;
        let designs = d.designs.clone();
        let source = d.designs_source.clone().unwrap_or(Source::NO_LLM);
        let changes = std::mem::take(&mut d.changes);
        self.say(Body::DesignsPresented { round, designs, source, changes }, env.now);
        self.say(Body::CritiqueComplete { round, critiques }, env.now);
    }

    fn drive_present(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        if self.discussion.critiques.iter().any(Option::is_none) {
            return self.make_critiques(env, fx);
        }
        self.present(env);
        self.discussion.fire(Transition::DesignsPresented);
        if self.discussion.machine.force_decision_mode() {
            self.ask_for_decision(env);
            return false;
        }
        let text = self.lang.pick(
            "마음에 드는 설계안을 고르거나(예: \"2번이 좋아요\"), 바꾸고 싶은 점을 말씀해 주세요.",
            "Pick a design (e.g. \"2 looks good\"), or tell me what to change.",
        );
        self.notice(text, env.now);
        false
    }

    fn drive_debate(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        // DEBATE waits for the user; it only works when Retry asked to redo a step.
        if self.discussion.redo_refine {
            return self.make_refinement(env, fx);
        }
        if self.discussion.designs.is_empty() {
            return self.make_designs(env, fx);
        }
        if self.discussion.critiques.iter().any(Option::is_none) {
            return self.make_critiques(env, fx);
        }
        if !self.discussion.presented {
            self.present(env);
        }
        false
    }

    fn drive_refine(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        if self.discussion.feedback.is_some() {
            return self.make_refinement(env, fx);
        }
        self.discussion.fire(Transition::RefinedDesignsReady);
        true
    }

    fn make_refinement(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        let d = &mut self.discussion;
        if d.redo_refine {
            if let Some(previous) = d.pre_refine.clone() {
                d.designs = previous;
            }
        } else {
            d.pre_refine = Some(d.designs.clone());
        }
        d.redo_refine = false;
        let prompt = refine_prompt(&self.grounding(), &self.discussion.designs);
        if self.launch(LlmRole::Designer, vec![(Purpose::Refine, prompt, false)], env, fx) {
            return false;
        }
        let feedback = self.discussion.feedback.clone().unwrap_or_default();
        let refined = refine_heuristic(&self.discussion.designs, &feedback, self.lang);
        let source = self.discussion.heuristic();
        self.apply_refinement(refined.designs, refined.changes, source);
        true
    }

    fn apply_refinement(&mut self, designs: Vec<DesignProposal>, changes: Vec<String>, source: Source) {
        let round = self.discussion.machine.round();
        let feedback = self.discussion.feedback.take().unwrap_or_default();
        let summary = match self.lang {
            Lang::Ko => format!("피드백: {} — 변경: {}", clip(&feedback, 160), changes.join(" ")),
            Lang::En => format!("Feedback: {} — changes: {}", clip(&feedback, 160), changes.join(" ")),
        };
        self.apply_designs(designs, source);
        let d = &mut self.discussion;
        d.changes = changes;
        d.memory.summarize_round(round, summary);
        if d.stage() == Stage::Refine {
            d.fire(Transition::RefinedDesignsReady);
        }
    }

    fn finish_refine(&mut self, text: &str, source: Source, failure: Option<LlmFailure>, env: &Env) {
        let parsed = if failure.is_none() { parse_designs(text) } else { Err(String::new()) };
        match parsed {
            Ok(designs) => {
                let changes = vec![self
                    .lang
                    .pick(
                        "LLM이 피드백을 반영해 설계안을 고쳤습니다.",
                        "The LLM revised the designs from your feedback.",
                    )
                    .to_string()];
                self.apply_refinement(designs, changes, source);
            }
            Err(reason) => {
                let source = self.fell_back(Purpose::Refine, failure, source, reason, env);
                let feedback = self.discussion.feedback.clone().unwrap_or_default();
                let refined = refine_heuristic(&self.discussion.designs, &feedback, self.lang);
                self.apply_refinement(refined.designs, refined.changes, source);
            }
        }
    }

    // ---- CONFIRM and PLAN ----

    /// At the round limit: say so and ask for a choice instead of another round.
    fn ask_for_decision(&mut self, env: &Env) {
        let max = self.discussion.machine.max_rounds();
        let t = match self.lang {
            Lang::Ko => format!("논의 라운드 한도({max})에 도달했습니다. 설계안 하나를 골라 주세요."),
            Lang::En => format!("We have reached the round limit ({max}). Please choose one design."),
        };
        self.notice(t, env.now);
        self.post_choose_card(env);
    }

    fn post_choose_card(&mut self, env: &Env) {
        if self.open_card().is_some_and(|c| c.kind == CardKind::ChooseDesign) {
            return;
        }
        let lang = self.lang;
        let options: Vec<String> =
            self.discussion.designs.iter().map(|d| d.name.clone()).take(super::session::MAX_OPTIONS).collect();
        let text = lang.pick("어느 설계안으로 확정할까요?", "Which design shall we go with?").to_string();
        let question = Question { text, options, allow_other: false, target: Target::Design };
        self.post_card(CardKind::ChooseDesign, vec![question], Source::NO_LLM, env.now);
    }

    fn drive_confirm(&mut self, env: &Env) -> bool {
        let Some(index) = self.discussion.selected.filter(|i| *i < self.discussion.designs.len()) else {
            self.post_choose_card(env);
            return false;
        };
        let lang = self.lang;
        let d = &mut self.discussion;
        let design = d.designs[index].clone();
        d.memory.agree(format!("{}: {}", lang.pick("확정한 설계안", "Chosen design"), design.name));
        d.selected_design = Some(design);
        d.fire(Transition::UserConfirmed);
        true
    }

    fn drive_plan(&mut self, env: &Env, fx: &mut Vec<Effect>) -> bool {
        if self.discussion.plan.is_some() {
            return false;
        }
        let Some(design) = self.discussion.selected_design.clone() else {
            return false;
        };
        let critique = self.selected_critique();
        let prompt = plan_prompt(&self.grounding(), &design, critique.as_ref());
        if self.launch(LlmRole::Designer, vec![(Purpose::Plan, prompt, true)], env, fx) {
            return false;
        }
        let markdown = self.heuristic_plan_text();
        let source = self.discussion.heuristic();
        self.apply_plan(Plan { markdown, source, interrupted: false }, None, env);
        false
    }

    fn selected_critique(&self) -> Option<super::critique::Critique> {
        let index = self.discussion.selected?;
        self.discussion.critiques.get(index)?.as_ref().map(|r| r.critique.clone())
    }

    fn heuristic_plan_text(&self) -> String {
        let contract = self.discussion.contract.clone().unwrap_or_default();
        let design = self.discussion.selected_design.clone().unwrap_or_else(|| self.fallback_designs().remove(0));
        heuristic_plan(&contract, &design, self.selected_critique().as_ref(), &self.discussion.memory, self.lang)
    }

    fn apply_plan(&mut self, plan: Plan, call: Option<u32>, env: &Env) {
        let Some(selected_design) = self.discussion.selected_design.clone() else {
            return;
        };
        self.discussion.plan = Some(plan.clone());
        let body = Body::PlanGenerated { plan, selected_design, discussion_summary: self.discussion_summary() };
        match call.and_then(|c| self.stream_message(c)) {
            Some(id) => self.replace(id, body),
            None => {
                self.say(body, env.now);
            }
        }
    }

    fn finish_plan(&mut self, call: u32, text: &str, source: Source, failure: Option<LlmFailure>, env: &Env) {
        match failure {
            None if !text.trim().is_empty() => {
                self.apply_plan(Plan { markdown: text.to_string(), source, interrupted: false }, Some(call), env);
            }
            Some(f) if f.partial.as_ref().is_some_and(|p| !p.trim().is_empty()) => {
                // A broken stream keeps its text, marked interrupted; Retry writes it again.
                let partial = f.partial.clone().unwrap_or_default();
                self.report_failure(Purpose::Plan, f, env);
                self.apply_plan(
                    Plan { markdown: partial, source: Source::Llm { model: String::new() }, interrupted: true },
                    Some(call),
                    env,
                );
            }
            failure => {
                let source = self.fell_back(Purpose::Plan, failure, source, "empty answer".into(), env);
                let markdown = self.heuristic_plan_text();
                self.apply_plan(Plan { markdown, source, interrupted: false }, Some(call), env);
            }
        }
    }

    /// A short account of the discussion for the plan message.
    pub fn discussion_summary(&self) -> String {
        let d = &self.discussion;
        let lang = self.lang;
        let rounds = d.machine.round();
        let chosen = d.selected_design.as_ref().map(|x| x.name.as_str()).unwrap_or("-");
        let prefs: Vec<&str> = d.memory.user_preferences.values().map(String::as_str).collect();
        let mut text = match lang {
            Lang::Ko => format!("수정 라운드 {rounds}회 · 확정: {chosen}"),
            Lang::En => format!("{rounds} refine round(s) · chosen: {chosen}"),
        };
        if !prefs.is_empty() {
            text.push_str(&format!(" · {}: {}", lang.pick("선호", "preferences"), prefs.join(", ")));
        }
        text
    }
}

/// The question used for a slot at the re-ask limit: choose, or take the default.
fn limit_question(slot: &str, lang: Lang) -> String {
    match lang {
        Lang::Ko => format!("{}을(를) 아래에서 고르거나 기본값을 선택해 주세요.", slot_label(slot, lang)),
        Lang::En => format!("Choose a {} below, or take the default.", slot_label(slot, lang)),
    }
}

/// True for a reply that is only a choice: "2", "2번", "B안", "option 3".
fn is_bare_choice(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['.', '!', '요']).trim().to_ascii_lowercase();
    let t = t.strip_suffix("으로").or_else(|| t.strip_suffix("로")).unwrap_or(&t).trim().to_string();
    if t.chars().count() > 12 {
        return false;
    }
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    let letters_only_choice = ["a안", "b안", "c안", "option a", "option b", "option c"].contains(&t.as_str());
    letters_only_choice
        || (digits == 1 && t.chars().all(|c| c.is_ascii_digit() || "번안 #optiondesignplan".contains(c)))
}
