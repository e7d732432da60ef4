//! Where Enter on a row of a screen module leads ([`Goto`]): the module
//! says where, the top level pushes it.

/// A screen that Enter on a row opens: the module says where, the top
/// level pushes it. `S` is the module's own shown type ([`Goto::Own`]);
/// the dispatch wraps it into its screen enum ([`Goto::map`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goto<S> {
    /// A consumer group's offsets.
    Group(String),
    /// A topic's Partitions screen, on `partition`'s row if given (an
    /// event about it); nothing but a notice if the topic is gone.
    Partition {
        /// The topic.
        topic: String,
        /// The partition whose row is selected.
        partition: Option<i32>,
    },
    /// A topic's records from the default start, of one partition or all
    /// (a partition's row).
    Messages {
        /// The topic.
        topic: String,
        /// Only this partition.
        partition: Option<i32>,
    },
    /// The Brokers screen on the row of the broker with this id (an event
    /// about it).
    Broker(i32),
    /// Another screen of the same module (a config's detail from the
    /// list, a record from the Messages rows).
    Own(S),
    /// The context of this name: the session switches to it (its Topics
    /// screen opens over the fleet), or opens its own Topics screen if it
    /// is the session's.
    Context(String),
    /// The leader-movement log with its `/` filter set (a broker's
    /// movement: `~\bb2\b`).
    Movements(String),
}

impl<S> Goto<S> {
    /// The same place, the module's own screen made a `T` by `wrap` (the
    /// dispatch's variant of the module).
    pub fn map<T>(self, wrap: impl FnOnce(S) -> T) -> Goto<T> {
        match self {
            Goto::Group(group) => Goto::Group(group),
            Goto::Partition { topic, partition } => Goto::Partition { topic, partition },
            Goto::Messages { topic, partition } => Goto::Messages { topic, partition },
            Goto::Broker(broker) => Goto::Broker(broker),
            Goto::Own(shown) => Goto::Own(wrap(shown)),
            Goto::Context(name) => Goto::Context(name),
            Goto::Movements(filter) => Goto::Movements(filter),
        }
    }
}
