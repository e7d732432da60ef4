//! The run loop: events in, `update`, effects out, redraw only when something
//! changed and at most once per 16 ms. One `Arc<MetadataSnapshot>` is held and
//! replaced only when a new generation lands, so `update` and `view` always
//! see the same cluster.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::task::JoinHandle;

use crate::app::{Action, AppState, Effect, Keymap, Link, update};
use crate::config::cli::ConnectArgs;
use crate::config::resolve::ResolvedContext;
use crate::groups::GroupsClient;
use crate::meta::{Cluster, ClusterConfig, MetadataSnapshot};
use crate::ui::{self, theme::Theme};

use super::{input, terminal, worker};

const FRAME: Duration = Duration::from_millis(16);

/// What reaches the loop.
pub enum Msg {
    /// For `update`.
    Action(Action),
    /// A connection to the named context succeeded.
    Connected(Cluster, String),
    /// A new snapshot was installed.
    Generation,
}

struct Session {
    args: ConnectArgs,
    /// The context connected to (or being connected to).
    context: Option<ResolvedContext>,
    cluster: Option<Cluster>,
    groups: Option<GroupsClient>,
    tasks: Vec<JoinHandle<()>>,
    snap: Arc<MetadataSnapshot>,
    tx: UnboundedSender<Msg>,
}

/// Run the TUI on `context` until the user quits.
pub fn run(context: &ResolvedContext, args: ConnectArgs) -> ExitCode {
    // Before anything is written: on a pipe or file, escape codes would be
    // garbage in the output and there are no keys to read.
    if let Some(which) = not_a_terminal() {
        eprintln!(
            "kscope: the TUI needs a terminal ({which} is not one); use `kscope get …` for output to a pipe or file"
        );
        return ExitCode::FAILURE;
    }
    let log = crate::logging::init(&args.log_level).ok();
    let log_file = log.as_ref().map(|g| g.file.clone());
    crate::logging::install_panic_hook(terminal::restore, log_file);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("kscope: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut tui = match terminal::enter() {
        Ok(tui) => tui,
        Err(error) => {
            terminal::restore();
            eprintln!("kscope: cannot use the terminal: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run_loop(&mut tui, context, args));
    terminal::restore();
    runtime.shutdown_timeout(Duration::from_millis(200));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kscope: terminal error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Which of stdout and stdin is not a terminal, if either.
fn not_a_terminal() -> Option<&'static str> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        Some("stdout")
    } else if !std::io::stdin().is_terminal() {
        Some("stdin")
    } else {
        None
    }
}

fn initial_state(context: &ResolvedContext, args: &ConnectArgs) -> (AppState, Theme) {
    let (keymap, problems) = Keymap::with_remaps(&context.keys);
    let mut state = AppState::new(&context.name, context.bootstrap_servers.clone(), keymap);
    state.read_only = context.read_only;
    state.groups.interval = context.refresh.lag;
    state.contexts = crate::config::load::load(args.config.as_deref())
        .map(|loaded| loaded.file.contexts.keys().cloned().collect())
        .unwrap_or_default();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (theme, notice) = Theme::load(&context.theme, no_color);
    state.notice = notice.or_else(|| problems.first().cloned());
    (state, theme)
}

fn cluster_config(context: &ResolvedContext) -> ClusterConfig {
    ClusterConfig {
        connection: context.connection.clone(),
        refresh_interval: context.refresh.metadata,
        ..ClusterConfig::default()
    }
}

async fn run_loop(
    tui: &mut terminal::Tui,
    context: &ResolvedContext,
    args: ConnectArgs,
) -> std::io::Result<()> {
    let (tx, mut rx): (UnboundedSender<Msg>, UnboundedReceiver<Msg>) = mpsc::unbounded_channel();
    let (mut state, theme) = initial_state(context, &args);
    let size = tui.size()?;
    let mut session = Session {
        args,
        context: None,
        cluster: None,
        groups: None,
        tasks: Vec::new(),
        snap: Arc::new(MetadataSnapshot::empty()),
        tx: tx.clone(),
    };
    session.start(context, 0);
    input::spawn(tx.clone());
    let mut effects = update(
        &mut state,
        Action::Resize {
            width: size.width,
            height: size.height,
        },
        &session.snap,
    );
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    let mut last_draw: Option<Instant> = None;
    let mut dirty = true;
    loop {
        for effect in effects.drain(..) {
            if session.run(effect, &mut state) {
                return Ok(());
            }
        }
        if dirty {
            let wait = last_draw.map_or(Duration::ZERO, |at| FRAME.saturating_sub(at.elapsed()));
            if wait.is_zero() {
                let snap = Arc::clone(&session.snap);
                tui.draw(|frame| ui::view(frame, &state, &snap, &theme))?;
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
        let action = tokio::select! {
            msg = rx.recv() => match msg {
                Some(msg) => session.receive(msg, &mut state),
                None => return Ok(()),
            },
            _ = ticks.tick() => Some(Action::Tick { now: Instant::now(), wall: SystemTime::now() }),
            () = frame_due => None,
        };
        if let Some(action) = action {
            effects = update(&mut state, action, &session.snap);
            dirty = true;
        }
        if state.quit {
            return Ok(());
        }
    }
}

impl Session {
    /// Connect to `context` (dropping any cluster held); the attempts count
    /// on from `attempts_before`.
    fn start(&mut self, context: &ResolvedContext, attempts_before: u32) {
        for task in self.tasks.drain(..) {
            task.abort();
        }
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
    }

    /// Turn a message into an action (installing a cluster or snapshot first).
    fn receive(&mut self, msg: Msg, state: &mut AppState) -> Option<Action> {
        match msg {
            Msg::Action(action) => Some(action),
            Msg::Connected(cluster, context) => {
                let earlier = cluster.movements();
                self.snap = cluster.snapshot();
                self.tasks
                    .push(worker::follow(cluster.clone(), self.tx.clone()));
                self.groups = Some(GroupsClient::new(cluster.clone()));
                self.cluster = Some(cluster);
                let _ = update(state, Action::Connected { context }, &self.snap);
                if !earlier.is_empty() {
                    let _ = update(state, Action::Movements(earlier), &self.snap);
                }
                Some(Action::Snapshot {
                    generation: self.cluster.as_ref().map_or(0, Cluster::generation),
                })
            }
            Msg::Generation => {
                let cluster = self.cluster.as_ref()?;
                let generation = cluster.generation();
                self.snap = cluster.snapshot();
                Some(Action::Snapshot { generation })
            }
        }
    }

    /// Carry out an effect; true to quit.
    fn run(&mut self, effect: Effect, state: &mut AppState) -> bool {
        match effect {
            Effect::Quit => return true,
            Effect::Refresh => match (&self.cluster, self.context.clone()) {
                (Some(cluster), _) => cluster.invalidate(),
                // Not connected (yet, or given up): try again now.
                (None, Some(context)) => {
                    let attempts = match state.link {
                        Link::Connecting { attempt, .. } => attempt,
                        Link::Connected => 0,
                    };
                    self.start(&context, attempts);
                }
                (None, None) => {}
            },
            Effect::WatchTopics(topics) => {
                if let Some(cluster) = &self.cluster {
                    cluster.watch_topics(topics);
                }
            }
            Effect::FetchWatermarks {
                request,
                partitions,
            } => {
                if let Some(cluster) = &self.cluster {
                    worker::watermarks(cluster.clone(), request, partitions, self.tx.clone());
                }
            }
            Effect::FetchGroups { request } => {
                if let Some(groups) = &self.groups {
                    worker::groups(groups.clone(), request, self.tx.clone());
                }
            }
            Effect::FetchGroup { request, group } => {
                if let Some(groups) = &self.groups {
                    worker::group(groups.clone(), request, group, self.tx.clone());
                }
            }
            Effect::FetchConfigs { request, resources } => {
                if let Some(cluster) = &self.cluster {
                    worker::configs(cluster.clone(), request, resources, self.tx.clone());
                }
            }
            Effect::SwitchContext(name) => {
                let mut args = self.args.clone();
                args.context = Some(name);
                args.bootstrap_servers = None;
                match crate::config::cli::resolve(&args) {
                    Ok(context) => {
                        state.reset_cluster();
                        state.context.clone_from(&context.name);
                        state.bootstrap.clone_from(&context.bootstrap_servers);
                        state.read_only = context.read_only;
                        self.start(&context, 0);
                    }
                    Err(error) => state.notice = Some(error.to_string()),
                }
            }
        }
        false
    }
}
