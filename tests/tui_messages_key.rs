//! `:key KEY` on the Messages screen, through `update` (no terminal, no
//! cluster): the view moves to the partition the key hashes to (murmur2 as
//! the Java client's default partitioner), reads it from the beginning with
//! the key handed to the worker, keeps the key across `:seek`, names it in
//! the status line, and `:messages` ends it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::{Code, Effect, Screen};
use kscope::browse::Start;
use kscope::browse::partitioner::partition_for_key;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

fn browse(effects: &[Effect]) -> Option<(Option<i32>, Start, Option<Vec<u8>>)> {
    effects.iter().find_map(|e| match e {
        Effect::Messages(MessagesEffect::Browse {
            partition,
            start,
            key,
            ..
        }) => Some((*partition, start.clone(), key.as_ref().map(|k| k.to_vec()))),
        _ => None,
    })
}

#[test]
fn key_opens_the_partition_it_hashes_to_with_only_its_records() {
    let snap = cluster();
    let mut s = state(&snap, 120, 20);
    keys(&mut s, &snap, ":messages orders");
    press(&mut s, &snap, Code::Enter);

    keys(&mut s, &snap, ":key order 4711");
    let effects = press(&mut s, &snap, Code::Enter);
    let want = partition_for_key(b"order 4711", 3);
    assert_eq!(
        browse(&effects),
        Some((want, Start::Beginning, Some(b"order 4711".to_vec()))),
        "{effects:?}"
    );
    assert_eq!(s.view().screen, Screen::records("orders", want));
    let notice = s.notice.clone().unwrap_or_default();
    assert!(
        notice.contains(&format!("partition {} of 3", want.unwrap())),
        "{notice}"
    );
    assert!(render(&s, &snap).contains("key 'order 4711'"));

    // :seek keeps the key; :messages ends it.
    keys(&mut s, &snap, ":seek -10");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(
        browse(&effects),
        Some((want, Start::FromEnd(10), Some(b"order 4711".to_vec())))
    );
    keys(&mut s, &snap, ":messages orders");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(browse(&effects).and_then(|b| b.2), None);
}

#[test]
fn key_elsewhere_is_a_notice() {
    let snap = cluster();
    let mut s = state(&snap, 120, 20);
    keys(&mut s, &snap, ":key x");
    let effects = press(&mut s, &snap, Code::Enter);
    assert!(browse(&effects).is_none());
    assert!(s.notice.unwrap_or_default().contains("Messages screen"));
}
