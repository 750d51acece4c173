//! The conversation core every mode shares: messages, question cards, LLM calls in
//! flight (foreground and background), the call log, halt / Stop / Retry / Resume /
//! skip-the-LLM, fallback reporting and saving. A mode is one type implementing [`Mode`];
//! the core never names a particular mode.

use std::fmt::Debug;
use std::ops::{Deref, DerefMut};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::call::{BatchId, CallId, FailureKind, LlmFailure, LlmOutcome, Usage};
use super::lang::{clip, Lang};
use super::prompt::Prompt;
use super::security::{isolation_tag, sanitize, screen, InjectionKind};
use super::source::{HeuristicWhy, Source};

/// Identifies a message within a session.
pub type MessageId = u32;
/// Identifies a question card within a session.
pub type CardId = u32;

/// What a mode owns, behind the one small interface the core calls.
///
/// The core has already sanitized and screened user text, recorded it in the transcript,
/// and settled finished calls before it calls the mode.
pub trait Mode: Sized + Clone + Debug + PartialEq + Serialize + DeserializeOwned {
    /// What an LLM call of this mode is for.
    type Purpose: Copy + Debug + PartialEq + Eq + Serialize + DeserializeOwned;
    /// User events only this mode understands (e.g. picking a design).
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// Message bodies only this mode shows (designs, plans, ...).
    type Artifact: Artifact;
    /// The mode's knobs, with the common ones.
    type Settings: Clone + Debug + PartialEq + Default + Serialize + DeserializeOwned;

    /// A fresh mode state.
    fn new(settings: &Self::Settings) -> Self;
    /// Which configured endpoint a purpose's calls go to.
    fn endpoint(purpose: Self::Purpose) -> Endpoint;
    /// The user sent a message (already in the transcript).
    fn on_message(&mut self, c: &mut Conversation<Self>, text: &str, env: &Env, fx: &mut Effects<Self>);
    /// The user sent a message with nothing in it (after sanitizing).
    fn on_empty_message(&mut self, _c: &mut Conversation<Self>, _env: &Env) {}
    /// The user answered a question card (answers sanitized and screened).
    fn on_answer(
        &mut self,
        c: &mut Conversation<Self>,
        card: CardId,
        answers: Vec<String>,
        env: &Env,
        fx: &mut Effects<Self>,
    );
    /// A mode-specific user event.
    fn on_action(&mut self, c: &mut Conversation<Self>, action: Self::Action, env: &Env, fx: &mut Effects<Self>);
    /// A call of this mode ended; its tool calls, if any, are in the outcome.
    fn on_result(&mut self, c: &mut Conversation<Self>, done: Settled<Self>, env: &Env, fx: &mut Effects<Self>);
    /// Go on as far as possible without the user ("continue").
    fn advance(&mut self, c: &mut Conversation<Self>, env: &Env, fx: &mut Effects<Self>);
    /// True when the step a purpose names can still be redone.
    fn can_retry(&self, c: &Conversation<Self>, purpose: Self::Purpose) -> bool;
    /// Forget the artifact of a step so that `advance` makes it again.
    fn reset_step(&mut self, c: &mut Conversation<Self>, purpose: Self::Purpose);
    /// Start over (the core has cancelled calls and closed the open card).
    fn restart(&mut self, c: &mut Conversation<Self>, env: &Env);
    /// The knobs changed.
    fn on_settings(&mut self, _settings: &Self::Settings) {}
}

/// A mode's own message body.
pub trait Artifact: Clone + Debug + PartialEq + Serialize + DeserializeOwned {
    /// The seed's response type of this body, if it is one of them.
    fn response_type(&self) -> Option<ResponseType> {
        None
    }
}

/// The configured LLM endpoint a call goes to. Modes map their roles onto these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    /// The main model.
    Primary,
    /// The second model (the discussion's critic); the main one unless set apart.
    Secondary,
}

/// Whether the user waits for a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// The user waits: the composer waits for it and Stop aborts it.
    #[default]
    Foreground,
    /// The user never waits: it finishes or fails quietly, Stop leaves it alone, and a
    /// reload drops it.
    Background,
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

/// What a question is about, so its answer lands in the right place.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "target", content = "name", rename_all = "snake_case")]
pub enum Target {
    /// A field of the requirement contract.
    Field(super::contract::Field),
    /// A slot of the gate (non-discussion intents).
    Slot(String),
    /// Which design to go with.
    Design,
    /// Whether to proceed with stated assumptions.
    Proceed,
    /// A question an LLM wrote; the answer informs the next analysis.
    #[default]
    Free,
}

/// One question of a card (AskUserQuestion: free text, or 2–10 options plus "Other").
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Question {
    pub text: String,
    /// Choices; empty for a free-text question.
    pub options: Vec<String>,
    /// Whether an answer other than the options is accepted.
    pub allow_other: bool,
    pub target: Target,
    /// A short label shown above the question (AskUserQuestion's `header`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// What each option means, by position ("" where none was given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub descriptions: Vec<String>,
    /// Several options may be chosen; the answer lists them one per line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multi_select: bool,
}

/// Most options a question may offer.
pub const MAX_OPTIONS: usize = 10;

/// Why a card was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// Questions for missing information.
    Clarify,
    /// At the question limit: proceed on the stated assumptions?
    ConfirmAssumptions,
    /// Pick one of the designs.
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
#[serde(tag = "kind", rename_all = "snake_case", bound = "")]
pub enum Body<M: Mode> {
    /// Plain text: the user's words, or assistant prose (Markdown).
    Text { text: String, source: Option<Source> },
    /// The message was blocked as a prompt-injection attempt.
    SecurityWarning { findings: Vec<InjectionKind> },
    /// Questions to answer.
    Clarification { card: QuestionCard },
    /// An LLM call failed; `fell_back` tells whether a heuristic filled in.
    Error { purpose: Option<M::Purpose>, failure: LlmFailure, fell_back: bool },
    /// Engine information: restarts, cancellations, corrections, limits.
    Notice { text: String },
    /// Text streaming in from an LLM call.
    Streaming { call: CallId, purpose: M::Purpose },
    /// Something only the mode shows.
    Artifact { artifact: M::Artifact },
}

impl<M: Mode> Body<M> {
    /// The seed's response type of this message, if it is one of them.
    pub fn response_type(&self) -> Option<ResponseType> {
        match self {
            Body::SecurityWarning { .. } => Some(ResponseType::SecurityWarning),
            Body::Clarification { .. } => Some(ResponseType::Clarification),
            Body::Error { .. } => Some(ResponseType::Error),
            Body::Artifact { artifact } => artifact.response_type(),
            Body::Text { .. } | Body::Notice { .. } | Body::Streaming { .. } => None,
        }
    }

    /// The mode's artifact, if this body is one.
    pub fn artifact(&self) -> Option<&M::Artifact> {
        match self {
            Body::Artifact { artifact } => Some(artifact),
            _ => None,
        }
    }
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Message<M: Mode> {
    pub id: MessageId,
    /// Bumped on every change, so views keyed by (id, rev) re-render.
    pub rev: u32,
    pub role: Role,
    /// Milliseconds since the epoch.
    pub at: u64,
    pub body: Body<M>,
}

/// The failures shown together with the failure message `id`, oldest first, `id` last; None
/// when `id` is shown on a later card (or is no failure). The failures of one turn (between
/// two of the user's messages) share the newest one's card while each step fails once: a
/// small model that fails every step of a counseling turn gives one card, not five. A step
/// that fails again (a Retry that failed too) starts a new card.
pub fn failures_shown_with<M: Mode>(messages: &[Message<M>], id: MessageId) -> Option<Vec<&Message<M>>> {
    let at = messages.iter().rposition(|m| m.id == id)?;
    if !matches!(messages[at].body, Body::Error { .. }) {
        return None;
    }
    let start = messages[..at].iter().rposition(|m| m.role == Role::User).map_or(0, |i| i + 1);
    let end = messages[at..].iter().position(|m| m.role == Role::User).map_or(messages.len(), |i| at + i);
    let mut card: Vec<&Message<M>> = Vec::new();
    for m in &messages[start..end] {
        let Body::Error { purpose, .. } = &m.body else { continue };
        let again = card.iter().any(|c| matches!(&c.body, Body::Error { purpose: p, .. } if p == purpose));
        if again {
            if card.iter().any(|c| c.id == id) {
                break;
            }
            card.clear();
        }
        card.push(m);
    }
    (card.last().map(|m| m.id) == Some(id)).then_some(card)
}

/// An LLM call in flight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Pending<M: Mode> {
    pub call: CallId,
    pub batch: BatchId,
    pub purpose: M::Purpose,
    #[serde(default)]
    pub kind: CallKind,
    pub started_at: u64,
}

/// A finished LLM call, for usage figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct CallRecord<M: Mode> {
    pub call: CallId,
    pub purpose: M::Purpose,
    pub model: Option<String>,
    pub usage: Option<Usage>,
    pub ok: bool,
    pub started_at: u64,
    pub finished_at: u64,
}

/// An LLM request the shell should run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct LlmCall<M: Mode> {
    pub id: CallId,
    pub batch: BatchId,
    pub purpose: M::Purpose,
    pub endpoint: Endpoint,
    #[serde(default)]
    pub kind: CallKind,
    pub prompt: Prompt,
    /// When set, streamed text should appear live in this message.
    pub stream_into: Option<MessageId>,
}

/// A call the mode wants to start.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRequest<P> {
    pub purpose: P,
    pub prompt: Prompt,
    /// Stream the answer into a message of its own.
    pub stream: bool,
    pub kind: CallKind,
}

impl<P> CallRequest<P> {
    /// A foreground call the user waits for.
    pub fn foreground(purpose: impl Into<P>, prompt: Prompt, stream: bool) -> Self {
        CallRequest { purpose: purpose.into(), prompt, stream, kind: CallKind::Foreground }
    }

    /// A background call nobody waits for.
    pub fn background(purpose: impl Into<P>, prompt: Prompt) -> Self {
        CallRequest { purpose: purpose.into(), prompt, stream: false, kind: CallKind::Background }
    }
}

/// A finished call handed to its mode: what it was and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled<M: Mode> {
    pub call: CallId,
    pub purpose: M::Purpose,
    pub kind: CallKind,
    pub outcome: LlmOutcome,
}

/// Something that happened: the engine's input.
///
/// Stored externally tagged, a mode's action in its own form beside the core's events. The
/// derive reads and writes the core's events; `Serialize` and `Deserialize` below add the
/// mode's actions, reading by the tag first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", bound = "", remote = "Self")]
pub enum Event<M: Mode> {
    /// The user sent a message.
    UserMessage { text: String },
    /// The user answered a question card.
    Answer { card: CardId, answers: Vec<String> },
    /// An LLM call ended.
    LlmResult { call: CallId, outcome: LlmOutcome },
    /// The user pressed Stop; `partials` holds text streamed so far per call.
    Stop { partials: Vec<(CallId, String)> },
    /// Redo a step a failure handed to a heuristic (`None`: resume after Stop, or the
    /// latest such step).
    Retry { purpose: Option<M::Purpose> },
    /// After Stop: finish the interrupted step with its heuristic.
    SkipLlm,
    /// Start the mode over.
    Restart,
    /// The page reopened this saved session: foreground calls that were in flight died
    /// with the old page, so the session halts as after Stop; background calls are dropped.
    /// (Journals of earlier builds; today's shell sends `Reopened`.)
    Resume,
    /// As `Resume`, with the text each call had streamed when the old page went away: it
    /// stays in the conversation as the call's message, cut off where the stream stopped.
    Reopened { partials: Vec<(CallId, String)> },
    /// The user changed the knobs.
    Settings { settings: M::Settings },
    /// After a security warning the user judged a false alarm: the blocked message goes on
    /// to the mode once, still inside the isolation delimiters of every prompt.
    SendAnyway,
    /// A mode-specific user event, stored in its own form (untagged here).
    #[serde(skip)]
    Mode(M::Action),
}

/// The tags of the core's events (the variants above but `Mode`).
const CORE_EVENTS: [&str; 11] = [
    "user_message",
    "answer",
    "llm_result",
    "stop",
    "retry",
    "skip_llm",
    "restart",
    "resume",
    "reopened",
    "settings",
    "send_anyway",
];

impl<M: Mode> Serialize for Event<M> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Event::Mode(action) => action.serialize(serializer),
            event => Event::serialize(event, serializer),
        }
    }
}

impl<'de, M: Mode> Deserialize<'de> for Event<M> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(EventVisitor(std::marker::PhantomData))
    }
}

/// Reads an event by its tag: a core event's own reader, else the mode's action reader.
struct EventVisitor<M>(std::marker::PhantomData<M>);

impl<'de, M: Mode> serde::de::Visitor<'de> for EventVisitor<M> {
    type Value = Event<M>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an event")
    }

    fn visit_str<E: serde::de::Error>(self, tag: &str) -> Result<Event<M>, E> {
        use serde::de::IntoDeserializer;
        if CORE_EVENTS.contains(&tag) {
            Event::deserialize(tag.into_deserializer())
        } else {
            M::Action::deserialize(tag.into_deserializer()).map(Event::Mode)
        }
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Event<M>, A::Error> {
        use super::tagged::{end, Resumed, UnderKey};
        let Some(tag) = map.next_key::<String>()? else {
            return Err(serde::de::Error::custom("an event has a tag"));
        };
        let value = Resumed { tag: &tag, value: UnderKey(&mut map) };
        let event = if CORE_EVENTS.contains(&tag.as_str()) {
            Event::deserialize(value)?
        } else {
            Event::Mode(M::Action::deserialize(value)?)
        };
        end(map)?;
        Ok(event)
    }
}

/// Something the shell must do: the engine's output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case", bound = "")]
pub enum Effect<M: Mode> {
    /// Run an LLM call; calls sharing a batch id may run at the same time.
    CallLlm(LlmCall<M>),
    /// Abort these calls.
    Cancel { calls: Vec<CallId> },
    /// Persist the session.
    Save,
}

/// The effects of one step.
pub type Effects<M> = Vec<Effect<M>>;

/// What the shell tells the engine about the world for one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Env {
    /// Milliseconds since the epoch.
    pub now: u64,
    /// The main model is configured.
    #[serde(rename = "designer")]
    pub primary: bool,
    /// The second model is configured (the main one when not set apart).
    #[serde(rename = "critic")]
    pub secondary: bool,
    /// The model's context window in tokens when an LLM is configured (the user's setting,
    /// else the server's report, else the model's published window, else the default): every
    /// prompt is fitted into it before it leaves the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<u32>,
}

impl Env {
    /// No LLM at all: every step runs its heuristic twin.
    pub fn offline(now: u64) -> Env {
        Env { now, primary: false, secondary: false, window: None }
    }

    /// Both endpoints configured.
    pub fn online(now: u64) -> Env {
        Env { now, primary: true, secondary: true, window: None }
    }

    /// True when calls to this endpoint can be made.
    pub fn has(&self, endpoint: Endpoint) -> bool {
        match endpoint {
            Endpoint::Primary => self.primary,
            Endpoint::Secondary => self.secondary,
        }
    }
}

/// What the composer is waiting for, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting<P> {
    /// A foreground call is running.
    Call(P),
    /// Stopped: Retry or continue without the LLM.
    Halted,
}

/// The mode-agnostic state of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Conversation<M: Mode> {
    pub id: String,
    pub title: String,
    /// The language the engine writes in: the request's, else the UI's.
    pub lang: Lang,
    pub created_at: u64,
    pub updated_at: u64,
    pub settings: M::Settings,
    pub messages: Vec<Message<M>>,
    pub pending: Vec<Pending<M>>,
    pub calls: Vec<CallRecord<M>>,
    /// Stopped by the user: nothing new starts until Retry, SkipLlm or a new message.
    pub halted: bool,
    /// The latest step a failure handed to a heuristic, for Retry.
    pub last_fallback: Option<M::Purpose>,
    /// Why heuristics run in the current step.
    #[serde(skip, default = "no_llm")]
    pub heuristic_why: HeuristicWhy,
    /// The latest message the injection screen blocked, until it is sent anyway or another
    /// message arrives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<String>,
    next_message: MessageId,
    next_call: CallId,
    next_batch: BatchId,
    next_card: CardId,
}

fn no_llm() -> HeuristicWhy {
    HeuristicWhy::NoLlm
}

/// A conversation and its mode: everything needed to resume it exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Session<M: Mode> {
    pub conversation: Conversation<M>,
    pub mode: M,
}

impl<M: Mode> Deref for Session<M> {
    type Target = Conversation<M>;
    fn deref(&self) -> &Conversation<M> {
        &self.conversation
    }
}

impl<M: Mode> DerefMut for Session<M> {
    fn deref_mut(&mut self) -> &mut Conversation<M> {
        &mut self.conversation
    }
}

/// A session's state without its two logs (messages and finished calls), borrowed: what
/// a snapshot writes as one record per step, beside one record per message and per call
/// (`store::snapshot`), so a step's write does not grow with the conversation.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct StateRef<'a, M: Mode> {
    id: &'a str,
    title: &'a str,
    lang: Lang,
    created_at: u64,
    updated_at: u64,
    settings: &'a M::Settings,
    pending: &'a [Pending<M>],
    halted: bool,
    last_fallback: &'a Option<M::Purpose>,
    blocked: &'a Option<String>,
    next_message: MessageId,
    next_call: CallId,
    next_batch: BatchId,
    next_card: CardId,
    mode: &'a M,
}

/// `StateRef` read back.
#[derive(Deserialize)]
#[serde(bound = "")]
pub struct State<M: Mode> {
    id: String,
    title: String,
    lang: Lang,
    created_at: u64,
    updated_at: u64,
    settings: M::Settings,
    pending: Vec<Pending<M>>,
    halted: bool,
    last_fallback: Option<M::Purpose>,
    blocked: Option<String>,
    next_message: MessageId,
    next_call: CallId,
    next_batch: BatchId,
    next_card: CardId,
    mode: M,
}

impl<M: Mode> Session<M> {
    /// A new, empty session.
    pub fn new(id: impl Into<String>, lang: Lang, settings: M::Settings, now: u64) -> Self {
        let mode = M::new(&settings);
        Session {
            conversation: Conversation {
                id: id.into(),
                title: String::new(),
                lang,
                created_at: now,
                updated_at: now,
                settings,
                messages: Vec::new(),
                pending: Vec::new(),
                calls: Vec::new(),
                halted: false,
                last_fallback: None,
                heuristic_why: HeuristicWhy::NoLlm,
                blocked: None,
                next_message: 1,
                next_call: 1,
                next_batch: 1,
                next_card: 1,
            },
            mode,
        }
    }

    /// The state without the messages and the call log, for a snapshot.
    pub fn state(&self) -> StateRef<'_, M> {
        let c = &self.conversation;
        StateRef {
            id: &c.id,
            title: &c.title,
            lang: c.lang,
            created_at: c.created_at,
            updated_at: c.updated_at,
            settings: &c.settings,
            pending: &c.pending,
            halted: c.halted,
            last_fallback: &c.last_fallback,
            blocked: &c.blocked,
            next_message: c.next_message,
            next_call: c.next_call,
            next_batch: c.next_batch,
            next_card: c.next_card,
            mode: &self.mode,
        }
    }

    /// The session a snapshot's records describe. What no record holds (why heuristics ran
    /// in the last step) is how a session read back from its journal has it too.
    pub fn from_parts(state: State<M>, messages: Vec<Message<M>>, calls: Vec<CallRecord<M>>) -> Self {
        Session {
            conversation: Conversation {
                id: state.id,
                title: state.title,
                lang: state.lang,
                created_at: state.created_at,
                updated_at: state.updated_at,
                settings: state.settings,
                messages,
                pending: state.pending,
                calls,
                halted: state.halted,
                last_fallback: state.last_fallback,
                heuristic_why: HeuristicWhy::NoLlm,
                blocked: state.blocked,
                next_message: state.next_message,
                next_call: state.next_call,
                next_batch: state.next_batch,
                next_card: state.next_card,
            },
            mode: state.mode,
        }
    }

    /// The engine's single entry point: applies an event and returns the effects the
    /// shell must run. Deterministic: the same session, event and env give the same result.
    pub fn step(&mut self, event: Event<M>, env: &Env) -> Vec<Effect<M>> {
        let c = &mut self.conversation;
        let mode = &mut self.mode;
        c.updated_at = env.now;
        c.heuristic_why = HeuristicWhy::NoLlm;
        let mut fx = Vec::new();
        match event {
            Event::Settings { settings } => {
                mode.on_settings(&settings);
                c.settings = settings;
            }
            Event::UserMessage { text } => {
                if sanitize(&text).text.is_empty() {
                    if !c.is_busy() {
                        mode.on_empty_message(c, env);
                    }
                } else if let Some(text) = c.take_user_message(&text, env) {
                    c.halted = false;
                    mode.on_message(c, &text, env, &mut fx);
                }
            }
            Event::Answer { card, answers } => {
                if c.is_busy() {
                    return with_save(fx);
                }
                let answers: Vec<String> = answers.into_iter().map(|a| sanitize(&a).text).collect();
                if let Some(blocked) = answers.iter().map(|a| screen(a)).find(|s| s.blocked()) {
                    c.say(Body::SecurityWarning { findings: blocked.findings }, env.now);
                    return with_save(fx);
                }
                mode.on_answer(c, card, answers, env, &mut fx);
            }
            Event::Mode(action) => mode.on_action(c, action, env, &mut fx),
            Event::SendAnyway => {
                if c.is_busy() {
                    return with_save(fx);
                }
                if let Some(text) = c.blocked.take() {
                    let note = c.lang.pick(
                        "보안 경고를 확인하고 그대로 보냈습니다. 내용은 지시가 아닌 데이터로 다룹니다.",
                        "Sent after the security warning, as you confirmed; it is treated as data, not instructions.",
                    );
                    c.notice(note, env.now);
                    c.halted = false;
                    mode.on_message(c, &text, env, &mut fx);
                }
            }
            Event::LlmResult { call, outcome } => {
                if let Some(pending) = c.settle(call, &outcome, env.now) {
                    let done = Settled { call, purpose: pending.purpose, kind: pending.kind, outcome };
                    mode.on_result(c, done, env, &mut fx);
                }
            }
            Event::Stop { partials } => {
                let text = c.lang.pick(
                    "중지했습니다. 받은 내용은 그대로 두었습니다. '다시 시도'로 이어서 하거나 'LLM 없이 계속'을 고르세요.",
                    "Stopped. Whatever arrived is kept. Retry to run the step again, or continue without the LLM.",
                );
                c.halt(partials, text, env, &mut fx);
            }
            Event::Resume => {
                c.drop_background(&mut fx);
                let text = c.lang.pick(
                    "페이지를 다시 열면서 진행 중이던 LLM 호출이 끊겼습니다. 대화는 그대로입니다. '다시 시도'로 이어서 하거나 'LLM 없이 계속'을 고르세요.",
                    "The page was reloaded while an LLM call was running, so that call was lost; the conversation is intact. Retry to run the step again, or continue without the LLM.",
                );
                c.halt(Vec::new(), text, env, &mut fx);
            }
            Event::Reopened { partials } => {
                c.drop_background(&mut fx);
                let kept = partials.iter().any(|(_, t)| !t.trim().is_empty());
                let text = match (c.lang, kept) {
                    (Lang::Ko, true) => "페이지를 다시 열면서 진행 중이던 LLM 답이 중간에 끊겼습니다. 받은 부분은 위에 남겨 두었습니다. '다시 시도'로 처음부터 다시 받거나 'LLM 없이 계속'을 고르세요.",
                    (Lang::En, true) => "The page was reloaded while an LLM answer was streaming: the part that had arrived is kept above, cut off where it stopped. Retry to get the whole answer again, or continue without the LLM.",
                    (Lang::Ko, false) => "페이지를 다시 열면서 진행 중이던 LLM 호출이 끊겼습니다. 대화는 그대로입니다. '다시 시도'로 이어서 하거나 'LLM 없이 계속'을 고르세요.",
                    (Lang::En, false) => "The page was reloaded while an LLM call was running, so that call was lost; the conversation is intact. Retry to run the step again, or continue without the LLM.",
                };
                c.halt(partials, text, env, &mut fx);
            }
            Event::Retry { purpose } => {
                if c.is_busy() {
                    return with_save(fx);
                }
                if c.halted && purpose.is_none() {
                    c.halted = false;
                    mode.advance(c, env, &mut fx);
                    return with_save(fx);
                }
                let Some(purpose) = purpose.or(c.last_fallback) else {
                    return with_save(fx);
                };
                if !mode.can_retry(c, purpose) {
                    let t = c
                        .lang
                        .pick("다시 시도할 단계가 지나갔습니다.", "That step is already behind us; nothing to retry.");
                    c.notice(t, env.now);
                    return with_save(fx);
                }
                c.halted = false;
                if c.last_fallback == Some(purpose) {
                    c.last_fallback = None;
                }
                mode.reset_step(c, purpose);
                mode.advance(c, env, &mut fx);
            }
            Event::SkipLlm => {
                if c.halted {
                    c.halted = false;
                    c.heuristic_why = HeuristicWhy::Stopped;
                    mode.advance(c, &Env::offline(env.now), &mut fx);
                }
            }
            Event::Restart => {
                c.cancel_all(&mut fx);
                c.messages.retain(|m| !matches!(m.body, Body::Streaming { .. }));
                if let Some(card) = c.open_card().map(|card| card.id) {
                    c.close_card(card, Vec::new());
                }
                c.halted = false;
                mode.restart(c, env);
            }
        }
        with_save(fx)
    }
}

fn with_save<M: Mode>(mut fx: Effects<M>) -> Effects<M> {
    fx.push(Effect::Save);
    fx
}

impl<M: Mode> Conversation<M> {
    /// True while a foreground call is in flight: the composer waits.
    pub fn is_busy(&self) -> bool {
        self.pending.iter().any(|p| p.kind == CallKind::Foreground)
    }

    /// What the composer waits for, if anything.
    pub fn waiting_for(&self) -> Option<Waiting<M::Purpose>> {
        if let Some(p) = self.pending.iter().find(|p| p.kind == CallKind::Foreground) {
            return Some(Waiting::Call(p.purpose));
        }
        self.halted.then_some(Waiting::Halted)
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

    /// The source of an artifact a heuristic makes in this step.
    pub fn heuristic(&self) -> Source {
        Source::Heuristic(self.heuristic_why.clone())
    }

    /// Checks a user message and records it. None when the mode must not see it: empty,
    /// a foreground call still running (the user is told), or blocked as an injection
    /// attempt (the warning is shown).
    fn take_user_message(&mut self, raw: &str, env: &Env) -> Option<String> {
        let clean = sanitize(raw);
        if clean.text.is_empty() {
            return None;
        }
        if self.is_busy() {
            let text = self.lang.pick(
                "아직 이전 단계를 처리하는 중입니다. 끝날 때까지 기다리거나 중지를 누르세요.",
                "Still working on the previous step. Wait for it, or press Stop.",
            );
            self.notice(text, env.now);
            return None;
        }
        let text = clean.text;
        let screening = screen(&text);
        self.push(Role::User, Body::Text { text: text.clone(), source: None }, env.now);
        if screening.blocked() {
            self.say(Body::SecurityWarning { findings: screening.findings }, env.now);
            self.blocked = Some(text);
            return None;
        }
        self.blocked = None;
        if clean.truncated {
            let note = self.lang.pick(
                "메시지가 너무 길어 앞부분만 사용합니다.",
                "The message was too long; only its beginning is used.",
            );
            self.notice(note, env.now);
        }
        Some(text)
    }

    /// Appends a message and returns its id.
    pub fn push(&mut self, role: Role, body: Body<M>, now: u64) -> MessageId {
        let id = self.next_message;
        self.next_message += 1;
        self.messages.push(Message { id, rev: 0, role, at: now, body });
        id
    }

    /// Appends an assistant message.
    pub fn say(&mut self, body: Body<M>, now: u64) -> MessageId {
        self.push(Role::Assistant, body, now)
    }

    /// Appends a mode artifact as an assistant message.
    pub fn show(&mut self, artifact: impl Into<M::Artifact>, now: u64) -> MessageId {
        self.say(Body::Artifact { artifact: artifact.into() }, now)
    }

    /// Appends an engine notice.
    pub fn notice(&mut self, text: impl Into<String>, now: u64) -> MessageId {
        self.say(Body::Notice { text: text.into() }, now)
    }

    /// Replaces a message's body in place (same id, new revision).
    pub fn replace(&mut self, id: MessageId, body: Body<M>) {
        if let Some(m) = self.messages.iter_mut().find(|m| m.id == id) {
            m.body = body;
            m.rev += 1;
        }
    }

    /// Puts a body where a call streamed, or appends it when the call had no such place.
    pub fn say_in_place_of(&mut self, call: CallId, body: Body<M>, now: u64) {
        match self.stream_message(call) {
            Some(id) => self.replace(id, body),
            None => {
                self.say(body, now);
            }
        }
    }

    /// Posts a card of questions and returns its id.
    pub fn post_card(&mut self, kind: CardKind, questions: Vec<Question>, source: Source, now: u64) -> CardId {
        let id = self.next_card;
        self.next_card += 1;
        let card = QuestionCard { id, kind, questions, answers: None, source };
        self.say(Body::Clarification { card }, now);
        id
    }

    /// Marks a card answered; returns its questions if it was open.
    pub fn close_card(&mut self, card_id: CardId, answers: Vec<String>) -> Option<(CardKind, Vec<Question>)> {
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

    /// Starts a batch of LLM calls if their endpoint has an LLM, recording them as
    /// pending. Returns false (and emits nothing) otherwise: the caller then runs the
    /// heuristic twins itself.
    pub fn launch(&mut self, calls: Vec<CallRequest<M::Purpose>>, env: &Env, fx: &mut Effects<M>) -> bool {
        if calls.is_empty() || !calls.iter().all(|c| env.has(M::endpoint(c.purpose))) {
            return false;
        }
        // Every prompt fits the model's window with room for its answer, or none is sent: the
        // step's heuristic twin runs instead and the user is told why.
        // Prompts are written with the default delimiter; the session's own tag replaces it
        // where the prompt leaves the engine, so every mode's user text is isolated alike.
        let tag = isolation_tag(&self.id);
        let mut calls = calls;
        for request in &mut calls {
            request.prompt = request.prompt.clone().with_isolation_tag(&tag);
        }
        if let Some(window) = env.window {
            // The chat's loop folds its own oldest turns; a tool result too large for what is
            // left of the window loses its middle here.
            for request in &mut calls {
                match crate::llm::window_fit::fit_prompt(&request.prompt, window, &tag) {
                    Ok(fitted) => request.prompt = fitted,
                    Err(overflow) => {
                        self.notice(overflow.message(self.lang), env.now);
                        self.heuristic_why =
                            HeuristicWhy::CallFailed { kind: crate::engine::call::FailureKind::BadRequest };
                        return false;
                    }
                }
            }
        }
        let batch = self.next_batch;
        self.next_batch += 1;
        for request in calls {
            let id = self.next_call;
            self.next_call += 1;
            let purpose = request.purpose;
            let stream_into = request.stream.then(|| self.say(Body::Streaming { call: id, purpose }, env.now));
            self.pending.push(Pending { call: id, batch, purpose, kind: request.kind, started_at: env.now });
            fx.push(Effect::CallLlm(LlmCall {
                id,
                batch,
                purpose,
                endpoint: M::endpoint(purpose),
                kind: request.kind,
                prompt: request.prompt,
                stream_into,
            }));
        }
        true
    }

    /// Takes a finished call off the pending list and logs it. None for unknown calls
    /// (answers to cancelled calls arrive late and are ignored).
    fn settle(&mut self, call: CallId, outcome: &LlmOutcome, now: u64) -> Option<Pending<M>> {
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
    pub fn stream_message(&self, call: CallId) -> Option<MessageId> {
        self.messages.iter().find(|m| matches!(m.body, Body::Streaming { call: c, .. } if c == call)).map(|m| m.id)
    }

    /// Removes the streaming placeholder of a call.
    pub fn drop_stream_message(&mut self, call: CallId) {
        self.messages.retain(|m| !matches!(m.body, Body::Streaming { call: c, .. } if c == call));
    }

    /// Cancels every call in flight, foreground and background.
    pub fn cancel_all(&mut self, fx: &mut Effects<M>) -> Vec<Pending<M>> {
        let cancelled: Vec<Pending<M>> = std::mem::take(&mut self.pending);
        if !cancelled.is_empty() {
            fx.push(Effect::Cancel { calls: cancelled.iter().map(|p| p.call).collect() });
        }
        cancelled
    }

    /// Forgets background calls: after a reload nobody will answer them.
    fn drop_background(&mut self, fx: &mut Effects<M>) {
        let (background, foreground): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.pending).into_iter().partition(|p| p.kind == CallKind::Background);
        self.pending = foreground;
        if !background.is_empty() {
            fx.push(Effect::Cancel { calls: background.iter().map(|p| p.call).collect() });
        }
    }

    /// Ends every foreground call, keeps what each streamed, and waits for Retry or
    /// "continue without the LLM". Background calls go on. Does nothing when no
    /// foreground call is in flight.
    fn halt(&mut self, partials: Vec<(CallId, String)>, notice: &str, env: &Env, fx: &mut Effects<M>) {
        let (foreground, background): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.pending).into_iter().partition(|p| p.kind == CallKind::Foreground);
        self.pending = background;
        if foreground.is_empty() {
            return;
        }
        fx.push(Effect::Cancel { calls: foreground.iter().map(|p| p.call).collect() });
        for p in &foreground {
            let partial =
                partials.iter().find(|(c, _)| *c == p.call).map(|(_, t)| t.trim().to_string()).unwrap_or_default();
            match self.stream_message(p.call) {
                Some(id) if !partial.is_empty() => {
                    self.replace(id, Body::Text { text: partial, source: Some(Source::Llm { model: String::new() }) })
                }
                _ => self.drop_stream_message(p.call),
            }
        }
        self.halted = true;
        self.notice(notice, env.now);
    }

    /// Shows a failed call and remembers its step for Retry.
    pub fn report_failure(&mut self, purpose: impl Into<M::Purpose>, failure: LlmFailure, now: u64) {
        let purpose = purpose.into();
        self.last_fallback = Some(purpose);
        self.say(Body::Error { purpose: Some(purpose), failure, fell_back: true }, now);
    }

    /// A heuristic stands in for a failed call (`failure`) or an unusable answer
    /// (`reason`): the user is told, Retry is offered, and the heuristic's source returned.
    pub fn fell_back(
        &mut self,
        purpose: impl Into<M::Purpose>,
        failure: Option<LlmFailure>,
        reason: String,
        now: u64,
    ) -> Source {
        let purpose = purpose.into();
        match failure {
            Some(f) => {
                let source = Source::Heuristic(HeuristicWhy::CallFailed { kind: f.kind });
                self.report_failure(purpose, f, now);
                source
            }
            None => {
                let failure =
                    LlmFailure { kind: FailureKind::Unusable, detail: reason.clone(), status: None, partial: None };
                self.report_failure(purpose, failure, now);
                Source::Heuristic(HeuristicWhy::Unparseable { reason })
            }
        }
    }

    /// The last `turns` text turns of both sides, each cut to `chars` characters, oldest
    /// first: what another mode is told of the conversation so far (seed 003).
    pub fn recent_turns(&self, turns: usize, chars: usize) -> String {
        let lines: Vec<String> = self
            .messages
            .iter()
            .filter_map(|m| match &m.body {
                Body::Text { text, .. } if !text.trim().is_empty() => {
                    let who = if m.role == Role::User { "user" } else { "assistant" };
                    Some(format!("{who}: {}", clip(text.trim(), chars)))
                }
                _ => None,
            })
            .collect();
        lines[lines.len().saturating_sub(turns)..].join("\n")
    }

    /// The user's messages in order, newest last.
    pub fn user_texts(&self) -> impl Iterator<Item = &str> {
        self.messages.iter().filter(|m| m.role == Role::User).filter_map(|m| match &m.body {
            Body::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
    }
}
