//! Decode arbitrary bytes as a DescribeGroups response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeGroupsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeGroupsRequest>(data));
