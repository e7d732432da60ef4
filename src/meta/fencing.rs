//! `broker_fenced` / `broker_unfenced`: the controller's fencing of brokers.
//!
//! A `KRaft` controller fences a broker whose heartbeats stop for
//! `broker.session.timeout.ms` (or that shuts down): it keeps its
//! registration but serves nothing, and leaves the Metadata answer (which
//! the movement diff reports as `broker_left`). Since Kafka 3.9
//! (KIP-1073) `DescribeCluster` v2 with `IncludeFencedBrokers` lists every
//! registered broker with `IsFenced`. Asked with the liveness check, on a
//! connection whose broker offers v2; a broker without it (older, or
//! `ZooKeeper` mode) is not asked and nothing is said: fencing is never
//! guessed from a broker's absence.
//!
//! Transitions only: the first answer is the baseline, and only a broker in
//! two answers in a row can be said fenced or unfenced (a broker that
//! registers starts fenced and is unfenced once caught up: that is said,
//! its registration is not). A broker that leaves the answer (unregistered)
//! is forgotten.

use std::collections::BTreeMap;

use super::error::{Error, Result};
use super::movement::MovementKind;
use crate::conn::ErrorCode;
use crate::conn::protocol::messages::{DescribeClusterRequest, DescribeClusterResponse};

/// The first `DescribeCluster` version that can list fenced brokers.
pub const FENCING_VERSION: i16 = 2;

/// `DescribeCluster` for every registered broker, fenced ones included
/// (v2+; the caller checks the version).
pub fn fencing_request() -> DescribeClusterRequest {
    DescribeClusterRequest::default().with_include_fenced_brokers(true)
}

/// Each registered broker and whether it is fenced, from an answer to
/// [`fencing_request`].
pub fn read_fencing(response: &DescribeClusterResponse) -> Result<BTreeMap<i32, bool>> {
    if let Some(code) = ErrorCode::from_code(response.error_code) {
        let what = match &response.error_message {
            Some(message) => format!("DescribeCluster: {}", message.as_str()),
            None => "DescribeCluster".to_owned(),
        };
        return Err(Error::from_code(code, Some(what)));
    }
    Ok(response
        .brokers
        .iter()
        .map(|b| (b.broker_id.0, b.is_fenced))
        .collect())
}

/// Fencing across answers (pure).
#[derive(Debug, Default)]
pub(super) struct FencingTracker {
    /// The last answer: each registered broker, fenced or not.
    held: Option<BTreeMap<i32, bool>>,
}

impl FencingTracker {
    /// Take in one answer (`None`: no answer, or no broker offering v2,
    /// which changes nothing); the transitions since the last answer, by
    /// broker id.
    pub(super) fn observe(&mut self, seen: Option<BTreeMap<i32, bool>>) -> Vec<MovementKind> {
        let Some(seen) = seen else {
            return Vec::new();
        };
        let mut events = Vec::new();
        if let Some(held) = &self.held {
            for (&broker, &fenced) in &seen {
                match (held.get(&broker), fenced) {
                    (Some(false), true) => events.push(MovementKind::BrokerFenced { broker }),
                    (Some(true), false) => events.push(MovementKind::BrokerUnfenced { broker }),
                    _ => {}
                }
            }
        }
        self.held = Some(seen);
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::StrBytes;
    use crate::conn::protocol::messages::BrokerId;
    use crate::conn::protocol::messages::describe_cluster_response::DescribeClusterBroker;

    fn seen(pairs: &[(i32, bool)]) -> BTreeMap<i32, bool> {
        pairs.iter().copied().collect()
    }

    #[test]
    fn the_request_asks_for_fenced_brokers() {
        assert!(fencing_request().include_fenced_brokers);
        assert_eq!(
            fencing_request().endpoint_type,
            1,
            "brokers, not controllers"
        );
    }

    #[test]
    fn an_answer_lists_each_broker_and_an_error_code_is_an_error() {
        let broker = |id: i32, fenced: bool| {
            DescribeClusterBroker::default()
                .with_broker_id(BrokerId(id))
                .with_host(StrBytes::from_static_str("127.0.0.1"))
                .with_is_fenced(fenced)
        };
        let answer = DescribeClusterResponse::default()
            .with_brokers(vec![broker(1, false), broker(3, true)]);
        assert_eq!(
            read_fencing(&answer).expect("read"),
            seen(&[(1, false), (3, true)])
        );
        let refused = DescribeClusterResponse::default().with_error_code(31);
        let error = read_fencing(&refused).expect_err("refused").to_string();
        assert!(error.contains("DescribeCluster"), "{error}");
    }

    #[test]
    fn fenced_and_unfenced_are_said_on_each_transition_only() {
        let mut tracker = FencingTracker::default();
        assert!(
            tracker
                .observe(Some(seen(&[(1, false), (2, true)])))
                .is_empty(),
            "the first answer is the baseline, a broker fenced then included"
        );
        assert_eq!(
            tracker.observe(Some(seen(&[(1, true), (2, true)]))),
            [MovementKind::BrokerFenced { broker: 1 }]
        );
        assert!(tracker.observe(None).is_empty(), "no answer: nothing said");
        assert!(
            tracker
                .observe(Some(seen(&[(1, true), (2, true)])))
                .is_empty()
        );
        assert_eq!(
            tracker.observe(Some(seen(&[(1, false), (2, false)]))),
            [
                MovementKind::BrokerUnfenced { broker: 1 },
                MovementKind::BrokerUnfenced { broker: 2 }
            ]
        );
        // Broker 4 registers (fenced), then is unfenced: the second is said.
        assert!(
            tracker
                .observe(Some(seen(&[(1, false), (2, false), (4, true)])))
                .is_empty()
        );
        assert_eq!(
            tracker.observe(Some(seen(&[(1, false), (4, false)]))),
            [MovementKind::BrokerUnfenced { broker: 4 }],
            "broker 2 unregistered: forgotten, not fenced"
        );
    }
}
