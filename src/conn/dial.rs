//! Opening a connection: TCP, TLS when configured, the `ApiVersions`
//! handshake, then SASL when configured, all within the connect timeout.
//! What a connection is and does once open is in `connection`; this file
//! drives the handshakes (`tls`, `versions`, `sasl`), which take an open
//! [`Connection`], so that none of them and `connection` import each other.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::config::ConnectionConfig;
use super::connection::Connection;
use super::error::{Error, Result};
use super::peer::Peer;
use super::{sasl, tls, versions};

impl Connection {
    /// Connect to `address` (`host:port`): TCP, TLS when configured,
    /// `ApiVersions`, then SASL when configured, all within
    /// `config.connect_timeout`.
    pub async fn connect(
        address: &str,
        node_id: Option<i32>,
        config: &ConnectionConfig,
    ) -> Result<Connection> {
        Self::open(address, node_id, config)
            .await?
            .authenticate()
            .await
    }

    /// The first half of [`Connection::connect`]: TCP, TLS when configured
    /// and `ApiVersions`, but no SASL yet. Racing brokers races this half
    /// (which proves a broker answers) and authenticates only the winner, so
    /// a wrong password is tried against one broker, not each.
    pub async fn open(
        address: &str,
        node_id: Option<i32>,
        config: &ConnectionConfig,
    ) -> Result<Unauthenticated> {
        let peer = Peer::new(address, node_id);
        let deadline = Instant::now() + config.connect_timeout;
        let work = async {
            let tcp = TcpStream::connect(address)
                .await
                .map_err(|source| Error::Io {
                    broker: peer.to_string(),
                    source: Arc::new(source),
                })?;
            // Latency matters more than packet count for request/response traffic.
            let _ = tcp.set_nodelay(true);
            match &config.tls {
                Some(tls_config) => {
                    let stream = tls::handshake(tcp, &peer, tls_config).await?;
                    Self::handshake(stream, peer.clone(), config).await
                }
                None => Self::handshake(tcp, peer.clone(), config).await,
            }
        };
        let connection = tokio::time::timeout_at(deadline, work)
            .await
            .map_err(|_| Error::Timeout {
                broker: peer.to_string(),
                what: "connecting".to_owned(),
                after: config.connect_timeout,
            })??;
        Ok(Unauthenticated {
            connection,
            sasl: config.sasl.clone(),
            deadline,
            timeout: config.connect_timeout,
        })
    }

    /// Run the Kafka handshake (`ApiVersions`, then SASL when configured) over
    /// an already-open stream, within `config.connect_timeout`. TLS settings
    /// are not applied: the stream is used as it is. This is how tests drive
    /// the real connection code over in-memory streams.
    pub async fn from_stream<S>(
        stream: S,
        address: &str,
        node_id: Option<i32>,
        config: &ConnectionConfig,
    ) -> Result<Connection>
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let peer = Peer::new(address, node_id);
        tokio::time::timeout(
            config.connect_timeout,
            Self::establish(stream, peer.clone(), config),
        )
        .await
        .map_err(|_| Error::Timeout {
            broker: peer.to_string(),
            what: "connecting".to_owned(),
            after: config.connect_timeout,
        })?
    }

    async fn establish<S>(stream: S, peer: Peer, config: &ConnectionConfig) -> Result<Connection>
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let connection = Self::handshake(stream, peer, config).await?;
        if let Some(sasl_config) = &config.sasl {
            sasl::authenticate(&connection, sasl_config).await?;
        }
        tracing::debug!(broker = %connection.inner.peer, "connected");
        Ok(connection)
    }

    /// Start the tasks and negotiate versions (`ApiVersions`).
    async fn handshake<S>(stream: S, peer: Peer, config: &ConnectionConfig) -> Result<Connection>
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let connection = Self::start(stream, peer, config);
        let ranges = versions::handshake(&connection).await?;
        // Set exactly once, here, before the handle is shared.
        let _ = connection.inner.broker_versions.set(ranges);
        Ok(connection)
    }
}

/// A connection that answered `ApiVersions` but has not authenticated yet
/// (see [`Connection::open`]). Nothing can be sent on it but SASL.
#[derive(Debug)]
pub struct Unauthenticated {
    connection: Connection,
    sasl: Option<super::config::SaslConfig>,
    /// The connect deadline [`Connection::open`] started: SASL gets what is left.
    deadline: Instant,
    timeout: Duration,
}

impl Unauthenticated {
    /// Run SASL when configured, within what is left of the connect timeout.
    pub async fn authenticate(self) -> Result<Connection> {
        let Unauthenticated {
            connection,
            sasl,
            deadline,
            timeout,
        } = self;
        if let Some(sasl_config) = &sasl {
            tokio::time::timeout_at(deadline, sasl::authenticate(&connection, sasl_config))
                .await
                .map_err(|_| Error::Timeout {
                    broker: connection.describe(),
                    what: "connecting".to_owned(),
                    after: timeout,
                })??;
        }
        tracing::debug!(broker = %connection.inner.peer, "connected");
        Ok(connection)
    }

    /// The address dialled, `host:port`.
    pub fn address(&self) -> &str {
        self.connection.address()
    }
}
