//! Pregenerating past one process: a region cut into tiles in a fixed order, shards that own
//! every N-th tile, and merging shard stores into one.
//!
//! A chunk is a pure function of (definition, seed, position), so shards need no
//! coordination beyond the plan: each generates its own tiles (the scheduler generates the
//! border chunks the statuses need and discards them) into a store of its own, any process on
//! any machine, in any order, and retried at will (a shard resumes like `pregen`). Merging
//! copies rows after checking identities; a chunk two shards both hold must be byte-identical.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::{chunk_digest, Definition, WorldGen};
use stratagen_store::record;
use stratagen_store::sqlite::{ChunkStore, MergeReport};

use crate::error::HostError;
use crate::pregen::{pregen, PregenReport};
use crate::region::{generate_world, rect, rect_chunks};
use crate::stored::open_store;

/// The default tile side, in chunks: at 64 a shard's borders add about 13% more tasks but
/// almost no time (they are mostly microsecond-cheap structure starts; docs/benchmarks.md).
pub const DEFAULT_TILE: i32 = 64;

/// An inclusive chunk rectangle `(x0, z0, x1, z1)`.
pub type Rect = (i32, i32, i32, i32);

/// A region cut into square tiles of `tile` chunks a side (the last row and column of tiles
/// clipped to the region), numbered row-major from the region's minimum corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardPlan {
    region: Rect,
    tile: i32,
}

impl ShardPlan {
    /// The plan of `region` (x1 >= x0, z1 >= z0) in tiles of `tile` chunks (>= 1).
    pub fn new(region: Rect, tile: i32) -> Result<ShardPlan, HostError> {
        let (x0, z0, x1, z1) = region;
        if x1 < x0 || z1 < z0 {
            return Err(HostError::Plan(format!(
                "region {x0},{z0},{x1},{z1}: X1 must be >= X0 and Z1 >= Z0"
            )));
        }
        if tile < 1 {
            return Err(HostError::Plan(format!("tile {tile}: at least 1 chunk")));
        }
        Ok(ShardPlan { region, tile })
    }

    /// Every tile, row-major (z, then x).
    pub fn tiles(&self) -> Vec<Rect> {
        let (x0, z0, x1, z1) = self.region;
        let t = self.tile;
        let along = |a0: i32, a1: i32| {
            let n = (i64::from(a1) - i64::from(a0)) / i64::from(t) + 1;
            (0..n).map(move |k| {
                let lo = i64::from(a0) + k * i64::from(t);
                (lo as i32, (lo + i64::from(t) - 1).min(i64::from(a1)) as i32)
            })
        };
        along(z0, z1)
            .flat_map(|(tz0, tz1)| along(x0, x1).map(move |(tx0, tx1)| (tx0, tz0, tx1, tz1)))
            .collect()
    }

    /// The tiles of shard `index` of `count`: tile `k` belongs to shard `k % count`, so
    /// every shard gets tiles from every part of the region.
    pub fn shard(&self, index: usize, count: usize) -> Result<Vec<Rect>, HostError> {
        if count == 0 || index >= count {
            return Err(HostError::Plan(format!(
                "shard {index}/{count}: the index must be below the count"
            )));
        }
        Ok(self
            .tiles()
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % count == index)
            .map(|(_, t)| t)
            .collect())
    }
}

/// Pregenerate the tiles of shard `index` of `count` of `plan` into the store at `path`, one
/// tile after the other (each resumes; stored chunks of earlier tiles are loaded as
/// neighbours rather than generated again). `progress(done, total)` counts chunks stored by
/// this call over the shard.
pub fn pregen_shard(
    generator: &WorldGen,
    plan: &ShardPlan,
    (index, count): (usize, usize),
    path: &Path,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<PregenReport, HostError> {
    let tiles = plan.shard(index, count)?;
    let total = tiles.iter().map(|t| rect_chunks(*t) as usize).sum();
    let mut sum = PregenReport::default();
    for t in &tiles {
        let before = sum.generated + sum.skipped;
        let r = pregen(generator.clone(), *t, path, threads, |done, _| {
            progress(before + done, total)
        })?;
        sum.generated += r.generated;
        sum.skipped += r.skipped;
        sum.loaded += r.loaded;
        sum.tasks += r.tasks;
        sum.seconds += r.seconds;
        sum.record_bytes += r.record_bytes;
        sum.peak_holders = sum.peak_holders.max(r.peak_holders);
    }
    Ok(sum)
}

/// Merge the stores `inputs` into the store at `out` (created with the first input's world
/// if missing), one transaction per input. Each input must be of the output's world; a
/// chunk both hold must be identical byte for byte. An input that is refused changes
/// nothing; inputs merged before it stay merged, and merging them again copies nothing.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Vec<MergeReport>, HostError> {
    let first = inputs
        .first()
        .ok_or_else(|| HostError::Plan("merge: no input store".into()))?;
    let identity = *ChunkStore::open_read_only(first)
        .map_err(|e| store_error(first, e))?
        .identity();
    let mut target = ChunkStore::open(out, &identity).map_err(|e| store_error(out, e))?;
    inputs
        .iter()
        .map(|input| target.merge_from(input).map_err(|e| store_error(input, e)))
        .collect()
}

fn store_error(path: &Path, e: impl std::fmt::Display) -> HostError {
    HostError::Store(format!("{}: {e}", path.display()))
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Chunks of the region.
    pub expected: usize,
    /// Chunks of the region stored at `full`.
    pub stored: usize,
    /// Chunks of the region not stored, row-major.
    pub missing: Vec<ChunkPos>,
    /// Stored chunks regenerated and compared.
    pub sampled: usize,
    /// Sampled chunks whose stored record does not decode, or decodes to another chunk than
    /// generation gives, with why.
    pub mismatched: Vec<(ChunkPos, String)>,
}

impl VerifyReport {
    /// Every chunk stored and every sampled one equal to generation.
    pub fn ok(&self) -> bool {
        self.missing.is_empty() && self.mismatched.is_empty()
    }
}

/// Check the store at `path` (written for `world`) against the inclusive `region`: which
/// chunks are missing, and, for `sample` stored chunks spread evenly over the region, whether
/// the stored record decodes to the chunk generation gives (regenerated on `threads`
/// threads, compared by chunk digest).
pub fn verify(
    path: &Path,
    region: Rect,
    world: Arc<Definition>,
    sample: usize,
    threads: usize,
) -> Result<VerifyReport, HostError> {
    let (store, generator) = open_store(path, world)?;
    let (x0, z0, x1, z1) = region;
    let stored = store.positions_in(region, ChunkStatus::Full)?;
    let all = rect(x0, z0, x1, z1);
    let mut report = VerifyReport {
        expected: all.len(),
        stored: all.iter().filter(|p| stored.contains(p)).count(),
        missing: all
            .iter()
            .filter(|p| !stored.contains(p))
            .copied()
            .collect(),
        ..VerifyReport::default()
    };
    let present: Vec<ChunkPos> = all.into_iter().filter(|p| stored.contains(p)).collect();
    let step = present.len().div_ceil(sample.max(1)).max(1);
    let picked: Vec<ChunkPos> = present.iter().step_by(step).take(sample).copied().collect();
    report.sampled = picked.len();
    if picked.is_empty() {
        return Ok(report);
    }
    let fresh = generate_world(
        generator.clone(),
        &picked,
        ChunkStatus::Full,
        threads,
        |_, _| {},
    )?;
    for p in picked {
        let want = fresh.chunks.get(&p).map(|d| chunk_digest(d));
        let got = match store.get(p)? {
            None => Err("no longer stored".to_string()),
            Some(bytes) => record::decode(&generator, &bytes)
                .map_err(|e| e.to_string())
                .and_then(|r| {
                    r.outputs
                        .last()
                        .filter(|_| r.pos == p && r.status == ChunkStatus::Full)
                        .map(|d| chunk_digest(d))
                        .ok_or_else(|| "the row holds another chunk or status".to_string())
                }),
        };
        match (got, want) {
            (Ok(g), Some(w)) if g == w => {}
            (Ok(g), Some(w)) => report
                .mismatched
                .push((p, format!("stored digest {g:016x}, generated {w:016x}"))),
            (Ok(_), None) => report.mismatched.push((p, "not generated".to_string())),
            (Err(e), _) => report.mismatched.push((p, e)),
        }
    }
    Ok(report)
}
