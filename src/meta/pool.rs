//! [`BrokerPool`]: one live connection per broker address, replaced when broken.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Mutex as AsyncMutex;

use super::error::{Error, Result};
use crate::conn::{Connection, ConnectionConfig, Unauthenticated};

use super::race;
use super::retry::RetryPolicy;

/// How long a connection attempt has before the next candidate is tried
/// beside it: longer than a healthy handshake (`ApiVersions` on loopback or a
/// LAN takes milliseconds), short enough that a hung broker is not noticed.
pub const CONNECT_STAGGER: Duration = Duration::from_millis(200);

/// One address's connection; the async lock makes connecting single-flight
/// per address, without one slow broker holding up the others.
type Slot = Arc<AsyncMutex<Option<Connection>>>;

/// Connections to the brokers of one cluster.
///
/// Connections are keyed by address, so the bootstrap connection to a broker
/// is the same one later used for it by node id.
#[derive(Debug)]
pub struct BrokerPool {
    bootstrap: Vec<String>,
    config: ConnectionConfig,
    retry: RetryPolicy,
    /// Node id → advertised `host:port`, and whether the latest metadata
    /// still names it. Brokers that left are kept for [`BrokerPool::get`]
    /// (a request planned on an older snapshot fails as a retriable
    /// connection error, not as "unknown broker") but not tried by `any`.
    addresses: Mutex<HashMap<i32, (String, bool)>>,
    slots: Mutex<HashMap<String, Slot>>,
    /// Brokers whose last liveness check went unanswered: [`BrokerPool::get`]
    /// refuses them at once and [`BrokerPool::any`] tries them last.
    not_answering: Mutex<HashSet<i32>>,
    /// One race at a time for [`BrokerPool::any`]: callers that arrive
    /// during a race wait for it and take its connection, or its final
    /// failure (a wrong password), instead of authenticating again. Holds
    /// that failure, when the last race ended in one.
    race_turn: AsyncMutex<Option<Error>>,
    /// Races finished, so a waiter can tell that one ended while it waited.
    races: AtomicU64,
    /// Addresses tried before a race's winner that had not answered by the
    /// time it won (hung, or refused), and when: evidence a liveness check
    /// beside a command takes instead of waiting for their pings.
    lost_races: Mutex<HashMap<String, tokio::time::Instant>>,
}

/// What one racer brings: a live pooled connection, or a new one that
/// answered `ApiVersions` and still has to authenticate.
enum Racer {
    Live(Connection),
    Opened(Unauthenticated),
}

impl BrokerPool {
    /// A pool that starts from `bootstrap` (`host:port` each) and connects lazily.
    pub fn new(
        bootstrap: impl IntoIterator<Item = impl Into<String>>,
        config: ConnectionConfig,
        retry: RetryPolicy,
    ) -> Self {
        Self {
            bootstrap: bootstrap.into_iter().map(Into::into).collect(),
            config,
            retry,
            addresses: Mutex::new(HashMap::new()),
            slots: Mutex::new(HashMap::new()),
            not_answering: Mutex::new(HashSet::new()),
            race_turn: AsyncMutex::new(None),
            races: AtomicU64::new(0),
            lost_races: Mutex::new(HashMap::new()),
        }
    }

    /// The retry policy the pool was built with.
    pub fn retry_policy(&self) -> RetryPolicy {
        self.retry
    }

    /// A connection to any broker: a live one if there is one, otherwise the
    /// first to finish the handshake in a staggered race of the known brokers
    /// and then the bootstrap list (see [`race::staggered`]): a hung broker
    /// costs [`CONNECT_STAGGER`], not the connect timeout. The race is run
    /// to `ApiVersions` only, and only its winner authenticates: a wrong
    /// password is tried against one broker, once, and that failure is
    /// final (every broker would refuse the same credentials, and retrying
    /// them only risks locking the account). Concurrent callers share one
    /// race and its outcome. A TLS failure ends the race too.
    pub async fn any(&self) -> Result<Connection> {
        let silent = self.silent_addresses();
        if let Some(live) = self.live_connection(&silent) {
            return Ok(live);
        }
        let seen = self.races.load(Ordering::Acquire);
        let mut turn = self.race_turn.lock().await;
        if let Some(live) = self.live_connection(&silent) {
            return Ok(live);
        }
        if self.races.load(Ordering::Acquire) != seen
            && let Some(error) = turn.as_ref()
        {
            return Err(error.clone());
        }
        let outcome = self.race(&silent).await;
        *turn = outcome
            .as_ref()
            .err()
            .filter(|error| error.needs_user_action())
            .cloned();
        self.races.fetch_add(1, Ordering::AcqRel);
        outcome
    }

    /// The race behind [`BrokerPool::any`]: the known brokers, then the
    /// bootstrap list; the winner authenticates and takes its slot.
    async fn race(&self, silent: &HashSet<String>) -> Result<Connection> {
        let mut candidates: Vec<(Option<i32>, String)> = self
            .addresses
            .lock()
            .map(|map| {
                map.iter()
                    .filter(|(_, (_, current))| *current)
                    .map(|(id, (address, _))| (Some(*id), address.clone()))
                    .collect()
            })
            .unwrap_or_default();
        candidates.sort();
        for address in &self.bootstrap {
            if !candidates.iter().any(|(_, known)| known == address) {
                candidates.push((None, address.clone()));
            }
        }
        // Brokers that are not answering go last (stable: the order is kept otherwise).
        candidates.sort_by_key(|(_, address)| silent.contains(address));
        let order: Vec<String> = candidates.iter().map(|(_, a)| a.clone()).collect();
        let raced = race::staggered(
            candidates,
            CONNECT_STAGGER,
            |(node_id, address)| async move {
                if let Some(live) = self.held(&address) {
                    return Ok(Racer::Live(live));
                }
                let outcome = Connection::open(&address, node_id, &self.config).await;
                if let Err(error) = &outcome {
                    tracing::debug!(%address, %error, "broker unreachable, trying the next");
                }
                Ok(Racer::Opened(outcome?))
            },
            Error::needs_user_action,
        )
        .await;
        let raced = raced.map_err(|last| last.unwrap_or(Error::NoBootstrap))?;
        let winner = match &raced {
            Racer::Live(connection) => connection.address(),
            Racer::Opened(opened) => opened.address(),
        };
        self.note_lost(&order, winner);
        match raced {
            Racer::Live(connection) => Ok(connection),
            Racer::Opened(opened) => {
                let address = opened.address().to_owned();
                let connection = opened.authenticate().await?;
                if let Some(slot) = self.slot(&address) {
                    let mut held = slot.lock().await;
                    if held.as_ref().is_none_or(Connection::is_broken) {
                        *held = Some(connection.clone());
                    }
                }
                Ok(connection)
            }
        }
    }

    /// Every address tried before `winner` lost the race to it.
    fn note_lost(&self, order: &[String], winner: &str) {
        let Ok(mut lost) = self.lost_races.lock() else {
            return;
        };
        let now = tokio::time::Instant::now();
        for address in order.iter().take_while(|a| a.as_str() != winner) {
            lost.insert(address.clone(), now);
        }
        lost.remove(winner);
    }

    /// Whether broker `node_id` lost a connect race at or after `since`
    /// (its handshake did not answer within the stagger, or was refused).
    pub fn lost_race_since(&self, node_id: i32, since: tokio::time::Instant) -> bool {
        let Some(address) = self.address_of(node_id) else {
            return false;
        };
        self.lost_races
            .lock()
            .is_ok_and(|lost| lost.get(&address).is_some_and(|at| *at >= since))
    }

    /// Where broker `node_id` is, if the metadata ever named it.
    fn address_of(&self, node_id: i32) -> Option<String> {
        let map = self.addresses.lock().ok()?;
        map.get(&node_id).map(|(address, _)| address.clone())
    }

    /// The live connection in `address`'s slot, if it has one and it is free.
    fn held(&self, address: &str) -> Option<Connection> {
        let slot = self.slots.lock().ok()?.get(address)?.clone();
        let held = slot.try_lock().ok()?;
        held.as_ref().filter(|c| !c.is_broken()).cloned()
    }

    /// A connection to one broker by node id; [`Error::NotAnswering`] at
    /// once for a broker whose last liveness check went unanswered.
    pub async fn get(&self, node_id: i32) -> Result<Connection> {
        if self.is_not_answering(node_id) {
            return Err(Error::NotAnswering(node_id));
        }
        self.get_checked(node_id).await
    }

    /// A connection to one broker by node id, whatever liveness said: for
    /// the liveness check itself.
    pub(super) async fn get_checked(&self, node_id: i32) -> Result<Connection> {
        let address = self
            .address_of(node_id)
            .ok_or(Error::UnknownBroker(node_id))?;
        self.connect(&address, Some(node_id)).await
    }

    /// Record where brokers are, from a metadata snapshot, and drop the
    /// connection slots of addresses no broker (and no bootstrap entry) has
    /// any more: a cluster whose brokers come and go at new addresses does
    /// not leave a slot behind for each. A request planned on an older
    /// snapshot can still reach a departed broker by id (a new slot, dropped
    /// again at the next refresh).
    pub fn learn_addresses(&self, brokers: impl IntoIterator<Item = (i32, String)>) {
        let Ok(mut map) = self.addresses.lock() else {
            return;
        };
        for entry in map.values_mut() {
            entry.1 = false;
        }
        for (node_id, address) in brokers {
            map.insert(node_id, (address, true));
        }
        let current: HashSet<&str> = map
            .values()
            .filter(|(_, current)| *current)
            .map(|(address, _)| address.as_str())
            .chain(self.bootstrap.iter().map(String::as_str))
            .collect();
        if let Ok(mut slots) = self.slots.lock() {
            slots.retain(|address, _| current.contains(address.as_str()));
        }
    }

    /// How many connection slots (addresses) the pool holds.
    pub fn slot_count(&self) -> usize {
        self.slots.lock().map_or(0, |slots| slots.len())
    }

    /// Node ids the latest metadata names.
    pub fn known_brokers(&self) -> Vec<i32> {
        let mut ids: Vec<i32> = self
            .addresses
            .lock()
            .map(|map| {
                map.iter()
                    .filter(|(_, (_, current))| *current)
                    .map(|(id, _)| *id)
                    .collect()
            })
            .unwrap_or_default();
        ids.sort_unstable();
        ids
    }

    /// Record whether a broker answered its liveness check.
    pub fn mark_answering(&self, node_id: i32, answering: bool) {
        if let Ok(mut silent) = self.not_answering.lock() {
            if answering {
                silent.remove(&node_id);
            } else {
                silent.insert(node_id);
            }
        }
    }

    /// Whether a broker's last liveness check went unanswered.
    pub fn is_not_answering(&self, node_id: i32) -> bool {
        self.not_answering
            .lock()
            .is_ok_and(|silent| silent.contains(&node_id))
    }

    /// Whether broker `node_id` answered a request at or after `since` on
    /// the connection the pool holds for it (a connection being made, or
    /// none, says nothing).
    pub fn heard_from_since(&self, node_id: i32, since: tokio::time::Instant) -> bool {
        let Some(address) = self.address_of(node_id) else {
            return false;
        };
        self.held(&address)
            .is_some_and(|connection| connection.answered_since(since))
    }

    /// The addresses of the brokers that are not answering.
    fn silent_addresses(&self) -> HashSet<String> {
        let silent = self
            .not_answering
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default();
        if silent.is_empty() {
            return HashSet::new();
        }
        self.addresses
            .lock()
            .map(|map| {
                silent
                    .iter()
                    .filter_map(|id| map.get(id).map(|(address, _)| address.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn slot(&self, address: &str) -> Option<Slot> {
        let mut slots = self.slots.lock().ok()?;
        Some(slots.entry(address.to_owned()).or_default().clone())
    }

    fn live_connection(&self, silent: &HashSet<String>) -> Option<Connection> {
        let slots: Vec<Slot> = self
            .slots
            .lock()
            .ok()?
            .iter()
            .filter(|(address, _)| !silent.contains(*address))
            .map(|(_, slot)| slot.clone())
            .collect();
        slots.iter().find_map(|slot| {
            slot.try_lock()
                .ok()
                .and_then(|held| held.as_ref().filter(|c| !c.is_broken()).cloned())
        })
    }

    /// The slot's connection, (re)connecting when there is none or it broke.
    async fn connect(&self, address: &str, node_id: Option<i32>) -> Result<Connection> {
        let slot = self
            .slot(address)
            .ok_or(Error::Poisoned("connection pool"))?;
        let mut held = slot.lock().await;
        if let Some(connection) = held.as_ref().filter(|c| !c.is_broken()) {
            return Ok(connection.clone());
        }
        *held = None;
        let connection = Connection::connect(address, node_id, &self.config).await?;
        *held = Some(connection.clone());
        Ok(connection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_broker_that_left_is_still_reachable_by_id_but_not_by_any() {
        let pool = BrokerPool::new(
            Vec::<String>::new(),
            ConnectionConfig::default(),
            RetryPolicy::default(),
        );
        pool.learn_addresses([(1, "127.0.0.1:1".to_owned())]);
        assert_eq!(pool.known_brokers(), [1]);
        pool.learn_addresses([]);
        assert!(pool.known_brokers().is_empty());
        // Nothing listens on port 1: a retriable connection error, not "unknown broker".
        let error = pool.get(1).await.expect_err("refused");
        assert!(error.retriable(), "{error}");
        let unknown = pool.get(7).await.expect_err("never known");
        assert_eq!(
            unknown.to_string(),
            "broker 7 is not in the cluster metadata"
        );
        pool.learn_addresses([(1, "127.0.0.1:1".to_owned())]);
        pool.mark_answering(1, false);
        let silent = pool.get(1).await.expect_err("refused at once");
        assert_eq!(silent.to_string(), "broker 1 is not answering");
        assert!(!silent.retriable());
        pool.mark_answering(1, true);
        assert!(pool.get(1).await.expect_err("refused").retriable());
        pool.learn_addresses([]);
        let none = pool.any().await.expect_err("no candidates");
        assert!(matches!(none, Error::NoBootstrap), "{none}");
    }

    #[tokio::test]
    async fn slots_of_addresses_that_left_the_cluster_are_dropped() {
        let pool = BrokerPool::new(
            ["127.0.0.1:2".to_owned()],
            ConnectionConfig::default(),
            RetryPolicy::default(),
        );
        // Brokers come and go at new addresses, as on a rolling replacement.
        for round in 0..50u16 {
            let address = format!("127.0.0.1:{}", 10_000 + round);
            pool.learn_addresses([(1, address)]);
            let _ = pool.get(1).await; // refused; the slot exists now
            let _ = pool.any().await;
            assert!(pool.slot_count() <= 2, "{} slots", pool.slot_count());
        }
        pool.learn_addresses([(1, "127.0.0.1:3".to_owned())]);
        // At most the bootstrap address's slot is left (`any` makes a slot
        // only for a connection that got through).
        assert!(pool.slot_count() <= 1, "{} slots", pool.slot_count());
    }
}
