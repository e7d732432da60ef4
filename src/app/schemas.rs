//! The `:schemas` screen's data (read-only): every version of every subject
//! in the context's schema registry with its id, type, compatibility and
//! references, asked once when the screen opens (again on `r`), kept while
//! the screen is left and come back to; Enter lays a version's schema text
//! out for [`Screen::SchemaVersion`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::browse::format::{Line, Tok, pretty_json};
use crate::schema::subjects::VersionRow;
use crate::untrusted::escaped;

use super::action::Effect;
use super::screen::Screen;
use super::state::AppState;
use super::update::push;

/// A request without an answer for this long is asked again (listing a big
/// registry takes a request per version).
const GIVE_UP: Duration = Duration::from_mins(2);
/// Lines of a schema's text shown at most.
const MAX_LINES: usize = 100_000;

/// What the `:schemas` screen shows.
#[derive(Debug, Default)]
pub struct RegistryStore {
    /// The latest answer: every subject version, or why not.
    pub list: Option<Result<Arc<Vec<VersionRow>>, String>>,
    /// When it landed.
    pub at: Option<Instant>,
    /// The request in flight and when it left.
    pub in_flight: Option<(u64, Instant)>,
    /// The list is wanted again (`r`, or never asked).
    pub stale: bool,
    /// Answers received (rows depend on them).
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
    /// The version open on [`Screen::SchemaVersion`], laid out.
    pub open: Vec<Line>,
}

impl RegistryStore {
    /// Forget the registry (another context), keeping the ids.
    pub fn reset(&mut self) {
        *self = RegistryStore {
            next_id: self.next_id,
            ..RegistryStore::default()
        };
    }

    /// Ask again at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.in_flight = None;
        self.stale = true;
    }

    /// The rows of the latest answer (none while it failed or is asked).
    pub fn rows(&self) -> &[VersionRow] {
        match &self.list {
            Some(Ok(rows)) => rows,
            _ => &[],
        }
    }
}

/// Open the `:schemas` screen (a notice when the context has no registry).
pub fn open(state: &mut AppState, fx: &mut Vec<Effect>) {
    if !state.schemas.enabled {
        state.notice = Some(
            "no schema registry: set [contexts.NAME.schema_registry] url or pass -X schema.registry.url=URL"
                .to_owned(),
        );
        return;
    }
    push(state, Screen::Schemas, None, fx);
}

/// Ask for the list when the `:schemas` screen shows and it is due.
pub fn plan(state: &mut AppState, fx: &mut Vec<Effect>) {
    if state.view().screen != Screen::Schemas || !state.schemas.enabled {
        return;
    }
    let now = state.now;
    let store = &mut state.registry;
    let due = match store.in_flight {
        Some((_, sent)) => now.saturating_duration_since(sent) >= GIVE_UP,
        None => store.list.is_none() || store.stale,
    };
    if !due {
        return;
    }
    store.next_id += 1;
    store.in_flight = Some((store.next_id, now));
    store.stale = false;
    fx.push(Effect::FetchSubjects {
        request: store.next_id,
    });
}

/// Take an answer; a stale one is dropped.
pub fn receive(state: &mut AppState, request: u64, result: Result<Arc<Vec<VersionRow>>, String>) {
    let store = &mut state.registry;
    if store.in_flight.map(|(id, _)| id) != Some(request) {
        return;
    }
    store.in_flight = None;
    store.answers += 1;
    store.list = Some(result);
    store.at = Some(state.now);
}

/// The rows of the `:schemas` screen: every version, filtered by `keep` on
/// subject, type and compatibility.
pub fn build(store: &RegistryStore, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    store
        .rows()
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            keep(&format!(
                "{} {} {}",
                r.subject,
                r.schema_type,
                r.compatibility.as_deref().unwrap_or("")
            ))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Sort `rows` by column `column` of the table.
pub fn sort(store: &RegistryStore, column: usize, rows: &mut Vec<usize>) {
    crate::columns::sort_indices(rows, crate::columns::schemas::table().get(column), |i| {
        store.rows().get(i)
    });
}

/// Enter on a row: lay its schema out and show it.
pub fn select(state: &mut AppState, fx: &mut Vec<Effect>) {
    let view = state.view();
    let Some(row) = view
        .rows
        .get(view.selected)
        .and_then(|&i| state.registry.rows().get(i))
    else {
        return;
    };
    let screen = Screen::SchemaVersion {
        subject: row.subject.clone(),
        version: row.version,
    };
    state.registry.open = lines(row);
    push(state, screen, None, fx);
}

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
