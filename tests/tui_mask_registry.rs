//! Masking registry-framed records on the Messages screen (issue 29), in
//! tmux against the real cluster and schema registry: with a `--mask` path
//! into an Avro or Protobuf value, the value is decoded first and only the
//! path is masked — the rest of the record stays readable — and the
//! secret is in neither the list, the detail view nor a `/` search.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod schema_fixture;
mod support;

use std::time::Duration;

use schema_fixture::{fixture, registry};
use support::tmux::{self, Tmux, kscope_command};

const MARKER: &str = "********";

#[test]
fn a_mask_path_reaches_into_registry_framed_values_and_keeps_the_rest() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let topic = support::unique("tui-mask-sr");
    support::create_topic(&env, &topic, "1", &[]);
    // Offsets 0-2 Avro (payers ann0, ann1, ann2), 3-6 Protobuf (no payer:
    // a path that matches nothing keeps the value).
    fixture(&env, &registry, &topic, &["avro"]);
    fixture(&env, &registry, &topic, &["protobuf"]);
    let secrets = ["ann0", "ann1", "ann2"];

    let home = tempfile::tempdir().expect("temp home");
    let args = format!(
        "-b {} -X schema.registry.url={registry} --mask .value.payer.name",
        env.bootstrap()
    );
    let command = kscope_command(home.path(), "", &args);
    let tmux = Tmux::start(&tmux::unique_name("kscope-mask-sr"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", &format!("messages {topic} 0")]);
    tmux.keys(&["Enter"]);
    let list = tmux.wait_for_within(
        Duration::from_mins(1),
        "the records decoded (not masked whole)",
        |s| s.contains("[7/7]") && s.contains(r#"{"id":"p-0","amount":"12.50""#),
    );
    for secret in secrets {
        assert!(!list.contains(secret), "the list shows {secret}:\n{list}");
    }
    assert!(list.contains(r#"{"order_id":"o1","total""#), "{list}");

    tmux.keys(&["g"]);
    tmux.keys(&["Enter"]);
    let detail = tmux.wait_for("the first record's detail", |s| {
        s.contains(&format!("record '{topic}' partition 0 offset 0")) && s.contains(MARKER)
    });
    assert!(detail.contains(r#""id": "p-0""#), "{detail}");
    assert!(
        detail.contains(&format!(r#""name": "{MARKER}""#)),
        "{detail}"
    );
    for secret in secrets {
        assert!(
            !detail.contains(secret),
            "the detail shows {secret}:\n{detail}"
        );
    }
    tmux.keys(&["Escape"]);

    // `/` searches what is shown: the masked names are not there.
    tmux.keys(&["/"]);
    tmux.keys(&["-l", "ann1"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("nothing through the filter", |s| {
        s.contains("filter: ann1") && !s.contains(MARKER)
    });
    tmux.keys(&["Escape"]);
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
