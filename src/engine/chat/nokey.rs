//! The no-key assistant: with no LLM configured (or after a failed call) the chat still
//! recognises a few common requests (deleting files, installing something, querying a
//! database, setting up a project, checking disk usage, finding files, everyday git,
//! containers, processes and ports, reading a log) in Korean and English, and answers
//! with a question card of options; a chosen option proposes a command with its danger check.

use super::tools::CommandKind;
use crate::engine::case::Lower;
use crate::engine::lang::{with_instrumental, Lang};
use crate::engine::words::{mentions, Shape, WordList};

/// A kind of request the no-key assistant recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    /// Delete files or folders.
    Delete,
    /// Install a program or package.
    Install,
    /// Look into a database.
    Database,
    /// Set up a new project.
    Setup,
    /// Check disk usage.
    Disk,
    /// List or find files: by size, by name, by what they contain.
    Files,
    /// Everyday git: what changed, undo a commit, a branch, put changes aside.
    Git,
    /// Docker containers: which run, their logs, why one restarts, what they use.
    Containers,
    /// Running processes: who holds a port, what uses the CPU or the memory.
    Processes,
    /// A log file: its last lines, its errors, following it.
    Logs,
}

impl Topic {
    /// Every topic, in the order the topic card lists them.
    pub const ALL: [Topic; 10] = [
        Topic::Delete,
        Topic::Install,
        Topic::Database,
        Topic::Setup,
        Topic::Disk,
        Topic::Files,
        Topic::Git,
        Topic::Containers,
        Topic::Processes,
        Topic::Logs,
    ];

    /// The topic's name on the topic card.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Topic::Delete => lang.pick("파일 삭제", "Delete files"),
            Topic::Install => lang.pick("프로그램 설치", "Install something"),
            Topic::Database => lang.pick("데이터베이스 조회", "Query a database"),
            Topic::Setup => lang.pick("프로젝트 만들기", "Set up a project"),
            Topic::Disk => lang.pick("디스크 사용량 확인", "Check disk usage"),
            Topic::Files => lang.pick("파일 찾기", "Find files"),
            Topic::Git => lang.pick("Git 작업", "Work with git"),
            Topic::Containers => lang.pick("컨테이너 확인", "Check containers"),
            Topic::Processes => lang.pick("프로세스·포트 확인", "Processes and ports"),
            Topic::Logs => lang.pick("로그 보기", "Read a log"),
        }
    }
}

/// What names a topic: any of `words` alone, or a word of one of the `weak` pairs' first list
/// beside a word of its second.
/// A weak word has an everyday sense too ("정리" tidies meeting notes as often as a folder,
/// "table" is booked at a restaurant), so it counts only next to a word of the topic's world.
struct Cue {
    topic: Topic,
    words: WordList,
    weak: &'static [(WordList, WordList)],
}

/// Words of files, beside which erasing or tidying up is about files: 파일: file, 폴더: folder,
/// 디렉터리/디렉토리: directory, 로그: log, 캐시: cache, 빌드: build, 컨테이너: container, 도커: docker,
/// 백업: backup, 다운로드: downloads, 스크린샷: screenshot.
const FILE_WORDS: WordList = WordList(
    "file|files|folder|folders|directory|directories|dir |log|logs|cache|build|tmp|temp|junk|\
    node_modules|docker|container|containers|backup|backups|download|downloads|screenshot|screenshots|\
    파일|폴더|디렉터리|디렉토리|^로그|캐시|빌드|컨테이너|도커|백업|다운로드|스크린샷",
);

/// Cues per topic, checked in this order: large or listed files before disk (a large file is
/// found, not a disk measured), disk before delete ("디스크 정리" is about space), git before
/// delete ("delete the branch"). Korean words carry an English gloss.
const CUES: &[Cue] = &[
    Cue {
        // The size of each folder is measured, not found: before the large files. 폴더 용량/폴더별
        // 용량/폴더 크기: folder sizes; 큰 폴더: large folders.
        topic: Topic::Disk,
        words: WordList(
            "folder sizes|folder size|size of each folder|sizes of the folders|biggest folders|largest folders|\
            big folders|size of a folder|size of the folder|size of this folder|size of my folder|how big is this folder|\
            how big is the folder|폴더 용량|폴더별 용량|폴더 크기|폴더별 크기|폴더 사이즈|큰 폴더",
        ),
        weak: &[],
    },
    Cue {
        topic: Topic::Files,
        // 큰 파일: large files; 용량이 큰/용량 큰: large in size; 파일 목록: file list; 파일 찾/파일을 찾: find
        // files; 파일 검색: file search; 어디 있: where is; 함수 정의/정의된 곳/어디서 정의: where a function is defined
        words: WordList(
            "large files|big files|biggest files|largest files|huge files|bigger than|larger than|\
            list files|list the files|list all files|list my files|show the files|show me the files|\
            find files|find a file|find the file|find file|search files|search for files|grep|\
            todo comments|search my code|search the code|where i defined|\
            where is the function|where the function|defined the function|definition of|find the function|\
            함수 정의|정의된 곳|어디서 정의|\
            큰 파일|용량이 큰|용량 큰|파일 목록|파일 찾|파일을 찾|파일 검색|파일이 어디|코드에서 찾",
        ),
        weak: &[],
    },
    Cue {
        topic: Topic::Disk,
        // 디스크: disk; 저장 공간: storage space; 공간을 차지: takes up space
        words: WordList(
            "disk usage|disk space|free space|free up space|out of space|running out of space|low on space|disk is full|\
            space on my disk|space on the disk|taking up space|takes up space|taking the space|takes the space|\
            eating up space|using all the space|df -h|du -sh|check my disk|check the disk|\
            check disk|my disk|hard drive is full|저장 공간|공간을 차지|공간 차지",
        ),
        // 용량: capacity (a medicine's dose too) — beside 하드/드라이브: drive, 남은: left,
        // 부족: short of, 컴퓨터/노트북: computer/laptop, 서버: server, 폴더/파일: folder/file
        weak: &[
            (
                WordList("storage|용량"),
                WordList(
                    "disk|drive|ssd|full|left|computer|laptop|machine|server|folder|files|\
                하드|드라이브|남은|남았|부족|컴퓨터|노트북|서버|폴더|파일",
                ),
            ),
            (
                // 디스크: disk (a spinal disc too: 허리 디스크) — beside 용량: capacity, 공간: space,
                // 사용량: usage, 남은/남았: left, 부족: short of, 꽉: full, 여유: free, 정리: clean up,
                // 확인: check, 차지: takes up, 얼마: how much, 파티션: partition, 마운트: mount
                WordList("디스크"),
                WordList(
                    "용량|공간|사용량|남은|남았|부족|꽉|여유|정리|확인|차지|얼마|하드|드라이브|파티션|마운트|\
                컴퓨터|노트북|서버|ssd|df|du",
                ),
            ),
        ],
    },
    Cue {
        topic: Topic::Git,
        // 커밋: commit; 브랜치: branch; 깃허브/깃헙/깃랩: GitHub/GitLab; 깃: git (as a word of its own
        // or with a particle: not 깃털, a feather, or 깃발, a flag)
        words: WordList(
            "git|commit|branch|rebase|stash|pull request|커밋|브랜치|깃허브|깃헙|깃랩|\
            ^깃 |^깃에|^깃으로|^깃을|^깃이|^깃의|^깃은|^깃도|^깃만",
        ),
        weak: &[],
    },
    Cue {
        topic: Topic::Database,
        // 데이터베이스: database; 쿼리: query
        words: WordList("database|sql|postgres|mysql|sqlite|query|데이터베이스|db|쿼리"),
        // 테이블: table — beside 컬럼/칼럼: column, 레코드: record, 필드: field, 스키마: schema,
        // 조회: look up
        weak: &[(
            WordList("table|tables|테이블"),
            WordList("row|rows|column|columns|schema|select |컬럼|칼럼|레코드|필드|스키마|조회"),
        )],
    },
    Cue {
        topic: Topic::Delete,
        words: WordList("rm "),
        // 삭제: deletion; 지우/지워: erase; 없애: get rid of (a to-do list's line or a sentence
        // too); 정리: tidy up; 치우/치워: clear away; 비우/비워: empty — beside a word of files
        // (not 임시 or 쓰레기: a temporary holiday, the rubbish to sort)
        weak: &[
            (WordList("delete|erase|삭제|지우|지워|없애"), FILE_WORDS),
            (WordList("remove|clean up|cleanup|clear out|정리|치우|치워|비우|비워"), FILE_WORDS),
        ],
    },
    Cue {
        topic: Topic::Install,
        // 설치: installation; 깔아: install (colloquial); 깔고: install (colloquial)
        words: WordList("install|setup tool|apt-get|brew |pip |npm i|설치|깔아|깔고"),
        weak: &[],
    },
    Cue {
        topic: Topic::Setup,
        // 초기화: initialize; 세팅: setting up; 가상 환경/가상환경: virtual environment
        words: WordList(
            "set up a project|setup a project|new project|scaffold|bootstrap|initialize|init |\
            new rust project|new python project|new node project|new react project|new go project|cargo new|npm init|\
            virtual environment|virtualenv|venv|초기화|세팅|가상 환경|가상환경",
        ),
        // 프로젝트: project — beside 만들: make, 시작: start, 생성: create, 새: new, 구조: layout
        weak: &[(WordList("프로젝트"), WordList("만들|시작|생성|새 |새로|구조"))],
    },
    Cue {
        topic: Topic::Containers,
        // 도커: docker; 컨테이너: container
        words: WordList("docker|container|containers|도커|컨테이너"),
        weak: &[],
    },
    Cue {
        topic: Topic::Processes,
        words: WordList(
            "which process|what process|process id|pid|cpu|hogging|kill the process|kill a process|kill process|\
            process on port|running on port|listening on port|eaddrinuse|address already in use|port is already in use|\
            how much memory|how much ram|memory usage|ram usage|\
            memory is free|free memory|available memory|메모리 사용량|남은 메모리|메모리가 얼마|메모리 얼마|메모리 부족|램 사용량|\
            메모리 많이|메모리를 많이|메모리 먹|메모리를 먹|using the most memory|most memory|most cpu|cpu 많이",
        ),
        // 포트: port (not the end of 리포트, a report); 느려/느리: slow; 메모리: memory; 프로세스:
        // process (a hiring or a business one too) — beside 컴퓨터/노트북: computer/laptop,
        // 서버: server, 앱/프로그램: app/program, 시스템: system, 쓰고/사용: uses, 번: number
        weak: &[(
            WordList("port|slow|memory|processes|^포트|느려|느리|메모리|프로세스"),
            WordList(
                "computer|laptop|machine|server|system|app|program|browser|localhost|uses|using|listening|\
                컴퓨터|노트북|서버|시스템|앱|프로그램|브라우저|쓰고|쓰는|사용|번|죽여|종료",
            ),
        )],
    },
    Cue {
        topic: Topic::Logs,
        // 로그: log (a word of its own: not the end of 블로그, a blog, the middle of 프로그램,
        // a program, or 로그인/로그아웃, signing in and out)
        words: WordList("logs|.log|journalctl|syslog|^로그"),
        // "log" is also to write something down — beside the words of a log file
        weak: &[(
            WordList("log"),
            WordList("file|error|errors|warning|warnings|lines|tail|server|app|system|nginx|apache|/"),
        )],
    },
];

/// The topic a message is about, if the no-key assistant knows it.
pub fn recognise(text: &str) -> Option<Topic> {
    // "log in to", "log into", "log out": signing in, not a log file ("the log in /var/app" is one).
    let mut lower = format!("{} ", text.lower());
    for phrase in ["log in to ", "log into ", "log in with ", "log in as ", "log in? ", "log in ", "log out"] {
        if phrase != "log in " || lower.trim_end().ends_with("log in") {
            lower = lower.replace(phrase, "sign-in ");
        }
    }
    // 로그인/로그아웃: signing in and out, not a log.
    lower = lower.replace("로그인", "sign-in").replace("로그아웃", "sign-out");
    // Most cue words hold a byte pair the message lacks: the shape rules them out before a
    // search (in the wasm, each search first builds its searcher).
    let shape = Shape::of(&lower);
    let any = |words: WordList| {
        words.iter().any(|w| shape.may_hold(w.strip_prefix('^').unwrap_or(w)) && contains_word(&lower, w))
    };
    CUES.iter()
        .find(|cue| any(cue.words) || cue.weak.iter().any(|&(weak, with)| any(weak) && any(with)))
        .map(|cue| cue.topic)
        // "지난 7일 동안 수정된 파일만 찾고 싶어": files by when they changed.
        .or_else(|| changed_within(text).map(|_| Topic::Files))
}

/// True when `word` occurs in `text`; short ASCII words (like "db" or "sql") must stand alone,
/// and one written with a space after it must start a word,
/// and a Korean noun written with a leading `^` is read as `words::mentions` reads it (it
/// starts a word or ends a compound): "^로그" is in "서버 로그" and "서버로그", not in "블로그"
/// or "프로그램"; "^포트" not in "리포트".
fn contains_word(text: &str, word: &str) -> bool {
    if let Some(noun) = word.strip_prefix('^') {
        return mentions(text, noun);
    }
    if !word.is_ascii() || (word.len() > 4 && !word.ends_with(' ')) {
        return text.contains(word);
    }
    // A word written with a space after it ("rm ", "pip ") must start a word: "rm " is not in
    // "self-harm keywords".
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && (word.ends_with(' ') || !after.is_some_and(|c| c.is_ascii_alphanumeric()))
    })
}

/// One option of a no-key question card, with the command choosing it proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The option's label.
    pub label: String,
    /// What choosing it means.
    pub description: String,
    /// The command to propose, and whether it is shell or SQL.
    pub command: (String, CommandKind),
    /// Why the command helps.
    pub why: String,
}

/// What the no-key assistant offers for a topic: its question and choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// A short header for the question card.
    pub header: String,
    /// The question.
    pub question: String,
    /// The options.
    pub choices: Vec<Choice>,
    /// The request names the first option ("find files bigger than 100MB", "check memory
    /// use"): it is proposed at once, with no card to pick it.
    pub named: bool,
}

/// The words after "install" (or before "설치"), as the package to install; `<package>` if none.
fn package_name(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let clean =
        |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '_' && c != '.').to_string();
    let valid = |w: &String| !w.is_empty() && w.is_ascii() && w.len() <= 40;
    for (i, w) in words.iter().enumerate() {
        let lw = w.lower();
        if lw == "install" || lw == "installing" {
            if let Some(next) = words.get(i + 1).map(|n| clean(n)).filter(valid) {
                if !WordList("a|the|some|my").contains(next.lower()) {
                    return next;
                }
                if let Some(after) = words.get(i + 2).map(|n| clean(n)).filter(valid) {
                    return after;
                }
            }
        }
        if w.contains("설치") && i > 0 {
            // "docker 설치해 줘", "docker를 설치": the word before, particles removed.
            let before = clean(words[i - 1].trim_end_matches(['을', '를']));
            if valid(&before) {
                return before;
            }
        }
    }
    "<package>".to_string()
}

fn choice(label: &str, description: &str, command: &str, kind: CommandKind, why: &str) -> Choice {
    Choice {
        label: label.to_string(),
        description: description.to_string(),
        command: (command.to_string(), kind),
        why: why.to_string(),
    }
}

/// The introduction of the no-key assistant, said before its first answer in a chat.
pub fn intro(lang: Lang) -> &'static str {
    lang.pick(
        "키 없이 동작하는 기본 도우미입니다(LLM을 쓰지 않습니다). 자주 하는 요청 몇 가지만 알아듣고, 선택지와 실행할 명령을 제안합니다. 설정에서 API 키를 넣으면 모델이 직접 답합니다.",
        "I am the no-key assistant (no LLM is used): I recognise a few common requests and offer choices and commands to run. Add an API key in Settings and a model answers instead.",
    )
}

/// The answer to a short thanks ("thanks!", "고마워요"), which asks for nothing: no topic card.
/// The caller asks only when the message names no topic ("thanks, now delete the old logs").
pub fn thanks_reply(text: &str, lang: Lang) -> Option<&'static str> {
    if text.split_whitespace().count() > 6 {
        return None;
    }
    let lower = text.lower();
    // 고마/고맙/감사: thanks.
    const THANKS: WordList = WordList("thanks|thank you|thx|ty|cheers|고마|고맙|감사");
    let thanks = THANKS.any(|w| contains_word(&format!("{lower} "), w));
    // Nothing but thanks: "thanks! and how do I kill it?" or "고마워 그거 종료하려면?" (thanks — and to
    // end it?) asks something more. What may go with thanks: 정말/진짜/너무: really; 많이: a lot;
    // 대단히: very; 네/예: yes; 좋아요: great; 알겠어요: got it; 덕분에: thanks to you; 도움이 됐어요:
    // that helped.
    const WITH_THANKS: WordList = WordList(
        "so|much|a|lot|very|again|for|the|that|this|help|you|your|man|mate|great|ok|okay|perfect|awesome|nice|\
         works|worked|it|now|정말|진짜|너무|많이|대단히|네|예|좋아요|좋아|좋네요|알겠어요|알겠어|알겠습니다|덕분에|도움이|됐어요|됐어|됐습니다",
    );
    let goes_with_thanks = |word: &str| {
        word.is_empty()
            || word.starts_with("thank")
            || THANKS.any(|t| !t.contains(' ') && (word == t || (!t.is_ascii() && word.starts_with(t))))
            || WITH_THANKS.iter().any(|w| w == word || (!w.is_ascii() && word.starts_with(w)))
    };
    let more = lower.contains('?')
        || lower.split(|c: char| c.is_whitespace() || ",.!~^;:()".contains(c)).any(|w| !goes_with_thanks(w));
    (thanks && !more).then(|| {
        lang.pick(
            "천만에요. 더 도와드릴 일이 있으면 말씀해 주세요.",
            "You're welcome. Tell me if there's anything else I can help with.",
        )
    })
}

/// True when a short message reads as a follow-up to the request before it: it opens with
/// "and", "what about", "what if", "only", … or names a platform ("and on windows?"), or, in
/// Korean, opens with 그럼/그리고/혹시/만약 (then, and, by any chance, if) or ends in 는/은 (and …?),
/// 면 (if …?) or 만 (only): "윈도우에서는?", "이미 푸시했으면?", "상위 10개만".
pub fn follows_up(text: &str) -> bool {
    let lower = text.lower();
    let trimmed = lower.trim().trim_end_matches(|c: char| c.is_whitespace() || "?!.~…".contains(c));
    if trimmed.is_empty() || trimmed.split_whitespace().count() > 8 {
        return false;
    }
    const OPENINGS: WordList = WordList(
        "and |and?|what about|how about|what if|also |only |just |but |same |now |then |\
         그럼|그러면|그리고|그런데|근데|혹시|만약|이번엔|그건|그거는",
    );
    const PLATFORMS: WordList =
        WordList("windows|mac|macos|linux|ubuntu|powershell|윈도우|윈도|맥|리눅스|우분투|파워셸");
    // "how do I get them back?": a pronoun pointing at what the request before named.
    // 그거/그것/그걸: it, that.
    const POINTERS: WordList = WordList("them|it|those|these|그거|그것|그걸");
    let points_back =
        trimmed.split_whitespace().count() <= 7 && POINTERS.any(|w| contains_word(&format!(" {trimmed} "), w));
    OPENINGS.any(|w| trimmed.starts_with(w))
        || points_back
        || PLATFORMS.any(|w| contains_word(&format!("{trimmed} "), w))
        || ["는", "은", "면", "만"].iter().any(|end| trimmed.ends_with(end))
}

/// The request a follow-up makes of the one before: the same request for another tool when it
/// names one ("and pip?" after "how do I check which version of python I have" asks pip's
/// version), else both together.
pub fn with_follow_up(before: &str, follow_up: &str) -> String {
    let (b, f) = (before.lower(), follow_up.lower());
    let named = |text: &str| {
        TOOLS.iter().find(|(name, _, _)| {
            if name.is_ascii() {
                let spaced: String = text.chars().map(|c| if c.is_ascii_punctuation() { ' ' } else { c }).collect();
                contains_word(&format!(" {spaced} "), &format!("{name} "))
            } else {
                text.contains(name)
            }
        })
    };
    if let (Some(new), Some(old)) = (named(&f), named(&b)) {
        if new.1 != old.1 {
            if let Some(at) = b.find(old.0) {
                // The user's words around the name as written (lower case if it changed their length).
                let text = if before.len() == b.len() { before } else { b.as_str() };
                return format!("{}{}{}", &text[..at], new.0, &text[at + old.0.len()..]);
            }
        }
    }
    format!("{before} {follow_up}")
}

/// True when the message asks how to do something the no-key assistant answers outright ("how
/// do I clear the npm cache?", "chmod 755 뜻이 뭐야", "포트 3000 쓰는 프로세스 종료하는 법"): a
/// question for the chat mode. 어떻게/하는 법/하는 방법/하려면/뭐야/뜻: how, the way to, to do …, what is,
/// meaning.
pub fn is_command_question(text: &str) -> bool {
    let lower = text.lower();
    const ASKS: WordList = WordList(
        "how do i|how to|how can i|how do you|how would i|what does|what's the command|what is the command|command to|\
         어떻게|하는 법|하는법|하는 방법|하려면|뭐야|뭔가요|뜻|명령어",
    );
    (ASKS.any(|w| lower.contains(w)) || lower.trim_end().ends_with('?'))
        && text_answer(text, None, Lang::detect(text)).is_some()
}

/// The no-key answer that is only text, if the request has one: what a command does, making
/// a script executable, an archive, a quick answer or how-to, ending a process (for "kill it",
/// the port `before` named).
pub fn text_answer(request: &str, before: Option<&str>, lang: Lang) -> Option<String> {
    // "npm install 하면 EACCES 에러가 나요": an error a command gave is explained before the command.
    // A dangerous command named still gets its warning first.
    let lower = request.lower();
    let shape = Shape::of(&lower);
    let reports_error = WordList("error|에러|오류|eacces|denied|failed|fatal")
        .any(|w| shape.may_hold(w) && lower.contains(w))
        && flagged_words(request).is_none();
    rename_extension(request, lang)
        .or_else(|| schedule(request, lang))
        .or_else(|| reports_error.then(|| quick_answer(request, lang)).flatten())
        .or_else(|| explain_command(request, lang))
        .or_else(|| make_executable(request, lang))
        .or_else(|| archive(request, lang))
        .or_else(|| quick_answer(request, lang))
        .or_else(|| end_process(request, before, lang))
}

/// The mode a request that is no command task belongs to, said as the no-key assistant's
/// answer: feelings ("I feel so down today") to the counseling mode, a thing to build or
/// automate ("I want a bot that summarizes our meetings") to the discussion mode.
pub fn other_mode(text: &str, lang: Lang) -> Option<&'static str> {
    let feeling = crate::engine::counsel::state::detect_state(text, &[], &[]).emotion;
    let lower = text.lower();
    // 만들/자동화/설계/계획: make, automate, design, plan; 봇/파이프라인/도구: a bot, a pipeline, a tool.
    const BUILD: WordList =
        WordList("build|make|create|design|automate|plan|want a|need a|want an|need an|만들|자동화|설계|계획|필요");
    const THING: WordList = WordList(
        "bot|pipeline|tool|workflow|agent|automation|app|system|봇|파이프라인|도구|워크플로|에이전트|자동화|앱|시스템",
    );
    if feeling != crate::engine::counsel::state::Emotion::Neutral
        && feeling != crate::engine::counsel::state::Emotion::Positive
    {
        return Some(lang.pick(
            "많이 힘든 하루였나 봐요. 저는 명령어를 돕는 기본 도우미라 여기서는 해 드릴 수 있는 게 많지 않아요. \
             `/mode counseling`을 입력하면 이야기를 나누는 데 맞춘 상담 모드로 바뀌어요.",
            "That sounds like a hard day. I'm the command assistant, so there is little I can do with that here; \
             typing `/mode counseling` switches to the counseling mode, a conversation partner made for talking things through.",
        ));
    }
    (BUILD.any(|w| lower.contains(w)) && THING.any(|w| lower.contains(w))).then(|| {
        lang.pick(
            "무언가를 만들거나 자동화하는 계획이라면 논의 모드가 맞아요. `/mode discussion`을 입력하면 요청을 정리하고, 설계안을 \
             비교해 합의한 계획으로 만들어 드려요.",
            "To plan something to build or automate, the discussion mode fits: typing `/mode discussion` turns the request into a \
             contract, compares designs with you and writes the agreed plan.",
        )
    })
}

/// `text` with each word that is a file name ("run.sh", "./deploy.py", "scripts/start.bat")
/// replaced by "file": "what does chmod 777 run.sh do?" orders nothing run.
fn without_file_names(text: &str) -> String {
    text.split(' ').map(|w| if file_name(w).is_some() { "file" } else { w }).collect::<Vec<_>>().join(" ")
}

/// The word as a file name ("run.sh", "./deploy.py", "scripts/start.bat"), without the quotes or
/// punctuation around it; `None` when it is not one.
fn file_name(word: &str) -> Option<&str> {
    let w = word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '?' | '!' | ',' | '(' | ')' | ':'));
    let w = w.strip_suffix('.').unwrap_or(w);
    // A Korean particle written onto the name: "data.zip을", "backup.tar.gz를".
    let bare = w.trim_end_matches(|c: char| !c.is_ascii());
    let w = if bare.ends_with(|c: char| c.is_ascii_alphanumeric()) && bare.contains('.') { bare } else { w };
    let name = w.rsplit('/').next().unwrap_or(w);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        })
        .then_some(w)
}

/// The answer to "how do I make run.sh executable?", "run.sh 실행 권한 주는 법" or a script's
/// "Permission denied": `chmod +x` on the file named, and how to run it then. `None` when the
/// message is not about running a file.
// 실행 권한/실행권한: permission to run; 실행 가능하게: make it runnable; 실행이 안 돼/실행이 안 되: it won't run
pub fn make_executable(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    let named = text.split_whitespace().find_map(file_name);
    let asks = WordList(
        "make it executable|executable|permission to run|run permission|won't run|can't run|\
        실행 권한|실행권한|실행 가능하게|실행이 안 돼|실행이 안 되",
    )
    .any(|w| lower.contains(w));
    // "Permission denied" from running a file, not from ssh, git, docker or sudo.
    let denied = lower.contains("permission denied")
        && (named.is_some() || lower.contains("script") || lower.contains("스크립트"))
        && !WordList("publickey|ssh|git|docker|sudo").any(|w| lower.contains(w));
    if !(asks || denied) || lower.contains("chmod") {
        return None;
    }
    let file = named.unwrap_or("<file>");
    let here = if file.contains('/') { file.to_string() } else { format!("./{file}") };
    Some(match lang {
        Lang::Ko => format!(
            "`chmod +x {file}`로 실행 권한을 줄 수 있습니다. 그다음 `{here}`로 실행합니다. 나만 실행하게 하려면 \
             `chmod u+x {file}`를 쓰세요. 777처럼 모두에게 쓰기 권한까지 주는 값은 필요 없습니다."
        ),
        Lang::En => format!(
            "`chmod +x {file}` gives it permission to run; then run it with `{here}`. To let only yourself \
             run it, use `chmod u+x {file}`. A mode like 777, which lets everyone change it too, is not needed."
        ),
    })
}

/// Tools whose version and place the no-key assistant can tell how to find: the name a
/// message uses (lower case), the command, and how it prints its version.
const TOOLS: &[(&str, &str, &str)] = &[
    ("node", "node", "node --version"),
    ("nodejs", "node", "node --version"),
    ("노드", "node", "node --version"),
    ("npm", "npm", "npm --version"),
    ("python", "python3", "python3 --version"),
    ("python3", "python3", "python3 --version"),
    ("파이썬", "python3", "python3 --version"),
    ("pip", "pip", "python3 -m pip --version"),
    ("git", "git", "git --version"),
    ("docker", "docker", "docker --version"),
    ("도커", "docker", "docker --version"),
    ("java", "java", "java -version"),
    ("자바", "java", "java -version"),
    ("golang", "go", "go version"),
    ("rust", "rustc", "rustc --version"),
    ("rustc", "rustc", "rustc --version"),
    ("cargo", "cargo", "cargo --version"),
];

/// Python modules whose package is named otherwise on PyPI.
const PYPI_NAMES: &[(&str, &str)] = &[
    ("bs4", "beautifulsoup4"),
    ("cv2", "opencv-python"),
    ("dotenv", "python-dotenv"),
    ("pil", "Pillow"),
    ("sklearn", "scikit-learn"),
    ("yaml", "PyYAML"),
];

/// Direct answers to everyday questions the topic cards do not hold: a module a script cannot
/// find ("ModuleNotFoundError: No module named 'requests'", "Cannot find module 'express'"), a
/// tool's version ("how do I check my node version?", "파이썬 버전 확인"), where a tool is
/// installed, and renaming a file. `None` for anything else.
pub fn quick_answer(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    // A name in quotes right after `marker`, if its characters are plain.
    let quoted_after = |marker: &str| -> Option<String> {
        let rest = &lower[lower.find(marker)? + marker.len()..];
        let name: String = rest
            .trim_start()
            .trim_start_matches(['\'', '"', '`', '‘', '“'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '@'))
            .collect();
        (!name.is_empty()).then_some(name)
    };
    if let Some(module) = quoted_after("no module named") {
        let top = module.split('.').next().unwrap_or(&module).to_string();
        let package = PYPI_NAMES.iter().find(|(m, _)| *m == top).map_or(top.clone(), |(_, p)| p.to_string());
        return Some(match lang {
            Lang::Ko => format!(
                "이 파이썬에 `{top}` 모듈이 설치되어 있지 않습니다. 스크립트를 실행하는 파이썬으로 설치하세요: `python3 -m pip install {package}`. \
                 가상 환경을 쓴다면 먼저 활성화하세요(`source .venv/bin/activate`)."
            ),
            Lang::En => format!(
                "The Python that runs the script has no `{top}` module. Install it for that Python: `python3 -m pip install {package}`. \
                 If you use a virtual environment, activate it first (`source .venv/bin/activate`)."
            ),
        });
    }
    if let Some(module) = quoted_after("cannot find module").or_else(|| quoted_after("can't find module")) {
        let local = module.starts_with('.') || module.starts_with('/');
        let package = if module.starts_with('@') {
            module.splitn(3, '/').take(2).collect::<Vec<_>>().join("/")
        } else {
            module.split('/').next().unwrap_or(&module).to_string()
        };
        return Some(match (local, lang) {
            (true, Lang::Ko) => format!("`{module}`는 프로젝트 안의 파일입니다. 경로와 파일 이름(대소문자, 확장자)이 맞는지 확인하세요."),
            (true, Lang::En) => format!("`{module}` is a file of the project: check its path and name (case and extension)."),
            (false, Lang::Ko) => format!(
                "`{package}` 패키지가 설치되어 있지 않습니다. 프로젝트 폴더(package.json이 있는 곳)에서 `npm install {package}`를 실행하세요. \
                 package.json에 이미 있다면 `npm install`만으로 됩니다."
            ),
            (false, Lang::En) => format!(
                "The package `{package}` is not installed. In the project's folder (where package.json is), run `npm install {package}`; \
                 if package.json already lists it, `npm install` alone is enough."
            ),
        });
    }
    // "bash: htop: command not found", "zsh: command not found: rg": the program named.
    // 명령어를 찾을 수 없음: command not found, in a Korean locale.
    let missing = quoted_after("command not found:").or_else(|| {
        ["command not found", "명령어를 찾을 수 없", "명령을 찾을 수 없"].iter().find_map(|marker| {
            let before = &lower[..lower.find(marker)?];
            before
                .trim_end()
                .trim_end_matches(':')
                .rsplit([' ', ':'])
                .next()
                .filter(|n| !n.is_empty())
                .map(str::to_string)
        })
    });
    if let Some(name) = missing.filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))) {
        // "sudo: apt: command not found": no package manager installs itself; the system has another.
        if ["apt", "apt-get", "brew", "dnf", "yum", "pacman", "apk"].contains(&name.as_str()) {
            return Some(match lang {
                Lang::Ko => format!(
                    "이 시스템에는 `{name}`가 없습니다. 패키지 관리자는 시스템마다 달라서, Debian·Ubuntu는 `apt`, Fedora·RHEL은 `dnf`(예전 CentOS는 `yum`), \
                     Alpine은 `apk`, Arch는 `pacman`, macOS는 `brew`(따로 설치)를 씁니다. `cat /etc/os-release`가 어떤 시스템인지 알려 줍니다."
                ),
                Lang::En => format!(
                    "This system has no `{name}`: each system has its own package manager. Debian and Ubuntu use `apt`, Fedora and RHEL `dnf` \
                     (older CentOS `yum`), Alpine `apk`, Arch `pacman`, and macOS `brew` (installed separately). `cat /etc/os-release` says which system this is."
                ),
            });
        }
        return Some(match lang {
            Lang::Ko => format!(
                "`{name}` 명령이 설치되어 있지 않거나 PATH에 없다는 뜻입니다. Debian·Ubuntu는 `sudo apt install {name}`, macOS는 `brew install {name}`로 \
                 설치합니다(패키지 이름이 다를 수 있습니다). 설치했는데도 나온다면 `echo $PATH`에 그 위치가 있는지, 새 터미널에서도 같은지 보세요."
            ),
            Lang::En => format!(
                "`{name}` is not installed, or not on your PATH. Install it with `sudo apt install {name}` (Debian, Ubuntu) or `brew install {name}` \
                 (macOS); the package may have another name. If it is installed, check that its folder is in `echo $PATH`, in a new terminal too."
            ),
        });
    }
    // Error messages first: npm's EACCES or Docker's socket may name a rename or a version too.
    if let Some(answer) = how_to(ERRORS, &lower, lang) {
        return Some(with_port(answer, text));
    }
    if let Some(answer) = clear_cache(&lower, lang) {
        return Some(answer);
    }
    // The tool's version or place asked of the tool itself: "node version", "version of git", "자바
    // 버전" (버전: version); "where is python installed", "python 설치 위치", "node 경로" (어디: where;
    // 설치 위치: install location; 경로: path). Not a version of something else ("an old version of a
    // file in git") nor where something of the tool's is ("where is the git config file").
    // Most messages name no tool: one look for each name rules them out before any phrase is built.
    let named_tools: Vec<&(&str, &str, &str)> = TOOLS.iter().filter(|(name, _, _)| lower.contains(name)).collect();
    let normalized: String = if named_tools.is_empty() {
        String::new()
    } else {
        let spaced: String = lower.chars().map(|c| if matches!(c, '?' | ',' | '!' | '\'') { ' ' } else { c }).collect();
        format!(" {} ", spaced.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    let said = |name: &str, phrases: &[&str]| phrases.iter().any(|p| normalized.contains(&p.replace('*', name)));
    let versions = [" * version", " * --version", " * -v ", "version of * ", " * 버전", " *의 버전", " * 몇 버전"];
    let places = [
        "where is * ",
        "where * is",
        "where's * ",
        "where did * ",
        "path to * ",
        "path of * ",
        " * installed",
        " * 어디",
        " *가 어디",
        " *는 어디",
        " *은 어디",
        " *이 어디",
        " * 설치 위치",
        " * 설치된 곳",
        " * 경로",
        " *의 경로",
    ];
    for (name, command, version) in named_tools {
        if said(name, &versions) {
            return Some(match lang {
                Lang::Ko => format!("`{version}`로 설치된 버전을 볼 수 있습니다. 명령을 찾을 수 없다고 나오면 설치되어 있지 않거나 PATH에 없는 것입니다."),
                Lang::En => format!("`{version}` prints the installed version. If the shell says the command is not found, it is not installed or not on your PATH."),
            });
        }
        if said(name, &places) {
            let python = if *command == "python3" {
                lang.pick(
                    " 스크립트가 실제로 쓰는 파이썬은 `python3 -c 'import sys; print(sys.executable)'`로 확인하세요.",
                    " To see the one a script really runs, use `python3 -c 'import sys; print(sys.executable)'`.",
                )
            } else {
                ""
            };
            return Some(match lang {
                Lang::Ko => format!("`command -v {command}`가 셸이 실행하는 `{command}`의 경로를 보여 줍니다(`which {command}`도 같습니다).{python}"),
                Lang::En => format!("`command -v {command}` prints the path of the `{command}` your shell runs (`which {command}` too).{python}"),
            });
        }
    }
    // "how do I count lines in all .rs files?", "app.py 몇 줄이야": wc -l (줄 수/몇 줄/라인 수: how many lines).
    // Not the last or first lines of a log to read ("로그 마지막 몇 줄").
    let counts =
        WordList("count lines|count the lines|line count|lines of code|how many lines|줄 수|몇 줄|라인 수|줄수")
            .any(|w| lower.contains(w))
            && !WordList("log|로그|tail|last|first|마지막|처음|앞부분|끝부분").any(|w| lower.contains(w));
    if counts {
        let extension = text.split_whitespace().find_map(|w| {
            let w = w.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | '?' | '(' | ')'));
            let ext = w.strip_prefix("*.").or_else(|| w.strip_prefix('.'))?;
            let ext = &ext[..ext.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(ext.len())];
            (1..=6).contains(&ext.len()).then_some(ext)
        });
        let named = text
            .split_whitespace()
            .find_map(file_name)
            .filter(|n| !n.starts_with('.') && n.chars().all(|c| c.is_ascii_alphanumeric() || "._-/~".contains(c)));
        return Some(match (named, extension, lang) {
            (Some(file), _, Lang::Ko) => format!("`wc -l {file}`가 그 파일의 줄 수를 보여 줍니다."),
            (Some(file), _, Lang::En) => format!("`wc -l {file}` prints how many lines it has."),
            (None, Some(ext), Lang::Ko) => format!(
                "`find . -name '*.{ext}' -print0 | xargs -0 wc -l`가 이 폴더 아래 .{ext} 파일마다 줄 수를 보여 주고, 마지막 줄이 합계입니다. \
                 Git 저장소라면 `git ls-files '*.{ext}' | xargs wc -l`이 추적하지 않는 파일(빌드 결과 등)을 뺍니다."
            ),
            (None, Some(ext), Lang::En) => format!(
                "`find . -name '*.{ext}' -print0 | xargs -0 wc -l` prints the lines of every .{ext} file under this folder; the last line is the total. \
                 In a git repository, `git ls-files '*.{ext}' | xargs wc -l` leaves out files git does not track (build output and the like)."
            ),
            // "how many lines of code are in this project": the files git tracks.
            (None, None, Lang::Ko) if WordList("project|codebase|repo|코드|프로젝트|저장소").any(|w| lower.contains(w)) => {
                "`git ls-files | xargs wc -l | tail -n 1`이 git이 추적하는 파일의 줄 수 합계를 보여 줍니다(빌드 결과와 node_modules는 빠집니다). \
                 종류별로 보려면 `git ls-files '*.rs' | xargs wc -l`처럼 확장자를 주세요."
                    .to_string()
            }
            (None, None, Lang::En) if WordList("project|codebase|repo|code").any(|w| lower.contains(w)) => {
                "`git ls-files | xargs wc -l | tail -n 1` prints the total lines of the files git tracks (build output and node_modules \
                 left out); for one kind, give its ending: `git ls-files '*.rs' | xargs wc -l`."
                    .to_string()
            }
            (None, None, Lang::Ko) => "`wc -l <file>`이 파일의 줄 수를 보여 줍니다. 여러 파일이면 `wc -l *.txt`처럼 쓰면 마지막 줄이 합계입니다.".to_string(),
            (None, None, Lang::En) => "`wc -l <file>` prints how many lines a file has; for several (`wc -l *.txt`) the last line is the total.".to_string(),
        });
    }
    // "how do I rename a file?", "파일 이름 바꾸는 명령어": mv, not a git branch.
    let renames = WordList("rename|이름 바꾸|이름을 바꾸|이름 변경|이름을 변경|파일명 바꾸|파일명 변경")
        .any(|w| lower.contains(w));
    let file = text
        .split_whitespace()
        .find_map(file_name)
        .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || "._-/~".contains(c)));
    let of_files = file.is_some() || WordList("file|파일|folder|폴더").any(|w| lower.contains(w));
    let other_names =
        WordList("branch|브랜치|git|column|table|컬럼|테이블|function|variable|class|method|함수|변수|클래스|메서드");
    if renames && of_files && !other_names.any(|w| lower.contains(w)) {
        let old = file.unwrap_or("<old-name>");
        return Some(match lang {
            Lang::Ko => format!(
                "`mv {old} <new-name>`로 이름을 바꿉니다(폴더도 같습니다). <new-name>이라는 파일이 이미 있으면 묻지 않고 덮어쓰니, \
                 확인받으려면 `mv -i`를 쓰세요."
            ),
            Lang::En => format!(
                "`mv {old} <new-name>` renames it (a folder too). It overwrites a file already called <new-name> without asking; \
                 `mv -i` asks first."
            ),
        });
    }
    how_to(HOW_TOS, &lower, lang).map(|answer| with_port(answer, text))
}

/// `answer` with the port `text` names in place of its example's 8080 (a firewall, Windows, a
/// refused connection), and without the note that says to put it there.
fn with_port(answer: String, text: &str) -> String {
    match request_port(text) {
        Some(port) if answer.contains("8080") => answer
            .replace(" (your port in place of 8080)", "")
            .replace("(8080 자리에 그 포트)", "")
            .replace("8080", &port.to_string()),
        _ => answer,
    }
}

/// A fixed answer of `table` whose cues the message (`lower`, in lower case) holds: every cue
/// list must have a word in it (a list written `!|…` must have none), first match wins.
fn how_to(table: &[(&[WordList], &str, &str)], lower: &str, lang: Lang) -> Option<String> {
    let shape = Shape::of(lower);
    let has = |w: &str| shape.may_hold(w) && lower.contains(w);
    let holds = |cue: &WordList| match cue.0.strip_prefix("!|") {
        Some(none_of) => !WordList(none_of).any(has),
        None => cue.any(has),
    };
    table.iter().find(|(cues, _, _)| cues.iter().all(holds)).map(|(_, ko, en)| lang.pick(ko, en).to_string())
}

/// Error messages with a fixed answer, read like `HOW_TOS`: npm's EACCES (a global install
/// into a folder the user cannot write: not sudo), Docker's socket refused to a user outside
/// the docker group.
const ERRORS: &[(&[WordList], &str, &str)] = &[
    (
        &[WordList("timed out|time out|timeout"), WordList("ssh|connect|port|host")],
        "상대에게서 아무 응답이 없었다는 뜻입니다(refused라면 상대가 응답은 한 것입니다). 주소가 틀렸거나 닿을 수 없는 곳이거나, 방화벽이 \
         막고 있습니다. `ping <호스트>`로 닿는지, `nc -zv <호스트> 22`(22 자리에 그 포트)로 포트가 열렸는지 보세요. 클라우드 서버라면 보안 그룹이나 \
         방화벽 규칙이 내 IP에서 그 포트를 허용해야 합니다.",
        "Nothing answered (\"refused\" would mean the machine did): the address is wrong or unreachable, or a firewall drops the \
         packets. `ping <host>` shows whether it is reachable, and `nc -zv <host> 22` (your port in place of 22) whether the port \
         is open. On a cloud server, its security group or firewall must allow that port from your IP.",
    ),
    (
        &[WordList("tar:|gzip:|unzip:"), WordList(TAR_ERRORS.0)],
        "압축 파일을 열지 못했다는 뜻입니다. 이름이나 폴더가 틀렸다면 `ls -l <파일>`(또는 `ls *.tgz`)로 확인하고 전체 경로를 주거나 그 \
         폴더로 `cd`하세요. 파일이 있는데도 그렇다면 `file <파일>`로 정말 압축 파일인지 보세요. 내려받기에 실패한 파일은 HTML 페이지인 \
         경우가 많고, 끝이 잘린 파일(unexpected end of file)은 다시 받아야 합니다.",
        "The archive could not be read. If the name or folder is wrong, check with `ls -l <file>` (or `ls *.tgz`), then give the full \
         path or `cd` to its folder. If the file is there, `file <file>` tells whether it really is an archive: a failed download is \
         often an HTML page, and one cut short (unexpected end of file) has to be downloaded again.",
    ),
    (
        &[WordList("permission denied (publickey)|publickey denied")],
        "서버(GitHub 등)가 이 컴퓨터의 SSH 키를 받아들이지 않았다는 뜻입니다. `ssh -T git@github.com`으로 확인하고, `ssh-add -l`이 비어 \
         있으면 `ssh-add ~/.ssh/id_ed25519`로 키를 올리세요. 키가 없다면 `ssh-keygen -t ed25519`로 만들고 공개 키(~/.ssh/id_ed25519.pub)를 \
         GitHub의 SSH keys 설정에 더하세요. HTTPS 주소로 clone하는 방법도 있습니다.",
        "The server (GitHub, say) did not accept this machine's SSH key. Check with `ssh -T git@github.com`; if `ssh-add -l` lists nothing, \
         load yours with `ssh-add ~/.ssh/id_ed25519`. With no key yet, make one (`ssh-keygen -t ed25519`) and add the public half \
         (~/.ssh/id_ed25519.pub) to your GitHub SSH keys. Cloning over the HTTPS address works too.",
    ),
    (
        &[WordList("eaddrinuse|address already in use|port is already in use|port already in use|포트가 이미 사용 중|이미 사용 중인 포트")],
        "다른 프로그램이 이미 그 포트를 쓰고 있다는 뜻입니다. `lsof -i :8080`(8080 자리에 그 포트)이 그 프로그램과 PID를 보여 주고, \
         `kill <PID>`로 끝내거나 내 프로그램을 다른 포트로 띄우세요(예: `PORT=3001 npm start`). 방금 끈 내 서버가 아직 남아 있는 경우가 많습니다.",
        "Another program is already listening on that port. `lsof -i :8080` (your port in place of 8080) shows which, with its PID; \
         end it with `kill <PID>`, or start yours on another port (e.g. `PORT=3001 npm start`). Often it is your own server, still running.",
    ),
    (
        &[WordList("refusing to merge unrelated histories")],
        "두 브랜치에 공통 커밋이 하나도 없다는 뜻입니다(예: 새로 만든 로컬 저장소와 README가 이미 있는 원격 저장소). 둘을 합치려는 게 맞다면 \
         `git pull origin main --allow-unrelated-histories`로 가져와 충돌을 고치고 커밋하세요. 원격을 잘못 만든 거라면 clone부터 다시 하는 편이 깔끔합니다.",
        "The two branches share no commit (say, a new local repository and a remote that already had a README). If you do mean to join \
         them, `git pull origin main --allow-unrelated-histories`, fix any conflicts and commit. If the remote was made by mistake, \
         starting again from a clone is cleaner.",
    ),
    (
        &[WordList("segmentation fault|segfault|core dumped|sigsegv")],
        "프로그램이 접근하면 안 되는 메모리를 건드려 운영체제가 멈춘 것입니다. 입력한 명령이 아니라 그 프로그램(또는 불러온 라이브러리)의 \
         버그입니다. 다시 실행해 반복되는지 보고, 프로그램과 라이브러리를 업데이트하세요. 직접 만든 C/C++ 코드라면 `gdb ./프로그램`에서 `run` 뒤 `bt`로 \
         어디서 멈췄는지 보거나 `-fsanitize=address`로 빌드하세요.",
        "The program touched memory it had no right to, and the OS stopped it: a bug in that program (or a library it loads), not in \
         what you typed. Run it again to see whether it repeats, and update the program and its libraries. For your own C or C++ code, \
         `gdb ./program`, then `run` and `bt`, shows where it stopped; building with `-fsanitize=address` pinpoints it.",
    ),
    (
        &[WordList("not a git repository")],
        "지금 폴더가 Git 저장소 안이 아니라는 뜻입니다. 프로젝트 폴더(.git이 있는 곳)로 `cd`하거나, 새로 시작하는 프로젝트라면 `git init`으로 \
         이 폴더를 저장소로 만드세요. 저장소 안에서는 `git rev-parse --show-toplevel`이 그 맨 위 폴더를 보여 줍니다.",
        "This folder is not inside a git repository. `cd` into the project's folder (the one with .git), or, for a new project, make this \
         folder one with `git init`. Inside a repository, `git rev-parse --show-toplevel` prints its top folder.",
    ),
    (
        &[WordList("eresolve|could not resolve dependency|unable to resolve dependency tree|conflicting peer dependency")],
        "패키지들이 서로 다른 버전의 같은 의존성(peer dependency)을 요구해서 npm이 설치를 멈춘 것입니다. 메시지의 \"Found\"와 \"Could not \
         resolve\" 줄이 어떤 패키지끼리 맞지 않는지 알려 줍니다. 그 패키지의 버전을 맞추는 것이 바른 해결이고, \
         `npm install --legacy-peer-deps`는 이 검사를 건너뛰는(예전 npm처럼 설치하는) 임시 방편입니다.",
        "Two packages want different versions of the same peer dependency, so npm stopped. The \"Found\" and \"Could not resolve\" lines \
         say which ones clash. Aligning those versions is the fix; `npm install --legacy-peer-deps` skips the check (as npm 6 did) as a \
         stopgap.",
    ),
    (
        // 메모리 부족: out of memory; 메모리가 부족: memory is short
        &[WordList(
            "out of memory|heap out of memory|javascript heap|cannot allocate memory|oom-kill|oom killer|exit code 137|\
             memory allocation failed|메모리 부족|메모리가 부족",
        )],
        "메모리가 모자라 프로세스가 멈췄거나 커널이 끝낸 것입니다. `free -h`로 남은 메모리를, `sudo dmesg | grep -i -E 'killed process|out of \
         memory'`로 커널이 끝낸 프로세스를 확인하세요. Node라면 `NODE_OPTIONS=--max-old-space-size=4096`(MB)로 힙을 늘릴 수 있고, 빌드라면 \
         동시 작업 수를 줄이세요(`make -j2`, `cargo build -j 2`). 메모리가 작은 서버라면 스왑 파일을 더하는 것도 방법입니다.",
        "The process ran out of memory, or the kernel ended it for that. `free -h` shows what is left, and `sudo dmesg | grep -i -E \
         'killed process|out of memory'` whether the kernel killed it. For Node, `NODE_OPTIONS=--max-old-space-size=4096` (in MB) gives it \
         a larger heap; for a build, run fewer jobs at once (`make -j2`, `cargo build -j 2`). On a small server, a swap file helps too.",
    ),
    (
        &[WordList("no space left on device|디스크 공간이 부족|disk is full")],
        "디스크가 가득 찼습니다. `df -h`가 어느 마운트가 찼는지 보여 주고, `sudo du -xh / 2>/dev/null | sort -h | tail -n 20`이 가장 큰 \
         폴더를 보여 줍니다. 흔한 원인은 로그(`sudo journalctl --vacuum-size=200M`), Docker(`docker system df`, 정리는 \
         `docker system prune`), 패키지 캐시입니다. 지우기 전에 무엇인지 확인하세요.",
        "The disk is full. `df -h` shows which mount, and `sudo du -xh / 2>/dev/null | sort -h | tail -n 20` the largest folders on it. \
         The usual culprits are logs (`sudo journalctl --vacuum-size=200M`), Docker (`docker system df`; `docker system prune` clears it) \
         and package caches. Look at what something is before you delete it.",
    ),
    (
        &[WordList("connection refused|econnrefused|연결이 거부")],
        "그 주소와 포트에서 아무것도 연결을 기다리고 있지 않다는 뜻입니다. 서버가 떠 있는지, 그 포트가 맞는지 `lsof -i :8080`(8080 자리에 \
         그 포트)이나 `ss -ltnp`로 확인하세요. 컨테이너나 다른 컴퓨터의 서버라면 127.0.0.1이 아닌 0.0.0.0에서 기다리는지도 보세요.",
        "Nothing is listening at that address and port. Check that the server is running and on that port with `lsof -i :8080` \
         (your port in place of 8080) or `ss -ltnp`. For a server in a container or on another machine, check that it listens on \
         0.0.0.0, not only 127.0.0.1.",
    ),
    (
        &[WordList("ssl certificate problem|certificate verify failed|unable to get local issuer certificate|self signed certificate|self-signed certificate")],
        "이 컴퓨터가 그 서버의 인증서를 발급한 기관을 믿지 못한다는 뜻입니다. 루트 인증서를 갱신하고(`sudo apt install ca-certificates`, \
         macOS는 시스템 업데이트), 회사 프록시 뒤라면 그 프록시의 인증서를 시스템에 더하세요. 검증을 끄는 옵션(`curl -k`, \
         `git config http.sslVerify false`)은 오가는 내용을 가로챌 수 있게 하니 시험용으로만 쓰세요.",
        "This machine does not trust whoever issued the server's certificate. Update its root certificates (`sudo apt install \
         ca-certificates`; on macOS, a system update); behind a company proxy, add the proxy's certificate to the system. Turning the \
         check off (`curl -k`, `git config http.sslVerify false`) lets anyone in between read the traffic: use it only to test.",
    ),
    (
        &[WordList("eacces"), WordList("npm")],
        "npm이 전역 패키지 폴더에 쓸 권한이 없다는 뜻입니다(EACCES). `sudo`로 설치하지 마세요. 전역 폴더를 내 홈 아래로 옮기면 됩니다: \
                 `npm config set prefix ~/.npm-global` 후 `~/.npm-global/bin`을 PATH에 더하세요. nvm으로 설치한 Node라면 이 문제가 생기지 않습니다. \
                 프로젝트 안의 `npm install`에서 났다면 `node_modules`의 소유자를 확인하세요(`ls -ld node_modules`).",
        "npm may not write to its global packages folder (EACCES). Don't install with `sudo`; move that folder under your home instead: \
                 `npm config set prefix ~/.npm-global`, then add `~/.npm-global/bin` to your PATH. A Node installed with nvm does not have this problem. \
                 If it came from `npm install` inside a project, check who owns `node_modules` (`ls -ld node_modules`).",
    ),
    (
        &[WordList("docker"), WordList("permission denied"), WordList("sock")],
        "이 사용자가 Docker 데몬에 접근할 권한이 없습니다. `sudo usermod -aG docker $USER`로 docker 그룹에 넣은 뒤 로그아웃했다가 \
                 다시 로그인하세요. docker 그룹은 root와 같은 권한을 가지므로, 공용 서버에서는 관리자와 먼저 상의하세요.",
        "This user may not reach the Docker daemon. Add it to the docker group with `sudo usermod -aG docker $USER`, then log out and \
                 back in. Membership of the docker group is as good as root, so on a shared server ask its admin first.",
    ),
];

/// Words that name Windows: 윈도우/윈도: Windows; 파워셸/파워쉘: PowerShell.
const WINDOWS: WordList = WordList("windows|powershell|cmd.exe|윈도우|윈도|파워셸|파워쉘");

/// Everyday how-tos the no-key assistant answers outright (see `how_to`), in Korean and in
/// English.
// 환경 변수/환경변수: environment variable; 영구/계속/항상: for good; 설정/추가/등록: set, add; 확인/보/출력/목록:
// check, see, print, list; 아이피/IP 주소: IP address; 거부/거절/안 돼: refused; 버리/취소/되돌리: throw away, undo;
// 변경/수정: changes; 숨김/숨긴/숨겨진: hidden; 심볼릭/바로 가기: symbolic, shortcut; 복사: copy; 폴더/디렉터리:
// folder; 다운로드/내려받/받는: download; 링크/주소: link, address; 윈도우/파워셸: Windows, PowerShell; 맥: Mac;
// 종료/죽이/죽여: end, kill; 디스크/용량/공간/드라이브: disk, space, drive; 메모리: memory; 푸시: push; 올렸: pushed
// (uploaded); 마지막/방금/최근/직전: last, just now, recent, previous.
/// Leftovers tools make, which a request may ask to clear everywhere: the name as written, the
/// same in lower case (as a message is searched), and the command that finds and removes every
/// one under this folder.
const JUNK: &[(&str, &str, &str)] = &[
    (".DS_Store", ".ds_store", "find . -name '.DS_Store' -type f -delete"),
    ("__pycache__", "__pycache__", "find . -name '__pycache__' -type d -prune -exec rm -rf {} +"),
    (".pyc", ".pyc", "find . -name '*.pyc' -type f -delete"),
    ("Thumbs.db", "thumbs.db", "find . -name 'Thumbs.db' -type f -delete"),
    (".orig", ".orig", "find . -name '*.orig' -type f -delete"),
];

const HOW_TOS: &[(&[WordList], &str, &str)] = &[
    // Undoing an amend goes back to the commit before it, not to its parent (되돌/취소/원래대로: undo).
    (
        &[WordList("amend"), WordList("undo|revert|take back|cancel|되돌|취소|원래대로")],
        "`git reset --soft HEAD@{1}`이 브랜치를 amend 직전의 커밋으로 돌려놓고, amend로 더한 변경은 스테이징된 채 남깁니다. 그 직전 커밋은 \
         `git reflog`로 확인할 수 있습니다. amend한 커밋을 이미 push했다면 다시 올릴 때 `git push --force-with-lease`가 필요합니다.",
        "`git reset --soft HEAD@{1}` moves the branch back to the commit as it was before the amend and keeps what the amend added \
         staged; `git reflog` shows that earlier commit. If the amended commit was pushed, pushing again needs `git push --force-with-lease`.",
    ),
    // Python packages, not the system's (업그레이드/업데이트/최신: upgrade, update, latest).
    (
        &[
            WordList("pip|파이썬 패키지|python package|파이썬 라이브러리|python librar"),
            WordList("upgrade|update|업그레이드|업데이트|최신"),
        ],
        "`python3 -m pip install --upgrade <패키지>`가 그 패키지를 최신으로 올립니다. 오래된 것의 목록은 `python3 -m pip list --outdated`, \
         pip 자체는 `python3 -m pip install --upgrade pip`. 프로젝트라면 가상 환경을 켠 뒤 하고, 바뀐 버전은 `pip freeze > requirements.txt`로 남기세요.",
        "`python3 -m pip install --upgrade <package>` brings a package to its latest version; `python3 -m pip list --outdated` lists the \
         old ones, and `python3 -m pip install --upgrade pip` updates pip itself. In a project, activate its virtual environment first, \
         and record the new versions with `pip freeze > requirements.txt`.",
    ),
    // 포트/열려/열렸/닫혀/접속되/연결되: port, open, closed, reachable.
    (
        &[
            WordList("port|포트"),
            WordList("is open|is it open|are open|reachable|열려|열렸|닫혀|접속되|연결되|뚫려"),
            // Opening one in the firewall is another answer.
            WordList("!|windows|powershell|cmd.exe|윈도우|윈도|파워셸|파워쉘|firewall|방화벽|허용|열어"),
        ],
        "이 컴퓨터에서 그 포트를 듣고 있는 프로그램은 `sudo lsof -i :8080`(또는 `ss -ltnp | grep 8080`)(8080 자리에 그 포트)이 보여 줍니다. \
         다른 컴퓨터에서 닿는지는 그쪽에서 `nc -zv <서버 주소> 8080`로 보세요. succeeded/open이면 열려 있고, refused는 듣는 프로그램이 \
         없다는 뜻, 시간 초과는 방화벽이 막고 있다는 뜻입니다(`sudo ufw status`로 확인).",
        "On this machine, `sudo lsof -i :8080` (or `ss -ltnp | grep 8080`) (your port in place of 8080) shows the program listening on it. \
         Whether it can be reached from elsewhere: run `nc -zv <server address> 8080` on the other machine. \"succeeded\" or \"open\" means \
         open; \"refused\" means nothing listens there; a timeout usually means a firewall drops it (`sudo ufw status` shows the rules).",
    ),
    // 스테이징/add 한/add한: staged, added; 취소/되돌/빼: undo, take out.
    (
        &[
            WordList("git add|staged|staging|unstage|스테이징|add 한|add한|add 취소|add를 취소"),
            WordList("undo|unstage|cancel|remove|take back|take out|취소|되돌|빼"),
            WordList("!|commit|커밋"),
        ],
        "`git restore --staged <파일>`이 그 파일을 스테이징에서 빼고, 고친 내용은 그대로 둡니다(전부는 `git restore --staged .`). \
         오래된 git이라면 `git reset <파일>`이 같은 일을 합니다. 파일의 내용은 바뀌지 않습니다.",
        "`git restore --staged <file>` takes the file out of the staging area and keeps your edits (`git restore --staged .` for all \
         of them); on an older git, `git reset <file>` does the same. Nothing in your files changes.",
    ),
    // 도커/이미지/용량/크기/큰/공간: Docker, image, disk use, size, large, space.
    (
        &[
            WordList("docker|도커"),
            WordList("image|이미지"),
            WordList("space|size|big|large|most|disk|용량|크기|큰|공간|차지"),
        ],
        "`docker system df`가 이미지, 컨테이너, 볼륨, 빌드 캐시가 각각 차지하는 공간을 보여 주고, \
         `docker images --format '{{.Size}}\\t{{.Repository}}:{{.Tag}}' | sort -h`가 이미지를 크기순으로(가장 큰 것이 마지막) 나열합니다. \
         `docker image prune`은 이름 없는(dangling) 이미지를, `docker image prune -a`는 어떤 컨테이너도 쓰지 않는 이미지를 모두 지웁니다.",
        "`docker system df` shows how much space images, containers, volumes and the build cache each take, and \
         `docker images --format '{{.Size}}\\t{{.Repository}}:{{.Tag}}' | sort -h` lists the images by size (the largest last). \
         `docker image prune` removes dangling (untagged) images; `docker image prune -a` every image no container uses.",
    ),
    // Windows first: the Linux answers below do not work there.
    (
        &[WINDOWS, WordList("port|포트")],
        "`netstat -ano | findstr :8080`(8080 자리에 그 포트)이 그 포트를 쓰는 연결을 보여 주고, 마지막 열이 PID입니다. \
         `tasklist /FI \"PID eq <PID>\"`가 그 프로그램의 이름을, `taskkill /PID <PID> /F`가 종료를 합니다(저장하지 않은 작업은 사라집니다). \
         PowerShell에서는 `Get-NetTCPConnection -LocalPort 8080`도 됩니다.",
        "`netstat -ano | findstr :8080` (your port in place of 8080) lists the connections on that port; the last column is the PID. \
         `tasklist /FI \"PID eq <PID>\"` names the program and `taskkill /PID <PID> /F` ends it (unsaved work in it is lost). \
         In PowerShell, `Get-NetTCPConnection -LocalPort 8080` works too.",
    ),
    (
        &[WINDOWS, WordList("kill|terminate|end the process|end it|end a process|종료|죽이|죽여")],
        "`tasklist`가 실행 중인 프로그램과 PID를 보여 주고, `taskkill /PID <PID> /F`가 하나를, `taskkill /IM <이름>.exe /F`가 \
         그 이름의 프로그램 전부를 끝냅니다. 저장하지 않은 작업은 사라집니다.",
        "`tasklist` lists the running programs with their PIDs; `taskkill /PID <PID> /F` ends one and `taskkill /IM <name>.exe /F` \
         every copy of a program by name. Unsaved work in them is lost.",
    ),
    (
        &[WINDOWS, WordList("disk|space|drive|folder size|디스크|용량|공간|드라이브")],
        "PowerShell에서 `Get-PSDrive -PSProvider FileSystem`이 드라이브마다 쓴 공간과 남은 공간을 보여 줍니다. 폴더 하나의 크기(MB)는 \
         `(Get-ChildItem <폴더> -Recurse -File | Measure-Object Length -Sum).Sum / 1MB`.",
        "In PowerShell, `Get-PSDrive -PSProvider FileSystem` shows each drive's used and free space; a folder's size in MB is \
         `(Get-ChildItem <folder> -Recurse -File | Measure-Object Length -Sum).Sum / 1MB`.",
    ),
    (
        &[WINDOWS, WordList("process|cpu|memory|ram|프로세스|메모리")],
        "`tasklist`가 실행 중인 프로그램을 보여 주고, PowerShell에서는 \
         `Get-Process | Sort-Object CPU -Descending | Select-Object -First 10`이 CPU를 많이 쓴 상위 10개를 보여 줍니다(메모리는 CPU 자리에 WS).",
        "`tasklist` lists the running programs; in PowerShell, `Get-Process | Sort-Object CPU -Descending | Select-Object -First 10` \
         shows the 10 that used the most CPU (WS in place of CPU for memory).",
    ),
    (
        &[WINDOWS, WordList("environment variable|env var|path|환경 변수|환경변수")],
        "`setx NAME value`가 새로 여는 창부터 적용되게 저장하고(열려 있는 창에는 적용되지 않습니다), PowerShell의 `$env:NAME = 'value'`는 \
         지금 창에만 적용되며 `$env:NAME`이 값을 보여 줍니다. PATH는 설정 → 시스템 → 정보 → 고급 시스템 설정 → 환경 변수에서 바꾸는 것이 안전합니다.",
        "`setx NAME value` keeps it for windows opened from now on (not the open one); in PowerShell, `$env:NAME = 'value'` sets it for \
         this window only and `$env:NAME` prints it. PATH is safest to change under Settings → System → About → Advanced system settings → \
         Environment Variables.",
    ),
    (
        &[WINDOWS, WordList("ip address|my ip|ip 주소|ip주소|아이피|내 ip")],
        "`ipconfig`가 이 컴퓨터의 주소를 보여 줍니다. 쓰고 있는 어댑터 아래의 IPv4 주소가 네트워크 안에서의 주소입니다.",
        "`ipconfig` shows this machine's addresses: the IPv4 Address under the adapter in use is its address on the network.",
    ),
    (
        &[WordList("mac|macos|맥"), WordList("ip address|my ip|ip 주소|ip주소|아이피|내 ip")],
        "macOS에서는 `ipconfig getifaddr en0`이 Wi-Fi(보통 en0)의 주소를 보여 주고, `ifconfig`가 모든 네트워크의 주소를 보여 줍니다.",
        "On macOS, `ipconfig getifaddr en0` prints the Wi-Fi address (usually en0) and `ifconfig` every network's.",
    ),
    (
        &[
            WordList("already pushed|pushed it|was pushed|been pushed|pushed commit|이미 푸시|이미 push|푸시했|push했|푸시한|push한|푸시 했|이미 올렸"),
            WordList("undo|revert|cancel|take back|remove|uncommit|취소|되돌리|되돌|없애|지우"),
        ],
        "이미 푸시한 커밋은 다른 사람이 받았을 수 있으니, 새 커밋으로 되돌리세요. `git revert HEAD`(또는 `git revert <커밋>`)가 그 커밋을 거꾸로 \
         적용한 커밋을 만들고, 그다음 `git push`하면 됩니다. 기록을 고쳐 쓰는 방법(`git reset --soft HEAD~1` 뒤 `git push --force-with-lease`)은 \
         나 혼자 쓰는 브랜치에서만 안전합니다.",
        "Others may already have a pushed commit, so undo it with a new one: `git revert HEAD` (or `git revert <commit>`) makes a commit \
         that reverses it; then `git push`. Rewriting history instead (`git reset --soft HEAD~1`, then `git push --force-with-lease`) is \
         safe only on a branch no one else uses.",
    ),
    (
        &[
            WordList("commit|커밋"),
            WordList("undo|revert|cancel|take back|uncommit|취소|되돌리|되돌|없애"),
            WordList("last|latest|previous|recent|마지막|방금|최근|직전"),
        ],
        "`git reset --soft HEAD~1`이 마지막 커밋을 취소하고 그 변경은 스테이징된 채로 남기고, `git reset HEAD~1`은 스테이징하지 않은 변경으로 \
         남깁니다. 이미 푸시한 커밋이라면 대신 `git revert HEAD`(그 커밋을 거꾸로 적용한 새 커밋)를 만들어 푸시하세요. \
         `git reset --hard HEAD~1`은 변경까지 버리고, 되돌릴 수 없습니다.",
        "`git reset --soft HEAD~1` undoes the last commit and keeps its changes staged; `git reset HEAD~1` keeps them as unstaged edits. \
         If it was pushed already, make `git revert HEAD` instead (a new commit that reverses it) and push that. \
         `git reset --hard HEAD~1` throws the changes away too, for good.",
    ),
    (
        &[
            WordList("to path|to my path|to the path|path에|path 추가|path에 추가|path 설정"),
            WordList("add|put|include|set|추가|넣|설정|등록"),
        ],
        "셸 설정 파일(~/.bashrc, zsh라면 ~/.zshrc)에 `export PATH=\"$HOME/bin:$PATH\"`를 더하고($HOME/bin 자리에 그 폴더), 새 터미널을 여세요. \
         지금 셸에만 쓰려면 그 줄을 그대로 실행하면 됩니다.",
        "Add `export PATH=\"$HOME/bin:$PATH\"` (your folder in place of $HOME/bin) to your shell's startup file (~/.bashrc, or ~/.zshrc for zsh), \
         then open a new terminal. Run the line itself for this shell only.",
    ),
    (
        &[
            WordList("environment variable|env var|환경 변수|환경변수"),
            WordList("set|permanent|always|every time|add|export|bashrc|zshrc|영구|계속|항상|설정|추가|등록"),
        ],
        "`export NAME=value`는 지금 셸과 거기서 띄우는 프로그램에만 적용됩니다. 계속 쓰려면 그 줄을 ~/.bashrc(zsh라면 ~/.zshrc)에 더하고 \
         `source ~/.bashrc`를 실행하거나 새 터미널을 여세요.",
        "`export NAME=value` sets it for this shell and what it starts. To keep it, add that line to ~/.bashrc (~/.zshrc for zsh), \
         then run `source ~/.bashrc` or open a new terminal.",
    ),
    (
        &[
            WordList("environment variable|env var|환경 변수|환경변수"),
            WordList("see|show|list|check|print|view|what|확인|보|출력|목록"),
        ],
        "`printenv`(또는 `env`)가 환경 변수를 모두 보여 주고, `echo $NAME`이 하나의 값을 출력합니다. 이름으로 찾으려면 `printenv | grep NAME`.",
        "`printenv` (or `env`) lists them all and `echo $NAME` prints one; `printenv | grep NAME` finds one by name.",
    ),
    (
        // 공인/외부: public, external
        &[WordList("ip address|my ip|public ip|external ip|ip 주소|ip주소|아이피|내 ip|공인 ip|공인ip|외부 ip")],
        "`ip addr`(macOS는 `ifconfig`)가 이 컴퓨터의 네트워크 주소를 보여 줍니다. 인터넷에서 보이는 공인 주소는 `curl ifconfig.me`로 \
         볼 수 있는데, 이 명령은 그 웹 서비스에 요청을 보냅니다.",
        "`ip addr` (`ifconfig` on macOS) shows this machine's addresses on its networks. `curl ifconfig.me` shows the public address the \
         internet sees; it sends a request to that web service.",
    ),
    (
        &[WordList("force push|force-push|push --force|push -f|강제로 푸시|강제 푸시|강제로 push|강제 push|푸시 강제")],
        "`git push --force-with-lease`가 원격 브랜치를 내 것으로 덮어쓰되, 그사이 다른 사람이 올린 커밋이 있으면 거부합니다(`--force`는 확인 없이 \
         덮어씁니다). 원격에만 있던 커밋은 사라지니, 나 혼자 쓰는 브랜치에서만 하세요.",
        "`git push --force-with-lease` overwrites the remote branch with yours but refuses if someone else pushed meanwhile (`--force` \
         does not check). Commits that were only on the remote are lost, so do it only on a branch no one else uses.",
    ),
    (
        &[
            WordList("push"),
            WordList("rejected|non-fast-forward|fetch first|failed to push|거부|거절|안 돼|안돼|실패"),
            WordList("git|remote|origin|non-fast-forward|fetch first|깃"),
        ],
        "원격 저장소에 내게 없는 커밋이 있다는 뜻입니다. `git pull --rebase`로 내 커밋을 그 위로 옮긴 뒤 `git push`하세요. \
         함께 쓰는 브랜치에 `git push --force`는 하지 마세요. 다른 사람의 커밋을 지웁니다.",
        "The remote has commits you don't have. `git pull --rebase` puts yours on top of them; then `git push`. \
         Don't `git push --force` to a shared branch: it throws away the others' commits.",
    ),
    (
        &[
            WordList("discard|throw away|get rid of|undo my|revert my|reset my|버리|버릴|되돌리|취소"),
            WordList("local change|uncommitted|changes|change in|변경|수정"),
        ],
        "`git restore <file>`이 그 파일의 커밋하지 않은 변경을 버리고, `git restore .`은 전부 버립니다. 버린 변경은 되돌릴 수 없으니, \
         나중에 쓸 수도 있다면 `git stash`로 치워 두세요. 새로 만든(추적하지 않는) 파일은 남습니다. `git clean -n`이 목록을, \
         `git clean -f`가 삭제를 합니다.",
        "`git restore <file>` throws away one file's uncommitted changes and `git restore .` all of them; they cannot be brought back, \
         so `git stash` them instead if you may want them later. New files git does not track stay: `git clean -n` lists them, \
         `git clean -f` deletes them.",
    ),
    (
        &[
            WordList("what changed|what was changed|changes in|changed in|diff of|바뀐|변경 내용|변경된|뭐 바뀌|뭐가 바뀌"),
            WordList("last commit|latest commit|previous commit|that commit|마지막 커밋|최근 커밋|방금 커밋|직전 커밋"),
        ],
        "`git show HEAD`가 마지막 커밋의 메시지와 변경 내용을 보여 주고, `git show --stat HEAD`는 바뀐 파일 목록만 보여 줍니다. \
         다른 커밋은 HEAD 자리에 그 해시를 넣으세요.",
        "`git show HEAD` shows the last commit's message and changes; `git show --stat HEAD` lists only the files it changed. \
         For another commit, put its hash in place of HEAD.",
    ),
    (
        &[
            WordList("conflict|충돌|컨플릭트"),
            WordList("git|merge|rebase|pull|file|branch|머지|병합|리베이스|깃|파일|브랜치"),
        ],
        "`git status`가 충돌한 파일을 보여 줍니다. 파일마다 `<<<<<<<`와 `>>>>>>>` 사이에서 남길 내용을 고르고 표시 줄을 지운 뒤 \
         `git add <파일>`, 모두 끝나면 `git commit`(rebase 중이라면 `git rebase --continue`)입니다. 처음으로 돌아가려면 `git merge --abort`.",
        "`git status` lists the files in conflict. In each, keep what you want between `<<<<<<<` and `>>>>>>>` and delete the marker lines, \
         then `git add <file>`; when all are done, `git commit` (or `git rebase --continue` during a rebase). `git merge --abort` goes back \
         to before the merge.",
    ),
    (
        &[
            WordList("merge|머지|병합"),
            WordList("main|master|develop|branch|브랜치|메인"),
            WordList("!|merged|delete|remove|conflict|지우|삭제|충돌"),
        ],
        "내 브랜치에서(`git switch <내 브랜치>`) `git fetch origin` 뒤에 `git merge origin/main`이 최신 main을 합칩니다. \
         충돌이 나면 `git status`가 그 파일을 보여 주고, 고친 뒤 `git add`와 `git commit`으로 마칩니다.",
        "On your branch (`git switch <your-branch>`), `git fetch origin` then `git merge origin/main` brings in the latest main. \
         If files conflict, `git status` lists them; fix them, then `git add` and `git commit`.",
    ),
    (
        &[
            WordList("docker|container|도커|컨테이너"),
            WordList("stopped|exited|unused|old|멈춘|중지된|안 쓰는|종료된"),
            WordList("remove|delete|clean|prune|get rid|지우|삭제|정리|없애"),
        ],
        "`docker container prune`이 멈춘 컨테이너를 모두 지웁니다(지우기 전에 묻고, `-f`를 붙이면 묻지 않습니다). 그 안에만 있던 데이터는 \
         사라지니, 남길 것이 있으면 먼저 `docker ps -a`로 확인하세요. 쓰지 않는 이미지까지 지우려면 `docker image prune`.",
        "`docker container prune` removes every stopped container (it asks first; `-f` skips the question). Data kept only inside them is \
         gone, so check `docker ps -a` first if something matters. `docker image prune` removes unused images too.",
    ),
    (
        &[
            WordList("replace|바꾸|바꿔|치환"),
            // "replace foo with bar in all .js files": what replaces what, said with "with".
            WordList("text|word|string| with |텍스트|단어|문자열|글자"),
            WordList("files|all|every|여러|모든|전체|파일들"),
        ],
        "`grep -rl '옛말' . | xargs sed -i 's/옛말/새말/g'`이 이 폴더 아래 파일마다 바꿉니다(macOS는 `sed -i ''`). 되돌릴 수 없으니 먼저 \
         커밋하거나 복사해 두고, `grep -rn '옛말' .`로 어디가 바뀔지 먼저 보세요.",
        "`grep -rl 'old' . | xargs sed -i 's/old/new/g'` replaces it in every file under this folder (`sed -i ''` on macOS). It cannot be \
         undone, so commit or copy first, and look at what will change with `grep -rn 'old' .`.",
    ),
    (
        &[
            WordList("search|find|look for|grep|찾|검색"),
            WordList("word|text|string|단어|텍스트|문자열|글자"),
            WordList("files|file|folder|directory|project|파일|폴더|프로젝트|전체|모든"),
        ],
        "`grep -rn '단어' .`가 이 폴더 아래 파일에서 그 단어가 있는 줄을 파일 이름, 줄 번호와 함께 보여 줍니다. 대소문자를 가리지 않으려면 `-i`, \
         파일 이름만 보려면 `-l`. ripgrep이 있다면 `rg '단어'`가 더 빠르고 .gitignore에 있는 파일을 건너뜁니다.",
        "`grep -rn 'word' .` prints each line under this folder that has it, with the file name and line number; `-i` ignores case and \
         `-l` prints only the file names. With ripgrep, `rg 'word'` is faster and skips what .gitignore lists.",
    ),
    (
        &[
            WordList("website|site|url|server|웹사이트|사이트|서버"),
            WordList("is up|is down|up or down|responding|reachable|alive|살아|떠 있|응답|접속되"),
        ],
        "`curl -I https://example.com`(그 주소로)이 응답의 첫 줄에 상태를 보여 줍니다. 200이면 정상, 5xx면 서버 쪽 오류이고, 연결이 안 되면 \
         curl이 오류를 냅니다. 코드만 보려면 `curl -s -o /dev/null -w '%{http_code}' <URL>`.",
        "`curl -I https://example.com` (your address) shows the status on the answer's first line: 200 is fine, 5xx is a server error, and \
         curl says so when it cannot connect at all. For the code alone: `curl -s -o /dev/null -w '%{http_code}' <URL>`.",
    ),
    (
        // 커밋 기록/히스토리/로그: commit history; 예쁘게/보기 좋게/깔끔: nicely; 그래프: graph; 한 줄: one line.
        &[
            WordList("git log|커밋 기록|commit history|커밋 히스토리|커밋 로그"),
            WordList("pretty|prettier|graph|oneline|one line|compact|nicer|readable|예쁘게|그래프|한 줄|한줄|보기 좋게|간단히|깔끔"),
        ],
        "`git log --oneline --graph --decorate --all`이 커밋마다 한 줄씩, 브랜치가 갈라지고 합쳐지는 모양을 그래프로 보여 줍니다. 최근 것만 \
         보려면 `-n 20`을 붙이세요. 자주 쓴다면 `git config --global alias.lg \"log --oneline --graph --decorate --all\"`로 `git lg`를 만들어 두세요.",
        "`git log --oneline --graph --decorate --all` shows one line per commit, with a graph of where branches split and join; add `-n 20` \
         for the latest only. If you use it often, `git config --global alias.lg \"log --oneline --graph --decorate --all\"` makes it `git lg`.",
    ),
    (
        // A file taken out of git but kept on disk: 깃에서/git에서 빼/제외/지우: take out of git; 추적: tracking.
        &[
            WordList("gitignore|깃에서 빼|깃에서 제외|git에서 빼|git에서 제외|추적하지 않|추적 안|추적을 멈|untrack|stop tracking|remove from git|out of git|out of the repo"),
            WordList("file|파일|.env|폴더|folder|node_modules|config"),
        ],
        "`git rm --cached <파일>`(폴더라면 `-r`을 붙여)로 파일을 디스크에 둔 채 git의 추적에서만 빼고, 그 이름을 `.gitignore`에 한 줄 더하면(`echo '.env' >> .gitignore`) \
         다시 올라가지 않습니다. 그다음 커밋하세요. 비밀번호나 키가 든 파일을 이미 push했다면 기록에 남아 있으니 그 값들을 새로 바꾸세요.",
        "`git rm --cached <file>` (`-r` for a folder) stops git tracking it and leaves it on disk; add its name to `.gitignore` \
         (`echo '.env' >> .gitignore`) so it is not added again, then commit. If it held passwords or keys and was pushed, they are in the \
         history: change them.",
    ),
    (
        // The newest of a branch: 최신으로/최신 상태/받아오/받아 오: bring up to date, fetch.
        &[
            WordList("최신으로|최신 상태|받아오|받아 오|get the latest|pull the latest|update my branch|update the branch|up to date with"),
            WordList("branch|브랜치|main|master|git|깃|remote|원격|origin"),
        ],
        "`git switch main`(그 브랜치 이름)으로 옮긴 뒤 `git pull`이 원격의 새 커밋을 받아 합칩니다. 커밋하지 않은 변경이 있으면 먼저 `git stash`로 \
         치워 두고, 끝나면 `git stash pop`으로 되돌리세요. 내 작업 브랜치에 main의 새 커밋을 들이려면 그 브랜치에서 `git merge main`(또는 `git rebase main`).",
        "`git switch main` (the branch's name) then `git pull` fetches the remote's new commits and merges them in. With uncommitted changes, \
         `git stash` them first and `git stash pop` afterwards. To bring main's new commits into your own branch, run `git merge main` (or \
         `git rebase main`) on it.",
    ),
    (
        // 합쳐진/병합된/머지된: merged.
        // Deleting them is the git card's ("delete the merged branches").
        &[
            WordList("merged|합쳐진|병합된|머지된|머지 된"),
            WordList("branch|브랜치"),
            WordList("!|delete|remove|clean|지우|지워|삭제|정리"),
        ],
        "`git branch --merged`가 지금 브랜치에 이미 합쳐진 브랜치를 보여 줍니다. 이 브랜치들은 `git branch -d <브랜치>`로 지워도 \
         작업을 잃지 않습니다. 아직 합쳐지지 않은 것은 `git branch --no-merged`.",
        "`git branch --merged` lists the branches already merged into the current one; `git branch -d <branch>` deletes them without \
         losing work. `git branch --no-merged` lists the others.",
    ),
    (
        // 접속/들어가/로그인: connect, get in, log in.
        &[WordList("ssh"), WordList("connect|log in|login|access|접속|들어가|로그인|연결")],
        "`ssh 사용자@호스트`(예: `ssh ubuntu@203.0.113.5`)가 그 서버에 접속합니다. 다른 포트면 `-p 2222`, 특정 키면 `-i ~/.ssh/키`를 붙이세요. \
         처음 접속할 때는 서버의 지문을 믿을지 묻습니다. 자주 쓰면 ~/.ssh/config에 Host 항목으로 적어 두면 `ssh 이름`으로 됩니다.",
        "`ssh user@host` (say, `ssh ubuntu@203.0.113.5`) connects to the server; add `-p 2222` for another port and `-i ~/.ssh/key` \
         for a particular key. The first time it asks whether to trust the server's fingerprint. For one you use often, a Host entry \
         in ~/.ssh/config makes it `ssh name`.",
    ),
    (
        &[WordList("git config|깃 설정|git 설정|git user|git name|git email|커밋 작성자")],
        "`git config --list --show-origin`이 설정과 그 설정이 있는 파일을 보여 줍니다. 커밋에 남을 이름과 메일은 \
         `git config --global user.name \"이름\"`, `git config --global user.email \"메일\"`로 정합니다.",
        "`git config --list --show-origin` shows each setting and the file it comes from; the name and email your commits carry are set with \
         `git config --global user.name \"Your Name\"` and `git config --global user.email \"you@example.com\"`.",
    ),
    (
        &[WordList("stash|스태시"), WordList("back|pop|apply|restore|get them|되돌|다시|꺼내|복원|적용")],
        "`git stash list`가 치워 둔 것들을 보여 주고, `git stash pop`이 가장 최근 것을 다시 적용하면서 목록에서 지웁니다(`git stash apply`는 \
         목록에 남깁니다). 같은 줄을 그사이에 고쳤다면 충돌이 날 수 있습니다.",
        "`git stash list` shows what you put aside; `git stash pop` brings the latest back and drops it from the list (`git stash apply` \
         keeps it there). If the same lines changed meanwhile, they may conflict.",
    ),
    (
        &[
            WordList("startup|at boot|on boot|reboot|when the computer starts|부팅|시작할 때|켜질 때"),
            WordList("run|start|script|launch|실행|켜|스크립트"),
        ],
        "`crontab -e`에 `@reboot /path/to/script.sh` 한 줄을 더하면 컴퓨터가 켜질 때마다 실행됩니다(전체 경로로). 계속 돌아야 하는 \
         서버 같은 프로그램이라면 systemd 서비스로 만들어 `sudo systemctl enable <서비스>`가 더 낫습니다. 멈추면 다시 띄워 줍니다.",
        "Add `@reboot /path/to/script.sh` to `crontab -e` and it runs each time the machine starts (use full paths). For something that must \
         keep running, such as a server, a systemd service enabled with `sudo systemctl enable <service>` is better: it is restarted if it stops.",
    ),
    (
        &[
            WordList("ubuntu|debian|linux|os version|operating system|리눅스|우분투|데비안|운영체제|os 버전"),
            WordList("version|release|버전|릴리스"),
        ],
        "`cat /etc/os-release`(또는 `lsb_release -a`)가 배포판과 버전을, `uname -r`이 커널 버전을 보여 줍니다.",
        "`cat /etc/os-release` (or `lsb_release -a`) shows the distribution and its version; `uname -r` the kernel's.",
    ),
    (
        &[
            WordList("update|upgrade|업데이트|업그레이드"),
            WordList("packages|all|system|everything|패키지|전부|모두|시스템|다"),
            WordList("!|npm|pip|cargo|yarn|pnpm|gem|composer|node_modules"),
        ],
        "Debian·Ubuntu는 `sudo apt update && sudo apt upgrade`(무엇이 바뀌는지 보여 주고 묻습니다), macOS의 Homebrew는 \
         `brew update && brew upgrade`, Fedora는 `sudo dnf upgrade`입니다. 서버라면 업그레이드 전에 백업하고, 커널이 바뀌면 재부팅이 필요합니다.",
        "On Debian or Ubuntu, `sudo apt update && sudo apt upgrade` (it lists the changes and asks); with Homebrew on macOS, \
         `brew update && brew upgrade`; on Fedora, `sudo dnf upgrade`. On a server, back up first; a new kernel needs a reboot.",
    ),
    (
        &[
            WordList("delete a file|remove a file|delete the file|remove the file|delete this file|파일 하나|파일을 지우|파일 지우|파일 삭제"),
            WordList("!|old|logs|build|cache|node_modules|오래된|로그|빌드|캐시|all|전부|모든"),
        ],
        "`rm <파일>`이 지웁니다. 휴지통을 거치지 않아 되돌릴 수 없으니, 확인받으려면 `rm -i`를 쓰세요. 폴더는 `rm -r <폴더>`, \
         데스크톱 리눅스에서 휴지통으로 보내려면 `gio trash <파일>`.",
        "`rm <file>` deletes it; it skips the trash and cannot be undone, so `rm -i` asks first. A folder needs `rm -r <folder>`; on a \
         Linux desktop, `gio trash <file>` moves it to the trash instead.",
    ),
    // 설치된/목록/리스트/뭐가 깔려: installed, a list, what is installed.
    (
        &[
            WordList("pip|파이썬 패키지|python package"),
            WordList("list|installed|설치된|설치되어 있|설치돼 있|목록|리스트|깔려 있|깔린"),
            WordList("!|requirements|install -r|설치해|설치하는 법|설치하려면|how do i install|how to install"),
        ],
        "`python3 -m pip list`가 설치된 파이썬 패키지와 버전을 보여 줍니다. `python3 -m pip list --outdated`는 새 버전이 나온 것만, \
         `python3 -m pip show <패키지>`는 한 패키지의 버전과 설치 위치를 보여 줍니다. 가상 환경을 쓴다면 먼저 활성화해야 그 안의 목록이 나옵니다.",
        "`python3 -m pip list` shows the installed Python packages and their versions; `python3 -m pip list --outdated` only those \
         with a newer version, and `python3 -m pip show <package>` one package's version and location. With a virtual environment, \
         activate it first to list what is inside it.",
    ),
    (
        &[WordList("requirements.txt|requirements 파일|requirements file")],
        "`python3 -m pip install -r requirements.txt`가 그 목록의 패키지를 설치합니다. 가상 환경을 쓴다면 먼저 \
         활성화하세요(`source .venv/bin/activate`). 지금 설치된 것을 목록으로 남기려면 `python3 -m pip freeze > requirements.txt`.",
        "`python3 -m pip install -r requirements.txt` installs what it lists; activate your virtual environment first if you use one \
         (`source .venv/bin/activate`). `python3 -m pip freeze > requirements.txt` writes what is installed now.",
    ),
    (
        &[
            WordList("venv|virtualenv|virtual environment|가상환경|가상 환경"),
            WordList("python|파이썬|make|create|new|set up|만들|만드|생성|설정|쓰는 법|하는 법"),
            WordList("!|rust|node|npm|cargo|conda"),
        ],
        "`python3 -m venv .venv`가 이 폴더에 가상 환경을 만들고, `source .venv/bin/activate`(Windows는 `.venv\\Scripts\\activate`)로 켭니다. \
         켜져 있는 동안 `pip install`은 그 안에만 설치되고, `deactivate`로 끕니다. `.venv`는 git에 올리지 말고 .gitignore에 넣으세요.",
        "`python3 -m venv .venv` makes one in this folder and `source .venv/bin/activate` (`.venv\\Scripts\\activate` on Windows) turns \
         it on; while it is on, `pip install` installs into it only, and `deactivate` turns it off. Keep `.venv` out of git (add it to .gitignore).",
    ),
    (
        &[
            WordList("remote|origin|원격"),
            WordList("url|address|주소|change|set|switch|바꾸|바꿔|변경|수정"),
            WordList("git|repo|repository|origin|저장소|깃|레포"),
        ],
        "`git remote -v`가 지금 주소를 보여 주고, `git remote set-url origin <새 주소>`가 바꿉니다. 바꾼 뒤 `git fetch`로 잘 닿는지 확인하세요.",
        "`git remote -v` shows the current address and `git remote set-url origin <new-url>` changes it; `git fetch` afterwards checks that \
         it works.",
    ),
    (
        &[
            WordList("permission|chmod|권한"),
            WordList("change|set|give|fix|바꾸|바꿔|변경|수정|주는|주려면|설정"),
            WordList("!|denied|거부"),
        ],
        "`chmod`가 권한을 바꿉니다. `chmod 644 <파일>`은 나만 쓰고 모두 읽기, `chmod 755 <파일>`은 거기에 실행까지, `chmod u+x <파일>`은 \
         나에게 실행 권한만 더합니다. 폴더 안까지 바꾸려면 `-R`을 붙이되, 모두가 쓸 수 있게 되는 `777`은 피하세요. 소유자는 `chown <사용자> <파일>`.",
        "`chmod` changes them: `chmod 644 <file>` lets you write and everyone read, `chmod 755 <file>` adds running it, `chmod u+x <file>` only \
         lets you run it. `-R` changes a folder and everything in it; avoid `777`, which lets anyone write. `chown <user> <file>` changes the owner.",
    ),
    (
        &[
            WordList("commit message|커밋 메시지|커밋메시지"),
            // 잘못 썼/잘못 적/오타: written wrong, a typo.
            WordList("change|edit|fix|amend|rename|reword|wrong|typo|수정|바꾸|바꿔|변경|고치|고쳐|잘못 썼|잘못 적|잘못썼|오타"),
        ],
        "`git commit --amend -m \"새 메시지\"`가 마지막 커밋의 메시지를 바꿉니다. 이미 push한 커밋이라면 다른 사람이 받았을 수 있어, \
         다시 올리려면 `git push --force-with-lease`가 필요합니다. 나 혼자 쓰는 브랜치에서만 하세요.",
        "`git commit --amend -m \"new message\"` replaces the last commit's message. If it was pushed already, others may have it: \
         pushing the change needs `git push --force-with-lease`, safe only on a branch no one else uses.",
    ),
    (
        &[
            WordList("branch|브랜치"),
            WordList("list|목록|show all|show the branches|what branches|which branches|all branches|보기|보여|뭐가 있"),
        ],
        "`git branch`가 로컬 브랜치 목록을 보여 주고(지금 브랜치에 *), `git branch -a`는 원격 브랜치까지 보여 줍니다.",
        "`git branch` lists the local branches (a * marks the one you are on); `git branch -a` adds the remote ones.",
    ),
    (
        &[WordList("docker|container|도커|컨테이너"), WordList("stop|멈추|멈춰|중지|정지|끄고|끄려|꺼줘|꺼 줘")],
        "`docker stop <이름>`이 컨테이너 하나를 멈춥니다(실행 중인 것과 이름은 `docker ps`). 전부 멈추려면 `docker stop $(docker ps -q)`. \
         멈춘 컨테이너의 데이터는 지우기 전까지 남고, 멈춘 것을 모두 지우려면 그다음 `docker container prune`(먼저 묻습니다)입니다.",
        "`docker stop <name>` stops one (`docker ps` lists the running ones and their names); `docker stop $(docker ps -q)` stops them all. \
         A stopped container keeps its data until it is removed; `docker container prune` then removes every stopped one (it asks first).",
    ),
    (
        &[WordList("cron|crontab|크론")],
        "`crontab -e`로 일정을 열고 `0 9 * * * /path/to/script.sh`처럼 한 줄을 더하면 매일 9시에 실행됩니다(분, 시, 일, 월, 요일 순). \
         cron은 PATH가 짧으니 전체 경로를 쓰세요. 등록된 일정은 `crontab -l`로 봅니다.",
        "`crontab -e` opens your schedule; a line such as `0 9 * * * /path/to/script.sh` runs it every day at 9:00 (minute, hour, day of \
         month, month, day of week). Use full paths: cron runs with a short PATH. `crontab -l` lists what is scheduled.",
    ),
    (
        &[
            WordList("ssh key|ssh 키|ssh키|ssh-keygen"),
            WordList("make|generate|create|new|만들|만드|생성|새로|ssh-keygen"),
        ],
        "`ssh-keygen -t ed25519 -C \"you@example.com\"`이 ~/.ssh에 키 한 쌍을 만듭니다(기본 위치는 Enter, 암호를 정하면 키가 보호됩니다). \
         서버나 GitHub에는 공개 키 ~/.ssh/id_ed25519.pub만 주고, 다른 파일은 절대 주지 마세요.",
        "`ssh-keygen -t ed25519 -C \"you@example.com\"` makes a key pair in ~/.ssh (Enter keeps the default place; a passphrase protects \
         it). Give the server or GitHub only the public half, ~/.ssh/id_ed25519.pub; never the other file.",
    ),
    (
        &[WordList("what's in a file|what is in a file|contents of a file|a file's contents|file contents|파일 내용|파일 안에 뭐|파일 안 내용")],
        "`cat <file>`이 내용을 전부 출력하고, `less <file>`은 한 화면씩 보여 줍니다(q로 나갑니다). 앞이나 끝의 20줄만 보려면 \
         `head -n 20 <file>`, `tail -n 20 <file>`.",
        "`cat <file>` prints it all; `less <file>` shows it a screen at a time (q quits); `head -n 20 <file>` and `tail -n 20 <file>` \
         the first or last 20 lines.",
    ),
    (
        &[
            WordList("nginx|apache|httpd|postgres|mysql|redis|sshd|service|서비스|서버|daemon|데몬"),
            WordList("restart|reload|재시작|다시 시작|재기동|리로드"),
            // What restarts by itself asks why, and a container is docker's.
            WordList("!|keeps restarting|keep restarting|restarting itself|계속 재시작|자꾸 재시작|container|컨테이너|docker|도커"),
        ],
        "systemd를 쓰는 리눅스에서는 `sudo systemctl restart <서비스>`(예: nginx)가 다시 시작하고, 바로 뒤에 `systemctl status <서비스>`로 \
         잘 떴는지 보세요. nginx는 설정만 다시 읽으려면 `sudo nginx -t`로 설정을 검사한 뒤 `sudo systemctl reload nginx`가 끊김이 없습니다.",
        "On Linux with systemd, `sudo systemctl restart <service>` (nginx, for one) restarts it; check it came back with \
         `systemctl status <service>` right after. For nginx, `sudo nginx -t` checks the configuration and `sudo systemctl reload nginx` \
         then reads it again without dropping connections.",
    ),
    (
        &[WordList("service|서비스|daemon|데몬"), WordList("status|running|is it up|상태|돌고 있|실행 중|떠 있")],
        "`systemctl status <서비스>`가 실행 중인지, 언제 시작했는지, 최근 로그 몇 줄을 보여 줍니다. 더 긴 로그는 `journalctl -u <서비스> -n 50`.",
        "`systemctl status <service>` shows whether it runs, since when, and its last log lines; `journalctl -u <service> -n 50` \
         shows more of the log.",
    ),
    (
        &[WordList("firewall|ufw|firewalld|방화벽"), WordList("port|open|allow|포트|열")],
        "Ubuntu의 ufw라면 `sudo ufw allow 8080/tcp`(8080 자리에 그 포트), firewalld라면 \
         `sudo firewall-cmd --add-port=8080/tcp --permanent` 뒤에 `sudo firewall-cmd --reload`입니다. 연 포트는 인터넷 어디서나 닿을 수 있으니, \
         필요한 것만 여세요.",
        "With Ubuntu's ufw, `sudo ufw allow 8080/tcp` (your port in place of 8080); with firewalld, \
         `sudo firewall-cmd --add-port=8080/tcp --permanent` then `sudo firewall-cmd --reload`. An open port can be reached from \
         anywhere the network allows, so open only the ones you need.",
    ),
    (
        &[
            WordList("commit|커밋"),
            WordList("last|recent|history|latest|최근|기록|히스토리|내역"),
            WordList("see|show|list|view|look|check|보|확인|목록"),
        ],
        "`git log --oneline -n 10`이 최근 커밋 10개를 한 줄씩 보여 주고, `git log -p -n 1`은 마지막 커밋의 변경 내용까지 보여 줍니다.",
        "`git log --oneline -n 10` shows the last 10 commits, one line each; `git log -p -n 1` shows the last one with its changes.",
    ),
    (
        &[WordList("unstage|un-stage|스테이징 취소|스테이징을 취소|add 취소|add한 거 취소|add 한 거 취소")],
        "`git restore --staged <file>`이 그 파일을 다음 커밋에서 빼고, 변경 내용은 그대로 둡니다.",
        "`git restore --staged <file>` takes it out of the next commit and keeps its changes.",
    ),
    (
        &[WordList("hidden file|hidden folder|dotfile|dot file|숨김 파일|숨긴 파일|숨겨진 파일|숨김파일")],
        "`ls -a`가 숨김 파일(이름이 점으로 시작하는 파일)까지 보여 주고, `ls -la`는 크기와 날짜도 함께 보여 줍니다.",
        "`ls -a` lists them too (their names start with a dot); `ls -la` adds sizes and dates.",
    ),
    (
        &[WordList("symlink|symbolic link|soft link|심볼릭 링크|심볼릭링크|소프트 링크")],
        "`ln -s <원본> <링크 이름>`이 링크를 만듭니다. 링크가 가리키는 곳은 `ls -l`로 볼 수 있습니다.",
        "`ln -s <target> <link-name>` makes it; `ls -l` shows where a link points.",
    ),
    (
        // 복사/보내/올리/전송/옮기: copy, send, upload, transfer, move; 원격/서버/다른 컴퓨터: remote, server, another machine
        &[
            WordList("copy|send|upload|transfer|move|복사|보내|올리|전송|옮기"),
            WordList("remote server|remote machine|remote host|server|another machine|other machine|원격|서버|다른 컴퓨터"),
        ],
        "`scp <파일> user@host:/경로/`가 파일 하나를, `scp -r <폴더> user@host:/경로/`가 폴더를 SSH로 복사합니다(반대 방향은 두 자리를 \
         바꿉니다). 큰 폴더나 자주 맞출 때는 `rsync -avz <폴더>/ user@host:/경로/`가 바뀐 것만 보내고, 끊겨도 다시 이어 갑니다.",
        "`scp <file> user@host:/path/` copies a file over SSH and `scp -r <folder> user@host:/path/` a folder (swap the two for the other \
         direction). For a large folder, or one you keep in step, `rsync -avz <folder>/ user@host:/path/` sends only what changed and \
         picks up where it stopped.",
    ),
    (
        &[WordList("copy|복사"), WordList("folder|directory|dir |폴더|디렉터리|디렉토리")],
        "`cp -r <폴더> <대상>`이 폴더를 안의 내용까지 복사합니다. 권한과 날짜까지 그대로 두려면 `cp -a`. 대상에 같은 이름의 파일이 있으면 \
         묻지 않고 덮어쓰니, 확인받으려면 `-i`를 붙이세요.",
        "`cp -r <folder> <destination>` copies it with everything inside; `cp -a` keeps permissions and dates too. \
         A file of the same name at the destination is overwritten without asking; `-i` asks first.",
    ),
    (
        &[WordList("download|다운로드|내려받|받는 법|받으려면"), WordList("curl|wget|url|link|http|링크|주소")],
        "`curl -LO <URL>`이 그 파일을 원래 이름으로 저장합니다(`-o 이름`으로 이름을 정할 수 있습니다). `wget <URL>`도 같습니다.",
        "`curl -LO <URL>` saves it under its own name (`-o name` picks one); `wget <URL>` does the same.",
    ),
];

/// Package managers and build tools with a cache of their own: the words that name one, the
/// command that clears its cache, and what that removes, in Korean and in English.
// 고 언어: the Go language.
const CACHES: &[(WordList, &str, &str, &str)] = &[
    (
        WordList("npm"),
        "npm cache clean --force",
        "npm이 내려받은 패키지 캐시를 지웁니다. npm은 캐시를 스스로 검사하므로(`npm cache verify`가 고칩니다) 지울 일은 드물고, 다음 설치는 모든 패키지를 다시 받습니다.",
        "removes the packages npm downloaded. npm checks its cache by itself (`npm cache verify` repairs it), so clearing it is rarely needed, and the next installs download every package again.",
    ),
    (
        WordList("yarn"),
        "yarn cache clean",
        "yarn이 내려받은 패키지 캐시를 지웁니다. 다음 설치는 다시 받습니다.",
        "removes the packages yarn downloaded; the next installs download them again.",
    ),
    (
        WordList("pnpm"),
        "pnpm store prune",
        "어느 프로젝트도 쓰지 않는 패키지를 pnpm 저장소에서 지웁니다.",
        "removes the packages no project uses any more from pnpm's store.",
    ),
    (
        WordList("pip|pip3"),
        "python3 -m pip cache purge",
        "pip가 내려받고 빌드한 wheel 파일을 지웁니다(pip 20.1 이상). 위치는 `python3 -m pip cache dir`로 볼 수 있습니다.",
        "removes the wheels pip downloaded and built (pip 20.1 or later); `python3 -m pip cache dir` shows where they are.",
    ),
    (
        WordList("cargo|rust"),
        "cargo clean",
        "이 프로젝트의 target 폴더(빌드 결과, 흔히 몇 GB)를 지웁니다. 모든 프로젝트가 함께 쓰는, 내려받은 크레이트는 ~/.cargo/registry에 있습니다.",
        "removes this project's target folder (its build output, often several GB). The crates downloaded for every project are in ~/.cargo/registry.",
    ),
    (
        WordList("go|golang|고 언어"),
        "go clean -cache",
        "Go의 빌드 캐시를 지웁니다. 내려받은 모듈까지 지우려면 `go clean -modcache`입니다.",
        "removes Go's build cache; `go clean -modcache` removes the downloaded modules too.",
    ),
    (
        WordList("brew|homebrew"),
        "brew cleanup --prune=all",
        "예전 버전과 Homebrew 캐시의 내려받은 파일을 모두 지웁니다.",
        "removes old versions and every download in Homebrew's cache.",
    ),
    (
        WordList("apt|apt-get"),
        "sudo apt clean",
        "/var/cache/apt/archives에 내려받아 둔 .deb 파일을 지웁니다. 설치된 프로그램은 그대로입니다.",
        "removes the downloaded .deb files in /var/cache/apt/archives; what is installed stays.",
    ),
    (
        WordList("docker|도커"),
        "docker builder prune",
        "Docker의 빌드 캐시를 지웁니다. 이미지와 컨테이너는 남습니다(무엇이 공간을 차지하는지는 `docker system df`).",
        "removes Docker's build cache; images and containers stay (`docker system df` shows what takes the space).",
    ),
];

/// The answer to "how do I clear the npm cache?" or "pip 캐시 지우는 법": the command that clears
/// the cache of the tool named. `None` when no tool of `CACHES` is named (a browser's cache,
/// "the caches of this project"), or the message clears nothing.
// 캐시: cache; 지우/삭제/비우/정리/날리/초기화: erase, delete, empty, tidy, get rid of, reset.
fn clear_cache(lower: &str, lang: Lang) -> Option<String> {
    if !lower.contains("cache") && !lower.contains("캐시") {
        return None;
    }
    let clears = WordList(
        "clear|clean|delete|remove|purge|empty|wipe|reset|flush|free|지우|지워|삭제|비우|비워|정리|날리|날려|초기화",
    )
    .any(|w| lower.contains(w));
    if !clears {
        return None;
    }
    let (_, command, ko, en) = CACHES.iter().find(|(words, _, _, _)| words.any(|w| contains_word(lower, w)))?;
    Some(match lang {
        Lang::Ko => format!("`{command}`가 {ko}"),
        Lang::En => format!("`{command}` {en}"),
    })
}

/// The answer to "how do I kill it?" or "그 프로세스 종료하려면?" (to end that process?): how to end
/// a process, for the port or the program this message names, or else the port the message
/// before it named ("what's using port 3000?" then "how do I kill it?"). `None` when the
/// message does not ask to end a process (a container is stopped with docker, a branch is
/// deleted with git).
// 종료: end; 죽이/죽여/킬: kill; 끄/꺼: turn off (with a process, a server or "it");
// 프로세스: process; 서버: server; 그거/그것/그 프로그램: it, that program; 포트: port.
pub fn end_process(text: &str, before: Option<&str>, lang: Lang) -> Option<String> {
    let lower = text.lower();
    let object = WordList("process|pid|it|that|port|server|프로세스|서버|그거|그것|그 프로그램|포트")
        .any(|w| contains_word(&lower, w));
    let ends = WordList("kill|terminate|종료|죽이|죽여|킬").any(|w| contains_word(&lower, w))
        || (object
            && WordList(
                "stop the|stop that|stop it|end the process|end that|end it|끄려면|끄는|꺼 줘|꺼줘|끌 수|끄고",
            )
            .any(|w| lower.contains(w)));
    let other = WordList("docker|container|컨테이너|도커|git|branch|브랜치|terminal|tab|window|터미널|창|vim|editor")
        .any(|w| contains_word(&lower, w));
    if !ends || other || lower.contains('`') {
        return None;
    }
    // A program named ("python" matches python3 too); else the port named here or just before.
    let named = TOOLS.iter().find(|(name, _, _)| contains_word(&lower, name)).map(|(_, command, _)| {
        if *command == "python3" {
            "python"
        } else {
            *command
        }
    });
    // The port before counts when this message points back at it ("kill it", "그 프로세스").
    let port = request_port(text).or_else(|| before.filter(|_| object && named.is_none()).and_then(request_port));
    if !object && port.is_none() && named.is_none() {
        return None;
    }
    Some(match (port, named, lang) {
        (Some(port), _, Lang::Ko) => format!(
            "`lsof -i :{port}`{} {port}번 포트를 잡고 있는 프로세스와 그 PID를 보여 주고, `kill <PID>`가 끝내 달라고 요청합니다(한 번에: \
             `kill $(lsof -t -i :{port})`). 몇 초 뒤에도 남아 있으면 `kill -9 <PID>`가 강제로 끝냅니다. 이때 프로그램은 저장하거나 정리할 틈이 없습니다. \
             다른 사용자가 띄운 프로세스라면 `sudo`가 필요합니다.",
            // The particle follows how the port number is read: "3000이", "8082가".
            &crate::engine::lang::with_subject(&port.to_string())[port.to_string().len()..]
        ),
        (Some(port), _, Lang::En) => format!(
            "`lsof -i :{port}` shows the process holding port {port}, with its PID, and `kill <PID>` asks it to end (both at once: \
             `kill $(lsof -t -i :{port})`). If it is still running a few seconds later, `kill -9 <PID>` forces it, with no chance to save or clean up. \
             A process another user started needs `sudo`."
        ),
        (None, Some(name), Lang::Ko) => format!(
            "`pgrep -fl {name}`가 명령에 \"{name}\"이 들어간 프로세스와 PID를 보여 주고, `kill <PID>`가 그중 원하는 것을 끝냅니다. \
             `pkill -f {name}`은 그 전부를 한 번에 끝내니, 생각보다 많이 걸리지 않는지 목록을 먼저 보세요. \
             몇 초 뒤에도 남아 있으면 `kill -9 <PID>`가 강제로 끝냅니다."
        ),
        (None, Some(name), Lang::En) => format!(
            "`pgrep -fl {name}` lists the processes whose command holds \"{name}\", with their PIDs, and `kill <PID>` ends the one you mean. \
             `pkill -f {name}` ends all of them at once: look at the list first, it may hold more than you expect. \
             If one is still running a few seconds later, `kill -9 <PID>` forces it."
        ),
        (None, None, Lang::Ko) => "`kill <PID>`가 프로세스에 끝내 달라고 요청합니다. PID는 `pgrep -fl <이름>`으로, 포트를 잡은 프로세스라면 \
             `lsof -i :<포트>`로 찾습니다. 몇 초 뒤에도 남아 있으면 `kill -9 <PID>`가 강제로 끝내는데, 이때 프로그램은 저장하거나 정리할 틈이 없습니다. \
             그 프로그램이 돌고 있는 터미널에서는 Ctrl+C로 멈출 수 있습니다."
            .to_string(),
        (None, None, Lang::En) => "`kill <PID>` asks a process to end. Find its PID with `pgrep -fl <name>`, or `lsof -i :<port>` for the one \
             holding a port. If it is still running a few seconds later, `kill -9 <PID>` forces it, with no chance to save or clean up. \
             In the terminal where it runs, Ctrl+C stops it."
            .to_string(),
    })
}

/// Archive kinds by how the file's name ends, longest ending first: the command that unpacks
/// one, the one that lists it without unpacking, and whether `tar` handles it.
const ARCHIVES: &[(&str, &str, &str)] = &[
    (".tar.gz", "tar -xzf", "tar -tzf"),
    (".tar.bz2", "tar -xjf", "tar -tjf"),
    (".tar.xz", "tar -xJf", "tar -tJf"),
    (".tgz", "tar -xzf", "tar -tzf"),
    (".tar", "tar -xf", "tar -tf"),
    (".zip", "unzip", "unzip -l"),
    (".gz", "gunzip -k", "gunzip -l"),
    (".7z", "7z x", "7z l"),
];

/// The answer to "how do I make a script run every night at 2am" or "매일 새벽 3시에 백업 스크립트를
/// 돌리고 싶어": the crontab line for that time (daily, hourly or weekly), how to add and list
/// it, what cron needs, and the Windows task. `None` unless a schedule and something to run
/// are both said.
// 매일/매주/매시간/시간마다/정기적으로/주기적으로/예약 실행/스케줄: every day, week, hour, regularly,
// scheduled; 실행/돌리/돌아가/스크립트/백업/작업: run, script, backup, job.
pub fn schedule(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    let when = WordList(
        "cron|every night|every day|every morning|every evening|every hour|hourly|every week|weekly|nightly|daily at|\
         each night|each day|at midnight|매일|매주|매시간|시간마다|정기적으로|주기적으로|예약 실행|스케줄",
    );
    let what = WordList("run|execute|script|job|command|backup|실행|돌리|돌아가|스크립트|백업|작업");
    if !(when.any(|w| lower.contains(w)) && what.any(|w| lower.contains(w))) {
        return None;
    }
    let at = crate::engine::slots::parse_when(text);
    let midnight = lower.contains("midnight") || lower.contains("자정");
    let hour = at.as_ref().and_then(|w| w.hour).map(u32::from).unwrap_or(if midnight { 0 } else { 2 });
    let minute = at.as_ref().map_or(0, |w| u32::from(w.minute));
    let hourly = WordList("every hour|hourly|매시간|시간마다").any(|w| lower.contains(w));
    let weekly = WordList("every week|weekly|매주").any(|w| lower.contains(w));
    let script = text.split_whitespace().filter_map(file_name).next().unwrap_or("script.sh");
    let path = if script.starts_with('/') {
        script.to_string()
    } else {
        format!("/full/path/to/{}", script.trim_start_matches("./"))
    };
    let (fields, ko_when, en_when) = if hourly {
        (format!("{minute} * * * *"), format!("매시 {minute}분에"), format!("at minute {minute} of every hour"))
    } else if weekly {
        (
            format!("{minute} {hour} * * 1"),
            format!("매주 월요일 {hour:02}:{minute:02}에"),
            format!("at {hour:02}:{minute:02} every Monday"),
        )
    } else {
        (
            format!("{minute} {hour} * * *"),
            format!("매일 {hour:02}:{minute:02}에"),
            format!("at {hour:02}:{minute:02} every day"),
        )
    };
    let line = format!("{fields} {path} >> \"$HOME/cron.log\" 2>&1");
    let windows = format!(
        "schtasks /create /tn nightly /sc {} /st {hour:02}:{minute:02} /tr C:\\path\\to\\script.bat",
        if hourly {
            "hourly"
        } else if weekly {
            "weekly"
        } else {
            "daily"
        }
    );
    Some(match lang {
        Lang::Ko => format!(
            "`crontab -e`로 예약 목록을 열고 이 줄을 더하세요(분, 시, 일, 월, 요일 순서):\n\n`{line}`\n\n{ko_when} 실행하고, 출력은 \
             ~/cron.log에 남깁니다. `crontab -l`이 예약된 작업을 보여 줍니다. cron은 최소한의 환경에서 돌기 때문에 경로는 모두 전체 \
             경로로 쓰고, 스크립트에는 실행 권한(`chmod +x`)을 주세요. Windows에서는 `{windows}`입니다."
        ),
        Lang::En => format!(
            "`crontab -e` opens your schedule; add this line (minute, hour, day of month, month, weekday):\n\n`{line}`\n\nIt \
             runs {en_when} and keeps the output in ~/cron.log. `crontab -l` lists what is scheduled. Cron starts jobs with a \
             bare environment: use full paths, and make the script executable (`chmod +x`). On Windows: `{windows}`."
        ),
    })
}

/// File endings a request may name without their dot ("jpeg 파일을 jpg로").
const EXTENSIONS: WordList = WordList(
    "jpeg|jpg|png|gif|webp|heic|tif|tiff|bmp|svg|txt|md|markdown|htm|html|js|mjs|cjs|ts|jsx|tsx|yml|yaml|json|\
    csv|tsv|log|bak|py|rb|go|rs|java|kt|c|h|cpp|hpp|cc|mp3|wav|flac|m4a|mp4|mov|mkv|avi|doc|docx|pdf|conf|cfg|ini",
);

/// The answer to "rename all .jpeg files to .jpg" or "jpeg 파일을 전부 jpg로 이름 바꿔줘": a loop that
/// gives every file of one ending the other, asking before it overwrites, for this folder and
/// for the folders below, and the same in PowerShell. `None` unless a rename names two endings.
// 이름 바꿔/이름을 바꿔/이름 변경/확장자: rename, file ending
pub fn rename_extension(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    WordList("rename|change the extension|change their extension|이름 바꿔|이름을 바꿔|이름 변경|이름을 변경|확장자")
        .any(|w| lower.contains(w))
        .then_some(())?;
    // The endings in the order said: ".jpeg", "*.jpeg", "jpeg" (a known one), "jpg로".
    let mut endings: Vec<&str> = Vec::new();
    for word in lower.split(|c: char| c.is_whitespace() || matches!(c, ',' | '`' | '"' | '\'' | '(' | ')')) {
        let word = without_particle(word.trim_end_matches(['.', '?', '!']));
        let bare = word.trim_start_matches('*');
        let ending = match bare.strip_prefix('.') {
            Some(ending) => ending,
            None if EXTENSIONS.contains(bare) => bare,
            None => continue,
        };
        let plain = !ending.is_empty() && ending.len() <= 8 && ending.chars().all(|c| c.is_ascii_alphanumeric());
        if plain && !endings.contains(&ending) {
            endings.push(ending);
        }
    }
    let [from, to] = endings[..] else { return None };
    let here = format!("for f in *.{from}; do mv -i -- \"$f\" \"${{f%.{from}}}.{to}\"; done");
    let below =
        format!("find . -type f -name '*.{from}' -exec sh -c 'mv -i -- \"$1\" \"${{1%.{from}}}.{to}\"' _ {{}} \\;");
    let windows = format!("Get-ChildItem *.{from} | Rename-Item -NewName {{ $_.Name -replace '\\.{from}$', '.{to}' }}");
    Some(match lang {
        Lang::Ko => format!(
            "이 폴더의 .{from} 파일을 모두 .{to}로 바꾸려면:\n\n`{here}`\n\n`mv -i`는 같은 이름의 .{to} 파일이 이미 있으면 덮어쓰기 \
             전에 묻습니다. 하위 폴더까지 바꾸려면 `{below}`, Windows PowerShell에서는 `{windows}`입니다. 먼저 `ls *.{from}`로 \
             대상을 확인하세요."
        ),
        Lang::En => format!(
            "To give every .{from} file in this folder the ending .{to}:\n\n`{here}`\n\n`mv -i` asks before it overwrites a .{to} \
             file of the same name. For the folders below as well: `{below}`; in Windows PowerShell: `{windows}`. Check what \
             it touches first with `ls *.{from}`."
        ),
    })
}

/// What tar, gzip and unzip print when they cannot read an archive (answered in `ERRORS`).
const TAR_ERRORS: WordList = WordList(
    "error opening archive|failed to open|cannot open|no such file|not in gzip format|unexpected end of file|\
     end-of-central-directory signature not found|not a zip",
);

/// The answer to "how do I extract backup.tar.gz?", "압축 푸는 명령어 알려줘 tar.gz" or "zip this
/// folder": the command for the archive named (or for its kind, with a placeholder name), what
/// its options do, how to look inside first, and what it overwrites. `None` when the message
/// neither unpacks nor packs an archive.
// 압축 풀/압축을 풀/압축 해제/풀어: unpack; 압축해/압축하/묶어: pack
pub fn archive(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    // "tar: Error opening archive: Failed to open 'backup.tgz'": an error to explain, not a request.
    if TAR_ERRORS.any(|w| lower.contains(w)) {
        return None;
    }
    // Asked to unpack or to pack, else not about an archive at all (checked first: the words
    // are cheap to look for, the file names below are not).
    let shape = Shape::of(&lower);
    let said = |w: &str| shape.may_hold(w) && lower.contains(w);
    let unpack = WordList("extract|unzip|untar|unpack|decompress|open|압축 풀|압축을 풀|압축 해제|압축해제|풀어|풀기|푸는|열어|여는 법|열기")
        .any(said);
    let pack = WordList("compress|zip up|zip this|zip the|zip a|make a zip|create a zip|a zip of|tar up|make a tar|make an archive|create an archive|압축해|압축하|압축 하|묶어|압축 파일로 만들|압축 파일 만들")
        .any(said);
    if !unpack && !pack {
        return None;
    }
    let kind_of = |name: &str| ARCHIVES.iter().find(|(end, _, _)| name.ends_with(end));
    // The archive file named, if its characters are safe in a shell command as they are.
    // Not a kind's own name ("tar.gz"); its kind counts even when its name is not safe.
    let archive_file = text
        .split_whitespace()
        .filter_map(file_name)
        .find(|n| kind_of(&n.to_ascii_lowercase()).is_some() && !ARCHIVES.iter().any(|(end, _, _)| end[1..] == **n));
    let named = archive_file.filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || "._-/~+".contains(c)));
    // A kind said without a file: "tar.gz", "zip 파일".
    let said = ["tar.gz", "tgz", "tar.bz2", "tar.xz", "zip", "7z", "tar"].into_iter().find(|k| {
        lower.split(|c: char| c.is_whitespace() || c == '`').any(|w| w.trim_start_matches('.').starts_with(k))
    });
    let archive_word =
        archive_file.is_some() || said.is_some() || pack || WordList("archive|압축").any(|w| lower.contains(w));
    if !archive_word {
        return None;
    }
    if unpack {
        let ending = archive_file.map(|n| n.to_ascii_lowercase()).or_else(|| said.map(|k| format!("x.{k}")))?;
        let (end, command, list) = kind_of(&ending).copied()?;
        let file = named.map_or_else(|| format!("<file>{end}"), str::to_string);
        let (options_ko, options_en) = match command {
            "tar -xzf" => {
                ("-x는 풀기, -z는 gzip, -f는 파일 이름입니다.", "-x unpacks, -z reads gzip, -f names the file.")
            }
            "tar -xjf" => {
                ("-x는 풀기, -j는 bzip2, -f는 파일 이름입니다.", "-x unpacks, -j reads bzip2, -f names the file.")
            }
            "tar -xJf" => ("-x는 풀기, -J는 xz, -f는 파일 이름입니다.", "-x unpacks, -J reads xz, -f names the file."),
            "tar -xf" => ("-x는 풀기, -f는 파일 이름입니다.", "-x unpacks, -f names the file."),
            "gunzip -k" => {
                ("-k는 압축 파일을 지우지 않고 남깁니다.", "-k keeps the compressed file instead of replacing it.")
            }
            "7z x" => {
                ("7z가 없으면 먼저 설치해야 합니다(p7zip).", "7z has to be installed first if it is not (p7zip).")
            }
            _ => ("", ""),
        };
        let elsewhere = if command.starts_with("tar") {
            lang.pick(
                " 다른 폴더에 풀려면 끝에 `-C <폴더>`를 붙이세요.",
                " To unpack into another folder, add `-C <folder>`.",
            )
        } else if command == "unzip" {
            lang.pick(
                " 다른 폴더에 풀려면 `-d <폴더>`를 붙이세요.",
                " To unpack into another folder, add `-d <folder>`.",
            )
        } else {
            ""
        };
        let options = lang.pick(options_ko, options_en);
        let options = if options.is_empty() { String::new() } else { format!(" {options}") };
        // "into /tmp/restore", "/tmp/restore에 풀어줘": the folder named that is not the archive.
        let into = request_folders(text).into_iter().find(|f| kind_of(&f.to_ascii_lowercase()).is_none());
        let unpack_into = into.and_then(|dir| match command {
            c if c.starts_with("tar") => Some((format!("mkdir -p {dir} && {command} {file} -C {dir}"), dir)),
            "unzip" => Some((format!("unzip {file} -d {dir}"), dir)),
            "7z x" => Some((format!("7z x {file} -o{dir}"), dir)),
            _ => None,
        });
        if let Some((line, dir)) = unpack_into {
            return Some(match lang {
                Lang::Ko => format!(
                    "다음 명령으로 {dir}에 풉니다: `{line}`.{options}\n\n풀기 전에 안에 무엇이 있는지 보려면: `{list} {file}`. \
                     {dir}에 같은 이름의 파일이 있으면 덮어쓸 수 있습니다."
                ),
                Lang::En => format!(
                    "`{line}` unpacks it into {dir}.{options}\n\nTo see what is inside without unpacking, use `{list} {file}`. \
                     Files of the same name in {dir} can be overwritten."
                ),
            });
        }
        return Some(match lang {
            Lang::Ko => format!(
                "다음 명령으로 풉니다: `{command} {file}`.{options}\n\n풀기 전에 안에 무엇이 있는지 보려면: `{list} {file}`. \
                 지금 폴더에 같은 이름의 파일이 있으면 덮어쓸 수 있습니다.{elsewhere}"
            ),
            Lang::En => format!(
                "`{command} {file}` unpacks it.{options}\n\nTo see what is inside without unpacking, use `{list} {file}`. \
                 Files of the same name in this folder can be overwritten.{elsewhere}"
            ),
        });
    }
    // "/var/log", or the word before "folder" ("the logs folder", "src 폴더").
    let before_folder = || {
        let words: Vec<&str> = text.split_whitespace().collect();
        words.windows(2).find_map(|pair| {
            let folder_word = WordList("folder|directory|dir|폴더|디렉터리|디렉토리").any(|w| pair[1].starts_with(w));
            let name = pair[0].trim_matches(|c: char| matches!(c, '`' | '"' | '\''));
            let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            (folder_word && plain && !WordList("the|this|that|my|a|your|our").contains(name.to_ascii_lowercase()))
                .then(|| name.to_string())
        })
    };
    let folder = request_folder(text)
        .filter(|f| kind_of(f).is_none())
        .or_else(before_folder)
        .unwrap_or_else(|| "<folder>".into());
    let zip = said == Some("zip") || lower.contains(".zip");
    let (command, made) = if zip {
        (format!("zip -r <name>.zip {folder}"), "<name>.zip")
    } else {
        (format!("tar -czf <name>.tar.gz {folder}"), "<name>.tar.gz")
    };
    Some(match lang {
        Lang::Ko => format!(
            "다음 명령으로 {folder} 폴더를 {made} 하나로 묶어 압축합니다: `{command}`. <name>에 원하는 이름을 넣으세요. \
             원래 파일은 그대로 남습니다."
        ),
        Lang::En => format!(
            "`{command}` packs {folder} into one compressed {made}; put the name you want for <name>. \
             The original files stay as they are."
        ),
    })
}

/// Longest message searched for a command to explain (the search tries every word).
const EXPLAIN_MAX_WORDS: usize = 40;

/// The answer to a question about a command ("what does rm -rf / do?", "`DROP TABLE users`
/// 하면 어떻게 돼?", "ls -la는 뭐 하는 명령이야?"): for one the danger check flags, the command,
/// why it is dangerous, and a warning; for an everyday one (`KNOWN`), what it does and whether
/// it changes anything. `None` when the message asks nothing or names no such command.
pub fn explain_command(text: &str, lang: Lang) -> Option<String> {
    // "difference between kill and kill -9" asks, with or without a question word.
    if let Some(answer) = compare_options(text, lang).or_else(|| compare_known(text, lang)) {
        return Some(answer);
    }
    if !crate::engine::security::only_asks(&without_file_names(text)) {
        return None;
    }
    let flagged = match text.split('`').nth(1).filter(|_| text.matches('`').count() >= 2) {
        // A command in backticks is the one asked about.
        Some(quoted) => crate::engine::danger::assess(quoted.trim()).map(|d| (quoted.trim().to_string(), d)),
        None => flagged_words(text),
    };
    let Some((command, danger)) = flagged else {
        return explain_known(text, lang);
    };
    let reason = danger.message(lang);
    // "rm -rf node_modules is that safe?": a folder the package manager or the build makes
    // again is safe to delete where it belongs; the warning is for what cannot come back.
    let target = command.split_whitespace().last().unwrap_or("").trim_start_matches("./").trim_end_matches('/');
    if command.starts_with("rm -") && REGENERATED.contains(target) {
        return Some(match lang {
            Lang::Ko => format!(
                "`{command}`{} {target} 폴더를 휴지통 없이 지웁니다. 다만 이 폴더는 패키지 관리자나 빌드가 다시 만드는 것이라(예: `npm install`, \
                 `cargo build`, `python3 -m venv .venv`), 그 프로젝트 폴더 안이라면 지워도 됩니다. 실행 전에 `pwd`로 지금 어디에 있는지 확인하세요.",
                &crate::engine::lang::with_topic(target)[target.len()..]
            ),
            Lang::En => format!(
                "`{command}` deletes the {target} folder for good, but the package manager or the build makes it again (`npm install`, \
                 `cargo build`, `python3 -m venv .venv`), so inside the project's own folder it is safe. Check where you are with `pwd` first."
            ),
        });
    }
    Some(match lang {
        Lang::Ko => format!(
            "`{command}` 명령은 위험합니다. {reason}\n\n무엇이 영향을 받는지 확실히 알기 전에는 실행하지 마세요. \
             이 도우미는 이 명령을 제안하지 않습니다. 설정에서 API 키를 넣으면 모델이 더 자세히 설명합니다."
        ),
        Lang::En => format!(
            "`{command}` is dangerous. {reason}\n\nDo not run it before you are sure what it touches; \
             the no-key assistant will not propose it. Add an API key in Settings and a model explains it in more detail."
        ),
    })
}

/// Folders the package manager or the build makes again: deleting one loses nothing that
/// cannot come back.
const REGENERATED: WordList =
    WordList("node_modules|target|build|dist|.venv|venv|__pycache__|.next|.cache|.pytest_cache");

/// Everyday commands the no-key assistant explains, sorted by command (a test holds it): the
/// command (a program, or a program and its sub-command), whether it changes anything, whether it is also an everyday English
/// word (then it counts only in backticks or followed by an option or a path), and what it
/// does in Korean and in English.
const KNOWN: &[(&str, bool, bool, &str, &str)] = &[
    ("cat", false, true, "파일의 내용을 그대로 출력합니다", "prints a file's contents"),
    ("cd", false, false, "셸의 현재 폴더를 옮깁니다. 디스크의 내용은 바뀌지 않습니다", "moves the shell into another folder; nothing on disk changes"),
    ("chmod", true, false, "파일을 누가 읽고, 쓰고, 실행할 수 있는지 바꿉니다", "changes who may read, write or run a file"),
    ("chown", true, false, "파일의 소유자를 바꿉니다", "changes who owns a file"),
    ("cp", true, false, "파일을 복사합니다. 대상에 같은 이름의 파일이 있으면 묻지 않고 덮어씁니다", "copies files, overwriting a file of the same name at the destination without asking"),
    ("curl", false, false, "URL의 내용을 받아 출력합니다", "fetches a URL and prints what comes back"),
    ("df", false, false, "디스크마다 사용한 공간과 남은 공간을 보여 줍니다", "shows the used and free space of each disk"),
    ("docker ps", false, false, "실행 중인 컨테이너 목록을 보여 줍니다", "lists the running containers"),
    ("du", false, false, "파일과 폴더가 디스크를 얼마나 차지하는지 보여 줍니다", "shows how much disk space files and folders take"),
    ("echo", false, true, "받은 글자를 그대로 출력합니다", "prints its arguments"),
    ("find", false, true, "폴더 아래에서 이름, 크기, 날짜, 종류로 파일을 찾습니다. -delete나 -exec가 붙으면 찾은 파일을 지우거나 바꿀 수 있습니다", "looks for files under a folder by name, size, age or type; with -delete or -exec it also removes or changes what it finds"),
    ("git add", true, false, "변경 내용을 다음 커밋에 넣을 준비를 합니다", "stages changes for the next commit"),
    ("git branch", true, false, "브랜치 목록을 보여 줍니다. 이름을 주면 그 이름의 브랜치를 만듭니다", "lists the branches; with a name it makes a branch"),
    ("git checkout", true, false, "다른 브랜치로 옮겨 갑니다. 파일 이름을 주면 그 파일의 커밋하지 않은 변경을 버립니다", "switches to another branch; given a file, it throws away that file's uncommitted changes"),
    ("git clone", true, false, "원격 저장소를 새 폴더로 복사해 옵니다", "copies a remote repository into a new folder"),
    ("git commit", true, false, "준비된 변경 내용을 하나의 커밋으로 기록합니다", "records the staged changes as a commit"),
    ("git diff", false, false, "아직 커밋하지 않은 변경 내용을 보여 줍니다", "shows the changes not yet committed"),
    ("git fetch", false, false, "원격 저장소의 새 커밋을 받기만 하고, 내 파일은 바꾸지 않습니다", "downloads the remote's new commits without touching your files"),
    ("git log", false, false, "커밋 기록을 최근 것부터 보여 줍니다", "shows the commit history, newest first"),
    ("git merge", true, false, "다른 브랜치의 커밋을 지금 브랜치에 합칩니다. 두 기록을 잇는 병합 커밋이 생길 수 있고, 이미 있는 커밋은 그대로입니다", "joins another branch's commits into the current branch, with a merge commit tying the two histories; the commits already there stay as they are"),
    ("git pull", true, false, "원격 저장소의 새 커밋을 받아 현재 브랜치에 합칩니다", "fetches the remote's new commits and merges them into the current branch"),
    ("git push", true, false, "내 커밋을 원격 저장소로 보냅니다. --force 없이는 다른 사람의 커밋을 덮어쓰지 않습니다", "sends your commits to the remote; without --force it never overwrites anyone's commits"),
    ("git rebase", true, false, "지금 브랜치의 커밋을 다른 브랜치 끝으로 옮겨 새 커밋으로 다시 씁니다. 기록이 한 줄로 정리되지만, 이미 푸시해 다른 사람이 받은 브랜치에는 쓰지 마세요", "replays the current branch's commits on top of another branch as new commits: a straight history, but never do it to a branch others have already pulled"),
    ("git stash", true, false, "커밋하지 않은 변경을 잠시 치워 둡니다. git stash pop으로 되돌립니다", "puts uncommitted changes aside; git stash pop brings them back"),
    ("git status", false, false, "바뀐 파일, 커밋할 준비가 된 파일, Git이 모르는 파일을 보여 줍니다", "shows which files changed, which are staged and which git does not track"),
    ("git switch", true, false, "다른 브랜치로 옮겨 갑니다", "switches to another branch"),
    ("grep", false, false, "텍스트에서 패턴과 맞는 줄을 찾아 출력합니다", "prints the lines of text that match a pattern"),
    ("head", false, true, "파일의 앞부분(기본 10줄)을 출력합니다", "prints the first lines of a file (10 unless told)"),
    ("kill", true, true, "프로세스에 신호를 보냅니다. 보통 프로세스를 끝낼 때 씁니다", "sends a signal to a process, usually to stop it"),
    ("less", false, true, "파일을 한 화면씩 보여 줍니다(q로 나갑니다)", "shows a file one screen at a time (q quits)"),
    ("ls", false, false, "폴더(이름을 주지 않으면 현재 폴더)에 있는 파일과 폴더의 목록을 보여 줍니다", "lists the files and folders in a folder (the current one if none is named)"),
    ("mkdir", true, false, "새 폴더를 만듭니다", "makes a new folder"),
    ("mv", true, false, "파일을 옮기거나 이름을 바꿉니다. 같은 이름의 파일이 있으면 묻지 않고 덮어씁니다", "moves or renames files, overwriting a file of the same name without asking"),
    ("npm ci", true, false, "node_modules를 지우고 package-lock.json에 적힌 버전 그대로 새로 설치합니다. lock 파일이 package.json과 맞지 않으면 고치지 않고 멈춥니다", "deletes node_modules and installs exactly the versions package-lock.json lists; when the lock file and package.json disagree it stops instead of updating either"),
    ("npm install", true, false, "프로젝트의 패키지를 node_modules에 설치합니다. package.json이 허락하는 범위에서 package-lock.json을 고쳐 쓸 수 있습니다", "installs the project's packages into node_modules, and may update package-lock.json within what package.json allows"),
    ("pip install", true, false, "파이썬 패키지를 설치합니다", "installs Python packages"),
    ("ps", false, false, "실행 중인 프로세스 목록을 보여 줍니다", "lists the running processes"),
    ("pwd", false, false, "현재 폴더의 경로를 출력합니다", "prints the path of the current folder"),
    ("rm", true, false, "파일을 지웁니다. 휴지통을 거치지 않으므로 되돌릴 수 없습니다", "deletes files; they skip the trash and cannot be brought back"),
    ("ssh", false, false, "다른 컴퓨터에 접속해 그곳의 셸을 엽니다", "opens a shell on another machine"),
    ("tail", false, true, "파일의 끝부분(기본 10줄)을 출력합니다. -f를 붙이면 늘어나는 내용을 계속 보여 줍니다", "prints the last lines of a file (10 unless told); with -f it keeps printing what is added"),
    ("tar", true, false, "파일을 하나의 묶음으로 만들거나(-c) 묶음을 풉니다(-x). 풀 때 같은 이름의 파일을 덮어씁니다", "packs files into one archive (-c) or unpacks one (-x), overwriting files of the same name when it unpacks"),
    ("top", false, true, "프로세스와 CPU, 메모리 사용량을 실시간으로 보여 줍니다(q로 나갑니다)", "shows processes and CPU and memory use live (q quits)"),
    ("touch", true, true, "빈 파일을 만들거나, 있는 파일의 수정 시각을 지금으로 바꿉니다", "creates an empty file, or sets an existing file's time to now"),
    ("wget", true, false, "URL의 내용을 받아 파일로 저장합니다", "downloads a URL into a file"),
    ("which", false, true, "명령 이름이 어떤 파일을 실행하는지 알려 줍니다", "tells which file a command name runs"),
];

/// Words before a command that ask what it is ("what does ls do", "explain git stash").
const BEFORE_KNOWN: WordList = WordList("does|is|explain|what's|whats|about");

/// Words after a command that ask what it is ("ls -la do?", "git status가 뭐야", "git stash
/// 하면 어떻게 돼?", "chmod 777 run.sh 해도 돼?": is it all right to); Korean ones are matched at the
/// start of the word. 해도: (is it all right) to do; 괜찮: all right; 안전: safe.
// 뜻/의미: meaning; 역할: what it is for.
const AFTER_KNOWN: WordList =
    WordList("do|does|mean|means|safe|뭐|무슨|무엇|하면|명령|어떤|해도|괜찮|안전|뜻|의미|역할");

/// What an everyday command in a question does: see `explain_command`.
fn explain_known(text: &str, lang: Lang) -> Option<String> {
    // Most questions name no command: one pass over the words, without copies, rules them out.
    let names_one = text.split(|c: char| c.is_whitespace() || c == '`').any(|w| {
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let w = &w[..w.find(|c: char| !c.is_ascii()).unwrap_or(w.len())];
        (2..=6).contains(&w.len()) && {
            let w = w.to_ascii_lowercase();
            KNOWN.binary_search_by(|k| k.0.split(' ').next().unwrap_or(k.0).cmp(&w)).is_ok()
        }
    });
    if !names_one {
        return None;
    }
    let quoted = text.split('`').nth(1).filter(|_| text.matches('`').count() >= 2);
    let words: Vec<String> = quoted
        .unwrap_or(text)
        .split_whitespace()
        .map(|w| {
            let w = w.trim_matches(|c| matches!(c, '"' | '“' | '”')).trim_end_matches(['?', '!', ',']);
            // A full stop ends a sentence, unless it is the whole word ("find .").
            if w.len() > 1 { w.trim_end_matches('.') } else { w }.lower()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > EXPLAIN_MAX_WORDS {
        return None;
    }
    // A word's ASCII start: "status가" is "status" followed by a Korean particle.
    let ascii = |w: &str| w[..w.find(|c: char| !c.is_ascii()).unwrap_or(w.len())].to_string();
    (0..words.len()).find_map(|i| {
        let two = words.get(i + 1).map(|next| format!("{} {}", words[i], ascii(next)));
        let (key, changes, plain, ko, en) = KNOWN
            .iter()
            .find(|k| two.as_deref() == Some(k.0))
            .or_else(|| KNOWN.iter().find(|k| ascii(&words[i]) == k.0 && !k.0.contains(' ')))?;
        let mut end = i + key.split(' ').count();
        // Its options and paths: up to a question word or the first word with Korean in it.
        while end < words.len() && words[end - 1].is_ascii() {
            let next = &words[end];
            if !next.starts_with(|c: char| c.is_ascii()) || AFTER_COMMAND.contains(next) {
                break;
            }
            end += 1;
        }
        let command: Vec<String> = words[i..end].iter().map(|w| ascii(w)).filter(|w| !w.is_empty()).collect();
        let asked = quoted.is_some()
            || (i > 0 && BEFORE_KNOWN.contains(&words[i - 1]))
            || words.get(end).is_some_and(|w| AFTER_KNOWN.any(|cue| w.starts_with(cue)))
            || (end == words.len() && !words[end - 1].is_ascii());
        let argued = command.len() > key.split(' ').count()
            && command[key.split(' ').count()..].iter().any(|a| a.starts_with('-') || a.contains('/'));
        if !asked || (*plain && quoted.is_none() && !argued) {
            return None;
        }
        let command = command.join(" ");
        // find's -delete removes what it finds (the danger check passes it inside a folder).
        let changes = *changes || command.contains(" -delete");
        // "chmod 644": what each digit lets whom do.
        let mode = if *key == "chmod" { chmod_mode(&command, lang) } else { String::new() };
        let caution = if *key == "chmod" && lets_everyone_write(&command) {
            lang.pick(
                " 이 권한은 이 컴퓨터의 모든 사용자가 파일을 바꿀 수 있게 합니다(다른 사용자 자리의 쓰기 권한). \
                 보통은 실행 파일에 755, 일반 파일에 644면 충분합니다.",
                " This mode lets every user on the machine change the file (write for others); \
                 755 for a program and 644 for a plain file are usually enough.",
            )
        } else {
            ""
        };
        Some(match lang {
            Lang::Ko => format!(
                "`{command}`: {ko}.{mode}{caution} {}\n\n이름 뒤의 옵션이 동작을 조금씩 바꿉니다. `{key} --help`로 옵션 목록을 볼 수 있습니다. \
                 설정에서 API 키를 넣으면 모델이 명령 전체를 설명합니다.",
                if changes { "파일이나 설정을 바꾸므로, 실행하기 전에 대상을 확인하세요." } else { "읽기만 하고 아무것도 바꾸지 않습니다." }
            ),
            Lang::En => format!(
                "`{command}` {en}.{mode}{caution} {}\n\nThe options after the name change how it does that; `{key} --help` lists them. \
                 Add an API key in Settings and a model explains the whole command.",
                if changes { "It changes files or settings, so check what it names before you run it." } else { "It only reads; it changes nothing." }
            ),
        })
    })
}

/// What a numeric mode in a chmod command lets each class of user do (" 644: the owner may
/// read and write; the group and others may only read."), or "" when it names none.
fn chmod_mode(command: &str, lang: Lang) -> String {
    let Some(mode) = command
        .split_whitespace()
        .skip(1)
        .find(|w| (3..=4).contains(&w.len()) && w.chars().all(|c| ('0'..='7').contains(&c)))
    else {
        return String::new();
    };
    let digits: Vec<u32> = mode.chars().rev().take(3).filter_map(|c| c.to_digit(8)).collect();
    let [others, group, owner] = digits[..] else { return String::new() };
    let can = |d: u32| -> String {
        let parts: Vec<&str> =
            [(4, lang.pick("읽기", "read")), (2, lang.pick("쓰기", "write")), (1, lang.pick("실행", "run"))]
                .into_iter()
                .filter(|(bit, _)| d & bit != 0)
                .map(|(_, name)| name)
                .collect();
        match (parts.as_slice(), lang) {
            ([], Lang::Ko) => "아무 권한 없음".into(),
            ([], Lang::En) => "do nothing".into(),
            (_, Lang::Ko) => parts.join("·"),
            ([one], Lang::En) => format!("only {one}"),
            ([a, b], Lang::En) => format!("{a} and {b}"),
            (_, Lang::En) => "read, write and run".into(),
        }
    };
    match lang {
        Lang::Ko if group == others => {
            format!(" {mode}: 소유자는 {}, 그룹과 다른 사용자는 {}.", can(owner), can(group))
        }
        Lang::Ko => format!(" {mode}: 소유자는 {}, 그룹은 {}, 다른 사용자는 {}.", can(owner), can(group), can(others)),
        Lang::En if group == others => {
            format!(" {mode}: the owner may {}; the group and others may {}.", can(owner), can(group))
        }
        Lang::En => format!(
            " {mode}: the owner may {}, the group may {}, and others may {}.",
            can(owner),
            can(group),
            can(others)
        ),
    }
}

/// Options people ask the difference of, sorted by program: the program (or program and
/// sub-command), the option, and what it does in Korean and in English. `-rf` is read as
/// `-r` and `-f`; an option given twice (`-R`, `-r`) is listed under each spelling.
const OPTIONS: &[(&str, &str, &str, &str)] = &[
    ("chmod", "-R", "폴더 안의 모든 파일과 폴더에도 적용합니다", "applies to everything inside the folder too"),
    (
        "cp",
        "-a",
        "권한, 시각, 링크까지 그대로 폴더째 복사합니다(-r 포함)",
        "copies folders keeping permissions, times and links (-r included)",
    ),
    (
        "cp",
        "-f",
        "덮어쓸 수 없는 대상 파일은 지우고 다시 복사합니다",
        "removes a destination file it cannot overwrite and copies again",
    ),
    ("cp", "-i", "덮어쓰기 전에 묻습니다", "asks before overwriting"),
    ("cp", "-n", "이미 있는 파일은 덮어쓰지 않습니다", "never overwrites an existing file"),
    ("cp", "-p", "권한과 수정 시각을 그대로 옮깁니다", "keeps permissions and modification times"),
    ("cp", "-r", "폴더를 그 안의 모든 것과 함께 복사합니다", "copies folders with everything in them"),
    ("cp", "-R", "폴더를 그 안의 모든 것과 함께 복사합니다", "copies folders with everything in them"),
    (
        "git push",
        "--force",
        "원격 브랜치를 내 브랜치로 덮어씁니다. 다른 사람이 올린 커밋이 사라질 수 있습니다",
        "overwrites the remote branch with yours; commits others pushed can be lost",
    ),
    (
        "git push",
        "--force-with-lease",
        "원격 브랜치가 내가 마지막으로 본 그대로일 때만 덮어씁니다",
        "overwrites the remote branch only if it is still as you last saw it",
    ),
    (
        "git push",
        "-f",
        "원격 브랜치를 내 브랜치로 덮어씁니다(--force). 다른 사람이 올린 커밋이 사라질 수 있습니다",
        "overwrites the remote branch with yours (--force); commits others pushed can be lost",
    ),
    (
        "git reset",
        "--hard",
        "커밋을 되돌리고 커밋하지 않은 변경까지 버립니다. 되돌릴 수 없습니다",
        "undoes the commits and throws away uncommitted changes too; this cannot be undone",
    ),
    (
        "git reset",
        "--mixed",
        "커밋을 되돌리고 변경 내용은 파일에 남깁니다(스테이징만 풉니다, 기본값)",
        "undoes the commits and keeps their changes in your files, unstaged (the default)",
    ),
    (
        "git reset",
        "--soft",
        "커밋만 되돌리고 변경 내용은 스테이징된 채로 남깁니다",
        "undoes the commits and keeps their changes staged",
    ),
    ("grep", "-i", "대소문자를 가리지 않습니다", "ignores upper and lower case"),
    ("grep", "-l", "맞는 줄 대신 파일 이름만 보여 줍니다", "lists the matching files instead of the lines"),
    ("grep", "-n", "줄 번호를 붙입니다", "numbers the lines"),
    ("grep", "-r", "폴더 안의 파일을 모두 찾습니다", "searches every file under a folder"),
    ("grep", "-v", "맞지 않는 줄을 보여 줍니다", "shows the lines that do not match"),
    ("grep", "-w", "단어 전체가 맞을 때만 찾습니다", "matches whole words only"),
    (
        "kill",
        "-15",
        "종료를 요청합니다(SIGTERM, 기본값). 프로그램이 정리하고 끝날 수 있습니다",
        "asks the process to exit (SIGTERM, the default), so it can clean up first",
    ),
    (
        "kill",
        "-9",
        "정리할 틈 없이 바로 끝냅니다(SIGKILL). 저장하지 않은 데이터가 사라질 수 있습니다",
        "ends the process at once (SIGKILL), with no chance to clean up; unsaved data can be lost",
    ),
    (
        "ls",
        "-a",
        "점(.)으로 시작하는 숨김 파일까지 보여 줍니다",
        "shows hidden files too (names that start with a dot)",
    ),
    ("ls", "-h", "크기를 K, M, G로 읽기 쉽게 씁니다(-l과 함께)", "writes sizes as K, M, G (with -l)"),
    (
        "ls",
        "-l",
        "크기, 날짜, 권한과 함께 한 줄에 하나씩 보여 줍니다",
        "shows one per line with size, date and permissions",
    ),
    ("ls", "-R", "하위 폴더의 내용까지 모두 보여 줍니다", "lists the subfolders' contents too"),
    ("ls", "-r", "순서를 거꾸로 합니다", "reverses the order"),
    ("ls", "-S", "큰 것부터 보여 줍니다", "lists the largest first"),
    ("ls", "-t", "최근에 바뀐 것부터 보여 줍니다", "lists the newest first"),
    ("mv", "-f", "묻지 않고 덮어씁니다", "overwrites without asking"),
    ("mv", "-i", "덮어쓰기 전에 묻습니다", "asks before overwriting"),
    ("mv", "-n", "이미 있는 파일은 덮어쓰지 않습니다", "never overwrites an existing file"),
    (
        "rm",
        "-f",
        "묻지 않고, 없는 파일은 말없이 넘어갑니다",
        "never asks, and passes over files that do not exist without a word",
    ),
    ("rm", "-i", "파일마다 지울지 묻습니다", "asks before each file"),
    (
        "rm",
        "-r",
        "폴더와 그 안의 모든 것을 지웁니다. 쓰기 금지된 파일은 지울지 묻습니다",
        "deletes folders and everything in them, asking before a write-protected file",
    ),
    (
        "rm",
        "-R",
        "폴더와 그 안의 모든 것을 지웁니다. 쓰기 금지된 파일은 지울지 묻습니다",
        "deletes folders and everything in them, asking before a write-protected file",
    ),
    ("rm", "-v", "지우는 파일마다 이름을 출력합니다", "prints each file it deletes"),
    ("tar", "-c", "묶음을 만듭니다", "creates an archive"),
    ("tar", "-f", "다음에 오는 이름을 묶음 파일로 씁니다", "uses the name that follows as the archive file"),
    ("tar", "-j", "bzip2로 압축합니다(.tar.bz2)", "compresses with bzip2 (.tar.bz2)"),
    ("tar", "-t", "풀지 않고 묶음 안의 목록만 보여 줍니다", "lists what the archive holds without unpacking it"),
    ("tar", "-v", "처리하는 파일 이름을 출력합니다", "prints each file it handles"),
    (
        "tar",
        "-x",
        "묶음을 풉니다. 같은 이름의 파일은 덮어씁니다",
        "unpacks an archive, overwriting files of the same name",
    ),
    ("tar", "-z", "gzip으로 압축합니다(.tar.gz)", "compresses with gzip (.tar.gz)"),
];

/// Words that ask how two things differ: 차이: difference; 다른 점/다른점: what differs; 비교:
/// comparison; 다르: differ.
const DIFFERENCE: WordList =
    WordList("difference|differ|different|vs|versus|compare|compared|차이|다른 점|다른점|비교|다르");

/// The answer to "what's the difference between npm install and npm ci?" ("git fetch랑 git pull
/// 차이"): what each of two commands of `KNOWN` does, side by side. Only for commands named
/// without options, with their sub-command or, for a program alone, one that is no everyday
/// word; `None` otherwise.
fn compare_known(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    if !DIFFERENCE.any(|w| lower.contains(w)) {
        return None;
    }
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, '`' | ',' | '?' | '/' | '(' | ')'))
        .map(without_particle)
        .filter(|w| !w.is_empty())
        .collect();
    let mut named: Vec<&(&str, bool, bool, &str, &str)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let two = words.get(i + 1).map(|next| format!("{} {next}", words[i]));
        let known = KNOWN.iter().find(|k| two.as_deref() == Some(k.0)).or_else(|| {
            KNOWN
                .iter()
                .find(|k| k.0 == words[i] && !k.2 && !KNOWN.iter().any(|o| o.0.starts_with(&format!("{} ", k.0))))
        });
        match known {
            Some(k) => {
                i += k.0.split(' ').count();
                // Forms with options are `compare_options`'s to tell apart, or not at all.
                if words.get(i).is_some_and(|w| w.starts_with('-')) {
                    return None;
                }
                if !named.iter().any(|n| n.0 == k.0) {
                    named.push(k);
                }
            }
            None => i += 1,
        }
    }
    let [a, b] = named[..] else { return None };
    Some(match lang {
        Lang::Ko => format!("- `{}`: {}.\n- `{}`: {}.", a.0, a.3, b.0, b.3),
        Lang::En => format!("- `{}` {}.\n- `{}` {}.", a.0, a.4, b.0, b.4),
    })
}

/// The answer to "what's the difference between rm -r and rm -rf?" ("git reset --soft와 --hard
/// 차이"): each form with what its options do, then what the other form adds. Only for two
/// forms of one program in `OPTIONS` whose options it all knows; `None` otherwise.
fn compare_options(text: &str, lang: Lang) -> Option<String> {
    let lower = text.lower();
    if !DIFFERENCE.any(|w| lower.contains(w)) {
        return None;
    }
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '`')
        .map(|w| w.trim_matches(|c: char| matches!(c, '"' | '\'' | '(' | ')' | ',' | '?' | '!' | '.' | ':')))
        .filter(|w| !w.is_empty())
        .collect();
    // Each form: its program, its options as written, and each option alone ("-rf": "-r",
    // "-f"). An option word ends a form when Korean follows it ("-r이랑"); any other word ends
    // it too; options with no program take the last form's.
    let mut forms: Vec<(&str, Vec<&str>, Vec<String>)> = Vec::new();
    let mut open = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let start = &word[..word.find(|c: char| !c.is_ascii()).unwrap_or(word.len())];
        let next = words.get(i + 1).map(|n| &n[..n.find(|c: char| !c.is_ascii()).unwrap_or(n.len())]);
        let two = next.map(|n| format!("{word} {n}"));
        let program =
            OPTIONS.iter().map(|o| o.0).find(|p| two.as_deref() == Some(*p) || (*p == start && !p.contains(' ')));
        if let Some(program) = program {
            let ends = if program.contains(' ') { next.unwrap_or("") } else { start };
            let whole = if program.contains(' ') { words[i + 1] } else { word };
            forms.push((program, Vec::new(), Vec::new()));
            open = ends.len() == whole.len();
            i += program.split(' ').count();
            continue;
        }
        let option = start.len() > 1
            && start.starts_with('-')
            && start[1..].chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if option {
            if !open {
                let program = forms.last()?.0;
                forms.push((program, Vec::new(), Vec::new()));
            }
            let form = forms.last_mut()?;
            form.1.push(start);
            if start.starts_with("--") || start[1..].chars().all(|c| c.is_ascii_digit()) {
                form.2.push(start.to_string());
            } else {
                form.2.extend(start[1..].chars().map(|c| format!("-{c}")));
            }
            open = start.len() == word.len();
        } else {
            open = false;
        }
        i += 1;
    }
    let [(program, written_a, a), (other, written_b, b), ..] = &forms[..] else { return None };
    let said = |o: &String| OPTIONS.iter().find(|(p, opt, _, _)| p == program && opt == o);
    let same = a.iter().all(|o| b.contains(o)) && b.iter().all(|o| a.contains(o));
    if program != other || same || !a.iter().chain(b).all(|o| said(o).is_some()) {
        return None;
    }
    let what = |o: &String| said(o).map(|(_, _, ko, en)| lang.pick(ko, en)).unwrap_or_default();
    let shown = |written: &[&str]| {
        if written.is_empty() {
            program.to_string()
        } else {
            format!("{program} {}", written.join(" "))
        }
    };
    let mut out = String::new();
    if let Some((_, _, _, ko, en)) = KNOWN.iter().find(|k| k.0 == *program) {
        out.push_str(&format!("`{program}`{} {}.\n\n", lang.pick(":", ""), lang.pick(ko, en)));
    }
    for (written, options) in [(written_a, a), (written_b, b)] {
        let described: Vec<String> = options.iter().map(|o| format!("{o} {}", what(o))).collect();
        let described = if described.is_empty() {
            lang.pick("옵션 없이(기본 동작)", "no options (the default)").to_string()
        } else {
            described.join("; ")
        };
        out.push_str(&format!("- `{}`: {described}\n", shown(written)));
    }
    // One form is the other with more: what it adds.
    for ((written, this), that) in [((written_a, a), b), ((written_b, b), a)] {
        let extra: Vec<String> =
            this.iter().filter(|o| !that.contains(o)).map(|o| format!("{o} ({})", what(o))).collect();
        if that.iter().all(|o| this.contains(o)) && !extra.is_empty() {
            out.push_str(&match lang {
                Lang::Ko => format!("\n차이: `{}`에는 이 옵션이 더 있습니다: {}.", shown(written), extra.join(", ")),
                Lang::En => format!("\nThe difference: `{}` adds {}.", shown(written), extra.join(", ")),
            });
        }
    }
    Some(out.trim_end().to_string())
}

/// Whether a `chmod` command gives write permission to every user: an octal mode whose last
/// digit has the write bit (777, 666, 0777), or a symbolic one that adds write for others or
/// for all (o+w, a+rwx, o=rw).
fn lets_everyone_write(command: &str) -> bool {
    command.split_whitespace().skip(1).any(|arg| {
        let octal = (3..=4).contains(&arg.len()) && arg.chars().all(|c| ('0'..='7').contains(&c));
        if octal {
            return arg.bytes().last().is_some_and(|d| (d - b'0') & 2 != 0);
        }
        arg.split(',').any(|clause| {
            let Some(at) = clause.find(['+', '=']) else {
                return false;
            };
            let (who, what) = clause.split_at(at);
            (who.contains('o') || who.contains('a')) && what.contains('w')
        })
    })
}

/// Words that end a command written inside a question ("what does rm -rf / do?").
/// Words that tell what happened to a command end it too ("my git push was rejected, what do
/// I do" is about a push, not a command "git push was rejected").
const AFTER_COMMAND: WordList = WordList(
    "do|does|mean|means|safe|dangerous|work|works|actually|really|exactly|then|is|ok|okay|fine|right|\
     was|were|keeps|kept|failed|fails|failing|rejected|refused|broke|broken|stuck|hangs|hung|errors|errored|\
     got|gets|says|said|gives|gave|isn't|wasn't|doesn't|didn't|won't|can't|not",
);

/// The first run of words the danger check flags, as the user wrote it: from the earliest
/// word that starts one, through its arguments, up to a question word or a word not in ASCII.
/// An ASCII word without the Korean particle written onto it: "--hard가" is "--hard", "status는"
/// "status"; "./보고서" stays (its Korean is a name, not a particle after a word).
fn without_particle(word: &str) -> &str {
    let cut = word.find(|c: char| !c.is_ascii()).unwrap_or(word.len());
    let (head, tail) = word.split_at(cut);
    let particle = !tail.is_empty()
        && tail.chars().all(|c| crate::engine::lang::is_hangul(c) || c.is_ascii_punctuation())
        && head.ends_with(|c: char| c.is_ascii_alphanumeric());
    if particle {
        head
    } else {
        word
    }
}

fn flagged_words(text: &str) -> Option<(String, crate::engine::danger::Danger)> {
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|w| without_particle(w.trim_matches(|c| matches!(c, '"' | '\'' | '“' | '”'))))
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > EXPLAIN_MAX_WORDS {
        return None;
    }
    const ENDS: [char; 4] = ['?', '.', '!', ','];
    let bare = |w: &str| w.trim_end_matches(ENDS).to_string();
    // The words as the rest of the message from each start reads: the last one bare (and
    // gone, when nothing is left of it).
    let last = words.last().map(|w| w.trim_end_matches(ENDS));
    let rests: Vec<&str> =
        words[..words.len().saturating_sub(1)].iter().copied().chain(last.filter(|w| !w.is_empty())).collect();
    let from_each_start = crate::engine::danger::CommandWords::new(&rests);
    (0..words.len()).filter(|&i| words[i].starts_with(|c: char| c.is_ascii_alphabetic())).find_map(|i| {
        // Most starts begin no command: one check of the rest of the message rules them out,
        // so a long question costs one check per word, not one per pair of words.
        from_each_start.from(i)?;
        let shortest = (i + 1..=words.len())
            .find_map(|j| crate::engine::danger::assess(&bare(&words[i..j].join(" "))).map(|d| (j, d)));
        let (mut end, danger) = shortest?;
        while end > i && end < words.len() && !words[end - 1].ends_with('?') {
            let next = bare(words[end]);
            if next.is_empty() || !next.is_ascii() || AFTER_COMMAND.contains(next.to_ascii_lowercase()) {
                break;
            }
            end += 1;
        }
        Some((bare(&words[i..end].join(" ")), danger))
    })
}

/// The first folder a request names ("/var/log", "~/logs", "./tmp"), if its characters are
/// safe to put in a shell command as they are.
fn request_folder(text: &str) -> Option<String> {
    request_folders(text).into_iter().next()
}

/// The branch names of a rename: (the old name if said, the new one). "rename the branch
/// feature-x to feature-login", "rename this branch to fix/login", "feature-x 브랜치 이름을
/// feature-login으로 바꿔줘" (브랜치: branch; 으로/로: to). `None` unless a new name is said, in
/// characters safe in a command.
fn branch_rename(text: &str) -> Option<(Option<String>, String)> {
    let lower = text.lower();
    if !WordList("rename|이름").any(|w| lower.contains(w)) {
        return None;
    }
    let name = |w: &str| {
        let w = w.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | '.' | '?' | '!'));
        let plain = !w.is_empty()
            && w.len() <= 80
            && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'))
            && !w.starts_with('-')
            && !WordList("the|a|my|this|that|it|branch|current|name|git|to|its|our|local")
                .contains(w.to_ascii_lowercase());
        plain.then(|| w.to_string())
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    // English: the name after "to"; the old one just before it, past "branch".
    if let Some(to) = words.iter().position(|w| w.eq_ignore_ascii_case("to")) {
        let new = words.get(to + 1).and_then(|w| name(w))?;
        let before = words[..to].iter().rev().find(|w| !w.eq_ignore_ascii_case("branch"));
        let old =
            before.filter(|w| !WordList("rename|renaming").contains(w.to_ascii_lowercase())).and_then(|w| name(w));
        return Some((old, new));
    }
    // Korean: the name written with 으로/로 is the new one; an ASCII name before 브랜치 the old one.
    let new = words.iter().find_map(|w| {
        let stem = w.strip_suffix("으로").or_else(|| w.strip_suffix("로"))?;
        stem.is_ascii().then(|| name(stem)).flatten()
    })?;
    let old = words.windows(2).find(|p| p[1].starts_with("브랜치")).and_then(|p| name(p[0]));
    Some((old.filter(|o| *o != new), new))
}

/// The name of a branch to make: "create a new branch called hotfix", "make a branch named
/// fix/login", "hotfix라는 브랜치 만들어 줘", "새 브랜치 hotfix 만들기" (라는/이라는: called; 새: new;
/// 만들/생성: make). `None` unless a new branch is asked with its name.
fn new_branch_name(text: &str) -> Option<String> {
    let lower = text.lower();
    if branch_rename(text).is_some()
        || !WordList("create|make|new|start|만들|생성|새 브랜치|새브랜치").any(|w| lower.contains(w))
        || !WordList("branch|브랜치").any(|w| lower.contains(w))
    {
        return None;
    }
    let plain = |w: &str| {
        let w = w.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | '.' | '?' | '!'));
        (!w.is_empty()
            && w.len() <= 80
            && !w.starts_with('-')
            && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'))
            && !WordList("a|the|new|branch|git|called|named|for|from|it|me|my|this|local")
                .contains(w.to_ascii_lowercase()))
        .then(|| w.to_string())
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    // English: the word after "called" or "named".
    if let Some(at) = words.iter().position(|w| matches!(w.to_ascii_lowercase().as_str(), "called" | "named")) {
        return words.get(at + 1).and_then(|w| plain(w));
    }
    // Korean: "hotfix라는 브랜치", or the ASCII word right after "새 브랜치".
    let called = words.iter().find_map(|w| {
        let stem = w.strip_suffix("이라는").or_else(|| w.strip_suffix("라는"))?;
        stem.is_ascii().then(|| plain(stem)).flatten()
    });
    called.or_else(|| {
        words.windows(2).find(|p| p[0].ends_with("브랜치") && lower.contains("새")).and_then(|p| {
            let next = p[1].trim_end_matches(|c: char| !c.is_ascii());
            plain(next)
        })
    })
}

/// Every folder a request names, in order (see `request_folder`).
fn request_folders(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_start_matches(['`', '"', '\'', '(']).trim_end_matches(['`', '"', '\'', ',', '.', '?', '!', ')'])
        })
        .map(|w| w.trim_end_matches(['에', '의', '서', '을', '를', '은', '는', '로']))
        .filter(|w| {
            (w.starts_with('/') || w.starts_with("~/") || w.starts_with("./"))
                && w.len() > 1
                && w.len() <= 100
                && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '~'))
        })
        .map(str::to_string)
        .collect()
}

/// The port a request names ("port 8080", "3000번 포트", "포트 3000번"), 1 to 65,535.
fn request_port(text: &str) -> Option<u16> {
    let lower = text.lower();
    let words: Vec<&str> = lower.split_whitespace().collect();
    // 포트: port; 번: number.
    let near_port = |i: usize| {
        [i.checked_sub(1), Some(i), Some(i + 1)]
            .into_iter()
            .flatten()
            .any(|j| words.get(j).is_some_and(|w| w.starts_with("port") || w.starts_with(":") || w.contains("포트")))
    };
    // A number with a dot and more digits after it is an address ("10.0.0.5"), not a port. A
    // host's port follows its name ("localhost:5173", "http://127.0.0.1:8080/"); a time's
    // minutes follow a number ("10:30").
    fn host_port(w: &str) -> Option<&str> {
        let (host, port) = w.rsplit_once(':')?;
        let host = host.rsplit('/').next().unwrap_or(host);
        (host.chars().any(|c| c.is_ascii_alphabetic()) || host.contains('.')).then_some(port)
    }
    let number = |w: &str| {
        let w = host_port(w).unwrap_or(w).trim_start_matches(':');
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        let rest = &w[digits.len()..];
        let dotted = rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_digit());
        digits.parse::<u16>().ok().filter(|n| *n > 0 && !dotted)
    };
    // "port 22" first (the number right after the word), then one beside it or after a colon.
    let after_port = |i: usize| i > 0 && (words[i - 1].starts_with("port") || words[i - 1].contains("포트"));
    let at = |rule: &dyn Fn(usize, &str) -> bool| {
        words.iter().enumerate().find_map(|(i, w)| number(w).filter(|_| rule(i, w)))
    };
    at(&|i, w| after_port(i) || w.starts_with(':') || host_port(w).is_some()).or_else(|| at(&|i, _| near_port(i)))
}

/// The log file a request names ("app.log", "/var/log/nginx/error.log"), if its characters
/// are safe to put in a shell command as they are.
fn request_file(text: &str) -> Option<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(['`', '"', '\'', '(', ')', ',', '?', '!']))
        .map(|w| w.trim_end_matches(['에', '의', '서', '을', '를', '은', '는', '로', '.']))
        .find(|w| {
            let lower = w.to_ascii_lowercase();
            (lower.ends_with(".log") || lower.ends_with(".out") || lower.ends_with(".txt") || w.starts_with('/'))
                && w.len() > 4
                && w.len() <= 100
                && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '~'))
        })
        .map(str::to_string)
}

/// The usual log of a web server the request names when it names no file: nginx's or Apache's
/// on Debian and Ubuntu, the error log when errors are asked about (에러/오류: error; 엔진엑스:
/// nginx; 아파치: Apache), else the access log.
fn usual_log(text: &str) -> Option<&'static str> {
    let lower = text.lower();
    let errors = WordList("error|fail|exception|에러|오류").any(|w| lower.contains(w));
    let (error_log, access_log) = if lower.contains("nginx") || lower.contains("엔진엑스") {
        ("/var/log/nginx/error.log", "/var/log/nginx/access.log")
    } else if lower.contains("apache") || lower.contains("아파치") {
        ("/var/log/apache2/error.log", "/var/log/apache2/access.log")
    } else {
        return None;
    };
    Some(if errors { error_log } else { access_log })
}

/// The first number a request writes with a unit that `unit` accepts ("30 days", "30일",
/// "100MB", "2 GB"): the unit is glued to the number or the next word. `unit` maps the
/// unit's text to what the caller wants, or `None`.
fn amount<T>(text: &str, unit: impl Fn(&str) -> Option<T>) -> Option<(u32, T)> {
    let lower = text.lower();
    let words: Vec<&str> = lower.split_whitespace().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        let rest = &w[digits.len()..];
        let written = if rest.is_empty() { words.get(i + 1).copied().unwrap_or("") } else { rest };
        let n = digits.parse::<u32>().ok()?;
        unit(written).map(|u| (n, u))
    })
}

/// The age in days a request names ("older than 30 days", "30일 지난"), 1 to 3,650.
fn request_days(text: &str) -> Option<u32> {
    amount(text, |u| (u.starts_with("day") || u.starts_with('일')).then_some(()))
        .map(|(n, ())| n)
        .filter(|n| (1..=3650).contains(n))
}

/// The size a request names ("bigger than 100MB", "1 GB", "500메가"), as `find -size`
/// writes it ("+100M", "+1G").
fn request_size(text: &str) -> Option<String> {
    // 메가: mega; 기가: giga
    let suffix = |u: &str| {
        [("kb", 'k'), ("mb", 'M'), ("gb", 'G'), ("메가", 'M'), ("기가", 'G'), ("m", 'M'), ("g", 'G')]
            .iter()
            .find(|(w, _)| u.starts_with(w) && !u[w.len()..].starts_with(|c: char| c.is_ascii_alphabetic()))
            .map(|(_, s)| *s)
    };
    amount(text, suffix).filter(|(n, _)| (1..=100_000).contains(n)).map(|(n, s)| format!("+{n}{s}"))
}

/// How recently the files a request looks for changed, in days: "modified in the last 7 days",
/// "지난 7일 동안 수정된 파일", "changed today" (1), "이번 주에 바뀐 파일" (7). `None` unless it asks
/// for changed files. 수정된/수정한/바뀐/변경된/고친: changed; 오늘: today; 어제: yesterday; 이번 주/
/// 일주일: this week; 한 달: a month.
fn changed_within(text: &str) -> Option<u32> {
    let lower = text.lower();
    // Asked of most messages (it is the last cue): the byte pairs rule the words out first.
    let shape = Shape::of(&lower);
    let changed = WordList("modified|changed|edited|updated|touched|수정된|수정한|바뀐|변경된|고친|수정됐|바뀌었")
        .any(|w| shape.may_hold(w) && lower.contains(w));
    if !changed || !WordList("file|파일").any(|w| lower.contains(w)) {
        return None;
    }
    let span = request_days(text).or_else(|| {
        [
            (WordList("today|last 24 hours|past 24 hours|오늘|24시간"), 1),
            (WordList("yesterday|어제"), 2),
            (WordList("this week|last week|past week|a week|이번 주|일주일|지난주|지난 주"), 7),
            (WordList("this month|last month|past month|a month|이번 달|한 달|지난달|지난 달"), 30),
        ]
        .into_iter()
        .find(|(words, _)| words.any(|w| lower.contains(w)))
        .map(|(_, days)| days)
    })?;
    Some(span)
}

/// How many of the largest files a request asks for ("the 3 biggest files", "가장 큰 파일
/// 10개", "top 5 largest files"): the number said, else 10; `None` unless it asks for the
/// largest. 가장/제일 큰: the largest; 큰 순: by size, largest first.
fn request_top(text: &str) -> Option<u32> {
    let lower = text.lower();
    if !WordList("biggest|largest|가장 큰|제일 큰|큰 순|큰 파일 순|용량 순").any(|w| lower.contains(w)) {
        return None;
    }
    let said = lower
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<u32>().ok())
        .find(|n| (1..=1000).contains(n));
    Some(said.unwrap_or(10))
}

/// Where a search starts: the folder the request names, the home folder when it says so,
/// else this folder.
fn search_root(text: &str) -> String {
    let lower = text.lower();
    // 홈 폴더/홈 디렉/홈에서/홈: home folder, home directory, in home, home
    let home = WordList("home directory|home folder|home dir|my home|홈 폴더|홈 디렉|홈에서|홈 ");
    request_folder(text).unwrap_or_else(|| if home.any(|w| lower.contains(w)) { "~".into() } else { ".".into() })
}

/// Moves the first choice whose words the request names to the front, where a card puts
/// its recommended option; `named` pairs a choice's index with its words. True when one was.
fn named_first(choices: &mut Vec<Choice>, text: &str, named: &[(usize, WordList)]) -> bool {
    let lower = text.lower();
    let Some(at) = named.iter().find(|(_, words)| words.any(|w| lower.contains(w))).map(|(at, _)| *at) else {
        return false;
    };
    let first = choices.remove(at);
    choices.insert(0, first);
    true
}

/// A word of the request written as code: a name with an underscore, a dot or inner capitals
/// ("parse_config", "loadUser", "config.yaml" is not: it is a file), or a call ("init()").
fn code_word(text: &str) -> Option<&str> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | '?' | '!' | '.' | ':')))
        .find(|w| {
            let name = w.strip_suffix("()").unwrap_or(w);
            let identifier = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            let inner_capital =
                name.chars().skip(1).any(|c| c.is_ascii_uppercase()) && name.chars().any(|c| c.is_ascii_lowercase());
            identifier && (name.contains('_') || inner_capital || w.ends_with("()"))
        })
        .map(|w| w.strip_suffix("()").unwrap_or(w))
}

/// Words that ask for every folder below this one ("in all subfolders", "하위 폴더마다").
const SUBFOLDERS: WordList = WordList(
    "subfolder|sub-folder|subdirector|sub-director|every folder|all folders|every project|all projects|all my projects|\
    recursive|하위|폴더마다|프로젝트마다|모든 폴더|모든 프로젝트|재귀",
);

/// The offer for a topic, in `lang`; `text` is the user's request (for a package name).
pub fn offer(topic: Topic, text: &str, lang: Lang) -> Offer {
    use CommandKind::{Shell, Sql};
    let ko = lang == Lang::Ko;
    let t = |k: &'static str, e: &'static str| if ko { k } else { e };
    // Whether the request names one of the choices (then first): it needs no card to pick it.
    let names_one: bool;
    let (header, question, choices) = match topic {
        Topic::Delete => {
            let lower = text.lower();
            let shape = Shape::of(&lower);
            // The folder and the age the request names, where it names them.
            let folder = request_folder(text);
            let logs = folder.as_deref().unwrap_or("./logs");
            let days = request_days(text).unwrap_or(7);
            let logs_said = if ko {
                format!("{logs}에서 {days}일 지난 .log 파일을 먼저 목록으로 봅니다")
            } else {
                format!("Lists .log files older than {days} days in {logs} first")
            };
            let mut choices = vec![
                choice(
                    t("빌드 결과물", "Build output"),
                    t("./build 폴더 전체를 지웁니다", "Removes the whole ./build folder"),
                    "rm -rf ./build",
                    Shell,
                    t("빌드 폴더를 통째로 지웁니다.", "Deletes the build folder and everything in it."),
                ),
                choice(
                    t("오래된 로그", "Old logs"),
                    &logs_said,
                    &format!("find {logs} -name '*.log' -mtime +{days} -print"),
                    Shell,
                    t("지우기 전에 대상 파일을 확인합니다.", "Shows which files would go before anything is deleted."),
                ),
                // "도커 이미지 전부 지워줘": the images, every one no container uses (이미지: image).
                if WordList("image|이미지").any(|w| shape.may_hold(w) && lower.contains(w)) {
                    choice(
                        t("도커 이미지", "Docker images"),
                        t("컨테이너가 쓰지 않는 이미지 전부", "Every image no container uses"),
                        "docker image prune -a",
                        Shell,
                        t(
                            "지우기 전에 확인을 묻습니다. 돌고 있는 컨테이너의 이미지는 남고, 지운 이미지는 다음에 필요할 때 다시 받습니다.",
                            "It asks before deleting. Images of running containers stay; the others are pulled again when needed.",
                        ),
                    )
                } else {
                    choice(
                        t("도커 찌꺼기", "Docker leftovers"),
                        t("멈춘 컨테이너와 쓰지 않는 이미지", "Stopped containers and unused images"),
                        "docker system prune",
                        Shell,
                        t("도커가 쓰지 않는 자원을 정리합니다.", "Frees space Docker no longer uses."),
                    )
                },
            ];
            // What the request names goes first, where a card puts its recommended option.
            let mut named = named_first(
                &mut choices,
                text,
                &[(1, WordList("log|로그")), (2, WordList("docker|도커|container|컨테이너"))],
            );
            // "node_modules 지워줘": the folder named, which the package manager brings back; "in
            // all subfolders", every copy of it under here.
            if lower.contains("node_modules") {
                let everywhere = SUBFOLDERS.any(|w| lower.contains(w));
                choices.insert(
                    0,
                    choice(
                        "node_modules",
                        if everywhere {
                            t("하위 폴더의 node_modules 전부", "Every node_modules under this folder")
                        } else {
                            t("설치된 패키지 폴더 전체", "The whole installed-packages folder")
                        },
                        if everywhere {
                            "find . -name node_modules -type d -prune -exec rm -rf {} +"
                        } else {
                            "rm -rf ./node_modules"
                        },
                        Shell,
                        if everywhere {
                            t(
                                "이 폴더 아래의 node_modules를 모두 지웁니다. 먼저 보려면 -exec 부분을 빼고 실행하세요. 프로젝트마다 npm install로 다시 받을 수 있습니다.",
                                "Deletes every node_modules below this folder; run it without the -exec part first to see them. npm install brings each back.",
                            )
                        } else {
                            t(
                                "패키지 폴더를 지웁니다. npm install로 다시 받을 수 있습니다.",
                                "Deletes the packages folder; npm install brings it back.",
                            )
                        },
                    ),
                );
                named = true;
            }
            // "delete all .DS_Store files", "__pycache__ 다 지워줘": the leftovers named, wherever they are.
            if let Some((name, _, command)) = JUNK.iter().find(|(_, key, _)| shape.may_hold(key) && lower.contains(key))
            {
                choices.insert(
                    0,
                    choice(
                        name,
                        t("이 폴더 아래 전부", "Every one under this folder"),
                        command,
                        Shell,
                        t(
                            "도구가 만든 찌꺼기라 지워도 필요하면 다시 생깁니다. 먼저 보려면 -delete(또는 -exec 부분)를 빼고 실행하세요.",
                            "Tools make these and make them again when needed; run it without -delete (or the -exec part) first to see them.",
                        ),
                    ),
                );
                named = true;
            }
            names_one = named;
            (t("삭제 대상", "Delete"), t("무엇을 지울까요?", "What should be deleted?"), choices)
        }
        Topic::Install => {
            let pkg = package_name(text);
            let cmd = |prefix: &str| format!("{prefix} {pkg}");
            let mut offered = (
                t("설치 방법", "Install"),
                t("어떤 패키지 관리자를 쓰나요?", "Which package manager do you use?"),
                vec![
                    choice(
                        "apt",
                        t("Debian/Ubuntu", "Debian/Ubuntu"),
                        &cmd("sudo apt-get install"),
                        Shell,
                        t("시스템 패키지로 설치합니다.", "Installs it as a system package."),
                    ),
                    choice(
                        "Homebrew",
                        "macOS",
                        &cmd("brew install"),
                        Shell,
                        t("Homebrew로 설치합니다.", "Installs it with Homebrew."),
                    ),
                    choice(
                        "npm",
                        t("Node.js 패키지", "Node.js package"),
                        &cmd("npm install"),
                        Shell,
                        t("현재 프로젝트에 설치합니다.", "Installs it into the current project."),
                    ),
                    choice(
                        "pip",
                        t("파이썬 패키지", "Python package"),
                        &cmd("python3 -m pip install"),
                        Shell,
                        t("파이썬 환경에 설치합니다.", "Installs it into the Python environment."),
                    ),
                ],
            );
            // The package manager the request names goes first: 파이썬: Python; 노드: Node; 자바스크립트:
            // JavaScript; 맥북/맥에/맥에서: MacBook, on a Mac; 우분투/데비안: Ubuntu/Debian.
            named_first(
                &mut offered.2,
                text,
                &[
                    (3, WordList("pip|python|파이썬")),
                    (2, WordList("npm|node|노드|javascript|자바스크립트")),
                    (1, WordList("brew|homebrew|macos|macbook|my mac|on mac|a mac|맥북|맥에|맥에서")),
                    (0, WordList("apt|ubuntu|debian|우분투|데비안")),
                ],
            );
            // "install python" names what to install, not the pip to install it with: the card
            // still asks.
            names_one = false;
            offered
        }
        Topic::Database => {
            let mut offered = (
                t("데이터베이스", "Database"),
                t(
                    "어떤 데이터베이스인가요? 먼저 테이블 목록을 봅니다.",
                    "Which database is it? We start by listing its tables.",
                ),
                vec![
                    choice(
                        "PostgreSQL",
                        "psql",
                        "psql -d mydb -c '\\dt'",
                        Shell,
                        t("테이블 목록을 봅니다(읽기만).", "Lists the tables (read only)."),
                    ),
                    choice(
                        "MySQL",
                        "mysql",
                        "SHOW TABLES;",
                        Sql,
                        t("테이블 목록을 봅니다(읽기만).", "Lists the tables (read only)."),
                    ),
                    choice(
                        "SQLite",
                        "sqlite3",
                        "sqlite3 app.db '.tables'",
                        Shell,
                        t("테이블 목록을 봅니다(읽기만).", "Lists the tables (read only)."),
                    ),
                ],
            );
            // 포스트그레스: Postgres; 마이에스큐엘: MySQL; 마리아: MariaDB
            names_one = named_first(
                &mut offered.2,
                text,
                &[
                    (0, WordList("postgres|psql|포스트그레")),
                    (1, WordList("mysql|mariadb|마이에스큐엘|마리아")),
                    (2, WordList("sqlite")),
                ],
            );
            offered
        }
        Topic::Setup => {
            // A virtual environment for the project at hand is made here, not in a new folder
            // (가상 환경/가상환경: virtual environment).
            let lower = text.lower();
            let venv_here =
                WordList("virtual environment|virtualenv|venv|가상 환경|가상환경").any(|w| lower.contains(w));
            let python =
                if venv_here { "python3 -m venv .venv" } else { "mkdir my-app && cd my-app && python3 -m venv .venv" };
            let python_why = if venv_here {
                t("이 폴더에 .venv 가상 환경을 만듭니다.", "Creates a .venv virtual environment in this folder.")
            } else {
                t(
                    "가상 환경이 있는 파이썬 프로젝트를 만듭니다.",
                    "Creates a Python project with a virtual environment.",
                )
            };
            let mut choices = vec![
                choice(
                    "Rust",
                    "cargo",
                    "cargo new my-app",
                    Shell,
                    t("새 Rust 프로젝트를 만듭니다.", "Creates a new Rust project."),
                ),
                // A front-end framework named (리액트: React; 뷰: Vue; 스벨트: Svelte): Vite's template for it.
                match [("react", "리액트"), ("vue", "뷰"), ("svelte", "스벨트")]
                    .into_iter()
                    .find(|(en, ko)| contains_word(&lower, en) || lower.contains(ko))
                {
                    Some((framework, _)) => choice(
                        "Node.js",
                        "npm · Vite",
                        &format!("npm create vite@latest my-app -- --template {framework}"),
                        Shell,
                        t(
                            "Vite로 새 프로젝트를 만듭니다. 그다음 `cd my-app && npm install && npm run dev`.",
                            "Creates the project with Vite; then `cd my-app && npm install && npm run dev`.",
                        ),
                    ),
                    None => choice(
                        "Node.js",
                        "npm",
                        "mkdir my-app && cd my-app && npm init -y",
                        Shell,
                        t("새 Node.js 프로젝트를 만듭니다.", "Creates a new Node.js project."),
                    ),
                },
                choice("Python", "venv", python, Shell, python_why),
            ];
            // 파이썬: Python; 가상: virtual; 자바스크립트/타입스크립트: JavaScript/TypeScript; 러스트: Rust
            names_one = named_first(
                &mut choices,
                text,
                &[
                    (2, WordList("python|파이썬|venv|virtual environment|virtualenv|가상")),
                    (1, WordList("node|npm|javascript|typescript|react|vue|svelte|vite|자바스크립트|타입스크립트|리액트|스벨트")),
                    (0, WordList("rust|cargo|러스트")),
                ],
            );
            (t("프로젝트", "Project"), t("어떤 종류의 프로젝트인가요?", "What kind of project is it?"), choices)
        }
        Topic::Disk => {
            let mut choices = vec![
                choice(
                    t("전체 디스크", "Whole disk"),
                    t("마운트별 여유 공간", "Free space per mount"),
                    "df -h",
                    Shell,
                    t("디스크별 여유 공간을 봅니다.", "Shows free space per disk."),
                ),
                choice(
                    t("이 폴더", "This folder"),
                    t("하위 폴더별 크기", "Size of each subfolder"),
                    "du -sh ./* | sort -h",
                    Shell,
                    t("어느 폴더가 큰지 봅니다.", "Shows which folders are large."),
                ),
                choice(
                    t("홈 폴더", "Home folder"),
                    t("홈 아래 폴더별 크기", "Size of each folder in home"),
                    "du -sh ~/* | sort -h",
                    Shell,
                    t("홈 폴더에서 큰 것을 찾습니다.", "Finds what is large in your home folder."),
                ),
            ];
            // The home folder, or folders, named: that first (홈: home; 폴더: folder).
            // Free space asked, with no place: the whole disk (남은/여유/남았: left, free).
            let asked = [
                (2, WordList("home|홈|~/")),
                (1, WordList("folder|directory|폴더|디렉터리|디렉토리")),
                (0, WordList("free|space left|is left|available|left on|remaining|남은|여유|남았|빈 공간")),
            ];
            names_one = named_first(&mut choices, text, &asked);
            (t("디스크", "Disk"), t("어디의 사용량을 볼까요?", "Where should I look at usage?"), choices)
        }
        Topic::Files => {
            let root = search_root(text);
            let size = request_size(text).unwrap_or_else(|| "+100M".into());
            // "+100M" reads "100 MB".
            let (amount, unit) = size[1..].split_at(size.len() - 2);
            let unit = match unit {
                "k" => "KB",
                "G" => "GB",
                _ => "MB",
            };
            let place = if root == "." { t("이 폴더", "this folder").to_string() } else { root.clone() };
            let large_said = if ko {
                format!("{place}에서 {amount} {unit}보다 큰 파일")
            } else {
                format!("Files over {amount} {unit} in {place}")
            };
            // "the 10 biggest files", "가장 큰 파일 10개": the largest ones, however large.
            let largest = match request_top(text).filter(|_| request_size(text).is_none()) {
                Some(n) => choice(
                    t("가장 큰 파일", "Largest files"),
                    &if ko {
                        format!("{place}에서 가장 큰 파일 {n}개")
                    } else {
                        format!("The {n} largest files in {place}")
                    },
                    &format!("find {root} -type f -exec du -h {{}} + | sort -rh | head -n {n}"),
                    Shell,
                    t("크기 순으로 봅니다(읽기만).", "Lists them by size (read only)."),
                ),
                None => choice(
                    t("큰 파일", "Large files"),
                    &large_said,
                    &format!("find {root} -type f -size {size} -exec ls -lh {{}} +"),
                    Shell,
                    t("공간을 차지하는 파일을 찾습니다(읽기만).", "Finds the files that take the space (read only)."),
                ),
            };
            let mut choices = vec![
                choice(
                    t("이 폴더 목록", "List this folder"),
                    t("숨김 파일까지, 크기와 날짜와 함께", "Hidden files too, with sizes and dates"),
                    &if root == "." { "ls -la".to_string() } else { format!("ls -la {root}") },
                    Shell,
                    t("폴더에 무엇이 있는지 봅니다(읽기만).", "Shows what is in the folder (read only)."),
                ),
                largest,
                choice(
                    t("이름으로", "By name"),
                    t("이름에 단어가 들어간 파일", "Files whose name has a word in it"),
                    &format!("find {root} -iname '*<name>*'"),
                    Shell,
                    t("<name>을 찾을 단어로 바꾸세요.", "Replace <name> with the word to look for."),
                ),
                match code_word(text) {
                    // "find where I defined parse_config": the name is what to look for.
                    Some(word) => choice(
                        t("내용으로", "By content"),
                        t("안에 그 이름이 들어간 파일과 그 줄", "Files, and the lines, that contain that name"),
                        &format!("grep -rn '{word}' {root}"),
                        Shell,
                        t(
                            "그 이름이 나오는 곳을 모두 찾습니다(읽기만).",
                            "Finds every place the name appears (read only).",
                        ),
                    ),
                    None => choice(
                        t("내용으로", "By content"),
                        t("안에 글자가 들어간 파일과 그 줄", "Files, and the lines, that contain a text"),
                        &format!("grep -rn '<text>' {root}"),
                        Shell,
                        t("<text>를 찾을 글자로 바꾸세요.", "Replace <text> with the text to look for."),
                    ),
                },
            ];
            // "files modified in the last 7 days", "지난 7일 동안 수정된 파일": by when they changed.
            if let Some(days) = changed_within(text) {
                let said = match (days, ko) {
                    (1, true) => format!("{place}에서 하루 안에 바뀐 파일"),
                    (_, true) => format!("{place}에서 {days}일 안에 바뀐 파일"),
                    (1, false) => format!("Files changed in the last day in {place}"),
                    (_, false) => format!("Files changed in the last {days} days in {place}"),
                };
                let recent = choice(
                    t("최근에 바뀐 파일", "Recently changed files"),
                    &said,
                    &format!("find {root} -type f -mtime -{days}"),
                    Shell,
                    t("수정 시각으로 찾습니다(읽기만).", "Finds them by the time they were changed (read only)."),
                );
                choices.insert(0, recent);
                return Offer {
                    header: t("파일 찾기", "Find files").to_string(),
                    question: t("무엇을 찾을까요?", "What are you looking for?").to_string(),
                    choices,
                    named: true,
                };
            }
            // 큰: large; 용량: size; 넘는/넘은/이상인: over (a size); 내용: content; 문자열: string; 들어간 파일: files containing; 정의: definition;
            // 함수: function; 이름: name
            names_one = named_first(
                &mut choices,
                text,
                &[
                    (1, WordList("large|big|huge|bigger|larger|큰|용량|넘는|넘은|이상인")),
                    (
                        3,
                        WordList(
                            "contain|inside|grep|text in|defined|definition|function|내용|문자열|들어간 파일|정의|함수",
                        ),
                    ),
                    (2, WordList("named|name|이름")),
                ],
            );
            (t("파일 찾기", "Find files"), t("무엇을 찾을까요?", "What are you looking for?"), choices)
        }
        Topic::Git => {
            let mut choices = vec![
                choice(
                    t("바뀐 것 보기", "What changed"),
                    t("커밋하지 않은 변경 사항", "Changes not committed yet"),
                    "git status && git diff --stat",
                    Shell,
                    t("무엇이 바뀌었는지 봅니다(읽기만).", "Shows what changed (read only)."),
                ),
                choice(
                    t("마지막 커밋 취소", "Undo the last commit"),
                    t("커밋만 취소하고 변경 사항은 남깁니다", "The commit goes; its changes stay, staged"),
                    "git reset --soft HEAD~1",
                    Shell,
                    t(
                        "마지막 커밋을 되돌리되 파일은 그대로 둡니다. 이미 push한 커밋이면 다른 사람과 어긋납니다.",
                        "Takes the last commit back and keeps the files as they are; if it was pushed, others will diverge.",
                    ),
                ),
                choice(
                    t("변경 사항 치워 두기", "Put changes aside"),
                    t("git stash: 나중에 git stash pop으로 되돌립니다", "git stash: bring them back later with git stash pop"),
                    "git stash push --include-untracked",
                    Shell,
                    t("작업을 잃지 않고 깨끗한 상태로 돌아갑니다.", "Gets a clean tree without losing the work."),
                ),
                match new_branch_name(text) {
                    // "create a new branch called hotfix": its name in the command.
                    Some(name) => choice(
                        t("새 브랜치", "New branch"),
                        &if ko { format!("지금 위치에서 {name} 브랜치를 만들어 전환") } else { format!("Make {name} here and switch to it") },
                        &format!("git switch -c {name}"),
                        Shell,
                        t("지금 커밋에서 새 브랜치를 만들고 그리로 옮깁니다.", "Makes the branch at the current commit and moves onto it."),
                    ),
                    None => choice(
                        t("새 브랜치", "New branch"),
                        t("지금 위치에서 새 브랜치로 전환", "Switch to a new branch from here"),
                        "git switch -c <branch>",
                        Shell,
                        t("<branch>를 브랜치 이름으로 바꾸세요.", "Replace <branch> with the branch's name."),
                    ),
                },
                choice(
                    t("브랜치 지우기", "Delete a branch"),
                    t("합쳐진 브랜치만 지웁니다", "Only a branch that was merged"),
                    "git branch -d <branch>",
                    Shell,
                    t(
                        "합치지 않은 커밋이 있으면 git이 거절하므로 작업을 잃지 않습니다. <branch>를 이름으로 바꾸세요.",
                        "Git refuses if it holds commits not merged, so no work is lost. Replace <branch> with its name.",
                    ),
                ),
                choice(
                    t("지금 브랜치", "Current branch"),
                    t("지금 있는 브랜치의 이름", "The name of the branch you are on"),
                    "git branch --show-current",
                    Shell,
                    t("지금 작업 중인 브랜치를 봅니다(읽기만).", "Shows the branch you are working on (read only)."),
                ),
                match branch_rename(text) {
                    // "rename the branch feature-x to feature-login": the names said.
                    Some((old, new)) => choice(
                        t("브랜치 이름 바꾸기", "Rename the branch"),
                        &match (&old, ko) {
                            (Some(old), true) => format!("{old}의 이름을 {} 바꿉니다", with_instrumental(&new)),
                            (Some(old), false) => format!("Renames {old} to {new}"),
                            (None, true) => format!("지금 브랜치의 이름을 {} 바꿉니다", with_instrumental(&new)),
                            (None, false) => format!("Renames the branch you are on to {new}"),
                        },
                        &match &old {
                            Some(old) => format!("git branch -m {old} {new}"),
                            None => format!("git branch -m {new}"),
                        },
                        Shell,
                        t(
                            "이미 push한 브랜치라면 원격에는 옛 이름이 남습니다.",
                            "If the branch was pushed, the remote keeps the old name.",
                        ),
                    ),
                    None => choice(
                        t("브랜치 이름 바꾸기", "Rename the branch"),
                        t("지금 브랜치의 이름을 바꿉니다", "Renames the branch you are on"),
                        "git branch -m <new-name>",
                        Shell,
                        t(
                            "<new-name>을 새 이름으로 바꾸세요. 이미 push한 브랜치라면 원격에는 옛 이름이 남습니다.",
                            "Replace <new-name> with the new name. If the branch was pushed, the remote keeps the old name.",
                        ),
                    ),
                },
            ];
            // Deleting a branch is asked with words apart ("delete the feature branch"). 삭제: deletion;
            // 지우/지워: erase; 브랜치: branch; 취소: cancel; 되돌: revert; 버리: discard; 치워: put away;
            // 임시: for now.
            let lower = text.lower();
            let deleting = WordList("delete|remove|삭제|지우|지워").any(|w| lower.contains(w));
            let delete_branch = (4, WordList("branch|브랜치"));
            // which branch/current branch/on: which one I'm on; 지금 브랜치/현재 브랜치/무슨 브랜치/어느 브랜치:
            // the branch now; rename/이름 바꾸/이름 변경: rename.
            let asked = [
                (6, WordList("rename|이름 바꾸|이름을 바꾸|이름 변경|이름을 변경")),
                (5, WordList("which branch|current branch|branch i'm on|branch i am on|what branch|지금 브랜치|현재 브랜치|무슨 브랜치|어느 브랜치|어떤 브랜치")),
                (1, WordList("undo|revert|take back|uncommit|취소|되돌")),
                (2, WordList("stash|aside|discard|throw away|clean|버리|치워|임시")),
            ];
            let named: Vec<(usize, WordList)> = deleting.then_some(delete_branch).into_iter().chain(asked).collect();
            // "feature-x 브랜치 이름을 feature-login으로 바꿔줘": the new name stands inside the words.
            names_one = if branch_rename(text).is_some() {
                let rename = choices.remove(6);
                choices.insert(0, rename);
                true
            } else if new_branch_name(text).is_some() {
                let new = choices.remove(3);
                choices.insert(0, new);
                true
            } else {
                named_first(&mut choices, text, &named)
            };
            // A bare "branch" puts the new branch first, and names nothing to do.
            if !names_one {
                named_first(&mut choices, text, &[(3, WordList("branch|브랜치"))]);
            }
            (t("Git", "Git"), t("무엇을 할까요?", "What would you like to do?"), choices)
        }
        Topic::Containers => {
            let mut choices = vec![
                choice(
                    t("컨테이너 목록", "List containers"),
                    t("멈춘 것까지 모두, 상태와 함께", "All of them, stopped ones too, with their status"),
                    "docker ps -a",
                    Shell,
                    t(
                        "어떤 컨테이너가 돌고, 멈췄고, 재시작 중인지 봅니다.",
                        "Shows which containers run, which stopped and which keep restarting.",
                    ),
                ),
                // "실시간으로 계속 보고 싶으면?", "how do I follow the logs": new lines as they come.
                // 실시간: live; 계속 보: keep watching.
                if WordList("follow|live|real-time|realtime|stream|streaming").any(|w| contains_word(&text.lower(), w))
                    || WordList("real time|실시간|계속 보").any(|w| text.lower().contains(w))
                {
                    choice(
                        t("로그 실시간으로 보기", "Follow the logs"),
                        t("마지막 100줄, 이어서 새로 쓰이는 줄", "The last 100 lines, then new ones as they come"),
                        "docker logs -f --tail 100 <container>",
                        Shell,
                        t(
                            "Ctrl+C로 멈춥니다. 컨테이너는 계속 돕니다. <container>를 목록의 이름으로 바꾸세요.",
                            "Ctrl+C stops the watching, not the container. Replace <container> with a name from the list.",
                        ),
                    )
                } else {
                    choice(
                        t("최근 로그", "Recent logs"),
                        t("컨테이너가 마지막에 남긴 100줄", "The last 100 lines a container wrote"),
                        "docker logs --tail 100 <container>",
                        Shell,
                        t(
                            "오류는 대개 로그 끝에 있습니다. <container>를 목록의 이름으로 바꾸세요.",
                            "Errors are usually at the end of the log. Replace <container> with a name from the list.",
                        ),
                    )
                },
                choice(
                    t("재시작 이유", "Why it restarts"),
                    t("재시작 횟수, 종료 코드, 메모리 부족 여부", "Restart count, exit code, whether memory ran out"),
                    "docker inspect --format '{{.RestartCount}} restarts, exit code {{.State.ExitCode}}, out of memory: {{.State.OOMKilled}}' <container>",
                    Shell,
                    t(
                        "종료 코드 137이나 out of memory: true면 메모리가 모자란 것입니다. <container>를 이름으로 바꾸세요.",
                        "Exit code 137 or out of memory: true means it ran out of memory. Replace <container> with its name.",
                    ),
                ),
                choice(
                    t("자원 사용량", "Resource use"),
                    t("실행 중인 컨테이너의 CPU와 메모리", "CPU and memory of the running containers"),
                    "docker stats --no-stream",
                    Shell,
                    t("한 번만 재서 보여 줍니다.", "Measures once and shows the figures."),
                ),
            ];
            // 로그: logs; 재시작: restart; 죽: dies; 꺼져/꺼지: shuts down; 메모리: memory.
            let asked = [
                (1, WordList("log|logs|로그")),
                (
                    2,
                    WordList("restart|restarting|restarts|crash|crashes|crashing|keeps dying|exit|재시작|죽|꺼져|꺼지"),
                ),
                (3, WordList("memory|cpu|resource|resources|메모리|자원")),
                // 목록: list; 실행 중/떠 있: running (after the rest: "실행 중인 컨테이너 로그" asks for logs).
                (0, WordList("list|목록|running|실행 중|떠 있")),
            ];
            names_one = named_first(&mut choices, text, &asked);
            (t("컨테이너", "Containers"), t("무엇을 볼까요?", "What should we look at?"), choices)
        }
        Topic::Processes => {
            let port = request_port(text).map_or("<port>".to_string(), |p| p.to_string());
            let mut choices = vec![
                choice(
                    t("포트를 쓰는 프로세스", "Who uses a port"),
                    t("그 포트를 잡고 있는 프로그램과 PID", "The program holding the port, with its PID"),
                    &format!("lsof -i :{port}"),
                    Shell,
                    &t(
                        "포트 {port}을 누가 열고 있는지 봅니다. lsof가 없으면 ss -ltnp를 쓰세요.",
                        "Shows what holds port {port}. Without lsof, use ss -ltnp.",
                    )
                    .replace("{port}", &port),
                ),
                choice(
                    t("CPU를 많이 쓰는 프로세스", "Busiest processes"),
                    t("CPU 사용률 상위 10개", "The top 10 by CPU use"),
                    "ps aux | sort -nrk 3 | head -n 10",
                    Shell,
                    t("세 번째 열이 CPU 사용률(%)입니다.", "The third column is the CPU use in percent."),
                ),
                choice(
                    t("메모리 사용량", "Memory use"),
                    t("남은 메모리, 그리고 메모리를 많이 쓰는 상위 10개", "Free memory, then the top 10 by memory use"),
                    "free -h && ps aux | sort -nrk 4 | head -n 10",
                    Shell,
                    t(
                        "free의 available 열이 더 쓸 수 있는 메모리입니다. 그 아래 목록의 네 번째 열이 메모리 사용률(%)입니다.",
                        "free's available column is the memory still to be had; in the list below it, the fourth column is the memory use in percent.",
                    ),
                ),
                choice(
                    t("이름으로 찾기", "Find by name"),
                    t("이름이 들어간 프로세스와 PID", "Processes whose command holds the name, with PIDs"),
                    "pgrep -fl <name>",
                    Shell,
                    t("<name>을 프로그램 이름으로 바꾸세요.", "Replace <name> with the program's name."),
                ),
            ];
            // 메모리: memory; 느려/느리: slow.
            let asked = [
                (0, WordList("port|포트")),
                (2, WordList("memory|ram|메모리")),
                (1, WordList("cpu|slow|busy|hogging|느려|느리")),
            ];
            names_one = named_first(&mut choices, text, &asked);
            (t("프로세스", "Processes"), t("무엇을 볼까요?", "What should we look at?"), choices)
        }
        Topic::Logs => {
            let usual = request_file(text).is_none().then(|| usual_log(text)).flatten();
            let file = request_file(text).or(usual.map(str::to_string)).unwrap_or_else(|| "<file>".into());
            let lines = amount(text, |u| (u.starts_with("line") || u.starts_with('줄')).then_some(()))
                .map(|(n, ())| n)
                .filter(|n| (1..=10_000).contains(n))
                .unwrap_or(100);
            let mut choices = vec![
                choice(
                    t("마지막 줄", "Last lines"),
                    t("파일 끝의 몇 줄", "The end of the file"),
                    &format!("tail -n {lines} {file}"),
                    Shell,
                    t("가장 최근에 쓰인 줄을 봅니다.", "Shows the lines written most recently."),
                ),
                choice(
                    t("에러만", "Errors only"),
                    t("error가 들어간 줄, 줄 번호와 함께", "Lines with \"error\", with their line numbers"),
                    &format!("grep -in error {file} | tail -n 50"),
                    Shell,
                    t(
                        "대소문자를 가리지 않고 찾아 마지막 50개를 보여 줍니다.",
                        "Matches any case and shows the last 50.",
                    ),
                ),
                choice(
                    t("실시간으로 보기", "Follow it"),
                    t("새로 쓰이는 줄을 계속", "New lines as they are written"),
                    &format!("tail -f {file}"),
                    Shell,
                    t("Ctrl+C로 멈춥니다.", "Stop it with Ctrl+C."),
                ),
                choice(
                    t("시스템 로그", "System log"),
                    t("systemd가 기록한 최근 에러", "Recent errors systemd recorded"),
                    "journalctl -p err -n 50 --no-pager",
                    Shell,
                    t("systemd를 쓰는 리눅스에서 동작합니다.", "Works on Linux with systemd."),
                ),
            ];
            // 마지막/끝: last, the end; 에러/오류: error; 실시간: live; 시스템: system. The last lines
            // asked of a file named go first, even when its path says syslog.
            let asked = [
                (0, WordList("last |tail|the end of|마지막|끝부분|끝에")),
                (1, WordList("error|errors|fail|exception|에러|오류")),
                (2, WordList("follow|live|watch|실시간")),
                (3, WordList("system log|journal|syslog|시스템")),
            ];
            names_one = named_first(&mut choices, text, &asked);
            let file_named = file != "<file>";
            let question = match (file_named, lang) {
                _ if usual.is_some() => t(
                    "어떻게 볼까요? 경로는 Debian·Ubuntu의 기본값이에요. 설정이 다르면 바꿔 주세요.",
                    "How should we look at it? The path is the Debian and Ubuntu default; change it if yours differs.",
                )
                .to_string(),
                (true, _) => t("어떻게 볼까요?", "How should we look at it?").to_string(),
                (false, Lang::Ko) => "어떻게 볼까요? <file>을 로그 파일 경로로 바꾸세요.".to_string(),
                (false, Lang::En) => "How should we look at it? Replace <file> with the log's path.".to_string(),
            };
            return Offer { header: t("로그", "Log").to_string(), question, choices, named: names_one };
        }
    };
    Offer { header: header.to_string(), question: question.to_string(), choices, named: names_one }
}

/// What the no-key assistant says back once the user reports a command's outcome.
pub fn after_command(command: &str, outcome: &super::tools::CommandOutcome, lang: Lang) -> String {
    use super::tools::CommandOutcome::*;
    match outcome {
        Output(text) => read_output(command, text, lang).unwrap_or_else(|| {
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
            let last = crate::engine::lang::clip(last, 120);
            match lang {
                Lang::Ko => format!("결과를 받았습니다: {lines}줄, 마지막 줄은 `{last}` 입니다. 키 없이 동작하는 도우미라 내용을 해석하지는 못합니다. 다른 일이 필요하면 말씀해 주세요."),
                Lang::En => format!("Got the output: {lines} line(s), the last one `{last}`. As the no-key assistant I cannot interpret it; tell me what else you need."),
            }
        }),
        Failed(_) => lang
            .pick(
                "실패했군요. 흔한 원인: 권한 부족(sudo가 필요한지), 명령이 설치되지 않음, 경로가 다름. 경로나 이름을 바꿔 다시 해 보세요.",
                "It failed. Common causes: missing permissions (is sudo needed?), the program is not installed, or the path differs. Adjust the path or name and try again.",
            )
            .to_string(),
        Declined => lang.pick("알겠습니다. 아무것도 실행하지 않았습니다.", "Understood; nothing was run.").to_string(),
    }
}

/// The answer to "kill it" right after an answer that named the process's PID ("Port 3000 is
/// held by `node` (PID 4242)"): `kill` with that PID. `None` unless the message asks to end
/// something it points back at, and names no port or program of its own.
// 종료/죽여/죽이/끝내/꺼: end, kill, turn off; 그거/그것/그 프로세스: it, that process.
pub fn kill_named_pid(text: &str, before: &str, lang: Lang) -> Option<String> {
    // Asked of every message: a short one only, after an answer that named a PID.
    // "Port 3000 is held by …" / "3000번 포트는 …" (read_output's answers).
    if text.len() > 60 || !(before.starts_with("Port ") || before.starts_with(|c: char| c.is_ascii_digit())) {
        return None;
    }
    let at = before.find("(PID ")? + "(PID ".len();
    let lower = text.lower();
    let ends = WordList("kill|terminate|stop|end|종료|죽여|죽이|끝내|꺼").any(|w| contains_word(&lower, w));
    let points = WordList("it|that|this|the process|that process|그거|그것|그걸|그 프로세스|이거")
        .any(|w| contains_word(&format!(" {lower} "), w))
        || lower.split_whitespace().count() <= 2;
    if !ends || !points || request_port(text).is_some() || TOOLS.iter().any(|(name, _, _)| contains_word(&lower, name))
    {
        return None;
    }
    let pid: String = before[at..].chars().take_while(char::is_ascii_digit).collect();
    let pid = pid.parse::<u32>().ok()?;
    Some(match lang {
        Lang::Ko => format!(
            "`kill {pid}`가 그 프로세스에 끝내 달라고 요청합니다. 몇 초 뒤에도 `ps -p {pid}`에 보이면 `kill -9 {pid}`로 강제로 끝내세요. 이때 프로그램은 저장하거나 정리할 틈이 없습니다."
        ),
        Lang::En => format!(
            "`kill {pid}` asks that process to end. If `ps -p {pid}` still shows it a few seconds later, `kill -9 {pid}` forces it, with no chance to save or clean up."
        ),
    })
}

/// What the output of a command the no-key assistant proposed says, for the commands whose
/// output has a known shape: who holds a port (`lsof -i :N`), how full the disks are (`df -h`).
/// `None` for any other command, or output of another shape.
fn read_output(command: &str, output: &str, lang: Lang) -> Option<String> {
    let rows: Vec<Vec<&str>> =
        output.lines().map(|l| l.split_whitespace().collect()).filter(|r: &Vec<&str>| !r.is_empty()).collect();
    if let Some(port) = command.strip_prefix("lsof -i :").and_then(|p| p.trim().parse::<u16>().ok()) {
        // COMMAND PID USER …: the first row whose second column is a number.
        let (name, pid) = rows.iter().find_map(|r| Some((*r.first()?, r.get(1)?.parse::<u32>().ok()?)))?;
        return Some(match lang {
            Lang::Ko => format!(
                "{port}번 포트는 `{name}`(PID {pid})가 잡고 있습니다. 끝내려면 `kill {pid}`, 몇 초 뒤에도 남아 있으면 `kill -9 {pid}`로 강제로 끝냅니다."
            ),
            Lang::En => format!(
                "Port {port} is held by `{name}` (PID {pid}). `kill {pid}` asks it to end; if it is still there a few seconds later, `kill -9 {pid}` forces it."
            ),
        });
    }
    if command == "df -h" {
        // Filesystem Size Used Avail Use% Mounted-on: the fullest real disk.
        let (mount, used, avail) = rows
            .iter()
            .filter(|r| {
                r.len() >= 6
                    && !r[0].starts_with("tmpfs")
                    && !r[0].starts_with("devtmpfs")
                    && !r[0].starts_with("overlay")
            })
            .filter_map(|r| Some((r[5], r[4].trim_end_matches('%').parse::<u32>().ok()?, r[3])))
            .max_by_key(|(_, used, _)| *used)?;
        let full = used >= 90;
        return Some(match (lang, full) {
            (Lang::Ko, true) => format!(
                "{mount}에 마운트된 디스크가 {used}% 찼습니다(남은 공간 {avail}). 무엇이 차지하는지는 `sudo du -xh {mount} 2>/dev/null | sort -h | tail -n 20`으로 보세요."
            ),
            (Lang::Ko, false) => format!("가장 많이 찬 디스크는 {mount}로 {used}%입니다(남은 공간 {avail}). 아직 여유가 있습니다."),
            (Lang::En, true) => format!(
                "The disk mounted on {mount} is {used}% full ({avail} left). `sudo du -xh {mount} 2>/dev/null | sort -h | tail -n 20` shows what takes the space."
            ),
            (Lang::En, false) => format!("The fullest disk is {mount}, at {used}% ({avail} left): there is room still."),
        });
    }
    None
}

/// Words that ask about the attached files ("what do my files say?", "첨부한 파일 읽어 줘").
// 첨부: attached; 파일 내용: the file's contents; 파일에: in the file; 파일을 읽: read the file; 읽어: read (it); 내용:
// contents; 요약: summary
const FILE_QUESTION_WORDS: WordList = WordList(
    "attach|the file|my file|this file|these files|read it|read the|read my|what does|what do|\
    summar|첨부|파일 내용|파일에|파일을 읽|읽어|내용|요약",
);

/// The attachments a request asks about: those it names, else all of them when it asks about
/// files at all; empty when it does not.
pub fn asked_attachments<'a>(
    request: &str,
    attachments: &'a [super::tools::Attachment],
) -> Vec<&'a super::tools::Attachment> {
    let lower = request.lower();
    let named: Vec<_> = attachments.iter().filter(|a| lower.contains(&a.name.lower())).collect();
    if !named.is_empty() {
        return named;
    }
    if FILE_QUESTION_WORDS.iter().any(|w| lower.contains(w)) {
        attachments.iter().collect()
    } else {
        Vec::new()
    }
}

/// Lines of an excerpt shown from the start of a file.
const EXCERPT_LINES: usize = 6;
/// Lines shown that mention a word of the question.
const MATCHING_LINES: usize = 3;

/// What the no-key assistant says after reading an attachment for a question: its size, how
/// much of it was read (a file longer than `limit` characters is read as its head and tail,
/// and the cut is said), its first lines, and the lines that mention the question's words.
pub fn read_back(attachment: &super::tools::Attachment, request: &str, limit: usize, lang: Lang) -> String {
    let chars = attachment.text.chars().count();
    let lines = attachment.text.lines().count();
    let read = super::tools::cut_output(&attachment.text, limit, lang);
    let name = &attachment.name;
    let mut out = match lang {
        Lang::Ko => format!("**{name}** 파일을 읽었습니다({chars}자, {lines}줄)."),
        Lang::En => format!("I read **{name}** ({chars} characters, {lines} lines)."),
    };
    if chars > limit {
        out.push(' ');
        out.push_str(&match lang {
            Lang::Ko => format!(
                "길어서 앞부분과 끝부분 합쳐 {limit}자만 읽었고, 가운데 {}자는 잘렸습니다.",
                chars.saturating_sub(limit)
            ),
            Lang::En => format!(
                "It is long, so only its beginning and end ({limit} characters in all) were read; {} characters in the middle were cut.",
                chars.saturating_sub(limit)
            ),
        });
    }
    let excerpt: Vec<&str> = read.lines().filter(|l| !l.trim().is_empty()).take(EXCERPT_LINES).collect();
    if !excerpt.is_empty() {
        out.push_str(lang.pick("\n\n처음 부분:\n", "\n\nIt begins:\n"));
        for line in excerpt {
            out.push_str(&format!("> {}\n", crate::engine::lang::clip(line.trim(), 160)));
        }
    }
    let words: Vec<String> = request
        .lower()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !FILE_QUESTION_WORDS.iter().any(|f| w.contains(f)))
        .map(str::to_string)
        .collect();
    let matching: Vec<&str> = read
        .lines()
        .filter(|l| {
            let lower = l.lower();
            words.iter().any(|w| lower.contains(w.as_str()))
        })
        .take(MATCHING_LINES)
        .collect();
    if !matching.is_empty() {
        out.push_str(lang.pick("\n질문과 관련된 줄:\n", "\nLines that mention your question:\n"));
        for line in matching {
            out.push_str(&format!("> {}\n", crate::engine::lang::clip(line.trim(), 160)));
        }
    }
    out.push_str(lang.pick(
        "\n키 없이는 내용을 이해해 답할 수 없어, 읽은 내용을 그대로 보여 드렸습니다. 설정에서 API 키를 넣으면 모델이 파일을 읽고 답합니다.",
        "\nWithout a key I cannot reason about the contents, so this is what the file says. Add an API key in Settings and a model reads it and answers.",
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn recognises_topics_in_both_languages() {
        let cases: &[(&str, Option<Topic>)] = &[
            ("please delete the old build files", Some(Topic::Delete)),
            ("rm -rf ./build please", Some(Topic::Delete)),
            ("how do I write a regex that detects self-harm keywords in comments?", None),
            ("빌드 폴더 좀 지워 줘", Some(Topic::Delete)),
            ("install docker", Some(Topic::Install)),
            ("도커 설치해 줘", Some(Topic::Install)),
            ("show me the tables in my postgres database", Some(Topic::Database)),
            ("DB에서 사용자 목록 보고 싶어", Some(Topic::Database)),
            ("set up a project for my new app", Some(Topic::Setup)),
            ("새 프로젝트 세팅하고 싶어", Some(Topic::Setup)),
            ("how much disk space is left?", Some(Topic::Disk)),
            ("디스크 용량 확인", Some(Topic::Disk)),
            ("list the files in my project folder", Some(Topic::Files)),
            ("find files bigger than 100MB in my home directory", Some(Topic::Files)),
            ("내 프로젝트 폴더의 파일 목록 보여줘", Some(Topic::Files)),
            ("용량 큰 파일 찾아줘", Some(Topic::Files)),
            ("how do I undo my last git commit?", Some(Topic::Git)),
            ("delete the feature branch", Some(Topic::Git)),
            ("커밋 취소하고 싶어", Some(Topic::Git)),
            ("create a python virtual environment for this project", Some(Topic::Setup)),
            ("가상환경 만들어줘", Some(Topic::Setup)),
            ("my docker containers keep restarting, how do I see why?", Some(Topic::Containers)),
            ("컨테이너 로그 보고 싶어", Some(Topic::Containers)),
            ("docker 설치해 줘", Some(Topic::Install)),
            ("what's taking up space on my disk?", Some(Topic::Disk)),
            ("how do I check which process uses port 8080?", Some(Topic::Processes)),
            ("포트 3000번을 누가 쓰고 있는지 알고 싶어", Some(Topic::Processes)),
            ("my laptop is slow", Some(Topic::Processes)),
            ("show me the last 50 lines of app.log", Some(Topic::Logs)),
            ("서버 로그에서 에러만 보고 싶어", Some(Topic::Logs)),
            ("delete the old logs", Some(Topic::Delete)),
            ("docker logs of the web container", Some(Topic::Containers)),
            ("how do I process these images in python?", None),
            ("how do I log in to the server?", None),
            ("I can't log into the dashboard", None),
            ("how do I log in", None),
            ("show the errors in the log in /var/app", Some(Topic::Logs)),
            ("뭐가 공간을 차지하는지 알고 싶어", Some(Topic::Disk)),
            ("I pushed to github yesterday", None),
            ("what a nice day", None),
            ("오늘 점심 뭐 먹지", None),
            ("my feedback is good", None),
            ("dbx is a tool", None),
            // Words with an everyday sense name a topic only beside a word of its world: no
            // offer to delete files for notes to tidy up.
            ("이번 주 회의록을 정리해서 팀에 공유할 요약을 만들고 싶어", None),
            ("생각 정리 좀 도와줘", None),
            ("프로젝트 회의 일정 정리해 줘", None),
            ("clean up this paragraph for me", None),
            ("remove the duplicates from my shopping list", None),
            ("remove the background from this image", None),
            ("make a table of my monthly expenses", None),
            ("토요일 저녁 테이블 예약하고 싶어", None),
            ("로그 파일 정리해 줘", Some(Topic::Delete)),
            ("clean up the cache folder", Some(Topic::Delete)),
            ("remove old logs in ./tmp/logs", Some(Topic::Delete)),
            ("도커 찌꺼기 정리", Some(Topic::Delete)),
            ("임시 폴더 좀 비워 줘", Some(Topic::Delete)),
            ("임시 공휴일 일정 정리해 줘", None),
            ("쓰레기 분리수거 방법 정리해 줘", None),
            ("여행 가서 테이블 예약하려고", None),
            ("새 프로젝트 구조 만들어 줘", Some(Topic::Setup)),
            ("users 테이블의 컬럼을 보고 싶어", Some(Topic::Database)),
            ("show the rows of the orders table", Some(Topic::Database)),
            ("my memory is getting worse lately", None),
            ("port wine pairing", None),
            ("a slow cooker recipe", None),
            ("I want to log my daily workouts", None),
            ("이 약 용량이 얼마나 돼?", None),
            ("storage unit rental prices", None),
            ("my computer is using too much memory", Some(Topic::Processes)),
            ("how much memory is free?", Some(Topic::Processes)),
            ("메모리 얼마나 남았는지 보고 싶어", Some(Topic::Processes)),
            ("폴더 용량 큰 순서로 보기", Some(Topic::Disk)),
            ("show me the folder sizes in my home", Some(Topic::Disk)),
            ("Error: listen EADDRINUSE: address already in use :::3000", Some(Topic::Processes)),
            ("포트 3000 이미 사용 중이래요", Some(Topic::Processes)),
            ("노트북이 너무 느려", Some(Topic::Processes)),
            ("what is listening on port 5432?", Some(Topic::Processes)),
            ("how much storage is left on my laptop?", Some(Topic::Disk)),
            ("하드 용량이 얼마나 남았는지 알고 싶어", Some(Topic::Disk)),
            ("tail the error log of my app", Some(Topic::Logs)),
            // Korean words inside other words, or with another sense, name nothing.
            ("블로그 글 정리해 줘", None),
            ("파이썬 프로그램 추천해 줘", None),
            ("로그인이 안 돼요", None),
            ("주간 리포트 작성 도와줘", None),
            ("깃털 베개 세탁법 알려줘", None),
            ("채용 프로세스를 개선하고 싶어", None),
            ("our hiring processes are slow", None),
            ("깃 저장소 만드는 법", Some(Topic::Git)),
            ("깃허브에 올리고 싶어", Some(Topic::Git)),
            ("에러 로그를 보고 싶어", Some(Topic::Logs)),
            ("서버에서 프로세스가 메모리를 너무 써", Some(Topic::Processes)),
            ("로그 폴더 정리해 줘", Some(Topic::Delete)),
            // Everyday ways to ask, each named once by a user trying the chat.
            ("how do I free up space on my mac?", Some(Topic::Disk)),
            ("list the biggest folders in my home", Some(Topic::Disk)),
            ("kill the process on port 3000", Some(Topic::Processes)),
            ("포트 8080 쓰는 프로세스 죽여줘", Some(Topic::Processes)),
            ("create a new rust project", Some(Topic::Setup)),
            ("find all TODO comments in my code", Some(Topic::Files)),
            // Erasing is about files only beside a word of files; a disk is a computer's only
            // beside a word of space.
            ("할 일 목록 지워줘", None),
            ("이 문장 좀 지워 줘", None),
            ("delete my last message", None),
            ("오래된 백업 삭제해 줘", Some(Topic::Delete)),
            ("delete the screenshots on my desktop", Some(Topic::Delete)),
            ("check my disk", Some(Topic::Disk)),
            ("find where I defined the function parse_config", Some(Topic::Files)),
            ("node_modules 지워줘", Some(Topic::Delete)),
            ("허리 디스크가 아파요", None),
            ("목 디스크에 좋은 스트레칭 알려줘", None),
            ("디스크 정리하고 싶어", Some(Topic::Disk)),
            ("디스크가 꽉 찼어", Some(Topic::Disk)),
        ];
        for (text, want) in cases {
            assert_eq!(recognise(text), *want, "{text}");
        }
    }

    #[test]
    fn making_a_script_executable_is_answered_with_chmod_plus_x() {
        let en = make_executable("how do I make run.sh executable?", Lang::En).expect("answered");
        assert!(en.starts_with("`chmod +x run.sh`") && en.contains("`./run.sh`"), "{en}");
        let ko = make_executable("run.sh 실행 권한 주는 법", Lang::Ko).expect("answered");
        assert!(ko.starts_with("`chmod +x run.sh`로 실행 권한을"), "{ko}");
        let denied = make_executable("./scripts/deploy.sh: Permission denied", Lang::En).expect("answered");
        assert!(
            denied.contains("`chmod +x ./scripts/deploy.sh`") && denied.contains("`./scripts/deploy.sh`"),
            "{denied}"
        );
        assert!(make_executable("my script won't run", Lang::En).expect("answered").contains("<file>"));
        assert_eq!(make_executable("what does chmod 777 run.sh do?", Lang::En), None, "a chmod question is explained");
        assert_eq!(make_executable("run the tests", Lang::En), None);
        assert_eq!(make_executable("git push says Permission denied (publickey)", Lang::En), None);
    }

    #[test]
    fn a_mode_that_lets_everyone_write_is_named_as_such() {
        let en = explain_command("what does chmod 777 script.sh do?", Lang::En).expect("explained");
        assert!(en.contains("every user on the machine") && en.contains("755"), "{en}");
        let ko = explain_command("`chmod 666 notes.txt`는 뭐 하는 명령이야?", Lang::Ko).expect("explained");
        assert!(ko.contains("모든 사용자가 파일을 바꿀 수"), "{ko}");
        let symbolic = explain_command("what does chmod o+w data.csv do?", Lang::En).expect("explained");
        assert!(symbolic.contains("every user"), "{symbolic}");
        // A file named run.sh orders nothing run; "해도 돼?" asks whether it is all right.
        let run = explain_command("what does chmod 777 run.sh do?", Lang::En).expect("explained");
        assert!(run.starts_with("`chmod 777 run.sh`") && run.contains("every user"), "{run}");
        let ko = explain_command("chmod 777 run.sh 해도 돼?", Lang::Ko).expect("explained");
        assert!(ko.contains("모든 사용자가 파일을 바꿀 수"), "{ko}");
        assert_eq!(explain_command("can you run chmod 777 run.sh for me?", Lang::En), None, "an order stays an order");
        for safe in [
            "what does chmod 755 deploy.sh do?",
            "what does chmod +x deploy.sh do?",
            "what does chmod u+w notes.txt do?",
        ] {
            let text = explain_command(safe, Lang::En).expect(safe);
            assert!(!text.contains("every user"), "{safe}: {text}");
        }
    }

    #[test]
    fn a_missing_module_a_version_a_place_and_a_rename_are_answered_directly() {
        let py = quick_answer("my python script says ModuleNotFoundError: No module named 'requests'", Lang::En)
            .expect("answered");
        assert!(py.contains("`python3 -m pip install requests`"), "{py}");
        // The package of a module named otherwise on PyPI.
        let yaml = quick_answer("No module named 'yaml' 에러가 나요", Lang::Ko).expect("answered");
        assert!(yaml.contains("`python3 -m pip install PyYAML`"), "{yaml}");
        let node = quick_answer("Error: Cannot find module 'express'", Lang::En).expect("answered");
        assert!(node.contains("`npm install express`"), "{node}");
        let local = quick_answer("Error: Cannot find module './config'", Lang::En).expect("answered");
        assert!(local.contains("is a file of the project") && !local.contains("npm install"), "{local}");
        let scoped = quick_answer("Cannot find module '@types/node/fs'", Lang::En).expect("answered");
        assert!(scoped.contains("`npm install @types/node`"), "{scoped}");
        assert!(quick_answer("how do I check my node version?", Lang::En)
            .is_some_and(|t| t.starts_with("`node --version`")));
        assert!(quick_answer("자바 버전 확인하는 법", Lang::Ko).is_some_and(|t| t.starts_with("`java -version`")));
        assert!(quick_answer("파이썬은 어디에 설치돼 있어?", Lang::Ko)
            .is_some_and(|t| t.starts_with("`command -v python3`")));
        let eacces = quick_answer("npm install 하는데 EACCES 에러가 나요", Lang::Ko).expect("answered");
        assert!(eacces.contains("`sudo`로 설치하지 마세요") && eacces.contains("npm config set prefix"), "{eacces}");
        let socket =
            "Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock";
        assert!(quick_answer(socket, Lang::En).is_some_and(|t| t.contains("usermod -aG docker")));
        let place = quick_answer("how do I find where python is installed?", Lang::En).expect("answered");
        assert!(place.starts_with("`command -v python3`") && place.contains("sys.executable"), "{place}");
        let lines = quick_answer("how do I count lines in all .rs files?", Lang::En).expect("answered");
        assert!(lines.starts_with("`find . -name '*.rs' -print0 | xargs -0 wc -l`"), "{lines}");
        assert!(quick_answer("app.py 몇 줄이야?", Lang::Ko).is_some_and(|t| t.starts_with("`wc -l app.py`")));
        let mv = quick_answer("파일 이름 바꾸는 명령어", Lang::Ko).expect("answered");
        assert!(mv.starts_with("`mv <old-name> <new-name>`") && mv.contains("`mv -i`"), "{mv}");
        assert!(quick_answer("how do I rename notes.txt?", Lang::En)
            .is_some_and(|t| t.starts_with("`mv notes.txt <new-name>`")));
        // Not these: a branch renamed, a version of something else, a module said without the error.
        for text in [
            "how do I rename the branch?",
            "깃 브랜치 이름 바꾸는 법",
            "what's new in the latest version of our app?",
            "rename the column in the users table",
            "which python module should I use for dates?",
            "서버 로그 마지막 몇 줄 보여줘",
            "how do I go back to the previous version of my file?",
            "how do I see an old version of a file in git?",
            "rename the function parse_config in my file",
        ] {
            assert_eq!(quick_answer(text, Lang::En), None, "{text}");
        }
        // Where the git config file is: the files the settings come from, not where git is.
        let config = quick_answer("where is the git config file located?", Lang::En).unwrap_or_default();
        assert!(config.starts_with("`git config --list --show-origin`"), "{config}");
    }

    #[test]
    fn a_connection_error_names_its_port_not_a_piece_of_the_address() {
        assert_eq!(request_port("ssh: connect to host 10.0.0.5 port 22: Connection refused"), Some(22));
        assert_eq!(request_port("curl: (7) Failed to connect to 192.168.1.20 port 8080"), Some(8080));
        assert_eq!(request_port("포트 3000번 누가 쓰고 있어?"), Some(3000));
        // A host's port after its name; a time's minutes are no port.
        assert_eq!(request_port("kill whatever is running on localhost:5173"), Some(5173));
        assert_eq!(request_port("curl http://127.0.0.1:8080/health fails"), Some(8080));
        assert_eq!(request_port("the meeting at 10:30"), None);
        let ko = end_process("3000번 포트 쓰는 프로세스 죽여줘", None, Lang::Ko).expect("answered");
        assert!(ko.starts_with("`lsof -i :3000`이 3000번 포트를"), "{ko}");
        let kill = end_process("kill whatever is running on localhost:5173", None, Lang::En).expect("answered");
        assert!(kill.contains("`kill $(lsof -t -i :5173)`"), "{kill}");
        let timed = text_answer("ssh: connect to host 10.0.0.5 port 22: Connection timed out", None, Lang::En)
            .expect("answered");
        assert!(timed.starts_with("Nothing answered") && timed.contains("nc -zv <host> 22"), "{timed}");
    }

    #[test]
    fn whether_a_port_is_open_is_answered_for_that_port() {
        for (text, lang) in
            [("how to check if port 5432 is open", Lang::En), ("포트 5432 열려 있는지 확인하는 법", Lang::Ko)]
        {
            let answer = text_answer(text, None, lang).expect("answered");
            assert!(
                answer.contains("`sudo lsof -i :5432`") && answer.contains("nc -zv") && !answer.contains("8080"),
                "{answer}"
            );
        }
        let merge =
            explain_command("what's the difference between git merge and git rebase", Lang::En).expect("answered");
        assert!(merge.starts_with("- `git merge` joins") && merge.contains("- `git rebase` replays"), "{merge}");
    }

    #[test]
    fn an_archive_that_cannot_be_read_is_explained() {
        for text in ["tar: Error opening archive: Failed to open 'backup.tgz'", "gzip: stdin: not in gzip format"] {
            let answer = text_answer(text, None, Lang::En).expect("answered");
            assert!(answer.starts_with("The archive could not be read."), "{text}: {answer}");
        }
        let unpack = text_answer("how do I extract backup.tgz?", None, Lang::En).expect("answered");
        assert!(unpack.starts_with("`tar -xzf backup.tgz`"), "{unpack}");
    }

    #[test]
    fn an_add_undone_is_unstaged_not_a_commit_undone() {
        for (text, lang) in [
            ("undo git add", Lang::En),
            ("git add 한 거 취소하고 싶어", Lang::Ko),
            ("how do I unstage a file?", Lang::En),
        ] {
            let answer = text_answer(text, None, lang).expect("answered");
            assert!(answer.starts_with("`git restore --staged"), "{text}: {answer}");
        }
        for text in ["how do I undo my last commit", "undo my last commit but keep the changes staged"] {
            let commit = text_answer(text, None, Lang::En).expect("answered");
            assert!(commit.starts_with("`git reset --soft HEAD~1`"), "{text}: {commit}");
        }
    }

    #[test]
    fn a_job_to_run_on_a_schedule_gets_its_crontab_line() {
        let en = schedule("how do I make a script run every night at 2am", Lang::En).expect("answered");
        assert!(en.contains("`0 2 * * * /full/path/to/script.sh >> \"$HOME/cron.log\" 2>&1`"), "{en}");
        assert!(en.contains("at 02:00 every day") && en.contains("schtasks"), "{en}");
        let ko = schedule("매일 새벽 3시 30분에 backup.sh 돌리고 싶어", Lang::Ko).expect("answered");
        assert!(ko.contains("`30 3 * * * /full/path/to/backup.sh"), "{ko}");
        let hourly = schedule("run ./sync.sh every hour", Lang::En).expect("answered");
        assert!(hourly.contains("`0 * * * * /full/path/to/sync.sh"), "{hourly}");
        let weekly = schedule("I want to run the cleanup job every week at 9pm", Lang::En).expect("answered");
        assert!(weekly.contains("`0 21 * * 1 ") && weekly.contains("every Monday"), "{weekly}");
        // No schedule, or nothing to run.
        assert_eq!(schedule("how do I run a python script", Lang::En), None);
        assert_eq!(schedule("I walk every night", Lang::En), None);
        let said = text_answer("how do I make a script run every night at 2am", None, Lang::En).expect("answered");
        assert!(said.starts_with("`crontab -e`"), "{said}");
    }

    #[test]
    fn the_installed_python_packages_are_listed() {
        for (text, lang) in
            [("설치된 pip 패키지 목록 보여줘", Lang::Ko), ("how do I list installed pip packages?", Lang::En)]
        {
            let answer = text_answer(text, None, lang).expect("answered");
            assert!(answer.starts_with("`python3 -m pip list`"), "{answer}");
        }
        // Installing is another answer.
        let install = text_answer("pip로 requirements.txt 목록 설치하려면?", None, Lang::Ko).unwrap_or_default();
        assert!(!install.starts_with("`python3 -m pip list`"), "{install}");
    }

    #[test]
    fn the_space_docker_images_take_is_answered() {
        for (text, lang) in [
            ("how do I see which docker images take the most space", Lang::En),
            ("도커 이미지가 용량을 얼마나 차지하는지 보고 싶어", Lang::Ko),
        ] {
            let answer = text_answer(text, None, lang).expect("answered");
            assert!(answer.starts_with("`docker system df`") && answer.contains("| sort -h"), "{answer}");
        }
        assert_eq!(
            how_to(HOW_TOS, "how do i list the running containers", Lang::En).filter(|a| a.contains("docker images")),
            None
        );
    }

    #[test]
    fn two_known_commands_asked_apart_are_said_side_by_side() {
        let en = explain_command("what's the difference between npm install and npm ci", Lang::En).expect("answered");
        assert!(en.starts_with("- `npm install` installs") && en.contains("\n- `npm ci` deletes node_modules"), "{en}");
        let ko = explain_command("git fetch랑 git pull 차이가 뭐야?", Lang::Ko).expect("answered");
        assert!(ko.starts_with("- `git fetch`: 원격") && ko.contains("- `git pull`: "), "{ko}");
        // One command, or words that are everyday English: not this answer.
        assert_eq!(compare_known("what's the difference between npm install and yarn?", Lang::En), None);
        assert_eq!(compare_known("is head different from tail in the diff?", Lang::En), None);
    }

    #[test]
    fn a_rename_of_one_ending_to_another_gets_the_loop_for_those_endings() {
        let en = rename_extension("rename all .jpeg files to .jpg", Lang::En).expect("answered");
        assert!(en.contains("`for f in *.jpeg; do mv -i -- \"$f\" \"${f%.jpeg}.jpg\"; done`"), "{en}");
        assert!(en.contains("find . -type f -name '*.jpeg'") && en.contains("Rename-Item"), "{en}");
        let ko = rename_extension("jpeg 파일을 전부 jpg로 이름 바꿔줘", Lang::Ko).expect("answered");
        assert!(ko.contains("`for f in *.jpeg; do mv -i -- \"$f\" \"${f%.jpeg}.jpg\"; done`"), "{ko}");
        let md = rename_extension("change the extension of every *.markdown file to .md", Lang::En).expect("answered");
        assert!(md.contains("*.markdown; do") && md.contains("${f%.markdown}.md"), "{md}");
        // One ending, or none: not this answer.
        assert_eq!(rename_extension("rename report.txt", Lang::En), None);
        assert_eq!(rename_extension("how do I rename a branch?", Lang::En), None);
        assert_eq!(rename_extension("convert the png files to jpg", Lang::En), None, "a conversion is not a rename");
        // Through the chat's no-key answers.
        let said = text_answer("rename all .jpeg files to .jpg", None, Lang::En).expect("answered");
        assert!(said.starts_with("To give every .jpeg file"), "{said}");
    }

    #[test]
    fn archives_are_unpacked_and_packed_with_the_command_for_their_kind() {
        let en = archive("how do I extract backup.tar.gz?", Lang::En).expect("answered");
        assert!(
            en.starts_with("`tar -xzf backup.tar.gz` unpacks it.") && en.contains("`tar -tzf backup.tar.gz`"),
            "{en}"
        );
        // The kind said without a file: a placeholder, not "tar.gz" taken for a file name.
        let ko = archive("압축 푸는 명령어 알려줘 tar.gz", Lang::Ko).expect("answered");
        assert!(ko.starts_with("다음 명령으로 풉니다: `tar -xzf <file>.tar.gz`."), "{ko}");
        // A folder named to unpack into: the command says it.
        assert!(archive("how do I make a zip of the src folder", Lang::En).is_some_and(|a| a.contains("zip -r")));
        let into = archive("unzip backup.tar.gz into /tmp/restore", Lang::En).expect("answered");
        assert!(
            into.starts_with(
                "`mkdir -p /tmp/restore && tar -xzf backup.tar.gz -C /tmp/restore` unpacks it into /tmp/restore."
            ),
            "{into}"
        );
        let into = archive("data.zip을 ./out에 풀어줘", Lang::Ko).expect("answered");
        assert!(into.starts_with("다음 명령으로 ./out에 풉니다: `unzip data.zip -d ./out`."), "{into}");
        let zip = archive("data.zip 압축 해제 어떻게 해?", Lang::Ko).expect("answered");
        assert!(
            zip.contains("`unzip data.zip`") && zip.contains("`unzip -l data.zip`") && zip.contains("-d <폴더>"),
            "{zip}"
        );
        assert!(archive("how do I open a .7z file", Lang::En).is_some_and(|t| t.starts_with("`7z x <file>.7z`")));
        let pack = archive("compress the logs folder", Lang::En).expect("answered");
        assert!(pack.starts_with("`tar -czf <name>.tar.gz logs` packs logs"), "{pack}");
        let pack = archive("src 폴더 압축해 줘 zip으로", Lang::Ko).expect("answered");
        assert!(pack.contains("`zip -r <name>.zip src`"), "{pack}");
        // A name the shell would read differently is not put in a command.
        let odd = archive("extract a$(reboot).zip", Lang::En).expect("answered");
        assert!(!odd.contains("reboot"), "{odd}");
        // Neither unpacking nor packing an archive.
        for text in [
            "delete old .zip files in ./downloads",
            "how do I open port 8080?",
            "what's my zip code?",
            "tar로 만든 파일 목록",
        ] {
            assert_eq!(archive(text, Lang::En), None, "{text}");
        }
    }

    #[test]
    fn the_difference_of_two_forms_of_a_command_is_what_their_options_do() {
        let en = explain_command("what's the difference between rm -r and rm -rf?", Lang::En).expect("answered");
        assert!(en.contains("- `rm -r`: -r deletes folders") && en.contains("- `rm -rf`: -r"), "{en}");
        assert!(en.ends_with("The difference: `rm -rf` adds -f (never asks, and passes over files that do not exist without a word)."), "{en}");
        assert!(!en.contains("`rm -r and rm -rf`"), "the two forms are not one command: {en}");
        let ko = explain_command("rm -r이랑 rm -rf 차이가 뭐야?", Lang::Ko).expect("answered");
        assert!(ko.contains("차이: `rm -rf`에는 이 옵션이 더 있습니다: -f"), "{ko}");
        // Options with no program take the form before; no question word is needed.
        let reset = explain_command("git reset --soft와 --hard 차이", Lang::Ko).expect("answered");
        assert!(
            reset.contains("`git reset --soft`: --soft 커밋만") && reset.contains("`git reset --hard`: --hard"),
            "{reset}"
        );
        assert!(!reset.contains("차이:"), "neither is the other with more: {reset}");
        let kill = explain_command("difference between kill and kill -9", Lang::En).expect("answered");
        assert!(kill.contains("- `kill`: no options (the default)") && kill.contains("SIGKILL"), "{kill}");
        assert!(explain_command("ls -la vs ls -lh", Lang::En).is_some_and(|t| t.contains("-h writes sizes")));
        // Not two forms of one program, an option it does not know, or no question of difference.
        assert!(!explain_command("difference between rm -r and cp -r", Lang::En).is_some_and(|t| t.contains("- `")));
        assert!(!explain_command("rm -r vs rm -rq", Lang::En).is_some_and(|t| t.contains("- `")));
        assert!(!explain_command("what does rm -rf / do?", Lang::En).is_some_and(|t| t.contains("- `")));
    }

    #[test]
    fn a_question_about_a_destructive_command_is_answered_with_its_danger() {
        let en = explain_command("what does rm -rf / do?", Lang::En).expect("explained");
        assert!(en.starts_with("`rm -rf /` is dangerous.") && en.contains("recursively"), "{en}");
        let ko = explain_command("`DROP TABLE users` 하면 어떻게 돼?", Lang::Ko).expect("explained");
        assert!(ko.starts_with("`DROP TABLE users` 명령은 위험합니다."), "{ko}");
        let ko = explain_command("rm -rf / 하면 어떻게 돼?", Lang::Ko).expect("explained");
        assert!(ko.starts_with("`rm -rf /` 명령은 위험합니다."), "{ko}");
        let push = explain_command("Is git push --force safe?", Lang::En).expect("explained");
        assert!(push.starts_with("`git push --force` is dangerous."), "{push}");
        // A request to do it, a harmless command, or no command: not this answer.
        assert_eq!(explain_command("delete the old logs in /var/log", Lang::En), None);
        assert_eq!(explain_command("rm -rf ./build now, I know what it does", Lang::En), None);
        // "know" is not "now", nor "show" "how"; "please" asks, it does not order.
        assert!(explain_command("what do you know about rm -rf /?", Lang::En).is_some());
        assert!(explain_command("please explain what rm -rf / does", Lang::En).is_some());
        assert_eq!(explain_command("can you delete it with rm -rf ./build?", Lang::En), None);
        assert_eq!(explain_command("rm -rf ./build 실행해 줘, 뭐가 지워지는지 알아", Lang::Ko), None);
        assert_eq!(explain_command("what should I clean up first?", Lang::En), None);
    }

    #[test]
    fn a_question_about_an_everyday_command_says_what_it_does() {
        let ls = explain_command("what does ls -la do?", Lang::En).expect("explained");
        assert!(
            ls.starts_with("`ls -la` lists the files") && ls.contains("changes nothing") && ls.contains("`ls --help`"),
            "{ls}"
        );
        let ko = explain_command("ls -la는 뭐 하는 명령이야?", Lang::Ko).expect("explained");
        assert!(ko.starts_with("`ls -la`: 폴더") && ko.contains("바꾸지 않습니다"), "{ko}");
        let status = explain_command("git status가 뭐야?", Lang::Ko).expect("explained");
        assert!(status.starts_with("`git status`: 바뀐 파일"), "{status}");
        let push = explain_command("is git push safe?", Lang::En).expect("explained");
        assert!(push.contains("without --force") && push.contains("check what it names"), "{push}");
        let stash = explain_command("`git stash` 하면 어떻게 돼?", Lang::Ko).expect("explained");
        assert!(stash.contains("치워 둡니다"), "{stash}");
        let find = explain_command("what does find . -name '*.log' do?", Lang::En).expect("explained");
        assert!(
            find.starts_with("`find . -name '*.log'` looks for files") && find.contains("changes nothing"),
            "{find}"
        );
        let delete = explain_command("what does find /tmp -name '*.tmp' -delete do?", Lang::En).expect("explained");
        assert!(delete.contains("check what it names"), "{delete}");
        let rm = explain_command("rm notes.txt 하면 어떻게 돼?", Lang::Ko).expect("explained");
        assert!(rm.starts_with("`rm notes.txt`: 파일을 지웁니다") && rm.contains("대상을 확인"), "{rm}");
        // A flagged form of a known command gets the warning, not the everyday answer.
        let force = explain_command("what does git push --force do?", Lang::En).expect("explained");
        assert!(force.starts_with("`git push --force` is dangerous."), "{force}");
        // How to do something is a request, not a question about a command; an everyday word
        // without an option is not a command; a request to run one is not a question.
        assert_eq!(explain_command("how do I undo my last git commit?", Lang::En), None);
        assert_eq!(explain_command("what should I find first?", Lang::En), None);
        assert_eq!(explain_command("what does the cat do?", Lang::En), None);
        assert_eq!(explain_command("run ls -la in my project", Lang::En), None);
        assert_eq!(explain_command("what is the best way to undo a git commit?", Lang::En), None);
    }

    #[test]
    fn a_delete_offer_takes_the_folder_and_age_the_request_names_and_puts_that_choice_first() {
        let o = offer(Topic::Delete, "delete all the log files older than 30 days in /var/log", Lang::En);
        assert_eq!(o.choices[0].label, "Old logs");
        assert_eq!(o.choices[0].command.0, "find /var/log -name '*.log' -mtime +30 -print");
        assert_eq!(o.choices[0].description, "Lists .log files older than 30 days in /var/log first");
        let o = offer(Topic::Delete, "/srv/app/logs에서 14일 지난 로그 좀 지워 줘", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "find /srv/app/logs -name '*.log' -mtime +14 -print");
        let o = offer(Topic::Delete, "clean up docker", Lang::En);
        assert_eq!(o.choices[0].label, "Docker leftovers");
        // A relative folder stays relative.
        let o = offer(Topic::Delete, "remove old logs in ./tmp/logs.", Lang::En);
        assert_eq!(o.choices[0].command.0, "find ./tmp/logs -name '*.log' -mtime +7 -print");
        // Nothing named: the usual order and defaults; a folder unsafe to paste is not taken.
        let o = offer(Topic::Delete, "delete the old stuff in /tmp;reboot", Lang::En);
        assert_eq!(o.choices[0].label, "Build output");
        assert_eq!(o.choices[1].command.0, "find ./logs -name '*.log' -mtime +7 -print");
    }

    #[test]
    fn a_files_offer_takes_the_size_and_folder_the_request_names() {
        let o = offer(Topic::Files, "find files bigger than 100MB in my home directory", Lang::En);
        assert_eq!(o.choices[0].label, "Large files");
        assert_eq!(o.choices[0].command.0, "find ~ -type f -size +100M -exec ls -lh {} +");
        assert_eq!(o.choices[0].description, "Files over 100 MB in ~");
        let o = offer(Topic::Files, "/srv/data에서 2GB 넘는 큰 파일 찾아줘", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "find /srv/data -type f -size +2G -exec ls -lh {} +");
        assert_eq!(o.choices[0].description, "/srv/data에서 2 GB보다 큰 파일");
        let o = offer(Topic::Files, "search files containing the word invoice", Lang::En);
        assert_eq!(o.choices[0].label, "By content");
        assert_eq!(o.choices[0].command.0, "grep -rn '<text>' .");
        // Nothing named: listing this folder first, the default size.
        let o = offer(Topic::Files, "list the files", Lang::En);
        assert_eq!(o.choices[0].command.0, "ls -la");
        assert_eq!(o.choices[1].command.0, "find . -type f -size +100M -exec ls -lh {} +");
        assert_eq!(request_size("files over 500 mb"), Some("+500M".into()));
        assert_eq!(request_size("500메가 넘는 파일"), Some("+500M".into()));
        assert_eq!(request_size("the 3 biggest files"), None);
        // The largest ones, however large: as many as asked, by size.
        let o = offer(Topic::Files, "이 폴더에서 가장 큰 파일 10개 찾아줘", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "find . -type f -exec du -h {} + | sort -rh | head -n 10");
        assert_eq!(o.choices[0].description, "이 폴더에서 가장 큰 파일 10개");
        let o = offer(Topic::Files, "show me the 3 biggest files in my home folder", Lang::En);
        assert_eq!(o.choices[0].command.0, "find ~ -type f -exec du -h {} + | sort -rh | head -n 3");
        assert_eq!(request_top("what are the largest files here"), Some(10));
        assert_eq!(request_top("files over 500 mb"), None);
        // By when they changed.
        assert_eq!(recognise("지난 7일 동안 수정된 파일만 찾고 싶어"), Some(Topic::Files));
        let o = offer(Topic::Files, "지난 7일 동안 수정된 파일만 찾고 싶어", Lang::Ko);
        assert!(o.named);
        assert_eq!(o.choices[0].command.0, "find . -type f -mtime -7");
        assert_eq!(o.choices[0].description, "이 폴더에서 7일 안에 바뀐 파일");
        let o = offer(Topic::Files, "which files in ~/notes changed today?", Lang::En);
        assert_eq!(o.choices[0].command.0, "find ~/notes -type f -mtime -1");
        assert_eq!(recognise("I changed my password last week"), None);
        assert_eq!(recognise("git에서 어제 수정된 파일 보기"), Some(Topic::Git));
        assert_eq!(request_size("10 minutes ago"), None);
    }

    #[test]
    fn a_git_offer_puts_what_is_asked_first_and_nothing_it_offers_is_destructive() {
        let o = offer(Topic::Git, "how do I undo my last git commit?", Lang::En);
        assert_eq!(o.choices[0].command.0, "git reset --soft HEAD~1");
        let o = offer(Topic::Git, "로컬 변경 사항 버리고 싶어", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "git stash push --include-untracked");
        let o = offer(Topic::Git, "delete the feature branch", Lang::En);
        assert_eq!(o.choices[0].command.0, "git branch -d <branch>");
        let o = offer(Topic::Git, "how do I see which git branch I'm on?", Lang::En);
        assert_eq!(o.choices[0].command.0, "git branch --show-current");
        let o = offer(Topic::Git, "깃 브랜치 이름 바꾸는 법", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "git branch -m <new-name>");
        // The names said go into the command.
        let o = offer(Topic::Git, "rename the branch feature-x to feature-login", Lang::En);
        assert_eq!(o.choices[0].command.0, "git branch -m feature-x feature-login");
        let o = offer(Topic::Git, "feature-x 브랜치 이름을 feature-login으로 바꿔줘", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "git branch -m feature-x feature-login");
        let o = offer(Topic::Git, "rename this branch to fix/login", Lang::En);
        assert_eq!(o.choices[0].command.0, "git branch -m fix/login");
        let o = offer(Topic::Git, "make a new branch", Lang::En);
        assert_eq!(o.choices[0].command.0, "git switch -c <branch>");
        assert!(!o.named);
        for text in ["create a new branch called hotfix", "hotfix라는 브랜치 만들어 줘", "새 브랜치 hotfix 만들기"]
        {
            let o = offer(Topic::Git, text, Lang::En);
            assert_eq!(o.choices[0].command.0, "git switch -c hotfix", "{text}");
            assert!(o.named, "{text}");
        }
        for ch in &o.choices {
            assert_eq!(crate::engine::danger::assess(&ch.command.0), None, "{}", ch.command.0);
        }
    }

    #[test]
    fn the_known_commands_are_sorted_so_a_program_is_found_by_halves() {
        assert!(KNOWN.windows(2).all(|w| w[0].0 < w[1].0), "sorted by command");
        assert!(explain_command("what does wget do?", Lang::En).is_some(), "the last program is found");
        assert!(explain_command("what does cat ./notes.txt do?", Lang::En).is_some(), "the first program is found");
    }

    #[test]
    fn a_thanks_is_answered_without_a_card() {
        assert!(thanks_reply("thanks!", Lang::En).is_some_and(|t| t.starts_with("You're welcome")));
        assert!(thanks_reply("고마워요", Lang::Ko).is_some_and(|t| t.starts_with("천만에요")));
        assert_eq!(thanks_reply("what a nice day", Lang::En), None);
        assert_eq!(
            thanks_reply("they say thx is rude but could you explain why my long build keeps failing", Lang::En),
            None
        );
        assert!(thanks_reply("thank you so much, that worked", Lang::En).is_some());
        assert!(thanks_reply("정말 감사합니다!", Lang::Ko).is_some());
        // A thanks that asks something more is not only a thanks.
        assert_eq!(thanks_reply("thanks! and how do I kill it?", Lang::En), None);
        assert_eq!(thanks_reply("고마워 그거 종료하려면", Lang::Ko), None);
    }

    #[test]
    fn a_cache_named_is_cleared_with_its_own_command() {
        let npm = quick_answer("how do I clear the npm cache?", Lang::En).expect("answered");
        assert!(npm.starts_with("`npm cache clean --force`") && npm.contains("npm cache verify"), "{npm}");
        let pip = quick_answer("pip 캐시 지우는 법", Lang::Ko).expect("answered");
        assert!(pip.starts_with("`python3 -m pip cache purge`"), "{pip}");
        let docker = quick_answer("도커 빌드 캐시 정리하고 싶어", Lang::Ko).expect("answered");
        assert!(docker.starts_with("`docker builder prune`"), "{docker}");
        // No tool of its own named, or nothing cleared: not this answer.
        assert_eq!(quick_answer("my browser cache is huge, how do I clear it", Lang::En), None);
        assert_eq!(quick_answer("how do I clean up the build folder and the caches of this project?", Lang::En), None);
        assert_eq!(quick_answer("where does npm keep its cache?", Lang::En), None);
        assert_eq!(quick_answer("my pipeline cache is stale, how do I clear it?", Lang::En), None);
    }

    #[test]
    fn everyday_how_tos_are_answered_outright_in_both_languages() {
        let cases = [
            ("how do I see environment variables?", "`printenv`"),
            ("환경 변수 확인하는 법", "`printenv`(또는 `env`)가"),
            ("how do I set an environment variable permanently?", "`export NAME=value` sets it"),
            ("how do I add ~/tools to PATH?", "Add `export PATH="),
            ("how do I check my IP address?", "`ip addr`"),
            ("내 IP 주소 확인", "`ip addr`(macOS는"),
            ("git push rejected non-fast-forward", "The remote has commits you don't have."),
            ("git push가 거부됐어요", "원격 저장소에 내게 없는 커밋이"),
            ("git push가 거부됐어요 그럼 강제로 푸시하려면?", "`git push --force-with-lease`가"),
            ("how do I force push", "`git push --force-with-lease` overwrites"),
            ("how do I discard local changes in git?", "`git restore <file>`"),
            ("로컬 변경사항 버리고 싶어", "`git restore <file>`이"),
            ("how do I see hidden files?", "`ls -a`"),
            ("how do I make a symlink?", "`ln -s <target> <link-name>`"),
            ("폴더 복사하는 명령어", "`cp -r <폴더> <대상>`"),
            ("how do I download a file with curl?", "`curl -LO <URL>`"),
            ("how do I change my last commit message?", "`git commit --amend -m"),
            ("깃 커밋 메시지 수정하고 싶어", "`git commit --amend -m"),
            ("list all branches", "`git branch` lists"),
            ("브랜치 목록 보기", "`git branch`가"),
            ("stop all docker containers", "`docker stop <name>`"),
            ("도커 컨테이너 다 멈추고 싶어", "`docker stop <이름>`"),
            ("how do I run a script every day with cron?", "`crontab -e`"),
            ("ssh 키 만드는 법", "`ssh-keygen -t ed25519"),
            ("how do I see what's in a file?", "`cat <file>`"),
            ("how do I restart nginx?", "On Linux with systemd, `sudo systemctl restart <service>`"),
            ("nginx 재시작하는 법", "systemd를 쓰는 리눅스에서는"),
            ("check if a service is running", "`systemctl status <service>`"),
            ("서비스 상태 확인하려면?", "`systemctl status <서비스>`"),
            ("open port 8080 in the firewall", "With Ubuntu's ufw"),
            ("방화벽에서 8080 포트 열기", "Ubuntu의 ufw라면"),
            ("how do I see the last 10 commits?", "`git log --oneline -n 10`"),
            ("how do I unstage a file?", "`git restore --staged <file>`"),
            ("how do I see what changed in my last commit", "`git show HEAD` shows"),
            ("마지막 커밋에서 뭐가 바뀌었는지 보려면?", "`git show HEAD`가"),
            ("how do I resolve a merge conflict", "`git status` lists the files in conflict"),
            ("머지 충돌 해결하는 법", "`git status`가 충돌한"),
            ("how do I merge main into my branch", "On your branch"),
            ("how do I remove all stopped containers", "`docker container prune` removes"),
            ("파이썬 가상환경 만드는 법", "`python3 -m venv .venv`가"),
            ("git@github.com: Permission denied (publickey).", "The server (GitHub, say) did not accept"),
            ("bash: htop: command not found", "`htop` is not installed"),
            ("zsh: command not found: rg", "`rg` is not installed"),
            ("bash: tree: 명령어를 찾을 수 없음", "`tree` 명령이 설치되어"),
            ("fatal: not a git repository (or any of the parent directories): .git", "This folder is not inside"),
            ("npm ERR! code ERESOLVE unable to resolve dependency tree", "Two packages want"),
            ("No space left on device", "The disk is full."),
            ("Error: listen EADDRINUSE: address already in use :::3000", "Another program is already listening"),
            ("fatal: refusing to merge unrelated histories", "The two branches share no commit"),
            ("error: failed to push some refs to 'github.com:me/app.git'", "The remote has commits"),
            ("Segmentation fault (core dumped)", "The program touched memory"),
            ("sudo: apt: command not found", "This system has no `apt`"),
            ("what's my public ip", "`ip addr`"),
            ("how do I copy files to a remote server", "`scp <file> user@host:/path/` copies"),
            ("원격 서버로 파일 복사하기", "`scp <파일> user@host:/경로/`가"),
            ("노드 버전 확인", "`node --version`로"),
            ("my build keeps dying with out of memory, how do I fix it", "The process ran out of memory"),
            (
                "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
                "The process ran out",
            ),
            ("빌드하다가 메모리 부족으로 죽어요", "메모리가 모자라"),
            ("curl: (7) Failed to connect to localhost port 8080: Connection refused", "Nothing is listening"),
            ("SSL certificate problem: unable to get local issuer certificate", "This machine does not trust"),
            ("how do I search for a word in all files", "`grep -rn 'word' .` prints"),
            ("모든 파일에서 단어 찾기", "`grep -rn '단어' .`가"),
            ("how do I replace text in many files", "`grep -rl 'old' . | xargs sed -i"),
            ("how do I check if a website is up", "`curl -I https://example.com`"),
            ("how do I see my git config", "`git config --list --show-origin` shows"),
            ("깃 커밋 메시지 잘못 썼어", "`git commit --amend -m"),
            ("undo git commit --amend", "`git reset --soft HEAD@{1}` moves the branch back"),
            ("how do I see which git branches are merged", "`git branch --merged` lists"),
            ("ssh로 서버 접속하는 법", "`ssh 사용자@호스트`"),
            ("how many lines of code are in this project", "`git ls-files | xargs wc -l | tail -n 1` prints"),
            ("how do I find and replace foo with bar in all .js files", "`grep -rl 'old' . | xargs sed -i"),
            ("amend 한 거 되돌리고 싶어", "`git reset --soft HEAD@{1}`이"),
            ("파이썬 패키지 업그레이드 하는 법", "`python3 -m pip install --upgrade <패키지>`가"),
            ("how do I update a pip package", "`python3 -m pip install --upgrade <package>` brings"),
            (".env 파일을 깃에서 빼고 싶어", "`git rm --cached <파일>`(폴더라면 `-r`을 붙여)로"),
            ("how do I stop tracking a file in git", "`git rm --cached <file>`"),
            ("main 브랜치 최신으로 받아오기", "`git switch main`(그 브랜치 이름)으로"),
            ("how do I get the latest changes from main", "`git switch main` (the branch's name) then `git pull`"),
            ("git log 예쁘게 보는 법", "`git log --oneline --graph --decorate --all`이"),
            ("how can I see the commit history as a graph", "`git log --oneline --graph --decorate --all` shows"),
            ("how do I get my stash back", "`git stash list` shows"),
            ("how do I make a script run at startup", "Add `@reboot"),
            ("how do I check my ubuntu version", "`cat /etc/os-release`"),
            ("how do I update all packages", "On Debian or Ubuntu, `sudo apt update"),
            ("패키지 전부 업데이트하려면?", "Debian·Ubuntu는"),
            ("how do I delete a file", "`rm <file>` deletes it"),
            ("how do I create a python virtual environment", "`python3 -m venv .venv` makes"),
            ("requirements.txt로 패키지 설치하려면?", "`python3 -m pip install -r requirements.txt`가"),
            ("원격 저장소 주소 바꾸려면?", "`git remote -v`가"),
            ("how do I change the git remote url", "`git remote -v` shows"),
            ("파일 권한 바꾸는 법", "`chmod`가 권한을"),
            ("멈춘 도커 컨테이너 다 지우고 싶어", "`docker container prune`이"),
            ("undo my last commit", "`git reset --soft HEAD~1` undoes"),
            ("방금 한 커밋 취소", "`git reset --soft HEAD~1`이"),
            ("how do I revert a pushed commit?", "Others may already have a pushed commit"),
            ("what's using port 5000 on windows", "`netstat -ano | findstr :5000` lists"),
            ("how do I kill a process in powershell", "`tasklist` lists the running programs"),
            ("윈도우 환경 변수 설정", "`setx NAME value`가"),
            ("my ip address on mac", "On macOS, `ipconfig getifaddr en0`"),
            ("open port 3000 in the firewall", "With Ubuntu's ufw, `sudo ufw allow 3000/tcp`; with"),
        ];
        for (text, want) in cases {
            let answer = quick_answer(text, Lang::detect(text)).unwrap_or_default();
            assert!(answer.starts_with(want), "{text}: {answer}");
        }
        // Words of another world: no how-to.
        for text in [
            "my push notifications are rejected by the store",
            "copy this paragraph",
            "the ip of the printer is wrong",
            "delete the merged branches",
            "my docker containers keep restarting, how do I see why?",
            "my nginx keeps restarting",
            "I had a conflict with my manager",
            "update all npm packages",
            "please delete the old build files",
        ] {
            assert_eq!(quick_answer(text, Lang::En), None, "{text}");
        }
        // A follow-up that names another tool asks the same of it.
        let pip = with_follow_up("how do I check which version of python I have", "and pip?");
        assert_eq!(pip, "how do I check which version of pip I have");
        assert!(text_answer(&pip, None, Lang::En).is_some_and(|t| t.starts_with("`python3 -m pip --version`")));
        assert_eq!(with_follow_up("노드 버전 확인", "도커는?"), "도커 버전 확인");
        assert_eq!(
            with_follow_up("how do I check my node version", "and on windows?"),
            "how do I check my node version and on windows?"
        );
        // A chmod mode is read digit by digit.
        let mode = text_answer("what does chmod 644 mean", None, Lang::En).expect("answered");
        assert!(mode.contains("644: the owner may read and write; the group and others may only read."), "{mode}");
        let mode = text_answer("chmod 750 deploy.sh 뜻이 뭐야", None, Lang::Ko).expect("answered");
        assert!(
            mode.contains("750: 소유자는 읽기·쓰기·실행, 그룹은 읽기·실행, 다른 사용자는 아무 권한 없음."),
            "{mode}"
        );
        // A framework named: its project; memory eaten: the processes by memory.
        let o = offer(Topic::Setup, "리액트 프로젝트 새로 만들고 싶어", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "npm create vite@latest my-app -- --template react");
        assert_eq!(recognise("메모리 많이 먹는 프로세스 찾아줘"), Some(Topic::Processes));
        let o = offer(Topic::Processes, "메모리 많이 먹는 프로세스 찾아줘", Lang::Ko);
        assert!(o.choices[0].command.0.contains("sort -nrk 4"), "{}", o.choices[0].command.0);
        // Leftovers named: every one of them; the size of a folder: the disk's folder choice.
        let o = offer(Topic::Delete, "how do I delete all .DS_Store files", Lang::En);
        assert!(o.named && o.choices[0].command.0 == "find . -name '.DS_Store' -type f -delete");
        assert_eq!(recognise("how do I delete all .DS_Store files"), Some(Topic::Delete));
        assert_eq!(recognise("how do I see the size of a folder"), Some(Topic::Disk));
        // The output of a command whose shape is known is read.
        use crate::engine::chat::tools::CommandOutcome;
        let lsof = "COMMAND  PID USER   FD   TYPE DEVICE SIZE/OFF NODE NAME\nnode    4242 me   23u  IPv6 0x1  0t0  TCP *:3000 (LISTEN)";
        let held = after_command("lsof -i :3000", &CommandOutcome::Output(lsof.into()), Lang::En);
        assert!(held.starts_with("Port 3000 is held by `node` (PID 4242). `kill 4242`"), "{held}");
        let df = "Filesystem Size Used Avail Use% Mounted on\ntmpfs 2G 0 2G 100% /run\n/dev/sda1 100G 97G 3G 97% /";
        let full = after_command("df -h", &CommandOutcome::Output(df.into()), Lang::Ko);
        assert!(full.starts_with("/에 마운트된 디스크가 97% 찼습니다(남은 공간 3G)."), "{full}");
        let other = after_command("ls -la", &CommandOutcome::Output("a\nb".into()), Lang::En);
        assert!(other.starts_with("Got the output: 2 line(s)"), "{other}");
        // Free space with no place: the whole disk, proposed at once; all images: the images.
        let o = offer(Topic::Disk, "how much free disk space do I have", Lang::En);
        assert!(o.named && o.choices[0].command.0 == "df -h");
        let o = offer(Topic::Delete, "도커 이미지 전부 지워줘", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "docker image prune -a");
        // A folder that comes back is safe to delete where it belongs; the rest is still warned of.
        let modules = text_answer("rm -rf node_modules is that safe?", None, Lang::En).expect("answered");
        assert!(
            modules.starts_with("`rm -rf node_modules` deletes the node_modules folder for good, but"),
            "{modules}"
        );
        let ko = text_answer("rm -rf node_modules 해도 돼?", None, Lang::Ko).expect("answered");
        assert!(ko.starts_with("`rm -rf node_modules`는 node_modules 폴더를"), "{ko}");
        let root = text_answer("is rm -rf / safe?", None, Lang::En).expect("answered");
        assert!(root.starts_with("`rm -rf /` is dangerous."), "{root}");
        // An error a command gave is explained, not the command.
        let eacces =
            text_answer("npm install 하면 EACCES permission denied 에러가 나요", None, Lang::Ko).expect("answered");
        assert!(eacces.contains("`sudo`로 설치하지 마세요"), "{eacces}");
        // What happened to a command is no part of it: the push is explained, not "git push was".
        for text in ["my git push was rejected, what do I do", "my git push is rejected, what do I do?"] {
            let answer = text_answer(text, None, Lang::En).expect("answered");
            assert!(answer.starts_with("The remote has commits you don't have."), "{text}: {answer}");
        }
        let asked = text_answer("what does git push do?", None, Lang::En).expect("answered");
        assert!(asked.starts_with("`git push` sends your commits"), "{asked}");
    }

    #[test]
    fn ending_a_process_names_the_port_or_the_program() {
        let port = end_process("kill process on port 8080", None, Lang::En).expect("answered");
        assert!(port.starts_with("`lsof -i :8080`") && port.contains("`kill $(lsof -t -i :8080)`"), "{port}");
        // "it": the port the message before named.
        let it = end_process("고마워 그거 종료하려면?", Some("3000번 포트 쓰는 프로세스 찾아줘"), Lang::Ko)
            .expect("answered");
        assert!(it.starts_with("`lsof -i :3000`이 3000번 포트를"), "{it}");
        // A program named here goes before a port named before.
        let node =
            end_process("how do I kill the node process?", Some("what's on port 3000?"), Lang::En).expect("answered");
        assert!(node.starts_with("`pgrep -fl node`") && node.contains("`pkill -f node`"), "{node}");
        let python = end_process("파이썬 프로세스 죽이는 방법", None, Lang::Ko).expect("answered");
        assert!(python.starts_with("`pgrep -fl python`가"), "{python}");
        let any = end_process("how do I kill a process?", None, Lang::En).expect("answered");
        assert!(any.starts_with("`kill <PID>`") && any.contains("pgrep -fl <name>"), "{any}");
        // Not a process to end: a container, a branch, a meeting, a bug, a program's log.
        for text in [
            "how do I stop the docker container?",
            "how to kill a git branch",
            "회의 종료 시간이 언제야?",
            "this bug is killing me",
            "프로그램 종료 후에 로그 파일이 안 남아요",
            "what does `kill -9` do?",
        ] {
            assert_eq!(end_process(text, Some("what's on port 3000?"), Lang::detect(text)), None, "{text}");
        }
    }

    #[test]
    fn what_the_request_names_is_offered_first() {
        assert_eq!(offer(Topic::Install, "파이썬 패키지 설치하고 싶어", Lang::Ko).choices[0].label, "pip");
        assert_eq!(offer(Topic::Install, "install ripgrep on my mac", Lang::En).choices[0].label, "Homebrew");
        assert_eq!(offer(Topic::Database, "postgres에서 users 테이블 조회", Lang::Ko).choices[0].label, "PostgreSQL");
        assert_eq!(offer(Topic::Database, "show the tables in my sqlite db", Lang::En).choices[0].label, "SQLite");
        // The last lines asked of a file named, though its path says syslog; files over a size.
        let o = offer(Topic::Logs, "show me the last 50 lines of /var/log/syslog", Lang::En);
        assert_eq!(o.choices[0].command.0, "tail -n 50 /var/log/syslog");
        assert_eq!(offer(Topic::Files, "100MB 넘는 로그 파일 찾는 법", Lang::Ko).choices[0].label, "큰 파일");
        let o = offer(Topic::Delete, "node_modules 지워줘", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "rm -rf ./node_modules");
        assert!(o.named, "the folder named needs no card");
        assert_eq!(o.choices.len(), 4, "the usual three stay");
        for request in ["delete node_modules in all subfolders", "하위 폴더의 node_modules 전부 지워줘"] {
            let o = offer(Topic::Delete, request, Lang::En);
            assert_eq!(
                o.choices[0].command.0, "find . -name node_modules -type d -prune -exec rm -rf {} +",
                "{request}"
            );
            assert!(o.named, "{request}");
        }
        assert_eq!(offer(Topic::Delete, "delete the build folder", Lang::En).choices.len(), 3);
        let o = offer(Topic::Files, "find where I defined the function parse_config", Lang::En);
        assert_eq!(o.choices[0].command.0, "grep -rn 'parse_config' .");
        assert_eq!(code_word("where is loadUser() called?"), Some("loadUser"));
        assert_eq!(code_word("find config.yaml please"), None);
    }

    #[test]
    fn process_and_log_offers_take_the_port_file_and_count_the_request_names() {
        let o = offer(Topic::Processes, "how do I check which process uses port 8080?", Lang::En);
        assert_eq!(o.choices[0].command.0, "lsof -i :8080");
        assert!(o.choices[0].why.contains("port 8080"), "{}", o.choices[0].why);
        let o = offer(Topic::Processes, "포트 3000번을 누가 쓰고 있는지 알고 싶어", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "lsof -i :3000");
        let o = offer(Topic::Processes, "my laptop is slow", Lang::En);
        assert_eq!(o.choices[0].label, "Busiest processes");
        assert_eq!(offer(Topic::Processes, "what uses memory?", Lang::En).choices[0].label, "Memory use");
        let o = offer(Topic::Processes, "메모리 얼마나 남았는지 보고 싶어", Lang::Ko);
        assert!(
            o.choices[0].command.0.starts_with("free -h && "),
            "how much is free comes first: {}",
            o.choices[0].command.0
        );
        let o = offer(Topic::Disk, "폴더 용량 큰 순서로 보기", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "du -sh ./* | sort -h");
        assert_eq!(
            offer(Topic::Disk, "show me the folder sizes in my home", Lang::En).choices[0].command.0,
            "du -sh ~/* | sort -h"
        );
        assert_eq!(offer(Topic::Disk, "how much disk space is left?", Lang::En).choices[0].command.0, "df -h");
        let o = offer(Topic::Logs, "show me the last 50 lines of app.log", Lang::En);
        assert_eq!(o.choices[0].command.0, "tail -n 50 app.log");
        assert_eq!(o.question, "How should we look at it?");
        let o = offer(Topic::Logs, "서버 로그에서 에러만 보고 싶어", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "grep -in error <file> | tail -n 50");
        assert!(o.question.contains("<file>"), "{}", o.question);
        // A web server named without a path: its usual log, said to be the usual one.
        let o = offer(Topic::Logs, "nginx 에러 로그 보고 싶어", Lang::Ko);
        assert_eq!(o.choices[0].command.0, "grep -in error /var/log/nginx/error.log | tail -n 50");
        assert!(o.question.contains("Debian·Ubuntu의 기본값"), "{}", o.question);
        let o = offer(Topic::Logs, "show me the apache access log", Lang::En);
        assert!(o.choices[0].command.0.ends_with("/var/log/apache2/access.log"), "{}", o.choices[0].command.0);
        let o = offer(Topic::Logs, "errors in /var/log/nginx/error.log", Lang::En);
        assert_eq!(o.choices[0].command.0, "grep -in error /var/log/nginx/error.log | tail -n 50");
        // A name the shell would read differently is not put in a command.
        let o = offer(Topic::Logs, "tail app$(reboot).log", Lang::En);
        assert!(o.choices[0].command.0.ends_with("<file>"), "{}", o.choices[0].command.0);
        for topic in [Topic::Processes, Topic::Logs, Topic::Disk] {
            for choice in offer(topic, "port 80 app.log", Lang::En).choices {
                assert_eq!(crate::engine::danger::assess(&choice.command.0), None, "{}", choice.command.0);
            }
        }
    }

    #[test]
    fn a_containers_offer_puts_what_is_asked_first_and_nothing_it_offers_is_dangerous() {
        let o = offer(Topic::Containers, "my docker containers keep restarting, how do I see why?", Lang::En);
        assert_eq!(o.choices[0].label, "Why it restarts");
        assert!(o.choices[0].command.0.starts_with("docker inspect"));
        let o = offer(Topic::Containers, "컨테이너 로그 보고 싶어", Lang::Ko);
        assert_eq!(o.choices[0].label, "최근 로그");
        for choice in &o.choices {
            assert_eq!(crate::engine::danger::assess(&choice.command.0), None, "{}", choice.command.0);
        }
        // Watching them live: the same logs, followed.
        for text in
            ["도커 컨테이너 로그 보는 법 실시간으로 계속 보고 싶으면?", "how do I follow a container's logs live"]
        {
            let o = offer(Topic::Containers, text, Lang::Ko);
            assert_eq!(o.choices[0].command.0, "docker logs -f --tail 100 <container>", "{text}");
        }
    }

    #[test]
    fn a_virtual_environment_for_this_project_is_made_here_and_python_comes_first() {
        let o = offer(Topic::Setup, "create a python virtual environment for this project", Lang::En);
        assert_eq!(o.choices[0].label, "Python");
        assert_eq!(o.choices[0].command.0, "python3 -m venv .venv");
        let o = offer(Topic::Setup, "set up a new node project", Lang::En);
        assert_eq!(o.choices[0].label, "Node.js");
        let o = offer(Topic::Setup, "set up a project", Lang::En);
        assert_eq!(o.choices[0].label, "Rust");
        assert_eq!(o.choices[2].command.0, "mkdir my-app && cd my-app && python3 -m venv .venv");
    }

    #[test]
    fn install_offers_name_the_package() {
        assert_eq!(package_name("please install ripgrep"), "ripgrep");
        assert_eq!(package_name("install the jq tool"), "jq");
        assert_eq!(package_name("docker를 설치해 줘"), "docker");
        assert_eq!(package_name("설치 좀"), "<package>");
        let offer = offer(Topic::Install, "install ripgrep", Lang::En);
        assert!(offer.choices.iter().any(|c| c.command.0 == "brew install ripgrep"));
    }

    #[test]
    fn every_offer_has_two_to_ten_choices_and_the_intro_says_it_is_the_no_key_assistant() {
        for lang in [Lang::Ko, Lang::En] {
            for topic in Topic::ALL {
                let o = offer(topic, "", lang);
                assert!((2..=10).contains(&o.choices.len()), "{topic:?}");
            }
            assert!(intro(lang).contains(lang.pick("키 없이", "no-key")));
        }
        let delete = offer(Topic::Delete, "", Lang::En);
        assert!(crate::engine::danger::assess(&delete.choices[0].command.0).is_some(), "rm -rf is flagged");
        assert!(crate::engine::danger::assess(&delete.choices[1].command.0).is_none(), "listing is safe");
    }

    #[test]
    fn questions_about_attached_files_are_recognised_and_other_requests_are_not() {
        use crate::engine::chat::tools::Attachment;
        let files = [
            Attachment { name: "notes.txt".into(), text: "release on Friday".into() },
            Attachment { name: "build.log".into(), text: "error: linker failed".into() },
        ];
        let cases: &[(&str, &[&str])] = &[
            ("what do my files say?", &["notes.txt", "build.log"]),
            ("what's in build.log?", &["build.log"]),
            ("첨부한 파일 내용 알려 줘", &["notes.txt", "build.log"]),
            ("notes.txt 읽어 줘", &["notes.txt"]),
            ("please delete the old build files", &[]),
            ("도커 설치해 줘", &[]),
        ];
        for (request, want) in cases {
            let got: Vec<&str> = asked_attachments(request, &files).iter().map(|a| a.name.as_str()).collect();
            assert_eq!(&got, want, "{request}");
        }
    }

    #[test]
    fn reading_back_a_file_shows_its_start_its_matching_lines_and_any_cut() {
        use crate::engine::chat::tools::Attachment;
        let small = Attachment { name: "notes.txt".into(), text: "first line\nthe release is on Friday\n".into() };
        let text = read_back(&small, "when is the release?", 10_000, Lang::En);
        assert!(text.contains("I read **notes.txt** (36 characters, 2 lines)"), "{text}");
        assert!(text.contains("> the release is on Friday") && !text.contains("cut"), "{text}");
        let big = Attachment { name: "big.log".into(), text: format!("HEAD-LINE\n{}\nTAIL-LINE", "x".repeat(30_000)) };
        for lang in [Lang::En, Lang::Ko] {
            let text = read_back(&big, "what does it say?", 10_000, lang);
            assert!(text.contains("HEAD-LINE"), "{text}");
            assert!(text.contains("20020") || text.contains("20,020"), "the cut is said: {text}");
        }
    }
}
