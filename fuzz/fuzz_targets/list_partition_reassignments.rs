//! Decode arbitrary bytes as a ListPartitionReassignments response frame, at every version.
#![no_main]

use kscope::conn::protocol::messages::ListPartitionReassignmentsRequest;

libfuzzer_sys::fuzz_target!(
    |data: &[u8]| kscope_fuzz::decode::<ListPartitionReassignmentsRequest>(data)
);
