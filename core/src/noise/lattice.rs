//! Base noise functions in lattice units (frequency already applied): value, Perlin, simplex and
//! cellular, in 2D and 3D.
//!
//! Lattice points are hashed from their `i64` coordinates and a 64-bit seed by prime
//! multiplication (no permutation table, so no 256-cell period): each coordinate is multiplied
//! by its own odd 64-bit constant, the products and the seed are xored, and the result is
//! multiplied by a final odd constant; the top bits pick a gradient. Positions stay `f64` until
//! the in-cell fraction, so nothing degrades at 2^24 blocks.
//!
//! Value and Perlin noise are evaluated through a *row/cell* factoring that the batch fills in
//! [`crate::noise::fractal`] reuse: a row fixes the y (and z) lattice values, a cell fixes the x cell,
//! and the sample then costs a few multiplications. The point functions here call the same
//! row/cell/eval code, so a fill and a point sample give identical bits.

use crate::util::math::{floor_i64, lerp};

/// Multiplier for x lattice coordinates.
pub(crate) const PX: u64 = 0x9E37_79B1_85EB_CA87;
/// Multiplier for y lattice coordinates.
pub(crate) const PY: u64 = 0xC2B2_AE3D_27D4_EB4F;
/// Multiplier for z lattice coordinates.
pub(crate) const PZ: u64 = 0x1656_67B1_9E37_79F9;
/// Final multiplier of the lattice hash.
pub(crate) const HM: u64 = 0x27D4_EB2F_1656_67C5;

#[inline(always)]
pub(crate) fn hx(i: i64) -> u64 {
    (i as u64).wrapping_mul(PX)
}
#[inline(always)]
pub(crate) fn hy(i: i64) -> u64 {
    (i as u64).wrapping_mul(PY)
}
#[inline(always)]
pub(crate) fn hz(i: i64) -> u64 {
    (i as u64).wrapping_mul(PZ)
}
/// Hash of a lattice point whose coordinate products were xored into `a`. The xorshift and
/// second multiply spread every input bit into the top bits that pick gradients (a single
/// multiply left shifts by 3 × 256 cells visibly correlated).
#[inline(always)]
pub(crate) fn hash(seed: u64, a: u64) -> u64 {
    let h = (seed ^ a).wrapping_mul(HM);
    (h ^ (h >> 32)).wrapping_mul(PX)
}

/// A value in `[-1, 1)` from the hash's high 32 bits.
#[inline(always)]
pub(crate) fn value_of(h: u64) -> f64 {
    f64::from((h >> 32) as u32 as i32) * (1.0 / 2_147_483_648.0)
}

const R2: f64 = core::f64::consts::SQRT_2;
// Eight directions at 45° steps, length √2 (so 2D Perlin stays within [-1, 1]).
pub(crate) const GX2: [f64; 8] = [R2, 1.0, 0.0, -1.0, -R2, -1.0, 0.0, 1.0];
pub(crate) const GY2: [f64; 8] = [0.0, 1.0, R2, 1.0, 0.0, -1.0, -R2, -1.0];
// Perlin's twelve cube edges, four repeated to make sixteen.
pub(crate) const GX3: [f64; 16] = [
    1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0,
];
pub(crate) const GY3: [f64; 16] = [
    1.0, 1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0,
];
pub(crate) const GZ3: [f64; 16] = [
    0.0, 0.0, 0.0, 0.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 0.0, 0.0, 1.0, -1.0,
];

#[inline(always)]
pub(crate) fn g2(h: u64) -> (f64, f64) {
    let k = (h >> 61) as usize;
    (GX2[k], GY2[k])
}
#[inline(always)]
pub(crate) fn g3(h: u64) -> (f64, f64, f64) {
    let k = (h >> 60) as usize;
    (GX3[k], GY3[k], GZ3[k])
}

/// Quintic fade `6t^5 - 15t^4 + 10t^3`.
#[inline(always)]
pub(crate) fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// One axis of a lattice position: cell index, fraction, fraction − 1, and faded fraction.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Axis {
    pub i: i64,
    pub f: f64,
    pub f1: f64,
    pub s: f64,
}

impl Axis {
    #[inline(always)]
    pub fn new(p: f64) -> Self {
        let i = floor_i64(p);
        let f = p - i as f64;
        Axis {
            i,
            f,
            f1: f - 1.0,
            s: fade(f),
        }
    }
}

/// The per-x-cell state of a lattice noise: `eval` = `lerp(u, fx*p0 + q0, fx1*p1 + q1)`.
/// For value noise `p0 = p1 = 0` is not used; see [`Lattice::eval`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cell {
    pub p0: f64,
    pub q0: f64,
    pub p1: f64,
    pub q1: f64,
}

/// The fixed y (and z) part of a lattice noise evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Row {
    seed: u64,
    y: Axis,
    z: Axis,
    hy0: u64,
    hy1: u64,
    hz0: u64,
    hz1: u64,
}

impl Row {
    /// The hashes of the eight corners of the 3D cell of x index `ix`: x side 0 then 1,
    /// each (y0 z0, y1 z0, y0 z1, y1 z1).
    #[inline(always)]
    pub fn corner_hashes(&self, ix: i64) -> [u64; 8] {
        let (x0, x1) = (hx(ix), hx(ix.wrapping_add(1)));
        let h = |xh: u64, yh: u64, zh: u64| hash(self.seed, xh ^ yh ^ zh);
        [
            h(x0, self.hy0, self.hz0),
            h(x0, self.hy1, self.hz0),
            h(x0, self.hy0, self.hz1),
            h(x0, self.hy1, self.hz1),
            h(x1, self.hy0, self.hz0),
            h(x1, self.hy1, self.hz0),
            h(x1, self.hy0, self.hz1),
            h(x1, self.hy1, self.hz1),
        ]
    }

    /// The z lattice cell of a 3D row: rows with the same one (and the same y) share
    /// [`Lattice::corners3`].
    #[inline(always)]
    pub fn z_cell(&self) -> i64 {
        self.z.i
    }
}

/// A lattice noise factored into row, cell and sample (value and Perlin).
pub(crate) trait Lattice {
    /// Gradient (Perlin) rather than value noise: lets the AVX2 fill pick its kernel at
    /// compile time.
    const GRADIENT: bool;
    fn row2(seed: u64, y: &Axis) -> Row {
        Row {
            seed,
            y: *y,
            z: Axis::default(),
            hy0: hy(y.i),
            hy1: hy(y.i.wrapping_add(1)),
            hz0: 0,
            hz1: 0,
        }
    }
    fn row3(seed: u64, y: &Axis, z: &Axis) -> Row {
        Row {
            seed,
            y: *y,
            z: *z,
            hy0: hy(y.i),
            hy1: hy(y.i.wrapping_add(1)),
            hz0: hz(z.i),
            hz1: hz(z.i.wrapping_add(1)),
        }
    }
    /// The cell of x index `ix` in a 2D row.
    #[inline(always)]
    fn cell2(row: &Row, ix: i64) -> Cell {
        Self::cell2_hashed(row, hx(ix), hx(ix.wrapping_add(1)))
    }
    /// [`Lattice::cell2`] from the cell's two x coordinate products `hx(ix)`, `hx(ix + 1)`.
    fn cell2_hashed(row: &Row, x0: u64, x1: u64) -> Cell;
    /// The hashed corners of the 3D cell of x index `ix`: everything of [`Lattice::cell3`]
    /// that depends only on the lattice cell, not on the position in it (so rows in one
    /// y/z cell can share it).
    type Corners: Copy;
    fn corners3(row: &Row, ix: i64) -> Self::Corners;
    /// [`Lattice::cell3`] from the cell's corners (hashed for a row in the same cell).
    fn cell3_from(row: &Row, c: &Self::Corners) -> Cell;
    #[inline(always)]
    fn cell3(row: &Row, ix: i64) -> Cell {
        Self::cell3_from(row, &Self::corners3(row, ix))
    }
    /// The sample at x fraction `f` (`f1 = f − 1`, fade `s`) of a cell.
    fn eval_parts(c: &Cell, f: f64, f1: f64, s: f64) -> f64;
    #[inline(always)]
    fn eval(c: &Cell, x: &Axis) -> f64 {
        Self::eval_parts(c, x.f, x.f1, x.s)
    }
}

/// Gradient (Perlin) noise, improved: quintic fade, table gradients.
///
/// The dot product `g · (fx - a, fy - b)` is split into `gx * (fx - a)` and the row part
/// `gy * (fy - b)`, and the y (and z) interpolation is done before the x one, which is the
/// same function written so that a grid row shares all of its y/z work.
pub(crate) struct Perlin;

impl Lattice for Perlin {
    const GRADIENT: bool = true;
    #[inline(always)]
    fn cell2_hashed(r: &Row, x0: u64, x1: u64) -> Cell {
        let (a, b) = g2(hash(r.seed, x0 ^ r.hy0));
        let (c, d) = g2(hash(r.seed, x0 ^ r.hy1));
        let (e, f) = g2(hash(r.seed, x1 ^ r.hy0));
        let (g, h) = g2(hash(r.seed, x1 ^ r.hy1));
        let v = r.y.s;
        Cell {
            p0: lerp(v, a, c),
            q0: lerp(v, b * r.y.f, d * r.y.f1),
            p1: lerp(v, e, g),
            q1: lerp(v, f * r.y.f, h * r.y.f1),
        }
    }

    /// The gradients of the cell's eight corners: x side 0 then 1, each (y0 z0, y1 z0,
    /// y0 z1, y1 z1).
    type Corners = [(f64, f64, f64); 8];

    #[inline(always)]
    fn corners3(r: &Row, ix: i64) -> Self::Corners {
        r.corner_hashes(ix).map(g3)
    }

    #[inline(always)]
    fn cell3_from(r: &Row, c: &Self::Corners) -> Cell {
        let (v, w) = (r.y.s, r.z.s);
        let (fy, fy1, fz, fz1) = (r.y.f, r.y.f1, r.z.f, r.z.f1);
        let side = |g: &[(f64, f64, f64)]| -> (f64, f64) {
            let ((a0, b0, c0), (a1, b1, c1), (a2, b2, c2), (a3, b3, c3)) = (g[0], g[1], g[2], g[3]);
            let p = lerp(w, lerp(v, a0, a1), lerp(v, a2, a3));
            let q = lerp(
                w,
                lerp(v, b0 * fy + c0 * fz, b1 * fy1 + c1 * fz),
                lerp(v, b2 * fy + c2 * fz1, b3 * fy1 + c3 * fz1),
            );
            (p, q)
        };
        let (p0, q0) = side(&c[..4]);
        let (p1, q1) = side(&c[4..]);
        Cell { p0, q0, p1, q1 }
    }

    #[inline(always)]
    fn eval_parts(c: &Cell, f: f64, f1: f64, s: f64) -> f64 {
        lerp(s, f * c.p0 + c.q0, f1 * c.p1 + c.q1)
    }
}

/// Value noise: a random value per lattice point, quintic interpolation.
/// The cell keeps the y/z-interpolated values of its two x sides in `q0` and `q1`.
pub(crate) struct Value;

impl Lattice for Value {
    const GRADIENT: bool = false;
    #[inline(always)]
    fn cell2_hashed(r: &Row, x0: u64, x1: u64) -> Cell {
        let v = r.y.s;
        Cell {
            p0: 0.0,
            q0: lerp(
                v,
                value_of(hash(r.seed, x0 ^ r.hy0)),
                value_of(hash(r.seed, x0 ^ r.hy1)),
            ),
            p1: 0.0,
            q1: lerp(
                v,
                value_of(hash(r.seed, x1 ^ r.hy0)),
                value_of(hash(r.seed, x1 ^ r.hy1)),
            ),
        }
    }

    /// The values of the cell's eight corners, in the order of Perlin's corners.
    type Corners = [f64; 8];

    #[inline(always)]
    fn corners3(r: &Row, ix: i64) -> Self::Corners {
        r.corner_hashes(ix).map(value_of)
    }

    #[inline(always)]
    fn cell3_from(r: &Row, c: &Self::Corners) -> Cell {
        let (v, w) = (r.y.s, r.z.s);
        let side = |c: &[f64]| lerp(w, lerp(v, c[0], c[1]), lerp(v, c[2], c[3]));
        Cell {
            p0: 0.0,
            q0: side(&c[..4]),
            p1: 0.0,
            q1: side(&c[4..]),
        }
    }

    #[inline(always)]
    fn eval_parts(c: &Cell, _f: f64, _f1: f64, s: f64) -> f64 {
        lerp(s, c.q0, c.q1)
    }
}

#[inline(always)]
fn lattice2<L: Lattice>(seed: u64, x: f64, y: f64) -> f64 {
    let (ax, ay) = (Axis::new(x), Axis::new(y));
    L::eval(&L::cell2(&L::row2(seed, &ay), ax.i), &ax)
}

#[inline(always)]
fn lattice3<L: Lattice>(seed: u64, x: f64, y: f64, z: f64) -> f64 {
    let (ax, ay, az) = (Axis::new(x), Axis::new(y), Axis::new(z));
    L::eval(&L::cell3(&L::row3(seed, &ay, &az), ax.i), &ax)
}

/// 2D Perlin noise at lattice position `(x, y)`; range within `[-1, 1]`.
pub fn perlin2(seed: u64, x: f64, y: f64) -> f64 {
    lattice2::<Perlin>(seed, x, y)
}

/// 3D Perlin noise at lattice position `(x, y, z)`; range within `[-1, 1]`.
pub fn perlin3(seed: u64, x: f64, y: f64, z: f64) -> f64 {
    lattice3::<Perlin>(seed, x, y, z)
}

/// 2D value noise; range `[-1, 1)`.
pub fn value2(seed: u64, x: f64, y: f64) -> f64 {
    lattice2::<Value>(seed, x, y)
}

/// 3D value noise; range `[-1, 1)`.
pub fn value3(seed: u64, x: f64, y: f64, z: f64) -> f64 {
    lattice3::<Value>(seed, x, y, z)
}

/// Multiplier for w lattice coordinates (4D noise).
const PW: u64 = 0xD6E8_FEB8_6659_FD93;

/// 4D Perlin noise (quintic fade, gradients `(±1, ±1, ±1, 0)` and permutations, 32 in all),
/// used to tile images seamlessly by sampling a torus. Range within about `[-1, 1]`.
pub fn perlin4(seed: u64, x: f64, y: f64, z: f64, w: f64) -> f64 {
    let (ax, ay, az, aw) = (Axis::new(x), Axis::new(y), Axis::new(z), Axis::new(w));
    let hxs = [hx(ax.i), hx(ax.i.wrapping_add(1))];
    let hys = [hy(ay.i), hy(ay.i.wrapping_add(1))];
    let hzs = [hz(az.i), hz(az.i.wrapping_add(1))];
    let hws = [
        (aw.i as u64).wrapping_mul(PW),
        (aw.i.wrapping_add(1) as u64).wrapping_mul(PW),
    ];
    let fx = [ax.f, ax.f1];
    let fy = [ay.f, ay.f1];
    let fz = [az.f, az.f1];
    let fw = [aw.f, aw.f1];
    let corner = |i: usize, j: usize, k: usize, l: usize| -> f64 {
        let h = hash(seed, hxs[i] ^ hys[j] ^ hzs[k] ^ hws[l]);
        // Top 5 bits: which axis is zero (2 bits) and the three signs.
        let zero = (h >> 62) as usize;
        let s = |b: u32| if (h >> (58 + b)) & 1 == 0 { 1.0 } else { -1.0 };
        let v = [fx[i], fy[j], fz[k], fw[l]];
        let mut acc = 0.0;
        let mut b = 0;
        for (axis, c) in v.iter().enumerate() {
            if axis != zero {
                acc += s(b) * c;
                b += 1;
            }
        }
        acc
    };
    let mut lw = [0.0; 2];
    for (l, out) in lw.iter_mut().enumerate() {
        let mut lz = [0.0; 2];
        for (k, oz) in lz.iter_mut().enumerate() {
            let y0 = lerp(ax.s, corner(0, 0, k, l), corner(1, 0, k, l));
            let y1 = lerp(ax.s, corner(0, 1, k, l), corner(1, 1, k, l));
            *oz = lerp(ay.s, y0, y1);
        }
        *out = lerp(az.s, lz[0], lz[1]);
    }
    lerp(aw.s, lw[0], lw[1]) * 0.75
}
