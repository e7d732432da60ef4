//! `DescribeConfigs` with synonyms and documentation, batched: every topic
//! (and the cluster-wide broker defaults) in one request to any broker, and
//! one request per broker for that broker's own configs.
//!
//! Sensitive values never leave this module: Kafka already sends them as
//! null, and an entry marked sensitive drops whatever value came anyway.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::task::JoinSet;

use super::config_source::{ConfigResource, ConfigSource, ConfigType};
use super::error::{Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_configs_request::DescribeConfigsResource;
use crate::conn::protocol::messages::describe_configs_response::DescribeConfigsResult;
use crate::conn::protocol::messages::{DescribeConfigsRequest, DescribeConfigsResponse};
use crate::meta::Cluster;

/// How long one `DescribeConfigs` may take before its resources count as
/// unanswered.
pub const CONFIGS_DEADLINE: Duration = Duration::from_secs(10);

/// One config of a resource.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigEntry {
    /// Its key, e.g. `retention.ms`.
    pub name: String,
    /// Its value; `None` when unset or sensitive.
    pub value: Option<String>,
    /// Where the value comes from.
    pub source: ConfigSource,
    /// Whether Kafka hides it (passwords, keys).
    pub sensitive: bool,
    /// Whether it cannot be changed dynamically.
    pub read_only: bool,
    /// Its declared type.
    pub kind: ConfigType,
    /// Kafka's documentation of the key (v3+).
    pub documentation: Option<String>,
    /// Where else a value is set, highest precedence first (the entry's
    /// own source is the first).
    pub synonyms: Vec<Synonym>,
}

impl ConfigEntry {
    /// Whether the value is Kafka's built-in default.
    pub fn is_default(&self) -> bool {
        self.source == ConfigSource::Default
    }
}

/// One link of a config's synonym chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Synonym {
    /// The key it is set under (`log.retention.hours` for `retention.ms`).
    pub name: String,
    /// Its value; `None` when unset or sensitive.
    pub value: Option<String>,
    /// Where it is set.
    pub source: ConfigSource,
}

/// What the Topics and Partitions screens show of a topic's configs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicSummary {
    /// `cleanup.policy`: `delete`, `compact`, `compact,delete`.
    pub cleanup: Option<String>,
    /// `retention.ms` (-1: forever).
    pub retention_ms: Option<i64>,
    /// `retention.bytes` per partition (-1: no size limit).
    pub retention_bytes: Option<i64>,
    /// `min.insync.replicas`.
    pub min_isr: Option<usize>,
    /// `remote.storage.enable` (tiered storage, KIP-405) is on.
    pub remote_storage: bool,
}

impl TopicSummary {
    /// The summary of a topic's entries.
    pub fn of(entries: &[ConfigEntry]) -> TopicSummary {
        let value = |name: &str| {
            entries
                .iter()
                .find(|e| e.name == name)
                .and_then(|e| e.value.clone())
        };
        TopicSummary {
            cleanup: value("cleanup.policy"),
            retention_ms: value("retention.ms").and_then(|v| v.parse().ok()),
            retention_bytes: value("retention.bytes").and_then(|v| v.parse().ok()),
            min_isr: value("min.insync.replicas").and_then(|v| v.parse().ok()),
            remote_storage: value(REMOTE_STORAGE_ENABLE)
                .is_some_and(|v| v.eq_ignore_ascii_case("true")),
        }
    }
}

/// The config that turns tiered storage on for a topic.
pub const REMOTE_STORAGE_ENABLE: &str = "remote.storage.enable";

/// The answer for one resource: its entries sorted by name, or why not.
pub type Described = (ConfigResource, Result<Vec<ConfigEntry>>);

/// How much of each entry a `DescribeConfigs` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Synonyms, and documentation where the version has it (the config
    /// screens).
    Full,
    /// Values and sources only (the sweeps: a tenth of the bytes).
    Values,
}

/// The request for `resources`; documentation only where the version has it.
pub fn request(resources: &[ConfigResource], version: i16) -> DescribeConfigsRequest {
    request_for(resources, version, Detail::Full)
}

/// The request for `resources` with `detail`.
pub fn request_for(
    resources: &[ConfigResource],
    version: i16,
    detail: Detail,
) -> DescribeConfigsRequest {
    let full = detail == Detail::Full;
    DescribeConfigsRequest::default()
        .with_resources(
            resources
                .iter()
                .map(|r| {
                    DescribeConfigsResource::default()
                        .with_resource_type(r.wire_type())
                        .with_resource_name(StrBytes::from_string(r.wire_name()))
                        // The default is an empty list, which asks for no keys.
                        .with_configuration_keys(None)
                })
                .collect(),
        )
        .with_include_synonyms(full)
        .with_include_documentation(full && version >= 3)
}

/// Each of `resources` with its entries from `response`.
pub fn read(response: &DescribeConfigsResponse, resources: &[ConfigResource]) -> Vec<Described> {
    resources
        .iter()
        .map(|resource| {
            let found = response.results.iter().find(|r| {
                r.resource_type == resource.wire_type()
                    && r.resource_name.as_str() == resource.wire_name()
            });
            let entries = match found {
                Some(result) => entries(result, resource),
                None => Err(Error::Answer {
                    what: format!("configs of {resource}"),
                    code: ErrorCode::UnknownServerError,
                    message: Some("missing from the answer".to_owned()),
                }),
            };
            (resource.clone(), entries)
        })
        .collect()
}

fn entries(result: &DescribeConfigsResult, resource: &ConfigResource) -> Result<Vec<ConfigEntry>> {
    // A broker before 4.0 has no GROUP config resource and calls the
    // request invalid, with a message about malformed clients: say why.
    if matches!(resource, ConfigResource::Group(_))
        && ErrorCode::from_code(result.error_code) == Some(ErrorCode::InvalidRequest)
    {
        return Err(Error::Answer {
            what: format!("configs of {resource}"),
            code: ErrorCode::InvalidRequest,
            message: Some("group configs need Kafka 4.0 or newer; this broker has none".to_owned()),
        });
    }
    if let Some(error) = Error::answer(
        format!("configs of {resource}"),
        result.error_code,
        result.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let mut entries: Vec<ConfigEntry> = result
        .configs
        .iter()
        .map(|c| {
            let sensitive = c.is_sensitive;
            let value = |v: &Option<StrBytes>| {
                v.as_ref()
                    .filter(|_| !sensitive)
                    .map(|v| v.as_str().to_owned())
            };
            ConfigEntry {
                name: c.name.as_str().to_owned(),
                value: value(&c.value),
                source: ConfigSource::from_wire(c.config_source),
                sensitive,
                read_only: c.read_only,
                kind: ConfigType::from_wire(c.config_type),
                documentation: c.documentation.as_ref().map(|d| d.as_str().to_owned()),
                synonyms: c
                    .synonyms
                    .iter()
                    .map(|s| Synonym {
                        name: s.name.as_str().to_owned(),
                        value: value(&s.value),
                        source: ConfigSource::from_wire(s.source),
                    })
                    .collect(),
            }
        })
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// Describe `resources`: topics and the broker defaults in one request to
/// any broker, each broker's own configs in one request to it, all at once.
/// A request that fails or takes longer than [`CONFIGS_DEADLINE`] fails
/// its resources only.
pub async fn describe(cluster: &Cluster, resources: &[ConfigResource]) -> Result<Vec<Described>> {
    describe_with(cluster, resources, Detail::Full).await
}

/// [`describe`] asking for values and sources only (no synonyms, no
/// documentation).
pub async fn describe_values(
    cluster: &Cluster,
    resources: &[ConfigResource],
) -> Result<Vec<Described>> {
    describe_with(cluster, resources, Detail::Values).await
}

async fn describe_with(
    cluster: &Cluster,
    resources: &[ConfigResource],
    detail: Detail,
) -> Result<Vec<Described>> {
    let version = cluster
        .negotiated_for::<DescribeConfigsRequest>()
        .await
        .map_err(|e| Error::request("describe configs", e))?;
    let mut batches: BTreeMap<Option<i32>, Vec<ConfigResource>> = BTreeMap::new();
    for resource in resources {
        batches
            .entry(resource.node())
            .or_default()
            .push(resource.clone());
    }
    let mut requests = JoinSet::new();
    for (node, batch) in batches {
        let cluster = cluster.clone();
        requests.spawn(async move {
            let answer = ask(&cluster, node, &batch, (version, detail)).await;
            (batch, answer)
        });
    }
    let mut described = Vec::with_capacity(resources.len());
    while let Some(joined) = requests.join_next().await {
        let (batch, answer) = joined.map_err(|e| Error::Task {
            what: "describe configs",
            message: e.to_string(),
        })?;
        match answer {
            Ok(response) => described.extend(read(&response, &batch)),
            Err(error) => described.extend(batch.into_iter().map(|r| (r, Err(error.clone())))),
        }
    }
    described.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(described)
}

async fn ask(
    cluster: &Cluster,
    node: Option<i32>,
    batch: &[ConfigResource],
    (version, detail): (i16, Detail),
) -> Result<DescribeConfigsResponse> {
    let what = match node {
        Some(id) => format!("configs of broker {id}"),
        None => "describe configs".to_owned(),
    };
    let request = request_for(batch, version, detail);
    let sent = async {
        match node {
            Some(id) => cluster.send_to_node(id, request).await,
            None => cluster.send_any(request).await,
        }
    };
    match tokio::time::timeout(CONFIGS_DEADLINE, sent).await {
        Ok(answer) => answer.map_err(|e| Error::request(what, e)),
        Err(_) => Err(Error::Timeout {
            what,
            after: CONFIGS_DEADLINE,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsSynonym,
    };

    fn config(name: &str, value: Option<&str>, source: i8) -> DescribeConfigsResourceResult {
        DescribeConfigsResourceResult::default()
            .with_name(StrBytes::from_string(name.to_owned()))
            .with_value(value.map(|v| StrBytes::from_string(v.to_owned())))
            .with_config_source(source)
            .with_config_type(5)
    }

    fn answer(code: i16, configs: Vec<DescribeConfigsResourceResult>) -> DescribeConfigsResponse {
        DescribeConfigsResponse::default().with_results(vec![
            DescribeConfigsResult::default()
                .with_error_code(code)
                .with_resource_type(2)
                .with_resource_name(StrBytes::from_static_str("orders"))
                .with_configs(configs),
        ])
    }

    #[test]
    fn the_request_asks_for_every_key_with_synonyms() {
        let topic = ConfigResource::Topic("orders".to_owned());
        let request = request(&[topic, ConfigResource::Broker(1)], 4);
        assert_eq!(request.resources.len(), 2);
        assert!(
            request
                .resources
                .iter()
                .all(|r| r.configuration_keys.is_none()),
            "null asks for every key; an empty list asks for none"
        );
        assert!(request.include_synonyms && request.include_documentation);
        assert!(!super::request(&[], 2).include_documentation, "v2 has none");
        let values = request_for(&[ConfigResource::BrokerDefaults], 4, Detail::Values);
        assert!(!values.include_synonyms && !values.include_documentation);
        assert!(values.resources[0].configuration_keys.is_none());
    }

    #[test]
    fn a_broker_without_group_configs_is_said_in_words() {
        let refused = DescribeConfigsResponse::default().with_results(vec![
            DescribeConfigsResult::default()
                .with_resource_type(32)
                .with_resource_name(StrBytes::from_static_str("g"))
                .with_error_code(42)
                .with_error_message(Some(StrBytes::from_static_str(
                    "This most likely occurs because of a request being malformed",
                ))),
        ]);
        let group = ConfigResource::Group("g".to_owned());
        let read = read(&refused, std::slice::from_ref(&group));
        let error = read[0].1.as_ref().expect_err("refused").to_string();
        assert!(
            error.contains("group configs need Kafka 4.0 or newer"),
            "{error}"
        );
        assert!(!error.contains("malformed"), "{error}");
    }

    #[test]
    fn entries_keep_their_source_and_sensitive_values_are_dropped() {
        let secret = config("ssl.key.password", Some("hunter2"), 4)
            .with_is_sensitive(true)
            .with_synonyms(vec![
                DescribeConfigsSynonym::default()
                    .with_name(StrBytes::from_static_str("ssl.key.password"))
                    .with_value(Some(StrBytes::from_static_str("hunter2")))
                    .with_source(4),
            ]);
        let response = answer(
            0,
            vec![
                config("segment.ms", None, 5),
                config("retention.ms", Some("12345"), 1).with_read_only(false),
                secret,
            ],
        );
        let topic = ConfigResource::Topic("orders".to_owned());
        let read = read(&response, std::slice::from_ref(&topic));
        let entries = read[0].1.as_ref().expect("no error");
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["retention.ms", "segment.ms", "ssl.key.password"],
            "sorted"
        );
        assert_eq!(entries[0].value.as_deref(), Some("12345"));
        assert_eq!(entries[0].source, ConfigSource::DynamicTopic);
        assert!(!entries[0].is_default());
        assert!(entries[1].is_default());
        assert_eq!(entries[1].value, None);
        assert_eq!(entries[0].kind, ConfigType::Long);
        assert!(entries[2].sensitive);
        assert_eq!(entries[2].value, None, "never kept");
        assert_eq!(entries[2].synonyms[0].value, None, "nor in a synonym");
    }

    #[test]
    fn an_error_or_a_missing_result_fails_that_resource_only() {
        let orders = ConfigResource::Topic("orders".to_owned());
        let other = ConfigResource::Topic("other".to_owned());
        let read = read(&answer(3, vec![]), &[orders, other]);
        let messages: Vec<String> = read
            .iter()
            .map(|(_, r)| {
                r.as_ref()
                    .err()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            messages[0],
            "configs of topic 'orders': unknown topic or partition"
        );
        assert!(
            messages[1].contains("missing from the answer"),
            "{}",
            messages[1]
        );
    }
}
