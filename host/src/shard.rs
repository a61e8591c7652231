//! Pregenerating past one process: a region cut into tiles in a fixed order, shards that own
//! every N-th tile, and merging shard stores into one.
//!
//! A chunk is a pure function of (definition, seed, position), so shards need no
//! coordination beyond the plan: each generates its own tiles (the scheduler generates the
//! border chunks the statuses need and discards them) into a store of its own, any process on
//! any machine, in any order, and retried at will (a shard resumes like `pregen`). Merging
//! copies rows after checking identities; a chunk two shards both hold must be byte-identical.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_core::world::{chunk_digest, Definition, WorldGen};
use stratagen_store::edits::decode_edits;
use stratagen_store::sqlite::{ChunkStore, MergeReport};

use crate::error::{at, HostError};
use crate::pregen::{pregen, PregenReport};
use crate::region::generate_world;
use crate::stored::open_store;

/// The default tile side, in chunks: at 64 a shard's borders add about 13% more tasks but
/// almost no time (they are mostly microsecond-cheap structure starts; docs/benchmarks.md).
pub const DEFAULT_TILE: i32 = 64;

/// A region cut into square tiles of `tile` chunks a side (the last row and column of tiles
/// clipped to the region), numbered row-major from the region's minimum corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardPlan {
    region: ChunkRect,
    tile: i32,
}

impl ShardPlan {
    /// The plan of `region` in tiles of `tile` chunks (>= 1).
    pub fn new(region: ChunkRect, tile: i32) -> Result<ShardPlan, HostError> {
        if tile < 1 {
            return Err(HostError::Tile(tile));
        }
        Ok(ShardPlan { region, tile })
    }

    /// The region.
    pub fn region(&self) -> ChunkRect {
        self.region
    }

    /// Every tile, row-major (z, then x).
    pub fn tiles(&self) -> Vec<ChunkRect> {
        let (x0, z0, x1, z1) = self.region.bounds();
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
            // A tile lies inside the checked region, so it is a valid rectangle itself.
            .filter_map(|(tx0, tz0, tx1, tz1)| ChunkRect::new(tx0, tz0, tx1, tz1).ok())
            .collect()
    }

    /// The tiles of shard `index` of `count`: tile `k` belongs to shard `k % count`, so
    /// every shard gets tiles from every part of the region.
    pub fn shard(&self, index: usize, count: usize) -> Result<Vec<ChunkRect>, HostError> {
        if count == 0 || index >= count {
            return Err(HostError::Shard { index, count });
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
/// neighbours rather than generated again). `progress(done, total)` counts chunks of the
/// shard stored, by this call or before, and may stop the run as in [`pregen`].
pub fn pregen_shard(
    generator: &WorldGen,
    plan: &ShardPlan,
    (index, count): (usize, usize),
    path: &Path,
    threads: usize,
    mut progress: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<PregenReport, HostError> {
    let tiles = plan.shard(index, count)?;
    let total = tiles.iter().map(|t| t.count() as usize).sum();
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
    let first = inputs.first().ok_or(HostError::NoMergeInput)?;
    let identity = *ChunkStore::open_read_only(first)
        .map_err(at(first))?
        .identity();
    let mut target = ChunkStore::open(out, &identity).map_err(at(out))?;
    inputs
        .iter()
        .map(|input| target.merge_from(input).map_err(at(input)))
        .collect()
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
    /// Edit records checked (every one the store holds).
    pub edited: usize,
    /// Edit records that do not decode for the store's world, with why.
    pub bad_edits: Vec<(ChunkPos, String)>,
}

impl VerifyReport {
    /// Every chunk stored, every sampled one equal to generation, every edit record sound.
    pub fn ok(&self) -> bool {
        self.missing.is_empty() && self.mismatched.is_empty() && self.bad_edits.is_empty()
    }
}

/// Check the store at `path` (written for `world`) against `region`: which chunks are
/// missing; for `sample` stored chunks spread evenly over the region, whether the stored
/// record decodes to the chunk generation gives (regenerated on `threads` threads, compared
/// by chunk digest); and whether every edit record decodes for the store's world.
pub fn verify(
    path: &Path,
    region: ChunkRect,
    world: Arc<Definition>,
    sample: usize,
    threads: usize,
) -> Result<VerifyReport, HostError> {
    let (store, generator) = open_store(path, world)?;
    let stored = store
        .positions_in(region, ChunkStatus::Full)
        .map_err(at(path))?;
    let (present, missing): (Vec<ChunkPos>, Vec<ChunkPos>) =
        region.positions().partition(|p| stored.contains(p));
    let edits = store.edits().map_err(at(path))?;
    let mut report = VerifyReport {
        expected: present.len() + missing.len(),
        stored: present.len(),
        missing,
        edited: edits.len(),
        bad_edits: edits
            .iter()
            .filter_map(|(p, bytes)| match decode_edits(&generator, bytes) {
                Ok(r) if r.pos == *p => None,
                Ok(r) => Some((
                    *p,
                    format!(
                        "the row holds the edits of chunk ({}, {})",
                        r.pos.x, r.pos.z
                    ),
                )),
                Err(e) => Some((*p, e.to_string())),
            })
            .collect(),
        ..VerifyReport::default()
    };
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
        let got = match store.full_chunk(&generator, p) {
            Ok(Some(d)) => Ok(chunk_digest(&d)),
            Ok(None) => Err("no longer stored".to_string()),
            Err(e) => Err(e.to_string()),
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
