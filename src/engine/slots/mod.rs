//! Rule-based slot readers for the gate: time, party size, place and output format, and
//! whether a short message cancels or corrects the request. The gate fills required slots
//! with these before it asks a model anything, so "을지로, 2명, 12시 30분" completes
//! without a call (seed 002: the Q&A step is a gate, not a loop).
//!
//! Every reader is total: any text yields a value or `None`, never a panic.
//!
//! When a message names the same slot more than once, one mention is chosen by the same
//! rule for every slot:
//! 1. a mention the user rejects is dropped: "12시 말고" / "을지로 대신" / "not 12" /
//!    "instead of Hongdae";
//! 2. a mention that follows a correction cue after an earlier mention wins, last one
//!    first: "2명, 아니 3명" → 3;
//! 3. otherwise the most specific mention wins (formats and places rank their sources),
//!    and among equals the first one said.

use std::fmt;
use std::sync::OnceLock;

use regex_lite::{Captures, Regex};
use serde::{Deserialize, Serialize};

use super::lang::{is_hangul, normalize, Lang};
use super::order;
use super::words::WordList;

// Compiles a pattern once per process; every pattern is a literal that the tests exercise.
macro_rules! regex {
    ($pattern:expr) => {{
        static CELL: OnceLock<Regex> = OnceLock::new();
        CELL.get_or_init(|| Regex::new($pattern).expect("slot pattern is a valid literal"))
    }};
}

// ---------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------

/// Day a time refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DayRef {
    Today,
    Tomorrow,
    DayAfterTomorrow,
    /// A day of the week: the coming one, or the one of next week ("다음 주 금요일",
    /// "next Friday").
    Weekday {
        day: Weekday,
        next_week: bool,
    },
    /// A calendar date without a year ("3월 5일", "March 5"): the next one to come.
    Date {
        month: u8,
        day: u8,
    },
}

impl DayRef {
    /// How the day is said in `lang`.
    pub fn label(self, lang: Lang) -> String {
        match self {
            DayRef::Today => lang.pick("오늘", "today").to_string(),
            DayRef::Tomorrow => lang.pick("내일", "tomorrow").to_string(),
            DayRef::DayAfterTomorrow => lang.pick("모레", "the day after tomorrow").to_string(),
            DayRef::Weekday { day, next_week: false } => day.label(lang).to_string(),
            DayRef::Weekday { day, next_week: true } => match lang {
                Lang::Ko => format!("다음 주 {}", day.label(lang)),
                Lang::En => format!("next {}", day.label(lang)),
            },
            DayRef::Date { month, day } => match lang {
                Lang::Ko => format!("{month}월 {day}일"),
                Lang::En => format!("{} {day}", MONTHS.get(usize::from(month).wrapping_sub(1)).unwrap_or(&"?")),
            },
        }
    }

    /// The error for a date that no year has (2월 30일, April 31).
    fn check(self) -> Result<DayRef, SlotError> {
        match self {
            DayRef::Date { month, day } => {
                let last = match month {
                    2 => 29,
                    4 | 6 | 9 | 11 => 30,
                    1..=12 => 31,
                    _ => 0,
                };
                if day == 0 || day > last {
                    return Err(SlotError {
                        kind: SlotErrorKind::ImpossibleDate { month: month.into(), day: day.into() },
                    });
                }
                Ok(self)
            }
            other => Ok(other),
        }
    }
}

/// English month names, January first.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The month an English name or abbreviation stands for (1–12).
fn month_from_en(word: &str) -> Option<u8> {
    let word = word.trim_end_matches('.').to_ascii_lowercase();
    let index = MONTHS.iter().position(|m| {
        let m = m.to_ascii_lowercase();
        word == m || (word.len() >= 3 && m.starts_with(&word))
    })?;
    u8::try_from(index + 1).ok()
}

/// A day of the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    const ALL: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];
    /// The first syllable of each Korean day name, in `ALL`'s order (월요일 … 일요일).
    const KO_INITIALS: [char; 7] = ['월', '화', '수', '목', '금', '토', '일'];

    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Weekday::Monday => lang.pick("월요일", "Monday"),
            Weekday::Tuesday => lang.pick("화요일", "Tuesday"),
            Weekday::Wednesday => lang.pick("수요일", "Wednesday"),
            Weekday::Thursday => lang.pick("목요일", "Thursday"),
            Weekday::Friday => lang.pick("금요일", "Friday"),
            Weekday::Saturday => lang.pick("토요일", "Saturday"),
            Weekday::Sunday => lang.pick("일요일", "Sunday"),
        }
    }

    fn from_ko_initial(c: char) -> Option<Weekday> {
        Self::KO_INITIALS.iter().position(|&k| k == c).map(|i| Self::ALL[i])
    }

    /// From an English name or its usual abbreviation ("fri", "thurs"), any case.
    fn from_en(word: &str) -> Option<Weekday> {
        let word = word.to_ascii_lowercase();
        Self::ALL.into_iter().find(|d| {
            let name = d.label(Lang::En).to_ascii_lowercase();
            word == name || (word.len() >= 3 && name.starts_with(&word))
        })
    }
}

/// Meal named in a time phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Meal {
    Breakfast,
    Lunch,
    Dinner,
}

impl Meal {
    /// How the meal is said in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Meal::Breakfast => lang.pick("아침", "breakfast"),
            Meal::Lunch => lang.pick("점심", "lunch"),
            Meal::Dinner => lang.pick("저녁", "dinner"),
        }
    }

    fn day_part(self) -> DayPart {
        match self {
            Meal::Breakfast => DayPart::Am,
            Meal::Lunch => DayPart::Lunch,
            Meal::Dinner => DayPart::Evening,
        }
    }
}

/// A time as the user gave it: day, clock time (24h) if said, meal if said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct When {
    pub day: Option<DayRef>,
    /// Hour on a 24-hour clock, when a clock time was said.
    pub hour: Option<u8>,
    /// Minute past the hour; 0 when no clock time was said.
    pub minute: u8,
    pub meal: Option<Meal>,
}

impl When {
    /// The time as shown back to the user: the day, then the clock time if one was said,
    /// else the meal ("내일 12:30", "내일 점심", "tomorrow lunch", "13:30").
    pub fn display(&self, lang: Lang) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(day) = self.day {
            parts.push(day.label(lang));
        }
        match (self.hour, self.meal) {
            (Some(hour), _) => parts.push(format!("{hour}:{:02}", self.minute)),
            (None, Some(meal)) => parts.push(meal.label(lang).to_string()),
            (None, None) => {}
        }
        parts.join(" ")
    }
}

/// The largest party one request may name.
pub const MAX_PARTY_SIZE: u32 = 50;

/// Why a slot value was rejected, in both languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotError {
    pub kind: SlotErrorKind,
}

/// What was wrong with a slot value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SlotErrorKind {
    /// A party of nobody.
    NoPeople,
    /// More people than one request takes.
    TooManyPeople { said: u32, max: u32 },
    /// A clock time that does not exist, such as 25시 or 12:75.
    ImpossibleTime { hour: u32, minute: u32 },
    /// A date that no year has, such as 2월 30일 or 13월 1일.
    ImpossibleDate { month: u32, day: u32 },
}

impl SlotError {
    /// What happened and what to do, for the person who typed it.
    pub fn message(&self, lang: Lang) -> String {
        match (self.kind, lang) {
            (SlotErrorKind::NoPeople, Lang::Ko) => {
                "인원은 1명 이상이어야 해요. 몇 명이 가는지 알려 주세요.".to_string()
            }
            (SlotErrorKind::NoPeople, Lang::En) => {
                "A party needs at least one person: tell me how many are coming.".to_string()
            }
            (SlotErrorKind::TooManyPeople { said, max }, Lang::Ko) => {
                format!("{said}명은 너무 많아요. 한 번에 {max}명까지 잡을 수 있으니 인원을 다시 알려 주세요.")
            }
            (SlotErrorKind::TooManyPeople { said, max }, Lang::En) => {
                format!("{said} people is more than one request takes (at most {max}): tell me a smaller party size.")
            }
            (SlotErrorKind::ImpossibleTime { hour, minute }, Lang::Ko) => {
                format!("{hour}시 {minute}분은 없는 시각이에요. 시간을 다시 알려 주세요(예: 12시 30분).")
            }
            (SlotErrorKind::ImpossibleTime { hour, minute }, Lang::En) => {
                format!("{hour}:{minute:02} is not a time of day: tell me the time again (for example 12:30).")
            }
            (SlotErrorKind::ImpossibleDate { month, day }, Lang::Ko) => {
                format!("{month}월 {day}일은 없는 날짜예요. 날짜를 다시 알려 주세요(예: 3월 5일, 금요일).")
            }
            (SlotErrorKind::ImpossibleDate { month, day }, Lang::En) => {
                format!("{month}/{day} is not a date: tell me the day again (for example March 5, or Friday).")
            }
        }
    }
}

impl fmt::Display for SlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for SlotError {}

/// Output format a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    Markdown,
    Table,
    Json,
    Python,
    Code,
    Slides,
    Report,
    Proposal,
    Csv,
    Email,
    Diagram,
    Spreadsheet,
    /// A post to a chat app: Slack, Teams, Discord, Telegram, KakaoTalk, a text message.
    Message,
    /// A page of charts and figures kept up to date.
    Dashboard,
}

impl Format {
    /// The format's name in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Format::Markdown => lang.pick("마크다운", "Markdown"),
            Format::Table => lang.pick("표", "Table"),
            Format::Json => "JSON",
            Format::Python => lang.pick("파이썬", "Python"),
            Format::Code => lang.pick("코드", "Code"),
            Format::Slides => lang.pick("슬라이드", "Slides"),
            Format::Report => lang.pick("보고서", "Report"),
            Format::Proposal => lang.pick("제안서", "Proposal"),
            Format::Csv => "CSV",
            Format::Email => lang.pick("이메일", "Email"),
            Format::Diagram => lang.pick("다이어그램", "Diagram"),
            Format::Spreadsheet => lang.pick("스프레드시트", "Spreadsheet"),
            Format::Dashboard => lang.pick("대시보드", "Dashboard"),
            Format::Message => lang.pick("메신저 메시지", "Chat message"),
        }
    }

    /// The format inside an English sentence ("report as a chat message").
    pub fn phrase_en(self) -> &'static str {
        match self {
            Format::Markdown => "a Markdown document",
            Format::Table => "a table",
            Format::Json => "JSON",
            Format::Python => "Python code",
            Format::Code => "code",
            Format::Slides => "slides",
            Format::Report => "a report",
            Format::Proposal => "a proposal",
            Format::Csv => "CSV",
            Format::Email => "an email",
            Format::Diagram => "a diagram",
            Format::Spreadsheet => "a spreadsheet",
            Format::Dashboard => "a dashboard",
            Format::Message => "a chat message",
        }
    }

    /// A format name as an English sentence says it: a known label becomes its phrase
    /// ("Email" → "an email"); anything else is kept as written.
    pub fn in_sentence(label: &str) -> &str {
        let label = label.trim();
        Format::all().iter().find(|f| f.label(Lang::En).eq_ignore_ascii_case(label)).map_or(label, |f| f.phrase_en())
    }

    /// Every format, in declaration order.
    pub fn all() -> &'static [Format] {
        &[
            Format::Markdown,
            Format::Table,
            Format::Json,
            Format::Python,
            Format::Code,
            Format::Slides,
            Format::Report,
            Format::Proposal,
            Format::Csv,
            Format::Email,
            Format::Diagram,
            Format::Spreadsheet,
            Format::Message,
            Format::Dashboard,
        ]
    }

    /// Rank when several formats are named; lower wins. The thing handed over beats what
    /// it contains: a program beats the data it reads ("CSV를 읽는 파이썬 스크립트" →
    /// Python), a file type beats a document genre ("JSON report" → JSON, "PPT 기획서" →
    /// Slides), a document beats the shapes inside it ("report with a table" → Report),
    /// and a shape beats the markup it is written in ("markdown table" → Table).
    fn specificity(self) -> u8 {
        match self {
            Format::Python => 0,
            Format::Code => 1,
            Format::Spreadsheet | Format::Slides | Format::Json | Format::Csv | Format::Dashboard => 2,
            Format::Email | Format::Message | Format::Proposal | Format::Report => 3,
            Format::Table | Format::Diagram => 4,
            Format::Markdown => 5,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Shared machinery: text preparation, tokens, and choosing among mentions
// ---------------------------------------------------------------------------------------

/// Full-width forms and odd spaces folded to ASCII, so patterns see one spelling.
fn prepare(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' | '\u{00A0}' | '\u{2009}' | '\u{202F}' => ' ',
            '\u{2018}' | '\u{2019}' => '\'',
            _ => c,
        })
        .collect()
}

/// One place in the text where a slot value was said.
#[derive(Debug, Clone)]
struct Mention<T> {
    start: usize,
    end: usize,
    /// Lower is more specific; ties go to the earlier mention.
    rank: u8,
    value: T,
}

fn overlaps<T>(found: &[Mention<T>], start: usize, end: usize) -> bool {
    found.iter().any(|m| start < m.end && m.start < end)
}

/// Adds a mention unless an earlier, higher-priority pattern already claimed its span.
fn claim<T>(found: &mut Vec<Mention<T>>, start: usize, end: usize, rank: u8, value: T) {
    if !overlaps(found, start, end) {
        found.push(Mention { start, end, rank, value });
    }
}

/// Picks the mention that counts (rules in the module docs).
fn choose<T>(text: &str, mut mentions: Vec<Mention<T>>) -> Option<T> {
    mentions.retain(|m| !is_rejected(text, m.start, m.end));
    if mentions.is_empty() {
        return None;
    }
    order::sort_by_key(&mut mentions, |m| order::pair(m.start as u64, u64::from(m.rank)));
    let mut corrected = None;
    for i in 1..mentions.len() {
        let gap = text.get(mentions[i - 1].end..mentions[i].start).unwrap_or("");
        if has_correction_cue(gap) {
            corrected = Some(i);
        }
    }
    let pick = match corrected {
        Some(i) => i,
        None => (0..mentions.len()).min_by_key(|&i| (mentions[i].rank, mentions[i].start))?,
    };
    Some(mentions.swap_remove(pick).value)
}

/// True when the user says they do not want this mention: "12시 말고", "3명은 아니고",
/// "을지로 대신", "not at 12", "instead of Hongdae", "rather than 7".
fn is_rejected(text: &str, start: usize, end: usize) -> bool {
    let after = head(text.get(end..).unwrap_or(""), NEAR);
    let before = tail(text.get(..start).unwrap_or(""), NEAR);
    // 말고 (not ~), 아니고/아니라 (it isn't ~), 대신 (instead of ~), 빼고 (leaving out ~),
    // optionally after a particle (은/는/이/가/요/도/로).
    let ko = regex!(r"^[\s,.]*(?:은|는|이|가|요|이요|도|으로|로)?\s*(?:말고|아니고|아니라|대신|빼고)");
    let en = regex!(
        r"(?i)\b(?:instead\s+of|rather\s+than|not|except|no\s+longer)(?:\s+(?:at|in|near|around|for|on|by|a|an|the|as))*\s*$"
    );
    ko.is_match(after) || en.is_match(before)
}

/// A cue that what follows replaces what came before: 아니 (no), 정정 (correction),
/// "actually", "I mean", "make it".
fn has_correction_cue(gap: &str) -> bool {
    let cue = regex!(
        r"(?i)(?:^|[^가-힣a-z])(?:아니|아니요|아뇨|아니야|아니다|정정|no|nope|actually|i\s+mean|i\s+meant|make\s+it|change\s+it\s+to|correction|scratch\s+that|wait|sorry|oops)(?:[^가-힣a-z]|$)"
    );
    cue.is_match(gap)
}

fn group<'t>(caps: &Captures<'t>, i: usize) -> &'t str {
    caps.get(i).map_or("", |m| m.as_str())
}

fn span(caps: &Captures<'_>, i: usize) -> Option<(usize, usize)> {
    caps.get(i).map(|m| (m.start(), m.end()))
}

/// The last `max` bytes of `text` (or a little less, at a char boundary): enough context
/// for the patterns that look just before a mention, without rescanning long messages.
fn tail(text: &str, max: usize) -> &str {
    let mut i = text.len().saturating_sub(max);
    while !text.is_char_boundary(i) {
        i += 1;
    }
    &text[i..]
}

/// The first `max` bytes of `text` (or a little less, at a char boundary).
fn head(text: &str, max: usize) -> &str {
    let mut i = max.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    &text[..i]
}

/// Bytes of context the look-around patterns see on each side of a mention.
const NEAR: usize = 48;

fn prev_char(text: &str, at: usize) -> Option<char> {
    text.get(..at).and_then(|s| s.chars().next_back())
}

fn next_char(text: &str, at: usize) -> Option<char> {
    text.get(at..).and_then(|s| s.chars().next())
}

/// A word of the text with its byte span.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// Words: runs of letters and digits, keeping inner hyphens and apostrophes
/// ("Ikseon-dong", "Gangnam's"), and splitting Latin letters from Hangul glued to them
/// ("Itaewon에서" is "Itaewon" + "에서").
fn tokens(text: &str) -> Vec<Token<'_>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (k, &(i, c)) in chars.iter().enumerate() {
        let joiner = (c == '-' || c == '\'')
            && start.is_some()
            && chars.get(k + 1).is_some_and(|&(_, next)| next.is_alphanumeric());
        let word_char = c.is_alphanumeric() || joiner;
        let script_change = k > 0
            && chars.get(k - 1).is_some_and(|&(_, prev)| {
                (prev.is_ascii_alphabetic() && is_hangul(c)) || (is_hangul(prev) && c.is_ascii_alphabetic())
            });
        if let (true, true, Some(s)) = (word_char, script_change, start) {
            out.push(Token { start: s, end: i, text: &text[s..i] });
            start = None;
        }
        match (word_char, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Token { start: s, end: i, text: &text[s..i] });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Token { start: s, end: text.len(), text: &text[s..] });
    }
    out
}

/// English number words up to twenty, indexed by value.
#[rustfmt::skip]
const EN_NUMBER_WORDS: WordList = WordList(
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|\
    seventeen|eighteen|nineteen|twenty",
);
const EN_HOURS: &str = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";
const EN_COUNTS: &str = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty";

/// Value of "12" or "twelve".
fn number_value(word: &str) -> Option<u32> {
    let word = word.trim().to_ascii_lowercase();
    if !word.is_empty() && word.len() <= 6 && word.bytes().all(|b| b.is_ascii_digit()) {
        return word.parse().ok();
    }
    EN_NUMBER_WORDS.iter().position(|w| w == word).and_then(|i| u32::try_from(i).ok())
}

/// Native Korean numerals: tens and units, with the count forms used before a counter.
const KO_NATIVE_TENS: &[(&str, u32)] = &[
    ("열", 10),   // ten
    ("스물", 20), // twenty
    ("스무", 20), // twenty (before a counter)
    ("서른", 30), // thirty
    ("마흔", 40), // forty
    ("쉰", 50),   // fifty
];
const KO_NATIVE_UNITS: &[(&str, u32)] = &[
    ("하나", 1),   // one
    ("한", 1),     // one (before a counter)
    ("둘", 2),     // two
    ("두", 2),     // two (before a counter)
    ("셋", 3),     // three
    ("세", 3),     // three (before a counter)
    ("석", 3),     // three (old counter form)
    ("서너", 4),   // three or four: plan for four
    ("넷", 4),     // four
    ("네", 4),     // four (before a counter)
    ("넉", 4),     // four (old counter form)
    ("너댓", 5),   // four or five: plan for five
    ("네댓", 5),   // four or five
    ("다섯", 5),   // five
    ("대여섯", 6), // five or six: plan for six
    ("여섯", 6),   // six
    ("일곱", 7),   // seven
    ("여덟", 8),   // eight
    ("아홉", 9),   // nine
];

fn native_value(table: &[(&str, u32)], word: &str) -> Option<u32> {
    table.iter().find(|(w, _)| *w == word).map(|(_, v)| *v)
}

/// Value of a native Korean number such as "열두", "열 한", "세" or "스무".
fn native_korean_number(word: &str) -> Option<u32> {
    let word: String = word.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(v) = native_value(KO_NATIVE_UNITS, &word) {
        return Some(v);
    }
    if let Some(v) = native_value(KO_NATIVE_TENS, &word) {
        return Some(v);
    }
    KO_NATIVE_TENS.iter().find_map(|(tens, t)| {
        word.strip_prefix(tens).and_then(|unit| native_value(KO_NATIVE_UNITS, unit)).map(|u| t + u)
    })
}

mod cancel;
mod format;
mod party;
mod place;
mod time;
pub use cancel::*;
pub use format::*;
pub use party::*;
pub use place::*;
pub use time::*;

#[cfg(test)]
mod tests;
