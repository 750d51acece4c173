//! Modules: the counselor's techniques, global tools usable in any part. A change records
//! the previous module and the reason, and the counselor is told once in the seed's form.

use serde::{Deserialize, Serialize};

use crate::engine::lang::{clip, Lang};

/// One counseling technique the counselor can be asked to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Module {
    /// Warmth and safety first: build the relationship.
    RapportBuilding,
    /// Open questions about the situation.
    InformationGathering,
    /// Reflect feelings and meaning back.
    EmpathicReflection,
    /// Meet reluctance without pushing.
    ResistanceHandling,
    /// Pull what was said together and check it.
    Summarizing,
    /// Turn wishes into small concrete goals.
    GoalSetting,
    /// Close warmly and say what comes next.
    Closing,
}

impl Module {
    /// Every module, in catalog order.
    pub const ALL: [Module; 7] = [
        Module::RapportBuilding,
        Module::InformationGathering,
        Module::EmpathicReflection,
        Module::ResistanceHandling,
        Module::Summarizing,
        Module::GoalSetting,
        Module::Closing,
    ];

    /// The id used in prompts and JSON answers, e.g. `resistance_handling`.
    pub fn id(self) -> &'static str {
        match self {
            Module::RapportBuilding => "rapport_building",
            Module::InformationGathering => "information_gathering",
            Module::EmpathicReflection => "empathic_reflection",
            Module::ResistanceHandling => "resistance_handling",
            Module::Summarizing => "summarizing",
            Module::GoalSetting => "goal_setting",
            Module::Closing => "closing",
        }
    }

    /// The module with this id (case and separators ignored), if any.
    pub fn from_id(id: &str) -> Option<Module> {
        let key: String =
            id.trim().chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
        Module::ALL.into_iter().find(|m| m.id().replace('_', "") == key)
    }

    /// The module's name as the seed writes it ("정보 수집 모듈").
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Module::RapportBuilding => lang.pick("관계 형성 모듈", "rapport building module"),
            Module::InformationGathering => lang.pick("정보 수집 모듈", "information gathering module"),
            Module::EmpathicReflection => lang.pick("공감 반영 모듈", "empathic reflection module"),
            Module::ResistanceHandling => lang.pick("저항 대처 모듈", "resistance handling module"),
            Module::Summarizing => lang.pick("요약 모듈", "summarizing module"),
            Module::GoalSetting => lang.pick("목표 설정 모듈", "goal setting module"),
            Module::Closing => lang.pick("마무리 모듈", "closing module"),
        }
    }

    /// What the module does, as a noun phrase for notices ("정보 수집").
    pub fn activity(self, lang: Lang) -> &'static str {
        match self {
            Module::RapportBuilding => lang.pick("관계 형성", "building rapport"),
            Module::InformationGathering => lang.pick("정보 수집", "information gathering"),
            Module::EmpathicReflection => lang.pick("공감 반영", "empathic reflection"),
            Module::ResistanceHandling => lang.pick("저항 대처", "handling resistance"),
            Module::Summarizing => lang.pick("요약", "summarizing"),
            Module::GoalSetting => lang.pick("목표 설정", "goal setting"),
            Module::Closing => lang.pick("마무리", "closing"),
        }
    }

    /// What the module does, in one sentence for the side panel: its guideline's first line.
    pub fn summary(self, lang: Lang) -> &'static str {
        let first = self.guideline(lang).lines().next().unwrap_or("");
        first.trim_start_matches('-').trim()
    }

    /// The guideline summary the counselor prompt carries (3–5 lines).
    pub fn guideline(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Module::RapportBuilding, Lang::Ko) => {
                "- 따뜻하고 편안한 말투로 맞이한다.\n\
- 사용자의 말에 먼저 관심과 존중을 표현한다.\n\
- 부담 없는 열린 질문 하나만 한다.\n\
- 판단하거나 조언하지 않는다."
            }
            (Module::RapportBuilding, Lang::En) => {
                "- Greet warmly and keep the tone easy.\n\
- Show interest in and respect for what the user says first.\n\
- Ask one light, open question.\n\
- Do not judge or advise."
            }
            (Module::InformationGathering, Lang::Ko) => {
                "- 상황을 구체적으로 묻는 열린 질문을 한 번에 하나만 한다.\n\
- 언제, 어디서, 누구와, 얼마나 자주인지 차근차근 확인한다.\n\
- 답을 짧게 되짚은 뒤 다음 질문으로 넘어간다.\n\
- 캐묻는 느낌이 들지 않게 속도를 조절한다."
            }
            (Module::InformationGathering, Lang::En) => {
                "- Ask one open question at a time about the concrete situation.\n\
- Step by step: when, where, with whom, how often.\n\
- Briefly restate the answer before the next question.\n\
- Pace it so it never feels like an interrogation."
            }
            (Module::EmpathicReflection, Lang::Ko) => {
                "- 사용자가 느끼는 감정을 이름 붙여 되돌려 준다.\n\
- 그 감정이 들 만한 이유를 인정한다.\n\
- 해결책보다 이해를 먼저 보여 준다.\n\
- 같은 공감 표현을 반복하지 않는다."
            }
            (Module::EmpathicReflection, Lang::En) => {
                "- Name the feeling the user expresses and reflect it back.\n\
- Acknowledge why it makes sense to feel that way.\n\
- Show understanding before any solution.\n\
- Vary the wording; never repeat the same empathy phrase."
            }
            (Module::ResistanceHandling, Lang::Ko) => {
                "- 망설임이나 거부를 자연스러운 반응으로 인정한다.\n\
- 밀어붙이지 말고 말하지 않아도 괜찮다고 알린다.\n\
- 사용자가 대화의 방향을 고를 수 있게 선택권을 준다.\n\
- 저항이 누그러지면 이전 작업을 천천히 다시 이어간다."
            }
            (Module::ResistanceHandling, Lang::En) => {
                "- Accept hesitation or refusal as a natural reaction.\n\
- Do not push; say it is fine not to talk about something.\n\
- Give the user a choice of where the conversation goes.\n\
- When the resistance eases, slowly resume the earlier work."
            }
            (Module::Summarizing, Lang::Ko) => {
                "- 지금까지 나온 핵심 내용을 두세 문장으로 정리한다.\n\
- 사용자의 표현을 살려서 말한다.\n\
- 정리한 내용이 맞는지 확인을 구한다."
            }
            (Module::Summarizing, Lang::En) => {
                "- Pull the key points so far into two or three sentences.\n\
- Keep the user's own words.\n\
- Ask whether the summary is right."
            }
            (Module::GoalSetting, Lang::Ko) => {
                "- 바라는 변화를 작고 구체적인 목표로 바꾸도록 돕는다.\n\
- 이번 주에 해 볼 수 있는 한 가지 행동을 함께 찾는다.\n\
- 목표는 사용자가 직접 말하게 한다.\n\
- 실천을 막을 만한 어려움도 함께 짚는다."
            }
            (Module::GoalSetting, Lang::En) => {
                "- Help turn the wished-for change into a small, concrete goal.\n\
- Find one action the user could try this week.\n\
- Let the user state the goal in their own words.\n\
- Name what might get in the way."
            }
            (Module::Closing, Lang::Ko) => {
                "- 오늘 대화에 함께해 준 것에 고마움을 전한다.\n\
- 정한 목표를 한 번 더 짚는다.\n\
- 다음 대화에서 이어갈 것을 안내한다.\n\
- 힘들 때 도움받을 수 있는 곳을 알려 준다."
            }
            (Module::Closing, Lang::En) => {
                "- Thank the user for today's conversation.\n\
- Restate the goal once more.\n\
- Say what the next conversation can pick up.\n\
- Mention where to get help when things get hard."
            }
        }
    }
}

/// Why the module changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum ChangeReason {
    /// The user state detector found resistance.
    Resistance,
    /// The resistance has eased; back to the task's own module.
    ResistanceEased,
    /// A strong emotion needs room first.
    StrongEmotion,
    /// The supervisor's feedback asked for another approach (its first point).
    SupervisorFeedback(String),
    /// The conversation is going in circles.
    GoingInCircles,
    /// The user moved to another topic.
    TopicChange,
    /// A new task was selected.
    NewTask,
    /// The moment that called for another module has passed; back to the task's own.
    BackToTask,
    /// The LLM Module Selector chose it, for the reason it gave.
    Selected(String),
}

impl ChangeReason {
    /// The reason as the notice's "이유:" line says it.
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            ChangeReason::Resistance => lang.pick("사용자 저항 감지", "user resistance detected").into(),
            ChangeReason::ResistanceEased => lang.pick("사용자 저항 완화", "user resistance eased").into(),
            ChangeReason::StrongEmotion => lang.pick("강한 감정 표현 감지", "strong emotion detected").into(),
            ChangeReason::SupervisorFeedback(point) if point.trim().is_empty() => {
                lang.pick("Supervision 피드백", "supervisor feedback").into()
            }
            ChangeReason::SupervisorFeedback(point) => {
                format!("{}: {}", lang.pick("Supervision 피드백", "supervisor feedback"), point.trim())
            }
            ChangeReason::GoingInCircles => lang.pick("대화가 제자리를 맴돎", "conversation going in circles").into(),
            ChangeReason::TopicChange => lang.pick("대화 주제 변경", "topic change").into(),
            ChangeReason::NewTask => lang.pick("새 Task 선택", "new task selected").into(),
            ChangeReason::BackToTask => lang.pick("현재 Task 진행으로 복귀", "back to the current task").into(),
            ChangeReason::Selected(reason) => {
                format!("{}: {}", lang.pick("Module Selector 판단", "Module Selector"), clip(reason.trim(), 200))
            }
        }
    }
}

/// A recorded module change: from, to, why, and at which user message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleChange {
    /// The module used before.
    pub from: Module,
    /// The module used from now on.
    pub to: Module,
    /// Why it changed.
    pub reason: ChangeReason,
    /// The number of user messages when it changed.
    pub at_user_message: u32,
}

impl ModuleChange {
    /// The notice the counselor gets once, in the seed's form:
    /// `=== Module 변경 ===`, reason, previous, new, and a one-line direction.
    pub fn notice(&self, lang: Lang) -> String {
        let direction = match (&self.reason, self.to) {
            (ChangeReason::Resistance, _) | (_, Module::ResistanceHandling) => match lang {
                Lang::Ko => format!("저항을 먼저 다루고, 그 후 {} 재개", self.from.activity(lang)),
                Lang::En => format!("Handle the resistance first, then resume {}", self.from.activity(lang)),
            },
            (ChangeReason::StrongEmotion, _) => match lang {
                Lang::Ko => format!("감정을 먼저 충분히 받아 주고, 그 후 {} 재개", self.from.activity(lang)),
                Lang::En => format!("Make room for the feeling first, then resume {}", self.from.activity(lang)),
            },
            _ => match lang {
                Lang::Ko => format!("이제 {}에 집중", self.to.activity(lang)),
                Lang::En => format!("Focus on {} now", self.to.activity(lang)),
            },
        };
        let [title, reason, previous, new] = match lang {
            Lang::Ko => ["=== Module 변경 ===", "이유", "이전", "새로운"],
            Lang::En => ["=== Module change ===", "Reason", "Previous", "New"],
        };
        format!(
            "{title}\n{reason}: {}\n{previous}: {}\n{new}: {}\n→ {direction}",
            self.reason.describe(lang),
            self.from.name(lang),
            self.to.name(lang)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn every_module_has_a_one_line_summary_that_says_more_than_its_name() {
        for lang in [Lang::Ko, Lang::En] {
            for module in Module::ALL {
                let summary = module.summary(lang);
                assert!(summary.chars().count() > 10 && !summary.starts_with('-'), "{module:?}: {summary}");
                assert!(!summary.contains('\n') && !summary.contains(module.activity(lang)), "{module:?}: {summary}");
            }
        }
        assert_eq!(
            Module::InformationGathering.summary(Lang::En),
            "Ask one open question at a time about the concrete situation."
        );
    }

    #[test]
    fn every_module_has_a_three_to_five_line_guideline_in_both_languages() {
        for module in Module::ALL {
            for lang in [Lang::Ko, Lang::En] {
                let lines = module.guideline(lang).lines().count();
                assert!((3..=5).contains(&lines), "{module:?} {lang:?}: {lines} lines");
            }
            assert_eq!(Module::from_id(module.id()), Some(module));
        }
        assert_eq!(Module::from_id("Resistance-Handling"), Some(Module::ResistanceHandling));
        assert_eq!(Module::from_id("hypnosis"), None);
    }

    #[test]
    fn change_notice_follows_the_seed_form() {
        let change = ModuleChange {
            from: Module::InformationGathering,
            to: Module::ResistanceHandling,
            reason: ChangeReason::Resistance,
            at_user_message: 4,
        };
        assert_eq!(
            change.notice(Lang::Ko),
            "=== Module 변경 ===\n이유: 사용자 저항 감지\n이전: 정보 수집 모듈\n새로운: 저항 대처 모듈\n→ 저항을 먼저 다루고, 그 후 정보 수집 재개"
        );
        assert_eq!(
            change.notice(Lang::En),
            "=== Module change ===\nReason: user resistance detected\nPrevious: information gathering module\n\
New: resistance handling module\n→ Handle the resistance first, then resume information gathering"
        );
    }
}
