//! Where browsing starts: `beginning`, `end`, an offset, `-N` (N records
//! before the end), a timestamp (`@EPOCH_MS`, ISO 8601, or relative like
//! `-15m`), or a group's committed offsets (`group:NAME`).

use std::collections::BTreeMap;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::error::{Error, Result};

/// A starting point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Each partition's log start.
    Beginning,
    /// Each partition's end (the LSO under `read_committed`).
    End,
    /// This offset in every partition.
    Offset(i64),
    /// This many records before each partition's end.
    FromEnd(i64),
    /// The first record at or after this time (ms since the epoch).
    Timestamp(i64),
    /// A group's committed offsets (resolved by the caller into
    /// [`Start::Offsets`]: browse never talks to a group coordinator).
    Group(String),
    /// An offset per partition (partitions missing from it start at the end).
    Offsets(BTreeMap<i32, i64>),
}

impl Start {
    /// Read `spec`; `now_ms` is the time relative specs count back from.
    pub fn parse(spec: &str, now_ms: i64) -> Result<Start> {
        let bad = |why: &str| Error::BadStart {
            given: spec.to_owned(),
            why: why.to_owned(),
        };
        let spec_trimmed = spec.trim();
        match spec_trimmed {
            "beginning" | "earliest" | "oldest" => return Ok(Start::Beginning),
            "end" | "latest" | "newest" => return Ok(Start::End),
            _ => {}
        }
        if let Some(group) = spec_trimmed.strip_prefix("group:") {
            if group.is_empty() {
                return Err(bad("no group name after 'group:'"));
            }
            return Ok(Start::Group(group.to_owned()));
        }
        if let Some(ms) = spec_trimmed.strip_prefix('@') {
            return ms
                .parse::<i64>()
                .map(Start::Timestamp)
                .map_err(|_| bad("'@' takes milliseconds since the epoch"));
        }
        if let Ok(offset) = spec_trimmed.parse::<i64>() {
            return Ok(if offset < 0 {
                Start::FromEnd(offset.saturating_neg())
            } else {
                Start::Offset(offset)
            });
        }
        if let Some(ago) = spec_trimmed.strip_prefix('-') {
            let ms = relative_ms(ago).ok_or_else(|| {
                bad("a relative time is a number and a unit: -30s, -15m, -2h, -1d")
            })?;
            return Ok(Start::Timestamp(now_ms.saturating_sub(ms)));
        }
        let time = OffsetDateTime::parse(spec_trimmed, &Rfc3339).map_err(|_| {
            bad("expected beginning, end, an offset, -N, @EPOCH_MS, an ISO 8601 time (2024-05-01T12:00:00Z), -15m or group:NAME")
        })?;
        let ms = time.unix_timestamp_nanos() / 1_000_000;
        i64::try_from(ms)
            .map(Start::Timestamp)
            .map_err(|_| bad("time out of range"))
    }
}

/// `15m` as milliseconds.
fn relative_ms(text: &str) -> Option<i64> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let number: i64 = number.parse().ok()?;
    let unit_ms: i64 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    number.checked_mul(unit_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000_000;

    #[test]
    fn every_spec_reads() {
        let cases = [
            ("beginning", Start::Beginning),
            ("end", Start::End),
            ("42", Start::Offset(42)),
            ("-10", Start::FromEnd(10)),
            ("@1699999999000", Start::Timestamp(1_699_999_999_000)),
            ("-15m", Start::Timestamp(NOW - 900_000)),
            ("-2h", Start::Timestamp(NOW - 7_200_000)),
            ("2023-11-14T22:13:20Z", Start::Timestamp(NOW)),
            ("2023-11-14T23:13:20+01:00", Start::Timestamp(NOW)),
            ("group:billing", Start::Group("billing".to_owned())),
        ];
        for (spec, start) in cases {
            assert_eq!(Start::parse(spec, NOW).ok(), Some(start), "{spec}");
        }
    }

    #[test]
    fn nonsense_is_refused_with_what_is_expected() {
        for spec in ["yesterday", "-15x", "@soon", "group:", "2023-13-01"] {
            let Err(error) = Start::parse(spec, NOW) else {
                panic!("{spec} was accepted");
            };
            assert!(error.to_string().contains(spec), "{error}");
        }
    }
}
