//! The run loop's schema-registry effects: schemas and topic mappings
//! fetched off the loop (the subject list is the schema screen module's
//! own fetch), answered with [`Msg::Schema`] under
//! the registry's epoch (an answer from a previous context's registry is
//! dropped).

use crate::app::failure::{Failure, Kind};
use crate::app::{Action, AppState};

use super::msg::Msg;
use super::run::Session;

impl Session {
    /// Queue `msg` for the loop from a task: the loop cannot wait for room in
    /// its own queue, and an answer dropped for want of room would leave its
    /// screen waiting for ever.
    fn answer_later(&self, msg: Msg) {
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(msg).await;
        });
    }

    /// Fetch schema `id` off the loop (the decoder caches it for the
    /// session); [`Msg::Schema`] answers.
    pub(super) fn fetch_schema(&self, id: u32) {
        let epoch = self.registry.1;
        let decoder = match &self.registry.0 {
            Some(Ok(decoder)) => decoder.clone(),
            Some(Err(error)) => {
                // The registry's config is unusable: asking again cannot help.
                let failure = Failure::new(Kind::Final, error.message.clone());
                let answer = Action::Schema {
                    id,
                    result: Err(failure),
                };
                self.answer_later(Msg::Schema(epoch, answer));
                return;
            }
            None => return,
        };
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let result = decoder.schema(id).await.map_err(|error| {
                Failure::worded(&error, crate::schema::decoder::reason(id, &error))
            });
            let _ = tx
                .send(Msg::Schema(epoch, Action::Schema { id, result }))
                .await;
        });
    }

    /// Compile `topic`'s mapping on the blocking pool (it reads a file or
    /// asks the registry); [`Msg::Schema`] answers.
    pub(super) fn prepare_mapping(&self, topic: String, state: &AppState) {
        let epoch = self.registry.1;
        let mappings = state.screens.messages.schemas.mappings.clone();
        let client = match &self.registry.0 {
            Some(Ok(decoder)) => Some(decoder.client().clone()),
            _ => None,
        };
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let prepared = topic.clone();
            let _ = tokio::task::spawn_blocking(move || {
                mappings.prepare(&prepared, client.as_ref());
            })
            .await;
            let _ = tx
                .send(Msg::Schema(epoch, Action::MappingPrepared { topic }))
                .await;
        });
    }
}
