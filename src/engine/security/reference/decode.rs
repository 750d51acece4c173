//! `decode` as it was before it was made faster (kept for the equivalence test).

/// Shortest run worth decoding, in characters.
const MIN_RUN: usize = 16;

/// Plain texts hidden in `raw` (the message as typed) or `folded` (normalized).
pub fn hidden_texts(raw: &str, folded: &str) -> Vec<String> {
    let mut out = Vec::new();
    for run in runs(raw, |c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '-' | '_')) {
        if run.chars().count() >= MIN_RUN {
            out.extend(base64(run).and_then(printable));
        }
    }
    for run in runs(raw, |c| c.is_ascii_hexdigit()) {
        if run.len() >= MIN_RUN && run.len() % 2 == 0 {
            let bytes: Option<Vec<u8>> =
                (0..run.len()).step_by(2).map(|i| u8::from_str_radix(&run[i..i + 2], 16).ok()).collect();
            out.extend(bytes.and_then(printable));
        }
    }
    let bits: Vec<u8> = raw
        .split_whitespace()
        .filter(|w| w.len() == 8 && w.bytes().all(|b| b == b'0' || b == b'1'))
        .filter_map(|w| u8::from_str_radix(w, 2).ok())
        .collect();
    if bits.len() >= 4 {
        out.extend(printable(bits));
    }
    if raw.contains('%') {
        out.extend(printable(percent(raw)));
    }
    if raw.contains("\\u") {
        out.push(unicode_escapes(raw));
    }
    out.push(folded.chars().rev().collect());
    if folded.chars().any(|c| c.is_ascii_alphabetic()) {
        out.push(folded.chars().map(rot13).collect());
    }
    out
}

/// Maximal runs of characters that satisfy `keep`.
fn runs(text: &str, keep: impl Fn(char) -> bool) -> impl Iterator<Item = &str> {
    text.split(move |c: char| !keep(c)).filter(|r| !r.is_empty())
}

/// Decoded bytes as text, when they are UTF-8 and nearly all printable.
fn printable(bytes: Vec<u8>) -> Option<String> {
    let text = String::from_utf8(bytes).ok()?;
    let total = text.chars().count();
    let shown = text.chars().filter(|c| !c.is_control() || c.is_whitespace()).count();
    (total >= 4 && shown * 10 >= total * 9).then_some(text)
}

/// Standard or URL-safe base64, padding optional.
fn base64(run: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(run.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in run.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// `%xx` escapes decoded; anything else kept as it is.
fn percent(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// `\uXXXX` escapes decoded; anything else kept as it is.
fn unicode_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        out.push_str(&rest[..at]);
        let code = rest.get(at + 2..at + 6).and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32);
        match code {
            Some(c) => {
                out.push(c);
                rest = &rest[at + 6..];
            }
            None => {
                out.push_str("\\u");
                rest = &rest[at + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Rotates a Latin letter by 13 places.
fn rot13(c: char) -> char {
    match c {
        'a'..='m' | 'A'..='M' => (c as u8 + 13) as char,
        'n'..='z' | 'N'..='Z' => (c as u8 - 13) as char,
        _ => c,
    }
}
