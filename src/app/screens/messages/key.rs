//! `:key KEY` on the Messages screen: the topic's records with this key,
//! read from the one partition the Java client's default partitioner puts
//! it in (murmur2 of its UTF-8 bytes, [`crate::browse::partitioner`]),
//! from the partition's beginning and then following. The worker drops
//! every other record before it is staged, so the ring holds only the
//! key's records however long the partition. The status line names the
//! key; `:messages` (or another `:key`) ends it, `:seek` keeps it.

use bytes::Bytes;

use crate::browse::{Start, partitioner};
use crate::meta::MetadataSnapshot;

use crate::app::action::Effect;
use crate::app::navigate::push;
use crate::app::screen::Screen;
use crate::app::screens::messages::{self, Shown};
use crate::app::state::AppState;

/// Open the records of `key` in the topic on screen.
pub fn open(state: &mut AppState, key: &str, snap: &MetadataSnapshot, fx: &mut Vec<Effect>) {
    let Some(Shown::Records { topic, .. }) = state.view().screen.messages() else {
        state.notice = Some(":key works on the Messages screen".to_owned());
        return;
    };
    let topic = topic.clone();
    let Some(count) = snap.topic(&topic).map(|t| t.partitions.len()) else {
        state.notice = Some(format!(
            ":key: topic '{}' is not in the metadata",
            crate::anonymize::name(crate::anonymize::Kind::Topic, &topic)
        ));
        return;
    };
    let count = i32::try_from(count).unwrap_or(i32::MAX);
    let Some(partition) = partitioner::partition_for_key(key.as_bytes(), count) else {
        state.notice = Some(format!(
            ":key: topic '{}' has no partitions",
            crate::anonymize::name(crate::anonymize::Kind::Topic, &topic)
        ));
        return;
    };
    let screen = Screen::records(topic.clone(), Some(partition));
    if state.view().screen != screen {
        push(state, screen, None, fx);
    }
    state.screens.messages.key = Some(Bytes::copy_from_slice(key.as_bytes()));
    messages::restart(state, topic, Some(partition), Start::Beginning, fx);
    state.notice = Some(format!(
        "key {} is in partition {partition} of {count}: its records from the beginning \
(records written before the partition count changed may sit in another partition)",
        super::names::key(key.as_bytes())
    ));
}
