//! Crisis language: suicide, self-harm and harming others, said directly or indirectly, in
//! Korean and English. A hit gets a fixed safety response at once, before and regardless of
//! any LLM output, in every part and module.

use std::sync::OnceLock;

use regex_lite::Regex;
use serde::{Deserialize, Serialize};

use crate::engine::lang::Lang;

/// What kind of danger the words point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrisisKind {
    /// Thoughts of ending one's life, direct or indirect.
    Suicide,
    /// Hurting oneself.
    SelfHarm,
    /// Hurting or killing someone else.
    HarmOthers,
}

impl CrisisKind {
    /// A short label for the side panel and the counselor's note.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            CrisisKind::Suicide => lang.pick("자살 관련 표현", "suicidal language"),
            CrisisKind::SelfHarm => lang.pick("자해 관련 표현", "self-harm language"),
            CrisisKind::HarmOthers => lang.pick("타인을 해치려는 표현", "language about harming others"),
        }
    }
}

/// A detected crisis: its kind and the words that matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crisis {
    /// What kind of danger.
    pub kind: CrisisKind,
    /// The matched cue, as found in the normalised text.
    pub cue: String,
}

/// Phrases that mention a crisis word without being one; removed before matching.
const TOPIC_MENTIONS: &[&str] = &[
    "자살예방", // suicide prevention
    "유서깊",   // historic ("유서 깊은 절")
    "살해당",   // was murdered (a story, not an intent)
    "suicide prevention",
    "suicide squad",
];

/// Korean suicide cues, matched on text with spaces and punctuation removed.
const KO_SUICIDE: &[&str] = &[
    "죽고싶",           // want to die
    "죽어버리고싶",     // want to just die
    "죽는게나을",       // better to die
    "죽는편이나을",     // better to die
    "죽을까생각",       // thinking of dying
    "자살",             // suicide
    "목숨을끊",         // take one's life
    "목숨끊",           // take one's life
    "생을마감",         // end one's life
    "삶을끝내",         // end my life
    "인생을끝내",       // end my life
    "모든걸끝내고싶",   // want to end everything
    "다끝내버리고싶",   // want to end it all
    "전부끝내버리고싶", // want to end it all
    "사라지고싶",       // want to disappear
    "사라져버리고싶",   // want to vanish
    "없어지고싶",       // want to be gone
    "내가사라졌으면",   // I wish I were gone
    "내가없어졌으면",   // I wish I were gone
    "눈을안떴으면",     // wish my eyes didn't open (not wake up)
    "눈안떴으면",       // wish I didn't wake up
    "눈을뜨지않았으면", // wish I didn't wake up
    "눈뜨지않았으면",   // wish I didn't wake up
    "깨어나지않았으면", // wish I didn't wake up
    "깨지않았으면",     // wish I didn't wake up
    "영원히잠들고싶",   // want to sleep forever
    "영원히잠들었으면", // wish I slept forever
    "살고싶지않",       // don't want to live
    "살기싫",           // hate living
    "사는게의미없",     // living is meaningless
    "살이유가없",       // no reason to live
    "살아야할이유가없", // no reason to live
    "살아갈이유가없",   // no reason to go on living
    "살아서뭐해",       // what's the point of living
    "살아서뭐하",       // what's the point of living
    "태어나지말았어야", // should never have been born
    "태어나지않았으면", // wish I hadn't been born
    "내가없으면다들",   // everyone would be better without me
    "나없으면다들",     // everyone would be better without me
    "없어져도아무도",   // nobody would care if I were gone
    "유서를",           // (wrote) a suicide note
    "유서써",           // write a suicide note
    "유서쓰",           // write a suicide note
    "뛰어내리고싶",     // want to jump (off)
    "뛰어내릴까",       // should I jump
    "뛰어내려버릴",     // I'll jump
    "투신",             // jump to one's death
    "목을매",           // hang oneself
    "목매달",           // hang oneself
    "수면제를모으",     // collecting sleeping pills
    "약을모으고",       // collecting pills
    "번개탄",           // charcoal briquette (a method)
    "극단적인선택",     // "extreme choice" (news euphemism)
    "극단적선택",       // "extreme choice"
];

/// Korean self-harm cues.
const KO_SELF_HARM: &[&str] = &[
    "자해",         // self-harm
    "손목을긋",     // cut my wrist
    "손목긋",       // cut my wrist
    "손목을그",     // cut my wrist
    "칼로긋",       // cut with a knife
    "몸에상처를내", // make wounds on my body
    "나를해치",     // hurt myself
    "나자신을해치", // hurt myself
    "스스로를해치", // hurt myself
    "내몸을해치",   // hurt my body
    "나를때리고싶", // want to hit myself
    "피가날때까지", // until it bleeds
    "스스로상처",   // wound myself
];

/// Korean cues of harming others.
const KO_HARM_OTHERS: &[&str] = &[
    "죽이고싶",     // want to kill
    "죽여버리고싶", // want to kill
    "죽여버릴",     // I'll kill
    "죽여버리겠",   // I'll kill
    "죽일거야",     // I'm going to kill
    "해치고싶",     // want to hurt (someone)
    "해쳐버리고싶", // want to hurt
    "찔러버리",     // stab
    "찌르고싶",     // want to stab
    "때려죽이",     // beat to death
    "살해하고싶",   // want to murder
    "살해할",       // will murder
];

/// Korean denials right after a cue (within a few syllables): "죽고 싶지는 않아",
/// "죽고 싶다는 생각은 없어요", "자해는 하지 않아요".
const KO_NEGATED_TAILS: &[&str] = &[
    "지않",     // not
    "진않",     // not
    "지는않",   // not
    "지도않",   // not even
    "생각은없", // no thought of
    "생각은안", // no thought of
    "건아니",   // it's not that
];

/// English words right before a cue that deny it: "I'm not suicidal", "I would never
/// kill myself", "I don't want to hurt myself".
const EN_NEGATED_BEFORE: &[&str] = &[
    "not ",
    "never ",
    "don't ",
    "dont ",
    "do not ",
    "didn't ",
    "don't want to ",
    "dont want to ",
    "do not want to ",
    "not going to ",
    "never going to ",
    "won't ",
    "wouldn't ",
    "don't really ",
    "do not really ",
];

fn en_suicide() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"\b(kill|killing) myself\b|\bsuicid(e|al)\b|\bend(ing)? (my life|it all)\b|\btake my (own )?life\b",
            r"|\b(want|wanna|wanted|going|ready) to die\b|\bwish i (was|were) (dead|never born|gone)\b",
            r"|\bbetter off (dead|without me)\b",
            r"|\b(don'?t|do not|no longer) want to (live|be alive|exist|be here anymore)\b",
            r"|\bno (reason|point) (to|in) (live|living|go on|going on)\b|\b(can'?t|cannot) go on (living|anymore)\b",
            r"|\b(if|wish|hope) i (just )?(didn'?t|did not|wouldn'?t|would not|never|don'?t) wake up\b",
            r"|\bnever wake up again\b|\bnot (to )?wake up (ever )?again\b|\bsleep forever\b",
            r"|\b(want to|wanna|wish i could( just)?) disappear\b",
            r"|\b(jump|jumping) (off|from) (a|the) (bridge|roof|building|balcony|cliff)\b",
            r"|\bhang(ing)? myself\b|\boverdos(e|ing)\b|\bgoodbye (letter|note)s?\b",
            r"|\b(nobody|no one) would (care|notice|miss me)\b|\bunalive\b"
        ))
        .expect("suicide pattern compiles")
    })
}

fn en_self_harm() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"\bself[- ]?harm|\b(harm|harming|cutting|burning) myself\b|\bslit(ting)? my wrists?\b",
            r"|\b(want|wanna|going|urge|need|tempted|started) (to )?(hurt|harm|cut|burn|punish)(ing)? myself\b",
            r"|\bcut myself (again|on purpose)\b|\bstarted cutting\b"
        ))
        .expect("self-harm pattern compiles")
    })
}

fn en_harm_others() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"\b(want|wanna|going|gonna|planning|plan|ready) (to )?(kill|murder|stab|shoot|hurt|strangle|beat up) ",
            r"(him|her|them|you|someone|somebody|people|everyone|everybody|that (guy|man|woman|person)|",
            r"my (boss|dad|mom|father|mother|husband|wife|brother|sister|roommate|coworker|colleague|neighbou?r|ex|partner|friend|teacher|son|daughter|kids?))\b",
            r"|\bi('?ll| will) (kill|murder|stab|shoot) (him|her|them|you|someone|somebody)\b",
            r"|\bbring(ing)? a (gun|knife) to (school|work|the office)\b"
        ))
        .expect("harm-others pattern compiles")
    })
}

/// The first crisis cue in `text`, if any: suicide before self-harm before harming others.
pub fn detect(text: &str) -> Option<Crisis> {
    let mut lower = text.to_ascii_lowercase().replace(['’', '‘'], "'");
    for mention in TOPIC_MENTIONS {
        lower = lower.replace(mention, " ");
    }
    // "유서 깊은" and "자살 예방" are written with a space; match their compact forms too.
    let mut compact: String = lower.chars().filter(|c| c.is_alphanumeric()).collect();
    for mention in TOPIC_MENTIONS {
        compact = compact.replace(&mention.replace(' ', ""), "");
    }
    let spaced: String = lower.split_whitespace().collect::<Vec<_>>().join(" ");

    let korean = |cues: &[&str]| -> Option<String> {
        cues.iter().find_map(|cue| {
            compact.match_indices(cue).find_map(|(at, _)| {
                let tail: String = compact[at + cue.len()..].chars().take(8).collect();
                let negated = KO_NEGATED_TAILS.iter().any(|t| tail.contains(t));
                (!negated).then(|| cue.to_string())
            })
        })
    };
    let english = |re: &Regex| -> Option<String> {
        re.find_iter(&spaced).find_map(|m| {
            let before = &spaced[..m.start()];
            let negated = EN_NEGATED_BEFORE.iter().any(|neg| before.ends_with(neg));
            (!negated).then(|| m.as_str().to_string())
        })
    };

    let found = |kind: CrisisKind, cue: Option<String>| cue.map(|cue| Crisis { kind, cue });
    found(CrisisKind::Suicide, korean(KO_SUICIDE).or_else(|| english(en_suicide())))
        .or_else(|| found(CrisisKind::SelfHarm, korean(KO_SELF_HARM).or_else(|| english(en_self_harm()))))
        .or_else(|| found(CrisisKind::HarmOthers, korean(KO_HARM_OTHERS).or_else(|| english(en_harm_others()))))
}

/// The fixed safety response: concern, crisis lines (Korea and elsewhere), and what this is.
pub fn safety_response(lang: Lang) -> String {
    match lang {
        Lang::Ko => "지금 하신 말씀이 많이 걱정돼요. 무엇보다 당신의 안전이 가장 중요해요.\n\n\
지금 바로 도움을 받을 수 있는 곳이 있어요.\n\
- 자살예방 상담전화 **109** (24시간, 무료)\n\
- 정신건강 위기상담 **1577-0199** (24시간)\n\
- 위험이 급하다면 **112**(경찰) 또는 **119**(응급)\n\
- 한국 밖에 계신다면 그 나라의 긴급 전화번호로 연락해 주세요.\n\n\
혼자 견디지 않으셔도 돼요. 믿을 수 있는 사람에게 지금 마음을 알려 주세요.\n\n\
저는 AI 대화 상대이고, 자격을 갖춘 상담사가 아니에요. 위의 전문 기관은 지금 바로 도와줄 수 있어요. \
원하시면 여기서 이야기를 계속 들을게요."
            .to_string(),
        Lang::En => "What you just said worries me, and your safety matters most right now.\n\n\
You can reach someone right now:\n\
- In Korea: suicide prevention line **109** (24 h, free), mental health crisis line **1577-0199**, \
police **112**, emergency **119**.\n\
- Elsewhere: call your local emergency number (for example 911 in the US and Canada, 112 in the EU, \
999 in the UK) or a local crisis line.\n\n\
You don't have to carry this alone. Please tell someone you trust how you feel.\n\n\
I am an AI conversation partner, not a licensed counselor. The services above can help you right now. \
If you want, I'm still here to listen."
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;
    use CrisisKind::*;

    #[test]
    fn korean_crisis_language_is_detected_direct_and_indirect() {
        let cases: &[(&str, CrisisKind)] = &[
            ("사라지고 싶다는 생각이 자꾸 들어", Suicide),
            ("내일 아침에 눈을 안 떴으면 좋겠어", Suicide),
            ("죽고 싶어", Suicide),
            ("요즘 죽고싶다는 생각을 자주 해요", Suicide),
            ("그냥 다 끝내버리고 싶어", Suicide),
            ("자살하고 싶어요", Suicide),
            ("자살 생각이 계속 나요", Suicide),
            ("목숨을 끊고 싶어", Suicide),
            ("이제 삶을 끝내고 싶어요", Suicide),
            ("더 이상 살고 싶지 않아", Suicide),
            ("사는 게 너무 싫어, 살기 싫어", Suicide),
            ("사는 게 의미 없어요", Suicide),
            ("살아야 할 이유가 없어", Suicide),
            ("내가 없으면 다들 편할 거야", Suicide),
            ("태어나지 말았어야 했어", Suicide),
            ("그냥 영원히 잠들고 싶어", Suicide),
            ("아침에 깨어나지 않았으면 좋겠어", Suicide),
            ("옥상에서 뛰어내리고 싶어", Suicide),
            ("수면제를 모으고 있어요", Suicide),
            ("유서를 써 놨어", Suicide),
            ("극단적인 선택을 할까 생각했어", Suicide),
            ("살아서 뭐해", Suicide),
            ("그냥 없어지고 싶어", Suicide),
            ("번개탄을 샀어요", Suicide),
            ("자해를 또 했어", SelfHarm),
            ("손목을 긋고 싶어", SelfHarm),
            ("나를 해치고 싶은 충동이 들어", SelfHarm),
            ("내 몸에 상처를 내고 싶어", SelfHarm),
            ("그 사람을 죽이고 싶어", HarmOthers),
            ("상사를 죽여버리고 싶어", HarmOthers),
            ("걔를 해치고 싶어", HarmOthers),
            ("칼로 찌르고 싶어", HarmOthers),
        ];
        assert!(cases.len() >= 25);
        for (text, want) in cases {
            let got = detect(text).unwrap_or_else(|| panic!("missed: {text}"));
            assert_eq!(got.kind, *want, "{text}");
        }
    }

    #[test]
    fn korean_idioms_and_ordinary_talk_do_not_trigger() {
        let cases = [
            "웃겨 죽는 줄 알았어",
            "배고파 죽겠다",
            "피곤해 죽겠어",
            "더워 죽겠네",
            "보고 싶어 죽겠어",
            "이 노래 진짜 죽인다",
            "맛이 죽여줘요",
            "분위기 죽이네",
            "심심해 죽을 것 같아",
            "좋아 죽겠어",
            "이 문제가 사라졌으면 좋겠어",
            "스트레스가 없어졌으면 좋겠어",
            "오늘 일 다 끝내고 싶어",
            "프로젝트를 빨리 끝내고 싶어요",
            "내일 아침에 일찍 일어나야 해",
            "아침에 눈을 떴는데 비가 오더라",
            "자살 예방 캠페인 기사를 읽었어",
            "유서 깊은 절에 다녀왔어",
            "게임에서 캐릭터가 죽었어",
            "회사를 그만두고 싶어",
            "다 때려치우고 여행 가고 싶다",
            "주말 내내 잠만 자고 싶어",
            "죽고 싶지는 않아, 그냥 좀 쉬고 싶어",
            "쥐구멍에라도 들어가고 싶었어",
            "손목이 아파서 병원에 갔어",
            "칼로 사과를 깎았어",
            "그 영화에서 주인공이 살해당했어",
            "숙제 때문에 죽을 맛이야",
            "죽고 싶다는 생각은 없어요",
            "자해는 하지 않아요",
            "자살할 생각은 없어",
        ];
        assert!(cases.len() >= 25);
        for text in cases {
            assert_eq!(detect(text), None, "{text}");
        }
    }

    #[test]
    fn english_crisis_language_is_detected_direct_and_indirect() {
        let cases: &[(&str, CrisisKind)] = &[
            ("it would be easier if I just didn't wake up", Suicide),
            ("I want to kill myself", Suicide),
            ("I've been thinking about suicide", Suicide),
            ("I feel suicidal tonight", Suicide),
            ("I just want to end it all", Suicide),
            ("I'm going to end my life", Suicide),
            ("Sometimes I want to die", Suicide),
            ("I wish I was dead", Suicide),
            ("Everyone would be better off without me", Suicide),
            ("I don't want to live anymore", Suicide),
            ("I do not want to be alive", Suicide),
            ("There's no reason to live", Suicide),
            ("I can't go on living like this", Suicide),
            ("I hope I never wake up again", Suicide),
            ("I wish I didn't wake up tomorrow", Suicide),
            ("I want to go to sleep and sleep forever", Suicide),
            ("I wish I could just disappear", Suicide),
            ("I keep thinking about jumping off the bridge", Suicide),
            ("I could hang myself", Suicide),
            ("I've been saving pills to overdose", Suicide),
            ("Nobody would care if I were gone", Suicide),
            ("I wrote goodbye letters to my family", Suicide),
            ("I want to take my own life", Suicide),
            ("I started self-harming again", SelfHarm),
            ("I've been cutting myself", SelfHarm),
            ("I want to hurt myself", SelfHarm),
            ("I thought about slitting my wrists", SelfHarm),
            ("I want to kill him", HarmOthers),
            ("I'm going to hurt my roommate", HarmOthers),
            ("I'll stab them", HarmOthers),
            ("I want to kill my boss", HarmOthers),
        ];
        assert!(cases.len() >= 25);
        for (text, want) in cases {
            let got = detect(text).unwrap_or_else(|| panic!("missed: {text}"));
            assert_eq!(got.kind, *want, "{text}");
        }
    }

    #[test]
    fn english_idioms_and_ordinary_talk_do_not_trigger() {
        let cases = [
            "that joke killed me",
            "kill the browser tab",
            "I'm dying to see that movie",
            "this traffic is killing me",
            "I killed it at the presentation",
            "my phone died",
            "I'm dead tired",
            "the deadline is tomorrow",
            "I almost died laughing",
            "I could kill for a coffee",
            "kill the process and restart it",
            "I want to kill this bug in my code",
            "I don't want to die without seeing Japan",
            "I didn't wake up on time today",
            "I need to wake up early tomorrow",
            "We watched Suicide Squad last night",
            "I read an article about suicide prevention",
            "My plant is dying",
            "I hurt my knee playing football",
            "I cut my finger while cooking",
            "let's end the meeting early",
            "I want to end my subscription",
            "that cake was to die for",
            "I'm going to kill time at the mall",
            "Let's shoot for Friday",
            "I'm burning out at work",
            "my character died again in the game",
            "the battery is dead",
            "I'm not suicidal, just tired",
            "I would never kill myself",
            "I don't want to hurt myself, I just want to rest",
        ];
        assert!(cases.len() >= 25);
        for text in cases {
            assert_eq!(detect(text), None, "{text}");
        }
    }

    #[test]
    fn safety_response_names_the_crisis_lines_and_what_this_is() {
        let ko = safety_response(Lang::Ko);
        for needle in ["109", "1577-0199", "112", "119", "AI 대화 상대", "상담사가 아니에요", "긴급 전화번호"]
        {
            assert!(ko.contains(needle), "ko lacks {needle}");
        }
        let en = safety_response(Lang::En);
        for needle in ["109", "1577-0199", "112", "119", "local emergency number", "not a licensed counselor"] {
            assert!(en.contains(needle), "en lacks {needle}");
        }
    }
}
