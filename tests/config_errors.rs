//! The binary with bad or odd configs: one message naming file, line and
//! column, exit code 2, nothing written to the terminal but that message; and
//! the small commands (`config path`, `info`, `completions`). No cluster needed.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    fn write(&self, name: &str, text: &str, mode: u32) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        path
    }

    fn kscope(&self, args: &[&str]) -> Output {
        let root = self.dir.path();
        Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(args)
            .env("HOME", root)
            .env("XDG_CONFIG_HOME", root.join("xdg-config"))
            .env("XDG_STATE_HOME", root.join("xdg-state"))
            .env_remove("KSCOPE_CONTEXT")
            .env_remove("KSCOPE_BOOTSTRAP")
            .env_remove("KSCOPE_CONFIG")
            .env_remove("KSCOPE_LOG")
            .output()
            .expect("run kscope")
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit 2, nothing on stdout, one stderr line naming `at`, no escape sequences
/// (no alternate screen, no raw mode dance: the terminal was never touched).
fn assert_config_error(output: &Output, at: &str, what: &str) {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(output.stdout.is_empty(), "stdout: {}", text(&output.stdout));
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    assert!(
        stderr.contains(at) && stderr.contains(what),
        "want {at} / {what}: {stderr}"
    );
    assert!(
        !output.stderr.contains(&0x1b),
        "escape sequences in: {stderr}"
    );
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn malformed_toml_names_file_line_column_and_exits_2() {
    let home = Home::new();
    let path = home.write(
        "bad.toml",
        "default_context = \"a\"\n[contexts.a\nbootstrap_servers = []\n",
        0o600,
    );
    let output = home.kscope(&["--config", path_str(&path)]);
    assert_config_error(
        &output,
        &format!("{}:2:", path.display()),
        "bad config file",
    );
}

#[test]
fn an_unknown_key_names_file_line_column_and_what_was_expected() {
    let home = Home::new();
    let config = "[contexts.a]\nbootstrap_servers = [\"h:1\"]\n\n[contexts.a.sasl]\nmechanism = \"PLAIN\"\npasword = \"hunter2\"\n";
    let path = home.write("typo.toml", config, 0o600);
    for args in [
        vec!["--config", path_str(&path)],
        vec!["--config", path_str(&path), "info"],
    ] {
        let output = home.kscope(&args);
        assert_config_error(
            &output,
            &format!("{}:6:1", path.display()),
            "unknown field `pasword`",
        );
        assert!(
            text(&output.stderr).contains("expected one of"),
            "{}",
            text(&output.stderr)
        );
        assert!(!text(&output.stderr).contains("hunter2"));
    }
}

#[test]
fn a_bad_value_names_its_key_and_position() {
    let home = Home::new();
    let config =
        "[contexts.a]\nbootstrap_servers = [\"h:1\"]\n[contexts.a.sasl]\nmechanism = \"GSSAPI\"\n";
    let path = home.write("mech.toml", config, 0o600);
    let output = home.kscope(&["--config", path_str(&path), "config", "check"]);
    assert_config_error(
        &output,
        &format!("{}:4:13", path.display()),
        "contexts.a.sasl.mechanism",
    );
}

#[test]
fn a_missing_secret_variable_and_a_bad_dash_x_exit_2_naming_the_key() {
    let home = Home::new();
    let config = "[contexts.a]\nbootstrap_servers = [\"h:1\"]\n[contexts.a.sasl]\nmechanism = \"PLAIN\"\nusername = \"u\"\npassword = \"${env:KSCOPE_TEST_NOT_SET_ANYWHERE}\"\n";
    let path = home.write("env.toml", config, 0o644);
    let output = home.kscope(&["--config", path_str(&path)]);
    assert_config_error(
        &output,
        "contexts.a.sasl.password",
        "KSCOPE_TEST_NOT_SET_ANYWHERE",
    );

    let output = home.kscope(&["-b", "h:1", "-X", "sasl.pasword=hunter2"]);
    assert_config_error(&output, "sasl.pasword", "unknown key");
    assert!(!text(&output.stderr).contains("hunter2"));
}

#[test]
fn an_unknown_context_is_exit_2_listing_the_known_ones() {
    let home = Home::new();
    let path = home.write(
        "c.toml",
        "[contexts.a]\nbootstrap_servers = [\"h:1\"]\n",
        0o600,
    );
    let output = home.kscope(&["--config", path_str(&path), "--context", "b"]);
    assert_config_error(&output, "no context named 'b'", "(known: a)");
}

#[test]
fn config_path_prints_the_xdg_default_or_the_given_file() {
    let home = Home::new();
    let output = home.kscope(&["config", "path"]);
    assert!(output.status.success());
    let expected = home.dir.path().join("xdg-config/kscope/config.toml");
    assert_eq!(text(&output.stdout).trim(), expected.display().to_string());
    let output = home.kscope(&["--config", "/elsewhere/k.toml", "config", "path"]);
    assert_eq!(text(&output.stdout).trim(), "/elsewhere/k.toml");
}

#[test]
fn info_shows_files_and_contexts_without_secrets_and_warns_about_a_readable_literal() {
    let home = Home::new();
    let config = "default_context = \"a\"\n[contexts.a]\nbootstrap_servers = [\"h1:9092\", \"h2:9092\"]\nread_only = true\n[contexts.a.sasl]\nmechanism = \"PLAIN\"\nusername = \"u\"\npassword = \"literal-secret\"\n";
    let dir = home.dir.path().join("xdg-config/kscope");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join("config.toml");
    std::fs::write(&path, config).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let output = home.kscope(&["info"]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains(&path.display().to_string()), "{stdout}");
    assert!(
        stdout.contains(
            &home
                .dir
                .path()
                .join("xdg-state/kscope/kscope.")
                .display()
                .to_string()
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("h1:9092,h2:9092") && stdout.contains("read-only"),
        "{stdout}"
    );
    assert!(
        stderr.contains("readable by others") && stderr.contains("chmod 600"),
        "{stderr}"
    );
    assert!(!stdout.contains("literal-secret") && !stderr.contains("literal-secret"));
}

#[test]
fn completions_are_printed_for_each_shell() {
    let home = Home::new();
    for shell in ["bash", "zsh", "fish"] {
        let output = home.kscope(&["completions", shell]);
        assert!(output.status.success(), "{shell}: {}", text(&output.stderr));
        let script = text(&output.stdout);
        assert!(
            script.contains("kscope") && script.contains("bootstrap-servers"),
            "{shell}"
        );
    }
}
