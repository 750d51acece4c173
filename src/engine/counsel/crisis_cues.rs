//! Weighted crisis cues: the last layer of the crisis check, for wording that no single
//! phrase catches. Each cue belongs to a concept (absence, finality, burden, a plan or its
//! means, hopelessness, a body, harm); a message crosses the line when the strongest cue of
//! each concept present adds up to [`THRESHOLD`]. One indirect cue alone ("much longer",
//! "옥상") never does; two concepts together ("not going to be around" + "much longer",
//! "옥상" + "확인해 봤어요") do.

use super::crisis::CrisisKind;
use crate::engine::order;
use crate::engine::words::{Shape, WordList};

/// The score (in tenths) a message needs.
const THRESHOLD: u16 = 20;

/// What an everyday setting (a trip, an exam, a lease) takes off a suicide score.
const EVERYDAY_DISCOUNT: u16 = 10;

/// What a cue stands for. Only the strongest cue of each concept counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Concept {
    /// Not being here any more.
    Absence,
    /// A time after which: tonight, much longer, forever.
    Finality,
    /// Others better off without one.
    Burden,
    /// A means or a method.
    Plan,
    /// A high or dangerous place.
    Place,
    /// Something already done to prepare: looked up, written, checked, bought.
    Prepared,
    /// Goodbyes, apologies, giving things away.
    Farewell,
    /// No hope, no strength left.
    Hopeless,
    /// A wish or an intent: "I just want to", "싶어".
    Wish,
    /// The people around: family, everyone.
    Others,
    /// A body part or the self as the object of harm.
    Body,
    /// An act of harm.
    Harm,
    /// A specific other person as the target.
    Target,
}

use Concept::*;

/// A group of cues: the kind they point at, their concept, their weight in tenths, the cues
/// separated by `|` (one string per group keeps the wasm's data small).
type Cues = (CrisisKind, Concept, u16, &'static str);

/// English cues, matched at a word start in lower-case text with single spaces.
const EN_CUES: &[Cues] = &[
    (
        CrisisKind::Suicide,
        Absence,
        15,
        "not be here|won't be here|not going to be here|not being here|\
        being here|be here|not be around|won't be around|not going to be around|be gone soon|fade away|\
        disappear forever|disappear for good|stop existing|cease to exist|stop being alive|\
        fall asleep forever|sleep forever|never wake up|not wake up|take my own life|off myself|unalive|\
        if i died|if i was gone|if i were gone|if i disappeared|after i'm gone|when i'm gone|\
        once i'm gone|the world without me|fine without me|better without me|happier without me|\
        where i'm going|easy to let go|just let go|death feels like|death seems like|death is the only|\
        death would be|deal with me ever again|bus hits me|car hits me|truck hits me|\
        hit by a bus|hit by a car|hit by a train|it on myself|unaliv|be gone by|i'll be gone|to end it|\
        don't make it back|finish what i started|don't make it through|would kill me|ending it|\
        this time i'll finish|finish it this time",
    ),
    (
        CrisisKind::Suicide,
        Absence,
        20,
        "end it all|better off dead|won't wake up tomorrow|fall asleep and never|\
        with me in it|wanna die|want to die|wish i was dead|wish i were dead|want to be dead|way to die|\
        point of staying alive|point of living|point in living|reason to live|reason to stay alive|\
        kill myself|kms|this is my goodbye|my final goodbye|my last message|jumping in front of|\
        jump in front of|jumping off the|jump off the|unalive myself|unaliving myself|sewerslide|\
        sewer slide|self delete|tried to end it|tried to kill myself|to ctb|die in my sleep|pray i die|\
        pray that i die|finish the job myself|die on the table|tried to od|tried to overdose",
    ),
    (
        CrisisKind::Suicide,
        Wish,
        6,
        "i want to|i just want to|i wish i could|i hope i|i'd rather|i'm ready to|\
        i am ready to|let me|i just need to|wanna|i want it|i hope|hope a",
    ),
    (
        CrisisKind::Suicide,
        Finality,
        8,
        "much longer|for good|forever|anymore|after tonight|for the last time|\
        soon|ever again|right now|the last time|the date|this time|tonight|next time|try again",
    ),
    (
        CrisisKind::Suicide,
        Burden,
        15,
        "better off without me|better off if i|would be better off|\
        insurance money|life insurance|without me around|stop being a burden|stop being a problem|\
        a burden to|burden on everyone|move on quickly|move on if i|won't miss me|nobody would miss me|\
        no one would miss me|nobody would notice if i|no one would notice if i|being a burden|relieved",
    ),
    (
        CrisisKind::Suicide,
        Plan,
        12,
        "painless way|ways to go|ways to die|how to die|how many pills|enough pills|\
        all my pills|stockpil|overdose|noose|a rope|train comes|front of a train|front of a bus|\
        jump off|jump from|a gun|the gun|pills|razor|don't survive|survive the fall|gun|car into a wall|\
        car into a tree|car off a|into oncoming|front of the train|stepping off|step off the|\
        in front of it|swallowing all|swallow all|i'll jump|going to jump|gonna jump|take enough|\
        inject it|insulin|into the river|into the lake",
    ),
    (
        CrisisKind::Suicide,
        Place,
        10,
        "the ledge|edge of the|the roof|rooftop|the bridge|the tracks|railing|\
        the platform|a bridge|looking down",
    ),
    (
        CrisisKind::Suicide,
        Prepared,
        10,
        "on purpose|researching|looked up|looking up|googled|wrote my will|writing my will|\
        made a will|wrote a note|left a note|insurance money|life insurance|taken care of after|\
        without telling them why|checked whether|counted|picked the place|picked a place|\
        picked the date|picked a date|set a date|doesn't know it's|on myself|into a tree|into a wall|\
        thinking about using|written letters|wrote letters|gave my|giving my|saving up my|\
        make sure this time|i'll make sure|look like an accident|attempted|my attempt",
    ),
    (
        CrisisKind::Suicide,
        Farewell,
        10,
        "saying goodbye|said goodbye|say goodbye|goodbye letter|goodbye note|\
        giving away my|gave away my|given away my|won't need my|won't need it anymore|won't need them|\
        won't need any of|thank you for everything|sorry for everything|one last time|won't be needing|\
        i love you all",
    ),
    (
        CrisisKind::Suicide,
        Hopeless,
        12,
        "no point in trying|no point in living|no point in going on|\
        no point anymore|done with everything|done with life|can't go on|cannot go on|\
        can't do this anymore|nothing left|no way out|no future|tired of living|tired of being alive|\
        everything to stop|all to stop|make it stop|want out|only way out|way out of this|\
        never going to get better|ever going to get better|what's the point|whats the point",
    ),
    (
        CrisisKind::SelfHarm,
        Harm,
        15,
        "cutting again|cutting myself|cut myself|cut my arm|cut my wrist|\
        burn myself|burned myself|burnt myself|burning myself|hurt myself|hurting myself|hit myself|\
        hitting myself|punch myself|starve myself|starving myself|scratch myself|cigarette on my|\
        relapsed|punched the wall|punch the wall|punching walls|bang my head|banged my head|\
        don't deserve food|don't deserve to eat|razor blade|a razor|urge to sh|urge to cut|\
        the urge to hurt|the blade|a blade|punch my own|hit my own|slap myself|my own face|burned my|\
        burn my|body to suffer",
    ),
    (
        CrisisKind::SelfHarm,
        Body,
        10,
        "hiding the marks|hiding the scars|hiding the cuts|hide the marks|\
        hide the scars|hide the cuts|long sleeves|to feel something|until it bleeds|until it bled|\
        as punishment|deserve the pain|my hand|my arm|my skin|my thigh|bled|bruises|bruised|deserved it|\
        deserve it|knuckles|in the head|haven't eaten|when it gets too much|the urge|right next to me|\
        tonight|years clean|months clean|days clean|weeks clean|on purpose|forearm|with a lighter|\
        feel something",
    ),
    (
        CrisisKind::HarmOthers,
        Harm,
        12,
        "going to hurt|gonna hurt|want to hurt|i'll hurt|going to kill|\
        gonna kill|going to stab|going to beat|gonna beat|beat him|beat her|running my|running him|\
        running her|run him over|run her over|make him pay|make her pay|make them pay|make him suffer|\
        make her suffer|break his|break her|poison|bringing a bat|bring a bat|bringing a knife|\
        bring a knife|bought a gun|got a gun|going to get hurt|gonna get hurt|going to pay|\
        about to find out|to hurt her|to hurt him|to hurt them|make him sick|make her sick|\
        make him really sick|make her really sick|in his food|in her food|bringing my knife|my knife|\
        he's done|she's done|house down|pistol|what's coming to him|what's coming to her|kill her|\
        kill him|get stabbed|rifle|regret it",
    ),
    (
        CrisisKind::HarmOthers,
        Target,
        10,
        "the kid who|the guy who|the man who|the woman who|the girl who|\
        the boy who|my ex|my boss|my neighbor|my neighbour|my stepdad|my brother|my sister|him|her |\
        with my car|know where he|know where she|know where they|wait for him|wait for her|outside his|\
        outside her|what time he|what time she|where he lives|where she lives|the kids who|\
        i've got a plan|i have a plan|my roommate|my dad|my mom|my stepmom|my coworker|my teacher|\
        kid who|bullies me|my brother's|him inside|her inside|them inside|with him in|with her in",
    ),
    (CrisisKind::Suicide, Others, 8, "my family|my parents|my kids|my wife|my husband|everyone|nobody|no one"),
    (CrisisKind::Suicide, Plan, 20, "lethal dose|lethal amount|fatal dose"),
];

/// Korean cues, matched on text with spaces and punctuation removed.
const KO_CUES: &[Cues] = &[
    // 저는없을거: I will not be here; 나는없을거: I will not be here; 저는없을테: I will not be here; 나는없을테: I will not be
    // here; 저없이: without me; 나없이: without me; 저하나없어: just me gone; 나하나없어: just me gone; 없어진다고: (if I) am gone;
    // 사라진다고: (if I) vanish; 제가없어지면: if I am gone; 내가없어지면: if I am gone; 제가사라지면: if I vanish; 내가사라지면: if I
    // vanish; 먼저갈게: I'll go first; 먼저가요: I'm going first; 먼저떠날: leave first; 떠날때가: time to leave; 떠날준비: ready
    // to leave; 영원히잠: sleep forever; 없는사람: a person who isn't there; 끝내는게나: better to end it; 끝내버리고싶: want to
    // end it all; 내가죽으면: if I die; 제가죽으면: if I die; 죽으면: if (I) die; 죽는지: whether one dies; 떠나고싶: want to
    // leave; 사라져주: vanish (for others); 없어져주: be gone (for others); 죽어야: only by dying; 끝내는게맞: ending it is
    // right; 내가떠나면: when I leave; 내가가고나면: after I'm gone; 제가가고나면: after I'm gone; 끝낼생각: thinking of ending it;
    // 마지막대화: last conversation; 마지막편지: last letter; 마지막인사: last goodbye; 먼저떠나: leave first; 죽을수있: can die;
    // 확실히죽: surely die; 죽고나면: after I die; 끝내버릴까: should I end it; 제가죽어서: by my dying; 내가죽어서: by my dying
    (
        CrisisKind::Suicide,
        Absence,
        15,
        "저는없을거|나는없을거|저는없을테|나는없을테|저없이|나없이|저하나없어|\
        나하나없어|없어진다고|사라진다고|제가없어지면|내가없어지면|제가사라지면|내가사라지면|먼저갈게|\
        먼저가요|먼저떠날|떠날때가|떠날준비|영원히잠|없는사람|끝내는게나|끝내버리고싶|내가죽으면|\
        제가죽으면|죽으면|죽는지|떠나고싶|사라져주|없어져주|죽어야|끝내는게맞|내가떠나면|내가가고나면|\
        제가가고나면|끝낼생각|마지막대화|마지막편지|마지막인사|먼저떠나|죽을수있|확실히죽|죽고나면|\
        끝내버릴까|제가죽어서|내가죽어서",
    ),
    // want to, wish
    (CrisisKind::Suicide, Wish, 6, "고싶어|고싶다|고싶네|으면좋겠|았으면|었으면"),
    // 오늘밤이지나면: after tonight; 오늘밤: tonight; 마지막: last; 영원히: forever; 더이상: any more; 이제: now; 진짜로: for real;
    // 이번엔: this time; 오늘은: today (for sure); 영영: forever; 진심: I mean it; 이번주: this week; 토요일에: on Saturday;
    // 일요일에: on Sunday; 오늘: today
    (
        CrisisKind::Suicide,
        Finality,
        8,
        "오늘밤이지나면|오늘밤|마지막|영원히|더이상|이제|진짜로|이번엔|오늘은|\
        영영|진심|이번주|토요일에|일요일에|오늘",
    ),
    // 잘살거: (they) will live well; 더잘살: live better; 더행복할: be happier; 짐이될: become a burden; 짐만: only a burden;
    // 폐만끼: only a nuisance; 민폐: a nuisance; 달라지진않: nothing changes; 달라지지않: nothing changes; 아무도모를: no one would
    // know; 아무도신경안: no one would care
    (
        CrisisKind::Suicide,
        Burden,
        15,
        "잘살거|더잘살|더행복할|짐이될|짐만|폐만끼|민폐|달라지진않|달라지지않|\
        아무도모를|아무도신경안",
    ),
    // 투신: jumping; 뛰어내: jump off; 번개탄: charcoal briquette; 연탄: coal briquette; 밧줄: rope; 수면제: sleeping pills;
    // 약을모: collecting pills; 유서: a suicide note; 목을매: hang oneself; 목맬: hang oneself; 목을맬: hang oneself; 떨어져야:
    // would have to fall; 뛰어들: jump in; 몇알: how many pills; 한움큼: a handful (of pills); 떨어져버리: fall (off);
    // 뛰어들고싶: want to jump in; 수면유도제: sleep aids; 한꺼번에먹: take all at once; 총으로: with a gun; 덜아플: hurt less;
    // 안아프게: painlessly; 떨어질거: will fall; 떨어지고싶: want to fall; 약모아: collecting pills; 제몸에놓: inject into my body
    (
        CrisisKind::Suicide,
        Plan,
        12,
        "투신|뛰어내|번개탄|연탄|밧줄|수면제|약을모|유서|목을매|목맬|목을맬|\
        떨어져야|뛰어들|몇알|한움큼|떨어져버리|뛰어들고싶|수면유도제|한꺼번에먹|총으로|덜아플|안아프게|\
        떨어질거|떨어지고싶|약모아|제몸에놓",
    ),
    // 옥상: rooftop; 한강다리: a Han river bridge; 다리위: on a bridge; 난간: railing; 철로: railway track; 선로: railway
    // track; 베란다: balcony; 한강: the Han river
    (CrisisKind::Suicide, Place, 10, "옥상|한강다리|다리위|난간|철로|선로|베란다|한강"),
    // 확인해봤: checked (whether); 알아봤: looked into; 검색해봤: searched for; 적어뒀: wrote down; 적어두었: wrote down; 써뒀:
    // wrote; 써놨: wrote; 정리해뒀: put in order; 정리하고있: putting things in order; 주변정리: settling my affairs; 보험금:
    // insurance money; 한참서있: stood there a long time; 준비는다: all prepared; 준비다: all prepared; 찾게돼: keep looking
    // for; 찾아봤: looked for; 찾고있: looking for; 키워주기로: (someone) will raise (my pet); 맡기기로: decided to entrust;
    // 필요없을거: won't need (it); 알아보고있: looking into; 날짜정하: set the date; 날짜를정: set the date; 날을잡: set the day;
    // 날짜정했: set the date; 필요없을테: won't need (it); 사놨: bought already; 사뒀: bought already; 사놓: bought already;
    // 준비해놨: prepared; 준비해뒀: prepared; 부탁해뒀: asked (someone) in advance; 맡아줄: will look after; 모았어: collected;
    // 실패안할: won't fail; 실패하지않을: won't fail; 찾아보고: looking up
    (
        CrisisKind::Suicide,
        Prepared,
        10,
        "확인해봤|알아봤|검색해봤|적어뒀|적어두었|써뒀|써놨|정리해뒀|정리하고있|\
        주변정리|보험금|한참서있|준비는다|준비다|찾게돼|찾아봤|찾고있|키워주기로|맡기기로|필요없을거|\
        알아보고있|날짜정하|날짜를정|날을잡|날짜정했|필요없을테|사놨|사뒀|사놓|준비해놨|준비해뒀|\
        부탁해뒀|맡아줄|모았어|실패안할|실패하지않을|찾아보고",
    ),
    // 나눠줬: gave away; 나눠주고: giving away; 주기로: decided to give (to someone); 미련도없: no lingering attachment;
    // 미련이없: no lingering attachment; 작별: farewell; 미안해: I'm sorry; 고마웠: thank you (for everything); 다줬어: gave
    // it all away; 고마워요: thank you; 고마웠어요: thank you for everything; 미안하다고: saying sorry; 남길: to leave behind;
    // 마지막으로: one last time
    (
        CrisisKind::Suicide,
        Farewell,
        10,
        "나눠줬|나눠주고|주기로|미련도없|미련이없|작별|미안해|고마웠|다줬어|\
        고마워요|고마웠어요|미안하다고|남길|마지막으로",
    ),
    // 살아갈힘이없: no strength to go on living; 살힘이없: no strength to live; 살아갈힘도없: no strength to go on living;
    // 버틸힘이없: no strength to hold on; 희망이없: no hope; 희망도없: no hope; 아무의미없: meaningless; 다소용없: all useless; 끝이안보:
    // no end in sight; 사느니: rather than live (like this); 고통도다끝: the pain would all end; 고통이끝: the pain would
    // end; 고통도끝: the pain would end; 나아질일은없: nothing will get better; 나아지지않을: won't get better; 필요로하지않: nobody
    // needs (me); 살아봤자: what use living; 사는게지옥: living is hell; 나아질것도없: nothing will get better; 못버티겠: can't
    // hold on; 더는못버티: can't hold on any more
    (
        CrisisKind::Suicide,
        Hopeless,
        12,
        "살아갈힘이없|살힘이없|살아갈힘도없|버틸힘이없|희망이없|희망도없|\
        아무의미없|다소용없|끝이안보|사느니|고통도다끝|고통이끝|고통도끝|나아질일은없|나아지지않을|\
        필요로하지않|살아봤자|사는게지옥|나아질것도없|못버티겠|더는못버티",
    ),
    (CrisisKind::Suicide, Hopeless, 20, "살아갈힘이없|살아갈힘도없|살힘이없"),
    // 태어나지않는게: better not born; 태어나지않았으면: wish I had not been born; 세상에없을: not in this world; 이세상을떠나: leave
    // this world; 세상을그만: stop (being in) the world; 뒤지고싶: want to die (slang); 뒤져버리고싶: want to die (slang);
    // 디지고싶: want to die (slang); 주거버리고싶: want to die (misspelt); 주거버릴: die (misspelt); 존재하고싶지않: don't want to
    // exist; 존재하기싫: hate existing; 그만살려: going to stop living; 죽을준비: ready to die; 나를쏴: shoot myself; 나를쏘:
    // shoot myself; 죽게해달라: let (me) die; 죽게해주세요: please let (me) die; 데려가달라: take (me) away; 스스로마감: end (my
    // life) myself; 삶을마감: end my life
    (
        CrisisKind::Suicide,
        Absence,
        20,
        "태어나지않는게|태어나지않았으면|세상에없을|이세상을떠나|세상을그만|\
        뒤지고싶|뒤져버리고싶|디지고싶|주거버리고싶|주거버릴|존재하고싶지않|존재하기싫|그만살려|\
        죽을준비|나를쏴|나를쏘|죽게해달라|죽게해주세요|데려가달라|스스로마감|삶을마감",
    ),
    // 지졌: burned (skin); 지지고: burning (skin); 그었: cut (a line); 긋고: cutting; 때렸: hit; 꼬집: pinched; 상처를냈: made
    // wounds; 상처를내: making wounds; 피가나도록: until it bleeds; 굶었: starved; 굶고있: starving; 지지면: burn (skin); 지져:
    // burn (skin); 칼자국: knife scars; 안먹고있: not eating; 안먹었: didn't eat; 굶고: starving; 삼켰: swallowed; 한움큼: a
    // handful (of pills); 상처내: cut (oneself); 칼로: with a knife; 때려요: hit; 머리를박: bang my head; 머리박: bang my
    // head; 나자신괴롭히: torment myself; 들이부었: poured down (drink); 진통제: painkillers; 들이부어: pour down (drink); 넘게먹었:
    // took more than
    (
        CrisisKind::SelfHarm,
        Harm,
        12,
        "지졌|지지고|그었|긋고|때렸|꼬집|상처를냈|상처를내|피가나도록|굶었|굶고있|\
        지지면|지져|칼자국|안먹고있|안먹었|굶고|삼켰|한움큼|상처내|칼로|때려요|머리를박|머리박|\
        나자신괴롭히|들이부었|진통제|들이부어|넘게먹었",
    ),
    // 손등: back of the hand; 손목: wrist; 팔을: arm; 팔에: on the arm; 허벅지: thigh; 제몸: my body; 내몸: my body; 스스로:
    // myself; 벌로: as punishment; 벌주려고: to punish; 라이터로: with a lighter; 담뱃불: cigarette burn; 커터칼: box cutter;
    // 제얼굴: my face; 내얼굴: my face; 제머리: my head; 내머리: my head; 주먹으로: with a fist; 긴팔: long sleeves; 이래도싸: I
    // deserve it; 일부러: on purpose; 자격도없: don't deserve; 자격이없: don't deserve; 벌주: punish (myself); 제뺨: my cheek;
    // 내뺨: my cheek; 멍이들: bruised; 멍들: bruised; 벽에: against the wall; 아플때까지: until it hurts; 망가지라고: so it breaks
    // down; 몸이아팠으면: want my body to hurt
    (
        CrisisKind::SelfHarm,
        Body,
        10,
        "손등|손목|팔을|팔에|허벅지|제몸|내몸|스스로|벌로|벌주려고|라이터로|담뱃불|\
        커터칼|제얼굴|내얼굴|제머리|내머리|주먹으로|긴팔|이래도싸|일부러|자격도없|자격이없|벌주|제뺨|\
        내뺨|멍이들|멍들|벽에|아플때까지|망가지라고|몸이아팠으면",
    ),
    // 찔러버릴: will stab; 찔러버리: stab; 찌를거: will stab; 패버릴: will beat up; 패버리고싶: want to beat up; 때려서: by hitting;
    // 병원에보내: send to hospital; 병원신세: hospital; 가만두지않: won't leave alone; 가만안둘: won't leave alone; 복수할: will
    // take revenge; 칼챙겨: bring a knife; 칼을챙겨: bring a knife; 피흘리게: make bleed; 내려칠: strike down; 못걷게: make
    // unable to walk; 망치로: with a hammer; 죽일거: will kill; 죽일꺼: will kill; 패줄거: will beat up; 두들겨패: beat up;
    // 눌러버릴: smother; 질식: suffocate; 가만안둬: won't leave alone; 야구방망이: baseball bat; 브레이크: brakes; 끊어놓: cut (the
    // line); 못일어나게: so (they) never get up; 타서: slip (something) in; 숨막히게: suffocate; 불질러: set on fire; 휘발유:
    // gasoline; 쥐약: rat poison; 타버리: slip (poison) in; 해치워버릴: finish off; 깨버릴: smash; 망치: hammer; 불지르려: to set
    // fire; 불을지르: set fire; 농약: pesticide; 타려고: to slip (it) in
    (
        CrisisKind::HarmOthers,
        Harm,
        12,
        "찔러버릴|찔러버리|찌를거|패버릴|패버리고싶|때려서|병원에보내|병원신세|\
        가만두지않|가만안둘|복수할|칼챙겨|칼을챙겨|피흘리게|내려칠|못걷게|망치로|죽일거|죽일꺼|패줄거|\
        두들겨패|눌러버릴|질식|가만안둬|야구방망이|브레이크|끊어놓|못일어나게|타서|숨막히게|불질러|\
        휘발유|쥐약|타버리|해치워버릴|깨버릴|망치|불지르려|불을지르|농약|타려고",
    ),
    // 그사람: that person; 그새끼: that bastard; 그놈: that guy; 그년: that woman (slur); 동생을: my younger sibling; 형을: my
    // older brother; 남편을: my husband; 아내를: my wife; 상사를: my boss; 팀장: team lead; 집앞에서: in front of (their)
    // house; 기다렸다가: wait and then; 버리고싶: want to (do it) completely; 버릴거: will (do it) completely; 전남친:
    // ex-boyfriend; 전여친: ex-girlfriend; 새엄마: stepmother; 새아빠: stepfather; 옆집: next door; 걔: that kid; 애들: those
    // kids; 주소알아냈: found the address; 어디사는지: where (they) live; 아빠를: dad; 엄마를: mom; 동생: younger sibling; 시어머니:
    // mother-in-law; 룸메: roommate; 남친을: boyfriend; 여친을: girlfriend; 선배를: senior; 의붓: step(-parent); 계부:
    // stepfather; 계모: stepmother; 선임: senior (soldier); 윗집: upstairs neighbour; 아랫집: downstairs neighbour;
    // 방법도다생각해: thought out how; 사채업자: loan shark
    (
        CrisisKind::HarmOthers,
        Target,
        10,
        "그사람|그새끼|그놈|그년|동생을|형을|남편을|아내를|상사를|팀장|\
        집앞에서|기다렸다가|버리고싶|버릴거|전남친|전여친|새엄마|새아빠|옆집|걔|애들|주소알아냈|\
        어디사는지|아빠를|엄마를|동생|시어머니|룸메|남친을|여친을|선배를|의붓|계부|계모|선임|윗집|\
        아랫집|방법도다생각해|사채업자",
    ),
    // 가족: family; 부모님: parents; 엄마: mom; 다들: everyone; 모두: everyone
    (CrisisKind::Suicide, Others, 8, "가족|부모님|엄마|다들|모두"),
    // 사놨: bought already; 사다놨: bought already; 챙겨놨: packed already; 준비해놨: prepared; 이미: already
    (CrisisKind::HarmOthers, Prepared, 10, "사놨|사다놨|챙겨놨|준비해놨|이미"),
    // 끝낼거: will end it; 끝낼게: will end it
    (CrisisKind::Suicide, Absence, 12, "끝낼거|끝낼게"),
];

/// English words that, right before a cue, deny it.
const EN_DENIALS: WordList = WordList(
    "don't |do not |never |not |no longer |wouldn't |won't |don't want to |do not want to |\
    never want to |not trying to |not planning to |would never ",
);

/// Korean endings that, right after a cue, deny it (a cue followed by "않아요", "안 해요").
const KO_DENIALS: WordList = WordList("않아|않을|않습|안해|안할|안합|아니|없어요괜찮|지않|진않|지마");

/// Korean words that make a cue about an everyday thing (a presentation, an exam, a trip).
// 발표: presentation; 시험: exam; 면접: interview; 출근: going to work; 월요일: Monday; 마감: deadline; 여행: trip;
// 휴가: vacation; 이사: moving house; 회사: the company; 퇴사: quitting a job; 게임: game; 드라마: drama; 영화: film;
// 소설: novel; 뉴스: news
pub(super) const KO_EVERYDAY: WordList =
    WordList("발표|시험|면접|출근|월요일|마감|여행|휴가|이사|회사|퇴사|게임|드라마|영화|소설|뉴스");

/// English words that make a cue about an everyday thing.
const EN_EVERYDAY: WordList = WordList(
    "vacation|holiday|trip|job|company|office|game|movie|film|novel|book|show|episode|season|news|\
    apartment|lease|move out|moving|subscription|account|app",
);

/// English words that, right after a cue, make it a retreat rather than an end: "fade away
/// into the background", "disappear for a weekend", "end it with my girlfriend".
const EN_RETREATS: WordList = WordList(" into | for a | for the | from | on a | with ");

/// Where `cue` occurs in `text` at a word start, neither denied right before it nor (with
/// `retreats`, for suicide cues) made a retreat right after it, and not inside a span another
/// concept already took.
fn en_find(text: &str, cue: &str, taken: &[(usize, usize)], retreats: bool) -> Option<(usize, usize)> {
    text.match_indices(cue).map(|(at, _)| (at, at + cue.len())).find(|&(at, end)| {
        let (before, after) = (&text[..at], &text[end..]);
        let word_start = before.chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        // "my mom is going to kill me": the speaker is the one threatened, in jest.
        let at_me = after == " me" || after.starts_with(" me ");
        let retreat = retreats && EN_RETREATS.iter().any(|r| after.starts_with(r));
        word_start && !at_me && !retreat && !EN_DENIALS.iter().any(|d| before.ends_with(d)) && !overlaps(taken, at, end)
    })
}

/// Where `cue` occurs in the compact Korean `text`, not denied right after it, and not
/// inside a span another concept already took.
fn ko_find(text: &str, cue: &str, taken: &[(usize, usize)]) -> Option<(usize, usize)> {
    text.match_indices(cue).map(|(at, _)| (at, at + cue.len())).find(|&(at, end)| {
        let tail: String = text[end..].chars().take(4).collect();
        !KO_DENIALS.iter().any(|d| tail.starts_with(d)) && !overlaps(taken, at, end)
    })
}

fn overlaps(taken: &[(usize, usize)], start: usize, end: usize) -> bool {
    taken.iter().any(|&(s, e)| start < e && s < end)
}

/// A cue found for a concept: its weight, where it is (in the English or the Korean text).
struct Hit {
    concept: Concept,
    weight: u16,
    cue: &'static str,
    english: bool,
    span: (usize, usize),
}

/// The kind and the cues (joined with "+") of a message whose weighted cues cross the line.
/// `spaced` is the lower-case text with single spaces, `compact` the same with no spaces or
/// punctuation.
pub(super) fn weighed(spaced: &str, compact: &str) -> Option<(CrisisKind, String)> {
    let (en, ko) = (Shape::of(spaced), Shape::of(compact));
    let everyday_en = EN_EVERYDAY.iter().any(|w| en.may_hold(w) && en_find(spaced, w, &[], false).is_some());
    let everyday_ko = KO_EVERYDAY.iter().any(|w| ko.may_hold(w) && compact.contains(w));
    [CrisisKind::Suicide, CrisisKind::SelfHarm, CrisisKind::HarmOthers].into_iter().find_map(|kind| {
        // The strongest cue of each concept.
        let mut best: Vec<Hit> = Vec::new();
        for (table, text, english, shape) in [(EN_CUES, spaced, true, en), (KO_CUES, compact, false, ko)] {
            // The strongest groups first: "뒤지고싶" is a death wish before "고싶" is a wish.
            let mut groups: Vec<&Cues> = table.iter().filter(|c| c.0 == kind).collect();
            order::sort_by_key(&mut groups, |g| u128::from(order::descending(u64::from(g.2))));
            for (_, concept, weight, cues) in groups {
                // Spans other concepts took in this text: "sleep forever" is not also "forever".
                let taken: Vec<(usize, usize)> =
                    best.iter().filter(|b| b.concept != *concept && b.english == english).map(|b| b.span).collect();
                let hit = WordList(cues).iter().filter(|cue| shape.may_hold(cue)).find_map(|cue| {
                    if english {
                        en_find(text, cue, &taken, kind == CrisisKind::Suicide)
                    } else {
                        ko_find(text, cue, &taken)
                    }
                    .map(|span| (cue, span))
                });
                let Some((cue, span)) = hit else { continue };
                let entry = Hit { concept: *concept, weight: *weight, cue, english, span };
                match best.iter_mut().find(|b| b.concept == *concept) {
                    Some(b) if b.weight >= *weight => {}
                    Some(b) => *b = entry,
                    None => best.push(entry),
                }
            }
        }
        // An everyday setting takes one indirect cue's worth off a suicide score: "I won't be
        // around much longer, the lease ends in May", "오늘 밤이 마지막이야, 내일 이사 가".
        // A strong cue (a whole threshold's worth) stands.
        let everyday = (everyday_en || everyday_ko) && kind == CrisisKind::Suicide;
        let strong = best.iter().any(|b| b.weight >= THRESHOLD);
        let discount = if everyday && !strong { EVERYDAY_DISCOUNT } else { 0 };
        let score = best.iter().map(|b| b.weight).sum::<u16>().saturating_sub(discount);
        let cues = best.iter().map(|b| b.cue).collect::<Vec<_>>().join("+");
        (score >= THRESHOLD).then_some((kind, cues))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use CrisisKind::*;

    /// The weighed layer on a message, prepared the way `crisis::detect` prepares it.
    fn weigh(text: &str) -> Option<CrisisKind> {
        let spaced = text.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
        let compact: String = spaced.chars().filter(|c| c.is_alphanumeric()).collect();
        weighed(&spaced, &compact).map(|(kind, _)| kind)
    }

    #[test]
    fn two_concepts_together_cross_the_line_one_alone_does_not() {
        let cases: &[(&str, Option<CrisisKind>)] = &[
            // Absence + finality; absence alone.
            ("I'm not going to be around much longer", Some(Suicide)),
            ("I'm not going to be around this weekend", None),
            // A means + a preparation; the means alone.
            ("옥상 문이 열려 있는지 확인해 봤어요", Some(Suicide)), // checked whether the rooftop door is open
            ("옥상에서 고기 구워 먹었어요", None),                  // we had a barbecue on the rooftop
            // A burden + the people around.
            ("my family would be fine without me", Some(Suicide)),
            ("the team will be fine without me for a week", None),
            // A farewell + a preparation.
            ("I wrote my will last night, I won't need my things", Some(Suicide)),
            ("I wrote my will last night, my lawyer insisted", None),
            // Self-harm: an act + a body or a reason; the act alone.
            ("라이터로 손등을 지졌어요", Some(SelfHarm)), // burned the back of my hand with a lighter
            ("전을 지졌어요", None),                      // pan-fried pancakes
            ("I hit myself in the head when I mess up, hard enough to leave bruises", Some(SelfHarm)),
            // Harm to others: an act + a target; the act alone.
            ("그 사람 집 앞에서 기다렸다가 찔러 버릴 거예요", Some(HarmOthers)), // wait at their door and stab
            ("I bought a gun and my ex is about to find out", Some(HarmOthers)),
            ("I'm going to hurt the kid who bullies my son", Some(HarmOthers)),
            ("I'm going to hurt my chances if I skip this", None),
        ];
        for (text, want) in cases {
            assert_eq!(weigh(text), *want, "{text}");
        }
    }

    #[test]
    fn a_strong_cue_alone_is_enough() {
        for text in
            ["wanna die so bad rn", "걍 뒤지고싶다 사는게 지옥이야", "sometimes i hope the plane crashes with me in it"]
        {
            assert_eq!(weigh(text), Some(Suicide), "{text}");
        }
    }

    #[test]
    fn a_span_counts_for_one_concept_only() {
        // "sleep forever" is an absence; its "forever" is not also a finality.
        assert_eq!(weigh("I could sleep forever after that hike"), None);
        // A real second concept still adds up.
        assert_eq!(weigh("I just want to fall asleep forever"), Some(Suicide));
        // The strongest group claims its span first: "뒤지고싶" before the wish "고싶".
        assert_eq!(weigh("뒤지고싶다"), Some(Suicide));
    }

    #[test]
    fn denials_retreats_everyday_settings_and_jokes_about_me_do_not_trigger() {
        let cases = [
            "I don't want to end it all, I want help",              // denied
            "I want to fade away into the background at parties",   // a retreat
            "I'm going to end it with my girlfriend",               // a retreat
            "I won't be around much longer, the lease ends in May", // an everyday setting
            "내일이 안 왔으면 좋겠어, 발표가 너무 떨려",            // dread of a presentation
            "my mom is going to kill me when she sees this tattoo lol",
        ];
        for text in cases {
            assert_eq!(weigh(text), None, "{text}");
        }
        assert_eq!(super::super::crisis::detect("내일이 안 왔으면 좋겠어, 발표가 너무 떨려"), None);
    }

    #[test]
    fn weeds_and_pests_are_gardening_poisoning_a_person_is_not() {
        use super::super::crisis::detect;
        assert_eq!(detect("논두렁 잡초는 제초제로 싹 죽여야겠어요"), None); // kill the weeds with weedkiller
        assert_eq!(detect("마당 잡초 죽이려고 제초제 뿌렸어요"), None); // sprayed weedkiller in the yard
        let poison = detect("시어머니 국에 쥐약을 타버리고 싶어요"); // rat poison in mother-in-law's soup
        assert_eq!(poison.map(|c| c.kind), Some(HarmOthers));
    }
}
