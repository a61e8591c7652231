//! The generator of one world ([`WorldGen`]): validated settings and every noise, built once
//! and shared read-only by all tasks.

use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::digest::Digest;
use crate::world::biome::{BiomeId, ClimateSampler};
use crate::world::definition::Definition;
use crate::world::dims::Dims;
use crate::world::settings::{WorldError, WorldSettings};
use crate::world::structure::{self, StructureStart};
use crate::world::terrain::{self, TerrainChunk, TerrainInput, TerrainNoises};

/// The generator of one world: validated settings and every noise, built once and shared
/// read-only by all tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldGen {
    pub(crate) settings: WorldSettings,
    pub(crate) dims: Dims,
    pub(crate) definition: Arc<Definition>,
    /// `definition.digest()`, computed once.
    definition_digest: u64,
    pub(crate) climate: ClimateSampler,
    pub(crate) terrain: TerrainNoises,
}

impl WorldGen {
    /// Validate `def` and build the noises of the built-in world ([`Definition::builtin`]).
    pub fn new(def: WorldSettings) -> Result<Self, WorldError> {
        WorldGen::with_definition(def, Arc::new(Definition::builtin()))
    }

    /// Validate `def` and `definition` ([`Definition::check`]: any problem refuses it with
    /// [`WorldError::Definition`]) and build the noises.
    pub fn with_definition(
        def: WorldSettings,
        definition: Arc<Definition>,
    ) -> Result<Self, WorldError> {
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
        let problems = definition.check().len();
        if problems > 0 {
            return Err(WorldError::Definition(problems));
        }
        Ok(WorldGen {
            settings: def,
            dims: Dims {
                min_y: def.min_y,
                height: def.height,
                sea_level: def.sea_level,
            },
            climate: ClimateSampler::new(def.seed, &definition.climate)
                .map_err(WorldError::Noise)?,
            terrain: TerrainNoises::new(def.seed, &definition.terrain)
                .map_err(WorldError::Noise)?,
            definition_digest: definition.digest(),
            definition,
        })
    }

    /// The settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Dimensions.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The world definition (blocks, biomes, terrain, features, structures).
    pub fn definition(&self) -> &Definition {
        &self.definition
    }

    /// The world definition's digest ([`Definition::digest`]), part of the world's identity.
    pub fn definition_digest(&self) -> u64 {
        self.definition_digest
    }

    /// The shared world definition.
    pub fn definition_arc(&self) -> &Arc<Definition> {
        &self.definition
    }

    /// The structure starts whose candidate chunk is `pos` (the `structure_starts` output):
    /// a function of the position alone, so tools can recompute them for any chunk.
    pub fn structure_starts(&self, pos: ChunkPos) -> Vec<StructureStart> {
        structure::starts(
            self.settings.seed,
            &self.dims,
            &self.definition,
            &self.climate,
            pos,
        )
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
        let mut h = Digest::new();
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
            seed: self.settings.seed,
            dims: self.dims,
            definition: &self.definition,
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
