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

use super::decoded::{Cells, Stamp};
use crate::app::screen::Screen;
use crate::app::state::AppState;

/// Make the cells of the Messages rows on screen that have none yet, and
/// forget the rest.
pub fn refresh(state: &mut AppState) {
    if !matches!(state.view().screen, Screen::Messages { .. }) {
        if !state.decoded.cells.is_empty() {
            state.decoded.cells = HashMap::new();
        }
        return;
    }
    let stamp = Stamp {
        session: state.messages.session,
        format: Some(state.messages.format),
        answers: state.schemas.answers,
    };
    if stamp != state.decoded.stamp {
        state.decoded.cells.clear();
        state.decoded.stamp = stamp;
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
    let m = &state.messages;
    let mut fresh = Vec::new();
    for &seq in &visible {
        if state.decoded.cells.contains_key(&seq) {
            continue;
        }
        let Some(record) = m.record(seq) else {
            continue;
        };
        if internal::decodes(&m.topic) {
            let decoding =
                internal::decode(&m.topic, record.key.as_deref(), record.value.as_deref());
            let group = decoding.as_ref().ok().and_then(internal::Decoded::owner);
            fresh.push((
                seq,
                Cells {
                    key: group.map(|g| crate::untrusted::escape(g).into_owned()),
                    value: Some(crate::untrusted::escape(&internal::line(&decoding)).into_owned()),
                },
            ));
            continue;
        }
        fresh.push((
            seq,
            Cells {
                key: state.schemas.cell(record.key.as_deref(), m.format),
                value: state
                    .schemas
                    .value_cell(&m.topic, record.value.as_deref(), m.format),
            },
        ));
    }
    let decoded = &mut state.decoded;
    decoded.made += fresh.len() as u64;
    decoded.cells.extend(fresh);
    if decoded.cells.len() > visible.len() {
        decoded.cells.retain(|seq, _| visible.contains(seq));
    }
}
