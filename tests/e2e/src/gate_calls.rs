//! The figure "LLM calls per completed gate": conversations run against a counting fake
//! LLM until the slot gate completes, counting analysis and question-wording calls, and
//! checking that no call happens once the required slots are filled.

use std::fmt;

use deliberate::engine::call::{LlmOutcome, Purpose};
use deliberate::engine::discussion::DiscussionPurpose;
use deliberate::engine::gate::GateStatus;
use deliberate::engine::lang::Lang;
use deliberate::engine::session::{Effect, Env, Event, Session, Settings};
use deliberate::engine::slots::parse_format;

/// A conversation: the request, then the user's replies to whatever is asked.
struct Conversation {
    request: &'static str,
    replies: &'static [&'static str],
}

const CONVERSATIONS: &[Conversation] = &[
    Conversation {
        request: "매일 아침 IT 뉴스를 요약해 주는 파이프라인을 만들어줘", replies: &["마크다운"]
    },
    Conversation { request: "고객 리뷰를 분석해서 주간 보고서를 표로 만들어줘", replies: &[] },
    Conversation { request: "회의록 요약 도구", replies: &["JSON으로 주세요"] },
    Conversation { request: "Build a news digest pipeline", replies: &["a Markdown document"] },
    Conversation { request: "Classify support tickets into a table", replies: &[] },
    Conversation { request: "Summarize legal contracts", replies: &["slides please"] },
    Conversation { request: "을지로, 2명, 12시 30분 점심 추천", replies: &[] },
    Conversation { request: "을지로에서 2명 맛집 추천해줘", replies: &["12시 30분"] },
    Conversation { request: "강남역 근처 맛집 추천", replies: &["3명", "오후 1시"] },
    Conversation { request: "lunch near Gangnam station for 4", replies: &["half past 12"] },
    Conversation { request: "where to eat lunch", replies: &["Itaewon, 2 people, 1pm"] },
];

/// Calls counted over all conversations.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GateCalls {
    /// Gates that reached "completed".
    pub gates_completed: usize,
    /// Conversations run.
    pub conversations: usize,
    /// Contract analyses (UNDERSTAND).
    pub analysis_calls: usize,
    /// Question wordings for missing slots.
    pub wording_calls: usize,
    /// Calls made while every required slot was already filled: the seed says zero.
    pub calls_after_filled: usize,
    /// Requests whose gate did not complete with the scripted replies.
    pub incomplete: Vec<&'static str>,
}

/// A fake analyzer that reads only what the request states, so it leaves the format
/// empty when the request names none.
fn fake_llm(purpose: Purpose, user_text: &str) -> LlmOutcome {
    let text = match purpose {
        Purpose::Discussion(DiscussionPurpose::Contract) => {
            let request = user_text.lines().nth(2).unwrap_or("");
            let format = parse_format(request).map(|f| f.label(Lang::En)).unwrap_or("");
            let questions = if format.is_empty() { r#"["What format should the result have?"]"# } else { "[]" };
            format!(
                r#"{{"context":"","goal":{},"criteria":[],"format":"{format}","openQuestions":{questions},"confidence":"medium"}}"#,
                serde_json::to_string(request).unwrap_or_default()
            )
        }
        Purpose::Discussion(DiscussionPurpose::Question) => {
            r#"{"question":"Could you tell me the rest?","options":[]}"#.to_string()
        }
        _ => "{}".to_string(),
    };
    LlmOutcome::Ok { text, model: "counting-fake".into(), usage: None, tool_calls: Vec::new(), refusal: false }
}

/// Runs every conversation and counts the calls.
pub fn measure() -> GateCalls {
    let mut out = GateCalls { conversations: CONVERSATIONS.len(), ..GateCalls::default() };
    for conv in CONVERSATIONS {
        let mut session = Session::new("gate-calls", Lang::En, Settings::default(), 0);
        let env = Env::online(0);
        let mut queue: Vec<Event> = vec![Event::UserMessage { text: conv.request.to_string() }];
        let mut replies = conv.replies.iter();
        while let Some(event) = queue.pop() {
            let filled_before = session.discussion().unwrap().gate.as_ref().is_some_and(|g| g.is_required_filled());
            let effects = session.step(event, &env);
            let gate_open =
                session.discussion().unwrap().gate.as_ref().is_some_and(|g| g.status == GateStatus::Collecting);
            for effect in effects {
                if let Effect::CallLlm(call) = effect {
                    match call.purpose {
                        Purpose::Discussion(DiscussionPurpose::Contract) => out.analysis_calls += 1,
                        Purpose::Discussion(DiscussionPurpose::Question) => out.wording_calls += 1,
                        // Calls after the gate (designs, worker, ...) are not the gate's.
                        _ => {
                            queue.push(Event::LlmResult { call: call.id, outcome: fake_llm(call.purpose, "") });
                            continue;
                        }
                    }
                    if filled_before && gate_open {
                        out.calls_after_filled += 1;
                    }
                    let user = call.prompt.turns.last().map(|t| t.text.clone()).unwrap_or_default();
                    queue.push(Event::LlmResult { call: call.id, outcome: fake_llm(call.purpose, &user) });
                }
            }
            if queue.is_empty() && !session.is_busy() {
                let done =
                    session.discussion().unwrap().gate.as_ref().is_some_and(|g| g.status == GateStatus::Completed);
                if done {
                    break;
                }
                if let Some(reply) = replies.next() {
                    queue.push(Event::UserMessage { text: reply.to_string() });
                }
            }
        }
        if session.discussion().unwrap().gate.as_ref().is_some_and(|g| g.status == GateStatus::Completed) {
            out.gates_completed += 1;
        } else {
            out.incomplete.push(conv.request);
        }
    }
    out
}

impl fmt::Display for GateCalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = |n: usize| if self.gates_completed == 0 { 0.0 } else { n as f64 / self.gates_completed as f64 };
        writeln!(f, "gates completed          {}/{}", self.gates_completed, self.conversations)?;
        writeln!(f, "analysis calls per gate  {:.2}", per(self.analysis_calls))?;
        writeln!(f, "wording calls per gate   {:.2}", per(self.wording_calls))?;
        writeln!(f, "LLM calls per gate       {:.2}", per(self.analysis_calls + self.wording_calls))?;
        write!(f, "calls after slots filled {}", self.calls_after_filled)?;
        if !self.incomplete.is_empty() {
            write!(f, "\nnot completed: {}", self.incomplete.join(" | "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gate_completes_and_no_call_follows_filled_slots() {
        let calls = measure();
        assert_eq!(calls.gates_completed, calls.conversations, "{calls}");
        assert_eq!(calls.calls_after_filled, 0);
        // Each discussion request is analysed once (answers complete the gate without
        // re-analysis); only lunch questions are worded.
        assert_eq!(calls.analysis_calls, 6);
        assert!(calls.wording_calls >= 4, "{calls}");
    }
}
