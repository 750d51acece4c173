//! LLM calls as the engine sees them: requested as effects, answered as events.

use serde::{Deserialize, Serialize};

/// Identifies one LLM call within a session.
pub type CallId = u32;
/// Calls sharing a batch id may run concurrently; the engine waits for all of them.
pub type BatchId = u32;

/// Which configured model a call should go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmRole {
    /// Analysis, questions, designs, refinement and the plan.
    Designer,
    /// The devil's-advocate critique; may be a different provider or model.
    Critic,
}

/// What a call is for; decides how its answer is parsed and what its heuristic twin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Purpose {
    /// Requirement contract analysis (UNDERSTAND).
    Contract,
    /// Wording a question for missing slots (UNDERSTAND).
    Question,
    /// The answer of the lunch intent (seed 002's worker) once its slots are filled.
    #[serde(rename = "worker")]
    LunchAnswer,
    /// 2-3 design proposals (DESIGN).
    Designs,
    /// Critique of one design (PRESENT).
    Critique { design: usize },
    /// Revised designs after feedback (REFINE).
    Refine,
    /// The implementation plan (PLAN).
    Plan,
    // --- chat mode ---
    /// One model turn of the chat's tool loop.
    ChatTurn,
    /// A summary of the oldest chat turns when the context window is full.
    ChatFold,
    // Counseling (seed 004).
    /// Task Completion Checker: is the current task done?
    CounselChecker,
    /// User State Detector: emotion, resistance, engagement, topic change.
    CounselDetector,
    /// Task Planner: Part 2's tasks from what the user said, when Part 1 completes.
    CounselPlanner,
    /// Module Selector: which technique the counselor uses this turn.
    CounselModule,
    /// The counselor's reply (streamed).
    CounselReply,
    /// The supervisor's review every 3rd user message (background).
    CounselSupervisor,
}

impl LlmRole {
    /// The configured endpoint this role's calls go to.
    pub fn endpoint(self) -> super::core::Endpoint {
        match self {
            LlmRole::Designer => super::core::Endpoint::Primary,
            LlmRole::Critic => super::core::Endpoint::Secondary,
        }
    }
}

impl Purpose {
    /// Who answers calls made for this purpose.
    pub fn role(self) -> LlmRole {
        match self {
            Purpose::Critique { .. } | Purpose::CounselSupervisor => LlmRole::Critic,
            _ => LlmRole::Designer,
        }
    }
}

/// An LLM request of the app.
pub use super::session::LlmCall;

/// Token usage as reported by the provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

/// The broad cause of a failed call; the UI turns it into an actionable message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// 401/403: the key is missing, wrong or lacks permission.
    Auth,
    /// 404: wrong model name or base URL.
    NotFound,
    /// 429 after the bounded retries.
    RateLimited,
    /// 5xx after the bounded retries.
    Server,
    /// Other HTTP status (400, 413, ...).
    BadRequest,
    /// No answer within the time limit.
    Timeout,
    /// Connection refused, DNS failure or a CORS block (the browser cannot tell these apart).
    Network,
    /// The stream stopped before the answer was complete.
    Interrupted,
    /// The response could not be read as the protocol says.
    Malformed,
    /// The model answered with nothing.
    Empty,
    /// The model answered, but not in the form asked for (e.g. no usable JSON).
    Unusable,
    /// The user pressed Stop or left the session.
    Aborted,
}

/// A failed call: its kind, what the provider or transport said, and any partial text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmFailure {
    pub kind: FailureKind,
    /// Detail for the user: the provider's own error message when there is one.
    pub detail: String,
    /// HTTP status, when the failure came with one.
    pub status: Option<u16>,
    /// Text received before a stream broke.
    pub partial: Option<String>,
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmOutcome {
    Ok {
        text: String,
        /// The model that answered, as the provider reported it.
        model: String,
        usage: Option<Usage>,
        /// Tool calls in the answer, if the prompt offered tools.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<super::prompt::ToolCall>,
        /// True when the text is the model's refusal to answer rather than an answer.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        refusal: bool,
    },
    Failed(LlmFailure),
}
