//! One conversation: its messages, the state of its mode, the LLM calls in flight, and
//! `step`, the engine's single entry point (event in, effects out).

use serde::{Deserialize, Serialize};

use super::call::{BatchId, CallId, LlmCall, LlmFailure, LlmOutcome, LlmRole, Purpose, Usage};
use super::contract::Field;
use super::critique::Critique;
use super::design::DesignProposal;
use super::discussion::Discussion;
use super::lang::Lang;
use super::plan::Plan;
use super::prompt::Prompt;
use super::security::InjectionKind;
use super::source::Source;

/// Identifies a message within a session.
pub type MessageId = u32;
/// Identifies a question card within a session.
pub type CardId = u32;

/// What a session does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Talk a request into an agreed plan (seed 000 with 002 and 003).
    #[default]
    Discussion,
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

/// What a question is about, so its answer lands in the right place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "target", content = "name", rename_all = "snake_case")]
pub enum Target {
    /// A field of the requirement contract.
    Field(Field),
    /// A slot of the gate (non-discussion intents).
    Slot(String),
    /// Which design to go with.
    Design,
    /// Whether to proceed with stated assumptions.
    Proceed,
    /// A question an LLM wrote; the answer informs the next analysis.
    Free,
}

/// One question of a card (AskUserQuestion: free text, or 2–10 options plus "Other").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    pub text: String,
    /// Choices; empty for a free-text question.
    pub options: Vec<String>,
    /// Whether an answer other than the options is accepted.
    pub allow_other: bool,
    pub target: Target,
}

/// Most options a question may offer.
pub const MAX_OPTIONS: usize = 10;

/// Why a card was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// Questions for missing information (UNDERSTAND).
    Clarify,
    /// Strict mode at the round limit: proceed on the stated assumptions?
    ConfirmAssumptions,
    /// Pick one of the designs (CONFIRM, or forced at the round limit).
    ChooseDesign,
}

/// A card of questions the user answers in place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionCard {
    pub id: CardId,
    pub kind: CardKind,
    pub questions: Vec<Question>,
    /// The answers once given, one per question ("" for a skipped one).
    pub answers: Option<Vec<String>>,
    pub source: Source,
}

impl QuestionCard {
    /// True while the card waits for answers.
    pub fn is_open(&self) -> bool {
        self.answers.is_none()
    }
}

/// A design's critique and who made it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reviewed {
    pub critique: Critique,
    pub source: Source,
}

/// The response types of seed 000, carried by assistant messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseType {
    SecurityWarning,
    Clarification,
    DesignsPresented,
    CritiqueComplete,
    PlanGenerated,
    Error,
}

/// What a message shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Body {
    /// Plain text: the user's words, or assistant prose (Markdown).
    Text { text: String, source: Option<Source> },
    /// The message was blocked as a prompt-injection attempt.
    SecurityWarning { findings: Vec<InjectionKind> },
    /// Questions to answer.
    Clarification { card: QuestionCard },
    /// Design proposals of a round.
    DesignsPresented { round: u32, designs: Vec<DesignProposal>, source: Source, changes: Vec<String> },
    /// Critiques of a round's designs.
    CritiqueComplete { round: u32, critiques: Vec<Reviewed> },
    /// The final plan.
    PlanGenerated { plan: Plan, selected_design: DesignProposal, discussion_summary: String },
    /// An LLM call failed; `fell_back` tells whether a heuristic filled in.
    Error { purpose: Option<Purpose>, failure: LlmFailure, fell_back: bool },
    /// Engine information: restarts, cancellations, corrections, round limits.
    Notice { text: String },
    /// Text streaming in from an LLM call.
    Streaming { call: CallId, purpose: Purpose },
}

impl Body {
    /// The seed's response type of this message, if it is one of them.
    pub fn response_type(&self) -> Option<ResponseType> {
        match self {
            Body::SecurityWarning { .. } => Some(ResponseType::SecurityWarning),
            Body::Clarification { .. } => Some(ResponseType::Clarification),
            Body::DesignsPresented { .. } => Some(ResponseType::DesignsPresented),
            Body::CritiqueComplete { .. } => Some(ResponseType::CritiqueComplete),
            Body::PlanGenerated { .. } => Some(ResponseType::PlanGenerated),
            Body::Error { .. } => Some(ResponseType::Error),
            Body::Text { .. } | Body::Notice { .. } | Body::Streaming { .. } => None,
        }
    }
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub id: MessageId,
    /// Bumped on every change, so views keyed by (id, rev) re-render.
    pub rev: u32,
    pub role: Role,
    /// Milliseconds since the epoch.
    pub at: u64,
    pub body: Body,
}

/// An LLM call in flight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub call: CallId,
    pub batch: BatchId,
    pub purpose: Purpose,
    pub started_at: u64,
}

/// A finished LLM call, for usage figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    pub call: CallId,
    pub purpose: Purpose,
    pub model: Option<String>,
    pub usage: Option<Usage>,
    pub ok: bool,
    pub started_at: u64,
    pub finished_at: u64,
}

/// Per-session knobs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Refine rounds before a decision is forced (seed 000; default 5).
    pub max_rounds: u32,
    /// Alignment rounds in UNDERSTAND (seed 003; default 3, clamped to 1..=5).
    pub alignment_rounds: u32,
    /// At the alignment limit: strict shows a confirmation card, smart proceeds.
    pub strict: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { max_rounds: super::state_machine::DEFAULT_MAX_ROUNDS, alignment_rounds: 3, strict: false }
    }
}

impl Settings {
    /// Alignment rounds clamped to 1..=5, as seed 003 requires.
    pub fn alignment_limit(&self) -> u32 {
        self.alignment_rounds.clamp(1, 5)
    }
}

/// Something that happened: the engine's input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// The user sent a message.
    UserMessage { text: String },
    /// The user answered a question card.
    Answer { card: CardId, answers: Vec<String> },
    /// The user picked a design from its card.
    ChooseDesign { index: usize },
    /// An LLM call ended.
    LlmResult { call: CallId, outcome: LlmOutcome },
    /// The user pressed Stop; `partials` holds text streamed so far per call.
    Stop { partials: Vec<(CallId, String)> },
    /// Redo a step a failure handed to a heuristic (`None`: resume after Stop, or the
    /// latest such step).
    Retry { purpose: Option<Purpose> },
    /// After Stop: finish the interrupted step with its heuristic.
    SkipLlm,
    /// Start over from UNDERSTAND.
    Restart,
    /// The page reopened this saved session: calls that were in flight died with the
    /// old page. The session halts as after Stop, offering to redo the step.
    Resume,
    /// The user changed the per-session knobs: question limits apply at once, the round
    /// limit from the next discussion.
    Settings { settings: Settings },
}

/// Something the shell must do: the engine's output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Effect {
    /// Run an LLM call; calls sharing a batch id may run at the same time.
    CallLlm(LlmCall),
    /// Abort these calls.
    Cancel { calls: Vec<CallId> },
    /// Persist the session.
    Save,
}

/// What the shell tells the engine about the world for one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Env {
    /// Milliseconds since the epoch.
    pub now: u64,
    /// An LLM is configured for analysis, questions, designs, refinement and the plan.
    pub designer: bool,
    /// An LLM is configured for critiques.
    pub critic: bool,
}

impl Env {
    /// No LLM at all: every step runs its heuristic twin.
    pub fn offline(now: u64) -> Env {
        Env { now, designer: false, critic: false }
    }

    fn has(&self, role: LlmRole) -> bool {
        match role {
            LlmRole::Designer => self.designer,
            LlmRole::Critic => self.critic,
        }
    }
}

/// A conversation and everything needed to resume it exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub id: String,
    pub title: String,
    pub mode: Mode,
    /// The language the engine writes in: the request's, else the UI's.
    pub lang: Lang,
    pub created_at: u64,
    pub updated_at: u64,
    pub settings: Settings,
    pub messages: Vec<Message>,
    pub discussion: Discussion,
    pub pending: Vec<Pending>,
    pub calls: Vec<CallRecord>,
    next_message: MessageId,
    next_call: CallId,
    next_batch: BatchId,
    next_card: CardId,
}

impl Session {
    /// A new, empty session.
    pub fn new(id: impl Into<String>, lang: Lang, settings: Settings, now: u64) -> Self {
        Session {
            id: id.into(),
            title: String::new(),
            mode: Mode::Discussion,
            lang,
            created_at: now,
            updated_at: now,
            discussion: Discussion::new(settings.max_rounds),
            settings,
            messages: Vec::new(),
            pending: Vec::new(),
            calls: Vec::new(),
            next_message: 1,
            next_call: 1,
            next_batch: 1,
            next_card: 1,
        }
    }

    /// The engine's single entry point: applies an event and returns the effects the
    /// shell must run. Deterministic: the same session, event and env give the same result.
    pub fn step(&mut self, event: Event, env: &Env) -> Vec<Effect> {
        self.updated_at = env.now;
        let mut fx = Vec::new();
        match (self.mode, event) {
            (_, Event::Settings { settings }) => self.settings = settings,
            (Mode::Discussion, event) => self.discussion_step(event, env, &mut fx),
        }
        fx.push(Effect::Save);
        fx
    }

    /// True while LLM calls are in flight.
    pub fn is_busy(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The open question card, if any.
    pub fn open_card(&self) -> Option<&QuestionCard> {
        self.messages.iter().rev().find_map(|m| match &m.body {
            Body::Clarification { card } if card.is_open() => Some(card),
            _ => None,
        })
    }

    /// Total provider-reported usage over all calls.
    pub fn total_usage(&self) -> Usage {
        self.calls.iter().filter_map(|c| c.usage).fold(Usage::default(), |a, u| Usage {
            input_tokens: a.input_tokens + u.input_tokens,
            output_tokens: a.output_tokens + u.output_tokens,
        })
    }

    // ---- plumbing shared by the modes ----

    /// Appends a message and returns its id.
    pub(crate) fn push(&mut self, role: Role, body: Body, now: u64) -> MessageId {
        let id = self.next_message;
        self.next_message += 1;
        self.messages.push(Message { id, rev: 0, role, at: now, body });
        id
    }

    /// Appends an assistant message.
    pub(crate) fn say(&mut self, body: Body, now: u64) -> MessageId {
        self.push(Role::Assistant, body, now)
    }

    /// Appends an engine notice.
    pub(crate) fn notice(&mut self, text: impl Into<String>, now: u64) -> MessageId {
        self.say(Body::Notice { text: text.into() }, now)
    }

    /// Replaces a message's body in place (same id, new revision).
    pub(crate) fn replace(&mut self, id: MessageId, body: Body) {
        if let Some(m) = self.messages.iter_mut().find(|m| m.id == id) {
            m.body = body;
            m.rev += 1;
        }
    }

    /// A fresh card id.
    pub(crate) fn new_card_id(&mut self) -> CardId {
        let id = self.next_card;
        self.next_card += 1;
        id
    }

    /// Posts a card of questions and returns its id.
    pub(crate) fn post_card(&mut self, kind: CardKind, questions: Vec<Question>, source: Source, now: u64) -> CardId {
        let id = self.new_card_id();
        let card = QuestionCard { id, kind, questions, answers: None, source };
        self.say(Body::Clarification { card }, now);
        id
    }

    /// Marks a card answered; returns its questions if it was open.
    pub(crate) fn close_card(&mut self, card_id: CardId, answers: Vec<String>) -> Option<(CardKind, Vec<Question>)> {
        for m in self.messages.iter_mut().rev() {
            if let Body::Clarification { card } = &mut m.body {
                if card.id == card_id {
                    if !card.is_open() {
                        return None;
                    }
                    let mut answers = answers;
                    answers.resize(card.questions.len(), String::new());
                    card.answers = Some(answers);
                    m.rev += 1;
                    return Some((card.kind, card.questions.clone()));
                }
            }
        }
        None
    }

    /// Starts a batch of LLM calls if the role has an LLM, recording them as pending.
    /// Returns false (and emits nothing) when the role has no LLM: the caller then runs
    /// the heuristic twin itself.
    pub(crate) fn launch(
        &mut self,
        role: LlmRole,
        calls: Vec<(Purpose, Prompt, bool)>,
        env: &Env,
        fx: &mut Vec<Effect>,
    ) -> bool {
        if !env.has(role) || calls.is_empty() {
            return false;
        }
        let batch = self.next_batch;
        self.next_batch += 1;
        for (purpose, prompt, stream) in calls {
            let id = self.next_call;
            self.next_call += 1;
            let stream_into = stream.then(|| self.say(Body::Streaming { call: id, purpose }, env.now));
            self.pending.push(Pending { call: id, batch, purpose, started_at: env.now });
            fx.push(Effect::CallLlm(LlmCall { id, batch, purpose, role, prompt, stream_into }));
        }
        true
    }

    /// Takes a finished call off the pending list and logs it. None for unknown calls
    /// (answers to cancelled calls arrive late and are ignored).
    pub(crate) fn settle(&mut self, call: CallId, outcome: &LlmOutcome, now: u64) -> Option<Pending> {
        let at = self.pending.iter().position(|p| p.call == call)?;
        let pending = self.pending.remove(at);
        let (ok, model, usage) = match outcome {
            LlmOutcome::Ok { model, usage, .. } => (true, Some(model.clone()), *usage),
            LlmOutcome::Failed(_) => (false, None, None),
        };
        self.calls.push(CallRecord {
            call,
            purpose: pending.purpose,
            model,
            usage,
            ok,
            started_at: pending.started_at,
            finished_at: now,
        });
        Some(pending)
    }

    /// The streaming placeholder of a call, if it has one.
    pub(crate) fn stream_message(&self, call: CallId) -> Option<MessageId> {
        self.messages.iter().find(|m| matches!(m.body, Body::Streaming { call: c, .. } if c == call)).map(|m| m.id)
    }

    /// Removes the streaming placeholder of a call.
    pub(crate) fn drop_stream_message(&mut self, call: CallId) {
        self.messages.retain(|m| !matches!(m.body, Body::Streaming { call: c, .. } if c == call));
    }

    /// Cancels every call in flight.
    pub(crate) fn cancel_all(&mut self, fx: &mut Vec<Effect>) -> Vec<Pending> {
        let cancelled: Vec<Pending> = std::mem::take(&mut self.pending);
        if !cancelled.is_empty() {
            fx.push(Effect::Cancel { calls: cancelled.iter().map(|p| p.call).collect() });
        }
        cancelled
    }
}
