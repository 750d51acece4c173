//! The counseling session's LLM calls: what each is for and who answers it.

use crate::engine::core::Endpoint;

/// What a counseling call is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounselPurpose {
    /// Task Completion Checker: is the current task done?
    Checker,
    /// User State Detector: emotion, resistance, engagement, topic change.
    Detector,
    /// Task Planner: Part 2's tasks from what the user said, when Part 1 completes.
    Planner,
    /// Module Selector: which technique the counselor uses this turn.
    Module,
    /// The counselor's reply (streamed).
    Reply,
    /// The supervisor's review every 3rd user message (background).
    Supervisor,
}

/// Who answers the counseling session's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounselRole {
    /// The counselor and the steps that prepare its reply, on the main model.
    Counselor,
    /// The supervisor reviewing the session, on the second model when one is set apart.
    Supervisor,
}

impl CounselPurpose {
    /// Who answers calls made for this purpose.
    pub fn role(self) -> CounselRole {
        match self {
            CounselPurpose::Supervisor => CounselRole::Supervisor,
            _ => CounselRole::Counselor,
        }
    }
}

impl CounselRole {
    /// The configured endpoint this role's calls go to.
    pub fn endpoint(self) -> Endpoint {
        match self {
            CounselRole::Counselor => Endpoint::Primary,
            CounselRole::Supervisor => Endpoint::Secondary,
        }
    }
}
