//! What the counselor is not, said plainly when the user asks it to be: a person, a diagnostician,
//! a prescriber. The no-key counselor leads its reply with the matching note; a model answers
//! these from its instructions.

use crate::engine::lang::Lang;
use crate::engine::words::WordList;

/// A request past what this conversation partner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// "are you a real person?", "너 사람이야?"
    Identity,
    /// "I want to talk to a human", "진짜 상담사랑 얘기하고 싶어요"
    HumanWanted,
    /// "can you diagnose me?", "저 우울증인지 진단해 줄 수 있어요?"
    Diagnosis,
    /// "should I stop taking my meds?", "약 끊어도 될까요?"
    Medication,
}

/// Korean and English words of each boundary; Korean is matched on the text without spaces.
// 사람이야/사람이에요/사람인가요/사람 맞: are you a person; 로봇이야/봇이야/챗봇이야/기계야: are you a robot, a bot, a
// machine; 인공지능이야/인공지능이에요: are you an AI
const IDENTITY_KO: WordList =
    WordList("사람이야|사람이에요|사람인가요|사람맞|진짜사람|로봇이야|로봇이에요|봇이야|챗봇이야|기계야|인공지능이야|인공지능이에요|ai야|ai예요|ai인가요");
const IDENTITY_EN: WordList = WordList(
    "are you a person|are you a real person|are you human|are you a human|are you real|are you a bot|\
    are you a robot|are you an ai|are you ai|am i talking to a person|am i talking to a real person|\
    am i talking to a human|am i talking to a bot|is this a real person|is this a bot|is this an ai",
);
// 사람이랑/사람하고/사람과 얘기·이야기: talk with a person; 상담사랑/상담사와: with a counselor; 진짜 상담사: a real
// counselor; 상담 선생님: a counselor; 전문 상담: professional counseling
const HUMAN_KO: WordList = WordList(
    "사람이랑얘기|사람하고얘기|사람과얘기|사람이랑이야기|사람하고이야기|사람과이야기|상담사랑얘기|상담사와얘기|\
    상담사랑이야기|상담사와이야기|진짜상담사|상담선생님|전문상담",
);
const HUMAN_EN: WordList = WordList(
    "talk to a human|talk to a person|talk to a real person|speak to a human|speak to a person|\
    talk with a human|talk with a person|real counselor|real therapist|human counselor|talk to someone real",
);
// 진단해/진단 해/진단할 수/진단 가능: diagnose (me); 우울증인가/우울증인지/우울증 맞나: is it depression; 병인가요/
// 병인지: is it an illness; 장애인가/장애인지: is it a disorder
// 제가 이상한 건가/제가 이상한 거/정상인가요/정상이에요/미친 건가/미친 걸까: am I strange, normal, going crazy
const DIAGNOSIS_KO: WordList = WordList(
    "진단해|진단할수|진단가능|우울증인가|우울증인지|우울증맞나|병인가요|병인지|장애인가|장애인지|제가이상한건가|내가이상한건가|\
    제가이상한거|내가이상한거|저정상인가|나정상인가|정상인가요|미친건가|미친걸까",
);
const DIAGNOSIS_EN: WordList = WordList(
    "diagnose me|can you diagnose|do i have depression|do i have adhd|do i have anxiety|do i have ptsd|\
    is this depression|is it depression|am i depressed|is it a disorder|is this a disorder|is something wrong with me|\
    is there something wrong with me|what's wrong with me|am i normal|am i crazy|am i going crazy",
);
// 약 끊/약을 끊: stop the medicine; 약 줄여/늘려/바꿔: cut, raise, change the medicine; 약 먹어도/약을 먹어도: may I take
// the medicine; 약 안 먹/약을 안 먹: not taking the medicine; 수면제 먹어도: may I take sleeping pills; 복용량: dose
const MEDICATION_KO: WordList = WordList(
    "약끊|약을끊|약줄여|약을줄여|약늘려|약을늘려|약바꿔|약을바꿔|약먹어도|약을먹어도|약안먹|약을안먹|수면제먹어도|복용량",
);
const MEDICATION_EN: WordList = WordList(
    "stop taking my meds|stop my meds|stop taking my medication|stop my medication|quit my meds|skip my meds|\
    go off my meds|change my dose|increase my dose|double my dose|stop my antidepressants|stop taking antidepressants|\
    stop taking my pills",
);

/// The boundary `text` asks past, if any (the first of identity, a person wanted, a diagnosis,
/// a medication).
pub fn asked(text: &str) -> Option<Boundary> {
    let said = super::safety::Message::of(text);
    [
        (Boundary::Identity, IDENTITY_KO, IDENTITY_EN),
        (Boundary::HumanWanted, HUMAN_KO, HUMAN_EN),
        (Boundary::Diagnosis, DIAGNOSIS_KO, DIAGNOSIS_EN),
        (Boundary::Medication, MEDICATION_KO, MEDICATION_EN),
    ]
    .into_iter()
    .find(|(_, k, e)| said.ko(*k) || said.en(*e))
    .map(|(b, _, _)| b)
}

impl Boundary {
    /// What the counselor says of it.
    pub fn note(self, lang: Lang) -> &'static str {
        match self {
            Boundary::Identity => lang.pick(
                "저는 사람이 아니라 AI 대화 상대예요. 자격을 갖춘 상담사도 아니에요. 그래도 여기서 이야기는 계속 들을게요.",
                "I'm not a person: I'm an AI conversation partner, and not a licensed counselor. I'm still here to listen.",
            ),
            Boundary::HumanWanted => lang.pick(
                "사람 상담사와 이야기하고 싶으시면 정신건강 위기상담 **1577-0199**(24시간)나 가까운 정신건강복지센터, \
                 정신건강의학과에 연락해 보세요. 그 전까지는 여기서 이야기를 들을게요.",
                "If you'd like to talk with a person, a counselor or therapist near you, or a local helpline, can help \
                 (in Korea: **1577-0199**, 24 h). Until then, I'm here to listen.",
            ),
            Boundary::Diagnosis => lang.pick(
                "저는 진단을 내릴 수 없어요. 진단은 정신건강의학과 전문의나 임상심리 전문가가 할 수 있어요. \
                 다만 지금 어떤 점이 힘드신지는 함께 이야기해 볼 수 있어요.",
                "I can't diagnose anything; a psychiatrist or a clinical psychologist can. What I can do is talk \
                 through what has been hard.",
            ),
            Boundary::Medication => lang.pick(
                "약을 시작하거나 끊거나 양을 바꾸는 건 꼭 처방한 의사와 먼저 상의해 주세요. 갑자기 끊으면 몸과 마음에 \
                 무리가 올 수 있어요. 약에 대해 마음에 걸리는 점은 여기서 함께 이야기해 볼 수 있어요.",
                "Please talk to the doctor who prescribed it before you start, stop or change a medication; stopping \
                 suddenly can be hard on body and mind. We can talk here about what worries you about it.",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn each_boundary_is_read_in_both_languages() {
        let cases = [
            ("are you a real person?", Some(Boundary::Identity)),
            ("너 사람이야?", Some(Boundary::Identity)),
            ("I want to talk to a human", Some(Boundary::HumanWanted)),
            ("진짜 상담사랑 얘기하고 싶어요", Some(Boundary::HumanWanted)),
            ("can you diagnose me with depression?", Some(Boundary::Diagnosis)),
            ("저 우울증인지 진단해 줄 수 있어요?", Some(Boundary::Diagnosis)),
            ("should I stop taking my meds?", Some(Boundary::Medication)),
            ("약 끊어도 될까요?", Some(Boundary::Medication)),
            // Not asked: said of someone else, or about the past.
            ("my friend is a real person who cares", None),
            ("작년에 우울증 진단받았어요", None),
            ("사람들이랑 이야기하는 게 힘들어요", None),
            ("I forgot to eat breakfast", None),
        ];
        for (text, want) in cases {
            assert_eq!(asked(text), want, "{text}");
        }
    }
}
