//! The tools the chat model may call, their JSON Schemas, and the checking of its arguments.
//!
//! The browser has no shell, so the tools are ones a page can honestly run: ask the user a
//! question card (`AskUserQuestion`), propose a command for the user to run on their own
//! machine (`propose_command`, seed 001's Bash tool with the human as the executor), and read a
//! file the user attached (`read_attachment`). Arguments are checked before anything is shown:
//! a bad call becomes a [`ToolError`] whose text tells the model what was wrong and how to call
//! again. Long outputs are cut to [`OUTPUT_LIMIT`] characters, head and tail kept.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::engine::danger::{self, Danger};
use crate::engine::lang::{group_thousands, Lang};
use crate::engine::prompt::{ToolCall, ToolSpec};
use crate::engine::prompt_text::{self, PromptText};

/// Name of the question-card tool (the shape Claude Code users know).
pub const ASK_USER_QUESTION: &str = "AskUserQuestion";
/// Name of the tool that proposes a shell command or SQL for the user to run.
pub const PROPOSE_COMMAND: &str = "propose_command";
/// Name of the tool that reads a file the user attached.
pub const READ_ATTACHMENT: &str = "read_attachment";

/// Most characters of a tool output the model gets (seed 001: 10,000).
pub const OUTPUT_LIMIT: usize = 10_000;
/// Questions one `AskUserQuestion` call may ask.
pub const MAX_QUESTIONS: usize = 4;
/// Fewest options of a multiple-choice question (fewer means free text).
pub const MIN_OPTIONS: usize = 2;
/// Most options of a multiple-choice question.
pub const MAX_OPTIONS: usize = 10;
/// Longest question header, in characters.
pub const MAX_HEADER_CHARS: usize = 12;

/// How the model should use the tools, for the chat system prompt (seed 001 §3.3, in this
/// project's words; English, which every model follows best).
pub const TOOL_GUIDELINES: &str = "How to work with the user:\n\
1. When a request is ambiguous or you are unsure what the user wants, ask with AskUserQuestion \
before doing anything.\n\
2. Before proposing anything that deletes, overwrites or cannot be undone, ask the user to \
confirm with AskUserQuestion, and say what will be lost.\n\
3. When several approaches are valid, ask which one the user prefers instead of choosing for them.\n\
4. Prefer questions with options (2-10 short labels, each with a one-line description) over \
free-text questions; the user can always answer in their own words.\n\
5. After asking, wait for the answer and follow it. If a tool returns an error, read its hint, \
fix the call and try again.\n\
6. You cannot run commands yourself: use propose_command and the user will run it and paste \
the output back. Read attached files with read_attachment.";

/// The three chat tools as the model sees them.
pub fn tool_specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: ASK_USER_QUESTION.to_string(),
            description: prompt_text::text(PromptText::AskUserQuestionDescription).to_string(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "questions": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": MAX_QUESTIONS,
                        "items": {
                            "type": "object",
                            "properties": {
                                "header": {
                                    "type": "string",
                                    "maxLength": MAX_HEADER_CHARS,
                                    "description": "A very short label for the question, e.g. \"Database\"."
                                },
                                "question": {"type": "string", "description": "The question, ending with '?'."},
                                "options": {
                                    "type": "array",
                                    "minItems": MIN_OPTIONS,
                                    "maxItems": MAX_OPTIONS,
                                    "description": "Choices; leave out for a free-text answer.",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "label": {"type": "string", "description": "1-5 words."},
                                            "description": {"type": "string", "description": "What choosing it means."}
                                        },
                                        "required": ["label"]
                                    }
                                },
                                "multiSelect": {"type": "boolean", "description": "Allow several options."}
                            },
                            "required": ["header", "question"]
                        }
                    }
                },
                "required": ["questions"]
            }),
        },
        ToolSpec {
            name: PROPOSE_COMMAND.to_string(),
            description: prompt_text::text(PromptText::ProposeCommandDescription).to_string(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "The exact command or SQL to run."},
                    "why": {"type": "string", "description": "One sentence: what it does and why it is needed."},
                    "shell": {"type": "string", "enum": ["shell", "sql"], "description": "shell (default) or sql."}
                },
                "required": ["command", "why"]
            }),
        },
        ToolSpec {
            name: READ_ATTACHMENT.to_string(),
            description: "Read a text file the user attached, by name. Long files come back cut; read on with \
                the offset the note gives."
                .to_string(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The attachment's file name."},
                    "offset": {"type": "integer", "minimum": 0, "description": "Character to start from (default 0)."}
                },
                "required": ["name"]
            }),
        },
    ]
}

/// One choice of a question card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionOption {
    /// The short text on the choice.
    pub label: String,
    /// What choosing it means, when the model said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// One question of an `AskUserQuestion` call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// A short label (at most [`MAX_HEADER_CHARS`]); empty when the model gave none.
    pub header: String,
    /// The question itself.
    pub question: String,
    /// The choices; empty for a free-text question.
    pub options: Vec<QuestionOption>,
    /// True when several options may be chosen.
    pub multi_select: bool,
}

/// Whether a proposed command is for a shell or a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandKind {
    /// A shell command line.
    Shell,
    /// SQL for a database client.
    Sql,
}

/// A `propose_command` call, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposedCommand {
    /// The command as the user should run it.
    pub command: String,
    /// The model's reason for it.
    pub why: String,
    /// Shell or SQL.
    pub kind: CommandKind,
}

impl ProposedCommand {
    /// Why running it is dangerous, when it is (checked as SQL or as a shell command by its kind).
    pub fn danger(&self) -> Option<Danger> {
        match self.kind {
            CommandKind::Shell => danger::assess(&self.command),
            CommandKind::Sql => danger::assess_sql(&self.command),
        }
    }
}

/// A `read_attachment` call, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentRead {
    /// The attachment's name as the model wrote it.
    pub name: String,
    /// The character to start from.
    pub offset: usize,
}

/// A checked call of one of the chat tools.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "tool")]
pub enum ChatToolCall {
    /// Show question cards (1-4).
    AskUser { questions: Vec<Question> },
    /// Show a command to run, with Copy.
    ProposeCommand(ProposedCommand),
    /// Read an attached file.
    ReadAttachment(AttachmentRead),
}

/// What was wrong with a tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum ToolProblem {
    /// The model named a tool that does not exist.
    UnknownTool { name: String },
    /// The arguments are not a JSON object.
    NotAnObject,
    /// A required field is missing or empty.
    Missing { field: String },
    /// A field has the wrong type.
    WrongType { field: String, expected: String },
    /// No question, or more than [`MAX_QUESTIONS`].
    QuestionCount { count: usize },
    /// A header longer than [`MAX_HEADER_CHARS`].
    HeaderTooLong { question: usize, chars: usize },
    /// One option, or more than [`MAX_OPTIONS`].
    OptionCount { question: usize, count: usize },
    /// Two options with the same label.
    DuplicateOption { question: usize, label: String },
    /// `multiSelect` on a free-text question.
    MultiSelectWithoutOptions { question: usize },
    /// `shell` is neither `shell` nor `sql`.
    UnknownCommandKind { value: String },
    /// No attachment of that name.
    NoSuchAttachment { name: String, available: Vec<String> },
    /// The offset is past the end of the attachment.
    OffsetPastEnd { offset: usize, chars: usize },
}

/// A rejected tool call: returned to the model as an error tool result, with a hint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolError {
    /// The tool that was called.
    pub tool: String,
    /// What was wrong.
    pub problem: ToolProblem,
}

impl ToolError {
    fn new(tool: &str, problem: ToolProblem) -> Self {
        ToolError { tool: tool.to_string(), problem }
    }

    /// The error tool result for the model: what was wrong and how to call again (English,
    /// which every model reads).
    pub fn for_model(&self) -> String {
        use ToolProblem::*;
        let (what, hint) = match &self.problem {
            UnknownTool { name } => (
                format!("there is no tool named \"{name}\""),
                format!("use one of: {ASK_USER_QUESTION}, {PROPOSE_COMMAND}, {READ_ATTACHMENT}"),
            ),
            NotAnObject => {
                ("the arguments are not a JSON object".into(), "send the arguments as one JSON object".into())
            }
            Missing { field } => (format!("\"{field}\" is missing or empty"), format!("give a non-empty \"{field}\"")),
            WrongType { field, expected } => {
                (format!("\"{field}\" has the wrong type"), format!("\"{field}\" must be {expected}"))
            }
            QuestionCount { count } => (
                format!("{count} questions were given"),
                format!("ask 1 to {MAX_QUESTIONS} questions in \"questions\""),
            ),
            HeaderTooLong { question, chars } => (
                format!("the header of question {} has {chars} characters", question + 1),
                format!("use a header of at most {MAX_HEADER_CHARS} characters, e.g. \"Database\""),
            ),
            OptionCount { question, count } => (
                format!("question {} has {count} option(s)", question + 1),
                format!(
                    "give {MIN_OPTIONS} to {MAX_OPTIONS} options, or leave \"options\" out for a free-text question"
                ),
            ),
            DuplicateOption { question, label } => (
                format!("question {} lists the option \"{label}\" twice", question + 1),
                "give every option a different label".into(),
            ),
            MultiSelectWithoutOptions { question } => (
                format!("question {} allows several choices but has no options", question + 1),
                "add options, or drop \"multiSelect\"".into(),
            ),
            UnknownCommandKind { value } => {
                (format!("\"shell\" is \"{value}\""), "set \"shell\" to \"shell\" or \"sql\"".into())
            }
            NoSuchAttachment { name, available } if available.is_empty() => (
                format!("there is no attachment named \"{name}\""),
                "the user has attached no files; ask them to".into(),
            ),
            NoSuchAttachment { name, available } => (
                format!("there is no attachment named \"{name}\""),
                format!("attached files: {}", available.join(", ")),
            ),
            OffsetPastEnd { offset, chars } => (
                format!("offset {offset} is past the end of the file ({chars} characters)"),
                "read from an offset below the file's length".into(),
            ),
        };
        format!("Error in {}: {what}. Hint: {hint}.", self.tool)
    }

    /// A short description for the user, in the UI language.
    pub fn message(&self, lang: Lang) -> String {
        let what = lang.pick("모델이 도구를 잘못 불렀습니다", "The model called a tool wrongly");
        let retry = lang.pick("다시 시도하도록 알려 주었습니다.", "It was told how to try again.");
        format!("{what} ({}). {retry}", self.tool)
    }
}

/// Checks a tool call the model made: the typed call, or the error to send back.
pub fn parse_tool_call(call: &ToolCall) -> Result<ChatToolCall, ToolError> {
    let tool = call.name.trim();
    let arguments: Value = if call.arguments.trim().is_empty() {
        Value::Object(Map::new())
    } else {
        serde_json::from_str(&call.arguments).map_err(|_| ToolError::new(tool, ToolProblem::NotAnObject))?
    };
    let Value::Object(args) = arguments else {
        return Err(ToolError::new(tool, ToolProblem::NotAnObject));
    };
    match tool {
        ASK_USER_QUESTION => parse_questions(&args).map(|questions| ChatToolCall::AskUser { questions }),
        PROPOSE_COMMAND => parse_command(&args).map(ChatToolCall::ProposeCommand),
        READ_ATTACHMENT => parse_read(&args).map(ChatToolCall::ReadAttachment),
        other => Err(Checked::Error(ToolError::new(other, ToolProblem::UnknownTool { name: other.to_string() }))),
    }
    .map_err(|problem| match problem {
        Checked::Problem(problem) => ToolError::new(tool, problem),
        Checked::Error(error) => error,
    })
}

/// A problem found inside one tool's checker (the tool name is added by the caller).
enum Checked {
    Problem(ToolProblem),
    Error(ToolError),
}

impl From<ToolProblem> for Checked {
    fn from(problem: ToolProblem) -> Self {
        Checked::Problem(problem)
    }
}

impl From<ToolError> for Checked {
    fn from(error: ToolError) -> Self {
        Checked::Error(error)
    }
}

fn missing(field: &str) -> ToolProblem {
    ToolProblem::Missing { field: field.to_string() }
}

fn wrong_type(field: &str, expected: &str) -> ToolProblem {
    ToolProblem::WrongType { field: field.to_string(), expected: expected.to_string() }
}

/// A required, non-empty string field, trimmed.
fn required_text(args: &Map<String, Value>, field: &str) -> Result<String, ToolProblem> {
    match args.get(field) {
        None | Some(Value::Null) => Err(missing(field)),
        Some(Value::String(s)) if s.trim().is_empty() => Err(missing(field)),
        Some(Value::String(s)) => Ok(s.trim().to_string()),
        Some(_) => Err(wrong_type(field, "a string")),
    }
}

/// An optional string field, trimmed; empty counts as absent.
fn optional_text(args: &Map<String, Value>, field: &str) -> Result<Option<String>, ToolProblem> {
    match args.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string()).filter(|s| !s.is_empty())),
        Some(_) => Err(wrong_type(field, "a string")),
    }
}

/// Questions in the Claude Code shape (`questions: [...]`), or one question at the top level
/// as seed 001 sends it (`question`, `options` as plain strings).
fn parse_questions(args: &Map<String, Value>) -> Result<Vec<Question>, Checked> {
    let items: Vec<&Map<String, Value>> = match args.get("questions") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_object().ok_or_else(|| wrong_type("questions", "an array of objects")))
            .collect::<Result<_, _>>()?,
        Some(Value::Null) | None if args.contains_key("question") => vec![args],
        Some(Value::Null) | None => return Err(missing("questions").into()),
        Some(_) => return Err(wrong_type("questions", "an array of objects").into()),
    };
    if items.is_empty() || items.len() > MAX_QUESTIONS {
        return Err(ToolProblem::QuestionCount { count: items.len() }.into());
    }
    let mut questions = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let question = required_text(item, "question")?;
        let header = optional_text(item, "header")?.unwrap_or_default();
        let header_chars = header.chars().count();
        if header_chars > MAX_HEADER_CHARS {
            return Err(ToolProblem::HeaderTooLong { question: index, chars: header_chars }.into());
        }
        let options = parse_options(item, index)?;
        let multi_select = match item.get("multiSelect").or_else(|| item.get("multi_select")) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(wrong_type("multiSelect", "true or false").into()),
        };
        if multi_select && options.is_empty() {
            return Err(ToolProblem::MultiSelectWithoutOptions { question: index }.into());
        }
        questions.push(Question { header, question, options, multi_select });
    }
    Ok(questions)
}

fn parse_options(item: &Map<String, Value>, question: usize) -> Result<Vec<QuestionOption>, ToolProblem> {
    let list = match item.get("options") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(wrong_type("options", "an array of {label, description} objects")),
    };
    let mut options: Vec<QuestionOption> = Vec::with_capacity(list.len());
    for option in list {
        let parsed = match option {
            Value::String(label) => QuestionOption { label: label.trim().to_string(), description: None },
            Value::Object(fields) => QuestionOption {
                label: required_text(fields, "label")?,
                description: optional_text(fields, "description")?,
            },
            _ => return Err(wrong_type("options", "an array of {label, description} objects")),
        };
        if parsed.label.is_empty() {
            return Err(missing("label"));
        }
        if options.iter().any(|o| o.label.eq_ignore_ascii_case(&parsed.label)) {
            return Err(ToolProblem::DuplicateOption { question, label: parsed.label });
        }
        options.push(parsed);
    }
    if options.is_empty() {
        // An empty list is the model's way of saying "free text".
        return Ok(options);
    }
    if options.len() < MIN_OPTIONS || options.len() > MAX_OPTIONS {
        return Err(ToolProblem::OptionCount { question, count: options.len() });
    }
    Ok(options)
}

fn parse_command(args: &Map<String, Value>) -> Result<ProposedCommand, Checked> {
    let command = required_text(args, "command")?;
    let why = required_text(args, "why")?;
    let kind = match optional_text(args, "shell")?.map(|s| s.to_ascii_lowercase()) {
        None => CommandKind::Shell,
        Some(s) if matches!(s.as_str(), "shell" | "sh" | "bash" | "zsh" | "powershell" | "cmd") => CommandKind::Shell,
        Some(s) if matches!(s.as_str(), "sql" | "postgres" | "postgresql" | "mysql" | "sqlite") => CommandKind::Sql,
        Some(value) => return Err(ToolProblem::UnknownCommandKind { value }.into()),
    };
    Ok(ProposedCommand { command, why, kind })
}

fn parse_read(args: &Map<String, Value>) -> Result<AttachmentRead, Checked> {
    let name = required_text(args, "name")?;
    let offset = match args.get("offset") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
            None => return Err(wrong_type("offset", "a whole number, 0 or more").into()),
        },
        // Some models quote numbers.
        Some(Value::String(s)) => s.trim().parse().map_err(|_| wrong_type("offset", "a whole number, 0 or more"))?,
        Some(_) => return Err(wrong_type("offset", "a whole number, 0 or more").into()),
    };
    Ok(AttachmentRead { name, offset })
}

/// A text file the user attached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// The file name.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Reads an attachment for the model: the text from `offset`, cut to `limit` characters (head
/// and tail) with a note saying where to read on; the name matches exactly, else ignoring case.
pub fn read_attachment(
    attachments: &[Attachment],
    read: &AttachmentRead,
    limit: usize,
    lang: Lang,
) -> Result<String, ToolError> {
    let found = attachments
        .iter()
        .find(|a| a.name == read.name)
        .or_else(|| attachments.iter().find(|a| a.name.eq_ignore_ascii_case(read.name.trim())));
    let Some(attachment) = found else {
        let available = attachments.iter().map(|a| a.name.clone()).collect();
        return Err(ToolError::new(
            READ_ATTACHMENT,
            ToolProblem::NoSuchAttachment { name: read.name.clone(), available },
        ));
    };
    let chars = attachment.text.chars().count();
    if read.offset > 0 && read.offset >= chars {
        return Err(ToolError::new(READ_ATTACHMENT, ToolProblem::OffsetPastEnd { offset: read.offset, chars }));
    }
    let rest: String = attachment.text.chars().skip(read.offset).collect();
    let rest_chars = chars - read.offset;
    if rest_chars <= limit {
        return Ok(rest);
    }
    let head = head_len(limit);
    let read_on = read.offset + head;
    let note = match lang {
        Lang::Ko => {
            format!("(처음부터 {read_on}자까지 읽었습니다. 이어서 읽으려면 offset={read_on}으로 다시 부르세요.)")
        }
        Lang::En => format!("(Read up to character {read_on}; call again with offset={read_on} to read on.)"),
    };
    Ok(format!("{}\n{note}", cut_output(&rest, limit, lang)))
}

/// Characters of the head kept when cutting to `limit` (the tail gets the rest).
fn head_len(limit: usize) -> usize {
    limit - limit * 2 / 5
}

/// The text cut to `limit` characters when longer: the first 60 % and the last 40 % kept, with
/// a note in between saying how many characters were cut.
pub fn cut_output(text: &str, limit: usize, lang: Lang) -> String {
    let chars = text.chars().count();
    if chars <= limit {
        return text.to_string();
    }
    let head = head_len(limit);
    let tail = limit - head;
    let cut = chars - limit;
    let note = match lang {
        Lang::Ko => format!("\n\n… ({}자 생략) …\n\n", group_thousands(cut as u64)),
        Lang::En => format!("\n\n… ({} characters cut) …\n\n", group_thousands(cut as u64)),
    };
    let mut out: String = text.chars().take(head).collect();
    out.push_str(&note);
    out.extend(text.chars().skip(chars - tail));
    out
}

/// The user's answer to one question card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionAnswer {
    /// The labels of the chosen options.
    Chosen(Vec<String>),
    /// The user's own words (free text, or "Other").
    Typed(String),
    /// The user closed the card without answering.
    Cancelled,
}

/// The tool result for the model once the user has answered every card of a call; an empty
/// answer is an error, a cancel is reported as cancelled.
pub fn answers_result(questions: &[Question], answers: &[QuestionAnswer]) -> Result<String, ToolError> {
    let mut lines = Vec::with_capacity(questions.len());
    for (index, question) in questions.iter().enumerate() {
        let answer = match answers.get(index) {
            Some(QuestionAnswer::Chosen(labels)) if !labels.iter().all(|l| l.trim().is_empty()) => {
                format!("the user chose: {}", labels.join(", "))
            }
            Some(QuestionAnswer::Typed(text)) if !text.trim().is_empty() => {
                format!("the user answered: {}", text.trim())
            }
            Some(QuestionAnswer::Cancelled) => "the user cancelled this question without answering".to_string(),
            _ => return Err(ToolError::new(ASK_USER_QUESTION, missing("answer"))),
        };
        lines.push(format!("Q{}: {} → {answer}", index + 1, question.question));
    }
    Ok(lines.join("\n"))
}

/// What became of a proposed command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandOutcome {
    /// The user ran it and pasted this output.
    Output(String),
    /// The user ran it and says it failed, with what they pasted.
    Failed(String),
    /// The user declined to run it (or declined the danger confirmation).
    Declined,
}

/// The tool result for the model about a proposed command, the output cut to `limit`.
pub fn command_result(outcome: &CommandOutcome, limit: usize) -> String {
    match outcome {
        CommandOutcome::Output(text) if text.trim().is_empty() => {
            "The user ran the command; it printed nothing.".into()
        }
        CommandOutcome::Output(text) => {
            format!("The user ran the command. Output:\n{}", cut_output(text, limit, Lang::En))
        }
        CommandOutcome::Failed(text) if text.trim().is_empty() => "The user ran the command and it failed.".into(),
        CommandOutcome::Failed(text) => {
            format!("The user ran the command and it failed. Output:\n{}", cut_output(text, limit, Lang::En))
        }
        CommandOutcome::Declined => {
            "The user declined to run this command. Do not propose it again; ask what they want instead.".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn call(name: &str, arguments: &str) -> ToolCall {
        ToolCall { id: "call_1".into(), name: name.into(), arguments: arguments.into() }
    }

    fn problem(name: &str, arguments: &str) -> Option<ToolProblem> {
        parse_tool_call(&call(name, arguments)).err().map(|e| e.problem)
    }

    #[test]
    fn specs_name_the_three_tools_with_object_schemas() {
        let specs = tool_specs();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec![ASK_USER_QUESTION, PROPOSE_COMMAND, READ_ATTACHMENT]);
        for spec in &specs {
            assert_eq!(spec.parameters["type"], "object", "{}", spec.name);
            assert!(spec.parameters["required"].as_array().is_some_and(|r| !r.is_empty()), "{}", spec.name);
        }
    }

    #[test]
    fn guidelines_name_every_tool() {
        for name in [ASK_USER_QUESTION, PROPOSE_COMMAND, READ_ATTACHMENT] {
            assert!(TOOL_GUIDELINES.contains(name), "{name}");
        }
    }

    #[test]
    fn well_formed_questions_are_read() {
        let args = r#"{"questions":[
            {"header":"Database","question":"Which database?","options":[
                {"label":"PostgreSQL","description":"Relational"},{"label":"SQLite"}],"multiSelect":false},
            {"header":"Name","question":"What should the project be called?"}]}"#;
        let parsed = parse_tool_call(&call(ASK_USER_QUESTION, args));
        assert_eq!(
            parsed,
            Ok(ChatToolCall::AskUser {
                questions: vec![
                    Question {
                        header: "Database".into(),
                        question: "Which database?".into(),
                        options: vec![
                            QuestionOption { label: "PostgreSQL".into(), description: Some("Relational".into()) },
                            QuestionOption { label: "SQLite".into(), description: None },
                        ],
                        multi_select: false,
                    },
                    Question {
                        header: "Name".into(),
                        question: "What should the project be called?".into(),
                        options: vec![],
                        multi_select: false,
                    },
                ]
            })
        );
    }

    #[test]
    fn seed_shape_with_one_question_and_string_options_is_read() {
        let parsed = parse_tool_call(&call(
            ASK_USER_QUESTION,
            r#"{"question":"어떤 프레임워크를 쓸까요?","options":["pytest","unittest","nose"]}"#,
        ));
        let Ok(ChatToolCall::AskUser { questions }) = parsed else { panic!("{parsed:?}") };
        assert_eq!(questions.len(), 1);
        assert_eq!(
            questions[0].options.iter().map(|o| o.label.as_str()).collect::<Vec<_>>(),
            ["pytest", "unittest", "nose"]
        );
        assert_eq!(questions[0].header, "");
    }

    #[test]
    fn bad_questions_are_errors_with_their_problem() {
        let eleven: Vec<String> = (1..=11).map(|i| format!("\"o{i}\"")).collect();
        let eleven = format!(r#"{{"question":"Pick","options":[{}]}}"#, eleven.join(","));
        let ten: Vec<String> = (1..=10).map(|i| format!("\"o{i}\"")).collect();
        let ten = format!(r#"{{"question":"Pick","options":[{}]}}"#, ten.join(","));
        let cases: Vec<(&str, Option<ToolProblem>)> = vec![
            (r#"{"question":"Pick one","options":["only"]}"#, Some(ToolProblem::OptionCount { question: 0, count: 1 })),
            (&eleven, Some(ToolProblem::OptionCount { question: 0, count: 11 })),
            (&ten, None),
            (r#"{"question":"  ","options":["a","b"]}"#, Some(missing("question"))),
            (r#"{"question":"","options":["a","b"]}"#, Some(missing("question"))),
            (r#"{"questions":[]}"#, Some(ToolProblem::QuestionCount { count: 0 })),
            (
                r#"{"questions":[{"question":"a"},{"question":"b"},{"question":"c"},{"question":"d"},{"question":"e"}]}"#,
                Some(ToolProblem::QuestionCount { count: 5 }),
            ),
            (
                r#"{"questions":[{"header":"A very long header","question":"Which?"}]}"#,
                Some(ToolProblem::HeaderTooLong { question: 0, chars: 18 }),
            ),
            (r#"{"questions":[{"header":"데이터베이스 종류","question":"어느 것?"}]}"#, None),
            (
                r#"{"questions":[{"question":"ok?"},{"question":"Pick","options":["a","A"]}]}"#,
                Some(ToolProblem::DuplicateOption { question: 1, label: "A".into() }),
            ),
            (r#"{"question":"Pick","multiSelect":true}"#, Some(ToolProblem::MultiSelectWithoutOptions { question: 0 })),
            (r#"{"question":"Pick","options":[{"label":""},{"label":"b"}]}"#, Some(missing("label"))),
            (
                r#"{"question":"Pick","options":"a,b"}"#,
                Some(wrong_type("options", "an array of {label, description} objects")),
            ),
            (r#"{"question":"Free text","options":[]}"#, None),
            (r#"{}"#, Some(missing("questions"))),
            ("[1,2]", Some(ToolProblem::NotAnObject)),
            ("{not json", Some(ToolProblem::NotAnObject)),
        ];
        for (arguments, want) in cases {
            assert_eq!(problem(ASK_USER_QUESTION, arguments), want, "{arguments}");
        }
    }

    #[test]
    fn proposed_commands_and_attachment_reads_are_checked() {
        let cases: Vec<(&str, &str, Result<ChatToolCall, ToolProblem>)> = vec![
            (
                PROPOSE_COMMAND,
                r#"{"command":"rm -rf node_modules","why":"Reinstall cleanly","shell":"shell"}"#,
                Ok(ChatToolCall::ProposeCommand(ProposedCommand {
                    command: "rm -rf node_modules".into(),
                    why: "Reinstall cleanly".into(),
                    kind: CommandKind::Shell,
                })),
            ),
            (
                PROPOSE_COMMAND,
                r#"{"command":"SELECT count(*) FROM users;","why":"Check the size","shell":"SQL"}"#,
                Ok(ChatToolCall::ProposeCommand(ProposedCommand {
                    command: "SELECT count(*) FROM users;".into(),
                    why: "Check the size".into(),
                    kind: CommandKind::Sql,
                })),
            ),
            (PROPOSE_COMMAND, r#"{"command":"ls"}"#, Err(missing("why"))),
            (PROPOSE_COMMAND, r#"{"command":" ","why":"x"}"#, Err(missing("command"))),
            (PROPOSE_COMMAND, r#"{"command":42,"why":"x"}"#, Err(wrong_type("command", "a string"))),
            (
                PROPOSE_COMMAND,
                r#"{"command":"ls","why":"x","shell":"fortran"}"#,
                Err(ToolProblem::UnknownCommandKind { value: "fortran".into() }),
            ),
            (
                READ_ATTACHMENT,
                r#"{"name":"log.txt"}"#,
                Ok(ChatToolCall::ReadAttachment(AttachmentRead { name: "log.txt".into(), offset: 0 })),
            ),
            (
                READ_ATTACHMENT,
                r#"{"name":"log.txt","offset":"6000"}"#,
                Ok(ChatToolCall::ReadAttachment(AttachmentRead { name: "log.txt".into(), offset: 6000 })),
            ),
            (
                READ_ATTACHMENT,
                r#"{"name":"log.txt","offset":-5}"#,
                Err(wrong_type("offset", "a whole number, 0 or more")),
            ),
            (READ_ATTACHMENT, r#"{"offset":3}"#, Err(missing("name"))),
            ("Bash", r#"{"command":"ls"}"#, Err(ToolProblem::UnknownTool { name: "Bash".into() })),
        ];
        for (name, arguments, want) in cases {
            assert_eq!(parse_tool_call(&call(name, arguments)).map_err(|e| e.problem), want, "{name} {arguments}");
        }
    }

    #[test]
    fn proposed_commands_are_checked_for_danger_by_their_kind() {
        let cases = [
            ("rm -rf node_modules", CommandKind::Shell, Some(crate::engine::danger::DangerKind::RecursiveDelete)),
            ("DELETE FROM users", CommandKind::Sql, Some(crate::engine::danger::DangerKind::UnboundedDelete)),
            ("delete from users where id = 3", CommandKind::Sql, None),
            ("npm ci", CommandKind::Shell, None),
        ];
        for (command, kind, want) in cases {
            let proposed = ProposedCommand { command: command.into(), why: "x".into(), kind };
            assert_eq!(proposed.danger().map(|d| d.kind), want, "{command}");
        }
    }

    #[test]
    fn tool_errors_tell_the_model_what_was_wrong_and_how_to_retry() {
        let error = parse_tool_call(&call(ASK_USER_QUESTION, r#"{"question":"Pick","options":["a"]}"#)).unwrap_err();
        let text = error.for_model();
        assert!(text.starts_with("Error in AskUserQuestion: question 1 has 1 option(s)."), "{text}");
        assert!(text.contains("Hint: give 2 to 10 options"), "{text}");
        assert!(error.message(Lang::Ko).contains("AskUserQuestion"));
        assert!(error.message(Lang::Ko).chars().any(crate::engine::lang::is_hangul));
        assert!(error.message(Lang::En).starts_with("The model called a tool wrongly"));
    }

    #[test]
    fn long_output_keeps_head_and_tail_with_a_note_of_what_was_cut() {
        let text: String = (0..25_000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let cut = cut_output(&text, OUTPUT_LIMIT, Lang::En);
        assert!(cut.starts_with(&text[..6_000]));
        assert!(cut.ends_with(&text[25_000 - 4_000..]));
        assert!(cut.contains("… (15,000 characters cut) …"), "{}", &cut[5_990..6_050]);
        let kept = cut.chars().count() - "\n\n… (15,000 characters cut) …\n\n".chars().count();
        assert_eq!(kept, OUTPUT_LIMIT);
        assert!(cut_output(&text, OUTPUT_LIMIT, Lang::Ko).contains("(15,000자 생략)"));
        let cases = [("short", 10, "short"), ("", 10, ""), ("exactly10!", 10, "exactly10!")];
        for (text, limit, want) in cases {
            assert_eq!(cut_output(text, limit, Lang::En), want);
        }
        let korean = "가".repeat(30);
        assert_eq!(
            cut_output(&korean, 10, Lang::En),
            format!("{}\n\n… (20 characters cut) …\n\n{}", "가".repeat(6), "가".repeat(4))
        );
    }

    #[test]
    fn attachments_are_read_by_name_from_an_offset_and_cut() {
        let attachments = vec![
            Attachment { name: "notes.md".into(), text: "hello world".into() },
            Attachment { name: "big.log".into(), text: "x".repeat(30) },
        ];
        let read = |name: &str, offset: usize| {
            read_attachment(&attachments, &AttachmentRead { name: name.into(), offset }, 20, Lang::En)
        };
        assert_eq!(read("notes.md", 0), Ok("hello world".into()));
        assert_eq!(read("NOTES.MD", 6), Ok("world".into()));
        let long = read("big.log", 2).unwrap_or_default();
        assert!(long.contains("(8 characters cut)"), "{long}");
        assert!(long.ends_with("call again with offset=14 to read on.)"), "{long}");
        assert_eq!(
            read("missing.txt", 0).map_err(|e| e.problem),
            Err(ToolProblem::NoSuchAttachment {
                name: "missing.txt".into(),
                available: vec!["notes.md".into(), "big.log".into()]
            })
        );
        assert_eq!(
            read("notes.md", 11).map_err(|e| e.problem),
            Err(ToolProblem::OffsetPastEnd { offset: 11, chars: 11 })
        );
        let none = read_attachment(&[], &AttachmentRead { name: "a".into(), offset: 0 }, 20, Lang::En).unwrap_err();
        assert!(none.for_model().contains("attached no files"));
    }

    #[test]
    fn answers_and_command_outcomes_become_tool_results() {
        let questions = vec![
            Question { header: "DB".into(), question: "Which DB?".into(), options: vec![], multi_select: false },
            Question { header: "".into(), question: "Name?".into(), options: vec![], multi_select: false },
        ];
        let answered = answers_result(
            &questions,
            &[QuestionAnswer::Chosen(vec!["PostgreSQL".into()]), QuestionAnswer::Typed(" deliberate ".into())],
        );
        assert_eq!(
            answered,
            Ok("Q1: Which DB? → the user chose: PostgreSQL\nQ2: Name? → the user answered: deliberate".into())
        );
        let cancelled = answers_result(&questions[..1], &[QuestionAnswer::Cancelled]);
        assert_eq!(cancelled, Ok("Q1: Which DB? → the user cancelled this question without answering".into()));
        let empty = answers_result(&questions[..1], &[QuestionAnswer::Typed("  ".into())]);
        assert_eq!(empty.map_err(|e| e.problem), Err(missing("answer")));
        let cases = [
            (CommandOutcome::Output("ok\n".into()), "The user ran the command. Output:\nok\n"),
            (CommandOutcome::Output("".into()), "The user ran the command; it printed nothing."),
            (CommandOutcome::Failed("".into()), "The user ran the command and it failed."),
            (
                CommandOutcome::Declined,
                "The user declined to run this command. Do not propose it again; ask what they want instead.",
            ),
        ];
        for (outcome, want) in cases {
            assert_eq!(command_result(&outcome, OUTPUT_LIMIT), want, "{outcome:?}");
        }
    }
}
