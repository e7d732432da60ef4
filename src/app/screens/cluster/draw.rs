//! The Cluster screen's drawing: a panel with the cluster id, controller,
//! quorum leader, features and reassignments in progress, over the
//! quorum's replicas (a voter lagging is marked), and the data's age in the
//! title.

use std::fmt::Write as _;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::columns::format::{age, ids};
use crate::inspect::ClusterInfo;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::columns::{Row, table};

/// The visible rows: the quorum's replicas, a voter lagging in the
/// warning colour.
pub fn visible<'a>(rows: impl Iterator<Item = Row<'a>>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|row| {
            let style = if row.replica.lag > 0 && row.replica.role != "observer" {
                theme.warning
            } else {
                Style::new()
            };
            (row, style)
        }),
    )
}

/// What the title adds: the age of the data, which landed `at`.
pub fn status(at: Option<Instant>, now: Instant) -> String {
    match at {
        Some(at) => format!(" · updated {} ago", age(now.saturating_duration_since(at))),
        None => " · loading…".to_owned(),
    }
}

/// The panel above the quorum's table (`info`: the latest answer, if any).
pub fn panel(frame: &mut Frame, area: Rect, info: Option<&ClusterInfo>, theme: &Theme) {
    let Some(info) = info else {
        let line = Line::styled("cluster: loading…", theme.dim);
        frame.render_widget(Paragraph::new(line), area);
        return;
    };
    let mut first = format!(
        "cluster id {} · controller {}",
        info.cluster_id.as_deref().unwrap_or("-"),
        info.controller_id
            .map_or_else(|| "-".to_owned(), |c| c.to_string())
    );
    let mut lines = Vec::new();
    match &info.quorum {
        Ok(q) => {
            let _ = write!(
                first,
                " · quorum leader {} · epoch {} · high watermark {}",
                q.leader_id, q.leader_epoch, q.high_watermark
            );
            lines.push(Line::raw(escaped(first)));
        }
        Err(error) => {
            lines.push(Line::raw(escaped(first)));
            lines.push(Line::styled(
                escaped(format!("quorum: {error}")),
                theme.problem,
            ));
        }
    }
    lines.push(match &info.features {
        Ok(features) => {
            let shown: Vec<String> = features
                .iter()
                .map(|f| {
                    let level = f
                        .finalized
                        .map_or_else(|| "-".to_owned(), |v| v.to_string());
                    format!(
                        "{} {level} ({}-{})",
                        f.name, f.supported_min, f.supported_max
                    )
                })
                .collect();
            Line::raw(escaped(format!(
                "features (finalized, supported): {}",
                shown.join(" · ")
            )))
        }
        Err(error) => Line::styled(escaped(format!("features: {error}")), theme.problem),
    });
    lines.push(match &info.reassignments {
        Ok(moving) if moving.is_empty() => Line::raw("reassignments in progress: none"),
        Ok(moving) => {
            let shown: Vec<String> = moving
                .iter()
                .take(5)
                .map(|r| {
                    format!(
                        "{} {} [{}] +[{}] -[{}]",
                        r.topic,
                        r.partition,
                        ids(&r.replicas),
                        ids(&r.adding),
                        ids(&r.removing)
                    )
                })
                .collect();
            Line::styled(
                escaped(format!(
                    "reassignments in progress: {} · {}",
                    moving.len(),
                    shown.join(" · ")
                )),
                theme.warning,
            )
        }
        Err(error) => Line::styled(escaped(format!("reassignments: {error}")), theme.problem),
    });
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
