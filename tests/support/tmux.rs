//! Driving the real binary in a detached tmux session: start it in a pane of
//! a fixed size, send keys, read the screen, and wait (with a deadline) for
//! the screen to show something. The session is killed on drop, so a failed
//! test leaves no process behind.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Columns and rows of every session: wide enough for every screen's columns.
pub const WIDTH: u16 = 160;
/// Rows of every session.
pub const HEIGHT: u16 = 45;

/// How long [`Tmux::wait_for`] waits.
pub const WAIT: Duration = Duration::from_mins(1);

/// Whether `tmux` can be run at all.
pub fn available() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A session name no other test (or earlier run) uses: `PREFIX-PID-NANOS`.
pub fn unique_name(prefix: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() % 1_000_000_000);
    format!("{prefix}-{}-{nanos}", std::process::id())
}

/// The shell command running the kscope under test with `args`, its home,
/// config and state directories inside `home` (nothing of the user's is read
/// or written), and `vars` (`NAME=VALUE ...`) in its environment.
pub fn kscope_command(home: &Path, vars: &str, args: &str) -> String {
    format!(
        "env HOME={home} XDG_CONFIG_HOME={home}/config XDG_STATE_HOME={home}/state {vars} {bin} {args}",
        home = home.display(),
        bin = env!("CARGO_BIN_EXE_kscope"),
    )
}

/// One detached tmux session running one shell command.
pub struct Tmux {
    name: String,
}

impl Tmux {
    /// Start `command` (run by tmux's default shell) in a new detached
    /// session of [`WIDTH`]×[`HEIGHT`] named `name`.
    pub fn start(name: &str, command: &str) -> Tmux {
        let (width, height) = (WIDTH.to_string(), HEIGHT.to_string());
        let status = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-x",
                &width,
                "-y",
                &height,
                "-s",
                name,
                command,
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session -s {name}");
        Tmux {
            name: name.to_owned(),
        }
    }

    /// The session's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `tmux send-keys` with these arguments (`-l TEXT` sends text literally).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.name.as_str()];
        args.extend(keys);
        let status = Command::new("tmux")
            .args(&args)
            .status()
            .expect("tmux send-keys");
        assert!(status.success(), "tmux send-keys {keys:?}");
    }

    /// A left click at the 0-based terminal cell (`column`, `row`), sent as
    /// the SGR mouse sequences (press, release) a terminal would send.
    pub fn click(&self, column: u16, row: u16) {
        for end in ['M', 'm'] {
            let sequence = format!("\x1b[<0;{};{}{end}", column + 1, row + 1);
            let hex: Vec<String> = sequence.bytes().map(|b| format!("{b:02x}")).collect();
            let mut args = vec!["send-keys", "-t", self.name.as_str(), "-H"];
            args.extend(hex.iter().map(String::as_str));
            let status = Command::new("tmux")
                .args(&args)
                .status()
                .expect("tmux send-keys -H");
            assert!(status.success(), "tmux send-keys -H {sequence:?}");
        }
    }

    /// The visible screen, one line per row.
    pub fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Whether the session still exists (it ends when its command exits).
    pub fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// Wait up to [`WAIT`] for the screen to satisfy `check`; returns that screen.
    pub fn wait_for(&self, what: &str, check: impl Fn(&str) -> bool) -> String {
        self.wait_for_within(WAIT, what, check)
    }

    /// Wait up to `timeout` for the screen to satisfy `check`; returns that
    /// screen. On timeout the panic shows the last screen seen.
    pub fn wait_for_within(
        &self,
        timeout: Duration,
        what: &str,
        check: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + timeout;
        let mut last = String::new();
        // `wait_until` polls; its own (later) deadline is only a backstop, so
        // that a timeout here can show the screen.
        let timed_out = super::wait_until(timeout + Duration::from_secs(5), what, || {
            if Instant::now() >= deadline {
                return Some(true);
            }
            last = self.screen();
            check(&last).then_some(false)
        });
        assert!(
            !timed_out,
            "timed out after {timeout:?} waiting for {what}; the screen was:\n{last}"
        );
        last
    }

    /// Wait up to `timeout` for the session to end (its command exited).
    pub fn wait_for_exit(&self, timeout: Duration) {
        let what = format!("tmux session '{}' to end", self.name);
        super::wait_until(timeout, &what, || (!self.alive()).then_some(()));
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .output();
    }
}
