//! A streams group's members by task (`kscope describe group` on a KIP-1071
//! group, and the TUI's group screen): which application instance each
//! member runs in and the tasks it has, as `subtopology:partitions`.

use crate::groups::{Member, StreamsTasks, TaskMap};

use super::Column;

fn tasks(m: &Member, pick: fn(&StreamsTasks) -> &TaskMap) -> String {
    m.tasks.as_ref().map_or_else(
        || "-".to_owned(),
        |t| {
            let text = StreamsTasks::compact(pick(t));
            if text.is_empty() {
                "-".to_owned()
            } else {
                text
            }
        },
    )
}

fn count(m: &Member) -> usize {
    m.tasks.as_ref().map_or(0, StreamsTasks::len)
}

/// The columns: member id, process id, active / standby / warm-up tasks, and
/// the active tasks the coordinator wants it to have.
pub fn table<'a>() -> [Column<&'a Member>; 6] {
    [
        Column::text(
            "MEMBER",
            (8, 60),
            |m| m.member_id.clone(),
            Some(|a, b| a.member_id.cmp(&b.member_id)),
        ),
        Column::text(
            "PROCESS",
            (8, 40),
            |m| m.process_id.clone().unwrap_or_else(|| "-".to_owned()),
            Some(|a, b| a.process_id.cmp(&b.process_id)),
        ),
        Column::text(
            "ACTIVE",
            (6, 60),
            |m| tasks(m, |t| &t.active),
            Some(|a, b| count(a).cmp(&count(b))),
        ),
        Column::text("STANDBY", (7, 60), |m| tasks(m, |t| &t.standby), None),
        Column::text("WARMUP", (6, 60), |m| tasks(m, |t| &t.warmup), None),
        Column::text(
            "TARGET-ACTIVE",
            (13, 60),
            |m| {
                m.target_tasks
                    .as_ref()
                    .map_or_else(|| "-".to_owned(), |t| StreamsTasks::compact(&t.active))
            },
            None,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::columns::cells;

    #[test]
    fn a_member_shows_its_process_and_every_kind_of_task() {
        let m = Member {
            member_id: "m-1".to_owned(),
            process_id: Some("p-1".to_owned()),
            tasks: Some(StreamsTasks {
                active: BTreeMap::from([("0".to_owned(), vec![0, 1])]),
                standby: BTreeMap::from([("1".to_owned(), vec![2])]),
                warmup: BTreeMap::new(),
            }),
            target_tasks: Some(StreamsTasks::default()),
            ..Member::default()
        };
        assert_eq!(
            cells(&table(), &&m),
            ["m-1", "p-1", "0:0,1", "1:2", "-", ""]
        );
        let classic = Member::default();
        assert_eq!(cells(&table(), &&classic)[2], "-");
    }
}
