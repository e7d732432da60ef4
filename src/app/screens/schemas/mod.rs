//! The schema registry screens (read-only, `:schemas` when the context has
//! a registry): every version of every subject with its id, type,
//! compatibility and references — asked once when the screen opens (again
//! on `r`), kept while the screen is left and come back to — and, Enter on
//! a version, its schema text scrolled line by line (laid out by
//! [`text::lines`] when it is opened). One module showing [`Shown`], which
//! says which; its fetch runs against the context's registry, not the
//! cluster. The column table is in [`columns`], the drawing in `draw.rs`.

pub mod columns;
mod draw;
mod store;
pub mod text;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::app::failure::{Failure, Kind};
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Registry, Seen};
use super::requests::RequestIds;

pub use store::{Listed, Store};

/// A request without an answer for this long is asked again (listing a big
/// registry takes a request per version).
const GIVE_UP: Duration = Duration::from_mins(2);
/// The list is not re-read by itself: only `r` asks again.
const NEVER: Duration = Duration::MAX;

/// What a schema screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Every version of every subject (`:schemas`).
    Subjects,
    /// One subject version's schema text.
    Version {
        /// The subject.
        subject: String,
        /// The version.
        version: i32,
    },
}

/// A request for the worker: list every version of every subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Request id.
    pub request: u64,
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the [`Query`] with this request id.
    Answer {
        /// The request id it answers.
        request: u64,
        /// Every subject version, or why not.
        result: Arc<Listed>,
    },
}

impl Module for Shown {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Registry;

    fn drillable(&self) -> bool {
        *self == Shown::Subjects
    }

    fn title(&self) -> String {
        match self {
            Shown::Subjects => "schema registry subjects".to_owned(),
            Shown::Version { subject, version } => {
                format!("schema '{subject}' version {version}")
            }
        }
    }

    fn headers(&self) -> Vec<&'static str> {
        match self {
            Shown::Subjects => crate::columns::headers(&columns::table()),
            Shown::Version { .. } => vec![""],
        }
    }

    /// The list, on the list's screen, when never asked or `r` was pressed.
    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        if *self != Shown::Subjects {
            return None;
        }
        let request = store.list.ask(ids, &(), now, (NEVER, GIVE_UP))?;
        Some(Query { request })
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        let Msg::Answer { request, result } = msg;
        store.list.receive(request, result, clock.now);
    }

    fn expire(store: &mut Store) {
        store.list.expire();
    }

    fn answers(store: &Store) -> u64 {
        store.list.answers
    }

    /// Every version, filtered on subject, type and compatibility.
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        if *self != Shown::Subjects {
            return Vec::new();
        }
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

    fn sort(&self, store: &Store, _: Clock, column: usize, rows: &mut Vec<usize>) {
        if *self == Shown::Subjects {
            crate::columns::sort_indices(rows, columns::table().get(column), |i| {
                store.rows().get(i)
            });
        }
    }

    fn visible(
        &self,
        store: &Store,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| store.rows().get(i)), theme)
    }

    fn status(&self, store: &Store, now: Instant) -> String {
        draw::status(store, now)
    }

    /// A version: its text laid out, then shown.
    fn enter(&self, store: &mut Store, index: usize) -> Option<Goto<Self>> {
        if *self != Shown::Subjects {
            return None;
        }
        let row = store.rows().get(index)?;
        let shown = Shown::Version {
            subject: row.subject.clone(),
            version: row.version,
        };
        store.open = text::lines(row);
        Some(Goto::Own(shown))
    }

    fn is_text(&self) -> bool {
        matches!(self, Shown::Version { .. })
    }

    fn text_lines(&self, store: &Store) -> usize {
        store.open.len()
    }

    fn draw_text(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Store,
        view: (usize, &str),
        theme: &Theme,
    ) {
        draw::version(frame, area, &store.open, view, theme);
    }

    async fn fetch(registry: Registry, query: Query) -> Msg {
        let Query { request } = query;
        let result = match registry {
            Err(error) => Err(error),
            Ok(client) => tokio::task::spawn_blocking(move || {
                crate::schema::subjects::all_versions(&client)
            })
            .await
            .map_err(|e| Failure::new(Kind::Final, format!("listing subjects: {e}")))
            .and_then(|listed| listed.map_err(Failure::from)),
        };
        Msg::Answer {
            request,
            result: Arc::new(result),
        }
    }
}
