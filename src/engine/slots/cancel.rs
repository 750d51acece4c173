//! Cancel and correction: whether a message calls the request off or corrects a slot.

use super::*;
use crate::engine::words::WordList;

/// Words of a normalised message, without jamo-only laughter or tears (ㅋㅋ, ㅠㅠ).
pub(super) fn words(normalized: &str) -> Vec<&str> {
    normalized
        .split(' ')
        .filter(|w| !w.is_empty() && !w.chars().all(|c| ('\u{3131}'..='\u{318E}').contains(&c)))
        .collect()
}

/// English openers and softeners dropped before reading a short cancel message; each entry is
/// a run of words separated by spaces.
pub(super) const EN_CANCEL_LEADS: WordList = WordList(
    "i want to|i d like to|i would like to|i wanna|can you|could you|can we|could we|let s|lets|\
    we should|please|pls|just|ok|okay|oh|well|um|uh|hmm|actually|sorry|no|nah|hey|ah|so|then|oops",
);
pub(super) const EN_CANCEL_TAILS: WordList = WordList("please|pls|thanks|now|then|instead");

/// Short English messages that call the request off.
#[rustfmt::skip]
pub(super) const EN_CANCEL_PHRASES: WordList = WordList(
    "cancel|cancel it|cancel this|cancel that|cancel everything|cancel all|cancel all of it|cancel the request|\
    cancel my request|cancel request|cancel the booking|cancel the reservation|cancel the plan|cancel the whole thing|\
    never mind|nevermind|nvm|forget it|forget about it|forget that|forget this|forget the whole thing|stop|stop it|\
    stop this|stop that|stop here|abort|abort it|quit|i quit|give up|i give up|scrap it|scrap that|scrap this|drop it|\
    drop this|call it off|i changed my mind|changed my mind|i m out|not anymore|don t bother|no need|no need anymore|\
    end this|end it",
);

/// Korean openers dropped before reading a short cancel message: 아/앗/음/흠/어/에이
/// (ah, um), 그냥 (just), 아니/아니요/아뇨 (no), 그럼/그러면 (then), 아무래도 (on second
/// thought), 죄송한데/미안한데 (sorry, but), 저기/저기요 (excuse me), 근데 (but).
#[rustfmt::skip]
pub(super) const KO_CANCEL_LEADS: WordList = WordList("아|앗|음|흠|어|에이|그냥|아니|아니요|아뇨|그럼|그러면|\
    아무래도|죄송한데|죄송하지만|미안한데|미안하지만|저기|저기요|근데");
/// What the cancelling may be about: 이거/이건/그거 (this/that), 다/전부/모두 (all),
/// 요청 (the request), 예약 (the booking), 주문 (the order), 이번 (this one).
#[rustfmt::skip]
pub(super) const KO_CANCEL_OBJECTS: WordList = WordList(
    "이거|이건|그거|그건|저거|다|전부|모두|요청|요청은|예약|예약은|주문|이번|이번건",
);
/// Polite closers: 감사합니다/고마워 (thanks), 죄송해요/미안 (sorry).
pub(super) const KO_CANCEL_TAILS: WordList =
    WordList("감사합니다|고마워|고마워요|고맙습니다|죄송해요|죄송합니다|미안|미안해요");
/// Verbs of calling off: 취소 (cancel), 그만 (stop), 중단/중지 (halt).
pub(super) const KO_CANCEL_STEMS: WordList = WordList("취소|그만|중단|중지");
/// Endings on those verbs: 해/해요/해줘/해주세요 (do it), 할게/할래 (I will), 하자
/// (let's), 합니다 (formal), 하고싶어 (want to), 부탁해요 (please), 둘래/두자 (quit); no ending
/// at all (a bare 취소) is accepted where the list is read.
#[rustfmt::skip]
pub(super) const KO_CANCEL_ENDINGS: WordList = WordList(
    "요|해|해요|해줘|해줘요|해주세요|해줄래|해주라|할게|할게요|할래|할래요|하자|합시다|합니다|하겠습니다|하고싶어|\
    하고싶어요|하고싶습니다|하고싶은데|하고싶은데요|부탁해요|부탁드려요|부탁드립니다|좀|좀해줘|좀해주세요|해야겠어|\
    해야겠어요|해야겠다|시켜줘|시켜주세요|둘래|둘래요|둘게|둘게요|두자|둬|둬요|할께|할께요",
);
/// Other whole Korean messages that call it off: 됐어 (never mind), 관둘래/관둬 (drop it),
/// 안 할래 (I won't), 필요 없어 (no need), 없던 일로 (as if it never happened),
/// 다음에/나중에 할게 (another time), 멈춰 (stop), 스톱/캔슬 (stop/cancel), 안 갈래 (not going).
#[rustfmt::skip]
pub(super) const KO_CANCEL_PHRASES: WordList = WordList("됐어|됐어요|됐다|됐습니다|됐고|관둘래|관둘래요|\
    관둘게|관둘게요|관둬|관둬요|관두자|안할래|안할래요|안할게|안할게요|안해|안해요|필요없어|필요없어요|\
    필요없습니다|이제필요없어|이제필요없어요|없던일로|없던일로해줘|없던일로해주세요|없던일로할게요|\
    없던걸로|없던걸로해줘|없던걸로해주세요|없던걸로할게요|다음에할게|다음에할게요|나중에할게|\
    나중에할게요|멈춰|멈춰줘|멈춰주세요|스톱|캔슬|안갈래|안갈래요|안먹을래|안먹을래요");

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
        let lead = EN_CANCEL_LEADS.iter().find_map(|lead| {
            let n = lead.split(' ').count();
            (w.len() > n && lead.split(' ').eq(w[..n].iter().copied())).then_some(n)
        });
        if let Some(n) = lead {
            w.drain(..n);
        }
        if w.len() > 1 && KO_CANCEL_LEADS.contains(w[0]) {
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
    if EN_CANCEL_PHRASES.contains(w.join(" ")) {
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
    KO_CANCEL_PHRASES.contains(joined.as_str())
        || KO_CANCEL_STEMS.iter().any(|stem| {
            joined.strip_prefix(stem).is_some_and(|ending| ending.is_empty() || KO_CANCEL_ENDINGS.contains(ending))
        })
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
    let ko_openers =
        WordList("아니|아니요|아뇨|아니오|아니야|아닌데|아닌데요|아니에요|잠깐|잠깐만|아참|앗|틀렸어|틀렸어요");
    let en_openers = WordList("no|nope|nah|not|actually|wait|sorry|oops|oh|hmm");
    let i_mean = w.len() > 2 && w[0] == "i" && w[1] == "mean";
    if !(ko_openers.contains(first) || en_openers.contains(first) || i_mean) {
        return false;
    }
    // 아니 근데 (no but…), 아니 진짜 (no really…): surprise or agreement, not a correction.
    let discourse = WordList(
        "근데|그런데|진짜|정말|뭐|왜|무슨|어떻게|이게|완전|대박|너무|idea|problem|thanks|thank|worries|sure|really|way",
    );
    if w.get(1).is_some_and(|second| discourse.contains(second)) {
        return false;
    }
    carries_value(&prepared)
}

/// True when the text names a slot value or at least a number.
pub(super) fn carries_value(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        || parse_party_size(text).is_some()
        || parse_when(text).is_some()
        || parse_format(text).is_some()
        || parse_place(text).is_some()
}
