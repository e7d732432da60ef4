//! The group screens' column tables, one per screen: the list
//! ([`list`]), a group's offsets per partition ([`offsets`]) and its
//! members ([`members`]). The CLI's `describe group` and `get groups` use
//! them too; the cell formatters they share with the CLI's other group
//! tables are in [`crate::columns::group_format`].

pub mod list;
pub mod members;
pub mod offsets;
