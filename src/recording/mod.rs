//! Recordings: what `kscope record` writes and `get … --from-file` reads.
//!
//! A recording is one file: a header (magic bytes, format version, the
//! kscope version, the context's name — never its settings or secrets —
//! and the start time), then chunks, each an independently decodable zstd
//! frame of JSON lines (see [`chunk`] for the byte layout). Each line is
//! one timestamped [`Frame`]: a full metadata snapshot first, then deltas
//! (brokers, partitions whose leader, epoch, ISR or replicas changed,
//! topics created, deleted or grown), events as `watch events` derives
//! them, kscope's liveness view, and the group list with lag.
//!
//! JSON lines, not a binary encoding of our own: the frames are serde
//! types read back by serde, a damaged file can be inspected with `zstd -d`
//! and a text editor after its chunk headers, and zstd takes the repetition
//! (field names, replica lists) out, so the size stays close to a binary
//! format's. Chunks are written every few seconds: a killed recorder loses
//! only the last one, and a cut or damaged file replays up to the damage,
//! whose byte offset the error names.

pub mod chunk;
pub mod cursor;
mod error;
pub mod frame;
mod group_row;
pub mod reader;
mod state;
pub mod stream;
pub mod writer;

pub use cursor::View;
pub use error::{Error, Result};
pub use frame::{Body, Frame, Header};
pub use group_row::{GroupRowJson, TopicLagJson};
pub use reader::{Recording, read, read_strict};
pub use stream::Stream;
pub use writer::{Stats, Writer};
