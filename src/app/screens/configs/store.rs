//! The config store: every resource's configs as last answered, the
//! summaries of the topics the Topics and Partitions screens show, and the
//! one batched `DescribeConfigs` in flight for both (see the module docs).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::app::failure::Failure;
use crate::inspect::{ConfigEntry, ConfigResource, TopicSummary};

use crate::app::screens::requests::RequestIds;

/// How often the configs on screen are re-read (they change rarely).
pub const INTERVAL: Duration = Duration::from_secs(15);

/// A request older than this is forgotten (its answer will be dropped).
pub(super) const GIVE_UP: Duration = Duration::from_secs(30);

/// How long after a failed request the next one waits.
pub const RETRY: Duration = Duration::from_secs(10);

/// How many resources' full configs are kept.
pub const KEPT: usize = 16;

/// How often the summary of a visible topic is re-read.
pub const SUMMARY_INTERVAL: Duration = Duration::from_mins(1);

/// At most this many topics per request.
pub(super) const MAX_TOPICS: usize = 200;

/// One resource's answer: its entries, or why not.
pub type Answer = (ConfigResource, Result<Arc<Vec<ConfigEntry>>, Failure>);

/// A request for the worker: describe the configs of `resources`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Request id.
    pub request: u64,
    /// What to describe.
    pub resources: Vec<ConfigResource>,
}

/// One resource's configs as last answered.
#[derive(Debug, Clone, Default)]
pub struct Held {
    /// The latest entries, sorted by name (kept while the next answer is
    /// awaited, and when a later request fails).
    pub entries: Option<Arc<Vec<ConfigEntry>>>,
    /// When the latest answer (entries or failure) landed.
    pub at: Option<Instant>,
    /// The latest failure, if the latest answer was one.
    pub error: Option<Failure>,
}

/// Everything the UI knows about configs.
#[derive(Debug, Default)]
pub struct Store {
    /// Per resource.
    pub held: HashMap<ConfigResource, Held>,
    /// Per topic seen on the Topics or Partitions screen: its summary and
    /// when it was read (`None`: ask again).
    pub topics: HashMap<String, (TopicSummary, Option<Instant>)>,
    /// The request in flight and when it left.
    pub in_flight: Option<(u64, Instant)>,
    /// What the request in flight asked for.
    pub asked: Vec<ConfigResource>,
    /// When a whole request last failed (the next waits [`RETRY`]).
    pub failed_at: Option<Instant>,
    /// Answers received (rows depend on them).
    pub answers: u64,
    /// The resource a config screen shows (its whole configs are kept).
    pub shown: Option<ConfigResource>,
    /// What the status line should say about the last answer.
    pub(super) notice: Option<String>,
}

impl Store {
    /// The entries of `resource`, if they have arrived.
    pub fn entries(&self, resource: &ConfigResource) -> Option<&[ConfigEntry]> {
        self.held
            .get(resource)?
            .entries
            .as_deref()
            .map(Vec::as_slice)
    }

    /// The entry `name` of `resource`.
    pub fn entry(&self, resource: &ConfigResource, name: &str) -> Option<&ConfigEntry> {
        self.entries(resource)?.iter().find(|e| e.name == name)
    }

    /// Ask again for whatever is on screen at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.in_flight = None;
        for held in self.held.values_mut() {
            held.at = None;
        }
        for (_, at) in self.topics.values_mut() {
            *at = None;
        }
    }

    pub(super) fn due(&self, resource: &ConfigResource, now: Instant) -> bool {
        self.held
            .get(resource)
            .and_then(|h| h.at)
            .is_none_or(|at| now.saturating_duration_since(at) >= INTERVAL)
    }

    /// Whether the summary of `topic` is due at `now`.
    pub fn summary_due(&self, topic: &str, now: Instant) -> bool {
        self.topics
            .get(topic)
            .and_then(|s| s.1)
            .is_none_or(|at| now.saturating_duration_since(at) >= SUMMARY_INTERVAL)
    }

    /// Ask for `resources` (at most `MAX_TOPICS`) if nothing covering
    /// them is awaited and no failure is being waited out. A request for
    /// something else (the Topics screen's summaries when a config screen
    /// opened) is superseded: its answer will be dropped.
    pub fn ask(
        &mut self,
        ids: &mut RequestIds,
        mut resources: Vec<ConfigResource>,
        now: Instant,
    ) -> Option<Query> {
        resources.truncate(MAX_TOPICS);
        let waiting = self.in_flight.is_some_and(|(_, sent)| {
            now.saturating_duration_since(sent) < GIVE_UP
                && resources.iter().all(|r| self.asked.contains(r))
        });
        let backing_off = self
            .failed_at
            .is_some_and(|at| now.saturating_duration_since(at) < RETRY);
        if waiting || backing_off || resources.is_empty() {
            return None;
        }
        let request = ids.fresh();
        self.in_flight = Some((request, now));
        self.asked.clone_from(&resources);
        Some(Query { request, resources })
    }

    /// Take an answer landed at `now`; a stale one (not the request in
    /// flight) is dropped.
    pub(super) fn receive(&mut self, request: u64, result: Result<Vec<Answer>, Failure>, now: Instant) {
        if self.in_flight.map(|(id, _)| id) != Some(request) {
            return;
        }
        self.in_flight = None;
        self.answers += 1;
        let answers = match result {
            Ok(answers) => answers,
            Err(error) => {
                self.notice = Some(format!("configs: {error}"));
                self.failed_at = Some(now);
                return;
            }
        };
        self.failed_at = None;
        for (resource, result) in answers {
            if let ConfigResource::Topic(name) = &resource {
                let summary = match &result {
                    Ok(entries) => TopicSummary::of(entries),
                    Err(_) => TopicSummary::default(),
                };
                self.topics.insert(name.clone(), (summary, Some(now)));
            }
            // Whole configs only for a config screen (the summaries are
            // enough for the Topics screen's columns).
            if self.shown.as_ref() != Some(&resource) && !self.held.contains_key(&resource) {
                continue;
            }
            let held = self.held.entry(resource.clone()).or_default();
            held.at = Some(now);
            match result {
                Ok(entries) => {
                    held.entries = Some(entries);
                    held.error = None;
                }
                Err(error) => {
                    self.notice = Some(format!("configs of {resource}: {error}"));
                    held.error = Some(error);
                }
            }
        }
        self.forget_oldest();
    }

    fn forget_oldest(&mut self) {
        while self.held.len() > KEPT {
            let oldest = self
                .held
                .iter()
                .min_by_key(|(_, h)| h.at)
                .map(|(r, _)| r.clone());
            let Some(oldest) = oldest else { return };
            self.held.remove(&oldest);
        }
    }
}
