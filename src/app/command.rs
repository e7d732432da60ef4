//! The `:` command line: parsing and tab completion.

use super::screens::security::Listing as Security;

/// A parsed command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Topics,
    Brokers,
    Leaders,
    /// `:events`: the events timeline.
    Events,
    /// `:fleet`: every context at a glance.
    Fleet,
    /// `:clients [TOPIC]`: who touches the topic (on screen or selected).
    Clients(Option<String>),
    /// `:groups`, or `:groups TOPIC` for the groups consuming it.
    Groups(Option<String>),
    /// `:group NAME`: one group's offsets.
    Group(String),
    /// `:partitions TOPIC` (also `:p`).
    Partitions(String),
    /// `:messages TOPIC [PARTITION]`: a topic's records, following.
    Messages {
        /// The topic.
        topic: String,
        /// Only this partition.
        partition: Option<i32>,
    },
    /// `:seek FROM` on the Messages screen (offset, -N, time, beginning, end).
    Seek(String),
    /// `:find REGEX` on the Messages screen: the next matching record,
    /// scanning beyond the loaded ones.
    Find(String),
    /// `:key KEY` on the Messages screen: only the records with this key,
    /// from the partition the Java client's default partitioner puts it in.
    Key(String),
    /// `:isolation [committed|uncommitted]` on the Messages screen (no
    /// argument: the other one).
    Isolation(Option<crate::browse::Isolation>),
    /// `:format auto|text|json|hex|avro|protobuf|jsonschema` on the Messages screen.
    Format(crate::browse::Format),
    /// `:save PATH` (the selected record), `:save-all PATH` (every record
    /// the filter shows) as JSON lines, or as CSV when PATH ends in `.csv`;
    /// `!` overwrites an existing file.
    Save {
        /// Where, as typed.
        path: String,
        /// Every shown record, not only the selected one.
        all: bool,
        /// Overwrite an existing file.
        force: bool,
    },
    Context(String),
    /// `:at TIME`: a replay's cursor to TIME (the grammar of `get --at`).
    At(String),
    /// `:cluster`: quorum, features, reassignments.
    Cluster,
    /// `:schemas`: the schema registry's subjects and versions.
    Schemas,
    /// `:acls [TOPIC]`, `:users`, `:quotas`.
    Security(Security),
    /// `:config topic NAME`, `:config broker ID`, `:config group NAME`,
    /// `:config defaults`.
    Config(crate::inspect::ConfigResource),
    Help,
    Quit,
}

/// Command names with their aliases, first the canonical one.
const COMMANDS: &[(&str, &[&str])] = &[
    ("topics", &["t", "topic"]),
    ("partitions", &["p", "partition"]),
    ("brokers", &["b", "broker"]),
    ("leaders", &["l", "movement", "moves"]),
    ("events", &["ev", "timeline"]),
    ("fleet", &["contexts"]),
    ("clients", &["who"]),
    ("groups", &["cg", "consumers", "consumer-groups"]),
    ("group", &["describe"]),
    ("config", &["configs", "cfg"]),
    ("messages", &["m", "msgs", "records"]),
    ("seek", &["from"]),
    ("format", &["fmt"]),
    ("isolation", &["iso"]),
    ("find", &["search"]),
    ("key", &["k"]),
    ("save", &["w"]),
    ("save-all", &["wa"]),
    ("cluster", &["quorum", "features"]),
    ("schemas", &["subjects", "sr", "registry"]),
    ("acls", &["acl"]),
    ("users", &["scram"]),
    ("quotas", &["quota"]),
    ("ctx", &["context"]),
    ("help", &["h"]),
    ("q", &["quit", "q!"]),
];

fn canonical(word: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .find(|(name, aliases)| *name == word || aliases.contains(&word))
        .map(|(name, _)| *name)
}

/// Parse a command line (without the `:`).
pub fn parse(line: &str) -> Result<Parsed, String> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Err("empty command".to_owned());
    };
    if let Some(save) = save(word, line) {
        return save;
    }
    if canonical(word) == Some("find") {
        let pattern = line.trim_start()[word.len()..].trim();
        if pattern.is_empty() {
            return Err(
                "usage: :find REGEX or :find jq:EXPR (scans beyond the loaded records)".to_owned(),
            );
        }
        return Ok(Parsed::Find(pattern.to_owned()));
    }
    // A replay's only command: left out of completion, where `:a` Tab
    // still gives `:acls`.
    if word == "at" {
        return match line.trim_start()[word.len()..].trim() {
            "" => Err("usage: :at TIME (RFC 3339, +90s, -1m, start or end)".to_owned()),
            time => Ok(Parsed::At(time.to_owned())),
        };
    }
    if canonical(word) == Some("key") {
        let key = line.trim_start()[word.len()..].trim();
        if key.is_empty() {
            return Err(
                "usage: :key KEY (its records, from the partition it hashes to)".to_owned(),
            );
        }
        return Ok(Parsed::Key(key.to_owned()));
    }
    let argument = words.next().map(str::to_owned);
    if canonical(word) == Some("config") {
        return config(argument.as_deref(), words.next()).map(Parsed::Config);
    }
    let more: Vec<&str> = words.collect();
    let parsed = match (canonical(word), argument) {
        (Some("messages"), Some(topic)) => {
            let partition = match more.first() {
                None => None,
                Some(p) => Some(p.parse::<i32>().map_err(|_| {
                    format!("usage: :messages TOPIC [PARTITION] ('{p}' is not a partition)")
                })?),
            };
            Parsed::Messages { topic, partition }
        }
        (Some("messages"), None) => return Err("usage: :messages TOPIC [PARTITION]".to_owned()),
        (Some("seek"), Some(spec)) => Parsed::Seek(spec),
        (Some("seek"), None) => {
            return Err("usage: :seek OFFSET|-N|@EPOCH_MS|ISO8601|-15m|beginning|end".to_owned());
        }
        (Some("format"), Some(name)) => {
            Parsed::Format(crate::browse::Format::parse(&name).ok_or_else(|| {
                format!(
                    "format '{name}': expected auto, text, json, hex, avro, protobuf or jsonschema"
                )
            })?)
        }
        (Some("format"), None) => {
            return Err("usage: :format auto|text|json|hex|avro|protobuf|jsonschema".to_owned());
        }
        (Some("isolation"), None) => Parsed::Isolation(None),
        (Some("isolation"), Some(word)) => Parsed::Isolation(Some(
            super::screens::messages::names::parse(&word)
                .ok_or_else(|| format!("isolation '{word}': expected committed or uncommitted"))?,
        )),
        (Some("topics"), _) => Parsed::Topics,
        (Some("brokers"), _) => Parsed::Brokers,
        (Some("leaders"), _) => Parsed::Leaders,
        (Some("events"), _) => Parsed::Events,
        (Some("fleet"), _) => Parsed::Fleet,
        (Some("clients"), topic) => Parsed::Clients(topic),
        (Some("cluster"), _) => Parsed::Cluster,
        (Some("schemas"), _) => Parsed::Schemas,
        (Some("acls"), None) => Parsed::Security(Security::Acls),
        (Some("acls"), Some(topic)) => Parsed::Security(Security::TopicAcls(topic)),
        (Some("users"), _) => Parsed::Security(Security::Users),
        (Some("quotas"), _) => Parsed::Security(Security::Quotas),
        (Some("groups"), topic) => Parsed::Groups(topic),
        (Some("group"), Some(group)) => Parsed::Group(group),
        (Some("group"), None) => return Err("usage: :group NAME".to_owned()),
        (Some("help"), _) => Parsed::Help,
        (Some("q"), _) => Parsed::Quit,
        (Some("partitions"), Some(topic)) => Parsed::Partitions(topic),
        (Some("ctx"), Some(name)) => Parsed::Context(name),
        (Some("partitions"), None) => return Err("usage: :partitions TOPIC".to_owned()),
        (Some("ctx"), None) => return Err("usage: :ctx NAME".to_owned()),
        _ => {
            return Err(format!(
                "unknown command '{word}' (try :topics, :groups, :brokers, :leaders, :ctx NAME, :q)"
            ));
        }
    };
    Ok(parsed)
}

/// `:save[!] PATH` or `:save-all[!] PATH` (the path is the rest of the
/// line, spaces kept); `None` for other commands.
fn save(word: &str, line: &str) -> Option<Result<Parsed, String>> {
    let (name, force) = match word.strip_suffix('!') {
        Some(name) => (name, true),
        None => (word, false),
    };
    let all = match canonical(name) {
        Some("save") => false,
        Some("save-all") => true,
        _ => return None,
    };
    let path = line.trim_start()[word.len()..].trim();
    if path.is_empty() {
        return Some(Err(format!(
            "usage: :{name}[!] PATH (JSON lines; ! overwrites an existing file)"
        )));
    }
    Some(Ok(Parsed::Save {
        path: path.to_owned(),
        all,
        force,
    }))
}

const CONFIG_USAGE: &str = "usage: :config topic NAME | broker ID | group NAME | defaults";

/// The resource of `:config KIND [NAME]`.
fn config(
    kind: Option<&str>,
    name: Option<&str>,
) -> Result<crate::inspect::ConfigResource, String> {
    use crate::inspect::ConfigResource;
    match (kind, name) {
        (Some("topic" | "t"), Some(name)) => Ok(ConfigResource::Topic(name.to_owned())),
        (Some("broker" | "b"), Some(id)) => id
            .parse()
            .map(ConfigResource::Broker)
            .map_err(|_| format!("broker id '{id}' is not a number ({CONFIG_USAGE})")),
        (Some("defaults" | "broker-defaults"), None) => Ok(ConfigResource::BrokerDefaults),
        (Some("group" | "g"), Some(name)) => Ok(ConfigResource::Group(name.to_owned())),
        _ => Err(CONFIG_USAGE.to_owned()),
    }
}

/// What `:` arguments complete from.
#[derive(Debug, Default, Clone, Copy)]
pub struct Candidates<'a> {
    /// Context names (`:ctx`).
    pub contexts: &'a [String],
    /// Topic names (`:partitions`, `:groups`).
    pub topics: &'a [&'a str],
    /// Group names (`:group`).
    pub groups: &'a [&'a str],
}

/// Complete `line`: the command word, or the argument of `:ctx`,
/// `:partitions`, `:groups` and `:group`. Returns the new line; with several
/// candidates, their longest common prefix.
pub fn complete(line: &str, candidates: Candidates<'_>) -> String {
    let Candidates {
        contexts,
        topics,
        groups,
    } = candidates;
    match line.split_once(' ') {
        None => {
            let names: Vec<&str> = COMMANDS.iter().map(|(name, _)| *name).collect();
            let done = extend(line, &names);
            let unique = names
                .iter()
                .filter(|n| n.starts_with(done.as_str()))
                .count()
                == 1;
            if unique
                && matches!(
                    done.as_str(),
                    "ctx" | "partitions" | "group" | "config" | "messages" | "seek" | "format"
                )
            {
                format!("{done} ")
            } else {
                done
            }
        }
        Some((word, argument)) => {
            let argument = argument.trim_start();
            let done = match canonical(word) {
                Some("ctx") => extend(
                    argument,
                    &contexts.iter().map(String::as_str).collect::<Vec<_>>(),
                ),
                Some("partitions" | "groups" | "messages") => extend(argument, topics),
                Some("group") => extend(argument, groups),
                Some("config") => match argument.split_once(' ') {
                    Some(("topic", name)) => format!("topic {}", extend(name.trim_start(), topics)),
                    Some(("group", name)) => format!("group {}", extend(name.trim_start(), groups)),
                    Some(_) => argument.to_owned(),
                    None => extend(argument, &["topic", "broker", "group", "defaults"]),
                },
                _ => argument.to_owned(),
            };
            format!("{word} {done}")
        }
    }
}

fn extend(prefix: &str, candidates: &[&str]) -> String {
    let matching: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| c.starts_with(prefix))
        .collect();
    let Some(first) = matching.first() else {
        return prefix.to_owned();
    };
    let mut common = (*first).to_owned();
    for other in &matching[1..] {
        let shared = common
            .chars()
            .zip(other.chars())
            .take_while(|(a, b)| a == b)
            .count();
        common = common.chars().take(shared).collect();
    }
    if common.len() < prefix.len() {
        prefix.to_owned()
    } else {
        common
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::inspect::ConfigResource;

    #[test]
    fn parses_commands_and_aliases() {
        assert_eq!(parse("topics"), Ok(Parsed::Topics));
        assert_eq!(parse(" b "), Ok(Parsed::Brokers));
        assert_eq!(parse("leaders"), Ok(Parsed::Leaders));
        assert_eq!(parse("ctx prod"), Ok(Parsed::Context("prod".to_owned())));
        assert_eq!(
            parse("at 2026-12-05T12:00:10.250Z"),
            Ok(Parsed::At("2026-12-05T12:00:10.250Z".to_owned()))
        );
        assert!(parse("at").is_err());
        assert_eq!(
            parse("p orders"),
            Ok(Parsed::Partitions("orders".to_owned()))
        );
        assert_eq!(parse("q"), Ok(Parsed::Quit));
        assert_eq!(parse("groups"), Ok(Parsed::Groups(None)));
        assert_eq!(
            parse("cg orders"),
            Ok(Parsed::Groups(Some("orders".to_owned())))
        );
        assert_eq!(parse("group b"), Ok(Parsed::Group("b".to_owned())));
        assert!(parse("group").is_err());
        assert_eq!(parse("quit"), Ok(Parsed::Quit));
        assert_eq!(
            parse("messages orders 3"),
            Ok(Parsed::Messages {
                topic: "orders".to_owned(),
                partition: Some(3)
            })
        );
        assert_eq!(
            parse("m orders"),
            Ok(Parsed::Messages {
                topic: "orders".to_owned(),
                partition: None
            })
        );
        assert!(parse("messages orders x").is_err());
        assert!(parse("messages").is_err());
        assert_eq!(parse("seek -10"), Ok(Parsed::Seek("-10".to_owned())));
        assert_eq!(
            parse("format hex"),
            Ok(Parsed::Format(crate::browse::Format::Hex))
        );
        assert!(parse("format yaml").is_err());
        assert_eq!(
            parse("format protobuf"),
            Ok(Parsed::Format(crate::browse::Format::Protobuf))
        );
        assert!(parse("ctx").is_err());
        assert!(parse("explode").expect_err("unknown").contains("'explode'"));
        assert_eq!(
            parse("config topic orders"),
            Ok(Parsed::Config(ConfigResource::Topic("orders".to_owned())))
        );
        assert_eq!(
            parse("config broker 2"),
            Ok(Parsed::Config(ConfigResource::Broker(2)))
        );
        assert_eq!(
            parse("cfg defaults"),
            Ok(Parsed::Config(ConfigResource::BrokerDefaults))
        );
        assert!(parse("config broker two").is_err());
        assert!(parse("config topic").is_err());
        assert!(parse("config").is_err());
        assert_eq!(parse("cluster"), Ok(Parsed::Cluster));
        assert_eq!(parse("quorum"), Ok(Parsed::Cluster));
        assert_eq!(parse("sr"), Ok(Parsed::Schemas));
        assert_eq!(parse("acls"), Ok(Parsed::Security(Security::Acls)));
        assert_eq!(
            parse("acl orders"),
            Ok(Parsed::Security(Security::TopicAcls("orders".to_owned())))
        );
        assert_eq!(parse("users"), Ok(Parsed::Security(Security::Users)));
        assert_eq!(parse("quotas"), Ok(Parsed::Security(Security::Quotas)));
    }

    #[test]
    fn parses_key_with_its_spaces() {
        assert_eq!(
            parse("key order 4711"),
            Ok(Parsed::Key("order 4711".to_owned()))
        );
        assert_eq!(parse("k  x "), Ok(Parsed::Key("x".to_owned())));
        assert!(parse("key").expect_err("no key").contains("usage: :key"));
    }

    #[test]
    fn parses_the_messages_screens_save_and_isolation() {
        assert_eq!(
            parse("save /tmp/my records.jsonl"),
            Ok(Parsed::Save {
                path: "/tmp/my records.jsonl".to_owned(),
                all: false,
                force: false
            })
        );
        assert_eq!(
            parse("save-all! out.jsonl"),
            Ok(Parsed::Save {
                path: "out.jsonl".to_owned(),
                all: true,
                force: true
            })
        );
        assert_eq!(
            parse("w! x"),
            Ok(Parsed::Save {
                path: "x".to_owned(),
                all: false,
                force: true
            })
        );
        assert!(parse("save").expect_err("no path").contains("usage: :save"));
        assert_eq!(
            parse("isolation uncommitted"),
            Ok(Parsed::Isolation(Some(
                crate::browse::Isolation::ReadUncommitted
            )))
        );
        assert_eq!(parse("iso"), Ok(Parsed::Isolation(None)));
        assert!(parse("isolation dirty").is_err());
    }

    #[test]
    fn completes_words_and_arguments() {
        let contexts = vec![
            "prod-eu".to_owned(),
            "prod-us".to_owned(),
            "local".to_owned(),
        ];
        let topics = ["orders", "orders-dlq", "payments"];
        let table = [
            ("to", "topics"),
            ("b", "brokers"),
            ("ct", "ctx "),
            ("c", "c"),
            ("ctx p", "ctx prod-"),
            ("ctx l", "ctx local"),
            ("ctx x", "ctx x"),
            ("partitions pa", "partitions payments"),
            ("p or", "p orders"),
            ("messages pay", "messages payments"),
            ("me", "messages "),
            ("group b", "group billing"),
            ("groups pay", "groups payments"),
            ("gr", "group"),
            ("conf", "config "),
            ("config t", "config topic"),
            ("config topic pay", "config topic payments"),
            ("zz", "zz"),
        ];
        for (line, want) in table {
            let candidates = Candidates {
                contexts: &contexts,
                topics: &topics,
                groups: &["billing", "billing-eu", "audit"],
            };
            assert_eq!(complete(line, candidates), want, "{line}");
        }
    }
}
