//! Eligible leader replicas (KIP-966, on by default from Kafka 4.1): when a
//! partition's ISR shrinks below `min.insync.replicas`, the replicas that
//! drop out but still hold every committed record are kept as *eligible
//! leader replicas* (ELR), and the last ones known as *last known ELR*; an
//! unclean-free leader can come back from them. Metadata does not carry
//! them: only `DescribeTopicPartitions` (Kafka 3.8+) does, paged by a cursor.
//! A broker without the API, or with the feature off, has nothing to show,
//! and kscope shows nothing rather than an empty list that reads as "none".

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_topic_partitions_request::{Cursor, TopicRequest};
use crate::conn::protocol::messages::{
    DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse, TopicName,
};
use crate::meta::Cluster;

use super::error::{Error, Result};

/// Partitions per answer (the broker's own default).
const PAGE: i32 = 2000;
/// Pages read at most for one topic (a 200k-partition topic).
const MAX_PAGES: usize = 100;

/// One partition's eligible leader replicas, as the broker reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Elr {
    /// Replicas out of the ISR that may still become leader cleanly.
    pub eligible: Vec<i32>,
    /// The ELR members last known before the ELR emptied.
    pub last_known: Vec<i32>,
}

/// Each partition of `topic` with its ELR; empty when the broker lacks
/// `DescribeTopicPartitions` or reports no ELR fields (the feature is off).
pub async fn describe(cluster: &Cluster, topic: &str) -> Result<BTreeMap<i32, Elr>> {
    if cluster
        .negotiated_for::<DescribeTopicPartitionsRequest>()
        .await
        .is_err()
    {
        return Ok(BTreeMap::new());
    }
    let what = || format!("eligible leader replicas of topic '{topic}'");
    let mut out = BTreeMap::new();
    let mut cursor = None;
    for _ in 0..MAX_PAGES {
        let response = cluster
            .send_any(request(topic, cursor.take()))
            .await
            .map_err(|e| Error::request(what(), e))?;
        cursor = read(topic, &response, &mut out).map_err(|code| Error::Answer {
            what: what(),
            code,
            message: None,
        })?;
        if cursor.is_none() {
            break;
        }
    }
    Ok(out)
}

fn request(topic: &str, cursor: Option<Cursor>) -> DescribeTopicPartitionsRequest {
    DescribeTopicPartitionsRequest::default()
        .with_topics(vec![
            TopicRequest::default().with_name(TopicName(StrBytes::from_string(topic.to_owned()))),
        ])
        .with_response_partition_limit(PAGE)
        .with_cursor(cursor)
}

/// Add one page of `topic`'s partitions to `out`; the cursor of the next
/// page, if the answer continues this topic.
fn read(
    topic: &str,
    response: &DescribeTopicPartitionsResponse,
    out: &mut BTreeMap<i32, Elr>,
) -> std::result::Result<Option<Cursor>, ErrorCode> {
    for t in &response.topics {
        if t.name.as_ref().is_some_and(|n| n.0.as_str() != topic) {
            continue;
        }
        if let Some(code) = ErrorCode::from_code(t.error_code) {
            return Err(code);
        }
        for p in &t.partitions {
            let (Some(eligible), Some(last_known)) =
                (&p.eligible_leader_replicas, &p.last_known_elr)
            else {
                continue;
            };
            out.insert(
                p.partition_index,
                Elr {
                    eligible: eligible.iter().map(|b| b.0).collect(),
                    last_known: last_known.iter().map(|b| b.0).collect(),
                },
            );
        }
    }
    Ok(response
        .next_cursor
        .as_ref()
        .filter(|c| c.topic_name.0.as_str() == topic)
        .map(|c| {
            Cursor::default()
                .with_topic_name(c.topic_name.clone())
                .with_partition_index(c.partition_index)
        }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::BrokerId;
    use crate::conn::protocol::messages::describe_topic_partitions_response::{
        Cursor as NextCursor, DescribeTopicPartitionsResponsePartition as Partition,
        DescribeTopicPartitionsResponseTopic as Topic,
    };

    fn ids(list: &[i32]) -> Vec<BrokerId> {
        list.iter().map(|i| BrokerId(*i)).collect()
    }

    fn answer(next: Option<(&'static str, i32)>) -> DescribeTopicPartitionsResponse {
        DescribeTopicPartitionsResponse::default()
            .with_topics(vec![
                Topic::default()
                    .with_name(Some(TopicName(StrBytes::from_static_str("orders"))))
                    .with_partitions(vec![
                        Partition::default()
                            .with_partition_index(0)
                            .with_eligible_leader_replicas(Some(ids(&[3])))
                            .with_last_known_elr(Some(ids(&[]))),
                        // A broker with the feature off leaves both null.
                        Partition::default().with_partition_index(1),
                    ]),
            ])
            .with_next_cursor(next.map(|(t, p)| {
                NextCursor::default()
                    .with_topic_name(TopicName(StrBytes::from_static_str(t)))
                    .with_partition_index(p)
            }))
    }

    #[test]
    fn a_page_adds_what_the_broker_reports_and_says_where_to_go_on() {
        let mut out = BTreeMap::new();
        let next = read("orders", &answer(Some(("orders", 2))), &mut out).expect("read");
        assert_eq!(next.map(|c| c.partition_index), Some(2));
        assert_eq!(
            out.get(&0),
            Some(&Elr {
                eligible: vec![3],
                last_known: vec![]
            })
        );
        assert!(!out.contains_key(&1), "null fields: nothing to show");
        // A cursor into another topic ends this one.
        let next = read("orders", &answer(Some(("payments", 0))), &mut out).expect("read");
        assert!(next.is_none());
    }

    #[test]
    fn a_topic_error_is_an_error() {
        let response = DescribeTopicPartitionsResponse::default().with_topics(vec![
            Topic::default()
                .with_name(Some(TopicName(StrBytes::from_static_str("orders"))))
                .with_error_code(3),
        ]);
        let mut out = BTreeMap::new();
        assert_eq!(
            read("orders", &response, &mut out).err(),
            Some(ErrorCode::UnknownTopicOrPartition)
        );
    }
}
