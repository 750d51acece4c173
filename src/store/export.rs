//! Export and import of a conversation: JSON (the versioned journal of every step, from
//! which the session is replayed exactly; never a key) and Markdown (what a person reads:
//! the contract, designs, critique, decision and plan, or the transcript).

use crate::engine::session::{AppArtifact, Artifact, Body, Role, Session};

use super::saved::{DecodeError, Journal, VERSION};
use super::sessions::Bundle;
use super::settings::LlmSettings;
use crate::llm::error::redact_secrets;

/// The conversation as a JSON file: its journal, and the snapshot of `session`, what it
/// shows (`store::snapshot`).
pub fn export_json(journal: &Journal, session: &Session) -> Result<String, String> {
    let mut journal = journal.clone();
    journal.shown = super::snapshot::records_of(session);
    journal.encode()
}

/// Every conversation as one JSON file ("export all").
pub fn export_all_json(sessions: Vec<Journal>) -> Result<String, String> {
    serde_json::to_string(&Bundle { version: VERSION, sessions }).map_err(|e| e.to_string())
}

/// What an imported file holds: one conversation, or every one ("export all").
#[derive(Debug, PartialEq)]
pub enum Imported {
    One(Journal),
    All(Vec<Journal>),
}

/// A file of one conversation or of all of them: validated (each conversation as
/// `import_json` does; a newer or broken one refuses the whole file, nothing changes).
pub fn import_any(text: &str) -> Result<Imported, DecodeError> {
    let text = text.trim_start_matches('\u{feff}');
    #[derive(serde::Deserialize)]
    struct Shape {
        sessions: Option<Vec<serde::de::IgnoredAny>>,
    }
    let is_bundle = serde_json::from_str::<Shape>(text).is_ok_and(|s| s.sessions.is_some());
    if !is_bundle {
        return Journal::decode(text).map(Imported::One);
    }
    // The bundle's version and each conversation's, read first so a newer one is named.
    #[derive(serde::Deserialize)]
    struct Versions {
        version: Option<u64>,
        sessions: Vec<super::saved::VersionOnly>,
    }
    let versions =
        serde_json::from_str::<Versions>(text).map_err(|e| DecodeError::Malformed { detail: e.to_string() })?;
    let newest = versions.sessions.iter().map(|s| s.version).chain([versions.version]);
    for version in newest {
        match version {
            Some(found) if found > VERSION => return Err(DecodeError::NewerVersion { found }),
            Some(_) => {}
            None => return Err(DecodeError::Malformed { detail: "no format version".into() }),
        }
    }
    let journals =
        serde_json::from_str::<Bundle>(text).map_err(|e| DecodeError::Malformed { detail: e.to_string() })?.sessions;
    Ok(Imported::All(journals))
}

/// An export with every key from the settings masked: the last guard before a file leaves
/// the page. Keys never reach the journal (the transport masks echoed keys in failures), but
/// a user may paste one into a message, and an older saved conversation may hold one.
pub fn without_keys(text: &str, settings: &LlmSettings) -> String {
    [settings.designer.key.as_str(), settings.critic.key.as_str()]
        .into_iter()
        .fold(text.to_string(), |out, key| redact_secrets(&out, Some(key)))
}

/// A conversation from a JSON file: validated and replayed. A file that is not a
/// conversation, is cut short, or comes from a newer Deliberate is refused with the
/// reason, and nothing changes.
pub fn import_json(text: &str) -> Result<(Session, Journal), DecodeError> {
    let journal = Journal::decode(text.trim_start_matches('\u{feff}'))?;
    // What the export showed, where this build replays it otherwise (and can read it).
    let session = super::snapshot::open(journal.replay(), &journal.shown).session();
    Ok((session, journal))
}

/// The conversation as Markdown, in the session's language.
pub fn export_markdown(session: &Session) -> String {
    let lang = session.lang;
    let mut out = String::new();
    let title = if session.title.is_empty() { "Deliberate".to_string() } else { session.title.clone() };
    out.push_str(&format!("# {title}\n\n"));
    if let Some(d) = session.discussion() {
        if let Some(c) = &d.contract {
            out.push_str(&format!("## {}\n\n", lang.pick("요구사항 계약", "Requirement contract")));
            out.push_str(&format!("- **{}:** {}\n", lang.pick("요청", "Request"), c.original_request));
            out.push_str(&format!("- **{}:** {}\n", lang.pick("목표", "Goal"), c.goal));
            out.push_str(&format!("- **{}:** {}\n", lang.pick("형식", "Format"), c.format));
            if !c.criteria.is_empty() {
                out.push_str(&format!("- **{}:** {}\n", lang.pick("기준", "Criteria"), c.criteria.join("; ")));
            }
            if !c.assumptions.is_empty() {
                out.push_str(&format!("- **{}:** {}\n", lang.pick("가정", "Assumptions"), c.assumptions.join("; ")));
            }
            out.push('\n');
        }
        if !d.designs.is_empty() {
            out.push_str(&format!("## {}\n\n", lang.pick("설계안", "Designs")));
            for (i, design) in d.designs.iter().enumerate() {
                out.push_str(&format!("### {}. {}\n\n{}\n\n", i + 1, design.name, design.description));
                if !design.pros.is_empty() {
                    out.push_str(&format!("- **{}:** {}\n", lang.pick("장점", "Pros"), design.pros.join("; ")));
                }
                if !design.cons.is_empty() {
                    out.push_str(&format!("- **{}:** {}\n", lang.pick("단점", "Cons"), design.cons.join("; ")));
                }
                if let Some(Some(r)) = d.critiques.get(i) {
                    out.push_str(&format!(
                        "- **{}:** {}/100 — {}\n",
                        lang.pick("비판 점수", "Critique score"),
                        (r.critique.overall_score * 100.0).round() as u32,
                        r.critique.recommendation
                    ));
                }
                out.push('\n');
            }
        }
        if let Some(chosen) = &d.selected_design {
            out.push_str(&format!("## {}\n\n{}\n\n", lang.pick("결정", "Decision"), chosen.name));
        }
        if let Some(plan) = &d.plan {
            out.push_str(&format!("## {}\n\n{}\n\n", lang.pick("계획", "Plan"), plan.markdown.trim()));
        }
    }
    out.push_str(&format!("## {}\n\n", lang.pick("대화", "Conversation")));
    for m in &session.messages {
        let who = match m.role {
            Role::User => lang.pick("사용자", "User"),
            Role::Assistant => "Deliberate",
        };
        let text = match &m.body {
            Body::Text { text, .. } | Body::Notice { text } => text.clone(),
            Body::Clarification { card } => {
                card.questions.iter().map(|q| q.text.clone()).collect::<Vec<_>>().join(" / ")
            }
            Body::Artifact { artifact: AppArtifact::Discussion(Artifact::DesignsPresented { designs, .. }) } => {
                designs.iter().map(|d| d.name.clone()).collect::<Vec<_>>().join(", ")
            }
            Body::Artifact { artifact: AppArtifact::Discussion(Artifact::PlanGenerated { .. }) } => {
                lang.pick("(계획)", "(the plan)").to_string()
            }
            _ => continue,
        };
        out.push_str(&format!("**{who}:** {}\n\n", text.trim()));
    }
    out
}

/// A file name for an export: the title's words, then the extension.
pub fn file_name(session: &Session, extension: &str) -> String {
    let stem: String = session
        .title
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|w| !w.is_empty())
        .take(6)
        .collect::<Vec<_>>()
        .join("-");
    let stem = if stem.is_empty() { "deliberate".to_string() } else { stem };
    format!("{stem}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lang::Lang;
    use crate::engine::session::{Env, Event, Settings};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn played() -> (Session, Journal) {
        let mut session = Session::new("s1", Lang::Ko, Settings::default(), 1_000);
        let mut journal = Journal::begin(&session);
        for (i, text) in ["매일 아침 IT 뉴스를 요약해서 마크다운으로 정리해줘", "비용을 더 줄여 주세요", "2번이 좋아요"]
            .into_iter()
            .enumerate()
        {
            let event = Event::UserMessage { text: text.into() };
            let env = Env::offline(2_000 + i as u64);
            journal.record(&event, &env);
            session.step(event, &env);
        }
        (session, journal)
    }

    #[test]
    fn export_then_import_gives_an_equal_session() {
        let (session, journal) = played();
        let text = export_json(&journal, &session).unwrap();
        let (back, back_journal) = import_json(&text).expect("imports");
        assert_eq!(back, session);
        assert_eq!(back_journal.events, journal.events);
        assert_eq!(back_journal.shown, super::super::snapshot::records_of(&session), "with its snapshot");
    }

    /// A conversation an earlier build showed otherwise than this one replays it: the export
    /// carries what it showed, and the import gives that back.
    #[test]
    fn an_export_of_what_an_earlier_build_showed_imports_as_it_was_shown() {
        let (session, journal) = played();
        let mut shown = session.clone();
        shown.notice("read otherwise by an earlier build", 9_000);
        let (back, _) = import_json(&export_json(&journal, &shown).unwrap()).expect("imports");
        assert_ne!(back, session, "not the replay");
        assert_eq!(back.messages, shown.messages);
        assert_eq!(back.mode, shown.mode);
    }

    #[test]
    fn export_all_then_import_gives_every_session_back() {
        let (first_session, first) = played();
        let mut second = first.clone();
        second.start.id = "s2".into();
        second.events.truncate(1);
        let text = export_all_json(vec![first.clone(), second.clone()]).unwrap();
        assert!(text.starts_with(r#"{"version":1,"sessions":["#));
        assert_eq!(import_any(&text).unwrap(), Imported::All(vec![first.clone(), second.clone()]));
        // One conversation's file still imports as one.
        let one = export_json(&first, &first_session).unwrap();
        let shown = super::super::snapshot::records_of(&first_session);
        assert_eq!(import_any(&one), Ok(Imported::One(Journal { shown, ..first.clone() })));
        // A newer bundle, or a newer or broken conversation inside one, refuses the file.
        let newer = text.replacen("\"version\":1", "\"version\":9", 1);
        assert_eq!(import_any(&newer).unwrap_err(), DecodeError::NewerVersion { found: 9 });
        let newer_inside = text.replacen("{\"version\":1,\"start\"", "{\"version\":5,\"start\"", 1);
        assert_eq!(import_any(&newer_inside).unwrap_err(), DecodeError::NewerVersion { found: 5 });
        assert!(matches!(
            import_any(r#"{"version":1,"sessions":[{"version":1}]}"#),
            Err(DecodeError::Malformed { .. })
        ));
        let cut: String = text.chars().take(text.chars().count() / 2).collect();
        assert_eq!(import_any(&cut).unwrap_err(), DecodeError::NotJson);
        assert_eq!(import_any(r#"{"version":1,"sessions":[]}"#).unwrap(), Imported::All(vec![]));
    }

    #[test]
    fn corrupt_truncated_and_newer_files_are_refused() {
        let (session, journal) = played();
        let text = export_json(&journal, &session).unwrap();
        let cut: String = text.chars().take(text.chars().count() / 2).collect();
        assert_eq!(import_json(&cut).unwrap_err(), DecodeError::NotJson);
        assert_eq!(import_json("not json at all").unwrap_err(), DecodeError::NotJson);
        let newer = text.replacen("\"version\":1", "\"version\":99", 1);
        assert_eq!(import_json(&newer).unwrap_err(), DecodeError::NewerVersion { found: 99 });
        assert!(matches!(import_json("{\"version\":1}"), Err(DecodeError::Malformed { .. })));
    }

    /// A session whose LLM settings hold keys, with a failure from a server that echoed the
    /// key (as if nothing had masked it before), a message quoting a key, and a key-looking token.
    #[test]
    fn exports_hold_no_key_from_the_settings() {
        use crate::engine::call::{CallId, FailureKind, LlmFailure, LlmOutcome};
        use crate::engine::session::Effect;
        use crate::store::settings::Endpoint;
        let designer_key = "designer-secret-7f3a91";
        let critic_key = "critic-secret-42c8e0";
        let settings = LlmSettings {
            enabled: true,
            designer: Endpoint { key: designer_key.into(), ..Endpoint::default() },
            separate_critic: true,
            critic: Endpoint { key: critic_key.into(), ..Endpoint::default() },
            ..LlmSettings::default()
        };

        let mut session = Session::new("s1", Lang::En, Settings::default(), 1_000);
        let mut journal = Journal::begin(&session);
        let ask = Event::UserMessage {
            text: format!("Build a daily IT news digest as a Markdown document; my key is {designer_key}"),
        };
        let env = Env::online(2_000);
        journal.record(&ask, &env);
        let call: CallId = session
            .step(ask, &env)
            .into_iter()
            .find_map(|fx| match fx {
                Effect::CallLlm(c) => Some(c.id),
                _ => None,
            })
            .expect("the request starts an LLM call");
        let failed = Event::LlmResult {
            call,
            outcome: LlmOutcome::Failed(LlmFailure {
                kind: FailureKind::Auth,
                detail: format!("Incorrect API key provided: {critic_key} (sk-proj-Abc123Def456Ghi789Jkl)"),
                status: Some(401),
                partial: None,
            }),
        };
        let env = Env::online(3_000);
        journal.record(&failed, &env);
        session.step(failed, &env);
        let json = export_json(&journal, &session).unwrap();
        assert!(json.contains(designer_key), "the journal itself holds what the user typed");
        for (name, text) in
            [("json", without_keys(&json, &settings)), ("md", without_keys(&export_markdown(&session), &settings))]
        {
            for secret in [designer_key, critic_key, "sk-proj-Abc123Def456Ghi789Jkl"] {
                assert!(!text.contains(secret), "{name} export holds {secret}:\n{text}");
            }
        }
        // Masking a key keeps the file a conversation that imports.
        assert!(import_json(&without_keys(&json, &settings)).is_ok());
        // No keys set: only the key-looking token is masked.
        assert_eq!(without_keys(&json, &LlmSettings::default()), json.replace("sk-proj-Abc123Def456Ghi789Jkl", "••••"));
    }

    #[test]
    fn markdown_has_the_contract_designs_decision_and_plan() {
        let (session, _) = played();
        let md = export_markdown(&session);
        for part in ["## 요구사항 계약", "## 설계안", "## 결정", "## 계획", "## 대화", "비판 점수"] {
            assert!(md.contains(part), "{part} missing in\n{md}");
        }
        assert!(file_name(&session, "md").ends_with(".md"));
        assert!(!file_name(&session, "json").contains(' '));
    }
}
