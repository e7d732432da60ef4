//! What the schema screens hold: the registry's list of subject versions
//! (asked for once, again on `r`) and the version open, laid out.

use crate::app::failure::Failure;
use crate::app::screens::requests::Requests;
use crate::browse::format::Line;
use crate::schema::subjects::VersionRow;

/// The registry's answer: every subject version, or why not.
pub type Listed = Result<Vec<VersionRow>, Failure>;

/// The list (asked for once, again on `r`) and the version open.
#[derive(Debug, Default)]
pub struct Store {
    /// The list's request bookkeeping and its latest answer.
    pub list: Requests<(), Listed>,
    /// The version open (`Shown::Version`), laid out.
    pub open: Vec<Line>,
}

impl Store {
    /// The latest answer, if any.
    pub fn listed(&self) -> Option<&Listed> {
        self.list.held_for(&())
    }

    /// The rows of the latest answer (none while it failed or is asked).
    pub fn rows(&self) -> &[VersionRow] {
        match self.listed() {
            Some(Ok(rows)) => rows,
            _ => &[],
        }
    }
}
