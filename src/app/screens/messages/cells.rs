//! The decoded key and value cells of the Messages rows on screen, made in
//! `update` so that drawing a frame neither decodes Avro / Protobuf / JSON
//! Schema nor takes the topic mapping's lock: the view only reads these
//! strings. Cells are kept by record sequence for the rows on screen (a
//! page), and all of them are dropped when what they were made under
//! changes — another session, another `:format`, a schema or mapping answer.
//! Records of Kafka's own topics (`__consumer_offsets`,
//! `__transaction_state`, `__share_group_state`) are decoded here too: the
//! key cell is the group or transactional id, the value cell the record as
//! what it is (`commit billing orders-3 @ 4711 epoch 5 …`).

use std::collections::HashMap;

use crate::browse::internal;

use super::MessagesStore;
use super::decoded::{Cells, Stamp};
use crate::app::state::AppState;

/// Make the cells of the Messages rows on screen that have none yet, and
/// forget the rest.
pub fn refresh(state: &mut AppState) {
    if !state.view().screen.is_records() {
        if !state.screens.messages.decoded.cells.is_empty() {
            state.screens.messages.decoded.cells = HashMap::new();
        }
        return;
    }
    let page = state.page();
    let view = state.view();
    let visible: Vec<usize> = view
        .rows
        .iter()
        .skip(view.offset)
        .take(page)
        .copied()
        .collect();
    state.screens.messages.decode(&visible);
}

impl MessagesStore {
    /// Make the cells of the records `visible` (sequences) that have none
    /// yet, and forget the others.
    fn decode(&mut self, visible: &[usize]) {
        let stamp = Stamp {
            session: self.session,
            format: Some(self.format),
            answers: self.schemas.answers,
        };
        if stamp != self.decoded.stamp {
            self.decoded.cells.clear();
            self.decoded.stamp = stamp;
        }
        let mut fresh = Vec::new();
        for &seq in visible {
            if self.decoded.cells.contains_key(&seq) {
                continue;
            }
            let Some(record) = self.record(seq) else {
                continue;
            };
            fresh.push((seq, self.cells(record)));
        }
        let decoded = &mut self.decoded;
        decoded.made += fresh.len() as u64;
        decoded.cells.extend(fresh);
        if decoded.cells.len() > visible.len() {
            decoded.cells.retain(|seq, _| visible.contains(seq));
        }
    }

    /// The cells of `record`: Kafka's own topics decoded as what their
    /// records are, others by the schemas and mappings held.
    fn cells(&self, record: &crate::browse::Record) -> Cells {
        if internal::decodes(&self.topic) {
            let decoding =
                internal::decode(&self.topic, record.key.as_deref(), record.value.as_deref());
            let group = decoding.as_ref().ok().and_then(internal::Decoded::owner);
            return Cells {
                key: group.map(|g| crate::untrusted::escape(g).into_owned()),
                value: Some(crate::untrusted::escape(&internal::line(&decoding)).into_owned()),
            };
        }
        Cells {
            key: self.schemas.cell(record.key.as_deref(), self.format),
            value: self
                .schemas
                .value_cell(&self.topic, record.value.as_deref(), self.format),
        }
    }
}
