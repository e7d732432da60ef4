//! Finding, reading and parsing the config file.

use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::paths;
use super::schema::ConfigFile;
use super::secret;
use super::validate;

/// A parsed, checked config file (or the empty config when there is none).
/// `Debug` leaves out the raw text, which may hold a literal password.
#[derive(Default)]
pub struct LoadedConfig {
    /// The file read; `None` when the default file does not exist.
    pub path: Option<PathBuf>,
    /// Its text, for turning spans into line and column.
    pub text: String,
    /// The parsed contents.
    pub file: ConfigFile,
    /// Things worth telling the user that are not errors (file permissions).
    pub warnings: Vec<String>,
}

impl std::fmt::Debug for LoadedConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedConfig")
            .field("path", &self.path)
            .field("file", &self.file)
            .field("warnings", &self.warnings)
            .finish_non_exhaustive()
    }
}

impl LoadedConfig {
    /// The file for messages: its path, or a note that there is none.
    pub fn source_name(&self) -> String {
        match &self.path {
            Some(path) => format!("'{}'", path.display()),
            None => match paths::default_config_file() {
                Some(path) => format!("'{}' (which does not exist)", path.display()),
                None => "the config file (no home directory found)".to_owned(),
            },
        }
    }

    /// The directory relative paths in the file are taken from.
    pub fn base_dir(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }
}

/// The config file to use: `--config` if given, else the XDG default.
pub fn config_path(explicit: Option<&Path>) -> Option<PathBuf> {
    explicit
        .map(Path::to_owned)
        .or_else(paths::default_config_file)
}

/// Load `--config PATH` (which must exist), or the default file if it exists.
pub fn load(explicit: Option<&Path>) -> Result<LoadedConfig, ConfigError> {
    let Some(path) = config_path(explicit) else {
        return Ok(LoadedConfig::default());
    };
    if explicit.is_none() && !path.exists() {
        return Ok(LoadedConfig::default());
    }
    let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
        path: path.clone(),
        source,
    })?;
    let file = parse(&path, &text)?;
    let mut warnings = Vec::new();
    if let Some(warning) = permission_warning(&path, &file) {
        warnings.push(warning);
    }
    Ok(LoadedConfig {
        path: Some(path),
        text,
        file,
        warnings,
    })
}

/// Parse and check `text`, read from `path`.
pub fn parse(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    let file: ConfigFile = toml::from_str(text)
        .map_err(|error| ConfigError::parse(path, text, error.span(), error.message()))?;
    validate::file(path, text, &file)?;
    Ok(file)
}

/// Contexts whose password is written out in the file.
fn literal_secret_contexts(file: &ConfigFile) -> Vec<&str> {
    file.contexts
        .iter()
        .filter(|(_, context)| {
            context
                .sasl
                .as_ref()
                .and_then(|sasl| sasl.password.as_ref())
                .is_some_and(|password| secret::is_literal(password.get_ref()))
                || context
                    .schema_registry
                    .as_ref()
                    .and_then(|registry| registry.password.as_ref())
                    .is_some_and(|password| secret::is_literal(password.get_ref()))
        })
        .map(|(name, _)| name.as_str())
        .collect()
}

/// A warning when a file its group or others can read holds a literal password.
#[cfg(unix)]
fn permission_warning(path: &Path, file: &ConfigFile) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    let contexts = literal_secret_contexts(file);
    if mode & 0o044 == 0 || contexts.is_empty() {
        return None;
    }
    Some(format!(
        "config file '{}' is readable by others (mode {:o}) and holds a literal password \
         (contexts: {}); run `chmod 600` on it, or use ${{env:VAR}}, ${{file:PATH}} or password_command",
        path.display(),
        mode & 0o777,
        contexts.join(", ")
    ))
}

#[cfg(not(unix))]
fn permission_warning(_path: &Path, _file: &ConfigFile) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) -> PathBuf {
        let path = dir.join("config.toml");
        std::fs::write(&path, text).expect("write config");
        path
    }

    const LITERAL: &str = r#"
[contexts.dev]
bootstrap_servers = ["127.0.0.1:9092"]
[contexts.dev.sasl]
mechanism = "PLAIN"
username = "alice"
password = "alice-secret"
"#;

    #[cfg(unix)]
    fn chmod(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    #[cfg(unix)]
    #[test]
    fn a_readable_file_with_a_literal_password_is_warned_about() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write(dir.path(), LITERAL);
        chmod(&path, 0o644);
        let loaded = load(Some(&path)).expect("loads");
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.warnings[0].contains("dev"));
        assert!(!loaded.warnings[0].contains("alice-secret"));
        assert!(
            !format!("{loaded:?}").contains("alice-secret"),
            "Debug shows the password"
        );
        chmod(&path, 0o600);
        assert!(load(Some(&path)).expect("loads").warnings.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_readable_file_with_only_references_is_fine() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write(dir.path(), &LITERAL.replace("alice-secret", "${env:PW}"));
        chmod(&path, 0o644);
        assert!(load(Some(&path)).expect("loads").warnings.is_empty());
    }

    #[test]
    fn an_explicit_missing_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nope.toml");
        let error = load(Some(&missing)).expect_err("missing");
        assert!(error.to_string().contains("nope.toml"), "{error}");
    }

    #[test]
    fn malformed_toml_names_line_and_column() {
        let error = parse(Path::new("c.toml"), "a = 1\n[contexts\n").expect_err("bad toml");
        let text = error.to_string();
        assert!(text.starts_with("bad config file c.toml:2:"), "{text}");
    }

    #[test]
    fn an_unknown_key_names_line_column_and_the_expected_keys() {
        let text = "[contexts.dev]\nbootstrap_servers = [\"h:1\"]\nbootstrap = 3\n";
        let error = parse(Path::new("c.toml"), text).expect_err("unknown key");
        let message = error.to_string();
        assert!(message.contains("c.toml:3:1"), "{message}");
        assert!(message.contains("unknown field `bootstrap`"), "{message}");
        assert!(message.contains("bootstrap_servers"), "{message}");
    }

    #[test]
    fn a_wrongly_typed_secret_does_not_leak_into_the_message() {
        let text = "[contexts.dev]\nbootstrap_servers = [\"h:1\"]\nread_only = \"hunter2\"\n";
        let message = parse(Path::new("c.toml"), text)
            .expect_err("bad type")
            .to_string();
        assert!(message.contains("c.toml:3:"), "{message}");
        assert!(!message.contains("hunter2"), "{message}");
    }
}
