//! `kscope get transactions` (every open transaction) and `kscope get
//! producers TOPIC -p N` (a partition's active producers).

use std::io::Write;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::output::emit;
use crate::cli::rows::{number, opt, text};
use crate::columns::Column;
use crate::inspect::transactions::{self, OpenTransaction, Producer};
use crate::meta::Cluster;

fn transaction_table() -> [Column<OpenTransaction>; 7] {
    [
        text("TRANSACTIONAL-ID", |t| t.transactional_id.clone()),
        text("STATE", |t| t.state.clone()),
        number("PRODUCER", |t| t.producer_id.to_string()),
        number("START-MS", |t| t.start_ms.to_string()),
        number("TIMEOUT-MS", |t| t.timeout_ms.to_string()),
        number("COORDINATOR", |t| t.coordinator.to_string()),
        text("PARTITIONS", |t| {
            t.partitions
                .iter()
                .map(|p| format!("{}-{}", p.topic, p.partition))
                .collect::<Vec<_>>()
                .join(",")
        }),
    ]
}

fn producer_table() -> [Column<Producer>; 6] {
    [
        number("PRODUCER", |p| p.producer_id.to_string()),
        number("EPOCH", |p| p.producer_epoch.to_string()),
        number("LAST-SEQUENCE", |p| p.last_sequence.to_string()),
        number("LAST-WRITE-MS", |p| p.last_timestamp_ms.to_string()),
        number("COORDINATOR-EPOCH", |p| p.coordinator_epoch.to_string()),
        number("TXN-START-OFFSET", |p| opt(p.txn_start_offset)),
    ]
}

/// Print every open transaction; a broker that could not list its own is
/// one stderr line.
pub async fn transactions(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let (open, failed) = transactions::open_transactions(cluster).await;
    for error in &failed {
        crate::cli::partial::missing(error);
    }
    if open.is_empty()
        && let Some(error) = failed.into_iter().next()
    {
        return Err(error.into());
    }
    emit(out, format, &open, &transaction_table())
}

/// Print a partition's active producers.
pub async fn producers(
    cluster: &Cluster,
    topic: &str,
    partition: i32,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let snapshot = cluster.refresh_topics(&[topic]).await?;
    if snapshot.topic(topic).is_none() {
        return Err(Error::UnknownTopic(topic.to_owned()));
    }
    let producers = transactions::describe_producers(cluster, topic, partition).await?;
    emit(out, format, &producers, &producer_table())
}
