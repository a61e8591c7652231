//! Trees by biome: species, density and shapes (canopies cross chunk borders as patches).

use crate::util::random::JavaRandom;
use crate::world::biome::{self, BiomeId};
use crate::world::block::{self, BlockId};
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

/// A tree's blocks and trunk height (drawn from `r`).
fn species(kind: Tree, r: &mut JavaRandom) -> (BlockId, BlockId, i32) {
    match kind {
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
    }
}

/// Grow a tree of `kind` on the ground block `(x, y, z)` if its trunk column is free.
pub(super) fn place_tree(
    w: &mut Writer<'_>,
    r: &mut JavaRandom,
    kind: Tree,
    x: i32,
    y: i32,
    z: i32,
) {
    let (log, leaves, height) = species(kind, r);
    // Room to grow: the trunk column must be free.
    for k in 1..=height {
        if !w.get(x, y + k, z).map_or(false, is_air_or_plant) {
            return;
        }
    }
    w.set(x, y, z, block::DIRT);
    let top = y + height;
    let mut leaf = |w: &mut Writer<'_>, lx: i32, ly: i32, lz: i32| {
        w.set_if(lx, ly, lz, leaves, is_air_or_plant);
    };
    // The trunk's offset at its top two blocks (acacias lean).
    let mut lean = (0, 0);
    match kind {
        Tree::Oak | Tree::Birch => round_canopy(w, r, x, z, top, &mut leaf),
        Tree::Spruce => cone_canopy(w, x, y, z, top, &mut leaf),
        Tree::Jungle => {
            for ly in top - 2..=top + 1 {
                let rad = if ly > top { 2 } else { 3 };
                disc(
                    w,
                    x,
                    ly,
                    z,
                    rad,
                    |dx, dz| dx * dx + dz * dz <= rad * rad + 1,
                    &mut leaf,
                );
            }
        }
        Tree::Acacia => {
            lean = if r.next_bool() { (1, 0) } else { (0, 1) };
            for ly in top..=top + 1 {
                let rad: i32 = if ly > top { 1 } else { 3 };
                let (cx, cz) = (x + lean.0 * 2, z + lean.1 * 2);
                disc(
                    w,
                    cx,
                    ly,
                    cz,
                    rad,
                    |dx, dz| dx.abs() + dz.abs() <= rad + 1,
                    &mut leaf,
                );
            }
        }
    }
    for k in 1..=height {
        let off = if k > height - 2 { 2 } else { 0 };
        w.set(x + lean.0 * off, y + k, z + lean.1 * off, log);
    }
}

/// Leaves on the square of radius `rad` around `(x, ly, z)` where `keep(dx, dz)` holds.
fn disc(
    w: &mut Writer<'_>,
    x: i32,
    ly: i32,
    z: i32,
    rad: i32,
    keep: impl Fn(i32, i32) -> bool,
    leaf: &mut impl FnMut(&mut Writer<'_>, i32, i32, i32),
) {
    for dz in -rad..=rad {
        for dx in -rad..=rad {
            if keep(dx, dz) {
                leaf(w, x + dx, ly, z + dz);
            }
        }
    }
}

/// Oak and birch: four layers, radius 2 then 1, corners dropped at random (always on top).
fn round_canopy(
    w: &mut Writer<'_>,
    r: &mut JavaRandom,
    x: i32,
    z: i32,
    top: i32,
    leaf: &mut impl FnMut(&mut Writer<'_>, i32, i32, i32),
) {
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

/// Spruce: rings from the tip down, radius 0, 1, 2, 1, 2, ...
fn cone_canopy(
    w: &mut Writer<'_>,
    x: i32,
    y: i32,
    z: i32,
    top: i32,
    leaf: &mut impl FnMut(&mut Writer<'_>, i32, i32, i32),
) {
    let mut rad: i32 = 0;
    for ly in (y + 3..=top + 1).rev() {
        disc(
            w,
            x,
            ly,
            z,
            rad,
            |dx, dz| dx.abs() + dz.abs() <= rad + 1,
            leaf,
        );
        rad = if rad >= 2 { 1 } else { rad + 1 };
    }
}
