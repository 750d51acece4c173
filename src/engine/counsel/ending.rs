//! The user closing a session early ("그만할래요", "let's stop here for today"): the
//! counselor offers to close, and a yes (or the wish said again) ends the session with a
//! farewell and the summary. Without this the counselor asked its next question as if nothing
//! had been said. The crisis check reads every message first, so a message that is also a
//! crisis cue gets the safety response, never an offer to close.

use crate::engine::case::Lower;
use crate::engine::words::WordList;

/// Closing phrases in Korean, read with at most filler words before them; each is a
/// will or a suggestion to stop talking now, never "I want to end it" (a crisis cue).
/// 그만할래/그만할게/그만하자: I'll stop, let's stop; 여기까지: up to here; 마무리: wrap up;
/// 이만: this much; 다음에 또: next time again; 상담/대화 종료·끝: end of the session.
const KO_CLOSING: WordList = WordList(
    "그만할래|그만 할래|그만할게|그만 할게|그만하자|그만 하자|그만 얘기할래|그만 이야기할래|여기까지 할게|여기까지 할래|\
     여기까지만 할게|여기까지 하자|여기까지 해요|오늘은 여기까지|마무리할게|마무리 할게|마무리할래|마무리하고 싶|마무리하자|\
     마무리해 주세요|이만 할게|이만할게|이만 줄일게|이만 가볼게|다음에 또 올게|다음에 또 이야기|다음에 이야기할게|\
     다음에 얘기할게|상담 종료|대화 종료|상담 끝낼게|대화 끝낼게|상담을 끝낼게|대화를 끝낼게",
);

/// Words that may come before a Korean closing phrase: now, today, um, I, just, yes, then, …
const KO_FILLER: WordList = WordList(
    "이제|오늘은|오늘|음|저|저는|그냥|네|넵|아|일단|우선|그럼|그러면|좀|그래서|근데|상담은|대화는|이야기는|얘기는",
);

/// English closing phrases: the whole message, once the fillers around it are dropped.
const EN_CLOSING: WordList = WordList(
    "stop|i want to stop|i'd like to stop|i would like to stop|let's stop|can we stop|could we stop|let's end|\
     can we end|end the session|end this session|end the conversation|i want to end the session|\
     i want to end the conversation|i'd like to end the session|that's enough|enough|i'm done|i am done|\
     let's wrap up|can we wrap up|wrap up|i have to go|i need to go|i gotta go|gotta go|i should go|bye|goodbye|\
     bye bye|talk later|talk to you later|see you|see you later|see you next time",
);

/// Words dropped before an English closing phrase.
const EN_LEAD: WordList =
    WordList("ok|okay|well|um|uh|so|hmm|actually|alright|yeah|fine|anyway|i think|thanks|thank you|ok thanks");

/// Words dropped after an English closing phrase.
const EN_TAIL: WordList =
    WordList("here|now|today|tonight|please|thanks|then|for|thank you|for now|for today|this time");

/// Short answers that say yes to what was just asked (to close, to make an idea the goal).
/// 네/넵/예/응/그래/좋아/그럴게/그렇게: yes, sure, OK; 마무리: wrap up (yes to closing); ㅇㅇ/ㅇㅋ/웅/넹: yes,
/// OK as typed in a chat.
const YES: WordList = WordList(
    "yes|yeah|yep|sure|ok|okay|please|alright|all right|fine|sounds good|let's|definitely|absolutely|\
     네|넵|예|응|그래|그래요|좋아|좋아요|좋습니다|그럴게|그럴게요|그렇게|마무리|ㅇㅇ|ㅇㅋ|웅|넹",
);

/// The message in lower case with straight apostrophes, trimmed of trailing marks.
fn normalized(text: &str) -> String {
    let lower = text.lower().replace('’', "'");
    lower
        .trim()
        .trim_end_matches(|c: char| {
            c.is_whitespace() || c.is_ascii_punctuation() || matches!(c, '…' | 'ㅠ' | 'ㅜ' | 'ㅎ')
        })
        .to_string()
}

/// The English words of a message, letters, digits and apostrophes only.
fn english_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect()
}

/// True when the message asks to close the session now.
pub fn wants_to_end(text: &str) -> bool {
    let t = normalized(text);
    let korean = KO_CLOSING.any(|phrase| {
        t.find(phrase).is_some_and(|at| t[..at].split_whitespace().all(|w| KO_FILLER.contains(w.trim_matches(','))))
    });
    if korean {
        return true;
    }
    let words = without_lead_and_tail(english_words(&t));
    !words.is_empty() && EN_CLOSING.contains(words.join(" "))
}

/// English words without the fillers before (`EN_LEAD`) and after (`EN_TAIL`) what they say.
fn without_lead_and_tail(mut words: Vec<&str>) -> Vec<&str> {
    loop {
        let two = words.len() >= 2 && EN_LEAD.contains(format!("{} {}", words[0], words[1]));
        if two {
            words.drain(..2);
        } else if words.first().is_some_and(|w| EN_LEAD.contains(w)) {
            words.remove(0);
        } else {
            break;
        }
    }
    loop {
        let n = words.len();
        let two = n >= 2 && EN_TAIL.contains(format!("{} {}", words[n - 2], words[n - 1]));
        if two {
            words.truncate(n - 2);
        } else if words.last().is_some_and(|w| EN_TAIL.contains(w)) {
            words.pop();
        } else {
            break;
        }
    }
    words
}

/// Goodbyes said outright, read like `EN_CLOSING` (the whole message once fillers are dropped):
/// the user is leaving, so the session closes without an offer first.
const EN_GOODBYE: WordList = WordList(
    "bye|goodbye|bye bye|good bye|see you|see you later|see you next time|talk later|talk to you later|\
     i have to go|i need to go|i gotta go|gotta go|i should go|good night",
);

/// Korean goodbyes, the whole message once fillers are dropped: 안녕히 계세요/잘 있어요: goodbye (said
/// by the one leaving); 다음에 또 올게요/이만 가볼게요/갈게요: I'll come again, I'll be going.
const KO_GOODBYE: WordList = WordList(
    "안녕히 계세요|안녕히계세요|안녕히 계십시오|잘 있어요|잘 있어|다음에 또 올게요|다음에 또 올게|이만 가볼게요|이만 가볼게|\
     가볼게요|갈게요|먼저 갈게요|바이",
);

/// True when the message is a goodbye said outright ("bye", "thanks, see you", "안녕히 계세요"):
/// the user is leaving now, not asking whether to stop.
pub fn says_goodbye(text: &str) -> bool {
    let t = normalized(text);
    // Fillers and thanks before it: 감사합니다/감사해요/고마워요/고마워: thank you.
    let mut korean = t.as_str();
    while let Some((word, after)) = korean.split_once(char::is_whitespace) {
        let word = word.trim_end_matches([',', '.', '!', '~']);
        if !(KO_FILLER.contains(word)
            || WordList("감사합니다|감사해요|고마워요|고마워|고맙습니다|고마웠어요|감사했어요|오늘").contains(word))
        {
            break;
        }
        korean = after.trim_start();
    }
    if KO_GOODBYE.contains(korean.trim_end_matches(['~', '!', '.', ' '])) {
        return true;
    }
    let words = without_lead_and_tail(english_words(&t));
    !words.is_empty() && EN_GOODBYE.contains(words.join(" "))
}

/// True when a short answer accepts the offer to close (or says the wish again).
pub fn accepts_closing(text: &str) -> bool {
    if wants_to_end(text) {
        return true;
    }
    let t = normalized(text);
    let short = english_words(&t).len() <= 4 && t.chars().count() <= 16;
    short && says_yes(text)
}

/// Answers that say there is nothing more to talk about, each a whole part of the message:
/// "no, thanks", "that's all", "thanks, that helps". 아니요/아니오/아뇨/아니: no; 없어요/없습니다/없어/
/// 딱히 없어요/더 없어요: there is nothing (more); 괜찮아요/괜찮습니다: I'm fine; 됐어요: that will do;
/// 그게 다예요: that's all; 고마워요/고마워/고맙습니다/감사합니다/감사해요: thank you (고마웠어요/감사했어요 …:
/// thank you for it, said at the end); 이제/오늘/오늘은/충분해요: now, today, it's enough.
const NOTHING_MORE: WordList = WordList(
    "no thank you|no thanks|not really|nothing else|nothing more|that's all|that's it|that is all|i'm good|\
     i am good|i'm fine|i'm okay|all good|that helps|that helped|this helps|this helped|thank you so much|\
     thanks a lot|thank you|thanks|thx|nope|nah|nothing|no|for now|for today|really|so much|\
     딱히 없어요|더 없어요|없어요|없습니다|없어|아니요|아니오|아뇨|아니|괜찮아요|괜찮습니다|됐어요|그게 다예요|\
     고마워요|고마워|고맙습니다|감사합니다|감사해요|고마웠어요|고마웠습니다|감사했어요|감사했습니다|이제|오늘|오늘은|충분해요|정말|진짜",
);

/// True when the whole message says there is nothing more to talk about: only phrases of
/// `NOTHING_MORE` ("no, that's all, thank you", "아니요 괜찮아요 고마워요"), with at least one of them
/// saying no or thanks.
pub fn says_nothing_more(text: &str) -> bool {
    let t = normalized(text).replace([',', '.', '!', '~', ';'], " ");
    let mut rest = t.trim();
    if rest.is_empty() {
        return false;
    }
    let mut said_something = false;
    while !rest.is_empty() {
        let found = NOTHING_MORE.iter().find(|p| {
            rest.strip_prefix(*p).is_some_and(|after| after.is_empty() || after.starts_with(char::is_whitespace))
        });
        let Some(phrase) = found else { return false };
        said_something |= !matches!(
            phrase,
            "for now" | "for today" | "really" | "so much" | "이제" | "오늘" | "오늘은" | "정말" | "진짜"
        );
        rest = rest[phrase.len()..].trim_start();
    }
    said_something
}

/// True when `word` (lower case) is one of the short answers that say yes.
pub fn is_yes_word(word: &str) -> bool {
    YES.contains(word)
}

/// True when the message opens with a yes ("yes, every weekday", "네 맞아요", "sounds good").
pub fn says_yes(text: &str) -> bool {
    let t = normalized(text);
    let first = t.split(|c: char| c.is_whitespace() || c == ',' || c == '.' || c == '!').next().unwrap_or("");
    YES.contains(first) || YES.contains(&t)
}

/// The message without the filler words in front ("음 다음 주에 …", "well, I'll …").
pub fn without_fillers(text: &str) -> &str {
    let mut rest = text.trim();
    loop {
        let (word, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let bare = word.trim_end_matches([',', '…', '.']).lower();
        let two = after.split_whitespace().next().map(|next| format!("{bare} {}", next.lower()));
        if two.as_deref().is_some_and(|t| EN_LEAD.contains(t)) {
            rest = after.trim_start().split_once(char::is_whitespace).map_or("", |(_, r)| r).trim_start();
        } else if !after.is_empty() && (KO_FILLER.contains(&bare) || EN_LEAD.contains(&bare)) {
            rest = after.trim_start();
        } else {
            return rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn closing_wishes_are_heard_in_both_languages() {
        for text in [
            "그만할래요",
            "오늘은 여기까지 할게요",
            "이제 마무리할게요~",
            "음 상담 종료",
            "네 그만할게요ㅠㅠ",
            "I want to stop.",
            "ok, let's stop here for today",
            "That's enough for today, thank you",
            "Let’s wrap up",
            "bye",
            "I have to go now",
            "thanks, bye",
            "thank you, I have to go",
        ] {
            assert!(wants_to_end(text), "{text}");
        }
    }

    #[test]
    fn talk_about_stopping_something_else_is_not_a_wish_to_close() {
        for text in [
            "회사 그만할래요",
            "다 그만하고 싶어요",
            "여기까지 오는 데 너무 힘들었어요",
            "이제 다 끝내고 싶어요",
            "I want to stop procrastinating",
            "I can't stop thinking about it",
            "my boss said that's enough from me",
            "I said goodbye to my old job",
        ] {
            assert!(!wants_to_end(text), "{text}");
        }
    }

    #[test]
    fn a_goodbye_said_outright_is_told_from_a_wish_to_stop() {
        for text in [
            "bye",
            "thanks, bye!",
            "ok see you",
            "I have to go now",
            "안녕히 계세요",
            "네 안녕히 계세요~",
            "감사합니다 잘 있어요",
        ] {
            assert!(says_goodbye(text), "{text}");
        }
        for text in
            ["I want to stop", "let's wrap up", "그만할래요", "I said goodbye to my old job", "bye bye to my savings"]
        {
            assert!(!says_goodbye(text), "{text}");
        }
    }

    #[test]
    fn nothing_more_is_a_whole_message_of_no_or_thanks() {
        for text in [
            "no",
            "No, that's all. Thank you!",
            "thanks, that helps",
            "nope, I'm good",
            "아니요",
            "없어요 고마워요",
            "아뇨, 괜찮아요~",
            "고마워요",
            "이제 충분해요 감사합니다",
            "오늘 고마웠어요",
            "감사했습니다",
        ] {
            assert!(says_nothing_more(text), "{text}");
        }
        for text in [
            "no, my sister too",
            "thanks, but there is one more thing",
            "아니요, 사실 하나 더 있어요",
            "없어요 의욕이",
            "really",
            "이제",
            "오늘",
            "",
        ] {
            assert!(!says_nothing_more(text), "{text}");
        }
    }

    #[test]
    fn fillers_in_front_are_dropped_and_the_rest_kept() {
        assert_eq!(without_fillers("음 다음 주 월요일에 면담 신청해 볼게요"), "다음 주 월요일에 면담 신청해 볼게요");
        assert_eq!(without_fillers("well, I think I'll walk at lunch"), "I'll walk at lunch");
        assert_eq!(without_fillers("I'll walk at lunch"), "I'll walk at lunch");
        assert_eq!(without_fillers("음"), "음", "a filler alone stays");
        assert!(says_yes("yes, every weekday after dinner") && says_yes("네 맞아요") && !says_yes("no, not yet"));
    }

    #[test]
    fn a_short_yes_accepts_and_anything_else_goes_on() {
        for text in ["네", "네, 마무리해 주세요", "응", "yes", "Yeah, sure", "ok", "그만할래요"] {
            assert!(accepts_closing(text), "{text}");
        }
        for text in ["아니요", "no, wait", "네, 그런데 하나만 더 이야기하고 싶어요", "actually I have one more thing"]
        {
            assert!(!accepts_closing(text), "{text}");
        }
    }
}
