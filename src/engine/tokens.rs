//! Token counts without a tokenizer: an estimate per script, and the context budget it feeds.
//!
//! Byte-pair tokenizers cut text very differently by script. The rule of thumb of 4
//! characters per token fits English prose but under-counts Korean by half, and 1.5 tokens per
//! non-ASCII character over-counts it about twice. So the estimate walks the text in the
//! pieces a BPE pre-tokenizer sees (Latin words, Hangul runs, other CJK, digit runs,
//! punctuation, whitespace) and gives each kind its own cost, measured against o200k_base
//! (`tests/data/token_corpus.tsv`; `./dev bench` prints the error per language).
//!
//! Decomposed (NFD) Hangul, as macOS file names and some inputs carry it, costs several times
//! more tokens than the same text composed, and servers count what they receive: conjoining
//! jamo are composed first (algorithmically, without Unicode tables).

use std::borrow::Cow;

use super::prompt::Prompt;

// Costs fitted by least squares on the corpus against o200k_base (held-out halves agree
// within 6 %). A Hangul run pays a start-up cost because o200k tends to split a word's
// particle or ending off its stem.
/// Tokens per Hangul syllable (o200k_base; cl100k_base would need about 0.9).
const PER_HANGUL: f32 = 0.48;
/// Tokens per run of Hangul (one word, usually).
const PER_HANGUL_RUN: f32 = 0.85;
/// Tokens per other CJK character (Han, kana) or full-width sign.
const PER_CJK: f32 = 1.0;
/// Tokens per Latin word (a common word is one token, with its leading space).
const PER_LATIN_WORD: f32 = 1.0;
/// Tokens per letter of a Latin word beyond the first `LATIN_WHOLE`.
const PER_LATIN_EXTRA: f32 = 0.13;
/// Letters a Latin word has before it costs more than one token.
const LATIN_WHOLE: usize = 6;
/// Tokens per group of up to three digits (o200k splits numbers that way).
const PER_DIGIT_GROUP: f32 = 1.5;
/// Tokens per ASCII punctuation mark (common pairs such as `").` merge).
const PER_PUNCT: f32 = 0.56;
/// Tokens per character of other scripts and symbols (accented letters, Cyrillic, arrows).
const PER_OTHER: f32 = 1.5;
/// Tokens per emoji or other character outside the Basic Multilingual Plane.
const PER_ASTRAL: f32 = 1.5;
/// Tokens per line break or run of indentation (mostly merged with their neighbours).
const PER_SPACE_RUN: f32 = 0.25;

/// Estimated o200k_base token count of a text (composed to NFC Hangul first).
pub fn estimate(text: &str) -> u32 {
    let text = compose_hangul(text);
    let mut total = 0.0f32;
    let mut chars = text.chars().peekable();
    let mut previous: Option<char> = None;
    while let Some(c) = chars.next() {
        match class(c) {
            CharClass::Latin => {
                let mut len: usize = 1;
                while chars.peek().is_some_and(|n| class(*n) == CharClass::Latin) {
                    chars.next();
                    len += 1;
                }
                total += PER_LATIN_WORD + len.saturating_sub(LATIN_WHOLE) as f32 * PER_LATIN_EXTRA;
            }
            CharClass::Hangul => {
                let mut len: usize = 1;
                while chars.peek().is_some_and(|n| class(*n) == CharClass::Hangul) {
                    chars.next();
                    len += 1;
                }
                total += PER_HANGUL_RUN + len as f32 * PER_HANGUL;
            }
            CharClass::Digit => {
                let mut len: usize = 1;
                while chars.peek().is_some_and(|n| n.is_ascii_digit()) {
                    chars.next();
                    len += 1;
                }
                total += len.div_ceil(3) as f32 * PER_DIGIT_GROUP;
            }
            CharClass::Cjk => total += PER_CJK,
            CharClass::Punct => total += PER_PUNCT,
            CharClass::Other => total += if (c as u32) > 0xFFFF { PER_ASTRAL } else { PER_OTHER },
            CharClass::Space => {
                // A single space joins the next word; a line break or indentation is its own piece.
                let (mut len, mut breaks) = (1, usize::from(c == '\n'));
                while let Some(next) = chars.next_if(|n| class(*n) == CharClass::Space) {
                    len += 1;
                    breaks += usize::from(next == '\n');
                }
                let leading_word_space = c == ' ' && len == 1 && previous.is_some();
                if !leading_word_space {
                    total += PER_SPACE_RUN * breaks.clamp(1, 2) as f32;
                }
            }
        }
        previous = Some(c);
    }
    total.round() as u32
}

/// Tokens a chat template adds around each message (role markers, separators).
const PER_MESSAGE: u32 = 4;
/// Tokens that open the assistant's answer.
const ANSWER_PRIMING: u32 = 3;

/// Estimated input tokens of a whole prompt: system text, turns, tool calls and results, the
/// tools' JSON Schemas, and the chat template's few tokens per message.
pub fn estimate_prompt(prompt: &Prompt) -> u32 {
    let mut total = ANSWER_PRIMING;
    if !prompt.system.is_empty() {
        total += PER_MESSAGE + estimate(&prompt.system);
    }
    for turn in &prompt.turns {
        total += PER_MESSAGE + estimate(&turn.text);
        for call in &turn.tool_calls {
            total += PER_MESSAGE + estimate(&call.name) + estimate(&call.arguments);
        }
    }
    for tool in &prompt.tools {
        total +=
            PER_MESSAGE + estimate(&tool.name) + estimate(&tool.description) + estimate(&tool.parameters.to_string());
    }
    total
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CharClass {
    Latin,
    Hangul,
    Cjk,
    Digit,
    Punct,
    Space,
    Other,
}

fn class(c: char) -> CharClass {
    match c {
        'a'..='z' | 'A'..='Z' => CharClass::Latin,
        '0'..='9' => CharClass::Digit,
        c if c.is_whitespace() => CharClass::Space,
        c if c.is_ascii_punctuation() => CharClass::Punct,
        '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' => CharClass::Hangul,
        '\u{2E80}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FFEF}' | '\u{20000}'..='\u{2FFFF}' => {
            CharClass::Cjk
        }
        _ => CharClass::Other,
    }
}

const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const S_BASE: u32 = 0xAC00;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

/// The text with conjoining Hangul jamo (leading consonant, vowel, optional final) composed
/// into syllables, as Unicode NFC does for Hangul; borrowed when there is nothing to compose.
pub fn compose_hangul(text: &str) -> Cow<'_, str> {
    let has_jamo = text.chars().any(|c| ('\u{1100}'..='\u{11FF}').contains(&c));
    if !has_jamo {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last: Option<char> = None;
    for c in text.chars() {
        let code = c as u32;
        let composed = last.and_then(|prev| {
            let p = prev as u32;
            if (L_BASE..L_BASE + L_COUNT).contains(&p) && (V_BASE..V_BASE + V_COUNT).contains(&code) {
                char::from_u32(S_BASE + ((p - L_BASE) * V_COUNT + (code - V_BASE)) * T_COUNT)
            } else if (S_BASE..S_BASE + S_COUNT).contains(&p)
                && (p - S_BASE) % T_COUNT == 0
                && (T_BASE + 1..T_BASE + T_COUNT).contains(&code)
            {
                char::from_u32(p + (code - T_BASE))
            } else {
                None
            }
        });
        match composed {
            Some(syllable) => {
                out.pop();
                out.push(syllable);
                last = Some(syllable);
            }
            None => {
                out.push(c);
                last = Some(c);
            }
        }
    }
    Cow::Owned(out)
}

/// How full a model's context window is, and what to do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextBudget {
    /// The model's whole window, in tokens.
    pub window: u32,
    /// Tokens kept free for the answer.
    pub answer_reserve: u32,
}

/// What the context meter should say at a given fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BudgetLevel {
    /// Below the notice threshold.
    Comfortable,
    /// At or above 80 %: tell the user the conversation will soon be folded.
    Notice,
    /// At or above 100 %: fold the oldest turns into a summary before the next call.
    Fold,
}

impl ContextBudget {
    /// Share of the usable window at which the user gets a notice.
    pub const NOTICE_AT: f32 = 0.8;
    /// Share of the usable window at which the oldest turns are folded.
    pub const FOLD_AT: f32 = 1.0;

    /// A budget for a window, keeping `answer_reserve` tokens for the answer.
    pub fn new(window: u32, answer_reserve: u32) -> Self {
        ContextBudget { window, answer_reserve }
    }

    /// Tokens the prompt may use: the window less the answer's reserve (at least 1).
    pub fn usable(&self) -> u32 {
        self.window.saturating_sub(self.answer_reserve).max(1)
    }

    /// Share of the usable window that `used` tokens fill (may exceed 1.0).
    pub fn fraction(&self, used: u32) -> f32 {
        used as f32 / self.usable() as f32
    }

    /// Whole percent of the usable window used, for the meter.
    pub fn percent(&self, used: u32) -> u32 {
        ((used as u64 * 100) / self.usable() as u64).min(u32::MAX as u64) as u32
    }

    /// Whether `used` tokens call for nothing, a notice or a fold.
    pub fn level(&self, used: u32) -> BudgetLevel {
        let usable = self.usable() as u64;
        let used = used as u64;
        if used >= usable {
            BudgetLevel::Fold
        } else if used * 10 >= usable * 8 {
            BudgetLevel::Notice
        } else {
            BudgetLevel::Comfortable
        }
    }

    /// Tokens left before the fold threshold (0 when already there).
    pub fn remaining(&self, used: u32) -> u32 {
        self.usable().saturating_sub(used)
    }

    /// Tokens the answer may use after a prompt of `prompt_tokens`: the reserve, or less when
    /// the prompt has eaten into it (0 when the prompt alone fills the window).
    pub fn answer_room(&self, prompt_tokens: u32) -> u32 {
        self.window.saturating_sub(prompt_tokens).min(self.answer_reserve)
    }

    /// Which turns to fold into a summary so that usage falls back under the notice threshold:
    /// the oldest first, never a turn marked `keep` (open question cards, the user's constraints,
    /// decisions) nor the last `keep_recent` turns. `turn_tokens[i]` is turn i's estimate and
    /// `used` the whole prompt's. Returns the indices, oldest first; empty when nothing needs
    /// folding; as many as allowed when even that is not enough.
    pub fn turns_to_fold(&self, turn_tokens: &[u32], keep: &[bool], keep_recent: usize, used: u32) -> Vec<usize> {
        if self.level(used) != BudgetLevel::Fold {
            return Vec::new();
        }
        let mut to_free = self.excess_over_notice(used);
        let foldable_end = turn_tokens.len().saturating_sub(keep_recent);
        let mut chosen = Vec::new();
        for (index, tokens) in turn_tokens.iter().enumerate().take(foldable_end) {
            if to_free == 0 {
                break;
            }
            if keep.get(index).copied().unwrap_or(false) {
                continue;
            }
            chosen.push(index);
            to_free = to_free.saturating_sub(*tokens);
        }
        chosen
    }

    /// Tokens to free so that `used` falls back under the notice threshold.
    pub fn excess_over_notice(&self, used: u32) -> u32 {
        let notice = (self.usable() as u64 * 8 / 10) as u32;
        used.saturating_sub(notice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The reference corpus: `lang<TAB>o200k count<TAB>text` with `\n`, `\t`, `\\` escaped.
    const CORPUS: &str = include_str!("../../tests/data/token_corpus.tsv");

    fn unescape(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        }
        out
    }

    #[test]
    fn estimate_is_within_15_percent_of_o200k_for_each_language() {
        let mut sums: Vec<(&str, u64, u64, usize)> = Vec::new();
        for line in CORPUS.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let mut fields = line.splitn(3, '\t');
            let (Some(lang), Some(count), Some(text)) = (fields.next(), fields.next(), fields.next()) else {
                panic!("bad corpus line: {line}");
            };
            let reference: u64 = count.parse().expect("the count is a number");
            let estimated = estimate(&unescape(text)) as u64;
            match sums.iter_mut().find(|s| s.0 == lang) {
                Some(s) => {
                    s.1 += estimated;
                    s.2 += reference;
                    s.3 += 1;
                }
                None => sums.push((lang, estimated, reference, 1)),
            }
        }
        assert_eq!(sums.iter().map(|s| s.0).collect::<Vec<_>>(), vec!["ko", "en", "mixed"]);
        for (lang, estimated, reference, lines) in sums {
            assert!(lines >= 60, "{lang}: {lines} lines");
            let error = (estimated as f64 - reference as f64).abs() / reference as f64;
            assert!(error <= 0.15, "{lang}: estimated {estimated}, o200k {reference} ({:.1} %)", error * 100.0);
        }
    }

    #[test]
    fn decomposed_hangul_is_composed_before_counting() {
        let nfd = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} \u{1100}\u{1161}";
        assert_eq!(compose_hangul(nfd), "한글 가");
        assert_eq!(estimate(nfd), estimate("한글 가"));
        let cases =
            [("abc", "abc"), ("가나", "가나"), ("\u{1100}", "\u{1100}"), ("\u{1161}\u{1100}", "\u{1161}\u{1100}")];
        for (input, want) in cases {
            assert_eq!(compose_hangul(input), want, "{input:?}");
        }
        assert!(matches!(compose_hangul("plain 한글"), Cow::Borrowed(_)));
    }

    #[test]
    fn estimate_counts_scripts_differently() {
        assert_eq!(estimate(""), 0);
        assert_eq!(estimate("hello"), 1);
        assert!(estimate("123456") > estimate("123"), "numbers cost by groups of three digits");
        assert_eq!(estimate("hello hello hello"), 3, "a space before a word joins it");
        // Korean costs more per character than English, less than one token per syllable.
        let korean = estimate("오늘 회의는 오후 세 시에 시작합니다");
        assert!((8..=16).contains(&korean), "{korean}");
        let english = estimate("The meeting starts at three this afternoon");
        assert!((6..=10).contains(&english), "{english}");
    }

    #[test]
    fn prompt_estimate_adds_every_part_and_the_template() {
        use crate::engine::prompt::{ToolCall, ToolSpec, Turn};
        let mut prompt = Prompt::single("You are helpful.", "안녕하세요");
        let base = estimate_prompt(&prompt);
        assert_eq!(base, ANSWER_PRIMING + 2 * PER_MESSAGE + estimate("You are helpful.") + estimate("안녕하세요"));
        let mut answer = Turn::assistant("");
        answer.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "read_attachment".into(),
            arguments: r#"{"name":"a.txt"}"#.into(),
        });
        prompt.turns.push(answer);
        let with_call = estimate_prompt(&prompt);
        assert!(with_call > base + 2 * PER_MESSAGE, "{with_call} vs {base}");
        prompt.tools.push(ToolSpec {
            name: "t".into(),
            description: "does t".into(),
            parameters: serde_json::json!({"type":"object"}),
        });
        assert!(estimate_prompt(&prompt) > with_call);
    }

    #[test]
    fn folding_takes_the_oldest_turns_that_may_go_until_under_the_notice_line() {
        let budget = ContextBudget::new(1_200, 200);
        // Usable 1,000; notice at 800. Turns 1 and 4 are kept (a constraint, an open card).
        let turns = [100, 150, 120, 200, 90, 140, 100];
        let keep = [false, true, false, false, true, false, false];
        let cases: [(u32, usize, Vec<usize>); 5] = [
            (790, 2, vec![]),
            (950, 2, vec![]),
            (1_000, 2, vec![0, 2]),
            (1_150, 2, vec![0, 2, 3]),
            (2_000, 2, vec![0, 2, 3]),
        ];
        for (used, recent, want) in cases {
            assert_eq!(budget.turns_to_fold(&turns, &keep, recent, used), want, "used {used}");
        }
        assert_eq!(budget.turns_to_fold(&turns, &[], 2, 1_100), vec![0, 1, 2], "no keep marks");
        assert_eq!(budget.turns_to_fold(&turns, &[], 6, 1_100), vec![0], "only turns before the recent ones");
    }

    #[test]
    fn budget_levels_follow_the_usable_window() {
        let budget = ContextBudget::new(10_000, 2_000);
        assert_eq!(budget.usable(), 8_000);
        let cases = [
            (0, BudgetLevel::Comfortable, 0),
            (6_399, BudgetLevel::Comfortable, 79),
            (6_400, BudgetLevel::Notice, 80),
            (7_999, BudgetLevel::Notice, 99),
            (8_000, BudgetLevel::Fold, 100),
            (12_000, BudgetLevel::Fold, 150),
        ];
        for (used, level, percent) in cases {
            assert_eq!(budget.level(used), level, "{used}");
            assert_eq!(budget.percent(used), percent, "{used}");
        }
        assert_eq!(budget.answer_room(7_000), 2_000);
        assert_eq!(budget.answer_room(9_500), 500);
        assert_eq!(budget.answer_room(12_000), 0);
        assert_eq!(budget.remaining(7_000), 1_000);
        assert_eq!(budget.remaining(9_000), 0);
        assert_eq!(budget.excess_over_notice(7_000), 600);
        assert!((budget.fraction(4_000) - 0.5).abs() < 1e-6);
        // A reserve larger than the window leaves a usable size of 1, never a division by zero.
        let tiny = ContextBudget::new(1_000, 4_000);
        assert_eq!(tiny.usable(), 1);
        assert_eq!(tiny.level(1), BudgetLevel::Fold);
    }
}
