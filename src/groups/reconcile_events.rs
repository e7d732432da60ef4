//! `group_reconciling` and `group_reconciled` events: a KIP-848 group
//! (`consumer` or `streams`) whose members' assignments differ from their
//! targets — the coordinator moved partitions and the members have not all
//! taken or given them up yet — and its converging again.
//!
//! What is compared is [`super::member::Member::is_reconciling`]: the
//! partitions a member owns against its target's (for a streams member,
//! the partitions of its active tasks; standby and warm-up tasks are not
//! compared). A read of a group (the list, its visible rows, or the group
//! on screen, [`ReconcileWatch::observe_one`]) keeps, for a group
//! that reconciles, only its reconciling members ([`super::reconciling::Reconciling`], in the
//! group's summary: nothing for a converged group). [`ReconcileWatch`]
//! says `group_reconciling` when a group is first seen so (the members,
//! what each owns and its target) and `group_reconciled` when a later read
//! finds every member on its target (each of them, what it owned when
//! first seen reconciling and the target it reached). A group whose
//! describe failed keeps what was held. A reconciliation that starts and
//! ends between two reads is not seen: it is said only when a read lands
//! inside it (the coordinator's heartbeat interval, 5 s by default, is
//! the least it lasts when a member has partitions to give up).
//!
//! Memory: the reconciling members' partitions, for the groups
//! reconciling at the last read only.

use std::collections::BTreeMap;
use std::time::SystemTime;

use crate::meta::{MemberChange, MovementEvent, MovementKind};

use super::reconciling::Reconciling;
use super::refresh::{GroupSummary, Overview};

/// The groups reconciling at the last read, by name: each reconciling
/// member as first seen (what it owned then), its latest target.
#[derive(Debug, Default)]
pub struct ReconcileWatch {
    groups: BTreeMap<String, Vec<MemberChange>>,
}

impl ReconcileWatch {
    /// A read of the whole list: groups not in it are forgotten.
    pub fn observe(&mut self, overview: &Overview, wall: SystemTime) -> Vec<MovementEvent> {
        let mut out = Vec::new();
        let mut kept = BTreeMap::new();
        for summary in &overview.groups {
            let name = &summary.listing.group;
            let mut held = self.groups.remove(name);
            judge(summary, &mut held, wall, &mut out);
            if let Some(held) = held {
                kept.insert(name.clone(), held);
            }
        }
        self.groups = kept;
        out
    }

    /// A read of some groups alone: the others are kept as they were.
    pub fn observe_rows(&mut self, rows: &[GroupSummary], wall: SystemTime) -> Vec<MovementEvent> {
        let mut out = Vec::new();
        for summary in rows {
            let name = &summary.listing.group;
            let mut held = self.groups.remove(name);
            judge(summary, &mut held, wall, &mut out);
            if let Some(held) = held {
                self.groups.insert(name.clone(), held);
            }
        }
        out
    }

    /// A read of one group's description (the group on screen): the
    /// others are kept as they were.
    pub fn observe_one(
        &mut self,
        group: &str,
        reconciling: Option<&Reconciling>,
        wall: SystemTime,
    ) -> Option<MovementEvent> {
        let mut out = Vec::new();
        let mut held = self.groups.remove(group);
        judge_read(group, reconciling, &mut held, wall, &mut out);
        if let Some(held) = held {
            self.groups.insert(group.to_owned(), held);
        }
        out.pop()
    }
}

/// Compare one read with what was held of its group, push the event
/// if it entered or left reconciliation, and leave in `held` what is
/// to be kept.
fn judge(
    summary: &GroupSummary,
    held: &mut Option<Vec<MemberChange>>,
    wall: SystemTime,
    out: &mut Vec<MovementEvent>,
) {
    // The describe failed: nothing is known of its members this time.
    if summary.members.is_none() {
        return;
    }
    let reconciling = summary.reconciling.as_deref();
    judge_read(&summary.listing.group, reconciling, held, wall, out);
}

/// [`judge`] for a read whose describe answered: `reconciling` is what it
/// found reconciling (`None`: every member on its target).
fn judge_read(
    group: &str,
    reconciling: Option<&Reconciling>,
    held: &mut Option<Vec<MemberChange>>,
    wall: SystemTime,
    out: &mut Vec<MovementEvent>,
) {
    let group = group.to_owned();
    let kind = match (held.as_mut(), reconciling) {
        (None, Some(now)) => {
            *held = Some(now.members.clone());
            MovementKind::GroupReconciling {
                group,
                group_epoch: now.group_epoch,
                assignment_epoch: now.assignment_epoch,
                members: now.members.clone(),
            }
        }
        (Some(members), Some(now)) => {
            // Still reconciling: a member seen again keeps what it
            // owned first and takes its latest target; a new one joins.
            for member in &now.members {
                match members.iter_mut().find(|m| m.member_id == member.member_id) {
                    Some(was) => was.target_assignment.clone_from(&member.target_assignment),
                    None => members.push(member.clone()),
                }
            }
            return;
        }
        (Some(_), None) => MovementKind::GroupReconciled {
            group,
            members: held.take().unwrap_or_default(),
        },
        (None, None) => return,
    };
    out.push(MovementEvent {
        time: wall,
        topic: None,
        partition: None,
        kind,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::description::GroupDescription;
    use crate::groups::member::{Assignment, Member};
    use crate::groups::reconciling::Reconciling;
    use crate::groups::{GroupListing, GroupState, GroupType, RequestCounts};

    fn parts(partitions: &[i32]) -> Assignment {
        Assignment::from_pairs([("orders".to_owned(), partitions.to_vec())])
    }

    fn member(id: &str, owns: &[i32], target: &[i32]) -> Member {
        Member {
            member_id: id.to_owned(),
            client_id: format!("client-{id}"),
            assignment: parts(owns),
            target_assignment: Some(parts(target)),
            ..Member::default()
        }
    }

    fn described(members: Vec<Member>) -> GroupDescription {
        GroupDescription {
            group: "billing".to_owned(),
            group_type: GroupType::Consumer,
            state: GroupState::Stable,
            coordinator: 1,
            protocol_type: "consumer".to_owned(),
            assignor: "uniform".to_owned(),
            group_epoch: Some(7),
            assignment_epoch: Some(7),
            members,
            topology: None,
        }
    }

    fn read(members: Option<&[Member]>) -> Overview {
        let reconciling = members.and_then(|m| Reconciling::of(&described(m.to_vec())));
        Overview {
            groups: vec![GroupSummary {
                listing: GroupListing {
                    group: "billing".to_owned(),
                    group_type: GroupType::Consumer,
                    state: GroupState::Stable,
                    protocol_type: "consumer".to_owned(),
                    coordinator: 1,
                },
                members: members.map(<[Member]>::len),
                state: GroupState::Stable,
                topics: Vec::new(),
                lag: None,
                reconciling,
                error: None,
            }],
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        }
    }

    #[test]
    fn the_group_on_screen_read_alone_is_judged_with_the_list_reads_not_twice() {
        let mut watch = ReconcileWatch::default();
        let wall = SystemTime::UNIX_EPOCH;
        let joined = vec![
            member("a", &[0, 1, 2, 3], &[0, 1]),
            member("b", &[], &[2, 3]),
        ];
        let moving = described(joined.clone());
        // The detail finds it reconciling first: said once, by it.
        let said = watch.observe_one("billing", Reconciling::of(&moving).as_deref(), wall);
        assert!(
            matches!(&said, Some(e) if e.kind.name() == "group_reconciling"),
            "{said:?}"
        );
        // The list then finds the same: nothing new.
        assert!(watch.observe(&read(Some(&joined)), wall).is_empty());
        // An unrelated group on screen leaves billing held.
        assert!(watch.observe_one("audit", None, wall).is_none());
        // The detail finds it converged: said once, with what a owned first.
        let done = vec![member("a", &[0, 1], &[0, 1]), member("b", &[2, 3], &[2, 3])];
        let converged = described(done.clone());
        let said = watch.observe_one("billing", Reconciling::of(&converged).as_deref(), wall);
        let Some(MovementEvent {
            kind: MovementKind::GroupReconciled { members, .. },
            ..
        }) = said
        else {
            panic!("reconciled expected, got {said:?}");
        };
        assert_eq!(members.len(), 2, "{members:?}");
        assert_eq!(members[0].assignment["orders"], [0, 1, 2, 3]);
        assert!(watch.observe(&read(Some(&done)), wall).is_empty());
    }

    #[test]
    fn only_members_off_their_target_are_kept_and_classic_groups_never_are() {
        let group = described(vec![member("a", &[0, 1], &[0]), member("b", &[2], &[2])]);
        let reconciling = Reconciling::of(&group).expect("a reconciles");
        assert_eq!(reconciling.members.len(), 1);
        assert_eq!(reconciling.members[0].member_id, "a");
        assert_eq!(reconciling.members[0].target_assignment["orders"], [0]);
        let mut classic = member("c", &[0], &[]);
        classic.target_assignment = None;
        assert!(Reconciling::of(&described(vec![classic])).is_none());
    }

    #[test]
    fn entering_is_said_once_with_the_members_and_converging_once_with_before_and_after() {
        let mut watch = ReconcileWatch::default();
        let wall = SystemTime::UNIX_EPOCH;
        let converged = vec![member("a", &[0, 1, 2, 3], &[0, 1, 2, 3])];
        assert!(watch.observe(&read(Some(&converged)), wall).is_empty());
        // b joins: a is to give up 2 and 3, b waits for them.
        let joined = vec![
            member("a", &[0, 1, 2, 3], &[0, 1]),
            member("b", &[], &[2, 3]),
        ];
        let events = watch.observe(&read(Some(&joined)), wall);
        assert_eq!(events.len(), 1);
        let MovementKind::GroupReconciling {
            group,
            group_epoch,
            members,
            ..
        } = &events[0].kind
        else {
            panic!("{events:?}");
        };
        assert_eq!((group.as_str(), *group_epoch), ("billing", Some(7)));
        let ids: Vec<&str> = members.iter().map(|m| m.member_id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(events[0].group(), Some("billing"));
        // Half-way (a gave up its partitions, b has not taken them), and a
        // read whose describe failed: nothing said.
        let halfway = vec![member("a", &[0, 1], &[0, 1]), member("b", &[], &[2, 3])];
        assert!(watch.observe(&read(Some(&halfway)), wall).is_empty());
        assert!(watch.observe(&read(None), wall).is_empty());
        let done = vec![member("a", &[0, 1], &[0, 1]), member("b", &[2, 3], &[2, 3])];
        let events = watch.observe(&read(Some(&done)), wall);
        let MovementKind::GroupReconciled { members, .. } = &events[0].kind else {
            panic!("{events:?}");
        };
        let a = &members[0];
        assert_eq!(
            (
                a.assignment["orders"].as_slice(),
                a.target_assignment["orders"].as_slice()
            ),
            (&[0, 1, 2, 3][..], &[0, 1][..]),
            "what it owned when first seen, the target it reached"
        );
        assert!(members[1].assignment.is_empty());
        assert!(watch.observe(&read(Some(&done)), wall).is_empty());
        assert!(watch.groups.is_empty());
    }

    #[test]
    fn rows_keep_the_other_groups_and_the_list_forgets_the_gone() {
        let mut watch = ReconcileWatch::default();
        let wall = SystemTime::UNIX_EPOCH;
        let joined = read(Some(&[member("b", &[], &[2])]));
        assert_eq!(watch.observe_rows(&joined.groups, wall).len(), 1);
        assert!(watch.observe_rows(&[], wall).is_empty());
        assert_eq!(watch.groups.len(), 1);
        let empty = Overview {
            groups: Vec::new(),
            ..read(None)
        };
        assert!(watch.observe(&empty, wall).is_empty(), "gone: no event");
        assert!(watch.groups.is_empty());
    }
}
