//! What bounds the event log: a count, an approximate byte size, and a rate
//! limit per kind that folds a storm into counted records.
//!
//! ## Sizing
//!
//! A rolling restart of a 1M-partition cluster (replication factor 3, 30
//! brokers: about 33 000 leaders and 100 000 replicas each) moves each
//! broker's leaders away and back and shrinks and grows each of its ISRs:
//! about 270 000 events per broker, 8M for the restart, which one by one
//! would take over 1 GB. The rate limit ([`DEFAULT_PER_KIND`] events of one
//! kind per [`DEFAULT_WINDOW`]) keeps at most 10 000 of each kind a minute
//! and folds the rest into one `events_suppressed` record per kind per
//! refresh: a broker's restart keeps about 40 000 events (four kinds:
//! leaders away, ISR shrinks, ISR grows, leaders back), the whole restart
//! about 1.2M. [`DEFAULT_CAPACITY`] (1.25M events) and [`DEFAULT_MAX_BYTES`]
//! (192 MiB, at about 150 bytes for an event with a three-replica ISR, as
//! [`approx_bytes`] counts it) hold that whole restart, and cap memory
//! whatever the cluster does. An event with a 1000-broker ISR counts its
//! 4 KB, so a few such events cannot hide behind the count.

use std::collections::HashMap;
use std::mem::size_of;
use std::time::{Duration, SystemTime};

use super::movement::{MovementEvent, MovementKind};
use super::severity::Severity;

/// How many events the log keeps by default.
pub const DEFAULT_CAPACITY: usize = 1_250_000;
/// How many bytes (approximately: [`approx_bytes`]) the log keeps by default.
pub const DEFAULT_MAX_BYTES: usize = 192 * 1024 * 1024;
/// How many events of one kind are kept per window by default.
pub const DEFAULT_PER_KIND: u64 = 10_000;
/// The rate-limit window.
pub const DEFAULT_WINDOW: Duration = Duration::from_mins(1);

/// The bounds of a [`super::MovementLog`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Events retained, at most (at least one).
    pub max_events: usize,
    /// Approximate bytes retained, at most (the newest event is always kept).
    pub max_bytes: usize,
    /// Events of one kind published per window; the rest are folded.
    pub per_kind: u64,
    /// The window `per_kind` counts in, from the first event of the kind.
    pub window: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_events: DEFAULT_CAPACITY,
            max_bytes: DEFAULT_MAX_BYTES,
            per_kind: DEFAULT_PER_KIND,
            window: DEFAULT_WINDOW,
        }
    }
}

impl Limits {
    /// Default limits with another event count.
    pub fn with_capacity(max_events: usize) -> Self {
        Self {
            max_events,
            ..Self::default()
        }
    }

    /// No rate limit (for tests of what is downstream of the log).
    #[must_use]
    pub fn unlimited_rate(self) -> Self {
        Self {
            per_kind: u64::MAX,
            ..self
        }
    }
}

/// About how many bytes `event` holds: itself plus what it points to.
pub fn approx_bytes(event: &MovementEvent) -> usize {
    let ids = |v: &Vec<i32>| v.len() * size_of::<i32>();
    let heap = match &event.kind {
        MovementKind::IsrShrank { isr, removed } => ids(isr) + ids(removed),
        MovementKind::IsrExpanded { isr, added } => ids(isr) + ids(added),
        MovementKind::ReplicasChanged { from, to } => ids(from) + ids(to),
        MovementKind::BrokerJoined { address, .. } => address.len(),
        MovementKind::MetadataFrozen { reason } => reason.len(),
        MovementKind::GroupLagTrendChanged {
            group, from, to, ..
        } => group.len() + from.len() + to.len(),
        MovementKind::GroupReconciling { group, members, .. }
        | MovementKind::GroupReconciled { group, members, .. } => {
            group.len()
                + members
                    .iter()
                    .map(super::MemberChange::approx_bytes)
                    .sum::<usize>()
        }
        MovementKind::TopicConfigChanged {
            config, from, to, ..
        }
        | MovementKind::BrokerConfigChanged {
            config, from, to, ..
        } => {
            let text = |v: &Option<String>| v.as_ref().map_or(0, String::len);
            config.len() + text(from) + text(to)
        }
        _ => 0,
    };
    size_of::<MovementEvent>() + event.topic.as_ref().map_or(0, String::len) + heap
}

/// The rate limit of a source of events derived beside the movement log
/// (the group reads, the min-ISR tracker, the config sweep): the same [`RateLimiter`] and
/// [`Limits`] the log applies, so a storm of `group_stuck` or
/// `under_min_isr` is folded into counted `events_suppressed` records as a
/// storm of leader moves is, never dropped unseen. Each source derives its
/// own kinds, so one gate per source counts each kind once.
#[derive(Debug, Default)]
pub struct EventGate {
    limiter: RateLimiter,
    limits: Limits,
}

impl EventGate {
    /// A gate with `limits` (only the rate fields matter here).
    pub fn new(limits: Limits) -> EventGate {
        EventGate {
            limiter: RateLimiter::default(),
            limits,
        }
    }

    /// The events of `batch` within their kind's limit, then one
    /// `events_suppressed` record per kind over it (see
    /// [`RateLimiter::admit`]).
    pub fn admit(&mut self, batch: Vec<MovementEvent>) -> Vec<MovementEvent> {
        if batch.is_empty() {
            return batch;
        }
        self.limiter.admit(batch, &self.limits)
    }
}

/// One kind's current window.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: SystemTime,
    kept: u64,
}

/// Events of one kind folded in one batch.
#[derive(Debug)]
struct Folded {
    kind: &'static str,
    severity: Severity,
    count: u64,
    last: SystemTime,
}

/// The per-kind rate limit: which events of a batch are published, and the
/// fold records standing for the rest.
#[derive(Debug, Default)]
pub struct RateLimiter {
    windows: HashMap<&'static str, Window>,
}

impl RateLimiter {
    /// The events of `batch` within their kind's limit, in order, then one
    /// `events_suppressed` record per kind that went over it (its count is
    /// exactly how many of that kind were left out).
    pub fn admit(&mut self, batch: Vec<MovementEvent>, limits: &Limits) -> Vec<MovementEvent> {
        if limits.per_kind == u64::MAX {
            return batch;
        }
        let mut folded: Vec<Folded> = Vec::new();
        let mut kept = Vec::with_capacity(batch.len());
        for event in batch {
            let name = event.kind.name();
            if matches!(event.kind, MovementKind::EventsSuppressed { .. })
                || self.take(name, event.time, limits)
            {
                kept.push(event);
                continue;
            }
            match folded.iter_mut().find(|f| f.kind == name) {
                Some(fold) => {
                    fold.count += 1;
                    fold.last = fold.last.max(event.time);
                }
                None => folded.push(Folded {
                    kind: name,
                    severity: event.kind.severity(),
                    count: 1,
                    last: event.time,
                }),
            }
        }
        kept.extend(folded.into_iter().map(|fold| MovementEvent {
            time: fold.last,
            topic: None,
            partition: None,
            kind: MovementKind::EventsSuppressed {
                suppressed: fold.kind,
                count: fold.count,
                severity: fold.severity,
            },
        }));
        kept
    }

    /// Count one event of `kind` at `at`; whether it is within the limit.
    fn take(&mut self, kind: &'static str, at: SystemTime, limits: &Limits) -> bool {
        let window = self
            .windows
            .entry(kind)
            .or_insert(Window { start: at, kept: 0 });
        // A new window once this one has passed (or the clock went back).
        if !matches!(at.duration_since(window.start), Ok(e) if e < limits.window) {
            *window = Window { start: at, kept: 0 };
        }
        if window.kept < limits.per_kind {
            window.kept += 1;
            true
        } else {
            false
        }
    }
}
