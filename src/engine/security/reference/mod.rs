//! The screen as it was before the one-pass matcher, kept only to test that the faster
//! screen gives every text the same verdict (the same kinds, in the same order). `decode`
//! did not change and is shared.

mod normalize;
mod rules;

use super::lexicon::{
    ATTACK_TOPICS, BOUNDARY_LINES, CARRY_OUT, HEADER_ORDERS, MARKUP, QUESTION_CUES, QUOTE_TOPICS, ROLE_HEADERS,
};
use super::{decode, InjectionKind, Screening};
use normalize::{fold, skeleton};

/// The former `screen`.
pub fn screen(text: &str) -> Screening {
    let folded = fold(text);
    let mut findings = detect(&folded);
    if findings.is_empty() {
        for hidden in decode::hidden_texts(text, &folded) {
            let inner = detect(&fold(&hidden));
            if !inner.is_empty() {
                findings.push(InjectionKind::Obfuscated);
                findings.extend(inner.into_iter().filter(|k| *k != InjectionKind::Obfuscated));
                break;
            }
        }
    }
    if !findings.is_empty() && talks_about_attacks(&folded) {
        findings.clear();
    }
    Screening { findings }
}

fn detect(folded: &str) -> Vec<InjectionKind> {
    let mut found = Vec::new();
    if fake_markup(folded) {
        found.push(InjectionKind::TagInjection);
    }
    if wipes_root(folded) {
        found.push(InjectionKind::ToolMisuse);
    }
    let skeleton = skeleton(folded);
    let words = rules::Words::new(&skeleton);
    for rule in rules::RULES {
        if !found.contains(&rule.kind) && rules::fires(&words, rule) {
            found.push(rule.kind);
        }
    }
    found
}

fn fake_markup(folded: &str) -> bool {
    let squeezed: String = folded.chars().filter(|c| !c.is_whitespace()).collect();
    if MARKUP.iter().any(|m| folded.contains(m) || squeezed.contains(&m.replace(' ', ""))) {
        return true;
    }
    folded.lines().any(|raw| {
        let line = raw.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '#' | '-' | '*' | '>' | '='));
        let bare = raw.trim_matches(|c: char| c.is_whitespace() || "#-=*[]<>|_~".contains(c));
        let decorated = bare.len() < raw.trim().len();
        (decorated && BOUNDARY_LINES.contains(&bare))
            || ROLE_HEADERS.iter().any(|h| line.starts_with(h)) && HEADER_ORDERS.iter().any(|o| line.contains(o))
    })
}

fn wipes_root(folded: &str) -> bool {
    let words: Vec<&str> =
        folded.split_whitespace().map(|w| w.trim_matches(|c| matches!(c, '`' | '"' | '\'' | ';'))).collect();
    folded.contains("--no-preserve-root")
        || words.windows(3).any(|w| {
            w[0] == "rm"
                && w[1].starts_with('-')
                && w[1].contains('r')
                && ["/", "/*", "~", "~/", "~/*", "*"].contains(&w[2])
        })
}

fn mentions(folded: &str, concept: &str) -> bool {
    let skeleton = skeleton(folded);
    !rules::Words::new(&skeleton).concept_spans(concept).is_empty()
}

fn asks(folded: &str) -> bool {
    folded.contains('?') || mentions(folded, QUESTION_CUES)
}

fn outside_quotes(folded: &str) -> (String, bool) {
    let chars: Vec<char> = folded.chars().collect();
    let mut out = String::with_capacity(folded.len());
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '"' | '\'' | '`') {
            if let Some(len) = chars[i + 1..].iter().position(|&d| d == c) {
                if len >= 3 {
                    out.push(' ');
                    quoted = true;
                    i += len + 2;
                    continue;
                }
            }
        }
        out.push(c);
        i += 1;
    }
    (out, quoted)
}

fn talks_about_attacks(folded: &str) -> bool {
    if mentions(folded, CARRY_OUT) {
        return false;
    }
    let (outside, quoted) = outside_quotes(folded);
    if quoted {
        return detect(&outside).is_empty() && (asks(&outside) || mentions(&outside, QUOTE_TOPICS));
    }
    mentions(folded, ATTACK_TOPICS) && asks(folded)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Every bundled dataset (each data line's last tab-separated column is its text).
    const DATASETS: &[&str] = &[
        include_str!("../../../../tests/data/slot_utterances.tsv"),
        include_str!("../../../../tests/data/crisis_dev.tsv"),
        include_str!("../../../../tests/data/crisis_utterances.tsv"),
        include_str!("../../../../tests/data/crisis_heldout_2.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_3.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_4.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_5.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_6.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_7.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_8.tsv"),
        include_str!("../../../../tests/data/crisis_fresh_9.tsv"),
        include_str!("../../../../tests/data/debate_replies.tsv"),
        include_str!("../../../../tests/data/token_corpus.tsv"),
        include_str!("../../../../tests/data/injection/injection.tsv"),
    ];

    fn texts() -> Vec<String> {
        DATASETS
            .iter()
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
        rules::RULES
            .iter()
            .flat_map(|r| r.concepts.iter().copied().chain([r.unless]))
            .chain([ATTACK_TOPICS, QUOTE_TOPICS, QUESTION_CUES, CARRY_OUT])
            .flat_map(|c| c.split('|'))
            .filter(|s| !s.is_empty())
    }

    /// Asserts the faster screen gives each text the verdict the former screen gave.
    fn assert_same_verdicts(inputs: &[String]) {
        for text in inputs {
            assert_eq!(super::super::screen(text), screen(text), "{text:?}");
        }
    }

    /// Every dataset line as it is, and random texts of rule stems, get the verdict they got
    /// before (the former screen is slow in a debug build, so the variations are below).
    #[test]
    fn every_dataset_line_gets_the_verdict_it_got_before() {
        let mut inputs = texts();
        assert!(inputs.len() > 2500, "the datasets were read: {}", inputs.len());
        inputs.extend(stem_salad(600));
        let blocked = inputs.iter().filter(|t| screen(t).blocked()).count();
        assert!(blocked > 400 && inputs.len() - blocked > 2000, "both outcomes occur: {blocked} blocked");
        assert_same_verdicts(&inputs);
    }

    /// Every variation of every dataset line and many random stem texts get the verdict they
    /// got before. About 70,000 texts: run it optimized,
    /// `cargo test --profile bench-native --lib verdicts_it_got -- --ignored`.
    #[test]
    #[ignore]
    fn every_variation_gets_the_verdict_it_got_before() {
        let lines = texts();
        let mut inputs: Vec<String> = Vec::new();
        for (i, text) in lines.iter().enumerate() {
            inputs.extend(mutations(text, &lines[(i + 1) % lines.len()]));
        }
        inputs.extend(stem_salad(20_000));
        let blocked = inputs.iter().filter(|t| screen(t).blocked()).count();
        assert!(blocked > 3000 && inputs.len() - blocked > 3000, "both outcomes occur: {blocked} blocked");
        assert_same_verdicts(&inputs);
    }

    /// Normalization gives the same folded text and skeleton as before, on every dataset
    /// line and its variations.
    #[test]
    fn normalization_gives_the_text_it_gave_before() {
        let lines = texts();
        for (i, text) in lines.iter().enumerate() {
            for input in mutations(text, &lines[(i + 1) % lines.len()]) {
                let folded = fold(&input);
                assert_eq!(super::super::normalize::fold(&input), folded, "{input:?}");
                assert_eq!(super::super::normalize::skeleton(&folded), skeleton(&folded), "{input:?}");
            }
        }
    }
}
