//! A Metadata answer decoded straight from the wire into the snapshot's own
//! records ([`MetadataAnswer`]), every version 0–13.
//!
//! The generic decoder builds a `MetadataResponse` first: per partition a
//! struct of ~120 bytes, three `Vec`s of node ids and a map of unknown tags,
//! about four million allocations for a million partitions, all alive at
//! once next to the wire bytes and the snapshot being built from them
//! (and the one it replaces). Here each partition is read into a
//! [`PartitionInfo`] directly, its node-id lists interned as they are read
//! ([`NodeIdInterner`]): no intermediate response exists. Measured in
//! BENCHMARKS.md ("1M partitions").
//!
//! Hostile input: every length is checked against the bytes left before
//! anything is reserved, every allocation is charged to the decode's memory
//! budget (the connection layer runs each decode under one), and anything
//! malformed is an error naming what was being read, never a panic.

use bytes::Bytes;
use kafka_protocol::messages::MetadataResponse;
use kafka_protocol::protocol::budget;
use kafka_protocol::protocol::buf::ByteBuf;
use kafka_protocol::protocol::{Decodable, HeaderVersion};

use crate::conn::ErrorCode;

use super::records::{BrokerInfo, NodeIdInterner, PartitionInfo, TopicInfo};
use super::snapshot::MetadataSnapshot;
use super::topic_id::TopicId;

/// The versions this decoder reads (those of `MetadataResponse`).
const MAX_VERSION: i16 = 13;

/// What a Metadata answer says, in the snapshot's types.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataAnswer {
    /// Every broker, as listed.
    pub brokers: Vec<BrokerInfo>,
    /// The cluster id (v2+).
    pub cluster_id: Option<String>,
    /// The controller the answer names (v1+; `None` for -1).
    pub controller_id: Option<i32>,
    /// The topics, errored ones included, in the answer's order.
    pub topics: Vec<TopicInfo>,
    /// The answer's top-level error (v13+).
    pub error: Option<ErrorCode>,
}

impl MetadataAnswer {
    /// The snapshot this answer describes (errored topics without
    /// partitions left out; see [`MetadataSnapshot::new`]).
    pub fn into_snapshot(self) -> MetadataSnapshot {
        MetadataSnapshot::new(
            self.brokers,
            self.topics,
            self.controller_id,
            self.cluster_id,
        )
    }
}

impl HeaderVersion for MetadataAnswer {
    fn header_version(version: i16) -> i16 {
        MetadataResponse::header_version(version)
    }
}

impl Decodable for MetadataAnswer {
    fn decode<B: ByteBuf>(buf: &mut B, version: i16) -> anyhow::Result<Self> {
        if !(0..=MAX_VERSION).contains(&version) {
            anyhow::bail!("Metadata v{version} is not a version kscope reads");
        }
        let all: Bytes = buf.get_bytes(buf.remaining());
        let mut reader = Reader {
            bytes: &all,
            flexible: version >= 9,
        };
        let answer = reader.answer(version)?;
        if !reader.bytes.is_empty() {
            anyhow::bail!(
                "{} bytes left over after the Metadata answer",
                reader.bytes.len()
            );
        }
        Ok(answer)
    }
}

/// The smallest encoding of a broker, a topic and a partition at any
/// version (for bounding what a claimed count may reserve).
const MIN_BROKER: usize = 8;
const MIN_TOPIC: usize = 4;
const MIN_PARTITION: usize = 10;

/// A cursor over the answer's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    /// v9+: compact lengths and tagged fields.
    flexible: bool,
}

impl<'a> Reader<'a> {
    fn answer(&mut self, version: i16) -> anyhow::Result<MetadataAnswer> {
        if version >= 3 {
            self.i32("throttle time")?;
        }
        let brokers = self.brokers(version)?;
        let cluster_id = if version >= 2 {
            self.string("cluster id")?.map(str::to_owned)
        } else {
            None
        };
        let controller_id = if version >= 1 {
            Some(self.i32("controller id")?).filter(|id| *id >= 0)
        } else {
            None
        };
        let topics = self.topics(version)?;
        if (8..=10).contains(&version) {
            self.i32("cluster authorized operations")?;
        }
        let error = if version >= 13 {
            ErrorCode::from_code(self.i16("error code")?)
        } else {
            None
        };
        self.skip_tags("answer")?;
        Ok(MetadataAnswer {
            brokers,
            cluster_id,
            controller_id,
            topics,
            error,
        })
    }

    fn brokers(&mut self, version: i16) -> anyhow::Result<Vec<BrokerInfo>> {
        let count = self.count("brokers", MIN_BROKER)?;
        charge(count, std::mem::size_of::<BrokerInfo>())?;
        let mut brokers = Vec::with_capacity(count);
        for _ in 0..count {
            let node_id = self.i32("broker node id")?;
            let host = self.owned_string("broker host")?;
            let port = self.i32("broker port")?;
            let rack = if version >= 1 {
                self.string("broker rack")?.map(str::to_owned)
            } else {
                None
            };
            self.skip_tags("broker")?;
            brokers.push(BrokerInfo {
                node_id,
                host,
                port,
                rack,
            });
        }
        Ok(brokers)
    }

    fn topics(&mut self, version: i16) -> anyhow::Result<Vec<TopicInfo>> {
        let count = self.count("topics", MIN_TOPIC)?;
        charge(count, std::mem::size_of::<TopicInfo>())?;
        let mut topics = Vec::with_capacity(count);
        let mut ids = NodeIdInterner::default();
        for _ in 0..count {
            let error = ErrorCode::from_code(self.i16("topic error code")?);
            // Nullable from v12 (a topic asked for by id); "" as the generic decoder has it.
            let name = self.owned_string("topic name")?;
            let topic_id = if version >= 10 {
                TopicId::from_bytes(self.uuid("topic id")?)
            } else {
                TopicId::NIL
            };
            let internal = version >= 1 && self.u8("topic is_internal")? != 0;
            let partitions = self.partitions(version, &mut ids)?;
            if version >= 8 {
                self.i32("topic authorized operations")?;
            }
            self.skip_tags("topic")?;
            topics.push(TopicInfo {
                name,
                topic_id,
                internal,
                partitions,
                error,
            });
        }
        Ok(topics)
    }

    fn partitions(
        &mut self,
        version: i16,
        ids: &mut NodeIdInterner,
    ) -> anyhow::Result<Vec<PartitionInfo>> {
        let count = self.count("partitions", MIN_PARTITION)?;
        charge(count, std::mem::size_of::<PartitionInfo>())?;
        let mut partitions = Vec::with_capacity(count);
        for _ in 0..count {
            let error = ErrorCode::from_code(self.i16("partition error code")?);
            let partition = self.i32("partition index")?;
            // -1 is the protocol's "no leader"; kept out of the domain type.
            let leader = Some(self.i32("partition leader")?).filter(|id| *id >= 0);
            let leader_epoch = if version >= 7 {
                self.i32("leader epoch")?
            } else {
                -1
            };
            let replicas = self.node_ids("replica nodes", ids)?;
            let isr = self.node_ids("isr nodes", ids)?;
            let offline_replicas = if version >= 5 {
                self.node_ids("offline replicas", ids)?
            } else {
                ids.intern([])
            };
            self.skip_tags("partition")?;
            partitions.push(PartitionInfo {
                partition,
                leader,
                leader_epoch,
                replicas,
                isr,
                offline_replicas,
                error,
            });
        }
        Ok(partitions)
    }

    /// A list of node ids, interned (a null list reads as empty).
    fn node_ids(
        &mut self,
        what: &'static str,
        ids: &mut NodeIdInterner,
    ) -> anyhow::Result<super::records::NodeIds> {
        let count = self.count(what, 4)?;
        let bytes = self.take(count * 4, what)?;
        let fresh = ids.intern(
            bytes
                .chunks_exact(4)
                .map(|id| i32::from_be_bytes([id[0], id[1], id[2], id[3]])),
        );
        Ok(fresh)
    }

    fn take(&mut self, n: usize, what: &'static str) -> anyhow::Result<&'a [u8]> {
        if self.bytes.len() < n {
            anyhow::bail!(
                "the Metadata answer ends inside {what} ({n} bytes wanted, {} left)",
                self.bytes.len()
            );
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> anyhow::Result<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    fn u8(&mut self, what: &'static str) -> anyhow::Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    fn i16(&mut self, what: &'static str) -> anyhow::Result<i16> {
        Ok(i16::from_be_bytes(self.array(what)?))
    }

    fn i32(&mut self, what: &'static str) -> anyhow::Result<i32> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }

    fn uuid(&mut self, what: &'static str) -> anyhow::Result<[u8; 16]> {
        self.array(what)
    }

    /// An unsigned varint of at most 5 bytes (a `u32`).
    fn varint(&mut self, what: &'static str) -> anyhow::Result<u32> {
        let mut value: u32 = 0;
        for shift in (0..35).step_by(7) {
            let byte = self.u8(what)?;
            value |= u32::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        anyhow::bail!("a varint in {what} runs past 5 bytes")
    }

    /// How many elements an array holds (null reads as none), refused when
    /// they could not fit in the bytes left at `min_size` bytes each.
    fn count(&mut self, what: &'static str, min_size: usize) -> anyhow::Result<usize> {
        let count = if self.flexible {
            self.varint(what)?.saturating_sub(1) as usize
        } else {
            match self.i32(what)? {
                -1 => 0,
                n if n < 0 => anyhow::bail!("{what}: a negative count ({n})"),
                n => n.unsigned_abs() as usize,
            }
        };
        if count.saturating_mul(min_size) > self.bytes.len() {
            anyhow::bail!(
                "{what}: {count} claimed, but only {} bytes are left",
                self.bytes.len()
            );
        }
        Ok(count)
    }

    /// A nullable string.
    fn string(&mut self, what: &'static str) -> anyhow::Result<Option<&'a str>> {
        let len = if self.flexible {
            match self.varint(what)? {
                0 => return Ok(None),
                n => (n - 1) as usize,
            }
        } else {
            match self.i16(what)? {
                -1 => return Ok(None),
                n if n < 0 => anyhow::bail!("{what}: a negative length ({n})"),
                n => n.unsigned_abs() as usize,
            }
        };
        let bytes = self.take(len, what)?;
        charge(1, len)?;
        std::str::from_utf8(bytes)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{what} is not UTF-8: {e}"))
    }

    /// A string copied out of the buffer (null reads as empty).
    fn owned_string(&mut self, what: &'static str) -> anyhow::Result<String> {
        Ok(self.string(what)?.unwrap_or_default().to_owned())
    }

    /// Tagged fields (v9+): none of them is read, all are skipped.
    fn skip_tags(&mut self, what: &'static str) -> anyhow::Result<()> {
        if !self.flexible {
            return Ok(());
        }
        let count = self.varint(what)?;
        for _ in 0..count {
            self.varint(what)?;
            let size = self.varint(what)? as usize;
            self.take(size, what)?;
        }
        Ok(())
    }
}

/// Charge `count` elements of `size` bytes to the decode's memory budget.
fn charge(count: usize, size: usize) -> anyhow::Result<()> {
    budget::charge(count.saturating_mul(size))
        .map_err(|e| anyhow::anyhow!("the Metadata answer is too large to hold: {e}"))
}
