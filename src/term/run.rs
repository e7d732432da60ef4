//! The run loop: events in, `update`, effects out, redraw only when something
//! changed and at most once per 16 ms. One `Arc<MetadataSnapshot>` is held and
//! replaced only when a new generation lands, so `update` and `view` always
//! see the same cluster.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc::{self, Receiver, Sender};
use tokio::task::JoinHandle;

use crate::app::failure::{Failure, Kind};
use crate::app::{Action, AppState, Effect, Keymap, update};
use crate::config::cli::ConnectArgs;
use crate::config::resolve::ResolvedContext;
use crate::groups::GroupsClient;
use crate::meta::{Cluster, ClusterConfig, MetadataSnapshot};
use crate::paint::theme::Theme;
use crate::schema::Decoder;
use crate::schema::mapping::Mappings;
use crate::ui;

use super::in_flight::{Fetch, InFlight};
use super::msg::Msg;
use super::{input, terminal, worker};

const FRAME: Duration = Duration::from_millis(16);
/// Messages waiting for the loop at most: senders (the workers, the input
/// thread) wait beyond that rather than grow a queue without bound.
const QUEUED: usize = 256;
/// How long `:ctx` may take to resolve a context: longer than a
/// `password_command` may run, so its own timeout (which kills it) speaks.
pub(super) const RESOLVE_DEADLINE: Duration =
    crate::config::secret::COMMAND_TIMEOUT.saturating_add(Duration::from_secs(5));

/// The least time between two trims for the groups screens' garbage.
const GIVE_BACK_GAP: Duration = Duration::from_secs(3);
/// Rows of the big lists freed by one `update` that are worth a trim (a
/// whole groups list dropped, or a relisting merged, at a size where the
/// allocator keeps megabytes of free pages).
const LARGE_DROP: usize = 1_000;

pub(super) struct Session {
    pub(super) args: ConnectArgs,
    /// The context connected to (or being connected to).
    pub(super) context: Option<ResolvedContext>,
    pub(super) cluster: Option<Cluster>,
    pub(super) groups: Option<GroupsClient>,
    pub(super) tasks: Vec<JoinHandle<()>>,
    /// The per-view fetches in flight, one per kind.
    pub(super) fetches: InFlight,
    /// The `:ctx` resolution in flight, if any (a newer one replaces it).
    pub(super) resolving: Option<JoinHandle<()>>,
    /// A browse session asked for before the cluster was connected.
    pub(super) pending_browse: Option<super::browse::Ask>,
    pub(super) snap: Arc<MetadataSnapshot>,
    pub(super) tx: Sender<Msg>,
    /// The context's schema registry: its decoder (or why there is none),
    /// and an epoch that drops answers from a previous context's registry.
    pub(super) registry: (Option<Result<Decoder, Failure>>, u64),
    /// The fleet poller, once the fleet screen has been opened.
    pub(super) fleet: Option<super::fleet::FleetTask>,
    /// Holds the input thread while a login has the terminal.
    pub(super) input: super::pause::Pause,
    /// When the groups screens' garbage was last given back.
    pub(super) groups_given_back: Option<Instant>,
}

fn initial_state(context: &ResolvedContext, args: &ConnectArgs) -> (AppState, Theme) {
    let (keymap, problems) = Keymap::with_remaps(&context.keys);
    let mut state = AppState::new(&context.name, context.bootstrap_servers.clone(), keymap);
    state.read_only = context.read_only;
    state.screens.messages.schemas.enabled = context.schema_registry.is_some();
    state.screens.messages.schemas.mappings = Mappings::new(context.topic_schemas.clone());
    state.screens.groups.interval = context.refresh.lag;
    state.contexts = crate::config::load::load(args.config.as_deref())
        .map(|loaded| loaded.file.contexts.keys().cloned().collect())
        .unwrap_or_default();
    if args.fleet {
        // `--fleet`: the fleet over the context's Topics screen (the run
        // loop starts the poller).
        state.screens.fleet.started = true;
        state
            .stack
            .push(crate::app::View::new(crate::app::Screen::fleet()));
    }
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (theme, notice) = Theme::load(&context.theme, no_color);
    state.notice = notice.or_else(|| problems.first().cloned());
    (state, theme)
}

fn cluster_config(context: &ResolvedContext) -> ClusterConfig {
    ClusterConfig {
        connection: context.connection.clone(),
        refresh_interval: context.refresh.metadata,
        // Idle on a large cluster, the full refresh is spaced by its cost.
        pace_full_refresh: true,
        ..ClusterConfig::default()
    }
}

pub(super) async fn run_loop(
    tui: &mut terminal::Tui,
    context: &ResolvedContext,
    args: ConnectArgs,
    utc_offset: i32,
) -> std::io::Result<()> {
    let (tx, mut rx): (Sender<Msg>, Receiver<Msg>) = mpsc::channel(QUEUED);
    let (mut state, theme) = initial_state(context, &args);
    state.screens.messages.utc_offset = utc_offset;
    let size = tui.size()?;
    let mut session = Session::new(args, tx.clone());
    session.start(context, 0);
    input::spawn(tx.clone(), session.input.clone());
    let mut effects = update(
        &mut state,
        Action::Resize {
            width: size.width,
            height: size.height,
        },
        &session.snap,
    );
    if state.screens.fleet.started {
        effects.push(Effect::StartFleet);
    }
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    let mut last_draw: Option<Instant> = None;
    // What the clock showed in the last frame: a tick that changes none of
    // it draws nothing (ui/status.rs says why that matters).
    let mut drawn_face: Option<ui::ClockFace> = None;
    let mut dirty = true;
    loop {
        for effect in effects.drain(..) {
            if session.run(effect, &state) {
                return Ok(());
            }
        }
        if dirty {
            let wait = last_draw.map_or(Duration::ZERO, |at| FRAME.saturating_sub(at.elapsed()));
            if wait.is_zero() {
                let snap = Arc::clone(&session.snap);
                tui.draw(|frame| ui::view(frame, &state, &snap, &theme))?;
                drawn_face = Some(ui::clock_face(&state, &snap));
                last_draw = Some(Instant::now());
                dirty = false;
            }
        }
        let frame_due = async {
            match (dirty, last_draw) {
                (true, Some(at)) => tokio::time::sleep(FRAME.saturating_sub(at.elapsed())).await,
                (true, None) => {}
                (false, _) => std::future::pending::<()>().await,
            }
        };
        let (actions, tick) = tokio::select! {
            msg = rx.recv() => match msg {
                Some(Msg::Login(login)) => {
                    let name = login.name.clone();
                    let resolved = super::login::step_aside(tui, *login).await?;
                    (session.receive(Msg::Resolved(name, resolved)), false)
                }
                Some(msg) => (session.receive(msg), false),
                None => return Ok(()),
            },
            _ = ticks.tick() => (vec![Action::Tick { now: Instant::now(), wall: SystemTime::now() }], true),
            () = frame_due => (Vec::new(), false),
        };
        for action in actions {
            let (more, freed) = update_counting(&mut state, action, &session.snap);
            effects.extend(more);
            session.rows_freed(freed, Instant::now());
            dirty = dirty
                || !tick
                || drawn_face.as_ref() != Some(&ui::clock_face(&state, &session.snap));
        }
        if state.quit {
            return Ok(());
        }
    }
}

/// `update`, and how many rows of the big lists it let go of: those held
/// before and those the action brought, less those held after.
fn update_counting(
    state: &mut AppState,
    action: Action,
    snap: &MetadataSnapshot,
) -> (Vec<Effect>, usize) {
    let before = state.held_rows() + action.carried_rows();
    let effects = update(state, action, snap);
    (effects, before.saturating_sub(state.held_rows()))
}

/// Whether `freed` rows are worth a trim, the last one at `last`.
fn give_back_due(freed: usize, last: Option<Instant>, now: Instant) -> bool {
    freed >= LARGE_DROP && last.is_none_or(|at| now.saturating_duration_since(at) >= GIVE_BACK_GAP)
}

impl Session {
    /// A session connected to nothing yet, answering on `tx`.
    fn new(args: ConnectArgs, tx: Sender<Msg>) -> Session {
        Session {
            args,
            context: None,
            cluster: None,
            groups: None,
            tasks: Vec::new(),
            fetches: InFlight::default(),
            resolving: None,
            pending_browse: None,
            snap: Arc::new(MetadataSnapshot::empty()),
            tx,
            registry: (None, 0),
            groups_given_back: None,
            fleet: None,
            input: super::pause::Pause::default(),
        }
    }

    /// Connect to `context` (dropping any cluster held); the attempts count
    /// on from `attempts_before`.
    pub(super) fn start(&mut self, context: &ResolvedContext, attempts_before: u32) {
        for task in self.tasks.drain(..) {
            task.abort();
        }
        self.fetches.abort_all();
        self.cluster = None;
        self.groups = None;
        self.snap = Arc::new(MetadataSnapshot::empty());
        let handle = worker::connect(
            context.bootstrap_servers.clone(),
            cluster_config(context),
            (context.name.clone(), attempts_before),
            self.tx.clone(),
        );
        self.tasks.push(handle);
        self.context = Some(context.clone());
        self.registry = (
            context
                .schema_registry
                .as_ref()
                .map(|config| Decoder::new(config).map_err(Failure::from)),
            self.registry.1 + 1,
        );
    }

    /// `update` just let go of `freed` rows of the big lists (a groups list
    /// dropped or relisted smaller, the answer it absorbed): give the
    /// allocator's free pages back to the OS, off the loop, if that is a
    /// lot. A relisting lands every `lag_secs` (1 s at the least) and a
    /// trim walks the whole heap (milliseconds at 10k groups): at most one
    /// every few seconds; the next answer trims the rest.
    fn rows_freed(&mut self, freed: usize, now: Instant) {
        if give_back_due(freed, self.groups_given_back, now) {
            self.groups_given_back = Some(now);
            crate::memory::give_back_later("groups list replaced, relisted or dropped");
        }
    }

    /// Turn a message into actions for `update` (installing a cluster or
    /// snapshot first); every effect they return is run by the loop.
    fn receive(&mut self, msg: Msg) -> Vec<Action> {
        match msg {
            Msg::Action(action) => vec![action],
            Msg::Browsed(staging) => vec![staging.take()],
            Msg::Schema(epoch, action) => {
                if epoch == self.registry.1 {
                    vec![action]
                } else {
                    Vec::new()
                }
            }
            Msg::Connected(cluster, context) => {
                let earlier = cluster.movements();
                self.snap = cluster.snapshot();
                self.tasks
                    .push(worker::follow(cluster.clone(), self.tx.clone()));
                self.tasks
                    .push(worker::config_sweeps(cluster.clone(), self.tx.clone()));
                self.groups = Some(GroupsClient::new(cluster.clone()));
                let generation = cluster.generation();
                if let Some(mut ask) = self.pending_browse.take() {
                    // The context's rules and registry as they are now.
                    ask.mask = self.mask();
                    ask.registry = self.decoder();
                    let task = super::browse::start(cluster.clone(), ask, self.tx.clone());
                    self.fetches.replace(Fetch::Browse, task);
                }
                self.cluster = Some(cluster);
                let mut actions = vec![Action::Connected { context }];
                if !earlier.is_empty() {
                    actions.push(Action::Movements(earlier));
                }
                actions.push(Action::Snapshot { generation });
                actions
            }
            Msg::Generation => {
                let Some(cluster) = self.cluster.as_ref() else {
                    return Vec::new();
                };
                let generation = cluster.generation();
                let fresh = cluster.snapshot();
                let full = fresh.fetched_at() != self.snap.fetched_at();
                self.snap = fresh;
                if full {
                    crate::memory::give_back_later("full metadata refresh");
                }
                vec![Action::Snapshot { generation }]
            }
            // The loop steps aside for a login before `receive`; one that
            // reaches here (no terminal to lend after all) is a failure.
            Msg::Login(login) => vec![Action::ContextResolved {
                name: login.name,
                result: Err(Failure::new(
                    Kind::Final,
                    "its password_command needs the terminal to ask for a password",
                )),
            }],
            Msg::Resolved(name, resolved) => {
                // The session's part here (connect to it, before `update`
                // draws on the empty snapshot); the model's in `update`.
                self.resolving = None;
                if let Ok(context) = &resolved {
                    if let Some(fleet) = &self.fleet {
                        fleet.logged_in(context);
                    }
                    self.pending_browse = None;
                    self.start(context, 0);
                }
                vec![Action::ContextResolved {
                    name,
                    result: resolved,
                }]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Link;

    /// A config whose context `slow` gets its password from `cat` on a
    /// FIFO: the command blocks until the test writes the password.
    struct SlowContext {
        dir: tempfile::TempDir,
    }

    impl SlowContext {
        fn new() -> SlowContext {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let made = std::process::Command::new("mkfifo")
                .arg(dir.path().join("pw"))
                .status()
                .expect("run mkfifo");
            assert!(made.success(), "mkfifo failed");
            let config = "[contexts.slow]\nbootstrap_servers = [\"127.0.0.1:9\"]\n\
                [contexts.slow.sasl]\nmechanism = \"PLAIN\"\nusername = \"u\"\n\
                password_command = \"cat pw\"\n";
            std::fs::write(dir.path().join("config.toml"), config).expect("write the config");
            SlowContext { dir }
        }

        fn session(&self, tx: Sender<Msg>) -> Session {
            Session {
                args: ConnectArgs {
                    config: Some(self.dir.path().join("config.toml")),
                    ..ConnectArgs::default()
                },
                ..Session::new(ConnectArgs::default(), tx)
            }
        }

        /// Let the password command finish (it waits for a writer).
        async fn release(&self) {
            let fifo = self.dir.path().join("pw");
            tokio::task::spawn_blocking(move || std::fs::write(fifo, "secret\n"))
                .await
                .expect("the writer")
                .expect("write the password");
        }
    }

    #[test]
    fn a_large_drop_is_given_back_at_most_once_per_gap() {
        let now = Instant::now();
        assert!(!give_back_due(LARGE_DROP - 1, None, now));
        assert!(give_back_due(LARGE_DROP, None, now));
        let soon = now + GIVE_BACK_GAP / 2;
        assert!(!give_back_due(LARGE_DROP, Some(now), soon));
        assert!(give_back_due(LARGE_DROP, Some(now), now + GIVE_BACK_GAP));
    }

    #[test]
    fn a_groups_list_absorbed_or_dropped_frees_its_rows_and_the_first_one_none() {
        fn overview(groups: usize) -> Arc<crate::groups::Overview> {
            let summary = |i: usize| crate::groups::GroupSummary {
                listing: crate::groups::GroupListing {
                    group: format!("g{i}"),
                    group_type: crate::groups::GroupType::Consumer,
                    state: crate::groups::GroupState::Empty,
                    protocol_type: "consumer".to_owned(),
                    coordinator: 1,
                },
                members: Some(0),
                state: crate::groups::GroupState::Empty,
                lag: None,
                topics: Vec::new(),
                reconciling: None,
                error: None,
            };
            Arc::new(crate::groups::Overview {
                groups: (0..groups).map(summary).collect(),
                failed_brokers: Vec::new(),
                requests: crate::groups::RequestCounts::default(),
            })
        }
        let snap = MetadataSnapshot::empty();
        let mut state = state();
        state.link = Link::Connected;
        // `L` on Topics keeps the list.
        state.follow_lag = true;
        let answer = |state: &mut AppState, request| {
            state.screens.groups.list.in_flight = Some((request, (), state.now));
            let result = Ok(overview(1_500));
            let msg = crate::app::screens::groups::Msg::List { request, result };
            let action = Action::Screen(crate::app::screens::Msg::Groups(msg));
            update_counting(state, action, &snap).1
        };
        assert_eq!(answer(&mut state, 100), 0, "the first list is kept whole");
        assert_eq!(state.held_rows(), 1_500);
        assert_eq!(answer(&mut state, 101), 1_500, "absorbed: the answer goes");
        state.follow_lag = false;
        let tick = Action::Tick {
            now: Instant::now(),
            wall: SystemTime::now(),
        };
        let (_, freed) = update_counting(&mut state, tick, &snap);
        assert_eq!((freed, state.held_rows()), (1_500, 0), "nothing shows it");
    }

    fn state() -> AppState {
        AppState::new("first", vec!["127.0.0.1:1".to_owned()], Keymap::default())
    }

    async fn next(rx: &mut Receiver<Msg>) -> Msg {
        tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("a message within the deadline")
            .expect("the channel is open")
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ctx_returns_to_the_loop_while_the_password_command_runs_and_switches_when_it_answers()
    {
        let slow = SlowContext::new();
        let (tx, mut rx) = mpsc::channel(QUEUED);
        let mut session = slow.session(tx);
        let state = state();

        // On the loop's thread, `run` must return while `cat` still waits.
        let ran = tokio::time::timeout(
            Duration::from_secs(20),
            tokio::task::spawn_blocking(move || {
                let quit = session.run(Effect::SwitchContext("slow".to_owned()), &state);
                (session, state, quit)
            }),
        )
        .await;
        let Ok(Ok((mut session, mut state, quit))) = ran else {
            slow.release().await;
            panic!("the run loop waited for the password command");
        };
        assert!(!quit);
        assert_eq!(
            state.context, "first",
            "switched before the context resolved"
        );

        slow.release().await;
        let msg = next(&mut rx).await;
        let Msg::Resolved(name, Ok(context)) = &msg else {
            panic!("not a resolved context");
        };
        assert_eq!((name.as_str(), context.name.as_str()), ("slow", "slow"));
        let actions = session.receive(msg);
        assert_eq!(state.context, "first", "the model changes in `update` only");
        for action in actions {
            let _ = update(&mut state, action, &session.snap);
        }
        assert_eq!(state.context, "slow");
        assert_eq!(state.bootstrap, vec!["127.0.0.1:9".to_owned()]);
        for task in session.tasks.drain(..) {
            task.abort();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_password_command_that_hangs_gives_up_at_the_deadline_with_a_notice() {
        let slow = SlowContext::new();
        let (tx, mut rx) = mpsc::channel(QUEUED);
        let mut session = slow.session(tx);
        let mut state = state();

        session.switch_context("slow".to_owned(), Duration::from_millis(100));
        let msg = next(&mut rx).await;
        let actions = session.receive(msg);

        slow.release().await;
        let [Action::ContextResolved { result: Err(_), .. }] = actions.as_slice() else {
            panic!("not one failure: {actions:?}");
        };
        for action in actions {
            let _ = update(&mut state, action, &session.snap);
        }
        let notice = state.notice.clone().unwrap_or_default();
        assert!(notice.contains("context 'slow'"), "{notice}");
        assert!(notice.contains("took longer than"), "{notice}");
        assert_eq!(state.context, "first");
    }

    #[tokio::test]
    async fn a_registry_error_waits_for_room_in_a_full_queue_instead_of_being_dropped() {
        let (tx, mut rx) = mpsc::channel(1);
        tx.try_send(Msg::Generation).expect("room for the filler");
        let mut session = Session::new(ConnectArgs::default(), tx);
        let unusable = Failure::new(Kind::Final, "no registry at that address");
        session.registry = (Some(Err(unusable)), 3);

        session.fetch_schema(7);
        let subjects = crate::app::screens::schemas::Query { request: 11 };
        session.query(crate::app::screens::Query::Schemas(subjects));

        assert!(matches!(next(&mut rx).await, Msg::Generation));
        let mut answered = Vec::new();
        for _ in 0..2 {
            match next(&mut rx).await {
                Msg::Schema(
                    3,
                    Action::Schema {
                        id,
                        result: Err(failure),
                    },
                ) => {
                    assert!(failure.message.contains("no registry"), "{failure}");
                    assert!(!failure.is_transient(), "not asked again");
                    answered.push(format!("schema {id}"));
                }
                // The schema screen's list: a screen module's answer (a
                // previous context's is dropped by its request id).
                Msg::Action(Action::Screen(crate::app::screens::Msg::Schemas(
                    crate::app::screens::schemas::Msg::Answer { request, result },
                ))) => {
                    let reason = result.as_ref().as_ref().expect_err("no registry");
                    assert!(reason.message.contains("no registry"), "{reason}");
                    answered.push(format!("subjects {request}"));
                }
                _ => panic!("not a registry answer of epoch 3"),
            }
        }
        answered.sort();
        assert_eq!(answered, ["schema 7", "subjects 11"]);
    }
}
