//! The devil's advocate: critique of a design through six lenses, by LLM or by the
//! heuristic rule table of seed 000.

use serde::{Deserialize, Serialize};

use super::contract::Contract;
use super::design::{is_expensive_model, Complexity, DesignProposal, Needs};
use super::grounding::Grounding;
use super::json::{extract_json, f64_field, str_field, str_list};
use super::lang::{quoted, with_object, with_subject, with_topic, Lang};
use super::prompt::Prompt;
use super::prompt_text::{self, PromptText};

/// One of the six angles a design is attacked from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lens {
    Weaknesses,
    Risks,
    EdgeCases,
    Security,
    Cost,
    Scalability,
}

impl Lens {
    /// The six lenses in display order.
    pub const ALL: [Lens; 6] =
        [Lens::Weaknesses, Lens::Risks, Lens::EdgeCases, Lens::Security, Lens::Cost, Lens::Scalability];

    /// The lens's heading.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Lens::Weaknesses => lang.pick("약점", "Weaknesses"),
            Lens::Risks => lang.pick("위험", "Risks"),
            Lens::EdgeCases => lang.pick("예외 상황", "Edge cases"),
            Lens::Security => lang.pick("보안", "Security"),
            Lens::Cost => lang.pick("비용", "Cost"),
            Lens::Scalability => lang.pick("확장성", "Scalability"),
        }
    }

    /// The JSON key the LLM answers this lens under.
    fn key(self) -> &'static str {
        match self {
            Lens::Weaknesses => "weaknesses",
            Lens::Risks => "risks",
            Lens::EdgeCases => "edge_cases",
            Lens::Security => "security_concerns",
            Lens::Cost => "cost_concerns",
            Lens::Scalability => "scalability_notes",
        }
    }
}

/// A critique of one design (seed 000 `CritiqueResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Critique {
    pub design_name: String,
    pub weaknesses: Vec<String>,
    pub risks: Vec<String>,
    pub edge_cases: Vec<String>,
    pub security_concerns: Vec<String>,
    pub cost_concerns: Vec<String>,
    pub scalability_notes: Vec<String>,
    /// 0.0 (reject) to 1.0 (adopt as is).
    pub overall_score: f64,
    pub recommendation: String,
}

impl Critique {
    /// The notes under one lens.
    pub fn notes(&self, lens: Lens) -> &[String] {
        match lens {
            Lens::Weaknesses => &self.weaknesses,
            Lens::Risks => &self.risks,
            Lens::EdgeCases => &self.edge_cases,
            Lens::Security => &self.security_concerns,
            Lens::Cost => &self.cost_concerns,
            Lens::Scalability => &self.scalability_notes,
        }
    }

    fn notes_mut(&mut self, lens: Lens) -> &mut Vec<String> {
        match lens {
            Lens::Weaknesses => &mut self.weaknesses,
            Lens::Risks => &mut self.risks,
            Lens::EdgeCases => &mut self.edge_cases,
            Lens::Security => &mut self.security_concerns,
            Lens::Cost => &mut self.cost_concerns,
            Lens::Scalability => &mut self.scalability_notes,
        }
    }

    fn empty(design_name: &str) -> Self {
        Critique {
            design_name: design_name.to_string(),
            weaknesses: Vec::new(),
            risks: Vec::new(),
            edge_cases: Vec::new(),
            security_concerns: Vec::new(),
            cost_concerns: Vec::new(),
            scalability_notes: Vec::new(),
            overall_score: BASE_SCORE,
            recommendation: String::new(),
        }
    }
}

/// Where every heuristic critique starts: no design is perfect before it has run.
pub const BASE_SCORE: f64 = 0.9;

/// A score within 0..=1; anything unreadable counts as the midpoint.
pub fn clamp_score(score: f64) -> f64 {
    if score.is_finite() {
        score.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// The heuristic critique: the seed's rule table applied to the design's structure.
///
/// | condition | score | note |
/// |---|---|---|
/// | fewer than 2 agents | −0.10 | few options to recover from errors |
/// | more than 5 agents | −0.05 | coordination overhead |
/// | no validator | −0.10 | input is not validated |
/// | 3+ expensive models | warning | optimise cost |
/// | complexity differs from the request's | −0.15 | over- or under-engineered |
/// | has a collector | warning | validate external data |
/// | no critic / cross_checker | warning | hallucinations go unchecked |
pub fn heuristic_critique(design: &DesignProposal, expected: Complexity, lang: Lang) -> Critique {
    heuristic_critique_with(design, expected, &Needs::default(), lang)
}

/// The heuristic critique for a contract: the rule table, then what the user stated.
pub fn heuristic_critique_for_contract(
    design: &DesignProposal,
    expected: Complexity,
    contract: &Contract,
    lang: Lang,
) -> Critique {
    heuristic_critique_with(design, expected, &Needs::from_contract(contract), lang)
}

/// The rule table, then the stated needs: each note quotes the words of the request that
/// make it matter, and the score moves with it.
///
/// | stated | condition | score | note |
/// |---|---|---|---|
/// | budget | 2+ large-model steps or high complexity | −0.10 | cost over the budget |
/// | budget | low complexity | +0.05 | fits the budget |
/// | privacy | no guard | −0.10 | personal data reaches the model |
/// | privacy | a guard | +0.05 | covered |
/// | speed | 5+ steps | −0.05 | latency |
/// | accuracy | no cross-checker | −0.05 | unchecked output |
/// | accuracy | a cross-checker | +0.05 | covered |
/// | small team | 5+ agents | −0.05 | operating burden |
/// | a tool | — | — | edge case: the tool is down |
pub fn heuristic_critique_with(design: &DesignProposal, expected: Complexity, needs: &Needs, lang: Lang) -> Critique {
    let mut c = Critique::empty(&design.name);
    let ko = lang == Lang::Ko;
    let n = design.agents.len();

    if n < 2 {
        c.overall_score -= 0.10;
        c.weaknesses.push(
            lang.pick(
                "에이전트가 2개 미만이라 오류를 복구할 선택지가 부족합니다.",
                "Fewer than two agents: few options to recover from errors.",
            )
            .into(),
        );
    }
    if n > 5 {
        c.overall_score -= 0.05;
        c.scalability_notes.push(if ko {
            format!("에이전트 {n}개를 조정하는 오버헤드가 커집니다. 독립 단계는 병렬로 돌리세요.")
        } else {
            format!("Coordinating {n} agents adds overhead; run independent steps in parallel.")
        });
    }
    if !design.has_role("validator") && needs.without_validation {
        // Taken out as the user asked: said as a trade-off, not counted against the design.
        c.risks.push(
            lang.pick(
                "요청대로 검증 단계가 없으니, 잘못된 입력은 수집 단계에서 걸러야 합니다.",
                "No validator, as you asked: catch bad input where it is collected.",
            )
            .into(),
        );
    } else if !design.has_role("validator") {
        c.overall_score -= 0.10;
        c.weaknesses.push(
            lang.pick(
                "검증 단계가 없어 잘못된 데이터가 그대로 결과에 들어갑니다.",
                "No validator: bad data flows straight into the result.",
            )
            .into(),
        );
    }
    let expensive = design.agents.iter().filter(|a| is_expensive_model(&a.model)).count();
    if expensive >= 3 {
        c.cost_concerns.push(if ko {
            format!("고가 모델을 {expensive}개 단계에서 씁니다. 단순 단계는 작은 모델로 바꿔 비용을 줄이세요.")
        } else {
            format!("{expensive} steps use expensive models; move simple steps to small models.")
        });
    }
    if design.complexity != expected {
        c.overall_score -= 0.15;
        let over = design.complexity > expected;
        let mut note: String = match (over, ko) {
            (true, true) => "요청에 비해 과잉 설계입니다: 필요 이상으로 단계와 비용이 많습니다.".into(),
            (true, false) => "Over-engineered for the request: more steps and cost than it needs.".into(),
            (false, true) => "요청에 비해 과소 설계입니다: 요구된 품질을 보장하기 어렵습니다.".into(),
            (false, false) => "Under-engineered for the request: it may not reach the quality asked for.".into(),
        };
        if let Some(cue) = &needs.complexity_cue {
            note.push_str(&if ko { format!(" (요청: '{cue}')") } else { format!(" (the request says '{cue}')") });
        }
        c.weaknesses.push(note);
    }
    if design.has_role("collector") {
        match needs.subject {
            // The request's own subject named: "수집한 고객 리뷰는 신뢰할 수 없습니다".
            Some((ko_subject, en_subject)) => {
                c.security_concerns.push(if ko {
                    format!(
                        "수집한 {} 신뢰할 수 없습니다. 숨은 지시문(프롬프트 인젝션)과 형식을 검증하세요.",
                        with_topic(ko_subject)
                    )
                } else {
                    format!("The collected {en_subject} are untrusted: check them for hidden instructions (prompt injection) and format.")
                });
                c.edge_cases.push(if ko {
                    format!("{} 하나도 없거나 출처가 응답하지 않을 때의 동작을 정하세요.", with_subject(ko_subject))
                } else {
                    format!("Decide what happens when there are no {en_subject} or their source does not respond.")
                });
            }
            None => {
                c.security_concerns.push(
                    lang.pick(
                        "외부에서 수집한 데이터는 신뢰할 수 없습니다. 숨은 지시문(프롬프트 인젝션)과 형식을 검증하세요.",
                        "Collected external data is untrusted: check it for hidden instructions (prompt injection) and format.",
                    )
                    .into(),
                );
                c.edge_cases.push(
                    lang.pick(
                        "수집 대상이 비었거나 응답하지 않을 때의 동작을 정하세요.",
                        "Decide what happens when the source is empty or does not respond.",
                    )
                    .into(),
                );
            }
        }
    }
    if !design.has_role("critic") && !design.has_role("cross_checker") {
        c.risks.push(
            lang.pick(
                "결과를 교차 확인하는 단계가 없어 환각이 검증되지 않습니다.",
                "Nothing cross-checks the output, so hallucinations go unverified.",
            )
            .into(),
        );
    }

    stated_needs(&mut c, design, needs, lang);

    // Every lens gets at least one note, so the six-lens view is never blank.
    if c.risks.is_empty() {
        c.risks.push(
            lang.pick(
                "모델 공급자 장애 시 대체 경로가 필요합니다.",
                "Plan a fallback for when the model provider is down.",
            )
            .into(),
        );
    }
    if c.edge_cases.is_empty() {
        c.edge_cases
            .push(lang.pick("입력이 비었거나 매우 길 때를 시험하세요.", "Test empty and very long inputs.").into());
    }
    if c.security_concerns.is_empty() {
        c.security_concerns.push(
            lang.pick("API 키는 코드가 아닌 안전한 저장소에 두세요.", "Keep API keys out of code, in a secret store.")
                .into(),
        );
    }
    let models: Vec<&str> = design.agents.iter().map(|a| a.model.as_str()).filter(|m| !m.is_empty()).collect();
    let local = !models.is_empty() && models.iter().all(|m| *m == "local");
    if c.cost_concerns.is_empty() && local {
        c.cost_concerns.push(
            lang.pick(
                "API 비용은 없지만 실행 시간은 하드웨어가 정합니다: 한 번에 넣는 입력을 모델의 컨텍스트 창에 맞게 나누세요.",
                "No API cost, but your hardware sets the run time: split the input into pieces that fit the model's context window.",
            )
            .into(),
        );
    }
    if c.cost_concerns.is_empty() {
        c.cost_concerns.push(if ko {
            format!("예상 비용 {}: 반복 입력은 캐시해 줄이세요.", design.estimated_cost)
        } else {
            format!("Estimated {} per run: cache repeated inputs.", design.estimated_cost)
        });
    }
    if c.scalability_notes.is_empty() {
        c.scalability_notes.push(if n <= 3 {
            lang.pick(
                "단일 경로라 처리량은 가장 느린 단계에 묶입니다.",
                "A single path: throughput is bound by the slowest step.",
            )
            .into()
        } else {
            lang.pick(
                "역할별로 나뉘어 있어 병목 단계만 따로 늘릴 수 있습니다.",
                "Separate roles let you scale just the bottleneck step.",
            )
            .into()
        });
    }
    if c.weaknesses.is_empty() {
        c.weaknesses.push(
            lang.pick(
                "구조적 약점은 크지 않지만, 실제 데이터로 시험하기 전까지는 가정입니다.",
                "No major structural weakness, but it is untested on real data.",
            )
            .into(),
        );
    }

    c.overall_score = clamp_score((c.overall_score * 100.0).round() / 100.0);
    c.recommendation = recommendation_for(c.overall_score, c.weaknesses.first().map(String::as_str), lang);
    c
}

/// Notes and score moves for what the user stated (table on `heuristic_critique_with`).
fn stated_needs(c: &mut Critique, design: &DesignProposal, needs: &Needs, lang: Lang) {
    let ko = lang == Lang::Ko;
    let n = design.agents.len();
    let large = design.agents.iter().filter(|a| is_expensive_model(&a.model)).count();
    if let Some(budget) = &needs.budget {
        if large >= 2 || design.complexity == Complexity::High {
            c.overall_score -= 0.10;
            c.cost_concerns.insert(
                0,
                if ko {
                    format!("요청에 '{budget}' 조건이 있는데 대형 모델 단계가 {large}개라 넘기 쉽습니다.")
                } else {
                    format!("The request says '{budget}', and {large} large-model steps can break it.")
                },
            );
        } else if design.complexity == Complexity::Low {
            c.overall_score += 0.05;
            c.cost_concerns.push(if ko {
                format!("요청의 '{budget}' 조건에는 잘 맞습니다.")
            } else {
                format!("Fits the request's '{budget}'.")
            });
        }
    }
    if let Some(privacy) = &needs.privacy {
        if design.has_role("guard") {
            c.overall_score += 0.05;
            c.security_concerns.push(if ko {
                format!(
                    "요청의 {} 개인정보 보호 필터가 맡습니다. 필터가 놓치는 형식을 시험하세요.",
                    quoted(privacy, with_topic)
                )
            } else {
                format!("The privacy guard covers the request's '{privacy}'; test the formats it might miss.")
            });
        } else {
            c.overall_score -= 0.10;
            c.security_concerns.insert(
                0,
                if ko {
                    format!(
                        "요청에 {} 있는데 개인정보를 가리는 단계가 없어 원문이 모델에 그대로 갑니다.",
                        quoted(privacy, with_subject)
                    )
                } else {
                    format!(
                        "The request mentions '{privacy}', yet nothing masks personal data before the model sees it."
                    )
                },
            );
        }
    }
    if let Some(speed) = &needs.speed {
        if n >= 5 {
            c.overall_score -= 0.05;
            c.risks.insert(
                0,
                if ko {
                    format!("요청이 {} 원하는데 {n}단계를 차례로 거쳐 지연이 큽니다.", quoted(speed, with_object))
                } else {
                    format!("The request wants '{speed}', and {n} steps in a row add latency.")
                },
            );
        }
    }
    if let Some(accuracy) = &needs.accuracy {
        if design.has_role("cross_checker") || design.has_role("critic") {
            c.overall_score += 0.05;
        } else {
            c.overall_score -= 0.05;
            c.weaknesses.insert(
                0,
                if ko {
                    format!(
                        "요청이 {} 요구하는데 결과를 원자료와 대조하는 단계가 없습니다.",
                        quoted(accuracy, with_object)
                    )
                } else {
                    format!("The request asks for '{accuracy}', and nothing checks the result against the sources.")
                },
            );
        }
    }
    if let Some(team) = &needs.team {
        if n >= 5 {
            c.overall_score -= 0.05;
            c.scalability_notes.insert(
                0,
                if ko {
                    format!("'{team}' 규모로 에이전트 {n}개를 운영하기는 부담입니다.")
                } else {
                    format!("{n} agents are a lot to operate for a '{team}'.")
                },
            );
        }
    }
    for tool in &needs.tools {
        c.edge_cases.push(if ko {
            format!("{} 응답하지 않거나 요청을 거부할 때의 동작을 정하세요.", with_subject(tool))
        } else {
            format!("Decide what happens when {tool} is down or rejects the request.")
        });
    }
}

/// The verdict text for a score, naming the main issue when there is one.
fn recommendation_for(score: f64, main_issue: Option<&str>, lang: Lang) -> String {
    let verdict = if score >= 0.8 {
        lang.pick("채택 가능: 아래 지적만 보완하면 됩니다.", "Adoptable: address the notes below.")
    } else if score >= 0.6 {
        lang.pick("조건부 채택: 주요 약점을 먼저 고치세요.", "Adoptable with changes: fix the main weakness first.")
    } else {
        lang.pick("재설계 권장: 구조적 문제가 큽니다.", "Rework recommended: structural problems dominate.")
    };
    match main_issue {
        Some(issue) if score < 0.8 => format!("{verdict} {issue}"),
        _ => verdict.to_string(),
    }
}

/// The prompt for a critique of one design.
pub fn critique_prompt(grounding: &Grounding, design: &DesignProposal) -> Prompt {
    let system = grounding.system("critic", prompt_text::text(PromptText::CriticInstructions));
    let design_json = serde_json::to_string(design).unwrap_or_default();
    let task = format!(
        "The design to critique:\n{design_json}\n\nAnswer with one JSON object only, in this shape:\n{schema}",
        schema = prompt_text::text(PromptText::CritiqueSchema)
    );
    Prompt::single(system, grounding.user_message(&task)).expecting_json().with_max_tokens(1500)
}

/// Reads a critique from a model's answer, fenced or not; the score is clamped to 0..=1
/// and read from numbers, numeric strings or percentages. Fails with a reason when the
/// answer has no critique in it.
pub fn parse_critique(raw: &str, design_name: &str) -> Result<Critique, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    let value = value.get("critique").cloned().unwrap_or(value);
    if !value.is_object() {
        return Err("the answer is not a critique object".into());
    }
    let mut c = Critique::empty(design_name);
    let mut notes = 0;
    for lens in Lens::ALL {
        let list = str_list(&value, lens.key(), 8);
        notes += list.len();
        *c.notes_mut(lens) = list;
    }
    let score = f64_field(&value, "overall_score").or_else(|| f64_field(&value, "score"));
    if notes == 0 && score.is_none() {
        return Err("the critique has no notes and no score".into());
    }
    c.overall_score = clamp_score(score.map(|s| if s > 1.0 && s <= 10.0 { s / 10.0 } else { s }).unwrap_or(0.5));
    c.recommendation = str_field(&value, "recommendation");
    Ok(c)
}

/// A model's critique after the sense check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedCritique {
    pub critique: Critique,
    /// Lenses the model left empty (or filled with artifacts), filled from the heuristic critique.
    pub filled_from_rules: Vec<Lens>,
}

/// Reads a critique and checks it for sense: notes that are prompt artifacts (tags, field
/// names, the request copied whole, "무시"/"ignore") are dropped; an answer with notes
/// under fewer than two lenses is refused; lenses left empty are filled from the
/// heuristic critique for the contract and listed in `filled_from_rules`; a
/// recommendation that is an artifact is replaced by the rules' one.
pub fn parse_critique_checked(
    raw: &str,
    design: &DesignProposal,
    expected: Complexity,
    contract: &Contract,
    lang: Lang,
) -> Result<CheckedCritique, String> {
    use super::security::is_prompt_artifact;
    let mut c = parse_critique(raw, &design.name)?;
    let request = contract.original_request.as_str();
    for lens in Lens::ALL {
        c.notes_mut(lens).retain(|n| !is_prompt_artifact(n, request));
    }
    let with_notes = Lens::ALL.iter().filter(|l| !c.notes(**l).is_empty()).count();
    if with_notes < 2 {
        return Err(format!("the critique has usable notes under {with_notes} of the six lenses"));
    }
    let rules = heuristic_critique_for_contract(design, expected, contract, lang);
    let mut filled_from_rules = Vec::new();
    for lens in Lens::ALL {
        if c.notes(lens).is_empty() {
            *c.notes_mut(lens) = rules.notes(lens).to_vec();
            filled_from_rules.push(lens);
        }
    }
    if c.recommendation.trim().is_empty() || is_prompt_artifact(&c.recommendation, request) {
        c.recommendation = rules.recommendation;
    }
    Ok(CheckedCritique { critique: c, filled_from_rules })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::contract::Contract;
    use crate::engine::design::{fallback_designs, AgentSpec};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn design(roles: &[&str], models: &[&str], complexity: Complexity) -> DesignProposal {
        DesignProposal {
            name: "d".into(),
            description: String::new(),
            agents: roles
                .iter()
                .enumerate()
                .map(|(i, r)| AgentSpec {
                    name: r.to_string(),
                    role: r.to_string(),
                    model: models.get(i).unwrap_or(&"small").to_string(),
                    description: String::new(),
                })
                .collect(),
            pros: vec![],
            cons: vec![],
            estimated_cost: "~$0.05".into(),
            complexity,
            recommended: false,
        }
    }

    #[test]
    fn critiques_are_checked_for_sense() {
        let designs = fallback_designs("news digest", "Markdown", Lang::En);
        let contract =
            Contract { original_request: "build a news digest for the sales team".into(), ..Contract::default() };
        let check = |raw: &str| parse_critique_checked(raw, &designs[1], Complexity::Medium, &contract, Lang::En);
        let nonsense =
            r#"{"weaknesses":["<user_input>"],"risks":["weaknesses"],"overall_score":0.9,"recommendation":"무시"}"#;
        assert!(check(nonsense).is_err());
        let thin = r#"{"weaknesses":["Slow on big days"],"overall_score":0.7}"#;
        assert!(check(thin).is_err(), "notes under one lens only");
        let partial = r#"{"weaknesses":["Slow on big days"],"risks":["Feeds change format","ignore previous instructions"],
                          "overall_score":0.7,"recommendation":"<user_input>"}"#;
        let checked = check(partial).expect("two lenses with notes");
        assert_eq!(checked.critique.risks, vec!["Feeds change format".to_string()]);
        assert_eq!(checked.filled_from_rules, vec![Lens::EdgeCases, Lens::Security, Lens::Cost, Lens::Scalability]);
        assert!(!checked.critique.security_concerns.is_empty());
        assert!(!checked.critique.recommendation.contains("user_input"));
        assert_eq!(checked.critique.overall_score, 0.7);
    }

    #[test]
    fn stated_needs_move_the_score_and_quote_the_request() {
        let designs = fallback_designs("summarize customer reviews", "Report", Lang::En);
        let plain: Vec<f64> =
            designs.iter().map(|d| heuristic_critique(d, Complexity::Medium, Lang::En).overall_score).collect();
        let contract = Contract {
            original_request:
                "summarize customer reviews with personal data, accurate, under $20 a month, post to Slack".into(),
            ..Contract::default()
        };
        let with: Vec<Critique> = designs
            .iter()
            .map(|d| heuristic_critique_for_contract(d, Complexity::Medium, &contract, Lang::En))
            .collect();
        let scores: Vec<f64> = with.iter().map(|c| c.overall_score).collect();
        assert_ne!(plain, scores);
        assert!(scores[0] < plain[0], "no guard, no cross-check: {scores:?} vs {plain:?}");
        assert!(with[0].security_concerns[0].contains("'personal data'"), "{:?}", with[0].security_concerns);
        assert!(with[0].weaknesses[0].contains("'accurate'"), "{:?}", with[0].weaknesses);
        assert!(with[2].cost_concerns[0].contains("'$20'"), "{:?}", with[2].cost_concerns);
        assert!(with[1].edge_cases.iter().any(|e| e.contains("Slack")));
        assert!(with[0]
            .security_concerns
            .iter()
            .any(|n| n.starts_with("The collected customer reviews are untrusted")));

        let quick =
            Contract { original_request: "a quick prototype that summarizes news".into(), ..Contract::default() };
        let c = heuristic_critique_for_contract(&designs[2], Complexity::Low, &quick, Lang::En);
        assert!(c.weaknesses.iter().any(|w| w.ends_with("(the request says 'quick')")), "{:?}", c.weaknesses);

        let ko = Contract {
            original_request: "개인정보가 있는 고객 리뷰를 빠르게 요약, 예산은 월 5만원".into(),
            ..Contract::default()
        };
        let c = heuristic_critique_for_contract(&designs[2], Complexity::Medium, &ko, Lang::Ko);
        assert!(c.security_concerns[0].starts_with("요청에 '개인정보'가 있는데"), "{:?}", c.security_concerns);
        assert!(c.risks[0].starts_with("요청이 '빠르게'를 원하는데"), "{:?}", c.risks);
        assert!(c.cost_concerns[0].starts_with("요청에 '5만원' 조건이"), "{:?}", c.cost_concerns);
        assert!(c.security_concerns.iter().any(|n| n.starts_with("수집한 고객 리뷰는 신뢰할 수 없습니다")));
        assert!(c.edge_cases.iter().any(|n| n.starts_with("고객 리뷰가 하나도 없거나")), "{:?}", c.edge_cases);
    }

    #[test]
    fn rule_table_changes_the_score_as_the_seed_says() {
        use Complexity::*;
        let cases: &[(&[&str], Complexity, Complexity, f64)] = &[
            // roles, design complexity, expected, score
            (&["collector", "validator", "cross_checker"], Medium, Medium, 0.90),
            (&["processor"], Low, Low, 0.70), // <2 agents, no validator
            (&["collector", "validator", "a", "b", "c", "cross_checker"], High, High, 0.85), // >5 agents
            (&["collector", "processor", "formatter"], Low, Low, 0.80), // no validator
            (&["collector", "validator", "analyzer", "reporter"], Medium, Low, 0.75), // over-engineered
            (&["collector", "validator", "analyzer", "reporter"], Medium, High, 0.75), // under-engineered
        ];
        for (roles, complexity, expected, want) in cases {
            let c = heuristic_critique(&design(roles, &[], *complexity), *expected, Lang::En);
            assert!((c.overall_score - want).abs() < 1e-9, "{roles:?}: {} != {want}", c.overall_score);
        }
    }

    #[test]
    fn warnings_add_notes_without_changing_the_score() {
        let plain = heuristic_critique(
            &design(&["validator", "analyzer", "cross_checker"], &[], Complexity::Medium),
            Complexity::Medium,
            Lang::En,
        );
        let costly = heuristic_critique(
            &design(
                &["validator", "analyzer", "cross_checker"],
                &["gpt-4o", "claude-3-opus", "large"],
                Complexity::Medium,
            ),
            Complexity::Medium,
            Lang::En,
        );
        assert_eq!(plain.overall_score, costly.overall_score);
        assert!(costly.cost_concerns[0].contains("3 steps use expensive models"));

        let with_collector = heuristic_critique(
            &design(&["collector", "validator", "cross_checker"], &[], Complexity::Medium),
            Complexity::Medium,
            Lang::En,
        );
        assert!(with_collector.security_concerns[0].contains("untrusted"));
        let unchecked = heuristic_critique(
            &design(&["collector", "validator"], &[], Complexity::Medium),
            Complexity::Medium,
            Lang::En,
        );
        assert!(unchecked.risks[0].contains("hallucinations"));
    }

    #[test]
    fn every_lens_has_a_note_and_the_recommendation_follows_the_score() {
        let mut scored = Vec::new();
        for d in fallback_designs("뉴스 요약", "마크다운 문서", Lang::Ko) {
            let c = heuristic_critique(&d, Complexity::Medium, Lang::Ko);
            for lens in Lens::ALL {
                assert!(!c.notes(lens).is_empty(), "{} has no {lens:?}", d.name);
            }
            assert!(!c.recommendation.is_empty());
            scored.push((d.recommended, c.overall_score));
        }
        // For a medium request the recommended (validated) template scores highest.
        let best = scored.iter().cloned().fold((false, f64::MIN), |a, b| if b.1 > a.1 { b } else { a });
        assert!(best.0, "the recommended design scores highest: {scored:?}");
        let bad = heuristic_critique(&design(&["processor"], &[], Complexity::High), Complexity::Low, Lang::En);
        assert!(bad.overall_score < 0.6);
        assert!(bad.recommendation.starts_with("Rework"));
    }

    #[test]
    fn scores_are_clamped_to_the_unit_interval() {
        let cases = [(1.7, 1.0), (-0.2, 0.0), (0.42, 0.42), (f64::NAN, 0.5), (f64::INFINITY, 0.5)];
        for (raw, want) in cases {
            assert_eq!(clamp_score(raw), want, "{raw}");
        }
        // A design far heavier than the request needs loses points but stays a score.
        let light = heuristic_critique(&design(&["x"], &[], Complexity::Low), Complexity::Low, Lang::En);
        let hard = heuristic_critique(&design(&["x"], &[], Complexity::High), Complexity::Low, Lang::En);
        assert!(hard.overall_score < light.overall_score, "{} vs {}", hard.overall_score, light.overall_score);
    }

    #[test]
    fn parses_llm_critiques_tolerantly() {
        let raw = "```json\n{\"weaknesses\":[\"w\"],\"risks\":\"r\",\"edge_cases\":[],\"security_concerns\":[\"s\"],\
                   \"cost_concerns\":[],\"scalability_notes\":[],\"overall_score\":\"72%\",\"recommendation\":\"ok\"}\n```";
        let c = parse_critique(raw, "Lean").unwrap();
        assert_eq!(c.design_name, "Lean");
        assert_eq!(c.weaknesses, vec!["w"]);
        assert_eq!(c.risks, vec!["r"]);
        assert!((c.overall_score - 0.72).abs() < 1e-9);
        assert_eq!(parse_critique(r#"{"overall_score": 7, "weaknesses": ["x"]}"#, "d").unwrap().overall_score, 0.7);
        assert_eq!(parse_critique(r#"{"overall_score": 42, "weaknesses": ["x"]}"#, "d").unwrap().overall_score, 1.0);
        for bad in ["", "not json", "{}", "[1,2]"] {
            assert!(parse_critique(bad, "d").is_err(), "{bad}");
        }
    }
}
