//! What drawing is done with, below both the screen modules (`app::screens`,
//! which draw their own rows) and the frame around them (`ui`): a table's
//! visible part as a [`grid::Grid`] of formatted cells, the colours of
//! the [`theme::Theme`] chosen, and text in tokens styled with them
//! ([`highlight`]).

pub mod grid;
pub mod highlight;
pub mod theme;
