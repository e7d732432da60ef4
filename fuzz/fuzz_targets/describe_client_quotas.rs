//! Decode arbitrary bytes as a DescribeClientQuotas response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeClientQuotasRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeClientQuotasRequest>(data));
