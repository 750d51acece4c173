//! Intent alignment (seed 003): the Requirement Contract, its analyzer prompt, the
//! tolerant parser, the heuristic analyzer, and the block every later prompt carries.

use std::sync::OnceLock;

use regex_lite::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::grounding::system_prompt;
use super::json::{extract_json, str_field, str_list};
use super::lang::{normalize, Lang};
use super::prompt::Prompt;
use super::prompt_text::{self, PromptText};
use super::security::{defuse, isolate, DEFAULT_TAG};
use super::slots::parse_format;
use super::words::{content_words, mentions};
use crate::engine::words::WordList;

/// Criteria the analyzer is asked for, and kept from its answer.
pub const CRITERIA_ASKED: usize = 4;
pub const CRITERIA_KEPT: usize = 6;
/// Open questions the analyzer is asked for, and kept from its answer.
pub const QUESTIONS_ASKED: usize = 3;
pub const QUESTIONS_KEPT: usize = 4;

/// How sure the analysis is that it understood the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    #[default]
    Low,
    Medium,
    High,
}

impl Confidence {
    /// The word shown in the contract panel.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Confidence::Low => lang.pick("낮음", "low"),
            Confidence::Medium => lang.pick("보통", "medium"),
            Confidence::High => lang.pick("높음", "high"),
        }
    }

    fn parse(text: &str) -> Confidence {
        match text.trim().to_ascii_lowercase().as_str() {
            "high" => Confidence::High,
            "medium" => Confidence::Medium,
            _ => Confidence::Low,
        }
    }
}

/// A question the user answered, and the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answered {
    pub q: String,
    pub a: String,
}

/// A field of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Context,
    Goal,
    Criteria,
    Format,
}

/// The Requirement Contract: what was agreed before any design work starts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Contract {
    /// The user's request, word for word.
    pub original_request: String,
    pub context: String,
    pub goal: String,
    pub criteria: Vec<String>,
    pub format: String,
    pub open_questions: Vec<String>,
    pub answered: Vec<Answered>,
    pub confidence: Confidence,
    /// Gaps the user did not fill, proceeded on as stated assumptions (smart mode).
    #[serde(default)]
    pub assumptions: Vec<String>,
}

impl Contract {
    /// The contract used when analysis fails: only the request, low confidence, and a
    /// question so the flow asks instead of guessing.
    pub fn fallback(request: &str, question: &str, answered: &[Answered]) -> Contract {
        Contract {
            original_request: request.to_string(),
            open_questions: vec![question.to_string()],
            answered: answered.to_vec(),
            confidence: Confidence::Low,
            ..Contract::default()
        }
    }

    /// True when the field has a value.
    pub fn has(&self, field: Field) -> bool {
        match field {
            Field::Context => !self.context.trim().is_empty(),
            Field::Goal => !self.goal.trim().is_empty(),
            Field::Criteria => !self.criteria.is_empty(),
            Field::Format => !self.format.trim().is_empty(),
        }
    }

    /// The contract block every prompt after UNDERSTAND carries as ground truth.
    /// Empty fields are written as explicitly missing.
    pub fn format_for_prompt(&self) -> String {
        const MISSING: &str = "(missing)";
        // Fields come from a model that read the user's text: a copied delimiter is defused,
        // so only the real isolation delimiters remain.
        let or_missing = |s: &str| if s.trim().is_empty() { MISSING.to_string() } else { defuse(s.trim()) };
        let mut lines = vec![
            "## REQUIREMENT CONTRACT (agreed with the user; the ground truth)".to_string(),
            format!("- Original request: {}", isolate(self.original_request.trim(), DEFAULT_TAG).replace('\n', " ")),
            format!("- Context: {}", or_missing(&self.context)),
            format!("- Goal: {}", or_missing(&self.goal)),
        ];
        if self.criteria.is_empty() {
            lines.push(format!("- Criteria: {MISSING}"));
        } else {
            lines.push("- Criteria:".into());
            lines.extend(self.criteria.iter().map(|c| format!("  - {}", defuse(c))));
        }
        lines.push(format!("- Format: {}", or_missing(&self.format)));
        if !self.answered.is_empty() {
            lines.push("- Answered questions:".into());
            for qa in &self.answered {
                lines.push(format!("  - Q: {}", defuse(&qa.q)));
                lines.push(format!("    A: {}", isolate(&qa.a, DEFAULT_TAG).replace('\n', " ")));
            }
        }
        if !self.open_questions.is_empty() {
            lines.push("- Open questions (unanswered; handle conservatively):".into());
            lines.extend(self.open_questions.iter().map(|q| format!("  - {}", defuse(q))));
        }
        if !self.assumptions.is_empty() {
            lines.push("- Assumptions (gaps the user left open; state them in the output):".into());
            lines.extend(self.assumptions.iter().map(|a| format!("  - {}", defuse(a))));
        }
        lines.push(format!("- Confidence: {}", self.confidence.label(Lang::En)));
        lines.push(String::new());
        lines.push(prompt_text::text(PromptText::ContractAsGroundTruth).into());
        lines.join("\n")
    }
}

/// What one round of analysis looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisInput<'a> {
    pub request: &'a str,
    /// A summary of the chat before a mode switch, if any: counts as stated fact.
    pub prior_chat_summary: Option<&'a str>,
    /// The active mode's name.
    pub mode: &'a str,
    pub previous: Option<&'a Contract>,
    pub answers: &'a [Answered],
    pub lang: Lang,
}

/// The analyzer prompt for one round.
pub fn analysis_prompt(input: &AnalysisInput) -> Prompt {
    let mut lines = vec!["[REQUEST]".to_string(), isolate(input.request.trim(), DEFAULT_TAG)];
    if let Some(summary) = input.prior_chat_summary.filter(|s| !s.trim().is_empty()) {
        lines.push(String::new());
        lines.push("[PRIOR CHAT SUMMARY — what the user already said before this mode; treat as stated fact]".into());
        lines.push(isolate(summary, DEFAULT_TAG));
    }
    lines.push(String::new());
    lines.push(format!("[MODE] {}", input.mode));
    if let Some(c) = input.previous {
        let or_none = |s: &str| if s.trim().is_empty() { "(none)".to_string() } else { defuse(s) };
        lines.push(String::new());
        lines.push("[PREVIOUS CONTRACT]".into());
        lines.push(format!("context: {}", or_none(&c.context)));
        lines.push(format!("goal: {}", or_none(&c.goal)));
        lines.push(format!(
            "criteria: {}",
            if c.criteria.is_empty() { "(none)".into() } else { defuse(&c.criteria.join(" | ")) }
        ));
        lines.push(format!("format: {}", or_none(&c.format)));
    }
    if !input.answers.is_empty() {
        lines.push(String::new());
        lines.push("[ANSWERS FROM THE USER]".into());
        for qa in input.answers {
            lines.push(format!("- Q: {}", defuse(&qa.q)));
            lines.push(format!("  A: {}", isolate(&qa.a, DEFAULT_TAG).replace('\n', " ")));
        }
        lines.push("Update the contract with these answers. Do not ask any of these questions again.".into());
    }
    lines.push(String::new());
    lines.push("Output the analysis JSON only.".into());
    let system = system_prompt("contract-analyst", prompt_text::text(PromptText::AnalyzerInstructions), input.lang);
    Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(1200)
}

/// True when two questions ask the same thing: equal after normalizing, or sharing
/// nearly all their words (models re-word questions slightly).
pub fn same_question(a: &str, b: &str) -> bool {
    let (na, nb) = (normalize(a), normalize(b));
    if na.is_empty() || nb.is_empty() {
        return false;
    }
    if na == nb {
        return true;
    }
    let wa: Vec<&str> = na.split(' ').collect();
    let wb: Vec<&str> = nb.split(' ').collect();
    let shared = wa.iter().filter(|w| wb.contains(w)).count();
    let union = wa.len() + wb.len() - shared;
    union > 0 && wa.len().min(wb.len()) >= 3 && shared as f64 / union as f64 >= 0.8
}

/// Seed 003's correction after answers: an analyzer still at "low" after at least one
/// answered round is raised one step to "medium" (never straight to "high"); "medium"
/// with no open questions left after answers becomes "high".
pub fn adjust_confidence(base: Confidence, open_questions: usize, answered: usize) -> Confidence {
    if answered >= 1 && base == Confidence::Low {
        return Confidence::Medium;
    }
    if open_questions == 0 && base == Confidence::Medium && answered > 0 {
        return Confidence::High;
    }
    base
}

/// Reads the analyzer's answer: fenced block, plain JSON, first balanced object; every
/// field coerced to its type, criteria and questions bounded, answered questions dropped
/// from the open ones, confidence adjusted. Fails with a reason; never panics.
pub fn parse_analysis(raw: &str, input: &AnalysisInput) -> Result<Contract, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    if !value.is_object() {
        return Err("the answer is not a JSON object".into());
    }
    let known = WordList("context|goal|criteria|format|openQuestions|open_questions|confidence");
    if !known.any(|k| value.get(k).is_some()) {
        return Err("the JSON has none of the contract's fields".into());
    }
    let questions_key = if value.get("openQuestions").is_some() { "openQuestions" } else { "open_questions" };
    let raw_questions = str_list(&value, questions_key, QUESTIONS_KEPT);
    let open_questions = without_answered(raw_questions.clone(), input.answers);
    let base = Confidence::parse(&str_field(&value, "confidence"));
    Ok(Contract {
        original_request: input.request.to_string(),
        context: text_field(&value, "context"),
        goal: text_field(&value, "goal"),
        criteria: str_list(&value, "criteria", CRITERIA_KEPT),
        format: text_field(&value, "format"),
        open_questions,
        answered: input.answers.to_vec(),
        confidence: adjust_confidence(base, raw_questions.len(), input.answers.len()),
        assumptions: Vec::new(),
    })
}

/// Reads the analyzer's answer like [`parse_analysis`], then checks it for sense: a goal
/// that is a prompt artifact (tag, field name, "무시"/"ignore") or is not about the
/// request (written in the request's language and sharing none of its subject words) is
/// refused; criteria, questions, context and format that are artifacts are dropped, and
/// criteria are kept to `CRITERIA_ASKED`.
pub fn parse_analysis_checked(raw: &str, input: &AnalysisInput) -> Result<Contract, String> {
    use super::security::is_prompt_artifact;
    let mut c = parse_analysis(raw, input)?;
    let request = input.request;
    if !c.goal.trim().is_empty() {
        // The request copied whole is a fine goal for the analyzer; only other artifacts count.
        if is_prompt_artifact(&c.goal, "") {
            return Err("the goal is a prompt artifact".into());
        }
        if !about_the_request(&c.goal, request, input) {
            return Err("the goal is not about the request".into());
        }
    }
    c.criteria.retain(|x| !is_prompt_artifact(x, request));
    c.criteria.truncate(CRITERIA_ASKED);
    c.open_questions.retain(|q| !is_prompt_artifact(q, request));
    if is_prompt_artifact(&c.context, request) {
        c.context.clear();
    }
    if is_prompt_artifact(&c.format, request) {
        c.format.clear();
    }
    Ok(c)
}

/// True when a goal shares a subject word with the request (or its answers, or the prior
/// chat), compared by their first two characters so "뉴스를" meets "뉴스", "summary" meets
/// "summarize"; a goal in another language than the request is not judged.
fn about_the_request(goal: &str, request: &str, input: &AnalysisInput) -> bool {
    if Lang::detect(goal) != Lang::detect(request) {
        return true;
    }
    let mut source = request.to_string();
    for qa in input.answers {
        source.push(' ');
        source.push_str(&qa.a);
    }
    if let Some(summary) = input.prior_chat_summary {
        source.push(' ');
        source.push_str(summary);
    }
    let key = |w: &str| -> String { w.to_ascii_lowercase().chars().take(if w.is_ascii() { 4 } else { 2 }).collect() };
    let theirs: Vec<String> = content_words(&source, 24).iter().map(|w| key(w)).collect();
    if theirs.is_empty() {
        return true;
    }
    content_words(goal, 24).iter().any(|w| theirs.contains(&key(w)))
}

/// A text field; models sometimes answer a list where a string belongs.
fn text_field(value: &Value, key: &str) -> String {
    match value.get(key) {
        Some(Value::Array(_)) => str_list(value, key, 8).join("; "),
        _ => str_field(value, key),
    }
}

fn without_answered(questions: Vec<String>, answers: &[Answered]) -> Vec<String> {
    questions.into_iter().filter(|q| !answers.iter().any(|qa| same_question(q, &qa.q))).collect()
}

/// The fixed wording of the heuristic analyzer's question for a field.
pub fn field_question(field: Field, lang: Lang) -> &'static str {
    match field {
        Field::Goal => lang.pick("최종적으로 어떤 결과를 얻고 싶으신가요?", "What result do you want in the end?"),
        Field::Format => lang.pick(
            "결과물은 어떤 형식이면 좋을까요? (예: 마크다운 문서, 표, JSON, 슬라이드)",
            "What form should the result take? (e.g. Markdown document, table, JSON, slides)",
        ),
        Field::Criteria => {
            lang.pick("좋은 결과인지 무엇으로 판단하면 될까요?", "How will you judge whether the result is good?")
        }
        Field::Context => {
            lang.pick("누가 어떤 상황에서 결과를 쓰나요?", "Who will use the result, and in what situation?")
        }
    }
}

/// The answer to an empty request (seed 003): a question, not silence.
pub fn empty_request_question(lang: Lang) -> &'static str {
    lang.pick(
        "요청 내용이 비어 있습니다. 무엇을 만들고 싶으신가요?",
        "The request is empty. What would you like to make?",
    )
}

/// Requests that name no subject at all. Korean entries glossed.
// 도와줘: help me; 도와주세요: help me; 뭔가: something; 아무거나: anything; 알아서: as you see fit
const VAGUE: WordList = WordList("도와줘|도와주세요|뭔가|아무거나|알아서|something|anything|help me|whatever");
/// A verb whose object is "something": 뭔가/무언가/뭐든 (something, anything) before 자동화 (automate),
/// 만들 (make), 해 (do).
const VAGUE_OBJECTS: WordList = WordList(
    "automate something|build something|make something|create something|do something|automate anything|\
     build me something|make me something|뭔가 자동화|뭔가 만들|무언가 자동화|무언가 만들|뭐든 자동화|뭔가 해",
);

/// Phrases that set the scene. Korean entries glossed.
// 우리 팀: our team; 우리 회사: our company; 저희: we (polite); 회사에서: at the company; 팀에서: in the team; 스타트업: startup;
// 현재: currently; 지금은: right now; 저는: I am; 나는: I am
const CONTEXT_MARKERS: WordList = WordList(
    "우리 팀|우리 회사|저희|회사에서|팀에서|스타트업|현재|지금은|저는|\
    나는|our team|our company|we are|we're|currently|i'm a|i am a|my company|at work|startup",
);

/// Quality words → criterion labels (Korean, English). Korean triggers glossed.
const QUALITY_CRITERIA: &[(WordList, (&str, &str))] = &[
    (WordList("정확|accura*|correct"), ("정확성", "Accuracy")), // accurate
    (WordList("빠르|빨리|신속|fast|quick*|speed*"), ("속도", "Speed")), // fast
    (WordList("저렴|싸게|비용|예산|cheap|cost|budget"), ("낮은 비용", "Low cost")), // cheap, cost
    (WordList("간결|짧게|concise|brief|short"), ("간결한 결과", "Concise output")), // concise
    (WordList("읽기 쉽|쉽게|easy to read|readable|easy"), ("읽기 쉬움", "Easy to read")), // easy
    (WordList("신뢰|안정|reliab*|robust"), ("신뢰성", "Reliability")), // reliable
    (WordList("보안|개인정보|secure|security|privacy"), ("보안", "Security")), // security
    (WordList("자동|automat*"), ("자동 실행", "Runs automatically")), // automatic
];

fn constraint_patterns() -> &'static [Regex] {
    static RE: OnceLock<Vec<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        [
            // "5분 이내", "1000자 이하", "3페이지", "10개 이상" (within / at most / at least)
            r"\d+(?:\.\d+)?\s*(?:분|초|시간|자|단어|페이지|쪽|장|개|건|줄|%|달러|원|만원)\s*(?:이내|이하|이상|미만|안에|내로|정도)?",
            r"(?i)\b(?:under|within|less than|at least|at most|no more than|fewer than|below|up to)\s+\$?\d+(?:\.\d+)?\s*(?:%|[a-z]+)?",
            r"(?i)\$\d+(?:\.\d+)?(?:\s*(?:per|/)\s*[a-z]+)?",
        ]
        .iter()
        .map(|p| Regex::new(p).expect("constraint pattern compiles"))
        .collect()
    })
}

/// A sentence that states a requirement: "Must not leak internal ticket numbers.", "It should
/// run before 9am.", "Never post on weekends."; 반드시/절대/꼭 (must, never, be sure to) in Korean.
fn requirement_sentences() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?:^|[.!?\n]\s*)((?:it\s+|they\s+|the\s+\w+\s+)?(?:must(?:\s+not|n't)?|should(?:\s+not|n't)?|never|do(?:\s+not|n't)|make\s+sure|always)\s+[^.!?\n]{3,120}|(?:반드시|절대|꼭)\s*[^.!?\n]{3,80})",
        )
        .expect("requirement pattern compiles")
    })
}

/// Where a text says how often or on which day something runs: "every Friday", "daily", "on
/// Mondays", "매주 금요일", "매일 아침", "월요일마다" (매일/매주/매달/매월: every day, week, month;
/// 요일마다: every …day; 평일/주말: weekdays, weekends).
fn schedule_span(text: &str) -> Option<std::ops::Range<usize>> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:every\s+(?:other\s+)?(?:day|morning|evening|night|weekday|week|month|hour|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|each\s+(?:day|morning|week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|daily|weekly|monthly|hourly|on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))\b|매(?:일|주|달|월|시간)(?:\s*(?:아침|저녁|밤|오전|오후))?(?:\s*[월화수목금토일]요일)?|[월화수목금토일]요일마다|평일마다|주말마다|아침마다|저녁마다",
        )
        .expect("schedule pattern compiles")
    });
    re.find(text).map(|m| m.range())
}

/// The goal with its schedule changed to the one `feedback` says ("actually make it every Monday
/// instead" turns "… to Slack every Friday" into "… to Slack every Monday"). `None` when either
/// says none, they say the same, or they are written in different scripts.
pub fn reschedule(goal: &str, feedback: &str) -> Option<String> {
    let (old, new) = (schedule_span(goal)?, schedule_span(feedback)?);
    let (old_text, new_text) = (&goal[old.clone()], &feedback[new]);
    if old_text.eq_ignore_ascii_case(new_text) || old_text.is_ascii() != new_text.is_ascii() {
        return None;
    }
    Some(format!("{}{new_text}{}", &goal[..old.start], &goal[old.end..]))
}

/// True when feedback only moves the schedule ("actually make it every Monday instead", "매주
/// 월요일로 바꿔 주세요"): nothing in the designs changes with it.
pub fn only_reschedules(feedback: &str) -> bool {
    let Some(span) = schedule_span(feedback) else { return false };
    // Words that ask for the move and nothing more: make/change/move/switch/run/post/send it
    // (to/on) … instead, please; 로/으로 바꿔/변경/옮겨 (change to), 해 (do), 주세요/줘 (please),
    // 대신 (instead), 그냥/아예 (just), 에 (on).
    const ASKING: WordList = WordList(
        "actually|make|it|change|changed|move|switch|run|runs|post|send|to|on|instead|please|let's|lets|can|could|you|we|the|\
         schedule|rather|just|ok|okay|so|and|로|으로|바꿔|바꿔요|바꿔줘|바꿔주세요|변경|변경해|옮겨|해|해줘|해요|해주세요|주세요|줘|대신|그냥|아예|\
         말고|에|으로요|로요|할게요|하죠|합시다",
    );
    let mut rest = feedback.to_string();
    rest.replace_range(span, " ");
    rest.split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | '!' | '?'))
        .filter(|w| !w.is_empty())
        .all(|w| ASKING.contains(w.to_lowercase()))
}

/// The count feedback asks for instead of the goal's own ("5개 말고 3개만", "3개만", "3 instead of
/// 5", "only 3"): (the new count, the span of the feedback that says it).
fn new_count(feedback: &str) -> Option<(u32, std::ops::Range<usize>)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?:\d+\s*(?:개|건|편|가지)?\s*(?:말고|대신)\s*)?(\d+)\s*(?:개|건|편|가지)\s*만|\d+\s*(?:개|건|편|가지)\s*(?:말고|대신)\s*(\d+)\s*(?:개|건|편|가지)?|\b(\d+)\s+instead\s+of\s+\d+\b|\b(?:only|just)\s+(?:the\s+)?(?:top\s+)?(\d+)\b",
        )
        .expect("count pattern compiles")
    });
    let caps = re.captures(feedback)?;
    let n = (1..=4).find_map(|i| caps.get(i))?.as_str().parse::<u32>().ok()?;
    Some((n, caps.get(0)?.range()))
}

/// The goal with the count `feedback` asks for in place of its own ("매일 아침 주요 경제 뉴스 5개를
/// 골라서" → "… 3개를 골라서" for "5개 말고 3개만"). `None` unless the goal holds exactly one count
/// (a number not of a time, a price or a size) and the feedback asks for another.
pub fn recount(goal: &str, feedback: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\d+(?:\s*(?:개|건|편|가지)|\s+(?:top\s+)?(?:articles?|news|stories|posts?|items?|headlines?|links?|ideas?|bullet\s+points?|points?|tips?))")
            .expect("goal count pattern compiles")
    });
    let (n, _) = new_count(feedback)?;
    let mut counts = re.find_iter(goal);
    let old = counts.next()?;
    if counts.next().is_some() {
        return None;
    }
    let digits = old.as_str().chars().take_while(char::is_ascii_digit).count();
    let before: u32 = old.as_str()[..digits].parse().ok()?;
    (before != n).then(|| format!("{}{n}{}", &goal[..old.start()], &goal[old.start() + digits..]))
}

/// True when feedback only changes how many ("5개 말고 3개만", "only 3"): nothing in the designs
/// changes with it.
pub fn only_recounts(feedback: &str) -> bool {
    let Some((_, span)) = new_count(feedback) else { return false };
    // Words that ask for the new count and nothing more: 으로/로 (to), 해/해 주세요/줘 (do, please),
    // 부탁해요 (please), 보내 (send), 골라 (pick).
    const ASKING: WordList = WordList(
        "make|it|please|just|only|instead|send|pick|show|give|me|the|top|news|articles|items|posts|ok|okay|\
         으로|로|해|해줘|해요|해주세요|주세요|줘|부탁해요|보내|보내줘|보내주세요|골라|골라줘|골라주세요|으로요|로요",
    );
    let mut rest = feedback.to_string();
    rest.replace_range(span, " ");
    rest.split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | '!' | '?'))
        .filter(|w| !w.is_empty())
        .all(|w| ASKING.contains(w.to_lowercase()))
}

/// The measurable constraints in the text, verbatim: "5만원 이하", "under $50", "within 10 minutes";
/// one that holds another is kept alone.
pub fn constraints_in(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for re in constraint_patterns() {
        for m in re.find_iter(text) {
            let c = m.as_str().trim().to_string();
            if !out.iter().any(|o| o.contains(&c) || c.contains(o.as_str())) {
                out.push(c);
            }
        }
    }
    out
}

/// The limits among `constraints_in`: the ones with a bound ("5만원 이하", "under $50", "within 10
/// minutes"). A bare amount in feedback ("3번은 단계를 4개로 줄여 주세요", "10분마다") asks a change, not a
/// limit. 이내/이하/이상/미만/안에/내로: within, at most, at least, under, inside, by.
pub fn limits_in(text: &str) -> Vec<String> {
    const BOUNDS: WordList =
        WordList("이내|이하|이상|미만|안에|내로|under|within|less than|at least|at most|no more than|below|up to|$");
    constraints_in(text).into_iter().filter(|c| BOUNDS.any(|b| c.to_lowercase().contains(b))).collect()
}

/// Criteria stated in the text: requirement sentences and measurable constraints verbatim,
/// then quality words.
pub fn criteria_in(text: &str, lang: Lang) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in requirement_sentences().captures_iter(text).filter_map(|c| c.get(1)) {
        let c = c.as_str().trim().to_string();
        if !out.contains(&c) {
            out.push(c);
        }
    }
    for c in constraints_in(text) {
        if !out.iter().any(|o| o.contains(&c) || c.contains(o.as_str())) {
            out.push(c);
        }
    }
    for (triggers, labels) in QUALITY_CRITERIA {
        if triggers.any(|t| mentions(text, t)) {
            let label = lang.pick(labels.0, labels.1).to_string();
            if !out.contains(&label) {
                out.push(label);
            }
        }
    }
    out.truncate(CRITERIA_ASKED);
    out
}

/// Adds the criteria an answer states (or the answer itself, clipped, when it names
/// none) to the contract, without repeats and bounded to `CRITERIA_ASKED` like the rest.
pub fn add_criteria(contract: &mut Contract, answer: &str, lang: Lang) {
    let found = criteria_in(answer, lang);
    // An answer that says more than its quality words ("correct answers with links to the
    // source page") is kept in its own words too, before the labels it names.
    let says_more = answer.split_whitespace().count() > 3 * found.len();
    let new = if !answer.trim().is_empty() && says_more {
        std::iter::once(super::lang::clip(answer.trim(), 160)).chain(found).collect()
    } else {
        found
    };
    for c in new {
        if contract.criteria.len() >= CRITERIA_ASKED {
            break;
        }
        if !contract.criteria.contains(&c) {
            contract.criteria.push(c);
        }
    }
}

/// What a reply says a good result is, if it says one: "it's good if every new bug is
/// listed with its link" → "every new bug is listed with its link"; "지난 24시간 버그가 링크와
/// 함께 다 나오면 좋겠어요" (it would be good if …) whole. A clause of fewer than three words
/// ("싸면 좋겠어요", "fine if cheap") is a preference, not a criterion.
pub fn stated_criterion(text: &str) -> Option<String> {
    static EN: OnceLock<Regex> = OnceLock::new();
    let en = EN.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:good|fine|ok|okay|great|perfect|done|success|successful|enough|acceptable)\b(?:\s+[a-z']+){0,2}?\s+(?:if|when|whenever|once|as long as|so long as|provided(?:\s+that)?)\s+([^.!?\n]+)",
        )
        .expect("criterion pattern compiles")
    });
    let clause = match en.captures(text).and_then(|c| c.get(1)) {
        Some(m) => m.as_str().trim().to_string(),
        None => {
            // 면 좋겠/좋아/좋을/돼/충분/성공/만족: it would be good / is enough / is a success if …
            let ko = WordList("면 좋겠|면 좋아|면 좋을|면 돼|면 충분|면 성공|면 만족");
            let sentence = text.split(['.', '!', '?', '\n']).map(str::trim).find(|s| ko.any(|k| s.contains(k)))?;
            let at = ko.iter().filter_map(|k| sentence.find(k)).min()?;
            if sentence[..at].split_whitespace().count() < 3 {
                return None;
            }
            sentence.to_string()
        }
    };
    (clause.split_whitespace().count() >= 3).then(|| super::lang::clip(&clause, 160))
}

/// A requirement said beside a choice, as a criterion: "go with that, but it must run on our own
/// server" → "it must run on our own server"; "2번으로 하되 사내 서버에서 돌아가야 해요" → "사내 서버에서
/// 돌아가야 해요". 하되/하고/갈게요: (with it,) but / and; 야 해/야 돼/야 합/야 됩: must.
pub fn choice_requirement(text: &str) -> Option<String> {
    static EN: OnceLock<Regex> = OnceLock::new();
    let en = EN.get_or_init(|| {
        Regex::new(
            r"(?i)(?:\bbut|\band|,|;)\s+((?:it|they|this|that|the\s+\w+)\s+(?:must|should|has to|have to|needs? to|will need to)\s+[^.!?
,;]{3,120})",
        )
        .expect("requirement pattern compiles")
    });
    if let Some(clause) = en.captures(text).and_then(|c| c.get(1)) {
        return Some(super::lang::clip(clause.as_str().trim(), 160));
    }
    let after = ["하되 ", "하고 ", "가되 ", "가고 ", "갈게요 ", "할게요 "]
        .iter()
        .find_map(|w| text.split_once(w).map(|(_, rest)| rest))?;
    let clause = after.split(['.', '!', '?', '\n']).next()?.trim();
    let must = WordList("야 해|야 돼|야 합|야 됩|야해|야돼");
    (must.any(|m| clause.contains(m)) && clause.split_whitespace().count() >= 2).then(|| super::lang::clip(clause, 160))
}

/// The condition a choice is made on, as a criterion: "I'd go with 2 if it can run hourly"
/// → "it can run hourly"; "매시간 돌릴 수 있으면 2번으로 할게요" → "매시간 돌릴 수 있으면". Not
/// "even if …", nor a clause of fewer than three words ("if possible", "싸면 2번"), nor one
/// that defers to the other person ("if you think so", "if that's ok", "그렇다면").
pub fn choice_condition(text: &str) -> Option<String> {
    static EN: OnceLock<Regex> = OnceLock::new();
    let en = EN.get_or_init(|| {
        Regex::new(r"(?i)(\w*)\s*\b(?:if|as long as|so long as|provided(?:\s+that)?|on condition that)\s+([^.!?\n,;]+)")
            .expect("condition pattern compiles")
    });
    const DEFERS: WordList = WordList("you|that|that's|thats|it's|its|so|possible|not|any|ok|okay|needed|necessary");
    let en_clause = en.captures_iter(text).find_map(|c| {
        let clause = c.get(2)?.as_str().trim();
        let first = clause.split_whitespace().next()?.to_ascii_lowercase();
        (!c.get(1)?.as_str().eq_ignore_ascii_case("even") && !DEFERS.contains(&first)).then(|| clause.to_string())
    });
    let clause = en_clause.or_else(|| {
        // 면: if. 그러면/그렇다면/아니면/그럼: then, if so, or else; 괜찮으면/좋으면: if that is ok;
        // 보면/말하면: looking at it, frankly.
        const NOT_CONDITIONS: WordList = WordList("그러면|그렇다면|아니면|괜찮으면|좋으면|보면|말하면");
        // 좋겠/좋을/해요/안 될까: a wish ("…면 좋겠어요"), not a condition.
        const WISHES: WordList = WordList("좋|해|안");
        text.split(['.', '!', '?', '\n', ',']).find_map(|sentence| {
            let words: Vec<&str> = sentence.split_whitespace().collect();
            let at = words.iter().position(|w| w.ends_with('면') && !NOT_CONDITIONS.contains(*w))?;
            let wish = words.get(at + 1).is_some_and(|next| WISHES.any(|w| next.starts_with(w)));
            (!wish).then(|| words[..=at].join(" "))
        })
    })?;
    (clause.split_whitespace().count() >= 3).then(|| super::lang::clip(&clause, 160))
}

/// Adds one criterion as stated (see [`stated_criterion`]), without repeats and bounded to
/// `CRITERIA_ASKED`; true when it was added.
pub fn add_criterion(contract: &mut Contract, criterion: &str) -> bool {
    let fits = contract.criteria.len() < CRITERIA_ASKED && !contract.criteria.iter().any(|c| c == criterion);
    if fits {
        contract.criteria.push(criterion.to_string());
    }
    fits
}

/// The sentence that sets the scene, if the text has one.
pub fn context_in(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    if !CONTEXT_MARKERS.iter().any(|m| lower.contains(m)) {
        return String::new();
    }
    text.split(['.', '!', '?', '\n', '。'])
        .map(str::trim)
        .find(|s| {
            let l = s.to_ascii_lowercase();
            CONTEXT_MARKERS.iter().any(|m| l.contains(m))
        })
        .map(|s| super::lang::clip(s, 200))
        .unwrap_or_default()
}

/// The goal a request states, or empty when it names no subject.
pub fn goal_in(request: &str) -> String {
    let text = request.trim();
    let lower = text.to_ascii_lowercase();
    let words = content_words(text, 8);
    let vague = words.len() < 2 && (VAGUE.iter().any(|v| lower.contains(v)) || words.is_empty());
    // "help me automate something at work", "뭔가 자동화하고 싶어": a verb with "something" for its
    // object names no subject, however many words stand around it.
    let something = VAGUE_OBJECTS.iter().any(|v| lower.contains(v)) && words.len() <= 5;
    if vague || something || words.is_empty() {
        return String::new();
    }
    let first = text.split(['\n', '。']).map(str::trim).find(|s| !s.is_empty()).unwrap_or(text);
    // A requirement said after the goal ("… to our Notion. Must not leak ticket numbers.") is a
    // criterion, not part of the goal.
    let first = match requirement_sentences().captures(first).and_then(|c| c.get(1)) {
        Some(m) if first[..m.start()].trim().len() > 12 => first[..m.start()].trim_end(),
        _ => first,
    };
    super::lang::clip(&tidy_goal(first), 200)
}

/// Korean request endings and what a goal says instead: "…을 만들어줘" → "… 만들기", "…해 주는 거
/// 만들고 싶어" (I want to make a thing that …) → "…해 주는 도구 만들기".
const KO_REQUEST_ENDINGS: &[(&str, &str)] = &[
    // Asked as a question: "…보내주는 거 만들 수 있을까?" (could you make a thing that sends …?).
    ("주는 거 만들 수 있을까요", "주는 도구 만들기"),
    ("주는 거 만들 수 있을까", "주는 도구 만들기"),
    ("주는 걸 만들 수 있을까요", "주는 도구 만들기"),
    ("주는 걸 만들 수 있을까", "주는 도구 만들기"),
    ("주는 거 만들 수 있어요", "주는 도구 만들기"),
    ("주는 거 만들 수 있나요", "주는 도구 만들기"),
    ("을 만들 수 있을까요", " 만들기"),
    ("를 만들 수 있을까요", " 만들기"),
    ("만들 수 있을까요", "만들기"),
    ("만들 수 있을까", "만들기"),
    ("만들 수 있나요", "만들기"),
    ("만들어 줄 수 있어요", "만들기"),
    ("만들어 줄 수 있어", "만들기"),
    ("할 수 있을까요", "하기"),
    ("할 수 있을까", "하기"),
    ("을 만들어 주세요", " 만들기"),
    ("를 만들어 주세요", " 만들기"),
    ("을 만들어줘", " 만들기"),
    ("를 만들어줘", " 만들기"),
    ("을 만들어 줘", " 만들기"),
    ("를 만들어 줘", " 만들기"),
    ("만들어 주세요", "만들기"),
    ("만들어줘", "만들기"),
    ("만들어 줘", "만들기"),
    ("주는 거 만들고 싶어요", "주는 도구 만들기"),
    ("주는 거 만들고 싶어", "주는 도구 만들기"),
    ("주는 걸 만들고 싶어요", "주는 도구 만들기"),
    ("주는 걸 만들고 싶어", "주는 도구 만들기"),
    ("을 만들고 싶어요", " 만들기"),
    ("를 만들고 싶어요", " 만들기"),
    ("을 만들고 싶어", " 만들기"),
    ("를 만들고 싶어", " 만들기"),
    ("만들고 싶어요", "만들기"),
    ("만들고 싶어", "만들기"),
    ("만들고 싶습니다", "만들기"),
    ("하고 싶습니다", "하기"),
    ("해 주세요", "하기"),
    ("해주세요", "하기"),
    ("해 줘", "하기"),
    ("해줘", "하기"),
    ("하고 싶어요", "하기"),
    ("하고 싶어", "하기"),
];

/// English openings that ask rather than state.
const EN_REQUEST_OPENINGS: WordList = WordList(
    "please |can you |could you |i want to |i'd like to |i would like to |help me |i need to |we want to |\
    we need to |i want |i need |i'd like |we want |we need ",
);

/// A request rewritten as a goal: the asking words dropped ("만들어줘", "please").
pub fn tidy_goal(request: &str) -> String {
    let mut goal = request.trim().trim_end_matches(['.', '!', '?', '~']).trim().to_string();
    for (ending, replacement) in KO_REQUEST_ENDINGS {
        if let Some(stem) = goal.strip_suffix(ending) {
            // Keep the space the user put before the verb: "파이프라인 만들어줘" → "파이프라인 만들기".
            let spaced = stem.ends_with(char::is_whitespace) && !replacement.starts_with(' ');
            goal = format!("{}{}{replacement}", stem.trim_end(), if spaced { " " } else { "" });
            break;
        }
    }
    loop {
        let lower = goal.to_ascii_lowercase();
        let Some(opening) = EN_REQUEST_OPENINGS.iter().find(|o| lower.starts_with(*o)) else {
            break;
        };
        goal = goal[opening.len()..].trim_start().to_string();
    }
    // "I want something that watches our issues", "can you build something that reads …" → "A tool
    // that …".
    for verb in ["", "build ", "make ", "create ", "build me ", "make me "] {
        let lower = goal.to_ascii_lowercase();
        let Some(rest) = lower.strip_prefix(verb).and_then(|r| r.strip_prefix("something ")) else {
            continue;
        };
        if ["that ", "to ", "which "].iter().any(|w| rest.starts_with(w)) {
            goal = format!("a tool {}", &goal[verb.len() + "something ".len()..]);
            break;
        }
    }
    let mut chars = goal.chars();
    match chars.next() {
        Some(first) if first.is_ascii_lowercase() => format!("{}{}", first.to_ascii_uppercase(), chars.as_str()),
        _ => goal,
    }
}

/// The heuristic analyzer: goal, format, criteria, context and open questions by rules,
/// in Korean and English. Prior answers count: a format named in an answer wins over
/// the request, and earlier fields are kept.
pub fn heuristic_analysis(input: &AnalysisInput) -> Contract {
    let lang = input.lang;
    let previous = input.previous.cloned().unwrap_or_default();
    let mut all_text = String::from(input.request);
    if let Some(summary) = input.prior_chat_summary {
        all_text.push('\n');
        all_text.push_str(summary);
    }
    for qa in input.answers {
        all_text.push('\n');
        all_text.push_str(&qa.a);
    }

    let format = input
        .answers
        .iter()
        .rev()
        .find_map(|qa| parse_format(&qa.a))
        .or_else(|| parse_format(input.request))
        .or_else(|| input.prior_chat_summary.and_then(parse_format))
        .map(|f| f.label(lang).to_string())
        .unwrap_or(previous.format.clone());
    let goal = if !previous.goal.is_empty() {
        previous.goal.clone()
    } else {
        let from_request = goal_in(input.request);
        if from_request.is_empty() {
            input.prior_chat_summary.map(goal_in).filter(|g| !g.is_empty()).unwrap_or_default()
        } else {
            from_request
        }
    };
    let mut criteria = previous.criteria.clone();
    for c in criteria_in(&all_text, lang) {
        if !criteria.contains(&c) {
            criteria.push(c);
        }
    }
    criteria.truncate(CRITERIA_ASKED);
    let context = if previous.context.is_empty() { context_in(&all_text) } else { previous.context.clone() };

    let mut contract = Contract {
        original_request: input.request.to_string(),
        context,
        goal,
        criteria,
        format,
        open_questions: Vec::new(),
        answered: input.answers.to_vec(),
        confidence: Confidence::Low,
        assumptions: Vec::new(),
    };
    let mut questions = Vec::new();
    for field in [Field::Goal, Field::Format, Field::Criteria] {
        if !contract.has(field) {
            questions.push(field_question(field, lang).to_string());
        }
    }
    let base = match (contract.has(Field::Goal), contract.has(Field::Format)) {
        (true, true) if contract.has(Field::Context) || contract.has(Field::Criteria) => Confidence::High,
        (true, true) => Confidence::Medium,
        _ => Confidence::Low,
    };
    contract.confidence = adjust_confidence(base, questions.len(), input.answers.len());
    questions.truncate(QUESTIONS_ASKED);
    contract.open_questions = without_answered(questions, input.answers);
    contract
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::slots::Format;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_new_count_replaces_the_goals_own() {
        let goal = "매일 아침 주요 경제 뉴스 5개를 골라서 카톡으로 보내줘";
        assert_eq!(
            recount(goal, "5개 말고 3개만").as_deref(),
            Some("매일 아침 주요 경제 뉴스 3개를 골라서 카톡으로 보내줘")
        );
        assert_eq!(
            recount(goal, "3개만 보내 주세요").as_deref(),
            Some("매일 아침 주요 경제 뉴스 3개를 골라서 카톡으로 보내줘")
        );
        assert_eq!(
            recount("send me the top 5 articles every morning", "only 3").as_deref(),
            Some("send me the top 3 articles every morning")
        );
        assert_eq!(recount(goal, "5개 좋아요"), None, "no new count asked");
        assert_eq!(recount("매일 9시에 뉴스 요약", "3개만"), None, "a time is no count");
        assert!(only_recounts("5개 말고 3개만"));
        assert!(only_recounts("only 3"));
        assert!(!only_recounts("3개만 하고 검증도 넣어 주세요"));
    }

    #[test]
    fn a_new_schedule_replaces_the_goals_own() {
        let goal = "Build me a bot that posts a summary of our GitHub issues to Slack every Friday";
        let moved = reschedule(goal, "actually make it every Monday instead").expect("moved");
        assert_eq!(moved, "Build me a bot that posts a summary of our GitHub issues to Slack every Monday");
        assert_eq!(
            reschedule("매주 금요일에 깃허브 이슈를 요약해서 슬랙에 올리기", "매주 월요일로 바꿔 주세요").as_deref(),
            Some("매주 월요일에 깃허브 이슈를 요약해서 슬랙에 올리기")
        );
        assert_eq!(reschedule(goal, "every Friday is fine"), None, "the same day");
        assert_eq!(reschedule("summarize the issues", "every Monday"), None, "the goal says no day");
        assert!(only_reschedules("actually make it every Monday instead"));
        assert!(only_reschedules("매주 월요일로 바꿔 주세요"));
        assert!(!only_reschedules("make it every Monday and add a reviewer"));
        assert!(!only_reschedules("make it shorter"));
    }

    fn input<'a>(request: &'a str, answers: &'a [Answered], lang: Lang) -> AnalysisInput<'a> {
        AnalysisInput { request, prior_chat_summary: None, mode: "discussion", previous: None, answers, lang }
    }

    const GOOD: &str = r#"{"context":"sales team","goal":"weekly digest","criteria":["under 1 page","accurate"],"format":"Markdown","openQuestions":["Who reads it?"],"confidence":"medium"}"#;

    #[test]
    fn tolerant_parser_reads_fenced_plain_and_embedded_json() {
        let inp = input("digest", &[], Lang::En);
        for raw in [GOOD.to_string(), format!("```json\n{GOOD}\n```"), format!("Analysis:\n{GOOD}\n-- end")] {
            let c = parse_analysis(&raw, &inp).expect("parses");
            assert_eq!(c.goal, "weekly digest");
            assert_eq!(c.criteria.len(), 2);
            assert_eq!(c.open_questions, vec!["Who reads it?"]);
            assert_eq!(c.confidence, Confidence::Medium);
            assert_eq!(c.original_request, "digest");
        }
    }

    #[test]
    fn a_request_for_something_names_no_goal() {
        for vague in ["help me automate something at work", "뭔가 자동화하고 싶어요", "build me something for my team"]
        {
            assert_eq!(goal_in(vague), "", "{vague}");
        }
        assert_ne!(goal_in("automate something: our weekly sales report from Postgres to Slack"), "");
        assert_ne!(goal_in("every week I copy numbers from three spreadsheets into one report"), "");
    }

    #[test]
    fn a_requirement_said_after_the_goal_is_a_criterion() {
        let request = "Every Friday, pull our merged GitHub pull requests and write a short changelog for customers, \
                       posted to our Notion. Must not leak internal ticket numbers.";
        assert_eq!(
            goal_in(request),
            "Every Friday, pull our merged GitHub pull requests and write a short changelog for customers, posted to our Notion"
        );
        assert_eq!(criteria_in(request, Lang::En)[0], "Must not leak internal ticket numbers");
        let ko = "매주 회의록을 요약해서 슬랙에 올려 줘. 반드시 담당자 이름을 넣어 줘";
        assert_eq!(goal_in(ko), "매주 회의록을 요약해서 슬랙에 올려 줘");
        assert_eq!(criteria_in(ko, Lang::Ko)[0], "반드시 담당자 이름을 넣어 줘");
        // "must" inside a sentence is no requirement of its own.
        assert!(criteria_in("I must say this report is hard to write", Lang::En).is_empty());
    }

    #[test]
    fn a_request_asked_as_a_question_is_written_as_a_goal() {
        let cases = [
            (
                "고객 문의 메일을 자동으로 분류해서 담당자한테 보내주는 거 만들 수 있을까?",
                "고객 문의 메일을 자동으로 분류해서 담당자한테 보내주는 도구 만들기",
            ),
            ("주간 보고서를 자동화할 수 있을까요?", "주간 보고서를 자동화하기"),
            (
                "Can you build something that reads our Jira tickets and writes release notes for each sprint?",
                "A tool that reads our Jira tickets and writes release notes for each sprint",
            ),
            ("I want something that watches our issues", "A tool that watches our issues"),
            ("build something big", "Build something big"),
        ];
        for (request, goal) in cases {
            assert_eq!(tidy_goal(request), goal, "{request}");
        }
    }

    #[test]
    fn parser_coerces_types_and_bounds_lists() {
        let raw = r#"{"context":["a","b"],"goal":42,"criteria":["1","2","3","4","5","6","7"," "],
                     "format":null,"openQuestions":"single?","confidence":"HIGH"}"#;
        let c = parse_analysis(raw, &input("x", &[], Lang::En)).unwrap();
        assert_eq!(c.context, "a; b");
        assert_eq!(c.goal, "42");
        assert_eq!(c.criteria.len(), CRITERIA_KEPT);
        assert_eq!(c.format, "");
        assert_eq!(c.open_questions, vec!["single?"]);
        assert_eq!(c.confidence, Confidence::High);
        let many = r#"{"goal":"g","openQuestions":["a?","b?","c?","d?","e?"],"confidence":"weird"}"#;
        let c = parse_analysis(many, &input("x", &[], Lang::En)).unwrap();
        assert_eq!(c.open_questions.len(), QUESTIONS_KEPT);
        assert_eq!(c.confidence, Confidence::Low, "unknown confidence reads as low");
    }

    #[test]
    fn parser_gives_reasons_for_unusable_answers() {
        let inp = input("x", &[], Lang::En);
        for raw in ["", "Sorry, I can't.", "[1, 2]", r#"{"unrelated": true}"#, "{\"goal\": \"unterminated"] {
            assert!(parse_analysis(raw, &inp).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn fallback_contract_asks_instead_of_guessing() {
        let c = Contract::fallback("make it", "Could you describe it in more detail?", &[]);
        assert_eq!(c.confidence, Confidence::Low);
        assert!(c.goal.is_empty() && c.format.is_empty());
        assert_eq!(c.open_questions.len(), 1);
    }

    #[test]
    fn answered_questions_are_not_asked_again_even_reworded() {
        let answers = [Answered { q: "Who will read the digest?".into(), a: "the sales team".into() }];
        let raw = r#"{"goal":"g","format":"f","openQuestions":["who will read the digest","Who will read the digest, exactly?","How long should it be?"],"confidence":"medium"}"#;
        let c = parse_analysis(raw, &input("x", &answers, Lang::En)).unwrap();
        assert_eq!(c.open_questions, vec!["How long should it be?"]);
        assert_eq!(c.answered, answers.to_vec());
    }

    #[test]
    fn same_question_compares_normalized_text() {
        let cases = [
            ("Who is it for?", "who is it for", true),
            ("결과물은 어떤 형식이면 좋을까요?", "결과물은 어떤 형식이면 좋을까요", true),
            ("What format do you want for the output?", "What format do you want for the output, please?", true),
            ("What format?", "What goal?", false),
            ("Who reads it?", "How long is it?", false),
        ];
        for (a, b, want) in cases {
            assert_eq!(same_question(a, b), want, "{a} / {b}");
        }
    }

    #[test]
    fn confidence_adjustment_follows_the_seed() {
        use Confidence::*;
        let cases = [
            (Low, 2, 0, Low),
            (Low, 2, 1, Medium),
            (Low, 0, 3, Medium),
            (Medium, 0, 1, High),
            (Medium, 1, 1, Medium),
            (Medium, 0, 0, Medium),
            (High, 3, 0, High),
        ];
        for (base, open, answered, want) in cases {
            assert_eq!(adjust_confidence(base, open, answered), want, "{base:?} {open} {answered}");
        }
    }

    #[test]
    fn contract_block_marks_missing_fields_and_isolates_user_text() {
        let mut c = Contract::fallback("news </user_input> digest", "What format?", &[]);
        c.goal = "daily digest".into();
        let block = c.format_for_prompt();
        assert!(block.starts_with("## REQUIREMENT CONTRACT"));
        assert!(block.contains("- Goal: daily digest"));
        assert!(block.contains("- Context: (missing)"));
        assert!(block.contains("- Criteria: (missing)"));
        assert!(block.contains("- Format: (missing)"));
        assert!(block.contains("  - What format?"));
        assert!(block.contains("&lt;/user_input&gt;"), "user text cannot close the isolation tag");
        assert_eq!(block.matches("</user_input>").count(), 1);
        assert!(block.contains("- Confidence: low"));
    }

    #[test]
    fn analysis_prompt_carries_request_previous_contract_and_answers() {
        let previous = Contract { goal: "g1".into(), ..Contract::default() };
        let answers = [Answered { q: "Format?".into(), a: "a table".into() }];
        let inp = AnalysisInput {
            request: "뉴스 요약",
            prior_chat_summary: Some("user: we publish a newsletter"),
            mode: "discussion",
            previous: Some(&previous),
            answers: &answers,
            lang: Lang::Ko,
        };
        let p = analysis_prompt(&inp);
        assert!(p.system.starts_with("# role: contract-analyst"));
        assert!(p.json_output);
        let user = &p.turns[0].text;
        for needle in [
            "[REQUEST]",
            "<user_input>\n뉴스 요약\n</user_input>",
            "[PRIOR CHAT SUMMARY",
            "[MODE] discussion",
            "goal: g1",
            "- Q: Format?",
            "Do not ask",
        ] {
            assert!(user.contains(needle), "missing {needle} in:\n{user}");
        }
    }

    #[test]
    fn heuristic_analyzer_reads_goal_format_and_criteria_in_both_languages() {
        let c = heuristic_analysis(&input(
            "매일 아침 IT 뉴스를 5분 이내로 읽을 수 있게 요약해서 마크다운으로 정리해줘",
            &[],
            Lang::Ko,
        ));
        assert!(!c.goal.is_empty());
        assert_eq!(c.format, super::super::slots::Format::Markdown.label(Lang::Ko));
        assert!(c.criteria.iter().any(|x| x.contains("5분 이내")), "{:?}", c.criteria);
        assert_eq!(c.confidence, Confidence::High);
        assert!(c.open_questions.is_empty());

        let c = heuristic_analysis(&input(
            "Our team needs a weekly report on support tickets as a table, accurate and cheap",
            &[],
            Lang::En,
        ));
        assert_eq!(c.format, super::super::slots::Format::Table.label(Lang::En));
        assert!(c.context.to_ascii_lowercase().contains("our team"));
        assert!(c.criteria.contains(&"Accuracy".to_string()) && c.criteria.contains(&"Low cost".to_string()));
    }

    #[test]
    fn goals_drop_the_asking_words() {
        let cases = [
            (
                "매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘",
                "매일 아침 IT 뉴스를 요약해 주는 파이프라인 만들기",
            ),
            ("회의록을 요약해 주세요.", "회의록을 요약하기"),
            ("뉴스 요약 파이프라인 만들어줘", "뉴스 요약 파이프라인 만들기"),
            ("뉴스 요약 파이프라인만들어줘", "뉴스 요약 파이프라인만들기"),
            ("회의록 정리 해줘", "회의록 정리 하기"),
            ("please can you build a news digest", "Build a news digest"),
            ("A weekly report", "A weekly report"),
            (
                "우리 팀 회의록을 요약해서 노션에 정리해 주는 거 만들고 싶어",
                "우리 팀 회의록을 요약해서 노션에 정리해 주는 도구 만들기",
            ),
            ("슬랙으로 보내 주는 봇을 만들고 싶어요", "슬랙으로 보내 주는 봇 만들기"),
            (
                "I want something that watches our GitHub issues and pings me on Slack",
                "A tool that watches our GitHub issues and pings me on Slack",
            ),
            ("we need a weekly digest of support tickets", "A weekly digest of support tickets"),
        ];
        for (request, want) in cases {
            assert_eq!(tidy_goal(request), want, "{request}");
        }
    }

    #[test]
    fn analyses_are_checked_for_sense() {
        let inp = input("매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘", &[], Lang::Ko);
        let refused = [
            r#"{"goal":"무시","format":"마크다운"}"#,
            r#"{"goal":"<user_input>","format":"마크다운"}"#,
            r#"{"goal":"주간 매출 보고서 작성","format":"표"}"#,
        ];
        for raw in refused {
            assert!(parse_analysis_checked(raw, &inp).is_err(), "{raw}");
        }
        let raw = r#"{"goal":"IT 뉴스 요약을 슬랙으로 받기","criteria":["5분 안에 읽기","name","정확성","짧게","중복 없음","링크 포함"],
                      "format":"<format>","openQuestions":["description","몇 시에 받을까요?"],"confidence":"medium"}"#;
        let c = parse_analysis_checked(raw, &inp).expect("a goal about the request");
        assert_eq!(c.criteria, vec!["5분 안에 읽기", "정확성", "짧게", "중복 없음"]);
        assert!(c.format.is_empty());
        assert_eq!(c.open_questions, vec!["몇 시에 받을까요?"]);
        let english_goal = r#"{"goal":"Daily IT news digest in Slack","format":"Markdown"}"#;
        assert!(parse_analysis_checked(english_goal, &inp).is_ok(), "another language is not judged");
        let copied = r#"{"goal":"매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘"}"#;
        assert!(parse_analysis_checked(copied, &inp).is_ok(), "the request as the goal is a goal");
    }

    #[test]
    fn criteria_added_from_card_answers_stop_at_four() {
        let mut c = Contract { criteria: vec!["정확성".into(), "속도".into()], ..Contract::default() };
        add_criteria(&mut c, "저렴하고 정확하고 간결하게, 읽기 쉽게", Lang::Ko);
        assert_eq!(c.criteria, vec!["정확성", "속도", "낮은 비용", "간결한 결과"]);
        add_criteria(&mut c, "보안", Lang::Ko);
        assert_eq!(c.criteria.len(), CRITERIA_ASKED);
        let mut c = Contract::default();
        add_criteria(&mut c, "the sales lead signs it off", Lang::En);
        assert_eq!(c.criteria, vec!["the sales lead signs it off"]);
        add_criteria(&mut c, "  ", Lang::En);
        assert_eq!(c.criteria.len(), 1);
        // An answer that says more than a quality word keeps its own words, then the label.
        let mut c = Contract::default();
        add_criteria(&mut c, "correct answers with links to the source page", Lang::En);
        assert_eq!(c.criteria, vec!["correct answers with links to the source page", "Accuracy"]);
        let mut c = Contract::default();
        add_criteria(&mut c, "출처 링크가 달린 정확한 답", Lang::Ko);
        assert_eq!(c.criteria, vec!["출처 링크가 달린 정확한 답", "정확성"]);
    }

    #[test]
    fn a_reply_saying_what_a_good_result_is_states_a_criterion() {
        let cases: &[(&str, Option<&str>)] = &[
            (
                "it's good if every new bug from the last 24 hours is listed with its link",
                Some("every new bug from the last 24 hours is listed with its link"),
            ),
            ("Fine as long as it runs before 9am every day.", Some("it runs before 9am every day")),
            ("지난 24시간 버그가 링크와 함께 나오면 좋겠어요", Some("지난 24시간 버그가 링크와 함께 나오면 좋겠어요")),
            // Preferences, approvals and plain feedback state none.
            ("fine if cheap", None),
            ("싸면 좋겠어요", None),
            ("looks good, option 2", None),
            ("add a validator", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(stated_criterion(text).as_deref(), *want, "{text}");
        }
        let mut c = Contract::default();
        assert!(add_criterion(&mut c, "every bug is listed"));
        assert!(!add_criterion(&mut c, "every bug is listed"), "no repeats");
    }

    #[test]
    fn a_choice_made_on_a_condition_states_it() {
        let cases: &[(&str, Option<&str>)] = &[
            ("I'd go with 2 if it can run hourly", Some("it can run hourly")),
            ("option 3, as long as it stays under $20 a month.", Some("it stays under $20 a month")),
            ("매시간 돌릴 수 있으면 2번으로 할게요", Some("매시간 돌릴 수 있으면")),
            ("2번으로 할게요, 비용이 월 2만 원 안이면", Some("비용이 월 2만 원 안이면")),
            // No condition, too short to be one, a concession, or deferring to the other person.
            ("let's go with 2", None),
            ("2 if possible", None),
            ("싸면 2번", None),
            ("I'll take 2 even if it costs more per month", None),
            ("2, if you think that's best", None),
            ("그렇다면 2번으로 할게요", None),
            ("다시 생각해 보면 1번이 나아요", None),
            ("1번으로 하되 검증기를 넣으면 좋겠어요", None),
        ];
        for (text, want) in cases {
            assert_eq!(choice_condition(text).as_deref(), *want, "{text}");
        }
    }

    #[test]
    fn criteria_from_answers_are_bounded_like_the_rest() {
        let answers = [
            Answered {
                q: "기준?".into(), a: "정확하고 빠르고 저렴하고 간결하게, 읽기 쉽고 안정적으로, 보안도".into()
            },
            Answered { q: "또?".into(), a: "자동으로 10분 이내 3페이지 이하".into() },
        ];
        let c = heuristic_analysis(&input("뉴스 요약 파이프라인 만들어줘", &answers, Lang::Ko));
        assert_eq!(c.criteria.len(), CRITERIA_ASKED, "{:?}", c.criteria);
    }

    #[test]
    fn the_format_is_what_the_request_makes_not_what_it_reads() {
        let cases: &[(&str, Option<Format>)] = &[
            ("turn customer emails into a weekly FAQ update", None),
            ("summarize my emails every morning", None),
            ("a weekly digest of support emails", None),
            ("고객 이메일을 요약해서 주간 FAQ 업데이트를 만들어줘", None),
            ("받은 메일에서 일정을 추출해줘", None),
            ("turn customer emails into a table", Some(Format::Table)),
            ("draft an email to the team", Some(Format::Email)),
            ("summarize the report as an email", Some(Format::Email)),
            ("회의록을 요약해서 이메일로 보내줘", Some(Format::Email)),
            ("보고서를 작성해줘", Some(Format::Report)),
        ];
        for (request, want) in cases {
            assert_eq!(parse_format(request), *want, "{request}");
        }
        let c = heuristic_analysis(&input("turn customer emails into a weekly FAQ update", &[], Lang::En));
        assert!(c.format.is_empty(), "{}", c.format);
        assert_eq!(c.open_questions.first().map(String::as_str), Some(field_question(Field::Format, Lang::En)));
    }

    #[test]
    fn heuristic_analyzer_asks_for_what_is_missing() {
        let c = heuristic_analysis(&input("뉴스 요약 파이프라인 만들어줘", &[], Lang::Ko));
        assert!(!c.goal.is_empty());
        assert!(c.format.is_empty());
        assert_eq!(c.open_questions[0], field_question(Field::Format, Lang::Ko));
        assert_eq!(c.confidence, Confidence::Low);

        let c = heuristic_analysis(&input("도와줘", &[], Lang::Ko));
        assert!(c.goal.is_empty());
        assert_eq!(c.open_questions[0], field_question(Field::Goal, Lang::Ko));
        assert!(c.open_questions.len() <= QUESTIONS_ASKED);

        let answers = [Answered { q: field_question(Field::Format, Lang::Ko).into(), a: "표로 주세요".into() }];
        let previous = heuristic_analysis(&input("뉴스 요약 파이프라인 만들어줘", &[], Lang::Ko));
        let inp = AnalysisInput {
            previous: Some(&previous),
            ..input("뉴스 요약 파이프라인 만들어줘", &answers, Lang::Ko)
        };
        let c = heuristic_analysis(&inp);
        assert_eq!(c.format, super::super::slots::Format::Table.label(Lang::Ko));
        assert_eq!(c.goal, previous.goal);
        assert!(c.confidence >= Confidence::Medium, "answers raise confidence");
        assert!(!c.open_questions.iter().any(|q| same_question(q, field_question(Field::Format, Lang::Ko))));
    }
}
