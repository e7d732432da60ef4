//! Decode arbitrary bytes as a ListOffsets response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::ListOffsetsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<ListOffsetsRequest>(data));
