//! `kscope watch events -o json` with group events, in the background:
//! its JSON lines and its stderr lines on channels, and waits with
//! deadlines on what it printed.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// `kscope watch events -o json` in the background: its JSON lines and its
/// stderr lines on channels.
pub struct Watch {
    child: Child,
    lines: mpsc::Receiver<String>,
    notes: mpsc::Receiver<String>,
    /// Every record printed so far, in order.
    pub seen: Vec<Value>,
}

fn lines_of(read: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(read).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

impl Watch {
    /// Start it on `bootstrap`, reading the groups `groups` matches every
    /// `interval` seconds.
    pub fn start(bootstrap: &str, groups: &str, interval: &str) -> Watch {
        Watch::spawn(
            bootstrap,
            &["--groups", groups, "--group-interval", interval],
        )
    }

    /// Start it on `bootstrap` with more arguments of `watch events`
    /// (`--kinds`, `--group-interval`).
    pub fn spawn(bootstrap: &str, args: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(["-b", bootstrap, "watch", "events", "-o", "json"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start kscope watch events");
        let lines = lines_of(child.stdout.take().expect("piped stdout"));
        let notes = lines_of(child.stderr.take().expect("piped stderr"));
        Watch {
            child,
            lines,
            notes,
            seen: Vec::new(),
        }
    }

    /// Wait for the stderr line saying the first group read (the
    /// baseline) is done; its text.
    pub fn baseline(&self) -> String {
        self.note("for group events")
    }

    /// Wait for a stderr line containing `text`; the line.
    pub fn note(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_mins(1);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(note) = self.notes.recv_timeout(left) else {
                panic!("no line on stderr containing '{text}' within a minute");
            };
            if note.contains(text) {
                return note;
            }
        }
    }

    /// Wait until `done` holds for what was seen.
    pub fn until(&mut self, what: &str, done: impl Fn(&[Value]) -> bool) {
        self.until_within(Duration::from_mins(1), what, done);
    }

    /// Wait until `done` holds for what was seen, for `within` at most.
    pub fn until_within(&mut self, within: Duration, what: &str, done: impl Fn(&[Value]) -> bool) {
        let deadline = Instant::now() + within;
        while !done(&self.seen) {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                panic!("no {what} within {within:?}; saw {:#?}", self.seen);
            };
            self.seen
                .push(serde_json::from_str(&line).expect("one json object per line"));
        }
    }
}

impl Watch {
    /// Take whatever comes within `quiet`.
    pub fn settle(&mut self, quiet: Duration) {
        let deadline = Instant::now() + quiet;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen
                .push(serde_json::from_str(&line).expect("one json object per line"));
        }
    }

    /// The stderr lines not yet read.
    pub fn notes_left(&self) -> Vec<String> {
        self.notes.try_iter().collect()
    }

    /// The records of `kind` about `group`.
    pub fn of(&self, kind: &str, group: &str) -> Vec<&Value> {
        self.seen
            .iter()
            .filter(|e| e["kind"] == kind && e["group"] == group)
            .collect()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
