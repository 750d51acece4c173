//! The engine cost of one chat loop turn: the model answers with 10 tool calls (reads of a
//! long attachment), the engine checks and runs them, cuts their outputs, and builds the next
//! prompt. Timed natively over many repetitions; the figure is per turn.

use std::time::Instant;

use deliberate::engine::call::{LlmOutcome, Usage};
use deliberate::engine::chat::ChatAction;
use deliberate::engine::lang::Lang;
use deliberate::engine::prompt::ToolCall;
use deliberate::engine::session::{Effect, Env, Event, ModeKind, Session, Settings};

/// Tool calls per measured turn.
pub const TOOL_CALLS: usize = 10;

fn first_call(effects: &[Effect]) -> Option<u32> {
    effects.iter().find_map(|e| match e {
        Effect::CallLlm(call) => Some(call.id),
        _ => None,
    })
}

/// Runs `turns` loop turns of 10 tool calls each; returns microseconds per turn and the
/// model calls the engine asked for after them.
pub fn measure(turns: u32) -> (f64, u32) {
    let mut settings = Settings::default();
    settings.chat.max_turns = turns + 2;
    settings.common.context_window = Some(1_000_000);
    let env = Env::online(1_000);
    let mut session = Session::new("bench", Lang::En, settings, 1_000);
    session.step(Event::switch_mode(ModeKind::Chat), &env);
    let log: String = (0..3_000).map(|i| format!("line {i:05} of the build log\n")).collect();
    session.step(Event::chat(ChatAction::Attach { name: "build.log".into(), text: log }), &env);
    let mut call = first_call(&session.step(Event::UserMessage { text: "read the log".into() }, &env));
    let answer = |turn: u32| LlmOutcome::Ok {
        text: String::new(),
        model: "bench".into(),
        usage: Some(Usage { input_tokens: 5_000, output_tokens: 100 }),
        tool_calls: (0..TOOL_CALLS)
            .map(|i| ToolCall {
                id: format!("t{turn}-{i}"),
                name: "read_attachment".into(),
                arguments: format!(r#"{{"name":"build.log","offset":{}}}"#, i * 1_000),
            })
            .collect(),
        refusal: false,
    };
    let started = Instant::now();
    let mut asked = 0;
    for turn in 0..turns {
        let Some(id) = call else { break };
        call = first_call(&session.step(Event::LlmResult { call: id, outcome: answer(turn) }, &env));
        asked += u32::from(call.is_some());
    }
    (started.elapsed().as_secs_f64() * 1e6 / turns as f64, asked)
}

/// The figure as a Markdown line for `./dev bench`.
pub fn report() -> String {
    let (per_turn, _) = measure(15);
    format!("## Chat loop\n\nEngine cost of one loop turn with {TOOL_CALLS} tool calls (attachment reads): {per_turn:.0} µs\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_measured_turn_answers_its_ten_calls_and_asks_the_model_again() {
        let (_, asked) = super::measure(3);
        assert_eq!(asked, 3);
    }
}
