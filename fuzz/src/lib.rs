//! Shared by the fuzz targets: how a target's input becomes a decode call.
//!
//! Input layout: the first byte picks the version (offset from the request
//! type's lowest), the rest is a response frame without its length prefix
//! (response header + body), exactly what the connection's reader hands to
//! `decode_response`.

use bytes::Bytes;
use kscope::conn::protocol::Message;
use kscope::conn::{Rpc, decode_response};

/// Decode `data` as `R`'s response; any result but an abort or panic is fine.
pub fn decode<R: Rpc>(data: &[u8]) {
    let Some((&selector, frame)) = data.split_first() else {
        return;
    };
    let range = <R as Message>::VERSIONS;
    let span = i32::from(range.max) - i32::from(range.min) + 1;
    let offset = i32::from(selector) % span;
    let Ok(version) = i16::try_from(i32::from(range.min) + offset) else {
        return;
    };
    let _ = decode_response::<R>(Bytes::copy_from_slice(frame), version);
}

/// The corpus file content for a captured frame at `version`.
pub fn corpus_entry<R: Rpc>(version: i16, frame: &[u8]) -> Vec<u8> {
    let range = <R as Message>::VERSIONS;
    let selector = u8::try_from(version - range.min).unwrap_or(0);
    let mut entry = vec![selector];
    entry.extend_from_slice(frame);
    entry
}
