//! Pure formatters for the consumer-group screens (and the headless
//! `describe group` table, which shows members the same way).

use std::time::Duration;

use crate::groups::{Assignment, GroupSummary, LagHistory, Member, PartitionLag, Trend};

use super::{age, sparkline};

/// How many samples a sparkline cell shows.
pub const SPARK_WIDTH: usize = 12;

/// A history's lag values as sparkline input (negative never happens; 0 if it did).
pub fn lag_values(history: &LagHistory) -> Vec<u64> {
    history
        .samples()
        .map(|s| u64::try_from(s.lag).unwrap_or(0))
        .collect()
}

/// `↑ ▁▂▃▅▇`: the trend's arrow and the recent lag as a sparkline.
pub fn trend_cell(history: Option<&LagHistory>) -> String {
    let Some(history) = history else {
        return Trend::Unknown.arrow().to_owned();
    };
    format!(
        "{} {}",
        history.trend().arrow(),
        sparkline(&lag_values(history), SPARK_WIDTH)
    )
}

/// A group's total lag: the records, or why there is no number.
pub fn total_lag(summary: &GroupSummary) -> String {
    let Some(lag) = &summary.lag else {
        return if summary.error.is_some() {
            "error"
        } else {
            "-"
        }
        .to_owned();
    };
    match lag.totals.total() {
        Some(records) => records.to_string(),
        None if lag.totals.uncommitted > 0 => "no commit".to_owned(),
        None => "-".to_owned(),
    }
}

/// A groups-list row.
pub fn group(summary: &GroupSummary, history: Option<&LagHistory>) -> Vec<String> {
    vec![
        summary.listing.group.clone(),
        summary.listing.group_type.to_string(),
        summary.state.to_string(),
        summary
            .members
            .map_or_else(|| "?".to_owned(), |n| n.to_string()),
        if summary.topics.is_empty() {
            "-".to_owned()
        } else {
            summary.topics.join(",")
        },
        total_lag(summary),
        trend_cell(history),
        summary.listing.coordinator.to_string(),
    ]
}

/// A group-offsets row: `oldest_age` is the age of the oldest unconsumed
/// record, `owner` the client id of the member holding the partition.
pub fn offset(
    p: &PartitionLag,
    oldest_age: Option<Duration>,
    owner: Option<&str>,
    history: Option<&LagHistory>,
) -> Vec<String> {
    vec![
        p.topic.clone(),
        p.partition.to_string(),
        p.committed
            .map_or_else(|| "-".to_owned(), |c| c.to_string()),
        p.end.map_or_else(|| "-".to_owned(), |e| e.to_string()),
        p.lag().to_string(),
        oldest_age.map_or_else(|| "-".to_owned(), age),
        owner.unwrap_or("-").to_owned(),
        history.map_or_else(String::new, |h| sparkline(&lag_values(h), SPARK_WIDTH)),
    ]
}

/// A member row: id, instance id, client id, host, epoch, current and
/// target assignment (`-` where the protocol has none).
pub fn member(m: &Member) -> Vec<String> {
    vec![
        m.member_id.clone(),
        m.instance_id.clone().unwrap_or_else(|| "-".to_owned()),
        m.client_id.clone(),
        m.client_host.clone(),
        m.member_epoch
            .map_or_else(|| "-".to_owned(), |e| e.to_string()),
        m.assignment.compact(),
        m.target_assignment
            .as_ref()
            .map_or_else(|| "-".to_owned(), Assignment::compact),
    ]
}

/// `12.5/s`.
pub fn rate(per_second: Option<f64>) -> String {
    per_second.map_or_else(|| "?".to_owned(), |r| format!("{r:.1}/s"))
}

/// What the history says about catching up, in words.
pub fn catch_up(history: &LagHistory) -> String {
    match history.time_to_catch_up() {
        Some(Duration::ZERO) => "caught up".to_owned(),
        Some(eta) => format!("caught up in ~{}", age(eta)),
        None if history.samples().len() < 2 => "catch-up time: measuring".to_owned(),
        None => "not catching up".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Instant;

    use super::*;
    use crate::groups::{GroupLag, GroupListing, GroupState, GroupType, LagSample};

    fn part(committed: Option<i64>, end: Option<i64>) -> PartitionLag {
        PartitionLag {
            topic: "orders".to_owned(),
            partition: 2,
            committed,
            end,
            start: None,
        }
    }

    fn history(lags: &[(u64, i64, i64)]) -> LagHistory {
        let start = Instant::now();
        let mut h = LagHistory::new(10);
        for &(secs, committed, end) in lags {
            h.push(LagSample {
                at: start + Duration::from_secs(secs),
                lag: end - committed,
                committed,
                end,
            });
        }
        h
    }

    #[test]
    fn offset_rows_say_no_commit_rather_than_zero() {
        let table = [
            (part(Some(5), Some(9)), "4"),
            (part(None, Some(9)), "no commit"),
            (part(Some(5), None), "unknown"),
            (part(Some(9), Some(5)), "past end +4"),
        ];
        for (p, lag) in table {
            let row = offset(&p, None, None, None);
            assert_eq!(row[4], lag, "{p:?}");
        }
        let row = offset(
            &part(Some(5), Some(9)),
            Some(Duration::from_secs(75)),
            Some("billing-1"),
            Some(&history(&[(0, 0, 4), (5, 0, 8)])),
        );
        assert_eq!(
            row,
            ["orders", "2", "5", "9", "4", "1m15s", "billing-1", "▄█"]
        );
    }

    #[test]
    fn group_rows_and_trend() {
        let summary = GroupSummary {
            listing: GroupListing {
                group: "billing".to_owned(),
                group_type: GroupType::Consumer,
                state: GroupState::Stable,
                protocol_type: "consumer".to_owned(),
                coordinator: 2,
            },
            members: Some(3),
            state: GroupState::Reconciling,
            lag: Some(GroupLag::new(vec![
                part(Some(1), Some(11)),
                part(None, Some(4)),
            ])),
            topics: vec!["orders".to_owned(), "audit".to_owned()],
            error: None,
        };
        let growing = history(&[(0, 0, 10), (10, 0, 100)]);
        assert_eq!(
            group(&summary, Some(&growing)),
            [
                "billing",
                "consumer",
                "Reconciling",
                "3",
                "orders,audit",
                "10",
                "↑ ▁█",
                "2"
            ]
        );
        let mut uncommitted = summary.clone();
        uncommitted.lag = Some(GroupLag::new(vec![part(None, Some(4))]));
        assert_eq!(total_lag(&uncommitted), "no commit");
        uncommitted.lag = None;
        uncommitted.error = Some("coordinator not available".to_owned());
        assert_eq!(total_lag(&uncommitted), "error");
        assert_eq!(trend_cell(None), "·");
    }

    #[test]
    fn member_rows_show_current_and_target() {
        let m = Member {
            member_id: "m-1".to_owned(),
            client_id: "billing-1".to_owned(),
            client_host: "/127.0.0.1".to_owned(),
            member_epoch: Some(7),
            assignment: Assignment(BTreeMap::from([("orders".to_owned(), vec![0, 1])])),
            target_assignment: Some(Assignment(BTreeMap::from([("orders".to_owned(), vec![0])]))),
            ..Member::default()
        };
        assert_eq!(
            member(&m),
            [
                "m-1",
                "-",
                "billing-1",
                "/127.0.0.1",
                "7",
                "orders:0,1",
                "orders:0"
            ]
        );
    }

    #[test]
    fn catching_up_in_words() {
        assert_eq!(
            catch_up(&history(&[(0, 0, 10)])),
            "catch-up time: measuring"
        );
        assert_eq!(
            catch_up(&history(&[(0, 0, 100), (10, 50, 100)])),
            "caught up in ~10s"
        );
        assert_eq!(
            catch_up(&history(&[(0, 0, 10), (10, 0, 20)])),
            "not catching up"
        );
        assert_eq!(catch_up(&history(&[(0, 10, 10)])), "caught up");
        assert_eq!(rate(Some(12.345)), "12.3/s");
        assert_eq!(rate(None), "?");
    }
}
