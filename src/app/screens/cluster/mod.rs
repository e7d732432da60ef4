//! The Cluster screen (`:cluster`): the cluster itself — a panel with its
//! id, controller, `KRaft` quorum leader, finalized features and the
//! reassignments in progress, over the quorum's replicas. Asked while the
//! screen shows, every [`INTERVAL`], kept with its age. The store, query,
//! answer and planning are here, the column table in [`columns`], the
//! drawing (rows, panel, age) in `draw.rs`.

pub mod columns;
mod draw;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::inspect::ClusterInfo;
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Module, Seen};
use super::requests::{RequestIds, Requests};

/// How often the Cluster screen's data is re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(5);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// What the screen shows: the cluster's quorum, features and reassignments
/// (one screen: nothing to choose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quorum;

/// A request for the worker: describe the quorum, features and
/// reassignments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        /// Quorum, features and reassignments (each may have failed).
        info: Arc<ClusterInfo>,
    },
}

/// The screen's data: the latest answer with its age and the request
/// bookkeeping (there is one thing to ask for, so it is keyed by `()`).
pub type Store = Requests<(), ClusterInfo>;

/// Replica `index` of the quorum held, as a table row aged to `now_ms`.
fn row(store: &Store, now_ms: i64, index: usize) -> Option<columns::Row<'_>> {
    let quorum = store.held_for(&())?.quorum.as_ref().ok()?;
    Some(columns::Row {
        replica: quorum.replicas.get(index)?,
        now_ms,
    })
}

impl Module for Quorum {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;
    /// Ids, quorum, features and reassignments.
    const PANEL_ROWS: u16 = 6;

    fn title(&self) -> String {
        "cluster: KRaft quorum".to_owned()
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        let request = store.ask(ids, &(), now, (INTERVAL, GIVE_UP))?;
        Some(Query { request })
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        let Msg::Answer { request, info } = msg;
        store.receive(request, info, clock.now);
    }

    fn expire(store: &mut Store) {
        store.expire();
    }

    fn answers(store: &Store) -> u64 {
        store.answers
    }

    /// The quorum's replicas, matched on "NODE ROLE".
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        let Some(Ok(quorum)) = store.held_for(&()).map(|info| &info.quorum) else {
            return Vec::new();
        };
        quorum
            .replicas
            .iter()
            .enumerate()
            .filter(|(_, r)| keep(&format!("{} {}", r.node_id, r.role)))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &Store, clock: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| {
            row(store, clock.now_ms, i)
        });
    }

    fn visible(
        &self,
        store: &Store,
        (clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| row(store, clock.now_ms, i)), theme)
    }

    fn status(&self, store: &Store, now: Instant) -> String {
        draw::status(store.at, now)
    }

    fn draw_panel(&self, frame: &mut Frame, area: Rect, store: &Store, (_, theme): (Clock, &Theme)) {
        draw::panel(frame, area, store.held_for(&()), theme);
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        let info = Arc::new(crate::inspect::cluster_info::describe(&cluster).await);
        Msg::Answer {
            request: query.request,
            info,
        }
    }
}
