//! Decode arbitrary bytes as a DescribeQuorum response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeQuorumRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeQuorumRequest>(data));
