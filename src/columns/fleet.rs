//! The fleet's table: one row per context, for `kscope get fleet` and the
//! fleet screen. Rows come sorted worst first (`fleet::by_severity`), which
//! is also the HEALTH column's order.

use std::time::Duration;

use super::Column;
use super::format::age;
use crate::fleet::{FleetRow, Health};

fn dash<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// The health word as shown.
pub fn health(health: Health) -> &'static str {
    match health {
        Health::Unreachable => "UNREACHABLE",
        Health::NeedsLogin => "NEEDS LOGIN",
        Health::Offline => "OFFLINE",
        Health::UnderMinIsr => "UNDER-MIN-ISR",
        Health::UnderReplicated => "UNDER-REPLICATED",
        Health::Ok => "ok",
        Health::Pending => "…",
    }
}

fn brokers(row: &FleetRow) -> String {
    match (row.brokers_answering, row.brokers_registered) {
        (Some(answering), Some(registered)) => format!("{answering}/{registered}"),
        _ => "-".to_owned(),
    }
}

fn version(row: &FleetRow) -> String {
    match (&row.kafka_version, &row.metadata_version) {
        (Some(kafka), Some(level)) => format!("{kafka} ({level})"),
        (Some(kafka), None) => kafka.clone(),
        (None, Some(level)) => format!("? ({level})"),
        (None, None) => "-".to_owned(),
    }
}

/// The worst lag in time and its group; the worst in records where no
/// group's lag could be dated.
fn worst_lag(row: &FleetRow) -> String {
    let shown = |group: &str| crate::anonymize::name(crate::anonymize::Kind::Group, group);
    match (
        row.worst_lag_time_ms,
        &row.worst_lag_time_group,
        row.worst_lag,
        &row.worst_lag_group,
    ) {
        (Some(ms), Some(group), _, _) => {
            let ms = u64::try_from(ms).unwrap_or(0);
            format!("{} {}", age(Duration::from_millis(ms)), shown(group))
        }
        (_, _, Some(lag), Some(group)) => format!("{lag} rec {}", shown(group)),
        _ => "-".to_owned(),
    }
}

/// Partitions below their min ISR; `≥N` while some topics' minimum is not
/// read yet (the count covers the topics read).
fn under_min_isr(row: &FleetRow) -> String {
    match (row.under_min_isr, row.topics) {
        (Some(n), Some(topics)) if row.min_isr_topics_checked < topics => format!("≥{n}"),
        (n, _) => dash(n),
    }
}

fn row_age(row: &FleetRow) -> String {
    row.age_ms
        .map_or_else(|| "-".to_owned(), |ms| age(Duration::from_millis(ms)))
}

/// The error, with the backoff while failing.
fn error(row: &FleetRow) -> String {
    let Some(error) = &row.error else {
        return String::new();
    };
    match row.retry_in_ms {
        Some(ms) if row.health != Health::NeedsLogin => {
            format!("{error} (retry in {})", age(Duration::from_millis(ms)))
        }
        _ => error.clone(),
    }
}

/// The column an unreachable row's reason starts at on the fleet screen
/// when the row has no numbers to show (BROKERS, the first metric).
pub const METRICS: usize = 2;

/// What the fleet screen says of a context whose `password_command` needs
/// a terminal: opening it (Enter) runs the command where it can prompt.
pub const NEEDS_LOGIN: &str = "needs login — open it once (Enter)";

/// Whether the fleet screen draws the row's error across its metric
/// columns: it failed and has no numbers (it never answered).
pub fn spans(row: &FleetRow) -> bool {
    matches!(row.health, Health::Unreachable | Health::NeedsLogin)
        && row.brokers_registered.is_none()
        && row.topics.is_none()
        && row.partitions.is_none()
}

/// How wide the reason's words of the row's error are, with the `…` that
/// says more follows (`connection refused…` of `connection refused: …`;
/// all of the fleet screen's needs-login text): the ERROR column is given
/// that room first.
pub fn reason_width(row: &FleetRow) -> usize {
    if row.health == Health::NeedsLogin {
        return crate::untrusted::width(NEEDS_LOGIN);
    }
    row.error
        .as_deref()
        .map_or(0, |error| match error.split_once(':') {
            Some((words, _)) => crate::untrusted::width(words) + 1,
            None => crate::untrusted::width(error),
        })
}

/// The columns: context, health, brokers answering/registered, controller,
/// mode, version, topics, partitions, under-replicated, under-min-ISR,
/// offline, groups, worst lag (in time, and its group), events of the last
/// 5 minutes, age, error.
pub fn table() -> [Column<FleetRow>; 16] {
    [
        Column::text(
            "CONTEXT",
            (7, 40),
            |r| r.context.clone(),
            Some(|a, b| a.context.cmp(&b.context)),
        ),
        Column::text(
            "HEALTH",
            (6, 16),
            |r| health(r.health).to_owned(),
            Some(crate::fleet::by_severity),
        ),
        Column::number("BROKERS", brokers, |a, b| {
            a.brokers_answering.cmp(&b.brokers_answering)
        }),
        Column::number(
            "CONTROLLER",
            |r| dash(r.controller_id),
            |a, b| a.controller_id.cmp(&b.controller_id),
        ),
        Column::text("MODE", (4, 9), |r| dash(r.metadata_mode), None),
        Column::text("VERSION", (7, 24), version, None),
        Column::number("TOPICS", |r| dash(r.topics), |a, b| a.topics.cmp(&b.topics)),
        Column::number(
            "PARTITIONS",
            |r| dash(r.partitions),
            |a, b| a.partitions.cmp(&b.partitions),
        ),
        Column::number(
            "URP",
            |r| dash(r.under_replicated),
            |a, b| a.under_replicated.cmp(&b.under_replicated),
        ),
        Column::number("<MIN ISR", under_min_isr, |a, b| {
            a.under_min_isr.cmp(&b.under_min_isr)
        }),
        Column::number(
            "OFFLINE",
            |r| dash(r.offline),
            |a, b| a.offline.cmp(&b.offline),
        ),
        Column::number("GROUPS", |r| dash(r.groups), |a, b| a.groups.cmp(&b.groups)),
        Column::text(
            "WORST LAG",
            (9, 48),
            worst_lag,
            Some(|a, b| {
                (a.worst_lag_time_ms, a.worst_lag).cmp(&(b.worst_lag_time_ms, b.worst_lag))
            }),
        ),
        Column::number(
            "EVENTS 5m",
            |r| dash(r.events_5m),
            |a, b| a.events_5m.cmp(&b.events_5m),
        ),
        Column::number("AGE", row_age, |a, b| a.age_ms.cmp(&b.age_ms)),
        Column::fill("ERROR", (1, 5), error, None),
    ]
}
