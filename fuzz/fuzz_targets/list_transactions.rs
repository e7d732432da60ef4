//! Decode arbitrary bytes as a ListTransactions response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::ListTransactionsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<ListTransactionsRequest>(data));
