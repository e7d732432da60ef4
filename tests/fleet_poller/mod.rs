//! The running poller ([`fleet::Fleet`]) over the fleet test's config: it
//! publishes the healthy rows while the frozen context is still waiting out
//! its deadline, backs the frozen one off, and polls a "needs login"
//! context once it is handed settings.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use kscope::fleet::{self, FleetSettings, Health};

/// Wait until the poller publishes rows that `ready` accepts, for at most `within`.
async fn wait_for_rows(
    rows: &mut tokio::sync::watch::Receiver<fleet::FleetRows>,
    within: Duration,
    what: &str,
    ready: impl Fn(&[fleet::FleetRow]) -> bool,
) -> fleet::FleetRows {
    let started = Instant::now();
    loop {
        let snapshot = rows.borrow_and_update().clone();
        if ready(&snapshot) {
            return snapshot;
        }
        assert!(
            started.elapsed() < within,
            "no {what} after {within:?}: {snapshot:#?}"
        );
        let _ = tokio::time::timeout(Duration::from_millis(250), rows.changed()).await;
    }
}

fn find<'a>(rows: &'a [fleet::FleetRow], context: &str) -> &'a fleet::FleetRow {
    rows.iter()
        .find(|r| r.context == context)
        .unwrap_or_else(|| panic!("no row for '{context}'"))
}

/// The running poller publishes the healthy rows while the frozen context
/// is still waiting out its deadline; then the frozen one fails with its
/// backoff shown, and the healthy ones are polled again on their cadence.
pub fn the_poller_publishes_healthy_rows_before_the_frozen_one(config: &Path) {
    let settings = FleetSettings {
        interval: Duration::from_secs(2),
        poll_deadline: Duration::from_secs(4),
        ..FleetSettings::default()
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let loaded = kscope::config::load::load(Some(config)).expect("the config loads");
        let targets = fleet::targets(loaded, &kscope::config::Selection::default());
        let poller = fleet::Fleet::start(targets, settings);
        let mut rows = poller.subscribe();
        let healthy = |rows: &[fleet::FleetRow]| {
            ["three", "auth"]
                .iter()
                .all(|name| find(rows, name).health == Health::Ok)
        };
        let first = wait_for_rows(&mut rows, settings.poll_deadline, "healthy rows", healthy).await;
        assert_eq!(find(&first, "frozen").health, Health::Pending);
        let polled_first = find(&first, "three").polled_at_ms;
        let later = wait_for_rows(
            &mut rows,
            Duration::from_secs(15),
            "a failed frozen row and a second poll",
            |rows| {
                find(rows, "frozen").health == Health::Unreachable
                    && find(rows, "three").polled_at_ms > polled_first
            },
        )
        .await;
        let frozen = find(&later, "frozen");
        assert_eq!(
            frozen.error_kind,
            Some(fleet::Reason::TimedOut),
            "{frozen:?}"
        );
        assert_eq!(frozen.retry_in_ms, Some(4000), "{frozen:?}");
        assert_eq!(
            later[0].health,
            Health::Unreachable,
            "worst first: {later:?}"
        );
        assert!(healthy(&later), "{later:#?}");
        let login = find(&later, "login");
        assert_eq!(login.health, Health::NeedsLogin, "{login:?}");
        assert_eq!(login.retry_in_ms, None, "{login:?}");

        // Logging in (here: settings resolved without the prompt) polls it.
        let loaded = kscope::config::load::load(Some(config)).expect("the config loads");
        let selection = kscope::config::Selection {
            context: Some("three".to_owned()),
            ..kscope::config::Selection::default()
        };
        let mut resolved = kscope::config::resolve::resolve(&loaded, &selection).expect("resolves");
        "login".clone_into(&mut resolved.name);
        poller.logged_in(resolved);
        wait_for_rows(
            &mut rows,
            Duration::from_secs(10),
            "the login row",
            |rows| find(rows, "login").health == Health::Ok,
        )
        .await;
    });
    drop(runtime);
}
