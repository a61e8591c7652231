//! The Rust crates' errors as Python exceptions, with the messages the command line prints.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use pyo3::{Borrowed, PyErr, PyResult};
use stratagen_core::engine::{ChunkPos, ChunkRect};
use stratagen_core::noise::NoiseError as CoreNoiseError;
use stratagen_core::world::WorldError as CoreWorldError;
use stratagen_host::HostError;
use stratagen_store::sqlite::StoreError as CoreStoreError;

use crate::{
    ArgumentError, ConflictError, ForeignWorldError, GenerationError, NoiseError, StoreError,
    WorldError,
};

/// `HostError` → the exception of its kind; a conflicting merge and a store of another world
/// carry their fields (`ConflictError.x`, `.z`, `.edits`; `ForeignWorldError.field`,
/// `.stored`, `.wanted`).
pub fn host(e: HostError) -> PyErr {
    let msg = e.to_string();
    match e {
        HostError::World(w) => world(w),
        HostError::Store { source, .. } => store(source, msg),
        HostError::EditRecord { .. }
        | HostError::Record { .. }
        | HostError::NotStored { .. }
        | HostError::WriterPanicked
        | HostError::Incomplete { .. } => StoreError::new_err(msg),
        HostError::Region(_)
        | HostError::Tile(_)
        | HostError::Shard { .. }
        | HostError::NoMergeInput => ArgumentError::new_err(msg),
        HostError::Scheduler(_)
        | HostError::Body(_)
        | HostError::Edit(_)
        | HostError::Stopped { .. }
        | HostError::NotReached { .. } => GenerationError::new_err(msg),
    }
}

/// A store's refusal as the exception of its kind, with the message `msg`.
pub fn store(e: CoreStoreError, msg: String) -> PyErr {
    Python::attach(|py| {
        let err = match &e {
            CoreStoreError::Conflict { .. } | CoreStoreError::EditConflict { .. } => {
                ConflictError::new_err(msg)
            }
            CoreStoreError::ForeignWorld { .. } => ForeignWorldError::new_err(msg),
            _ => StoreError::new_err(msg),
        };
        let value = err.value(py);
        let fields = match e {
            CoreStoreError::Conflict { x, z } => value
                .setattr("x", x)
                .and(value.setattr("z", z))
                .and(value.setattr("edits", false)),
            CoreStoreError::EditConflict { x, z } => value
                .setattr("x", x)
                .and(value.setattr("z", z))
                .and(value.setattr("edits", true)),
            CoreStoreError::ForeignWorld {
                field,
                stored,
                wanted,
            } => value
                .setattr("field", field)
                .and(value.setattr("stored", stored))
                .and(value.setattr("wanted", wanted)),
            _ => Ok(()),
        };
        // Setting an attribute of a fresh exception object fails only without memory; the
        // exception then goes without its fields, its message whole.
        drop(fields);
        err
    })
}

/// Refused world settings.
pub fn world(e: CoreWorldError) -> PyErr {
    WorldError::new_err(e.to_string())
}

/// A refused noise definition or grid.
pub fn noise(e: CoreNoiseError) -> PyErr {
    NoiseError::new_err(e.to_string())
}

/// An integer argument. One that does not fit its Rust type raises `stratagen.RangeError`
/// (an `ArgumentError` and an `OverflowError`) instead of PyO3's bare `OverflowError`, so
/// `except stratagen.Error` catches every bad argument.
pub struct Int<T>(pub T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Int<T>
where
    T: FromPyObject<'a, 'py>,
{
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        T::extract(obj).map(Int).map_err(|e| {
            let e: PyErr = e.into();
            let py = obj.py();
            if e.is_instance_of::<PyOverflowError>(py) {
                range_error(
                    py,
                    format!(
                        "{} is out of range for this argument ({})",
                        obj.repr()
                            .map_or_else(|_| "the integer".into(), |r| r.to_string()),
                        std::any::type_name::<T>()
                    ),
                )
            } else {
                e
            }
        })
    }
}

/// The `stratagen.RangeError` class, made once: Python's `type(name, bases, dict)`, since a
/// class with two bases cannot be declared from Rust.
pub fn range_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.get_or_try_init(py, || {
        let bases = (
            py.get_type::<ArgumentError>(),
            py.get_type::<PyOverflowError>(),
        );
        let dict = PyDict::new(py);
        dict.set_item("__module__", "stratagen")?;
        dict.set_item(
            "__doc__",
            "An integer argument outside the range its parameter takes \
             (an ArgumentError and an OverflowError).",
        )?;
        let class = py
            .get_type::<PyType>()
            .call1(("RangeError", bases, dict))?
            .cast_into::<PyType>()?;
        Ok(class.unbind())
    })
    .map(|t| t.bind(py))
}

fn range_error(py: Python<'_>, msg: String) -> PyErr {
    match range_error_type(py) {
        Ok(class) => PyErr::from_type(class.clone(), msg),
        Err(e) => e,
    }
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

/// The checked region `(x0, z0, x1, z1)` (not inverted, inside the supported range), refused
/// too when it holds more than `max_chunks` chunks (when given).
pub fn check_region(
    (x0, z0, x1, z1): (i32, i32, i32, i32),
    max_chunks: Option<u64>,
) -> Result<ChunkRect, PyErr> {
    let r = ChunkRect::new(x0, z0, x1, z1).map_err(|e| argument(e.to_string()))?;
    match max_chunks {
        Some(max) if r.count() > max => Err(argument(format!(
            "region ({x0}, {z0}, {x1}, {z1}) has {} chunks: at most {max} per call",
            r.count()
        ))),
        _ => Ok(r),
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
