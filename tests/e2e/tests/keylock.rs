//! Keys sealed with a passphrase, end to end against the release build and the mock LLM:
//! set a key with a passphrase in Settings, reload, see the unlock prompt (the app works
//! meanwhile), a wrong passphrase, unlock, use the key, save again (a fresh IV), forget.
//! Neither the key nor the passphrase reaches storage, exports, the console, URLs or the
//! page text; axe finds nothing serious on the prompt or the dialog.

use deliberate_e2e::app::{AppPage, STEP};
use deliberate_e2e::axe::{audit, axe_source};
use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing};
use serde_json::{json, Value};

const KEY: &str = "deliberate-e2e-sealed-key-7131";
const PASSPHRASE: &str = "e2e passphrase 볼펜";
const WRONG: &str = "e2e passphrase wrong";
const ENTER: &str = "\u{E007}";

fn local_storage(page: &AppPage) -> Value {
    page.browser.execute("return Object.assign({}, localStorage);", vec![]).unwrap()
}

fn locked_record(page: &AppPage) -> Option<Value> {
    local_storage(page)
        .get("deliberate.llm.keys.locked")
        .and_then(|v| v.as_str())
        .map(|text| serde_json::from_str(text).expect("the record is JSON"))
}

/// Neither secret anywhere in storage, and no key stored in the clear.
fn assert_nothing_secret_stored(page: &AppPage) {
    let stored = local_storage(page).to_string();
    assert!(!stored.contains(KEY), "the key is stored: {stored}");
    assert!(!stored.contains(PASSPHRASE) && !stored.contains("볼펜"), "the passphrase is stored: {stored}");
    assert!(local_storage(page).get("deliberate.llm.keys").is_none(), "no keys in the clear: {stored}");
}

fn assert_axe_clean(page: &AppPage, state: &str) {
    let found = audit(&page.browser, &axe_source()).expect("axe runs");
    let blocking: Vec<String> = found.iter().filter(|v| v.is_blocking()).map(|v| v.describe()).collect();
    assert!(blocking.is_empty(), "{state}: {blocking:?}");
}

fn wait_gone(page: &AppPage, css: &str) {
    page.browser.wait_for(STEP, &format!("{css} gone"), |b| Ok(b.try_find(css)?.is_none().then_some(()))).unwrap();
}

fn open_settings(page: &AppPage) {
    page.browser.find(".settings-button").unwrap().click().unwrap();
    page.browser.wait_for_element(".dialog.settings", STEP).unwrap();
}

#[test]
fn a_key_sealed_with_a_passphrase_is_unlocked_once_per_visit_used_and_forgotten() {
    let mock = MockLlm::start(MockConfig { port: 0, api_key: Some(KEY.into()), pacing: Pacing::default() }).unwrap();
    // OpenAI needs a key: without one the top bar says the LLM is not set up.
    let settings = json!({
        "enabled": true,
        "designer": { "kind": "openai", "base_url": mock.base_url(), "model": "mock-small" },
        "separate_critic": false,
        "critic": { "kind": "openai", "base_url": mock.base_url(), "model": "mock-small" },
        "remember_keys": false,
        "timeout_secs": 10
    });
    let page = AppPage::open_with_llm("en-US", &settings, &json!({})).expect("the page opens");
    assert!(page.browser.try_find(".unlock-prompt").unwrap().is_none(), "nothing sealed: no prompt");

    // Settings: the key, remembered, with a passphrase. A mismatched confirmation is refused.
    open_settings(&page);
    page.browser.find("#designer-key").unwrap().send_keys(KEY).unwrap();
    page.browser.find("#remember-keys").unwrap().click().unwrap();
    page.browser.wait_for_element("#passphrase-lock", STEP).unwrap().click().unwrap();
    page.browser.wait_for_element("#passphrase", STEP).unwrap().send_keys(PASSPHRASE).unwrap();
    page.browser.find("#passphrase-confirm").unwrap().send_keys(WRONG).unwrap();
    assert_axe_clean(&page, "settings with the passphrase fields");
    page.screenshot("keylock-settings").unwrap();
    page.browser.find("#settings-save").unwrap().click().unwrap();
    page.browser.wait_for_text(".dialog.settings .error", "differ", STEP).unwrap();
    assert!(locked_record(&page).is_none(), "nothing stored on a refused save");
    // Enter in the confirmation saves.
    let confirm = page.browser.find("#passphrase-confirm").unwrap();
    confirm.clear().unwrap();
    confirm.send_keys(PASSPHRASE).unwrap();
    confirm.send_keys(ENTER).unwrap();
    wait_gone(&page, ".dialog.settings");
    page.browser.wait_for_text(".status-chip", "mock-small", STEP).unwrap();
    let first = locked_record(&page).expect("the sealed record is stored");
    assert_eq!((first["v"].as_u64(), first["iterations"].as_u64()), (Some(1), Some(600_000)), "{first}");
    assert_nothing_secret_stored(&page);

    // A reload: the prompt asks once, and the app works without the key meanwhile.
    page.browser.refresh().unwrap();
    page.browser.wait_for_element(".unlock-prompt", STEP).unwrap();
    let chip = page.browser.find(".status-chip").unwrap().text().unwrap();
    assert!(chip.contains("not set up"), "locked keys are not in use: {chip}");
    assert!(page.browser.find("#composer-input").unwrap().is_enabled().unwrap(), "the composer is usable");
    assert_axe_clean(&page, "the unlock prompt");

    // A wrong passphrase: a clear error, nothing lost, and the field is there to try again.
    let field = page.browser.find("#prompt-unlock-passphrase").unwrap();
    field.send_keys(WRONG).unwrap();
    field.send_keys(ENTER).unwrap();
    let error = page.browser.wait_for_text(".unlock-prompt .error", "does not open", STEP).unwrap();
    assert!(!error.contains(WRONG) && !error.contains(PASSPHRASE), "{error}");
    assert_eq!(locked_record(&page).as_ref(), Some(&first), "a wrong passphrase changes nothing");
    assert_axe_clean(&page, "the unlock prompt with its error");
    page.screenshot("keylock-prompt").unwrap();

    // The right one (Enter submits): the prompt goes, the key is in use for the visit.
    let field = page.browser.find("#prompt-unlock-passphrase").unwrap();
    field.clear().unwrap();
    field.send_keys(PASSPHRASE).unwrap();
    field.send_keys(ENTER).unwrap();
    wait_gone(&page, ".unlock-prompt");
    page.browser.wait_for_text(".status-chip", "mock-small", STEP).unwrap();
    page.browser.wait_for_text("#keys-status", "unlocked", STEP).unwrap();
    page.send("Build a daily IT news digest as a Markdown document").unwrap();
    page.wait_stage("DEBATE").unwrap();
    assert!(page.browser.try_find(".alert-error").unwrap().is_none(), "no call was refused");
    let requests = mock.requests();
    assert!(!requests.is_empty());
    for r in &requests {
        assert_eq!((r.status, r.has_auth), (Some(200), true), "{:?} {}", r.role, r.path);
        assert!(!r.body.to_string().contains(KEY) && !r.body.to_string().contains(PASSPHRASE));
    }

    // Exports, URLs, the page and the console hold neither secret.
    let exports = page.export_both().unwrap();
    assert_eq!(exports.len(), 2, "JSON and Markdown");
    let urls = page
        .browser
        .execute("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);", vec![])
        .unwrap()
        .to_string();
    let console = page.console_messages().unwrap().join("\n");
    let text = page.browser.page_text().unwrap();
    for (what, haystack) in [("export", exports.join("\n")), ("URL", urls), ("console", console), ("page", text)] {
        assert!(!haystack.contains(KEY), "the key in a {what}");
        assert!(!haystack.contains(PASSPHRASE), "the passphrase in a {what}");
    }
    page.wait_saved().unwrap();
    let saved = serde_json::to_string(&page.stored("events").unwrap()).unwrap();
    assert!(!saved.contains(KEY) && !saved.contains(PASSPHRASE), "the saved conversation holds a secret");

    // Saving the settings again seals again with the passphrase of this visit: a new IV.
    open_settings(&page);
    let hint = page.browser.find("#passphrase-hint").unwrap().text().unwrap();
    assert!(hint.contains("Leave empty"), "{hint}");
    page.browser.find("#settings-save").unwrap().click().unwrap();
    wait_gone(&page, ".dialog.settings");
    let second = locked_record(&page).expect("still sealed");
    assert_eq!(second["salt"], first["salt"], "same passphrase, same derived key");
    assert_ne!(second["iv"], first["iv"], "a fresh IV on every save");
    assert_nothing_secret_stored(&page);

    // Forget, from the prompt of the next visit, after a confirmation.
    page.browser.refresh().unwrap();
    page.browser.wait_for_element(".unlock-prompt", STEP).unwrap();
    page.browser.find("#prompt-forget").unwrap().click().unwrap();
    page.browser.wait_for_element("#prompt-forget-yes", STEP).unwrap();
    assert!(locked_record(&page).is_some(), "asking is not forgetting");
    assert_axe_clean(&page, "the forget confirmation");
    page.browser.find("#prompt-forget-yes").unwrap().click().unwrap();
    wait_gone(&page, ".unlock-prompt");
    assert!(locked_record(&page).is_none(), "the record is removed");
    assert_nothing_secret_stored(&page);
    let stored_settings: Value =
        serde_json::from_str(local_storage(&page)["deliberate.llm"].as_str().unwrap()).unwrap();
    assert_eq!(stored_settings["remember_keys"], json!(false), "keys are no longer remembered");
    page.browser.refresh().unwrap();
    page.browser.wait_for_element("#composer-input", STEP).unwrap();
    assert!(page.browser.try_find(".unlock-prompt").unwrap().is_none(), "nothing left to unlock");
    page.assert_no_panic();
}

/// Types `passphrase` twice in the open Settings dialog and saves with Enter.
fn save_with_passphrase(page: &AppPage, passphrase: &str) {
    page.browser.wait_for_element("#passphrase", STEP).unwrap().send_keys(passphrase).unwrap();
    let confirm = page.browser.find("#passphrase-confirm").unwrap();
    confirm.send_keys(passphrase).unwrap();
    confirm.send_keys(ENTER).unwrap();
    wait_gone(page, ".dialog.settings");
}

/// Reloads and unlocks with `passphrase` from the prompt.
fn reload_and_unlock(page: &AppPage, passphrase: &str) {
    page.browser.refresh().unwrap();
    let field = page.browser.wait_for_element("#prompt-unlock-passphrase", STEP).unwrap();
    field.send_keys(passphrase).unwrap();
    field.send_keys(ENTER).unwrap();
    wait_gone(page, ".unlock-prompt");
}

#[test]
fn changing_the_passphrase_seals_again_and_removing_it_stores_the_key_in_the_clear() {
    let settings = json!({
        "enabled": true,
        "designer": { "kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "mock-small" },
        "separate_critic": false,
        "critic": { "kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "mock-small" },
        "remember_keys": true,
        "passphrase_lock": true,
        "timeout_secs": 10
    });
    let page = AppPage::open_with_llm("en-US", &settings, &json!({})).expect("the page opens");
    open_settings(&page);
    page.browser.find("#designer-key").unwrap().send_keys(KEY).unwrap();
    // Ticked with no passphrase: refused, with the reason.
    page.browser.find("#settings-save").unwrap().click().unwrap();
    page.browser.wait_for_text(".dialog.settings .error", "Enter a passphrase", STEP).unwrap();
    // Too short: refused too.
    page.browser.find("#passphrase").unwrap().send_keys("short").unwrap();
    page.browser.find("#passphrase-confirm").unwrap().send_keys("short").unwrap();
    page.browser.find("#settings-save").unwrap().click().unwrap();
    page.browser.wait_for_text(".dialog.settings .error", "at least 8", STEP).unwrap();
    page.browser.find("#passphrase").unwrap().clear().unwrap();
    page.browser.find("#passphrase-confirm").unwrap().clear().unwrap();
    save_with_passphrase(&page, PASSPHRASE);
    let first = locked_record(&page).expect("sealed");

    // A new passphrase: a new salt; the old one no longer opens the keys, the new one does.
    const NEW: &str = "a second passphrase";
    open_settings(&page);
    save_with_passphrase(&page, NEW);
    let second = locked_record(&page).expect("still sealed");
    assert_ne!(second["salt"], first["salt"], "a new passphrase gets a new salt");
    assert_nothing_secret_stored(&page);
    assert!(!local_storage(&page).to_string().contains(NEW));
    page.browser.refresh().unwrap();
    let field = page.browser.wait_for_element("#prompt-unlock-passphrase", STEP).unwrap();
    field.send_keys(PASSPHRASE).unwrap();
    field.send_keys(ENTER).unwrap();
    page.browser.wait_for_text(".unlock-prompt .error", "does not open", STEP).unwrap();
    reload_and_unlock(&page, NEW);
    page.browser.wait_for_text(".status-chip", "mock-small", STEP).unwrap();

    // No passphrase any more: the record goes and the key is kept in the clear, as the note says.
    open_settings(&page);
    page.browser.find("#passphrase-lock").unwrap().click().unwrap();
    page.browser.find("#settings-save").unwrap().click().unwrap();
    wait_gone(&page, ".dialog.settings");
    assert!(locked_record(&page).is_none(), "the sealed record is removed");
    let plain = local_storage(&page)["deliberate.llm.keys"].as_str().unwrap_or_default().to_string();
    assert!(plain.contains(KEY), "kept in the clear: {plain}");
    page.browser.refresh().unwrap();
    page.browser.wait_for_text(".status-chip", "mock-small", STEP).unwrap();
    assert!(page.browser.try_find(".unlock-prompt").unwrap().is_none(), "nothing to unlock");
    page.assert_no_panic();
}

#[test]
fn a_damaged_record_is_reported_kept_and_can_be_forgotten_from_settings() {
    let page = AppPage::open("ko-KR").expect("the page opens");
    page.browser
        .execute("localStorage.setItem('deliberate.llm.keys.locked', '{\"v\":1,\"kdf\":\"x\"}'); return true;", vec![])
        .unwrap();
    page.browser.refresh().unwrap();
    let text = page.browser.wait_for_text(".unlock-prompt .error", "읽을 수 없습니다", STEP).unwrap();
    assert!(text.contains("그대로 둡니다"), "{text}");
    assert!(locked_record(&page).is_some(), "kept, not dropped");
    // "Not now" puts the prompt away for this visit; Settings still offers to forget.
    page.click_text(".unlock-prompt .button", "나중에").unwrap();
    wait_gone(&page, ".unlock-prompt");
    open_settings(&page);
    page.browser.find("#settings-forget").unwrap().click().unwrap();
    page.browser.wait_for_element("#settings-forget-yes", STEP).unwrap().click().unwrap();
    page.browser.wait_for(STEP, "the record removed", |_| Ok(locked_record(&page).is_none().then_some(()))).unwrap();
    page.assert_no_panic();
}
