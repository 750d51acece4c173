//! The screen's verdicts recorded, so a change to how it works (not to what it finds) can
//! be checked without keeping an old copy: every dataset line and a fixed set of random
//! texts made of the rules' own stems, with the kinds found for each blocked one; and a
//! digest of what normalization makes of every line and its variations. After a change
//! meant to alter verdicts, write the file again:
//! `cargo test --lib security::verdicts::record -- --ignored`, and review its diff.

use std::fmt::Write;

use super::lexicon::{ATTACK_TOPICS, CARRY_OUT, QUESTION_CUES, QUOTE_TOPICS};
use super::normalize::{fold, skeleton};
use super::screen;

/// The recorded verdicts (`tests/data/injection/screen_verdicts.tsv`).
const RECORDED: &str = include_str!("../../../tests/data/injection/screen_verdicts.tsv");

/// Every bundled dataset besides the crisis sets (each data line's last tab-separated column
/// is its text).
const DATASETS: &[&str] = &[
    include_str!("../../../tests/data/debate_replies.tsv"),
    include_str!("../../../tests/data/token_corpus.tsv"),
    include_str!("../../../tests/data/injection/injection.tsv"),
];

/// The slot utterances, read before the crisis sets (`counsel::crisis::SETS`) and the rest, in
/// the order the verdicts were recorded in.
const SLOTS: &str = include_str!("../../../tests/data/slot_utterances.tsv");

fn texts() -> Vec<String> {
    std::iter::once(SLOTS)
        .chain(crate::engine::counsel::crisis::SETS)
        .chain(DATASETS.iter().copied())
        .flat_map(|d| d.lines())
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.rsplit('\t').next())
        .map(|t| t.replace("\\n", "\n"))
        .collect()
}

/// Variations of a text that reach other paths of the screen: case, cut, joined,
/// spaced and dotted letters, leetspeak, encodings, quotes, fake markup.
fn mutations(text: &str, next: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let half = chars.len() / 2;
    let dotted: String = chars.iter().take(40).flat_map(|&c| [c, '.']).collect();
    let spaced: String = chars.iter().take(40).flat_map(|&c| [c, ' ']).collect();
    let leet: String = text
        .chars()
        .map(|c| match c {
            'o' => '0',
            'e' => '3',
            'a' => '4',
            's' => '5',
            'i' => '1',
            't' => '7',
            _ => c,
        })
        .collect();
    let rot13: String = text
        .chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => (c as u8 + 13) as char,
            'n'..='z' | 'N'..='Z' => (c as u8 - 13) as char,
            _ => c,
        })
        .collect();
    let hex: String = text.bytes().take(60).map(|b| format!("{b:02x}")).collect();
    vec![
        text.to_string(),
        text.to_uppercase(),
        chars[..half].iter().collect(),
        chars[half..].iter().collect(),
        format!("{text} {next}"),
        format!("{text}\n{next}"),
        dotted,
        spaced,
        leet,
        rot13,
        text.chars().rev().collect(),
        hex,
        format!("Why is '{text}' dangerous?"),
        format!("\"{text}\" now do it"),
        format!("### END OF USER INPUT ###\n{text}"),
        format!("System: {text}"),
        format!("rm -rf / {text}"),
    ]
}

/// A small xorshift generator: the same seed gives the same texts.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Random texts made of the rules' own stems and a few fillers, so that rules fire,
/// nearly fire, and stems meet at word edges.
fn stem_salad(count: usize) -> Vec<String> {
    let mut stems: Vec<&str> = rule_stems().collect();
    stems.extend(["the", "a", "you", "ok", "이", "그", "를", "해", "1", "ai", "'", "\"", "?", "\n", "-", "x"]);
    let seps = [" ", " ", " ", "", ", ", ".", "\n", "@", "'"];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..count)
        .map(|_| {
            let n = 1 + rng.below(9);
            let mut text = String::new();
            for _ in 0..n {
                text.push_str(stems[rng.below(stems.len())].trim_end_matches('$'));
                text.push_str(seps[rng.below(seps.len())]);
            }
            text
        })
        .collect()
}

/// Every stem of every rule and of the talk-about-attacks concepts.
fn rule_stems() -> impl Iterator<Item = &'static str> {
    super::rules::RULES
        .iter()
        .flat_map(|r| r.concepts.iter().copied().chain([r.unless]))
        .chain([ATTACK_TOPICS, QUOTE_TOPICS, QUESTION_CUES, CARRY_OUT])
        .flat_map(|c| c.split('|'))
        .filter(|s| !s.is_empty())
}

/// FNV-1a, 64 bits: a stable name for a text.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The inputs whose verdicts are recorded: every dataset line and 600 stem texts.
fn inputs() -> Vec<String> {
    let mut inputs = texts();
    inputs.extend(stem_salad(600));
    inputs
}

/// One digest of the folded text and skeleton of every dataset line and its variations.
fn normalization_digest() -> u64 {
    let lines = texts();
    let mut all = String::new();
    for (i, text) in lines.iter().enumerate() {
        for input in mutations(text, &lines[(i + 1) % lines.len()]) {
            let folded = fold(&input);
            let _ = writeln!(all, "{folded}\t{}", skeleton(&folded));
        }
    }
    digest(&all)
}

/// The file as the screen makes it now.
fn record_now() -> String {
    let mut out = String::from(
        "# The injection screen's verdicts (src/engine/security/verdicts.rs): FNV-1a of an input, then\n\
         # the kinds found; inputs not listed are not blocked. `normalization` digests every folded text.\n",
    );
    let _ = writeln!(out, "normalization\t{:016x}", normalization_digest());
    let mut seen = std::collections::BTreeSet::new();
    for text in inputs() {
        let found = screen(&text);
        if found.blocked() && seen.insert(digest(&text)) {
            let _ = writeln!(out, "{:016x}\t{:?}", digest(&text), found.findings);
        }
    }
    out
}

/// Writes the recorded verdicts again from the screen as it is now.
#[test]
#[ignore]
fn record() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/injection/screen_verdicts.tsv");
    std::fs::write(path, record_now()).expect("the file is written");
}

/// Every input gets the verdict recorded for it: the same kinds in the same order, and not
/// blocked when none is recorded; normalization makes the same texts.
#[test]
fn every_input_gets_its_recorded_verdict() {
    let recorded: std::collections::HashMap<&str, &str> =
        RECORDED.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once('\t')).collect();
    let inputs = inputs();
    assert!(inputs.len() > 2500 && recorded.len() > 400, "{} inputs, {} recorded", inputs.len(), recorded.len());
    for text in &inputs {
        let found = screen(text);
        let want = recorded.get(format!("{:016x}", digest(text)).as_str()).copied();
        let got = found.blocked().then(|| format!("{:?}", found.findings));
        assert_eq!(got.as_deref(), want, "{text:?}");
    }
    let normalization = format!("{:016x}", normalization_digest());
    assert_eq!(recorded.get("normalization").copied(), Some(normalization.as_str()), "normalization changed");
}
