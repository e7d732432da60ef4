//! Configs for what is on screen (`DescribeConfigs`): the resource a config
//! screen shows, and the few configs the Topics and Partitions screens show
//! of their visible topics (cleanup policy, retention, min ISR). When to
//! ask, and what an answer changes. Answers are kept with their age and
//! shown while the next one is awaited; only a few whole resources are kept
//! (the config screens visited last), and of other topics only the summary.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::inspect::{ConfigEntry, ConfigResource, TopicSummary};

use crate::meta::MetadataSnapshot;

use super::action::Effect;
use super::screen::Screen;
use super::state::{AppState, Link};

/// How often the configs on screen are re-read (they change rarely).
pub const INTERVAL: Duration = Duration::from_secs(15);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(30);
/// How long after a failed request the next one waits.
pub const RETRY: Duration = Duration::from_secs(10);
/// How many resources' full configs are kept.
const KEPT: usize = 16;
/// How often the summary of a visible topic is re-read.
pub const SUMMARY_INTERVAL: Duration = Duration::from_mins(1);
/// At most this many topics per request.
const MAX_TOPICS: usize = 200;

/// One resource's configs as last answered.
#[derive(Debug, Clone, Default)]
pub struct Held {
    /// The latest entries, sorted by name (kept while the next answer is
    /// awaited, and when a later request fails).
    pub entries: Option<Arc<Vec<ConfigEntry>>>,
    /// When the latest answer (entries or failure) landed.
    pub at: Option<Instant>,
    /// The latest failure, if the latest answer was one.
    pub error: Option<String>,
}

/// One resource's answer: its entries, or why not.
pub type Answer = (ConfigResource, Result<Arc<Vec<ConfigEntry>>, String>);

/// Everything the UI knows about configs.
#[derive(Debug, Default)]
pub struct ConfigStore {
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
    /// Request ids handed out.
    pub next_id: u64,
}

impl ConfigStore {
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

    /// Forget the cluster's configs (another context), keeping the ids.
    pub fn reset(&mut self) {
        *self = ConfigStore {
            next_id: self.next_id,
            ..ConfigStore::default()
        };
    }

    fn due(&self, resource: &ConfigResource, now: Instant) -> bool {
        self.held
            .get(resource)
            .and_then(|h| h.at)
            .is_none_or(|at| now.saturating_duration_since(at) >= INTERVAL)
    }
}

/// The resource whose configs the screen shows, if any.
pub fn on_screen(screen: &Screen) -> Option<&ConfigResource> {
    match screen {
        Screen::Config { of } | Screen::ConfigEntry { of, .. } => Some(of),
        _ => None,
    }
}

/// The topics whose summary the screen shows: the visible rows of Topics,
/// the topic of Partitions.
fn visible_topics(state: &AppState, snap: &MetadataSnapshot) -> Vec<String> {
    let view = state.view();
    match &view.screen {
        Screen::Topics => view
            .rows
            .iter()
            .skip(view.offset)
            .take(state.page())
            .filter_map(|&i| snap.topics().get(i))
            .map(|t| t.name.clone())
            .collect(),
        Screen::Partitions { topic } => vec![topic.clone()],
        // Their retention, for the time until unread records may go.
        Screen::Group { group } => {
            let Some(detail) = super::group_rows::detail(&state.groups, group) else {
                return Vec::new();
            };
            let mut topics: Vec<String> = view
                .rows
                .iter()
                .skip(view.offset)
                .take(state.page())
                .filter_map(|&i| detail.lag.partitions.get(i))
                .map(|p| p.topic.to_string())
                .collect();
            topics.sort_unstable();
            topics.dedup();
            topics
        }
        _ => Vec::new(),
    }
}

/// Ask for the configs the screen shows, if they are due: the resource of
/// a config screen, or the summaries of the visible topics.
pub fn plan(state: &mut AppState, snap: &MetadataSnapshot, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let now = state.now;
    let mut resources: Vec<ConfigResource> = match on_screen(&state.view().screen) {
        Some(resource) if state.configs.due(resource, now) => vec![resource.clone()],
        Some(_) => Vec::new(),
        None => visible_topics(state, snap)
            .into_iter()
            .filter(|t| {
                state
                    .configs
                    .topics
                    .get(t)
                    .and_then(|s| s.1)
                    .is_none_or(|at| now.saturating_duration_since(at) >= SUMMARY_INTERVAL)
            })
            .map(ConfigResource::Topic)
            .collect(),
    };
    resources.truncate(MAX_TOPICS);
    let store = &mut state.configs;
    // A request for something else (the Topics screen's summaries when a
    // config screen opened) is superseded: its answer will be dropped.
    let waiting = store.in_flight.is_some_and(|(_, sent)| {
        now.saturating_duration_since(sent) < GIVE_UP
            && resources.iter().all(|r| store.asked.contains(r))
    });
    let backing_off = store
        .failed_at
        .is_some_and(|at| now.saturating_duration_since(at) < RETRY);
    if waiting || backing_off || resources.is_empty() {
        return;
    }
    store.next_id += 1;
    let request = store.next_id;
    store.in_flight = Some((request, now));
    store.asked.clone_from(&resources);
    effects.push(Effect::FetchConfigs { request, resources });
}

/// Take an answer; a stale one (not the request in flight) is dropped.
pub fn receive(state: &mut AppState, request: u64, result: Result<Vec<Answer>, String>) {
    let now = state.now;
    let store = &mut state.configs;
    if store.in_flight.map(|(id, _)| id) != Some(request) {
        return;
    }
    store.in_flight = None;
    store.answers += 1;
    let answers = match result {
        Ok(answers) => answers,
        Err(error) => {
            state.notice = Some(format!("configs: {error}"));
            store.failed_at = Some(now);
            return;
        }
    };
    store.failed_at = None;
    let shown = on_screen(&state.stack[state.stack.len() - 1].screen);
    for (resource, result) in answers {
        if let ConfigResource::Topic(name) = &resource {
            let summary = match &result {
                Ok(entries) => TopicSummary::of(entries),
                Err(_) => TopicSummary::default(),
            };
            store.topics.insert(name.clone(), (summary, Some(now)));
        }
        // Whole configs only for a config screen (the summaries are enough
        // for the Topics screen's columns).
        if shown != Some(&resource) && !store.held.contains_key(&resource) {
            continue;
        }
        let held = store.held.entry(resource.clone()).or_default();
        held.at = Some(now);
        match result {
            Ok(entries) => {
                held.entries = Some(entries);
                held.error = None;
            }
            Err(error) => {
                state.notice = Some(format!("configs of {resource}: {error}"));
                held.error = Some(error);
            }
        }
    }
    forget_oldest(store);
}

fn forget_oldest(store: &mut ConfigStore) {
    while store.held.len() > KEPT {
        let oldest = store
            .held
            .iter()
            .min_by_key(|(_, h)| h.at)
            .map(|(r, _)| r.clone());
        let Some(oldest) = oldest else { return };
        store.held.remove(&oldest);
    }
}

/// What identifies row `index` of a config screen: the config's name, or
/// the synonym's.
pub fn identity(store: &ConfigStore, screen: &Screen, index: usize) -> Option<String> {
    match screen {
        Screen::Config { of } => store.entries(of)?.get(index).map(|e| e.name.clone()),
        Screen::ConfigEntry { of, name } => store
            .entry(of, name)?
            .synonyms
            .get(index)
            .map(|s| format!("{} {}", s.source.name(), s.name)),
        _ => None,
    }
}

/// Indices of the rows of a config screen, in source order, filtered by
/// `keep` (on name, shown value and source).
pub fn build(
    store: &ConfigStore,
    screen: &Screen,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    use crate::columns::configs::{shown_value, source_label};
    match screen {
        Screen::Config { of } => store.entries(of).map_or_else(Vec::new, |entries| {
            entries
                .iter()
                .enumerate()
                .filter(|(_, e)| {
                    keep(&format!(
                        "{} {} {}",
                        e.name,
                        shown_value(e.sensitive, e.value.as_deref()),
                        source_label(e.source)
                    ))
                })
                .map(|(i, _)| i)
                .collect()
        }),
        Screen::ConfigEntry { of, name } => store.entry(of, name).map_or_else(Vec::new, |e| {
            e.synonyms
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    keep(&format!(
                        "{} {} {}",
                        s.name,
                        shown_value(e.sensitive, s.value.as_deref()),
                        source_label(s.source)
                    ))
                })
                .map(|(i, _)| i)
                .collect()
        }),
        _ => Vec::new(),
    }
}
