//! Feed arbitrary bytes to the frame reader as if they came off the socket,
//! and route every frame the way the connection's reader does: correlation id,
//! then decode (as ApiVersions, the one response every connection decodes).
#![no_main]

use std::sync::OnceLock;

use kscope::conn::decode_response;
use kscope::conn::frame::{correlation_id, read_frame};
use kscope::conn::protocol::messages::ApiVersionsRequest;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    runtime().block_on(async {
        let mut wire = data;
        // A small cap, so the fuzzer reaches the too-large path too.
        while let Ok(frame) = read_frame(&mut wire, 4096).await {
            if correlation_id(&frame).is_some() {
                let _ = decode_response::<ApiVersionsRequest>(frame.clone(), 3);
                let _ = decode_response::<ApiVersionsRequest>(frame, 0);
            }
        }
    });
});
