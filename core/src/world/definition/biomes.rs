//! Biomes in a definition: names, colours, surface rules, cold, spawns; and the climate that
//! chooses them.

use alloc::string::String;
use alloc::vec::Vec;

use crate::noise::NoiseDef;
use crate::world::biome::BiomeId;
use crate::world::block::BlockId;
use crate::world::spawn::CreatureId;

/// A closed interval of a climate parameter.
pub type Interval = (f64, f64);

/// One biome.
#[derive(Clone, Debug, PartialEq)]
pub struct BiomeDef {
    /// Name (`[a-z0-9_]+`, unique).
    pub name: String,
    /// Map colour (sRGB); grass and plants are tinted with it in maps and meshes.
    pub colour: [u8; 3],
    /// The biome's own surface rules, tried before the terrain's shared ones
    /// ([`crate::world::definition::TerrainDef::surface`]); the first that matches wins.
    pub surface: Vec<SurfaceRule>,
    /// Cold biomes: this layer block is put on dry surface tops that are not bare stone.
    pub snow: Option<BlockId>,
    /// Cold biomes: the sea's top block freezes into this block where air lies above it.
    pub ice: Option<BlockId>,
    /// The block spawned creatures stand on.
    pub spawn_ground: BlockId,
    /// Spawn table: creature and weight (weights > 0); empty for no spawns.
    pub spawns: Vec<SpawnEntry>,
}

/// One entry of a biome's spawn table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnEntry {
    /// Creature kind (index into [`crate::world::definition::Definition::creatures`]).
    pub creature: CreatureId,
    /// Relative weight, `1..=10000`.
    pub weight: i32,
}

/// A surface rule: on the topmost solid block of a column whose top is the terrain's stone or
/// deep stone, if every condition that is set holds, the top block becomes `top` and the
/// `depth + jitter − 1` blocks below it `under` (`jitter` is 0 or 1 per column, from a position
/// hash). `depth` 0 leaves the stone bare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceRule {
    /// Holds when the block above the top is (or is not) the sea fluid.
    pub underwater: Option<bool>,
    /// Holds when the local slope (blocks of target height per block) is above this.
    pub min_slope: Option<f64>,
    /// Holds when the top is more than this many blocks above sea level.
    pub above_sea: Option<i32>,
    /// Holds when the top is more than this many blocks below sea level.
    pub below_sea: Option<i32>,
    /// Holds when the column's jitter (0 or 1) equals this.
    pub jitter: Option<u8>,
    /// The top block.
    pub top: BlockId,
    /// The blocks under it.
    pub under: BlockId,
    /// Blocks replaced (top included) before the jitter is added, `0..=32`.
    pub depth: i32,
}

impl SurfaceRule {
    /// Whether the rule applies to a column.
    #[inline]
    pub fn matches(&self, underwater: bool, slope: f64, top: i32, sea: i32, jitter: i32) -> bool {
        self.underwater.map_or(true, |u| u == underwater)
            && self.min_slope.map_or(true, |s| slope > s)
            && self.above_sea.map_or(true, |d| top > sea + d)
            && self.below_sea.map_or(true, |d| top < sea - d)
            && self.jitter.map_or(true, |j| i32::from(j) == jitter)
    }
}

/// The climate: five noise fields and the boxes that choose a biome from them.
#[derive(Clone, Debug, PartialEq)]
pub struct ClimateDef {
    /// Temperature, humidity, continentalness, erosion and weirdness, in that order. Each
    /// sample is `clamp(noise × stretch, −1, 1)`.
    pub noises: [NoiseDef; 5],
    /// Fractal noise has a standard deviation near 0.3; the stretch spreads it over −1..1.
    pub stretch: f64,
    /// The boxes, nearest wins, ties to the earlier box.
    pub boxes: Vec<ClimateBox>,
}

/// The climate box a biome claims: one interval per parameter (peaks-and-valleys instead of
/// weirdness).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClimateBox {
    /// The biome this box selects.
    pub biome: BiomeId,
    /// Temperature interval.
    pub t: Interval,
    /// Humidity interval.
    pub h: Interval,
    /// Continentalness interval.
    pub c: Interval,
    /// Erosion interval.
    pub e: Interval,
    /// Peaks-and-valleys interval.
    pub pv: Interval,
}
