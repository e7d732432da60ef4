//! End to end: the fleet screen (issue 30) in tmux against the real test
//! cluster. A config of three contexts — two on the cluster, one on a port
//! nobody listens on — opened with `--fleet`: the refused context's row is
//! first and says why (in full, across its metric columns), the others are
//! `ok` with the cluster's numbers; Enter on another context switches the
//! session to it and opens its Topics screen, and Esc comes back to the
//! fleet, its rows still there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use support::tmux::{self, Tmux, kscope_command};

#[test]
fn the_fleet_shows_every_context_and_enter_switches_and_esc_comes_back() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let bootstrap = format!("{:?}", env.bootstrap_list());
    let config = home.path().join("fleet.toml");
    std::fs::write(
        &config,
        format!(
            "[fleet]\ninterval_secs = 5\n\n\
             [contexts.alpha]\nbootstrap_servers = {bootstrap}\n\n\
             [contexts.beta]\nbootstrap_servers = {bootstrap}\n\n\
             [contexts.gone]\nbootstrap_servers = [\"127.0.0.1:1\"]\n"
        ),
    )
    .unwrap();
    let command = kscope_command(
        home.path(),
        "",
        &format!("--config {} --context alpha --fleet", config.display()),
    );
    let tmux = Tmux::start(&tmux::unique_name("kscope-fleet"), &command);
    let screen = tmux.wait_for_within(
        Duration::from_secs(30),
        "every context's row answered",
        |s| {
            s.contains("fleet: every context [")
                && s.contains("HEALTH↑")
                && s.contains("UNREACHABLE")
                && s.matches(" ok ").count() >= 2
        },
    );
    let lines: Vec<&str> = screen.lines().collect();
    let row = |name: &str| {
        lines
            .iter()
            .position(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{screen}"))
    };
    assert!(
        row("gone") < row("alpha") && row("gone") < row("beta"),
        "worst first:\n{screen}"
    );
    // A context that never answered says why across its metric columns:
    // the whole reason, whatever WORST LAG names on the other rows.
    assert!(
        lines[row("gone")].contains("connection refused: "),
        "the refused context says so in full:\n{screen}"
    );
    assert!(
        lines[row("beta")].contains("3/3"),
        "brokers answering:\n{screen}"
    );

    tmux.keys(&["/"]);
    tmux.keys(&["-l", "beta"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("only beta", |s| {
        s.contains("[1/1]") && !s.contains("UNREACHABLE")
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for_within(Duration::from_secs(30), "beta's Topics screen", |s| {
        s.contains("context: beta") && s.contains("topics [")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the fleet as it was left", |s| {
        s.contains("fleet: every context [1/1] filter: beta") && s.contains("context: beta")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("every row again, still polled", |s| {
        s.contains("UNREACHABLE") && s.matches(" ok ").count() >= 2
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

/// A context whose `password_command` needs a terminal (it opens
/// `/dev/tty`, which the fleet's unattended run has not) is "needs login"
/// and not polled; Enter on it resolves it the session's way, where the
/// command has kscope's terminal, and from then on the fleet polls it with
/// those settings: its row turns `ok`.
#[test]
fn a_needs_login_row_is_polled_once_the_context_is_opened() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let bootstrap = format!("{:?}", env.bootstrap_list());
    let sasl: Vec<&str> = env
        .get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT")
        .split(',')
        .collect();
    let config = home.path().join("fleet.toml");
    std::fs::write(
        &config,
        format!(
            "[fleet]\ninterval_secs = 5\n\n\
             [contexts.alpha]\nbootstrap_servers = {bootstrap}\n\n\
             [contexts.vault]\nbootstrap_servers = {sasl:?}\n\
             [contexts.vault.sasl]\nmechanism = \"SCRAM-SHA-512\"\nusername = \"{user}\"\n\
             password_command = \": </dev/tty && echo '{password}'\"\n",
            user = env.get("KSCOPE_SCRAM_USER"),
            password = env.get("KSCOPE_SCRAM_PASSWORD"),
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let command = kscope_command(
        home.path(),
        "",
        &format!("--config {} --context alpha --fleet", config.display()),
    );
    let tmux = Tmux::start(&tmux::unique_name("kscope-fleet-login"), &command);
    tmux.wait_for_within(Duration::from_secs(30), "vault needs login", |s| {
        s.contains("NEEDS LOGIN")
            && s.contains("needs login — open it once (Enter)")
            && s.contains(" ok ")
    });
    tmux.keys(&["/"]);
    tmux.keys(&["-l", "vault"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("only vault", |s| {
        s.contains("[1/1]") && s.contains("NEEDS LOGIN")
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for_within(Duration::from_secs(30), "vault's Topics screen", |s| {
        s.contains("context: vault") && s.contains("topics [")
    });
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_for_within(Duration::from_secs(20), "vault polled: ok", |s| {
        s.contains("fleet: every context [1/1] filter: vault")
            && !s.contains("NEEDS LOGIN")
            && s.contains(" ok ")
    });
    assert!(
        !screen.contains(env.get("KSCOPE_SCRAM_PASSWORD")),
        "a password on screen:\n{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));

    // Started on that context, kscope hands its settings to the fleet as
    // the fleet starts: the row is polled without asking again.
    let command = kscope_command(
        home.path(),
        "",
        &format!("--config {} --context vault --fleet", config.display()),
    );
    let tmux = Tmux::start(&tmux::unique_name("kscope-fleet-started"), &command);
    tmux.wait_for_within(
        Duration::from_secs(30),
        "vault polled from the start",
        |s| {
            s.contains("context: vault")
                && s.matches(" ok ").count() >= 2
                && !s.contains("NEEDS LOGIN")
        },
    );
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
