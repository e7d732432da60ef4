//! A record's jq input made by refilling the object the previous record's
//! input was in, when the expression has let go of it: its 13 to 17 names
//! are neither allocated nor hashed again, and the names it holds as values
//! (`CREATE_TIME`, `utf8`, `none`, the topic) are kept when they repeat.
//! The object is the one [`record_val`] builds, entry for entry; an
//! expression that changes its input (`.value = 1`) changes a copy, since
//! the object is shared while the expression runs.
//!
//! One spare object per thread; between records it holds the topic and
//! the small entries only (the key, value and headers are let go of).

use std::cell::RefCell;

use jaq_json::{Map, Rc, Val};

use super::jq_record::{record_entries, record_val};
use super::json::RecordJson;

thread_local! {
    /// The last input's object, kept for the next record.
    static SPARE: RefCell<Option<Rc<Map>>> = const { RefCell::new(None) };
}

/// Run `run` on `json`'s jq input ([`record_val`]'s value, built in the
/// object the previous call on this thread gave, when nothing holds that
/// any more).
pub fn with_record_val<T>(json: &RecordJson<'_>, run: impl FnOnce(Val) -> T) -> T {
    let spare = SPARE.with(|spare| spare.try_borrow_mut().ok().and_then(|mut s| s.take()));
    let refilled =
        spare.and_then(|mut object| refill(Rc::get_mut(&mut object)?, json).then_some(object));
    let mut object = match refilled {
        Some(object) => object,
        None => match record_val(json) {
            Val::Obj(object) => object,
            other => return run(other),
        },
    };
    let out = run(Val::Obj(Rc::clone(&object)));
    if let Some(map) = Rc::get_mut(&mut object) {
        // Let go of the record's data; the next refill sets every entry.
        for (key, value) in map.iter_mut() {
            if matches!(key, Val::TStr(k) if matches!(&k[..], b"key" | b"value" | b"headers")) {
                *value = Val::Null;
            }
        }
        SPARE.with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                *spare = Some(object);
            }
        });
    }
    out
}

/// Set `map`'s entries to `json`'s, in place; false (and `map` not to be
/// used) when its names are not `json`'s, in order.
fn refill(map: &mut Map, json: &RecordJson<'_>) -> bool {
    let mut slots = map.iter_mut();
    let mut same = true;
    record_entries(json, |name, entry| {
        if !same {
            return;
        }
        match slots.next() {
            Some((Val::TStr(key), slot)) if key.as_ref() == name.as_bytes() => {
                let keep = entry.text().is_some_and(
                    |text| matches!(slot, Val::TStr(held) if held.as_ref() == text.as_bytes()),
                );
                if !keep {
                    *slot = entry.into_val();
                }
            }
            _ => same = false,
        }
    });
    same && slots.next().is_none()
}

#[cfg(test)]
#[path = "jq_reuse_tests.rs"]
mod tests;
