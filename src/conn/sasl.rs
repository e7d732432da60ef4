//! SASL authentication: `SaslHandshake` v1, then `SaslAuthenticate` rounds.
//!
//! PLAIN and SCRAM-SHA-256/512 come from `rsasl` 2.x (the Rust SASL
//! framework: maintained, RFC 5802/7677 SCRAM including SHA-512, server
//! signature verification, `SASLprep` of user names and passwords) built with
//! only those mechanisms, so no C and no GSSAPI. Its SCRAM sits on `RustCrypto`'s
//! `hmac`, `sha2` and `pbkdf2`: none of the crypto is ours.
//!
//! OAUTHBEARER (RFC 7628) needs no crypto: the client sends
//! `n,,\x01auth=Bearer <token>\x01\x01`; the token is the standard output of
//! the configured command. A wrong credential is an [`Error::Sasl`], which is
//! not retriable: it is reported once, not retried in a loop.

use bytes::Bytes;
use kafka_protocol::messages::{
    SaslAuthenticateRequest, SaslAuthenticateResponse, SaslHandshakeRequest,
};
use kafka_protocol::protocol::StrBytes;
use rsasl::prelude::{Mechname, SASLClient, SASLConfig};

use super::config::{SaslConfig, SaslMechanism};
use super::connection::Connection;
use super::error::{Error, Result};
use super::error_code::ErrorCode;
use super::secret::Secret;

/// Authenticate `connection` as `config` says.
pub async fn authenticate(connection: &Connection, config: &SaslConfig) -> Result<()> {
    let fail = |message: String| failure(connection, config.mechanism, message);
    let handshake = connection
        .send(
            SaslHandshakeRequest::default()
                .with_mechanism(StrBytes::from_static_str(config.mechanism.name())),
        )
        .await?;
    if let Some(code) = ErrorCode::from_code(handshake.error_code) {
        let enabled: Vec<&str> = handshake.mechanisms.iter().map(StrBytes::as_str).collect();
        return Err(fail(format!(
            "{code} (broker enables: {})",
            enabled.join(", ")
        )));
    }
    if connection.negotiated_version(kafka_protocol::messages::ApiKey::SaslHandshake) == Some(0) {
        return Err(fail(
            "broker only speaks SaslHandshake v0 (Kafka before 1.0)".to_owned(),
        ));
    }
    match config.mechanism {
        SaslMechanism::OAuthBearer => oauthbearer(connection, config).await,
        mechanism => rsasl_exchange(connection, config, mechanism).await,
    }?;
    tracing::debug!(broker = %connection.describe(), mechanism = %config.mechanism, "authenticated");
    Ok(())
}

/// PLAIN and SCRAM through rsasl: step, send, feed the answer back, until done.
async fn rsasl_exchange(
    connection: &Connection,
    config: &SaslConfig,
    mechanism: SaslMechanism,
) -> Result<()> {
    let fail = |message: String| failure(connection, mechanism, message);
    let sasl_config = SASLConfig::with_credentials(
        None,
        config.username.clone(),
        config.password.expose().to_owned(),
    )
    .map_err(|e| fail(e.to_string()))?;
    let name = Mechname::parse(mechanism.name().as_bytes()).map_err(|e| fail(e.to_string()))?;
    let mut session = SASLClient::new(sasl_config)
        .start_suggested(&[name])
        .map_err(|e| fail(e.to_string()))?;
    let scram = matches!(
        mechanism,
        SaslMechanism::ScramSha256 | SaslMechanism::ScramSha512
    );
    let mut input: Option<Bytes> = None;
    // PLAIN takes one round and SCRAM two; anything longer is a broken peer.
    for _ in 0..4 {
        if scram && let Some(message) = &input {
            check_iterations(message).map_err(fail)?;
        }
        // A SCRAM step hashes the password (PBKDF2): off the async thread, so
        // the connect timeout around this future can fire meanwhile. Dropped
        // by that timeout, the blocking task still ends, bounded by the cap.
        let step = tokio::task::spawn_blocking(move || {
            let mut output = Vec::new();
            let state = session
                .step(input.as_deref(), &mut output)
                .map_err(|e| e.to_string());
            (session, state, output)
        });
        let (returned, state, output) = step
            .await
            .map_err(|e| fail(format!("the SASL step stopped: {e}")))?;
        session = returned;
        let state = state.map_err(fail)?;
        input = None;
        if state.has_sent_message() {
            let refused = format!("the password of user '{}' was refused", config.username);
            input = Some(
                round(connection, mechanism, output, &refused)
                    .await?
                    .auth_bytes,
            );
        }
        if state.is_finished() {
            return Ok(());
        }
    }
    Err(fail("the exchange did not finish".to_owned()))
}

/// The largest SCRAM iteration count accepted: Kafka's own maximum
/// (`ScramMechanism.maxIterations`), so no real broker ever sends more.
pub(crate) const MAX_SCRAM_ITERATIONS: u32 = 16_384;

/// Refuse a SCRAM server-first message whose iteration count (`i=`) is above
/// [`MAX_SCRAM_ITERATIONS`], before anything hashes with it: a hostile broker
/// could otherwise ask for billions of PBKDF2 rounds. Other messages, and a
/// malformed count, are left to rsasl, which reports them itself.
fn check_iterations(message: &[u8]) -> std::result::Result<(), String> {
    let text = String::from_utf8_lossy(message);
    let Some(count) = text.split(',').find_map(|part| part.strip_prefix("i=")) else {
        return Ok(());
    };
    let too_many = || {
        format!(
            "the broker asked for {count} SCRAM iterations; kscope refuses more than {MAX_SCRAM_ITERATIONS} (Kafka's maximum)"
        )
    };
    let digits = count.trim();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Ok(());
    }
    match digits.parse::<u64>() {
        Ok(n) if n <= u64::from(MAX_SCRAM_ITERATIONS) => Ok(()),
        _ => Err(too_many()),
    }
}

/// OAUTHBEARER with a token from the configured command.
async fn oauthbearer(connection: &Connection, config: &SaslConfig) -> Result<()> {
    let mechanism = SaslMechanism::OAuthBearer;
    let token = token_from_command(config.token_command.as_ref().map(Secret::expose))
        .await
        .map_err(|message| failure(connection, mechanism, message))?;
    let message = format!("n,,\x01auth=Bearer {}\x01\x01", token.expose());
    let answer = round(
        connection,
        mechanism,
        message.into_bytes(),
        "the token was refused",
    )
    .await?;
    if answer.auth_bytes.is_empty() {
        return Ok(());
    }
    // RFC 7628 §3.2.2: a failure arrives as a JSON challenge; acknowledge it
    // with a lone 0x01 and report what it said.
    let detail = String::from_utf8_lossy(&answer.auth_bytes).into_owned();
    let _ = round(connection, mechanism, vec![1], "").await;
    Err(failure(
        connection,
        mechanism,
        format!("token rejected: {detail}"),
    ))
}

/// Run the token command through `sh -c`; its trimmed standard output is the token.
async fn token_from_command(command: Option<&str>) -> std::result::Result<Secret, String> {
    let command = command
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| "OAUTHBEARER needs a token command".to_owned())?;
    let output = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|e| format!("cannot run the token command: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first_line = stderr
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(200)
            .collect::<String>();
        return Err(format!(
            "token command failed ({}): {first_line}",
            output.status
        ));
    }
    let token = String::from_utf8(output.stdout)
        .map_err(|_| "token command printed something that is not utf-8".to_owned())?;
    let token = token.trim();
    if token.is_empty() {
        return Err("token command printed no token".to_owned());
    }
    Ok(Secret::new(token))
}

/// One `SaslAuthenticate` round; a non-zero error code is the failure.
/// `refused` says what a `SASL_AUTHENTICATION_FAILED` means for this
/// mechanism in words (whose password, or the token), ahead of the broker's
/// own text.
async fn round(
    connection: &Connection,
    mechanism: SaslMechanism,
    auth_bytes: Vec<u8>,
    refused: &str,
) -> Result<SaslAuthenticateResponse> {
    let response = connection
        .send(SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(auth_bytes)))
        .await?;
    if let Some(code) = ErrorCode::from_code(response.error_code) {
        let mut message = match &response.error_message {
            Some(text) if !text.is_empty() => format!("{code}: {text}"),
            _ => code.to_string(),
        };
        if code == ErrorCode::SaslAuthenticationFailed && !refused.is_empty() {
            message = format!("{refused} ({message})");
        }
        return Err(failure(connection, mechanism, message));
    }
    Ok(response)
}

fn failure(connection: &Connection, mechanism: SaslMechanism, message: String) -> Error {
    Error::Sasl {
        broker: connection.describe(),
        mechanism: mechanism.name().to_owned(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_counts_above_kafkas_maximum_are_refused() {
        let first = |i: &str| format!("r=abc123srv,s=c2FsdA==,i={i}").into_bytes();
        assert!(check_iterations(&first("4096")).is_ok());
        assert!(check_iterations(&first("16384")).is_ok());
        for hostile in ["16385", "4294967295", "99999999999999999999999"] {
            let error = check_iterations(&first(hostile)).expect_err(hostile);
            assert!(
                error.contains(hostile) && error.contains("16384"),
                "{error}"
            );
        }
        // Not a server-first message, or not a number: rsasl's to judge.
        assert!(check_iterations(b"v=c2lnbmF0dXJl").is_ok());
        assert!(check_iterations(&first("-1")).is_ok());
    }

    #[tokio::test]
    async fn the_token_command_output_is_trimmed_and_failures_are_clear() {
        let token = token_from_command(Some("echo '  tok.en  '"))
            .await
            .expect("token");
        assert_eq!(token.expose(), "tok.en");
        let error = token_from_command(Some("echo nope >&2; exit 3"))
            .await
            .expect_err("fails");
        assert!(error.contains("nope"), "{error}");
        assert!(token_from_command(Some("true")).await.is_err());
        assert!(token_from_command(None).await.is_err());
    }
}
