//! `-X key=value`: librdkafka-style overrides, as kcat users type them.

use std::path::PathBuf;
use std::str::FromStr;

use super::error::ConfigError;
use crate::conn::{SaslMechanism, Secret};

/// The keys `-X` accepts.
pub const KEYS: &[&str] = &[
    "security.protocol",
    "sasl.mechanism",
    "sasl.mechanisms",
    "sasl.username",
    "sasl.password",
    "ssl.ca.location",
    "ssl.certificate.location",
    "ssl.key.location",
    "schema.registry.url",
    "schema.registry.basic.auth.user.info",
    "schema.registry.ssl.ca.location",
];

/// librdkafka's `security.protocol`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecurityProtocol {
    /// No TLS, no SASL.
    Plaintext,
    /// TLS only.
    Ssl,
    /// SASL without TLS.
    SaslPlaintext,
    /// SASL over TLS.
    SaslSsl,
}

impl SecurityProtocol {
    /// Whether the protocol uses TLS.
    pub fn tls(self) -> bool {
        matches!(self, Self::Ssl | Self::SaslSsl)
    }

    /// Whether the protocol uses SASL.
    pub fn sasl(self) -> bool {
        matches!(self, Self::SaslPlaintext | Self::SaslSsl)
    }
}

impl FromStr for SecurityProtocol {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_uppercase().as_str() {
            "PLAINTEXT" => Ok(Self::Plaintext),
            "SSL" => Ok(Self::Ssl),
            "SASL_PLAINTEXT" => Ok(Self::SaslPlaintext),
            "SASL_SSL" => Ok(Self::SaslSsl),
            _ => Err("expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL".to_owned()),
        }
    }
}

/// The parsed `-X` arguments, last one of a key winning.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `security.protocol`.
    pub protocol: Option<SecurityProtocol>,
    /// `sasl.mechanism` (or librdkafka's plural `sasl.mechanisms`).
    pub mechanism: Option<SaslMechanism>,
    /// `sasl.username`.
    pub username: Option<String>,
    /// `sasl.password`: literal or a `${env:..}`/`${file:..}` reference, unresolved.
    pub password: Option<Secret>,
    /// `ssl.ca.location`.
    pub ca_file: Option<PathBuf>,
    /// `ssl.certificate.location`.
    pub cert_file: Option<PathBuf>,
    /// `ssl.key.location`.
    pub key_file: Option<PathBuf>,
    /// `schema.registry.url`: a registry for this run (replaces the context's URL).
    pub registry_url: Option<String>,
    /// `schema.registry.basic.auth.user.info`: `USER:PASSWORD` (or a
    /// `${env:..}`/`${file:..}` reference to it), unresolved.
    pub registry_user_info: Option<Secret>,
    /// `schema.registry.ssl.ca.location`: the CAs to trust for the registry.
    pub registry_ca_file: Option<PathBuf>,
}

impl Overrides {
    /// Whether any `ssl.*` key was given.
    pub fn any_tls(&self) -> bool {
        self.ca_file.is_some() || self.cert_file.is_some() || self.key_file.is_some()
    }

    /// Whether any `sasl.*` key was given.
    pub fn any_sasl(&self) -> bool {
        self.mechanism.is_some() || self.username.is_some() || self.password.is_some()
    }

    /// Parse every `key=value`; errors name the key, never the value.
    pub fn parse(args: &[String]) -> Result<Self, ConfigError> {
        let mut overrides = Self::default();
        for arg in args {
            overrides.apply(arg)?;
        }
        Ok(overrides)
    }

    fn apply(&mut self, arg: &str) -> Result<(), ConfigError> {
        let Some((key, value)) = arg.split_once('=') else {
            // Shown only when it is a known key: a stray value may be a password.
            let shown = if KEYS.contains(&arg) { arg } else { "…" };
            return Err(bad(shown, "expected key=value"));
        };
        let key = key.trim();
        if value.is_empty() {
            return Err(bad(key, "the value is empty"));
        }
        match key {
            "security.protocol" => {
                self.protocol = Some(value.parse().map_err(|m: String| bad(key, &m))?);
            }
            "sasl.mechanism" | "sasl.mechanisms" => {
                let mechanism = value.parse().map_err(|e| bad(key, &format!("{e}")))?;
                self.mechanism = Some(mechanism);
            }
            "sasl.username" => self.username = Some(value.to_owned()),
            "sasl.password" => self.password = Some(Secret::new(value)),
            "ssl.ca.location" => self.ca_file = Some(PathBuf::from(value)),
            "ssl.certificate.location" => self.cert_file = Some(PathBuf::from(value)),
            "ssl.key.location" => self.key_file = Some(PathBuf::from(value)),
            "schema.registry.url" => self.registry_url = Some(value.to_owned()),
            "schema.registry.basic.auth.user.info" => {
                self.registry_user_info = Some(Secret::new(value));
            }
            "schema.registry.ssl.ca.location" => self.registry_ca_file = Some(PathBuf::from(value)),
            _ => {
                let message = format!("unknown key, expected one of {}", KEYS.join(", "));
                return Err(bad(key, &message));
            }
        }
        Ok(())
    }
}

/// `-X` arguments fit for `Debug` and logs: every value except that of a
/// known non-secret key is replaced by `<redacted>`.
pub fn redacted(args: &[String]) -> Vec<String> {
    const SAFE: &[&str] = &[
        "security.protocol",
        "sasl.mechanism",
        "sasl.mechanisms",
        "sasl.username",
        "ssl.ca.location",
        "ssl.certificate.location",
        "ssl.key.location",
        "schema.registry.url",
        "schema.registry.ssl.ca.location",
    ];
    args.iter()
        .map(|arg| match arg.split_once('=') {
            Some((key, _)) if SAFE.contains(&key.trim()) => arg.clone(),
            Some((key, _)) => format!("{key}=<redacted>"),
            None => "<redacted>".to_owned(),
        })
        .collect()
}

fn bad(arg: &str, message: &str) -> ConfigError {
    ConfigError::Override {
        arg: arg.to_owned(),
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Overrides, String> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        Overrides::parse(&args).map_err(|e| e.to_string())
    }

    #[test]
    fn every_common_librdkafka_key_is_read() {
        let overrides = parse(&[
            "security.protocol=sasl_ssl",
            "sasl.mechanisms=SCRAM-SHA-512",
            "sasl.username=alice",
            "sasl.password=alice-secret",
            "ssl.ca.location=/ca.pem",
            "ssl.certificate.location=/c.pem",
            "ssl.key.location=/c.key",
        ])
        .expect("parses");
        assert_eq!(overrides.protocol, Some(SecurityProtocol::SaslSsl));
        assert_eq!(overrides.mechanism, Some(SaslMechanism::ScramSha512));
        assert_eq!(overrides.username.as_deref(), Some("alice"));
        assert_eq!(
            overrides.password.as_ref().map(Secret::expose),
            Some("alice-secret")
        );
        assert!(overrides.any_tls() && overrides.any_sasl());
        assert!(!format!("{overrides:?}").contains("alice-secret"));
    }

    #[test]
    fn redaction_keeps_safe_values_only() {
        let args = [
            "sasl.username=alice",
            "sasl.password=pw1",
            "sasl.pasword=pw2",
            "pw3",
        ];
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        let shown = redacted(&args).join(" ");
        assert!(shown.contains("sasl.username=alice"), "{shown}");
        assert!(
            !shown.contains("pw1") && !shown.contains("pw2") && !shown.contains("pw3"),
            "{shown}"
        );
    }

    #[test]
    fn errors_name_the_key_but_never_the_value() {
        let cases = [
            ("security.protocol=TLS", "security.protocol"),
            ("sasl.mechanism=GSSAPI", "sasl.mechanism"),
            ("sasl.pasword=hunter2", "unknown key"),
            ("sasl.password=", "empty"),
            ("hunter2", "expected key=value"),
        ];
        for (arg, what) in cases {
            let message = parse(&[arg]).expect_err(arg);
            assert!(message.contains(what), "{arg}: {message}");
            assert!(!message.contains("hunter2"), "{message}");
        }
    }
}
