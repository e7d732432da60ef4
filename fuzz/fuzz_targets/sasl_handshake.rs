//! Decode arbitrary bytes as a SaslHandshake response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::SaslHandshakeRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<SaslHandshakeRequest>(data));
