//! The default key bindings: one line per action, k9s's grammar where it
//! has one (`:` commands, `/` filter, Esc back).

use super::key::{Code, Key};
use super::keymap::{Binding, Command, Keymap, Scope};

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
                "filter: fuzzy; ~regex; !inverse; jq:EXPR",
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
                "configs of this topic, broker or group",
                Scope::HasConfigs,
            ),
            bind(
                C::Clients,
                Some("clients"),
                &[c('w')],
                "who touches this topic: its writers, readers and ACLs",
                Scope::TopicsOrPartitions,
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
                C::CycleGroupType,
                Some("type"),
                &[c('K')],
                "only classic, consumer, share or streams groups, in turn",
                Scope::Groups,
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
                C::CommitHistory,
                Some("history"),
                &[c('H')],
                "commit history: the group's recent commits in __consumer_offsets",
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
