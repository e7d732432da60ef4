//! Decode arbitrary bytes as a OffsetFetch response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::OffsetFetchRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<OffsetFetchRequest>(data));
