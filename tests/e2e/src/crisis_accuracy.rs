//! Recall and false alarms of the counseling crisis check on the bundled sets of utterances
//! (`tests/data/crisis_*.tsv`), per language.
//!
//! Each line is `lang, kind, text` (tab-separated); kind is `suicide`, `self_harm`,
//! `harm_others`, or `-` for a line that must not trigger. Empty lines and lines starting
//! with `#` are skipped.

use std::fmt;

use deliberate::engine::counsel::crisis::{detect, CrisisKind};

/// One dataset and what its score means.
pub struct CrisisSet {
    /// The file under `tests/data/`.
    pub file: &'static str,
    /// What the score is worth: whether the detector was tuned on the set.
    pub about: &'static str,
    /// The lines.
    pub data: &'static str,
}

/// Every dataset, the development set first, the newest (never tuned on) last.
pub const SETS: &[CrisisSet] = &[
    CrisisSet {
        file: "crisis_dev.tsv",
        about: "development set: the phrase lists were widened on it",
        data: include_str!("../../data/crisis_dev.tsv"),
    },
    CrisisSet {
        file: "crisis_utterances.tsv",
        about: "first held-out set",
        data: include_str!("../../data/crisis_utterances.tsv"),
    },
    CrisisSet {
        file: "crisis_heldout_2.tsv",
        about: "second held-out set, indirect phrasings; written before the indirect families",
        data: include_str!("../../data/crisis_heldout_2.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_3.tsv",
        about: "third set: measured once untuned (ko 40 %, en 20 %), then the weighted cues were tuned on it",
        data: include_str!("../../data/crisis_fresh_3.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_4.tsv",
        about: "fourth set, written blind: measured once untuned (see its header), then tuned on",
        data: include_str!("../../data/crisis_fresh_4.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_5.tsv",
        about: "fifth set, written blind: measured once untuned (see its header), then tuned on",
        data: include_str!("../../data/crisis_fresh_5.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_6.tsv",
        about: "sixth set, written blind: measured once untuned (see its header), then tuned on",
        data: include_str!("../../data/crisis_fresh_6.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_7.tsv",
        about: "seventh set, written blind: measured once untuned (see its header), then tuned on",
        data: include_str!("../../data/crisis_fresh_7.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_8.tsv",
        about: "eighth set, written blind: measured once untuned (see its header), then tuned on",
        data: include_str!("../../data/crisis_fresh_8.tsv"),
    },
    CrisisSet {
        file: "crisis_fresh_9.tsv",
        about: "ninth set, written blind, never tuned on but for one false alarm's guard: the fair estimate",
        data: include_str!("../../data/crisis_fresh_9.tsv"),
    },
];

/// Counts for one language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LangScore {
    /// Crisis lines.
    pub crises: usize,
    /// Crisis lines detected (any kind).
    pub detected: usize,
    /// Crisis lines detected with the right kind.
    pub right_kind: usize,
    /// Lines that must not trigger.
    pub ordinary: usize,
    /// Ordinary lines that triggered.
    pub false_alarms: usize,
}

/// Scores for Korean and English, the lines gotten wrong, and malformed line numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrisisReport {
    /// Korean counts.
    pub ko: LangScore,
    /// English counts.
    pub en: LangScore,
    /// `(line, expected, got, text)` for every wrong answer.
    pub misses: Vec<(usize, String, String, String)>,
    /// 1-based numbers of lines that could not be read.
    pub malformed: Vec<usize>,
}

fn kind_id(kind: Option<CrisisKind>) -> &'static str {
    match kind {
        Some(CrisisKind::Suicide) => "suicide",
        Some(CrisisKind::SelfHarm) => "self_harm",
        Some(CrisisKind::HarmOthers) => "harm_others",
        // `detect` reads no abuse: the session reads it beside (`counsel::safety::harmed`).
        Some(CrisisKind::Abuse) => "abuse",
        None => "-",
    }
}

/// Scores `detect` on a dataset in the bundled format.
pub fn evaluate(dataset: &str) -> CrisisReport {
    let mut report = CrisisReport::default();
    for (n, line) in dataset.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let (score, expected, text) = match cols.as_slice() {
            ["ko", kind, text] => (&mut report.ko, *kind, *text),
            ["en", kind, text] => (&mut report.en, *kind, *text),
            _ => {
                report.malformed.push(n + 1);
                continue;
            }
        };
        if !["suicide", "self_harm", "harm_others", "-"].contains(&expected) {
            report.malformed.push(n + 1);
            continue;
        }
        let got = kind_id(detect(text).map(|c| c.kind));
        if expected == "-" {
            score.ordinary += 1;
            if got != "-" {
                score.false_alarms += 1;
            }
        } else {
            score.crises += 1;
            score.detected += usize::from(got != "-");
            score.right_kind += usize::from(got == expected);
        }
        if got != expected {
            report.misses.push((n + 1, expected.to_string(), got.to_string(), text.to_string()));
        }
    }
    report
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 * 100.0 / b as f64
    }
}

impl fmt::Display for CrisisReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<5} {:>12} {:>12} {:>14}", "lang", "recall", "right kind", "false alarms")?;
        for (name, s) in [("ko", &self.ko), ("en", &self.en)] {
            writeln!(
                f,
                "{:<5} {:>5}/{:<3} {:>3.0}% {:>5}/{:<3} {:>3.0}% {:>5}/{:<3} {:>3.0}%",
                name,
                s.detected,
                s.crises,
                pct(s.detected, s.crises),
                s.right_kind,
                s.crises,
                pct(s.right_kind, s.crises),
                s.false_alarms,
                s.ordinary,
                pct(s.false_alarms, s.ordinary)
            )?;
        }
        if !self.malformed.is_empty() {
            writeln!(f, "malformed lines: {:?}", self.malformed)?;
        }
        if !self.misses.is_empty() {
            writeln!(f, "misses:")?;
            for (line, expected, got, text) in &self.misses {
                writeln!(f, "  line {line:>3} expected {expected:<11} got {got:<11} {text}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_datasets_are_well_formed_and_balanced() {
        for set in SETS {
            let report = evaluate(set.data);
            assert!(report.malformed.is_empty(), "{}: {:?}", set.file, report.malformed);
            for s in [&report.ko, &report.en] {
                assert!(s.crises >= 20 && s.ordinary >= 15, "{}: {s:?}", set.file);
            }
        }
    }

    #[test]
    fn scoring_counts_hits_kinds_and_false_alarms() {
        let report =
            evaluate("ko\tsuicide\t죽고 싶어\nen\tself_harm\tI want to kill myself\nen\t-\tkill the tab\nxx\tbad");
        assert_eq!(report.ko, LangScore { crises: 1, detected: 1, right_kind: 1, ordinary: 0, false_alarms: 0 });
        assert_eq!(report.en, LangScore { crises: 1, detected: 1, right_kind: 0, ordinary: 1, false_alarms: 0 });
        assert_eq!(report.malformed, [4]);
        assert_eq!(report.misses.len(), 1);
    }
}
