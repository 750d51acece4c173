//! Design proposals: the LLM prompt and its tolerant parser, the three fallback
//! templates scaled to the request (seed 000), and refinement from feedback.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::contract::Contract;
use super::grounding::Grounding;
use super::json::{bool_field, extract_json, str_field, str_list};
use super::lang::{normalize, with_instrumental, with_object, with_subject, with_topic, Lang};
use super::prompt::Prompt;
use super::prompt_text::{self, PromptText};
use super::words::mentions;
use crate::engine::words::WordList;

/// How much machinery a design (or a request) calls for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Complexity {
    Low,
    Medium,
    High,
}

impl Complexity {
    /// The word shown on cards.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Complexity::Low => lang.pick("낮음", "low"),
            Complexity::Medium => lang.pick("보통", "medium"),
            Complexity::High => lang.pick("높음", "high"),
        }
    }

    fn parse(text: &str) -> Option<Complexity> {
        match text.trim().to_ascii_lowercase().as_str() {
            "low" | "simple" | "낮음" | "low complexity" => Some(Complexity::Low),
            "medium" | "moderate" | "mid" | "보통" | "중간" => Some(Complexity::Medium),
            "high" | "complex" | "높음" => Some(Complexity::High),
            _ => None,
        }
    }
}

/// One agent (pipeline step) of a design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSpec {
    /// Display name, in the discussion's language.
    pub name: String,
    /// Standard role: collector, validator, processor, analyzer, cross_checker,
    /// synthesizer, formatter, reporter, or another word.
    pub role: String,
    /// Model or model tier the agent runs on ("small", "large", or a model name).
    pub model: String,
    /// What the agent does.
    pub description: String,
}

/// A design proposal (seed 000 `DesignProposal`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesignProposal {
    pub name: String,
    pub description: String,
    pub agents: Vec<AgentSpec>,
    pub pros: Vec<String>,
    pub cons: Vec<String>,
    pub estimated_cost: String,
    pub complexity: Complexity,
    pub recommended: bool,
}

impl DesignProposal {
    /// True when some agent has this standard role (or names it).
    pub fn has_role(&self, role: &str) -> bool {
        self.agents.iter().any(|a| a.role.eq_ignore_ascii_case(role) || a.name.to_ascii_lowercase().contains(role))
    }

    /// The agents' names joined with arrows: "collector → processor → formatter".
    pub fn flow(&self) -> String {
        self.agents.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(" → ")
    }
}

/// Most designs kept from one answer.
pub const MAX_DESIGNS: usize = 3;

/// Words that make a request call for more or less machinery. Korean entries glossed.
// 대규모: large-scale; 엔터프라이즈: enterprise; 교차 검증: cross-validation; 교차검증: cross-validation;
// 멀티 에이전트: multi-agent; 멀티에이전트: multi-agent; 실시간: real-time; 수백만: millions
const HIGH_MARKERS: WordList = WordList(
    "대규모|엔터프라이즈|교차 검증|교차검증|멀티 에이전트|멀티에이전트|실시간|수백만|enterprise|large-scale|\
    large scale|multi-agent|real-time|realtime|millions|mission-critical|cross-check",
);
// 정확: accurate; 검증: verify; 신뢰: reliable; 운영: production; 품질: quality
const MEDIUM_MARKERS: WordList =
    WordList("정확|검증|신뢰|운영|품질|accurate|accuracy|reliable|validate|validation|verify|production|quality");
// 간단: simple; 빠르게: quickly; 간단히: simply; 프로토타입: prototype; 개인용: for personal use
const LOW_MARKERS: WordList =
    WordList("간단|빠르게|간단히|프로토타입|개인용|simple|quick|prototype|personal|minimal|small");

/// How much machinery the request asks for, from its words; medium when it says nothing.
pub fn estimate_complexity(text: &str) -> Complexity {
    let has = |list: WordList| list.any(|w| mentions(text, w));
    if has(HIGH_MARKERS) {
        Complexity::High
    } else if has(LOW_MARKERS) && !has(MEDIUM_MARKERS) {
        Complexity::Low
    } else {
        Complexity::Medium
    }
}

/// The request's words behind `estimate_complexity`: the marker that decided it, if any.
pub fn complexity_cue(text: &str) -> Option<String> {
    let first = |list: WordList| list.iter().find(|m| mentions(text, m)).map(|m| m.trim_end_matches('*').to_string());
    match estimate_complexity(text) {
        Complexity::High => first(HIGH_MARKERS),
        Complexity::Low => first(LOW_MARKERS),
        Complexity::Medium => first(MEDIUM_MARKERS),
    }
}

/// What the request works on and what it does with it, in both languages.
struct Domain {
    source: (&'static str, &'static str),
    work: Work,
}

/// What a pipeline's core step does: (Korean noun, English verb), and the English name of the
/// step that does it.
type Work = ((&'static str, &'static str), &'static str);

/// Keyword → what the pipeline reads (Korean, English labels). First match wins.
/// Words of recordings: 녹음: recording; 음성 파일: audio file; 음성 메모: voice memo; 팟캐스트: podcast.
const RECORDINGS: WordList =
    WordList("녹음|음성 파일|음성파일|음성 메모|팟캐스트|recording*|audio|podcast*|voice memo*|voice note*");
/// What recordings are called in the steps.
const RECORDED: (&str, &str) = ("녹음 파일", "recordings");

const SOURCES: &[(WordList, (&str, &str))] = &[
    (WordList("뉴스|기사|news|article|rss"), ("뉴스 기사", "news articles")),
    // "review the pull requests" reviews code: the verb names no reviews to read.
    (WordList("리뷰|후기|reviews|customer review|product review|app review"), ("고객 리뷰", "customer reviews")),
    (WordList("로그|log|logging"), ("로그", "logs")),
    (WordList("이메일|메일|email|e-mail|inbox|mail"), ("이메일", "emails")),
    // Before the meetings: a meeting room is booked, not summed up (회의실: meeting room; 예약:
    // booking; 일정/캘린더: schedule, calendar).
    (WordList("회의실|예약|캘린더|meeting room|booking*|reservation|calendar"), ("예약", "bookings")),
    // 회고: retrospective.
    (WordList("회의|미팅|회고|meeting|transcript|retro|retros|retrospective*"), ("회의록", "meeting notes")),
    (WordList("논문|paper|arxiv"), ("논문", "papers")),
    // 날씨/기상/일기 예보: weather, forecast.
    (WordList("날씨|기상|일기 예보|일기예보|weather|forecast*"), ("날씨 정보", "weather data")),
    // 가격/시세: prices.
    (WordList("가격|시세|price|prices|pricing"), ("가격 정보", "prices")),
    // 위키: wiki.
    (WordList("pdf|문서|계약서|위키|document|contract|docs|documentation|wiki|knowledge base"), ("문서", "documents")),
    // An app's texts to translate (문자열: strings).
    (WordList("문자열|strings|locali*|i18n|l10n"), ("문자열", "strings")),
    // 스프레드시트/엑셀/시트: spreadsheets.
    (WordList("스프레드시트|엑셀|시트|spreadsheet*|excel|sheets"), ("스프레드시트", "spreadsheets")),
    (WordList("크롤|웹|사이트|web|website|crawl*|site"), ("웹 페이지", "web pages")),
    (WordList("데이터베이스|db|sql|database|postgres*|mysql"), ("데이터베이스 레코드", "database records")),
    (WordList("코드|저장소|code|codebase|repo|repository|pull request|commit"), ("코드 변경", "code changes")),
    (WordList("주식|시장|stock|market"), ("시장 데이터", "market data")),
    (WordList("설문|survey"), ("설문 응답", "survey answers")),
    // 매출: revenue; 판매: sales; 주문: orders
    (WordList("매출|판매|주문|sales|revenue|orders"), ("매출 데이터", "sales data")),
    (WordList("티켓|문의|ticket|support"), ("고객 문의", "support tickets")),
    // 이슈: issue; 버그: bug
    // A Jira ticket is an issue, not a support request (지라: Jira).
    (WordList("이슈|버그|지라|issue|issues|bug|bugs|jira"), ("이슈", "issues")),
    // 댓글/리플: comments (on videos, posts).
    (WordList("댓글|리플|comments|comment section"), ("댓글", "comments")),
    // The team's own updates a team report is made of (업무 보고/팀 보고: work or team report; 진행 상황/
    // 업무 현황: progress, status; 스탠드업: stand-up).
    (
        WordList("업무 보고|팀 보고|진행 상황|업무 현황|스탠드업|team report*|status update*|team update*|progress update*|standup*|stand-up*"),
        ("업무 현황", "status updates"),
    ),
    // 블로그: blog; 포스트: post
    (WordList("블로그|포스트|blog|blog post*"), ("블로그 글", "blog posts")),
];

/// Keyword → what the pipeline does (Korean noun, English verb) and the English name of its
/// step. First match wins. A trailing `*` marks a stem ("summar*": summary, summarize).
// 요약: summary; 번역: translation; 분류: classification; 답장/회신: reply; 초안: draft; 배정/할당: assignment;
// 추천: recommendation; 검색: search; 감지/탐지: detection; 모니터: monitor; 알림: notification; 뉴스레터: newsletter;
// 추출: extraction; 변환: conversion;
// 채점/평가: grading, evaluation; 검토: review; 분석: analysis; 보고/리포트: report
const WORKS: &[(WordList, Work)] = &[
    // A changelog sums up what changed (릴리스 노트: release notes; 변경 이력: changelog).
    (
        WordList("요약|summar*|digest|changelog*|release note*|릴리스 노트|릴리즈 노트|변경 이력"),
        (("요약", "summarize"), "summarizer"),
    ),
    // 정리: putting in order (매출 데이터를 정리해서: sorting out the sales data).
    (WordList("정리|organize|organise|organizing|organising|tidy"), (("정리", "organize"), "organizer")),
    (WordList("번역|translat*"), (("번역", "translate"), "translator")),
    (WordList("분류|classif*|categor*|tagging"), (("분류", "classify"), "classifier")),
    (WordList("답장|회신|초안|draft*|replies|reply to|respond to"), (("회신", "draft replies to"), "reply drafter")),
    // 답변/답해: answer; 챗봇: chatbot.
    (
        WordList(
            "답변|답해|질문에 답|챗봇|answers questions|answer questions|answering questions|chatbot|q&a|faq|\
             hr questions|employee questions|customer questions|staff questions|user questions|questions about|questions from",
        ),
        (("답변", "answer questions about"), "answerer"),
    ),
    (WordList("추천|recommend*"), (("추천", "recommend"), "recommender")),
    (WordList("검색|search*|retriev*"), (("검색", "search"), "searcher")),
    (WordList("감지|탐지|모니터|알림|detect*|monitor*|alert|watch*|notif*|ping*"), (("감지", "monitor"), "monitor")),
    (WordList("뉴스레터|newsletter*|curat*"), (("편집", "compile"), "editor")),
    (WordList("추출|extract*"), (("추출", "extract"), "extractor")),
    (WordList("변환|convert*|transform*"), (("변환", "convert"), "converter")),
    (WordList("분석|analy*|insight"), (("분석", "analyze"), "analyst")),
    (WordList("채점|평가|grade|grading|evaluat*"), (("평가", "evaluate"), "evaluator")),
    (WordList("배정|할당|assign*|triage|routing"), (("배정", "route"), "router")),
    (WordList("검토|proofread*|audit*"), (("검토", "review"), "reviewer")),
    // 취합/합치/합쳐: putting together (numbers from several sheets into one).
    (
        WordList("취합|합치|합쳐|combin*|consolidat*|aggregat*|copy numbers|copy data|copy the numbers"),
        (("취합", "combine"), "combiner"),
    ),
    (WordList("보고|리포트|report*"), (("보고", "report on"), "report writer")),
];

/// True when the request reviews code: "reviews pull requests", "review the code", "코드 리뷰",
/// "PR 리뷰" (리뷰: review; 풀 리퀘스트: pull request). Then "review" is the work, not the
/// customer reviews it would read otherwise.
fn reviews_code(text: &str) -> bool {
    const KO: WordList =
        WordList("코드 리뷰|코드리뷰|pr 리뷰|pr리뷰|풀 리퀘스트 리뷰|풀리퀘스트 리뷰|머지 리퀘스트 리뷰");
    let lower = text.to_ascii_lowercase();
    if KO.any(|k| lower.contains(k)) {
        return true;
    }
    let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(*w, "review" | "reviews" | "reviewing")
            && words[i + 1..]
                .iter()
                .find(|next| {
                    !matches!(**next, "the" | "my" | "our" | "new" | "open" | "incoming" | "all" | "each" | "every")
                })
                .is_some_and(|next| {
                    ["pull", "pr", "prs", "code", "commit", "diff", "merge", "patch", "change"]
                        .iter()
                        .any(|k| next.starts_with(k))
                })
    })
}

fn detect_domain(text: &str) -> Domain {
    let review = (("검토", "review"), "reviewer");
    let work = if reviews_code(text) {
        Some(review)
    } else {
        WORKS.iter().find(|(keys, _)| keys.any(|k| mentions(text, k))).map(|(_, work)| *work)
    };
    Domain {
        source: subject_of(text).unwrap_or(("입력 자료", "input data")),
        work: work.unwrap_or((("처리", "process"), "processor")),
    }
}

/// What the request reads: of the sources it mentions, the one it mentions first ("pull
/// last week's sales from Postgres and email a summary" reads sales, not emails;
/// "회의록을 요약해서 이메일로 보내줘" reads meeting notes).
fn subject_of(text: &str) -> Option<(&'static str, &'static str)> {
    let lower = text.to_ascii_lowercase();
    // Recordings are read as sound, whatever they are of ("회의 녹음 파일": a meeting's recordings).
    if RECORDINGS.iter().any(|k| mentions(text, k)) {
        return Some(RECORDED);
    }
    let at = |key: &str| {
        let stem = key.trim_end_matches('*');
        mentions(text, key).then(|| lower.find(stem)).flatten()
    };
    let mut best: Option<(usize, (&'static str, &'static str))> = None;
    let code_review = reviews_code(text);
    for (keys, labels) in SOURCES {
        if code_review && labels.1 == "customer reviews" {
            continue;
        }
        // "엑셀로 보고서 만들어줘": Excel as the result's form, not what is read.
        if labels.1 == "spreadsheets" && named_as_format(text, *keys) {
            continue;
        }
        if let Some(pos) = keys.iter().filter_map(at).min() {
            if best.is_none_or(|(b, _)| pos < b) {
                best = Some((pos, *labels));
            }
        }
    }
    best.map(|(_, labels)| labels)
}

/// The three fallback designs of seed 000 (simple, standard with validation, advanced
/// multi-agent), worded for this request's subject and output format. The one matching
/// the request's expected complexity is recommended.
pub fn fallback_designs(request: &str, format_label: &str, lang: Lang) -> Vec<DesignProposal> {
    let domain = detect_domain(request);
    let expected = estimate_complexity(request);
    let src = lang.pick(domain.source.0, domain.source.1);
    let ((work_ko, work_en), step_en) = domain.work;
    let work = lang.pick(work_ko, work_en);
    let format =
        if format_label.trim().is_empty() { lang.pick("결과 문서", "the requested output") } else { format_label };
    // Inside an English sentence: "report as an email", not "report as Email".
    let said = super::slots::Format::in_sentence(format);
    let ko = lang == Lang::Ko;

    let agent = |name: String, role: &str, model: &str, description: String| AgentSpec {
        name,
        role: role.to_string(),
        model: model.to_string(),
        description,
    };
    let collector = || {
        agent(
            if ko { format!("{src} 수집기") } else { format!("{src} collector") },
            "collector",
            "small",
            if ko {
                format!("요청에 맞는 {} 모읍니다.", with_object(src))
            } else {
                format!("Gathers the {src} the request is about.")
            },
        )
    };
    let worker = |role: &str, model: &str| {
        agent(
            if ko { format!("{work} 담당") } else { step_en.to_string() },
            role,
            model,
            // 답변: answering questions, which a Korean sentence says from the documents (바탕으로: based on).
            if ko && work == "답변" {
                format!("모은 {} 바탕으로 질문에 답합니다.", with_object(src))
            } else if ko {
                format!("모은 {} {work}합니다.", with_object(src))
            } else {
                format!("Does the core work: {work} the collected {src}.")
            },
        )
    };
    let validator = || {
        agent(
            lang.pick("검증기", "validator").to_string(),
            "validator",
            "small",
            if ko {
                format!("빠지거나 중복되거나 형식이 틀린 {} 걸러냅니다.", with_object(src))
            } else {
                format!("Filters out missing, duplicate or malformed {src}.")
            },
        )
    };
    let output = |role: &str| {
        agent(
            if ko { format!("{format} 작성기") } else { format!("{format} writer") },
            role,
            "small",
            if ko {
                format!("결과를 {} 정리합니다.", with_instrumental(format))
            } else {
                format!("Writes the result as {said}.")
            },
        )
    };

    // Recordings are turned into text before anything else is done with them.
    let transcriber = || {
        (domain.source == RECORDED).then(|| {
            agent(
                lang.pick("음성 인식기", "transcriber").to_string(),
                "transcriber",
                "small",
                lang.pick(
                    "녹음을 음성 인식 모델(예: Whisper)로 텍스트로 옮깁니다.",
                    "Turns the recordings into text with a speech-to-text model (e.g. Whisper).",
                )
                .to_string(),
            )
        })
    };
    let simple = DesignProposal {
        name: lang.pick("단순 순차 파이프라인", "Simple Sequential Pipeline").to_string(),
        description: if ko {
            format!("{} 모아 {work}하고 {} 내는 가장 짧은 경로입니다.", with_object(src), with_instrumental(format))
        } else {
            format!("The shortest path: collect {src}, {work} them, write {said}.")
        },
        agents: vec![collector(), worker("processor", "small"), output("formatter")],
        pros: if ko {
            vec![
                "가장 빨리 만들 수 있음 (하루 안에 첫 결과)".into(),
                "실행당 비용이 가장 낮음".into(),
                "구조가 단순해 고치기 쉬움".into(),
            ]
        } else {
            vec![
                "Fastest to build (first result within a day)".into(),
                "Lowest cost per run".into(),
                "Few moving parts, easy to change".into(),
            ]
        },
        cons: if ko {
            vec![
                format!("검증 단계가 없어 잘못된 {} 그대로 결과에 들어감", with_subject(src)),
                "한 단계가 실패하면 전체 실행이 멈춤".into(),
            ]
        } else {
            vec![
                format!("No validation: bad {src} flow straight into the output"),
                "One failing step stops the whole run".into(),
            ]
        },
        estimated_cost: "~$0.01-0.03".into(),
        complexity: Complexity::Low,
        recommended: expected == Complexity::Low,
    };

    let standard = DesignProposal {
        name: lang.pick("검증 포함 표준 파이프라인", "Standard Pipeline with Validation").to_string(),
        description: if ko {
            // When the work is the report itself, it is said once.
            if work == "보고" {
                format!("{} 모은 뒤 검증을 거쳐 {} 정리합니다.", with_object(src), with_instrumental(format))
            } else {
                format!(
                    "{} 모은 뒤 검증을 거쳐 {work}하고, {} 보고합니다.",
                    with_object(src),
                    with_instrumental(format)
                )
            }
        } else if work == "report on" {
            format!("Collect {src}, validate them, and write them up as {said}.")
        } else {
            format!("Collect {src}, validate them, {work} them, and report as {said}.")
        },
        agents: vec![collector(), validator(), worker("analyzer", "large"), output("reporter")],
        pros: if ko {
            vec![
                "입력 검증으로 잘못된 데이터가 결과에 섞이지 않음".into(),
                "비용과 품질의 균형이 좋음".into(),
                "단계별로 실패 지점을 찾기 쉬움".into(),
            ]
        } else {
            vec![
                "Validation keeps bad data out of the result".into(),
                "Good balance of cost and quality".into(),
                "Failures are easy to locate step by step".into(),
            ]
        },
        cons: if ko {
            vec!["단순안보다 구축 시간과 비용이 더 듦".into(), "결과 자체의 사실 여부는 교차 확인하지 않음".into()]
        } else {
            vec![
                "More time and cost to build than the simple design".into(),
                "Does not cross-check the output's claims".into(),
            ]
        },
        estimated_cost: "~$0.05-0.10".into(),
        complexity: Complexity::Medium,
        recommended: expected == Complexity::Medium,
    };

    let advanced = DesignProposal {
        name: lang.pick("고급 멀티 에이전트 파이프라인", "Advanced Multi-Agent Pipeline").to_string(),
        description: if ko {
            format!(
                "{} 검증·{work}한 뒤 교차 확인과 종합을 거쳐 {} 만듭니다.",
                with_object(src),
                with_instrumental(format)
            )
        } else {
            if work == "report on" {
                format!("Validate the {src}, cross-check the findings, synthesize them, and write them up as {said}.")
            } else {
                format!(
                    "Validate and {work} the {src}, cross-check the findings, synthesize them, and report as {said}."
                )
            }
        },
        agents: vec![
            collector(),
            validator(),
            worker("analyzer", "large"),
            agent(
                lang.pick("교차 검증기", "cross-checker").to_string(),
                "cross_checker",
                "large",
                lang.pick(
                    "분석 결과를 원자료와 대조해 근거 없는 주장을 표시합니다.",
                    "Checks findings against the sources and flags unsupported claims.",
                )
                .to_string(),
            ),
            agent(
                lang.pick("종합기", "synthesizer").to_string(),
                "synthesizer",
                "large",
                lang.pick("검증된 결과를 하나의 결론으로 묶습니다.", "Merges the checked findings into one account.")
                    .to_string(),
            ),
            output("reporter"),
        ],
        pros: if ko {
            vec![
                "교차 검증으로 환각과 오류를 가장 잘 잡음".into(),
                "단계가 나뉘어 있어 규모가 커져도 역할별로 확장 가능".into(),
            ]
        } else {
            vec![
                "Cross-checking catches hallucinations and errors best".into(),
                "Separate roles scale independently as volume grows".into(),
            ]
        },
        cons: if ko {
            vec!["실행당 비용과 지연 시간이 가장 큼".into(), "에이전트 간 조정과 운영 부담이 큼".into()]
        } else {
            vec!["Highest cost and latency per run".into(), "Most coordination and operating overhead".into()]
        },
        estimated_cost: "~$0.15-0.30".into(),
        complexity: Complexity::High,
        recommended: expected == Complexity::High,
    };

    let mut designs = vec![simple, standard, advanced];
    for d in designs.iter_mut() {
        if let Some(step) = transcriber() {
            d.agents.insert(1, step);
        }
    }
    designs
}

/// What the user stated that should shape the designs: each field holds the user's own
/// words that stated it, so notes can quote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Needs {
    /// A budget or cost limit ("$50 a month", "예산", "cheap").
    pub budget: Option<String>,
    /// Personal or sensitive data ("개인정보", "customer PII").
    pub privacy: Option<String>,
    /// Speed or latency ("실시간", "fast").
    pub speed: Option<String>,
    /// Accuracy or verification ("정확", "accurate").
    pub accuracy: Option<String>,
    /// A small team or a single operator ("혼자", "a team of 3").
    pub team: Option<String>,
    /// Tools the result must go to or come from ("Slack", "노션").
    pub tools: Vec<String>,
    /// Of `tools`, those the request reads from ("from our Postgres database", "노션에 있는").
    pub sources: Vec<String>,
    /// What the request works on, (Korean, English): ("뉴스 기사", "news articles").
    pub subject: Option<(&'static str, &'static str)>,
    /// The request's words that set how much machinery it calls for ("간단한", "real-time").
    pub complexity_cue: Option<String>,
    /// The user asked the validation to go ("검증은 빼 주세요"): its absence is their choice, not a
    /// weakness to count against a design.
    pub without_validation: bool,
    /// The result goes out by email ("emailed to me every morning", "팀장님께 메일로 보내"): the
    /// designs end in a step that sends it.
    pub emailed: bool,
}

/// Words that state each need. Korean entries glossed; `*` marks an English stem.
// 예산: budget; 저렴: cheap; 싸게: cheaply; 비용: cost; 무료: free
const BUDGET_WORDS: WordList = WordList("예산|저렴|싸게|비용|무료|budget|cheap|cost|inexpensive|free|low-cost|afford*");
// 개인정보: personal data; 민감: sensitive; 보안: security; 기밀: confidential; 고객 정보: customer data
// 유출: leak; 노출: exposure.
const PRIVACY_WORDS: WordList = WordList(
    "개인정보|민감|보안|기밀|고객 정보|유출|노출|privacy|private|pii|gdpr|hipaa|personal data|sensitive|confidential|secure|\
    security|must not leak|mustn't leak|should not leak|shouldn't leak|do not leak|don't leak|never leak|without leaking|\
    data leak",
);
// 빠르게: quickly; 빠른: fast; 빨리: quickly; 실시간: real-time; 즉시: immediately; 지연: latency
const SPEED_WORDS: WordList =
    WordList("빠르게|빠른|빨리|실시간|즉시|지연|fast|real-time|realtime|latency|instant*|quickly|low-latency");
// 정확: accurate; 검증: verify; 틀리면: if it is wrong; 오류 없: without errors
const ACCURACY_WORDS: WordList =
    WordList("정확|검증|틀리면|오류 없|accura*|verif*|fact-check*|correct|precise|no mistakes|hallucinat*");
// 혼자: alone; 1인: one-person; 소규모 팀: small team; 작은 팀: small team; 개인 프로젝트: personal project
const TEAM_WORDS: WordList = WordList(
    "혼자|1인|소규모 팀|작은 팀|개인 프로젝트|solo|just me|by myself|small team|one person|side project|team of",
);
/// Tools named in requests, as the user would write them; the label shown is the first; and
/// whether a request that says nothing of the direction reads from it (a repository, a tracker,
/// a mailbox, a database) rather than delivers to it (a chat, a document).
const TOOLS: &[(WordList, &str, bool)] = &[
    (WordList("slack|슬랙"), "Slack", false),
    (WordList("notion|노션"), "Notion", false),
    (WordList("google sheets|google sheet|구글 시트|구글시트|스프레드시트"), "Google Sheets", false),
    (WordList("gmail|지메일"), "Gmail", true),
    (WordList("jira|지라"), "Jira", true),
    (WordList("github|깃허브"), "GitHub", true),
    (WordList("discord|디스코드"), "Discord", false),
    (WordList("teams|팀즈"), "Teams", false),
    (WordList("airtable|에어테이블"), "Airtable", false),
    (WordList("excel|엑셀"), "Excel", false),
    (WordList("telegram|텔레그램"), "Telegram", false),
    (WordList("kakaotalk|카카오톡|카톡"), "KakaoTalk", false),
    (WordList("confluence|컨플루언스"), "Confluence", false),
    (WordList("postgres*"), "PostgreSQL", true),
    (WordList("mysql"), "MySQL", true),
    (WordList("bigquery"), "BigQuery", true),
    (WordList("s3"), "S3", true),
];

impl Needs {
    /// The needs a text states.
    pub fn read(text: &str) -> Needs {
        let found = |words: WordList| words.iter().find(|w| mentions(text, w)).map(|w| stated_word(text, w));
        let money = money_phrase(text);
        Needs {
            budget: money.or_else(|| found(BUDGET_WORDS)),
            privacy: found(PRIVACY_WORDS),
            speed: found(SPEED_WORDS),
            accuracy: found(ACCURACY_WORDS),
            team: team_phrase(text).or_else(|| found(TEAM_WORDS)),
            tools: TOOLS
                .iter()
                .filter(|(words, label, _)| {
                    words.iter().any(|w| mentions(text, w)) && !only_a_file_format(text, label, *words)
                })
                .map(|(_, label, _)| label.to_string())
                .collect(),
            // Read from when the request says so, or says nothing and the tool is read by habit
            // ("a GitHub and Slack bot" reads GitHub and posts to Slack).
            sources: TOOLS
                .iter()
                .filter(|(words, _, read)| {
                    words.iter().any(|w| mentions(text, w))
                        && (read_from(text, *words) || (*read && !sent_to(text, *words)))
                })
                .map(|(_, label, _)| label.to_string())
                .collect(),
            subject: subject_of(text),
            complexity_cue: complexity_cue(text),
            without_validation: false,
            emailed: sends_by_email(text),
        }
    }

    /// The needs of a contract: its request, context, criteria and answers together.
    pub fn from_contract(contract: &Contract) -> Needs {
        let mut text = contract.original_request.clone();
        for part in [&contract.context, &contract.goal] {
            text.push('\n');
            text.push_str(part);
        }
        for c in &contract.criteria {
            text.push('\n');
            text.push_str(c);
        }
        for qa in &contract.answered {
            text.push('\n');
            text.push_str(&qa.a);
        }
        Needs::read(&text)
    }

    /// True when no need was stated (the subject and complexity cue aside).
    pub fn is_empty(&self) -> bool {
        Needs { subject: None, complexity_cue: None, ..self.clone() } == Needs::default()
    }
}

/// True when a spreadsheet tool is named only as the form of a file: "엑셀로 팀장님께 메일 보내기"
/// (as Excel; 로/으로: as, 파일: file, 형식: format), "as an Excel file", "in Excel format" — the
/// output's format, which the writing step makes, not a place a delivery step sends to
/// ("엑셀에 기록해", "add a row to our Google Sheet" are). "in Excel format" is one too.
fn only_a_file_format(text: &str, label: &str, words: WordList) -> bool {
    matches!(label, "Excel" | "Google Sheets") && named_as_format(text, words)
}

/// True when every mention of `words` names the form of a file: followed by 로/으로 (as), 파일
/// (file), 형식 (format), "file", "format", or after "as a" ("numbers in our Excel sheets" are read).
fn named_as_format(text: &str, words: WordList) -> bool {
    let lower = text.to_lowercase();
    let mut mentions = words
        .iter()
        .map(|w| w.trim_end_matches('*'))
        .flat_map(|w| lower.match_indices(w).map(move |(at, _)| (at, at + w.len())))
        .peekable();
    // The format reader's own test of a form stated as the output ("as …", "…로", "… 형식"), and a
    // spreadsheet's file ("an Excel file", "엑셀 파일").
    mentions.peek().is_some()
        && mentions.all(|(at, end)| {
            super::slots::is_stated_output(&lower, at, end)
                || WordList("file|workbook").any(|w| lower[end..].trim_start().starts_with(w))
        })
}

/// True when the request reads from a tool it names: "from our Postgres database", "watches
/// our GitHub issues", "노션에서" (from Notion), "노션에 있는" (that is in Notion).
fn read_from(text: &str, words: WordList) -> bool {
    let lower = text.to_ascii_lowercase();
    let reading = WordList(
        "from|watch|watches|watching|read|reads|pull|pulls|fetch|fetches|monitor|monitors|query|queries|export|exports",
    );
    words.iter().filter_map(|w| lower.find(w.trim_end_matches('*'))).any(|at| {
        // "from MySQL to Postgres" reads MySQL: a "to" nearer the tool sends to it.
        let before: Vec<&str> = lower[..at]
            .split_whitespace()
            .rev()
            .take(3)
            .take_while(|w| !WordList("to|into|onto").contains(*w))
            .collect();
        let rest = &lower[at..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, next) = (&rest[..end], rest[end..].trim_start());
        before.iter().any(|w| reading.contains(*w))
            || word.ends_with("에서")
            || next.starts_with("에서")
            || (word.ends_with('에') && next.starts_with("있"))
    })
}

/// True when the request sends something to a tool it names: "save the report to S3",
/// "store them into MySQL", "깃허브에 올려" (put on GitHub), "지라로 보내" (send to Jira).
fn sent_to(text: &str, words: WordList) -> bool {
    let lower = text.to_ascii_lowercase();
    let sending = WordList(
        "post|posts|send|sends|share|shares|upload|uploads|save|saves|store|stores|write|writes|publish|publishes|\
        push|pushes|open|opens|create|creates",
    );
    words.iter().filter_map(|w| lower.find(w.trim_end_matches('*'))).any(|at| {
        let before: Vec<&str> = lower[..at].split_whitespace().rev().take(3).collect();
        // "to our Slack", "into the database": the word right before, past a determiner.
        let preposition = before
            .iter()
            .find(|w| !WordList("our|the|my|a|an|your|their|its").contains(**w))
            .is_some_and(|w| WordList("to|into|onto").contains(*w));
        let rest = &lower[at..];
        let word = &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())];
        // 에/에다/으로/로/에게: to, into (에서 and 에 있는 read from it).
        preposition
            || before.iter().any(|w| sending.contains(*w))
            || WordList("에|에다|으로|로|에게").any(|p| word.ends_with(p) && !word.ends_with("에서"))
    })
}

/// The user's word for a term: a stem ("accura*") grows to the word said ("accurate").
fn stated_word(text: &str, term: &str) -> String {
    let Some(stem) = term.strip_suffix('*') else {
        return term.to_string();
    };
    let lower = text.to_ascii_lowercase();
    lower
        .match_indices(stem)
        .find(|(at, _)| !lower[..*at].ends_with(|c: char| c.is_ascii_alphanumeric()))
        .map(|(at, _)| lower[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect())
        .unwrap_or_else(|| stem.to_string())
}

/// "$50 a month", "월 10만원", "under $5": a stated amount of money.
fn money_phrase(text: &str) -> Option<String> {
    let mut best: Option<String> = None;
    for (i, c) in text.char_indices() {
        let starts_dollar = c == '$' && text[i + 1..].starts_with(|d: char| d.is_ascii_digit());
        if !starts_dollar {
            continue;
        }
        let end = text[i + 1..]
            .find(|d: char| !(d.is_ascii_digit() || d == '.' || d == ','))
            .map_or(text.len(), |e| i + 1 + e);
        best = Some(text[i..end].trim_end_matches(['.', ',']).to_string());
        break;
    }
    if best.is_none() {
        // Korean amounts: digits then 원/만원/달러 (won, ten-thousand won, dollars).
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for (k, &(i, c)) in chars.iter().enumerate() {
            if !c.is_ascii_digit() || k > 0 && chars[k - 1].1.is_ascii_digit() {
                continue;
            }
            let rest = &text[i..];
            let digits = rest.find(|d: char| !(d.is_ascii_digit() || d == ',')).unwrap_or(rest.len());
            let unit = rest[digits..].trim_start();
            if let Some(u) = WordList("만원|원|달러|천원").iter().find(|u| unit.starts_with(u)) {
                best = Some(format!("{}{u}", &rest[..digits]));
                break;
            }
        }
    }
    best
}

/// "a team of 3", "3명 팀", "팀원 2명": a stated team size.
fn team_phrase(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if let Some(at) = lower.find("team of ") {
        let n: String = lower[at + 8..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if !n.is_empty() {
            return Some(format!("team of {n}"));
        }
    }
    for marker in WordList("명 팀|명짜리 팀|명이서") {
        if let Some(at) = text.find(marker) {
            let digits: String = text[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !digits.is_empty() {
                return Some(format!("{digits}{marker}"));
            }
        }
    }
    None
}

/// The fallback designs for a contract: the three templates worded for the request and
/// format, then shaped by what the user stated (see [`shape_for_needs`]).
pub fn fallback_designs_for_contract(contract: &Contract, lang: Lang) -> Vec<DesignProposal> {
    let mut text = contract.original_request.clone();
    text.push('\n');
    text.push_str(&contract.goal);
    let mut designs = fallback_designs(&text, &contract.format, lang);
    shape_for_needs(&mut designs, &Needs::from_contract(contract), lang);
    designs
}

/// Changes designs for stated needs: a budget keeps every agent on small models and
/// favours the simple design; privacy puts a privacy guard into the designs that can
/// carry it and says the simple one has none; speed and a small team count against long
/// chains; accuracy counts for cross-checking; named tools get a delivery step (or, when
/// the request reads from them, a source step first). Pros and
/// cons quote what the user said.
pub fn shape_for_needs(designs: &mut [DesignProposal], needs: &Needs, lang: Lang) {
    let ko = lang == Lang::Ko;
    let q = |s: &str| format!("'{s}'");
    if let Some(budget) = &needs.budget {
        for d in designs.iter_mut() {
            match d.complexity {
                Complexity::Low => d.pros.insert(
                    0,
                    if ko {
                        format!("{} 조건에 가장 잘 맞음: 작은 모델만 씀", q(budget))
                    } else {
                        format!("Fits your {} best: small models only", q(budget))
                    },
                ),
                Complexity::Medium => {
                    for a in d.agents.iter_mut().filter(|a| a.model == "large") {
                        a.model = "small".into();
                    }
                    d.pros.push(if ko {
                        format!("{} 조건에 맞춰 분석 단계도 작은 모델로 둠", q(budget))
                    } else {
                        format!("Analysis runs on a small model too, for your {}", q(budget))
                    });
                }
                Complexity::High => d.cons.insert(
                    0,
                    if ko {
                        format!("대형 모델 단계가 많아 {} 조건을 넘기 쉬움", q(budget))
                    } else {
                        format!("Several large-model steps can break your {}", q(budget))
                    },
                ),
            }
        }
    }
    if let Some(privacy) = &needs.privacy {
        for d in designs.iter_mut() {
            if d.complexity == Complexity::Low {
                d.cons.insert(
                    0,
                    if ko {
                        format!("{}: 개인정보를 가리는 단계가 없어 원문이 그대로 모델에 전달됨", q(privacy))
                    } else {
                        format!("{}: nothing masks personal data before the model sees it", q(privacy))
                    },
                );
            } else if !d.has_role("guard") {
                d.agents.insert(
                    1.min(d.agents.len()),
                    AgentSpec {
                        name: lang.pick("개인정보 보호 필터", "privacy guard").into(),
                        role: "guard".into(),
                        model: "small".into(),
                        description: lang
                            .pick(
                                "모델에 보내기 전에 개인정보와 민감 정보를 가립니다.",
                                "Masks personal and sensitive data before any model sees it.",
                            )
                            .into(),
                    },
                );
                d.pros.insert(
                    0,
                    if ko {
                        format!("{} 요구에 맞춰 개인정보 보호 필터를 둠", q(privacy))
                    } else {
                        format!("A privacy guard answers your {}", q(privacy))
                    },
                );
            }
        }
    }
    if let Some(speed) = &needs.speed {
        for d in designs.iter_mut() {
            let n = d.agents.len();
            if n <= 3 {
                d.pros.insert(
                    0,
                    if ko {
                        format!("단계가 {n}개뿐이라 {} 요구에 가장 빠름", q(speed))
                    } else {
                        format!("Only {n} steps: the quickest answer to your {}", q(speed))
                    },
                );
            } else if n >= 5 {
                d.cons.insert(
                    0,
                    if ko {
                        format!("{n}단계를 차례로 거쳐 {} 요구보다 느릴 수 있음", q(speed))
                    } else {
                        format!("{n} steps in a row may be too slow for your {}", q(speed))
                    },
                );
            }
        }
    }
    if let Some(accuracy) = &needs.accuracy {
        for d in designs.iter_mut() {
            if d.has_role("cross_checker") {
                d.pros.insert(
                    0,
                    if ko {
                        format!("교차 검증이 {} 요구를 가장 잘 지킴", q(accuracy))
                    } else {
                        format!("Cross-checking serves your {} best", q(accuracy))
                    },
                );
            } else if !d.has_role("validator") {
                d.cons.insert(
                    0,
                    if ko {
                        format!("{} 요구가 있는데 결과를 검증하는 단계가 없음", q(accuracy))
                    } else {
                        format!("You asked for {}, and nothing checks the result", q(accuracy))
                    },
                );
            }
        }
    }
    if let Some(team) = &needs.team {
        for d in designs.iter_mut() {
            let n = d.agents.len();
            if n <= 3 {
                d.pros.push(if ko {
                    format!("{} 규모로도 운영하기 쉬움", q(team))
                } else {
                    format!("Easy to run for {}", q(team))
                });
            } else if n >= 5 {
                d.cons.push(if ko {
                    format!("{} 규모가 에이전트 {n}개를 운영하기엔 부담", q(team))
                } else {
                    format!("{n} agents are a lot to operate for {}", q(team))
                });
            }
        }
    }
    for tool in &needs.tools {
        for d in designs.iter_mut() {
            if d.agents
                .iter()
                .any(|a| matches!(a.role.as_str(), "publisher" | "source") && a.name.contains(tool.as_str()))
            {
                continue;
            }
            let source = needs.sources.contains(tool);
            let step = tool_step(tool, source, lang);
            // What the request reads from comes first, where the pipeline starts.
            if source {
                d.agents.insert(0, step);
            } else {
                d.agents.push(step);
            }
        }
    }
    // Sent by email: a step that sends it, unless the designs send it to a mailbox already.
    if needs.emailed {
        for d in designs.iter_mut() {
            if !d
                .agents
                .iter()
                .any(|a| a.role == "publisher" && (a.name.contains("Gmail") || a.name == email_step(lang).name))
            {
                d.agents.push(email_step(lang));
            }
        }
    }
    // A budget with no call for accuracy points at the simple design.
    if needs.budget.is_some() && needs.accuracy.is_none() {
        if let Some(i) = designs.iter().position(|d| d.complexity == Complexity::Low) {
            mark_recommended(designs, i);
        }
    }
}

/// A model tier as shown on cards: "small" → "소형 모델" / "small model"; a model's own
/// name is shown as it is.
pub fn model_label(model: &str, lang: Lang) -> String {
    match model.trim().to_ascii_lowercase().as_str() {
        "small" => lang.pick("소형 모델", "small model").into(),
        "large" => lang.pick("대형 모델", "large model").into(),
        "medium" => lang.pick("중형 모델", "medium model").into(),
        "fast" => lang.pick("빠른 모델", "fast model").into(),
        _ => model.trim().to_string(),
    }
}

/// The prompt for 2–3 design proposals.
pub fn designs_prompt(grounding: &Grounding) -> Prompt {
    let system = grounding.system("designer", prompt_text::text(PromptText::DesignerInstructions));
    let schema = prompt_text::text(PromptText::DesignSchema);
    let task = format!("Propose the designs. Answer with one JSON object only, in this shape:\n{schema}");
    Prompt::single(system, grounding.user_message(&task)).expecting_json().with_max_tokens(3000)
}

/// The prompt for revised designs after the user's feedback.
pub fn refine_prompt(grounding: &Grounding, designs: &[DesignProposal]) -> Prompt {
    let system = grounding.system("refiner", prompt_text::text(PromptText::RefinerInstructions));
    let current = serde_json::to_string(&serde_json::json!({ "designs": designs })).unwrap_or_default();
    let task = format!(
        "Current designs:\n{current}\n\nRevise them according to the latest user message. \
         Answer with one JSON object only, in this shape:\n{schema}",
        schema = prompt_text::text(PromptText::DesignSchema)
    );
    Prompt::single(system, grounding.user_message(&task)).expecting_json().with_max_tokens(3000)
}

/// Puts the Korean particle that fits a word after it (`with_object`, …).
type Particle = fn(&str) -> String;

/// The one tool a message sends the result to ("노션 페이지로 바꿔 주세요", "send it to Teams
/// instead"), by its label; `None` when it names none, or more than one.
pub fn new_destination(text: &str) -> Option<String> {
    let needs = Needs::read(text);
    let mut sent_to = needs.tools.into_iter().filter(|t| !needs.sources.contains(t));
    let tool = sent_to.next()?;
    sent_to.next().is_none().then_some(tool)
}

/// `text` with the one tool it sends its result to renamed `to` (a tool's label), in the words the
/// text uses (노션 where it said 슬랙, Notion where it said Slack), with a Korean particle right
/// after the name fitted to the new one: "슬랙으로 보내 주는 봇" → "노션으로 보내 주는 봇",
/// "send it to Slack" → "send it to Notion". `None` when it sends to no tool, to `to` already, or
/// to more than one.
pub fn retarget(text: &str, to: &str) -> Option<String> {
    let needs = Needs::read(text);
    let words_of = |label: &str| TOOLS.iter().find(|(_, l, _)| *l == label).map(|(words, _, _)| *words);
    let korean_to = words_of(to).and_then(|w| w.iter().find(|w| !w.is_ascii())).unwrap_or(to);
    let sent_to: Vec<&String> = needs.tools.iter().filter(|t| !needs.sources.contains(t)).collect();
    // Which of two destinations the new one replaces is not said: the text stays.
    let [old] = sent_to[..] else { return None };
    if old == to {
        return None;
    }
    let particles: [(&str, Particle); 8] = [
        ("으로", with_instrumental),
        ("로", with_instrumental),
        ("을", with_object),
        ("를", with_object),
        ("이", with_subject),
        ("가", with_subject),
        ("은", with_topic),
        ("는", with_topic),
    ];
    let mut out = text.to_string();
    let mut changed = false;
    for word in words_of(old).into_iter().flat_map(|w| w.iter()) {
        let lower = out.to_ascii_lowercase();
        let found = lower.match_indices(word).map(|(at, _)| at).find(|&at| {
            !word.is_ascii() || !lower[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric())
        });
        let Some(at) = found else { continue };
        let new = if word.is_ascii() { to } else { korean_to };
        let rest = &out[at + word.len()..];
        let (named, rest) = match particles.iter().find(|(p, _)| rest.starts_with(p)) {
            Some((p, fit)) => (fit(new), &rest[p.len()..]),
            None => (new.to_string(), rest),
        };
        out = format!("{}{named}{rest}", &out[..at]);
        changed = true;
    }
    changed.then_some(out)
}

/// `text` with the output form it names (`from`, the contract's format) said as `to`:
/// "…마크다운으로 정리하기" → "…표로 정리하기", "a news digest as a Markdown document" → "a news
/// digest as a table". `None` when the text does not name the old form in a way it can be swapped.
pub fn reformat(text: &str, from: &str, to: super::slots::Format, lang: Lang) -> Option<String> {
    let new = to.label(lang);
    if from.trim().is_empty() || from == new {
        return None;
    }
    if lang == Lang::Ko {
        let old = with_instrumental(from);
        return text.contains(&old).then(|| text.replacen(&old, &with_instrumental(new), 1));
    }
    // "as a Markdown document" → "as a table".
    let lower = text.to_ascii_lowercase();
    let phrase = super::slots::Format::in_sentence(from).to_ascii_lowercase();
    if let Some(at) = lower.find(&phrase).filter(|_| phrase != from.to_ascii_lowercase()) {
        return Some(format!("{}{}{}", &text[..at], to.phrase_en(), &text[at + phrase.len()..]));
    }
    // Else the name alone, as the new one is said without its article ("in Markdown" → "in
    // JSON", "a weekly report" → "a weekly chat message"), with a capital at the start.
    let name = from.to_ascii_lowercase();
    let at = lower.match_indices(&name).map(|(at, _)| at).find(|&at| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric()) && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })?;
    let phrase = to.phrase_en();
    let bare = phrase.strip_prefix("a ").or_else(|| phrase.strip_prefix("an ")).unwrap_or(phrase);
    let mut with = bare.to_string();
    if at == 0 {
        if let Some(first) = with.get_mut(..1) {
            first.make_ascii_uppercase();
        }
    }
    Some(format!("{}{with}{}", &text[..at], &text[at + name.len()..]))
}

/// The step that reads a request's input from `tool` (`source`) or sends its result there.
fn tool_step(tool: &str, source: bool, lang: Lang) -> AgentSpec {
    let (name, role, description) = match (source, lang) {
        (true, Lang::Ko) => (format!("{tool} 입력"), "source", format!("{tool}에서 입력을 가져옵니다.")),
        (true, Lang::En) => (format!("{tool} source"), "source", format!("Reads the input from {tool}.")),
        (false, Lang::Ko) => (format!("{tool} 전달"), "publisher", format!("결과를 {tool}에 보냅니다.")),
        (false, Lang::En) => (format!("{tool} delivery"), "publisher", format!("Sends the result to {tool}.")),
    };
    AgentSpec { name, role: role.into(), model: String::new(), description }
}

/// The step that sends the result by email.
fn email_step(lang: Lang) -> AgentSpec {
    let name = lang.pick("메일 발송", "Email delivery");
    let description = lang.pick("결과를 메일로 보냅니다.", "Sends the result by email.");
    AgentSpec { name: name.into(), role: "publisher".into(), model: String::new(), description: description.into() }
}

/// True when a request sends its result by email ("emailed to me", "email it to the team",
/// "by email"; 메일로 보내/전송/발송/공유/알려: send, share or tell by mail; 메일(을) 보내: send a mail).
/// Reading emails ("summarize my emails") is not sending them.
fn sends_by_email(text: &str) -> bool {
    let lower = crate::engine::case::lower(text);
    WordList(
        "emailed|e-mailed|email it|email them|email this|email the|email me|email us|by email|via email|over email|\
         by e-mail|send me an email|send an email|send us an email|mail it to|메일로 보내|메일로 전송|메일로 받|메일 보내|\
         메일을 보내|메일 발송|메일로 발송|메일로 공유|메일로 알려",
    )
    .any(|w| lower.contains(w))
}

/// Reads designs from a model's answer: `{"designs": [...]}`, a bare array, or a single
/// design object, fenced or not. At most three are kept, and exactly one ends up
/// recommended. Fails with a reason when nothing usable is there.
pub fn parse_designs(raw: &str) -> Result<Vec<DesignProposal>, String> {
    let value = extract_json(raw).map_err(|p| p.reason().to_string())?;
    let items: Vec<Value> = match &value {
        Value::Array(items) => items.clone(),
        Value::Object(map) => {
            let list = WordList("designs|proposals|options").iter().find_map(|k| map.get(k)).and_then(Value::as_array);
            match list {
                Some(items) => items.clone(),
                None if map.contains_key("name") => vec![value.clone()],
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    let mut designs: Vec<DesignProposal> = items.iter().filter_map(design_from_value).take(MAX_DESIGNS).collect();
    if designs.is_empty() {
        return Err("no designs in the answer".into());
    }
    settle_recommendation(&mut designs);
    Ok(designs)
}

fn design_from_value(value: &Value) -> Option<DesignProposal> {
    let name = str_field(value, "name");
    if name.is_empty() {
        return None;
    }
    let agents = match value.get("agents") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(s) if !s.trim().is_empty() => Some(AgentSpec {
                    name: s.trim().to_string(),
                    role: s.trim().to_ascii_lowercase(),
                    model: String::new(),
                    description: String::new(),
                }),
                Value::Object(_) => {
                    let name = str_field(item, "name");
                    let role = str_field(item, "role");
                    if name.is_empty() && role.is_empty() {
                        return None;
                    }
                    Some(AgentSpec {
                        name: if name.is_empty() { role.clone() } else { name },
                        role: role.to_ascii_lowercase(),
                        model: str_field(item, "model"),
                        description: str_field(item, "description"),
                    })
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let complexity = Complexity::parse(&str_field(value, "complexity")).unwrap_or(match agents.len() {
        0..=3 => Complexity::Low,
        4..=5 => Complexity::Medium,
        _ => Complexity::High,
    });
    Some(DesignProposal {
        name,
        description: str_field(value, "description"),
        agents,
        pros: str_list(value, "pros", 6),
        cons: str_list(value, "cons", 6),
        estimated_cost: str_field(value, "estimated_cost"),
        complexity,
        recommended: bool_field(value, "recommended"),
    })
}

/// Designs from a model's answer after the sense check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedDesigns {
    /// The usable designs, topped up from the templates to at least two.
    pub designs: Vec<DesignProposal>,
    /// Positions in `designs` that came from the templates, not from the model.
    pub from_templates: Vec<usize>,
    /// Why each refused design was refused.
    pub refused: Vec<String>,
}

/// Reads designs from a model's answer and checks them for sense, not only shape: a
/// design needs a real name, at least two agents with real names and roles, and pros and
/// cons; names, agents and points that are prompt artifacts (tags, field names, the
/// request copied whole, "무시"/"ignore") are refused. Fewer than two usable designs are
/// topped up from the contract's templates (marked in their description and in
/// `from_templates`); none usable is an error with the reasons.
pub fn parse_designs_checked(raw: &str, contract: &Contract, lang: Lang) -> Result<CheckedDesigns, String> {
    let parsed = parse_designs(raw)?;
    let request = contract.original_request.as_str();
    let mut refused = Vec::new();
    let mut designs: Vec<DesignProposal> = Vec::new();
    for mut d in parsed {
        match sense_problem(&mut d, request) {
            None => designs.push(d),
            Some(reason) => refused.push(format!("{}: {reason}", super::lang::clip(d.name.trim(), 40))),
        }
    }
    if designs.is_empty() {
        return Err(format!("no usable design in the answer ({})", refused.join("; ")));
    }
    let mut from_templates = Vec::new();
    if designs.len() < 2 {
        let note = lang.pick(
            "(템플릿으로 보충: 모델의 답에 쓸 만한 설계안이 부족했습니다.) ",
            "(Added from the templates: the model's answer had too few usable designs.) ",
        );
        for mut t in fallback_designs_for_contract(contract, lang) {
            if designs.len() >= MAX_DESIGNS {
                break;
            }
            if designs.iter().any(|d| d.complexity == t.complexity || normalize(&d.name) == normalize(&t.name)) {
                continue;
            }
            t.description = format!("{note}{}", t.description);
            t.recommended = false;
            from_templates.push(designs.len());
            designs.push(t);
        }
    }
    settle_recommendation(&mut designs);
    Ok(CheckedDesigns { designs, from_templates, refused })
}

/// What makes a parsed design unusable, if anything; drops artifact agents and points.
fn sense_problem(d: &mut DesignProposal, request: &str) -> Option<&'static str> {
    use super::security::is_prompt_artifact;
    if is_prompt_artifact(&d.name, request) || d.name.chars().count() > 80 {
        return Some("the name is a prompt artifact");
    }
    d.agents.retain(|a| {
        !is_prompt_artifact(&a.name, request) && !a.role.trim().is_empty() && !is_prompt_artifact(&a.role, request)
    });
    if d.agents.len() < 2 {
        return Some("fewer than two agents with a name and a role");
    }
    d.pros.retain(|p| !is_prompt_artifact(p, request));
    d.cons.retain(|c| !is_prompt_artifact(c, request));
    if d.pros.is_empty() || d.cons.is_empty() {
        return Some("no pros or no cons");
    }
    if is_prompt_artifact(&d.description, request) {
        d.description.clear();
    }
    None
}

/// Exactly one design recommended: the first marked one, else the medium one, else the first.
pub fn settle_recommendation(designs: &mut [DesignProposal]) {
    let chosen = designs
        .iter()
        .position(|d| d.recommended)
        .or_else(|| designs.iter().position(|d| d.complexity == Complexity::Medium))
        .unwrap_or(0);
    for (i, d) in designs.iter_mut().enumerate() {
        d.recommended = i == chosen;
    }
}

/// Revised designs and what changed, for the user to see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refinement {
    pub designs: Vec<DesignProposal>,
    pub changes: Vec<String>,
}

/// Feedback themes the heuristic refiner understands. Korean entries glossed.
const CHEAPER: WordList = WordList("저렴|싸게|싼|비싸|비용|예산|cheap|cost|budget|expensive|pric*");
// 로컬/내 컴퓨터/노트북/사내 서버/자체 서버/클라우드 없이/오프라인/온프레미스: local, my computer, laptop, the
// company's own server, self-hosted, without the cloud, offline, on-premises; 외부 API는 못/외부 API 없이/외부
// API를 쓸 수 없/외부 API 금지/외부로 나가면 안: no external API, nothing may leave
const LOCAL: WordList = WordList(
    "my laptop|my computer|my machine|locally|local model|local llm|on-prem|on premise|on-premise|own server|\
     own servers|own hardware|self-hosted|self hosted|without any cloud|without the cloud|without cloud|no cloud|offline|\
     no external api|no outside api|can't use external api|cannot use external api|can't use cloud|cannot use cloud|\
     로컬|내 컴퓨터|노트북에서|사내 서버|자체 서버|우리 서버|클라우드 없이|오프라인|온프레미스|외부 api는 못|외부 api 없이|\
     외부 api를 쓸 수 없|외부 api를 못|외부 api 금지|외부 api 사용 금지|외부로 나가면 안|클라우드는 못|클라우드를 못",
);
// 큰/대형/좋은/고성능/똑똑한/강한/강력한 모델: a big, large, good, high-end, smart, strong, powerful model
const BIGGER_MODEL: WordList = WordList(
    "bigger model|larger model|stronger model|better model|smarter model|more capable model|more powerful model|\
     large model|best model|큰 모델|대형 모델|더 좋은 모델|좋은 모델|성능 좋은 모델|고성능 모델|똑똑한 모델|강한 모델|강력한 모델",
);
// 검증: verify; 정확: accurate; 신뢰: reliable; 환각: hallucination
pub(crate) const MORE_CHECKS: WordList =
    WordList("검증|정확|신뢰|환각|validat*|accura*|reliab*|hallucinat*|verif*|fact");
// 단순/간단: simple; 줄여: cut down; 가볍: light; 복잡: complex ("너무 복잡해요"); 무거: heavy;
// 거창: grandiose
const SIMPLER: WordList = WordList(
    "단순|간단|줄여|가볍|복잡|무거|거창|simple|simpler|fewer|lighter|leaner|too complex|complicated|overkill|\
    over-engineered|overengineered|too heavy",
);
// 너무 단순/너무 간단/너무 허술/부실: too simple, too flimsy.
const TOO_SIMPLE: WordList =
    WordList("too simple|too basic|too thin|too bare|oversimplified|너무 단순|너무 간단|너무 허술|허술|부실");
const FASTER: WordList = WordList("빠르|속도|병렬|지연|fast|speed|latency|parallel*|quicker");
pub(crate) const SAFER: WordList = WordList("보안|개인정보|민감|security|secure|privacy|pii|sensitive");
pub(crate) const HUMAN: WordList = WordList("사람이|사람 검토|승인|검수|human|manual review|approval|sign-off");
const SCALE: WordList = WordList("대량|확장|규모|scal*|volume|throughput|thousands");

/// English words before a step that ask for it to go: "drop the validator", "skip the human
/// review", "we don't need the privacy guard", "no human review".
const REMOVE_BEFORE: WordList =
    WordList("remove|drop|skip|without|get rid of|leave out|take out|no need for|don't need|do not need|no|cut");
/// Words after a step that ask for it to go: 빼: leave out ("검증은 빼 주세요"); 없애: get rid
/// of; 제거: removal; 생략: omission; 필요 없/필요없: not needed; 없이: without; 말고: not this
/// (but); "… isn't needed".
const REMOVE_AFTER: WordList =
    WordList("빼|없애|제거|생략|필요 없|필요없|없이|말고|안 넣|넣지 말|not needed|isn't needed|unnecessary");
/// What ends the stretch of words a step's removal is read from: a clause or a joined request
/// ("remove the validator and add human review").
const STRETCH_ENDS: [&str; 9] = [",", ".", ";", "!", "?", "\n", " and ", " but ", " then "];

/// The stretches of `lower` (between clause ends and joins) that ask for something to go
/// ("without the validator", "검증은 빼고"), as byte ranges.
pub(crate) fn removal_stretches(lower: &str) -> Vec<std::ops::Range<usize>> {
    let mut cuts: Vec<(usize, usize)> =
        STRETCH_ENDS.iter().flat_map(|e| lower.match_indices(e).map(|(at, m)| (at, at + m.len()))).collect();
    crate::engine::order::sort_by_key(&mut cuts, |c| c.0 as u128);
    let mut out = Vec::new();
    let mut from = 0;
    for (at, next) in cuts.into_iter().chain([(lower.len(), lower.len())]) {
        if at < from {
            continue;
        }
        let stretch = &lower[from..at];
        if REMOVE_BEFORE.iter().any(|w| mentions(stretch, w)) || REMOVE_AFTER.iter().any(|w| stretch.contains(w)) {
            out.push(from..at);
        }
        from = next;
    }
    out
}

/// How feedback names a step (by one of the words `cue`): whether some mention asks for it
/// (`.0`) and whether some mention asks for it to go (`.1`).
pub(crate) fn step_wanted<'a>(feedback: &str, cue: impl IntoIterator<Item = &'a str>) -> (bool, bool) {
    let lower = feedback.to_ascii_lowercase();
    let (mut add, mut remove) = (false, false);
    for word in cue {
        let stem = word.trim_end_matches('*');
        for (at, _) in lower.match_indices(stem) {
            let glued = word.is_ascii() && lower[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric());
            if glued || !mentions(&lower[at..], word) {
                continue;
            }
            let before = &lower[..at];
            let before = STRETCH_ENDS
                .iter()
                .filter_map(|e| before.rfind(e).map(|i| i + e.len()))
                .max()
                .map_or(before, |i| &before[i..]);
            let after = &lower[at + stem.len()..];
            let after = STRETCH_ENDS.iter().filter_map(|e| after.find(e)).min().map_or(after, |i| &after[..i]);
            let gone =
                REMOVE_BEFORE.iter().any(|w| mentions(before, w)) || REMOVE_AFTER.iter().any(|w| after.contains(w));
            if gone {
                remove = true;
            } else {
                add = true;
            }
        }
    }
    (add, remove)
}

/// A kind of step feedback adds ("add validation", "사람 검토를 넣어 주세요") or takes away
/// ("skip the human review", "검증은 빼 주세요").
pub(crate) struct StepKind {
    /// The words that name it.
    pub cue: WordList,
    /// The roles of its steps.
    roles: &'static [&'static str],
    /// Its name, in Korean and English.
    name: (&'static str, &'static str),
    /// The memory's preference theme it belongs to.
    pub preference: &'static str,
    /// That preference when the user asks the steps to go, in Korean and English.
    pub without: (&'static str, &'static str),
}

impl StepKind {
    /// Whether a step of this role is of this kind.
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.contains(&role)
    }
}

pub(crate) const STEP_KINDS: [StepKind; 3] = [
    StepKind {
        cue: MORE_CHECKS,
        roles: &["validator", "cross_checker"],
        name: ("검증", "validation"),
        preference: "accuracy",
        without: ("검증 단계 없이", "no validation steps"),
    },
    StepKind {
        cue: HUMAN,
        roles: &["human_review"],
        name: ("사람 검토", "human review"),
        preference: "review",
        without: ("사람 검토 없이", "no human review"),
    },
    StepKind {
        cue: SAFER,
        roles: &["guard"],
        name: ("개인정보 보호 필터", "privacy guard"),
        preference: "security",
        without: ("개인정보 보호 필터 없이", "no privacy guard"),
    },
];

/// A design's words brought in line with the steps taken out of it: the name and the pros that
/// praise them go ("Standard Pipeline with Validation" without its validator is the "Standard
/// Pipeline"), and the description says which steps went.
fn without_praise_of(d: &mut DesignProposal, removed: &[AgentSpec], lang: Lang) {
    // Words that praise a role's step: 입력 검증: input validation; 교차 검증: cross-checking; 종합:
    // synthesis; 사람: a person; 개인정보: personal data.
    let praise = |role: &str| match role {
        "validator" => WordList("validation|입력 검증"),
        "cross_checker" => WordList("cross-check|교차 검증"),
        "synthesizer" => WordList("synthes|종합"),
        "human_review" => WordList("human|사람"),
        "guard" => WordList("privacy|개인정보"),
        _ => WordList(""),
    };
    for step in removed {
        let words = praise(&step.role);
        d.pros.retain(|p| !words.any(|w| !w.is_empty() && p.to_lowercase().contains(w)));
    }
    if !d.agents.iter().any(|a| a.role == "validator") {
        d.name = d.name.replace(" with Validation", "").replace("검증 포함 ", "");
    }
    let names: Vec<&str> = removed.iter().map(|a| a.name.as_str()).collect();
    let note = match lang {
        Lang::Ko => format!(" (요청대로 {} 단계는 뺐습니다.)", names.join(", ")),
        Lang::En => format!(" (Without the {}, as asked.)", names.join(", ")),
    };
    d.description.push_str(&note);
}

/// Takes out of every design the steps feedback asks to go, by kind ("drop the validation")
/// or by name ("remove the synthesizer", "요약 담당은 빼 주세요"), keeping two steps at least;
/// says what went, or that no design had a step of a kind asked to go.
fn remove_steps(designs: &mut [DesignProposal], feedback: &str, lang: Lang, changes: &mut Vec<String>) {
    let kinds: Vec<&StepKind> = STEP_KINDS.iter().filter(|k| step_wanted(feedback, k.cue.iter()).1).collect();
    let named =
        |a: &AgentSpec| a.name.chars().count() >= 3 && step_wanted(feedback, [a.name.to_ascii_lowercase().as_str()]).1;
    // A step asked for by its name goes alone ("drop the validator" keeps the cross-checker);
    // a kind takes all its steps ("skip the validation").
    let by_name = designs.iter().any(|d| d.agents.iter().any(named));
    let mut gone: Vec<String> = Vec::new();
    for d in designs.iter_mut() {
        let doomed = |a: &AgentSpec| {
            if by_name {
                named(a)
            } else {
                kinds.iter().any(|k| k.roles.contains(&a.role.as_str()))
            }
        };
        let going: Vec<usize> = (0..d.agents.len()).filter(|&i| doomed(&d.agents[i])).collect();
        if going.is_empty() || d.agents.len() - going.len() < 2 {
            continue;
        }
        let mut removed: Vec<AgentSpec> = Vec::new();
        for &i in going.iter().rev() {
            let step = d.agents.remove(i);
            if !gone.contains(&step.name) {
                gone.push(step.name.clone());
            }
            removed.insert(0, step);
        }
        without_praise_of(d, &removed, lang);
    }
    let ko = lang == Lang::Ko;
    if !gone.is_empty() {
        changes.push(if ko {
            format!("{} 단계를 뺐습니다.", gone.join(", "))
        } else {
            format!("Removed {}.", gone.join(", "))
        });
    } else if let Some(StepKind { name: (ko_name, en_name), .. }) = kinds.first() {
        changes.push(if ko {
            format!("{} 단계는 어느 설계안에도 없습니다. 설계안은 그대로입니다.", ko_name)
        } else {
            format!("None of the designs has a {en_name} step; they stay as they are.")
        });
    }
}

/// Revises designs from feedback by rules: cheaper models, added validation, fewer
/// steps, parallel collection, a privacy guard, human review, batching, a new output
/// format or destination, steps taken out. No change when it reads none of them.
fn revise(designs: &[DesignProposal], feedback: &str, focus: Option<usize>, lang: Lang) -> Refinement {
    let asks = |list: WordList| list.any(|w| mentions(feedback, w));
    // "skip the human review" takes the step away; it does not ask for one, even beside another
    // word of its kind ("in fact, drop the validator").
    let adds = |list: WordList| {
        let (add, remove) = step_wanted(feedback, list.iter());
        add && !remove
    };
    let mut designs = designs.to_vec();
    let mut changes = Vec::new();
    // "go with 2 but drop the validator": the steps go from that design alone.
    let range = focus.filter(|&f| f < designs.len()).map_or(0..designs.len(), |f| f..f + 1);
    remove_steps(&mut designs[range], feedback, lang, &mut changes);
    // "the simple one" asked for a change: that design alone, where the change is one design's.
    let focused = |i: usize| focus.is_none_or(|f| f == i);
    // What a change was made to, for the change's line: "2. Standard Pipeline", or every design.
    let named = |d: &[DesignProposal]| focus.and_then(|f| d.get(f).map(|x| format!("{}. {}", f + 1, x.name)));
    // "1번은 너무 단순해요", "too basic": more checking asked of it, not a simpler design.
    let too_simple = asks(TOO_SIMPLE);

    if asks(BIGGER_MODEL) {
        let mut moved = Vec::new();
        for (i, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            let core = |a: &AgentSpec| a.model == "small" && !matches!(a.role.as_str(), "collector" | "formatter");
            let mut any = false;
            for a in d.agents.iter_mut().filter(|a| core(a)) {
                a.model = "large".into();
                any = true;
            }
            if any {
                d.estimated_cost = scaled_cost(&d.estimated_cost, 300);
                d.cons.push(
                    lang.pick("대형 모델이라 실행마다 비용이 더 듭니다", "Large models make every run cost more")
                        .into(),
                );
                moved.push(format!("{}. {}", i + 1, d.name));
            }
        }
        changes.push(match (moved.is_empty(), lang) {
            (true, Lang::Ko) => "핵심 단계는 이미 대형 모델을 씁니다. 설계안은 그대로입니다.".to_string(),
            (true, Lang::En) => "The core steps already run on a large model; the designs stay as they are.".to_string(),
            (false, Lang::Ko) => format!(
                "{}의 핵심 단계를 대형 모델로 바꾸고 비용 추정을 올렸습니다(수집과 정리는 소형 모델 그대로).",
                moved.join(", ")
            ),
            (false, Lang::En) => format!(
                "Moved the core steps of {} to a large model and raised the cost estimate (collecting and writing stay on a small one).",
                moved.join(", ")
            ),
        });
    }
    // "a bigger model, even if it costs more" asks for the model, not for a lower cost.
    if asks(CHEAPER) && !asks(BIGGER_MODEL) {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            for a in &mut d.agents {
                if a.model == "large" || is_expensive_model(&a.model) {
                    a.model = "small".into();
                }
            }
            d.estimated_cost = cheaper_cost(&d.estimated_cost);
            d.pros.push(
                lang.pick("모든 단계에 작은 모델을 써 비용을 낮춤", "Small models on every step keep the cost down")
                    .into(),
            );
        }
        if let Some(i) = designs.iter().position(|d| d.complexity == Complexity::Low).filter(|_| focus.is_none()) {
            mark_recommended(&mut designs, i);
        }
        changes.push(
            lang.pick(
                "비싼 모델을 작은 모델로 바꾸고 비용 추정을 낮췄습니다.",
                "Swapped large models for small ones and lowered the cost estimates.",
            )
            .into(),
        );
    }
    if adds(MORE_CHECKS) || too_simple {
        let mut validated = false;
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            if !d.has_role("validator") {
                validated = true;
                let at = 1.min(d.agents.len());
                d.agents.insert(
                    at,
                    AgentSpec {
                        name: lang.pick("검증기", "validator").into(),
                        role: "validator".into(),
                        model: "small".into(),
                        description: lang
                            .pick(
                                "입력의 누락·중복·형식 오류를 걸러냅니다.",
                                "Filters missing, duplicate and malformed input.",
                            )
                            .into(),
                    },
                );
            }
        }
        let cross_checked = |(i, d): &(usize, &mut DesignProposal)| {
            !d.has_role("cross_checker")
                && (focus == Some(*i) || (focus.is_none() && d.complexity == Complexity::Medium))
        };
        let mut crossed = false;
        if let Some((_, d)) = designs.iter_mut().enumerate().find(cross_checked) {
            crossed = true;
            let at = d.agents.len().saturating_sub(1);
            d.agents.insert(
                at,
                AgentSpec {
                    name: lang.pick("교차 검증기", "cross-checker").into(),
                    role: "cross_checker".into(),
                    model: "small".into(),
                    description: lang
                        .pick("결과를 원자료와 대조합니다.", "Checks the result against the sources.")
                        .into(),
                },
            );
        }
        if let Some(i) = designs
            .iter()
            .position(|d| d.has_role("cross_checker") && d.complexity == Complexity::Medium)
            .filter(|_| focus.is_none())
        {
            mark_recommended(&mut designs, i);
        }
        changes.push(match named(&designs) {
            Some(one) => match (validated, crossed) {
                (true, true) => {
                    lang.pick("{}에 검증 단계와 교차 검증을 더했습니다.", "Added validation and a cross-check to {}.")
                }
                (false, true) => lang.pick("{}에 교차 검증을 더했습니다.", "Added a cross-check to {}."),
                (true, false) => lang.pick("{}에 검증 단계를 더했습니다.", "Added validation to {}."),
                (false, false) => lang.pick(
                    "{}에는 검증과 교차 검증이 이미 있습니다. 설계안은 그대로입니다.",
                    "{} already has validation and a cross-check; it stays as it is.",
                ),
            }
            .replace("{}", &one),
            None => lang
                .pick(
                    "모든 설계안에 검증 단계를 넣고, 표준안에 교차 검증을 더했습니다.",
                    "Added validation to every design and a cross-check to the standard one.",
                )
                .into(),
        });
    }
    if asks(SIMPLER) && !too_simple {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            let before = d.agents.len();
            d.agents.retain(|a| !matches!(a.role.as_str(), "synthesizer" | "cross_checker"));
            if d.agents.len() < before {
                d.complexity = match d.complexity {
                    Complexity::High => Complexity::Medium,
                    other => other,
                };
            }
        }
        if let Some(i) = designs.iter().position(|d| d.complexity == Complexity::Low).filter(|_| focus.is_none()) {
            mark_recommended(&mut designs, i);
        }
        changes.push(
            lang.pick(
                "교차 검증·종합 단계를 빼서 구조를 단순하게 했습니다.",
                "Removed the cross-check and synthesis steps to keep things simple.",
            )
            .into(),
        );
    }
    if asks(FASTER) {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            d.pros.push(
                lang.pick(
                    "수집과 검증을 병렬로 돌려 지연을 줄임",
                    "Collection and validation run in parallel to cut latency",
                )
                .into(),
            );
        }
        changes.push(
            lang.pick("수집·검증을 병렬로 실행하도록 바꿨습니다.", "Collection and validation now run in parallel.")
                .into(),
        );
    }
    if adds(SAFER) {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            if !d.has_role("guard") {
                d.agents.insert(
                    1.min(d.agents.len()),
                    AgentSpec {
                        name: lang.pick("개인정보 보호 필터", "privacy guard").into(),
                        role: "guard".into(),
                        model: "small".into(),
                        description: lang
                            .pick(
                                "민감 정보를 가리고 외부 입력의 지시문을 무력화합니다.",
                                "Masks personal data and neutralises instructions hidden in external input.",
                            )
                            .into(),
                    },
                );
            }
        }
        changes.push(match named(&designs) {
            Some(one) => lang
                .pick("{} 앞단에 개인정보 보호 필터를 넣었습니다.", "Put a privacy guard at the front of {}.")
                .replace("{}", &one),
            None => lang
                .pick(
                    "모든 설계안 앞단에 개인정보 보호 필터를 넣었습니다.",
                    "Put a privacy guard at the front of every design.",
                )
                .into(),
        });
    }
    if adds(HUMAN) {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            let at = d.agents.len().saturating_sub(1);
            d.agents.insert(
                at,
                AgentSpec {
                    name: lang.pick("사람 검토", "human review").into(),
                    role: "human_review".into(),
                    model: String::new(),
                    description: lang
                        .pick(
                            "내보내기 전에 사람이 결과를 승인합니다.",
                            "A person approves the result before it goes out.",
                        )
                        .into(),
                },
            );
        }
        changes.push(match named(&designs) {
            Some(one) => lang
                .pick(
                    "{}의 최종 출력 전에 사람 검토 단계를 넣었습니다.",
                    "Added a human review step to {} before its final output.",
                )
                .replace("{}", &one),
            None => lang
                .pick(
                    "최종 출력 전에 사람 검토 단계를 넣었습니다.",
                    "Added a human review step before the final output.",
                )
                .into(),
        });
    }
    if asks(SCALE) {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            d.pros.push(
                lang.pick("큐와 배치 처리로 대량 입력을 나눠 처리", "A queue and batching spread large volumes").into(),
            );
        }
        changes.push(
            lang.pick("대량 처리를 위해 큐와 배치 처리를 더했습니다.", "Added a queue and batching for volume.").into(),
        );
    }
    deliver_as(&mut designs, feedback, lang, &mut changes);
    // "it must run on our own server", "클라우드 없이 로컬에서": every model runs on the user's own
    // hardware (llama.cpp or Ollama), and nothing goes to a cloud API. Last, so that a step the
    // same feedback adds ("보안이 중요해서 외부 API는 못 써요": a privacy guard) runs locally too and
    // no later change sets a cloud cost; a step that runs no model (a delivery) stays without.
    if asks(LOCAL) {
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focused(*i)) {
            for a in d.agents.iter_mut().filter(|a| !a.model.is_empty()) {
                a.model = "local".into();
            }
            d.estimated_cost = lang.pick("API 비용 없음(자체 하드웨어)", "no API cost (own hardware)").into();
            d.pros.push(
                lang.pick(
                    "데이터가 밖으로 나가지 않고 API 비용이 없음",
                    "No data leaves your machines, and no API cost",
                )
                .into(),
            );
            d.cons.push(
                lang.pick(
                    "로컬 모델은 작아서 어려운 단계의 품질이 낮을 수 있음. 컨텍스트 창(보통 2,048–8,192 토큰)에 맞춰 입력을 나눠야 함",
                    "Local models are smaller, so hard steps may lose quality; inputs must be split to fit their context window (often 2,048–8,192 tokens)",
                )
                .into(),
            );
        }
        changes.push(
            lang.pick(
                "모든 단계가 자체 하드웨어의 로컬 모델(llama.cpp, Ollama 등)로 돌도록 바꿨습니다. 클라우드 API 호출은 없습니다.",
                "Every step now runs on a local model on your own hardware (llama.cpp, Ollama or similar); no cloud API is called.",
            )
            .into(),
        );
    }
    Refinement { designs, changes }
}

/// The designs with what the rules can build of `requirement` made in design `chosen` alone
/// ("2번으로 하되 사람이 최종 검토해야 해요": a human review step in 2). `changes` is empty when
/// the rules can build none of it.
pub fn revise_chosen(designs: &[DesignProposal], requirement: &str, chosen: usize, lang: Lang) -> Refinement {
    revise(designs, requirement, Some(chosen), lang)
}

/// The designs with the output form and the destination `feedback` names, if any: the step
/// that writes the output renamed for the format, the delivery step for the tool ("노션 페이지로").
pub fn revise_delivery(designs: &[DesignProposal], feedback: &str, lang: Lang) -> Refinement {
    let mut designs = designs.to_vec();
    let mut changes = Vec::new();
    deliver_as(&mut designs, feedback, lang, &mut changes);
    Refinement { designs, changes }
}

/// `revise`'s part for the output form and the destination (`revise_delivery`).
fn deliver_as(designs: &mut [DesignProposal], feedback: &str, lang: Lang, changes: &mut Vec<String>) {
    let ko = lang == Lang::Ko;
    if let Some(format) = super::slots::parse_format(feedback) {
        let label = format.label(lang);
        for d in designs.iter_mut() {
            // The step that writes the output: not a delivery to a tool ("Slack delivery"),
            // a source or a person's review, which stay as they are.
            let writer = d
                .agents
                .iter()
                .rposition(|a| matches!(a.role.as_str(), "formatter" | "reporter" | "writer"))
                .or_else(|| {
                    d.agents.iter().rposition(|a| !matches!(a.role.as_str(), "publisher" | "source" | "human_review"))
                });
            if let Some(step) = writer.map(|at| &mut d.agents[at]) {
                // The description names the output too ("… and write a chat message"): it
                // says the new one.
                let old = step.name.strip_suffix(" 작성기").or_else(|| step.name.strip_suffix(" writer"));
                if let Some(old) = old.filter(|o| !o.trim().is_empty() && *o != label) {
                    d.description = if ko {
                        d.description.replace(&with_instrumental(old), &with_instrumental(label))
                    } else {
                        d.description.replace(super::slots::Format::in_sentence(old), format.phrase_en())
                    };
                }
                step.name = if ko { format!("{label} 작성기") } else { format!("{label} writer") };
                step.description = if ko {
                    format!("결과를 {} 정리합니다.", with_instrumental(label))
                } else {
                    format!("Writes the result as {}.", format.phrase_en())
                };
            }
        }
        changes.push(if ko {
            format!("출력 형식을 {} 바꿨습니다.", with_instrumental(label))
        } else {
            format!("Changed the output to {label}.")
        });
    }
    // "노션 페이지로": one tool the result now goes to takes the delivery step's place.
    if let Some(tool) = new_destination(feedback) {
        let tool = &tool;
        let mut moved = false;
        for d in designs.iter_mut() {
            match d.agents.iter_mut().find(|a| a.role == "publisher") {
                Some(step) if !step.name.contains(tool.as_str()) => {
                    *step = tool_step(tool, false, lang);
                    moved = true;
                }
                Some(_) => {}
                None => {
                    d.agents.push(tool_step(tool, false, lang));
                    moved = true;
                }
            }
        }
        if moved {
            changes.push(if ko {
                format!("결과를 {tool}에 보내도록 바꿨습니다.")
            } else {
                format!("The result now goes to {tool}.")
            });
        }
    }
}

/// What the rules make of feedback against the designs, without a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleReading {
    /// They revise the designs, or judge them against a criterion the feedback states.
    Revises,
    /// They read it, but no design changes ("skip the human review" where none has one): what
    /// they say of it.
    Unchanged(Vec<String>),
    /// They read nothing in it: a refinement would only record it on each design.
    Nothing,
}

/// What the rules make of `feedback` against `designs`.
pub fn rules_read(designs: &[DesignProposal], feedback: &str, lang: Lang) -> RuleReading {
    if super::contract::stated_criterion(feedback).is_some() {
        return RuleReading::Revises;
    }
    let revised = revise(designs, &super::reply::without_design_refs(feedback, designs), None, lang);
    match (revised.changes.is_empty(), revised.designs == designs) {
        (true, _) => RuleReading::Nothing,
        (false, true) => RuleReading::Unchanged(revised.changes),
        (false, false) => RuleReading::Revises,
    }
}

/// Revises designs from feedback by rules (`revise`); a criterion is judged against and
/// feedback the rules cannot act on is recorded on each design.
pub fn refine_heuristic(designs: &[DesignProposal], feedback: &str, lang: Lang) -> Refinement {
    refine_heuristic_for(designs, feedback, None, lang)
}

/// `refine_heuristic` for feedback about one design (`focus`, "make the simple one use a bigger
/// model"): the words that point at it are not read as what is asked, and a change that is one
/// design's (its models, its cost, a request the rules cannot act on) goes to that design only.
pub fn refine_heuristic_for(
    designs: &[DesignProposal],
    feedback: &str,
    focus: Option<usize>,
    lang: Lang,
) -> Refinement {
    let focus = focus.filter(|i| *i < designs.len());
    let asked = super::reply::without_design_refs(feedback, designs);
    let Refinement { mut designs, mut changes } = revise(designs, &asked, focus, lang);
    let ko = lang == Lang::Ko;
    if changes.is_empty() {
        if let Some(criterion) = super::contract::stated_criterion(feedback) {
            // What a good result is went into the contract's criteria (the discussion adds
            // it); the designs are judged against it, not rewritten with the sentence.
            changes.push(if ko {
                format!("설계안은 그대로 두고, 새 수용 기준으로 다시 평가했습니다: {criterion}")
            } else {
                format!("Kept the designs and judged them again against the new acceptance criterion: {criterion}")
            });
            return Refinement { designs, changes };
        }
        let note = super::lang::clip(feedback.trim(), 120);
        for (_, d) in designs.iter_mut().enumerate().filter(|(i, _)| focus.is_none_or(|f| f == *i)) {
            d.description = if ko {
                format!("{} (반영 요청: {note})", d.description)
            } else {
                format!("{} (revised for: {note})", d.description)
            };
        }
        changes.push(if ko {
            format!("규칙으로 해석하지 못한 요청이라 각 설계안에 그대로 기록했습니다: {note}")
        } else {
            format!("Recorded your request on each design, as the rules could not act on it: {note}")
        });
    }
    for d in &mut designs {
        dedup_keep_order(&mut d.pros);
    }
    Refinement { designs, changes }
}

fn mark_recommended(designs: &mut [DesignProposal], index: usize) {
    for (i, d) in designs.iter_mut().enumerate() {
        d.recommended = i == index;
    }
}

fn dedup_keep_order(items: &mut Vec<String>) {
    let mut seen: Vec<String> = Vec::new();
    items.retain(|item| {
        let key = normalize(item);
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
}

/// Model names that cost noticeably more per token than small models.
pub fn is_expensive_model(model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    if m == "large" {
        return true;
    }
    if m.contains("mini") || m.contains("nano") || m.contains("haiku") || m.contains("flash") || m == "small" {
        return false;
    }
    WordList("gpt-4|gpt-5|o1|o3|opus|sonnet|gemini-pro|gemini-1.5-pro|gemini-2.5-pro|ultra").any(|k| m.contains(k))
}

/// Halves the dollar figures of a cost estimate: "~$0.15-0.30" → "~$0.08-0.15".
fn cheaper_cost(cost: &str) -> String {
    scaled_cost(cost, 50)
}

/// The dollar figures of a cost estimate times `percent` / 100: 300 makes "~$0.01-0.03" "~$0.03-0.09".
fn scaled_cost(cost: &str, percent: u64) -> String {
    let mut out = String::new();
    let mut number = String::new();
    let flush = |number: &mut String, out: &mut String| {
        if number.is_empty() {
            return;
        }
        match super::json::decimal(number) {
            // Cents as an integer: formatting floats would pull float printing into the wasm.
            Some(n) => {
                let cents = (n * percent as f64).round() as u64;
                out.push_str(&format!("{}.{:02}", cents / 100, cents % 100));
            }
            None => out.push_str(number),
        }
        number.clear();
    };
    for c in cost.chars() {
        if c.is_ascii_digit() || (c == '.' && !number.is_empty()) {
            number.push(c);
        } else {
            flush(&mut number, &mut out);
            out.push(c);
        }
    }
    flush(&mut number, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_new_destination_renames_the_tool_the_goal_sends_to() {
        let cases = [
            (
                "매주 팀 소식을 요약해서 슬랙으로 보내주는 봇",
                "Notion",
                Some("매주 팀 소식을 요약해서 노션으로 보내주는 봇"),
            ),
            ("매일 보고서를 노션에 올리고 슬랙을 통해 알려 줘", "Teams", None),
            ("슬랙이 받는 요약", "Teams", Some("팀즈가 받는 요약")),
            (
                "Summarize the news and send it to Slack every morning",
                "Notion",
                Some("Summarize the news and send it to Notion every morning"),
            ),
            // What the request reads from stays; a goal already sending there, or naming no
            // tool, is left alone.
            (
                "노션에 있는 회의록을 요약해서 슬랙으로 보내기",
                "Teams",
                Some("노션에 있는 회의록을 요약해서 팀즈로 보내기"),
            ),
            ("Post the digest to Notion", "Notion", None),
            ("매일 아침 뉴스 요약", "Notion", None),
        ];
        for (goal, to, want) in cases {
            assert_eq!(retarget(goal, to).as_deref(), want, "{goal} → {to}");
        }
        assert_eq!(new_destination("노션 페이지로 바꿔 주세요").as_deref(), Some("Notion"));
        use crate::engine::slots::Format;
        let reformats = [
            (
                "매일 아침 IT 뉴스를 요약해서 마크다운으로 정리하기",
                "마크다운",
                Format::Table,
                Lang::Ko,
                Some("매일 아침 IT 뉴스를 요약해서 표로 정리하기"),
            ),
            ("회의록을 표로 정리하기", "표", Format::Json, Lang::Ko, Some("회의록을 JSON으로 정리하기")),
            (
                "Build a news digest as a Markdown document",
                "Markdown",
                Format::Table,
                Lang::En,
                Some("Build a news digest as a table"),
            ),
            ("Summarize standups in Markdown", "Markdown", Format::Json, Lang::En, Some("Summarize standups in JSON")),
            ("매일 아침 뉴스 요약", "마크다운", Format::Table, Lang::Ko, None),
            ("A weekly digest", "Markdown", Format::Table, Lang::En, None),
            (
                "A weekly report of our GitHub PRs that are stuck in review",
                "Report",
                Format::Message,
                Lang::En,
                Some("A weekly chat message of our GitHub PRs that are stuck in review"),
            ),
            ("Report of the open bugs", "Report", Format::Email, Lang::En, Some("Email of the open bugs")),
        ];
        for (goal, from, to, lang, want) in reformats {
            assert_eq!(reformat(goal, from, to, lang).as_deref(), want, "{goal} → {to:?}");
        }
        assert_eq!(new_destination("send it to Teams instead").as_deref(), Some("Teams"));
        assert_eq!(new_destination("슬랙 말고 노션이랑 팀즈 둘 다"), None);
    }

    const GOOD: &str = r#"{"designs":[
        {"name":"Lean","description":"d","agents":[{"name":"fetch","role":"collector","model":"gpt-4o-mini"},{"name":"sum","role":"processor"}],
         "pros":["cheap"],"cons":["fragile"],"estimated_cost":"~$0.01","complexity":"low","recommended":false},
        {"name":"Checked","description":"d","agents":["collector","validator","analyzer","reporter"],
         "pros":["safe"],"cons":["slower"],"estimated_cost":"~$0.07","complexity":"medium","recommended":true}]}"#;

    #[test]
    fn parses_designs_with_and_without_code_fences() {
        for raw in [GOOD.to_string(), format!("```json\n{GOOD}\n```"), format!("Here you go:\n{GOOD}\nThanks")] {
            let designs = parse_designs(&raw).expect("parses");
            assert_eq!(designs.len(), 2);
            assert_eq!(designs[0].agents[0].model, "gpt-4o-mini");
            assert_eq!(designs[1].agents[1].role, "validator", "string agents become roles");
            assert!(designs[1].recommended && !designs[0].recommended);
        }
    }

    #[test]
    fn broken_or_empty_answers_are_errors_with_reasons() {
        let cases = [
            "",
            "I cannot help with that.",
            "{\"designs\": []}",
            "{\"designs\": [{\"description\": \"no name\"}]}",
            "```json\n{\"designs\": [\n```",
        ];
        for raw in cases {
            let err = parse_designs(raw).expect_err(raw);
            assert!(!err.is_empty());
        }
    }

    #[test]
    fn parsing_keeps_at_most_three_and_exactly_one_recommended() {
        let raw = r#"[{"name":"a","recommended":true},{"name":"b","recommended":true},{"name":"c"},{"name":"d"}]"#;
        let designs = parse_designs(raw).unwrap();
        assert_eq!(designs.len(), 3);
        assert_eq!(designs.iter().filter(|d| d.recommended).count(), 1);
        assert!(designs[0].recommended);
        let none_marked =
            parse_designs(r#"[{"name":"a","complexity":"low"},{"name":"b","complexity":"medium"}]"#).unwrap();
        assert!(none_marked[1].recommended, "the medium design is recommended when none is marked");
    }

    #[test]
    fn fallback_templates_follow_the_seed_table() {
        let designs = fallback_designs("build a news digest", "Markdown document", Lang::En);
        let shape: Vec<(Complexity, Vec<&str>, &str)> = designs
            .iter()
            .map(|d| (d.complexity, d.agents.iter().map(|a| a.role.as_str()).collect(), d.estimated_cost.as_str()))
            .collect();
        assert_eq!(
            shape,
            vec![
                (Complexity::Low, vec!["collector", "processor", "formatter"], "~$0.01-0.03"),
                (Complexity::Medium, vec!["collector", "validator", "analyzer", "reporter"], "~$0.05-0.10"),
                (
                    Complexity::High,
                    vec!["collector", "validator", "analyzer", "cross_checker", "synthesizer", "reporter"],
                    "~$0.15-0.30"
                ),
            ]
        );
        assert_eq!(designs[0].name, "Simple Sequential Pipeline");
        assert_eq!(designs.iter().filter(|d| d.recommended).count(), 1);
    }

    #[test]
    fn fallback_templates_speak_about_the_request() {
        let ko = fallback_designs("매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘", "마크다운 문서", Lang::Ko);
        assert_eq!(ko[0].name, "단순 순차 파이프라인");
        assert_eq!(ko[0].agents[0].name, "뉴스 기사 수집기");
        assert_eq!(ko[0].agents[1].name, "요약 담당");
        assert!(ko[0].description.contains("마크다운 문서로"), "{}", ko[0].description);
        let en = fallback_designs("Classify support tickets for a quick prototype", "Table", Lang::En);
        assert_eq!(en[0].agents[0].name, "support tickets collector");
        assert!(en[1].description.contains("classify"));
        assert!(en[0].recommended, "a quick prototype asks for the simple design");
        let reviews = fallback_designs("고객 리뷰 분석", "", Lang::Ko);
        assert_ne!(reviews[0].agents[0].name, ko[0].agents[0].name);
        // An English sentence says a format as a phrase; an agent's name keeps the label.
        let chat = fallback_designs("summarize the standup notes", "Chat message", Lang::En);
        assert!(chat[1].description.ends_with("and report as a chat message."), "{}", chat[1].description);
        assert!(chat[0].description.ends_with("write a chat message."), "{}", chat[0].description);
        assert_eq!(chat[0].agents.last().unwrap().name, "Chat message writer");
        assert_eq!(chat[0].agents.last().unwrap().description, "Writes the result as a chat message.");
        assert!(en[1].description.ends_with("report as a table."), "{}", en[1].description);
        let free = fallback_designs("summarize the standup notes", "one-page brief", Lang::En);
        assert!(free[1].description.ends_with("report as one-page brief."), "{}", free[1].description);
    }

    #[test]
    fn nonsense_designs_are_refused_and_topped_up_from_the_templates() {
        let contract = Contract {
            original_request: "매일 아침 IT 뉴스를 요약해서 슬랙으로 보내줘".into(),
            goal: "IT 뉴스 요약".into(),
            ..Contract::default()
        };
        // The issue's answer: a design named "무시" whose only agent is the isolation tag.
        let nonsense = r#"{"designs":[{"name":"무시","agents":[{"name":"<user_input>","role":"collector"}],"pros":[],"cons":[]}]}"#;
        assert!(parse_designs_checked(nonsense, &contract, Lang::Ko).is_err());

        let one = r#"{"designs":[
            {"name":"뉴스 다이제스트","agents":[{"name":"수집기","role":"collector"},{"name":"요약기","role":"processor"}],
             "pros":["빠름"],"cons":["검증 없음"],"complexity":"low","recommended":true},
            {"name":"<user_input>","agents":["collector","validator"],"pros":["a"],"cons":["b"]},
            {"name":"Checked","agents":[{"name":"name","role":"role"},{"name":"validator","role":"validator"}],"pros":["a"],"cons":["b"]}]}"#;
        let checked = parse_designs_checked(one, &contract, Lang::Ko).expect("one usable design");
        assert_eq!(checked.designs[0].name, "뉴스 다이제스트");
        assert_eq!(checked.refused.len(), 2, "{:?}", checked.refused);
        assert!(checked.designs.len() >= 2 && checked.designs.len() <= MAX_DESIGNS);
        assert_eq!(checked.from_templates, (1..checked.designs.len()).collect::<Vec<_>>());
        assert!(checked.designs[1].description.starts_with("(템플릿으로 보충"));
        assert!(checked.designs.iter().all(|d| d.complexity != Complexity::Low || d.name == "뉴스 다이제스트"));
        assert_eq!(checked.designs.iter().filter(|d| d.recommended).count(), 1);

        let copied = format!(
            r#"[{{"name":"{0}","agents":["collector","processor"],"pros":["p"],"cons":["c"]}},{{"name":"Lean","agents":["collector","processor"],"pros":["p"],"cons":["c"]}}]"#,
            contract.original_request
        );
        let checked = parse_designs_checked(&copied, &contract, Lang::Ko).unwrap();
        assert_eq!(checked.refused.len(), 1, "the request copied whole is not a name");

        let good = parse_designs_checked(GOOD, &contract, Lang::En).unwrap();
        assert_eq!(good.designs.len(), 2);
        assert!(good.from_templates.is_empty() && good.refused.is_empty());
    }

    #[test]
    fn needs_are_read_with_the_user_s_words() {
        let n = Needs::read("우리 3명 팀이 쓸 고객 리뷰 요약, 개인정보가 있고 예산은 월 10만원, 결과는 슬랙으로");
        assert_eq!(n.budget.as_deref(), Some("10만원"));
        assert_eq!(n.privacy.as_deref(), Some("개인정보"));
        assert_eq!(n.team.as_deref(), Some("3명 팀"));
        assert_eq!(n.tools, vec!["Slack".to_string()]);
        assert!(n.speed.is_none() && n.accuracy.is_none());
        let n = Needs::read("Fast, accurate triage of support tickets for a team of 2, under $50 a month, into Notion");
        assert_eq!(n.budget.as_deref(), Some("$50"));
        assert_eq!(n.speed.as_deref(), Some("fast"));
        assert_eq!(n.accuracy.as_deref(), Some("accurate"));
        assert_eq!(n.team.as_deref(), Some("team of 2"));
        assert_eq!(n.tools, vec!["Notion".to_string()]);
        assert!(n.sources.is_empty(), "into Notion is where the result goes");
        // What the request reads from, and what it only delivers to.
        let n = Needs::read("pull last week's sales from our Postgres database and post a summary to Slack");
        assert_eq!(
            (n.tools.clone(), n.sources),
            (vec!["Slack".to_string(), "PostgreSQL".to_string()], vec!["PostgreSQL".to_string()])
        );
        assert_eq!(Needs::read("노션에 있는 회의록을 요약해서 슬랙으로 보내줘").sources, ["Notion"]);
        assert_eq!(Needs::read("watches our GitHub issues and posts a digest to our Notion wiki").sources, ["GitHub"]);
        // Said nothing of the direction: a repository or a database is read, a chat is written to.
        assert_eq!(Needs::read("a GitHub and Slack bot for our team").sources, ["GitHub"]);
        assert_eq!(Needs::read("깃허브랑 슬랙 연동 봇").sources, ["GitHub"]);
        assert_eq!(Needs::read("weekly report from BigQuery numbers").sources, ["BigQuery"]);
        // Said: sent to a tool that is usually read.
        assert!(Needs::read("save each day's summary to S3").sources.is_empty());
        assert!(Needs::read("요약 결과를 지라로 보내 줘").sources.is_empty());
        assert!(Needs::read("open a GitHub issue for every failed check").sources.is_empty());
        assert_eq!(Needs::read("I want to summarize GitHub issues every morning").sources, ["GitHub"]);
        assert_eq!(Needs::read("process the files in S3 nightly").sources, ["S3"]);
        let mut designs = fallback_designs("summarize sales", "Email", Lang::En);
        shape_for_needs(
            &mut designs,
            &Needs::read("pull sales from our Postgres database, then post to Slack"),
            Lang::En,
        );
        let chain: Vec<&str> = designs[0].agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(chain.first(), Some(&"PostgreSQL source"), "{chain:?}");
        assert_eq!(chain.last(), Some(&"Slack delivery"), "{chain:?}");
        assert_eq!(designs[0].agents.last().unwrap().description, "Sends the result to Slack.");
        assert!(Needs::read("build a news digest").is_empty());
        assert_eq!(Needs::read("build a news digest").subject, Some(("뉴스 기사", "news articles")));
        assert_eq!(Needs::read("간단한 뉴스 요약").complexity_cue.as_deref(), Some("간단"));
        assert_eq!(Needs::read("real-time log alerts").complexity_cue.as_deref(), Some("real-time"));
        assert_eq!(Needs::read("summarize news").complexity_cue, None);
        assert!(Needs::read("a costume party report").budget.is_none(), "cost inside costume is not a budget");
        // Something that must not leak is a privacy need; a memory leak is not.
        assert_eq!(
            Needs::read("a changelog for customers. Must not leak internal ticket numbers").privacy.as_deref(),
            Some("must not leak")
        );
        assert!(Needs::read("find memory leaks in our service logs").privacy.is_none());
        // A spreadsheet named as the file's form is the format, not a place to deliver to.
        assert!(Needs::read("매주 매출 데이터를 정리해서 엑셀로 팀장님께 메일 보내는 자동화").tools.is_empty());
        assert!(Needs::read("send the numbers as an Excel file every Monday").tools.is_empty());
        assert_eq!(Needs::read("매일 결과를 엑셀에 기록해 줘").tools, ["Excel"]);
        assert_eq!(Needs::read("add a row to our Google Sheets log for each order").tools, ["Google Sheets"]);
        assert_eq!(Needs::read("엑셀로 주간 보고서 만들어줘").subject, None, "Excel as the form is not what is read");
        assert_eq!(
            Needs::read("summarize the numbers in our Excel sheets").subject,
            Some(("스프레드시트", "spreadsheets"))
        );
    }

    #[test]
    fn stated_needs_change_agents_pros_cons_and_the_recommendation() {
        let plain = fallback_designs("summarize customer reviews", "Report", Lang::En);
        let contract = Contract {
            original_request: "summarize customer reviews; they hold personal data and the budget is $20 a month"
                .into(),
            goal: "Summarize customer reviews".into(),
            format: "Report".into(),
            ..Contract::default()
        };
        let shaped = fallback_designs_for_contract(&contract, Lang::En);
        assert_ne!(plain, shaped);
        assert!(!shaped[0].has_role("guard"));
        assert!(
            shaped[0].cons[0].contains("'privacy'") || shaped[0].cons[0].contains("personal data"),
            "{:?}",
            shaped[0].cons
        );
        assert!(shaped[1].has_role("guard") && shaped[2].has_role("guard"));
        assert!(shaped[0].pros[0].contains("'$20'"), "{:?}", shaped[0].pros);
        assert!(shaped[2].cons[0].contains("'$20'"), "{:?}", shaped[2].cons);
        assert!(shaped[1].agents.iter().all(|a| a.model != "large"));
        assert!(shaped[0].recommended, "a budget points at the simple design");

        let ko = Contract {
            original_request: "혼자 운영할 뉴스 요약을 빠르게, 결과는 노션에".into(),
            goal: "뉴스 요약".into(),
            ..Contract::default()
        };
        let shaped = fallback_designs_for_contract(&ko, Lang::Ko);
        assert!(shaped[0].pros[0].contains("'빠르게'"), "{:?}", shaped[0].pros);
        assert!(shaped[2].cons.iter().any(|c| c.contains("'혼자'")), "{:?}", shaped[2].cons);
        assert!(shaped.iter().all(|d| d.agents.last().is_some_and(|a| a.name == "Notion 전달")));
    }

    #[test]
    fn model_tiers_are_worded_in_the_discussion_language() {
        let cases = [
            ("small", Lang::Ko, "소형 모델"),
            ("large", Lang::Ko, "대형 모델"),
            ("large", Lang::En, "large model"),
            ("gpt-4o-mini", Lang::Ko, "gpt-4o-mini"),
            ("", Lang::Ko, ""),
        ];
        for (model, lang, want) in cases {
            assert_eq!(model_label(model, lang), want, "{model}");
        }
    }

    #[test]
    fn subjects_are_matched_as_words_not_substrings() {
        let cases = [
            ("weekly report on sales", "sales data collector"),
            // The source mentioned first is what is read; the rest is where the result goes.
            (
                "Every Monday, pull last week's sales from our Postgres database and email a summary",
                "sales data collector",
            ),
            ("export the db every night and email it to me", "database records collector"),
            ("summarize customer feedback", "input data collector"),
            ("review the repo's pull requests", "code changes collector"),
            // "reviews" as what the tool does to code, not customer reviews to read.
            ("Build a tool that reviews pull requests and posts comments on GitHub", "code changes collector"),
            // A meeting room is booked, not summed up.
            ("an agent that books meeting rooms from Slack", "bookings collector"),
            ("a chatbot that answers questions about our internal docs", "documents collector"),
            ("translate our app's strings into Japanese and Korean every release", "strings collector"),
            ("summarize our app reviews", "customer reviews collector"),
            ("scan our repos for secrets", "code changes collector"),
            ("export the db every night", "database records collector"),
            // "blog" is not "log".
            ("my blog posts", "blog posts collector"),
        ];
        for (request, want) in cases {
            assert_eq!(fallback_designs(request, "", Lang::En)[0].agents[0].name, want, "{request}");
        }
        let ko = [
            ("블로그 글 정리", "블로그 글 수집기"),
            ("서버 로그 분석", "로그 수집기"),
            ("경제뉴스요약", "뉴스 기사 수집기"),
            ("회의록을 요약해서 이메일로 보내줘", "회의록 수집기"),
            ("회의실 예약을 슬랙에서 받는 봇", "예약 수집기"),
            ("PR 코드 리뷰 자동화", "코드 변경 수집기"),
            ("매주 금요일에 팀 회고 내용을 정리해서 노션에 올려 줘", "회의록 수집기"),
            ("사내 문서에 대해 질문하면 답해 주는 챗봇", "문서 수집기"),
        ];
        for (request, want) in ko {
            assert_eq!(fallback_designs(request, "", Lang::Ko)[0].agents[0].name, want, "{request}");
        }
        assert_eq!(fallback_designs("weekly report on sales", "", Lang::En)[1].agents[2].name, "report writer");
        // The core step is named for what it does: a reply drafter, a router, a reviewer.
        let steps = [
            ("a bot that drafts replies to customer emails", "reply drafter"),
            ("triage incoming support tickets to the right team", "router"),
            ("proofread my blog posts before publishing", "reviewer"),
            ("grade student essays", "evaluator"),
            ("grade the students' assignments", "evaluator"),
            ("watch our GitHub issues and ping me on Slack when a bug is filed", "monitor"),
            ("plan a weekly newsletter from our blog posts", "editor"),
            ("Build a tool that reviews pull requests and posts comments on GitHub", "reviewer"),
            ("a chatbot that answers questions about our internal docs", "answerer"),
            ("every week I copy numbers from three spreadsheets into one report", "combiner"),
            ("write a short changelog for customers from our merged pull requests", "summarizer"),
        ];
        for (request, want) in steps {
            assert_eq!(fallback_designs(request, "", Lang::En)[0].agents[1].name, want, "{request}");
        }
        assert_eq!(fallback_designs("고객 메일에 답장 초안을 써 줘", "", Lang::Ko)[0].agents[1].name, "회신 담당");
        assert_eq!(fallback_designs("분기별 고객 평가를 분석해 줘", "", Lang::Ko)[0].agents[1].name, "분석 담당");
        let answerer = &fallback_designs("사내 위키 문서로 직원 질문에 답하는 챗봇", "", Lang::Ko)[0].agents[1];
        assert_eq!(answerer.description, "모은 문서를 바탕으로 질문에 답합니다.");
    }

    #[test]
    fn running_on_ones_own_hardware_puts_every_step_on_a_local_model() {
        for (base, feedback, lang) in [
            (
                fallback_designs("weekly sales email", "Email", Lang::En),
                "none of these, I want something that runs on my laptop without any cloud",
                Lang::En,
            ),
            (
                fallback_designs("주간 매출 메일", "이메일", Lang::Ko),
                "클라우드 없이 사내 서버에서 돌려 주세요",
                Lang::Ko,
            ),
            (
                fallback_designs("사내 위키 챗봇", "슬랙 메시지", Lang::Ko),
                "보안이 중요해서 외부 API는 못 써요",
                Lang::Ko,
            ),
            (
                fallback_designs("wiki assistant", "Slack message", Lang::En),
                "we can't use external APIs at all",
                Lang::En,
            ),
        ] {
            let local = refine_heuristic_for(&base, feedback, None, lang);
            // Every step that runs a model runs a local one; a delivery runs none.
            assert!(
                local.designs.iter().all(|d| d.agents.iter().all(|a| a.model == "local" || a.role == "publisher")),
                "{feedback}"
            );
            assert!(local.designs.iter().flat_map(|d| &d.agents).all(|a| a.role != "publisher" || a.model.is_empty()));
            assert!(local.changes.iter().any(|c| c.contains("llama.cpp")), "{:?}", local.changes);
            let critique = crate::engine::critique::heuristic_critique(&local.designs[1], Complexity::Medium, lang);
            assert!(
                critique.cost_concerns.iter().all(|c| !c.contains("per run") && !c.contains("예상 비용")),
                "{critique:?}"
            );
        }
        // A cloud named without "no" is no such wish.
        let base = fallback_designs("weekly sales email", "Email", Lang::En);
        let plain = refine_heuristic_for(&base, "make it cheaper", None, Lang::En);
        assert!(plain.designs.iter().all(|d| d.agents.iter().all(|a| a.model != "local")));
    }

    #[test]
    fn a_change_asked_of_one_design_goes_to_that_design_and_its_pointer_is_not_read_as_the_change() {
        let base = fallback_designs("weekly report on support tickets", "Report", Lang::En);
        let bigger = refine_heuristic_for(&base, "can you make the simple one use a bigger model?", Some(0), Lang::En);
        let core = |d: &DesignProposal| d.agents.iter().find(|a| a.role == "processor").map(|a| a.model.clone());
        assert_eq!(core(&bigger.designs[0]).as_deref(), Some("large"));
        assert_eq!(bigger.designs[0].agents[0].model, "small", "collecting stays on a small model");
        assert_ne!(bigger.designs[0].estimated_cost, base[0].estimated_cost);
        assert_eq!(bigger.designs[1..], base[1..], "the other designs stay as they were");
        assert_eq!(bigger.changes.len(), 1, "{:?}", bigger.changes);
        assert!(bigger.changes[0].contains("1. Simple Sequential Pipeline"), "{:?}", bigger.changes);
        assert_eq!(scaled_cost("~$0.01-0.03", 300), "~$0.03-0.09");

        let cheaper = refine_heuristic_for(&base, "the advanced one is too expensive", Some(2), Lang::En);
        assert_eq!(cheaper.designs[..2], base[..2]);
        assert!(cheaper.designs[2].agents.iter().all(|a| a.model != "large"));
        // Even if it costs more: a bigger model, not a cheaper one.
        let ko = fallback_designs("주간 고객 문의 보고서", "보고서", Lang::Ko);
        let bigger = refine_heuristic_for(&ko, "비용이 더 들어도 2번은 더 좋은 모델로 해 주세요", Some(1), Lang::Ko);
        assert!(bigger.designs[1].agents.iter().any(|a| a.model == "large"));
        assert_eq!(bigger.designs[0], ko[0]);
        assert!(bigger.changes[0].starts_with("2. "), "{:?}", bigger.changes);

        // "1 is too simple": more checking for it, not a simpler design; a step asked of 2 goes to 2.
        let sales = fallback_designs("매주 지난주 매출 데이터를 정리해서 엑셀로 메일 보내기", "스프레드시트", Lang::Ko);
        assert_eq!(sales[0].agents[1].name, "정리 담당");
        let thin = refine_heuristic_for(&sales, "1번은 너무 단순한 것 같아", Some(0), Lang::Ko);
        assert!(thin.designs[0].has_role("validator") && thin.designs[0].has_role("cross_checker"));
        assert_eq!(thin.designs[1..], sales[1..]);
        assert_eq!(thin.changes, ["1. 단순 순차 파이프라인에 검증 단계와 교차 검증을 더했습니다."]);
        let reviewed = refine_heuristic_for(&sales, "2번에 사람 검토 단계 넣어줘", Some(1), Lang::Ko);
        assert!(reviewed.designs[1].has_role("human_review"));
        assert!(!reviewed.designs[0].has_role("human_review") && !reviewed.designs[2].has_role("human_review"));
        let crossed = refine_heuristic_for(&sales, "2번은 검증을 더 강화해 주세요", Some(1), Lang::Ko);
        assert_eq!(crossed.changes, ["2. 검증 포함 표준 파이프라인에 교차 검증을 더했습니다."]);

        let noted = refine_heuristic_for(&base, "make the simple one sound friendlier", Some(0), Lang::En);
        assert!(noted.designs[0].description.contains("revised for"));
        assert_eq!(noted.designs[1..], base[1..]);
    }

    #[test]
    fn complexity_is_estimated_from_request_words() {
        let cases = [
            ("간단한 프로토타입", Complexity::Low),
            ("a quick personal script", Complexity::Low),
            ("뉴스 요약", Complexity::Medium),
            ("정확한 검증이 필요한 운영용 파이프라인", Complexity::Medium),
            ("simple but accurate", Complexity::Medium),
            ("대규모 실시간 분석", Complexity::High),
            ("enterprise multi-agent system", Complexity::High),
        ];
        for (text, want) in cases {
            assert_eq!(estimate_complexity(text), want, "{text}");
        }
    }

    #[test]
    fn a_step_asked_to_go_is_taken_out_not_added() {
        let en = fallback_designs("news digest", "Markdown document", Lang::En);
        let ko = fallback_designs("뉴스 요약", "마크다운", Lang::Ko);
        let steps = |r: &Refinement, role: &str| r.designs.iter().filter(|d| d.has_role(role)).count();
        assert!(en.iter().any(|d| d.has_role("validator")), "the base has a validator to take out");

        let dropped = refine_heuristic(&en, "drop the validator", Lang::En);
        assert_eq!(steps(&dropped, "validator"), 0, "{:?}", dropped.changes);
        assert_eq!(dropped.changes, ["Removed validator."]);
        let dropped = refine_heuristic(&ko, "검증 단계는 빼 주세요", Lang::Ko);
        assert_eq!(steps(&dropped, "validator"), 0, "{:?}", dropped.changes);
        assert!(dropped.changes[0].ends_with("단계를 뺐습니다."), "{:?}", dropped.changes);

        // No design has a human review: none gets one, and the change says so.
        let skipped = refine_heuristic(&en, "can it skip the human review?", Lang::En);
        assert_eq!(skipped.designs, en);
        assert_eq!(skipped.changes, ["None of the designs has a human review step; they stay as they are."]);

        // One request takes a step out and puts another in.
        for (feedback, lang, base) in [
            ("remove the validator and add a human review", Lang::En, &en),
            ("검증은 빼고 사람 검토를 넣어 주세요", Lang::Ko, &ko),
        ] {
            let both = refine_heuristic(base, feedback, lang);
            assert_eq!(steps(&both, "validator"), 0, "{feedback}: {:?}", both.changes);
            assert_eq!(steps(&both, "human_review"), 3, "{feedback}: {:?}", both.changes);
        }

        // By name: a step of the designs, never below two steps.
        let named = refine_heuristic(&ko, "요약 담당은 필요 없어요", Lang::Ko);
        assert!(named.designs.iter().all(|d| d.agents.iter().all(|a| a.name != "요약 담당")), "{:?}", named.changes);
        assert!(named.designs.iter().all(|d| d.agents.len() >= 2));
        // Asking for more checks still adds them; a removal beside another word of the kind
        // does not.
        let more = refine_heuristic(&en, "add more validation please", Lang::En);
        assert_eq!(steps(&more, "validator"), 3);
        let dropped = refine_heuristic(&en, "in fact, drop the validator", Lang::En);
        assert_eq!(steps(&dropped, "validator"), 0, "{:?}", dropped.changes);
    }

    #[test]
    fn heuristic_refinement_acts_on_feedback_themes() {
        let base = fallback_designs("news digest", "Markdown document", Lang::En);
        let cheaper = refine_heuristic(&base, "too expensive, make it cheaper", Lang::En);
        assert!(cheaper.designs.iter().all(|d| d.agents.iter().all(|a| a.model != "large")));
        assert_eq!(cheaper.designs[2].estimated_cost, "~$0.08-0.15");
        assert!(cheaper.designs[0].recommended);
        assert_eq!(cheaper.changes.len(), 1);

        let checked = refine_heuristic(&base, "검증을 더 강화해 주세요", Lang::Ko);
        assert!(checked.designs.iter().all(|d| d.has_role("validator")));
        assert!(checked.designs[1].has_role("cross_checker"));

        let simpler = refine_heuristic(&base, "simpler please, fewer agents", Lang::En);
        assert!(!simpler.designs[2].has_role("synthesizer"));
        assert_eq!(simpler.designs[2].complexity, Complexity::Medium);
        // "too complex" said in Korean, or as "overkill", asks for the same.
        for feedback in ["3번은 너무 복잡해요", "the advanced one is overkill"] {
            let simpler = refine_heuristic(&base, feedback, Lang::En);
            assert!(!simpler.designs[2].has_role("synthesizer"), "{feedback}");
            assert!(!simpler.designs[0].description.contains(feedback), "{feedback} is read, not quoted");
        }

        let table = refine_heuristic(&base, "결과는 표로 주세요", Lang::Ko);
        assert!(table.designs[0].agents.last().unwrap().name.contains('표'));

        let unknown = refine_heuristic(&base, "use purple branding", Lang::En);
        assert!(unknown.designs[0].description.contains("purple branding"));
        assert_eq!(unknown.designs.len(), 3);
        // A criterion is judged against, not written into every design.
        let judged = refine_heuristic(&base, "it's good if the top 5 products are in it", Lang::En);
        assert_eq!(judged.designs, base);
        assert_eq!(
            judged.changes,
            ["Kept the designs and judged them again against the new acceptance criterion: the top 5 products are in it"]
        );
        // A database named in the request is named in its step.
        let tools = Needs::read("pull last week's sales from our Postgres database").tools;
        assert_eq!(tools, ["PostgreSQL"]);
        // Moved from one to the other: read from the first, sent to the second.
        let moved = Needs::read("plan a migration of our app database from MySQL to Postgres");
        assert_eq!((moved.tools.len(), moved.sources), (2, vec!["MySQL".to_string()]));
    }

    #[test]
    fn a_bot_that_answers_questions_of_a_kind_answers_them() {
        let designs = fallback_designs(
            "build a slack bot that answers HR questions from our policy docs",
            "Chat message",
            Lang::En,
        );
        assert_eq!(designs[0].agents[1].name, "answerer", "{:?}", designs[0].agents);
        assert!(designs[0].description.contains("answer questions about them"), "{}", designs[0].description);
    }

    #[test]
    fn jira_tickets_are_issues_and_comments_are_named() {
        let jira = fallback_designs("summarize our Jira tickets into a weekly report", "Report", Lang::En);
        assert_eq!(jira[0].agents[0].name, "issues collector");
        let comments = fallback_designs("유튜브 댓글 분석해서 주간 리포트 만들어줘", "보고서", Lang::Ko);
        assert_eq!(comments[0].agents[0].name, "댓글 수집기");
    }

    #[test]
    fn a_team_report_reads_the_teams_updates_and_says_report_once() {
        let designs = fallback_designs("I want to automate our weekly team report", "Report", Lang::En);
        assert_eq!(designs[0].agents[0].name, "status updates collector");
        assert_eq!(designs[1].description, "Collect status updates, validate them, and write them up as a report.");
        let ko = fallback_designs("매주 팀 보고를 자동으로 만들고 싶어", "보고서", Lang::Ko);
        assert_eq!(ko[1].description, "업무 현황을 모은 뒤 검증을 거쳐 보고서로 정리합니다.");
    }

    #[test]
    fn recordings_are_transcribed_first_and_weather_and_prices_are_named() {
        let designs = fallback_designs("회의 녹음 파일을 텍스트로 바꾸고 요약해서 노션에 올려줘", "마크다운", Lang::Ko);
        for d in &designs {
            assert_eq!(d.agents[0].name, "녹음 파일 수집기", "{:?}", d.agents);
            assert_eq!((d.agents[1].name.as_str(), d.agents[1].role.as_str()), ("음성 인식기", "transcriber"));
        }
        let designs = fallback_designs("turn our podcast episodes into show notes", "Markdown", Lang::En);
        assert!(designs.iter().all(|d| d.agents[1].role == "transcriber"), "{designs:?}");
        let designs = fallback_designs("summarize the meeting notes every week", "Markdown", Lang::En);
        assert!(designs.iter().all(|d| d.agents.iter().all(|a| a.role != "transcriber")), "{designs:?}");
        let weather = fallback_designs("매일 아침 9시에 날씨 알려주는 카톡 봇", "메신저 메시지", Lang::Ko);
        assert_eq!(weather[0].agents[0].name, "날씨 정보 수집기");
        let prices = fallback_designs("track competitor prices and alert me when they drop", "Chat message", Lang::En);
        assert_eq!(prices[0].agents[0].name, "prices collector");
    }

    #[test]
    fn a_result_sent_by_email_ends_in_a_step_that_sends_it() {
        let contract = Contract {
            original_request: "매주 월요일 아침에 지난주 매출 데이터를 엑셀로 정리해서 팀장님께 메일로 보내고 싶어"
                .into(),
            goal: "매출 데이터 정리".into(),
            format: "스프레드시트".into(),
            ..Contract::default()
        };
        let designs = fallback_designs_for_contract(&contract, Lang::Ko);
        for d in &designs {
            let last = d.agents.last().expect("steps");
            assert_eq!((last.name.as_str(), last.role.as_str()), ("메일 발송", "publisher"), "{:?}", d.agents);
            assert!(last.model.is_empty(), "a delivery runs no model");
        }
        let contract = Contract {
            original_request: "I want a daily digest of Hacker News posts about Rust, emailed to me every morning"
                .into(),
            goal: "Rust news digest".into(),
            format: "Email".into(),
            ..Contract::default()
        };
        let designs = fallback_designs_for_contract(&contract, Lang::En);
        assert!(designs.iter().all(|d| d.agents.last().is_some_and(|a| a.name == "Email delivery")), "{designs:?}");
        // Emails read are not sent; a mailbox named as the destination is not sent to twice.
        assert!(!Needs::read("summarize my emails every morning").emailed);
        assert!(!Needs::read("고객 문의 메일을 분류해 줘").emailed);
        assert!(Needs::read("send the report to my boss by email").emailed);
        let contract = Contract {
            original_request: "매주 보고서를 지메일로 보내 줘".into(),
            goal: "주간 보고서".into(),
            format: "보고서".into(),
            ..Contract::default()
        };
        for d in fallback_designs_for_contract(&contract, Lang::Ko) {
            let sent: Vec<&str> = d.agents.iter().filter(|a| a.role == "publisher").map(|a| a.name.as_str()).collect();
            assert_eq!(sent, ["Gmail 전달"], "{:?}", d.agents);
        }
    }

    #[test]
    fn a_new_format_rewrites_the_writing_step_and_the_descriptions_not_the_delivery() {
        let contract = Contract {
            original_request: "매주 팀 소식을 요약해서 슬랙으로 보내주는 봇".into(),
            goal: "팀 소식 요약".into(),
            format: "메신저 메시지".into(),
            ..Contract::default()
        };
        let base = fallback_designs_for_contract(&contract, Lang::Ko);
        assert!(base.iter().all(|d| d.agents.last().is_some_and(|a| a.name == "Slack 전달")), "{base:?}");
        let json = refine_heuristic(&base, "JSON으로 바꿔 주세요", Lang::Ko);
        for (before, after) in base.iter().zip(&json.designs) {
            assert_eq!(after.agents.last().unwrap().name, "Slack 전달", "the delivery stays");
            assert_eq!(after.agents.len(), before.agents.len());
            assert!(after.agents.iter().any(|a| a.name == "JSON 작성기"), "{:?}", after.agents);
            assert!(!after.agents.iter().any(|a| a.name.contains("메신저")), "{:?}", after.agents);
            assert!(
                after.description.contains("JSON으로") && !after.description.contains("메신저"),
                "{}",
                after.description
            );
        }
        // The result goes to Notion now: the delivery step says so, once.
        let notion = refine_heuristic(&base, "노션 페이지로 바꿔 주세요", Lang::Ko);
        for d in &notion.designs {
            let publishers: Vec<&str> =
                d.agents.iter().filter(|a| a.role == "publisher").map(|a| a.name.as_str()).collect();
            assert_eq!(publishers, ["Notion 전달"], "{:?}", d.agents);
            assert!(d.agents.iter().any(|a| a.name == "마크다운 작성기"), "{:?}", d.agents);
        }
        assert!(notion.changes.iter().any(|c| c == "결과를 Notion에 보내도록 바꿨습니다."), "{:?}", notion.changes);
        let en = fallback_designs("news digest", "Chat message", Lang::En);
        let teams = refine_heuristic(&en, "send it to Teams instead", Lang::En);
        assert!(teams.designs.iter().all(|d| d.agents.last().is_some_and(|a| a.name == "Teams delivery")));
        let markdown = refine_heuristic(&en, "make it a markdown document instead", Lang::En);
        assert!(
            markdown
                .designs
                .iter()
                .all(|d| d.description.contains("a Markdown document") && !d.description.contains("a chat message")),
            "{:?}",
            markdown.designs
        );
    }

    #[test]
    fn expensive_models_are_recognised() {
        let cases = [
            ("gpt-4o", true),
            ("gpt-4o-mini", false),
            ("claude-3-opus", true),
            ("claude-3-haiku", false),
            ("large", true),
            ("small", false),
            ("llama3", false),
        ];
        for (model, want) in cases {
            assert_eq!(is_expensive_model(model), want, "{model}");
        }
    }
}
