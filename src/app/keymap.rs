//! Which key does what. Help is generated from this table, and `[keys]`
//! remaps from the config file replace an action's primary key.

use std::collections::BTreeMap;

use super::key::Key;
use super::screen::Screen;

/// What a key asks for in normal mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Quit,
    Help,
    CommandLine,
    Filter,
    Back,
    Select,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Refresh,
    SortNext,
    SortReverse,
    ToggleInternal,
    Leaders,
    /// The groups consuming the selected topic.
    Consumers,
    /// The members of the group on screen.
    Members,
    /// The recent offset commits of the group on screen, from
    /// `__consumer_offsets`.
    CommitHistory,
    /// Show or hide Empty and Dead groups.
    ToggleInactive,
    /// Show only groups of one type, the next in turn (classic, consumer,
    /// share, streams, then all again).
    CycleGroupType,
    /// The configs of the selected topic or broker.
    Configs,
    /// The records of the selected topic or partition.
    Messages,
    /// The ACLs that apply to the selected topic.
    TopicAcls,
    /// Keep the group list loading on Topics (the LAG column), or stop.
    ToggleLag,
    /// The selected partition's producers and open transactions.
    Producers,
    /// Who touches the topic on screen or selected.
    Clients,
    /// Keep the Messages view still (arrivals are counted) or follow again.
    Pause,
    /// The records of the selected partition from the group's committed offset.
    CommittedMessages,
    /// Copy the selected or open record's value to the clipboard (OSC 52).
    CopyValue,
    /// Read committed or uncommitted records on the Messages screen.
    ToggleIsolation,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    All,
    Topics,
    Drillable,
    TopicsOrPartitions,
    Partitions,
    /// Topics, Partitions and Brokers: where a resource with configs is selected.
    HasConfigs,
    Groups,
    GroupOffsets,
    Messages,
    /// The Messages screen and an open record.
    Records,
}

impl Scope {
    fn covers(self, screen: &Screen) -> bool {
        match self {
            Scope::All => true,
            Scope::Topics => screen.is_topics(),
            Scope::Drillable => screen.drillable(),
            Scope::HasConfigs => matches!(
                screen,
                super::screens::Screen::Topics(_)
                    | super::screens::Screen::Partitions(_)
                    | super::screens::Screen::Brokers(_)
                    | super::screens::Screen::Groups(_)
            ),
            Scope::Partitions => screen.partitions_topic().is_some(),
            Scope::TopicsOrPartitions => screen.is_topics() || screen.partitions_topic().is_some(),
            Scope::Groups => matches!(
                screen.groups_screen(),
                Some(super::screens::groups::Shown::List { .. })
            ),
            Scope::GroupOffsets => screen.offsets_group().is_some(),
            Scope::Messages => screen.is_records(),
            Scope::Records => screen.messages().is_some(),
        }
    }
}

#[derive(Debug, Clone)]
pub(super) struct Binding {
    pub(super) command: Command,
    /// The `[keys]` name, for remappable actions.
    pub(super) name: Option<&'static str>,
    pub(super) keys: Vec<Key>,
    pub(super) help: &'static str,
    pub(super) scope: Scope,
}

/// The bindings in effect.
#[derive(Debug, Clone)]
pub struct Keymap {
    pub(super) bindings: Vec<Binding>,
}

impl Keymap {
    /// The defaults with `[keys]` remaps (action name to normalised key)
    /// applied; returns what could not be applied, for the status line.
    pub fn with_remaps(remaps: &BTreeMap<String, String>) -> (Keymap, Vec<String>) {
        let mut keymap = Keymap::default();
        let mut problems = Vec::new();
        for (action, text) in remaps {
            let Some(key) = Key::parse(text) else {
                problems.push(format!("key '{text}' for '{action}' is not understood"));
                continue;
            };
            let Some(index) = keymap.bindings.iter().position(|b| b.name == Some(action)) else {
                problems.push(format!("action '{action}' has no key on these screens"));
                continue;
            };
            for binding in &mut keymap.bindings {
                binding.keys.retain(|k| *k != key);
            }
            if let Some(binding) = keymap.bindings.get_mut(index) {
                if binding.keys.is_empty() {
                    binding.keys.push(key);
                } else {
                    binding.keys[0] = key;
                }
            }
        }
        (keymap, problems)
    }

    /// What `key` does on `screen`, if anything.
    pub fn lookup(&self, key: Key, screen: &Screen) -> Option<Command> {
        self.bindings
            .iter()
            .find(|b| b.scope.covers(screen) && b.keys.contains(&key))
            .map(|b| b.command)
    }

    /// The primary key of `command`, for hints.
    pub fn primary(&self, command: Command) -> Option<Key> {
        self.bindings
            .iter()
            .find(|b| b.command == command)
            .and_then(|b| b.keys.first().copied())
    }

    /// Every binding on `screen`: keys (joined) and what they do.
    pub fn help(&self, screen: &Screen) -> Vec<(String, &'static str)> {
        self.bindings
            .iter()
            .filter(|b| b.scope.covers(screen) && !b.keys.is_empty())
            .map(|b| {
                let keys: Vec<String> = b.keys.iter().map(ToString::to_string).collect();
                (keys.join(" "), b.help)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::key::Code;

    #[test]
    fn defaults_cover_the_k9s_grammar() {
        let map = Keymap::default();
        let topics = Screen::topics();
        assert_eq!(map.lookup(Key::char('j'), &topics), Some(Command::Down));
        assert_eq!(map.lookup(Key::plain(Code::Up), &topics), Some(Command::Up));
        assert_eq!(map.lookup(Key::char('/'), &topics), Some(Command::Filter));
        assert_eq!(
            map.lookup(Key::char(':'), &topics),
            Some(Command::CommandLine)
        );
        assert_eq!(map.lookup(Key::char('q'), &topics), Some(Command::Quit));
        assert_eq!(map.lookup(Key::char('i'), &Screen::brokers()), None);
    }

    #[test]
    fn a_remap_replaces_the_primary_key_and_steals_it_from_others() {
        let topics = Screen::topics();
        let (map, problems) =
            Keymap::with_remaps(&BTreeMap::from([("quit".to_owned(), "x".to_owned())]));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(map.lookup(Key::char('x'), &topics), Some(Command::Quit));
        assert_eq!(map.lookup(Key::char('q'), &topics), None);
        assert_eq!(map.lookup(Key::ctrl('c'), &topics), Some(Command::Quit));
        let help = map.help(&topics);
        assert!(
            help.iter()
                .any(|(keys, what)| keys == "x ctrl+c" && *what == "quit")
        );

        let (map, _) = Keymap::with_remaps(&BTreeMap::from([("down".to_owned(), "q".to_owned())]));
        assert_eq!(map.lookup(Key::char('q'), &topics), Some(Command::Down));
        assert_eq!(
            map.lookup(Key::plain(Code::Down), &topics),
            Some(Command::Down)
        );
        assert_eq!(map.lookup(Key::ctrl('c'), &topics), Some(Command::Quit));
    }

    #[test]
    fn unknown_remaps_are_reported_not_fatal() {
        let remaps = BTreeMap::from([("no_such_action".to_owned(), "p".to_owned())]);
        let (_, problems) = Keymap::with_remaps(&remaps);
        assert_eq!(problems.len(), 1);
    }
}
