//! Resolving contexts from a file plus the command line (no cluster needed).
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use kscope::config::{ResolvedContext, Selection, load, resolve};
use kscope::conn::SaslMechanism;

const FILE: &str = r#"
default_context = "dev"

[ui]
theme = "calm"

[refresh]
metadata_secs = 20

[keys]
quit = "Ctrl+Q"

[contexts.dev]
bootstrap_servers = ["127.0.0.1:9092"]

[contexts.prod]
bootstrap_servers = ["b1:9093", "b2:9093"]
read_only = true
theme = "red"
request_timeout_secs = 7

[contexts.prod.refresh]
lag_secs = 3

[contexts.prod.tls]
ca_file = "certs/ca.pem"

[contexts.prod.sasl]
mechanism = "SCRAM-SHA-512"
username = "alice"
password = "${file:pw.txt}"

[contexts.cmd]
bootstrap_servers = ["h:1"]
[contexts.cmd.sasl]
mechanism = "PLAIN"
username = "bob"
password_command = "printf 'from-command\n'"

[contexts.broken_cmd]
bootstrap_servers = ["h:1"]
[contexts.broken_cmd.sasl]
mechanism = "PLAIN"
username = "bob"
password_command = "exit 7"

[contexts.unset_env]
bootstrap_servers = ["h:1"]
[contexts.unset_env.sasl]
mechanism = "PLAIN"
username = "bob"
password = "${env:KSCOPE_TEST_SURELY_UNSET}"
"#;

struct Fixture {
    dir: tempfile::TempDir,
    path: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, FILE).expect("write config");
    std::fs::write(dir.path().join("pw.txt"), "file-secret\n").expect("write pw");
    Fixture { dir, path }
}

fn resolve_with(fixture: &Fixture, selection: &Selection) -> Result<ResolvedContext, String> {
    let loaded = load::load(Some(&fixture.path)).map_err(|e| e.to_string())?;
    resolve::resolve(&loaded, selection).map_err(|e| e.to_string())
}

fn context(name: &str) -> Selection {
    Selection {
        context: Some(name.to_owned()),
        ..Selection::default()
    }
}

fn x(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

#[test]
fn the_default_context_is_used_with_top_level_settings() {
    let f = fixture();
    let dev = resolve_with(&f, &Selection::default()).expect("dev");
    assert_eq!(dev.name, "dev");
    assert_eq!(dev.config_path.as_deref(), Some(f.path.as_path()));
    assert_eq!(dev.theme, "calm");
    assert_eq!(dev.refresh.metadata, Duration::from_secs(20));
    assert_eq!(dev.refresh.lag, resolve::DEFAULT_LAG_REFRESH);
    assert_eq!(dev.keys.get("quit").map(String::as_str), Some("ctrl+Q"));
    assert!(!dev.read_only && !dev.connection.read_only);
    assert_eq!(dev.security(), "PLAINTEXT");
}

#[test]
fn a_named_context_brings_tls_sasl_read_only_and_its_own_settings() {
    let f = fixture();
    let prod = resolve_with(&f, &context("prod")).expect("prod");
    assert_eq!(prod.bootstrap_servers, ["b1:9093", "b2:9093"]);
    assert!(prod.read_only && prod.connection.read_only);
    assert_eq!(prod.theme, "red");
    assert_eq!(prod.refresh.lag, Duration::from_secs(3));
    assert_eq!(prod.refresh.metadata, Duration::from_secs(20));
    assert_eq!(prod.connection.request_timeout, Duration::from_secs(7));
    let tls = prod.connection.tls.as_ref().expect("tls");
    assert_eq!(
        tls.ca_file.as_deref(),
        Some(f.dir.path().join("certs/ca.pem").as_path())
    );
    let sasl = prod.connection.sasl.as_ref().expect("sasl");
    assert_eq!(sasl.mechanism, SaslMechanism::ScramSha512);
    assert_eq!(sasl.username, "alice");
    assert_eq!(sasl.password.expose(), "file-secret");
    assert_eq!(prod.security(), "SASL SCRAM-SHA-512 over TLS");
    assert!(
        !format!("{prod:?}").contains("file-secret"),
        "Debug shows the password"
    );
}

#[test]
fn an_unknown_context_lists_the_known_ones() {
    let message = resolve_with(&fixture(), &context("staging")).expect_err("unknown");
    assert!(
        message.contains("'staging'") && message.contains("dev, prod"),
        "{message}"
    );
}

#[test]
fn dash_b_alone_is_a_one_off_and_with_a_context_replaces_its_servers() {
    let f = fixture();
    let one_off = Selection {
        bootstrap: Some("k1:9092, k2:9092".into()),
        ..Selection::default()
    };
    let resolved = resolve_with(&f, &one_off).expect("one-off");
    assert_eq!(resolved.name, resolve::ONE_OFF);
    assert_eq!(resolved.bootstrap_servers, ["k1:9092", "k2:9092"]);
    assert!(resolved.connection.sasl.is_none());

    let replaced = Selection {
        bootstrap: Some("other:9093".into()),
        ..context("prod")
    };
    let resolved = resolve_with(&f, &replaced).expect("replaced");
    assert_eq!(resolved.bootstrap_servers, ["other:9093"]);
    assert!(resolved.connection.sasl.is_some() && resolved.read_only);

    let bad = Selection {
        bootstrap: Some("nohost".into()),
        ..Selection::default()
    };
    assert!(
        resolve_with(&f, &bad)
            .expect_err("bad -b")
            .contains("not HOST:PORT")
    );
}

#[test]
fn dash_x_builds_tls_and_sasl_for_a_one_off() {
    let one_off = Selection {
        bootstrap: Some("k:9093".into()),
        overrides: x(&[
            "security.protocol=SASL_SSL",
            "sasl.mechanism=SCRAM-SHA-256",
            "sasl.username=carol",
            "sasl.password=cli-secret",
            "ssl.ca.location=/ca.pem",
        ]),
        ..Selection::default()
    };
    let resolved = resolve_with(&fixture(), &one_off).expect("one-off");
    let tls = resolved.connection.tls.as_ref().expect("tls");
    assert_eq!(tls.ca_file.as_deref(), Some(Path::new("/ca.pem")));
    let sasl = resolved.connection.sasl.as_ref().expect("sasl");
    assert_eq!(
        (sasl.mechanism, sasl.username.as_str()),
        (SaslMechanism::ScramSha256, "carol")
    );
    assert_eq!(sasl.password.expose(), "cli-secret");
}

#[test]
fn dash_x_overrides_a_context_and_security_protocol_decides_tls_and_sasl() {
    let f = fixture();
    let plain = Selection {
        overrides: x(&["security.protocol=PLAINTEXT"]),
        ..context("prod")
    };
    let resolved = resolve_with(&f, &plain).expect("plaintext");
    assert!(resolved.connection.tls.is_none() && resolved.connection.sasl.is_none());

    let swapped = Selection {
        overrides: x(&["sasl.username=dave"]),
        ..context("prod")
    };
    let resolved = resolve_with(&f, &swapped).expect("username");
    assert_eq!(
        resolved
            .connection
            .sasl
            .as_ref()
            .map(|s| s.username.as_str()),
        Some("dave")
    );

    let cert_only = Selection {
        overrides: x(&["ssl.certificate.location=/c.pem"]),
        ..context("dev")
    };
    let resolved = resolve_with(&f, &cert_only).expect("ssl implied");
    assert!(
        resolved
            .connection
            .tls
            .is_some_and(|t| t.client_cert_file.is_some())
    );

    let one_off = Selection {
        bootstrap: Some("k:1".into()),
        overrides: x(&["sasl.mechanism=PLAIN"]),
        ..Selection::default()
    };
    let message = resolve_with(&f, &one_off).expect_err("no username");
    assert!(
        message.ends_with("needs a username: -X sasl.username"),
        "{message}"
    );

    let no_user = Selection {
        overrides: x(&["security.protocol=SASL_PLAINTEXT"]),
        ..context("dev")
    };
    let message = resolve_with(&f, &no_user).expect_err("no mechanism");
    assert!(
        message.contains("context 'dev'") && message.contains("sasl.mechanism"),
        "{message}"
    );
}

#[test]
fn read_only_comes_from_the_context_or_the_flag() {
    let forced = Selection {
        read_only: true,
        ..Selection::default()
    };
    let resolved = resolve_with(&fixture(), &forced).expect("dev");
    assert!(resolved.read_only && resolved.connection.read_only);
}

#[test]
fn password_command_resolves() {
    let resolved = resolve_with(&fixture(), &context("cmd")).expect("cmd");
    let sasl = resolved.connection.sasl.expect("sasl");
    assert_eq!(sasl.password.expose(), "from-command");
}

#[test]
fn a_failing_command_or_missing_variable_names_the_key() {
    let f = fixture();
    let message = resolve_with(&f, &context("broken_cmd")).expect_err("fails");
    assert!(
        message.contains("contexts.broken_cmd.sasl.password_command"),
        "{message}"
    );
    assert!(message.contains("exit status: 7"), "{message}");
    assert!(
        !message.contains("exit 7"),
        "the command's text stays out of the message: {message}"
    );
    let message = resolve_with(&f, &context("unset_env")).expect_err("unset");
    assert!(
        message.contains("contexts.unset_env.sasl.password"),
        "{message}"
    );
    assert!(message.contains("KSCOPE_TEST_SURELY_UNSET"), "{message}");
}

#[test]
fn with_one_context_and_no_default_that_context_is_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("c.toml");
    std::fs::write(&path, "[contexts.only]\nbootstrap_servers = [\"h:1\"]\n").expect("write");
    let loaded = load::load(Some(&path)).expect("loads");
    let resolved = resolve::resolve(&loaded, &Selection::default()).expect("only");
    assert_eq!(resolved.name, "only");
    std::fs::write(&path, "").expect("write");
    let loaded = load::load(Some(&path)).expect("loads");
    let message = resolve::resolve(&loaded, &Selection::default())
        .expect_err("none")
        .to_string();
    assert!(
        message.contains("no cluster selected") && message.contains("c.toml"),
        "{message}"
    );
}

#[test]
fn dash_x_gives_the_registry_its_url_credentials_and_ca_and_never_shows_the_password() {
    let f = fixture();
    let selection = Selection {
        overrides: x(&[
            "schema.registry.url=https://sr.example:8081",
            "schema.registry.basic.auth.user.info=carol:sr-secret:with-colon",
            "schema.registry.ssl.ca.location=/etc/sr-ca.pem",
        ]),
        ..Selection::default()
    };
    let resolved = resolve_with(&f, &selection).expect("resolves");
    let registry = resolved.schema_registry.as_ref().expect("a registry");
    assert_eq!(registry.url, "https://sr.example:8081");
    assert_eq!(registry.username.as_deref(), Some("carol"));
    assert_eq!(registry.password.expose(), "sr-secret:with-colon");
    assert_eq!(
        registry.ca_file.as_deref(),
        Some(Path::new("/etc/sr-ca.pem"))
    );
    assert!(!format!("{resolved:?}").contains("sr-secret"));

    let no_colon = Selection {
        overrides: x(&[
            "schema.registry.url=http://sr:8081",
            "schema.registry.basic.auth.user.info=justapassword",
        ]),
        ..Selection::default()
    };
    let message = resolve_with(&f, &no_colon).expect_err("no colon");
    assert!(message.contains("USER:PASSWORD"), "{message}");
    assert!(!message.contains("justapassword"), "{message}");
}
