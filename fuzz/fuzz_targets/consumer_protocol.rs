//! Decode arbitrary bytes as a classic consumer member's assignment and
//! subscription (`ConsumerProtocolAssignment` / `ConsumerProtocolSubscription`
//! behind a version prefix), under the same memory budget as
//! `src/groups/member.rs`: these bytes come from other clients, through
//! `DescribeGroups`.
#![no_main]

use kscope::conn::budget::within_budget;
use kscope::conn::protocol::Decodable;
use kscope::conn::protocol::messages::{ConsumerProtocolAssignment, ConsumerProtocolSubscription};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let version = i16::from(selector % 4);
    let mut buf = bytes::Bytes::copy_from_slice(body);
    let _ = within_budget(body.len(), || {
        ConsumerProtocolAssignment::decode(&mut buf.clone(), version)
    });
    let _ = within_budget(body.len(), || {
        ConsumerProtocolSubscription::decode(&mut buf, version)
    });
});
