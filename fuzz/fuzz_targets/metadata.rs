//! Decode arbitrary bytes as a Metadata response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::MetadataRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<MetadataRequest>(data));
