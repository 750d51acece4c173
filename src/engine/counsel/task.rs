//! Parts and tasks: the linear Part 1 → 2 → 3 → ended, the fixed tasks of Parts 1 and 3,
//! the transition rules, and the Task Planner's Part-2 tasks (LLM prompt, parser, heuristic).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::module::Module;
use crate::engine::grounding::system_prompt;
use crate::engine::json::{extract_json, str_field};
use crate::engine::lang::{clip, Lang};
use crate::engine::prompt::Prompt;
use crate::engine::prompt_text::{self, PromptText};
use crate::engine::security::isolate;
use crate::engine::words::WordList;

/// Where the session is: parts run strictly in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Part 1: welcome, name and purpose, rapport.
    #[default]
    Start,
    /// Part 2: exploring the user's situation (tasks generated).
    Exploration,
    /// Part 3: summary, goals, next session.
    Closing,
    /// The session is over.
    Ended,
}

impl Part {
    /// The seed's part number (1, 2, 3; 4 for ended).
    pub fn number(self) -> u8 {
        match self {
            Part::Start => 1,
            Part::Exploration => 2,
            Part::Closing => 3,
            Part::Ended => 4,
        }
    }

    /// "Part 1: 시작" and the like.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Part::Start => lang.pick("Part 1: 시작", "Part 1: start"),
            Part::Exploration => lang.pick("Part 2: 탐색", "Part 2: exploration"),
            Part::Closing => lang.pick("Part 3: 마무리", "Part 3: closing"),
            Part::Ended => lang.pick("상담 종료", "session ended"),
        }
    }

    /// The part's goal as the seed states it.
    pub fn goal(self, lang: Lang) -> &'static str {
        match self {
            Part::Start => lang.pick("관계 형성, 기본 정보 수집", "build rapport, gather basic information"),
            Part::Exploration => lang.pick("사용자 문제 상황 깊이 탐색", "explore the user's situation in depth"),
            Part::Closing => {
                lang.pick("상담 요약, 목표 설정, 다음 상담 안내", "summarize, set goals, plan the next session")
            }
            Part::Ended => lang.pick("상담이 끝났음", "the session is over"),
        }
    }

    /// The part after this one.
    pub fn next(self) -> Part {
        match self {
            Part::Start => Part::Exploration,
            Part::Exploration => Part::Closing,
            Part::Closing | Part::Ended => Part::Ended,
        }
    }
}

/// How much a task matters within its part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    High,
    Medium,
    Low,
}

impl Priority {
    /// 0 for high, 2 for low: sorts high first.
    pub fn rank(self) -> u8 {
        match self {
            Priority::High => 0,
            Priority::Medium => 1,
            Priority::Low => 2,
        }
    }

    /// The priority named `high`, `medium` or `low` (also 높음/중간/낮음).
    pub fn parse(text: &str) -> Option<Priority> {
        match text.trim().to_ascii_lowercase().as_str() {
            "high" | "높음" => Some(Priority::High),
            "medium" | "mid" | "중간" => Some(Priority::Medium),
            "low" | "낮음" => Some(Priority::Low),
            _ => None,
        }
    }
}

/// A task's progress: pending → in_progress → sufficient → completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Not started.
    Pending,
    /// Chosen by the Task Selector.
    InProgress,
    /// Covered enough (the Task Completion Checker said so).
    Sufficient,
    /// Closed for good (at a part transition, or finished in Part 3).
    Completed,
}

impl TaskStatus {
    /// The status named by its snake_case id.
    pub fn parse(text: &str) -> Option<TaskStatus> {
        match text.trim().to_ascii_lowercase().replace([' ', '-'], "_").as_str() {
            "pending" => Some(TaskStatus::Pending),
            "in_progress" => Some(TaskStatus::InProgress),
            "sufficient" => Some(TaskStatus::Sufficient),
            "completed" | "complete" => Some(TaskStatus::Completed),
            _ => None,
        }
    }

    /// True from `sufficient` on.
    pub fn at_least_sufficient(self) -> bool {
        self >= TaskStatus::Sufficient
    }

    /// A short label for the side panel.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            TaskStatus::Pending => lang.pick("대기", "pending"),
            TaskStatus::InProgress => lang.pick("진행 중", "in progress"),
            TaskStatus::Sufficient => lang.pick("충분함", "sufficient"),
            TaskStatus::Completed => lang.pick("완료", "completed"),
        }
    }
}

/// What a Part-2 task is about, found from the user's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    Work,
    Study,
    Family,
    Partner,
    Friends,
    Health,
    Mood,
    SelfWorth,
    Money,
    Loss,
}

/// Topic keywords: Korean substrings and English word starts. A loss comes first: "my dad passed
/// away" is about the loss more than about the family.
const TOPIC_KEYWORDS: &[(Topic, WordList, WordList)] = &[
    (
        Topic::Loss,
        // passed away, death (of someone), grief, funeral; 무지개다리/하늘나라: (a pet's) death, heaven;
        // 떠나보냈: let go (of someone who died). "died" only of someone ("my dog died", "died two
        // weeks ago"): not a phone or a battery; "lost my" only of someone: not a job or the keys;
        // 강아지가 죽/엄마가 죽/…: (a dog, mum, …) died, and not "폰이 죽었어".
        WordList(
            "돌아가|세상을 떠|장례|상실|그리워|무지개다리|하늘나라|떠나보냈|강아지가 죽|고양이가 죽|반려견이 죽|반려묘가 죽|반려동물이 죽|개가 죽|엄마가 죽|아빠가 죽|할머니가 죽|할아버지가 죽|친구가 죽|동생이 죽|형이 죽|누나가 죽|언니가 죽|오빠가 죽|남편이 죽|아내가 죽|아이가 죽|아기가 죽",
        ),
        WordList(
            "passed away|grief|grieving|funeral|lost my mom|lost my mother|lost my dad|lost my father|lost my wife|lost my husband|lost my son|lost my daughter|lost my brother|lost my sister|lost my friend|lost my best friend|lost my dog|lost my cat|lost my baby|lost my grand|lost my partner|lost my pet|died last|dog died|cat died|pet died|mom died|mother died|dad died|father died|grandma died|grandmother died|grandpa died|grandfather died|friend died|brother died|sister died|husband died|wife died|son died|daughter died|died two|died a few|died recently|died weeks|died months|died yesterday|put to sleep|the death of|his death|her death",
        ),
    ),
    (
        Topic::Work,
        // company, work, boss, colleague, job, overtime, team lead, office, promotion, resign
        WordList("회사|직장|상사|동료|업무|야근|팀장|출근|승진|퇴사|일이 너무|취업|이직"),
        WordList("work|job|boss|coworker|colleague|office|career|manager|overtime|promotion"),
    ),
    (
        Topic::Study,
        // school, exam, grades, study, university, entrance exam, thesis
        WordList("학교|시험|성적|공부|대학|수능|과제|논문|학원"),
        WordList("school|exam|grade|study|studying|college|university|thesis|homework|class"),
    ),
    (
        Topic::Family,
        // family, parents, mom, dad, sibling, home
        WordList("가족|부모|엄마|아빠|어머니|아버지|형제|언니|오빠|동생|시댁|집안"),
        WordList("family|parent|mom|mother|dad|father|brother|sister|sibling|in-law"),
    ),
    (
        Topic::Partner,
        // boyfriend, girlfriend, spouse, husband, wife, breakup, dating, marriage
        WordList("남자친구|여자친구|남친|여친|애인|배우자|남편|아내|이별|헤어|연애|결혼"),
        WordList("boyfriend|girlfriend|partner|husband|wife|breakup|broke up|dating|marriage"),
    ),
    (
        Topic::Friends,
        // friend, relationships, loneliness, being left out
        WordList("친구|인간관계|외로|따돌|소외"),
        WordList("friend|lonely|loneliness|alone|social|left out"),
    ),
    (
        Topic::Health,
        // sleep, insomnia, health, illness, tired, body
        WordList("잠을|불면|잠이|건강|아파|병원|피곤|체력|식욕"),
        WordList("sleep|sleeping|insomnia|health|sick|illness|tired|exhausted|appetite"),
    ),
    (
        Topic::Mood,
        // depressed, anxious, worry, stress, panic, anger, lethargy
        WordList("우울|불안|걱정|스트레스|공황|화가|짜증|무기력|눈물"),
        WordList("depress|anxious|anxiety|worried|stress|panic|angry|anger|sad|overwhelmed"),
    ),
    (
        Topic::SelfWorth,
        // self-esteem, confidence, inferiority, comparison, failure, falling behind, no face to show
        WordList("자존감|자신감|열등감|비교|실패|못난|쓸모없|뒤처지|뒤쳐지|면목"),
        WordList(
            "self-esteem|confidence|worthless|failure|not good enough|compare myself|insecure|falling behind|fall behind|\
             left behind|everyone else is",
        ),
    ),
    (
        Topic::Money,
        // money, debt, rent, living costs, finances
        WordList("돈|빚|대출|월세|생활비|경제적"),
        WordList("money|debt|loan|rent|bills|financial|afford"),
    ),
];

impl Topic {
    /// The id used in task ids and JSON.
    pub fn id(self) -> &'static str {
        match self {
            Topic::Work => "work",
            Topic::Study => "study",
            Topic::Family => "family",
            Topic::Partner => "partner",
            Topic::Friends => "friends",
            Topic::Health => "health",
            Topic::Mood => "mood",
            Topic::SelfWorth => "self_worth",
            Topic::Money => "money",
            Topic::Loss => "loss",
        }
    }

    /// The topic in a few words.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Topic::Work => lang.pick("직장과 일", "work"),
            Topic::Study => lang.pick("학업", "studies"),
            Topic::Family => lang.pick("가족 관계", "family"),
            Topic::Partner => lang.pick("연인·배우자 관계", "your partner"),
            Topic::Friends => lang.pick("친구와 인간관계", "friends and relationships"),
            Topic::Health => lang.pick("잠과 건강", "sleep and health"),
            Topic::Mood => lang.pick("마음 상태와 스트레스", "stress and mood"),
            Topic::SelfWorth => lang.pick("자신에 대한 생각", "how you see yourself"),
            Topic::Money => lang.pick("경제적 어려움", "money worries"),
            Topic::Loss => lang.pick("상실과 그리움", "loss and grief"),
        }
    }
}

/// The topics `text` touches, in catalog order.
pub fn topics_in(text: &str) -> Vec<Topic> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '-').collect();
    TOPIC_KEYWORDS
        .iter()
        .filter(|(_, ko, en)| {
            ko.iter().any(|k| {
                // 친구 (friend) inside 남자친구/여자친구 (boyfriend/girlfriend) is a partner, not a friend.
                lower
                    .match_indices(k)
                    .any(|(at, _)| !(k == "친구" && (lower[..at].ends_with("남자") || lower[..at].ends_with("여자"))))
            }) || en.iter().any(|k| {
                if k.contains(' ') {
                    lower.contains(k)
                } else {
                    // "stress" finds "stressed", "work" finds "works" but not "worked".
                    words.iter().any(|w| w.starts_with(k) && (k.len() >= 6 || w.len() <= k.len() + 1))
                }
            })
        })
        .map(|(topic, _, _)| *topic)
        .collect()
}

/// One task: what the counselor works on within a part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// Stable id, e.g. `task_info_1`.
    pub id: String,
    /// The part it belongs to.
    pub part: Part,
    /// How much it matters.
    pub priority: Priority,
    /// Short title (goes into the counselor prompt).
    pub title: String,
    /// What to do (kept out of the counselor prompt, which is minimal).
    pub description: String,
    /// What should be reached (goes into the counselor prompt).
    pub target: String,
    /// When it counts as done.
    pub completion_criteria: String,
    /// Progress.
    pub status: TaskStatus,
    /// The module this task calls for when nothing else does.
    pub module_hint: Module,
    /// The topic of a Part-2 task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<Topic>,
    /// User messages answered while this task was in progress.
    #[serde(default)]
    pub turns: u32,
}

impl Task {
    fn new(id: &str, part: Part, priority: Priority, module_hint: Module, texts: [&str; 4]) -> Task {
        let [title, description, target, completion_criteria] = texts;
        Task {
            id: id.into(),
            part,
            priority,
            title: title.into(),
            description: description.into(),
            target: target.into(),
            completion_criteria: completion_criteria.into(),
            status: TaskStatus::Pending,
            module_hint,
            topic: None,
            turns: 0,
        }
    }
}

/// Id of the fixed Part-1 welcome task.
pub const WELCOME: &str = "task_welcome_1";
/// Id of the fixed Part-1 name-and-purpose task.
pub const NAME_AND_PURPOSE: &str = "task_info_1";
/// Id of the fixed Part-1 rapport task.
pub const RAPPORT: &str = "task_rapport_1";
/// Id of the fixed Part-3 summary task.
pub const SUMMARY: &str = "task_summary_3";
/// Id of the fixed Part-3 goal-setting task.
pub const GOALS: &str = "task_goal_3";
/// Id of the fixed Part-3 next-session task.
pub const NEXT_SESSION: &str = "task_next_3";

/// The seed's fixed tasks of Part 1 (welcome, name and purpose, rapport) or Part 3
/// (summary, goals, next session); none for the other parts.
pub fn fixed_tasks(part: Part, lang: Lang) -> Vec<Task> {
    let ko = lang == Lang::Ko;
    let t = |k: [&'static str; 4], e: [&'static str; 4]| if ko { k } else { e };
    match part {
        Part::Start => vec![
            Task::new(
                WELCOME,
                part,
                Priority::High,
                Module::RapportBuilding,
                t(
                    [
                        "환영 인사",
                        "사용자를 따뜻하게 맞이하고 이 대화가 어떤 자리인지 알리기",
                        "사용자가 편안하게 대화를 시작함",
                        "사용자가 인사나 첫 이야기로 답했을 때 완료",
                    ],
                    [
                        "Welcome",
                        "Greet the user warmly and say what this conversation is",
                        "The user starts talking at ease",
                        "Done when the user answers the greeting or starts talking",
                    ],
                ),
            ),
            Task::new(
                NAME_AND_PURPOSE,
                part,
                Priority::High,
                Module::InformationGathering,
                t(
                    [
                        "사용자의 이름과 상담 목적 파악하기",
                        "사용자의 이름과 이번 상담을 찾게 된 이유를 자연스럽게 물어보기",
                        "사용자의 이름과 기본 상담 목적 확인",
                        "사용자가 이름과 상담 목적을 말했을 때 완료",
                    ],
                    [
                        "Learn the user's name and purpose",
                        "Naturally ask the user's name and why they came to talk today",
                        "The user's name and basic reason for coming are known",
                        "Done when the user has said their name and why they came",
                    ],
                ),
            ),
            Task::new(
                RAPPORT,
                part,
                Priority::Medium,
                Module::RapportBuilding,
                t(
                    [
                        "관계 형성",
                        "사용자의 말에 공감하며 편하게 이야기할 수 있는 분위기 만들기",
                        "사용자가 마음을 열고 이야기를 이어감",
                        "사용자가 저항 없이 자기 이야기를 이어갈 때 완료",
                    ],
                    [
                        "Build rapport",
                        "Respond with empathy so the user feels safe to talk",
                        "The user opens up and keeps talking",
                        "Done when the user goes on with their story without resistance",
                    ],
                ),
            ),
        ],
        Part::Closing => vec![
            Task::new(
                SUMMARY,
                part,
                Priority::High,
                Module::Summarizing,
                t(
                    [
                        "상담 요약",
                        "오늘 나눈 이야기의 핵심을 정리하고 맞는지 확인하기",
                        "사용자가 요약에 동의하거나 바로잡음",
                        "사용자가 요약을 확인했을 때 완료",
                    ],
                    [
                        "Summarize the session",
                        "Pull together the key points of today and check them",
                        "The user agrees with or corrects the summary",
                        "Done when the user has confirmed the summary",
                    ],
                ),
            ),
            Task::new(
                GOALS,
                part,
                Priority::High,
                Module::GoalSetting,
                t(
                    [
                        "목표 설정",
                        "바라는 변화를 작고 구체적인 목표로 함께 정하기",
                        "사용자가 해 볼 구체적인 목표 하나",
                        "사용자가 스스로 목표를 말했을 때 완료",
                    ],
                    [
                        "Set a goal",
                        "Turn the wished-for change into a small, concrete goal together",
                        "One concrete goal the user will try",
                        "Done when the user has stated a goal in their own words",
                    ],
                ),
            ),
            Task::new(
                NEXT_SESSION,
                part,
                Priority::Medium,
                Module::Closing,
                t(
                    [
                        "다음 상담 안내",
                        "다음 대화에서 이어갈 것과 힘들 때 도움받을 곳을 안내하기",
                        "사용자가 다음 단계를 알고 인사함",
                        "사용자가 안내를 받아들이고 인사했을 때 완료",
                    ],
                    [
                        "Plan the next session",
                        "Say what the next conversation can pick up and where to get help",
                        "The user knows the next step and says goodbye",
                        "Done when the user has acknowledged it and said goodbye",
                    ],
                ),
            ),
        ],
        Part::Exploration | Part::Ended => Vec::new(),
    }
}

/// The part the session moves to now, if its condition holds (seed 004):
/// Part 1 → 2 when every Part-1 task is at least sufficient; Part 2 → 3 when the main
/// tasks are covered (`main_tasks_covered`, or the checker's judgment `covered_by_llm`);
/// Part 3 → ended when every Part-3 task is completed.
pub fn transition(part: Part, tasks: &[Task], covered_by_llm: bool) -> Option<Part> {
    let mut of_part = tasks.iter().filter(|t| t.part == part).peekable();
    let ready = match part {
        Part::Start => of_part.peek().is_some() && of_part.all(|t| t.status.at_least_sufficient()),
        Part::Exploration => covered_by_llm || main_tasks_covered(tasks),
        Part::Closing => of_part.peek().is_some() && of_part.all(|t| t.status == TaskStatus::Completed),
        Part::Ended => false,
    };
    ready.then(|| part.next())
}

/// Part 2's rule without an LLM: every high-priority Part-2 task is at least sufficient,
/// and so are at least half of all Part-2 tasks.
pub fn main_tasks_covered(tasks: &[Task]) -> bool {
    let part2: Vec<&Task> = tasks.iter().filter(|t| t.part == Part::Exploration).collect();
    let covered = part2.iter().filter(|t| t.status.at_least_sufficient()).count();
    !part2.is_empty()
        && part2.iter().filter(|t| t.priority == Priority::High).all(|t| t.status.at_least_sufficient())
        && covered * 2 >= part2.len()
}

/// Closes every task of `part` (seed: completed at the part transition).
pub fn complete_part(tasks: &mut [Task], part: Part) {
    for task in tasks.iter_mut().filter(|t| t.part == part) {
        task.status = TaskStatus::Completed;
    }
}

fn topic_task(topic: Topic, priority: Priority, lang: Lang) -> Task {
    let label = topic.label(lang);
    let (title, description, target, criteria) = match lang {
        Lang::Ko => (
            format!("{label} 이야기 탐색하기"),
            format!("{label}에서 무엇이, 언제, 누구와 힘든지 구체적으로 묻기"),
            format!("{label}에서 겪는 어려움을 구체적으로 이해"),
            "사용자가 구체적인 상황과 그때의 마음을 말했을 때 완료".to_string(),
        ),
        Lang::En => (
            format!("Explore {label}"),
            format!("Ask concretely what is hard about {label}: what, when, with whom"),
            format!("A concrete picture of what is hard about {label}"),
            "Done when the user has described a concrete situation and how it felt".to_string(),
        ),
    };
    Task {
        id: format!("task_{}_2", topic.id()),
        part: Part::Exploration,
        priority,
        title,
        description,
        target,
        completion_criteria: criteria,
        status: TaskStatus::Pending,
        module_hint: Module::InformationGathering,
        topic: Some(topic),
        turns: 0,
    }
}

fn exploration_task(id: &str, priority: Priority, module: Module, lang: Lang, ko: [&str; 4], en: [&str; 4]) -> Task {
    Task::new(id, Part::Exploration, priority, module, if lang == Lang::Ko { ko } else { en })
}

/// Heuristic Task Planner: Part-2 tasks from what the user has said so far — one task per
/// topic found (at most two), then feelings and coping. With no topic, a task to make the
/// problem concrete comes first.
pub fn plan_exploration(user_texts: &[&str], lang: Lang) -> Vec<Task> {
    let mut topics: Vec<Topic> = Vec::new();
    for text in user_texts {
        for topic in topics_in(text) {
            if !topics.contains(&topic) {
                topics.push(topic);
            }
        }
    }
    // Mood words accompany most stories; prefer a life-area topic when there is one.
    if topics.len() > 1 {
        topics.retain(|t| *t != Topic::Mood);
    }
    let mut tasks: Vec<Task> = topics.iter().take(2).map(|t| topic_task(*t, Priority::High, lang)).collect();
    if tasks.is_empty() {
        tasks.push(exploration_task(
            "task_situation_2",
            Priority::High,
            Module::InformationGathering,
            lang,
            [
                "어려운 상황 구체화하기",
                "지금 가장 힘든 일이 무엇인지 구체적인 장면으로 묻기",
                "사용자의 어려움을 구체적으로 이해",
                "사용자가 구체적인 상황을 말했을 때 완료",
            ],
            [
                "Make the difficulty concrete",
                "Ask for a concrete scene of what is hardest right now",
                "A concrete picture of the user's difficulty",
                "Done when the user has described a concrete situation",
            ],
        ));
    }
    tasks.push(exploration_task(
        "task_feelings_2",
        Priority::Medium,
        Module::EmpathicReflection,
        lang,
        [
            "감정과 영향 탐색",
            "그 일로 어떤 감정이 들고 생활에 어떤 영향을 주는지 함께 살피기",
            "사용자의 감정과 그 영향 이해",
            "사용자가 자신의 감정을 말로 표현했을 때 완료",
        ],
        [
            "Explore feelings and impact",
            "Look together at what the user feels and how it affects daily life",
            "The user's feelings and their impact are understood",
            "Done when the user has put their feelings into words",
        ],
    ));
    tasks.push(exploration_task(
        "task_resources_2",
        Priority::Low,
        Module::InformationGathering,
        lang,
        [
            "대처 방식과 자원 찾기",
            "지금까지 도움이 된 것과 기댈 수 있는 사람을 묻기",
            "사용자의 대처 방식과 지지 자원 확인",
            "사용자가 도움이 된 것이나 기댈 사람을 말했을 때 완료",
        ],
        [
            "Find coping and support",
            "Ask what has helped so far and who the user can lean on",
            "The user's coping and sources of support are known",
            "Done when the user has named something that helps or someone to lean on",
        ],
    ));
    tasks
}

/// Why Part-2 tasks are updated (seed 004's four conditions).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum PlanUpdate {
    /// The user moved to this topic.
    TopicChange(Topic),
    /// The user resisted.
    Resistance,
    /// The supervisor asked for a change of strategy (its first point).
    SupervisorFeedback(String),
    /// The conversation is going in circles.
    GoingInCircles,
}

/// Heuristic Task Planner update of the Part-2 tasks; `current` is the task in progress.
/// Returns true when the task list changed.
pub fn update_exploration(tasks: &mut Vec<Task>, update: &PlanUpdate, current: Option<&str>, lang: Lang) -> bool {
    let has = |tasks: &[Task], id: &str| tasks.iter().any(|t| t.id == id);
    match update {
        PlanUpdate::TopicChange(topic) => {
            let task = topic_task(*topic, Priority::High, lang);
            if has(tasks, &task.id) {
                return false;
            }
            tasks.push(task);
            true
        }
        PlanUpdate::Resistance => {
            if has(tasks, "task_trust_2") {
                return false;
            }
            tasks.push(exploration_task(
                "task_trust_2",
                Priority::High,
                Module::ResistanceHandling,
                lang,
                [
                    "부담 낮추고 신뢰 회복하기",
                    "망설임을 인정하고 사용자가 말하고 싶은 것부터 고르게 하기",
                    "사용자가 편하게 느끼는 주제로 대화가 이어짐",
                    "사용자가 다시 자발적으로 이야기할 때 완료",
                ],
                [
                    "Lower the pressure, rebuild trust",
                    "Accept the hesitation and let the user choose what to talk about",
                    "The conversation continues on a topic the user is comfortable with",
                    "Done when the user talks freely again",
                ],
            ));
            true
        }
        PlanUpdate::SupervisorFeedback(point) => {
            let point = clip(point.trim(), 80);
            if point.is_empty() {
                return false;
            }
            tasks.retain(|t| t.id != "task_supervision_2" || t.status.at_least_sufficient());
            let (title, target) = match lang {
                Lang::Ko => (
                    format!("Supervision 반영: {point}"),
                    format!(
                        "다음 응답부터 {} 실천",
                        crate::engine::lang::quoted(&point, crate::engine::lang::with_object)
                    ),
                ),
                Lang::En => {
                    (format!("Apply supervision: {point}"), format!("Put '{point}' into practice from the next reply"))
                }
            };
            let mut task = exploration_task(
                "task_supervision_2",
                Priority::Medium,
                Module::EmpathicReflection,
                lang,
                ["", "Supervision 피드백을 대화에 반영하기", "", "피드백이 반영된 응답을 한 번 이상 했을 때 완료"],
                [
                    "",
                    "Apply the supervisor's feedback in the conversation",
                    "",
                    "Done once a reply has applied the feedback",
                ],
            );
            task.title = title;
            task.target = target;
            tasks.push(task);
            true
        }
        PlanUpdate::GoingInCircles => {
            if let Some(task) = tasks.iter_mut().find(|t| Some(t.id.as_str()) == current && t.part == Part::Exploration)
            {
                task.status = task.status.max(TaskStatus::Sufficient);
            }
            if has(tasks, "task_focus_2") {
                return true;
            }
            tasks.push(exploration_task(
                "task_focus_2",
                Priority::High,
                Module::Summarizing,
                lang,
                [
                    "정리하고 초점 정하기",
                    "지금까지 나온 이야기를 정리하고 무엇에 집중할지 함께 고르기",
                    "대화의 초점 하나를 함께 정함",
                    "사용자가 집중할 것을 골랐을 때 완료",
                ],
                [
                    "Sum up and choose a focus",
                    "Sum up what has been said and choose together what to focus on",
                    "One focus for the conversation, chosen together",
                    "Done when the user has chosen what to focus on",
                ],
            ));
            true
        }
    }
}

/// The Task Planner prompt: the user's messages so far, the current Part-2 tasks (when
/// updating) and the reason for the update.
pub fn planner_prompt(user_texts: &[&str], current: &[Task], reason: Option<&PlanUpdate>, lang: Lang) -> Prompt {
    let mut lines = vec!["[WHAT THE USER HAS SAID]".to_string()];
    for text in user_texts.iter().rev().take(12).rev() {
        lines.push(isolate(&clip(text, 600), crate::engine::security::DEFAULT_TAG));
    }
    let part2: Vec<&Task> = current.iter().filter(|t| t.part == Part::Exploration).collect();
    if !part2.is_empty() {
        lines.push(String::new());
        lines.push("[CURRENT PART 2 TASKS — keep the useful ones, with their ids]".into());
        for t in part2 {
            lines.push(format!("- {} ({:?}, {:?}): {}", t.id, t.priority, t.status, t.title));
        }
    }
    if let Some(reason) = reason {
        lines.push(String::new());
        lines.push(format!("[WHY UPDATE] {}", serde_json::to_string(reason).unwrap_or_default()));
    }
    lines.push(String::new());
    lines.push("Output the tasks JSON only.".into());
    let system = system_prompt("counsel-planner", prompt_text::text(PromptText::CounselPlannerInstructions), lang);
    Prompt::single(system, lines.join("\n")).expecting_json().with_max_tokens(1200)
}

/// Reads the planner's answer into Part-2 tasks: 1 to 6 tasks, each with an id, a known
/// priority and a title; ids made unique and given the `_2` part mark; unknown modules fall
/// back to information gathering. Fails with a reason; never panics.
pub fn parse_plan(raw: &str) -> Result<Vec<Task>, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    let items = match &value {
        Value::Array(items) => items.clone(),
        Value::Object(_) => match value.get("tasks") {
            Some(Value::Array(items)) => items.clone(),
            _ => return Err("the JSON has no task list".into()),
        },
        _ => return Err("the answer is not a JSON object".into()),
    };
    if items.is_empty() {
        return Err("the plan has no tasks".into());
    }
    let mut tasks: Vec<Task> = Vec::new();
    for (n, item) in items.iter().take(6).enumerate() {
        let title = str_field(item, "title");
        if title.is_empty() {
            return Err(format!("task {} has no title", n + 1));
        }
        let priority_text = str_field(item, "priority");
        let priority = Priority::parse(&priority_text)
            .ok_or_else(|| format!("task {} has an unknown priority '{priority_text}'", n + 1))?;
        let mut id: String = str_field(item, "id")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
            .collect();
        if id.trim_matches('_').is_empty() {
            id = format!("task_plan{}_2", n + 1);
        }
        if !id.ends_with("_2") {
            id.push_str("_2");
        }
        if !id.starts_with("task_") {
            id = format!("task_{id}");
        }
        while tasks.iter().any(|t| t.id == id) {
            id = format!("{}x_2", id.trim_end_matches("_2"));
        }
        tasks.push(Task {
            id,
            part: Part::Exploration,
            priority,
            title: clip(&title, 80),
            description: clip(&str_field(item, "description"), 300),
            target: clip(&str_field(item, "target"), 200),
            completion_criteria: clip(&str_field(item, "completion_criteria"), 200),
            status: TaskStatus::Pending,
            module_hint: Module::from_id(&str_field(item, "module")).unwrap_or(Module::InformationGathering),
            topic: None,
            turns: 0,
        });
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn with_status(mut tasks: Vec<Task>, statuses: &[TaskStatus]) -> Vec<Task> {
        for (task, status) in tasks.iter_mut().zip(statuses) {
            task.status = *status;
        }
        tasks
    }

    #[test]
    fn fixed_tasks_are_the_seeds_three_per_part_in_both_languages() {
        for lang in [Lang::Ko, Lang::En] {
            let start: Vec<String> = fixed_tasks(Part::Start, lang).into_iter().map(|t| t.id).collect();
            assert_eq!(start, [WELCOME, NAME_AND_PURPOSE, RAPPORT]);
            let closing: Vec<String> = fixed_tasks(Part::Closing, lang).into_iter().map(|t| t.id).collect();
            assert_eq!(closing, [SUMMARY, GOALS, NEXT_SESSION]);
            assert!(fixed_tasks(Part::Exploration, lang).is_empty());
        }
        assert_eq!(fixed_tasks(Part::Start, Lang::Ko)[1].title, "사용자의 이름과 상담 목적 파악하기");
        assert_eq!(fixed_tasks(Part::Closing, Lang::Ko)[0].title, "상담 요약");
        assert_eq!(fixed_tasks(Part::Closing, Lang::En)[1].title, "Set a goal");
    }

    #[test]
    fn part_one_moves_on_only_when_every_task_is_at_least_sufficient() {
        use TaskStatus::*;
        let cases: &[(&[TaskStatus], Option<Part>)] = &[
            (&[Sufficient, Sufficient, Sufficient], Some(Part::Exploration)),
            (&[Completed, Sufficient, Completed], Some(Part::Exploration)),
            (&[Sufficient, Sufficient, InProgress], None),
            (&[Sufficient, Pending, Sufficient], None),
            (&[Pending, Pending, Pending], None),
        ];
        for (statuses, want) in cases {
            let tasks = with_status(fixed_tasks(Part::Start, Lang::En), statuses);
            assert_eq!(transition(Part::Start, &tasks, false), *want, "{statuses:?}");
        }
        assert_eq!(transition(Part::Start, &[], false), None, "no tasks is not done");
    }

    #[test]
    fn part_two_moves_on_when_main_tasks_are_covered_or_the_checker_says_so() {
        use TaskStatus::*;
        let plan = plan_exploration(&["회사 상사 때문에 힘들어요"], Lang::Ko);
        assert_eq!(
            plan.iter().map(|t| t.priority).collect::<Vec<_>>(),
            [Priority::High, Priority::Medium, Priority::Low]
        );
        let cases: &[(&[TaskStatus], bool, Option<Part>)] = &[
            (&[Sufficient, Sufficient, Pending], false, Some(Part::Closing)),
            (&[Sufficient, Pending, Pending], false, None),
            (&[InProgress, Sufficient, Sufficient], false, None),
            (&[InProgress, Pending, Pending], true, Some(Part::Closing)),
        ];
        for (statuses, llm, want) in cases {
            let tasks = with_status(plan.clone(), statuses);
            assert_eq!(transition(Part::Exploration, &tasks, *llm), *want, "{statuses:?} {llm}");
        }
    }

    #[test]
    fn part_three_ends_only_when_every_task_is_completed() {
        use TaskStatus::*;
        let cases: &[(&[TaskStatus], Option<Part>)] = &[
            (&[Completed, Completed, Completed], Some(Part::Ended)),
            (&[Completed, Completed, Sufficient], None),
            (&[Completed, InProgress, Pending], None),
        ];
        for (statuses, want) in cases {
            let tasks = with_status(fixed_tasks(Part::Closing, Lang::Ko), statuses);
            assert_eq!(transition(Part::Closing, &tasks, false), *want, "{statuses:?}");
        }
        assert_eq!(transition(Part::Ended, &[], true), None);
    }

    #[test]
    fn topics_are_found_in_korean_and_english() {
        let cases: &[(&str, &[Topic])] = &[
            ("회사 상사 때문에 너무 힘들어요", &[Topic::Work]),
            ("My boss yells at me at work", &[Topic::Work]),
            ("시험 성적이 걱정돼요", &[Topic::Study, Topic::Mood]),
            ("I broke up with my girlfriend", &[Topic::Partner]),
            ("엄마랑 자주 싸워요", &[Topic::Family]),
            ("I can't sleep at night", &[Topic::Health]),
            ("친구가 없어서 외로워요", &[Topic::Friends]),
            ("요즘 남자친구랑 자주 싸워요", &[Topic::Partner]),
            ("여자친구도 친구들도 연락이 없어요", &[Topic::Partner, Topic::Friends]),
            ("그냥 안녕하세요", &[]),
            ("hello there", &[]),
            ("I worked out today and feel fine", &[]),
            ("I feel so stressed and depressed", &[Topic::Mood]),
        ];
        for (text, want) in cases {
            assert_eq!(topics_in(text), *want, "{text}");
        }
    }

    #[test]
    fn exploration_plan_follows_what_the_user_said() {
        let ko = plan_exploration(&["민지예요", "회사 상사 때문에 스트레스가 심해요"], Lang::Ko);
        assert_eq!(ko[0].id, "task_work_2");
        assert_eq!(ko[0].title, "직장과 일 이야기 탐색하기");
        let en = plan_exploration(&["I just feel off lately"], Lang::En);
        assert_eq!(en[0].id, "task_situation_2");
        assert!(en.iter().all(|t| t.part == Part::Exploration && t.status == TaskStatus::Pending));
    }

    #[test]
    fn exploration_updates_on_each_seed_condition() {
        let mut tasks = plan_exploration(&["회사 일이 힘들어요"], Lang::Ko);
        let before = tasks.len();
        assert!(update_exploration(&mut tasks, &PlanUpdate::TopicChange(Topic::Family), None, Lang::Ko));
        assert!(!update_exploration(&mut tasks, &PlanUpdate::TopicChange(Topic::Family), None, Lang::Ko));
        assert!(update_exploration(&mut tasks, &PlanUpdate::Resistance, None, Lang::Ko));
        assert!(update_exploration(
            &mut tasks,
            &PlanUpdate::SupervisorFeedback("공감을 더 다양하게".into()),
            None,
            Lang::Ko
        ));
        assert!(tasks.iter().any(|t| t.title == "Supervision 반영: 공감을 더 다양하게"));
        assert!(update_exploration(&mut tasks, &PlanUpdate::GoingInCircles, Some("task_work_2"), Lang::Ko));
        assert_eq!(tasks.iter().find(|t| t.id == "task_work_2").map(|t| t.status), Some(TaskStatus::Sufficient));
        assert_eq!(tasks.len(), before + 4);
        let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
        for id in ["task_family_2", "task_trust_2", "task_supervision_2", "task_focus_2"] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }
    }

    #[test]
    fn plan_parser_checks_sense_and_never_panics() {
        let good = r#"{"tasks":[{"id":"explore work","priority":"high","title":"직장 상황","target":"t","module":"empathic_reflection"},
            {"id":"explore work","priority":"Low","title":"자원"}]}"#;
        let tasks = parse_plan(good).expect("parses");
        assert_eq!(tasks[0].id, "task_explore_work_2");
        assert_ne!(tasks[0].id, tasks[1].id);
        assert_eq!(tasks[0].module_hint, Module::EmpathicReflection);
        assert_eq!(tasks[1].priority, Priority::Low);
        let bad = [
            "",
            "no json",
            r#"{"tasks": []}"#,
            r#"{"tasks": [{"priority": "high"}]}"#,
            r#"{"tasks": [{"title": "x", "priority": "urgent"}]}"#,
            r#"{"plan": 1}"#,
        ];
        for raw in bad {
            assert!(parse_plan(raw).is_err(), "{raw}");
        }
        let prompt = planner_prompt(&["회사 일이 힘들어요"], &tasks, Some(&PlanUpdate::Resistance), Lang::Ko);
        assert!(prompt.system.starts_with("# role: counsel-planner"));
        assert!(prompt.turns[0].text.contains("task_explore_work_2") && prompt.turns[0].text.contains("resistance"));
    }
}
