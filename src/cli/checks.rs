//! What a command is checked for before any connection: refusals under
//! `--anonymize`, a `watch`'s filter, whether `-o csv` applies.

use super::args::{Command, GetCommand};
use super::error::Error;
use super::{watch, watch_groups};

/// Under `--anonymize`, why `command` is refused: `record` would keep the
/// real names, and Kafka's own topics hold them in their records (group,
/// topic and transactional ids), which no pseudonym replaces.
pub(super) fn anonymize_refuses(command: &Command) -> Option<Error> {
    crate::anonymize::active()?;
    match command {
        Command::Record { .. } => Some(Error::Usage(
            "--anonymize does not apply to record: a recording keeps the real names".to_owned(),
        )),
        Command::Consume { topic, .. } if topic.starts_with("__") => Some(Error::Usage(format!(
            "--anonymize does not apply to consume {topic}: its records hold group, topic and transactional ids"
        ))),
        _ => None,
    }
}

/// A `watch`'s filter, its `--kinds` and `--groups` checked before any
/// connection; `None` for other commands.
pub(super) fn watch_filter(command: &Command) -> Result<Option<watch::Filter>, Error> {
    match command {
        Command::Watch {
            what,
            kinds,
            groups,
            ..
        } => {
            watch_groups::regex(groups.as_deref())?;
            Ok(Some(watch::Filter::new(*what, kinds)?))
        }
        _ => Ok(None),
    }
}

/// Whether `command` prints rows that `-o csv` can write: `consume`, and
/// every `get` listing printed from a column table.
pub(super) fn csv_supported(command: &Command) -> bool {
    matches!(command, Command::Consume { .. } | Command::Get { .. })
        && !matches!(
            command,
            Command::Get {
                what: GetCommand::Cluster,
                ..
            }
        )
}
