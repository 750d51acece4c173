//! The party-size reader: how many people, in numerals, native Korean and English words.

use super::*;

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
pub(super) const KO_NOT_PEOPLE_AFTER_MYEONG: &[char] =
    &['동', '함', '절', '소', '단', '품', '성', '령', '언', '란', '칭', '확', '문', '작', '물', '당'];
/// Syllables that make 분 part of another word: 분위기 (mood), 분석 (analysis), 분야 (field),
/// 분량 (amount), 분류 (category), 분리 (split), 분명 (clearly), 분식 (snack food),
/// 분점 (branch), 분배 (share), 분할 (split), 분노 (anger), 분해 (take apart), 분실 (loss),
/// 분수 (fountain), 분자 (molecule), 분담 (share), 분쟁 (dispute), 분포 (spread),
/// 분기 (quarter), 분필 (chalk), 분산 (spread), 분출 (burst), 분당 (per minute / Bundang).
pub(super) const KO_NOT_PEOPLE_AFTER_BUN: &[char] = &[
    '위', '석', '야', '량', '류', '리', '명', '식', '점', '배', '할', '노', '해', '실', '수', '자', '담', '쟁', '포',
    '기', '필', '산', '출', '당',
];

pub(super) fn party_mentions(text: &str) -> Vec<Mention<u32>> {
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
        let alone = WordList("혼자|혼자서|혼자요|혼자예요|혼자에요|혼잔데|혼자라").contains(word)
            || word.starts_with("혼밥")
            || word.starts_with("혼술");
        if alone {
            claim(&mut found, t.start, t.end, 0, 1);
            continue;
        }
        let next_word = toks.get(i + 1).map_or("", |n| n.text);
        if WordList("다|다요|중|중에|중에서|째").contains(next_word) {
            continue;
        }
        // 이서 / 이서요 / 이요 / 이에요 / 이야 / 이 : "as ~ people"
        let with_suffix = WordList("이서요|이서|이에요|이요|이야|이").iter().find_map(|s| word.strip_suffix(s));
        let counted = match with_suffix {
            Some(stem) => WordList("둘|셋|넷|다섯|여섯|일곱|여덟|아홉|열")
                .contains(stem)
                .then(|| native_korean_number(stem))
                .flatten(),
            None => {
                let after_we = i > 0 && WordList("우리|저희").contains(toks[i - 1].text);
                // "점심에 둘, 강남": the numeral ends a clause of its own.
                let ends_item = toks.get(i + 1).is_none_or(|n| {
                    text.get(t.end..n.start).is_some_and(|gap| gap.chars().any(|c| !c.is_whitespace()))
                });
                if (after_we || ends_item) && WordList("둘|셋|넷|다섯|여섯").contains(word) {
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
