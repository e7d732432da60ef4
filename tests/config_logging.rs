//! Logging goes to the dated file (and only there), secrets stay redacted, and
//! the panic hook restores the terminal before it reports. One test: the
//! global subscriber and the panic hook can be installed once per process.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use kscope::conn::Secret;
use kscope::logging;

#[test]
fn lines_reach_the_dated_file_secrets_are_redacted_and_panics_restore_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let guard = logging::init_in(dir.path(), "debug").expect("logging starts");
    assert_eq!(guard.file, logging::log_file_in(dir.path()));

    let password = Secret::new("log-secret-value");
    tracing::info!(?password, "hello from the config test");
    tracing::trace!("below the level");

    let restored = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&restored);
    logging::install_panic_hook(
        move || seen.store(true, Ordering::SeqCst),
        Some(guard.file.clone()),
    );
    let outcome = std::panic::catch_unwind(|| panic!("boom in a test"));
    assert!(outcome.is_err());
    assert!(
        restored.load(Ordering::SeqCst),
        "the hook restored the terminal"
    );
    let _ = std::panic::take_hook();

    let file = guard.file.clone();
    drop(guard); // flushes the background writer
    let text = std::fs::read_to_string(&file).expect("log file");
    assert!(text.contains("hello from the config test"), "{text}");
    assert!(
        text.contains("panic: ") && text.contains("boom in a test"),
        "{text}"
    );
    assert!(!text.contains("below the level"), "{text}");
    assert!(!text.contains("log-secret-value"), "{text}");
    assert!(!text.contains('\u{1b}'), "no ANSI colours in the file");

    assert!(
        logging::init_in(dir.path(), "debug").is_err(),
        "a second start is an error, not a panic"
    );
    let bad = tempfile::tempdir().expect("tempdir");
    // (Checked before the subscriber: a bad filter is reported even now.)
    let error = logging::init_in(bad.path(), "kscope=loud").expect_err("bad filter");
    assert!(error.to_string().contains("kscope=loud"), "{error}");
}
