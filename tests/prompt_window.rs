//! Every mode's prompts fit the model's window: at a 2,048-token window (a small local
//! server), every prompt of a long discussion and a long counseling session estimates within
//! the window minus the answer reserve, and leaves its answer room inside the window.

mod common;

use common::{good_answer, Driver};
use deliberate::engine::call::{LlmCall, Purpose};
use deliberate::engine::counsel::CounselPurpose;
use deliberate::engine::discussion::DiscussionPurpose;
use deliberate::engine::session::{Body, Event, ModeKind, Settings};
use deliberate::engine::tokens::estimate_prompt;
use deliberate::llm::window_fit::{answer_reserve, CUT_MARK};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const WINDOW: u32 = 2048;

/// Asserts every call fits, and returns the purposes seen and how many prompts were trimmed.
fn assert_all_fit(calls: &[LlmCall]) -> (Vec<Purpose>, usize) {
    let mut purposes = Vec::new();
    let mut trimmed = 0;
    for call in calls {
        let used = estimate_prompt(&call.prompt);
        let reserve = answer_reserve(&call.prompt, WINDOW);
        assert!(used <= WINDOW - reserve, "{:?}: {used} tokens > {WINDOW} − {reserve}", call.purpose);
        assert!(used + call.prompt.max_tokens <= WINDOW, "{:?}: no room left for the answer", call.purpose);
        assert!(call.prompt.max_tokens > 0);
        if !purposes.contains(&call.purpose) {
            purposes.push(call.purpose);
        }
        let texts = std::iter::once(&call.prompt.system).chain(call.prompt.turns.iter().map(|t| &t.text));
        trimmed += usize::from(texts.into_iter().any(|t| t.contains(CUT_MARK)));
    }
    (purposes, trimmed)
}

fn no_overflow_notice(d: &Driver) {
    for body in d.bodies() {
        if let Body::Notice { text } = body {
            assert!(!text.contains("context window") && !text.contains("컨텍스트 창"), "{text}");
        }
    }
}

fn long_discussion(window: Option<u32>) -> Driver {
    let settings = {
        let mut s = Settings::default();
        s.discussion.max_rounds = 40;
        s
    };
    let mut d = Driver::with_settings(settings, Some(Box::new(good_answer)));
    d.env.window = window;
    d.say("Build a daily IT news digest for my team, in Markdown, with sources and a short summary per item");
    for i in 0..30 {
        d.say(&format!(
            "round {i}: please add validation and make it cheaper; also keep the sources, because {}",
            "the team reads it every morning and needs to trust each item. ".repeat(4)
        ));
    }
    d.say("ok, option 2");
    d
}

#[test]
fn a_long_discussion_fits_a_2048_window_at_every_step() {
    // Unfitted, some of its prompts leave no room for their answer in 2,048 tokens.
    let unfitted = long_discussion(None);
    assert!(unfitted.calls.iter().any(|c| estimate_prompt(&c.prompt) + c.prompt.max_tokens > WINDOW));
    let d = long_discussion(Some(WINDOW));
    let (purposes, _) = assert_all_fit(&d.calls);
    for want in [
        Purpose::Discussion(DiscussionPurpose::Contract),
        Purpose::Discussion(DiscussionPurpose::Designs),
        Purpose::Discussion(DiscussionPurpose::Refine),
        Purpose::Discussion(DiscussionPurpose::Plan),
    ] {
        assert!(purposes.contains(&want), "{want:?} never ran: {purposes:?}");
    }
    assert!(purposes.iter().any(|p| matches!(p, Purpose::Discussion(DiscussionPurpose::Critique { .. }))));
    assert!(d.calls.iter().filter(|c| c.purpose == Purpose::Discussion(DiscussionPurpose::Refine)).count() >= 30);
    no_overflow_notice(&d);
}

#[test]
fn a_long_counseling_session_fits_a_2048_window_at_every_step() {
    let mut d = Driver::with_settings(Settings::default(), Some(Box::new(good_answer)));
    d.env.window = Some(WINDOW);
    d.step(Event::switch_mode(ModeKind::Counseling));
    for i in 0..24 {
        d.say(&format!(
            "{i}: 요즘 회사 일이 너무 많아서 잠을 잘 못 자요. 팀장님이 계속 일을 더 주시고, 저는 거절을 못 해서 \
             주말에도 일을 해요. {}",
            "가족들과 보낼 시간도 줄어서 속상해요. ".repeat(6)
        ));
    }
    let (purposes, trimmed) = assert_all_fit(&d.calls);
    for want in [
        Purpose::Counseling(CounselPurpose::Checker),
        Purpose::Counseling(CounselPurpose::Detector),
        Purpose::Counseling(CounselPurpose::Module),
        Purpose::Counseling(CounselPurpose::Reply),
    ] {
        assert!(purposes.contains(&want), "{want:?} never ran: {purposes:?}");
    }
    assert!(trimmed > 0 || d.calls.len() > 60, "{trimmed} trimmed of {}", d.calls.len());
    no_overflow_notice(&d);
}

#[test]
fn a_message_too_long_for_the_window_is_not_sent_and_the_user_is_told() {
    let mut d = Driver::with_settings(Settings::default(), Some(Box::new(good_answer)));
    d.env.window = Some(WINDOW);
    d.step(Event::switch_mode(ModeKind::Counseling));
    let before = d.calls.len();
    d.say(&"회사 일이 너무 많아서 힘들어요. ".repeat(400));
    assert_all_fit(&d.calls[before..]);
    let told = d
        .bodies()
        .iter()
        .any(|b| matches!(b, Body::Notice { text } if text.contains("컨텍스트 창") || text.contains("context window")));
    assert!(told, "the overflow was not explained");
}
