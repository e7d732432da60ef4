//! A decoded `__transaction_state` record as the `decoded` JSON object that
//! `consume -o json` adds, and as one readable line.

use std::fmt::Write as _;

use super::json_obj::{Obj, hex, time};
use super::transaction_state::{Decoded, Transaction, Value, state_name};

impl Decoded {
    /// `transaction`, or `unknown` for a key version this kscope does not know.
    pub fn kind(&self) -> &'static str {
        if self.transactional_id.is_some() {
            "transaction"
        } else {
            "unknown"
        }
    }

    /// Append the `decoded` object: `type`, `key_version`,
    /// `transactional_id`, then the value's fields (`deleted: true` for a
    /// tombstone, `error` when it could not be read, `value_version` and
    /// `value_hex` when unknown).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Obj::open(out);
        o.str("type", self.kind());
        o.num("key_version", self.key_version);
        o.opt_str("transactional_id", self.transactional_id.as_deref());
        match &self.value {
            Value::Tombstone => o.bool("deleted", true),
            Value::Transaction(t) => transaction_json(&mut o, t),
            Value::Unknown { version, bytes } => {
                o.num("value_version", *version);
                o.str("value_hex", &hex(bytes));
            }
            Value::Error(reason) => o.str("error", reason),
        }
        o.close();
    }

    /// One readable line: `transaction ID Ongoing producer 7 epoch 0
    /// timeout 60000 ms, orders-0,1 since …`, `deleted` for a tombstone.
    /// Names are as written (the caller escapes for a terminal).
    pub fn line(&self) -> String {
        let mut s = String::with_capacity(96);
        match &self.transactional_id {
            Some(id) => {
                let _ = write!(s, "transaction {id}");
            }
            None => {
                let _ = write!(s, "record key version {}", self.key_version);
            }
        }
        match &self.value {
            Value::Tombstone => s.push_str(" deleted"),
            Value::Transaction(t) => transaction_line(&mut s, t),
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

fn transaction_json(o: &mut Obj<'_>, t: &Transaction) {
    o.num("value_version", t.version);
    o.num("producer_id", t.producer_id);
    o.num("previous_producer_id", t.previous_producer_id);
    o.num("next_producer_id", t.next_producer_id);
    o.num("producer_epoch", t.producer_epoch);
    o.num("timeout_ms", t.timeout_ms);
    o.str("state", &state_name(t.status));
    let out = o.name("partitions");
    out.push(b'[');
    for (n, topic) in t.partitions.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        let mut p = Obj::open(out);
        p.str("topic", &topic.topic);
        let ids = p.name("partitions");
        ids.push(b'[');
        for (i, id) in topic.partitions.iter().enumerate() {
            if i > 0 {
                ids.push(b',');
            }
            ids.extend_from_slice(itoa::Buffer::new().format(*id).as_bytes());
        }
        ids.push(b']');
        p.close();
    }
    out.push(b']');
    o.num("last_update_timestamp", t.last_update_timestamp);
    o.num("start_timestamp", t.start_timestamp);
    o.num("client_transaction_version", t.client_transaction_version);
}

fn transaction_line(s: &mut String, t: &Transaction) {
    let _ = write!(
        s,
        " {} producer {} epoch {} timeout {} ms",
        state_name(t.status),
        t.producer_id,
        t.producer_epoch,
        t.timeout_ms
    );
    for (n, topic) in t.partitions.iter().enumerate() {
        s.push_str(if n == 0 { ", " } else { " " });
        let _ = write!(s, "{}-", topic.topic);
        for (i, id) in topic.partitions.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{id}");
        }
    }
    if t.start_timestamp >= 0 {
        let _ = write!(s, " started {}", time(t.start_timestamp));
    }
    let _ = write!(s, " updated {}", time(t.last_update_timestamp));
}
