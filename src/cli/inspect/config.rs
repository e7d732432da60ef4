//! `kscope get config topic NAME | broker ID | broker-defaults`.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::{ConfigOf, OutputFormat};
use crate::cli::error::Error;
use crate::conn::ErrorCode;
use crate::inspect::{ConfigEntry, ConfigResource, configs};
use crate::meta::Cluster;

use crate::app::screens::configs::columns::shown_value;
use crate::cli::rows::text;
use crate::columns::Column;

use crate::cli::output::emit;

/// One config (`get config`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigRow {
    /// Its key.
    pub name: String,
    /// Its value; null when unset or sensitive.
    pub value: Option<String>,
    /// Where the value comes from: `DYNAMIC_TOPIC_CONFIG`, `DEFAULT_CONFIG`, …
    pub source: &'static str,
    /// Whether it is Kafka's built-in default (source `DEFAULT_CONFIG`).
    pub is_default: bool,
    /// Whether Kafka hides the value.
    pub sensitive: bool,
    /// Whether it cannot be changed dynamically.
    pub read_only: bool,
    /// Its declared type: `LONG`, `STRING`, …
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Kafka's documentation of the key.
    pub documentation: Option<String>,
    /// Where else it is set, highest precedence first.
    pub synonyms: Vec<SynonymRow>,
}

/// One link of a synonym chain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SynonymRow {
    /// The key it is set under.
    pub name: String,
    /// Its value; null when unset or sensitive.
    pub value: Option<String>,
    /// Where it is set.
    pub source: &'static str,
}

impl ConfigRow {
    /// The table `get config` prints; a sensitive value is masked.
    pub fn table() -> [Column<ConfigRow>; 6] {
        [
            text("NAME", |r| r.name.clone()),
            text("VALUE", |r| shown_value(r.sensitive, r.value.as_deref())),
            text("SOURCE", |r| r.source.to_owned()),
            text("DEFAULT", |r| r.is_default.to_string()),
            text("SENSITIVE", |r| r.sensitive.to_string()),
            text("READ-ONLY", |r| r.read_only.to_string()),
        ]
    }
}

/// The row of one entry.
pub fn row(entry: &ConfigEntry) -> ConfigRow {
    ConfigRow {
        name: entry.name.clone(),
        value: entry.value.clone(),
        source: entry.source.name(),
        is_default: entry.is_default(),
        sensitive: entry.sensitive,
        read_only: entry.read_only,
        kind: entry.kind.name(),
        documentation: entry.documentation.clone(),
        synonyms: entry
            .synonyms
            .iter()
            .map(|s| SynonymRow {
                name: s.name.clone(),
                value: s.value.clone(),
                source: s.source.name(),
            })
            .collect(),
    }
}

/// Print the configs of one topic or broker.
pub async fn run(
    cluster: &Cluster,
    of: &ConfigOf,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let resource = match of {
        ConfigOf::Topic { name } => ConfigResource::Topic(name.clone()),
        ConfigOf::Broker { id } => ConfigResource::Broker(*id),
        ConfigOf::BrokerDefaults => ConfigResource::BrokerDefaults,
        ConfigOf::Group { name } => ConfigResource::Group(name.clone()),
    };
    let mut described = configs::describe(cluster, std::slice::from_ref(&resource)).await?;
    let Some((_, entries)) = described.pop() else {
        return Err(Error::Usage(format!("no answer for {resource}")));
    };
    let entries = match (entries, &resource) {
        (Err(error), ConfigResource::Topic(name))
            if error.code() == Some(ErrorCode::UnknownTopicOrPartition) =>
        {
            return Err(Error::UnknownTopic(name.clone()));
        }
        (entries, _) => entries?,
    };
    let rows: Vec<ConfigRow> = entries.iter().map(row).collect();
    emit(out, format, &rows, &ConfigRow::table())
}
