//! Committed offsets with `OffsetFetch`: from v8 one request carries many
//! groups, so a refresh sends one request per coordinator and batch instead
//! of one per group.
//!
//! The defaults are traps. `OffsetFetchRequestGroup::default()` has
//! `topics: Some(vec![])` — *no* topics, an empty answer that looks like "no
//! commits" — while "all topics" is `None`. And at v8+ the top-level `topics`
//! must stay `Some(vec![])`: `None` there is a field outside the version and
//! fails to encode.

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::offset_fetch_request::OffsetFetchRequestGroup;
use crate::conn::protocol::messages::{GroupId, OffsetFetchRequest, OffsetFetchResponse};

/// The first `OffsetFetch` version that batches groups.
pub const BATCHED_VERSION: i16 = 8;

/// How many groups go in one `OffsetFetch` by default. The answer carries
/// every committed partition of every group in it, so the batch is bounded
/// to keep one response well under the frame cap.
pub const DEFAULT_BATCH: usize = 100;

/// One group's committed offsets: `(topic, partition)` → offset. Partitions
/// without a commit are absent (the broker reports them as offset -1).
pub type Committed = BTreeMap<(String, i32), i64>;

/// Groups split into batches per coordinator: `(coordinator, groups)`.
pub fn batches(groups: &[(String, i32)], batch: usize) -> Vec<(i32, Vec<String>)> {
    let batch = batch.max(1);
    let mut by_node: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    for (group, node) in groups {
        by_node.entry(*node).or_default().push(group.clone());
    }
    by_node
        .into_iter()
        .flat_map(|(node, groups)| {
            groups
                .chunks(batch)
                .map(|chunk| (node, chunk.to_vec()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// One batched request (v8+) for all topics of each group in `groups`.
pub fn batched_request(groups: &[String]) -> OffsetFetchRequest {
    OffsetFetchRequest::default()
        .with_groups(
            groups
                .iter()
                .map(|group| {
                    OffsetFetchRequestGroup::default()
                        .with_group_id(GroupId(StrBytes::from_string(group.clone())))
                        .with_topics(None)
                })
                .collect(),
        )
        .with_require_stable(false)
}

/// One request (v1–v7) for all topics of one group. `None` means "all
/// topics" from v2; v1 has no way to ask for everything.
pub fn single_request(group: &str) -> OffsetFetchRequest {
    OffsetFetchRequest::default()
        .with_group_id(GroupId(StrBytes::from_string(group.to_owned())))
        .with_topics(None)
}

/// A group's committed offsets, or the code the broker gave for it.
pub type Fetched = (String, Result<Committed, ErrorCode>);

fn keep(committed: &mut Committed, topic: &str, partition: i32, offset: i64, code: i16) {
    // A partition error (UNSTABLE_OFFSET_COMMIT while a transaction is open)
    // or offset -1 (no commit) both leave the partition uncommitted.
    if code == 0 && offset >= 0 {
        committed.insert((topic.to_owned(), partition), offset);
    }
}

/// Read a batched (v8+) answer.
pub fn read_batched(response: &OffsetFetchResponse) -> Vec<Fetched> {
    response
        .groups
        .iter()
        .map(|group| {
            let name = group.group_id.0.to_string();
            if let Some(code) = ErrorCode::from_code(group.error_code) {
                return (name, Err(code));
            }
            let mut committed = Committed::new();
            for topic in &group.topics {
                for p in &topic.partitions {
                    let (offset, code) = (p.committed_offset, p.error_code);
                    keep(
                        &mut committed,
                        topic.name.as_str(),
                        p.partition_index,
                        offset,
                        code,
                    );
                }
            }
            (name, Ok(committed))
        })
        .collect()
}

/// Read a single-group (v1–v7) answer.
pub fn read_single(group: &str, response: &OffsetFetchResponse) -> Fetched {
    if let Some(code) = ErrorCode::from_code(response.error_code) {
        return (group.to_owned(), Err(code));
    }
    let mut committed = Committed::new();
    for topic in &response.topics {
        for p in &topic.partitions {
            let (offset, code) = (p.committed_offset, p.error_code);
            keep(
                &mut committed,
                topic.name.as_str(),
                p.partition_index,
                offset,
                code,
            );
        }
    }
    (group.to_owned(), Ok(committed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::TopicName;
    use crate::conn::protocol::messages::offset_fetch_response::{
        OffsetFetchResponseGroup, OffsetFetchResponsePartitions, OffsetFetchResponseTopics,
    };
    use crate::conn::protocol::{Encodable, Message};
    use bytes::BytesMut;

    #[test]
    fn the_crates_defaults_ask_for_no_topics() {
        assert_eq!(OffsetFetchRequestGroup::default().topics, Some(vec![]));
        assert_eq!(OffsetFetchRequest::default().topics, Some(vec![]));
    }

    #[test]
    fn a_batched_request_asks_every_group_for_all_topics_and_encodes() {
        let groups: Vec<String> = (0..3).map(|i| format!("g{i}")).collect();
        let request = batched_request(&groups);
        assert_eq!(request.groups.len(), 3);
        assert!(request.groups.iter().all(|g| g.topics.is_none()));
        assert!(
            request
                .groups
                .iter()
                .all(|g| g.member_epoch == -1 && g.member_id.is_none())
        );
        for version in BATCHED_VERSION..=OffsetFetchRequest::VERSIONS.max {
            let mut buf = BytesMut::new();
            assert!(request.encode(&mut buf, version).is_ok(), "v{version}");
        }
        let single = single_request("g");
        let mut buf = BytesMut::new();
        assert!(single.encode(&mut buf, 7).is_ok());
        assert!(single.topics.is_none());
    }

    #[test]
    fn batches_never_mix_coordinators_and_respect_the_size() {
        let groups: Vec<(String, i32)> = (0..250).map(|i| (format!("g{i}"), i % 3)).collect();
        let plan = batches(&groups, 50);
        // 84 + 83 + 83 groups → 2 + 2 + 2 batches.
        assert_eq!(plan.len(), 6);
        assert!(plan.iter().all(|(_, g)| g.len() <= 50));
        let total: usize = plan.iter().map(|(_, g)| g.len()).sum();
        assert_eq!(total, 250);
        for (node, gs) in &plan {
            assert!(
                gs.iter()
                    .all(|g| groups.iter().any(|(n, c)| n == g && c == node))
            );
        }
        assert_eq!(batches(&[], 50), vec![]);
    }

    #[test]
    fn no_commit_and_partition_errors_are_absent_and_group_errors_kept() {
        let partition = |index, offset, code| {
            OffsetFetchResponsePartitions::default()
                .with_partition_index(index)
                .with_committed_offset(offset)
                .with_error_code(code)
        };
        let response = OffsetFetchResponse::default().with_groups(vec![
            OffsetFetchResponseGroup::default()
                .with_group_id(GroupId(StrBytes::from_static_str("a")))
                .with_topics(vec![
                    OffsetFetchResponseTopics::default()
                        .with_name(TopicName(StrBytes::from_static_str("t")))
                        .with_partitions(vec![
                            partition(0, 5, 0),
                            partition(1, -1, 0),
                            partition(2, 9, 88),
                        ]),
                ]),
            OffsetFetchResponseGroup::default()
                .with_group_id(GroupId(StrBytes::from_static_str("b")))
                .with_error_code(16),
        ]);
        let read = read_batched(&response);
        let a = read[0].1.as_ref().expect("ok");
        assert_eq!(a.len(), 1);
        assert_eq!(a[&("t".to_owned(), 0)], 5);
        assert_eq!(read[1], ("b".to_owned(), Err(ErrorCode::NotCoordinator)));
    }
}
