//! CONFIRM and PLAN: the chosen design is stored and the plan written at once.

use super::designs::template_designs;
use super::DiscussionArtifact;
use super::DiscussionPurpose;
use super::{grounding, Discussing, Discussion, Fx, C};
use crate::engine::call::{LlmOutcome, Purpose};
use crate::engine::critique::Critique;
use crate::engine::lang::Lang;
use crate::engine::plan::{heuristic_plan, plan_prompt, Plan};
use crate::engine::prompt::Prompt;
use crate::engine::session::MAX_OPTIONS;
use crate::engine::session::{AppMode, Body, CardKind, Env, Question, Target};
use crate::engine::source::Source;
use crate::engine::state_machine::Transition;
use crate::engine::step::{self, LlmStep, Produced};

impl Discussing<'_> {
    // ---- CONFIRM and PLAN ----

    /// At the round limit: say so and ask for a choice instead of another round.
    pub(crate) fn ask_for_decision(&mut self, env: &Env) {
        let max = self.d.machine.max_rounds();
        let t = match self.c.lang {
            Lang::Ko => format!("논의 라운드 한도({max})에 도달했습니다. 설계안 하나를 골라 주세요."),
            Lang::En => format!("We have reached the round limit ({max}). Please choose one design."),
        };
        self.c.notice(t, env.now);
        self.post_choose_card(env);
    }

    pub(crate) fn post_choose_card(&mut self, env: &Env) {
        if self.c.open_card().is_some_and(|c| c.kind == CardKind::ChooseDesign) {
            return;
        }
        let lang = self.c.lang;
        let options: Vec<String> = self.d.designs.iter().map(|d| d.name.clone()).take(MAX_OPTIONS).collect();
        let text = lang.pick("어느 설계안으로 확정할까요?", "Which design shall we go with?").to_string();
        let question = Question { text, options, allow_other: false, target: Target::Design, ..Default::default() };
        self.c.post_card(CardKind::ChooseDesign, vec![question], Source::NO_LLM, env.now);
    }

    pub(crate) fn drive_confirm(&mut self, env: &Env) -> bool {
        let Some(index) = self.d.selected.filter(|i| *i < self.d.designs.len()) else {
            self.post_choose_card(env);
            return false;
        };
        let lang = self.c.lang;
        let d = &mut *self.d;
        let design = d.designs[index].clone();
        d.memory.agree(format!("{}: {}", lang.pick("확정한 설계안", "Chosen design"), design.name));
        d.selected_design = Some(design);
        d.fire(Transition::UserConfirmed);
        true
    }

    pub(crate) fn drive_plan(&mut self, env: &Env, fx: &mut Fx) -> bool {
        if self.d.plan.is_some() || self.d.selected_design.is_none() {
            return false;
        }
        step::start(&[PlanStep], self.d, self.c, env, fx)
    }

    pub(crate) fn apply_plan(&mut self, plan: Plan, call: Option<u32>, env: &Env) {
        let Some(selected_design) = self.d.selected_design.clone() else {
            return;
        };
        self.d.plan = Some(plan.clone());
        let discussion_summary = self.discussion_summary();
        let body = Body::Artifact {
            artifact: DiscussionArtifact::PlanGenerated { plan, selected_design, discussion_summary }.into(),
        };
        match call {
            Some(call) => self.c.say_in_place_of(call, body, env.now),
            None => {
                self.c.say(body, env.now);
            }
        }
    }

    pub(crate) fn finish_plan(&mut self, call: u32, outcome: LlmOutcome, env: &Env) {
        step::finish(&PlanStep, self.d, self.c, call, outcome, env);
    }

    /// A short account of the discussion for the plan message.
    pub fn discussion_summary(&self) -> String {
        let d = &*self.d;
        let lang = self.c.lang;
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

/// The critique of the chosen design, if it has one.
fn selected_critique(d: &Discussion) -> Option<Critique> {
    let index = d.selected?;
    d.critiques.get(index)?.as_ref().map(|r| r.critique.clone())
}

/// PLAN: the implementation plan for the chosen design, streamed.
struct PlanStep;

impl LlmStep<Discussion, AppMode> for PlanStep {
    type Output = String;

    fn purpose(&self) -> Purpose {
        DiscussionPurpose::Plan.into()
    }

    fn prompt(&self, d: &Discussion, c: &C) -> Prompt {
        let design = d.selected_design.clone().unwrap_or_else(|| template_designs(d, c).remove(0));
        plan_prompt(&grounding(d, c), &design, selected_critique(d).as_ref())
    }

    fn parse(&self, _: &Discussion, _: &C, text: &str) -> Result<String, String> {
        if text.trim().is_empty() {
            Err("empty answer".into())
        } else {
            Ok(text.to_string())
        }
    }

    fn twin(&self, d: &Discussion, c: &C) -> String {
        let contract = d.contract.clone().unwrap_or_default();
        let design = d.selected_design.clone().unwrap_or_else(|| template_designs(d, c).remove(0));
        heuristic_plan(&contract, &design, selected_critique(d).as_ref(), &d.memory, c.lang)
    }

    fn apply(&self, d: &mut Discussion, c: &mut C, produced: Produced<String>, env: &Env) {
        // A broken stream: the heuristic plan stands in (as the error box says), the part
        // that arrived is kept folded, and Retry asks the model again.
        let interrupted = produced.partial.is_some();
        let plan = Plan { markdown: produced.output, source: produced.source, interrupted, partial: produced.partial };
        Discussing { d, c }.apply_plan(plan, produced.call, env);
    }

    fn stream(&self) -> bool {
        true
    }
}
