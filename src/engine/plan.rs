//! The implementation plan for the confirmed design: by LLM (Markdown, streamed) or by
//! rules from the design, its critique, the contract and the discussion memory.

use serde::{Deserialize, Serialize};

use super::contract::Contract;
use super::critique::{Critique, Lens};
use super::design::DesignProposal;
use super::grounding::Grounding;
use super::lang::Lang;
use super::memory::Memory;
use super::prompt::Prompt;
use super::prompt_text::{self, PromptText};
use super::source::Source;

/// The plan as written, in Markdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub markdown: String,
    pub source: Source,
    /// True when the model's stream broke: the heuristic plan stands in and the part that
    /// arrived is kept in `partial`.
    #[serde(default)]
    pub interrupted: bool,
    /// What the model streamed before its answer was cut, kept for the user (folded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
}

/// The prompt for the plan of the chosen design.
pub fn plan_prompt(grounding: &Grounding, design: &DesignProposal, critique: Option<&Critique>) -> Prompt {
    let system = grounding.system("planner", prompt_text::text(PromptText::PlanWriterInstructions));
    let design_json = serde_json::to_string(design).unwrap_or_default();
    let critique_json =
        critique.map(|c| serde_json::to_string(c).unwrap_or_default()).unwrap_or_else(|| "(none)".into());
    let task =
        format!("Confirmed design:\n{design_json}\n\nIts critique:\n{critique_json}\n\nWrite the plan in Markdown.");
    Prompt::single(system, grounding.user_message(&task)).with_max_tokens(3000)
}

/// The plan by rules: the design's agents become build steps, the critique's notes
/// become risks with mitigations, the contract's criteria become acceptance criteria.
pub fn heuristic_plan(
    contract: &Contract,
    design: &DesignProposal,
    critique: Option<&Critique>,
    memory: &Memory,
    lang: Lang,
) -> String {
    let ko = lang == Lang::Ko;
    let mut md = String::new();
    let title = if contract.goal.trim().is_empty() { contract.original_request.trim() } else { contract.goal.trim() };
    md.push_str(&format!("# {}: {}\n\n", lang.pick("실행 계획", "Plan"), super::lang::clip(title, 120)));
    md.push_str(&format!(
        "**{}:** {} · {} {} · {}\n\n",
        lang.pick("설계안", "Design"),
        design.name,
        lang.pick("복잡도", "complexity"),
        design.complexity.label(lang),
        design.estimated_cost
    ));
    if !design.description.is_empty() {
        md.push_str(&format!("{}\n\n", design.description));
    }

    md.push_str(&format!("## {}\n\n", lang.pick("계약 요약", "Contract")));
    let missing = lang.pick("(미정)", "(not set)");
    let or_missing = |s: &str| if s.trim().is_empty() { missing.to_string() } else { s.trim().to_string() };
    md.push_str(&format!("- **{}:** {}\n", lang.pick("목표", "Goal"), or_missing(&contract.goal)));
    md.push_str(&format!("- **{}:** {}\n", lang.pick("형식", "Format"), or_missing(&contract.format)));
    if !contract.context.is_empty() {
        md.push_str(&format!("- **{}:** {}\n", lang.pick("맥락", "Context"), contract.context));
    }
    md.push('\n');

    md.push_str(&format!("## {}\n\n", lang.pick("구축 단계", "Build steps")));
    let mut step = 1;
    for agent in &design.agents {
        let model = if agent.model.is_empty() {
            String::new()
        } else {
            format!(" ({}: {})", lang.pick("모델", "model"), agent.model)
        };
        let what = if agent.description.is_empty() { agent.role.clone() } else { agent.description.clone() };
        md.push_str(&format!("{step}. **{}**{model}: {what}\n", agent.name));
        step += 1;
    }
    md.push_str(&format!(
        "{step}. {}\n",
        lang.pick(
            "단계들을 연결하고 각 단계의 입력·출력 형식을 고정합니다.",
            "Wire the steps together and fix each step's input and output format."
        )
    ));
    step += 1;
    md.push_str(&format!(
        "{step}. {}\n\n",
        if ko {
            "실제 입력 3건으로 처음부터 끝까지 실행해 보고 수용 기준으로 확인합니다.".to_string()
        } else {
            "Run end to end on three real inputs and check against the acceptance criteria.".to_string()
        }
    ));

    if let Some(c) = critique {
        md.push_str(&format!("## {}\n\n", lang.pick("위험과 대응", "Risks and mitigations")));
        md.push_str(&format!(
            "| {} | {} |\n|---|---|\n",
            lang.pick("관점", "Lens"),
            lang.pick("지적 → 대응", "Concern → mitigation")
        ));
        for lens in Lens::ALL {
            if let Some(note) = c.notes(lens).first() {
                md.push_str(&format!("| {} | {} |\n", lens.label(lang), note.replace('|', "/")));
            }
        }
        let score = (c.overall_score * 100.0).round() as u32;
        md.push_str(&format!("\n{}: {score}/100 · {}\n\n", lang.pick("비판 점수", "Critique score"), c.recommendation));
    }

    md.push_str(&format!("## {}\n\n", lang.pick("수용 기준", "Acceptance criteria")));
    if contract.criteria.is_empty() {
        md.push_str(&format!(
            "- {}\n",
            lang.pick(
                "기준이 정해지지 않았습니다: 첫 실행 결과를 보고 함께 정합니다.",
                "No criteria were set: agree on them after the first run."
            )
        ));
    } else {
        for c in &contract.criteria {
            md.push_str(&format!("- [ ] {c}\n"));
        }
    }
    md.push_str(&format!(
        "- [ ] {}\n\n",
        if ko {
            format!("결과가 {} 형식으로 나온다", or_missing(&contract.format))
        } else {
            format!("The result comes as {}", or_missing(&contract.format))
        }
    ));

    let gaps: Vec<&String> = contract.assumptions.iter().chain(contract.open_questions.iter()).collect();
    if !gaps.is_empty() {
        md.push_str(&format!("## {}\n\n", lang.pick("가정 (보수적으로 처리)", "Assumptions (handled conservatively)")));
        for g in gaps {
            md.push_str(&format!("- {g}\n"));
        }
        md.push('\n');
    }

    if !memory.agreements.is_empty() || !memory.user_preferences.is_empty() || !memory.round_summaries.is_empty() {
        md.push_str(&format!("## {}\n\n", lang.pick("논의 요약", "Discussion summary")));
        for a in &memory.agreements {
            md.push_str(&format!("- {a}\n"));
        }
        for v in memory.user_preferences.values() {
            md.push_str(&format!("- {}: {v}\n", lang.pick("선호", "Preference")));
        }
        for r in &memory.round_summaries {
            md.push_str(&format!("- {} {}: {}\n", lang.pick("라운드", "Round"), r.round, r.summary));
        }
    }
    md.trim_end().to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::critique::heuristic_critique;
    use crate::engine::design::{fallback_designs, Complexity};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn heuristic_plan_covers_design_critique_contract_and_memory() {
        let designs = fallback_designs("news digest", "Markdown document", Lang::En);
        let design = &designs[1];
        let critique = heuristic_critique(design, Complexity::Medium, Lang::En);
        let contract = Contract {
            original_request: "news digest".into(),
            goal: "A daily news digest".into(),
            format: "Markdown document".into(),
            criteria: vec!["under 1 page".into()],
            open_questions: vec!["Who reads it?".into()],
            ..Contract::default()
        };
        let mut memory = Memory::default();
        memory.agree("Use the standard design");
        let md = heuristic_plan(&contract, design, Some(&critique), &memory, Lang::En);
        assert!(md.starts_with("# Plan: A daily news digest"));
        for agent in &design.agents {
            assert!(md.contains(&agent.name), "step for {}", agent.name);
        }
        assert!(md.contains("| Security |"));
        assert!(md.contains("- [ ] under 1 page"));
        assert!(md.contains("Who reads it?"));
        assert!(md.contains("Use the standard design"));
    }

    #[test]
    fn heuristic_plan_is_written_in_korean_for_korean_sessions() {
        let designs = fallback_designs("뉴스 요약", "마크다운 문서", Lang::Ko);
        let contract = Contract { original_request: "뉴스 요약".into(), ..Contract::default() };
        let md = heuristic_plan(&contract, &designs[0], None, &Memory::default(), Lang::Ko);
        assert!(md.starts_with("# 실행 계획: 뉴스 요약"));
        assert!(md.contains("## 구축 단계"));
        assert!(md.contains("기준이 정해지지 않았습니다"));
    }
}
