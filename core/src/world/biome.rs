//! Biomes from a multi-noise climate (DESIGN §4): five smooth noise fields (temperature,
//! humidity, continentalness, erosion, weirdness) are sampled at the centre of each 4 × 4
//! column cell, and the biome is the entry of [`TABLE`] whose parameter box is nearest.
//! Everything is a pure function of (seed, x, z), so any status may look a biome up.

use crate::noise::{Noise, NoiseDef, NoiseError};
use crate::util::math::{abs, clamp};

/// A biome id (index into [`TABLE`]).
pub type BiomeId = u8;

/// Ocean.
pub const OCEAN: BiomeId = 0;
/// Deep ocean.
pub const DEEP_OCEAN: BiomeId = 1;
/// Beach.
pub const BEACH: BiomeId = 2;
/// River.
pub const RIVER: BiomeId = 3;
/// Plains.
pub const PLAINS: BiomeId = 4;
/// Forest.
pub const FOREST: BiomeId = 5;
/// Birch forest.
pub const BIRCH_FOREST: BiomeId = 6;
/// Taiga.
pub const TAIGA: BiomeId = 7;
/// Snowy plains.
pub const SNOWY_PLAINS: BiomeId = 8;
/// Desert.
pub const DESERT: BiomeId = 9;
/// Savanna.
pub const SAVANNA: BiomeId = 10;
/// Jungle.
pub const JUNGLE: BiomeId = 11;
/// Swamp.
pub const SWAMP: BiomeId = 12;
/// Mountains (peaks).
pub const MOUNTAINS: BiomeId = 13;

/// The climate at a column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Climate {
    /// −1 cold .. 1 hot.
    pub temperature: f64,
    /// −1 dry .. 1 wet.
    pub humidity: f64,
    /// −1 deep ocean .. 1 far inland.
    pub continentalness: f64,
    /// −1 rugged .. 1 flat.
    pub erosion: f64,
    /// −1 .. 1; folded into peaks-and-valleys.
    pub weirdness: f64,
}

impl Climate {
    /// Peaks and valleys, `1 − |3|w| − 2|`: −1 at valley floors, 1 on ridges.
    pub fn peaks_valleys(&self) -> f64 {
        1.0 - abs(3.0 * abs(self.weirdness) - 2.0)
    }
}

/// One biome: a name, a map colour, and the climate box it claims.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BiomeInfo {
    /// Lower-case name.
    pub name: &'static str,
    /// Map colour (sRGB).
    pub color: [u8; 3],
    /// Snow and ice form here.
    pub cold: bool,
    /// Temperature interval.
    pub t: (f64, f64),
    /// Humidity interval.
    pub h: (f64, f64),
    /// Continentalness interval.
    pub c: (f64, f64),
    /// Erosion interval.
    pub e: (f64, f64),
    /// Peaks-and-valleys interval.
    pub pv: (f64, f64),
}

const ANY: (f64, f64) = (-2.0, 2.0);
const LAND: (f64, f64) = (-0.11, 2.0);
const LAND_E: (f64, f64) = (-0.45, 2.0);
const LAND_PV: (f64, f64) = (-0.8, 2.0);

#[allow(clippy::too_many_arguments)]
const fn biome(
    name: &'static str,
    color: [u8; 3],
    cold: bool,
    t: (f64, f64),
    h: (f64, f64),
    c: (f64, f64),
    e: (f64, f64),
    pv: (f64, f64),
) -> BiomeInfo {
    BiomeInfo {
        name,
        color,
        cold,
        t,
        h,
        c,
        e,
        pv,
    }
}

/// The biome table, indexed by [`BiomeId`]. Land biomes split temperature × humidity; oceans
/// and beaches are claimed by continentalness, rivers by valley floors, mountains by low
/// erosion on ridges. Documented in ARCHITECTURE.md.
pub static TABLE: [BiomeInfo; 15] = [
    biome(
        "ocean",
        [30, 70, 170],
        false,
        ANY,
        ANY,
        (-0.45, -0.16),
        ANY,
        ANY,
    ),
    biome(
        "deep_ocean",
        [20, 40, 120],
        false,
        ANY,
        ANY,
        (-2.0, -0.45),
        ANY,
        ANY,
    ),
    biome(
        "beach",
        [235, 220, 160],
        false,
        (-0.45, 2.0),
        ANY,
        (-0.16, -0.11),
        ANY,
        ANY,
    ),
    biome(
        "river",
        [60, 110, 220],
        false,
        ANY,
        ANY,
        LAND,
        (-0.3, 2.0),
        (-2.0, -0.8),
    ),
    biome(
        "plains",
        [140, 190, 90],
        false,
        (-0.15, 0.2),
        (-2.0, 0.0),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "forest",
        [50, 130, 50],
        false,
        (-0.15, 0.2),
        (0.0, 0.35),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "birch_forest",
        [100, 160, 80],
        false,
        (-0.15, 0.2),
        (0.35, 2.0),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "taiga",
        [50, 100, 80],
        false,
        (-0.45, -0.15),
        ANY,
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "snowy_plains",
        [240, 245, 250],
        true,
        (-2.0, -0.45),
        ANY,
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "desert",
        [220, 200, 120],
        false,
        (0.55, 2.0),
        (-2.0, 0.1),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "savanna",
        [180, 170, 90],
        false,
        (0.2, 0.55),
        (-2.0, 0.3),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "jungle",
        [40, 150, 30],
        false,
        (0.55, 2.0),
        (0.1, 2.0),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    biome(
        "swamp",
        [80, 100, 70],
        false,
        (0.2, 0.55),
        (0.3, 2.0),
        LAND,
        (0.3, 2.0),
        LAND_PV,
    ),
    biome(
        "mountains",
        [140, 140, 140],
        true,
        ANY,
        ANY,
        (0.0, 2.0),
        (-2.0, -0.45),
        (0.0, 2.0),
    ),
    // A second forest box: warm and wet but not flat enough for swamp.
    biome(
        "forest",
        [50, 130, 50],
        false,
        (0.2, 0.55),
        (0.3, 2.0),
        LAND,
        (-0.45, 0.3),
        LAND_PV,
    ),
];

/// Number of distinct biomes (the last table row is a second box of `forest`).
pub const BIOME_COUNT: usize = 14;

/// Properties of a biome id (unknown ids read as ocean).
pub fn info(id: BiomeId) -> &'static BiomeInfo {
    TABLE.get(id as usize).unwrap_or(&TABLE[0])
}

fn gap(v: f64, (lo, hi): (f64, f64)) -> f64 {
    if v < lo {
        lo - v
    } else if v > hi {
        v - hi
    } else {
        0.0
    }
}

/// The biome whose climate box is nearest (squared distance summed over the five
/// parameters; ties go to the lower table index).
pub fn biome_for(c: &Climate) -> BiomeId {
    let pv = c.peaks_valleys();
    let mut best = (f64::INFINITY, 0usize);
    for (i, b) in TABLE.iter().enumerate() {
        let d = [
            gap(c.temperature, b.t),
            gap(c.humidity, b.h),
            gap(c.continentalness, b.c),
            gap(c.erosion, b.e),
            gap(pv, b.pv),
        ];
        let s = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3] + d[4] * d[4];
        if s < best.0 {
            best = (s, i);
        }
    }
    // Row 14 is forest's second box.
    if best.1 == 14 {
        FOREST
    } else {
        best.1 as BiomeId
    }
}

/// The five climate noises of a world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClimateSampler {
    t: Noise,
    h: Noise,
    c: Noise,
    e: Noise,
    w: Noise,
}

/// Fractal noise has a standard deviation near 0.3; stretch it so the climate uses its range.
const STRETCH: f64 = 2.2;

impl ClimateSampler {
    /// The climate noises of world seed `seed` (the settings are constants; an error here
    /// would be a bug in them, reported rather than hidden).
    pub fn new(seed: i64) -> Result<Self, NoiseError> {
        Ok(ClimateSampler {
            t: NoiseDef::perlin_fbm(seed, 0x7E3A_11C0, 1.0 / 2200.0, 4)?,
            h: NoiseDef::perlin_fbm(seed, 0x4B1D_0A70, 1.0 / 1800.0, 4)?,
            c: NoiseDef::perlin_fbm(seed, 0x0C0A_57A1, 1.0 / 2400.0, 6)?,
            e: NoiseDef::perlin_fbm(seed, 0x0E05_1011, 1.0 / 1100.0, 4)?,
            w: NoiseDef::perlin_fbm(seed, 0x0771_1D00, 1.0 / 700.0, 4)?,
        })
    }

    /// The climate at block column `(x, z)`.
    pub fn sample(&self, x: f64, z: f64) -> Climate {
        let s = |n: &Noise| clamp(n.sample_2d(x, z) * STRETCH, -1.0, 1.0);
        Climate {
            temperature: s(&self.t),
            humidity: s(&self.h),
            continentalness: s(&self.c),
            erosion: s(&self.e),
            weirdness: s(&self.w),
        }
    }

    /// The biome of the 4 × 4 column cell containing block `(x, z)`, decided by the climate
    /// at the cell's centre.
    pub fn biome_at(&self, x: i32, z: i32) -> BiomeId {
        let cx = f64::from(x >> 2) * 4.0 + 2.0;
        let cz = f64::from(z >> 2) * 4.0 + 2.0;
        biome_for(&self.sample(cx, cz))
    }
}
