//! The world: a validated [`WorldDef`], the per-world generator state ([`WorldGen`]), the
//! output of each status ([`ChunkData`]) and the [`Pipeline`] that runs the status bodies.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::biome::{BiomeId, ClimateSampler};
use crate::fractal::NoiseError;
use crate::ladder::{ChunkPos, ChunkStatus};
use crate::scheduler::{BodyError, Pipeline, View};
use crate::terrain::{self, Dims, TerrainChunk, TerrainInput, TerrainNoises};

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

/// The output of one status of one chunk.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkData {
    /// `empty`.
    Empty,
    /// `structure_starts`: none yet.
    StructureStarts,
    /// `structure_references`: none yet.
    StructureReferences,
    /// `biomes`: per 4 × 4 cell, index `cz * 4 + cx`.
    Biomes([BiomeId; 16]),
    /// `terrain`.
    Terrain(Box<TerrainChunk>),
    /// `features`: the chunk's terrain, shared, with its own feature writes.
    Features(Arc<ChunkData>),
    /// `initialize_light`: the merged blocks.
    InitializeLight(Arc<ChunkData>),
    /// `light`.
    Light(Arc<ChunkData>),
    /// `spawn`.
    Spawn(Arc<ChunkData>),
    /// `full`.
    Full(Arc<ChunkData>),
}

impl ChunkData {
    /// The terrain chunk this output wraps, following shared references.
    pub fn terrain(&self) -> Option<&TerrainChunk> {
        match self {
            ChunkData::Terrain(t) => Some(t),
            ChunkData::Features(a)
            | ChunkData::InitializeLight(a)
            | ChunkData::Light(a)
            | ChunkData::Spawn(a)
            | ChunkData::Full(a) => a.terrain(),
            _ => None,
        }
    }

    /// The biome grid, if this is a `biomes` output.
    pub fn biomes(&self) -> Option<&[BiomeId; 16]> {
        match self {
            ChunkData::Biomes(b) => Some(b),
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

fn shared(view: &View<'_, ChunkData>, s: ChunkStatus) -> Result<Arc<ChunkData>, BodyError> {
    view.get_shared(0, 0, s)
}

impl Pipeline for World {
    type Output = ChunkData;

    fn run(
        &self,
        status: ChunkStatus,
        pos: ChunkPos,
        view: &View<'_, ChunkData>,
    ) -> Result<ChunkData, BodyError> {
        Ok(match status {
            ChunkStatus::Empty => ChunkData::Empty,
            ChunkStatus::StructureStarts => ChunkData::StructureStarts,
            ChunkStatus::StructureReferences => ChunkData::StructureReferences,
            ChunkStatus::Biomes => ChunkData::Biomes(self.gen.biomes(pos)),
            ChunkStatus::Terrain => {
                let b = view.get(0, 0, ChunkStatus::Biomes)?;
                let biomes = b.biomes().ok_or_else(|| wrong(b))?;
                ChunkData::Terrain(Box::new(self.gen.terrain(pos, biomes)))
            }
            ChunkStatus::Features => ChunkData::Features(shared(view, ChunkStatus::Terrain)?),
            ChunkStatus::InitializeLight => {
                ChunkData::InitializeLight(shared(view, ChunkStatus::Features)?)
            }
            ChunkStatus::Light => ChunkData::Light(shared(view, ChunkStatus::InitializeLight)?),
            ChunkStatus::Spawn => ChunkData::Spawn(shared(view, ChunkStatus::Light)?),
            ChunkStatus::Full => ChunkData::Full(shared(view, ChunkStatus::Spawn)?),
        })
    }
}

/// Collect the terrain-level blocks of a finished world chunk (for callers that only need
/// blocks): `None` if the output carries no terrain.
pub fn blocks_of(d: &ChunkData) -> Option<&Vec<u16>> {
    d.terrain().map(|t| &t.blocks)
}

/// The digest of a finished chunk: XXH64 (seed 0) over, in order, the block ids (`u16` LE, in
/// block-index order), the world-surface heightmap and the ocean-floor heightmap (256 `i32`
/// LE each, index `z * 16 + x`). Later statuses append their data here as they land.
pub fn chunk_digest(d: &ChunkData) -> u64 {
    let mut h = crate::digest::Digest::new();
    if let Some(t) = d.terrain() {
        h.write_u16_slice(&t.blocks);
        for v in t.world_surface.iter().chain(t.ocean_floor.iter()) {
            h.write_i32(*v);
        }
    }
    h.finish()
}
