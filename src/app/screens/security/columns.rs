//! The security screens' tables: ACL bindings, SCRAM credentials (never a
//! salt or a hash) and client quotas.

use crate::anonymize::{Anonymizer, Kind};
use crate::columns::Column;
use crate::inspect::{Acl, Credential, Quota};

/// The ACLs screen: who may do what to which resource, from where.
pub fn acl_columns<'a>() -> [Column<&'a Acl>; 7] {
    [
        Column::text(
            "PRINCIPAL",
            (9, 32),
            |a| a.principal.clone(),
            Some(|a, b| a.principal.cmp(&b.principal)),
        ),
        Column::text(
            "HOST",
            (4, 16),
            |a| a.host.clone(),
            Some(|a, b| a.host.cmp(&b.host)),
        ),
        Column::text(
            "OPERATION",
            (9, 16),
            |a| a.operation.to_owned(),
            Some(|a, b| a.operation.cmp(b.operation)),
        ),
        Column::text(
            "PERMISSION",
            (10, 10),
            |a| a.permission.to_owned(),
            Some(|a, b| a.permission.cmp(b.permission)),
        ),
        Column::text(
            "RESOURCE",
            (8, 16),
            |a| a.resource_type.to_owned(),
            Some(|a, b| a.resource_type.cmp(b.resource_type)),
        ),
        Column::text(
            "PATTERN",
            (8, 8),
            |a| a.pattern_type.to_owned(),
            Some(|a, b| a.pattern_type.cmp(b.pattern_type)),
        ),
        Column::fill(
            "NAME",
            (1, 8),
            |a| resource_name(a),
            Some(|a, b| a.resource_name.cmp(&b.resource_name)),
        ),
    ]
}

/// A quota's entity (`user=alice,client-id=app`); its client id and ip as
/// `--anonymize` shows them (`<default>` kept; user names are not replaced).
fn entity(text: &str) -> String {
    entity_with(crate::anonymize::active(), text)
}

/// [`entity`] with `anonymizer`, if any.
fn entity_with(anonymizer: Option<&Anonymizer>, text: &str) -> String {
    let Some(anonymizer) = anonymizer else {
        return text.to_owned();
    };
    text.split(',')
        .map(|part| match part.split_once('=') {
            Some(("client-id", id)) if id != "<default>" => {
                format!("client-id={}", anonymizer.name(Kind::Client, id))
            }
            Some(("ip", ip)) if ip != "<default>" => {
                format!("ip={}", anonymizer.name(Kind::Host, ip))
            }
            _ => part.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// An ACL's resource name; a topic's, group's or transactional id's as
/// `--anonymize` shows it (a prefix too; `*` and the cluster are kept).
fn resource_name(acl: &Acl) -> String {
    resource_name_with(crate::anonymize::active(), acl)
}

/// [`resource_name`] with `anonymizer`, if any.
fn resource_name_with(anonymizer: Option<&Anonymizer>, acl: &Acl) -> String {
    let kind = match acl.resource_type {
        "TOPIC" => Kind::Topic,
        "GROUP" => Kind::Group,
        "TRANSACTIONAL_ID" => Kind::Client,
        _ => return acl.resource_name.clone(),
    };
    anonymizer.map_or_else(
        || acl.resource_name.clone(),
        |a| a.name(kind, &acl.resource_name),
    )
}

/// The Users screen: one row per user and SCRAM mechanism.
pub fn user_columns<'a>() -> [Column<&'a Credential>; 3] {
    [
        Column::text(
            "USER",
            (4, 40),
            |c| c.user.clone(),
            // The answer comes sorted by user.
            None,
        ),
        Column::text(
            "MECHANISM",
            (13, 13),
            |c| c.mechanism.to_owned(),
            Some(|a, b| a.mechanism.cmp(b.mechanism)),
        ),
        Column::number(
            "ITERATIONS",
            |c| c.iterations.to_string(),
            |a, b| a.iterations.cmp(&b.iterations),
        ),
    ]
}

/// The Quotas screen: one row per entity and quota key.
pub fn quota_columns<'a>() -> [Column<&'a Quota>; 3] {
    [
        Column::text(
            "ENTITY",
            (6, 48),
            |q| entity(&q.entity),
            // The answer comes sorted by entity.
            None,
        ),
        Column::text(
            "KEY",
            (3, 28),
            |q| q.key.clone(),
            Some(|a, b| a.key.cmp(&b.key)),
        ),
        Column::number(
            "VALUE",
            |q| q.value.to_string(),
            |a, b| a.value.total_cmp(&b.value),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn rows_of_each_table() {
        let acl = Acl {
            principal: "User:alice".to_owned(),
            host: "*".to_owned(),
            operation: "READ",
            permission: "ALLOW",
            resource_type: "TOPIC",
            pattern_type: "LITERAL",
            resource_name: "orders".to_owned(),
        };
        assert_eq!(
            cells(&acl_columns(), &&acl),
            [
                "User:alice",
                "*",
                "READ",
                "ALLOW",
                "TOPIC",
                "LITERAL",
                "orders"
            ]
        );
        let credential = Credential {
            user: "admin".to_owned(),
            mechanism: "SCRAM-SHA-512",
            iterations: 4096,
        };
        assert_eq!(
            cells(&user_columns(), &&credential),
            ["admin", "SCRAM-SHA-512", "4096"]
        );
        let quota = Quota {
            entity: "user=alice".to_owned(),
            key: "producer_byte_rate".to_owned(),
            value: 1_048_576.0,
        };
        assert_eq!(
            cells(&quota_columns(), &&quota),
            ["user=alice", "producer_byte_rate", "1048576"]
        );
    }

    #[test]
    fn anonymized_acl_names_and_quota_entities_hold_pseudonyms() {
        let a = Anonymizer::new(b"a security test key");
        let acl = |resource_type, name: &str| Acl {
            principal: "User:alice".to_owned(),
            host: "*".to_owned(),
            operation: "READ",
            permission: "ALLOW",
            resource_type,
            pattern_type: "LITERAL",
            resource_name: name.to_owned(),
        };
        let shown = |resource_type, name| resource_name_with(Some(&a), &acl(resource_type, name));
        assert_eq!(shown("TOPIC", "orders"), a.name(Kind::Topic, "orders"));
        assert_eq!(shown("GROUP", "billing"), a.name(Kind::Group, "billing"));
        assert_eq!(
            shown("TRANSACTIONAL_ID", "tx-1"),
            a.name(Kind::Client, "tx-1")
        );
        assert_eq!(shown("TOPIC", "*"), "*");
        assert_eq!(shown("CLUSTER", "kafka-cluster"), "kafka-cluster");
        assert_eq!(resource_name_with(None, &acl("TOPIC", "orders")), "orders");
        assert_eq!(
            entity_with(Some(&a), "user=alice,client-id=app-1"),
            format!("user=alice,client-id={}", a.name(Kind::Client, "app-1"))
        );
        assert_eq!(
            entity_with(Some(&a), "ip=10.0.0.7"),
            format!("ip={}", a.name(Kind::Host, "10.0.0.7"))
        );
        assert_eq!(
            entity_with(Some(&a), "client-id=<default>"),
            "client-id=<default>"
        );
        assert_eq!(entity_with(None, "client-id=app-1"), "client-id=app-1");
    }
}
