//! A test driver for the engine: steps a session with events and answers its LLM calls
//! from a script, counting every call, so whole discussions run with no browser and no
//! network, natively and in wasm.

#![allow(dead_code)]

use deliberate::engine::call::{LlmCall, LlmFailure, LlmOutcome, Purpose, Usage};
use deliberate::engine::chat::ChatPurpose;
use deliberate::engine::counsel::CounselPurpose;
use deliberate::engine::discussion::Discussion;
use deliberate::engine::discussion::DiscussionPurpose;
use deliberate::engine::lang::Lang;
use deliberate::engine::session::{Body, Effect, Env, Event, QuestionCard, Session, Settings};
use deliberate::engine::state_machine::Stage;
use deliberate::store::saved::Journal;

/// What the scripted LLM answers a call with.
pub type Script = Box<dyn FnMut(&LlmCall) -> LlmOutcome>;

/// Drives a session like the browser shell does.
pub struct Driver {
    pub session: Session,
    pub env: Env,
    script: Option<Script>,
    /// Every LLM call the engine asked for, in order.
    pub calls: Vec<LlmCall>,
    /// For each step, the calls it started (a batch runs concurrently).
    pub batches: Vec<Vec<LlmCall>>,
    /// Every step, as the browser shell saves it.
    pub journal: Journal,
}

impl Driver {
    /// A driver with no LLM configured.
    pub fn offline() -> Self {
        Self::with_settings(Settings::default(), None)
    }

    /// A driver whose LLM answers from `script`.
    pub fn with_llm(script: impl FnMut(&LlmCall) -> LlmOutcome + 'static) -> Self {
        Self::with_settings(Settings::default(), Some(Box::new(script)))
    }

    /// A driver with the given settings and optional LLM.
    pub fn with_settings(settings: Settings, script: Option<Script>) -> Self {
        Self::in_lang(Lang::En, settings, script)
    }

    /// A driver whose session writes in `lang`.
    pub fn in_lang(lang: Lang, settings: Settings, script: Option<Script>) -> Self {
        let llm = script.is_some();
        let session = Session::new("test", lang, settings, 1_000);
        let journal = Journal::begin(&session);
        Driver {
            session,
            env: Env { now: 1_000, primary: llm, secondary: llm, window: None },
            script,
            calls: Vec::new(),
            batches: Vec::new(),
            journal,
        }
    }

    /// Applies an event and answers every LLM call it leads to.
    pub fn step(&mut self, event: Event) -> &mut Self {
        let effects = self.step_unanswered(event);
        self.run(effects);
        self
    }

    /// Applies an event and returns its effects without answering any LLM call, as when
    /// the page goes away or the user presses Stop while calls are in flight.
    pub fn step_unanswered(&mut self, event: Event) -> Vec<Effect> {
        self.env.now += 1_000;
        self.journal.record(&event, &self.env);
        self.session.step(event, &self.env)
    }

    fn run(&mut self, effects: Vec<Effect>) {
        let started: Vec<LlmCall> = effects
            .into_iter()
            .filter_map(|e| match e {
                Effect::CallLlm(call) => Some(call),
                _ => None,
            })
            .collect();
        if started.is_empty() {
            return;
        }
        self.batches.push(started.clone());
        self.calls.extend(started.iter().cloned());
        // All calls of a batch are in flight before the first one answers.
        for call in started {
            let outcome = match self.script.as_mut() {
                Some(script) => script(&call),
                None => panic!("the engine asked an LLM although none is configured: {:?}", call.purpose),
            };
            self.env.now += 500;
            let event = Event::LlmResult { call: call.id, outcome };
            self.journal.record(&event, &self.env);
            let effects = self.session.step(event, &self.env);
            self.run(effects);
        }
    }

    /// Sends a user message.
    pub fn say(&mut self, text: &str) -> &mut Self {
        self.step(Event::UserMessage { text: text.to_string() })
    }

    /// Answers the open question card.
    pub fn answer(&mut self, answers: &[&str]) -> &mut Self {
        let card = self.open_card().expect("a question card is open").id;
        self.step(Event::Answer { card, answers: answers.iter().map(|a| a.to_string()).collect() })
    }

    /// The open question card, if any.
    pub fn open_card(&self) -> Option<QuestionCard> {
        self.session.open_card().cloned()
    }

    /// The discussion the session is running.
    pub fn discussion(&self) -> &Discussion {
        self.session.discussion().expect("the session is in discussion mode")
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.session.discussion().unwrap().stage()
    }

    /// Bodies of all messages, in order.
    pub fn bodies(&self) -> Vec<&Body> {
        self.session.messages.iter().map(|m| &m.body).collect()
    }

    /// Calls made for one purpose.
    pub fn calls_for(&self, purpose: Purpose) -> usize {
        self.calls.iter().filter(|c| c.purpose == purpose).count()
    }
}

/// A successful answer.
pub fn ok(text: &str) -> LlmOutcome {
    LlmOutcome::Ok {
        text: text.to_string(),
        model: "test-model".into(),
        usage: Some(Usage { input_tokens: 10, output_tokens: 5 }),
        tool_calls: Vec::new(),
        refusal: false,
    }
}

/// A successful answer that calls tools: `(id, name, arguments)` each.
pub fn tool_calls(text: &str, calls: &[(&str, &str, &str)]) -> LlmOutcome {
    LlmOutcome::Ok {
        text: text.to_string(),
        model: "test-model".into(),
        usage: None,
        tool_calls: calls
            .iter()
            .map(|(id, name, arguments)| deliberate::engine::prompt::ToolCall {
                id: id.to_string(),
                name: name.to_string(),
                arguments: arguments.to_string(),
            })
            .collect(),
        refusal: false,
    }
}

/// A failed call.
pub fn failed(kind: deliberate::engine::call::FailureKind) -> LlmOutcome {
    LlmOutcome::Failed(LlmFailure { kind, detail: "scripted failure".into(), status: None, partial: None })
}

/// Valid model answers for each purpose, for scripts that need the happy path.
pub fn good_answer(call: &LlmCall) -> LlmOutcome {
    match call.purpose {
        Purpose::Discussion(DiscussionPurpose::Contract) => ok(
            r#"{"context":"","goal":"A daily IT news digest","criteria":["fits on one page"],"format":"Markdown document","openQuestions":[],"confidence":"high"}"#,
        ),
        Purpose::Discussion(DiscussionPurpose::Question) => {
            ok(r#"{"question":"What time suits you?","options":["12:00","12:30"]}"#)
        }
        Purpose::Discussion(DiscussionPurpose::LunchAnswer) => ok("1. Noodles\n2. Rice\n3. Soup"),
        Purpose::Discussion(DiscussionPurpose::Designs) | Purpose::Discussion(DiscussionPurpose::Refine) => {
            ok(r#"{"designs":[
            {"name":"LLM Lean","description":"d","agents":[{"name":"fetch","role":"collector","model":"small"},{"name":"write","role":"formatter","model":"small"}],"pros":["cheap"],"cons":["thin"],"estimated_cost":"~$0.01","complexity":"low","recommended":false},
            {"name":"LLM Checked","description":"d","agents":[{"name":"fetch","role":"collector"},{"name":"check","role":"validator"},{"name":"write","role":"reporter"}],"pros":["safe"],"cons":["slower"],"estimated_cost":"~$0.05","complexity":"medium","recommended":true}]}"#)
        }
        Purpose::Discussion(DiscussionPurpose::Critique { .. }) => ok(
            r#"{"weaknesses":["w"],"risks":["r"],"edge_cases":["e"],"security_concerns":["s"],"cost_concerns":["c"],"scalability_notes":["n"],"overall_score":0.7,"recommendation":"fine"}"#,
        ),
        Purpose::Discussion(DiscussionPurpose::Plan) => ok("# LLM plan\n\n1. Build it"),
        Purpose::Chat(ChatPurpose::Turn) => ok("A plain answer."),
        Purpose::Chat(ChatPurpose::Fold) => ok("Earlier, the user and the assistant talked about the project."),
        Purpose::Counseling(CounselPurpose::Checker) => ok(
            r#"{"task_id":"","is_completed":false,"new_status":null,"completion_reason":"not yet","also_sufficient":[],"part_covered":false}"#,
        ),
        Purpose::Counseling(CounselPurpose::Detector) => ok(
            r#"{"emotion":"neutral","intensity":2,"resistance":false,"engagement":"medium","topic_change":null,"going_in_circles":false,"wants_to_close":false}"#,
        ),
        Purpose::Counseling(CounselPurpose::Planner) => ok(
            r#"{"tasks":[{"id":"task_llm_work_2","priority":"high","title":"LLM: explore work","description":"d","target":"t","completion_criteria":"c","module":"information_gathering"}]}"#,
        ),
        Purpose::Counseling(CounselPurpose::Module) => {
            ok(r#"{"module":"information_gathering","reason":"LLM: ask about the situation"}"#)
        }
        Purpose::Counseling(CounselPurpose::Reply) => ok("LLM counselor: I hear you. What would help most right now?"),
        Purpose::Counseling(CounselPurpose::Supervisor) => {
            ok(r#"{"score":8,"improvements":["Ask one question at a time"],"suggested_module":null}"#)
        }
    }
}
