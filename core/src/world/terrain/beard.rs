//! Terrain adaptation around surface structure pieces (the "beard"): density boxes that
//! make the ground solid under a piece and clear above it.

use crate::util::math::{clamp, lerp, sqrt};

/// A box around a surface structure piece that terrain adapts to: solid up to `floor_y`
/// inside the footprint, cleared above it up to `top_y`, blending out over `falloff` blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BeardBox {
    /// Footprint minimum (block x, z), inclusive.
    pub min: [i32; 2],
    /// Footprint maximum (block x, z), inclusive.
    pub max: [i32; 2],
    /// Top solid y under the piece.
    pub floor_y: i32,
    /// Highest y cleared above the floor.
    pub top_y: i32,
}

/// The beard's horizontal falloff in blocks.
pub const BEARD_FALLOFF: i32 = 8;

pub(crate) fn beard_adjust(boxes: &[BeardBox], x: f64, y: f64, z: f64, d: f64) -> f64 {
    let mut d = d;
    for b in boxes {
        let dx = clamp(f64::from(b.min[0]) - x, 0.0, f64::INFINITY)
            + clamp(x - f64::from(b.max[0]), 0.0, f64::INFINITY);
        let dz = clamp(f64::from(b.min[1]) - z, 0.0, f64::INFINITY)
            + clamp(z - f64::from(b.max[1]), 0.0, f64::INFINITY);
        let dist = sqrt(dx * dx + dz * dz);
        let w = clamp(1.0 - dist / f64::from(BEARD_FALLOFF), 0.0, 1.0);
        if w <= 0.0 || y > f64::from(b.top_y) + 4.0 {
            continue;
        }
        // Solid below the floor, air above, blended in by the falloff weight.
        let target = clamp((f64::from(b.floor_y) + 0.5 - y) * 0.5, -1.0, 1.0);
        d = lerp(w * w * (3.0 - 2.0 * w), d, target);
    }
    d
}
