//! Which Kafka release a cluster runs, read from the `metadata.version`
//! feature that `ApiVersions` (v3+) reports; there is no request that names
//! the broker software's version.
//!
//! Two readings, both shown: the highest level the answering broker
//! *supports* is the newest its binary knows, so it names the broker's
//! release; the *finalized* level is what the operator set for the cluster,
//! a lower bound on the features in use (brokers on 4.1 binaries can sit at
//! 3.7-IV2 for months). `ZooKeeper`-mode clusters and releases before 3.3
//! report no `metadata.version`, and get no version.

use crate::inspect::Feature;

/// `metadata.version` feature levels 1..=34 and their release names, from
/// Kafka's `MetadataVersion` enum.
const LEVELS: [&str; 34] = [
    "3.0-IV1", "3.1-IV0", "3.2-IV0", "3.3-IV0", "3.3-IV1", "3.3-IV2", "3.3-IV3", "3.4-IV0",
    "3.5-IV0", "3.5-IV1", "3.5-IV2", "3.6-IV0", "3.6-IV1", "3.6-IV2", "3.7-IV0", "3.7-IV1",
    "3.7-IV2", "3.7-IV3", "3.7-IV4", "3.8-IV0", "3.9-IV0", "4.0-IV0", "4.0-IV1", "4.0-IV2",
    "4.0-IV3", "4.1-IV0", "4.1-IV1", "4.2-IV0", "4.2-IV1", "4.3-IV0", "4.4-IV0", "4.4-IV1",
    "4.4-IV2", "4.5-IV0",
];

/// What the features say about the release.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Release {
    /// The answering broker's release, `4.1`; a level newer than kscope
    /// knows reads `newer than 4.5`.
    pub kafka: Option<String>,
    /// The cluster's finalized `metadata.version`, `4.1-IV1`.
    pub metadata_version: Option<String>,
}

/// The release name of a feature level (`4.1-IV1`), or `level N` past the table.
fn level_name(level: i16) -> String {
    usize::try_from(level)
        .ok()
        .and_then(|l| l.checked_sub(1))
        .and_then(|i| LEVELS.get(i))
        .map_or_else(|| format!("level {level}"), |name| (*name).to_owned())
}

/// Read the release from the features of one `ApiVersions` answer.
pub fn release(features: &[Feature]) -> Release {
    let Some(metadata) = features.iter().find(|f| f.name == "metadata.version") else {
        return Release::default();
    };
    let newest = LEVELS.len();
    let kafka = match usize::try_from(metadata.supported_max) {
        Ok(level) if (1..=newest).contains(&level) => LEVELS[level - 1]
            .split_once('-')
            .map(|(release, _)| release.to_owned()),
        Ok(level) if level > newest => {
            let last = LEVELS[newest - 1].split_once('-').map_or("", |(r, _)| r);
            Some(format!("newer than {last}"))
        }
        _ => None,
    };
    Release {
        kafka,
        metadata_version: metadata.finalized.map(level_name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(max: i16, finalized: Option<i16>) -> Vec<Feature> {
        vec![Feature {
            name: "metadata.version".to_owned(),
            supported_min: 7,
            supported_max: max,
            finalized,
        }]
    }

    #[test]
    fn supported_names_the_binary_and_finalized_the_cluster_level() {
        let r = release(&metadata(27, Some(17)));
        assert_eq!(r.kafka.as_deref(), Some("4.1"));
        assert_eq!(r.metadata_version.as_deref(), Some("3.7-IV2"));
        assert_eq!(
            release(&metadata(99, None)).kafka.as_deref(),
            Some("newer than 4.5")
        );
        assert_eq!(release(&[]), Release::default());
        assert_eq!(level_name(0), "level 0");
    }
}
