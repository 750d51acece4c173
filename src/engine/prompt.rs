//! Provider-neutral prompts: what the engine asks an LLM, before any wire format.

use serde::{Deserialize, Serialize};

/// Who speaks a turn of a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnRole {
    User,
    Assistant,
    /// The result of a tool call, answering `Turn::tool_call_id`.
    Tool,
}

/// One turn of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub role: TurnRole,
    pub text: String,
    /// Tool calls the assistant made in this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a `Tool` turn: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Turn {
    /// A plain user turn.
    pub fn user(text: impl Into<String>) -> Self {
        Turn { role: TurnRole::User, text: text.into(), tool_calls: Vec::new(), tool_call_id: None }
    }

    /// A plain assistant turn.
    pub fn assistant(text: impl Into<String>) -> Self {
        Turn { role: TurnRole::Assistant, text: text.into(), tool_calls: Vec::new(), tool_call_id: None }
    }
}

/// A tool the model may call, described by a JSON Schema for its input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// JSON Schema of the tool's input object.
    pub parameters: serde_json::Value,
}

/// A tool call the model made: which tool, with what input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Provider-assigned id, echoed back with the result.
    pub id: String,
    pub name: String,
    /// The input as a JSON text (as providers send it).
    pub arguments: String,
}

/// A complete request to a chat model, independent of the provider protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// System instructions.
    pub system: String,
    /// The conversation, oldest first; the last turn is the user's.
    pub turns: Vec<Turn>,
    /// Ask the provider for a JSON object when it supports that.
    pub json_output: bool,
    /// Upper bound on the answer's length in tokens.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Tools the model may call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolSpec>,
}

impl Prompt {
    /// A single-turn prompt: system instructions and one user message.
    pub fn single(system: impl Into<String>, user: impl Into<String>) -> Self {
        Prompt {
            system: system.into(),
            turns: vec![Turn::user(user)],
            json_output: false,
            max_tokens: 2048,
            temperature: 0.4,
            tools: Vec::new(),
        }
    }

    /// The same prompt, asking for a JSON answer.
    pub fn expecting_json(mut self) -> Self {
        self.json_output = true;
        self
    }

    /// The same prompt with another token bound.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// The same prompt with its isolation delimiters renamed from the builders' default to
    /// the session's tag (`security::isolation_tag(session_id)`), in the system text and in
    /// every turn. Any appearance of the new name elsewhere is neutralized first.
    pub fn with_isolation_tag(mut self, tag: &str) -> Self {
        self.system = super::security::retag(&self.system, tag);
        for turn in &mut self.turns {
            turn.text = super::security::retag(&turn.text, tag);
        }
        self
    }

    /// Total characters of system and turns: a cheap size measure for tests and meters.
    pub fn char_len(&self) -> usize {
        self.system.chars().count() + self.turns.iter().map(|t| t.text.chars().count()).sum::<usize>()
    }
}
