//! Which key does what. Help is generated from this table, and `[keys]`
//! remaps from the config file replace an action's primary key.

use std::collections::BTreeMap;

use super::key::{Code, Key};
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
    /// Show or hide Empty and Dead groups.
    ToggleInactive,
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
enum Scope {
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
            Scope::Topics => matches!(screen, Screen::Topics),
            Scope::Drillable => matches!(
                screen,
                Screen::Topics
                    | Screen::Partitions { .. }
                    | Screen::Brokers
                    | Screen::Groups { .. }
                    | Screen::Group { .. }
                    | Screen::Config { .. }
                    | Screen::Messages { .. }
                    | Screen::Schemas
            ),
            Scope::HasConfigs => matches!(
                screen,
                Screen::Topics | Screen::Partitions { .. } | Screen::Brokers
            ),
            Scope::Partitions => matches!(screen, Screen::Partitions { .. }),
            Scope::TopicsOrPartitions => {
                matches!(screen, Screen::Topics | Screen::Partitions { .. })
            }
            Scope::Groups => matches!(screen, Screen::Groups { .. }),
            Scope::GroupOffsets => matches!(screen, Screen::Group { .. }),
            Scope::Messages => matches!(screen, Screen::Messages { .. }),
            Scope::Records => matches!(screen, Screen::Messages { .. } | Screen::Record { .. }),
        }
    }
}

#[derive(Debug, Clone)]
struct Binding {
    command: Command,
    /// The `[keys]` name, for remappable actions.
    name: Option<&'static str>,
    keys: Vec<Key>,
    help: &'static str,
    scope: Scope,
}

/// The bindings in effect.
#[derive(Debug, Clone)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

fn bind(
    command: Command,
    name: Option<&'static str>,
    keys: &[Key],
    help: &'static str,
    scope: Scope,
) -> Binding {
    Binding {
        command,
        name,
        keys: keys.to_vec(),
        help,
        scope,
    }
}

impl Default for Keymap {
    // The binding table: one line per action.
    #[allow(clippy::too_many_lines)]
    fn default() -> Self {
        use Command as C;
        let p = Key::plain;
        let c = Key::char;
        let bindings = vec![
            bind(
                C::Up,
                Some("up"),
                &[c('k'), p(Code::Up)],
                "move up",
                Scope::All,
            ),
            bind(
                C::Down,
                Some("down"),
                &[c('j'), p(Code::Down)],
                "move down",
                Scope::All,
            ),
            bind(
                C::PageUp,
                Some("page_up"),
                &[p(Code::PageUp), Key::ctrl('b')],
                "page up",
                Scope::All,
            ),
            bind(
                C::PageDown,
                Some("page_down"),
                &[p(Code::PageDown), Key::ctrl('f')],
                "page down",
                Scope::All,
            ),
            bind(
                C::Top,
                Some("top"),
                &[c('g'), p(Code::Home)],
                "first row",
                Scope::All,
            ),
            bind(
                C::Bottom,
                Some("bottom"),
                &[c('G'), p(Code::End)],
                "last row",
                Scope::All,
            ),
            bind(
                C::Select,
                Some("select"),
                &[p(Code::Enter)],
                "open the selected row",
                Scope::Drillable,
            ),
            bind(
                C::Back,
                Some("back"),
                &[p(Code::Esc)],
                "clear the filter, or go back",
                Scope::All,
            ),
            bind(
                C::Filter,
                Some("filter"),
                &[c('/')],
                "filter: fuzzy; ~regex; !inverse",
                Scope::All,
            ),
            bind(
                C::CommandLine,
                Some("command"),
                &[c(':')],
                "command line (tab completes)",
                Scope::All,
            ),
            bind(
                C::SortNext,
                None,
                &[c('s')],
                "sort by the next column",
                Scope::All,
            ),
            bind(
                C::SortReverse,
                None,
                &[c('S')],
                "reverse the sort",
                Scope::All,
            ),
            bind(
                C::ToggleInternal,
                None,
                &[c('i')],
                "show or hide internal topics",
                Scope::Topics,
            ),
            bind(
                C::Leaders,
                None,
                &[c('l')],
                "leader movement of this topic",
                Scope::TopicsOrPartitions,
            ),
            bind(
                C::Consumers,
                Some("consumers"),
                &[c('c')],
                "consumer groups of this topic",
                Scope::TopicsOrPartitions,
            ),
            bind(
                C::Configs,
                Some("configs"),
                &[c('C')],
                "configs of this topic or broker",
                Scope::HasConfigs,
            ),
            bind(
                C::Producers,
                Some("producers"),
                &[c('T')],
                "producers and open transactions of this partition",
                Scope::Partitions,
            ),
            bind(
                C::ToggleLag,
                Some("topic_lag"),
                &[c('L')],
                "LAG column: keep loading every group's lag here, or stop",
                Scope::Topics,
            ),
            bind(
                C::TopicAcls,
                Some("acls"),
                &[c('A')],
                "ACLs that apply to this topic",
                Scope::TopicsOrPartitions,
            ),
            bind(
                C::Messages,
                Some("messages"),
                &[c('m')],
                "messages of this topic or partition (follows)",
                Scope::TopicsOrPartitions,
            ),
            bind(
                C::CommittedMessages,
                Some("committed_messages"),
                &[c('v')],
                "records from the committed offset (what the group reads next)",
                Scope::GroupOffsets,
            ),
            bind(
                C::Pause,
                Some("pause"),
                &[c('p')],
                "pause or follow again (arrivals are counted)",
                Scope::Messages,
            ),
            bind(
                C::ToggleIsolation,
                Some("isolation"),
                &[c('u')],
                "read_committed / read_uncommitted (aborted records shown)",
                Scope::Messages,
            ),
            bind(
                C::CopyValue,
                Some("copy"),
                &[c('y')],
                "copy the value (OSC 52); :save[-all][!] PATH writes JSON lines",
                Scope::Records,
            ),
            bind(
                C::ToggleInactive,
                Some("inactive"),
                &[c('e')],
                "show or hide Empty and Dead groups",
                Scope::Groups,
            ),
            bind(
                C::Members,
                Some("members"),
                &[c('m')],
                "members and assignments (current vs target)",
                Scope::GroupOffsets,
            ),
            bind(
                C::Refresh,
                Some("refresh"),
                &[c('r')],
                "refresh now (metadata, and the groups on screen)",
                Scope::All,
            ),
            bind(C::Help, Some("help"), &[c('?')], "this help", Scope::All),
            bind(
                C::Quit,
                Some("quit"),
                &[c('q'), Key::ctrl('c')],
                "quit",
                Scope::All,
            ),
        ];
        Keymap { bindings }
    }
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

    #[test]
    fn defaults_cover_the_k9s_grammar() {
        let map = Keymap::default();
        let topics = Screen::Topics;
        assert_eq!(map.lookup(Key::char('j'), &topics), Some(Command::Down));
        assert_eq!(map.lookup(Key::plain(Code::Up), &topics), Some(Command::Up));
        assert_eq!(map.lookup(Key::char('/'), &topics), Some(Command::Filter));
        assert_eq!(
            map.lookup(Key::char(':'), &topics),
            Some(Command::CommandLine)
        );
        assert_eq!(map.lookup(Key::char('q'), &topics), Some(Command::Quit));
        assert_eq!(map.lookup(Key::char('i'), &Screen::Brokers), None);
    }

    #[test]
    fn a_remap_replaces_the_primary_key_and_steals_it_from_others() {
        let topics = Screen::Topics;
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
