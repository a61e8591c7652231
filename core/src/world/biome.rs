//! Biomes from a multi-noise climate: five smooth noise fields (temperature,
//! humidity, continentalness, erosion, weirdness) are sampled at the centre of each 4 × 4
//! column cell, and the biome is the one whose box in the definition's climate is nearest.
//! Everything is a pure function of (seed, x, z), so any status may look a biome up.

use alloc::vec::Vec;

use crate::noise::{Noise, NoiseDef, NoiseError};
use crate::util::math::{abs, clamp};
pub use crate::world::definition::ClimateBox;
use crate::world::definition::ClimateDef;

/// A biome id (index into a definition's biomes).
pub type BiomeId = u8;

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

macro_rules! biomes {
    ($($id:literal $konst:ident = $name:literal;)*) => {
        $(
            #[doc = concat!("Biome id ", stringify!($id), " of the built-in world: `", $name, "`.")]
            pub const $konst: BiomeId = $id;
        )*
        /// Names of the built-in biomes, indexed by id.
        pub const BUILTIN_NAMES: [&str; BUILTIN_COUNT] = [$($name),*];
    };
}

biomes! {
    0 OCEAN = "ocean";
    1 DEEP_OCEAN = "deep_ocean";
    2 BEACH = "beach";
    3 RIVER = "river";
    4 PLAINS = "plains";
    5 FOREST = "forest";
    6 BIRCH_FOREST = "birch_forest";
    7 TAIGA = "taiga";
    8 SNOWY_PLAINS = "snowy_plains";
    9 DESERT = "desert";
    10 SAVANNA = "savanna";
    11 JUNGLE = "jungle";
    12 SWAMP = "swamp";
    13 MOUNTAINS = "mountains";
}

/// Number of built-in biomes.
pub const BUILTIN_COUNT: usize = 14;

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
pub fn biome_for(c: &Climate, boxes: &[ClimateBox]) -> BiomeId {
    let pv = c.peaks_valleys();
    let mut best = (f64::INFINITY, 0);
    for b in boxes {
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

/// A definition's noise seeded for a world: its `seed` field is a salt XORed with the world
/// seed.
pub fn world_noise(seed: i64, def: &NoiseDef) -> Result<Noise, NoiseError> {
    NoiseDef {
        seed: seed ^ def.seed,
        ..*def
    }
    .build()
}

/// The climate of a world: its five noises and the boxes that choose biomes.
#[derive(Clone, Debug, PartialEq)]
pub struct ClimateSampler {
    t: Noise,
    h: Noise,
    c: Noise,
    e: Noise,
    w: Noise,
    stretch: f64,
    boxes: Vec<ClimateBox>,
}

impl ClimateSampler {
    /// The climate of world seed `seed` under `def`.
    pub fn new(seed: i64, def: &ClimateDef) -> Result<Self, NoiseError> {
        let n = &def.noises;
        Ok(ClimateSampler {
            t: world_noise(seed, &n[0])?,
            h: world_noise(seed, &n[1])?,
            c: world_noise(seed, &n[2])?,
            e: world_noise(seed, &n[3])?,
            w: world_noise(seed, &n[4])?,
            stretch: def.stretch,
            boxes: def.boxes.clone(),
        })
    }

    /// The climate at block column `(x, z)`.
    pub fn sample(&self, x: f64, z: f64) -> Climate {
        let stretch = self.stretch;
        let s = |n: &Noise| clamp(n.sample_2d(x, z) * stretch, -1.0, 1.0);
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
        biome_for(&self.sample(cx, cz), &self.boxes)
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;
    use crate::world::definition::Definition;

    /// A climate inside a box (and in no earlier one) selects that box's biome.
    #[test]
    fn nearest_box_wins() {
        let boxes = Definition::builtin().climate.boxes;
        // Deep ocean: continentalness in its box, everything else anywhere.
        let c = Climate {
            temperature: 0.0,
            humidity: 0.0,
            continentalness: -0.7,
            erosion: 0.0,
            weirdness: 0.0,
        };
        assert_eq!(biome_for(&c, &boxes), DEEP_OCEAN);
        // The second forest box: warm, wet, not flat (erosion below swamp's 0.3), on a ridge.
        let c = Climate {
            temperature: 0.3,
            humidity: 0.5,
            continentalness: 0.5,
            erosion: 0.0,
            weirdness: 2.0 / 3.0, // peaks-and-valleys 1
        };
        assert_eq!(biome_for(&c, &boxes), FOREST);
        // Hot, dry, flat land on a ridge.
        let c = Climate {
            temperature: 1.0,
            humidity: -1.0,
            continentalness: 1.0,
            erosion: 1.0,
            weirdness: 2.0 / 3.0,
        };
        assert_eq!(biome_for(&c, &boxes), DESERT);
    }
}
