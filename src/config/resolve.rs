//! From a loaded file plus the command line to one context ready to connect.
//!
//! Precedence: `--context NAME` picks a context; `-b` alone is a one-off
//! context (like kcat) and with `--context` replaces its bootstrap list;
//! otherwise `default_context`, or the only context there is. `-X` keys then
//! override the context's TLS and SASL settings; secrets are resolved last.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::Spanned;

use super::error::ConfigError;
use super::keys;
use super::load::LoadedConfig;
use super::overrides::Overrides;
use super::paths;
use super::schema::{ConfigFile, ContextSection, RefreshSection, SchemaRegistrySection};
use super::transport::{sasl, tls};
use super::validate::{check_address, list_or_none, mask_rule};
use crate::conn::{ConnectionConfig, Secret};
use crate::schema::RegistryConfig;

/// The name of the context made from `-b` alone.
pub const ONE_OFF: &str = "command-line";
/// Metadata refresh when nothing sets it.
pub const DEFAULT_METADATA_REFRESH: Duration = Duration::from_secs(10);
/// Lag refresh when nothing sets it.
pub const DEFAULT_LAG_REFRESH: Duration = Duration::from_secs(5);
/// The theme when nothing sets it.
pub const DEFAULT_THEME: &str = "default";

/// What the command line asks for. `Debug` redacts `-X` secrets.
#[derive(Default, Clone)]
pub struct Selection {
    /// `--context`.
    pub context: Option<String>,
    /// `-b`, comma separated.
    pub bootstrap: Option<String>,
    /// `-X key=value`.
    pub overrides: Vec<String>,
    /// `--read-only`.
    pub read_only: bool,
    /// `--mask RULE`, repeatable: masked in every topic.
    pub mask: Vec<String>,
}

impl std::fmt::Debug for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selection")
            .field("context", &self.context)
            .field("bootstrap", &self.bootstrap)
            .field("overrides", &super::overrides::redacted(&self.overrides))
            .field("read_only", &self.read_only)
            .field("mask", &self.mask)
            .finish()
    }
}

/// How often live data is fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefreshIntervals {
    /// Full metadata refresh.
    pub metadata: Duration,
    /// Group offsets and lag.
    pub lag: Duration,
}

/// One context, resolved: everything needed to connect and draw.
#[derive(Debug, Clone)]
pub struct ResolvedContext {
    /// The context's name ([`ONE_OFF`] for `-b` alone).
    pub name: String,
    /// The config file it came from, if any.
    pub config_path: Option<PathBuf>,
    /// `HOST:PORT` addresses to bootstrap from.
    pub bootstrap_servers: Vec<String>,
    /// Settings for every connection (secrets inside are redacted in `Debug`).
    pub connection: ConnectionConfig,
    /// Whether writes are refused (also set in `connection.read_only`).
    pub read_only: bool,
    /// Refresh intervals.
    pub refresh: RefreshIntervals,
    /// The theme name.
    pub theme: String,
    /// Key remaps: action to normalised key (see [`super::keys`]).
    pub keys: BTreeMap<String, String>,
    /// Warnings to show before starting (e.g. file permissions).
    pub warnings: Vec<String>,
    /// The schema registry, if one is configured (password resolved, redacted in `Debug`).
    pub schema_registry: Option<RegistryConfig>,
    /// Schemas for values without the Confluent wire prefix, by topic regex.
    pub topic_schemas: Vec<crate::schema::mapping::TopicSchema>,
    /// What is masked before anything is shown (`[[contexts.NAME.mask]]`
    /// and `--mask`).
    pub mask: crate::browse::mask::Masker,
}

impl ResolvedContext {
    /// `SCRAM-SHA-512 over TLS`, `TLS`, `PLAINTEXT`: how this context connects.
    pub fn security(&self) -> String {
        let tls = self.connection.tls.is_some();
        match (&self.connection.sasl, tls) {
            (Some(sasl), true) => format!("SASL {} over TLS", sasl.mechanism),
            (Some(sasl), false) => format!("SASL {} without TLS", sasl.mechanism),
            (None, true) => "TLS".to_owned(),
            (None, false) => "PLAINTEXT".to_owned(),
        }
    }
}

/// Resolve `selection` against `loaded`.
pub fn resolve(
    loaded: &LoadedConfig,
    selection: &Selection,
) -> Result<ResolvedContext, ConfigError> {
    let overrides = Overrides::parse(&selection.overrides)?;
    let (name, section) = choose(loaded, selection)?;
    let fail = |message: String| ConfigError::Context {
        context: name.clone(),
        message,
    };
    let bootstrap_servers = match (&selection.bootstrap, section) {
        (Some(list), _) => parse_bootstrap(list).map_err(fail)?,
        (None, Some(section)) => section
            .bootstrap_servers
            .get_ref()
            .iter()
            .map(|s| s.get_ref().clone())
            .collect(),
        (None, None) => {
            return Err(ConfigError::NoContext {
                source_name: loaded.source_name(),
            });
        }
    };
    let base = loaded.base_dir();
    let tls = tls(section.and_then(|s| s.tls.as_ref()), &overrides, base);
    let sasl = sasl(
        &name,
        section.and_then(|s| s.sasl.as_ref()),
        &overrides,
        base,
    )?;
    let schema_registry = registry(
        &name,
        section.and_then(|s| s.schema_registry.as_ref()),
        &overrides,
        base,
    )?;
    let topic_schemas = section.map_or_else(Vec::new, |s| topic_schemas(&s.topic_schemas, base));
    let mask = masker(section, &selection.mask).map_err(fail)?;
    let read_only = selection.read_only || section.is_some_and(|s| s.read_only);
    let defaults = ConnectionConfig::default();
    let connection = ConnectionConfig {
        client_id: section
            .and_then(|s| s.client_id.clone())
            .unwrap_or(defaults.client_id),
        request_timeout: secs(
            section.and_then(|s| s.request_timeout_secs.as_ref()),
            defaults.request_timeout,
        ),
        connect_timeout: secs(
            section.and_then(|s| s.connect_timeout_secs.as_ref()),
            defaults.connect_timeout,
        ),
        tls,
        sasl,
        read_only,
        ..defaults
    };
    let file = &loaded.file;
    let own = section.and_then(|s| s.refresh.as_ref());
    let pick = |get: fn(&RefreshSection) -> Option<&Spanned<u64>>, default| {
        secs(own.and_then(get).or_else(|| get(&file.refresh)), default)
    };
    let refresh = RefreshIntervals {
        metadata: pick(|r| r.metadata_secs.as_ref(), DEFAULT_METADATA_REFRESH),
        lag: pick(|r| r.lag_secs.as_ref(), DEFAULT_LAG_REFRESH),
    };
    let theme = theme_of(file, section);
    Ok(ResolvedContext {
        name,
        config_path: loaded.path.clone(),
        bootstrap_servers,
        connection,
        read_only,
        refresh,
        theme,
        keys: key_remaps(file),
        warnings: loaded.warnings.clone(),
        schema_registry,
        topic_schemas,
        mask,
    })
}

/// The context's mask rules (checked when the file was loaded) and then
/// `--mask`'s.
fn masker(
    section: Option<&ContextSection>,
    args: &[String],
) -> Result<crate::browse::mask::Masker, String> {
    use crate::browse::mask::{MaskRule, Masker};
    let mut rules = Vec::new();
    for rule in section.map_or(&[][..], |s| &s.mask) {
        rules.push(mask_rule(rule)?);
    }
    for rule in args {
        rules.push(MaskRule::from_arg(rule).map_err(|e| format!("--mask '{rule}': {e}"))?);
    }
    Ok(Masker::new(rules))
}

/// The topic mappings (checked when the file was loaded: a regex that does
/// not compile or an entry without one source is skipped here), files
/// relative to the config file.
fn topic_schemas(
    sections: &[crate::config::schema::TopicSchemaSection],
    base: Option<&Path>,
) -> Vec<crate::schema::mapping::TopicSchema> {
    use crate::schema::mapping::{Source, TopicSchema};
    sections
        .iter()
        .filter_map(|s| {
            let topic = regex::Regex::new(s.topic.get_ref()).ok()?;
            let source = match (&s.subject, &s.avro_file, &s.proto_file, &s.message) {
                (Some(subject), None, None, None) => Source::Subject(subject.clone()),
                (None, Some(file), None, None) => Source::Avro(paths::expand(file, base)),
                (None, None, Some(file), Some(message)) => Source::Proto {
                    file: paths::expand(file, base),
                    message: message.clone(),
                },
                _ => return None,
            };
            Some(TopicSchema { topic, source })
        })
        .collect()
}

/// The schema registry: `-X schema.registry.url` replaces the context's URL
/// (keeping its credentials); its password is resolved like SASL's.
fn registry(
    context: &str,
    section: Option<&SchemaRegistrySection>,
    overrides: &Overrides,
    base: Option<&Path>,
) -> Result<Option<RegistryConfig>, ConfigError> {
    let url = match (&overrides.registry_url, section) {
        (Some(url), _) => url.clone(),
        (None, Some(section)) => section.url.get_ref().clone(),
        (None, None) => return Ok(None),
    };
    let mut config = RegistryConfig::new(url);
    if let Some(section) = section {
        from_section(&mut config, context, section, base)?;
    }
    if let Some(info) = &overrides.registry_user_info {
        const KEY: &str = "-X schema.registry.basic.auth.user.info";
        let info = super::secret::resolve(KEY, info.expose(), None)?;
        let Some((user, password)) = info.split_once(':') else {
            return Err(ConfigError::Override {
                arg: KEY[3..].to_owned(),
                message: "expected USER:PASSWORD".to_owned(),
            });
        };
        config.username = Some(user.to_owned());
        config.password = Secret::new(password);
    }
    if let Some(ca) = &overrides.registry_ca_file {
        config.ca_file = Some(paths::expand(ca, None));
    }
    Ok(Some(config))
}

/// The context's registry credentials and CA file.
fn from_section(
    config: &mut RegistryConfig,
    context: &str,
    section: &SchemaRegistrySection,
    base: Option<&Path>,
) -> Result<(), ConfigError> {
    let key = |field: &str| format!("contexts.{context}.schema_registry.{field}");
    config.username.clone_from(&section.username);
    if let Some(raw) = &section.password {
        config.password = Secret::new(super::secret::resolve(
            &key("password"),
            raw.get_ref(),
            base,
        )?);
    } else if let Some(command) = &section.password_command {
        config.password = Secret::new(super::secret::run_command(
            &key("password_command"),
            command.get_ref(),
            base,
        )?);
    }
    config.ca_file = section.ca_file.as_ref().map(|p| paths::expand(p, base));
    Ok(())
}

fn secs(value: Option<&Spanned<u64>>, default: Duration) -> Duration {
    value.map_or(default, |v| Duration::from_secs(*v.get_ref()))
}

/// A context's theme: its own, else `[ui] theme`, else the default.
fn theme_of(file: &ConfigFile, section: Option<&ContextSection>) -> String {
    section
        .and_then(|s| s.theme.as_ref())
        .or(file.ui.theme.as_ref())
        .map_or_else(|| DEFAULT_THEME.to_owned(), |t| t.get_ref().clone())
}

/// What the screen takes from the config when no cluster is reached (the
/// replay of a recording): the theme of the context named `context` (its
/// own when the config has that context, else `[ui] theme`) and the
/// `[keys]` remaps. Nothing is resolved: no secret is read, no command run.
pub fn looks(loaded: &LoadedConfig, context: &str) -> (String, BTreeMap<String, String>) {
    let file = &loaded.file;
    (theme_of(file, file.contexts.get(context)), key_remaps(file))
}

/// `[keys]`, normalised (the file was checked on load, so none is dropped).
fn key_remaps(file: &ConfigFile) -> BTreeMap<String, String> {
    file.keys
        .iter()
        .filter_map(|(action, key)| Some((action.clone(), keys::normalise(key.get_ref()).ok()?)))
        .collect()
}

/// The context's name and, unless it is a one-off, its section.
fn choose<'a>(
    loaded: &'a LoadedConfig,
    selection: &Selection,
) -> Result<(String, Option<&'a ContextSection>), ConfigError> {
    let contexts = &loaded.file.contexts;
    let wanted = match (
        &selection.context,
        &selection.bootstrap,
        &loaded.file.default_context,
    ) {
        (Some(name), _, _) => name.clone(),
        (None, Some(_), _) => return Ok((ONE_OFF.to_owned(), None)),
        (None, None, Some(default)) => default.get_ref().clone(),
        (None, None, None) if contexts.len() == 1 => {
            contexts.keys().next().cloned().unwrap_or_default()
        }
        (None, None, None) => {
            return Err(ConfigError::NoContext {
                source_name: loaded.source_name(),
            });
        }
    };
    if let Some(section) = contexts.get(&wanted) {
        return Ok((wanted, Some(section)));
    }
    let known: Vec<&str> = contexts.keys().map(String::as_str).collect();
    Err(ConfigError::UnknownContext {
        name: wanted,
        source_name: loaded.source_name(),
        known: list_or_none(&known),
    })
}

fn parse_bootstrap(list: &str) -> Result<Vec<String>, String> {
    let servers: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if servers.is_empty() {
        return Err("-b: expected HOST:PORT[,HOST:PORT...]".to_owned());
    }
    for server in &servers {
        check_address(server).map_err(|m| format!("-b: {m}"))?;
    }
    Ok(servers)
}
