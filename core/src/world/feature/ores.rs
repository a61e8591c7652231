//! Ore veins and boulders: blobs of a block that may cross into neighbours.

use crate::util::math::{ceil_i32, floor_i64};
use crate::world::block::{self, BlockId};
use crate::world::feature::ids::FeatureId;
use crate::world::feature::Writer;

pub(super) fn is_air_or_plant(b: BlockId) -> bool {
    b == block::AIR || (block::props(b).replaceable && !block::props(b).liquid)
}

pub(super) fn is_stoneish(b: BlockId) -> bool {
    b == block::STONE || b == block::DEEPSLATE
}

/// An ore vein feature.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ore {
    pub feature: FeatureId,
    pub block: BlockId,
    /// Blobs tried per chunk.
    pub attempts: i32,
    /// Lowest centre y (raised to `min_y + 5`).
    pub min_y: i32,
    /// Highest centre y (exclusive; lowered to the world top).
    pub max_y: i32,
    /// Largest blob radius; radii are uniform in `0.9..max_radius`.
    pub max_radius: f64,
}

/// The ores, in feature-list order.
pub(super) const ORES: [Ore; 5] = [
    Ore {
        feature: FeatureId::OreCoal,
        block: block::COAL_ORE,
        attempts: 16,
        min_y: 0,
        max_y: 128,
        max_radius: 2.2,
    },
    Ore {
        feature: FeatureId::OreCopper,
        block: block::COPPER_ORE,
        attempts: 8,
        min_y: -16,
        max_y: 96,
        max_radius: 1.9,
    },
    Ore {
        feature: FeatureId::OreDiamond,
        block: block::DIAMOND_ORE,
        attempts: 3,
        min_y: -64,
        max_y: 16,
        max_radius: 1.4,
    },
    Ore {
        feature: FeatureId::OreGold,
        block: block::GOLD_ORE,
        attempts: 3,
        min_y: -64,
        max_y: 32,
        max_radius: 1.5,
    },
    Ore {
        feature: FeatureId::OreIron,
        block: block::IRON_ORE,
        attempts: 12,
        min_y: -24,
        max_y: 72,
        max_radius: 1.8,
    },
];

/// Set every block whose centre lies within `r` of `centre` to `b` where `pred` allows it;
/// the centre and radius go into the witness.
pub(super) fn blob(
    w: &mut Writer<'_>,
    centre: [f64; 3],
    r: f64,
    b: BlockId,
    pred: fn(BlockId) -> bool,
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
