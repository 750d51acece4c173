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
        }
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
            Format::Spreadsheet | Format::Slides | Format::Json | Format::Csv => 2,
            Format::Email | Format::Proposal | Format::Report => 3,
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
    mentions.sort_by_key(|m| (m.start, m.rank));
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
const EN_NUMBER_WORDS: [&str; 21] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
];
const EN_HOURS: &str = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";
const EN_COUNTS: &str = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty";

/// Value of "12" or "twelve".
fn number_value(word: &str) -> Option<u32> {
    let word = word.trim().to_ascii_lowercase();
    if !word.is_empty() && word.len() <= 6 && word.bytes().all(|b| b.is_ascii_digit()) {
        return word.parse().ok();
    }
    EN_NUMBER_WORDS.iter().position(|w| *w == word).and_then(|i| u32::try_from(i).ok())
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

// ---------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------

/// Part of the day a bare hour belongs to, from 오후/pm/저녁/lunch and the like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DayPart {
    Am,
    Pm,
    Lunch,
    Evening,
    Night,
}

/// A clock time as said, before the day part turns it into 24-hour time.
#[derive(Debug, Clone, Copy)]
struct Clock {
    hour: u32,
    minute: u32,
    /// "quarter to one", "1시 10분 전": minutes before the hour.
    minutes_before: u32,
    part: Option<DayPart>,
}

impl Clock {
    fn at(hour: u32, minute: u32) -> Clock {
        Clock { hour, minute, minutes_before: 0, part: None }
    }
}

/// Reads the time in a message: `Ok(None)` when it names none, `Err` when the clock time
/// or date it names cannot exist (25시, 12:75, 2월 30일) so the gate can say so instead
/// of guessing.
pub fn read_when(text: &str) -> Result<Option<When>, SlotError> {
    let text = prepare(text);
    let day = choose(&text, day_mentions(&text)).map(DayRef::check).transpose()?;
    let meal = choose(&text, meal_mentions(&text));
    let clock = match choose(&text, clock_mentions(&text)) {
        Some(clock) => Some(resolve_clock(clock, meal)?),
        None => None,
    };
    if day.is_none() && meal.is_none() && clock.is_none() {
        return Ok(None);
    }
    Ok(Some(When { day, hour: clock.map(|(h, _)| h), minute: clock.map_or(0, |(_, m)| m), meal }))
}

/// The time a message names, if any; `None` also for impossible clock times and dates.
pub fn parse_when(text: &str) -> Option<When> {
    read_when(text).ok().flatten()
}

/// 24-hour time of a clock mention.
///
/// An hour from 1 to 12 follows the day part said next to it (오후, pm, 저녁, "in the
/// evening"), else the meal named in the message (점심 → lunch hours, 저녁/dinner →
/// evening). A bare hour with neither is read for a meal-planning chat: 1–6 as afternoon
/// (nobody books lunch at 3 a.m.), 7–11 as said (breakfast; a dinner word flips it),
/// 12 as noon. 밤 (night) 1–5 stays after midnight, 밤 12시 is midnight.
fn resolve_clock(clock: Clock, meal: Option<Meal>) -> Result<(u8, u8), SlotError> {
    let impossible = SlotError { kind: SlotErrorKind::ImpossibleTime { hour: clock.hour, minute: clock.minute } };
    if clock.hour > 23 || clock.minute > 59 || clock.minutes_before > 59 {
        return Err(impossible);
    }
    let h = clock.hour;
    let hour = if h == 0 || h > 12 {
        h
    } else {
        match clock.part.or(meal.map(Meal::day_part)) {
            Some(DayPart::Am) => h % 12,
            Some(DayPart::Pm) => h % 12 + 12,
            Some(DayPart::Lunch) => {
                if h <= 5 {
                    h + 12
                } else {
                    h
                }
            }
            Some(DayPart::Evening) => (h + 12) % 24,
            Some(DayPart::Night) => {
                if h == 12 {
                    0
                } else if h >= 6 {
                    h + 12
                } else {
                    h
                }
            }
            None => {
                if h <= 6 {
                    h + 12
                } else {
                    h
                }
            }
        }
    };
    let day = 24 * 60;
    let total = (hour * 60 + clock.minute + day - clock.minutes_before) % day;
    let hour = u8::try_from(total / 60).map_err(|_| impossible)?;
    let minute = u8::try_from(total % 60).map_err(|_| impossible)?;
    Ok((hour, minute))
}

fn day_mentions(text: &str) -> Vec<Mention<DayRef>> {
    let mut found = Vec::new();
    // 내일모레 / 모레 (the day after tomorrow), 내일 (tomorrow), 오늘 / 금일 (today).
    let ko = regex!(r"내일\s?모레|모레|내일|오늘|금일");
    for m in ko.find_iter(text) {
        let day = match m.as_str() {
            "오늘" | "금일" => DayRef::Today,
            "내일" => DayRef::Tomorrow,
            _ => DayRef::DayAfterTomorrow,
        };
        claim(&mut found, m.start(), m.end(), 0, day);
    }
    // 낼: spoken "tomorrow", only as a word of its own (not 낼게 "I'll pay").
    for (i, w) in text.match_indices("낼") {
        let alone = !prev_char(text, i).is_some_and(is_hangul) && !next_char(text, i + w.len()).is_some_and(is_hangul);
        if alone {
            claim(&mut found, i, i + w.len(), 0, DayRef::Tomorrow);
        }
    }
    let en = regex!(
        r"(?i)\b(?:the\s+)?(day\s+after\s+tomorrow|tomorrow|tmrw|tmr|today|tonight|this\s+(?:morning|afternoon|evening))\b"
    );
    for c in en.captures_iter(text) {
        let Some((start, end)) = span(&c, 0) else {
            continue;
        };
        let said = group(&c, 1).to_ascii_lowercase();
        let day = if said.starts_with("day") {
            DayRef::DayAfterTomorrow
        } else if said.starts_with("tom") || said.starts_with("tm") {
            DayRef::Tomorrow
        } else {
            DayRef::Today
        };
        claim(&mut found, start, end, 0, day);
    }
    // 금요일 / 금욜, with 이번 주 (this week) or 다음 주 / 담주 (next week) before it.
    let ko_weekday = regex!(r"(?:(이번|다음|담)\s?주\s*)?(월|화|수|목|금|토|일)(?:요일|욜)");
    for c in ko_weekday.captures_iter(text) {
        let (Some((start, end)), Some(day)) =
            (span(&c, 0), group(&c, 2).chars().next().and_then(Weekday::from_ko_initial))
        else {
            continue;
        };
        let next_week = matches!(group(&c, 1), "다음" | "담");
        claim(&mut found, start, end, 0, DayRef::Weekday { day, next_week });
    }
    // "Friday", "on fri", "this Friday", "next Friday". "sat", "sun", "mon" and "wed" are
    // English words too, so abbreviations need a weekday-only spelling or a "this"/"next".
    let en_weekday = regex!(
        r"(?i)\b(?:(this|next|coming|this\s+coming)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues?|thurs?|thu|fri|mon|wed|sat|sun)\b\.?"
    );
    for c in en_weekday.captures_iter(text) {
        let (Some((start, end)), Some(day)) = (span(&c, 0), Weekday::from_en(group(&c, 2))) else {
            continue;
        };
        let qualifier = group(&c, 1).to_ascii_lowercase();
        let word = group(&c, 2).to_ascii_lowercase();
        let ambiguous = matches!(word.as_str(), "mon" | "wed" | "sat" | "sun");
        if ambiguous && qualifier.is_empty() {
            continue;
        }
        claim(&mut found, start, end, 0, DayRef::Weekday { day, next_week: qualifier == "next" });
    }
    // 3월 5일. Numbers too large for a date are kept so the gate can refuse them by name.
    let ko_date = regex!(r"(\d{1,2})\s*월\s*(\d{1,2})\s*일");
    for c in ko_date.captures_iter(text) {
        if let (Some((start, end)), Ok(month), Ok(day)) = (span(&c, 0), group(&c, 1).parse(), group(&c, 2).parse()) {
            claim(&mut found, start, end, 0, DayRef::Date { month, day });
        }
    }
    // "March 5", "Mar. 5th", "5 March", "the 5th of March". "May" counts only capitalized:
    // "may 3 of us come" is a verb.
    let month_first = regex!(&format!(r"(?i)\b({EN_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b"));
    let day_first = regex!(&format!(r"(?i)\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({EN_MONTH})\b\.?"));
    let dates = month_first
        .captures_iter(text)
        .map(|c| (span(&c, 0), group(&c, 1), group(&c, 2)))
        .chain(day_first.captures_iter(text).map(|c| (span(&c, 0), group(&c, 2), group(&c, 1))));
    for (whole, month, day) in dates {
        if month.eq_ignore_ascii_case("may") && month != "May" {
            continue;
        }
        if let (Some((start, end)), Some(month), Ok(day)) = (whole, month_from_en(month), day.parse()) {
            claim(&mut found, start, end, 0, DayRef::Date { month, day });
        }
    }
    found
}

/// English month names and abbreviations, for patterns.
const EN_MONTH: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

fn meal_mentions(text: &str) -> Vec<Mention<Meal>> {
    let mut found = Vec::new();
    // 아침/조식 (breakfast, morning), 브런치/아점 (brunch, counted as lunch), 점심/런치
    // (lunch), 저녁/디너/석식 (dinner, evening).
    let ko = regex!(r"아침|조식|브런치|아점|점심|런치|저녁|디너|석식");
    for m in ko.find_iter(text) {
        let meal = match m.as_str() {
            "아침" | "조식" => Meal::Breakfast,
            "저녁" | "디너" | "석식" => Meal::Dinner,
            _ => Meal::Lunch,
        };
        claim(&mut found, m.start(), m.end(), 0, meal);
    }
    let en = regex!(r"(?i)\b(breakfast|brunch|lunch(?:time)?|luncheon|dinner|supper|morning|evening|tonight)\b");
    for m in en.find_iter(text) {
        let meal = match m.as_str().to_ascii_lowercase().as_str() {
            "breakfast" | "morning" => Meal::Breakfast,
            "dinner" | "supper" | "evening" | "tonight" => Meal::Dinner,
            _ => Meal::Lunch,
        };
        claim(&mut found, m.start(), m.end(), 0, meal);
    }
    found
}

/// Syllables that make N시 something other than a clock time: 시간 (hours, a duration),
/// 시작 (start), 시장 (market), 시청 (city hall), 시내 (downtown), 시설 (facility), 시험 (exam),
/// 시계 (clock), 시즌 (season), 시민 (citizen), 시대 (era), 시켜 / 시키 (order),
/// 시식 (tasting), 시골 (countryside), 시스템 (system), 시적 / 한시적 (temporary),
/// 시름 (worry), 시점 (point in time), 시트 (sheet), 시기 (period).
const KO_NOT_CLOCK_AFTER_SI: &[char] = &[
    '간', '작', '장', '청', '내', '설', '험', '계', '즌', '민', '대', '켜', '키', '식', '골', '스', '적', '름', '점',
    '트', '기', '티', '리',
];

/// Words that may stand right before a native hour word (오후한시).
const KO_TIME_PREFIXES: &[&str] = &[
    "오전", // a.m.
    "오후", // p.m.
    "아침", // morning
    "저녁", // evening
    "밤",   // night
    "새벽", // small hours
    "낮",   // daytime
    "점심", // lunch
    "내일", // tomorrow
    "오늘", // today
    "모레", // day after tomorrow
];

fn clock_mentions(text: &str) -> Vec<Mention<Clock>> {
    let mut found: Vec<Mention<Clock>> = Vec::new();

    // "half past 12", "quarter to one", "quarter past noon"
    let relative = regex!(&format!(
        r"(?i)\b(half|quarter)\s+(past|after|to|before|till?)\s+(\d{{1,2}}|{EN_HOURS}|noon|midnight)\b"
    ));
    for c in relative.captures_iter(text) {
        let Some((start, end)) = span(&c, 0) else {
            continue;
        };
        let amount = if group(&c, 1).eq_ignore_ascii_case("half") { 30 } else { 15 };
        let before = !matches!(group(&c, 2).to_ascii_lowercase().as_str(), "past" | "after");
        let base = group(&c, 3).to_ascii_lowercase();
        let (hour, part) = match base.as_str() {
            "noon" => (12, Some(DayPart::Lunch)),
            "midnight" => (0, None),
            other => match number_value(other) {
                Some(h) => (h, None),
                None => continue,
            },
        };
        let clock = Clock {
            hour,
            minute: if before { 0 } else { amount },
            minutes_before: if before { amount } else { 0 },
            part,
        };
        claim(&mut found, start, end, 0, clock);
    }

    // "1pm", "1:30 pm", "seven p.m."
    let am_pm = regex!(&format!(r"(?i)\b(\d{{1,2}}|{EN_HOURS})(?:[:.](\d{{2}}))?\s*([ap])\.?\s?m\b\.?"));
    for c in am_pm.captures_iter(text) {
        let Some((start, end)) = span(&c, 0) else {
            continue;
        };
        let Some(hour) = number_value(group(&c, 1)) else {
            continue;
        };
        let minute = number_value(group(&c, 2)).unwrap_or(0);
        let part = if group(&c, 3).eq_ignore_ascii_case("a") { DayPart::Am } else { DayPart::Pm };
        let clock = Clock { part: Some(part), ..Clock::at(hour, minute) };
        claim(&mut found, start, end, 0, clock);
    }

    // "12시", "12시 30분", "1시 반" (half past), "1시 10분 전" (ten to one)
    let ko_digits = regex!(r"(\d{1,2})\s*(시)(?:\s*(\d{1,2})\s*분(\s*전)?|\s*(반))?");
    // "열두시 반": native hour words 한 두 세 네 다섯 여섯 일곱 여덟 아홉 열 열한 열두 (1–12)
    let ko_native = regex!(
        r"(열\s?한|열\s?두|열|한|두|세|네|다섯|여섯|일곱|여덟|아홉)\s*(시)(?:\s*(\d{1,2})\s*분(\s*전)?|\s*(반))?"
    );
    for (pattern, native) in [(ko_digits, false), (ko_native, true)] {
        for c in pattern.captures_iter(text) {
            let (Some((start, end)), Some((_, si_end))) = (span(&c, 0), span(&c, 2)) else {
                continue;
            };
            if next_char(text, si_end).is_some_and(|n| KO_NOT_CLOCK_AFTER_SI.contains(&n)) {
                continue;
            }
            let before = tail(text.get(..start).unwrap_or(""), NEAR);
            let boundary_ok = if native {
                !prev_char(text, start).is_some_and(is_hangul) || KO_TIME_PREFIXES.iter().any(|p| before.ends_with(p))
            } else {
                !prev_char(text, start).is_some_and(|p| p.is_ascii_digit())
            };
            if !boundary_ok {
                continue;
            }
            let hour = if native { native_korean_number(group(&c, 1)) } else { number_value(group(&c, 1)) };
            let Some(hour) = hour else {
                continue;
            };
            let minutes = number_value(group(&c, 3)).unwrap_or(0);
            let clock = if c.get(5).is_some() {
                Clock::at(hour, 30)
            } else if c.get(4).is_some() {
                Clock { minutes_before: minutes, ..Clock::at(hour, 0) }
            } else {
                Clock::at(hour, minutes)
            };
            claim(&mut found, start, end, 0, clock);
        }
    }

    // "12 o'clock", "seven oclock"
    let oclock = regex!(&format!(r"(?i)\b(\d{{1,2}}|{EN_HOURS})\s*o'?\s?clock\b"));
    for c in oclock.captures_iter(text) {
        if let (Some((start, end)), Some(hour)) = (span(&c, 0), number_value(group(&c, 1))) {
            claim(&mut found, start, end, 0, Clock::at(hour, 0));
        }
    }

    // "12:30"
    let colon = regex!(r"\b(\d{1,2}):(\d{2})\b");
    for c in colon.captures_iter(text) {
        let (Some((start, end)), Some(hour), Some(minute)) =
            (span(&c, 0), number_value(group(&c, 1)), number_value(group(&c, 2)))
        else {
            continue;
        };
        claim(&mut found, start, end, 0, Clock::at(hour, minute));
    }

    // "at 12", "around seven", unless a count follows ("at 3 people", "around 5 options")
    let at = regex!(&format!(r"(?i)\b(?:at|around)\s+(\d{{1,2}}|{EN_HOURS})(?:[:.](\d{{2}}))?\b"));
    let count_follows = regex!(
        r"(?i)^\s*(?:people|persons?|ppl|pax|guests?|of\b|명|인|%|percent|more|times?|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?|dollars?|bucks|won|원|km|miles?|blocks?|stops?|stations?|items?|options?|pages?|slides?|things?|places?|restaurants?|spots?|[.,]\d)"
    );
    for c in at.captures_iter(text) {
        let Some((start, end)) = span(&c, 0) else {
            continue;
        };
        if count_follows.is_match(head(text.get(end..).unwrap_or(""), NEAR)) {
            continue;
        }
        let Some(hour) = number_value(group(&c, 1)) else {
            continue;
        };
        let minute = number_value(group(&c, 2)).unwrap_or(0);
        claim(&mut found, start, end, 0, Clock::at(hour, minute));
    }

    // noon / midday / 정오 (noon); midnight / 자정 (midnight)
    let named = regex!(r"(?i)\b(?:noon|midday|midnight)\b|정오|자정");
    for m in named.find_iter(text) {
        let word = m.as_str().to_ascii_lowercase();
        let clock = if word == "midnight" || word == "자정" {
            Clock::at(0, 0)
        } else {
            Clock { part: Some(DayPart::Lunch), ..Clock::at(12, 0) }
        };
        claim(&mut found, m.start(), m.end(), 0, clock);
    }

    for m in &mut found {
        if m.value.part.is_none() {
            m.value.part = local_day_part(text, m.start, m.end);
        }
    }
    found
}

/// The day part said right next to a clock time: "오후 1시", "저녁엔 7시", "tonight at 7",
/// "7 in the evening".
fn local_day_part(text: &str, start: usize, end: usize) -> Option<DayPart> {
    let before = tail(text.get(..start).unwrap_or(""), NEAR);
    let after = head(text.get(end..).unwrap_or(""), NEAR);
    // 오전 (a.m.), 새벽 (small hours), 아침 (morning), 오후 (p.m.), 낮 (daytime),
    // 점심 (lunch), 저녁 (evening), 밤 (night); then an optional particle.
    let ko = regex!(r"(오전|오후|아침|새벽|낮|점심|저녁|밤)(?:에는|에|은|엔|때|쯤)?\s*$");
    if let Some(c) = ko.captures(before) {
        return Some(match group(&c, 1) {
            "오전" | "새벽" | "아침" => DayPart::Am,
            "오후" => DayPart::Pm,
            "낮" | "점심" => DayPart::Lunch,
            "저녁" => DayPart::Evening,
            _ => DayPart::Night,
        });
    }
    let en_before = regex!(r"(?i)\b(morning|afternoon|evening|tonight|night)\s*$");
    let en_after = regex!(
        r"(?i)^\s*(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night)|(tonight)|this\s+(morning|afternoon|evening))\b"
    );
    let word = if let Some(c) = en_before.captures(before) {
        group(&c, 1).to_ascii_lowercase()
    } else if let Some(c) = en_after.captures(after) {
        (1..=4).map(|i| group(&c, i)).find(|g| !g.is_empty()).unwrap_or("").to_ascii_lowercase()
    } else {
        return None;
    };
    match word.as_str() {
        "morning" => Some(DayPart::Am),
        "afternoon" => Some(DayPart::Pm),
        "evening" | "tonight" => Some(DayPart::Evening),
        "night" => Some(DayPart::Night),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Party size
// ---------------------------------------------------------------------------------------

/// The number of people a message names, as said; check it with [`validate_party_size`].
/// A bare number ("3") is not read: it could as well be an hour.
pub fn parse_party_size(text: &str) -> Option<u32> {
    let text = prepare(text);
    choose(&text, party_mentions(&text))
}

/// The party size if one request can take it: 1 to [`MAX_PARTY_SIZE`] people.
pub fn validate_party_size(n: u32) -> Result<u32, SlotError> {
    match n {
        0 => Err(SlotError { kind: SlotErrorKind::NoPeople }),
        n if n > MAX_PARTY_SIZE => {
            Err(SlotError { kind: SlotErrorKind::TooManyPeople { said: n, max: MAX_PARTY_SIZE } })
        }
        n => Ok(n),
    }
}

/// Syllables that make 명 part of another word: 명동 (Myeongdong), 명함 (business card),
/// 명절 (holiday), 명소 (landmark), 명단 (list), 명품 (luxury), 명성 (fame), 명령 (command),
/// 명언 (quote), 명란 (pollock roe), 명칭 (name), 명확 (clear), 명문 (prestigious),
/// 명작 (masterpiece), 명물 (speciality), 명당 (a good spot); 당 also after 인/사람 (per person).
const KO_NOT_PEOPLE_AFTER_MYEONG: &[char] =
    &['동', '함', '절', '소', '단', '품', '성', '령', '언', '란', '칭', '확', '문', '작', '물', '당'];
/// Syllables that make 분 part of another word: 분위기 (mood), 분석 (analysis), 분야 (field),
/// 분량 (amount), 분류 (category), 분리 (split), 분명 (clearly), 분식 (snack food),
/// 분점 (branch), 분배 (share), 분할 (split), 분노 (anger), 분해 (take apart), 분실 (loss),
/// 분수 (fountain), 분자 (molecule), 분담 (share), 분쟁 (dispute), 분포 (spread),
/// 분기 (quarter), 분필 (chalk), 분산 (spread), 분출 (burst), 분당 (per minute / Bundang).
const KO_NOT_PEOPLE_AFTER_BUN: &[char] = &[
    '위', '석', '야', '량', '류', '리', '명', '식', '점', '배', '할', '노', '해', '실', '수', '자', '담', '쟁', '포',
    '기', '필', '산', '출', '당',
];

fn party_mentions(text: &str) -> Vec<Mention<u32>> {
    let mut found: Vec<Mention<u32>> = Vec::new();

    // 나랑/저랑 친구 (me and a friend) → 2; 저랑 친구 두 명 (me and two friends) → 3.
    // 랑/하고/와/과 (and), 친구 (friend), 동료 (colleague), 남친/여친 (boy/girlfriend),
    // 와이프/아내 (wife), 남편 (husband), 엄마/아빠 (mum/dad), 언니/오빠/형/누나 (older
    // sibling), 동생 (younger sibling), 팀장님 (team lead), 상사 (boss), 애인 (partner).
    let ko_with = regex!(
        r"(나|저)(?:랑|하고|와|과)\s*(?:친구|동료|남친|여친|남자친구|여자친구|와이프|아내|남편|엄마|아빠|언니|오빠|형|누나|동생|팀장님|상사|애인)(?:\s*(\d{1,3}|한|두|세|네|다섯|여섯)\s*(?:명|사람))?"
    );
    for c in ko_with.captures_iter(text) {
        let Some((start, end)) = span(&c, 0) else {
            continue;
        };
        if prev_char(text, start).is_some_and(is_hangul) {
            continue;
        }
        let others = match c.get(2) {
            None => 1,
            Some(m) => match number_value(m.as_str()).or_else(|| native_korean_number(m.as_str())) {
                Some(n) => n,
                None => continue,
            },
        };
        claim(&mut found, start, end, 0, others.saturating_add(1));
    }

    let companions = regex!(
        r"(?i)\bme\s+and\s+(?:a|my|one|1)\s+(?:friend|colleague|co-?worker|partner|wife|husband|girlfriend|boyfriend|boss|manager|mom|dad|mother|father|brother|sister|son|daughter|client|guest|teammate)\b|\bmy\s+(?:wife|husband|partner|friend|girlfriend|boyfriend|colleague|co-?worker|boss|mom|dad|mother|father|brother|sister)\s+and\s+(?:i|me)\b|\b(?:both\s+of\s+us|us\s+two|we\s+two)\b"
    );
    for m in companions.find_iter(text) {
        claim(&mut found, m.start(), m.end(), 0, 2);
    }
    let me_and_n = regex!(&format!(
        r"(?i)\bme\s+and\s+(\d{{1,3}}|{EN_COUNTS})\s+(?:friends|colleagues|co-?workers|others|other\s+people|people|guests|clients|teammates|kids|children)\b"
    ));
    for c in me_and_n.captures_iter(text) {
        if let (Some((start, end)), Some(n)) = (span(&c, 0), number_value(group(&c, 1))) {
            claim(&mut found, start, end, 0, n.saturating_add(1));
        }
    }

    // "2~3명", "3-4 people": plan for the larger number.
    let range = regex!(r"(?i)(\d{1,3})\s*[~\-]\s*(\d{1,3})\s*(?:명|인|people|persons|ppl|pax)");
    for c in range.captures_iter(text) {
        if let (Some((start, end)), Some(high)) = (span(&c, 0), number_value(group(&c, 2))) {
            claim(&mut found, start, end, 0, high);
        }
    }

    // 2명 (two people), 3인 / 3인분 (for three), 4 사람 (four persons)
    let ko_digits = regex!(r"(\d{1,6})\s*(명|인분|인|사람)");
    for c in ko_digits.captures_iter(text) {
        let (Some((start, end)), Some(n)) = (span(&c, 0), number_value(group(&c, 1))) else {
            continue;
        };
        if prev_char(text, start).is_some_and(|p| p.is_ascii_digit() || p == '.') {
            continue;
        }
        let counter = group(&c, 2);
        let next = next_char(text, end);
        let bad_next = match counter {
            "명" => next.is_some_and(|n| KO_NOT_PEOPLE_AFTER_MYEONG.contains(&n)),
            // 인치 (inch), 인터 (inter-), 인당 (per person); "1인 1메뉴" (one dish per
            // person) is a house rule, not a party.
            "인" => {
                next.is_some_and(|n| matches!(n, '치' | '터' | '당'))
                    || regex!(r"^\s*\d").is_match(head(text.get(end..).unwrap_or(""), 4))
            }
            _ => next == Some('당'),
        };
        if !bad_next {
            claim(&mut found, start, end, 0, n);
        }
    }

    // 두 명 / 열두 명 / 세 분 (three guests, honorific) / 두 사람 (two persons).
    // 분 counts people only after native numerals; "30분" is minutes.
    let ko_native = regex!(
        r"(?:(열|스물|스무|서른|마흔|쉰)\s*)?(서너|너댓|네댓|대여섯|하나|한|둘|두|셋|세|석|넷|네|넉|다섯|여섯|일곱|여덟|아홉)?\s*(명|분|사람)"
    );
    for c in ko_native.captures_iter(text) {
        let Some((start, end)) = span(&c, 0) else {
            continue;
        };
        let tens = native_value(KO_NATIVE_TENS, group(&c, 1)).unwrap_or(0);
        let unit = native_value(KO_NATIVE_UNITS, group(&c, 2)).unwrap_or(0);
        if tens + unit == 0 {
            continue;
        }
        // "두세 명" (two or three): the match starts at 세 after another numeral.
        let left_ok = match prev_char(text, start) {
            None => true,
            Some(p) => !is_hangul(p) || matches!(p, '한' | '두' | '세' | '네'),
        };
        let next = next_char(text, end);
        let right_ok = match group(&c, 3) {
            "명" => !next.is_some_and(|n| KO_NOT_PEOPLE_AFTER_MYEONG.contains(&n)),
            "분" => !next.is_some_and(|n| KO_NOT_PEOPLE_AFTER_BUN.contains(&n)),
            _ => next != Some('당'),
        };
        if left_ok && right_ok {
            claim(&mut found, start, end, 0, tens + unit);
        }
    }

    // "3 people", "two of us", "the four of us", "5 pax"
    let en_units = regex!(&format!(
        r"(?i)\b(\d{{1,6}}|{EN_COUNTS})\s*-?\s*(?:people|persons?|pax|ppl|guests?|adults?|diners|heads|attendees|participants|members|folks|of\s+us)\b"
    ));
    // "party of 4", "table for two", "group of 6"
    let en_group = regex!(&format!(
        r"(?i)\b(?:party|group|table|booking|reservation|team|crew)\s+(?:of|for)\s+(\d{{1,6}}|{EN_COUNTS})\b"
    ));
    for pattern in [en_units, en_group] {
        for c in pattern.captures_iter(text) {
            if let (Some((start, end)), Some(n)) = (span(&c, 0), number_value(group(&c, 1))) {
                claim(&mut found, start, end, 0, n);
            }
        }
    }

    // "for 3", unless a time, duration or amount follows ("for 3pm", "for 2 hours")
    let en_for = regex!(&format!(r"(?i)\bfor\s+(\d{{1,6}}|{EN_COUNTS})\b"));
    let not_people = regex!(
        r"(?i)^(?:\s*(?::|\.\d|[ap]\.?\s?m\b|o'?\s?clock|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?|nights?|%|percent|dollars?|bucks|won|원|시|분|st\b|nd\b|rd\b|th\b|more|times?|pages?|slides?|items?|things?|options?|restaurants?|places?|spots?|ideas?|bullets?|points?|paragraphs?|words?|lines?))"
    );
    for c in en_for.captures_iter(text) {
        let (Some((start, end)), Some(n)) = (span(&c, 0), number_value(group(&c, 1))) else {
            continue;
        };
        if !not_people.is_match(head(text.get(end..).unwrap_or(""), NEAR)) {
            claim(&mut found, start, end, 0, n);
        }
    }

    // 인원 여섯 / 인원은 4 / 인원수는 총 12: 인원 (headcount) then a bare number.
    let headcount = regex!(
        r"인원(?:수)?(?:은|는|이|이요)?\s*(?:총\s*)?(\d{1,6}|열\s?[한두]|열|스물|스무|하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)"
    );
    for c in headcount.captures_iter(text) {
        let said = group(&c, 1);
        let value = number_value(said).or_else(|| native_korean_number(said));
        if let (Some((start, end)), Some(n)) = (span(&c, 0), value) {
            claim(&mut found, start, end, 0, n);
        }
    }

    let solo = regex!(r"(?i)\b(?:just\s+me|only\s+me|just\s+myself|by\s+myself|me\s+alone|alone|solo|on\s+my\s+own)\b");
    for m in solo.find_iter(text) {
        claim(&mut found, m.start(), m.end(), 0, 1);
    }

    // Counting words standing alone: 혼자 (alone) → 1; 둘이서 / 셋이 / 넷이요 (the two /
    // three / four of us); 우리 둘 / 저희 셋 (we two / we three). Not 둘 다 (both).
    let toks = tokens(text);
    for (i, t) in toks.iter().enumerate() {
        let word = t.text;
        // 혼밥/혼술: eating/drinking alone.
        let alone = ["혼자", "혼자서", "혼자요", "혼자예요", "혼자에요", "혼잔데", "혼자라"].contains(&word)
            || word.starts_with("혼밥")
            || word.starts_with("혼술");
        if alone {
            claim(&mut found, t.start, t.end, 0, 1);
            continue;
        }
        let next_word = toks.get(i + 1).map_or("", |n| n.text);
        if ["다", "다요", "중", "중에", "중에서", "째"].contains(&next_word) {
            continue;
        }
        // 이서 / 이서요 / 이요 / 이에요 / 이야 / 이 : "as ~ people"
        let with_suffix = ["이서요", "이서", "이에요", "이요", "이야", "이"].iter().find_map(|s| word.strip_suffix(s));
        let counted = match with_suffix {
            Some(stem) => ["둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"]
                .contains(&stem)
                .then(|| native_korean_number(stem))
                .flatten(),
            None => {
                let after_we = i > 0 && ["우리", "저희"].contains(&toks[i - 1].text);
                // "점심에 둘, 강남": the numeral ends a clause of its own.
                let ends_item = toks.get(i + 1).is_none_or(|n| {
                    text.get(t.end..n.start).is_some_and(|gap| gap.chars().any(|c| !c.is_whitespace()))
                });
                if (after_we || ends_item) && ["둘", "셋", "넷", "다섯", "여섯"].contains(&word) {
                    native_korean_number(word)
                } else {
                    None
                }
            }
        };
        if let Some(n) = counted {
            claim(&mut found, t.start, t.end, 0, n);
        }
    }
    found
}

// ---------------------------------------------------------------------------------------
// Place
// ---------------------------------------------------------------------------------------

/// The place a message names, as said: "강남역 근처" → "강남역", "near Gangnam station" →
/// "Gangnam station". Time words, counts and vague words (여기, here) are not places.
pub fn parse_place(text: &str) -> Option<String> {
    let text = prepare(text);
    choose(&text, place_mentions(&text))
}

/// Seoul neighbourhoods, stations and cities people name for lunch; names that are also
/// ordinary words (삼성 the company, 시청 viewing, 서면 in writing, 신사 gentleman) are left
/// out and still found with 역/동 or a cue such as 근처.
#[rustfmt::skip]
const KO_AREAS: &[&str] = &[
    "강남", "홍대", "이태원", "성수", "여의도", "명동", "신촌", "잠실", "판교", "종로",
    "을지로", "합정", "건대", "압구정", "청담", "광화문", "서초", "역삼", "선릉", "연남",
    "망원", "한남", "용산", "마포", "가로수길", "경리단길", "익선동", "서촌", "북촌", "삼청동",
    "인사동", "동대문", "남대문", "충무로", "혜화", "대학로", "노원", "목동", "영등포", "구로",
    "가산", "상암", "사당", "신림", "왕십리", "성북", "이대", "문래", "연희", "송파", "강동",
    "강서", "분당", "일산", "수원", "인천", "부산", "해운대", "대구", "대전", "광주", "제주",
    "서울", "뚝섬", "코엑스", "공덕", "마곡", "위례", "동탄", "서울숲", "한강", "삼각지",
    "교대", "방배", "논현", "신논현", "양재", "도곡", "대치", "천호", "연신내", "불광", "홍제",
    "서대문", "회기", "청량리", "수유", "안암", "상수", "신도림", "여의나루", "노량진", "흑석",
    "이촌", "옥수", "약수", "신당", "청계천", "광장시장", "성수동", "연남동", "판교역",
];

/// The same places in romanised English, lower case.
#[rustfmt::skip]
const EN_AREAS: &[&str] = &[
    "gangnam", "hongdae", "itaewon", "seongsu", "yeouido", "myeongdong", "sinchon", "jamsil",
    "pangyo", "jongno", "euljiro", "hapjeong", "apgujeong", "cheongdam", "gwanghwamun",
    "seocho", "yeoksam", "seolleung", "yeonnam", "mangwon", "hannam", "yongsan", "mapo",
    "garosu", "gyeongnidan", "ikseon", "seochon", "bukchon", "samcheong", "insadong",
    "dongdaemun", "namdaemun", "chungmuro", "hyehwa", "daehakro", "nowon", "mokdong",
    "yeongdeungpo", "guro", "sangam", "sadang", "sillim", "wangsimni", "seongbuk", "mullae",
    "yeonhui", "songpa", "bundang", "ilsan", "suwon", "incheon", "busan", "haeundae", "daegu",
    "daejeon", "gwangju", "jeju", "seoul", "ttukseom", "coex", "gongdeok", "magok", "sinsa",
    "samseong", "gangbuk", "gangseo", "konkuk", "kondae", "sindang", "downtown", "midtown",
    "uptown",
];

/// Place nouns that end an English place name: "Gangnam Station", "Hongik University".
#[rustfmt::skip]
const EN_PLACE_NOUNS: &[&str] = &[
    "station", "stn", "street", "st", "road", "rd", "avenue", "ave", "market", "mall",
    "district", "park", "tower", "square", "plaza", "university", "campus", "center", "centre",
    "building", "hall", "hotel", "airport", "terminal", "office", "village", "gil", "dong",
    "gu", "ro",
];

/// Korean words that end 역 but are not stations: 지역 (region), 무역 (trade), 번역
/// (translation), 영역 (area of work), 구역 (zone), 전역 (everywhere), 해역 (sea area),
/// 수역 (waters), 권역 (sphere), 직역/의역 (literal/free translation), 성역 (sanctuary),
/// 병역 (military service), 하역 (unloading), 노역 (labour).
const KO_NOT_STATIONS: &[&str] = &[
    "지역", "무역", "번역", "영역", "구역", "전역", "해역", "수역", "권역", "직역", "의역", "성역", "병역", "하역",
    "노역",
];

/// Korean words ending 구 that are not districts: 문방구 (stationer), 비상구 (emergency exit),
/// 출입구 (doorway), 개찰구 (ticket gate), 놀이기구 (ride), 운동기구 (gym equipment).
const KO_NOT_DISTRICTS: &[&str] = &["문방구", "비상구", "출입구", "개찰구", "놀이기구", "운동기구"];

/// Particles that can follow a place name: 에서 (at), 으로/로 (to), 에 (at), 이요/요
/// (it's ~), 은/는/이/가 (topic/subject), 을/를 (object), 도 (also), 의 (of), 랑 (and),
/// 서 (at, after a vowel), 까지 (up to), 부터 (from), 쪽 (side).
#[rustfmt::skip]
const KO_PARTICLES: &[&str] = &[
    "에서는", "에서도", "에서만", "에서요", "으로요", "이에요", "에서", "으로", "에는", "에도",
    "에요", "이랑", "이요", "까지", "부터", "쪽으로", "쪽에서", "에", "로", "요", "은", "는",
    "이", "가", "을", "를", "도", "의", "랑", "서", "쪽",
];

/// Cues after a place name that make the word before it a place whatever it is:
/// 근처 (near), 부근 (vicinity), 주변 (around), 인근 (nearby), 근방 (nearby), 일대 (area),
/// 맛집 (good restaurants in), 가까운/가까이 (close to).
const KO_STRONG_PLACE_CUES: &[&str] = &["근처", "부근", "주변", "인근", "근방", "일대", "맛집", "가까운", "가까이"];
/// Cues that also follow ordinary words, so they need a place-like word before them:
/// 쪽 (side; 오른쪽 is "right side"), 앞 (in front of), 방면/방향 (towards).
const KO_WEAK_PLACE_CUES: &[&str] = &["쪽", "앞", "방면", "방향"];

/// Generic spots named after a landmark: 출구 (exit), 입구 (entrance), 사거리 (crossroads),
/// 교차로 (junction), 골목 (alley), 건너편/맞은편 (across from), 뒤편 (behind),
/// 먹자골목 (food alley); "강남역 2번 출구" keeps the landmark.
const KO_GENERIC_SPOTS: &[&str] = &["출구", "입구", "사거리", "교차로", "골목", "건너편", "맞은편", "뒤편", "먹자골목"];

/// Words that are never places: here/there (여기/거기/저기/이곳/그곳/어디), anywhere
/// (아무데나), us/me (우리/저희/나/저), now (지금), neighbourhood (동네),
/// and the time words 오늘/내일/모레 (days), 점심/저녁/아침 (meals), 오전/오후 (am/pm),
/// 주말/평일 (weekend/weekday), 시간 (time), 메뉴 (menu), 회의 (meeting), 중 (among),
/// 식당/가게/맛집 (restaurant, shop), 지역 (region), 한국어/영어 (languages), weekdays, and
/// what stands before 쪽/앞 without being a place: 바로 (right), 오른/왼 (right/left),
/// 반대/다른 (opposite/other), 한/어느/맨 (one/which/very), 양 (both), 코/눈 (nose/eye: "right in front"), 뒤/위/아래/옆 (sides).
#[rustfmt::skip]
const KO_NOT_PLACES: &[&str] = &[
    "여기", "거기", "저기", "이곳", "그곳", "저곳", "어디", "어디든", "어디서", "여기서",
    "거기서", "저기서", "아무데나", "아무데", "아무", "아무곳", "근처", "주변", "이쪽", "그쪽",
    "저쪽", "우리", "저희", "나", "저", "너", "제", "내", "이", "그", "요", "거", "지금",
    "동네", "현위치", "현재", "오늘", "내일", "모레", "점심", "저녁", "아침", "오전", "오후",
    "새벽", "밤", "낮", "주말", "평일", "시간", "메뉴", "회의", "중", "이중", "결과", "목록",
    "리스트", "문서", "한국", "한국어", "영어", "월요일", "화요일", "수요일", "목요일",
    "금요일", "토요일", "일요일", "다음주", "이번주", "식당", "가게", "맛집", "지역", "이지역",
    "이동네", "바로", "오른", "왼", "반대", "다른", "한", "어느", "맨", "양", "코", "눈", "뒤", "앞", "위", "아래", "옆",
];

/// English words that are never places, lower case: vague spots, people, times, languages.
#[rustfmt::skip]
const EN_NOT_PLACES: &[&str] = &[
    "here", "there", "me", "us", "you", "it", "them", "anywhere", "somewhere", "nearby",
    "around", "home", "work", "this", "that", "least", "all", "total", "person", "advance",
    "general", "detail", "short", "summary", "mind", "english", "korean", "today", "tomorrow",
    "tonight", "noon", "midday", "midnight", "lunch", "lunchtime", "dinner", "breakfast",
    "brunch", "supper", "morning", "afternoon", "evening", "night", "weekend", "now", "later",
    "time", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "restaurant", "restaurants", "place", "places", "spot",
    "spots", "area", "a", "an", "the", "my", "our", "your", "one", "two", "three", "four",
    "five", "six",
];

/// Words that end an English place phrase: "near Gangnam station for 3 at noon".
#[rustfmt::skip]
const EN_PHRASE_STOP: &[&str] = &[
    "for", "at", "on", "with", "and", "or", "but", "tomorrow", "today", "tonight", "around",
    "by", "this", "next", "please", "pls", "to", "in", "near", "because", "so", "since", "who",
    "that", "which", "where", "when", "we", "i", "you", "it", "me", "us", "is", "are", "was",
    "be", "lunch", "dinner", "breakfast", "brunch", "supper", "noon", "morning", "afternoon",
    "evening", "night", "about", "from", "of", "if", "then", "maybe", "thanks", "plus", "like",
    "would", "could", "should", "can", "will", "let", "lets", "sometime", "instead", "not",
    "rather", "after", "before", "party", "table", "people", "person", "ppl", "pax", "guests",
    "am", "pm", "as", "a", "an", "the", "o'clock", "just", "only", "say", "okay", "ok",
];

/// Trailing English words dropped from a place phrase: "Gangnam area" → "Gangnam".
const EN_PHRASE_TRAILING: &[&str] = &["area", "side", "neighborhood", "neighbourhood", "way"];

fn ko_stems(word: &str) -> Vec<&str> {
    let mut stems = vec![word];
    for p in KO_PARTICLES {
        if let Some(stem) = word.strip_suffix(p) {
            if !stem.is_empty() {
                stems.push(stem);
            }
        }
    }
    stems
}

/// A Korean word that names a place by itself: a known area, a station (…역), a district
/// or neighbourhood of three or more syllables (…구, …동), or 을지로3가-style street sections.
fn ko_place_like(word: &str) -> bool {
    if word.is_empty() || !word.chars().all(|c| is_hangul(c) || c.is_ascii_digit()) {
        return false;
    }
    if KO_AREAS.contains(&word) {
        return true;
    }
    // 역 (station), 동 (neighbourhood), 입구 (entrance), 입구역 (entrance station),
    // 시장 (market), 사거리 (crossroads)
    for suffix in ["입구역", "입구", "역", "동", "시장", "사거리"] {
        if word.strip_suffix(suffix).is_some_and(|stem| KO_AREAS.contains(&stem)) {
            return true;
        }
    }
    let section = regex!(r"^[가-힣]+\d+가역?$");
    if section.is_match(word) {
        return true;
    }
    let syllables = word.chars().count();
    let last = word.chars().next_back();
    if word.chars().all(is_hangul) {
        if last == Some('역') && syllables >= 2 && !KO_NOT_STATIONS.contains(&word) {
            return true;
        }
        if last == Some('동') && syllables >= 3 {
            return true;
        }
        if last == Some('구') && syllables >= 3 && !KO_NOT_DISTRICTS.contains(&word) {
            return true;
        }
    }
    false
}

/// An English phrase that names a place: a known area (with -dong/-gu/station and the like)
/// or anything ending in a place noun.
fn en_place_like(phrase: &str) -> bool {
    let lower = phrase.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    let base = first.split('-').next().unwrap_or(first).trim_end_matches("'s");
    let base = ["dong", "gu", "ro", "gil", "yeok"]
        .iter()
        .find_map(|s| base.strip_suffix(s).filter(|b| EN_AREAS.contains(b)))
        .unwrap_or(base);
    EN_AREAS.contains(&base) || words.last().is_some_and(|w| words.len() > 1 && EN_PLACE_NOUNS.contains(w))
}

/// True unless the candidate is a time, a count, a format, or a vague word.
fn is_place_candidate(candidate: &str) -> bool {
    let candidate = candidate.trim();
    if candidate.is_empty() {
        return false;
    }
    let lower = candidate.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    if KO_NOT_PLACES.contains(&candidate) || EN_NOT_PLACES.contains(&lower.as_str()) || EN_NOT_PLACES.contains(&first) {
        return false;
    }
    if candidate.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    parse_when(candidate).is_none() && parse_party_size(candidate).is_none() && parse_format(candidate).is_none()
}

/// Source ranks for place mentions: a cue beats a known name, which beats a bare list item.
const RANK_CUE: u8 = 0;
const RANK_WEAK_CUE: u8 = 1;
const RANK_NAME: u8 = 2;
const RANK_LIST_ITEM: u8 = 3;

fn place_mentions(text: &str) -> Vec<Mention<String>> {
    let toks = tokens(text);
    let mut found: Vec<Mention<String>> = Vec::new();
    let mut add = |start: usize, end: usize, rank: u8, value: &str| {
        let value = value.trim();
        if is_place_candidate(value) {
            found.push(Mention { start, end, rank, value: value.to_string() });
        }
    };
    let spaced =
        |a: &Token, b: &Token| text.get(a.end..b.start).is_some_and(|gap| gap.chars().all(char::is_whitespace));

    for (i, tok) in toks.iter().enumerate() {
        let hangul = tok.text.chars().next().is_some_and(is_hangul);

        // Korean cue after the place: "강남역 근처", "홍대쪽으로", "을지로 맛집".
        if hangul {
            for (cues, strong) in [(KO_STRONG_PLACE_CUES, true), (KO_WEAK_PLACE_CUES, false)] {
                for cue in cues {
                    let core_matches = ko_stems(tok.text).into_iter().find(|s| s.ends_with(cue));
                    let Some(core) = core_matches else {
                        continue;
                    };
                    // A particle after the cue ("앞에서", "쪽으로") makes it locative.
                    let locative = core.len() < tok.text.len();
                    let glued = &core[..core.len() - cue.len()];
                    // The place is glued to the cue, or is the word before it together with
                    // anything glued to that word ("IFC몰 쪽").
                    let (first_idx, x_start, x_text) = if !glued.is_empty() {
                        (i, tok.start, glued)
                    } else if i > 0 && spaced(&toks[i - 1], tok) {
                        let mut k = i - 1;
                        while k > 0 && toks[k - 1].end == toks[k].start {
                            k -= 1;
                        }
                        (k, toks[k].start, &text[toks[k].start..toks[i - 1].end])
                    } else {
                        continue;
                    };
                    if KO_STRONG_PLACE_CUES.contains(&x_text) || KO_WEAK_PLACE_CUES.contains(&x_text) {
                        continue;
                    }
                    let place = ko_stems(x_text).into_iter().find(|s| ko_place_like(s));
                    // "판교 테크노밸리 근처": a landmark right after a known area keeps the area.
                    let area_before = (first_idx > 0 && place.is_none())
                        .then(|| &toks[first_idx - 1])
                        .filter(|a| spaced(a, &toks[first_idx]) && ko_place_like(a.text));
                    let rank = if strong { RANK_CUE } else { RANK_WEAK_CUE };
                    match (place, area_before) {
                        (Some(p), _) => {
                            let (start, value) = extend_generic_spot(text, &toks, first_idx, x_start, p);
                            add(start, x_start + p.len(), rank, &value);
                        }
                        (None, Some(area)) => {
                            let end = x_start + x_text.len();
                            add(area.start, end, rank, &text[area.start..end]);
                        }
                        (None, None) if strong || locative => {
                            let (start, value) = extend_generic_spot(text, &toks, first_idx, x_start, x_text);
                            add(start, x_start + x_text.len(), rank, &value);
                        }
                        (None, None) => {}
                    }
                }
            }

            // "을지로에서" (at Euljiro); "Itaewon에서" names the Latin word before it.
            for ending in ["에서는", "에서도", "에서만", "에서요", "에서"] {
                if let Some(stem) = tok.text.strip_suffix(ending) {
                    let glued_latin = (i > 0 && stem.is_empty()).then(|| &toks[i - 1]).filter(|prev| {
                        prev.end == tok.start && prev.text.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
                    });
                    if let Some(prev) = glued_latin {
                        add(prev.start, prev.end, RANK_CUE, prev.text);
                    }
                    let is_cue = KO_STRONG_PLACE_CUES.iter().chain(KO_WEAK_PLACE_CUES).any(|c| stem.ends_with(c));
                    if !stem.is_empty() && !is_cue {
                        let (start, value) = extend_generic_spot(text, &toks, i, tok.start, stem);
                        add(start, tok.start + stem.len(), RANK_CUE, &value);
                    }
                    break;
                }
            }

            // A known name or a station/district word anywhere: "을지로, 2명", "홍대 가자".
            if let Some(stem) = ko_stems(tok.text).into_iter().find(|s| ko_place_like(s)) {
                add(tok.start, tok.start + stem.len(), RANK_NAME, stem);
            }
        } else if let Some((start, end)) = en_known_place(text, &toks, i) {
            add(start, end, RANK_NAME, &text[start..end]);
        }
    }

    // English cue before the place: "near Gangnam station", "in Itaewon", "at Hongdae".
    let en_cue = regex!(
        r"(?i)\b(?:(near|nearby|around|close\s+to|next\s+to|somewhere\s+near|somewhere\s+around)|(in|at|inside|over\s+in|somewhere\s+in))\s"
    );
    for c in en_cue.captures_iter(text) {
        let Some((_, cue_end)) = span(&c, 0) else {
            continue;
        };
        let strong = c.get(1).is_some();
        let Some((start, end)) = en_place_phrase(text, &toks, cue_end) else {
            continue;
        };
        let phrase = &text[start..end];
        let first = phrase.chars().next();
        let accepted = strong || first.is_some_and(|f| f.is_ascii_uppercase() || is_hangul(f)) || en_place_like(phrase);
        if accepted {
            let value = if first.is_some_and(is_hangul) {
                ko_stems(phrase).into_iter().find(|s| ko_place_like(s)).unwrap_or(phrase)
            } else {
                phrase
            };
            let rank = if strong { RANK_CUE } else { RANK_WEAK_CUE };
            add(start, start + value.len(), rank, value);
        }
    }

    // A lone word in a comma-separated answer: "연남, 2명, 12시" → 연남.
    list_item_places(text, &mut add);
    found
}

/// "강남역 2번 출구": when the word before a cue is a generic spot (exit, entrance) or a
/// numbered one, the landmark words before it are part of the place.
fn extend_generic_spot(text: &str, toks: &[Token], first_idx: usize, start: usize, word: &str) -> (usize, String) {
    let generic = |w: &str| KO_GENERIC_SPOTS.contains(&w) || w.chars().next().is_some_and(|c| c.is_ascii_digit());
    let mut start = start;
    let mut leftmost = word;
    let mut idx = first_idx;
    let mut steps = 0;
    while generic(leftmost) && idx > 0 && steps < 2 {
        let prev = &toks[idx - 1];
        let gap_ok = text.get(prev.end..start).is_some_and(|g| g.chars().all(char::is_whitespace));
        if !gap_ok || parse_when(prev.text).is_some() || parse_party_size(prev.text).is_some() {
            break;
        }
        start = prev.start;
        leftmost = prev.text;
        idx -= 1;
        steps += 1;
    }
    let end = toks.get(first_idx).map_or(start, |t| t.start).max(start);
    let mut value = text.get(start..end).unwrap_or("").to_string();
    value.push_str(word);
    (start, value)
}

/// A known English place name at token `i`, with a following place noun: "Gangnam
/// Station", "itaewon", "Seongsu-dong"; or any capitalised word before a place noun.
fn en_known_place(text: &str, toks: &[Token], i: usize) -> Option<(usize, usize)> {
    let tok = toks.get(i)?;
    if !tok.text.chars().next()?.is_ascii_alphabetic() {
        return None;
    }
    let next = toks.get(i + 1).filter(|n| {
        text.get(tok.end..n.start).is_some_and(|g| g.chars().all(char::is_whitespace))
            && EN_PLACE_NOUNS.contains(&n.text.to_ascii_lowercase().as_str())
    });
    if en_place_like(tok.text) {
        return Some((tok.start, next.map_or(tok.end, |n| n.end)));
    }
    let capitalised = tok.text.chars().next()?.is_ascii_uppercase();
    let before_ok = i == 0 || !EN_PHRASE_STOP.contains(&tok.text.to_ascii_lowercase().as_str());
    match next {
        Some(n) if capitalised && before_ok && n.text.chars().next()?.is_ascii_uppercase() => Some((tok.start, n.end)),
        _ => None,
    }
}

/// The words after an English cue, up to a stop word, a digit or punctuation.
fn en_place_phrase(text: &str, toks: &[Token], cue_end: usize) -> Option<(usize, usize)> {
    let mut i = toks.iter().position(|t| t.start >= cue_end)?;
    let whitespace = |a: usize, b: usize| text.get(a..b).is_some_and(|g| g.chars().all(char::is_whitespace));
    if !whitespace(cue_end, toks[i].start) {
        return None;
    }
    if toks[i].text.eq_ignore_ascii_case("the") {
        let next = toks.get(i + 1)?;
        if !whitespace(toks[i].end, next.start) {
            return None;
        }
        i += 1;
    }
    let first = toks.get(i)?;
    if first.text.chars().next().is_some_and(is_hangul) {
        return Some((first.start, first.end));
    }
    let mut last = None;
    for j in i..toks.len().min(i + 4) {
        let t = &toks[j];
        if j > i && !whitespace(toks[j - 1].end, t.start) {
            break;
        }
        let lower = t.text.to_ascii_lowercase();
        if t.text.chars().all(|c| c.is_ascii_digit()) {
            // "Itaewon station exit 3"
            let numbered = j > i
                && ["exit", "gate", "entrance", "door", "platform"]
                    .contains(&toks[j - 1].text.to_ascii_lowercase().as_str());
            if numbered {
                last = Some(j);
            }
            break;
        }
        if !t.text.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) || EN_PHRASE_STOP.contains(&lower.as_str()) {
            break;
        }
        last = Some(j);
    }
    let mut last = last?;
    while last > i && EN_PHRASE_TRAILING.contains(&toks[last].text.to_ascii_lowercase().as_str()) {
        last -= 1;
    }
    Some((toks[i].start, toks[last].end))
}

/// Korean endings that make a lone word a verb or a reply, not a name: 좋아요 (fine),
/// 그래 (ok), 맞다 (right), 할까 (shall we)…
const KO_VERB_ENDINGS: &[char] =
    &['다', '요', '죠', '까', '네', '지', '어', '아', '해', '야', '게', '자', '고', '며', '면', '래', '께'];

fn list_item_places(text: &str, add: &mut impl FnMut(usize, usize, u8, &str)) {
    let separators = |c: char| matches!(c, ',' | '/' | '·' | ';' | '\n' | '|');
    let pieces: Vec<(usize, &str)> = {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if separators(c) {
                out.push((start, &text[start..i]));
                start = i + c.len_utf8();
            }
        }
        out.push((start, &text[start..]));
        out
    };
    if pieces.iter().filter(|(_, p)| !p.trim().is_empty()).count() < 2 {
        return;
    }
    for (offset, piece) in pieces {
        let trimmed = piece.trim_matches(|c: char| c.is_whitespace() || c == '.' || c == '!');
        if trimmed.is_empty() || trimmed.contains(char::is_whitespace) {
            continue;
        }
        let start = offset + piece.find(trimmed).unwrap_or(0);
        let hangul = trimmed.chars().all(is_hangul);
        let latin_name = trimmed.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && trimmed.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
        if hangul {
            let stem = ko_stems(trimmed).into_iter().find(|s| ko_place_like(s)).unwrap_or(trimmed);
            let verb_like = stem.chars().next_back().is_some_and(|c| KO_VERB_ENDINGS.contains(&c));
            if stem.chars().count() >= 2 && !verb_like {
                add(start, start + stem.len(), RANK_LIST_ITEM, stem);
            }
        } else if latin_name && trimmed.len() >= 3 {
            add(start, start + trimmed.len(), RANK_LIST_ITEM, trimmed);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Cancel and correction
// ---------------------------------------------------------------------------------------

/// Words of a normalised message, without jamo-only laughter or tears (ㅋㅋ, ㅠㅠ).
fn words(normalized: &str) -> Vec<&str> {
    normalized
        .split(' ')
        .filter(|w| !w.is_empty() && !w.chars().all(|c| ('\u{3131}'..='\u{318E}').contains(&c)))
        .collect()
}

/// English openers and softeners dropped before reading a short cancel message.
const EN_CANCEL_LEADS: &[&[&str]] = &[
    &["i", "want", "to"],
    &["i", "d", "like", "to"],
    &["i", "would", "like", "to"],
    &["i", "wanna"],
    &["can", "you"],
    &["could", "you"],
    &["can", "we"],
    &["could", "we"],
    &["let", "s"],
    &["lets"],
    &["we", "should"],
    &["please"],
    &["pls"],
    &["just"],
    &["ok"],
    &["okay"],
    &["oh"],
    &["well"],
    &["um"],
    &["uh"],
    &["hmm"],
    &["actually"],
    &["sorry"],
    &["no"],
    &["nah"],
    &["hey"],
    &["ah"],
    &["so"],
    &["then"],
    &["oops"],
];
const EN_CANCEL_TAILS: &[&str] = &["please", "pls", "thanks", "now", "then", "instead"];

/// Short English messages that call the request off.
#[rustfmt::skip]
const EN_CANCEL_PHRASES: &[&str] = &[
    "cancel", "cancel it", "cancel this", "cancel that", "cancel everything", "cancel all",
    "cancel all of it", "cancel the request", "cancel my request", "cancel request",
    "cancel the booking", "cancel the reservation", "cancel the plan", "cancel the whole thing",
    "never mind", "nevermind", "nvm", "forget it", "forget about it", "forget that",
    "forget this", "forget the whole thing", "stop", "stop it", "stop this", "stop that",
    "stop here", "abort", "abort it", "quit", "i quit", "give up", "i give up", "scrap it",
    "scrap that", "scrap this", "drop it", "drop this", "call it off", "i changed my mind",
    "changed my mind", "i m out", "not anymore", "don t bother", "no need", "no need anymore",
    "end this", "end it",
];

/// Korean openers dropped before reading a short cancel message: 아/앗/음/흠/어/에이
/// (ah, um), 그냥 (just), 아니/아니요/아뇨 (no), 그럼/그러면 (then), 아무래도 (on second
/// thought), 죄송한데/미안한데 (sorry, but), 저기/저기요 (excuse me), 근데 (but).
#[rustfmt::skip]
const KO_CANCEL_LEADS: &[&str] = &[
    "아", "앗", "음", "흠", "어", "에이", "그냥", "아니", "아니요", "아뇨", "그럼", "그러면",
    "아무래도", "죄송한데", "죄송하지만", "미안한데", "미안하지만", "저기", "저기요", "근데",
];
/// What the cancelling may be about: 이거/이건/그거 (this/that), 다/전부/모두 (all),
/// 요청 (the request), 예약 (the booking), 주문 (the order), 이번 (this one).
#[rustfmt::skip]
const KO_CANCEL_OBJECTS: &[&str] = &[
    "이거", "이건", "그거", "그건", "저거", "다", "전부", "모두", "요청", "요청은", "예약",
    "예약은", "주문", "이번", "이번건",
];
/// Polite closers: 감사합니다/고마워 (thanks), 죄송해요/미안 (sorry).
const KO_CANCEL_TAILS: &[&str] =
    &["감사합니다", "고마워", "고마워요", "고맙습니다", "죄송해요", "죄송합니다", "미안", "미안해요"];
/// Verbs of calling off: 취소 (cancel), 그만 (stop), 중단/중지 (halt).
const KO_CANCEL_STEMS: &[&str] = &["취소", "그만", "중단", "중지"];
/// Endings on those verbs: 해/해요/해줘/해주세요 (do it), 할게/할래 (I will), 하자
/// (let's), 합니다 (formal), 하고싶어 (want to), 부탁해요 (please), 둘래/두자 (quit).
#[rustfmt::skip]
const KO_CANCEL_ENDINGS: &[&str] = &[
    "", "요", "해", "해요", "해줘", "해줘요", "해주세요", "해줄래", "해주라", "할게", "할게요",
    "할래", "할래요", "하자", "합시다", "합니다", "하겠습니다", "하고싶어", "하고싶어요",
    "하고싶습니다", "하고싶은데", "하고싶은데요", "부탁해요", "부탁드려요", "부탁드립니다",
    "좀", "좀해줘", "좀해주세요", "해야겠어", "해야겠어요", "해야겠다", "시켜줘", "시켜주세요",
    "둘래", "둘래요", "둘게", "둘게요", "두자", "둬", "둬요", "할께", "할께요",
];
/// Other whole Korean messages that call it off: 됐어 (never mind), 관둘래/관둬 (drop it),
/// 안 할래 (I won't), 필요 없어 (no need), 없던 일로 (as if it never happened),
/// 다음에/나중에 할게 (another time), 멈춰 (stop), 스톱/캔슬 (stop/cancel), 안 갈래 (not going).
#[rustfmt::skip]
const KO_CANCEL_PHRASES: &[&str] = &[
    "됐어", "됐어요", "됐다", "됐습니다", "됐고", "관둘래", "관둘래요", "관둘게", "관둘게요",
    "관둬", "관둬요", "관두자", "안할래", "안할래요", "안할게", "안할게요", "안해", "안해요",
    "필요없어", "필요없어요", "필요없습니다", "이제필요없어", "이제필요없어요", "없던일로",
    "없던일로해줘", "없던일로해주세요", "없던일로할게요", "없던걸로", "없던걸로해줘",
    "없던걸로해주세요", "없던걸로할게요", "다음에할게", "다음에할게요", "나중에할게",
    "나중에할게요", "멈춰", "멈춰줘", "멈춰주세요", "스톱", "캔슬", "안갈래", "안갈래요",
    "안먹을래", "안먹을래요",
];

/// True when the whole short message means "cancel this request" ("취소할게요", "never
/// mind"); a longer message that only mentions cancelling ("취소 정책이 뭐야", "cancel
/// culture essay") is not one.
pub fn is_cancel(text: &str) -> bool {
    let normalized = normalize(&prepare(text));
    let mut w = words(&normalized);
    if w.is_empty() || w.len() > 8 {
        return false;
    }
    // Drop openers and closers until none is left at either end.
    loop {
        let before = w.len();
        if let Some(lead) = EN_CANCEL_LEADS.iter().find(|lead| w.len() > lead.len() && w.starts_with(lead)) {
            w.drain(..lead.len());
        }
        if w.len() > 1 && KO_CANCEL_LEADS.contains(&w[0]) {
            w.remove(0);
        }
        if w.len() > 1 {
            if let Some(last) = w.last() {
                if EN_CANCEL_TAILS.contains(last) || KO_CANCEL_TAILS.contains(last) {
                    w.pop();
                }
            }
        }
        if w.len() == before {
            break;
        }
    }
    if EN_CANCEL_PHRASES.contains(&w.join(" ").as_str()) {
        return true;
    }
    let mut joined = w.concat();
    // "이거 취소해줘", "다 그만": an object only counts before a calling-off verb.
    for object in KO_CANCEL_OBJECTS {
        if let Some(rest) = joined.strip_prefix(object) {
            if KO_CANCEL_STEMS.iter().any(|s| rest.starts_with(s)) {
                joined = rest.to_string();
                break;
            }
        }
    }
    KO_CANCEL_PHRASES.contains(&joined.as_str())
        || KO_CANCEL_STEMS
            .iter()
            .any(|stem| joined.strip_prefix(stem).is_some_and(|ending| KO_CANCEL_ENDINGS.contains(&ending)))
}

/// True when the message corrects something said before: "아니 3명이야", "말고 강남역",
/// "actually 3 people", "I mean 1pm", "correction: …". A bare "no" or "아니 근데 좋다"
/// (no, but that's nice) is not: an opener like 아니/no/actually needs a slot value after it.
pub fn is_correction(text: &str) -> bool {
    let prepared = prepare(text);
    let normalized = normalize(&prepared);
    let w = words(&normalized);
    let Some(&first) = w.first() else {
        return false;
    };
    // Said for the sake of correcting, whatever follows: 정정 (correction), 잘못 말했 (I
    // misspoke), 다시 말할게 (let me say it again), 수정할게 (I'll fix it), 바꿀게 (I'll change
    // it), 로/으로 바꿔/변경 (change it to), 오타 (typo), 말고 (not … but), 아니고 (it isn't …).
    let ko_strong = regex!(
        r"정정|잘못\s?말했|잘못\s?말씀|잘못\s?썼|다시\s?말할게|수정할게|바꿀게|(?:로|으로)\s?바꿔|(?:로|으로)\s?변경|오타|말고|아니고"
    );
    let en_strong = regex!(
        r"\b(?:correction|scratch that|let me rephrase|typo|i misspoke|i meant|make it|change it to|change that to|change to|instead)\b"
    );
    if (ko_strong.is_match(&normalized) && !normalized.contains("뿐만 아니")) || en_strong.is_match(&normalized) {
        return true;
    }
    // Openers: 아니/아니요/아뇨/아니오/아니야/아닌데 (no, that's not it), 잠깐 (wait),
    // 아참/앗 (oh right), 틀렸어 (that's wrong).
    let ko_openers = [
        "아니",
        "아니요",
        "아뇨",
        "아니오",
        "아니야",
        "아닌데",
        "아닌데요",
        "아니에요",
        "잠깐",
        "잠깐만",
        "아참",
        "앗",
        "틀렸어",
        "틀렸어요",
    ];
    let en_openers = ["no", "nope", "nah", "not", "actually", "wait", "sorry", "oops", "oh", "hmm"];
    let i_mean = w.len() > 2 && w[0] == "i" && w[1] == "mean";
    if !(ko_openers.contains(&first) || en_openers.contains(&first) || i_mean) {
        return false;
    }
    // 아니 근데 (no but…), 아니 진짜 (no really…): surprise or agreement, not a correction.
    let discourse = [
        "근데",
        "그런데",
        "진짜",
        "정말",
        "뭐",
        "왜",
        "무슨",
        "어떻게",
        "이게",
        "완전",
        "대박",
        "너무",
        "idea",
        "problem",
        "thanks",
        "thank",
        "worries",
        "sure",
        "really",
        "way",
    ];
    if w.get(1).is_some_and(|second| discourse.contains(second)) {
        return false;
    }
    carries_value(&prepared)
}

/// True when the text names a slot value or at least a number.
fn carries_value(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        || parse_party_size(text).is_some()
        || parse_when(text).is_some()
        || parse_format(text).is_some()
        || parse_place(text).is_some()
}

// ---------------------------------------------------------------------------------------
// Output format
// ---------------------------------------------------------------------------------------

/// English names of each format; ASCII word boundaries keep "code" out of "encode".
const EN_FORMAT_PATTERNS: &[(&str, Format)] = &[
    (r"(?i)\bmarkdown\b|\.md\b|\bmd\s+files?\b|\breadme\b", Format::Markdown),
    (r"(?i)\b(?:tables?|tabular)\b", Format::Table),
    // JSON Lines is still JSON records.
    (r"(?i)\bjson(?:l|\s+lines)?\b", Format::Json),
    (r"(?i)\bpython\b|\.py\b|\bjupyter\b", Format::Python),
    (
        r"(?i)\b(?:code|script|scripts|snippets?|javascript|typescript|js|rust|golang|java|sql|bash|shell\s+script|html|css|regex)\b",
        Format::Code,
    ),
    (r"(?i)\b(?:slides?|slide\s*deck|decks?|presentations?|pptx?|powerpoint|power\s+point|keynote)\b", Format::Slides),
    (r"(?i)\breports?\b", Format::Report),
    (r"(?i)\b(?:proposals?|rfp)\b", Format::Proposal),
    (r"(?i)\bcsv\b", Format::Csv),
    (r"(?i)\b(?:e-?mails?|mail)\b", Format::Email),
    (r"(?i)\b(?:diagrams?|flow\s*charts?|charts?|mermaid|uml|graphviz|mind\s*maps?|wireframes?)\b", Format::Diagram),
    (r"(?i)\b(?:spreadsheets?|excel|xlsx|google\s+sheets?|gsheets?)\b", Format::Spreadsheet),
];

fn en_format_patterns() -> &'static [(Regex, Format)] {
    static CELL: OnceLock<Vec<(Regex, Format)>> = OnceLock::new();
    CELL.get_or_init(|| {
        EN_FORMAT_PATTERNS
            .iter()
            .map(|(p, f)| (Regex::new(p).expect("format pattern is a valid literal"), *f))
            .collect()
    })
}

/// How a Korean format word must stand to count.
#[derive(Debug, Clone, Copy)]
enum KoBound {
    /// Anywhere, even inside a longer word (주간보고서 is a weekly report).
    Free,
    /// As a word of its own, followed by nothing or a particle (코드로, 메일을).
    Word,
    /// As a word of its own or after one of these words (비교표 is a comparison table).
    WordOrAfter(&'static [&'static str]),
}

/// Words that make 표 a table when glued in front of it: 비교 (comparison), 일정 (schedule),
/// 시간 (time), 요약 (summary), 정리 (overview), 가격 (price), 현황 (status), 통계
/// (statistics), 점수 (score), 성적 (grades), 계획 (plan), 예산 (budget), 순위 (ranking),
/// 대조 (contrast), 체크 (check), 진도 (progress), 견적 (estimate), 근무 (shift), 메뉴 (menu),
/// 출석 (attendance), 평가 (evaluation). 발표 (presentation), 대표 (representative), 목표
/// (goal), 투표 (vote), 지표 (indicator), 장표 (slide), 도표 (chart) are not tables.
const KO_TABLE_PREFIXES: &[&str] = &[
    "비교", "일정", "시간", "요약", "정리", "가격", "현황", "통계", "점수", "성적", "계획", "예산", "순위", "대조",
    "체크", "진도", "견적", "근무", "메뉴", "출석", "평가",
];

/// Korean names of each format, with an English gloss.
const KO_FORMAT_WORDS: &[(&str, Format, KoBound)] = &[
    ("마크다운", Format::Markdown, KoBound::Free),                  // markdown
    ("표", Format::Table, KoBound::WordOrAfter(KO_TABLE_PREFIXES)), // table
    ("파이썬", Format::Python, KoBound::Free),                      // Python
    ("파이선", Format::Python, KoBound::Free),                      // Python (common misspelling)
    ("코드", Format::Code, KoBound::Word),                          // code
    ("스크립트", Format::Code, KoBound::Free),                      // script
    ("자바스크립트", Format::Code, KoBound::Free),                  // JavaScript
    ("슬라이드", Format::Slides, KoBound::Free),                    // slides
    ("발표자료", Format::Slides, KoBound::Free),                    // presentation material
    ("발표 자료", Format::Slides, KoBound::Free),                   // presentation material
    ("발표용", Format::Slides, KoBound::Free),                      // for presenting
    ("프레젠테이션", Format::Slides, KoBound::Free),                // presentation
    ("피피티", Format::Slides, KoBound::Free),                      // PPT
    ("키노트", Format::Slides, KoBound::Free),                      // Keynote
    ("장표", Format::Slides, KoBound::Free),                        // slide pages (business jargon)
    ("보고서", Format::Report, KoBound::Free),                      // report
    ("리포트", Format::Report, KoBound::Free),                      // report
    ("레포트", Format::Report, KoBound::Free),                      // report (common spelling)
    ("기획서", Format::Proposal, KoBound::Free),                    // planning document
    ("기획안", Format::Proposal, KoBound::Free),                    // plan draft
    ("제안서", Format::Proposal, KoBound::Free),                    // proposal
    ("이메일", Format::Email, KoBound::Free),                       // email
    ("메일", Format::Email, KoBound::Word),                         // mail
    ("다이어그램", Format::Diagram, KoBound::Free),                 // diagram
    ("순서도", Format::Diagram, KoBound::Free),                     // flowchart
    ("흐름도", Format::Diagram, KoBound::Free),                     // flow diagram
    ("플로우차트", Format::Diagram, KoBound::Free),                 // flowchart
    ("도식", Format::Diagram, KoBound::Free),                       // schematic
    ("도표", Format::Diagram, KoBound::Free),                       // chart
    ("차트", Format::Diagram, KoBound::Free),                       // chart
    ("마인드맵", Format::Diagram, KoBound::Free),                   // mind map
    ("구성도", Format::Diagram, KoBound::Free),                     // architecture diagram
    ("엑셀", Format::Spreadsheet, KoBound::Free),                   // Excel
    ("스프레드시트", Format::Spreadsheet, KoBound::Free),           // spreadsheet
    ("구글 시트", Format::Spreadsheet, KoBound::Free),              // Google Sheets
    ("구글시트", Format::Spreadsheet, KoBound::Free),               // Google Sheets
];

/// What may follow a bounded Korean format word: particles 로/으로 (as), 를/을 (object),
/// 은/는/이/가 (topic/subject), 에/에서 (in), 도 (also), 만 (only), 와/과/랑 (and), 처럼
/// (like), 의 (of), 요 (polite); and 형식/형태 (format), 파일 (file), 버전 (version),
/// 예시/예제 (example), 초안 (draft), 샘플 (sample), 템플릿 (template),
/// 화 (-ify), 하나 (one).
#[rustfmt::skip]
const KO_FORMAT_TAILS: &[&str] = &[
    "로", "으로", "를", "을", "은", "는", "이", "가", "에", "도", "만", "와", "과", "랑",
    "처럼", "의", "요", "형식", "형태", "파일", "버전", "예시", "예제", "초안", "샘플",
    "템플릿", "화", "하나",
];

/// Phrases that name something else: code review, QR/bar codes, error/status/zip/promo
/// codes, dress code, code names, cheat sheets, email addresses, "email me", "report back",
/// code blocks (part of a Markdown document), and restaurant tables ("book a table", "table for 2", "window table").
fn mask_non_formats(text: &str) -> String {
    let en = regex!(
        r"(?i)\bcode\s*reviews?\b|\bqr\s*codes?\b|\bbar\s*codes?\b|\b(?:error|status|zip|postal|promo|promotional|coupon|discount|dress|country|area|verification|access|invite|referral)\s+codes?\b|\bcode\s*names?\b|\bcheat\s*sheets?\b|\be-?mail\s+(?:me|us|him|her|them|address(?:es)?)\b|\bsend\s+(?:me|us)\s+an?\s+e-?mail\b|\breport\s+(?:to|back)\b|\btable\s+tennis\b|\bcode\s+blocks?\b"
    );
    let tables = regex!(&format!(
        r"(?i)\b(?:book|booking|reserve|reserving|get|grab|find|snag|secure|hold|save)\s+(?:us\s+|me\s+)?(?:a|an|the|one|our)?\s*(?:(?:window|outdoor|corner|quiet|private|patio|big|large|small|nice|round)\s+)?tables?\b|\btables?\s+for\s+(?:\d+|{EN_COUNTS}|us|me|the\s+\w+\s+of\s+us|a\s+party|a\s+group)\b|\btables?\s+(?:reservations?|bookings?)\b|\b(?:window|outdoor|corner|patio|terrace|private)\s+tables?\b"
    ));
    // 코드 블록 (code block), 코드 리뷰 (code review), QR 코드, 바코드 (barcode), 에러/오류/상태/할인/쿠폰/인증/초대/
    // 추천인/우편/드레스 코드 (error/status/discount/coupon/verification/invite/referral/
    // postal/dress code), 메일 주소 (email address).
    let ko = regex!(
        r"코드\s*블록|코드\s*리뷰|[Qq][Rr]\s*코드|바코드|(?:에러|오류|상태|할인|쿠폰|인증|초대|추천인|우편|드레스)\s*코드|(?:이메일|메일)\s*주소"
    );
    let blank = |c: &Captures<'_>| " ".repeat(c.get(0).map_or(0, |m| m.len()));
    let text = en.replace_all(text, blank);
    let text = tables.replace_all(&text, blank);
    ko.replace_all(&text, blank).into_owned()
}

fn ko_format_word_fits(text: &str, at: usize, word: &str, bound: KoBound) -> bool {
    let prefixes: &[&str] = match bound {
        KoBound::Free => return true,
        KoBound::Word => &[],
        KoBound::WordOrAfter(prefixes) => prefixes,
    };
    let before = text.get(..at).unwrap_or("");
    let left_ok = !prev_char(text, at).is_some_and(is_hangul)
        || prefixes
            .iter()
            .any(|p| before.strip_suffix(p).is_some_and(|rest| !rest.chars().next_back().is_some_and(is_hangul)));
    let after = text.get(at + word.len()..).unwrap_or("");
    let tail_end = after.find(|c: char| !is_hangul(c)).unwrap_or(after.len());
    let tail = &after[..tail_end];
    let right_ok = tail.is_empty() || KO_FORMAT_TAILS.iter().any(|t| tail.starts_with(t));
    left_ok && right_ok
}

/// The output format a message asks for. When several are named the most specific wins
/// (a program over data formats, a file type over a document genre, a document over the
/// tables or diagrams in it, any of those over Markdown), then the first mentioned;
/// "X 말고 Y" and "Y instead of X" drop X.
pub fn parse_format(text: &str) -> Option<Format> {
    let text = mask_non_formats(&prepare(text));
    let mut mentions = Vec::new();
    let rank = |text: &str, start: usize, end: usize, format: Format| {
        // A form stated as the output ("as a table", "표로", "JSON 형식") outranks a
        // format merely named ("a weekly report as a table" is a table).
        if is_stated_output(text, start, end) {
            format.specificity()
        } else {
            format.specificity() + 10
        }
    };
    for (pattern, format) in en_format_patterns() {
        for m in pattern.find_iter(&text) {
            mentions.push(Mention {
                start: m.start(),
                end: m.end(),
                rank: rank(&text, m.start(), m.end(), *format),
                value: *format,
            });
        }
    }
    for (word, format, bound) in KO_FORMAT_WORDS {
        for (at, _) in text.match_indices(word) {
            if ko_format_word_fits(&text, at, word, *bound) {
                mentions.push(Mention {
                    start: at,
                    end: at + word.len(),
                    rank: rank(&text, at, at + word.len(), *format),
                    value: *format,
                });
            }
        }
    }
    // What the request works on is not what it produces: "turn customer emails into a
    // weekly FAQ update" reads emails and asks for something else.
    mentions.retain(|m| !is_input_mention(&text, m.start, m.end));
    choose(&text, mentions)
}

/// True when a format mention names what the request reads rather than what it makes:
/// after a verb that consumes ("summarize my emails", "turn … emails into"), after "from"
/// or "of" ("a digest of emails"), before "into" ("emails into a FAQ"); in Korean before
/// 에서 (from) or 의 (of), or as the object (을/를) of a verb that consumes (요약, 정리,
/// 분석, 분류, 번역, 읽, 모아, 수집, 변환, 바꿔, 추출, 검토).
fn is_input_mention(text: &str, start: usize, end: usize) -> bool {
    if is_stated_output(text, start, end) {
        return false;
    }
    let before = tail(text.get(..start).unwrap_or(""), NEAR).to_ascii_lowercase();
    let after = head(text.get(end..).unwrap_or(""), NEAR);
    let en_before = regex!(
        r"(?i)\b(?:from|of|turn|turns|turning|convert|converting|transform|summari[sz]e|summari[sz]ing|read|reading|scan|scanning|parse|parsing|process|processing|analy[sz]e|analy[sz]ing|classify|classifying|translate|translating|extract|collect|collecting|gather|monitor|monitoring|sort|sorting|triage|go\s+through|based\s+on)\s+(?:(?:my|our|the|all|new|incoming|customer|customers'|client|support|daily|weekly|unread|these|those|their|your)\s+){0,3}$"
    );
    let en_after = regex!(r"(?i)^s?\s+(?:into|to\s+(?:a|an)\b)");
    // 에서 (from), 의 (of), 들 (plural); 을/를 (object) before a consuming verb.
    let ko_from = regex!(r"^(?:들)?(?:에서|의\s)");
    let ko_object = regex!(
        r"^(?:들)?(?:을|를)\s*(?:\S+\s+){0,2}?(?:요약|정리|분석|분류|번역|읽|모아|모으|수집|변환|바꿔|바꾸|추출|검토|훑|확인해서|가져와)"
    );
    en_before.is_match(&before) || en_after.is_match(after) || ko_from.is_match(after) || ko_object.is_match(after)
}

/// True when the words around a format mention make it the requested output form:
/// "as a …", "into …", "… format"; Korean "…로", "…으로", "… 형식", "… 형태".
fn is_stated_output(text: &str, start: usize, end: usize) -> bool {
    let before = tail(text.get(..start).unwrap_or(""), NEAR).to_ascii_lowercase();
    let after = head(text.get(end..).unwrap_or(""), NEAR);
    let en_before = regex!(r"(?i)\b(?:as|into)\s+(?:a\s+|an\s+|the\s+)?(?:\w+\s+)?$");
    let en_after = regex!(r"(?i)^\s*(?:format|form)\b");
    // 로/으로 (as/into), 형식/형태 (format/form), 파일 (file)
    let ko_after = regex!(r"^(?:으로|로|\s*형식|\s*형태|\s*파일)");
    en_before.is_match(&before) || en_after.is_match(after) || ko_after.is_match(after)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn when(day: Option<DayRef>, hour: Option<u8>, minute: u8, meal: Option<Meal>) -> When {
        When { day, hour, minute, meal }
    }

    fn clock(text: &str) -> Option<(u8, u8)> {
        parse_when(text).and_then(|w| w.hour.map(|h| (h, w.minute)))
    }

    #[test]
    fn when_reads_korean_clock_times() {
        let cases = [
            ("12시 30분", Some((12, 30))),
            ("12시30분", Some((12, 30))),
            ("오후 1시 반", Some((13, 30))),
            ("오후1시반", Some((13, 30))),
            ("정오", Some((12, 0))),
            ("저녁 7시", Some((19, 0))),
            ("오전 11시", Some((11, 0))),
            ("열두시 반", Some((12, 30))),
            ("열두 시 반", Some((12, 30))),
            ("한시", Some((13, 0))),
            ("세 시 15분", Some((15, 15))),
            ("오후 열한시", Some((23, 0))),
            ("1시 10분 전", Some((12, 50))),
            ("밤 10시", Some((22, 0))),
            ("밤 12시", Some((0, 0))),
            ("새벽 2시", Some((2, 0))),
            ("자정", Some((0, 0))),
            ("12:30", Some((12, 30))),
            ("１２시", Some((12, 0))),
        ];
        for (text, want) in cases {
            assert_eq!(clock(text), want, "{text}");
        }
    }

    #[test]
    fn when_reads_english_clock_times() {
        let cases = [
            ("1pm", Some((13, 0))),
            ("1:30 pm", Some((13, 30))),
            ("1.30pm", Some((13, 30))),
            ("11 a.m.", Some((11, 0))),
            ("12am", Some((0, 0))),
            ("half past 12", Some((12, 30))),
            ("half past one", Some((13, 30))),
            ("quarter past 1", Some((13, 15))),
            ("quarter to 1", Some((12, 45))),
            ("quarter to midnight", Some((23, 45))),
            ("noon", Some((12, 0))),
            ("tomorrow at noon", Some((12, 0))),
            ("at 12", Some((12, 0))),
            ("at 7 in the evening", Some((19, 0))),
            ("tonight at 8", Some((20, 0))),
            ("seven pm", Some((19, 0))),
            ("12 o'clock", Some((12, 0))),
            ("around 1", Some((13, 0))),
        ];
        for (text, want) in cases {
            assert_eq!(clock(text), want, "{text}");
        }
    }

    #[test]
    fn bare_hours_one_to_six_read_as_afternoon() {
        // Meal-planning rule: 1–6 without am/pm are afternoon, 7–11 as said, 12 is noon;
        // a meal or day-part word decides instead when there is one.
        let cases = [
            ("1시", (13, 0)),
            ("6시", (18, 0)),
            ("7시", (7, 0)),
            ("11시", (11, 0)),
            ("12시", (12, 0)),
            ("at 3", (15, 0)),
            ("저녁 6시", (18, 0)),
            ("7시 저녁", (19, 0)),
            ("dinner at 7", (19, 0)),
            ("아침 6시", (6, 0)),
            ("오전 1시", (1, 0)),
            ("점심 1시", (13, 0)),
            ("점심 11시 반", (11, 30)),
        ];
        for (text, want) in cases {
            assert_eq!(clock(text), Some(want), "{text}");
        }
    }

    #[test]
    fn when_keeps_day_and_meal_without_clock() {
        let cases = [
            ("내일 점심", when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch))),
            ("모레 저녁", when(Some(DayRef::DayAfterTomorrow), None, 0, Some(Meal::Dinner))),
            ("내일모레 점심", when(Some(DayRef::DayAfterTomorrow), None, 0, Some(Meal::Lunch))),
            ("오늘", when(Some(DayRef::Today), None, 0, None)),
            ("낼 점심 어때", when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch))),
            ("tomorrow lunch", when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch))),
            ("tonight", when(Some(DayRef::Today), None, 0, Some(Meal::Dinner))),
            ("the day after tomorrow", when(Some(DayRef::DayAfterTomorrow), None, 0, None)),
            ("내일 12시 반", when(Some(DayRef::Tomorrow), Some(12), 30, None)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_when(text), Some(want), "{text}");
        }
    }

    #[test]
    fn when_reads_weekdays_this_week_and_next() {
        let on = |day, next_week| Some(DayRef::Weekday { day, next_week });
        let cases = [
            ("금요일 점심", when(on(Weekday::Friday, false), None, 0, Some(Meal::Lunch))),
            ("이번 주 토요일 12시", when(on(Weekday::Saturday, false), Some(12), 0, None)),
            ("다음주 월요일 저녁 7시", when(on(Weekday::Monday, true), Some(19), 0, Some(Meal::Dinner))),
            ("담주 수욜 점심", when(on(Weekday::Wednesday, true), None, 0, Some(Meal::Lunch))),
            ("일요일에 보자", when(on(Weekday::Sunday, false), None, 0, None)),
            ("lunch on Friday", when(on(Weekday::Friday, false), None, 0, Some(Meal::Lunch))),
            ("next Tuesday at 1pm", when(on(Weekday::Tuesday, true), Some(13), 0, None)),
            ("this thurs, 12:30", when(on(Weekday::Thursday, false), Some(12), 30, None)),
            ("fri. lunch", when(on(Weekday::Friday, false), None, 0, Some(Meal::Lunch))),
            ("next sat dinner", when(on(Weekday::Saturday, true), None, 0, Some(Meal::Dinner))),
            ("목요일 말고 금요일", when(on(Weekday::Friday, false), None, 0, None)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_when(text), Some(want), "{text}");
        }
        // Abbreviations that are English words count only with "this" or "next".
        for text in ["we sat down", "the sun is out", "wed the two ideas"] {
            assert_eq!(parse_when(text), None, "{text}");
        }
    }

    #[test]
    fn when_reads_dates_in_both_languages() {
        let on = |month, day| Some(DayRef::Date { month, day });
        let cases = [
            ("3월 5일 점심", when(on(3, 5), None, 0, Some(Meal::Lunch))),
            ("12월25일 저녁 7시", when(on(12, 25), Some(19), 0, Some(Meal::Dinner))),
            ("2월 29일", when(on(2, 29), None, 0, None)),
            ("lunch on March 5", when(on(3, 5), None, 0, Some(Meal::Lunch))),
            ("Mar. 5th at 1pm", when(on(3, 5), Some(13), 0, None)),
            ("the 21st of June", when(on(6, 21), None, 0, None)),
            ("5 May, dinner", when(on(5, 5), None, 0, Some(Meal::Dinner))),
            ("sept 30", when(on(9, 30), None, 0, None)),
            ("3월 5일 말고 3월 6일", when(on(3, 6), None, 0, None)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_when(text), Some(want), "{text}");
        }
        // "may" in lower case is the verb.
        assert_eq!(parse_when("may 3 of us join?"), None);
    }

    #[test]
    fn when_rejects_dates_no_year_has() {
        for (text, month, day) in [("2월 30일", 2, 30), ("13월 1일", 13, 1), ("April 31", 4, 31), ("3월 0일", 3, 0)]
        {
            assert_eq!(
                read_when(text),
                Err(SlotError { kind: SlotErrorKind::ImpossibleDate { month, day } }),
                "{text}"
            );
            assert_eq!(parse_when(text), None, "{text}");
        }
        let error = SlotError { kind: SlotErrorKind::ImpossibleDate { month: 2, day: 30 } };
        assert!(error.message(Lang::Ko).contains("2월 30일은 없는 날짜"));
        assert!(error.message(Lang::En).contains("2/30 is not a date"));
    }

    #[test]
    fn when_display_shows_day_then_clock_or_meal() {
        let cases = [
            (when(Some(DayRef::Tomorrow), Some(12), 30, None), Lang::Ko, "내일 12:30"),
            (when(None, Some(12), 30, Some(Meal::Lunch)), Lang::Ko, "12:30"),
            (when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch)), Lang::Ko, "내일 점심"),
            (when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch)), Lang::En, "tomorrow lunch"),
            (when(None, Some(13), 30, None), Lang::En, "13:30"),
            (when(None, Some(9), 5, None), Lang::En, "9:05"),
            (
                when(Some(DayRef::Weekday { day: Weekday::Friday, next_week: true }), None, 0, Some(Meal::Lunch)),
                Lang::Ko,
                "다음 주 금요일 점심",
            ),
            (
                when(Some(DayRef::Weekday { day: Weekday::Friday, next_week: false }), Some(12), 0, None),
                Lang::En,
                "Friday 12:00",
            ),
            (
                when(Some(DayRef::Weekday { day: Weekday::Monday, next_week: true }), None, 0, None),
                Lang::En,
                "next Monday",
            ),
            (when(Some(DayRef::Date { month: 3, day: 5 }), Some(12), 30, None), Lang::Ko, "3월 5일 12:30"),
            (when(Some(DayRef::Date { month: 3, day: 5 }), None, 0, Some(Meal::Lunch)), Lang::En, "March 5 lunch"),
        ];
        for (value, lang, want) in cases {
            assert_eq!(value.display(lang), want);
        }
    }

    #[test]
    fn when_ignores_counts_dates_and_durations() {
        let cases = [
            "2명",
            "3인",
            "for 3",
            "3월 5일",
            "2시간 뒤에",
            "한 시간만",
            "30분",
            "12/25",
            "on the 12th",
            "at 3 people",
            "2호선",
            "네, 시간 괜찮아요",
            "",
            "   ",
        ];
        for text in cases {
            assert_eq!(clock(text), None, "{text}");
        }
    }

    #[test]
    fn when_rejects_impossible_clock_times() {
        for text in ["25시", "12:75", "12시 75분", "내일 25시", "24시"] {
            assert_eq!(parse_when(text), None, "{text}");
            assert!(matches!(read_when(text), Err(SlotError { kind: SlotErrorKind::ImpossibleTime { .. } })), "{text}");
        }
        assert_eq!(read_when("점심 먹자"), Ok(Some(when(None, None, 0, Some(Meal::Lunch)))));
        assert_eq!(read_when("hello"), Ok(None));
    }

    #[test]
    fn when_follows_corrections_and_rejections() {
        let cases = [
            ("12시 말고 1시", (13, 0)),
            ("12시, 아니 1시", (13, 0)),
            ("1pm instead of 12", (13, 0)),
            ("not 12, 1pm", (13, 0)),
            ("12시나 1시", (12, 0)),
        ];
        for (text, want) in cases {
            assert_eq!(clock(text), Some(want), "{text}");
        }
        assert_eq!(parse_when("오늘 말고 내일").and_then(|w| w.day), Some(DayRef::Tomorrow));
    }

    #[test]
    fn party_size_reads_korean_counts() {
        let cases = [
            ("2명", Some(2)),
            ("3인", Some(3)),
            ("3인분", Some(3)),
            ("4 사람", Some(4)),
            ("아니 3명이야", Some(3)),
            ("2~3명", Some(3)),
            ("100명", Some(100)),
            ("0명", Some(0)),
            ("1인당 만원", None),
            ("1인 1메뉴", None),
            ("인원 여섯", Some(6)),
            ("인원은 4", Some(4)),
            ("혼밥할 곳", Some(1)),
            ("점심에 둘, 강남", Some(2)),
            ("다섯 시", None),
            ("명동에서 보자", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_party_size(text), want, "{text}");
        }
    }

    #[test]
    fn party_size_reads_native_korean_counts() {
        let cases = [
            ("두 명", Some(2)),
            ("두명", Some(2)),
            ("둘이서", Some(2)),
            ("셋이", Some(3)),
            ("넷이요", Some(4)),
            ("혼자", Some(1)),
            ("혼자서 먹을 거야", Some(1)),
            ("열 명", Some(10)),
            ("열두 명", Some(12)),
            ("스무 명", Some(20)),
            ("세 분이요", Some(3)),
            ("한 분", Some(1)),
            ("두세 명", Some(3)),
            ("서너 명", Some(4)),
            ("우리 둘", Some(2)),
            ("저랑 친구", Some(2)),
            ("저랑 친구 두 명", Some(3)),
            ("둘 다 좋아요", None),
            ("네 명동 괜찮아요", None),
            ("분위기 좋은 곳", None),
            ("세 분위기", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_party_size(text), want, "{text}");
        }
    }

    #[test]
    fn party_size_reads_english_counts() {
        let cases = [
            ("for 3", Some(3)),
            ("party of 4", Some(4)),
            ("3 people", Some(3)),
            ("two of us", Some(2)),
            ("just the two of us", Some(2)),
            ("just me", Some(1)),
            ("table for two", Some(2)),
            ("me and a friend", Some(2)),
            ("me and two colleagues", Some(3)),
            ("my wife and I", Some(2)),
            ("6 pax", Some(6)),
            ("for 2 hours", None),
            ("for 3pm", None),
            ("for 12:30", None),
            ("5 ideas for lunch", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_party_size(text), want, "{text}");
        }
    }

    #[test]
    fn party_size_ignores_times_and_places() {
        for text in ["2시", "12시 30분", "을지로3가", "2호선", "3번 출구", "1pm", "at 2", "3"] {
            assert_eq!(parse_party_size(text), None, "{text}");
        }
    }

    #[test]
    fn party_size_follows_corrections() {
        let cases =
            [("2명, 아니 3명", 3), ("3명 말고 4명", 4), ("2 people, no, 3 people", 3), ("actually 3 people", 3)];
        for (text, want) in cases {
            assert_eq!(parse_party_size(text), Some(want), "{text}");
        }
    }

    #[test]
    fn validate_party_size_accepts_one_to_fifty() {
        assert_eq!(validate_party_size(1), Ok(1));
        assert_eq!(validate_party_size(50), Ok(50));
        assert_eq!(validate_party_size(0).map_err(|e| e.kind), Err(SlotErrorKind::NoPeople));
        assert_eq!(
            validate_party_size(51).map_err(|e| e.kind),
            Err(SlotErrorKind::TooManyPeople { said: 51, max: 50 })
        );
    }

    #[test]
    fn slot_errors_say_what_to_do_in_both_languages() {
        let too_many = validate_party_size(120).unwrap_err();
        assert!(too_many.message(Lang::Ko).contains("120명"));
        assert!(too_many.message(Lang::Ko).contains("50명"));
        assert!(too_many.message(Lang::En).contains("at most 50"));
        let none = validate_party_size(0).unwrap_err();
        assert!(none.message(Lang::Ko).contains("1명 이상"));
        assert!(none.message(Lang::En).contains("at least one"));
        let bad_time = read_when("12:75").unwrap_err();
        assert!(bad_time.message(Lang::Ko).contains("12시 75분"));
        assert!(bad_time.message(Lang::En).contains("12:75"));
        assert_eq!(bad_time.to_string(), bad_time.message(Lang::En));
    }

    #[test]
    fn place_reads_korean_places() {
        let cases = [
            ("을지로에서", Some("을지로")),
            ("강남역 근처", Some("강남역")),
            ("홍대 쪽", Some("홍대")),
            ("홍대쪽으로 가자", Some("홍대")),
            ("을지로, 2명, 12시 30분", Some("을지로")),
            ("연남, 2명, 12시", Some("연남")),
            ("성수동 맛집 추천해줘", Some("성수동")),
            ("회사 근처에서 점심", Some("회사")),
            ("강남역 2번 출구 근처", Some("강남역 2번 출구")),
            ("판교역이요", Some("판교역")),
            ("을지로3가역 쪽", Some("을지로3가역")),
            ("종로로 갈래", Some("종로")),
            ("말고 강남역", Some("강남역")),
            ("을지로 말고 강남역 근처", Some("강남역")),
            ("판교 테크노밸리 근처", Some("판교 테크노밸리")),
            ("광화문 교보문고 앞", Some("광화문 교보문고")),
            ("여의도 IFC몰 쪽에서", Some("여의도 IFC몰")),
            ("회사 앞에서 보자", Some("회사")),
            ("망원시장 가자", Some("망원시장")),
            ("12:30에 Itaewon에서", Some("Itaewon")),
        ];
        for (text, want) in cases {
            assert_eq!(parse_place(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn place_reads_english_places() {
        let cases = [
            ("near Gangnam station", Some("Gangnam station")),
            ("in Itaewon", Some("Itaewon")),
            ("at Hongdae", Some("Hongdae")),
            ("lunch in gangnam tomorrow", Some("gangnam")),
            ("somewhere near the office", Some("office")),
            ("Seongsu-dong, 3 people", Some("Seongsu-dong")),
            ("near 강남역 for 2", Some("강남역")),
            ("let's meet at Yeouido Park at noon", Some("Yeouido Park")),
            ("meet at Itaewon station exit 3", Some("Itaewon station exit 3")),
        ];
        for (text, want) in cases {
            assert_eq!(parse_place(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn place_ignores_times_counts_and_filler() {
        for text in [
            "내일 점심",
            "오늘",
            "2명",
            "여기서",
            "이 근처",
            "아무데나",
            "at noon",
            "at 12",
            "in the evening",
            "in markdown",
            "in 30 minutes",
            "near me",
            "좋아요, 2명",
            "네, 내일",
            "2시에서 3시 사이",
            "오른쪽",
            "오른쪽으로 가면 돼",
            "바로 앞에서",
            "다른 쪽으로 가자",
            "지역 맛집",
            "",
        ] {
            assert_eq!(parse_place(text), None, "{text}");
        }
    }

    #[test]
    fn cancel_is_read_from_the_whole_short_message() {
        let cases = [
            ("취소", true),
            ("취소할게요", true),
            ("취소 할게요.", true),
            ("이거 취소해 주세요", true),
            ("그만할래", true),
            ("아 그냥 그만할래요 ㅠㅠ", true),
            ("됐어", true),
            ("됐어요 감사합니다", true),
            ("없던 일로 해줘", true),
            ("cancel", true),
            ("Cancel!", true),
            ("never mind", true),
            ("Nevermind.", true),
            ("forget it", true),
            ("stop this", true),
            ("please cancel", true),
            ("I want to cancel", true),
            ("취소 정책이 뭐야", false),
            ("cancel culture essay", false),
            ("write a report on how airlines handle cancel requests and refunds", false),
            ("다 됐어", false),
            ("don't stop", false),
            ("취소하지 마", false),
            ("", false),
        ];
        for (text, want) in cases {
            assert_eq!(is_cancel(text), want, "{text}");
        }
    }

    #[test]
    fn correction_needs_a_marker_and_usually_a_value() {
        let cases = [
            ("아니 3명이야", true),
            ("아니요, 4명", true),
            ("정정할게요 2명", true),
            ("말고 강남역", true),
            ("3명 아니고 4명", true),
            ("actually 3 people", true),
            ("no, make it 4", true),
            ("I mean 1pm", true),
            ("correction: 2 people", true),
            ("wait, tomorrow not today", true),
            ("Itaewon instead", true),
            ("아니 근데 좋은 생각이다", false),
            ("아니 진짜 맛있겠다", false),
            ("I don't know", false),
            ("no", false),
            ("no thanks", false),
            ("not sure", false),
            ("아니면 뭐 먹지", false),
            ("3명", false),
            ("을지로, 2명, 12시 30분", false),
            ("품질뿐만 아니라 가격도", false),
            ("", false),
        ];
        for (text, want) in cases {
            assert_eq!(is_correction(text), want, "{text}");
        }
    }

    #[test]
    fn format_reads_korean_and_english_names() {
        let cases = [
            ("마크다운으로", Some(Format::Markdown)),
            ("markdown please", Some(Format::Markdown)),
            ("표로 정리해줘", Some(Format::Table)),
            ("표로정리해줘", Some(Format::Table)),
            ("비교표 만들어줘", Some(Format::Table)),
            ("as a table", Some(Format::Table)),
            ("tabular summary", Some(Format::Table)),
            ("JSON으로 줘", Some(Format::Json)),
            ("output jsonl", Some(Format::Json)),
            ("파이썬으로 짜줘", Some(Format::Python)),
            ("a python script", Some(Format::Python)),
            ("코드로 보여줘", Some(Format::Code)),
            ("write a bash script", Some(Format::Code)),
            ("슬라이드 10장", Some(Format::Slides)),
            ("발표자료 만들어줘", Some(Format::Slides)),
            ("PPT로", Some(Format::Slides)),
            ("a pitch deck", Some(Format::Slides)),
            ("보고서 형식으로", Some(Format::Report)),
            ("주간보고서", Some(Format::Report)),
            ("리포트", Some(Format::Report)),
            ("기획서 써줘", Some(Format::Proposal)),
            ("제안서", Some(Format::Proposal)),
            ("a project proposal", Some(Format::Proposal)),
            ("CSV로 뽑아줘", Some(Format::Csv)),
            ("이메일 초안", Some(Format::Email)),
            ("메일로 써줘", Some(Format::Email)),
            ("draft an email", Some(Format::Email)),
            ("다이어그램", Some(Format::Diagram)),
            ("a flowchart of the process", Some(Format::Diagram)),
            ("순서도", Some(Format::Diagram)),
            ("엑셀로", Some(Format::Spreadsheet)),
            ("스프레드시트", Some(Format::Spreadsheet)),
            ("an Excel file", Some(Format::Spreadsheet)),
            ("update the README", Some(Format::Markdown)),
            ("코드 블록 포함해서 README 작성", Some(Format::Markdown)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_format(text), want, "{text}");
        }
    }

    #[test]
    fn format_ignores_look_alike_words() {
        let cases = [
            "표준 절차",
            "발표 준비",
            "대표 메뉴",
            "목표 설정",
            "투표하자",
            "표현이 어색해",
            "코드리뷰 도구 추천",
            "코드 리뷰 도구",
            "QR코드 메뉴판",
            "바코드",
            "쿠폰 코드 있어?",
            "메일 주소 알려줘",
            "book a table for 2",
            "table for two at 7",
            "a window table please",
            "zip code",
            "decode this",
            "dress code",
            "점심 먹자",
            "",
        ];
        for text in cases {
            assert_eq!(parse_format(text), None, "{text}");
        }
    }

    #[test]
    fn format_prefers_the_most_specific_then_the_first() {
        let cases = [
            ("마크다운 표로", Format::Table),
            ("markdown table", Format::Table),
            ("파이썬 코드", Format::Python),
            ("CSV를 읽는 파이썬 스크립트", Format::Python),
            ("JSON report", Format::Json),
            ("표가 들어간 보고서", Format::Report),
            ("slides with a diagram", Format::Slides),
            ("엑셀 표", Format::Spreadsheet),
            ("PPT로 기획서", Format::Slides),
            ("보고서랑 이메일", Format::Report),
            ("an email and a report", Format::Email),
            ("표 말고 슬라이드로", Format::Slides),
            ("a table instead of a diagram", Format::Table),
        ];
        for (text, want) in cases {
            assert_eq!(parse_format(text), Some(want), "{text}");
        }
    }

    #[test]
    fn format_stated_as_the_output_wins_over_a_named_deliverable() {
        let cases = [
            ("weekly report on support tickets as a table", Some(Format::Table)),
            ("보고서를 표로 정리해줘", Some(Format::Table)),
            ("a weekly report with a table inside", Some(Format::Report)),
            ("회의록을 JSON 형식으로", Some(Format::Json)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_format(text), want, "{text}");
        }
    }

    #[test]
    fn format_labels_cover_every_format_in_both_languages() {
        assert_eq!(Format::all().len(), 12);
        for format in Format::all() {
            assert!(!format.label(Lang::Ko).is_empty());
            assert!(!format.label(Lang::En).is_empty());
        }
        assert_eq!(Format::Table.label(Lang::Ko), "표");
        assert_eq!(Format::Json.label(Lang::En), "JSON");
    }

    #[test]
    fn slot_types_serialize_in_snake_case() {
        assert_eq!(serde_json::to_string(&DayRef::DayAfterTomorrow).ok().as_deref(), Some("\"day_after_tomorrow\""));
        assert_eq!(serde_json::to_string(&Format::Spreadsheet).ok().as_deref(), Some("\"spreadsheet\""));
        let value = when(Some(DayRef::Tomorrow), Some(12), 30, Some(Meal::Lunch));
        let json = serde_json::to_string(&value).unwrap_or_default();
        assert_eq!(serde_json::from_str::<When>(&json).ok(), Some(value));
        let friday = DayRef::Weekday { day: Weekday::Friday, next_week: true };
        let json = serde_json::to_string(&friday).unwrap_or_default();
        assert_eq!(json, r#"{"weekday":{"day":"friday","next_week":true}}"#);
        assert_eq!(serde_json::from_str::<DayRef>(&json).ok(), Some(friday));
    }

    #[test]
    fn readers_never_panic_on_odd_input() {
        let mut inputs: Vec<String> = [
            "",
            " ",
            "\n\t",
            "시",
            "명",
            "분",
            "역",
            "에서",
            "근처",
            "말고",
            "12",
            "99999999999명",
            "1234567890시",
            "::::",
            "12:",
            ":30",
            "at",
            "for",
            "near",
            "in the",
            "quarter to",
            "half past",
            "ㅋㅋㅋㅋ",
            "🍜🍜 2명 🍣",
            "é",
            "İstanbul",
            "ß",
            "\u{0}",
            "a\u{301}",
            "１２：３０",
            "열열열열시",
            "두두두 명",
            "- - -",
            "'''",
            ",,,,",
            "을지로,,,,강남역",
            "near the the the",
            "x 말고",
            "말고",
            "아니",
            "no,",
            "\u{FEFF}취소",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // A deterministic pseudo-random mix of fragments.
        let fragments = [
            "12", "시", " ", "명", "반", "pm", ":", "근처", "에서", "near ", "표", "코드", "둘이", "열", "at ", "for ",
            "말고", "아니", "ㅠ", "🍜", "-", "'", ",",
        ];
        let mut seed: u64 = 0x5EED;
        for _ in 0..300 {
            let mut s = String::new();
            for _ in 0..(seed % 9) {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let index = usize::try_from((seed >> 33) % fragments.len() as u64).unwrap_or(0);
                s.push_str(fragments[index]);
            }
            seed = seed.wrapping_add(7);
            inputs.push(s);
        }
        inputs.push("을지로 2명 12시 ".repeat(60));
        for input in &inputs {
            let _ = read_when(input);
            let _ = parse_party_size(input);
            let _ = parse_place(input);
            let _ = parse_format(input);
            let _ = is_cancel(input);
            let _ = is_correction(input);
        }
    }
}
