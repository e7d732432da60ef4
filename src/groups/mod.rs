//! Groups of every type: listing (every broker), describing (classic
//! `DescribeGroups`, KIP-848 `ConsumerGroupDescribe`, KIP-932
//! `ShareGroupDescribe`, KIP-1071 `StreamsGroupDescribe`), committed offsets
//! (batched `OffsetFetch` per coordinator; share groups' start offsets from
//! `DescribeShareGroupOffsets`), end offsets (one `ListOffsets` per leader),
//! lag, and lag over time.
//!
//! Requests per lag refresh grow with brokers and coordinators, not with
//! groups or partitions; [`GroupsClient::counts`] counts them. Browsing only
//! reads: nothing here joins a group or commits an offset.
//!
//! No terminal crate is imported here.

mod absorb;
mod client;
mod counter;
mod description;
mod end_offsets;
mod error;
pub mod events;
mod fetch;
mod history;
mod kind;
mod lag;
pub mod lag_trend;
mod listing;
mod member;
pub mod offset_fetch;
mod partition_histories;
mod readers;
mod reask;
pub mod reconcile_events;
pub mod reconciling;
mod record_age;
mod refresh;
mod relist;
mod share;
mod streams;
pub mod stuck_events;
mod topic_names;
mod topology;

pub use client::GroupsClient;
pub use counter::{RequestCounter, RequestCounts};
pub use description::GroupDescription;
pub use end_offsets::EndOffsets;
pub use error::{Error, Result};
pub use fetch::GroupRef;
pub use history::{DEFAULT_CAPACITY, LagHistory, LagSample, Trend};
pub use kind::{GroupState, GroupType};
pub use lag::{GroupLag, Lag, LagTotals, PartitionLag, TopicTotals};
pub use listing::{GroupList, GroupListing};
pub use member::{Assignment, Member, StreamsTasks, TaskMap};
pub use offset_fetch::{BATCHED_VERSION, Committed, DEFAULT_BATCH};
pub use partition_histories::PartitionHistories;
pub use readers::{ReadingGroup, ReadingMember, TopicReaders};
pub use record_age::{HEADER_BYTES, MAX_AGE_PARTITIONS, batch_timestamp};
pub use refresh::{GroupDetail, GroupSummary, Overview};
pub use relist::Relisted;
pub use share::{ShareOffsets, SharePartition};
pub use topic_names::TopicNames;
pub use topology::{Subtopology, Topology};
