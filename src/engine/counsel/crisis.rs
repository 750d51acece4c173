//! Crisis language: suicide, self-harm and harming others, said directly or indirectly, in
//! Korean and English. A hit gets a fixed safety response at once, before and regardless of
//! any LLM output, in every part and module.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::crisis_cues;
use crate::engine::lang::Lang;
use crate::engine::pattern::Alternation;
use crate::engine::words::{Shape, WordList};

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
    /// Being hit, threatened or abused by someone (`safety::harmed`).
    Abuse,
}

impl CrisisKind {
    /// A short label for the side panel and the counselor's note.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            CrisisKind::Suicide => lang.pick("자살 관련 표현", "suicidal language"),
            CrisisKind::SelfHarm => lang.pick("자해 관련 표현", "self-harm language"),
            CrisisKind::HarmOthers => lang.pick("타인을 해치려는 표현", "language about harming others"),
            CrisisKind::Abuse => lang.pick("폭력이나 학대를 당한다는 표현", "language about being harmed by someone"),
        }
    }

    /// The fixed response to this kind: the safety response, or for someone being harmed, the
    /// lines that help with violence and abuse.
    pub fn response(self, lang: Lang) -> String {
        match self {
            CrisisKind::Abuse => super::safety::abuse_response(lang).to_string(),
            _ => safety_response(lang),
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
// 자살예방: suicide prevention; 자살률: suicide rate; 자살사건: a suicide case (news); 자살하는장면: a scene where
// someone dies by suicide; 자살하는결말: an ending where someone dies by suicide; 주인공이자살: the protagonist dies by
// suicide; 시간죽이: kill time; 유서깊: historic ("유서 깊은 절"); 살해당: was murdered (a story, not an intent);
// 아침까지 안 깼: slept through till morning; 아침까지 안 깨: sleep through till morning; 중간에 안 깼: didn't wake in
// the night; 중간에 안 깨: not waking in the night
const TOPIC_MENTIONS: WordList = WordList(
    "자살예방|자살률|자살사건|자살하는장면|자살하는결말|주인공이자살|시간죽이|유서깊|살해당|\
    아침까지 안 깼|아침까지 안 깨|중간에 안 깼|중간에 안 깨|suicide prevention|suicide squad|\
    suicide rate|suicide awareness|suicide statistics",
);

/// Korean suicide cues, matched on text with spaces and punctuation removed.
// 죽고싶: want to die; 죽어버리고싶: want to just die; 죽는게나을: better to die; 죽는편이나을: better to die; 죽을까생각: thinking of
// dying; 자살: suicide; 목숨을끊: take one's life; 목숨끊: take one's life; 생을마감: end one's life; 삶을끝내: end my life;
// 인생을끝내: end my life; 모든걸끝내고싶: want to end everything; 다끝내버리고싶: want to end it all; 전부끝내버리고싶: want to end it
// all; 내가사라졌으면: I wish I were gone; 내가없어졌으면: I wish I were gone; 눈을안떴으면: wish my eyes didn't open (not wake
// up); 눈안떴으면: wish I didn't wake up; 눈을뜨지않았으면: wish I didn't wake up; 눈뜨지않았으면: wish I didn't wake up; 깨어나지않았으면:
// wish I didn't wake up; 깨지않았으면: wish I didn't wake up; 영원히잠들고싶: want to sleep forever; 영원히잠들었으면: wish I slept
// forever; 살고싶지않: don't want to live; 그만살고싶: want to stop living; 자고일어나지않았으면: wish I didn't get up after
// sleeping; 아침에일어나지않았으면: wish I didn't get up in the morning; 다시는일어나지않: never get up again; 깨지말았으면: wish I
// didn't wake; 세상을떠나고싶: want to leave this world; 이세상에없었으면: wish I weren't in this world; 약을모아: stockpiling
// pills; 치였으면: wish I were hit (by a car); 사고났으면좋: wish I had an accident; 사고가났으면좋: wish I had an accident;
// 있을이유가없: no reason for me to exist; 안깼으면: wish I hadn't woken; 유서까지: even a suicide note; 안떴으면: wish (my eyes)
// didn't open; 내일이안왔으면: wish tomorrow wouldn't come; 살아있을이유: a reason to be alive (asked or missing); 살아갈자신이없:
// no confidence to go on living; 수면제를모아: stockpiling sleeping pills; 살기싫: hate living; 살기가싫: hate living;
// 사는게의미없: living is meaningless; 살이유가없: no reason to live; 살아야할이유가없: no reason to live; 살아갈이유가없: no reason to
// go on living; 살아서뭐해: what's the point of living; 살아서뭐하: what's the point of living; 태어나지말았어야: should never
// have been born; 태어나지않았으면: wish I hadn't been born; 내가없으면다들: everyone would be better without me; 나없으면다들:
// everyone would be better without me; 없어져도아무도: nobody would care if I were gone; 유서를: (wrote) a suicide note;
// 유서써: write a suicide note; 유서쓰: write a suicide note; 뛰어내리고싶: want to jump (off); 뛰어내릴까: should I jump;
// 뛰어내려버릴: I'll jump; 투신: jump to one's death; 목을매: hang oneself; 목매달: hang oneself; 수면제를모으: collecting sleeping
// pills; 약을모으고: collecting pills; 번개탄: charcoal briquette (a method); 극단적인선택: "extreme choice" (news
// euphemism); 극단적선택: "extreme choice"; 죽음밖에: nothing but death; 죽는것말고는: nothing but dying; 죽는것밖에: nothing but
// dying; 숨이멈췄으면: wish my breathing stopped; 숨이멎었으면: wish my breathing stopped; 심장이멈췄으면: wish my heart stopped;
// 지워지고싶: want to be erased; 흔적없이사라지: vanish without a trace; 사라져도되: it's fine if I vanish; 없어져도되: it's fine if
// I'm gone; 저만없으면: if only I were gone; 나만없으면: if only I were gone
const KO_SUICIDE: WordList = WordList(
    "죽고싶|죽어버리고싶|죽는게나을|죽는편이나을|죽을까생각|자살|목숨을끊|\
    목숨끊|생을마감|삶을끝내|인생을끝내|모든걸끝내고싶|다끝내버리고싶|전부끝내버리고싶|내가사라졌으면|\
    내가없어졌으면|눈을안떴으면|눈안떴으면|눈을뜨지않았으면|눈뜨지않았으면|깨어나지않았으면|\
    깨지않았으면|영원히잠들고싶|영원히잠들었으면|살고싶지않|그만살고싶|자고일어나지않았으면|\
    아침에일어나지않았으면|다시는일어나지않|깨지말았으면|세상을떠나고싶|이세상에없었으면|약을모아|\
    치였으면|사고났으면좋|사고가났으면좋|있을이유가없|안깼으면|유서까지|안떴으면|내일이안왔으면|\
    살아있을이유|살아갈자신이없|수면제를모아|살기싫|살기가싫|사는게의미없|살이유가없|살아야할이유가없|\
    살아갈이유가없|살아서뭐해|살아서뭐하|태어나지말았어야|태어나지않았으면|내가없으면다들|나없으면다들|\
    없어져도아무도|유서를|유서써|유서쓰|뛰어내리고싶|뛰어내릴까|뛰어내려버릴|투신|목을매|목매달|\
    수면제를모으|약을모으고|번개탄|극단적인선택|극단적선택|죽음밖에|죽는것말고는|죽는것밖에|\
    숨이멈췄으면|숨이멎었으면|심장이멈췄으면|지워지고싶|흔적없이사라지|사라져도되|없어져도되|저만없으면|\
    나만없으면",
);

/// Korean self-harm cues.
// 자해: self-harm; 손목을긋: cut my wrist; 손목긋: cut my wrist; 손목을그: cut my wrist; 칼로긋: cut with a knife; 칼로그어: cut
// with a knife; 팔을그어: cut my arm; 팔을긋: cut my arm; 허벅지를그: cut my thigh; 몸에상처를내: make wounds on my body; 나를해치:
// hurt myself; 나자신을해치: hurt myself; 스스로를해치: hurt myself; 내몸을해치: hurt my body; 나를때리고싶: want to hit myself;
// 피가날때까지: until it bleeds; 피날때까지: until it bleeds; 스스로상처: wound myself; 스스로를아프게: make myself hurt; 나를아프게: make
// myself hurt; 저를아프게: make myself hurt; 내몸을아프게: make my body hurt; 제몸을아프게: make my body hurt; 피를봐야: (calm) only
// once I see blood; 피가나야: (calm) only once it bleeds
const KO_SELF_HARM: WordList = WordList(
    "자해|손목을긋|손목긋|손목을그|칼로긋|칼로그어|팔을그어|팔을긋|\
    허벅지를그|몸에상처를내|나를해치|나자신을해치|스스로를해치|내몸을해치|나를때리고싶|피가날때까지|\
    피날때까지|스스로상처|스스로를아프게|나를아프게|저를아프게|내몸을아프게|제몸을아프게|피를봐야|\
    피가나야",
);

/// Korean cues of harming others.
// 죽이고싶: want to kill; 죽여버리고싶: want to kill; 죽여버릴: I'll kill; 죽여버리겠: I'll kill; 죽일거야: I'm going to kill; 해치고싶:
// want to hurt (someone); 해쳐버리고싶: want to hurt; 찔러버리: stab; 찌르고싶: want to stab; 때려죽이: beat to death; 살해하고싶:
// want to murder; 살해할: will murder; 해칠것같: feel I will hurt (someone); 해칠거: will hurt (someone); 해칠지도: might
// hurt (someone); 해칠까봐: afraid I'll hurt (someone)
const KO_HARM_OTHERS: WordList = WordList(
    "죽이고싶|죽여버리고싶|죽여버릴|죽여버리겠|죽일거야|해치고싶|\
    해쳐버리고싶|찔러버리|찌르고싶|때려죽이|살해하고싶|살해할|해칠것같|해칠거|해칠지도|해칠까봐",
);

/// Korean cue pairs that mean a crisis only close together (at most a few syllables apart,
/// either order): "이제 그만 끝내고 싶어요, 모든 걸", "나 같은 건 없어지는 게".
const KO_SUICIDE_PAIRS: &[(&str, &str)] = &[
    ("끝내고싶", "모든걸"),     // want to end + everything
    ("끝내버리고싶", "모든걸"), // want to end + everything
    ("모든걸", "끝낼"),         // everything + will end
    ("나같은", "없어지"),       // someone like me + be gone
    ("나같은", "사라지"),       // someone like me + vanish
    ("나같은", "죽"),           // someone like me + die
    ("편지를남기고", "떠나"),   // leave a letter + go away
    ("살아있는게", "괴로"),     // being alive + agony
    ("살아있는게", "고통"),     // being alive + pain
    ("살고싶은마음", "없"),     // no wish to live
    ("삶을", "포기"),           // give up on life
    ("인생을", "포기"),         // give up on life
    ("사는걸", "포기"),         // give up living
    ("약을", "한꺼번에"),       // pills + all at once
    ("약을", "다먹어"),         // pills + take them all
    ("떠날", "영원히"),         // leave + forever
    ("떠나", "영원히"),         // leave + forever
    ("유언", "남기"),           // leave last words
];
/// Korean self-harm pairs: a self or body marker next to a harming verb ("제가 그은",
/// "제 몸을 때려요", "팔을 지졌어요").
const KO_SELF_HARM_PAIRS: &[(&str, &str)] = &[
    ("제가", "그은"),
    ("내가", "그은"),
    ("스스로", "그"),
    ("일부러", "그"),
    ("제몸", "때려"),
    ("내몸", "때려"),
    ("제몸", "때렸"),
    ("내몸", "때렸"),
    ("팔을", "지졌"),
    ("팔을", "지져"),
    ("손목", "그었"),
    ("손목", "그은"),
    ("일부러", "상처"),
    ("스스로를", "벌"),     // punish myself
    ("제몸을", "다치게"),   // hurt my body
    ("내몸을", "다치게"),   // hurt my body
    ("스스로를", "다치게"), // hurt myself
    ("피가", "꼬집"),       // pinch until bleeding
    ("피가나", "긁"),       // scratch until bleeding
];
/// Korean cue pairs of harming others.
const KO_HARM_OTHERS_PAIRS: &[(&str, &str)] = &[
    ("복수", "칼"),   // revenge + knife
    ("복수", "죽이"), // revenge + kill
];

/// Korean families of indirect wording: a cue from the first list and one from the second
/// within the given number of characters of each other, in either order, not denied. Each:
/// kind, first cues, second cues, span.
type Family = (CrisisKind, WordList, WordList, usize);
const KO_FAMILIES: &[Family] = &[
    // Ending: one's life + an ending or letting go ("이번 생은 여기까지", "제 삶을 내려놓고 싶어").
    (
        CrisisKind::Suicide,
        WordList("삶|인생|목숨|이번생|살아있는게|살아있는것|사는게|사는것|살아야할|살아갈"), // life, living
        // 끝내고싶: want to end; 끝낼: will end; 내려놓고싶: want to let go; 놓아버리고싶: want to let go; 놓고싶: want
        // to let go; 여기까지: this far and no further; 끝인것같: seems to be the end; 끝났으면: wish it were over;
        // 포기하고싶: want to give up; 지겨: sick of; 의미를못찾: find no meaning; 의미가없: has no meaning
        WordList(
            "끝내고싶|끝낼|내려놓고싶|놓아버리고싶|놓고싶|여기까지|끝인것같|끝났으면|포기하고싶|\
            지겨|의미를못찾|의미가없",
        ),
        12,
    ),
    // Ending everything, oneself included ("모든 게 끝났으면, 저까지").
    (
        CrisisKind::Suicide,
        WordList("끝났으면|끝내고싶|사라졌으면|없어졌으면"), // wish it ended, want to end, wish gone
        WordList("저까지|나까지|저도같이|나도같이"),         // me too
        8,
    ),
    // Exhaustion + ending ("더는 버틸 힘이 없어요, 다 끝내고 싶어요").
    (
        CrisisKind::Suicide,
        WordList("버틸힘이없|버틸수가없|못버티|견딜수가없|더는못견디"), // can't hold on
        WordList("끝내고싶|끝났으면|그만하고싶|놓고싶|사라지고"),       // end, stop, let go, vanish
        16,
    ),
    // Not waking ("잠들면 그대로 끝났으면", "자다가 영영 안 깼으면").
    (
        CrisisKind::Suicide,
        WordList("잠들면|자다가|잠든채|자는동안|잠든사이"), // once asleep, in my sleep
        WordList("그대로끝|끝났으면|죽었으면|영영|숨이"),   // end there, die, forever, breath
        10,
    ),
    // No tomorrow ("아침이 영영 안 왔으면", "내일 같은 건 없었으면").
    (
        CrisisKind::Suicide,
        WordList("아침이|내일이|내일같은건|내일은"),     // morning, tomorrow
        WordList("안왔으면|오지않았으면|없었으면|영영"), // wish it didn't come, never
        6,
    ),
    // Forever rest ("편히 쉬고 싶어요, 영원히", "영원히 눈을 감고 싶어").
    (
        CrisisKind::Suicide,
        WordList("영원히|영영"),                                      // forever
        WordList("쉬고싶|쉬었으면|눈을감|잠들|떠나고싶|떠날|떠나려"), // rest, close eyes, sleep, leave
        8,
    ),
    // Erasure with no one minding ("나 하나 없어도 아무렇지 않을 거야").
    (
        CrisisKind::Suicide,
        WordList("나하나|저하나|나같은건|저같은건|내가|제가|차라리"), // just me, me
        WordList(
            "없어도아무렇지않|사라져도아무렇지않|없어도아무|없어도세상|사라져도아무|없는게나|\
            없는게낫|없어지는게",
        ), // gone and nobody
        10,
    ),
    // Burden ("가족들한테 짐밖에 안 돼요").
    (
        CrisisKind::Suicide,
        WordList("짐밖에|짐이되|짐만되|짐덩어리|짐일뿐"), // only a burden
        // family, parents, mom, dad, everyone, people, I, rather
        WordList("가족|부모|엄마|아빠|모두|다들|사람들|나는|저는|내가|제가|차라리"),
        12,
    ),
    // Goodbyes ("마지막으로 엄마 얼굴 보고 가려고요", "다음 생에는 …, 안녕").
    (
        CrisisKind::Suicide,
        WordList("마지막으로|마지막인사|다음생|이번생"), // one last time, last goodbye, next life
        // see (them) before going, leave, left (a note), goodbye, farewell
        WordList("보고가려|보고갈|떠나려|남겼|남기고|안녕|잘있어|작별"),
        14,
    ),
    // Leaving for good ("다 정리하고 떠나려고 해요, 다시는 안 돌아올 곳으로").
    (
        CrisisKind::Suicide,
        WordList("정리하고떠나|떠날준비|떠나려고|떠나려해"), // settle everything and leave
        WordList("다시는안돌아|돌아오지않|영원히|삶이|의미가없|다음생"), // never return, life
        20,
    ),
    // The afterlife as a wish ("하늘나라에 가고 싶어요").
    (
        CrisisKind::Suicide,
        WordList("하늘나라|저세상|저승"),           // heaven, the other world
        WordList("가고싶|갈래|가려고|갈까|가면편"), // want to go
        6,
    ),
    // A high place ("높은 데 올라가면 떨어지고 싶어져요", "지금 다리 위에 혼자 서 있어요").
    (
        CrisisKind::Suicide,
        WordList("높은데|높은곳|옥상|다리위|난간|창문|선로|철로"), // high place, roof, bridge
        WordList("떨어지고싶|떨어질까|떨어지면|뛰어들|혼자서있|서있어|내려다보"), // fall, stand, look down
        12,
    ),
    // Stockpiled pills ("수면제를 사 모았어요", "약을 한 통 다 삼키고 싶어").
    (
        CrisisKind::Suicide,
        WordList("수면제|진통제|알약|약을"),                             // pills
        WordList("사모았|모았|모아|한통|한꺼번에|다삼키|다먹|삼키고싶"), // gathered, all at once
        12,
    ),
    // Self-harm: a body part + cutting, burning, wounding ("팔을 지지고 싶어요", "손목에 또 칼을 댔어요").
    (
        CrisisKind::SelfHarm,
        WordList("팔|손목|허벅지|피부|몸에|살을"), // arm, wrist, thigh, skin, body
        // burn, cut, put a blade to, made a wound, box cutter
        WordList("지지고|지졌|지져|긋고|그었|칼을댔|칼을대|상처를냈|상처를내|커터칼"),
        8,
    ),
    // Self-harm: hitting oneself on purpose ("일부러 제 머리를 벽에 박아요").
    (
        CrisisKind::SelfHarm,
        WordList("일부러|스스로"),                    // on purpose, myself
        WordList("박아|박았|때려|때렸|찧|꼬집|할퀴"), // bang, hit, pinch, scratch
        14,
    ),
    // Harming others: a person + doing away with them ("담임 선생님을 없애 버리고 싶어요").
    (
        CrisisKind::HarmOthers,
        // teacher, person, that guy, that kid, kids, boss, husband, wife, friend, those guys
        WordList("선생님|사람|그놈|그자식|걔|그애|애들|상사|남편|아내|친구|놈들"),
        WordList("없애버리고싶|없애고싶|없애버릴|피를보게|피를봐야"), // do away with, make bleed
        14,
    ),
];

/// Korean stem rules: a stem followed within a few syllables by an ending of wish or
/// intent, unless the ending right after it makes an idiom ("배고파 죽겠다", "죽을 맛",
/// "죽이네" is someone else). Each: kind, stem, intent endings, idiom endings.
type StemRule = (CrisisKind, &'static str, WordList, &'static [&'static str]);
const KO_STEM_RULES: &[StemRule] = &[
    (
        CrisisKind::Suicide,
        "죽", // die
        WordList(
            "고싶|고파|어버릴|어버리고|을래|을거|으면편|으면좋|는게나|는게낫|는방법|을방법|을생각|\
            어도슬퍼|어도아무|으려|었으면좋|을지생각|는게답|는게편|어도세상|으면행복|으면다들",
        ),
        &["이", "여", "일", "겠", "을맛", "는줄", "을것같", "을뻔", "었어", "었다", "었대", "음의"],
    ),
    (
        CrisisKind::Suicide,
        "사라지", // vanish
        WordList(
            "고싶어|고싶다|고싶네|고싶은생각|고싶다는|고파|는게나|는게모두|면좋겠|버리고싶어|\
            면다들|면행복|면편할",
        ),
        &[],
    ),
    (
        CrisisKind::Suicide,
        "사라져", // vanish
        WordList("버리고싶어|버리고싶다|버릴|야|도아무|버리면편|버리면좋|버리면다들"),
        &[],
    ),
    (
        CrisisKind::Suicide,
        "없어지", // be gone
        WordList("고싶어|고싶다|고싶은생각|고싶다는|고파|는게나|는게모두|면좋겠|면다들|면행복|면편할"),
        &[],
    ),
    (
        CrisisKind::Suicide,
        "없어져", // be gone
        WordList("버리고싶어|버리고싶다|버릴|야|도아무|버리면편|버리면좋|버리면다들"),
        &[],
    ),
    (CrisisKind::Suicide, "뛰어내", WordList("리고싶|리려|릴까|릴거|려버릴"), &[]), // jump (off)
    (CrisisKind::Suicide, "그만살", WordList("래|고싶|까|거야|았으면"), &["찌", "쪄"]), // stop living
    (CrisisKind::Suicide, "깨지않", WordList("으면|았으면"), &[]),                  // not wake
    (CrisisKind::Suicide, "깨어나지않", WordList("으면|았으면"), &[]),              // not wake
    (CrisisKind::Suicide, "슬퍼할사람", WordList("없|이없|도없"), &[]),             // nobody to grieve
    (CrisisKind::HarmOthers, "죽여", WordList("버릴|버리고싶|버리겠|야지|야겠|줄거|버린다"), &[]), // kill
    (CrisisKind::HarmOthers, "죽이", WordList("고싶|려고|는상상|겠다|고말거|러갈"), &[]), // kill
    (CrisisKind::HarmOthers, "칼들고", WordList("가고싶|갈거|가서"), &[]),          // take a knife
    (CrisisKind::HarmOthers, "칼을들고", WordList("가고싶|갈거|가서"), &[]),        // take a knife
    (CrisisKind::HarmOthers, "해치", WordList("고싶|려고|겠|고말|는상상"), &[]),
    (CrisisKind::HarmOthers, "다치게", WordList("하고싶|할거|만들고싶|해버리"), &[]), // make (others) hurt
    (CrisisKind::HarmOthers, "때리", WordList("고싶|려고|는상상"), &[]),              // hit
    (CrisisKind::HarmOthers, "찌르", WordList("고싶|는상상|려고|러갈"), &[]),         // stab              // hurt
];

/// Wishes that a day would not come, which an everyday ordeal named with them makes dread
/// of that day (a presentation, an exam), not of living.
// 내일이안왔으면: wish tomorrow wouldn't come; 내일이오지않았으면: wish tomorrow wouldn't come; 아침이안왔으면: wish
// morning wouldn't come; 아침이오지않았으면: wish morning wouldn't come; 월요일이안왔으면: wish Monday wouldn't come
const KO_DREADED_DAYS: WordList =
    WordList("내일이안왔으면|내일이오지않았으면|아침이안왔으면|아침이오지않았으면|월요일이안왔으면");

/// Weeds and pests: with one of them, "죽이다" is about them, not a person.
// 잡초: weeds; 벌레: bugs; 모기: mosquitoes; 해충: pests; 제초제: weedkiller; 살충제: insecticide; 바퀴벌레:
// cockroaches
const KO_PESTS: WordList = WordList("잡초|벌레|모기|해충|제초제|살충제|바퀴벌레");

/// Words that make "vanish" a break from life, not an end of it.
const VANISH_BREAKS: WordList = WordList("여행|일주일|며칠|연락없이|휴가|잠수"); // trip, a week, a few days, no contact, vacation, go quiet

/// Korean words of death or self-erasure for the co-occurrence check.
// 죽: die; 자살: suicide; 목숨: life (to take); 사라지: vanish; 사라져: vanish; 없어지: be gone; 없어져: be gone;
// 이세상에서: from this world; 세상을떠나: leave this world; 영영잠들: sleep for good; 영원히잠들: sleep forever;
// 숨이멎: stop breathing; 장례: funeral; 뛰어내: jump (off); 투신: jump to one's death
const KO_DEATH_WORDS: WordList = WordList(
    "죽|자살|목숨|사라지|사라져|없어지|없어져|이세상에서|세상을떠나|영영잠들|영원히잠들|숨이멎|\
    장례|뛰어내|투신",
);
/// Korean words of wish or intent for the co-occurrence check.
const KO_WISH_WORDS: WordList = WordList(
    "싶|고파|려고|으려|을까|버릴|버리고|좋겠|편할|편해지|나을|답인|방법|계획|했으면|었으면|밖에|\
    수있을까",
);
/// Korean idioms and contexts that make a death word ordinary.
// 소설에서: in a novel; 영화에서: in a film; 드라마에서: in a drama; 게임에서: in a game
const KO_DEATH_IDIOMS: WordList = WordList(
    "소설에서|영화에서|드라마에서|게임에서|죽겠|죽을맛|죽는줄|죽을것같|\
    죽을뻔|죽었다|죽이|죽여|죽일|웃겨|배고파|여행|휴가|게임|영화|드라마|화분|컴퓨터|배터리|돌아가|잠수|\
    일주일|며칠",
);
/// How far apart (in characters) a Korean death word and a wish word may be.
const KO_COOCCURRENCE_SPAN: usize = 12;

/// English words of death or self-erasure (whole words or phrases).
const EN_DEATH_WORDS: WordList = WordList(
    "die|dying|dead|death|suicide|existing|existed|exist|alive|funeral|\
    overdose|rope|noose|not be here|be gone|disappear forever|wake up",
);
/// English words of wish or intent.
const EN_WISH_WORDS: WordList = WordList(
    "i want|i wanna|i wish|i'd rather|i would rather|i'm going to|\
    i am going to|i plan|i'm planning|thinking about|think about|i keep thinking|i'm ready|i'm done|\
    better if|better off|no reason|what if i|i should just|burden|relieved if|tonight|want out",
);
/// English idioms and contexts that make a death word ordinary.
const EN_DEATH_IDIOMS: WordList = WordList(
    "dying to|to die for|died laughing|dead tired|dead on my feet|\
    deadline|battery|phone|car died|plant|game|character|grandma|grandmother|grandfather|grandpa|dog|\
    cat|passed away|death of me|scared of dying|afraid of dying|scared of death|afraid of death|\
    fear of death|don't want to die|do not want to die|not suicidal|would never|wake up early|\
    wake up on time|wake up at|wake up tomorrow morning for",
);
/// How many words apart an English death word and a wish word may be.
const EN_COOCCURRENCE_SPAN: usize = 8;

/// The co-occurrence check: a death word and a wish word close together, no idiom, no
/// denial. Catches indirect wording the patterns do not list ("제가 사라지면 엄마도
/// 편해지겠죠", "I think about dying all the time").
fn death_wish_nearby(compact: &str, spaced: &str) -> Option<String> {
    let (ko, en) = (Shape::of(compact), Shape::of(spaced));
    let korean = || {
        if KO_DEATH_IDIOMS.iter().any(|i| ko.may_hold(i) && compact.contains(i)) {
            return None;
        }
        // Byte offset of every character, and of the end: slices instead of copies.
        let starts: Vec<usize> = compact.char_indices().map(|(b, _)| b).chain([compact.len()]).collect();
        let count = starts.len() - 1;
        (0..count).find_map(|i| {
            let rest = &compact[starts[i]..];
            let death = KO_DEATH_WORDS.iter().find(|d| ko.may_hold(d) && rest.starts_with(*d))?;
            let end = (i + death.chars().count() + KO_COOCCURRENCE_SPAN).min(count);
            let window = &compact[starts[i]..starts[end]];
            if KO_NEGATED_TAILS.iter().any(|t| window.contains(t)) {
                return None;
            }
            KO_WISH_WORDS.iter().find(|w| window.contains(*w)).map(|w| format!("{death}…{w}"))
        })
    };
    let english = || {
        if !en.has_letters() || EN_DEATH_IDIOMS.iter().any(|i| en.may_hold(i) && spaced.contains(i)) {
            return None;
        }
        let words: Vec<&str> =
            spaced.split(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
        // The words joined once, with each word's byte offset: slices instead of copies.
        let joined = words.join(" ");
        let mut offsets = Vec::with_capacity(words.len());
        let mut at = 0;
        for w in &words {
            offsets.push(at);
            at += w.len() + 1;
        }
        let joined_from = |i: usize| &joined[offsets[i]..];
        let position = |phrases: WordList| -> Vec<(usize, String)> {
            (0..words.len())
                .filter_map(|i| {
                    let rest = joined_from(i);
                    phrases
                        .iter()
                        .find(|p| rest.strip_prefix(*p).is_some_and(|r| r.is_empty() || r.starts_with(' ')))
                        .map(|p| (i, p.to_string()))
                })
                .collect()
        };
        let deaths = position(EN_DEATH_WORDS);
        let wishes = position(EN_WISH_WORDS);
        deaths.iter().find_map(|(i, d)| {
            wishes.iter().find(|(j, _)| i.abs_diff(*j) <= EN_COOCCURRENCE_SPAN).map(|(_, w)| format!("{w}…{d}"))
        })
    };
    korean().or_else(english)
}

/// The gap allowed between the two cues of a pair, in characters.
const PAIR_GAP: usize = 3;

/// Korean denials right after a cue (within a few syllables): "죽고 싶지는 않아",
/// "죽고 싶다는 생각은 없어요", "자해는 하지 않아요".
// 지않: not; 진않: not; 지는않: not; 지도않: not even; 생각은없: no thought of; 생각은안: no thought of; 건아니: it's
// not that
const KO_NEGATED_TAILS: WordList = WordList("지않|진않|지는않|지도않|생각은없|생각은안|건아니");

/// What may follow "nobody would notice if" for it to be about the speaker's absence.
const EN_ABSENCES: WordList = WordList(
    "i was gone|i were gone|i'm gone|i died|i was dead|i were dead|i disappeared|i vanished|\
    i wasn't here|i weren't here|i wasn't around|i weren't around|i didn't exist|i killed myself|\
    i stopped existing|i never woke up|i just disappeared|i just vanished",
);

/// English words right before a cue that deny it: "I'm not suicidal", "I would never
/// kill myself", "I don't want to hurt myself".
const EN_NEGATED_BEFORE: WordList = WordList(
    "not |never |don't |dont |do not |didn't |don't want to |dont want to |do not want to |\
    not going to |never going to |won't |wouldn't |don't really |do not really ",
);

/// Cuts the check's English patterns into their alternatives now rather than on the first
/// message (each alternative is compiled at the first message that holds its words). The page
/// calls it while the user types.
pub fn prepare() {
    for pattern in [en_suicide, en_self_harm, en_harm_others] {
        pattern();
    }
}

/// Whether every English pattern is built (`prepare` has run, or a message was checked).
pub fn prepared() -> bool {
    [&SUICIDE, &SELF_HARM, &HARM_OTHERS].iter().all(|cell| cell.get().is_some())
}

// The English patterns, each searched by its alternatives (`pattern::Alternation`).
static SUICIDE: OnceLock<Alternation> = OnceLock::new();
static SELF_HARM: OnceLock<Alternation> = OnceLock::new();
static HARM_OTHERS: OnceLock<Alternation> = OnceLock::new();

/// English wording about suicide, direct and indirect (matched on the lower-case text).
const EN_SUICIDE: &str = concat!(
    r"\b(kill|killing) myself\b|\bsuicid(e|al)\b|\bend(ing)? (my life|it all)\b|\btake my (own )?life\b",
    r"|\b(want|wanna|wanted|going|ready) to die\b|\bwish i (was|were) (dead|never born|gone)\b",
    r"|\bbetter off (dead|without me)\b",
    r"|\b(don'?t|do not|no longer) want to (live|be alive|exist|be here anymore)\b",
    r"|\bno (reason|point) (to|in) (live|living|go on|going on)\b|\b(can'?t|cannot) go on (living|anymore)\b",
    r"|\b(if|wish|hope) i (just )?(didn'?t|did not|wouldn'?t|would not|never|don'?t) wake up\b",
    r"|\bnever wake up again\b|\bnot (to )?wake up (ever )?again\b|\b(sleep|asleep) and (never|not) wake up\b",
    r"|\b(want to|wanna|wish i could|just want to)( go to)?( sleep and)? sleep forever\b",
    r"|\b(happier|better|easier)( off)? (if|when) i('m| am| was| were) (gone|dead|not around|not here)\b",
    r"|\b(no|(don'?t|can'?t|cannot) (see|find|have) any) reason to (live|keep living|go on|keep going|be alive|stay alive)\b",
    r"|\bpoint (of|in) (living|being alive|going on)\b|\b(it all|everything) to (stop|end),? (permanently|forever)\b",
    r"|\b(stockpil|sav|hoard|collect)\w* (up )?(my |some |all )?(sleeping )?(pills|tablets|meds|medication)\b",
    r"|\b(crash|crashing|drive|driving)\b.{0,40}\bon purpose\b",
    r"|\b(want to|wanna|wish i could( just)?) disappear\b",
    r"|\b(jump|jumping) (off|from) (a|the) (bridge|roof|building|balcony|cliff)\b",
    r"|\bhang(ing)? myself\b|\boverdos(e|ing)\b|\bgoodbye (letter|note)s?\b",
    r"|\b(nobody|no one) would (even )?(care|notice|miss me)\b|\bunalive\b",
    r"|\b(ways|how) to (die|kill myself|end (it|my life))\b|\bbetter without me\b",
    r"|\bwish i('d| had| was| were)? never (been )?born\b|\b(not|isn'?t|no longer) worth living\b",
    r"|\bstop (existing|being alive)\b|\bexcept death\b|\bno way out but\b|\brather (be )?dead\b",
    r"|\b(feel like|thinking (of|about)|going to|want to|planning on) end(ing)? it\b",
    r"|\b(take|taking|swallow|swallowing|took) (all|a handful of|the whole bottle of) (of )?(my |the )?(sleeping )?(pills|tablets|meds|medication)\b",
    r"|\bgiv(e|ing) away (all )?(my|of my) (things|stuff|belongings|possessions)\b|\bhow many (pills|tablets)\b",
    r"|\b(can'?t|cannot|can) keep (living|going on)\b|\b(if|when) i (wasn'?t|weren'?t|was not|were not) (around|here|alive)\b",
    r"|\btired of (being alive|living)\b|\bmy (own )?funeral\b|\bsay(ing)? goodbye to (my family|everyone|everybody)\b",
    r"|\b(don'?t|do not) want to wake up (anymore|again|ever)\b|\bend(ed|ing)? everything\b|\bbought (a )?rope\b",
    r"|\bdone (living|with life|being alive)\b|\bout of (this )?life\b|\bno reason (for me )?to (be here|be alive|exist)\b",
    r"|\brather die than (keep|go on|live|feel)|\b(think|thinking|thought) about (dying|death|being dead)\b",
    r"|\bi (had )?never existed\b|\b(relieved|better off|happier|easier) if i (died|was dead|were dead)\b",
    r"|\b(jump|step|walk) in front of (a|the) (train|car|bus|truck)\b",
    r"|\bthinking about jumping\b|\b(roof|bridge|building|balcony|ledge|cliff)\b.{0,60}\bjump",
    // Ending: "this is where my story ends", "I'm thinking of ending things".
    r"|\bwhere (my story|my life|it all|everything) ends\b|\bmy story (is over|ends here)\b",
    r"|\b(ready|want|wanna|going|planning|plan|decided|thinking( of| about)?|time) (to )?end(ing)? (things|my pain|my suffering)\b",
    r"|\b(life|living) (isn'?t|is not|'s not|is no longer|isn'?t really) worth (it|living|the (pain|effort|fight))\b",
    r"|\b(it|life|this) to be over\b|\bwant (it all|everything|this|the pain) to (stop|end|be over) (for good|forever|permanently)\b",
    r"|\bthe pain to (stop|end) (for good|forever|permanently)\b|\b(today|tonight|this) (is|will be) my last (day|night)\b",
    // Disappearing and not waking: "vanish for good", "sleep and not come back".
    r"|\b(disappear|vanish)(ing)?( and (never|not) come back| for good| forever| permanently)\b",
    r"|\b(fall asleep|go to sleep|sleep) and (just )?(stay there|not come back|never come back|stay asleep)\b",
    r"|\bcheck(ing)? out (for good|permanently|of life)\b|\bmade my peace\b",
    r"|\b(after|when|once) i'?m (gone|dead|not here|no longer here)\b",
    r"|\b(don'?t|can'?t|cannot) see myself (being )?(around|alive|here) (next|in|much|by|for)\b",
    r"|\b(tired of|can'?t keep|done) (fighting|trying|struggling) to (stay alive|live|keep going|go on)\b",
    r"|\bkeep wishing i (was|were) (dead|gone|never born)\b",
    // Burden: "I'm nothing but a weight on my family", "simpler without me".
    r"|\b(nothing but|only|just) a (burden|weight|drain|problem) (on|to|for) (my|everyone|everybody|them|people|the people)\b",
    r"|\b(simpler|easier|lighter|happier|calmer) without me\b|\bwon'?t be a (problem|burden) (for|to) (anyone|anybody|everyone|you|them)\b",
    r"|\bfavou?r by (disappearing|dying|being gone|not being here)\b",
    // Goodbyes and preparations, means: "letters for everyone I love", "how high the bridge is".
    r"|\b(letters|notes) (for|to) (everyone|everybody|all the people|the people) i love\b",
    r"|\bhow (high|tall|far down) (the|that|this) (bridge|building|roof|cliff|balcony)\b",
    r"|\bmy (own )?(grave|burial)\b|\bcount(ing)? (them|my pills|the pills)\b.{0,10}$|\b(pills|tablets)\b.{0,40}\bcount(ing)? them\b",
    r"|\b(step|stepping|walk|walking) in front( of)?\b.{0,20}$|\btrain tracks\b.{0,40}\b(step|stepping|jump|lie|lying)"
);

fn en_suicide() -> &'static Alternation {
    SUICIDE.get_or_init(|| Alternation::new(EN_SUICIDE))
}

/// English wording about self-harm.
const EN_SELF_HARM: &str = concat!(
    r"\bself[- ]?harm|\b(harm|harming|cutting|burning) myself\b|\bslit(ting)? my wrists?\b",
    r"|\b(want|wanna|going|urge|need|tempted|started) (to )?(hurt|harm|cut|burn|punish)(ing)? myself\b",
    r"|\bcut myself (again|on purpose)\b|\bstarted cutting\b",
    r"|\b(burn|burned|burnt|hit|hitting|punch|punched|punching|scratch|scratched|hurt|hurting|harm|harming) myself (again|on purpose|with|until|when|to cope|every)\b",
    r"|\buntil (it|they|i) bleeds?\b|\bcut again\b|\brelapsed\b.{0,20}\b(cut|cutting|self[- ]?harm)",
    r"|\b(want|wanna|going|urge|need|tempted) (to )?(hurt|harm|cut|burn|damage) my (own )?(body|arms?|legs?|wrists?|skin)\b",
    r"|\b(cut|cutting|slash|slashed|slashing|burn|burning|burned|burnt|scratch|scratching) (into )?my (arms?|wrists?|legs?|thighs?|skin)\b",
    r"|\b(keep|kept) (hurting|harming|cutting|burning) myself\b",
    r"|\bpunish myself\b|\burge to (cut|hurt|harm|burn)\b|\buntil .{0,20}bleed",
    r"|\b(press|pressed|pressing|put|held|hold|took) (a |the |my )?(blade|razor|knife|lighter|cigarette)\b.{0,12}\b(to|against|on|into) my (arm|wrist|skin|leg|thigh)s?\b",
    r"|\b(hurting|cutting|burning|harming) (my body|myself)\b.{0,30}\b(only thing|calms|helps me|relief|feel something)",
    r"|\bcut myself\b.{0,30}\bto feel\b",
    r"|\b(bang|banged|banging|hit|hitting|slam|slammed|slamming) my head (against|on|into)\b.{0,40}\b(on purpose|until|to feel|to punish)"
);

fn en_self_harm() -> &'static Alternation {
    SELF_HARM.get_or_init(|| Alternation::new(EN_SELF_HARM))
}

/// English wording about harming someone else.
const EN_HARM_OTHERS: &str = concat!(
    r"\b(want|wanna|going|gonna|planning|plan|ready) (to )?(kill|murder|stab|shoot|hurt|strangle|beat up) ",
    r"(him|her|them|you|someone|somebody|people|everyone|everybody|that (guy|man|woman|person)|",
    r"my (step)?(boss|dad|mom|father|mother|husband|wife|brother|sister|roommate|coworker|colleague|neighbou?r|ex|partner|friend|teacher|son|daughter|kids?|uncle|aunt|cousin|classmates?|manager|landlord))\b",
    r"|\bi('?ll| will) (kill|murder|stab|shoot) (him|her|them|you|someone|somebody)\b",
    r"|\bbring(ing)? a (gun|knife) to (school|work|the office)\b",
    r"|\b(imagin\w*|fantasi\w*|thinking about|think about|dream\w* about) (killing|murdering|stabbing|shooting|hurting) ",
    r"(him|her|them|someone|somebody|people|everyone|my \w+)\b",
    r"|\bshoot up (my|the|a) (school|office|work|class)\b|\buntil (he|she|they) stops? breathing\b",
    r"|\bmake (him|her|them) pay\b.{0,40}\b(gun|knife|weapon)\b|\bbought a (gun|weapon)\b.{0,40}\b(him|her|them)\b",
    r"|\b(want|wanna|going|gonna) (to )?(kill|murder|stab|shoot|strangle) the (guy|man|woman|girl|boy|kid|person|people) (who|that)\b",
    r"|\b(thought|thinking|think|dream\w*) about (killing|murdering|stabbing|shooting|poisoning|strangling) (him|her|them|my \w+)\b",
    r"|\bput (him|her|them|someone|my \w+) in (the )?(hospital|a coma|the ground|the grave)\b",
    r"|\b(want|wanna|going|gonna|love) to (see|watch|make) (him|her|them|my \w+|that \w+) (bleed|suffer)\b"
);

fn en_harm_others() -> &'static Alternation {
    HARM_OTHERS.get_or_init(|| Alternation::new(EN_HARM_OTHERS))
}

/// Phrases that name crisis content as the subject of a task: what a moderation tool flags,
/// whom a hotline's bot helps. 자살 위험이 있는 게시글: posts at risk of suicide; 자살/자해 관련 게시글·글·
/// 댓글·콘텐츠: posts, writing, comments, content about suicide/self-harm; 자살을 암시하는 게시글: posts that hint
/// at suicide; 자살 예방 상담: suicide-prevention counselling.
const CONTENT_TOPICS: WordList = WordList(
    "suicidal posts|suicidal post|suicidal content|suicidal comments|suicidal messages|suicidal language|\
     suicidal users|suicidal callers|suicide-related|suicide related|suicide hotline|suicide helpline|\
     suicide crisis line|self-harm content|self-harm posts|self-harm comments|self-harm messages|\
     self-harm keywords|self-harm language|self-harm images|self-harm-related|self-harm related|\
     self harm content|self harm posts|self harm keywords|people thinking about suicide|\
     people who are suicidal|people at risk of suicide|users at risk of suicide|posts about suicide|\
     content about suicide|messages about suicide|posts about self-harm|content about self-harm|\
     자살 위험이 있는 게시글|자살 위험 게시글|자살 관련 게시글|자살 관련 글|자살 관련 댓글|자살 관련 콘텐츠|\
     자해 관련 게시글|자해 관련 글|자해 관련 콘텐츠|자해 게시글|자살 게시글|자살 예방 상담|\
     자살을 암시하는 게시글|자살을 암시하는 글",
);

/// The first crisis cue in a message of a task mode (the chat, the discussion): as `detect`,
/// but crisis content named as a task's subject ("flag suicidal posts for our moderators", "자살
/// 위험이 있는 게시글을 찾아내는 도구") is not a cue by itself. The message is read again without those
/// phrases, so that anything else in it ("…and I want to die too") still is.
pub fn detect_in_task(text: &str) -> Option<Crisis> {
    let found = detect(text)?;
    let lower = text.to_ascii_lowercase().replace(['’', '‘'], "'");
    let without = CONTENT_TOPICS.iter().fold(lower.clone(), |t, w| t.replace(w, " "));
    if without == lower {
        return Some(found);
    }
    detect(&without)
}

/// The first crisis cue in `text`, if any: suicide before self-harm before harming others.
pub fn detect(text: &str) -> Option<Crisis> {
    let mut lower = text.to_ascii_lowercase().replace(['’', '‘'], "'");
    // A removal joins what stood around it: the shape is taken again after each.
    let mut shape = Shape::of(&lower);
    for mention in TOPIC_MENTIONS {
        if shape.may_hold(mention) && lower.contains(mention) {
            lower = lower.replace(mention, " ");
            shape = Shape::of(&lower);
        }
    }
    // "유서 깊은" and "자살 예방" are written with a space; match their compact forms too.
    let mut compact: String = lower.chars().filter(|c| c.is_alphanumeric()).collect();
    let mut joined = Shape::of(&compact);
    for mention in TOPIC_MENTIONS {
        let mention: std::borrow::Cow<str> =
            if mention.contains(' ') { mention.replace(' ', "").into() } else { mention.into() };
        if joined.may_hold(&mention) && compact.contains(&*mention) {
            compact = compact.replace(&*mention, "");
            joined = Shape::of(&compact);
        }
    }
    // "내일이 안 왔으면 좋겠어, 발표가 너무 떨려": dread of a day's ordeal, not of living.
    if crisis_cues::KO_EVERYDAY.iter().any(|w| joined.may_hold(w) && compact.contains(w)) {
        for dread in KO_DREADED_DAYS {
            compact = compact.replace(dread, "");
        }
    }
    let spaced: String = lower.split_whitespace().collect::<Vec<_>>().join(" ");
    // Korean words are looked for in `compact`, English ones in `spaced`.
    let ko = Shape::of(&compact);

    let chars: Vec<char> = compact.chars().collect();
    // Character index of every byte offset that starts a character (and of the end).
    let mut char_of_byte = vec![0usize; compact.len() + 1];
    for (n, (b, _)) in compact.char_indices().enumerate() {
        char_of_byte[b] = n;
    }
    char_of_byte[compact.len()] = chars.len();
    let char_at = |byte: usize| char_of_byte[byte];
    // Whether `a` and `b` occur at most `gap` characters apart, in either order, with no
    // denial right after the later one.
    let near_within = |a: &str, b: &str, gap: usize| {
        if !(ko.may_hold(a) && ko.may_hold(b)) {
            return false;
        }
        compact.match_indices(a).any(|(ia, _)| {
            compact.match_indices(b).any(|(ib, _)| {
                let (sa, ea) = (char_at(ia), char_at(ia) + a.chars().count());
                let (sb, eb) = (char_at(ib), char_at(ib) + b.chars().count());
                let close = (sb >= ea && sb - ea <= gap) || (sa >= eb && sa - eb <= gap);
                let tail: String = chars[ea.max(eb).min(chars.len())..].iter().take(8).collect();
                close && !KO_NEGATED_TAILS.iter().any(|t| tail.contains(t))
            })
        })
    };
    let near = |a: &str, b: &str| near_within(a, b, PAIR_GAP);
    let family = |kind: CrisisKind| -> Option<String> {
        KO_FAMILIES.iter().filter(|f| f.0 == kind).find_map(|(_, firsts, seconds, span)| {
            // Only a first word the text may hold is paired with the seconds.
            firsts
                .iter()
                .filter(|a| ko.may_hold(a))
                .find_map(|a| seconds.iter().find(|b| near_within(a, b, *span)).map(|b| format!("{a}…{b}")))
        })
    };
    let stem_rule = |kind: CrisisKind| -> Option<String> {
        KO_STEM_RULES.iter().filter(|r| r.0 == kind && ko.may_hold(r.1)).find_map(|(_, stem, intents, idioms)| {
            compact.match_indices(stem).find_map(|(at, _)| {
                let start = char_at(at) + stem.chars().count();
                let window: String = chars[start.min(chars.len())..].iter().take(8).collect();
                let idiom = idioms.iter().any(|i| window.starts_with(i))
                    // "여행 가서 일주일 사라지고 싶다": a break, not an end.
                    || (stem.starts_with("사라") || stem.starts_with("없어"))
                        && VANISH_BREAKS.iter().any(|b| compact.contains(b));
                let negated = KO_NEGATED_TAILS.iter().any(|t| window.contains(t));
                let intent = intents.iter().find(|i| window.contains(*i));
                intent.filter(|_| !idiom && !negated).map(|i| format!("{stem}…{i}"))
            })
        })
    };
    let korean = |cues: WordList, pairs: &[(&str, &str)], kind: CrisisKind| -> Option<String> {
        let paired = pairs.iter().find(|(a, b)| near(a, b)).map(|(a, b)| format!("{a}…{b}"));
        paired.or_else(|| stem_rule(kind)).or_else(|| family(kind)).or_else(|| {
            cues.iter().filter(|cue| ko.may_hold(cue)).find_map(|cue| {
                compact.match_indices(cue).find_map(|(at, _)| {
                    let tail: String = compact[at + cue.len()..].chars().take(8).collect();
                    let negated = KO_NEGATED_TAILS.iter().any(|t| tail.contains(t));
                    (!negated).then(|| cue.to_string())
                })
            })
        })
    };
    // Every alternative of the English patterns has an English word in it (a test holds it).
    let en = Shape::of(&spaced);
    let english = |pattern: &Alternation| -> Option<String> {
        if !en.has_letters() {
            return None;
        }
        pattern.find_iter(&spaced, &en).find_map(|m| {
            let before = &spaced[..m.start()];
            let after = &spaced[m.end()..];
            let negated = EN_NEGATED_BEFORE.iter().any(|neg| before.ends_with(neg))
                // "disappear for a weekend" is a break, not an end.
                || (m.as_str().ends_with("disappear")
                    && WordList(" for a| for the| for some| into| on | to ").iter().any(|t| after.starts_with(t)))
                // "ending it with my girlfriend" is a relationship.
                || ((m.as_str().ends_with(" it") || m.as_str().ends_with(" things"))
                    && WordList(" with| between| early| here").iter().any(|t| after.starts_with(t)))
                // "nobody would notice if I left the party early": an errand, not an absence.
                || (m.as_str().contains(" would ")
                    && after.starts_with(" if ")
                    && !EN_ABSENCES.iter().any(|a| after[" if ".len()..].starts_with(a)))
                // "when I'm gone on vacation", "tonight is my last night in Paris".
                || ((m.as_str().ends_with(" gone") || m.as_str().ends_with(" last night") || m.as_str().ends_with(" last day"))
                    && WordList(" on | for | in | at | of | here| before").iter().any(|t| after.starts_with(t)));
            (!negated).then(|| m.as_str().to_string())
        })
    };

    let found = |kind: CrisisKind, cue: Option<String>| cue.map(|cue| Crisis { kind, cue });
    use CrisisKind::*;
    found(
        Suicide,
        korean(KO_SUICIDE, KO_SUICIDE_PAIRS, Suicide)
            .or_else(|| english(en_suicide()))
            .or_else(|| death_wish_nearby(&compact, &spaced)),
    )
    .or_else(|| found(SelfHarm, korean(KO_SELF_HARM, KO_SELF_HARM_PAIRS, SelfHarm).or_else(|| english(en_self_harm()))))
    .or_else(|| {
        found(
            HarmOthers,
            // "잡초는 제초제로 싹 죽여야겠어요": killing weeds or bugs is gardening.
            (!KO_PESTS.iter().any(|p| compact.contains(p)))
                .then(|| korean(KO_HARM_OTHERS, KO_HARM_OTHERS_PAIRS, HarmOthers))
                .flatten()
                .or_else(|| english(en_harm_others())),
        )
    })
    .or_else(|| crisis_cues::weighed(&spaced, &compact).map(|(kind, cue)| Crisis { kind, cue }))
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

/// The bundled crisis sets, for tests (each data line's last tab-separated column is its text).
#[cfg(test)]
pub(crate) const SETS: [&str; 10] = [
    include_str!("../../../tests/data/crisis_dev.tsv"),
    include_str!("../../../tests/data/crisis_utterances.tsv"),
    include_str!("../../../tests/data/crisis_heldout_2.tsv"),
    include_str!("../../../tests/data/crisis_fresh_3.tsv"),
    include_str!("../../../tests/data/crisis_fresh_4.tsv"),
    include_str!("../../../tests/data/crisis_fresh_5.tsv"),
    include_str!("../../../tests/data/crisis_fresh_6.tsv"),
    include_str!("../../../tests/data/crisis_fresh_7.tsv"),
    include_str!("../../../tests/data/crisis_fresh_8.tsv"),
    include_str!("../../../tests/data/crisis_fresh_9.tsv"),
];

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;
    use CrisisKind::*;

    #[test]
    fn the_words_that_let_a_search_skip_an_alternative_are_held_by_every_message_it_matches() {
        let sets = SETS;
        let mut matched = 0;
        for pattern in [EN_SUICIDE, EN_SELF_HARM, EN_HARM_OTHERS] {
            assert!(
                Alternation::new(pattern).every_alternative_has_words(),
                "every English alternative has words to look for first"
            );
            for alternative in crate::engine::pattern::top_level(pattern, '|') {
                let (whole, cut) = (crate::engine::pattern::whole_match(&alternative), Alternation::new(&alternative));
                for line in sets.iter().flat_map(|s| s.lines()).filter(|l| !l.starts_with('#')) {
                    let text = line.rsplit('\t').next().unwrap_or("").to_ascii_lowercase().replace(['’', '‘'], "'");
                    let spaced = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    if whole.is_match(&spaced) {
                        matched += 1;
                        assert!(
                            cut.searches(&spaced),
                            "{alternative:?} matches {spaced:?}, which holds none of its words"
                        );
                    }
                }
            }
        }
        assert!(matched > 100, "the sets exercise the patterns: {matched}");
        // An everyday question holds none of them, so no pattern is searched.
        let question = "how should i clean up the build folder and the caches of this project?";
        for pattern in [en_suicide(), en_self_harm(), en_harm_others()] {
            assert!(!pattern.searches(question));
        }
    }

    #[test]
    fn crisis_content_named_as_a_tasks_subject_is_no_cue_but_anything_else_still_is() {
        for task in [
            "Build a classifier that flags suicidal posts in our forum for moderators",
            "I need a chatbot for a crisis hotline that helps people thinking about suicide find a counselor",
            "how do I write a regex that detects self-harm keywords in comments?",
            "커뮤니티에서 자살 위험이 있는 게시글을 찾아내는 모니터링 도구를 만들고 싶어요",
        ] {
            assert!(detect(task).is_some(), "the counseling mode's check reads it as it is: {task}");
            assert_eq!(detect_in_task(task), None, "{task}");
        }
        for crisis in [
            "I moderate suicidal posts all day and now I want to die too",
            "자살 관련 글을 계속 보다 보니 저도 죽고 싶어요",
            "I want to end my life",
            "I keep thinking about suicide",
        ] {
            assert!(detect_in_task(crisis).is_some(), "{crisis}");
        }
    }

    #[test]
    fn every_english_alternative_needs_an_english_word() {
        // `detect` skips the English patterns on a message without an ASCII letter: that is
        // right only while no alternative can match without one.
        for pattern in [EN_SUICIDE, EN_SELF_HARM, EN_HARM_OTHERS] {
            let all = crate::engine::pattern::top_level(pattern, '|');
            assert!(all.len() > 10);
            for alternative in all {
                let mut literal = String::new();
                let mut chars = alternative.chars();
                let mut longest = 0;
                while let Some(c) = chars.next() {
                    if c == '\\' {
                        chars.next();
                        literal.clear();
                    } else if c.is_ascii_lowercase() {
                        literal.push(c);
                        longest = longest.max(literal.len());
                    } else {
                        literal.clear();
                    }
                }
                // A run of letters (none of the alternatives makes its only words optional).
                assert!(longest >= 2, "no word in {alternative:?}");
            }
        }
        assert!(detect("죽고 싶어요").is_some() && detect("I want to die").is_some());
    }

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
    fn indirect_families_are_detected_and_their_look_alikes_are_not() {
        // (family, crisis wording, look-alike that must stay quiet)
        let cases: &[(&str, &str, CrisisKind, &str)] = &[
            ("ko ending", "제 인생은 여기까지인가 봐요", Suicide, "오늘 회의는 여기까지 할게요"),
            ("ko ending", "이 삶을 그만 내려놓고 싶어", Suicide, "욕심을 내려놓고 싶어"),
            ("ko ending, me too", "다 끝났으면 좋겠어, 나까지", Suicide, "시험이 다 끝났으면 좋겠어"),
            ("ko exhaustion", "더는 못 버티겠어, 그냥 끝내고 싶다", Suicide, "더는 못 버티겠어, 다이어트 그만할래"),
            ("ko not waking", "자다가 그대로 끝났으면 좋겠어", Suicide, "자다가 깼는데 비가 오더라"),
            ("ko no tomorrow", "내일이 영영 안 왔으면", Suicide, "내일이 기대돼"),
            ("ko forever rest", "영원히 눈을 감고 쉬고 싶어", Suicide, "영원히 기억할게"),
            ("ko erasure", "차라리 제가 없는 게 나아요", Suicide, "걱정할 필요 없어요"),
            ("ko burden", "저는 부모님께 짐밖에 안 돼요", Suicide, "짐을 부모님 댁에 맡겼어요"),
            ("ko goodbye", "마지막으로 친구들 얼굴 보고 가려고", Suicide, "마지막으로 질문 하나 할게요"),
            ("ko leaving", "떠날 준비를 했어요, 다시는 안 돌아와요", Suicide, "여행 떠날 준비를 했어요"),
            ("ko afterlife", "저세상에 가고 싶다", Suicide, "저세상 텐션이네"),
            ("ko high place", "옥상에 올라가면 떨어지고 싶어", Suicide, "옥상에서 별을 봤어"),
            ("ko pills", "진통제를 한꺼번에 먹을까 해요", Suicide, "진통제를 먹고 푹 잤어요"),
            ("ko self-harm body", "허벅지를 또 그었어요", SelfHarm, "허벅지 근육이 뭉쳤어요"),
            ("ko self-harm on purpose", "일부러 벽에 주먹을 때려 박았어", SelfHarm, "모르고 문에 머리를 박았어"),
            ("ko harm others", "그 자식을 없애 버리고 싶어", HarmOthers, "이 얼룩을 없애 버리고 싶어"),
            ("ko harm others", "그 사람을 해칠 것 같아 무서워요", HarmOthers, "햇볕이 피부를 해칠까 걱정돼"),
            ("en ending", "I'm thinking of ending things for good", Suicide, "I'm ending things with my boyfriend"),
            ("en ending", "life isn't worth living anymore", Suicide, "this movie isn't worth it"),
            ("en last night", "tonight will be my last night", Suicide, "tonight is my last night in Seoul"),
            ("en disappear", "I want to vanish forever", Suicide, "I want to vanish into a good novel"),
            ("en not waking", "I want to go to sleep and never come back", Suicide, "I want to go to sleep early"),
            ("en gone", "take care of my dog when I'm gone", Suicide, "water the plants when I'm gone on vacation"),
            ("en burden", "I'm just a burden on my family", Suicide, "the rent is a burden on my budget"),
            ("en burden", "everything would be easier without me", Suicide, "the trip would be easier without luggage"),
            ("en goodbye", "I left notes for everyone I love", Suicide, "I left notes for the new team"),
            ("en means", "I checked how high the roof is", Suicide, "I checked how high the mountain is"),
            (
                "en nobody notices",
                "no one would notice if I disappeared",
                Suicide,
                "no one would notice if I left early",
            ),
            ("en self-harm", "I held a lighter to my wrist", SelfHarm, "I held a lighter to the candle"),
            (
                "en self-harm",
                "I slammed my head into the wall until it hurt",
                SelfHarm,
                "I slammed the door on my way out",
            ),
            ("en harm others", "I want to see them bleed", HarmOthers, "I want to see them win"),
            ("en harm others", "I'll put him in the hospital", HarmOthers, "I'll drive him to the hospital"),
        ];
        for (family, crisis, kind, look_alike) in cases {
            let got = detect(crisis).unwrap_or_else(|| panic!("{family}: missed {crisis}"));
            assert_eq!(got.kind, *kind, "{family}: {crisis}");
            assert_eq!(detect(look_alike), None, "{family}: {look_alike}");
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
