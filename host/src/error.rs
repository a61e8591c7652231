//! The host crate's error: one variant per kind of failure, displayed as the one-line message
//! a host prints (the CLI prints it after `stratagen: error:`, Python raises it).

use stratagen_core::engine::{BodyError, ChunkPos, ChunkStatus, SchedulerError};
use stratagen_core::world::WorldError;

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
    /// The chunk store refused (opening, reading or writing), or a stored record was bad.
    #[error("store: {0}")]
    Store(String),
    /// A shard plan or merge that cannot be carried out (the message says why).
    #[error("{0}")]
    Plan(String),
    /// A requested chunk did not reach the requested status.
    #[error("chunk ({}, {}) did not reach {}", pos.x, pos.z, status.name())]
    NotReached {
        /// The chunk.
        pos: ChunkPos,
        /// The status asked for.
        status: ChunkStatus,
    },
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
from_core_error!(WorldError => World, SchedulerError => Scheduler, BodyError => Body);

impl From<stratagen_store::sqlite::StoreError> for HostError {
    fn from(e: stratagen_store::sqlite::StoreError) -> HostError {
        HostError::Store(e.to_string())
    }
}
