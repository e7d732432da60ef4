//! Decode arbitrary bytes as a DescribeAcls response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeAclsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeAclsRequest>(data));
