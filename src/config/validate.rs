//! Checks beyond the TOML types, each pointing at the offending value's line and column.

use std::ops::Range;
use std::path::Path;

use toml::Spanned;

use super::error::ConfigError;
use super::keys;
use super::schema::{
    ConfigFile, ContextSection, MaskSection, RefreshSection, SaslSection, SchemaRegistrySection,
    TopicSchemaSection,
};
use super::secret;

/// The SASL mechanisms kscope implements (the connection layer parses these names).
pub const MECHANISMS: &[&str] = &["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"];

/// The longest `[fleet] poll_timeout_secs` accepted: a poll that may take
/// longer than five minutes would leave its row older than the slowest
/// backoff many times over.
pub const MAX_POLL_TIMEOUT_SECS: u64 = 300;

struct Checker<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Checker<'_> {
    fn fail(&self, span: &Range<usize>, key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::invalid(self.path, self.text, span, key, message)
    }

    fn positive(&self, value: Option<&Spanned<u64>>, key: &str) -> Result<(), ConfigError> {
        match value {
            Some(v) if *v.get_ref() == 0 => Err(self.fail(&v.span(), key, "expected at least 1")),
            _ => Ok(()),
        }
    }

    /// `value`, if set, is at least 1 and at most `max`.
    fn within(&self, value: Option<&Spanned<u64>>, key: &str, max: u64) -> Result<(), ConfigError> {
        self.positive(value, key)?;
        match value {
            Some(v) if *v.get_ref() > max => {
                Err(self.fail(&v.span(), key, format!("expected at most {max}")))
            }
            _ => Ok(()),
        }
    }

    fn refresh(&self, refresh: &RefreshSection, prefix: &str) -> Result<(), ConfigError> {
        self.positive(
            refresh.metadata_secs.as_ref(),
            &format!("{prefix}metadata_secs"),
        )?;
        self.positive(refresh.lag_secs.as_ref(), &format!("{prefix}lag_secs"))
    }

    fn theme(&self, theme: Option<&Spanned<String>>, key: &str) -> Result<(), ConfigError> {
        let Some(theme) = theme else { return Ok(()) };
        let name = theme.get_ref();
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if ok {
            Ok(())
        } else {
            Err(self.fail(
                &theme.span(),
                key,
                "expected a theme name (letters, digits, - and _)",
            ))
        }
    }

    fn context(&self, name: &str, context: &ContextSection) -> Result<(), ConfigError> {
        let prefix = format!("contexts.{name}.");
        let servers = &context.bootstrap_servers;
        if servers.get_ref().is_empty() {
            let key = format!("{prefix}bootstrap_servers");
            return Err(self.fail(&servers.span(), &key, "expected at least one HOST:PORT"));
        }
        for server in servers.get_ref() {
            check_address(server.get_ref())
                .map_err(|m| self.fail(&server.span(), &format!("{prefix}bootstrap_servers"), m))?;
        }
        self.positive(
            context.request_timeout_secs.as_ref(),
            &format!("{prefix}request_timeout_secs"),
        )?;
        self.positive(
            context.connect_timeout_secs.as_ref(),
            &format!("{prefix}connect_timeout_secs"),
        )?;
        self.theme(context.theme.as_ref(), &format!("{prefix}theme"))?;
        if let Some(refresh) = &context.refresh {
            self.refresh(refresh, &format!("{prefix}refresh."))?;
        }
        if let Some(registry) = &context.schema_registry {
            self.registry(registry, &format!("{prefix}schema_registry."))?;
        }
        for mapping in &context.topic_schemas {
            self.topic_schema(mapping, &format!("{prefix}topic_schemas."))?;
        }
        for rule in &context.mask {
            self.mask(rule, &format!("{prefix}mask"))?;
        }
        match &context.sasl {
            Some(sasl) => self.sasl(sasl, &format!("{prefix}sasl.")),
            None => Ok(()),
        }
    }

    fn registry(&self, registry: &SchemaRegistrySection, prefix: &str) -> Result<(), ConfigError> {
        let url = registry.url.get_ref();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            let message = "expected an http:// or https:// URL";
            return Err(self.fail(&registry.url.span(), &format!("{prefix}url"), message));
        }
        if let (Some(_), Some(command)) = (&registry.password, &registry.password_command) {
            let message = "set either password or password_command, not both";
            let key = format!("{prefix}password_command");
            return Err(self.fail(&command.span(), &key, message));
        }
        if let Some(password) = &registry.password {
            secret::check(password.get_ref())
                .map_err(|m| self.fail(&password.span(), &format!("{prefix}password"), m))?;
        }
        Ok(())
    }

    fn mask(&self, rule: &MaskSection, key: &str) -> Result<(), ConfigError> {
        match mask_rule(rule) {
            Ok(_) => Ok(()),
            Err(message) => {
                let span = rule
                    .topic
                    .as_ref()
                    .or(rule.text.as_ref())
                    .map_or(0..0, Spanned::span);
                Err(self.fail(&span, key, message))
            }
        }
    }

    fn topic_schema(&self, mapping: &TopicSchemaSection, prefix: &str) -> Result<(), ConfigError> {
        let span = mapping.topic.span();
        if let Err(error) = regex::Regex::new(mapping.topic.get_ref()) {
            return Err(self.fail(&span, &format!("{prefix}topic"), error.to_string()));
        }
        let sources = [
            mapping.subject.is_some(),
            mapping.avro_file.is_some(),
            mapping.proto_file.is_some(),
        ];
        if sources.iter().filter(|s| **s).count() != 1 {
            let message = "set exactly one of subject, avro_file and proto_file";
            return Err(self.fail(&span, &format!("{prefix}topic"), message));
        }
        if mapping.proto_file.is_some() != mapping.message.is_some() {
            let message = "proto_file needs message (the full name, e.g. shop.Order), and message needs proto_file";
            return Err(self.fail(&span, &format!("{prefix}message"), message));
        }
        Ok(())
    }

    fn sasl(&self, sasl: &SaslSection, prefix: &str) -> Result<(), ConfigError> {
        let mechanism = sasl.mechanism.get_ref().to_ascii_uppercase();
        let span = sasl.mechanism.span();
        if !MECHANISMS.contains(&mechanism.as_str()) {
            let message = format!(
                "unknown mechanism, expected one of {}",
                MECHANISMS.join(", ")
            );
            return Err(self.fail(&span, &format!("{prefix}mechanism"), message));
        }
        if let (Some(_), Some(command)) = (&sasl.password, &sasl.password_command) {
            let message = "set either password or password_command, not both";
            return Err(self.fail(
                &command.span(),
                &format!("{prefix}password_command"),
                message,
            ));
        }
        if let Some(password) = &sasl.password {
            secret::check(password.get_ref())
                .map_err(|m| self.fail(&password.span(), &format!("{prefix}password"), m))?;
        }
        let oauth = mechanism == "OAUTHBEARER";
        if oauth && sasl.token_command.is_none() {
            return Err(self.fail(
                &span,
                &format!("{prefix}token_command"),
                "OAUTHBEARER needs token_command",
            ));
        }
        if let (false, Some(token)) = (oauth, &sasl.token_command) {
            let message = "token_command is only for OAUTHBEARER";
            return Err(self.fail(&token.span(), &format!("{prefix}token_command"), message));
        }
        Ok(())
    }
}

/// `HOST:PORT` with a non-empty host and a port in 1..=65535 (`[v6]:port` allowed).
pub fn check_address(address: &str) -> Result<(), String> {
    let expected = format!("'{address}' is not HOST:PORT (expected e.g. broker1:9092)");
    let Some((host, port)) = address.rsplit_once(':') else {
        return Err(expected);
    };
    let port_ok = port.parse::<u16>().is_ok_and(|p| p > 0);
    if host.is_empty() || !port_ok || host.chars().any(char::is_whitespace) {
        return Err(expected);
    }
    Ok(())
}

/// Check a parsed file: every context, the default, the key remaps.
pub fn file(path: &Path, text: &str, file: &ConfigFile) -> Result<(), ConfigError> {
    let checker = Checker { path, text };
    checker.theme(file.ui.theme.as_ref(), "ui.theme")?;
    checker.refresh(&file.refresh, "refresh.")?;
    checker.positive(file.fleet.concurrency.as_ref(), "fleet.concurrency")?;
    checker.positive(file.fleet.interval_secs.as_ref(), "fleet.interval_secs")?;
    checker.within(
        file.fleet.poll_timeout_secs.as_ref(),
        "fleet.poll_timeout_secs",
        MAX_POLL_TIMEOUT_SECS,
    )?;
    for (name, context) in &file.contexts {
        checker.context(name, context)?;
    }
    if let Some(default) = &file.default_context
        && !file.contexts.contains_key(default.get_ref())
    {
        let known: Vec<&str> = file.contexts.keys().map(String::as_str).collect();
        let message = format!("no such context (known: {})", list_or_none(&known));
        return Err(checker.fail(&default.span(), "default_context", message));
    }
    for (action, key) in &file.keys {
        let at = format!("keys.{action}");
        if !keys::is_action(action) {
            let message = format!(
                "unknown action, expected one of {}",
                keys::ACTIONS.join(", ")
            );
            return Err(checker.fail(&key.span(), &at, message));
        }
        keys::normalise(key.get_ref()).map_err(|m| checker.fail(&key.span(), &at, m))?;
    }
    Ok(())
}

/// `a, b, c`, or `none`.
pub fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// A `[[contexts.NAME.mask]]` entry compiled, or what is wrong with it.
pub fn mask_rule(
    section: &crate::config::schema::MaskSection,
) -> Result<crate::browse::mask::MaskRule, String> {
    crate::browse::mask::MaskRule::new(
        section.topic.as_ref().map(|t| t.get_ref().as_str()),
        &section.paths,
        section.text.as_ref().map(|t| t.get_ref().as_str()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), String> {
        let path = Path::new("c.toml");
        let parsed: ConfigFile = toml::from_str(text).map_err(|e| e.to_string())?;
        file(path, text, &parsed).map_err(|e| e.to_string())
    }

    const CTX: &str = "[contexts.a]\nbootstrap_servers = [\"h:9092\"]\n";

    #[test]
    fn a_good_file_passes() {
        let text = format!("default_context = \"a\"\n[keys]\nquit = \"ctrl+q\"\n{CTX}");
        assert_eq!(check(&text), Ok(()));
    }

    #[test]
    fn bad_values_point_at_their_line_and_column() {
        let cases = [
            (
                "default_context = \"b\"\n",
                "c.toml:1:19",
                "no such context (known: a)",
            ),
            ("[keys]\nexplode = \"x\"\n", "c.toml:2:11", "unknown action"),
            (
                "[keys]\nquit = \"hyper+q\"\n",
                "c.toml:2:8",
                "unknown or repeated modifier",
            ),
            (
                "[refresh]\nlag_secs = 0\n",
                "c.toml:2:12",
                "expected at least 1",
            ),
        ];
        for (prefix, at, what) in cases {
            let message = check(&format!("{prefix}{CTX}")).expect_err(prefix);
            assert!(
                message.contains(at) && message.contains(what),
                "{prefix}: {message}"
            );
        }
    }

    #[test]
    fn context_values_are_checked() {
        let cases = [
            ("bootstrap_servers = [\"nohost\"]", "not HOST:PORT"),
            ("bootstrap_servers = []", "expected at least one"),
            (
                "bootstrap_servers = [\"h:1\"]\n[contexts.x.sasl]\nmechanism = \"GSSAPI\"",
                "unknown mechanism",
            ),
            (
                "bootstrap_servers = [\"h:1\"]\n[contexts.x.sasl]\nmechanism = \"PLAIN\"\npassword = \"a\"\npassword_command = \"b\"",
                "not both",
            ),
            (
                "bootstrap_servers = [\"h:1\"]\n[contexts.x.sasl]\nmechanism = \"OAUTHBEARER\"",
                "needs token_command",
            ),
            (
                "bootstrap_servers = [\"h:1\"]\n[contexts.x.sasl]\nmechanism = \"PLAIN\"\npassword = \"${vault:x}\"",
                "unknown secret reference",
            ),
            (
                "bootstrap_servers = [\"h:1\"]\n[[contexts.x.topic_schemas]]\ntopic = \"(\"\nsubject = \"s\"",
                "topic_schemas.topic",
            ),
            (
                "bootstrap_servers = [\"h:1\"]\n[[contexts.x.topic_schemas]]\ntopic = \"a\"\nsubject = \"s\"\navro_file = \"a.avsc\"",
                "exactly one of subject",
            ),
            (
                "bootstrap_servers = [\"h:1\"]\n[[contexts.x.topic_schemas]]\ntopic = \"a\"\nproto_file = \"a.proto\"",
                "proto_file needs message",
            ),
        ];
        for (body, what) in cases {
            let message = check(&format!("[contexts.x]\n{body}\n")).expect_err(body);
            assert!(
                message.contains(what) && message.contains("contexts.x."),
                "{body}: {message}"
            );
        }
    }

    #[test]
    fn addresses() {
        assert!(check_address("broker:9092").is_ok());
        assert!(check_address("[::1]:9092").is_ok());
        assert!(check_address(":9092").is_err());
        assert!(check_address("h:0").is_err());
        assert!(check_address("h:99999").is_err());
    }
}
