//! What the commit-history screen holds: a group's history as read, or why
//! it could not be read, under the shared request bookkeeping.

use super::read::History;
use crate::app::failure::Failure;
use crate::app::screens::requests::Requests;

/// What a read gave: the history, or why `__consumer_offsets` could not
/// be read.
pub type Answer = Result<History, Failure>;

/// The screen's data: the group asked for and its answer.
pub type Store = Requests<String, Answer>;
