//! Simplex (OpenSimplex2-style) gradient noise in 2D and 3D: skewed triangular/tetrahedral
//! lattice, radius² 0.5 kernels, no data-dependent branches.

use crate::noise::lattice::{g2, g3, hash, hx, hy, hz};
use crate::util::math::floor_i64;

/// `m as f64` for `m` in {0, 1}, from a mask: the plain conversion compiles to a
/// data-dependent branch, which mispredicts about half the time at fine octaves.
#[inline(always)]
fn one(m: i64) -> f64 {
    f64::from_bits(1.0f64.to_bits() & (m as u64).wrapping_neg())
}

/// `max(t, 0)` without a branch: whether a kernel reaches the sample is random at fine
/// octaves, and a branch there mispredicts about half the time. (A negative zero from `max`
/// is squared before use, so the result has the bits of the branching form.)
#[inline(always)]
fn pos(t: f64) -> f64 {
    t.max(0.0)
}

/// Output scale of [`simplex2`]: brings the measured extremes just inside `[-1, 1]`.
pub(crate) const SIMPLEX2_SCALE: f64 = 70.0;
/// Output scale of [`simplex3`].
pub(crate) const SIMPLEX3_SCALE: f64 = 75.0;
/// 2D skew factor `(√3 − 1) / 2`.
pub(crate) const F2: f64 = 0.366_025_403_784_438_6;
/// 2D unskew factor `(3 − √3) / 6`.
pub(crate) const G2: f64 = 0.211_324_865_405_187_1;
/// 3D skew factor.
pub(crate) const F3: f64 = 1.0 / 3.0;
/// 3D unskew factor.
pub(crate) const G3: f64 = 1.0 / 6.0;
/// Offset of the last 2D corner: `2 G2`.
pub(crate) const G2_2: f64 = 2.0 * G2;
/// Offset of the third 3D corner: `2 G3`.
pub(crate) const G3_2: f64 = 2.0 * G3;
/// Offset of the last 3D corner: `3 G3`.
pub(crate) const G3_3: f64 = 3.0 * G3;

/// The lattice stage of [`simplex2`] for one sample: the first corner's offsets, whether
/// the middle corner steps along x, and the three corners' coordinate products for [`hash`].
#[derive(Clone, Copy, Default)]
struct Simplex2Cell {
    x0: f64,
    y0: f64,
    /// 1 when the middle corner is `(1, 0)`, 0 when it is `(0, 1)`.
    step_x: u64,
    corners: [u64; 3],
}

#[inline(always)]
fn simplex2_cell(x: f64, y: f64) -> Simplex2Cell {
    let s = (x + y) * F2;
    let i = floor_i64(x + s);
    let j = floor_i64(y + s);
    let t = (i.wrapping_add(j)) as f64 * G2;
    let x0 = (x - i as f64) + t;
    let y0 = (y - j as f64) + t;
    let i1 = (x0 > y0) as i64;
    let j1 = 1 - i1;
    Simplex2Cell {
        x0,
        y0,
        step_x: i1 as u64,
        corners: [
            hx(i) ^ hy(j),
            hx(i.wrapping_add(i1)) ^ hy(j.wrapping_add(j1)),
            hx(i.wrapping_add(1)) ^ hy(j.wrapping_add(1)),
        ],
    }
}

/// The kernel stage of [`simplex2`]: the sum of the three corners' contributions, given the
/// corners' hashes.
#[inline(always)]
fn simplex2_kernels(c: &Simplex2Cell, h: [u64; 3]) -> f64 {
    let (x0, y0) = (c.x0, c.y0);
    let x1 = x0 - one(c.step_x as i64) + G2;
    let y1 = y0 - one(1 - c.step_x as i64) + G2;
    let x2 = x0 - 1.0 + G2_2;
    let y2 = y0 - 1.0 + G2_2;
    let (a, b) = g2(h[0]);
    let (cx, d) = g2(h[1]);
    let (e, f) = g2(h[2]);
    let t0 = pos(0.5 - x0 * x0 - y0 * y0);
    let t1 = pos(0.5 - x1 * x1 - y1 * y1);
    let t2 = pos(0.5 - x2 * x2 - y2 * y2);
    let (t0, t1, t2) = (t0 * t0, t1 * t1, t2 * t2);
    let n =
        t0 * t0 * (a * x0 + b * y0) + t1 * t1 * (cx * x1 + d * y1) + t2 * t2 * (e * x2 + f * y2);
    n * SIMPLEX2_SCALE
}

/// 2D simplex noise (skewed triangular lattice, radius² 0.5 kernels so it is continuous);
/// range about `[-1, 1]`.
#[inline(always)]
pub fn simplex2(seed: u64, x: f64, y: f64) -> f64 {
    let c = simplex2_cell(x, y);
    let h = c.corners.map(|a| hash(seed, a));
    simplex2_kernels(&c, h)
}

/// Most samples [`simplex2_batch`] takes at once.
pub(crate) const SIMPLEX_BATCH: usize = 32;

/// [`simplex2`] at `(xs[t], y)` into `out[t]` for up to [`SIMPLEX_BATCH`] samples, stage by
/// stage (lattice, hashes, kernels) so the samples' long dependency chains overlap. Each
/// sample goes through the same functions as [`simplex2`]: the bits are the same.
#[inline(always)]
pub(crate) fn simplex2_batch(seed: u64, xs: &[f64], y: f64, out: &mut [f64]) {
    let n = core::cmp::min(xs.len(), SIMPLEX_BATCH);
    let mut cells = [Simplex2Cell::default(); SIMPLEX_BATCH];
    for (c, &x) in cells[..n].iter_mut().zip(xs) {
        *c = simplex2_cell(x, y);
    }
    let mut hs = [[0u64; 3]; SIMPLEX_BATCH];
    for (h, c) in hs[..n].iter_mut().zip(&cells[..n]) {
        *h = c.corners.map(|a| hash(seed, a));
    }
    for ((o, c), h) in out.iter_mut().zip(&cells[..n]).zip(&hs[..n]) {
        *o = simplex2_kernels(c, *h);
    }
}

/// 3D simplex noise (tetrahedral lattice, radius² 0.5 kernels); range about `[-1, 1]`.
#[inline(always)]
pub fn simplex3(seed: u64, x: f64, y: f64, z: f64) -> f64 {
    let s = (x + y + z) * F3;
    let i = floor_i64(x + s);
    let j = floor_i64(y + s);
    let k = floor_i64(z + s);
    let t = (i.wrapping_add(j).wrapping_add(k)) as f64 * G3;
    let x0 = (x - i as f64) + t;
    let y0 = (y - j as f64) + t;
    let z0 = (z - k as f64) + t;
    // Rank the offsets without branches: the first step goes along the largest axis, the
    // second along the two largest.
    let xy = (x0 >= y0) as i64;
    let xz = (x0 >= z0) as i64;
    let yz = (y0 >= z0) as i64;
    let i1 = xy & xz;
    let j1 = (1 - xy) & yz;
    let k1 = (1 - xz) & (1 - yz);
    let i2 = xy | xz;
    let j2 = (1 - xy) | yz;
    let k2 = (1 - xz) | (1 - yz);
    let (x1, y1, z1) = (x0 - one(i1) + G3, y0 - one(j1) + G3, z0 - one(k1) + G3);
    let (x2, y2, z2) = (
        x0 - one(i2) + G3_2,
        y0 - one(j2) + G3_2,
        z0 - one(k2) + G3_2,
    );
    let (x3, y3, z3) = (x0 - 1.0 + G3_3, y0 - 1.0 + G3_3, z0 - 1.0 + G3_3);
    let h = |a: i64, b: i64, c: i64| {
        g3(hash(
            seed,
            hx(i.wrapping_add(a)) ^ hy(j.wrapping_add(b)) ^ hz(k.wrapping_add(c)),
        ))
    };
    let corner = |g: (f64, f64, f64), x: f64, y: f64, z: f64| {
        let t = pos(0.5 - x * x - y * y - z * z);
        let t = t * t;
        t * t * (g.0 * x + g.1 * y + g.2 * z)
    };
    let n = corner(h(0, 0, 0), x0, y0, z0)
        + corner(h(i1, j1, k1), x1, y1, z1)
        + corner(h(i2, j2, k2), x2, y2, z2)
        + corner(h(1, 1, 1), x3, y3, z3);
    n * SIMPLEX3_SCALE
}
