//! Frames up to the frame cap that claim, or really hold, millions of minimal
//! elements, for every response kscope decodes: each is decoded within its
//! memory budget or refused with `Error::ResponseOverBudget`, never aborts
//! the process, and a refused response leaves the connection usable.
//!
//! Served by a test peer on loopback (`tests/hostile_peer`), not a Kafka
//! broker. The cap here is 8 MiB (a `ConnectionConfig` setting) so each case
//! stays quick; `hostile_budget_cli.rs` uses the default 100 MB cap with a
//! 96 MB frame through the real binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod hostile_peer;

use std::time::Duration;

use bytes::Bytes;
use hostile_peer::{Bodies, Claim, Filled, Peer, fill_array, fill_tagged};
use kscope::conn::budget::budget_for;
use kscope::conn::protocol::messages::{self as m, ApiKey};
use kscope::conn::protocol::{Decodable, Message, StrBytes};
use kscope::conn::{Connection, ConnectionConfig, Error, Rpc};

/// The frame cap of these tests.
const CAP: usize = 8 << 20;
/// The most body under the cap: a response header is at most 5 bytes.
const BODY: usize = CAP - 5;
/// Charges besides the filled array's slots (its enclosing one-element
/// arrays): far below this.
const SLACK: usize = 1 << 20;

fn config() -> ConnectionConfig {
    ConnectionConfig {
        max_frame_size: CAP,
        connect_timeout: Duration::from_secs(30),
        request_timeout: Duration::from_secs(30),
        ..ConnectionConfig::default()
    }
}

/// The newest version kscope speaks, which the peer advertises.
fn newest<R: Message>() -> i16 {
    R::VERSIONS.max
}

/// Serve `body` for `R` and send `R` once; the connection is returned to
/// prove it still works.
async fn exchange<R: Rpc + Default>(body: Bytes) -> (Result<R::Response, Error>, Connection) {
    let peer = Peer::start(Bodies::from([(R::API_KEY, body)]));
    let connection = Connection::connect(&peer.address, None, &config())
        .await
        .expect("handshake with the test peer");
    let result = connection.send(R::default()).await;
    (result, connection)
}

/// What a filled body must come to: refused when its elements' slots alone
/// exceed the budget; decoded (all of them) when everything fits with room
/// to spare; for a huge claim that fits, some error (the bytes run out).
fn check<T>(
    api: ApiKey,
    filled: &Filled,
    slot: usize,
    claim: Claim,
    result: &Result<T, Error>,
    count: impl Fn(&T) -> usize,
) -> bool {
    let frame = filled.body.len() + 5;
    let budget = budget_for(frame);
    let needed = filled.elements * slot;
    eprintln!(
        "{api}: {} elements of {} bytes on the wire, {slot} in memory, {claim:?} claim: \
         needs {needed} of a {budget} budget",
        filled.elements, filled.element_len
    );
    if needed > budget {
        match result {
            Err(error @ Error::ResponseOverBudget { api: refused, .. }) => {
                assert_eq!(*refused, api);
                let message = error.to_string();
                assert!(
                    message.contains(&api.to_string())
                        && message.contains("needs more than")
                        && message.contains("check that"),
                    "{message}"
                );
                true
            }
            Err(other) => panic!("{api}: expected over budget, got {other}"),
            Ok(_) => panic!("{api}: expected over budget, decoded"),
        }
    } else {
        assert!(
            needed + SLACK < budget,
            "{api}: borderline case, pick another size"
        );
        match (claim, result) {
            (Claim::Honest, Ok(response)) => {
                assert_eq!(count(response), filled.elements);
                false
            }
            (Claim::Huge, Err(Error::Codec { .. } | Error::ResponseOverBudget { .. })) => false,
            (_, Err(error)) => panic!("{api}: {claim:?} claim: unexpected {error}"),
            (Claim::Huge, Ok(_)) => panic!("{api}: a huge claim decoded"),
        }
    }
}

/// Fill the array `build` fills, honestly and then claiming 2^31 or 2^32
/// elements, and check both answers; a refused one leaves the connection
/// working.
async fn array_case<R, T>(
    build: impl Fn(usize) -> R::Response,
    count: impl Fn(&R::Response) -> usize,
) where
    R: Rpc + Default,
    R::Response: kscope::conn::protocol::Encodable,
{
    let version = newest::<R>();
    for claim in [Claim::Honest, Claim::Huge] {
        let filled = fill_array(&build, version, BODY, claim);
        let (result, connection) = exchange::<R>(filled.body.clone()).await;
        let refused = check(R::API_KEY, &filled, size_of::<T>(), claim, &result, &count);
        if refused {
            connection
                .send(m::ApiVersionsRequest::default())
                .await
                .expect("the connection survives a refused response");
        }
    }
}

/// Fill the response's top-level tagged fields with empty unknown ones
/// (3 bytes on the wire, charged 96), honestly and claiming 2^32 - 1.
async fn tagged_case<R>()
where
    R: Rpc + Default,
    R::Response: kscope::conn::protocol::Encodable + Default,
{
    let version = newest::<R>();
    for claim in [Claim::Honest, Claim::Huge] {
        let filled = fill_tagged(&R::Response::default(), version, BODY, claim);
        let (result, connection) = exchange::<R>(filled.body.clone()).await;
        assert!(
            matches!(&result, Err(Error::ResponseOverBudget { api, .. }) if *api == R::API_KEY),
            "{}: {claim:?} tagged fields: {:?}",
            R::API_KEY,
            result.err()
        );
        connection
            .send(m::ApiVersionsRequest::default())
            .await
            .expect("the connection survives a refused response");
    }
}

/// `k` default elements.
fn many<T: Default + Clone>(k: usize) -> Vec<T> {
    vec![T::default(); k]
}

macro_rules! array_cases {
    ($($name:ident: $request:ty, $element:ty, |$k:ident| $build:expr, |$r:ident| $count:expr;)*) => {
        $(
            #[tokio::test]
            async fn $name() {
                array_case::<$request, $element>(|$k| $build, |$r| $count).await;
            }
        )*
    };
}

macro_rules! tagged_cases {
    ($($name:ident: $request:ty;)*) => {
        $(
            #[tokio::test]
            async fn $name() {
                tagged_case::<$request>().await;
            }
        )*
    };
}

use m::consumer_group_describe_response as cgd;
use m::describe_acls_response as da;
use m::describe_client_quotas_response as dcq;
use m::describe_groups_response as dg;
use m::describe_log_dirs_response as dld;
use m::describe_producers_response as dp;
use m::describe_quorum_response as dq;
use m::describe_transactions_response as dt;
use m::describe_user_scram_credentials_response as dus;
use m::fetch_response as fr;
use m::list_partition_reassignments_response as lpr;
use m::list_transactions_response as lt;

array_cases! {
    sasl_handshake_mechanisms: m::SaslHandshakeRequest, StrBytes,
        |k| m::SaslHandshakeResponse::default().with_mechanisms(vec![StrBytes::default(); k]),
        |r| r.mechanisms.len();
    metadata_brokers: m::MetadataRequest, m::metadata_response::MetadataResponseBroker,
        |k| m::MetadataResponse::default().with_brokers(many(k)),
        |r| r.brokers.len();
    metadata_partitions: m::MetadataRequest, m::metadata_response::MetadataResponsePartition,
        |k| m::MetadataResponse::default().with_topics(vec![
            m::metadata_response::MetadataResponseTopic::default()
                .with_partitions(many(k))
        ]),
        |r| r.topics[0].partitions.len();
    describe_cluster_brokers: m::DescribeClusterRequest, m::describe_cluster_response::DescribeClusterBroker,
        |k| m::DescribeClusterResponse::default().with_brokers(many(k)),
        |r| r.brokers.len();
    find_coordinator_coordinators: m::FindCoordinatorRequest, m::find_coordinator_response::Coordinator,
        |k| m::FindCoordinatorResponse::default().with_coordinators(many(k)),
        |r| r.coordinators.len();
    list_offsets_topics: m::ListOffsetsRequest, m::list_offsets_response::ListOffsetsTopicResponse,
        |k| m::ListOffsetsResponse::default().with_topics(many(k)),
        |r| r.topics.len();
    fetch_partitions: m::FetchRequest, fr::PartitionData,
        |k| m::FetchResponse::default().with_responses(vec![
            fr::FetchableTopicResponse::default().with_partitions(many(k))
        ]),
        |r| r.responses[0].partitions.len();
    list_groups_groups: m::ListGroupsRequest, m::list_groups_response::ListedGroup,
        |k| m::ListGroupsResponse::default().with_groups(many(k)),
        |r| r.groups.len();
    describe_groups_members: m::DescribeGroupsRequest, dg::DescribedGroupMember,
        |k| m::DescribeGroupsResponse::default().with_groups(vec![
            dg::DescribedGroup::default().with_members(many(k))
        ]),
        |r| r.groups[0].members.len();
    consumer_group_describe_members: m::ConsumerGroupDescribeRequest, cgd::Member,
        |k| m::ConsumerGroupDescribeResponse::default().with_groups(vec![
            cgd::DescribedGroup::default().with_members(many(k))
        ]),
        |r| r.groups[0].members.len();
    offset_fetch_topics: m::OffsetFetchRequest, m::offset_fetch_response::OffsetFetchResponseTopics,
        |k| m::OffsetFetchResponse::default().with_groups(vec![
            m::offset_fetch_response::OffsetFetchResponseGroup::default()
                .with_topics(many(k))
        ]),
        |r| r.groups[0].topics.len();
    describe_quorum_topics: m::DescribeQuorumRequest, dq::TopicData,
        |k| m::DescribeQuorumResponse::default().with_topics(many(k)),
        |r| r.topics.len();
    describe_quorum_voters: m::DescribeQuorumRequest, dq::ReplicaState,
        |k| m::DescribeQuorumResponse::default().with_topics(vec![
            dq::TopicData::default().with_partitions(vec![
                dq::PartitionData::default().with_current_voters(many(k))
            ])
        ]),
        |r| r.topics[0].partitions[0].current_voters.len();
    describe_configs_results: m::DescribeConfigsRequest, m::describe_configs_response::DescribeConfigsResult,
        |k| m::DescribeConfigsResponse::default().with_results(many(k)),
        |r| r.results.len();
    describe_log_dirs_topics: m::DescribeLogDirsRequest, dld::DescribeLogDirsTopic,
        |k| m::DescribeLogDirsResponse::default().with_results(vec![
            dld::DescribeLogDirsResult::default().with_topics(many(k))
        ]),
        |r| r.results[0].topics.len();
    describe_acls_resources: m::DescribeAclsRequest, da::DescribeAclsResource,
        |k| m::DescribeAclsResponse::default().with_resources(many(k)),
        |r| r.resources.len();
    describe_acls_bindings: m::DescribeAclsRequest, da::AclDescription,
        |k| m::DescribeAclsResponse::default().with_resources(vec![
            da::DescribeAclsResource::default().with_acls(many(k))
        ]),
        |r| r.resources[0].acls.len();
    describe_client_quotas_entries: m::DescribeClientQuotasRequest, dcq::EntryData,
        |k| m::DescribeClientQuotasResponse::default().with_entries(Some(many(k))),
        |r| r.entries.as_ref().map_or(0, Vec::len);
    describe_client_quotas_values: m::DescribeClientQuotasRequest, dcq::ValueData,
        |k| m::DescribeClientQuotasResponse::default().with_entries(Some(vec![
            dcq::EntryData::default().with_values(many(k))
        ])),
        |r| r.entries.as_ref().map_or(0, |e| e[0].values.len());
    describe_user_scram_credentials_results: m::DescribeUserScramCredentialsRequest,
        dus::DescribeUserScramCredentialsResult,
        |k| m::DescribeUserScramCredentialsResponse::default().with_results(many(k)),
        |r| r.results.len();
    describe_user_scram_credentials_infos: m::DescribeUserScramCredentialsRequest,
        dus::CredentialInfo,
        |k| m::DescribeUserScramCredentialsResponse::default().with_results(vec![
            dus::DescribeUserScramCredentialsResult::default().with_credential_infos(many(k))
        ]),
        |r| r.results[0].credential_infos.len();
    list_partition_reassignments_topics: m::ListPartitionReassignmentsRequest,
        lpr::OngoingTopicReassignment,
        |k| m::ListPartitionReassignmentsResponse::default().with_topics(many(k)),
        |r| r.topics.len();
    list_partition_reassignments_partitions: m::ListPartitionReassignmentsRequest,
        lpr::OngoingPartitionReassignment,
        |k| m::ListPartitionReassignmentsResponse::default().with_topics(vec![
            lpr::OngoingTopicReassignment::default().with_partitions(many(k))
        ]),
        |r| r.topics[0].partitions.len();
    list_transactions_states: m::ListTransactionsRequest, lt::TransactionState,
        |k| m::ListTransactionsResponse::default().with_transaction_states(many(k)),
        |r| r.transaction_states.len();
    describe_transactions_states: m::DescribeTransactionsRequest, dt::TransactionState,
        |k| m::DescribeTransactionsResponse::default().with_transaction_states(many(k)),
        |r| r.transaction_states.len();
    describe_transactions_partitions: m::DescribeTransactionsRequest, i32,
        |k| m::DescribeTransactionsResponse::default().with_transaction_states(vec![
            dt::TransactionState::default().with_topics(vec![
                dt::TopicData::default().with_partitions(vec![0; k])
            ])
        ]),
        |r| r.transaction_states[0].topics[0].partitions.len();
    describe_producers_partitions: m::DescribeProducersRequest, dp::PartitionResponse,
        |k| m::DescribeProducersResponse::default().with_topics(vec![
            dp::TopicResponse::default().with_partitions(many(k))
        ]),
        |r| r.topics[0].partitions.len();
    describe_producers_active: m::DescribeProducersRequest, dp::ProducerState,
        |k| m::DescribeProducersResponse::default().with_topics(vec![
            dp::TopicResponse::default().with_partitions(vec![
                dp::PartitionResponse::default().with_active_producers(many(k))
            ])
        ]),
        |r| r.topics[0].partitions[0].active_producers.len();
}

tagged_cases! {
    sasl_authenticate_tagged_fields: m::SaslAuthenticateRequest;
    metadata_tagged_fields: m::MetadataRequest;
    describe_cluster_tagged_fields: m::DescribeClusterRequest;
    find_coordinator_tagged_fields: m::FindCoordinatorRequest;
    list_offsets_tagged_fields: m::ListOffsetsRequest;
    fetch_tagged_fields: m::FetchRequest;
    list_groups_tagged_fields: m::ListGroupsRequest;
    describe_groups_tagged_fields: m::DescribeGroupsRequest;
    consumer_group_describe_tagged_fields: m::ConsumerGroupDescribeRequest;
    offset_fetch_tagged_fields: m::OffsetFetchRequest;
    describe_quorum_tagged_fields: m::DescribeQuorumRequest;
    describe_configs_tagged_fields: m::DescribeConfigsRequest;
    describe_log_dirs_tagged_fields: m::DescribeLogDirsRequest;
    describe_acls_tagged_fields: m::DescribeAclsRequest;
    describe_client_quotas_tagged_fields: m::DescribeClientQuotasRequest;
    describe_user_scram_credentials_tagged_fields: m::DescribeUserScramCredentialsRequest;
    list_partition_reassignments_tagged_fields: m::ListPartitionReassignmentsRequest;
    list_transactions_tagged_fields: m::ListTransactionsRequest;
    describe_transactions_tagged_fields: m::DescribeTransactionsRequest;
    describe_producers_tagged_fields: m::DescribeProducersRequest;
}

/// The handshake itself: an `ApiVersions` answer filled with entries (7 bytes
/// on the wire, 32 in memory: within budget, so the handshake completes), or
/// with unknown tagged fields (refused: the connect fails with the error).
#[tokio::test]
async fn api_versions_handshake() {
    let version = newest::<m::ApiVersionsRequest>();
    for claim in [Claim::Honest, Claim::Huge] {
        let filled = fill_array(
            |k| m::ApiVersionsResponse::default().with_api_keys(many(k)),
            version,
            BODY,
            claim,
        );
        let peer = Peer::start(Bodies::from([(ApiKey::ApiVersions, filled.body.clone())]));
        let result = Connection::connect(&peer.address, None, &config()).await;
        let slot = size_of::<m::api_versions_response::ApiVersion>();
        check(ApiKey::ApiVersions, &filled, slot, claim, &result, |_| {
            filled.elements
        });
    }
    for claim in [Claim::Honest, Claim::Huge] {
        let filled = fill_tagged(&hostile_peer::api_versions(), version, BODY, claim);
        let peer = Peer::start(Bodies::from([(ApiKey::ApiVersions, filled.body.clone())]));
        let error = Connection::connect(&peer.address, None, &config())
            .await
            .expect_err("refused");
        assert!(
            matches!(
                error,
                Error::ResponseOverBudget {
                    api: ApiKey::ApiVersions,
                    ..
                }
            ),
            "{error}"
        );
    }
}

/// `SaslAuthenticate` has no array: its auth bytes fill the frame honestly
/// (decoded: bytes are charged once) or claim 2^32 - 2 bytes (an error).
#[tokio::test]
async fn sasl_authenticate_bytes() {
    let version = newest::<m::SaslAuthenticateRequest>();
    let honest = hostile_peer::encode(
        &m::SaslAuthenticateResponse::default().with_auth_bytes(Bytes::from(vec![7; BODY - 64])),
        version,
    );
    let (result, _) = exchange::<m::SaslAuthenticateRequest>(honest).await;
    assert_eq!(result.expect("within budget").auth_bytes.len(), BODY - 64);
    let mut claiming =
        hostile_peer::encode(&m::SaslAuthenticateResponse::default(), version).to_vec();
    // error code (2), error message (null: 1 byte), then the auth bytes' length.
    claiming.splice(3..4, [0xff, 0xff, 0xff, 0xff, 0x0f]);
    claiming.resize(BODY, 0);
    let (result, _) = exchange::<m::SaslAuthenticateRequest>(Bytes::from(claiming)).await;
    assert!(matches!(result, Err(Error::Codec { .. })), "{result:?}");
}

/// Every real response captured from the test cluster (`fuzz/corpus/*/real-*`)
/// needs less than the budget's 8× its size in memory: the budget refuses
/// minimal-element floods, not real answers.
#[test]
fn real_responses_need_less_than_eight_times_their_size() {
    use kscope::conn::protocol::HeaderVersion;
    use kscope::conn::protocol::messages::ResponseHeader;
    use kscope::conn::protocol::protocol::budget::with_budget;

    /// The largest memory-to-wire ratio among `dir`'s captured responses.
    fn worst<R: Rpc>(dir: &str) -> f64 {
        let path = format!("{}/fuzz/corpus/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut worst = 0f64;
        let mut captured = 0;
        for entry in std::fs::read_dir(&path).expect("corpus") {
            let entry = entry.expect("entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.starts_with("real-") {
                continue;
            }
            let data = std::fs::read(entry.path()).expect("read");
            let version = R::VERSIONS.min + i16::from(data[0]);
            let mut frame = Bytes::copy_from_slice(&data[1..]);
            let wire = frame.len();
            let (decoded, usage) = with_budget(usize::MAX, || {
                let header_version = <R::Response as HeaderVersion>::header_version(version);
                ResponseHeader::decode(&mut frame, header_version)?;
                R::Response::decode(&mut frame, version)
            });
            decoded.unwrap_or_else(|e| panic!("{dir}/{name}: {e}"));
            #[allow(clippy::cast_precision_loss)]
            let ratio = usage.charged as f64 / wire as f64;
            eprintln!(
                "{dir}/{name}: {wire} bytes, {} charged, {ratio:.2}x",
                usage.charged
            );
            worst = worst.max(ratio);
            captured += 1;
        }
        assert!(captured > 0, "no captured response in {dir}");
        worst
    }
    let worst = [
        worst::<m::ApiVersionsRequest>("api_versions"),
        worst::<kscope::meta::MetadataAsk>("metadata_answer"),
        worst::<m::DescribeClusterRequest>("describe_cluster"),
        worst::<m::FindCoordinatorRequest>("find_coordinator"),
        worst::<m::ListOffsetsRequest>("list_offsets"),
        worst::<m::FetchRequest>("fetch"),
        worst::<m::ListGroupsRequest>("list_groups"),
        worst::<m::DescribeGroupsRequest>("describe_groups"),
        worst::<m::ConsumerGroupDescribeRequest>("consumer_group_describe"),
        worst::<m::OffsetFetchRequest>("offset_fetch"),
        worst::<m::DescribeConfigsRequest>("describe_configs"),
        worst::<m::DescribeLogDirsRequest>("describe_log_dirs"),
        worst::<m::SaslHandshakeRequest>("sasl_handshake"),
        worst::<m::SaslAuthenticateRequest>("sasl_authenticate"),
    ]
    .into_iter()
    .fold(0f64, f64::max);
    assert!(worst < 8.0, "a real response needs {worst:.2}x its size");
}
