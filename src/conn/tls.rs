//! TLS with rustls (ring provider; no OpenSSL, no C build beyond ring).
//!
//! Trust comes from `ca_file` (PEM) when given, else from the Mozilla roots
//! compiled in (webpki-roots). A client certificate and key turn on mutual
//! TLS. `danger_skip_verification` accepts any certificate and logs a warning
//! on every connection, because nothing about it should be quiet.

use std::path::Path;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

use super::config::TlsConfig;
use super::error::{Error, Result};
use super::peer::Peer;

/// Run the TLS handshake over an open TCP stream.
pub async fn handshake(
    tcp: TcpStream,
    peer: &Peer,
    config: &TlsConfig,
) -> Result<TlsStream<TcpStream>> {
    let fail = |message: String| Error::Tls {
        broker: peer.to_string(),
        message,
    };
    let client_config = client_config(config).map_err(fail)?;
    let name = config.server_name.as_deref().unwrap_or_else(|| peer.host());
    let server_name = ServerName::try_from(name.to_owned())
        .map_err(|e| fail(format!("invalid server name '{name}': {e}")))?;
    if config.danger_skip_verification {
        tracing::warn!(broker = %peer, "tls certificate verification is disabled for this connection");
    }
    TlsConnector::from(Arc::new(client_config))
        .connect(server_name, tcp)
        .await
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                fail(format!(
                    "handshake failed: {e} (does this listener speak tls?)"
                ))
            } else {
                fail(format!("handshake failed: {e}"))
            }
        })
}

/// Build the rustls client configuration; errors name the offending file.
pub fn client_config(config: &TlsConfig) -> std::result::Result<ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("tls setup: {e}"))?;
    let builder = if config.danger_skip_verification {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate(provider)))
    } else {
        builder.with_root_certificates(roots(config.ca_file.as_deref())?)
    };
    match (&config.client_cert_file, &config.client_key_file) {
        (Some(cert_file), Some(key_file)) => {
            let chain = certificates(cert_file)?;
            let key = PrivateKeyDer::from_pem_file(key_file).map_err(|e| {
                format!(
                    "cannot read a private key from '{}': {e}",
                    key_file.display()
                )
            })?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| format!("client certificate '{}': {e}", cert_file.display()))
        }
        (None, None) => Ok(builder.with_no_client_auth()),
        _ => {
            Err("mutual tls needs both a client certificate file and a client key file".to_owned())
        }
    }
}

fn roots(ca_file: Option<&Path>) -> std::result::Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    match ca_file {
        Some(path) => {
            for certificate in certificates(path)? {
                roots
                    .add(certificate)
                    .map_err(|e| format!("ca file '{}': {e}", path.display()))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    Ok(roots)
}

fn certificates(path: &Path) -> std::result::Result<Vec<CertificateDer<'static>>, String> {
    let unreadable = |e: rustls_pki_types::pem::Error| {
        format!("cannot read certificates from '{}': {e}", path.display())
    };
    let certificates = CertificateDer::pem_file_iter(path)
        .map_err(unreadable)?
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(unreadable)?;
    if certificates.is_empty() {
        return Err(format!("no pem certificates in '{}'", path.display()));
    }
    Ok(certificates)
}

/// The verifier behind `danger_skip_verification`: any certificate, any name.
/// Signatures are still checked, so the handshake itself is sound; only the
/// identity of the peer is not.
#[derive(Debug)]
struct AcceptAnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn missing_files_are_named_in_the_error() {
        let config = TlsConfig {
            ca_file: Some(PathBuf::from("/nonexistent/ca.pem")),
            ..TlsConfig::default()
        };
        let error = client_config(&config).expect_err("missing ca file");
        assert!(error.contains("/nonexistent/ca.pem"), "{error}");
    }

    #[test]
    fn a_certificate_without_a_key_is_refused() {
        let config = TlsConfig {
            client_cert_file: Some(PathBuf::from("/nonexistent/client.pem")),
            ..TlsConfig::default()
        };
        let error = client_config(&config).expect_err("cert without key");
        assert!(error.contains("both"), "{error}");
    }

    #[test]
    fn default_roots_and_skip_verification_build() {
        assert!(client_config(&TlsConfig::default()).is_ok());
        let skip = TlsConfig {
            danger_skip_verification: true,
            ..TlsConfig::default()
        };
        assert!(client_config(&skip).is_ok());
    }
}
