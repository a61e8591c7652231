//! The per-sample kernels of the `f32` noise, over `N` lanes at once.
//!
//! Kernels are written with the lane vectors of [`super::lanes`] (one operation per
//! instruction, whatever `N` is), with no branch and no table: selections are per-lane
//! conditions, gradients come from the hash bits by sign flips and selections. A lane's
//! arithmetic never depends on `N` or on its neighbours, which is why every lane width gives
//! the same bits. Cellular noise, whose search is not on the speed path, runs its scalar code
//! once per lane.

use super::lanes::{F, M, U};
use super::{combine, hash, split, Split, PX, PY, PZ};
use crate::noise::cellular::{CellularDistance, CellularReturn};
use crate::util::math::sqrtf;

/// 2D skew factor `(√3 − 1) / 2`, as `1 + F` and `F` (the per-axis terms of the skew).
pub(crate) const F2: f64 = 0.366_025_403_784_438_6;
/// 2D unskew factor `(3 − √3) / 6`.
pub(crate) const G2: f32 = 0.211_324_87;
/// Offset of the last 2D corner, `2·G2 − 1`.
pub(crate) const G2_2M1: f32 = -0.577_350_26;
/// 3D skew factor `1/3`.
pub(crate) const F3: f64 = 1.0 / 3.0;
/// 3D unskew factor `1/6`.
pub(crate) const G3: f32 = 1.0 / 6.0;
/// Offset of the third 3D corner, `2·G3`.
pub(crate) const G3_2: f32 = 1.0 / 3.0;
/// Offset of the last 3D corner, `3·G3 − 1`.
pub(crate) const G3_3M1: f32 = -0.5;
/// Squared radius of a simplex kernel (continuous at the simplex borders).
pub(crate) const RADIUS2: f32 = 0.5;
/// Output scale of 2D simplex: brings the extremes just inside `[-1, 1]`.
pub(crate) const SIMPLEX2_SCALE: f32 = 70.0;
/// Output scale of 3D simplex.
pub(crate) const SIMPLEX3_SCALE: f32 = 75.0;
/// Length of the axis-aligned 2D gradients (the diagonal ones are `(±1, ±1)`).
pub(crate) const SQRT_2: f32 = core::f32::consts::SQRT_2;
/// Scale of a 24-bit value to `[0, 1)`.
pub(crate) const UNIT24: f32 = 1.0 / 16_777_216.0;
/// Scale of a signed 24-bit value to `[-1, 1)`.
pub(crate) const SIGNED24: f32 = 1.0 / 8_388_608.0;
/// The sign bit of an `f32`.
pub(crate) const SIGN: u32 = 1 << 31;
/// Xored into a cellular hash before hashing again for the feature point's y.
pub(crate) const CELL_Y: u32 = 0x68E3_1DA4;
/// As [`CELL_Y`], for z.
pub(crate) const CELL_Z: u32 = 0xB529_7A4D;
/// As [`CELL_Y`], for the cell value.
pub(crate) const CELL_VALUE: u32 = 0x1B56_C4E9;

/// Per-axis data of one column, row or layer for one octave: up to three cell values
/// (primed, `index · P`, unless a kernel says otherwise) and four fractions.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Col {
    pub i: [u32; 3],
    pub f: [f32; 4],
}

/// The column data of `N` lanes, field-major: three cell values and the first two fractions
/// of [`Col`] (all a column needs), each one lane vector.
#[derive(Clone, Copy)]
pub(crate) struct Cols<const N: usize> {
    pub i: [U<N>; 3],
    pub f: [F<N>; 2],
}

impl<const N: usize> Default for Cols<N> {
    fn default() -> Self {
        Cols {
            i: [U::splat(0); 3],
            f: [F::splat(0.0); 2],
        }
    }
}

impl<const N: usize> Cols<N> {
    /// Put one column's data in lane `lane`.
    #[inline(always)]
    pub fn set(&mut self, lane: usize, c: &Col) {
        for k in 0..3 {
            self.i[k].0[lane] = c.i[k];
        }
        for k in 0..2 {
            self.f[k].0[lane] = c.f[k];
        }
    }

    /// One column in lane 0.
    #[inline(always)]
    pub fn one(c: &Col) -> Self {
        let mut s = Self::default();
        s.set(0, c);
        s
    }
}

/// The constants of one octave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Octave {
    pub seed: u32,
    pub amp: f32,
    pub jitter: f32,
    pub distance: CellularDistance,
    pub ret: CellularReturn,
}

impl Default for Octave {
    fn default() -> Self {
        Octave {
            seed: 0,
            amp: 1.0,
            jitter: 0.0,
            distance: CellularDistance::Euclidean,
            ret: CellularReturn::F1,
        }
    }
}

/// A base noise in `f32`: its per-axis data and its per-sample kernels.
pub(crate) trait Kernel {
    /// 2D column data from the lattice x position.
    fn col(px: f64) -> Col;
    /// 2D row data from the lattice y position.
    fn row(py: f64) -> Col;
    /// 2D samples of `N` columns in one row.
    fn eval<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N>;
    /// 3D column data from the lattice x position.
    fn col3(px: f64) -> Col;
    /// 3D y data.
    fn layer_y(py: f64) -> Col;
    /// 3D z data.
    fn layer_z(pz: f64) -> Col;
    /// The row data of one (y, z) pair.
    fn row3(y: &Col, z: &Col) -> Col;
    /// 3D samples of `N` columns in one (y, z) row.
    fn eval3<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N>;
    /// Whether samples in one lattice cell can share its points ([`lattice::Lattice`]): fills then
    /// compute each point of a row once ([`Kernel::points`]) and give each sample its cell's
    /// by lookup ([`Kernel::mix_shared`]).
    const SHARED: bool = false;
    /// The `pq.count` points of a row from the lattice cell `first` on (2D, or 3D with `D3`).
    fn points<const N: usize, const D3: bool>(
        _o: &Octave,
        _r: &Col,
        _first: u32,
        _pq: &mut Points,
    ) {
    }
    /// Whether 3D rows of one z cell share what their points have in common
    /// ([`Kernel::corners3`], then [`Kernel::points3`] per row).
    const CORNERS3: bool = false;
    /// What the `count` points of a 3D row from cell `first` on have in common with every row
    /// of the same y and z cell: their corners, interpolated along y where the z fraction
    /// does not enter.
    fn corners3<const N: usize>(
        _o: &Octave,
        _r: &Col,
        _first: u32,
        _count: usize,
        _c: &mut Corners,
    ) {
    }
    /// The `pq.count` points of a 3D row from its z cell's [`Corners`]: the values
    /// [`Kernel::points`] computes, from the same operations in the same order.
    fn points3<const N: usize>(_r: &Col, _c: &Corners, _pq: &mut Points) {}
    /// Point `k` of `N` 3D rows of one y (y data `y`, as [`Kernel::layer_y`] gives it), one
    /// row per lane ([`Kernel::CORNERS3`] kernels): lane `l` has the z data of `z`'s lane `l`
    /// and its z cell's [`Corners`] in `c`. Each lane runs [`Kernel::points3`]'s operations
    /// for its row, in the same order.
    fn point3_rows<const N: usize>(
        _y: &Col,
        _z: &RowsZ<N>,
        _c: &RowCells<N>,
        _k: usize,
    ) -> (F<N>, F<N>) {
        (F::splat(0.0), F::splat(0.0))
    }
    /// The samples at x fraction `f` (fade `s`) of `N` rows, one per lane, in the cell
    /// between points `(p0, q0)` and `(p1, q1)` ([`Kernel::point3_rows`]).
    fn mix_rows<const N: usize>(_f: f32, _s: f32, _pq0: (F<N>, F<N>), _pq1: (F<N>, F<N>)) -> F<N> {
        F::splat(0.0)
    }
    /// The samples of `N` columns whose cells are `slots` points after point `at` of `pq`.
    fn mix_shared<const N: usize, T: Lookup<N>>(
        _c: &Cols<N>,
        _pq: &Points,
        _at: usize,
        _slots: &U<N>,
    ) -> F<N> {
        F::splat(0.0)
    }
}

/// Quintic fade `6t^5 − 15t^4 + 10t^3`.
#[inline(always)]
fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// `a + t · (b − a)` per lane.
#[inline(always)]
fn lerp<const N: usize>(t: F<N>, a: F<N>, b: F<N>) -> F<N> {
    a + t * (b - a)
}

/// `a + t · (b − a)` with one interpolation weight for every lane.
#[inline(always)]
fn lerp1<const N: usize>(t: f32, a: F<N>, b: F<N>) -> F<N> {
    a + (b - a) * t
}

/// The hash of `N` lattice points ([`hash`] per lane).
#[inline(always)]
fn hashes<const N: usize>(a: U<N>) -> U<N> {
    (a ^ (a >> 15)) * super::HM
}

/// A value in `[-1, 1)` from the hash's top 24 bits (exact in `f32`).
#[inline(always)]
fn value(h: u32) -> f32 {
    ((h as i32) >> 8) as f32 * SIGNED24
}

/// A value in `[0, 1)` from the hash's top 24 bits.
#[inline(always)]
fn unit(h: u32) -> f32 {
    (h >> 8) as f32 * UNIT24
}

/// A lattice axis: the primed cell, the cell itself (for [`Kernel::SHARED`] fills), and the
/// fraction with its fade.
#[inline(always)]
fn lattice_axis(p: f64, prime: u32) -> Col {
    let s = split(p);
    Col {
        i: [s.i.wrapping_mul(prime), s.i, 0],
        f: [s.f, fade(s.f), 0.0, 0.0],
    }
}

/// The (y, z) row of a 3D lattice noise from its layers.
#[inline(always)]
fn lattice_row3(y: &Col, z: &Col) -> Col {
    Col {
        i: [y.i[0], z.i[0], 0],
        f: [y.f[0], y.f[1], z.f[0], z.f[1]],
    }
}

/// The per-axis methods of a kernel on the plain lattice (value, Perlin, cellular).
macro_rules! lattice_axes {
    () => {
        #[inline(always)]
        fn col(px: f64) -> Col {
            lattice_axis(px, PX)
        }
        #[inline(always)]
        fn row(py: f64) -> Col {
            lattice_axis(py, PY)
        }
        #[inline(always)]
        fn col3(px: f64) -> Col {
            lattice_axis(px, PX)
        }
        #[inline(always)]
        fn layer_y(py: f64) -> Col {
            lattice_axis(py, PY)
        }
        #[inline(always)]
        fn layer_z(pz: f64) -> Col {
            lattice_axis(pz, PZ)
        }
        #[inline(always)]
        fn row3(y: &Col, z: &Col) -> Col {
            lattice_row3(y, z)
        }
    };
}

/// The `2N` entries of `table` from `at` on, as two vectors: `at` is a multiple of `N`, so
/// these are the very vectors [`Kernel::points`] stored (a load the CPU forwards from its
/// stores; a misaligned wide load over several recent stores stalls).
#[inline(always)]
fn window2<const N: usize>(table: &[f32; POINTS], at: usize) -> (&[f32; N], &[f32; N]) {
    // In range by construction: a shared plan keeps `at + 2N <= POINTS`.
    let lo = table[at..at + N]
        .try_into()
        .expect("window inside the point table");
    let hi = table[at + N..at + 2 * N]
        .try_into()
        .expect("window inside the point table");
    (lo, hi)
}

/// Lattice points of one row per tile that a shared fill computes at most.
pub(crate) const POINTS: usize = 160;

/// The `(P, Q)` pairs of consecutive lattice points of one row ([`lattice::Lattice`]).
#[derive(Clone, Copy)]
pub(crate) struct Points {
    pub p: [f32; POINTS],
    pub q: [f32; POINTS],
    /// Points in use (a multiple of the lane count, at most [`POINTS`]).
    pub count: usize,
}

impl Default for Points {
    fn default() -> Self {
        Points {
            p: [0.0; POINTS],
            q: [0.0; POINTS],
            count: 0,
        }
    }
}

/// Lane-wise lookup in a table of `2N` entries given as two vectors: `lo[idx[l]]` or
/// `hi[idx[l] − N]`, with `idx[l] < 2N`.
pub(crate) trait Lookup<const N: usize> {
    fn lookup(lo: &[f32; N], hi: &[f32; N], idx: &U<N>) -> F<N>;
}

/// [`Lookup`] by indexing (the portable path, and any lane count).
pub(crate) struct Indexed;

impl<const N: usize> Lookup<N> for Indexed {
    #[inline(always)]
    fn lookup(lo: &[f32; N], hi: &[f32; N], idx: &U<N>) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            // `% N` keeps the index in range without a panic path (it is already).
            let i = idx.0[l] as usize;
            out[l] = if i < N { lo[i % N] } else { hi[i % N] };
        }
        F(out)
    }
}

/// An `8 × 8` block of `f32`s transposed: `m[b][a]` is `src[a][b]`. Only moves values, so no
/// bit depends on how ([`Indexed`] copies them one by one; the x86-64 fills use register
/// shuffles).
pub(crate) trait Transpose {
    fn transpose8(src: [&[f32; 8]; 8], m: &mut [[f32; 8]; 8]) {
        for (a, row) in src.iter().enumerate() {
            for (b, v) in row.iter().enumerate() {
                m[b][a] = *v;
            }
        }
    }
}

impl Transpose for Indexed {}

// After `lattice_axes!`, which the cellular and lattice kernels use (macros are in scope
// from their definition on).
mod cellular;
mod lattice;
mod simplex;

pub(crate) use cellular::Cellular;
pub(crate) use lattice::{Corners, Perlin, RowCells, RowsZ, Value, CORNER_POINTS};
pub(crate) use simplex::Simplex;
