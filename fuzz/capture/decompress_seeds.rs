//! Write the seeds of the `decompress_*` targets: records sections (a few
//! records with keys, values and headers; one 40 KB value; 40 records; none)
//! compressed with each codec's real encoder, in the framings Kafka writes
//! and a few it may meet (multi-member gzip, raw snappy and xerial with
//! small blocks, linked LZ4 blocks and 4 MiB blocks, zstd with a checksum).
//!
//! `cargo run --manifest-path fuzz/Cargo.toml --bin decompress_seeds -- fuzz/corpus`
//!
//! Each file is what the target reads (`kscope_fuzz::decode_compressed`):
//! the control byte (the record count; for xerial snappy its top bit, the
//! stream header left out since the target prepends it), then the
//! compressed bytes.

use std::io::Write;
use std::path::Path;

fn varint(out: &mut Vec<u8>, v: i64) {
    let mut z = (v << 1 ^ v >> 63).cast_unsigned();
    loop {
        let b = u8::try_from(z & 0x7f).unwrap_or(0);
        z >>= 7;
        if z == 0 {
            out.push(b);
            break;
        }
        out.push(b | 0x80);
    }
}

fn len(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn bytes(out: &mut Vec<u8>, b: Option<&[u8]>) {
    match b {
        None => varint(out, -1),
        Some(b) => {
            varint(out, len(b.len()));
            out.extend_from_slice(b);
        }
    }
}

type Headers<'a> = &'a [(&'a [u8], Option<&'a [u8]>)];

/// One v2 record at offset delta `i`.
fn record(out: &mut Vec<u8>, i: i64, key: Option<&[u8]>, value: Option<&[u8]>, headers: Headers) {
    let mut body = vec![0u8];
    varint(&mut body, i * 10);
    varint(&mut body, i);
    bytes(&mut body, key);
    bytes(&mut body, value);
    varint(&mut body, len(headers.len()));
    for (k, v) in headers {
        bytes(&mut body, Some(k));
        bytes(&mut body, *v);
    }
    varint(out, len(body.len()));
    out.extend_from_slice(&body);
}

/// (name, record count, records section)
fn sections() -> Vec<(&'static str, u8, Vec<u8>)> {
    let mut small = Vec::new();
    record(
        &mut small,
        0,
        Some(b"order-1"),
        Some(br#"{"id":1,"item":"book","qty":2}"#),
        &[(b"trace", Some(b"abc123"))],
    );
    record(&mut small, 1, None, Some(b"hello kafka"), &[]);
    record(
        &mut small,
        2,
        Some(b"tombstone"),
        None,
        &[(b"k", None), (b"k", Some(b"dup"))],
    );
    let mut big = Vec::new();
    let value: Vec<u8> = (0..40_000u32)
        .map(|i| b"abcdefghij"[(i % 10) as usize] ^ u8::from((i / 997) % 2 == 1))
        .collect();
    record(&mut big, 0, Some(b"big"), Some(&value), &[]);
    let mut many = Vec::new();
    for i in 0..40 {
        let v = format!("value number {i} of many, {}", "x".repeat(i));
        let k = format!("k{i}");
        record(
            &mut many,
            len(i),
            Some(k.as_bytes()),
            Some(v.as_bytes()),
            &[],
        );
    }
    vec![
        ("small", 3, small),
        ("big", 1, big),
        ("many", 40, many),
        ("empty", 0, Vec::new()),
    ]
}

fn write(dir: &Path, name: &str, control: u8, payload: &[u8]) {
    std::fs::create_dir_all(dir).expect("corpus directory");
    let mut out = vec![control];
    out.extend_from_slice(payload);
    std::fs::write(dir.join(name), out).expect("seed written");
}

fn gzip(data: &[u8], level: u32) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    gz.write_all(data).expect("gzip");
    gz.finish().expect("gzip")
}

fn lz4(data: &[u8], linked: bool, checksum: bool, size: lz4::BlockSize) -> Vec<u8> {
    let mut encoder = lz4::EncoderBuilder::new()
        .block_size(size)
        .block_mode(if linked {
            lz4::BlockMode::Linked
        } else {
            lz4::BlockMode::Independent
        })
        .checksum(if checksum {
            lz4::ContentChecksum::ChecksumEnabled
        } else {
            lz4::ContentChecksum::NoChecksum
        })
        .build(Vec::new())
        .expect("lz4");
    encoder.write_all(data).expect("lz4");
    let (out, done) = encoder.finish();
    done.expect("lz4");
    out
}

/// xerial blocks of at most `chunk` input bytes, without the stream header.
fn xerial_blocks(data: &[u8], chunk: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = snap::raw::Encoder::new();
    for c in data.chunks(chunk) {
        let block = encoder.compress_vec(c).expect("snappy");
        out.extend_from_slice(&u32::try_from(block.len()).expect("block").to_be_bytes());
        out.extend_from_slice(&block);
    }
    out
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corpus".to_owned());
    let root = Path::new(&root);
    let (gz, sn, l4, zs) = (
        root.join("decompress_gzip"),
        root.join("decompress_snappy"),
        root.join("decompress_lz4"),
        root.join("decompress_zstd"),
    );
    for (name, count, s) in sections() {
        write(&gz, &format!("seed-{name}-fast"), count, &gzip(&s, 1));
        write(&gz, &format!("seed-{name}-best"), count, &gzip(&s, 9));
        let l1 = zstd::encode_all(&s[..], 1).expect("zstd");
        write(&zs, &format!("seed-{name}-l1"), count, &l1);
        let l19 = zstd::encode_all(&s[..], 19).expect("zstd");
        write(&zs, &format!("seed-{name}-l19"), count, &l19);
        let raw = snap::raw::Encoder::new().compress_vec(&s).expect("snappy");
        write(&sn, &format!("seed-{name}-raw"), count, &raw);
        let xerial = xerial_blocks(&s, 32 * 1024);
        write(&sn, &format!("seed-{name}-xerial"), count | 0x80, &xerial);
        let independent = lz4(&s, false, true, lz4::BlockSize::Max64KB);
        write(
            &l4,
            &format!("seed-{name}-independent"),
            count,
            &independent,
        );
        let linked = lz4(&s, true, false, lz4::BlockSize::Max64KB);
        write(&l4, &format!("seed-{name}-linked"), count, &linked);
    }
    let (_, count, many) = sections().swap_remove(2);
    let mut members = gzip(&many[..many.len() / 2], 6);
    members.extend_from_slice(&gzip(&many[many.len() / 2..], 6));
    write(&gz, "seed-many-two-members", count, &members);
    let small_blocks = xerial_blocks(&many, 200);
    write(
        &sn,
        "seed-many-xerial-small-blocks",
        count | 0x80,
        &small_blocks,
    );
    let big_blocks = lz4(&many, false, false, lz4::BlockSize::Max4MB);
    write(&l4, "seed-many-4mib-blocks", count, &big_blocks);
    let mut checked = zstd::stream::Encoder::new(Vec::new(), 3).expect("zstd");
    checked.include_checksum(true).expect("zstd");
    checked.write_all(&many).expect("zstd");
    write(
        &zs,
        "seed-many-checksum",
        count,
        &checked.finish().expect("zstd"),
    );
}
