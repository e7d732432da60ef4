//! `kscope get fleet -o json` run with a config of its own, for the fleet
//! tests: the environment is emptied of anything that would pick a context
//! for it.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Run `get fleet -o json` with `config` (and `extra` flags before the
/// subcommand) under `home`: its output, its rows, and how long it took.
/// Panics with kscope's stderr when it printed no JSON.
pub fn get_fleet(home: &Path, config: &Path, extra: &[&str]) -> (Output, Vec<Value>, Duration) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env_remove("KSCOPE_BOOTSTRAP")
        .env_remove("KSCOPE_CONTEXT")
        .arg("--config")
        .arg(config)
        .args(extra)
        .args(["get", "fleet", "-o", "json"])
        .output()
        .expect("run kscope");
    let took = started.elapsed();
    let rows: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "get fleet printed no JSON ({e}); stderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, rows, took)
}

/// The row of `context`; panics listing every row when there is none.
pub fn row<'a>(rows: &'a [Value], context: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["context"] == context)
        .unwrap_or_else(|| panic!("no row for '{context}' in {rows:#?}"))
}
