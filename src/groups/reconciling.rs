//! A KIP-848 group's reconciling members as one describe found them: the
//! members whose assignment is not yet their target. Kept in the group's
//! summary ([`super::refresh::GroupSummary`]) and compared across reads by
//! [`super::reconcile_events::ReconcileWatch`].

use crate::meta::MemberChange;

use super::description::GroupDescription;

/// A group's reconciling members, as one read found them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reconciling {
    /// The group epoch.
    pub group_epoch: Option<i32>,
    /// The target assignment's epoch.
    pub assignment_epoch: Option<i32>,
    /// The members whose assignment is not their target: what each owns
    /// (`assignment`) and its target (`target_assignment`), by member id.
    pub members: Vec<MemberChange>,
}

impl Reconciling {
    /// The reconciling members of `description`; `None` when every member
    /// owns its target (or the group has no targets: classic groups).
    pub fn of(description: &GroupDescription) -> Option<Box<Reconciling>> {
        let members: Vec<MemberChange> = description
            .members
            .iter()
            .filter(|m| m.is_reconciling())
            .map(|m| MemberChange {
                member_id: m.member_id.clone(),
                client_id: m.client_id.clone(),
                assignment: m.assignment.0.clone(),
                target_assignment: m
                    .target_assignment
                    .as_ref()
                    .map(|t| t.0.clone())
                    .unwrap_or_default(),
            })
            .collect();
        (!members.is_empty()).then(|| {
            Box::new(Reconciling {
                group_epoch: description.group_epoch,
                assignment_epoch: description.assignment_epoch,
                members,
            })
        })
    }
}
