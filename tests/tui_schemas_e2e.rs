//! End to end: the real binary in tmux against the real cluster and the real
//! schema registry (`scripts/kafka-cluster up --registry`). Records produced
//! by the Python client's Avro, Protobuf and JSON Schema serializers show
//! decoded on the Messages screen (list and detail, with schema id, subject
//! and version), `:format hex` shows their bytes again, a schema id the
//! registry does not know is marked with its bytes kept, and `:schemas`
//! lists the topic's subject with Enter showing a version's schema text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod schema_fixture;
mod support;

use std::time::Duration;

use schema_fixture::{fixture, registry};
use support::tmux::{self, Tmux, kscope_command};

#[test]
fn framed_records_show_decoded_in_the_list_and_the_detail() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let topic = support::unique("tui-sr");
    support::create_topic(&env, &topic, "1", &[]);
    // Offsets 0-2 Avro, 3-6 Protobuf, 7-8 JSON Schema, 9 an unknown id
    // (16711681: kscope takes ids from 2^24 up for binary, not a frame).
    fixture(&env, &registry, &topic, &["avro"]);
    fixture(&env, &registry, &topic, &["protobuf"]);
    fixture(&env, &registry, &topic, &["jsonschema"]);
    fixture(&env, &registry, &topic, &["raw", "0000ff00010203ff"]);

    let home = tempfile::tempdir().expect("temp home");
    let args = format!("-b {} -X schema.registry.url={registry}", env.bootstrap());
    let command = kscope_command(home.path(), "", &args);
    let tmux = Tmux::start(&tmux::unique_name("kscope-schemas"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", &format!("messages {topic} 0")]);
    tmux.keys(&["Enter"]);
    let list = tmux.wait_for_within(
        Duration::from_mins(1),
        "the records decoded in the list",
        |s| {
            s.contains("[10/10]")
                // Fields in the schema's order: id first.
                && s.contains(r#"{"id":"p-0","amount":"12.50","at":"2024-01-01T12:30:00.123Z""#)
                && s.contains("[schema 16711681 not decoded] 02 03 ff")
        },
    );
    assert!(!list.contains("decoding…"), "{list}");

    // The first record: Avro, with its schema's id, subject and version.
    tmux.keys(&["g"]);
    tmux.keys(&["Enter"]);
    let detail = tmux.wait_for("the Avro record decoded", |s| {
        s.contains(&format!("record '{topic}' partition 0 offset 0"))
            // The registry shares one id among subjects with the same
            // schema: the subject is the first it lists for the id.
            && s.contains("schema    id ")
            && s.contains("-value   version ")
            && s.contains("avro, decoded from")
    });
    assert!(detail.contains(r#""id": "p-0""#), "{detail}");
    tmux.keys(&["Escape"]);

    // The last: an id the registry does not know, its bytes kept.
    tmux.keys(&["G"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the unknown id marked with its bytes", |s| {
        s.contains("not decoded: schema id 16711681 not found in the registry")
            && s.contains("00000000  02 03 ff")
    });
    tmux.keys(&["Escape"]);

    // A Protobuf record (offset 3) and a JSON Schema one (offset 7).
    for (offset, check) in [
        (3, "protobuf, decoded from"),
        (7, "jsonschema, decoded from"),
    ] {
        tmux.keys(&["g"]);
        for _ in 0..offset {
            tmux.keys(&["j"]);
        }
        tmux.keys(&["Enter"]);
        tmux.wait_for(check, |s| {
            s.contains(&format!("offset {offset} ")) && s.contains(check)
        });
        tmux.keys(&["Escape"]);
    }

    tmux.keys(&[":"]);
    tmux.keys(&["-l", "format hex"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the bytes again under :format hex", |s| {
        s.contains("format hex") && !s.contains(r#""amount":"12.50""#)
    });

    // The registry's subjects: this topic's value subject, one version per
    // serializer that registered under it; Enter shows a version's text.
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "schemas"]);
    tmux.keys(&["Enter"]);
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
    let subjects = tmux.wait_for_within(Duration::from_mins(1), "the topic's subject", |s| {
        s.contains("schema registry subjects") && s.contains(&format!("{topic}-value"))
    });
    assert!(subjects.contains("avro"), "{subjects}");
    tmux.keys(&["g"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the first version's schema text", |s| {
        s.contains(&format!("schema '{topic}-value' version 1"))
            && s.contains("type avro")
            && s.contains(r#""name": "Payment""#)
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
