//! A small Markdown reader for model output. It produces a tree that the UI turns into
//! DOM nodes one by one, so nothing is ever inserted as HTML: raw HTML in the text stays
//! text, links are kept only for http, https and mailto, and images become a request to
//! load rather than an `<img>`.

/// A block of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Heading {
        level: u8,
        content: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    /// A list; `start` is set for ordered lists.
    List {
        start: Option<u64>,
        items: Vec<ListItem>,
    },
    Code {
        lang: String,
        text: String,
    },
    Quote(Vec<Block>),
    Table {
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
}

/// One list item: its text, and a checkbox state for task lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    pub checked: Option<bool>,
    pub content: Vec<Inline>,
}

/// Inline content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(Vec<Inline>),
    Emphasis(Vec<Inline>),
    /// A link with a safe URL.
    Link {
        href: String,
        content: Vec<Inline>,
    },
    /// An image, shown only when the user asks (its URL could carry data out).
    Image {
        src: String,
        alt: String,
    },
    LineBreak,
}

/// True for URLs a link may point to: http, https and mailto.
pub fn is_safe_url(url: &str) -> bool {
    safe_href(url).is_some()
}

/// The URL a link or image gets: without the control and space characters a browser would
/// drop or trip on (so what is checked is what the browser reads), and only when its scheme
/// is http, https or mailto; `None` otherwise.
pub fn safe_href(url: &str) -> Option<String> {
    let cleaned: String = url.chars().filter(|c| !c.is_control() && !c.is_whitespace()).collect();
    let lower = cleaned.to_ascii_lowercase();
    let allowed = lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("mailto:");
    allowed.then_some(cleaned)
}

/// Parses Markdown into blocks. Never panics; anything it does not understand is text.
pub fn parse(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    parse_lines(&lines)
}

fn parse_lines(lines: &[&str]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut i = 0;
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            let joined = paragraph.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n");
            blocks.push(Block::Paragraph(parse_inline(joined.trim())));
            paragraph.clear();
        }
    };
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            flush(&mut paragraph, &mut blocks);
            i += 1;
            continue;
        }
        if let Some(fence) = trimmed.strip_prefix("```").or_else(|| trimmed.strip_prefix("~~~")) {
            flush(&mut paragraph, &mut blocks);
            let marker = &trimmed[..3];
            let lang = fence.trim().to_string();
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with(marker) {
                body.push(lines[i]);
                i += 1;
            }
            i += 1;
            blocks.push(Block::Code { lang, text: body.join("\n") });
            continue;
        }
        if let Some((level, rest)) = heading(trimmed) {
            flush(&mut paragraph, &mut blocks);
            blocks.push(Block::Heading { level, content: parse_inline(rest) });
            i += 1;
            continue;
        }
        if is_rule(trimmed) {
            flush(&mut paragraph, &mut blocks);
            blocks.push(Block::Rule);
            i += 1;
            continue;
        }
        if trimmed.starts_with('>') {
            flush(&mut paragraph, &mut blocks);
            let mut inner = Vec::new();
            while i < lines.len() && lines[i].trim_start().starts_with('>') {
                let l = lines[i].trim_start();
                inner.push(l.strip_prefix("> ").or_else(|| l.strip_prefix('>')).unwrap_or(l));
                i += 1;
            }
            blocks.push(Block::Quote(parse_lines(&inner)));
            continue;
        }
        if trimmed.starts_with('|') && i + 1 < lines.len() && is_table_separator(lines[i + 1]) {
            flush(&mut paragraph, &mut blocks);
            let header = table_cells(trimmed);
            let mut rows = Vec::new();
            i += 2;
            while i < lines.len() && lines[i].trim_start().starts_with('|') {
                rows.push(table_cells(lines[i].trim()));
                i += 1;
            }
            blocks.push(Block::Table { header, rows });
            continue;
        }
        if let Some((start, _)) = list_marker(trimmed) {
            flush(&mut paragraph, &mut blocks);
            let ordered = start.is_some();
            let mut items = Vec::new();
            while i < lines.len() {
                let l = lines[i].trim_start();
                match list_marker(l) {
                    Some((s, rest)) if s.is_some() == ordered => {
                        let (checked, rest) = task_box(rest);
                        items.push(ListItem { checked, content: parse_inline(rest.trim()) });
                        i += 1;
                    }
                    // A continuation line indented under the item joins it.
                    None if !l.is_empty() && lines[i].starts_with("  ") && !items.is_empty() => {
                        if let Some(last) = items.last_mut() {
                            last.content.push(Inline::LineBreak);
                            last.content.extend(parse_inline(l.trim()));
                        }
                        i += 1;
                    }
                    _ => break,
                }
            }
            blocks.push(Block::List { start, items });
            continue;
        }
        paragraph.push(line);
        i += 1;
    }
    flush(&mut paragraph, &mut blocks);
    blocks
}

fn heading(line: &str) -> Option<(u8, &str)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&level) {
        let rest = &line[level..];
        if rest.is_empty() || rest.starts_with(' ') {
            return Some((level as u8, rest.trim().trim_end_matches('#').trim()));
        }
    }
    None
}

fn is_rule(line: &str) -> bool {
    let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    compact.len() >= 3
        && (compact.chars().all(|c| c == '-') || compact.chars().all(|c| c == '*') || compact.chars().all(|c| c == '_'))
}

fn is_table_separator(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.contains('-') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

fn table_cells(line: &str) -> Vec<Vec<Inline>> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|cell| parse_inline(cell.trim())).collect()
}

/// The list marker of a line: (Some(number) for ordered, None for bullets), and the rest.
fn list_marker(line: &str) -> Option<(Option<u64>, &str)> {
    for bullet in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(bullet) {
            return Some((None, rest));
        }
    }
    let digits = line.chars().take_while(|c| c.is_ascii_digit()).count();
    if (1..=9).contains(&digits) {
        let rest = &line[digits..];
        if let Some(rest) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some((line[..digits].parse().ok(), rest));
        }
    }
    None
}

fn task_box(rest: &str) -> (Option<bool>, &str) {
    if let Some(r) = rest.strip_prefix("[ ] ") {
        (Some(false), r)
    } else if let Some(r) = rest.strip_prefix("[x] ").or_else(|| rest.strip_prefix("[X] ")) {
        (Some(true), r)
    } else {
        (None, rest)
    }
}

/// Parses inline markup: code spans, strong, emphasis, links, images, line breaks.
pub fn parse_inline(text: &str) -> Vec<Inline> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut buf = String::new();
    let mut i = 0;
    let push_text = |buf: &mut String, out: &mut Vec<Inline>| {
        if !buf.is_empty() {
            out.push(Inline::Text(std::mem::take(buf)));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                buf.push(chars[i + 1]);
                i += 2;
            }
            '\n' => {
                push_text(&mut buf, &mut out);
                out.push(Inline::LineBreak);
                i += 1;
            }
            '`' => match find(&chars, i + 1, &['`']) {
                Some(end) => {
                    push_text(&mut buf, &mut out);
                    out.push(Inline::Code(chars[i + 1..end].iter().collect()));
                    i = end + 1;
                }
                None => {
                    buf.push(c);
                    i += 1;
                }
            },
            '*' | '_' if i + 1 < chars.len() && chars[i + 1] == c => match find(&chars, i + 2, &[c, c]) {
                Some(end) if end > i + 2 => {
                    push_text(&mut buf, &mut out);
                    let inner: String = chars[i + 2..end].iter().collect();
                    out.push(Inline::Strong(parse_inline(&inner)));
                    i = end + 2;
                }
                _ => {
                    buf.push(c);
                    buf.push(c);
                    i += 2;
                }
            },
            '*' | '_' => {
                // `_` inside a word (snake_case) is not emphasis.
                let inside_word = c == '_' && i > 0 && chars[i - 1].is_alphanumeric();
                match find(&chars, i + 1, &[c]) {
                    Some(end) if end > i + 1 && !inside_word && !chars[i + 1].is_whitespace() => {
                        push_text(&mut buf, &mut out);
                        let inner: String = chars[i + 1..end].iter().collect();
                        out.push(Inline::Emphasis(parse_inline(&inner)));
                        i = end + 1;
                    }
                    _ => {
                        buf.push(c);
                        i += 1;
                    }
                }
            }
            '!' if i + 1 < chars.len() && chars[i + 1] == '[' => match link_at(&chars, i + 1) {
                Some((label, url, end)) => {
                    push_text(&mut buf, &mut out);
                    // The page's policy loads images over https only: a plain-http image
                    // becomes a link the user may open, anything else its text.
                    match safe_href(&url) {
                        Some(src) if src.to_ascii_lowercase().starts_with("https://") => {
                            out.push(Inline::Image { src, alt: label })
                        }
                        Some(href) if href.to_ascii_lowercase().starts_with("http://") => {
                            out.push(Inline::Link { href, content: vec![Inline::Text(label)] })
                        }
                        _ => out.push(Inline::Text(label)),
                    }
                    i = end;
                }
                None => {
                    buf.push(c);
                    i += 1;
                }
            },
            '[' => match link_at(&chars, i) {
                Some((label, url, end)) => {
                    push_text(&mut buf, &mut out);
                    let content = parse_inline(&label);
                    match safe_href(&url) {
                        Some(href) => out.push(Inline::Link { href, content }),
                        None => out.extend(content),
                    }
                    i = end;
                }
                None => {
                    buf.push(c);
                    i += 1;
                }
            },
            _ => {
                buf.push(c);
                i += 1;
            }
        }
    }
    push_text(&mut buf, &mut out);
    out
}

/// Index of the first occurrence of `pattern` at or after `from`.
fn find(chars: &[char], from: usize, pattern: &[char]) -> Option<usize> {
    if pattern.is_empty() || from >= chars.len() {
        return None;
    }
    (from..=chars.len().saturating_sub(pattern.len())).find(|&j| chars[j..j + pattern.len()] == *pattern)
}

/// A `[label](url)` starting at `start`: label, url and the index after it.
fn link_at(chars: &[char], start: usize) -> Option<(String, String, usize)> {
    let close = find(chars, start + 1, &[']'])?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    // The URL ends at the ")" that balances the opening one: "(javascript:alert(1))".
    let mut depth = 0usize;
    let mut end = None;
    for (j, c) in chars.iter().enumerate().skip(close + 2) {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                end = Some(j);
                break;
            }
            ')' => depth -= 1,
            _ => {}
        }
    }
    let end = end?;
    let label: String = chars[start + 1..close].iter().collect();
    let url: String = chars[close + 2..end].iter().collect();
    let url = url.split_whitespace().next().unwrap_or("").to_string();
    Some((label, url, end + 1))
}

/// All text of inline content, without markup.
pub fn plain_text(inlines: &[Inline]) -> String {
    let mut out = String::new();
    for inline in inlines {
        match inline {
            Inline::Text(t) | Inline::Code(t) => out.push_str(t),
            Inline::Strong(c) | Inline::Emphasis(c) | Inline::Link { content: c, .. } => out.push_str(&plain_text(c)),
            Inline::Image { alt, .. } => out.push_str(alt),
            Inline::LineBreak => out.push('\n'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn text(s: &str) -> Inline {
        Inline::Text(s.into())
    }

    #[test]
    fn reads_the_blocks_plans_use() {
        let md = "# Plan\n\nIntro **bold** and `code`.\n\n1. first\n2. second\n\n- [ ] todo\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```rust\nlet x = 1;\n```\n\n> quoted\n\n---";
        let blocks = parse(md);
        assert_eq!(blocks[0], Block::Heading { level: 1, content: vec![text("Plan")] });
        assert_eq!(
            blocks[1],
            Block::Paragraph(vec![
                text("Intro "),
                Inline::Strong(vec![text("bold")]),
                text(" and "),
                Inline::Code("code".into()),
                text(".")
            ])
        );
        assert!(matches!(&blocks[2], Block::List { start: Some(1), items } if items.len() == 2));
        assert!(
            matches!(&blocks[3], Block::List { start: None, items } if items[0].checked == Some(false) && items[1].checked == Some(true))
        );
        assert!(matches!(&blocks[4], Block::Table { header, rows } if header.len() == 2 && rows.len() == 1));
        assert_eq!(blocks[5], Block::Code { lang: "rust".into(), text: "let x = 1;".into() });
        assert!(matches!(&blocks[6], Block::Quote(inner) if inner.len() == 1));
        assert_eq!(blocks[7], Block::Rule);
    }

    #[test]
    fn raw_html_stays_text() {
        let blocks = parse("<script>alert(1)</script> <img src=x onerror=alert(1)>");
        assert_eq!(
            blocks,
            vec![Block::Paragraph(vec![text("<script>alert(1)</script> <img src=x onerror=alert(1)>")])]
        );
    }

    #[test]
    fn only_http_https_and_mailto_links_survive() {
        let cases = [
            ("[a](https://example.com)", true),
            ("[a](http://example.com/x?y=1)", true),
            ("[a](mailto:me@example.com)", true),
            ("[a](javascript:alert(1))", false),
            ("[a](JaVaScRiPt:alert(1))", false),
            ("[a](java\tscript:alert(1))", false),
            ("[a](data:text/html;base64,PHNjcmlwdD4=)", false),
            ("[a](vbscript:x)", false),
            ("[a](//evil.com)", false),
        ];
        for (md, kept) in cases {
            let inlines = parse_inline(md);
            let is_link = matches!(inlines.first(), Some(Inline::Link { .. }));
            assert_eq!(is_link, kept, "{md}");
            assert_eq!(plain_text(&inlines), "a", "{md}: the label is kept as text");
        }
    }

    /// Every way model output may try to smuggle script through the reader: nothing comes
    /// out but text, and links and images whose URL is http, https or mailto (images: not
    /// mailto), free of control characters. The browser test renders the same kinds of payload.
    #[test]
    fn xss_payloads_come_out_as_text_or_safe_links() {
        let payloads = [
            "<script>window.__xss=1</script>",
            "<img src=x onerror=window.__xss=1>",
            "<svg onload=window.__xss=1>",
            "<math><mtext><img src=x onerror=window.__xss=1></mtext></math>",
            "<iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe>",
            "[a](javascript:window.__xss=1)",
            "[a](JaVaScRiPt:window.__xss=1)",
            "[a](&#106;avascript:window.__xss=1)",
            "[a](&#x6A;avascript&colon;window.__xss=1)",
            "[a](java\tscript:window.__xss=1)",
            "[a](java\u{0}script:window.__xss=1)",
            "[a]( javascript:window.__xss=1)",
            "[a](\u{1}javascript:window.__xss=1)",
            "[a](data:text/html,<script>window.__xss=1</script>)",
            "[a](DATA:text/html;base64,PHNjcmlwdD4=)",
            "[a](vbscript:msgbox)",
            "[a](file:///etc/passwd)",
            "[a](//evil.example/x)",
            "[a](h\u{1}ttps://evil.example)",
            "![a](javascript:window.__xss=1)",
            "![a](data:image/svg+xml,<svg onload=window.__xss=1>)",
            "![a](mailto:x@example.com)",
            "![a](https://x.example/a.png\" onerror=\"window.__xss=1)",
            "[a][r]\n\n[r]: javascript:window.__xss=1",
            "<javascript:window.__xss=1>",
            "<https://example.com>",
            "[![a](https://x.example/i.png)](javascript:window.__xss=1)",
            "[a](https://example.com \"title\" onclick=\"window.__xss=1\")",
        ];
        fn check(inlines: &[Inline], md: &str) {
            for inline in inlines {
                match inline {
                    Inline::Link { href, content } => {
                        let lower = href.to_ascii_lowercase();
                        assert!(
                            ["https://", "http://", "mailto:"].iter().any(|p| lower.starts_with(p)),
                            "{md}: link {href}"
                        );
                        assert!(!href.chars().any(|c| c.is_control() || c.is_whitespace()), "{md}: {href:?}");
                        check(content, md);
                    }
                    Inline::Image { src, .. } => {
                        let lower = src.to_ascii_lowercase();
                        assert!(lower.starts_with("https://"), "{md}: image {src}");
                        assert!(!src.chars().any(|c| c.is_control() || c.is_whitespace()), "{md}: {src:?}");
                    }
                    Inline::Strong(c) | Inline::Emphasis(c) => check(c, md),
                    Inline::Text(_) | Inline::Code(_) | Inline::LineBreak => {}
                }
            }
        }
        fn walk(blocks: &[Block], md: &str) {
            for block in blocks {
                match block {
                    Block::Heading { content, .. } | Block::Paragraph(content) => check(content, md),
                    Block::List { items, .. } => items.iter().for_each(|i| check(&i.content, md)),
                    Block::Quote(inner) => walk(inner, md),
                    Block::Table { header, rows } => {
                        header.iter().for_each(|c| check(c, md));
                        rows.iter().flatten().for_each(|c| check(c, md));
                    }
                    Block::Code { .. } | Block::Rule => {}
                }
            }
        }
        for md in payloads {
            walk(&parse(md), md);
        }
        // The control character the browser would have read past is gone from the link.
        assert_eq!(
            parse_inline("[a](h\u{1}ttps://evil.example)"),
            vec![Inline::Link { href: "https://evil.example".into(), content: vec![text("a")] }]
        );
        // A safe link keeps its URL as written.
        assert_eq!(
            parse_inline("[a](https://example.com/A?b=C#d)"),
            vec![Inline::Link { href: "https://example.com/A?b=C#d".into(), content: vec![text("a")] }]
        );
    }

    #[test]
    fn images_need_a_safe_url_and_are_not_links() {
        assert_eq!(
            parse_inline("![cat](https://x.test/c.png)"),
            vec![Inline::Image { src: "https://x.test/c.png".into(), alt: "cat".into() }]
        );
        assert_eq!(parse_inline("![x](javascript:alert(1))"), vec![text("x")]);
        assert_eq!(parse_inline("![x](data:image/svg+xml,<svg onload=alert(1)>)"), vec![text("x")]);
        assert_eq!(parse_inline("![x](mailto:me@example.com)"), vec![text("x")]);
        // The page's policy would refuse a plain-http image: it is offered as a link.
        assert_eq!(
            parse_inline("![cat](http://x.test/c.png)"),
            vec![Inline::Link { href: "http://x.test/c.png".into(), content: vec![text("cat")] }]
        );
    }

    #[test]
    fn odd_input_never_panics() {
        for md in [
            "**",
            "*",
            "`",
            "[",
            "[x](",
            "![",
            "| a |\n|-",
            "```",
            "> ",
            "1.",
            "#######",
            "_a_b_",
            "\\",
            "가*나*다",
            "**굵게**",
        ] {
            let _ = parse(md);
        }
        assert_eq!(parse_inline("snake_case_name"), vec![text("snake_case_name")]);
        assert_eq!(parse_inline("**굵게**"), vec![Inline::Strong(vec![text("굵게")])]);
    }
}
