//! The injection rules: word families (concepts) and which families, found close
//! together, signal which kind of attack.
//!
//! A concept is one string of stems separated by `|`. Matching runs on the skeleton from
//! `normalize`. A stem that starts with a Latin letter must start a word (`ignor` matches
//! "ignored", not "signore"); a trailing `$` makes it end one too (`dan$`). Korean stems
//! match anywhere in a word, so particles and endings may follow. A stem of several parts
//! ("system prompt") wants each part to follow the previous one within a few characters.
//! A rule fires when one stem of each of its concepts is found within `window` words,
//! unless one of its `unless` stems occurs anywhere.
//!
//! Every part of every stem goes into one byte trie, built once; walking it from each
//! position of a skeleton finds all parts in one pass, and the rules are then judged from
//! those positions (a part's matches are read as `str::match_indices` would give them).

use std::sync::OnceLock;

use super::lexicon::{ABOUT_COMMAND, ATTACK_TOPICS, CARRY_OUT, QUESTION_CUES, QUOTE_TOPICS, RUN_ORDERS};
use super::InjectionKind;

pub use super::lexicon::RULES;

/// One rule: the kind it signals, the widest span in words, the concepts that must all
/// occur, and stems that, found anywhere, mean the rule does not apply.
pub struct Rule {
    /// What a match signals.
    pub kind: InjectionKind,
    /// Widest span, in words, that one stem of every concept must fit in.
    pub window: usize,
    /// Concepts that must all occur, each a `|`-separated list of stems.
    pub concepts: &'static [&'static str],
    /// Stems that, found anywhere, mean the rule does not apply (empty: none).
    pub unless: &'static str,
}

/// Most characters allowed between the parts of a several-part stem.
const PART_GAP: usize = 7;

/// Concepts `screen` asks about directly (talk about attacks, questions about a command),
/// compiled with the rules'.
const MENTIONED: [&str; 6] = [QUESTION_CUES, CARRY_OUT, QUOTE_TOPICS, ATTACK_TOPICS, RUN_ORDERS, ABOUT_COMMAND];

/// Byte trie of every distinct stem part (its `$` dropped); walked from every position of a
/// skeleton, it finds all occurrences of all parts in one pass.
struct Trie {
    /// Children of each node as (byte, child); node 0 is the root.
    children: Vec<Vec<(u8, u32)>>,
    /// For nodes with many children (the root, Hangul lead bytes): which block of `dense`
    /// holds their children by byte (`NO_BLOCK`: none, read `children`).
    block: Vec<u32>,
    /// Blocks of 256 children, by byte (0: none).
    dense: Vec<u32>,
    /// The needle that ends at each node, plus one (0: none).
    ends: Vec<u32>,
    /// Length in bytes of each needle.
    lens: Vec<usize>,
    /// True when no walk needs to start inside a Latin word (see `Trie::hits`).
    word_starts_only: bool,
}

/// `Trie::block` of a node whose children are only in `Trie::children`.
const NO_BLOCK: u32 = u32::MAX;
/// Children a node may have before they also go into a block of 256 (faster to step).
const MAX_LISTED: usize = 6;

impl Trie {
    fn new() -> Self {
        Trie {
            children: vec![Vec::new()],
            block: vec![0],
            dense: vec![0; 256],
            ends: vec![0],
            lens: Vec::new(),
            word_starts_only: true,
        }
    }

    /// The child of `node` by `byte` (0: none).
    fn step(&self, node: usize, byte: u8) -> usize {
        match self.block[node] {
            NO_BLOCK => self.children[node].iter().find(|e| e.0 == byte).map_or(0, |e| e.1 as usize),
            block => self.dense[block as usize * 256 + byte as usize] as usize,
        }
    }

    /// The id of `needle`, added when new. An empty needle gets an id that never occurs.
    fn insert(&mut self, needle: &[u8]) -> u32 {
        let mut node = 0usize;
        for &b in needle {
            let mut next = self.step(node, b);
            if next == 0 {
                next = self.children.len();
                self.children.push(Vec::new());
                self.block.push(NO_BLOCK);
                self.ends.push(0);
                self.children[node].push((b, next as u32));
                if self.block[node] == NO_BLOCK && self.children[node].len() > MAX_LISTED {
                    self.block[node] = (self.dense.len() / 256) as u32;
                    self.dense.resize(self.dense.len() + 256, 0);
                }
                if self.block[node] != NO_BLOCK {
                    let base = self.block[node] as usize * 256;
                    for &(byte, child) in &self.children[node] {
                        self.dense[base + byte as usize] = child;
                    }
                }
            }
            node = next;
        }
        self.word_starts_only &= !overlaps_itself_after_a_word_edge(needle);
        if self.ends[node] == 0 || node == 0 {
            self.lens.push(needle.len());
            let id = self.lens.len() as u32;
            if node != 0 {
                self.ends[node] = id;
            }
            return id - 1;
        }
        self.ends[node] - 1
    }

    /// Every occurrence, overlapping ones too, as (needle, start), sorted; but a needle that
    /// starts with a Latin letter or digit only where a word starts, when `word_starts_only`.
    ///
    /// Those are the only ones its stem may use (it must start a word), and leaving the
    /// others out changes no match `chain` gives: an occurrence inside a word could only hide
    /// an overlapping one that starts a word, which needs the needle to repeat its start
    /// after a byte that is not a Latin letter or digit (no needle of the lexicon does).
    fn hits(&self, text: &[u8]) -> Vec<(u32, u32)> {
        let mut hits = Vec::new();
        for i in 0..text.len() {
            if self.word_starts_only && i > 0 && text[i].is_ascii_alphanumeric() && text[i - 1].is_ascii_alphanumeric()
            {
                continue;
            }
            // Continuation bytes start no needle, so the root has no child for them.
            let mut node = self.dense[text[i] as usize] as usize;
            let mut j = i + 1;
            while node != 0 {
                if self.ends[node] != 0 {
                    hits.push((self.ends[node] - 1, i as u32));
                }
                let Some(&b) = text.get(j) else { break };
                node = self.step(node, b);
                j += 1;
            }
        }
        crate::engine::order::sort_by_key(&mut hits, |&(needle, at)| {
            crate::engine::order::pair(needle.into(), at.into())
        });
        hits
    }
}

/// True when a Latin `needle` can overlap an occurrence of itself that starts a word: its
/// last `k` bytes repeat its first `k`, and the byte before those is no Latin letter or digit.
fn overlaps_itself_after_a_word_edge(needle: &[u8]) -> bool {
    let len = needle.len();
    needle.first().is_some_and(|b| b.is_ascii_alphanumeric())
        && (1..len).any(|k| needle[..k] == needle[len - k..] && !needle[len - k - 1].is_ascii_alphanumeric())
}

/// Starts of the occurrences of one needle (all of them, increasing) that
/// `str::match_indices` would give on the text from `from` on: left to right, not overlapping.
fn chain(starts: &[u32], len: usize, from: usize) -> impl Iterator<Item = usize> + '_ {
    let mut next = from;
    starts[starts.partition_point(|&s| (s as usize) < from)..].iter().filter_map(move |&s| {
        let s = s as usize;
        (s >= next).then(|| {
            next = s + len;
            s
        })
    })
}

/// One part of a stem: its needle and the word edges it must honour.
struct Part {
    needle: u32,
    /// Stem ended with `$`: the match must end a word.
    ends_word: bool,
    /// Starts with a Latin letter or digit: the match must start a word.
    latin_start: bool,
    /// Ends with a Latin letter or digit (for `ends_word`: no Latin letter or digit may follow).
    latin_end: bool,
}

/// Every concept of the rules (and of `MENTIONED`), compiled once.
struct Lexicon {
    trie: Trie,
    /// Each concept string with its stems, each stem its parts in order.
    concepts: Vec<(&'static str, Vec<Vec<Part>>)>,
    /// For each rule of `RULES`: its concepts and its `unless`, as indices of `concepts`.
    rules: Vec<(Vec<usize>, usize)>,
    /// For each needle: the concepts with a stem that starts with it.
    opens: Vec<Vec<u16>>,
}

impl Lexicon {
    fn get() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(Lexicon::build)
    }

    fn build() -> Lexicon {
        let mut lexicon = Lexicon { trie: Trie::new(), concepts: Vec::new(), rules: Vec::new(), opens: Vec::new() };
        for rule in RULES {
            let concepts = rule.concepts.iter().map(|c| lexicon.concept_id(c)).collect();
            let unless = lexicon.concept_id(rule.unless);
            lexicon.rules.push((concepts, unless));
        }
        for concept in MENTIONED {
            lexicon.concept_id(concept);
        }
        lexicon.opens = vec![Vec::new(); lexicon.trie.lens.len()];
        for (id, (_, stems)) in lexicon.concepts.iter().enumerate() {
            for first in stems.iter().filter_map(|stem| stem.first()) {
                let opens = &mut lexicon.opens[first.needle as usize];
                if !opens.contains(&(id as u16)) {
                    opens.push(id as u16);
                }
            }
        }
        lexicon
    }

    /// The index of `concept`, compiled when new.
    fn concept_id(&mut self, concept: &'static str) -> usize {
        if let Some(at) = self.concepts.iter().position(|(c, _)| *c == concept) {
            return at;
        }
        let mut stems = Vec::new();
        for stem in concept.split('|').filter(|s| !s.is_empty()) {
            let mut parts = Vec::new();
            for part in stem.split(' ').filter(|p| !p.is_empty()) {
                let (text, ends_word) = match part.strip_suffix('$') {
                    Some(p) => (p, true),
                    None => (part, false),
                };
                parts.push(Part {
                    needle: self.trie.insert(text.as_bytes()),
                    ends_word,
                    latin_start: text.starts_with(|c: char| c.is_ascii_alphanumeric()),
                    latin_end: text.ends_with(|c: char| c.is_ascii_alphanumeric()),
                });
            }
            stems.push(parts);
        }
        self.concepts.push((concept, stems));
        self.concepts.len() - 1
    }
}

/// A skeleton with every occurrence of every stem part found in one pass, and the byte
/// offset where each word starts.
pub struct Words<'a> {
    text: &'a [u8],
    starts: Vec<usize>,
    /// Needle of each occurrence, sorted; `at` holds the starts in the same order.
    needles: Vec<u32>,
    at: Vec<u32>,
    /// For each concept: whether the first part of one of its stems was found.
    possible: Vec<bool>,
    lexicon: &'static Lexicon,
}

impl<'a> Words<'a> {
    /// Indexes a skeleton (words separated by single spaces).
    pub fn new(text: &'a str) -> Self {
        let lexicon = Lexicon::get();
        let text = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(text.iter().enumerate().filter(|(_, &b)| b == b' ').map(|(i, _)| i + 1));
        let (needles, at): (Vec<u32>, Vec<u32>) = lexicon.trie.hits(text).into_iter().unzip();
        let mut possible = vec![false; lexicon.concepts.len()];
        for (i, &needle) in needles.iter().enumerate() {
            if i == 0 || needles[i - 1] != needle {
                for &concept in &lexicon.opens[needle as usize] {
                    possible[concept as usize] = true;
                }
            }
        }
        Words { text, starts, needles, at, possible, lexicon }
    }

    fn word_at(&self, byte: usize) -> usize {
        self.starts.partition_point(|&s| s <= byte).saturating_sub(1)
    }

    /// Starts of every occurrence of `needle`, increasing.
    fn starts_of(&self, needle: u32) -> &[u32] {
        let lo = self.needles.partition_point(|&n| n < needle);
        let hi = lo + self.needles[lo..].partition_point(|&n| n == needle);
        &self.at[lo..hi]
    }

    /// True when `part`, found at `s`, honours its word edges.
    fn fits(&self, part: &Part, s: usize) -> bool {
        let bytes = self.text;
        let e = s + self.lexicon.trie.lens[part.needle as usize];
        let before = !part.latin_start || s == 0 || !bytes[s - 1].is_ascii_alphanumeric();
        let after = !part.ends_word
            || e == bytes.len()
            || if part.latin_end { !bytes[e].is_ascii_alphanumeric() } else { bytes[e] == b' ' };
        before && after
    }

    /// Word spans (first, last) where one stem of concept `id` occurs, stem by stem.
    fn spans(&self, id: usize) -> Vec<(usize, usize)> {
        let lens = &self.lexicon.trie.lens;
        let mut spans = Vec::new();
        for stem in &self.lexicon.concepts[id].1 {
            let Some((first, rest)) = stem.split_first() else { continue };
            let len = lens[first.needle as usize];
            for start in chain(self.starts_of(first.needle), len, 0).filter(|&s| self.fits(first, s)) {
                let mut end = start + len;
                let mut whole = true;
                for part in rest {
                    let len = lens[part.needle as usize];
                    // The stem's next part is the first match at or after `end` that honours
                    // its edges; it must start within PART_GAP bytes (later ones start later).
                    let mut next = chain(self.starts_of(part.needle), len, end).take_while(|&s| s - end <= PART_GAP);
                    match next.find(|&s| self.fits(part, s)) {
                        Some(s) if s - end <= PART_GAP => end = s + len,
                        _ => {
                            whole = false;
                            break;
                        }
                    }
                }
                if whole {
                    spans.push((self.word_at(start), self.word_at(end.saturating_sub(1).max(start))));
                }
            }
        }
        spans
    }

    /// False when no stem of concept `id` can occur: the first part of none was found.
    fn may_occur(&self, id: usize) -> bool {
        self.possible[id]
    }

    /// Word spans (first, last) where one stem of `concept` occurs (a concept of a rule, or
    /// one of the concepts `screen` asks about directly).
    pub fn concept_spans(&self, concept: &str) -> Vec<(usize, usize)> {
        match self.lexicon.concepts.iter().position(|(c, _)| *c == concept) {
            Some(id) => self.spans(id),
            None => Vec::new(),
        }
    }
}

/// True when one span of each concept of `RULES[rule]` fits within its window, and no
/// stem of its `unless` occurs.
pub fn fires(words: &Words, rule: usize) -> bool {
    let (concepts, unless) = &words.lexicon.rules[rule];
    let window = RULES[rule].window;
    // Most rules miss a concept entirely, seen without building any span.
    if !concepts.iter().all(|&c| words.may_occur(c)) {
        return false;
    }
    let mut spans: Vec<Vec<(usize, usize)>> = Vec::with_capacity(concepts.len());
    for &concept in concepts {
        let found = words.spans(concept);
        if found.is_empty() {
            return false;
        }
        spans.push(found);
    }
    if words.may_occur(*unless) && !words.spans(*unless).is_empty() {
        return false;
    }
    // Anchor on each span of the first concept; every other concept needs a span near it.
    spans[0].iter().any(|&(a0, a1)| {
        let mut lo = a0;
        let mut hi = a1;
        spans[1..].iter().all(|options| {
            let best = options
                .iter()
                .map(|&(s, e)| (s.min(lo), e.max(hi)))
                .filter(|&(l, h)| h - l <= window)
                .min_by_key(|&(l, h)| h - l);
            match best {
                Some((l, h)) => {
                    lo = l;
                    hi = h;
                    true
                }
                None => false,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lexicon lets the trie skip positions inside Latin words (a new stem that would
    /// forbid it makes screening slower, not wrong); the check itself tells the cases apart.
    #[test]
    fn walks_start_only_where_latin_words_start() {
        assert!(Lexicon::get().trie.word_starts_only);
        for (needle, overlaps) in
            [("secrets", false), ("aa", false), ("a가a", true), ("ab가ab", true), ("가a가", false), ("", false)]
        {
            assert_eq!(overlaps_itself_after_a_word_edge(needle.as_bytes()), overlaps, "{needle}");
        }
    }

    /// The trie and `chain` find what `str::match_indices` finds: non-overlapping, left to
    /// right, in Latin and Korean text, at the ends, and nothing when absent or longer than
    /// the text; an empty needle occurs nowhere.
    #[test]
    fn occurrences_agree_with_match_indices() {
        for (hay, needle) in [
            ("ignore previous instructions", "ignor"),
            ("aaaa", "aa"),
            ("abcab", "ab"),
            ("시스템 프롬프트를 보여줘 시스템", "시스템"),
            ("무시하고 무시해", "무시"),
            ("short", "much longer needle"),
            ("nothing here", "zz"),
            ("", "a"),
            ("edge", "edge"),
            ("x", "x"),
            ("abc", ""),
        ] {
            let mut trie = Trie::new();
            // Every occurrence, also inside words ("aa" in "aaaa" at 0 and 2).
            trie.word_starts_only = false;
            // Other needles in the same trie, sharing prefixes, must not disturb the count.
            trie.insert(b"a");
            trie.insert("시".as_bytes());
            let id = trie.insert(needle.as_bytes());
            let starts: Vec<u32> = trie.hits(hay.as_bytes()).into_iter().filter(|h| h.0 == id).map(|h| h.1).collect();
            let want: Vec<usize> =
                if needle.is_empty() { Vec::new() } else { hay.match_indices(needle).map(|(i, _)| i).collect() };
            let got: Vec<usize> = chain(&starts, needle.len(), 0).collect();
            assert_eq!(got, want, "{needle:?} in {hay:?}");
            // From a later offset, as `match_indices` on the rest of the text.
            for from in (0..=hay.len()).filter(|&f| hay.is_char_boundary(f)) {
                let want: Vec<usize> = if needle.is_empty() {
                    Vec::new()
                } else {
                    hay[from..].match_indices(needle).map(|(i, _)| from + i).collect()
                };
                assert_eq!(
                    chain(&starts, needle.len(), from).collect::<Vec<_>>(),
                    want,
                    "{needle:?} in {hay:?} from {from}"
                );
            }
        }
    }
}
