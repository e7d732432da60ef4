//! A blocking client for the Confluent Schema Registry REST API (also served
//! by Apicurio Registry at `/apis/ccompat/v7` and by Redpanda).
//!
//! Blocking on purpose: a session asks the registry once per schema id, so the
//! async callers run these calls on tokio's blocking pool
//! ([`super::Decoder`]). HTTP is `ureq` (rustls with ring, the TLS stack the
//! Kafka connections already use): small, no async runtime of its own.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::error::Error;
use crate::conn::Secret;

/// The most a registry answer may hold (a schema with its references is KiB).
const MAX_BODY: u64 = 16 * 1024 * 1024;

/// How to reach the registry. `Debug` redacts the password.
#[derive(Clone, Debug)]
pub struct RegistryConfig {
    /// The base URL, e.g. `http://127.0.0.1:8081` or `…/apis/ccompat/v7`.
    pub url: String,
    /// Basic-auth user name.
    pub username: Option<String>,
    /// Basic-auth password (resolved).
    pub password: Secret,
    /// PEM file of the CAs to trust for an `https` URL.
    pub ca_file: Option<PathBuf>,
    /// How long one request may take, connect included.
    pub timeout: Duration,
}

impl RegistryConfig {
    /// A config for `url` without credentials and a 10 s timeout.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            username: None,
            password: Secret::default(),
            ca_file: None,
            timeout: Duration::from_secs(10),
        }
    }
}

/// A schema reference: `name` is how the referring schema imports it.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Reference {
    /// The import name (`common.proto`) or Avro full name.
    pub name: String,
    /// The subject it is registered under.
    pub subject: String,
    /// The version of that subject.
    pub version: i32,
}

/// A schema as the registry returns it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawSchema {
    /// The schema text.
    pub schema: String,
    /// `AVRO` (also when absent), `PROTOBUF` or `JSON`.
    #[serde(default)]
    pub schema_type: Option<String>,
    /// The schemas it references.
    #[serde(default)]
    pub references: Vec<Reference>,
}

/// One version of a subject.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubjectSchema {
    pub subject: String,
    /// The version number.
    pub version: i32,
    /// The schema id.
    pub id: u32,
    /// The schema text.
    pub schema: String,
    /// `AVRO` (also when absent), `PROTOBUF` or `JSON`.
    #[serde(default)]
    pub schema_type: Option<String>,
    /// The schemas it references.
    #[serde(default)]
    pub references: Vec<Reference>,
}

/// Where a schema id is registered.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct SubjectVersion {
    pub subject: String,
    pub version: i32,
}

/// Numbered subject versions kept at most (a reference names one; a
/// registry never changes what a version number holds).
const PINNED_KEPT: usize = 1024;

/// Numbered subject versions already fetched, by subject and version.
type Pinned = HashMap<(String, i32), Arc<SubjectSchema>>;

/// The registry client. Cheap to clone; clones share the versions fetched
/// by number, so a schema referenced by many ids is fetched once.
#[derive(Clone)]
pub struct RegistryClient {
    agent: ureq::Agent,
    base: Arc<str>,
    auth: Option<Arc<Secret>>,
    user: Option<String>,
    pinned: Arc<Mutex<Pinned>>,
}

impl fmt::Debug for RegistryClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegistryClient")
            .field("url", &self.base)
            .field("username", &self.user)
            .finish_non_exhaustive()
    }
}

impl RegistryClient {
    /// A client for `config`; fails on a URL with credentials in it or an
    /// unreadable CA file.
    pub fn new(config: &RegistryConfig) -> Result<Self, Error> {
        let base = config.url.trim_end_matches('/').to_owned();
        let Some(rest) = base
            .strip_prefix("http://")
            .or_else(|| base.strip_prefix("https://"))
        else {
            return Err(Error::Config(format!(
                "url '{base}' must start with http:// or https://"
            )));
        };
        if rest
            .split('/')
            .next()
            .is_some_and(|host| host.contains('@'))
        {
            return Err(Error::Config(
                "put credentials in username and password, not in the url".to_owned(),
            ));
        }
        let mut builder = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("kscope/", env!("CARGO_PKG_VERSION")));
        if let Some(path) = &config.ca_file {
            builder = builder.tls_config(tls_with_ca(path)?);
        }
        let auth = config.username.as_ref().map(|user| {
            let pair = format!("{user}:{}", config.password.expose());
            Arc::new(Secret::new(format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(pair)
            )))
        });
        Ok(Self {
            agent: builder.build().new_agent(),
            base: base.into(),
            auth,
            user: config.username.clone(),
            pinned: Arc::default(),
        })
    }

    /// The base URL.
    pub fn url(&self) -> &str {
        &self.base
    }

    /// The schema with this id.
    pub fn schema(&self, id: u32) -> Result<RawSchema, Error> {
        self.get(&format!("/schemas/ids/{id}"), &format!("schema id {id}"))
    }

    /// The subjects and versions this schema id is registered under.
    pub fn subjects_of(&self, id: u32) -> Result<Vec<SubjectVersion>, Error> {
        let path = format!("/schemas/ids/{id}/versions");
        self.get(&path, &format!("schema id {id}"))
    }

    /// One version (`"3"` or `"latest"`) of a subject.
    pub fn version(&self, subject: &str, version: &str) -> Result<SubjectSchema, Error> {
        let path = format!(
            "/subjects/{}/versions/{}",
            segment(subject),
            segment(version)
        );
        self.get(&path, &format!("subject '{subject}' version {version}"))
    }

    /// Version `version` (a number, as references name them) of a subject,
    /// fetched once per client: what a number holds never changes.
    pub fn pinned_version(&self, subject: &str, version: i32) -> Result<Arc<SubjectSchema>, Error> {
        let key = (subject.to_owned(), version);
        let held = self
            .pinned
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned();
        if let Some(held) = held {
            return Ok(held);
        }
        let fetched = Arc::new(self.version(subject, &version.to_string())?);
        let mut pinned = self.pinned.lock().unwrap_or_else(PoisonError::into_inner);
        if pinned.len() < PINNED_KEPT {
            pinned.insert(key, Arc::clone(&fetched));
        }
        Ok(fetched)
    }

    /// Every subject.
    pub fn subjects(&self) -> Result<Vec<String>, Error> {
        self.get("/subjects", "subjects")
    }

    /// The version numbers of a subject.
    pub fn versions(&self, subject: &str) -> Result<Vec<i32>, Error> {
        let path = format!("/subjects/{}/versions", segment(subject));
        self.get(&path, &format!("subject '{subject}'"))
    }

    /// A subject's compatibility level (the global one when it has none).
    pub fn compatibility(&self, subject: &str) -> Result<String, Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Level {
            compatibility_level: String,
        }
        let path = format!("/config/{}?defaultToGlobal=true", segment(subject));
        let level: Level = self.get(&path, &format!("compatibility of '{subject}'"))?;
        Ok(level.compatibility_level)
    }

    fn get<T: DeserializeOwned>(&self, path: &str, what: &str) -> Result<T, Error> {
        let url = format!("{}{path}", self.base);
        let mut request = self.agent.get(&url).header(
            "Accept",
            "application/vnd.schemaregistry.v1+json, application/json",
        );
        if let Some(auth) = &self.auth {
            request = request.header("Authorization", auth.expose());
        }
        let unreachable = |e: ureq::Error| Error::Unreachable {
            url: self.base.to_string(),
            message: e.to_string(),
        };
        let mut response = request.call().map_err(unreachable)?;
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string()
            .map_err(unreachable)?;
        match status {
            200..=299 => serde_json::from_str(&body).map_err(|e| Error::Schema {
                what: what.to_owned(),
                message: format!("unexpected answer from the registry: {e}"),
            }),
            401 | 403 => Err(Error::Unauthorized {
                url: self.base.to_string(),
                who: self
                    .user
                    .as_ref()
                    .map_or_else(|| "anonymous access".to_owned(), |u| format!("user '{u}'")),
                status,
            }),
            404 => Err(Error::NotFound {
                url: self.base.to_string(),
                what: what.to_owned(),
            }),
            _ => Err(Error::Http {
                url: self.base.to_string(),
                what: what.to_owned(),
                status,
                message: error_message(&body),
            }),
        }
    }
}

/// The registry's `message`, or the start of the body.
fn error_message(body: &str) -> String {
    #[derive(Deserialize)]
    struct Answer {
        message: String,
    }
    let text = serde_json::from_str::<Answer>(body).map_or_else(|_| body.to_owned(), |a| a.message);
    let short: String = text.chars().take(200).collect();
    crate::untrusted::escaped(short)
}

/// A path segment, percent-encoded (subjects may hold any character).
fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

fn tls_with_ca(path: &std::path::Path) -> Result<ureq::tls::TlsConfig, Error> {
    let pem = std::fs::read(path)
        .map_err(|e| Error::Config(format!("cannot read ca_file '{}': {e}", path.display())))?;
    let mut certs = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        if let Ok(ureq::tls::PemItem::Certificate(cert)) = item {
            certs.push(cert);
        }
    }
    if certs.is_empty() {
        return Err(Error::Config(format!(
            "ca_file '{}' holds no PEM certificate",
            path.display()
        )));
    }
    Ok(ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::Specific(Arc::new(certs)))
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_are_percent_encoded() {
        assert_eq!(segment("orders-value"), "orders-value");
        assert_eq!(segment("a/b c"), "a%2Fb%20c");
    }

    #[test]
    fn a_url_with_credentials_or_no_scheme_is_refused_and_debug_hides_the_password() {
        let mut config = RegistryConfig::new("http://u:pw@h:1");
        assert!(RegistryClient::new(&config).is_err());
        config.url = "h:1".to_owned();
        assert!(RegistryClient::new(&config).is_err());
        config.url = "http://h:1/apis/ccompat/v7/".to_owned();
        config.username = Some("alice".to_owned());
        config.password = Secret::new("pw-123");
        let client = RegistryClient::new(&config).expect("valid");
        assert_eq!(client.url(), "http://h:1/apis/ccompat/v7");
        let debug = format!("{client:?} {config:?}");
        assert!(
            debug.contains("alice") && !debug.contains("pw-123"),
            "{debug}"
        );
    }
}
