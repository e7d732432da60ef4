//! Test fixtures shared by the group column tables' tests: a partition's
//! lag and a two-partition consumer group summary.

use crate::groups::{GroupLag, GroupListing, GroupState, GroupSummary, GroupType, PartitionLag};

/// Partition 2 of `orders` with these committed and end offsets.
pub fn part(committed: Option<i64>, end: Option<i64>) -> PartitionLag {
    PartitionLag {
        topic: "orders".into(),
        partition: 2,
        committed,
        end,
        start: None,
        reported: None,
    }
}

/// Group `billing`: a reconciling consumer group of 3 members, lag 10 on
/// one partition and no commit on another.
pub fn billing() -> GroupSummary {
    GroupSummary {
        listing: GroupListing {
            group: "billing".to_owned(),
            group_type: GroupType::Consumer,
            state: GroupState::Stable,
            protocol_type: "consumer".to_owned(),
            coordinator: 2,
        },
        members: Some(3),
        state: GroupState::Reconciling,
        lag: Some(GroupLag::new(vec![
            part(Some(1), Some(11)),
            part(None, Some(4)),
        ])),
        topics: vec!["orders".into(), "audit".into()],
        reconciling: None,
        error: None,
    }
}
