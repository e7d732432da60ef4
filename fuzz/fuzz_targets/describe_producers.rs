//! Decode arbitrary bytes as a DescribeProducers response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeProducersRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeProducersRequest>(data));
