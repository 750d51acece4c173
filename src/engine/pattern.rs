//! Regular expressions whose groups only group.
//!
//! `regex-lite` runs every search on a Pike VM that keeps two slots per capturing group for
//! every state of the pattern. The long alternations of the crisis check have hundreds of
//! groups and thousands of states: built as written, the first search allocated and cleared a
//! table of tens of megabytes (25 ms natively on the first counseling message), and every
//! search copied those slots around. Where only the whole match is read, the groups are made
//! non-capturing before compiling.

use crate::engine::words::Shape;
use regex_lite::{Match, Regex};
use std::sync::OnceLock;

/// `pattern` with every capturing group `(…)` turned into a non-capturing `(?:…)`.
/// Escaped parentheses and parentheses inside a character class stay as they are, and so do
/// groups that already start with `?` (flags, non-capturing and named groups).
pub fn uncaptured(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + pattern.len() / 8);
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        out.push(c);
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '[' if !in_class => {
                in_class = true;
                // A `]` right after `[` or `[^` is a literal member, not the end.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.peek() != Some(&'?') => out.push_str("?:"),
            _ => {}
        }
    }
    out
}

/// Words one of which every match of `pattern` holds: for each top-level alternative, the
/// longest run of plain characters (letters, digits, spaces, apostrophes, hyphens) that stands
/// outside any group or class and carries no quantifier, at least three characters long; or,
/// when it has none, the words of its first required group that is a plain alternation
/// ("(jump|jumping)"), each at least three characters long. `None` when some alternative has
/// neither: then no text can be ruled out. A text that holds none of the words cannot match, so
/// a search may skip the pattern (a Pike VM over thousands of states costs hundreds of
/// microseconds per message).
pub fn required_literals(pattern: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    for alternative in top_level(pattern, '|') {
        words.extend(alternative_literals(&alternative)?);
    }
    Some(words)
}

/// `pattern` cut at `sep` where it stands outside groups and classes.
pub(crate) fn top_level(pattern: &str, sep: char) -> Vec<String> {
    let (mut parts, mut current) = (Vec::new(), String::new());
    let (mut depth, mut in_class) = (0usize, false);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => depth = depth.saturating_sub(1),
            c if c == sep && depth == 0 && !in_class => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
}

/// The words one of which a match of one alternative (no top-level `|`) holds, if it has any.
fn alternative_literals(alternative: &str) -> Option<Vec<String>> {
    let plain = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '\'' | '-');
    let (mut run, mut best) = (String::new(), String::new());
    let mut group_words: Option<Vec<String>> = None;
    let chars: Vec<char> = alternative.chars().collect();
    let mut i = 0;
    let end_run = |run: &mut String, best: &mut String| {
        if run.chars().count() > best.chars().count() {
            *best = run.clone();
        }
        run.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        let quantified = |at: usize| matches!(chars.get(at), Some('?' | '*' | '{'));
        match c {
            '\\' => {
                end_run(&mut run, &mut best);
                i += 2;
                continue;
            }
            '[' => {
                end_run(&mut run, &mut best);
                // Skip the class; a `]` right after `[` or `[^` is a member.
                i += 1;
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    i += 1;
                }
                while i < chars.len() && chars[i] != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                continue;
            }
            '(' => {
                end_run(&mut run, &mut best);
                let (mut depth, mut j) = (1, i + 1);
                while j < chars.len() && depth > 0 {
                    match chars[j] {
                        '\\' => j += 1,
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                }
                let inner: String = chars[i + 1..j.saturating_sub(1)].iter().collect();
                // Every option of a required group holds one of its own words ("end (it|my life)"
                // holds "end "): the group holds one of them all.
                let options: Option<Vec<String>> = (!quantified(j))
                    .then(|| top_level(&inner, '|').iter().map(|o| alternative_literals(o)).collect::<Option<Vec<_>>>())
                    .flatten()
                    .map(|lists| lists.concat());
                // Of the required groups, the one whose words are rarest.
                if let Some(options) = options {
                    if group_words.as_ref().is_none_or(|g| rarity(&options) > rarity(g)) {
                        group_words = Some(options);
                    }
                }
                i = j;
                continue;
            }
            c if plain(c) => {
                if quantified(i + 1) {
                    end_run(&mut run, &mut best);
                } else {
                    run.push(c);
                }
            }
            _ => end_run(&mut run, &mut best),
        }
        i += 1;
    }
    end_run(&mut run, &mut best);
    // The plain run or the group, whichever asks for more letters: " i " or " the " would let
    // nearly every message through.
    let run = (best.chars().count() >= 3).then(|| vec![best]);
    match (run, group_words) {
        (Some(run), Some(group)) if rarity(&group) > rarity(&run) => Some(group),
        (Some(run), _) => Some(run),
        (None, group) => group,
    }
}

/// How rarely a text holds one of `words`: the letters of the shortest (spaces and marks left
/// out), nothing for a word that most sentences have ("how", "the", "and"), and nothing when a
/// word is shorter than three characters.
fn rarity(words: &[String]) -> usize {
    const COMMON: [&str; 14] =
        ["how", "the", "and", "you", "what", "can", "for", "with", "that", "this", "have", "not", "all", "are"];
    words
        .iter()
        .map(|w| {
            let trimmed = w.trim();
            let letters = trimmed.chars().filter(|c| c.is_alphanumeric()).count();
            if w.chars().count() < 3 || COMMON.contains(&trimmed) {
                0
            } else {
                letters
            }
        })
        .min()
        .unwrap_or(0)
}

/// Compiles `pattern` for whole-match searches (`find`, `find_iter`, `is_match`): its groups
/// do not capture. Panics on an invalid pattern, which is a literal in the code.
pub fn whole_match(pattern: &str) -> Regex {
    match Regex::new(&uncaptured(pattern)) {
        Ok(re) => re,
        Err(e) => panic!("pattern does not compile: {e}"),
    }
}

/// A long alternation searched as its top-level alternatives. A search runs only the
/// alternatives whose words (`required_literals`) the text holds, each compiled at its first
/// such text, and finds what the whole pattern's `find_iter` would: the leftmost match, the
/// earlier alternative on a tie, then on from its end. The whole pattern's Pike VM steps
/// through every alternative's states at every character (the crisis check's English
/// patterns: 60–80 µs natively for an everyday message that holds one common word of them).
pub struct Alternation {
    alternatives: Vec<Alternative>,
}

/// One alternative: its text, the words one of which its matches hold (`None`: no text can be
/// ruled out), and its compiled form once a text has needed it.
struct Alternative {
    source: String,
    words: Option<Vec<String>>,
    compiled: OnceLock<Regex>,
}

impl Alternation {
    /// `pattern` cut into its alternatives; none is compiled yet.
    pub fn new(pattern: &str) -> Alternation {
        let alternatives = top_level(pattern, '|')
            .into_iter()
            .map(|source| {
                let words = alternative_literals(&source);
                Alternative { source, words, compiled: OnceLock::new() }
            })
            .collect();
        Alternation { alternatives }
    }

    /// The whole pattern's matches in `text` (`shape` is `text`'s), in order, without overlaps.
    pub fn find_iter<'t>(&'t self, text: &'t str, shape: &Shape) -> impl Iterator<Item = Match<'t>> + 't {
        let may_match = |a: &&Alternative| {
            a.words.as_ref().is_none_or(|words| words.iter().any(|w| shape.may_hold(w) && text.contains(w.as_str())))
        };
        let searched: Vec<&Regex> = self
            .alternatives
            .iter()
            .filter(may_match)
            .map(|a| a.compiled.get_or_init(|| whole_match(&a.source)))
            .collect();
        let mut from = 0;
        std::iter::from_fn(move || {
            if from > text.len() {
                return None;
            }
            // `min_by_key` keeps the first of equals: the earlier alternative.
            let found = searched.iter().filter_map(|re| re.find_at(text, from)).min_by_key(|m| m.start())?;
            from = if found.is_empty() {
                found.end() + text[found.end()..].chars().next().map_or(1, char::len_utf8)
            } else {
                found.end()
            };
            Some(found)
        })
    }

    /// Whether every alternative has words to look for first, so that a text holding none of
    /// them is not searched at all.
    pub fn every_alternative_has_words(&self) -> bool {
        self.alternatives.iter().all(|a| a.words.is_some())
    }

    /// Whether a text (lower case) holds a word of some alternative, so that it is searched.
    pub fn searches(&self, text: &str) -> bool {
        self.alternatives.iter().any(|a| a.words.as_ref().is_none_or(|w| w.iter().any(|w| text.contains(w.as_str()))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literals_every_alternative_needs_are_found_outside_groups_and_quantifiers() {
        let words = |p: &str| required_literals(p).map(|w| w.join(","));
        assert_eq!(
            words(r"\bself[- ]?harm|\b(want|wanna) (to )?(hurt|harm)(ing)? myself\b").as_deref(),
            Some("self, myself")
        );
        // A quantified last letter is not required: "tired" of "tired?" is "tire".
        assert_eq!(words(r"so tired? now").as_deref(), Some("so tire"));
        // A group of plain words stands for its words; an optional one does not.
        assert_eq!(words(r"\b(jump|jumping) (off|from) (a|the) bridge\b").as_deref(), Some(" bridge"));
        assert_eq!(words(r"\b(disappear|vanish)(ing)?( for good)?").as_deref(), Some("disappear,vanish"));
        // An alternative with nothing to hold on to rules nothing out.
        assert_eq!(words(r"\bkill (me|myself)|(me|us)"), None);
    }

    #[test]
    fn an_alternation_searched_by_its_alternatives_finds_what_the_whole_pattern_finds() {
        let pattern = concat!(
            r"\bend(ing)? (my life|it all)\b|\bend it\b|\b(want|wanna) to (die|disappear)\b",
            r"|\bit all\b|\bdisappear for good\b|\bgood\b|\b(roof|bridge)\b.{0,20}\bjump",
        );
        let whole = whole_match(pattern);
        let cut = Alternation::new(pattern);
        assert!(cut.every_alternative_has_words());
        for text in [
            "i want to end it all tonight",
            "ending my life, ending it all, end it",
            "wanna disappear for good",
            "i want to disappear for good, it all",
            "the roof is high, i could jump",
            "good good good",
            "nothing here at all",
            "",
        ] {
            let shape = Shape::of(text);
            let a: Vec<_> = whole.find_iter(text).map(|m| m.range()).collect();
            let b: Vec<_> = cut.find_iter(text, &shape).map(|m| m.range()).collect();
            assert_eq!(a, b, "{text}");
        }
        // Only the alternatives whose words a text holds are compiled.
        let fresh = Alternation::new(pattern);
        let text = "i might jump";
        assert_eq!(fresh.find_iter(text, &Shape::of(text)).count(), 0);
        let compiled: Vec<&str> =
            fresh.alternatives.iter().filter(|a| a.compiled.get().is_some()).map(|a| a.source.as_str()).collect();
        assert_eq!(compiled, [r"\b(roof|bridge)\b.{0,20}\bjump"]);
    }

    #[test]
    fn groups_stop_capturing_and_everything_else_stays() {
        assert_eq!(uncaptured(r"\b(kill|end) (my )?life\b"), r"\b(?:kill|end) (?:my )?life\b");
        assert_eq!(uncaptured(r"(?i)(?:a)(?P<n>b)"), r"(?i)(?:a)(?P<n>b)");
        assert_eq!(uncaptured(r"\(not a group\)"), r"\(not a group\)");
        assert_eq!(uncaptured(r"[(](x)[^)(]"), r"[(](?:x)[^)(]");
        assert_eq!(uncaptured(r"[]()](y)"), r"[]()](?:y)");
        assert_eq!(uncaptured(r"[\](](z)"), r"[\](](?:z)");
    }

    #[test]
    fn the_same_text_matches_with_and_without_captures() {
        let pattern = r"\b(want|wanna) to (die|disappear)\b|\bend(ing)? (my life|it all)\b|[(]x[)]";
        let plain = Regex::new(pattern).unwrap();
        let uncaptured = whole_match(pattern);
        assert_eq!(uncaptured.captures_len(), 1, "only the whole match is captured");
        for text in ["i want to die", "ending it all now", "wanna disappear", "(x)", "end my lifetime", "nothing"] {
            let a: Vec<_> = plain.find_iter(text).map(|m| m.range()).collect();
            let b: Vec<_> = uncaptured.find_iter(text).map(|m| m.range()).collect();
            assert_eq!(a, b, "{text}");
        }
    }
}
