//! Raw fuzzer bytes as the compressed records section of a v2 record batch
//! whose attributes say gzip (flate2's `MultiGzDecoder`: several members
//! allowed). The batch gets a valid length and CRC-32C, so corrupt
//! compressed bytes, as a hostile broker could send them, reach the
//! decompressor; `browse::batch::items` then decodes it as browse does. The
//! first input byte is the claimed record count (see
//! `kscope_fuzz::decode_compressed`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode_compressed(1, false, data));
