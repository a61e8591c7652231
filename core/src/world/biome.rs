//! Biomes from a multi-noise climate (DESIGN §4): five smooth noise fields (temperature,
//! humidity, continentalness, erosion, weirdness) are sampled at the centre of each 4 × 4
//! column cell, and the biome is the one whose box in [`CLIMATE_BOXES`] is nearest.
//! Everything is a pure function of (seed, x, z), so any status may look a biome up.

use crate::noise::{Noise, NoiseDef, NoiseError};
use crate::util::math::{abs, clamp};

/// A biome id (index into [`BIOMES`]).
pub type BiomeId = u8;

/// Continentalness below which the sea is deep ocean.
pub const DEEP_OCEAN_MAX: f64 = -0.45;
/// Continentalness below which the sea is ocean (above it: the coast).
pub const OCEAN_MAX: f64 = -0.16;
/// Continentalness below which the coast is beach (above it: land).
pub const COAST_MAX: f64 = -0.11;

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

/// One biome: a name, a map colour, and whether snow and ice form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BiomeInfo {
    /// Lower-case name.
    pub name: &'static str,
    /// Map colour (sRGB).
    pub color: [u8; 3],
    /// Snow and ice form here.
    pub cold: bool,
}

macro_rules! biomes {
    ($($id:literal $konst:ident = $name:literal, $color:expr, cold: $cold:expr;)*) => {
        $(
            #[doc = concat!("Biome id ", stringify!($id), ": `", $name, "`.")]
            pub const $konst: BiomeId = $id;
        )*
        /// The biome table, indexed by [`BiomeId`].
        pub static BIOMES: &[BiomeInfo] = &[$(BiomeInfo { name: $name, color: $color, cold: $cold }),*];
        // Ids are the row numbers, by construction.
        const _: () = {
            let mut row = 0;
            $(
                assert!($id == row, "biome ids must be 0, 1, 2, ... in table order");
                row += 1;
            )*
            let _ = row;
        };
    };
}

biomes! {
    0 OCEAN = "ocean", [30, 70, 170], cold: false;
    1 DEEP_OCEAN = "deep_ocean", [20, 40, 120], cold: false;
    2 BEACH = "beach", [235, 220, 160], cold: false;
    3 RIVER = "river", [60, 110, 220], cold: false;
    4 PLAINS = "plains", [140, 190, 90], cold: false;
    5 FOREST = "forest", [50, 130, 50], cold: false;
    6 BIRCH_FOREST = "birch_forest", [100, 160, 80], cold: false;
    7 TAIGA = "taiga", [50, 100, 80], cold: false;
    8 SNOWY_PLAINS = "snowy_plains", [240, 245, 250], cold: true;
    9 DESERT = "desert", [220, 200, 120], cold: false;
    10 SAVANNA = "savanna", [180, 170, 90], cold: false;
    11 JUNGLE = "jungle", [40, 150, 30], cold: false;
    12 SWAMP = "swamp", [80, 100, 70], cold: false;
    13 MOUNTAINS = "mountains", [140, 140, 140], cold: true;
}

/// Number of biomes.
pub const BIOME_COUNT: usize = 14;
const _: () = assert!(BIOME_COUNT == 14 && MOUNTAINS as usize + 1 == BIOME_COUNT);

/// A closed interval of a climate parameter.
type Interval = (f64, f64);

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

const ANY: Interval = (-2.0, 2.0);
const LAND: Interval = (COAST_MAX, 2.0);
const LAND_E: Interval = (-0.45, 2.0);
const LAND_PV: Interval = (-0.8, 2.0);

const fn climate_box(
    biome: BiomeId,
    t: Interval,
    h: Interval,
    c: Interval,
    e: Interval,
    pv: Interval,
) -> ClimateBox {
    ClimateBox {
        biome,
        t,
        h,
        c,
        e,
        pv,
    }
}

/// The climate boxes, nearest wins (ties to the earlier row). Land biomes split temperature ×
/// humidity; oceans and beaches are claimed by continentalness, rivers by valley floors,
/// mountains by low erosion on ridges; forest has a second box (warm and wet but not flat
/// enough for swamp). Documented in ARCHITECTURE.md.
pub static CLIMATE_BOXES: [ClimateBox; 15] = [
    climate_box(OCEAN, ANY, ANY, (DEEP_OCEAN_MAX, OCEAN_MAX), ANY, ANY),
    climate_box(DEEP_OCEAN, ANY, ANY, (-2.0, DEEP_OCEAN_MAX), ANY, ANY),
    climate_box(BEACH, (-0.45, 2.0), ANY, (OCEAN_MAX, COAST_MAX), ANY, ANY),
    climate_box(RIVER, ANY, ANY, LAND, (-0.3, 2.0), (-2.0, -0.8)),
    climate_box(PLAINS, (-0.15, 0.2), (-2.0, 0.0), LAND, LAND_E, LAND_PV),
    climate_box(FOREST, (-0.15, 0.2), (0.0, 0.35), LAND, LAND_E, LAND_PV),
    climate_box(
        BIRCH_FOREST,
        (-0.15, 0.2),
        (0.35, 2.0),
        LAND,
        LAND_E,
        LAND_PV,
    ),
    climate_box(TAIGA, (-0.45, -0.15), ANY, LAND, LAND_E, LAND_PV),
    climate_box(SNOWY_PLAINS, (-2.0, -0.45), ANY, LAND, LAND_E, LAND_PV),
    climate_box(DESERT, (0.55, 2.0), (-2.0, 0.1), LAND, LAND_E, LAND_PV),
    climate_box(SAVANNA, (0.2, 0.55), (-2.0, 0.3), LAND, LAND_E, LAND_PV),
    climate_box(JUNGLE, (0.55, 2.0), (0.1, 2.0), LAND, LAND_E, LAND_PV),
    climate_box(SWAMP, (0.2, 0.55), (0.3, 2.0), LAND, (0.3, 2.0), LAND_PV),
    climate_box(MOUNTAINS, ANY, ANY, (0.0, 2.0), (-2.0, -0.45), (0.0, 2.0)),
    climate_box(FOREST, (0.2, 0.55), (0.3, 2.0), LAND, (-0.45, 0.3), LAND_PV),
];

/// Properties of a biome id (unknown ids read as ocean).
pub fn info(id: BiomeId) -> &'static BiomeInfo {
    BIOMES.get(id as usize).unwrap_or(&BIOMES[0])
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
/// parameters; ties go to the earlier box).
pub fn biome_for(c: &Climate) -> BiomeId {
    let pv = c.peaks_valleys();
    let mut best = (f64::INFINITY, OCEAN);
    for b in CLIMATE_BOXES.iter() {
        let d = [
            gap(c.temperature, b.t),
            gap(c.humidity, b.h),
            gap(c.continentalness, b.c),
            gap(c.erosion, b.e),
            gap(pv, b.pv),
        ];
        let s = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3] + d[4] * d[4];
        if s < best.0 {
            best = (s, b.biome);
        }
    }
    best.1
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

#[cfg(test)]
mod table_tests {
    use super::*;

    /// Every biome is claimed by at least one box, every box names a real biome, and a
    /// climate inside a box (and in no earlier one) selects that box's biome.
    #[test]
    fn boxes_cover_the_table() {
        for id in 0..BIOME_COUNT as BiomeId {
            assert!(
                CLIMATE_BOXES.iter().any(|b| b.biome == id),
                "{}",
                info(id).name
            );
        }
        assert!(CLIMATE_BOXES
            .iter()
            .all(|b| (b.biome as usize) < BIOMES.len()));
        let mid = |(lo, hi): (f64, f64)| (lo.max(-1.0) + hi.min(1.0)) / 2.0;
        // Deep ocean: continentalness in its box, everything else anywhere.
        let c = Climate {
            temperature: 0.0,
            humidity: 0.0,
            continentalness: mid((-2.0, DEEP_OCEAN_MAX)),
            erosion: 0.0,
            weirdness: 0.0,
        };
        assert_eq!(biome_for(&c), DEEP_OCEAN);
        // The second forest box: warm, wet, not flat (erosion below swamp's 0.3), on a ridge.
        let c = Climate {
            temperature: 0.3,
            humidity: 0.5,
            continentalness: 0.5,
            erosion: 0.0,
            weirdness: 2.0 / 3.0, // peaks-and-valleys 1
        };
        assert_eq!(biome_for(&c), FOREST);
    }
}
