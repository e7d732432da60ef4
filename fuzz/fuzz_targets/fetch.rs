//! Decode arbitrary bytes as a Fetch response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::FetchRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<FetchRequest>(data));
