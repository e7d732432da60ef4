//! What a browse session read and the run loop has not taken yet: the
//! session's task stages records into a bounded ring here, and the loop
//! takes all of it as one action when woken (`super::browse` wakes it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::app::Action;
use crate::app::screens::{self, messages};
use crate::browse::Ring;

/// What a session read and the run loop has not taken yet.
#[derive(Debug)]
pub struct Staging {
    /// The browse session it stages for.
    pub(super) session: u64,
    pub(super) inner: Mutex<Staged>,
    /// A wake-up is on its way to the run loop.
    pub(super) woken: AtomicBool,
}

#[derive(Debug, Default)]
pub(super) struct Staged {
    pub(super) ring: Ring,
    pub(super) notices: Vec<String>,
    pub(super) failed: Option<String>,
}

impl Staging {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Staged> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Everything staged, as the action `update` takes.
    pub fn take(&self) -> Action {
        self.woken.store(false, Ordering::Release);
        let mut staged = self.lock();
        Action::Screen(screens::Msg::Messages(messages::Msg::Browsed {
            session: self.session,
            records: staged.ring.drain(),
            dropped: staged.ring.dropped(),
            notices: std::mem::take(&mut staged.notices),
            failed: staged.failed.take(),
        }))
    }
}
