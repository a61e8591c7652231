//! Trees: a kind's trunk and canopy shape (canopies cross chunk borders as patches).

use crate::util::random::JavaRandom;
use crate::world::block::BlockId;
use crate::world::definition::{TreeDef, TreeShape};
use crate::world::feature::ores::is_air_or_plant;
use crate::world::feature::Writer;

/// Grow a tree of `kind` on the ground block `(x, y, z)` if its trunk column is free; the
/// ground becomes `ground`.
pub(super) fn place_tree(
    w: &mut Writer<'_>,
    r: &mut JavaRandom,
    kind: &TreeDef,
    ground: BlockId,
    x: i32,
    y: i32,
    z: i32,
) {
    let (log, leaves) = (kind.log, kind.leaves);
    let height = kind.base_height + r.next_int_bounded(kind.random_height);
    let palette = w.palette();
    let free = |b: BlockId| is_air_or_plant(palette, b);
    // Room to grow: the trunk column must be free.
    for k in 1..=height {
        if !w.get(x, y + k, z).map_or(false, free) {
            return;
        }
    }
    w.set(x, y, z, ground);
    let top = y + height;
    let mut leaf = |w: &mut Writer<'_>, lx: i32, ly: i32, lz: i32| {
        w.set_if(lx, ly, lz, leaves, free);
    };
    // The trunk's offset at its top two blocks (flat canopies lean).
    let mut lean = (0, 0);
    match kind.shape {
        TreeShape::Round => round_canopy(w, r, x, z, top, &mut leaf),
        TreeShape::Cone => cone_canopy(w, x, y, z, top, &mut leaf),
        TreeShape::Blob => {
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
        TreeShape::Flat => {
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
