//! The rules' matcher as it was before the one-pass matcher (kept for the equivalence test).

pub use crate::engine::security::lexicon::RULES;
use crate::engine::security::rules::Rule;

/// Most characters allowed between the parts of a several-part stem.
const PART_GAP: usize = 7;

/// Skeleton text with the byte offset where each word starts.
pub struct Words<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Words<'a> {
    /// Indexes a skeleton (words separated by single spaces).
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices(' ').map(|(i, _)| i + 1));
        Words { text, starts }
    }

    fn word_at(&self, byte: usize) -> usize {
        self.starts.partition_point(|&s| s <= byte).saturating_sub(1)
    }

    /// Byte ranges where `part` occurs at or after `from`, honouring word boundaries.
    fn part_matches(&self, part: &str, from: usize) -> Vec<(usize, usize)> {
        let (part, ends_word) = match part.strip_suffix('$') {
            Some(p) => (p, true),
            None => (part, false),
        };
        let latin_start = part.starts_with(|c: char| c.is_ascii_alphanumeric());
        let latin_end = part.ends_with(|c: char| c.is_ascii_alphanumeric());
        let bytes = self.text.as_bytes();
        let boundary_before = |s: usize| !latin_start || s == 0 || !bytes[s - 1].is_ascii_alphanumeric();
        let boundary_after = |e: usize| {
            !ends_word
                || e == bytes.len()
                || if latin_end { !bytes[e].is_ascii_alphanumeric() } else { bytes[e] == b' ' }
        };
        occurrences(&bytes[from..], part.as_bytes())
            .map(|i| (from + i, from + i + part.len()))
            .filter(|&(s, e)| boundary_before(s) && boundary_after(e))
            .collect()
    }

    /// Word spans (first, last) where one stem of `concept` occurs.
    pub fn concept_spans(&self, concept: &str) -> Vec<(usize, usize)> {
        let mut spans = Vec::new();
        for stem in concept.split('|').filter(|s| !s.is_empty()) {
            let mut parts = stem.split(' ').filter(|p| !p.is_empty());
            let Some(first) = parts.next() else { continue };
            let rest: Vec<&str> = parts.collect();
            for (start, mut end) in self.part_matches(first, 0) {
                let mut whole = true;
                for part in &rest {
                    match self.part_matches(part, end).first().copied() {
                        Some((s, e)) if s - end <= PART_GAP => end = e,
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
}

/// Where `needle` occurs in `hay`, left to right and not overlapping (as `str::match_indices`;
/// an empty needle occurs nowhere). Found by its first byte: for short stems in short
/// messages this is several times faster than setting up a substring searcher per stem, and
/// every user message is screened, also when a long conversation is replayed on open. A
/// match of valid UTF-8 starts on a character boundary, since it starts with a leading byte.
fn occurrences<'h>(hay: &'h [u8], needle: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
    let mut at = 0;
    std::iter::from_fn(move || {
        let first = *needle.first()?;
        while at + needle.len() <= hay.len() {
            let i = at + hay[at..=hay.len() - needle.len()].iter().position(|&b| b == first)?;
            if &hay[i..i + needle.len()] == needle {
                at = i + needle.len();
                return Some(i);
            }
            at = i + 1;
        }
        None
    })
}

/// True when one span of each concept fits within `window` words.
pub fn fires(words: &Words, rule: &Rule) -> bool {
    // Concept by concept, stopping at the first one absent: most rules end there, cheaply.
    let mut spans: Vec<Vec<(usize, usize)>> = Vec::with_capacity(rule.concepts.len());
    for concept in rule.concepts {
        let found = words.concept_spans(concept);
        if found.is_empty() {
            return false;
        }
        spans.push(found);
    }
    if !words.concept_spans(rule.unless).is_empty() {
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
                .filter(|&(l, h)| h - l <= rule.window)
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
