//! Formatters shared by the column tables and the panels: plain values in,
//! text out.

use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::meta::MovementKind;

/// `1,2,3`.
pub fn ids(ids: &[i32]) -> String {
    let parts: Vec<String> = ids.iter().map(ToString::to_string).collect();
    parts.join(",")
}

/// How many samples a rate's sparkline shows.
pub const RATE_WIDTH: usize = 20;

/// A rate's history as a sparkline (empty until measured).
pub fn over_time(history: Option<&std::collections::VecDeque<u64>>) -> String {
    history.map_or_else(String::new, |h| {
        sparkline(&h.iter().copied().collect::<Vec<_>>(), RATE_WIDTH)
    })
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

/// An age in 5-second steps: `<5s`, `15s`, `3m05s`, `2h05m`. For text
/// that is always on screen: it changes a fifth as often as [`age`], so an
/// idle screen is redrawn a fifth as often for it.
pub fn age_coarse(age: Duration) -> String {
    match age.as_secs() {
        0..5 => "<5s".to_owned(),
        s @ 5..3600 => self::age(Duration::from_secs(s / 5 * 5)),
        _ => self::age(age),
    }
}

/// A retention in milliseconds, in words: `7d`, `12h`, `30m`, `45s`,
/// `1500ms`; -1 is `forever`.
pub fn retention(ms: i64) -> String {
    const UNITS: [(i64, &str); 4] = [
        (86_400_000, "d"),
        (3_600_000, "h"),
        (60_000, "m"),
        (1000, "s"),
    ];
    if ms < 0 {
        return "forever".to_owned();
    }
    UNITS
        .iter()
        .find(|(unit, _)| ms >= *unit && ms % unit == 0)
        .map_or_else(
            || format!("{ms}ms"),
            |(unit, name)| format!("{}{name}", ms / unit),
        )
}

/// Bytes in binary units: `512B`, `1.5KiB`, `20.0MiB`, `3.2GiB`.
#[allow(clippy::cast_precision_loss)] // shown to one decimal
pub fn bytes(n: i64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n}B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1}{}", UNITS[unit])
}

/// A config's change in words: `retention.ms 604800000 → 86400000`, `… set
/// to 86400000`, `… removed (was 86400000)`.
pub fn config_change(config: &str, from: Option<&str>, to: Option<&str>) -> String {
    match (from, to) {
        (Some(from), Some(to)) => format!("{config} {from} → {to}"),
        (None, Some(to)) => format!("{config} set to {to}"),
        (Some(from), None) => format!("{config} removed (was {from})"),
        (None, None) => format!("{config} changed"),
    }
}

/// What a movement event says, in words.
pub fn movement_detail(kind: &MovementKind) -> String {
    if let Some(text) = group_detail(kind).or_else(|| config_detail(kind)) {
        return text;
    }
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
            let address = crate::anonymize::address(address);
            write!(out, "broker {broker} joined at {address}")
        }
        MovementKind::BrokerLeft { broker } => write!(out, "broker {broker} left"),
        MovementKind::ControllerChanged { from, to } => write!(
            out,
            "controller {} → {}",
            from.map_or_else(|| "none".to_owned(), |f| f.to_string()),
            to.map_or_else(|| "none".to_owned(), |t| t.to_string())
        ),
        MovementKind::BrokerNotAnswering { broker } => {
            write!(out, "broker {broker} not answering")
        }
        MovementKind::BrokerAnswering { broker } => write!(out, "broker {broker} answers again"),
        MovementKind::BrokerFenced { broker } => {
            write!(out, "broker {broker} fenced by the controller")
        }
        MovementKind::BrokerUnfenced { broker } => {
            write!(out, "broker {broker} unfenced by the controller")
        }
        MovementKind::MetadataFrozen { reason } => write!(out, "metadata frozen: {reason}"),
        MovementKind::MetadataLive { leader } => {
            write!(out, "metadata live again (quorum leader {leader})")
        }
        MovementKind::TopicCreated { partitions } => {
            write!(out, "created with {partitions} partitions")
        }
        MovementKind::TopicDeleted => write!(out, "deleted"),
        MovementKind::PartitionsAdded { from, to } => write!(out, "partitions {from} → {to}"),
        MovementKind::QuorumLeaderChanged { from, to, epoch } => write!(
            out,
            "quorum leader {} → {to} (epoch {epoch})",
            from.map_or_else(|| "none".to_owned(), |f| f.to_string())
        ),
        MovementKind::EventsSuppressed {
            suppressed, count, ..
        } => write!(out, "{count} more {suppressed} suppressed"),
        MovementKind::UnderMinIsr { isr, min_isr } => {
            write!(out, "isr {} under min.insync.replicas {min_isr}", ids(isr))
        }
        MovementKind::MinIsrRestored { isr, min_isr } => {
            write!(
                out,
                "isr {} back at min.insync.replicas {min_isr}",
                ids(isr)
            )
        }
        // Said by `group_detail` and `config_detail`.
        MovementKind::GroupStateChanged { .. }
        | MovementKind::GroupMembersChanged { .. }
        | MovementKind::GroupRecordsLost { .. }
        | MovementKind::GroupStuck { .. }
        | MovementKind::GroupMoving { .. }
        | MovementKind::GroupLagTrendChanged { .. }
        | MovementKind::GroupReconciling { .. }
        | MovementKind::GroupReconciled { .. }
        | MovementKind::TopicConfigChanged { .. }
        | MovementKind::BrokerConfigChanged { .. } => Ok(()),
    };
    out
}

/// What a group event says (the group's name as `--anonymize` shows it).
fn group_detail(kind: &MovementKind) -> Option<String> {
    let shown = |group: &str| crate::anonymize::name(crate::anonymize::Kind::Group, group);
    Some(match kind {
        MovementKind::GroupStateChanged { group, from, to } => {
            format!("group {}: {from} → {to}", shown(group))
        }
        MovementKind::GroupMembersChanged { group, from, to } => {
            format!("group {}: members {from} → {to}", shown(group))
        }
        MovementKind::GroupRecordsLost {
            group,
            committed,
            start,
        } => format!(
            "group {} lost {} unread records: committed {committed}, log start {start}",
            shown(group),
            start - committed
        ),
        MovementKind::GroupStuck {
            group,
            committed,
            end,
        } => format!(
            "group {} stuck at {committed} (end {end}, lag {})",
            shown(group),
            end - committed
        ),
        MovementKind::GroupMoving { group, committed } => {
            format!(
                "group {} moving again (committed {committed})",
                shown(group)
            )
        }
        MovementKind::GroupLagTrendChanged {
            group,
            from,
            to,
            rate_before,
            rate_after,
            lag,
        } => format!(
            "group {} lag {from} → {to} ({rate_before:+}/s → {rate_after:+}/s, lag {lag})",
            shown(group)
        ),
        MovementKind::GroupReconciling { group, members, .. } => format!(
            "group {} reconciling: {}",
            shown(group),
            member_changes(members)
        ),
        MovementKind::GroupReconciled { group, members, .. } => format!(
            "group {} reconciled: {}",
            shown(group),
            member_changes(members)
        ),
        _ => return None,
    })
}

/// Each member's partitions before → after, `; `-separated: `client-1
/// orders:0,1 → orders:0` (`-` for none).
fn member_changes(members: &[crate::meta::MemberChange]) -> String {
    use crate::anonymize::{Kind, name};
    let partitions = |p: &crate::meta::movement::Partitions| {
        if p.is_empty() {
            return "-".to_owned();
        }
        p.iter()
            .map(|(topic, ps)| format!("{}:{}", name(Kind::Topic, topic), ids(ps)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    members
        .iter()
        .map(|m| {
            let who = if m.client_id.is_empty() {
                name(Kind::Member, &m.member_id)
            } else {
                name(Kind::Client, &m.client_id)
            };
            let (before, after) = (&m.assignment, &m.target_assignment);
            format!("{who} {} → {}", partitions(before), partitions(after))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What a config event says: the config's change, after the broker for a
/// broker's (`broker 2: …`, `broker defaults: …`).
fn config_detail(kind: &MovementKind) -> Option<String> {
    match kind {
        MovementKind::TopicConfigChanged {
            config, from, to, ..
        } => Some(config_change(config, from.as_deref(), to.as_deref())),
        MovementKind::BrokerConfigChanged {
            broker,
            config,
            from,
            to,
            ..
        } => Some(format!(
            "{}: {}",
            broker.map_or_else(|| "broker defaults".to_owned(), |b| format!("broker {b}")),
            config_change(config, from.as_deref(), to.as_deref())
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatters() {
        assert_eq!(ids(&[1, 2, 3]), "1,2,3");
        assert_eq!(retention(604_800_000), "7d");
        assert_eq!(retention(3_600_000), "1h");
        assert_eq!(retention(90_000), "90s");
        assert_eq!(retention(1500), "1500ms");
        assert_eq!(retention(-1), "forever");
        assert_eq!(bytes(512), "512B");
        assert_eq!(bytes(1536), "1.5KiB");
        assert_eq!(bytes(3 * 1024 * 1024 * 1024), "3.0GiB");
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
        assert_eq!(age_coarse(Duration::from_millis(4999)), "<5s");
        assert_eq!(age_coarse(Duration::from_secs(14)), "10s");
        assert_eq!(age_coarse(Duration::from_secs(184)), "3m00s");
        assert_eq!(age_coarse(Duration::from_mins(125)), "2h05m");
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
}
