//! Capture real responses from a running cluster as seed corpora.
//!
//! `cargo run --manifest-path fuzz/Cargo.toml --bin capture_corpus -- CLUSTER_ENV CORPUS_DIR [LABEL]`
//!
//! Runs kscope's own `Connection` through a recording proxy on loopback, sends
//! each request type the fuzz targets cover, and writes every response frame
//! as `CORPUS_DIR/<target>/<api>-v<version>-<n>`, plus the 12-byte hostile
//! cases. Read-only except for nothing: every request here only reads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use kscope::conn::frame::{correlation_id, read_frame};
use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::describe_configs_request::DescribeConfigsResource;
use kscope::conn::protocol::messages::fetch_request::{FetchPartition, FetchTopic};
use kscope::conn::protocol::messages::list_offsets_request::{
    ListOffsetsPartition, ListOffsetsTopic,
};
use kscope::conn::protocol::messages::offset_fetch_request::OffsetFetchRequestGroup;
use kscope::conn::protocol::messages::{
    ApiKey, BrokerId, ConsumerGroupDescribeRequest, DescribeClusterRequest, DescribeConfigsRequest,
    DescribeGroupsRequest, DescribeLogDirsRequest, DescribeTransactionsRequest, FetchRequest,
    FindCoordinatorRequest, GroupId, ListGroupsRequest, ListOffsetsRequest, MetadataRequest,
    OffsetFetchRequest, TopicName, TransactionalId,
};
use kscope::conn::{
    Connection, ConnectionConfig, SaslConfig, SaslMechanism, Secret, supported_versions,
};
use kscope::inspect::{cluster_info, quotas, security, transactions};
use tokio::io::{AsyncWriteExt, split};
use tokio::net::{TcpListener, TcpStream};

type Captured = Arc<Mutex<Vec<(i16, i16, Bytes)>>>;

/// A proxy to `target` recording every response frame with its request's key and version.
async fn recording_proxy(target: String, captured: Captured) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let broker = TcpStream::connect(&target).await.expect("broker");
            let pending: Arc<Mutex<HashMap<i32, (i16, i16)>>> = Arc::default();
            let (mut client_read, mut client_write) = split(client);
            let (mut broker_read, mut broker_write) = split(broker);
            let requests = pending.clone();
            tokio::spawn(async move {
                while let Ok(frame) = read_frame(&mut client_read, 1 << 30).await {
                    let key = i16::from_be_bytes([frame[0], frame[1]]);
                    let version = i16::from_be_bytes([frame[2], frame[3]]);
                    let id = correlation_id(&frame[4..]).expect("id");
                    requests.lock().expect("lock").insert(id, (key, version));
                    let length = u32::try_from(frame.len()).expect("length").to_be_bytes();
                    broker_write.write_all(&length).await.expect("write");
                    broker_write.write_all(&frame).await.expect("write");
                }
            });
            let captured = captured.clone();
            tokio::spawn(async move {
                while let Ok(frame) = read_frame(&mut broker_read, 1 << 30).await {
                    let id = correlation_id(&frame).expect("id");
                    if let Some((key, version)) = pending.lock().expect("lock").remove(&id) {
                        captured
                            .lock()
                            .expect("lock")
                            .push((key, version, frame.clone()));
                    }
                    let length = u32::try_from(frame.len()).expect("length").to_be_bytes();
                    if client_write.write_all(&length).await.is_err()
                        || client_write.write_all(&frame).await.is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    address
}

fn env_file(path: &Path) -> HashMap<String, String> {
    std::fs::read_to_string(path)
        .expect("cluster env")
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn first(list: &str) -> String {
    list.split(',').next().expect("an address").to_owned()
}

fn target_for(key: i16) -> Option<&'static str> {
    Some(match ApiKey::try_from(key).ok()? {
        ApiKey::ApiVersions => "api_versions",
        ApiKey::Metadata => "metadata_answer",
        ApiKey::FindCoordinator => "find_coordinator",
        ApiKey::ListOffsets => "list_offsets",
        ApiKey::ListGroups => "list_groups",
        ApiKey::DescribeGroups => "describe_groups",
        ApiKey::ConsumerGroupDescribe => "consumer_group_describe",
        ApiKey::OffsetFetch => "offset_fetch",
        ApiKey::Fetch => "fetch",
        ApiKey::DescribeConfigs => "describe_configs",
        ApiKey::DescribeCluster => "describe_cluster",
        ApiKey::DescribeLogDirs => "describe_log_dirs",
        ApiKey::SaslHandshake => "sasl_handshake",
        ApiKey::SaslAuthenticate => "sasl_authenticate",
        ApiKey::DescribeQuorum => "describe_quorum",
        ApiKey::DescribeAcls => "describe_acls",
        ApiKey::DescribeClientQuotas => "describe_client_quotas",
        ApiKey::DescribeUserScramCredentials => "describe_user_scram_credentials",
        ApiKey::ListPartitionReassignments => "list_partition_reassignments",
        ApiKey::ListTransactions => "list_transactions",
        ApiKey::DescribeTransactions => "describe_transactions",
        ApiKey::DescribeProducers => "describe_producers",
        _ => return None,
    })
}

fn name(text: &str) -> StrBytes {
    StrBytes::from_string(text.to_owned())
}

/// Every read the targets cover, on one connection (plus Fetch/ListOffsets on the leader).
async fn reads(connection: &Connection, leader: impl AsyncFnOnce(i32) -> Connection) {
    let metadata = connection
        .send(
            MetadataRequest::default()
                .with_allow_auto_topic_creation(false)
                .with_topics(None),
        )
        .await
        .expect("metadata");
    let group = "kscope-fuzz-corpus";
    let _ = connection.send(DescribeClusterRequest::default()).await;
    let _ = connection.send(ListGroupsRequest::default()).await;
    let find = FindCoordinatorRequest::default().with_coordinator_keys(vec![name(group)]);
    let _ = connection.send(find).await;
    let groups = vec![GroupId(name(group))];
    let _ = connection
        .send(DescribeGroupsRequest::default().with_groups(groups.clone()))
        .await;
    let describe = ConsumerGroupDescribeRequest::default().with_group_ids(groups);
    let _ = connection.send(describe).await;
    let offsets = OffsetFetchRequest::default().with_groups(vec![
        OffsetFetchRequestGroup::default()
            .with_group_id(GroupId(name(group)))
            .with_topics(None),
    ]);
    let _ = connection.send(offsets).await;
    let _ = connection
        .send(DescribeLogDirsRequest::default().with_topics(None))
        .await;
    let topic = metadata
        .topics
        .iter()
        .filter(|t| !t.partitions.is_empty())
        .max_by_key(|t| (!t.is_internal, t.partitions.len()));
    // With no topic on the cluster, ask about one that does not exist: the
    // error responses are seeds too.
    let (topic_name, topic_id, partition_index, leader_id) = match topic {
        Some(topic) => (
            topic.name.clone().expect("a name").0,
            topic.topic_id,
            topic.partitions[0].partition_index,
            topic.partitions[0].leader_id.0,
        ),
        None => (name("kscope-fuzz-absent"), Default::default(), 0, 1),
    };
    let mut resources = vec![
        DescribeConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(name("1"))
            .with_configuration_keys(None),
    ];
    if topic.is_some() {
        resources.push(
            DescribeConfigsResource::default()
                .with_resource_type(2)
                .with_resource_name(topic_name.clone())
                .with_configuration_keys(None),
        );
    }
    let configs = DescribeConfigsRequest::default().with_resources(resources);
    let _ = connection.send(configs).await;
    // The inspection screens' reads (on a cluster without an authorizer the
    // ACL answer is SECURITY_DISABLED: a seed too).
    let _ = connection.send(security::acls_request()).await;
    let _ = connection
        .send(security::topic_acls_request("orders"))
        .await;
    let _ = connection.send(security::users_request()).await;
    let _ = connection.send(quotas::quotas_request()).await;
    let _ = connection.send(cluster_info::reassignments_request()).await;
    let _ = connection.send(kscope::meta::quorum_request()).await;
    let _ = connection.send(transactions::list_request()).await;
    let described = DescribeTransactionsRequest::default()
        .with_transactional_ids(vec![TransactionalId(name("kscope-fuzz-corpus"))]);
    let _ = connection.send(described).await;
    let leader = leader(leader_id).await;
    let producers = transactions::producers_request(&topic_name, partition_index);
    let _ = leader.send(producers).await;
    let list = ListOffsetsRequest::default()
        .with_replica_id(BrokerId(-1))
        .with_topics(vec![
            ListOffsetsTopic::default()
                .with_name(TopicName(topic_name.clone()))
                .with_partitions(vec![
                    ListOffsetsPartition::default()
                        .with_partition_index(partition_index)
                        .with_timestamp(-1),
                ]),
        ]);
    let _ = leader.send(list).await;
    let fetch_partition = FetchPartition::default()
        .with_partition(partition_index)
        .with_fetch_offset(0)
        .with_partition_max_bytes(1 << 20);
    let fetch_topic = if leader.negotiated_for::<FetchRequest>().expect("fetch") >= 13 {
        FetchTopic::default().with_topic_id(topic_id)
    } else {
        FetchTopic::default().with_topic(TopicName(topic_name.clone()))
    };
    let fetch = FetchRequest::default()
        .with_max_wait_ms(0)
        .with_min_bytes(1)
        .with_max_bytes(1 << 20)
        .with_topics(vec![fetch_topic.with_partitions(vec![fetch_partition])]);
    let _ = leader.send(fetch).await;
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(env_path), Some(corpus)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: capture_corpus CLUSTER_ENV CORPUS_DIR [LABEL]");
        std::process::exit(2);
    };
    // A label keeps the seeds of a second cluster (say, one with an
    // authorizer) beside the first's instead of over them.
    let label = args.get(3).map_or(String::new(), |l| format!("{l}-"));
    let env = env_file(Path::new(env_path));
    let captured: Captured = Arc::default();
    let config = ConnectionConfig::default();
    let brokers: Vec<String> = env["KSCOPE_BOOTSTRAP"]
        .split(',')
        .map(str::to_owned)
        .collect();

    let proxy = recording_proxy(brokers[0].clone(), captured.clone()).await;
    let connection = Connection::connect(&proxy, Some(1), &config)
        .await
        .expect("connect");
    let leader_connection = async |node: i32| {
        let index = usize::try_from(node - 1)
            .unwrap_or(0)
            .min(brokers.len() - 1);
        let proxy = recording_proxy(brokers[index].clone(), captured.clone()).await;
        Connection::connect(&proxy, Some(node), &config)
            .await
            .expect("leader")
    };
    reads(&connection, leader_connection).await;

    for mechanism in [SaslMechanism::Plain, SaslMechanism::ScramSha512] {
        let sasl = ConnectionConfig {
            sasl: Some(SaslConfig {
                mechanism,
                username: env["KSCOPE_SCRAM_USER"].clone(),
                password: Secret::new(env["KSCOPE_SCRAM_PASSWORD"].clone()),
                token_command: None,
            }),
            ..ConnectionConfig::default()
        };
        let target = first(&env["KSCOPE_BOOTSTRAP_SASL_PLAINTEXT"]);
        let proxy = recording_proxy(target, captured.clone()).await;
        Connection::connect(&proxy, Some(1), &sasl)
            .await
            .expect("sasl");
    }

    let captured = captured.lock().expect("lock").clone();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (key, version, frame) in &captured {
        let Some(target) = target_for(*key) else {
            continue;
        };
        let n = counts.entry(target).or_default();
        *n += 1;
        let min = ApiKey::try_from(*key)
            .map(supported_versions)
            .map_or(0, |r| r.min);
        let mut entry = vec![u8::try_from(version - min).unwrap_or(0)];
        entry.extend_from_slice(frame);
        write(
            corpus,
            target,
            &format!("real-{label}v{version}-{n}"),
            &entry,
        );
        if target == "api_versions" {
            let mut framed = u32::try_from(frame.len())
                .expect("length")
                .to_be_bytes()
                .to_vec();
            framed.extend_from_slice(frame);
            write(
                corpus,
                "frame_reader",
                &format!("real-{label}api-versions-{n}"),
                &framed,
            );
        }
    }
    hostile_seeds(corpus);
    let mut summary: Vec<_> = counts.into_iter().collect();
    summary.sort_unstable();
    println!("captured: {summary:?}");
}

/// The 12-byte cases: tiny frames whose array lengths claim billions of entries.
fn hostile_seeds(corpus: &str) {
    // ApiVersions v4: correlation id, error 0, api_keys claiming 2^32 - 2 entries.
    let api_versions = [0, 0, 0, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f];
    let mut entry = vec![4];
    entry.extend_from_slice(&api_versions);
    write(corpus, "api_versions", "hostile-huge-array", &entry);
    let mut framed = vec![0, 0, 0, 11];
    framed.extend_from_slice(&api_versions);
    write(corpus, "frame_reader", "hostile-huge-array", &framed);
    write(
        corpus,
        "frame_reader",
        "hostile-huge-length",
        &[0x7f, 0xff, 0xff, 0xff, 0],
    );
    // Metadata v12: header tagged fields, throttle time, brokers claiming 2^31 - 2.
    let metadata = [12, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x07];
    write(corpus, "metadata_answer", "hostile-huge-array", &metadata);
}

fn write(corpus: &str, target: &str, file: &str, bytes: &[u8]) {
    let dir = PathBuf::from(corpus).join(target);
    std::fs::create_dir_all(&dir).expect("corpus dir");
    std::fs::write(dir.join(file), bytes).expect("corpus file");
}
