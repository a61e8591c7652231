//! World settings ([`WorldSettings`]) and why they are refused ([`WorldError`]).

use core::fmt;

use crate::noise::NoiseError;

/// World settings, plain data with documented defaults ([`WorldSettings::default`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldSettings {
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

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
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
    /// A noise failed to build.
    Noise(NoiseError),
    /// The world definition has this many problems (`Definition::check` lists them).
    Definition(usize),
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
            WorldError::Definition(n) => write!(
                f,
                "the world definition has {} problem(s) (Definition::check lists them)",
                n
            ),
        }
    }
}
