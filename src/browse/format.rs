//! How a record's bytes are shown: detected as JSON, UTF-8 text or binary
//! (or forced with `:format`), with the Confluent wire prefix (magic byte 0
//! and a 4-byte schema id) recognised. Everything here returns plain text
//! and token kinds; escaping for the terminal is the caller's
//! ([`crate::untrusted`]), colouring is the UI's.

/// How the user asked values to be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Detected per record.
    #[default]
    Auto,
    /// As UTF-8 text (invalid sequences replaced).
    Text,
    /// As JSON when it parses, else as text.
    Json,
    /// As hex and ASCII.
    Hex,
    /// Decoded through the schema registry, expecting Avro.
    Avro,
    /// Decoded through the schema registry, expecting Protobuf.
    Protobuf,
    /// Decoded through the schema registry, expecting JSON Schema.
    JsonSchema,
}

impl Format {
    /// Read `auto`, `text`, `json`, `hex`, `avro`, `protobuf` or `jsonschema`.
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "auto" => Some(Format::Auto),
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "hex" | "binary" => Some(Format::Hex),
            "avro" => Some(Format::Avro),
            "protobuf" | "proto" => Some(Format::Protobuf),
            "jsonschema" => Some(Format::JsonSchema),
            _ => None,
        }
    }

    /// Whether values are decoded through the schema registry when framed
    /// (auto and the three schema formats; text, json and hex show bytes).
    pub fn decodes(self) -> bool {
        matches!(
            self,
            Format::Auto | Format::Avro | Format::Protobuf | Format::JsonSchema
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Text => "text",
            Format::Json => "json",
            Format::Hex => "hex",
            Format::Avro => "avro",
            Format::Protobuf => "protobuf",
            Format::JsonSchema => "jsonschema",
        }
    }
}

/// What bytes were found to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A JSON object or array.
    Json,
    /// UTF-8 text.
    Text,
    /// Anything else.
    Binary,
}

impl Kind {
    /// `json`, `text` or `binary`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Json => "json",
            Kind::Text => "text",
            Kind::Binary => "binary",
        }
    }
}

/// The schema id of a Confluent-framed value (magic byte 0, then a
/// big-endian 4-byte id, then the payload). Ids at or above 2^24 are taken
/// for binary that happens to start with 0, not a frame.
pub fn schema_id(bytes: &[u8]) -> Option<u32> {
    match bytes {
        [0, 0, b, c, d, _, ..] => Some(u32::from_be_bytes([0, *b, *c, *d])),
        _ => None,
    }
}

/// What `bytes` are.
pub fn detect(bytes: &[u8]) -> Kind {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Kind::Binary;
    };
    let first = text.trim_start().as_bytes().first();
    if matches!(first, Some(b'{' | b'[')) && is_json(bytes) {
        return Kind::Json;
    }
    // Other control characters are shown escaped, as text; NUL rarely
    // belongs to text.
    if text.contains('\0') {
        return Kind::Binary;
    }
    Kind::Text
}

fn is_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
}

/// What the payload of a Confluent frame is: JSON (JSON Schema) or
/// binary (Avro, Protobuf), never text.
pub fn framed_kind(payload: &[u8]) -> Kind {
    match detect(payload) {
        Kind::Json => Kind::Json,
        Kind::Text | Kind::Binary => Kind::Binary,
    }
}

/// How `bytes` are shown under `format`.
pub fn kind_under(bytes: &[u8], format: Format) -> Kind {
    match format {
        Format::Auto | Format::Avro | Format::Protobuf | Format::JsonSchema => detect(bytes),
        Format::Json if is_json(bytes) => Kind::Json,
        Format::Text | Format::Json => Kind::Text,
        Format::Hex => Kind::Binary,
    }
}

/// The longest prefix of `bytes` of at most `max` bytes that ends on a
/// character boundary, as text (invalid sequences replaced).
fn text_prefix(bytes: &[u8], max: usize) -> String {
    let cut = &bytes[..bytes.len().min(max)];
    match std::str::from_utf8(cut) {
        Ok(text) => text.to_owned(),
        Err(e) if e.error_len().is_none() => {
            String::from_utf8_lossy(&cut[..e.valid_up_to()]).into_owned()
        }
        Err(_) => String::from_utf8_lossy(cut).into_owned(),
    }
}

/// `0a 1b ff` for up to `max` bytes, `…` when there are more.
pub fn hex_preview(bytes: &[u8], max: usize) -> String {
    let mut out: Vec<String> = bytes.iter().take(max).map(|b| format!("{b:02x}")).collect();
    if bytes.len() > max {
        out.push("…".to_owned());
    }
    out.join(" ")
}

/// One line of at most about `max` characters showing `value` (`None` is a
/// tombstone): JSON with its whitespace collapsed, text as it is (the
/// caller escapes), binary as hex; a Confluent frame starts `[schema N]`.
pub fn preview(value: Option<&[u8]>, format: Format, max: usize) -> String {
    let Some(bytes) = value else {
        return "(tombstone)".to_owned();
    };
    if let Some(id) = schema_id(bytes).filter(|_| format.decodes()) {
        let payload = &bytes[5..];
        let body = match framed_kind(payload) {
            Kind::Json => collapse(&text_prefix(payload, max * 8), max),
            Kind::Binary | Kind::Text => hex_preview(payload, max / 3),
        };
        return format!("[schema {id}] {body}");
    }
    match kind_under(bytes, format) {
        Kind::Binary => hex_preview(bytes, max / 3),
        Kind::Text => text_prefix(bytes, max * 4),
        Kind::Json => collapse(&text_prefix(bytes, max * 8), max),
    }
}

/// JSON text on one line: runs of whitespace outside strings become one
/// space (or none next to punctuation), cut after `max` characters.
fn collapse(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(max.min(text.len()));
    let (mut in_string, mut escaped, mut space) = (false, false, false);
    let mut shown = 0;
    for c in text.chars() {
        if shown >= max {
            break;
        }
        if in_string {
            out.push(c);
            shown += 1;
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !matches!(c, '}' | ']' | ',' | ':') && !out.ends_with(['{', '[', ':', ',']) {
            out.push(' ');
            shown += 1;
        }
        space = false;
        in_string = c == '"';
        out.push(c);
        shown += 1;
    }
    out
}

/// The role of a piece of text in a shown record (the UI colours by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// Ordinary text.
    Plain,
    /// A label in the metadata or a section title.
    Label,
    /// Secondary text (offsets in a hex dump, notes).
    Dim,
    /// A JSON object key.
    Key,
    /// A JSON string.
    Str,
    /// A JSON number.
    Num,
    /// `true`, `false`, `null`.
    Lit,
    /// JSON punctuation and indentation.
    Punct,
}

/// A line of pieces.
pub type Line = Vec<(Tok, String)>;

/// `bytes` (valid JSON) pretty-printed with two-space indentation, keys in
/// their original order, each piece tagged for colouring; at most
/// `max_lines` lines. `None` when `bytes` is not JSON.
pub fn pretty_json(bytes: &[u8], max_lines: usize) -> Option<Vec<Line>> {
    if !is_json(bytes) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let mut printer = Printer::default();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if printer.lines.len() >= max_lines {
            break;
        }
        match c {
            c if c.is_whitespace() => {}
            '{' | '[' => {
                printer.push(Tok::Punct, c.to_string());
                let close = if c == '{' { '}' } else { ']' };
                let next = text[at + 1..].trim_start();
                if next.starts_with(close) {
                    printer.push(Tok::Punct, close.to_string());
                    let skip = text.len() - next.len() + 1;
                    while chars.peek().is_some_and(|(i, _)| *i < skip) {
                        chars.next();
                    }
                } else {
                    printer.depth += 1;
                    printer.newline();
                }
            }
            '}' | ']' => {
                printer.depth = printer.depth.saturating_sub(1);
                printer.newline();
                printer.push(Tok::Punct, c.to_string());
            }
            ',' => {
                printer.push(Tok::Punct, ",".to_owned());
                printer.newline();
            }
            ':' => printer.push(Tok::Punct, ": ".to_owned()),
            '"' => {
                let mut end = at + 1;
                let mut escaped = false;
                for (i, c) in chars.by_ref() {
                    end = i + c.len_utf8();
                    match (escaped, c) {
                        (true, _) => escaped = false,
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => {}
                    }
                }
                let is_key = text[end..].trim_start().starts_with(':');
                let tok = if is_key { Tok::Key } else { Tok::Str };
                printer.push(tok, text[at..end].to_owned());
            }
            _ => {
                let mut end = at + c.len_utf8();
                while let Some((i, c)) = chars
                    .next_if(|(_, c)| !matches!(c, ',' | ']' | '}' | ':') && !c.is_whitespace())
                {
                    end = i + c.len_utf8();
                }
                let word = &text[at..end];
                let tok = if matches!(word, "true" | "false" | "null") {
                    Tok::Lit
                } else {
                    Tok::Num
                };
                printer.push(tok, word.to_owned());
            }
        }
    }
    printer.newline();
    printer.lines.truncate(max_lines);
    Some(printer.lines)
}

#[derive(Default)]
struct Printer {
    lines: Vec<Line>,
    line: Line,
    depth: usize,
}

impl Printer {
    fn push(&mut self, tok: Tok, text: String) {
        if self.line.is_empty() && self.depth > 0 {
            self.line.push((Tok::Punct, "  ".repeat(self.depth)));
        }
        self.line.push((tok, text));
    }

    fn newline(&mut self) {
        if !self.line.is_empty() {
            self.lines.push(std::mem::take(&mut self.line));
        }
    }
}

/// A hex dump of `bytes`: 16 a line, offset, hex, and printable ASCII (`.`
/// for the rest); at most `max_lines` lines.
pub fn hex_dump(bytes: &[u8], max_lines: usize) -> Vec<Line> {
    bytes
        .chunks(16)
        .take(max_lines)
        .enumerate()
        .map(|(i, chunk)| {
            let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
            let ascii: String = chunk
                .iter()
                .map(|&b| {
                    if b.is_ascii_graphic() || b == b' ' {
                        char::from(b)
                    } else {
                        '.'
                    }
                })
                .collect();
            vec![
                (Tok::Dim, format!("{:08x}  ", i * 16)),
                (Tok::Plain, format!("{:<48}", hex.join(" "))),
                (Tok::Dim, format!(" |{ascii}|")),
            ]
        })
        .collect()
}

/// A record time (`ms` since the epoch) at `offset_secs` from UTC to the
/// millisecond, date and time `sep`arated, `zone` after (`T` and `Z` make
/// RFC 3339 in UTC); `None` for a negative (unknown) or unrepresentable
/// time.
pub fn datetime(ms: i64, offset_secs: i32, sep: char, zone: &str) -> Option<String> {
    use time::{OffsetDateTime, UtcOffset};
    if ms < 0 {
        return None;
    }
    let offset = UtcOffset::from_whole_seconds(offset_secs).unwrap_or(UtcOffset::UTC);
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()?
        .to_offset(offset);
    Some(format!(
        "{:04}-{:02}-{:02}{sep}{:02}:{:02}:{:02}.{:03}{zone}",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
            .collect()
    }

    #[test]
    fn detects_json_text_and_binary() {
        assert_eq!(detect(br#"{"a": 1}"#), Kind::Json);
        assert_eq!(detect(b" [1, 2]"), Kind::Json);
        assert_eq!(detect(b"{not json"), Kind::Text);
        assert_eq!(detect(b"hello\nworld"), Kind::Text);
        assert_eq!(detect(b"\xff\xfe"), Kind::Binary);
        assert_eq!(detect(b"nul\0inside"), Kind::Binary);
        assert_eq!(schema_id(b"\0\0\0\0\x07payload"), Some(7));
        assert_eq!(schema_id(b"\0\0\0\0\x07"), None);
        assert_eq!(schema_id(b"plain"), None);
        assert_eq!(schema_id(b"\0\x01\x02\x03\x04rest"), None, "id past 2^24");
        assert_eq!(detect(b"clear\x1b[2J"), Kind::Text, "escaped when drawn");
    }

    #[test]
    fn previews_fit_one_line() {
        let json = b"{\n  \"id\": 7,\n  \"name\": \"a  b\",\n  \"tags\": [1, 2]\n}";
        assert_eq!(
            preview(Some(json), Format::Auto, 80),
            r#"{"id":7,"name":"a  b","tags":[1,2]}"#
        );
        assert_eq!(preview(None, Format::Auto, 80), "(tombstone)");
        assert_eq!(preview(Some(b"\x01\x00"), Format::Auto, 80), "01 00");
        assert_eq!(preview(Some(b"abc"), Format::Hex, 80), "61 62 63");
        assert_eq!(
            preview(Some(b"\0\0\0\0\x2a\x02\x06abc"), Format::Auto, 80),
            "[schema 42] 02 06 61 62 63"
        );
        assert_eq!(preview(Some(&[b'x'; 100]), Format::Hex, 6), "78 78 …");
        // A multi-byte character is never cut in half.
        assert_eq!(preview(Some("注文".as_bytes()), Format::Text, 1), "注");
    }

    #[test]
    fn pretty_json_keeps_key_order_and_tags_tokens() {
        let lines =
            pretty_json(br#"{"b":1,"a":[true,null,"x"],"e":{},"f":[]}"#, 100).expect("json");
        assert_eq!(
            flat(&lines),
            [
                "{",
                r#"  "b": 1,"#,
                r#"  "a": ["#,
                "    true,",
                "    null,",
                r#"    "x""#,
                "  ],",
                r#"  "e": {},"#,
                r#"  "f": []"#,
                "}",
            ]
        );
        assert_eq!(lines[1][1], (Tok::Key, "\"b\"".to_owned()));
        assert_eq!(lines[1][3], (Tok::Num, "1".to_owned()));
        assert_eq!(lines[3][1], (Tok::Lit, "true".to_owned()));
        assert!(pretty_json(b"{oops", 10).is_none());
        assert_eq!(pretty_json(b"[1,2,3]", 2).map(|l| l.len()), Some(2));
        let escaped = pretty_json(br#"{"k\"ey":"v\\"}"#, 10).expect("json");
        assert_eq!(flat(&escaped)[1], r#"  "k\"ey": "v\\""#);
    }

    #[test]
    fn hex_dump_shows_offsets_and_ascii() {
        let dump = hex_dump(b"0123456789abcdef\x00z", 10);
        let text = flat(&dump);
        assert_eq!(text.len(), 2);
        assert!(text[0].starts_with("00000000  30 31"), "{}", text[0]);
        assert!(text[1].ends_with(" |.z|"), "{}", text[1]);
    }
}
