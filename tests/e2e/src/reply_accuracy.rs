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
