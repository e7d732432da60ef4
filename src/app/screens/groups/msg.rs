//! What reaches the groups store: the worker's answers, and the shared
//! data a group's offsets rows read.

use std::sync::Arc;

use crate::app::failure::Failure;
use crate::groups::{GroupDetail, Overview, Relisted};
use crate::inspect::ClusterSizes;

/// What reaches the groups store: the worker's answers, and the shared data
/// a group's offsets rows read (LOSS IN: retention and sizes on disk).
#[derive(Debug, Clone)]
pub enum Msg {
    /// Every group with its lag ([`Query::List`]).
    List {
        /// The request id it answers.
        request: u64,
        /// Every group with its lag, or why not.
        result: Result<Arc<Overview>, Failure>,
    },
    /// Every group as listed now and each asked group as its row shows it
    /// (state, members, lag, or what failed for it), or why none could be
    /// read ([`Query::Rows`]).
    Rows {
        /// The request id it answers.
        request: u64,
        /// The listing and the groups asked, described and with lag.
        result: Result<Relisted, Failure>,
    },
    /// One group's detail ([`Query::Detail`]).
    Detail {
        /// The request id it answers.
        request: u64,
        /// The group's members, offsets and lag, or why not.
        result: Result<Arc<GroupDetail>, Failure>,
    },
    /// The latest log dirs answer (a partition's size on disk).
    Sizes(Option<Arc<ClusterSizes>>),
    /// Config summaries a configs answer brought (`retention.*`).
    Summaries(Arc<crate::app::screens::feed::Summaries>),
}
