//! A canned no-key discussion, turn by turn, for the benchmarks: the same turns run
//! natively and in the browser so their timings compare.

use crate::engine::lang::Lang;
use crate::engine::session::{Env, Event, Session, Settings};
use crate::engine::state_machine::Stage;

/// One user turn of the scenario and how long the engine took for it.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnTiming {
    pub turn: &'static str,
    pub millis: f64,
}

/// Plays request → answer → feedback → feedback → choice with no LLM, timing each
/// `step` with `clock` (milliseconds). Returns the timings and the stage reached,
/// which is PLAN when the engine works.
pub fn play_heuristic_discussion(lang: Lang, clock: &mut dyn FnMut() -> f64) -> (Vec<TurnTiming>, Stage) {
    let (request, feedback1, feedback2, choice) = match lang {
        Lang::Ko => (
            "매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘",
            "비용을 더 줄여 주세요",
            "검증 단계를 강화해 주세요",
            "2번이 좋아요",
        ),
        Lang::En => (
            "Build a pipeline that summarizes IT news every morning",
            "make it cheaper please",
            "add more validation",
            "option 2 looks good",
        ),
    };
    let mut session = Session::new("bench", lang, Settings::default(), 0);
    let env = Env::offline(0);
    let mut timings = Vec::new();
    let mut timed = |session: &mut Session, turn: &'static str, event: Event| {
        let start = clock();
        session.step(event, &env);
        timings.push(TurnTiming { turn, millis: clock() - start });
    };
    timed(&mut session, "request", Event::UserMessage { text: request.to_string() });
    if let Some(card) = session.open_card().cloned() {
        let answers = card.questions.iter().map(|q| q.options.first().cloned().unwrap_or_default()).collect();
        timed(&mut session, "answer", Event::Answer { card: card.id, answers });
    }
    timed(&mut session, "feedback", Event::UserMessage { text: feedback1.to_string() });
    timed(&mut session, "feedback", Event::UserMessage { text: feedback2.to_string() });
    timed(&mut session, "choice", Event::UserMessage { text: choice.to_string() });
    (timings, session.stage().unwrap_or(Stage::Understand))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn the_benchmark_scenario_reaches_the_plan_in_both_languages() {
        for lang in [Lang::Ko, Lang::En] {
            let mut t = 0.0;
            let (timings, stage) = play_heuristic_discussion(lang, &mut || {
                t += 1.0;
                t
            });
            assert_eq!(stage, Stage::Plan, "{lang:?}");
            assert_eq!(timings.len(), 5, "{lang:?}: request, answer, two feedbacks, choice");
        }
    }
}
