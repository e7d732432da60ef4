//! `kscope get groups` and `kscope describe group NAME`, as table or JSON.

pub(crate) mod error;
mod json;
pub mod stuck;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use crate::anonymize::{self, Kind};
use crate::app::screens::groups::columns::{
    list as group_columns, members, offsets as group_offsets,
};
use crate::cli::table::write_columns;
use crate::columns::streams_tasks;
use crate::groups::{self, GroupDetail, GroupsClient, Overview};
use crate::inspect::TopicSummary;
use crate::meta::Cluster;
use crate::untrusted::escape;

pub use crate::cli::args::OutputFormat;
pub use crate::recording::GroupRowJson;
pub use error::CliError;
pub use json::{GroupDetailJson, now_ms};
pub use stuck::Verdicts;

/// Print every group. Returns warnings for stderr (brokers that could not
/// list their groups, groups whose details failed).
pub async fn get_groups(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<Vec<String>, CliError> {
    let overview = GroupsClient::new(cluster.clone()).overview().await?;
    render_groups(&overview, format, out)?;
    let mut warnings: Vec<String> = overview
        .failed_brokers
        .iter()
        .map(|(node, why)| format!("broker {node} could not list its groups: {why}"))
        .collect();
    warnings.extend(overview.groups.iter().filter_map(|g| g.error.clone()));
    Ok(warnings)
}

/// Print one group with members, assignments and per-partition offsets.
pub async fn describe_group(
    cluster: &Cluster,
    name: &str,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), CliError> {
    describe_group_over(cluster, name, None, format, out).await
}

/// [`describe_group`], and with `stuck_over` the offsets read over that
/// span (see [`stuck`]) to say which partitions are STUCK and who owns
/// them.
pub async fn describe_group_over(
    cluster: &Cluster,
    name: &str,
    stuck_over: Option<Duration>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let client = GroupsClient::new(cluster.clone());
    let (detail, stuck, histories) = match stuck_over {
        Some(span) => {
            let (detail, stuck, histories) = stuck::read_over(&client, name, span).await?;
            (detail, Some(stuck), Some(histories))
        }
        None => (client.group_detail(name).await?, None, None),
    };
    let summaries = retention_of(cluster, &detail).await;
    let limits: BTreeMap<&str, i64> = summaries
        .iter()
        .filter_map(|(topic, s)| Some((topic.as_str(), s.retention_bytes.filter(|b| *b >= 0)?)))
        .collect();
    let by_size = match &histories {
        Some(histories) if !limits.is_empty() => {
            by_size(cluster, &detail, histories, &limits).await
        }
        _ => BTreeMap::new(),
    };
    let verdicts = Verdicts {
        retention: summaries
            .iter()
            .filter_map(|(topic, s)| Some((topic.clone(), s.retention_ms?)))
            .collect(),
        stuck,
        by_size,
    };
    render_group(&detail, &verdicts, format, out)
}

/// LOSS IN by size of the lagging partitions of the topics in `limits`
/// (topic → `retention.bytes`): their sizes from one `DescribeLogDirs`
/// per broker, their records a second from `histories`.
async fn by_size(
    cluster: &Cluster,
    detail: &GroupDetail,
    histories: &groups::PartitionHistories,
    limits: &BTreeMap<&str, i64>,
) -> BTreeMap<stuck::PartitionKey, Duration> {
    let snapshot = cluster.snapshot();
    let brokers: Vec<i32> = snapshot.brokers().iter().map(|b| b.node_id).collect();
    let answers = crate::inspect::log_dirs::describe(cluster, &brokers).await;
    let sizes = crate::inspect::ClusterSizes::of(answers, &snapshot);
    detail
        .lag
        .partitions
        .iter()
        .filter_map(|p| {
            let limit = *limits.get(p.topic.as_ref())?;
            let size = sizes
                .replicas(&p.topic, p.partition)
                .iter()
                .filter(|r| !r.future)
                .map(|r| r.size)
                .max()?;
            let end = p.end?;
            let trend = group_offsets::SizeTrend {
                retention_bytes: limit,
                size,
                records: end - p.start?,
                unread: end - p.committed?,
                records_per_sec: histories.get(&p.topic, p.partition)?.production_rate()?,
            };
            let loss_in = group_offsets::bytes_loss_in(&trend)?;
            Some(((p.topic.to_string(), p.partition), loss_in))
        })
        .collect()
}

/// The config summaries (`retention.ms`, `retention.bytes`) of the topics
/// `detail` has lagging partitions on, for LOSS IN; empty (the column
/// unknown) when they cannot be read.
async fn retention_of(cluster: &Cluster, detail: &GroupDetail) -> BTreeMap<String, TopicSummary> {
    use crate::inspect::{ConfigResource, configs};
    let mut topics: Vec<String> = detail
        .lag
        .partitions
        .iter()
        .filter(|p| p.records().is_some_and(|n| n > 0))
        .map(|p| p.topic.to_string())
        .collect();
    topics.dedup();
    if topics.is_empty() {
        return BTreeMap::new();
    }
    let resources: Vec<ConfigResource> = topics.into_iter().map(ConfigResource::Topic).collect();
    match configs::describe(cluster, &resources).await {
        Ok(described) => described
            .into_iter()
            .filter_map(|(resource, entries)| {
                let ConfigResource::Topic(topic) = resource else {
                    return None;
                };
                Some((topic, TopicSummary::of(&entries.ok()?)))
            })
            .collect(),
        Err(error) => {
            tracing::debug!(%error, "topic retention for LOSS IN unavailable");
            BTreeMap::new()
        }
    }
}

fn lag_cell(total: Option<i64>) -> String {
    total.map_or_else(|| "-".to_owned(), |n| n.to_string())
}

/// A streams group's topology, one line per subtopology: what its tasks
/// read and write.
fn write_topology(out: &mut impl Write, topology: &groups::Topology) -> io::Result<()> {
    let list = |topics: &[String]| -> String {
        topics
            .iter()
            .map(|t| escape(&anonymize::name(Kind::Topic, t)).into_owned())
            .collect::<Vec<_>>()
            .join(",")
    };
    writeln!(out, "topology:     epoch {}", topology.epoch)?;
    if topology.subtopologies.is_empty() {
        writeln!(out, "              (not known to the broker yet)")?;
    }
    for s in &topology.subtopologies {
        let mut parts = Vec::new();
        let reads: Vec<String> = s.input_topics().cloned().collect();
        if !reads.is_empty() {
            parts.push(format!("reads {}", list(&reads)));
        }
        if !s.repartition_sink_topics.is_empty() {
            parts.push(format!(
                "repartitions to {}",
                list(&s.repartition_sink_topics)
            ));
        }
        if !s.changelog_topics.is_empty() {
            parts.push(format!("changelogs {}", list(&s.changelog_topics)));
        }
        writeln!(out, "  subtopology {}: {}", escape(&s.id), parts.join("; "))?;
    }
    Ok(())
}

/// Render the group list.
pub fn render_groups(
    overview: &Overview,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if format == OutputFormat::Json {
        let rows: Vec<GroupRowJson> = overview.groups.iter().map(GroupRowJson::from).collect();
        crate::cli::output::json(&mut *out, &rows, true)?;
        writeln!(out)?;
        return Ok(());
    }
    let rows: Vec<group_columns::Row> = overview
        .groups
        .iter()
        .map(|summary| group_columns::Row {
            summary,
            history: None,
        })
        .collect();
    if format == OutputFormat::Csv {
        crate::cli::table::write_csv(out, &group_columns::headless(), &rows)?;
    } else {
        write_columns(out, &group_columns::headless(), &rows)?;
    }
    Ok(())
}

/// Render one group, with what `verdicts` says of its partitions.
pub fn render_group(
    detail: &GroupDetail,
    verdicts: &Verdicts,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if format == OutputFormat::Json {
        crate::cli::output::json(&mut *out, &GroupDetailJson::new(detail, verdicts), true)?;
        writeln!(out)?;
        return Ok(());
    }
    let d = &detail.description;
    let group = anonymize::name(Kind::Group, &d.group);
    writeln!(out, "group:        {}", escape(&group))?;
    writeln!(out, "type:         {}", d.group_type)?;
    writeln!(out, "state:        {}", d.state)?;
    writeln!(out, "coordinator:  {}", d.coordinator)?;
    if let (Some(group_epoch), Some(assignment_epoch)) = (d.group_epoch, d.assignment_epoch) {
        writeln!(
            out,
            "epochs:       group {group_epoch}, assignment {assignment_epoch}"
        )?;
    }
    writeln!(
        out,
        "assignor:     {}",
        if d.assignor.is_empty() {
            "-".into()
        } else {
            escape(&d.assignor)
        }
    )?;
    writeln!(out, "lag:          {}", lag_cell(detail.lag.totals.total()))?;
    if let Some(topology) = &d.topology {
        write_topology(out, topology)?;
    }
    writeln!(out)?;
    let members: Vec<&groups::Member> = d.members.iter().collect();
    write_columns(out, &members::table(), &members)?;
    writeln!(out)?;
    if d.topology.is_some() {
        write_columns(out, &streams_tasks::table(), &members)?;
        writeln!(out)?;
    }
    let now = json::now_ms();
    let offsets: Vec<group_offsets::Row> = detail
        .lag
        .partitions
        .iter()
        .map(|p| group_offsets::Row {
            lag: p,
            oldest_age: detail
                .oldest_unconsumed_age_ms(&p.topic, p.partition, now)
                .map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or(0))),
            owner: verdicts
                .stuck
                .as_ref()
                .and_then(|_| stuck::owner(d, &p.topic, p.partition))
                .map(|m| m.client_id.as_str()),
            history: None,
            stuck: verdicts.stuck(&p.topic, p.partition) == Some(true),
            loss_in: None,
        })
        .map(|row| group_offsets::Row {
            loss_in: verdicts.loss_in(
                &row.lag.topic,
                row.lag.partition,
                group_offsets::data_loss_in(
                    verdicts.retention.get(row.lag.topic.as_ref()).copied(),
                    row.oldest_age,
                ),
            ),
            ..row
        })
        .collect();
    let table = if verdicts.stuck.is_some() {
        group_offsets::judged()
    } else {
        group_offsets::headless()
    };
    write_columns(out, &table, &offsets)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{GroupDescription, GroupLag, GroupState, GroupType, Member, PartitionLag};

    fn detail() -> GroupDetail {
        let assignment = groups::Assignment::from_pairs([("orders".to_owned(), vec![0, 1])]);
        GroupDetail {
            description: GroupDescription {
                group: "billing".to_owned(),
                group_type: GroupType::Consumer,
                state: GroupState::Stable,
                coordinator: 2,
                protocol_type: "consumer".to_owned(),
                assignor: "uniform".to_owned(),
                group_epoch: Some(3),
                assignment_epoch: Some(3),
                topology: None,
                members: vec![Member {
                    member_id: "m1".to_owned(),
                    client_id: "c1".to_owned(),
                    client_host: "/127.0.0.1".to_owned(),
                    member_epoch: Some(3),
                    assignment: assignment.clone(),
                    target_assignment: Some(assignment),
                    ..Member::default()
                }],
            },
            lag: GroupLag::new(vec![
                PartitionLag {
                    topic: "orders".into(),
                    partition: 0,
                    committed: Some(4),
                    end: Some(10),
                    start: None,
                    reported: None,
                },
                PartitionLag {
                    topic: "orders".into(),
                    partition: 1,
                    committed: None,
                    end: Some(7),
                    start: None,
                    reported: None,
                },
            ]),
            oldest_unconsumed: std::collections::BTreeMap::from([(
                crate::meta::offsets::TopicPartition::new("orders", 0),
                json::now_ms() - 5 * 60_000,
            )]),
            oldest_unconsumed_left_out: 0,
        }
    }

    #[test]
    fn describe_json_has_offsets_with_null_for_no_commit() {
        let mut out = Vec::new();
        render_group(
            &detail(),
            &Verdicts::default(),
            OutputFormat::Json,
            &mut out,
        )
        .expect("renders");
        let value: serde_json::Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(value["type"], "consumer");
        assert_eq!(value["lag"], 6);
        assert_eq!(value["offsets"][0]["lag"], 6);
        assert_eq!(value["offsets"][1]["committed"], serde_json::Value::Null);
        assert_eq!(value["offsets"][1]["lag"], serde_json::Value::Null);
        assert!(
            value["offsets"][0]["oldest_unconsumed_age_ms"]
                .as_i64()
                .is_some_and(|a| a >= 300_000)
        );
        assert!(
            value["offsets"][1]
                .get("oldest_unconsumed_age_ms")
                .is_none()
        );
        assert_eq!(value["members"][0]["assignment"]["orders"][1], 1);
        assert_eq!(value["members"][0]["target_assignment"]["orders"][0], 0);
    }

    #[test]
    fn describe_table_says_no_commit() {
        let mut out = Vec::new();
        // An hour of retention and a 5-minute-old unread record: 55 minutes.
        let verdicts = Verdicts {
            retention: BTreeMap::from([("orders".to_owned(), 3_600_000)]),
            ..Verdicts::default()
        };
        render_group(&detail(), &verdicts, OutputFormat::Table, &mut out).expect("renders");
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("LOSS IN"), "{text}");
        // The fixture's record is 5 minutes old when built; a loaded machine
        // may take the render past a second boundary (54m59s).
        assert!(
            ["5m00s   55m00s\n", "5m00s   54m59s\n", "5m01s   54m59s\n"]
                .iter()
                .any(|cells| text.contains(cells)),
            "{text}"
        );
        assert!(
            text.contains("epochs:       group 3, assignment 3"),
            "{text}"
        );
        assert!(
            text.contains("orders          1          -    7  no commit       -        -\n"),
            "{text}"
        );
        assert!(text.contains("orders:0,1"), "{text}");
        assert!(text.contains("5m0"), "{text}");
    }

    #[test]
    fn loss_in_is_the_earlier_of_the_estimates_by_time_and_by_size() {
        let json = |by_size: Duration| {
            let verdicts = Verdicts {
                retention: BTreeMap::from([("orders".to_owned(), 3_600_000)]),
                by_size: BTreeMap::from([(("orders".to_owned(), 0), by_size)]),
                ..Verdicts::default()
            };
            let mut out = Vec::new();
            render_group(&detail(), &verdicts, OutputFormat::Json, &mut out).expect("renders");
            let value: serde_json::Value = serde_json::from_slice(&out).expect("json");
            value["offsets"][0]["data_loss_in_ms"].as_i64()
        };
        assert_eq!(
            json(Duration::from_mins(10)),
            Some(600_000),
            "by size first"
        );
        let by_time = json(Duration::from_hours(2)).expect("by time");
        assert!(
            (3_299_000..=3_300_000).contains(&by_time),
            "55 minutes by time: {by_time}"
        );
    }
}
