//! The gate that pauses the input thread while a `password_command` has
//! the terminal (`super::login`): [`Pause::hold`] returns once the reader
//! (`super::input`) is parked between polls, and the [`Held`] it gives
//! lets the reader go again when dropped.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Pausing the input thread (cheap to clone; all clones are one gate).
#[derive(Clone, Default)]
pub struct Pause(Arc<(Mutex<Gate>, Condvar)>);

#[derive(Default)]
struct Gate {
    /// Asked to stop reading.
    held: bool,
    /// The reader is parked: no read under way until `held` is cleared.
    parked: bool,
}

impl Pause {
    /// Stop the reader and wait until it is parked (at most one poll of the reader
    /// while it reads; at once when there is no reader). It reads again
    /// when the [`Held`] is dropped.
    pub fn hold(&self) -> Held {
        let (lock, wake) = &*self.0;
        let mut gate = lock.lock().unwrap_or_else(PoisonError::into_inner);
        gate.held = true;
        while !gate.parked {
            gate = wake.wait(gate).unwrap_or_else(PoisonError::into_inner);
        }
        Held(self.clone())
    }

    fn release(&self) {
        let (lock, wake) = &*self.0;
        lock.lock().unwrap_or_else(PoisonError::into_inner).held = false;
        wake.notify_all();
    }

    /// The reader's side: park while held, then say whether a read may
    /// start (false: held meanwhile, ask again).
    pub(super) fn may_read(&self) -> bool {
        let (lock, wake) = &*self.0;
        let mut gate = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while gate.held {
            gate.parked = true;
            wake.notify_all();
            gate = wake.wait(gate).unwrap_or_else(PoisonError::into_inner);
        }
        gate.parked = false;
        true
    }

    /// The reader is gone (its channel closed or the terminal failed): a
    /// hold never waits for it.
    pub(super) fn gone(&self) {
        let (lock, wake) = &*self.0;
        lock.lock().unwrap_or_else(PoisonError::into_inner).parked = true;
        wake.notify_all();
    }

    /// Whether a hold came while the reader was polling.
    pub(super) fn is_held(&self) -> bool {
        self.0.0.lock().unwrap_or_else(PoisonError::into_inner).held
    }
}

/// The input thread held: dropping it (the login done, or its message
/// never delivered) lets it read again.
pub struct Held(Pause);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.release();
    }
}
