//! `stratagen.Store` (a chunk store read back) and `stratagen.pregen` (filling one, resumable,
//! on the host crate's pregeneration with the GIL released, stoppable by Ctrl-C or by the
//! progress callback).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::WorldGen;
use stratagen_host::error::at;
use stratagen_host::shard::{merge as host_merge, pregen_shard, ShardPlan, DEFAULT_TILE};
use stratagen_host::stored::open_store;
use stratagen_host::{pregen as host_pregen, read_region, HostError};
use stratagen_store::sqlite::ChunkStore;
use stratagen_store::WorldIdentity;

use crate::chunk::Chunk;
use crate::definitions::resolve;
use crate::errors::{check_pos, check_region, host, Int};
use crate::world::{check_threads, default_threads, settings, MAX_REGION_CHUNKS};

/// Idle read connections a `Store` keeps for the next call.
const IDLE_CONNECTIONS: usize = 8;
/// How often a running `pregen` looks for Ctrl-C (and other signals), at most.
const SIGNAL_CHECK: Duration = Duration::from_millis(20);

/// A chunk store written by `pregen` (or `stratagen pregen`), opened read-only.
///
/// `world` must be the definition the store was written with (a preset name, a file path or
/// a document's text); the store's identity (seed, height range, sea level, definition
/// digest) is checked against it.
///
/// Every call reads on a connection of its own, taken from the idle ones (or opened) with
/// the GIL held and used with it released, so threads read at once and no lock is held
/// while the GIL is released.
#[pyclass(frozen, module = "stratagen")]
pub struct Store {
    idle: Mutex<Vec<ChunkStore>>,
    identity: WorldIdentity,
    generator: WorldGen,
    path: PathBuf,
}

impl Store {
    /// An idle connection, if one is kept (the lock is held only to pop it).
    fn idle_connection(&self) -> Option<ChunkStore> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// `f` on a read connection with the GIL released: an idle one, or one opened there.
    fn read<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&ChunkStore) -> Result<R, HostError> + Send,
    ) -> PyResult<R> {
        let idle = self.idle_connection();
        let (conn, out) = py
            .detach(|| {
                let conn = match idle {
                    Some(c) => c,
                    None => ChunkStore::open_read_only(&self.path).map_err(at(&self.path))?,
                };
                let out = f(&conn);
                Ok::<_, HostError>((conn, out))
            })
            .map_err(host)?;
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE_CONNECTIONS {
            idle.push(conn);
        }
        drop(idle);
        out.map_err(host)
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
            identity: *store.identity(),
            idle: Mutex::new(vec![store]),
            generator,
            path,
        })
    }

    /// The world the store belongs to: seed, min_y, height, sea_level, definition digest.
    #[getter]
    fn identity<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let id = self.identity;
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
        let set = self.read(py, |s| {
            s.positions(ChunkStatus::Full).map_err(at(&self.path))
        })?;
        Ok(set.into_iter().map(|p| (p.x, p.z)).collect())
    }

    /// The stored full chunk at `(cx, cz)`, decoded and checked, or None if it is not there.
    fn chunk(&self, py: Python<'_>, cx: Int<i32>, cz: Int<i32>) -> PyResult<Option<Chunk>> {
        let (cx, cz) = (cx.0, cz.0);
        let p = check_pos(cx, cz)?;
        let decoded = self.read(py, |s| {
            s.full_chunk(&self.generator, p).map_err(at(&self.path))
        })?;
        Ok(decoded.and_then(|d| {
            Chunk::new(
                d,
                self.generator.dims(),
                self.generator.definition_arc().clone(),
            )
        }))
    }

    /// The full chunks of the inclusive rectangle, row-major, with the store's edits; every
    /// one must be stored unless the store holds edits.
    fn region(
        &self,
        py: Python<'_>,
        x0: Int<i32>,
        z0: Int<i32>,
        x1: Int<i32>,
        z1: Int<i32>,
    ) -> PyResult<Vec<Chunk>> {
        let (x0, z0, x1, z1) = (x0.0, z0.0, x1.0, z1.0);
        let region = check_region((x0, z0, x1, z1), Some(MAX_REGION_CHUNKS))?;
        let definition = self.generator.definition_arc().clone();
        let read = py
            .detach(|| read_region(&self.path, region, definition))
            .map_err(host)?;
        let dims = self.generator.dims();
        let mut v: Vec<_> = read.chunks.into_iter().collect();
        v.sort_by_key(|(p, _)| (p.z, p.x));
        Ok(v.into_iter()
            .filter_map(|(_, d)| Chunk::new(d, dims, self.generator.definition_arc().clone()))
            .collect())
    }

    /// Rows in the store.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        let n = self.read(py, |s| s.count().map_err(at(&self.path)))?;
        Ok(n as usize)
    }

    fn __repr__(&self) -> String {
        format!("Store({:?})", self.path.display().to_string())
    }
}

/// The progress of a running `pregen` as Python sees it: the callback called when a chunk
/// was stored, signals looked at every [`SIGNAL_CHECK`]. The first exception (from the
/// callback, or `KeyboardInterrupt`) stops the run and is raised once it has stopped.
struct Watch {
    progress: Option<Py<PyAny>>,
    reported: usize,
    checked: Instant,
    raised: Option<PyErr>,
}

impl Watch {
    fn new(progress: Option<Py<PyAny>>) -> Watch {
        Watch {
            progress,
            reported: 0,
            checked: Instant::now(),
            raised: None,
        }
    }

    /// Called by the host after every finished task, on the thread that called `pregen`.
    fn step(&mut self, done: usize, total: usize) -> ControlFlow<()> {
        let report = self.progress.is_some() && done != self.reported;
        if !report && self.checked.elapsed() < SIGNAL_CHECK {
            return ControlFlow::Continue(());
        }
        self.checked = Instant::now();
        self.reported = done;
        let outcome = Python::attach(|py| {
            py.check_signals()?;
            match &self.progress {
                Some(cb) if report => cb.call1(py, (done, total)).map(drop),
                _ => Ok(()),
            }
        });
        match outcome {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.raised = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}

/// Generate the full chunks of the inclusive rectangle `x0..=x1` × `z0..=z1` into the SQLite
/// store at `path` (created if missing), as `stratagen pregen` does: chunks already stored
/// are skipped, and a killed run resumes where it stopped. `progress(done, total)` is called
/// after each stored chunk; an exception it raises, or Ctrl-C (`KeyboardInterrupt`), stops
/// the run within a fraction of a second, with everything generated so far stored, and is
/// raised (a rerun resumes). With `shard=(i, n)` only shard `i` of `n` is generated: the
/// region is cut into tiles of `tile` chunks a side, row-major, and shard `i` takes every
/// `n`-th tile from tile `i` (`merge` joins the shards' stores). `min_y`, `height` and
/// `sea_level` default to the library's (`DEFAULT_MIN_Y`, ...). Returns what the run did:
/// `generated`, `skipped`, `loaded`, `tasks`, `seconds`, `record_bytes`, `peak_holders`.
#[pyfunction]
#[pyo3(signature = (
    path, x0, z0, x1, z1, *, seed = Int(0), world = "default", min_y = None, height = None,
    sea_level = None, threads = None, progress = None, shard = None, tile = Int(DEFAULT_TILE)
), text_signature = "(path, x0, z0, x1, z1, *, seed=0, world='default', min_y=None, height=None, \
    sea_level=None, threads=None, progress=None, shard=None, tile=...)")]
#[allow(clippy::too_many_arguments)]
pub fn pregen<'py>(
    py: Python<'py>,
    path: PathBuf,
    x0: Int<i32>,
    z0: Int<i32>,
    x1: Int<i32>,
    z1: Int<i32>,
    seed: Int<i64>,
    world: &str,
    min_y: Option<Int<i32>>,
    height: Option<Int<u32>>,
    sea_level: Option<Int<i32>>,
    threads: Option<Int<usize>>,
    progress: Option<Py<PyAny>>,
    shard: Option<(Int<usize>, Int<usize>)>,
    tile: Int<i32>,
) -> PyResult<Bound<'py, PyDict>> {
    let (x0, z0, x1, z1, seed, min_y, height, sea_level, threads, tile) = (
        x0.0,
        z0.0,
        x1.0,
        z1.0,
        seed.0,
        min_y.map(|v| v.0),
        height.map(|v| v.0),
        sea_level.map(|v| v.0),
        threads.map(|v| v.0),
        tile.0,
    );
    let shard = shard.map(|(i, n)| (i.0, n.0));
    let region = check_region((x0, z0, x1, z1), None)?;
    let threads = check_threads(threads.unwrap_or_else(default_threads))?;
    let generator = WorldGen::with_definition(
        settings(seed, min_y, height, sea_level),
        Arc::new(resolve(world)?),
    )
    .map_err(crate::errors::world)?;
    let plan = match shard {
        Some(_) => Some(ShardPlan::new(region, tile).map_err(host)?),
        None => None,
    };
    let mut watch = Watch::new(progress);
    let report = py.detach(|| {
        let step = |done: usize, total: usize| watch.step(done, total);
        match (&plan, shard) {
            (Some(plan), Some(shard)) => {
                pregen_shard(&generator, plan, shard, &path, threads, step)
            }
            _ => host_pregen(generator, region, &path, threads, step),
        }
    });
    if let Some(e) = watch.raised.take() {
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
/// missing), one transaction per input, chunks and edits: identities are checked, and a
/// chunk or a chunk's edits both hold must be identical byte for byte (`ConflictError`
/// otherwise). A refused input changes nothing; merging again is safe. Returns per input the
/// rows `copied` and those `identical` already, and the same for edits (`edits_copied`,
/// `edits_identical`).
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
            d.set_item("edits_copied", r.edits_copied)?;
            d.set_item("edits_identical", r.edits_identical)?;
            Ok(d)
        })
        .collect()
}

/// The tiles of `region` (inclusive `(x0, z0, x1, z1)`) in tiles of `tile` chunks a side,
/// row-major: the order `pregen(shard=...)` numbers them in.
#[pyfunction]
#[pyo3(signature = (x0, z0, x1, z1, *, tile = Int(DEFAULT_TILE)))]
pub fn tiles(
    x0: Int<i32>,
    z0: Int<i32>,
    x1: Int<i32>,
    z1: Int<i32>,
    tile: Int<i32>,
) -> PyResult<Vec<(i32, i32, i32, i32)>> {
    let (x0, z0, x1, z1, tile) = (x0.0, z0.0, x1.0, z1.0, tile.0);
    let region = check_region((x0, z0, x1, z1), None)?;
    Ok(ShardPlan::new(region, tile)
        .map_err(host)?
        .tiles()
        .into_iter()
        .map(|t| t.bounds())
        .collect())
}
