//! Whole-session tests of the counseling mode with heuristics only.

use super::*;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Runs the messages through a fresh no-key session; returns it, the opening, and the
/// outcome and part after each message.
fn run(lang: Lang, messages: &[&str]) -> (Counseling, String, Vec<(TurnOutcome, Part)>) {
    let mut session = Counseling::new(lang);
    let opening = session.opening(true);
    let mut outcomes = Vec::new();
    for text in messages {
        let outcome = session.heuristic_turn(text, lang);
        outcomes.push((outcome, session.part));
    }
    (session, opening, outcomes)
}

/// The shared session and a last goodbye after it has ended.
fn ko_session() -> Vec<&'static str> {
    [crate::scenario::COUNSEL_KO, &["안녕히 계세요"]].concat()
}

/// The shared session and a last goodbye after it has ended.
fn en_session() -> Vec<&'static str> {
    [crate::scenario::COUNSEL_EN, &["bye"]].concat()
}

fn parts_visited(outcomes: &[(TurnOutcome, Part)]) -> Vec<Part> {
    let mut parts = vec![Part::Start];
    for (_, part) in outcomes {
        if parts.last() != Some(part) {
            parts.push(*part);
        }
    }
    parts
}

#[test]
fn korean_heuristic_session_runs_from_greeting_to_closing() {
    let (session, opening, outcomes) = run(Lang::Ko, &ko_session());
    assert!(opening.contains("API 키 없이") && opening.contains("상담사는 아니에요"));
    assert_eq!(parts_visited(&outcomes), [Part::Start, Part::Exploration, Part::Closing, Part::Ended]);
    let part_at = |n: usize| outcomes[n - 1].1;
    assert_eq!(part_at(2), Part::Start);
    assert_eq!(part_at(3), Part::Exploration, "Part 1 ends when its three tasks are sufficient");
    assert_eq!(part_at(10), Part::Ended);
    for (n, (outcome, _)) in outcomes.iter().enumerate() {
        assert!(outcome.crisis.is_none(), "message {}", n + 1);
        assert!(outcome.reply.chars().any(crate::engine::lang::is_hangul), "message {}: {}", n + 1, outcome.reply);
    }
    // The Part-2 plan came from what she said: work first.
    assert_eq!(outcomes[2].0.plan.selected_task.as_deref(), Some("task_work_2"));
    assert!(outcomes[2].0.reply.contains("직장과 일"), "{}", outcomes[2].0.reply);
    // A strong feeling switched the module, and the notice was given on that turn.
    let change = outcomes[3].0.plan.module_change.as_ref().expect("module changed on message 4");
    assert_eq!((change.to, &change.reason), (Module::EmpathicReflection, &ChangeReason::StrongEmotion));
    // The summary reply names what was talked about; the goal was captured.
    let summary_turn =
        outcomes.iter().find(|(o, _)| o.plan.part_transition == Some((Part::Exploration, Part::Closing)));
    assert!(summary_turn.expect("entered Part 3").0.reply.contains("민지님은 직장과 일"));
    assert_eq!(session.goals, ["이번 주에는 점심시간에 혼자 10분씩 산책을 해 볼게요"]);
    assert!(session.tasks.iter().filter(|t| t.part == Part::Closing).all(|t| t.status == TaskStatus::Completed));
    assert_eq!(outcomes[10].0.reply, counselor::ended_reply(Lang::Ko));
    // Supervision ran exactly on messages 3, 6 and 9.
    let supervised: Vec<usize> =
        outcomes.iter().enumerate().filter(|(_, (o, _))| o.supervision.is_some()).map(|(n, _)| n + 1).collect();
    assert_eq!(supervised, [3, 6, 9]);
    assert_eq!(session.supervision.iter().map(|f| f.at_user_message).collect::<Vec<_>>(), [3, 6, 9]);

    let summary = session.summary_markdown();
    for needle in
        ["# 상담 요약", "이름: 민지", "## 나눈 이야기", "직장과 일", "## 정한 목표", "산책", "## 다음 단계", "109"]
    {
        assert!(summary.contains(needle), "summary lacks {needle}:\n{summary}");
    }
    assert!(!summary.contains("대처 방식과 자원 찾기"), "a task never talked about is not listed:\n{summary}");
}

#[test]
fn english_heuristic_session_runs_from_greeting_to_closing() {
    let (session, opening, outcomes) = run(Lang::En, &en_session());
    assert!(opening.contains("no-key partner") && opening.contains("not a licensed counselor"));
    assert_eq!(parts_visited(&outcomes), [Part::Start, Part::Exploration, Part::Closing, Part::Ended]);
    assert_eq!(session.user_name.as_deref(), Some("Sam"));
    for (n, (outcome, _)) in outcomes.iter().enumerate() {
        assert!(outcome.crisis.is_none(), "message {}", n + 1);
        assert!(!outcome.reply.chars().any(crate::engine::lang::is_hangul), "message {}: {}", n + 1, outcome.reply);
        assert!(!outcome.reply.is_empty());
    }
    assert_eq!(outcomes[2].0.plan.selected_task.as_deref(), Some("task_work_2"));
    assert_eq!(session.goals, ["This week I will take a ten minute walk at lunch every day"]);
    assert_eq!(outcomes[9].1, Part::Ended);
    let goal = Some("This week I will take a ten minute walk at lunch every day");
    assert_eq!(outcomes[9].0.reply, counselor::farewell(Lang::En, "Thank you, see you next time", goal));
    assert!(outcomes[9].0.reply.contains("Give your goal “This week I will take"), "the goal is said again");
    assert!(outcomes[9].0.reply.starts_with("Thank you too."), "thanks answered");
    assert!(!counselor::farewell(Lang::Ko, "네", None).starts_with("저도 고마워요"), "no thanks to answer");
    assert!(counselor::farewell(Lang::Ko, "고마워요", None).starts_with("저도 고마워요. 오늘 대화는"));
    assert!(outcomes[9].0.reply.contains("no-key partner"));
    let summary = session.summary_markdown();
    for needle in ["# Session summary", "Name: Sam", "work", "## Goals set", "ten minute walk", "## Next steps"] {
        assert!(summary.contains(needle), "summary lacks {needle}:\n{summary}");
    }
}

#[test]
fn crisis_gets_the_fixed_response_in_every_part_and_the_next_prompt_knows() {
    // Message counts that leave the session in Part 1, 2, 3 and ended.
    for (lang, script, crisis_text) in [
        (Lang::Ko, &ko_session(), "요즘 사라지고 싶다는 생각이 자꾸 들어"),
        (Lang::En, &en_session(), "it would be easier if I just didn't wake up"),
    ] {
        for prefix in [1, 4, 8, 10] {
            let (mut session, _, _) = run(lang, &script[..prefix]);
            let part = session.part;
            let tasks_before = session.tasks.clone();
            let outcome = session.heuristic_turn(crisis_text, lang);
            assert_eq!(outcome.reply, crisis::safety_response(lang), "{lang:?} in {part:?}");
            assert!(outcome.crisis.is_some());
            assert_eq!(session.part, part, "a crisis moves no part");
            let statuses = |tasks: &[Task]| tasks.iter().map(|t| t.status).collect::<Vec<_>>();
            assert_eq!(statuses(&session.tasks), statuses(&tasks_before), "a crisis moves no task");
            assert_eq!(session.crises.last().map(|c| c.at_user_message), Some(prefix as u32 + 1));
            let note = lang.pick("안전 메모", "Safety note");
            assert!(session.counselor_prompt(&[]).system.contains(note), "{lang:?} in {part:?}");
            if part != Part::Ended {
                let next = session.heuristic_turn(lang.pick("네", "ok"), lang);
                assert!(next.reply.contains(lang.pick("안전하신지", "safe right now")), "{}", next.reply);
            }
        }
    }
}

#[test]
fn module_change_notice_reaches_the_counselor_once() {
    let (mut session, _, _) = run(Lang::Ko, &ko_session()[..3]);
    let resisted = session.heuristic_turn("그 얘기는 하기 싫어요", Lang::Ko);
    let change = resisted.plan.module_change.expect("resistance changes the module");
    assert_eq!((change.from, change.to), (Module::InformationGathering, Module::ResistanceHandling));
    let notice = change.notice(Lang::Ko);
    assert!(session.counselor_prompt(&[]).system.contains(&notice));
    let again = session.heuristic_turn("말하기 싫다니까요", Lang::Ko);
    assert!(again.plan.module_change.is_none(), "still resisting: same module");
    assert!(!session.counselor_prompt(&[]).system.contains("=== Module 변경 ==="), "the notice is given once");
    assert_eq!(session.module_changes.last(), Some(&change));
    // Resistance in Part 2 also made the planner add a task for it.
    assert!(session.tasks.iter().any(|t| t.id == "task_trust_2"));
}

#[test]
fn supervision_applies_from_the_next_turn_only() {
    let (mut session, _, _) = run(Lang::En, &en_session()[..3]);
    assert_eq!(session.supervision.len(), 1, "supervised after message 3");
    // Replace it with a low score that asks for empathy, as an LLM supervisor might.
    session.supervision.clear();
    session.record_feedback(SupervisorFeedback {
        score: 4,
        improvements: vec!["Reflect feelings before asking".into()],
        suggested_module: Some(Module::EmpathicReflection),
        at_user_message: 3,
        by_llm: true,
    });
    let steered = session.heuristic_turn("My boss criticizes me a lot", Lang::En);
    let change = steered.plan.module_change.expect("the feedback steers the next turn");
    assert_eq!(change.reason, ChangeReason::SupervisorFeedback("Reflect feelings before asking".into()));
    assert!(session.counselor_prompt(&[]).system.contains("score 4/10"));
    let later = session.heuristic_turn("He does it in meetings, in front of the whole team, most weeks", Lang::En);
    assert!(
        !matches!(later.plan.module_change, Some(ModuleChange { reason: ChangeReason::SupervisorFeedback(_), .. })),
        "it steers once"
    );
}

#[test]
fn counseling_state_survives_a_serde_round_trip() {
    let (session, _, _) = run(Lang::Ko, &ko_session()[..5]);
    let json = serde_json::to_string(&session).expect("serializes");
    let back: Counseling = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, session);
}

#[test]
fn summary_of_an_empty_session_says_nothing_was_set() {
    let summary = Counseling::new(Lang::En).summary_markdown();
    assert!(summary.contains("No particular topic yet") && summary.contains("No goal set yet"));
    let ko = Counseling::new(Lang::Ko).summary_markdown();
    assert!(ko.contains("아직 정한 목표가 없어요"));
}

#[test]
fn a_crisis_only_the_llm_detector_saw_stops_the_turn_before_the_counselor() {
    let (mut session, _, _) = run(Lang::En, &en_session()[..4]);
    let text = "Lately I feel like a ghost who should fade out for good";
    assert_eq!(session.begin_turn(text), None, "the keyword check misses this one");
    let before = (session.part, session.current_task.clone(), session.module);
    let llm_state = state::parse_state(r#"{"emotion": "sad", "intensity": 8, "crisis": "suicide"}"#).expect("parses");
    let plan = session.apply_checks(None, &llm_state);
    assert_eq!(plan.crisis, Some(CrisisKind::Suicide));
    assert_eq!((session.part, session.current_task.clone(), session.module), before, "nothing else moved");
    assert_eq!(session.crises.last().map(|c| c.at_user_message), Some(session.user_messages));
    assert!(session.counselor_prompt(&[]).system.contains("Safety note"));
}

#[test]
fn an_llm_plan_replaces_pending_part_two_tasks_and_keeps_started_ones() {
    let (mut session, _, _) = run(Lang::Ko, &ko_session()[..3]);
    assert_eq!(session.current_task.as_deref(), Some("task_work_2"));
    let planned = task::parse_plan(
        r#"{"tasks":[{"id":"task_boss_2","priority":"high","title":"상사와의 관계"},{"id":"task_work_2","priority":"low","title":"중복"}]}"#,
    )
    .expect("parses");
    assert!(session.adopt_plan(planned));
    let part2: Vec<(&str, TaskStatus)> =
        session.tasks.iter().filter(|t| t.part == Part::Exploration).map(|t| (t.id.as_str(), t.status)).collect();
    assert_eq!(part2, [("task_work_2", TaskStatus::InProgress), ("task_boss_2", TaskStatus::Pending)]);
    assert!(!Counseling::new(Lang::Ko).adopt_plan(vec![]), "only in Part 2");
}

#[test]
fn a_task_the_checker_never_closes_is_let_go_after_the_turn_bound() {
    let mut session = Counseling::new(Lang::En);
    session.opening(false);
    let not_done =
        |s: &Counseling| Verdict { task_id: s.current_task.clone().unwrap_or_default(), ..Verdict::default() };
    for n in 1..=MAX_TURNS_PER_TASK {
        assert_eq!(session.current_task.as_deref(), Some(task::WELCOME), "message {n}");
        session.begin_turn("hmm");
        let verdict = not_done(&session);
        session.apply_checks(Some(&verdict), &UserState::default());
    }
    assert_eq!(session.current_task.as_deref(), Some(task::NAME_AND_PURPOSE));
    assert_eq!(session.tasks[0].status, TaskStatus::Sufficient);
}

/// The LLM path, step by step, with scripted answers: what the shell does with effects.
#[test]
fn an_llm_turn_runs_the_same_steps_with_parsed_answers_and_falls_back_to_twins() {
    let lang = Lang::En;
    let mut session = Counseling::new(lang);
    let mut history = vec![Turn::assistant(session.opening(false))];
    let text = "Hi, I'm Sam and my boss is making work miserable";
    history.push(Turn::user(text));

    // 1. Before any call: the keyword crisis check.
    assert_eq!(session.begin_turn(text), None);
    // 2. Checker and detector: one batch of two foreground calls on the same snapshot.
    let current = session.current().cloned().expect("a task is in progress");
    let checker_prompt = checker::checker_prompt(session.part, &current, &session.tasks, &[], &history, lang);
    let state_prompt = state::state_prompt(&history, &session.topics, lang);
    assert!(checker_prompt.system.contains("# role: counsel-task-checker"));
    assert!(state_prompt.system.contains("# role: counsel-state-detector"));
    let verdict = checker::parse_verdict(
        r#"{"is_completed": true, "new_status": "sufficient", "also_sufficient": ["task_info_1"]}"#,
        &current,
        &session.tasks,
    )
    // A failed parse falls back to the twin.
    .unwrap_or_else(|_| session.heuristic_verdict(text, &session.heuristic_state(text)).expect("twin"));
    let state = state::parse_state("not json at all").unwrap_or_else(|_| session.heuristic_state(text));
    // 3. Selectors and part manager: pure, no call.
    let plan = session.apply_checks(Some(&verdict), &state);
    assert_eq!(plan.crisis, None);
    assert_eq!(plan.selected_task.as_deref(), Some(task::RAPPORT), "welcome and name/purpose are covered");
    // 4. Counselor: one streamed foreground call.
    let prompt = session.counselor_prompt(&history);
    assert!(prompt.system.contains("Build rapport"));
    assert_eq!(plan.module_change, None, "welcome and rapport share the rapport module");
    assert!(!prompt.system.contains("=== Module change ==="));
    let reply = "(llm) Thank you, Sam. How have things been at work?";
    session.record_reply(reply);
    history.push(Turn::assistant(reply));
    // 5. Supervisor: background, only on every 3rd user message.
    assert!(!session.supervisor_due());
    for text in ["It has been hard", "Yes"] {
        session.begin_turn(text);
        let state = session.heuristic_state(text);
        let verdict = session.heuristic_verdict(text, &state);
        session.apply_checks(verdict.as_ref(), &state);
    }
    assert!(session.supervisor_due());
    let current = session.current().cloned();
    let sup_prompt = supervisor::supervisor_prompt(&history, session.part, current.as_ref(), session.module, lang);
    assert!(sup_prompt.system.contains("# role: counsel-supervisor"));
    let feedback = supervisor::parse_feedback(r#"{"score": 6, "improvements": ["Slow down"]}"#, session.user_messages)
        .unwrap_or_else(|_| supervisor::heuristic_review(&session.recent, session.module, session.user_messages, lang));
    session.record_feedback(feedback);
    assert!(session.counselor_prompt(&history).system.contains("Slow down"), "applies from the next prompt");
}

#[test]
fn a_user_who_asks_to_stop_is_offered_to_close_and_a_yes_ends_the_session() {
    let (session, _, outcomes) =
        run(Lang::Ko, &["요즘 회사 일 때문에 잠을 잘 못 자요", "그만할래요", "네", "하나 더 물어봐도 돼요?"]);
    assert_eq!(outcomes[1].0.reply, counselor::closing_offer(Lang::Ko));
    assert_eq!(outcomes[1].1, Part::Start, "an offer only: nothing closed yet");
    assert_eq!(outcomes[2].0.reply, counselor::early_farewell(Lang::Ko));
    assert_eq!((outcomes[2].1, outcomes[2].0.plan.part_transition), (Part::Ended, Some((Part::Start, Part::Ended))));
    assert_eq!(session.turn_part_transition.map(|(_, to)| to), None, "the next turn cleared it");
    assert_eq!(outcomes[3].0.reply, counselor::ended_reply(Lang::Ko));
}

#[test]
fn a_user_who_goes_on_after_the_offer_keeps_talking_and_can_ask_again() {
    let (session, _, outcomes) = run(
        Lang::En,
        &["work has been rough", "ok, let's stop here for today", "actually, one more thing about my boss"],
    );
    assert_eq!(outcomes[1].0.reply, counselor::closing_offer(Lang::En));
    assert_ne!(outcomes[2].0.reply, counselor::early_farewell(Lang::En));
    assert_ne!(outcomes[2].0.reply, counselor::closing_offer(Lang::En));
    assert!(outcomes[2].0.state.is_some(), "the turn ran its checks as usual");
    assert_ne!(session.part, Part::Ended);
    assert!(!session.end_offered);
}

#[test]
fn a_name_never_asked_for_is_asked_once_gently_and_a_given_name_is_not() {
    let ask_ko = "제가 어떻게 불러 드리면 좋을까요";
    // The first message says why the user came: the name question was skipped, so the
    // next reply asks for the name once, and the one after does not ask again.
    let (session, _, outcomes) =
        run(Lang::Ko, &["요즘 회사 일 때문에 잠을 잘 못 자요", "그냥 매일 피곤해요", "네 그래요"]);
    let asked: Vec<bool> = outcomes.iter().map(|(o, _)| o.reply.contains(ask_ko)).collect();
    assert_eq!(asked, [true, false, false], "{outcomes:?}");
    assert_eq!(session.user_name, None, "\"그냥 매일 피곤해요\" is no name");
    // The answer may be the name alone; the counselor then uses it.
    let (session, _, outcomes) = run(Lang::Ko, &["요즘 회사 일 때문에 잠을 잘 못 자요", "민지예요"]);
    assert_eq!(session.user_name.as_deref(), Some("민지"));
    assert!(outcomes[1].0.reply.contains("민지님"), "{:?}", outcomes[1].0.reply);
    // So may the answer to the name-and-purpose question.
    let (session, _, _) = run(Lang::En, &["hi", "sam", "work has been hard"]);
    assert_eq!(session.user_name.as_deref(), Some("Sam"));
    // Anywhere else a lone word is no name.
    let (session, _, _) = run(Lang::En, &["work has been hard lately", "sure", "Tired"]);
    assert_eq!(session.user_name, None);
    // A name already given is used, not asked for.
    let (_, _, outcomes) = run(Lang::Ko, &["저는 민지예요. 요즘 회사 일 때문에 잠을 잘 못 자요", "그냥 매일 피곤해요"]);
    assert!(outcomes.iter().all(|(o, _)| !o.reply.contains(ask_ko)), "{outcomes:?}");
    // A greeting that gives the name is greeted by it and asked only what brings them.
    for (lang, text, name) in [(Lang::En, "hi, I'm Sam", "Sam"), (Lang::Ko, "안녕하세요, 저는 민지예요", "민지님")]
    {
        let (_, _, outcomes) = run(lang, &[text]);
        let reply = &outcomes[0].0.reply;
        assert!(reply.contains(name) && !reply.contains("call you") && !reply.contains("불러"), "{reply}");
    }
    // So is the name given in answer to that question: it is not asked again.
    let (_, _, outcomes) = run(Lang::Ko, &["안녕하세요", "지수라고 불러주세요"]);
    let reply = &outcomes[1].0.reply;
    assert!(reply.contains("지수님") && !reply.contains("불러 드리면"), "{reply}");
    // A greeting without a reason gets the name-and-purpose question, and then not this one.
    let (_, _, outcomes) = run(Lang::En, &["hi", "I don't know", "work has been hard"]);
    assert!(outcomes[0].0.reply.contains("what should I call you"), "{:?}", outcomes[0].0.reply);
    assert!(outcomes[1..].iter().all(|(o, _)| !o.reply.contains("Before we go on")), "{outcomes:?}");
}

#[test]
fn a_boyfriend_is_no_friend_and_the_summary_is_announced_once() {
    let messages = [
        "안녕하세요",
        "서연이에요. 요즘 남자친구랑 자주 싸워서 힘들어요",
        "사소한 걸로 자꾸 다퉈요. 연락 문제 같은 거요",
        "제가 너무 예민한 건가 싶기도 하고요",
        "잘 모르겠어요",
        "한 달 정도 된 것 같아요",
        "친구들한테는 말 못 했어요",
        "그냥 혼자 참는 편이에요",
        "이 정도면 충분히 얘기한 것 같아요",
        "네 맞아요",
    ];
    let (session, _, outcomes) = run(Lang::Ko, &messages);
    // Only "친구들한테는" speaks of friends.
    assert!(outcomes[..6].iter().all(|(o, _)| !o.reply.contains("친구와 인간관계")), "{outcomes:?}");
    assert_eq!(session.topics.first(), Some(&task::Topic::Partner));
    let closing = outcomes.iter().find(|(o, _)| o.plan.part_transition.is_some_and(|(_, to)| to == Part::Closing));
    let (closing, _) = closing.expect("the session reaches Closing");
    assert_eq!(closing.reply.matches("정리해 볼게요").count(), 1, "{}", closing.reply);
}

#[test]
fn an_idea_offered_while_exploring_comes_back_as_the_goal() {
    let idea = "I guess I could try studying in shorter blocks";
    let messages = [
        "Hi, I'm Alex. I've been really stressed about my exams",
        "I have three exams next week and I can't focus when I study",
        "It started about a month ago when my grades dropped",
        "I feel anxious all the time and I sleep badly",
        "my parents expect a lot from me",
        idea,
        "maybe 25 minutes at a time with breaks",
        "I think that's all for today",
        "yes",
    ];
    let (mut session, _, outcomes) = run(Lang::En, &messages);
    // The counselor follows the topic the person raises, not only the task's.
    let family = &outcomes[4].0.reply;
    assert!(family.contains("family") && !family.contains("sleep"), "{family}");
    let taken = &outcomes[5].0.reply;
    assert!(taken.contains("thought of something to try"), "the idea is taken up: {taken}");
    // Goal setting comes back to the idea instead of asking for a new one.
    let ask = &outcomes[8].0.reply;
    assert!(ask.contains("Earlier you said “I guess I could try studying in shorter"), "{ask}");
    assert!(session.goals.is_empty());
    let agreed = session.heuristic_turn("yes, every weekday after dinner", Lang::En);
    assert!(!agreed.reply.is_empty());
    assert_eq!(session.goals, [format!("{idea} — every weekday after dinner")]);
    assert!(session.summary_markdown().contains("studying in shorter blocks"), "{}", session.summary_markdown());
}

#[test]
fn a_plan_made_from_an_idea_while_exploring_is_the_goal_and_is_not_asked_again() {
    let messages = [
        "안녕하세요",
        "요즘 회사에서 팀장님이랑 자꾸 부딪혀서 힘들어요",
        "한 달쯤 됐어요. 회의 때마다 제 의견을 무시해요",
        "화가 나고 출근하기가 싫어요",
        "집에 와서도 계속 생각나서 잠을 못 자요",
        "친구한테 얘기해 봤는데 별 도움이 안 됐어요",
        "팀장님이랑 따로 이야기해 볼까 해요",
        "음 다음 주 월요일에 면담 신청해 볼게요",
        "그 정도예요",
        "네 맞아요",
        "아니요 그거면 돼요",
    ];
    let (session, _, outcomes) = run(Lang::Ko, &messages);
    let goal = "다음 주 월요일에 면담 신청해 볼게요";
    assert_eq!(session.goals, [goal], "the plan, without the filler in front");
    let noted = &outcomes[7].0.reply;
    assert!(noted.contains("구체적인 계획을 세우셨네요") && !noted.contains("떠올리셨네요"), "{noted}");
    let asked = &outcomes[9].0.reply;
    assert!(asked.contains(&format!("앞에서 정하신 목표: “{goal}”")), "{asked}");
    let after = &outcomes[10].0.reply;
    assert!(!after.contains("앞에서 정하신 목표:"), "the goal question is not asked twice: {after}");
    assert!(session.summary_markdown().contains(goal));
}

#[test]
fn a_name_withheld_is_accepted_and_not_asked_again() {
    for (lang, script, fine, asked) in [
        (
            Lang::En,
            ["hey", "I don't really want to give my name"],
            "don't need to give a name",
            "what should I call you",
        ),
        (Lang::Ko, ["안녕하세요", "이름은 비밀이에요"], "이름은 말하지 않으셔도 돼요", "어떻게 불러 드리면"),
    ] {
        let (session, _, outcomes) = run(lang, &script);
        let reply = &outcomes[1].0.reply;
        assert!(reply.contains(fine) && !reply.contains(asked), "{reply}");
        assert!(!reply.contains(script[1]), "a name withheld is not quoted back: {reply}");
        assert_eq!(session.user_name, None);
    }
    // Asked on its own after a first message that said why: the same.
    let (_, _, outcomes) = run(Lang::En, &["my boss yells at me every day", "I'd rather not say"]);
    assert!(outcomes[0].0.reply.contains("what should I call you"), "{}", outcomes[0].0.reply);
    assert!(outcomes[1].0.reply.starts_with("That's fine, no name needed."), "{}", outcomes[1].0.reply);
    assert!(!outcomes[1].0.reply.contains("hard to talk about"), "{}", outcomes[1].0.reply);
}

#[test]
fn what_should_i_do_is_answered_not_echoed() {
    for (lang, script, answer) in [
        (
            Lang::En,
            ["hi, I'm Sam", "my girlfriend broke up with me last week", "what should I do?"],
            "think it through together",
        ),
        (
            Lang::Ko,
            ["안녕하세요, 민지예요", "남자친구랑 헤어졌어요", "이제 어떻게 해야 할까요?"],
            "함께 생각해 볼 수는 있어요",
        ),
    ] {
        let (_, _, outcomes) = run(lang, &script);
        let reply = &outcomes[2].0.reply;
        assert!(reply.contains(answer), "{reply}");
        assert!(!reply.contains(script[2]), "the question is not quoted back: {reply}");
    }
}

#[test]
fn a_name_after_a_greeting_is_taken_and_not_quoted_back() {
    let (session, _, outcomes) =
        run(Lang::Ko, &["안녕하세요 민지예요. 요즘 회사 일 때문에 힘들어서 왔어요", "지쳐서 아무것도 하기 싫어요"]);
    assert_eq!(session.user_name.as_deref(), Some("민지"));
    let first = &outcomes[0].0.reply;
    assert!(first.contains("민지님") && first.contains("“요즘 회사 일 때문에 힘들어서 왔어요”"), "{first}");
    assert!(!first.contains("불러 드리면"), "the name is not asked for again: {first}");
    let second = &outcomes[1].0.reply;
    assert!(!second.contains("이름은 말하지 않으셔도") && !second.contains("말하기 어려운"), "{second}");
    let (_, _, outcomes) = run(Lang::En, &["Hi, I'm Sam. Work has been rough lately"]);
    assert!(outcomes[0].0.reply.contains("“Work has been rough lately”"), "{}", outcomes[0].0.reply);
}

#[test]
fn a_korean_idea_said_with_any_verb_is_taken_up_and_its_plan_is_the_goal() {
    let (session, _, outcomes) = run(
        Lang::Ko,
        &["안녕", "남자친구랑 헤어졌어", "친구들 만나면 좀 나을 것 같기도 하고", "이번 주말에 친구 만나볼게"],
    );
    assert!(outcomes[2].0.reply.contains("스스로 해 볼 만한"), "{}", outcomes[2].0.reply);
    assert_eq!(session.goals, ["이번 주말에 친구 만나볼게"]);
}

#[test]
fn a_shrug_beside_a_feeling_is_not_resistance_and_thanks_come_once() {
    let (session, _, outcomes) = run(Lang::En, &["hey", "idk, just stressed"]);
    let state = outcomes[1].0.state.as_ref().expect("read");
    assert!(!state.resistance);
    assert_ne!(session.module, Module::ResistanceHandling);
    assert_eq!(outcomes[1].0.reply.matches("hank you").count(), 1, "{}", outcomes[1].0.reply);
    let (_, _, outcomes) = run(Lang::En, &["hey", "idk"]);
    assert!(outcomes[1].0.state.as_ref().expect("read").resistance, "a bare shrug still is");
}

#[test]
fn what_the_counselor_is_not_is_said_plainly_in_place_of_an_echo() {
    let (_, _, outcomes) = run(
        Lang::En,
        &[
            "hi I'm Jo",
            "are you a real person?",
            "can you diagnose me with depression?",
            "should I stop taking my meds?",
        ],
    );
    let replies: Vec<&str> = outcomes.iter().map(|(o, _)| o.reply.as_str()).collect();
    assert!(replies[1].starts_with("I'm not a person: I'm an AI conversation partner"), "{}", replies[1]);
    assert!(replies[2].starts_with("I can't diagnose anything"), "{}", replies[2]);
    assert!(replies[3].starts_with("Please talk to the doctor who prescribed it"), "{}", replies[3]);
    assert!(replies[1..].iter().all(|r| !r.contains('“')), "no echo of the question: {replies:?}");
    let (_, _, outcomes) = run(Lang::Ko, &["안녕하세요 지수예요", "너 사람이야?", "약 끊어도 될까요?"]);
    assert!(outcomes[1].0.reply.starts_with("저는 사람이 아니라 AI 대화 상대예요"), "{}", outcomes[1].0.reply);
    assert!(outcomes[2].0.reply.starts_with("약을 시작하거나 끊거나"), "{}", outcomes[2].0.reply);
}

#[test]
fn thanks_after_the_summary_is_answered_as_thanks() {
    let (_, _, outcomes) = run(
        Lang::En,
        &[
            "hey",
            "my exams are next week and I can't focus",
            "maybe I could put my phone in another room",
            "yeah I'll try that tonight",
            "not really, that's it",
            "thanks",
        ],
    );
    let last = &outcomes.last().expect("replies").0.reply;
    assert!(last.contains("You're welcome") && !last.contains("feels a bit better"), "{last}");
    let (_, _, outcomes) = run(Lang::Ko, &["안녕", "요즘 시험 때문에 집중이 안 돼요", "고마워요"]);
    let last = &outcomes.last().expect("replies").0.reply;
    assert!(last.contains("저도 이야기 나눠 주셔서 고마워요") && !last.contains("나아진 부분"), "{last}");
}

#[test]
fn harm_to_others_is_read_before_harm_from_others() {
    let mut session = Counseling::new(Lang::En);
    session.opening(true);
    let found = session.begin_turn("if he hits me again I'll kill him").expect("a crisis");
    assert_eq!(found.kind, CrisisKind::HarmOthers);
    let found = session.begin_turn("my boyfriend threatened me again").expect("a crisis");
    assert_eq!(found.kind, CrisisKind::Abuse);
}

#[test]
fn not_knowing_is_answered_with_an_easier_question_not_reflected_as_a_feeling() {
    for (lang, unsure) in
        [(Lang::Ko, "잘 모르겠어요"), (Lang::Ko, "음 글쎄요..."), (Lang::En, "I don't know"), (Lang::En, "not sure.")]
    {
        let opening = match lang {
            Lang::Ko => ["안녕하세요", "요즘 회사 일이 너무 많아서 힘들어요"],
            Lang::En => ["hi", "work has been too much lately"],
        };
        let (_, _, outcomes) = run(lang, &[opening[0], opening[1], unsure]);
        let reply = &outcomes[2].0.reply;
        let easier = [
            "잘 모르셔도 괜찮아요",
            "꼭 지금 답하지 않으셔도",
            "It's okay not to know",
            "you don't have to answer now",
        ];
        assert!(easier.iter().any(|e| reply.contains(e)), "{unsure}: {reply}");
        assert!(!reply.contains('“') && !reply.contains("충분히 그렇게 느끼실"), "{unsure}: {reply}");
    }
    // Not knowing about something in particular says more than that.
    let (_, _, outcomes) = run(Lang::En, &["hi", "I don't know what to do about my boss"]);
    assert!(!outcomes[1].0.reply.contains("It's okay not to know"), "{}", outcomes[1].0.reply);
}

#[test]
fn a_yes_with_a_doubt_after_it_sets_no_goal_yet() {
    let messages =
        ["hi", "I'm Alex. I keep fighting with my sister", "she borrows my stuff", "maybe I should talk to her calmly"];
    let (session, _, _) =
        run(Lang::En, &[&messages[..], &["yeah, but I'm worried it will turn into a fight"]].concat());
    assert!(session.goals.is_empty(), "{:?}", session.goals);
    let (session, _, _) = run(Lang::En, &[&messages[..], &["yeah, I'll try it this weekend"]].concat());
    assert_eq!(session.goals, ["maybe I should talk to her calmly — I'll try it this weekend"]);
}

#[test]
fn a_yes_typed_as_in_a_chat_counts_and_what_it_adds_is_kept_with_the_idea() {
    assert!(ending::says_yes("ㅇㅇ 오늘 저녁에 말해볼게요"));
    assert!(ending::says_yes("ㅇㅋ"));
    let idea = "maybe I should tell them before they find out";
    assert_eq!(idea_with(idea, "ok tonight"), format!("{idea} — tonight"));
    assert_eq!(idea_with(idea, "ok, I'll try"), idea);
    assert_eq!(idea_with("산책이라도 해 볼까요?", "네 해볼게요"), "산책이라도 해 볼까요?");
    assert_eq!(state::detect_state("thx", &[], &[]).emotion, state::Emotion::Positive);
}

#[test]
fn a_scene_told_is_asked_about_from_the_inside_not_asked_for_again() {
    for (lang, messages, told) in [
        (
            Lang::En,
            [
                "hi",
                "I've been really stressed at work lately",
                "my manager keeps piling on more tasks and I can't say no",
            ],
            "yesterday he gave me two new projects on a Friday evening",
        ),
        (
            Lang::Ko,
            ["안녕하세요", "요즘 잠을 잘 못 자요", "시험이 다음 주인데 공부가 손에 안 잡혀요"],
            "어제도 새벽 세시까지 유튜브만 봤어요",
        ),
    ] {
        let (_, _, outcomes) = run(lang, &[&messages[..], &[told]].concat());
        let reply = &outcomes[3].0.reply;
        assert!(!reply.contains("what happened") && !reply.contains("어떤 일이 있었나요"), "{reply}");
        assert!(reply.contains("how did you feel") || reply.contains("어떤 마음이 드셨"), "{reply}");
        // What they came with is asked about by its name, not "how have your days been".
        let asked = &outcomes[1].0.reply;
        assert!(asked.contains("going on with work") || asked.contains("잠과 건강 쪽으로"), "{asked}");
    }
    assert!(!counselor::tells_event("yesterdays are gone") && !counselor::tells_event("my manager is awful"));
}

#[test]
fn nothing_more_after_the_goal_was_noted_turns_to_the_summary_and_a_thanks_is_not_quoted() {
    let ko = [
        "안녕하세요",
        "요즘 잠을 잘 못 자요",
        "시험이 다음 주인데 공부가 손에 안 잡혀요",
        "어제도 새벽 세시까지 유튜브만 봤어요",
    ];
    let plan = ["하루에 한 과목씩만 정해서 해볼까 해요", "네 오늘부터 해볼게요"];
    let (session, _, outcomes) = run(Lang::Ko, &[&ko[..], &plan[..], &["고마워요"]].concat());
    assert_eq!(outcomes[5].1, Part::Exploration, "the goal was noted while exploring");
    assert!(outcomes[5].0.reply.contains("그 밖에 더 나누고 싶은 이야기"), "{}", outcomes[5].0.reply);
    assert_eq!(session.part, Part::Closing);
    let summary = &outcomes[6].0.reply;
    assert!(summary.contains("오늘 나눈 이야기를 정리해 볼게요") && !summary.contains('“'), "{summary}");
    // A thanks said in the past tense, as at the end of a talk, is the same.
    let (session, _, outcomes) = run(Lang::Ko, &[&ko[..], &plan[..], &["오늘 고마웠어요"]].concat());
    assert_eq!(session.part, Part::Closing);
    assert!(outcomes[6].0.reply.contains("오늘 나눈 이야기를 정리해 볼게요"), "{}", outcomes[6].0.reply);
    let en =
        ["hi", "I keep fighting with my sister", "she borrows my stuff without asking", "maybe I could ask her first"];
    let (session, _, outcomes) =
        run(Lang::En, &[&en[..], &["ok, I'll ask her tonight", "no, that's all, thanks"]].concat());
    assert_eq!(session.goals, ["maybe I could ask her first — I'll ask her tonight"]);
    assert!(outcomes[4].0.reply.contains("anything else"), "{}", outcomes[4].0.reply);
    assert!(outcomes[5].0.reply.contains("Let me sum up today"), "{}", outcomes[5].0.reply);
    assert!(!outcomes[5].0.reply.contains("“no, that's all"), "{}", outcomes[5].0.reply);
}

#[test]
fn a_plan_made_as_the_session_turns_to_its_summary_is_noted_and_the_summary_asked() {
    let messages = [
        "hi",
        "I've been really stressed at work lately",
        "my manager keeps piling on more tasks and I can't say no",
        "yesterday he gave me two new projects on a Friday evening",
        "I guess I feel like I'm never good enough",
        "maybe I could talk to him about priorities",
        "yes, I'll ask for a meeting on Tuesday",
    ];
    let (session, _, outcomes) = run(Lang::En, &messages);
    let last = outcomes.last().unwrap();
    assert_eq!(last.1, Part::Closing);
    assert!(
        last.0.reply.contains("I'll note it as your goal") && last.0.reply.contains("Did I get that right?"),
        "{}",
        last.0.reply
    );
    assert!(!last.0.reply.contains("anything else"), "{}", last.0.reply);
    assert_eq!(session.goals, ["maybe I could talk to him about priorities — I'll ask for a meeting on Tuesday"]);
}

#[test]
fn what_should_i_do_after_a_shrug_is_answered_and_a_named_feeling_is_validated_once() {
    let messages = [
        "hello",
        "I'm Jordan",
        "my girlfriend broke up with me last week and I can't stop thinking about her",
        "we were together for three years",
        "I keep checking her instagram",
        "I don't know",
        "I feel so lonely in the evenings",
        "what should I do?",
    ];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let advice = &outcomes[7].0.reply;
    assert!(advice.contains("I can't decide it for you"), "{advice}");
    assert!(!outcomes[3].0.reply.contains("who was involved"), "{}", outcomes[3].0.reply);
    let ko = [
        "안녕",
        "민지예요",
        "회사에서 팀장님이 저만 계속 혼내요",
        "지난주 회의 때 다들 있는 앞에서 소리를 질렀어요",
        "너무 창피하고 화가 났어요",
    ];
    let (_, _, outcomes) = run(Lang::Ko, &ko);
    let angry = &outcomes[4].0.reply;
    assert_eq!(angry.matches("만해요").count(), 1, "{angry}");
}

#[test]
fn a_second_hello_a_change_of_subject_a_wish_and_a_goodbye_are_each_answered_as_what_they_are() {
    let messages = [
        "hey",
        "hello?",
        "not much",
        "I guess I'm just tired all the time",
        "work, kids, everything",
        "my husband doesn't help with anything at home",
        "I asked him last night and he just ignored me",
        "I'm so angry at him",
        "I don't want to talk about him anymore",
        "can we talk about something else",
        "I want to sleep better",
        "bye",
    ];
    let (session, _, outcomes) = run(Lang::En, &messages);
    assert_ne!(outcomes[0].0.reply, outcomes[1].0.reply, "the question is not asked twice word for word");
    // Someone at home who doesn't help is what is told, not a push back against the talk.
    assert!(!outcomes[5].0.reply.contains("hard to talk about"), "{}", outcomes[5].0.reply);
    let other = &outcomes[9].0.reply;
    assert!(other.contains("What would you like to talk about?") && !other.contains("partner"), "{other}");
    let wish = &outcomes[10].0.reply;
    assert!(!wish.contains("I'm glad something feels a bit better") && wish.contains("sleep"), "{wish}");
    assert_eq!(outcomes[11].0.reply, counselor::early_farewell(Lang::En), "a goodbye closes without an offer");
    assert_eq!(session.part, Part::Ended);
    assert_eq!(state::detect_state("좀 나아졌으면 좋겠어요", &[], &[]).emotion, state::Emotion::Neutral);
    assert_eq!(state::detect_state("얘기하고 나니 좀 편해졌어요", &[], &[]).emotion, state::Emotion::Positive);
    // A subject refused with "really" in it is refused all the same: not asked about.
    let (_, _, outcomes) = run(
        Lang::En,
        &[
            "hey",
            "I'm so burned out at work, I think I want to quit my job",
            "I don't really want to talk about my childhood",
        ],
    );
    let refused = &outcomes[2].0.reply;
    assert!(
        refused.contains("you don't have to say it all now") || refused.contains("You don't have to force it"),
        "{refused}"
    );
    assert!(!refused.contains("affecting your days"), "{refused}");
}

#[test]
fn a_name_given_is_greeted_and_a_yes_or_no_to_what_was_tried_is_followed_up() {
    let messages = [
        "안녕하세요 상담 받고 싶어요",
        "저는 준호라고 해요",
        "여자친구랑 자주 싸워요",
        "사소한 걸로요. 연락을 늦게 하거나 약속 시간에 늦으면 화를 내요",
        "어떻게 해야 할지 모르겠어요",
        "응",
    ];
    let (session, _, outcomes) = run(Lang::Ko, &messages);
    assert_eq!(session.user_name.as_deref(), Some("준호"));
    assert!(outcomes[1].0.reply.starts_with("준호님, 반가워요. "), "{}", outcomes[1].0.reply);
    assert!(outcomes[4].0.reply.ends_with(counselor::asked_what_was_tried(Lang::Ko)), "{}", outcomes[4].0.reply);
    assert_eq!(outcomes[5].0.reply, "어떤 방법이었는지, 해 보니 어땠는지 들려주시겠어요?");
    let rest = [
        "그냥 제가 다 잘못한 것 같아요",
        "대화를 좀 차분하게 해보면 나아질까요?",
        "네 이번 주말에 만나서 얘기해볼게요",
        "아니요 없어요",
    ];
    let (session, _, outcomes) = run(Lang::Ko, &[&messages[..], &rest[..]].concat());
    let goal = "대화를 좀 차분하게 해보면 나아질까요? — 이번 주말에 만나서 얘기해볼게요";
    assert_eq!(session.goals, [goal], "one goal: the idea and the plan, without the yes before it");
    let last = &outcomes.last().unwrap().0.reply;
    assert!(last.starts_with(&format!("정하신 목표 “{goal}”")) && session.part == Part::Ended, "{last}");
    let (_, _, outcomes) =
        run(Lang::En, &["hi", "my sister and I fight all the time", "what should I do?", "no, not really"]);
    assert!(outcomes[3].0.reply.contains("let's think of something together"), "{}", outcomes[3].0.reply);
}

#[test]
fn a_death_told_is_met_with_sympathy_and_not_asked_for_what_to_talk_about_again() {
    let (session, _, outcomes) = run(Lang::En, &["hi, I'm Alex", "my dog died two weeks ago"]);
    let reply = &outcomes[1].0.reply;
    assert!(reply.contains("I'm so sorry for your loss"), "{reply}");
    assert!(!reply.contains("What would you like to talk about"), "{reply}");
    assert!(session.topics.contains(&task::Topic::Loss));
    assert_eq!(state::detect_state("my laptop died again", &[], &[]).emotion, state::Emotion::Neutral);
    assert!(!task::topics_in("my phone battery died").contains(&task::Topic::Loss));
    let (_, _, outcomes) = run(Lang::Ko, &["안녕하세요", "키우던 강아지가 지난주에 무지개다리를 건넜어요"]);
    assert!(outcomes[1].0.reply.contains("진심으로 위로를 전해요"), "{}", outcomes[1].0.reply);
    // Said plainly: 죽었어요 (died) of a dog is a loss; of a phone it is not.
    let (_, _, outcomes) = run(Lang::Ko, &["안녕하세요", "어제 키우던 강아지가 죽었어요"]);
    assert!(outcomes[1].0.reply.contains("진심으로 위로를 전해요"), "{}", outcomes[1].0.reply);
    assert!(task::topics_in("어제 키우던 강아지가 죽었어요").contains(&task::Topic::Loss));
    assert!(!task::topics_in("폰이 또 죽었어요").contains(&task::Topic::Loss));
}

#[test]
fn not_knowing_where_to_start_is_no_refusal_and_a_worry_about_an_idea_is_met() {
    let messages = [
        "I need help",
        "I don't know where to start",
        "everything feels like too much",
        "my job, my relationship, money",
        "money mostly. I'm behind on rent",
        "I could ask my landlord for a payment plan",
        "no I'm scared he'll say no",
    ];
    let (_, _, outcomes) = run(Lang::En, &messages);
    assert!(!outcomes[0].0.reply.contains('“'), "three words are not quoted back: {}", outcomes[0].0.reply);
    assert!(!outcomes[1].0.reply.contains("hard to talk about"), "{}", outcomes[1].0.reply);
    assert!(outcomes[1].0.reply.contains("It's okay not to know"), "{}", outcomes[1].0.reply);
    assert!(!state::detect_state("I don't know where to start", &[], &[]).resistance);
    let worry = &outcomes[6].0.reply;
    assert!(worry.ends_with("what could you do if it didn't go the way you hope?"), "{worry}");
    assert_eq!(worry.matches("worry").count(), 1, "{worry}");
}

#[test]
fn a_command_question_is_pointed_to_the_chat_mode() {
    let (_, _, outcomes) = run(Lang::En, &["how do I clear the npm cache?"]);
    assert!(
        outcomes[0].0.reply.contains("`/mode chat`") && !outcomes[0].0.reply.contains('“'),
        "{}",
        outcomes[0].0.reply
    );
    let (_, _, outcomes) = run(Lang::En, &["how do I stop worrying about my exams?"]);
    assert!(!outcomes[0].0.reply.contains("/mode chat"), "{}", outcomes[0].0.reply);
}

#[test]
fn blame_put_on_oneself_is_met_and_anothers_anger_or_a_place_does_not_steer_the_talk() {
    let messages = [
        "My girlfriend and I keep fighting lately",
        "She gets angry when I'm late",
        "I think it's all my fault",
        "I always mess everything up",
    ];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let anger = &outcomes[1].0.reply;
    assert!(!anger.contains("you feel angry") && !anger.contains("stress and mood"), "{anger}");
    assert!(anger.contains("your partner"), "{anger}");
    for blame in [&outcomes[2].0.reply, &outcomes[3].0.reply] {
        assert!(blame.contains("hard on yourself") || blame.contains("blame on yourself"), "{blame}");
        assert!(!blame.contains('“'), "not quoted back: {blame}");
    }
    // A verdict passed on oneself is met too, in both languages, and not quoted back.
    let messages = [
        "My girlfriend broke up with me last week",
        "Alex",
        "We were together for three years. I keep checking her instagram",
        "I guess I feel stupid for still caring",
    ];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let verdict = &outcomes[3].0.reply;
    assert!(verdict.contains("harsh thing to say about yourself") || verdict.contains("hard on yourself"), "{verdict}");
    assert!(!verdict.contains('“'), "not quoted back: {verdict}");
    let messages = [
        "부모님이랑 진로 문제로 계속 싸워요",
        "민수",
        "저는 디자인을 하고 싶은데 부모님은 공무원 시험을 보래요",
        "제가 이기적인 건가 싶기도 해요",
    ];
    let (_, _, outcomes) = run(Lang::Ko, &messages);
    let verdict = &outcomes[3].0.reply;
    assert!(verdict.contains("엄하게 평가") || verdict.contains("엄격하신"), "{verdict}");
    assert!(!super::counselor::judges_self("팀장님이 너무 한심해요"));
    assert!(super::counselor::blames_self("maybe I did something wrong"));
    // Working from home is how the days go, not the job as the subject.
    let (_, _, outcomes) = run(
        Lang::En,
        &["hi", "skip", "I feel so lonely since I moved to a new city", "I work from home so I barely see anyone"],
    );
    assert!(!outcomes[3].0.reply.contains("about work"), "{}", outcomes[3].0.reply);
    // A decision second-guessed is met as that.
    let (_, _, outcomes) = run(
        Lang::Ko,
        &[
            "안녕하세요",
            "수진",
            "남자친구랑 헤어졌어요",
            "제가 먼저 헤어지자고 했는데도 너무 힘들어요",
            "잘한 건지 모르겠어요",
        ],
    );
    let doubt = &outcomes[4].0.reply;
    assert!(doubt.contains("결정"), "{doubt}");
    assert!(!doubt.contains('“') && !doubt.contains("시작된 건"), "{doubt}");
    // Loneliness is named as itself.
    let (_, _, outcomes) =
        run(Lang::Ko, &["안녕하세요", "지은", "요즘 너무 외로워요. 이사 온 지 석 달 됐는데 아는 사람이 없어요"]);
    assert!(outcomes[2].0.reply.contains("많이 외로우셨겠어요"), "{}", outcomes[2].0.reply);
    assert!(!outcomes[2].0.reply.contains("슬프셨겠어요"), "{}", outcomes[2].0.reply);
    // Work claimed by someone else is met as unfair before the question.
    let (_, _, outcomes) = run(Lang::Ko, &["안녕하세요", "현우", "직장 상사가 제 성과를 가로챘어요"]);
    assert!(outcomes[2].0.reply.contains("억울하고 속상할 수밖에"), "{}", outcomes[2].0.reply);
    let (_, _, outcomes) = run(Lang::En, &["hi", "Sam", "my manager took credit for my project in front of everyone"]);
    assert!(outcomes[2].0.reply.contains("passed off as someone else's"), "{}", outcomes[2].0.reply);
    assert!(!super::counselor::judges_self("my brother is so stupid"));
    assert!(!super::counselor::blames_self("it's not my fault she left"));
    assert!(!super::counselor::blames_self("he should have called me first"));
    // Regret after a loss is blame too.
    let messages =
        ["my dog died yesterday and I can't stop crying", "I keep thinking I should have taken him to the vet sooner"];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let regret = &outcomes[1].0.reply;
    assert!(regret.contains("hard on yourself") || regret.contains("blame on yourself"), "{regret}");
    let (_, _, outcomes) = run(Lang::Ko, &["어제 강아지가 죽었어요", "내가 좀 더 일찍 병원에 데려갔어야 했는데"]);
    assert!(outcomes[1].0.reply.contains("엄격") || outcomes[1].0.reply.contains("탓"), "{}", outcomes[1].0.reply);
    let messages =
        ["요즘 여자친구랑 자주 싸워요", "제가 약속에 늦으면 여자친구가 화를 내요", "그냥 제가 다 잘못한 것 같아요"];
    let (_, _, outcomes) = run(Lang::Ko, &messages);
    assert!(!outcomes[1].0.reply.contains("화가 나고 답답하실 만해요"), "{}", outcomes[1].0.reply);
    assert!(outcomes[2].0.reply.contains("엄격") || outcomes[2].0.reply.contains("탓"), "{}", outcomes[2].0.reply);
    // A loss told with a family word is a loss; "at work" names a place, not a new subject.
    let (session, _, outcomes) = run(
        Lang::En,
        &[
            "My dad passed away last month",
            "I keep thinking about the last time we talked",
            "I haven't told anyone at work",
        ],
    );
    assert_eq!(session.topics.first(), Some(&task::Topic::Loss));
    let last = &outcomes[2].0.reply;
    assert!(!last.contains("with work") && !last.contains("with family"), "{last}");
    assert!(
        !last.contains("hardest moment") && !last.contains("start to feel"),
        "a loss is no problem to date: {last}"
    );
    assert_eq!(task::topics_in("I lost my job last week"), [task::Topic::Work]);
}

#[test]
fn a_comparison_a_day_spent_in_bed_and_a_scene_retold_are_asked_about_as_what_they_are() {
    let messages = [
        "안녕하세요",
        "지수라고 불러 주세요",
        "요즘 취업 준비 때문에 너무 불안해요",
        "서류에서 계속 떨어져요. 벌써 스무 군데 넘게 떨어졌어요",
        "친구들은 다 붙었는데 저만 뒤처지는 것 같아요",
        "그냥 하루 종일 누워만 있어요",
    ];
    let (_, _, outcomes) = run(Lang::Ko, &messages);
    // The friends are who she measures herself against: no question about friendship.
    let compared = &outcomes[4].0.reply;
    assert!(!compared.contains("친구와 인간관계") && compared.contains("자신에 대한 생각"), "{compared}");
    // A day in bed is met as tiredness and asked about, not with the task's topic.
    let bed = &outcomes[5].0.reply;
    assert!(bed.contains("지치셨겠어요") && bed.contains("그런 날"), "{bed}");
    assert_eq!(state::detect_state("I can't get out of bed most days", &[], &[]).emotion, state::Emotion::Tired);
    // "it happened again today …" tells a scene.
    assert!(super::counselor::tells_event("it happened again today in a meeting"));
    assert!(!super::counselor::tells_event("I feel so tired today"));
}

#[test]
fn a_check_in_answered_safe_is_not_asked_again_and_a_home_feared_gets_where_to_turn() {
    let messages = [
        "hi",
        "my boyfriend hits me when he's drunk",
        "yes I'm safe right now, he's out",
        "he hit me again last week and I'm scared to go home",
    ];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let safe = &outcomes[2].0.reply;
    assert!(safe.starts_with("I'm glad you're safe right now.") && !safe.contains("check that you're"), "{safe}");
    assert!(!safe.contains('“'), "the answer is not quoted back: {safe}");
    let home = &outcomes[3].0.reply;
    assert!(
        home.starts_with("You don't have to go back somewhere you don't feel safe") && home.contains("1366"),
        "{home}"
    );
    assert!(!home.contains("go a little deeper"), "{home}");
    let messages = ["안녕하세요", "남편이 술만 마시면 저를 때려요", "네 지금은 안전해요", "집에 들어가기 무서워요"];
    let (_, _, outcomes) = run(Lang::Ko, &messages);
    assert!(outcomes[2].0.reply.starts_with("지금은 안전하시다니 다행이에요."), "{}", outcomes[2].0.reply);
    assert!(outcomes[3].0.reply.contains("1366"), "{}", outcomes[3].0.reply);
}

#[test]
fn asking_to_be_listened_to_what_one_did_wrong_and_whether_something_is_wrong_are_met() {
    let messages = [
        "안녕하세요 저는 지훈이에요",
        "요즘 남자친구랑 헤어지고 너무 힘들어요",
        "제가 뭘 잘못했는지 계속 생각나요",
        "그냥 누가 제 얘기를 들어줬으면 좋겠어요",
    ];
    let (_, _, outcomes) = run(Lang::Ko, &messages);
    let blame = &outcomes[2].0.reply;
    assert!(blame.contains("탓") || blame.contains("엄격"), "{blame}");
    let heard = &outcomes[3].0.reply;
    assert!(heard.contains("제가 들을게요") && !heard.contains('“') && !heard.contains("언제쯤부터"), "{heard}");
    let messages = ["hello", "I've been having panic attacks before meetings", "is something wrong with me?"];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let asked = &outcomes[2].0.reply;
    assert!(asked.contains("I can't diagnose"), "{asked}");
    let (_, _, outcomes) =
        run(Lang::En, &["hi", "my sister and I stopped talking", "honestly I just need someone to listen"]);
    assert!(outcomes[2].0.reply.contains("I'm listening"), "{}", outcomes[2].0.reply);
}

#[test]
fn not_knowing_anyone_in_a_new_city_is_loneliness_not_a_refusal() {
    let messages = ["hi, I'm Alex", "I moved to a new city three months ago and I don't know anyone here"];
    let (_, _, outcomes) = run(Lang::En, &messages);
    let reply = &outcomes[1].0.reply;
    assert!(!reply.contains("hard to talk about") && !reply.contains("What would feel easier"), "{reply}");
    assert!(!state::detect_state("I don't know anyone here", &[], &[]).resistance);
    assert!(state::detect_state("I don't know.", &[], &[]).resistance, "a bare shrug still is one");
}

#[test]
fn being_yelled_at_and_insulted_is_met_before_the_question() {
    let (_, _, outcomes) = run(Lang::Ko, &["안녕하세요", "회사에서 팀장님이 매일 소리를 지르고 모욕적인 말을 해요"]);
    assert!(outcomes[1].0.reply.contains("견디기 힘든 일"), "{}", outcomes[1].0.reply);
    let (_, _, outcomes) = run(Lang::En, &["hi", "my manager yells at me in front of everyone almost every day"]);
    assert!(outcomes[1].0.reply.contains("wear anyone down"), "{}", outcomes[1].0.reply);
    // With no one mistreating the user: no such line.
    let (_, _, outcomes) = run(Lang::En, &["hi", "I have a lot of deadlines at work this month"]);
    assert!(!outcomes[1].0.reply.contains("wear anyone down"), "{}", outcomes[1].0.reply);
}
