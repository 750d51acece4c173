//! The place reader: areas, stations, landmarks and "near X" phrases.

use super::*;
use crate::engine::words::WordList;

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
pub(super) const KO_AREAS: WordList = WordList("강남|홍대|이태원|성수|여의도|명동|신촌|잠실|판교|종로|을지로|\
    합정|건대|압구정|청담|광화문|서초|역삼|선릉|연남|망원|한남|용산|마포|가로수길|경리단길|익선동|서촌|\
    북촌|삼청동|인사동|동대문|남대문|충무로|혜화|대학로|노원|목동|영등포|구로|가산|상암|사당|신림|\
    왕십리|성북|이대|문래|연희|송파|강동|강서|분당|일산|수원|인천|부산|해운대|대구|대전|광주|제주|서울|\
    뚝섬|코엑스|공덕|마곡|위례|동탄|서울숲|한강|삼각지|교대|방배|논현|신논현|양재|도곡|대치|천호|연신내|\
    불광|홍제|서대문|회기|청량리|수유|안암|상수|신도림|여의나루|노량진|흑석|이촌|옥수|약수|신당|청계천|\
    광장시장|성수동|연남동|판교역");

/// The same places in romanised English, lower case.
#[rustfmt::skip]
pub(super) const EN_AREAS: WordList = WordList("gangnam|hongdae|itaewon|seongsu|yeouido|myeongdong|sinchon|\
    jamsil|pangyo|jongno|euljiro|hapjeong|apgujeong|cheongdam|gwanghwamun|seocho|yeoksam|seolleung|\
    yeonnam|mangwon|hannam|yongsan|mapo|garosu|gyeongnidan|ikseon|seochon|bukchon|samcheong|insadong|\
    dongdaemun|namdaemun|chungmuro|hyehwa|daehakro|nowon|mokdong|yeongdeungpo|guro|sangam|sadang|sillim|\
    wangsimni|seongbuk|mullae|yeonhui|songpa|bundang|ilsan|suwon|incheon|busan|haeundae|daegu|daejeon|\
    gwangju|jeju|seoul|ttukseom|coex|gongdeok|magok|sinsa|samseong|gangbuk|gangseo|konkuk|kondae|\
    sindang|downtown|midtown|uptown");

/// Place nouns that end an English place name: "Gangnam Station", "Hongik University".
#[rustfmt::skip]
pub(super) const EN_PLACE_NOUNS: WordList = WordList("station|stn|street|st|road|rd|avenue|ave|market|mall|\
    district|park|tower|square|plaza|university|campus|center|centre|building|hall|hotel|airport|\
    terminal|office|village|gil|dong|gu|ro");

/// Korean words that end 역 but are not stations: 지역 (region), 무역 (trade), 번역
/// (translation), 영역 (area of work), 구역 (zone), 전역 (everywhere), 해역 (sea area),
/// 수역 (waters), 권역 (sphere), 직역/의역 (literal/free translation), 성역 (sanctuary),
/// 병역 (military service), 하역 (unloading), 노역 (labour).
pub(super) const KO_NOT_STATIONS: WordList =
    WordList("지역|무역|번역|영역|구역|전역|해역|수역|권역|직역|의역|성역|병역|하역|노역");

/// Korean words ending 구 that are not districts: 문방구 (stationer), 비상구 (emergency exit),
/// 출입구 (doorway), 개찰구 (ticket gate), 놀이기구 (ride), 운동기구 (gym equipment).
pub(super) const KO_NOT_DISTRICTS: WordList = WordList("문방구|비상구|출입구|개찰구|놀이기구|운동기구");

/// Particles that can follow a place name: 에서 (at), 으로/로 (to), 에 (at), 이요/요
/// (it's ~), 은/는/이/가 (topic/subject), 을/를 (object), 도 (also), 의 (of), 랑 (and),
/// 서 (at, after a vowel), 까지 (up to), 부터 (from), 쪽 (side).
#[rustfmt::skip]
pub(super) const KO_PARTICLES: WordList = WordList(
    "에서는|에서도|에서만|에서요|으로요|이에요|에서|으로|에는|에도|에요|이랑|이요|까지|부터|쪽으로|쪽에서|에|로|요|은|\
    는|이|가|을|를|도|의|랑|서|쪽",
);

/// Cues after a place name that make the word before it a place whatever it is:
/// 근처 (near), 부근 (vicinity), 주변 (around), 인근 (nearby), 근방 (nearby), 일대 (area),
/// 맛집 (good restaurants in), 가까운/가까이 (close to).
pub(super) const KO_STRONG_PLACE_CUES: WordList = WordList("근처|부근|주변|인근|근방|일대|맛집|가까운|가까이");
/// Cues that also follow ordinary words, so they need a place-like word before them:
/// 쪽 (side; 오른쪽 is "right side"), 앞 (in front of), 방면/방향 (towards).
pub(super) const KO_WEAK_PLACE_CUES: WordList = WordList("쪽|앞|방면|방향");

/// Generic spots named after a landmark: 출구 (exit), 입구 (entrance), 사거리 (crossroads),
/// 교차로 (junction), 골목 (alley), 건너편/맞은편 (across from), 뒤편 (behind),
/// 먹자골목 (food alley); "강남역 2번 출구" keeps the landmark.
pub(super) const KO_GENERIC_SPOTS: WordList = WordList("출구|입구|사거리|교차로|골목|건너편|맞은편|뒤편|먹자골목");

/// Words that are never places: here/there (여기/거기/저기/이곳/그곳/어디), anywhere
/// (아무데나), us/me (우리/저희/나/저), now (지금), neighbourhood (동네),
/// and the time words 오늘/내일/모레 (days), 점심/저녁/아침 (meals), 오전/오후 (am/pm),
/// 주말/평일 (weekend/weekday), 시간 (time), 메뉴 (menu), 회의 (meeting), 중 (among),
/// 식당/가게/맛집 (restaurant, shop), 지역 (region), 한국어/영어 (languages), weekdays, and
/// what stands before 쪽/앞 without being a place: 바로 (right), 오른/왼 (right/left),
/// 반대/다른 (opposite/other), 한/어느/맨 (one/which/very), 양 (both), 코/눈 (nose/eye: "right in front"), 뒤/위/아래/옆 (sides).
#[rustfmt::skip]
pub(super) const KO_NOT_PLACES: WordList = WordList(
    "여기|거기|저기|이곳|그곳|저곳|어디|어디든|어디서|여기서|거기서|저기서|아무데나|아무데|아무|아무곳|근처|주변|이쪽|\
    그쪽|저쪽|우리|저희|나|저|너|제|내|이|그|요|거|지금|동네|현위치|현재|오늘|내일|모레|점심|저녁|아침|오전|오후|새벽|\
    밤|낮|주말|평일|시간|메뉴|회의|중|이중|결과|목록|리스트|문서|한국|한국어|영어|월요일|화요일|수요일|목요일|금요일|\
    토요일|일요일|다음주|이번주|식당|가게|맛집|지역|이지역|이동네|바로|오른|왼|반대|다른|한|어느|맨|양|코|눈|뒤|앞|위|\
    아래|옆",
);

/// English words that are never places, lower case: vague spots, people, times, languages.
#[rustfmt::skip]
pub(super) const EN_NOT_PLACES: WordList = WordList("here|there|me|us|you|it|them|anywhere|somewhere|nearby|\
    around|home|work|this|that|least|all|total|person|advance|general|detail|short|summary|mind|english|\
    korean|today|tomorrow|tonight|noon|midday|midnight|lunch|lunchtime|dinner|breakfast|brunch|supper|\
    morning|afternoon|evening|night|weekend|now|later|time|monday|tuesday|wednesday|thursday|friday|\
    saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|\
    december|restaurant|restaurants|place|places|spot|spots|area|a|an|the|my|our|your|one|two|three|\
    four|five|six");

/// Words that end an English place phrase: "near Gangnam station for 3 at noon".
#[rustfmt::skip]
pub(super) const EN_PHRASE_STOP: WordList = WordList("for|at|on|with|and|or|but|tomorrow|today|tonight|around|\
    by|this|next|please|pls|to|in|near|because|so|since|who|that|which|where|when|we|i|you|it|me|us|is|\
    are|was|be|lunch|dinner|breakfast|brunch|supper|noon|morning|afternoon|evening|night|about|from|of|\
    if|then|maybe|thanks|plus|like|would|could|should|can|will|let|lets|sometime|instead|not|rather|\
    after|before|party|table|people|person|ppl|pax|guests|am|pm|as|a|an|the|o'clock|just|only|say|okay|\
    ok");

/// Trailing English words dropped from a place phrase: "Gangnam area" → "Gangnam".
pub(super) const EN_PHRASE_TRAILING: WordList = WordList("area|side|neighborhood|neighbourhood|way");

pub(super) fn ko_stems(word: &str) -> Vec<&str> {
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
pub(super) fn ko_place_like(word: &str) -> bool {
    if word.is_empty() || !word.chars().all(|c| is_hangul(c) || c.is_ascii_digit()) {
        return false;
    }
    if KO_AREAS.contains(word) {
        return true;
    }
    // 역 (station), 동 (neighbourhood), 입구 (entrance), 입구역 (entrance station),
    // 시장 (market), 사거리 (crossroads)
    for suffix in WordList("입구역|입구|역|동|시장|사거리") {
        if word.strip_suffix(suffix).is_some_and(|stem| KO_AREAS.contains(stem)) {
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
        if last == Some('역') && syllables >= 2 && !KO_NOT_STATIONS.contains(word) {
            return true;
        }
        if last == Some('동') && syllables >= 3 {
            return true;
        }
        if last == Some('구') && syllables >= 3 && !KO_NOT_DISTRICTS.contains(word) {
            return true;
        }
    }
    false
}

/// An English phrase that names a place: a known area (with -dong/-gu/station and the like)
/// or anything ending in a place noun.
pub(super) fn en_place_like(phrase: &str) -> bool {
    let lower = phrase.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    let base = first.split('-').next().unwrap_or(first).trim_end_matches("'s");
    let base = WordList("dong|gu|ro|gil|yeok")
        .iter()
        .find_map(|s| base.strip_suffix(s).filter(|b| EN_AREAS.contains(b)))
        .unwrap_or(base);
    EN_AREAS.contains(base) || words.last().is_some_and(|w| words.len() > 1 && EN_PLACE_NOUNS.contains(w))
}

/// True unless the candidate is a time, a count, a format, or a vague word.
pub(super) fn is_place_candidate(candidate: &str) -> bool {
    let candidate = candidate.trim();
    if candidate.is_empty() {
        return false;
    }
    let lower = candidate.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    if KO_NOT_PLACES.contains(candidate) || EN_NOT_PLACES.contains(lower.as_str()) || EN_NOT_PLACES.contains(first) {
        return false;
    }
    if candidate.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    parse_when(candidate).is_none() && parse_party_size(candidate).is_none() && parse_format(candidate).is_none()
}

/// Source ranks for place mentions: a cue beats a known name, which beats a bare list item.
pub(super) const RANK_CUE: u8 = 0;
pub(super) const RANK_WEAK_CUE: u8 = 1;
pub(super) const RANK_NAME: u8 = 2;
pub(super) const RANK_LIST_ITEM: u8 = 3;

pub(super) fn place_mentions(text: &str) -> Vec<Mention<String>> {
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
                    if KO_STRONG_PLACE_CUES.contains(x_text) || KO_WEAK_PLACE_CUES.contains(x_text) {
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
            for ending in WordList("에서는|에서도|에서만|에서요|에서") {
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
pub(super) fn extend_generic_spot(
    text: &str,
    toks: &[Token],
    first_idx: usize,
    start: usize,
    word: &str,
) -> (usize, String) {
    let generic = |w: &str| KO_GENERIC_SPOTS.contains(w) || w.chars().next().is_some_and(|c| c.is_ascii_digit());
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
pub(super) fn en_known_place(text: &str, toks: &[Token], i: usize) -> Option<(usize, usize)> {
    let tok = toks.get(i)?;
    if !tok.text.chars().next()?.is_ascii_alphabetic() {
        return None;
    }
    let next = toks.get(i + 1).filter(|n| {
        text.get(tok.end..n.start).is_some_and(|g| g.chars().all(char::is_whitespace))
            && EN_PLACE_NOUNS.contains(n.text.to_ascii_lowercase().as_str())
    });
    if en_place_like(tok.text) {
        return Some((tok.start, next.map_or(tok.end, |n| n.end)));
    }
    let capitalised = tok.text.chars().next()?.is_ascii_uppercase();
    let before_ok = i == 0 || !EN_PHRASE_STOP.contains(tok.text.to_ascii_lowercase().as_str());
    match next {
        Some(n) if capitalised && before_ok && n.text.chars().next()?.is_ascii_uppercase() => Some((tok.start, n.end)),
        _ => None,
    }
}

/// The words after an English cue, up to a stop word, a digit or punctuation.
pub(super) fn en_place_phrase(text: &str, toks: &[Token], cue_end: usize) -> Option<(usize, usize)> {
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
            let numbered =
                j > i && WordList("exit|gate|entrance|door|platform").contains(toks[j - 1].text.to_ascii_lowercase());
            if numbered {
                last = Some(j);
            }
            break;
        }
        if !t.text.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) || EN_PHRASE_STOP.contains(lower.as_str()) {
            break;
        }
        last = Some(j);
    }
    let mut last = last?;
    while last > i && EN_PHRASE_TRAILING.contains(toks[last].text.to_ascii_lowercase()) {
        last -= 1;
    }
    Some((toks[i].start, toks[last].end))
}

/// Korean endings that make a lone word a verb or a reply, not a name: 좋아요 (fine),
/// 그래 (ok), 맞다 (right), 할까 (shall we)…
pub(super) const KO_VERB_ENDINGS: &[char] =
    &['다', '요', '죠', '까', '네', '지', '어', '아', '해', '야', '게', '자', '고', '며', '면', '래', '께'];

pub(super) fn list_item_places(text: &str, add: &mut impl FnMut(usize, usize, u8, &str)) {
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
