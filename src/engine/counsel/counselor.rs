//! The Counselor: the minimal prompt of seed 004 (base, part, task title and target, module
//! guideline summary; supervision below 7, a module change, a part transition and a crisis
//! note only when they apply) and a template-based heuristic reply for sessions with no key.

use super::crisis::CrisisKind;
use super::module::{Module, ModuleChange};
use super::state::{Emotion, UserState};
use super::supervisor::SupervisorFeedback;
use super::task::{Part, Task, Topic, NAME_AND_PURPOSE, RAPPORT, SUMMARY, WELCOME};
use crate::engine::grounding::system_prompt;
use crate::engine::lang::{clip, Lang};
use crate::engine::prompt::{Prompt, Turn};
use crate::engine::prompt_text::{self, PromptText};
use crate::engine::words::WordList;

/// Conversation turns the counselor sees (the rest of the state is in the prompt).
pub const HISTORY_TURNS: usize = 12;

/// Everything the counselor prompt may carry this turn; the builder decides what goes in.
#[derive(Debug, Clone, Copy)]
pub struct CounselorContext<'a> {
    /// The session language.
    pub lang: Lang,
    /// The current part.
    pub part: Part,
    /// The current task (title and target go in, never its description).
    pub task: Option<&'a Task>,
    /// The module for this reply (its guideline summary goes in).
    pub module: Module,
    /// The latest supervision; included only when its score is below 7.
    pub feedback: Option<&'a SupervisorFeedback>,
    /// The module change of this turn; included only when there is one.
    pub module_change: Option<&'a ModuleChange>,
    /// The part transition of this turn (from, to); included only on a transition.
    pub part_transition: Option<(Part, Part)>,
    /// A crisis the session recorded; included once recorded.
    pub crisis: Option<CrisisKind>,
}

/// The counselor's system prompt, section by section.
pub fn counselor_system(ctx: &CounselorContext) -> String {
    let lang = ctx.lang;
    let base = match lang {
        Lang::Ko => PromptText::CounselorBaseKo,
        Lang::En => PromptText::CounselorBaseEn,
    };
    let mut out = String::from(prompt_text::text(base));
    let heading = |ko: &str, en: &str| format!("\n\n## {}\n", lang.pick(ko, en));
    out.push_str(&heading("현재 Part", "Current part"));
    out.push_str(&format!("{} — {}", ctx.part.label(lang), ctx.part.goal(lang)));
    if let Some(task) = ctx.task {
        out.push_str(&heading("현재 Task", "Current task"));
        out.push_str(&format!("{}\n{}: {}", task.title, lang.pick("목표", "Target"), task.target));
    }
    out.push_str(&heading("Module", "Module"));
    out.push_str(&format!("{}\n{}", ctx.module.name(lang), ctx.module.guideline(lang)));
    if let Some(feedback) = ctx.feedback.filter(|f| f.needs_attention()) {
        out.push_str("\n\n");
        out.push_str(&feedback.format_for_counselor(lang));
    }
    if let Some(change) = ctx.module_change {
        out.push_str("\n\n");
        out.push_str(&change.notice(lang));
    }
    if let Some((from, to)) = ctx.part_transition {
        out.push_str("\n\n");
        out.push_str(&part_transition_notice(from, to, lang));
    }
    if let Some(kind) = ctx.crisis {
        out.push_str(&heading("안전 메모", "Safety note"));
        out.push_str(&match lang {
            Lang::Ko => format!(
                "이 세션에서 사용자가 {}을 했고, 고정된 안전 안내({})가 전달되었습니다. 안전을 먼저 살피고, 억지로 다음 주제로 넘어가지 마세요.",
                kind.label(lang),
                if kind == CrisisKind::Abuse { "112, 1366, 1388" } else { "109, 1577-0199, 112, 119" }
            ),
            Lang::En => format!(
                "Earlier in this session the user used {}, and the fixed safety message (crisis lines) was shown. Check on their safety first; do not push on to the next topic.",
                kind.label(lang)
            ),
        });
    }
    out
}

/// The notice for a part transition, in the same form as the module-change notice.
pub fn part_transition_notice(from: Part, to: Part, lang: Lang) -> String {
    let [title, previous, new] = match lang {
        Lang::Ko => ["=== Part 전환 ===", "이전", "새로운"],
        Lang::En => ["=== Part transition ===", "Previous", "New"],
    };
    format!("{title}\n{previous}: {}\n{new}: {}\n→ {}", from.label(lang), to.label(lang), to.goal(lang))
}

/// The counselor prompt: the system sections and the last turns of the conversation.
pub fn counselor_prompt(ctx: &CounselorContext, history: &[Turn]) -> Prompt {
    let start = history.len().saturating_sub(HISTORY_TURNS);
    let system = system_prompt("counselor", &counselor_system(ctx), ctx.lang);
    Prompt {
        system,
        turns: history[start..].to_vec(),
        json_output: false,
        max_tokens: 600,
        temperature: 0.7,
        tools: Vec::new(),
    }
}

/// What the heuristic reply may mention besides this turn's context.
#[derive(Debug, Clone, Default)]
pub struct ReplyNotes<'a> {
    /// The user's name, if given.
    pub name: Option<&'a str>,
    /// Topics talked about so far.
    pub topics: &'a [Topic],
    /// Goals the user set.
    pub goals: &'a [String],
    /// The user message count (varies the wording).
    pub turn: u32,
    /// The previous turn was a crisis: check in first.
    pub check_in: bool,
    /// The user's name is not known and was never asked for (the first message said why
    /// they came, so the name-and-purpose question was skipped): ask once, gently.
    pub ask_name: bool,
    /// This message declined to give a name: the reply says that is fine, and asks no more.
    pub name_declined: bool,
    /// This message said no to the question about thoughts of suicide: the reply thanks the
    /// user for answering before it goes on.
    pub safety_denied: bool,
    /// An idea the user offered earlier in the session, which the goal question takes up.
    pub idea: Option<&'a str>,
    /// This message made that idea a plan while exploring: it is the goal now.
    pub committed: bool,
    /// This message gave the user's name for the first time.
    pub name_given: bool,
    /// This message answers the question what the user has tried or thought of trying.
    pub answers_tried: bool,
    /// This message answers the question what would help an idea and what might get in its way.
    pub answers_obstacles: bool,
}

/// The question that takes up an idea the user offers: what would help, what might get in the way.
pub fn asked_about_obstacles(lang: Lang) -> &'static str {
    lang.pick(
        "그걸 해 본다면 무엇이 도움이 되고, 무엇이 걸림돌이 될 것 같으세요?",
        "If you tried it, what would help, and what might get in the way?",
    )
}

/// The question that follows "what should I do?": what the user has tried or thought of.
pub fn asked_what_was_tried(lang: Lang) -> &'static str {
    lang.pick("지금까지 해 보셨거나 떠올려 본 방법이 있으세요?", "What have you already tried, or thought of trying?")
}

/// The first message of a session: a welcome that says what this is (an AI conversation
/// partner, not a licensed counselor) and, with no key, that it is the simple no-key partner.
pub fn opening(lang: Lang, no_key: bool) -> String {
    let mut out = String::from(lang.pick(
        "안녕하세요, 와 주셔서 반가워요. 저는 AI 대화 상대이고, 자격을 갖춘 상담사는 아니에요.",
        "Hello, I'm glad you're here. I'm an AI conversation partner, not a licensed counselor.",
    ));
    if no_key {
        out.push(' ');
        out.push_str(lang.pick(
            "지금은 API 키 없이 정해진 규칙으로 답하는 간단한 대화 상대로 동작하고 있어요.",
            "Right now I'm the simple no-key partner: I answer with fixed rules, without a language model.",
        ));
    }
    out.push(' ');
    out.push_str(lang.pick(
        "편하게 인사하시거나, 오늘 하고 싶은 이야기를 들려주세요.",
        "Say hello, or tell me what you'd like to talk about today.",
    ));
    out
}

fn pick<'a>(options: &[&'a str], turn: u32) -> &'a str {
    options[turn as usize % options.len()]
}

fn pick_pair<'a>(options: &[(&'a str, &'a str)], turn: u32) -> (&'a str, &'a str) {
    options[turn as usize % options.len()]
}

/// A reply with no LLM: reflects the user's words and feeling, then asks what the module
/// and task call for; wording varies with the turn.
pub fn heuristic_reply(ctx: &CounselorContext, user_text: &str, state: &UserState, notes: &ReplyNotes) -> String {
    let lang = ctx.lang;
    let ko = lang == Lang::Ko;
    let wants_advice = asks_advice(user_text);
    let heard = wants_to_be_heard(user_text);
    let mut parts: Vec<String> = Vec::new();
    if notes.safety_denied {
        parts.push(super::safety::thanks_for_answer(lang).into());
    }
    // "yes I'm safe right now, he's out": the check-in is answered already.
    let says_safe = notes.check_in && says_safe(user_text);
    // "he hit me again and I'm scared to go home", after someone harming the user was told.
    let unsafe_home = ctx.crisis == Some(CrisisKind::Abuse) && fears_going_home(user_text);
    if says_safe {
        parts.push(lang.pick("지금은 안전하시다니 다행이에요.", "I'm glad you're safe right now.").into());
    } else if unsafe_home {
        parts.push(
            lang.pick(
                "안전하다고 느껴지지 않는 곳으로 돌아가지 않으셔도 돼요. 1366(24시간)에서 오늘 머물 안전한 곳을 함께 찾아 줄 수 있고, \
                 위험이 급하면 112에 바로 연락해 주세요.",
                "You don't have to go back somewhere you don't feel safe. A domestic violence hotline (1366 in Korea, 24 h, or your \
                 local one) can help you find a safe place to stay tonight, and if you're in danger, call your local emergency number.",
            )
            .into(),
        );
    } else if notes.check_in {
        parts.push(
            if ctx.crisis == Some(CrisisKind::Abuse) {
                lang.pick(
                    "먼저, 지금은 안전한 곳에 계신지 궁금해요. 위험하면 112에 바로 연락해 주세요.",
                    "First, I want to check that you're somewhere safe right now. If you're in danger, please call your local emergency number.",
                )
            } else {
                lang.pick(
                    "먼저, 지금은 안전하신지 궁금해요. 위험하다고 느끼면 109나 112, 119에 바로 연락해 주세요.",
                    "First, I want to check that you're safe right now. If you feel in danger, please call your local emergency number.",
                )
            }
            .into(),
        );
    }
    // "how do I clear the npm cache?": the chat mode's kind of question, pointed there.
    if !notes.check_in && !notes.safety_denied && crate::engine::chat::nokey::is_command_question(user_text) {
        return lang
            .pick(
                "명령어에 관한 질문은 채팅 모드가 답해요. `/mode chat`을 입력하면 바뀌어요. 여기서는 마음에 관한 이야기를 함께 나눠요. 오늘 어떤 이야기를 나누고 싶으세요?",
                "Questions about commands are for the chat mode: typing `/mode chat` switches to it. Here I'm a conversation partner; what would you like to talk about today?",
            )
            .into();
    }
    // "are you a real person?", "약 끊어도 될까요?": what this is not, said plainly and first, in
    // place of an echo.
    let boundary = super::boundary::asked(user_text);
    if let Some(b) = boundary {
        parts.push(b.note(lang).into());
    }
    // "저는 준호라고 해요" to the question for the name: greeted by it first, whatever comes next
    // (the name-and-purpose task's own question greets, and so does the rapport question).
    let task_id = ctx.task.map(|t| t.id.as_str()).unwrap_or("");
    if let Some(name) = notes.name.filter(|_| notes.name_given && !matches!(task_id, NAME_AND_PURPOSE | RAPPORT)) {
        parts.push(match lang {
            Lang::Ko => format!("{name}님, 반가워요."),
            Lang::En => format!("Nice to meet you, {name}."),
        });
    }
    // The summary says "오늘 나눈 이야기를 정리해 볼게요" (let me sum up today) itself: the move to
    // Closing is not announced a second time before it.
    let sums_up = matches!(ctx.module, Module::Summarizing) && ctx.task.is_some_and(|t| t.id == SUMMARY);
    // A safety line is not followed by "let's go a little deeper".
    if let Some((_, to)) = ctx.part_transition.filter(|(_, to)| !(unsafe_home || *to == Part::Closing && sums_up)) {
        parts.push(
            match to {
                Part::Exploration => lang.pick("이제 조금 더 깊이 이야기해 볼게요.", "Let's go a little deeper now."),
                Part::Closing => {
                    lang.pick("이제 오늘 대화를 정리해 볼게요.", "Let's start pulling today's conversation together.")
                }
                _ => lang.pick("오늘 대화는 여기서 마무리할게요.", "We'll close today's conversation here."),
            }
            .into(),
        );
    }
    // "잘 모르겠어요", "I'm not sure": not knowing is answered as that, with an easier question,
    // not echoed, nor reflected as a feeling ("it makes sense to feel that way") or a refusal.
    let unsure = ctx.part != Part::Closing && is_unsure(user_text);
    // "I think it's all my fault": met as blame the user puts on themselves, not echoed and
    // passed over for the task's next question.
    let self_blame = ctx.part == Part::Exploration
        && !unsure
        && matches!(ctx.module, Module::InformationGathering | Module::EmpathicReflection)
        && (blames_self(user_text) || judges_self(user_text));
    // "잘한 건지 모르겠어요", "did I make the right choice?": a decision second-guessed, met as that.
    let second_guess = ctx.part == Part::Exploration
        && !self_blame
        && matches!(ctx.module, Module::InformationGathering | Module::EmpathicReflection)
        && doubts_decision(user_text);
    let quote = clip(without_introduction(without_greeting(user_text.trim()), notes.name), 40);
    // "고마워요" after the summary thanks the counselor; it does not say something got better.
    // 고마워/고맙: thank you; 감사: thanks
    let thanks = WordList("thanks|thank you|thx|고마워|고마웠|고맙|감사")
        .any(|w| crate::engine::case::lower(user_text).contains(w));
    // Echoing a bare "hi", "네" or "I need help" sounds mechanical, a thanks ("thanks, that helps") is
    // answered, not quoted, and a name withheld is only acknowledged; echo only what carries
    // content.
    let thanks_only = thanks && is_short(user_text);
    // "can we talk about something else": answered, not quoted. 다른 얘기/다른 이야기/다른 주제/화제를
    // 바꿔: another subject, change the subject.
    let changes_subject = WordList(
        "something else|another topic|different topic|change the subject|talk about other|다른 얘기|다른 이야기|다른 주제|화제를 바꿔|화제 바꿔",
    )
    .any(|w| crate::engine::case::lower(user_text).contains(w));
    let worth_echoing = !notes.name_declined
        && !says_safe
        && !unsafe_home
        && !thanks_only
        && !changes_subject
        && !notes.safety_denied
        && boundary.is_none()
        && !wants_advice
        && !heard
        && !unsure
        && !self_blame
        && !second_guess
        && quote.chars().count() >= 8
        && (ko || quote.split_whitespace().count() >= 4);
    // `thanked`: the reply thanks the user elsewhere already ("Thank you for sharing this with
    // me"), and one thanks is enough.
    let echo = |thanked: bool| {
        if !worth_echoing {
            return String::new();
        }
        match (lang, notes.turn % 3) {
            (Lang::Ko, 0) => format!("“{quote}”라고 하셨네요."),
            (Lang::Ko, 1) => format!("“{quote}”라고 말씀해 주셨어요."),
            (Lang::Ko, _) => format!("“{quote}” — 그 말씀을 잘 들었어요."),
            (Lang::En, 0) => format!("You said “{quote}”."),
            (Lang::En, 1) => format!("I hear you: “{quote}”."),
            (Lang::En, _) if thanked => format!("“{quote}” — I hear you."),
            (Lang::En, _) => format!("“{quote}” — thank you for putting that into words."),
        }
    };
    let feeling = match state.emotion {
        Emotion::Positive if thanks => {
            lang.pick("저도 이야기 나눠 주셔서 고마워요.", "You're welcome; thank you for talking with me.").to_string()
        }
        // "팀장님이 매일 소리를 지르고 모욕적인 말을 해요": no feeling named, but how the user is
        // treated is met before anything is asked.
        Emotion::Neutral if mistreated(user_text) => lang
            .pick(
                "그런 말과 대우를 계속 받는 건 누구에게도 견디기 힘든 일이에요.",
                "Being treated like that, again and again, would wear anyone down.",
            )
            .to_string(),
        // "직장 상사가 제 성과를 가로챘어요": one's work passed off as someone else's.
        Emotion::Neutral if credit_taken(user_text) => lang
            .pick(
                "애써 한 일을 다른 사람이 자기 것처럼 가져가면 억울하고 속상할 수밖에 없어요.",
                "Having your work passed off as someone else's is unfair; it makes sense that it stings.",
            )
            .to_string(),
        Emotion::Neutral => String::new(),
        // "요즘 너무 외로워요": loneliness is named as itself, not as sadness in general (외로: lonely).
        Emotion::Sad
            if WordList("lonely|loneliness|외로").any(|w| crate::engine::case::lower(user_text).contains(w)) =>
        {
            lang.pick("많이 외로우셨겠어요.", "That sounds really lonely.").to_string()
        }
        emotion => emotion.reflection(lang).to_string(),
    };
    let topic_text = topics_text(notes.topics, lang);
    let t = notes.turn;
    // "I'd rather not say" to the question for the name withholds a name, not the talk: the
    // task's own question follows, not the resistance module's "that may be hard to talk about".
    // "I want to sleep better" on a task planned for the resistance earlier: this message does
    // not resist and names what it is about, so it is asked about.
    let module = match ctx.module {
        Module::ResistanceHandling if notes.name_declined => Module::InformationGathering,
        Module::ResistanceHandling
            if ctx.task.is_some_and(|t| t.module_hint == Module::ResistanceHandling)
                && !state.resistance
                && !super::task::topics_in(user_text).is_empty() =>
        {
            Module::InformationGathering
        }
        module => module,
    };
    let body: String = match module {
        _ if unsure => pick(
            if ko {
                &[
                    "잘 모르셔도 괜찮아요. 바로 답이 떠오르지 않을 때도 있어요. 그럼 조금 쉽게 물어볼게요. 요즘 하루 중 가장 힘든 때는 언제인가요?",
                    "괜찮아요, 꼭 지금 답하지 않으셔도 돼요. 대신 이건 어떨까요? 요즘 조금이라도 나았던 순간이 있었나요?",
                ]
            } else {
                &[
                    "It's okay not to know; an answer doesn't always come right away. Let me ask it more simply: when in your day is it hardest lately?",
                    "That's fine; you don't have to answer now. How about this instead: was there a moment lately when things felt a little better?",
                ]
            },
            t,
        )
        .into(),
        // "I feel stupid for still caring", "제가 이기적인 건가 싶어요": a verdict on oneself, met as one.
        _ if second_guess => pick(
            if ko {
                &[
                    "큰 결정을 내린 뒤에 마음이 흔들리는 건 자연스러운 일이에요. 그때 그렇게 결정하게 된 이유를 함께 떠올려 볼까요?",
                    "지금 돌아보면, 그 결정에서 가장 마음에 걸리는 부분은 무엇인가요?",
                ]
            } else {
                &[
                    "It's natural to second-guess a big decision afterwards. Shall we look back at what made you decide it then?",
                    "Looking back now, what part of that decision weighs on you the most?",
                ]
            },
            t,
        )
        .into(),
        _ if self_blame && !blames_self(user_text) => pick(
            if ko {
                &[
                    "스스로를 꽤 엄하게 평가하고 계신 것 같아요. 그런 마음이 드는 데에는 보통 이유가 있어요. 어떤 점 때문에 자신을 그렇게 보게 되세요?",
                    "자신에게 많이 엄격하신 것 같아요. 친한 친구가 같은 말을 한다면, 그 친구에게는 뭐라고 말해 주고 싶으세요?",
                ]
            } else {
                &[
                    "That's a harsh thing to say about yourself. There's usually a reason we end up judging ourselves like that: what makes you see yourself that way?",
                    "You're being very hard on yourself. If a close friend said the same about themselves, what would you want to tell them?",
                ]
            },
            t,
        )
        .into(),
        _ if self_blame => pick(
            if ko {
                &[
                    "모든 걸 스스로의 탓으로 돌리고 계신 것 같아요. 그렇게 느끼게 된 데에는 이유가 있을 거예요. 어떤 점 때문에 다 본인 잘못이라고 느끼세요?",
                    "자신에게 많이 엄격하신 것 같아요. 친한 친구가 같은 말을 한다면, 그 친구에게는 뭐라고 말해 주고 싶으세요?",
                ]
            } else {
                &[
                    "It sounds like you're putting all of the blame on yourself. There's usually a reason it feels that way: what makes it seem like it's all on you?",
                    "You're being very hard on yourself. If a close friend said the same thing to you, what would you want to tell them?",
                ]
            },
            t,
        )
        .into(),
        Module::ResistanceHandling => pick(
            if ko {
                &[
                    "말하기 어려운 이야기일 수 있어요. 지금 다 말하지 않으셔도 괜찮아요. 오늘은 어떤 이야기부터 하면 편하실까요?",
                    "억지로 꺼내지 않으셔도 돼요. 제 질문이 부담스러우셨다면 말씀해 주세요. 지금 가장 하고 싶은 이야기는 무엇인가요?",
                ]
            } else {
                &[
                    "That may be hard to talk about, and you don't have to say it all now. What would feel easier to start with today?",
                    "You don't have to force it. If my questions felt like too much, tell me. What would you most like to talk about right now?",
                ]
            },
            t,
        )
        .into(),
        Module::EmpathicReflection => {
            // (a word that validates the feeling, the question); the word is left out when the
            // feeling was already named ("화가 나고 답답하실 만해요." then "충분히 그렇게 느끼실 만해요.")
            let (validation, question) = pick_pair(
                if ko {
                    &[
                        ("그런 상황이라면 마음이 무거울 수밖에 없을 것 같아요.", "그때 어떤 마음이 드셨는지 조금 더 들려주실 수 있을까요?"),
                        ("", "그 마음을 혼자 안고 계셨던 것 같아요. 그 감정이 가장 크게 느껴지는 때는 언제인가요?"),
                        ("충분히 그렇게 느끼실 만해요.", "그 일이 요즘 생활에는 어떤 영향을 주고 있나요?"),
                    ]
                } else {
                    &[
                        ("Anyone in that situation would feel weighed down.", "Could you tell me a bit more about how it felt?"),
                        ("", "It sounds like you've been holding this on your own. When does that feeling get strongest?"),
                        ("It makes sense to feel that way.", "How has it been affecting your days lately?"),
                    ]
                },
                t,
            );
            if feeling.is_empty() && !validation.is_empty() {
                format!("{validation} {question}")
            } else {
                question.to_string()
            }
        }
        Module::Summarizing if task_id == SUMMARY => summary_line(notes, lang),
        Module::Summarizing => match lang {
            Lang::Ko => format!(
                "지금까지 {topic_text}에 대해 이야기해 주셨어요. 이 중에서 오늘 가장 붙잡고 싶은 한 가지는 무엇일까요?"
            ),
            Lang::En => format!(
                "So far you've talked about {topic_text}. Of all this, what is the one thing you most want to focus on today?"
            ),
        },
        Module::GoalSetting => pick(
            if ko {
                &[
                    "이번 주에 해 볼 수 있는 작은 행동 하나를 정해 보면 어떨까요? 어떤 걸 해 보고 싶으세요?",
                    "아주 작아도 괜찮아요. 내일 당장 해 볼 수 있는 한 가지가 있다면 무엇일까요?",
                ]
            } else {
                &[
                    "How about choosing one small thing to try this week? What would you like to try?",
                    "It can be very small. If there were one thing you could try tomorrow, what would it be?",
                ]
            },
            t,
        )
        .into(),
        Module::Closing => closing_line(notes, lang),
        Module::RapportBuilding if task_id == WELCOME => lang
            .pick(
                "이야기를 시작해 주셔서 고마워요. 여기서는 편하게 말씀하셔도 괜찮아요. 요즘 어떻게 지내고 계세요?",
                "Thank you for starting. You can speak freely here. How have you been lately?",
            )
            .into(),
        // "I've been really stressed at work lately": what they came with is asked about, not
        // how their days have been.
        // "my dog died two weeks ago" after the name was given: what they came with, not the
        // question for it again.
        Module::RapportBuilding | Module::InformationGathering
            if (task_id == RAPPORT || (task_id == NAME_AND_PURPOSE && notes.name.is_some() && !notes.name_given))
                && !super::task::topics_in(user_text).is_empty() =>
        {
            topic_opening(super::task::topics_in(user_text)[0], lang)
        }
        Module::RapportBuilding | Module::InformationGathering if task_id == RAPPORT => pick(
            if ko {
                &[
                    "이렇게 이야기해 주셔서 고마워요. 요즘 하루하루는 어떻게 보내고 계세요?",
                    "천천히 말씀하셔도 괜찮아요. 요즘 마음이 가장 많이 쓰이는 일은 무엇인가요?",
                ]
            } else {
                &[
                    "Thank you for sharing this with me. How have your days been going lately?",
                    "Take your time. What has been on your mind the most lately?",
                ]
            },
            t,
        )
        .into(),
        // "hi, I'm Sam": the name is already given, so only the purpose is asked.
        // "hello?" again after the question for the name and purpose: the question is not asked
        // word for word a second time.
        Module::RapportBuilding | Module::InformationGathering
            if task_id == NAME_AND_PURPOSE && notes.name.is_none() && !notes.name_declined && t >= 2 =>
        {
            lang.pick(
                "네, 여기 있어요. 어떻게 시작해도 괜찮아요. 오늘 하루가 어땠는지, 요즘 마음에 걸리는 일이 무엇인지부터 편하게 들려주세요.",
                "I'm here and listening. There's no wrong way to start: you could tell me how your day has been, or what has been on your mind.",
            )
            .into()
        }
        Module::RapportBuilding | Module::InformationGathering if task_id == NAME_AND_PURPOSE => match notes.name {
            Some(name) if ko => format!("{name}님, 반가워요. 오늘 어떤 이야기를 나누고 싶으세요?"),
            Some(name) => format!("Nice to meet you, {name}. What would you like to talk about today?"),
            None if notes.name_declined => lang
                .pick(
                    "괜찮아요, 이름은 말하지 않으셔도 돼요. 오늘 어떤 이야기를 나누고 싶으세요?",
                    "That's completely fine, you don't need to give a name. What would you like to talk about today?",
                )
                .into(),
            None => lang
                .pick(
                    "괜찮으시다면 어떻게 불러 드리면 좋을지, 그리고 오늘 어떤 이야기를 나누고 싶으신지 들려주시겠어요?",
                    "If you're comfortable, what should I call you, and what would you like to talk about today?",
                )
                .into(),
        },
        Module::RapportBuilding => lang
            .pick("편하게 이야기해 주셔서 고마워요. 조금 더 들려주시겠어요?", "Thank you for telling me. Could you say a bit more?")
            .into(),
        Module::InformationGathering => information_question(ctx.task, user_text, state.emotion.is_negative(), t, lang),
    };
    let greeting = match (notes.name, task_id) {
        (Some(name), RAPPORT) if ko => format!("{name}님, "),
        (Some(name), RAPPORT) => format!("{name}, "),
        _ => String::new(),
    };

    // The echo and the feeling go here, once the rest of the reply is known.
    let opener_at = parts.len();
    // "Alex, take your time": the body goes on after the name in lower case, but "I" stays "I".
    let keeps_capital = body.starts_with("I ") || body.starts_with("I'");
    let body = if greeting.is_empty() || ko || keeps_capital {
        body
    } else {
        let mut chars = body.chars();
        chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
    };
    // "I guess I could try studying in shorter blocks": an idea the user offers is taken up
    // before the task's next question, and a goal offered is made concrete.
    let taken_up = matches!(
        ctx.module,
        Module::InformationGathering | Module::EmpathicReflection | Module::RapportBuilding | Module::GoalSetting
    ) && (ctx.part == Part::Exploration || ctx.module == Module::GoalSetting)
        && offers_idea(user_text);
    // "what should I do?" is answered as a question, not echoed and passed over: the counselor
    // does not decide for the user, and thinks it through with them.
    let advice = wants_advice
        && matches!(
            ctx.module,
            Module::InformationGathering
                | Module::EmpathicReflection
                | Module::RapportBuilding
                | Module::ResistanceHandling
        );
    let body = match (taken_up, ctx.module) {
        // "그냥 누가 제 얘기를 들어줬으면 좋겠어요": listened to, not asked about the topic.
        _ if heard => lang
            .pick(
                "여기서 제가 들을게요. 정리되지 않은 말이어도 괜찮아요. 지금 가장 마음에 남아 있는 걸 편하게 이야기해 주세요.",
                "I'm here, and I'm listening. It doesn't have to come out in order: tell me whatever weighs on you most right now.",
            )
            .into(),
        _ if advice && !notes.committed => format!(
            "{} {}",
            lang.pick(
                "쉽지 않은 질문이에요. 답을 대신 정해 드릴 수는 없지만, 함께 생각해 볼 수는 있어요.",
                "That's a hard question. I can't decide it for you, but we can think it through together.",
            ),
            asked_what_was_tried(lang)
        ),
        // "no, I'm scared he'll say no" to what might get in the way: the worry is met, and what
        // could make it easier asked, not a question about the topic.
        _ if notes.answers_obstacles && !unsure && !notes.committed => {
            let ask = lang.pick(
                "조금이라도 쉽게 해 볼 방법이 있을까요? 아니면 생각대로 되지 않았을 때 할 수 있는 건 무엇일까요?",
                "What could make it a little easier, or what could you do if it didn't go the way you hope?",
            );
            // The feeling named already ("That sounds like a lot of worry to carry") is not met twice.
            match feeling.is_empty() {
                true => format!("{} {ask}", lang.pick("그 마음도 충분히 이해돼요.", "That makes sense.")),
                false => ask.to_string(),
            }
        }
        // "응" or "no" to what was tried: what it was, or something to think of together.
        _ if notes.answers_tried && is_short(user_text) && super::ending::says_yes(user_text) => lang
            .pick(
                "어떤 방법이었는지, 해 보니 어땠는지 들려주시겠어요?",
                "What was it, and how did it go?",
            )
            .into(),
        _ if notes.answers_tried
            && is_short(user_text)
            && super::safety::answer(user_text) == super::safety::Answer::No =>
        {
            lang
            .pick(
                "괜찮아요, 함께 떠올려 봐요. 비슷한 일이 있었을 때 조금이라도 도움이 됐던 게 있었나요?",
                "That's all right; let's think of something together. When something like this happened before, did anything help even a little?",
            )
            .into()
        }
        // The plan made on the turn the session turns to its summary: noted, then the summary's
        // question (not "anything else?", which the summary would pass over).
        _ if notes.committed && sums_up => format!(
            "{} {}",
            lang.pick("구체적인 계획을 세우셨네요. 목표로 적어 둘게요.", "That's a concrete plan; I'll note it as your goal."),
            summary_line(notes, lang)
        ),
        _ if notes.committed => lang
            .pick(
                "구체적인 계획을 세우셨네요. 목표로 적어 둘게요. 그 밖에 더 나누고 싶은 이야기가 있으세요?",
                "That's a concrete plan; I'll note it as your goal. Is there anything else you'd like to talk about?",
            )
            .into(),
        (false, Module::GoalSetting) => match (notes.goals.last(), notes.idea) {
            (Some(goal), _) => quoting(
                lang,
                "앞에서 정하신 목표: “{}”. 더하거나 바꾸고 싶은 게 있을까요?",
                "The goal you set earlier is “{}”. Is there anything you'd like to add or change?",
                goal,
            ),
            (None, Some(idea)) => quoting(
                lang,
                "앞에서 “{}”라고 하셨어요. 그걸 이번 주 목표로 삼아 볼까요? 그렇다면 언제, 얼마나 자주 해 보실지도 정해 봐요.",
                "Earlier you said “{}”. Would you like to make that this week's goal? If so, when, and how often?",
                idea,
            ),
            (None, None) => body,
        },
        (false, _) => body,
        (true, Module::GoalSetting) => lang
            .pick(
                "좋은 첫걸음 같아요. 언제, 얼마나 자주 해 보실지 함께 정해 볼까요?",
                "That sounds like a good first step. When, and how often, would you try it?",
            )
            .into(),
        (true, _) => format!(
            "{} {}",
            lang.pick("스스로 해 볼 만한 방법을 떠올리셨네요.", "You've thought of something to try yourself."),
            asked_about_obstacles(lang)
        ),
    };
    // "can we talk about something else": asked what instead, not asked about the topic just
    // left (unless the message names the new one).
    let other_subject = changes_subject && super::task::topics_in(user_text).is_empty();
    let body = if other_subject && ctx.part != Part::Closing {
        lang.pick(
            "물론이에요, 다른 이야기를 해요. 지금은 어떤 이야기를 나누고 싶으세요?",
            "Of course, we can talk about something else. What would you like to talk about?",
        )
        .into()
    } else {
        body
    };
    // One question at a time: the name, asked once, takes this turn's question.
    let body = if notes.ask_name && task_id == RAPPORT {
        lang.pick(
            "이야기를 더 나누기 전에, 제가 어떻게 불러 드리면 좋을까요? 말하고 싶지 않으시면 그냥 넘어가셔도 괜찮아요.",
            "Before we go on, what should I call you? It's fine to skip this if you'd rather not say.",
        )
        .into()
    } else {
        body
    };
    // "I'd rather not say" to the name question asked on its own: fine, and the talk goes on.
    let body = if notes.name_declined && task_id != NAME_AND_PURPOSE {
        format!("{} {body}", lang.pick("괜찮아요, 이름은 말하지 않으셔도 돼요.", "That's fine, no name needed."))
    } else {
        body
    };
    parts.push(format!("{greeting}{body}"));
    let thanked = parts.iter().chain([&feeling]).any(|p| p.contains("hank you"));
    let opener = [echo(thanked), feeling].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
    if !opener.is_empty() && !matches!(ctx.module, Module::Closing) {
        parts.insert(opener_at, opener);
    }
    parts.join(" ")
}

/// The user asks what to do: "what should I do?", "any advice?"; 어떻게 해야: what should I
/// do; 어떡해/어떡하: what do I do; 어떻게 하면 좋: what would be good to do; 뭘 해야/뭘 하면:
/// what should I do; 조언: advice.
fn asks_advice(text: &str) -> bool {
    let lower = crate::engine::case::lower(text);
    WordList(
        "what should i do|what do i do|what can i do|what would you do|any advice|give me advice|what to do|\
        어떻게 해야|어떡해|어떡하|어떻게 하면 좋|뭘 해야|뭘 하면|무엇을 해야|조언",
    )
    .iter()
    .any(|w| lower.contains(w))
}

/// The user offers something they could do: "I could try …", "maybe I'll …", "…해 볼까 해요".
pub(crate) fn offers_idea(text: &str) -> bool {
    let lower = crate::engine::case::lower(text);
    // 볼까: shall I try (만나 볼까: shall I meet); 보려고: I mean to try; 볼게: I'll try; 봐야: I should try;
    // 해 보고 싶/해보고 싶: I want to try; 시도해: try; 할까 해/할까 싶: I'm thinking of; 나을 것 같/나아질 것 같/
    // 괜찮아질 것 같/좋아질 것 같/도움이 될 것 같: (if I …) it might get better, it might help; 면 (좀)
    // 나을까/나아질까/괜찮을까/도움이 될까/어떨까: would it help if …; 건 어떨까: how about …; 는 게 나을까/
    // 좋을까: would it be better to …
    const IDEAS: WordList = WordList(
        "i could try|i might try|maybe i could|maybe i'll|maybe i should|maybe i can|i could start|i'll try|\
        i will try|i want to try|i'd like to try|i'm thinking of|i am thinking of|i guess i could|i think i could|\
        i could just|i should try|i can try|might help if i|would help if i|would it help if i|would it help to|\
        what if i|should i try|볼까|보려고|볼게|봐야|\
        해 보고 싶|해보고 싶|시도해|할까 해|할까 싶|나을 것 같|나아질 것 같|괜찮아질 것 같|좋아질 것 같|도움이 될 것 같|\
        면 나을까|면 좀 나을까|면 나아질까|면 좀 나아질까|면 괜찮을까|면 도움이 될까|면 좀 도움이 될까|면 어떨까|건 어떨까|\
        는 게 나을까|는 게 좋을까",
    );
    if IDEAS.any(|w| lower.contains(w)) {
        return true;
    }
    // "I could ask HR", "I should talk to her", "I might call him": something to do; not "I could
    // not sleep", "I should have known", "I could feel it", "I might be wrong".
    const NOT_A_DEED: WordList = WordList(
        "not|never|barely|hardly|only|just|no|have|be|feel|see|hear|sense|tell|already|always|still|even|\
         probably|maybe|really|get|do",
    );
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    words.windows(3).any(|w| {
        w[0] == "i"
            && matches!(w[1], "could" | "should" | "might")
            && !NOT_A_DEED.contains(w[2])
            && !w[2].ends_with("n't")
    })
}

/// The whole message says the user does not know: 잘 모르겠어요/모르겠어요/글쎄요 (I'm not sure, well…),
/// "I don't know", "not sure", "idk"; a filler in front is allowed ("음 잘 모르겠어요").
fn is_unsure(text: &str) -> bool {
    const UNSURE: WordList = WordList(
        "잘 모르겠어요|모르겠어요|잘 모르겠어|모르겠어|잘 모르겠네요|모르겠네요|글쎄요|글쎄|i don't know|i dont know|\
         i'm not sure|im not sure|not sure|idk|dunno|no idea|i have no idea|i don't know where to start|\
         i don't know where to begin|not sure where to start|i don't know how to start|어디서부터 말해야 할지 모르겠어요|\
         뭐부터 말해야 할지 모르겠어요|무슨 말부터 해야 할지 모르겠어요|어디서부터 이야기해야 할지 모르겠어요",
    );
    let said = super::ending::without_fillers(text)
        .trim_end_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace() || c == '…');
    UNSURE.contains(crate::engine::case::lower(said).replace('’', "'"))
}

/// The message without the places named as where something happens ("at work", "회사에서"), so
/// that they are not read as the subject.
fn without_settings(text: &str) -> String {
    // 회사에서/직장에서: at the company, at work; 학교에서: at school; 집에서: at home; 재택(근무):
    // working from home — how the days are spent, not the job as the subject.
    const SETTINGS: WordList = WordList(
        "work from home|working from home|work remotely|working remotely|at work|at the office|at school|in class|at home|\
         재택근무|재택|회사에서|직장에서|학교에서|집에서",
    );
    let lower = crate::engine::case::lower(text).replace('’', "'");
    SETTINGS.iter().fold(lower, |t, w| t.replace(w, " "))
}

/// "yes I'm safe right now", "네 지금은 안전해요": an answer to the check-in that says safe.
fn says_safe(text: &str) -> bool {
    // 안전해/안전합니다/안전한 곳: safe, a safe place
    const SAFE: WordList =
        WordList("i'm safe|i am safe|im safe|safe now|safe right now|i'm okay now|안전해|안전합니다|안전한 곳에");
    const NOT: WordList = WordList("not safe|don't feel safe|안전하지 않|안 안전");
    let lower = crate::engine::case::lower(text).replace('’', "'");
    SAFE.any(|w| lower.contains(w)) && !NOT.any(|w| lower.contains(w))
}

/// "I'm scared to go home", "집에 들어가기 무서워요": a home that is not safe. 집에 가기/들어가기 무서: afraid to go
/// home; 집이 무서: home is frightening; 집에 있기 무서: afraid to be at home.
fn fears_going_home(text: &str) -> bool {
    const HOME: WordList = WordList(
        "scared to go home|afraid to go home|scared to go back|afraid to go back|not safe at home|don't feel safe at home|\
         집에 가기 무서|집에 들어가기 무서|집이 무서|집에 있기 무서|집에 가기 겁|집에 들어가기 겁",
    );
    let lower = crate::engine::case::lower(text).replace('’', "'");
    HOME.any(|w| lower.contains(w))
}

/// "I think it's all my fault", "다 제 탓 같아요", "I should have seen it": the user blaming
/// themselves. "it's not my fault"
/// and "제 잘못이 아니에요" are not. 제/내 잘못: my fault; 제/내 탓: my fault; 저/나 때문: because of me;
/// 제가/내가 다 망: I ruined it all.
pub(super) fn blames_self(text: &str) -> bool {
    const BLAME: WordList = WordList(
        "my fault|my own fault|blame myself|blaming myself|i mess everything up|i always mess|i messed everything up|\
         i ruin everything|i ruined everything|it's because of me|all because of me|제 잘못|내 잘못|제 탓|내 탓|\
         저 때문|나 때문|제가 다 망|내가 다 망|제가 다 잘못|내가 다 잘못|뭘 잘못했는지|뭘 잘못한 건지|뭘 잘못한 걸까|\
         내가 잘못해서|제가 잘못해서|what i did wrong|what did i do wrong|i did something wrong|i must have done something|\
         i screwed everything up|i messed it all up|제가 뭔가 잘못|내가 뭔가 잘못",
    );
    const DENIED: WordList = WordList(
        "not my fault|isn't my fault|wasn't my fault|잘못이 아니|잘못 아니|탓이 아니|탓 아니|때문이 아니|때문 아니",
    );
    // "I should have taken him to the vet sooner", "내가 좀 더 일찍 데려갔어야 했는데": regret the
    // user holds against themselves (another's "he should have called" is not). 어야 했/어야했:
    // should have; 더라면: if only (I) had; 말았어야: should not have; 제가/내가: I.
    const REGRET: WordList = WordList(
        "i should have|i should've|i shouldn't have|if only i had|if only i'd|i could have saved|i could've saved|\
         i could have stopped|i could've stopped|i could have prevented",
    );
    const REGRET_KO: WordList = WordList("어야 했|어야했|더라면|말았어야");
    let lower = crate::engine::case::lower(text).replace('’', "'");
    let regrets = REGRET.any(|w| lower.contains(w))
        || (REGRET_KO.any(|w| lower.contains(w)) && WordList("제가|내가").any(|w| lower.contains(w)));
    (regrets || BLAME.any(|w| lower.contains(w))) && !DENIED.any(|w| lower.contains(w))
}

/// "I feel stupid for still caring", "am I being selfish?", "제가 이기적인 건가 싶어요", "제가 너무 한심해요":
/// a harsh verdict the user passes on themselves. 한심: pathetic; 바보 같/멍청: stupid; 이기적인
/// 건가/이기적인가/이기적인 걸까: (am I) selfish; 못났/못난 사람: worthless (plain); 쓸모없: useless.
pub(super) fn judges_self(text: &str) -> bool {
    const VERDICT: WordList = WordList(
        "i feel stupid|i feel so stupid|i'm so stupid|i am so stupid|i'm stupid|i am stupid|i feel like an idiot|i'm an idiot|\
         i'm such an idiot|i'm pathetic|i feel pathetic|i'm useless|i feel useless|i'm a failure|i feel like a failure|\
         am i selfish|am i being selfish|i'm selfish|i'm being selfish|i am selfish|\
         한심|바보 같|멍청|이기적인 건가|이기적인가|이기적인 걸까|못났|못난 사람|쓸모없",
    );
    // 제가/내가/저는/나는/스스로/자신: I, myself; 님이/씨가/사람이/친구가/애가/그가/그녀가: someone else as the subject.
    const ABOUT_SELF_KO: WordList = WordList("제가|내가|저는|나는|스스로|자신");
    const ABOUT_OTHER_KO: WordList = WordList("님이|님은|씨가|씨는|사람이|사람들이|친구가|애가|그가|그녀가");
    let lower = crate::engine::case::lower(text).replace('’', "'");
    let english = VERDICT.iter().filter(|w| w.is_ascii()).any(|w| lower.contains(w));
    // A Korean verdict is about the user when the user is its subject, or no one else is
    // ("너무 한심해요"; "팀장님이 한심해요" is not).
    let korean = VERDICT.iter().filter(|w| !w.is_ascii()).any(|w| lower.contains(w))
        && (ABOUT_SELF_KO.any(|w| lower.contains(w)) || !ABOUT_OTHER_KO.any(|w| lower.contains(w)));
    english || korean
}

/// "my boss yells at me every day", "팀장님이 소리를 지르고 모욕적인 말을 해요": someone mistreating the
/// user. 소리를 지르/소리 질러/고함: yelling; 모욕/욕을 해/욕해/막말: insults; 괴롭혀/괴롭힘/따돌려: bullying.
fn mistreated(text: &str) -> bool {
    WordList(
        "yells at me|yelling at me|screams at me|shouts at me|insults me|insulting me|humiliates me|humiliated me|\
         bullies me|bullying me|belittles me|puts me down|소리를 지르|소리를 질러|소리 지르|소리 질러|고함|모욕|욕을 해|욕해|\
         막말|괴롭혀|괴롭힘|따돌려|따돌림",
    )
    .any(|w| crate::engine::case::lower(text).contains(w))
}

/// "잘한 건지 모르겠어요", "did I make the right choice?": a decision of one's own second-guessed.
/// 잘한 건지/잘한 걸까/잘한 선택/옳은 선택/맞는 선택/맞는 결정: the right thing, choice, decision;
/// 결정을 후회: regretting the decision.
fn doubts_decision(text: &str) -> bool {
    WordList(
        "right decision|right choice|did the right thing|the right call|second-guess|second guess|regret my decision|\
         잘한 건지|잘한 걸까|잘한 선택|옳은 선택|옳은 결정|맞는 선택|맞는 결정|잘한 결정|결정을 후회",
    )
    .any(|w| crate::engine::case::lower(text).contains(w))
}

/// "my boss took credit for my work", "상사가 제 성과를 가로챘어요": the user's work claimed by
/// someone else. 가로채/가로챘: snatched; 공을 가져/공을 뺏: took the credit; 자기가 한 것처럼: as if
/// they did it.
fn credit_taken(text: &str) -> bool {
    WordList(
        "took credit|takes credit|taking credit|take credit|stole my idea|stole my work|stealing my work|stole credit|\
         claimed my work|passed off my|가로채|가로챘|공을 가져|공을 뺏|공을 빼앗|자기가 한 것처럼|자기 것처럼",
    )
    .any(|w| crate::engine::case::lower(text).contains(w))
}

/// "I just want someone to listen", "그냥 누가 제 얘기를 들어줬으면 좋겠어요": the user asks to be heard.
/// 들어줬으면/들어 줬으면/들어주면 좋/들어줄 사람/들어 줄 사람: (someone) to listen.
fn wants_to_be_heard(text: &str) -> bool {
    WordList(
        "someone to listen|somebody to listen|just listen|just want to be heard|need to be heard|want to be heard|\
         to vent|just need to vent|들어줬으면|들어 줬으면|들어주면 좋|들어줄 사람|들어 줄 사람|들어주세요|들어 주세요",
    )
    .any(|w| crate::engine::case::lower(text).contains(w))
}

/// A sentence in `lang` with the user's words (clipped) where its `{}` stands.
fn quoting(lang: Lang, ko: &str, en: &str, words: &str) -> String {
    lang.pick(ko, en).replacen("{}", &clip(words, 90), 1)
}

/// The message without a greeting in front: the echo quotes what it says, not "hi,".
fn without_greeting(text: &str) -> &str {
    // 안녕하세요/안녕: hello
    let greetings = WordList("hi there|hello there|hey there|hi|hello|hey|good morning|good evening|안녕하세요|안녕");
    let lower = text.to_ascii_lowercase();
    for g in greetings {
        if lower.starts_with(g) {
            let rest = &text[g.len()..];
            if rest.starts_with([',', '.', '!', ' ']) {
                let rest = rest.trim_start_matches([',', '.', '!', ' ', '~']);
                if !rest.is_empty() {
                    return rest;
                }
            }
        }
    }
    text
}

/// `text` without a first sentence that gives the user's name ("민지예요. 요즘 회사 일 때문에
/// 힘들어서 왔어요", "I'm Sam. Work has been rough"): the name is said back on its own, and a
/// quote of the rest carries what they came with. Nothing when the name is all there was.
fn without_introduction<'a>(text: &'a str, name: Option<&str>) -> &'a str {
    let Some(name) = name else { return text };
    let end = text.find(['.', '!', '?', '\n']).map_or(text.len(), |at| at + 1);
    if text[..end].contains(name) {
        text[end..].trim_start()
    } else {
        text
    }
}

fn topics_text(topics: &[Topic], lang: Lang) -> String {
    if topics.is_empty() {
        return lang.pick("지금의 어려움", "what has been hard for you").into();
    }
    let labels: Vec<&str> = topics.iter().take(3).map(|t| t.label(lang)).collect();
    labels.join(lang.pick(", ", ", "))
}

/// The first question about what the user came with: a loss is met with sympathy first.
fn topic_opening(topic: Topic, lang: Lang) -> String {
    if topic == Topic::Loss {
        return lang
            .pick(
                "진심으로 위로를 전해요. 괜찮으시다면 떠나보낸 이야기를 조금 들려주시겠어요?",
                "I'm so sorry for your loss. If you'd like, tell me a little about them.",
            )
            .into();
    }
    let label = topic.label(lang);
    match lang {
        Lang::Ko => {
            format!("이렇게 이야기해 주셔서 고마워요. {label} 쪽으로 요즘 어떤 일이 있었는지 조금 더 들려주시겠어요?")
        }
        Lang::En => format!(
            "Thank you for sharing this with me. Could you tell me a bit more about what has been going on with {label}?"
        ),
    }
}

/// True when the message is a few words at most: a thanks alone, not a thanks with a story; a
/// short answer ("응", "no, not really").
fn is_short(text: &str) -> bool {
    text.split_whitespace().count() <= 5 && text.chars().count() <= 40
}

/// True when the message tells of something that happened at a time it names ("yesterday he
/// gave me two new projects", "어제도 새벽 세시까지 유튜브만 봤어요"): the scene is told, so the
/// question that follows asks what it was like, not again what happened.
/// 어제/어젯밤: yesterday, last night; 그저께/엊그제: the day before yesterday; 지난주/저번 주/지난달/
/// 지난번/저번에: last week, last month, last time; 오늘 아침: this morning; 아까: a while ago;
/// 며칠 전/얼마 전/일주일 전: days ago, recently, a week ago.
pub(crate) fn tells_event(text: &str) -> bool {
    const WHEN: WordList = WordList(
        "yesterday|last night|last week|last month|last time|this morning|the other day|earlier today|\
         days ago|a week ago|weeks ago|어제|어젯밤|그저께|엊그제|지난주|지난 주|저번 주|지난달|지난번|저번에|\
         오늘 아침|아까|며칠 전|얼마 전|일주일 전|happened|일이 있었|일이 생겼",
    );
    let lower = crate::engine::case::lower(text);
    WHEN.iter().any(|w| {
        lower.match_indices(w).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + w.len()..].chars().next();
            // a word of its own in English ("yesterday", not "yesterdays"); any Korean ending
            let ascii = w.is_ascii();
            !(ascii
                && (before.is_some_and(|c| c.is_ascii_alphanumeric())
                    || after.is_some_and(|c| c.is_ascii_alphabetic())))
        })
    })
}

/// The information-gathering question of a turn: about the task's topic, or about the topic
/// this message raises when that is another one ("my parents expect a lot from me" while the
/// task is about sleep asks about family: the counselor follows the person). A scene the
/// message tells (`tells_event`) is asked about from the inside: how it felt, what went
/// through their mind, what they did then.
fn information_question(task: Option<&Task>, user_text: &str, felt: bool, turn: u32, lang: Lang) -> String {
    if tells_event(user_text) {
        return pick(
            &[
                lang.pick(
                    "그 일이 있었을 때 어떤 마음이 드셨고, 머릿속에 어떤 생각이 스쳤나요?",
                    "When that happened, how did you feel, and what went through your mind?",
                ),
                lang.pick(
                    "그 뒤에는 어떻게 하셨어요? 그때 마음은 어땠는지도 궁금해요.",
                    "What did you do after that? I'd also like to hear how it felt.",
                ),
            ],
            turn,
        )
        .into();
    }
    // A mood word beside the story ("she gets angry when I'm late") and a place named as where
    // something happens ("I haven't told anyone at work" in a talk about a loss) do not turn
    // the talk to stress or to work.
    let mut named = super::task::topics_in(&without_settings(user_text));
    if task.and_then(|t| t.topic).is_some() {
        named.retain(|t| *t != super::task::Topic::Mood);
    }
    // "친구들은 다 붙었는데 저만 뒤처지는 것 같아요" (my friends all got in, only I fall behind): the
    // friends are what the user measures themselves against; the comparison is the subject.
    if let Some(at) = named.iter().position(|t| *t == super::task::Topic::SelfWorth) {
        named.swap(0, at);
    }
    let resources = task.is_some_and(|t| t.id == "task_resources_2");
    let topic = match task.and_then(|t| t.topic) {
        Some(own) if !named.is_empty() && !named.contains(&own) => named.first().copied(),
        // A task of no topic (planned for a resistance): the one this message names.
        None if !resources => named.first().copied(),
        own => own,
    };
    // "그냥 하루 종일 누워만 있어요" (I just lie in bed all day): a feeling of the days, which names no
    // topic, is asked about as it is, not met with the task's question about its topic.
    if felt && named.is_empty() {
        return pick(
            &[
                lang.pick(
                    "요즘 그런 날이 얼마나 자주 있나요? 그런 날은 하루가 어떻게 흘러가는지 들려주실래요?",
                    "How often have days like that come lately? What does a day like that look like for you?",
                ),
                lang.pick(
                    "그럴 때 마음속에서는 어떤 생각이 가장 많이 드세요?",
                    "When it's like that, what goes through your mind the most?",
                ),
            ],
            turn,
        )
        .into();
    }
    match (topic, lang) {
        // A loss is not asked about as a problem with a start and a hardest moment.
        (Some(super::task::Topic::Loss), _) => pick(
            &[
                lang.pick(
                    "요즘 어떤 순간에 그 빈자리가 가장 크게 느껴지세요?",
                    "When do you feel the loss most these days?",
                ),
                lang.pick(
                    "떠나보낸 분을 떠올리면 어떤 마음이 가장 먼저 드세요?",
                    "When you think of the one you lost, what comes up for you first?",
                ),
                lang.pick(
                    "그 뒤로 하루하루를 어떻게 지내고 계세요?",
                    "How have you been getting through the days since then?",
                ),
            ],
            turn,
        )
        .into(),
        (Some(topic), Lang::Ko) => {
            let label = topic.label(lang);
            match turn % 3 {
                0 => format!(
                    "{label}에서 가장 힘든 순간은 언제인가요? 최근에 있었던 장면 하나를 떠올려 말씀해 주실래요?"
                ),
                1 => format!("{label} 이야기를 떠올리면 어떤 마음이 가장 먼저 드세요?"),
                _ => format!("{label} 문제가 시작된 건 언제쯤부터였나요?"),
            }
        }
        (Some(topic), Lang::En) => {
            let label = topic.label(lang);
            match turn % 3 {
                0 => format!("What is the hardest moment with {label}? Could you describe a recent one?"),
                1 => format!("When you think about {label}, what comes up for you first?"),
                _ => format!("When did things with {label} start to feel this way?"),
            }
        }
        (None, _) if resources => lang
            .pick(
                "지금까지 조금이라도 도움이 됐던 것이나, 기댈 수 있는 사람이 있을까요?",
                "Has anything helped even a little so far, or is there someone you can lean on?",
            )
            .into(),
        (None, _) => pick(
            &[
                lang.pick(
                    "지금 가장 힘든 일이 어떤 장면에서 일어나는지 들려주시겠어요?",
                    "Could you tell me about a moment when it was hardest?",
                ),
                lang.pick(
                    "그 일은 언제, 누구와 있을 때 주로 일어나나요?",
                    "When and with whom does it usually happen?",
                ),
            ],
            turn,
        )
        .into(),
    }
}

fn summary_line(notes: &ReplyNotes, lang: Lang) -> String {
    let topics = topics_text(notes.topics, lang);
    match (lang, notes.name) {
        (Lang::Ko, Some(name)) => format!(
            "오늘 나눈 이야기를 정리해 볼게요. {name}님은 {topics}에 대해 이야기해 주셨어요. 제가 이해한 게 맞을까요?"
        ),
        (Lang::Ko, None) => {
            format!("오늘 나눈 이야기를 정리해 볼게요. {topics}에 대해 이야기해 주셨어요. 제가 이해한 게 맞을까요?")
        }
        (Lang::En, Some(name)) => {
            format!("Let me sum up today, {name}. You talked about {topics}. Did I get that right?")
        }
        (Lang::En, None) => format!("Let me sum up today. You talked about {topics}. Did I get that right?"),
    }
}

fn closing_line(notes: &ReplyNotes, lang: Lang) -> String {
    let goal = notes.goals.last().map(|g| clip(g, 60));
    let topics = topics_text(notes.topics, lang);
    let mut out = match (lang, goal) {
        (Lang::Ko, Some(goal)) => {
            format!("오늘 이야기 나눠 주셔서 고마워요. 정하신 목표 “{goal}”, 꼭 작게라도 시도해 보세요.")
        }
        (Lang::Ko, None) => "오늘 이야기 나눠 주셔서 고마워요.".to_string(),
        (Lang::En, Some(goal)) => {
            format!("Thank you for talking with me today. Give your goal “{goal}” a try, even a small one.")
        }
        (Lang::En, None) => "Thank you for talking with me today.".to_string(),
    };
    out.push(' ');
    out.push_str(&match lang {
        Lang::Ko => format!(
            "다음에는 {topics} 이야기와 목표를 해 보신 경험을 이어서 나눠요. 힘들 때는 109(자살예방 상담전화)나 1577-0199에 언제든 연락하실 수 있어요."
        ),
        Lang::En => format!(
            "Next time we can pick up {topics} and how the goal went. If things get hard, reach out to a local crisis line or emergency number."
        ),
    });
    out
}

/// The last heuristic reply, on the turn the session ends; it says again what answered, and the
/// goal set, if any.
pub fn farewell(lang: Lang, user_text: &str, goal: Option<&str>) -> String {
    // 고마/감사: thanks.
    let thanked = WordList("고마|감사|thank").any(|w| crate::engine::case::lower(user_text).contains(w));
    let rest = lang.pick(
        "오늘 대화는 여기서 마무리할게요. 오늘 나눈 이야기의 요약은 옆 패널에서 내려받을 수 있어요. \
오늘은 API 키 없이 규칙으로 답하는 간단한 대화 상대가 함께했어요. 몸과 마음 잘 챙기세요.",
        "We'll close today's conversation here. You can download a summary of it from the side panel. \
Today you talked with the simple no-key partner, which answers with fixed rules. Take good care of yourself.",
    );
    let goal = goal.map(|g| match lang {
        Lang::Ko => format!("정하신 목표 “{}”, 꼭 작게라도 시도해 보세요. ", clip(g, 90)),
        Lang::En => format!("Give your goal “{}” a try, even a small one. ", clip(g, 90)),
    });
    let thanks = thanked.then(|| lang.pick("저도 고마워요. ", "Thank you too. "));
    format!("{}{}{rest}", thanks.unwrap_or(""), goal.unwrap_or_default())
}

/// The offer to close when the user asks to stop: a yes closes, anything else goes on.
pub fn closing_offer(lang: Lang) -> String {
    lang.pick(
        "오늘은 여기서 마무리할까요? 마무리하시려면 ‘네’라고 답해 주세요. 더 이야기하고 싶으시면 그대로 이어서 말씀하셔도 괜찮아요.",
        "Shall we close here for today? Answer “yes” to close, or simply go on if you'd like to keep talking.",
    )
    .into()
}

/// The last reply when the user closes the session before its last part.
pub fn early_farewell(lang: Lang) -> String {
    lang.pick(
        "네, 오늘 대화는 여기서 마무리할게요. 이야기 나눠 주셔서 고마워요. 오늘 나눈 이야기의 요약은 옆 패널에서 내려받을 수 있어요. \
다시 이야기하고 싶으시면 언제든 새 대화를 시작해 주세요. 힘들 때는 가까운 상담 전화나 긴급 번호에 연락해 주세요. 몸과 마음 잘 챙기세요.",
        "All right, we'll close today's conversation here. Thank you for talking with me. You can download a summary of it \
from the side panel, and start a new conversation whenever you want to talk again. If things get hard, reach out to a local \
crisis line or emergency number. Take good care of yourself.",
    )
    .into()
}

/// The reply once the session has ended.
pub fn ended_reply(lang: Lang) -> String {
    lang.pick(
        "오늘 상담은 마무리되었어요. 다시 이야기하고 싶으시면 새 대화를 시작해 주세요.",
        "Today's session has ended. Start a new conversation whenever you want to talk again.",
    )
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::crisis::CrisisKind;
    use super::super::module::ChangeReason;
    use super::super::task::{fixed_tasks, plan_exploration};
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A reply's context with no supervision, module change, part transition or crisis.
    fn context(lang: Lang, part: Part, task: Option<&Task>, module: Module) -> CounselorContext<'_> {
        CounselorContext {
            lang,
            part,
            task,
            module,
            feedback: None,
            module_change: None,
            part_transition: None,
            crisis: None,
        }
    }

    fn feedback(score: u8) -> SupervisorFeedback {
        SupervisorFeedback {
            score,
            improvements: vec!["한 번에 질문은 하나만 해 주세요.".into()],
            suggested_module: None,
            at_user_message: 3,
            by_llm: false,
        }
    }

    #[test]
    fn minimal_prompt_has_base_part_task_title_target_and_module_summary_only() {
        let tasks = fixed_tasks(Part::Start, Lang::Ko);
        let ctx = context(Lang::Ko, Part::Start, Some(&tasks[1]), Module::InformationGathering);
        let prompt = counselor_prompt(&ctx, &[Turn::user("안녕하세요")]);
        let s = &prompt.system;
        assert!(s.starts_with("# role: counselor\n당신은"));
        assert!(s.ends_with("Write every human-readable text in Korean (한국어)."));
        for needle in [
            "자격을 갖춘 상담사가 아니며",
            "Part 1: 시작",
            "사용자의 이름과 상담 목적 파악하기",
            "사용자의 이름과 기본 상담 목적 확인",
            "정보 수집 모듈",
            Module::InformationGathering.guideline(Lang::Ko),
        ] {
            assert!(s.contains(needle), "missing {needle}");
        }
        for absent in [
            tasks[1].description.as_str(),
            tasks[1].completion_criteria.as_str(),
            "Supervision",
            "=== Module",
            "=== Part",
            "안전 메모",
        ] {
            assert!(!s.contains(absent), "should omit {absent}");
        }
        assert_eq!(prompt.turns.len(), 1);
        assert!(!prompt.json_output);
    }

    #[test]
    fn conditional_sections_appear_only_when_they_apply() {
        let tasks = plan_exploration(&["회사 일이 힘들어요"], Lang::Ko);
        let change = ModuleChange {
            from: Module::InformationGathering,
            to: Module::ResistanceHandling,
            reason: ChangeReason::Resistance,
            at_user_message: 5,
        };
        let low = feedback(5);
        let high = feedback(7);
        let base = context(Lang::Ko, Part::Exploration, Some(&tasks[0]), Module::ResistanceHandling);
        let with_low = counselor_system(&CounselorContext { feedback: Some(&low), ..base });
        assert!(with_low.contains("Supervision 피드백 (점수 5/10)") && with_low.contains("한 번에 질문은 하나만"));
        let with_high = counselor_system(&CounselorContext { feedback: Some(&high), ..base });
        assert!(!with_high.contains("Supervision"), "a score of 7 stays out");
        let with_change = counselor_system(&CounselorContext { module_change: Some(&change), ..base });
        assert!(with_change
            .contains("=== Module 변경 ===\n이유: 사용자 저항 감지\n이전: 정보 수집 모듈\n새로운: 저항 대처 모듈"));
        let with_part =
            counselor_system(&CounselorContext { part_transition: Some((Part::Start, Part::Exploration)), ..base });
        assert!(with_part.contains("=== Part 전환 ===\n이전: Part 1: 시작\n새로운: Part 2: 탐색"));
        let with_crisis = counselor_system(&CounselorContext { crisis: Some(CrisisKind::Suicide), ..base });
        assert!(with_crisis.contains("안전 메모") && with_crisis.contains("자살 관련 표현"));
        let plain = counselor_system(&base);
        for absent in ["Supervision", "=== Module", "=== Part", "안전 메모"] {
            assert!(!plain.contains(absent), "{absent}");
        }
        let en = counselor_system(&CounselorContext { lang: Lang::En, module_change: Some(&change), ..base });
        assert!(en.contains("=== Module change ===") && en.contains("not a licensed counselor"));
    }

    #[test]
    fn prompt_keeps_only_the_last_turns() {
        let history: Vec<Turn> = (0..30).map(|i| Turn::user(format!("m{i}"))).collect();
        let ctx = context(Lang::En, Part::Start, None, Module::RapportBuilding);
        let prompt = counselor_prompt(&ctx, &history);
        assert_eq!(prompt.turns.len(), HISTORY_TURNS);
        assert_eq!(prompt.turns.last().map(|t| t.text.as_str()), Some("m29"));
    }

    #[test]
    fn heuristic_reply_reflects_words_and_varies_with_module_and_task() {
        let tasks = plan_exploration(&["회사 일이 힘들어요"], Lang::Ko);
        let state = UserState { emotion: Emotion::Tired, intensity: 6, ..UserState::default() };
        let notes = ReplyNotes { turn: 4, ..ReplyNotes::default() };
        let mut replies = Vec::new();
        for module in Module::ALL {
            let ctx = context(Lang::Ko, Part::Exploration, Some(&tasks[0]), module);
            let reply = heuristic_reply(&ctx, "상사가 매일 야근을 시켜요", &state, &notes);
            if module != Module::Closing {
                assert!(reply.contains("“상사가 매일 야근을 시켜요”라고 말씀해 주셨어요"), "{module:?}: {reply}");
            }
            assert!(reply.chars().any(crate::engine::lang::is_hangul));
            replies.push(reply);
        }
        let mut distinct = replies.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), replies.len(), "each module words its reply differently");
        let info = |turn| {
            let ctx = context(Lang::En, Part::Exploration, Some(&tasks[0]), Module::InformationGathering);
            heuristic_reply(
                &ctx,
                "my boss at work",
                &UserState::default(),
                &ReplyNotes { turn, ..ReplyNotes::default() },
            )
        };
        assert_ne!(info(1), info(2), "wording varies with the turn");
        assert!(info(3).contains("You said “my boss at work”"), "{}", info(3));
        assert!(info(1).contains("I hear you: “my boss at work”"), "{}", info(1));
        let short = |text| {
            let ctx = context(Lang::Ko, Part::Start, None, Module::RapportBuilding);
            heuristic_reply(&ctx, text, &UserState::default(), &ReplyNotes::default())
        };
        assert!(!short("네").contains('“'), "a bare yes is not echoed");
        assert_eq!(without_greeting("hi, I've been feeling anxious"), "I've been feeling anxious");
        assert_eq!(without_greeting("안녕하세요. 회사 일 때문에 왔어요"), "회사 일 때문에 왔어요");
        assert_eq!(without_greeting("history exams worry me"), "history exams worry me", "a word, not a greeting");
        assert_eq!(without_greeting("hello"), "hello");
    }

    #[test]
    fn an_idea_the_user_offers_is_taken_up_not_passed_over() {
        let tasks = plan_exploration(&["I can't focus when I study"], Lang::En);
        let reply = |lang, part, module, text| {
            let ctx = context(lang, part, Some(&tasks[0]), module);
            heuristic_reply(&ctx, text, &UserState::default(), &ReplyNotes { turn: 5, ..ReplyNotes::default() })
        };
        let idea = "I guess I could try studying in shorter blocks";
        let taken = reply(Lang::En, Part::Exploration, Module::InformationGathering, idea);
        assert!(taken.contains("thought of something to try") && taken.contains("get in the way"), "{taken}");
        let asked = reply(Lang::En, Part::Exploration, Module::InformationGathering, "studying makes me tired");
        assert!(!asked.contains("thought of something to try"), "no idea, the task's question: {asked}");
        let goal = reply(Lang::En, Part::Exploration, Module::GoalSetting, "maybe I'll go to bed by eleven");
        assert!(goal.contains("When, and how often"), "{goal}");
        let ko = reply(Lang::Ko, Part::Exploration, Module::EmpathicReflection, "짧게 끊어서 공부해 볼까 해요");
        assert!(ko.contains("방법을 떠올리셨네요"), "{ko}");
        // Summing up and closing keep their own words.
        let summing = reply(Lang::En, Part::Closing, Module::Closing, idea);
        assert!(!summing.contains("thought of something to try"), "{summing}");
        // "I could …", "I should …", "I might …" with something to do is an idea; a feeling, a
        // could-not or a could-have is not.
        for text in ["I could ask HR for advice", "I should talk to her first", "I might call him tonight"] {
            assert!(offers_idea(text), "{text}");
        }
        for text in [
            "I could not sleep at all",
            "I couldn't sleep",
            "I should have known",
            "I could feel my heart racing",
            "I might be wrong",
        ] {
            assert!(!offers_idea(text), "{text}");
        }
    }

    #[test]
    fn korean_topic_questions_read_naturally() {
        let tasks = plan_exploration(&["회사 일이 힘들어요"], Lang::Ko);
        let got: Vec<String> =
            (0..3).map(|turn| information_question(Some(&tasks[0]), "", false, turn, Lang::Ko)).collect();
        assert_eq!(
            got,
            [
                "직장과 일에서 가장 힘든 순간은 언제인가요? 최근에 있었던 장면 하나를 떠올려 말씀해 주실래요?",
                "직장과 일 이야기를 떠올리면 어떤 마음이 가장 먼저 드세요?",
                "직장과 일 문제가 시작된 건 언제쯤부터였나요?",
            ]
        );
    }

    #[test]
    fn opening_says_what_this_is_and_when_it_has_no_key() {
        assert!(opening(Lang::Ko, true).contains("자격을 갖춘 상담사는 아니에요"));
        assert!(opening(Lang::Ko, true).contains("API 키 없이"));
        assert!(!opening(Lang::Ko, false).contains("API 키 없이"));
        assert!(opening(Lang::En, true).contains("no-key partner"));
        assert!(opening(Lang::En, false).contains("not a licensed counselor"));
    }
}
