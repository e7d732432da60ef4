//! A context's TLS and SASL settings from its file sections and the `-X`
//! overrides (which win), with the SASL password resolved last: `-X
//! sasl.password`, else the file's `password` (`${env:}`, `${file:}`), else
//! its `password_command`.

use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::overrides::{Overrides, SecurityProtocol};
use super::paths;
use super::schema::{SaslSection, TlsSection};
use crate::conn::{SaslConfig, SaslMechanism, Secret, TlsConfig};

pub(super) fn tls(
    section: Option<&TlsSection>,
    overrides: &Overrides,
    base: Option<&Path>,
) -> Option<TlsConfig> {
    let wanted = overrides.protocol.map_or(
        section.is_some() || overrides.any_tls(),
        SecurityProtocol::tls,
    );
    if !wanted {
        return None;
    }
    let section = section.cloned().unwrap_or_default();
    let from_file = |path: Option<PathBuf>| path.map(|p| paths::expand(&p, base));
    let from_cli = |path: &Option<PathBuf>| path.as_deref().map(|p| paths::expand(p, None));
    Some(TlsConfig {
        ca_file: from_cli(&overrides.ca_file).or_else(|| from_file(section.ca_file)),
        client_cert_file: from_cli(&overrides.cert_file)
            .or_else(|| from_file(section.client_cert_file)),
        client_key_file: from_cli(&overrides.key_file)
            .or_else(|| from_file(section.client_key_file)),
        server_name: section.server_name,
        danger_skip_verification: section.danger_skip_verification,
    })
}

pub(super) fn sasl(
    context: &str,
    section: Option<&SaslSection>,
    overrides: &Overrides,
    base: Option<&Path>,
) -> Result<Option<SaslConfig>, ConfigError> {
    let wanted = overrides.protocol.map_or(
        section.is_some() || overrides.any_sasl(),
        SecurityProtocol::sasl,
    );
    if !wanted {
        return Ok(None);
    }
    let fail = |message: String| ConfigError::Context {
        context: context.to_owned(),
        message,
    };
    let key = |field: &str| format!("contexts.{context}.sasl.{field}");
    let mechanism = match (overrides.mechanism, section) {
        (Some(mechanism), _) => mechanism,
        (None, Some(section)) => section
            .mechanism
            .get_ref()
            .parse()
            .map_err(|e| fail(format!("{e}")))?,
        (None, None) => {
            return Err(fail(
                "SASL needs a mechanism: -X sasl.mechanism=...".to_owned(),
            ));
        }
    };
    let token_command = section
        .and_then(|s| s.token_command.as_ref())
        .map(|t| Secret::new(t.get_ref().clone()));
    if mechanism == SaslMechanism::OAuthBearer {
        if token_command.is_none() {
            let message = format!(
                "OAUTHBEARER needs {} in the config file",
                key("token_command")
            );
            return Err(fail(message));
        }
        return Ok(Some(SaslConfig {
            mechanism,
            username: String::new(),
            password: Secret::default(),
            token_command,
        }));
    }
    let username = overrides
        .username
        .clone()
        .or_else(|| section.and_then(|s| s.username.clone()))
        .ok_or_else(|| {
            let file = section.map(|_| format!("{} or ", key("username")));
            let file = file.unwrap_or_default();
            fail(format!(
                "SASL {mechanism} needs a username: {file}-X sasl.username"
            ))
        })?;
    let password = password(context, mechanism, section, overrides, base)?;
    Ok(Some(SaslConfig {
        mechanism,
        username,
        password: Secret::new(password),
        token_command: None,
    }))
}

/// The password: `-X sasl.password`, else the context's `password`, else its `password_command`.
fn password(
    context: &str,
    mechanism: SaslMechanism,
    section: Option<&SaslSection>,
    overrides: &Overrides,
    base: Option<&Path>,
) -> Result<String, ConfigError> {
    let fail = |message: String| ConfigError::Context {
        context: context.to_owned(),
        message,
    };
    let key = |field: &str| format!("contexts.{context}.sasl.{field}");
    if let Some(raw) = &overrides.password {
        super::secret::resolve("-X sasl.password", raw.expose(), None)
    } else if let Some(raw) = section.and_then(|s| s.password.as_ref()) {
        super::secret::resolve(&key("password"), raw.get_ref(), base)
    } else if let Some(command) = section.and_then(|s| s.password_command.as_ref()) {
        super::secret::run_command(&key("password_command"), command.get_ref(), base)
    } else {
        let file = section.map(|_| format!("{}, {} or ", key("password"), key("password_command")));
        let file = file.unwrap_or_default();
        let message = format!("SASL {mechanism} needs a password: {file}-X sasl.password");
        Err(fail(message))
    }
}
