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

/// Refuse a region whose corners are out of range, whose x1 < x0 or z1 < z0, or that holds
/// more than `max_chunks` chunks (when given).
pub fn check_region(
    (x0, z0, x1, z1): (i32, i32, i32, i32),
    max_chunks: Option<usize>,
) -> Result<(), PyErr> {
    check_pos(x0, z0)?;
    check_pos(x1, z1)?;
    if x1 < x0 || z1 < z0 {
        return Err(argument(format!(
            "region ({x0}, {z0}, {x1}, {z1}): x1 must be >= x0 and z1 >= z0"
        )));
    }
    let count = (i64::from(x1 - x0) + 1) * (i64::from(z1 - z0) + 1);
    match max_chunks {
        Some(max) if count > max as i64 => Err(argument(format!(
            "region ({x0}, {z0}, {x1}, {z1}) has {count} chunks: at most {max} per call"
        ))),
        _ => Ok(()),
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
