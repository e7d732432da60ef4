//! Pure row formatters: plain values in, table cells out.

pub mod groups;

use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::meta::{MovementKind, PartitionInfo, TopicStats, Watermarks};

/// `1,2,3`.
pub fn ids(ids: &[i32]) -> String {
    let parts: Vec<String> = ids.iter().map(ToString::to_string).collect();
    parts.join(",")
}

/// A topics-screen row.
pub fn topic(
    name: &str,
    internal: bool,
    stats: Option<&TopicStats>,
    messages: Option<i64>,
) -> Vec<String> {
    let name = if internal {
        format!("{name} (internal)")
    } else {
        name.to_owned()
    };
    let Some(s) = stats else {
        return vec![
            name,
            "-".into(),
            "-".into(),
            "-".into(),
            "-".into(),
            "-".into(),
            "-".into(),
        ];
    };
    vec![
        name,
        s.partitions.to_string(),
        s.replication_factor.to_string(),
        s.under_replicated.to_string(),
        s.offline.to_string(),
        format!("{:.0}%", s.preferred_leader_pct()),
        messages.map_or_else(|| "-".to_owned(), |m| m.to_string()),
    ]
}

/// A partitions-screen row.
pub fn partition(p: &PartitionInfo, marks: Option<Watermarks>) -> Vec<String> {
    vec![
        p.partition.to_string(),
        p.leader
            .map_or_else(|| "none".to_owned(), |l| l.to_string()),
        p.leader_epoch.to_string(),
        ids(&p.replicas),
        ids(&p.isr),
        if p.offline_replicas.is_empty() {
            "-".to_owned()
        } else {
            ids(&p.offline_replicas)
        },
        if p.is_preferred_leader() {
            "yes".to_owned()
        } else {
            "no".to_owned()
        },
        marks.map_or_else(|| "-".to_owned(), |m| m.low.to_string()),
        marks.map_or_else(|| "-".to_owned(), |m| m.high.to_string()),
    ]
}

/// A text sparkline of `values`, scaled to their maximum, at most `width` wide.
pub fn sparkline(values: &[u64], width: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let start = values.len().saturating_sub(width);
    let shown = &values[start..];
    let max = shown.iter().copied().max().unwrap_or(0).max(1);
    shown
        .iter()
        .map(|&v| {
            let level = usize::try_from(v.saturating_mul(7) / max).unwrap_or(7);
            BARS[level.min(7)]
        })
        .collect()
}

/// A brokers-screen row.
pub fn broker(
    id: i32,
    address: &str,
    rack: Option<&str>,
    role: &str,
    leaders: Option<usize>,
    history: &[u64],
) -> Vec<String> {
    vec![
        id.to_string(),
        address.to_owned(),
        rack.unwrap_or("-").to_owned(),
        role.to_owned(),
        leaders.map_or_else(|| "-".to_owned(), |l| l.to_string()),
        sparkline(history, 30),
    ]
}

/// `HH:MM:SS` UTC.
pub fn clock(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    format!(
        "{:02}:{:02}:{:02}",
        secs / 3600 % 24,
        secs / 60 % 60,
        secs % 60
    )
}

/// `12s`, `3m04s`, `2h05m`.
pub fn age(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

/// What a movement event says, in words.
pub fn movement_detail(kind: &MovementKind) -> String {
    let mut out = String::new();
    let _ = match kind {
        MovementKind::LeaderChanged { from, to, epoch } => {
            write!(out, "leader {from} → {to} (epoch {epoch})")
        }
        MovementKind::PartitionOffline { from, epoch } => {
            write!(out, "no leader (was {from}, epoch {epoch})")
        }
        MovementKind::PartitionOnline { to, epoch } => write!(out, "leader {to} (epoch {epoch})"),
        MovementKind::IsrShrank { isr, removed } if isr.is_empty() => {
            write!(out, "isr empty (-{})", ids(removed))
        }
        MovementKind::IsrShrank { isr, removed } => {
            write!(out, "isr {} (-{})", ids(isr), ids(removed))
        }
        MovementKind::IsrExpanded { isr, added } => {
            write!(out, "isr {} (+{})", ids(isr), ids(added))
        }
        MovementKind::ReplicasChanged { from, to } => {
            write!(out, "replicas {} → {}", ids(from), ids(to))
        }
        MovementKind::BrokerJoined { broker, address } => {
            write!(out, "broker {broker} joined at {address}")
        }
        MovementKind::BrokerLeft { broker } => write!(out, "broker {broker} left"),
        MovementKind::ControllerChanged { from, to } => write!(
            out,
            "controller {} → {}",
            from.map_or_else(|| "none".to_owned(), |f| f.to_string()),
            to.map_or_else(|| "none".to_owned(), |t| t.to_string())
        ),
        MovementKind::TopicCreated { partitions } => {
            write!(out, "created with {partitions} partitions")
        }
        MovementKind::TopicDeleted => write!(out, "deleted"),
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatters() {
        assert_eq!(ids(&[1, 2, 3]), "1,2,3");
        assert_eq!(ids(&[]), "");
        let shrank = |isr: Vec<i32>| {
            movement_detail(&MovementKind::IsrShrank {
                isr,
                removed: vec![2],
            })
        };
        assert_eq!(shrank(vec![1, 3]), "isr 1,3 (-2)");
        assert_eq!(shrank(vec![]), "isr empty (-2)");
        assert_eq!(sparkline(&[0, 5, 10], 10), "▁▄█");
        assert_eq!(sparkline(&[0, 0], 10), "▁▁");
        assert_eq!(sparkline(&[1, 2, 3, 4], 2), "▆█");
        assert_eq!(age(Duration::from_secs(5)), "5s");
        assert_eq!(age(Duration::from_secs(184)), "3m04s");
        assert_eq!(age(Duration::from_mins(125)), "2h05m");
        assert_eq!(clock(UNIX_EPOCH + Duration::from_secs(3661)), "01:01:01");
        let moved = MovementKind::LeaderChanged {
            from: 1,
            to: 2,
            epoch: 7,
        };
        assert_eq!(movement_detail(&moved), "leader 1 → 2 (epoch 7)");
        assert_eq!(
            movement_detail(&MovementKind::BrokerLeft { broker: 3 }),
            "broker 3 left"
        );
    }

    #[test]
    fn partition_row() {
        let p = PartitionInfo {
            partition: 4,
            leader: Some(2),
            leader_epoch: 9,
            replicas: vec![1, 2, 3],
            isr: vec![2, 3],
            offline_replicas: vec![],
            error: None,
        };
        let row = partition(&p, Some(Watermarks { low: 10, high: 25 }));
        assert_eq!(row, ["4", "2", "9", "1,2,3", "2,3", "-", "no", "10", "25"]);
    }
}
