//! JSON text as `serde_json` writes it, without building values: numbers,
//! and strings escaped with a table and copied in plain runs found eight
//! bytes at a time. The record writer (`super::json`) and the `decoded`
//! objects of Kafka's own records (`super::internal`) both write with it.

/// Append integer `n`.
pub(crate) fn number(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// What a byte becomes inside a JSON string, as `serde_json` writes it: 0 as
/// it is, `u` as `\u00XX`, any other as a backslash and that character.
static ESCAPE: [u8; 256] = {
    let mut table = [0_u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// UTF-8 text as a JSON string, escaped in one pass: runs of plain bytes are
/// found eight at a time ([`plain_run`]) and copied whole.
pub(crate) fn string(out: &mut Vec<u8>, text: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(text.len() + 2);
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    loop {
        i += plain_run(&text[i..]);
        let Some(&b) = text.get(i) else { break };
        out.extend_from_slice(&text[start..i]);
        let escape = ESCAPE[usize::from(b)];
        if escape == b'u' {
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]]);
        } else {
            out.extend_from_slice(&[b'\\', escape]);
        }
        i += 1;
        start = i;
    }
    out.extend_from_slice(&text[start..]);
    out.push(b'"');
}

/// How many bytes at the start of `text` need no escaping (no control
/// character, quote or backslash), tested a word of eight bytes at a time:
/// JSON escaping a byte at a time was a quarter of `consume -o json`'s CPU.
/// The first word holding such a byte says where it is (the lowest byte its
/// mask flags), so a run ended by a quote costs no byte-by-byte search.
fn plain_run(text: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// The high bit of each byte of `word` that is zero. Exact for the
    /// lowest such byte; a byte above a zero byte may be flagged falsely
    /// (the borrow), which the lowest set bit never is.
    const fn zeros(word: u64) -> u64 {
        word.wrapping_sub(ONES) & !word & HIGH
    }
    let mut at = 0;
    while let Some(chunk) = text.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // A byte below 0x20: subtracting 0x20 borrows into its high bit,
        // which the byte itself did not have (exact for the lowest, too).
        let flagged = word.wrapping_sub(0x20 * ONES) & !word & HIGH
            | zeros(word ^ (u64::from(b'"') * ONES))
            | zeros(word ^ (u64::from(b'\\') * ONES));
        if flagged != 0 {
            // Little-endian: the lowest set bit is the first byte flagged.
            return at + (flagged.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + text[at..]
        .iter()
        .take_while(|b| ESCAPE[usize::from(**b)] == 0)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_run_ends_exactly_at_the_first_byte_to_escape() {
        let naive = |text: &[u8]| {
            text.iter()
                .take_while(|b| ESCAPE[usize::from(**b)] == 0)
                .count()
        };
        // Fillers next to the edges of the tests: just above a control byte,
        // around the quote and the backslash, and with the high bit set.
        let fillers = [0x20_u8, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa0, 0xff];
        for filler in fillers {
            for stop in [0x00_u8, 0x01, 0x1f, b'"', b'\\'] {
                for at in 0..20 {
                    let mut text = vec![filler; 24];
                    text[at] = stop;
                    // A second byte to escape later must not move the first.
                    text[(at + 3).min(23)] = 0x00;
                    assert_eq!(
                        plain_run(&text),
                        naive(&text),
                        "{filler:#x} {stop:#x} at {at}"
                    );
                }
            }
            assert_eq!(plain_run(&[filler; 19]), 19);
        }
    }

    #[test]
    fn random_texts_are_escaped_exactly_as_serde_json_escapes_them() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let pieces = [
            "plain text ",
            "\"",
            "\\",
            "\n",
            "\u{1}",
            "\u{1f}",
            "é中🚀",
            "\u{7f}",
            "x",
        ];
        for _ in 0..5_000 {
            let text: String = (0..rng.random_range(0..40))
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect();
            let mut ours = Vec::new();
            string(&mut ours, text.as_bytes());
            let theirs = serde_json::to_vec(&text).expect("serialised");
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "{text:?}"
            );
        }
    }

    #[test]
    fn strings_are_escaped_exactly_as_serde_json_escapes_them() {
        let every_byte: String = (0_u8..=0x7f).map(char::from).collect();
        for text in [
            every_byte.as_str(),
            "",
            "plain",
            "q\"uote\\back\u{1b}[31m\u{202e}é中🚀\u{7f}",
        ] {
            let mut ours = Vec::new();
            string(&mut ours, text.as_bytes());
            let theirs = serde_json::to_vec(text).expect("serialised");
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs)
            );
        }
    }
}
