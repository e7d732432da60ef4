//! How to reach a broker: timeouts, frame cap, TLS, SASL and the read-only guard.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use super::secret::Secret;

/// Settings shared by every connection to one cluster.
#[derive(Debug, Clone)]
pub struct ConnectionConfig {
    /// Sent in every request header; brokers log it and quotas key on it.
    pub client_id: String,
    /// How long one request may wait for its response (the Java client's
    /// `request.timeout.ms` default: 30 s).
    pub request_timeout: Duration,
    /// How long TCP connect, the TLS handshake, `ApiVersions` and SASL may take together.
    pub connect_timeout: Duration,
    /// The largest response frame accepted, checked before allocating
    /// (librdkafka's `receive.message.max.bytes` default: 100 MB).
    pub max_frame_size: usize,
    /// TLS, when the listener is SSL or `SASL_SSL`.
    pub tls: Option<TlsConfig>,
    /// SASL, when the listener is `SASL_PLAINTEXT` or `SASL_SSL`.
    pub sasl: Option<SaslConfig>,
    /// Refuse, before anything reaches the socket, every request that is not
    /// on the read-only allow-list (see [`super::rpc::is_read_only_api`]).
    pub read_only: bool,
}

impl Default for ConnectionConfig {
    fn default() -> Self {
        Self {
            client_id: "kscope".to_owned(),
            request_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_frame_size: 100 * 1024 * 1024,
            tls: None,
            sasl: None,
            read_only: false,
        }
    }
}

/// TLS settings (rustls; no OpenSSL).
///
/// Without `ca_file` the server is verified against the Mozilla root set
/// compiled in (webpki-roots), which is what a managed cluster with a public
/// certificate needs; a private CA needs `ca_file`.
#[derive(Debug, Clone, Default)]
pub struct TlsConfig {
    /// PEM file of the certificate authorities to trust.
    pub ca_file: Option<PathBuf>,
    /// PEM client certificate chain, for mutual TLS.
    pub client_cert_file: Option<PathBuf>,
    /// PEM private key of the client certificate (PKCS#8, PKCS#1 or SEC1).
    pub client_key_file: Option<PathBuf>,
    /// The name to verify the server's certificate against, instead of the host.
    pub server_name: Option<String>,
    /// Accept any server certificate. Loudly named because it removes the
    /// protection TLS exists for: anyone on the path can read and change traffic.
    pub danger_skip_verification: bool,
}

/// A SASL mechanism Kafka supports and kscope implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SaslMechanism {
    /// `PLAIN`: user name and password in clear (use over TLS).
    Plain,
    /// `SCRAM-SHA-256`.
    ScramSha256,
    /// `SCRAM-SHA-512`.
    ScramSha512,
    /// `OAUTHBEARER` with a token printed by a configured command.
    OAuthBearer,
}

impl SaslMechanism {
    /// The mechanism's registered name, as sent in `SaslHandshake`.
    pub fn name(self) -> &'static str {
        match self {
            SaslMechanism::Plain => "PLAIN",
            SaslMechanism::ScramSha256 => "SCRAM-SHA-256",
            SaslMechanism::ScramSha512 => "SCRAM-SHA-512",
            SaslMechanism::OAuthBearer => "OAUTHBEARER",
        }
    }
}

impl fmt::Display for SaslMechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not a SASL mechanism kscope knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown sasl mechanism '{0}' (expected PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER)"
)]
pub struct UnknownSaslMechanism(pub String);

impl FromStr for SaslMechanism {
    type Err = UnknownSaslMechanism;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_uppercase().as_str() {
            "PLAIN" => Ok(SaslMechanism::Plain),
            "SCRAM-SHA-256" => Ok(SaslMechanism::ScramSha256),
            "SCRAM-SHA-512" => Ok(SaslMechanism::ScramSha512),
            "OAUTHBEARER" => Ok(SaslMechanism::OAuthBearer),
            _ => Err(UnknownSaslMechanism(text.to_owned())),
        }
    }
}

/// SASL credentials.
#[derive(Debug, Clone)]
pub struct SaslConfig {
    /// Which mechanism to use.
    pub mechanism: SaslMechanism,
    /// The user name (unused by OAUTHBEARER).
    pub username: String,
    /// The password (unused by OAUTHBEARER).
    pub password: Secret,
    /// For OAUTHBEARER: a shell command whose standard output is the token.
    /// A [`Secret`] too: a command line often carries a client secret or a
    /// key path, so `Debug` redacts it like the password.
    pub token_command: Option<Secret>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mechanisms_parse_and_print_their_registered_names() {
        for name in ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"] {
            let mechanism: SaslMechanism = name.parse().expect("known mechanism");
            assert_eq!(mechanism.to_string(), name);
        }
        assert_eq!("scram-sha-512".parse(), Ok(SaslMechanism::ScramSha512));
        let error = "GSSAPI".parse::<SaslMechanism>().expect_err("unknown");
        assert!(error.to_string().contains("'GSSAPI'"));
    }

    #[test]
    fn defaults_match_the_java_client_and_librdkafka() {
        let config = ConnectionConfig::default();
        assert_eq!(config.client_id, "kscope");
        assert_eq!(config.request_timeout, Duration::from_secs(30));
        assert_eq!(config.max_frame_size, 100 * 1024 * 1024);
        assert!(!config.read_only);
    }

    #[test]
    fn config_debug_never_shows_the_password() {
        let config = ConnectionConfig {
            sasl: Some(SaslConfig {
                mechanism: SaslMechanism::Plain,
                username: "alice".to_owned(),
                password: Secret::new("alice-secret"),
                token_command: None,
            }),
            ..ConnectionConfig::default()
        };
        let debug = format!("{config:?}");
        assert!(debug.contains("alice"));
        assert!(!debug.contains("alice-secret"));
        let oauth = SaslConfig {
            mechanism: SaslMechanism::OAuthBearer,
            username: String::new(),
            password: Secret::default(),
            token_command: Some(Secret::new("get-token --client-secret s3cr3t")),
        };
        let debug = format!("{oauth:?}");
        assert!(debug.contains("OAuthBearer"), "{debug}");
        assert!(!debug.contains("s3cr3t"), "{debug}");
    }
}
