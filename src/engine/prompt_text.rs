//! The texts that only ever go to an LLM (system instructions, JSON answer shapes, tool
//! descriptions), kept in `prompts.txt` instead of the Rust sources so a build can leave them
//! out of the first download.
//!
//! By default the file is compiled in. With the feature `prompts-apart` (the release page) it
//! is not: the part of the wasm that arrives after the start carries it (tools/split.mjs), and
//! the first text asked for takes it from the source the shell set ([`set_source`]) through
//! [`install`], which refuses any text but the one this build was made with ([`DIGEST`]). If
//! that fails, [`text`] is empty and [`is_ready`] false, and the shell fails the call instead
//! of sending it.

use std::fmt;
use std::sync::OnceLock;

/// One section of `prompts.txt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptText {
    /// What the contract analyst does and the JSON it answers with (`contract`).
    AnalyzerInstructions,
    /// The closing line of the contract block every later prompt carries (`contract`).
    ContractAsGroundTruth,
    /// What the designer proposes (`design`).
    DesignerInstructions,
    /// How the refiner revises designs after feedback (`design`).
    RefinerInstructions,
    /// The JSON shape of a designs answer (`design`).
    DesignSchema,
    /// The devil's advocate's angles of attack (`critique`).
    CriticInstructions,
    /// The JSON shape of a critique answer (`critique`).
    CritiqueSchema,
    /// What the implementation plan contains (`plan`).
    PlanWriterInstructions,
    /// The kinds of reply the reply reader tells apart (`reply`).
    ReplyReaderInstructions,
    /// How the gate's question for missing slots is worded (`gate`).
    QuestionWriterInstructions,
    /// What the lunch worker recommends (`gate`).
    LunchWorkerInstructions,
    /// The whole system prompt of a conversation title (`title`).
    TitleSystemPrompt,
    /// The chat assistant's fixed system prompt (`chat::agent`).
    ChatSystemPrompt,
    /// The system prompt that folds old chat turns into a summary (`chat::agent`).
    ChatFoldSystemPrompt,
    /// The description of the `AskUserQuestion` tool (`chat::tools`).
    AskUserQuestionDescription,
    /// The description of the `propose_command` tool (`chat::tools`).
    ProposeCommandDescription,
    /// The counselor's base instructions in English (`counsel::counselor`).
    CounselorBaseEn,
    /// The counselor's base instructions in Korean (`counsel::counselor`).
    CounselorBaseKo,
    /// What the user state detector reports (`counsel::state`).
    CounselStateDetectorInstructions,
    /// How the module selector picks a technique (`counsel::selector`).
    CounselModuleSelectorInstructions,
    /// How the task planner writes Part-2 tasks (`counsel::task`).
    CounselPlannerInstructions,
    /// How the task checker decides a task is done (`counsel::checker`).
    CounselCheckerInstructions,
    /// What the supervisor rates (`counsel::supervisor`).
    CounselSupervisorInstructions,
}

/// How many sections `prompts.txt` has.
const COUNT: usize = PromptText::ALL.len();

impl PromptText {
    /// Every section, in the file's order.
    pub const ALL: [PromptText; 23] = [
        PromptText::AnalyzerInstructions,
        PromptText::ContractAsGroundTruth,
        PromptText::DesignerInstructions,
        PromptText::RefinerInstructions,
        PromptText::DesignSchema,
        PromptText::CriticInstructions,
        PromptText::CritiqueSchema,
        PromptText::PlanWriterInstructions,
        PromptText::ReplyReaderInstructions,
        PromptText::QuestionWriterInstructions,
        PromptText::LunchWorkerInstructions,
        PromptText::TitleSystemPrompt,
        PromptText::ChatSystemPrompt,
        PromptText::ChatFoldSystemPrompt,
        PromptText::AskUserQuestionDescription,
        PromptText::ProposeCommandDescription,
        PromptText::CounselorBaseEn,
        PromptText::CounselorBaseKo,
        PromptText::CounselStateDetectorInstructions,
        PromptText::CounselModuleSelectorInstructions,
        PromptText::CounselPlannerInstructions,
        PromptText::CounselCheckerInstructions,
        PromptText::CounselSupervisorInstructions,
    ];

    /// The section's name in `prompts.txt` (after `@@ `).
    pub fn section(self) -> &'static str {
        match self {
            PromptText::AnalyzerInstructions => "analyzer-instructions",
            PromptText::ContractAsGroundTruth => "contract-as-ground-truth",
            PromptText::DesignerInstructions => "designer-instructions",
            PromptText::RefinerInstructions => "refiner-instructions",
            PromptText::DesignSchema => "design-schema",
            PromptText::CriticInstructions => "critic-instructions",
            PromptText::CritiqueSchema => "critique-schema",
            PromptText::PlanWriterInstructions => "plan-writer-instructions",
            PromptText::ReplyReaderInstructions => "reply-reader-instructions",
            PromptText::QuestionWriterInstructions => "question-writer-instructions",
            PromptText::LunchWorkerInstructions => "lunch-worker-instructions",
            PromptText::TitleSystemPrompt => "title-system-prompt",
            PromptText::ChatSystemPrompt => "chat-system-prompt",
            PromptText::ChatFoldSystemPrompt => "chat-fold-system-prompt",
            PromptText::AskUserQuestionDescription => "ask-user-question-description",
            PromptText::ProposeCommandDescription => "propose-command-description",
            PromptText::CounselorBaseEn => "counselor-base-en",
            PromptText::CounselorBaseKo => "counselor-base-ko",
            PromptText::CounselStateDetectorInstructions => "counsel-state-detector-instructions",
            PromptText::CounselModuleSelectorInstructions => "counsel-module-selector-instructions",
            PromptText::CounselPlannerInstructions => "counsel-planner-instructions",
            PromptText::CounselCheckerInstructions => "counsel-checker-instructions",
            PromptText::CounselSupervisorInstructions => "counsel-supervisor-instructions",
        }
    }
}

/// FNV-1a (64 bits) of `prompts.txt` as this build was made with it. Only the digest is
/// compiled in: the file's bytes are read in const context and not kept in the binary.
pub const DIGEST: u64 = fnv1a(include_bytes!("prompts.txt"));

/// FNV-1a, 64 bits, of some bytes; a `const fn` so [`DIGEST`] is computed by the compiler.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// Why a prompts text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptTextError {
    /// The text is not the one this build was made with.
    DigestMismatch { expected: u64, found: u64 },
    /// A section this build does not know.
    UnknownSection(String),
    /// A section this build needs is not there.
    MissingSection(&'static str),
    /// A section appears twice.
    DuplicateSection(String),
}

impl fmt::Display for PromptTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromptTextError::DigestMismatch { expected, found } => write!(
                f,
                "the prompt texts are from another build (digest {found:016x}, this build needs {expected:016x}): \
                 reload the page"
            ),
            PromptTextError::UnknownSection(name) => write!(f, "the prompt texts have an unknown section '{name}'"),
            PromptTextError::MissingSection(name) => write!(f, "the prompt texts lack the section '{name}'"),
            PromptTextError::DuplicateSection(name) => write!(f, "the prompt texts have the section '{name}' twice"),
        }
    }
}

impl std::error::Error for PromptTextError {}

/// The text of every section, indexed by `PromptText as usize`.
type Sections<'a> = [&'a str; COUNT];

/// The sections in use: parsed once from the compiled-in file, or set by [`install`].
static SECTIONS: OnceLock<Sections<'static>> = OnceLock::new();

/// The text of one section; empty while the texts are not installed (feature `prompts-apart`).
pub fn text(which: PromptText) -> &'static str {
    sections().map_or("", |s| s[which as usize])
}

/// True once the texts are there (taking them from the source if need be): always in the
/// default build; with `prompts-apart`, once the source gave the text this build was made with.
pub fn is_ready() -> bool {
    sections().is_some()
}

/// Where a `prompts-apart` build takes the file the first time a text is asked for: set once
/// by the shell (which does the I/O); the default build has the file and ignores it.
pub fn set_source(source: fn() -> Option<String>) {
    #[cfg(feature = "prompts-apart")]
    let _ = SOURCE.set(source);
    #[cfg(not(feature = "prompts-apart"))]
    let _ = source;
}

/// The source [`set_source`] set.
#[cfg(feature = "prompts-apart")]
static SOURCE: OnceLock<fn() -> Option<String>> = OnceLock::new();

#[cfg(not(feature = "prompts-apart"))]
fn sections() -> Option<&'static Sections<'static>> {
    // The compiled-in file parses: the tests below read it.
    Some(SECTIONS.get_or_init(|| parse(include_str!("prompts.txt")).expect("prompts.txt is well formed")))
}

#[cfg(feature = "prompts-apart")]
fn sections() -> Option<&'static Sections<'static>> {
    if let Some(sections) = SECTIONS.get() {
        return Some(sections);
    }
    // A refused text stays refused: the source gives the same one next time.
    install(&(SOURCE.get()?)()?).ok()?;
    SECTIONS.get()
}

/// Takes the fetched `prompts.txt` into use, refusing any text but the one this build was
/// made with. Installing the same text again changes nothing.
pub fn install(text: &str) -> Result<(), PromptTextError> {
    // Checked before it is kept, so a refused text is not leaked.
    read(text, DIGEST)?;
    let kept: &'static str = Box::leak(text.into());
    let sections = parse(kept)?;
    // Set once: a second install holds the same text (same digest).
    let _ = SECTIONS.set(sections);
    Ok(())
}

/// The sections of `text` if its digest is `digest`.
fn read(text: &str, digest: u64) -> Result<Sections<'_>, PromptTextError> {
    let found = fnv1a(text.as_bytes());
    if found != digest {
        return Err(PromptTextError::DigestMismatch { expected: digest, found });
    }
    parse(text)
}

/// Splits a prompts file into its sections: a line `@@ NAME` starts one, its text runs up to
/// the next such line less the newline before it; lines before the first section are a comment.
fn parse(text: &str) -> Result<Sections<'_>, PromptTextError> {
    let body = |start: usize, end: usize| {
        let body = &text[start..end];
        body.strip_suffix('\n').unwrap_or(body)
    };
    let mut found: [Option<&str>; COUNT] = [None; COUNT];
    // The section being read and where its text starts.
    let mut open: Option<(usize, usize)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("@@ ") {
            if let Some((index, start)) = open.take() {
                found[index] = Some(body(start, at));
            }
            let name = name.strip_suffix('\n').unwrap_or(name);
            let index = PromptText::ALL
                .iter()
                .position(|p| p.section() == name)
                .ok_or_else(|| PromptTextError::UnknownSection(name.to_string()))?;
            if found[index].is_some() {
                return Err(PromptTextError::DuplicateSection(name.to_string()));
            }
            open = Some((index, at + line.len()));
        }
        at += line.len();
    }
    if let Some((index, start)) = open {
        found[index] = Some(body(start, text.len()));
    }
    let mut sections: Sections = [""; COUNT];
    for ((slot, text), which) in sections.iter_mut().zip(found).zip(PromptText::ALL) {
        *slot = text.ok_or(PromptTextError::MissingSection(which.section()))?;
    }
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const FILE: &str = include_str!("prompts.txt");

    /// A well-formed file with every section, its texts made from the names.
    fn file_with(extra: &str) -> String {
        let mut file = String::from("a comment\n");
        for which in PromptText::ALL {
            file.push_str(&format!("@@ {}\ntext of {}\n", which.section(), which.section()));
        }
        file.push_str(extra);
        file
    }

    #[test]
    fn every_variant_has_a_non_empty_section_and_every_section_a_variant() {
        let sections = parse(FILE).expect("prompts.txt parses");
        for which in PromptText::ALL {
            assert!(!sections[which as usize].trim().is_empty(), "{which:?} is empty");
        }
        let names: Vec<&str> = FILE.lines().filter_map(|l| l.strip_prefix("@@ ")).collect();
        assert_eq!(names.len(), COUNT, "{names:?}");
        for (index, which) in PromptText::ALL.into_iter().enumerate() {
            assert_eq!(which as usize, index, "ALL is in declaration order");
        }
    }

    #[test]
    fn a_section_runs_to_the_next_header_less_one_newline_and_keeps_inner_newlines() {
        let file = file_with("");
        assert_eq!(parse(&file).expect("parses")[PromptText::DesignSchema as usize], "text of design-schema");
        let two_lines = file.replace("text of critique-schema\n", "line one\n\nline three\n\n");
        assert_eq!(parse(&two_lines).expect("parses")[PromptText::CritiqueSchema as usize], "line one\n\nline three\n");
    }

    #[test]
    fn the_parser_refuses_unknown_duplicate_and_missing_sections() {
        assert_eq!(
            parse(&file_with("@@ no-such-prompt\nx\n")),
            Err(PromptTextError::UnknownSection("no-such-prompt".into()))
        );
        assert_eq!(
            parse(&file_with("@@ design-schema\nagain\n")),
            Err(PromptTextError::DuplicateSection("design-schema".into()))
        );
        let twice_in_a_row = file_with("").replace("@@ design-schema\n", "@@ design-schema\n@@ design-schema\n");
        assert_eq!(parse(&twice_in_a_row), Err(PromptTextError::DuplicateSection("design-schema".into())));
        let without_title = file_with("").replace("@@ title-system-prompt\ntext of title-system-prompt\n", "");
        assert_eq!(parse(&without_title), Err(PromptTextError::MissingSection("title-system-prompt")));
    }

    #[test]
    fn install_refuses_a_text_with_another_digest_and_accepts_the_real_one() {
        assert_eq!(read(FILE, DIGEST).map(|s| s.len()), Ok(COUNT));
        let changed = FILE.replacen("JSON", "json", 1);
        assert!(matches!(read(&changed, DIGEST), Err(PromptTextError::DigestMismatch { .. })));
        // The digest is checked first; a text with the right digest is still parsed.
        let other = file_with("@@ no-such-prompt\nx\n");
        assert_eq!(
            read(&other, fnv1a(other.as_bytes())),
            Err(PromptTextError::UnknownSection("no-such-prompt".into()))
        );
        assert!(install(FILE).is_ok() && is_ready());
        assert!(install(&changed).is_err());
    }

    #[test]
    fn the_digest_is_the_fnv1a_of_the_file() {
        let bytes: &[u8] = include_bytes!("prompts.txt");
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        assert_eq!(DIGEST, hash);
    }

    #[test]
    fn errors_say_what_was_refused() {
        let mismatch = PromptTextError::DigestMismatch { expected: 1, found: 2 }.to_string();
        assert!(mismatch.contains("another build") && mismatch.contains("reload"), "{mismatch}");
        assert!(PromptTextError::MissingSection("design-schema")
            .to_string()
            .contains("lack the section 'design-schema'"));
        assert!(PromptTextError::DuplicateSection("x".into()).to_string().contains("twice"));
        assert!(PromptTextError::UnknownSection("x".into()).to_string().contains("unknown section 'x'"));
    }
}
