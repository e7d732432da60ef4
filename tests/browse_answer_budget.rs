//! Memory is bounded per fetch answer, not only per batch: the real binary
//! against a fake peer (not a Kafka broker) that answers one `Fetch` with 16
//! well-formed gzip batches of one 32 MiB record each (about 0.5 MB on the
//! wire, 512 MiB inflated). `kscope consume t -n 1`, and reading all 16,
//! print every value exactly and peak under 150 MB of RSS (the answer used
//! to be inflated whole: 863 MB).
#![cfg(all(target_os = "linux", target_env = "gnu"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fetch_peer;

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

use bytes::{Bytes, BytesMut};
use fetch_peer::FetchPeer;
use kscope::conn::protocol::indexmap::IndexMap;
use kscope::conn::protocol::records::{
    Compression, Record, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

/// Records in the answer, one per batch.
const RECORDS: u8 = 16;
/// Each record's value.
const VALUE: usize = 32 << 20;
/// The peak RSS allowed, in KiB (150 MB).
const PEAK_KIB: u64 = 150_000_000 / 1024;

/// Record `i`'s value: runs of 4 KiB of one letter (gzip packs it ~1000:1),
/// the letters shifted by `i`, so each value is its own and never holds a
/// newline.
fn value(i: u8) -> Vec<u8> {
    let mut value = Vec::with_capacity(VALUE);
    for run in 0..VALUE / 4096 {
        let letter = b'a' + u8::try_from((run + usize::from(i)) % 26).unwrap();
        value.resize(value.len() + 4096, letter);
    }
    value
}

/// The 16 gzip batches, one record each, and each value's (length, CRC-32C),
/// built once for every test.
fn answer() -> &'static (Bytes, Vec<(usize, u32)>) {
    static ANSWER: OnceLock<(Bytes, Vec<(usize, u32)>)> = OnceLock::new();
    ANSWER.get_or_init(build_answer)
}

fn build_answer() -> (Bytes, Vec<(usize, u32)>) {
    let mut all = BytesMut::new();
    let mut expected = Vec::new();
    for i in 0..RECORDS {
        let value = value(i);
        expected.push((value.len(), crc32c::crc32c(&value)));
        let record = Record {
            transactional: false,
            control: false,
            delete_horizon: false,
            partition_leader_epoch: 0,
            producer_id: -1,
            producer_epoch: -1,
            timestamp_type: TimestampType::Creation,
            offset: i64::from(i),
            sequence: -1,
            timestamp: 1_700_000_000_000 + i64::from(i),
            key: None,
            value: Some(Bytes::from(value)),
            headers: IndexMap::new(),
        };
        RecordBatchEncoder::encode(
            &mut all,
            [&record],
            &RecordEncodeOptions {
                version: 2,
                compression: Compression::Gzip,
            },
        )
        .expect("encode a batch");
    }
    (all.freeze(), expected)
}

/// Wait for `child` (reaping it) and return its exit status and peak RSS
/// in KiB, from `wait4`'s resource usage of that one process.
#[allow(unsafe_code)]
fn wait_with_peak(child: &Child) -> (i32, u64) {
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    let mut status = 0;
    // SAFETY: `rusage` is plain integers, for which all zeroes is valid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are to live locals; `pid` is our own child, not
    // waited for by anything else.
    let reaped = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(reaped, pid, "wait4");
    (status, u64::try_from(usage.ru_maxrss).expect("maxrss"))
}

/// Run `kscope consume t --from beginning -o raw` (plus `extra`) against
/// `peer`: the (length, CRC-32C) of each value printed, its peak RSS in
/// KiB, and its stderr.
#[allow(clippy::zombie_processes)] // reaped by `wait4` in `wait_with_peak`
fn consume(peer: &FetchPeer, extra: &[&str]) -> (Vec<(usize, u32)>, u64, String) {
    let home = tempfile::tempdir().expect("home");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .arg("-b")
        .arg(&peer.address)
        .args(["consume", "t", "--from", "beginning", "-o", "raw"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kscope");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let values = std::thread::spawn(move || {
        // Each value ends in a newline (values hold none): hash line by line
        // without keeping 32 MiB lines.
        let mut values = Vec::new();
        let (mut len, mut crc) = (0usize, 0u32);
        let mut chunk = vec![0; 1 << 16];
        loop {
            let n = stdout.read(&mut chunk).expect("read stdout");
            if n == 0 {
                break;
            }
            for piece in chunk[..n].split_inclusive(|b| *b == b'\n') {
                if let Some((b'\n', line)) = piece.split_last() {
                    values.push((len + line.len(), crc32c::crc32c_append(crc, line)));
                    (len, crc) = (0, 0);
                } else {
                    len += piece.len();
                    crc = crc32c::crc32c_append(crc, piece);
                }
            }
        }
        assert_eq!(len, 0, "output ends inside a value");
        values
    });
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).expect("read stderr");
        text
    });
    let (status, peak) = wait_with_peak(&child);
    let values = values.join().expect("stdout reader");
    let errors = errors.join().expect("stderr reader");
    assert_eq!(status, 0, "kscope failed (wait status {status}): {errors}");
    (values, peak, errors)
}

fn peer(answer: &Bytes) -> FetchPeer {
    let answer = answer.clone();
    FetchPeer::start(i64::from(RECORDS), move |_| {
        (i64::from(RECORDS), answer.clone())
    })
}

#[test]
fn one_record_of_an_answer_of_sixteen_32_mib_gzip_batches_stays_under_150_mb() {
    let (answer, expected) = answer();
    assert!(answer.len() < 1 << 20, "{} bytes on the wire", answer.len());
    let peer = peer(answer);
    let (values, peak, errors) = consume(&peer, &["-n", "1"]);
    eprintln!("consume -n 1: peak RSS {peak} KiB; {errors}");
    assert_eq!(values, expected[..1], "the first value, exact");
    assert!(
        peak < PEAK_KIB,
        "peak RSS {peak} KiB (limit {PEAK_KIB} KiB)"
    );
}

#[test]
fn all_sixteen_32_mib_records_of_one_answer_stay_under_150_mb() {
    let (answer, expected) = answer();
    let peer = peer(answer);
    let (values, peak, errors) = consume(&peer, &[]);
    eprintln!("consume (all 16): peak RSS {peak} KiB; {errors}");
    assert_eq!(&values, expected, "every value, exact, once, in order");
    assert!(
        peak < PEAK_KIB,
        "peak RSS {peak} KiB (limit {PEAK_KIB} KiB)"
    );
}
