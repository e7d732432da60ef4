//! Handing records out: merged by timestamp across partitions, each
//! partition's kept answer decoded further only when its queue runs out,
//! and no more than about [`DECODE_STEP`] bytes of records per call.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Browser, DECODE_STEP, Queue};
use crate::browse::Event;

impl Browser {
    /// Hand out records in timestamp order while no partition that may hold
    /// an earlier one is waiting for a fetch; false when one is. A partition
    /// whose queue ran out decodes more of the answer it keeps, until the
    /// records handed out by this call (`handed`, in bytes) reach [`DECODE_STEP`]:
    /// then this call stops there (true), and the next goes on.
    pub(super) fn merge(&mut self, events: &mut Vec<Event>, handed: &mut usize) -> bool {
        let follow = self.options.follow;
        let partitions: Vec<i32> = self.queues.keys().copied().collect();
        if !partitions.iter().all(|p| self.refill(*p, *handed, events)) {
            return true;
        }
        // The queues' first records by (time, partition): the earliest, the
        // lowest partition among equal times, is at the top. Only the
        // partition just taken from changes while this call runs, so its
        // new first record is all that is pushed back (a scan of every
        // queue per record was a tenth of `consume`'s CPU on 100 partitions).
        let mut fronts = BinaryHeap::with_capacity(self.queues.len());
        for (p, queue) in &self.queues {
            match queue.front() {
                Some(r) => fronts.push(Reverse((r.timestamp, *p))),
                None if self.blocks(*p, follow) => return false,
                None => {}
            }
        }
        while let Some(Reverse((_, p))) = fronts.pop() {
            if let Some(record) = self.queues.get_mut(&p).and_then(Queue::pop) {
                *handed = handed.saturating_add(record.weight());
                events.push(Event::Record(record));
            }
            if !self.refill(p, *handed, events) {
                return true;
            }
            match self.queues.get(&p).and_then(Queue::front) {
                Some(r) => fronts.push(Reverse((r.timestamp, p))),
                None if self.blocks(p, follow) => return false,
                None => {}
            }
        }
        true
    }

    /// Whether partition `p`, its queue empty, may still hold a record
    /// earlier than those queued elsewhere (the merge waits for it).
    fn blocks(&self, p: i32, follow: bool) -> bool {
        self.cursors.get(&p).is_some_and(|c| c.blocks_merge(follow))
    }

    /// Decode more of the answer kept for partition `p` if its queue ran out
    /// (a [`DECODE_STEP`]), taking up the answer read ahead first when the
    /// kept one is done; false when it has to wait for the next call,
    /// because this one already handed out `handed` >= [`DECODE_STEP`] bytes.
    fn refill(&mut self, p: i32, handed: usize, events: &mut Vec<Event>) -> bool {
        if !self.queues.get(&p).is_some_and(Queue::is_empty) {
            return true;
        }
        self.ahead.adopt(&mut self.cursors, p, events);
        let limits = self.limits();
        let Some(cursor) = self.cursors.get_mut(&p) else {
            return true;
        };
        if cursor.rest.is_none() {
            return true;
        }
        if handed >= DECODE_STEP {
            return false;
        }
        let (mut records, mut notices) = (Vec::new(), Vec::new());
        cursor.fill(limits, DECODE_STEP, &mut records, &mut notices);
        if let Some(queue) = self.queues.get_mut(&p) {
            queue.extend(records);
        }
        events.extend(notices.into_iter().map(Event::Notice));
        true
    }
}
