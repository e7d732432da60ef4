//! Decode arbitrary bytes as a SaslAuthenticate response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::SaslAuthenticateRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<SaslAuthenticateRequest>(data));
