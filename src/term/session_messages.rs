//! The run loop's Messages effects: the browse and find sessions (a browse
//! asked for before the cluster is connected starts once it is), saving
//! and copying records.

use crate::app::Action;
use crate::app::screens::messages::effect::Effect as MessagesEffect;

use super::in_flight::Fetch;
use super::msg::Msg;
use super::run::Session;

impl Session {
    /// The context's mask rules (none before one is resolved).
    pub(super) fn mask(&self) -> crate::browse::mask::Masker {
        self.context
            .as_ref()
            .map(|c| c.mask.clone())
            .unwrap_or_default()
    }

    /// The context's registry decoder, if it has a working one: the
    /// workers decode registry-framed records with it before masking them
    /// (and `:find` before a jq expression looks at them).
    pub(super) fn decoder(&self) -> Option<crate::schema::Decoder> {
        match &self.registry.0 {
            Some(Ok(decoder)) => Some(decoder.clone()),
            _ => None,
        }
    }

    /// Carry out an effect of the Messages screen: its browse session
    /// (kept until connected, if need be), saving and copying records.
    pub(super) fn run_messages(&mut self, effect: MessagesEffect) {
        match effect {
            MessagesEffect::Browse {
                session,
                topic,
                partition,
                start,
                isolation,
                key,
            } => {
                let ask = crate::term::browse::Ask {
                    session,
                    topic,
                    partition,
                    start,
                    isolation,
                    key,
                    mask: self.mask(),
                    registry: self.decoder(),
                };
                match &self.cluster {
                    Some(cluster) => {
                        let task =
                            crate::term::browse::start(cluster.clone(), ask, self.tx.clone());
                        self.fetches.replace(Fetch::Browse, task);
                    }
                    // Not connected yet: start it once connected.
                    None => self.pending_browse = Some(ask),
                }
            }
            MessagesEffect::StopBrowse => {
                self.pending_browse = None;
                self.fetches.stop(Fetch::Browse);
            }
            MessagesEffect::Save {
                path,
                topic,
                records,
                force,
            } => {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let notice = crate::term::save::save(&path, &topic, &records, force);
                    let _ = tx.blocking_send(Msg::Action(Action::Notice(notice)));
                });
            }
            MessagesEffect::Copy(value) => super::worker::copy(&value, &self.tx),
            MessagesEffect::Find {
                id,
                topic,
                partition,
                start,
                isolation,
                pattern,
                jq,
            } => {
                if let Some(cluster) = &self.cluster {
                    let ask = crate::term::browse::Ask {
                        session: id,
                        topic,
                        partition,
                        start,
                        isolation,
                        key: None,
                        mask: self.mask(),
                        registry: self.decoder(),
                    };
                    let task = crate::term::find::start(
                        cluster.clone(),
                        ask,
                        (pattern, jq),
                        self.tx.clone(),
                    );
                    self.fetches.replace(Fetch::Find, task);
                }
            }
            MessagesEffect::StopFind => self.fetches.stop(Fetch::Find),
        }
    }
}
