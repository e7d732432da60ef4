//! End to end: the real binary in tmux against the real cluster. Start,
//! filter to a topic, open it, see its leaders; move a leader with the cluster
//! script and see the Partitions view and the movement log change without a
//! key pressed; quit cleanly.

mod support;

use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

struct Tmux {
    name: String,
}

impl Tmux {
    fn start(name: &str, command: &str) -> Tmux {
        let status = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-x",
                "160",
                "-y",
                "45",
                "-s",
                name,
                command,
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session");
        Tmux {
            name: name.to_owned(),
        }
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.name.as_str()];
        args.extend(keys);
        let status = Command::new("tmux")
            .args(&args)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .status()
            .is_ok_and(|s| s.success())
    }

    fn wait_for(&self, what: &str, check: impl Fn(&str) -> bool) -> String {
        support::wait_until(Duration::from_mins(1), what, || {
            let screen = self.screen();
            check(&screen).then_some(screen)
        })
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .status();
    }
}

/// The leader column of partition 0 on the Partitions screen.
fn leader_of_partition_zero(screen: &str) -> Option<i32> {
    screen.lines().find_map(|line| {
        let mut cells = line.split_whitespace();
        (cells.next() == Some("0")).then(|| cells.next()?.parse().ok())?
    })
}

#[test]
fn filter_open_watch_a_leader_move_and_quit() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() % 1_000_000_000);
    let topic = format!("tui-e2e-{unique}");
    env.script(&[
        "tool",
        "org.apache.kafka.tools.TopicCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--create",
        "--topic",
        &topic,
        "--partitions",
        "3",
        "--replication-factor",
        "3",
    ]);
    let home = tempfile::tempdir().expect("temp home");
    let command = format!(
        "env HOME={home} XDG_CONFIG_HOME={home}/config XDG_STATE_HOME={home}/state {bin} -b {bootstrap}",
        home = home.path().display(),
        bin = env!("CARGO_BIN_EXE_kscope"),
        bootstrap = env.bootstrap(),
    );
    let tmux = Tmux::start(&format!("kscope-e2e-{unique}"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));

    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filter applied", |s| {
        s.contains(&format!("filter: {topic}")) && s.contains("[1/1]")
    });
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the partitions screen with leaders", |s| {
        s.contains(&format!("partitions of '{topic}'")) && leader_of_partition_zero(s).is_some()
    });
    let before = leader_of_partition_zero(&screen).expect("a leader");
    let to = before % 3 + 1;
    env.script(&["move-leader", &topic, "0", &to.to_string()]);
    tmux.wait_for("the new leader shown without a key pressed", |s| {
        leader_of_partition_zero(s) == Some(to)
    });

    tmux.keys(&["l"]);
    tmux.wait_for("the movement log of the topic", |s| {
        s.contains("leader movement")
            && s.contains("leader_changed")
            && s.contains(&format!("leader {before} → {to}"))
    });

    tmux.keys(&["q"]);
    support::wait_until(Duration::from_secs(10), "kscope to exit", || {
        (!tmux.alive()).then_some(())
    });
}

#[test]
fn unreachable_bootstrap_says_what_was_tried_and_q_still_quits() {
    if Command::new("tmux").arg("-V").output().is_err() {
        return;
    }
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() % 1_000_000_000);
    let home = tempfile::tempdir().expect("temp home");
    let command = format!(
        "env HOME={home} XDG_CONFIG_HOME={home}/config XDG_STATE_HOME={home}/state {bin} -b 127.0.0.1:1",
        home = home.path().display(),
        bin = env!("CARGO_BIN_EXE_kscope"),
    );
    let tmux = Tmux::start(&format!("kscope-unreachable-{unique}"), &command);
    tmux.wait_for("the connecting screen with the failure", |s| {
        s.contains("tried: 127.0.0.1:1") && s.contains("failed (attempt") && s.contains("q quits")
    });
    tmux.keys(&["q"]);
    support::wait_until(Duration::from_secs(10), "kscope to exit", || {
        (!tmux.alive()).then_some(())
    });
}
