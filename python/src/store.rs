//! `stratagen.Store` (a chunk store read back) and `stratagen.pregen` (filling one, resumable,
//! on the host crate's pregeneration with the GIL released).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::{WorldGen, WorldSettings};
use stratagen_host::shard::{merge as host_merge, pregen_shard, ShardPlan, DEFAULT_TILE};
use stratagen_host::stored::open_store;
use stratagen_host::{pregen as host_pregen, read_region};
use stratagen_store::record;
use stratagen_store::sqlite::ChunkStore;

use crate::definitions::resolve;
use crate::errors::{check_pos, check_region, host};
use crate::world::{check_threads, default_threads, Chunk, MAX_REGION_CHUNKS};
use crate::StoreError;

/// A chunk store written by `pregen` (or `stratagen pregen`), opened read-only.
///
/// `world` must be the definition the store was written with (a preset name, a file path or
/// a document's text); the store's identity (seed, height range, sea level, definition
/// digest) is checked against it.
#[pyclass(frozen, module = "stratagen")]
pub struct Store {
    store: Mutex<ChunkStore>,
    generator: WorldGen,
    path: PathBuf,
}

fn store_error(e: impl std::fmt::Display) -> PyErr {
    StoreError::new_err(format!("store: {e}"))
}

impl Store {
    fn lock(&self) -> std::sync::MutexGuard<'_, ChunkStore> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Store {
    #[new]
    #[pyo3(signature = (path, world = "default"))]
    fn new(py: Python<'_>, path: PathBuf, world: &str) -> PyResult<Self> {
        let definition = Arc::new(resolve(world)?);
        let (store, generator) = py.detach(|| open_store(&path, definition)).map_err(host)?;
        Ok(Store {
            store: Mutex::new(store),
            generator,
            path,
        })
    }

    /// The world the store belongs to: seed, min_y, height, sea_level, definition digest.
    #[getter]
    fn identity<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let id = *self.lock().identity();
        let d = PyDict::new(py);
        d.set_item("seed", id.seed)?;
        d.set_item("min_y", id.min_y)?;
        d.set_item("height", id.height)?;
        d.set_item("sea_level", id.sea_level)?;
        d.set_item("definition_digest", id.definition)?;
        Ok(d)
    }

    /// The positions of the full chunks stored, as `(x, z)` sorted by x then z.
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<(i32, i32)>> {
        let set = py
            .detach(|| self.lock().positions(ChunkStatus::Full))
            .map_err(store_error)?;
        Ok(set.into_iter().map(|p| (p.x, p.z)).collect())
    }

    /// The stored full chunk at `(cx, cz)`, decoded and checked, or None if it is not there.
    fn chunk(&self, py: Python<'_>, cx: i32, cz: i32) -> PyResult<Option<Chunk>> {
        let p = check_pos(cx, cz)?;
        let decoded = py.detach(|| -> PyResult<_> {
            let Some(bytes) = self.lock().get(p).map_err(store_error)? else {
                return Ok(None);
            };
            let r = record::decode(&self.generator, &bytes)
                .map_err(|e| store_error(format!("chunk ({cx}, {cz}): {e}")))?;
            if r.pos != p || r.status != ChunkStatus::Full {
                return Err(store_error(format!(
                    "the row of chunk ({cx}, {cz}) holds chunk ({}, {}) at {}",
                    r.pos.x,
                    r.pos.z,
                    r.status.name()
                )));
            }
            Ok(r.outputs.last().cloned())
        })?;
        Ok(decoded.and_then(|d| {
            Chunk::new(
                d,
                self.generator.dims(),
                self.generator.definition_arc().clone(),
            )
        }))
    }

    /// The full chunks of the inclusive rectangle, row-major; every one must be stored.
    fn region(&self, py: Python<'_>, x0: i32, z0: i32, x1: i32, z1: i32) -> PyResult<Vec<Chunk>> {
        check_region((x0, z0, x1, z1), Some(MAX_REGION_CHUNKS))?;
        let definition = self.generator.definition_arc().clone();
        let region = py
            .detach(|| read_region(&self.path, (x0, z0, x1, z1), definition))
            .map_err(host)?;
        let dims = self.generator.dims();
        let mut v: Vec<_> = region.chunks.into_iter().collect();
        v.sort_by_key(|(p, _)| (p.z, p.x));
        Ok(v.into_iter()
            .filter_map(|(_, d)| Chunk::new(d, dims, self.generator.definition_arc().clone()))
            .collect())
    }

    /// Rows in the store.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        let n = py.detach(|| self.lock().count()).map_err(store_error)?;
        Ok(n as usize)
    }

    fn __repr__(&self) -> String {
        format!("Store({:?})", self.path.display().to_string())
    }
}

/// Generate the full chunks of the inclusive rectangle `x0..=x1` × `z0..=z1` into the SQLite
/// store at `path` (created if missing), as `stratagen pregen` does: chunks already stored
/// are skipped, and a killed run resumes where it stopped. `progress(done, total)` is called
/// after each stored chunk. With `shard=(i, n)` only shard `i` of `n` is generated: the
/// region is cut into tiles of `tile` chunks a side, row-major, and shard `i` takes every
/// `n`-th tile from tile `i` (`merge` joins the shards' stores). Returns what the run did:
/// `generated`, `skipped`, `loaded`, `tasks`, `seconds`, `record_bytes`, `peak_holders`.
#[pyfunction]
#[pyo3(signature = (
    path, x0, z0, x1, z1, *, seed = 0, world = "default", min_y = -64, height = 384,
    sea_level = 63, threads = None, progress = None, shard = None, tile = DEFAULT_TILE
))]
#[allow(clippy::too_many_arguments)]
pub fn pregen<'py>(
    py: Python<'py>,
    path: PathBuf,
    x0: i32,
    z0: i32,
    x1: i32,
    z1: i32,
    seed: i64,
    world: &str,
    min_y: i32,
    height: u32,
    sea_level: i32,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    shard: Option<(usize, usize)>,
    tile: i32,
) -> PyResult<Bound<'py, PyDict>> {
    check_region((x0, z0, x1, z1), None)?;
    let threads = check_threads(threads.unwrap_or_else(default_threads))?;
    let settings = WorldSettings {
        seed,
        min_y,
        height,
        sea_level,
    };
    let generator = WorldGen::with_definition(settings, Arc::new(resolve(world)?))
        .map_err(crate::errors::world)?;
    // The first exception the callback raised; pregeneration goes on and it is raised after.
    let mut raised: Option<PyErr> = None;
    let region = (x0, z0, x1, z1);
    let plan = match shard {
        Some(_) => Some(ShardPlan::new(region, tile).map_err(host)?),
        None => None,
    };
    let report = py.detach(|| {
        let report = |done: usize, total: usize| {
            if let (Some(cb), None) = (&progress, &raised) {
                Python::attach(|py| {
                    if let Err(e) = cb.call1(py, (done, total)) {
                        raised = Some(e);
                    }
                });
            }
        };
        match (&plan, shard) {
            (Some(plan), Some(shard)) => {
                pregen_shard(&generator, plan, shard, &path, threads, report)
            }
            _ => host_pregen(generator, region, &path, threads, report),
        }
    });
    if let Some(e) = raised {
        return Err(e);
    }
    let r = report.map_err(host)?;
    let d = PyDict::new(py);
    let counts = [
        ("generated", r.generated),
        ("skipped", r.skipped),
        ("loaded", r.loaded),
        ("tasks", r.tasks),
        ("peak_holders", r.peak_holders),
    ];
    for (k, v) in counts {
        d.set_item(k, v)?;
    }
    d.set_item("record_bytes", r.record_bytes)?;
    d.set_item("seconds", r.seconds)?;
    Ok(d)
}

/// Merge the stores `inputs` into the store at `out` (created with the first input's world if
/// missing), one transaction per input: identities are checked, and a chunk both hold must
/// be identical byte for byte. A refused input changes nothing; merging again is safe.
/// Returns per input the rows `copied` and those `identical` already.
#[pyfunction]
pub fn merge<'py>(
    py: Python<'py>,
    out: PathBuf,
    inputs: Vec<PathBuf>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let reports = py.detach(|| host_merge(&out, &inputs)).map_err(host)?;
    reports
        .into_iter()
        .map(|r| {
            let d = PyDict::new(py);
            d.set_item("copied", r.copied)?;
            d.set_item("identical", r.identical)?;
            Ok(d)
        })
        .collect()
}

/// The tiles of `region` (inclusive `(x0, z0, x1, z1)`) in tiles of `tile` chunks a side,
/// row-major: the order `pregen(shard=...)` numbers them in.
#[pyfunction]
#[pyo3(signature = (x0, z0, x1, z1, *, tile = DEFAULT_TILE))]
pub fn tiles(x0: i32, z0: i32, x1: i32, z1: i32, tile: i32) -> PyResult<Vec<(i32, i32, i32, i32)>> {
    Ok(ShardPlan::new((x0, z0, x1, z1), tile)
        .map_err(host)?
        .tiles())
}
