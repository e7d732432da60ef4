//! Masking (issue 29) against the real cluster: records with card numbers,
//! e-mail addresses and tokens written by Kafka's console producer are read
//! by `kscope consume` in every output format and by the TUI's Messages
//! screen (in tmux) under `[[contexts.NAME.mask]]` rules and `--mask`. The
//! secrets never appear in what kscope prints or draws, the marker does, the
//! rest of each record is kept, and `--grep` / `--filter` cannot find what
//! is masked.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::Path;

use support::tmux::{self, Tmux, kscope_command};
use support::{ClusterEnv, unique};

const MARKER: &str = "********";

/// Card numbers and addresses that must never be printed.
fn secrets() -> Vec<String> {
    (0..20)
        .flat_map(|i| [format!("41110000{i:08}"), format!("person{i}@example.com")])
        .collect()
}

/// `key<TAB>value` lines: JSON values with a card and an e-mail, keys that
/// are e-mail addresses, and one plain-text value with a card number in it.
fn lines() -> Vec<String> {
    let mut lines: Vec<String> = (0..20)
        .map(|i| {
            format!(
                "person{i}@example.com\t{{\"id\":{i},\"card\":{{\"number\":\"41110000{i:08}\",\"exp\":\"12/29\"}},\"email\":\"person{i}@example.com\",\"region\":\"eu\"}}"
            )
        })
        .collect();
    lines.push("plain\tpaid with 4111000000000019 today".to_owned());
    lines
}

fn topic_with_secrets(env: &ClusterEnv) -> String {
    let topic = unique("payments-mask");
    env.create_topic_with_kafka(&topic, &["--partitions", "3", "--replication-factor", "1"]);
    env.console_produce(&topic, &lines(), &support::KEYED);
    topic
}

/// A config whose context `masked` masks the card number, the e-mail and
/// the key of `payments-mask*` topics.
fn config(dir: &Path, env: &ClusterEnv) -> std::path::PathBuf {
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "[contexts.masked]\nbootstrap_servers = {:?}\n\n\
             [[contexts.masked.mask]]\ntopic = \"^payments-mask\"\n\
             paths = [\".value.card.number\", \".value.email\", \".key\"]\n",
            env.bootstrap_list()
        ),
    )
    .unwrap();
    path
}

fn consume(config: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("--config")
        .arg(config)
        .args(["--context", "masked"])
        .args(args)
        .output()
        .expect("run kscope")
}

fn assert_nothing_leaks(what: &str, output: &std::process::Output) {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    for secret in secrets() {
        assert!(!text.contains(&secret), "{what} shows {secret}:\n{text}");
    }
}

#[test]
fn consume_masks_in_every_format_and_grep_and_filter_cannot_find_the_secret() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = topic_with_secrets(&env);
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &env);
    // The text rule (from the command line) masks the card in plain text.
    let base = ["--mask", r"/\b4111\d{12}\b/", "consume", &topic, "-n", "21"];

    for format in ["json", "table", "csv", "raw"] {
        let mut args = base.to_vec();
        args.extend(["-o", format]);
        let output = consume(&config, &args);
        support::assert_success(&output, &format!("consume -o {format}"));
        assert_nothing_leaks(&format!("-o {format}"), &output);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains(MARKER), "-o {format}:\n{stdout}");
        if format == "json" {
            let records: Vec<serde_json::Value> = stdout
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(records.len(), 21);
            let mut objects = 0;
            for record in &records {
                assert_eq!(record["key"], MARKER, "every key: {record}");
                let text = record["value"].as_str().unwrap();
                let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
                    // The rule's paths point into a value that is not JSON.
                    assert_eq!(text, MARKER, "masked whole");
                    continue;
                };
                objects += 1;
                assert_eq!(value["card"]["number"], MARKER);
                assert_eq!(value["email"], MARKER);
                assert_eq!(value["card"]["exp"], "12/29", "the rest is kept");
                assert_eq!(value["region"], "eu");
            }
            assert_eq!(objects, 20);
        }
    }

    let grep = consume(
        &config,
        &[
            "consume", &topic, "-n", "21", "-o", "json", "--grep", "41110000",
        ],
    );
    support::assert_success(&grep, "consume --grep");
    assert!(grep.stdout.is_empty(), "--grep found a masked value");

    let filter = consume(
        &config,
        &[
            "consume",
            &topic,
            "-n",
            "21",
            "-o",
            "json",
            "--filter",
            r#".value | objects | .card.number | startswith("4111")"#,
        ],
    );
    support::assert_success(&filter, "consume --filter");
    assert!(filter.stdout.is_empty(), "--filter matched a masked value");

    // Another topic: the topic's rule does not apply, --mask's text rule does.
    let other = unique("orders-unmasked");
    env.create_topic_with_kafka(&other, &["--partitions", "1", "--replication-factor", "1"]);
    let values = [
        "{\"email\":\"kept@example.com\",\"note\":\"card 4111000000000019\"}".to_owned(),
        "paid with 4111000000000027 today".to_owned(),
    ];
    env.console_produce(&other, &values, &[]);
    let mut args = base.to_vec();
    args[3] = &other;
    args[5] = "2";
    for format in ["json", "table", "csv"] {
        let mut args = args.clone();
        args.extend(["-o", format]);
        let output = consume(&config, &args);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("kept@example.com"),
            "-o {format}: the topic's rules apply to their topics only:\n{stdout}"
        );
        assert!(
            stdout.contains("paid with ******** today") && stdout.contains("card ********"),
            "-o {format}: the text rule in text and in JSON strings:\n{stdout}"
        );
        assert!(!stdout.contains("41110000000000"), "-o {format}:\n{stdout}");
    }
}

#[test]
fn a_bad_mask_rule_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(
        &path,
        "[contexts.masked]\nbootstrap_servers = [\"127.0.0.1:1\"]\n\n\
         [[contexts.masked.mask]]\npaths = [\"card.number\"]\n",
    )
    .unwrap();
    let output = consume(&path, &["get", "topics"]);
    assert_eq!(output.status.code(), Some(2), "a config error");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("mask") && stderr.contains("starts with '.'"),
        "{stderr}"
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", "127.0.0.1:1", "--mask", ".body.x", "get", "topics"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--mask '.body.x'") && stderr.contains(".value, .key or .headers"),
        "{stderr}"
    );
}

#[test]
fn the_messages_screen_shows_the_marker_never_the_secret() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = topic_with_secrets(&env);
    let home = tempfile::tempdir().unwrap();
    let config = config(home.path(), &env);
    let command = kscope_command(
        home.path(),
        "",
        &format!("--config {} --context masked", config.display()),
    );
    let tmux = Tmux::start(&tmux::unique_name("kscope-mask"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", &format!("messages {topic}")]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the 21 records", |s| {
        s.contains(&format!("messages of '{topic}'")) && s.contains("[21/21]")
    });
    assert!(screen.contains(MARKER), "{screen}");
    for secret in secrets() {
        assert!(
            !screen.contains(&secret),
            "the screen shows {secret}:\n{screen}"
        );
    }
    // `/` searches the masked records: the card's digits are not there.
    tmux.keys(&["/"]);
    tmux.keys(&["-l", "41110000"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("nothing through the filter", |s| {
        s.contains("filter: 41110000") && !s.contains(MARKER)
    });
    tmux.keys(&["Escape"]);
    tmux.keys(&["q"]);
    tmux.wait_for_exit(std::time::Duration::from_secs(10));
}
