//! The config file's shape, exactly as written in TOML.
//!
//! Every table denies unknown keys, so a typo (`bootstrap_server`) is an error
//! with its line and column rather than a silently ignored setting. Values that
//! need checking beyond their type keep their span (`Spanned`) so that check can
//! point at them too. `config.example.toml` shows every key; a test proves that
//! the example and these structs hold the same keys.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::Deserialize;
use toml::Spanned;

/// The whole file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The context used when neither `--context` nor `-b` is given.
    pub default_context: Option<Spanned<String>>,
    /// Look and feel shared by every context.
    #[serde(default)]
    pub ui: UiSection,
    /// Refresh intervals for every context that does not set its own.
    #[serde(default)]
    pub refresh: RefreshSection,
    /// How the fleet (`kscope get fleet`) polls every context.
    #[serde(default)]
    pub fleet: FleetSection,
    /// Key remaps: action name = key, e.g. `quit = "ctrl+q"`.
    #[serde(default)]
    pub keys: BTreeMap<String, Spanned<String>>,
    /// Named clusters, like kubectl contexts.
    #[serde(default)]
    pub contexts: BTreeMap<String, ContextSection>,
}

/// `[ui]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiSection {
    /// The theme (skin) by name.
    pub theme: Option<Spanned<String>>,
}

/// `[refresh]` and `[contexts.NAME.refresh]`: how often live data is fetched.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefreshSection {
    /// Full metadata refresh (topics, partitions, leaders), in seconds.
    pub metadata_secs: Option<Spanned<u64>>,
    /// Consumer group offsets and lag, in seconds.
    pub lag_secs: Option<Spanned<u64>>,
}

/// `[fleet]`: polling every context at once.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetSection {
    /// Contexts polled at once (default 8).
    pub concurrency: Option<Spanned<u64>>,
    /// Seconds between a context's polls while it answers (default 15; a
    /// failing one backs off, doubling up to 2 minutes).
    pub interval_secs: Option<Spanned<u64>>,
    /// One poll's deadline in seconds, connecting included (default 4, at
    /// most 300): a hung context's row says "timed out" after this long.
    pub poll_timeout_secs: Option<Spanned<u64>>,
}

/// `[contexts.NAME]`: one cluster and how to reach it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextSection {
    /// `HOST:PORT` addresses tried in order to discover the cluster.
    pub bootstrap_servers: Spanned<Vec<Spanned<String>>>,
    /// Refuse every request that changes the cluster (enforced in the connection layer).
    #[serde(default)]
    pub read_only: bool,
    /// Theme for this context (overrides `[ui] theme`), e.g. red for production.
    pub theme: Option<Spanned<String>>,
    /// The client id brokers see in their logs and quotas.
    pub client_id: Option<String>,
    /// How long one request may wait for its response, in seconds.
    pub request_timeout_secs: Option<Spanned<u64>>,
    /// How long connecting (TCP, TLS, SASL) may take, in seconds.
    pub connect_timeout_secs: Option<Spanned<u64>>,
    /// Overrides of the top-level `[refresh]`.
    pub refresh: Option<RefreshSection>,
    /// TLS; the table's presence turns TLS on (an empty table: system roots).
    pub tls: Option<TlsSection>,
    /// SASL; the table's presence turns SASL on.
    pub sasl: Option<SaslSection>,
    /// A schema registry for decoding Avro, Protobuf and JSON Schema records.
    pub schema_registry: Option<SchemaRegistrySection>,
    /// Schemas for values without the Confluent wire prefix, by topic.
    #[serde(default)]
    pub topic_schemas: Vec<TopicSchemaSection>,
    /// Values never shown: masked before anything is drawn, copied or saved.
    #[serde(default)]
    pub mask: Vec<MaskSection>,
}

/// `[[contexts.NAME.mask]]`: what of matching topics' records is masked
/// (`crate::browse::mask`): paths into the record as jq sees it, a regex
/// over text, or both.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaskSection {
    /// A regex on the topic name (default: every topic).
    pub topic: Option<Spanned<String>>,
    /// Paths: `.value.card.number`, `.value.items[].iban`, `.key`,
    /// `.headers.authorization`.
    #[serde(default)]
    pub paths: Vec<String>,
    /// A regex over text values and JSON strings; each match is masked.
    pub text: Option<Spanned<String>>,
}

/// `[[contexts.NAME.topic_schemas]]`: how values of matching topics that
/// lack the Confluent wire prefix are decoded. Exactly one of `subject`,
/// `avro_file` and `proto_file` (with `message`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSchemaSection {
    /// A regex on the topic name; the first entry that matches wins.
    pub topic: Spanned<String>,
    /// A registry subject: its latest version decodes the values.
    pub subject: Option<String>,
    /// A local Avro schema file (`.avsc`).
    pub avro_file: Option<PathBuf>,
    /// A local `.proto` file (self-contained or importing only Google's types).
    pub proto_file: Option<PathBuf>,
    /// With `proto_file`: the full name of the values' message, e.g. `shop.Order`.
    pub message: Option<String>,
}

/// `[contexts.NAME.schema_registry]`: a registry speaking the Confluent REST
/// API. `Debug` hides the password and the password command.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaRegistrySection {
    /// The base URL, e.g. `https://registry.example.com` or
    /// `http://127.0.0.1:8080/apis/ccompat/v7` (Apicurio).
    pub url: Spanned<String>,
    /// Basic-auth user name.
    pub username: Option<String>,
    /// Basic-auth password: literal, `${env:VAR}` or `${file:PATH}`.
    pub password: Option<Spanned<String>>,
    /// A shell command whose standard output is the password.
    pub password_command: Option<Spanned<String>>,
    /// PEM file of the CAs to trust for an `https` URL.
    pub ca_file: Option<PathBuf>,
}

impl fmt::Debug for SchemaRegistrySection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SchemaRegistrySection")
            .field("url", self.url.get_ref())
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field(
                "password_command",
                &self.password_command.as_ref().map(|_| "<redacted>"),
            )
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// `[contexts.NAME.tls]`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSection {
    /// PEM file of the CAs to trust (relative paths: to the config file).
    pub ca_file: Option<PathBuf>,
    /// PEM client certificate, for mutual TLS.
    pub client_cert_file: Option<PathBuf>,
    /// PEM private key of the client certificate.
    pub client_key_file: Option<PathBuf>,
    /// The name to verify the server certificate against, instead of the host.
    pub server_name: Option<String>,
    /// Accept any server certificate (dangerous: anyone on the path can read traffic).
    #[serde(default)]
    pub danger_skip_verification: bool,
}

/// `[contexts.NAME.sasl]`. `Debug` hides the password (it may be literal)
/// and both commands (a command line may carry a secret of its own).
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaslSection {
    /// `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512` or `OAUTHBEARER`.
    pub mechanism: Spanned<String>,
    /// The user name (not used by `OAUTHBEARER`).
    pub username: Option<String>,
    /// The password: literal, `${env:VAR}` or `${file:PATH}`.
    pub password: Option<Spanned<String>>,
    /// A shell command whose standard output is the password.
    pub password_command: Option<Spanned<String>>,
    /// For `OAUTHBEARER`: a shell command whose standard output is the token.
    pub token_command: Option<Spanned<String>>,
}

impl fmt::Debug for SaslSection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let password = self.password.as_ref().map(|_| "<redacted>");
        f.debug_struct("SaslSection")
            .field("mechanism", self.mechanism.get_ref())
            .field("username", &self.username)
            .field("password", &password)
            .field(
                "password_command",
                &self.password_command.as_ref().map(|_| "<redacted>"),
            )
            .field(
                "token_command",
                &self.token_command.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_a_command() {
        let text = "[contexts.a]\nbootstrap_servers = [\"h:1\"]\n[contexts.a.sasl]\nmechanism = \"PLAIN\"\nusername = \"u\"\npassword_command = \"vault read -field=pw secret/kafka --token=tok-123\"\n[contexts.b]\nbootstrap_servers = [\"h:1\"]\n[contexts.b.sasl]\nmechanism = \"OAUTHBEARER\"\ntoken_command = \"oauth2l fetch --secret cs-456\"\n";
        let file: ConfigFile = toml::from_str(text).expect("parses");
        let debug = format!("{file:?}");
        assert!(debug.contains("password_command"), "{debug}");
        assert!(!debug.contains("tok-123"), "{debug}");
        assert!(!debug.contains("cs-456"), "{debug}");
    }

    #[test]
    fn debug_never_shows_a_literal_password() {
        let text = "[contexts.a]\nbootstrap_servers = [\"h:1\"]\n[contexts.a.sasl]\nmechanism = \"PLAIN\"\nusername = \"u\"\npassword = \"literal-pw\"\n";
        let file: ConfigFile = toml::from_str(text).expect("parses");
        let debug = format!("{file:?}");
        assert!(
            debug.contains("PLAIN") && debug.contains("<redacted>"),
            "{debug}"
        );
        assert!(!debug.contains("literal-pw"), "{debug}");
    }
}
