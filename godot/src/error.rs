//! [`StreamError`]: why the streaming core refused or failed, with the errors of the crates
//! below kept whole (a node prints it; a Rust host can match on it).

use std::path::PathBuf;

use stratagen_core::engine::{BodyError, ChunkPos, ChunkStatus, SchedulerError};
use stratagen_core::mesh::MeshError;
use stratagen_store::sqlite::StoreError;
use stratagen_store::RecordError;

/// Why the streaming core refused a call or a frame reports a failure.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// A generation task's body failed (or panicked: a bug).
    #[error("{} of chunk ({}, {}) failed: {error}", status.name(), pos.x, pos.z)]
    Task {
        /// The chunk.
        pos: ChunkPos,
        /// The status its task generated.
        status: ChunkStatus,
        /// Why.
        error: BodyError,
    },
    /// The scheduler refused a call.
    #[error("{0}")]
    Scheduler(SchedulerError),
    /// A chunk's mesh could not be built.
    #[error("mesh of chunk ({}, {}): {error}", pos.x, pos.z)]
    Mesh {
        /// The chunk.
        pos: ChunkPos,
        /// Why.
        error: MeshError,
    },
    /// The mesher panicked on a chunk (a bug).
    #[error("the mesher panicked on chunk ({}, {})", pos.x, pos.z)]
    MeshPanicked {
        /// The chunk.
        pos: ChunkPos,
    },
    /// The edit store at `path` refused: another world, someone else's database, the disk.
    #[error("store {}: {source}", path.display())]
    Store {
        /// The store.
        path: PathBuf,
        /// Why.
        #[source]
        source: StoreError,
    },
    /// An edit record was refused; the records before it were applied.
    #[error("edit record of chunk ({}, {}): {source}", pos.x, pos.z)]
    EditRecord {
        /// The chunk the record was stored under.
        pos: ChunkPos,
        /// Why.
        #[source]
        source: RecordError,
    },
}

impl From<SchedulerError> for StreamError {
    fn from(e: SchedulerError) -> StreamError {
        StreamError::Scheduler(e)
    }
}
