//! UNDERSTAND: the requirement contract (seed 003) and the slot gate (seed 002).

use super::limit_question;
use super::DiscussionPurpose;
use super::{format_key, goal_key, Discussing, Discussion, Fx, C};
use crate::engine::call::{LlmOutcome, Purpose};
use crate::engine::contract::{
    add_criteria, add_criterion, adjust_confidence, analysis_prompt, criteria_in, field_question, goal_in,
    heuristic_analysis, parse_analysis_checked, same_question, AnalysisInput, Answered, Confidence, Contract, Field,
    QUESTIONS_ASKED,
};
use crate::engine::gate::{
    completion_message, format_options, slot_label, slot_options, slot_question, GateStatus, Intent, SlotValue,
    REASK_LIMIT,
};
use crate::engine::lang::{clip, quoted, with_instrumental, with_topic, Lang};
use crate::engine::prompt::Prompt;
use crate::engine::session::{AppMode, Body, CardKind, Env, Question, Target};
use crate::engine::slots::parse_format;
use crate::engine::source::Source;
use crate::engine::state_machine::Transition;
use crate::engine::step::{self, LlmStep, Produced};

impl Discussing<'_> {
    // ---- UNDERSTAND ----

    pub(crate) fn drive_understand(&mut self, env: &Env, fx: &mut Fx) -> bool {
        let Some(gate) = self.d.gate.as_ref() else {
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

    pub(crate) fn drive_alignment(&mut self, env: &Env, fx: &mut Fx) -> bool {
        if self.d.analysis_due {
            return step::start(&[ContractStep], self.d, self.c, env, fx);
        }
        if self.c.open_card().is_some() {
            return false;
        }
        self.check_gate(env)
    }

    pub(crate) fn finish_contract(&mut self, call: u32, outcome: LlmOutcome, env: &Env) {
        step::finish(&ContractStep, self.d, self.c, call, outcome, env);
    }

    pub(crate) fn apply_contract(&mut self, mut contract: Contract, source: Source) {
        let d = &mut *self.d;
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

    pub(crate) fn sync_gate_from_contract(&mut self) {
        let d = &mut *self.d;
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
    pub(crate) fn check_gate(&mut self, env: &Env) -> bool {
        let Some(contract) = self.d.contract.clone() else {
            return false;
        };
        let filled = self.d.gate.as_ref().is_some_and(|g| g.is_required_filled());
        let decisive =
            contract.confidence == Confidence::Low && !contract.open_questions.is_empty() && !self.d.decisive_asked;
        if filled && !decisive {
            self.complete_understand(env);
            return true;
        }
        if self.d.alignment_round >= self.c.settings.discussion.alignment_limit() {
            return self.at_alignment_limit(env);
        }
        if filled {
            self.d.decisive_asked = true;
        }
        if self.ask_round(env) {
            false
        } else {
            // Everything worth asking was asked already: treat as the limit.
            self.at_alignment_limit(env)
        }
    }

    pub(crate) fn complete_understand(&mut self, env: &Env) {
        let lang = self.c.lang;
        let mut all_filled = false;
        if let Some(gate) = self.d.gate.as_mut() {
            all_filled = gate.is_required_filled();
            gate.decide();
            gate.status = GateStatus::Completed;
        }
        let Some(contract) = self.d.contract.clone() else {
            return;
        };
        let d = &mut *self.d;
        d.memory.restate(goal_key(lang), &contract.goal);
        d.memory.restate(format_key(lang), &contract.format);
        // Seed 002: the gate says so when every required slot is filled.
        let mut text = if all_filled { format!("{} ", completion_message(lang)) } else { String::new() };
        text += &match lang {
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
        self.c.say(Body::Text { text, source }, env.now);
    }

    pub(crate) fn at_alignment_limit(&mut self, env: &Env) -> bool {
        if self.c.settings.discussion.strict {
            if self.c.open_card().is_none() {
                self.post_assumptions_card(env);
            }
            return false;
        }
        self.proceed_with_assumptions(env);
        true
    }

    pub(crate) fn proceed_option(&self) -> String {
        self.c.lang.pick("이 가정으로 진행", "Proceed with these assumptions").to_string()
    }

    pub(crate) fn assumptions_for_gaps(&self) -> Vec<(String, String)> {
        let lang = self.c.lang;
        let mut out = Vec::new();
        if let (Some(gate), Some(contract)) = (&self.d.gate, &self.d.contract) {
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

    pub(crate) fn post_assumptions_card(&mut self, env: &Env) {
        let lang = self.c.lang;
        let gaps = self.assumptions_for_gaps();
        let listed: Vec<String> = gaps.iter().map(|(s, v)| format!("{} = {v}", slot_label(s, lang))).collect();
        let text = match lang {
            Lang::Ko => format!("질문 한도에 도달했습니다. 다음 가정으로 진행할까요? {}", listed.join(", ")),
            Lang::En => {
                format!("We have reached the question limit. Proceed on these assumptions? {}", listed.join(", "))
            }
        };
        let options = vec![self.proceed_option()];
        let question = Question { text, options, allow_other: true, target: Target::Proceed, ..Default::default() };
        self.c.post_card(CardKind::ConfirmAssumptions, vec![question], self.c.heuristic(), env.now);
    }

    pub(crate) fn proceed_with_assumptions(&mut self, env: &Env) {
        let lang = self.c.lang;
        let gaps = self.assumptions_for_gaps();
        let d = &mut *self.d;
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
                    Lang::Ko => {
                        format!("{}: 답을 받지 못해 {} 가정", slot_label(slot, lang), quoted(value, with_instrumental))
                    }
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
    pub(crate) fn ask_round(&mut self, env: &Env) -> bool {
        let lang = self.c.lang;
        let Some(contract) = self.d.contract.clone() else {
            return false;
        };
        let Some(gate) = self.d.gate.clone() else {
            return false;
        };
        let missing = gate.missing_required();
        let mut questions: Vec<Question> = Vec::new();
        let already_asked = |asked: &[String], text: &str| asked.iter().any(|a| same_question(a, text));

        for q in &contract.open_questions {
            if questions.len() >= QUESTIONS_ASKED || already_asked(&self.d.asked, q) {
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
                let at_limit = attempt >= REASK_LIMIT;
                let text = if at_limit { limit_question(slot, lang) } else { slot_question(slot, attempt, lang) };
                if !already_asked(&self.d.asked, &text) {
                    let mut options = match slot.as_str() {
                        "format" => format_options(&contract.original_request, lang),
                        _ => slot_options(slot, lang),
                    };
                    if slot == "goal" && at_limit {
                        options = vec![self.goal_default_option()];
                    }
                    break Some(Question {
                        text,
                        options,
                        allow_other: true,
                        target: Target::Field(field),
                        ..Default::default()
                    });
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
        questions.truncate(QUESTIONS_ASKED);
        if questions.is_empty() {
            return false;
        }
        let d = &mut *self.d;
        d.alignment_round += 1;
        for q in &questions {
            d.asked.push(q.text.clone());
        }
        let asked_slots: Vec<String> = missing.clone();
        if let Some(g) = d.gate.as_mut() {
            g.mark_asked(&asked_slots);
        }
        let source = d.contract_source.clone().unwrap_or(Source::NO_LLM);
        self.c.post_card(CardKind::Clarify, questions, source, env.now);
        true
    }

    pub(crate) fn goal_default_option(&self) -> String {
        self.c.lang.pick("요청 그대로를 목표로", "Use my request as the goal").to_string()
    }

    pub(crate) fn default_slot(&mut self, slot: &str, env: &Env) {
        let value = match slot {
            "goal" => self.d.request.clone().unwrap_or_default(),
            _ => self
                .d
                .gate
                .as_ref()
                .and_then(|g| g.defaults.get(slot))
                .map(|v| v.display(self.c.lang))
                .unwrap_or_default(),
        };
        if value.is_empty() {
            return;
        }
        let lang = self.c.lang;
        if let Some(contract) = self.d.contract.as_mut() {
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
                format!(
                    "{} 기본값 {} 두겠습니다. 나중에 바꿀 수 있어요.",
                    with_topic(&slot_label(slot, lang)),
                    quoted(&value, with_instrumental)
                )
            }
            Lang::En => {
                format!("I will use the default {} '{value}'; you can change it later.", slot_label(slot, lang))
            }
        };
        self.c.notice(t, env.now);
    }

    /// A card question from an analyzer's question text: heuristic wordings map to their
    /// field; a question about the format gets the format choices.
    pub(crate) fn question_from_text(&self, text: &str) -> Question {
        let lang = self.c.lang;
        let request = self.d.contract.as_ref().map_or("", |c| c.original_request.as_str());
        for field in [Field::Goal, Field::Format, Field::Criteria, Field::Context] {
            if same_question(text, field_question(field, lang)) {
                let options = if field == Field::Format { format_options(request, lang) } else { Vec::new() };
                return Question {
                    text: text.to_string(),
                    options,
                    allow_other: true,
                    target: Target::Field(field),
                    ..Default::default()
                };
            }
        }
        let lower = text.to_ascii_lowercase();
        let about_format = ["format", "형식", "형태"].iter().any(|k| lower.contains(k));
        Question {
            text: text.to_string(),
            options: if about_format { format_options(request, lang) } else { Vec::new() },
            allow_other: true,
            target: if about_format { Target::Field(Field::Format) } else { Target::Free },
            ..Default::default()
        }
    }

    pub(crate) fn apply_answer(&mut self, question: &Question, answer: &str, env: &Env) {
        let lang = self.c.lang;
        if let Target::Slot(slot) = &question.target {
            self.apply_slot_answer(slot, answer, env);
            return;
        }
        let lunch = self.d.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation);
        if lunch {
            // A question worded for several slots: read every slot the answer mentions.
            self.extract_slots(answer, env);
            return;
        }
        let request = self.d.request.clone().unwrap_or_default();
        let goal_default = self.goal_default_option();
        let d = &mut *self.d;
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
                    parse_format(answer).map(|f| f.label(lang).to_string()).unwrap_or_else(|| format_named(answer));
            }
            Target::Field(Field::Criteria) => add_criteria(contract, answer, lang),
            Target::Field(Field::Context) => contract.context = clip(answer, 300),
            _ => {
                if contract.format.is_empty() {
                    if let Some(f) = parse_format(answer) {
                        contract.format = f.label(lang).to_string();
                    }
                }
            }
        }
        // "엑셀로 주세요. 정확도가 90% 이상이면 좋겠어요" answers the format and states criteria too.
        if question.target != Target::Field(Field::Criteria) {
            for criterion in criteria_in(answer, lang) {
                add_criterion(contract, &criterion);
            }
        }
        self.sync_gate_from_contract();
    }

    /// Text typed while no card is open, in UNDERSTAND: read it for every field and slot.
    pub(crate) fn apply_free_answer(&mut self, text: &str, env: &Env) {
        let lunch = self.d.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation);
        if lunch {
            self.extract_slots(text, env);
            return;
        }
        let lang = self.c.lang;
        if let Some(contract) = self.d.contract.as_mut() {
            if let Some(f) = parse_format(text) {
                contract.format = f.label(lang).to_string();
            }
            if contract.goal.is_empty() {
                contract.goal = goal_in(text);
            }
            for criterion in criteria_in(text, lang) {
                add_criterion(contract, &criterion);
            }
            contract
                .answered
                .push(Answered { q: lang.pick("추가 설명", "Further detail").to_string(), a: text.to_string() });
        }
        self.sync_gate_from_contract();
    }

    /// After answers: all slots filled ⇒ completed with no LLM call (seed 002), the
    /// contract's confidence corrected as seed 003 says; otherwise analyse again.
    pub(crate) fn after_answers(&mut self) {
        let filled = self.d.gate.as_ref().is_some_and(|g| g.is_required_filled());
        let lunch = self.d.gate.as_ref().is_some_and(|g| g.intent == Intent::LunchRecommendation);
        if lunch {
            return;
        }
        if let Some(contract) = self.d.contract.as_mut() {
            contract.confidence =
                adjust_confidence(contract.confidence, contract.open_questions.len(), contract.answered.len());
        }
        self.d.analysis_due = !filled;
    }
}

/// Seed 003's analysis: the request (and answers so far) into a requirement contract.
struct ContractStep;

impl ContractStep {
    fn with_input<T>(d: &Discussion, c: &C, f: impl FnOnce(&AnalysisInput) -> T) -> T {
        let request = d.request.clone().unwrap_or_default();
        let previous = d.contract.clone();
        let answers = previous.as_ref().map(|c| c.answered.clone()).unwrap_or_default();
        let input = AnalysisInput {
            request: &request,
            prior_chat_summary: d.prior_chat.as_deref(),
            mode: "discussion",
            previous: previous.as_ref(),
            answers: &answers,
            lang: c.lang,
        };
        f(&input)
    }
}

impl LlmStep<Discussion, AppMode> for ContractStep {
    type Output = Contract;

    fn purpose(&self) -> Purpose {
        DiscussionPurpose::Contract.into()
    }

    fn prompt(&self, d: &Discussion, c: &C) -> Prompt {
        Self::with_input(d, c, analysis_prompt)
    }

    fn parse(&self, d: &Discussion, c: &C, text: &str) -> Result<Contract, String> {
        Self::with_input(d, c, |input| parse_analysis_checked(text, input))
    }

    fn twin(&self, d: &Discussion, c: &C) -> Contract {
        Self::with_input(d, c, heuristic_analysis)
    }

    /// Never slide into guessing: the rules fill what the request states, but confidence
    /// stays low and the user is asked, as seed 003's fallback does.
    fn fallback(&self, d: &Discussion, c: &C) -> Contract {
        let mut contract = self.twin(d, c);
        contract.confidence = Confidence::Low;
        let ask = c.lang.pick(
            "요청을 조금 더 구체적으로 설명해 주시겠어요? (자동 분석이 실패했습니다)",
            "Could you describe the request in a bit more detail? (the automatic analysis failed)",
        );
        contract.open_questions.insert(0, ask.to_string());
        contract.open_questions.truncate(QUESTIONS_ASKED);
        contract
    }

    fn apply(&self, d: &mut Discussion, c: &mut C, produced: Produced<Contract>, _env: &Env) {
        Discussing { d, c }.apply_contract(produced.output, produced.source);
    }
}

/// A format the user named in words of their own, without what only frames it: "PDF로 주세요"
/// (as a PDF, please) → "PDF", "워드 파일로" → "워드 파일", "just a short text" → "short text".
/// 로/으로 (as) goes after a Latin name or a word of form (파일: file, 문서: document, 형식/형태/양식:
/// form, 페이지: page, 글: text, 메일: mail), not from a name that ends so ("매크로", a macro);
/// 주세요: please; 요: polite ending.
fn format_named(answer: &str) -> String {
    const FORM_WORDS: [&str; 8] = ["파일", "문서", "형식", "형태", "양식", "페이지", "글", "메일"];
    let mut name = answer.trim().trim_end_matches(['.', '!', '?', '~']).trim();
    for ending in ["으로 주세요", "로 주세요", "으로 해 주세요", "로 해 주세요", "으로요", "로요", "으로", "로", "요"]
    {
        let Some(rest) = name.strip_suffix(ending).map(str::trim_end).filter(|r| !r.is_empty()) else { continue };
        let particle = ending.starts_with('로') || ending.starts_with("으로");
        let fits = !particle
            || !rest.chars().next_back().is_some_and(crate::engine::lang::is_hangul)
            || FORM_WORDS.iter().any(|w| rest.ends_with(w));
        if fits {
            name = rest;
        }
        break;
    }
    for lead in ["just a ", "just an ", "just ", "a ", "an ", "the "] {
        if name.len() > lead.len() && name.get(..lead.len()).is_some_and(|head| head.eq_ignore_ascii_case(lead)) {
            name = name[lead.len()..].trim_start();
            break;
        }
    }
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::format_named;

    #[test]
    fn a_format_in_the_users_words_keeps_only_its_name() {
        assert_eq!(format_named("PDF로"), "PDF");
        assert_eq!(format_named("PDF로 주세요."), "PDF");
        assert_eq!(format_named("just a short text"), "short text");
        assert_eq!(format_named("an Org-mode file"), "Org-mode file");
        // Korean text is cut at characters, never inside one.
        assert_eq!(format_named("짧은 글"), "짧은 글");
        assert_eq!(format_named("한 장짜리 요약"), "한 장짜리 요약");
        assert_eq!(format_named("로"), "로");
        assert_eq!(format_named("워드 파일로"), "워드 파일");
        // A name that ends in 로 keeps it.
        assert_eq!(format_named("매크로"), "매크로");
    }
}
