//! Contexts against the real cluster's auth listeners, through the binary
//! (`kscope config check`, which connects and reports the broker count) and
//! through the resolver plus `Connection` directly.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod browse_fixture;
mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Output};

use kscope::config::{Selection, check, load, resolve};
use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::create_topics_request::CreatableTopic;
use kscope::conn::protocol::messages::metadata_request::MetadataRequestTopic;
use kscope::conn::protocol::messages::{CreateTopicsRequest, MetadataRequest, TopicName};
use kscope::conn::{Connection, ConnectionConfig, Error};
use support::ClusterEnv;

const WRONG: &str = "not-alice-secret-but-close";

fn first(list: &str) -> &str {
    list.split(',').next().unwrap()
}

/// A home of its own: config file, password file, XDG dirs; never the real ~/.config.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new(env: &ClusterEnv) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("plain.pw"),
            format!("{}\n", env.get("KSCOPE_PLAIN_PASSWORD")),
        )
        .expect("write pw");
        let config = config_text(env);
        let path = dir.path().join("config.toml");
        std::fs::write(&path, config).expect("write config");
        // Private, as it holds a literal (wrong) password: no permission warning.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        Self { dir }
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    fn kscope(&self, env: &ClusterEnv, args: &[&str]) -> Output {
        let root = self.dir.path();
        Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(args)
            .env("HOME", root)
            .env("XDG_CONFIG_HOME", root.join("xdg-config"))
            .env("XDG_STATE_HOME", root.join("xdg-state"))
            .env("KSCOPE_SCRAM_PW", env.get("KSCOPE_SCRAM_PASSWORD"))
            .env_remove("KSCOPE_CONTEXT")
            .env_remove("KSCOPE_BOOTSTRAP")
            .env_remove("KSCOPE_CONFIG")
            .env_remove("KSCOPE_LOG")
            .output()
            .expect("run kscope")
    }

    fn log_text(&self) -> String {
        let dir = self.dir.path().join("xdg-state/kscope");
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        entries
            .map(|entry| std::fs::read_to_string(entry.expect("entry").path()).expect("read log"))
            .collect()
    }
}

fn config_text(env: &ClusterEnv) -> String {
    let user = env.get("KSCOPE_SCRAM_USER");
    format!(
        r#"
[contexts.plain]
bootstrap_servers = ["{plain}"]
[contexts.plain.sasl]
mechanism = "PLAIN"
username = "{user}"
password_command = "cat plain.pw"

[contexts.scram]
bootstrap_servers = ["{sasl_ssl}"]
[contexts.scram.tls]
ca_file = "{ca}"
[contexts.scram.sasl]
mechanism = "SCRAM-SHA-512"
username = "{user}"
password = "${{env:KSCOPE_SCRAM_PW}}"

[contexts.mtls]
bootstrap_servers = ["{mtls}"]
[contexts.mtls.tls]
ca_file = "{ca}"
client_cert_file = "{cert}"
client_key_file = "{key}"

[contexts.wrong]
bootstrap_servers = ["{sasl_ssl}"]
[contexts.wrong.tls]
ca_file = "{ca}"
[contexts.wrong.sasl]
mechanism = "SCRAM-SHA-512"
username = "{user}"
password = "{WRONG}"

[contexts.guarded]
bootstrap_servers = ["{plaintext}"]
read_only = true
"#,
        plain = first(env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT")),
        sasl_ssl = first(env.get("KSCOPE_BOOTSTRAP_SASL_SSL")),
        mtls = first(env.get("KSCOPE_BOOTSTRAP_MTLS")),
        plaintext = first(env.bootstrap()),
        ca = env.get("KSCOPE_CA"),
        cert = env.get("KSCOPE_CLIENT_CERT"),
        key = env.get("KSCOPE_CLIENT_KEY"),
    )
}

fn assert_checked(output: &Output, what: &str, security: &str) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what}: {}\nstdout: {stdout}\nstderr: {stderr}",
        output.status
    );
    assert!(
        stdout.contains("3 brokers") && stdout.contains(security),
        "{what}: {stdout}"
    );
}

#[test]
fn plain_scram_and_mtls_contexts_connect_when_picked_with_dash_dash_context() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = Home::new(&env);
    let config = home.config();
    let config = config.to_str().unwrap();
    for (context, security) in [
        ("plain", "SASL PLAIN without TLS"),
        ("scram", "SASL SCRAM-SHA-512 over TLS"),
        ("mtls", "(TLS,"),
    ] {
        let output = home.kscope(
            &env,
            &["--config", config, "--context", context, "config", "check"],
        );
        assert_checked(&output, context, security);
    }
}

#[test]
fn the_same_listeners_are_reachable_one_off_with_dash_b_and_dash_x() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = Home::new(&env);
    let user = format!("sasl.username={}", env.get("KSCOPE_SCRAM_USER"));
    let password = format!("sasl.password={}", env.get("KSCOPE_SCRAM_PASSWORD"));
    let ca = format!("ssl.ca.location={}", env.get("KSCOPE_CA"));
    let cert = format!("ssl.certificate.location={}", env.get("KSCOPE_CLIENT_CERT"));
    let key = format!("ssl.key.location={}", env.get("KSCOPE_CLIENT_KEY"));
    let plain = env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT");
    let sasl_ssl = env.get("KSCOPE_BOOTSTRAP_SASL_SSL");
    let mtls = env.get("KSCOPE_BOOTSTRAP_MTLS");
    let runs: [(&str, Vec<&str>, &str); 3] = [
        (
            "plain",
            vec![
                "-b",
                plain,
                "-X",
                "security.protocol=SASL_PLAINTEXT",
                "-X",
                "sasl.mechanism=PLAIN",
                "-X",
                &user,
                "-X",
                &password,
            ],
            "SASL PLAIN without TLS",
        ),
        (
            "scram",
            vec![
                "-b",
                sasl_ssl,
                "-X",
                "security.protocol=SASL_SSL",
                "-X",
                "sasl.mechanisms=SCRAM-SHA-512",
                "-X",
                &user,
                "-X",
                "sasl.password=${env:KSCOPE_SCRAM_PW}",
                "-X",
                &ca,
            ],
            "SASL SCRAM-SHA-512 over TLS",
        ),
        (
            "mtls",
            vec![
                "-b",
                mtls,
                "-X",
                "security.protocol=SSL",
                "-X",
                &ca,
                "-X",
                &cert,
                "-X",
                &key,
            ],
            "(TLS,",
        ),
    ];
    for (what, mut args, security) in runs {
        args.extend(["config", "check"]);
        let output = home.kscope(&env, &args);
        assert_checked(&output, what, security);
        assert!(String::from_utf8_lossy(&output.stdout).contains("context 'command-line'"));
    }
}

#[test]
fn a_wrong_password_is_one_clear_error_and_appears_nowhere() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = Home::new(&env);
    let config = home.config();
    let output = home.kscope(
        &env,
        &[
            "--config",
            config.to_str().unwrap(),
            "--context",
            "wrong",
            "--log-level",
            "trace",
            "config",
            "check",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    assert!(
        stderr.contains("context 'wrong'") && stderr.contains("SCRAM-SHA-512"),
        "{stderr}"
    );
    assert!(stderr.contains("authentication"), "{stderr}");
    assert!(
        !stderr.contains(WRONG),
        "the password is in stderr: {stderr}"
    );
    assert!(output.stdout.is_empty());
    let log = home.log_text();
    assert!(log.contains("wrong"), "the failure is logged: {log}");
    assert!(!log.contains(WRONG), "the password is in the log: {log}");
}

fn topic_metadata(name: &str) -> MetadataRequest {
    let topic = MetadataRequestTopic::default()
        .with_name(Some(TopicName(StrBytes::from_string(name.to_owned()))));
    MetadataRequest::default()
        .with_allow_auto_topic_creation(false)
        .with_topics(Some(vec![topic]))
}

#[tokio::test]
async fn a_read_only_context_refuses_create_topics_and_the_topic_never_appears() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = Home::new(&env);
    let loaded = load::load(Some(&home.config())).expect("loads");
    let selection = Selection {
        context: Some("guarded".into()),
        ..Selection::default()
    };
    let context = resolve::resolve(&loaded, &selection).expect("resolves");
    assert!(context.connection.read_only);
    let (connection, _) = check::connect(&context)
        .await
        .expect("read-only contexts still connect");

    let name = format!("kscope-config-read-only-{}", std::process::id());
    let topic = CreatableTopic::default()
        .with_name(TopicName(StrBytes::from_string(name.clone())))
        .with_num_partitions(1)
        .with_replication_factor(1);
    let create = CreateTopicsRequest::default()
        .with_topics(vec![topic])
        .with_timeout_ms(5_000);
    let refused = connection
        .send(create)
        .await
        .expect_err("a read-only context must refuse");
    assert!(matches!(refused, Error::ReadOnly { .. }), "{refused}");
    assert!(
        !connection.is_broken(),
        "a refusal does not break the connection"
    );

    // Reading is allowed, and a writable connection agrees: the topic does not exist.
    let writable = Connection::connect(first(env.bootstrap()), None, &ConnectionConfig::default())
        .await
        .expect("connect");
    for connection in [&connection, &writable] {
        let response = connection
            .send(topic_metadata(&name))
            .await
            .expect("metadata");
        let found = &response.topics[0];
        assert_eq!(
            found.error_code, 3,
            "UNKNOWN_TOPIC_OR_PARTITION: the request never reached the broker"
        );
    }
}

#[tokio::test]
async fn scram_sha_256_with_a_file_password_connects_through_the_resolver_and_library() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = Home::new(&env);
    let loaded = load::load(Some(&home.config())).expect("loads");
    let password_file = home.dir.path().join("plain.pw");
    let selection = Selection {
        context: Some("scram".into()),
        overrides: vec![
            "sasl.mechanism=SCRAM-SHA-256".into(),
            format!("sasl.password=${{file:{}}}", password_file.display()),
        ],
        ..Selection::default()
    };
    let context = resolve::resolve(&loaded, &selection).expect("resolves");
    let summary = check::check(&context)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary.brokers, 3);
}

#[test]
fn a_read_only_context_can_browse_a_topic() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = Home::new(&env);
    let topic = support::unique("config-read-only-browse");
    support::create_topic(&env, &topic, "1", &[]);
    browse_fixture::produce(&env, &topic, &["plain", "3"]);
    let config = home.config();
    let args = [
        "--config",
        config.to_str().unwrap(),
        "--context",
        "guarded",
        "consume",
        &topic,
        "-o",
        "json",
    ];
    let output = home.kscope(&env, &args);
    support::assert_success(&output, "consume in the read-only context");
    let values: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).expect("json");
            record["value"].as_str().unwrap_or("null").to_owned()
        })
        .collect();
    assert_eq!(values, ["v-0", "v-1", "v-2"]);
}
