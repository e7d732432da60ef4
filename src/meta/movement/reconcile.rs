//! What a KIP-848 reconciliation event says of each member: its partitions
//! before and after, per topic (the shape `group_reconciling` and
//! `group_reconciled` carry, and their `before`/`after` in `watch events`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Partitions per topic, sorted: `{"orders": [0, 1, 2]}` in JSON.
pub type Partitions = BTreeMap<String, Vec<i32>>;

/// One member of a group that was (or still is) reconciling. The field
/// names are those `describe group -o json` gives a member's (so that
/// `--anonymize` knows them: ids and topics replaced, partitions kept).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberChange {
    /// The member id the coordinator gave it.
    pub member_id: String,
    /// Its `client.id`, for a reader who knows clients, not member ids.
    pub client_id: String,
    /// `group_reconciling`: what it owns now. `group_reconciled`: what it
    /// owned when the group was first seen reconciling.
    pub assignment: Partitions,
    /// `group_reconciling`: its target (what the coordinator wants it to
    /// own). `group_reconciled`: the target it reached (the last one seen
    /// while it reconciled: a converged group's members own their targets).
    pub target_assignment: Partitions,
}

impl MemberChange {
    /// About how many heap bytes it holds (for the event log's byte bound).
    pub fn approx_bytes(&self) -> usize {
        let side = |p: &Partitions| {
            p.iter()
                .map(|(topic, ps)| topic.len() + ps.len() * size_of::<i32>() + 48)
                .sum::<usize>()
        };
        size_of::<MemberChange>()
            + self.member_id.len()
            + self.client_id.len()
            + side(&self.assignment)
            + side(&self.target_assignment)
    }
}
