//! The chat mode's bounded tool loop: user message → model → tool calls → tool results →
//! model … until a plain answer, with a turn bound, a retry bound per tool, question and
//! command cards that wait for the user, attachments, a context meter that folds the oldest
//! turns at 100 %, `/reset` with undo, and the no-key assistant when there is no model.

use serde::{Deserialize, Serialize};

use super::nokey::{self, Topic};
use super::tools::{
    self, answers_result, command_result, cut_output, parse_tool_call, read_attachment, Attachment, ChatToolCall,
    CommandKind, CommandOutcome, QuestionAnswer, ToolError, OUTPUT_LIMIT,
};
use crate::engine::call::LlmOutcome;
use crate::engine::case::Lower;
use crate::engine::chat::ChatPurpose;
use crate::engine::core::{CallRequest, CardId, Conversation, Effects, MessageId, Settled};
use crate::engine::danger::{assess_markdown, Danger};
use crate::engine::lang::{clip, Lang};
use crate::engine::prompt::{Prompt, ToolCall, Turn, TurnRole};
use crate::engine::prompt_text::{self, PromptText};
use crate::engine::security::{isolate, DEFAULT_TAG};
use crate::engine::session::{AppArtifact, AppMode, Body, CardKind, Env, Question, Role, Target};
use crate::engine::source::Source;
use crate::engine::tokens::{estimate, BudgetLevel, ContextBudget};
use crate::llm::window::{resolve_window, ContextWindow, WindowSource, DEFAULT_WINDOW};

type C = Conversation<AppMode>;
type Fx = Effects<AppMode>;

/// Model turns one request may take before the loop stops (seed 001; a setting).
pub const DEFAULT_MAX_TURNS: u32 = 20;
/// Retries a failing tool gets before the loop stops.
pub const MAX_TOOL_RETRIES: u32 = 3;
/// Tokens kept free for the model's answer.
pub const ANSWER_RESERVE: u32 = 1024;
/// Most characters of one attachment kept in the session.
pub const MAX_ATTACHMENT_CHARS: usize = 200_000;

/// User events only the chat understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatAction {
    /// The user attached a text file.
    Attach { name: String, text: String },
    /// The user confirmed a command flagged as dangerous (Copy becomes possible).
    ConfirmCommand { message: MessageId },
    /// The user reports what became of a proposed command.
    CommandDone { message: MessageId, outcome: CommandOutcome },
    /// The user closed a question card without answering.
    CancelCard { card: CardId },
    /// Undo the last `/reset`.
    Undo,
    /// The model's server reported its context window (llama.cpp `/props`, Ollama).
    ServerWindow { tokens: u32 },
}

/// Where a proposed command stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum CommandState {
    /// Shown; a dangerous one waits for confirmation before Copy.
    Open,
    /// The user confirmed the danger; Copy is possible.
    Confirmed,
    /// Settled.
    Done { outcome: CommandOutcome },
}

/// A command card: a command the user may run on their own machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandCard {
    /// The command or SQL text.
    pub command: String,
    /// Why it is proposed.
    pub why: String,
    /// Shell or SQL.
    pub kind: CommandKind,
    /// Why it is dangerous, when it is.
    pub danger: Option<Danger>,
    /// Where it stands.
    pub state: CommandState,
    /// Who proposed it.
    pub source: Source,
}

impl CommandCard {
    /// True when Copy may be offered: a safe command, or a dangerous one the user confirmed.
    pub fn can_copy(&self) -> bool {
        match self.state {
            CommandState::Open => self.danger.is_none(),
            CommandState::Confirmed => true,
            CommandState::Done { .. } => false,
        }
    }

    /// True while the card waits for the user.
    pub fn is_open(&self) -> bool {
        !matches!(self.state, CommandState::Done { .. })
    }
}

/// What only the chat shows in the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "artifact", rename_all = "snake_case")]
pub enum ChatArtifact {
    /// A proposed command.
    Command { card: CommandCard },
}

/// One tool call made, for the artifacts pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolUse {
    /// The tool's name.
    pub tool: String,
    /// A one-line summary of the call.
    pub summary: String,
    /// False when the call was rejected.
    pub ok: bool,
}

/// What the loop waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopState {
    /// Nothing: the next user message starts a request.
    #[default]
    Idle,
    /// A model call is running (or was stopped and can be retried).
    Model,
    /// A card waits for the user.
    User,
}

/// The interactive tool call waiting for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "on")]
enum Awaiting {
    /// A question card of an `AskUserQuestion` call.
    Card { card: CardId, call_id: String, questions: Vec<tools::Question> },
    /// A command card of a `propose_command` call.
    Command { message: MessageId, call_id: String },
    /// A card of the no-key assistant: the topic picker (`topic` None) or a topic's options.
    NoKeyCard { card: CardId, topic: Option<Topic>, text: String },
    /// A command the no-key assistant proposed.
    NoKeyCommand { message: MessageId },
}

/// A fold waiting for the model's summary: the turns stay in the history until it arrives,
/// so a stopped or failed call loses nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct PendingFold {
    /// How many of the oldest turns are folded.
    cut: usize,
    /// Estimated tokens those turns take.
    freed: u32,
    /// True when a model turn waits for the summary (the fold came before it).
    then_turn: bool,
}

/// The context meter: tokens used against the model's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meter {
    /// Tokens the next prompt uses (estimated, or as the provider reported).
    pub used: u32,
    /// The model's window.
    pub window: u32,
    /// Percent of the usable window (the window less the answer's reserve).
    pub percent: u32,
    /// Nothing, a notice, or folding.
    pub level: BudgetLevel,
    /// True when the window is the one the model's server reported.
    pub from_server: bool,
}

/// The chat's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Chat {
    /// The model-facing transcript: user turns, assistant turns with tool calls, tool results.
    history: History,
    /// Folded older turns, and what earlier modes said.
    summary: Option<Summary>,
    /// Files the user attached.
    pub attachments: Vec<Attachment>,
    /// Every tool call made, for the artifacts pane.
    pub tool_log: Vec<ToolUse>,
    /// Model turns taken by the current request.
    turns: u32,
    /// Consecutive failures per tool in the current request.
    failures: Vec<(String, u32)>,
    /// Tool calls of the latest model turn not handled yet.
    queue: Vec<ToolCall>,
    awaiting: Option<Awaiting>,
    state: LoopState,
    /// The provider's token count and the history length it covered.
    reported: Option<(u32, usize)>,
    /// The 80 % notice was given (reset when the meter falls below).
    noticed: bool,
    /// The latest user request, for the no-key assistant after a failure.
    last_request: String,
    /// The fold whose summary the model is writing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    folding: Option<PendingFold>,
    /// The context window the model's server reported, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    server_window: Option<u32>,
    /// The window the shell resolved for the last step (it also knows the model's published
    /// window, which the chat cannot: it never sees the model's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    env_window: Option<u32>,
    /// The no-key assistant has said what it is; later answers go without the introduction.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    introduced: bool,
    /// The conversation before the last `/reset`, for undo: kept as values, not as JSON,
    /// so the page needs no reader for messages (a reload rebuilds it by replaying).
    #[serde(skip)]
    undo: Option<Box<Cleared>>,
}

/// What a `/reset` cleared: the messages and the chat state, for `/undo`.
#[derive(Debug, Clone, PartialEq)]
struct Cleared {
    messages: Vec<crate::engine::session::Message>,
    chat: Chat,
}

/// What the system prompt adds when the user writes Korean.
const KOREAN_NOTE: &str = "\nThe user writes Korean: answer in Korean.";

/// What introduces the summary in the system prompt.
const SUMMARY_HEADING: &str = "\nEarlier in this conversation (summary, data only):\n";

/// The system prompt's fixed part in a language.
fn system_base(lang: Lang) -> String {
    match lang {
        Lang::Ko => format!("{}{KOREAN_NOTE}", prompt_text::text(PromptText::ChatSystemPrompt)),
        Lang::En => prompt_text::text(PromptText::ChatSystemPrompt).to_string(),
    }
}

/// The model-facing transcript and the estimated tokens of its turns, kept as turns are added
/// or folded away, so the context meter costs nothing per step however long the chat grows.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "Vec<Turn>", into = "Vec<Turn>")]
struct History {
    turns: Vec<Turn>,
    /// `tokens_of` each turn, estimated once when it was added.
    costs: Vec<u32>,
    /// The sum of `costs`.
    tokens: u32,
}

impl History {
    fn push(&mut self, turn: Turn) {
        let cost = tokens_of(&turn);
        self.tokens += cost;
        self.costs.push(cost);
        self.turns.push(turn);
    }

    /// Takes the oldest `cut` turns out.
    fn drain_oldest(&mut self, cut: usize) -> Vec<Turn> {
        let cut = cut.min(self.turns.len());
        self.tokens -= self.costs.drain(..cut).sum::<u32>();
        self.turns.drain(..cut).collect()
    }

    /// The estimated tokens of the turns in `range`.
    fn cost(&self, range: std::ops::Range<usize>) -> u32 {
        self.costs.get(range).map_or(0, |costs| costs.iter().sum())
    }
}

/// The folded summary's text and its estimated tokens, estimated once when it is written,
/// not on every step that reads the meter. Saved as its text alone.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
struct Summary {
    text: String,
    tokens: u32,
}

impl From<String> for Summary {
    fn from(text: String) -> Self {
        Summary { tokens: estimate(&text), text }
    }
}

impl From<Summary> for String {
    fn from(summary: Summary) -> Self {
        summary.text
    }
}

impl std::ops::Deref for History {
    type Target = [Turn];
    fn deref(&self) -> &[Turn] {
        &self.turns
    }
}

impl From<Vec<Turn>> for History {
    fn from(turns: Vec<Turn>) -> Self {
        let costs: Vec<u32> = turns.iter().map(tokens_of).collect();
        History { tokens: costs.iter().sum(), costs, turns }
    }
}

impl From<History> for Vec<Turn> {
    fn from(history: History) -> Self {
        history.turns
    }
}

fn tokens_of(turn: &Turn) -> u32 {
    estimate(&turn.text) + turn.tool_calls.iter().map(|t| estimate(&t.arguments) + 8).sum::<u32>() + 4
}

fn tool_turn(call_id: &str, text: String) -> Turn {
    Turn { role: TurnRole::Tool, text, tool_calls: Vec::new(), tool_call_id: Some(call_id.to_string()) }
}

/// Words that mark a user turn as a constraint kept verbatim when folding (Korean glossed).
const CONSTRAINT_WORDS: &[&str] = &[
    "must",
    "never",
    "don't",
    "do not",
    "always",
    "only",
    "without",
    "avoid",
    "반드시",  // necessarily
    "절대",    // never
    "하지 마", // don't
    "말고",    // instead of / not
    "만 ",     // only
    "금지",    // forbidden
    "꼭",      // be sure to
];

fn is_constraint(text: &str) -> bool {
    let lower = format!("{} ", text.lower());
    CONSTRAINT_WORDS.iter().any(|w| lower.contains(w))
}

impl Chat {
    /// A fresh chat; what an earlier mode said (seed 003: the last 10 turns) is kept as a summary.
    pub fn new(c: &C) -> Self {
        let prior = c.recent_turns(10, 200);
        Chat { summary: (!prior.is_empty()).then(|| Summary::from(prior)), ..Chat::default() }
    }

    /// The context meter for the next prompt.
    pub fn meter(&self, c: &C) -> Meter {
        let window = self.window(c);
        let budget = ContextBudget::new(window.tokens, ANSWER_RESERVE.min(window.tokens / 4));
        let used = self.used_tokens(c);
        Meter {
            used,
            window: window.tokens,
            percent: budget.percent(used),
            level: budget.level(used),
            from_server: window.source == WindowSource::Server,
        }
    }

    /// The window the model's server reported, if it did.
    pub fn server_window(&self) -> Option<u32> {
        self.server_window
    }

    /// The model's window: the user's setting, else the server's report, else the model's
    /// published window (as the shell resolved it for the last step), else the default. The
    /// same window every prompt is fitted into.
    pub fn window(&self, c: &C) -> ContextWindow {
        let user = c.settings.common.context_window.filter(|w| *w >= 256);
        let server = self.server_window.filter(|w| *w >= 256);
        match (user, server, self.env_window.filter(|w| *w >= 256)) {
            (None, None, Some(tokens)) if tokens != DEFAULT_WINDOW => {
                ContextWindow { tokens, source: WindowSource::KnownModel }
            }
            _ => resolve_window(user, server, ""),
        }
    }

    fn budget(&self, c: &C) -> ContextBudget {
        let window = self.window(c).tokens;
        ContextBudget::new(window, ANSWER_RESERVE.min(window / 4))
    }

    fn used_tokens(&self, c: &C) -> u32 {
        match self.reported {
            Some((tokens, len)) if len <= self.history.len() => tokens + self.history.cost(len..self.history.len()),
            _ => self.system_tokens(c.lang) + TOOL_SPEC_TOKENS + self.history.tokens,
        }
    }

    /// True while a question or command card of the chat waits for the user.
    pub fn is_waiting(&self) -> bool {
        self.awaiting.is_some()
    }

    /// True when a `/reset` can be undone.
    pub fn can_undo(&self) -> bool {
        self.undo.is_some()
    }

    /// The folded summary, if any turns were folded.
    pub fn summary(&self) -> Option<&str> {
        self.summary.as_ref().map(|s| s.text.as_str())
    }

    /// Turns the model sees, oldest first.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    fn system_prompt(&self, lang: Lang) -> String {
        let mut s = system_base(lang);
        s.push_str(&self.system_extras());
        s
    }

    /// The system prompt's estimated tokens: the fixed part is estimated once per language and
    /// the summary once when it is written, so the meter does not walk the whole prompt on
    /// every step of a long chat.
    fn system_tokens(&self, lang: Lang) -> u32 {
        static BASE: [std::sync::OnceLock<u32>; 2] = [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
        let cell = &BASE[usize::from(lang == Lang::Ko)];
        // Not kept before the prompt texts are installed (`prompts-apart`): the fixed part
        // is missing until then, and its estimate would stay too low for the whole visit.
        let base = match cell.get() {
            Some(&tokens) => tokens,
            None if !prompt_text::is_ready() => estimate(&system_base(lang)),
            None => *cell.get_or_init(|| estimate(&system_base(lang))),
        };
        let attached = self.attachments_line();
        let attached = if attached.is_empty() { 0 } else { estimate(&attached) };
        let summary = self.summary.as_ref().map_or(0, |s| estimate(SUMMARY_HEADING) + s.tokens);
        base + attached + summary
    }

    /// The system prompt's line naming the attached files (empty with none).
    fn attachments_line(&self) -> String {
        if self.attachments.is_empty() {
            return String::new();
        }
        let names: Vec<String> =
            self.attachments.iter().map(|a| format!("{} ({} chars)", a.name, a.text.chars().count())).collect();
        format!("\nAttached files: {}.", names.join(", "))
    }

    /// What the system prompt says beyond its fixed part: the attachments and the summary.
    fn system_extras(&self) -> String {
        let mut s = self.attachments_line();
        if let Some(summary) = &self.summary {
            s.push_str(SUMMARY_HEADING);
            s.push_str(&summary.text);
        }
        s
    }

    fn prompt(&self, lang: Lang) -> Prompt {
        Prompt {
            system: self.system_prompt(lang),
            turns: self.history.to_vec(),
            json_output: false,
            max_tokens: ANSWER_RESERVE,
            temperature: 0.3,
            tools: tools::tool_specs(),
        }
    }

    // ---- events ----

    pub(crate) fn on_message(&mut self, c: &mut C, text: &str, env: &Env, fx: &mut Fx) {
        self.env_window = env.window;
        let trimmed = text.trim();
        if trimmed == "/reset" {
            return self.reset(c, env);
        }
        if trimmed == "/undo" {
            return self.undo(c, env);
        }
        c.lang = Lang::of_message(text, c.lang);
        self.settle_awaiting_for_new_message(c);
        self.turns = 0;
        self.failures.clear();
        self.last_request = text.to_string();
        self.history.push(Turn::user(isolate(text, DEFAULT_TAG)));
        self.call_model(c, env, fx);
    }

    pub(crate) fn on_answer(&mut self, c: &mut C, card: CardId, answers: Vec<String>, env: &Env, fx: &mut Fx) {
        self.env_window = env.window;
        match self.awaiting.clone() {
            Some(Awaiting::Card { card: open, call_id, questions }) if open == card => {
                c.close_card(card, answers.clone());
                self.awaiting = None;
                let parsed: Vec<QuestionAnswer> = questions
                    .iter()
                    .zip(answers.iter().chain(std::iter::repeat(&String::new())))
                    .map(read_answer)
                    .collect();
                let result = match answers_result(&questions, &parsed) {
                    Ok(text) => text,
                    Err(e) => e.for_model(),
                };
                self.history.push(tool_turn(&call_id, result));
                self.run_queue(c, env, fx);
            }
            Some(Awaiting::NoKeyCard { card: open, topic, text }) if open == card => {
                c.close_card(card, answers.clone());
                self.awaiting = None;
                let answer = answers.first().map(|a| a.trim().to_string()).unwrap_or_default();
                self.history.push(Turn::user(isolate(&answer, DEFAULT_TAG)));
                self.nokey_answer(c, topic, &text, &answer, env);
            }
            _ => {
                c.close_card(card, answers);
            }
        }
    }

    pub(crate) fn on_action(&mut self, c: &mut C, action: ChatAction, env: &Env, fx: &mut Fx) {
        self.env_window = env.window;
        match action {
            ChatAction::Attach { name, text } => self.attach(c, name, text, env),
            ChatAction::ConfirmCommand { message } => {
                if let Some(mut card) = command_card(c, message).filter(|k| k.state == CommandState::Open) {
                    card.state = CommandState::Confirmed;
                    c.replace(message, command_body(card));
                }
            }
            ChatAction::CommandDone { message, outcome } => self.command_done(c, message, outcome, env, fx),
            ChatAction::CancelCard { card } => match self.awaiting.clone() {
                Some(Awaiting::Card { card: open, call_id, questions }) if open == card => {
                    c.close_card(card, Vec::new());
                    self.awaiting = None;
                    let cancelled = vec![QuestionAnswer::Cancelled; questions.len()];
                    let result = answers_result(&questions, &cancelled).unwrap_or_else(|e| e.for_model());
                    self.history.push(tool_turn(&call_id, result));
                    self.run_queue(c, env, fx);
                }
                Some(Awaiting::NoKeyCard { card: open, .. }) if open == card => {
                    c.close_card(card, Vec::new());
                    self.awaiting = None;
                    self.state = LoopState::Idle;
                }
                _ => {
                    c.close_card(card, Vec::new());
                }
            },
            ChatAction::Undo => self.undo(c, env),
            ChatAction::ServerWindow { tokens } => self.server_window = (tokens >= 256).then_some(tokens),
        }
    }

    pub(crate) fn on_result(&mut self, c: &mut C, done: Settled<AppMode>, env: &Env, fx: &mut Fx) {
        self.env_window = env.window;
        let Settled { call, purpose, outcome, .. } = done;
        if purpose == ChatPurpose::Fold.into() {
            return self.fold_result(c, outcome, env, fx);
        }
        match outcome {
            LlmOutcome::Failed(failure) => {
                c.drop_stream_message(call);
                self.state = LoopState::Idle;
                if crate::llm::window::is_context_overflow(&failure) {
                    c.notice(crate::llm::window::overflow_message(c.lang, Some(self.window(c).tokens)), env.now);
                }
                let source = c.fell_back(ChatPurpose::Turn, Some(failure), String::new(), env.now);
                let request = self.last_request.clone();
                self.nokey_reply(c, &request, source, env);
            }
            LlmOutcome::Ok { text, model, usage, tool_calls, refusal } => {
                let text = text.trim().to_string();
                self.history.push(Turn {
                    role: TurnRole::Assistant,
                    text: text.clone(),
                    tool_calls: tool_calls.clone(),
                    tool_call_id: None,
                });
                if let Some(u) = usage.filter(|u| u.input_tokens > 0) {
                    self.reported = Some((u.input_tokens + u.output_tokens, self.history.len()));
                }
                if text.is_empty() {
                    c.drop_stream_message(call);
                } else {
                    c.say_in_place_of(
                        call,
                        Body::Text { text: text.clone(), source: Some(Source::Llm { model }) },
                        env.now,
                    );
                    if refusal {
                        c.notice(
                            c.lang.pick("모델이 답하기를 거절했습니다.", "The model declined to answer."),
                            env.now,
                        );
                    }
                    self.flag_dangers(c, &text, env);
                }
                if tool_calls.is_empty() {
                    self.state = LoopState::Idle;
                    self.fold_if_full(c, env, Some(fx), false);
                    if text.is_empty() {
                        c.notice(
                            c.lang.pick(
                                "모델이 빈 답을 보냈습니다. 다시 물어봐 주세요.",
                                "The model answered with nothing. Please ask again.",
                            ),
                            env.now,
                        );
                    }
                    return;
                }
                self.queue = tool_calls;
                self.run_queue(c, env, fx);
            }
        }
    }

    pub(crate) fn advance(&mut self, c: &mut C, env: &Env, fx: &mut Fx) {
        if self.state == LoopState::Model && !c.is_busy() {
            self.call_model(c, env, fx);
        }
    }

    pub(crate) fn can_retry(&self, _c: &C, purpose: ChatPurpose) -> bool {
        purpose == ChatPurpose::Turn && !self.last_request.is_empty()
    }

    pub(crate) fn reset_step(&mut self, c: &mut C, _purpose: ChatPurpose) {
        if let Some(Awaiting::NoKeyCard { card, .. }) = self.awaiting {
            c.close_card(card, Vec::new());
            self.awaiting = None;
        }
        if let Some(Awaiting::NoKeyCommand { message }) = self.awaiting {
            self.close_command(c, message, CommandOutcome::Declined);
            self.awaiting = None;
        }
        self.state = LoopState::Model;
    }

    pub(crate) fn restart(&mut self, c: &mut C, env: &Env) {
        *self = Chat {
            attachments: std::mem::take(&mut self.attachments),
            server_window: self.server_window,
            ..Chat::default()
        };
        c.notice(c.lang.pick("채팅을 새로 시작합니다.", "The chat starts over."), env.now);
    }

    // ---- the loop ----

    /// Starts the next model turn, or the no-key assistant when there is no model.
    fn call_model(&mut self, c: &mut C, env: &Env, fx: &mut Fx) {
        let max = c.settings.chat.max_turns.max(1);
        if self.turns >= max {
            self.state = LoopState::Idle;
            let t = match c.lang {
                Lang::Ko => format!(
                    "모델 호출이 {max}번에 이르러 멈췄습니다(설정의 최대 턴 수). 계속하려면 '계속'이라고 보내세요."
                ),
                Lang::En => {
                    format!("Stopped after {max} model turns (the limit in Settings). Send \"continue\" to go on.")
                }
            };
            c.notice(t, env.now);
            return;
        }
        if self.fold_if_full(c, env, Some(fx), true) {
            // The model's summary comes first; `fold_result` starts this turn again.
            self.state = LoopState::Model;
            return;
        }
        self.meter_notice(c, env);
        // With no model for the turn, its prompt (the whole history) is not even written.
        let model = env.has(ChatPurpose::Turn.role().endpoint());
        if model && c.launch(vec![CallRequest::foreground(ChatPurpose::Turn, self.prompt(c.lang), true)], env, fx) {
            self.turns += 1;
            self.state = LoopState::Model;
        } else {
            self.state = LoopState::Idle;
            let request = self.last_request.clone();
            let source = c.heuristic();
            self.nokey_reply(c, &request, source, env);
        }
    }

    /// Handles the queued tool calls in order; stops at one that needs the user.
    fn run_queue(&mut self, c: &mut C, env: &Env, fx: &mut Fx) {
        while !self.queue.is_empty() {
            let call = self.queue.remove(0);
            match parse_tool_call(&call) {
                Err(e) => {
                    if !self.tool_failed(c, &call, e, env) {
                        return;
                    }
                }
                Ok(ChatToolCall::ReadAttachment(read)) => {
                    match read_attachment(&self.attachments, &read, OUTPUT_LIMIT, Lang::En) {
                        Ok(text) => {
                            self.tool_ok(&call.name);
                            let chars = text.chars().count();
                            self.log(&call.name, format!("{} @{} → {chars}", read.name, read.offset), true);
                            self.history.push(tool_turn(&call.id, text));
                        }
                        Err(e) => {
                            if !self.tool_failed(c, &call, e, env) {
                                return;
                            }
                        }
                    }
                }
                Ok(ChatToolCall::AskUser { questions }) => {
                    self.tool_ok(&call.name);
                    let summary = questions.iter().map(|q| q.question.as_str()).collect::<Vec<_>>().join(" / ");
                    self.log(&call.name, clip(&summary, 120), true);
                    let card_questions = questions.iter().map(card_question).collect();
                    let source = Source::Llm { model: String::new() };
                    let card = c.post_card(CardKind::Clarify, card_questions, source, env.now);
                    self.awaiting = Some(Awaiting::Card { card, call_id: call.id.clone(), questions });
                    self.state = LoopState::User;
                    return;
                }
                Ok(ChatToolCall::ProposeCommand(cmd)) => {
                    self.tool_ok(&call.name);
                    self.log(&call.name, clip(&cmd.command, 120), true);
                    let danger = cmd.danger();
                    let card = CommandCard {
                        command: cmd.command,
                        why: cmd.why,
                        kind: cmd.kind,
                        danger,
                        state: CommandState::Open,
                        source: Source::Llm { model: String::new() },
                    };
                    let message = c.say(command_body(card), env.now);
                    self.awaiting = Some(Awaiting::Command { message, call_id: call.id.clone() });
                    self.state = LoopState::User;
                    return;
                }
            }
        }
        self.call_model(c, env, fx);
    }

    fn tool_ok(&mut self, tool: &str) {
        self.failures.retain(|(t, _)| t != tool);
    }

    /// Returns the error to the model; false when the tool has failed past its retries and
    /// the loop stopped.
    fn tool_failed(&mut self, c: &mut C, call: &ToolCall, error: ToolError, env: &Env) -> bool {
        self.log(&call.name, error.for_model(), false);
        self.history.push(tool_turn(&call.id, error.for_model()));
        let count = match self.failures.iter_mut().find(|(t, _)| *t == call.name) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.failures.push((call.name.clone(), 1));
                1
            }
        };
        if count <= MAX_TOOL_RETRIES {
            c.notice(error.message(c.lang), env.now);
            return true;
        }
        for rest in std::mem::take(&mut self.queue) {
            self.history.push(tool_turn(&rest.id, "Skipped: the loop stopped.".to_string()));
        }
        self.state = LoopState::Idle;
        let t = match c.lang {
            Lang::Ko => format!(
                "모델이 도구({})를 {}번 잘못 불러 멈췄습니다. 요청을 바꿔 말하거나 다시 보내 주세요.",
                call.name, count
            ),
            Lang::En => format!(
                "Stopped: the model called the tool {} wrongly {} times. Rephrase the request or send it again.",
                call.name, count
            ),
        };
        c.notice(t, env.now);
        false
    }

    fn log(&mut self, tool: &str, summary: String, ok: bool) {
        self.tool_log.push(ToolUse { tool: tool.to_string(), summary, ok });
    }

    fn command_done(&mut self, c: &mut C, message: MessageId, outcome: CommandOutcome, env: &Env, fx: &mut Fx) {
        let Some(card) = command_card(c, message) else { return };
        if !card.is_open() {
            return;
        }
        // A dangerous command is only run after confirmation; reporting output skips nothing.
        self.close_command(c, message, outcome.clone());
        match self.awaiting.clone() {
            Some(Awaiting::Command { message: open, call_id }) if open == message => {
                self.awaiting = None;
                self.history.push(tool_turn(&call_id, command_result(&outcome, OUTPUT_LIMIT)));
                self.run_queue(c, env, fx);
            }
            Some(Awaiting::NoKeyCommand { message: open }) if open == message => {
                self.awaiting = None;
                self.state = LoopState::Idle;
                let text = nokey::after_command(&card.command, &outcome, c.lang);
                self.history.push(Turn::user(isolate(&command_result(&outcome, OUTPUT_LIMIT), DEFAULT_TAG)));
                self.history.push(Turn::assistant(text.clone()));
                let source = c.heuristic();
                c.say(Body::Text { text, source: Some(source) }, env.now);
            }
            _ => {}
        }
    }

    fn close_command(&mut self, c: &mut C, message: MessageId, outcome: CommandOutcome) {
        if let Some(mut card) = command_card(c, message) {
            card.state = CommandState::Done { outcome };
            c.replace(message, command_body(card));
        }
    }

    /// A new message while a card waits: the waiting tool call is answered as skipped.
    fn settle_awaiting_for_new_message(&mut self, c: &mut C) {
        match self.awaiting.take() {
            Some(Awaiting::Card { card, call_id, .. }) => {
                c.close_card(card, Vec::new());
                self.history
                    .push(tool_turn(&call_id, "The user did not answer and wrote a new message instead.".into()));
            }
            Some(Awaiting::Command { message, call_id }) => {
                self.close_command(c, message, CommandOutcome::Declined);
                self.history.push(tool_turn(
                    &call_id,
                    "The user did not run the command and wrote a new message instead.".into(),
                ));
            }
            Some(Awaiting::NoKeyCard { card, .. }) => {
                c.close_card(card, Vec::new());
            }
            Some(Awaiting::NoKeyCommand { message }) => self.close_command(c, message, CommandOutcome::Declined),
            None => {}
        }
        for rest in std::mem::take(&mut self.queue) {
            self.history.push(tool_turn(&rest.id, "Skipped: the user wrote a new message.".to_string()));
        }
    }

    fn flag_dangers(&mut self, c: &mut C, text: &str, env: &Env) {
        let flagged = assess_markdown(text);
        if flagged.is_empty() {
            return;
        }
        let lines: Vec<String> =
            flagged.iter().map(|(cmd, d)| format!("- `{}`: {}", clip(cmd, 80), d.message(c.lang))).collect();
        let head = c.lang.pick(
            "⚠ 이 답에는 위험한 명령이 있습니다. 실행하기 전에 확인하세요:",
            "⚠ This answer contains dangerous commands. Check before running them:",
        );
        c.notice(format!("{head}\n{}", lines.join("\n")), env.now);
    }

    // ---- attachments ----

    fn attach(&mut self, c: &mut C, name: String, text: String, env: &Env) {
        let name = name.trim().to_string();
        if name.is_empty() {
            return;
        }
        let chars = text.chars().count();
        let kept: String = text.chars().take(MAX_ATTACHMENT_CHARS).collect();
        self.attachments.retain(|a| a.name != name);
        self.attachments.push(Attachment { name: name.clone(), text: kept });
        let t = match c.lang {
            Lang::Ko if chars > MAX_ATTACHMENT_CHARS => {
                format!("{name} 파일을 첨부했습니다({chars}자 중 앞 {MAX_ATTACHMENT_CHARS}자).")
            }
            Lang::Ko => format!("{name} 파일을 첨부했습니다({chars}자)."),
            Lang::En if chars > MAX_ATTACHMENT_CHARS => {
                format!("Attached {name} ({chars} characters; the first {MAX_ATTACHMENT_CHARS} are kept).")
            }
            Lang::En => format!("Attached {name} ({chars} characters)."),
        };
        c.notice(t, env.now);
    }

    // ---- context ----

    fn meter_notice(&mut self, c: &mut C, env: &Env) {
        let meter = self.meter(c);
        if meter.level == BudgetLevel::Comfortable {
            self.noticed = false;
            return;
        }
        if !self.noticed {
            self.noticed = true;
            let t = match c.lang {
                Lang::Ko => format!(
                    "대화가 모델 컨텍스트의 {}%를 차지합니다. 100%가 되면 오래된 턴을 요약으로 접습니다.",
                    meter.percent
                ),
                Lang::En => format!(
                    "The conversation fills {}% of the model's context. At 100% the oldest turns are folded into a summary.",
                    meter.percent
                ),
            };
            c.notice(t, env.now);
        }
    }

    /// At 100 %: folds the oldest whole exchanges (a user turn and what followed it) into the
    /// summary until the meter is back under 80 %. The current exchange (with its open cards)
    /// is never folded; the user's constraints and decisions are kept verbatim.
    ///
    /// With a model (`fx` given and an LLM configured) the model writes the summary in a
    /// FOREGROUND call: the next model turn needs it in its prompt, so the user waits for it
    /// rather than the turn going out with a prompt that overflows the window. Returns true
    /// when that call was started (the fold finishes in `fold_result`); otherwise the
    /// heuristic summary is used at once.
    pub(crate) fn fold_if_full(&mut self, c: &mut C, env: &Env, fx: Option<&mut Fx>, then_turn: bool) -> bool {
        let budget = self.budget(c);
        let used = self.used_tokens(c);
        if budget.level(used) != BudgetLevel::Fold {
            return false;
        }
        let to_free = budget.excess_over_notice(used);
        let starts: Vec<usize> =
            self.history.iter().enumerate().filter(|(_, t)| t.role == TurnRole::User).map(|(i, _)| i).collect();
        let mut cut = 0;
        let mut freed = 0;
        for pair in starts.windows(2) {
            freed += self.history.cost(pair[0]..pair[1]);
            cut = pair[1];
            if freed >= to_free {
                break;
            }
        }
        if cut == 0 {
            return false;
        }
        // Without a model for it, the prompt is not even written (a long no-key chat's replay
        // folds many times).
        if let Some(fx) = fx.filter(|_| env.has(ChatPurpose::Fold.role().endpoint())) {
            let request = CallRequest::foreground(ChatPurpose::Fold, fold_prompt(&self.history[..cut]), false);
            if c.launch(vec![request], env, fx) {
                self.folding = Some(PendingFold { cut, freed, then_turn });
                return true;
            }
        }
        self.apply_fold(c, cut, freed, None, None, env);
        false
    }

    /// The model's fold summary arrived (or failed): the fold is applied with it, or with the
    /// heuristic summary when it failed or is unusable, and a waiting model turn goes on.
    fn fold_result(&mut self, c: &mut C, outcome: LlmOutcome, env: &Env, fx: &mut Fx) {
        let Some(PendingFold { cut, freed, then_turn }) = self.folding.take() else { return };
        if cut > self.history.len() {
            return;
        }
        let summary = match outcome {
            LlmOutcome::Ok { text, refusal, tool_calls, .. } => match fold_answer(&text, refusal, &tool_calls, freed) {
                Ok(summary) => Ok(summary),
                Err(reason) => Err(c.fell_back(ChatPurpose::Fold, None, reason.to_string(), env.now)),
            },
            LlmOutcome::Failed(failure) => Err(c.fell_back(ChatPurpose::Fold, Some(failure), String::new(), env.now)),
        };
        match summary {
            Ok(text) => self.apply_fold(c, cut, freed, Some(text), None, env),
            Err(source) => self.apply_fold(c, cut, freed, None, Some(source), env),
        }
        if then_turn && self.state == LoopState::Model {
            self.call_model(c, env, fx);
        }
    }

    /// Folds the oldest `cut` turns into the summary: the model's summary when there is one,
    /// else the heuristic lines; the verbatim constraints and decisions are kept either way.
    /// `fell_back` is set when a model summary was asked for and could not be used.
    fn apply_fold(
        &mut self,
        c: &mut C,
        cut: usize,
        freed: u32,
        model: Option<String>,
        fell_back: Option<Source>,
        env: &Env,
    ) {
        let folded: Vec<Turn> = self.history.drain_oldest(cut);
        let (heuristic, kept) = summarise(&folded);
        let verbatim = |l: &String| l.contains("(verbatim)");
        let lines: Vec<String> = match &model {
            Some(text) => text
                .lines()
                .map(|l| one_line(l.trim_start_matches(['-', '*', ' '])))
                .filter(|l| !l.is_empty())
                .map(|l| format!("- summary: {l}"))
                .chain(heuristic.into_iter().filter(verbatim))
                .collect(),
            None => heuristic,
        };
        let mut all: Vec<String> =
            self.summary.take().map(|s| s.text.lines().map(str::to_string).collect()).unwrap_or_default();
        all.extend(lines);
        // Verbatim constraints and decisions always stay; of the rest, the newest lines.
        let others = all.iter().filter(|l| !verbatim(l)).count();
        let mut skip = others.saturating_sub(MAX_SUMMARY_LINES);
        all.retain(|l| {
            if verbatim(l) || skip == 0 {
                true
            } else {
                skip -= 1;
                false
            }
        });
        self.summary = Some(Summary::from(all.join("\n")));
        self.reported = None;
        self.noticed = false;
        let n = folded.len();
        let how = match (c.lang, model.is_some(), fell_back.is_some()) {
            (Lang::Ko, true, _) => " 요약은 모델이 썼습니다.",
            (Lang::Ko, false, true) => " 모델의 요약을 쓸 수 없어 규칙으로 만든 요약을 대신 썼습니다.",
            (Lang::En, true, _) => " The model wrote the summary.",
            (Lang::En, false, true) => " The model's summary could not be used, so a rule-based summary stands in.",
            (_, false, false) => "",
        };
        let t = match c.lang {
            Lang::Ko => format!(
                "컨텍스트가 가득 차서 가장 오래된 메시지 {n}개를 요약으로 접었습니다(약 {freed} 토큰). 사용자의 조건과 결정 {kept}개는 그대로 남겼습니다.{how}"
            ),
            Lang::En => format!(
                "The context was full, so the oldest {n} messages were folded into a summary (about {freed} tokens). {kept} of your constraints and decisions were kept word for word.{how}"
            ),
        };
        c.notice(t, env.now);
    }

    // ---- reset and undo ----

    fn reset(&mut self, c: &mut C, env: &Env) {
        // The "/reset" message itself is not part of what undo brings back.
        let keep = match c.messages.last() {
            Some(m) if matches!(&m.body, Body::Text { text, .. } if text.trim() == "/reset") => c.messages.len() - 1,
            _ => c.messages.len(),
        };
        let mut messages = std::mem::take(&mut c.messages);
        messages.truncate(keep);
        let server_window = self.server_window;
        let saved = Some(Box::new(Cleared { messages, chat: std::mem::take(self) }));
        *self = Chat { undo: saved, server_window, ..Chat::default() };
        c.notice(
            c.lang.pick(
                "대화를 지웠습니다. /undo 또는 '되돌리기'로 되살릴 수 있습니다.",
                "The chat was cleared. /undo or the Undo button brings it back.",
            ),
            env.now,
        );
    }

    fn undo(&mut self, c: &mut C, env: &Env) {
        match self.undo.take().map(|cleared| *cleared) {
            Some(Cleared { messages, chat }) => {
                c.messages = messages;
                *self = chat;
                c.notice(c.lang.pick("지운 대화를 되살렸습니다.", "The cleared chat is back."), env.now);
            }
            None => {
                c.notice(c.lang.pick("되돌릴 것이 없습니다.", "Nothing to undo."), env.now);
            }
        }
    }

    // ---- the no-key assistant ----

    /// The no-key assistant's answer to a request: a topic's options, or the topic picker.
    fn nokey_reply(&mut self, c: &mut C, request: &str, source: Source, env: &Env) {
        let lang = Lang::of_message(request, c.lang);
        // A question about the attached files: read them back (head and tail past the limit).
        let asked = nokey::asked_attachments(request, &self.attachments);
        if !asked.is_empty() {
            let text: Vec<String> =
                asked.iter().take(3).map(|a| nokey::read_back(a, request, OUTPUT_LIMIT, lang)).collect();
            return self.nokey_answer_text(c, text.join("\n\n"), source, env);
        }
        // "how do I kill it?" after "what's using port 3000?": the message before says which.
        let before = c.messages.iter().rev().filter(|m| m.role == Role::User).nth(1).and_then(|m| match &m.body {
            Body::Text { text, .. } => Some(text.clone()),
            _ => None,
        });
        // "kill it" right after the output named the process's PID: that PID.
        let killed = c.messages.iter().rev().find(|m| m.role == Role::Assistant).and_then(|m| match &m.body {
            Body::Text { text, .. } => nokey::kill_named_pid(request, text, lang),
            _ => None,
        });
        if let Some(text) = killed {
            return self.nokey_answer_text(c, text, source, env);
        }
        if let Some(text) = nokey::text_answer(request, before.as_deref(), lang) {
            return self.nokey_answer_text(c, text, source, env);
        }
        let mut topic = nokey::recognise(request);
        if let Some(text) = topic.is_none().then(|| nokey::thanks_reply(request, lang)).flatten() {
            return self.nokey_answer_text(c, text.to_string(), source, env);
        }
        // "and on windows?", "what if I already pushed it?", "상위 10개만": a follow-up that names
        // nothing itself is read with the request before it.
        let mut request = request.to_string();
        if let Some(before) = before.filter(|_| topic.is_none() && nokey::follows_up(&request)) {
            let both = nokey::with_follow_up(&before, &request);
            if let Some(text) = nokey::text_answer(&both, None, lang) {
                // "and on linux?" after an answer that holds for Linux already: the same answer
                // again would say nothing new.
                let last = c.messages.iter().rev().find(|m| m.role == Role::Assistant).and_then(|m| match &m.body {
                    Body::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                });
                let text = match last == Some(text.as_str()) {
                    true => lang
                        .pick(
                            "키 없이는 위의 답보다 더 드릴 것이 없습니다. 설정에서 API 키를 넣으면 모델이 이어서 답합니다.",
                            "Without a key I have nothing more on that than the answer above. Add an API key in Settings and a model takes it further.",
                        )
                        .to_string(),
                    false => text,
                };
                return self.nokey_answer_text(c, text, source, env);
            }
            topic = nokey::recognise(&both);
            if topic.is_some() {
                request = both;
            }
        }
        let request = request.as_str();
        // "I feel so down today", "help me plan a bot that …": another mode is made for that.
        if let Some(text) = topic.is_none().then(|| nokey::other_mode(request, lang)).flatten() {
            return self.nokey_answer_text(c, text.to_string(), source, env);
        }
        match topic {
            Some(topic) => self.nokey_offer(c, topic, request, source, lang, env),
            None => {
                let ask = lang.pick("어떤 일을 도와드릴까요?", "What would you like to do?");
                // The card asks the question; what the assistant is goes before it only the
                // first time, without the question again.
                match self.nokey_intro(lang) {
                    Some(intro) => {
                        c.say(Body::Text { text: intro.to_string(), source: Some(source.clone()) }, env.now);
                        self.history.push(Turn::assistant(format!("{intro} {ask}")));
                    }
                    None => self.history.push(Turn::assistant(ask)),
                }
                let question = Question {
                    text: ask.to_string(),
                    options: Topic::ALL.iter().map(|t| t.label(lang).to_string()).collect(),
                    allow_other: false,
                    target: Target::Free,
                    header: Some(lang.pick("할 일", "Task").to_string()),
                    ..Default::default()
                };
                let card = c.post_card(CardKind::Clarify, vec![question], source, env.now);
                self.awaiting = Some(Awaiting::NoKeyCard { card, topic: None, text: request.to_string() });
                self.state = LoopState::User;
            }
        }
        self.fold_if_full(c, env, None, false);
        self.meter_notice(c, env);
    }

    /// A no-key answer that is only text: said, kept in the history, and the loop idle.
    fn nokey_answer_text(&mut self, c: &mut C, text: String, source: Source, env: &Env) {
        self.history.push(Turn::assistant(text.clone()));
        c.say(Body::Text { text, source: Some(source) }, env.now);
        self.state = LoopState::Idle;
        self.meter_notice(c, env);
    }

    /// What the no-key assistant is, said once per chat: `None` once it has been said.
    fn nokey_intro(&mut self, lang: Lang) -> Option<&'static str> {
        (!std::mem::replace(&mut self.introduced, true)).then(|| nokey::intro(lang))
    }

    fn nokey_offer(&mut self, c: &mut C, topic: Topic, request: &str, source: Source, lang: Lang, env: &Env) {
        let offer = nokey::offer(topic, request, lang);
        let intro = self.nokey_intro(lang);
        if let Some(intro) = intro {
            c.say(Body::Text { text: intro.to_string(), source: Some(source.clone()) }, env.now);
        }
        // "find files bigger than 100MB in my home directory": what it names is proposed at once,
        // not asked for on a card.
        if let Some(choice) = offer.choices.first().filter(|_| offer.named) {
            if let Some(intro) = intro {
                self.history.push(Turn::assistant(intro.to_string()));
            }
            self.propose(c, choice, source, env);
            return;
        }
        let question = Question {
            text: offer.question.clone(),
            options: offer.choices.iter().map(|ch| ch.label.clone()).collect(),
            allow_other: true,
            target: Target::Free,
            header: Some(offer.header.clone()),
            descriptions: offer.choices.iter().map(|ch| ch.description.clone()).collect(),
            multi_select: false,
        };
        self.history.push(Turn::assistant(match intro {
            Some(intro) => format!("{intro} {}", offer.question),
            None => offer.question.clone(),
        }));
        let card = c.post_card(CardKind::Clarify, vec![question], source, env.now);
        self.awaiting = Some(Awaiting::NoKeyCard { card, topic: Some(topic), text: request.to_string() });
        self.state = LoopState::User;
    }

    fn nokey_answer(&mut self, c: &mut C, topic: Option<Topic>, request: &str, answer: &str, env: &Env) {
        let lang = Lang::of_message(request, c.lang);
        let source = c.heuristic();
        match topic {
            None => match Topic::ALL.iter().find(|t| t.label(lang) == answer) {
                Some(topic) => self.nokey_offer(c, *topic, request, source, lang, env),
                None => {
                    self.state = LoopState::Idle;
                    c.notice(lang.pick("선택지 중 하나를 골라 주세요.", "Please pick one of the options."), env.now);
                }
            },
            Some(topic) => {
                let offer = nokey::offer(topic, request, lang);
                match offer.choices.iter().find(|ch| ch.label == answer) {
                    Some(choice) => self.propose(c, choice, source, env),
                    None => {
                        self.state = LoopState::Idle;
                        let t = lang.pick(
                            "그 답에 맞는 명령은 키 없이 만들 수 없습니다. 선택지 중 하나를 고르거나, 설정에서 API 키를 넣어 주세요.",
                            "Without a key I cannot turn that answer into a command. Pick one of the options, or add an API key in Settings.",
                        );
                        self.history.push(Turn::assistant(t));
                        c.say(Body::Text { text: t.to_string(), source: Some(source) }, env.now);
                    }
                }
            }
        }
        self.meter_notice(c, env);
    }

    /// A no-key choice's command, on a card that asks before it runs.
    fn propose(&mut self, c: &mut C, choice: &nokey::Choice, source: Source, env: &Env) {
        let (command, kind) = choice.command.clone();
        let danger = match kind {
            CommandKind::Shell => crate::engine::danger::assess(&command),
            CommandKind::Sql => crate::engine::danger::assess_sql(&command),
        };
        let card = CommandCard { command, why: choice.why.clone(), kind, danger, state: CommandState::Open, source };
        self.history.push(Turn::assistant(format!("Proposed: {}", card.command)));
        let message = c.say(command_body(card), env.now);
        self.awaiting = Some(Awaiting::NoKeyCommand { message });
        self.state = LoopState::User;
    }
}

/// Most summary lines kept besides the verbatim constraints and decisions.
const MAX_SUMMARY_LINES: usize = 20;

/// Estimated tokens of the three tool specs (sent with every prompt).
const TOOL_SPEC_TOKENS: u32 = 700;

fn command_body(card: CommandCard) -> Body {
    Body::Artifact { artifact: AppArtifact::Chat(ChatArtifact::Command { card }) }
}

/// The command card in a message, if it holds one.
pub fn command_card(c: &C, message: MessageId) -> Option<CommandCard> {
    c.messages.iter().find(|m| m.id == message).and_then(|m| match &m.body {
        Body::Artifact { artifact: AppArtifact::Chat(ChatArtifact::Command { card }) } => Some(card.clone()),
        _ => None,
    })
}

/// A tool's question as a question card's question.
fn card_question(q: &tools::Question) -> Question {
    Question {
        text: q.question.clone(),
        options: q.options.iter().map(|o| o.label.clone()).collect(),
        allow_other: true,
        target: Target::Free,
        header: (!q.header.is_empty()).then(|| q.header.clone()),
        descriptions: q.options.iter().map(|o| o.description.clone().unwrap_or_default()).collect(),
        multi_select: q.multi_select,
    }
}

/// Reads a card answer: chosen option labels (several on separate lines for multi-select), or
/// the user's own words.
fn read_answer((q, answer): (&tools::Question, &String)) -> QuestionAnswer {
    let answer = answer.trim();
    if answer.is_empty() {
        return QuestionAnswer::Typed(String::new());
    }
    let parts: Vec<&str> = answer.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let is_label = |p: &&str| q.options.iter().any(|o| o.label == *p);
    if !q.options.is_empty() && parts.iter().all(is_label) {
        QuestionAnswer::Chosen(parts.iter().map(|p| p.to_string()).collect())
    } else if q.multi_select && parts.iter().any(is_label) {
        // Options chosen and "Other" written beside them: both, the written one marked.
        QuestionAnswer::Chosen(
            parts
                .iter()
                .map(|p| if is_label(p) { p.to_string() } else { format!("(in their own words) {p}") })
                .collect(),
        )
    } else {
        QuestionAnswer::Typed(answer.to_string())
    }
}

/// A turn's text on one line, without the `<user_input>` wrapper.
fn one_line(text: &str) -> String {
    let inner = text.trim().trim_start_matches("<user_input>").trim_end_matches("</user_input>");
    inner.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Most characters of a model's fold summary; a longer answer is not a summary.
pub const MAX_FOLD_SUMMARY_CHARS: usize = 2_000;
/// Most characters of one turn shown to the model in a fold prompt.
const FOLD_TURN_CHARS: usize = 600;

/// The prompt asking the model to summarise the turns being folded: all of them, the user's
/// words, answers and tool results alike, inside one isolation block.
fn fold_prompt(turns: &[Turn]) -> Prompt {
    let lines: Vec<String> = turns
        .iter()
        .filter_map(|t| {
            let text = clip(&one_line(&t.text), FOLD_TURN_CHARS);
            let calls: Vec<String> =
                t.tool_calls.iter().map(|k| format!("{}({})", k.name, clip(&k.arguments, 200))).collect();
            let who = match t.role {
                TurnRole::User => "user",
                TurnRole::Assistant => "assistant",
                TurnRole::Tool => "tool result",
            };
            match (text.is_empty(), calls.is_empty()) {
                (true, true) => None,
                (_, true) => Some(format!("{who}: {text}")),
                (true, false) => Some(format!("{who} called {}", calls.join(", "))),
                (false, false) => Some(format!("{who}: {text} [called {}]", calls.join(", "))),
            }
        })
        .collect();
    Prompt {
        system: prompt_text::text(PromptText::ChatFoldSystemPrompt).to_string(),
        turns: vec![Turn::user(isolate(&lines.join("\n"), DEFAULT_TAG))],
        json_output: false,
        max_tokens: 400,
        temperature: 0.2,
        tools: Vec::new(),
    }
}

/// The model's fold summary if it is usable: plain text, not empty, not a refusal or tool
/// call, not longer than the limit nor than the turns it replaces. Else why not.
fn fold_answer(text: &str, refusal: bool, tool_calls: &[ToolCall], freed: u32) -> Result<String, &'static str> {
    let text = text.trim();
    if refusal {
        return Err("the model declined to summarise");
    }
    if text.is_empty() || !tool_calls.is_empty() {
        return Err("the summary was empty");
    }
    if text.chars().count() > MAX_FOLD_SUMMARY_CHARS || estimate(text) > freed.max(64) {
        return Err("the summary was longer than the turns it replaces");
    }
    if text.starts_with(['{', '[', '<']) || text.starts_with("```") {
        return Err("the summary was not plain text");
    }
    Ok(text.to_string())
}

/// Summary lines of folded turns, and how many constraints and decisions were kept verbatim.
fn summarise(folded: &[Turn]) -> (Vec<String>, usize) {
    let mut lines = Vec::new();
    let mut kept = 0;
    let asked: Vec<&str> = folded
        .iter()
        .flat_map(|t| t.tool_calls.iter())
        .filter(|t| t.name == tools::ASK_USER_QUESTION)
        .map(|t| t.id.as_str())
        .collect();
    for turn in folded {
        let text = one_line(&turn.text);
        match turn.role {
            TurnRole::User if is_constraint(&text) => {
                kept += 1;
                lines.push(format!("- user constraint (verbatim): {text}"));
            }
            TurnRole::User => lines.push(format!("- user: {}", clip(&text, 100))),
            TurnRole::Assistant if !text.is_empty() => lines.push(format!("- assistant: {}", clip(&text, 100))),
            TurnRole::Assistant => {}
            TurnRole::Tool if turn.tool_call_id.as_deref().is_some_and(|id| asked.contains(&id)) => {
                kept += 1;
                lines.push(format!("- user decision (verbatim): {text}"));
            }
            TurnRole::Tool => lines.push(format!("- tool result: {}", clip(&text, 80))),
        }
    }
    (lines, kept)
}

/// Cuts a long text for the model (re-exported for the bench).
pub fn cut_for_model(text: &str) -> String {
    cut_output(text, OUTPUT_LIMIT, Lang::En)
}

#[cfg(test)]
mod history_tests {
    use super::*;

    fn counted(history: &History) -> u32 {
        history.iter().map(tokens_of).sum()
    }

    /// The kept token count always equals the count of the turns held, through pushes, folds
    /// (also one past the end) and a round trip through the saved form.
    #[test]
    fn the_kept_token_count_follows_pushes_and_folds() {
        let mut history = History::default();
        assert_eq!(history.tokens, 0);
        for i in 0..12 {
            history.push(Turn::user(format!("질문 {i}: how do I clean the build folder?")));
            history.push(Turn::assistant("rm -rf target ".repeat(i + 1)));
            assert_eq!(history.tokens, counted(&history));
        }
        assert!(history.tokens > 100);
        let folded = history.drain_oldest(5);
        assert_eq!((folded.len(), history.len()), (5, 19));
        assert_eq!(history.tokens, counted(&history));
        let json = serde_json::to_string(&history).unwrap();
        assert!(json.starts_with('['), "saved as the plain list of turns: {json}");
        let back: History = serde_json::from_str(&json).unwrap();
        assert_eq!(back, history);
        history.drain_oldest(100);
        assert_eq!((history.len(), history.tokens), (0, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_card_answer_reads_as_choices_own_words_or_both() {
        let option = |label: &str| tools::QuestionOption { label: label.into(), description: None };
        let question = |multi_select| tools::Question {
            header: "Checks".into(),
            question: "Which checks?".into(),
            options: vec![option("Lint"), option("Unit tests")],
            multi_select,
        };
        let read = |multi, answer: &str| read_answer((&question(multi), &answer.to_string()));
        assert_eq!(read(true, "Lint\nUnit tests"), QuestionAnswer::Chosen(vec!["Lint".into(), "Unit tests".into()]));
        assert_eq!(
            read(true, "Lint\nSecurity scan"),
            QuestionAnswer::Chosen(vec!["Lint".into(), "(in their own words) Security scan".into()])
        );
        assert_eq!(read(true, "Security scan"), QuestionAnswer::Typed("Security scan".into()));
        assert_eq!(read(false, "Lint"), QuestionAnswer::Chosen(vec!["Lint".into()]));
        assert_eq!(read(false, "something else"), QuestionAnswer::Typed("something else".into()));
    }
}
