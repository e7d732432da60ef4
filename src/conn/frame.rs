//! Kafka's framing and the request/response envelope.
//!
//! A frame is a big-endian `i32` length and that many bytes. A request frame
//! holds a request header and a body; a response frame a response header
//! (whose first field is always the correlation id) and a body, which must be
//! consumed exactly.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::{ApiKey, RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, StrBytes};
use tokio::io::{AsyncRead, AsyncReadExt};

use super::budget::{human_bytes, within_budget};
use super::rpc::Rpc;

/// The most memory reserved up front for a frame; larger frames grow as
/// their bytes actually arrive, so a peer that claims 100 MB and sends ten
/// bytes costs ten bytes.
const INITIAL_FRAME_CAPACITY: usize = 1 << 20;

/// Why a frame could not be read.
#[derive(Debug)]
pub enum FrameError {
    /// The socket failed.
    Io(std::io::Error),
    /// The peer closed the stream between frames.
    Closed,
    /// The peer closed the stream inside a frame.
    Truncated {
        /// Bytes the frame (or its length prefix) needed.
        expected: usize,
        /// Bytes that arrived.
        got: usize,
    },
    /// The length prefix was negative.
    NegativeLength(i32),
    /// The length prefix exceeded the maximum; nothing was allocated.
    TooLarge {
        /// The claimed length.
        size: u64,
        /// The maximum.
        max: usize,
    },
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Io(error) => write!(f, "{error}"),
            FrameError::Closed => f.write_str("connection closed by the broker"),
            FrameError::Truncated { expected, got } => write!(
                f,
                "connection closed by the broker mid-frame ({got} of {expected} bytes)"
            ),
            FrameError::NegativeLength(length) => write!(f, "negative frame length {length}"),
            FrameError::TooLarge { size, max } => {
                write!(f, "{size}-byte frame exceeds the {max}-byte maximum")
            }
        }
    }
}

/// Read one frame (without its length prefix), or `Err(Closed)` at a clean end.
pub async fn read_frame<R: AsyncRead + Unpin>(
    reader: &mut R,
    max_frame_size: usize,
) -> Result<Bytes, FrameError> {
    let mut prefix = [0u8; 4];
    let mut filled = 0;
    while filled < prefix.len() {
        let read = reader
            .read(&mut prefix[filled..])
            .await
            .map_err(FrameError::Io)?;
        if read == 0 {
            return Err(if filled == 0 {
                FrameError::Closed
            } else {
                FrameError::Truncated {
                    expected: 4,
                    got: filled,
                }
            });
        }
        filled += read;
    }
    let length = i32::from_be_bytes(prefix);
    let size = usize::try_from(length).map_err(|_| FrameError::NegativeLength(length))?;
    if size > max_frame_size {
        return Err(FrameError::TooLarge {
            size: u64::from(length.unsigned_abs()),
            max: max_frame_size,
        });
    }
    let mut body = Vec::with_capacity(size.min(INITIAL_FRAME_CAPACITY));
    let got = reader
        .take(size as u64)
        .read_to_end(&mut body)
        .await
        .map_err(FrameError::Io)?;
    if got < size {
        return Err(FrameError::Truncated {
            expected: size,
            got,
        });
    }
    Ok(Bytes::from(body))
}

/// The correlation id of a response frame: its first four bytes whatever the
/// header version.
pub fn correlation_id(frame: &[u8]) -> Option<i32> {
    let bytes: [u8; 4] = frame.get(..4)?.try_into().ok()?;
    Some(i32::from_be_bytes(bytes))
}

/// Encode a request, header and length prefix included, at `version`.
pub fn encode_request<R: Rpc>(
    request: &R,
    version: i16,
    correlation_id: i32,
    client_id: &str,
) -> Result<Bytes, String> {
    let header = RequestHeader::default()
        .with_request_api_key(R::API_KEY as i16)
        .with_request_api_version(version)
        .with_correlation_id(correlation_id)
        .with_client_id(Some(StrBytes::from_string(client_id.to_owned())));
    let mut buf = BytesMut::new();
    buf.put_i32(0);
    header
        .encode(&mut buf, R::header_version(version))
        .map_err(|e| {
            format!(
                "cannot encode the {} v{version} request header: {e}",
                R::API_KEY
            )
        })?;
    request
        .encode(&mut buf, version)
        .map_err(|e| format!("cannot encode {} v{version}: {e}", R::API_KEY))?;
    let length = i32::try_from(buf.len() - 4)
        .map_err(|_| format!("{} v{version} request is too large to frame", R::API_KEY))?;
    buf[..4].copy_from_slice(&length.to_be_bytes());
    Ok(buf.freeze())
}

/// Why a response frame could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes are not the response at that version.
    Malformed(String),
    /// Decoding needed more memory than the budget allows ([`budget_for`](super::budget::budget_for)).
    OverBudget {
        /// The API answered.
        api: ApiKey,
        /// The version decoded.
        version: i16,
        /// The frame's size, without its length prefix.
        frame_bytes: usize,
        /// The memory budget that was exceeded.
        budget: usize,
    },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Malformed(message) => f.write_str(message),
            DecodeError::OverBudget {
                api,
                version,
                frame_bytes,
                budget,
            } => write!(
                f,
                "{api} v{version} response of {} needs more than its {} memory budget",
                human_bytes(*frame_bytes),
                human_bytes(*budget)
            ),
        }
    }
}

/// Decode a response frame (without its length prefix) to `R`'s response at
/// `version`, returning the correlation id too. The frame must be consumed
/// exactly: trailing bytes mean the two sides disagree about the version.
///
/// The decode runs under the memory budget of [`budget_for`](super::budget::budget_for) the frame's size:
/// a frame that would take more is [`DecodeError::OverBudget`], never an
/// abort.
pub fn decode_response<R: Rpc>(
    frame: Bytes,
    version: i16,
) -> Result<(i32, R::Response), DecodeError> {
    let frame_bytes = frame.len();
    let (result, usage) = within_budget(frame_bytes, || decode_unbudgeted::<R>(frame, version));
    result.map_err(|message| {
        if usage.exceeded {
            DecodeError::OverBudget {
                api: R::API_KEY,
                version,
                frame_bytes,
                budget: usage.limit,
            }
        } else {
            DecodeError::Malformed(message)
        }
    })
}

fn decode_unbudgeted<R: Rpc>(frame: Bytes, version: i16) -> Result<(i32, R::Response), String> {
    let mut buf = frame;
    let header_version = <R::Response as HeaderVersion>::header_version(version);
    let header = ResponseHeader::decode(&mut buf, header_version).map_err(|e| {
        format!(
            "cannot decode the {} v{version} response header: {e}",
            R::API_KEY
        )
    })?;
    let response = R::Response::decode(&mut buf, version)
        .map_err(|e| format!("cannot decode {} v{version} response: {e}", R::API_KEY))?;
    if buf.has_remaining() {
        return Err(format!(
            "{} v{version} response has {} unexpected trailing bytes",
            R::API_KEY,
            buf.remaining()
        ));
    }
    Ok((header.correlation_id, response))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::messages::MetadataRequest;

    #[tokio::test]
    async fn reads_frames_and_reports_a_clean_end() {
        let mut wire: &[u8] = &[0, 0, 0, 2, 7, 8, 0, 0, 0, 0];
        let frame = read_frame(&mut wire, 100).await.expect("frame");
        assert_eq!(&frame[..], &[7, 8]);
        let empty = read_frame(&mut wire, 100).await.expect("empty frame");
        assert!(empty.is_empty());
        assert!(matches!(
            read_frame(&mut wire, 100).await,
            Err(FrameError::Closed)
        ));
    }

    #[tokio::test]
    async fn refuses_oversized_negative_and_truncated_frames() {
        let mut huge: &[u8] = &[0x7f, 0xff, 0xff, 0xff];
        assert!(matches!(
            read_frame(&mut huge, 1024).await,
            Err(FrameError::TooLarge {
                size: 2_147_483_647,
                max: 1024
            })
        ));
        let mut negative: &[u8] = &[0xff, 0xff, 0xff, 0xfe];
        assert!(matches!(
            read_frame(&mut negative, 1024).await,
            Err(FrameError::NegativeLength(-2))
        ));
        let mut short: &[u8] = &[0, 0, 0, 10, 1, 2];
        assert!(matches!(
            read_frame(&mut short, 1024).await,
            Err(FrameError::Truncated {
                expected: 10,
                got: 2
            })
        ));
        let mut half_prefix: &[u8] = &[0, 0];
        assert!(matches!(
            read_frame(&mut half_prefix, 1024).await,
            Err(FrameError::Truncated {
                expected: 4,
                got: 2
            })
        ));
    }

    #[test]
    fn encoded_requests_carry_their_length_and_header() {
        let frame = encode_request(&MetadataRequest::default(), 12, 42, "kscope").expect("encode");
        let length = i32::from_be_bytes([frame[0], frame[1], frame[2], frame[3]]);
        assert_eq!(usize::try_from(length).ok(), Some(frame.len() - 4));
        assert_eq!(&frame[4..6], &3i16.to_be_bytes()); // api key: Metadata
        assert_eq!(&frame[6..8], &12i16.to_be_bytes());
        assert_eq!(correlation_id(&frame[8..]), Some(42));
    }

    #[test]
    fn garbage_and_trailing_bytes_are_errors() {
        let garbage = Bytes::from_static(&[0, 0, 0, 1, 0xff]);
        assert!(decode_response::<MetadataRequest>(garbage, 12).is_err());
        // A correlation id, an empty tagged-field set, and then the 12-byte case:
        // a v12 metadata body whose broker array claims 2^31 - 1 elements.
        let hostile =
            Bytes::from_static(&[0, 0, 0, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x07]);
        assert!(decode_response::<MetadataRequest>(hostile, 12).is_err());
    }

    /// A `DescribeGroups` v5 frame: one group with `members` members whose
    /// fields are all empty (7 bytes each on the wire, ~350 in memory), the
    /// members array claiming `claimed` of them.
    fn describe_groups_v5(members: usize, claimed: u32) -> Bytes {
        let mut buf = BytesMut::new();
        buf.put_i32(7); // correlation id
        buf.put_u8(0); // response header tagged fields
        buf.put_i32(0); // throttle
        buf.put_u8(2); // one group
        buf.put_i16(0); // error code
        buf.put_slice(&[1, 1, 1, 1]); // group id, state, protocol type, data: ""
        let mut count = claimed.saturating_add(1);
        while count >= 0x80 {
            buf.put_u8(u8::try_from(count & 0x7f).unwrap_or(0) | 0x80);
            count >>= 7;
        }
        buf.put_u8(u8::try_from(count).unwrap_or(0));
        for _ in 0..members {
            // member id, instance id (null), client id, host, metadata, assignment, tags
            buf.put_slice(&[1, 0, 1, 1, 1, 1, 0]);
        }
        buf.put_i32(0); // authorized operations
        buf.put_u8(0); // group tagged fields
        buf.put_u8(0); // response tagged fields
        buf.freeze()
    }

    #[test]
    fn a_frame_full_of_tiny_members_is_over_budget_not_an_abort() {
        use kafka_protocol::messages::DescribeGroupsRequest;
        let members = 300_000;
        let count = u32::try_from(members).expect("fits");
        let frame = describe_groups_v5(members, count);
        let frame_bytes = frame.len();
        let error = decode_response::<DescribeGroupsRequest>(frame, 5).expect_err("over budget");
        assert_eq!(
            error,
            DecodeError::OverBudget {
                api: ApiKey::DescribeGroups,
                version: 5,
                frame_bytes,
                budget: frame_bytes * 8,
            }
        );
        assert_eq!(
            error.to_string(),
            "DescribeGroups v5 response of 2.0 MiB needs more than its 16.0 MiB memory budget"
        );
        // The same frame claiming 2^31 members fails the same way.
        let claiming = describe_groups_v5(members, 1 << 31);
        assert!(matches!(
            decode_response::<DescribeGroupsRequest>(claiming, 5),
            Err(DecodeError::OverBudget { .. })
        ));
        // A few members are well within budget.
        let (_, response) =
            decode_response::<DescribeGroupsRequest>(describe_groups_v5(1000, 1000), 5)
                .expect("within budget");
        assert_eq!(response.groups[0].members.len(), 1000);
    }
}
