//! The output-format reader: what a request asks to produce (Markdown, JSON, a report ...).

use super::*;
use crate::engine::words::WordList;

/// English names of each format; ASCII word boundaries keep "code" out of "encode".
pub(super) const EN_FORMAT_PATTERNS: &[(&str, Format)] = &[
    // A page in Notion, Confluence, Obsidian or a wiki is written as Markdown.
    (
        r"(?i)\bmarkdown\b|\.md\b|\bmd\s+files?\b|\breadme\b|\brelease\s+notes?\b|\bchangelogs?\b|\bblog\s+posts?\b|\b(?:in|to|into|on)\s+(?:(?:our|my|the|a|your|their)\s+)?(?:(?:team|company|internal)\s+)?(?:notion|confluence|obsidian|wiki)\b|\b(?:notion|confluence|obsidian|wiki)\s+(?:pages?|docs?|notes?|database|workspace|space|wiki)\b",
        Format::Markdown,
    ),
    (r"(?i)\b(?:tables?|tabular)\b", Format::Table),
    // JSON Lines is still JSON records.
    (r"(?i)\bjson(?:l|\s+lines)?\b", Format::Json),
    (r"(?i)\bpython\b|\.py\b|\bjupyter\b", Format::Python),
    (
        r"(?i)\b(?:code|script|scripts|snippets?|javascript|typescript|js|rust|golang|java|sql|bash|shell\s+script|html|css|regex)\b",
        Format::Code,
    ),
    (r"(?i)\b(?:slides?|slide\s*deck|decks?|presentations?|pptx?|powerpoint|power\s+point|keynote)\b", Format::Slides),
    // A brief is a short report.
    (r"(?i)\breports?\b|\bbriefs?\b|\bbriefings?\b", Format::Report),
    (r"(?i)\b(?:proposals?|rfp)\b", Format::Proposal),
    (r"(?i)\bcsv\b", Format::Csv),
    // A newsletter goes out by email.
    (r"(?i)\b(?:e-?mail(?:s|ed)?|mail|newsletters?)\b", Format::Email),
    (r"(?i)\b(?:diagrams?|flow\s*charts?|charts?|mermaid|uml|graphviz|mind\s*maps?|wireframes?)\b", Format::Diagram),
    (r"(?i)\b(?:spreadsheets?|excel|xlsx|google\s+sheets?|gsheets?)\b", Format::Spreadsheet),
    (r"(?i)\bdashboards?\b", Format::Dashboard),
    (
        // A chatbot's answers are chat messages.
        r"(?i)\b(?:slack|discord|telegram|whatsapp|kakao\s*talk|sms|(?:text|chat)\s+messages?|teams\s+(?:channel|chat|messages?|posts?)|chat\s*bots?)\b",
        Format::Message,
    ),
];

pub(super) fn en_format_patterns() -> &'static [(Regex, Format)] {
    static CELL: OnceLock<Vec<(Regex, Format)>> = OnceLock::new();
    CELL.get_or_init(|| {
        EN_FORMAT_PATTERNS
            .iter()
            .map(|(p, f)| (Regex::new(p).expect("format pattern is a valid literal"), *f))
            .collect()
    })
}

/// How a Korean format word must stand to count.
#[derive(Debug, Clone, Copy)]
pub(super) enum KoBound {
    /// Anywhere, even inside a longer word (주간보고서 is a weekly report).
    Free,
    /// As a word of its own, followed by nothing or a particle (코드로, 메일을).
    Word,
    /// As a word of its own or after one of these words (비교표 is a comparison table).
    WordOrAfter(WordList),
}

/// Words that make 표 a table when glued in front of it: 비교 (comparison), 일정 (schedule),
/// 시간 (time), 요약 (summary), 정리 (overview), 가격 (price), 현황 (status), 통계
/// (statistics), 점수 (score), 성적 (grades), 계획 (plan), 예산 (budget), 순위 (ranking),
/// 대조 (contrast), 체크 (check), 진도 (progress), 견적 (estimate), 근무 (shift), 메뉴 (menu),
/// 출석 (attendance), 평가 (evaluation). 발표 (presentation), 대표 (representative), 목표
/// (goal), 투표 (vote), 지표 (indicator), 장표 (slide), 도표 (chart) are not tables.
pub(super) const KO_TABLE_PREFIXES: WordList = WordList(
    "비교|일정|시간|요약|정리|가격|현황|통계|점수|성적|\
    계획|예산|순위|대조|체크|진도|견적|근무|메뉴|출석|평가",
);

/// Korean names of each format, with an English gloss.
pub(super) const KO_FORMAT_WORDS: &[(&str, Format, KoBound)] = &[
    ("마크다운", Format::Markdown, KoBound::Free),                  // markdown
    ("노션", Format::Markdown, KoBound::Free),                      // Notion (pages are Markdown)
    ("컨플루언스", Format::Markdown, KoBound::Free),                // Confluence
    ("옵시디언", Format::Markdown, KoBound::Free),                  // Obsidian
    ("릴리스 노트", Format::Markdown, KoBound::Free),               // release notes
    ("릴리즈 노트", Format::Markdown, KoBound::Free),               // release notes (common spelling)
    ("변경 이력", Format::Markdown, KoBound::Free),                 // changelog
    ("블로그 글", Format::Markdown, KoBound::Free),                 // blog post
    ("블로그 포스트", Format::Markdown, KoBound::Free),             // blog post
    ("위키", Format::Markdown, KoBound::Word),                      // wiki
    ("표", Format::Table, KoBound::WordOrAfter(KO_TABLE_PREFIXES)), // table
    ("파이썬", Format::Python, KoBound::Free),                      // Python
    ("파이선", Format::Python, KoBound::Free),                      // Python (common misspelling)
    ("코드", Format::Code, KoBound::Word),                          // code
    ("스크립트", Format::Code, KoBound::Free),                      // script
    ("자바스크립트", Format::Code, KoBound::Free),                  // JavaScript
    ("슬라이드", Format::Slides, KoBound::Free),                    // slides
    ("발표자료", Format::Slides, KoBound::Free),                    // presentation material
    ("발표 자료", Format::Slides, KoBound::Free),                   // presentation material
    ("발표용", Format::Slides, KoBound::Free),                      // for presenting
    ("프레젠테이션", Format::Slides, KoBound::Free),                // presentation
    ("피피티", Format::Slides, KoBound::Free),                      // PPT
    ("키노트", Format::Slides, KoBound::Free),                      // Keynote
    ("장표", Format::Slides, KoBound::Free),                        // slide pages (business jargon)
    ("보고서", Format::Report, KoBound::Free),                      // report
    ("리포트", Format::Report, KoBound::Free),                      // report
    ("브리핑", Format::Report, KoBound::Free),                      // briefing
    ("레포트", Format::Report, KoBound::Free),                      // report (common spelling)
    ("기획서", Format::Proposal, KoBound::Free),                    // planning document
    ("기획안", Format::Proposal, KoBound::Free),                    // plan draft
    ("제안서", Format::Proposal, KoBound::Free),                    // proposal
    ("이메일", Format::Email, KoBound::Free),                       // email
    ("뉴스레터", Format::Email, KoBound::Free),                     // newsletter (sent by email)
    ("메일", Format::Email, KoBound::Word),                         // mail
    ("다이어그램", Format::Diagram, KoBound::Free),                 // diagram
    ("순서도", Format::Diagram, KoBound::Free),                     // flowchart
    ("흐름도", Format::Diagram, KoBound::Free),                     // flow diagram
    ("플로우차트", Format::Diagram, KoBound::Free),                 // flowchart
    ("도식", Format::Diagram, KoBound::Free),                       // schematic
    ("도표", Format::Diagram, KoBound::Free),                       // chart
    ("차트", Format::Diagram, KoBound::Free),                       // chart
    ("마인드맵", Format::Diagram, KoBound::Free),                   // mind map
    ("구성도", Format::Diagram, KoBound::Free),                     // architecture diagram
    ("엑셀", Format::Spreadsheet, KoBound::Free),                   // Excel
    ("스프레드시트", Format::Spreadsheet, KoBound::Free),           // spreadsheet
    ("구글 시트", Format::Spreadsheet, KoBound::Free),              // Google Sheets
    ("구글시트", Format::Spreadsheet, KoBound::Free),               // Google Sheets
    ("대시보드", Format::Dashboard, KoBound::Free),                 // dashboard
    ("슬랙", Format::Message, KoBound::Free),                       // Slack
    ("디스코드", Format::Message, KoBound::Free),                   // Discord
    ("텔레그램", Format::Message, KoBound::Free),                   // Telegram
    ("카톡", Format::Message, KoBound::Free),                       // KakaoTalk (short)
    ("카카오톡", Format::Message, KoBound::Free),                   // KakaoTalk
    ("팀즈", Format::Message, KoBound::Free),                       // Teams
    ("문자 메시지", Format::Message, KoBound::Free),                // text message
    ("문자메시지", Format::Message, KoBound::Free),                 // text message
    ("메신저", Format::Message, KoBound::Free),                     // messenger
    ("챗봇", Format::Message, KoBound::Free),                       // chatbot (its answers are chat messages)
];

/// What may follow a bounded Korean format word: particles 로/으로 (as), 를/을 (object),
/// 은/는/이/가 (topic/subject), 에/에서 (in), 도 (also), 만 (only), 와/과/랑 (and), 처럼
/// (like), 의 (of), 요 (polite); and 형식/형태 (format), 파일 (file), 버전 (version),
/// 예시/예제 (example), 초안 (draft), 샘플 (sample), 템플릿 (template),
/// 화 (-ify), 하나 (one).
#[rustfmt::skip]
pub(super) const KO_FORMAT_TAILS: WordList = WordList("로|으로|를|을|은|는|이|가|에|도|만|와|과|랑|처럼|의|요|\
    형식|형태|파일|버전|예시|예제|초안|샘플|템플릿|화|하나");

/// Phrases that name something else: code review, QR/bar codes, error/status/zip/promo
/// codes, dress code, code names, cheat sheets, email addresses, "email me if …" (a contact, where
/// "email me a digest" is the output), "report back",
/// code blocks (part of a Markdown document), restaurant tables ("book a table", "table for 2", "window table"),
/// and a language as the subject ("posts about Rust" are posts, no code).
pub(super) fn mask_non_formats(text: &str) -> String {
    let en = regex!(
        r"(?i)\bcode\s*reviews?\b|\bqr\s*codes?\b|\bbar\s*codes?\b|\b(?:error|status|zip|postal|promo|promotional|coupon|discount|dress|country|area|verification|access|invite|referral)\s+codes?\b|\bcode\s*names?\b|\bcheat\s*sheets?\b|\be-?mail\s+(?:me|us|him|her|them)\s+(?:if|when|at|back|once|whenever)\b|\be-?mail\s+address(?:es)?\b|\bsend\s+(?:me|us)\s+an?\s+e-?mail\s+(?:if|when|once|after|whenever)\b|\breport\s+(?:to|back)\b|\btable\s+tennis\b|\bcode\s+blocks?\b|\b(?:about|regarding|on)\s+(?:the\s+)?(?:rust|golang|java|javascript|typescript|python|sql|html|css)\b"
    );
    let tables = regex!(&format!(
        r"(?i)\b(?:book|booking|reserve|reserving|get|grab|find|snag|secure|hold|save)\s+(?:us\s+|me\s+)?(?:a|an|the|one|our)?\s*(?:(?:window|outdoor|corner|quiet|private|patio|big|large|small|nice|round)\s+)?tables?\b|\btables?\s+for\s+(?:\d+|{EN_COUNTS}|us|me|the\s+\w+\s+of\s+us|a\s+party|a\s+group)\b|\btables?\s+(?:reservations?|bookings?)\b|\b(?:window|outdoor|corner|patio|terrace|private)\s+tables?\b"
    ));
    // 코드 블록 (code block), 코드 리뷰 (code review), QR 코드, 바코드 (barcode), 에러/오류/상태/할인/쿠폰/인증/초대/
    // 추천인/우편/드레스 코드 (error/status/discount/coupon/verification/invite/referral/
    // postal/dress code), 메일 주소 (email address).
    let ko = regex!(
        r"코드\s*블록|코드\s*리뷰|[Qq][Rr]\s*코드|바코드|(?:에러|오류|상태|할인|쿠폰|인증|초대|추천인|우편|드레스)\s*코드|(?:이메일|메일)\s*주소"
    );
    let blank = |c: &Captures<'_>| " ".repeat(c.get(0).map_or(0, |m| m.len()));
    // An HTML email or newsletter is an email, not code: "html" goes, the rest stays.
    let html_mail = regex!(r"(?i)\bhtml(\s+(?:e-?mails?|mails?|newsletters?))\b");
    let text = html_mail.replace_all(text, |c: &Captures<'_>| format!("    {}", c.get(1).map_or("", |m| m.as_str())));
    let text = en.replace_all(&text, blank);
    let text = tables.replace_all(&text, blank);
    ko.replace_all(&text, blank).into_owned()
}

pub(super) fn ko_format_word_fits(text: &str, at: usize, word: &str, bound: KoBound) -> bool {
    let prefixes = match bound {
        KoBound::Free => return true,
        KoBound::Word => WordList(""),
        KoBound::WordOrAfter(prefixes) => prefixes,
    };
    let before = text.get(..at).unwrap_or("");
    let left_ok = !prev_char(text, at).is_some_and(is_hangul)
        || prefixes
            .iter()
            .filter(|p| !p.is_empty())
            .any(|p| before.strip_suffix(p).is_some_and(|rest| !rest.chars().next_back().is_some_and(is_hangul)));
    let after = text.get(at + word.len()..).unwrap_or("");
    let tail_end = after.find(|c: char| !is_hangul(c)).unwrap_or(after.len());
    let tail = &after[..tail_end];
    let right_ok = tail.is_empty() || KO_FORMAT_TAILS.iter().any(|t| tail.starts_with(t));
    left_ok && right_ok
}

/// The output format a message asks for. When several are named the most specific wins
/// (a program over data formats, a file type over a document genre, a document over the
/// tables or diagrams in it, any of those over Markdown), then the first mentioned;
/// "X 말고 Y" and "Y instead of X" drop X.
pub fn parse_format(text: &str) -> Option<Format> {
    let text = mask_non_formats(&prepare(text));
    let mut mentions = Vec::new();
    let rank = |text: &str, start: usize, end: usize, format: Format| {
        // A form stated as the output ("as a table", "표로", "JSON 형식") outranks a
        // format merely named ("a weekly report as a table" is a table).
        if is_stated_output(text, start, end) {
            format.specificity()
        } else {
            format.specificity() + 10
        }
    };
    for (pattern, format) in en_format_patterns() {
        for m in pattern.find_iter(&text) {
            mentions.push(Mention {
                start: m.start(),
                end: m.end(),
                rank: rank(&text, m.start(), m.end(), *format),
                value: *format,
            });
        }
    }
    for (word, format, bound) in KO_FORMAT_WORDS {
        for (at, _) in text.match_indices(word) {
            if ko_format_word_fits(&text, at, word, *bound) {
                mentions.push(Mention {
                    start: at,
                    end: at + word.len(),
                    rank: rank(&text, at, at + word.len(), *format),
                    value: *format,
                });
            }
        }
    }
    // What the request works on is not what it produces: "turn customer emails into a
    // weekly FAQ update" reads emails and asks for something else.
    let (read, made): (Vec<_>, Vec<_>) = mentions.into_iter().partition(|m| is_input_mention(&text, m.start, m.end));
    // Unless it hands them on: "고객 문의 메일을 분류해서 담당자한테 보내주는" (sorts the emails and sends
    // them to the one in charge) sends emails.
    let handed_on = made.is_empty() && hands_on(&text);
    let forwarded = read.into_iter().filter(|m| matches!(m.value, Format::Email | Format::Message)).collect();
    choose(&text, if handed_on { forwarded } else { made })
}

/// True when the request passes what it reads on to someone: forward, route, send to the
/// person or team in charge; 담당자/담당 팀한테·에게 보내 (send to the one in charge), 전달 (pass on).
fn hands_on(text: &str) -> bool {
    let lower = text.to_lowercase();
    WordList(
        "forward|route them|routes them|route it|send them to|sends them to|send it to the right|to the right person|\
         to the right team|담당자한테|담당자에게|담당 팀|담당팀|전달",
    )
    .any(|w| lower.contains(w))
}

/// True when a format mention names what the request reads rather than what it makes:
/// after a verb that consumes ("summarize my emails", "turn … emails into"), after "from"
/// or "of" ("a digest of emails"), before "into" ("emails into a FAQ"); in Korean before
/// 에서 (from) or 의 (of), or as the object (을/를) of a verb that consumes (요약, 정리,
/// 분석, 분류, 번역, 읽, 모아, 수집, 변환, 바꿔, 추출, 검토).
pub(super) fn is_input_mention(text: &str, start: usize, end: usize) -> bool {
    if is_stated_output(text, start, end) {
        return false;
    }
    let before = tail(text.get(..start).unwrap_or(""), NEAR).to_ascii_lowercase();
    let after = head(text.get(end..).unwrap_or(""), NEAR);
    let en_before = regex!(
        r"(?i)\b(?:from|of|turn|turns|turning|convert|converting|transform|summari[sz]e|summari[sz]ing|read|reading|scan|scanning|parse|parsing|process|processing|analy[sz]e|analy[sz]ing|classify|classifying|translate|translating|extract|collect|collecting|gather|monitor|monitoring|sort|sorting|triage|go\s+through|based\s+on)\s+(?:(?:my|our|the|all|new|incoming|customer|customers'|client|support|daily|weekly|unread|these|those|their|your)\s+){0,3}$"
    );
    let en_after = regex!(r"(?i)^s?\s+(?:into|to\s+(?:a|an)\b)");
    // 에서 (from), 의 (of), 들 (plural); 을/를 (object) before a consuming verb. A place in a
    // messenger may stand between ("슬랙 채널의 질문", "카톡 방에서"): 채널 (channel), 방/단톡방
    // (chat room / group chat), 그룹 (group), 서버 (server), 워크스페이스 (workspace), 대화
    // (conversation), 채팅 (chat), 메시지 (message), 스레드 (thread).
    let ko_from = regex!(
        r"^(?:들)?(?:\s*(?:채널|방|단톡방|그룹|서버|워크스페이스|대화|채팅|메시지|스레드)(?:들)?){0,2}(?:에서|의\s)"
    );
    let ko_object = regex!(
        r"^(?:들)?(?:\s*(?:채널|방|단톡방|그룹|서버|워크스페이스|대화|채팅|메시지|스레드)(?:들)?){0,2}(?:을|를)\s*(?:\S+\s+){0,2}?(?:요약|정리|분석|분류|번역|읽|모아|모으|수집|변환|바꿔|바꾸|추출|검토|훑|확인해서|가져와)"
    );
    en_before.is_match(&before) || en_after.is_match(after) || ko_from.is_match(after) || ko_object.is_match(after)
}

/// True when the words around a format mention make it the requested output form:
/// "as a …", "into …", "… format"; Korean "…로", "…으로", "… 형식", "… 형태".
pub(crate) fn is_stated_output(text: &str, start: usize, end: usize) -> bool {
    let before = tail(text.get(..start).unwrap_or(""), NEAR).to_ascii_lowercase();
    let after = head(text.get(end..).unwrap_or(""), NEAR);
    let en_before = regex!(r"(?i)\b(?:as|into)\s+(?:a\s+|an\s+|the\s+)?(?:\w+\s+)?$");
    let en_after = regex!(r"(?i)^\s*(?:format|form)\b");
    // 로/으로 (as/into), 형식/형태 (format/form), 파일 (file)
    let ko_after = regex!(r"^(?:으로|로|\s*형식|\s*형태|\s*파일)");
    en_before.is_match(&before) || en_after.is_match(after) || ko_after.is_match(after)
}
