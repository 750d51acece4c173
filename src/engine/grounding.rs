//! What every prompt after UNDERSTAND carries: the contract as ground truth, the bounded
//! discussion memory, and the latest user message, isolated. Never the raw transcript,
//! so a prompt's size stays bounded however long the discussion runs.

use super::lang::Lang;
use super::security::{escape_markup, isolate, isolation_rule, DEFAULT_TAG};

/// Default bound on the memory context in a prompt (seed 000: `max_chars = 4000`).
pub const MEMORY_MAX_CHARS: usize = 4000;

/// The shared context of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grounding {
    /// The contract block from `Contract::format_for_prompt`.
    pub contract: String,
    /// The memory context from `Memory::context_for_llm`.
    pub memory: String,
    /// The user's latest message, raw (isolated when the prompt is built).
    pub latest_user: String,
    /// The language answers must be written in.
    pub lang: Lang,
}

impl Grounding {
    /// A system prompt: the role line the shell and the mock server recognise, the
    /// task's instructions, the isolation rule and the answer language.
    pub fn system(&self, role: &str, instructions: &str) -> String {
        system_prompt(role, instructions, self.lang)
    }

    /// The user message: contract, memory, the isolated latest message, then the task.
    /// Memory and task may quote model output, so their brackets are escaped too: the only
    /// delimiters left are the real ones, which `Prompt::with_isolation_tag` renames.
    pub fn user_message(&self, task: &str) -> String {
        let mut out = String::new();
        out.push_str(&self.contract);
        out.push_str("\n\n## Discussion memory\n");
        if self.memory.trim().is_empty() {
            out.push_str("(empty)");
        } else {
            out.push_str(&escape_markup(&self.memory));
        }
        out.push_str("\n\n## Latest user message\n");
        out.push_str(&isolate(&self.latest_user, DEFAULT_TAG));
        out.push_str("\n\n## Task\n");
        out.push_str(&escape_markup(task));
        out
    }
}

/// A system prompt starting with `# role: NAME`, then instructions, the isolation rule
/// and the answer language.
pub fn system_prompt(role: &str, instructions: &str, lang: Lang) -> String {
    let language = lang.pick("Korean (한국어)", "English");
    let rule = isolation_rule(DEFAULT_TAG);
    format!("# role: {role}\n{instructions}\n\n{rule}\nWrite every human-readable text in {language}.")
}
