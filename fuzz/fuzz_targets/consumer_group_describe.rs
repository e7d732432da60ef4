//! Decode arbitrary bytes as a ConsumerGroupDescribe response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::ConsumerGroupDescribeRequest;

libfuzzer_sys::fuzz_target!(
    |data: &[u8]| kscope_fuzz::decode::<ConsumerGroupDescribeRequest>(data)
);
