//! Client quotas (`DescribeClientQuotas`): which user, client id or IP is
//! throttled to what, including the defaults that apply to every entity of
//! a kind.

use super::error::{Error, Result};
use crate::conn::protocol::messages::{DescribeClientQuotasRequest, DescribeClientQuotasResponse};
use crate::meta::Cluster;

/// One quota value of one entity (also the JSON record of `kscope get
/// quotas`): an entity with three quotas is three of these.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Quota {
    /// The entity, e.g. `user=alice`, `user=alice,client-id=<default>`,
    /// `ip=10.0.0.1`; `<default>` stands for the default of that kind.
    pub entity: String,
    /// The quota's key: `producer_byte_rate`, `consumer_byte_rate`,
    /// `request_percentage`, `controller_mutation_rate`,
    /// `connection_creation_rate`, …
    pub key: String,
    /// Its value (bytes/s, percent or a rate, by key).
    pub value: f64,
}

/// What the entity's name is shown as when the quota is the default of its
/// kind (the protocol sends a null name).
pub const DEFAULT_ENTITY: &str = "<default>";

/// Every quota of every entity: no components (no restriction) and not
/// strict (entities with more components match too).
pub fn quotas_request() -> DescribeClientQuotasRequest {
    DescribeClientQuotasRequest::default()
        .with_components(Vec::new())
        .with_strict(false)
}

/// The quotas in an answer, one per entity and key, sorted by entity then
/// key.
pub fn read_quotas(response: &DescribeClientQuotasResponse) -> Result<Vec<Quota>> {
    if let Some(error) = Error::answer(
        "describe client quotas",
        response.error_code,
        response.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let mut quotas: Vec<Quota> = response
        .entries
        .iter()
        .flatten()
        .flat_map(|entry| {
            let mut parts: Vec<(String, String)> = entry
                .entity
                .iter()
                .map(|e| {
                    let name = e
                        .entity_name
                        .as_ref()
                        .map_or_else(|| DEFAULT_ENTITY.to_owned(), |n| n.as_str().to_owned());
                    (e.entity_type.as_str().to_owned(), name)
                })
                .collect();
            // user before client-id before ip, whatever order the broker sent.
            parts.sort_by_key(|(kind, _)| match kind.as_str() {
                "user" => 0,
                "client-id" => 1,
                _ => 2,
            });
            let entity = parts
                .iter()
                .map(|(kind, name)| format!("{kind}={name}"))
                .collect::<Vec<_>>()
                .join(",");
            entry.values.iter().map(move |v| Quota {
                entity: entity.clone(),
                key: v.key.as_str().to_owned(),
                value: v.value,
            })
        })
        .collect();
    quotas.sort_by(|a, b| (&a.entity, &a.key).cmp(&(&b.entity, &b.key)));
    Ok(quotas)
}

/// Every client quota the cluster holds.
pub async fn describe_quotas(cluster: &Cluster) -> Result<Vec<Quota>> {
    let response = cluster
        .send_any(quotas_request())
        .await
        .map_err(|e| Error::request("describe client quotas", e))?;
    read_quotas(&response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::StrBytes;
    use crate::conn::protocol::messages::describe_client_quotas_response::{
        EntityData, EntryData, ValueData,
    };

    fn entity(kind: &'static str, name: Option<&'static str>) -> EntityData {
        EntityData::default()
            .with_entity_type(StrBytes::from_static_str(kind))
            .with_entity_name(name.map(StrBytes::from_static_str))
    }

    fn value(key: &'static str, value: f64) -> ValueData {
        ValueData::default()
            .with_key(StrBytes::from_static_str(key))
            .with_value(value)
    }

    #[test]
    fn the_request_asks_for_every_entity() {
        let request = quotas_request();
        assert!(request.components.is_empty() && !request.strict);
    }

    #[test]
    fn entities_are_named_in_a_fixed_order_and_null_is_the_default() {
        let response = DescribeClientQuotasResponse::default().with_entries(Some(vec![
            EntryData::default()
                .with_entity(vec![
                    entity("client-id", None),
                    entity("user", Some("alice")),
                ])
                .with_values(vec![value("request_percentage", 50.0)]),
            EntryData::default()
                .with_entity(vec![entity("user", Some("alice"))])
                .with_values(vec![
                    value("producer_byte_rate", 1_048_576.0),
                    value("consumer_byte_rate", 2_097_152.0),
                ]),
        ]));
        let quotas = read_quotas(&response).expect("no error");
        let shown: Vec<(&str, &str, f64)> = quotas
            .iter()
            .map(|q| (q.entity.as_str(), q.key.as_str(), q.value))
            .collect();
        assert_eq!(
            shown,
            [
                ("user=alice", "consumer_byte_rate", 2_097_152.0),
                ("user=alice", "producer_byte_rate", 1_048_576.0),
                ("user=alice,client-id=<default>", "request_percentage", 50.0),
            ]
        );
    }

    #[test]
    fn an_error_code_is_an_error_and_no_entries_is_none() {
        let denied = DescribeClientQuotasResponse::default().with_error_code(31);
        assert!(read_quotas(&denied).is_err_and(|e| e.is_not_authorised()));
        let empty = DescribeClientQuotasResponse::default().with_entries(None);
        assert_eq!(read_quotas(&empty).ok(), Some(Vec::new()));
    }
}
