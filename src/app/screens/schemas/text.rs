//! One subject version laid out as text for the schema screen (when Enter
//! opens it, so drawing only colours the lines): what it is, what it
//! references, then its text.

use crate::browse::format::{Line, Tok, pretty_json};
use crate::schema::subjects::VersionRow;
use crate::untrusted::escaped;

/// Lines of a schema's text shown at most.
const MAX_LINES: usize = 100_000;

fn label(text: &str) -> (Tok, String) {
    (Tok::Label, text.to_owned())
}

fn plain(text: String) -> (Tok, String) {
    (Tok::Plain, escaped(text))
}

/// A version laid out: what it is, what it references, then its text
/// (Avro and JSON Schema pretty-printed, Protobuf as registered).
pub fn lines(row: &VersionRow) -> Vec<Line> {
    let mut out = vec![
        vec![
            label("subject   "),
            plain(row.subject.clone()),
            label("   version "),
            plain(if row.latest {
                format!("{} (latest)", row.version)
            } else {
                row.version.to_string()
            }),
        ],
        vec![
            label("id        "),
            plain(row.id.to_string()),
            label("   type "),
            plain(row.schema_type.to_owned()),
            label("   compatibility "),
            plain(
                row.compatibility
                    .clone()
                    .unwrap_or_else(|| "unknown".to_owned()),
            ),
        ],
        vec![label(&format!("references {}", row.references.len()))],
    ];
    for (name, subject, version) in &row.references {
        out.push(vec![
            (Tok::Punct, "  ".to_owned()),
            (Tok::Key, escaped(name.clone())),
            (Tok::Punct, " → ".to_owned()),
            plain(format!("subject '{subject}' version {version}")),
        ]);
    }
    out.push(Vec::new());
    match pretty_json(row.schema.as_bytes(), MAX_LINES) {
        Some(json) => out.extend(json.into_iter().map(|line| {
            line.into_iter()
                .map(|(tok, text)| (tok, escaped(text)))
                .collect()
        })),
        None => out.extend(
            row.schema
                .split('\n')
                .take(MAX_LINES)
                .map(|line| vec![plain(line.to_owned())]),
        ),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_laid_out_with_its_references_and_pretty_text() {
        let row = VersionRow {
            subject: "orders-value".to_owned(),
            version: 2,
            latest: false,
            id: 9,
            schema_type: "avro",
            compatibility: None,
            references: vec![("m.Money".to_owned(), "money".to_owned(), 1)],
            schema: r#"{"type":"record","name":"O","fields":[]}"#.to_owned(),
        };
        let text: Vec<String> = lines(&row)
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
            .collect();
        assert_eq!(text[0], "subject   orders-value   version 2");
        assert!(text[1].contains("compatibility unknown"), "{}", text[1]);
        assert_eq!(text[3], "  m.Money → subject 'money' version 1");
        assert_eq!(text[5], "{");
        assert_eq!(text[6], "  \"type\": \"record\",");
    }
}
