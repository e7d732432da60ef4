//! The stores `AppState` holds beside the screen modules' own, each apart
//! from the functions over the whole state that change it (in `app/`,
//! under the store's name): a store imports neither the state nor the
//! actions, so the state can hold it without an import cycle.

pub mod event_sources;
pub mod event_strip;
pub mod replay;
pub mod sizes;
