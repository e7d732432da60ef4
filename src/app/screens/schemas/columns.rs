//! The `:schemas` screen's table: one row per version of each subject in
//! the schema registry (read-only).

use crate::columns::Column;
use crate::schema::subjects::VersionRow;

/// One version of one subject.
pub type Row<'a> = &'a VersionRow;

/// The columns: subject, version (`*` on the latest), schema id, type,
/// the subject's compatibility level, and how many schemas it references.
pub fn table<'a>() -> [Column<Row<'a>>; 6] {
    [
        Column::fill(
            "SUBJECT",
            (1, 12),
            |r| r.subject.clone(),
            Some(|a, b| a.subject.cmp(&b.subject).then(a.version.cmp(&b.version))),
        ),
        Column::number(
            "VERSION",
            |r| {
                if r.latest {
                    format!("{}*", r.version)
                } else {
                    r.version.to_string()
                }
            },
            |a, b| a.version.cmp(&b.version),
        ),
        Column::number("ID", |r| r.id.to_string(), |a, b| a.id.cmp(&b.id)),
        Column::text(
            "TYPE",
            (4, 10),
            |r| r.schema_type.to_owned(),
            Some(|a, b| a.schema_type.cmp(b.schema_type)),
        ),
        Column::text(
            "COMPATIBILITY",
            (13, 19),
            |r| r.compatibility.clone().unwrap_or_else(|| "-".to_owned()),
            Some(|a, b| a.compatibility.cmp(&b.compatibility)),
        ),
        Column::number(
            "REFS",
            |r| r.references.len().to_string(),
            |a, b| a.references.len().cmp(&b.references.len()),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn version_row() {
        let row = VersionRow {
            subject: "orders-value".to_owned(),
            version: 3,
            latest: true,
            id: 17,
            schema_type: "avro",
            compatibility: Some("BACKWARD".to_owned()),
            references: vec![("m.proto".to_owned(), "m".to_owned(), 1)],
            schema: "{}".to_owned(),
        };
        assert_eq!(
            cells(&table(), &&row),
            ["orders-value", "3*", "17", "avro", "BACKWARD", "1"]
        );
    }
}
