//! End to end, on a throwaway 3-node cluster of its own: the real binary in
//! tmux watches a partition whose leader is then `SIGKILL`ed. Without a key
//! pressed the header names the dead broker and the partition's leader moves;
//! the topics screen marks the replication-factor-1 topic that lived on that
//! broker as offline; the movement log shows the broker leaving, the leader
//! moving and the partition going offline; `q` exits with status 0 and gives
//! the terminal back (cooked mode, main screen, mouse reporting off).
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::Path;
use std::time::Duration;

use support::tmux::{self, Tmux};

/// Replication factor 3, leaders spread over all three brokers.
const SPREAD: &str = "tui-kill-spread";
const SPREAD_PARTITIONS: usize = 6;
/// Replication factor 1, its one replica pinned to [`VICTIM`].
const SOLO: &str = "tui-kill-solo";
/// The broker killed (not the one we bootstrap from first, so the first
/// connection attempt of any refresh is not the dead one).
const VICTIM: i32 = 2;

/// Partition → leader (`None` for `none`) from the Partitions screen's rows.
fn leaders(screen: &str) -> Vec<(usize, Option<i32>)> {
    screen
        .lines()
        .filter_map(|line| {
            let mut cells = line.split_whitespace();
            let partition = cells.next()?.parse().ok()?;
            let leader = cells.next()?;
            let leader = if leader == "none" {
                None
            } else {
                Some(leader.parse().ok()?)
            };
            Some((partition, leader))
        })
        .collect()
}

/// The leader of `partition`, if the screen shows the row and names one.
fn leader_of(screen: &str, partition: usize) -> Option<i32> {
    leaders(screen)
        .into_iter()
        .find_map(|(p, leader)| (p == partition).then_some(leader)?)
}

/// The cells of the row that starts with `first` (a topic name, or a time on
/// the movement log).
fn row<'s>(screen: &'s str, first: &str) -> Option<Vec<&'s str>> {
    screen
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&first))
}

/// Rows of the movement log whose EVENT column is `event`.
fn events<'s>(screen: &'s str, event: &str) -> Vec<Vec<&'s str>> {
    screen
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|cells| cells.get(3) == Some(&event))
        .collect()
}

/// The pane's script: kscope, then (in the same terminal, after it exits) its
/// exit status, the terminal's line settings and tmux's view of the pane.
fn write_pane_script(dir: &Path, bootstrap: &str) -> std::path::PathBuf {
    let after = dir.join("after-exit");
    let script = dir.join("run.sh");
    let text = format!(
        "#!/bin/sh\n\
         env HOME={home} XDG_CONFIG_HOME={home}/config XDG_STATE_HOME={home}/state {bin} -b {bootstrap}\n\
         echo \"exit=$?\" > {after}\n\
         stty -a >> {after}\n\
         tmux display-message -p -t \"$TMUX_PANE\" \
         'alternate_on=#{{alternate_on}} mouse_any_flag=#{{mouse_any_flag}} cursor_flag=#{{cursor_flag}}' >> {after}\n\
         echo done >> {after}\n",
        home = dir.display(),
        bin = env!("CARGO_BIN_EXE_kscope"),
        after = after.display(),
    );
    std::fs::write(&script, text).expect("write the pane script");
    script
}

#[test]
fn a_broker_killed_under_the_tui_shows_down_moves_the_leader_and_quits_cleanly() {
    let Some(cluster) = support::ThrowawayCluster::start("tui-kill", 3, 24592, false) else {
        return;
    };
    assert!(tmux::available(), "this test needs tmux");
    let env = cluster.env();
    let partitions = SPREAD_PARTITIONS.to_string();
    env.create_topic_with_kafka(
        SPREAD,
        &["--partitions", &partitions, "--replication-factor", "3"],
    );
    env.create_topic_with_kafka(SOLO, &["--replica-assignment", &VICTIM.to_string()]);

    let home = tempfile::tempdir().expect("temp home");
    let script = write_pane_script(home.path(), env.bootstrap());
    let pane = Tmux::start(
        &tmux::unique_name("kscope-kill"),
        &format!("sh {}", script.display()),
    );
    let watched = open_partitions_and_pick_one(&pane);

    env.script(&["kill", &VICTIM.to_string()]);

    // No key pressed from here until Esc: the refresher alone must notice.
    let new_leader = see_the_kill_on_the_partitions_screen(&pane, watched);
    see_the_offline_topic(&pane);
    see_the_movement_log(&pane, watched, new_leader);

    pane.keys(&["q"]);
    pane.wait_for_exit(Duration::from_secs(10));
    assert_exited_cleanly(&home.path().join("after-exit"));
}

/// Wait for the topics screen, open the RF 3 topic's partitions and return a
/// partition that [`VICTIM`] leads.
fn open_partitions_and_pick_one(pane: &Tmux) -> usize {
    pane.wait_for("the topics screen with both topics", |s| {
        s.contains("topics [") && row(s, SPREAD).is_some() && row(s, SOLO).is_some()
    });
    pane.keys(&[":"]);
    pane.keys(&["-l", &format!("partitions {SPREAD}")]);
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("every partition with a leader", |s| {
        s.contains(&format!("partitions of '{SPREAD}'"))
            && leaders(s).len() == SPREAD_PARTITIONS
            && leaders(s).iter().all(|(_, leader)| leader.is_some())
    });
    assert!(
        screen.contains("brokers: 3 registered") && !screen.contains("DOWN"),
        "all brokers up before the kill:\n{screen}"
    );
    leaders(&screen)
        .into_iter()
        .find_map(|(p, leader)| (leader == Some(VICTIM)).then_some(p))
        .unwrap_or_else(|| panic!("no partition led by broker {VICTIM}:\n{screen}"))
}

/// The header names the dead broker and `watched` gets another leader, while
/// the Partitions screen stays open; returns the new leader.
fn see_the_kill_on_the_partitions_screen(pane: &Tmux, watched: usize) -> i32 {
    let screen = pane.wait_for("the header to say the broker is down", |s| {
        s.contains(&format!("DOWN: broker {VICTIM}")) && s.contains("brokers: 2 registered")
    });
    assert!(
        screen.contains(&format!("partitions of '{SPREAD}'")),
        "still on the partitions screen:\n{screen}"
    );
    let screen = pane.wait_for(
        "the watched partition's leader to move",
        |s| matches!(leader_of(s, watched), Some(l) if l != VICTIM),
    );
    eprintln!("after the kill:\n{screen}");
    assert!(
        leaders(&screen)
            .iter()
            .all(|(_, leader)| leader.is_some() && *leader != Some(VICTIM)),
        "no partition of an RF 3 topic is led by, or lost with, the dead broker:\n{screen}"
    );
    leader_of(&screen, watched).expect("a leader")
}

/// Back on the topics screen the RF 1 topic has one offline partition and the
/// RF 3 topic none.
fn see_the_offline_topic(pane: &Tmux) {
    pane.keys(&["Escape"]);
    let screen = pane.wait_for("the RF 1 topic offline on the topics screen", |s| {
        s.contains("topics [") && row(s, SOLO).is_some_and(|cells| cells.get(4) == Some(&"1"))
    });
    eprintln!("topics after the kill:\n{screen}");
    let spread = row(&screen, SPREAD).expect("the RF 3 topic's row");
    assert_eq!(
        spread.get(4),
        Some(&"0"),
        "the RF 3 topic has no offline partition:\n{screen}"
    );
    assert!(screen.contains(&format!("DOWN: broker {VICTIM}")));
}

/// `:leaders` lists the broker leaving, `watched`'s leader moving to
/// `new_leader` and the RF 1 partition going offline; no leader moved to the
/// dead broker.
fn see_the_movement_log(pane: &Tmux, watched: usize, new_leader: i32) {
    pane.keys(&[":"]);
    pane.keys(&["-l", "leaders"]);
    pane.keys(&["Enter"]);
    pane.wait_for("the movement log", |s| s.contains("leader movement ["));
    // The inverse filter form: killing the active controller also logs a
    // `controller_changed`, which is not what this step looks for.
    pane.keys(&["/"]);
    pane.keys(&["-l", "!~controller_changed"]);
    pane.keys(&["Enter"]);
    let expected_move = format!("leader {VICTIM} → {new_leader}");
    let screen = pane.wait_for("the movement log with the kill's events", |s| {
        let left = events(s, "broker_left");
        let moved = events(s, "leader_changed");
        let offline = events(s, "partition_offline");
        s.contains("filter: !~controller_changed")
            && left
                .iter()
                .any(|r| r[4..].join(" ") == format!("broker {VICTIM} left"))
            && moved.iter().any(|r| {
                r[1] == SPREAD
                    && r[2] == watched.to_string()
                    && r[4..].join(" ").starts_with(&expected_move)
            })
            && offline.iter().any(|r| {
                r[1] == SOLO && r[2] == "0" && r[4..].join(" ").contains(&format!("was {VICTIM}"))
            })
    });
    eprintln!("movement log after the kill:\n{screen}");
    assert!(
        !events(&screen, "leader_changed")
            .iter()
            .any(|r| r[1] == SPREAD && r[4..].join(" ").contains(&format!("→ {VICTIM} "))),
        "no leader moved to the dead broker:\n{screen}"
    );
}

/// What the pane script wrote after kscope exited: status 0, a cooked
/// terminal, the main screen, mouse reporting off and the cursor shown.
fn assert_exited_cleanly(after: &Path) {
    let after = std::fs::read_to_string(after).expect("the pane script ran to the end");
    assert!(
        after.ends_with("done\n"),
        "the pane script finished:\n{after}"
    );
    assert!(after.starts_with("exit=0\n"), "kscope exited 0:\n{after}");
    let words = after.split_whitespace().collect::<Vec<_>>();
    for setting in ["icanon", "echo", "isig", "icrnl", "opost"] {
        assert!(
            words.contains(&setting),
            "the terminal is back in cooked mode ({setting}):\n{after}"
        );
    }
    for flag in ["alternate_on=0", "mouse_any_flag=0", "cursor_flag=1"] {
        assert!(
            words.contains(&flag),
            "the terminal is restored ({flag}):\n{after}"
        );
    }
}
