//! The security screens: ACLs (all, or those applying to a topic), SCRAM
//! users and client quotas, under a two-line notice that says what is
//! listed and, instead of an error per refresh, why nothing is: not
//! authorised (and which permission is missing), or no authorizer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::AppState;
use crate::app::security::{Answer, Security, on_screen};
use crate::columns::format::age;
use crate::columns::security;
use crate::inspect::Acls;
use crate::untrusted::escaped;

use super::screens::{Grid, grid};
use super::theme::Theme;

/// The visible rows of the security screen on top.
pub fn visible(state: &AppState, theme: &Theme, page: usize) -> Grid {
    let view = state.view();
    let window = view.rows.iter().skip(view.offset).take(page).copied();
    let what = on_screen(&view.screen);
    let answer = what.and_then(|w| state.security.held_for(w));
    match what {
        Some(Security::Users) => grid(
            &security::user_columns(),
            window
                .filter_map(|i| answer?.credentials().get(i))
                .map(|c| (c, Style::new())),
        ),
        Some(Security::Quotas) => grid(
            &security::quota_columns(),
            window
                .filter_map(|i| answer?.quotas().get(i))
                .map(|q| (q, Style::new())),
        ),
        _ => grid(
            &security::acl_columns(),
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

/// What the title adds: the data's age.
pub fn status(state: &AppState) -> String {
    if on_screen(&state.view().screen).is_none() {
        return String::new();
    }
    match state.security.at {
        Some(at) => format!(
            " · updated {} ago",
            age(state.now.saturating_duration_since(at))
        ),
        None => " · loading…".to_owned(),
    }
}

/// What a listing is, in one line.
fn about(what: &Security) -> &'static str {
    match what {
        Security::Acls => "every ACL binding (DescribeAcls); / filters; DENY highlighted",
        Security::TopicAcls(_) => {
            "its literal, prefixed and '*' ACLs (pattern MATCH); super users are not listed"
        }
        Security::Users => {
            "SCRAM users: mechanism and iterations only (DescribeUserScramCredentials)"
        }
        Security::Quotas => {
            "client quotas by user, client id and IP; <default> is the default of its kind"
        }
    }
}

/// The permission each listing needs.
fn needs(what: &Security) -> &'static str {
    match what {
        Security::Acls | Security::TopicAcls(_) | Security::Users => "DESCRIBE on the cluster",
        Security::Quotas => "DESCRIBE_CONFIGS on the cluster",
    }
}

/// The notice above the table: what is listed, and why nothing is when
/// the cluster refused or has no authorizer.
pub fn draw_panel(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let Some(what) = on_screen(&state.view().screen) else {
        return;
    };
    // The notice first: with the panel's two rows, a long one pushes the
    // description out, never the other way round.
    let mut lines = Vec::new();
    match state.security.held_for(what) {
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
