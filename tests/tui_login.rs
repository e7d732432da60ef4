//! End to end in tmux, against the real test cluster's SASL listener: a
//! context whose `password_command` asks for the password on the terminal
//! (issue 30, "needs login"). `:ctx` to it steps the TUI aside, the prompt
//! is answered on the terminal and the session connects with it; Ctrl-C at
//! the prompt cancels that login only (kscope keeps running on the context
//! it had); and `kscope get` asks on the terminal the same way.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use support::tmux::{self, Tmux, kscope_command};

/// Prompts on standard error and reads the answer from standard input
/// without echo, as `read -s` would (POSIX sh has no `-s`).
const ASKING: &str = "stty -echo; printf 'vault password: ' >&2; read -r pw; stty echo; printf '%s\\\\n' \\\"$pw\\\"";

/// A config of `alpha` (the plaintext listener) and `vault` and `cancel`
/// (SCRAM, the password asked on the terminal).
fn config(home: &Path, env: &support::ClusterEnv) -> PathBuf {
    let bootstrap = format!("{:?}", env.bootstrap_list());
    let sasl: Vec<&str> = env
        .get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT")
        .split(',')
        .collect();
    let user = env.get("KSCOPE_SCRAM_USER");
    let asking = |name: &str| {
        format!(
            "[contexts.{name}]\nbootstrap_servers = {sasl:?}\n\
             [contexts.{name}.sasl]\nmechanism = \"SCRAM-SHA-512\"\nusername = \"{user}\"\n\
             password_command = \"{ASKING}\"\n\n"
        )
    };
    let path = home.join("login.toml");
    std::fs::write(
        &path,
        format!(
            "[contexts.alpha]\nbootstrap_servers = {bootstrap}\n\n{}{}",
            asking("vault"),
            asking("cancel")
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    path
}

/// kscope (with `args` after the config) in a tmux session named from
/// `prefix`, on a config of [`config`]; the home directory lives as long
/// as the session is used.
fn start(env: &support::ClusterEnv, prefix: &str, args: &str) -> (Tmux, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let config = config(home.path(), env);
    let command = kscope_command(
        home.path(),
        "",
        &format!("--config {} {args}", config.display()),
    );
    (Tmux::start(&tmux::unique_name(prefix), &command), home)
}

/// Type `password` at the prompt on screen, and wait for `what` to hold:
/// the screen then, which must not show the password.
fn answer(tmux: &Tmux, password: &str, what: &str, check: impl Fn(&str) -> bool) -> String {
    tmux.keys(&["-l", password]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_within(Duration::from_secs(30), what, check);
    assert!(
        !screen.contains(password),
        "the password on screen:\n{screen}"
    );
    screen
}

fn vault_topics(s: &str) -> bool {
    s.contains("context: vault") && s.contains("topics [")
}

#[test]
fn ctx_to_a_context_that_asks_steps_aside_for_the_prompt_and_ctrl_c_cancels_only_that() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let password = env.get("KSCOPE_SCRAM_PASSWORD");
    let (tmux, _home) = start(&env, "kscope-login", "--context alpha");
    tmux.wait_for_within(Duration::from_secs(30), "alpha's Topics screen", |s| {
        s.contains("context: alpha") && s.contains("topics [")
    });

    tmux.keys(&[":"]);
    tmux.keys(&["-l", "ctx vault"]);
    tmux.keys(&["Enter"]);
    let prompt = tmux.wait_for_within(Duration::from_secs(30), "the prompt", |s| {
        s.contains("context 'vault' asks for a password") && s.contains("vault password:")
    });
    assert!(
        !prompt.contains("topics ["),
        "the TUI still drawn over the prompt:\n{prompt}"
    );
    answer(&tmux, password, "vault's Topics screen", vault_topics);
    // The keys work again: the input thread reads after the login.
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "brokers"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the Brokers screen", |s| s.contains("brokers ["));

    // Ctrl-C at the prompt ends the command, not kscope.
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "ctx cancel"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for_within(Duration::from_secs(30), "the second prompt", |s| {
        s.contains("context 'cancel' asks for a password") && s.contains("vault password:")
    });
    tmux.keys(&["C-c"]);
    tmux.wait_for_within(Duration::from_secs(30), "the failure, kept", |s| {
        s.contains("context 'cancel'") && s.contains("press any key to go back")
    });
    assert!(tmux.alive(), "Ctrl-C at the prompt ended kscope");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_within(Duration::from_secs(30), "back on vault", |s| {
        s.contains("context: vault") && s.contains("brokers [") && s.contains("'cancel'")
    });
    assert!(!screen.contains("context: cancel"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn get_asks_on_the_terminal_when_it_has_one() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let password = env.get("KSCOPE_SCRAM_PASSWORD");
    let home = tempfile::tempdir().unwrap();
    let config = config(home.path(), &env);
    let command = format!(
        "{}; echo \"exit=$?\"; sleep 60",
        kscope_command(
            home.path(),
            "",
            &format!("--config {} --context vault get brokers", config.display()),
        )
    );
    let tmux = Tmux::start(&tmux::unique_name("kscope-get-login"), &command);
    tmux.wait_for_within(Duration::from_secs(30), "the prompt", |s| {
        s.contains("vault password:")
    });
    let screen = answer(&tmux, password, "the brokers", |s| s.contains("exit="));
    assert!(screen.contains("exit=0"), "{screen}");
}

#[test]
fn started_on_a_context_that_asks_the_prompt_comes_before_the_screen() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let password = env.get("KSCOPE_SCRAM_PASSWORD");
    let (tmux, _home) = start(&env, "kscope-start-login", "--context vault");
    tmux.wait_for_within(Duration::from_secs(30), "the prompt", |s| {
        s.contains("vault password:")
    });
    answer(&tmux, password, "vault's Topics screen", vault_topics);
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
