//! Decode arbitrary bytes as a DescribeTransactions response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::DescribeTransactionsRequest;

libfuzzer_sys::fuzz_target!(|data: &[u8]| kscope_fuzz::decode::<DescribeTransactionsRequest>(data));
