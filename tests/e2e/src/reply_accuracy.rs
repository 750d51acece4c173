//! Accuracy of the debate-reply reader on a hand-written set of replies.
//!
//! The dataset is tab-separated: `lang, expected, reply`, the expected reading written as
//! `Reading::notation` gives it (`choose:2`, `approve:3`, `approve_rec`, `feedback:all`,
//! `feedback:1`, `question`, `question:2`, `start_over`), read against the three fallback
//! designs with the second recommended. Lines that are empty or start with `#` are skipped.

use std::collections::BTreeMap;
use std::fmt;

use deliberate::engine::design::fallback_designs;
use deliberate::engine::lang::Lang;
use deliberate::engine::reply::{briefs, read_reply};

/// The bundled dataset of debate replies.
pub const BUNDLED_DATASET: &str = include_str!("../../data/debate_replies.tsv");

/// Hits and totals per (language, class), and every miss.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplyReport {
    /// (language tag, class) → (correct, total).
    pub scores: BTreeMap<(String, String), (usize, usize)>,
    /// `reply → got (want expected)` for every wrong reading.
    pub misses: Vec<String>,
}

impl ReplyReport {
    /// Share of correct readings in the whole set, 0.0 when empty.
    pub fn overall(&self) -> f64 {
        let (hit, total) = self.scores.values().fold((0, 0), |(h, t), (a, b)| (h + a, t + b));
        if total == 0 {
            0.0
        } else {
            hit as f64 / total as f64
        }
    }
}

/// Reads every reply of a dataset and scores it against its expected reading.
pub fn evaluate(dataset: &str) -> ReplyReport {
    let mut report = ReplyReport::default();
    let designs_ko = fallback_designs("build a news digest", "Markdown", Lang::Ko);
    let designs_en = fallback_designs("build a news digest", "Markdown", Lang::En);
    for line in dataset.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut cols = line.splitn(3, '\t');
        let (Some(tag), Some(expected), Some(text)) = (cols.next(), cols.next(), cols.next()) else {
            report.misses.push(format!("malformed line: {line}"));
            continue;
        };
        let lang = Lang::from_tag(tag);
        let designs = if lang == Lang::Ko { &designs_ko } else { &designs_en };
        let got = read_reply(text, &briefs(designs), Some(1), lang).notation();
        let class = expected.split(':').next().unwrap_or(expected).to_string();
        let entry = report.scores.entry((lang.tag().to_string(), class)).or_default();
        entry.1 += 1;
        if got == expected {
            entry.0 += 1;
        } else {
            report.misses.push(format!("{text} → {got} (want {expected})"));
        }
    }
    report
}

/// Scores the reader on the bundled dataset, `tests/data/debate_replies.tsv`.
pub fn evaluate_bundled() -> ReplyReport {
    evaluate(BUNDLED_DATASET)
}

impl fmt::Display for ReplyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<6} {:<12} {:>8} {:>9}", "lang", "class", "correct", "accuracy")?;
        for ((lang, class), (hit, total)) in &self.scores {
            let ratio = if *total == 0 { 0.0 } else { *hit as f64 / *total as f64 };
            writeln!(f, "{lang:<6} {class:<12} {:>8} {:>8.1}%", format!("{hit}/{total}"), ratio * 100.0)?;
        }
        writeln!(f, "overall: {:.1}%  (goal ≥ 95 % per class and language)", self.overall() * 100.0)?;
        for miss in &self.misses {
            writeln!(f, "  miss: {miss}")?;
        }
        Ok(())
    }
}

/// One-line requests played with no key, as a person would answer: every question card
/// with its first choice, then a pick of the recommended design in ordinary words.
const ONE_LINERS: &[(&str, &str)] = &[
    ("매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘", "2번이 좋아요"),
    ("고객 문의 메일을 분류해서 주간 리포트로 정리해줘", "추천안으로 갈게요"),
    ("Build a pipeline that summarizes IT news every morning", "option 2 looks good"),
    ("Turn customer emails into a weekly FAQ update", "the recommended one, please"),
];

/// User turns from a one-line request to the plan with no key (seed goal: ≤ 4), per request.
pub fn turns_to_plan() -> Vec<(&'static str, Option<u32>)> {
    use deliberate::engine::lang::Lang;
    use deliberate::engine::session::{Env, Event, Session, Settings};
    use deliberate::engine::state_machine::Stage;
    ONE_LINERS
        .iter()
        .map(|(request, pick)| {
            let mut s = Session::new("turns", Lang::En, Settings::default(), 0);
            let mut turns = 0;
            let mut now = 0;
            let mut step = |s: &mut Session, e: Event| {
                now += 1;
                s.step(e, &Env::offline(now));
            };
            step(&mut s, Event::UserMessage { text: request.to_string() });
            turns += 1;
            while s.stage() != Some(Stage::Plan) && turns < 10 {
                if let Some(card) = s.open_card().cloned() {
                    let answers = card
                        .questions
                        .iter()
                        .map(|q| q.options.first().cloned().unwrap_or_else(|| "Markdown".to_string()))
                        .collect();
                    step(&mut s, Event::Answer { card: card.id, answers });
                } else {
                    step(&mut s, Event::UserMessage { text: pick.to_string() });
                }
                turns += 1;
            }
            (*request, (s.stage() == Some(Stage::Plan)).then_some(turns))
        })
        .collect()
}

/// The turns-to-plan figures as a table.
pub fn turns_report() -> String {
    let mut out = String::from("No-key user turns from a one-line request to the plan (goal ≤ 4):\n");
    for (request, turns) in turns_to_plan() {
        let shown = turns.map(|t| t.to_string()).unwrap_or_else(|| "no plan".into());
        out.push_str(&format!("  {shown:>8}  {request}\n"));
    }
    out
}

#[cfg(test)]
mod turns_tests {
    #[test]
    fn every_one_line_request_reaches_the_plan_within_four_turns() {
        for (request, turns) in super::turns_to_plan() {
            let turns = turns.unwrap_or_else(|| panic!("{request}: no plan"));
            assert!(turns <= 4, "{request}: {turns} turns");
        }
    }
}
