//! Decode arbitrary bytes as a DescribeUserScramCredentials response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeUserScramCredentialsRequest;

libfuzzer_sys::fuzz_target!(
    |data: &[u8]| kscope_fuzz::decode::<DescribeUserScramCredentialsRequest>(data)
);
