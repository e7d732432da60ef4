//! Decode arbitrary bytes as a DescribeCluster response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeClusterRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeClusterRequest>(data));
