//! Regular expressions whose groups only group.
//!
//! `regex-lite` runs every search on a Pike VM that keeps two slots per capturing group for
//! every state of the pattern. The long alternations of the crisis check have hundreds of
//! groups and thousands of states: built as written, the first search allocated and cleared a
//! table of tens of megabytes (25 ms natively on the first counseling message), and every
//! search copied those slots around. Where only the whole match is read, the groups are made
//! non-capturing before compiling.

use regex_lite::Regex;

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

/// Compiles `pattern` for whole-match searches (`find`, `find_iter`, `is_match`): its groups
/// do not capture. Panics on an invalid pattern, which is a literal in the code.
pub fn whole_match(pattern: &str) -> Regex {
    match Regex::new(&uncaptured(pattern)) {
        Ok(re) => re,
        Err(e) => panic!("pattern does not compile: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
