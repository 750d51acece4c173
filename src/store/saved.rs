//! The saved form of a conversation: a journal of what happened, replayed on open.
//!
//! The engine is deterministic (the same session, event and environment give the same
//! result), so a conversation is saved as how it started plus every event with the
//! environment it met, and reopening replays them into the exact session. This keeps
//! the page small (only events are ever read back, not the whole session tree) and
//! suits an append-only store. What cannot be read is never thrown away: the caller
//! keeps the text aside and starts a new conversation.

use serde::{Deserialize, Serialize};

use crate::engine::lang::Lang;
use crate::engine::session::{Env, Event, Session, Settings};

use super::snapshot::Record;

/// The format version this build writes. A reader refuses newer versions rather than
/// misread them.
pub const VERSION: u64 = 1;

/// How a conversation began: what `Session::new` was given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Start {
    pub id: String,
    pub lang: Lang,
    pub settings: Settings,
    pub created_at: u64,
}

/// One step: the event and the environment it was applied in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Logged {
    pub env: Env,
    pub event: Event,
}

/// A conversation as it is saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Journal {
    pub version: u64,
    pub start: Start,
    pub events: Vec<Logged>,
    /// What the conversation showed (`store::snapshot`), in exported files only: an import
    /// opens as the export showed it, also where this build would replay it otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown: Vec<Record>,
}

impl Journal {
    /// The journal of a session that has not been stepped yet.
    pub fn begin(session: &Session) -> Journal {
        Journal {
            version: VERSION,
            start: Start {
                id: session.id.clone(),
                lang: session.lang,
                settings: session.settings.clone(),
                created_at: session.created_at,
            },
            events: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// Records a step about to be applied.
    pub fn record(&mut self, event: &Event, env: &Env) {
        self.events.push(Logged { env: *env, event: event.clone() });
    }

    /// The session the journal describes. The effects the steps asked for are not run
    /// again: calls still pending at the end are the caller's to resume.
    pub fn replay(&self) -> Session {
        let s = &self.start;
        let mut session = Session::new(s.id.clone(), s.lang, s.settings.clone(), s.created_at);
        for step in &self.events {
            session.step(step.event.clone(), &step.env);
        }
        session
    }

    /// The journal as saved text.
    pub fn encode(&self) -> Result<String, String> {
        serde_json::to_string(self).map_err(|e| e.to_string())
    }

    /// The journal in saved text.
    pub fn decode(text: &str) -> Result<Journal, DecodeError> {
        // A syntax error anywhere means the text is not JSON at all.
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|_| DecodeError::NotJson)?;
        let version = serde_json::from_str::<VersionOnly>(text)
            .map_err(|e| DecodeError::Malformed { detail: e.to_string() })?
            .version;
        match version {
            Some(found) if found > VERSION => Err(DecodeError::NewerVersion { found }),
            Some(_) => serde_json::from_str(text).map_err(|e| DecodeError::Malformed { detail: e.to_string() }),
            None => Err(DecodeError::Malformed { detail: "no format version".into() }),
        }
    }
}

/// The version alone, read first so a newer format is named, not misread.
#[derive(Deserialize)]
pub(crate) struct VersionOnly {
    pub(crate) version: Option<u64>,
}

/// Why saved text could not be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Not JSON at all (cut short, or overwritten by something else).
    NotJson,
    /// Written by a newer Deliberate than this one.
    NewerVersion { found: u64 },
    /// JSON, but not a conversation this build understands.
    Malformed { detail: String },
}

impl DecodeError {
    /// Why an imported file was refused, for the person importing it.
    pub fn import_message(&self, lang: Lang) -> String {
        match (self, lang) {
            (DecodeError::NewerVersion { found }, Lang::Ko) => {
                format!("이 파일은 더 새로운 Deliberate(저장 형식 {found})가 만든 것이라 가져올 수 없습니다. 지금 대화는 그대로입니다.")
            }
            (DecodeError::NewerVersion { found }, Lang::En) => format!(
                "This file was made by a newer Deliberate (format {found}) and cannot be imported. The current conversation is unchanged."
            ),
            (DecodeError::NotJson, Lang::Ko) => {
                "JSON 파일이 아니거나 잘린 파일이라 가져올 수 없습니다. 지금 대화는 그대로입니다.".to_string()
            }
            (DecodeError::NotJson, Lang::En) => {
                "The file is not JSON, or it is cut short; nothing was imported. The current conversation is unchanged."
                    .to_string()
            }
            (DecodeError::Malformed { .. }, Lang::Ko) => {
                "Deliberate 대화 파일이 아니라 가져올 수 없습니다. 지금 대화는 그대로입니다.".to_string()
            }
            (DecodeError::Malformed { .. }, Lang::En) => {
                "The file is not a Deliberate conversation; nothing was imported. The current conversation is unchanged."
                    .to_string()
            }
        }
    }

    /// What happened, for the person whose conversation it was.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (DecodeError::NewerVersion { found }, Lang::Ko) => format!(
                "지난 대화는 더 새로운 Deliberate(저장 형식 {found})가 저장한 것이라 이 버전에서는 열 수 없어 새로 시작합니다. 원본은 이 브라우저에 따로 보관해 두었습니다."
            ),
            (DecodeError::NewerVersion { found }, Lang::En) => format!(
                "The last conversation was saved by a newer Deliberate (format {found}) and cannot be opened here, so a new one starts. The original is kept aside in this browser."
            ),
            (_, Lang::Ko) => "지난 대화를 읽을 수 없어 새로 시작합니다. 원본은 이 브라우저에 따로 보관해 두었습니다.".to_string(),
            (_, Lang::En) => {
                "The last conversation could not be read, so a new one starts. The original is kept aside in this browser."
                    .to_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::session::DiscussionSettings;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Steps a session and its journal together, as the shell does.
    fn play(events: Vec<Event>) -> (Session, Journal) {
        let mut session = Session::new("s1", Lang::Ko, Settings::default(), 1_000);
        let mut journal = Journal::begin(&session);
        for (i, event) in events.into_iter().enumerate() {
            let env = Env::offline(2_000 + 1_000 * i as u64);
            journal.record(&event, &env);
            session.step(event, &env);
        }
        (session, journal)
    }

    #[test]
    fn a_conversation_comes_back_exactly() {
        let (session, journal) = play(vec![
            Event::UserMessage {
                text: "매일 아침 IT 뉴스를 요약해 주는 파이프라인을 마크다운으로 만들어줘".into()
            },
            Event::UserMessage { text: "너무 비싸요, 더 싸게".into() },
            Event::Settings {
                settings: Settings {
                    discussion: DiscussionSettings { strict: true, ..DiscussionSettings::default() },
                    ..Settings::default()
                },
            },
            Event::UserMessage { text: "2번이 좋아요".into() },
        ]);
        assert!(session.discussion().unwrap().plan.is_some(), "the conversation got somewhere");
        let text = journal.encode().expect("encodes");
        assert!(text.starts_with(r#"{"version":1,"#));
        let back = Journal::decode(&text).expect("decodes");
        assert_eq!(back, journal);
        assert_eq!(back.replay(), session);
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        assert_eq!(Journal::decode(""), Err(DecodeError::NotJson));
        assert_eq!(Journal::decode(r#"{"version":1,"start":{"id":"s1""#), Err(DecodeError::NotJson));
        assert_eq!(Journal::decode(r#"{"version":7,"start":{}}"#), Err(DecodeError::NewerVersion { found: 7 }));
        assert!(matches!(Journal::decode(r#"{"start":{}}"#), Err(DecodeError::Malformed { .. })));
        assert!(matches!(Journal::decode(r#"{"version":1,"start":{"id":"s1"}}"#), Err(DecodeError::Malformed { .. })));
        let unknown_event = r#"{"version":1,"start":{"id":"s","lang":"en","settings":{"max_rounds":5,"alignment_rounds":3,"strict":false},"created_at":0},"events":[{"env":{"now":1,"designer":false,"critic":false},"event":{"teleport":null}}]}"#;
        assert!(matches!(Journal::decode(unknown_event), Err(DecodeError::Malformed { .. })));
        assert!(matches!(Journal::decode("[1,2]"), Err(DecodeError::Malformed { .. })));
    }

    #[test]
    fn messages_name_the_newer_version_in_both_languages() {
        let newer = DecodeError::NewerVersion { found: 7 };
        assert!(newer.message(Lang::Ko).contains("저장 형식 7"));
        assert!(newer.message(Lang::En).contains("format 7"));
        assert!(DecodeError::NotJson.message(Lang::En).contains("kept aside"));
        assert!(DecodeError::NotJson.message(Lang::Ko).contains("보관"));
    }
}
