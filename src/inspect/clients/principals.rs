//! The principals allowed (or denied) to write, read or describe a topic:
//! one `DescribeAcls` with the MATCH pattern, which returns the topic's
//! literal bindings, the prefixed ones it starts with and the wildcard
//! `*` ones, kept to the operations that say who touches it.

use serde::Serialize;

use crate::inspect::error::Result;
use crate::inspect::security::{self, Acl, Acls};
use crate::meta::Cluster;

/// The operations that decide who writes and reads a topic (`ALL` grants
/// every one of them).
pub const OPERATIONS: [&str; 4] = ["WRITE", "READ", "DESCRIBE", "ALL"];

/// Who may touch a topic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "authorizer", rename_all = "snake_case")]
pub enum TopicPrincipals {
    /// An authorizer answered: these bindings apply to the topic (super
    /// users are not ACLs and never appear).
    Listed {
        /// The bindings for [`OPERATIONS`], by principal then operation.
        acls: Vec<Acl>,
    },
    /// No authorizer is configured (`SECURITY_DISABLED`): every principal
    /// may write and read it.
    None,
}

/// The bindings of `acls` for the operations in [`OPERATIONS`], by
/// principal, operation, then permission.
pub fn relevant(acls: Acls) -> TopicPrincipals {
    match acls {
        Acls::NoAuthorizer => TopicPrincipals::None,
        Acls::Listed(acls) => {
            let mut acls: Vec<Acl> = acls
                .into_iter()
                .filter(|a| OPERATIONS.contains(&a.operation))
                .collect();
            acls.sort_by(|a, b| {
                (&a.principal, a.operation, a.permission, &a.host).cmp(&(
                    &b.principal,
                    b.operation,
                    b.permission,
                    &b.host,
                ))
            });
            TopicPrincipals::Listed { acls }
        }
    }
}

/// Who may write, read or describe `topic`.
pub async fn principals(cluster: &Cluster, topic: &str) -> Result<TopicPrincipals> {
    security::describe_topic_acls(cluster, topic)
        .await
        .map(relevant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acl(principal: &str, operation: &'static str) -> Acl {
        Acl {
            principal: principal.to_owned(),
            host: "*".to_owned(),
            operation,
            permission: "ALLOW",
            resource_type: "TOPIC",
            pattern_type: "LITERAL",
            resource_name: "orders".to_owned(),
        }
    }

    #[test]
    fn only_the_operations_that_say_who_writes_and_reads() {
        let listed = Acls::Listed(vec![
            acl("User:bob", "WRITE"),
            acl("User:alice", "ALTER_CONFIGS"),
            acl("User:alice", "READ"),
        ]);
        assert_eq!(
            relevant(listed),
            TopicPrincipals::Listed {
                acls: vec![acl("User:alice", "READ"), acl("User:bob", "WRITE")]
            },
            "by principal, without ALTER_CONFIGS"
        );
        assert_eq!(relevant(Acls::NoAuthorizer), TopicPrincipals::None);
    }
}
