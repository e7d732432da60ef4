//! Formatters for the consumer-group tables and the panel above a group's
//! tables: lag, trend, rates, catch-up.

use std::time::Duration;

use crate::groups::{GroupSummary, LagHistory, Trend};

use super::format::{age, sparkline};

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
    use std::time::Instant;

    use super::*;
    use crate::columns::fixtures::{billing, part};
    use crate::groups::{GroupLag, LagSample};

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
    fn total_lag_and_trend_in_words() {
        let summary = billing();
        assert_eq!(total_lag(&summary), "10");
        let mut uncommitted = summary.clone();
        uncommitted.lag = Some(GroupLag::new(vec![part(None, Some(4))]));
        assert_eq!(total_lag(&uncommitted), "no commit");
        uncommitted.lag = None;
        uncommitted.error = Some("coordinator not available".to_owned());
        assert_eq!(total_lag(&uncommitted), "error");
        assert_eq!(trend_cell(None), "·");
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
