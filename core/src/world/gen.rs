//! The world: a validated [`WorldDef`], the per-world generator state ([`WorldGen`]), the
//! output of each status ([`ChunkData`]) and the [`Pipeline`] that runs the status bodies.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::{BodyError, Pipeline, View};
use crate::noise::NoiseError;
use crate::world::biome::{BiomeId, ClimateSampler};
use crate::world::block::BlockId;
use crate::world::dims::Dims;
use crate::world::feature::{self, BlockEntity, FeatureChunk, FeatureInput, Writer};
use crate::world::light::{self, LightData};
use crate::world::spawn::{self, SpawnRequest};
use crate::world::structure::{self, StructureKind, StructureRef, StructureStart};
use crate::world::terrain::{self, TerrainChunk, TerrainInput, TerrainNoises};

/// World settings, plain data with documented defaults ([`WorldDef::default`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldDef {
    /// World seed. Default 0.
    pub seed: i64,
    /// Lowest block y, a multiple of 16 in `-2048..=2032`. Default −64.
    pub min_y: i32,
    /// Height in blocks, a multiple of 16 in `16..=4096`, with `min_y + height <= 2048`.
    /// Default 384.
    pub height: u32,
    /// Sea level (y of the top water block), inside the world. Default 63.
    pub sea_level: i32,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            seed: 0,
            min_y: -64,
            height: 384,
            sea_level: 63,
        }
    }
}

/// Why a world definition was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WorldError {
    /// `min_y` not a multiple of 16 or outside `-2048..=2032`.
    MinY(i32),
    /// `height` not a multiple of 16 or outside `16..=4096`, or the top above 2048.
    Height(u32),
    /// `sea_level` outside `min_y..min_y + height`.
    SeaLevel(i32),
    /// A noise failed to build (a bug in the built-in constants).
    Noise(NoiseError),
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::MinY(v) => {
                write!(f, "min_y {} must be a multiple of 16 in -2048..=2032", v)
            }
            WorldError::Height(v) => write!(
                f,
                "height {} must be a multiple of 16 in 16..=4096 with min_y + height <= 2048",
                v
            ),
            WorldError::SeaLevel(v) => write!(f, "sea_level {} must lie inside the world", v),
            WorldError::Noise(e) => write!(f, "noise: {}", e),
        }
    }
}

/// The generator of one world: validated settings and every noise, built once and shared
/// read-only by all tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldGen {
    def: WorldDef,
    dims: Dims,
    climate: ClimateSampler,
    terrain: TerrainNoises,
}

impl WorldGen {
    /// Validate `def` and build the noises.
    pub fn new(def: WorldDef) -> Result<Self, WorldError> {
        if def.min_y % 16 != 0 || !(-2048..=2032).contains(&def.min_y) {
            return Err(WorldError::MinY(def.min_y));
        }
        if def.height % 16 != 0
            || !(16..=4096).contains(&def.height)
            || i64::from(def.min_y) + i64::from(def.height) > 2048
        {
            return Err(WorldError::Height(def.height));
        }
        if def.sea_level < def.min_y
            || i64::from(def.sea_level) >= i64::from(def.min_y) + i64::from(def.height)
        {
            return Err(WorldError::SeaLevel(def.sea_level));
        }
        Ok(WorldGen {
            def,
            dims: Dims {
                min_y: def.min_y,
                height: def.height,
                sea_level: def.sea_level,
            },
            climate: ClimateSampler::new(def.seed).map_err(WorldError::Noise)?,
            terrain: TerrainNoises::new(def.seed).map_err(WorldError::Noise)?,
        })
    }

    /// The settings.
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    /// Dimensions.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The climate noises.
    pub fn climate(&self) -> &ClimateSampler {
        &self.climate
    }

    /// The biome at block column `(x, z)` (a pure function of seed and position).
    pub fn biome_at(&self, x: i32, z: i32) -> BiomeId {
        self.climate.biome_at(x, z)
    }

    /// The `biomes` body: the biome of each 4 × 4 cell of a chunk (index `cz * 4 + cx`).
    pub fn biomes(&self, pos: ChunkPos) -> [BiomeId; 16] {
        let mut out = [0; 16];
        for cz in 0..4 {
            for cx in 0..4 {
                out[cz * 4 + cx] =
                    self.biome_at(pos.block_x() + 4 * cx as i32, pos.block_z() + 4 * cz as i32);
            }
        }
        out
    }
    /// The witness of the `biomes` body: XXH64 of the five climate values (f64 bits) at each
    /// cell centre.
    pub fn climate_witness(&self, pos: ChunkPos) -> u64 {
        let mut h = crate::util::digest::Digest::new();
        for cz in 0..4 {
            for cx in 0..4 {
                let x = f64::from(pos.block_x() + 4 * cx) + 2.0;
                let z = f64::from(pos.block_z() + 4 * cz) + 2.0;
                let c = self.climate.sample(x, z);
                for v in [
                    c.temperature,
                    c.humidity,
                    c.continentalness,
                    c.erosion,
                    c.weirdness,
                ] {
                    h.write_f64(v);
                }
            }
        }
        h.finish()
    }

    /// The inputs of the terrain body for a chunk with these biomes.
    pub fn terrain_input<'a>(&'a self, biomes: &'a [BiomeId; 16]) -> TerrainInput<'a> {
        TerrainInput {
            seed: self.def.seed,
            dims: self.dims,
            climate: &self.climate,
            noises: &self.terrain,
            biomes,
            beard: &[],
        }
    }

    /// The `terrain` body.
    pub fn terrain(&self, pos: ChunkPos, biomes: &[BiomeId; 16]) -> TerrainChunk {
        terrain::generate(&self.terrain_input(biomes), pos)
    }
}

/// The merged blocks of `initialize_light`: own feature writes plus inbound patches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Block ids, index `((y - min_y) * 16 + z) * 16 + x`.
    pub blocks: Vec<BlockId>,
    /// World surface, ocean floor, motion blocking, motion blocking without leaves
    /// (index `z * 16 + x`; `y + 1` of the top block of that kind).
    pub heightmaps: [[i32; 256]; 4],
    /// Block entities inside the chunk.
    pub block_entities: Vec<BlockEntity>,
}

/// A finished chunk: shares the outputs of the statuses it was built from.
#[derive(Clone, Debug, PartialEq)]
pub struct FullChunk {
    /// Position.
    pub pos: ChunkPos,
    /// Biomes per 4 × 4 cell (index `cz * 4 + cx`).
    pub biomes: [BiomeId; 16],
    merged: Arc<ChunkData>,
    light: Arc<ChunkData>,
    /// Spawn requests.
    pub spawns: Vec<SpawnRequest>,
    /// Structure references.
    pub structures: Vec<StructureRef>,
}

static EMPTY_LIGHT: LightData = LightData {
    sky: Vec::new(),
    block: Vec::new(),
};
static EMPTY_MERGED: [[i32; 256]; 4] = [[0; 256]; 4];

impl FullChunk {
    fn merged(&self) -> Option<&Merged> {
        match &*self.merged {
            ChunkData::InitializeLight(m) => Some(m),
            _ => None,
        }
    }
    /// Block ids (index `((y - min_y) * 16 + z) * 16 + x`).
    pub fn blocks(&self) -> &[BlockId] {
        self.merged().map_or(&[], |m| &m.blocks)
    }
    /// The four heightmaps (world surface, ocean floor, motion blocking, motion blocking
    /// without leaves).
    pub fn heightmaps(&self) -> &[[i32; 256]; 4] {
        self.merged().map_or(&EMPTY_MERGED, |m| &m.heightmaps)
    }
    /// Block entities.
    pub fn block_entities(&self) -> &[BlockEntity] {
        self.merged().map_or(&[], |m| &m.block_entities)
    }
    /// Sky and block light.
    pub fn light(&self) -> &LightData {
        match &*self.light {
            ChunkData::Light(l) => l,
            _ => &EMPTY_LIGHT,
        }
    }
}

/// The output of one status of one chunk.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkData {
    /// `empty`.
    Empty,
    /// `structure_starts`: the starts whose candidate chunk this is (assembled or rejected).
    StructureStarts(Vec<StructureStart>),
    /// `structure_references`: the assembled starts within 8 chunks whose box touches this one.
    StructureReferences(Vec<StructureRef>),
    /// `biomes`: per 4 × 4 cell, index `cz * 4 + cx`, and the witness of the climate values
    /// (XXH64 of the five climate parameters per cell, so a one-ulp change shows).
    Biomes([BiomeId; 16], u64),
    /// `terrain`.
    Terrain(Box<TerrainChunk>),
    /// `features`: own blocks after decoration, outbound patches.
    Features(Box<FeatureChunk>),
    /// `initialize_light`: the merged blocks and the four heightmaps.
    InitializeLight(Box<Merged>),
    /// `light`.
    Light(Box<LightData>),
    /// `spawn`.
    Spawn(Vec<SpawnRequest>),
    /// `full`.
    Full(Box<FullChunk>),
}

impl ChunkData {
    /// The terrain output, if this is one.
    pub fn terrain(&self) -> Option<&TerrainChunk> {
        match self {
            ChunkData::Terrain(t) => Some(t),
            _ => None,
        }
    }

    /// The biome grid, if this is a `biomes` output.
    pub fn biomes(&self) -> Option<&[BiomeId; 16]> {
        match self {
            ChunkData::Biomes(b, _) => Some(b),
            _ => None,
        }
    }

    /// Blocks, world-surface and ocean-floor heightmaps of a `terrain` or `full` output.
    pub fn surface(&self) -> Option<(&[BlockId], &[i32; 256], &[i32; 256])> {
        match self {
            ChunkData::Terrain(t) => Some((&t.blocks, &t.world_surface, &t.ocean_floor)),
            ChunkData::Full(f) => Some((f.blocks(), &f.heightmaps()[0], &f.heightmaps()[1])),
            _ => None,
        }
    }

    /// The finished chunk, if this is a `full` output.
    pub fn full(&self) -> Option<&FullChunk> {
        match self {
            ChunkData::Full(f) => Some(f),
            _ => None,
        }
    }
}

fn wrong(_: &ChunkData) -> BodyError {
    BodyError::Failed("input of the wrong kind")
}

/// The world pipeline: runs each status body of [`WorldGen`].
#[derive(Debug)]
pub struct World {
    gen: WorldGen,
}

impl World {
    /// A pipeline for `gen`.
    pub fn new(gen: WorldGen) -> Self {
        World { gen }
    }

    /// The generator.
    pub fn gen(&self) -> &WorldGen {
        &self.gen
    }
}

fn neighbourhood<'v, T: ?Sized>(
    view: &View<'v, ChunkData>,
    status: ChunkStatus,
    pick: impl Fn(&'v ChunkData) -> Option<&'v T>,
) -> Result<[Option<&'v T>; 9], BodyError> {
    let mut out: [Option<&'v T>; 9] = [None; 9];
    for dz in -1..=1 {
        for dx in -1..=1 {
            let d = view.get(dx, dz, status)?;
            out[((dz + 1) * 3 + (dx + 1)) as usize] = Some(pick(d).ok_or_else(|| wrong(d))?);
        }
    }
    Ok(out)
}

/// The starts referenced by this chunk, read from the chunks that own them (within 8).
fn referenced_starts<'v>(
    view: &View<'v, ChunkData>,
    pos: ChunkPos,
) -> Result<Vec<(StructureRef, &'v StructureStart)>, BodyError> {
    let refs = match view.get(0, 0, ChunkStatus::StructureReferences)? {
        ChunkData::StructureReferences(r) => r,
        other => return Err(wrong(other)),
    };
    let mut out = Vec::new();
    for r in refs {
        let starts = match view.get(
            r.start.x - pos.x,
            r.start.z - pos.z,
            ChunkStatus::StructureStarts,
        )? {
            ChunkData::StructureStarts(v) => v,
            other => return Err(wrong(other)),
        };
        if let Some(s) = starts.iter().find(|s| s.kind == r.kind) {
            out.push((*r, s));
        }
    }
    Ok(out)
}

impl Pipeline for World {
    type Output = ChunkData;

    fn run(
        &self,
        status: ChunkStatus,
        pos: ChunkPos,
        view: &View<'_, ChunkData>,
    ) -> Result<ChunkData, BodyError> {
        let g = &self.gen;
        let biomes_here = || -> Result<&[BiomeId; 16], BodyError> {
            let b = view.get(0, 0, ChunkStatus::Biomes)?;
            b.biomes().ok_or_else(|| wrong(b))
        };
        Ok(match status {
            ChunkStatus::Empty => ChunkData::Empty,
            ChunkStatus::StructureStarts => {
                ChunkData::StructureStarts(structure::starts(g.def.seed, &g.dims, &g.climate, pos))
            }
            ChunkStatus::StructureReferences => {
                let mut all = Vec::new();
                for dz in -8..=8 {
                    for dx in -8..=8 {
                        match view.get(dx, dz, ChunkStatus::StructureStarts)? {
                            ChunkData::StructureStarts(v) => all.extend(v.iter()),
                            other => return Err(wrong(other)),
                        }
                    }
                }
                ChunkData::StructureReferences(structure::references(pos, all.into_iter()))
            }
            ChunkStatus::Biomes => ChunkData::Biomes(g.biomes(pos), g.climate_witness(pos)),
            ChunkStatus::Terrain => {
                let mut beard = Vec::new();
                for (r, s) in referenced_starts(view, pos)? {
                    if r.kind == StructureKind::Watchtower {
                        structure::beard_boxes(s, pos, &mut beard);
                    }
                }
                let biomes = biomes_here()?;
                let mut inp = g.terrain_input(biomes);
                inp.beard = &beard;
                ChunkData::Terrain(Box::new(terrain::generate(&inp, pos)))
            }
            ChunkStatus::Features => {
                let terrain = neighbourhood(view, ChunkStatus::Terrain, |d| d.terrain())?;
                let own = terrain[4].ok_or(BodyError::Failed("missing own terrain"))?;
                let mut w = Writer::new(g.dims, pos, own.blocks.clone(), terrain);
                // Step 0: structure pieces, clipped to this chunk, protected from patches.
                let mut entities = Vec::new();
                for (_, s) in referenced_starts(view, pos)? {
                    entities.extend(structure::place(s, pos, &mut w));
                }
                entities.sort();
                let inp = FeatureInput {
                    seed: g.def.seed,
                    dims: g.dims,
                    biomes: biomes_here()?,
                    terrain,
                };
                feature::decorate(&inp, pos, &mut w);
                ChunkData::Features(Box::new(w.finish(entities)))
            }
            ChunkStatus::InitializeLight => {
                let f = neighbourhood(view, ChunkStatus::Features, |d| match d {
                    ChunkData::Features(f) => Some(&**f),
                    _ => None,
                })?;
                let own = f[4].ok_or(BodyError::Failed("missing own features"))?;
                let mut inbound: [Option<&[(u32, BlockId)]>; 9] = [None; 9];
                for (k, n) in f.iter().enumerate() {
                    if k != 4 {
                        // The neighbour at (dx, dz) sees this chunk at (-dx, -dz).
                        inbound[k] = n.map(|n| &n.outbound[8 - k][..]);
                    }
                }
                let blocks = feature::merge(own, inbound);
                let heightmaps = feature::heightmaps4(&g.dims, &blocks);
                ChunkData::InitializeLight(Box::new(Merged {
                    blocks,
                    heightmaps,
                    block_entities: own.block_entities.clone(),
                }))
            }
            ChunkStatus::Light => {
                let m = neighbourhood(view, ChunkStatus::InitializeLight, |d| match d {
                    ChunkData::InitializeLight(m) => Some(&**m),
                    _ => None,
                })?;
                let mut highest = g.dims.min_y;
                let mut blocks: [Option<&[BlockId]>; 9] = [None; 9];
                for (k, c) in m.iter().enumerate() {
                    if let Some(c) = c {
                        blocks[k] = Some(&c.blocks);
                        for h in c.heightmaps[0].iter() {
                            highest = core::cmp::max(highest, h - 1);
                        }
                    }
                }
                ChunkData::Light(Box::new(light::compute(&g.dims, blocks, highest)))
            }
            ChunkStatus::Spawn => {
                let m = view.get(0, 0, ChunkStatus::InitializeLight)?;
                let m = match m {
                    ChunkData::InitializeLight(m) => m,
                    other => return Err(wrong(other)),
                };
                ChunkData::Spawn(spawn::generate(
                    g.def.seed,
                    &g.dims,
                    pos,
                    biomes_here()?,
                    &m.blocks,
                    &m.heightmaps[2],
                ))
            }
            ChunkStatus::Full => {
                let spawns = match view.get(0, 0, ChunkStatus::Spawn)? {
                    ChunkData::Spawn(s) => s.clone(),
                    other => return Err(wrong(other)),
                };
                let structures = match view.get(0, 0, ChunkStatus::StructureReferences)? {
                    ChunkData::StructureReferences(r) => r.clone(),
                    other => return Err(wrong(other)),
                };
                ChunkData::Full(Box::new(FullChunk {
                    pos,
                    structures,
                    biomes: *biomes_here()?,
                    merged: view.get_shared(0, 0, ChunkStatus::InitializeLight)?,
                    light: view.get_shared(0, 0, ChunkStatus::Light)?,
                    spawns,
                }))
            }
        })
    }
}

/// The digest of a finished chunk: XXH64 (seed 0) over, in order: the block ids (`u16` LE,
/// block-index order); the 16 biome ids (bytes); the four heightmaps (256 `i32` LE each, in the
/// order world surface, ocean floor, motion blocking, motion blocking without leaves); the
/// sky-light and block-light nibble arrays (bytes); the block entities (count `u32`, then per
/// entity x, y, z `i32`, kind `u16`, data `u32`); the spawn requests (count `u32`, then per
/// request kind `u16`, x, y, z `i32`, group `u8`); the structure references (count `u32`, then
/// per reference start chunk x, z `i32`, kind `u8`). All little-endian. Non-full outputs digest
/// as the empty input.
pub fn chunk_digest(d: &ChunkData) -> u64 {
    let mut h = crate::util::digest::Digest::new();
    if let Some(f) = d.full() {
        h.write_u16_slice(f.blocks());
        h.write_bytes(&f.biomes);
        for hm in f.heightmaps() {
            for v in hm {
                h.write_i32(*v);
            }
        }
        h.write_bytes(&f.light().sky);
        h.write_bytes(&f.light().block);
        h.write_u32(f.block_entities().len() as u32);
        for e in f.block_entities() {
            for c in e.pos {
                h.write_i32(c);
            }
            h.write_u16(e.kind);
            h.write_u32(e.data);
        }
        h.write_u32(f.spawns.len() as u32);
        for s in &f.spawns {
            h.write_u16(s.kind);
            for c in s.pos {
                h.write_i32(c);
            }
            h.write_u8(s.group);
        }
        h.write_u32(f.structures.len() as u32);
        for r in &f.structures {
            h.write_i32(r.start.x);
            h.write_i32(r.start.z);
            h.write_u8(r.kind as u8);
        }
    }
    h.finish()
}

/// The digest of any status output (used by the parity corpus): XXH64 over the output's data
/// in a fixed layout. `full` outputs digest as [`chunk_digest`]; the others: `empty` nothing;
/// `structure_starts` per start kind `u8`, chunk x, z `i32`, biome `u8`, assembled `u8`, then
/// per piece kind `u8` and box min/max `i32` ×6, then per entity x, y, z `i32`, kind `u16`,
/// data `u32`, then the layout's float witness (`u64`); `structure_references` per reference start x, z `i32` and kind `u8`; `biomes`
/// the 16 bytes then the climate witness (`u64`); `terrain` blocks, both heightmaps and the
/// float witness (`u64`); `features` blocks, then for each of the
/// 9 patch lists its length `u32` and (index `u32`, block `u16`) pairs, then the protected
/// indices (`u32`) and the float witness (`u64`); `initialize_light` blocks then the 4
/// heightmaps; `light` sky then block
/// nibbles; `spawn` as in [`chunk_digest`]. Every list is preceded by its length (`u32`).
pub fn status_digest(d: &ChunkData) -> u64 {
    use crate::util::digest::Digest;
    let mut h = Digest::new();
    match d {
        ChunkData::Full(_) => return chunk_digest(d),
        ChunkData::Empty => {}
        ChunkData::StructureStarts(v) => {
            h.write_u32(v.len() as u32);
            for s in v {
                h.write_u8(s.kind as u8);
                h.write_i32(s.chunk.x);
                h.write_i32(s.chunk.z);
                h.write_u8(s.biome);
                h.write_u8(s.assembled.is_some() as u8);
                if let Some(a) = &s.assembled {
                    h.write_u32(a.pieces.len() as u32);
                    for p in &a.pieces {
                        h.write_u8(p.kind as u8);
                        for c in p.bbox.min.iter().chain(p.bbox.max.iter()) {
                            h.write_i32(*c);
                        }
                    }
                    h.write_u32(a.entities.len() as u32);
                    for e in &a.entities {
                        for c in e.pos {
                            h.write_i32(c);
                        }
                        h.write_u16(e.kind);
                        h.write_u32(e.data);
                    }
                    h.write_u64(a.witness);
                }
            }
        }
        ChunkData::StructureReferences(v) => {
            h.write_u32(v.len() as u32);
            for r in v {
                h.write_i32(r.start.x);
                h.write_i32(r.start.z);
                h.write_u8(r.kind as u8);
            }
        }
        ChunkData::Biomes(b, witness) => {
            h.write_bytes(b);
            h.write_u64(*witness);
        }
        ChunkData::Terrain(t) => {
            h.write_u16_slice(&t.blocks);
            for v in t.world_surface.iter().chain(t.ocean_floor.iter()) {
                h.write_i32(*v);
            }
            h.write_u64(t.witness);
        }
        ChunkData::Features(f) => {
            h.write_u16_slice(&f.blocks);
            for p in &f.outbound {
                h.write_u32(p.len() as u32);
                for (i, b) in p {
                    h.write_u32(*i);
                    h.write_u16(*b);
                }
            }
            h.write_u32(f.protected.len() as u32);
            for i in &f.protected {
                h.write_u32(*i);
            }
            h.write_u64(f.witness);
        }
        ChunkData::InitializeLight(m) => {
            h.write_u16_slice(&m.blocks);
            for hm in &m.heightmaps {
                for v in hm {
                    h.write_i32(*v);
                }
            }
        }
        ChunkData::Light(l) => {
            h.write_bytes(&l.sky);
            h.write_bytes(&l.block);
        }
        ChunkData::Spawn(v) => {
            h.write_u32(v.len() as u32);
            for s in v {
                h.write_u16(s.kind);
                for c in s.pos {
                    h.write_i32(c);
                }
                h.write_u8(s.group);
            }
        }
    }
    h.finish()
}
