//! Kafka's console consumer as a live group member, for tests that need a
//! group with members (client ids, hosts, assignments).

use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};

use super::ClusterEnv;

/// Kafka's console consumer in group `group` reading `topic` until
/// dropped, when its whole process group is killed.
pub struct Reading(Child);

impl Reading {
    /// Start it: `--from-beginning`, `client.id=client_id`, the KIP-848
    /// protocol when `kip848`.
    pub fn start(
        env: &ClusterEnv,
        topic: &str,
        group: &str,
        client_id: &str,
        kip848: bool,
    ) -> Self {
        let props: &[&str] = if kip848 {
            &["group.protocol=consumer"]
        } else {
            &[]
        };
        Self::start_with(env, topic, group, client_id, props)
    }

    /// [`Reading::start`] with consumer properties of its own
    /// (`session.timeout.ms=180000`, `auto.commit.interval.ms=1000`).
    pub fn start_with(
        env: &ClusterEnv,
        topic: &str,
        group: &str,
        client_id: &str,
        props: &[&str],
    ) -> Self {
        let mut command = Command::new(super::repo().join("scripts/kafka-cluster"));
        command
            .args(["tool", "--name", env.name()])
            .arg("org.apache.kafka.tools.consumer.ConsoleConsumer")
            .args(["--bootstrap-server", env.bootstrap(), "--topic", topic])
            .args(["--group", group, "--from-beginning"])
            .args(["--consumer-property", &format!("client.id={client_id}")]);
        for prop in props {
            command.args(["--consumer-property", prop]);
        }
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start ConsoleConsumer");
        Reading(child)
    }
}

impl Reading {
    /// `SIGSTOP` (`pause`) or `SIGCONT` to its process group: a member that
    /// stops reading and committing yet stays in the group until its
    /// session times out.
    fn signal(&self, signal: &str) {
        let group = format!("-{}", self.0.id());
        let status = Command::new("kill")
            .args([signal, "--", &group])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill {signal} {group} failed");
    }

    /// Freeze it (`SIGSTOP`): it neither reads, commits nor heartbeats.
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Let it go on (`SIGCONT`).
    pub fn resume(&self) {
        self.signal("-CONT");
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}
