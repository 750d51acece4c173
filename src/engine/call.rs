//! LLM calls as the engine sees them: requested as effects, answered as events.

use serde::{Deserialize, Serialize};

use super::chat::ChatPurpose;
use super::core::Endpoint;
use super::counsel::CounselPurpose;
use super::discussion::DiscussionPurpose;

/// Identifies one LLM call within a session.
pub type CallId = u32;
/// Calls sharing a batch id may run concurrently; the engine waits for all of them.
pub type BatchId = u32;

/// What an LLM call of the app is for: a purpose of the mode that made it. Each mode names
/// its own purposes and roles; this enum only says which mode a call belongs to.
///
/// Stored and exported in the flat form earlier builds wrote (`{"kind":"critique","design":1}`),
/// so their journals keep reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WireForm", into = "WireForm")]
pub enum Purpose {
    /// A call of the discussion (seeds 000, 002, 003).
    Discussion(DiscussionPurpose),
    /// A call of the chat (seed 001).
    Chat(ChatPurpose),
    /// A call of the counseling session (seed 004).
    Counseling(CounselPurpose),
}

impl Purpose {
    /// The configured endpoint this purpose's calls go to, through its mode's role.
    pub fn endpoint(self) -> Endpoint {
        match self {
            Purpose::Discussion(p) => p.role().endpoint(),
            Purpose::Chat(p) => p.role().endpoint(),
            Purpose::Counseling(p) => p.role().endpoint(),
        }
    }
}

impl From<DiscussionPurpose> for Purpose {
    fn from(p: DiscussionPurpose) -> Self {
        Purpose::Discussion(p)
    }
}

impl From<ChatPurpose> for Purpose {
    fn from(p: ChatPurpose) -> Self {
        Purpose::Chat(p)
    }
}

impl From<CounselPurpose> for Purpose {
    fn from(p: CounselPurpose) -> Self {
        Purpose::Counseling(p)
    }
}

/// The stored form of a purpose, as journals have always held it: `{"kind":"critique","design":1}`,
/// `{"kind":"plan"}`. A plain struct rather than an internally tagged enum: serde reads those
/// by buffering the whole object first, which cost about 5 KB of wasm for this one type.
#[derive(Serialize, Deserialize)]
struct WireForm {
    kind: WireKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    design: Option<usize>,
}

/// The kinds of stored purpose, by their stored names.
#[derive(Clone, Copy)]
enum WireKind {
    Contract,
    Question,
    Worker,
    Designs,
    Critique,
    Refine,
    Plan,
    ChatTurn,
    ChatFold,
    CounselChecker,
    CounselDetector,
    CounselPlanner,
    CounselModule,
    CounselReply,
    CounselSupervisor,
}

crate::engine::named::by_name!(WireKind {
    Contract = "contract",
    Question = "question",
    Worker = "worker",
    Designs = "designs",
    Critique = "critique",
    Refine = "refine",
    Plan = "plan",
    ChatTurn = "chat_turn",
    ChatFold = "chat_fold",
    CounselChecker = "counsel_checker",
    CounselDetector = "counsel_detector",
    CounselPlanner = "counsel_planner",
    CounselModule = "counsel_module",
    CounselReply = "counsel_reply",
    CounselSupervisor = "counsel_supervisor",
});

impl TryFrom<WireForm> for Purpose {
    type Error = &'static str;

    fn try_from(form: WireForm) -> Result<Self, Self::Error> {
        use {ChatPurpose as Ch, CounselPurpose as Co, DiscussionPurpose as D, WireKind as K};
        Ok(match form.kind {
            K::Contract => D::Contract.into(),
            K::Question => D::Question.into(),
            K::Worker => D::LunchAnswer.into(),
            K::Designs => D::Designs.into(),
            K::Critique => D::Critique { design: form.design.ok_or("missing field `design`")? }.into(),
            K::Refine => D::Refine.into(),
            K::Plan => D::Plan.into(),
            K::ChatTurn => Ch::Turn.into(),
            K::ChatFold => Ch::Fold.into(),
            K::CounselChecker => Co::Checker.into(),
            K::CounselDetector => Co::Detector.into(),
            K::CounselPlanner => Co::Planner.into(),
            K::CounselModule => Co::Module.into(),
            K::CounselReply => Co::Reply.into(),
            K::CounselSupervisor => Co::Supervisor.into(),
        })
    }
}

impl From<Purpose> for WireForm {
    fn from(p: Purpose) -> Self {
        use {ChatPurpose as Ch, CounselPurpose as Co, DiscussionPurpose as D, WireKind as K};
        let kind = match p {
            Purpose::Discussion(D::Contract) => K::Contract,
            Purpose::Discussion(D::Question) => K::Question,
            Purpose::Discussion(D::LunchAnswer) => K::Worker,
            Purpose::Discussion(D::Designs) => K::Designs,
            Purpose::Discussion(D::Critique { .. }) => K::Critique,
            Purpose::Discussion(D::Refine) => K::Refine,
            Purpose::Discussion(D::Plan) => K::Plan,
            Purpose::Chat(Ch::Turn) => K::ChatTurn,
            Purpose::Chat(Ch::Fold) => K::ChatFold,
            Purpose::Counseling(Co::Checker) => K::CounselChecker,
            Purpose::Counseling(Co::Detector) => K::CounselDetector,
            Purpose::Counseling(Co::Planner) => K::CounselPlanner,
            Purpose::Counseling(Co::Module) => K::CounselModule,
            Purpose::Counseling(Co::Reply) => K::CounselReply,
            Purpose::Counseling(Co::Supervisor) => K::CounselSupervisor,
        };
        let design = match p {
            Purpose::Discussion(D::Critique { design }) => Some(design),
            _ => None,
        };
        WireForm { kind, design }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// The part of the app that carries the model's instructions did not load: nothing was sent.
    AppIncomplete,
}

crate::engine::named::by_name!(FailureKind {
    Auth = "auth",
    NotFound = "not_found",
    RateLimited = "rate_limited",
    Server = "server",
    BadRequest = "bad_request",
    Timeout = "timeout",
    Network = "network",
    Interrupted = "interrupted",
    Malformed = "malformed",
    Empty = "empty",
    Unusable = "unusable",
    Aborted = "aborted",
    AppIncomplete = "app_incomplete",
});

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Journals store purposes flat, as every earlier build wrote them: each per-mode purpose
    /// writes that form and reads back as itself.
    #[test]
    fn purposes_keep_the_flat_stored_form() {
        use {ChatPurpose as Ch, CounselPurpose as Co, DiscussionPurpose as D};
        let table: [(Purpose, &str); 15] = [
            (D::Contract.into(), r#"{"kind":"contract"}"#),
            (D::Question.into(), r#"{"kind":"question"}"#),
            (D::LunchAnswer.into(), r#"{"kind":"worker"}"#),
            (D::Designs.into(), r#"{"kind":"designs"}"#),
            (D::Critique { design: 2 }.into(), r#"{"kind":"critique","design":2}"#),
            (D::Refine.into(), r#"{"kind":"refine"}"#),
            (D::Plan.into(), r#"{"kind":"plan"}"#),
            (Ch::Turn.into(), r#"{"kind":"chat_turn"}"#),
            (Ch::Fold.into(), r#"{"kind":"chat_fold"}"#),
            (Co::Checker.into(), r#"{"kind":"counsel_checker"}"#),
            (Co::Detector.into(), r#"{"kind":"counsel_detector"}"#),
            (Co::Planner.into(), r#"{"kind":"counsel_planner"}"#),
            (Co::Module.into(), r#"{"kind":"counsel_module"}"#),
            (Co::Reply.into(), r#"{"kind":"counsel_reply"}"#),
            (Co::Supervisor.into(), r#"{"kind":"counsel_supervisor"}"#),
        ];
        for (purpose, stored) in table {
            assert_eq!(serde_json::to_string(&purpose).unwrap(), stored);
            assert_eq!(serde_json::from_str::<Purpose>(stored).unwrap(), purpose, "{stored}");
        }
        assert!(serde_json::from_str::<Purpose>(r#"{"kind":"designer"}"#).is_err());
        // Read as before: the tag anywhere, other fields ignored, a critique needs its design.
        let critique = Purpose::from(D::Critique { design: 1 });
        assert_eq!(serde_json::from_str::<Purpose>(r#"{"design":1,"kind":"critique"}"#).unwrap(), critique);
        assert_eq!(serde_json::from_str::<Purpose>(r#"{"kind":"plan","design":1,"x":[1]}"#).unwrap(), D::Plan.into());
        assert!(serde_json::from_str::<Purpose>(r#"{"kind":"critique"}"#).is_err());
        assert!(serde_json::from_str::<Purpose>(r#"{"design":1}"#).is_err());
        assert!(serde_json::from_str::<Purpose>(r#""plan""#).is_err());
    }

    /// Each mode's roles decide the endpoint: the discussion's critic and the counseling
    /// supervisor go to the second model, everything else to the main one.
    #[test]
    fn roles_map_to_endpoints() {
        use {ChatPurpose as Ch, CounselPurpose as Co, DiscussionPurpose as D};
        assert_eq!(Purpose::from(D::Critique { design: 0 }).endpoint(), Endpoint::Secondary);
        assert_eq!(Purpose::from(Co::Supervisor).endpoint(), Endpoint::Secondary);
        for p in
            [D::Contract.into(), D::Designs.into(), D::Plan.into(), Ch::Turn.into(), Ch::Fold.into(), Co::Reply.into()]
        {
            assert_eq!(Purpose::endpoint(p), Endpoint::Primary, "{p:?}");
        }
    }
}
