//! The command's error type: one variant per kind of failure, displayed as the one-line
//! message the command prints.

use std::path::PathBuf;

use stratagen_core::engine::{BodyError, ChunkPos, ChunkStatus, SchedulerError};
use stratagen_core::noise::NoiseError;
use stratagen_core::world::WorldError;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An argument value out of its range or malformed (the message names the flag).
    #[error("{0}")]
    Usage(String),
    /// The world settings were refused.
    #[error("{0}")]
    World(WorldError),
    /// A world definition could not be loaded (every problem, one per line).
    #[error("{0}")]
    Definition(String),
    /// The scheduler refused a call.
    #[error("{0}")]
    Scheduler(SchedulerError),
    /// A status body failed.
    #[error("{0}")]
    Body(BodyError),
    /// A noise definition or fill was refused.
    #[error("{0}")]
    Noise(NoiseError),
    /// Writing an output file failed (nothing is left at `path`).
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The output path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// PNG encoding failed.
    #[error("png: {0}")]
    Png(#[from] png::EncodingError),
    /// Generating, pregenerating or reading a store failed.
    #[error(transparent)]
    Host(#[from] stratagen_host::HostError),
    /// A requested chunk did not reach the requested status.
    #[error("chunk ({}, {}) did not reach {}", pos.x, pos.z, status.name())]
    NotReached {
        /// The chunk.
        pos: ChunkPos,
        /// The status asked for.
        status: ChunkStatus,
    },
}

/// A usage error from a message.
pub fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

// The core's errors are `no_std` (no `std::error::Error`), so they are wrapped by hand, as
// values without a source.
macro_rules! from_core_error {
    ($($t:ty => $v:ident),*) => {
        $(impl From<$t> for CliError {
            fn from(e: $t) -> CliError {
                CliError::$v(e)
            }
        })*
    };
}
from_core_error!(WorldError => World, SchedulerError => Scheduler, BodyError => Body, NoiseError => Noise);
