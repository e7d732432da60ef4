//! The fleet poller for the fleet screen: started by
//! [`crate::app::Effect::StartFleet`], it polls every context of the config
//! (and the command line's `-b`) on its own task, and each publication
//! reaches `update` as the fleet module's message ([`Action::Screen`]). It outlives `:ctx` (a context
//! switch aborts the session's tasks, not this one) and stops with kscope.

use tokio::sync::mpsc::Sender;
use tokio::task::JoinHandle;

use crate::app::Action;
use crate::config::cli::ConnectArgs;
use crate::config::resolve::{ResolvedContext, Selection};
use crate::fleet::{Fleet, FleetSettings, targets};

use super::msg::Msg;

/// The running poller and the task handing its rows to the loop.
pub struct FleetTask {
    /// Dropping it stops the polling.
    fleet: Fleet,
    forward: JoinHandle<()>,
}

impl FleetTask {
    /// A context the session resolved (its `password_command` answered, on
    /// the user's `:ctx` or Enter): a "needs login" row is polled with its
    /// settings from now on, read-only like every fleet poll.
    pub fn logged_in(&self, context: &ResolvedContext) {
        let mut context = context.clone();
        context.read_only = true;
        context.connection.read_only = true;
        self.fleet.logged_in(context);
    }
}

impl Drop for FleetTask {
    fn drop(&mut self) {
        self.forward.abort();
    }
}

/// Start polling the contexts `args` point at (the config file, and `-b`
/// as a one-off row). A config that cannot be loaded is said as a notice.
pub fn start(args: &ConnectArgs, tx: Sender<Msg>) -> Result<FleetTask, String> {
    let loaded = crate::config::load::load(args.config.as_deref()).map_err(|e| e.to_string())?;
    let settings = FleetSettings::from_config(&loaded.file);
    // Only an explicit -b adds a row: a sourced KSCOPE_BOOTSTRAP does not.
    let selection = Selection {
        bootstrap: args.bootstrap_servers.clone(),
        overrides: args.overrides.clone(),
        read_only: true,
        ..Selection::default()
    };
    let targets = targets(loaded, &selection);
    if targets.is_empty() {
        return Err("the fleet needs contexts in the config file (or -b)".to_owned());
    }
    let fleet = Fleet::start(targets, settings);
    let mut rows = fleet.subscribe();
    let forward = tokio::spawn(async move {
        loop {
            let latest = rows.borrow_and_update().clone();
            let publication = Action::Screen(crate::app::screens::Msg::Fleet(latest));
            if tx.send(Msg::Action(publication)).await.is_err() {
                return;
            }
            if rows.changed().await.is_err() {
                return;
            }
        }
    });
    Ok(FleetTask { fleet, forward })
}
