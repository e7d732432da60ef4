//! The fleet against the ACL cluster (`scripts/kafka-cluster up --acls`):
//! the same cluster as two contexts, alice (who may describe only topics
//! named `orders…` and nothing of the cluster or of topic configs) and the
//! super user admin. Both rows answer; alice's counts only what she may
//! see, and her under-min-ISR is unknown (null) rather than a wrong 0,
//! while admin's covers every topic.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use support::fleet::row;

fn write_config(dir: &Path, acl: &support::ClusterEnv) -> std::path::PathBuf {
    let sasl = acl.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT");
    let servers: Vec<String> = sasl.split(',').map(|s| format!("\"{s}\"")).collect();
    let servers = servers.join(", ");
    let context = |name: &str, user: &str, password: &str| {
        format!(
            "[contexts.{name}]\nbootstrap_servers = [{servers}]\n[contexts.{name}.sasl]\n\
             mechanism = \"SCRAM-SHA-512\"\nusername = \"{user}\"\npassword = \"{password}\"\n\n"
        )
    };
    let text = context(
        "alice",
        acl.get("KSCOPE_SCRAM_USER"),
        acl.get("KSCOPE_SCRAM_PASSWORD"),
    ) + &context(
        "admin",
        acl.get("KSCOPE_ADMIN_USER"),
        acl.get("KSCOPE_ADMIN_PASSWORD"),
    );
    let path = dir.join("config.toml");
    std::fs::write(&path, text).expect("write the config");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    path
}

fn get_fleet(home: &Path, config: &Path) -> Vec<Value> {
    let (output, rows, _) = support::fleet::get_fleet(home, config, &[]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "every context answers; stderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    rows
}

#[test]
fn a_principal_sees_its_own_share_of_the_acl_cluster_and_no_guessed_min_isr() {
    let Some(acl) = support::acl_cluster() else {
        return;
    };
    // One topic alice may describe, one she may not (created by the
    // PLAINTEXT listener's super user).
    let visible = support::unique("orders-fleet");
    let hidden = support::unique("fleet-hidden");
    for topic in [&visible, &hidden] {
        acl.create_topic_with_kafka(topic, &["--partitions", "1", "--replication-factor", "1"]);
    }
    let home = tempfile::tempdir().expect("a home directory");
    let config = write_config(home.path(), &acl);
    let rows = support::wait_until(Duration::from_secs(30), "both topics listed", || {
        let rows = get_fleet(home.path(), &config);
        let admin = row(&rows, "admin");
        let alice = row(&rows, "alice");
        (admin["topics"].as_u64()? > alice["topics"].as_u64()? && alice["topics"].as_u64()? >= 1)
            .then_some(rows)
    });
    for name in ["alice", "admin"] {
        let r = row(&rows, name);
        assert_eq!(r["health"], "ok", "{r:#}");
        assert_eq!(r["error"], Value::Null, "{r:#}");
        assert!(r["partitions"].as_u64().unwrap() >= 1, "{r:#}");
    }
    let alice = row(&rows, "alice");
    assert_eq!(alice["under_min_isr"], Value::Null, "{alice:#}");
    assert_eq!(alice["min_isr_topics_checked"], 0, "{alice:#}");
    let admin = row(&rows, "admin");
    assert_eq!(admin["under_min_isr"], 0, "{admin:#}");
    assert_eq!(
        admin["min_isr_topics_checked"], admin["topics"],
        "{admin:#}"
    );
}
