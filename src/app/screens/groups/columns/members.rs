//! A group's members (the TUI's Members screen and `kscope describe group`).

use crate::groups::{Assignment, Member};

use crate::columns::Column;

fn target(m: &Member) -> Option<usize> {
    m.target_assignment.as_ref().map(Assignment::len)
}

/// The columns: member id, instance id, client id, host, epoch, current and
/// target assignment (`-` where the protocol has none).
pub fn table<'a>() -> [Column<&'a Member>; 7] {
    [
        Column::text(
            "MEMBER",
            (8, 60),
            |m| m.member_id.clone(),
            Some(|a, b| a.member_id.cmp(&b.member_id)),
        ),
        Column::text(
            "INSTANCE",
            (8, 40),
            |m| m.instance_id.clone().unwrap_or_else(|| "-".to_owned()),
            Some(|a, b| a.instance_id.cmp(&b.instance_id)),
        ),
        Column::text(
            "CLIENT",
            (8, 40),
            |m| m.client_id.clone(),
            Some(|a, b| a.client_id.cmp(&b.client_id)),
        ),
        Column::text(
            "HOST",
            (8, 40),
            |m| m.client_host.clone(),
            Some(|a, b| a.client_host.cmp(&b.client_host)),
        ),
        Column::number(
            "EPOCH",
            |m| {
                m.member_epoch
                    .map_or_else(|| "-".to_owned(), |e| e.to_string())
            },
            |a, b| a.member_epoch.cmp(&b.member_epoch),
        ),
        Column::text(
            "ASSIGNED",
            (8, 80),
            |m| m.assignment.compact(),
            Some(|a, b| a.assignment.len().cmp(&b.assignment.len())),
        ),
        Column::text(
            "TARGET",
            (8, 80),
            |m| {
                m.target_assignment
                    .as_ref()
                    .map_or_else(|| "-".to_owned(), Assignment::compact)
            },
            Some(|a, b| target(a).cmp(&target(b))),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::columns::cells;

    #[test]
    fn member_rows_show_current_and_target() {
        let m = Member {
            member_id: "m-1".to_owned(),
            client_id: "billing-1".to_owned(),
            client_host: "/127.0.0.1".to_owned(),
            member_epoch: Some(7),
            assignment: Assignment(BTreeMap::from([("orders".to_owned(), vec![0, 1])])),
            target_assignment: Some(Assignment(BTreeMap::from([("orders".to_owned(), vec![0])]))),
            ..Member::default()
        };
        assert_eq!(
            cells(&table(), &&m),
            [
                "m-1",
                "-",
                "billing-1",
                "/127.0.0.1",
                "7",
                "orders:0,1",
                "orders:0"
            ]
        );
    }
}
