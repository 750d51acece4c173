//! The crisis check's patterns can be built ahead of the first message (the page does it
//! while the user types), so that the first counseling turn does not wait for them. Its own
//! test binary with one test: nothing else in this process checks a message before it.

use deliberate::engine::counsel::crisis;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[test]
fn prepare_builds_every_pattern_before_any_message_is_checked() {
    assert!(!crisis::prepared(), "nothing has built the patterns yet");
    crisis::prepare();
    assert!(crisis::prepared());
    // The prepared patterns are the ones the check uses.
    assert!(crisis::detect("it would be easier if I just didn't wake up").is_some());
    assert!(crisis::detect("that joke killed me").is_none());
}
