//! Provenance: which producer made an artifact, an LLM or a heuristic, and why.

use serde::{Deserialize, Serialize};

use super::call::FailureKind;
use super::lang::Lang;

/// Why a heuristic produced an artifact instead of an LLM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum HeuristicWhy {
    /// No LLM is configured.
    NoLlm,
    /// The call failed.
    CallFailed { kind: FailureKind },
    /// The answer could not be read.
    Unparseable { reason: String },
    /// The user stopped the call and chose to go on without it.
    Stopped,
}

/// Who made an artifact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Source {
    /// A language model; the model's name as reported.
    Llm { model: String },
    /// The deterministic rules of the engine.
    Heuristic(HeuristicWhy),
}

impl Source {
    /// The heuristic source used when no LLM is configured.
    pub const NO_LLM: Source = Source::Heuristic(HeuristicWhy::NoLlm);

    /// True when an LLM made the artifact.
    pub fn is_llm(&self) -> bool {
        matches!(self, Source::Llm { .. })
    }

    /// A short badge text for the artifact, in the UI language.
    pub fn badge(&self, lang: Lang) -> String {
        match self {
            Source::Llm { model } if model.trim().is_empty() => {
                lang.pick("LLM (모델 이름 없음)", "LLM (model not reported)").to_string()
            }
            Source::Llm { model } => model.clone(),
            Source::Heuristic(why) => {
                let base = lang.pick("휴리스틱", "heuristic");
                match why {
                    HeuristicWhy::NoLlm => base.to_string(),
                    HeuristicWhy::CallFailed { .. } => {
                        format!("{base} · {}", lang.pick("LLM 호출 실패", "LLM call failed"))
                    }
                    HeuristicWhy::Unparseable { .. } => {
                        format!("{base} · {}", lang.pick("LLM 응답 해석 불가", "LLM answer unreadable"))
                    }
                    HeuristicWhy::Stopped => format!("{base} · {}", lang.pick("중지됨", "stopped")),
                }
            }
        }
    }
}
