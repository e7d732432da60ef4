//! Decode arbitrary bytes as a ApiVersions response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::ApiVersionsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<ApiVersionsRequest>(data));
