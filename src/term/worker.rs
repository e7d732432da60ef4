//! The effect worker: runs what `update` asked for, answering with actions.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::Sender;
use tokio::task::JoinHandle;

use crate::app::failure::{Failure, Kind};
use crate::app::{Action, DegradedInfo};
use crate::config::cli::{ConnectArgs, resolve};
use crate::config::secret;
use crate::meta::{Cluster, ClusterConfig};

use super::msg::Msg;

/// Try to connect until it works, reporting each failure; give up after a
/// failure only a change to the context can fix (wrong credentials, an
/// untrusted certificate), which trying again would only repeat.
pub fn connect(
    bootstrap: Vec<String>,
    config: ClusterConfig,
    (context, attempts_before): (String, u32),
    tx: Sender<Msg>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut attempt = attempts_before;
        loop {
            attempt = attempt.saturating_add(1);
            match Cluster::connect(bootstrap.clone(), config.clone()).await {
                Ok(cluster) => {
                    let _ = tx.send(Msg::Connected(cluster, context)).await;
                    return;
                }
                Err(error) => {
                    let error = Failure::connecting(&error);
                    let retrying = error.is_transient();
                    let action = Action::ConnectFailed { attempt, error };
                    if tx.send(Msg::Action(action)).await.is_err() || !retrying {
                        return;
                    }
                }
            }
            let wait =
                Duration::from_secs(u64::from(attempt.saturating_sub(attempts_before).min(5)) * 2);
            tokio::time::sleep(wait).await;
        }
    })
}

/// Follow a cluster: new generations, movement events, degraded status.
pub fn follow(cluster: Cluster, tx: Sender<Msg>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut generations = cluster.watch_generation();
        let mut moves = cluster.subscribe_movements();
        let mut degraded_every = tokio::time::interval(Duration::from_secs(1));
        let mut last_degraded: Option<DegradedInfo> = None;
        let mut last_health = None;
        loop {
            let msg = tokio::select! {
                changed = generations.changed() => {
                    if changed.is_err() { return; }
                    Msg::Generation
                }
                received = moves.recv() => {
                    let Some(received) = received else { return };
                    let mut missed = received.missed;
                    let mut batch = received.events.to_vec();
                    while let Some(more) = moves.try_recv() {
                        missed += more.missed;
                        batch.extend(more.events.iter().cloned());
                    }
                    if missed > 0 {
                        let notice = format!("{missed} movement events were missed");
                        if tx.send(Msg::Action(Action::Notice(notice))).await.is_err() { return; }
                    }
                    Msg::Action(Action::Movements(batch))
                },
                _ = degraded_every.tick() => {
                    let health = cluster.health();
                    if health != last_health {
                        last_health.clone_from(&health);
                        if tx.send(Msg::Action(Action::Health(health))).await.is_err() { return; }
                    }
                    let now = cluster.degraded().map(|d| DegradedInfo {
                        since: d.since,
                        failures: d.failures,
                        error: d.last_error.to_string(),
                    });
                    if now == last_degraded { continue; }
                    last_degraded.clone_from(&now);
                    Msg::Action(Action::Degraded(now))
                }
            };
            if tx.send(msg).await.is_err() {
                return;
            }
        }
    })
}

/// Sweep the cluster's configs every 30 s or more (paced by what a sweep
/// costs: [`crate::inspect::config_sweep::pause`]) until the loop goes;
/// each sweep goes to `update` whole, which derives the config-change
/// events from it.
pub fn config_sweeps(cluster: Cluster, tx: Sender<Msg>) -> JoinHandle<()> {
    use crate::inspect::config_sweep;
    tokio::spawn(async move {
        loop {
            let started = tokio::time::Instant::now();
            let sweep = config_sweep::read(&cluster, None).await;
            let action = Action::ConfigSweep(Arc::new(sweep));
            if tx.send(Msg::Action(action)).await.is_err() {
                return;
            }
            tokio::time::sleep(config_sweep::pause(started.elapsed())).await;
        }
    })
}

/// Fetch watermarks in the background.
pub fn watermarks(
    cluster: Cluster,
    request: u64,
    partitions: Vec<crate::meta::TopicPartition>,
    tx: Sender<Msg>,
) -> JoinHandle<()> {
    answer(tx, async move {
        let result = cluster
            .watermarks(&partitions)
            .await
            .map(|found| found.into_iter().collect())
            .map_err(Failure::from);
        Action::Watermarks { request, result }
    })
}

/// Resolve context `name` off the run loop (a `password_command` may take
/// its time, or hang), answering with [`Msg::Resolved`] (which the loop turns into
/// [`Action::ContextResolved`] for `update`); after `deadline`
/// the answer is a failure that says so. A hung command is killed at its
/// own, shorter timeout (`config::secret::COMMAND_TIMEOUT`), so nothing
/// is left running either way.
///
/// The command runs unattended first (no terminal: the screen stays as it
/// is for one that answers from an agent or a cache). One that fails so,
/// while kscope has the terminal to lend, may need to ask: the input
/// thread is held and [`Msg::Login`] asks the loop to step aside and run
/// it again on the terminal (`super::login`).
pub fn resolve_context(
    args: ConnectArgs,
    name: String,
    deadline: Duration,
    (tx, input): (Sender<Msg>, super::pause::Pause),
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let resolving = tokio::task::spawn_blocking(move || {
            let first = secret::unattended(secret::COMMAND_TIMEOUT, || resolve(&args));
            let ask = matches!(&first, Err(e) if e.is_password_command()) && secret::can_prompt();
            (first, ask.then_some(args))
        });
        let result = match tokio::time::timeout(deadline, resolving).await {
            Ok(Ok((_, Some(args)))) => {
                let Ok(held) = tokio::task::spawn_blocking(move || input.hold()).await else {
                    return;
                };
                let login = super::login::Login { name, args, held };
                let _ = tx.send(Msg::Login(Box::new(login))).await;
                return;
            }
            Ok(Ok((resolved, None))) => resolved.map(Box::new).map_err(Failure::from),
            Ok(Err(join)) => Err(Failure::new(
                Kind::Final,
                format!("resolving the context failed: {join}"),
            )),
            Err(_) => Err(Failure::new(
                Kind::Transient,
                format!(
                    "resolving the context took longer than {deadline:?} (a password_command that hangs?)"
                ),
            )),
        };
        let _ = tx.send(Msg::Resolved(name, result)).await;
    })
}

/// Put `value` on the clipboard (OSC 52) and answer with the notice that
/// says how that went. The write itself is done here, on the loop's
/// thread: the terminal is the loop's, and a write from another thread
/// could land inside an escape sequence of a frame being drawn. It is
/// short (the base64 of one value); only the answer is queued.
pub fn copy(value: &[u8], tx: &Sender<Msg>) {
    let notice = super::save::copy(value);
    let tx = tx.clone();
    drop(tokio::spawn(async move {
        let _ = tx.send(Msg::Action(Action::Notice(notice))).await;
    }));
}

/// Describe every live broker's log dirs and sum them up in the background
/// (each broker has its own deadline: one that does not answer is unknown).
pub fn sizes(cluster: Cluster, request: u64, tx: Sender<Msg>) -> JoinHandle<()> {
    answer(tx, async move {
        let brokers: Vec<i32> = cluster
            .snapshot()
            .brokers()
            .iter()
            .map(|b| b.node_id)
            .collect();
        let answers = crate::inspect::log_dirs::describe(&cluster, &brokers).await;
        let sizes = crate::inspect::ClusterSizes::of(answers, &cluster.snapshot());
        let sizes = Arc::new(sizes);
        Action::Sizes { request, sizes }
    })
}

/// Run a screen module's query in the background (the module's own
/// `fetch`, dispatched by `app::screens::fetch`).
pub fn query(
    work: impl Future<Output = crate::app::screens::Msg> + Send + 'static,
    tx: Sender<Msg>,
) -> JoinHandle<()> {
    answer(tx, async move { Action::Screen(work.await) })
}

/// Run `work` in the background and queue the action it ends with for the
/// loop (waiting for room: the queue is bounded).
fn answer<F>(tx: Sender<Msg>, work: F) -> JoinHandle<()>
where
    F: Future<Output = Action> + Send + 'static,
{
    tokio::spawn(async move {
        let action = work.await;
        let _ = tx.send(Msg::Action(action)).await;
    })
}
