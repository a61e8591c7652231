//! The `f32` precision ([`Precision::F32`]): the same noise types, fractals and warp as the
//! `f64` noise, computed in IEEE binary32 so that a vector register holds twice the samples.
//! It is its own noise (a different hash and different bits), bit-exact in the same way:
//! plain `+ − × ÷` and correctly rounded square roots, no fused multiply-add, the same
//! operations in the same order on every lane width.
//!
//! **Far coordinates stay exact.** A position never becomes an `f32`. Each axis of a lattice
//! position (world position times octave frequency, `f64`) is split once into an integer cell
//! and an `f32` fraction in `[0, 1]` ([`split`]); everything after that is integers (cell
//! indices, wrapping at 2^32) and `f32` fractions of size about 1. A sample at 10^7 blocks has
//! the same precision as one at the origin.
//!
//! **Simplex without a per-sample `f64`.** The simplex skew `X = x + (x + y)·F` is linear, so
//! it is a sum of per-axis terms: `X = x·(1 + F) + y·F`. Each term is split on its own axis
//! (once per grid column, row or layer) and the terms are added as (integer, fraction) pairs
//! with a carry ([`combine`]). The cell and in-cell offsets of every sample follow from that
//! in `f32` and integer arithmetic alone.
//!
//! **Lanes.** Per-axis data is computed once per column, row and layer; the per-sample work
//! is a kernel over `N` lanes ([`kernels`]), plain loops over `[f32; N]` that the compiler
//! turns into vector instructions: 16 lanes under AVX-512, 8 under AVX2, 4 on the portable
//! path (SSE2 and NEON width). Each lane runs the same operations whatever `N` is, so every
//! width gives the bits of the portable code, and a point sample (one lane) those of a fill.

use crate::noise::def::{Noise, NoiseType};
use crate::noise::fill::{for_each_point2, for_each_point3, sample_x, Grid2, Grid3};
use crate::noise::fractal::{Billow, Fbm, Ridged, Shape};
use crate::util::math::floor_i64;

pub(crate) mod kernels;
mod lanes;
mod point;
// WebAssembly builds go row by row: the noise-only module has a download budget, and the
// bits are the same either way.
#[cfg(not(target_arch = "wasm32"))]
mod rows3;

pub(crate) use lanes::F;
#[cfg(target_arch = "x86_64")]
mod x86;

use kernels::{
    Cellular, Col, Cols, Corners, Indexed, Kernel, Lookup, Octave, Perlin, Points, Simplex,
    Transpose, Value, CORNER_POINTS, POINTS,
};
use lanes::U;
use point::{point2, point3};

/// Multiplier (an odd constant) for x cell indices.
pub(crate) const PX: u32 = 0x9E37_79B1;
/// Multiplier for y cell indices.
pub(crate) const PY: u32 = 0x85EB_CA77;
/// Multiplier for z cell indices.
pub(crate) const PZ: u32 = 0xC2B2_AE3D;
/// Multiplier of the lattice hash.
pub(crate) const HM: u32 = 0x27D4_EB2F;

/// Hash of a lattice point whose primed coordinates (`index · P`) were xored with the seed
/// into `a`: a xorshift brings the high bits down, one multiply carries every bit up into the
/// top bits, which pick gradients and values. Measured over 512² cells and three seeds:
/// neighbouring cells and cells up to 2^24 apart along an axis agree on the top three bits
/// 12.5% ± 0.2% of the time (independent would be 1/8) and their values correlate by under
/// 0.01. (A second multiply costs a third more per sample and is no better below 2^28
/// cells; a multiply alone correlates cells 2^24 apart.)
#[inline(always)]
pub(crate) fn hash(a: u32) -> u32 {
    (a ^ (a >> 15)).wrapping_mul(HM)
}

/// One axis of a lattice position: the integer cell (wrapping to 32 bits) and the fraction
/// in `[0, 1]` (an exact `f64` difference rounded once to `f32`; it may round up to 1, which
/// every kernel treats as the next cell's 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Split {
    pub i: u32,
    pub f: f32,
}

/// Split lattice coordinate `p` into cell and fraction.
#[inline(always)]
pub(crate) fn split(p: f64) -> Split {
    let i = floor_i64(p);
    Split {
        i: i as u32,
        f: (p - i as f64) as f32,
    }
}

/// The sum of two split values, carried so the fraction stays in `[0, 1]`.
#[inline(always)]
pub(crate) fn combine(a: Split, b: Split) -> Split {
    let s = a.f + b.f;
    let carry = s >= 1.0;
    Split {
        i: a.i.wrapping_add(b.i).wrapping_add(carry as u32),
        f: if carry { s - 1.0 } else { s },
    }
}

/// Lanes of the portable path: the width of SSE2 and NEON registers.
const PORTABLE_LANES: usize = 4;
/// Lane groups per tile along x (a tile is `GROUPS · N` samples): bounds the stack scratch
/// (per octave and sample, three cell values and two fractions: 40 KiB at 16 lanes).
const GROUPS: usize = 8;
/// z layers a 3D fill prepares at once.
const LAYERS: usize = 16;
/// Octaves a fill keeps column data for.
const MAX: usize = crate::noise::def::MAX_OCTAVES as usize;

/// The per-octave constants of a fill.
fn octaves(n: &Noise) -> [Octave; crate::noise::def::MAX_OCTAVES as usize] {
    let mut o = [Octave::default(); crate::noise::def::MAX_OCTAVES as usize];
    for (k, oct) in o.iter_mut().enumerate().take(n.octaves) {
        *oct = Octave {
            seed: seed32(n.seeds[k]),
            amp: n.amp[k] as f32,
            jitter: n.cellular.jitter as f32,
            distance: n.cellular.distance,
            ret: n.cellular.ret,
        };
    }
    o
}

/// The 32-bit seed of an octave: the high half of its 64-bit seed.
#[inline(always)]
fn seed32(s: u64) -> u32 {
    (s >> 32) as u32
}

/// Expands `$body` with `K` (kernel) and `S` (shape) bound to the noise's types.
macro_rules! dispatch32 {
    ($n:expr, $body:ident $(::<$($extra:ty),*>)? ( $($arg:expr),* )) => {
        match $n.noise_type {
            NoiseType::Value => dispatch32!(@shape $n, $body, Value, [$($($extra),*)?] ; $($arg),*),
            NoiseType::Perlin => dispatch32!(@shape $n, $body, Perlin, [$($($extra),*)?] ; $($arg),*),
            NoiseType::Simplex => dispatch32!(@shape $n, $body, Simplex, [$($($extra),*)?] ; $($arg),*),
            NoiseType::Cellular => dispatch32!(@shape $n, $body, Cellular, [$($($extra),*)?] ; $($arg),*),
        }
    };
    (@shape $n:expr, $body:ident, $k:ty, [$($extra:ty),*] ; $($arg:expr),*) => {
        match $n.fractal {
            crate::noise::def::FractalType::None | crate::noise::def::FractalType::Fbm => $body::<$k, Fbm $(, $extra)*>($($arg),*),
            crate::noise::def::FractalType::Ridged => $body::<$k, Ridged $(, $extra)*>($($arg),*),
            crate::noise::def::FractalType::Billow => $body::<$k, Billow $(, $extra)*>($($arg),*),
        }
    };
}

/// Fill a 2D grid (validated by the caller) in `f32` precision. The fills write `f32` only: a
/// wider buffer is filled in its own memory and widened after ([`crate::noise::fill`]), so
/// the lane code is compiled once per kernel, shape and width, not once per output type.
/// `#[inline]` lets the calling crate compile it, as it compiled the fills when they were
/// generic: the WebAssembly noise module's size depends on it.
#[inline]
pub(crate) fn fill2(n: &Noise, g: &Grid2, out: &mut [f32]) {
    dispatch32!(n, fill2_typed(n, g, out))
}

/// Fill a 3D grid (validated by the caller) in `f32` precision (`#[inline]` as [`fill2`]).
#[inline]
pub(crate) fn fill3(n: &Noise, g: &Grid3, out: &mut [f32]) {
    dispatch32!(n, fill3_typed(n, g, out))
}

/// One 2D sample in `f32` precision.
pub(crate) fn sample2(n: &Noise, x: f64, y: f64) -> f32 {
    dispatch32!(n, point2(n, x, y))
}

/// One 3D sample in `f32` precision.
pub(crate) fn sample3(n: &Noise, x: f64, y: f64, z: f64) -> f32 {
    dispatch32!(n, point3(n, x, y, z))
}

fn fill2_typed<K: Kernel, S: Shape>(n: &Noise, g: &Grid2, out: &mut [f32]) {
    if n.warp_amplitude > 0.0 {
        return for_each_point2(g, out, |x, y| f64::from(point2::<K, S>(n, x, y)));
    }
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return x86::fill2::<K, S>(n, g, out);
    }
    fill2_lanes::<K, S, Indexed, PORTABLE_LANES>(n, g, out)
}

fn fill3_typed<K: Kernel, S: Shape>(n: &Noise, g: &Grid3, out: &mut [f32]) {
    if n.warp_amplitude > 0.0 {
        return for_each_point3(g, out, |x, y, z| f64::from(point3::<K, S>(n, x, y, z)));
    }
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return x86::fill3::<K, S>(n, g, out);
    }
    fill3_lanes::<K, S, Indexed, PORTABLE_LANES>(n, g, out)
}

/// How the samples of one tile share lattice points in one octave ([`Kernel::SHARED`]):
/// the row's points from cell `first` on, and per lane group the multiple of `N` at or below
/// its first cell's point and each lane's cell after that. Not shared where a group's samples span `N` cells or
/// more (fine octaves): those samples go through the kernel one by one.
#[derive(Clone, Copy)]
struct Plan<const N: usize> {
    shared: bool,
    first: u32,
    count: usize,
    /// Points the tile's samples read (at most `count`; only rows in lanes need it).
    #[cfg(not(target_arch = "wasm32"))]
    needed: usize,
    at: [usize; GROUPS],
    slots: [U<N>; GROUPS],
}

impl<const N: usize> Default for Plan<N> {
    fn default() -> Self {
        Plan {
            shared: false,
            first: 0,
            count: 0,
            #[cfg(not(target_arch = "wasm32"))]
            needed: 0,
            at: [0; GROUPS],
            slots: [U::splat(0); GROUPS],
        }
    }
}

impl<const N: usize> Plan<N> {
    /// The plan of `groups` lane groups whose lattice cells are `cols[g].i[1]`.
    fn new(cols: &[Cols<N>; GROUPS], groups: usize) -> Self {
        let mut plan = Plan::default();
        let c0 = cols[0].i[1].0[0];
        // Cells relative to the first one (wrapping: hashes see cells modulo 2^32 too).
        let rel = |g: usize, l: usize| i64::from(cols[g].i[1].0[l].wrapping_sub(c0) as i32);
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut group_lo = [0i64; GROUPS];
        for (g, glo) in group_lo.iter_mut().enumerate().take(groups) {
            let (mut a, mut b) = (rel(g, 0), rel(g, 0));
            for l in 1..N {
                a = a.min(rel(g, l));
                b = b.max(rel(g, l));
            }
            if b - a >= N as i64 {
                return plan;
            }
            *glo = a;
            lo = lo.min(a);
            hi = hi.max(b);
        }
        // Points `lo..=hi + 1`. A group reads two vectors of the point table from the
        // multiple of `N` at or below its first cell: up to `hi − lo + 2N` entries.
        if (hi - lo) as usize + 2 * N > POINTS {
            return plan;
        }
        plan.shared = true;
        plan.first = c0.wrapping_add(lo as u32);
        let needed = (hi - lo) as usize + 2;
        #[cfg(not(target_arch = "wasm32"))]
        {
            plan.needed = needed;
        }
        plan.count = (needed + N - 1) / N * N;
        for g in 0..groups {
            let at = (group_lo[g] - lo) as usize;
            plan.at[g] = at / N * N;
            for l in 0..N {
                plan.slots[g].0[l] = (at % N) as u32 + (rel(g, l) - group_lo[g]) as u32;
            }
        }
        plan
    }
}

/// Per octave, the [`Corners`] of the 3D rows of one y and the z cell they are for: rows
/// of one y whose z cell is the last one's reuse them.
struct ZRuns {
    corners: [Corners; MAX],
    /// The primed z cell each octave's corners are for, if any.
    z: [Option<u32>; MAX],
}

impl ZRuns {
    fn new() -> Self {
        ZRuns {
            corners: [Corners::default(); MAX],
            z: [None; MAX],
        }
    }

    /// Forget every octave's corners (a new y, or a new tile).
    fn clear(&mut self) {
        self.z = [None; MAX];
    }
}

/// The column data of one tile for every octave, with each octave's sharing plan.
struct Columns<const N: usize> {
    cols: [[Cols<N>; GROUPS]; MAX],
    plans: [Plan<N>; MAX],
    /// Lane groups in use.
    groups: usize,
}

impl<const N: usize> Columns<N> {
    fn new() -> Self {
        Columns {
            cols: [[Cols::default(); GROUPS]; MAX],
            plans: [Plan::default(); MAX],
            groups: 0,
        }
    }

    /// The `len` columns from `first` on of a grid whose x is `x0 + i·dx`, each octave's
    /// through `col` (lanes past the end repeat the last column: computed, never stored).
    #[inline(always)]
    fn prepare<K: Kernel>(
        &mut self,
        n: &Noise,
        (x0, dx): (f64, f64),
        (first, len): (usize, usize),
        col: impl Fn(f64) -> Col,
    ) {
        self.groups = (len + N - 1) / N;
        for (o, c) in self.cols.iter_mut().enumerate().take(n.octaves) {
            for t in 0..self.groups * N {
                let i = first + core::cmp::min(t, len - 1);
                c[t / N].set(t % N, &col(sample_x(n, x0, dx, i) * n.freq[o]));
            }
            if K::SHARED {
                self.plans[o] = Plan::new(c, self.groups);
            }
        }
    }

    /// The tile's samples of one row (`row(o)` its data in octave `o`), normalised, into
    /// `dst`. Octave by octave, each group's sum in `acc` gains the octave's
    /// `shape(noise) · amp`: every sample adds its octaves in order, as a point sample does.
    /// A shared octave computes the row's points once, into `points`. (`acc` and `points`
    /// are the caller's, so a row initialises only the groups it uses.)
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn fill_row<K: Kernel, S: Shape, L: Lookup<N>, const D3: bool>(
        &self,
        oct: &[Octave],
        row: impl Fn(usize) -> Col,
        points: &mut Points,
        acc: &mut [F<N>; GROUPS],
        mut runs: Option<&mut ZRuns>,
        dst: &mut [f32],
        norm: f32,
    ) {
        let acc = &mut acc[..self.groups];
        for (o, oc) in oct.iter().enumerate() {
            let r = row(o);
            let plan = &self.plans[o];
            let shared = K::SHARED && plan.shared;
            if shared {
                points.count = plan.count;
                match runs.as_deref_mut() {
                    Some(z) if K::CORNERS3 && plan.count <= CORNER_POINTS => {
                        if z.z[o] != Some(r.i[1]) {
                            K::corners3::<N>(oc, &r, plan.first, plan.count, &mut z.corners[o]);
                            z.z[o] = Some(r.i[1]);
                        }
                        K::points3::<N>(&r, &z.corners[o], points);
                    }
                    _ => K::points::<N, D3>(oc, &r, plan.first, points),
                }
            }
            for (g, acc) in acc.iter_mut().enumerate() {
                let c = &self.cols[o][g];
                let v = if shared {
                    K::mix_shared::<N, L>(c, points, plan.at[g], &plan.slots[g])
                } else if D3 {
                    K::eval3::<N>(oc, c, &r)
                } else {
                    K::eval::<N>(oc, c, &r)
                };
                // The first octave adds to zero (as a point sample's sum does) in registers:
                // clearing `acc` first costs a call per row.
                let sum = if o == 0 { F::splat(0.0) } else { *acc };
                *acc = sum + S::apply_lanes(v) * oc.amp;
            }
        }
        for (d, a) in dst.chunks_mut(N).zip(acc.iter()) {
            store(d, a, norm);
        }
    }
}

/// The 2D fill over lanes of `N` samples: per tile, each octave's column data (and sharing
/// plan) once; per row, each octave's row data (and shared points) once; then the octave sum
/// per lane group. `L` is the lane lookup of shared points.
#[inline(always)]
pub(crate) fn fill2_lanes<K: Kernel, S: Shape, L: Lookup<N>, const N: usize>(
    n: &Noise,
    g: &Grid2,
    out: &mut [f32],
) {
    let oct = octaves(n);
    let oct = &oct[..n.octaves];
    let norm = n.norm as f32;
    let mut tile = Columns::<N>::new();
    let mut points = Points::default();
    let mut acc = [F::splat(0.0); GROUPS];
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(GROUPS * N, g.width - first);
        tile.prepare::<K>(n, (g.x0, g.dx), (first, len), K::col);
        for j in 0..g.height {
            let y = (g.y0 + j as f64 * g.dy) + n.offset[1];
            let dst = &mut out[j * g.width + first..j * g.width + first + len];
            let row = |o: usize| K::row(y * n.freq[o]);
            tile.fill_row::<K, S, L, false>(oct, row, &mut points, &mut acc, None, dst, norm);
        }
        first += len;
    }
}

/// The 3D fill over lanes of `N` samples (layout of [`Grid3`]): per tile the column data,
/// per block of [`LAYERS`] z layers their layer data, per y the row data of every layer in
/// the block (in one loop, apart from the lane kernels: a 16-wide grid is one lane group per
/// row, so per-row work weighs as much as a sixth of the kernel), then per (y, z) row its
/// shared points and lanes. The rows of one y whose z cell is the previous row's take their
/// points from the cell's [`Corners`], hashed and interpolated along y once.
#[inline(always)]
pub(crate) fn fill3_lanes<K: Kernel, S: Shape, L: Lookup<N> + Transpose, const N: usize>(
    n: &Noise,
    g: &Grid3,
    out: &mut [f32],
) {
    let [x0, y0, z0] = g.origin;
    let [dx, dy, dz] = g.step;
    let oct = octaves(n);
    let oct = &oct[..n.octaves];
    let norm = n.norm as f32;
    let mut tile = Columns::<N>::new();
    let mut points = Points::default();
    let mut acc = [F::splat(0.0); GROUPS];
    let mut zl = [[Col::default(); LAYERS]; MAX];
    #[cfg(not(target_arch = "wasm32"))]
    let mut yl = [Col::default(); MAX];
    let mut rows = [[Col::default(); LAYERS]; MAX];
    let mut runs = ZRuns::new();
    #[cfg(not(target_arch = "wasm32"))]
    let mut row_lanes = rows3::RowLanes::new();
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(GROUPS * N, g.width - first);
        tile.prepare::<K>(n, (x0, dx), (first, len), K::col3);
        #[cfg(not(target_arch = "wasm32"))]
        let by_rows = tile.rows_in_lanes::<K>(n.octaves, len);
        let mut k0 = 0;
        while k0 < g.depth {
            let layers = core::cmp::min(LAYERS, g.depth - k0);
            for (o, z) in zl.iter_mut().enumerate().take(n.octaves) {
                for (kk, z) in z[..layers].iter_mut().enumerate() {
                    let p = (z0 + (k0 + kk) as f64 * dz) + n.offset[2];
                    *z = K::layer_z(p * n.freq[o]);
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            let rows_in_lanes = by_rows && row_lanes.plan::<N>(&zl, n.octaves, layers);
            for j in 0..g.height {
                let y = (y0 + j as f64 * dy) + n.offset[1];
                #[cfg(not(target_arch = "wasm32"))]
                if rows_in_lanes {
                    for (o, yl) in yl.iter_mut().enumerate().take(n.octaves) {
                        *yl = K::layer_y(y * n.freq[o]);
                    }
                    let at = |kk: usize| (j * g.depth + k0 + kk) * g.width + first;
                    let block = rows3::Block {
                        y: &yl,
                        z: &zl,
                        layers,
                        len,
                    };
                    tile.fill_rows::<K, S, L>(oct, &block, &mut row_lanes, out, at, norm);
                    continue;
                }
                for (o, rows) in rows.iter_mut().enumerate().take(n.octaves) {
                    let yl = K::layer_y(y * n.freq[o]);
                    for (r, z) in rows[..layers].iter_mut().zip(&zl[o][..layers]) {
                        *r = K::row3(&yl, z);
                    }
                }
                runs.clear();
                for kk in 0..layers {
                    let base = (j * g.depth + k0 + kk) * g.width + first;
                    let dst = &mut out[base..base + len];
                    let row = |o: usize| rows[o][kk];
                    let runs = Some(&mut runs);
                    tile.fill_row::<K, S, L, true>(
                        oct,
                        row,
                        &mut points,
                        &mut acc,
                        runs,
                        dst,
                        norm,
                    );
                }
            }
            k0 += layers;
        }
        first += len;
    }
}

/// A lane group's sums, normalised, into `dst` (a whole group, or the tail of a row).
#[inline(always)]
fn store<const N: usize>(dst: &mut [f32], acc: &F<N>, norm: f32) {
    let v = *acc * norm;
    if let Ok(d) = <&mut [f32; N]>::try_from(&mut *dst) {
        *d = v.0;
    } else {
        dst.copy_from_slice(&v.0[..dst.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_far_fractions() {
        let s = split(10_000_000.25);
        assert_eq!((s.i, s.f), (10_000_000, 0.25));
        let s = split(-0.75);
        assert_eq!((s.i, s.f), (u32::MAX, 0.25));
        // 2^40 + 1/8: an f32 position would have lost the fraction entirely.
        let s = split(1_099_511_627_776.125);
        assert_eq!((s.i, s.f), (0, 0.125));
    }

    #[test]
    fn combine_carries() {
        let a = Split { i: 3, f: 0.75 };
        let b = Split { i: 4, f: 0.5 };
        assert_eq!(combine(a, b), Split { i: 8, f: 0.25 });
        assert_eq!(
            combine(
                Split {
                    i: u32::MAX,
                    f: 0.5
                },
                Split { i: 0, f: 0.5 }
            ),
            Split { i: 0, f: 0.0 }
        );
    }
}

#[cfg(test)]
mod reference;
