//! Trees by biome: species, density and shapes (canopies cross chunk borders as patches).

use crate::util::random::JavaRandom;
use crate::world::biome::{self, BiomeId};
use crate::world::block;
use crate::world::feature::ores::is_air_or_plant;
use crate::world::feature::Writer;

/// Tree shapes by species.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tree {
    Oak,
    Birch,
    Spruce,
    Jungle,
    Acacia,
}

pub(super) fn tree_for(biome_id: BiomeId) -> Option<(Tree, i32)> {
    // (species, trees per chunk × 4: quarter-trees so sparse biomes get fractions)
    match biome_id {
        biome::FOREST => Some((Tree::Oak, 28)),
        biome::BIRCH_FOREST => Some((Tree::Birch, 28)),
        biome::TAIGA => Some((Tree::Spruce, 24)),
        biome::JUNGLE => Some((Tree::Jungle, 24)),
        biome::SAVANNA => Some((Tree::Acacia, 4)),
        biome::SWAMP => Some((Tree::Oak, 8)),
        biome::PLAINS => Some((Tree::Oak, 1)),
        biome::SNOWY_PLAINS => Some((Tree::Spruce, 2)),
        biome::MOUNTAINS => Some((Tree::Spruce, 2)),
        _ => None,
    }
}

pub(super) fn place_tree(
    w: &mut Writer<'_>,
    r: &mut JavaRandom,
    kind: Tree,
    x: i32,
    y: i32,
    z: i32,
) {
    let (log, leaves, height) = match kind {
        Tree::Oak => (block::OAK_LOG, block::OAK_LEAVES, 4 + r.next_int_bounded(3)),
        Tree::Birch => (
            block::BIRCH_LOG,
            block::BIRCH_LEAVES,
            5 + r.next_int_bounded(3),
        ),
        Tree::Spruce => (
            block::SPRUCE_LOG,
            block::SPRUCE_LEAVES,
            6 + r.next_int_bounded(4),
        ),
        Tree::Jungle => (
            block::JUNGLE_LOG,
            block::JUNGLE_LEAVES,
            8 + r.next_int_bounded(5),
        ),
        Tree::Acacia => (
            block::ACACIA_LOG,
            block::ACACIA_LEAVES,
            5 + r.next_int_bounded(2),
        ),
    };
    // Room to grow: the trunk column must be free.
    for k in 1..=height {
        if !w.get(x, y + k, z).map_or(false, is_air_or_plant) {
            return;
        }
    }
    w.set(x, y, z, block::DIRT);
    let top = y + height;
    let leaf = |w: &mut Writer<'_>, lx: i32, ly: i32, lz: i32| {
        w.set_if(lx, ly, lz, leaves, is_air_or_plant);
    };
    match kind {
        Tree::Oak | Tree::Birch => {
            for ly in top - 3..=top {
                let rad: i32 = if ly >= top - 1 { 1 } else { 2 };
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        let corner = dx.abs() == rad && dz.abs() == rad;
                        if corner && (ly == top || r.next_int_bounded(2) == 0) {
                            continue;
                        }
                        leaf(w, x + dx, ly, z + dz);
                    }
                }
            }
        }
        Tree::Spruce => {
            let mut rad: i32 = 0;
            for ly in (y + 3..=top + 1).rev() {
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        if dx.abs() + dz.abs() <= rad + 1 {
                            leaf(w, x + dx, ly, z + dz);
                        }
                    }
                }
                rad = if rad >= 2 { 1 } else { rad + 1 };
            }
        }
        Tree::Jungle => {
            for ly in top - 2..=top + 1 {
                let rad = if ly > top { 2 } else { 3 };
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        if dx * dx + dz * dz <= rad * rad + 1 {
                            leaf(w, x + dx, ly, z + dz);
                        }
                    }
                }
            }
        }
        Tree::Acacia => {
            let (bx, bz) = if r.next_bool() { (1, 0) } else { (0, 1) };
            for ly in top..=top + 1 {
                let rad: i32 = if ly > top { 1 } else { 3 };
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        if dx.abs() + dz.abs() <= rad + 1 {
                            leaf(w, x + bx * 2 + dx, ly, z + bz * 2 + dz);
                        }
                    }
                }
            }
            for k in 1..=height {
                let off = if k > height - 2 { 2 } else { 0 };
                w.set(x + bx * off, y + k, z + bz * off, log);
            }
            return;
        }
    }
    for k in 1..=height {
        w.set(x, y + k, z, log);
    }
}
