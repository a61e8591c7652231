//! `stratagen.Mesh`: a chunk's mesh as numpy arrays per surface (opaque, cutout,
//! translucent), built with the GIL released.

use std::sync::Arc;

use numpy::PyArrayDyn;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use stratagen_core::engine::ChunkPos;
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, Face, MeshOptions, Mode, SurfaceMesh};
use stratagen_core::world::{ChunkData, Neighbourhood, WorldGen};

use crate::arrays::owned;
use crate::errors::argument;
use crate::GenerationError;

/// A chunk's mesh. `opaque`, `cutout` and `translucent` are dicts of arrays:
/// `positions` (float32, `(n, 3)`, chunk-local x and z, world y), `normals` (float32,
/// `(n, 3)`), `uvs` (float32, `(n, 2)`, in blocks), `colours` (float32, `(n, 4)`, linear RGBA
/// with ambient occlusion and light baked in, as the glTF export draws them), `ao`,
/// `sky_light`, `block_light` (uint8, `(n,)`), `blocks` (uint16, one per quad) and
/// `indices` (uint32, six per quad, counter-clockwise triangles).
#[pyclass(frozen, module = "stratagen")]
pub struct Mesh {
    surfaces: [Py<PyDict>; 3],
    digest: u64,
    quads: usize,
}

#[pymethods]
impl Mesh {
    /// Opaque cubes.
    #[getter]
    fn opaque(&self, py: Python<'_>) -> Py<PyDict> {
        self.surfaces[0].clone_ref(py)
    }

    /// Alpha-tested blocks drawn from both sides (leaves, plants).
    #[getter]
    fn cutout(&self, py: Python<'_>) -> Py<PyDict> {
        self.surfaces[1].clone_ref(py)
    }

    /// Blended blocks (water, ice).
    #[getter]
    fn translucent(&self, py: Python<'_>) -> Py<PyDict> {
        self.surfaces[2].clone_ref(py)
    }

    /// The mesh digest (as in the parity corpus and `stratagen mesh`).
    #[getter]
    fn digest(&self) -> u64 {
        self.digest
    }

    /// Quads over every surface.
    #[getter]
    fn quads(&self) -> usize {
        self.quads
    }

    fn __repr__(&self) -> String {
        format!("Mesh(quads={}, digest={:016x})", self.quads, self.digest)
    }
}

/// The arrays of one surface.
fn surface_dict<'py>(
    py: Python<'py>,
    s: SurfaceMesh,
    colours: Vec<[f32; 4]>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = s.vertex_count();
    let normals: Vec<f32> = s
        .faces
        .iter()
        .flat_map(|&f| Face::from_index(f).map_or([0.0; 3], Face::normal))
        .collect();
    let d = PyDict::new(py);
    let f32s = |v: Vec<f32>, shape: &[usize]| -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        owned(py, v, shape)
    };
    d.set_item("positions", f32s(s.positions.into_flattened(), &[n, 3])?)?;
    d.set_item("normals", f32s(normals, &[n, 3])?)?;
    d.set_item("uvs", f32s(s.uvs.into_flattened(), &[n, 2])?)?;
    d.set_item("colours", f32s(colours.into_flattened(), &[n, 4])?)?;
    d.set_item("ao", owned(py, s.ao, &[n])?)?;
    d.set_item("sky_light", owned(py, s.sky_light, &[n])?)?;
    d.set_item("block_light", owned(py, s.block_light, &[n])?)?;
    let quads = s.quad_blocks.len();
    d.set_item("blocks", owned(py, s.quad_blocks, &[quads])?)?;
    let indices = s.indices.len();
    d.set_item("indices", owned(py, s.indices, &[indices])?)?;
    Ok(d)
}

/// Mesh chunk `at` from `around` (it and its generated neighbours), with the GIL released.
pub fn mesh_of(
    py: Python<'_>,
    generator: &WorldGen,
    around: &[(ChunkPos, Arc<ChunkData>)],
    at: ChunkPos,
    greedy: bool,
) -> PyResult<Mesh> {
    let full = |p: ChunkPos| {
        around
            .iter()
            .find(|(q, _)| *q == p)
            .and_then(|(_, d)| d.full())
    };
    let centre = full(at)
        .ok_or_else(|| argument(format!("chunk ({}, {}) was not generated", at.x, at.z)))?;
    let options = MeshOptions {
        mode: if greedy { Mode::Greedy } else { Mode::Culled },
        ..MeshOptions::default()
    };
    let definition = generator.definition();
    let built = py.detach(|| {
        let n = Neighbourhood::from_fn(|dx, dz| full(at.offset(dx, dz)));
        mesh_chunk(&n, generator.dims(), &definition.blocks, &options).map(|m| {
            let colours = m
                .surfaces
                .each_ref()
                .map(|s| vertex_colours(s, definition, &centre.biomes));
            (m, colours)
        })
    });
    let (m, colours) = built.map_err(|e| GenerationError::new_err(e.to_string()))?;
    let (digest, quads) = (m.digest(), m.quad_count());
    let [s0, s1, s2] = m.surfaces;
    let [c0, c1, c2] = colours;
    Ok(Mesh {
        surfaces: [
            surface_dict(py, s0, c0)?.unbind(),
            surface_dict(py, s1, c1)?.unbind(),
            surface_dict(py, s2, c2)?.unbind(),
        ],
        digest,
        quads,
    })
}
