//! The run loop's effects: each one `update` returns carried out off the
//! model — fetches started (one per kind, a newer one replacing the one in
//! flight), the fleet poller, `:ctx` resolution — their answers coming back
//! as [`Msg`]s. The Messages and schema effects have their own files.

use std::time::Duration;

use crate::app::{Action, AppState, Effect, Link};

use super::in_flight::Fetch;
use super::msg::Msg;
use super::run::{RESOLVE_DEADLINE, Session};
use super::worker;

impl Session {
    /// Carry out an effect; true to quit.
    pub(super) fn run(&mut self, effect: Effect, state: &AppState) -> bool {
        match effect {
            Effect::Quit => return true,
            // A live session has no recording to replay.
            Effect::Replay { .. } => {}
            Effect::StartFleet => {
                if self.fleet.is_none() {
                    match super::fleet::start(&self.args, self.tx.clone()) {
                        Ok(task) => {
                            // The session's own context is resolved already
                            // (its password_command answered): the fleet
                            // polls it with those settings, never "needs login".
                            if let Some(context) = &self.context {
                                task.logged_in(context);
                            }
                            self.fleet = Some(task);
                        }
                        Err(error) => {
                            // Said through `update`, like every other answer.
                            let notice = Action::Notice(format!("fleet: {error}"));
                            let _ = self.tx.try_send(Msg::Action(notice));
                        }
                    }
                }
            }
            Effect::Refresh => match (&self.cluster, self.context.clone()) {
                (Some(cluster), _) => cluster.invalidate(),
                // Not connected (yet, or given up): try again now.
                (None, Some(context)) => {
                    let attempts = match state.link {
                        Link::Connecting { attempt, .. } => attempt,
                        Link::Connected => 0,
                    };
                    self.start(&context, attempts);
                }
                (None, None) => {}
            },
            Effect::WatchTopics(topics) => {
                if let Some(cluster) = &self.cluster {
                    cluster.watch_topics(topics);
                }
            }
            Effect::FetchWatermarks {
                request,
                partitions,
            } => {
                if let Some(cluster) = &self.cluster {
                    let task =
                        worker::watermarks(cluster.clone(), request, partitions, self.tx.clone());
                    self.fetches.replace(Fetch::Watermarks, task);
                }
            }
            Effect::Query(query) => self.query(query),
            Effect::FetchSizes { request } => self.sizes(request),
            Effect::Messages(effect) => self.run_messages(effect),
            Effect::FetchSchema { id } => self.fetch_schema(id),
            Effect::PrepareMapping { topic } => self.prepare_mapping(topic, state),
            Effect::SwitchContext(name) => self.switch_context(name, RESOLVE_DEADLINE),
        }
        false
    }

    /// Start reading every broker's log dirs, replacing the read before.
    fn sizes(&mut self, request: u64) {
        let Some(cluster) = self.cluster.clone() else {
            return;
        };
        let task = worker::sizes(cluster, request, self.tx.clone());
        self.fetches.replace(Fetch::Sizes, task);
    }

    /// Start a screen module's fetch, replacing the one of its kind (the
    /// module's `fetch` matches every query).
    pub(super) fn query(&mut self, query: crate::app::screens::Query) {
        let reach = crate::app::screens::Reach {
            cluster: self.cluster.clone(),
            registry: self.registry.0.as_ref().map(|decoder| {
                decoder
                    .as_ref()
                    .map(|d| d.client().clone())
                    .map_err(Clone::clone)
            }),
            groups: self.groups.clone(),
        };
        let kind = Fetch::Query(query.lane());
        if let Some(work) = crate::app::screens::fetch(&reach, query) {
            let task = worker::query(work, self.tx.clone());
            self.fetches.replace(kind, task);
        }
    }

    /// Resolve context `name` off the loop; [`Msg::Resolved`] answers.
    pub(super) fn switch_context(&mut self, name: String, deadline: Duration) {
        let mut args = self.args.clone();
        args.context = Some(name.clone());
        args.bootstrap_servers = None;
        let task =
            worker::resolve_context(args, name, deadline, (self.tx.clone(), self.input.clone()));
        if let Some(superseded) = self.resolving.replace(task) {
            superseded.abort();
        }
    }
}
