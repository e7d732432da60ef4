//! Which broker a connection talks to, for error messages and logs.

use std::fmt;

/// A broker's address and, once known, its node id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Peer {
    /// `host:port` as dialled.
    pub address: String,
    /// The node id, when the caller knows it (not for bootstrap addresses).
    pub node_id: Option<i32>,
}

impl Peer {
    pub fn new(address: &str, node_id: Option<i32>) -> Self {
        Self {
            address: address.to_owned(),
            node_id,
        }
    }

    /// The host part of the address, without brackets around an IPv6 literal.
    pub fn host(&self) -> &str {
        let host = match self.address.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
            _ => self.address.as_str(),
        };
        host.trim_start_matches('[').trim_end_matches(']')
    }
}

/// `broker 1 (127.0.0.1:19092)`, or `broker 127.0.0.1:19092` before the id is known.
impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node_id {
            Some(id) => write!(f, "broker {id} ({})", self.address),
            None => write!(f, "broker {}", self.address),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_host() {
        assert_eq!(
            Peer::new("127.0.0.1:19092", Some(1)).to_string(),
            "broker 1 (127.0.0.1:19092)"
        );
        assert_eq!(
            Peer::new("kafka:9092", None).to_string(),
            "broker kafka:9092"
        );
        assert_eq!(Peer::new("kafka:9092", None).host(), "kafka");
        assert_eq!(Peer::new("[::1]:9092", None).host(), "::1");
        assert_eq!(Peer::new("kafka", None).host(), "kafka");
    }
}
