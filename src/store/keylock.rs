//! Remembered API keys sealed with a passphrase: the stored record (versioned JSON, hex
//! fields), and in the browser the sealing itself with WebCrypto: PBKDF2-HMAC-SHA256 turns
//! the passphrase and a random 16-byte salt into an AES-GCM 256 key, and every save
//! encrypts with a fresh random 12-byte IV. The record keeps the iteration count, so a
//! later version can raise it and still open the records made before. The
//! passphrase itself is never stored or kept: only the derived, non-extractable key lives
//! in memory for the visit.

use serde::{Deserialize, Serialize};

use crate::engine::lang::Lang;

/// The record format this version writes and reads.
pub const RECORD_VERSION: u32 = 1;
/// PBKDF2 iterations for new records (OWASP's current figure for PBKDF2-HMAC-SHA256).
pub const PBKDF2_ITERATIONS: u32 = 600_000;
/// The only key derivation this version knows.
pub const KDF: &str = "PBKDF2-SHA256";
/// Salt length in bytes.
pub const SALT_LEN: usize = 16;
/// AES-GCM IV length in bytes.
pub const IV_LEN: usize = 12;
/// AES-GCM appends a 16-byte tag: shorter data cannot be a sealed text.
const TAG_LEN: usize = 16;
/// More iterations than this would make an unlock hang: such a record is malformed.
const MAX_ITERATIONS: u32 = 50_000_000;

/// Where the sealed record is kept in localStorage.
pub const LOCKED_KEYS_KEY: &str = "deliberate.llm.keys.locked";

/// The stored record: everything needed to unlock, nothing secret in the clear.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedKeys {
    /// The record format (`RECORD_VERSION`).
    pub v: u32,
    /// The key derivation (`KDF`).
    pub kdf: String,
    /// PBKDF2 iterations used for this record.
    pub iterations: u32,
    /// The PBKDF2 salt, hex.
    pub salt: String,
    /// The AES-GCM IV, hex.
    pub iv: String,
    /// The AES-GCM ciphertext with its tag, hex.
    pub data: String,
}

/// Why a stored record cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// Not the JSON of a record (nor of any version's).
    NotJson,
    /// Written by a newer version of the app.
    NewerVersion { found: u32 },
    /// A record whose fields are wrong (bad hex, lengths, derivation or count).
    Malformed(&'static str),
}

impl RecordError {
    /// What to tell the user; the record is kept until they forget it.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (RecordError::NewerVersion { found }, Lang::Ko) => format!(
                "저장된 암호화 키는 더 새로운 Deliberate(형식 {found})가 만든 것이라 여기서 열 수 없습니다. 지우기 전까지 그대로 둡니다."
            ),
            (RecordError::NewerVersion { found }, Lang::En) => format!(
                "The saved encrypted keys were made by a newer Deliberate (format {found}) and cannot be opened here. They stay until you forget them."
            ),
            (_, Lang::Ko) => "저장된 암호화 키를 읽을 수 없습니다(기록이 손상됨). 지우기 전까지 그대로 둡니다.".to_string(),
            (_, Lang::En) => {
                "The saved encrypted keys cannot be read (the record is damaged). They stay until you forget them."
                    .to_string()
            }
        }
    }
}

impl LockedKeys {
    /// Reads a stored record; never panics, and says what is wrong.
    pub fn parse(text: &str) -> Result<LockedKeys, RecordError> {
        let record: LockedKeys = serde_json::from_str(text).map_err(|_| {
            // Say "newer" when the version says so, whatever the newer fields are.
            #[derive(Deserialize)]
            struct Version {
                v: u32,
            }
            match serde_json::from_str::<Version>(text) {
                Ok(Version { v }) if v > RECORD_VERSION => RecordError::NewerVersion { found: v },
                Ok(_) => RecordError::Malformed("fields"),
                Err(_) => RecordError::NotJson,
            }
        })?;
        if record.v > RECORD_VERSION {
            return Err(RecordError::NewerVersion { found: record.v });
        }
        if record.v != RECORD_VERSION {
            return Err(RecordError::Malformed("version"));
        }
        if record.kdf != KDF {
            return Err(RecordError::Malformed("derivation"));
        }
        if record.iterations == 0 || record.iterations > MAX_ITERATIONS {
            return Err(RecordError::Malformed("iterations"));
        }
        let len = |hex: &str| from_hex(hex).map(|b| b.len()).ok_or(RecordError::Malformed("hex"));
        if len(&record.salt)? != SALT_LEN || len(&record.iv)? != IV_LEN || len(&record.data)? < TAG_LEN {
            return Err(RecordError::Malformed("lengths"));
        }
        Ok(record)
    }

    /// The record as stored.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Lower-case hex of `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// The bytes of a hex text (either case), or None when it is not hex.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let bytes = text.as_bytes();
    if bytes.len() % 2 != 0 {
        return None;
    }
    bytes.chunks(2).map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?)).collect()
}

/// Why sealing or unlocking failed. No variant carries a key, a passphrase or a browser
/// message (which could quote either).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockError {
    /// The passphrase does not open the record (AES-GCM's tag does not match).
    WrongPassphrase,
    /// The record cannot be read.
    Record(RecordError),
    /// The page has no WebCrypto (it is not served over https or from this computer).
    NoWebCrypto,
    /// WebCrypto refused an operation.
    Crypto,
    /// The browser refused to store or remove the record.
    Storage,
}

impl LockError {
    /// What to tell the user, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let text = match self {
            LockError::Record(e) => return e.message(lang),
            LockError::WrongPassphrase => lang.pick(
                "암호가 맞지 않습니다. 저장된 키는 그대로이니 다시 입력해 보세요.",
                "That passphrase does not open the saved keys. Nothing was changed; try again.",
            ),
            LockError::NoWebCrypto => lang.pick(
                "이 페이지에서는 브라우저 암호화(WebCrypto)를 쓸 수 없습니다. https나 이 컴퓨터(localhost)에서 열어 주세요.",
                "This page cannot use the browser's encryption (WebCrypto): open it over https or from this computer (localhost).",
            ),
            LockError::Crypto => {
                lang.pick("브라우저가 암호화 작업을 거부했습니다.", "The browser refused the encryption step.")
            }
            LockError::Storage => lang.pick(
                "브라우저가 키 저장(또는 삭제)을 거부했습니다.",
                "The browser refused to store (or remove) the keys.",
            ),
        };
        text.to_string()
    }
}

impl From<RecordError> for LockError {
    fn from(e: RecordError) -> Self {
        LockError::Record(e)
    }
}

#[cfg(target_arch = "wasm32")]
pub use browser::*;

#[cfg(target_arch = "wasm32")]
mod browser {
    use js_sys::{Array, Object, Reflect, Uint8Array};
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{CryptoKey, SubtleCrypto};

    use super::*;
    use crate::store::settings::StoredKeys;

    fn crypto() -> Result<web_sys::Crypto, LockError> {
        web_sys::window().and_then(|w| w.crypto().ok()).ok_or(LockError::NoWebCrypto)
    }

    fn subtle() -> Result<SubtleCrypto, LockError> {
        let crypto = crypto()?;
        // `crypto.subtle` is undefined outside secure contexts.
        let subtle = Reflect::get(&crypto, &"subtle".into()).map_err(|_| LockError::NoWebCrypto)?;
        if subtle.is_undefined() || subtle.is_null() {
            return Err(LockError::NoWebCrypto);
        }
        Ok(subtle.unchecked_into())
    }

    /// `n` bytes from the browser's cryptographic random source.
    pub fn random_bytes(n: usize) -> Result<Vec<u8>, LockError> {
        let mut out = vec![0u8; n];
        crypto()?.get_random_values_with_u8_array(&mut out).map_err(|_| LockError::Crypto)?;
        Ok(out)
    }

    fn object(fields: &[(&str, &JsValue)]) -> Object {
        let out = Object::new();
        for (name, value) in fields {
            let _ = Reflect::set(&out, &(*name).into(), value);
        }
        out
    }

    async fn settle(promise: Result<js_sys::Promise, JsValue>) -> Result<JsValue, JsValue> {
        JsFuture::from(promise?).await
    }

    /// A passphrase-derived AES-GCM key for the visit, with the salt and count it came from.
    #[derive(Clone)]
    pub struct KeyLock {
        key: CryptoKey,
        salt: Vec<u8>,
        iterations: u32,
    }

    impl KeyLock {
        /// A new lock for `passphrase`: a fresh salt, the current iteration count.
        pub async fn new(passphrase: &str) -> Result<KeyLock, LockError> {
            let salt = random_bytes(SALT_LEN)?;
            Self::derive(passphrase, salt, PBKDF2_ITERATIONS).await
        }

        /// Derives the AES-GCM key (not extractable) from `passphrase`.
        pub async fn derive(passphrase: &str, salt: Vec<u8>, iterations: u32) -> Result<KeyLock, LockError> {
            let subtle = subtle()?;
            let raw = Uint8Array::from(passphrase.as_bytes());
            let usages = Array::of1(&"deriveKey".into());
            let base = settle(subtle.import_key_with_str("raw", &raw, "PBKDF2", false, &usages))
                .await
                .map_err(|_| LockError::Crypto)?;
            raw.fill(0, 0, raw.length());
            let params = object(&[
                ("name", &"PBKDF2".into()),
                ("hash", &"SHA-256".into()),
                ("iterations", &iterations.into()),
                ("salt", &Uint8Array::from(salt.as_slice()).into()),
            ]);
            let target = object(&[("name", &"AES-GCM".into()), ("length", &256.into())]);
            let usages = Array::of2(&"encrypt".into(), &"decrypt".into());
            let key = settle(subtle.derive_key_with_object_and_object(
                &params,
                base.unchecked_ref(),
                &target,
                false,
                &usages,
            ))
            .await
            .map_err(|_| LockError::Crypto)?;
            Ok(KeyLock { key: key.unchecked_into(), salt, iterations })
        }

        /// Seals `keys` with a fresh random IV.
        pub async fn seal(&self, keys: &StoredKeys) -> Result<LockedKeys, LockError> {
            let iv = random_bytes(IV_LEN)?;
            let mut plain = serde_json::to_string(keys).map_err(|_| LockError::Crypto)?.into_bytes();
            let params = object(&[("name", &"AES-GCM".into()), ("iv", &Uint8Array::from(iv.as_slice()).into())]);
            let sealed = settle(subtle()?.encrypt_with_object_and_u8_array(&params, &self.key, &plain)).await;
            plain.iter_mut().for_each(|b| *b = 0);
            let sealed = sealed.map_err(|_| LockError::Crypto)?;
            Ok(LockedKeys {
                v: RECORD_VERSION,
                kdf: KDF.to_string(),
                iterations: self.iterations,
                salt: to_hex(&self.salt),
                iv: to_hex(&iv),
                data: to_hex(&js_sys::Uint8Array::new(&sealed).to_vec()),
            })
        }

        /// Opens `record` with this lock's key.
        pub async fn open(&self, record: &LockedKeys) -> Result<StoredKeys, LockError> {
            let bad = || LockError::Record(RecordError::Malformed("hex"));
            let iv = from_hex(&record.iv).ok_or_else(bad)?;
            let data = from_hex(&record.data).ok_or_else(bad)?;
            let params = object(&[("name", &"AES-GCM".into()), ("iv", &Uint8Array::from(iv.as_slice()).into())]);
            // A wrong key fails the tag check: WebCrypto rejects with an OperationError.
            let plain = settle(subtle()?.decrypt_with_object_and_u8_array(&params, &self.key, &data))
                .await
                .map_err(|_| LockError::WrongPassphrase)?;
            let mut plain = js_sys::Uint8Array::new(&plain).to_vec();
            // `from_str`, not `from_slice`: the app reads all its JSON from text, and a second
            // reader would add its own copy of the parser to the wasm.
            let keys = std::str::from_utf8(&plain).ok().and_then(|text| serde_json::from_str::<StoredKeys>(text).ok());
            plain.iter_mut().for_each(|b| *b = 0);
            keys.ok_or(LockError::Record(RecordError::Malformed("content")))
        }

        /// Derives the key `record` was sealed with from `passphrase`, and opens it.
        pub async fn unlock(record: &LockedKeys, passphrase: &str) -> Result<(KeyLock, StoredKeys), LockError> {
            let salt = from_hex(&record.salt).ok_or(LockError::Record(RecordError::Malformed("hex")))?;
            let lock = KeyLock::derive(passphrase, salt, record.iterations).await?;
            let keys = lock.open(record).await?;
            Ok((lock, keys))
        }
    }

    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok().flatten()
    }

    /// The stored record: None when there is none, an error when it cannot be read (it
    /// stays stored).
    pub fn load_record() -> Option<Result<LockedKeys, RecordError>> {
        let text = storage()?.get_item(LOCKED_KEYS_KEY).ok().flatten()?;
        Some(LockedKeys::parse(&text))
    }

    /// Stores `record` in place of any earlier one.
    pub fn store_record(record: &LockedKeys) -> Result<(), LockError> {
        let s = storage().ok_or(LockError::Storage)?;
        s.set_item(LOCKED_KEYS_KEY, &record.encode()).map_err(|_| LockError::Storage)
    }

    /// Removes the stored record (if any).
    pub fn remove_record() -> Result<(), LockError> {
        let s = storage().ok_or(LockError::Storage)?;
        s.remove_item(LOCKED_KEYS_KEY).map_err(|_| LockError::Storage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn good() -> LockedKeys {
        LockedKeys {
            v: 1,
            kdf: KDF.into(),
            iterations: PBKDF2_ITERATIONS,
            salt: "00".repeat(SALT_LEN),
            iv: "ab".repeat(IV_LEN),
            data: "cd".repeat(40),
        }
    }

    #[test]
    fn hex_round_trips_and_rejects_what_is_not_hex() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(from_hex(&to_hex(&bytes)), Some(bytes));
        assert_eq!(to_hex(&[0x0f, 0xa0]), "0fa0");
        for (text, want) in
            [("", Some(vec![])), ("0A", Some(vec![10])), ("abc", None), ("zz", None), ("한국", None), ("+1", None)]
        {
            assert_eq!(from_hex(text), want, "{text:?}");
        }
    }

    #[test]
    fn a_good_record_parses_and_encodes_back() {
        let r = good();
        assert_eq!(LockedKeys::parse(&r.encode()), Ok(r.clone()));
        let older = LockedKeys { iterations: 100_000, ..r };
        assert_eq!(LockedKeys::parse(&older.encode()), Ok(older), "a record made with another count still reads");
    }

    #[test]
    fn malformed_records_are_errors_not_silence() {
        let with = |f: &dyn Fn(&mut LockedKeys)| {
            let mut r = good();
            f(&mut r);
            r.encode()
        };
        let cases: Vec<(String, RecordError)> = vec![
            ("{not json".into(), RecordError::NotJson),
            ("[]".into(), RecordError::NotJson),
            (r#"{"v":9,"cipher":"new"}"#.into(), RecordError::NewerVersion { found: 9 }),
            (r#"{"v":1}"#.into(), RecordError::Malformed("fields")),
            (with(&|r| r.v = 7), RecordError::NewerVersion { found: 7 }),
            (with(&|r| r.v = 0), RecordError::Malformed("version")),
            (with(&|r| r.kdf = "scrypt".into()), RecordError::Malformed("derivation")),
            (with(&|r| r.iterations = 0), RecordError::Malformed("iterations")),
            (with(&|r| r.iterations = u32::MAX), RecordError::Malformed("iterations")),
            (with(&|r| r.salt = "00".repeat(8)), RecordError::Malformed("lengths")),
            (with(&|r| r.iv = "xyz".into()), RecordError::Malformed("hex")),
            (with(&|r| r.data = "00".repeat(15)), RecordError::Malformed("lengths")),
        ];
        for (text, want) in cases {
            assert_eq!(LockedKeys::parse(&text), Err(want), "{text}");
        }
    }

    #[test]
    fn every_error_has_a_message_in_both_languages() {
        let errors = [
            LockError::WrongPassphrase,
            LockError::Record(RecordError::NotJson),
            LockError::Record(RecordError::NewerVersion { found: 3 }),
            LockError::NoWebCrypto,
            LockError::Crypto,
            LockError::Storage,
        ];
        for e in errors {
            let (ko, en) = (e.message(Lang::Ko), e.message(Lang::En));
            assert!(!ko.is_empty() && !en.is_empty() && ko != en, "{e:?}");
            assert!(ko.chars().any(|c| ('가'..='힣').contains(&c)), "{ko}");
        }
        assert!(LockError::WrongPassphrase.message(Lang::En).contains("try again"));
        assert!(RecordError::NewerVersion { found: 3 }.message(Lang::En).contains("format 3"));
    }
}
