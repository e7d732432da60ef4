//! Raw fuzzer bytes as the compressed records section of a v2 record batch
//! whose attributes say snappy. The first input byte's top bit picks the
//! framing: a raw snappy block, or the xerial (snappy-java) framing Kafka's
//! Java client writes, whose 16-byte stream header the target prepends so
//! the fuzzer works on the length-prefixed blocks. The batch gets a valid
//! length and CRC-32C, so corrupt compressed bytes, as a hostile broker
//! could send them, reach the decompressor; `browse::batch::items` then
//! decodes it as browse does. The first byte's low six bits are the claimed
//! record count (see `kscope_fuzz::decode_compressed`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode_compressed(2, true, data));
