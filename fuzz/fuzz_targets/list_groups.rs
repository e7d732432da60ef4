//! Decode arbitrary bytes as a ListGroups response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::ListGroupsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<ListGroupsRequest>(data));
