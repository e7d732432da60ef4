//! The replay session: what stands in for the cluster in `kscope replay`.
//!
//! [`Driver`] answers the model's effects from a recording instead of the
//! network: [`Effect::Replay`] (the cursor moved) with the actions the live
//! session sends (a snapshot with [`Action::Snapshot`], kscope's liveness
//! view, the movement events recorded in between), the group list with
//! the rows recorded last before the cursor; every other effect would
//! need a cluster and is dropped (the screens that need one say "not in
//! this recording"). [`Headless`] is the model with a driver and no
//! terminal: the TUI's loop runs it, and tests drive it key by key.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use crate::app::failure::{Failure, Kind};
use crate::app::screens::{Msg, Query, groups};
use crate::app::stores::replay::Replay;
use crate::app::{Action, AppState, Effect, Keymap, update};
use crate::groups::Overview;
use crate::meta::{Health, MetadataSnapshot, MovementEvent};
use crate::recording::frame::{Body, time};
use crate::recording::{self, Recording, View};

use super::replay_groups::{overview, relisted};

/// Actions to apply with the snapshot `update` reads from then on (when
/// it changes).
#[derive(Debug)]
pub struct Step {
    /// The snapshot, if this step installs one.
    pub snap: Option<Arc<MetadataSnapshot>>,
    /// For `update`, in order.
    pub actions: Vec<Action>,
}

/// The recording being replayed, answering the model's effects.
#[derive(Debug)]
pub struct Driver {
    recording: Recording,
    /// Snapshots handed out so far (the generation of the next).
    generation: u64,
    /// The cursor as last sent: group lists are read there.
    at: i64,
}

impl Driver {
    /// Replay `recording`; its damage, if any, is reported by [`Driver::model`].
    pub fn new(recording: Recording) -> Driver {
        let at = recording.start_ms();
        Driver {
            recording,
            generation: 0,
            at,
        }
    }

    /// The cursor for the model, at `at`, paused, with where the file is
    /// damaged (its frames end there).
    pub fn model(&mut self, at: i64) -> Replay {
        let recording = &self.recording;
        let mut frames: Vec<i64> = recording.frames.iter().map(|f| f.t).collect();
        frames.dedup();
        let mut events: Vec<i64> = recording
            .frames
            .iter()
            .filter(|f| matches!(&f.body, Body::Events { events } if !events.is_empty()))
            .map(|f| f.t)
            .collect();
        events.dedup();
        let (start, end) = (recording.start_ms(), recording.end_ms());
        let first = recording
            .frames
            .iter()
            .find(|f| matches!(f.body, Body::Snapshot(_)))
            .map_or(start, |f| f.t);
        Replay {
            start,
            first,
            end,
            at: at.clamp(start, end),
            frames,
            events,
            damage: recording.damage.as_ref().map(damage_words),
            has_groups: recording
                .frames
                .iter()
                .any(|f| matches!(f.body, Body::Groups { .. })),
            ..Replay::default()
        }
    }

    /// What the effect asks of a recording, as steps for `update`.
    pub fn answer(&mut self, effect: Effect) -> Vec<Step> {
        let msg = match effect {
            Effect::Replay { at, from } => return self.seek(from, at),
            Effect::Query(Query::Groups(query)) => self.groups_answer(query),
            // The recording answers nothing else: no other screen's fetch,
            // no records, no registry, no other context, no poll.
            Effect::Query(_)
            | Effect::Messages(_)
            | Effect::FetchWatermarks { .. }
            | Effect::FetchSizes { .. }
            | Effect::FetchSchema { .. }
            | Effect::PrepareMapping { .. }
            | Effect::SwitchContext(_)
            | Effect::StartFleet
            | Effect::Refresh
            | Effect::WatchTopics(_)
            | Effect::Quit => return Vec::new(),
        };
        vec![Step {
            snap: None,
            actions: vec![Action::Screen(Msg::Groups(msg))],
        }]
    }

    /// What the recording answers to the group screens' `query`: the
    /// group list recorded last, nothing of a group's detail.
    fn groups_answer(&self, query: groups::Query) -> groups::Msg {
        match query {
            groups::Query::List { request } => groups::Msg::List {
                request,
                result: self.groups().map(Arc::new),
            },
            groups::Query::Rows {
                request,
                groups: asked,
                ..
            } => groups::Msg::Rows {
                request,
                result: self.groups().map(|overview| relisted(overview, &asked)),
            },
            groups::Query::Detail { request, .. } => groups::Msg::Detail {
                request,
                result: Err(Failure::new(
                    Kind::Final,
                    "a group's members and offsets are not in this recording (only the group list)",
                )),
            },
        }
    }

    /// The group list recorded last at or before the cursor.
    fn groups(&self) -> Result<Overview, Failure> {
        match self.recording.view_at(self.at).groups {
            Some((rows, failed)) => Ok(overview(&rows, failed)),
            None => Err(Failure::new(
                Kind::Final,
                "no group list is in this recording at or before the cursor",
            )),
        }
    }

    /// The recording at `to`: from `from` (exclusive) when the cursor went
    /// forward, from the start when the screens forgot it. Each broker list
    /// change in between is a snapshot of its own at its time, so a broker
    /// that left is down since then.
    pub fn seek(&mut self, from: Option<i64>, to: i64) -> Vec<Step> {
        self.at = to;
        let after = from.unwrap_or(i64::MIN);
        let mut changes: Vec<i64> = self
            .recording
            .frames
            .iter()
            .filter(|f| f.t > after && f.t < to && changes_brokers(&f.body))
            .map(|f| f.t)
            .collect();
        changes.dedup();
        let mut steps: Vec<Step> = changes
            .into_iter()
            .map(|t| {
                let view = self.recording.view_at(t);
                self.snapshot(&view, Vec::new())
            })
            .collect();
        let view = self.recording.view_at(to);
        let mut more = vec![Action::Health(Some(health(&view)))];
        let events = self.events(after, to);
        if !events.is_empty() {
            more.push(Action::Movements(events));
        }
        steps.push(self.snapshot(&view, more));
        steps
    }

    /// The step that installs `view`'s metadata (when it has some) at its
    /// time, then `more`.
    fn snapshot(&mut self, view: &View, more: Vec<Action>) -> Step {
        let mut actions = vec![Action::ReplayClock { at: view.at }];
        let snap = view.has_metadata.then(|| {
            self.generation += 1;
            actions.push(Action::Snapshot {
                generation: self.generation,
            });
            Arc::new(view.metadata.to_snapshot())
        });
        actions.extend(more);
        Step { snap, actions }
    }

    /// The events recorded after `after` up to and including `to`.
    fn events(&self, after: i64, to: i64) -> Vec<MovementEvent> {
        self.recording
            .frames
            .iter()
            .filter(|f| f.t > after && f.t <= to)
            .filter_map(|f| match &f.body {
                Body::Events { events } => Some(events),
                _ => None,
            })
            .flatten()
            .map(|e| MovementEvent::from(e.clone()))
            .collect()
    }
}

/// Whether a frame changes the broker list (or restates it).
fn changes_brokers(body: &Body) -> bool {
    match body {
        Body::Snapshot(_) => true,
        Body::Delta(delta) => delta.brokers.is_some(),
        _ => false,
    }
}

/// kscope's liveness view at the cursor, as the live session has it.
fn health(view: &View) -> Arc<Health> {
    Arc::new(Health {
        not_answering: view
            .health
            .not_answering
            .iter()
            .map(|(id, since)| (*id, time(*since)))
            .collect(),
        frozen: view
            .health
            .frozen
            .as_ref()
            .map(|reason| crate::meta::Frozen {
                since: time(view.at),
                reason: reason.clone(),
            }),
    })
}

/// Where the file is damaged, for the header.
fn damage_words(error: &recording::Error) -> String {
    match error.offset() {
        Some(offset) => format!("damaged at byte offset {offset}: replaying up to there"),
        None => error.to_string(),
    }
}

/// The model replaying a recording, with its snapshot and driver: no
/// terminal, no cluster.
#[derive(Debug)]
pub struct Headless {
    /// The model.
    pub state: AppState,
    /// The snapshot `update` and `view` read.
    pub snap: Arc<MetadataSnapshot>,
    driver: Driver,
}

/// At most this many effects answered for one action (each answer is
/// applied and may ask again; a planner asks only when due, so this is a
/// guard, not a limit reached).
const ANSWERS: usize = 10_000;

impl Headless {
    /// Open `path` at `at` (the `--at` grammar; the first snapshot when
    /// `None`),
    /// paused, on the Topics screen of a `width`×`height` terminal, its LAG
    /// column following the recorded group lists.
    ///
    /// # Errors
    /// The file cannot be read, is not a recording, or `at` does not parse.
    pub fn open(
        path: &Path,
        at: Option<&str>,
        (width, height): (u16, u16),
    ) -> Result<Self, String> {
        let recording = recording::read(path).map_err(|e| e.to_string())?;
        let start = match at {
            Some(text) => Some(recording.parse_at(text)?),
            None => None,
        };
        let name = recording
            .header
            .context
            .clone()
            .unwrap_or_else(|| "recording".to_owned());
        let mut driver = Driver::new(recording);
        let mut state = AppState::new(&name, Vec::new(), Keymap::default());
        let mut replay = driver.model(start.unwrap_or(i64::MIN));
        if start.is_none() {
            replay.at = replay.first;
        }
        let at = replay.at;
        state.notice.clone_from(&replay.damage);
        state.wall = time(at);
        crate::app::replay::install(&mut state, replay);
        let mut headless = Headless {
            state,
            snap: Arc::new(MetadataSnapshot::empty()),
            driver,
        };
        headless.act(Action::Resize { width, height });
        headless.run(Effect::Replay { at, from: None });
        Ok(headless)
    }

    /// Apply `action` and everything the recording answers to what it
    /// asks; true when the user quit.
    pub fn act(&mut self, action: Action) -> bool {
        let effects = update(&mut self.state, action, &self.snap);
        self.answer(effects)
    }

    /// Answer `effect` as `update` would have returned it.
    fn run(&mut self, effect: Effect) -> bool {
        self.answer(vec![effect])
    }

    fn answer(&mut self, effects: Vec<Effect>) -> bool {
        let mut queue: VecDeque<Step> = VecDeque::new();
        let mut quit = false;
        let mut ask = |driver: &mut Driver, queue: &mut VecDeque<Step>, effects: Vec<Effect>| {
            for effect in effects {
                quit |= effect == Effect::Quit;
                queue.extend(driver.answer(effect));
            }
        };
        ask(&mut self.driver, &mut queue, effects);
        let mut answered = 0;
        while let Some(step) = queue.pop_front() {
            if let Some(snap) = step.snap {
                self.snap = snap;
            }
            for action in step.actions {
                let effects = update(&mut self.state, action, &self.snap);
                answered += effects.len();
                if answered < ANSWERS {
                    ask(&mut self.driver, &mut queue, effects);
                }
            }
        }
        quit || self.state.quit
    }
}
