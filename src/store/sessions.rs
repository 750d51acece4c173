//! The sessions list: each saved conversation's small header (what the list shows and
//! what a step rewrites), its title heuristic, search, and order. Pure, tested natively;
//! `store::idb` keeps the headers and the events in the browser's database.

use serde::{Deserialize, Serialize};

use crate::engine::case::Lower;
use crate::engine::lang::clip;
use crate::engine::order;
use crate::engine::session::{Body, Event, ModeKind, Role, Session};

use super::saved::{Journal, Start};

/// The database schema this build writes (`store::idb` upgrades older ones).
pub const SCHEMA: u32 = 2;
/// How long a title made from the first request may be, in characters.
pub const TITLE_CHARS: usize = 40;
/// How much of the user's words a header keeps for search, in characters.
const SEARCH_CHARS: usize = 2_000;
/// How much of the conversation's beginning the model that names it sees, in characters.
const OPENING_CHARS: usize = 600;

/// One saved conversation as the sessions list shows it. Rewritten by every step; the
/// events themselves are appended, never rewritten.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub id: String,
    /// The title shown: the user's own name for it, else made from the first request.
    pub title: String,
    /// True once the user renamed the conversation (the heuristic no longer applies).
    #[serde(default)]
    pub renamed: bool,
    /// True once the model named the conversation (the heuristic no longer applies; the
    /// user may still rename it).
    #[serde(default)]
    pub titled: bool,
    pub mode: ModeKind,
    /// Milliseconds since the epoch.
    pub created: u64,
    /// Milliseconds since the epoch, of the last step.
    pub last_used: u64,
    /// Messages in the conversation.
    pub messages: usize,
    /// Events saved: the next event's sequence number.
    pub events: u64,
    /// The schema the header was written with.
    pub schema: u32,
    /// How the conversation began (what its events are replayed from).
    pub start: Start,
    /// The user's words, clipped, for searching by content.
    #[serde(default)]
    pub text: String,
    /// The digest of the conversation's snapshot records, written with them
    /// (`snapshot::digest_of`); none in headers of builds before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl Header {
    /// The header of a session whose journal holds `journal.events` events; an earlier
    /// name the user gave is kept.
    pub fn of(session: &Session, journal: &Journal, previous: Option<&Header>, now: u64) -> Header {
        let renamed = previous.is_some_and(|h| h.renamed);
        let titled = previous.is_some_and(|h| h.titled);
        let title = match previous {
            Some(h) if h.renamed || h.titled => h.title.clone(),
            _ => title_of(journal),
        };
        Header {
            id: journal.start.id.clone(),
            title,
            renamed,
            titled,
            mode: session.mode_kind(),
            created: journal.start.created_at,
            last_used: now,
            messages: session.messages.iter().filter(|m| !matches!(m.body, Body::Streaming { .. })).count(),
            events: journal.events.len() as u64,
            schema: SCHEMA,
            start: journal.start.clone(),
            text: user_words(session),
            digest: None,
        }
    }

    /// True when the model may name the conversation: someone asked something, and
    /// neither the user nor the model named it yet.
    pub fn wants_model_title(&self) -> bool {
        !self.renamed && !self.titled && !self.title.is_empty()
    }

    /// How the conversation begins, for the model that names it: the user's words without
    /// commands, clipped.
    pub fn opening_words(&self) -> String {
        let words: Vec<&str> =
            self.text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('/')).collect();
        clip(&words.join("\n"), OPENING_CHARS)
    }

    /// True when `query` is in the title or in the user's words (case-insensitive); an
    /// empty query matches everything.
    pub fn matches(&self, query: &str) -> bool {
        let query = query.trim().lower();
        query.is_empty() || self.title.lower().contains(&query) || self.text.lower().contains(&query)
    }
}

/// A title from the first request: its first non-empty line, trimmed to `TITLE_CHARS`.
/// Commands (`/mode chat`) are not requests. Empty when the user has not written yet.
pub fn title_of(journal: &Journal) -> String {
    journal
        .events
        .iter()
        .find_map(|l| match &l.event {
            Event::UserMessage { text } if !text.trim_start().starts_with('/') => {
                text.lines().map(str::trim).find(|l| !l.is_empty())
            }
            _ => None,
        })
        .map(|line| clip(line, TITLE_CHARS))
        .unwrap_or_default()
}

fn user_words(session: &Session) -> String {
    let mut out = String::new();
    for m in session.messages.iter().filter(|m| m.role == Role::User) {
        if let Body::Text { text, .. } = &m.body {
            out.push_str(text);
            out.push('\n');
        }
        if out.chars().count() >= SEARCH_CHARS {
            return clip(&out, SEARCH_CHARS);
        }
    }
    out
}

/// The most recent `n` conversations the model may name, leaving out those already asked
/// for (`asked`, their ids).
pub fn to_name(headers: &[Header], asked: &[String], n: usize) -> Vec<Header> {
    let mut wanted: Vec<Header> =
        headers.iter().filter(|h| h.wants_model_title() && !asked.contains(&h.id)).cloned().collect();
    order::sort_by_key(&mut wanted, |h| u128::from(order::descending(h.last_used)));
    wanted.truncate(n);
    wanted
}

/// The headers matching `query`, grouped by mode (in the switch's order) and, in each
/// group, the most recently used first.
pub fn arrange(headers: &[Header], query: &str) -> Vec<(ModeKind, Vec<Header>)> {
    ModeKind::ALL
        .iter()
        .filter_map(|&mode| {
            let mut group: Vec<Header> =
                headers.iter().filter(|h| h.mode == mode && h.matches(query)).cloned().collect();
            // Ties in the order of their ids.
            let mut ids: Vec<String> = group.iter().map(|h| h.id.clone()).collect();
            order::sort_strings(&mut ids);
            let rank = |id: &str| ids.binary_search_by(|i| i.as_str().cmp(id)).unwrap_or(0) as u64;
            order::sort_by_key(&mut group, |h| order::pair(order::descending(h.last_used), rank(&h.id)));
            (!group.is_empty()).then_some((mode, group))
        })
        .collect()
}

/// The conversation to open on load: the most recently used one.
pub fn most_recent(headers: &[Header]) -> Option<&Header> {
    headers.iter().max_by_key(|h| h.last_used)
}

/// What a tab does when another tab wrote the conversation it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// Nothing new to show, or stored less than this tab saw (deleted, or put back).
    Nothing,
    /// The same steps, a new header (a rename): take the stored header.
    Header,
    /// Steps this tab has not seen, and nothing of its own at stake: open it again.
    Reopen,
    /// Steps this tab has not seen while it has its own (unsaved, or a call or write in
    /// flight): it keeps them, and its next write is refused as stale and says so.
    Keep,
}

/// What a tab that saved `saved` events of a conversation does when the database holds
/// `stored` of them after another tab's write; `busy`: it has a step of its own at stake.
pub fn follow(stored: u64, saved: u64, busy: bool) -> Follow {
    match (stored.cmp(&saved), busy) {
        (std::cmp::Ordering::Equal, _) => Follow::Header,
        (std::cmp::Ordering::Greater, false) => Follow::Reopen,
        (std::cmp::Ordering::Greater, true) => Follow::Keep,
        (std::cmp::Ordering::Less, _) => Follow::Nothing,
    }
}

/// Every conversation at once: the file "export all" writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// The format version (that of the journals inside).
    pub version: u64,
    pub sessions: Vec<Journal>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lang::Lang;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn played(id: &str, texts: &[&str]) -> (Session, Journal) {
        crate::scenario::played(id, Lang::Ko, texts.iter().map(|t| Event::UserMessage { text: (*t).into() }))
    }

    #[test]
    fn a_tab_follows_another_tabs_steps_only_with_nothing_of_its_own_at_stake() {
        assert_eq!(follow(5, 3, false), Follow::Reopen, "behind and idle: shows the other tab's steps");
        assert_eq!(follow(5, 3, true), Follow::Keep, "behind with its own step at stake: keeps it");
        assert_eq!(follow(3, 3, false), Follow::Header, "a rename elsewhere: the same steps");
        assert_eq!(follow(3, 3, true), Follow::Header);
        assert_eq!(follow(0, 3, false), Follow::Nothing, "deleted elsewhere: nothing is dropped here");
    }

    #[test]
    fn titles_come_from_the_first_line_of_the_first_request() {
        let long = "매일 아침 IT 뉴스를 요약해서 마크다운으로 정리해 주는 파이프라인을 만들어줘 제발 부탁해요";
        for (texts, title) in [
            (vec![], ""),
            (vec!["\n  첫 줄 요청  \n둘째 줄"], "첫 줄 요청"),
            (vec!["Plan a trip", "second"], "Plan a trip"),
            (vec!["/mode chat", "How do I clean the build folder?"], "How do I clean the build folder?"),
            (vec!["/mode counseling"], ""),
            (vec![long], "매일 아침 IT 뉴스를 요약해서 마크다운으로 정리해 주는 파이프라인을…"),
        ] {
            let (_, journal) = played("s", &texts);
            let got = title_of(&journal);
            assert_eq!(got, title, "{texts:?}");
            assert!(got.chars().count() <= TITLE_CHARS);
        }
    }

    #[test]
    fn a_header_counts_what_was_saved_and_keeps_a_rename() {
        let (session, journal) = played("s1", &["IT 뉴스 요약 파이프라인을 만들어줘", "비용을 줄여 주세요"]);
        let header = Header::of(&session, &journal, None, 9_000);
        assert_eq!((header.id.as_str(), header.events, header.last_used), ("s1", 2, 9_000));
        assert_eq!(header.title, "IT 뉴스 요약 파이프라인을 만들어줘");
        assert!(header.messages >= 2);
        let renamed = Header { title: "내 이름".into(), renamed: true, ..header.clone() };
        let next = Header::of(&session, &journal, Some(&renamed), 9_500);
        assert_eq!((next.title.as_str(), next.renamed), ("내 이름", true));
        let not_renamed = Header::of(&session, &journal, Some(&header), 9_500);
        assert_eq!(not_renamed.title, header.title);
        let json = serde_json::to_string(&header).unwrap();
        assert_eq!(serde_json::from_str::<Header>(&json).unwrap(), header);
    }

    #[test]
    fn a_model_title_stays_until_the_user_renames_and_is_asked_for_once() {
        let (session, journal) =
            played("s1", &["/mode chat", "IT 뉴스 요약 파이프라인을 만들어줘", "비용을 줄여 주세요"]);
        let header = Header::of(&session, &journal, None, 1);
        assert!(header.wants_model_title(), "a request and no name yet");
        assert_eq!(
            header.opening_words(),
            "IT 뉴스 요약 파이프라인을 만들어줘\n비용을 줄여 주세요",
            "commands left out"
        );
        let named = Header { title: "IT 뉴스 요약".into(), titled: true, ..header.clone() };
        let next = Header::of(&session, &journal, Some(&named), 2);
        assert_eq!((next.title.as_str(), next.titled, next.renamed), ("IT 뉴스 요약", true, false));
        assert!(!next.wants_model_title(), "named once");
        let renamed = Header { title: "내 이름".into(), renamed: true, ..next };
        assert!(!renamed.wants_model_title());
        let (empty_session, empty_journal) = played("s2", &["/mode counseling"]);
        assert!(!Header::of(&empty_session, &empty_journal, None, 1).wants_model_title(), "nothing asked yet");
        // Headers written before model titles existed read as not titled.
        let mut old = serde_json::to_value(&header).unwrap();
        old.as_object_mut().unwrap().remove("titled");
        assert!(!serde_json::from_value::<Header>(old).unwrap().titled);
    }

    #[test]
    fn the_model_is_asked_to_name_the_most_recent_unnamed_ones_not_asked_yet() {
        let (session, journal) = played("s", &["Plan a trip"]);
        let header =
            |id: &str, used: u64| Header { id: id.into(), last_used: used, ..Header::of(&session, &journal, None, 0) };
        let headers = vec![
            header("old", 1),
            header("new", 9),
            Header { renamed: true, ..header("renamed", 8) },
            Header { titled: true, ..header("titled", 7) },
            header("asked", 6),
            header("mid", 5),
        ];
        let ids = |hs: Vec<Header>| hs.into_iter().map(|h| h.id).collect::<Vec<_>>();
        assert_eq!(ids(to_name(&headers, &["asked".into()], 2)), ["new", "mid"]);
        assert_eq!(ids(to_name(&headers, &["asked".into()], 9)), ["new", "mid", "old"]);
    }

    #[test]
    fn search_reads_titles_and_content_case_insensitively() {
        let (session, journal) = played("s1", &["Plan a trip to Busan", "Budget is small, maybe KTX"]);
        let header = Header::of(&session, &journal, None, 1);
        for (query, hit) in
            [("", true), ("busan", true), ("ktx", true), ("  TRIP ", true), ("seoul", false), ("budget is big", false)]
        {
            assert_eq!(header.matches(query), hit, "{query}");
        }
    }

    #[test]
    fn the_list_is_grouped_by_mode_and_sorted_by_last_use() {
        let (session, journal) = played("a", &["one"]);
        let base = Header::of(&session, &journal, None, 1);
        let h = |id: &str, mode, last_used, title: &str| Header {
            id: id.into(),
            mode,
            last_used,
            title: title.into(),
            ..base.clone()
        };
        let headers = vec![
            h("a", ModeKind::Discussion, 10, "alpha"),
            h("b", ModeKind::Chat, 30, "beta"),
            h("c", ModeKind::Discussion, 20, "gamma"),
            h("d", ModeKind::Counseling, 5, "delta"),
        ];
        let ids = |groups: Vec<(ModeKind, Vec<Header>)>| -> Vec<(ModeKind, Vec<String>)> {
            groups.into_iter().map(|(m, g)| (m, g.into_iter().map(|h| h.id).collect())).collect()
        };
        assert_eq!(
            ids(arrange(&headers, "")),
            vec![
                (ModeKind::Discussion, vec!["c".to_string(), "a".to_string()]),
                (ModeKind::Chat, vec!["b".to_string()]),
                (ModeKind::Counseling, vec!["d".to_string()]),
            ]
        );
        assert_eq!(
            ids(arrange(&headers, "ta")),
            vec![(ModeKind::Chat, vec!["b".to_string()]), (ModeKind::Counseling, vec!["d".to_string()])]
        );
        assert_eq!(most_recent(&headers).map(|h| h.id.as_str()), Some("b"));
        assert_eq!(most_recent(&[]), None);
    }
}
