//! Fitting any mode's prompt into the model's context window before it is sent: the oldest
//! conversation turns go first, then the oldest lines of the quoted context sections (the
//! discussion memory, a counseling transcript, a prior chat's summary); the instructions, the
//! task and the user's latest message are never cut. What still cannot fit is refused, so an
//! overflowing prompt is never sent.

use crate::engine::lang::Lang;
use crate::engine::prompt::Prompt;
use crate::engine::tokens::estimate_prompt;

use crate::engine::lang::group_thousands;

/// Headers of quoted context a prompt may lose its oldest lines of, newest kept.
const TRIMMABLE_SECTIONS: &[&str] = &[
    "## Discussion memory",
    "[RECENT CONVERSATION]",
    "[WHAT THE USER HAS SAID]",
    "[PRIOR CHAT SUMMARY",
    "[ANSWERS FROM THE USER]",
];

/// What stands in for the lines cut from a section.
pub const CUT_MARK: &str = "(… earlier lines cut to fit the model's context window)";

/// The part of the window kept for the answer: the prompt's own answer limit, at most a
/// quarter of the window.
pub fn answer_reserve(prompt: &Prompt, window: u32) -> u32 {
    prompt.max_tokens.min(window / 4)
}

/// A prompt that cannot fit even with its context trimmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    /// Estimated tokens of the trimmed prompt.
    pub needed: u32,
    /// Tokens the prompt may use (the window minus the answer reserve).
    pub budget: u32,
    /// The window.
    pub window: u32,
}

impl Overflow {
    /// The message for the user, in their language.
    pub fn message(&self, lang: Lang) -> String {
        let (needed, window) = (group_thousands(self.needed.into()), group_thousands(self.window.into()));
        match lang {
            Lang::Ko => format!(
                "이 단계의 요청(약 {needed} 토큰)은 오래된 대화를 줄여도 모델의 컨텍스트 창({window} 토큰)에 \
                 답할 자리를 남기고 들어가지 않아 보내지 않았습니다. 대신 규칙 기반으로 진행합니다. \
                 메시지를 짧게 하거나, 설정에서 창 크기를 키우거나, 로컬 서버의 창을 키우세요(llama.cpp: -c 8192)."
            ),
            Lang::En => format!(
                "This step's request (about {needed} tokens) does not fit the model's context window ({window} \
                 tokens) with room for the answer, even with the older context trimmed, so it was not sent; the \
                 heuristics carry on instead. Shorten the message, set a larger window in Settings, or enlarge \
                 the local server's window (llama.cpp: -c 8192)."
            ),
        }
    }
}

fn is_header(line: &str) -> bool {
    line.starts_with("## ")
        || (line.starts_with('[') && line.chars().nth(1).is_some_and(|c| c.is_ascii_uppercase()) && line.contains(']'))
}

/// Cut points of a section body (line indexes) that are not inside an isolated quote.
fn safe_cuts(body: &[&str], tag: &str) -> Vec<usize> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut depth = 0i32;
    let mut cuts = Vec::new();
    for (i, line) in body.iter().enumerate() {
        if depth == 0 {
            cuts.push(i);
        }
        depth += line.matches(&open).count() as i32 - line.matches(&close).count() as i32;
        depth = depth.max(0);
    }
    cuts.push(body.len());
    cuts
}

/// One step of trimming `text`: drops the oldest line (at a safe cut) of the first trimmable
/// section that still has lines to lose. False when nothing is left to trim.
fn trim_once(text: &mut String, tag: &str) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        if TRIMMABLE_SECTIONS.iter().any(|s| lines[i].starts_with(s)) {
            let start = i + 1;
            let end = (start..lines.len()).find(|&j| is_header(lines[j])).unwrap_or(lines.len());
            let body: Vec<&str> = lines[start..end].iter().copied().filter(|l| *l != CUT_MARK).collect();
            // Keep at least the newest entry; trailing blank lines are not entries.
            let content_end = body.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |p| p + 1);
            let cuts: Vec<usize> = safe_cuts(&body[..content_end], tag).into_iter().filter(|c| *c > 0).collect();
            // The first cut past the oldest entry that still leaves something.
            if let Some(&cut) = cuts.iter().find(|c| **c < content_end) {
                let mut out: Vec<&str> = lines[..start].to_vec();
                out.push(CUT_MARK);
                out.extend_from_slice(&body[cut..]);
                out.extend_from_slice(&lines[end..]);
                *text = out.join("\n");
                return true;
            }
            i = end;
        } else {
            i += 1;
        }
    }
    false
}

/// Tool results shorter than this are left whole.
const TOOL_RESULT_MIN_CHARS: usize = 400;

/// Cuts the middle of the longest tool result, keeping a quarter at each end and saying how
/// much went: a result (a file read, a command's output) is data the model can ask for again.
/// False when no tool result is long enough to lose anything.
fn cut_tool_result(prompt: &mut Prompt) -> bool {
    let longest = prompt
        .turns
        .iter_mut()
        .filter(|t| t.role == crate::engine::prompt::TurnRole::Tool)
        .max_by_key(|t| t.text.len());
    let Some(turn) = longest else { return false };
    let chars = turn.text.chars().count();
    if chars < TOOL_RESULT_MIN_CHARS {
        return false;
    }
    let keep = chars / 4;
    let head: String = turn.text.chars().take(keep).collect();
    let tail: String = turn.text.chars().skip(chars - keep).collect();
    turn.text = format!("{head}\n… ({} characters cut to fit the model's context window) …\n{tail}", chars - 2 * keep);
    true
}

/// `prompt` made to fit `window` tokens with room for the answer: oldest turns dropped (never
/// the last one), then the oldest lines of its quoted context sections, then the middle of
/// its longest tool results; its answer limit is
/// lowered to what is left of the window. Unchanged when it already fits. `tag` names the
/// isolation delimiters the prompt uses (a cut never splits an isolated quote).
pub fn fit_prompt(prompt: &Prompt, window: u32, tag: &str) -> Result<Prompt, Overflow> {
    let reserve = answer_reserve(prompt, window);
    let budget = window.saturating_sub(reserve);
    let mut fitted = prompt.clone();
    // One estimate per change: a prompt that fits is estimated once.
    let mut used = estimate_prompt(&fitted);
    // Whole exchanges go, oldest first: a conversation sent to a model starts with the user,
    // and a tool result never loses the call it answers. The last exchange stays.
    while used > budget {
        let next_user = fitted.turns.iter().skip(1).position(|t| t.role == crate::engine::prompt::TurnRole::User);
        let Some(next) = next_user else { break };
        fitted.turns.drain(..=next);
        used = estimate_prompt(&fitted);
    }
    while used > budget {
        let in_turn = fitted.turns.last_mut().is_some_and(|last| trim_once(&mut last.text, tag));
        let trimmed = in_turn || trim_once(&mut fitted.system, tag) || cut_tool_result(&mut fitted);
        if !trimmed {
            return Err(Overflow { needed: used, budget, window });
        }
        used = estimate_prompt(&fitted);
    }
    fitted.max_tokens = fitted.max_tokens.min(window.saturating_sub(used)).max(1);
    Ok(fitted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::prompt::Turn;
    use crate::engine::security::{isolate, DEFAULT_TAG};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn memory_prompt(entries: usize, latest: &str) -> Prompt {
        let memory: Vec<String> =
            (0..entries).map(|i| format!("- round {i}: the user wanted more detail here")).collect();
        let user = format!(
            "## REQUIREMENT CONTRACT\ngoal: a digest\n\n## Discussion memory\n{}\n\n## Latest user message\n{}\n\n## Task\nWrite the plan.",
            memory.join("\n"),
            isolate(latest, DEFAULT_TAG)
        );
        Prompt::single("# role: planner\nYou write plans.", user).with_max_tokens(3000)
    }

    /// The chat's loop with one huge tool result: the result loses its middle (head, tail and
    /// the size of the cut stay), the call and the user's request are kept whole.
    #[test]
    fn a_tool_result_too_large_for_the_window_loses_its_middle() {
        use crate::engine::prompt::{ToolCall, TurnRole};
        let call = ToolCall { id: "c1".into(), name: "read_attachment".into(), arguments: "{}".into() };
        let mut asked = Turn::assistant("");
        asked.tool_calls.push(call);
        let lines: Vec<String> = (0..2_000).map(|i| format!("line {i}: some log output here")).collect();
        let result = Turn {
            role: TurnRole::Tool,
            text: format!("HEAD-MARK\n{}\nTAIL-MARK", lines.join("\n")),
            tool_calls: Vec::new(),
            tool_call_id: Some("c1".into()),
        };
        let mut prompt = Prompt::single("You are an assistant.", "what does the log say?").with_max_tokens(1000);
        prompt.turns.push(asked);
        prompt.turns.push(result);
        assert!(estimate_prompt(&prompt) > 4_096, "the result alone overflows the window");

        let fitted = fit_prompt(&prompt, 4_096, DEFAULT_TAG).expect("fits once the result is cut");
        assert!(estimate_prompt(&fitted) + fitted.max_tokens <= 4_096);
        assert_eq!(fitted.turns.len(), 3, "no turn was dropped: the call keeps its result");
        assert_eq!(fitted.turns[0].text, "what does the log say?");
        let text = &fitted.turns[2].text;
        assert!(text.starts_with("HEAD-MARK") && text.ends_with("TAIL-MARK"), "head and tail stay");
        assert!(text.contains("characters cut to fit the model's context window"), "the cut is said");
    }

    #[test]
    fn a_prompt_that_fits_is_left_alone_but_for_its_answer_limit() {
        let prompt = memory_prompt(3, "short");
        let fitted = fit_prompt(&prompt, 32_768, DEFAULT_TAG).unwrap();
        assert_eq!(fitted.turns, prompt.turns);
        assert_eq!(fitted.max_tokens, 3000);
    }

    #[test]
    fn quoted_memory_loses_its_oldest_lines_and_keeps_instructions_latest_message_and_task() {
        let prompt = memory_prompt(400, "keep this latest message");
        let fitted = fit_prompt(&prompt, 2048, DEFAULT_TAG).unwrap();
        let text = &fitted.turns[0].text;
        assert!(estimate_prompt(&fitted) <= 2048 - answer_reserve(&prompt, 2048));
        assert!(estimate_prompt(&fitted) + fitted.max_tokens <= 2048);
        assert!(text.contains(CUT_MARK));
        assert!(!text.contains("round 0:"), "the oldest went first");
        assert!(text.contains("round 399:"), "the newest stays");
        assert!(text.contains("keep this latest message") && text.contains("## Task\nWrite the plan."));
        assert_eq!(fitted.system, prompt.system);
    }

    #[test]
    fn oldest_turns_go_first_and_the_latest_user_turn_stays() {
        let mut turns: Vec<Turn> = (0..200)
            .flat_map(|i| [Turn::user(format!("user line {i} with some words")), Turn::assistant(format!("reply {i}"))])
            .collect();
        turns.push(Turn::user("the latest"));
        let prompt = Prompt { turns, ..Prompt::single("system", "x") }.with_max_tokens(600);
        let fitted = fit_prompt(&prompt, 2048, DEFAULT_TAG).unwrap();
        assert!(fitted.turns.len() < prompt.turns.len());
        assert_eq!(fitted.turns.last().unwrap().text, "the latest");
        assert_eq!(fitted.turns[0].role, crate::engine::prompt::TurnRole::User);
        assert!(estimate_prompt(&fitted) <= 2048 - 512);
    }

    #[test]
    fn cuts_never_split_an_isolated_quote() {
        let lines: Vec<String> = (0..60)
            .map(|i| format!("user: {}", isolate(&format!("message {i}\nsecond line of {i}"), DEFAULT_TAG)))
            .collect();
        let user = format!("[RECENT CONVERSATION]\n{}\n\nOutput JSON.", lines.join("\n"));
        let prompt = Prompt::single("sys", user).with_max_tokens(300);
        let fitted = fit_prompt(&prompt, 700, DEFAULT_TAG).unwrap();
        let text = &fitted.turns[0].text;
        let (open, close) = (format!("<{DEFAULT_TAG}>"), format!("</{DEFAULT_TAG}>"));
        assert_eq!(text.matches(&open).count(), text.matches(&close).count());
        let first_close = text.find(&close).unwrap();
        assert!(text.find(&open).unwrap() < first_close, "no quote lost its opening");
        assert!(text.contains("message 59") && !text.contains("message 0\n"));
    }

    #[test]
    fn what_cannot_fit_is_refused_with_a_message_in_both_languages() {
        let huge = "긴 메시지 ".repeat(3000);
        let prompt = memory_prompt(5, &huge);
        let err = fit_prompt(&prompt, 2048, DEFAULT_TAG).unwrap_err();
        assert!(err.needed > err.budget && err.window == 2048);
        assert!(err.message(Lang::Ko).contains("2,048") && err.message(Lang::Ko).contains("컨텍스트 창"));
        assert!(err.message(Lang::En).contains("2,048") && err.message(Lang::En).contains("context window"));
    }
}
