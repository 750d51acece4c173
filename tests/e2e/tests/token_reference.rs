//! The stored o200k counts of the token corpus match the tokenizer. Run with
//! `UPDATE_TOKEN_CORPUS=1` to rewrite the counts after editing the corpus.

use deliberate_e2e::token_accuracy::{parse_corpus, with_fresh_counts, BUNDLED_CORPUS};

#[test]
fn stored_o200k_counts_match_the_tokenizer() {
    let fresh = with_fresh_counts(BUNDLED_CORPUS);
    if std::env::var_os("UPDATE_TOKEN_CORPUS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/token_corpus.tsv");
        std::fs::write(path, &fresh).expect("the corpus is writable");
        return;
    }
    let stored = parse_corpus(BUNDLED_CORPUS);
    let counted = parse_corpus(&fresh);
    assert_eq!(stored.len(), counted.len());
    for (s, c) in stored.iter().zip(&counted) {
        assert_eq!(s.stored, c.stored, "{}", s.text);
    }
}
