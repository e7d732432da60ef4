//! A time cursor over a recording: the state at any moment ([`View`]) and
//! the events up to it. This is what headless `get --at` answers from, and
//! the API `kscope replay` moves through (pause, step, jump).

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::group_row::GroupRowJson;
use crate::meta::MovementEvent;

use super::frame::{Body, Health, Metadata};
use super::reader::Recording;

/// A group list as recorded: the rows, and the brokers whose listing
/// failed with why.
pub type Groups = (Vec<GroupRowJson>, Vec<(i32, String)>);

/// What the recording knew at one moment.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// The cursor, ms since the Unix epoch.
    pub at: i64,
    /// Whether a metadata snapshot had been recorded by then.
    pub has_metadata: bool,
    /// The metadata at the cursor.
    pub metadata: Metadata,
    /// kscope's liveness view at the cursor.
    pub health: Health,
    /// The last group list read by then, with the brokers that failed it.
    pub groups: Option<Groups>,
}

impl View {
    /// Apply the next frame's body (events are not state: they are read
    /// as a list, [`Recording::events_until`]).
    pub fn apply(&mut self, body: &Body) {
        match body {
            Body::Snapshot(metadata) => {
                self.metadata = metadata.clone();
                self.has_metadata = true;
            }
            Body::Delta(delta) => self.metadata.apply(delta),
            Body::Health(health) => self.health = health.clone(),
            Body::Groups { groups, failed } => {
                self.groups = Some((groups.clone(), failed.clone()));
            }
            Body::Events { .. } => {}
        }
    }
}

impl Recording {
    /// When recording started (ms since the Unix epoch).
    pub fn start_ms(&self) -> i64 {
        self.header.start_ms
    }

    /// The last frame's time (the start when there is none).
    pub fn end_ms(&self) -> i64 {
        self.frames
            .last()
            .map_or(self.header.start_ms, |f| f.t.max(self.header.start_ms))
    }

    /// The state at `at`: every frame up to and including it applied.
    pub fn view_at(&self, at: i64) -> View {
        let mut view = View {
            at,
            ..View::default()
        };
        for frame in self.frames.iter().take_while(|f| f.t <= at) {
            view.apply(&frame.body);
        }
        view
    }

    /// Every event observed up to and including `at`, in recorded order.
    pub fn events_until(&self, at: i64) -> Vec<MovementEvent> {
        self.frames
            .iter()
            .take_while(|f| f.t <= at)
            .filter_map(|f| match &f.body {
                Body::Events { events } => Some(events),
                _ => None,
            })
            .flatten()
            .map(|e| MovementEvent::from(e.clone()))
            .collect()
    }

    /// The cursor `--at TEXT` names (see [`parse_time`]).
    pub fn parse_at(&self, text: &str) -> Result<i64, String> {
        parse_time(self.start_ms(), self.end_ms(), text)
    }
}

/// The time `TEXT` names in a recording from `start` to `end` (ms since
/// the Unix epoch): RFC 3339 (`2026-12-05T19:40:04Z`), `+DURATION` after
/// the start, `-DURATION` before the end (`+90s`, `-1m30s`; units `ms`,
/// `s`, `m`, `h`), or `start` / `end`. `--at` and the replay's `:at` read
/// it alike.
pub fn parse_time(start: i64, end: i64, text: &str) -> Result<i64, String> {
    let text = text.trim();
    match text {
        "start" => return Ok(start),
        "end" => return Ok(end),
        _ => {}
    }
    if let Some(rest) = text.strip_prefix('+') {
        return Ok(start.saturating_add(offset_ms(rest)?));
    }
    if let Some(rest) = text.strip_prefix('-') {
        return Ok(end.saturating_sub(offset_ms(rest)?));
    }
    let time = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| {
        format!("--at '{text}': expected RFC 3339 (2026-12-05T19:40:04Z), +90s, -1m, start or end")
    })?;
    i64::try_from(time.unix_timestamp_nanos() / 1_000_000)
        .map_err(|_| format!("--at '{text}': out of range"))
}

/// `90s`, `1m30s`, `500ms`, `2h` as milliseconds.
pub fn offset_ms(text: &str) -> Result<i64, String> {
    let bad = || format!("'{text}': expected a duration such as 90s, 1m30s, 500ms or 2h");
    let mut total: i64 = 0;
    let mut rest = text;
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 || digits > 12 {
            return Err(bad());
        }
        let number: i64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "ms" => 1,
            "s" => 1_000,
            "m" => 60_000,
            "h" => 3_600_000,
            _ => return Err(bad()),
        };
        rest = &rest[unit_len..];
        total = total.saturating_add(number.saturating_mul(scale));
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_read_in_their_units() {
        assert_eq!(offset_ms("90s"), Ok(90_000));
        assert_eq!(offset_ms("1m30s"), Ok(90_000));
        assert_eq!(offset_ms("500ms"), Ok(500));
        assert_eq!(offset_ms("2h"), Ok(7_200_000));
        assert!(offset_ms("").is_err());
        assert!(offset_ms("s").is_err());
        assert!(offset_ms("5 minutes").is_err());
        assert!(offset_ms("99999999999999999999s").is_err());
    }
}
