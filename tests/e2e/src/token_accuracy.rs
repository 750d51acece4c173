//! How close `engine::tokens::estimate` comes to a real BPE tokenizer (o200k_base, through
//! `tiktoken-rs`, whose vocabulary ships inside the crate) on a hand-written corpus of Korean,
//! English and mixed text: prose, code, chat and numbers.
//!
//! The corpus (`tests/data/token_corpus.tsv`) is `lang<TAB>o200k<TAB>text`, the text with
//! `\n`, `\t` and `\\` escaped. The o200k column is stored so the main crate's native test can
//! check the estimate without the tokenizer; `tests/token_reference.rs` here checks that the
//! column still matches the tokenizer, and rewrites it when run with `UPDATE_TOKEN_CORPUS=1`.

use deliberate::engine::tokens::estimate;

/// The bundled corpus.
pub const BUNDLED_CORPUS: &str = include_str!("../../data/token_corpus.tsv");

/// One line of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusLine {
    /// `ko`, `en` or `mixed`.
    pub lang: String,
    /// The stored o200k_base count.
    pub stored: u32,
    /// The text, unescaped.
    pub text: String,
}

/// Reads the corpus; comment (`#`) and empty lines are skipped, and so are malformed lines.
pub fn parse_corpus(tsv: &str) -> Vec<CorpusLine> {
    tsv.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            let mut fields = line.splitn(3, '\t');
            let lang = fields.next()?.to_string();
            let stored = fields.next()?.trim().parse().unwrap_or(0);
            let text = unescape(fields.next()?);
            Some(CorpusLine { lang, stored, text })
        })
        .collect()
}

/// The text with `\n`, `\t` and `\\` turned back into characters.
pub fn unescape(text: &str) -> String {
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

/// The text with backslashes, tabs and line breaks escaped for one TSV field.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

/// The o200k_base token count of a text (as OpenAI's recent models and servers count it).
pub fn o200k_count(text: &str) -> u32 {
    tiktoken_rs::o200k_base_singleton().encode_with_special_tokens(text).len() as u32
}

/// The corpus rewritten with fresh o200k counts, comments kept.
pub fn with_fresh_counts(tsv: &str) -> String {
    let mut out = String::new();
    for line in tsv.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
        } else if let Some(parsed) = parse_corpus(line).into_iter().next() {
            let count = o200k_count(&parsed.text);
            out.push_str(&format!("{}\t{}\t{}", parsed.lang, count, escape(&parsed.text)));
        }
        out.push('\n');
    }
    out
}

/// Aggregate error of one estimator on one language.
#[derive(Debug, Clone, PartialEq)]
pub struct LanguageError {
    /// `ko`, `en` or `mixed`.
    pub lang: String,
    /// Lines of that language.
    pub lines: usize,
    /// o200k tokens, summed.
    pub reference: u64,
    /// The estimator's tokens, summed.
    pub estimated: u64,
    /// Mean absolute error per line, relative to the line's count, in percent.
    pub mean_line_error_pct: f64,
}

impl LanguageError {
    /// Signed aggregate error in percent (positive: over-counts).
    pub fn aggregate_error_pct(&self) -> f64 {
        (self.estimated as f64 - self.reference as f64) * 100.0 / self.reference.max(1) as f64
    }
}

/// A token estimator: text in, tokens out.
pub type Estimator = fn(&str) -> u32;

/// The estimators compared: this project's, 4 characters per token (seed 001), and 1.5 tokens
/// per non-ASCII character plus ASCII/4 (a common web-client rule).
pub const ESTIMATORS: [(&str, Estimator); 3] =
    [("engine::tokens::estimate", estimate), ("chars / 4", chars_over_four), ("1.5 per non-ASCII", non_ascii_rule)];

fn chars_over_four(text: &str) -> u32 {
    (text.chars().count() as u32).div_ceil(4)
}

fn non_ascii_rule(text: &str) -> u32 {
    let (ascii, other) =
        text.chars().fold((0u32, 0u32), |(a, o), c| if c.is_ascii() { (a + 1, o) } else { (a, o + 1) });
    (ascii as f64 / 4.0 + other as f64 * 1.5).ceil() as u32
}

/// Per-language error of `estimator` against the reference counts (`live`: count with the
/// tokenizer now; otherwise use the stored column).
pub fn errors(corpus: &[CorpusLine], estimator: Estimator, live: bool) -> Vec<LanguageError> {
    let mut out: Vec<LanguageError> = Vec::new();
    let mut line_errors: Vec<(String, f64)> = Vec::new();
    for line in corpus {
        let reference = if live { o200k_count(&line.text) } else { line.stored } as u64;
        let estimated = estimator(&line.text) as u64;
        line_errors
            .push((line.lang.clone(), (estimated as f64 - reference as f64).abs() * 100.0 / reference.max(1) as f64));
        match out.iter_mut().find(|e| e.lang == line.lang) {
            Some(e) => {
                e.lines += 1;
                e.reference += reference;
                e.estimated += estimated;
            }
            None => out.push(LanguageError {
                lang: line.lang.clone(),
                lines: 1,
                reference,
                estimated,
                mean_line_error_pct: 0.0,
            }),
        }
    }
    for e in &mut out {
        let mine: Vec<f64> = line_errors.iter().filter(|(l, _)| *l == e.lang).map(|(_, x)| *x).collect();
        e.mean_line_error_pct = mine.iter().sum::<f64>() / mine.len().max(1) as f64;
    }
    out
}

/// The figures `./dev bench` prints: aggregate and mean per-line error per language for each
/// estimator, against o200k counted live.
pub fn report() -> String {
    let corpus = parse_corpus(BUNDLED_CORPUS);
    let mut out = String::from(
        "## Token estimate vs o200k_base (tests/data/token_corpus.tsv)  goal: within 15 % per language\n\n",
    );
    out.push_str(&format!(
        "{:<26} {:<6} {:>6} {:>8} {:>10} {:>12} {:>14}\n",
        "estimator", "lang", "lines", "o200k", "estimate", "aggregate %", "mean line %"
    ));
    for (name, estimator) in ESTIMATORS {
        for e in errors(&corpus, estimator, true) {
            out.push_str(&format!(
                "{:<26} {:<6} {:>6} {:>8} {:>10} {:>+12.1} {:>14.1}\n",
                name,
                e.lang,
                e.lines,
                e.reference,
                e.estimated,
                e.aggregate_error_pct(),
                e.mean_line_error_pct
            ));
        }
    }
    let nfc = "한국어 토큰 수를 제대로 세려면 먼저 정규화해야 합니다";
    let nfd = decompose_hangul(nfc);
    out.push_str(&format!(
        "\nNFD Hangul costs {} o200k tokens where NFC costs {} ({:.1}×); the estimate composes first: {} for both.\n",
        o200k_count(&nfd),
        o200k_count(nfc),
        o200k_count(&nfd) as f64 / o200k_count(nfc).max(1) as f64,
        estimate(&nfd)
    ));
    out
}

/// Hangul syllables split into conjoining jamo (NFD), to show what decomposed text costs.
pub fn decompose_hangul(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let code = c as u32;
        if (0xAC00..=0xD7A3).contains(&code) {
            let s = code - 0xAC00;
            out.extend(char::from_u32(0x1100 + s / 588));
            out.extend(char::from_u32(0x1161 + (s % 588) / 28));
            if !s.is_multiple_of(28) {
                out.extend(char::from_u32(0x11A7 + s % 28));
            }
        } else {
            out.push(c);
        }
    }
    out
}
