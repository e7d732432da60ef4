//! The fleet screen (`:fleet`, `kscope --fleet`): every context of the
//! config at a glance, worst first, polled by `crate::fleet` on its own
//! task (started the first time the screen opens, kept across `:ctx`).
//! Enter switches the session to the selected context and opens its
//! Topics screen with the fleet under it: Esc comes back to the rows,
//! still live.

use crate::fleet::FleetRows;

use super::action::Effect;
use super::screen::Screen;
use super::state::AppState;
use super::stores::fleet::FleetStore;

/// Open the fleet screen, starting the poller the first time.
pub fn open(state: &mut AppState, fx: &mut Vec<Effect>) {
    if !state.fleet.started {
        state.fleet.started = true;
        fx.push(Effect::StartFleet);
    }
    super::navigate::push(state, Screen::Fleet, None, fx);
}

/// Take a publication of the poller.
pub fn receive(state: &mut AppState, rows: FleetRows) {
    state.fleet.rows = Some(rows);
    state.fleet.answers += 1;
}

/// The rows `/` keeps: context name, health and error are matched.
pub fn build(store: &FleetStore, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    let Some(rows) = &store.rows else {
        return Vec::new();
    };
    rows.iter()
        .enumerate()
        .filter(|(_, r)| {
            keep(&format!(
                "{} {} {}",
                r.context,
                crate::columns::fleet::health(r.health),
                r.error.as_deref().unwrap_or_default()
            ))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Enter on a row: the session's own context opens its Topics screen;
/// another is switched to (its Topics screen opens once it resolves, over
/// the fleet).
pub fn select(state: &mut AppState, fx: &mut Vec<Effect>) {
    let view = state.view();
    let Some(row) = view
        .rows
        .get(view.selected)
        .and_then(|&i| state.fleet.row(i))
    else {
        return;
    };
    let name = row.context.clone();
    if name == state.context {
        super::navigate::push(state, Screen::topics(), None, fx);
    } else if name == crate::config::resolve::ONE_OFF {
        state.notice =
            Some("the command line's -b cluster is opened by starting kscope with -b".to_owned());
    } else {
        state.notice = Some(format!("switching to context '{name}'"));
        fx.push(Effect::SwitchContext(name));
    }
}
