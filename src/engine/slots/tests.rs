//! Table-driven tests of the slot readers.
use super::*;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn when(day: Option<DayRef>, hour: Option<u8>, minute: u8, meal: Option<Meal>) -> When {
    When { day, hour, minute, meal }
}

fn clock(text: &str) -> Option<(u8, u8)> {
    parse_when(text).and_then(|w| w.hour.map(|h| (h, w.minute)))
}

#[test]
fn when_reads_korean_clock_times() {
    let cases = [
        ("12시 30분", Some((12, 30))),
        ("12시30분", Some((12, 30))),
        ("오후 1시 반", Some((13, 30))),
        ("오후1시반", Some((13, 30))),
        ("정오", Some((12, 0))),
        ("저녁 7시", Some((19, 0))),
        ("오전 11시", Some((11, 0))),
        ("열두시 반", Some((12, 30))),
        ("열두 시 반", Some((12, 30))),
        ("한시", Some((13, 0))),
        ("세 시 15분", Some((15, 15))),
        ("오후 열한시", Some((23, 0))),
        ("1시 10분 전", Some((12, 50))),
        ("밤 10시", Some((22, 0))),
        ("밤 12시", Some((0, 0))),
        ("새벽 2시", Some((2, 0))),
        ("자정", Some((0, 0))),
        ("12:30", Some((12, 30))),
        ("１２시", Some((12, 0))),
    ];
    for (text, want) in cases {
        assert_eq!(clock(text), want, "{text}");
    }
}

#[test]
fn when_reads_english_clock_times() {
    let cases = [
        ("1pm", Some((13, 0))),
        ("1:30 pm", Some((13, 30))),
        ("1.30pm", Some((13, 30))),
        ("11 a.m.", Some((11, 0))),
        ("12am", Some((0, 0))),
        ("half past 12", Some((12, 30))),
        ("half past one", Some((13, 30))),
        ("quarter past 1", Some((13, 15))),
        ("quarter to 1", Some((12, 45))),
        ("quarter to midnight", Some((23, 45))),
        ("noon", Some((12, 0))),
        ("tomorrow at noon", Some((12, 0))),
        ("at 12", Some((12, 0))),
        ("at 7 in the evening", Some((19, 0))),
        ("tonight at 8", Some((20, 0))),
        ("seven pm", Some((19, 0))),
        ("12 o'clock", Some((12, 0))),
        ("around 1", Some((13, 0))),
    ];
    for (text, want) in cases {
        assert_eq!(clock(text), want, "{text}");
    }
}

#[test]
fn bare_hours_one_to_six_read_as_afternoon() {
    // Meal-planning rule: 1–6 without am/pm are afternoon, 7–11 as said, 12 is noon;
    // a meal or day-part word decides instead when there is one.
    let cases = [
        ("1시", (13, 0)),
        ("6시", (18, 0)),
        ("7시", (7, 0)),
        ("11시", (11, 0)),
        ("12시", (12, 0)),
        ("at 3", (15, 0)),
        ("저녁 6시", (18, 0)),
        ("7시 저녁", (19, 0)),
        ("dinner at 7", (19, 0)),
        ("아침 6시", (6, 0)),
        ("오전 1시", (1, 0)),
        ("점심 1시", (13, 0)),
        ("점심 11시 반", (11, 30)),
    ];
    for (text, want) in cases {
        assert_eq!(clock(text), Some(want), "{text}");
    }
}

#[test]
fn when_keeps_day_and_meal_without_clock() {
    let cases = [
        ("내일 점심", when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch))),
        ("모레 저녁", when(Some(DayRef::DayAfterTomorrow), None, 0, Some(Meal::Dinner))),
        ("내일모레 점심", when(Some(DayRef::DayAfterTomorrow), None, 0, Some(Meal::Lunch))),
        ("오늘", when(Some(DayRef::Today), None, 0, None)),
        ("낼 점심 어때", when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch))),
        ("tomorrow lunch", when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch))),
        ("tonight", when(Some(DayRef::Today), None, 0, Some(Meal::Dinner))),
        ("the day after tomorrow", when(Some(DayRef::DayAfterTomorrow), None, 0, None)),
        ("내일 12시 반", when(Some(DayRef::Tomorrow), Some(12), 30, None)),
    ];
    for (text, want) in cases {
        assert_eq!(parse_when(text), Some(want), "{text}");
    }
}

#[test]
fn when_reads_weekdays_this_week_and_next() {
    let on = |day, next_week| Some(DayRef::Weekday { day, next_week });
    let cases = [
        ("금요일 점심", when(on(Weekday::Friday, false), None, 0, Some(Meal::Lunch))),
        ("이번 주 토요일 12시", when(on(Weekday::Saturday, false), Some(12), 0, None)),
        ("다음주 월요일 저녁 7시", when(on(Weekday::Monday, true), Some(19), 0, Some(Meal::Dinner))),
        ("담주 수욜 점심", when(on(Weekday::Wednesday, true), None, 0, Some(Meal::Lunch))),
        ("일요일에 보자", when(on(Weekday::Sunday, false), None, 0, None)),
        ("lunch on Friday", when(on(Weekday::Friday, false), None, 0, Some(Meal::Lunch))),
        ("next Tuesday at 1pm", when(on(Weekday::Tuesday, true), Some(13), 0, None)),
        ("this thurs, 12:30", when(on(Weekday::Thursday, false), Some(12), 30, None)),
        ("fri. lunch", when(on(Weekday::Friday, false), None, 0, Some(Meal::Lunch))),
        ("next sat dinner", when(on(Weekday::Saturday, true), None, 0, Some(Meal::Dinner))),
        ("목요일 말고 금요일", when(on(Weekday::Friday, false), None, 0, None)),
    ];
    for (text, want) in cases {
        assert_eq!(parse_when(text), Some(want), "{text}");
    }
    // Abbreviations that are English words count only with "this" or "next".
    for text in ["we sat down", "the sun is out", "wed the two ideas"] {
        assert_eq!(parse_when(text), None, "{text}");
    }
}

#[test]
fn when_reads_dates_in_both_languages() {
    let on = |month, day| Some(DayRef::Date { month, day });
    let cases = [
        ("3월 5일 점심", when(on(3, 5), None, 0, Some(Meal::Lunch))),
        ("12월25일 저녁 7시", when(on(12, 25), Some(19), 0, Some(Meal::Dinner))),
        ("2월 29일", when(on(2, 29), None, 0, None)),
        ("lunch on March 5", when(on(3, 5), None, 0, Some(Meal::Lunch))),
        ("Mar. 5th at 1pm", when(on(3, 5), Some(13), 0, None)),
        ("the 21st of June", when(on(6, 21), None, 0, None)),
        ("5 May, dinner", when(on(5, 5), None, 0, Some(Meal::Dinner))),
        ("sept 30", when(on(9, 30), None, 0, None)),
        ("3월 5일 말고 3월 6일", when(on(3, 6), None, 0, None)),
    ];
    for (text, want) in cases {
        assert_eq!(parse_when(text), Some(want), "{text}");
    }
    // "may" in lower case is the verb.
    assert_eq!(parse_when("may 3 of us join?"), None);
}

#[test]
fn when_rejects_dates_no_year_has() {
    for (text, month, day) in [("2월 30일", 2, 30), ("13월 1일", 13, 1), ("April 31", 4, 31), ("3월 0일", 3, 0)] {
        assert_eq!(read_when(text), Err(SlotError { kind: SlotErrorKind::ImpossibleDate { month, day } }), "{text}");
        assert_eq!(parse_when(text), None, "{text}");
    }
    let error = SlotError { kind: SlotErrorKind::ImpossibleDate { month: 2, day: 30 } };
    assert!(error.message(Lang::Ko).contains("2월 30일은 없는 날짜"));
    assert!(error.message(Lang::En).contains("2/30 is not a date"));
}

#[test]
fn when_display_shows_day_then_clock_or_meal() {
    let cases = [
        (when(Some(DayRef::Tomorrow), Some(12), 30, None), Lang::Ko, "내일 12:30"),
        (when(None, Some(12), 30, Some(Meal::Lunch)), Lang::Ko, "12:30"),
        (when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch)), Lang::Ko, "내일 점심"),
        (when(Some(DayRef::Tomorrow), None, 0, Some(Meal::Lunch)), Lang::En, "tomorrow lunch"),
        (when(None, Some(13), 30, None), Lang::En, "13:30"),
        (when(None, Some(9), 5, None), Lang::En, "9:05"),
        (
            when(Some(DayRef::Weekday { day: Weekday::Friday, next_week: true }), None, 0, Some(Meal::Lunch)),
            Lang::Ko,
            "다음 주 금요일 점심",
        ),
        (
            when(Some(DayRef::Weekday { day: Weekday::Friday, next_week: false }), Some(12), 0, None),
            Lang::En,
            "Friday 12:00",
        ),
        (when(Some(DayRef::Weekday { day: Weekday::Monday, next_week: true }), None, 0, None), Lang::En, "next Monday"),
        (when(Some(DayRef::Date { month: 3, day: 5 }), Some(12), 30, None), Lang::Ko, "3월 5일 12:30"),
        (when(Some(DayRef::Date { month: 3, day: 5 }), None, 0, Some(Meal::Lunch)), Lang::En, "March 5 lunch"),
    ];
    for (value, lang, want) in cases {
        assert_eq!(value.display(lang), want);
    }
}

#[test]
fn when_ignores_counts_dates_and_durations() {
    let cases = [
        "2명",
        "3인",
        "for 3",
        "3월 5일",
        "2시간 뒤에",
        "한 시간만",
        "30분",
        "12/25",
        "on the 12th",
        "at 3 people",
        "2호선",
        "네, 시간 괜찮아요",
        "",
        "   ",
    ];
    for text in cases {
        assert_eq!(clock(text), None, "{text}");
    }
}

#[test]
fn when_rejects_impossible_clock_times() {
    for text in ["25시", "12:75", "12시 75분", "내일 25시", "24시"] {
        assert_eq!(parse_when(text), None, "{text}");
        assert!(matches!(read_when(text), Err(SlotError { kind: SlotErrorKind::ImpossibleTime { .. } })), "{text}");
    }
    assert_eq!(read_when("점심 먹자"), Ok(Some(when(None, None, 0, Some(Meal::Lunch)))));
    assert_eq!(read_when("hello"), Ok(None));
}

#[test]
fn when_follows_corrections_and_rejections() {
    let cases = [
        ("12시 말고 1시", (13, 0)),
        ("12시, 아니 1시", (13, 0)),
        ("1pm instead of 12", (13, 0)),
        ("not 12, 1pm", (13, 0)),
        ("12시나 1시", (12, 0)),
    ];
    for (text, want) in cases {
        assert_eq!(clock(text), Some(want), "{text}");
    }
    assert_eq!(parse_when("오늘 말고 내일").and_then(|w| w.day), Some(DayRef::Tomorrow));
}

#[test]
fn party_size_reads_korean_counts() {
    let cases = [
        ("2명", Some(2)),
        ("3인", Some(3)),
        ("3인분", Some(3)),
        ("4 사람", Some(4)),
        ("아니 3명이야", Some(3)),
        ("2~3명", Some(3)),
        ("100명", Some(100)),
        ("0명", Some(0)),
        ("1인당 만원", None),
        ("1인 1메뉴", None),
        ("인원 여섯", Some(6)),
        ("인원은 4", Some(4)),
        ("혼밥할 곳", Some(1)),
        ("점심에 둘, 강남", Some(2)),
        ("다섯 시", None),
        ("명동에서 보자", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_party_size(text), want, "{text}");
    }
}

#[test]
fn party_size_reads_native_korean_counts() {
    let cases = [
        ("두 명", Some(2)),
        ("두명", Some(2)),
        ("둘이서", Some(2)),
        ("셋이", Some(3)),
        ("넷이요", Some(4)),
        ("혼자", Some(1)),
        ("혼자서 먹을 거야", Some(1)),
        ("열 명", Some(10)),
        ("열두 명", Some(12)),
        ("스무 명", Some(20)),
        ("세 분이요", Some(3)),
        ("한 분", Some(1)),
        ("두세 명", Some(3)),
        ("서너 명", Some(4)),
        ("우리 둘", Some(2)),
        ("저랑 친구", Some(2)),
        ("저랑 친구 두 명", Some(3)),
        ("둘 다 좋아요", None),
        ("네 명동 괜찮아요", None),
        ("분위기 좋은 곳", None),
        ("세 분위기", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_party_size(text), want, "{text}");
    }
}

#[test]
fn party_size_reads_english_counts() {
    let cases = [
        ("for 3", Some(3)),
        ("party of 4", Some(4)),
        ("3 people", Some(3)),
        ("two of us", Some(2)),
        ("just the two of us", Some(2)),
        ("just me", Some(1)),
        ("table for two", Some(2)),
        ("me and a friend", Some(2)),
        ("me and two colleagues", Some(3)),
        ("my wife and I", Some(2)),
        ("6 pax", Some(6)),
        ("for 2 hours", None),
        ("for 3pm", None),
        ("for 12:30", None),
        ("5 ideas for lunch", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_party_size(text), want, "{text}");
    }
}

#[test]
fn party_size_ignores_times_and_places() {
    for text in ["2시", "12시 30분", "을지로3가", "2호선", "3번 출구", "1pm", "at 2", "3"] {
        assert_eq!(parse_party_size(text), None, "{text}");
    }
}

#[test]
fn party_size_follows_corrections() {
    let cases = [("2명, 아니 3명", 3), ("3명 말고 4명", 4), ("2 people, no, 3 people", 3), ("actually 3 people", 3)];
    for (text, want) in cases {
        assert_eq!(parse_party_size(text), Some(want), "{text}");
    }
}

#[test]
fn validate_party_size_accepts_one_to_fifty() {
    assert_eq!(validate_party_size(1), Ok(1));
    assert_eq!(validate_party_size(50), Ok(50));
    assert_eq!(validate_party_size(0).map_err(|e| e.kind), Err(SlotErrorKind::NoPeople));
    assert_eq!(validate_party_size(51).map_err(|e| e.kind), Err(SlotErrorKind::TooManyPeople { said: 51, max: 50 }));
}

#[test]
fn slot_errors_say_what_to_do_in_both_languages() {
    let too_many = validate_party_size(120).unwrap_err();
    assert!(too_many.message(Lang::Ko).contains("120명"));
    assert!(too_many.message(Lang::Ko).contains("50명"));
    assert!(too_many.message(Lang::En).contains("at most 50"));
    let none = validate_party_size(0).unwrap_err();
    assert!(none.message(Lang::Ko).contains("1명 이상"));
    assert!(none.message(Lang::En).contains("at least one"));
    let bad_time = read_when("12:75").unwrap_err();
    assert!(bad_time.message(Lang::Ko).contains("12시 75분"));
    assert!(bad_time.message(Lang::En).contains("12:75"));
    assert_eq!(bad_time.to_string(), bad_time.message(Lang::En));
}

#[test]
fn place_reads_korean_places() {
    let cases = [
        ("을지로에서", Some("을지로")),
        ("강남역 근처", Some("강남역")),
        ("홍대 쪽", Some("홍대")),
        ("홍대쪽으로 가자", Some("홍대")),
        ("을지로, 2명, 12시 30분", Some("을지로")),
        ("연남, 2명, 12시", Some("연남")),
        ("성수동 맛집 추천해줘", Some("성수동")),
        ("회사 근처에서 점심", Some("회사")),
        ("강남역 2번 출구 근처", Some("강남역 2번 출구")),
        ("판교역이요", Some("판교역")),
        ("을지로3가역 쪽", Some("을지로3가역")),
        ("종로로 갈래", Some("종로")),
        ("말고 강남역", Some("강남역")),
        ("을지로 말고 강남역 근처", Some("강남역")),
        ("판교 테크노밸리 근처", Some("판교 테크노밸리")),
        ("광화문 교보문고 앞", Some("광화문 교보문고")),
        ("여의도 IFC몰 쪽에서", Some("여의도 IFC몰")),
        ("회사 앞에서 보자", Some("회사")),
        ("망원시장 가자", Some("망원시장")),
        ("12:30에 Itaewon에서", Some("Itaewon")),
    ];
    for (text, want) in cases {
        assert_eq!(parse_place(text).as_deref(), want, "{text}");
    }
}

#[test]
fn place_reads_english_places() {
    let cases = [
        ("near Gangnam station", Some("Gangnam station")),
        ("in Itaewon", Some("Itaewon")),
        ("at Hongdae", Some("Hongdae")),
        ("lunch in gangnam tomorrow", Some("gangnam")),
        ("somewhere near the office", Some("office")),
        ("Seongsu-dong, 3 people", Some("Seongsu-dong")),
        ("near 강남역 for 2", Some("강남역")),
        ("let's meet at Yeouido Park at noon", Some("Yeouido Park")),
        ("meet at Itaewon station exit 3", Some("Itaewon station exit 3")),
    ];
    for (text, want) in cases {
        assert_eq!(parse_place(text).as_deref(), want, "{text}");
    }
}

#[test]
fn place_ignores_times_counts_and_filler() {
    for text in [
        "내일 점심",
        "오늘",
        "2명",
        "여기서",
        "이 근처",
        "아무데나",
        "at noon",
        "at 12",
        "in the evening",
        "in markdown",
        "in 30 minutes",
        "near me",
        "좋아요, 2명",
        "네, 내일",
        "2시에서 3시 사이",
        "오른쪽",
        "오른쪽으로 가면 돼",
        "바로 앞에서",
        "다른 쪽으로 가자",
        "지역 맛집",
        "",
    ] {
        assert_eq!(parse_place(text), None, "{text}");
    }
}

#[test]
fn cancel_is_read_from_the_whole_short_message() {
    let cases = [
        ("취소", true),
        ("취소할게요", true),
        ("취소 할게요.", true),
        ("이거 취소해 주세요", true),
        ("그만할래", true),
        ("아 그냥 그만할래요 ㅠㅠ", true),
        ("됐어", true),
        ("됐어요 감사합니다", true),
        ("없던 일로 해줘", true),
        ("cancel", true),
        ("Cancel!", true),
        ("never mind", true),
        ("Nevermind.", true),
        ("forget it", true),
        ("stop this", true),
        ("please cancel", true),
        ("I want to cancel", true),
        ("취소 정책이 뭐야", false),
        ("cancel culture essay", false),
        ("write a report on how airlines handle cancel requests and refunds", false),
        ("다 됐어", false),
        ("don't stop", false),
        ("취소하지 마", false),
        ("", false),
    ];
    for (text, want) in cases {
        assert_eq!(is_cancel(text), want, "{text}");
    }
}

#[test]
fn correction_needs_a_marker_and_usually_a_value() {
    let cases = [
        ("아니 3명이야", true),
        ("아니요, 4명", true),
        ("정정할게요 2명", true),
        ("말고 강남역", true),
        ("3명 아니고 4명", true),
        ("actually 3 people", true),
        ("no, make it 4", true),
        ("I mean 1pm", true),
        ("correction: 2 people", true),
        ("wait, tomorrow not today", true),
        ("Itaewon instead", true),
        ("아니 근데 좋은 생각이다", false),
        ("아니 진짜 맛있겠다", false),
        ("I don't know", false),
        ("no", false),
        ("no thanks", false),
        ("not sure", false),
        ("아니면 뭐 먹지", false),
        ("3명", false),
        ("을지로, 2명, 12시 30분", false),
        ("품질뿐만 아니라 가격도", false),
        ("", false),
    ];
    for (text, want) in cases {
        assert_eq!(is_correction(text), want, "{text}");
    }
}

#[test]
fn format_reads_korean_and_english_names() {
    let cases = [
        ("마크다운으로", Some(Format::Markdown)),
        ("markdown please", Some(Format::Markdown)),
        ("표로 정리해줘", Some(Format::Table)),
        ("표로정리해줘", Some(Format::Table)),
        ("비교표 만들어줘", Some(Format::Table)),
        ("as a table", Some(Format::Table)),
        ("tabular summary", Some(Format::Table)),
        ("JSON으로 줘", Some(Format::Json)),
        ("output jsonl", Some(Format::Json)),
        ("파이썬으로 짜줘", Some(Format::Python)),
        ("a python script", Some(Format::Python)),
        ("코드로 보여줘", Some(Format::Code)),
        ("write a bash script", Some(Format::Code)),
        ("슬라이드 10장", Some(Format::Slides)),
        ("발표자료 만들어줘", Some(Format::Slides)),
        ("PPT로", Some(Format::Slides)),
        ("a pitch deck", Some(Format::Slides)),
        ("보고서 형식으로", Some(Format::Report)),
        ("주간보고서", Some(Format::Report)),
        ("리포트", Some(Format::Report)),
        ("기획서 써줘", Some(Format::Proposal)),
        ("제안서", Some(Format::Proposal)),
        ("a project proposal", Some(Format::Proposal)),
        ("CSV로 뽑아줘", Some(Format::Csv)),
        ("이메일 초안", Some(Format::Email)),
        ("메일로 써줘", Some(Format::Email)),
        ("draft an email", Some(Format::Email)),
        ("다이어그램", Some(Format::Diagram)),
        ("a flowchart of the process", Some(Format::Diagram)),
        ("순서도", Some(Format::Diagram)),
        ("매일 매출 데이터를 모아서 대시보드로 보여줘", Some(Format::Dashboard)),
        ("a live dashboard of our signups", Some(Format::Dashboard)),
        ("a dashboard with a chart per region", Some(Format::Dashboard)),
        ("엑셀로", Some(Format::Spreadsheet)),
        ("스프레드시트", Some(Format::Spreadsheet)),
        ("an Excel file", Some(Format::Spreadsheet)),
        ("update the README", Some(Format::Markdown)),
        ("코드 블록 포함해서 README 작성", Some(Format::Markdown)),
        ("회의록을 요약해서 슬랙으로 보내주는 자동화", Some(Format::Message)),
        ("우리 팀 주간 회의록을 정리해서 노션에 올리는 자동화를 만들고 싶어", Some(Format::Markdown)),
        ("사내 위키에 올릴 온보딩 가이드", Some(Format::Markdown)),
        ("Summarize our standups into a Notion page every Friday", Some(Format::Markdown)),
        ("post the release notes to Confluence", Some(Format::Markdown)),
        ("posts a daily digest of new bugs to our Notion wiki", Some(Format::Markdown)),
        ("keep the onboarding steps in the team wiki", Some(Format::Markdown)),
        // A format named beside the place it goes is what is made.
        ("노션에 붙여넣을 수 있게 마크다운 표로", Some(Format::Table)),
        ("weekly report 작성해서 금요일까지 Notion에 올려 주세요.", Some(Format::Report)),
        ("I have a notion of what I want: a weekly report", Some(Format::Report)),
        ("post the summary to Slack every Monday", Some(Format::Message)),
        ("카톡으로 알려줘", Some(Format::Message)),
        ("send me a text message when it is done", Some(Format::Message)),
        ("a Teams post for the channel", Some(Format::Message)),
        ("I want a chatbot that answers employee questions from our internal wiki", Some(Format::Message)),
        ("사내 위키 문서로 직원 질문에 답하는 챗봇을 만들고 싶어", Some(Format::Message)),
        ("summarize what our chatbot logged this week as a report", Some(Format::Report)),
        ("고객 문의 메일을 자동으로 분류해서 담당자한테 보내주는 거 만들 수 있을까?", Some(Format::Email)),
        ("forward support emails to the right team", Some(Format::Email)),
        ("summarize my emails every morning", None),
        (
            "Can you build something that reads our Jira tickets and writes release notes for each sprint?",
            Some(Format::Markdown),
        ),
        ("매 스프린트 릴리스 노트 자동 작성", Some(Format::Markdown)),
        ("블로그 글 초안 써주는 봇", Some(Format::Markdown)),
        ("write a blog post from our release notes every month", Some(Format::Markdown)),
        ("turn customer feedback into a weekly newsletter", Some(Format::Email)),
        ("summarize PDFs into one-page briefs", Some(Format::Report)),
        ("plan a weekly newsletter from our blog posts", Some(Format::Email)),
        // A newsletter in HTML is an email, no code to write.
        ("a weekly html newsletter", Some(Format::Email)),
        // What is read is not what is made.
        ("summarize our Slack threads into a report", Some(Format::Report)),
        ("슬랙 메시지를 요약해서 이메일로 보내줘", Some(Format::Email)),
        ("노션에 있는 회의록을 요약해서 슬랙으로 보내줘", Some(Format::Message)),
        ("summarize the notes in Notion into a Slack message", Some(Format::Message)),
        // A messenger's channel or room read from is not the output either.
        ("회사 슬랙 채널의 질문을 모아서 매주 FAQ 문서를 만들어 주는 도구가 필요해", None),
        ("카톡 단톡방에서 공지만 모아서 노션에 정리해 줘", Some(Format::Markdown)),
        ("디스코드 서버의 질문들을 요약해서 보고서로", Some(Format::Report)),
        ("슬랙 채널 메시지를 모아서 주간 보고서로 만들어 줘", Some(Format::Report)),
        ("슬랙 채널에 매일 아침 요약을 올려 줘", Some(Format::Message)),
        // Sent by email; the language is what the posts are about.
        ("I want a daily digest of Hacker News posts about Rust, emailed to me every morning", Some(Format::Email)),
        ("a weekly summary of articles on Python", None),
        ("it should send me an email digest every Monday with the price changes", Some(Format::Email)),
        ("summarize the news and email me a digest", Some(Format::Email)),
        ("a Rust script that renames my photos", Some(Format::Code)),
    ];
    for (text, want) in cases {
        assert_eq!(parse_format(text), want, "{text}");
    }
}

#[test]
fn format_ignores_look_alike_words() {
    let cases = [
        "표준 절차",
        "발표 준비",
        "대표 메뉴",
        "목표 설정",
        "투표하자",
        "표현이 어색해",
        "코드리뷰 도구 추천",
        "코드 리뷰 도구",
        "QR코드 메뉴판",
        "바코드",
        "쿠폰 코드 있어?",
        "메일 주소 알려줘",
        "email me if anything breaks",
        "send me an email when you're done",
        "book a table for 2",
        "table for two at 7",
        "a window table please",
        "zip code",
        "decode this",
        "dress code",
        "점심 먹자",
        "",
    ];
    for text in cases {
        assert_eq!(parse_format(text), None, "{text}");
    }
}

#[test]
fn format_prefers_the_most_specific_then_the_first() {
    let cases = [
        ("마크다운 표로", Format::Table),
        ("markdown table", Format::Table),
        ("파이썬 코드", Format::Python),
        ("CSV를 읽는 파이썬 스크립트", Format::Python),
        ("JSON report", Format::Json),
        ("표가 들어간 보고서", Format::Report),
        ("slides with a diagram", Format::Slides),
        ("엑셀 표", Format::Spreadsheet),
        ("PPT로 기획서", Format::Slides),
        ("보고서랑 이메일", Format::Report),
        ("an email and a report", Format::Email),
        ("표 말고 슬라이드로", Format::Slides),
        ("a table instead of a diagram", Format::Table),
        // An HTML email is an email; HTML alone is code.
        ("HTML email", Format::Email),
        ("an html page", Format::Code),
    ];
    for (text, want) in cases {
        assert_eq!(parse_format(text), Some(want), "{text}");
    }
}

#[test]
fn format_stated_as_the_output_wins_over_a_named_deliverable() {
    let cases = [
        ("weekly report on support tickets as a table", Some(Format::Table)),
        ("보고서를 표로 정리해줘", Some(Format::Table)),
        ("a weekly report with a table inside", Some(Format::Report)),
        ("회의록을 JSON 형식으로", Some(Format::Json)),
    ];
    for (text, want) in cases {
        assert_eq!(parse_format(text), want, "{text}");
    }
}

#[test]
fn format_labels_cover_every_format_in_both_languages() {
    assert_eq!(Format::all().len(), 14);
    for format in Format::all() {
        assert!(!format.label(Lang::Ko).is_empty());
        assert!(!format.label(Lang::En).is_empty());
    }
    assert_eq!(Format::Table.label(Lang::Ko), "표");
    assert_eq!(Format::Json.label(Lang::En), "JSON");
}

#[test]
fn slot_types_serialize_in_snake_case() {
    assert_eq!(serde_json::to_string(&DayRef::DayAfterTomorrow).ok().as_deref(), Some("\"day_after_tomorrow\""));
    assert_eq!(serde_json::to_string(&Format::Spreadsheet).ok().as_deref(), Some("\"spreadsheet\""));
    let value = when(Some(DayRef::Tomorrow), Some(12), 30, Some(Meal::Lunch));
    let json = serde_json::to_string(&value).unwrap_or_default();
    assert_eq!(serde_json::from_str::<When>(&json).ok(), Some(value));
    let friday = DayRef::Weekday { day: Weekday::Friday, next_week: true };
    let json = serde_json::to_string(&friday).unwrap_or_default();
    assert_eq!(json, r#"{"weekday":{"day":"friday","next_week":true}}"#);
    assert_eq!(serde_json::from_str::<DayRef>(&json).ok(), Some(friday));
}

#[test]
fn readers_never_panic_on_odd_input() {
    let mut inputs: Vec<String> = [
        "",
        " ",
        "\n\t",
        "시",
        "명",
        "분",
        "역",
        "에서",
        "근처",
        "말고",
        "12",
        "99999999999명",
        "1234567890시",
        "::::",
        "12:",
        ":30",
        "at",
        "for",
        "near",
        "in the",
        "quarter to",
        "half past",
        "ㅋㅋㅋㅋ",
        "🍜🍜 2명 🍣",
        "é",
        "İstanbul",
        "ß",
        "\u{0}",
        "a\u{301}",
        "１２：３０",
        "열열열열시",
        "두두두 명",
        "- - -",
        "'''",
        ",,,,",
        "을지로,,,,강남역",
        "near the the the",
        "x 말고",
        "말고",
        "아니",
        "no,",
        "\u{FEFF}취소",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // A deterministic pseudo-random mix of fragments.
    let fragments = [
        "12", "시", " ", "명", "반", "pm", ":", "근처", "에서", "near ", "표", "코드", "둘이", "열", "at ", "for ",
        "말고", "아니", "ㅠ", "🍜", "-", "'", ",",
    ];
    let mut seed: u64 = 0x5EED;
    for _ in 0..300 {
        let mut s = String::new();
        for _ in 0..(seed % 9) {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let index = usize::try_from((seed >> 33) % fragments.len() as u64).unwrap_or(0);
            s.push_str(fragments[index]);
        }
        seed = seed.wrapping_add(7);
        inputs.push(s);
    }
    inputs.push("을지로 2명 12시 ".repeat(60));
    for input in &inputs {
        let _ = read_when(input);
        let _ = parse_party_size(input);
        let _ = parse_place(input);
        let _ = parse_format(input);
        let _ = is_cancel(input);
        let _ = is_correction(input);
    }
}
