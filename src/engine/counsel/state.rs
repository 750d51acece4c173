//! User State Detector: emotion and its intensity, resistance, engagement, a change of
//! topic, a conversation going in circles, a wish to close. Runs beside the Task Completion
//! Checker on the same history snapshot.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::crisis::{self, CrisisKind};
use super::task::{topics_in, Topic};
use crate::engine::grounding::system_prompt;
use crate::engine::json::{bool_field, extract_json, f64_field, str_field};
use crate::engine::lang::{normalize, Lang};
use crate::engine::prompt::{Prompt, Turn, TurnRole};
use crate::engine::prompt_text::{self, PromptText};
use crate::engine::security::isolate;
use crate::engine::words::WordList;

/// The main feeling in the user's latest message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Emotion {
    #[default]
    Neutral,
    Sad,
    Anxious,
    Angry,
    Tired,
    Positive,
}

impl Emotion {
    /// Every emotion, in the order the detector tries them.
    pub const ALL: [Emotion; 6] =
        [Emotion::Sad, Emotion::Anxious, Emotion::Angry, Emotion::Tired, Emotion::Positive, Emotion::Neutral];

    /// The id used in JSON answers.
    pub fn id(self) -> &'static str {
        match self {
            Emotion::Neutral => "neutral",
            Emotion::Sad => "sad",
            Emotion::Anxious => "anxious",
            Emotion::Angry => "angry",
            Emotion::Tired => "tired",
            Emotion::Positive => "positive",
        }
    }

    /// The emotion with this id, or a common synonym ("sadness", "anxiety", "fear", "happy").
    pub fn parse(text: &str) -> Option<Emotion> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "neutral" | "calm" | "none" => Some(Emotion::Neutral),
            "sad" | "sadness" | "depressed" | "lonely" | "hurt" => Some(Emotion::Sad),
            "anxious" | "anxiety" | "worried" | "fear" | "afraid" | "nervous" => Some(Emotion::Anxious),
            "angry" | "anger" | "frustrated" | "frustration" | "annoyed" => Some(Emotion::Angry),
            "tired" | "exhausted" | "fatigue" | "burned_out" | "burnout" => Some(Emotion::Tired),
            "positive" | "happy" | "relieved" | "hopeful" | "grateful" | "joy" => Some(Emotion::Positive),
            _ => None,
        }
    }

    /// True for the feelings that call for empathy first when strong.
    pub fn is_negative(self) -> bool {
        matches!(self, Emotion::Sad | Emotion::Anxious | Emotion::Angry | Emotion::Tired)
    }

    /// The feeling as a counselor would name it back ("많이 불안하셨겠어요").
    pub fn reflection(self, lang: Lang) -> &'static str {
        match self {
            Emotion::Sad => lang.pick("마음이 많이 아프고 슬프셨겠어요.", "That sounds really painful and sad."),
            Emotion::Anxious => lang.pick("많이 불안하고 걱정되셨겠어요.", "That sounds like a lot of worry to carry."),
            Emotion::Angry => {
                lang.pick("화가 나고 답답하실 만해요.", "It makes sense that you feel angry and frustrated.")
            }
            Emotion::Tired => lang.pick("정말 많이 지치셨겠어요.", "You sound really worn out."),
            Emotion::Positive => {
                lang.pick("조금이라도 나아진 부분이 있다니 다행이에요.", "I'm glad something feels a bit better.")
            }
            Emotion::Neutral => lang.pick("말씀해 주셔서 고마워요.", "Thank you for telling me."),
        }
    }
}

/// How involved the user is in the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engagement {
    Low,
    #[default]
    Medium,
    High,
}

impl Engagement {
    /// The level named `low`, `medium` or `high`.
    pub fn parse(text: &str) -> Option<Engagement> {
        match text.trim().to_ascii_lowercase().as_str() {
            "low" => Some(Engagement::Low),
            "" | "medium" | "mid" => Some(Engagement::Medium),
            "high" => Some(Engagement::High),
            _ => None,
        }
    }
}

/// What the User State Detector found in the latest user message.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct UserState {
    /// The main feeling.
    pub emotion: Emotion,
    /// How strong it is, 0..=10.
    pub intensity: u8,
    /// The user is reluctant, refuses or pushes back.
    pub resistance: bool,
    /// How involved the user is.
    pub engagement: Engagement,
    /// A topic the user has just moved to.
    pub topic_change: Option<Topic>,
    /// The conversation keeps coming back to the same point.
    pub going_in_circles: bool,
    /// The user wants to wrap up.
    pub wants_to_close: bool,
    /// Any sign, direct or indirect, that the user may harm themselves or others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crisis: Option<CrisisKind>,
}

impl UserState {
    /// True when a strong negative feeling should be met before anything else.
    pub fn strong_negative_emotion(&self) -> bool {
        self.emotion.is_negative() && self.intensity >= 7
    }
}

/// Emotion keywords: Korean substrings and English word starts.
const EMOTION_KEYWORDS: &[(Emotion, WordList, WordList)] = &[
    (
        Emotion::Sad,
        // sad, depressed, tears, cried, empty, lonely, upset, heartbroken. In English "down" and
        // "empty" only as a feeling: not "sit down", "download" or "the fridge is empty".
        // A death told ("my dog died two weeks ago", 무지개다리를 건넜: crossed the rainbow bridge,
        // 강아지가 죽었어요: my dog died) is grief.
        WordList(
            "슬퍼|슬프|우울|눈물|울었|울고|허전|외로|속상|마음이 아파|돌아가셨|세상을 떠|무지개다리|떠나보냈|강아지가 죽|고양이가 죽|반려견이 죽|반려묘가 죽|반려동물이 죽|개가 죽|엄마가 죽|아빠가 죽|할머니가 죽|할아버지가 죽|친구가 죽|동생이 죽|형이 죽|누나가 죽|언니가 죽|오빠가 죽|남편이 죽|아내가 죽|아이가 죽|아기가 죽",
        ),
        WordList(
            "sad|depress|tears|cry|cried|crying|lonely|heartbroken|hopeless|passed away|grieving|dog died|cat died|pet died|mom died|mother died|dad died|father died|grandma died|grandmother died|grandpa died|grandfather died|friend died|brother died|sister died|husband died|wife died|son died|daughter died|died two|died a few|died recently|died weeks|died months|died yesterday|put to sleep|the death of|his death|her death|\
             feel down|feeling down|felt down|feels down|so down|really down|pretty down|been down|bit down|\
             feel empty|feeling empty|felt empty|so empty|empty inside",
        ),
    ),
    (
        Emotion::Anxious,
        // anxious, worried, nervous, tense, afraid, scared, panic
        WordList("불안|걱정|초조|긴장|두려|무서|떨려|공황|조마조마"),
        WordList("anxious|anxiety|worried|worry|nervous|scared|afraid|panic|overwhelmed|fear|freaking out|freak out|freaked out|terrified|dread|on edge"),
    ),
    (
        Emotion::Angry,
        // angry, annoyed, furious, unfair, frustrated
        WordList("화가|화나|짜증|열받|억울|분노|답답|빡쳐"),
        // "mad" only as anger: not "made" (a word start), nor "mad about" a band.
        WordList(
            "angry|furious|annoyed|frustrated|pissed|unfair|resent|\
             so mad|really mad|i'm mad|im mad|am mad|was mad|got mad|mad at|makes me mad|made me mad",
        ),
    ),
    (
        Emotion::Tired,
        // exhausted, tired, worn out, lethargic, burnout, hard
        // 누워만/누워 있: (only) lying in bed; 침대에서 못 나: cannot get out of bed
        WordList("지쳤|지쳐|피곤|무기력|번아웃|힘들|버거|기운이 없|누워만|누워 있|침대에서 못 나"),
        WordList(
            "tired|exhausted|drained|burned out|burnt out|worn out|no energy|struggling|can't get out of bed|\
             stay in bed all day|in bed all day|crushing me|crushed|drowning in|swamped|wiped out",
        ),
    ),
    (
        Emotion::Positive,
        // better, comfortable, thankful, relieved, happy, helpful
        WordList("좋아졌|나아졌|편해|편안|고마|감사|다행|기뻐|기쁘|도움이 됐|도움이 돼"),
        WordList("better|relieved|glad|happy|thanks|thank you|thx|thanx|grateful|helpful|calmer"),
    ),
];

/// Words that make a feeling stronger.
const INTENSIFIERS_KO: WordList = WordList("너무|정말|진짜|엄청|완전|매일|계속|미칠|견딜 수|못 견디");
const INTENSIFIERS_EN: WordList =
    WordList("so |really|very|extremely|always|every day|can't take|cannot take|unbearable|too much");

/// Korean resistance cues.
// 말하기 싫: don't want to say; 얘기하기 싫: don't want to talk; 이야기하기 싫: don't want to talk; 말하고 싶지 않:
// don't want to say; 얘기하고 싶지 않: don't want to talk; 그만 물어: stop asking; 왜 자꾸 물어: why do you keep
// asking; 무슨 상관: what does it matter; 소용없: it's no use; 소용 없: it's no use; 의미 없어요: it's meaningless;
// 알아서 뭐: what's the point of knowing; 몰라요: dunno; 그냥요: just because; 도움 안 돼: not helpful; 도움이 안 돼:
// not helpful; 하기 싫어: don't want to; 별로 말하고: don't really (want to) say
const RESISTANCE_KO: WordList = WordList(
    "말하기 싫|얘기하기 싫|이야기하기 싫|말하고 싶지 않|얘기하고 싶지 않|그만 물어|왜 자꾸 물어|\
    무슨 상관|소용없|소용 없|의미 없어요|알아서 뭐|몰라요|그냥요|도움 안 돼|도움이 안 돼|\
    하기 싫어|별로 말하고",
);

/// What one may not want to do that is about one's days, not the conversation: 아무것도 하기 싫:
/// don't want to do anything; 일하기 싫: don't want to work; 출근하기 싫: don't want to go to work; 공부하기 싫:
/// don't want to study; 운동하기 싫: don't want to exercise.
const LIFE_UNWILLING_KO: WordList =
    WordList("아무것도 하기 싫|아무 것도 하기 싫|일하기 싫|출근하기 싫|공부하기 싫|운동하기 싫");

/// Resistance cues that are a shrug: 몰라요: dunno; 그냥요: just because.
const SHRUGS: WordList = WordList("몰라요|그냥요|i don't know|dunno|idk|whatever");

/// English resistance cues.
const RESISTANCE_EN: WordList = WordList(
    "don't want to talk|dont want to talk|don't want to say|don't really want to talk|do not want to talk|\
    don't really want to say|don't wanna talk|not ready to talk|don't feel like talking|rather not|none of your business|\
    why do you keep asking|stop asking|this is pointless|no point|this won't help|that won't help|talking won't help|\
    this doesn't help|that doesn't help|talking doesn't help|this isn't helping|this is not helping|you're not helping|\
    you are not helping|not helping me|whatever|leave me alone|i don't know|dunno|idk|doesn't matter|drop it",
);

/// Phrases that announce a new subject.
const TOPIC_SHIFT_KO: WordList = WordList("그건 그렇고|다른 얘기|다른 이야기|사실은|그보다|근데 요즘|그리고 또");
const TOPIC_SHIFT_EN: WordList = WordList("by the way|another thing|something else|different note|actually,|also,");

/// Phrases that ask to wrap up.
const CLOSING_KO: WordList = WordList("오늘은 여기까지|이제 마무리|그만 얘기|이 정도면 된|정리해 주|이제 끝내");
const CLOSING_EN: WordList = WordList(
    "that's all for today|wrap up|wrap this up|that's enough for today|enough for today|\
    i have to go|let's stop here|we can stop",
);

/// "I don't know" in both languages: three in a row means the talk goes around.
const DONT_KNOW: WordList = WordList("모르겠|몰라|don't know|dont know|idk|not sure");

fn contains_any(lower: &str, cues: WordList) -> bool {
    cues.iter().any(|c| lower.contains(c))
}

fn english_word_hit(lower: &str, cues: WordList) -> bool {
    let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    cues.iter().any(|cue| {
        if cue.contains(' ') {
            lower.contains(cue)
        } else {
            words.iter().any(|w| w.starts_with(cue) && (cue.len() >= 5 || w.len() <= cue.len() + 2))
        }
    })
}

/// Heuristic twin of the detector: keyword and rule based, Korean and English.
/// `earlier` are the user's previous messages (oldest first); `known_topics` the topics the
/// session has already seen.
pub fn detect_state(latest: &str, earlier: &[String], known_topics: &[Topic]) -> UserState {
    let lower = latest.to_ascii_lowercase().replace('’', "'");
    // "I want to sleep better", "좀 나아졌으면 좋겠어요": a wish for better is not feeling better.
    // 으면 좋겠/았으면/었으면/졌으면: I wish …; 싶: I want to.
    let wishes = WordList("want|wish|hope|need to|would like|i'd like|trying to|try to|how can i|how do i|으면 좋겠|았으면|었으면|졌으면|싶")
        .iter()
        .any(|w| lower.contains(w));
    let lower_for_feeling = if wishes {
        WordList("better|좋아졌|나아졌|편해|편안").iter().fold(lower.clone(), |t, w| t.replace(w, " "))
    } else {
        lower.clone()
    };
    let lower_for_feeling = without_others_feelings(&lower_for_feeling);
    let emotion = EMOTION_KEYWORDS
        .iter()
        .find(|(_, ko, en)| contains_any(&lower_for_feeling, *ko) || english_word_hit(&lower_for_feeling, *en))
        .map(|(e, _, _)| *e)
        .unwrap_or(Emotion::Neutral);
    let intensity = if emotion == Emotion::Neutral {
        2
    } else {
        let boosts = INTENSIFIERS_KO.iter().chain(INTENSIFIERS_EN).filter(|w| lower.contains(*w)).count() as u8;
        (5 + 2 * boosts.min(2) + u8::from(latest.contains('!'))).min(10)
    };
    // "아무것도 하기 싫어요" is about the days, not the talk; "I don't know where to start" is too
    // much at once, and "I don't know anyone here" is loneliness, not a refusal.
    let about_life = LIFE_UNWILLING_KO.iter().fold(lower.clone(), |t, w| t.replace(w, " "));
    let lower = WordList(
        "don't know where to start|don't know where to begin|don't know how to start|not sure where to start|\
         don't know anyone|don't know anybody|don't know a soul|don't know many people|don't know people|\
         don't know how to make friends|don't know how to meet",
    )
    .iter()
    .fold(lower, |t, w| t.replace(w, " "));
    // "idk, just stressed" says how it is: a shrug beside a feeling or a topic is not pushing back.
    let shrug_only = |list: WordList, text: &str| {
        list.iter().filter(|w| text.contains(*w)).all(|w| SHRUGS.contains(w))
            && (emotion != Emotion::Neutral || !topics_in(latest).is_empty())
    };
    let resistance = (contains_any(&about_life, RESISTANCE_KO) && !shrug_only(RESISTANCE_KO, &about_life))
        || (contains_any(&lower, RESISTANCE_EN) && !shrug_only(RESISTANCE_EN, &lower));
    let chars = latest.trim().chars().count();
    let words = latest.split_whitespace().count();
    let engagement = if resistance || chars < 6 || (words < 3 && !latest.chars().any(crate::engine::lang::is_hangul)) {
        Engagement::Low
    } else if chars > 100 || words > 20 || (chars > 40 && latest.chars().any(crate::engine::lang::is_hangul)) {
        Engagement::High
    } else {
        Engagement::Medium
    };
    let topics = topics_in(latest);
    let announced = contains_any(&lower, TOPIC_SHIFT_KO) || contains_any(&lower, TOPIC_SHIFT_EN);
    let topic_change = topics
        .iter()
        .copied()
        .find(|t| !known_topics.contains(t) && (announced || !known_topics.is_empty()) && *t != Topic::Mood);
    let wants_to_close = contains_any(&lower, CLOSING_KO) || contains_any(&lower, CLOSING_EN);
    UserState {
        emotion,
        intensity,
        resistance,
        engagement,
        topic_change,
        going_in_circles: going_in_circles(latest, earlier),
        wants_to_close,
        crisis: crisis::detect(latest).map(|c| c.kind),
    }
}

/// Feeling words that can be someone else's: "she gets angry", "my boss is always so stressed".
const EN_OTHERS_FEELINGS: WordList = WordList(
    "angry|furious|annoyed|frustrated|pissed|mad|upset|sad|depressed|lonely|anxious|worried|nervous|scared|\
     afraid|stressed|overwhelmed|tired|exhausted|happy|glad|relieved|freaking|terrified",
);
/// The speaker, in English: the nearest of these before a feeling word makes it the user's.
const EN_SELF: WordList = WordList("i|i'm|im|i've|i'd|i'll|me|myself");
/// Someone else, in English: the nearest of these before a feeling word makes it theirs.
const EN_OTHERS: WordList = WordList(
    "she|he|they|she's|he's|they're|her|him|them|his|their|girlfriend|boyfriend|wife|husband|partner|boss|\
     mom|dad|mother|father|parents|friend|friends|sister|brother|manager|coworker|teacher|everyone|everybody",
);
/// Korean feelings shown to someone, which the subject named last has: 화를 내/화내: gets angry (at);
/// 짜증을 내/짜증 내/짜증내: snaps (at).
const KO_OTHERS_ACTS: WordList = WordList("화를 내|화내|짜증을 내|짜증 내|짜증내");
/// Korean feelings had, which are someone else's only right after them as the subject ("엄마가 화가
/// 났어요", "엄마가 많이 우울해해요"): a Korean sentence often leaves the speaker unsaid ("상사가 …
/// 혼을 내서 너무 창피하고 화가 나요" is the user's anger). 화가/화나: anger; 짜증: irritation; 예민: touchy;
/// 우울해: depressed; 슬퍼: sad; 불안해: anxious; 피곤해: tired.
const KO_OTHERS_FEELINGS: WordList = WordList("화가|화나|짜증|예민|우울해|슬퍼|불안해|피곤해");
/// Who a Korean sentence is about: 제가/내가/저는/나는/저도/나도: I (subject);
const KO_SELF: WordList = WordList("제가|내가|저는|나는|저도|나도");
/// …and someone else as its subject: a partner, family, a boss, a friend, "that person", he or she.
const KO_OTHERS: WordList = WordList(
    "여자친구가|남자친구가|여친이|남친이|애인이|남편이|아내가|와이프가|엄마가|아빠가|어머니가|아버지가|어머니께서|\
     아버지께서|부모님이|부모님께서|상사가|팀장님이|팀장이|부장님이|사장님이|동료가|친구가|선생님이|언니가|오빠가|\
     형이|누나가|동생이|그 사람이|걔가|그녀가|그가|그분이|여자친구는|남자친구는|남편은|아내는|엄마는|아빠는|상사는|\
     팀장님은|친구는",
);

/// `lower` with the feeling words that belong to someone else blanked: "she gets angry when I'm
/// late" tells her anger, and "제가 늦으면 여자친구가 화를 내요" hers, not the user's. A feeling word is
/// someone else's when the nearest person named before it in its clause is not the speaker
/// ("she makes me so angry" is the user's: "me" is nearer).
fn without_others_feelings(lower: &str) -> String {
    let mut out = lower.to_string();
    // English: word by word, looking back within the clause.
    let in_word = |c: char| c.is_ascii_alphanumeric() || c == '\'';
    let words: Vec<(usize, &str)> = lower
        .char_indices()
        .filter(|&(at, c)| in_word(c) && !lower[..at].chars().next_back().is_some_and(in_word))
        .map(|(at, _)| (at, &lower[at..at + lower[at..].find(|c: char| !in_word(c)).unwrap_or(lower.len() - at)]))
        .collect();
    for (i, &(at, word)) in words.iter().enumerate() {
        if !EN_OTHERS_FEELINGS.contains(word) {
            continue;
        }
        let clause_start = lower[..at].rfind(['.', ',', ';', '!', '?']).map_or(0, |p| p + 1);
        let nearest = words[..i]
            .iter()
            .rev()
            .take_while(|(a, _)| *a >= clause_start)
            .find(|(_, w)| EN_SELF.contains(w) || EN_OTHERS.contains(w));
        if nearest.is_some_and(|(_, w)| EN_OTHERS.contains(w)) {
            out.replace_range(at..at + word.len(), &" ".repeat(word.len()));
        }
    }
    // Korean: the subject named last before the feeling, for a feeling shown; right before it
    // (one word between at most), for a feeling had.
    for (cues, right_before) in [(KO_OTHERS_ACTS, false), (KO_OTHERS_FEELINGS, true)] {
        for cue in cues {
            for (at, _) in lower.match_indices(cue) {
                let before = &lower[..at];
                let last = |list: WordList| {
                    list.iter().filter_map(|w| before.rfind(w).map(|p| (p, p + w.len()))).max_by_key(|&(p, _)| p)
                };
                let other = last(KO_OTHERS).filter(|&(p, end)| {
                    last(KO_SELF).is_none_or(|(me, _)| p > me)
                        && (!right_before || before[end..].split_whitespace().count() <= 1)
                });
                if other.is_some() {
                    out.replace_range(at..at + cue.len(), &" ".repeat(cue.len()));
                }
            }
        }
    }
    out
}

/// True when the latest message and the two before it say the same thing: at least half of
/// their character pairs are shared, or all three are "I don't know".
pub fn going_in_circles(latest: &str, earlier: &[String]) -> bool {
    if earlier.len() < 2 {
        return false;
    }
    let previous = &earlier[earlier.len() - 2..];
    let dont_know = |t: &str| contains_any(&t.to_ascii_lowercase(), DONT_KNOW);
    if dont_know(latest) && previous.iter().all(|t| dont_know(t)) {
        return true;
    }
    let grams = bigrams(latest);
    if grams.len() < 4 {
        return false;
    }
    previous.iter().all(|p| {
        let other = bigrams(p);
        let shared = grams.iter().filter(|g| other.contains(g)).count();
        let union = grams.len() + other.len() - shared;
        union > 0 && shared * 2 >= union
    })
}

/// The distinct character pairs of the text without spaces or punctuation: a similarity
/// measure that works for Korean, where particles change word forms.
fn bigrams(text: &str) -> Vec<(char, char)> {
    let chars: Vec<char> = normalize(text).chars().filter(|c| !c.is_whitespace()).collect();
    let mut out: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
    crate::engine::order::sort_by_key(&mut out, |&(a, b)| crate::engine::order::pair(a.into(), b.into()));
    out.dedup();
    out
}

/// The detector prompt: the recent conversation (the shared snapshot), the topics already
/// seen, and the latest user message, isolated.
pub fn state_prompt(history: &[Turn], known_topics: &[Topic], lang: Lang) -> Prompt {
    let mut lines = vec!["[RECENT CONVERSATION]".to_string()];
    lines.extend(transcript(history, 8));
    let topics: Vec<&str> = known_topics.iter().map(|t| t.id()).collect();
    lines.push(String::new());
    lines.push(format!(
        "[TOPICS ALREADY DISCUSSED] {}",
        if topics.is_empty() { "(none)".into() } else { topics.join(", ") }
    ));
    lines.push(String::new());
    lines.push("Output the state JSON only.".into());
    let system =
        system_prompt("counsel-state-detector", prompt_text::text(PromptText::CounselStateDetectorInstructions), lang);
    Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(300)
}

/// The last `max` turns as `counselor:` / `user:` lines, user text isolated.
pub fn transcript(history: &[Turn], max: usize) -> Vec<String> {
    let start = history.len().saturating_sub(max);
    history[start..]
        .iter()
        .map(|turn| match turn.role {
            TurnRole::User => format!(
                "user: {}",
                isolate(&crate::engine::lang::clip(&turn.text, 800), crate::engine::security::DEFAULT_TAG)
            ),
            _ => format!("counselor: {}", crate::engine::lang::clip(&turn.text, 800)),
        })
        .collect()
}

/// Reads the detector's answer. Missing fields take their calm defaults; unknown labels and
/// an intensity outside 0..=10 are errors. Never panics.
pub fn parse_state(raw: &str) -> Result<UserState, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    if !value.is_object() {
        return Err("the answer is not a JSON object".into());
    }
    let known =
        ["emotion", "intensity", "resistance", "engagement", "topic_change", "going_in_circles", "wants_to_close"];
    if !known.iter().any(|k| value.get(k).is_some()) {
        return Err("the JSON has none of the state's fields".into());
    }
    let emotion_text = str_field(&value, "emotion");
    let emotion = Emotion::parse(&emotion_text).ok_or_else(|| format!("unknown emotion '{emotion_text}'"))?;
    let intensity = match value.get("intensity") {
        None | Some(Value::Null) => 0,
        Some(_) => match f64_field(&value, "intensity") {
            Some(n) if (0.0..=10.0).contains(&n) => n.round() as u8,
            Some(_) => return Err(format!("intensity {} is outside 0..10", value["intensity"])),
            None => return Err("intensity is not a number".into()),
        },
    };
    let engagement_text = str_field(&value, "engagement");
    let engagement =
        Engagement::parse(&engagement_text).ok_or_else(|| format!("unknown engagement '{engagement_text}'"))?;
    let topic_text = str_field(&value, "topic_change");
    let topic_change = match topic_text.to_ascii_lowercase().as_str() {
        "" | "null" | "none" => None,
        id => Some(topic_by_id(id).ok_or_else(|| format!("unknown topic '{topic_text}'"))?),
    };
    let crisis_text = str_field(&value, "crisis");
    let crisis = match crisis_text.to_ascii_lowercase().replace(['-', ' '], "_").as_str() {
        "" | "null" | "none" | "false" | "no" => None,
        "suicide" | "suicidal" => Some(CrisisKind::Suicide),
        "self_harm" => Some(CrisisKind::SelfHarm),
        "harm_others" => Some(CrisisKind::HarmOthers),
        "abuse" | "abused" | "being_harmed" => Some(CrisisKind::Abuse),
        _ => return Err(format!("unknown crisis kind '{crisis_text}'")),
    };
    Ok(UserState {
        crisis,
        emotion,
        intensity,
        resistance: bool_field(&value, "resistance"),
        engagement,
        topic_change,
        going_in_circles: bool_field(&value, "going_in_circles"),
        wants_to_close: bool_field(&value, "wants_to_close"),
    })
}

fn topic_by_id(id: &str) -> Option<Topic> {
    use Topic::*;
    [Work, Study, Family, Partner, Friends, Health, Mood, SelfWorth, Money, Loss].into_iter().find(|t| t.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn emotions_are_read_in_both_languages() {
        let cases = [
            ("요즘 너무 우울해요", Emotion::Sad),
            ("발표 때문에 불안해서 잠이 안 와요", Emotion::Anxious),
            ("상사 때문에 진짜 화가 나요", Emotion::Angry),
            ("일이 많아서 너무 지쳤어요", Emotion::Tired),
            ("얘기하고 나니 좀 편해졌어요", Emotion::Positive),
            ("오늘 점심은 국수를 먹었어요", Emotion::Neutral),
            ("I feel so sad lately", Emotion::Sad),
            ("I'm worried about the exam", Emotion::Anxious),
            ("I have my final exams next week and I am freaking out", Emotion::Anxious),
            ("I'm terrified of the interview tomorrow", Emotion::Anxious),
            ("my mom is freaking out about the move", Emotion::Neutral),
            ("I'm furious at my brother", Emotion::Angry),
            ("I'm exhausted all the time", Emotion::Tired),
            ("work has been crushing me lately", Emotion::Tired),
            ("Thanks, I feel better now", Emotion::Positive),
            ("I had noodles for lunch", Emotion::Neutral),
            ("I downloaded a new app", Emotion::Neutral),
            // "down", "empty" and "mad" as a feeling only.
            ("every time I sit down I end up on my phone", Emotion::Neutral),
            ("I made a plan with my friend", Emotion::Neutral),
            ("the fridge is empty again", Emotion::Neutral),
            ("I've been feeling down for weeks", Emotion::Sad),
            ("I feel empty inside", Emotion::Sad),
            ("I'm so mad at him", Emotion::Angry),
            // Someone else's feeling is not the user's; the nearest person named decides.
            ("She gets angry when I'm late", Emotion::Neutral),
            ("my boss is always so stressed and angry", Emotion::Neutral),
            ("She makes me so angry", Emotion::Angry),
            ("I get angry when she's late", Emotion::Angry),
            ("He was furious, and I was scared", Emotion::Anxious),
            ("제가 약속에 늦으면 여자친구가 화를 내요", Emotion::Neutral),
            ("엄마가 화가 많이 났어요", Emotion::Neutral),
            ("남편이 요즘 계속 짜증을 내요", Emotion::Neutral),
            ("상사가 회의 때마다 제 의견을 무시해서 너무 화가 나요", Emotion::Angry),
            ("여자친구가 늦어서 제가 화가 났어요", Emotion::Angry),
        ];
        for (text, want) in cases {
            assert_eq!(detect_state(text, &[], &[]).emotion, want, "{text}");
        }
        assert!(detect_state("너무 너무 우울해요!", &[], &[]).strong_negative_emotion());
        assert!(!detect_state("조금 우울해요", &[], &[]).strong_negative_emotion());
    }

    #[test]
    fn resistance_is_read_in_both_languages() {
        let cases = [
            ("그 얘기는 하기 싫어요", true),
            ("왜 자꾸 물어보세요?", true),
            ("이런 거 해봤자 소용없어요", true),
            ("몰라요", true),
            ("I'd rather not talk about that", true),
            ("Why do you keep asking me that?", true),
            ("whatever", true),
            ("회사에서 상사가 자꾸 소리를 질러요", false),
            ("My boss keeps yelling at me", false),
            ("네, 말씀드릴게요", false),
            ("지쳐서 아무것도 하기 싫어요", false),
            ("요즘은 출근하기 싫어요", false),
            ("idk, just stressed", false),
            ("idk", true),
            ("몰라요 그냥 우울해요", false),
        ];
        for (text, want) in cases {
            assert_eq!(detect_state(text, &[], &[]).resistance, want, "{text}");
        }
    }

    #[test]
    fn engagement_topic_change_and_closing_are_read() {
        assert_eq!(detect_state("네", &[], &[]).engagement, Engagement::Low);
        assert_eq!(detect_state("ok", &[], &[]).engagement, Engagement::Low);
        assert_eq!(detect_state("회사에서 좀 힘들어요", &[], &[]).engagement, Engagement::Medium);
        let long = "요즘 회사에서 맡은 프로젝트가 너무 많아서 매일 야근을 하고, 주말에도 메신저가 와서 제대로 쉬지를 못하고 있어요.";
        assert_eq!(detect_state(long, &[], &[]).engagement, Engagement::High);
        assert_eq!(
            detect_state("그건 그렇고 엄마랑도 요즘 자주 싸워요", &[], &[Topic::Work]).topic_change,
            Some(Topic::Family)
        );
        assert_eq!(detect_state("By the way, my girlfriend left", &[], &[]).topic_change, Some(Topic::Partner));
        assert_eq!(detect_state("상사가 또 소리를 질렀어요", &[], &[Topic::Work]).topic_change, None);
        assert!(detect_state("오늘은 여기까지 할게요", &[], &[]).wants_to_close);
        assert!(detect_state("I think we can wrap up now", &[], &[]).wants_to_close);
        assert!(!detect_state("회사 이야기를 더 하고 싶어요", &[], &[]).wants_to_close);
    }

    #[test]
    fn going_in_circles_needs_three_similar_messages() {
        let earlier = vec!["상사가 나를 무시해요".to_string(), "상사가 계속 나를 무시해요".to_string()];
        assert!(going_in_circles("상사가 오늘도 나를 무시해요", &earlier));
        assert!(!going_in_circles("상사가 오늘도 나를 무시해요", &earlier[..1]));
        assert!(!going_in_circles("주말에는 등산을 갔어요", &earlier));
        let unsure = vec!["I don't know".to_string(), "not sure".to_string()];
        assert!(going_in_circles("idk", &unsure));
    }

    #[test]
    fn state_parser_checks_sense_and_never_panics() {
        let ok = parse_state(
            "```json\n{\"emotion\":\"anxiety\",\"intensity\":\"8\",\"resistance\":\"yes\",\"engagement\":\"low\",\"topic_change\":\"family\"}\n```",
        )
        .expect("parses");
        assert_eq!(ok.emotion, Emotion::Anxious);
        assert_eq!(ok.intensity, 8);
        assert!(ok.resistance);
        assert_eq!(ok.engagement, Engagement::Low);
        assert_eq!(ok.topic_change, Some(Topic::Family));
        assert_eq!(ok.crisis, None);
        let flagged = parse_state(r#"{"emotion": "sad", "intensity": 9, "crisis": "self-harm"}"#).expect("parses");
        assert_eq!(flagged.crisis, Some(CrisisKind::SelfHarm));
        assert_eq!(detect_state("죽고 싶어", &[], &[]).crisis, Some(CrisisKind::Suicide));
        assert_eq!(detect_state("배고파 죽겠다", &[], &[]).crisis, None);
        let bad = [
            "",
            "nothing here",
            r#"{"mood": "x"}"#,
            r#"{"emotion": "ecstatic-ish"}"#,
            r#"{"emotion": "sad", "intensity": 11}"#,
            r#"{"emotion": "sad", "intensity": -1}"#,
            r#"{"emotion": "sad", "intensity": "very"}"#,
            r#"{"emotion": "sad", "engagement": "extreme"}"#,
            r#"{"emotion": "sad", "topic_change": "astrology"}"#,
            r#"{"emotion": "sad", "crisis": "maybe"}"#,
        ];
        for raw in bad {
            assert!(parse_state(raw).is_err(), "{raw}");
        }
        let err = parse_state(r#"{"emotion": "sad", "intensity": 11}"#).unwrap_err();
        assert_eq!(err, "intensity 11 is outside 0..10");
        let prompt = state_prompt(&[Turn::user("그만 물어보세요")], &[Topic::Work], Lang::Ko);
        assert!(prompt.system.starts_with("# role: counsel-state-detector"));
        assert!(prompt.turns[0].text.contains("<user_input>") && prompt.turns[0].text.contains("work"));
        // Every kind the answer may name is one the prompt asks for, and reads back as that kind.
        for (label, kind) in [
            ("suicide", CrisisKind::Suicide),
            ("self_harm", CrisisKind::SelfHarm),
            ("harm_others", CrisisKind::HarmOthers),
            ("abuse", CrisisKind::Abuse),
        ] {
            assert!(prompt.system.contains(label), "{label}");
            let answer = format!(r#"{{"emotion": "sad", "crisis": "{label}"}}"#);
            assert_eq!(parse_state(&answer).map(|s| s.crisis), Ok(Some(kind)), "{label}");
        }
    }
}
