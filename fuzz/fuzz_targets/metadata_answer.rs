//! Decode arbitrary bytes as a Metadata response frame, at every version,
//! with the decoder kscope uses (`MetadataAnswer`, straight into snapshot
//! records).
#![no_main]

use kscope::meta::MetadataAsk;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<MetadataAsk>(data));
