//! Discussion memory (seed 000): what was agreed, what is open, what the user prefers,
//! and what each round produced, with a bounded context for prompts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::critique::Critique;
use super::design::DesignProposal;
use super::lang::clip;
use super::words::WordList;

/// The designs shown in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesignSnapshot {
    pub round: u32,
    pub designs: Vec<DesignProposal>,
}

/// The critiques made in one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CritiqueSnapshot {
    pub round: u32,
    pub critiques: Vec<Critique>,
}

/// What happened in one round, in a sentence or two.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSummary {
    pub round: u32,
    pub summary: String,
}

/// A question and how it was settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub question: String,
    pub resolution: String,
}

/// The seven tracked items of seed 000.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Memory {
    pub agreements: Vec<String>,
    pub open_questions: Vec<String>,
    pub user_preferences: BTreeMap<String, String>,
    pub design_history: Vec<DesignSnapshot>,
    pub critique_history: Vec<CritiqueSnapshot>,
    pub round_summaries: Vec<RoundSummary>,
    pub resolved_questions: Vec<Resolution>,
}

/// Marker put at the end of a context cut at `max_chars`.
pub const TRUNCATION_MARKER: &str = "... (truncated)";

/// How many of the latest round summaries a prompt sees.
pub const RECENT_ROUNDS: usize = 3;

impl Memory {
    /// Records an agreement once.
    pub fn agree(&mut self, text: impl Into<String>) {
        let text = text.into();
        if !text.trim().is_empty() && !self.agreements.contains(&text) {
            self.agreements.push(text);
        }
    }

    /// Records the agreement "`key`: `value`" in place of an earlier one on the same key
    /// (the format the user changed in a refine round replaces the one agreed first).
    pub fn restate(&mut self, key: &str, value: &str) {
        let prefix = format!("{key}: ");
        let line = format!("{prefix}{value}");
        match self.agreements.iter_mut().find(|a| a.starts_with(&prefix)) {
            Some(earlier) => *earlier = line,
            None => self.agree(line),
        }
    }

    /// Records an open question once.
    pub fn ask(&mut self, question: impl Into<String>) {
        let question = question.into();
        if !question.trim().is_empty() && !self.open_questions.contains(&question) {
            self.open_questions.push(question);
        }
    }

    /// Moves a question from open to resolved.
    pub fn resolve(&mut self, question: &str, resolution: impl Into<String>) {
        let key = super::lang::normalize(question);
        self.open_questions.retain(|q| super::lang::normalize(q) != key);
        self.resolved_questions.push(Resolution { question: question.to_string(), resolution: resolution.into() });
    }

    /// Sets a preference (the latest statement wins).
    pub fn prefer(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.user_preferences.insert(key.into(), value.into());
    }

    /// Keeps a snapshot of a round's designs.
    pub fn record_designs(&mut self, round: u32, designs: &[DesignProposal]) {
        self.design_history.retain(|s| s.round != round);
        self.design_history.push(DesignSnapshot { round, designs: designs.to_vec() });
    }

    /// Keeps a snapshot of a round's critiques.
    pub fn record_critiques(&mut self, round: u32, critiques: &[Critique]) {
        self.critique_history.retain(|s| s.round != round);
        self.critique_history.push(CritiqueSnapshot { round, critiques: critiques.to_vec() });
    }

    /// Adds a round summary.
    pub fn summarize_round(&mut self, round: u32, summary: impl Into<String>) {
        self.round_summaries.push(RoundSummary { round, summary: summary.into() });
    }

    /// The memory as prompt context: agreements, open questions, preferences and the
    /// latest three round summaries, cut to `max_chars` characters with a marker.
    pub fn context_for_llm(&self, max_chars: usize) -> String {
        let mut out = String::new();
        if !self.agreements.is_empty() {
            out.push_str("Agreements:\n");
            for a in &self.agreements {
                out.push_str(&format!("- {a}\n"));
            }
        }
        if !self.open_questions.is_empty() {
            out.push_str("Open questions:\n");
            for q in &self.open_questions {
                out.push_str(&format!("- {q}\n"));
            }
        }
        if !self.resolved_questions.is_empty() {
            out.push_str("Settled questions:\n");
            for r in &self.resolved_questions {
                out.push_str(&format!("- {} → {}\n", clip(&r.question, 200), clip(&r.resolution, 200)));
            }
        }
        if !self.user_preferences.is_empty() {
            out.push_str("User preferences:\n");
            for (k, v) in &self.user_preferences {
                out.push_str(&format!("- {k}: {v}\n"));
            }
        }
        let recent = self.round_summaries.len().saturating_sub(RECENT_ROUNDS);
        if recent < self.round_summaries.len() {
            out.push_str("Recent rounds:\n");
            for r in &self.round_summaries[recent..] {
                out.push_str(&format!("- Round {}: {}\n", r.round, r.summary));
            }
        }
        let out = out.trim_end().to_string();
        if out.chars().count() <= max_chars {
            return out;
        }
        let keep = max_chars.saturating_sub(TRUNCATION_MARKER.chars().count() + 1);
        let mut cut: String = out.chars().take(keep).collect();
        cut.push('\n');
        cut.push_str(TRUNCATION_MARKER);
        cut
    }
}

/// Preference themes read from feedback: (theme key, Korean/English triggers, value in
/// Korean and English).
const PREFERENCE_RULES: &[(&str, WordList, (&str, &str))] = &[
    ("cost", WordList("저렴|싸게|비용|예산|cheap|cost|budget|expensive"), ("비용을 낮게", "keep cost low")),
    (
        "accuracy",
        WordList("정확|검증|신뢰|환각|accura|validat|reliab|hallucinat"),
        ("정확성과 검증 우선", "prefer accuracy and validation"),
    ),
    ("simplicity", WordList("단순|간단|가볍|simple|fewer|lighter"), ("단계는 적게", "prefer fewer moving parts")),
    ("speed", WordList("빠르|속도|지연|fast|speed|latency"), ("지연은 짧게", "prefer low latency")),
    ("security", WordList("보안|개인정보|민감|security|privacy|pii"), ("민감 정보 보호", "protect sensitive data")),
    (
        "review",
        WordList("사람이|사람 검토|검수|human|manual review|approval"),
        ("사람이 결과를 검토", "a person reviews the output"),
    ),
];

impl Memory {
    /// True when the user asked the steps of a preference's kind to go ("검증은 빼 주세요" for
    /// "accuracy"): the memory holds that kind's "without" value for it.
    pub fn declines(&self, preference: &str) -> bool {
        let Some(value) = self.user_preferences.get(preference) else { return false };
        super::design::STEP_KINDS
            .iter()
            .any(|k| k.preference == preference && (value == k.without.0 || value == k.without.1))
    }
}

/// Preferences a piece of feedback states, as (theme, value in `lang`) pairs.
/// A step asked to go ("검증은 빼 주세요", "skip the human review") states the opposite
/// preference.
pub fn preferences_in(feedback: &str, lang: super::lang::Lang) -> Vec<(&'static str, &'static str)> {
    use super::design::{step_wanted, STEP_KINDS};
    let lower = feedback.to_ascii_lowercase();
    let without = |key: &str| {
        let kind = STEP_KINDS.iter().find(|k| k.preference == key)?;
        let (add, remove) = step_wanted(feedback, kind.cue.iter());
        (remove && !add).then_some(kind.without)
    };
    PREFERENCE_RULES
        .iter()
        .filter(|(_, triggers, _)| triggers.iter().any(|t| lower.contains(t)))
        .map(|(key, _, stated)| {
            let (ko, en) = without(key).unwrap_or(*stated);
            (*key, lang.pick(ko, en))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_step_asked_to_go_is_the_opposite_preference() {
        use crate::engine::lang::Lang;
        assert_eq!(
            preferences_in("검증은 빼고 사람 검토를 넣어 주세요", Lang::Ko),
            [("accuracy", "검증 단계 없이"), ("review", "사람이 결과를 검토")]
        );
        assert_eq!(preferences_in("skip the human review", Lang::En), [("review", "no human review")]);
        assert_eq!(preferences_in("add more validation", Lang::En), [("accuracy", "prefer accuracy and validation")]);
    }

    #[test]
    fn tracks_all_seven_items() {
        let mut m = Memory::default();
        m.agree("Use Markdown output");
        m.agree("Use Markdown output");
        m.ask("Who reads the digest?");
        m.prefer("cost", "keep cost low");
        m.record_designs(1, &[]);
        m.record_critiques(1, &[]);
        m.summarize_round(1, "Asked for cheaper models");
        m.resolve("who reads the digest", "the sales team");
        assert_eq!(m.agreements, vec!["Use Markdown output"]);
        assert!(m.open_questions.is_empty(), "resolving matches normalized text");
        assert_eq!(m.resolved_questions[0].resolution, "the sales team");
        assert_eq!(m.user_preferences["cost"], "keep cost low");
        assert_eq!(m.design_history.len(), 1);
        assert_eq!(m.critique_history.len(), 1);
        assert_eq!(m.round_summaries.len(), 1);
        let back: Memory = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn context_has_only_the_three_latest_rounds() {
        let mut m = Memory::default();
        for round in 1..=5 {
            m.summarize_round(round, format!("summary {round}"));
        }
        let ctx = m.context_for_llm(4000);
        assert!(!ctx.contains("summary 1") && !ctx.contains("summary 2"));
        assert!(ctx.contains("summary 3") && ctx.contains("summary 5"));
    }

    #[test]
    fn context_is_bounded_with_a_truncation_marker() {
        let mut m = Memory::default();
        for i in 0..200 {
            m.agree(format!("agreement number {i} with some words to fill the space"));
        }
        let ctx = m.context_for_llm(4000);
        assert!(ctx.chars().count() <= 4000);
        assert!(ctx.ends_with(TRUNCATION_MARKER));
        let small = m.context_for_llm(100);
        assert!(small.chars().count() <= 100);
        let short = Memory::default().context_for_llm(4000);
        assert_eq!(short, "");
    }

    #[test]
    fn preferences_are_read_from_feedback_in_both_languages() {
        let cases: &[(&str, &[&str])] = &[
            ("더 저렴하게 해주세요", &["cost"]),
            ("accuracy matters more than speed", &["accuracy", "speed"]),
            ("개인정보가 있어서 보안이 중요해", &["security"]),
            ("looks fine", &[]),
        ];
        for (text, want) in cases {
            let got: Vec<&str> =
                preferences_in(text, crate::engine::lang::Lang::En).into_iter().map(|(k, _)| k).collect();
            assert_eq!(&got, want, "{text}");
        }
    }
}
