//! The config screens' tables: a topic's or broker's configs (name, value,
//! source, read-only), and one config's synonym chain.

use crate::columns::Column;
use crate::inspect::{ConfigEntry, ConfigSource, Synonym};

/// What a sensitive value shows as (Kafka never sends it; JSON has null).
pub const MASK: &str = "******";

/// The value as shown: masked when sensitive, `-` when unset.
pub fn shown_value(sensitive: bool, value: Option<&str>) -> String {
    if sensitive {
        MASK.to_owned()
    } else {
        value.unwrap_or("-").to_owned()
    }
}

/// A source in words: `dynamic topic`, `static broker`, `default`, …
pub fn source_label(source: ConfigSource) -> &'static str {
    match source {
        ConfigSource::DynamicTopic => "dynamic topic",
        ConfigSource::DynamicBroker => "dynamic broker",
        ConfigSource::DynamicDefaultBroker => "dynamic default",
        ConfigSource::StaticBroker => "static broker",
        ConfigSource::Default => "default",
        ConfigSource::DynamicBrokerLogger => "dynamic logger",
        ConfigSource::ClientMetrics => "client metrics",
        ConfigSource::Group => "group",
        ConfigSource::Unknown(_) => "unknown",
    }
}

/// One config of the resource on screen.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    pub entry: &'a ConfigEntry,
}

/// The columns: name, value (masked when sensitive), source, read-only,
/// and as much of the documentation as the terminal leaves room for.
pub fn table<'a>() -> [Column<Row<'a>>; 5] {
    [
        // Entries come sorted by name.
        Column::text("NAME", (12, 48), |r| r.entry.name.clone(), None),
        Column::text(
            "VALUE",
            (8, 40),
            |r| shown_value(r.entry.sensitive, r.entry.value.as_deref()),
            Some(|a, b| a.entry.value.cmp(&b.entry.value)),
        ),
        Column::text(
            "SOURCE",
            (7, 15),
            |r| source_label(r.entry.source).to_owned(),
            Some(|a, b| a.entry.source.cmp(&b.entry.source)),
        ),
        Column::text(
            "READ-ONLY",
            (9, 9),
            |r| if r.entry.read_only { "yes" } else { "-" }.to_owned(),
            Some(|a, b| a.entry.read_only.cmp(&b.entry.read_only)),
        ),
        Column::fill(
            "DOCUMENTATION",
            (1, 0),
            |r| r.entry.documentation.clone().unwrap_or_default(),
            None,
        ),
    ]
}

/// One link of a config's synonym chain.
#[derive(Debug, Clone, Copy)]
pub struct SynonymRow<'a> {
    pub synonym: &'a Synonym,
    /// Whether the config is sensitive (its synonyms are masked too).
    pub sensitive: bool,
}

/// The columns of the synonym chain, highest precedence first (its order
/// is the point, so no column sorts it).
pub fn synonym_table<'a>() -> [Column<SynonymRow<'a>>; 3] {
    [
        Column::text(
            "SOURCE",
            (7, 15),
            |r| source_label(r.synonym.source).to_owned(),
            None,
        ),
        Column::text("SET AS", (12, 48), |r| r.synonym.name.clone(), None),
        Column::fill(
            "VALUE",
            (1, 8),
            |r| shown_value(r.sensitive, r.synonym.value.as_deref()),
            None,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;
    use crate::inspect::ConfigType;

    fn entry(source: ConfigSource, sensitive: bool) -> ConfigEntry {
        ConfigEntry {
            name: "retention.ms".to_owned(),
            value: Some("1000".to_owned()),
            source,
            sensitive,
            read_only: false,
            kind: ConfigType::Long,
            documentation: None,
            synonyms: vec![Synonym {
                name: "log.retention.ms".to_owned(),
                value: Some("1000".to_owned()),
                source: ConfigSource::StaticBroker,
            }],
        }
    }

    #[test]
    fn values_are_masked_when_sensitive_and_sources_named() {
        let plain = entry(ConfigSource::DynamicTopic, false);
        assert_eq!(
            cells(&table(), &Row { entry: &plain }),
            ["retention.ms", "1000", "dynamic topic", "-", ""]
        );
        let secret = ConfigEntry {
            read_only: true,
            ..entry(ConfigSource::StaticBroker, true)
        };
        assert_eq!(
            cells(&table(), &Row { entry: &secret }),
            ["retention.ms", MASK, "static broker", "yes", ""]
        );
        let synonym = SynonymRow {
            synonym: &secret.synonyms[0],
            sensitive: true,
        };
        assert_eq!(
            cells(&synonym_table(), &synonym),
            ["static broker", "log.retention.ms", MASK]
        );
        assert_eq!(shown_value(false, None), "-");
        let labels: Vec<&str> = (0..=9)
            .map(|v| source_label(ConfigSource::from_wire(v)))
            .collect();
        assert!(!labels.contains(&""), "{labels:?}");
    }
}
