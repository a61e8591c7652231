//! `stratagen.World`: a world definition with its settings, and the full chunks
//! ([`Chunk`]) it generates on the host crate's threaded driver with the GIL released.

use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use stratagen_core::engine::ChunkRect;
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::colour::biome_colour;
use stratagen_core::world::edit::{BlockEdit, EditError, EditLayer};
use stratagen_core::world::{ChunkData, WorldGen, WorldSettings};
use stratagen_host::generate_world;
use stratagen_store::edits::{load_edits, save_edits};

use crate::chunk::Chunk;
use crate::definitions::resolve;
use crate::errors::{argument, check_pos, check_region, host, world as world_error, Int};
use crate::mesh::{mesh_of, Mesh};
use crate::{GenerationError, StoreError};

/// The most chunks one `region` call returns (128 × 128, about 3 GiB resident).
pub const MAX_REGION_CHUNKS: u64 = 128 * 128;
/// The most threads a call may ask for.
pub const MAX_THREADS: usize = 256;

/// A world: a definition and settings. Generating is a pure function of (definition, seed,
/// position), so the same chunk comes out bit for bit on every machine, in every order and
/// with any number of threads.
///
/// `world` is a preset name ("default", "archipelago", "caverns"), a TOML or JSON file path,
/// or the text of a definition document.
#[pyclass(frozen, module = "stratagen")]
pub struct World {
    generator: WorldGen,
    /// The world's edits; every chunk this world returns shows them.
    edits: Mutex<EditLayer>,
}

/// World settings with the library's defaults where an argument is None
/// ([`WorldSettings::default`]).
pub fn settings(
    seed: i64,
    min_y: Option<i32>,
    height: Option<u32>,
    sea_level: Option<i32>,
) -> WorldSettings {
    let d = WorldSettings::default();
    WorldSettings {
        seed,
        min_y: min_y.unwrap_or(d.min_y),
        height: height.unwrap_or(d.height),
        sea_level: sea_level.unwrap_or(d.sea_level),
    }
}

/// `threads` checked against [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> PyResult<usize> {
    if threads > MAX_THREADS {
        return Err(argument(format!(
            "threads {threads}: at most {MAX_THREADS}"
        )));
    }
    Ok(threads)
}

/// A block argument: an id or a name.
#[derive(FromPyObject)]
pub enum BlockArg {
    /// A block id.
    Id(u16),
    /// A block name.
    Name(String),
}

/// Lock a world's edits. A poisoned lock means a panic was caught while it was held; every
/// update is a single call on the layer, so its data is still whole. The lock is held for
/// reads and updates of the edits only, never while the GIL is released: the relight of
/// edited chunks runs on inputs copied out under it ([`EditLayer::prepare`]).
fn lock(m: &Mutex<EditLayer>) -> MutexGuard<'_, EditLayer> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A refused edit or edited read as the exception of its kind.
fn edit_error(e: EditError) -> PyErr {
    match e {
        EditError::NotReady(_) => GenerationError::new_err(e.to_string()),
        EditError::OutOfRange { .. } | EditError::UnknownBlock(_) => argument(e.to_string()),
    }
}

impl World {
    /// The id of a block argument, checked against the world's blocks.
    fn block_of(&self, block: BlockArg) -> PyResult<u16> {
        let blocks = &self.generator.definition().blocks;
        match block {
            BlockArg::Id(id) if blocks.get(id).is_some() => Ok(id),
            BlockArg::Id(id) => Err(argument(format!(
                "block id {id} is not in the world's palette"
            ))),
            BlockArg::Name(n) => blocks
                .by_name(&n)
                .ok_or_else(|| argument(format!("no block is named {n:?}"))),
        }
    }

    /// Full chunks of `region`, generated on `threads` threads (0: inline on the calling
    /// thread) with the GIL released, edits applied.
    fn generate(
        &self,
        py: Python<'_>,
        region: ChunkRect,
        threads: usize,
    ) -> PyResult<Vec<(ChunkPos, Arc<ChunkData>)>> {
        let threads = check_threads(threads)?;
        let generator = self.generator.clone();
        let edited = lock(&self.edits).edits().sequence() > 0;
        // With edits, a ring of neighbours too: an edited chunk's light reads theirs.
        let around: Vec<ChunkPos> = if edited { region.grown(1) } else { region }
            .positions()
            .collect();
        let generated = py
            .detach(|| generate_world(generator, &around, ChunkStatus::Full, threads, |_, _| {}))
            .map_err(host)?;
        let chunks = generated.chunks;
        if !edited {
            return Ok(region
                .positions()
                .filter_map(|p| chunks.get(&p).map(|d| (p, d.clone())))
                .collect());
        }
        // What each edited chunk needs, under the lock (shared inputs, copied diffs); the
        // relight with the GIL released and no lock held. Each call generates afresh, so
        // nothing built is kept in the layer.
        let prepared = {
            let mut layer = lock(&self.edits);
            region
                .positions()
                .map(|p| layer.prepare(&chunks, p).map(|e| (p, e)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(edit_error)?
        };
        Ok(py.detach(|| {
            prepared
                .into_iter()
                .map(|(p, e)| (p, e.build().0))
                .collect()
        }))
    }

    /// A Python `Chunk` of a full output (what `generate` returns).
    fn chunk_of(&self, data: Arc<ChunkData>) -> Chunk {
        Chunk::new(
            data,
            self.generator.dims(),
            self.generator.definition_arc().clone(),
        )
        .expect("generated chunks are full")
    }

    /// The generator, for the store and the mesher.
    pub fn generator(&self) -> &WorldGen {
        &self.generator
    }
}

#[pymethods]
impl World {
    #[new]
    #[pyo3(
        signature = (seed = Int(0), world = "default", *, min_y = None, height = None, sea_level = None),
        text_signature = "(seed=0, world='default', *, min_y=None, height=None, sea_level=None)"
    )]
    fn new(
        seed: Int<i64>,
        world: &str,
        min_y: Option<Int<i32>>,
        height: Option<Int<u32>>,
        sea_level: Option<Int<i32>>,
    ) -> PyResult<Self> {
        let (seed, min_y, height, sea_level) = (
            seed.0,
            min_y.map(|v| v.0),
            height.map(|v| v.0),
            sea_level.map(|v| v.0),
        );
        let definition = resolve(world)?;
        let generator = WorldGen::with_definition(
            settings(seed, min_y, height, sea_level),
            Arc::new(definition),
        )
        .map_err(world_error)?;
        Ok(World {
            edits: Mutex::new(EditLayer::new(&generator)),
            generator,
        })
    }

    /// The world seed.
    #[getter]
    fn seed(&self) -> i64 {
        self.generator.settings().seed
    }

    /// The lowest block y.
    #[getter]
    fn min_y(&self) -> i32 {
        self.generator.dims().min_y
    }

    /// The height in blocks.
    #[getter]
    fn height(&self) -> u32 {
        self.generator.dims().height
    }

    /// Sea level (y of the top water block).
    #[getter]
    fn sea_level(&self) -> i32 {
        self.generator.dims().sea_level
    }

    /// The definition's name.
    #[getter]
    fn name(&self) -> String {
        self.generator.definition().name.clone()
    }

    /// The definition's digest: part of the world's identity (records, stores).
    #[getter]
    fn definition_digest(&self) -> u64 {
        self.generator.definition_digest()
    }

    /// The full chunk at `(cx, cz)`. Each call generates the chunk's neighbourhood again;
    /// `region` generates many chunks at once far faster.
    #[pyo3(signature = (cx, cz, *, threads = Int(1)), text_signature = "($self, cx, cz, *, threads=1)")]
    fn chunk(
        &self,
        py: Python<'_>,
        cx: Int<i32>,
        cz: Int<i32>,
        threads: Int<usize>,
    ) -> PyResult<Chunk> {
        let (cx, cz, threads) = (cx.0, cz.0, threads.0);
        let mut chunks = self.generate(py, check_region((cx, cz, cx, cz), None)?, threads)?;
        let (_, data) = chunks
            .pop()
            .ok_or_else(|| argument(format!("chunk ({cx}, {cz}) was not generated")))?;
        Ok(self.chunk_of(data))
    }

    /// The full chunks of the inclusive rectangle `x0..=x1` × `z0..=z1`, row-major (z, then
    /// x), generated on `threads` threads (0: inline on the calling thread; the default is
    /// the machine's core count) with the GIL released.
    #[pyo3(signature = (x0, z0, x1, z1, *, threads = None))]
    fn region(
        &self,
        py: Python<'_>,
        x0: Int<i32>,
        z0: Int<i32>,
        x1: Int<i32>,
        z1: Int<i32>,
        threads: Option<Int<usize>>,
    ) -> PyResult<Vec<Chunk>> {
        let (x0, z0, x1, z1, threads) = (x0.0, z0.0, x1.0, z1.0, threads.map(|v| v.0));
        let threads = threads.unwrap_or_else(default_threads);
        let region = check_region((x0, z0, x1, z1), Some(MAX_REGION_CHUNKS))?;
        Ok(self
            .generate(py, region, threads)?
            .into_iter()
            .map(|(_, d)| self.chunk_of(d))
            .collect())
    }

    /// The mesh of chunk `(cx, cz)` with its eight neighbours generated around it: culled
    /// (one quad per visible face) or `greedy`, with ambient occlusion and light.
    #[pyo3(signature = (cx, cz, *, greedy = false, threads = None))]
    fn mesh(
        &self,
        py: Python<'_>,
        cx: Int<i32>,
        cz: Int<i32>,
        greedy: bool,
        threads: Option<Int<usize>>,
    ) -> PyResult<Mesh> {
        let (cx, cz, threads) = (cx.0, cz.0, threads.map(|v| v.0));
        let threads = threads.unwrap_or_else(default_threads);
        let around = self.generate(py, check_region((cx, cz, cx, cz), None)?.grown(1), threads)?;
        mesh_of(py, &self.generator, &around, ChunkPos::new(cx, cz), greedy)
    }

    /// The world's blocks, by id: name, colour (sRGB and alpha) and properties.
    #[getter]
    fn blocks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (id, (name, p)) in self.generator.definition().blocks.iter().enumerate() {
            let d = PyDict::new(py);
            d.set_item("id", id)?;
            d.set_item("name", name)?;
            let [r, g, b, a] = p.colour;
            d.set_item("colour", (r, g, b, a))?;
            d.set_item("solid", p.solid)?;
            d.set_item("liquid", p.liquid)?;
            d.set_item("emission", p.emission)?;
            d.set_item("opacity", p.opacity)?;
            d.set_item("shape", format!("{:?}", p.shape).to_lowercase())?;
            d.set_item("surface", format!("{:?}", p.surface).to_lowercase())?;
            d.set_item("tinted", p.tinted)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The world's biomes, by id: name and map colour (sRGB).
    #[getter]
    fn biomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        let definition = self.generator.definition();
        for (id, b) in definition.biomes.iter().enumerate() {
            let d = PyDict::new(py);
            d.set_item("id", id)?;
            d.set_item("name", &b.name)?;
            let [r, g, b] = biome_colour(definition, id as u8);
            d.set_item("colour", (r, g, b))?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The id of the block named `name`, or None.
    fn block_id(&self, name: &str) -> Option<u16> {
        self.generator.definition().blocks.by_name(name)
    }

    /// Put `block` (an id or a name of the world's blocks) at world block `(x, y, z)`. The
    /// chunk need not be generated: every chunk this world returns afterwards shows the
    /// edit. Of two edits of one position the later wins.
    fn set_block(&self, x: Int<i32>, y: Int<i32>, z: Int<i32>, block: BlockArg) -> PyResult<()> {
        let (x, y, z) = (x.0, y.0, z.0);
        let block = self.block_of(block)?;
        lock(&self.edits)
            .set_block(BlockEdit { x, y, z, block })
            .map_err(edit_error)?;
        Ok(())
    }

    /// The block at world block `(x, y, z)`: the edit there, or else the generated block
    /// (generating its chunk, with the GIL released).
    fn block(&self, py: Python<'_>, x: Int<i32>, y: Int<i32>, z: Int<i32>) -> PyResult<u16> {
        let (x, y, z) = (x.0, y.0, z.0);
        let layer = lock(&self.edits);
        let site = layer.edits().site(x, y, z).map_err(edit_error)?;
        if let Some(b) = layer.edits().get(x, y, z) {
            return Ok(b);
        }
        drop(layer);
        let (cx, cz) = (site.chunk.x, site.chunk.z);
        let mut chunks = self.generate(py, check_region((cx, cz, cx, cz), None)?, 1)?;
        let (_, data) = chunks
            .pop()
            .ok_or_else(|| argument(format!("chunk ({cx}, {cz}) was not generated")))?;
        let f = data
            .full()
            .ok_or_else(|| argument(format!("chunk ({cx}, {cz}) was not generated")))?;
        f.blocks()
            .get(site.index as usize)
            .ok_or_else(|| argument(format!("block index {} outside the chunk", site.index)))
    }

    /// The chunks whose blocks, light or border faces edits changed since the last call
    /// (each edited chunk and the neighbours its edits reach), as `(cx, cz)` sorted.
    fn changed_chunks(&self) -> Vec<(i32, i32)> {
        lock(&self.edits)
            .edits_mut()
            .take_changed()
            .into_iter()
            .map(|p| (p.x, p.z))
            .collect()
    }

    /// The world definition's scatter layers: name, radius, density and kinds.
    #[getter]
    fn scatter_layers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::scatter::layers(py, &self.generator)
    }

    /// The scatter instances of the chunks of the inclusive rectangle (generated with the GIL
    /// released, edits applied), of every layer or of the layer named `layer`: a numpy
    /// structured array with fields `cx`, `cz` (int32), `layer`, `kind` (uint16), `position`
    /// (3 float32, relative to the chunk's corner, y the top of the ground block), `yaw`,
    /// `scale` (float32) and `up` (3 float32), by chunk, then layer.
    #[pyo3(signature = (x0, z0, x1, z1, *, layer = None, threads = None))]
    // The arguments are the Python call's: a rectangle and two keywords.
    #[allow(clippy::too_many_arguments)]
    fn scatter<'py>(
        &self,
        py: Python<'py>,
        x0: Int<i32>,
        z0: Int<i32>,
        x1: Int<i32>,
        z1: Int<i32>,
        layer: Option<&str>,
        threads: Option<Int<usize>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (x0, z0, x1, z1, threads) = (x0.0, z0.0, x1.0, z1.0, threads.map(|v| v.0));
        let world = self.generator.definition();
        let layers: Vec<usize> = match layer {
            None => (0..world.scatter.len()).collect(),
            Some(name) => match world.scatter.iter().position(|l| l.name == name) {
                Some(i) => vec![i],
                None => {
                    let names: Vec<&str> = world.scatter.iter().map(|l| l.name.as_str()).collect();
                    return Err(argument(format!(
                        "no scatter layer {name:?} (the world has: {})",
                        names.join(", ")
                    )));
                }
            },
        };
        let region = check_region((x0, z0, x1, z1), Some(MAX_REGION_CHUNKS))?;
        let chunks = self.generate(py, region, threads.unwrap_or_else(default_threads))?;
        let g = self.generator.clone();
        let bytes = py.detach(|| crate::scatter::instances(&g, &chunks, &layers));
        crate::scatter::structured(py, &bytes)
    }

    /// The edit record of chunk `(cx, cz)`: its edits with the world's identity, checksummed
    /// (a chunk without edits gives a record of none).
    fn save_edits<'py>(
        &self,
        py: Python<'py>,
        cx: Int<i32>,
        cz: Int<i32>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let (cx, cz) = (cx.0, cz.0);
        let pos = check_pos(cx, cz)?;
        let record = save_edits(&self.generator, lock(&self.edits).edits_mut(), pos);
        Ok(PyBytes::new(py, &record))
    }

    /// Apply an edit record (from `save_edits`, a file or a database), after the edits
    /// already made; returns its chunk `(cx, cz)`. A damaged or foreign record raises
    /// `StoreError` and changes nothing.
    fn load_edits(&self, record: &[u8]) -> PyResult<(i32, i32)> {
        let pos = load_edits(&self.generator, lock(&self.edits).edits_mut(), record)
            .map_err(|e| StoreError::new_err(e.to_string()))?;
        Ok((pos.x, pos.z))
    }

    fn __repr__(&self) -> String {
        format!(
            "World(seed={}, world={:?}, min_y={}, height={}, sea_level={})",
            self.seed(),
            self.name(),
            self.min_y(),
            self.height(),
            self.sea_level()
        )
    }
}

/// The machine's core count (1 if unknown).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
