//! The time reader: days, dates, weekdays, meals and clock times, Korean and English.

use super::*;

/// Part of the day a bare hour belongs to, from 오후/pm/저녁/lunch and the like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DayPart {
    Am,
    Pm,
    Lunch,
    Evening,
    Night,
}

/// A clock time as said, before the day part turns it into 24-hour time.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
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
pub(super) fn resolve_clock(clock: Clock, meal: Option<Meal>) -> Result<(u8, u8), SlotError> {
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

pub(super) fn day_mentions(text: &str) -> Vec<Mention<DayRef>> {
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
pub(super) const EN_MONTH: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

pub(super) fn meal_mentions(text: &str) -> Vec<Mention<Meal>> {
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
pub(super) const KO_NOT_CLOCK_AFTER_SI: &[char] = &[
    '간', '작', '장', '청', '내', '설', '험', '계', '즌', '민', '대', '켜', '키', '식', '골', '스', '적', '름', '점',
    '트', '기', '티', '리',
];

/// Words that may stand right before a native hour word (오후한시): 오전/오후 (a.m./p.m.),
/// 아침 (morning), 저녁 (evening), 밤 (night), 새벽 (small hours), 낮 (daytime), 점심 (lunch),
/// 내일 (tomorrow), 오늘 (today), 모레 (day after tomorrow).
pub(super) const KO_TIME_PREFIXES: WordList = WordList("오전|오후|아침|저녁|밤|새벽|낮|점심|내일|오늘|모레");

pub(super) fn clock_mentions(text: &str) -> Vec<Mention<Clock>> {
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
pub(super) fn local_day_part(text: &str, start: usize, end: usize) -> Option<DayPart> {
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
