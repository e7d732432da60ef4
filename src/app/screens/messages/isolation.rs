//! The Messages screen's isolation: `read_committed` (the default: aborted
//! transactions hidden, the end is the last stable offset) or
//! `read_uncommitted` (every record, the end is the high watermark).
//! Switching restarts the session from the same start, keeping the
//! selected record selected when it is read again.

use crate::browse::Isolation;

use super::names::name;
use super::{restart, selected};
use crate::app::action::Effect;
use crate::app::state::AppState;

/// Read the Messages view under `isolation` (`None`: the other one).
pub fn set(state: &mut AppState, isolation: Option<Isolation>, fx: &mut Vec<Effect>) {
    if !state.view().screen.is_records() {
        state.notice = Some("isolation is set on the Messages screen".to_owned());
        return;
    }
    let isolation = isolation.unwrap_or(match state.screens.messages.isolation {
        Isolation::ReadCommitted => Isolation::ReadUncommitted,
        Isolation::ReadUncommitted => Isolation::ReadCommitted,
    });
    let anchor = selected(state).map(|r| (r.partition, r.offset));
    let m = &mut state.screens.messages;
    m.isolation = isolation;
    let (topic, partition, start) = (m.topic.clone(), m.partition, m.start.clone());
    let what = match isolation {
        Isolation::ReadCommitted => "aborted transactions hidden",
        Isolation::ReadUncommitted => "aborted transactions shown",
    };
    state.notice = Some(format!("{}: {what}, read again", name(isolation)));
    restart(state, topic, partition, start, fx);
    state.screens.messages.anchor = anchor;
}
