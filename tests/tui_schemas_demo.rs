//! End to end on the demo's schema traffic: the real binary in tmux against
//! the real cluster and the real registry, with the records `scripts/demo`
//! seeds (`DemoTraffic schemas`: Confluent-framed Avro, Protobuf and JSON
//! Schema values, schemas registered in the registry). Each topic's records
//! show decoded in the Messages list, and the first one's detail shows its
//! format, its subject and the values the traffic wrote for its id.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod schema_fixture;
mod support;

use std::time::Duration;

use schema_fixture::{demo_schemas, registry};
use support::tmux::{self, Tmux, kscope_command};

/// The number after `"id": ` (or the digits after `"id": "payment-`) on the
/// detail screen: the demo record's sequence number.
fn sequence(screen: &str, marker: &str) -> Option<u64> {
    let at = screen.find(marker)? + marker.len();
    let digits: String = screen[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Open `topic` on the Messages screen, wait for its 50 records decoded in
/// the list (`listed` on screen), open the first and return its detail
/// screen once `format, decoded from` shows.
fn first_detail(tmux: &Tmux, topic: &str, listed: &str, format: &str) -> String {
    tmux.keys(&[":"]);
    tmux.keys(&["-l", &format!("messages {topic}")]);
    tmux.keys(&["Enter"]);
    let list = tmux.wait_for_within(
        Duration::from_mins(1),
        &format!("{topic}: the records decoded in the list"),
        |s| s.contains("[50/50]") && s.contains(listed) && !s.contains("decoding…"),
    );
    assert!(!list.contains("not decoded"), "{list}");
    tmux.keys(&["g"]);
    tmux.keys(&["Enter"]);
    let detail = tmux.wait_for(&format!("{topic}: the first record decoded"), |s| {
        s.contains(&format!("record '{topic}' partition "))
            && s.contains(&format!("{format}, decoded from"))
            && s.contains("schema    id ")
    });
    tmux.keys(&["Escape"]);
    detail
}

#[test]
fn the_demo_schema_records_show_decoded_in_the_tui() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let prefix = demo_schemas(&env, &registry);

    let home = tempfile::tempdir().expect("temp home");
    // The flags scripts/demo launches kscope with.
    let args = format!("-b {} -X schema.registry.url={registry}", env.bootstrap());
    let command = kscope_command(home.path(), "", &args);
    let tmux = Tmux::start(&tmux::unique_name("kscope-demo-sr"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));

    let orders = format!("{prefix}orders-avro");
    let detail = first_detail(&tmux, &orders, r#""customer":"customer-"#, "avro");
    let n = sequence(&detail, r#""id": "#).unwrap_or_else(|| panic!("no id: {detail}"));
    for field in [
        format!(r#""order_id": "00000000-0000-5eed-0000-{n:012x}""#),
        format!(r#""customer": "customer-{}""#, n % 50),
        // The registry shares an id among subjects with the same schema
        // (earlier runs' prefixes): the subject shown is the first it lists.
        "orders-avro-value   version ".to_owned(),
    ] {
        assert!(detail.contains(&field), "{field} in {detail}");
    }

    let payments = format!("{prefix}payments-protobuf");
    let detail = first_detail(&tmux, &payments, r#""currency":"#, "protobuf");
    let n = sequence(&detail, r#""id": "payment-"#).unwrap_or_else(|| panic!("no id: {detail}"));
    for field in [
        format!(r#""order_id": "00000000-0000-5eed-0000-{n:012x}""#),
        "payments-protobuf-value   version ".to_owned(),
    ] {
        assert!(detail.contains(&field), "{field} in {detail}");
    }

    let users = format!("{prefix}users-jsonschema");
    let detail = first_detail(&tmux, &users, r#""email":"user"#, "jsonschema");
    let n = sequence(&detail, r#""id": "#).unwrap_or_else(|| panic!("no id: {detail}"));
    for field in [
        format!(r#""name": "User {n}""#),
        format!(r#""email": "user{n}@example.com""#),
        "users-jsonschema-value   version ".to_owned(),
    ] {
        assert!(detail.contains(&field), "{field} in {detail}");
    }

    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
