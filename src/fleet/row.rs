//! [`FleetRow`]: what the fleet knows about one context, and the order rows
//! are shown in (worst first). Its serde field names are the stable JSON of
//! `kscope get fleet -o json` (documented in README): rename nothing.

use std::cmp::Ordering;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::error::{Error, Reason};

/// The one-word state of a context, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    /// kscope could not reach it (the row's `error` says why).
    Unreachable,
    /// Its `password_command` needs a terminal: not polled until opened.
    NeedsLogin,
    /// Some partitions have no leader.
    Offline,
    /// Some partitions have fewer in-sync replicas than their topic's
    /// `min.insync.replicas`: producers with `acks=all` are refused there.
    UnderMinIsr,
    /// Some partitions lack in-sync replicas, or a listed broker does not answer.
    UnderReplicated,
    /// Everything answered and every partition is fully replicated.
    Ok,
    /// Not polled yet.
    Pending,
}

/// One context's row. Counts are `None` when not (yet) known: a context
/// that never answered has none; one that stopped answering keeps its last
/// numbers, with `error` set and its age growing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetRow {
    /// The context's name (`command-line` for `-b`).
    pub context: String,
    /// The state, worst first when sorted.
    pub health: Health,
    /// Why the last poll failed, in words a user can act on.
    pub error: Option<String>,
    /// The kind of that failure.
    pub error_kind: Option<Reason>,
    /// Brokers that answered kscope's own check.
    pub brokers_answering: Option<usize>,
    /// Brokers the metadata lists.
    pub brokers_registered: Option<usize>,
    /// The active controller (`KRaft`: the quorum leader).
    pub controller_id: Option<i32>,
    /// `kraft` or `zookeeper`.
    pub metadata_mode: Option<&'static str>,
    /// The answering broker's release (from `metadata.version` support).
    pub kafka_version: Option<String>,
    /// The cluster's finalized `metadata.version`, e.g. `4.1-IV1`.
    pub metadata_version: Option<String>,
    /// Topics, internal ones included.
    pub topics: Option<usize>,
    pub partitions: Option<usize>,
    /// Partitions with fewer in-sync replicas than replicas.
    pub under_replicated: Option<usize>,
    /// Partitions without a leader.
    pub offline: Option<usize>,
    /// Partitions with a leader and fewer in-sync replicas than their
    /// topic's effective `min.insync.replicas`, over the topics whose value
    /// is known (`None` while none is; see `fleet::min_isr`).
    pub under_min_isr: Option<usize>,
    /// How many topics' `min.insync.replicas` is known (a bounded batch is
    /// read per poll).
    pub min_isr_topics_checked: usize,
    /// Consumer groups listed by every broker.
    pub groups: Option<usize>,
    /// The largest total lag, in records, among the groups checked so far.
    pub worst_lag: Option<i64>,
    /// The group with that lag.
    pub worst_lag_group: Option<String>,
    /// The largest lag in time among the groups checked so far: the age, in
    /// ms at the poll, of a group's oldest unconsumed record (0: caught up).
    pub worst_lag_time_ms: Option<i64>,
    /// The group with that lag in time.
    pub worst_lag_time_group: Option<String>,
    /// How many groups' lag is known (the sweep checks a few per poll).
    pub lag_groups_checked: usize,
    /// Events (leader moves, ISR changes, brokers gone or back, ...) seen
    /// in the last 5 minutes, from the metadata of consecutive polls: only
    /// while the context's connection is kept between polls (`None` when
    /// each poll starts afresh, or for `get fleet`'s single poll).
    pub events_5m: Option<usize>,
    /// When the numbers were read, in ms since the Unix epoch.
    pub polled_at_ms: Option<u64>,
    /// How old the numbers are, in ms (at the time the row was published or printed).
    pub age_ms: Option<u64>,
    /// Failed polls in a row.
    pub failures: u32,
    /// While failing: how long until the next try (the backoff).
    pub retry_in_ms: Option<u64>,
    /// When the numbers were read (for [`FleetRow::age`]).
    #[serde(skip)]
    pub polled_at: Option<Instant>,
}

impl FleetRow {
    /// A row for a context not polled yet.
    pub fn pending(context: &str) -> FleetRow {
        FleetRow {
            context: context.to_owned(),
            health: Health::Pending,
            error: None,
            error_kind: None,
            brokers_answering: None,
            brokers_registered: None,
            controller_id: None,
            metadata_mode: None,
            kafka_version: None,
            metadata_version: None,
            topics: None,
            partitions: None,
            under_replicated: None,
            offline: None,
            under_min_isr: None,
            min_isr_topics_checked: 0,
            groups: None,
            worst_lag: None,
            worst_lag_group: None,
            worst_lag_time_ms: None,
            worst_lag_time_group: None,
            lag_groups_checked: 0,
            events_5m: None,
            polled_at_ms: None,
            age_ms: None,
            failures: 0,
            retry_in_ms: None,
            polled_at: None,
        }
    }

    /// Mark the row failed by `error`, keeping its last numbers.
    pub fn fail(&mut self, error: &Error) {
        self.error = Some(error.row_text());
        self.error_kind = Some(error.reason());
        self.failures = self.failures.saturating_add(1);
        self.health = if error.reason() == Reason::NeedsLogin {
            Health::NeedsLogin
        } else {
            Health::Unreachable
        };
    }

    /// The health the numbers say (for a row that answered).
    pub fn judge(&mut self) {
        let silent = matches!(
            (self.brokers_answering, self.brokers_registered),
            (Some(answering), Some(registered)) if answering < registered
        );
        self.health = if self.offline.unwrap_or(0) > 0 {
            Health::Offline
        } else if self.under_min_isr.unwrap_or(0) > 0 {
            Health::UnderMinIsr
        } else if self.under_replicated.unwrap_or(0) > 0 || silent {
            Health::UnderReplicated
        } else {
            Health::Ok
        };
    }

    /// Stamp the poll time.
    pub fn stamp(&mut self, now: Instant) {
        self.polled_at = Some(now);
        self.polled_at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .ok()
            .and_then(|d| u64::try_from(d.as_millis()).ok());
    }

    /// How old the numbers are at `now`.
    pub fn age(&self, now: Instant) -> Option<Duration> {
        self.polled_at.map(|at| now.saturating_duration_since(at))
    }

    /// Fill in `age_ms` for `now` (before printing or publishing).
    #[must_use]
    pub fn aged(mut self, now: Instant) -> FleetRow {
        self.age_ms = self
            .age(now)
            .and_then(|a| u64::try_from(a.as_millis()).ok());
        self
    }
}

/// Worst first: by health, then offline, under-min-ISR and
/// under-replicated counts (descending), then by name.
pub fn by_severity(a: &FleetRow, b: &FleetRow) -> Ordering {
    a.health
        .cmp(&b.health)
        .then_with(|| b.offline.unwrap_or(0).cmp(&a.offline.unwrap_or(0)))
        .then_with(|| {
            b.under_min_isr
                .unwrap_or(0)
                .cmp(&a.under_min_isr.unwrap_or(0))
        })
        .then_with(|| {
            b.under_replicated
                .unwrap_or(0)
                .cmp(&a.under_replicated.unwrap_or(0))
        })
        .then_with(|| a.context.cmp(&b.context))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, under: usize, offline: usize) -> FleetRow {
        let mut row = FleetRow::pending(name);
        row.under_replicated = Some(under);
        row.offline = Some(offline);
        row.judge();
        row
    }

    fn below_min(name: &str, under_min: usize) -> FleetRow {
        let mut row = FleetRow::pending(name);
        row.under_replicated = Some(under_min + 10);
        row.offline = Some(0);
        row.under_min_isr = Some(under_min);
        row.judge();
        row
    }

    #[test]
    fn unreachable_then_offline_then_under_replicated_then_healthy() {
        let mut down = FleetRow::pending("down");
        down.fail(&Error::Deadline {
            context: "down".to_owned(),
            after: Duration::from_secs(1),
        });
        let mut rows = [
            row("a-ok", 0, 0),
            row("b-under", 2, 0),
            down,
            row("c-offline", 0, 1),
            row("d-under-more", 5, 0),
            below_min("e-below-min", 1),
            below_min("f-below-min-more", 2),
        ];
        rows.sort_by(by_severity);
        let names: Vec<&str> = rows.iter().map(|r| r.context.as_str()).collect();
        assert_eq!(
            names,
            [
                "down",
                "c-offline",
                "f-below-min-more",
                "e-below-min",
                "d-under-more",
                "b-under",
                "a-ok"
            ]
        );
        assert_eq!(rows[2].health, Health::UnderMinIsr);
        assert_eq!(rows[0].error_kind, Some(Reason::TimedOut));
    }

    #[test]
    fn a_silent_broker_is_not_healthy() {
        let mut r = row("a", 0, 0);
        r.brokers_registered = Some(3);
        r.brokers_answering = Some(2);
        r.judge();
        assert_eq!(r.health, Health::UnderReplicated);
    }
}
