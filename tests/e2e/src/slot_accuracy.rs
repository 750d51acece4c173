//! Accuracy of the rule-based slot readers on a hand-written set of utterances.
//!
//! The dataset is tab-separated: `utterance, location, datetime, party_size, format`, each
//! expected value written as the engine shows it (datetime through `When::display(Ko)`,
//! format through `Format::label(En)`), `-` for "nothing should be extracted". Lines that
//! are empty or start with `#` are skipped. A correct `-` counts as a hit.

use std::fmt;

use deliberate::engine::lang::Lang;
use deliberate::engine::slots::{parse_format, parse_party_size, parse_place, parse_when};

/// The bundled dataset of lunch-planning and format-request utterances.
pub const BUNDLED_DATASET: &str = include_str!("../../data/slot_utterances.tsv");

/// The slots the dataset checks, in column order.
pub const SLOTS: [&str; 4] = ["location", "datetime", "party_size", "format"];

/// Hits for one slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotScore {
    /// The slot's column name.
    pub slot: &'static str,
    /// Utterances where the reader gave the expected value (or rightly nothing).
    pub correct: usize,
    /// Utterances scored.
    pub total: usize,
}

impl SlotScore {
    /// Share of correct answers, 0.0 when there were none to give.
    pub fn ratio(&self) -> f64 {
        ratio(self.correct, self.total)
    }
}

/// One slot the readers got wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    /// 1-based line in the dataset.
    pub line: usize,
    /// What was said.
    pub utterance: String,
    /// The slot read wrongly.
    pub slot: &'static str,
    /// The dataset's value (`-` for nothing).
    pub expected: String,
    /// What the reader gave (`-` for nothing).
    pub got: String,
}

/// Per-slot and overall accuracy, with every miss and any malformed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccuracyReport {
    /// Utterances read.
    pub utterances: usize,
    /// One score per slot, in the order of `SLOTS`.
    pub slots: Vec<SlotScore>,
    /// Every wrong reading.
    pub misses: Vec<Miss>,
    /// 1-based lines that did not have five tab-separated columns.
    pub malformed: Vec<usize>,
}

impl AccuracyReport {
    /// Correct answers and answers given, over all slots.
    pub fn overall(&self) -> (usize, usize) {
        self.slots.iter().fold((0, 0), |(c, t), s| (c + s.correct, t + s.total))
    }

    /// Share of correct answers over all slots.
    pub fn overall_ratio(&self) -> f64 {
        let (correct, total) = self.overall();
        ratio(correct, total)
    }

    /// The score of one slot by name.
    pub fn slot(&self, name: &str) -> Option<&SlotScore> {
        self.slots.iter().find(|s| s.slot == name)
    }
}

fn ratio(correct: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        correct as f64 / total as f64
    }
}

/// What the readers extract for each slot, written like the dataset.
fn extract(utterance: &str) -> [String; 4] {
    let none = || "-".to_string();
    [
        parse_place(utterance).unwrap_or_else(none),
        parse_when(utterance).map_or_else(none, |w| w.display(Lang::Ko)),
        parse_party_size(utterance).map_or_else(none, |n| n.to_string()),
        parse_format(utterance).map_or_else(none, |f| f.label(Lang::En).to_string()),
    ]
}

/// Scores the slot readers on a dataset in the format described in the module docs.
pub fn evaluate(dataset: &str) -> AccuracyReport {
    let mut report = AccuracyReport {
        utterances: 0,
        slots: SLOTS.iter().map(|&slot| SlotScore { slot, correct: 0, total: 0 }).collect(),
        misses: Vec::new(),
        malformed: Vec::new(),
    };
    for (index, line) in dataset.lines().enumerate() {
        let line_no = index + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let columns: Vec<&str> = line.split('\t').map(str::trim).collect();
        let [utterance, expected @ ..] = columns.as_slice() else {
            report.malformed.push(line_no);
            continue;
        };
        if expected.len() != SLOTS.len() {
            report.malformed.push(line_no);
            continue;
        }
        report.utterances += 1;
        let got = extract(utterance);
        for (k, score) in report.slots.iter_mut().enumerate() {
            score.total += 1;
            if got[k] == expected[k] {
                score.correct += 1;
            } else {
                report.misses.push(Miss {
                    line: line_no,
                    utterance: utterance.to_string(),
                    slot: score.slot,
                    expected: expected[k].to_string(),
                    got: got[k].clone(),
                });
            }
        }
    }
    report
}

/// Scores the slot readers on the bundled dataset, `tests/data/slot_utterances.tsv`.
pub fn evaluate_bundled() -> AccuracyReport {
    evaluate(BUNDLED_DATASET)
}

impl fmt::Display for AccuracyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "slot accuracy on {} utterances", self.utterances)?;
        writeln!(f, "{:<12} {:>8} {:>8}", "slot", "correct", "accuracy")?;
        for s in &self.slots {
            writeln!(f, "{:<12} {:>8} {:>7.1}%", s.slot, format!("{}/{}", s.correct, s.total), s.ratio() * 100.0)?;
        }
        let (correct, total) = self.overall();
        writeln!(f, "{:<12} {:>8} {:>7.1}%", "overall", format!("{correct}/{total}"), self.overall_ratio() * 100.0)?;
        if !self.malformed.is_empty() {
            writeln!(f, "malformed lines: {:?}", self.malformed)?;
        }
        if !self.misses.is_empty() {
            writeln!(f, "misses:")?;
            for m in &self.misses {
                writeln!(
                    f,
                    "  line {:>3} {:<10} expected {:?}, got {:?}: {}",
                    m.line, m.slot, m.expected, m.got, m.utterance
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluate_counts_hits_misses_and_correct_nothing() {
        let dataset = "# utterance\tlocation\tdatetime\tparty_size\tformat\n\
                       을지로, 2명, 12시 30분\t을지로\t12:30\t2\t-\n\
                       강남역 근처 3명\t홍대\t-\t3\t-\n\
                       \n\
                       this line is malformed\n";
        let report = evaluate(dataset);
        assert_eq!(report.utterances, 2);
        assert_eq!(report.malformed, vec![5]);
        let score = |slot| report.slot(slot).map(|s| (s.correct, s.total));
        assert_eq!(score("location"), Some((1, 2)));
        assert_eq!(score("datetime"), Some((2, 2)));
        assert_eq!(score("party_size"), Some((2, 2)));
        // Both rows name no format: two correct "-" answers.
        assert_eq!(score("format"), Some((2, 2)));
        assert_eq!(report.overall(), (7, 8));
        assert_eq!(
            report.misses,
            vec![Miss {
                line: 3,
                utterance: "강남역 근처 3명".to_string(),
                slot: "location",
                expected: "홍대".to_string(),
                got: "강남역".to_string(),
            }]
        );
        let table = report.to_string();
        assert!(table.contains("overall"));
        assert!(table.contains("87.5%"));
    }

    #[test]
    fn bundled_dataset_is_well_formed_and_large_enough() {
        let report = evaluate_bundled();
        assert!(report.malformed.is_empty(), "{:?}", report.malformed);
        assert!(report.utterances >= 120, "{}", report.utterances);
    }

    #[test]
    fn bundled_accuracy_stays_above_the_floor() {
        // A regression guard, not a target: run with --nocapture to see the table.
        let report = evaluate_bundled();
        println!("{report}");
        assert!(report.overall_ratio() >= 0.90, "{report}");
    }
}
