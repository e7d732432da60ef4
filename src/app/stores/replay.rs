//! The time cursor over a recording (`super::super::replay` moves it).

use std::time::{Duration, Instant};

/// The cursor over a recording.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// The recording's start (ms since the Unix epoch).
    pub start: i64,
    /// Its first snapshot's time (a little after `start`: the recorder
    /// connects first); `<` goes there.
    pub first: i64,
    /// Its last frame's time.
    pub end: i64,
    /// The cursor.
    pub at: i64,
    /// Whether the cursor moves with the clock (1× real time).
    pub playing: bool,
    /// When the cursor last moved with the clock (monotonic), while playing.
    pub played_at: Option<Instant>,
    /// Every distinct frame time, ascending (`[`/`]` step through them).
    pub frames: Vec<i64>,
    /// Every distinct time events were recorded at, ascending (`n`/`N`).
    pub events: Vec<i64>,
    /// Where the file is damaged, if it is: replayed up to there.
    pub damage: Option<String>,
    /// Whether it holds any group list (the Topics LAG column follows
    /// them if so).
    pub has_groups: bool,
}

impl Replay {
    /// `REPLAY 2026-12-05T12:00:15.000Z (paused) 15s/30s` for the header.
    pub fn header(&self) -> String {
        let state = if self.playing { "playing" } else { "paused" };
        let position = age(self.at.saturating_sub(self.start));
        let duration = age(self.end.saturating_sub(self.start));
        format!(
            "REPLAY {} ({state}) {position}/{duration}",
            rfc3339(self.at)
        )
    }
}

/// `ms` milliseconds as `15s`, `3m05s`, `2h05m`.
fn age(ms: i64) -> String {
    crate::columns::format::age(Duration::from_millis(u64::try_from(ms).unwrap_or(0)))
}

/// `ms` since the Unix epoch in RFC 3339, UTC, to the millisecond
/// (`2026-12-05T12:00:10.250Z`: frames are often closer than a second;
/// `:at` and `--at` read it back).
pub fn rfc3339(ms: i64) -> String {
    let nanos = i128::from(ms.div_euclid(1_000)) * 1_000_000_000;
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .map_or_else(
            || ms.to_string(),
            |second| {
                let millis = ms.rem_euclid(1_000);
                format!("{}.{millis:03}Z", second.trim_end_matches('Z'))
            },
        )
}
