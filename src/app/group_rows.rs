//! The row lists of the group screens (filtered and sorted in `update`), and
//! what identifies a row across answers, so that the selection follows the
//! group or partition it was on when a refresh reorders the list.

use crate::groups::GroupDetail;

use super::groups::GroupsStore;
use super::screen::Screen;

/// Indices into the screen's source, in source order, filtered by `keep`
/// (the caller sorts them by the screen's column table). Empty for other
/// screens.
pub fn build(
    store: &GroupsStore,
    screen: &Screen,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    match screen {
        Screen::Groups { topic } => groups(store, topic.as_deref(), keep),
        Screen::Group { group } => detail(store, group).map_or_else(Vec::new, |d| offsets(d, keep)),
        Screen::Members { group } => {
            detail(store, group).map_or_else(Vec::new, |d| members(d, keep))
        }
        _ => Vec::new(),
    }
}

/// The detail of `group`, if it has arrived.
pub fn detail<'a>(store: &'a GroupsStore, group: &str) -> Option<&'a GroupDetail> {
    store.detail_of(group)?.detail.as_deref()
}

/// What identifies the row at `index` of `screen`'s source.
pub fn identity(store: &GroupsStore, screen: &Screen, index: usize) -> Option<String> {
    match screen {
        Screen::Groups { .. } => store
            .overview
            .as_ref()?
            .groups
            .get(index)
            .map(|g| g.listing.group.clone()),
        Screen::Group { group } => detail(store, group)?
            .lag
            .partitions
            .get(index)
            .map(|p| format!("{} {}", p.topic, p.partition)),
        Screen::Members { group } => detail(store, group)?
            .description
            .members
            .get(index)
            .map(|m| m.member_id.clone()),
        _ => None,
    }
}

fn groups(
    store: &GroupsStore,
    topic: Option<&str>,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    let Some(overview) = &store.overview else {
        return Vec::new();
    };
    overview
        .groups
        .iter()
        .enumerate()
        .filter(|(_, g)| !(store.hide_inactive && g.state.is_inactive()))
        .filter(|(_, g)| {
            store
                .only_type
                .as_ref()
                .is_none_or(|t| g.listing.group_type == *t)
        })
        .filter(|(_, g)| topic.is_none_or(|t| g.topics.iter().any(|x| **x == *t)))
        .filter(|(_, g)| keep(&g.listing.group))
        .map(|(i, _)| i)
        .collect()
}

fn offsets(detail: &GroupDetail, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    detail
        .lag
        .partitions
        .iter()
        .enumerate()
        .filter(|(_, p)| keep(&format!("{} {}", p.topic, p.partition)))
        .map(|(i, _)| i)
        .collect()
}

fn members(detail: &GroupDetail, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    detail
        .description
        .members
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            keep(&format!(
                "{} {} {}",
                m.member_id, m.client_id, m.client_host
            ))
        })
        .map(|(i, _)| i)
        .collect()
}
