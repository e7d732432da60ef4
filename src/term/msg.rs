//! What reaches the run loop: actions for `update`, and what the session
//! takes in before `update` sees it (a cluster, a snapshot, a resolved
//! context, a browse session's staging, a registry's answer).

use std::sync::Arc;

use crate::app::{Action, Failure};
use crate::config::resolve::ResolvedContext;
use crate::meta::Cluster;

/// What reaches the loop.
pub enum Msg {
    /// For `update`.
    Action(Action),
    /// A connection to the named context succeeded.
    Connected(Cluster, String),
    /// A new snapshot was installed.
    Generation,
    /// `:ctx NAME` resolved (off the loop), or why it could not be.
    Resolved(String, Result<Box<ResolvedContext>, Failure>),
    /// `:ctx NAME` needs its `password_command` run on the terminal; the
    /// input thread is held (`super::login`).
    Login(Box<super::login::Login>),
    /// A browse session has records or notices staged.
    Browsed(Arc<super::staging::Staging>),
    /// An answer from the schema registry of this epoch (the session's `registry`).
    Schema(u64, Action),
}
