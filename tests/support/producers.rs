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

/// Kafka's console producer writing keyed records to `topic` without end
/// (keys `k0`..`k119` in turn, so every partition of a small topic gets
/// records all the time) until dropped, when its process group is killed.
pub struct Steady {
    child: Child,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Steady {
    /// Start it: `per_second` records a second (roughly).
    pub fn start(env: &ClusterEnv, topic: &str, per_second: u32) -> Steady {
        use std::io::Write as _;
        use std::sync::atomic::Ordering;
        let mut child = Command::new(super::repo().join("scripts/kafka-cluster"))
            .args(["tool", "--name", env.name()])
            .arg("org.apache.kafka.tools.ConsoleProducer")
            .args(["--bootstrap-server", env.bootstrap(), "--topic", topic])
            .args(["--producer-property", "linger.ms=20"])
            .args(super::KEYED)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start ConsoleProducer");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let gap = std::time::Duration::from_secs(1) / per_second.max(1);
        std::thread::spawn(move || {
            let mut i: u64 = 0;
            while !stopped.load(Ordering::Relaxed) {
                if writeln!(stdin, "k{}\tv{i}", i % 120).is_err() || stdin.flush().is_err() {
                    return;
                }
                i += 1;
                std::thread::sleep(gap);
            }
        });
        Steady { child, stop }
    }
}

impl Drop for Steady {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
    }
}
