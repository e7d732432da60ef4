//! Liveness: kscope's own view of whether it can reach the cluster, checked
//! every few seconds whatever the full refresh's pacing.
//!
//! A broker that hangs (a long GC pause, a stalled disk, SIGSTOP) keeps its
//! registration: the metadata still lists it, and its leaderships, for the
//! controller's session timeout; a quorum that lost its majority leaves the
//! surviving brokers serving their last metadata as if nothing happened. So
//! neither shows in the snapshot. The check is cheap and bounded:
//!
//! - `DescribeQuorum` within [`super::quorum::QUORUM_DEADLINE`]: a leader
//!   and a high watermark that advances (the active controller appends a
//!   no-op record every `metadata.max.idle.interval.ms`, 500 ms by default)
//!   mean the metadata is live; no leader, no answer, or a high watermark
//!   that stood still for [`FROZEN_AFTER`] mean it is frozen.
//! - a `Metadata` request for no topics to each broker the snapshot names,
//!   within [`BROKER_DEADLINE`]: a broker that does not answer is marked not
//!   answering in the pool (requests for it fail at once, requests for any
//!   broker go elsewhere) and its connection is abandoned, so callers waiting
//!   on it fail now rather than at their request timeout.
//! - beside the pings, `DescribeCluster` v2 for every registered broker and
//!   whether the controller fenced it (`super::fencing`), where the broker
//!   asked offers v2 (Kafka 3.9+); nothing is said of fencing otherwise.
//!
//! Changes are published as [`Health`] and as movement events.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use arc_swap::ArcSwapOption;
use tokio::task::AbortHandle;

use super::error::Result;
use super::fencing::FencingTracker;
use super::movement::MovementKind;
use super::quorum::Quorum;

/// How often the background check runs.
pub const LIVENESS_INTERVAL: Duration = Duration::from_secs(3);
/// How long a broker has to answer (connecting included).
pub const BROKER_DEADLINE: Duration = Duration::from_secs(2);
/// How long the quorum's high watermark may stand still before the metadata
/// counts as frozen: ten of the controller's idle no-op intervals.
pub const FROZEN_AFTER: Duration = Duration::from_secs(5);

/// What the last liveness check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Health {
    /// Brokers that did not answer, with when they stopped answering.
    pub not_answering: BTreeMap<i32, SystemTime>,
    /// Set while the cluster's metadata is frozen.
    pub frozen: Option<Frozen>,
}

/// The metadata stopped changing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frozen {
    /// The last time the quorum was seen committing (or, when it never
    /// was, the first check that found it frozen).
    pub since: SystemTime,
    /// Why: no leader, no answer, or nothing committed.
    pub reason: String,
}

impl Health {
    /// One line per problem, for stderr: empty when all is well.
    pub fn warnings(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(frozen) = &self.frozen {
            lines.push(stale_line(&frozen.reason));
        }
        if !self.not_answering.is_empty() {
            lines.push(silent_line(self.not_answering.keys(), ""));
        }
        lines
    }
}

/// The stderr line for metadata that may be stale, and why.
pub(super) fn stale_line(reason: &str) -> String {
    format!("metadata may be stale: {reason} (what is shown is the last metadata the brokers hold)")
}

/// The stderr line for brokers that did not answer (`yet`: " (yet)" when
/// their answer may still come).
pub(super) fn silent_line<'a>(ids: impl Iterator<Item = &'a i32>, yet: &str) -> String {
    let ids: Vec<String> = ids.map(ToString::to_string).collect();
    format!(
        "broker {} not answering{yet} (still listed in the cluster metadata)",
        ids.join(", ")
    )
}

/// What one `DescribeQuorum` said, for the tracker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum QuorumSeen {
    /// A leader, its epoch, and how far the metadata log is committed.
    Leader {
        leader: i32,
        epoch: i32,
        high_watermark: i64,
    },
    /// No leader elected.
    NoLeader,
    /// No answer (a timeout or a transport failure), with the error.
    Silent(String),
    /// An answer that says nothing about liveness (denied, or a broker
    /// without `DescribeQuorum`).
    Unknown,
}

impl QuorumSeen {
    pub(super) fn from_asked(asked: &Result<Option<Quorum>>) -> QuorumSeen {
        match asked {
            Ok(Some(quorum)) => QuorumSeen::Leader {
                leader: quorum.leader,
                epoch: quorum.leader_epoch,
                high_watermark: quorum.high_watermark,
            },
            Ok(None) => QuorumSeen::NoLeader,
            Err(error) if error.retriable() => QuorumSeen::Silent(error.to_string()),
            Err(_) => QuorumSeen::Unknown,
        }
    }
}

/// Turns observations into [`Health`] and transition events (pure).
#[derive(Debug, Default)]
pub(super) struct Tracker {
    /// The last high watermark seen rising, and when.
    progress: Option<(i64, SystemTime)>,
    /// The quorum's leader and its epoch, as last seen.
    elected: Option<(i32, i32)>,
    /// Which brokers the controller fenced, as last answered.
    fencing: FencingTracker,
    health: Health,
}

impl Tracker {
    pub(super) fn health(&self) -> &Health {
        &self.health
    }

    /// Take in one quorum observation at `now`; the events it causes: a
    /// new quorum leader (or epoch) first, then liveness changes.
    pub(super) fn observe_quorum(
        &mut self,
        seen: QuorumSeen,
        now: SystemTime,
    ) -> Vec<MovementKind> {
        let mut events = Vec::new();
        if let QuorumSeen::Leader { leader, epoch, .. } = seen {
            events.extend(self.observe_election(leader, epoch));
        }
        events.extend(self.observe_progress(seen, now));
        events
    }

    /// A `quorum_leader_changed` when the leader or its epoch moved on
    /// since the last answer with a leader (the first is the baseline; an
    /// older epoch, from a lagging voter, is not news).
    fn observe_election(&mut self, leader: i32, epoch: i32) -> Option<MovementKind> {
        let held = self.elected;
        if held.is_some_and(|(_, held_epoch)| epoch < held_epoch) {
            return None;
        }
        self.elected = Some((leader, epoch));
        match held {
            Some(previous) if previous != (leader, epoch) => {
                Some(MovementKind::QuorumLeaderChanged {
                    from: Some(previous.0),
                    to: leader,
                    epoch,
                })
            }
            _ => None,
        }
    }

    fn observe_progress(&mut self, seen: QuorumSeen, now: SystemTime) -> Vec<MovementKind> {
        let reason = match seen {
            QuorumSeen::Unknown => return Vec::new(),
            QuorumSeen::Leader {
                leader,
                high_watermark,
                ..
            } => match self.progress {
                Some((held, at)) if high_watermark <= held => {
                    if now.duration_since(at).unwrap_or_default() < FROZEN_AFTER {
                        return Vec::new();
                    }
                    format!(
                        "the KRaft quorum (leader {leader}) has committed nothing since {}",
                        clock(at)
                    )
                }
                _ => {
                    self.progress = Some((high_watermark, now));
                    return match self.health.frozen.take() {
                        Some(_) => vec![MovementKind::MetadataLive { leader }],
                        None => Vec::new(),
                    };
                }
            },
            QuorumSeen::NoLeader => "the KRaft quorum has no leader".to_owned(),
            QuorumSeen::Silent(error) => format!("the KRaft quorum does not answer ({error})"),
        };
        let since = self.progress.map_or(now, |(_, at)| at);
        let event = self
            .health
            .frozen
            .is_none()
            .then(|| MovementKind::MetadataFrozen {
                reason: reason.clone(),
            });
        self.health.frozen = Some(Frozen { since, reason });
        event.into_iter().collect()
    }

    /// Take in the brokers' answers (`true`: answered) at `now`; brokers
    /// not in `answers` are forgotten. The events it causes.
    pub(super) fn observe_brokers(
        &mut self,
        answers: &BTreeMap<i32, bool>,
        now: SystemTime,
    ) -> Vec<MovementKind> {
        let mut events = Vec::new();
        self.health
            .not_answering
            .retain(|id, _| answers.contains_key(id));
        for (&broker, &answered) in answers {
            let was_silent = self.health.not_answering.contains_key(&broker);
            if answered && was_silent {
                self.health.not_answering.remove(&broker);
                events.push(MovementKind::BrokerAnswering { broker });
            } else if !answered && !was_silent {
                self.health.not_answering.insert(broker, now);
                events.push(MovementKind::BrokerNotAnswering { broker });
            }
        }
        events
    }
}

/// `HH:MM:SS` UTC.
fn clock(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    format!(
        "{:02}:{:02}:{:02} UTC",
        secs / 3600 % 24,
        secs / 60 % 60,
        secs % 60
    )
}

/// How recent a `DescribeQuorum` outcome must be for a check to use it
/// instead of asking again: `kscope get` connects (a full refresh asks the
/// quorum) and checks at once, and a lost quorum must cost one
/// [`super::quorum::QUORUM_DEADLINE`], not two.
const QUORUM_REUSE: Duration = Duration::from_secs(1);

/// The cluster's liveness part: the tracker, the published health, the
/// last quorum outcome not yet seen by a check, and the background task
/// (stopped on drop).
#[derive(Debug, Default)]
pub(super) struct Liveness {
    tracker: Mutex<Tracker>,
    health: ArcSwapOption<Health>,
    /// Every `DescribeQuorum` outcome, when it came; a check takes it (so
    /// the tracker sees each outcome at most once).
    last_quorum: Mutex<Option<(Instant, Result<Option<Quorum>>)>>,
    task: Mutex<Option<AbortHandle>>,
}

impl Liveness {
    /// Keep the outcome of a `DescribeQuorum` just asked (or timed out).
    pub(super) fn remember_quorum(&self, asked: &Result<Option<Quorum>>) {
        if let Ok(mut last) = self.last_quorum.lock() {
            *last = Some((Instant::now(), asked.clone()));
        }
    }

    /// The last outcome, when it came within [`QUORUM_REUSE`] and no check
    /// took it yet.
    pub(super) fn take_recent_quorum(&self) -> Option<Result<Option<Quorum>>> {
        let (at, asked) = self.last_quorum.lock().ok()?.take()?;
        (at.elapsed() < QUORUM_REUSE).then_some(asked)
    }

    /// What the last check published (`None` before the first). Lock-free.
    pub(super) fn health(&self) -> Option<Arc<Health>> {
        self.health.load_full()
    }

    /// Feed a check's findings at `now` to the tracker: the quorum's
    /// outcome (`None`: it did not answer in time), each broker's answer,
    /// and which brokers are fenced (`None`: not known).
    /// Returns the changes they cause and the health after them, not yet
    /// published (see [`Liveness::publish`]).
    pub(super) fn observe(
        &self,
        asked: Option<&Result<Option<Quorum>>>,
        answers: &BTreeMap<i32, bool>,
        fenced: Option<BTreeMap<i32, bool>>,
        now: SystemTime,
    ) -> (Vec<MovementKind>, Arc<Health>) {
        match self.tracker.lock() {
            Ok(mut tracker) => {
                let mut events = asked.map_or_else(Vec::new, |asked| {
                    tracker.observe_quorum(QuorumSeen::from_asked(asked), now)
                });
                events.extend(tracker.observe_brokers(answers, now));
                events.extend(tracker.fencing.observe(fenced));
                (events, Arc::new(tracker.health().clone()))
            }
            Err(_) => (Vec::new(), Arc::new(Health::default())),
        }
    }

    /// Make `health` what [`Liveness::health`] returns.
    pub(super) fn publish(&self, health: Arc<Health>) {
        self.health.store(Some(health));
    }

    /// Keep the background task's handle, to abort it on drop.
    pub(super) fn keep_task(&self, handle: AbortHandle) {
        if let Ok(mut task) = self.task.lock() {
            *task = Some(handle);
        }
    }
}

impl Drop for Liveness {
    fn drop(&mut self) {
        if let Ok(mut task) = self.task.lock()
            && let Some(task) = task.take()
        {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
    }

    fn leader(high_watermark: i64) -> QuorumSeen {
        QuorumSeen::Leader {
            leader: 1,
            epoch: 3,
            high_watermark,
        }
    }

    fn elected(leader: i32, epoch: i32, high_watermark: i64) -> QuorumSeen {
        QuorumSeen::Leader {
            leader,
            epoch,
            high_watermark,
        }
    }

    #[test]
    fn a_new_quorum_leader_or_epoch_is_one_event_and_the_first_answer_is_the_baseline() {
        let mut tracker = Tracker::default();
        assert!(tracker.observe_quorum(elected(1, 3, 10), at(0)).is_empty());
        assert!(tracker.observe_quorum(elected(1, 3, 12), at(3)).is_empty());
        assert_eq!(
            tracker.observe_quorum(elected(2, 4, 14), at(6)),
            [MovementKind::QuorumLeaderChanged {
                from: Some(1),
                to: 2,
                epoch: 4
            }]
        );
        assert!(
            tracker.observe_quorum(elected(1, 3, 15), at(7)).is_empty(),
            "a lagging voter's older epoch is not news"
        );
        assert_eq!(tracker.observe_quorum(QuorumSeen::NoLeader, at(8)).len(), 1);
        assert_eq!(
            tracker.observe_quorum(elected(2, 5, 20), at(9)),
            [
                MovementKind::QuorumLeaderChanged {
                    from: Some(2),
                    to: 2,
                    epoch: 5
                },
                MovementKind::MetadataLive { leader: 2 }
            ],
            "re-elected in a new epoch after a frozen spell"
        );
    }

    #[test]
    fn a_rising_high_watermark_is_live_and_one_that_stands_still_is_frozen_since_it_last_rose() {
        let mut tracker = Tracker::default();
        assert!(tracker.observe_quorum(leader(10), at(0)).is_empty());
        assert!(tracker.observe_quorum(leader(16), at(3)).is_empty());
        assert!(
            tracker.observe_quorum(leader(16), at(6)).is_empty(),
            "under FROZEN_AFTER"
        );
        let events = tracker.observe_quorum(leader(16), at(9));
        assert!(
            matches!(events[..], [MovementKind::MetadataFrozen { .. }]),
            "{events:?}"
        );
        let frozen = tracker.health().frozen.clone().expect("frozen");
        assert_eq!(frozen.since, at(3));
        assert!(
            frozen.reason.contains("committed nothing since"),
            "{}",
            frozen.reason
        );
        assert!(
            tracker.observe_quorum(leader(16), at(12)).is_empty(),
            "said once"
        );
        assert_eq!(
            tracker.observe_quorum(leader(17), at(15)),
            [MovementKind::MetadataLive { leader: 1 }]
        );
        assert_eq!(tracker.health().frozen, None);
    }

    #[test]
    fn no_leader_or_no_answer_is_frozen_at_once_and_a_denied_ask_changes_nothing() {
        let mut tracker = Tracker::default();
        tracker.observe_quorum(leader(10), at(0));
        let events = tracker.observe_quorum(QuorumSeen::NoLeader, at(3));
        assert_eq!(events.len(), 1);
        assert_eq!(
            tracker.health().frozen.as_ref().map(|f| f.since),
            Some(at(0))
        );
        let silent = QuorumSeen::Silent("DescribeQuorum timed out after 1s".to_owned());
        assert!(
            tracker.observe_quorum(silent, at(6)).is_empty(),
            "still frozen"
        );
        let reason = &tracker.health().frozen.as_ref().expect("frozen").reason;
        assert!(reason.contains("does not answer"), "{reason}");
        assert!(
            tracker
                .observe_quorum(QuorumSeen::Unknown, at(9))
                .is_empty()
        );
        assert!(tracker.health().frozen.is_some());

        let mut fresh = Tracker::default();
        assert!(fresh.observe_quorum(QuorumSeen::Unknown, at(0)).is_empty());
        assert_eq!(fresh.health(), &Health::default());
        fresh.observe_quorum(QuorumSeen::NoLeader, at(4));
        assert_eq!(fresh.health().frozen.as_ref().map(|f| f.since), Some(at(4)));
    }

    #[test]
    fn brokers_are_reported_on_each_change_only_and_forgotten_when_unlisted() {
        let mut tracker = Tracker::default();
        let answers = |pairs: &[(i32, bool)]| pairs.iter().copied().collect::<BTreeMap<_, _>>();
        assert!(
            tracker
                .observe_brokers(&answers(&[(1, true), (2, true)]), at(0))
                .is_empty()
        );
        assert_eq!(
            tracker.observe_brokers(&answers(&[(1, false), (2, true)]), at(3)),
            [MovementKind::BrokerNotAnswering { broker: 1 }]
        );
        assert!(
            tracker
                .observe_brokers(&answers(&[(1, false), (2, true)]), at(6))
                .is_empty()
        );
        assert_eq!(tracker.health().not_answering.get(&1), Some(&at(3)));
        assert_eq!(
            tracker.health().warnings(),
            ["broker 1 not answering (still listed in the cluster metadata)"]
        );
        assert_eq!(
            tracker.observe_brokers(&answers(&[(1, true), (2, true)]), at(9)),
            [MovementKind::BrokerAnswering { broker: 1 }]
        );
        tracker.observe_brokers(&answers(&[(1, false)]), at(12));
        assert!(
            tracker
                .observe_brokers(&answers(&[(2, true)]), at(15))
                .is_empty()
        );
        assert!(
            tracker.health().not_answering.is_empty(),
            "broker 1 left the metadata"
        );
    }
}
