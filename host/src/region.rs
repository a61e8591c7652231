//! Generating a region of chunks to a status, with timings, and its digests.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Retention, Scheduler};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::{status_digest, ChunkData, World, WorldGen, WorldSettings};

use crate::driver::drive_timed;
use crate::error::HostError;

/// A generated region: full chunks by position.
pub struct Region {
    /// The generator.
    pub generator: WorldGen,
    /// Chunks by position (`ChunkPos` orders by x, then z; [`Region::digests`] gives
    /// row-major order).
    pub chunks: BTreeMap<ChunkPos, Arc<ChunkData>>,
    /// Tasks run.
    pub tasks: usize,
    /// Wall time in seconds, from the first request to the last finished task.
    pub seconds: f64,
    /// Seconds spent in each status body, summed over threads.
    pub status_seconds: [f64; ChunkStatus::COUNT],
    /// Tasks run per status.
    pub status_tasks: [u64; ChunkStatus::COUNT],
    /// The structure starts referenced by the region's chunks.
    pub starts: Vec<stratagen_core::world::structure::StructureStart>,
    /// Most chunk holders resident at once.
    pub peak_holders: usize,
}

impl Region {
    /// Per-chunk digests (of the generated status; `chunk_digest` for full) in row-major
    /// order (z, then x).
    pub fn digests(&self) -> Vec<(ChunkPos, u64)> {
        let mut v: Vec<(ChunkPos, u64)> = self
            .chunks
            .iter()
            .map(|(p, d)| (*p, status_digest(d)))
            .collect();
        v.sort_by_key(|(p, _)| (p.z, p.x));
        v
    }

    /// The region digest: XXH64 over the per-chunk digests (`u64` LE) in row-major order.
    pub fn digest(&self) -> u64 {
        let mut h = Digest::new();
        for (_, d) in self.digests() {
            h.write_u64(d);
        }
        h.finish()
    }
}

/// Generate `positions` to `status` on `threads` threads (0: inline), requesting them in the
/// given order.
pub fn generate(
    def: WorldSettings,
    positions: &[ChunkPos],
    status: ChunkStatus,
    threads: usize,
    progress: impl FnMut(usize, usize),
) -> Result<Region, HostError> {
    generate_world(WorldGen::new(def)?, positions, status, threads, progress)
}

/// [`generate`] for any world (`generator` carries its definition).
pub fn generate_world(
    generator: WorldGen,
    positions: &[ChunkPos],
    status: ChunkStatus,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<Region, HostError> {
    let mut s = Scheduler::with_id(Arc::new(World::new(generator.clone())), 1);
    // A region hands out the requested status's outputs only: finished chunks need not keep
    // the rest.
    s.set_retention(Retention::FullChunks);
    // The requests are part of the work (about 3% of a cold fill): timed from the first.
    let t0 = Instant::now();
    for p in positions {
        s.request(*p, status, Priority::Soon)?;
    }
    let expected = s.ready_count();
    let times = Mutex::new([0.0; ChunkStatus::COUNT]);
    let tasks = drive_timed(&mut s, threads, |n| progress(n, expected), &times)?;
    let seconds = t0.elapsed().as_secs_f64();
    let status_seconds = *times.lock().unwrap_or_else(|e| e.into_inner());
    let status_tasks = s.stats().done;
    let mut starts = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for p in positions {
        if let Some(f) = s
            .output(*p, status)
            .as_deref()
            .and_then(|d| d.full().cloned())
        {
            for r in &f.structures {
                if seen.insert((r.start, r.kind)) {
                    if let Some(d) = s.output(r.start, ChunkStatus::StructureStarts) {
                        if let ChunkData::StructureStarts(v) = &*d {
                            starts.extend(v.iter().filter(|x| x.kind == r.kind).cloned());
                        }
                    }
                }
            }
        }
    }
    let mut chunks = BTreeMap::new();
    for p in positions {
        let d = s
            .output(*p, status)
            .ok_or(HostError::NotReached { pos: *p, status })?;
        chunks.insert(*p, d);
    }
    Ok(Region {
        generator,
        chunks,
        tasks,
        seconds,
        status_seconds,
        status_tasks,
        starts,
        peak_holders: s.stats().peak_holders,
    })
}

/// The positions of the square of chunks within `radius` of `center`, row-major (a list of
/// positions to generate; a region that reaches a driver or store is a [`ChunkRect`]).
///
/// [`ChunkRect`]: stratagen_core::engine::ChunkRect
pub fn square(center: (i32, i32), radius: i32) -> Vec<ChunkPos> {
    rect(
        center.0 - radius,
        center.1 - radius,
        center.0 + radius,
        center.1 + radius,
    )
}

/// The positions of the inclusive rectangle `x0..=x1` × `z0..=z1`, row-major (z, then x);
/// none when it is inverted.
pub fn rect(x0: i32, z0: i32, x1: i32, z1: i32) -> Vec<ChunkPos> {
    (z0..=z1)
        .flat_map(|z| (x0..=x1).map(move |x| ChunkPos::new(x, z)))
        .collect()
}
