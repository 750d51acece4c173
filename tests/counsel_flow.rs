//! Counseling mode (seed 004) on the conversation core, driven like the browser shell does.

mod common;

use common::{failed, good_answer, ok, Driver};
use deliberate::engine::call::{FailureKind, LlmCall, LlmOutcome, Purpose};
use deliberate::engine::core::CallKind;
use deliberate::engine::counsel::crisis::{safety_response, CrisisKind};
use deliberate::engine::counsel::flow::CounselMode;
use deliberate::engine::counsel::safety;
use deliberate::engine::counsel::task::Part;
use deliberate::engine::counsel::CounselPurpose;
use deliberate::engine::lang::Lang;
use deliberate::engine::session::{Body, Effect, Event, ModeKind, Role, Settings};
use deliberate::store::saved::Journal;

/// The counseling state of the driver's session.
fn counsel(d: &Driver) -> &CounselMode {
    d.session.counseling().expect("the session is in counseling mode")
}

/// The text of the last assistant text message.
fn last_reply(d: &Driver) -> String {
    d.session
        .messages
        .iter()
        .rev()
        .find_map(|m| match (&m.role, &m.body) {
            (Role::Assistant, Body::Text { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The LLM calls among the effects.
fn calls(effects: &[Effect]) -> Vec<LlmCall> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::CallLlm(call) => Some(call.clone()),
            _ => None,
        })
        .collect()
}

/// The ids the effects cancel.
fn cancelled(effects: &[Effect]) -> Vec<u32> {
    effects
        .iter()
        .flat_map(|e| match e {
            Effect::Cancel { calls } => calls.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// Answers one call without answering the calls it leads to; returns those.
fn answer(d: &mut Driver, call: &LlmCall, outcome: LlmOutcome) -> Vec<LlmCall> {
    calls(&d.step_unanswered(Event::LlmResult { call: call.id, outcome }))
}

/// Asserts `next` is the Module Selector's call alone, answers it well, returns what follows.
fn past_selector(d: &mut Driver, next: Vec<LlmCall>) -> Vec<LlmCall> {
    assert_eq!(next.iter().map(|c| c.purpose).collect::<Vec<_>>(), [Purpose::Counseling(CounselPurpose::Module)]);
    answer(d, &next[0], good_answer(&next[0]))
}

fn counseling_driver(script: Option<common::Script>) -> Driver {
    let mut d = Driver::with_settings(Settings::default(), script);
    d.step(Event::switch_mode(ModeKind::Counseling));
    d
}

fn online() -> Driver {
    counseling_driver(Some(Box::new(good_answer)))
}

#[test]
fn switching_keeps_the_messages_and_opens_with_what_this_is() {
    let mut d = Driver::offline();
    d.say("I want a daily digest of IT news");
    let before = d.session.messages.len();
    d.step(Event::switch_mode(ModeKind::Counseling));
    assert_eq!(d.session.mode_kind(), ModeKind::Counseling);
    assert!(d.session.messages.len() > before, "the earlier messages stay and the opening follows");
    let opening = last_reply(&d);
    assert!(opening.contains("not a licensed counselor"), "{opening}");
    assert!(opening.contains("no-key"), "with no key the opening says so: {opening}");
    let mut online = online();
    assert!(!last_reply(&online).contains("no-key"));
    online.step(Event::switch_mode(ModeKind::Discussion));
    assert_eq!(online.session.mode_kind(), ModeKind::Discussion);
}

#[test]
fn checker_and_detector_share_one_batch_then_the_reply_streams() {
    let mut d = online();
    d.say("Hi, I'm Sam. Work has been hard lately");
    assert_eq!(d.batches.len(), 3, "checks, the module selector, the reply (no supervision on message 1)");
    let checks = &d.batches[0];
    let purposes: Vec<Purpose> = checks.iter().map(|c| c.purpose).collect();
    assert_eq!(purposes, [Purpose::Counseling(CounselPurpose::Checker), Purpose::Counseling(CounselPurpose::Detector)]);
    assert_eq!(checks[0].batch, checks[1].batch, "one batch: they run concurrently");
    assert!(checks.iter().all(|c| c.kind == CallKind::Foreground && c.stream_into.is_none()));
    assert!(checks[0].prompt.system.starts_with("# role: counsel-task-checker"));
    assert!(checks[1].prompt.system.starts_with("# role: counsel-state-detector"));
    // The same snapshot: both prompts carry the latest message.
    assert!(checks.iter().all(|c| c.prompt.turns[0].text.contains("Work has been hard lately")));
    let selector = &d.batches[1];
    assert_eq!(selector.len(), 1);
    assert_eq!(selector[0].purpose, Purpose::Counseling(CounselPurpose::Module));
    assert!(selector[0].kind == CallKind::Foreground && selector[0].stream_into.is_none());
    assert!(selector[0].prompt.system.starts_with("# role: counsel-module-selector"));
    let reply = &d.batches[2][0];
    assert_eq!(reply.purpose, Purpose::Counseling(CounselPurpose::Reply));
    assert!(reply.stream_into.is_some() && reply.kind == CallKind::Foreground);
    assert!(reply.prompt.system.starts_with("# role: counselor"));
    assert_eq!(reply.prompt.turns.last().map(|t| t.text.as_str()), Some("Hi, I'm Sam. Work has been hard lately"));
    assert!(last_reply(&d).starts_with("LLM counselor"));
    assert!(d.session.pending.is_empty());
}

#[test]
fn the_supervisor_runs_in_the_background_after_every_third_reply() {
    let mut d = online();
    let mut supervised_after = Vec::new();
    for n in 1..=9 {
        let before = d.batches.len();
        d.say(&format!("Message number {n} about my work and my boss"));
        let batches: Vec<Vec<Purpose>> =
            d.batches[before..].iter().map(|b| b.iter().map(|c| c.purpose).collect()).collect();
        if batches.iter().any(|b| b.contains(&Purpose::Counseling(CounselPurpose::Supervisor))) {
            supervised_after.push(n);
            assert_eq!(
                batches.last().unwrap(),
                &[Purpose::Counseling(CounselPurpose::Supervisor)],
                "the supervision starts after the reply, alone"
            );
            let call = d.batches.last().unwrap()[0].clone();
            assert_eq!(call.kind, CallKind::Background);
            assert!(call.prompt.system.starts_with("# role: counsel-supervisor"));
        }
    }
    assert_eq!(supervised_after, [3, 6, 9]);
    assert_eq!(counsel(&d).state.supervision.len(), 3);
    assert!(counsel(&d).state.supervision.iter().all(|f| f.by_llm && f.score == 8));
}

/// Runs messages 1–3 answering everything, but leaves message 3's supervision in flight.
fn supervision_in_flight(score: u8) -> (Driver, LlmCall) {
    let script = move |call: &LlmCall| match call.purpose {
        Purpose::Counseling(CounselPurpose::Supervisor) => {
            ok(&format!(r#"{{"score":{score},"improvements":["Ask about how they sleep"],"suggested_module":null}}"#))
        }
        _ => good_answer(call),
    };
    let mut d = counseling_driver(Some(Box::new(script)));
    d.say("Hello");
    d.say("Work has been stressful");
    let checks = calls(&d.step_unanswered(Event::UserMessage { text: "My boss shouts at me".into() }));
    assert_eq!(checks.len(), 2);
    assert!(answer(&mut d, &checks[0], good_answer(&checks[0])).is_empty(), "the reply waits for both checks");
    let selector = answer(&mut d, &checks[1], good_answer(&checks[1]));
    let reply = past_selector(&mut d, selector);
    assert_eq!(reply[0].purpose, Purpose::Counseling(CounselPurpose::Reply));
    let supervisor = answer(&mut d, &reply[0], good_answer(&reply[0]));
    assert_eq!(supervisor.len(), 1);
    assert_eq!(supervisor[0].purpose, Purpose::Counseling(CounselPurpose::Supervisor));
    assert!(!d.session.is_busy(), "the user never waits for the supervision");
    (d, supervisor[0].clone())
}

#[test]
fn stop_leaves_the_supervision_running_and_its_feedback_steers_the_next_reply() {
    let (mut d, supervisor) = supervision_in_flight(5);
    let checks = calls(&d.step_unanswered(Event::UserMessage { text: "I can't sleep".into() }));
    assert_eq!(checks.len(), 2, "a new message goes on while the supervision runs");
    let stop = d.step_unanswered(Event::Stop { partials: Vec::new() });
    let gone = cancelled(&stop);
    assert!(gone.contains(&checks[0].id) && gone.contains(&checks[1].id));
    assert!(!gone.contains(&supervisor.id), "Stop does not cancel the supervision");
    assert!(d.session.pending.iter().any(|p| p.call == supervisor.id));
    // The supervision lands; it steers the reply of the retried turn.
    answer(&mut d, &supervisor, ok(r#"{"score":5,"improvements":["Ask about how they sleep"]}"#));
    assert_eq!(counsel(&d).state.supervision.len(), 1);
    let again = calls(&d.step_unanswered(Event::Retry { purpose: None }));
    assert_eq!(
        again.iter().map(|c| c.purpose).collect::<Vec<_>>(),
        [Purpose::Counseling(CounselPurpose::Checker), Purpose::Counseling(CounselPurpose::Detector)]
    );
    answer(&mut d, &again[0], good_answer(&again[0]));
    let selector = answer(&mut d, &again[1], good_answer(&again[1]));
    let reply = past_selector(&mut d, selector);
    assert!(reply[0].prompt.system.contains("Ask about how they sleep"), "applied on the next turn");
}

#[test]
fn the_reply_of_the_supervised_turn_does_not_carry_its_own_supervision() {
    let mut d = online();
    for text in ["Hello", "Work is stressful", "My boss shouts at me", "I can't sleep"] {
        d.say(text);
    }
    let replies: Vec<&LlmCall> =
        d.calls.iter().filter(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply)).collect();
    // Score 8 is not below 7: no supervision section at all.
    assert!(replies.iter().all(|c| !c.prompt.system.contains("Ask one question at a time")));
    let (mut d, supervisor) = supervision_in_flight(4);
    answer(&mut d, &supervisor, ok(r#"{"score":4,"improvements":["Ask about how they sleep"]}"#));
    let third = d.calls.iter().filter(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply)).count();
    assert_eq!(third, 2, "messages 1 and 2 ran through the driver");
    d.say("I keep waking up at night");
    let last = d.calls.iter().rev().find(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply)).unwrap();
    assert!(last.prompt.system.contains("Ask about how they sleep"));
}

#[test]
fn resume_drops_the_supervision_and_a_late_answer_is_ignored() {
    let (mut d, supervisor) = supervision_in_flight(5);
    let resume = d.step_unanswered(Event::Resume);
    assert!(cancelled(&resume).contains(&supervisor.id));
    assert!(d.session.pending.is_empty());
    answer(&mut d, &supervisor, ok(r#"{"score":5,"improvements":["late"]}"#));
    assert!(counsel(&d).state.supervision.is_empty(), "a dropped call's answer changes nothing");
    assert_eq!(d.journal.replay(), d.session);
}

/// Checker always done and the part covered: the session walks through every part quickly.
fn fast_checker(call: &LlmCall) -> LlmOutcome {
    match call.purpose {
        Purpose::Counseling(CounselPurpose::Checker) => {
            ok(r#"{"is_completed":true,"new_status":"sufficient","completion_reason":"done","part_covered":true}"#)
        }
        Purpose::Counseling(CounselPurpose::Reply) => ok("Let's talk about your hobbies instead!"),
        _ => good_answer(call),
    }
}

#[test]
fn crisis_language_gets_the_safety_response_in_every_part_without_any_call() {
    for lang in [Lang::En, Lang::Ko] {
        let mut d = Driver::in_lang(lang, Settings::default(), Some(Box::new(fast_checker)));
        d.step(Event::switch_mode(ModeKind::Counseling));
        let crisis = match lang {
            Lang::Ko => "요즘은 정말 죽고 싶어요",
            Lang::En => "Honestly I want to kill myself",
        };
        let mut parts_seen = Vec::new();
        for _ in 0..12 {
            let part = counsel(&d).state.part;
            if !parts_seen.contains(&part) {
                parts_seen.push(part);
                let calls_before = d.calls.len();
                d.say(crisis);
                assert_eq!(last_reply(&d), safety_response(lang), "{part:?}");
                let during: Vec<Purpose> = d.calls[calls_before..].iter().map(|c| c.purpose).collect();
                assert!(
                    during.iter().all(|p| *p == Purpose::Counseling(CounselPurpose::Supervisor)),
                    "no call before the safety response: {during:?}"
                );
                assert_eq!(counsel(&d).state.part, part, "a crisis does not move the session on");
            }
            d.say("Okay. Work has been hard and I want to sleep better");
            // The next counselor prompt knows about the crisis.
            if let Some(reply) = d.calls.iter().rev().find(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply))
            {
                assert!(reply.prompt.system.to_lowercase().contains("safety") || lang == Lang::Ko);
            }
        }
        assert_eq!(parts_seen, [Part::Start, Part::Exploration, Part::Closing, Part::Ended], "{lang:?}");
        assert!(!counsel(&d).state.crises.is_empty());
    }
}

/// The messages the keyword check misses and an LLM detector reads as a crisis, with its kind.
const ONLY_THE_DETECTOR_SEES: [(Lang, &str, &str); 3] = [
    (Lang::En, "Lately I feel like a ghost who should fade out for good", "suicide"),
    (Lang::Ko, "요즘은 내가 투명인간처럼 흐려져서 영영 안 보였으면 해요", "suicide"),
    (Lang::En, "He gets so angry when he drinks that I hide in my room", "abuse"),
];

/// Detector answers: the crisis of `ONLY_THE_DETECTOR_SEES` for those messages, calm otherwise.
fn detector_crisis(call: &LlmCall) -> LlmOutcome {
    let latest = call.prompt.turns[0].text.rsplit("user:").next().unwrap_or_default();
    let seen = ONLY_THE_DETECTOR_SEES.iter().find(|(_, said, _)| latest.contains(said));
    match (call.purpose, seen) {
        (Purpose::Counseling(CounselPurpose::Detector), Some((_, _, kind))) => {
            ok(&format!(r#"{{"emotion":"sad","intensity":8,"crisis":"{kind}"}}"#))
        }
        _ => fast_checker(call),
    }
}

#[test]
fn a_crisis_only_the_detector_saw_gets_the_fixed_response_and_no_model_writes_it() {
    for (lang, said, kind) in ONLY_THE_DETECTOR_SEES {
        let kind = if kind == "abuse" { CrisisKind::Abuse } else { CrisisKind::Suicide };
        let mut d = Driver::in_lang(lang, Settings::default(), Some(Box::new(detector_crisis)));
        d.step(Event::switch_mode(ModeKind::Counseling));
        d.say("Hi, I'm Sam");
        let (part, task) = (counsel(&d).state.part, counsel(&d).state.current_task.clone());
        let calls_before = d.calls.len();
        d.say(said);
        assert_eq!(last_reply(&d), kind.response(lang), "{said}");
        let during: Vec<Purpose> = d.calls[calls_before..].iter().map(|c| c.purpose).collect();
        assert!(during.contains(&Purpose::Counseling(CounselPurpose::Detector)), "the detector read it: {during:?}");
        assert!(
            !during.iter().any(|p| matches!(
                p,
                Purpose::Counseling(CounselPurpose::Reply | CounselPurpose::Module | CounselPurpose::Planner)
            )),
            "only the checks ran: {during:?}"
        );
        let state = &counsel(&d).state;
        assert_eq!(state.crises.last().map(|c| (c.kind, c.at_user_message)), Some((kind, state.user_messages)));
        assert_eq!((state.part, state.current_task.clone()), (part, task), "nothing else moved");
        // The next reply is the model's again, and its prompt knows about the crisis.
        d.say("Okay. Work has been hard too");
        let reply = d.calls.iter().rev().find(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply));
        assert!(reply.is_some_and(|r| r.prompt.system.contains(lang.pick("안전 메모", "Safety note"))), "{said}");
    }
}

#[test]
fn hopelessness_is_asked_about_directly_and_a_yes_gets_the_safety_response() {
    for (lang, hopeless, yes, no) in [
        (Lang::Ko, "그냥 다 그만두고 싶어요", "네… 가끔요", "아니요, 그냥 너무 지쳐서요"),
        (Lang::En, "I just want to give up on everything", "yeah, sometimes", "No, I'm just exhausted"),
    ] {
        for script in [None, Some(Box::new(good_answer) as common::Script)] {
            let with_llm = script.is_some();
            let start = |d: &mut Driver| {
                d.say(lang.pick("안녕하세요, 민지예요", "Hi, I'm Sam"));
                let calls_before = d.calls.len();
                d.say(hopeless);
                assert_eq!(last_reply(d), safety::question(lang), "{lang:?}, LLM {with_llm}");
                let during: Vec<Purpose> = d.calls[calls_before..].iter().map(|c| c.purpose).collect();
                assert!(
                    during.iter().all(|p| *p == Purpose::Counseling(CounselPurpose::Supervisor)),
                    "the question is asked before and without any model: {during:?}"
                );
            };
            let mut d = Driver::in_lang(lang, Settings::default(), script);
            d.step(Event::switch_mode(ModeKind::Counseling));
            start(&mut d);
            d.say(yes);
            assert_eq!(last_reply(&d), safety_response(lang), "{lang:?}, LLM {with_llm}: {yes}");
            assert_eq!(counsel(&d).state.crises.len(), 1, "the yes is recorded as a crisis");

            let script = with_llm.then(|| Box::new(good_answer) as common::Script);
            let mut d = Driver::in_lang(lang, Settings::default(), script);
            d.step(Event::switch_mode(ModeKind::Counseling));
            start(&mut d);
            let calls_before = d.calls.len();
            d.say(no);
            assert!(counsel(&d).state.crises.is_empty(), "{lang:?}, LLM {with_llm}: {no}");
            if with_llm {
                assert!(
                    d.calls[calls_before..].iter().any(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply)),
                    "after a no, the turn goes on to the counselor"
                );
            } else {
                let reply = last_reply(&d);
                assert!(reply.starts_with(safety::thanks_for_answer(lang)), "{reply}");
                assert!(!reply.contains(no), "a no is not quoted back: {reply}");
            }
            // Said again at once, it is not asked again.
            d.say(hopeless);
            assert_ne!(last_reply(&d), safety::question(lang), "{lang:?}, LLM {with_llm}");
        }
    }
}

#[test]
fn someone_harming_the_user_gets_the_lines_for_violence_and_abuse_before_any_model() {
    for (lang, said) in [(Lang::Ko, "아빠가 술 마시면 저를 때려요"), (Lang::En, "my dad hits me when he drinks")]
    {
        for script in [None, Some(Box::new(good_answer) as common::Script)] {
            let with_llm = script.is_some();
            let mut d = Driver::in_lang(lang, Settings::default(), script);
            d.step(Event::switch_mode(ModeKind::Counseling));
            d.say(lang.pick("안녕하세요", "Hi"));
            let calls_before = d.calls.len();
            d.say(said);
            let reply = last_reply(&d);
            assert_eq!(reply, safety::abuse_response(lang), "{lang:?}, LLM {with_llm}");
            assert!(reply.contains("112") && reply.contains("1366"), "{reply}");
            let during: Vec<Purpose> = d.calls[calls_before..].iter().map(|c| c.purpose).collect();
            assert!(during.iter().all(|p| *p == Purpose::Counseling(CounselPurpose::Supervisor)), "{during:?}");
            let crises = &counsel(&d).state.crises;
            assert_eq!(crises.last().map(|c| c.kind), Some(CrisisKind::Abuse));
        }
    }
}

/// The shared session and a last goodbye after it has ended.
fn ko_session() -> Vec<&'static str> {
    [deliberate::scenario::COUNSEL_KO, &["안녕히 계세요"]].concat()
}

/// The shared session and a last goodbye after it has ended.
fn en_session() -> Vec<&'static str> {
    [deliberate::scenario::COUNSEL_EN, &["bye"]].concat()
}

#[test]
fn a_whole_heuristic_session_runs_from_greeting_to_closing_in_each_language() {
    for (lang, script) in [(Lang::Ko, &ko_session()), (Lang::En, &en_session())] {
        let mut d = Driver::in_lang(lang, Settings::default(), None);
        d.step(Event::switch_mode(ModeKind::Counseling));
        let mut parts = vec![Part::Start];
        for text in script {
            let before = d.session.messages.len();
            d.say(text);
            assert!(d.session.messages.len() >= before + 2, "{lang:?}: a reply to {text}");
            let reply = last_reply(&d);
            assert!(!reply.trim().is_empty());
            if lang == Lang::Ko {
                assert!(reply.chars().any(deliberate::engine::lang::is_hangul), "{reply}");
            }
            let part = counsel(&d).state.part;
            if parts.last() != Some(&part) {
                parts.push(part);
            }
        }
        assert_eq!(parts, [Part::Start, Part::Exploration, Part::Closing, Part::Ended], "{lang:?}");
        let s = &counsel(&d).state;
        assert_eq!(s.supervision.len(), script.len() / 3, "heuristic supervision every 3rd message");
        assert!(s.supervision.iter().all(|f| !f.by_llm));
        assert!(!s.goals.is_empty(), "{lang:?}: the goal was captured");
        assert!(!s.module_changes.is_empty());
        let summary = s.summary_markdown();
        assert!(summary.contains(if lang == Lang::Ko { "정한 목표" } else { "Goals set" }), "{summary}");
        assert!(d.calls.is_empty(), "no key: no call at all");
        assert_eq!(d.journal.replay(), d.session, "{lang:?}: the journal replays to the same session");
    }
}

#[test]
fn an_unusable_answer_falls_back_with_the_error_shown_and_retry() {
    let script = |call: &LlmCall| match call.purpose {
        Purpose::Counseling(CounselPurpose::Detector) => ok("I think they're fine"),
        Purpose::Counseling(CounselPurpose::Reply) => failed(FailureKind::Server),
        _ => good_answer(call),
    };
    let mut d = counseling_driver(Some(Box::new(script)));
    d.say("Work has been so stressful and I feel exhausted");
    let errors: Vec<Purpose> = d
        .bodies()
        .iter()
        .filter_map(|b| match b {
            Body::Error { purpose, fell_back: true, .. } => *purpose,
            _ => None,
        })
        .collect();
    assert_eq!(errors, [Purpose::Counseling(CounselPurpose::Detector), Purpose::Counseling(CounselPurpose::Reply)]);
    assert!(!last_reply(&d).is_empty(), "the heuristic reply stands in");
    assert!(!d.bodies().iter().any(|b| matches!(b, Body::Streaming { .. })));
    assert!(d.session.can_retry(Purpose::Counseling(CounselPurpose::Reply)));
    assert!(!d.session.can_retry(Purpose::Counseling(CounselPurpose::Detector)), "the checks are behind us");
    let before = d.calls_for(Purpose::Counseling(CounselPurpose::Reply));
    d.step(Event::Retry { purpose: Some(Purpose::Counseling(CounselPurpose::Reply)) });
    assert_eq!(d.calls_for(Purpose::Counseling(CounselPurpose::Reply)), before + 1);
    assert_eq!(
        d.calls_for(Purpose::Counseling(CounselPurpose::Supervisor)),
        0,
        "a retried reply does not add a supervision"
    );
}

#[test]
fn a_counselor_answer_of_bare_json_falls_back_and_text_wrapped_in_json_is_shown() {
    let script = |call: &LlmCall| match call.purpose {
        Purpose::Counseling(CounselPurpose::Reply) => ok(r#"{"answer": null}"#),
        _ => good_answer(call),
    };
    let mut d = counseling_driver(Some(Box::new(script)));
    d.say("Work has been so stressful and I feel exhausted");
    let reasons: Vec<String> = d
        .bodies()
        .iter()
        .filter_map(|b| match b {
            Body::Error { purpose: Some(Purpose::Counseling(CounselPurpose::Reply)), failure, fell_back: true } => {
                Some(failure.detail.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "one error for the reply: {reasons:?}");
    assert!(reasons[0].contains("JSON"), "{reasons:?}");
    let reply = last_reply(&d);
    assert!(!reply.is_empty() && !reply.contains('{'), "the heuristic reply stands in: {reply}");
    assert!(d.session.can_retry(Purpose::Counseling(CounselPurpose::Reply)));

    let script = |call: &LlmCall| match call.purpose {
        Purpose::Counseling(CounselPurpose::Reply) => {
            ok(r#"{"reply": "That sounds exhausting. What weighs on you most?"}"#)
        }
        _ => good_answer(call),
    };
    let mut d = counseling_driver(Some(Box::new(script)));
    d.say("Work has been so stressful and I feel exhausted");
    assert_eq!(last_reply(&d), "That sounds exhausting. What weighs on you most?");
    assert!(!d.bodies().iter().any(|b| matches!(b, Body::Error { .. })));
}

#[test]
fn the_journal_replays_a_session_with_llm_stop_and_resume() {
    let (mut d, _) = supervision_in_flight(6);
    let checks = calls(&d.step_unanswered(Event::UserMessage { text: "I can't sleep".into() }));
    d.step_unanswered(Event::Stop { partials: Vec::new() });
    d.step(Event::SkipLlm);
    assert!(!last_reply(&d).is_empty());
    assert_eq!(checks.len(), 2);
    d.step_unanswered(Event::Resume);
    d.say("Thanks, that helps a bit");
    let saved = Journal::decode(&d.journal.encode().unwrap()).unwrap();
    assert_eq!(saved.replay(), d.session);
}

/// Detector answers: a strong sad feeling on messages that say "awful", calm otherwise.
fn feelings(call: &LlmCall) -> LlmOutcome {
    match call.purpose {
        Purpose::Counseling(CounselPurpose::Detector) if call.prompt.turns[0].text.contains("awful") => ok(
            r#"{"emotion":"sad","intensity":9,"resistance":false,"engagement":"high","topic_change":null,"going_in_circles":false,"wants_to_close":false}"#,
        ),
        _ => fast_checker(call),
    }
}

#[test]
fn the_counselor_prompt_carries_each_notice_once_and_omits_what_is_not_due() {
    let mut d = counseling_driver(Some(Box::new(feelings)));
    let texts = ["Hi there", "I'm Sam, I came about work", "It helps to talk", "I feel awful about all of it"];
    let mut prompts = Vec::new();
    for text in texts {
        d.say(text);
        let reply = d.calls.iter().rev().find(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply)).unwrap();
        prompts.push(reply.prompt.system.clone());
    }
    d.say("And my sleep is bad");
    prompts.push(
        d.calls
            .iter()
            .rev()
            .find(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply))
            .unwrap()
            .prompt
            .system
            .clone(),
    );
    let has = |n: usize, s: &str| prompts[n].contains(s);
    // Always: base, part, task, module guideline.
    assert!(prompts.iter().all(|p| p.contains("## Current part") && p.contains("## Module")));
    assert!(prompts.iter().all(|p| p.contains("not a licensed counselor")));
    // The part transition only on the turn it happened (message 3 ends Part 1 with this checker).
    let transitions: Vec<usize> = (0..prompts.len()).filter(|n| has(*n, "=== Part transition ===")).collect();
    assert_eq!(transitions, [2, 3], "Part 1 → 2 on message 3, Part 2 → 3 on message 4");
    // The module change notice only on the turn of the change, never the turn after.
    for n in 0..prompts.len() {
        let changed_now = counsel(&d).state.module_changes.iter().any(|c| c.at_user_message as usize == n + 1);
        assert_eq!(has(n, "=== Module change ==="), changed_now, "message {}", n + 1);
    }
    // No supervision section while every score is 7 or more; no safety note without a crisis.
    assert!(prompts.iter().all(|p| !p.contains("Safety note")));
    // The description of a task stays out; the title and target go in.
    let task = counsel(&d).state.current().cloned().unwrap();
    assert!(prompts[4].contains(&task.title) && prompts[4].contains(&task.target));
    assert!(!prompts[4].contains(&task.description));
}

#[test]
fn the_task_planner_writes_part_two_when_part_one_completes() {
    let mut d = counseling_driver(Some(Box::new(fast_checker)));
    for text in ["Hi", "I'm Sam", "Work is hard"] {
        d.say(text);
    }
    let order: Vec<Vec<Purpose>> = d.batches.iter().map(|b| b.iter().map(|c| c.purpose).collect()).collect();
    // The planner runs with the module selector, so the turn stays three calls deep.
    let planner_at = order
        .iter()
        .position(|b| b == &[Purpose::Counseling(CounselPurpose::Module), Purpose::Counseling(CounselPurpose::Planner)])
        .expect("the planner ran in the selector's batch");
    assert_eq!(
        order[planner_at - 1],
        [Purpose::Counseling(CounselPurpose::Checker), Purpose::Counseling(CounselPurpose::Detector)]
    );
    assert_eq!(order[planner_at + 1], [Purpose::Counseling(CounselPurpose::Reply)], "the reply waits for the plan");
    assert_eq!(d.calls_for(Purpose::Counseling(CounselPurpose::Planner)), 1);
    let s = &counsel(&d).state;
    assert_eq!(s.part, Part::Exploration);
    let part2: Vec<&str> = s.tasks.iter().filter(|t| t.part == Part::Exploration).map(|t| t.id.as_str()).collect();
    assert_eq!(part2, ["task_llm_work_2"]);
    assert_eq!(s.current_task.as_deref(), Some("task_llm_work_2"));
    let reply = d.calls.iter().rev().find(|c| c.purpose == Purpose::Counseling(CounselPurpose::Reply)).unwrap();
    assert!(reply.prompt.system.contains("LLM: explore work"), "the reply works on the planned task");

    // An unusable plan: the heuristic plan stands, the error is shown.
    let script = |call: &LlmCall| match call.purpose {
        Purpose::Counseling(CounselPurpose::Planner) => ok("no tasks today"),
        _ => fast_checker(call),
    };
    let mut d = counseling_driver(Some(Box::new(script)));
    for text in ["Hi", "I'm Sam", "Work is hard"] {
        d.say(text);
    }
    let s = &counsel(&d).state;
    assert!(s.tasks.iter().any(|t| t.part == Part::Exploration), "the heuristic plan stands");
    assert!(d
        .bodies()
        .iter()
        .any(|b| matches!(b, Body::Error { purpose: Some(Purpose::Counseling(CounselPurpose::Planner)), .. })));
}

#[test]
fn stop_during_the_reply_keeps_what_streamed_and_continuing_without_the_llm_finishes_the_turn() {
    let mut d = online();
    let checks = calls(&d.step_unanswered(Event::UserMessage { text: "Work has been hard".into() }));
    answer(&mut d, &checks[0], good_answer(&checks[0]));
    let selector = answer(&mut d, &checks[1], good_answer(&checks[1]));
    let reply = past_selector(&mut d, selector);
    assert_eq!(reply[0].purpose, Purpose::Counseling(CounselPurpose::Reply));
    d.step_unanswered(Event::Stop { partials: vec![(reply[0].id, "I hear that work".into())] });
    assert!(d.session.halted);
    assert_eq!(last_reply(&d), "I hear that work", "the streamed part stays");
    assert!(d.session.can_retry(Purpose::Counseling(CounselPurpose::Reply)));
    d.step(Event::SkipLlm);
    assert!(!d.session.halted && d.session.pending.is_empty());
    assert_ne!(last_reply(&d), "I hear that work", "the heuristic reply finishes the turn");
    assert_eq!(counsel(&d).step, deliberate::engine::counsel::flow::TurnStep::Idle);
    assert_eq!(d.journal.replay(), d.session);
}

/// Detector: resistance on every message; selector: whatever `selector` answers.
fn resisting_with(selector: &'static str) -> impl FnMut(&LlmCall) -> LlmOutcome {
    move |call: &LlmCall| match call.purpose {
        Purpose::Counseling(CounselPurpose::Detector) => ok(
            r#"{"emotion":"neutral","intensity":3,"resistance":true,"engagement":"low","topic_change":null,"going_in_circles":false,"wants_to_close":false}"#,
        ),
        Purpose::Counseling(CounselPurpose::Module) if selector == "fail" => failed(FailureKind::Server),
        Purpose::Counseling(CounselPurpose::Module) => ok(selector),
        _ => good_answer(call),
    }
}

#[test]
fn the_module_selector_answer_sets_the_module_and_its_reason_reaches_the_counselor() {
    let mut d = counseling_driver(Some(Box::new(resisting_with(
        r#"{"module":"empathic_reflection","reason":"LLM: meet the reluctance with warmth first"}"#,
    ))));
    d.say("I don't really want to talk about it");
    let order: Vec<Purpose> = d.calls.iter().map(|c| c.purpose).collect();
    assert_eq!(
        order,
        [
            Purpose::Counseling(CounselPurpose::Checker),
            Purpose::Counseling(CounselPurpose::Detector),
            Purpose::Counseling(CounselPurpose::Module),
            Purpose::Counseling(CounselPurpose::Reply)
        ]
    );
    let selector = d.calls[2].prompt.turns[0].text.clone();
    for wanted in ["resistance_handling: ", "goal_setting: ", "resistance: true", "[CURRENT MODULE] rapport_building"] {
        assert!(selector.contains(wanted), "{wanted} in {selector}");
    }
    assert!(selector.contains("I don't really want to talk about it"));
    let s = &counsel(&d).state;
    assert_eq!(
        s.module,
        deliberate::engine::counsel::module::Module::EmpathicReflection,
        "the LLM's choice, not the twin's"
    );
    let change = s.module_changes.last().unwrap();
    assert_eq!(change.from, deliberate::engine::counsel::module::Module::RapportBuilding);
    assert_eq!(change.reason.describe(Lang::En), "Module Selector: LLM: meet the reluctance with warmth first");
    let reply = d.calls.last().unwrap();
    assert!(reply.prompt.system.contains("=== Module change ==="));
    assert!(reply.prompt.system.contains("LLM: meet the reluctance with warmth first"));
    assert!(!d.bodies().iter().any(|b| matches!(b, Body::Error { .. })));
}

#[test]
fn an_unusable_module_choice_falls_back_to_the_heuristic_and_says_so() {
    let cases: &[&'static str] = &[
        r#"{"module":"hypnosis","reason":"deep trance"}"#,
        r#"{"module":"summarizing","reason":""}"#,
        r#"{"module":"","reason":"no idea"}"#,
        "I would pick the empathic one.",
        "fail",
    ];
    for answer_text in cases {
        let mut d = counseling_driver(Some(Box::new(resisting_with(answer_text))));
        d.say("I don't really want to talk about it");
        let s = &counsel(&d).state;
        // The heuristic twin: resistance → resistance handling, for its own reason.
        assert_eq!(s.module, deliberate::engine::counsel::module::Module::ResistanceHandling, "{answer_text}");
        assert_eq!(s.module_changes.last().unwrap().reason.describe(Lang::En), "user resistance detected");
        let errors: Vec<Purpose> = d
            .bodies()
            .iter()
            .filter_map(|b| match b {
                Body::Error { purpose, fell_back: true, .. } => *purpose,
                _ => None,
            })
            .collect();
        assert_eq!(errors, [Purpose::Counseling(CounselPurpose::Module)], "{answer_text}: the fallback is reported");
        assert_eq!(d.calls_for(Purpose::Counseling(CounselPurpose::Reply)), 1, "the turn goes on to the counselor");
    }
}

#[test]
fn without_a_key_no_selector_call_is_made_and_the_heuristic_chooses() {
    let mut d = Driver::offline();
    d.step(Event::switch_mode(ModeKind::Counseling));
    d.say("Hi, I'm Sam").say("I don't want to talk about this, leave it");
    assert!(d.calls.is_empty());
    assert!(!counsel(&d).state.module_changes.is_empty());
    assert_eq!(counsel(&d).step, deliberate::engine::counsel::flow::TurnStep::Idle);
}

#[test]
fn stop_during_the_module_selector_can_be_retried() {
    let mut d = online();
    let checks = calls(&d.step_unanswered(Event::UserMessage { text: "Work has been hard".into() }));
    answer(&mut d, &checks[0], good_answer(&checks[0]));
    let selector = answer(&mut d, &checks[1], good_answer(&checks[1]));
    assert_eq!(selector[0].purpose, Purpose::Counseling(CounselPurpose::Module));
    let stop = d.step_unanswered(Event::Stop { partials: Vec::new() });
    assert!(cancelled(&stop).contains(&selector[0].id));
    assert!(d.session.can_retry(Purpose::Counseling(CounselPurpose::Module)));
    let again = calls(&d.step_unanswered(Event::Retry { purpose: None }));
    assert_eq!(again.iter().map(|c| c.purpose).collect::<Vec<_>>(), [Purpose::Counseling(CounselPurpose::Module)]);
    let reply = answer(&mut d, &again[0], good_answer(&again[0]));
    assert_eq!(reply[0].purpose, Purpose::Counseling(CounselPurpose::Reply));
    assert_eq!(d.journal.replay(), d.session);
}

/// A small model that fails every step: each turn's failures share one card, and a Retry
/// that fails again starts a new one.
#[test]
fn the_failures_of_one_turn_share_one_card() {
    use deliberate::engine::core::failures_shown_with;
    let mut d = counseling_driver(Some(Box::new(|_: &LlmCall| failed(FailureKind::Server))));
    d.say("Hi, I'm Sam").say("Work has been stressful and I can't sleep");
    let messages = &d.session.messages;
    let turn = messages.iter().rposition(|m| m.role == Role::User).unwrap();
    let errors: Vec<_> = messages[turn..].iter().filter(|m| matches!(m.body, Body::Error { .. })).collect();
    assert!(errors.len() >= 3, "every step of the turn failed: {}", errors.len());
    let count = errors.len();
    let (last, earlier) = errors.split_last().unwrap();
    for e in earlier {
        assert!(failures_shown_with(messages, e.id).is_none(), "shown on the newest card");
    }
    let card: Vec<_> = failures_shown_with(messages, last.id).expect("the newest card").iter().map(|m| m.id).collect();
    assert_eq!(card, errors.iter().map(|m| m.id).collect::<Vec<_>>(), "one card lists the whole turn");
    // The earlier turn's failures stay on their own card.
    let first_turn = messages[..turn].iter().rev().find(|m| matches!(m.body, Body::Error { .. })).unwrap();
    let earlier_card = failures_shown_with(messages, first_turn.id).expect("the first turn's card");
    assert!(earlier_card.iter().all(|m| m.id < messages[turn].id));
    let (last, turn_id) = (last.id, messages[turn].id);

    // Retry of the reply fails again: its failure is a new card, the first one stays as it was.
    d.step(Event::Retry { purpose: Some(Purpose::Counseling(CounselPurpose::Reply)) });
    let messages = &d.session.messages;
    let again = messages.iter().rev().find(|m| matches!(m.body, Body::Error { .. })).unwrap();
    assert_ne!(again.id, last, "the retry failed too");
    assert_eq!(failures_shown_with(messages, again.id).expect("its own card").first().map(|m| m.id), Some(again.id));
    assert_eq!(failures_shown_with(messages, last).map(|c| c.len()), Some(count), "unchanged");
    // Not a failure: nothing to show.
    assert!(failures_shown_with(messages, turn_id).is_none());
}

#[test]
fn a_yes_to_an_idea_is_recorded_as_the_goal_and_a_goodbye_while_summing_up_ends_the_session() {
    // Through the flow the page runs: the goal the reply says it notes is noted.
    let mut d = Driver::in_lang(Lang::En, Settings::default(), None);
    d.step(Event::switch_mode(ModeKind::Counseling));
    for said in ["hey", "I'm Alex. I keep fighting with my sister", "she borrows my stuff without asking"] {
        d.say(said);
    }
    d.say("maybe I should talk to her calmly");
    d.say("yeah I'll try this weekend");
    assert!(last_reply(&d).contains("I'll note it as your goal"), "{}", last_reply(&d));
    assert_eq!(counsel(&d).state.goals, ["maybe I should talk to her calmly — I'll try this weekend"]);

    // An idea asked as a question is taken up; a bare yes makes it the goal.
    let mut d = Driver::in_lang(Lang::Ko, Settings::default(), None);
    d.step(Event::switch_mode(ModeKind::Counseling));
    for said in ["안녕하세요", "저는 지수예요. 요즘 잠을 잘 못 자서요", "새벽 3시까지 핸드폰을 보다가 자요"]
    {
        d.say(said);
    }
    d.say("핸드폰을 침대 밖에 두면 좀 나을까요?");
    assert!(last_reply(&d).contains("스스로 해 볼 만한 방법"), "{}", last_reply(&d));
    d.say("네 해볼게요");
    assert_eq!(counsel(&d).state.goals, ["핸드폰을 침대 밖에 두면 좀 나을까요?"]);
    assert!(counsel(&d).state.summary_markdown().contains("핸드폰을 침대 밖에 두면"));

    // "오늘은 여기까지 할게요" while the session is being summed up ends it now.
    for _ in 0..12 {
        if counsel(&d).state.part == Part::Closing {
            break;
        }
        d.say("잘 모르겠어요");
    }
    assert_eq!(counsel(&d).state.part, Part::Closing);
    d.say("오늘은 여기까지 할게요");
    assert_eq!(counsel(&d).state.part, Part::Ended);
    let farewell = last_reply(&d);
    assert!(farewell.starts_with("정하신 목표 “핸드폰을 침대 밖에 두면 좀 나을까요?”"), "{farewell}");
    assert!(farewell.contains("오늘 대화는 여기서 마무리할게요"), "{farewell}");
}

#[test]
fn an_idea_said_as_the_session_turns_to_its_summary_becomes_the_goal_with_the_next_yes() {
    // The idea comes on the turn the session moves to its summary; the yes after the summary's
    // question still makes it the goal, and the goodbye names it.
    let mut d = Driver::in_lang(Lang::Ko, Settings::default(), None);
    d.step(Event::switch_mode(ModeKind::Counseling));
    for said in [
        "안녕하세요 상담 받고 싶어서 왔어요",
        "회사에서 팀장님이랑 계속 부딪혀요",
        "제 의견을 말하면 무시당하는 느낌이에요",
        "그래서 요즘 회의 때 말을 안 해요",
        "모르겠어요 그냥 회사 그만두고 싶어요",
        "팀장님한테 따로 면담을 요청해 볼까 싶어요",
    ] {
        d.say(said);
    }
    assert_eq!(counsel(&d).state.part, Part::Closing, "{}", last_reply(&d));
    d.say("네 다음 주에 해볼게요");
    assert_eq!(counsel(&d).state.goals, ["팀장님한테 따로 면담을 요청해 볼까 싶어요 — 다음 주에 해볼게요"]);
    d.say("감사합니다 오늘 도움이 됐어요");
    assert!(last_reply(&d).contains("정하신 목표 “팀장님한테 따로 면담을"), "{}", last_reply(&d));
}

#[test]
fn crisis_language_in_the_chat_or_the_discussion_gets_the_crisis_lines_and_no_task() {
    for (mode, lang, text) in [
        (ModeKind::Chat, Lang::En, "I want to end my life"),
        (ModeKind::Discussion, Lang::En, "I want to end my life"),
        (ModeKind::Chat, Lang::Ko, "죽고 싶어요"),
        (ModeKind::Discussion, Lang::Ko, "죽고 싶어요"),
    ] {
        // With a model configured too: no model writes this reply.
        let mut d = Driver::in_lang(lang, Settings::default(), Some(Box::new(good_answer)));
        if mode != ModeKind::Discussion {
            d.step(Event::switch_mode(mode));
        }
        let calls_before = d.calls.len();
        d.say(text);
        let reply = last_reply(&d);
        assert!(reply.contains("109") && reply.contains("/mode counseling"), "{mode:?} {lang:?}: {reply}");
        assert!(d.open_card().is_none(), "{mode:?}: no card of a task");
        assert_eq!(d.calls.len(), calls_before, "{mode:?}: no model call");
        assert_eq!(d.journal.replay(), d.session, "the journal replays it");
    }
    // A process killed or a server that died is no crisis.
    let mut d = Driver::offline();
    d.step(Event::switch_mode(ModeKind::Chat));
    d.say("how do I kill the process that hangs");
    assert!(!last_reply(&d).contains("109"), "{}", last_reply(&d));
    // A tool for moderators or a hotline is a task: the discussion starts on it.
    for (lang, text) in [
        (Lang::En, "Build a classifier that flags suicidal posts in our forum for moderators"),
        (Lang::Ko, "커뮤니티에서 자살 위험이 있는 게시글을 찾아내는 모니터링 도구를 만들고 싶어요"),
    ] {
        let mut d = Driver::in_lang(lang, Settings::default(), None);
        d.say(text);
        assert!(!last_reply(&d).contains("109"), "{text}: {}", last_reply(&d));
        assert!(d.open_card().is_some(), "{text}: the discussion asks what it needs");
    }
}
