//! The connection layer against the real cluster's TLS and SASL listeners.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kscope::conn::protocol::messages::MetadataRequest;
use kscope::conn::{
    Connection, ConnectionConfig, Error, SaslConfig, SaslMechanism, Secret, TlsConfig,
};
use support::ClusterEnv;

fn first(list: &str) -> String {
    list.split(',').next().unwrap().to_owned()
}

fn tls(env: &ClusterEnv) -> TlsConfig {
    TlsConfig {
        ca_file: Some(PathBuf::from(env.get("KSCOPE_CA"))),
        ..TlsConfig::default()
    }
}

fn sasl(env: &ClusterEnv, mechanism: SaslMechanism, password: &str) -> SaslConfig {
    SaslConfig {
        mechanism,
        username: env.get("KSCOPE_SCRAM_USER").to_owned(),
        password: Secret::new(password),
        token_command: None,
    }
}

/// Slack on top of a connect timeout when asserting that a failed attempt
/// ended by it. The connect timeout bounds the whole attempt (TCP, TLS,
/// `ApiVersions`, SASL), so an attempt that runs into it ends just after it;
/// the slack is for a loaded machine (two cores shared with three brokers and
/// other tests), where a second past a timer is not guaranteed.
const SLACK: Duration = Duration::from_secs(5);

/// Assert that the failed attempt begun at `started` ended within `timeout`
/// (the connect timeout it ran under) and the slack: not a hang, and no
/// timer but the connect timeout (the tests that use this set their request
/// timeout far past it).
fn assert_ended_within(started: Instant, timeout: Duration, error: &Error) {
    let elapsed = started.elapsed();
    assert!(
        elapsed < timeout + SLACK,
        "{elapsed:?} is past the {timeout:?} connect timeout and {SLACK:?} of slack: {error}"
    );
}

fn quick() -> ConnectionConfig {
    ConnectionConfig {
        connect_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(10),
        ..ConnectionConfig::default()
    }
}

async fn metadata_works(connection: &Connection) {
    let response = connection
        .send(
            MetadataRequest::default()
                .with_allow_auto_topic_creation(false)
                .with_topics(None),
        )
        .await
        .expect("metadata after authentication");
    assert_eq!(response.brokers.len(), 3);
}

const MECHANISMS: [SaslMechanism; 3] = [
    SaslMechanism::Plain,
    SaslMechanism::ScramSha256,
    SaslMechanism::ScramSha512,
];

#[tokio::test]
async fn sasl_plaintext_with_every_password_mechanism() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let address = first(env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT"));
    let password = env.get("KSCOPE_SCRAM_PASSWORD").to_owned();
    for mechanism in MECHANISMS {
        let config = ConnectionConfig {
            sasl: Some(sasl(&env, mechanism, &password)),
            ..quick()
        };
        let connection = Connection::connect(&address, None, &config)
            .await
            .unwrap_or_else(|e| panic!("{mechanism}: {e}"));
        metadata_works(&connection).await;
    }
}

#[tokio::test]
async fn sasl_ssl_with_every_password_mechanism() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let address = first(env.get("KSCOPE_BOOTSTRAP_SASL_SSL"));
    let password = env.get("KSCOPE_SCRAM_PASSWORD").to_owned();
    for mechanism in MECHANISMS {
        let config = ConnectionConfig {
            tls: Some(tls(&env)),
            sasl: Some(sasl(&env, mechanism, &password)),
            ..quick()
        };
        let connection = Connection::connect(&address, None, &config)
            .await
            .unwrap_or_else(|e| panic!("{mechanism}: {e}"));
        metadata_works(&connection).await;
    }
}

#[tokio::test]
async fn a_wrong_password_is_one_clear_non_retriable_error() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let address = first(env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT"));
    // Timeouts far past the bound asserted below: the refusal must come from
    // the broker's answer, not from waiting a timer out.
    let timeout = Duration::from_secs(30);
    for mechanism in MECHANISMS {
        let config = ConnectionConfig {
            sasl: Some(sasl(&env, mechanism, "not-the-password")),
            connect_timeout: timeout,
            request_timeout: timeout,
            ..quick()
        };
        let started = Instant::now();
        let error = Connection::connect(&address, None, &config)
            .await
            .expect_err("wrong password");
        assert!(
            matches!(error, Error::Sasl { .. }),
            "{mechanism}: {error:?}"
        );
        assert!(error.is_authentication());
        assert!(
            !error.retriable(),
            "{mechanism}: an auth failure must not be retried"
        );
        let text = error.to_string();
        eprintln!("{mechanism}: {text}");
        assert!(text.contains(mechanism.name()), "{text}");
        assert!(text.contains("authentication"), "{text}");
        assert!(!text.contains("not-the-password"), "{text}");
        // Promptly (a SASL exchange takes well under a second; the bound
        // leaves room for a loaded machine), and long before the timeout.
        let elapsed = started.elapsed();
        assert!(
            elapsed < timeout / 2,
            "{mechanism}: the refusal took {elapsed:?}"
        );
    }
}

#[tokio::test]
async fn tls_verifies_the_broker_against_the_ca() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let address = first(env.get("KSCOPE_BOOTSTRAP_SSL"));
    let config = ConnectionConfig {
        tls: Some(tls(&env)),
        ..quick()
    };
    let connection = Connection::connect(&address, Some(1), &config)
        .await
        .expect("tls");
    metadata_works(&connection).await;

    // The same broker, checked against a CA that did not sign it.
    let rogue = ConnectionConfig {
        tls: Some(TlsConfig {
            ca_file: Some(PathBuf::from(env.get("KSCOPE_ROGUE_CA"))),
            ..TlsConfig::default()
        }),
        ..quick()
    };
    let error = Connection::connect(&address, Some(1), &rogue)
        .await
        .expect_err("rogue ca");
    assert!(matches!(error, Error::Tls { .. }), "{error:?}");
    eprintln!("rogue ca: {error}");
    assert!(error.to_string().contains("certificate"), "{error}");

    // Loudly named, and it works: skip verification accepts the same broker.
    let skip = ConnectionConfig {
        tls: Some(TlsConfig {
            danger_skip_verification: true,
            ..TlsConfig::default()
        }),
        ..quick()
    };
    let connection = Connection::connect(&address, Some(1), &skip)
        .await
        .expect("unverified");
    metadata_works(&connection).await;
}

#[tokio::test]
async fn mutual_tls_presents_the_client_certificate() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let address = first(env.get("KSCOPE_BOOTSTRAP_MTLS"));
    let config = ConnectionConfig {
        tls: Some(TlsConfig {
            client_cert_file: Some(PathBuf::from(env.get("KSCOPE_CLIENT_CERT"))),
            client_key_file: Some(PathBuf::from(env.get("KSCOPE_CLIENT_KEY"))),
            ..tls(&env)
        }),
        ..quick()
    };
    let connection = Connection::connect(&address, None, &config)
        .await
        .expect("mtls");
    metadata_works(&connection).await;

    // Without the certificate the broker refuses us: an error, not a hang.
    let without = ConnectionConfig {
        tls: Some(tls(&env)),
        request_timeout: Duration::from_mins(1),
        ..quick()
    };
    let started = Instant::now();
    let error = Connection::connect(&address, None, &without)
        .await
        .expect_err("no client cert");
    eprintln!("mtls without a certificate: {error}");
    assert_ended_within(started, without.connect_timeout, &error);
}

#[tokio::test]
async fn tls_and_plaintext_mixed_up_fail_clearly_within_the_timeout() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let config = ConnectionConfig {
        connect_timeout: Duration::from_secs(5),
        request_timeout: Duration::from_mins(1),
        ..quick()
    };
    // Plaintext Kafka spoken to a TLS listener.
    let started = Instant::now();
    let error = Connection::connect(&first(env.get("KSCOPE_BOOTSTRAP_SSL")), None, &config)
        .await
        .expect_err("plaintext to tls");
    eprintln!("mixed up: {error}");
    assert_ended_within(started, config.connect_timeout, &error);
    assert!(error.to_string().contains("127.0.0.1"), "{error}");
    assert!(matches!(error, Error::Tls { .. }), "{error:?}");
    assert!(error.to_string().contains("expects tls"), "{error}");
    assert!(!error.retriable());

    // TLS spoken to a plaintext listener.
    let tls_config = ConnectionConfig {
        tls: Some(tls(&env)),
        ..config
    };
    let started = Instant::now();
    let error = Connection::connect(&first(env.bootstrap()), None, &tls_config)
        .await
        .expect_err("tls to plaintext");
    eprintln!("mixed up: {error}");
    assert_ended_within(started, tls_config.connect_timeout, &error);
    assert!(error.to_string().contains("127.0.0.1"), "{error}");
}
