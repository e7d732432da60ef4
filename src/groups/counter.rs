//! Counting the requests the groups layer sends, per API, so a test (and
//! the benchmark) can show that a lag refresh costs O(brokers + groups/batch)
//! requests. Counted where the groups layer hands a request to [`Cluster`];
//! a retry the dispatcher makes internally (a reconnect) is not seen here.
//!
//! [`Cluster`]: crate::meta::Cluster

use std::sync::atomic::{AtomicU64, Ordering};

use crate::conn::ApiKey;

/// Live counters, shared by clones of a [`super::GroupsClient`].
#[derive(Debug, Default)]
pub struct RequestCounter {
    list_groups: AtomicU64,
    describe_groups: AtomicU64,
    consumer_group_describe: AtomicU64,
    share_group_describe: AtomicU64,
    streams_group_describe: AtomicU64,
    share_group_offsets: AtomicU64,
    offset_fetch: AtomicU64,
    list_offsets: AtomicU64,
    find_coordinator: AtomicU64,
    other: AtomicU64,
}

/// A snapshot of the counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct RequestCounts {
    /// `ListGroups` (one per broker per listing).
    pub list_groups: u64,
    /// `DescribeGroups` (classic).
    pub describe_groups: u64,
    /// `ConsumerGroupDescribe` (KIP-848).
    pub consumer_group_describe: u64,
    /// `ShareGroupDescribe` (KIP-932).
    pub share_group_describe: u64,
    /// `StreamsGroupDescribe` (KIP-1071).
    pub streams_group_describe: u64,
    /// `DescribeShareGroupOffsets` (share groups' start offsets).
    pub share_group_offsets: u64,
    /// `OffsetFetch` (committed offsets).
    pub offset_fetch: u64,
    /// `ListOffsets` (end offsets).
    pub list_offsets: u64,
    /// Coordinator lookups the groups layer asked for (cache hits included).
    pub find_coordinator: u64,
    /// Anything else.
    pub other: u64,
}

impl RequestCounts {
    /// All requests.
    pub fn total(&self) -> u64 {
        self.list_groups
            + self.describe_groups
            + self.consumer_group_describe
            + self.share_group_describe
            + self.streams_group_describe
            + self.share_group_offsets
            + self.offset_fetch
            + self.list_offsets
            + self.find_coordinator
            + self.other
    }

    /// What was sent between `earlier` and `self`.
    #[must_use]
    pub fn since(&self, earlier: &RequestCounts) -> RequestCounts {
        RequestCounts {
            list_groups: self.list_groups - earlier.list_groups,
            describe_groups: self.describe_groups - earlier.describe_groups,
            consumer_group_describe: self.consumer_group_describe - earlier.consumer_group_describe,
            share_group_describe: self.share_group_describe - earlier.share_group_describe,
            streams_group_describe: self.streams_group_describe - earlier.streams_group_describe,
            share_group_offsets: self.share_group_offsets - earlier.share_group_offsets,
            offset_fetch: self.offset_fetch - earlier.offset_fetch,
            list_offsets: self.list_offsets - earlier.list_offsets,
            find_coordinator: self.find_coordinator - earlier.find_coordinator,
            other: self.other - earlier.other,
        }
    }
}

impl RequestCounter {
    /// Count one request of `api`.
    pub fn bump(&self, api: ApiKey) {
        let counter = match api {
            ApiKey::ListGroups => &self.list_groups,
            ApiKey::DescribeGroups => &self.describe_groups,
            ApiKey::ConsumerGroupDescribe => &self.consumer_group_describe,
            ApiKey::ShareGroupDescribe => &self.share_group_describe,
            ApiKey::StreamsGroupDescribe => &self.streams_group_describe,
            ApiKey::DescribeShareGroupOffsets => &self.share_group_offsets,
            ApiKey::OffsetFetch => &self.offset_fetch,
            ApiKey::ListOffsets => &self.list_offsets,
            ApiKey::FindCoordinator => &self.find_coordinator,
            _ => &self.other,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The counts so far.
    pub fn counts(&self) -> RequestCounts {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        RequestCounts {
            list_groups: load(&self.list_groups),
            describe_groups: load(&self.describe_groups),
            consumer_group_describe: load(&self.consumer_group_describe),
            share_group_describe: load(&self.share_group_describe),
            streams_group_describe: load(&self.streams_group_describe),
            share_group_offsets: load(&self.share_group_offsets),
            offset_fetch: load(&self.offset_fetch),
            list_offsets: load(&self.list_offsets),
            find_coordinator: load(&self.find_coordinator),
            other: load(&self.other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_per_api_and_subtract() {
        let counter = RequestCounter::default();
        counter.bump(ApiKey::OffsetFetch);
        let before = counter.counts();
        counter.bump(ApiKey::OffsetFetch);
        counter.bump(ApiKey::ListOffsets);
        counter.bump(ApiKey::Metadata);
        let delta = counter.counts().since(&before);
        assert_eq!(delta.offset_fetch, 1);
        assert_eq!(delta.list_offsets, 1);
        assert_eq!(delta.other, 1);
        assert_eq!(delta.total(), 3);
    }
}
