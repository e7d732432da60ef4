//! The connection layer against the real cluster's PLAINTEXT listeners:
//! `ApiVersions` with a 4.x broker, Metadata, pipelining, and the read-only guard.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::create_topics_request::CreatableTopic;
use kscope::conn::protocol::messages::metadata_request::MetadataRequestTopic;
use kscope::conn::protocol::messages::{
    ApiVersionsRequest, CreateTopicsRequest, FetchRequest, MetadataRequest, TopicName,
};
use kscope::conn::{ApiKey, Connection, ConnectionConfig, Error, ErrorCode};

fn first(list: &str) -> String {
    list.split(',').next().unwrap().to_owned()
}

async fn connect(config: &ConnectionConfig) -> Option<Connection> {
    let env = support::shared_cluster()?;
    let address = first(env.bootstrap());
    Some(
        Connection::connect(&address, None, config)
            .await
            .expect("connect"),
    )
}

fn metadata_for(topics: Option<&[&str]>) -> MetadataRequest {
    MetadataRequest::default()
        .with_allow_auto_topic_creation(false)
        .with_topics(topics.map(|names| {
            names
                .iter()
                .map(|name| {
                    MetadataRequestTopic::default()
                        .with_name(Some(TopicName(StrBytes::from_string((*name).to_owned()))))
                })
                .collect()
        }))
}

#[tokio::test]
async fn api_versions_are_negotiated_with_a_4x_broker() {
    let Some(connection) = connect(&ConnectionConfig::default()).await else {
        return;
    };
    // Kafka 4.x supports ApiVersions v4 and Metadata v13; kscope's codec stops at v4/v13.
    assert_eq!(
        connection.negotiated_for::<ApiVersionsRequest>().unwrap(),
        4
    );
    assert!(connection.negotiated_for::<MetadataRequest>().unwrap() >= 12);
    assert!(connection.negotiated_for::<FetchRequest>().unwrap() >= 13);
    assert_eq!(
        connection.negotiated_version(ApiKey::Metadata),
        connection.negotiated_for::<MetadataRequest>().ok()
    );
    // Kafka 4 removed ControlledShutdown's client-facing versions: not advertised by a broker.
    assert!(!connection.is_broken());
}

#[tokio::test]
async fn a_metadata_round_trip_sees_three_brokers() {
    let Some(connection) = connect(&ConnectionConfig::default()).await else {
        return;
    };
    let response = connection.send(metadata_for(None)).await.expect("metadata");
    assert_eq!(response.brokers.len(), 3, "{response:?}");
    assert!(response.cluster_id.is_some());
}

#[tokio::test]
async fn many_requests_are_pipelined_on_one_connection() {
    let Some(connection) = connect(&ConnectionConfig::default()).await else {
        return;
    };
    let started = std::time::Instant::now();
    let requests = (0..200).map(|_| {
        let connection = connection.clone();
        tokio::spawn(async move { connection.send(metadata_for(Some(&[]))).await })
    });
    let results = futures_join(requests.collect()).await;
    assert_eq!(results.len(), 200);
    for result in results {
        let response = result.expect("answered");
        assert!(!response.brokers.is_empty());
    }
    assert!(!connection.is_broken());
    assert!(started.elapsed() < Duration::from_secs(30));
}

async fn futures_join<T>(handles: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(handles.len());
    for handle in handles {
        out.push(handle.await.expect("task"));
    }
    out
}

#[tokio::test]
async fn an_unknown_topic_comes_back_as_a_kafka_error_code() {
    let Some(connection) = connect(&ConnectionConfig::default()).await else {
        return;
    };
    let response = connection
        .send(metadata_for(Some(&["kscope-conn-no-such-topic"])))
        .await
        .expect("metadata");
    let code = ErrorCode::from_code(response.topics[0].error_code);
    assert_eq!(code, Some(ErrorCode::UnknownTopicOrPartition));
}

#[tokio::test]
async fn read_only_refuses_create_topics_before_it_reaches_the_broker() {
    let config = ConnectionConfig {
        read_only: true,
        ..ConnectionConfig::default()
    };
    let Some(connection) = connect(&config).await else {
        return;
    };
    let name = format!("kscope-conn-readonly-{}", std::process::id());
    let create = CreateTopicsRequest::default()
        .with_topics(vec![
            CreatableTopic::default()
                .with_name(TopicName(StrBytes::from_string(name.clone())))
                .with_num_partitions(1)
                .with_replication_factor(1),
        ])
        .with_timeout_ms(10_000);
    let error = connection.send(create).await.expect_err("refused");
    assert!(
        matches!(
            error,
            Error::ReadOnly {
                api: ApiKey::CreateTopics
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("CreateTopics"));
    // Reads still work on the same connection, and the topic never came to be.
    let response = connection
        .send(metadata_for(Some(&[name.as_str()])))
        .await
        .expect("metadata still allowed");
    assert_eq!(
        ErrorCode::from_code(response.topics[0].error_code),
        Some(ErrorCode::UnknownTopicOrPartition),
        "the refused topic must not exist"
    );
}
