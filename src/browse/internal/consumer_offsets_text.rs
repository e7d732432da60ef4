//! A decoded `__consumer_offsets` record as the `decoded` JSON object that
//! `consume -o json` adds, and as one readable line (the table's and the
//! Messages screen's value cell).

use std::fmt::Write as _;

use super::consumer_offsets::{Decoded, GroupMetadata, Key, Member, OffsetCommit, Value};
use super::json_obj::{Obj, hex, time};

/// The `decoded` object of a key that could not be read.
pub fn write_error_json(reason: &str, out: &mut Vec<u8>) {
    let mut o = Obj::open(out);
    o.str("type", "error");
    o.str("error", reason);
    o.close();
}

impl Decoded {
    /// `offset_commit`, `group_metadata` or `unknown`.
    pub fn kind(&self) -> &'static str {
        match self.key {
            Key::OffsetCommit { .. } => "offset_commit",
            Key::GroupMetadata { .. } => "group_metadata",
            Key::Other { .. } => "unknown",
        }
    }

    /// Append the `decoded` object: `type`, the key's fields, then the
    /// value's (`deleted: true` for a tombstone, `error` when it could not
    /// be read, `value_version` and `value_hex` when unknown).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let mut o = Obj::open(out);
        o.str("type", self.kind());
        match &self.key {
            Key::OffsetCommit {
                version,
                group,
                topic,
                partition,
            } => {
                o.num("key_version", *version);
                o.str("group", group);
                o.str("topic", topic);
                o.num("partition", *partition);
            }
            Key::GroupMetadata { group } => {
                o.num("key_version", 2_i16);
                o.str("group", group);
            }
            Key::Other {
                version,
                group,
                bytes,
            } => {
                o.num("key_version", *version);
                o.opt_str("group", group.as_deref());
                o.str("key_hex", &hex(bytes));
            }
        }
        match &self.value {
            Value::Tombstone => o.bool("deleted", true),
            Value::OffsetCommit(c) => commit_json(&mut o, c),
            Value::GroupMetadata(g) => group_json(&mut o, g),
            Value::Unknown { version, bytes } => {
                o.num("value_version", *version);
                o.str("value_hex", &hex(bytes));
            }
            Value::Error(reason) => o.str("error", reason),
        }
        o.close();
    }

    /// One readable line: `commit GROUP TOPIC-P @ OFFSET epoch E …`,
    /// `group GROUP consumer gen 3 range leader … members: …`, `deleted` for
    /// a tombstone. Names are as written (the caller escapes for a terminal).
    pub fn line(&self) -> String {
        let mut s = String::with_capacity(96);
        match &self.key {
            Key::OffsetCommit {
                group,
                topic,
                partition,
                ..
            } => {
                let _ = write!(s, "commit {group} {topic}-{partition}");
            }
            Key::GroupMetadata { group } => {
                let _ = write!(s, "group {group}");
            }
            Key::Other { version, group, .. } => {
                let _ = write!(
                    s,
                    "record type {version} of group {}",
                    group.as_deref().unwrap_or("?")
                );
            }
        }
        match &self.value {
            Value::Tombstone => s.push_str(" deleted"),
            Value::OffsetCommit(c) => commit_line(&mut s, c),
            Value::GroupMetadata(g) => group_line(&mut s, g),
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

fn commit_json(o: &mut Obj<'_>, c: &OffsetCommit) {
    o.num("value_version", c.version);
    o.num("offset", c.offset);
    o.num("leader_epoch", c.leader_epoch);
    o.str("metadata", &c.metadata);
    o.num("commit_timestamp", c.commit_timestamp);
    if let Some(expire) = c.expire_timestamp {
        o.num("expire_timestamp", expire);
    }
}

fn group_json(o: &mut Obj<'_>, g: &GroupMetadata) {
    o.num("value_version", g.version);
    o.str("protocol_type", &g.protocol_type);
    o.num("generation", g.generation);
    o.opt_str("protocol", g.protocol.as_deref());
    o.opt_str("leader", g.leader.as_deref());
    o.opt_num("current_state_timestamp", g.current_state_timestamp);
    let out = o.name("members");
    out.push(b'[');
    for (n, m) in g.members.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        member_json(out, m);
    }
    out.push(b']');
}

fn member_json(out: &mut Vec<u8>, m: &Member) {
    let mut o = Obj::open(out);
    o.str("member_id", &m.member_id);
    o.opt_str("group_instance_id", m.group_instance_id.as_deref());
    o.str("client_id", &m.client_id);
    o.str("client_host", &m.client_host);
    o.opt_num("rebalance_timeout_ms", m.rebalance_timeout);
    o.num("session_timeout_ms", m.session_timeout);
    o.num("subscription_bytes", m.subscription_bytes);
    o.num("assignment_bytes", m.assignment_bytes);
    o.close();
}

fn commit_line(s: &mut String, c: &OffsetCommit) {
    let _ = write!(s, " @ {}", c.offset);
    if c.leader_epoch >= 0 {
        let _ = write!(s, " epoch {}", c.leader_epoch);
    }
    let _ = write!(s, " at {}", time(c.commit_timestamp));
    if let Some(expire) = c.expire_timestamp.filter(|&e| e >= 0) {
        let _ = write!(s, " expires {}", time(expire));
    }
    if !c.metadata.is_empty() {
        let _ = write!(s, " metadata {:?}", c.metadata);
    }
}

fn group_line(s: &mut String, g: &GroupMetadata) {
    let _ = write!(
        s,
        " {} gen {} {} leader {}",
        if g.protocol_type.is_empty() {
            "-"
        } else {
            &g.protocol_type
        },
        g.generation,
        g.protocol.as_deref().unwrap_or("-"),
        g.leader.as_deref().unwrap_or("-"),
    );
    if let Some(at) = g.current_state_timestamp.filter(|&t| t >= 0) {
        let _ = write!(s, " since {}", time(at));
    }
    let _ = write!(s, ", {} members", g.members.len());
    for (n, m) in g.members.iter().enumerate() {
        s.push_str(if n == 0 { ": " } else { "; " });
        let _ = write!(s, "{} ({}@{}", m.member_id, m.client_id, m.client_host);
        if let Some(instance) = &m.group_instance_id {
            let _ = write!(s, ", instance {instance}");
        }
        let _ = write!(s, ", session {} ms", m.session_timeout);
        if let Some(rebalance) = m.rebalance_timeout {
            let _ = write!(s, ", rebalance {rebalance} ms");
        }
        s.push(')');
    }
}
