//! The registry's subjects with their latest version: what `kscope get
//! schemas` lists and the `:schemas` screen browses (read-only).

use serde::Serialize;

use super::client::RegistryClient;
use super::error::Error;
use super::fetch::Format;

/// One subject and its latest version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Subject {
    /// The subject, e.g. `orders-value`.
    pub subject: String,
    /// Its latest version.
    pub version: i32,
    /// The latest version's schema id.
    pub id: u32,
    /// `avro`, `protobuf` or `jsonschema`.
    pub schema_type: &'static str,
    /// How many versions it has.
    pub versions: usize,
    /// Its compatibility level (the global one when it has none).
    pub compatibility: Option<String>,
    /// How many schemas its latest version references.
    pub references: usize,
}

/// Every subject with its latest version: one request for the list, then
/// four per subject (latest version, its schema, versions, compatibility).
pub fn list(client: &RegistryClient) -> Result<Vec<Subject>, Error> {
    let mut names = client.subjects()?;
    names.sort();
    let mut subjects = Vec::with_capacity(names.len());
    for name in names {
        let latest = client.version(&name, "latest")?;
        let versions = client.versions(&name)?.len();
        // Some registries answer 404 for a subject without its own level.
        let compatibility = client.compatibility(&name).ok();
        // The type as the id's own endpoint says: Apicurio 3.0.9 labels every
        // subject version AVRO, JSON Schema ones too.
        let schema_type = client
            .schema(latest.id)
            .ok()
            .map_or_else(|| latest.schema_type.clone(), |raw| raw.schema_type);
        let schema_type =
            Format::from_schema_type(schema_type.as_deref()).map_or("unknown", Format::name);
        subjects.push(Subject {
            subject: name,
            version: latest.version,
            id: latest.id,
            schema_type,
            versions,
            compatibility,
            references: latest.references.len(),
        });
    }
    Ok(subjects)
}
