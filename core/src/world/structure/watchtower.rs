//! Watchtowers: a surface tower with huts and paths, its terrain adapted by the beard.

use alloc::vec::Vec;

use crate::util::math::{cos, floor_i64, sin};
use crate::util::random::JavaRandom;
use crate::world::biome::ClimateSampler;
use crate::world::definition::Definition;
use crate::world::dims::Dims;
use crate::world::feature::BlockEntity;
use crate::world::structure::{bx, piece, Assembled, BlockBox, PieceKind, LOOT_TOWER};
use crate::world::terrain::column_shape;

/// Estimated surface height at a column (the terrain's target height, a pure function).
fn surface_estimate(
    world: &Definition,
    climate: &ClimateSampler,
    dims: &Dims,
    x: i32,
    z: i32,
    w: &mut crate::util::digest::Digest,
) -> i32 {
    let c = climate.sample(f64::from(x), f64::from(z));
    let (h, _) = column_shape(&world.terrain, &c, f64::from(dims.sea_level));
    w.write_f64(h);
    core::cmp::max(floor_i64(h) as i32, dims.sea_level + 1)
}

pub(super) fn watchtower(
    r: &mut JavaRandom,
    dims: &Dims,
    world: &Definition,
    climate: &ClimateSampler,
    cx: i32,
    cz: i32,
) -> Assembled {
    let mut wit = crate::util::digest::Digest::new();
    let fy = surface_estimate(world, climate, dims, cx, cz, &mut wit);
    let top = core::cmp::min(fy + 14, dims.max_y() - 1);
    let mut pieces = alloc::vec![piece(
        PieceKind::Tower,
        bx([cx - 3, fy, cz - 3], [cx + 3, top, cz + 3])
    )];
    let mut entities = alloc::vec![BlockEntity {
        pos: [cx, fy + 1, cz],
        kind: world.structure_blocks.chest,
        data: LOOT_TOWER
    }];
    let huts = 2 + r.next_int_bounded(3);
    let mut paths = Vec::new();
    for _ in 0..huts {
        let angle = r.next_float_f64() * core::f64::consts::TAU;
        let dist = f64::from(14 + r.next_int_bounded(10));
        let (ox, oz) = (cos(angle) * dist, sin(angle) * dist);
        wit.write_f64(ox);
        wit.write_f64(oz);
        let hx = cx + floor_i64(ox) as i32;
        let hz = cz + floor_i64(oz) as i32;
        let (hw, hd) = if r.next_bool() { (2, 2) } else { (3, 2) };
        let hy = surface_estimate(world, climate, dims, hx, hz, &mut wit);
        let hut = bx(
            [hx - hw, hy, hz - hd],
            [hx + hw, core::cmp::min(hy + 5, dims.max_y() - 1), hz + hd],
        );
        if pieces.iter().any(|p| overlaps(&p.bbox, &hut, 2)) {
            continue;
        }
        pieces.push(piece(PieceKind::Hut, hut));
        entities.push(BlockEntity {
            pos: [hx, hy + 1, hz],
            kind: world.structure_blocks.chest,
            data: LOOT_TOWER,
        });
        let mut path = piece(
            PieceKind::Path,
            bx(
                [core::cmp::min(cx, hx), dims.min_y, core::cmp::min(cz, hz)],
                [core::cmp::max(cx, hx), dims.max_y(), core::cmp::max(cz, hz)],
            ),
        );
        path.ends = [cx, cz, hx, hz];
        paths.push(path);
    }
    pieces.extend(paths);
    Assembled::new(pieces, Vec::new(), entities, wit.finish())
}

fn overlaps(a: &BlockBox, b: &BlockBox, margin: i32) -> bool {
    a.min[0] - margin <= b.max[0]
        && a.max[0] + margin >= b.min[0]
        && a.min[2] - margin <= b.max[2]
        && a.max[2] + margin >= b.min[2]
}
