//! The discussion's seven stages and the events that move between them (seed 000).

use serde::{Deserialize, Serialize};

/// Default number of refine rounds before a decision is forced.
pub const DEFAULT_MAX_ROUNDS: u32 = 5;

/// A stage of the discussion, in the order a discussion normally takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Stage {
    /// Analyse the request into a contract; ask what is missing.
    Understand,
    /// Generate 2–3 design proposals.
    Design,
    /// Show the proposals with their critiques.
    Present,
    /// Collect the user's feedback.
    Debate,
    /// Revise the proposals from feedback.
    Refine,
    /// Settle on one design.
    Confirm,
    /// Write the implementation plan.
    Plan,
}

impl Stage {
    /// All stages in order, for the stepper.
    pub const ALL: [Stage; 7] =
        [Stage::Understand, Stage::Design, Stage::Present, Stage::Debate, Stage::Refine, Stage::Confirm, Stage::Plan];

    /// Position in [`Stage::ALL`].
    pub fn index(self) -> usize {
        Stage::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }
}

/// An event that moves the discussion between stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transition {
    RequirementsAnalyzed,
    DesignsGenerated,
    DesignsPresented,
    FeedbackReceived,
    UserSatisfied,
    RefinedDesignsReady,
    UserConfirmed,
    /// Back to UNDERSTAND from any stage.
    Restart,
}

impl Transition {
    /// Every event, in the seed's order.
    pub const ALL: [Transition; 8] = [
        Transition::RequirementsAnalyzed,
        Transition::DesignsGenerated,
        Transition::DesignsPresented,
        Transition::FeedbackReceived,
        Transition::UserSatisfied,
        Transition::RefinedDesignsReady,
        Transition::UserConfirmed,
        Transition::Restart,
    ];
}

/// An event that does not apply in the current stage, with the events that do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidTransition {
    pub stage: Stage,
    pub event: Transition,
    pub valid: Vec<Transition>,
}

/// One recorded move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub from: Stage,
    pub event: Transition,
    pub to: Stage,
}

/// The discussion state machine: current stage, refine rounds used, and history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateMachine {
    stage: Stage,
    round: u32,
    max_rounds: u32,
    history: Vec<Move>,
}

impl Default for StateMachine {
    fn default() -> Self {
        StateMachine::new(DEFAULT_MAX_ROUNDS)
    }
}

impl StateMachine {
    /// A machine at UNDERSTAND allowing `max_rounds` refine rounds (at least 1).
    pub fn new(max_rounds: u32) -> Self {
        StateMachine { stage: Stage::Understand, round: 0, max_rounds: max_rounds.max(1), history: Vec::new() }
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Refine rounds used so far.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The configured round limit.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// Changes the round limit (at least 1); the rounds already used stay counted.
    pub fn set_max_rounds(&mut self, max_rounds: u32) {
        self.max_rounds = max_rounds.max(1);
    }

    /// Every move made since the start.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// True once the round limit is reached: the user is asked to choose a design.
    pub fn force_decision_mode(&self) -> bool {
        self.round >= self.max_rounds
    }

    /// Where `event` leads from `stage`, if it applies there.
    fn target(stage: Stage, event: Transition) -> Option<Stage> {
        use Stage::*;
        use Transition::*;
        match (stage, event) {
            (_, Restart) => Some(Understand),
            (Understand, RequirementsAnalyzed) => Some(Design),
            (Design, DesignsGenerated) => Some(Present),
            (Present, DesignsPresented) => Some(Debate),
            (Debate, FeedbackReceived) => Some(Refine),
            (Debate, UserSatisfied) => Some(Confirm),
            (Refine, RefinedDesignsReady) => Some(Present),
            (Confirm, UserConfirmed) => Some(Plan),
            _ => None,
        }
    }

    /// The events that apply in the current stage.
    pub fn valid_events(&self) -> Vec<Transition> {
        Transition::ALL.into_iter().filter(|e| Self::target(self.stage, *e).is_some()).collect()
    }

    /// Applies an event. Feedback counts a refine round and is refused once the
    /// round limit is reached (a decision is forced then); restart resets the rounds.
    pub fn fire(&mut self, event: Transition) -> Result<Stage, InvalidTransition> {
        let target = Self::target(self.stage, event)
            .filter(|_| !(event == Transition::FeedbackReceived && self.force_decision_mode()));
        let Some(to) = target else {
            let mut valid = self.valid_events();
            if self.force_decision_mode() {
                valid.retain(|e| *e != Transition::FeedbackReceived);
            }
            return Err(InvalidTransition { stage: self.stage, event, valid });
        };
        match event {
            Transition::FeedbackReceived => self.round += 1,
            Transition::Restart => self.round = 0,
            _ => {}
        }
        self.history.push(Move { from: self.stage, event, to });
        self.stage = to;
        Ok(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;
    use Stage::*;
    use Transition::*;

    fn at(stage: Stage) -> StateMachine {
        let path: &[Transition] = match stage {
            Understand => &[],
            Design => &[RequirementsAnalyzed],
            Present => &[RequirementsAnalyzed, DesignsGenerated],
            Debate => &[RequirementsAnalyzed, DesignsGenerated, DesignsPresented],
            Refine => &[RequirementsAnalyzed, DesignsGenerated, DesignsPresented, FeedbackReceived],
            Confirm => &[RequirementsAnalyzed, DesignsGenerated, DesignsPresented, UserSatisfied],
            Plan => &[RequirementsAnalyzed, DesignsGenerated, DesignsPresented, UserSatisfied, UserConfirmed],
        };
        let mut m = StateMachine::default();
        for e in path {
            m.fire(*e).expect("path is valid");
        }
        m
    }

    #[test]
    fn valid_transitions_follow_the_seed_table() {
        let cases = [
            (Understand, RequirementsAnalyzed, Design),
            (Design, DesignsGenerated, Present),
            (Present, DesignsPresented, Debate),
            (Debate, FeedbackReceived, Refine),
            (Debate, UserSatisfied, Confirm),
            (Refine, RefinedDesignsReady, Present),
            (Confirm, UserConfirmed, Plan),
        ];
        for (from, event, to) in cases {
            let mut m = at(from);
            assert_eq!(m.fire(event), Ok(to), "{from:?} + {event:?}");
            assert_eq!(m.stage(), to);
        }
    }

    #[test]
    fn invalid_event_is_refused_with_the_valid_ones() {
        let mut m = at(Understand);
        let err = m.fire(UserConfirmed).unwrap_err();
        assert_eq!(err.stage, Understand);
        assert_eq!(err.event, UserConfirmed);
        assert_eq!(err.valid, vec![RequirementsAnalyzed, Restart]);
        assert_eq!(m.stage(), Understand, "a refused event changes nothing");

        let mut m = at(Debate);
        let err = m.fire(DesignsGenerated).unwrap_err();
        assert_eq!(err.valid, vec![FeedbackReceived, UserSatisfied, Restart]);

        let mut m = at(Plan);
        assert_eq!(m.fire(FeedbackReceived).unwrap_err().valid, vec![Restart]);
    }

    #[test]
    fn restart_returns_to_understand_from_every_stage() {
        for stage in Stage::ALL {
            let mut m = at(stage);
            assert_eq!(m.fire(Restart), Ok(Understand), "from {stage:?}");
            assert_eq!(m.round(), 0);
        }
    }

    #[test]
    fn round_limit_forces_a_decision() {
        let mut m = StateMachine::new(2);
        for e in [RequirementsAnalyzed, DesignsGenerated, DesignsPresented] {
            m.fire(e).unwrap();
        }
        for round in 1..=2 {
            assert!(!m.force_decision_mode());
            m.fire(FeedbackReceived).unwrap();
            assert_eq!(m.round(), round);
            m.fire(RefinedDesignsReady).unwrap();
            m.fire(DesignsPresented).unwrap();
        }
        assert!(m.force_decision_mode());
        let err = m.fire(FeedbackReceived).unwrap_err();
        assert_eq!(err.valid, vec![UserSatisfied, Restart]);
        assert_eq!(m.fire(UserSatisfied), Ok(Confirm));
    }

    #[test]
    fn default_limit_is_five_and_zero_is_raised_to_one() {
        assert_eq!(StateMachine::default().max_rounds(), 5);
        assert_eq!(StateMachine::new(0).max_rounds(), 1);
    }

    #[test]
    fn full_state_round_trips_through_serde() {
        let mut m = at(Debate);
        m.fire(FeedbackReceived).unwrap();
        let json = serde_json::to_string(&m).unwrap();
        assert!(json.contains("\"REFINE\""));
        let back: StateMachine = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.history().len(), 4);
    }
}
