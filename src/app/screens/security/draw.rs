//! The security screens' drawing: the visible rows (a DENY highlighted),
//! the data's age, and a two-line notice above the table that says what is
//! listed and, instead of an error per refresh, why nothing is: not
//! authorised (and which permission is missing), or no authorizer.

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::columns::format::age;
use crate::inspect::Acls;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::columns;
use super::{Answer, Listing};

/// Rows of the notice above the table (what is listed, and a refusal or
/// "no authorizer").
pub const PANEL_ROWS: u16 = 2;

/// The visible rows `window` of listing `what` (`answer`: the one held for
/// it, if any).
pub fn visible(
    what: &Listing,
    answer: Option<&Answer>,
    theme: &Theme,
    window: impl Iterator<Item = usize>,
) -> Grid {
    match what {
        Listing::Users => grid(
            &columns::user_columns(),
            window
                .filter_map(|i| answer?.credentials().get(i))
                .map(|c| (c, Style::new())),
        ),
        Listing::Quotas => grid(
            &columns::quota_columns(),
            window
                .filter_map(|i| answer?.quotas().get(i))
                .map(|q| (q, Style::new())),
        ),
        Listing::Acls | Listing::TopicAcls(_) => grid(
            &columns::acl_columns(),
            window.filter_map(|i| answer?.acls().get(i)).map(|a| {
                let style = if a.permission == "DENY" {
                    theme.warning
                } else {
                    Style::new()
                };
                (a, style)
            }),
        ),
    }
}

/// What the title adds: the age of the data, which landed `at`.
pub fn status(at: Option<Instant>, now: Instant) -> String {
    match at {
        Some(at) => format!(" · updated {} ago", age(now.saturating_duration_since(at))),
        None => " · loading…".to_owned(),
    }
}

/// What a listing is, in one line.
fn about(what: &Listing) -> &'static str {
    match what {
        Listing::Acls => "every ACL binding (DescribeAcls); / filters; DENY highlighted",
        Listing::TopicAcls(_) => {
            "its literal, prefixed and '*' ACLs (pattern MATCH); super users are not listed"
        }
        Listing::Users => {
            "SCRAM users: mechanism and iterations only (DescribeUserScramCredentials)"
        }
        Listing::Quotas => {
            "client quotas by user, client id and IP; <default> is the default of its kind"
        }
    }
}

/// The permission each listing needs.
fn needs(what: &Listing) -> &'static str {
    match what {
        Listing::Acls | Listing::TopicAcls(_) | Listing::Users => "DESCRIBE on the cluster",
        Listing::Quotas => "DESCRIBE_CONFIGS on the cluster",
    }
}

/// The notice above the table: what is listed, and why nothing is when
/// the cluster refused or has no authorizer (`answer`: the one held for
/// `what`, if any).
pub fn panel(
    frame: &mut Frame,
    area: Rect,
    what: &Listing,
    answer: Option<&Answer>,
    theme: &Theme,
) {
    // The notice first: with the panel's two rows, a long one pushes the
    // description out, never the other way round.
    let mut lines = Vec::new();
    match answer {
        None => lines.push(Line::styled("loading…", theme.dim)),
        Some(Answer::Acls(Ok(Acls::NoAuthorizer))) => lines.push(Line::styled(
            "no authorizer (SECURITY_DISABLED): no ACLs; every principal may do anything",
            theme.warning,
        )),
        Some(answer) => match answer.error() {
            Some(error) if error.is_not_authorised() => lines.push(Line::styled(
                escaped(format!("not authorised: needs {} ({error})", needs(what))),
                theme.warning,
            )),
            Some(error) => lines.push(Line::styled(
                escaped(format!("failed: {error}")),
                theme.problem,
            )),
            None => {}
        },
    }
    lines.push(Line::styled(about(what), theme.dim));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
