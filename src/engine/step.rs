//! One abstraction for an LLM-backed step: its prompt, how its answer is read, its
//! heuristic twin, and what applying the result does. The core runs the sequence
//! "launch or run the twin; parse or fall back; apply" the same way for every step.

use super::call::CallId;
use super::call::{LlmFailure, LlmOutcome};
use super::core::{CallKind, CallRequest, Conversation, Effects, Env, Mode};
use super::prompt::Prompt;
use super::source::Source;

/// What a step produced, and who produced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Produced<T> {
    pub output: T,
    pub source: Source,
    /// The call whose streamed message the result replaces, if any.
    pub call: Option<CallId>,
    /// Text an interrupted stream delivered before a heuristic took over.
    pub partial: Option<String>,
}

/// An LLM-backed step of a mode whose own state is `S`.
pub trait LlmStep<S, M: Mode> {
    /// What the step makes.
    type Output;
    /// What the call is for.
    fn purpose(&self) -> M::Purpose;
    /// The request for the model.
    fn prompt(&self, state: &S, c: &Conversation<M>) -> Prompt;
    /// Reads the model's answer; `Err` says why it cannot be used.
    fn parse(&self, state: &S, c: &Conversation<M>, text: &str) -> Result<Self::Output, String>;
    /// The heuristic twin, used when no LLM is configured.
    fn twin(&self, state: &S, c: &Conversation<M>) -> Self::Output;
    /// The heuristic used when the call failed or its answer was unusable; the twin
    /// unless the step is more careful then.
    fn fallback(&self, state: &S, c: &Conversation<M>) -> Self::Output {
        self.twin(state, c)
    }
    /// Puts the result into the mode's state and the conversation.
    fn apply(&self, state: &mut S, c: &mut Conversation<M>, produced: Produced<Self::Output>, env: &Env);
    /// Stream the answer into a message of its own.
    fn stream(&self) -> bool {
        false
    }
    /// Whether the user waits for it.
    fn kind(&self) -> CallKind {
        CallKind::Foreground
    }
}

/// Starts the steps as one batch of concurrent calls when their endpoint has an LLM;
/// otherwise runs every twin at once. True when the results were applied now.
pub fn start<S, M: Mode, T: LlmStep<S, M>>(
    steps: &[T],
    state: &mut S,
    c: &mut Conversation<M>,
    env: &Env,
    fx: &mut Effects<M>,
) -> bool {
    let requests = steps
        .iter()
        .map(|s| CallRequest { purpose: s.purpose(), prompt: s.prompt(state, c), stream: s.stream(), kind: s.kind() })
        .collect();
    if c.launch(requests, env, fx) {
        return false;
    }
    for step in steps {
        let output = step.twin(state, c);
        let source = c.heuristic();
        step.apply(state, c, Produced { output, source, call: None, partial: None }, env);
    }
    true
}

/// Finishes a step from its call's outcome: the parsed answer, or the fallback with the
/// failure or the reason reported.
pub fn finish<S, M: Mode, T: LlmStep<S, M>>(
    step: &T,
    state: &mut S,
    c: &mut Conversation<M>,
    call: CallId,
    outcome: LlmOutcome,
    env: &Env,
) {
    let (failure, reason): (Option<LlmFailure>, String) = match outcome {
        LlmOutcome::Ok { text, model, .. } => match step.parse(state, c, &text) {
            Ok(output) => {
                let produced = Produced { output, source: Source::Llm { model }, call: Some(call), partial: None };
                step.apply(state, c, produced, env);
                return;
            }
            Err(reason) => (None, reason),
        },
        LlmOutcome::Failed(f) => (Some(f), String::new()),
    };
    let partial = failure.as_ref().and_then(|f| f.partial.clone()).filter(|p| !p.trim().is_empty());
    let source = c.fell_back(step.purpose(), failure, reason, env.now);
    let output = step.fallback(state, c);
    step.apply(state, c, Produced { output, source, call: Some(call), partial }, env);
}
