//! Kafka's own `ProducerPerformance` holding a transaction open, for tests of
//! what kscope shows about open transactions and their producers.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

use super::ClusterEnv;

/// A transactional producer writing 5 records/s to `topic` in one long
/// transaction (it commits only every 10 minutes); killed (its whole process
/// group) on drop.
pub struct HeldOpen(Child);

impl HeldOpen {
    /// Start it with transactional id `id`.
    pub fn start(env: &ClusterEnv, topic: &str, id: &str) -> HeldOpen {
        let props = format!("bootstrap.servers={}", env.bootstrap());
        let child = Command::new(super::repo().join("scripts/kafka-cluster"))
            .args(["tool", "--name", env.name()])
            .args([
                "org.apache.kafka.tools.ProducerPerformance",
                "--topic",
                topic,
                "--num-records",
                "100000",
                "--record-size",
                "10",
                "--throughput",
                "5",
                "--transactional-id",
                id,
                "--transaction-duration-ms",
                "600000",
                "--producer-props",
                &props,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start ProducerPerformance");
        HeldOpen(child)
    }
}

impl Drop for HeldOpen {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}
