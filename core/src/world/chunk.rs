//! What a chunk holds at each status ([`ChunkData`]), the merged blocks of
//! `initialize_light` ([`Merged`]) and the finished chunk ([`FullChunk`]).

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::world::biome::BiomeId;
use crate::world::feature::{BlockEntity, FeatureChunk};
use crate::world::heightmap::{Heightmap, Heightmaps};
use crate::world::light::LightData;
use crate::world::sections::Sections;
use crate::world::spawn::SpawnRequest;
use crate::world::structure::{StructureRef, StructureStart};
use crate::world::terrain::TerrainChunk;

/// The merged blocks of `initialize_light`: own feature writes plus inbound patches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Block ids, index `((y - min_y) * 16 + z) * 16 + x`.
    pub blocks: Sections,
    /// The four heightmaps.
    pub heightmaps: Heightmaps,
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
    sky: Sections::EMPTY,
    block: Sections::EMPTY,
};
static EMPTY_BLOCKS: Sections = Sections::EMPTY;
static EMPTY_HEIGHTMAPS: Heightmaps = Heightmaps::filled(0);

impl FullChunk {
    /// A finished chunk sharing the `initialize_light` and `light` outputs it was built from.
    pub(crate) fn new(
        pos: ChunkPos,
        biomes: [BiomeId; 16],
        merged: Arc<ChunkData>,
        light: Arc<ChunkData>,
        spawns: Vec<SpawnRequest>,
        structures: Vec<StructureRef>,
    ) -> FullChunk {
        FullChunk {
            pos,
            biomes,
            merged,
            light,
            spawns,
            structures,
        }
    }

    /// A finished chunk assembled from its parts (stored records, tools, tests): the merged
    /// blocks and heightmaps, and the light computed over them.
    pub fn from_parts(
        pos: ChunkPos,
        biomes: [BiomeId; 16],
        merged: Merged,
        light: LightData,
        spawns: Vec<SpawnRequest>,
        structures: Vec<StructureRef>,
    ) -> FullChunk {
        FullChunk::new(
            pos,
            biomes,
            Arc::new(ChunkData::InitializeLight(Box::new(merged))),
            Arc::new(ChunkData::Light(Box::new(light))),
            spawns,
            structures,
        )
    }

    /// The shared `initialize_light` output the blocks and heightmaps come from.
    pub fn merged_output(&self) -> &Arc<ChunkData> {
        &self.merged
    }

    fn merged(&self) -> Option<&Merged> {
        match &*self.merged {
            ChunkData::InitializeLight(m) => Some(m),
            _ => None,
        }
    }
    /// Block ids (index `((y - min_y) * 16 + z) * 16 + x`), paletted per section.
    pub fn blocks(&self) -> &Sections {
        self.merged().map_or(&EMPTY_BLOCKS, |m| &m.blocks)
    }
    /// The four heightmaps.
    pub fn heightmaps(&self) -> &Heightmaps {
        self.merged().map_or(&EMPTY_HEIGHTMAPS, |m| &m.heightmaps)
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

/// The heap bytes of a full chunk's storage, by part: what one resident finished chunk costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StorageBytes {
    /// Block ids.
    pub blocks: usize,
    /// Sky and block light.
    pub light: usize,
    /// The four heightmaps.
    pub heightmaps: usize,
    /// The biome grid.
    pub biomes: usize,
    /// Block entities, spawn requests and structure references.
    pub other: usize,
}

impl StorageBytes {
    /// Every part.
    pub fn total(&self) -> usize {
        self.blocks + self.light + self.heightmaps + self.biomes + self.other
    }
}

impl FullChunk {
    /// The heap bytes its storage holds (allocated capacity, not length), by part.
    pub fn storage_bytes(&self) -> StorageBytes {
        use core::mem::size_of;
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        let (blocks, heightmaps, entities) = match self.merged() {
            Some(m) => (
                m.blocks.heap_bytes(),
                size_of::<Heightmaps>(),
                bytes(&m.block_entities),
            ),
            None => (0, 0, 0),
        };
        let light = self.light();
        StorageBytes {
            blocks,
            light: light.sky.heap_bytes() + light.block.heap_bytes(),
            heightmaps,
            biomes: size_of::<[BiomeId; 16]>(),
            other: entities + bytes(&self.spawns) + bytes(&self.structures),
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

/// The heap bytes of a vector's allocation (capacity, not length).
fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * core::mem::size_of::<T>()
}

impl ChunkData {
    /// The heap bytes this output holds itself, by allocated capacity: its box and the
    /// vectors and sections inside it. What it shares with another output is counted there
    /// (a feature output's terrain, a full chunk's merged blocks and light).
    pub fn own_heap_bytes(&self) -> usize {
        use core::mem::size_of;
        match self {
            ChunkData::Empty | ChunkData::Biomes(..) => 0,
            ChunkData::StructureStarts(v) => {
                let inner: usize = v
                    .iter()
                    .filter_map(|s| s.assembled.as_ref())
                    .map(|a| vec_bytes(&a.pieces) + vec_bytes(&a.links) + vec_bytes(&a.entities))
                    .sum();
                vec_bytes(v) + inner
            }
            ChunkData::StructureReferences(v) => vec_bytes(v),
            ChunkData::Terrain(t) => size_of::<TerrainChunk>() + t.blocks.heap_bytes(),
            ChunkData::Features(f) => {
                let outbound: usize = (0..9).map(|k| vec_bytes(f.outbound.at(k))).sum();
                size_of::<FeatureChunk>()
                    + vec_bytes(&f.changes)
                    + outbound
                    + vec_bytes(&f.protected)
                    + vec_bytes(&f.block_entities)
            }
            ChunkData::InitializeLight(m) => {
                size_of::<Merged>() + m.blocks.heap_bytes() + vec_bytes(&m.block_entities)
            }
            ChunkData::Light(l) => {
                size_of::<LightData>() + l.sky.heap_bytes() + l.block.heap_bytes()
            }
            ChunkData::Spawn(v) => vec_bytes(v),
            ChunkData::Full(f) => {
                size_of::<FullChunk>() + vec_bytes(&f.spawns) + vec_bytes(&f.structures)
            }
        }
    }

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
    pub fn surface(&self) -> Option<(&Sections, &[i32; 256], &[i32; 256])> {
        match self {
            ChunkData::Terrain(t) => Some((&t.blocks, &t.world_surface, &t.ocean_floor)),
            ChunkData::Full(f) => {
                let h = f.heightmaps();
                Some((
                    f.blocks(),
                    &h[Heightmap::WorldSurface],
                    &h[Heightmap::OceanFloor],
                ))
            }
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
