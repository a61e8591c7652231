//! The AVX2 simplex kernels (x86-64 only): a row of samples along x at one y (and z), four
//! samples per vector, [`U`] vectors side by side. Each lane goes through the operations of
//! [`simplex2`](crate::noise::simplex2) / [`simplex3`](crate::noise::simplex3) in the same
//! order (determinism rule 5), so the bits are those of the point functions;
//! `simd_simplex_fill_matches_portable_fill` compares them.
//!
//! What differs is only how each step is spelt: the floor is `vroundpd` (equal to
//! `floor_i64` for every coordinate a fill accepts), its integer comes from the mantissa
//! (exact below 2^51), `hx(i + 1)` is `hx(i) + PX`, the 0/1 steps of the scalar code are
//! masks, and the 3D gradient table is read with two variable shifts and two blends per
//! component (a gather is slower on Zen 3). Every product and sum is the scalar one.

use core::arch::x86_64::*;

use super::{add, grad, hash, mul, mul64, Doubles, Ints, U};
use crate::noise::def::Noise;
use crate::noise::fill::{
    fill2_simplex_with, fill3_simplex_with, Grid2, Grid3, RowBatch, Sample, SimplexRow2,
    SimplexRows3, TILE,
};
use crate::noise::fractal::Shape;
use crate::noise::lattice::{PX, PY, PZ};
use crate::noise::simplex::{F2, F3, G2, G2_2, G3, G3_2, G3_3, SIMPLEX2_SCALE, SIMPLEX3_SCALE};

/// Added to an integral `f64` below 2^51 in magnitude, leaves its integer in the low
/// mantissa bits: 1.5 × 2^52.
const TO_INT: f64 = 6_755_399_441_055_744.0;

/// The `i64` of an integral `f64` (from `vroundpd`) of magnitude below 2^51: fills check
/// coordinates against 2^50, and a skewed coordinate is at most twice that.
#[inline(always)]
unsafe fn to_int(v: Doubles) -> Ints {
    let magic = _mm256_set1_pd(TO_INT);
    let bias = _mm256_castpd_si256(magic);
    each!(bias, i => _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(v[i], magic)), bias))
}

#[inline(always)]
unsafe fn floor(v: Doubles) -> Doubles {
    each!(v[0], i => _mm256_floor_pd(v[i]))
}

#[inline(always)]
unsafe fn sub(a: __m256d, b: __m256d) -> __m256d {
    _mm256_sub_pd(a, b)
}

/// `max(t, 0)` as `simplex::pos` (a zero of either sign squares to +0).
#[inline(always)]
unsafe fn pos(t: __m256d) -> __m256d {
    _mm256_max_pd(t, _mm256_setzero_pd())
}

/// `hx(i + step)` for a 0/1 step given as a lane mask: `hx(i) + (PX & mask)`.
#[inline(always)]
unsafe fn step(h: Ints, mask: Doubles, k: u64) -> Ints {
    let kv = _mm256_set1_epi64x(k as i64);
    each!(kv, i => _mm256_add_epi64(h[i], _mm256_and_si256(_mm256_castpd_si256(mask[i]), kv)))
}

/// `hx(i + 1)`.
#[inline(always)]
unsafe fn next(h: Ints, k: u64) -> Ints {
    let kv = _mm256_set1_epi64x(k as i64);
    each!(kv, i => _mm256_add_epi64(h[i], kv))
}

#[inline(always)]
unsafe fn xor2(a: Ints, b: Ints) -> Ints {
    each!(a[0], i => _mm256_xor_si256(a[i], b[i]))
}

#[inline(always)]
unsafe fn xor3(a: Ints, b: Ints, c: Ints) -> Ints {
    xor2(xor2(a, b), c)
}

/// `noise::hash(seed, a)` of the corners' xored coordinate products.
#[inline(always)]
unsafe fn hash_with(seed: __m256i, a: Ints) -> Ints {
    hash(each!(seed, i => _mm256_xor_si256(seed, a[i])))
}

/// `1.0` where the mask is set, `0.0` elsewhere: `simplex::one`.
#[inline(always)]
unsafe fn one(mask: Doubles) -> Doubles {
    let v = _mm256_set1_pd(1.0);
    each!(v, i => _mm256_and_pd(mask[i], v))
}

/// The complement of a lane mask: the scalar code's `1 − m` of a 0/1 step.
#[inline(always)]
unsafe fn not(mask: Doubles) -> Doubles {
    let all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    each!(all, i => _mm256_xor_pd(mask[i], all))
}

#[inline(always)]
unsafe fn and(a: Doubles, b: Doubles) -> Doubles {
    each!(a[0], i => _mm256_and_pd(a[i], b[i]))
}

#[inline(always)]
unsafe fn or(a: Doubles, b: Doubles) -> Doubles {
    each!(a[0], i => _mm256_or_pd(a[i], b[i]))
}

/// `(a − b) + c` lane by lane, with `c` a constant.
#[inline(always)]
unsafe fn offset(a: Doubles, b: Doubles, c: f64) -> Doubles {
    let cv = _mm256_set1_pd(c);
    each!(cv, i => add(sub(a[i], b[i]), cv))
}

/// `(a − b) + c` with `b` and `c` constants.
#[inline(always)]
unsafe fn offset_const(a: Doubles, b: f64, c: f64) -> Doubles {
    let (bv, cv) = (_mm256_set1_pd(b), _mm256_set1_pd(c));
    each!(cv, i => add(sub(a[i], bv), cv))
}

/// [`crate::noise::fill::fill2_simplex`] on the vector rows: AVX-512 where the noise runs it
/// ([`super::simplex512`]), AVX2 otherwise, the loops, octave sums and stores compiled at
/// the same level as the rows.
///
/// Panics unless the noise runs AVX2 (`n.simd`).
pub(crate) fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    assert!(n.simd, "AVX2 simplex without AVX2");
    #[cfg(feature = "avx512")]
    if n.avx512 {
        return super::simplex512::fill2::<S, T>(n, g, out);
    }
    // SAFETY: `n.simd` is only true when `available()` returned true on this machine.
    unsafe { fill2_avx2::<S, T>(n, g, out) }
}

#[target_feature(enable = "avx2")]
unsafe fn fill2_avx2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    fill2_simplex_with::<Avx2Row2, S, T>(&Avx2Row2(()), n, g, out)
}

/// [`row2_avx2`] as a fill's row kernel; made only by [`fill2_avx2`], whose callers have
/// checked the CPU.
struct Avx2Row2(());
impl SimplexRow2 for Avx2Row2 {
    #[inline(always)]
    fn row(&self, seed: u64, xs: &[f64; TILE], y: f64, lanes: usize, v: &mut [f64; TILE]) {
        // SAFETY: an `Avx2Row2` exists only inside `fill2_avx2`, which runs only where AVX2
        // does; `lanes` is a whole number of `U`-vector groups (`simplex_lanes`).
        unsafe { row2_avx2(seed, xs, y, v, lanes / 4) }
    }
}

/// 2D simplex at `(xs[t], y)` into `out[t]` for `t < 4 * vecs` (`vecs` a multiple of
/// [`U`]; `xs` and `out` at least that long): the bits of [`simplex2`](crate::noise::simplex2).
#[target_feature(enable = "avx2")]
unsafe fn row2_avx2(seed: u64, xs: &[f64], y: f64, out: &mut [f64], vecs: usize) {
    assert!(vecs % U == 0 && xs.len() >= 4 * vecs && out.len() >= 4 * vecs);
    let zd = _mm256_setzero_pd();
    let yv = _mm256_set1_pd(y);
    let seedv = _mm256_set1_epi64x(seed as i64);
    let (half, scale) = (_mm256_set1_pd(0.5), _mm256_set1_pd(SIMPLEX2_SCALE));
    let mut q = 0;
    while q < vecs {
        // `simplex2_cell`.
        let x: Doubles = each!(zd, i => _mm256_loadu_pd(xs[4 * (q + i)..].as_ptr()));
        let s: Doubles = each!(zd, i => mul(add(x[i], yv), _mm256_set1_pd(F2)));
        let fi = floor(each!(zd, i => add(x[i], s[i])));
        let fj = floor(each!(zd, i => add(yv, s[i])));
        let t: Doubles = each!(zd, i => mul(add(fi[i], fj[i]), _mm256_set1_pd(G2)));
        let x0: Doubles = each!(zd, i => add(sub(x[i], fi[i]), t[i]));
        let y0: Doubles = each!(zd, i => add(sub(yv, fj[i]), t[i]));
        let step_x: Doubles = each!(zd, i => _mm256_cmp_pd(x0[i], y0[i], _CMP_GT_OQ));
        let hxi = mul64(to_int(fi), PX);
        let hyj = mul64(to_int(fj), PY);
        let step_y = not(step_x);
        let h0 = hash_with(seedv, xor2(hxi, hyj));
        let h1 = hash_with(seedv, xor2(step(hxi, step_x, PX), step(hyj, step_y, PY)));
        let h2 = hash_with(seedv, xor2(next(hxi, PX), next(hyj, PY)));
        // `simplex2_kernels`.
        let x1 = offset(x0, one(step_x), G2);
        let y1 = offset(y0, one(step_y), G2);
        let x2 = offset_const(x0, 1.0, G2_2);
        let y2 = offset_const(y0, 1.0, G2_2);
        let corner = |h: Ints, x: Doubles, y: Doubles| -> Doubles {
            let (a, b) = grad(h);
            each!(zd, i => {
                let t = pos(sub(sub(half, mul(x[i], x[i])), mul(y[i], y[i])));
                let t = mul(t, t);
                mul(mul(t, t), add(mul(a[i], x[i]), mul(b[i], y[i])))
            })
        };
        let (k0, k1, k2) = (corner(h0, x0, y0), corner(h1, x1, y1), corner(h2, x2, y2));
        for i in 0..U {
            let n = add(add(k0[i], k1[i]), k2[i]);
            _mm256_storeu_pd(out[4 * (q + i)..].as_mut_ptr(), mul(n, scale));
        }
        q += U;
    }
}

/// `lattice::g3`'s three tables (x, y, z) as (nonzero, negative) bit masks: bit `63 − k`
/// is set where entry `k` is nonzero / negative, so shifting left by `k` puts entry `k`'s
/// bit in the sign bit, which is what `blendv` reads. The test
/// `gradient_masks_read_the_table` reads every entry back.
const GRADIENT_MASKS: [(u64, u64); 3] = [
    (0xFF0C_0000_0000_0000, 0x5504_0000_0000_0000),
    (0xF0FF_0000_0000_0000, 0x3053_0000_0000_0000),
    (0x0FF3_0000_0000_0000, 0x0331_0000_0000_0000),
];

/// One component of `lattice::g3`: its entries are 0, 1 or −1, picked by two shifted masks.
#[derive(Clone, Copy)]
struct Component {
    nonzero: __m256i,
    negative: __m256i,
}

impl Component {
    #[inline(always)]
    unsafe fn of(axis: usize) -> Self {
        let (nonzero, negative) = GRADIENT_MASKS[axis];
        Component {
            nonzero: _mm256_set1_epi64x(nonzero as i64),
            negative: _mm256_set1_epi64x(negative as i64),
        }
    }

    /// The entry `k` of each lane as `f64`.
    #[inline(always)]
    unsafe fn at(&self, k: __m256i) -> __m256d {
        let nz = _mm256_castsi256_pd(_mm256_sllv_epi64(self.nonzero, k));
        let neg = _mm256_castsi256_pd(_mm256_sllv_epi64(self.negative, k));
        let g = _mm256_blendv_pd(_mm256_setzero_pd(), _mm256_set1_pd(1.0), nz);
        _mm256_blendv_pd(g, _mm256_set1_pd(-1.0), neg)
    }
}

/// [`crate::noise::fill::fill3_simplex`] on the vector rows: AVX-512 where the noise runs it
/// ([`super::simplex512`]), AVX2 otherwise, the loops, octave sums and stores compiled at
/// the same level as the rows.
///
/// Panics unless the noise runs AVX2 (`n.simd`).
pub(crate) fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    assert!(n.simd, "AVX2 simplex without AVX2");
    #[cfg(feature = "avx512")]
    if n.avx512 {
        return super::simplex512::fill3::<S, T>(n, g, out);
    }
    // SAFETY: `n.simd` is only true when `available()` returned true on this machine.
    unsafe { fill3_avx2::<S, T>(n, g, out) }
}

#[target_feature(enable = "avx2")]
unsafe fn fill3_avx2<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    fill3_simplex_with::<Avx2Rows3, S, T>(&Avx2Rows3(()), n, g, out)
}

/// [`rows3_avx2`] as a fill's row kernel; made only by [`fill3_avx2`], whose callers have
/// checked the CPU.
struct Avx2Rows3(());
impl SimplexRows3 for Avx2Rows3 {
    #[inline(always)]
    fn rows(&self, b: &RowBatch<'_>, v: &mut [[f64; TILE]]) {
        // SAFETY: an `Avx2Rows3` exists only inside `fill3_avx2`, which runs only where AVX2
        // does; `lanes` is a whole number of `U`-vector groups (`simplex_lanes`).
        unsafe { rows3_avx2(b, v) }
    }
}

/// 3D simplex of a batch of rows into `out[r][..b.lanes]` (`b.lanes` a whole number of
/// `U`-vector groups, at most `TILE`): the bits of [`simplex3`](crate::noise::simplex3).
#[target_feature(enable = "avx2")]
unsafe fn rows3_avx2(b: &RowBatch<'_>, out: &mut [[f64; TILE]]) {
    let (seed, xs, y, vecs) = (b.seed, b.xs, b.y, b.lanes / 4);
    assert!(vecs % U == 0 && 4 * vecs <= TILE && out.len() >= b.zs.len());
    let zd = _mm256_setzero_pd();
    let yv = _mm256_set1_pd(y);
    let seedv = _mm256_set1_epi64x(seed as i64);
    let (half, scale) = (_mm256_set1_pd(0.5), _mm256_set1_pd(SIMPLEX3_SCALE));
    let gradient = [Component::of(0), Component::of(1), Component::of(2)];
    for (&z, out) in b.zs.iter().zip(out) {
        let zv = _mm256_set1_pd(z);
        let mut q = 0;
        while q < vecs {
            let x: Doubles = each!(zd, i => _mm256_loadu_pd(xs[4 * (q + i)..].as_ptr()));
            let s: Doubles = each!(zd, i => mul(add(add(x[i], yv), zv), _mm256_set1_pd(F3)));
            let fi = floor(each!(zd, i => add(x[i], s[i])));
            let fj = floor(each!(zd, i => add(yv, s[i])));
            let fk = floor(each!(zd, i => add(zv, s[i])));
            let t: Doubles = each!(zd, i => mul(add(add(fi[i], fj[i]), fk[i]), _mm256_set1_pd(G3)));
            let x0: Doubles = each!(zd, i => add(sub(x[i], fi[i]), t[i]));
            let y0: Doubles = each!(zd, i => add(sub(yv, fj[i]), t[i]));
            let z0: Doubles = each!(zd, i => add(sub(zv, fk[i]), t[i]));
            // The ranks as masks: `xy` = x0 >= y0, and so on, then the scalar code's and/or.
            let xy: Doubles = each!(zd, i => _mm256_cmp_pd(x0[i], y0[i], _CMP_GE_OQ));
            let xz: Doubles = each!(zd, i => _mm256_cmp_pd(x0[i], z0[i], _CMP_GE_OQ));
            let yz: Doubles = each!(zd, i => _mm256_cmp_pd(y0[i], z0[i], _CMP_GE_OQ));
            let (not_xy, not_xz, not_yz) = (not(xy), not(xz), not(yz));
            let (i1, j1, k1) = (and(xy, xz), and(not_xy, yz), and(not_xz, not_yz));
            let (i2, j2, k2) = (or(xy, xz), or(not_xy, yz), or(not_xz, not_yz));
            let hxi = mul64(to_int(fi), PX);
            let hyj = mul64(to_int(fj), PY);
            let hzk = mul64(to_int(fk), PZ);
            let h0 = hash_with(seedv, xor3(hxi, hyj, hzk));
            let h1 = hash_with(
                seedv,
                xor3(step(hxi, i1, PX), step(hyj, j1, PY), step(hzk, k1, PZ)),
            );
            let h2 = hash_with(
                seedv,
                xor3(step(hxi, i2, PX), step(hyj, j2, PY), step(hzk, k2, PZ)),
            );
            let h3 = hash_with(seedv, xor3(next(hxi, PX), next(hyj, PY), next(hzk, PZ)));
            let (x1, y1, z1) = (
                offset(x0, one(i1), G3),
                offset(y0, one(j1), G3),
                offset(z0, one(k1), G3),
            );
            let (x2, y2, z2) = (
                offset(x0, one(i2), G3_2),
                offset(y0, one(j2), G3_2),
                offset(z0, one(k2), G3_2),
            );
            let (x3, y3, z3) = (
                offset_const(x0, 1.0, G3_3),
                offset_const(y0, 1.0, G3_3),
                offset_const(z0, 1.0, G3_3),
            );
            let corner = |h: Ints, x: Doubles, y: Doubles, z: Doubles| -> Doubles {
                each!(zd, i => {
                    let k = _mm256_srli_epi64(h[i], 60);
                    let (gx, gy, gz) = (gradient[0].at(k), gradient[1].at(k), gradient[2].at(k));
                    let t = sub(sub(sub(half, mul(x[i], x[i])), mul(y[i], y[i])), mul(z[i], z[i]));
                    let t = pos(t);
                    let t = mul(t, t);
                    let dot = add(add(mul(gx, x[i]), mul(gy, y[i])), mul(gz, z[i]));
                    mul(mul(t, t), dot)
                })
            };
            let k0 = corner(h0, x0, y0, z0);
            let k1 = corner(h1, x1, y1, z1);
            let k2 = corner(h2, x2, y2, z2);
            let k3 = corner(h3, x3, y3, z3);
            for i in 0..U {
                let n = add(add(add(k0[i], k1[i]), k2[i]), k3[i]);
                _mm256_storeu_pd(out[4 * (q + i)..].as_mut_ptr(), mul(n, scale));
            }
            q += U;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::lattice::{GX3, GY3, GZ3};

    /// The shifted masks give back every entry of the 3D gradient table.
    #[test]
    fn gradient_masks_read_the_table() {
        if !super::super::available() {
            return;
        }
        #[target_feature(enable = "avx2")]
        unsafe fn check() {
            for (axis, table) in [&GX3, &GY3, &GZ3].into_iter().enumerate() {
                let c = Component::of(axis);
                for k in 0..16 {
                    let mut got = [0.0f64; 4];
                    _mm256_storeu_pd(got.as_mut_ptr(), c.at(_mm256_set1_epi64x(k as i64)));
                    assert_eq!(got[0].to_bits(), table[k].to_bits(), "entry {k}");
                }
            }
        }
        // SAFETY: `available()` said the CPU runs AVX2.
        unsafe { check() }
    }

    /// A row equals the point function lane by lane, including negative and far
    /// coordinates (the mantissa integer and the wrapped products).
    #[test]
    fn rows_equal_point_functions() {
        if !super::super::available() {
            return;
        }
        let xs: [f64; 16] =
            core::array::from_fn(|t| (t as f64 - 7.3) * 0.37 + [0.0, -9.0e14, 3.3e13][t % 3]);
        for &(y, z) in &[(0.0, 0.0), (-1.25, 4.5), (7.0e14, -2.0e14), (0.5, -0.5)] {
            let (mut a, mut b) = ([0.0f64; 16], [[0.0f64; TILE]; 1]);
            let mut xs3 = [0.0f64; TILE];
            xs3[..16].copy_from_slice(&xs);
            // SAFETY: `available()` said the CPU runs AVX2.
            unsafe {
                row2_avx2(99, &xs, y, &mut a, 4);
                let batch = RowBatch {
                    seed: 99,
                    xs: &xs3,
                    y,
                    zs: &[z],
                    lanes: 16,
                };
                rows3_avx2(&batch, &mut b);
            }
            for t in 0..16 {
                assert_eq!(
                    a[t].to_bits(),
                    crate::noise::simplex2(99, xs[t], y).to_bits()
                );
                assert_eq!(
                    b[0][t].to_bits(),
                    crate::noise::simplex3(99, xs[t], y, z).to_bits()
                );
            }
        }
    }
}
