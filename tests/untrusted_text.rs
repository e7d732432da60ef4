//! Text from the cluster is shown, never obeyed: consumer groups with an
//! escape sequence, a newline, a bidi override and double-width characters
//! in their ids (committed by the test with a plain `OffsetCommit`), listed
//! by the real binary, headless and in the TUI (tmux), against the shared
//! cluster. The table shows visible escapes with its columns aligned; JSON
//! keeps the ids exact.

mod groups_fixture;
mod support;

use serde_json::Value;
use support::kscope;
use support::tmux::{self, Tmux, kscope_command};
use unicode_width::UnicodeWidthStr;

/// The hostile group ids (raw) and how a table shows them, made unique by `suffix`.
fn hostile(suffix: &str) -> Vec<(String, String)> {
    [
        ("clear\x1b[2J\x1b[Hgrp", "clear\\x1b[2J\\x1b[Hgrp"),
        ("nl\nline2-grp", "nl\\nline2-grp"),
        ("rtl\u{202e}grp", "rtl\\u{202e}grp"),
        ("注文グループ", "注文グループ"),
    ]
    .into_iter()
    .map(|(raw, shown)| (format!("{raw}-{suffix}"), format!("{shown}-{suffix}")))
    .collect()
}

/// Commit an offset for each hostile group on a new topic; returns the suffix.
fn seed(env: &support::ClusterEnv) -> String {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let suffix = format!("{:08x}", rand::random::<u32>());
    let topic = format!("untrusted-{suffix}");
    let cluster = runtime.block_on(groups_fixture::cluster(env));
    runtime.block_on(groups_fixture::create_topic(&cluster, &topic, 1));
    for (raw, _) in hostile(&suffix) {
        runtime.block_on(groups_fixture::commit(&cluster, &raw, &topic, &[(0, 0)]));
    }
    suffix
}

/// The display column where `needle` starts in `line`.
fn column_of(line: &str, needle: &str) -> Option<usize> {
    line.find(needle).map(|at| line[..at].width())
}

#[test]
fn get_groups_escapes_hostile_ids_keeps_columns_and_json_exact() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let suffix = seed(&env);

    let table = kscope(&env, &["get", "groups"]);
    support::assert_success(&table, "kscope get groups");
    let text = String::from_utf8(table.stdout).expect("utf-8 table");
    assert!(
        !text.contains('\x1b'),
        "a raw ESC reached the output: {text:?}"
    );
    assert!(!text.contains('\u{202e}'), "a raw bidi override: {text:?}");
    let header = text.lines().next().expect("a header line");
    let type_column = column_of(header, "TYPE").expect("a TYPE header");
    let ours: Vec<&str> = text.lines().filter(|l| l.contains(&suffix)).collect();
    assert_eq!(ours.len(), 4, "one line per group, none split: {text}");
    for (_, shown) in hostile(&suffix) {
        let line = ours
            .iter()
            .find(|l| l.starts_with(&format!("{shown} ")))
            .unwrap_or_else(|| panic!("{shown} listed as one cell: {text}"));
        assert_eq!(
            column_of(line, "classic"),
            Some(type_column),
            "TYPE column out of line for {shown}: {text}"
        );
    }

    let json = kscope(&env, &["get", "groups", "-o", "json"]);
    support::assert_success(&json, "kscope get groups -o json");
    let rows: Value = serde_json::from_slice(&json.stdout).expect("json");
    let ids: Vec<&str> = rows
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|r| r["group"].as_str())
        .collect();
    for (raw, _) in hostile(&suffix) {
        assert!(
            ids.contains(&raw.as_str()),
            "{raw:?} exact in JSON: {ids:?}"
        );
    }

    let (raw, shown) = &hostile(&suffix)[0];
    let described = kscope(&env, &["describe", "group", raw]);
    support::assert_success(&described, "kscope describe group");
    let text = String::from_utf8(described.stdout).expect("utf-8");
    assert!(!text.contains('\x1b'), "{text:?}");
    assert!(text.contains(&format!("group:        {shown}\n")), "{text}");
}

#[test]
fn the_groups_screen_shows_hostile_ids_escaped() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let suffix = seed(&env);
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-untrusted"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "groups"]);
    tmux.keys(&["Enter"]);
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &suffix]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the four hostile groups, escaped", |s| {
        s.contains("consumer groups [1/4]")
            && hostile(&suffix)
                .iter()
                .all(|(_, shown)| s.contains(shown.as_str()))
    });
    // A raw ESC [2J would have cleared the pane; the header is still there.
    assert!(screen.contains("kscope  context:"), "{screen}");
    let header = screen
        .lines()
        .find(|l| l.contains("GROUP"))
        .expect("the table header");
    let type_column = column_of(header, "TYPE").expect("a TYPE header");
    for (_, shown) in hostile(&suffix) {
        let line = screen
            .lines()
            .find(|l| l.contains(&shown))
            .expect("the group's row");
        assert_eq!(
            column_of(line, "classic"),
            Some(type_column),
            "TYPE column out of line for {shown}:\n{screen}"
        );
    }
    tmux.keys(&["Escape"]);
    tmux.keys(&["q"]);
}
