//! Reading a reply in the debate: which design the user picked or approved, feedback on
//! one or all designs, a question about them, or a request to start over. The seed's
//! keyword rules (`signals`) are the first layer; this module adds the forms people
//! actually use ("1번 안으로 가겠습니다", "option B it is", "the simple one", "3 sounds
//! fine to me"), hedges ("좋긴 한데 …", "looks good but …"), negation and questions.

use super::design::{removal_stretches, AgentSpec, Complexity, DesignProposal, STEP_KINDS};
use super::lang::{is_hangul, with_subject, Lang};
use super::prompt_text::{self, PromptText};
use super::signals::{is_korean_preference, is_satisfied, parse_choice};
use crate::engine::words::WordList;

/// What a debate reply means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The user picked this design (0-based): "2번으로 할게요", "option B it is".
    Choose(usize),
    /// The user approved this design by naming it: "3 sounds fine to me", "C안 좋아요".
    Approve(usize),
    /// The user approved the recommended design by naming it ("추천안으로 가죠", `named`),
    /// or approved without naming any design ("좋아요", "looks good"). Holds the
    /// recommended design when there is one (or the only design).
    ApproveRecommended { design: Option<usize>, named: bool },
    /// A change request or objection, about one design or (None) all of them.
    Feedback(Option<usize>),
    /// A question about the designs, to be answered (not a change request).
    Question(Option<usize>),
    /// The user wants to start the discussion over.
    StartOver,
    /// Nothing to read (empty text).
    Unclear,
}

impl Reading {
    /// The design this reading settles on, if it names one: a choice, a named approval,
    /// or an approval that names the recommendation. A bare "좋아요" names none: as in
    /// seed 000 the user is satisfied, and the confirm step asks which design.
    pub fn picked(self) -> Option<usize> {
        match self {
            Reading::Choose(i) | Reading::Approve(i) => Some(i),
            Reading::ApproveRecommended { design, named: true } => design,
            _ => None,
        }
    }

    /// True when the user is satisfied and wants to settle (a design named or not).
    pub fn is_approval(self) -> bool {
        matches!(self, Reading::Choose(_) | Reading::Approve(_) | Reading::ApproveRecommended { .. })
    }

    /// The dataset's name for the reading's class.
    pub fn class(self) -> &'static str {
        match self {
            Reading::Choose(_) => "choose",
            Reading::Approve(_) => "approve",
            Reading::ApproveRecommended { .. } => "approve_rec",
            Reading::Feedback(_) => "feedback",
            Reading::Question(_) => "question",
            Reading::StartOver => "start_over",
            Reading::Unclear => "unclear",
        }
    }

    /// The dataset's notation: `choose:2`, `approve:3`, `approve_rec`, `feedback:all`,
    /// `feedback:1`, `question`, `question:2`, `start_over` (design numbers 1-based).
    pub fn notation(self) -> String {
        let n = |i: usize| (i + 1).to_string();
        match self {
            Reading::Choose(i) | Reading::Approve(i) => format!("{}:{}", self.class(), n(i)),
            Reading::Feedback(d) => format!("feedback:{}", d.map(n).unwrap_or_else(|| "all".into())),
            Reading::Question(Some(i)) => format!("question:{}", n(i)),
            other => other.class().to_string(),
        }
    }
}

/// What the reader knows of one design: its name, and its complexity when known (which
/// gives it the words "simple", "standard", "advanced", "단순", "표준", "고급").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DesignBrief<'a> {
    pub name: &'a str,
    pub complexity: Option<Complexity>,
    /// Its steps, when known: "the one without validation" tells designs apart by them.
    pub steps: &'a [AgentSpec],
}

/// The briefs of a list of designs, in order.
pub fn briefs(designs: &[DesignProposal]) -> Vec<DesignBrief<'_>> {
    designs.iter().map(|d| DesignBrief { name: &d.name, complexity: Some(d.complexity), steps: &d.agents }).collect()
}

/// Reads a debate reply against designs known only by name.
pub fn read_reply_names(text: &str, names: &[&str], recommended: Option<usize>, lang: Lang) -> Reading {
    let briefs: Vec<DesignBrief> =
        names.iter().map(|name| DesignBrief { name, complexity: None, steps: &[] }).collect();
    read_reply(text, &briefs, recommended, lang)
}

/// Reads a debate reply: start over, question, choice or approval of a design (named
/// by number, ordinal, letter, name or description), approval of the recommended one,
/// or feedback on one or all designs. Never panics; empty text is `Unclear`.
pub fn read_reply(text: &str, designs: &[DesignBrief], recommended: Option<usize>, lang: Lang) -> Reading {
    // The rules read both languages whatever the discussion's language: people mix them.
    let _ = lang;
    let text = text.trim();
    if text.is_empty() {
        return Reading::Unclear;
    }
    let lower = text.to_ascii_lowercase();
    if is_start_over(&lower) {
        return Reading::StartOver;
    }
    let count = designs.len();
    let mut refs = design_refs(text, designs, recommended);
    let question = is_question(text, &lower);
    if question && is_superlative(text, &lower) {
        // "which is the simplest?" asks which design; it does not name one.
        refs.retain(|r| !r.described);
    }
    let mut chosen: Vec<usize> = refs.iter().filter(|r| !r.rejected).map(|r| r.index).collect();
    crate::engine::order::sort_by_key(&mut chosen, |&i| i as u128);
    chosen.dedup();
    let rejected_any = refs.iter().any(|r| r.rejected);
    let single = if chosen.len() == 1 { chosen.first().copied() } else { None };
    let named_recommended = refs.iter().any(|r| r.recommended && !r.rejected);
    let commits = commits(text, &lower);
    // "고급은 너무 비싸고 표준으로 할게요": what turns a design down asks no change of the rest.
    let (text, lower) = without_turned_down(text, lower, &refs);
    let (text, lower) = without_reasons(&text, lower);
    let (text, lower) = without_asides(&text, lower, &refs);
    let text = text.as_str();
    // "the first step should fetch from the API" states a requirement, unless it commits
    // ("we should go with 2").
    let asks_change = |text: &str, lower: &str| has_change(text, lower) || (states_requirement(lower) && !commits);
    let change = asks_change(text, &lower) || asks_part_change(&lower, &refs);

    // "whichever you think is best", "알아서 골라 주세요": the choice is left to the recommendation.
    let open_choice = refs.is_empty() && !change && !text.trim_end().ends_with(['?', '？']);
    if open_choice && delegates(text, &lower) && approval(text, &lower, false) != Polarity::Negative {
        let design = recommended.filter(|r| *r < count);
        return Reading::ApproveRecommended { design, named: design.is_some() };
    }

    if question {
        if change && request_question(text, &lower) {
            return Reading::Feedback(single);
        }
        return Reading::Question(single);
    }

    let polarity = approval(text, &lower, !refs.is_empty());

    if let Some(i) = single {
        if change {
            // "the simple one but without the validator": it has none, so this picks it.
            let absent = without_absent_steps(text, &lower, i, designs);
            if absent.is_some_and(|(t, l)| !asks_change(&t, &l)) {
                return Reading::Choose(i);
            }
            // "2, but email it to me instead": where the result goes, which a choice takes along.
            if says_delivery(text) {
                let (t, l) = without_contrast(text, &lower);
                if !asks_change(&t, &l) {
                    return Reading::Choose(i);
                }
            }
            return Reading::Feedback(Some(i));
        }
        if polarity == Polarity::Negative && !rejected_any {
            return Reading::Feedback(Some(i));
        }
        if named_recommended && refs.iter().filter(|r| !r.rejected).all(|r| r.recommended) {
            return Reading::ApproveRecommended { design: Some(i), named: true };
        }
        if commits || rejected_any {
            return Reading::Choose(i);
        }
        if polarity == Polarity::Positive {
            return Reading::Approve(i);
        }
        if is_bare_reference(&lower, &refs) || has_bare_clause(&lower, &refs) {
            return Reading::Choose(i);
        }
        return Reading::Feedback(Some(i));
    }
    if chosen.is_empty() && rejected_any {
        // "C안은 별로예요": turned down and nothing else named.
        let mut turned_down: Vec<usize> = refs.iter().map(|r| r.index).collect();
        crate::engine::order::sort_by_key(&mut turned_down, |&i| i as u128);
        turned_down.dedup();
        return Reading::Feedback(if turned_down.len() == 1 { turned_down.first().copied() } else { None });
    }
    if chosen.len() > 1 || rejected_any {
        return Reading::Feedback(None);
    }
    // No design named: the seed's keyword rule decides approval, then the wider lists.
    if !change && polarity != Polarity::Negative && (is_satisfied(text) || polarity == Polarity::Positive || commits) {
        let fallback = if count == 1 { Some(0) } else { recommended.filter(|r| *r < count) };
        if polarity == Polarity::Positive || is_satisfied(text) || deictic(text, &lower) {
            return Reading::ApproveRecommended { design: fallback, named: false };
        }
    }
    Reading::Feedback(None)
}

/// The reply with each "is too much" phrase about a design blanked (`too_much_end`), and
/// each description of a design ("the simpler one": a change word that names a design
/// here), as text and lower case; both keep their byte offsets.
fn without_turned_down(text: &str, mut lower: String, refs: &[Ref]) -> (String, String) {
    let mut text = text.to_string();
    for r in refs {
        let too_much = too_much_end(&lower[r.end..]);
        if too_much.is_some() || r.described {
            blank(&mut text, &mut lower, r.start..r.end + too_much.unwrap_or(0));
        }
    }
    (text, lower)
}

/// True when the reply names an output form or one place the result goes ("email it to me",
/// "노션으로").
fn says_delivery(text: &str) -> bool {
    crate::engine::slots::parse_format(text).is_some() || crate::engine::design::new_destination(text).is_some()
}

/// The reply with the English words of contrast blanked ("but", "instead", …), as text and
/// lower case; both keep their byte offsets.
fn without_contrast(text: &str, lower: &str) -> (String, String) {
    let (mut text, mut lower) = (text.to_string(), lower.to_string());
    for word in WordList("but|however|instead|though|rather") {
        while let Some(at) = whole_word_at(&lower, word) {
            blank(&mut text, &mut lower, at..at + word.len());
        }
    }
    (text, lower)
}

/// Where `word` first stands as a whole word in `lower`.
fn whole_word_at(lower: &str, word: &str) -> Option<usize> {
    lower.match_indices(word).map(|(at, _)| at).find(|&at| word_bounded(lower, at, at + word.len()))
}

/// Blanks `span` of a reply in both its text and its lower case, so that both keep their
/// byte offsets (only on character boundaries).
fn blank(text: &mut String, lower: &mut String, span: std::ops::Range<usize>) {
    if text.is_char_boundary(span.start) && text.is_char_boundary(span.end) {
        let spaces = " ".repeat(span.len());
        text.replace_range(span.clone(), &spaces);
        lower.replace_range(span, &spaces);
    }
}

/// The reply with each English reason clause blanked, from "because" or "since" to the
/// clause's end: "the simple one, since it's cheaper" gives a reason, not a change request.
fn without_reasons(text: &str, mut lower: String) -> (String, String) {
    let mut text = text.to_string();
    for link in WordList("because|since|'cause") {
        while let Some(at) = whole_word_at(&lower, link) {
            let rest = &lower[at..];
            let len = rest.find([',', ';', '.', '!', '?']).unwrap_or(rest.len());
            blank(&mut text, &mut lower, at..at + len);
        }
    }
    (text, lower)
}

/// The reply with two kinds of aside blanked (byte offsets kept), so that they are read as
/// neither a change request nor an objection:
/// - "money is no issue", "cost doesn't matter", "budget is not a concern": what the user
///   does not mind ("C, money is no issue" picks C);
/// - a Korean adverb of manner that opens the reply before a design is named ("간단하게
///   1번": simply, number 1). After the design it asks for a change ("1번 간단하게"), and
///   "더 간단하게 1번" (simpler) opens with 더, not the adverb.
fn without_asides(text: &str, mut lower: String, refs: &[Ref]) -> (String, String) {
    let mut text = text.to_string();
    const INDIFFERENT: WordList = WordList(
        "is no issue|is not an issue|isn't an issue|is no concern|is not a concern|isn't a concern|\
         is no problem|is not a problem|isn't a problem|is no object|doesn't matter|does not matter|\
         don't matter|do not matter|doesn't really matter|is not important|isn't important|let's not overthink it|\
         let's not overthink this|don't overthink it|no need to overthink",
    );
    for phrase in INDIFFERENT {
        while let Some(at) = lower.find(phrase).filter(|&at| word_bounded(&lower, at, at + phrase.len())) {
            blank(&mut text, &mut lower, at..at + phrase.len());
        }
    }
    let first = lower.split_whitespace().next().unwrap_or("");
    let at = lower.len() - lower.trim_start().len();
    let end = at + first.len();
    let adverb = is_manner_adverb(first) && !KO_CHANGE.any(|w| first.contains(w));
    if adverb && refs.iter().any(|r| r.start >= end) && refs.iter().all(|r| r.start >= end || r.end <= at) {
        blank(&mut text, &mut lower, at..end);
    }
    (text, lower)
}

/// Reads a reply like [`read_reply`] and says whether the rules settled it: a feedback
/// reading with no change request and no objection in it ("그렇군요", "hmm", "2번 비용은요")
/// is unsettled, and may be given to a model with [`reply_prompt`] when one is configured.
pub fn read_reply_settled(
    text: &str,
    designs: &[DesignBrief],
    recommended: Option<usize>,
    lang: Lang,
) -> (Reading, bool) {
    let reading = read_reply(text, designs, recommended, lang);
    let settled = match reading {
        Reading::Feedback(_) => {
            let lower = text.trim().to_ascii_lowercase();
            has_change(text, &lower) || approval(text, &lower, true) == Polarity::Negative
        }
        Reading::Unclear => false,
        _ => true,
    };
    (reading, settled)
}

/// The prompt for one small call that reads a reply the rules could not settle.
pub fn reply_prompt(text: &str, designs: &[DesignProposal], lang: Lang) -> super::prompt::Prompt {
    let mut lines = vec!["[DESIGNS]".to_string()];
    for (i, d) in designs.iter().enumerate() {
        let mark = if d.recommended { " (recommended)" } else { "" };
        lines.push(format!("{}. {} — {}{mark}", i + 1, d.name, d.complexity.label(Lang::En)));
    }
    lines.push(String::new());
    lines.push("[REPLY]".into());
    lines.push(super::security::isolate(text.trim(), super::security::DEFAULT_TAG));
    let system =
        super::grounding::system_prompt("reply-reader", prompt_text::text(PromptText::ReplyReaderInstructions), lang);
    super::prompt::Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(60)
}

/// Reads the model's answer to [`reply_prompt`]; a design number outside `1..=count` or
/// missing where the kind needs one is an error, so the rules' reading stands.
pub fn parse_reply_reading(raw: &str, count: usize, recommended: Option<usize>) -> Result<Reading, String> {
    let value = super::json::extract_json(raw).map_err(|p| p.reason().to_string())?;
    let kind = super::json::str_field(&value, "kind").to_ascii_lowercase();
    let design = value
        .get("design")
        .and_then(|d| d.as_u64().or_else(|| d.as_str().and_then(|s| s.trim().parse().ok())))
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..=count).contains(n))
        .map(|n| n - 1);
    let needs_design = |r: fn(usize) -> Reading| design.map(r).ok_or_else(|| "no valid design number".to_string());
    match kind.as_str() {
        "choose" => needs_design(Reading::Choose),
        "approve" => needs_design(Reading::Approve),
        "approve_recommended" => {
            // Named only when the model gave the design's number; a bare approval asks which.
            let rec = recommended.filter(|r| *r < count);
            Ok(Reading::ApproveRecommended { design: rec, named: design.is_some() && design == rec })
        }
        "feedback" => Ok(Reading::Feedback(design)),
        "question" => Ok(Reading::Question(design)),
        "start_over" => Ok(Reading::StartOver),
        _ => Err(format!("unknown kind {kind:?}")),
    }
}

// ---- start over ----

/// Asking to begin again, Korean (glossed) and English.
// 처음부터: from the beginning; 다시 시작: start again; 새로 시작: start anew; 리셋: reset; 초기화: reset; 갈아엎: tear it all up;
// 원점: back to square one; 전부 다시: all over again; 다 다시: all over again; 없던 걸로: as if it never happened; 새 요청: a
// new request
const START_OVER: WordList = WordList(
    "처음부터|다시 시작|새로 시작|리셋|초기화|갈아엎|원점|전부 다시|다 다시|\
    없던 걸로|새 요청|start over|start again|start from scratch|from scratch|restart|reset|begin again|\
    square one|scrap everything|scrap it all|scrap all|new request|start fresh|fresh start",
);

fn is_start_over(lower: &str) -> bool {
    // 필요 없/필요는 없/할 필요 (no need to).
    let no_need = WordList("필요 없|필요는 없|할 필요|no need|don't start|dont start|not start|without start");
    START_OVER.iter().any(|k| lower.contains(k)) && !no_need.iter().any(|n| lower.contains(n))
}

// ---- questions ----

/// Korean question endings and words (glossed).
// 나요: polite question ending; 까요: shall / would it; 한가요: is it …?; 는가요: does it …?; 은가요: is it …?; 인가: is it;
// 뭐예요: what is it; 뭐야: what is it; 뭔가요: what is it; 뭐죠: what is it; 어느: which; 어떤 게: which one; 어떤게: which one;
// 뭐가: what; 무엇이: what; 왜: why; 얼마: how much; 차이: difference; 알려: tell me; 설명: explain; 궁금: I wonder; 어떻게: how;
// 맞아요: is that right; 되나: does it work; 있나: is there; 없나: is there not; 건가: is it that
const KO_QUESTION: WordList = WordList(
    "나요|까요|한가요|는가요|은가요|인가|뭐예요|뭐야|뭔가요|뭐죠|어느|\
    어떤 게|어떤게|뭐가|무엇이|왜|얼마|차이|알려|설명|궁금|어떻게|맞아요|되나|있나|없나|건가",
);

/// English openings that ask.
const EN_QUESTION_OPENINGS: WordList = WordList(
    "what|which|why|how|who|where|when|whats|hows|whys|wheres|whos|is |are |does |do |did |\
    can |could |would |will |should |tell me|explain|i wonder|compare|\
    i don't understand|i dont understand|i do not understand|i don't get|i dont get|i'm confused|im confused|\
    i am confused|i'm not sure what|not sure what|i'm not sure which|not sure which",
);

/// True when `text` asks something ("how long would 2 take to build?", "이거 얼마 정도 들어요?").
pub fn asks_something(text: &str) -> bool {
    is_question(text, &text.to_ascii_lowercase())
}

fn is_question(text: &str, lower: &str) -> bool {
    if text.ends_with('?') || text.ends_with('？') {
        return true;
    }
    if !text.chars().any(is_hangul) {
        let mut start = lower.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
        // An opener before the question: "first, tell me …", "ok, which …".
        if let Some((word, rest)) = start.split_once(',') {
            if WordList("first|so|ok|okay|also|then|now|btw|um|hmm|well").contains(word.trim()) {
                start = rest.trim_start();
            }
        }
        // "whatever's fastest" leaves the choice; it asks nothing.
        let opens = |o: &str| {
            start
                .strip_prefix(o)
                .is_some_and(|rest| o.ends_with(' ') || !rest.starts_with(|c: char| c.is_alphanumeric()))
        };
        return EN_QUESTION_OPENINGS.iter().any(opens)
            && !imperative_do(start)
            && !start.starts_with("how about")
            && !start.starts_with("what about adding")
            && !polite_request(start);
    }
    // "슬랙 메시지로 알려 주면 좋겠어요" (let me know by a Slack message) says where the result goes;
    // 로 알려: tell by (a means).
    let asked = text.replace("로 알려", "").replace("로알려", "");
    KO_QUESTION.iter().any(|w| asked.contains(w)) && !text.contains("설명을 추가") && !text.contains("설명 추가")
}

/// "do simple things first", "do the cheap parts first": an order, where "do you …", "do we
/// …" and "do these differ" ask.
fn imperative_do(start: &str) -> bool {
    let Some(rest) = start.strip_prefix("do ") else { return false };
    let next = rest.split_whitespace().next().unwrap_or("");
    !WordList("you|we|i|they|it|he|she|these|those|they're|any|all|both|either|none|u|ya").contains(next)
}

/// "could you add …", "can we drop …": requests worded as questions.
fn polite_request(start: &str) -> bool {
    let openers = WordList(
        "can you |could you |would you |will you |can we |could we |should we |shall we |why not |what if |\
        is it possible to |can it |could it ",
    );
    // "is it possible to make it cheaper?": what follows the opener is asked for, not asked about.
    if openers.iter().find_map(|o| start.strip_prefix(o)).is_some_and(|rest| !asks_about(rest)) {
        return true;
    }
    // "can the summaries be shorter?", "could the email be sent at 7?": a part wished otherwise
    // (where "can the simple one handle 1,000 posts?" asks).
    let subjects = WordList(
        "can the |could the |can these |could these |can those |can they |could they |can each |can our |can my ",
    );
    subjects
        .iter()
        .find_map(|o| start.strip_prefix(o))
        .is_some_and(|rest| rest.split_whitespace().take(5).any(|w| w == "be") && !asks_about(rest))
}

/// A change request worded as a question: "could you add …?", "검증을 추가할 수 있나요?",
/// "검증기를 빼면 안 될까요?".
fn request_question(text: &str, lower: &str) -> bool {
    // 수 있나요/있을까요/있어요 (can you), 주실/줄 수 (could you give), 면 안 될까 (could we not),
    // 면 어떨까/어때 (how about), 면 좋을까 (would it be good to), 줄래/주시겠 (will you).
    const KO: WordList = WordList(
        "수 있나요|수 있을까|수 있어요|수 있어?|주실 수|줄 수|면 안 될까|면 안될까|\
        면 어떨까|면 어때|면 좋을까|줄래|주시겠",
    );
    // Any clause may be the request: "the standard one looks right, but can we skip the validator?"
    let clause_request = lower.split([',', ';', '.']).flat_map(|c| c.split(" but ")).any(|clause| {
        let mut start = clause.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
        for joiner in ["but ", "and ", "so ", "also ", "then ", "though "] {
            start = start.strip_prefix(joiner).unwrap_or(start);
        }
        polite_request(start)
    });
    KO.iter().any(|k| text.contains(k)) || clause_request
}

/// A question that asks about the designs rather than for a change: "which is cheaper",
/// "what does B cost", "어느 게 더 싸요".
fn asks_about(lower: &str) -> bool {
    let en = WordList(
        "which|what is|what's|what does|how much|how many|why is|why does|difference|is it|is the|is there|are they|\
        does it|do they|explain|tell me",
    );
    // 어느/어떤 게/뭐가 (which), 얼마 (how much), 차이 (difference), 왜 (why), 뭐예요/뭔가요 (what is it),
    // 알려 (tell me), 설명해 (explain), 궁금 (I wonder).
    let ko = WordList("어느|어떤 게|어떤게|뭐가|얼마|차이|왜|뭐예요|뭔가요|알려|설명해|궁금");
    en.iter().any(|w| lower.contains(w)) || ko.iter().any(|w| lower.contains(w))
}

// ---- change requests and hedges ----

/// Korean words that make a reply a change request or a hedge (glossed).
// 근데: but; 하지만: however; 그런데: but; 다만: except that; 는데: … but (좋은데, 괜찮은데); 지만: … but (좋지만); 긴
// 한데: it is … but; 긴 하지만: it is … but; 대신: instead; 바꿔: change it; 바꾸: change; 변경: change; 추가: add;
// 넣어: put in; 넣으: put in; 빼: drop; 없애: remove; 줄여: reduce; 줄이: reduce; 늘려: increase; 늘리: increase; 수정:
// revise; 고쳐: fix; 보완: supplement; 강화: strengthen; 합쳐: merge; 섞어: mix; 면 좋겠: it would be nice if; 했으면:
// I wish; 으면 해: I'd like it to; 면 해요: I'd like it to; 필요해: … is needed; 필요합: … is needed; 너무: too (much);
// 걱정: worried; 부족: lacking; 비싸: expensive; 느려: slow; 복잡해: complicated; 병렬: in parallel
const KO_CHANGE: WordList = WordList(
    "근데|하지만|그런데|다만|는데|지만|긴 한데|긴 하지만|대신|바꿔|바꾸|변경|추가|넣어|넣으|빼|없애|줄여|줄이|늘려|\
    늘리|수정|고쳐|보완|강화|합쳐|섞어|면 좋겠|했으면|으면 해|면 해요|필요해|필요합|너무|걱정|부족|비싸|느려|복잡해|병렬",
);

/// What 너무 (too, and colloquially "so") praises after it: 좋 (good), 마음/맘 (liked), 괜찮 (fine),
/// 멋 (nice), 훌륭 (great), 완벽 (perfect), 깔끔 (neat). "너무 좋아요" is "so good".
const SO_GOOD: WordList = WordList("좋|마음|맘|괜찮|멋|훌륭|완벽|깔끔");

fn has_change(text: &str, lower: &str) -> bool {
    let praise = |at: usize| SO_GOOD.any(|w| text[at + "너무".len()..].trim_start().starts_with(w));
    let changes = |m: &str| match m {
        "너무" => text.match_indices(m).any(|(at, _)| !praise(at)),
        _ => text.contains(m),
    };
    if KO_CHANGE.iter().any(changes) || makes_it_so(text) {
        return true;
    }
    const EN: WordList = WordList(
        "but|however|though|although|except|instead|add|remove|drop|change|replace|\
        swap|reduce|increase|cut|include|without|merge|combine|lower|improve|needs|need|too|cheaper|\
        faster|simpler|fewer|more|less|shorter|longer|smaller|briefer|concise|quicker|clearer|tweak|adjust|worried|\
        concerned|missing|lacks|expensive|slow|make|\
        use|skip|wish|prefer it|parallel|parallelize|concurrently",
    );
    let words = ascii_words(lower);
    if words.iter().any(|w| EN.contains(w.as_str())) {
        // "I'd rather go with B", "more or less fine" and "use B" choose, they do not change.
        let benign = WordList(
            "rather go|let's use|lets use|we'll use|we will use|i'll use|use option|use design|use plan|use the|\
            more or less",
        );
        let hits = words.iter().filter(|w| EN.contains(w.as_str())).count();
        let uses_only = words.iter().filter(|w| EN.contains(w.as_str())).all(|w| w == "use" || w == "more");
        return !(hits > 0 && uses_only && benign.iter().any(|b| lower.contains(b)));
    }
    false
}

/// "간단하게 해 주세요" (make it simple), "싸게 만들어 줘" (make it cheap): an adverb of manner
/// (a Hangul word ending in 게) followed by a verb of making asks for a change, even with the
/// 주세요 that otherwise commits. Not the adverbs that point ("그렇게 해 주세요": do it that way)
/// and not 하게 ("2번으로 하게 해 주세요": let me take 2): see [`is_manner_adverb`].
fn makes_it_so(text: &str) -> bool {
    // 해/할: do/make ("더 싸게 할 수 있나요?"); 만들: make; 바꿔/바꾸: change into; 고쳐: fix into.
    const MAKE: WordList = WordList("해|할|만들|바꿔|바꾸|고쳐");
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).any(|pair| {
        is_manner_adverb(pair[0].trim_start_matches(|c: char| !is_hangul(c))) && MAKE.any(|m| pair[1].starts_with(m))
    })
}

/// A Korean adverb of manner: a Hangul word ending in 게 ("간단하게", "싸게"), but not one that
/// points ("그렇게": that way) nor 하게/되게 (the verb itself, or "very").
fn is_manner_adverb(word: &str) -> bool {
    const POINTING: WordList = WordList("하게|되게|이렇게|그렇게|저렇게|요렇게|어떻게");
    word.ends_with('게') && word.chars().count() >= 2 && word.chars().all(is_hangul) && !POINTING.contains(word)
}

/// English words that state what something must do: "should", "must", "has to".
fn states_requirement(lower: &str) -> bool {
    says_any(lower, WordList("should|must|ought to|has to|have to|needs to|need it to"))
}

/// True when the reply says one of the phrases as whole words.
fn says_any(lower: &str, phrases: WordList) -> bool {
    let padded = format!(" {} ", ascii_words(lower).join(" "));
    phrases.iter().any(|w| padded.contains(&format!(" {w} ")))
}

fn ascii_words(lower: &str) -> Vec<String> {
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

// ---- approval and commitment ----

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Polarity {
    Positive,
    Negative,
    Neutral,
}

/// Korean approval words (glossed).
// 좋아: good; 좋네: good; 좋습니다: good; 좋다: good; 좋은 것 같: seems good; 좋을 것 같: would be good; 좋겠어요:
// would be good; 좋겠네: would be good; 괜찮: fine; 마음에 들: I like it; 맘에 들: I like it; 마음에 드: I like it
// (드네요, 드는); 맘에 드: I like it (드네요); 훌륭: excellent; 완벽: perfect; 최고: the best; 딱이: just right; 딱 좋:
// just right; 낫네: better; 나아요: better; 낫겠: would be better; 나을 것: would be better; 나아 보: looks
// better; 나은 것 같: seems better; 동의: agree; 승인: approve; 찬성: in favour; 오케이: okay; 충분: is enough; 무난:
// sound enough; 현실적: realistic; 끌리/끌려: appeals to me; 적당: about right
const KO_APPROVAL: WordList = WordList(
    "좋아|좋네|좋습니다|좋다|좋은 것 같|좋을 것 같|좋겠어요|좋겠네|괜찮|마음에 들|맘에 들|마음에 드|맘에 드|훌륭|완벽|\
    최고|딱이|딱 좋|낫네|나아요|낫겠|나을 것|나아 보|나아보|나은 것 같|동의|승인|찬성|오케이|충분|무난|현실적|끌리|끌려|\
    적당",
);

/// Korean disapproval words (glossed).
// 별로: not really; 싫: dislike; 아닌 것 같: does not seem right; 아니에요: it is not; 나빠: bad; 나쁘: bad; 글쎄: hmm,
// not sure; 모르겠: I don't know; 고민: still thinking; 헷갈: confused; 애매: vague
const KO_DISAPPROVAL: WordList = WordList("별로|싫|아닌 것 같|아니에요|나빠|나쁘|글쎄|모르겠|고민|헷갈|애매");

/// Whether the reply approves, disapproves or neither. `about_a_design` makes "X 게 좋아"
/// an approval of the design named, not a stated preference ("빠른 게 좋아").
fn approval(text: &str, lower: &str, about_a_design: bool) -> Polarity {
    if text.chars().any(is_hangul) {
        if KO_DISAPPROVAL.iter().any(|w| text.contains(w)) {
            return Polarity::Negative;
        }
        let mut any = false;
        for word in KO_APPROVAL {
            for (at, _) in text.match_indices(word) {
                if word.starts_with("좋") && !about_a_design && is_korean_preference(&text[..at]) {
                    continue; // "빠른 게 좋아" states a preference, it approves nothing.
                }
                any = true;
                if ko_negated(&text[..at], &text[at + word.len()..]) {
                    return Polarity::Negative;
                }
            }
        }
        // 네/예/응/넵/넹 (yes), ㅇㅇ (yes, chat), 그래/그래요 (all right) as the reply's first word;
        // 그렇게 해/하/진행/가 (do it that way).
        let first = text.split_whitespace().next().unwrap_or("").trim_matches(|c: char| !is_hangul(c) && c != 'ㅇ');
        any |= WordList("네|예|응|넵|넹|네네|ㅇㅇ|그래|그래요|그럼요").contains(first)
            || WordList("그렇게 해|그렇게 하|그렇게 진행|그렇게 가").iter().any(|w| text.contains(w));
        if any {
            return Polarity::Positive;
        }
    }
    en_approval(lower)
}

/// "안 좋아", "못 …", "괜찮지 않아": a negation right before or after, where a plan's "안"
/// ("C안 좋아요", "2번 안 좋아요"? no: "2번안 좋아요") is not a negation.
fn ko_negated(before: &str, after: &str) -> bool {
    let b = before.trim_end();
    let neg_before = (b.ends_with('안') && !is_plan_noun(b)) || b.ends_with('못') || b.ends_with("안 ");
    // 지 않/지 못/지 마/진 않 (not, cannot, don't), 게 아니 (it is not that).
    // 하지 않 (does not: "충분하지 않아요").
    let tails = WordList("지 않|지않|지 못|지못|지는 않|지 마|진 않|지 않|게 아니|하지 않|하지않|하진 않|하지 못");
    let neg_after = tails.iter().any(|t| after.starts_with(t) || after.trim_start().starts_with(t));
    neg_before || neg_after
}

/// True when `before` ends in a plan noun "…안" (a design: "C안", "2번안", "추천안",
/// "표준안") rather than the negation "안".
pub fn is_plan_noun(before: &str) -> bool {
    let Some(stem) = before.trim_end().strip_suffix('안') else {
        return false;
    };
    let stem_trim = stem.trim_end();
    let glued = stem.len() == stem_trim.len();
    match stem_trim.chars().last() {
        Some(c) if c.is_ascii_alphanumeric() => {
            // "C안", "C 안", "2안"; a spaced form only after a lone letter or digit.
            glued || stem_trim.chars().rev().nth(1).is_none_or(|p| !p.is_ascii_alphanumeric())
        }
        // 번 (number), 째 (ordinal), 천 (추천 recommended), 준 (표준 standard), 순 (단순 simple),
        // 급 (고급 advanced), 종 (최종 final), 정 (수정 revised), 초 (초안 draft), 증 (검증 validated)
        Some(c) => glued && "번째천준순급종정초증".contains(c),
        None => false,
    }
}

/// English words that negate what follows them.
const EN_NEGATIONS: WordList = WordList(
    "not|no|never|nope|nah|don't|dont|doesn't|doesnt|isn't|isnt|aren't|won't|wouldn't|can't|cant|hardly|nor|neither",
);

fn en_approval(lower: &str) -> Polarity {
    let words = ascii_words(lower);
    const GOOD: WordList = WordList(
        "ok|okay|good|great|fine|nice|perfect|excellent|solid|works|love|like|\
        lgtm|best|better|agree|agreed|approve|approved|awesome|fantastic|sensible|reasonable|right|\
        brilliant|cool|yes|yep|yeah|sure|winner|ideal|enough|suffices|sense|happy|ship",
    );
    const BAD: WordList = WordList("bad|worse|worst|hate|dislike|awful|terrible|unsure|meh|wrong");
    if words.iter().any(|w| BAD.contains(w)) || lower.contains("not sure") || lower.contains("not a fan") {
        return Polarity::Negative;
    }
    let mut any = false;
    for (i, w) in words.iter().enumerate() {
        if GOOD.contains(w.as_str()) {
            // "not good", and "happy with neither".
            let after = words.iter().skip(i + 1).take(2);
            if words[i.saturating_sub(3)..i].iter().any(|p| EN_NEGATIONS.contains(p))
                || after.clone().any(|w| WordList("neither|none|nothing").contains(w.as_str()))
            {
                return Polarity::Negative;
            }
            // "it's good if every bug is listed" states what a good result is; it approves nothing.
            if crate::engine::signals::conditional_follows(&words[i + 1..]) {
                continue;
            }
            any = true;
        }
    }
    // "the simple one will do", "that'll do".
    let will_do = words.len() >= 2
        && words[words.len() - 1] == "do"
        && WordList("will|would|it'll|that'll|that'd|it'd|one'll").contains(words[words.len() - 2].as_str());
    if any || will_do {
        Polarity::Positive
    } else {
        Polarity::Neutral
    }
}

/// Words that commit to a design (glossed): "할게요", "가자", "go with", "it is".
fn commits(text: &str, lower: &str) -> bool {
    // 할게: I'll do; 할께: I'll do (common misspelling); 하겠: I will; 갈게: I'll go; 가겠: I will go; 가자: let's go;
    // 가죠: let's go; 갑시다: let's go; 가요: let's go; 하자: let's do; 합시다: let's do; 하죠: let's do; 로 해요: let
    // us do it (with that one); 선택: choose; 결정: decide; 정했: decided; 확정: settle; 채택: adopt; 진행: proceed;
    // 이걸로: with this; 그걸로: with that; 걸로: with that one; 쓸게: I'll use; 쓰자: let's use; 주세요: please (give
    // me); 원해: I want; 고를게: I'll pick; 골랐: picked; 찍을게: I'll pick; 마음에 들: I like it (picks it); 맘에 들:
    // I like it (picks it); 마음에 드: I like it (picks it; 드네요); 맘에 드: I like it (picks it; 드네요); 으로요:
    // (with) that one, please; 로요: (with) that one, please; ㄱㄱ/고고: go go (chat shorthand); 로 해줘/로 해 줘:
    // do it with that one; 로 부탁: that one, please; 할래: I'll do; 해볼게/해 볼게: I'll try; 가보죠/가 보죠/가볼게/
    // 가 볼게: let's try it; 로 하고/로 하되: (going) with that one, and/but …
    const KO: WordList = WordList(
        "할게|할께|하겠|갈게|가겠|가자|가죠|갑시다|가요|하자|합시다|하죠|로 해요|선택|결정|정했|확정|채택|진행|이걸로|\
        그걸로|걸로|쓸게|쓰자|주세요|원해|고를게|골랐|찍을게|마음에 들|맘에 들|마음에 드|맘에 드|으로요|로요|ㄱㄱ|고고|\
        로 해줘|로 해 줘|로 부탁|할래|해볼게|해 볼게|가보죠|가 보죠|가볼게|가 볼게|로 하고|로 하되",
    );
    if KO.iter().any(|w| text.contains(w)) {
        return true;
    }
    const EN: WordList = WordList(
        "go with|going with|goes with|take|pick|choose|chose|select|prefer|want|it is|let's do|lets do|i'll have|\
        settle on|vote for|we'll use|let's use|lets use|i'll use|confirm|decided|decide on|opt for|please|sold on|\
        i'm going|we'll do|do it|run with|move forward|proceed|lock in|go for|going for|go w|going w|try|let's try|\
        i'd say|i say|my vote|vote is|put me down|start with|let's start|wins|way to go|sweet spot|worth it|worth the|\
        rather have|rather go|rather take",
    );
    says_any(lower, EN)
}

/// True when a reply that asks a change of one design also takes it: "3번으로 하되 검증 단계는 빼
/// 주세요", "go with 2 but drop the validator". Stricter than the words that commit a choice
/// ("주세요" and "please" ask for the change itself). 로 하되/로 하고: with that one, but/and; 로 할게/
/// 로 갈게: I'll go with it; 로 가되/로 가고: going with it, but/and; 고를게/골랐: I'll pick, picked; 선택:
/// choose; 로 정/로 결정: settle on.
pub fn picks_with_change(text: &str) -> bool {
    const KO: WordList = WordList(
        "로 하되|로 하고|로 할게|로 갈게|로 가되|로 가고|걸로 하되|고를게|골랐|선택하|선택할|로 정하|로 정할|로 결정",
    );
    const EN: WordList = WordList(
        "go with|going with|i'll take|i will take|i'd take|i'll go|we'll go|let's go|pick|choose|settle on|opt for|\
         go for|going for|i'll use|we'll use|let's use",
    );
    let lower = text.to_ascii_lowercase().replace('’', "'");
    KO.iter().any(|w| text.contains(w)) || says_any(&lower, EN)
}

/// The two designs or more a reply asks to combine ("1번이랑 2번 섞어서 해 주세요", "can you merge 1 and
/// 3?"), in order; empty when it asks no such thing. 섞/합쳐/합친/합치/결합/조합: mix, merge, combine.
pub fn combined(text: &str, designs: &[DesignBrief]) -> Vec<usize> {
    const COMBINE: WordList =
        WordList("섞|합쳐|합친|합치|결합|조합|combine|combining|merge|merging|mix|mixing|hybrid|best of both");
    let lower = text.to_ascii_lowercase();
    if !COMBINE.any(|w| lower.contains(w)) {
        return Vec::new();
    }
    let mut named: Vec<usize> =
        design_refs(text, designs, None).iter().filter(|r| !r.rejected).map(|r| r.index).collect();
    crate::engine::order::sort_by_key(&mut named, |&i| i as u128);
    named.dedup();
    if named.len() < 2 {
        named.clear();
    }
    named
}

/// True when the reply turns the designs down ("다 별로예요", "I don't like any of them").
pub fn turns_down(text: &str) -> bool {
    approval(text, &text.to_ascii_lowercase(), false) == Polarity::Negative
}

/// True when the reply leaves the choice to the assistant: "whichever you think is best", "you
/// pick", "up to you"; 알아서: as you see fit; 아무거나/아무 거나: anything; 골라 주세요/골라줘:
/// pick for me; 정해 주세요/정해줘: decide for me; 맡길게/맡기겠: I leave it to you.
fn delegates(text: &str, lower: &str) -> bool {
    WordList("알아서|아무거나|아무 거나|아무거|골라 주세요|골라주세요|골라 줘|골라줘|정해 주세요|정해주세요|정해 줘|정해줘|맡길게|맡기겠")
        .iter()
        .any(|w| text.contains(w))
        || WordList(
            "whichever you think|whatever you think|you pick|you choose|you decide|up to you|your call|your choice|\
            dealer's choice|surprise me|any one is fine|either is fine|i don't mind which",
        )
        .iter()
        .any(|w| lower.contains(w))
}

/// True when an approval points back at something said before: "go with that", "let's do
/// that one", "그걸로 할게요" (with that one), "그거로 하죠".
pub fn refers_back(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    deictic(text, &lower)
        // 그거/그걸/그것: that; 저거/저걸: that one there
        || WordList("그거|그걸|그것|저거|저걸").iter().any(|w| text.contains(w))
        || WordList("with that|with it|with this|do that|do it|do this|take that|take it|that's the one|that works")
            .iter()
            .any(|w| lower.contains(w))
}

/// "이걸로", "that one": approval pointing at what is shown.
fn deictic(text: &str, lower: &str) -> bool {
    // 이걸로/그걸로/이것으로/그것으로/이거로/그거로/저걸로/저거로 (with this/that one), 그대로/이대로 (as it is).
    WordList("이걸로|그걸로|이것으로|그것으로|이거로|그거로|저걸로|저거로|그대로|이대로")
        .iter()
        .any(|w| text.contains(w))
        || WordList("that one|this one|as is|as it is").iter().any(|w| lower.contains(w))
}

/// A reply that is only a reference with fillers: "2", "B안", "option 3.", "두 번째",
/// "음 1번이요", "Advanced Multi-Agent Pipeline"; not "2번 비용은요" (what about 2's cost).
fn is_bare_reference(lower: &str, refs: &[Ref]) -> bool {
    without_refs(lower, refs, 0..lower.len(), |_| true).split_whitespace().all(is_filler)
}

/// The reply's `span` with the references inside it that `blank` picks blanked, each to its
/// own length (references may overlap: "the middle option"), only on character boundaries.
fn without_refs(lower: &str, refs: &[Ref], span: std::ops::Range<usize>, blank: impl Fn(&Ref) -> bool) -> String {
    let mut out = lower[span.clone()].to_string();
    for r in refs.iter().filter(|r| r.start >= span.start && r.end <= span.end && r.end > r.start && blank(r)) {
        let at = r.start - span.start..r.end - span.start;
        if out.is_char_boundary(at.start) && out.is_char_boundary(at.end) {
            out.replace_range(at.clone(), &" ".repeat(at.len()));
        }
    }
    out
}

/// A reply with a clause that is only a reference, beside clauses that give a reason or an
/// aside: "go big, option 3", "the advanced one is too expensive, so standard",
/// "비용은 상관없으니 3번" (cost doesn't matter, so 3). Turned-down designs do not count.
fn has_bare_clause(lower: &str, refs: &[Ref]) -> bool {
    // "B, definitely not", "2번, 아니 …": a negation anywhere leaves the reply to the rules above.
    if ascii_words(lower).iter().any(|w| EN_NEGATIONS.contains(w.as_str()))
        || WordList("아니|않|말고|별로").any(|w| lower.contains(w))
    {
        return false;
    }
    refs.iter().filter(|r| !r.rejected && r.end > r.start && r.end <= lower.len()).any(|r| {
        let (from, to) = clause_bounds(lower, r.start, r.end);
        refs.iter().filter(|o| o.start >= from && o.end <= to).all(|o| !o.rejected && o.index == r.index)
            && without_refs(lower, refs, from..to, |o| !o.rejected).split_whitespace().all(is_filler)
    })
}

/// The clause around `start..end`, as byte offsets: up to the nearest punctuation mark
/// (, ; : ! ? or a full stop before a space), a linking word ("so", "since", "because",
/// "as", "and"), or a Korean clause ending in 니까/니깐/으니/니 (since), 므로/라서 (so), 대로
/// (as), or a sentence's end in 요/다.
fn clause_bounds(lower: &str, start: usize, end: usize) -> (usize, usize) {
    const LINKS: WordList = WordList("so|since|because|as|and|then");
    let is_mark = |s: &str, at: usize| {
        let c = s[at..].chars().next().unwrap_or(' ');
        matches!(c, ',' | ';' | ':' | '!' | '?' | '—' | '–')
            || c == '.' && s[at + 1..].chars().next().is_none_or(char::is_whitespace)
    };
    let mut from = 0;
    for (at, c) in lower[..start].char_indices() {
        if is_mark(lower, at) {
            from = at + c.len_utf8();
        }
    }
    // Words between the mark and the reference: the last linking word or Korean clause end.
    let mut cursor = from;
    for word in lower[from..start].split_whitespace() {
        let at = cursor + lower[cursor..].find(word).unwrap_or(0);
        cursor = at + word.len();
        // …요/…다: a finished sentence before it ("돈은 상관없어요 3번으로"); 대로: as ("말씀하신 대로 2번").
        let ko_end = WordList("니까|니깐|으니|니|므로|라서|요|다|대로").any(|e| word.ends_with(e));
        if LINKS.contains(word) || ko_end {
            from = cursor;
        }
    }
    let mut to = lower.len();
    for (at, _) in lower[end..].char_indices() {
        if is_mark(lower, end + at) {
            to = end + at;
            break;
        }
    }
    let mut cursor = end;
    for word in lower[end..to].split_whitespace() {
        let at = cursor + lower[cursor..].find(word).unwrap_or(0);
        if LINKS.contains(word) {
            to = at;
            break;
        }
        cursor = at + word.len();
    }
    (from, to)
}

/// Korean pieces around a design reference (glossed): 번째/번 (number), 안 (plan), 째
/// (ordinal), particles (으로요, 로요, 으로, 로, 이요, 요, 이, 가, 은, 는, 을, 를), 것/거/걸로/걸/게
/// (the one), and fillers 음 (um), 그럼 (then), 저는/전 (as for me), 그냥 (just), 네 (yes),
/// 일단 (for now), 설계안 (design), 제일/가장 (most), 한 (the ending of "간단한 거", the simple one).
const KO_FILLERS: WordList = WordList(
    "번째|번|안|째|으로요|로요|으로|로|이요|요|이|가|은|는|을|를|것|거|걸로|걸|게|음|그럼|저는|전|그냥|네|일단|설계안|\
    제일|가장|한",
);
const EN_FILLERS: WordList = WordList(
    "the|a|one|option|design|plan|pipeline|version|approach|setup|proposal|please|pls|plz|just|then|ok|okay|so|um|\
    uh|hmm|i|guess|think|maybe|probably|definitely|number|choice|with|go|whatever|whatever's|whichever|whichever's",
);

fn is_filler(word: &str) -> bool {
    let mut w = word.trim_matches(|c: char| !c.is_alphanumeric());
    if w.is_empty() || EN_FILLERS.contains(w) {
        return true;
    }
    while let Some(piece) = KO_FILLERS.iter().find(|f| w.starts_with(f)) {
        w = &w[piece.len()..];
    }
    w.is_empty()
}

/// "the simplest", "most secure", "가장 싼", "제일 간단한": asking which, not naming one.
fn is_superlative(text: &str, lower: &str) -> bool {
    // 가장/제일 (most).
    text.contains("가장")
        || text.contains("제일")
        || ascii_words(lower)
            .iter()
            .any(|w| w == "most" || w == "least" || (w.len() > 5 && w.ends_with("est") && w != "interest"))
}

// ---- design references ----

/// One place where the reply points at a design.
#[derive(Debug, Clone, Copy)]
struct Ref {
    index: usize,
    /// Said as "not this one": "2번 말고", "not the first".
    rejected: bool,
    /// Made through the word "recommended".
    recommended: bool,
    /// Made through a description ("the simple one"), not a number, letter or name.
    described: bool,
    /// Where it was said (bytes).
    start: usize,
    end: usize,
}

/// Every design the reply points at, in order of mention.
fn design_refs(text: &str, designs: &[DesignBrief], recommended: Option<usize>) -> Vec<Ref> {
    let count = designs.len();
    let mut refs: Vec<(usize, usize, usize, bool)> = Vec::new(); // (start, end, index, recommended)
    let mut described_from = usize::MAX;
    if count == 0 {
        return Vec::new();
    }
    let lower = text.to_ascii_lowercase();
    let chars: Vec<(usize, char)> = lower.char_indices().collect();
    let byte_at = |ci: usize| chars.get(ci).map(|(b, _)| *b).unwrap_or(lower.len());
    let char_before = |b: usize| lower[..b].chars().next_back();
    let char_after = |b: usize| lower[b..].chars().next();

    // Numbers: "2번", "2안", "option 2", "#2", "2", "2로", "2 looks good".
    for (ci, &(b, c)) in chars.iter().enumerate() {
        if !c.is_ascii_digit() {
            continue;
        }
        let end = byte_at(ci + 1);
        if char_before(b).is_some_and(|p| p.is_ascii_alphanumeric() || p == '.' || p == '$' || p == ',')
            || char_after(end).is_some_and(|n| {
                n.is_ascii_alphanumeric()
                    || n == '.' && lower[end + 1..].starts_with(|d: char| d.is_ascii_digit())
                    || n == '%'
                    || n == ':'
            })
        {
            continue;
        }
        let n = c.to_digit(10).unwrap_or(0) as usize;
        if n == 0 || n > count {
            continue;
        }
        if number_is_design(&lower, b, end) {
            refs.push((b, end, n - 1, false));
        }
    }
    // Number words after a design noun: "option two", "number three", "design one".
    for (i, word) in WordList("one|two|three").iter().enumerate() {
        for noun in WordList("option|design|plan|number|proposal|choice|no.") {
            let phrase = format!("{noun} {word}");
            for (at, _) in lower.match_indices(&phrase) {
                let end = at + phrase.len();
                if i < count && word_bounded(&lower, at, end) {
                    refs.push((at, end, i, false));
                }
            }
        }
    }
    // Ordinals.
    for (i, words) in ORDINALS.iter().enumerate() {
        for w in *words {
            for (at, _) in lower.match_indices(w) {
                let end = at + w.len();
                if i < count && word_bounded(&lower, at, end) && ordinal_is_design(&lower, at, end) {
                    refs.push((at, end, i, false));
                }
            }
        }
    }
    for w in LAST_WORDS {
        for (at, _) in lower.match_indices(w) {
            let end = at + w.len();
            if word_bounded(&lower, at, end) && ordinal_is_design(&lower, at, end) {
                refs.push((at, end, count - 1, false));
            }
        }
    }
    // 가운데/중간 (middle) with 거/걸/것/꺼 (the one) or 안 (plan).
    for w in WordList(
        "middle one|the middle|middle option|가운데|중간 거|중간거|중간 걸|중간걸|중간 것|중간 꺼|중간 안|중간안",
    ) {
        if count == 3 {
            for (at, _) in lower.match_indices(w) {
                refs.push((at, at + w.len(), 1, false));
            }
        }
    }
    // Letters: "B안", "option B", "plan c", "B it is", "C로".
    for (ci, &(b, c)) in chars.iter().enumerate() {
        if !matches!(c, 'a' | 'b' | 'c') {
            continue;
        }
        let index = (c as u8 - b'a') as usize;
        let end = byte_at(ci + 1);
        if index >= count
            || char_before(b).is_some_and(|p| p.is_ascii_alphanumeric() || p == '\'' || p == '-')
            || char_after(end).is_some_and(|n| n.is_ascii_alphanumeric() || n == '\'' || n == '-')
        {
            continue;
        }
        let original = text[b..end].chars().next().unwrap_or(c);
        if letter_is_design(&lower, b, end, original.is_ascii_uppercase()) {
            refs.push((b, end, index, false));
        }
    }
    // Recommended.
    for w in WordList("추천|recommended|recommendation|your pick|you recommend|you suggested|suggested one") {
        if let Some(r) = recommended.filter(|r| *r < count) {
            for (at, _) in lower.match_indices(w) {
                refs.push((at, at + w.len(), r, true));
            }
        }
    }
    // A step the design has or lacks ("the one without validation", "교차 검증 있는 안"), then
    // names and descriptions, only where nothing more exact was said.
    let by_step = if refs.iter().all(|r| r.3) { step_ref(&lower, designs, recommended) } else { None };
    if let Some((start, end, index)) = by_step {
        described_from = refs.len();
        refs.push((start, end, index, false));
    } else if refs.iter().all(|r| r.3) {
        for (i, d) in designs.iter().enumerate() {
            if let Some((at, end)) = name_mention(&lower, d) {
                refs.push((at, end, i, false));
            }
        }
        let descriptive = description_refs(&lower, designs);
        if refs.iter().all(|r| r.3) {
            described_from = refs.len();
            refs.extend(descriptive);
        }
    }
    // The seed's reader as a last resort, for short replies only.
    if refs.is_empty() && text.split_whitespace().count() <= 3 {
        let names: Vec<&str> = designs.iter().map(|d| d.name).collect();
        if let Some(i) = parse_choice(text, &names, None) {
            // A reply that is only a number word ("two", "둘": two) is all reference.
            let bare = text.trim().trim_end_matches(['.', '!', ')']).to_ascii_lowercase();
            let whole = WordList("one|two|three|하나|둘|셋").contains(&bare);
            refs.push((0, if whole { text.len() } else { 0 }, i, false));
        }
    }
    let mut out: Vec<Ref> = refs
        .iter()
        .enumerate()
        .map(|(k, &(start, end, index, rec))| Ref {
            index,
            rejected: is_rejected(&lower, start, end),
            recommended: rec,
            described: k >= described_from,
            start,
            end,
        })
        .collect();
    // "without the validator" names a step, not the design whose description has the word.
    let removals = removal_stretches(&lower);
    out.retain(|r| {
        let by_this_step = by_step.is_some_and(|(start, end, _)| (start, end) == (r.start, r.end));
        by_this_step || !names_removed_step(&lower, r.start..r.end, designs, &removals)
    });
    crate::engine::order::sort_by_key(&mut out, |r| r.start as u128);
    out
}

/// `text` with the words that point at a design ("the simple one", "2번", "option B") blanked
/// out, so that what is asked of the design is read without them: "make the simple one use a
/// bigger model" asks for a bigger model, not for something simpler.
pub fn without_design_refs(text: &str, designs: &[DesignProposal]) -> String {
    let refs = design_refs(text, &briefs(designs), designs.iter().position(|d| d.recommended));
    let mut out = text.to_string();
    let whole = |r: &&Ref| r.end > r.start && text.is_char_boundary(r.start) && text.is_char_boundary(r.end);
    for r in refs.iter().rev().filter(whole) {
        out.replace_range(r.start..r.end, &" ".repeat(r.end - r.start));
    }
    out
}

/// English phrases that point at the design with a step (`.0`) or without one (`.1`), the step
/// named after them: "the one with the cross-checker", "the one without validation".
const EN_STEP_POINTERS: [WordList; 2] = [
    WordList(
        "the one with|that one with|the one that has|the one that includes|the one including|the design with|\
        the option with|the version with|the pipeline with",
    ),
    WordList(
        "the one without|that one without|the one with no|the one that has no|the one that doesn't have|\
        the one that does not have|the one that skips|the one minus|the one lacking|the design without|\
        the option without|the version without|the pipeline without",
    ),
];

/// Korean words after a step that point at the design with it (`.0`) or without it (`.1`),
/// before a noun for the design (`KO_ONE`): 있는/들어간/들어 있는/포함된/포함한/넣은: that has; 없는/빠진/뺀/안
/// 들어간/제외한/제외된: that lacks.
const KO_STEP_POINTERS: [WordList; 2] = [
    WordList("있는|들어간|들어 있는|들어있는|포함된|포함한|넣은"),
    WordList("없는|빠진|뺀|안 들어간|안들어간|제외한|제외된"),
];

/// Nouns for a design after such a word: 거/것/걸/게/꺼: the one; 안/설계/설계안: design; 쪽: that side; 버전:
/// version; 파이프라인: pipeline.
const KO_ONE: WordList = WordList("거|것|걸|게|꺼|안|설계|쪽|버전|파이프라인");

/// `text` without spaces and hyphens: "cross checker", "cross-checker" and "교차 검증기" are
/// compared as "crosschecker" and "교차검증기".
fn compact_words(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace() && *c != '-').collect()
}

/// The forms a step's name is said in: the name, and its stem ("validator" → "validat",
/// "교차 검증기" → "교차 검증"), all as `compact_words`.
fn step_forms(step: &AgentSpec) -> Vec<String> {
    let name = compact_words(&step.name.to_ascii_lowercase());
    let mut forms = vec![name.clone()];
    let stem = name
        .strip_suffix('기')
        .or_else(|| name.strip_suffix("담당"))
        .or_else(|| name.strip_suffix("step"))
        .or_else(|| name.strip_suffix("or"))
        .or_else(|| name.strip_suffix("er"));
    if let Some(stem) = stem.filter(|s| s.chars().count() >= if s.is_ascii() { 5 } else { 2 }) {
        forms.push(stem.to_string());
    }
    forms
}

/// The answer to "what does the validator do?", "교차 검증기는 무슨 역할이에요?": what that step does
/// and which designs have it; `None` unless the question asks what a step of theirs is for.
/// 역할: role; 뭐 해/뭘 해/무슨 일/하는 일/어떤 일: what it does; 뭐예요/뭔가요: what is it.
fn step_role(text: &str, designs: &[DesignProposal], lang: Lang) -> Option<String> {
    let lower = text.to_lowercase();
    let asks = WordList(
        "what does|what do|what is the|what's the|whats the|what is a|what for|role of|purpose of|역할|뭐 해|뭘 해|무슨 일|하는 일|어떤 일|뭐예요|뭔가요|뭐죠",
    )
    .any(|w| lower.contains(w));
    // "what's the cost of the summarizer?" asks the price, "what does the validator add over 1?" a difference.
    let other = WordList("cost|price|cheap|expensive|differen|compare|versus| vs|비용|얼마|차이|비교|싸|비싸")
        .any(|w| lower.contains(w));
    if !asks || other {
        return None;
    }
    // The longest step name said: "교차 검증기" over "검증기".
    let step = designs
        .iter()
        .flat_map(|d| &d.agents)
        .filter(|a| a.name.chars().count() >= 3 && lower.contains(&a.name.to_lowercase()))
        .max_by_key(|a| a.name.len())?;
    let with: Vec<String> = (0..designs.len())
        .filter(|&i| designs[i].agents.iter().any(|a| a.name == step.name))
        .map(|i| (i + 1).to_string())
        .collect();
    Some(match lang {
        Lang::Ko => format!("{}({}번 설계안): {}", step.name, with.join("·"), step.description),
        Lang::En => format!(
            "The {} ({} {}): {}",
            step.name,
            if with.len() == 1 { "design" } else { "designs" },
            with.join(", "),
            step.description
        ),
    })
}

/// The designs that have the step `words` name: by the longest name or stem of a step said
/// in them, else by a kind of step ("validation", "사람 검토"). None when they name no step.
fn steps_said(words: &str, designs: &[DesignBrief]) -> Option<Vec<usize>> {
    let words = compact_words(words);
    let mut best: Option<(usize, Vec<usize>)> = None;
    for (i, d) in designs.iter().enumerate() {
        for form in d.steps.iter().flat_map(step_forms).filter(|f| words.contains(f.as_str())) {
            let len = form.chars().count();
            match &mut best {
                Some((l, has)) if *l == len => {
                    if !has.contains(&i) {
                        has.push(i);
                    }
                }
                Some((l, _)) if *l > len => {}
                _ => best = Some((len, vec![i])),
            }
        }
    }
    if let Some((_, has)) = best {
        return Some(has);
    }
    let kind =
        STEP_KINDS.iter().find(|k| k.cue.iter().any(|w| words.contains(&compact_words(w.trim_end_matches('*')))))?;
    Some((0..designs.len()).filter(|&i| designs[i].steps.iter().any(|s| kind.has_role(&s.role))).collect())
}

/// Whether the words at `span` name a step in a stretch that asks for something to go
/// (`removals`): "without the validator" names no design.
fn names_removed_step(
    lower: &str,
    span: std::ops::Range<usize>,
    designs: &[DesignBrief],
    removals: &[std::ops::Range<usize>],
) -> bool {
    removals.iter().any(|s| s.start <= span.start && span.end <= s.end) && steps_said(&lower[span], designs).is_some()
}

/// "the simple one but without the validator": the reply with each stretch that asks design `i`
/// to go without a step it does not have blanked (it asks nothing of it), as text and lower case;
/// none when there is no such stretch.
fn without_absent_steps(text: &str, lower: &str, i: usize, designs: &[DesignBrief]) -> Option<(String, String)> {
    let (mut text, mut lower) = (text.to_string(), lower.to_string());
    let mut blanked = false;
    for stretch in removal_stretches(&lower.clone()) {
        if steps_said(&lower[stretch.clone()], designs).is_some_and(|has| !has.contains(&i)) {
            // The join before it goes too: "… but" alone would read as a hedge.
            let join = [" but ", " and ", " then "].iter().find(|j| lower[..stretch.start].ends_with(*j));
            blank(&mut text, &mut lower, stretch.start - join.map_or(0, |j| j.len())..stretch.end);
            blanked = true;
        }
    }
    blanked.then_some((text, lower))
}

/// The design a reply points at by a step it has or lacks ("the one without validation", "검증
/// 없는 걸로", "교차 검증 있는 안"): the step's words are the longest step name or kind of step the
/// phrase holds; the design is the only one with (or without) it, or the recommended one among
/// several. As (start, end, index) of the phrase; none when the steps tell no design apart.
fn step_ref(lower: &str, designs: &[DesignBrief], recommended: Option<usize>) -> Option<(usize, usize, usize)> {
    if designs.iter().all(|d| d.steps.is_empty()) {
        return None;
    }
    let clause_end = |from: usize| {
        let rest = &lower[from..];
        from + [",", ".", ";", "!", "?", " and ", " but ", " then "]
            .iter()
            .filter_map(|e| rest.find(e))
            .min()
            .unwrap_or(rest.len())
    };
    // (phrase start, phrase end, the step's words, with it)
    let mut phrases: Vec<(usize, usize, String, bool)> = Vec::new();
    for (with, pointers) in [true, false].into_iter().zip(EN_STEP_POINTERS) {
        for p in pointers {
            for (at, _) in lower.match_indices(p).filter(|(at, _)| word_bounded(lower, *at, at + p.len())) {
                let end = clause_end(at + p.len());
                phrases.push((at, end, lower[at + p.len()..end].to_string(), with));
            }
        }
    }
    // "the one with no …" is not "the one with …": at one place, the longest pointer, whose
    // step's words are the shortest.
    crate::engine::order::sort_by_key(&mut phrases, |(start, _, words, _)| {
        ((*start as u128) << 32) | words.len() as u128
    });
    phrases.dedup_by_key(|(start, _, _, _)| *start);
    for (with, pointers) in [true, false].into_iter().zip(KO_STEP_POINTERS) {
        for p in pointers {
            for (at, _) in lower.match_indices(p) {
                let after = lower[at + p.len()..].trim_start();
                let Some(noun) = KO_ONE.iter().find(|n| after.starts_with(n)) else { continue };
                let end = lower.len() - after.len() + noun.len();
                let before = &lower[..at];
                let start = [",", ".", ";", "!", "?", "\n"]
                    .iter()
                    .filter_map(|e| before.rfind(e).map(|i| i + 1))
                    .max()
                    .unwrap_or(0);
                phrases.push((start, end, lower[start..at].to_string(), with));
            }
        }
    }
    phrases.into_iter().find_map(|(start, end, words, with)| {
        let has = steps_said(&words, designs)?;
        let picked: Vec<usize> = (0..designs.len()).filter(|i| has.contains(i) == with).collect();
        let index = match picked[..] {
            [only] => only,
            _ if picked.len() < designs.len() => recommended.filter(|r| picked.contains(r))?,
            _ => return None,
        };
        Some((start, end, index))
    })
}

/// Ordinal words for the first three designs: 첫 번째/첫째/처음 거/맨 앞 (first), 두 번째/둘째
/// (second), 세 번째/셋째 (third), and English.
const ORDINALS: [WordList; 3] = [
    WordList("첫 번째|첫번째|첫째|첫 번|첫번|처음 거|처음 것|처음 꺼|맨 처음|맨 앞|first|1st"),
    WordList("두 번째|두번째|둘째|second|2nd"),
    WordList("세 번째|세번째|셋째|third|3rd"),
];

/// "the last one": 마지막 (last), and English.
const LAST_WORDS: WordList = WordList("마지막|last");

/// Nouns for a step inside a design, which an ordinal can also count: 단계 (step),
/// 에이전트 (agent), 스텝 (step), 과정 (process), and English ones.
/// And what an ordinal counts in the thing to build: 날 (day), 시간 (hours), 줄 (line), 페이지
/// (page), 항목 (item); hours, days, runs, results ("the last 24 hours", "the first 10 results").
const STEP_NOUNS: WordList = WordList(
    "단계|에이전트|스텝|과정|날|시간|줄|페이지|항목|step|agent|stage|part|phase|point|thing|time|place|priority|of all|\
    draft|round|version|question|hour|day|week|month|year|night|minute|sprint|quarter|release|commit|run|line|page|\
    item|result|row|entr|bug|issue|message|email|mail",
);

fn ordinal_is_design(lower: &str, start: usize, end: usize) -> bool {
    let after = lower[end..].trim_start();
    let next: String = after.chars().take_while(|c| c.is_alphanumeric()).collect();
    // "First, tell me …" orders what is said; it names no design.
    let opener = lower[..end].trim_start().len() == end - start && lower[end..].starts_with(',');
    // A count after it ("the last 24 hours", "first 10 rows") makes it count those.
    !opener
        && !next.starts_with(|c: char| c.is_ascii_digit())
        && !STEP_NOUNS.iter().any(|n| after.starts_with(n) || next == n)
        && !lower[..end].ends_with("at first")
        && !lower[..end].ends_with("first of all")
}

/// Units and nouns that make a digit a quantity, not a design number: 개 (items), 명
/// (people), 분 (minutes), 초 (seconds), 시간 (hours), 시 (o'clock), 일 (days), 주 (weeks),
/// 달 (months), 년 (years), 단계 (steps), 가지 (kinds), 배 (times), 회 (rounds), 원 (won),
/// 달러 (dollars), 퍼센트 (percent), and English ones.
const QUANTITY_UNITS: WordList = WordList(
    "개|명|분|초|시간|시|일|주|달|년|단계|가지|배|회|번째 단계|원|달러|\
    퍼센트|agent|step|minute|min|hour|second|sec|day|week|month|year|time|x|k|m|percent|dollar|cent|\
    page|line|word|person|people|user|item|thing|of them|of these|more|less|or more|max|stage",
);

/// Korean particles after a design number (glossed): 으로/로 (with), 이요/이에요/예요 (it is),
/// 이/가 (subject), 은/는 (topic), 도 (also), 요 (polite), 을/를 (object).
const NUMBER_PARTICLES: WordList = WordList("으로|로|이요|이에요|예요|이|가|는|은|도|요|을|를");

/// Syllables that may follow such a particle and keep the number a design: 요 (polite
/// ending), 할/해 (do), 갈/가 (go): "2로 할게요", "3이요", "1로 가죠".
const AFTER_PARTICLE: &[char] = &['요', '할', '해', '갈', '가'];

fn number_is_design(lower: &str, start: usize, end: usize) -> bool {
    let after = &lower[end..];
    let after_t = after.trim_start();
    let before = lower[..start].trim_end();
    if after.starts_with('번') || after.starts_with('안') || after.starts_with(" 번") || after_t.starts_with("번 안")
    {
        return !after.starts_with("번째 단계") && !after.starts_with("번 더") && !after.starts_with("번 다시");
    }
    if before.ends_with('#') || before.ends_with("no.") {
        return true;
    }
    let design_noun = WordList("option|design|plan|number|proposal|choice|pipeline|version");
    if design_noun.iter().any(|n| before.ends_with(n)) {
        return true;
    }
    if QUANTITY_UNITS.iter().any(|u| is_unit(after_t, u)) && !after_t.starts_with("more or less") {
        return false;
    }
    if counts_things(after_t) {
        return false;
    }
    if WordList("to|under|over|than|by|at|within|about|around|only|just")
        .iter()
        .any(|w| before.ends_with(&format!(" {w}")) || before == w)
    {
        return false;
    }
    // A lone digit in English, or one followed by a Korean particle: "2 looks good",
    // "3 sounds fine", "2로 할게요", "3이 좋아요" (not "2가지", two kinds).
    let ko_ok = NUMBER_PARTICLES.iter().any(|p| {
        after
            .strip_prefix(p)
            .is_some_and(|rest| rest.chars().next().is_none_or(|c| !is_hangul(c) || AFTER_PARTICLE.contains(&c)))
    });
    ko_ok || after.chars().next().is_none_or(|c| !is_hangul(c))
}

/// True when the English words after a number name what it counts: "3 bullet points", "5 posts",
/// "10 short paragraphs" (a plural noun in the next two words), not a design that "looks good",
/// "really works" or "is fine".
fn counts_things(after: &str) -> bool {
    // Verbs in the third person that say something of a design, and words that start a clause.
    const VERBS: WordList = WordList(
        "looks|sounds|seems|works|makes|gets|needs|has|does|is|was|wins|feels|fits|beats|covers|handles|suits|\
         matches|meets|keeps|uses|runs|goes|comes|gives|takes|says|reads|costs|lacks|misses|adds|stays|remains|\
         this|thanks|yes|plus|less|unless|always|perhaps|as|its|it's|has",
    );
    const CLAUSE: WordList = WordList(
        "and|or|but|with|for|please|then|it|too|because|since|so|if|over|instead|also|though|although|without|\
         one|ones|all|both|either|not|no|is|was|seems|looks|sounds|would|will|could|should|might|can|may|maybe",
    );
    let words: Vec<&str> = after
        .split_whitespace()
        .take(2)
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != '\''))
        .collect();
    let plural =
        |w: &str| w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !VERBS.contains(w);
    let plain = |w: &str| w.chars().all(|c| c.is_ascii_alphabetic()) && !w.ends_with("ly");
    match words[..] {
        [first, ..] if plain(first) && plural(first) => true,
        [first, second] => {
            plain(first) && !VERBS.contains(first) && !CLAUSE.contains(first) && plain(second) && plural(second)
        }
        _ => false,
    }
}

/// True when `after` starts with the unit `u`: a Korean unit glued or not ("2개", "3 단계"), an
/// English one as a whole word or its plural ("2 steps", "3x"), not the start of a longer word
/// ("2 makes sense" is not two of "m").
fn is_unit(after: &str, u: &str) -> bool {
    let Some(rest) = after.strip_prefix(u) else { return false };
    if !u.is_ascii() {
        return true;
    }
    let rest = rest.strip_prefix("es").or_else(|| rest.strip_prefix('s')).unwrap_or(rest);
    !rest.starts_with(|c: char| c.is_ascii_alphabetic())
}

fn letter_is_design(lower: &str, start: usize, end: usize, upper: bool) -> bool {
    let after = &lower[end..];
    let after_t = after.trim_start();
    let before = lower[..start].trim_end();
    if after.starts_with('안') || after.starts_with(" 안") && !after.starts_with(" 안 ") {
        return true;
    }
    if after.starts_with(" 안 ") {
        // "B 안 좋아요" is most likely "plan B is good": a lone letter before 안.
        return true;
    }
    let design_noun = WordList("option|design|plan|proposal|choice|version|pipeline|number");
    if design_noun.iter().any(|n| before.ends_with(n)) {
        return true;
    }
    let ko_particles = WordList("로|으로|가|이|는|요|도|를|을");
    if ko_particles.iter().any(|p| after.starts_with(p)) {
        return true;
    }
    if lower.chars().any(is_hangul) && after_t.is_empty() {
        return true;
    }
    // English: only a capital letter stands for a design ("B it is", "go with C");
    // "a" is an article. A capital A counts only before a verb or at the end.
    if !upper {
        return false;
    }
    if &lower[start..end] != "a" {
        return true;
    }
    let next: String = after_t.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '\'').collect();
    after_t.is_empty()
        || after_t.starts_with([',', '.', '!', ')'])
        || WordList(
            "it|is|please|looks|sounds|seems|works|for|then|wins|it's|feels|and|would|will|might|could|has|gets|needs|\
            lacks|misses|should|doesn't|isn't|costs|uses",
        )
        .contains(next.as_str())
}

fn word_bounded(lower: &str, start: usize, end: usize) -> bool {
    let before_ok = lower[..start].chars().next_back().is_none_or(|c| !c.is_ascii_alphanumeric());
    let after_ok = lower[end..].chars().next().is_none_or(|c| !c.is_ascii_alphanumeric());
    before_ok && after_ok
}

/// "2번 말고", "not the first one", "B안은 빼고", "instead of A": a design turned down.
fn is_rejected(lower: &str, start: usize, end: usize) -> bool {
    let after: String = lower[end..].chars().take(14).collect();
    let before: String = {
        let b = &lower[..start];
        let n = b.chars().count();
        b.chars().skip(n.saturating_sub(16)).collect()
    };
    // 말고/말구 (not … but), 빼 (leave out), 별로 (not really), 아니 (it isn't), 대신 (instead), 보다 (rather than).
    let ko_after = WordList("말고|말구|은 빼|는 빼|안은 빼|은 별로|는 별로|은 아니|는 아니|아니고|대신|보다");
    let en_before = WordList("not |instead of |rather than |over |except |other than |than |none of |no ");
    let after_words: String = after.chars().skip_while(|c| !c.is_whitespace() && !is_hangul(*c)).collect();
    ko_after.iter().any(|k| {
        after.trim_start_matches(['번', '안', ' ', '째']).starts_with(k) || after_words.trim_start().starts_with(k)
    }) || WordList("번 말고|안 말고|번째 말고").iter().any(|k| after.starts_with(k))
        || is_too_much(&lower[end..])
        || en_before.iter().any(|k| {
            before.ends_with(k)
                || before.ends_with(&format!("{k}the "))
                || before.ends_with(&format!("{k}option "))
                || before.ends_with(&format!("{k}design "))
                || before.ends_with(&format!("{k}plan "))
        })
}

/// "고급은 너무 비싸고", "the advanced one is too expensive", "simple is overkill": what
/// follows a design says it is too much of something (not "너무 좋아요", so good).
fn is_too_much(after: &str) -> bool {
    too_much_end(after).is_some()
}

/// Where the phrase `is_too_much` finds ends, as an offset into `after`.
fn too_much_end(after: &str) -> Option<usize> {
    let t = after.trim_start_matches(['번', '안', '째']).trim_start();
    let base = after.len() - t.len();
    // The word after `at`, up to a space or a comma.
    let word_end =
        |at: usize| at + t[at..].find(|c: char| c.is_whitespace() || c == ',' || c == '.').unwrap_or(t.len() - at);
    // 은/는/이/가 (the design as the subject), then 너무 (is too …) or a drawback: 과해/과하
    // (excessive), 부담 (a burden), 비싸 (expensive), 복잡 (complicated), 무거/무겁 (heavy),
    // 어렵/어려 (hard), 느려/느리 (slow), 번거 (cumbersome); not when the clause denies it
    // ("3번은 복잡하지 않아요").
    const DRAWBACKS: WordList = WordList("과해|과하|부담|비싸|복잡|무거|무겁|어렵|어려|느려|느리|번거");
    if let Some(k) = WordList("은 |는 |이 |가 ").iter().find(|k| t.starts_with(*k)) {
        let rest = &t[k.len()..];
        if let Some(after) = rest.strip_prefix("너무 ") {
            // Not "너무 좋아요" (so good).
            let good = SO_GOOD.any(|w| after.starts_with(w));
            return (!good).then(|| base + word_end(t.len() - after.len()));
        }
        let clause = &rest[..rest.find([',', '.', ';']).unwrap_or(rest.len())];
        let denied = WordList("않|아니|없|안 ").any(|n| clause.contains(n));
        if DRAWBACKS.any(|d| rest.starts_with(d)) && !denied {
            return Some(base + word_end(k.len()));
        }
    }
    let noun = t.find(' ').filter(|&at| EN_REF_NOUNS.contains(&t[..at])).map_or(0, |at| at + 1);
    let clause = &t[noun..];
    let k = WordList(
        "is too |'s too |is way too |is a bit too |seems too |looks too |feels too |sounds too |would be too |is overkill",
    )
    .iter()
    .find(|k| clause.starts_with(*k))?;
    let at = noun + k.len();
    Some(base + if k.ends_with(' ') { word_end(at) } else { at })
}

/// Where the reply names a design by its full name, or by its name without a last
/// "pipeline"/"파이프라인" when two words or more remain (single distinctive name words
/// are read as descriptions, in `description_refs`).
fn name_mention(lower: &str, design: &DesignBrief) -> Option<(usize, usize)> {
    let name = design.name.trim().to_ascii_lowercase();
    if name.chars().count() >= 3 {
        if let Some(at) = lower.find(&name) {
            return Some((at, at + name.len()));
        }
    }
    // The name without its generic last word: "고급 멀티 에이전트", "simple sequential".
    let short = name.strip_suffix("파이프라인").or_else(|| name.strip_suffix("pipeline")).map(str::trim_end)?;
    if short.split_whitespace().count() >= 2 {
        if let Some(at) = lower.find(short) {
            return Some((at, at + short.len()));
        }
    }
    None
}

/// Words that stand for a design of each complexity (Korean glossed).
// 단순: simple; 간단: simple; 가벼운: light; 가장 싼: cheapest; 제일 싼: cheapest; 저렴한: cheap; 순차: sequential; 기본: basic;
// 제일 빠른/가장 빠른: fastest
const LOW_WORDS: WordList = WordList(
    "simple|simplest|simpler|basic|lean|leaner|lightweight|light|lighter|minimal|sequential|\
    cheapest|cheap|cheaper|smallest|smaller|fastest|quickest|short|shortest|단순|간단|가벼운|가장 싼|제일 싼|싼|저렴한|순차|\
    기본|제일 빠른|가장 빠른",
);
// 표준: standard; 균형: balance; 검증: validation; 보통: medium; 무난: unremarkable, the safe choice
const MEDIUM_WORDS: WordList =
    WordList("standard|balanced|middle|validation|validated|validator|moderate|medium|표준|균형|검증|보통|무난");
// 고급: advanced; 멀티: multi; 복잡: complex; 교차: cross(-check); 꼼꼼: thorough; 제일 비싼: most expensive; 본격: full-scale;
// 믿을 만한: reliable; 가장 정확/제일 정확: most accurate
const HIGH_WORDS: WordList = WordList(
    "advanced|multi-agent|multi agent|thorough|complex|full|heavy|\
    cross-check|cross-checking|most robust|robust|elaborate|fancy|biggest|most reliable|most accurate|고급|멀티|복잡|교차|\
    꼼꼼|제일 비싼|본격|믿을 만한|믿을만한|가장 정확|제일 정확",
);

/// Nouns that make a description point at a design: "the simple one", "검증 있는 안".
const EN_REF_NOUNS: WordList = WordList("one|option|design|plan|pipeline|version|approach|setup|proposal");
/// Korean reference nouns: 안 (plan), 거/것/걸/게 (the one), 쪽 (side), 버전 (version),
/// 설계 (design), 파이프라인 (pipeline).
const KO_REF_NOUNS: WordList = WordList("안|거|것|걸|쪽|버전|설계|파이프라인|게");

fn description_refs(lower: &str, designs: &[DesignBrief]) -> Vec<(usize, usize, usize, bool)> {
    let out = description_mentions(lower, designs, false);
    // A description that fits two designs names neither; one turned down ("the advanced one
    // is too expensive, let's do standard") leaves the other named.
    let mut indexes: Vec<usize> = out.iter().filter(|r| !is_rejected(lower, r.0, r.1)).map(|r| r.2).collect();
    crate::engine::order::sort_by_key(&mut indexes, |&i| i as u128);
    indexes.dedup();
    if indexes.len() > 1 {
        return Vec::new();
    }
    out
}

/// Every design a description in the message points at ("the simple one", "검증 있는 안"), as
/// (start, end, index, false), however many designs that makes. `bare`: the words count without
/// a noun for the design after them ("고급이랑 표준은 뭐가 달라요?", in a question of how two differ).
fn description_mentions(lower: &str, designs: &[DesignBrief], bare: bool) -> Vec<(usize, usize, usize, bool)> {
    let mut out = Vec::new();
    let removals = removal_stretches(lower);
    for (i, d) in designs.iter().enumerate() {
        let mut words: Vec<String> = Vec::new();
        match d.complexity {
            Some(Complexity::Low) => words.extend(LOW_WORDS.iter().map(|w| w.to_string())),
            Some(Complexity::Medium) => words.extend(MEDIUM_WORDS.iter().map(|w| w.to_string())),
            Some(Complexity::High) => words.extend(HIGH_WORDS.iter().map(|w| w.to_string())),
            None => {}
        }
        // Distinctive words of the name: "Lean", "검증", "Streaming".
        for w in d.name.split(|c: char| c.is_whitespace() || c == '-' || c == '·') {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric()).to_ascii_lowercase();
            let generic = WordList("pipeline|파이프라인|with|the|and|design|포함|에이전트|agent");
            if w.chars().count() >= 2 && !generic.contains(w.as_str()) && !words.contains(&w) {
                let shared =
                    designs.iter().enumerate().any(|(j, o)| j != i && o.name.to_ascii_lowercase().contains(&w));
                if !shared {
                    words.push(w);
                }
            }
        }
        for w in &words {
            for (at, _) in lower.match_indices(w.as_str()) {
                let end = at + w.len();
                if w.is_ascii() && !word_bounded(lower, at, end) {
                    continue;
                }
                // A one-syllable word starts a word: 싼 (cheap) is not the end of 비싼 (expensive).
                if w.chars().count() == 1 && lower[..at].chars().next_back().is_some_and(is_hangul) {
                    continue;
                }
                // "the simple one but without the validator": a step asked to go, not a design.
                if names_removed_step(lower, at..end, designs, &removals) {
                    continue;
                }
                // "모델은 싼 걸로" (the model, a cheap one): what the words describe is the part
                // named before them.
                if part_topic_before(lower, at).is_some() {
                    continue;
                }
                // "고급은 너무 비싸고": a kind said to be too much is one turned down.
                if bare || points_at_design(lower, at, end) || is_too_much(&lower[end..]) {
                    // "표준형": the type's 형 is part of the reference.
                    let end = if lower[end..].starts_with('형') { end + '형'.len_utf8() } else { end };
                    out.push((at, end, i, false));
                }
            }
        }
    }
    out
}

/// Parts of a design a Korean reply can say something of with a topic (은/는): 모델 (model),
/// 출력/결과/형식/포맷 (output, result, format), 알림 (notice), 요약 (summary), 보고서/리포트
/// (report), 수집 (collecting), 검증 (validation), 분석 (analysis), 주기/일정 (schedule), 저장
/// (storage), 단계 (step), 에이전트 (agent). Not 비용 (cost) or 속도 (speed): "비용은 싼 걸로" picks
/// the cheap design.
const KO_PARTS: WordList =
    WordList("모델|출력|결과|형식|포맷|알림|요약|보고서|리포트|수집|검증|분석|주기|일정|저장|단계|에이전트");

/// The part of a design that a Korean description right after it is about: "모델은" in "모델은
/// 싼 걸로" (the model, a cheap one). The word right before `at`: one of `KO_PARTS` and 은/는.
fn part_topic_before(lower: &str, at: usize) -> Option<&str> {
    let before = &lower[..at];
    if !before.ends_with(char::is_whitespace) {
        return None;
    }
    part_topic(before.split_whitespace().next_back()?)
}

/// The part a word names as the topic: "모델은" → "모델" (one of `KO_PARTS` and 은/는).
fn part_topic(word: &str) -> Option<&str> {
    let stem = word.strip_suffix('은').or_else(|| word.strip_suffix('는'))?;
    KO_PARTS.contains(stem).then_some(stem)
}

/// "고급으로 하되 모델은 싼 걸로": a part of the design said to be something else (one of
/// `KO_PARTS` as the topic, then within two words one taken with 로: 걸로, 거로, 것으로,
/// "gpt-4o-mini로") asks for a change. Not where that word names a design ("비용은 1번으로"), a
/// format or a destination.
fn asks_part_change(lower: &str, refs: &[Ref]) -> bool {
    // Each word with its byte offset.
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut from = None;
    for (i, c) in lower.char_indices().chain([(lower.len(), ' ')]) {
        match (c.is_whitespace(), from) {
            (true, Some(start)) => {
                words.push((start, &lower[start..i]));
                from = None;
            }
            (false, None) => from = Some(i),
            _ => {}
        }
    }
    words.iter().enumerate().any(|(k, &(at, word))| {
        let topic = part_topic(word).is_some();
        topic
            && words[k + 1..].iter().take(2).any(|&(start, next)| {
                let end = start + next.len();
                let taken = next.trim_end_matches(['.', '!', '요']).ends_with('로');
                // "결과는 메일로 받을게요" says where it goes, which a choice takes along.
                let delivery = crate::engine::slots::parse_format(next).is_some()
                    || crate::engine::design::new_destination(next).is_some();
                taken && !delivery && !refs.iter().any(|r| r.start < end && start < r.end) && at < start
            })
    })
}

fn points_at_design(lower: &str, start: usize, end: usize) -> bool {
    if lower[end..].chars().next().is_some_and(is_hangul)
        || lower[..start].chars().next_back().is_some_and(is_hangul)
        || lower[end..].trim_start().chars().next().is_some_and(is_hangul)
    {
        // Korean: the rest of this word and the next two words hold a reference noun.
        let rest = &lower[end..];
        let mut words = rest.split_whitespace();
        let tail = if rest.starts_with(char::is_whitespace) { "" } else { words.next().unwrap_or("") };
        // 형 (type): "표준형", "단순형으로".
        let typed = tail.strip_prefix('형').is_some_and(|rest| rest.is_empty() || NUMBER_PARTICLES.contains(rest));
        let tail_ok = typed
            || KO_REF_NOUNS.iter().any(|n| {
                tail.strip_prefix(['한', '된', '인', '있', '는', '적'].as_slice()).unwrap_or(tail).starts_with(n)
                    || tail.starts_with(n)
                    || tail.starts_with(&format!("한{n}"))
                    || tail.starts_with(&format!("적인{n}"))
            });
        let next_ok = words.take(2).any(|w| KO_REF_NOUNS.iter().any(|n| w.starts_with(n) && !w.starts_with("안 ")));
        // "표준으로 할게요", "고급으로 가죠": the kind itself, taken with 으로/로 (with, as) and a
        // verb of going with it: 할/하 (do), 갈/가 (go), 해 (do), 결정 (decide), 선택 (choose),
        // 진행 (proceed); not "검증으로 품질을 높여 주세요" (raise quality with validation).
        let verb = rest.split_whitespace().nth(usize::from(!rest.starts_with(char::is_whitespace)));
        let taken = WordList("으로|로").any(|p| tail == p || tail == format!("{p}요"))
            && verb.is_none_or(|v| WordList("할|하|갈|가|해|결정|선택|진행").any(|s| v.starts_with(s)));
        return tail_ok || next_ok || taken;
    }
    let after = lower[end..].trim_start();
    let before = lower[..start].trim_end();
    // "the simpler one" points at a design; "simpler please" and "a simpler one" ask for a change.
    if lower[start..end].ends_with("er") {
        return before == "the" || before.ends_with(" the");
    }
    // "standard please", "simple", "…, so standard", "let's do standard": the kind itself,
    // alone in its clause or taken.
    let (from, to) = clause_bounds(lower, start, end);
    let alone = lower[from..start].split_whitespace().chain(lower[end..to].split_whitespace()).all(is_filler);
    // "simple is fine for now", "standard works", "standard it is": the kind that starts
    // the reply, as what the rest approves.
    let subject =
        lower[..start].trim().is_empty() && (after.starts_with("it is") || en_approval(after) == Polarity::Positive);
    let taken = after.split_whitespace().all(is_filler)
        && WordList("do|go with|going with|take|pick|choose|try|whatever's|whatever is|whichever's|whichever is")
            .any(|v| before.strip_suffix(v).is_some_and(|b| b.is_empty() || b.ends_with(' ') || b.ends_with('\'')));
    alone
        || taken
        || subject
        || EN_REF_NOUNS.iter().any(|n| after.starts_with(n) && word_bounded(after, 0, n.len()))
        || before.ends_with("the one with")
        || before.ends_with("one with")
        || before.ends_with("with the")
        || before.ends_with("the")
        || before.ends_with("with")
}

// ---- answering questions ----

/// What a question about the designs asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    Cost,
    Simplicity,
    Security,
    Speed,
    Quality,
    Recommendation,
    Difference,
}

/// "why not 3?", "3번은 왜 안 돼요?", "왜 추천 안 해요?": a question of why a design is not the one.
/// True when `text` asks why (왜: why).
fn asks_why(text: &str) -> bool {
    text.contains("왜") || WordList("why|how come").any(|w| text.to_ascii_lowercase().contains(w))
}

/// The answer to a question about which model vendor a design uses ("can 2 use Claude instead
/// of GPT?", "클로드로 돌릴 수 있어요?"): the designs name sizes, and the provider is a setting.
/// `None` unless a vendor or a model family is named.
fn vendor_answer(text: &str, lang: Lang) -> Option<String> {
    // 클로드/지피티/챗지피티/제미나이/라마: Claude, GPT, ChatGPT, Gemini, Llama.
    const VENDORS: WordList = WordList(
        "claude|anthropic|gpt|openai|chatgpt|gemini|llama|mistral|qwen|ollama|deepseek|클로드|지피티|챗지피티|제미나이|라마|오픈ai",
    );
    let lower = text.to_lowercase();
    VENDORS.any(|w| lower.contains(w)).then(|| {
        lang.pick(
            "설계안은 모델의 크기(small·large)만 정하고 회사는 정하지 않아요. 어느 설계안이든 원하는 제공자로 돌릴 수 있습니다: 설정에서 \
             제공자(OpenAI, Anthropic, OpenAI 호환 서버)와 모델을 고르고, large 단계에는 그 제공자의 큰 모델을, small 단계에는 작은 모델을 쓰면 됩니다.",
            "The designs set each step's model size (small or large), not the vendor, so any of them runs on the provider you want: \
             pick the provider (OpenAI, Anthropic or an OpenAI-compatible server) and the model in Settings, and use its larger model \
             for the large steps and a smaller one for the small steps.",
        )
        .to_string()
    })
}

fn is_why_not(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    // 왜 … 안/아니: why … not
    WordList("why not|why isn't|why wasn't|why don't you|why didn't you").any(|w| lower.contains(w))
        || (text.contains("왜") && (text.contains(" 안 ") || text.contains("아니") || text.contains(" 안")))
}

/// True when `text` asks which design the assistant would pick ("which one would you pick?",
/// "뭘 추천해요?").
pub fn asks_for_recommendation(text: &str) -> bool {
    is_question(text, &text.to_ascii_lowercase()) && question_topic(text) == Topic::Recommendation
}

/// The topic a question asks about, from its words; `Difference` when none is clear.
pub fn question_topic(text: &str) -> Topic {
    let lower = text.to_ascii_lowercase();
    let has = |list: WordList| list.iter().any(|w| lower.contains(w));
    // Korean entries: 비용/싸/저렴/가격/얼마 (cost), 보안/개인정보/안전 (security),
    // 빠르/빨리/속도/지연 (speed), 단순/간단/쉬/복잡 (simplicity), 정확/품질/신뢰/환각 (quality),
    // 추천/어느 게 나/뭘 골 (recommendation).
    if has(WordList("보안|개인정보|안전|secur|privacy|safe|pii")) {
        Topic::Security
    } else if has(WordList("비용|싸|싼|저렴|가격|얼마|비싸|cost|cheap|price|expensive|budget|$")) {
        Topic::Cost
    } else if has(WordList("빠르|빨리|빠른|속도|지연|fast|quick|speed|latency|slow")) {
        Topic::Speed
    } else if has(WordList("단순|간단|쉬운|쉽|복잡|simple|simplest|easy|easiest|complex|maintain")) {
        Topic::Simplicity
    } else if has(WordList("정확|품질|신뢰|환각|검증|accura|quality|reliab|hallucinat|robust|error")) {
        Topic::Quality
    } else if has(WordList("추천|어느 게 나|뭘 골|뭐가 나|recommend|should i|which one would|best|suggest"))
    {
        Topic::Recommendation
    } else {
        Topic::Difference
    }
}

/// Two designs side by side: their agents, complexity and cost, the steps only one of them
/// has, and the strength of each.
fn compare_two(designs: &[DesignProposal], a: usize, b: usize, lang: Lang) -> String {
    let (x, y) = (&designs[a], &designs[b]);
    let label = |i: usize| format!("{}. {}", i + 1, designs[i].name);
    let only = |of: &DesignProposal, other: &DesignProposal| -> Vec<String> {
        of.agents.iter().filter(|g| !other.agents.iter().any(|o| o.name == g.name)).map(|g| g.name.clone()).collect()
    };
    let first = |items: &[String]| items.first().cloned().unwrap_or_else(|| "-".into());
    let (only_x, only_y) = (only(x, y), only(y, x));
    let (agents_a, agents_b) = (x.agents.len(), y.agents.len());
    let (complexity_a, complexity_b) = (x.complexity.label(lang), y.complexity.label(lang));
    let (cost_a, cost_b) = (&x.estimated_cost, &y.estimated_cost);
    let (label_a, label_b) = (label(a), label(b));
    let mut out = match lang {
        Lang::Ko => format!(
            "{} {label_b}의 차이: 에이전트 {agents_a}개 대 {agents_b}개, 복잡도 {complexity_a} 대 {complexity_b}, \
             실행당 {cost_a} 대 {cost_b}.",
            crate::engine::lang::with_and(&label_a)
        ),
        Lang::En => format!(
            "{label_a} vs {label_b}: {agents_a} agents against {agents_b}, {complexity_a} complexity against \
             {complexity_b}, {cost_a} per run against {cost_b}."
        ),
    };
    for (i, steps) in [(a, &only_x), (b, &only_y)].into_iter().filter(|(_, steps)| !steps.is_empty()) {
        out.push_str(&match lang {
            Lang::Ko => format!(" {}번에만 있는 단계: {}.", i + 1, steps.join(", ")),
            Lang::En => format!(" Only {} has: {}.", i + 1, steps.join(", ")),
        });
    }
    out.push_str(&match lang {
        Lang::Ko => format!(" {}번의 장점: {}. {}번의 장점: {}.", a + 1, first(&x.pros), b + 1, first(&y.pros)),
        Lang::En => format!(" {}'s strength: {}. {}'s: {}.", a + 1, first(&x.pros), b + 1, first(&y.pros)),
    });
    out
}

/// The low end of a cost estimate in cents: "~$0.05-0.10" → 5.
fn cost_cents(cost: &str) -> Option<u64> {
    let start = cost.find(|c: char| c.is_ascii_digit())?;
    let number: String = cost[start..].chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let (whole, frac) = number.split_once('.').unwrap_or((&number, ""));
    let whole: u64 = whole.parse().ok()?;
    let frac: String = frac.chars().chain("00".chars()).take(2).collect();
    Some(whole * 100 + frac.parse::<u64>().unwrap_or(0))
}

/// The design an answer to `text` names: the one asked about, or the one a superlative
/// question picks ("which is cheapest?" → the cheapest); `None` for how they differ. An
/// approval that points back ("go with that") then means it.
pub fn answered_design(text: &str, about: Option<usize>, designs: &[DesignProposal]) -> Option<usize> {
    about.filter(|i| *i < designs.len()).or_else(|| best_for(question_topic(text), designs))
}

/// The design that is best for `topic`: the cheapest, the simplest or fastest, the most secure,
/// the most thorough, the recommended one; `None` for how they differ, or with no designs.
fn best_for(topic: Topic, designs: &[DesignProposal]) -> Option<usize> {
    if designs.is_empty() {
        return None;
    }
    let by_min = |key: &dyn Fn(&DesignProposal) -> u64| (0..designs.len()).min_by_key(|i| (key(&designs[*i]), *i));
    let by_max =
        |key: &dyn Fn(&DesignProposal) -> u64| (0..designs.len()).max_by_key(|i| (key(&designs[*i]), usize::MAX - *i));
    let checks = |d: &DesignProposal| {
        WordList("validator|cross_checker|critic|human_review|guard").iter().filter(|r| d.has_role(r)).count() as u64
    };
    match topic {
        Topic::Cost => by_min(&|d| cost_cents(&d.estimated_cost).unwrap_or(u64::MAX)),
        Topic::Simplicity | Topic::Speed => by_min(&|d| d.agents.len() as u64 * 10 + d.complexity as u64),
        Topic::Security => {
            by_max(&|d| d.has_role("guard") as u64 * 10 + d.has_role("validator") as u64 * 3 + checks(d))
        }
        Topic::Quality => by_max(&|d| checks(d) * 10 + d.complexity as u64),
        Topic::Recommendation => Some(designs.iter().position(|d| d.recommended).unwrap_or(0)),
        Topic::Difference => None,
    }
}

/// Answers a question about the designs from their data, in the discussion's language:
/// the cheapest, simplest, most secure, fastest or most thorough design, the
/// recommendation, or how they differ. `about` narrows it to one design when named.
pub fn answer_question(text: &str, about: Option<usize>, designs: &[DesignProposal], lang: Lang) -> String {
    if designs.is_empty() {
        return lang.pick("아직 비교할 설계안이 없습니다.", "There are no designs to compare yet.").to_string();
    }
    let ko = lang == Lang::Ko;
    if let Some(answer) = step_role(text, designs, lang).or_else(|| vendor_answer(text, lang)) {
        return answer;
    }
    let label = |i: usize| format!("{}. {}", i + 1, designs[i].name);
    let topic = question_topic(text);
    // "why not 3?", "3번은 왜 추천 안 해요?": the design the question turns down is the one asked about.
    let refs = design_refs(text, &briefs(designs), designs.iter().position(|d| d.recommended));
    let about = about.or_else(|| {
        let mut named: Vec<usize> = refs.iter().filter(|r| !r.recommended).map(|r| r.index).collect();
        named.dedup();
        match named[..] {
            [one] if topic == Topic::Recommendation || is_why_not(text) => Some(one),
            _ => None,
        }
    });
    let topic = if about.is_some() && is_why_not(text) { Topic::Recommendation } else { topic };
    if let Some(i) = about.filter(|i| *i < designs.len()) {
        let d = &designs[i];
        // "why is 2 recommended?": its strength, its price, and the others' weak points; "why
        // not 3?": its weak point against the recommended one.
        if topic == Topic::Recommendation {
            let first = |items: &[String]| items.first().cloned().unwrap_or_else(|| "-".into());
            let others: Vec<String> = (0..designs.len())
                .filter(|&j| j != i)
                .map(|j| format!("{}: {}", label(j), first(&designs[j].cons)))
                .collect();
            let pick = designs.iter().position(|x| x.recommended).filter(|&r| r != i);
            return match (pick, ko) {
                (None, true) => format!(
                    "{} 추천하는 이유: {}. 대신 {}. 다른 안의 약점: {}.",
                    crate::engine::lang::with_object(&label(i)),
                    first(&d.pros),
                    first(&d.cons),
                    others.join("; ")
                ),
                (None, false) => format!(
                    "I recommend {} because of this: {}. The price: {}. The others' weak points: {}.",
                    label(i),
                    first(&d.pros),
                    first(&d.cons),
                    others.join("; ")
                ),
                (Some(r), true) => format!(
                    "{} 추천안이 아닙니다. 약점: {}. 추천은 {}입니다: {}.",
                    crate::engine::lang::with_topic(&label(i)),
                    first(&d.cons),
                    label(r),
                    first(&designs[r].pros)
                ),
                (Some(r), false) => format!(
                    "{} is not the one I recommend. Its weak point: {}. I recommend {}: {}.",
                    label(i),
                    first(&d.cons),
                    label(r),
                    first(&designs[r].pros)
                ),
            };
        }
        return match (topic, ko) {
            // "3번은 왜 비싸요?", "why is 3 so expensive?": what the price comes from.
            (Topic::Cost, true) if asks_why(text) => format!(
                "{}의 예상 비용은 실행당 {}입니다. 에이전트 {}개 중 {}개가 큰 모델을 써서, 호출 수와 큰 모델 단계가 비용을 정합니다.",
                label(i),
                d.estimated_cost,
                d.agents.len(),
                d.agents.iter().filter(|a| a.model == "large").count()
            ),
            (Topic::Cost, false) if asks_why(text) => format!(
                "{} is estimated at {} per run: {} agents, {} of them on a large model; the number of calls and the large-model steps set the price.",
                label(i),
                d.estimated_cost,
                d.agents.len(),
                d.agents.iter().filter(|a| a.model == "large").count()
            ),
            (Topic::Cost, true) => format!("{}의 예상 비용은 실행당 {}입니다.", label(i), d.estimated_cost),
            (Topic::Cost, false) => format!("{} is estimated at {} per run.", label(i), d.estimated_cost),
            (_, true) => format!(
                "{}: 에이전트 {}개({}), 복잡도 {}, 예상 비용 {}. 장점: {}. 단점: {}.",
                label(i),
                d.agents.len(),
                d.flow(),
                d.complexity.label(lang),
                d.estimated_cost,
                d.pros.first().map(String::as_str).unwrap_or("-"),
                d.cons.first().map(String::as_str).unwrap_or("-")
            ),
            (_, false) => format!(
                "{}: {} agents ({}), {} complexity, about {} per run. Pro: {}. Con: {}.",
                label(i),
                d.agents.len(),
                d.flow(),
                d.complexity.label(lang),
                d.estimated_cost,
                d.pros.first().map(String::as_str).unwrap_or("-"),
                d.cons.first().map(String::as_str).unwrap_or("-")
            ),
        };
    }
    // "what's the difference between 2 and 3?", "what does the advanced one do that the standard
    // one doesn't?": those two side by side, and the steps only one has. 차이/달라/다른 점: difference;
    // 비교: comparison; 보다: than.
    let lower = text.to_lowercase();
    let asks_difference = topic == Topic::Difference
        || WordList("differ|vs|versus|compare|doesn't|does not|don't|than |차이|달라|다른 점|비교|보다")
            .any(|w| lower.contains(w));
    if asks_difference {
        let mut named: Vec<usize> = refs.iter().map(|r| r.index).filter(|i| *i < designs.len()).collect();
        // "the advanced one" and "the standard one": two designs described, which a choice
        // would find ambiguous, are the two to compare.
        if named.is_empty() {
            named = description_mentions(&lower, &briefs(designs), true).iter().map(|r| r.2).collect();
        }
        named.sort_unstable();
        named.dedup();
        if let [a, b] = named[..] {
            return compare_two(designs, a, b, lang);
        }
    }
    match topic {
        Topic::Cost => {
            let i = best_for(topic, designs).unwrap_or(0);
            if ko {
                format!("가장 저렴한 것은 {}입니다 (실행당 {}).", label(i), designs[i].estimated_cost)
            } else {
                format!("The cheapest is {} ({} per run).", label(i), designs[i].estimated_cost)
            }
        }
        Topic::Simplicity | Topic::Speed => {
            let i = best_for(topic, designs).unwrap_or(0);
            let n = designs[i].agents.len();
            match (topic, ko) {
                (Topic::Speed, true) => format!("가장 빠른 것은 단계가 가장 적은 {}입니다 (에이전트 {n}개).", label(i)),
                (Topic::Speed, false) => format!("The fastest is {}, with the fewest steps ({n} agents).", label(i)),
                (_, true) => format!("가장 단순한 것은 {}입니다 (에이전트 {n}개: {}).", label(i), designs[i].flow()),
                (_, false) => format!("The simplest is {} ({n} agents: {}).", label(i), designs[i].flow()),
            }
        }
        Topic::Security => {
            let i = best_for(topic, designs).unwrap_or(0);
            let guard = designs[i].has_role("guard");
            match (guard, ko) {
                (true, true) => format!("보안에 가장 강한 것은 개인정보 보호 필터가 있는 {}입니다.", label(i)),
                (true, false) => format!("The most secure is {}: it has a privacy guard.", label(i)),
                (false, true) => format!(
                    "입력 검증 단계가 가장 많은 {} 보안에 가장 유리합니다. 개인정보 보호 필터를 원하시면 말씀해 주세요.",
                    with_subject(&label(i))
                ),
                (false, false) => format!(
                    "{} checks its input most, so it is the safest; ask for a privacy guard if you need one.",
                    label(i)
                ),
            }
        }
        Topic::Quality => {
            let i = best_for(topic, designs).unwrap_or(0);
            if ko {
                format!(
                    "결과 품질을 가장 잘 지키는 것은 검증 단계가 가장 많은 {}입니다 ({}).",
                    label(i),
                    designs[i].flow()
                )
            } else {
                format!("The most thorough is {}: it has the most checks ({}).", label(i), designs[i].flow())
            }
        }
        Topic::Recommendation => {
            let i = best_for(topic, designs).unwrap_or(0);
            let why = designs[i].pros.first().cloned().unwrap_or_default();
            if ko {
                format!("추천은 {}입니다: {why}.", label(i))
            } else {
                format!("I recommend {}: {why}.", label(i))
            }
        }
        Topic::Difference => {
            let lines: Vec<String> = (0..designs.len())
                .map(|i| {
                    let d = &designs[i];
                    if ko {
                        format!(
                            "{}: 에이전트 {}개, 복잡도 {}, {}",
                            label(i),
                            d.agents.len(),
                            d.complexity.label(lang),
                            d.estimated_cost
                        )
                    } else {
                        format!(
                            "{}: {} agents, {} complexity, {}",
                            label(i),
                            d.agents.len(),
                            d.complexity.label(lang),
                            d.estimated_cost
                        )
                    }
                })
                .collect();
            lines.join("\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::design::fallback_designs;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The hand-written replies and their expected readings.
    const DATASET: &str = include_str!("../../tests/data/debate_replies.tsv");

    fn read(text: &str, lang: Lang) -> Reading {
        let designs = fallback_designs("build a news digest", "Markdown", lang);
        read_reply(text, &briefs(&designs), Some(1), lang)
    }

    #[test]
    fn every_class_and_language_reads_at_least_95_percent_of_the_dataset() {
        let mut scores: std::collections::BTreeMap<(String, String), (usize, usize)> = Default::default();
        let mut misses = Vec::new();
        for line in DATASET.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let mut cols = line.splitn(3, '\t');
            let (Some(lang), Some(expected), Some(text)) = (cols.next(), cols.next(), cols.next()) else {
                panic!("malformed line: {line}");
            };
            let lang = Lang::from_tag(lang);
            let got = read(text, lang).notation();
            let class = expected.split(':').next().unwrap_or(expected).to_string();
            let entry = scores.entry((lang.tag().to_string(), class)).or_default();
            entry.1 += 1;
            if got == expected {
                entry.0 += 1;
            } else {
                misses.push(format!("{text} → {got} (want {expected})"));
            }
        }
        assert!(scores.values().map(|s| s.1).sum::<usize>() >= 200);
        for ((lang, class), (hit, total)) in &scores {
            assert!(*hit * 100 >= *total * 95, "{lang} {class}: {hit}/{total}\n{}", misses.join("\n"));
        }
    }

    #[test]
    fn a_pick_with_a_reason_or_in_shorthand_settles_on_the_design_and_look_alikes_do_not() {
        let picks: &[(&str, Lang, usize)] = &[
            ("the advanced one is too expensive, so standard", Lang::En, 1),
            ("standard, since the advanced one is overkill", Lang::En, 1),
            ("go big, option 3", Lang::En, 2),
            ("B, definitely", Lang::En, 1),
            ("I prefer the simpler one", Lang::En, 0),
            ("none of the fancy stuff, just the basic one", Lang::En, 0),
            ("the simple one, since it's cheaper", Lang::En, 0),
            ("2 makes sense", Lang::En, 1),
            ("the simple one will do", Lang::En, 0),
            ("i'll go w/ 2", Lang::En, 1),
            ("비용은 상관없으니 3번", Lang::Ko, 2),
            ("2번 ㄱㄱ", Lang::Ko, 1),
            ("1번이면 충분해요", Lang::Ko, 0),
            ("중간 걸로", Lang::Ko, 1),
            ("제일 간단한 거", Lang::Ko, 0),
            ("let's try 2", Lang::En, 1),
            ("my vote is 2", Lang::En, 1),
            ("I'm happy with 2", Lang::En, 1),
            ("2번으로 해볼게요", Lang::Ko, 1),
            ("3번이 끌리네요", Lang::Ko, 2),
            ("돈은 상관없어요 3번으로", Lang::Ko, 2),
            ("말씀하신 대로 2번", Lang::Ko, 1),
            // Asides: what the user does not mind, a manner adverb before the design, a
            // drawback of the design turned down.
            ("C, money is no issue", Lang::En, 2),
            ("option C, cost doesn't matter", Lang::En, 2),
            ("C, budget is not a concern", Lang::En, 2),
            ("간단하게 1번", Lang::Ko, 0),
            ("빠르게 2번으로", Lang::Ko, 1),
            ("3번은 비싸요 1번", Lang::Ko, 0),
            ("3번은 복잡하니까 2번으로", Lang::Ko, 1),
            // Two references over the same words.
            ("the middle option, since it is cheaper", Lang::En, 1),
        ];
        for (text, lang, want) in picks {
            assert_eq!(read(text, *lang).picked(), Some(*want), "{text}");
        }
        for (text, lang) in [
            ("simpler please", Lang::En),
            ("I want a simpler one", Lang::En),
            ("B, definitely not", Lang::En),
            ("2 steps is too many", Lang::En),
            ("2 makes no sense", Lang::En),
            ("1번은 충분하지 않아요", Lang::Ko),
            ("happy with neither", Lang::En),
            ("try to make 2 faster", Lang::En),
            ("더 간단하게 1번", Lang::Ko),
            ("1번은 복잡하지 않아요", Lang::Ko),
            ("3번은 비싸요", Lang::Ko),
            ("money is no issue, make C bigger", Lang::En),
            ("C, but money is an issue", Lang::En),
        ] {
            assert_eq!(read(text, lang).picked(), None, "{text}");
        }
    }

    #[test]
    fn an_adverb_of_manner_with_a_verb_of_making_asks_for_a_change_even_politely() {
        // 주세요 commits on its own ("2번으로 해 주세요"); "make 1 simple, please" changes 1.
        for (text, design) in [
            ("1번 간단하게 해 주세요", Some(0)),
            ("1번 좀 더 꼼꼼하게 해줘", Some(0)),
            ("2번을 가볍게 만들어 주세요", Some(1)),
            ("3번 빠르게 바꿔 주세요", Some(2)),
            ("간단하게 해 주세요", None),
        ] {
            assert_eq!(read(text, Lang::Ko), Reading::Feedback(design), "{text}");
        }
        // "더 싸게" also names the cheapest design: two designs, no pick either.
        assert_eq!(read("1번 더 싸게 해줘", Lang::Ko).picked(), None);
        // The adverb opens the reply before the design, points, or is the verb itself: picks.
        for (text, design) in [
            ("간단하게 1번으로 해 주세요", 0),
            ("2번 그렇게 해 주세요", 1),
            ("2번으로 하게 해 주세요", 1),
            ("1번으로 해 주세요", 0),
        ] {
            assert_eq!(read(text, Lang::Ko).picked(), Some(design), "{text}");
        }
    }

    #[test]
    fn the_issue_s_misread_replies_settle_on_the_right_design() {
        let cases: &[(&str, Lang, Option<usize>)] = &[
            ("1번 안으로 가겠습니다", Lang::Ko, Some(0)),
            ("C안이 마음에 들어요", Lang::Ko, Some(2)),
            ("C안 좋아요", Lang::Ko, Some(2)),
            ("option B it is", Lang::En, Some(1)),
            ("the second one", Lang::En, Some(1)),
            ("3 sounds fine to me", Lang::En, Some(2)),
            // The page's own hint examples.
            ("2번이 좋아요", Lang::Ko, Some(1)),
            ("2 looks good", Lang::En, Some(1)),
            // Not choices.
            ("안 좋아요", Lang::Ko, None),
            ("3번 안 좋아요", Lang::Ko, None),
            ("not good", Lang::En, None),
            // Satisfied, no design named: the confirm step asks which (seed 000).
            ("좋아요", Lang::Ko, None),
            // The recommendation named.
            ("추천안으로 할게요", Lang::Ko, Some(1)),
            ("go with the recommended one", Lang::En, Some(1)),
        ];
        for (text, lang, want) in cases {
            assert_eq!(read(text, *lang).picked(), *want, "{text}");
        }
        assert!(matches!(read("C안 좋아요", Lang::Ko), Reading::Approve(2)));
        assert!(matches!(read("option B it is", Lang::En), Reading::Choose(1)));
        assert!(matches!(read("3 sounds fine to me", Lang::En), Reading::Approve(2)));
    }

    #[test]
    fn hedges_questions_and_start_over_are_not_choices() {
        let cases: &[(&str, Lang, &str)] = &[
            ("좋긴 한데 비용을 줄여 주세요", Lang::Ko, "feedback:all"),
            ("looks good but make it cheaper", Lang::En, "feedback:all"),
            ("2번이 좋은데 에이전트를 하나 줄여 주세요", Lang::Ko, "feedback:2"),
            ("어느 게 제일 싸요?", Lang::Ko, "question"),
            ("which one is cheapest?", Lang::En, "question"),
            ("could you add a privacy filter?", Lang::En, "feedback:all"),
            // A request in a later clause, a requirement, a number word, "the one with".
            ("the standard one looks right, but can we skip the validator?", Lang::En, "feedback:2"),
            ("the second one looks fine but can it skip the human review?", Lang::En, "feedback:2"),
            ("can it handle a thousand emails a day?", Lang::En, "question"),
            ("ok so the first step should fetch from the GitHub API", Lang::En, "feedback:all"),
            ("I think we should go with 2", Lang::En, "choose:2"),
            ("two", Lang::En, "choose:2"),
            ("the one with validation", Lang::En, "choose:2"),
            ("first, tell me how much each costs", Lang::En, "question"),
            ("처음 거로 할게요", Lang::Ko, "choose:1"),
            // A bare yes, "that way", a choice left to the assistant, "the cheap one", a type.
            ("네", Lang::Ko, "approve_rec"),
            ("네 그렇게 해 주세요", Lang::Ko, "approve_rec"),
            ("알아서 골라 주세요", Lang::Ko, "approve_rec"),
            ("아무거나요", Lang::Ko, "approve_rec"),
            ("whichever you think is best", Lang::En, "approve_rec"),
            ("you pick, but keep it cheap", Lang::En, "feedback:all"),
            ("I don't like any of them", Lang::En, "feedback:all"),
            ("아무거나 다 별로예요", Lang::Ko, "feedback:all"),
            ("싼 걸로", Lang::Ko, "choose:1"),
            ("비싼 거 말고 싼 걸로", Lang::Ko, "choose:1"),
            ("표준형", Lang::Ko, "choose:2"),
            ("네 근데 비용 좀 줄여 주세요", Lang::Ko, "feedback:all"),
            ("이대로 진행해 주세요", Lang::Ko, "approve_rec"),
            ("둘", Lang::Ko, "choose:2"),
            // The kind of design alone or taken: "표준으로 할게요", "standard please".
            ("표준으로 할게요", Lang::Ko, "choose:2"),
            ("고급으로 가죠", Lang::Ko, "choose:3"),
            ("검증으로 품질을 높여 주세요", Lang::Ko, "feedback:all"),
            ("standard please", Lang::En, "choose:2"),
            ("simple", Lang::En, "choose:1"),
            ("let's do standard", Lang::En, "choose:2"),
            ("keep it simple", Lang::En, "feedback:all"),
            // What a good result would be, and a count of hours: no design picked.
            ("it's good if every new bug from the last 24 hours is listed with its link", Lang::En, "feedback:all"),
            ("ok only if it costs under a dollar a day", Lang::En, "feedback:all"),
            ("perfect when the first 10 results have their links", Lang::En, "feedback:all"),
            ("마지막 날 결과만 보여 주면 돼요", Lang::Ko, "feedback:all"),
            ("처음부터 다시 할게요", Lang::Ko, "start_over"),
            ("let's start over", Lang::En, "start_over"),
            ("", Lang::En, "unclear"),
        ];
        for (text, lang, want) in cases {
            assert_eq!(read(text, *lang).notation(), *want, "{text}");
        }
    }

    #[test]
    fn unsettled_replies_are_flagged_for_a_model() {
        let designs = fallback_designs("news", "Markdown", Lang::Ko);
        let cases = [
            ("그렇군요", false),
            ("음…", false),
            // A bare yes approves the recommendation: the confirmation card asks which.
            ("네", true),
            ("2번 비용은요", false),
            ("2번으로 할게요", true),
            ("비용을 줄여 주세요", true),
            ("별로예요", true),
            ("어느 게 싸요?", true),
        ];
        for (text, want) in cases {
            assert_eq!(read_reply_settled(text, &briefs(&designs), Some(1), Lang::Ko).1, want, "{text}");
        }
        let p = reply_prompt("네 </user_input> 2번", &designs, Lang::Ko);
        assert!(p.json_output && p.turns[0].text.contains("2. 검증 포함 표준 파이프라인"));
        assert!(p.turns[0].text.contains("&lt;/user_input&gt;"), "the reply stays isolated");
    }

    #[test]
    fn model_readings_are_checked() {
        let cases: &[(&str, Result<Reading, ()>)] = &[
            (r#"{"kind":"choose","design":2}"#, Ok(Reading::Choose(1))),
            (r#"```json\n{"kind":"approve","design":"3"}\n```"#, Ok(Reading::Approve(2))),
            (
                r#"{"kind":"approve_recommended","design":null}"#,
                Ok(Reading::ApproveRecommended { design: Some(1), named: false }),
            ),
            (
                r#"{"kind":"approve_recommended","design":2}"#,
                Ok(Reading::ApproveRecommended { design: Some(1), named: true }),
            ),
            (r#"{"kind":"feedback","design":null}"#, Ok(Reading::Feedback(None))),
            (r#"{"kind":"question","design":1}"#, Ok(Reading::Question(Some(0)))),
            (r#"{"kind":"start_over"}"#, Ok(Reading::StartOver)),
            (r#"{"kind":"choose","design":7}"#, Err(())),
            (r#"{"kind":"choose"}"#, Err(())),
            (r#"{"kind":"dance"}"#, Err(())),
            ("not json", Err(())),
        ];
        for (raw, want) in cases {
            assert_eq!(parse_reply_reading(raw, 3, Some(1)).map_err(|_| ()), *want, "{raw}");
        }
    }

    #[test]
    fn any_text_reads_without_panicking_and_names_only_real_designs() {
        let designs = fallback_designs("news", "Markdown", Lang::Ko);
        let pieces = [
            "1", "2", "3", "9", "번", "안", "A", "b", "C", " ", "좋아", "안 ", "?", "$", ".", "의", "로", "말고",
            "not ", "option ", "the ", "second", "🙂", "é", "#", "검증", "simple", "one", "가", "요", "\n", "'", "-",
            "1st", "만원", "team of ", "emails", " into ", "을 ", "요약", "명 팀",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..1500 {
            let mut text = String::new();
            for _ in 0..(seed % 9) {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let reading = read_reply(&text, &briefs(&designs), Some(1), Lang::Ko);
            if let Some(i) = reading.picked() {
                assert!(i < designs.len(), "{text:?} → {reading:?}");
            }
            let _ = read_reply_settled(&text, &briefs(&designs[..1]), None, Lang::En);
            let _ = answer_question(&text, reading.picked(), &designs, Lang::Ko);
            let _ = crate::engine::design::Needs::read(&text);
            let _ = crate::engine::slots::parse_format(&text);
        }
    }

    #[test]
    fn plan_nouns_are_told_from_the_negation_an() {
        let cases = [
            ("C안", true),
            ("C 안", true),
            ("2번안", true),
            ("추천안", true),
            ("표준안", true),
            ("", false),
            ("정말 안", false),
            ("3번 안", false),
            ("별로", false),
        ];
        for (before, want) in cases {
            assert_eq!(is_plan_noun(before), want, "{before}");
        }
    }

    #[test]
    fn names_only_readers_work_without_design_data() {
        let names = ["Lean", "Checked", "Thorough"];
        assert_eq!(read_reply_names("let's go with Checked", &names, None, Lang::En), Reading::Choose(1));
        assert_eq!(read_reply_names("2번이 좋아요", &names, None, Lang::Ko), Reading::Approve(1));
        assert_eq!(
            read_reply_names("좋아요", &names, None, Lang::Ko),
            Reading::ApproveRecommended { design: None, named: false }
        );
    }

    #[test]
    fn questions_are_answered_from_the_design_data() {
        let designs = fallback_designs("build a news digest", "Markdown", Lang::En);
        let cases: &[(&str, Option<usize>, Lang, &str)] = &[
            ("which one is cheapest?", None, Lang::En, "The cheapest is 1. Simple Sequential Pipeline"),
            ("which is the simplest?", None, Lang::En, "The simplest is 1."),
            ("which is most accurate?", None, Lang::En, "The most thorough is 3."),
            ("which is fastest?", None, Lang::En, "The fastest is 1."),
            ("what would you recommend?", None, Lang::En, "I recommend 2."),
            ("what does B cost?", Some(1), Lang::En, "~$0.05-0.10"),
            ("what's the difference?", None, Lang::En, "3. Advanced Multi-Agent Pipeline: 6 agents"),
            // Why one is recommended, and why another is not: strengths and weak points.
            (
                "why is 2 recommended?",
                Some(1),
                Lang::En,
                "I recommend 2. Standard Pipeline with Validation because of this",
            ),
            ("why is 2 recommended?", Some(1), Lang::En, "The others' weak points: 1. Simple Sequential Pipeline: "),
            (
                "why not 3?",
                None,
                Lang::En,
                "3. Advanced Multi-Agent Pipeline is not the one I recommend. Its weak point: ",
            ),
            ("is 1 recommended?", Some(0), Lang::En, "1. Simple Sequential Pipeline is not the one I recommend."),
        ];
        for (q, about, lang, want) in cases {
            let answer = answer_question(q, *about, &designs, *lang);
            assert!(answer.contains(want), "{q}: {answer}");
        }
        // The vendor is a setting; why one costs what it does.
        let claude = answer_question("can 2 use Claude instead of GPT?", Some(1), &designs, Lang::En);
        assert!(claude.starts_with("The designs set each step's model size"), "{claude}");
        let ko_why =
            answer_question("3번은 왜 비싸요?", Some(2), &fallback_designs("뉴스 요약", "", Lang::Ko), Lang::Ko);
        assert!(ko_why.contains("에이전트 6개 중 3개가 큰 모델"), "{ko_why}");
        // What a step does, and which designs have it.
        let validator = answer_question("what does the validator do?", Some(1), &designs, Lang::En);
        assert!(validator.starts_with("The validator (designs 2, 3): Filters out"), "{validator}");
        let ko = fallback_designs("뉴스 요약", "", Lang::Ko);
        let cross = answer_question("교차 검증기는 무슨 역할이에요?", None, &ko, Lang::Ko);
        assert!(cross.starts_with("교차 검증기(3번 설계안): 분석 결과를 원자료와 대조해"), "{cross}");
        let answer = answer_question("어느 게 제일 싸요?", None, &ko, Lang::Ko);
        assert!(answer.starts_with("가장 저렴한 것은 1. 단순 순차 파이프라인"), "{answer}");
        let secure = answer_question("보안은 어느 게 나아요?", None, &ko, Lang::Ko);
        assert!(secure.contains("3. 고급 멀티 에이전트 파이프라인이 보안에"), "{secure}");
        assert_eq!(answer_question("?", None, &[], Lang::En), "There are no designs to compare yet.");
        let why = answer_question("2번은 왜 추천이에요?", Some(1), &ko, Lang::Ko);
        assert!(why.starts_with("2. 검증 포함 표준 파이프라인을 추천하는 이유: "), "{why}");
        let why_not = answer_question("3번은 왜 추천 안 해요?", None, &ko, Lang::Ko);
        assert!(why_not.starts_with("3. 고급 멀티 에이전트 파이프라인은 추천안이 아닙니다. 약점: "), "{why_not}");
        // Two designs named: those two side by side, with the steps only one of them has.
        let two = answer_question("what is the difference between 1 and 3?", None, &designs, Lang::En);
        assert!(
            two.starts_with("1. Simple Sequential Pipeline vs 3. Advanced Multi-Agent Pipeline: ")
                && two.contains("Only 3 has: validator, cross-checker")
                && !two.contains("2. Standard"),
            "{two}"
        );
        let versus = answer_question("2 vs 3 — which is better?", None, &designs, Lang::En);
        assert!(versus.starts_with("2. Standard Pipeline with Validation vs 3."), "{versus}");
        let ko_two = answer_question("2번이랑 3번 차이가 뭐예요?", None, &ko, Lang::Ko);
        assert!(
            ko_two.starts_with("2. 검증 포함 표준 파이프라인과 3. 고급 멀티 에이전트 파이프라인의 차이: ")
                && ko_two.contains("3번에만 있는 단계: "),
            "{ko_two}"
        );
        // Two designs described, not numbered: those two.
        let described =
            answer_question("what does the advanced one do that the standard one doesn't?", None, &designs, Lang::En);
        assert!(described.starts_with("2. Standard Pipeline with Validation vs 3. Advanced"), "{described}");
        let ko_described = answer_question("고급이랑 표준은 뭐가 달라요?", None, &ko, Lang::Ko);
        assert!(ko_described.starts_with("2. 검증 포함 표준 파이프라인과 3. 고급"), "{ko_described}");
        // A pointer blanked out, the change asked stays.
        assert_eq!(
            without_design_refs("make the simple one use a bigger model", &designs),
            "make the        one use a bigger model"
        );
    }

    #[test]
    fn topics_are_read_from_question_words() {
        let cases = [
            ("어느 게 제일 싸요?", Topic::Cost),
            ("which is most secure?", Topic::Security),
            ("뭐가 제일 빨라요? 속도가 중요해요", Topic::Speed),
            ("which is easiest to maintain?", Topic::Simplicity),
            ("정확도는 어느 게 높아요?", Topic::Quality),
            ("what do you recommend?", Topic::Recommendation),
            ("차이가 뭐예요?", Topic::Difference),
        ];
        for (q, want) in cases {
            assert_eq!(question_topic(q), want, "{q}");
        }
    }
}
