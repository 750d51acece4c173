//! The lunch-recommendation intent of seed 002: an intent of the slot gate with its own
//! slots (time, party size, place), question wording and answer.

use super::call::LlmOutcome;
use super::contract::{same_question, QUESTIONS_ASKED};
use super::core::CallRequest;
use super::discussion::DiscussionPurpose;
use super::discussion::{limit_question, Discussing, Fx};
use super::gate::{
    lunch_recommendation, parse_question, question_prompt, slot_label, slot_options, slot_question, worker_prompt,
    GateDecision, SlotKind, SlotValue, REASK_LIMIT,
};
use super::lang::{clip, with_instrumental, with_object, with_topic, Lang};
use super::session::{Body, CardKind, Env, Question, Target};
use super::source::{HeuristicWhy, Source};

impl Discussing<'_> {
    // ---- the lunch intent ----

    pub(crate) fn drive_lunch(&mut self, env: &Env, fx: &mut Fx) -> bool {
        if self.d.worker_done || self.c.open_card().is_some() {
            return false;
        }
        let Some(gate) = self.d.gate.as_mut() else {
            return false;
        };
        match gate.decide() {
            GateDecision::Complete => {
                let state = gate.clone();
                let prompt = worker_prompt(&state, self.c.lang);
                if self.c.launch(vec![CallRequest::foreground(DiscussionPurpose::LunchAnswer, prompt, true)], env, fx) {
                    return false;
                }
                let text = lunch_recommendation(&state, self.c.lang);
                let source = self.c.heuristic();
                self.d.worker_done = true;
                self.c.say(Body::Text { text, source: Some(source) }, env.now);
                false
            }
            GateDecision::Ask(missing) => {
                // Past the re-ask limit a slot takes its default instead of a new question.
                let mut missing_now = Vec::new();
                for slot in missing {
                    let over = gate.ask_counts.get(&slot).copied().unwrap_or(0) > REASK_LIMIT;
                    if over && gate.apply_default(&slot).is_some() {
                        let value = gate.slots.get(&slot).map(|v| v.display(self.c.lang)).unwrap_or_default();
                        let t = match self.c.lang {
                            Lang::Ko => {
                                format!(
                                    "{} 기본값 {} 두겠습니다.",
                                    with_topic(&slot_label(&slot, self.c.lang)),
                                    with_instrumental(&value)
                                )
                            }
                            Lang::En => format!("Using the default {}: {value}.", slot_label(&slot, self.c.lang)),
                        };
                        self.c.notice(t, env.now);
                        return true;
                    }
                    missing_now.push(slot);
                }
                let at_limit = missing_now.iter().any(|s| gate.reask_limit_reached(s));
                if !at_limit {
                    let prompt = question_prompt(gate, &missing_now, &self.d.asked, self.c.lang);
                    if self.c.launch(vec![CallRequest::foreground(DiscussionPurpose::Question, prompt, false)], env, fx)
                    {
                        return false;
                    }
                }
                let source = self.c.heuristic();
                self.post_slot_card(&missing_now, None, source, env);
                false
            }
        }
    }

    /// A card for missing slots: the LLM's wording when given, else templates; at the
    /// re-ask limit, choices plus the default.
    pub(crate) fn post_slot_card(
        &mut self,
        missing: &[String],
        worded: Option<(String, Vec<String>)>,
        source: Source,
        env: &Env,
    ) {
        let lang = self.c.lang;
        let Some(gate) = self.d.gate.clone() else {
            return;
        };
        let mut questions = Vec::new();
        if let Some((text, options)) = worded.filter(|(t, _)| !self.d.asked.iter().any(|a| same_question(a, t))) {
            let target = if missing.len() == 1 { Target::Slot(missing[0].clone()) } else { Target::Free };
            questions.push(Question { text, options, allow_other: true, target, ..Default::default() });
        } else {
            for slot in missing {
                let attempt = gate.ask_counts.get(slot).copied().unwrap_or(0);
                let at_limit = gate.reask_limit_reached(slot);
                let mut text =
                    if at_limit { limit_question(slot, lang) } else { slot_question(slot, attempt.min(1), lang) };
                if self.d.asked.iter().any(|a| same_question(a, &text)) {
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
                questions.push(Question {
                    text,
                    options,
                    allow_other: true,
                    target: Target::Slot(slot.clone()),
                    ..Default::default()
                });
            }
        }
        questions.truncate(QUESTIONS_ASKED);
        let d = &mut *self.d;
        for q in &questions {
            d.asked.push(q.text.clone());
        }
        if let Some(g) = d.gate.as_mut() {
            g.mark_asked(missing);
        }
        self.c.post_card(CardKind::Clarify, questions, source, env.now);
    }

    pub(crate) fn apply_slot_answer(&mut self, slot: &str, answer: &str, env: &Env) {
        let changed = self.extract_slots(answer, env);
        let Some(gate) = self.d.gate.as_mut() else {
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
        let lang = self.c.lang;
        match value.map(|v| gate.set(slot, v)) {
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                let t = e.message(lang);
                self.c.notice(t, env.now);
            }
            None => {
                let t = match lang {
                    Lang::Ko => {
                        format!("'{}'에서 {} 읽지 못했습니다.", clip(answer, 40), with_object(&slot_label(slot, lang)))
                    }
                    Lang::En => format!("I could not read a {} from '{}'.", slot_label(slot, lang), clip(answer, 40)),
                };
                self.c.notice(t, env.now);
            }
        }
    }

    /// Reads every slot a message mentions; reports corrections and rejected values.
    pub(crate) fn extract_slots(&mut self, text: &str, env: &Env) -> bool {
        let lang = self.c.lang;
        let Some(gate) = self.d.gate.as_mut() else {
            return false;
        };
        let extraction = gate.extract(text);
        let changed = !extraction.changes.is_empty();
        let mut notes = Vec::new();
        for change in &extraction.changes {
            if let Some(before) = &change.before {
                notes.push(match lang {
                    Lang::Ko => format!(
                        "{} {} → {} 고쳤습니다.",
                        with_object(&slot_label(&change.slot, lang)),
                        before.display(lang),
                        with_instrumental(&change.after.display(lang))
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
            self.c.notice(n, env.now);
        }
        changed
    }

    pub(crate) fn finish_question(&mut self, outcome: LlmOutcome, env: &Env) {
        let (text, failure) = match outcome {
            LlmOutcome::Ok { text, .. } => (text, None),
            LlmOutcome::Failed(f) => (String::new(), Some(f)),
        };
        let missing = self.d.gate.as_ref().map(|g| g.missing_required()).unwrap_or_default();
        let worded = match &failure {
            None => parse_question(&text).ok(),
            Some(_) => None,
        };
        let source = match (&failure, &worded) {
            (Some(f), _) => Source::Heuristic(HeuristicWhy::CallFailed { kind: f.kind }),
            (None, Some(_)) => self
                .c
                .calls
                .last()
                .and_then(|c| c.model.clone())
                .map(|model| Source::Llm { model })
                .unwrap_or(Source::NO_LLM),
            (None, None) => Source::Heuristic(HeuristicWhy::Unparseable { reason: "no question in the answer".into() }),
        };
        if let Some(f) = failure {
            self.c.report_failure(DiscussionPurpose::Question, f, env.now);
        }
        if !missing.is_empty() && self.c.open_card().is_none() {
            self.post_slot_card(&missing, worded, source, env);
        }
    }

    pub(crate) fn finish_lunch_answer(&mut self, call: u32, outcome: LlmOutcome, env: &Env) {
        let (text, source, failure) = match outcome {
            LlmOutcome::Ok { text, model, .. } => (text, Source::Llm { model }, None),
            LlmOutcome::Failed(f) => (String::new(), Source::NO_LLM, Some(f)),
        };
        let state = self.d.gate.clone();
        let body = match (failure, text.trim().is_empty()) {
            (None, false) => Body::Text { text: text.to_string(), source: Some(source) },
            (failure, _) => {
                let why = match failure {
                    Some(f) => {
                        let kind = f.kind;
                        self.c.report_failure(DiscussionPurpose::LunchAnswer, f, env.now);
                        HeuristicWhy::CallFailed { kind }
                    }
                    None => HeuristicWhy::Unparseable { reason: "empty answer".into() },
                };
                let text = state.as_ref().map(|s| lunch_recommendation(s, self.c.lang)).unwrap_or_default();
                Body::Text { text, source: Some(Source::Heuristic(why)) }
            }
        };
        self.d.worker_done = true;
        match self.c.stream_message(call) {
            Some(id) => self.c.replace(id, body),
            None => {
                self.c.say(body, env.now);
            }
        }
    }
}
