//! The chat mode end to end with a scripted model: the tool loop and its bounds, tool errors
//! returned to the model, question and command cards, attachments, the context meter and
//! folding, `/reset` with undo, the no-key assistant in both languages, and replay.

mod common;

use common::{failed, ok, tool_calls, Driver};
use deliberate::engine::call::{FailureKind, LlmCall, LlmOutcome, Purpose, Usage};
use deliberate::engine::chat::agent::MAX_TOOL_RETRIES;
use deliberate::engine::chat::tools::CommandOutcome;
use deliberate::engine::chat::ChatPurpose;
use deliberate::engine::chat::{ChatAction, ChatArtifact, CommandCard, CommandState};
use deliberate::engine::danger::DangerKind;
use deliberate::engine::prompt::TurnRole;
use deliberate::engine::session::{AppArtifact, Body, Event, ModeKind, Settings};
use deliberate::engine::tokens::BudgetLevel;
use deliberate::store::saved::Journal;

fn chat_driver(script: impl FnMut(&LlmCall) -> LlmOutcome + 'static) -> Driver {
    chat_with(Settings::default(), script)
}

fn chat_with(settings: Settings, script: impl FnMut(&LlmCall) -> LlmOutcome + 'static) -> Driver {
    let mut d = Driver::with_settings(settings, Some(Box::new(script)));
    d.step(Event::switch_mode(ModeKind::Chat));
    assert_eq!(d.session.mode_kind(), ModeKind::Chat);
    d
}

fn offline_chat() -> Driver {
    let mut d = Driver::offline();
    d.step(Event::switch_mode(ModeKind::Chat));
    d
}

/// The text of the last tool-result turn of a call's prompt.
fn last_tool_result(call: &LlmCall) -> String {
    call.prompt.turns.iter().rev().find(|t| t.role == TurnRole::Tool).map(|t| t.text.clone()).unwrap_or_default()
}

fn notices(d: &Driver) -> Vec<String> {
    d.session
        .messages
        .iter()
        .filter_map(|m| match &m.body {
            Body::Notice { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn texts(d: &Driver) -> Vec<String> {
    d.session
        .messages
        .iter()
        .filter_map(|m| match &m.body {
            Body::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The latest command card and its message id.
fn command(d: &Driver) -> (u32, CommandCard) {
    d.session
        .messages
        .iter()
        .rev()
        .find_map(|m| match &m.body {
            Body::Artifact { artifact: AppArtifact::Chat(ChatArtifact::Command { card }) } => {
                Some((m.id, card.clone()))
            }
            _ => None,
        })
        .expect("a command card was shown")
}

/// A plain answer with no usage report (the meter estimates).
fn unmetered(text: &str) -> LlmOutcome {
    LlmOutcome::Ok { text: text.into(), model: "m".into(), usage: None, tool_calls: Vec::new(), refusal: false }
}

/// A script answering from a list, one answer per call, then plain "done".
fn scripted(mut answers: Vec<LlmOutcome>) -> impl FnMut(&LlmCall) -> LlmOutcome {
    answers.reverse();
    move |_| answers.pop().unwrap_or_else(|| ok("done"))
}

const ASK_DB: &str = r#"{"questions":[{"header":"Database","question":"Which database?","options":[{"label":"PostgreSQL","description":"server"},{"label":"SQLite"}]}]}"#;

#[test]
fn a_question_card_answer_goes_back_to_the_model_as_the_tool_result() {
    let mut d = chat_driver(scripted(vec![tool_calls("", &[("c1", "AskUserQuestion", ASK_DB)]), ok("Use psql.")]));
    d.say("help me look at my data");
    let card = d.open_card().expect("the model's question is a card");
    let q = &card.questions[0];
    assert_eq!(q.header.as_deref(), Some("Database"));
    assert_eq!(q.options, vec!["PostgreSQL", "SQLite"]);
    assert_eq!(q.descriptions, vec!["server", ""]);
    assert!(q.allow_other);
    d.answer(&["PostgreSQL"]);
    assert_eq!(d.calls.len(), 2);
    let result = last_tool_result(&d.calls[1]);
    assert!(result.contains("the user chose: PostgreSQL"), "{result}");
    assert_eq!(d.calls[1].prompt.turns.last().unwrap().tool_call_id.as_deref(), Some("c1"));
    assert_eq!(texts(&d).last().unwrap(), "Use psql.");
    assert!(d.calls[0].prompt.tools.iter().any(|t| t.name == "AskUserQuestion"));
    assert!(d.calls[0].prompt.system.contains("ask"), "the guidelines are in the system prompt");
    let tag = format!("<{}>", deliberate::engine::security::isolation_tag(&d.session.id));
    assert!(d.calls[0].prompt.turns[0].text.contains(&tag), "user text is isolated as data, in the session's tag");
}

#[test]
fn multi_select_other_cancel_and_empty_answers_reach_the_model() {
    let multi = r#"{"questions":[{"header":"Parts","question":"Which parts?","multiSelect":true,"options":[{"label":"API"},{"label":"UI"},{"label":"DB"}]}]}"#;
    let cases: &[(&str, Option<&str>, &str)] = &[
        ("multi", Some("API\nDB"), "the user chose: API, DB"),
        ("other", Some("a CLI"), "the user answered: a CLI"),
        ("cancel", None, "cancelled"),
        ("empty", Some(""), "Error in AskUserQuestion"),
    ];
    for (name, answer, want) in cases {
        let mut d = chat_driver(scripted(vec![tool_calls("", &[("c1", "AskUserQuestion", multi)])]));
        d.say("build it");
        let card = d.open_card().unwrap();
        assert!(card.questions[0].multi_select);
        match answer {
            Some(a) => {
                d.answer(&[a]);
            }
            None => {
                d.step(Event::chat(ChatAction::CancelCard { card: card.id }));
            }
        }
        assert!(d.open_card().is_none(), "{name}: the card closed");
        assert!(last_tool_result(&d.calls[1]).contains(want), "{name}: {}", last_tool_result(&d.calls[1]));
    }
}

#[test]
fn the_loop_stops_at_the_turn_bound_with_a_clear_message() {
    for (max, want_calls) in [(None, 20usize), (Some(3), 3)] {
        let mut settings = Settings::default();
        if let Some(m) = max {
            settings.chat.max_turns = m;
        }
        let mut d = chat_with(settings, |_| tool_calls("", &[("r", "read_attachment", r#"{"name":"a.txt"}"#)]));
        d.step(Event::chat(ChatAction::Attach { name: "a.txt".into(), text: "hello".into() }));
        d.say("read it again and again");
        assert_eq!(d.calls.len(), want_calls);
        let last = notices(&d).last().cloned().unwrap();
        assert!(last.contains(&format!("{want_calls} model turns")), "{last}");
        assert!(!d.session.is_busy());
    }
}

#[test]
fn a_tool_error_returns_with_a_hint_and_a_failing_tool_is_retried_at_most_three_times() {
    let bad = r#"{"questions":[{"header":"X","question":"Which?","options":[{"label":"only one"}]}]}"#;
    let mut d = chat_driver(move |_| tool_calls("", &[("b", "AskUserQuestion", bad)]));
    d.say("go");
    assert_eq!(d.calls.len(), 1 + MAX_TOOL_RETRIES as usize, "the first try and three retries");
    let fed_back = last_tool_result(&d.calls[1]);
    assert!(fed_back.starts_with("Error in AskUserQuestion") && fed_back.contains("Hint:"), "{fed_back}");
    let last = notices(&d).last().cloned().unwrap();
    assert!(last.contains("Stopped") && last.contains("4 times"), "{last}");
    assert!(d.open_card().is_none());

    // A success of the same tool in between resets its count.
    let mut n = 0;
    let mut d = chat_driver(move |_| {
        n += 1;
        match n {
            1 | 2 | 3 | 5 | 6 | 7 => tool_calls("", &[("b", "AskUserQuestion", bad)]),
            4 => tool_calls("", &[("q", "AskUserQuestion", ASK_DB)]),
            _ => ok("fine"),
        }
    });
    d.say("go");
    assert_eq!(d.calls.len(), 4);
    d.answer(&["SQLite"]);
    assert_eq!(d.calls.len(), 8);
    assert_eq!(texts(&d).last().unwrap(), "fine");
}

#[test]
fn every_tools_argument_errors_reach_the_model() {
    let cases: &[(&str, &str, &str)] = &[
        ("NoSuchTool", "{}", "no tool named"),
        ("AskUserQuestion", "not json", "not a JSON object"),
        ("AskUserQuestion", r#"{"questions":[]}"#, "0 questions"),
        ("AskUserQuestion", r#"{"questions":[{"header":"H","question":""}]}"#, "\"question\" is missing"),
        (
            "AskUserQuestion",
            r#"{"questions":[{"header":"H","question":"Q?","options":[{"label":"a"},{"label":"b"},{"label":"c"},{"label":"d"},{"label":"e"},{"label":"f"},{"label":"g"},{"label":"h"},{"label":"i"},{"label":"j"},{"label":"k"}]}]}"#,
            "11 option",
        ),
        ("AskUserQuestion", r#"{"questions":[{"header":"Far too long a header","question":"Q?"}]}"#, "header"),
        ("propose_command", r#"{"why":"x"}"#, "\"command\" is missing"),
        ("propose_command", r#"{"command":"ls","why":"x","shell":"fish"}"#, "\"shell\" is \"fish\""),
        ("read_attachment", r#"{"name":"nope.txt"}"#, "no attachment named"),
        ("read_attachment", r#"{"name":"a.txt","offset":99}"#, "past the end"),
    ];
    for (tool, args, want) in cases {
        let mut d = chat_driver(scripted(vec![tool_calls("", &[("t", tool, args)]), ok("ok")]));
        d.step(Event::chat(ChatAction::Attach { name: "a.txt".into(), text: "short".into() }));
        d.say("go");
        assert_eq!(d.calls.len(), 2, "{tool} {args}");
        let result = last_tool_result(&d.calls[1]);
        assert!(result.contains(want) && result.contains("Hint"), "{tool} {args}: {result}");
        assert!(d.session.chat().unwrap().tool_log.iter().any(|u| !u.ok));
    }
}

#[test]
fn a_long_attachment_is_read_cut_with_a_note_of_where_to_read_on() {
    let long: String = (0..2_500).map(|i| format!("line {i:04}\n")).collect(); // 25,000 characters
    let mut d = chat_driver(scripted(vec![
        tool_calls("", &[("r", "read_attachment", r#"{"name":"log.txt"}"#)]),
        ok("The log is long."),
    ]));
    d.step(Event::chat(ChatAction::Attach { name: "log.txt".into(), text: long }));
    d.say("what does the log say?");
    let result = last_tool_result(&d.calls[1]);
    assert!(result.contains("characters cut"), "{}", &result[..200]);
    assert!(result.contains("offset=6000"), "the note says where to read on");
    assert!(result.starts_with("line 0000") && result.contains("line 2499"), "head and tail are kept");
    assert!(result.chars().count() < 10_300);
    assert!(d.calls[0].prompt.system.contains("log.txt"), "the model is told what is attached");
}

#[test]
fn a_dangerous_command_needs_confirmation_and_a_decline_tells_the_model() {
    let rm = r#"{"command":"rm -rf ./build","why":"clean the build"}"#;
    // Confirmed and run.
    let mut d = chat_driver(scripted(vec![tool_calls("", &[("p", "propose_command", rm)]), ok("Cleaned.")]));
    d.say("clean my build");
    let (id, card) = command(&d);
    assert_eq!(card.danger.map(|x| x.kind), Some(DangerKind::RecursiveDelete));
    assert!(!card.can_copy(), "Copy waits for the confirmation");
    d.step(Event::chat(ChatAction::ConfirmCommand { message: id }));
    assert!(command(&d).1.can_copy());
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Output("removed".into()) }));
    assert!(last_tool_result(&d.calls[1]).contains("Output:\nremoved"));
    assert!(matches!(command(&d).1.state, CommandState::Done { .. }));

    // Declined.
    let mut d = chat_driver(scripted(vec![tool_calls("", &[("p", "propose_command", rm)]), ok("OK, not deleting.")]));
    d.say("clean my build");
    let (id, _) = command(&d);
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Declined }));
    assert!(last_tool_result(&d.calls[1]).contains("declined"));

    // A safe command can be copied at once; "it failed" reaches the model.
    let ls = r#"{"command":"ls -la","why":"see the files"}"#;
    let mut d = chat_driver(scripted(vec![tool_calls("", &[("p", "propose_command", ls)])]));
    d.say("what is here?");
    let (id, card) = command(&d);
    assert!(card.danger.is_none() && card.can_copy());
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Failed("no such dir".into()) }));
    assert!(last_tool_result(&d.calls[1]).contains("failed"));
}

#[test]
fn dangerous_code_blocks_in_a_final_answer_are_flagged() {
    let answer = "Run this:\n\n```sh\nsudo rm -rf /var/lib/app\n```\n\nand `rm -rf ./build` is fine in prose.";
    let mut d = chat_driver(scripted(vec![ok(answer)]));
    d.say("how do I reset the app?");
    let flagged = notices(&d).into_iter().find(|n| n.contains("dangerous")).expect("a danger notice");
    assert!(flagged.contains("rm -rf /var/lib/app"));
    let mut d = chat_driver(scripted(vec![ok("```sql\nDELETE FROM users WHERE id = 3;\n```")]));
    d.say("delete user 3");
    assert!(notices(&d).iter().all(|n| !n.contains("dangerous")), "a bounded DELETE is not flagged");
}

#[test]
fn the_meter_warns_at_80_percent_and_folds_the_oldest_turns_at_100() {
    let mut settings = Settings::default();
    settings.common.context_window = Some(2_000);
    let filler = "This is a fairly long answer about the project layout and its modules. ".repeat(6);
    let mut d = chat_with(settings, move |_| unmetered(&filler));
    d.say("You must never touch the production database.");
    let first = d.session.chat_meter().unwrap();
    assert_eq!(first.window, 2_000);
    let mut saw_notice = false;
    for i in 0..12 {
        d.say(&format!("question number {i} about the layout"));
        saw_notice |= notices(&d).iter().any(|n| n.contains("% of the model's context"));
    }
    assert!(saw_notice, "the 80 % notice was given");
    let folded = notices(&d).into_iter().find(|n| n.contains("messages were folded")).expect("a fold notice");
    assert!(folded.contains("constraints and decisions were kept"), "{folded}");
    let chat = d.session.chat().unwrap();
    assert!(chat.summary().unwrap().contains("You must never touch the production database."));
    assert_ne!(chat.meter(&d.session.conversation).level, BudgetLevel::Fold);
    let last_prompt = &d.calls.iter().rev().find(|c| c.purpose == Purpose::Chat(ChatPurpose::Turn)).unwrap().prompt;
    assert_eq!(last_prompt.turns[0].role, TurnRole::User, "folding keeps whole exchanges");
    assert!(last_prompt.system.contains("never touch the production database"));
}

/// A chat with a 2,000-token window whose model answers at length and folds with `fold`.
fn folding_chat(fold: impl Fn() -> LlmOutcome + 'static) -> Driver {
    let mut settings = Settings::default();
    settings.common.context_window = Some(2_000);
    let filler = "This is a fairly long answer about the project layout and its modules. ".repeat(6);
    let mut d = chat_with(settings, move |call| match call.purpose {
        Purpose::Chat(ChatPurpose::Fold) => fold(),
        _ => unmetered(&filler),
    });
    d.say("You must never touch the production database.");
    d.say("Which folder holds the parser, src/parse.rs or lib/?");
    for i in 0..12 {
        d.say(&format!("question number {i} about the layout"));
    }
    d
}

#[test]
fn with_a_model_the_fold_summary_is_written_by_the_model_from_the_isolated_old_turns() {
    let d = folding_chat(|| unmetered("The user forbids touching production; the parser question is open."));
    let fold = d.calls.iter().find(|c| c.purpose == Purpose::Chat(ChatPurpose::Fold)).expect("a fold call");
    assert_eq!(fold.prompt.turns.len(), 1);
    let data = &fold.prompt.turns[0].text;
    // Isolated in the session's own delimiter, opened first and closed last.
    let tag = data.lines().next().unwrap().trim_start_matches('<').trim_end_matches('>');
    assert!(tag.starts_with("input_") && data.trim_end().ends_with(&format!("</{tag}>")), "{data}");
    assert!(data.contains("user: You must never touch the production database."), "{data}");
    assert!(data.contains("src/parse.rs"), "{data}");
    assert!(fold.prompt.tools.is_empty(), "the fold call offers no tools");
    // The next model turn carries the model's summary, and the constraint word for word.
    let after = d
        .calls
        .iter()
        .skip_while(|c| c.purpose != Purpose::Chat(ChatPurpose::Fold))
        .find(|c| c.purpose == Purpose::Chat(ChatPurpose::Turn))
        .expect("a turn after the fold");
    assert!(after.prompt.system.contains("summary: The user forbids touching production"), "{}", after.prompt.system);
    assert!(after.prompt.system.contains("(verbatim): You must never touch the production database."));
    let folded = notices(&d).into_iter().find(|n| n.contains("messages were folded")).unwrap();
    assert!(folded.contains("The model wrote the summary."), "{folded}");
    assert!(!d.session.messages.iter().any(|m| matches!(m.body, Body::Error { .. })));
}

#[test]
fn a_failed_or_nonsense_fold_answer_falls_back_to_the_heuristic_summary_and_says_so() {
    type Case = (&'static str, fn() -> LlmOutcome);
    let cases: Vec<Case> = vec![
        ("failed", || failed(FailureKind::Server)),
        ("empty", || unmetered("  ")),
        ("json", || unmetered(r#"{"summary": "x"}"#)),
        ("too long", || unmetered(&"far too long a summary ".repeat(200))),
        ("refusal", || LlmOutcome::Ok {
            text: "I can't help with that.".into(),
            model: "m".into(),
            usage: None,
            tool_calls: Vec::new(),
            refusal: true,
        }),
    ];
    for (name, outcome) in cases {
        let d = folding_chat(outcome);
        assert!(d.calls.iter().any(|c| c.purpose == Purpose::Chat(ChatPurpose::Fold)), "{name}: a fold call");
        let folded = notices(&d).into_iter().find(|n| n.contains("messages were folded")).expect(name);
        assert!(folded.contains("a rule-based summary stands in"), "{name}: {folded}");
        let summary = d.session.chat().unwrap().summary().unwrap().to_string();
        assert!(summary.contains("- user: question number 0 about the layout"), "{name}: {summary}");
        assert!(summary.contains("(verbatim): You must never touch the production database."), "{name}");
        assert!(!summary.contains("summary:"), "{name}: no model line in {summary}");
        assert!(
            d.session
                .messages
                .iter()
                .any(|m| matches!(m.body, Body::Error { purpose: Some(Purpose::Chat(ChatPurpose::Fold)), .. })),
            "{name}: the failure is shown"
        );
        // The model turn that waited for the fold still went out.
        assert_eq!(d.calls.last().unwrap().purpose, Purpose::Chat(ChatPurpose::Turn), "{name}");
    }
}

#[test]
fn the_window_the_server_reports_feeds_the_meter_unless_the_user_set_one() {
    let mut d = chat_driver(|_| unmetered("hi"));
    assert_eq!(d.session.chat_meter().unwrap().window, 8_192, "the default before any report");
    assert!(!d.session.chat_meter().unwrap().from_server);
    d.step(Event::chat(ChatAction::ServerWindow { tokens: 2_048 }));
    let meter = d.session.chat_meter().unwrap();
    assert_eq!((meter.window, meter.from_server), (2_048, true));
    // The folding budget follows the reported window too: a long chat folds within 2,048.
    let filler = "word ".repeat(120);
    for i in 0..8 {
        d.say(&format!("{i} {filler}"));
    }
    assert!(notices(&d).iter().any(|n| n.contains("messages were folded")), "folded within the server's window");
    // A nonsense report is ignored; the user's own setting wins over the server's.
    d.step(Event::chat(ChatAction::ServerWindow { tokens: 3 }));
    assert_eq!(d.session.chat_meter().unwrap().window, 8_192);
    d.step(Event::chat(ChatAction::ServerWindow { tokens: 4_096 }));
    let mut settings = Settings::default();
    settings.common.context_window = Some(16_000);
    d.step(Event::Settings { settings });
    let meter = d.session.chat_meter().unwrap();
    assert_eq!((meter.window, meter.from_server), (16_000, false));
    // `/reset` keeps the server's report.
    d.step(Event::Settings { settings: Settings::default() });
    d.say("/reset");
    assert_eq!(d.session.chat_meter().unwrap().window, 4_096);
}

#[test]
fn the_meter_knows_the_models_published_window_as_the_prompts_do() {
    // The shell resolves the window with the model's name (128,000 for a large model); the
    // chat's meter and its folding use that window, not the 8,192 default.
    let mut d = chat_driver(|_| unmetered("hi"));
    d.env.window = Some(128_000);
    d.say("hello");
    let meter = d.session.chat_meter().unwrap();
    assert_eq!((meter.window, meter.from_server), (128_000, false));
    // A server's report and the user's setting still come first.
    d.step(Event::chat(ChatAction::ServerWindow { tokens: 4_096 }));
    assert_eq!(d.session.chat_meter().unwrap().window, 4_096);
    let mut settings = Settings::default();
    settings.common.context_window = Some(16_000);
    d.step(Event::Settings { settings });
    assert_eq!(d.session.chat_meter().unwrap().window, 16_000);
}

#[test]
fn provider_usage_replaces_the_estimate() {
    let mut d = chat_driver(|_| LlmOutcome::Ok {
        text: "hi".into(),
        model: "m".into(),
        usage: Some(Usage { input_tokens: 3_000, output_tokens: 100 }),
        tool_calls: Vec::new(),
        refusal: false,
    });
    d.say("hello");
    assert_eq!(d.session.chat_meter().unwrap().used, 3_100);
}

#[test]
fn an_open_card_is_never_folded() {
    let mut settings = Settings::default();
    settings.common.context_window = Some(1_200);
    let big = "word ".repeat(300);
    let mut n = 0;
    let mut d = chat_with(settings, move |_| {
        n += 1;
        if n < 4 {
            unmetered(&big)
        } else {
            tool_calls("", &[("q", "AskUserQuestion", ASK_DB)])
        }
    });
    for i in 0..4 {
        d.say(&format!("turn {i}"));
    }
    let card = d.open_card().expect("the card is open");
    let history = d.session.chat().unwrap().history();
    assert!(history.iter().any(|t| t.tool_calls.iter().any(|c| c.id == "q")), "the open card's call is kept");
    d.answer(&["SQLite"]);
    assert!(!d
        .session
        .messages
        .iter()
        .any(|m| matches!(&m.body, Body::Clarification { card: c } if c.id == card.id && c.is_open())));
}

#[test]
fn no_key_assistant_offers_options_and_commands_in_english() {
    let mut d = offline_chat();
    d.say("please delete the old build files");
    assert!(texts(&d).last().unwrap().contains("no-key assistant"));
    let card = d.open_card().expect("a card of options");
    assert!(card.questions[0].options.len() >= 2);
    d.answer(&["Build output"]);
    let (id, card) = command(&d);
    assert_eq!(card.command, "rm -rf ./build");
    assert!(card.danger.is_some() && !card.can_copy());
    d.step(Event::chat(ChatAction::ConfirmCommand { message: id }));
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Output("done\n".into()) }));
    assert!(texts(&d).last().unwrap().contains("Got the output"));
    assert!(d.session.chat_meter().unwrap().used > 0, "the meter counts with no key");

    // A thanks with a request after it is the request, not only a thanks.
    let mut d = offline_chat();
    d.say("thanks, now delete the old logs");
    assert!(command(&d).1.command.starts_with("find ./logs -name '*.log'"), "the old logs, listed first");
    assert!(!texts(&d).iter().any(|t| t.starts_with("You're welcome")));
    d.say("thanks!");
    assert!(texts(&d).last().unwrap().starts_with("You're welcome"));

    // "How do I end it?" after asking who holds a port: that port's process, in both languages.
    let mut d = offline_chat();
    d.say("how do I see what's using port 3000?");
    assert!(command(&d).1.command.contains(":3000"), "the port's command, proposed at once");
    d.say("thanks! and how do I kill it?");
    let answer = texts(&d).last().unwrap().clone();
    assert!(answer.starts_with("`lsof -i :3000`") && answer.contains("`kill $(lsof -t -i :3000)`"), "{answer}");
    let mut d = Driver::in_lang(deliberate::engine::lang::Lang::Ko, Settings::default(), None);
    d.step(Event::switch_mode(ModeKind::Chat));
    d.say("3000번 포트 쓰는 프로세스 찾아줘");
    d.say("고마워 그거 종료하려면?");
    let answer = texts(&d).last().unwrap().clone();
    assert!(answer.starts_with("`lsof -i :3000`이") && !answer.contains("천만에요"), "{answer}");

    let mut d = offline_chat();
    d.say("what a nice day");
    let card = d.open_card().expect("the topic picker");
    assert_eq!(card.questions[0].options.len(), 10);
    assert_eq!(
        card.questions[0].options[5..],
        ["Find files", "Work with git", "Check containers", "Processes and ports", "Read a log"].map(String::from)
    );
    d.answer(&["Install something"]);
    assert!(d.open_card().unwrap().questions[0].options.contains(&"Homebrew".to_string()));
    d.answer(&["Homebrew"]);
    let (id, card) = command(&d);
    assert!(card.command.starts_with("brew install"));
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Declined }));
    assert!(texts(&d).last().unwrap().contains("nothing was run"));

    // Finding large files: the size and folder asked for, read only, so it can be copied.
    let mut d = offline_chat();
    d.say("find files bigger than 100MB in my home directory");
    assert!(d.open_card().is_none(), "the request names what it wants: no card to pick it");
    for (text, want) in
        [("도커 컨테이너 목록 보여줘", "docker ps -a"), ("CPU 많이 쓰는 프로세스 보여줘", "ps aux | sort -nrk 3")]
    {
        let mut other = Driver::in_lang(deliberate::engine::lang::Lang::Ko, Settings::default(), None);
        other.step(Event::switch_mode(ModeKind::Chat));
        other.say(text);
        assert!(other.open_card().is_none() && command(&other).1.command.starts_with(want), "{text}");
    }
    // What to install, or a bare "branch", names no option: the card asks.
    for text in ["install python", "help me with my git branches"] {
        let mut other = offline_chat();
        other.say(text);
        assert!(other.open_card().is_some(), "{text}");
    }
    let (_, card) = command(&d);
    assert_eq!(card.command, "find ~ -type f -size +100M -exec ls -lh {} +");
    assert!(card.danger.is_none() && card.can_copy());
}

#[test]
fn a_no_key_follow_up_is_read_with_the_request_before_it() {
    // A follow-up whose answer would be the one just given says so instead of repeating it.
    let mut d = offline_chat();
    d.say("how to zip a folder");
    let first = texts(&d).last().unwrap().clone();
    d.say("and on linux?");
    let again = texts(&d).last().unwrap().clone();
    assert!(again != first && again.starts_with("Without a key I have nothing more"), "{again}");

    // "and on windows?" after a port: Windows' commands for that port, in both languages.
    let mut d = offline_chat();
    d.say("how do I find which process is using port 3000?");
    assert!(command(&d).1.command.contains(":3000"), "the processes offer");
    d.say("and on windows?");
    let answer = texts(&d).last().unwrap().clone();
    assert!(answer.starts_with("`netstat -ano | findstr :3000` lists") && answer.contains("taskkill"), "{answer}");
    let mut d = Driver::in_lang(deliberate::engine::lang::Lang::Ko, Settings::default(), None);
    d.step(Event::switch_mode(ModeKind::Chat));
    d.say("8080 포트 쓰는 프로세스 찾는 법");
    d.say("윈도우에서는?");
    assert!(texts(&d).last().unwrap().starts_with("`netstat -ano | findstr :8080`이"), "{:?}", texts(&d));

    // Undoing the last commit keeps its changes; once pushed, it is reverted instead.
    for (lang, ask, pushed) in [
        (
            deliberate::engine::lang::Lang::En,
            "how do I undo my last commit but keep the changes?",
            "what if I already pushed it?",
        ),
        (deliberate::engine::lang::Lang::Ko, "마지막 커밋 취소하고 변경사항은 남기려면?", "이미 푸시했으면?"),
    ] {
        let mut d = Driver::in_lang(lang, Settings::default(), None);
        d.step(Event::switch_mode(ModeKind::Chat));
        d.say(ask);
        let answer = texts(&d).last().unwrap().clone();
        assert!(answer.starts_with("`git reset --soft HEAD~1`") && !answer.contains("git restore"), "{answer}");
        d.say(pushed);
        let answer = texts(&d).last().unwrap().clone();
        assert!(answer.contains("`git revert HEAD`") && !answer.starts_with("`git reset"), "{answer}");
        assert!(d.open_card().is_none(), "no topic picker: {answer}");
    }

    // "them": what the request before put aside.
    let mut d = offline_chat();
    d.say("how do I stash my changes");
    d.say("how do I get them back");
    assert!(texts(&d).last().unwrap().starts_with("`git stash list` shows"), "{:?}", texts(&d));

    // A new request is not a follow-up of the one before.
    let mut d = offline_chat();
    d.say("how do I find which process is using port 3000?");
    d.say("what a nice day");
    assert_eq!(d.open_card().expect("the topic picker").questions[0].options.len(), 10);
}

#[test]
fn feelings_and_plans_said_to_the_no_key_chat_are_pointed_to_the_mode_made_for_them() {
    for (lang, text, mode) in [
        (deliberate::engine::lang::Lang::En, "I feel so down today, nothing is going right", "/mode counseling"),
        (deliberate::engine::lang::Lang::Ko, "요즘 너무 우울해요", "/mode counseling"),
        (
            deliberate::engine::lang::Lang::En,
            "I want a bot that summarizes our meetings into Slack",
            "/mode discussion",
        ),
        (deliberate::engine::lang::Lang::Ko, "회의록 요약해서 슬랙에 올려주는 봇 만들고 싶어", "/mode discussion"),
    ] {
        let mut d = Driver::in_lang(lang, Settings::default(), None);
        d.step(Event::switch_mode(ModeKind::Chat));
        d.say(text);
        assert!(texts(&d).last().unwrap().contains(mode), "{text}: {:?}", texts(&d));
        assert!(d.open_card().is_none(), "{text}: no topic picker");
    }
    // Neither: the picker, as before.
    let mut d = offline_chat();
    d.say("what a nice day");
    assert!(d.open_card().is_some());
}

#[test]
fn the_no_key_assistant_introduces_itself_once_per_chat() {
    let mut d = offline_chat();
    d.say("please delete the old build files");
    d.say("what a nice day");
    d.say("install ripgrep");
    let intros = texts(&d).iter().filter(|t| t.contains("no-key assistant")).count();
    assert_eq!(intros, 1, "{:?}", texts(&d));
    assert_eq!(d.open_card().expect("the install card").questions[0].header.as_deref(), Some("Install"));
    d.step(Event::Restart);
    d.say("check disk usage");
    let intros = texts(&d).iter().filter(|t| t.contains("no-key assistant")).count();
    assert_eq!(intros, 2, "a chat started over introduces it again");
}

#[test]
fn an_unknown_request_is_asked_about_once_on_the_card_not_again_in_the_text() {
    let mut d = offline_chat();
    d.say("이번 주 회의록을 정리해서 팀에 공유할 요약을 만들고 싶어");
    let card = d.open_card().expect("the card of what it can do");
    assert_eq!(card.questions[0].text, "어떤 일을 도와드릴까요?");
    let said = texts(&d);
    assert!(said.last().unwrap().contains("키 없이"), "{said:?}");
    assert!(said.iter().all(|t| !t.contains("어떤 일을 도와드릴까요?")), "the text does not ask it again: {said:?}");
}

#[test]
fn no_key_assistant_works_in_korean() {
    let mut d = offline_chat();
    d.say("디스크 용량 확인하고 싶어");
    assert!(texts(&d).last().unwrap().contains("키 없이"));
    let card = d.open_card().unwrap();
    assert_eq!(card.questions[0].header.as_deref(), Some("디스크"));
    d.answer(&["전체 디스크"]);
    let (id, card) = command(&d);
    assert_eq!(card.command, "df -h");
    assert!(card.can_copy(), "a safe command needs no confirmation");
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Failed(String::new()) }));
    assert!(texts(&d).last().unwrap().contains("실패"));

    let mut d = offline_chat();
    d.say("빌드 폴더 좀 지워 줘");
    d.answer(&["빌드 결과물"]);
    let (id, card) = command(&d);
    assert!(card.danger.is_some());
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Declined }));
    assert!(texts(&d).last().unwrap().contains("실행하지 않았습니다"));
}

#[test]
fn a_failed_call_falls_back_to_the_no_key_assistant_and_retry_asks_the_model_again() {
    let mut n = 0;
    let mut d = chat_driver(move |_| {
        n += 1;
        if n == 1 {
            failed(FailureKind::Server)
        } else {
            ok("model answer")
        }
    });
    d.say("install ripgrep");
    assert!(d.bodies().iter().any(|b| matches!(b, Body::Error { fell_back: true, .. })));
    assert!(d.open_card().is_some(), "the no-key assistant answered with a card");
    assert!(d.session.can_retry(Purpose::Chat(ChatPurpose::Turn)));
    d.step(Event::Retry { purpose: Some(Purpose::Chat(ChatPurpose::Turn)) });
    assert_eq!(d.calls.len(), 2);
    assert_eq!(texts(&d).last().unwrap(), "model answer");
    assert!(d.open_card().is_none(), "the heuristic card was closed by the retry");
}

#[test]
fn stop_aborts_the_loop_and_retry_resumes_it() {
    let mut d = chat_driver(|_| ok("resumed"));
    let fx = d.step_unanswered(Event::UserMessage { text: "hello".into() });
    assert!(fx.iter().any(|e| matches!(e, deliberate::engine::session::Effect::CallLlm(_))));
    assert!(d.session.is_busy());
    d.step(Event::Stop { partials: Vec::new() });
    assert!(!d.session.is_busy() && d.session.halted);
    d.step(Event::Retry { purpose: None });
    assert_eq!(texts(&d).last().unwrap(), "resumed");
}

#[test]
fn reset_clears_the_chat_and_undo_restores_it() {
    let mut d = offline_chat();
    d.say("check disk usage");
    d.step(Event::chat(ChatAction::Attach { name: "notes.txt".into(), text: "n".into() }));
    let before = d.session.messages.len();
    d.say("/reset");
    assert_eq!(d.session.messages.len(), 1, "only the notice is left");
    assert!(d.session.chat().unwrap().attachments.is_empty());
    assert!(d.session.chat().unwrap().can_undo());
    d.say("/undo");
    assert_eq!(d.session.messages.len(), before + 1, "everything back, with a notice");
    assert_eq!(d.session.chat().unwrap().attachments.len(), 1);
    // The Undo button does the same.
    d.say("/reset");
    d.step(Event::chat(ChatAction::Undo));
    assert_eq!(d.session.chat().unwrap().attachments.len(), 1);
    d.say("/undo");
    assert!(notices(&d).last().unwrap().contains("Nothing to undo"));
}

#[test]
fn switching_modes_keeps_messages_and_the_discussion_hears_the_chat() {
    let mut d = offline_chat();
    d.say("set up a project for my app");
    let n = d.session.messages.len();
    d.step(Event::switch_mode(ModeKind::Discussion));
    assert_eq!(d.session.mode_kind(), ModeKind::Discussion);
    assert!(d.session.messages.len() > n);
    assert!(d.discussion().prior_chat.as_deref().is_some_and(|p| p.contains("set up a project")));
}

#[test]
fn a_chat_replays_from_its_journal() {
    let rm = r#"{"command":"rm -rf ./build","why":"clean"}"#;
    let mut d = chat_driver(scripted(vec![
        tool_calls("", &[("c1", "AskUserQuestion", ASK_DB)]),
        tool_calls("Next:", &[("p", "propose_command", rm)]),
        ok("done"),
    ]));
    d.step(Event::chat(ChatAction::Attach { name: "a.txt".into(), text: "x".into() }));
    d.say("help");
    d.answer(&["SQLite"]);
    let (id, _) = command(&d);
    d.step(Event::chat(ChatAction::ConfirmCommand { message: id }));
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Output("ok".into()) }));
    d.say("/reset");
    d.say("/undo");
    let saved = Journal::decode(&d.journal.encode().unwrap()).unwrap();
    assert_eq!(saved.replay(), d.session);
    let json = serde_json::to_string(&d.session).unwrap();
    let back: deliberate::engine::session::Session = serde_json::from_str(&json).unwrap();
    assert_eq!(back, d.session, "the saved session reads back");
}

#[test]
fn only_the_chats_cards_can_be_cancelled() {
    use deliberate::engine::session::ModeKind;
    let mut d = Driver::offline();
    assert!(!d.session.can_cancel_cards(), "the discussion's cards need answers");
    d.step(deliberate::engine::session::Event::switch_mode(ModeKind::Chat));
    assert!(d.session.can_cancel_cards());
}

#[test]
fn the_no_key_assistant_answers_how_to_make_a_script_executable_unpack_an_archive_or_compare_options() {
    for (said, want) in [
        ("how do I make run.sh executable?", "`chmod +x run.sh`"),
        ("deploy.sh 실행 권한 주는 법", "`chmod +x deploy.sh`로 실행 권한을"),
        // The same for archives, option differences and memory: answered, not the topic card.
        ("how do I extract backup.tar.gz?", "`tar -xzf backup.tar.gz` unpacks it."),
        ("압축 푸는 명령어 알려줘 tar.gz", "다음 명령으로 풉니다: `tar -xzf <file>.tar.gz`."),
        ("what's the difference between rm -r and rm -rf?", "`rm` deletes files"),
        ("npm install 하는데 EACCES 에러가 나요", "npm이 전역 패키지 폴더에 쓸 권한이 없다는"),
        ("ModuleNotFoundError: No module named 'requests'", "The Python that runs the script has no `requests`"),
        ("how do I rename a file?", "`mv <old-name> <new-name>` renames it"),
    ] {
        let mut d = offline_chat();
        d.say(said);
        let answer = texts(&d).last().cloned().unwrap_or_default();
        assert!(answer.starts_with(want), "{said}: {answer}");
        assert!(
            !d.session.messages.iter().any(|m| matches!(m.body, Body::Clarification { .. })),
            "{said}: answered, not asked which topic"
        );
    }
}

#[test]
fn a_pasted_english_error_is_answered_in_the_conversations_korean() {
    let mut d = Driver::in_lang(deliberate::engine::lang::Lang::Ko, Settings::default(), None);
    d.step(Event::switch_mode(ModeKind::Chat));
    d.say("커밋 취소하는 법");
    d.say("npm ERR! code ERESOLVE");
    let answer = match d.bodies().last() {
        Some(Body::Text { text, .. }) => text.to_string(),
        other => panic!("expected an answer, got {other:?}"),
    };
    assert!(answer.chars().any(deliberate::engine::lang::is_hangul), "{answer}");
    // A question written in English is still answered in English.
    d.say("how do I undo my last commit");
    let english = match d.bodies().last() {
        Some(Body::Text { text, .. }) => text.to_string(),
        other => panic!("expected an answer, got {other:?}"),
    };
    assert!(!english.chars().any(deliberate::engine::lang::is_hangul), "{english}");
}

#[test]
fn no_key_output_of_a_known_shape_is_read_back() {
    let mut d = offline_chat();
    d.say("what is using port 3000");
    let (id, card) = command(&d);
    assert_eq!(card.command, "lsof -i :3000");
    let lsof = "COMMAND  PID USER   FD   TYPE DEVICE SIZE/OFF NODE NAME\nnode    4242 me   23u  IPv6 0x1  0t0  TCP *:3000 (LISTEN)\n";
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Output(lsof.into()) }));
    let said = texts(&d).last().cloned().unwrap_or_default();
    assert!(said.contains("`node` (PID 4242)") && said.contains("`kill 4242`"), "{said}");
    d.say("kill it");
    let said = texts(&d).last().cloned().unwrap_or_default();
    assert!(said.starts_with("`kill 4242` asks that process to end."), "{said}");
    d.say("how much disk space is left");
    let (id, card) = command(&d);
    assert_eq!(card.command, "df -h");
    let df = "Filesystem Size Used Avail Use% Mounted on\n/dev/sda1 100G 97G 3G 97% /\n";
    d.step(Event::chat(ChatAction::CommandDone { message: id, outcome: CommandOutcome::Output(df.into()) }));
    let said = texts(&d).last().cloned().unwrap_or_default();
    assert!(said.starts_with("The disk mounted on / is 97% full (3G left)."), "{said}");
}
