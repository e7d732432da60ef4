//! Decode arbitrary bytes as a DescribeConfigs response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeConfigsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeConfigsRequest>(data));
