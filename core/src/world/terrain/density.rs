//! Phase 1 of terrain: density and noise caves at cell corners (4 × 8 × 4 blocks),
//! interpolated trilinearly and classified as solid, cave or open.

use alloc::vec;
use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::noise::Grid3;
use crate::util::digest::Digest;
use crate::util::math::{clamp, lerp, sqrt};
use crate::world::definition::CaveDef;
use crate::world::dims::Dims;
use crate::world::terrain::beard::beard_adjust;
use crate::world::terrain::column::column_shape;
use crate::world::terrain::TerrainInput;

/// Block kinds of the classified shape.
pub(crate) const SOLID: u8 = 0;
pub(crate) const CAVE: u8 = 1;
pub(crate) const OPEN: u8 = 2;

/// Cell size in blocks along x and z.
const CELL_XZ: i32 = 4;
/// Cell size in blocks along y.
const CELL_Y: i32 = 8;
/// Cell corners per chunk side (16 / 4 + 1).
const CORNERS_SIDE: usize = 5;
/// Cell corners per layer.
const CORNERS: usize = CORNERS_SIDE * CORNERS_SIDE;

/// The shape of a chunk before blocks are chosen: what each block is (solid, cave, open),
/// each column's floor (top solid of the cave-free density) and the corner heights.
pub struct Shape {
    pub(crate) kind: Vec<u8>,
    pub(crate) floor: [i32; 256],
    pub(crate) col_h: [f64; CORNERS],
    pub(crate) witness: u64,
}

impl Shape {
    /// The block kinds' array, for the next [`shape_in`] to write into.
    pub fn into_kind(self) -> Vec<u8> {
        self.kind
    }
}

/// The densities at every cell corner (layer-major: `j * 25 + cz * 5 + cx`).
struct Corners {
    /// Terrain density without caves (> 0 solid).
    base: Vec<f64>,
    /// With noise caves: `min(base, caves)`.
    fin: Vec<f64>,
    /// Corner layers along y.
    ny: usize,
}

/// Phase 1: density and noise caves at cell corners, interpolated and classified.
pub fn shape(inp: &TerrainInput<'_>, pos: ChunkPos) -> Shape {
    shape_in(inp, pos, Vec::new())
}

/// [`shape`], its block kinds written into `kind` (an earlier call's [`Shape::into_kind`],
/// whatever it holds: every entry is written).
pub fn shape_in(inp: &TerrainInput<'_>, pos: ChunkPos, kind: Vec<u8>) -> Shape {
    let (col_h, col_j) = corner_columns(inp, pos);
    let corners = corner_densities(inp, pos, &col_h, &col_j);
    let (kind, floor) = classify(&inp.dims, &corners, kind);
    let mut w = Digest::new();
    w.write_f64_slice(&col_h);
    w.write_f64_slice(&col_j);
    w.write_f64_slice(&corners.base);
    w.write_f64_slice(&corners.fin);
    Shape {
        kind,
        floor,
        col_h,
        witness: w.finish(),
    }
}

/// Target height and jag of each column corner.
fn corner_columns(inp: &TerrainInput<'_>, pos: ChunkPos) -> ([f64; CORNERS], [f64; CORNERS]) {
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let sea = f64::from(inp.dims.sea_level);
    let mut col_h = [0.0f64; CORNERS];
    let mut col_j = [0.0f64; CORNERS];
    for k in 0..CORNERS_SIDE {
        for i in 0..CORNERS_SIDE {
            let c = inp.climate.sample(
                f64::from(bx + CELL_XZ * i as i32),
                f64::from(bz + CELL_XZ * k as i32),
            );
            let (h, j) = column_shape(&inp.definition.terrain, &c, sea);
            col_h[k * CORNERS_SIDE + i] = h;
            col_j[k * CORNERS_SIDE + i] = j;
        }
    }
    (col_h, col_j)
}

/// The cave density at a corner: the lower of cheese chambers and spaghetti tunnels, closed
/// near the surface and the floor.
#[inline]
#[allow(clippy::too_many_arguments)]
fn cave_density(
    c: &CaveDef,
    cheese: f64,
    spag_a: f64,
    spag_b: f64,
    h: f64,
    y: f64,
    min_y: f64,
) -> f64 {
    let carve_c = (c.cheese_threshold - cheese) * c.cheese_sharpness;
    let carve_s =
        (sqrt(spag_a * spag_a + spag_b * spag_b) - c.spaghetti_radius) * c.spaghetti_sharpness;
    let fade = clamp((h - c.surface_margin - y) / c.surface_fade, 0.0, 1.0)
        * clamp((y - min_y - c.floor_margin) / c.floor_fade, 0.0, 1.0);
    let cave = if carve_c < carve_s { carve_c } else { carve_s };
    cave + (1.0 - fade) * c.fade_close
}

/// Terrain and cave densities at every cell corner, from one 3D fill per noise (y
/// outermost, then z, then x).
fn corner_densities(
    inp: &TerrainInput<'_>,
    pos: ChunkPos,
    col_h: &[f64; CORNERS],
    col_j: &[f64; CORNERS],
) -> Corners {
    let dims = inp.dims;
    let caves = &inp.definition.terrain.caves;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let ny = dims.height as usize / CELL_Y as usize + 1;
    let n = CORNERS * ny;
    let grid = Grid3 {
        origin: [f64::from(bx), f64::from(dims.min_y), f64::from(bz)],
        step: [f64::from(CELL_XZ), f64::from(CELL_Y), f64::from(CELL_XZ)],
        width: CORNERS_SIDE,
        height: ny,
        depth: CORNERS_SIDE,
    };
    let stretched = |s: f64| Grid3 {
        origin: [grid.origin[0], grid.origin[1] * s, grid.origin[2]],
        step: [grid.step[0], grid.step[1] * s, grid.step[2]],
        ..grid
    };
    let mut n3 = vec![0.0f64; n];
    let mut cheese = vec![0.0f64; n];
    let mut sa = vec![0.0f64; n];
    let mut sb = vec![0.0f64; n];
    // The grids are in range for every valid chunk position: errors cannot occur, and if
    // they did the samples would stay 0 (flat terrain), never a panic.
    let _ = inp.noises.density.fill_3d(&grid, &mut n3);
    let _ = inp
        .noises
        .cheese
        .fill_3d(&stretched(caves.cheese_y_stretch), &mut cheese);
    let _ = inp
        .noises
        .spag_a
        .fill_3d(&stretched(caves.spaghetti_y_stretch), &mut sa);
    let _ = inp
        .noises
        .spag_b
        .fill_3d(&stretched(caves.spaghetti_y_stretch), &mut sb);

    let mut base = vec![0.0f64; n];
    let mut fin = vec![0.0f64; n];
    let min_y = f64::from(dims.min_y);
    for j in 0..ny {
        let y = min_y + f64::from(CELL_Y) * j as f64;
        for c in 0..CORNERS {
            let idx = j * CORNERS + c;
            let h = col_h[c];
            let mut d = (h - y) / col_j[c] + n3[idx];
            if !inp.beard.is_empty() {
                let (x, z) = (
                    f64::from(bx + CELL_XZ * (c % CORNERS_SIDE) as i32),
                    f64::from(bz + CELL_XZ * (c / CORNERS_SIDE) as i32),
                );
                d = beard_adjust(inp.beard, x, y, z, d);
            }
            let cave = cave_density(caves, cheese[idx], sa[idx], sb[idx], h, y, min_y);
            base[idx] = d;
            fin[idx] = if cave < d { cave } else { d };
        }
    }
    Corners { base, fin, ny }
}

/// The eight corners of a cell in (dy, dz, dx) order.
const CELL_CORNERS: [(usize, usize, usize); 8] = [
    (0, 0, 0),
    (0, 0, 1),
    (0, 1, 0),
    (0, 1, 1),
    (1, 0, 0),
    (1, 0, 1),
    (1, 1, 0),
    (1, 1, 1),
];

/// The densities `v` (layer-major, as [`Corners`]) at the eight corners of cell
/// `(cy, cz, cx)`, in [`CELL_CORNERS`] order.
#[inline]
fn cell_corners(v: &[f64], cy: usize, cz: usize, cx: usize) -> [f64; 8] {
    let mut out = [0.0; 8];
    for (o, (dy, dz, dx)) in out.iter_mut().zip(CELL_CORNERS.iter()) {
        *o = v[(cy + dy) * CORNERS + (cz + dz) * CORNERS_SIDE + cx + dx];
    }
    out
}

/// Corner densities at least this large interpolate to values above 0 everywhere in their
/// cell: each interpolation step keeps more than a tenth of its smaller end (its weight is at
/// most 7/8), so three steps stay far above 0 and the subnormals.
const SURELY_POSITIVE: f64 = 1e-300;

/// Whether interpolating the eight corner densities `v` gives values above 0 everywhere in
/// the cell (`Some(true)`: every corner at least [`SURELY_POSITIVE`]), nowhere (`Some(false)`:
/// every corner at most 0, and `a + t * (b - a)` of two values at most 0 is at most 0), or
/// either.
#[inline]
fn sign_of_cell(v: &[f64; 8]) -> Option<bool> {
    if v.iter().all(|&d| d >= SURELY_POSITIVE) {
        Some(true)
    } else if v.iter().all(|&d| d <= 0.0) {
        Some(false)
    } else {
        None
    }
}

/// Interpolate the corner densities to every block and classify it; also each column's
/// floor (top block of positive base density).
fn classify(dims: &Dims, corners: &Corners, kind: Vec<u8>) -> (Vec<u8>, [i32; 256]) {
    classify_with::<true>(dims, corners, kind)
}

/// [`classify`]; with `SKIP_SURE` a cell whose corners all have the same sure sign (see
/// [`sign_of_cell`]) is written whole without interpolating (most cells: solid rock below,
/// open air above). The hot loop of terrain, kept in one piece: per cell, the edges along y
/// are interpolated once per layer, then z, then x (splitting it into closures costs about
/// 25% more instructions for the whole shape phase).
fn classify_with<const SKIP_SURE: bool>(
    dims: &Dims,
    corners: &Corners,
    mut kind: Vec<u8>,
) -> (Vec<u8>, [i32; 256]) {
    const TX: [f64; 4] = [0.0, 0.25, 0.5, 0.75];
    const TY: [f64; 8] = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875];
    let (base, fin, ny) = (&corners.base[..], &corners.fin[..], corners.ny);
    kind.clear();
    kind.resize(dims.volume(), SOLID);
    let mut floor = [dims.min_y - 1; 256];
    for cy in 0..ny - 1 {
        for cz in 0..4 {
            for cx in 0..4 {
                let b8 = cell_corners(base, cy, cz, cx);
                let f8 = cell_corners(fin, cy, cz, cx);
                if SKIP_SURE {
                    if let (Some(fin_above), Some(base_above)) =
                        (sign_of_cell(&f8), sign_of_cell(&b8))
                    {
                        let y0 = dims.min_y + cy as i32 * CELL_Y;
                        let k = if fin_above {
                            SOLID
                        } else if base_above {
                            CAVE
                        } else {
                            OPEN
                        };
                        // `kind` starts solid: only caves and open cells are written.
                        if k != SOLID {
                            for y in y0..y0 + CELL_Y {
                                for z in cz * 4..cz * 4 + 4 {
                                    let i = dims.index(cx * 4, y, z);
                                    kind[i..i + 4].fill(k);
                                }
                            }
                        }
                        if base_above {
                            let top = y0 + CELL_Y - 1;
                            for z in cz * 4..cz * 4 + 4 {
                                for f in &mut floor[z * 16 + cx * 4..z * 16 + cx * 4 + 4] {
                                    if top > *f {
                                        *f = top;
                                    }
                                }
                            }
                        }
                        continue;
                    }
                }
                for (ly, &ty) in TY.iter().enumerate() {
                    let y = dims.min_y + (cy * 8 + ly) as i32;
                    // Edges along y: (z0,x0) (z0,x1) (z1,x0) (z1,x1).
                    let be = [
                        lerp(ty, b8[0], b8[4]),
                        lerp(ty, b8[1], b8[5]),
                        lerp(ty, b8[2], b8[6]),
                        lerp(ty, b8[3], b8[7]),
                    ];
                    let fe = [
                        lerp(ty, f8[0], f8[4]),
                        lerp(ty, f8[1], f8[5]),
                        lerp(ty, f8[2], f8[6]),
                        lerp(ty, f8[3], f8[7]),
                    ];
                    for (lz, &tz) in TX.iter().enumerate() {
                        let (b0, b1) = (lerp(tz, be[0], be[2]), lerp(tz, be[1], be[3]));
                        let (f0, f1) = (lerp(tz, fe[0], fe[2]), lerp(tz, fe[1], fe[3]));
                        let z = cz * 4 + lz;
                        for (lx, &tx) in TX.iter().enumerate() {
                            let x = cx * 4 + lx;
                            let bv = lerp(tx, b0, b1);
                            let fv = lerp(tx, f0, f1);
                            let i = dims.index(x, y, z);
                            kind[i] = if fv > 0.0 {
                                SOLID
                            } else if bv > 0.0 {
                                CAVE
                            } else {
                                OPEN
                            };
                            if bv > 0.0 {
                                let f = &mut floor[z * 16 + x];
                                if y > *f {
                                    *f = y;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    (kind, floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::JavaRandom;

    /// Writing cells of one sure sign whole gives the kinds and floors of interpolating every
    /// block: corners all positive, all at most 0 (signed zeros among them), mixed, at the
    /// edges of the rule (exactly `SURELY_POSITIVE`, just below it, subnormals, NaN) and
    /// spread over every magnitude, for base and final densities independently.
    #[test]
    fn skipping_sure_cells_equals_interpolating_every_block() {
        let dims = Dims {
            min_y: -64,
            height: 48,
            sea_level: 0,
        };
        let ny = dims.height as usize / CELL_Y as usize + 1;
        let mut rng = JavaRandom::new(7);
        let specials = [
            0.0,
            -0.0,
            SURELY_POSITIVE,
            SURELY_POSITIVE * 0.5,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            1e300,
            -1e300,
            f64::NAN,
        ];
        let draw = |regime: i32, rng: &mut JavaRandom| -> f64 {
            let magnitude = 10f64.powi(rng.next_int_bounded(600) - 300) * rng.next_double();
            match regime {
                0 => SURELY_POSITIVE + magnitude,
                1 => -magnitude,
                2 => specials[rng.next_int_bounded(specials.len() as i32) as usize],
                _ => (rng.next_double() - 0.5) * 4.0,
            }
        };
        let mut cells = [0usize; 4];
        for case in 0..3000 {
            let mut base = vec![0.0; CORNERS * ny];
            let mut fin = vec![0.0; CORNERS * ny];
            // A regime per corner layer, often kept for the next layer, so whole cells share
            // a sign: base from `draw`, the final density equal to it, at most 0 (a cave), or
            // drawn on its own.
            let (mut regime, mut fin_rule) = (0, 0);
            for j in 0..ny {
                if j == 0 || rng.next_int_bounded(3) == 0 {
                    regime = rng.next_int_bounded(4);
                    fin_rule = rng.next_int_bounded(3);
                }
                for i in j * CORNERS..(j + 1) * CORNERS {
                    base[i] = draw(regime, &mut rng);
                    fin[i] = match fin_rule {
                        0 => base[i],
                        1 => draw(1, &mut rng),
                        _ => draw(rng.next_int_bounded(4), &mut rng),
                    };
                }
            }
            let corners = Corners { base, fin, ny };
            let (fast_kind, fast_floor) = classify_with::<true>(&dims, &corners, Vec::new());
            let (kind, floor) = classify_with::<false>(&dims, &corners, vec![9; 5]);
            assert_eq!(fast_kind, kind, "case {case}");
            assert_eq!(fast_floor, floor, "case {case}");
            for cell in 0..(ny - 1) * 16 {
                let (cy, cz, cx) = (cell / 16, cell / 4 % 4, cell % 4);
                let f8 = cell_corners(&corners.fin, cy, cz, cx);
                let b8 = cell_corners(&corners.base, cy, cz, cx);
                match (sign_of_cell(&f8), sign_of_cell(&b8)) {
                    (Some(true), _) => cells[0] += 1,
                    (Some(false), Some(true)) => cells[1] += 1,
                    (Some(false), Some(false)) => cells[2] += 1,
                    _ => cells[3] += 1,
                }
            }
        }
        // Every way a cell can go was taken many times: solid, cave, open, interpolated.
        assert!(cells.iter().all(|&n| n > 1000), "{cells:?}");
    }
}
