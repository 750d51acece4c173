//! DESIGN, PRESENT, DEBATE and REFINE: proposals, their critiques, and revisions.

use super::DiscussionArtifact;
use super::DiscussionPurpose;
use super::{grounding, Discussing, Discussion, Fx, C};
use crate::engine::call::{LlmOutcome, Purpose};
use crate::engine::critique::{critique_prompt, heuristic_critique_with, parse_critique_checked, Critique};
use crate::engine::design::{
    designs_prompt, fallback_designs, fallback_designs_for_contract, parse_designs_checked, refine_heuristic_for,
    refine_prompt, settle_recommendation, DesignProposal, Needs,
};
use crate::engine::lang::{clip, Lang};
use crate::engine::prompt::Prompt;
use crate::engine::session::{AppMode, Env, Reviewed};
use crate::engine::source::Source;
use crate::engine::state_machine::{Stage, Transition};
use crate::engine::step::{self, LlmStep, Produced};

impl Discussing<'_> {
    // ---- DESIGN, PRESENT, DEBATE, REFINE ----

    pub(crate) fn drive_design(&mut self, env: &Env, fx: &mut Fx) -> bool {
        if self.d.designs.is_empty() {
            return self.make_designs(env, fx);
        }
        self.d.fire(Transition::DesignsGenerated);
        true
    }

    /// Starts the design call, or makes the fallback designs at once.
    pub(crate) fn make_designs(&mut self, env: &Env, fx: &mut Fx) -> bool {
        step::start(&[DesignsStep], self.d, self.c, env, fx)
    }

    pub(crate) fn apply_designs(&mut self, mut designs: Vec<DesignProposal>, source: Source) {
        settle_recommendation(&mut designs);
        let d = &mut *self.d;
        d.critiques = vec![None; designs.len()];
        d.memory.record_designs(d.machine.round(), &designs);
        d.designs = designs;
        d.designs_source = Some(source);
        d.presented = false;
    }

    pub(crate) fn finish_designs(&mut self, call: u32, outcome: LlmOutcome, env: &Env) {
        step::finish(&DesignsStep, self.d, self.c, call, outcome, env);
    }

    /// Critiques every design that has none yet: one parallel batch when an LLM critic
    /// is configured, the rule table otherwise.
    pub(crate) fn make_critiques(&mut self, env: &Env, fx: &mut Fx) -> bool {
        let missing: Vec<CritiqueStep> = (0..self.d.designs.len())
            .filter(|i| self.d.critiques[*i].is_none())
            .map(|design| CritiqueStep { design })
            .collect();
        step::start(&missing, self.d, self.c, env, fx)
    }

    pub(crate) fn finish_critique(&mut self, design: usize, call: u32, outcome: LlmOutcome, env: &Env) {
        if design < self.d.designs.len() {
            step::finish(&CritiqueStep { design }, self.d, self.c, call, outcome, env);
        }
    }

    /// Shows the current designs and their critiques.
    pub(crate) fn present(&mut self, env: &Env) {
        let d = &mut *self.d;
        let round = d.machine.round();
        let critiques: Vec<Reviewed> = d.critiques.iter().flatten().cloned().collect();
        d.memory.record_critiques(round, &critiques.iter().map(|r| r.critique.clone()).collect::<Vec<_>>());
        d.presented = true;
        let designs = d.designs.clone();
        let source = d.designs_source.clone().unwrap_or(Source::NO_LLM);
        let changes = std::mem::take(&mut d.changes);
        self.c.show(DiscussionArtifact::DesignsPresented { round, designs, source, changes }, env.now);
        self.c.show(DiscussionArtifact::CritiqueComplete { round, critiques }, env.now);
    }

    pub(crate) fn drive_present(&mut self, env: &Env, fx: &mut Fx) -> bool {
        if self.d.critiques.iter().any(Option::is_none) {
            return self.make_critiques(env, fx);
        }
        self.present(env);
        self.d.fire(Transition::DesignsPresented);
        if let Some(i) = self.take_after_refine() {
            let name = self.d.designs[i].name.clone();
            let text = match self.c.lang {
                Lang::Ko => format!("말씀하신 대로 고친 {}번({name})으로 진행합니다.", i + 1),
                Lang::En => format!("Going ahead with design {} ({name}), changed as you asked.", i + 1),
            };
            self.c.notice(text, env.now);
            self.d.selected = Some(i);
            self.d.fire(Transition::UserSatisfied);
            return true;
        }
        if self.d.machine.force_decision_mode() {
            self.ask_for_decision(env);
            return false;
        }
        let text = self.c.lang.pick(
            "마음에 드는 설계안을 고르거나(예: \"2번이 좋아요\"), 바꾸고 싶은 점을 말씀해 주세요.",
            "Pick a design (e.g. \"2 looks good\"), or tell me what to change.",
        );
        self.c.notice(text, env.now);
        false
    }

    /// The design picked with a change ("go with 2 but drop the validator"), once the change is
    /// made: found by its name, or where it stood when the refinement kept the number of designs.
    fn take_after_refine(&mut self) -> Option<usize> {
        let (index, name) = self.d.take_after_refine.take()?;
        let kept = self.d.pre_refine.as_ref().is_some_and(|before| before.len() == self.d.designs.len());
        self.d.designs.iter().position(|d| d.name == name).or((kept && index < self.d.designs.len()).then_some(index))
    }

    pub(crate) fn drive_debate(&mut self, env: &Env, fx: &mut Fx) -> bool {
        // DEBATE waits for the user; it only works when Retry asked to redo a step.
        if self.d.redo_refine {
            return self.make_refinement(env, fx);
        }
        if self.d.designs.is_empty() {
            return self.make_designs(env, fx);
        }
        if self.d.critiques.iter().any(Option::is_none) {
            return self.make_critiques(env, fx);
        }
        if !self.d.presented {
            self.present(env);
        }
        false
    }

    pub(crate) fn drive_refine(&mut self, env: &Env, fx: &mut Fx) -> bool {
        if self.d.feedback.is_some() {
            return self.make_refinement(env, fx);
        }
        self.d.fire(Transition::RefinedDesignsReady);
        true
    }

    pub(crate) fn make_refinement(&mut self, env: &Env, fx: &mut Fx) -> bool {
        let d = &mut *self.d;
        if d.redo_refine {
            if let Some(previous) = d.pre_refine.clone() {
                d.designs = previous;
            }
        } else {
            d.pre_refine = Some(d.designs.clone());
        }
        d.redo_refine = false;
        step::start(&[RefineStep], self.d, self.c, env, fx)
    }

    pub(crate) fn apply_refinement(&mut self, designs: Vec<DesignProposal>, changes: Vec<String>, source: Source) {
        let round = self.d.machine.round();
        let feedback = self.d.feedback.take().unwrap_or_default();
        let summary = match self.c.lang {
            Lang::Ko => format!("피드백: {} — 변경: {}", clip(&feedback, 160), changes.join(" ")),
            Lang::En => format!("Feedback: {} — changes: {}", clip(&feedback, 160), changes.join(" ")),
        };
        self.apply_designs(designs, source);
        let d = &mut *self.d;
        d.changes = changes;
        d.memory.summarize_round(round, summary);
        if d.stage() == Stage::Refine {
            d.fire(Transition::RefinedDesignsReady);
        }
    }

    pub(crate) fn finish_refine(&mut self, call: u32, outcome: LlmOutcome, env: &Env) {
        step::finish(&RefineStep, self.d, self.c, call, outcome, env);
    }
}

/// The seed's three templates, worded for the request's subject and format.
pub(super) fn template_designs(d: &Discussion, c: &C) -> Vec<DesignProposal> {
    match &d.contract {
        Some(contract) => fallback_designs_for_contract(contract, c.lang),
        None => fallback_designs(&d.request.clone().unwrap_or_default(), "", c.lang),
    }
}

/// The rule table's critique of a design, with what the contract states.
fn rule_critique(d: &Discussion, c: &C, design: &DesignProposal) -> Critique {
    let mut needs = d.contract.as_ref().map(Needs::from_contract).unwrap_or_default();
    needs.without_validation = d.memory.declines("accuracy");
    heuristic_critique_with(design, d.expected, &needs, c.lang)
}

/// DESIGN: 2–3 proposals from the contract.
struct DesignsStep;

impl LlmStep<Discussion, AppMode> for DesignsStep {
    type Output = Vec<DesignProposal>;

    fn purpose(&self) -> Purpose {
        DiscussionPurpose::Designs.into()
    }

    fn prompt(&self, d: &Discussion, c: &C) -> Prompt {
        designs_prompt(&grounding(d, c))
    }

    fn parse(&self, d: &Discussion, c: &C, text: &str) -> Result<Vec<DesignProposal>, String> {
        let contract = d.contract.clone().unwrap_or_default();
        parse_designs_checked(text, &contract, c.lang).map(|checked| checked.designs)
    }

    fn twin(&self, d: &Discussion, c: &C) -> Vec<DesignProposal> {
        template_designs(d, c)
    }

    fn apply(&self, d: &mut Discussion, c: &mut C, produced: Produced<Vec<DesignProposal>>, _: &Env) {
        Discussing { d, c }.apply_designs(produced.output, produced.source);
    }
}

/// PRESENT: the devil's-advocate critique of one design.
struct CritiqueStep {
    design: usize,
}

impl LlmStep<Discussion, AppMode> for CritiqueStep {
    type Output = Critique;

    fn purpose(&self) -> Purpose {
        DiscussionPurpose::Critique { design: self.design }.into()
    }

    fn prompt(&self, d: &Discussion, c: &C) -> Prompt {
        critique_prompt(&grounding(d, c), &d.designs[self.design])
    }

    fn parse(&self, d: &Discussion, c: &C, text: &str) -> Result<Critique, String> {
        let contract = d.contract.clone().unwrap_or_default();
        parse_critique_checked(text, &d.designs[self.design], d.expected, &contract, c.lang).map(|x| x.critique)
    }

    fn twin(&self, d: &Discussion, c: &C) -> Critique {
        rule_critique(d, c, &d.designs[self.design])
    }

    fn apply(&self, d: &mut Discussion, _: &mut C, produced: Produced<Critique>, _: &Env) {
        if let Some(slot) = d.critiques.get_mut(self.design) {
            *slot = Some(Reviewed { critique: produced.output, source: produced.source });
        }
    }
}

/// REFINE: the designs revised from the user's feedback.
struct RefineStep;

impl LlmStep<Discussion, AppMode> for RefineStep {
    type Output = (Vec<DesignProposal>, Vec<String>);

    fn purpose(&self) -> Purpose {
        DiscussionPurpose::Refine.into()
    }

    fn prompt(&self, d: &Discussion, c: &C) -> Prompt {
        refine_prompt(&grounding(d, c), &d.designs)
    }

    fn parse(&self, d: &Discussion, c: &C, text: &str) -> Result<Self::Output, String> {
        let contract = d.contract.clone().unwrap_or_default();
        let designs = parse_designs_checked(text, &contract, c.lang)?.designs;
        let change = c
            .lang
            .pick("LLM이 피드백을 반영해 설계안을 고쳤습니다.", "The LLM revised the designs from your feedback.");
        Ok((designs, vec![change.to_string()]))
    }

    fn twin(&self, d: &Discussion, c: &C) -> Self::Output {
        let feedback = d.feedback.clone().unwrap_or_default();
        let refined = refine_heuristic_for(&d.designs, &feedback, d.focus, c.lang);
        (refined.designs, refined.changes)
    }

    fn apply(&self, d: &mut Discussion, c: &mut C, produced: Produced<Self::Output>, _: &Env) {
        let (designs, changes) = produced.output;
        Discussing { d, c }.apply_refinement(designs, changes, produced.source);
    }
}
