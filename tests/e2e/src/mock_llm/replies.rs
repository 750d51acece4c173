//! The mock's default answers, chosen by the role line the app puts first in its
//! system prompts (`# role: NAME`). Every answer says "mock" somewhere visible.

use serde_json::{json, Value};

/// The role named by a system prompt's first non-empty line `# role: NAME`, lowercased.
pub fn role_of(system: &str) -> Option<String> {
    let first = system.lines().map(str::trim).find(|l| !l.is_empty())?;
    let rest = first.strip_prefix('#')?.trim_start();
    let (key, name) = rest.split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("role") {
        return None;
    }
    let name = name.trim().to_ascii_lowercase();
    (!name.is_empty()).then_some(name)
}

/// The text the contract analyst's goal echoes: the first non-empty line after a line
/// `[REQUEST]` (skipping the app's isolation tag line, whatever its name), else the whole message
/// with whitespace collapsed; clipped to 80 characters.
pub fn request_echo(user: &str) -> String {
    let mut lines = user.lines();
    let after_marker = lines
        .by_ref()
        .position(|l| l.trim() == "[REQUEST]")
        .and_then(|_| lines.map(str::trim).find(|l| !(l.is_empty() || l.starts_with('<') && l.ends_with('>'))));
    let source = match after_marker {
        Some(line) => line.to_string(),
        None => user.split_whitespace().collect::<Vec<_>>().join(" "),
    };
    source.chars().take(80).collect()
}

/// The default answer for a role (see the module docs) given the last user message.
pub fn default_reply(role: Option<&str>, user: &str) -> String {
    match role {
        Some("contract-analyst") => contract(user).to_string(),
        Some("question-writer") => json!({
            "question": "(mock) Which output format should the result have?",
            "options": ["A", "B"],
        })
        .to_string(),
        Some("designer") => json!({"designs": designs(false)}).to_string(),
        Some("refiner") => json!({"designs": designs(true)}).to_string(),
        Some("critic") => critique().to_string(),
        Some("planner") => PLAN.to_string(),
        Some("worker") => WORK.to_string(),
        // Counseling (seed 004): every check says the task is done, so a session walks
        // through all parts in a few messages.
        Some("counsel-task-checker") => json!({
            "is_completed": true,
            "new_status": "sufficient",
            "completion_reason": "(mock) covered",
            "also_sufficient": [],
            "part_covered": true,
        })
        .to_string(),
        Some("counsel-state-detector") => json!({
            "emotion": "neutral", "intensity": 3, "resistance": false, "engagement": "medium",
            "topic_change": null, "going_in_circles": false, "wants_to_close": false, "note": "(mock)",
        })
        .to_string(),
        Some("counsel-planner") => json!({"tasks": [
            {"id": "task_mock_situation_2", "priority": "high", "title": "(mock) Explore the situation",
             "description": "(mock) Ask what happens and when", "target": "(mock) The situation is clear",
             "completion_criteria": "(mock) The user described it", "module": "information_gathering"},
            {"id": "task_mock_feelings_2", "priority": "medium", "title": "(mock) Explore the feelings",
             "description": "(mock) Reflect the feelings", "target": "(mock) The feelings are named",
             "completion_criteria": "(mock) The user named a feeling", "module": "empathic_reflection"},
        ]})
        .to_string(),
        // The Module Selector keeps the module the request names as current.
        Some("counsel-module-selector") => {
            let current = user
                .lines()
                .find_map(|l| l.strip_prefix("[CURRENT MODULE] "))
                .map(str::trim)
                .unwrap_or("information_gathering");
            json!({"module": current, "reason": "(mock) keep the current approach"}).to_string()
        }
        Some("counselor") => {
            "(mock counselor) Thank you for telling me. What feels most important right now?".to_string()
        }
        Some("counsel-supervisor") => json!({
            "score": 6,
            "improvements": ["(mock) Reflect the feeling before asking"],
            "suggested_module": null,
        })
        .to_string(),
        _ => format!(
            "This is a mock reply to: {}",
            user.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(60).collect::<String>()
        ),
    }
}

fn contract(user: &str) -> Value {
    json!({
        "context": "(mock) The request as the mock LLM understood it.",
        "goal": request_echo(user),
        "criteria": [
            "(mock) The result answers the request directly",
            "(mock) Every step can be checked by the user",
        ],
        "format": "Markdown document",
        "openQuestions": [],
        "confidence": "high",
    })
}

fn designs(refined: bool) -> Vec<Value> {
    let suffix = if refined { " (refined)" } else { "" };
    let agent = |name: &str, role: &str, model: &str| json!({"name": name, "role": role, "model": model});
    vec![
        json!({
            "name": format!("Mock Pipeline{suffix}"),
            "description": "(mock) Collect the inputs, validate them, then synthesize one report.",
            "agents": [
                agent("Collector", "collector", "mock-small"),
                agent("Validator", "validator", "mock-small"),
                agent("Synthesizer", "synthesizer", "mock-large"),
            ],
            "pros": ["(mock) Simple to follow", "(mock) Each step is checkable"],
            "cons": ["(mock) Sequential, so slower"],
            "estimated_cost": "~$0.02",
            "complexity": "medium",
            "recommended": true,
        }),
        json!({
            "name": format!("Mock Parallel Review{suffix}"),
            "description": "(mock) Two analyzers work in parallel and a cross-checker merges them.",
            "agents": [
                agent("Analyzer A", "analyzer", "mock-small"),
                agent("Analyzer B", "analyzer", "mock-small"),
                agent("Cross-checker", "cross_checker", "mock-large"),
                agent("Reporter", "reporter", "mock-small"),
            ],
            "pros": ["(mock) Catches more mistakes", "(mock) Faster on large inputs"],
            "cons": ["(mock) Costs more", "(mock) Harder to debug"],
            "estimated_cost": "~$0.02",
            "complexity": "high",
            "recommended": false,
        }),
        json!({
            "name": format!("Mock Single Agent{suffix}"),
            "description": "(mock) One processor does everything and a formatter tidies the output.",
            "agents": [
                agent("Processor", "processor", "mock-large"),
                agent("Formatter", "formatter", "mock-small"),
            ],
            "pros": ["(mock) Cheapest"],
            "cons": ["(mock) No independent check", "(mock) Quality varies"],
            "estimated_cost": "~$0.02",
            "complexity": "low",
            "recommended": false,
        }),
    ]
}

fn critique() -> Value {
    json!({
        "weaknesses": ["(mock) The validation step has no clear pass criterion"],
        "risks": ["(mock) The source data may be stale"],
        "edge_cases": ["(mock) An empty input list"],
        "security_concerns": ["(mock) API keys must not appear in logs"],
        "cost_concerns": ["(mock) The large model is used for every item"],
        "scalability_notes": ["(mock) Parallel calls hit the rate limit early"],
        "overall_score": 0.72,
        "recommendation": "(mock) Proceed, but define when validation passes.",
    })
}

const PLAN: &str = "# Mock implementation plan

This plan was written by the mock LLM so that streaming can be watched chunk by chunk.
계획 (plan): 단계별로 진행합니다.

## Steps

1. Collect the inputs named in the request and list what is missing.
2. Validate every input against the agreed criteria; reject what fails.
3. Analyze the validated inputs and note each open question.
4. Write the report in the agreed format and check it against the goal.

## Roles

| Agent | Role | Model |
| --- | --- | --- |
| Collector | collector | mock-small |
| Synthesizer | synthesizer | mock-large |

## Risks

- The mock cannot know your real data; replace it with a real model before use.
- 검증 (validation) must happen before the report is written.
- A step that fails twice is reported to the user instead of retried again.

## Checks

1. Each criterion has a yes/no test that someone other than the author can run.
2. The cost stays within the estimate; stop and ask when it would not.

## Done when

The report answers the goal, every criterion is checked, and the user has approved it.
";

const WORK: &str = "# Mock result

The mock LLM produced this document in place of real work, long enough to stream visibly.
결과 (result): 요청한 작업의 모의 결과입니다.

## Summary

1. The request was read and split into three parts.
2. Each part was answered with a short, checkable statement.
3. The answers were put together into this document.

## Details

| Part | Answer |
| --- | --- |
| Scope | (mock) Limited to what the request names |
| Output | (mock) One Markdown document |

## Notes

- This text is fixed; tests can compare it byte for byte.
- 한국어 텍스트도 포함되어 있어 UTF-8 처리를 확인할 수 있습니다 (Korean text checks UTF-8 handling).
- Nothing here came from a real model.
- The table and the numbered list check that Markdown renders while it streams.

## Next

Ask a follow-up question, or start over with a new request.
Each answer above can be checked against the request in under a minute.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_line_is_read_from_the_first_non_empty_line() {
        let cases = [
            ("# role: designer\nYou design.", Some("designer")),
            ("\n  # role:   Contract-Analyst  \nx", Some("contract-analyst")),
            ("#role:critic", Some("critic")),
            ("You are helpful.\n# role: designer", None),
            ("# rolex: designer", None),
            ("# role:", None),
            ("", None),
        ];
        for (system, role) in cases {
            assert_eq!(role_of(system).as_deref(), role, "{system:?}");
        }
    }

    #[test]
    fn counseling_defaults_parse_with_the_engines_parsers() {
        use deliberate::engine::counsel::{checker, selector, state, supervisor, task};
        use deliberate::engine::lang::Lang;
        let tasks = task::fixed_tasks(task::Part::Start, Lang::En);
        let verdict = checker::parse_verdict(&default_reply(Some("counsel-task-checker"), ""), &tasks[0], &tasks);
        assert!(verdict.expect("checker default parses").is_completed);
        assert!(state::parse_state(&default_reply(Some("counsel-state-detector"), "")).is_ok());
        // Below 7, so the feedback reaches the next counselor prompt in the e2e session.
        assert_eq!(
            supervisor::parse_feedback(&default_reply(Some("counsel-supervisor"), ""), 3).map(|f| f.score),
            Ok(6)
        );
        assert_eq!(task::parse_plan(&default_reply(Some("counsel-planner"), "")).map(|t| t.len()), Ok(2));
        let kept = default_reply(Some("counsel-module-selector"), "[CURRENT MODULE] summarizing\n");
        assert_eq!(selector::parse_module_choice(&kept).map(|(m, _)| m.id()), Ok("summarizing"));
    }

    #[test]
    fn request_echo_prefers_the_line_after_the_request_marker() {
        let long = "가".repeat(100);
        let cases = [
            ("Context here\n[REQUEST]\n\nWrite a trip plan\nmore", "Write a trip plan".to_string()),
            ("  just   one\nline  ", "just one line".to_string()),
            (long.as_str(), "가".repeat(80)),
        ];
        for (user, echo) in cases {
            assert_eq!(request_echo(user), echo, "{user:?}");
        }
    }

    #[test]
    fn every_role_answer_mentions_mock_and_json_roles_parse() {
        for role in [
            "contract-analyst",
            "question-writer",
            "designer",
            "refiner",
            "critic",
            "planner",
            "worker",
            "counsel-task-checker",
            "counsel-state-detector",
            "counselor",
            "counsel-supervisor",
            "counsel-planner",
            "counsel-module-selector",
            "something-else",
        ] {
            let text = default_reply(Some(role), "[REQUEST]\nPlan a mock trip");
            assert!(text.to_lowercase().contains("mock"), "{role}: {text}");
            if !matches!(role, "planner" | "worker" | "counselor" | "something-else") {
                let v: Value = serde_json::from_str(&text).unwrap();
                assert!(v.is_object(), "{role}");
            }
        }
    }

    #[test]
    fn designs_have_exactly_one_recommended() {
        for refined in [false, true] {
            let d = designs(refined);
            assert_eq!(d.len(), 3);
            let recommended = d.iter().filter(|x| x["recommended"] == true).count();
            assert_eq!(recommended, 1);
        }
    }

    #[test]
    fn long_documents_are_long_enough_to_stream_visibly() {
        assert!(PLAN.chars().count() > 800, "{}", PLAN.chars().count());
        assert!(WORK.chars().count() > 800, "{}", WORK.chars().count());
        assert!(PLAN.contains("계획"));
    }
}
