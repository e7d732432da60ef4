//! Decode arbitrary bytes as a FindCoordinator response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::FindCoordinatorRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<FindCoordinatorRequest>(data));
