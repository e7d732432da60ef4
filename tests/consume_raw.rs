//! `consume -o raw` against the real cluster, through its vectored-write
//! path (no registry, mask or filter): 3,000 values of 1 B to 3 KiB written
//! by Kafka's console producer with lz4 and with zstd into 6 partitions on 3
//! brokers are printed each exactly once, byte for byte, one per line —
//! more than one `writev` (`IOV_MAX` slices) per call — and `-n` stops at
//! exactly N.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use support::{ClusterEnv, create_topic, kscope, unique};

/// Printable values of every length from 1 to about 3 KiB, each unique.
fn values() -> Vec<String> {
    (0..3000)
        .map(|i| {
            let len = 1 + (i * 7919) % 3072;
            let mut value = format!("{i}:");
            while value.len() < len {
                value.push(char::from(b'a' + u8::try_from(value.len() % 26).unwrap()));
            }
            value
        })
        .collect()
}

fn topic_of(env: &ClusterEnv, codec: &str) -> String {
    let topic = unique(&format!("raw-{codec}"));
    create_topic(env, &topic, "6", &[]);
    env.console_produce(
        &topic,
        &values(),
        &[
            "--producer-property",
            &format!("compression.type={codec}"),
            "--producer-property",
            "linger.ms=20",
        ],
    );
    topic
}

#[test]
fn raw_prints_every_value_once_byte_for_byte_and_stops_at_n() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let mut expected = values();
    expected.sort();
    for codec in ["lz4", "zstd"] {
        let topic = topic_of(&env, codec);
        let all = kscope(
            &env,
            &["consume", &topic, "--from", "beginning", "-o", "raw"],
        );
        support::assert_success(&all, "consume -o raw");
        let text = String::from_utf8(all.stdout).expect("the values are text");
        assert!(text.ends_with('\n'), "{codec}: every value ends its line");
        let mut got: Vec<String> = text.lines().map(str::to_owned).collect();
        got.sort();
        assert_eq!(got.len(), expected.len(), "{codec}: one line per record");
        assert!(
            got == expected,
            "{codec}: the values differ from what was written"
        );

        let some = kscope(
            &env,
            &[
                "consume",
                &topic,
                "--from",
                "beginning",
                "-o",
                "raw",
                "-n",
                "2500",
            ],
        );
        support::assert_success(&some, "consume -o raw -n 2500");
        let text = String::from_utf8(some.stdout).expect("the values are text");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2500, "{codec}: -n 2500 prints 2500 values");
        let mut seen = std::collections::HashSet::new();
        for line in lines {
            assert!(
                expected.binary_search_by(|v| v.as_str().cmp(line)).is_ok(),
                "{codec}: {line:.40} was not written"
            );
            assert!(seen.insert(line), "{codec}: {line:.40} printed twice");
        }
    }
}
