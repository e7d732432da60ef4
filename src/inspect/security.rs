//! ACLs (`DescribeAcls`) and SCRAM users (`DescribeUserScramCredentials`):
//! who may do what, and which users exist with which mechanisms — never a
//! salt or a hash.

use super::error::{Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::messages::{
    DescribeAclsRequest, DescribeAclsResponse, DescribeUserScramCredentialsRequest,
    DescribeUserScramCredentialsResponse,
};
use crate::meta::Cluster;

/// One ACL binding (also the JSON record of `kscope get acls`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Acl {
    /// `User:alice`.
    pub principal: String,
    /// `*` or an address.
    pub host: String,
    /// `READ`, `WRITE`, `ALL`, …
    pub operation: &'static str,
    /// `ALLOW` or `DENY`.
    pub permission: &'static str,
    /// `TOPIC`, `GROUP`, `CLUSTER`, …
    pub resource_type: &'static str,
    /// `LITERAL` or `PREFIXED`.
    pub pattern_type: &'static str,
    /// The resource's name (or prefix).
    pub resource_name: String,
}

/// What the cluster said about its ACLs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acls {
    /// An authorizer answered with these bindings.
    Listed(Vec<Acl>),
    /// No authorizer is configured (`SECURITY_DISABLED`): there are no ACLs.
    NoAuthorizer,
}

/// One SCRAM credential: a user and one of its mechanisms (a row of the
/// Users screen).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    pub user: String,
    /// `SCRAM-SHA-256` or `SCRAM-SHA-512`.
    pub mechanism: &'static str,
    /// Its iteration count.
    pub iterations: i32,
}

/// The users as one credential per user and mechanism, in the users' order.
pub fn credentials(users: Vec<ScramUser>) -> Vec<Credential> {
    users
        .into_iter()
        .flat_map(|u| {
            u.credentials
                .into_iter()
                .map(move |(mechanism, iterations)| Credential {
                    user: u.name.clone(),
                    mechanism,
                    iterations,
                })
        })
        .collect()
}

/// One SCRAM user and its credentials' mechanisms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScramUser {
    /// The user name.
    pub name: String,
    /// `(mechanism, iterations)`, e.g. `("SCRAM-SHA-256", 4096)`.
    pub credentials: Vec<(&'static str, i32)>,
}

fn name_of(value: i8, names: &[&'static str]) -> &'static str {
    usize::try_from(value)
        .ok()
        .and_then(|i| names.get(i))
        .copied()
        .unwrap_or("UNKNOWN")
}

const RESOURCE_TYPES: &[&str] = &[
    "UNKNOWN",
    "ANY",
    "TOPIC",
    "GROUP",
    "CLUSTER",
    "TRANSACTIONAL_ID",
    "DELEGATION_TOKEN",
    "USER",
];
const PATTERN_TYPES: &[&str] = &["UNKNOWN", "ANY", "MATCH", "LITERAL", "PREFIXED"];
const OPERATIONS: &[&str] = &[
    "UNKNOWN",
    "ANY",
    "ALL",
    "READ",
    "WRITE",
    "CREATE",
    "DELETE",
    "ALTER",
    "DESCRIBE",
    "CLUSTER_ACTION",
    "DESCRIBE_CONFIGS",
    "ALTER_CONFIGS",
    "IDEMPOTENT_WRITE",
    "CREATE_TOKENS",
    "DESCRIBE_TOKENS",
];
const PERMISSIONS: &[&str] = &["UNKNOWN", "ANY", "DENY", "ALLOW"];

/// Every ACL: every filter field is ANY (1) or null; the defaults would
/// match nothing (empty strings, pattern `LITERAL`, types `UNKNOWN`).
pub fn acls_request() -> DescribeAclsRequest {
    DescribeAclsRequest::default()
        .with_resource_type_filter(1)
        .with_resource_name_filter(None)
        .with_pattern_type_filter(1)
        .with_principal_filter(None)
        .with_host_filter(None)
        .with_operation(1)
        .with_permission_type(1)
}

/// The ACLs that apply to `topic`: the filter's pattern type MATCH returns
/// its literal bindings, the prefixed ones whose prefix it starts with and
/// the wildcard `*` ones. Super users are not ACLs and never appear.
pub fn topic_acls_request(topic: &str) -> DescribeAclsRequest {
    DescribeAclsRequest::default()
        .with_resource_type_filter(2)
        .with_resource_name_filter(Some(topic.to_owned().into()))
        .with_pattern_type_filter(2)
        .with_principal_filter(None)
        .with_host_filter(None)
        .with_operation(1)
        .with_permission_type(1)
}

/// The bindings in an answer, sorted by resource then principal.
pub fn read_acls(response: &DescribeAclsResponse) -> Result<Acls> {
    if ErrorCode::from_code(response.error_code) == Some(ErrorCode::SecurityDisabled) {
        return Ok(Acls::NoAuthorizer);
    }
    if let Some(error) = Error::answer(
        "describe acls",
        response.error_code,
        response.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let mut acls: Vec<Acl> = response
        .resources
        .iter()
        .flat_map(|r| {
            r.acls.iter().map(move |a| Acl {
                principal: a.principal.as_str().to_owned(),
                host: a.host.as_str().to_owned(),
                operation: name_of(a.operation, OPERATIONS),
                permission: name_of(a.permission_type, PERMISSIONS),
                resource_type: name_of(r.resource_type, RESOURCE_TYPES),
                pattern_type: name_of(r.pattern_type, PATTERN_TYPES),
                resource_name: r.resource_name.as_str().to_owned(),
            })
        })
        .collect();
    acls.sort_by(|a, b| {
        (a.resource_type, &a.resource_name, &a.principal, a.operation).cmp(&(
            b.resource_type,
            &b.resource_name,
            &b.principal,
            b.operation,
        ))
    });
    Ok(Acls::Listed(acls))
}

/// Every user. The broker reads null and an empty list alike as "all
/// users", but Kafka 4.1 answers a refused request (no DESCRIBE on the
/// cluster) by iterating the list: with null it throws and never answers at
/// all, so the request must carry an empty list.
pub fn users_request() -> DescribeUserScramCredentialsRequest {
    DescribeUserScramCredentialsRequest::default().with_users(Some(Vec::new()))
}

/// The users in an answer, sorted by name, mechanisms only.
pub fn read_users(response: &DescribeUserScramCredentialsResponse) -> Result<Vec<ScramUser>> {
    if let Some(error) = Error::answer(
        "describe scram users",
        response.error_code,
        response.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let mut users: Vec<ScramUser> = response
        .results
        .iter()
        .filter(|r| r.error_code == 0)
        .map(|r| ScramUser {
            name: r.user.as_str().to_owned(),
            credentials: r
                .credential_infos
                .iter()
                .map(|c| {
                    let mechanism = match c.mechanism {
                        1 => "SCRAM-SHA-256",
                        2 => "SCRAM-SHA-512",
                        _ => "UNKNOWN",
                    };
                    (mechanism, c.iterations)
                })
                .collect(),
        })
        .collect();
    users.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(users)
}

/// Every ACL the cluster's authorizer holds.
pub async fn describe_acls(cluster: &Cluster) -> Result<Acls> {
    let response = cluster
        .send_any(acls_request())
        .await
        .map_err(|e| Error::request("describe acls", e))?;
    read_acls(&response)
}

/// The ACLs that apply to `topic` (pattern type MATCH).
pub async fn describe_topic_acls(cluster: &Cluster, topic: &str) -> Result<Acls> {
    let what = format!("acls of topic '{topic}'");
    let response = cluster
        .send_any(topic_acls_request(topic))
        .await
        .map_err(|e| Error::request(what, e))?;
    read_acls(&response)
}

/// Every SCRAM user.
pub async fn describe_users(cluster: &Cluster) -> Result<Vec<ScramUser>> {
    let response = cluster
        .send_any(users_request())
        .await
        .map_err(|e| Error::request("describe scram users", e))?;
    read_users(&response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::StrBytes;
    use crate::conn::protocol::messages::describe_acls_response::{
        AclDescription, DescribeAclsResource,
    };

    #[test]
    fn the_requests_ask_for_everything() {
        let acls = acls_request();
        assert_eq!(
            (acls.resource_type_filter, acls.pattern_type_filter),
            (1, 1)
        );
        assert_eq!((acls.operation, acls.permission_type), (1, 1));
        assert!(acls.resource_name_filter.is_none() && acls.principal_filter.is_none());
        assert!(acls.host_filter.is_none());
        assert_eq!(users_request().users, Some(Vec::new()));
        let topic = topic_acls_request("orders");
        assert_eq!(
            (topic.resource_type_filter, topic.pattern_type_filter),
            (2, 2),
            "TOPIC, MATCH"
        );
        assert_eq!(topic.resource_name_filter.as_deref(), Some("orders"));
    }

    #[test]
    fn acls_are_named_and_security_disabled_means_no_authorizer() {
        let response = DescribeAclsResponse::default().with_resources(vec![
            DescribeAclsResource::default()
                .with_resource_type(2)
                .with_pattern_type(4)
                .with_resource_name(StrBytes::from_static_str("orders"))
                .with_acls(vec![
                    AclDescription::default()
                        .with_principal(StrBytes::from_static_str("User:alice"))
                        .with_host(StrBytes::from_static_str("*"))
                        .with_operation(3)
                        .with_permission_type(3),
                ]),
        ]);
        let alice = Acl {
            principal: "User:alice".to_owned(),
            host: "*".to_owned(),
            operation: "READ",
            permission: "ALLOW",
            resource_type: "TOPIC",
            pattern_type: "PREFIXED",
            resource_name: "orders".to_owned(),
        };
        assert_eq!(read_acls(&response).ok(), Some(Acls::Listed(vec![alice])));
        let disabled = DescribeAclsResponse::default().with_error_code(54);
        assert_eq!(read_acls(&disabled).ok(), Some(Acls::NoAuthorizer));
        let denied = DescribeAclsResponse::default().with_error_code(31);
        assert!(read_acls(&denied).is_err_and(|e| e.is_not_authorised()));
    }
}
