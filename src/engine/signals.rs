//! Reading what a user's reply means for the discussion: satisfied or more feedback,
//! and which design they pointed at.

use std::sync::OnceLock;

use regex_lite::Regex;

use super::words::WordList;

/// Korean satisfaction keywords, matched as substrings (seed 000), plus two common
/// ways of saying "that one".
// 좋아: good / I like it; 괜찮: fine; 확인: confirmed; 선택: (I) choose; 결정: decided; 이걸로: with this one;
// 이것으로: with this one; 승인: approved; 동의: agreed; 그걸로: with that one; 마음에 들: I like it
const KO_SATISFIED: WordList = WordList("좋아|괜찮|확인|선택|결정|이걸로|이것으로|승인|동의|그걸로|마음에 들");

/// Korean negations that cancel a keyword next to them.
// "안 ": not; "안": not (attached); "못 ": cannot; "못": cannot (attached); 별로: not really
const KO_NEGATED: WordList = WordList("안 |안|못 |못|별로");

/// Korean endings after a keyword that negate it: "괜찮지 않아", "결정 못 하겠어".
const KO_NEGATING_TAILS: WordList =
    WordList("지 않|지않|지 못|지못|지 마|지마|지는 않| 못| 안 |기 어려|기 힘들|할지 모르|을지 모르|지 모르|모르겠");

/// Korean words that turn a reply into a change request even when it sounds pleased:
/// "좋아, 근데 비용을 줄여줘" is feedback.
// 근데: but; 하지만: however; 그런데: but; 다만: except that; 대신: instead; 바꿔: change it; 변경: change; 추가: add;
// 빼: drop; 줄여: reduce; 늘려: increase; 수정: revise; 말고: not that one but; 면 좋겠: it would be nice if; 했으면: I
// wish; "더 ": more (spaced)
const KO_CHANGE_MARKERS: WordList =
    WordList("근데|하지만|그런데|다만|대신|바꿔|변경|추가|빼|줄여|늘려|수정|말고|면 좋겠|했으면|더 ");

fn en_keyword() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(ok|okay|good|great|perfect|confirm|confirmed|select|choose|approve|approved|agree|agreed|lgtm|go\s+with)\b")
            .expect("satisfaction pattern compiles")
    })
}

fn en_negation_before() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // A negator at most two words before the keyword: "not ok", "doesn't look good",
        // "can't really choose".
        Regex::new(r"(?i)\b(not|no|never|hardly|neither|nor|cannot|can't|cant|don't|dont|doesn't|doesnt|isn't|isnt|wasn't|aren't|won't|wouldn't|shouldn't)(\s+\w+){0,2}\s*$")
            .expect("negation pattern compiles")
    })
}

fn en_change_marker() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(but|however|instead|except|add|remove|drop|change|replace|swap|reduce|increase|cheaper|faster|simpler|fewer|more|less|without|rather)\b")
            .expect("change pattern compiles")
    })
}

/// True when the reply signals the user is satisfied and wants to settle:
/// a satisfaction keyword that is not negated, not asked as a question, and not
/// followed by a change request.
pub fn is_satisfied(text: &str) -> bool {
    let text = text.trim();
    if text.is_empty() || text.ends_with('?') || text.ends_with('？') {
        return false;
    }
    korean_satisfied(text) || english_satisfied(text)
}

/// Korean words of doubt that rule out a decision anywhere in the reply.
// 모르겠: I don't know; 어려워: it's hard (to decide); 어렵: hard; 고민: still thinking; 헷갈: confused
const KO_UNDECIDED: WordList = WordList("모르겠|어려워|어렵|고민|헷갈");

fn korean_satisfied(text: &str) -> bool {
    if KO_CHANGE_MARKERS.iter().chain(KO_UNDECIDED).any(|m| text.contains(m)) {
        return false;
    }
    KO_SATISFIED.iter().any(|keyword| {
        text.match_indices(keyword).any(|(at, _)| {
            let before = &text[..at];
            let after = &text[at + keyword.len()..];
            // A plan's "안" ("C안 좋아요", "추천안 좋아") is a noun, not the negation "안".
            let plan_noun = super::reply::is_plan_noun(before);
            let negated_before = (KO_NEGATED.iter().any(|neg| before.ends_with(neg)) && !plan_noun)
                || before.contains("별로")
                || (before.trim_end().ends_with("안") && !plan_noun);
            // "좋아" right after "<something>게"/"<something>면" states a preference
            // ("빠른 게 좋아": fast is better), not approval of a design.
            let preference = keyword == "좋아" && is_korean_preference(before);
            let negated_after = KO_NEGATING_TAILS
                .iter()
                .any(|tail| after.starts_with(tail) || after.trim_start().starts_with(tail.trim()))
                || after.trim_start().starts_with("않");
            !negated_before && !negated_after && !preference
        })
    })
}

/// "빠른 게 좋아", "싸면 좋아" are preferences; "이게 좋아", "그게 좋아" are approvals.
pub(crate) fn is_korean_preference(before: &str) -> bool {
    let word = before.trim_end().rsplit(char::is_whitespace).next().unwrap_or("");
    let demonstrative = WordList("이게|그게|저게|이거|그거|저거|이것이|그것이|다|모두|전부|네|예|응");
    if word.is_empty() || demonstrative.iter().any(|d| word == d || word.ends_with(&format!("번{d}"))) {
        return false;
    }
    if word.ends_with("번이") || word.ends_with("번이가") || word.ends_with("안이") {
        return false;
    }
    word.ends_with('게') || word.ends_with('면') || word.ends_with("것이") || word.ends_with("편이")
}

fn english_satisfied(text: &str) -> bool {
    if en_change_marker().is_match(text) {
        return false;
    }
    en_keyword().find_iter(text).any(|m| {
        let after: Vec<String> = text[m.end()..]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        !en_negation_before().is_match(&text[..m.start()]) && !conditional_follows(&after)
    })
}

/// True when a condition opens within the next three words ("good if …", "fine as long
/// as …", "ok only when …"): the word then says what would be good, not that this is.
pub(crate) fn conditional_follows(words: &[String]) -> bool {
    const CONDITIONS: WordList = WordList("if|when|whenever|unless|provided|providing|once|as long|so long");
    let next: Vec<&str> = words.iter().take(3).map(String::as_str).collect();
    next.iter().enumerate().any(|(i, w)| {
        CONDITIONS.contains(*w) || next.get(i + 1).is_some_and(|n| CONDITIONS.contains(format!("{w} {n}")))
    })
}

/// Which design a reply points at, if exactly one: by number ("2번", "option 2",
/// "the second"), by letter ("B안", "plan B"), as the recommended one, or by name.
/// `names` are the designs' names in order; `recommended` is the recommended index.
pub fn parse_choice(text: &str, names: &[&str], recommended: Option<usize>) -> Option<usize> {
    let count = names.len();
    if count == 0 {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let mut found: Vec<usize> = Vec::new();
    fn add(found: &mut Vec<usize>, count: usize, i: usize) {
        if i < count && !found.contains(&i) {
            found.push(i);
        }
    }

    for (i, words) in ORDINALS.iter().enumerate() {
        if words.iter().any(|w| lower.contains(w)) {
            add(&mut found, count, i);
        }
    }
    if LAST_WORDS.iter().any(|w| lower.contains(w)) {
        add(&mut found, count, count - 1);
    }
    for caps in number_choice().captures_iter(&lower) {
        let digit = caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3));
        if let Some(n) = digit.and_then(|m| m.as_str().parse::<usize>().ok()) {
            if n >= 1 {
                add(&mut found, count, n - 1);
            }
        }
    }
    for caps in letter_choice().captures_iter(&lower) {
        let letter = caps.get(1).or_else(|| caps.get(2)).map(|m| m.as_str());
        if let Some(letter) = letter.and_then(|l| l.chars().next()) {
            add(&mut found, count, (letter as u8 - b'a') as usize);
        }
    }
    if let Some(r) = recommended {
        if RECOMMENDED_WORDS.iter().any(|w| lower.contains(w)) {
            add(&mut found, count, r);
        }
    }
    if found.is_empty() {
        for (i, name) in names.iter().enumerate() {
            let name = super::lang::normalize(name);
            if !name.is_empty() && super::lang::normalize(text).contains(&name) {
                add(&mut found, count, i);
            }
        }
    }
    if found.is_empty() {
        // A bare number is a choice: "2", "2!", "two", "둘" (two).
        let bare = text.trim().trim_end_matches(['.', '!', ')']).to_ascii_lowercase();
        // 하나: one; 둘: two; 셋: three
        let word =
            [WordList("one|하나"), WordList("two|둘"), WordList("three|셋")].iter().position(|w| w.contains(&bare));
        if let Some(n) = bare.parse::<usize>().ok().or(word.map(|i| i + 1)) {
            if n >= 1 {
                add(&mut found, count, n - 1);
            }
        }
    }
    if found.len() == 1 {
        found.first().copied()
    } else {
        None
    }
}

/// Ordinal words for the first three designs, Korean and English.
const ORDINALS: [WordList; 3] = [
    WordList("첫 번째|첫번째|첫째|first|1st"),
    WordList("두 번째|두번째|둘째|second|2nd"),
    WordList("세 번째|세번째|셋째|third|3rd"),
];

/// "the last one", Korean and English.
const LAST_WORDS: WordList = WordList("마지막|last one|the last");

/// "the recommended one", Korean and English.
const RECOMMENDED_WORDS: WordList = WordList("추천|recommended");

fn number_choice() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // "2번", "2안"; "option 2", "design #2", "number 2", "#2"
        Regex::new(r"(\d)\s*(?:번|안)|(?:option|design|proposal|plan|number|no\.)\s*#?\s*(\d)\b|#(\d)\b")
            .expect("number pattern compiles")
    })
}

fn letter_choice() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // "b안"; "option b", "plan c"
        Regex::new(r"(?:^|[^a-z])([abc])\s*안|(?:option|plan|design|proposal)\s+([abc])\b")
            .expect("letter pattern compiles")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn korean_satisfaction_keywords_are_detected() {
        let yes = [
            "좋아요",
            "좋아, 이걸로 가자",
            "괜찮네요",
            "확인했습니다",
            "2번으로 선택할게요",
            "결정했어요",
            "이걸로 해주세요",
            "이것으로 진행",
            "승인합니다",
            "동의해요",
            "이게 좋아",
            "2번이 좋아요",
            "마음에 들어요",
            "C안 좋아요",
            "B안이 마음에 들어요",
            "추천안 좋아요",
        ];
        for text in yes {
            assert!(is_satisfied(text), "should be satisfied: {text}");
        }
    }

    #[test]
    fn korean_negations_questions_and_change_requests_are_not_satisfaction() {
        let no = [
            "안 좋아요",
            "별로 안 좋아",
            "괜찮지 않아요",
            "괜찮지않네",
            "결정 못 하겠어",
            "아직 선택하기 어려워요",
            "뭘 선택할지 모르겠어",
            "이거 괜찮아?",
            "좋아, 근데 비용을 줄여줘",
            "검증 단계를 추가해 주세요",
            "빠른 게 좋아",
            "더 저렴하면 좋겠어",
            "별로예요",
            "3번 안 좋아요",
            "정말 안 좋아",
        ];
        for text in no {
            assert!(!is_satisfied(text), "should not be satisfied: {text}");
        }
    }

    #[test]
    fn english_satisfaction_uses_word_boundaries_and_negation() {
        let cases = [
            ("ok", true),
            ("OK, let's go", true),
            ("Looks good to me", true),
            ("I confirm", true),
            ("I'll choose the second one", true),
            ("select option 2", true),
            ("let's go with B", true),
            ("LGTM", true),
            ("not ok", false),
            ("not good", false),
            ("This is not good enough", false),
            ("doesn't look good", false),
            ("I can't choose yet", false),
            ("is this ok?", false),
            ("good, but make it cheaper", false),
            ("add a validator", false),
            ("book a table", false),
            ("goodness, that's expensive", false),
            ("okayish", false),
        ];
        for (text, want) in cases {
            assert_eq!(is_satisfied(text), want, "{text}");
        }
    }

    #[test]
    fn choice_is_read_from_numbers_ordinals_letters_and_names() {
        let names =
            ["Simple Sequential Pipeline", "Standard Pipeline with Validation", "Advanced Multi-Agent Pipeline"];
        let cases: &[(&str, Option<usize>)] = &[
            ("2번이 좋아요", Some(1)),
            ("1번으로 할게요", Some(0)),
            ("세 번째로 결정", Some(2)),
            ("B안으로 가자", Some(1)),
            ("option 3 please", Some(2)),
            ("I'll take the first", Some(0)),
            ("plan c is fine", Some(2)),
            ("the last one", Some(2)),
            ("추천안으로 할게요", Some(1)),
            ("go with the recommended one", Some(1)),
            ("standard pipeline with validation is good", Some(1)),
            ("2", Some(1)),
            ("좋아요", None),
            ("1번이나 2번", None),
            ("5번", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_choice(text, &names, Some(1)), *want, "{text}");
        }
        assert_eq!(parse_choice("2번", &[], None), None);
    }
}
