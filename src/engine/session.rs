//! The app's session: the conversation core with the app's modes plugged in. The mode
//! switch lives here; each mode lives in its own module.

use serde::{Deserialize, Serialize};

use super::call::Purpose;
use super::chat::{Chat, ChatAction, ChatArtifact};
use super::core::{self, CardId, Conversation, Effects, Endpoint, Mode};
use super::counsel::flow::CounselMode;
use super::critique::Critique;
use super::discussion::{Discussion, DiscussionAction, DiscussionArtifact};
use super::lang::Lang;
use super::source::Source;
use super::state_machine::Stage;

pub use super::core::{
    CallKind, CardKind, Endpoint as LlmEndpoint, Env, MessageId, Question, QuestionCard, ResponseType, Role, Target,
    Waiting, MAX_OPTIONS,
};
pub use super::discussion::DiscussionArtifact as Artifact;

/// The app's session.
pub type Session = core::Session<AppMode>;
/// A message of the app's session.
pub type Message = core::Message<AppMode>;
/// What an app message shows.
pub type Body = core::Body<AppMode>;
/// The app engine's input.
pub type Event = core::Event<AppMode>;
/// The app engine's output.
pub type Effect = core::Effect<AppMode>;
/// An LLM request of the app.
pub type LlmCall = core::LlmCall<AppMode>;
/// An LLM call of the app in flight.
pub type Pending = core::Pending<AppMode>;
/// A finished LLM call of the app.
pub type CallRecord = core::CallRecord<AppMode>;

/// Per-session knobs: the ones every mode shares, then each mode's own. Counseling has none
/// of its own (seed 004 fixes its cadence).
///
/// Stored flat, as earlier builds wrote them (`{"max_rounds":5,...,"chat_max_turns":20}`), so
/// saved settings and journals keep reading.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "WireSettings", into = "WireSettings")]
pub struct Settings {
    /// Knobs every mode uses.
    pub common: CommonSettings,
    /// The discussion's knobs.
    pub discussion: DiscussionSettings,
    /// The chat's knobs.
    pub chat: ChatSettings,
}

/// Knobs every mode uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommonSettings {
    /// The model's context window in tokens; None uses the server's or the default.
    pub context_window: Option<u32>,
}

/// The discussion's knobs (seeds 000 and 003).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscussionSettings {
    /// Refine rounds before a decision is forced (seed 000; default 5).
    pub max_rounds: u32,
    /// Alignment rounds in UNDERSTAND (seed 003; default 3, clamped to 1..=5).
    pub alignment_rounds: u32,
    /// At the alignment limit: strict shows a confirmation card, smart proceeds.
    pub strict: bool,
}

impl Default for DiscussionSettings {
    fn default() -> Self {
        DiscussionSettings { max_rounds: super::state_machine::DEFAULT_MAX_ROUNDS, alignment_rounds: 3, strict: false }
    }
}

impl DiscussionSettings {
    /// Alignment rounds clamped to 1..=5, as seed 003 requires.
    pub fn alignment_limit(&self) -> u32 {
        self.alignment_rounds.clamp(1, 5)
    }
}

/// The chat's knobs (seed 001).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatSettings {
    /// Model turns one request may take (default 20).
    pub max_turns: u32,
}

impl Default for ChatSettings {
    fn default() -> Self {
        ChatSettings { max_turns: super::chat::agent::DEFAULT_MAX_TURNS }
    }
}

/// The stored form of the settings: flat, with the defaults of fields older builds lacked.
#[derive(Serialize, Deserialize)]
struct WireSettings {
    max_rounds: u32,
    alignment_rounds: u32,
    strict: bool,
    #[serde(default = "default_chat_max_turns")]
    chat_max_turns: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    context_window: Option<u32>,
}

fn default_chat_max_turns() -> u32 {
    super::chat::agent::DEFAULT_MAX_TURNS
}

impl From<WireSettings> for Settings {
    fn from(w: WireSettings) -> Self {
        Settings {
            common: CommonSettings { context_window: w.context_window },
            discussion: DiscussionSettings {
                max_rounds: w.max_rounds,
                alignment_rounds: w.alignment_rounds,
                strict: w.strict,
            },
            chat: ChatSettings { max_turns: w.chat_max_turns },
        }
    }
}

impl From<Settings> for WireSettings {
    fn from(s: Settings) -> Self {
        WireSettings {
            max_rounds: s.discussion.max_rounds,
            alignment_rounds: s.discussion.alignment_rounds,
            strict: s.discussion.strict,
            chat_max_turns: s.chat.max_turns,
            context_window: s.common.context_window,
        }
    }
}

/// The modes a session can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModeKind {
    /// Talk a request into an agreed plan (seed 000 with 002 and 003).
    #[default]
    Discussion,
    /// The agent loop of seed 001.
    Chat,
    /// Part–Task–Module counseling (seed 004).
    Counseling,
}

crate::engine::named::by_name!(ModeKind { Discussion = "discussion", Chat = "chat", Counseling = "counseling" });

impl ModeKind {
    /// Every mode, in the order the switch shows them.
    pub const ALL: [ModeKind; 3] = [ModeKind::Discussion, ModeKind::Chat, ModeKind::Counseling];

    /// The mode's name in the UI language.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            ModeKind::Discussion => lang.pick("논의", "Discussion"),
            ModeKind::Chat => lang.pick("채팅", "Chat"),
            ModeKind::Counseling => lang.pick("상담", "Counseling"),
        }
    }

    /// Reads a mode name as typed after `/mode` (either language).
    pub fn parse(word: &str) -> Option<ModeKind> {
        match word.trim().to_ascii_lowercase().as_str() {
            "discussion" | "discuss" | "논의" | "토론" => Some(ModeKind::Discussion),
            "chat" | "채팅" | "대화" => Some(ModeKind::Chat),
            "counseling" | "counselling" | "counsel" | "상담" => Some(ModeKind::Counseling),
            _ => None,
        }
    }

    /// True once the mode has landed in this build.
    pub fn available(self) -> bool {
        matches!(self, ModeKind::Discussion | ModeKind::Chat | ModeKind::Counseling)
    }
}

/// The state of the session's current mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
// One value per session, replaced only on a mode switch: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum AppMode {
    Discussion(Discussion),
    Chat(Chat),
    /// Seed 004's counseling.
    Counseling(CounselMode),
}

/// Message bodies only one mode shows; a discussion artifact reads as before (untagged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AppArtifact {
    /// The chat's command cards.
    Chat(ChatArtifact),
    /// Designs, critiques and the plan.
    Discussion(DiscussionArtifact),
}

impl AppArtifact {
    /// The discussion's artifact, if this is one.
    pub fn discussion(&self) -> Option<&DiscussionArtifact> {
        match self {
            AppArtifact::Discussion(a) => Some(a),
            AppArtifact::Chat(_) => None,
        }
    }
}

impl From<DiscussionArtifact> for AppArtifact {
    fn from(a: DiscussionArtifact) -> Self {
        AppArtifact::Discussion(a)
    }
}

/// User events that belong to a mode, or switch modes. Stored externally tagged, the
/// discussion's actions untagged (as the first builds wrote them); read by tag, like `Event`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", remote = "Self")]
pub enum AppAction {
    /// Switch the session to another mode.
    SwitchMode { to: ModeKind },
    /// An event of the chat.
    Chat(ChatAction),
    /// An event of the discussion, stored in its own form (untagged here).
    #[serde(skip)]
    Discussion(DiscussionAction),
}

impl Serialize for AppAction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            AppAction::Discussion(action) => action.serialize(serializer),
            action => AppAction::serialize(action, serializer),
        }
    }
}

impl<'de> Deserialize<'de> for AppAction {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_enum("AppAction", &["switch_mode", "chat", "choose_design"], ActionVisitor)
    }
}

/// Reads an action by its tag: switching modes and the chat's own, else the discussion's.
struct ActionVisitor;

impl<'de> serde::de::Visitor<'de> for ActionVisitor {
    type Value = AppAction;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a mode's action")
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<AppAction, A::Error> {
        use super::tagged::Resumed;
        let (tag, value) = data.variant::<String>()?;
        let resumed = Resumed { tag: &tag, value };
        match tag.as_str() {
            "switch_mode" | "chat" => AppAction::deserialize(resumed),
            _ => DiscussionAction::deserialize(resumed).map(AppAction::Discussion),
        }
    }
}

impl core::Artifact for AppArtifact {
    fn response_type(&self) -> Option<ResponseType> {
        Some(match self.discussion()? {
            DiscussionArtifact::DesignsPresented { .. } => ResponseType::DesignsPresented,
            DiscussionArtifact::CritiqueComplete { .. } => ResponseType::CritiqueComplete,
            DiscussionArtifact::PlanGenerated { .. } => ResponseType::PlanGenerated,
        })
    }
}

impl Mode for AppMode {
    type Purpose = Purpose;
    type Action = AppAction;
    type Artifact = AppArtifact;
    type Settings = Settings;

    fn new(settings: &Settings) -> Self {
        AppMode::Discussion(Discussion::new(settings.discussion.max_rounds))
    }

    fn endpoint(purpose: Purpose) -> Endpoint {
        purpose.endpoint()
    }

    fn on_message(&mut self, c: &mut Conversation<Self>, text: &str, env: &Env, fx: &mut Effects<Self>) {
        if let Some(rest) = text.trim().strip_prefix("/mode") {
            self.switch_from_command(c, rest, env);
            return;
        }
        // "I want to end my life" said in the chat or the discussion: the crisis lines at once, as
        // the counseling mode answers it (that mode reads every message itself), and no task or
        // model call is made of it. A task about crisis content ("flag suicidal posts") is a task.
        if !matches!(self, AppMode::Counseling(_)) {
            if let Some(found) = super::counsel::crisis::detect_in_task(text) {
                let note = c.lang.pick(
                    "(지금은 작업을 돕는 모드예요. `/mode counseling`을 입력하면 이야기를 나누는 데 맞춘 상담 모드로 바뀌어요.)",
                    "(This mode is for tasks. Typing `/mode counseling` switches to the counseling mode, a conversation partner made for talking things through.)",
                );
                let text = format!("{}\n\n{note}", found.kind.response(c.lang));
                let source = c.heuristic();
                c.say(Body::Text { text, source: Some(source) }, env.now);
                return;
            }
        }
        match self {
            AppMode::Discussion(d) => d.on_message(c, text, env, fx),
            AppMode::Chat(chat) => chat.on_message(c, text, env, fx),
            AppMode::Counseling(m) => m.on_message(c, text, env, fx),
        }
    }

    fn on_empty_message(&mut self, c: &mut Conversation<Self>, env: &Env) {
        match self {
            AppMode::Discussion(d) => d.on_empty_message(c, env),
            AppMode::Chat(_) | AppMode::Counseling(_) => {}
        }
    }

    fn on_answer(
        &mut self,
        c: &mut Conversation<Self>,
        card: CardId,
        answers: Vec<String>,
        env: &Env,
        fx: &mut Effects<Self>,
    ) {
        match self {
            AppMode::Discussion(d) => d.on_answer(c, card, answers, env, fx),
            AppMode::Chat(chat) => chat.on_answer(c, card, answers, env, fx),
            // Counseling posts no cards.
            AppMode::Counseling(_) => {}
        }
    }

    fn on_action(&mut self, c: &mut Conversation<Self>, action: AppAction, env: &Env, fx: &mut Effects<Self>) {
        match (self, action) {
            (mode, AppAction::SwitchMode { to }) => mode.switch(c, to, env),
            (AppMode::Discussion(d), AppAction::Discussion(action)) => d.on_action(c, action, env, fx),
            (AppMode::Chat(chat), AppAction::Chat(action)) => chat.on_action(c, action, env, fx),
            (_, AppAction::Discussion(_) | AppAction::Chat(_)) => {}
        }
    }

    fn on_result(&mut self, c: &mut Conversation<Self>, done: core::Settled<Self>, env: &Env, fx: &mut Effects<Self>) {
        match self {
            AppMode::Discussion(d) => d.on_result(c, done, env, fx),
            AppMode::Chat(chat) => chat.on_result(c, done, env, fx),
            AppMode::Counseling(m) => m.on_result(c, done, env, fx),
        }
    }

    fn advance(&mut self, c: &mut Conversation<Self>, env: &Env, fx: &mut Effects<Self>) {
        match self {
            AppMode::Discussion(d) => d.advance(c, env, fx),
            AppMode::Chat(chat) => chat.advance(c, env, fx),
            AppMode::Counseling(m) => m.advance(c, env, fx),
        }
    }

    fn can_retry(&self, c: &Conversation<Self>, purpose: Purpose) -> bool {
        match (self, purpose) {
            (AppMode::Discussion(d), Purpose::Discussion(p)) => d.can_retry(c, p),
            (AppMode::Chat(chat), Purpose::Chat(p)) => chat.can_retry(c, p),
            (AppMode::Counseling(m), Purpose::Counseling(p)) => m.can_retry(p),
            // A purpose of another mode: that mode's steps are gone with it.
            _ => false,
        }
    }

    fn reset_step(&mut self, c: &mut Conversation<Self>, purpose: Purpose) {
        match (self, purpose) {
            (AppMode::Discussion(d), Purpose::Discussion(p)) => d.reset_step(c, p),
            (AppMode::Chat(chat), Purpose::Chat(p)) => chat.reset_step(c, p),
            (AppMode::Counseling(m), Purpose::Counseling(p)) => m.reset_step(p),
            _ => {}
        }
    }

    fn restart(&mut self, c: &mut Conversation<Self>, env: &Env) {
        match self {
            AppMode::Discussion(d) => d.restart(c, env),
            AppMode::Chat(chat) => chat.restart(c, env),
            AppMode::Counseling(m) => m.restart(c, env),
        }
    }
}

impl AppMode {
    /// Which mode this is.
    pub fn kind(&self) -> ModeKind {
        match self {
            AppMode::Discussion(_) => ModeKind::Discussion,
            AppMode::Chat(_) => ModeKind::Chat,
            AppMode::Counseling(_) => ModeKind::Counseling,
        }
    }

    fn switch_from_command(&mut self, c: &mut Conversation<Self>, rest: &str, env: &Env) {
        match ModeKind::parse(rest) {
            Some(to) => self.switch(c, to, env),
            None => {
                let names: Vec<&str> = ModeKind::ALL.iter().map(|m| m.label(c.lang)).collect();
                let t = match c.lang {
                    Lang::Ko => format!("모드 이름을 알아보지 못했습니다. 사용법: /mode {}", names.join(" | ")),
                    Lang::En => format!("I did not recognise that mode. Usage: /mode {}", names.join(" | ")),
                };
                c.notice(t, env.now);
            }
        }
    }

    /// Switches modes. A mode that has not landed yet says so and nothing changes.
    fn switch(&mut self, c: &mut Conversation<Self>, to: ModeKind, env: &Env) {
        let lang = c.lang;
        if to == self.kind() {
            let t = match lang {
                Lang::Ko => format!("이미 {} 모드입니다.", to.label(lang)),
                Lang::En => format!("Already in {} mode.", to.label(lang)),
            };
            c.notice(t, env.now);
            return;
        }
        if !to.available() {
            let t = match lang {
                Lang::Ko => {
                    format!("{} 모드는 아직 준비되지 않았습니다.", to.label(lang))
                }
                Lang::En => {
                    format!("{} mode is not available yet.", to.label(lang))
                }
            };
            c.notice(t, env.now);
            return;
        }
        if c.is_busy() {
            let t = lang.pick(
                "진행 중인 단계가 끝난 뒤에 모드를 바꿀 수 있습니다. 기다리거나 중지를 누르세요.",
                "The mode can change once the running step is done. Wait for it, or press Stop.",
            );
            c.notice(t, env.now);
            return;
        }
        let t = match lang {
            Lang::Ko => format!("{} 모드로 바꿨습니다. 지금까지의 대화는 그대로 남습니다.", to.label(lang)),
            Lang::En => format!("Switched to {} mode; the conversation so far stays.", to.label(lang)),
        };
        c.notice(t, env.now);
        // The conversation's messages stay; the new mode starts fresh on them.
        let max_rounds = c.settings.discussion.max_rounds;
        *self = match to {
            ModeKind::Chat => AppMode::Chat(Chat::new(c)),
            ModeKind::Discussion => AppMode::Discussion(Discussion::after_chat(max_rounds, c)),
            ModeKind::Counseling => AppMode::Counseling(CounselMode::start(c, env)),
        };
    }
}

impl Event {
    /// The user picked design `index` from its card.
    pub fn choose_design(index: usize) -> Event {
        Event::Mode(AppAction::Discussion(DiscussionAction::ChooseDesign { index }))
    }

    /// The user switches the session to another mode.
    pub fn switch_mode(to: ModeKind) -> Event {
        Event::Mode(AppAction::SwitchMode { to })
    }

    /// A chat event.
    pub fn chat(action: ChatAction) -> Event {
        Event::Mode(AppAction::Chat(action))
    }
}

/// Questions the UI asks the engine instead of reading mode fields.
impl Session {
    /// The mode the session is in.
    pub fn mode_kind(&self) -> ModeKind {
        self.mode.kind()
    }

    /// The discussion, when the session is in discussion mode.
    pub fn discussion(&self) -> Option<&Discussion> {
        match &self.mode {
            AppMode::Discussion(d) => Some(d),
            _ => None,
        }
    }

    /// The counseling, when the session is in counseling mode.
    pub fn counseling(&self) -> Option<&CounselMode> {
        match &self.mode {
            AppMode::Counseling(m) => Some(m),
            _ => None,
        }
    }

    /// The chat, when the session is in chat mode.
    pub fn chat(&self) -> Option<&Chat> {
        match &self.mode {
            AppMode::Chat(chat) => Some(chat),
            _ => None,
        }
    }

    /// The chat's context meter, when the session is in chat mode.
    pub fn chat_meter(&self) -> Option<super::chat::Meter> {
        self.chat().map(|chat| chat.meter(&self.conversation))
    }

    /// The discussion's stage, when there is a discussion.
    pub fn stage(&self) -> Option<Stage> {
        self.discussion().map(|d| d.stage())
    }

    /// True when a design can be chosen from the designs shown now.
    pub fn can_choose_design(&self) -> bool {
        !self.is_busy() && self.stage().is_some_and(|s| matches!(s, Stage::Debate | Stage::Confirm))
    }

    /// The chosen design's name, once confirmed.
    pub fn chosen_design(&self) -> Option<&str> {
        self.discussion().and_then(|d| d.selected_design.as_ref()).map(|d| d.name.as_str())
    }

    /// True before the first request of the mode.
    pub fn is_fresh(&self) -> bool {
        match &self.mode {
            AppMode::Discussion(d) => d.request.is_none(),
            AppMode::Chat(_) => true,
            // The counselor's opening is there from the start.
            AppMode::Counseling(_) => false,
        }
    }

    /// True when an open question card may be cancelled instead of answered: the chat's
    /// AskUserQuestion cards report a cancel to the model; other modes' cards need answers.
    pub fn can_cancel_cards(&self) -> bool {
        matches!(self.mode, AppMode::Chat(_))
    }

    /// True when Retry can redo the step a purpose names.
    pub fn can_retry(&self, purpose: Purpose) -> bool {
        self.mode.can_retry(&self.conversation, purpose)
    }

    /// The seed's response types of every message, in order.
    pub fn response_types(&self) -> Vec<ResponseType> {
        self.messages.iter().filter_map(|m| m.body.response_type()).collect()
    }
}

/// A design's critique and who made it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reviewed {
    pub critique: Critique,
    pub source: Source,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events are stored as every earlier build wrote them: the core's externally tagged, a
    /// mode's action in its own form at the same level (the discussion's untagged). Each
    /// writes that form and reads back as itself; a value that is no event is refused.
    #[test]
    fn events_keep_their_stored_form() {
        use super::super::call::{FailureKind, LlmFailure, LlmOutcome};
        use crate::engine::chat::tools::CommandOutcome;
        let failure = LlmFailure { kind: FailureKind::Network, detail: "down".into(), status: None, partial: None };
        let table: Vec<(Event, &str)> = vec![
            (Event::UserMessage { text: "hi".into() }, r#"{"user_message":{"text":"hi"}}"#),
            (Event::Answer { card: 3, answers: vec!["a".into()] }, r#"{"answer":{"card":3,"answers":["a"]}}"#),
            (
                Event::LlmResult { call: 2, outcome: LlmOutcome::Failed(failure) },
                r#"{"llm_result":{"call":2,"outcome":{"failed":{"kind":"network","detail":"down","status":null,"partial":null}}}}"#,
            ),
            (Event::Stop { partials: vec![(1, "par".into())] }, r#"{"stop":{"partials":[[1,"par"]]}}"#),
            (Event::Retry { purpose: None }, r#"{"retry":{"purpose":null}}"#),
            (Event::SkipLlm, r#""skip_llm""#),
            (Event::Restart, r#""restart""#),
            (Event::Resume, r#""resume""#),
            (Event::Reopened { partials: vec![] }, r#"{"reopened":{"partials":[]}}"#),
            (Event::SendAnyway, r#""send_anyway""#),
            (Event::switch_mode(ModeKind::Chat), r#"{"switch_mode":{"to":"chat"}}"#),
            (
                Event::Mode(AppAction::Discussion(DiscussionAction::ChooseDesign { index: 1 })),
                r#"{"choose_design":{"index":1}}"#,
            ),
            (
                Event::Mode(AppAction::Chat(ChatAction::CommandDone { message: 4, outcome: CommandOutcome::Declined })),
                r#"{"chat":{"command_done":{"message":4,"outcome":"declined"}}}"#,
            ),
        ];
        for (event, stored) in &table {
            assert_eq!(&serde_json::to_string(event).unwrap(), stored);
            assert_eq!(&serde_json::from_str::<Event>(stored).unwrap(), event, "{stored}");
        }
        let settings = Event::Settings { settings: Settings::default() };
        let stored = serde_json::to_string(&settings).unwrap();
        assert!(stored.starts_with(r#"{"settings":{"#), "{stored}");
        assert_eq!(serde_json::from_str::<Event>(&stored).unwrap(), settings);
        // Whitespace and key order inside a value do not matter.
        let spaced = r#" { "answer" : { "answers" : [ ] , "card" : 1 } } "#;
        assert_eq!(serde_json::from_str::<Event>(spaced).unwrap(), Event::Answer { card: 1, answers: vec![] });
        for bad in [
            r#"{}"#,
            r#"{"nope":{}}"#,
            r#""nope""#,
            r#"{"user_message":{"text":"a"},"restart":null}"#,
            r#"{"user_message":{}}"#,
            r#"{"choose_design":{"index":"x"}}"#,
            r#"{"switch_mode":{"to":"nowhere"}}"#,
            r#"[1]"#,
            r#"7"#,
        ] {
            assert!(serde_json::from_str::<Event>(bad).is_err(), "{bad}");
        }
    }

    /// Settings are stored flat, as earlier builds wrote them; fields an older build lacked
    /// read as their defaults, and each mode's knob lands in that mode's group.
    #[test]
    fn settings_keep_the_flat_stored_form() {
        let old = r#"{"max_rounds":2,"alignment_rounds":4,"strict":true}"#;
        let read: Settings = serde_json::from_str(old).unwrap();
        assert_eq!(read.discussion, DiscussionSettings { max_rounds: 2, alignment_rounds: 4, strict: true });
        assert_eq!(read.chat, ChatSettings::default());
        assert_eq!(read.common.context_window, None);

        let mut settings = Settings::default();
        settings.chat.max_turns = 7;
        settings.common.context_window = Some(4096);
        let stored = serde_json::to_string(&settings).unwrap();
        assert_eq!(
            stored,
            r#"{"max_rounds":5,"alignment_rounds":3,"strict":false,"chat_max_turns":7,"context_window":4096}"#
        );
        assert_eq!(serde_json::from_str::<Settings>(&stored).unwrap(), settings);
    }
}
