//! The `ApiVersions` handshake and version negotiation.
//!
//! `ApiVersions` is always the first request on a connection. It is sent at the
//! highest version kscope knows; a broker that does not support that version
//! answers `UNSUPPORTED_VERSION` with a *v0* body carrying its own `ApiVersions`
//! range, and the request is repeated at the highest version both support.

use std::collections::HashMap;

use kafka_protocol::messages::{ApiKey, ApiVersionsRequest, ApiVersionsResponse};
use kafka_protocol::protocol::{Message, StrBytes, VersionRange};

use super::connection::Connection;
use super::error::{Error, Result};
use super::error_code::ErrorCode;
use super::rpc::highest_common;

/// The version range of every API the broker advertised, by key.
pub type BrokerVersions = HashMap<i16, VersionRange>;

/// `ApiVersions` v3+ asks the client to name itself; brokers show it in metrics.
const SOFTWARE_NAME: &str = "kscope";

/// Run the `ApiVersions` exchange and return the broker's ranges.
pub async fn handshake(connection: &Connection) -> Result<BrokerVersions> {
    let ours = <ApiVersionsRequest as Message>::VERSIONS;
    let mut version = ours.max;
    // At most one retry: the broker's own answer says what it supports.
    for _ in 0..2 {
        let frame = connection.round_trip(&request(version), version).await?;
        if unsupported_version(&frame) && version > 0 {
            let fallback = connection.decode::<ApiVersionsRequest>(frame, 0)?;
            let theirs = range_of(&fallback, ApiKey::ApiVersions);
            let retry = highest_common(ApiKey::ApiVersions, ours, theirs)
                .map_err(|(ours, theirs)| unsupported(connection, ours, theirs))?;
            if retry >= version {
                break;
            }
            tracing::debug!(broker = %connection.describe(), from = version, to = retry, "retrying ApiVersions");
            version = retry;
            continue;
        }
        let response = connection.decode::<ApiVersionsRequest>(frame, version)?;
        if let Some(code) = ErrorCode::from_code(response.error_code) {
            return Err(Error::from_code(
                code,
                Some(format!("{} ApiVersions", connection.describe())),
            ));
        }
        return Ok(response
            .api_keys
            .iter()
            .map(|key| {
                let range = VersionRange {
                    min: key.min_version,
                    max: key.max_version,
                };
                (key.api_key, range)
            })
            .collect());
    }
    Err(unsupported(
        connection,
        format!("v{}-v{}", ours.min, ours.max),
        "a range it then refused".to_owned(),
    ))
}

fn unsupported(connection: &Connection, ours: String, theirs: String) -> Error {
    Error::UnsupportedVersion {
        broker: connection.describe(),
        api: ApiKey::ApiVersions,
        ours,
        theirs,
    }
}

fn request(version: i16) -> ApiVersionsRequest {
    let request = ApiVersionsRequest::default();
    if version >= 3 {
        request
            .with_client_software_name(StrBytes::from_static_str(SOFTWARE_NAME))
            .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")))
    } else {
        request
    }
}

/// Whether an `ApiVersions` response frame says `UNSUPPORTED_VERSION`. The
/// response header is always v0 (just the correlation id) and the error code
/// is the first field of every body version, so it can be read before
/// knowing which version the body is.
fn unsupported_version(frame: &[u8]) -> bool {
    frame.get(4..6).is_some_and(|code| {
        i16::from_be_bytes([code[0], code[1]]) == ErrorCode::UnsupportedVersion.code()
    })
}

fn range_of(response: &ApiVersionsResponse, key: ApiKey) -> Option<VersionRange> {
    response
        .api_keys
        .iter()
        .find(|entry| entry.api_key == key as i16)
        .map(|entry| VersionRange {
            min: entry.min_version,
            max: entry.max_version,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn range(min: i16, max: i16) -> VersionRange {
        VersionRange { min, max }
    }

    #[test]
    fn negotiation_picks_the_highest_common_version() {
        assert_eq!(
            highest_common(ApiKey::Metadata, range(0, 13), Some(range(0, 12))),
            Ok(12)
        );
        assert_eq!(
            highest_common(ApiKey::Metadata, range(0, 12), Some(range(4, 13))),
            Ok(12)
        );
        assert_eq!(
            highest_common(ApiKey::Metadata, range(3, 3), Some(range(0, 3))),
            Ok(3)
        );
    }

    #[test]
    fn no_common_version_names_both_ranges() {
        assert_eq!(
            highest_common(ApiKey::Fetch, range(4, 17), Some(range(0, 3))),
            Err(("v4-v17".to_owned(), "v0-v3".to_owned()))
        );
        assert_eq!(
            highest_common(ApiKey::Fetch, range(4, 17), None),
            Err(("v4-v17".to_owned(), "none".to_owned()))
        );
    }

    #[test]
    fn reads_unsupported_version_before_decoding() {
        assert!(unsupported_version(&[0, 0, 0, 1, 0, 35, 0, 0]));
        assert!(!unsupported_version(&[0, 0, 0, 1, 0, 0]));
        assert!(!unsupported_version(&[0, 0]));
    }
}
