//! Hopelessness that names no crisis ("그냥 다 그만두고 싶어요", "I want to give up on
//! everything"): the counselor asks directly, once, whether the user has thoughts of ending
//! their life or hurting themselves, and a yes (or a "sometimes") to that question is a crisis.
//! Asking does not put the idea in anyone's head; leaving it unasked can miss the one who has it.

use crate::engine::lang::Lang;
use crate::engine::words::WordList;

/// Korean words of hopelessness, matched on the text with spaces and punctuation removed.
// 다그만두고싶: want to quit everything; 다그만하고싶: want to stop everything; 모든걸그만두고싶: want to quit it all;
// 전부그만두고싶: want to quit it all; 다포기하고싶: want to give up on everything; 모든걸포기하고싶: want to give up on it
// all; 전부포기하고싶: want to give up on it all; 인생을포기: give up on life; 다놓아버리고싶: want to let go of everything;
// 다놓고싶: want to let it all go; 모든걸놓고싶: want to let it all go; 희망이없: there is no hope; 희망이안보: no hope in
// sight; 앞이안보: can't see ahead; 미래가안보: can't see a future; 미래가없: there is no future; 버틸힘이없: no strength
// left to hold on; 견딜수가없: can't bear it; 아무의미가없: nothing means anything; 다의미없: it's all meaningless;
// 모든게의미없: everything is meaningless; 사는게너무힘들: living is too hard; 사는게힘들: living is hard; 하루하루가지옥:
// every day is hell; 다끝내고싶: want to end it all; 출구가없: there is no way out
const KO_HOPELESS: WordList = WordList(
    "다그만두고싶|다그만하고싶|모든걸그만두고싶|전부그만두고싶|다포기하고싶|모든걸포기하고싶|전부포기하고싶|인생을포기|\
    다놓아버리고싶|다놓고싶|모든걸놓고싶|희망이없|희망이안보|앞이안보|미래가안보|미래가없|버틸힘이없|견딜수가없|\
    아무의미가없|다의미없|모든게의미없|사는게너무힘들|사는게힘들|하루하루가지옥|다끝내고싶|출구가없",
);

/// English words of hopelessness, matched on the lowercased words.
const EN_HOPELESS: WordList = WordList(
    "give up on everything|giving up on everything|give up on it all|give up on life|quit everything|\
    quit it all|done with everything|done with it all|hopeless|no hope|lost all hope|no future|\
    can't take it anymore|can't take this anymore|can't do this anymore|can't go on like this|\
    can't keep going|nothing matters|no point in anything|everything is pointless|want it all to stop|\
    want everything to stop|make it all stop|no way out|tired of everything|sick of everything|tired of it all",
);

/// Denials right after a Korean cue ("희망이 없진 않아요": it isn't hopeless).
const KO_NEGATED_TAILS: WordList = WordList("지않|진않|지는않|건아니");

/// Denials right before an English cue ("I'm not hopeless", "I'd never give up on everything").
const EN_NEGATED_BEFORE: WordList = WordList("not |never |don't |dont |won't |wouldn't |isn't |i'm not |am not ");

/// What answers the question before it is asked: 죽고 싶다는 건 아니/죽고 싶은 건 아니: it's not that I want to
/// die; 죽고 싶진 않/죽고 싶지는 않: I don't want to die; 자살할 생각은 없/죽을 생각은 없: no thought of suicide, of dying
const KO_ALREADY_DENIED: WordList =
    WordList("죽고싶다는건아니|죽고싶은건아니|죽고싶진않|죽고싶지는않|자살할생각은없|죽을생각은없");
const EN_ALREADY_DENIED: WordList = WordList(
    "not suicidal|don't want to die|do not want to die|not that i want to die|not going to hurt myself|\
    wouldn't hurt myself|would never hurt myself",
);

/// Whether `text` says something hopeless that the counselor should ask about: not when it
/// already says it is not about dying ("죽고 싶다는 건 아니고 그냥 다 그만두고 싶어요").
pub fn hopeless(text: &str) -> bool {
    let lower = text.to_ascii_lowercase().replace(['’', '‘'], "'");
    let compact: String = lower.chars().filter(|c| c.is_alphanumeric()).collect();
    if KO_ALREADY_DENIED.iter().any(|w| compact.contains(w)) || EN_ALREADY_DENIED.iter().any(|w| lower.contains(w)) {
        return false;
    }
    let korean = KO_HOPELESS.iter().any(|cue| {
        compact.match_indices(cue).any(|(at, _)| {
            let tail: String = compact[at + cue.len()..].chars().take(6).collect();
            !KO_NEGATED_TAILS.iter().any(|t| tail.contains(t))
        })
    });
    if korean {
        return true;
    }
    let spaced = format!(" {} ", lower.split_whitespace().collect::<Vec<_>>().join(" "));
    EN_HOPELESS.iter().any(|cue| {
        spaced.match_indices(cue).any(|(at, _)| {
            let whole = !spaced[..at].ends_with(|c: char| c.is_ascii_alphanumeric())
                && !spaced[at + cue.len()..].starts_with(|c: char| c.is_ascii_alphanumeric());
            let mut from = at.saturating_sub(16);
            while !spaced.is_char_boundary(from) {
                from -= 1;
            }
            let before = &spaced[from..at];
            whole && !EN_NEGATED_BEFORE.iter().any(|n| before.ends_with(n))
        })
    })
}

/// Korean words of being hit, threatened or abused by someone, matched on the text with spaces
/// and punctuation removed.
// 저를/나를/날/절 때리(때려, 때렸): hits me; 폭행당/폭력을 당/폭력당: was assaulted; 협박당/협박해/협박을 해: is
// threatened, threatens (me); 스토킹: stalking; 성추행/성폭행/강간: sexual harassment, assault, rape; 가정폭력:
// domestic violence; 데이트폭력: dating violence; 학대당/학대를 당/학대받/학대해: abused; 학교폭력/학폭: school
// violence; 괴롭힘을 당/괴롭힘당: bullied; 맞고 살: living with beatings; 맞을까 봐: afraid of
// being hit; 두들겨 맞/얻어맞: beaten up; 감금/가둬 놓: locked up; 목을 졸: choked
const KO_HARMED: WordList = WordList(
    "저를때리|나를때리|날때리|절때리|저를때려|나를때려|날때려|절때려|저를때렸|나를때렸|날때렸|절때렸|저때려|나때려|\
    폭행당|폭력을당|폭력당|협박당|협박해요|협박을해|스토킹|성추행|성폭행|강간|가정폭력|데이트폭력|학대당|학대를당|\
    학대받|학대해|학교폭력|학폭|괴롭힘을당|괴롭힘당|맞고살|맞을까봐|두들겨맞|얻어맞|감금|가둬놓|목을졸",
);

/// English words of being hit, threatened or abused by someone, matched on the lowercased words.
const EN_HARMED: WordList = WordList(
    "hits me|beats me up|beat me up|beating me|abuses me|abused me|abusing me|threatens me|threatened me|\
    threatening me|stalking me|stalks me|assaulted me|raped me|molested me|locks me in|locked me in|chokes me|\
    choked me|kicked me|slapped me|slaps me|punched me|punches me|domestic violence|being abused|being bullied|\
    bullied at|bullies me|afraid he will hurt me|afraid she will hurt me|afraid they will hurt me",
);

/// Whether `text` says someone hits, threatens or abuses the user.
pub fn harmed(text: &str) -> bool {
    let said = Message::of(text);
    said.ko(KO_HARMED) || said.en(EN_HARMED)
}

/// A message as the word lists read it: lower case with straight apostrophes, its letters and
/// digits run together (Korean lists match there) and its words between single spaces (English
/// lists match whole words there).
pub(super) struct Message {
    compact: String,
    spaced: String,
}

impl Message {
    pub(super) fn of(text: &str) -> Message {
        let lower = text.to_ascii_lowercase().replace(['’', '‘'], "'");
        let words: Vec<&str> =
            lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
        Message { compact: words.concat(), spaced: format!(" {} ", words.join(" ")) }
    }

    /// True when a Korean entry of `list` occurs in the letters run together.
    pub(super) fn ko(&self, list: WordList) -> bool {
        list.iter().any(|w| self.compact.contains(w))
    }

    /// True when an English entry of `list` occurs as whole words.
    pub(super) fn en(&self, list: WordList) -> bool {
        list.iter().any(|w| self.spaced.contains(&format!(" {w} ")))
    }
}

/// The fixed response when someone says they are being harmed: it is not their fault, who to
/// call now, who helps with violence and abuse, and what this is.
pub fn abuse_response(lang: Lang) -> &'static str {
    lang.pick(
        "말씀해 주셔서 고마워요. 누군가에게 맞거나 위협받는 건 결코 당신 잘못이 아니에요.\n\n\
         - 지금 위험하다면 **112**(경찰)에 바로 연락해 주세요.\n\
         - 가정폭력·성폭력은 **1366**(24시간)에서 도움을 받을 수 있어요.\n\
         - 청소년이라면 **1388**에서도 상담받을 수 있어요.\n\
         - 한국 밖에 계신다면 그 나라의 긴급 전화번호로 연락해 주세요.\n\n\
         저는 AI 대화 상대라서 직접 도와드릴 수는 없지만, 원하시면 여기서 이야기를 계속 들을게요. 지금은 안전한 곳에 계세요?",
        "Thank you for telling me. Being hit or threatened by someone is never your fault.\n\n\
         - If you are in danger right now, call your local emergency number (112 in Korea and the EU, 911 in the US \
         and Canada, 999 in the UK).\n\
         - A local domestic violence or abuse hotline can help; in Korea, **1366** (24 h), and **1388** for young people.\n\n\
         I am an AI conversation partner and can't step in myself, but I'm here to listen if you want to keep \
         talking. Are you somewhere safe right now?",
    )
}

/// The question the counselor asks, at once and in fixed words, whatever the model would say.
pub fn question(lang: Lang) -> &'static str {
    lang.pick(
        "많이 지치고 힘드신 게 느껴져요. 조심스럽지만 꼭 여쭤보고 싶어요. 혹시 요즘 죽고 싶다는 생각이나 \
         스스로를 해치고 싶다는 생각이 드신 적이 있나요? 어떤 대답이든 괜찮아요.",
        "I can hear how worn down you are. I'd like to ask you something directly, and whatever your answer \
         is, it's okay: have you been having thoughts of ending your life, or of hurting yourself?",
    )
}

/// What the reply says after a no, before the conversation goes on.
pub fn thanks_for_answer(lang: Lang) -> &'static str {
    lang.pick(
        "솔직하게 답해 주셔서 고마워요. 혹시라도 그런 생각이 들면 언제든 말씀해 주세요.",
        "Thank you for answering honestly. If thoughts like that ever come, please tell me, any time.",
    )
}

/// How a message answers the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Yes, sometimes, or not sure: the safety response follows.
    Yes,
    /// No.
    No,
    /// It does not answer it (the user talks of something else).
    Other,
}

/// Unsure or partial answers, which count as a yes (Korean, compact).
// 가끔: sometimes; 종종: now and then; 때때로: at times; 조금: a little; 모르겠: I don't know; 잘모르: not sure; 애매: hard to
// say; 없지는않/없진않/없지않: not none; 없는건아니: it's not that I don't; 있긴: I do, though; 그럴때가: there are times;
// 안괜찮/괜찮지않: not okay
const KO_UNSURE: WordList = WordList(
    "가끔|종종|때때로|조금|모르겠|잘모르|애매|없지는않|없진않|없지않|없는건아니|있긴|그럴때가|안괜찮|괜찮지않",
);
/// Korean noes (compact). 아니: no; 없어/없습니다/없었/없네/없죠/없고: there isn't; 전혀: not at all; 괜찮: I'm okay
const KO_NO: WordList = WordList("아니|없어|없습니다|없었|없네|없죠|없고|전혀|괜찮");
/// Korean answers that open with a no: 아니/아뇨/아니요/아니에요: no
const KO_NO_FIRST: WordList = WordList("아니|아뇨|아니요|아니에요");
/// Korean yeses that open the answer, as its whole first word (without a closing 요): 네/예/응: yes;
/// 그래/그렇죠: so it is; 맞아: right
const KO_YES_FIRST: WordList = WordList("네|예|응|그래|그렇죠|맞아");
/// Korean yeses (compact). 있어/있었/있습니다/있죠/있긴: there are; 들어요/들었/들때: they come; 생각해봤/생각한적/생각했:
/// I've thought of it
const KO_YES: WordList = WordList("있어|있었|있습니다|있죠|있긴|들어요|들었|들때|생각해봤|생각한적|생각했");
/// Fillers before an answer's first word: 음/흠: hmm; 저/저기: well; 그게: the thing is
const FILLERS: WordList = WordList("음|흠|저|저기|그게|well|um|uh|hmm");
/// Words that say the answer is about the thoughts asked of (Korean compact): 생각: thought; 죽: die;
/// 자해: self-harm; 해치: hurt
const KO_ABOUT: WordList = WordList("생각|죽|자해|해치");
const EN_ABOUT: WordList =
    WordList("thought|thoughts|thinking|think about|die|dying|hurt myself|hurting myself|kill myself|end it");

const EN_UNSURE: WordList = WordList(
    "sometimes|occasionally|maybe|not sure|i don't know|i dont know|idk|kind of|kinda|sort of|a little|\
    a bit|on and off|now and then|i guess|at times|once or twice|a few times|not never",
);
const EN_NO_FIRST: WordList =
    WordList("no|nope|nah|not really|never|not at all|i'm not|i am not|i haven't|i have not|i don't|i do not");
const EN_NO: WordList = WordList(
    "i'm not|i am not|i don't|i dont|i do not|i haven't|i have not|nothing like that|not like that|\
    i'm ok|i'm okay|i'm fine|i am fine|no thoughts",
);
const EN_YES_FIRST: WordList = WordList("yes|yeah|yep|yup|true");
const EN_YES: WordList = WordList(
    "i have|i do|i have been|i've been|i've had|i have had|i think about|thought about it|i did|i do sometimes|\
    i've thought|i have thought",
);

/// Reads `text` as an answer to `question`. A word that opens it ("네…", "no, …") decides; past
/// that, a short answer ("가끔요", "I guess") or one about the thoughts asked of ("그런 생각이 들 때가
/// 있어요") does: "사실 회사 일이 너무 많아서요" answers something else.
pub fn answer(text: &str) -> Answer {
    let lower = text.to_ascii_lowercase().replace(['’', '‘'], "'");
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let from = words.iter().position(|w| !FILLERS.contains(w)).unwrap_or(words.len());
    let said = &words[from..];
    let spaced = format!(" {} ", said.join(" "));
    let compact: String = said.concat();
    let first = said.first().copied().unwrap_or_default();
    let has = |list: WordList| list.iter().any(|w| spaced.contains(&format!(" {w} ")));
    let opens = |list: WordList| list.iter().any(|w| spaced.starts_with(&format!(" {w} ")));
    let hangul = compact.chars().filter(|c| crate::engine::lang::is_hangul(*c)).count();
    let short = said.len() <= 5 && hangul <= 12;
    let about = KO_ABOUT.iter().any(|w| compact.contains(w)) || has(EN_ABOUT);
    let weighs = short || about;
    let unsure = KO_UNSURE.iter().any(|w| compact.contains(w)) || has(EN_UNSURE);
    // "I don't know, work is just a lot right now": a shrug that opens the answer is not a no.
    // 모르겠/잘 모르/글쎄: I don't know, not sure, well…
    let unsure_first = opens(WordList("i don't know|i dont know|idk|not sure|maybe"))
        || WordList("모르겠|잘모르|글쎄").iter().any(|w| compact.starts_with(w));
    let no_first = KO_NO_FIRST.contains(first.trim_end_matches(['요', '.'])) || opens(EN_NO_FIRST);
    let no = KO_NO.iter().any(|w| compact.contains(w)) || has(EN_NO);
    let yes_first = KO_YES_FIRST.contains(first.trim_end_matches('요')) || opens(EN_YES_FIRST);
    let yes = KO_YES.iter().any(|w| compact.contains(w)) || has(EN_YES);
    if yes_first || unsure_first || weighs && unsure {
        Answer::Yes
    } else if no_first || weighs && no {
        Answer::No
    } else if weighs && yes {
        Answer::Yes
    } else {
        Answer::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn hopelessness_without_a_crisis_cue_is_asked_about() {
        for text in [
            "그냥 다 그만두고 싶어요",
            "모든 걸 포기하고 싶어요",
            "희망이 없어요",
            "더는 버틸 힘이 없어요",
            "다 끝내고 싶어요",
            "I just want to give up on everything",
            "I'm done with everything",
            "I feel hopeless",
            "I can't take it anymore",
            "nothing matters anymore",
            "I just want it all to stop",
        ] {
            assert!(hopeless(text), "{text}");
        }
    }

    #[test]
    fn everyday_quitting_and_denials_are_not() {
        for text in [
            "회사를 그만두고 싶어요",
            "이 프로젝트는 포기하고 싶어요",
            "희망이 없진 않아요",
            "I want to quit my job",
            "I'm not hopeless, just tired",
            "I'd never give up on everything we built",
            "the hopelessness essay is due",
            "I want to give up sugar",
            "죽고 싶다는 건 아니고 그냥 다 그만두고 싶어요",
            "I'm not suicidal, I just feel hopeless about this job",
            "그럴 때마다 제가 쓸모없는 사람처럼 느껴져요",
            "I feel useless at work",
        ] {
            assert!(!hopeless(text), "{text}");
        }
    }

    #[test]
    fn being_harmed_by_someone_is_read_and_idioms_are_not() {
        for text in [
            "아빠가 술 마시면 저를 때려요",
            "남자친구가 자꾸 때리고 협박해요",
            "학교에서 괴롭힘을 당하고 있어요",
            "my dad hits me when he drinks",
            "my boyfriend threatened me again",
            "I'm being bullied at school",
        ] {
            assert!(harmed(text), "{text}");
        }
        for text in [
            "it hit me that I was wrong",
            "beats me, I don't know",
            "제가 동생을 때렸어요",
            "그 영화 진짜 때려 부수는 장면이 많아요",
            "he beat me at chess",
            "요즘 팀이랑 잘 맞고 있어요",
        ] {
            assert!(!harmed(text), "{text}");
        }
    }

    #[test]
    fn answers_to_the_question() {
        for text in [
            "네",
            "음… 네",
            "네… 가끔요",
            "응 있어",
            "솔직히 생각해 본 적 있어요",
            "잘 모르겠어요",
            "yes",
            "Yeah, sometimes",
            "maybe",
            "I've had those thoughts",
            "I don't know",
            "그런 생각이 들 때가 있어요",
            "있어요",
            "I have",
            "I don't know, work is just a lot right now and I can't think straight",
        ] {
            assert_eq!(answer(text), Answer::Yes, "{text}");
        }
        for text in [
            "아니요",
            "그런 생각은 없어요",
            "아니요, 그냥 너무 지쳐서요",
            "전혀요",
            "no",
            "No, just exhausted",
            "not really",
            "well, no",
            "I'm not, I just need a break",
            "nothing like that",
        ] {
            assert_eq!(answer(text), Answer::No, "{text}");
        }
        for text in [
            "회사 얘기를 더 하고 싶어요",
            "어제 팀장님이랑 또 부딪혔어요",
            "my boss keeps yelling at me",
            "사실 회사 일이 너무 많아서 정신이 없어요",
            "I have a lot going on at work right now and my manager keeps adding more",
            "가끔 회사에서 너무 힘들어서 화장실에서 울 때도 있고 그래요",
        ] {
            assert_eq!(answer(text), Answer::Other, "{text}");
        }
    }
}
