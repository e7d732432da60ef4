//! Decode arbitrary bytes as a DescribeLogDirs response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeLogDirsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeLogDirsRequest>(data));
