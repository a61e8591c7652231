//! The terrain part of a definition: blocks, the shape splines, surface rules shared by all
//! biomes, noise caves, aquifers and worm carvers.

use alloc::vec::Vec;

use crate::noise::NoiseDef;
use crate::util::math::{clamp, lerp};
use crate::world::block::BlockId;
use crate::world::definition::SurfaceRule;

/// A piecewise-linear spline through `(x, y)` knots with strictly increasing x, clamped at the
/// ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Spline {
    /// The knots, at least one.
    pub knots: Vec<(f64, f64)>,
}

impl Spline {
    /// The spline at `x`.
    #[inline]
    pub fn at(&self, x: f64) -> f64 {
        let knots = &self.knots[..];
        let mut prev = knots[0];
        if x <= prev.0 {
            return prev.1;
        }
        for &k in &knots[1..] {
            if x <= k.0 {
                return lerp((x - prev.0) / (k.0 - prev.0), prev.1, k.1);
            }
            prev = k;
        }
        prev.1
    }

    /// The spline with `offset` added to every knot's y before interpolating (so a height
    /// spline relative to sea level gives the same bits as one written in absolute heights).
    #[inline]
    pub fn at_offset(&self, x: f64, offset: f64) -> f64 {
        let knots = &self.knots[..];
        let mut prev = knots[0];
        if x <= prev.0 {
            return prev.1 + offset;
        }
        for &k in &knots[1..] {
            if x <= k.0 {
                return lerp((x - prev.0) / (k.0 - prev.0), prev.1 + offset, k.1 + offset);
            }
            prev = k;
        }
        prev.1 + offset
    }
}

/// A rising ramp: `clamp((v − from) / width, 0, 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ramp {
    /// Where the ramp leaves 0.
    pub from: f64,
    /// Over how much it reaches 1 (`> 0`).
    pub width: f64,
}

impl Ramp {
    /// The ramp at `v`.
    #[inline]
    pub fn at(&self, v: f64) -> f64 {
        clamp((v - self.from) / self.width, 0.0, 1.0)
    }
}

/// Rivers: valley floors inland, where erosion allows, cut to below sea level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RiverDef {
    /// Peaks-and-valleys below which a valley carries a river...
    pub valley: f64,
    /// ...fully this far below it (`clamp((valley − pv) / valley_width, 0, 1)`).
    pub valley_width: f64,
    /// Continentalness ramp: no rivers at the coast.
    pub coast: Ramp,
    /// Erosion ramp: no rivers in rugged land.
    pub erosion: Ramp,
    /// River bed: this many blocks below sea level.
    pub depth: f64,
}

/// Noise caves: wide "cheese" chambers and "spaghetti" tunnels, faded out near the surface
/// and the floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaveDef {
    /// Chamber noise (3D).
    pub cheese: NoiseDef,
    /// First tunnel noise (3D).
    pub spaghetti_a: NoiseDef,
    /// Second tunnel noise (3D).
    pub spaghetti_b: NoiseDef,
    /// Vertical stretch of the cheese grid (wider than tall chambers).
    pub cheese_y_stretch: f64,
    /// Vertical stretch of the tunnel grids.
    pub spaghetti_y_stretch: f64,
    /// Cheese noise above this opens a chamber.
    pub cheese_threshold: f64,
    /// How fast the cheese density falls past the threshold.
    pub cheese_sharpness: f64,
    /// Tunnels run where both tunnel noises are within this radius of zero.
    pub spaghetti_radius: f64,
    /// How fast the tunnel density falls outside the radius.
    pub spaghetti_sharpness: f64,
    /// Caves fade out this many blocks below the target surface height...
    pub surface_margin: f64,
    /// ...over this many blocks (`> 0`).
    pub surface_fade: f64,
    /// Caves fade out this many blocks above the world floor...
    pub floor_margin: f64,
    /// ...over this many blocks (`> 0`).
    pub floor_fade: f64,
    /// Density added where caves are fully faded out (keeps them closed).
    pub fade_close: f64,
}

/// Aquifers: cave water up to a level that varies smoothly around sea level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AquiferDef {
    /// The level's noise (2D).
    pub noise: NoiseDef,
    /// The level is this many blocks below sea level at the noise's zero...
    pub below_sea: i32,
    /// ...plus this many blocks times the noise.
    pub spread: f64,
}

/// Worm carvers: tunnels that are seeded random walks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarverDef {
    /// One chunk in this many starts tunnels; 0 turns carvers off.
    pub chance: i32,
    /// A starting chunk starts `1..=max_tunnels` tunnels.
    pub max_tunnels: i32,
    /// Tunnels start at least this many blocks above the world floor...
    pub start_min: i32,
    /// ...within a span of at most this many blocks.
    pub start_span: i32,
    /// A tunnel's radius is this plus `sin(progress · π) · width` (width 1..3), `0.5..=6`: the
    /// walk must stay within the chunks that are simulated.
    pub min_radius: f64,
    /// Vertical radius relative to the horizontal one.
    pub vertical_scale: f64,
    /// Carving stays this far above the world floor...
    pub floor_margin: i32,
    /// ...and this far below its top.
    pub top_margin: i32,
}

/// The terrain: which blocks, the shape, the surface, caves and fluids.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainDef {
    /// The block terrain is made of (its surface gets the surface rules).
    pub stone: BlockId,
    /// The stone below [`TerrainDef::deep_stone_below`].
    pub deep_stone: BlockId,
    /// Deep stone starts below this y, minus a dither of up to `2^deep_stone_dither_bits − 1`.
    pub deep_stone_below: i32,
    /// Bits of the deep stone dither, `0..=4`.
    pub deep_stone_dither_bits: u32,
    /// The floor block.
    pub bedrock: BlockId,
    /// The floor may reach this many layers above the bottom, `0..=8`.
    pub bedrock_layers: i32,
    /// The fluid of the sea, of rivers and of aquifers.
    pub sea_fluid: BlockId,
    /// The fluid that fills caves in the lowest layers.
    pub deep_fluid: BlockId,
    /// How many layers above the world floor caves are filled with the deep fluid.
    pub deep_fluid_layers: i32,
    /// The 3D density noise added to the shape.
    pub density: NoiseDef,
    /// Continentalness → target surface height, in blocks above sea level.
    pub height: Spline,
    /// Erosion → height of mountains (scaled by how far inland and by peaks-and-valleys).
    pub mountains: Spline,
    /// Continentalness ramp: how far inland a column is (mountains and jag grow with it).
    pub inland: Ramp,
    /// Rivers.
    pub river: RiverDef,
    /// Vertical noise scale (blocks per unit of density) at the coast...
    pub coast_jag: f64,
    /// ...and inland, from erosion.
    pub jag: Spline,
    /// Surface rules for every biome, tried after the biome's own.
    pub surface: Vec<SurfaceRule>,
    /// Noise caves.
    pub caves: CaveDef,
    /// Aquifers.
    pub aquifer: AquiferDef,
    /// Worm carvers.
    pub carvers: CarverDef,
}
