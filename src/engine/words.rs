//! Picking the words that carry a request's meaning, so heuristic artifacts can speak
//! about the user's subject instead of a fixed text.

use std::cell::RefCell;

/// A list of words or phrases kept as one string, separated by `|`: in the wasm one pointer
/// and length instead of one per word (measured: about 3 bytes of gzip per word saved). It is
/// split at its first use and the words kept (`words`).
#[derive(Clone, Copy, Debug)]
pub struct WordList(pub &'static str);

/// A list's words, by its text's address and length.
type Split = ((usize, usize), &'static [&'static str]);

/// Every list split so far, in an open-addressed table probed linearly from the slot its
/// address hashes to, grown to twice its size when half full. The crisis check looks up a
/// list for every word list it reads; a binary search over the few hundred lists was a sixth
/// of a no-key chat turn.
#[derive(Default)]
struct Splits {
    slots: Vec<Option<Split>>,
    len: usize,
}

impl Splits {
    /// Where `key`'s search starts in a table of `size` slots (a power of two).
    fn home(key: (usize, usize), size: usize) -> usize {
        let mixed = ((key.0 ^ key.1.rotate_left(16)) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> 32) as usize & (size - 1)
    }

    /// The words of the list at `key`, split by `split` the first time.
    fn get_or_split(
        &mut self,
        key: (usize, usize),
        split: impl FnOnce() -> &'static [&'static str],
    ) -> &'static [&'static str] {
        if let Some(words) = self.find(key) {
            return words;
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let words = split();
        self.place((key, words));
        self.len += 1;
        words
    }

    fn find(&self, key: (usize, usize)) -> Option<&'static [&'static str]> {
        let size = self.slots.len();
        if size == 0 {
            return None;
        }
        let mut at = Self::home(key, size);
        while let Some((held, words)) = self.slots[at] {
            if held == key {
                return Some(words);
            }
            at = (at + 1) & (size - 1);
        }
        None
    }

    /// Puts an entry in its first free slot (there is one: the table is at most half full).
    fn place(&mut self, entry: Split) {
        let size = self.slots.len();
        let mut at = Self::home(entry.0, size);
        while self.slots[at].is_some() {
            at = (at + 1) & (size - 1);
        }
        self.slots[at] = Some(entry);
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(256);
        let old = std::mem::replace(&mut self.slots, vec![None; size]);
        old.into_iter().flatten().for_each(|entry| self.place(entry));
    }
}

thread_local! {
    static SPLIT: RefCell<Splits> = RefCell::new(Splits::default());
}

impl WordList {
    /// The words, in order.
    pub fn iter(self) -> std::iter::Copied<std::slice::Iter<'static, &'static str>> {
        self.words().iter().copied()
    }

    /// The words, split once per list: the crisis check reads about 2,000 words for every
    /// message, and splitting them again each time was most of its cost.
    pub fn words(self) -> &'static [&'static str] {
        let key = (self.0.as_ptr() as usize, self.0.len());
        SPLIT.with(|split| split.borrow_mut().get_or_split(key, || Vec::leak(self.0.split('|').collect())))
    }

    /// Whether any word passes `test`.
    pub fn any(self, test: impl FnMut(&'static str) -> bool) -> bool {
        self.iter().any(test)
    }

    /// Whether `word` is one of the words, exactly.
    pub fn contains(self, word: impl AsRef<str>) -> bool {
        let word = word.as_ref();
        self.iter().any(|w| w == word)
    }
}

impl IntoIterator for WordList {
    type Item = &'static str;
    type IntoIter = std::iter::Copied<std::slice::Iter<'static, &'static str>>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// What a text holds, to skip searches that cannot succeed: its kinds of characters (a Korean
/// word cannot occur in an all-ASCII message, nor an English one in a message without a single
/// ASCII letter) and its pairs of adjacent bytes (a word with a pair the text lacks cannot
/// occur in it). Checking a word against it is cheaper than setting up a search for it: the
/// crisis check looks for about 2,000 words and phrases in every message of the three modes,
/// and most of them hold a pair an everyday message does not.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    ascii: bool,
    letters: bool,
    /// Each adjacent byte pair's bit (`pair_bit`), over 1,024 bits.
    pairs: [u64; 16],
}

impl Shape {
    /// The shape of `text`.
    pub fn of(text: &str) -> Shape {
        let mut pairs = [0u64; 16];
        for pair in text.as_bytes().windows(2) {
            let bit = pair_bit(pair[0], pair[1]);
            pairs[bit / 64] |= 1 << (bit % 64);
        }
        Shape { ascii: text.is_ascii(), letters: text.bytes().any(|b| b.is_ascii_alphabetic()), pairs }
    }

    /// False when `needle` cannot occur in a text of this shape; true when it may.
    pub fn may_hold(&self, needle: &str) -> bool {
        (!self.ascii || needle.is_ascii())
            && (self.letters || !needle.bytes().any(|b| b.is_ascii_alphabetic()))
            && needle.as_bytes().windows(2).all(|pair| {
                let bit = pair_bit(pair[0], pair[1]);
                self.pairs[bit / 64] & (1 << (bit % 64)) != 0
            })
    }

    /// Whether the text has an ASCII letter.
    pub fn has_letters(&self) -> bool {
        self.letters
    }
}

/// The bit of a byte pair in `Shape::pairs`, from each byte's low five bits: distinct for
/// every pair of lower-case ASCII letters and spaces; other pairs (digits, UTF-8's) may share
/// bits, which only lets a search run that finds nothing.
fn pair_bit(a: u8, b: u8) -> usize {
    usize::from(a & 31) << 5 | usize::from(b & 31)
}

/// English words that carry no subject.
const EN_STOP: WordList = WordList(
    "a|an|the|and|or|but|to|of|for|in|on|at|by|with|from|into|about|i|me|my|we|\
    our|us|you|your|it|its|this|that|these|those|is|are|be|was|were|been|do|does|did|can|could|would|\
    should|will|shall|may|might|must|please|want|need|like|make|build|create|help|design|write|some|\
    something|thing|things|get|give|let|lets|let's|which|what|that|so|as|then|than|also|just|very|\
    really|new|using|use|via|per|every|each|all|any|into|out|up|down|how|who|when|where|why|if|else|\
    there|here|have|has|had|not|no|yes|simple|quick|tool|way",
);

/// Korean words that carry no subject: requests, fillers and light verbs.
const KO_STOP: WordList = WordList(
    "만들어줘|만들어|만들고|만들기|만들어주세요|해줘|해주세요|하고|싶어|싶어요|\
    싶습니다|주세요|좀|그냥|간단한|간단하게|새로운|어떤|무슨|이런|그런|저런|나는|내가|저는|제가|우리|\
    우리가|위한|위해|같은|있는|없는|하는|되는|한|할|것|거|수|등|및|또는|그리고|하지만|부탁해|\
    부탁드립니다|필요해|필요합니다|원해|원합니다|만들려고|해|줘|설계|설계해줘|도와줘|도와주세요|짜줘|\
    짜주세요|정리해줘|작성해줘|매일|아침|저녁|매주|매달|오늘|내일|항상|자동으로|자동",
);

/// Korean particles and endings stripped from the end of a word (longest first).
const KO_SUFFIXES: WordList = WordList(
    "으로부터|에서는|에게서|으로는|이라는|라는|에서|에게|으로|까지|부터|\
    처럼|보다|하고|이랑|랑|을|를|이|가|은|는|에|로|의|와|과|도|만",
);

/// Up to `max` content words of `text`, in order of appearance, without repeats.
pub fn content_words(text: &str, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.split(|c: char| c.is_whitespace() || ",.;:!?()[]{}\"'“”‘’/".contains(c)) {
        if out.len() >= max {
            break;
        }
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if word.is_empty() {
            continue;
        }
        let lower = word.to_ascii_lowercase();
        let word = if super::lang::Lang::detect(word) == super::lang::Lang::Ko {
            if KO_STOP.contains(word) {
                continue;
            }
            strip_korean_suffix(word)
        } else {
            // Acronyms such as "IT", "PDF", "API" keep their case and always count.
            let acronym = word.len() >= 2 && word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            if acronym {
                word.to_string()
            } else if EN_STOP.contains(lower.as_str()) || lower.len() < 3 {
                continue;
            } else {
                lower
            }
        };
        if word.chars().count() < 2 && !word.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        if KO_STOP.contains(word.as_str()) || looks_like_verb(&word) {
            continue;
        }
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

fn strip_korean_suffix(word: &str) -> String {
    for suffix in KO_SUFFIXES {
        if let Some(stem) = word.strip_suffix(suffix) {
            if stem.chars().count() >= 2 {
                return stem.to_string();
            }
        }
    }
    word.to_string()
}

/// Korean verb and adjective forms ("만들어줘", "요약해서", "싶은") say what to do, not about what.
fn looks_like_verb(word: &str) -> bool {
    const ENDINGS: WordList = WordList(
        "해줘|해서|하는|하게|해요|합니다|하고|줘요|어줘|아줘|싶은|싶다|하기|\
        되게|해주는|해야|할까|인데|이고|려고",
    );
    ENDINGS.iter().any(|e| word.ends_with(e))
}

/// The subject of a request in a few words: "뉴스 요약 파이프라인" or "news digest".
pub fn topic(text: &str) -> String {
    content_words(text, 3).join(" ")
}

/// Endings an English term may take and still be the same word: "repos", "emails",
/// "logged", "reporting".
const EN_INFLECTIONS: &[&str] = &["", "s", "es", "ed", "d", "ing", "er", "ers", "est", "ly", "'s"];

/// True when `text` mentions `term` as a word, not inside another word: "report" does not
/// mention "repo", "feedback" does not mention "db", "블로그" does not mention "로그" (log).
///
/// English terms match at a word start and may take a plain inflection ("repos",
/// "emails"); a term ending in `*` is a stem and matches any ending ("summar*" matches
/// "summary" and "summarize"). Korean terms of one or two syllables must start a word
/// (particles and compounds after them are fine: "뉴스를", "로그분석") or end a compound
/// ("경제뉴스"); longer ones match anywhere ("주간데이터베이스").
pub fn mentions(text: &str, term: &str) -> bool {
    let (term, stem) = match term.strip_suffix('*') {
        Some(t) => (t, true),
        None => (term, false),
    };
    if term.is_empty() {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    let term = term.to_ascii_lowercase();
    lower.match_indices(&term).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if term.is_ascii() {
            if before.is_some_and(|c| c.is_ascii_alphanumeric()) {
                return false;
            }
            if stem {
                return true;
            }
            let rest: String =
                lower[at + term.len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '\'').collect();
            EN_INFLECTIONS.contains(&rest.as_str())
        } else {
            term.chars().count() >= 3
                || !before.is_some_and(super::lang::is_hangul)
                || ends_compound(&lower[..at], &lower[at + term.len()..])
        }
    })
}

/// Korean particles that may follow a noun (glossed): object, subject, topic, genitive,
/// locative, "also", "and", instrumental, "only", "from", plural 들.
const KO_PARTICLES: &[&str] = &[
    "을", "를", "이", "가", "은", "는", "의", "에", "도", "와", "과", "로", "으로", "만", "에서", "부터", "까지", "랑",
    "들",
];

/// True when a term glued into a compound noun stands as its own morpheme: at least two
/// syllables before it ("경제뉴스", "경제뉴스요약"), and after it nothing, a particle or
/// another word of two syllables or more; so "블로그" and "프로그램" do not hold "로그" (log).
fn ends_compound(before: &str, after: &str) -> bool {
    let prefix: String =
        before.chars().rev().take_while(|c| super::lang::is_hangul(*c)).collect::<Vec<_>>().into_iter().collect();
    let tail: String = after.chars().take_while(|c| super::lang::is_hangul(*c)).collect();
    prefix.chars().count() >= 2
        && (tail.is_empty() || tail.chars().count() >= 2 || KO_PARTICLES.iter().any(|p| tail.starts_with(p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn each_list_keeps_its_own_words_as_the_table_grows() {
        // A thousand lists (the table grows past its first size several times), and lists that
        // share an address but not a length.
        let texts: Vec<&'static str> = (0..1000).map(|i| &*String::leak(format!("w{i}|x{i}|y{i}"))).collect();
        let prefixes: Vec<&'static str> = texts.iter().map(|t| &t[..t.find('|').unwrap()]).collect();
        for round in 0..2 {
            for (i, (text, prefix)) in texts.iter().zip(&prefixes).enumerate() {
                let w = format!("w{i}");
                assert_eq!(WordList(text).words(), [w.as_str(), &format!("x{i}"), &format!("y{i}")], "round {round}");
                assert_eq!(WordList(prefix).words(), [w.as_str()], "round {round}");
            }
        }
        // The same list read twice is split once: the same slice comes back.
        assert!(std::ptr::eq(WordList(texts[7]).words(), WordList(texts[7]).words()));
    }

    #[test]
    fn a_shape_refuses_only_needles_that_cannot_occur() {
        let texts = [
            "i want to sleep forever",
            "사라지고 싶어요",
            "요즘 burnout이 심해요",
            "119",
            "",
            "2024년",
            "Sleep Forever",
        ];
        let needles =
            ["sleep", "사라지", "burnout", "심해", "11", "년", "out이", "", " ", "p f", "Sl", "o s", "요즘 b"];
        for text in texts {
            let shape = Shape::of(text);
            for needle in needles {
                if text.contains(needle) {
                    assert!(shape.may_hold(needle), "{needle:?} occurs in {text:?}");
                }
            }
        }
        assert!(!Shape::of("i want to sleep").may_hold("사라지"));
        assert!(!Shape::of("사라지고 싶어요").may_hold("sleep"));
        assert!(!Shape::of("사라지고 싶어요 2024").may_hold("sleep 2"));
        assert!(Shape::of("사라지고 싶어요 2024").may_hold("2024"));
        assert!(!Shape::of("사라지고").has_letters());
        // A pair the text lacks: "sleep" needs "sl", which "i want to sell it" has not.
        assert!(!Shape::of("i want to sell it").may_hold("sleep"));
        assert!(!Shape::of("잠을 자고 싶어요").may_hold("사라지"));
        assert!(Shape::of("i want to sell it").may_hold("sell"));
    }

    #[test]
    fn topic_keeps_subject_words_in_both_languages() {
        let cases = [
            ("매일 아침 IT 뉴스를 요약해서 슬랙으로 보내는 파이프라인을 만들어줘", "IT 뉴스 슬랙"),
            ("Summarize PDF invoices into a table", "summarize PDF invoices"),
            ("뉴스 요약 파이프라인 만들어줘", "뉴스 요약 파이프라인"),
            ("Build a pipeline that summarizes daily news for my team", "pipeline summarizes daily"),
            ("고객 리뷰를 분석하고 싶어요", "고객 리뷰 분석"),
            ("please help", ""),
        ];
        for (text, want) in cases {
            assert_eq!(topic(text), want, "{text}");
        }
    }

    #[test]
    fn terms_are_matched_as_words_not_substrings() {
        let cases = [
            ("weekly report on sales", "repo", false),
            ("clean up the repo", "repo", true),
            ("scan our repos", "repo", true),
            ("summarize customer feedback", "db", false),
            ("export the db nightly", "db", true),
            ("turn customer emails into a FAQ", "email", true),
            ("a daily summary", "summar*", true),
            ("summarize it", "summar*", true),
            ("my blog posts", "log", false),
            ("server logs", "log", true),
            ("블로그 글 요약", "로그", false),
            ("프로그램 로그를 분석", "로그", true),
            ("로그분석 파이프라인", "로그", true),
            ("IT뉴스 요약", "뉴스", true),
            ("경제뉴스를 모아", "뉴스", true),
            ("뉴스요약 해줘", "요약", true),
            ("바코드 스캔", "코드", false),
            ("주간데이터베이스 정리", "데이터베이스", true),
            ("pull requests to review", "pull request", true),
            ("", "repo", false),
            ("anything", "", false),
        ];
        for (text, term, want) in cases {
            assert_eq!(mentions(text, term), want, "{term} in {text}");
        }
    }
}
