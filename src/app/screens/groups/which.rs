//! Which group screen is shown (the list, a group's offsets, its
//! members), borrowed from what the screen shows: what its title, headers,
//! rows and drawing are chosen by.

use super::columns;

/// Which group screen is shown, with what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which<'a> {
    /// The list: every group, or those consuming `topic`.
    List {
        /// Only the groups committed to or assigned this topic.
        topic: Option<&'a str>,
    },
    /// One group's offsets and lag, per partition.
    Offsets(&'a str),
    /// One group's members and their assignments.
    Members(&'a str),
}

impl Which<'_> {
    /// The title above the table, names as the cluster gave them.
    pub fn title(self) -> String {
        use crate::anonymize::{Kind, name};
        match self {
            Which::List { topic: None } => "consumer groups".to_owned(),
            Which::List { topic: Some(topic) } => {
                format!("groups consuming '{}'", name(Kind::Topic, topic))
            }
            Which::Offsets(group) => format!("offsets of group '{}'", name(Kind::Group, group)),
            Which::Members(group) => format!("members of group '{}'", name(Kind::Group, group)),
        }
    }

    /// The headers of the screen's column table; sorting indexes these.
    pub fn headers(self) -> Vec<&'static str> {
        use crate::columns::headers;
        match self {
            Which::List { .. } => headers(&columns::list::table()),
            Which::Offsets(_) => headers(&columns::offsets::table()),
            Which::Members(_) => headers(&columns::members::table()),
        }
    }
}
