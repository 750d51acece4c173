//! Time of the injection screen (`security::screen`) per message and per KB, on the texts
//! in `tests/data/`: short Korean and English utterances, the injection set (attacks and
//! benign texts), short chat messages, and long pasted texts (2, 5 and 10 KB) made by
//! joining dataset lines. Every user message is screened, also when a saved conversation
//! is replayed on open, so this is a cost paid per message.
//!
//! Also run outside `./dev bench`, without the e2e crate's heavier dependencies:
//! `cargo run --profile bench-native --example screen_bench` (it includes this file).

use std::fmt::Write as _;
use std::time::Instant;

use deliberate::engine::security::screen;

/// Every bundled dataset, by file name (each line's last tab-separated column is its text).
pub const DATASETS: &[(&str, &str)] = &[
    ("slot_utterances.tsv", include_str!("../../data/slot_utterances.tsv")),
    ("crisis_dev.tsv", include_str!("../../data/crisis_dev.tsv")),
    ("crisis_utterances.tsv", include_str!("../../data/crisis_utterances.tsv")),
    ("crisis_heldout_2.tsv", include_str!("../../data/crisis_heldout_2.tsv")),
    ("crisis_fresh_3.tsv", include_str!("../../data/crisis_fresh_3.tsv")),
    ("crisis_fresh_4.tsv", include_str!("../../data/crisis_fresh_4.tsv")),
    ("crisis_fresh_5.tsv", include_str!("../../data/crisis_fresh_5.tsv")),
    ("crisis_fresh_6.tsv", include_str!("../../data/crisis_fresh_6.tsv")),
    ("crisis_fresh_7.tsv", include_str!("../../data/crisis_fresh_7.tsv")),
    ("crisis_fresh_8.tsv", include_str!("../../data/crisis_fresh_8.tsv")),
    ("crisis_fresh_9.tsv", include_str!("../../data/crisis_fresh_9.tsv")),
    ("debate_replies.tsv", include_str!("../../data/debate_replies.tsv")),
    ("token_corpus.tsv", include_str!("../../data/token_corpus.tsv")),
    ("injection/injection.tsv", include_str!("../../data/injection/injection.tsv")),
];

/// Short chat messages as typed in the composer.
const CHAT: &[&str] = &[
    "응",
    "좋아, 그걸로 해줘",
    "2번 안이 마음에 들어",
    "내일 점심 강남역에서 4명",
    "ok",
    "sounds good, go with the second one",
    "Can you make it cheaper?",
    "What about the database, Postgres or SQLite?",
    "고객 이메일을 읽고 답장 초안을 쓰는 에이전트를 설계해줘",
    "Design an agent that reads customer emails and drafts replies.",
];

/// The text of each data line of a dataset (`\n` escapes read as line breaks).
pub fn texts(dataset: &str) -> Vec<String> {
    dataset
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.rsplit('\t').next())
        .map(|t| t.replace("\\n", "\n"))
        .collect()
}

/// Dataset lines of one script joined by line breaks until the text reaches `bytes`.
fn pasted(bytes: usize, korean: bool) -> String {
    let lines: Vec<String> = DATASETS
        .iter()
        .filter(|(name, _)| name.starts_with("crisis") || name.starts_with("token"))
        .flat_map(|(_, d)| texts(d))
        .filter(|t| t.chars().any(|c| ('가'..='힣').contains(&c)) == korean)
        .collect();
    let mut out = String::new();
    for line in lines.iter().cycle() {
        if out.len() >= bytes {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Named groups of inputs to time.
pub fn inputs() -> Vec<(String, Vec<String>)> {
    let utterances: Vec<String> =
        DATASETS.iter().filter(|(name, _)| !name.starts_with("injection")).flat_map(|(_, d)| texts(d)).collect();
    let mut groups = vec![
        ("utterances (tests/data/*.tsv)".to_string(), utterances),
        ("injection set (attacks + benign)".to_string(), texts(DATASETS.last().expect("injection set").1)),
        ("short chat messages".to_string(), CHAT.iter().map(|s| s.to_string()).collect()),
    ];
    for kb in [2, 5, 10] {
        groups.push((format!("pasted {kb} KB, Korean"), vec![pasted(kb * 1024, true)]));
        groups.push((format!("pasted {kb} KB, English"), vec![pasted(kb * 1024, false)]));
    }
    groups
}

/// Times `screen` on every group (rounds repeated for at least `min_ms`, the fastest kept)
/// and formats µs per message and per KB.
pub fn report_with(min_ms: u128) -> String {
    let mut out = String::from("## Injection screen time per message (native)\n\n");
    let _ = writeln!(
        out,
        "{:<36} {:>6} {:>9} {:>12} {:>10} {:>8}",
        "inputs", "texts", "bytes", "µs/message", "µs/KB", "blocked"
    );
    for (name, texts) in inputs() {
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        let blocked = texts.iter().filter(|t| screen(t).blocked()).count();
        // The fastest round: the least disturbed by other work on the machine.
        let start = Instant::now();
        let mut micros = f64::MAX;
        while micros == f64::MAX || start.elapsed().as_millis() < min_ms {
            let round = Instant::now();
            for t in &texts {
                std::hint::black_box(screen(std::hint::black_box(t)));
            }
            micros = micros.min(round.elapsed().as_secs_f64() * 1e6);
        }
        let _ = writeln!(
            out,
            "{:<36} {:>6} {:>9} {:>12.1} {:>10.1} {:>8}",
            name,
            texts.len(),
            bytes,
            micros / texts.len() as f64,
            micros / (bytes as f64 / 1024.0),
            blocked
        );
    }
    out
}

/// The figures `./dev bench` prints.
pub fn report() -> String {
    report_with(300)
}
