//! A world definition ([`Definition`]): everything that makes a world besides its seed and
//! size — blocks, biomes and their climate, the terrain shape, caves, aquifers, carvers,
//! features, trees, structures and spawns — as plain data with every name already resolved to
//! an id. Text documents (TOML, JSON) are parsed and checked outside `core`
//! (`stratagen-worldfile`); `core` receives this struct, checks what its bodies rely on
//! ([`Definition::check`]) and generates from it. [`Definition::builtin`] is the `default`
//! world, whose output the golden digests pin.
//!
//! Noises in a definition are [`NoiseDef`]s whose `seed` field is a *salt*: a world seeds each
//! noise with `world seed ^ salt`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::noise::NoiseDef;
use crate::world::palette::Palette;
use crate::world::scatter::ScatterLayer;

mod biomes;
mod builtin;
mod canonical;
mod check;
mod decode;
mod features;
mod terrain;

pub use biomes::{BiomeDef, ClimateBox, ClimateDef, Interval, SpawnEntry, SurfaceRule};
pub use canonical::SCATTER_TAG;
pub use check::DefinitionError;
pub use decode::DecodeError;
pub use features::{
    BoulderDef, ColumnDef, FeatureDef, FeatureKind, OreDef, PlantRule, StructureBlocks,
    StructureDef, TreeDef, TreeShape, TreeSpawn, TreesDef, VegetationDef, MAX_FEATURE_RADIUS,
    MAX_TREE_HEIGHT, STEP_COUNT,
};
pub use terrain::{AquiferDef, CarverDef, CaveDef, Ramp, RiverDef, Spline, TerrainDef};

/// A world definition with every name resolved to an id (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// The definition's name (`default`, `archipelago`, a file's own name); not part of the
    /// digest, so renaming a world keeps its chunks.
    pub name: String,
    /// Blocks, in id order. Block 0 is the empty block.
    pub blocks: Palette,
    /// Biomes, in id order (at most 255: biome ids are bytes and 255 is reserved).
    pub biomes: Vec<BiomeDef>,
    /// The climate noises and the boxes that map a climate to a biome.
    pub climate: ClimateDef,
    /// Terrain shape, blocks, surface rules, caves, aquifers, carvers.
    pub terrain: TerrainDef,
    /// Decoration features in their global order: a feature's position is its index in
    /// `feature_seed` (determinism rule 4), so reordering changes every world.
    pub features: Vec<FeatureDef>,
    /// Tree kinds, referred to by index from tree features.
    pub trees: Vec<TreeDef>,
    /// Structures, at most one per kind.
    pub structures: Vec<StructureDef>,
    /// The blocks structure pieces are built from.
    pub structure_blocks: StructureBlocks,
    /// Creature kind names, referred to by index from biome spawn tables (spawn request ids).
    pub creatures: Vec<String>,
    /// Scatter layers (props for instanced rendering). They change no block, so they are not
    /// part of [`Definition::digest`]: a world's stored chunks stay its own whatever props it
    /// scatters. [`Definition::to_bytes`] carries them.
    pub scatter: Vec<ScatterLayer>,
}

impl Definition {
    /// The index of the biome named `name`.
    pub fn biome_by_name(&self, name: &str) -> Option<u8> {
        self.biomes
            .iter()
            .position(|b| b.name == name)
            .map(|i| i as u8)
    }

    /// Every noise of the world with its path in a definition document
    /// (`climate.temperature`, `terrain.caves.cheese`, ...). A world seeded `s` samples
    /// the noise `def` as [`crate::world::biome::world_noise`]`(s, def)` builds it.
    pub fn noises(&self) -> [(&'static str, &NoiseDef); 10] {
        let c = &self.climate.noises;
        let t = &self.terrain;
        [
            ("climate.temperature", &c[0]),
            ("climate.humidity", &c[1]),
            ("climate.continentalness", &c[2]),
            ("climate.erosion", &c[3]),
            ("climate.weirdness", &c[4]),
            ("terrain.density", &t.density),
            ("terrain.caves.cheese", &t.caves.cheese),
            ("terrain.caves.spaghetti_a", &t.caves.spaghetti_a),
            ("terrain.caves.spaghetti_b", &t.caves.spaghetti_b),
            ("terrain.aquifer.noise", &t.aquifer.noise),
        ]
    }
}
