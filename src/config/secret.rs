//! Resolving secret references so passwords need not sit in the config file.
//!
//! A password value is either literal text, or exactly one reference:
//! `${env:VAR}` (an environment variable) or `${file:PATH}` (a file's contents,
//! trailing newline removed; relative paths from the config file's directory).
//! `password_command` runs a shell command (in the config file's directory)
//! and takes its standard output.
//! Errors name the key and the variable or file, never the secret, and never
//! quote a command: its text may carry a secret of its own (`--token=…`).
//! A command that has not finished within [`COMMAND_TIMEOUT`] is killed with
//! everything it started, and that is the error.
//!
//! The fleet resolves every context of the config in the background, where
//! nobody may be asked for anything: under [`unattended`], a command runs in
//! a session of its own without a controlling terminal (`setsid`, where it
//! exists: opening `/dev/tty` then fails at once; otherwise in a background
//! process group, whose read of the terminal stops it until it is killed),
//! without `GPG_TTY` (no pinentry drawn over the screen), and is killed after
//! a short timeout of its own.
//!
//! Otherwise a command that may ask for a password gets the terminal: when
//! kscope's process group holds it in the foreground, the command runs as a
//! foreground job of its own (`super::tty`) with the terminal as its standard
//! input and error, and has [`LOGIN_TIMEOUT`] for the person to answer. The
//! TUI first tries unattended and steps aside (leaves its screen) only for
//! a command that failed that way. Without the terminal (`kscope … &`, a
//! pipe from cron), the command runs as a background job and a prompt
//! fails at its first read.

use std::cell::Cell;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::error::ConfigError;
use super::paths;

/// A parsed secret value.
#[derive(Debug, PartialEq, Eq)]
enum Reference<'a> {
    Literal(&'a str),
    Env(&'a str),
    File(&'a str),
}

fn reference(raw: &str) -> Result<Reference<'_>, String> {
    let Some(inner) = raw
        .strip_prefix("${")
        .and_then(|rest| rest.strip_suffix('}'))
    else {
        return Ok(Reference::Literal(raw));
    };
    match inner.split_once(':') {
        Some(("env", var)) if !var.is_empty() => Ok(Reference::Env(var)),
        Some(("file", path)) if !path.is_empty() => Ok(Reference::File(path)),
        _ => Err("unknown secret reference (expected ${env:VAR} or ${file:PATH})".to_owned()),
    }
}

/// Whether `raw` is a secret written out in the file rather than a reference.
pub fn is_literal(raw: &str) -> bool {
    matches!(reference(raw), Ok(Reference::Literal(_)))
}

/// Check that `raw` is a literal or a well-formed reference, without resolving it.
pub fn check(raw: &str) -> Result<(), String> {
    reference(raw).map(|_| ())
}

/// The secret `raw` stands for; `key` names it in errors.
pub fn resolve(key: &str, raw: &str, base: Option<&Path>) -> Result<String, ConfigError> {
    let error = |message: String| ConfigError::Secret {
        key: key.to_owned(),
        message,
    };
    match reference(raw).map_err(error)? {
        Reference::Literal(text) => Ok(text.to_owned()),
        Reference::Env(var) => std::env::var(var).map_err(|e| match e {
            std::env::VarError::NotPresent => {
                error(format!("environment variable '{var}' is not set"))
            }
            std::env::VarError::NotUnicode(_) => {
                error(format!("environment variable '{var}' is not valid UTF-8"))
            }
        }),
        Reference::File(file) => {
            let path = paths::expand(Path::new(file), base);
            std::fs::read_to_string(&path)
                .map(|text| trim_newline(&text).to_owned())
                .map_err(|e| error(format!("cannot read '{}': {e}", path.display())))
        }
    }
}

/// How long a `password_command` may take: a secret manager waiting for a
/// login prompt nobody sees would otherwise hold kscope forever.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(20);

/// Run `command` with `sh -c` in `dir` (the config file's directory, when
/// known) and return its standard output, trailing newline removed; killed
/// (with its own children) after [`COMMAND_TIMEOUT`].
/// Under [`unattended`], [`run_command`] runs a command without a terminal,
/// killed after [`UNATTENDED_TIMEOUT`].
pub fn run_command(key: &str, command: &str, dir: Option<&Path>) -> Result<String, ConfigError> {
    match UNATTENDED.get() {
        Some(timeout) => run_command_within(key, command, dir, timeout, Terminal::None),
        None => match super::tty::Lender::claim() {
            Some(lender) => {
                run_command_within(key, command, dir, LOGIN_TIMEOUT, Terminal::Lent(&lender))
            }
            None => run_command_within(key, command, dir, COMMAND_TIMEOUT, Terminal::Background),
        },
    }
}

/// Whether a `password_command` run now (not [`unattended`]) would have
/// the terminal to ask on: kscope's process group holds it in the foreground.
pub fn can_prompt() -> bool {
    super::tty::Lender::claim().is_some()
}

/// How long a `password_command` that has the terminal may take: a person
/// typing a password, or approving a second factor on a phone.
pub const LOGIN_TIMEOUT: Duration = Duration::from_mins(2);

/// How long a `password_command` may take when nobody can answer a prompt
/// (the fleet's polls): a secret manager that answers from a cache or an
/// agent does within that; one that would ask is "needs login".
pub const UNATTENDED_TIMEOUT: Duration = Duration::from_secs(3);

thread_local! {
    /// Set by [`unattended`] on this thread: the timeout of its commands.
    static UNATTENDED: Cell<Option<Duration>> = const { Cell::new(None) };
}

/// Puts the thread's previous mode back, even when `f` panicked (blocking
/// threads are reused).
struct Restore(Option<Duration>);

impl Drop for Restore {
    fn drop(&mut self) {
        UNATTENDED.set(self.0);
    }
}

/// Run `f` (resolving contexts) with every `password_command` it runs on
/// this thread unattended: no controlling terminal, killed after `timeout`.
/// A command that would prompt fails (or times out) instead.
pub fn unattended<T>(timeout: Duration, f: impl FnOnce() -> T) -> T {
    let _restore = Restore(UNATTENDED.replace(Some(timeout)));
    f()
}

/// Which terminal a command may use.
#[derive(Clone, Copy)]
enum Terminal<'a> {
    /// kscope's, lent to the command's group as the foreground job: it may
    /// prompt, and its standard error is the terminal (what it printed is
    /// on screen, not in the error).
    Lent(&'a super::tty::Lender),
    /// kscope's, from a background process group of its own: reading it
    /// stops the command until the timeout.
    Background,
    /// None: a session of its own (see [`unattended`]).
    None,
}

/// `sh -c command`, in a process group of its own so a timeout kills what
/// it started too; for [`Terminal::None`] under `setsid` (a new session,
/// which is also a new process group) when `setsid` exists.
fn spawn(command: &str, dir: Option<&Path>, terminal: Terminal<'_>) -> std::io::Result<Child> {
    let shell = |program: &str| {
        let mut shell = Command::new(program);
        if program != "sh" {
            shell.arg("sh");
        }
        if let Some(dir) = dir {
            shell.current_dir(dir);
        }
        shell
            .arg("-c")
            .arg(command)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .stdout(Stdio::piped());
        shell
    };
    if matches!(terminal, Terminal::None) {
        // Not a group leader when started (kscope's group), `setsid` makes
        // its session in place and runs the shell as its leader: killing
        // the group of its pid kills what the shell started.
        let mut detached = shell("setsid");
        detached.env_remove("GPG_TTY");
        match detached.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            spawned => return spawned,
        }
    }
    let mut shell = shell("sh");
    match terminal {
        Terminal::Lent(lender) => lender.lend(&mut shell)?,
        Terminal::Background => {
            shell.process_group(0);
        }
        Terminal::None => {
            shell.env_remove("GPG_TTY").process_group(0);
        }
    }
    shell.spawn()
}

fn run_command_within(
    key: &str,
    command: &str,
    dir: Option<&Path>,
    timeout: Duration,
    terminal: Terminal<'_>,
) -> Result<String, ConfigError> {
    let error = |message: String| ConfigError::Secret {
        key: key.to_owned(),
        message,
    };
    let child =
        spawn(command, dir, terminal).map_err(|e| error(format!("cannot run the command: {e}")))?;
    let group = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(waited) = rx.recv_timeout(timeout) else {
        kill_group(group);
        return Err(error(format!(
            "the command did not finish within {} s and was stopped (does it wait for input?)",
            timeout.as_secs_f32()
        )));
    };
    let output: Output = waited.map_err(|e| error(format!("cannot run the command: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().next().unwrap_or("").trim();
        let said = if first.is_empty() {
            String::new()
        } else {
            format!(": {first}")
        };
        return Err(error(format!(
            "the command failed ({}){said}",
            output.status
        )));
    }
    let stdout = String::from_utf8(output.stdout)
        .map_err(|_| error("the command printed text that is not UTF-8".to_owned()))?;
    let secret = trim_newline(&stdout);
    if secret.is_empty() {
        return Err(error("the command printed nothing".to_owned()));
    }
    Ok(secret.to_owned())
}

/// SIGKILL process group `group` (the shell's builtin `kill`: no unsafe
/// code, no extra crate). The waiting thread then reaps the shell.
fn kill_group(group: u32) {
    let killed = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -KILL -{group}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !killed.is_ok_and(|status| status.success()) {
        tracing::warn!(group, "could not stop a password_command that timed out");
    }
}

fn trim_newline(text: &str) -> &str {
    text.strip_suffix('\n')
        .map_or(text, |t| t.strip_suffix('\r').unwrap_or(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "contexts.prod.sasl.password";

    /// As a background job, whether or not the tests run in a terminal:
    /// what the command printed on standard error is then in the error.
    fn background(key: &str, command: &str) -> Result<String, ConfigError> {
        run_command_within(key, command, None, COMMAND_TIMEOUT, Terminal::Background)
    }

    #[test]
    fn literals_and_references_are_told_apart() {
        assert!(is_literal("hunter2"));
        assert!(!is_literal("${env:PW}"));
        assert!(!is_literal("${file:/run/pw}"));
        assert!(check("${vault:x}").is_err());
        assert!(check("${env:}").is_err());
    }

    #[test]
    fn an_env_reference_resolves_and_a_missing_one_names_key_and_variable() {
        // PATH is always set; reading it proves the lookup without mutating the environment.
        let path = std::env::var("PATH").expect("PATH");
        assert_eq!(resolve(KEY, "${env:PATH}", None).expect("set"), path);
        let error = resolve(KEY, "${env:KSCOPE_SURELY_UNSET_VAR}", None).expect_err("unset");
        let message = error.to_string();
        assert!(message.contains(KEY), "{message}");
        assert!(message.contains("KSCOPE_SURELY_UNSET_VAR"), "{message}");
    }

    #[test]
    fn a_file_reference_reads_the_file_relative_to_the_config() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("pw"), "s3cret\n").expect("write");
        assert_eq!(
            resolve(KEY, "${file:pw}", Some(dir.path())).expect("file"),
            "s3cret"
        );
        let error = resolve(KEY, "${file:absent}", Some(dir.path())).expect_err("absent");
        assert!(error.to_string().contains("absent"), "{error}");
    }

    #[test]
    fn a_literal_is_itself() {
        assert_eq!(resolve(KEY, "plain", None).expect("literal"), "plain");
    }

    #[test]
    fn a_command_resolves_and_a_failing_one_names_key_and_status() {
        let key = "contexts.prod.sasl.password_command";
        assert_eq!(background(key, "printf 'pw\\n'").expect("runs"), "pw");
        let message = background(key, "echo nope >&2; exit 3")
            .expect_err("fails")
            .to_string();
        assert!(message.contains(key), "{message}");
        assert!(message.contains("exit status: 3"), "{message}");
        assert!(message.contains("nope"), "{message}");
        let message = background(key, "exit 4 # --token=tok-789")
            .expect_err("fails")
            .to_string();
        assert!(!message.contains("tok-789"), "{message}");
        let message = background(key, "true --token=tok-789")
            .expect_err("prints nothing")
            .to_string();
        assert!(!message.contains("tok-789"), "{message}");
        assert!(background(key, "true").is_err(), "empty output is an error");
    }

    #[test]
    fn unattended_a_command_that_reads_the_terminal_fails_and_one_that_hangs_is_cut_short() {
        let key = "contexts.prod.sasl.password_command";
        let started = std::time::Instant::now();
        let prompt = unattended(Duration::from_secs(2), || {
            run_command(key, "read -r pw </dev/tty && echo $pw", None)
        });
        assert!(prompt.is_err(), "no terminal to read: {prompt:?}");
        // setsid: no controlling terminal, so opening /dev/tty fails at once
        // (where setsid is missing, the read stops it until the timeout).
        if Command::new("setsid").arg("true").status().is_ok() {
            assert!(
                started.elapsed() < Duration::from_millis(1500),
                "{:?}",
                started.elapsed()
            );
        }
        let started = std::time::Instant::now();
        let hung = unattended(Duration::from_millis(300), || {
            run_command(key, "sleep 30; echo late", None)
        })
        .expect_err("killed");
        assert!(hung.to_string().contains("did not finish"), "{hung}");
        assert!(started.elapsed() < Duration::from_secs(5));
        // A command that needs no terminal answers as ever, and the mode
        // ends with `unattended`.
        let answered = unattended(Duration::from_secs(2), || run_command(key, "echo pw", None));
        assert_eq!(answered.expect("answers"), "pw");
        assert_eq!(UNATTENDED.get(), None);
        let caught = std::panic::catch_unwind(|| {
            unattended(Duration::from_secs(1), || -> u8 {
                panic!("inside unattended")
            })
        });
        assert!(caught.is_err());
        assert_eq!(UNATTENDED.get(), None, "restored after a panic too");
    }

    #[test]
    fn a_command_that_hangs_is_killed_with_what_it_started() {
        let dir = std::env::temp_dir().join(format!("kscope-secret-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let pid_file = dir.join("sleeper.pid");
        let key = "contexts.prod.sasl.password_command";
        let command = format!("sleep 300 & echo $! > '{}'; wait", pid_file.display());
        let message = run_command_within(
            key,
            &command,
            None,
            Duration::from_millis(300),
            Terminal::Background,
        )
        .expect_err("times out")
        .to_string();
        assert!(message.contains(key), "{message}");
        assert!(message.contains("did not finish"), "{message}");
        let pid = std::fs::read_to_string(&pid_file).expect("the command started its sleeper");
        let stat = format!("/proc/{}/stat", pid.trim());
        // Killed, then reaped by whoever adopted it: gone, or a zombie until then.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let dead = loop {
            let gone = std::fs::read_to_string(&stat).map_or(true, |s| {
                s.rsplit(')')
                    .next()
                    .is_some_and(|rest| rest.trim_start().starts_with('Z'))
            });
            if gone || std::time::Instant::now() > deadline {
                break gone;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let _ = std::fs::remove_dir_all(&dir);
        assert!(dead, "the sleeper the command started is still running");
    }
}
