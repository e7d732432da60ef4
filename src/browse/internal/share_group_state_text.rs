//! A decoded `__share_group_state` record as the `decoded` JSON object that
//! `consume -o json` adds, and as one readable line.

use std::fmt::Write as _;

use super::json_obj::{Obj, hex, time};
use super::share_group_state::{
    Decoded, SNAPSHOT, State, StateBatch, UPDATE, Value, delivery_state_name,
};

impl Decoded {
    /// `share_snapshot`, `share_update`, or `unknown` for a record type this
    /// kscope does not know.
    pub fn kind(&self) -> &'static str {
        match (self.record_type, &self.key) {
            (SNAPSHOT, Some(_)) => "share_snapshot",
            (UPDATE, Some(_)) => "share_update",
            _ => "unknown",
        }
    }

    /// Append the `decoded` object: `type`, `key_version` (the record
    /// type), `group_id`, `topic_id`, `partition`, then the value's fields
    /// (`deleted: true` for a tombstone, `error` when it could not be read,
    /// `value_version` and `value_hex` when unknown).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Obj::open(out);
        o.str("type", self.kind());
        o.num("key_version", self.record_type);
        if let Some(key) = &self.key {
            o.str("group_id", &key.group_id);
            o.str("topic_id", &key.topic_id.to_string());
            o.num("partition", key.partition);
        }
        match &self.value {
            Value::Tombstone => o.bool("deleted", true),
            Value::State(state) => state_json(&mut o, state),
            Value::Unknown { version, bytes } => {
                o.num("value_version", *version);
                o.str("value_hex", &hex(bytes));
            }
            Value::Error(reason) => o.str("error", reason),
        }
        o.close();
    }

    /// One readable line: `share snapshot G TOPICID-0 start 42 state epoch 0
    /// leader epoch 3 snapshot epoch 1, 42-45 Acked x1 …`, `deleted` for a
    /// tombstone. Names are as written (the caller escapes for a terminal).
    pub fn line(&self) -> String {
        let mut s = String::with_capacity(96);
        match &self.key {
            Some(key) => {
                let what = if self.record_type == SNAPSHOT {
                    "snapshot"
                } else {
                    "update"
                };
                let _ = write!(
                    s,
                    "share {what} {} {}-{}",
                    key.group_id, key.topic_id, key.partition
                );
            }
            None => {
                let _ = write!(s, "record key version {}", self.record_type);
            }
        }
        match &self.value {
            Value::Tombstone => s.push_str(" deleted"),
            Value::State(state) => state_line(&mut s, state),
            Value::Unknown { version, bytes } => {
                let _ = write!(s, " value v{version} (not decoded) {}", hex(bytes));
            }
            Value::Error(reason) => {
                let _ = write!(s, " [value not decoded: {reason}]");
            }
        }
        s
    }
}

fn state_json(o: &mut Obj<'_>, state: &State) {
    o.num("value_version", state.version);
    o.num("snapshot_epoch", state.snapshot_epoch);
    o.opt_num("state_epoch", state.state_epoch);
    o.num("leader_epoch", state.leader_epoch);
    o.num("start_offset", state.start_offset);
    o.num("delivery_complete_count", state.delivery_complete_count);
    o.opt_num("create_timestamp", state.create_timestamp);
    o.opt_num("write_timestamp", state.write_timestamp);
    let out = o.name("state_batches");
    out.push(b'[');
    for (n, batch) in state.batches.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        batch_json(out, batch);
    }
    out.push(b']');
}

fn batch_json(out: &mut Vec<u8>, batch: &StateBatch) {
    let mut b = Obj::open(out);
    b.num("first_offset", batch.first_offset);
    b.num("last_offset", batch.last_offset);
    b.str("delivery_state", &delivery_state_name(batch.delivery_state));
    b.num("delivery_count", batch.delivery_count);
    b.close();
}

/// At most this many batches are spelled out in a line; the rest are
/// counted.
const LINE_BATCHES: usize = 8;

fn state_line(s: &mut String, state: &State) {
    if state.start_offset >= 0 {
        let _ = write!(s, " start {}", state.start_offset);
    } else if state.state_epoch.is_some() {
        // A snapshot's -1: the start offset is set at the first fetch.
        s.push_str(" start not set");
    } else {
        s.push_str(" start unchanged");
    }
    if let Some(epoch) = state.state_epoch {
        let _ = write!(s, " state epoch {epoch}");
    }
    let _ = write!(
        s,
        " leader epoch {} snapshot epoch {}",
        state.leader_epoch, state.snapshot_epoch
    );
    if state.delivery_complete_count >= 0 {
        let _ = write!(s, " complete {}", state.delivery_complete_count);
    }
    for (n, batch) in state.batches.iter().take(LINE_BATCHES).enumerate() {
        s.push_str(if n == 0 { ", " } else { " " });
        let _ = write!(
            s,
            "{}-{} {} x{}",
            batch.first_offset,
            batch.last_offset,
            delivery_state_name(batch.delivery_state),
            batch.delivery_count
        );
    }
    if state.batches.len() > LINE_BATCHES {
        let _ = write!(s, " (+{} batches)", state.batches.len() - LINE_BATCHES);
    }
    if let Some(written) = state.write_timestamp {
        let _ = write!(s, " written {}", time(written));
    }
}
