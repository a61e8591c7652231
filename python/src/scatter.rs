//! Scatter instances as one numpy structured array: a record per instance with its chunk,
//! layer, kind, chunk-local position, yaw, scale and up direction, packed little-endian
//! (the dtype [`DTYPE`] names). Built as bytes in Rust and viewed by numpy without a further
//! copy.

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList};
use stratagen_core::engine::ChunkPos;
use stratagen_core::world::scatter::{is_ground, scatter_chunk, Instance};
use stratagen_core::world::{ChunkData, WorldGen};

/// The record layout: (field, numpy type, shape), 44 bytes, packed.
const DTYPE: [(&str, &str, usize); 8] = [
    ("cx", "<i4", 1),
    ("cz", "<i4", 1),
    ("layer", "<u2", 1),
    ("kind", "<u2", 1),
    ("position", "<f4", 3),
    ("yaw", "<f4", 1),
    ("scale", "<f4", 1),
    ("up", "<f4", 3),
];

/// One record's bytes.
fn record(out: &mut Vec<u8>, pos: ChunkPos, layer: u16, i: &Instance) {
    out.extend_from_slice(&pos.x.to_le_bytes());
    out.extend_from_slice(&pos.z.to_le_bytes());
    out.extend_from_slice(&layer.to_le_bytes());
    out.extend_from_slice(&i.kind.to_le_bytes());
    for f in i
        .position
        .iter()
        .chain([i.yaw, i.scale].iter())
        .chain(i.up.iter())
    {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// The instances of `layers` (indices into the definition's layers) in `chunks`, in chunk
/// order, then layer, then the layer's own order, as packed records. Any thread.
pub fn instances(
    g: &WorldGen,
    chunks: &[(ChunkPos, std::sync::Arc<ChunkData>)],
    layers: &[usize],
) -> Vec<u8> {
    let world = g.definition();
    let ground = |b| is_ground(&world.blocks, b);
    let mut out = Vec::new();
    for (pos, data) in chunks {
        let Some(full) = data.full() else { continue };
        for &li in layers {
            if let Some(l) = world.scatter.get(li) {
                for i in scatter_chunk(g.settings().seed, &g.dims(), l, full, ground) {
                    record(&mut out, *pos, li as u16, &i);
                }
            }
        }
    }
    out
}

/// `bytes` as a structured array of [`DTYPE`] records (writable, owning a bytearray).
pub fn structured<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let fields = PyList::empty(py);
    for (name, ty, n) in DTYPE {
        if n == 1 {
            fields.append((name, ty))?;
        } else {
            fields.append((name, ty, (n,)))?;
        }
    }
    let dtype = np.getattr("dtype")?.call1((fields,))?;
    let buf = PyByteArray::new(py, bytes);
    np.getattr("frombuffer")?.call1((buf, dtype))
}

/// The definition's layers as dicts: name, radius, density, kinds.
pub fn layers<'py>(py: Python<'py>, g: &WorldGen) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for l in &g.definition().scatter {
        let d = PyDict::new(py);
        d.set_item("name", &l.name)?;
        d.set_item("radius", l.radius)?;
        d.set_item("density", l.density)?;
        d.set_item(
            "kinds",
            l.kinds.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        )?;
        list.append(d)?;
    }
    Ok(list)
}
