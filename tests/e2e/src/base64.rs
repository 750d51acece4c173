//! Standard base64 (RFC 4648, with padding) decoding, for WebDriver screenshots.

use std::fmt;

/// Why a text is not valid base64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base64Error(pub String);

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid base64: {}", self.0)
    }
}

impl std::error::Error for Base64Error {}

fn sextet(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some((c - b'A') as u32),
        b'a'..=b'z' => Some((c - b'a') as u32 + 26),
        b'0'..=b'9' => Some((c - b'0') as u32 + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes standard base64; ASCII whitespace is ignored, padding is optional.
pub fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let unpadded = {
        let pad = clean.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && !clean.len().is_multiple_of(4)) {
            return Err(Base64Error("bad padding".into()));
        }
        &clean[..clean.len() - pad]
    };
    if unpadded.len() % 4 == 1 {
        return Err(Base64Error("length leaves a lone character".into()));
    }
    let mut out = Vec::with_capacity(unpadded.len() * 3 / 4);
    for group in unpadded.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in group.iter().enumerate() {
            let v = sextet(c).ok_or_else(|| Base64Error(format!("unexpected character {:?}", c as char)))?;
            acc |= v << (18 - 6 * i);
        }
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        out.extend_from_slice(&bytes[..group.len() - 1]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_rfc_4648_test_vectors() {
        let cases = [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
            ("Zm9vYg", "foob"),
            ("Zm9v\nYmFy\r\n", "foobar"),
        ];
        for (encoded, plain) in cases {
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes(), "{encoded:?}");
        }
    }

    #[test]
    fn decodes_binary_including_plus_and_slash() {
        assert_eq!(decode("iVBORw0KGgo=").unwrap(), b"\x89PNG\r\n\x1a\n");
        assert_eq!(decode("+/8=").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("7Zek66eI").unwrap(), "헤마".as_bytes());
    }

    #[test]
    fn rejects_invalid_input() {
        for bad in ["Zm9v!", "Z", "Zg===", "Zg=x", "=Zg="] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
    }
}
