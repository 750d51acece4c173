//! Engine time of the counseling mode with no key: a whole scripted session per language,
//! greeting to closing, timed per heuristic turn (crisis check, checker, detector, task and
//! module selectors, reply, and the supervisor on every 3rd message).

use std::time::Instant;

use deliberate::engine::counsel::Counseling;
use deliberate::engine::lang::Lang;

/// A Korean session that runs through all three parts.
pub const KO_SCRIPT: &[&str] = &[
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

/// An English session that runs through all three parts.
pub const EN_SCRIPT: &[&str] = &[
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

/// Microseconds per heuristic turn over `rounds` sessions in each language.
pub fn turn_micros(rounds: usize) -> Vec<f64> {
    let mut samples = Vec::new();
    for _ in 0..rounds {
        for (lang, script) in [(Lang::Ko, KO_SCRIPT), (Lang::En, EN_SCRIPT)] {
            let mut session = Counseling::new(lang);
            session.opening(true);
            for text in script {
                let start = Instant::now();
                let outcome = session.heuristic_turn(text, lang);
                samples.push(start.elapsed().as_secs_f64() * 1e6);
                std::hint::black_box(outcome);
            }
        }
    }
    samples
}

/// The figure as text: median, 95th percentile and maximum per turn.
pub fn measure() -> String {
    turn_micros(5);
    let mut samples = turn_micros(200);
    samples.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    format!(
        "native, {} turns: median {:.0} µs, p95 {:.0} µs, max {:.0} µs per heuristic counseling turn\n",
        samples.len(),
        at(0.5),
        at(0.95),
        samples.last().copied().unwrap_or(0.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use deliberate::engine::counsel::task::Part;

    #[test]
    fn bench_scripts_reach_the_end_of_the_session() {
        for (lang, script) in [(Lang::Ko, KO_SCRIPT), (Lang::En, EN_SCRIPT)] {
            let mut session = Counseling::new(lang);
            session.opening(true);
            for text in script {
                session.heuristic_turn(text, lang);
            }
            assert_eq!(session.part, Part::Ended, "{lang:?}");
        }
        assert_eq!(turn_micros(1).len(), KO_SCRIPT.len() + EN_SCRIPT.len());
    }
}
