//! The consumer-group screens: the list (`:groups`, every group with its
//! state, members, lag and lag over time, or those consuming one topic),
//! one group's offsets per partition (Enter, `:group NAME`) and its members
//! (`m`); its commit history (`H`) is a module of its own
//! (`screens::commits`). One store ([`store`]) holds the list, each group's lag over the
//! session and the detail of the group on screen, each with its request
//! bookkeeping; [`plan`] says what is due for what the stack shows and
//! [`receive`] takes the answers, both over the store alone. The row lists
//! and rows are in [`rows`], the column tables in [`columns`] (shared with
//! the CLI), the styled rows in [`draw`], the title's status and the panel
//! above a group's tables in [`panel`].
//!
//! Not yet behind the `screens!` dispatch: the three screens stay
//! `app::Screen` variants (their plan reads the list's visible window and
//! the whole stack, which `Module::plan` does not see), and `AppState`
//! reaches this module through [`Which`] and `app/groups.rs`.

pub mod columns;
pub mod draw;
pub mod panel;
pub mod plan;
pub mod receive;
pub mod rows;
pub mod store;

pub use store::{DEFAULT_INTERVAL, DetailView, GroupsStore, HISTORY_SAMPLES};

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
