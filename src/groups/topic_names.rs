//! Topic names shared by every lag read of a session.
//!
//! A group's lag names its topic once per partition, in its per-topic
//! totals and in its topic list; at 10,000 groups that was five heap
//! strings a group per read of the list, every few seconds. Names are
//! interned here instead: every read hands out the same `Arc<str>` for a
//! topic, so a read allocates no name the list already holds, and the
//! list held keeps one copy per topic, not five per group.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The interned names (cheap to clone: one set per session).
#[derive(Debug, Clone, Default)]
pub struct TopicNames(Arc<Mutex<BTreeSet<Arc<str>>>>);

/// The set, locked for a read's worth of lookups.
pub struct Interner<'a>(MutexGuard<'a, BTreeSet<Arc<str>>>);

impl TopicNames {
    /// Lock for lookups. Names nobody else holds any more (topics no list or
    /// lag refers to) are dropped first: the set stays the size of what is
    /// in use.
    pub fn lock(&self) -> Interner<'_> {
        // A panic elsewhere while locked leaves a valid set: keep using it.
        let mut names = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        names.retain(|name| Arc::strong_count(name) > 1);
        Interner(names)
    }

    /// How many names are held.
    pub fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Interner<'_> {
    /// The shared name for `topic`.
    pub fn get(&mut self, topic: &str) -> Arc<str> {
        if let Some(name) = self.0.get(topic) {
            return Arc::clone(name);
        }
        let name: Arc<str> = Arc::from(topic);
        self.0.insert(Arc::clone(&name));
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_shared_while_held_and_forgotten_after() {
        let names = TopicNames::default();
        let first = names.lock().get("orders");
        let second = names.lock().get("orders");
        assert!(Arc::ptr_eq(&first, &second), "one copy per topic");
        assert_eq!(&*first, "orders");
        drop(names.lock().get("audit"));
        assert_eq!(names.len(), 2, "not pruned until the next lock");
        drop(names.lock());
        assert_eq!(names.len(), 1, "audit is held by nobody: gone");
        drop((first, second));
        drop(names.lock());
        assert!(names.is_empty());
    }
}
