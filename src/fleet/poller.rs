//! Running the polls: [`Fleet`], a tokio task polling every context on its
//! own cadence and publishing the rows through a `watch` channel, and
//! [`poll_all`], every context once, for the CLI.
//!
//! Both bound the polls running at once by one semaphore, and a poll's
//! deadline starts when it gets its permit, so a hung context costs one
//! permit for one deadline and never holds back another context's row.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

use crate::config::resolve::ResolvedContext;
#[cfg(test)]
use crate::config::resolve::Selection;

use super::error::Error;
use super::probe::{self, ContextState};
use super::row::{FleetRow, Health, by_severity};
use super::settings::FleetSettings;
use super::target::FleetTarget;

/// The rows as published: every context, worst first, ages as of publishing.
pub type FleetRows = Arc<[FleetRow]>;

/// How long a "needs login" context waits for [`Fleet::logged_in`] (or
/// [`Fleet::poll_now`]) before it is tried again: a year, far enough to be
/// never and near enough not to overflow an `Instant`.
const UNTIL_LOGGED_IN: Duration = Duration::from_hours(24 * 365);

/// What a screen can ask of a running [`Fleet`].
#[derive(Debug)]
enum Command {
    /// Poll every context that is not polling now, at once.
    PollNow,
    /// The user logged in to a context interactively: poll it with these
    /// settings from now on.
    LoggedIn(Box<ResolvedContext>),
}

/// A running fleet poller. Dropping it stops the polling.
#[derive(Debug)]
pub struct Fleet {
    rows: watch::Receiver<FleetRows>,
    commands: mpsc::Sender<Command>,
    task: JoinHandle<()>,
}

impl Fleet {
    /// Start polling `targets` on the current tokio runtime. The first rows
    /// (all pending) are published at once; each poll's answer republishes.
    pub fn start(targets: Vec<FleetTarget>, settings: FleetSettings) -> Fleet {
        let states: Vec<ContextState> = targets.into_iter().map(ContextState::new).collect();
        let (tx, rows) = watch::channel(publishable(&states));
        let (commands, rx) = mpsc::channel(16);
        let task = tokio::spawn(run(states, settings, tx, rx));
        Fleet {
            rows,
            commands,
            task,
        }
    }

    /// A receiver of the rows: `borrow()` for the latest, `changed()` to
    /// wait for the next.
    pub fn subscribe(&self) -> watch::Receiver<FleetRows> {
        self.rows.clone()
    }

    /// Poll every idle context now instead of at its time.
    pub fn poll_now(&self) {
        let _ = self.commands.try_send(Command::PollNow);
    }

    /// Hand over a context's settings resolved interactively (a password
    /// typed at a prompt): a "needs login" context is polled from now on.
    pub fn logged_in(&self, resolved: ResolvedContext) {
        let _ = self
            .commands
            .try_send(Command::LoggedIn(Box::new(resolved)));
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The rows of `states`, sorted worst first, aged now.
fn publishable(states: &[ContextState]) -> FleetRows {
    let now = std::time::Instant::now();
    let mut rows: Vec<FleetRow> = states.iter().map(|s| s.row.clone().aged(now)).collect();
    rows.sort_by(by_severity);
    rows.into()
}

/// One context's slot in the running poller: its state while idle (taken
/// by the poll that runs it), when it is due, and settings handed over by
/// [`Fleet::logged_in`] for its next poll.
struct Slot {
    name: String,
    state: Option<ContextState>,
    due: Instant,
    login: Option<ResolvedContext>,
}

async fn run(
    states: Vec<ContextState>,
    settings: FleetSettings,
    tx: watch::Sender<FleetRows>,
    mut commands: mpsc::Receiver<Command>,
) {
    let keep = states.len() <= settings.keep_connections_up_to;
    let permits = Arc::new(Semaphore::new(settings.concurrency.max(1)));
    let now = Instant::now();
    let mut slots: Vec<Slot> = states
        .into_iter()
        .map(|state| Slot {
            name: state.target.name.clone(),
            state: Some(state),
            due: now,
            login: None,
        })
        .collect();
    let mut polls: JoinSet<(usize, ContextState)> = JoinSet::new();
    let contexts = u32::try_from(slots.len()).unwrap_or(u32::MAX);
    loop {
        let now = Instant::now();
        for (index, slot) in slots.iter_mut().enumerate() {
            if slot.due <= now
                && let Some(mut state) = slot.state.take()
            {
                if let Some(login) = slot.login.take() {
                    state.resolved = Some(login);
                    state.cluster = None;
                }
                let permits = Arc::clone(&permits);
                polls.spawn(async move {
                    // The semaphore is never closed.
                    let _permit = permits.acquire_owned().await;
                    Box::pin(probe::poll(&mut state, &settings, keep)).await;
                    (index, state)
                });
            }
        }
        let next = slots
            .iter()
            .filter(|s| s.state.is_some())
            .map(|s| s.due)
            .min()
            .unwrap_or_else(|| now + settings.max_backoff);
        tokio::select! {
            Some(Ok((index, state))) = polls.join_next() => {
                let wait = if state.row.health == Health::NeedsLogin {
                    UNTIL_LOGGED_IN
                } else {
                    settings
                        .next_wait(state.row.failures)
                        .max(settings.paced(state.row.partitions.unwrap_or(0), contexts))
                };
                if let Some(slot) = slots.get_mut(index) {
                    let wait = if slot.login.is_some() { Duration::ZERO } else { wait };
                    slot.due = Instant::now() + wait;
                    slot.state = Some(state);
                }
                publish(&tx, &slots);
            }
            command = commands.recv() => match command {
                None => return,
                Some(Command::PollNow) => slots.iter_mut().for_each(|s| s.due = Instant::now()),
                Some(Command::LoggedIn(resolved)) => logged_in(&mut slots, *resolved),
            },
            () = tokio::time::sleep_until(next) => {}
        }
    }
}

/// Publish every idle slot's row and the last row of those polling.
fn publish(tx: &watch::Sender<FleetRows>, slots: &[Slot]) {
    let now = std::time::Instant::now();
    tx.send_modify(|published| {
        let mut rows: Vec<FleetRow> = published.to_vec();
        for state in slots.iter().filter_map(|s| s.state.as_ref()) {
            match rows.iter_mut().find(|r| r.context == state.row.context) {
                Some(row) => *row = state.row.clone(),
                None => rows.push(state.row.clone()),
            }
        }
        let mut rows: Vec<FleetRow> = rows.into_iter().map(|r| r.aged(now)).collect();
        rows.sort_by(by_severity);
        *published = rows.into();
    });
}

/// Keep `resolved` for its context's next poll, and make that poll now
/// (or as soon as the one running ends). A context the fleet resolved on
/// its own (no password command asked) keeps its settings and its
/// connections: the session's `:ctx` to it changes nothing here.
fn logged_in(slots: &mut [Slot], resolved: ResolvedContext) {
    let own = |slot: &Slot| slot.state.as_ref().is_some_and(|s| s.resolved.is_some());
    if let Some(slot) = slots
        .iter_mut()
        .find(|s| s.name == resolved.name && !own(s))
    {
        slot.login = Some(resolved);
        slot.due = Instant::now();
    }
}

/// Poll every target once, at most `settings.concurrency` at a time, and
/// return every row worst first by `overall`: a context still polling then
/// is a timed-out row.
pub async fn poll_all(
    targets: Vec<FleetTarget>,
    settings: FleetSettings,
    overall: Duration,
) -> Vec<FleetRow> {
    let names: Vec<String> = targets.iter().map(|t| t.name.clone()).collect();
    let permits = Arc::new(Semaphore::new(settings.concurrency.max(1)));
    let mut polls = JoinSet::new();
    for target in targets {
        let permits = Arc::clone(&permits);
        polls.spawn(async move {
            let _permit = permits.acquire_owned().await;
            let mut state = ContextState::new(target);
            Box::pin(probe::poll(&mut state, &settings, false)).await;
            // Polled once: there is no next try to announce.
            state.row.retry_in_ms = None;
            state.row
        });
    }
    let mut rows: Vec<FleetRow> = Vec::with_capacity(names.len());
    let deadline = Instant::now() + overall;
    while let Ok(Some(joined)) = tokio::time::timeout_at(deadline, polls.join_next()).await {
        if let Ok(row) = joined {
            rows.push(row);
        }
    }
    polls.abort_all();
    for name in names {
        if !rows.iter().any(|r| r.context == name) {
            let mut row = FleetRow::pending(&name);
            row.fail(&Error::Deadline {
                context: name,
                after: overall,
            });
            rows.push(row);
        }
    }
    let now = std::time::Instant::now();
    let mut rows: Vec<FleetRow> = rows.into_iter().map(|r| r.aged(now)).collect();
    rows.sort_by(by_severity);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    use crate::config::LoadedConfig;
    use crate::config::load::parse;
    use crate::fleet::{Reason, targets};

    /// A config whose contexts are `(name, address)`.
    fn config(contexts: &[(&str, String)]) -> LoadedConfig {
        let mut text = String::new();
        for (name, address) in contexts {
            let _ = writeln!(
                text,
                "[contexts.{name}]\nbootstrap_servers = [\"{address}\"]"
            );
        }
        let file = parse(std::path::Path::new("fleet.toml"), &text).expect("parses");
        LoadedConfig {
            text,
            file,
            ..LoadedConfig::default()
        }
    }

    /// A port that accepts connections and never answers (a hung broker).
    async fn hung() -> (String, JoinHandle<()>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("address").to_string();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                held.push(socket);
            }
        });
        (address, task)
    }

    async fn refused() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        listener.local_addr().expect("address").to_string()
    }

    fn settings(concurrency: usize, deadline: Duration) -> FleetSettings {
        FleetSettings {
            concurrency,
            poll_deadline: deadline,
            ..FleetSettings::default()
        }
    }

    /// Wait until the poller publishes rows `ready` accepts (15 s at most).
    async fn wait_for(
        rows: &mut watch::Receiver<FleetRows>,
        what: &str,
        ready: impl Fn(&FleetRow) -> bool,
    ) -> FleetRow {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let latest = rows.borrow_and_update().clone();
            if let Some(row) = latest.iter().find(|r| ready(r)) {
                return row.clone();
            }
            assert!(Instant::now() < deadline, "no {what}: {latest:#?}");
            let _ = tokio::time::timeout(Duration::from_millis(100), rows.changed()).await;
        }
    }

    #[tokio::test]
    async fn a_context_whose_command_needs_a_terminal_waits_for_its_login_then_is_polled() {
        let gone = refused().await;
        let text = format!(
            "[contexts.login]\nbootstrap_servers = [\"{gone}\"]\n\
             [contexts.login.sasl]\nmechanism = \"PLAIN\"\nusername = \"u\"\n\
             password_command = \"read -r pw </dev/tty && echo $pw\"\n\
             [contexts.plain]\nbootstrap_servers = [\"{gone}\"]\n"
        );
        let file = parse(std::path::Path::new("fleet.toml"), &text).expect("parses");
        let loaded = LoadedConfig {
            text,
            file,
            ..LoadedConfig::default()
        };
        let selection = Selection {
            context: Some("plain".to_owned()),
            ..Selection::default()
        };
        let mut handed = crate::config::resolve::resolve(&loaded, &selection).expect("resolves");
        "login".clone_into(&mut handed.name);
        let settings = FleetSettings {
            interval: Duration::from_millis(100),
            max_backoff: Duration::from_millis(200),
            // Long enough for the metadata layer's retries of a refused
            // bootstrap to give up first.
            poll_deadline: Duration::from_secs(3),
            ..FleetSettings::default()
        };
        let started = Instant::now();
        let fleet = Fleet::start(targets(loaded, &Selection::default()), settings);
        let mut rows = fleet.subscribe();
        // Without a terminal the command cannot prompt: needs login, at once
        // (no terminal to wait on), and no retry is announced.
        let login = wait_for(&mut rows, "a needs-login row", |r| {
            r.context == "login" && r.health == Health::NeedsLogin
        })
        .await;
        assert!(started.elapsed() < Duration::from_secs(2), "{login:?}");
        assert_eq!(login.error_kind, Some(Reason::NeedsLogin));
        assert_eq!((login.failures, login.retry_in_ms), (1, None), "{login:?}");
        // The refusing context is retried on its cadence meanwhile; the
        // login row is not.
        wait_for(&mut rows, "a retried plain row", |r| {
            r.context == "plain" && r.failures >= 2
        })
        .await;
        let latest = rows.borrow().clone();
        let login = latest.iter().find(|r| r.context == "login").expect("row");
        assert_eq!(login.failures, 1, "not polled again: {login:?}");
        // Logged in: polled with the handed settings (a refused port, here),
        // and from then on on its cadence like any other.
        fleet.logged_in(handed);
        let polled = wait_for(&mut rows, "the login row polled", |r| {
            r.context == "login" && r.error_kind == Some(Reason::Refused)
        })
        .await;
        assert_eq!(polled.health, Health::Unreachable, "{polled:?}");
        assert!(polled.retry_in_ms.is_some(), "{polled:?}");
        wait_for(&mut rows, "the login row retried", |r| {
            r.context == "login" && r.failures >= polled.failures + 2
        })
        .await;
    }

    #[tokio::test]
    async fn a_hung_context_costs_one_deadline_and_holds_no_other_row_back() {
        let (one, _a) = hung().await;
        let (two, _b) = hung().await;
        let gone = refused().await;
        let loaded = config(&[("hung-1", one), ("hung-2", two), ("gone", gone)]);
        let started = Instant::now();
        let rows = poll_all(
            targets(loaded, &Selection::default()),
            // Long enough for the metadata layer's retries of a refused
            // bootstrap to give up first.
            settings(8, Duration::from_secs(3)),
            Duration::from_secs(10),
        )
        .await;
        // Concurrently: one deadline for all three, not three.
        let took = started.elapsed();
        assert!(took < Duration::from_millis(4500), "{took:?}");
        let kinds: Vec<(&str, Option<Reason>)> = rows
            .iter()
            .map(|r| (r.context.as_str(), r.error_kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("gone", Some(Reason::Refused)),
                ("hung-1", Some(Reason::TimedOut)),
                ("hung-2", Some(Reason::TimedOut)),
            ]
        );
        assert!(rows.iter().all(|r| r.retry_in_ms.is_none()));
    }

    #[tokio::test]
    async fn polls_run_no_more_than_the_bound_at_once_and_the_overall_deadline_holds() {
        let (one, _a) = hung().await;
        let (two, _b) = hung().await;
        let loaded = config(&[("hung-1", one), ("hung-2", two)]);
        let started = Instant::now();
        let rows = poll_all(
            targets(loaded, &Selection::default()),
            settings(1, Duration::from_millis(400)),
            Duration::from_millis(600),
        )
        .await;
        // One at a time: the second had not finished by the overall deadline.
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(600) && took < Duration::from_millis(1200),
            "{took:?}"
        );
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.health == Health::Unreachable));
        assert!(rows.iter().all(|r| r.error_kind == Some(Reason::TimedOut)));
    }
}
