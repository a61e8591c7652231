//! The body of a chunk record: the outputs of every status a chunk has reached, as
//! little-endian bytes ([`encode_body`]) and back ([`decode_body`]), checked so that a body
//! that decodes can never make a later status body panic or read out of bounds.
//!
//! Framing (magic, version, world identity, position, status, compression, checksum) is the
//! store crate's job; this module is the part that must be bit-exact and `no_std`.
//!
//! Layout: one section per status from `structure_starts` to the record's status, in ladder
//! order (`empty` and `full` have no section: the full chunk is rebuilt from the others),
//! every integer little-endian, every list prefixed by its `u32` length:
//!
//! - `structure_starts`: starts; per start kind `u8`, chunk x, z `i32`, biome `u8`,
//!   assembled `u8` (0 or 1), and if assembled: pieces (kind `u8`, box min/max `i32` × 6,
//!   ends `i32` × 4), the box (`i32` × 6), links (`u16` × 2), entities, the witness `u64`.
//! - `structure_references`: per reference start x, z `i32`, kind `u8`.
//! - `biomes`: the 16 biome bytes, the climate witness `u64`.
//! - `terrain`: the blocks (`u16` × volume), the world-surface and ocean-floor heightmaps
//!   (`i32` × 256 each), the witness `u64`.
//! - `features`: changes (index `u32`, block `u16`), the nine outbound lists in
//!   [`Neighbourhood`] order (same entries), protected indices (`u32`), block entities, the
//!   witness `u64`.
//! - `initialize_light`: the blocks that inbound patches changed, as (index `u32`, block
//!   `u16`) against the feature blocks, ascending index. Heightmaps and block entities are
//!   derived exactly as the status body derives them.
//! - `light`: the sky and block nibble arrays (volume / 2 bytes each).
//! - `spawn`: per request kind `u16`, x, y, z `i32`, group `u8`.
//!
//! A block entity is x, y, z `i32`, kind `u16`, data `u32`.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::engine::{ChunkPos, ChunkStatus};
use crate::util::bytes::{Cursor, LeReader};
use crate::world::block::BlockId;
use crate::world::chunk::{ChunkData, FullChunk, Merged};
use crate::world::definition::Definition;
use crate::world::dims::Dims;
use crate::world::feature::{BlockEntity, FeatureChunk};
use crate::world::heightmap::Heightmaps;
use crate::world::light::{self, LightData};
use crate::world::neighbourhood::Neighbourhood;
use crate::world::sections::{Sections, SECTION_VOLUME};
use crate::world::spawn::SpawnRequest;
use crate::world::terrain::TerrainChunk;

mod reader;
mod writer;

use reader::Reader;
use writer::Writer;

/// Largest block coordinate a record may hold in x or z: the chunk range (2^21 chunks) in
/// blocks, plus a margin for structure boxes that reach past the last chunk.
const COORD_LIMIT: i32 = (ChunkPos::LIMIT + 64) * 16;
/// Bytes reserved beyond the fixed-size arrays for a body's lists (changes, patches,
/// structures, spawns): enough for every chunk of the default world measured.
const BODY_SLACK: usize = 64 << 10;
/// Most entries any list of a body may declare: far above what a chunk produces, low enough
/// that a forged length cannot ask for an absurd allocation before the bytes run out.
const MAX_LIST: u32 = 1 << 22;

/// Why a record body was refused: the section (a status name) and the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyError {
    /// The status whose section is at fault (`"record"` for the body as a whole).
    pub section: &'static str,
    /// What is wrong.
    pub problem: &'static str,
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record body, section {}: {}", self.section, self.problem)
    }
}

/// Serialise the outputs `outputs[0..=status]` (index = status) of one chunk. Every output
/// must be of its status's kind (as the scheduler stores them); a mismatch is an error, not
/// a panic.
pub fn encode_body(dims: &Dims, outputs: &[Arc<ChunkData>]) -> Result<Vec<u8>, BodyError> {
    let mut out = Vec::new();
    encode_body_into(dims, outputs, &mut out)?;
    Ok(out)
}

/// [`encode_body`] into `out` (cleared first), so a writer can reuse one buffer.
pub fn encode_body_into(
    dims: &Dims,
    outputs: &[Arc<ChunkData>],
    out: &mut Vec<u8>,
) -> Result<(), BodyError> {
    out.clear();
    // Terrain blocks and the two light arrays, plus room for the lists: no regrowth.
    out.reserve(dims.volume() * 3 + BODY_SLACK);
    let mut w = Writer(out);
    let mut features: Option<&FeatureChunk> = None;
    for (i, out) in outputs.iter().enumerate() {
        let status = ChunkStatus::from_index(i).ok_or(BodyError {
            section: "record",
            problem: "more outputs than statuses",
        })?;
        let bad = BodyError {
            section: status.name(),
            problem: "output of the wrong kind",
        };
        match (status, &**out) {
            (ChunkStatus::Empty, ChunkData::Empty) => {}
            (ChunkStatus::StructureStarts, ChunkData::StructureStarts(v)) => {
                w.len(v.len());
                for s in v {
                    w.start(s);
                }
            }
            (ChunkStatus::StructureReferences, ChunkData::StructureReferences(v)) => {
                w.len(v.len());
                for r in v {
                    w.reference(r);
                }
            }
            (ChunkStatus::Biomes, ChunkData::Biomes(b, witness)) => {
                w.0.extend_from_slice(b);
                w.u64(*witness);
            }
            (ChunkStatus::Terrain, ChunkData::Terrain(t)) => {
                w.sections(&t.blocks);
                w.i32s(&t.world_surface);
                w.i32s(&t.ocean_floor);
                w.u64(t.witness);
            }
            (ChunkStatus::Features, ChunkData::Features(f)) => {
                w.changes(&f.changes);
                for k in 0..9 {
                    w.changes(f.outbound.at(k));
                }
                w.len(f.protected.len());
                for &i in &f.protected {
                    w.u32(i);
                }
                w.entities(&f.block_entities);
                w.u64(f.witness);
                features = Some(f);
            }
            (ChunkStatus::InitializeLight, ChunkData::InitializeLight(m)) => {
                let f = features.ok_or(bad)?;
                let terrain = f.terrain.terrain().ok_or(bad)?;
                w.changes(&patched(&terrain.blocks, &f.changes, &m.blocks));
            }
            (ChunkStatus::Light, ChunkData::Light(l)) => {
                light::for_each_nibble_run(&l.sky, |b| w.0.extend_from_slice(b));
                light::for_each_nibble_run(&l.block, |b| w.0.extend_from_slice(b));
            }
            (ChunkStatus::Spawn, ChunkData::Spawn(v)) => {
                w.len(v.len());
                for s in v {
                    w.u16(s.kind);
                    w.i32s(&s.pos);
                    w.0.push(s.group);
                }
            }
            (ChunkStatus::Full, ChunkData::Full(_)) => {}
            _ => return Err(bad),
        }
    }
    Ok(())
}

/// Rebuild the outputs of statuses `empty..=status` of the chunk at `pos` from a body written
/// by [`encode_body`], sharing data between them exactly as generation does. Every value is
/// checked (block, biome, creature and structure ids, block indices inside the chunk,
/// coordinates inside the world's range, heightmaps inside the world, list lengths, no bytes
/// left over), so a body that decodes is safe to generate from.
pub fn decode_body(
    dims: &Dims,
    world: &Definition,
    pos: ChunkPos,
    status: ChunkStatus,
    body: &[u8],
) -> Result<Vec<Arc<ChunkData>>, BodyError> {
    let mut r = Reader {
        bytes: Cursor::new(body),
        section: "record",
        blocks: world.blocks.len(),
        biomes: world.biomes.len(),
        creatures: world.creatures.len(),
    };
    let volume = dims.volume();
    let mut out: Vec<Arc<ChunkData>> = Vec::with_capacity(status.index() + 1);
    let mut biomes = [0u8; 16];
    let mut feature_blocks: Vec<BlockId> = Vec::new();
    let mut feature_entities: Vec<BlockEntity> = Vec::new();
    for s in ChunkStatus::ALL.iter().take(status.index() + 1) {
        r.section = s.name();
        let data = match s {
            ChunkStatus::Empty => ChunkData::Empty,
            ChunkStatus::StructureStarts => {
                let n = r.len()?;
                let mut v = Vec::new();
                for _ in 0..n {
                    v.push(r.start()?);
                }
                ChunkData::StructureStarts(v)
            }
            ChunkStatus::StructureReferences => ChunkData::StructureReferences(r.references()?),
            ChunkStatus::Biomes => {
                biomes.copy_from_slice(r.take(16)?);
                if biomes.iter().any(|&b| b as usize >= r.biomes) {
                    return Err(r.bad("unknown biome id"));
                }
                ChunkData::Biomes(biomes, r.u64()?)
            }
            ChunkStatus::Terrain => {
                let blocks = r.blocks(volume)?;
                let world_surface = r.heightmap(dims)?;
                let ocean_floor = r.heightmap(dims)?;
                ChunkData::Terrain(Box::new(TerrainChunk {
                    blocks: Sections::from_dense(&blocks),
                    world_surface,
                    ocean_floor,
                    witness: r.u64()?,
                }))
            }
            ChunkStatus::Features => {
                let changes = r.changes(volume, true)?;
                let mut outbound = Neighbourhood::from_fn(|_, _| Vec::new());
                for k in 0..9 {
                    let list = r.changes(volume, false)?;
                    if k == Neighbourhood::<()>::CENTRE && !list.is_empty() {
                        return Err(r.bad("outbound writes to the chunk itself"));
                    }
                    *outbound.at_mut(k) = list;
                }
                let n = r.len()?;
                let mut protected = Vec::with_capacity(n);
                for _ in 0..n {
                    protected.push(r.index(volume)?);
                }
                if protected.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(r.bad("protected indices not ascending"));
                }
                let block_entities = r.entities()?;
                let f = FeatureChunk {
                    terrain: out[ChunkStatus::Terrain.index()].clone(),
                    changes,
                    outbound,
                    protected,
                    block_entities,
                    witness: r.u64()?,
                };
                feature_blocks = f.blocks();
                feature_entities = f.block_entities.clone();
                ChunkData::Features(Box::new(f))
            }
            ChunkStatus::InitializeLight => {
                let mut blocks = core::mem::take(&mut feature_blocks);
                for (i, b) in r.changes(volume, true)? {
                    // The writer lists only the blocks patches changed; a patch that changes
                    // nothing has no encoding of its own, so one record has one body.
                    if blocks[i as usize] == b {
                        return Err(r.bad("a patch that changes nothing"));
                    }
                    blocks[i as usize] = b;
                }
                let heightmaps = Heightmaps::of(dims, &world.blocks, &blocks);
                ChunkData::InitializeLight(Box::new(Merged {
                    blocks: Sections::from_dense(&blocks),
                    heightmaps,
                    block_entities: core::mem::take(&mut feature_entities),
                }))
            }
            ChunkStatus::Light => {
                let sky = r.take(volume / 2)?;
                let block = r.take(volume / 2)?;
                ChunkData::Light(Box::new(LightData::from_nibbles(volume, sky, block)))
            }
            ChunkStatus::Spawn => {
                let n = r.len()?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    let kind = r.u16()?;
                    if kind as usize >= r.creatures {
                        return Err(r.bad("unknown creature kind"));
                    }
                    let pos = r.coords()?;
                    let group = r.u8()?;
                    if !(1..=4).contains(&group) {
                        return Err(r.bad("spawn group outside 1..=4"));
                    }
                    v.push(SpawnRequest { kind, pos, group });
                }
                ChunkData::Spawn(v)
            }
            ChunkStatus::Full => {
                let spawns = match &*out[ChunkStatus::Spawn.index()] {
                    ChunkData::Spawn(v) => v.clone(),
                    _ => Vec::new(),
                };
                let structures = match &*out[ChunkStatus::StructureReferences.index()] {
                    ChunkData::StructureReferences(v) => v.clone(),
                    _ => Vec::new(),
                };
                ChunkData::Full(Box::new(FullChunk::new(
                    pos,
                    biomes,
                    out[ChunkStatus::InitializeLight.index()].clone(),
                    out[ChunkStatus::Light.index()].clone(),
                    spawns,
                    structures,
                )))
            }
        };
        out.push(Arc::new(data));
    }
    if !r.bytes.at_end() {
        r.section = "record";
        return Err(r.bad("bytes left after the last section (the status does not match)"));
    }
    Ok(out)
}

/// The blocks where `merged` differs from `terrain` with `changes` (sorted by index) applied,
/// as (index, merged block), ascending: what inbound patches changed. A section stored alike
/// in both and without changes is skipped unread (most are: patches touch a few sections);
/// any other decodes both sides and compares them in runs.
fn patched(
    terrain: &Sections,
    changes: &[(u32, BlockId)],
    merged: &Sections,
) -> Vec<(u32, BlockId)> {
    let mut out = Vec::new();
    let mut next_change = 0;
    let mut own = [0u16; SECTION_VOLUME];
    let mut theirs = [0u16; SECTION_VOLUME];
    let sections = core::cmp::min(terrain.section_count(), merged.section_count());
    for s in 0..sections {
        let (t, m) = (terrain.section(s), merged.section(s));
        let n = core::cmp::min(t.len(), m.len());
        let base = s * SECTION_VOLUME;
        let end = (base + n) as u32;
        let first = next_change;
        next_change = first + changes[first..].partition_point(|c| c.0 < end);
        if first == next_change && t == m {
            continue;
        }
        t.decode_into(&mut own[..n]);
        m.decode_into(&mut theirs[..n]);
        patched_runs(
            base,
            &own[..n],
            &changes[first..next_change],
            &theirs[..n],
            &mut out,
        );
    }
    out
}

/// [`patched`] over dense entries from index `base`, `changes` those inside them: compares
/// in runs so the common case, equal runs, costs a slice comparison.
fn patched_runs(
    base: usize,
    terrain: &[BlockId],
    changes: &[(u32, BlockId)],
    merged: &[BlockId],
    out: &mut Vec<(u32, BlockId)>,
) {
    const RUN: usize = 64;
    let mut next_change = 0;
    for (r, (t, m)) in terrain.chunks(RUN).zip(merged.chunks(RUN)).enumerate() {
        let base = base + r * RUN;
        let end = (base + t.len()) as u32;
        let first = next_change;
        next_change = first + changes[first..].partition_point(|c| c.0 < end);
        if t == m && first == next_change {
            continue;
        }
        let mut k = first;
        for (j, (&tb, &mb)) in t.iter().zip(m).enumerate() {
            let i = (base + j) as u32;
            let mut own = tb;
            if k < next_change && changes[k].0 == i {
                own = changes[k].1;
                k += 1;
            }
            if mb != own {
                out.push((i, mb));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::JavaRandom;

    /// The section- and run-skipping diff equals the plain definition: apply the changes to
    /// the terrain, list every index where the merged blocks differ. Arrays of several
    /// sections, some uniform, most left alike by the merge.
    #[test]
    fn patched_equals_the_plain_diff() {
        let mut rng = JavaRandom::new(11);
        for case in 0..200 {
            let n = SECTION_VOLUME * (1 + rng.next_int_bounded(4) as usize)
                + 64 * rng.next_int_bounded(64) as usize
                + rng.next_int_bounded(64) as usize;
            let uniform = rng.next_int_bounded(4) as u16;
            let terrain: Vec<BlockId> = (0..n)
                .map(|i| {
                    if (i / SECTION_VOLUME) % 2 == 0 {
                        uniform
                    } else {
                        rng.next_int_bounded(4) as u16
                    }
                })
                .collect();
            let mut changes: Vec<(u32, BlockId)> = (0..rng.next_int_bounded(30))
                .map(|_| {
                    (
                        rng.next_int_bounded(n as i32) as u32,
                        rng.next_int_bounded(4) as u16,
                    )
                })
                .collect();
            changes.sort();
            changes.dedup_by_key(|c| c.0);
            let mut own = terrain.clone();
            for &(i, b) in &changes {
                own[i as usize] = b;
            }
            let mut merged = own.clone();
            for _ in 0..rng.next_int_bounded(case % 50 + 1) {
                let i = rng.next_int_bounded(n as i32) as usize;
                merged[i] = rng.next_int_bounded(5) as u16;
            }
            let plain: Vec<(u32, BlockId)> = merged
                .iter()
                .zip(&own)
                .enumerate()
                .filter(|(_, (m, o))| m != o)
                .map(|(i, (&m, _))| (i as u32, m))
                .collect();
            let (terrain, merged) = (
                Sections::from_dense(&terrain),
                Sections::from_dense(&merged),
            );
            assert_eq!(patched(&terrain, &changes, &merged), plain, "case {}", case);
        }
    }
}
