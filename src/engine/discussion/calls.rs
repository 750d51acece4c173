//! The discussion's LLM calls: what each is for and who answers it.

use crate::engine::core::Endpoint;

/// What a discussion call is for; decides how its answer is read and what its heuristic twin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscussionPurpose {
    /// Requirement contract analysis (UNDERSTAND).
    Contract,
    /// Wording a question for missing slots (UNDERSTAND).
    Question,
    /// The answer of the lunch intent (seed 002's worker) once its slots are filled.
    LunchAnswer,
    /// 2-3 design proposals (DESIGN).
    Designs,
    /// Critique of one design (PRESENT).
    Critique { design: usize },
    /// Revised designs after feedback (REFINE).
    Refine,
    /// The implementation plan (PLAN).
    Plan,
}

/// Who answers the discussion's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscussionRole {
    /// Analysis, questions, designs, refinement and the plan.
    Designer,
    /// The devil's-advocate critique; may be a different provider or model.
    Critic,
}

impl DiscussionPurpose {
    /// Who answers calls made for this purpose.
    pub fn role(self) -> DiscussionRole {
        match self {
            DiscussionPurpose::Critique { .. } => DiscussionRole::Critic,
            _ => DiscussionRole::Designer,
        }
    }
}

impl DiscussionRole {
    /// The configured endpoint this role's calls go to.
    pub fn endpoint(self) -> Endpoint {
        match self {
            DiscussionRole::Designer => Endpoint::Primary,
            DiscussionRole::Critic => Endpoint::Secondary,
        }
    }
}
