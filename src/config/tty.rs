//! Lending kscope's terminal to a `password_command` that asks for a
//! password, the way a shell runs a foreground job.
//!
//! A command in a process group of its own (so a timeout can kill what it
//! started) is a background job: its first read of the terminal stops it
//! with SIGTTIN, and a prompt could never be answered. [`Lender::claim`]
//! succeeds only when kscope's own process group holds the terminal in the
//! foreground (not `kscope … &`, not without a terminal); [`Lender::lend`]
//! makes the command's new group the foreground one from inside the child,
//! before `exec`, so its first read already finds the terminal its own;
//! dropping the lender takes it back. Ctrl-C at the prompt then reaches
//! the command's group only, never kscope.

use std::fs::{File, OpenOptions};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// kscope's controlling terminal, held in the foreground by kscope's group.
pub struct Lender {
    tty: File,
    /// kscope's process group, which gets the terminal back.
    ours: libc::pid_t,
}

impl Lender {
    /// The terminal, if kscope's process group is its foreground group.
    pub fn claim() -> Option<Lender> {
        let tty = OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok()?;
        let (ours, foreground) = process_groups(tty.as_raw_fd());
        (ours == foreground).then_some(Lender { tty, ours })
    }

    /// Make `command` (not yet spawned) a foreground job on the terminal:
    /// a process group of its own that holds the terminal, with the
    /// terminal as its standard input (a plain `read` answers the prompt)
    /// and standard error (where `read -p` and most tools write theirs).
    #[allow(unsafe_code)] // a pre-exec hook: only async-signal-safe calls, no allocation
    pub fn lend(&self, command: &mut Command) -> std::io::Result<()> {
        command
            .stdin(Stdio::from(self.tty.try_clone()?))
            .stderr(Stdio::from(self.tty.try_clone()?));
        let fd = self.tty.as_raw_fd();
        // SAFETY: the hook runs in the forked child before exec and calls
        // only setpgid, sigaction-backed signal, tcsetpgrp and getpid, all
        // async-signal-safe; `fd` stays open in the child until exec.
        unsafe {
            command.pre_exec(move || {
                if libc::setpgid(0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                take_foreground(fd, libc::getpid());
                Ok(())
            });
        }
        Ok(())
    }
}

impl Drop for Lender {
    fn drop(&mut self) {
        take_foreground(self.tty.as_raw_fd(), self.ours);
    }
}

/// Make `group` the foreground process group of terminal `fd`. A process
/// in a background group that does this is sent SIGTTOU, which would stop
/// it: it is ignored for the call, then put back as it was.
#[allow(unsafe_code)] // tcsetpgrp and signal have no safe wrapper in std
fn take_foreground(fd: RawFd, group: libc::pid_t) {
    // SAFETY: plain system calls on a descriptor we hold open; the previous
    // SIGTTOU disposition is restored at once.
    unsafe {
        let previous = libc::signal(libc::SIGTTOU, libc::SIG_IGN);
        libc::tcsetpgrp(fd, group);
        libc::signal(libc::SIGTTOU, previous);
    }
}

/// kscope's process group and terminal `fd`'s foreground group.
#[allow(unsafe_code)] // getpgrp and tcgetpgrp have no safe wrapper in std
fn process_groups(fd: RawFd) -> (libc::pid_t, libc::pid_t) {
    // SAFETY: getpgrp cannot fail; tcgetpgrp reads a descriptor we hold.
    unsafe { (libc::getpgrp(), libc::tcgetpgrp(fd)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_terminal_nothing_is_claimed() {
        // `setsid` leaves the child without a controlling terminal: its
        // claim must fail, so the command runs as a background job instead.
        let Ok(exe) = std::env::current_exe() else {
            return;
        };
        if Command::new("setsid").arg("true").status().is_err() {
            return;
        }
        let probe = Command::new("setsid")
            .arg(exe)
            .args(["--exact", "config::tty::tests::claim_probe", "--ignored"])
            .env("KSCOPE_TTY_PROBE", "1")
            .stdin(Stdio::null())
            .output()
            .expect("the probe runs");
        let said = String::from_utf8_lossy(&probe.stdout);
        assert!(probe.status.success(), "a claim without a terminal: {said}");
        assert!(
            said.contains("claim_probe ... ok"),
            "the probe did not run: {said}"
        );
    }

    /// Run by the test above in a session without a terminal.
    #[test]
    #[ignore = "run only by without_a_terminal_nothing_is_claimed"]
    fn claim_probe() {
        if std::env::var_os("KSCOPE_TTY_PROBE").is_some() {
            assert!(Lender::claim().is_none());
        }
    }
}
