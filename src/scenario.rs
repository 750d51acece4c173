//! Canned conversations for tests and benchmarks: a no-key discussion turn by turn (the
//! same turns run natively and in the browser so their timings compare), and any list of
//! events played into a session with its journal.

use crate::engine::lang::Lang;
use crate::engine::session::{Env, Event, Session, Settings};
use crate::engine::state_machine::Stage;
use crate::store::saved::Journal;

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

/// A Korean counseling session with no key that runs through all three parts, up to the
/// user's goodbye (the benchmarks and the tests of the mode share it).
pub const COUNSEL_KO: &[&str] = &[
    "안녕하세요",
    "저는 민지예요. 요즘 회사 일 때문에 스트레스가 너무 심해서 이야기하고 싶었어요",
    "네, 이렇게 얘기할 수 있어서 조금 편해요",
    "상사가 회의 때마다 제 의견을 무시하고 다른 사람들 앞에서 큰 소리로 혼을 내서 너무 창피하고 화가 나요",
    "그럴 때마다 제가 쓸모없는 사람처럼 느껴지고 밤에 잠도 잘 못 자요",
    "네 맞아요, 요즘은 출근하는 것 자체가 두렵고 주말에도 계속 회사 생각만 나요",
    "어릴 때부터 남들과 비교하면서 늘 부족하다고 생각했던 것 같아요. 회사에서도 그래서 더 움츠러들어요",
    "네, 맞아요",
    "이번 주에는 점심시간에 혼자 10분씩 산책을 해 볼게요",
    "고마워요, 다음에 또 이야기해요",
];

/// The same session in English.
pub const COUNSEL_EN: &[&str] = &[
    "Hi",
    "I'm Sam. I came because work has been really stressful and my boss keeps criticizing me",
    "Thanks, it feels okay to talk about it here",
    "Every meeting he points out my mistakes in front of everyone and I feel so angry and humiliated afterwards",
    "It makes me feel worthless and I can't sleep well at night",
    "Yes, and I dread going to the office on Monday mornings, it stays on my mind all weekend",
    "I lie awake replaying the meetings until two or three in the morning, then I am exhausted the whole next day",
    "Yes, that's right",
    "This week I will take a ten minute walk at lunch every day",
    "Thank you, see you next time",
];

/// A session `id` in `lang` stepped through `events` with no LLM (one second apart), and its
/// journal.
pub fn played(id: &str, lang: Lang, events: impl IntoIterator<Item = Event>) -> (Session, Journal) {
    let mut session = Session::new(id, lang, Settings::default(), 1_000);
    let mut journal = Journal::begin(&session);
    for (i, event) in events.into_iter().enumerate() {
        let env = Env::offline(2_000 + 1_000 * i as u64);
        journal.record(&event, &env);
        session.step(event, &env);
    }
    (session, journal)
}

/// A no-key chat of `turns` user messages, each answered with a card (the long-conversation
/// benchmarks open it natively, in the page and in the engine's wasm benchmark).
pub fn long_chat(turns: usize) -> (Session, Journal) {
    let questions = (0..turns).map(|i| Event::UserMessage {
        text: format!("Question {i}: how should I clean up the build folder and the caches of this project?"),
    });
    let events = std::iter::once(Event::switch_mode(crate::engine::session::ModeKind::Chat)).chain(questions);
    played("s-long-bench", Lang::En, events)
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
