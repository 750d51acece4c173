//! Task Completion Checker: after every user message, is the current task covered?
//! Explicit completion signals, the task's completion criteria, and supervision.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::{transcript, Engagement, UserState};
use super::task::{
    topics_in, Part, Task, TaskStatus, GOALS, NAME_AND_PURPOSE, NEXT_SESSION, RAPPORT, SUMMARY, WELCOME,
};
use crate::engine::grounding::system_prompt;
use crate::engine::json::{bool_field, extract_json, str_field};
use crate::engine::lang::{clip, Lang};
use crate::engine::prompt::{Prompt, Turn};
use crate::engine::prompt_text::{self, PromptText};
use crate::engine::words::WordList;

/// The checker's judgment of the current task (the seed's output, plus other tasks of the
/// part the same message covered and, in Part 2, whether the main tasks are covered).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Verdict {
    /// The task that was checked.
    pub task_id: String,
    /// True when the task is done: the Task Selector runs.
    pub is_completed: bool,
    /// The status it moves to (`sufficient` or `completed`) when done.
    pub new_status: Option<TaskStatus>,
    /// Why, in a sentence.
    pub completion_reason: String,
    /// Other tasks of the current part this message already covered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_sufficient: Vec<String>,
    /// Part 2 only: the main tasks are covered, move to Part 3.
    #[serde(default)]
    pub part_covered: bool,
}

/// Korean signals that the user considers a subject done (seed: "이제 충분히 얘기한 것 같아").
// 충분히 얘기한: we've talked enough; 충분히 이야기한: we've talked enough; 이 정도면: this much is enough; 넘어가:
// let's move on; 다음 얘기: next topic; 다른 얘기 하고: talk about something else; 이제 됐: that'll do
const DONE_KO: WordList = WordList("충분히 얘기한|충분히 이야기한|이 정도면|넘어가|다음 얘기|다른 얘기 하고|이제 됐");
/// English signals that the user considers a subject done.
const DONE_EN: WordList =
    WordList("talked enough|enough about|let's move on|move on|something else|that covers it|that's enough");

/// Words that say why the user came (a purpose, not just a greeting).
const PURPOSE_KO: WordList = WordList("고민|힘들|힘든|상담|때문에|얘기하고 싶|이야기하고 싶|문제|어려|도움|스트레스");
const PURPOSE_EN: WordList =
    WordList("because|struggl|problem|worried|help with|talk about|hard time|stress|dealing with|issue");

/// Words that state a goal or an intention to act.
// 볼게: I'll try (만나 볼게: I'll try meeting); 보려고: I mean to try; 하겠: I will; 목표: goal; 시도: attempt; 노력: effort;
// 할게: I'll do; 봐야: I should try; 하기로: decided to; 갈게: I'll go; 만날게: I'll meet; 할 거예요/할 거야: I'm going to
const GOAL_KO: WordList =
    WordList("볼게|보려고|하겠|목표|시도|노력|할게|봐야|하기로|갈게|만날게|할 거예요|할 거야|할거예요|할거야");
const GOAL_EN: WordList = WordList("i will|i'll|going to|goal|try|plan to|start|want to|commit|aim to");

/// Words that push back on a summary.
const DISAGREE_KO: WordList = WordList("아니요|아니에요|그게 아니|틀렸|잘못 이해|그런 뜻이 아니");
const DISAGREE_EN: WordList = WordList("that's not right|not what i|that's wrong|you misunderstood|no,|not really");

fn has_any(lower: &str, cues: WordList) -> bool {
    cues.iter().any(|c| lower.contains(c))
}

/// True when the message states why the user came.
pub fn states_purpose(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    !topics_in(text).is_empty() || has_any(&lower, PURPOSE_KO) || has_any(&lower, PURPOSE_EN)
}

/// True when the message states a goal or an intention to act.
pub fn states_goal(text: &str) -> bool {
    let lower = text.to_ascii_lowercase().replace('’', "'");
    has_any(&lower, GOAL_KO) || has_any(&lower, GOAL_EN)
}

/// The user says yes to what was just asked: "yes, every weekday", "sure", "네, 그럴게요".
pub fn agrees(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase().replace('’', "'");
    // 그렇게 할게요: I'll do that; 해 볼게요: I'll try it.
    let phrases = WordList("let's do that|that works|i'd like that|i can do that|그렇게 할게요|해 볼게요|해볼게요");
    (super::ending::says_yes(text) || has_any(&lower, phrases))
        && !(has_any(&lower, DISAGREE_KO) || has_any(&lower, DISAGREE_EN))
}

/// The name the user gives ("저는 민지예요", "제 이름은 민지", "my name is Sam", "call me Sam").
pub fn name_in(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    for marker in WordList("my name is |call me |i'm |i am ") {
        if let Some(at) = lower.find(marker) {
            let word: String = text[at + marker.len()..].chars().take_while(|c| c.is_alphabetic()).collect();
            // "I'm tired" is not a name; names are written with a capital (one that has a
            // small form: core's upper-case table is not needed for that).
            let capital = word.chars().next().is_some_and(|c| crate::engine::case::lower_char(c) != c);
            if !word.is_empty() && (capital || marker != "i'm " && marker != "i am ") {
                return Some(word);
            }
        }
    }
    for marker in WordList("제 이름은 |이름은 |저는 ") {
        if let Some(at) = text.find(marker) {
            let word: String = text[at + marker.len()..].chars().take_while(|c| c.is_alphanumeric()).collect();
            for ending in WordList("이에요|예요|입니다|이고요|이고|라고|이라고|요|이야|야") {
                if let Some(name) = word.strip_suffix(ending) {
                    let n = name.chars().count();
                    // "이름은 비밀이에요" (my name is a secret) gives none.
                    let no_name = NOT_NAMES_KO.any(|w| name.contains(w));
                    if (1..=4).contains(&n) && name.chars().all(crate::engine::lang::is_hangul) && !no_name {
                        return Some(name.to_string());
                    }
                }
            }
        }
    }
    // "안녕하세요, 민지예요": a greeting, then the name said as what one is.
    let after_greeting = KO_GREETINGS.iter().find_map(|g| text.trim_start().strip_prefix(g))?;
    let word = after_greeting.trim_start_matches([' ', ',', '.', '!', '~']).split_whitespace().next()?;
    ko_name_said(word.trim_end_matches(['.', ',', '!', '~']))
}

/// Greetings a first message may open with: 안녕하세요/안녕/반가워요/반갑습니다: hello, nice to meet you.
const KO_GREETINGS: WordList = WordList("안녕하세요|안녕하십니까|반가워요|반갑습니다|안녕");

/// Words one may say one is that are not names: 처음: (it's my) first time; 학생/대학생/고등학생/중학생/
/// 대학원생/취준생: student, job seeker; 회사원/직장인/주부/백수/신입/프리랜서/자영업자: office worker, employee,
/// homemaker, out of work, new hire, freelancer, self-employed; 엄마/아빠: mom, dad; 선생/교사/간호사/개발자/
/// 디자이너: teacher, nurse, developer, designer; 사람/여자/남자: a person, a woman, a man.
const KO_ROLES: WordList = WordList(
    "처음|학생|취준생|회사원|직장인|주부|백수|신입|프리랜서|자영업|엄마|아빠|선생|교사|간호사|개발자|디자이너|사람|여자|남자",
);

/// The name in one word that says it as what one is or is called ("민지예요", "김민지입니다",
/// "민지라고"): 1–4 Hangul syllables, not a word of the lists that are not names.
fn ko_name_said(word: &str) -> Option<String> {
    // 이에요/예요/입니다/이고요/이라고/라고: it is, called
    WordList("이에요|예요|입니다|이고요|이라고|라고").iter().find_map(|ending| {
        let name = word.strip_suffix(ending)?;
        let hangul = (1..=4).contains(&name.chars().count()) && name.chars().all(crate::engine::lang::is_hangul);
        // 일: work (a word of its own, not a syllable of a name)
        let not_name = name == "일"
            || NOT_NAMES_KO.any(|n| name.contains(n))
            || KO_ROLES.any(|r| name.ends_with(r))
            || states_purpose(name);
        (hangul && !not_name).then(|| name.to_string())
    })
}

/// Korean words that answer "what should I call you?" without a name: 비밀: a secret;
/// 괜찮: no need; 아무: anything; 몰라: don't know; 싫: rather not; 그냥/그래: just, sure; 글쎄: well;
/// 패스/넘어/생략: skip; 없: none; 됐: never mind; 아니: no. And what a reason to come may be
/// instead: 걱정: worry; 고민: concern; 불안: anxiety; 우울: low mood; 외로: lonely; 공부: study;
/// 시험: exam; 연애: dating; 친구: friend; 가족: family; 학교: school; 직장: job.
const NOT_NAMES_KO: WordList = WordList(
    "비밀|괜찮|아무|몰라|싫|그냥|그래|글쎄|패스|넘어|생략|없|됐|아니|걱정|고민|불안|우울|외로|공부|시험|연애|친구|가족|학교|직장",
);
/// English words that answer it without a name.
const NOT_NAMES_EN: WordList = WordList(
    "yes|no|nope|yeah|yep|sure|ok|okay|skip|pass|hi|hello|hey|thanks|nothing|none|idk|whatever|later|fine|anything|nah",
);

/// True when an answer to "what should I call you?" declines to give a name: "I'd rather not
/// say", "skip", "no name please"; 비밀: a secret; 말하고 싶지 않/말하기 싫: rather not say;
/// 안 알려/알려 드리기 싫: won't tell; 패스/넘어가/생략: skip; 익명: anonymous; 이름은 괜찮: no name
/// needed; 밝히고 싶지 않: rather not reveal.
pub fn declines_name(text: &str) -> bool {
    let lower = text.to_ascii_lowercase().replace('’', "'");
    // "I don't want to get out of bed" and "지쳐서 아무것도 하기 싫어요" (too tired to do anything)
    // answer with something else: the broad words decline only as the whole answer.
    let bare_en = lower.split_whitespace().count() <= 4;
    let bare_ko = text.chars().filter(|c| crate::engine::lang::is_hangul(*c)).count() <= 6;
    bare_en && has_any(&lower, WordList("don't want to|do not want to|don't wanna|skip|nope"))
        || bare_ko && has_any(text, WordList("싫어요|싫어|싫습니다"))
        || has_any(
            &lower,
            WordList(
                "rather not|prefer not|not comfortable|no name|anonymous|not telling|won't say|would not say|\
                wouldn't say|don't really want|not give my name|not share my name|not tell you my name|\
                not say my name|don't want to say|don't want to tell|don't want to share|don't want to give",
            ),
        )
        || has_any(
            text,
            WordList("비밀|말하고 싶지 않|말하기 싫|말 안 할|안 알려|알려 드리기 싫|알려드리기 싫|패스|넘어가|생략|익명|이름은 괜찮|밝히고 싶지 않"),
        )
}

/// The name in an answer to "what should I call you?": what `name_in` reads, or the name
/// alone ("민지예요", "민지라고 불러 주세요", "김민지입니다", "Sam", "it's Sam", "just sam").
pub fn name_answer(text: &str) -> Option<String> {
    if let Some(name) = name_in(text) {
        return Some(name);
    }
    // The first clause: "민지예요. 회사 일 때문에요" names, then says why.
    let clause = text.split(['.', '!', '?', ',', '\n']).next().unwrap_or("").trim();
    let words: Vec<&str> = clause.split_whitespace().collect();
    let hangul = |w: &str| (1..=4).contains(&w.chars().count()) && w.chars().all(crate::engine::lang::is_hangul);
    // 일: work (a word of its own, not a syllable of a name)
    let not_name_ko = |w: &str| w == "일" || NOT_NAMES_KO.any(|n| w.contains(n)) || states_purpose(w);
    if let Some(name) = words.iter().take(4).find_map(|w| ko_name_said(w)) {
        return Some(name);
    }
    let lower = clause.to_ascii_lowercase();
    let rest =
        ["it's ", "it is ", "just ", "name's "].iter().find_map(|p| lower.strip_prefix(p).map(|_| &clause[p.len()..]));
    let alone: Vec<&str> = rest.unwrap_or(clause).split_whitespace().collect();
    match alone[..] {
        [word] if hangul(word) && !not_name_ko(word) && !word.ends_with(['요', '다', '까', '죠', '네']) => {
            Some(word.to_string())
        }
        [word]
            if word.len() <= 20
                && word.chars().all(|c| c.is_ascii_alphabetic())
                && !NOT_NAMES_EN.contains(word.to_ascii_lowercase()) =>
        {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        }
        _ => None,
    }
}

/// Heuristic twin of the checker, keyword and rule based. `task.turns` counts the user
/// messages answered while this task was in progress, this one included; no task is held
/// for more than three of them, so a no-key session never stalls.
pub fn heuristic_check(task: &Task, tasks: &[Task], user_text: &str, state: &UserState, lang: Lang) -> Verdict {
    let lower = user_text.to_ascii_lowercase().replace('’', "'");
    let explicit = has_any(&lower, DONE_KO) || has_any(&lower, DONE_EN);
    let engaged = !state.resistance && state.engagement >= Engagement::Medium;
    let (done, reason_ko, reason_en) = match task.id.as_str() {
        WELCOME => (!user_text.trim().is_empty(), "사용자가 인사에 답함", "the user answered the greeting"),
        NAME_AND_PURPOSE => {
            (states_purpose(user_text) || task.turns >= 2, "사용자가 상담 목적을 말함", "the user said why they came")
        }
        RAPPORT => (engaged || task.turns >= 2, "사용자가 편하게 이야기를 이어감", "the user talks on at ease"),
        SUMMARY => (
            !(has_any(&lower, DISAGREE_KO) || has_any(&lower, DISAGREE_EN)) || task.turns >= 2,
            "사용자가 요약을 확인함",
            "the user confirmed the summary",
        ),
        GOALS => (states_goal(user_text) || task.turns >= 2, "사용자가 목표를 말함", "the user stated a goal"),
        NEXT_SESSION => (true, "사용자가 안내를 받아들임", "the user took the next steps on board"),
        _ => (
            (engaged && (state.engagement == Engagement::High || task.turns >= 2)) || task.turns >= 3,
            "과제를 충분히 이야기함",
            "the task has been talked through",
        ),
    };
    let done = done || explicit || (task.part == Part::Exploration && state.wants_to_close);
    let also_sufficient = if task.id == WELCOME && states_purpose(user_text) {
        tasks
            .iter()
            .filter(|t| t.id == NAME_AND_PURPOSE && !t.status.at_least_sufficient())
            .map(|t| t.id.clone())
            .collect()
    } else {
        Vec::new()
    };
    Verdict {
        task_id: task.id.clone(),
        is_completed: done,
        new_status: done.then_some(if task.part == Part::Closing {
            TaskStatus::Completed
        } else {
            TaskStatus::Sufficient
        }),
        completion_reason: if done {
            if explicit {
                lang.pick("사용자가 충분하다고 말함", "the user said it is enough")
            } else {
                lang.pick(reason_ko, reason_en)
            }
            .to_string()
        } else {
            String::new()
        },
        also_sufficient,
        part_covered: task.part == Part::Exploration && state.wants_to_close,
    }
}

/// The checker prompt: the part, the current task with its criteria, the other tasks of the
/// part, supervision's points, and the recent conversation (the shared snapshot).
pub fn checker_prompt(
    part: Part,
    current: &Task,
    tasks: &[Task],
    supervision: &[String],
    history: &[Turn],
    lang: Lang,
) -> Prompt {
    let mut lines = vec![
        format!("[PART] {}", part.label(Lang::En)),
        "[CURRENT TASK]".into(),
        format!("id: {}", current.id),
        format!("title: {}", current.title),
        format!("target: {}", current.target),
        format!("completion_criteria: {}", current.completion_criteria),
        format!("status: {:?}", current.status),
    ];
    let others: Vec<&Task> = tasks.iter().filter(|t| t.part == part && t.id != current.id).collect();
    if !others.is_empty() {
        lines.push("[OTHER TASKS OF THIS PART]".into());
        for t in others {
            lines.push(format!("- {} ({:?}): {}", t.id, t.status, t.title));
        }
    }
    if !supervision.is_empty() {
        lines.push("[SUPERVISION]".into());
        lines.extend(supervision.iter().map(|p| format!("- {}", clip(p, 200))));
    }
    lines.push(String::new());
    lines.push("[RECENT CONVERSATION]".into());
    lines.extend(transcript(history, 8));
    lines.push(String::new());
    lines.push("Output the check JSON only.".into());
    let system = system_prompt("counsel-task-checker", prompt_text::text(PromptText::CounselCheckerInstructions), lang);
    Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(300)
}

/// Reads the checker's answer for `current`: a named task must be the current one, listed
/// ids must be tasks of its part, a status can only move forward. Fails with a reason;
/// never panics.
pub fn parse_verdict(raw: &str, current: &Task, tasks: &[Task]) -> Result<Verdict, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    if !value.is_object() {
        return Err("the answer is not a JSON object".into());
    }
    if value.get("is_completed").is_none() && value.get("new_status").is_none() {
        return Err("the JSON has neither is_completed nor new_status".into());
    }
    let task_id = str_field(&value, "task_id");
    if !task_id.is_empty() && task_id != current.id {
        return Err(if tasks.iter().any(|t| t.id == task_id) {
            format!("the answer judged {task_id}, not the current task {}", current.id)
        } else {
            format!("unknown task id '{task_id}'")
        });
    }
    let status_text = str_field(&value, "new_status");
    let named_status = match status_text.to_ascii_lowercase().as_str() {
        "" | "null" | "none" => None,
        _ => match TaskStatus::parse(&status_text) {
            Some(s) if s.at_least_sufficient() => Some(s),
            Some(s) => return Err(format!("the checker cannot move a task back to {s:?}")),
            None => return Err(format!("unknown status '{status_text}'")),
        },
    };
    let is_completed =
        if value.get("is_completed").is_some() { bool_field(&value, "is_completed") } else { named_status.is_some() };
    let mut also_sufficient = Vec::new();
    if let Some(Value::Array(items)) = value.get("also_sufficient") {
        for item in items {
            let id = item.as_str().unwrap_or_default().trim();
            if id.is_empty() || id == current.id {
                continue;
            }
            if !tasks.iter().any(|t| t.id == id && t.part == current.part) {
                return Err(format!("unknown task id '{id}' in also_sufficient"));
            }
            also_sufficient.push(id.to_string());
        }
    }
    Ok(Verdict {
        task_id: current.id.clone(),
        is_completed,
        new_status: if is_completed { Some(named_status.unwrap_or(TaskStatus::Sufficient)) } else { None },
        completion_reason: clip(&str_field(&value, "completion_reason"), 200),
        also_sufficient,
        part_covered: current.part == Part::Exploration && bool_field(&value, "part_covered"),
    })
}

#[cfg(test)]
mod tests {
    use super::super::state::detect_state;
    use super::super::task::{fixed_tasks, plan_exploration};
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn check(task_id: &str, turns: u32, text: &str) -> Verdict {
        let mut tasks = fixed_tasks(Part::Start, Lang::Ko);
        tasks.extend(fixed_tasks(Part::Closing, Lang::Ko));
        tasks.extend(plan_exploration(&["회사 일이 힘들어요"], Lang::Ko));
        let mut task = tasks.iter().find(|t| t.id == task_id).cloned().expect("task exists");
        task.turns = turns;
        heuristic_check(&task, &tasks, text, &detect_state(text, &[], &[]), Lang::Ko)
    }

    #[test]
    fn heuristic_checker_follows_each_tasks_criteria() {
        let cases: &[(&str, u32, &str, bool)] = &[
            (WELCOME, 1, "안녕하세요", true),
            (NAME_AND_PURPOSE, 1, "저는 민지예요", false),
            (NAME_AND_PURPOSE, 1, "회사 일 때문에 너무 힘들어서 왔어요", true),
            (NAME_AND_PURPOSE, 1, "I came because my boss stresses me out", true),
            (NAME_AND_PURPOSE, 2, "음", true),
            (RAPPORT, 1, "네, 이렇게 얘기하니까 조금 편해요", true),
            (RAPPORT, 1, "몰라요", false),
            ("task_work_2", 1, "네", false),
            (
                "task_work_2",
                1,
                "상사가 회의 때마다 제 의견을 무시하고 다른 사람들 앞에서 큰 소리로 혼을 내서 너무 창피하고 화가 나요",
                true,
            ),
            ("task_work_2", 1, "이제 충분히 얘기한 것 같아", true),
            ("task_work_2", 3, "네", true),
            (SUMMARY, 1, "네 맞아요", true),
            (SUMMARY, 1, "아니요, 그게 아니라 상사가 문제예요", false),
            (GOALS, 1, "글쎄요", false),
            (GOALS, 1, "이번 주에는 산책을 해 볼게요", true),
            (NEXT_SESSION, 1, "고마워요", true),
        ];
        for (id, turns, text, want) in cases {
            let verdict = check(id, *turns, text);
            assert_eq!(verdict.is_completed, *want, "{id} {text}");
            assert_eq!(verdict.task_id, *id);
        }
        assert_eq!(check(SUMMARY, 1, "네").new_status, Some(TaskStatus::Completed), "Part 3 completes");
        assert_eq!(check(RAPPORT, 2, "네").new_status, Some(TaskStatus::Sufficient));
        assert_eq!(check(WELCOME, 1, "안녕하세요, 회사 때문에 고민이 있어요").also_sufficient, [NAME_AND_PURPOSE]);
        assert!(check("task_work_2", 1, "오늘은 여기까지 할게요").part_covered);
    }

    #[test]
    fn names_are_read_when_given() {
        let cases = [
            ("저는 민지예요", Some("민지")),
            ("저는 민지예요. 회사 일로 왔어요", Some("민지")),
            ("안녕하세요 제 이름은 서준입니다", Some("서준")),
            ("My name is Sam", Some("Sam")),
            ("Hi, I'm Alex and I need help", Some("Alex")),
            ("I'm tired", None),
            ("저는 요즘 너무 힘들어요", None),
            ("이름은 비밀이에요", None),
            ("안녕하세요 민지예요. 요즘 회사 일 때문에 힘들어서 왔어요", Some("민지")),
            ("안녕하세요, 김민지입니다", Some("김민지")),
            ("안녕하세요 처음이에요", None),
            ("안녕하세요 대학생이에요", None),
            ("안녕하세요 요즘 너무 힘들어요", None),
        ];
        for (text, want) in cases {
            assert_eq!(name_in(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn a_name_withheld_is_told_from_a_name() {
        for text in [
            "I'd rather not say",
            "I don't really want to give my name",
            "skip",
            "이름은 비밀이에요",
            "말하고 싶지 않아요",
            "패스할게요",
        ] {
            assert!(declines_name(text), "{text}");
        }
        for text in ["싫어요", "그냥 싫어요", "I don't want to"] {
            assert!(declines_name(text), "{text}");
        }
        for text in [
            "Sam",
            "민지예요",
            "work has been hard",
            "회사 일 때문에 왔어요",
            "지쳐서 아무것도 하기 싫어요",
            "I don't want to get out of bed most days",
            "I skip meals when work piles up",
        ] {
            assert!(!declines_name(text), "{text}");
        }
    }

    #[test]
    fn an_answer_to_a_question_for_the_name_may_be_the_name_alone() {
        let cases = [
            ("민지예요", Some("민지")),
            ("민지라고 불러 주세요", Some("민지")),
            ("김민지입니다. 회사 일 때문에 왔어요", Some("김민지")),
            ("그냥 민지라고 해요", Some("민지")),
            ("지은이에요", Some("지은")),
            ("민지", Some("민지")),
            ("Sam", Some("Sam")),
            ("it's sam", Some("Sam")),
            ("just Alex.", Some("Alex")),
            ("call me Jo", Some("Jo")),
            // Not names: a refusal, a feeling, a yes, a sentence.
            ("비밀이에요", None),
            ("괜찮아요", None),
            ("몰라요", None),
            ("피곤해요", None),
            ("네", None),
            ("그래", None),
            ("skip", None),
            ("no", None),
            ("I'd rather not", None),
            ("work has been hard", None),
            // A reason to come, said instead of a name.
            ("회사 문제예요", None),
            ("스트레스예요", None),
            ("가족 일이에요", None),
            ("걱정이에요", None),
        ];
        for (text, want) in cases {
            assert_eq!(name_answer(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn verdict_parser_checks_ids_and_statuses() {
        let tasks = fixed_tasks(Part::Start, Lang::En);
        let current = &tasks[0];
        let ok = parse_verdict(
            r#"{"task_id":"task_welcome_1","is_completed":true,"new_status":"sufficient","completion_reason":"greeted","also_sufficient":["task_info_1"]}"#,
            current,
            &tasks,
        )
        .expect("parses");
        assert!(ok.is_completed);
        assert_eq!(ok.new_status, Some(TaskStatus::Sufficient));
        assert_eq!(ok.also_sufficient, ["task_info_1"]);
        let defaulted = parse_verdict(r#"{"is_completed": "yes"}"#, current, &tasks).unwrap();
        assert_eq!(
            (defaulted.task_id.as_str(), defaulted.new_status),
            ("task_welcome_1", Some(TaskStatus::Sufficient))
        );
        let not_done = parse_verdict(r#"{"is_completed": false, "new_status": null}"#, current, &tasks).unwrap();
        assert_eq!(not_done.new_status, None);
        let bad = [
            "",
            "done!",
            r#"{"reason": "x"}"#,
            r#"{"task_id": "task_made_up", "is_completed": true}"#,
            r#"{"task_id": "task_info_1", "is_completed": true}"#,
            r#"{"is_completed": true, "new_status": "finished-ish"}"#,
            r#"{"is_completed": true, "new_status": "pending"}"#,
            r#"{"is_completed": true, "also_sufficient": ["task_summary_3"]}"#,
        ];
        for raw in bad {
            assert!(parse_verdict(raw, current, &tasks).is_err(), "{raw}");
        }
        let prompt = checker_prompt(Part::Start, current, &tasks, &["Ask less".into()], &[Turn::user("hi")], Lang::En);
        let text = &prompt.turns[0].text;
        assert!(prompt.system.starts_with("# role: counsel-task-checker"));
        assert!(text.contains("task_welcome_1") && text.contains("task_info_1") && text.contains("Ask less"));
    }
}
