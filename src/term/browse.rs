//! Browse sessions for the Messages screen: a task reads records with
//! [`Browser`] into a bounded staging [`Ring`] of its own and wakes the run
//! loop once; the loop takes everything staged when it gets to it. The
//! network task never waits on the UI: when the UI falls behind, the
//! staging ring drops its oldest records and counts them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc::Sender;
use tokio::sync::mpsc::error::TrySendError;
use tokio::task::JoinHandle;

use crate::browse::{Browser, Event, Isolation, Options, Start};
use crate::meta::Cluster;
use crate::schema::Decoding;
use crate::schema::record_decoding::{RecordDecoding, decode};

use super::msg::Msg;
use super::staging::{Staged, Staging};

/// Tell the run loop, unless it was told and has not taken yet; false
/// when the run loop is gone. Never waits: when the loop's queue is
/// full, the next round tells it (the records stay staged).
fn wake(staging: &Arc<Staging>, tx: &Sender<Msg>) -> bool {
    if staging.woken.swap(true, Ordering::AcqRel) {
        return true;
    }
    match tx.try_send(Msg::Browsed(Arc::clone(staging))) {
        Ok(()) => true,
        Err(TrySendError::Full(_)) => {
            staging.woken.store(false, Ordering::Release);
            true
        }
        Err(TrySendError::Closed(_)) => false,
    }
}

/// Tell the run loop of the session's end, waiting for room if need be
/// (nothing is read after it).
async fn wake_last(staging: &Arc<Staging>, tx: &Sender<Msg>) {
    if !staging.woken.swap(true, Ordering::AcqRel) {
        let _ = tx.send(Msg::Browsed(Arc::clone(staging))).await;
    }
}

/// A browse session asked for ([`crate::app::screens::messages::effect::Effect::Browse`]).
#[derive(Debug, Clone)]
pub struct Ask {
    /// The session id.
    pub session: u64,
    /// The topic.
    pub topic: String,
    /// Only this partition.
    pub partition: Option<i32>,
    /// Where to start.
    pub start: Start,
    /// Committed or uncommitted records.
    pub isolation: Isolation,
    /// Only records with this key (the others are never staged).
    pub key: Option<bytes::Bytes>,
    /// Masked before a record is staged: the screen, its copies and its
    /// saves only ever hold the masked record.
    pub mask: crate::browse::mask::Masker,
    /// The context's registry: a registry-framed record is decoded before
    /// it is masked, so the rules' paths reach into it.
    pub registry: Option<crate::schema::Decoder>,
}

/// Mask `record` by `rules` before anything holds it. With a registry, a
/// registry-framed key or value is decoded first: the rules' paths reach
/// into its JSON, and that JSON, masked, stands in for its bytes as text
/// (the screen shows a decoded value so anyway, and the bytes hold the
/// secret). Without one, or when it does not decode, it is masked whole
/// (see `crate::browse::mask`). Returns the decoding, masked.
pub async fn masked(
    rules: &crate::browse::mask::TopicMask<'_>,
    registry: Option<&crate::schema::Decoder>,
    record: &mut crate::browse::Record,
) -> Option<RecordDecoding> {
    let Some(registry) = registry else {
        rules.record(record, None, None);
        return None;
    };
    let mut decoding = decode(registry, record).await;
    let (key, value) = decoding.json_mut();
    rules.record(record, key, value);
    if let Decoding::Decoded(decoded) = &decoding.key {
        record.key = Some(json_text(&decoded.value));
    }
    if let Decoding::Decoded(decoded) = &decoding.value {
        record.value = Some(json_text(&decoded.value));
    }
    Some(decoding)
}

fn json_text(value: &serde_json::Value) -> bytes::Bytes {
    bytes::Bytes::from(serde_json::to_vec(value).unwrap_or_default())
}

/// Start session `ask.session`: its topic (one partition or all) from its
/// start, following, until aborted.
pub fn start(cluster: Cluster, ask: Ask, tx: Sender<Msg>) -> JoinHandle<()> {
    let Ask {
        session,
        topic,
        partition,
        start,
        isolation,
        key,
        mask,
        registry,
    } = ask;
    let staging = Arc::new(Staging {
        session,
        inner: Mutex::new(Staged::default()),
        woken: AtomicBool::new(false),
    });
    tokio::spawn(async move {
        let options = Options {
            follow: true,
            isolation,
            ..Options::default()
        };
        let mut browser = match Browser::open(cluster, &topic, partition, &start, options).await {
            Ok(browser) => browser,
            Err(error) => {
                staging.lock().failed = Some(error.to_string());
                wake_last(&staging, &tx).await;
                return;
            }
        };
        let rules = mask.for_topic(&topic);
        loop {
            let mut events = browser.next_events().await;
            // Masked before the staging lock is taken (the loop takes it too).
            if let (Ok(events), Some(rules)) = (&mut events, &rules) {
                for event in events {
                    if let Event::Record(record) = event {
                        masked(rules, registry.as_ref(), record).await;
                    }
                }
            }
            {
                let mut staged = staging.lock();
                match events {
                    Ok(events) => {
                        for event in events {
                            match event {
                                Event::Record(record) => {
                                    if key.as_ref().is_none_or(|k| record.key.as_ref() == Some(k)) {
                                        staged.ring.push(&record);
                                    }
                                }
                                Event::Notice(notice) => staged.notices.push(notice.to_string()),
                            }
                        }
                    }
                    Err(error) => staged.failed = Some(error.to_string()),
                }
            }
            let (news, failed) = {
                let staged = staging.lock();
                let failed = staged.failed.is_some();
                let news =
                    failed || !staged.notices.is_empty() || !staged.ring.records().is_empty();
                (news, failed)
            };
            if failed {
                wake_last(&staging, &tx).await;
                return;
            }
            if news && !wake(&staging, &tx) {
                return;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Action;
    use crate::app::screens::messages::Msg::Browsed;
    use crate::browse::Record;
    use tokio::sync::mpsc;

    fn staging() -> Arc<Staging> {
        Arc::new(Staging {
            session: 5,
            inner: Mutex::new(Staged::default()),
            woken: AtomicBool::new(false),
        })
    }

    #[tokio::test]
    async fn a_full_loop_queue_never_holds_the_session_back_and_loses_no_record() {
        let (tx, mut rx) = mpsc::channel(1);
        tx.try_send(Msg::Generation).expect("room for the filler");
        let staging = staging();

        // The loop is behind: its queue is full. Staging and waking return at
        // once (a wait here would stall the fetches behind it).
        for offset in 0..3 {
            staging.lock().ring.push(&Record::sample(offset, 10));
            assert!(wake(&staging, &tx), "the loop is still there");
        }
        assert!(!staging.woken.load(Ordering::Acquire), "no wake-up got in");

        // The loop drains; the next round's wake-up gets in, once however
        // many rounds follow before the loop takes.
        assert!(matches!(rx.recv().await, Some(Msg::Generation)));
        for offset in 3..6 {
            staging.lock().ring.push(&Record::sample(offset, 10));
            assert!(wake(&staging, &tx));
        }
        let Ok(Msg::Browsed(woken)) = rx.try_recv() else {
            panic!("no wake-up queued");
        };
        assert!(rx.try_recv().is_err(), "one wake-up for several rounds");
        let Action::Screen(crate::app::screens::Msg::Messages(Browsed {
            session, records, ..
        })) = woken.take()
        else {
            panic!("not the staged records");
        };
        assert_eq!(session, 5);
        let offsets: Vec<i64> = records.iter().map(|r| r.offset).collect();
        assert_eq!(offsets, [0, 1, 2, 3, 4, 5], "every record, in order");

        // Taken: the next round wakes the loop again.
        staging.lock().ring.push(&Record::sample(6, 10));
        assert!(wake(&staging, &tx));
        assert!(matches!(rx.try_recv(), Ok(Msg::Browsed(_))));
        let _ = staging.take();
        drop(rx);
        staging.lock().ring.push(&Record::sample(7, 10));
        assert!(!wake(&staging, &tx), "the loop is gone: the session ends");
    }
}
