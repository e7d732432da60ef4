//! `consume --group`, `--transactional-id` and `--share-partition` on
//! Kafka's own topics: whose records are read ([`Owner`]), the one
//! partition of `__consumer_offsets`, `__transaction_state` or
//! `__share_group_state` that holds them, and which records are theirs.

use std::fmt::Write as _;

use crate::browse::internal::{self, share_group_state};
use crate::meta::Cluster;

use super::args::OwnerArgs;
use super::consume_key;
use super::error::Error;

/// Whose records of one of Kafka's own topics are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// A group's, in `__consumer_offsets`.
    Group(String),
    /// A transactional id's, in `__transaction_state`.
    TransactionalId(String),
    /// A share group's, in `__share_group_state`: its state of every topic
    /// partition it consumes, or (`--share-partition`) of one.
    ShareGroup {
        group: String,
        /// `--share-partition TOPIC:P`, its topic id once resolved.
        share_partition: Option<SharePartitionArg>,
    },
}

/// `--share-partition TOPIC:PARTITION`: one topic partition as a share
/// group consumes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharePartitionArg {
    pub topic: String,
    pub partition: i32,
    /// The topic's id, looked up before reading (the state's key names the
    /// topic by id).
    pub topic_id: Option<crate::meta::snapshot::TopicId>,
}

impl SharePartitionArg {
    /// Parse `TOPIC:PARTITION` (the topic may itself hold colons).
    pub fn parse(text: &str) -> Result<SharePartitionArg, Error> {
        let bad = || {
            Error::Usage(format!(
                "--share-partition wants TOPIC:PARTITION, not '{}'",
                crate::untrusted::escape(text)
            ))
        };
        let (topic, partition) = text.rsplit_once(':').ok_or_else(bad)?;
        let partition = partition.parse::<i32>().map_err(|_| bad())?;
        if topic.is_empty() || partition < 0 {
            return Err(bad());
        }
        Ok(SharePartitionArg {
            topic: topic.to_owned(),
            partition,
            topic_id: None,
        })
    }
}

impl Owner {
    /// From `--group`, `--transactional-id` (which clap keeps apart) and
    /// `--share-partition` (which clap lets only beside `--group`): `--group`
    /// on `__share_group_state` is a share group's. `--share-partition`
    /// that does not parse, or on another topic, is a usage error.
    pub fn of(topic: &str, args: OwnerArgs) -> Result<Option<Owner>, Error> {
        let OwnerArgs {
            group,
            share_partition,
            transactional_id,
        } = args;
        let share_partition = share_partition
            .as_deref()
            .map(SharePartitionArg::parse)
            .transpose()?;
        if share_partition.is_some() && topic != internal::SHARE_GROUP_STATE {
            return Err(Error::Usage(format!(
                "--share-partition reads a share group's state from {}, not from '{}'",
                internal::SHARE_GROUP_STATE,
                crate::untrusted::escape(topic)
            )));
        }
        Ok(match group {
            Some(group) if topic == internal::SHARE_GROUP_STATE => Some(Owner::ShareGroup {
                group,
                share_partition,
            }),
            group => group
                .map(Owner::Group)
                .or(transactional_id.map(Owner::TransactionalId)),
        })
    }

    /// The group or transactional id.
    pub fn id(&self) -> &str {
        match self {
            Owner::Group(id) | Owner::TransactionalId(id) => id,
            Owner::ShareGroup { group, .. } => group,
        }
    }

    /// The topic that holds its records.
    pub fn topic(&self) -> &'static str {
        match self {
            Owner::Group(_) => crate::browse::internal::CONSUMER_OFFSETS,
            Owner::TransactionalId(_) => crate::browse::internal::TRANSACTION_STATE,
            Owner::ShareGroup { .. } => crate::browse::internal::SHARE_GROUP_STATE,
        }
    }

    /// How it is named in messages: `group 'G'`, `transactional id 'T'`,
    /// `share group 'G'` (`… on 'TOPIC' partition P` with
    /// `--share-partition`).
    pub fn described(&self) -> String {
        let kind = match self {
            Owner::Group(_) => "group",
            Owner::TransactionalId(_) => "transactional id",
            Owner::ShareGroup { .. } => "share group",
        };
        let mut text = format!("{kind} '{}'", crate::untrusted::escape(self.id()));
        if let Owner::ShareGroup {
            share_partition: Some(sp),
            ..
        } = self
        {
            let _ = write!(
                text,
                " on '{}' partition {}",
                crate::untrusted::escape(&sp.topic),
                sp.partition
            );
        }
        text
    }

    /// Whether a record with this key is one of its records.
    pub fn owns(&self, topic: &str, key: &[u8]) -> bool {
        if let Owner::ShareGroup {
            group,
            share_partition: Some(wanted),
        } = self
        {
            return share_group_state::key_share_partition(key).is_some_and(|sp| {
                sp.group_id == *group
                    && Some(sp.topic_id) == wanted.topic_id
                    && sp.partition == wanted.partition
            });
        }
        internal::key_owner(topic, key).as_deref() == Some(self.id())
    }
}

/// The partition of `__consumer_offsets` that holds a group's records, of
/// `__transaction_state` a transactional id's, or of `__share_group_state`
/// a share-partition's (looking up its topic's id); `None` for a share
/// group without `--share-partition`, whose state is spread over every
/// partition. What was found is said on stderr.
pub async fn owner_partition(
    cluster: &Cluster,
    topic: &str,
    owner: &mut Owner,
) -> Result<Option<i32>, Error> {
    if topic != owner.topic() {
        let (flag, what) = match owner {
            Owner::Group(_) => (
                "--group",
                "the commit history of a group (or, on __share_group_state, a share group's state)",
            ),
            Owner::TransactionalId(_) => {
                ("--transactional-id", "a transactional id's transactions")
            }
            Owner::ShareGroup { .. } => ("--group", "a share group's state"),
        };
        return Err(Error::Usage(format!(
            "{flag} reads {what} from {}, not from '{}'",
            owner.topic(),
            crate::untrusted::escape(topic)
        )));
    }
    let described = owner.described();
    let count = consume_key::partition_count(cluster, topic).await?;
    let no_partitions = || Error::Usage(format!("topic '{topic}' has no partitions"));
    let partition = match owner {
        Owner::Group(id) | Owner::TransactionalId(id) => {
            internal::partition_for_group(id, count).ok_or_else(no_partitions)?
        }
        Owner::ShareGroup {
            share_partition: None,
            ..
        } => {
            eprintln!(
                "kscope: a share group's state is kept per topic partition, spread over every partition of {topic}: \
reading all {count} for {described} (--share-partition TOPIC:P reads the one that holds that partition's)"
            );
            return Ok(None);
        }
        Owner::ShareGroup {
            group,
            share_partition: Some(wanted),
        } => {
            let topic_id = topic_id(cluster, &wanted.topic).await?;
            wanted.topic_id = Some(topic_id);
            let key = share_group_state::SharePartition {
                group_id: group.clone(),
                topic_id,
                partition: wanted.partition,
            };
            share_group_state::partition_for(&key, count).ok_or_else(no_partitions)?
        }
    };
    eprintln!(
        "kscope: {described} is in partition {partition} of {count} of {topic} (abs(Java hashCode) mod partitions, as the coordinator places it)"
    );
    Ok(Some(partition))
}

/// The id of `topic`, which the share coordinator's keys name it by.
async fn topic_id(cluster: &Cluster, topic: &str) -> Result<crate::meta::snapshot::TopicId, Error> {
    let snapshot = cluster
        .refresh_topics(&[topic])
        .await
        .map_err(|_| crate::browse::Error::TopicNotFound(topic.to_owned()))?;
    let id = snapshot
        .topic(topic)
        .map(|t| t.topic_id)
        .ok_or_else(|| crate::browse::Error::TopicNotFound(topic.to_owned()))?;
    if id.is_nil() {
        return Err(Error::Usage(format!(
            "the brokers gave no id for topic '{}' (Metadata v10+ is needed to find its share state)",
            crate::untrusted::escape(topic)
        )));
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::snapshot::TopicId;

    #[test]
    fn a_share_partition_is_topic_colon_partition() {
        let sp = SharePartitionArg::parse("orders:v2:3").unwrap();
        assert_eq!((sp.topic.as_str(), sp.partition), ("orders:v2", 3));
        for bad in ["orders", "orders:", ":3", "orders:-1", "orders:x"] {
            assert!(SharePartitionArg::parse(bad).is_err(), "{bad}");
        }
    }

    fn args(group: &str, share_partition: Option<&str>) -> OwnerArgs {
        OwnerArgs {
            group: Some(group.to_owned()),
            share_partition: share_partition.map(str::to_owned),
            transactional_id: None,
        }
    }

    #[test]
    fn group_on_the_share_state_topic_is_a_share_groups() {
        let share = Owner::of(internal::SHARE_GROUP_STATE, args("g", None)).unwrap();
        assert!(matches!(&share, Some(Owner::ShareGroup { group, .. }) if group == "g"));
        assert_eq!(share.unwrap().topic(), internal::SHARE_GROUP_STATE);
        let one = Owner::of(internal::SHARE_GROUP_STATE, args("g", Some("t:1")));
        assert!(matches!(
            one,
            Ok(Some(Owner::ShareGroup {
                share_partition: Some(SharePartitionArg { partition: 1, .. }),
                ..
            }))
        ));
        let classic = Owner::of(internal::CONSUMER_OFFSETS, args("g", None)).unwrap();
        assert_eq!(classic, Some(Owner::Group("g".into())));
        // --share-partition belongs to the share state topic.
        assert!(Owner::of(internal::CONSUMER_OFFSETS, args("g", Some("t:1"))).is_err());
    }

    #[test]
    fn a_share_partitions_records_are_matched_on_group_topic_id_and_partition() {
        let id = TopicId::from_bytes([7; 16]);
        let key = |group: &str, topic: [u8; 16], partition: i32| {
            let mut k = 1_i16.to_be_bytes().to_vec();
            k.extend_from_slice(&i16::try_from(group.len()).unwrap().to_be_bytes());
            k.extend_from_slice(group.as_bytes());
            k.extend_from_slice(&topic);
            k.extend_from_slice(&partition.to_be_bytes());
            k
        };
        let owner = Owner::ShareGroup {
            group: "g".into(),
            share_partition: Some(SharePartitionArg {
                topic: "orders".into(),
                partition: 2,
                topic_id: Some(id),
            }),
        };
        let topic = internal::SHARE_GROUP_STATE;
        assert!(owner.owns(topic, &key("g", [7; 16], 2)));
        assert!(!owner.owns(topic, &key("g", [8; 16], 2)));
        assert!(!owner.owns(topic, &key("g", [7; 16], 1)));
        assert!(!owner.owns(topic, &key("h", [7; 16], 2)));
        let whole_group = Owner::ShareGroup {
            group: "g".into(),
            share_partition: None,
        };
        assert!(whole_group.owns(topic, &key("g", [8; 16], 1)));
        assert!(!whole_group.owns(topic, b"\x00\x01"));
    }
}
