//! Handing data to numpy: vectors the binding owns become arrays without a copy; shapes are
//! C-contiguous, in the order of the C copies (`[y, z, x]` for blocks).

use numpy::{Element, IntoPyArray, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyAny};

use crate::errors::argument;

/// `v` as an array of `shape` (the product of `shape` is `v.len()`), without copying `v`.
pub fn owned<'py, T: Element>(
    py: Python<'py>,
    v: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    debug_assert_eq!(shape.iter().product::<usize>(), v.len());
    v.into_pyarray(py).reshape(shape.to_vec())
}

/// Mark `a` read-only: numpy then refuses writes, and refuses to make it writeable again
/// when its memory belongs to a Stratagen object.
pub fn read_only<'py, T: Element>(
    a: Bound<'py, PyArrayDyn<T>>,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    a.call_method(
        "setflags",
        (),
        Some(&[("write", false)].into_py_dict(a.py())?),
    )?;
    Ok(a)
}

/// The float width a fill returns, from a numpy dtype or its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatType {
    /// `float64`.
    F64,
    /// `float32`.
    F32,
}

/// `dtype` as a [`FloatType`]: anything `numpy.dtype` accepts that names float64 or float32.
pub fn float_type(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<FloatType> {
    let name: String = py
        .import("numpy")?
        .getattr("dtype")?
        .call1((dtype,))
        .map_err(|_| argument(format!("dtype {dtype}: not a numpy dtype")))?
        .getattr("name")?
        .extract()?;
    match name.as_str() {
        "float64" => Ok(FloatType::F64),
        "float32" => Ok(FloatType::F32),
        other => Err(argument(format!(
            "dtype {other}: fills are float64 or float32"
        ))),
    }
}
