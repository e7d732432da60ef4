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

/// One version of one subject, with its schema text: a row of the
/// `:schemas` screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRow {
    pub subject: String,
    pub version: i32,
    /// Whether it is the subject's latest version.
    pub latest: bool,
    /// Its schema id.
    pub id: u32,
    /// `avro`, `protobuf`, `jsonschema` (or `unknown`).
    pub schema_type: &'static str,
    /// The subject's compatibility level, when the registry says.
    pub compatibility: Option<String>,
    /// The `(name, subject, version)` of each schema it references.
    pub references: Vec<(String, String, i32)>,
    /// The schema text as registered.
    pub schema: String,
}

/// Subjects read at most by [`all_versions`] (and versions per subject): a
/// bound on the requests one `:schemas` makes.
pub const MAX_SUBJECTS: usize = 500;
/// Versions per subject read at most (the newest).
pub const MAX_VERSIONS: usize = 50;

/// Every version of every subject (at most [`MAX_SUBJECTS`] subjects, their
/// newest [`MAX_VERSIONS`] versions), sorted by subject then version: one
/// request for the list, then per subject its versions and compatibility,
/// one per version, and one per distinct schema id (for its type).
pub fn all_versions(client: &RegistryClient) -> Result<Vec<VersionRow>, Error> {
    let mut names = client.subjects()?;
    names.sort();
    names.truncate(MAX_SUBJECTS);
    let mut types: std::collections::HashMap<u32, &'static str> = std::collections::HashMap::new();
    let mut rows = Vec::new();
    for name in names {
        let mut versions = client.versions(&name)?;
        versions.sort_unstable();
        let newest = versions.last().copied();
        let skip = versions.len().saturating_sub(MAX_VERSIONS);
        let compatibility = client.compatibility(&name).ok();
        for version in versions.into_iter().skip(skip) {
            let found = client.version(&name, &version.to_string())?;
            // The id's own endpoint says the type (Apicurio 3.0.9 labels
            // every subject version AVRO).
            let schema_type = *types.entry(found.id).or_insert_with(|| {
                let schema_type = client
                    .schema(found.id)
                    .ok()
                    .map_or_else(|| found.schema_type.clone(), |raw| raw.schema_type);
                Format::from_schema_type(schema_type.as_deref()).map_or("unknown", Format::name)
            });
            rows.push(VersionRow {
                subject: name.clone(),
                version,
                latest: Some(version) == newest,
                id: found.id,
                schema_type,
                compatibility: compatibility.clone(),
                references: found
                    .references
                    .into_iter()
                    .map(|r| (r.name, r.subject, r.version))
                    .collect(),
                schema: found.schema,
            });
        }
    }
    Ok(rows)
}
