//! The Rust crates' errors as Python exceptions, with the messages the command line prints.

use pyo3::{PyErr, PyResult};
use stratagen_core::engine::ChunkPos;
use stratagen_core::noise::NoiseError as CoreNoiseError;
use stratagen_core::world::WorldError as CoreWorldError;
use stratagen_host::HostError;

use crate::{ArgumentError, GenerationError, NoiseError, StoreError, WorldError};

/// `HostError` → the exception of its kind.
pub fn host(e: HostError) -> PyErr {
    match e {
        HostError::World(w) => world(w),
        HostError::Store(_) => StoreError::new_err(e.to_string()),
        HostError::Plan(_) => ArgumentError::new_err(e.to_string()),
        HostError::Scheduler(_) | HostError::Body(_) | HostError::NotReached { .. } => {
            GenerationError::new_err(e.to_string())
        }
    }
}

/// Refused world settings.
pub fn world(e: CoreWorldError) -> PyErr {
    WorldError::new_err(e.to_string())
}

/// A refused noise definition or grid.
pub fn noise(e: CoreNoiseError) -> PyErr {
    NoiseError::new_err(e.to_string())
}

/// An argument error from a message.
pub fn argument(msg: impl Into<String>) -> PyErr {
    ArgumentError::new_err(msg.into())
}

/// Refuse a chunk position outside the supported range, with the scheduler's message.
pub fn check_pos(x: i32, z: i32) -> Result<ChunkPos, PyErr> {
    let p = ChunkPos::new(x, z);
    if p.is_valid() {
        Ok(p)
    } else {
        Err(argument(format!(
            "chunk ({x}, {z}) is outside the supported range |x|, |z| < 2^21"
        )))
    }
}

/// The entry of `table` named `value`, or an `ArgumentError` listing the names `what` takes.
pub fn choose<T: Copy>(what: &str, value: &str, table: &[(&str, T)]) -> PyResult<T> {
    table
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            argument(format!(
                "{what} {value:?}: expected one of {}",
                names.join(", ")
            ))
        })
}
