//! Keys sealed with a passphrase, with the browser's real WebCrypto in headless Chromium:
//! round trip, wrong passphrase, what the stored record holds, a fresh IV per save, and a
//! damaged record kept and reported rather than dropped.

#![cfg(target_arch = "wasm32")]

use deliberate::store::keylock::{
    from_hex, load_record, remove_record, store_record, KeyLock, LockError, LockedKeys, RecordError, IV_LEN,
    LOCKED_KEYS_KEY, PBKDF2_ITERATIONS, SALT_LEN,
};
use deliberate::store::settings::StoredKeys;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PASSPHRASE: &str = "볼펜 여덟 개 correct horse";
const DESIGNER_KEY: &str = "sk-proj-Designer0123456789";
const CRITIC_KEY: &str = "sk-ant-Critic9876543210";

fn keys() -> StoredKeys {
    StoredKeys { designer: DESIGNER_KEY.into(), critic: CRITIC_KEY.into() }
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

#[wasm_bindgen_test]
async fn sealed_keys_open_with_the_passphrase_and_only_with_it() {
    let lock = KeyLock::new(PASSPHRASE).await.expect("a lock");
    let record = lock.seal(&keys()).await.expect("sealed");
    assert_eq!(record.iterations, PBKDF2_ITERATIONS, "the count is stored with the record");
    assert_eq!(from_hex(&record.salt).unwrap().len(), SALT_LEN);
    assert_eq!(from_hex(&record.iv).unwrap().len(), IV_LEN);
    // What is stored reads back, and the passphrase alone opens it (a new derivation).
    let stored = LockedKeys::parse(&record.encode()).expect("the record reads back");
    let (_, opened) = KeyLock::unlock(&stored, PASSPHRASE).await.expect("the right passphrase opens it");
    assert_eq!(opened, keys());
    for wrong in ["", "볼펜 여덟 개 correct hors", "볼펜 여덟 개 correct horse ", "BOLPEN"] {
        match KeyLock::unlock(&stored, wrong).await {
            Err(LockError::WrongPassphrase) => {}
            other => panic!("{wrong:?} gave {:?}", other.map(|(_, k)| k == keys())),
        }
    }
}

#[wasm_bindgen_test]
async fn the_stored_record_holds_neither_the_keys_nor_the_passphrase() {
    let lock = KeyLock::new(PASSPHRASE).await.unwrap();
    let record = lock.seal(&keys()).await.unwrap();
    store_record(&record).unwrap();
    let stored = storage().get_item(LOCKED_KEYS_KEY).unwrap().unwrap();
    let hex = |s: &str| deliberate::store::keylock::to_hex(s.as_bytes());
    for secret in [DESIGNER_KEY, CRITIC_KEY, PASSPHRASE, "sk-", "correct"] {
        assert!(!stored.contains(secret), "{secret} in {stored}");
        assert!(!stored.contains(&hex(secret)), "{secret} as hex in {stored}");
    }
    // Nothing else in this origin's storage holds them either.
    for i in 0..storage().length().unwrap() {
        let name = storage().key(i).unwrap().unwrap();
        let value = storage().get_item(&name).unwrap().unwrap_or_default();
        assert!(!value.contains(DESIGNER_KEY) && !value.contains(PASSPHRASE), "{name}");
    }
    assert_eq!(load_record(), Some(Ok(record)));
    remove_record().unwrap();
    assert_eq!(load_record(), None);
}

#[wasm_bindgen_test]
async fn every_save_uses_a_fresh_iv() {
    let lock = KeyLock::new(PASSPHRASE).await.unwrap();
    let mut ivs = Vec::new();
    let mut data = Vec::new();
    for _ in 0..4 {
        let record = lock.seal(&keys()).await.unwrap();
        assert_eq!(lock.open(&record).await.unwrap(), keys());
        ivs.push(record.iv);
        data.push(record.data);
    }
    ivs.sort();
    ivs.dedup();
    data.sort();
    data.dedup();
    assert_eq!((ivs.len(), data.len()), (4, 4), "same keys, same lock: four IVs, four ciphertexts");
    // A new lock for the same passphrase has a new salt.
    let other = KeyLock::new(PASSPHRASE).await.unwrap().seal(&keys()).await.unwrap();
    let first = lock.seal(&keys()).await.unwrap();
    assert_ne!(other.salt, first.salt);
}

#[wasm_bindgen_test]
async fn a_record_made_with_another_count_opens_with_its_own_count() {
    let lock = KeyLock::derive(PASSPHRASE, vec![7; SALT_LEN], 1_000).await.unwrap();
    let record = lock.seal(&keys()).await.unwrap();
    assert_eq!(record.iterations, 1_000);
    let (_, opened) = KeyLock::unlock(&record, PASSPHRASE).await.unwrap();
    assert_eq!(opened, keys());
    // The count is part of the derivation: the same salt at another count does not open it.
    let tampered = LockedKeys { iterations: 1_001, ..record };
    assert!(matches!(KeyLock::unlock(&tampered, PASSPHRASE).await, Err(LockError::WrongPassphrase)));
}

#[wasm_bindgen_test]
async fn a_damaged_record_is_reported_and_kept() {
    let lock = KeyLock::new(PASSPHRASE).await.unwrap();
    let good = lock.seal(&keys()).await.unwrap();
    let damaged = good.encode().replace("\"iv\":\"", "\"iv\":\"zz");
    storage().set_item(LOCKED_KEYS_KEY, &damaged).unwrap();
    assert!(matches!(load_record(), Some(Err(RecordError::Malformed(_)))));
    assert_eq!(storage().get_item(LOCKED_KEYS_KEY).unwrap(), Some(damaged), "reading does not drop it");
    // Flipped ciphertext fails the tag check: no garbage keys come out.
    let mut bytes = from_hex(&good.data).unwrap();
    bytes[0] ^= 1;
    let flipped = LockedKeys { data: deliberate::store::keylock::to_hex(&bytes), ..good };
    assert!(matches!(lock.open(&flipped).await, Err(LockError::WrongPassphrase)));
    remove_record().unwrap();
}
