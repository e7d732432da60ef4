//! Where kscope keeps its files: the XDG base directories (via `directories`).
//!
//! - config: `$XDG_CONFIG_HOME/kscope/config.toml` (`~/.config/kscope/config.toml`)
//! - logs: `crate::logging::log_dir` (the logger keeps its own directory, so
//!   that it depends on nothing above it).

use std::path::{Path, PathBuf};

use directories::{BaseDirs, ProjectDirs};

/// The config file name inside the config directory.
pub const CONFIG_FILE_NAME: &str = "config.toml";

fn project() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "kscope")
}

/// The default config file path, or `None` when no home directory is known.
pub fn default_config_file() -> Option<PathBuf> {
    project().map(|dirs| dirs.config_dir().join(CONFIG_FILE_NAME))
}

/// `path` with a leading `~/` expanded, and a relative path taken relative to
/// `base` (the directory of the config file that named it).
pub fn expand(path: &Path, base: Option<&Path>) -> PathBuf {
    if let Ok(rest) = path.strip_prefix("~")
        && let Some(home) = BaseDirs::new()
    {
        return home.home_dir().join(rest);
    }
    match base {
        Some(base) if path.is_relative() => base.join(path),
        _ => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_taken_from_the_config_directory() {
        let base = Path::new("/etc/kscope");
        assert_eq!(
            expand(Path::new("ca.pem"), Some(base)),
            Path::new("/etc/kscope/ca.pem")
        );
        assert_eq!(
            expand(Path::new("/abs/ca.pem"), Some(base)),
            Path::new("/abs/ca.pem")
        );
        assert_eq!(expand(Path::new("ca.pem"), None), Path::new("ca.pem"));
    }

    #[test]
    fn a_tilde_is_the_home_directory() {
        let expanded = expand(Path::new("~/certs/ca.pem"), None);
        assert!(expanded.ends_with("certs/ca.pem"));
        assert!(!expanded.starts_with("~"));
    }
}
