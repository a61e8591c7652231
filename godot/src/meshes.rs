//! Chunk meshes for a streamed world, built on the host's pool. A chunk is meshed when it is
//! loaded, and again when a neighbour is loaded or unloaded (its border faces depend on the
//! neighbour: a missing neighbour counts as air, so the border shows until then). The pool
//! runs [`mesh_chunk`] on shared chunk data and bakes the vertex colours
//! ([`vertex_colours`], as the glTF export draws them); the main thread only receives plain
//! arrays to wrap into engine meshes, nearest chunks first, a bounded number per batch.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use stratagen_core::engine::{ChunkPos, Scheduler};
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, Mesh, MeshError, MeshOptions};
use stratagen_core::world::{
    full_neighbourhood, ChunkData, Definition, Dims, Neighbourhood, World,
};

use crate::bridge::{FrameReport, Job, TaskPool};

/// One chunk to mesh: its 3 × 3 neighbourhood of finished chunks, shared.
struct MeshTask {
    pos: ChunkPos,
    chunks: [Option<Arc<ChunkData>>; 9],
}

/// A chunk's mesh and each surface's vertex colours (linear RGBA, indexed like
/// [`Mesh::surfaces`]), both built on the pool.
pub struct ChunkMesh {
    /// The mesh.
    pub mesh: Mesh,
    /// Per surface, one colour per vertex.
    pub colours: [Vec<[f32; 4]>; 3],
}

/// Meshes built together on the pool.
pub struct MeshBatch {
    dims: Dims,
    world: Arc<Definition>,
    options: MeshOptions,
    tasks: Vec<MeshTask>,
    results: Vec<Mutex<Option<Result<ChunkMesh, MeshError>>>>,
}

impl Job for MeshBatch {
    fn len(&self) -> usize {
        self.tasks.len()
    }
    fn run(&self, i: usize) {
        if let (Some(t), Some(slot)) = (self.tasks.get(i), self.results.get(i)) {
            let n = Neighbourhood::from_array(
                t.chunks
                    .each_ref()
                    .map(|c| c.as_deref().and_then(ChunkData::full)),
            );
            let built = mesh_chunk(&n, self.dims, &self.world.blocks, &self.options).map(|mesh| {
                // `mesh_chunk` succeeded, so the centre chunk is there.
                let biomes = n.centre().map_or([0; 16], |c| c.biomes);
                let colours = mesh
                    .surfaces
                    .each_ref()
                    .map(|s| vertex_colours(s, &self.world, &biomes));
                ChunkMesh { mesh, colours }
            });
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(built);
        }
    }
}

/// The chunks whose mesh is stale and the batch being meshed.
pub struct MeshQueue {
    options: MeshOptions,
    per_batch: usize,
    dirty: BTreeSet<ChunkPos>,
    in_flight: Option<Arc<MeshBatch>>,
}

impl MeshQueue {
    /// A queue meshing at most `per_batch` chunks per batch.
    pub fn new(options: MeshOptions, per_batch: usize) -> MeshQueue {
        MeshQueue {
            options,
            per_batch: per_batch.max(1),
            dirty: BTreeSet::new(),
            in_flight: None,
        }
    }

    /// Chunks waiting for a (new) mesh.
    pub fn pending(&self) -> usize {
        self.dirty.len() + self.in_flight.as_ref().map_or(0, |b| b.tasks.len())
    }

    /// One frame: note what the stream loaded and unloaded, collect the meshes the pool has
    /// built (for chunks still in `loaded`), and start the next batch, nearest to `viewer`
    /// first. Main thread.
    pub fn frame(
        &mut self,
        sched: &Scheduler<World>,
        dims: Dims,
        loaded: &BTreeSet<ChunkPos>,
        report: &FrameReport,
        viewer: ChunkPos,
        pool: &mut impl TaskPool,
    ) -> Vec<(ChunkPos, ChunkMesh)> {
        for p in report.loaded.iter().chain(&report.unloaded) {
            for (dx, dz) in Neighbourhood::<()>::OFFSETS {
                let q = ChunkPos::new(p.x + dx, p.z + dz);
                if loaded.contains(&q) {
                    self.dirty.insert(q);
                }
            }
        }
        let mut out = Vec::new();
        if self.in_flight.is_some() && pool.is_done() {
            if let Some(batch) = self.in_flight.take() {
                for (t, r) in batch.tasks.iter().zip(&batch.results) {
                    let r = r.lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let (Some(Ok(m)), true) = (r, loaded.contains(&t.pos)) {
                        out.push((t.pos, m));
                    }
                }
            }
        }
        self.dirty.retain(|p| loaded.contains(p));
        if self.in_flight.is_none() && !self.dirty.is_empty() {
            let mut next: Vec<ChunkPos> = self.dirty.iter().copied().collect();
            next.sort_by_key(|p| {
                let (dx, dz) = (i64::from(p.x - viewer.x), i64::from(p.z - viewer.z));
                (dx * dx + dz * dz, p.z, p.x)
            });
            next.truncate(self.per_batch);
            let tasks: Vec<MeshTask> = next
                .iter()
                .map(|&pos| MeshTask {
                    pos,
                    chunks: full_neighbourhood(sched, pos),
                })
                .collect();
            for p in &next {
                self.dirty.remove(p);
            }
            let batch = Arc::new(MeshBatch {
                dims,
                world: sched.pipeline().generator().definition_arc().clone(),
                options: self.options,
                results: tasks.iter().map(|_| Mutex::new(None)).collect(),
                tasks,
            });
            self.in_flight = Some(batch.clone());
            pool.start(batch);
        }
        out
    }

    /// Wait for the batch in flight and drop everything (the node leaves the tree).
    pub fn shut_down(&mut self, pool: &mut impl TaskPool) {
        if self.in_flight.take().is_some() {
            pool.wait();
        }
        self.dirty.clear();
    }
}
