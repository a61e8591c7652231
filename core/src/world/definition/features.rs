//! Features, trees and structures in a definition.

use alloc::string::String;
use alloc::vec::Vec;

use crate::world::biome::BiomeId;
use crate::world::block::BlockId;
use crate::world::structure::StructureKind;

/// Decoration steps: 0 structure pieces, then 1..=4 in order (boulders, ores, trees,
/// vegetation in the built-in world). Features run by step, then by index.
pub const STEP_COUNT: i32 = 5;
/// Largest radius of a blob feature (ore, boulder), in blocks: a feature reaches at most one
/// chunk beyond its own.
pub const MAX_FEATURE_RADIUS: f64 = 8.0;
/// Tallest trunk a tree kind may grow (the canopy adds 2; trees need 14 free blocks below the
/// world top).
pub const MAX_TREE_HEIGHT: i32 = 12;

/// One decoration feature.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureDef {
    /// Name (`[a-z0-9_]+`, unique).
    pub name: String,
    /// Decoration step, `0..STEP_COUNT` (structure pieces: 0, the others 1 or more).
    pub step: i32,
    /// What it places.
    pub kind: FeatureKind,
}

/// What a feature places. Each kind draws from its own random, seeded by the feature's index
/// and step.
#[derive(Clone, Debug, PartialEq)]
pub enum FeatureKind {
    /// Structure pieces (placed from the structure starts; exactly one such feature when the
    /// definition has structures).
    StructurePieces,
    /// A boulder.
    Boulder(BoulderDef),
    /// Ore veins.
    Ore(OreDef),
    /// Trees by biome.
    Trees(TreesDef),
    /// A column plant (cactus).
    Column(ColumnDef),
    /// Plants on a seamless Poisson-disk point set.
    Vegetation(VegetationDef),
}

/// A boulder: with chance 1 in `chance` per chunk, a ball of `block` on the ground in one of
/// `biomes`, radius `radius + [0, 1) × radius_spread`, over air, plants and `replaces`.
#[derive(Clone, Debug, PartialEq)]
pub struct BoulderDef {
    /// The block.
    pub block: BlockId,
    /// One chunk in this many, `>= 1`.
    pub chance: i32,
    /// Smallest radius.
    pub radius: f64,
    /// Random extra radius.
    pub radius_spread: f64,
    /// Biomes it appears in.
    pub biomes: Vec<BiomeId>,
    /// Blocks it may replace besides air and non-fluid replaceable blocks.
    pub replaces: Vec<BlockId>,
}

/// Trees by biome: the biome at the chunk's centre picks the kind and density.
#[derive(Clone, Debug, PartialEq)]
pub struct TreesDef {
    /// Per biome: the tree kind and density (biomes not listed grow no trees).
    pub biomes: Vec<TreeSpawn>,
    /// Blocks a tree may grow on.
    pub soil: Vec<BlockId>,
    /// The block put under the trunk.
    pub ground: BlockId,
}

/// A column plant (cactus): `attempts` per chunk, `1..=max_height` tall, on `ground`.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnDef {
    /// The block.
    pub block: BlockId,
    /// Tries per chunk.
    pub attempts: i32,
    /// Tallest column, `1..=16`.
    pub max_height: i32,
    /// Biomes it appears in.
    pub biomes: Vec<BiomeId>,
    /// The block it stands on.
    pub ground: BlockId,
}

/// Plants on a seamless Poisson-disk point set: at each point the first rule whose biomes
/// hold the column puts one of its plants (chosen by a position hash) on its ground.
#[derive(Clone, Debug, PartialEq)]
pub struct VegetationDef {
    /// Poisson-disk radius in blocks, `1..=16`.
    pub radius: f64,
    /// Salt of the point set.
    pub salt: i64,
    /// Rules, first match wins.
    pub rules: Vec<PlantRule>,
}

/// Ore veins: `attempts` blobs per chunk, centres in `min_y..max_y`, radii uniform in
/// `min_radius..max_radius`, replacing only `replaces`.
#[derive(Clone, Debug, PartialEq)]
pub struct OreDef {
    /// The ore block.
    pub block: BlockId,
    /// Blobs tried per chunk.
    pub attempts: i32,
    /// Lowest centre y (raised to `min_y + 5` of the world).
    pub min_y: i32,
    /// Highest centre y, exclusive (lowered to the world top).
    pub max_y: i32,
    /// Smallest radius.
    pub min_radius: f64,
    /// Largest radius.
    pub max_radius: f64,
    /// The blocks a vein replaces.
    pub replaces: Vec<BlockId>,
    /// Biomes a vein's centre column must be in; empty for every biome.
    pub biomes: Vec<BiomeId>,
}

/// A biome's trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSpawn {
    /// The biome.
    pub biome: BiomeId,
    /// Tree kind (index into [`crate::world::definition::Definition::trees`]).
    pub tree: u16,
    /// Trees per chunk × 4 (quarter trees, so sparse biomes get fractions), `0..=256`.
    pub per_chunk_quarters: i32,
}

/// A vegetation rule.
#[derive(Clone, Debug, PartialEq)]
pub struct PlantRule {
    /// Biomes the rule covers.
    pub biomes: Vec<BiomeId>,
    /// Plants, one picked per point by a position hash (at least one).
    pub plants: Vec<BlockId>,
    /// The block a plant must stand on.
    pub ground: BlockId,
}

/// A tree kind.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeDef {
    /// Name (`[a-z0-9_]+`, unique).
    pub name: String,
    /// Canopy shape.
    pub shape: TreeShape,
    /// Trunk block.
    pub log: BlockId,
    /// Canopy block.
    pub leaves: BlockId,
    /// Trunk height is `base_height + [0, random_height)`; at most [`MAX_TREE_HEIGHT`].
    pub base_height: i32,
    /// Random extra height, `>= 1`.
    pub random_height: i32,
}

/// Canopy shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TreeShape {
    /// Four layers, radius 2 then 1, corners dropped at random (oak, birch).
    Round = 0,
    /// Rings from the tip down (spruce).
    Cone = 1,
    /// Wide discs (jungle).
    Blob = 2,
    /// Leaning trunk with a flat canopy (acacia).
    Flat = 3,
}

impl TreeShape {
    /// Every shape, in number order.
    pub const ALL: [TreeShape; 4] = [
        TreeShape::Round,
        TreeShape::Cone,
        TreeShape::Blob,
        TreeShape::Flat,
    ];

    /// Lower-case name (as in definition documents).
    pub fn name(self) -> &'static str {
        match self {
            TreeShape::Round => "round",
            TreeShape::Cone => "cone",
            TreeShape::Blob => "blob",
            TreeShape::Flat => "flat",
        }
    }
}

/// A structure: its kind (the layout is code), placement grid and biomes.
#[derive(Clone, Debug, PartialEq)]
pub struct StructureDef {
    /// Kind.
    pub kind: StructureKind,
    /// Region size in chunks, `2..=64`.
    pub spacing: i32,
    /// Minimum gap between candidates of neighbouring regions, `0..spacing`.
    pub separation: i32,
    /// Salt of the region seed.
    pub salt: i32,
    /// Biomes a start may stand in (checked at the start chunk's centre).
    pub biomes: Vec<BiomeId>,
}

/// The blocks structure pieces are built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureBlocks {
    /// Dungeon walls (one in four) and corridor floors, hut floors and roofs, foundations.
    pub wall: BlockId,
    /// Dungeon walls (three in four).
    pub mossy_wall: BlockId,
    /// Floors, roofs and hut walls.
    pub planks: BlockId,
    /// Tower walls.
    pub bricks: BlockId,
    /// Lights.
    pub torch: BlockId,
    /// Paths.
    pub path: BlockId,
    /// Chests (a block entity).
    pub chest: BlockId,
    /// Spawners (a block entity).
    pub spawner: BlockId,
    /// Ground blocks a path may replace.
    pub path_ground: Vec<BlockId>,
}
