//! The host crate's error: one variant per kind of failure, displayed as the one-line message
//! a host prints (the CLI prints it after `stratagen: error:`, Python raises it). The errors
//! of the crates below are kept whole as sources, so a host can tell a conflicting merge, a
//! store of another world or a full disk apart without reading the message.

use std::path::{Path, PathBuf};

use stratagen_core::engine::{BodyError, ChunkPos, ChunkStatus, RectError, SchedulerError};
use stratagen_core::world::edit::EditError;
use stratagen_core::world::WorldError;
use stratagen_store::record::RecordError;
use stratagen_store::sqlite::StoreError;

/// Why generating, pregenerating or reading a store failed.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The world settings were refused.
    #[error("{0}")]
    World(WorldError),
    /// The scheduler refused a call.
    #[error("{0}")]
    Scheduler(SchedulerError),
    /// A status body failed.
    #[error("{0}")]
    Body(BodyError),
    /// A region that holds no chunk or reaches outside the supported range.
    #[error("{0}")]
    Region(RectError),
    /// The chunk store at `path` refused: opening, reading, writing (a full disk), another
    /// world, a conflicting merge, a damaged row.
    #[error("store {}: {source}", path.display())]
    Store {
        /// The store.
        path: PathBuf,
        /// Why.
        #[source]
        source: StoreError,
    },
    /// An edit record of the store at `path` was refused.
    #[error("store {}: edits of chunk ({}, {}): {source}", path.display(), pos.x, pos.z)]
    EditRecord {
        /// The store.
        path: PathBuf,
        /// The edited chunk.
        pos: ChunkPos,
        /// Why.
        #[source]
        source: RecordError,
    },
    /// A chunk record could not be made of a generated chunk.
    #[error("chunk ({}, {}): {source}", pos.x, pos.z)]
    Record {
        /// The chunk.
        pos: ChunkPos,
        /// Why.
        #[source]
        source: RecordError,
    },
    /// An edited chunk could not be read (a neighbour its light needs is missing).
    #[error("{0}")]
    Edit(EditError),
    /// A chunk the region needs is not in the store at `path` (and the store holds no edits,
    /// so nothing is generated in its place).
    #[error("chunk ({}, {}) is not in {}", pos.x, pos.z, path.display())]
    NotStored {
        /// The store.
        path: PathBuf,
        /// The chunk.
        pos: ChunkPos,
    },
    /// A shard plan with a tile side below one chunk.
    #[error("tile {0}: at least 1 chunk")]
    Tile(i32),
    /// A shard index that is not below the shard count.
    #[error("shard {index}/{count}: the index must be below the count")]
    Shard {
        /// The index asked for.
        index: usize,
        /// The shard count.
        count: usize,
    },
    /// A merge without an input store.
    #[error("merge: no input store")]
    NoMergeInput,
    /// The thread writing records panicked (a bug); what it committed stays.
    #[error("the record writer panicked")]
    WriterPanicked,
    /// The caller's progress callback asked to stop. What was stored before stays, and a
    /// rerun resumes there.
    #[error("stopped after {stored} of {total} chunks were stored; a rerun resumes")]
    Stopped {
        /// Chunks stored by the run.
        stored: usize,
        /// Chunks the run had to store.
        total: usize,
    },
    /// A pregeneration ended with chunks of its region neither stored nor failed (a bug in
    /// the driver; what was stored stays, and a rerun resumes).
    #[error("only {stored} of {total} chunks were stored")]
    Incomplete {
        /// Chunks stored by the run.
        stored: usize,
        /// Chunks the run had to store.
        total: usize,
    },
    /// A requested chunk did not reach the requested status.
    #[error("chunk ({}, {}) did not reach {}", pos.x, pos.z, status.name())]
    NotReached {
        /// The chunk.
        pos: ChunkPos,
        /// The status asked for.
        status: ChunkStatus,
    },
}

impl HostError {
    /// The store error inside, if the store refused.
    pub fn store_error(&self) -> Option<&StoreError> {
        match self {
            HostError::Store { source, .. } => Some(source),
            _ => None,
        }
    }
}

// The core's errors are `no_std` (no `std::error::Error`), so they are wrapped by hand, as
// values without a source.
macro_rules! from_core_error {
    ($($t:ty => $v:ident),*) => {
        $(impl From<$t> for HostError {
            fn from(e: $t) -> HostError {
                HostError::$v(e)
            }
        })*
    };
}
from_core_error!(
    WorldError => World,
    SchedulerError => Scheduler,
    BodyError => Body,
    RectError => Region,
    EditError => Edit
);

/// A store error at `path`, as a closure for `map_err`.
pub fn at(path: &Path) -> impl Fn(StoreError) -> HostError + '_ {
    move |source| HostError::Store {
        path: path.to_path_buf(),
        source,
    }
}
