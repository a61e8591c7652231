//! Blobs (ore veins, boulders): balls of a block that may cross into neighbours.

use crate::util::math::{ceil_i32, floor_i64};
use crate::world::block::{self, BlockId};
use crate::world::feature::Writer;
use crate::world::palette::Palette;

/// Air or a replaceable block that is not a fluid (plants, snow layers).
pub(super) fn is_air_or_plant(palette: &Palette, b: BlockId) -> bool {
    let p = palette.props(b);
    b == block::AIR || (p.replaceable && !p.liquid)
}

/// Set every block whose centre lies within `r` of `centre` to `b` where `pred` allows it;
/// the centre and radius go into the witness.
pub(super) fn blob(
    w: &mut Writer<'_>,
    centre: [f64; 3],
    r: f64,
    b: BlockId,
    pred: impl Fn(BlockId) -> bool + Copy,
) {
    let [cx, cy, cz] = centre;
    for v in [cx, cy, cz, r] {
        w.witness(v);
    }
    let ri = ceil_i32(r);
    let (x0, y0, z0) = (
        floor_i64(cx) as i32,
        floor_i64(cy) as i32,
        floor_i64(cz) as i32,
    );
    for dy in -ri..=ri {
        for dz in -ri..=ri {
            for dx in -ri..=ri {
                let (x, y, z) = (x0 + dx, y0 + dy, z0 + dz);
                let (fx, fy, fz) = (
                    f64::from(x) + 0.5 - cx,
                    f64::from(y) + 0.5 - cy,
                    f64::from(z) + 0.5 - cz,
                );
                if fx * fx + fy * fy + fz * fz < r * r {
                    w.set_if(x, y, z, b, pred);
                }
            }
        }
    }
}
