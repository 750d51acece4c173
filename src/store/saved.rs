//! The saved form of a session: versioned JSON, read back without trusting it.
//!
//! A session is written after every engine step and read when the page opens, so a
//! reload resumes the conversation exactly where it was. What cannot be read is never
//! thrown away: the caller keeps the text aside and starts a new session.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::lang::Lang;
use crate::engine::session::Session;

/// The format version this build writes. A reader refuses newer versions rather than
/// misread them.
pub const VERSION: u64 = 1;

#[derive(Serialize)]
struct SavedRef<'a> {
    version: u64,
    session: &'a Session,
}

#[derive(Deserialize)]
struct Saved {
    session: Session,
}

/// Why saved text could not be read back into a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Not JSON at all (cut short, or overwritten by something else).
    NotJson,
    /// Written by a newer Deliberate than this one.
    NewerVersion { found: u64 },
    /// JSON, but not a session this build understands.
    Malformed { detail: String },
}

impl DecodeError {
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

/// The session as saved text.
pub fn encode(session: &Session) -> Result<String, String> {
    serde_json::to_string(&SavedRef { version: VERSION, session }).map_err(|e| e.to_string())
}

/// The session in saved text.
pub fn decode(text: &str) -> Result<Session, DecodeError> {
    let value: Value = serde_json::from_str(text).map_err(|_| DecodeError::NotJson)?;
    match value.get("version").and_then(Value::as_u64) {
        Some(found) if found > VERSION => return Err(DecodeError::NewerVersion { found }),
        Some(_) => {}
        None => return Err(DecodeError::Malformed { detail: "no format version".into() }),
    }
    serde_json::from_value::<Saved>(value)
        .map(|saved| saved.session)
        .map_err(|e| DecodeError::Malformed { detail: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::session::{Env, Event, Settings};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn worked_session() -> Session {
        let mut s = Session::new("s1", Lang::Ko, Settings::default(), 1_000);
        let env = Env::offline(2_000);
        s.step(
            Event::UserMessage {
                text: "매일 아침 IT 뉴스를 요약해 주는 파이프라인을 마크다운으로 만들어줘".into()
            },
            &env,
        );
        s
    }

    #[test]
    fn a_session_comes_back_exactly() {
        let session = worked_session();
        assert!(session.messages.len() > 2, "the session has content to lose");
        let text = encode(&session).expect("encodes");
        assert!(text.starts_with(r#"{"version":1,"#));
        assert_eq!(decode(&text), Ok(session));
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        assert_eq!(decode(""), Err(DecodeError::NotJson));
        assert_eq!(decode(r#"{"version":1,"session":{"id":"s1""#), Err(DecodeError::NotJson));
        assert_eq!(decode(r#"{"version":7,"session":{}}"#), Err(DecodeError::NewerVersion { found: 7 }));
        assert!(matches!(decode(r#"{"session":{}}"#), Err(DecodeError::Malformed { .. })));
        assert!(matches!(decode(r#"{"version":1,"session":{"id":"s1"}}"#), Err(DecodeError::Malformed { .. })));
        assert!(matches!(decode("[1,2]"), Err(DecodeError::Malformed { .. })));
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
