//! End to end: the real binary in tmux against the real cluster. Start,
//! filter to a topic, open it, see its leaders; move a leader with the cluster
//! script and see the Partitions view and the movement log change without a
//! key pressed; walk the consumer groups (list, a group's offsets with exact
//! lag, a KIP-848 member's assignment, back); quit cleanly. Also: an
//! unreachable bootstrap, a wrong password (shown whole, not retried until
//! `r`), a live `:ctx` switch and mouse clicks.

mod groups_fixture;
mod support;

use std::time::Duration;

use support::tmux::{self, Tmux, kscope_command};

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
    let topic = groups_fixture::unique("tui-e2e");
    env.create_topic_with_kafka(&topic, &["--partitions", "3", "--replication-factor", "3"]);
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-e2e"), &command);
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
    tmux.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn unreachable_bootstrap_says_what_was_tried_and_q_still_quits() {
    assert!(tmux::available(), "this test needs tmux");
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", "-b 127.0.0.1:1");
    let tmux = Tmux::start(&tmux::unique_name("kscope-unreachable"), &command);
    tmux.wait_for("the connecting screen with the failure", |s| {
        s.contains("tried: 127.0.0.1:1") && s.contains("failed (attempt") && s.contains("q quits")
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn a_wrong_password_is_shown_whole_and_not_retried_until_asked() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let bootstrap = env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT").to_owned();
    let home = tempfile::tempdir().expect("temp home");
    let args = format!(
        "-b {bootstrap} -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=SCRAM-SHA-512 \
         -X sasl.username={} -X sasl.password=not-the-password",
        env.get("KSCOPE_SCRAM_USER"),
    );
    let command = kscope_command(home.path(), "", &args);
    let tmux = Tmux::start(&tmux::unique_name("kscope-denied"), &command);
    let screen = tmux.wait_for("the failure and that kscope gave up", |s| {
        s.contains("failed (attempt 1)") && s.contains("not retrying")
    });
    assert!(
        screen.contains("invalid credentials") && screen.contains("r tries again"),
        "the broker's reason, wrapped, and what to do:\n{screen}"
    );
    assert!(
        screen.contains("not connected") && !screen.contains("snapshot"),
        "{screen}"
    );
    assert!(
        !screen.contains("not-the-password"),
        "the password appears nowhere:\n{screen}"
    );
    tmux.keys(&["r"]);
    tmux.wait_for("a second attempt after r", |s| {
        s.contains("failed (attempt 2)") && s.contains("not retrying")
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

/// The row of `name` on a table screen, split into cells.
fn row_of(screen: &str, name: &str) -> Option<Vec<String>> {
    screen.lines().find_map(|line| {
        let cells: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        (cells.first().map(String::as_str) == Some(name)).then_some(cells)
    })
}

/// Whether the offsets screen of `group` shows partition `behind` 7 behind,
/// `caught_up` at 0 and `uncommitted` without a commit.
fn offsets_shown(
    screen: &str,
    topic: &str,
    group: &str,
    [behind, caught_up, uncommitted]: [i32; 3],
) -> bool {
    // partition -> the LAG cell and what follows it
    let lags: std::collections::BTreeMap<i32, Vec<String>> = screen
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter(|cells| cells.first().map(String::as_str) == Some(topic))
        .filter_map(|cells| Some((cells.get(1)?.parse().ok()?, cells.get(4..)?.to_vec())))
        .collect();
    let lag = |p: i32| lags.get(&p).and_then(|c| c.first()).map(String::as_str);
    screen.contains(&format!("offsets of group '{group}'"))
        && screen.contains("lag 7 records (1 partition without a commit)")
        && lags.len() == 3
        && lag(behind) == Some("7")
        && lag(caught_up) == Some("0")
        && lags
            .get(&uncommitted)
            .is_some_and(|c| c.get(..2) == Some(&["no".to_owned(), "commit".to_owned()][..]))
}

#[test]
fn walk_groups_list_offsets_members_and_back() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let topic = groups_fixture::unique("tui-groups");
    let idle = groups_fixture::unique("tui-idle");
    let live = groups_fixture::unique("tui-live");
    let cluster = runtime.block_on(groups_fixture::cluster(&env));
    runtime.block_on(groups_fixture::create_topic(&cluster, &topic, 3));
    groups_fixture::produce(&env, &topic, 300);
    let ends = runtime.block_on(groups_fixture::ends(&cluster, &topic, 3));
    // The producer's sticky partitioner fills partitions unevenly: the
    // fullest is left 7 behind, the next caught up, the last never committed.
    let mut order: Vec<i32> = (0..3).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(ends[usize::try_from(p).expect("index")]));
    let [behind, caught_up, uncommitted] = [order[0], order[1], order[2]];
    let end = |p: i32| ends[usize::try_from(p).expect("index")];
    assert!(
        end(behind) >= 7,
        "300 records, one partition has 7: {ends:?}"
    );
    runtime.block_on(groups_fixture::commit(
        &cluster,
        &idle,
        &topic,
        &[(behind, end(behind) - 7), (caught_up, end(caught_up))],
    ));
    let consumer = groups_fixture::LiveConsumer::start(&env, &live, &topic, "consumer");

    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&format!("kscope-groups-{idle}"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "groups"]);
    tmux.keys(&["Enter"]);
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &idle]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the idle group with its exact lag", |s| {
        row_of(s, &idle).is_some_and(|cells| {
            cells.get(1..3) == Some(&["classic".to_owned(), "Empty".to_owned()][..])
                && cells.get(5).map(String::as_str) == Some("7")
        })
    });

    tmux.keys(&["Enter"]);
    tmux.wait_for("the group's offsets per partition", |s| {
        offsets_shown(s, &topic, &idle, [behind, caught_up, uncommitted])
    });

    tmux.keys(&["Escape"]);
    tmux.wait_for("the list again, still filtered", |s| {
        s.contains("consumer groups [1/1]") && s.contains(&format!("filter: {idle}"))
    });
    // A key sent right after Escape would arrive as Alt+key: wait first.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| {
        s.contains("consumer groups [") && !s.contains("filter:")
    });
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &live]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the live KIP-848 group, Stable with its member", |s| {
        row_of(s, &live).is_some_and(|cells| {
            cells.get(1..4)
                == Some(&["consumer".to_owned(), "Stable".to_owned(), "1".to_owned()][..])
        })
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("the live group's offsets", |s| {
        s.contains(&format!("offsets of group '{live}'")) && s.contains("consumer · Stable")
    });
    tmux.keys(&["m"]);
    let assigned = format!("{topic}:0,1,2");
    tmux.wait_for("the member's current and target assignment", |s| {
        s.contains(&format!("members of group '{live}'"))
            && s.lines().any(|l| l.matches(assigned.as_str()).count() == 2)
    });

    tmux.keys(&["Escape"]);
    tmux.wait_for("the offsets again", |s| {
        s.contains(&format!("offsets of group '{live}'"))
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the list", |s| s.contains("consumer groups ["));
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
    drop(consumer);
    runtime.block_on(async {
        let coordinator = cluster.coordinator_for(&idle).await.unwrap_or(1);
        groups_fixture::delete_groups(&cluster, &[(idle.clone(), coordinator)]).await;
    });
}

#[test]
fn switch_context_live_and_open_a_topic_with_the_mouse() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = tempfile::tempdir().expect("temp home");
    let config = home.path().join("kscope.toml");
    // The cluster over SASL_SSL with SCRAM (the password from the
    // environment), and a context nobody listens on.
    let sasl_ssl: Vec<String> = env
        .get("KSCOPE_BOOTSTRAP_SASL_SSL")
        .split(',')
        .map(|a| format!("\"{a}\""))
        .collect();
    std::fs::write(
        &config,
        format!(
            "default_context = \"secure\"\n\
             [contexts.secure]\nbootstrap_servers = [{}]\n\
             [contexts.secure.tls]\nca_file = \"{}\"\n\
             [contexts.secure.sasl]\nmechanism = \"SCRAM-SHA-512\"\nusername = \"{}\"\n\
             password = \"${{env:E2E_KAFKA_PASSWORD}}\"\n\
             [contexts.nowhere]\nbootstrap_servers = [\"127.0.0.1:1\"]\n",
            sasl_ssl.join(", "),
            env.get("KSCOPE_CA"),
            env.get("KSCOPE_SCRAM_USER"),
        ),
    )
    .expect("config written");
    let command = kscope_command(
        home.path(),
        &format!("E2E_KAFKA_PASSWORD={}", env.get("KSCOPE_SCRAM_PASSWORD")),
        &format!("--config {}", config.display()),
    );
    let tmux = Tmux::start(&tmux::unique_name("kscope-ctx"), &command);
    tmux.wait_for("the topics over SASL_SSL", |s| {
        s.contains("context: secure") && s.contains("topics [1/")
    });

    // Rows start under two header lines, the table's border and its header.
    tmux.click(2, 5);
    let screen = tmux.wait_for("the second row selected by a click", |s| {
        s.contains("topics [2/")
    });
    let topic = screen
        .lines()
        .nth(5)
        .and_then(|l| l.split_whitespace().next())
        .expect("a topic on the second row")
        .to_owned();
    tmux.click(2, 5);
    tmux.wait_for("its partitions opened by a second click", |s| {
        s.contains(&format!("partitions of '{topic}'"))
    });

    tmux.keys(&[":"]);
    tmux.keys(&["-l", "ctx nowhere"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the other context, unreachable, said so", |s| {
        s.contains("context: nowhere")
            && s.contains("tried: 127.0.0.1:1")
            && s.contains("failed (attempt")
    });
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "ctx secure"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("back on the first context's topics", |s| {
        s.contains("context: secure") && s.contains("topics [1/")
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
