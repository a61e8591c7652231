//! `stratagen.Chunk`: a full chunk's blocks, biomes, heightmaps, light, block entities and
//! spawns as numpy arrays, decoded once each and shared read-only.

use std::sync::{Arc, OnceLock};

use numpy::ndarray::ArrayView3;
use numpy::{PyArray3, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use stratagen_core::world::sections::Sections;
use stratagen_core::world::{
    chunk_digest, ChunkData, Definition, Dims, FullChunk, Heightmap, CHUNK_SIDE,
};

use crate::arrays::{owned, read_only};
use crate::errors::{argument, choose, Int};

/// A full chunk: blocks, biomes, heightmaps, light, block entities and spawns. Arrays are
/// C-contiguous in the order of the C copies (`[y, z, x]`, y from the world's bottom).
#[pyclass(frozen, module = "stratagen")]
pub struct Chunk {
    data: Arc<ChunkData>,
    /// The paletted blocks decoded on the first `blocks` read, the array that read and every
    /// later one view.
    dense_blocks: OnceLock<Vec<u16>>,
    dims: Dims,
    definition: Arc<Definition>,
}

impl Chunk {
    fn full(&self) -> &FullChunk {
        self.data
            .full()
            .expect("a Chunk is made from full outputs only")
    }

    /// A Python `Chunk` of a full output of a world with these dimensions.
    pub fn new(data: Arc<ChunkData>, dims: Dims, definition: Arc<Definition>) -> Option<Chunk> {
        data.full()?;
        Some(Chunk {
            data,
            dims,
            definition,
            dense_blocks: OnceLock::new(),
        })
    }

    fn layers(&self) -> usize {
        self.dims.height as usize
    }

    /// Light levels, one byte per block.
    fn levels<'py>(
        &self,
        py: Python<'py>,
        light: &Sections,
    ) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let v = py.detach(|| {
            let mut v = Vec::with_capacity(light.len());
            light.for_each_section(|s| v.extend(s.iter().map(|&l| l as u8)));
            v
        });
        owned(py, v, &[self.layers(), CHUNK_SIDE, CHUNK_SIDE])
    }
}

const HEIGHTMAPS: [(&str, Heightmap); 4] = [
    ("world_surface", Heightmap::WorldSurface),
    ("ocean_floor", Heightmap::OceanFloor),
    ("motion_blocking", Heightmap::MotionBlocking),
    (
        "motion_blocking_no_leaves",
        Heightmap::MotionBlockingNoLeaves,
    ),
];

#[pymethods]
impl Chunk {
    /// Chunk x.
    #[getter]
    fn x(&self) -> i32 {
        self.full().pos.x
    }

    /// Chunk z.
    #[getter]
    fn z(&self) -> i32 {
        self.full().pos.z
    }

    /// The lowest block y (`blocks[0]` is this layer).
    #[getter]
    fn min_y(&self) -> i32 {
        self.dims.min_y
    }

    /// Block ids, `uint16`, shape `(height, 16, 16)` indexed `[y - min_y, z, x]`: a read-only
    /// view of the chunk's blocks, decoded from their paletted storage on the first read
    /// (every later read is a view of the same array, no copy).
    #[getter]
    fn blocks<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArrayDyn<u16>>> {
        let this = slf.get();
        let py = slf.py();
        // Decoded with the GIL released and outside the once-cell: a thread waiting in the
        // cell's initialiser holds the GIL, so a decode inside it that released and took back
        // the GIL could wait for that thread forever. Two threads may both decode; the first
        // result stays and the other is dropped (they are equal).
        let dense = match this.dense_blocks.get() {
            Some(d) => d,
            None => {
                let decoded = py.detach(|| this.full().blocks().to_vec());
                this.dense_blocks.get_or_init(move || decoded)
            }
        };
        let view = ArrayView3::from_shape((this.layers(), CHUNK_SIDE, CHUNK_SIDE), &dense[..])
            .map_err(|e| argument(e.to_string()))?;
        // SAFETY: the array borrows `this.dense_blocks`, set once and never changed or dropped
        // while the frozen `Chunk` lives; the array holds a reference to the
        // `Chunk` as its base, so the memory outlives the array. It is made read-only before
        // it is returned, and numpy refuses to make it writeable again (its base exposes no
        // writable buffer), so nothing writes through the shared pointer.
        let a = unsafe { PyArray3::borrow_from_array(&view, slf.clone().into_any()) };
        read_only(a.to_dyn().clone())
    }

    /// The block id at chunk-local `(x, z)` (0..16) and world `y`.
    fn block(&self, x: Int<usize>, y: Int<i32>, z: Int<usize>) -> PyResult<u16> {
        let (x, y, z) = (x.0, y.0, z.0);
        if x >= CHUNK_SIDE || z >= CHUNK_SIDE || y < self.dims.min_y || y > self.dims.max_y() {
            return Err(argument(format!(
                "block ({x}, {y}, {z}) is outside the chunk (x, z in 0..16, y in {}..={})",
                self.dims.min_y,
                self.dims.max_y()
            )));
        }
        self.full()
            .blocks()
            .get(self.dims.index(x, y, z))
            .ok_or_else(|| argument(format!("block ({x}, {y}, {z}) is outside the chunk")))
    }

    /// Biome ids per 4 × 4 column cell, `uint8`, shape `(4, 4)` indexed `[z / 4, x / 4]`.
    #[getter]
    fn biomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        owned(py, self.full().biomes.to_vec(), &[4, 4])
    }

    /// A heightmap, `int32`, shape `(16, 16)` indexed `[z, x]`: per column `y + 1` of the top
    /// block of the kind, `min_y` if none. `kind`: "world_surface" (default), "ocean_floor",
    /// "motion_blocking", "motion_blocking_no_leaves".
    #[pyo3(signature = (kind = "world_surface"))]
    fn heightmap<'py>(&self, py: Python<'py>, kind: &str) -> PyResult<Bound<'py, PyArrayDyn<i32>>> {
        let h = choose("heightmap", kind, &HEIGHTMAPS)?;
        owned(
            py,
            self.full().heightmaps()[h].to_vec(),
            &[CHUNK_SIDE, CHUNK_SIDE],
        )
    }

    /// Sky light 0..=15 per block, `uint8`, shape `(height, 16, 16)`.
    #[getter]
    fn sky_light<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        self.levels(py, &self.full().light().sky)
    }

    /// Block light 0..=15 per block, `uint8`, shape `(height, 16, 16)`.
    #[getter]
    fn block_light<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        self.levels(py, &self.full().light().block)
    }

    /// Block entities (chests, spawners): world position, the block id and its data.
    #[getter]
    fn block_entities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for e in self.full().block_entities() {
            let d = PyDict::new(py);
            d.set_item("x", e.pos[0])?;
            d.set_item("y", e.pos[1])?;
            d.set_item("z", e.pos[2])?;
            d.set_item("block", e.kind)?;
            d.set_item("block_name", self.definition.blocks.name(e.kind))?;
            d.set_item("data", e.data)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Spawn requests: creature id, world position and group size.
    #[getter]
    fn spawns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for s in &self.full().spawns {
            let d = PyDict::new(py);
            d.set_item("creature", s.kind)?;
            d.set_item("x", s.pos[0])?;
            d.set_item("y", s.pos[1])?;
            d.set_item("z", s.pos[2])?;
            d.set_item("group", s.group)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The chunk digest (XXH64 over its content, as `stratagen digest` prints it).
    #[getter]
    fn digest(&self) -> u64 {
        chunk_digest(&self.data)
    }

    fn __repr__(&self) -> String {
        format!(
            "Chunk(x={}, z={}, digest={:016x})",
            self.x(),
            self.z(),
            self.digest()
        )
    }
}
