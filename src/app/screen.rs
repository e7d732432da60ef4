//! What the navigation asks of a screen, and one entry of the stack.

use super::filter::Filter;
use super::screens::groups::Shown as GroupScreen;
use super::screens::messages::Shown as MessagesScreen;
use std::collections::BTreeMap;

/// What is on screen: a screen module with what it shows (`app/screens/`,
/// one line of its `screens!` list each).
pub use super::screens::Screen;

/// The constructors and questions the navigation asks of a screen.
impl Screen {
    /// The Topics screen, every topic (the start screen; a module).
    pub fn topics() -> Screen {
        Screen::Topics(super::screens::topics::List)
    }

    /// Whether this is the Topics screen.
    pub fn is_topics(&self) -> bool {
        matches!(self, Screen::Topics(_))
    }

    /// The Partitions screen of `topic` (a module).
    pub fn partitions(topic: impl Into<String>) -> Screen {
        Screen::Partitions(super::screens::partitions::Topic {
            topic: topic.into(),
        })
    }

    /// The topic whose partitions this screen shows, if it is the
    /// Partitions screen.
    pub fn partitions_topic(&self) -> Option<&str> {
        match self {
            Screen::Partitions(shown) => Some(&shown.topic),
            _ => None,
        }
    }

    /// The fleet screen, every context of the config (a module).
    pub fn fleet() -> Screen {
        Screen::Fleet(super::screens::fleet::Contexts)
    }

    /// The Brokers screen (a module).
    pub fn brokers() -> Screen {
        Screen::Brokers(super::screens::brokers::List)
    }

    /// The Leaders screen, the leader-movement log (a module).
    pub fn leaders() -> Screen {
        Screen::Leaders(super::screens::leaders::Log)
    }

    /// The Cluster screen: quorum, features, reassignments (a module).
    pub fn cluster() -> Screen {
        Screen::Cluster(super::screens::cluster::Quorum)
    }

    /// The Events screen, the events timeline (a module).
    pub fn events() -> Screen {
        Screen::Events(super::screens::events::Timeline)
    }

    /// The Messages screen of `topic`: one partition's records, or all
    /// merged by timestamp (a module).
    pub fn records(topic: impl Into<String>, partition: Option<i32>) -> Screen {
        Screen::Messages(MessagesScreen::Records {
            topic: topic.into(),
            partition,
        })
    }

    /// One record of `topic` in detail (the Messages module's second
    /// screen).
    pub fn record(topic: impl Into<String>, partition: i32, offset: i64) -> Screen {
        Screen::Messages(MessagesScreen::Record {
            topic: topic.into(),
            partition,
            offset,
        })
    }

    /// Which Messages screen this is (the records or one record), if one.
    pub fn messages(&self) -> Option<&MessagesScreen> {
        match self {
            Screen::Messages(shown) => Some(shown),
            _ => None,
        }
    }

    /// Whether this is the Messages screen's table of records.
    pub fn is_records(&self) -> bool {
        matches!(self.messages(), Some(MessagesScreen::Records { .. }))
    }

    /// The consumer groups list: every group, or those consuming `topic`
    /// (a module).
    pub fn groups(topic: Option<String>) -> Screen {
        Screen::Groups(GroupScreen::List { topic })
    }

    /// A group's offsets and lag, per partition (a module).
    pub fn offsets(group: impl Into<String>) -> Screen {
        Screen::Groups(GroupScreen::Offsets(group.into()))
    }

    /// A group's members and their assignments (a module).
    pub fn members(group: impl Into<String>) -> Screen {
        Screen::Groups(GroupScreen::Members(group.into()))
    }

    /// Which group screen this is, if one (`screens::groups`).
    pub fn groups_screen(&self) -> Option<&GroupScreen> {
        match self {
            Screen::Groups(shown) => Some(shown),
            _ => None,
        }
    }

    /// The group whose detail this screen shows (offsets or members), if
    /// any.
    pub fn group(&self) -> Option<&str> {
        self.groups_screen()?.group()
    }

    /// The group whose offsets this screen shows, if it is a group's
    /// offsets.
    pub fn offsets_group(&self) -> Option<&str> {
        match self.groups_screen()? {
            GroupScreen::Offsets(group) => Some(group),
            _ => None,
        }
    }
}

/// How a list is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sort {
    /// Index into [`Screen::headers`].
    pub column: usize,
    /// Largest first.
    pub descending: bool,
}

/// One entry of the navigation stack: a screen with its own selection,
/// scroll position, filter and sort, kept while something else is on top.
#[derive(Debug, Clone)]
pub struct View {
    /// The screen.
    pub screen: Screen,
    /// Index into `rows` of the selected row.
    pub selected: usize,
    /// Index into `rows` of the first row drawn.
    pub offset: usize,
    /// The filter, if any.
    pub filter: Option<Filter>,
    /// The sort.
    pub sort: Sort,
    /// The visible list: indices into the screen's source (topics, partitions,
    /// brokers, movement log), filtered and sorted. Built in `update`.
    pub rows: Vec<usize>,
    /// What `rows` was built from; rebuilt when it differs.
    pub built_for: Option<RowsKey>,
    /// What the title counts among `rows`, by name (the movement log: each
    /// kind of event the filter lets through); empty elsewhere. Made with
    /// the rows by the screen's module.
    pub kinds: BTreeMap<&'static str, usize>,
}

/// What a cached row list depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowsKey {
    /// The snapshot generation.
    pub generation: u64,
    /// Watermark answers received (the messages column sorts by them).
    pub watermarks: u64,
    /// The filter text.
    pub filter: String,
    /// The sort.
    pub sort: Sort,
    /// Whether internal topics are shown.
    pub internal: bool,
    /// Size answers received.
    pub sizes: u64,
    /// Answers the screen modules' stores took.
    pub screens: u64,
    /// Whether Empty and Dead groups are shown.
    pub inactive: bool,
    /// The group type the list is narrowed to.
    pub group_type: Option<crate::groups::GroupType>,
}

impl View {
    /// A fresh view of `screen`.
    pub fn new(screen: Screen) -> Self {
        let sort = Sort {
            column: screen.sort_column(),
            descending: screen.descending(),
        };
        View {
            screen,
            selected: 0,
            offset: 0,
            filter: None,
            sort,
            rows: Vec::new(),
            built_for: None,
            kinds: BTreeMap::new(),
        }
    }
}
