//! Listing groups: `ListGroups` is answered per broker (each lists the groups
//! it coordinates), so a complete list asks every broker — and as a bonus
//! learns every group's coordinator without a `FindCoordinator` per group.

use crate::conn::ErrorCode;
use crate::conn::protocol::messages::{ListGroupsRequest, ListGroupsResponse};

use super::kind::{GroupState, GroupType};

/// One group as `ListGroups` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupListing {
    pub group: String,
    /// The protocol the group uses (`ListGroups` v5+; `Unknown` before).
    pub group_type: GroupType,
    /// The state (`ListGroups` v4+; `Unknown("")` before).
    pub state: GroupState,
    /// The classic protocol type (`consumer`, `connect`, …; empty for none).
    pub protocol_type: String,
    /// The broker that answered for it: its coordinator.
    pub coordinator: i32,
}

/// Every broker's answer put together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupList {
    /// The groups, sorted by name.
    pub groups: Vec<GroupListing>,
    /// Brokers that could not answer, with why: the list may be missing
    /// the groups they coordinate.
    pub failed: Vec<(i32, String)>,
}

/// The request: no state or type filter, i.e. every group (both filters are
/// "empty means all", unlike `OffsetFetch`'s topics).
pub fn request() -> ListGroupsRequest {
    ListGroupsRequest::default()
}

/// Read one broker's answer.
pub fn read(
    coordinator: i32,
    response: &ListGroupsResponse,
) -> Result<Vec<GroupListing>, ErrorCode> {
    if let Some(code) = ErrorCode::from_code(response.error_code) {
        return Err(code);
    }
    Ok(response
        .groups
        .iter()
        .map(|listed| {
            let protocol_type = listed.protocol_type.to_string();
            GroupListing {
                group: listed.group_id.0.to_string(),
                group_type: group_type(listed.group_type.as_str(), &protocol_type),
                state: GroupState::parse(listed.group_state.as_str()),
                protocol_type,
                coordinator,
            }
        })
        .collect())
}

/// The type from `group_type` (v5+). Before v5 the broker does not say; a
/// group whose protocol type is not `consumer` can only be classic (only the
/// consumer protocol has a KIP-848 form), a `consumer` one could be either.
fn group_type(group_type: &str, protocol_type: &str) -> GroupType {
    if !group_type.is_empty() {
        return GroupType::parse(group_type);
    }
    if protocol_type.is_empty() || protocol_type == "consumer" {
        GroupType::Unknown(String::new())
    } else {
        GroupType::Classic
    }
}

/// Merge per-broker lists: sorted by name; a group two brokers both list
/// (mid-migration of its coordinator) is kept once, from the later answer.
pub fn merge(lists: Vec<Vec<GroupListing>>, failed: Vec<(i32, String)>) -> GroupList {
    let mut groups: Vec<GroupListing> = lists.into_iter().flatten().collect();
    groups.sort_by(|a, b| a.group.cmp(&b.group));
    groups.dedup_by(|later, earlier| later.group == earlier.group);
    let mut failed = failed;
    failed.sort();
    GroupList { groups, failed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::StrBytes;
    use crate::conn::protocol::messages::GroupId;
    use crate::conn::protocol::messages::list_groups_response::ListedGroup;

    fn listed(id: &str, protocol: &str, state: &str, kind: &str) -> ListedGroup {
        ListedGroup::default()
            .with_group_id(GroupId(StrBytes::from_string(id.to_owned())))
            .with_protocol_type(StrBytes::from_string(protocol.to_owned()))
            .with_group_state(StrBytes::from_string(state.to_owned()))
            .with_group_type(StrBytes::from_string(kind.to_owned()))
    }

    #[test]
    fn a_listing_carries_type_state_and_its_coordinator() {
        let response = ListGroupsResponse::default().with_groups(vec![
            listed("new", "consumer", "Reconciling", "consumer"),
            listed("old", "consumer", "Empty", "classic"),
            listed("connect", "connect", "Stable", ""),
            listed("pre-v5", "consumer", "Stable", ""),
        ]);
        let groups = read(2, &response).expect("no error");
        assert_eq!(groups[0].group_type, GroupType::Consumer);
        assert_eq!(groups[0].state, GroupState::Reconciling);
        assert_eq!(groups[0].coordinator, 2);
        assert_eq!(groups[1].group_type, GroupType::Classic);
        assert_eq!(groups[2].group_type, GroupType::Classic);
        assert_eq!(groups[3].group_type.as_str(), "unknown");
        let refused = ListGroupsResponse::default().with_error_code(15);
        assert_eq!(read(1, &refused), Err(ErrorCode::CoordinatorNotAvailable));
    }

    #[test]
    fn the_default_request_filters_nothing() {
        let request = request();
        assert!(request.states_filter.is_empty());
        assert!(request.types_filter.is_empty());
    }

    #[test]
    fn merged_lists_are_sorted_and_unique() {
        let one = |group: &str, coordinator| GroupListing {
            group: group.to_owned(),
            group_type: GroupType::Classic,
            state: GroupState::Empty,
            protocol_type: String::new(),
            coordinator,
        };
        let merged = merge(
            vec![
                vec![one("b", 1), one("a", 1)],
                vec![one("c", 2), one("a", 2)],
            ],
            vec![(3, "down".to_owned())],
        );
        let names: Vec<&str> = merged.groups.iter().map(|g| g.group.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(merged.failed, [(3, "down".to_owned())]);
    }
}
