//! Engine time of the counseling mode with no key: a whole scripted session per language,
//! greeting to closing, timed per heuristic turn (crisis check, checker, detector, task and
//! module selectors, reply, and the supervisor on every 3rd message).

use std::time::Instant;

use deliberate::engine::counsel::Counseling;
use deliberate::engine::lang::Lang;
use deliberate::scenario::{COUNSEL_EN, COUNSEL_KO};

/// Microseconds per heuristic turn over `rounds` sessions in each language.
pub fn turn_micros(rounds: usize) -> Vec<f64> {
    let mut samples = Vec::new();
    for _ in 0..rounds {
        for (lang, script) in [(Lang::Ko, COUNSEL_KO), (Lang::En, COUNSEL_EN)] {
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
        for (lang, script) in [(Lang::Ko, COUNSEL_KO), (Lang::En, COUNSEL_EN)] {
            let mut session = Counseling::new(lang);
            session.opening(true);
            for text in script {
                session.heuristic_turn(text, lang);
            }
            assert_eq!(session.part, Part::Ended, "{lang:?}");
        }
        assert_eq!(turn_micros(1).len(), COUNSEL_KO.len() + COUNSEL_EN.len());
    }
}
