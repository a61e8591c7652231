//! The AVX-512 2D and 3D simplex rows and the fills compiled around them (x86-64 CPUs with
//! AVX-512 F and DQ; built with the `avx512` feature, which needs Rust 1.89 — the Rust 1.63
//! build of `core` leaves it out). Eight samples per vector; each lane goes through
//! [`simplex2`](crate::noise::simplex2)'s or [`simplex3`](crate::noise::simplex3)'s operations
//! in the same order, as the AVX2 rows do, so the bits are the same. What AVX-512 adds: a
//! native 64-bit lane multiply (`vpmullq`, where AVX2 needs three instructions), lane masks as
//! `k` registers (the 0/1 steps are masked adds and subtracts), and the gradient tables (8
//! entries in 2D, 16 in 3D) read by one `vpermpd` / `vpermt2pd` per component.
//! The kernel is bound by instruction count, so halving the instructions per sample is what
//! counts.

use core::arch::x86_64::*;

use crate::noise::def::Noise;
use crate::noise::fill::{
    fill2_simplex_with, fill3_simplex_with, Grid2, Grid3, RowBatch, Sample, SimplexRow2,
    SimplexRows3, TILE,
};
use crate::noise::fractal::Shape;
use crate::noise::lattice::{GX2, GX3, GY2, GY3, GZ3, HM, PX, PY, PZ};
use crate::noise::simplex::{F2, F3, G2, G2_2, G3, G3_2, G3_3, SIMPLEX2_SCALE, SIMPLEX3_SCALE};

/// `floor` rounding for `vrndscalepd`: towards −∞, integral, exceptions suppressed.
const FLOOR: i32 = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;

/// One 16-entry gradient component, as two vectors for `vpermt2pd`.
#[derive(Clone, Copy)]
struct Table(__m512d, __m512d);

impl Table {
    #[inline(always)]
    unsafe fn of(t: &[f64; 16]) -> Table {
        Table(
            _mm512_loadu_pd(t.as_ptr()),
            _mm512_loadu_pd(t[8..].as_ptr()),
        )
    }
    /// Entry `k` (`0..16`) of each lane.
    #[inline(always)]
    unsafe fn at(self, k: __m512i) -> __m512d {
        _mm512_permutex2var_pd(self.0, k, self.1)
    }
}

/// `noise::hash(seed, a)` (also the fine octaves' hash, `super::lattice512`).
#[inline(always)]
pub(super) unsafe fn hash(seed: __m512i, a: __m512i) -> __m512i {
    let h = _mm512_mullo_epi64(_mm512_xor_si512(seed, a), _mm512_set1_epi64(HM as i64));
    _mm512_mullo_epi64(
        _mm512_xor_si512(h, _mm512_srli_epi64::<32>(h)),
        _mm512_set1_epi64(PX as i64),
    )
}

/// [`crate::noise::fill::fill2_simplex`] compiled for AVX-512 around [`row2`], as [`fill3`].
///
/// # Panics
/// If the noise does not run the AVX-512 row (`n.avx512` false).
pub(super) fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    assert!(n.avx512, "AVX-512 simplex without AVX-512");
    // SAFETY: `n.avx512` is only true where `avx512_available()` returned true.
    unsafe { fill2_avx512::<S, T>(n, g, out) }
}

#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn fill2_avx512<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    fill2_simplex_with::<Avx512Row2, S, T>(&Avx512Row2(()), n, g, out)
}

/// [`row2`] as a fill's row kernel; made only by [`fill2_avx512`], whose callers have
/// checked the CPU.
struct Avx512Row2(());
impl SimplexRow2 for Avx512Row2 {
    #[inline(always)]
    fn row(&self, seed: u64, xs: &[f64; TILE], y: f64, lanes: usize, v: &mut [f64; TILE]) {
        // SAFETY: an `Avx512Row2` exists only inside `fill2_avx512`, which runs only where
        // AVX-512 F and DQ do.
        unsafe { row2(seed, xs, y, lanes, v) }
    }
}

/// 2D simplex at `(xs[t], y)` into `out[t]` for `t < samples` (a multiple of 8, at most
/// `TILE`): the bits of [`simplex2`](crate::noise::simplex2), two vectors per step where it
/// can (as [`rows3`]).
///
/// # Safety
/// The CPU must have AVX-512 F and DQ with the OS saving their state
/// ([`super::avx512_available`]).
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn row2(seed: u64, xs: &[f64; TILE], y: f64, samples: usize, out: &mut [f64; TILE]) {
    assert!(samples.is_multiple_of(8) && samples <= TILE);
    let (seed, y) = (_mm512_set1_epi64(seed as i64), _mm512_set1_pd(y));
    let mut q = 0;
    while q + 16 <= samples {
        let x = [
            _mm512_loadu_pd(xs[q..].as_ptr()),
            _mm512_loadu_pd(xs[q + 8..].as_ptr()),
        ];
        let n = vectors2::<2>(seed, x, y);
        _mm512_storeu_pd(out[q..].as_mut_ptr(), n[0]);
        _mm512_storeu_pd(out[q + 8..].as_mut_ptr(), n[1]);
        q += 16;
    }
    if q < samples {
        let n = vectors2::<1>(seed, [_mm512_loadu_pd(xs[q..].as_ptr())], y);
        _mm512_storeu_pd(out[q..].as_mut_ptr(), n[0]);
    }
}

/// `N` vectors of [`row2`], each step applied to all `N` before the next: the operations of
/// `simplex2_cell` and `simplex2_kernels` lane by lane.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn vectors2<const N: usize>(seed: __m512i, x: [__m512d; N], yv: __m512d) -> [__m512d; N] {
    let (pxv, pyv) = (_mm512_set1_epi64(PX as i64), _mm512_set1_epi64(PY as i64));
    let (half, one, zero) = (
        _mm512_set1_pd(0.5),
        _mm512_set1_pd(1.0),
        _mm512_setzero_pd(),
    );
    let (f2, g2, g2_2) = (_mm512_set1_pd(F2), _mm512_set1_pd(G2), _mm512_set1_pd(G2_2));
    let (gx, gy) = (_mm512_loadu_pd(GX2.as_ptr()), _mm512_loadu_pd(GY2.as_ptr()));
    let scale = _mm512_set1_pd(SIMPLEX2_SCALE);
    let add = |a, b| _mm512_add_pd(a, b);
    let sub = |a, b| _mm512_sub_pd(a, b);
    let mul = |a, b| _mm512_mul_pd(a, b);
    let each = |f: &mut dyn FnMut(usize) -> __m512d| -> [__m512d; N] { core::array::from_fn(f) };
    let each_i = |f: &mut dyn FnMut(usize) -> __m512i| -> [__m512i; N] { core::array::from_fn(f) };
    // As in `vectors`: the scalar `a − one(m) + c`.
    let offset = |a, m: __mmask8, c| add(_mm512_mask_sub_pd(a, m, a, one), c);
    let step = |h, m: __mmask8, k| _mm512_mask_add_epi64(h, m, h, k);
    let s = each(&mut |i| mul(add(x[i], yv), f2));
    let fi = each(&mut |i| _mm512_roundscale_pd::<FLOOR>(add(x[i], s[i])));
    let fj = each(&mut |i| _mm512_roundscale_pd::<FLOOR>(add(yv, s[i])));
    let t = each(&mut |i| mul(add(fi[i], fj[i]), g2));
    let x0 = each(&mut |i| add(sub(x[i], fi[i]), t[i]));
    let y0 = each(&mut |i| add(sub(yv, fj[i]), t[i]));
    // The middle corner steps along x where x0 > y0, along y elsewhere.
    let step_x: [__mmask8; N] =
        core::array::from_fn(|i| _mm512_cmp_pd_mask::<_CMP_GT_OQ>(x0[i], y0[i]));
    // Lattice coordinates are integral and below 2^51 (fills check 2^50): exact.
    let hxi = each_i(&mut |i| _mm512_mullo_epi64(_mm512_cvttpd_epi64(fi[i]), pxv));
    let hyj = each_i(&mut |i| _mm512_mullo_epi64(_mm512_cvttpd_epi64(fj[i]), pyv));
    let h0 = each_i(&mut |i| hash(seed, _mm512_xor_si512(hxi[i], hyj[i])));
    let h1 = each_i(&mut |i| {
        let a = _mm512_xor_si512(step(hxi[i], step_x[i], pxv), step(hyj[i], !step_x[i], pyv));
        hash(seed, a)
    });
    let h2 = each_i(&mut |i| {
        let a = _mm512_xor_si512(_mm512_add_epi64(hxi[i], pxv), _mm512_add_epi64(hyj[i], pyv));
        hash(seed, a)
    });
    let corner = |h: __m512i, x: __m512d, y: __m512d| {
        let k = _mm512_srli_epi64::<61>(h);
        let t = _mm512_max_pd(sub(sub(half, mul(x, x)), mul(y, y)), zero);
        let t = mul(t, t);
        let dot = add(
            mul(_mm512_permutexvar_pd(k, gx), x),
            mul(_mm512_permutexvar_pd(k, gy), y),
        );
        mul(mul(t, t), dot)
    };
    let k0 = each(&mut |i| corner(h0[i], x0[i], y0[i]));
    let k1 = each(&mut |i| {
        let (x1, y1) = (offset(x0[i], step_x[i], g2), offset(y0[i], !step_x[i], g2));
        corner(h1[i], x1, y1)
    });
    let k2 = each(&mut |i| {
        let far = |a| add(sub(a, one), g2_2);
        corner(h2[i], far(x0[i]), far(y0[i]))
    });
    each(&mut |i| mul(add(add(k0[i], k1[i]), k2[i]), scale))
}

/// [`crate::noise::fill::fill3_simplex`] compiled for AVX-512 around [`rows3`]: the loops,
/// the octave sums and the stores run at the kernel's CPU level (eight lanes per
/// instruction, no call per row), and the kernel's constants are set up once per eight rows.
///
/// # Panics
/// If the noise does not run the AVX-512 row (`n.avx512` false).
pub(super) fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    assert!(n.avx512, "AVX-512 simplex without AVX-512");
    // SAFETY: `n.avx512` is only true where `avx512_available()` returned true.
    unsafe { fill3_avx512::<S, T>(n, g, out) }
}

#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn fill3_avx512<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    fill3_simplex_with::<Avx512Rows3, S, T>(&Avx512Rows3(()), n, g, out)
}

/// [`rows3`] as a fill's row kernel; made only by [`fill3_avx512`], whose callers have
/// checked the CPU.
struct Avx512Rows3(());
impl SimplexRows3 for Avx512Rows3 {
    #[inline(always)]
    fn rows(&self, b: &RowBatch<'_>, v: &mut [[f64; TILE]]) {
        // SAFETY: an `Avx512Rows3` exists only inside `fill3_avx512`, which runs only where
        // AVX-512 F and DQ do.
        unsafe { rows3(b, v) }
    }
}

/// 3D simplex of a batch of rows into `out[r][..b.lanes]` (`b.lanes` a multiple of 8, at
/// most `TILE`): the bits of [`simplex3`](crate::noise::simplex3). Two vectors per step
/// where it can: each vector is one long dependency chain (floor, hash, gradient, falloff),
/// and interleaving two keeps the vector units busy while one waits.
///
/// # Safety
/// The CPU must have AVX-512 F and DQ with the OS saving their state
/// ([`super::avx512_available`]).
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn rows3(b: &RowBatch<'_>, out: &mut [[f64; TILE]]) {
    let (xs, samples) = (b.xs, b.lanes);
    assert!(samples.is_multiple_of(8) && samples <= TILE && out.len() >= b.zs.len());
    let c = Constants::new(b.seed, b.y);
    for (&z, out) in b.zs.iter().zip(out) {
        let z = _mm512_set1_pd(z);
        let mut q = 0;
        while q + 16 <= samples {
            let x = [
                _mm512_loadu_pd(xs[q..].as_ptr()),
                _mm512_loadu_pd(xs[q + 8..].as_ptr()),
            ];
            let n = vectors::<2>(&c, x, z);
            _mm512_storeu_pd(out[q..].as_mut_ptr(), n[0]);
            _mm512_storeu_pd(out[q + 8..].as_mut_ptr(), n[1]);
            q += 16;
        }
        if q < samples {
            let n = vectors::<1>(&c, [_mm512_loadu_pd(xs[q..].as_ptr())], z);
            _mm512_storeu_pd(out[q..].as_mut_ptr(), n[0]);
        }
    }
}

/// What every vector of a row shares.
struct Constants {
    y: __m512d,
    seed: __m512i,
    gx: Table,
    gy: Table,
    gz: Table,
}

impl Constants {
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn new(seed: u64, y: f64) -> Constants {
        Constants {
            y: _mm512_set1_pd(y),
            seed: _mm512_set1_epi64(seed as i64),
            gx: Table::of(&GX3),
            gy: Table::of(&GY3),
            gz: Table::of(&GZ3),
        }
    }
}

/// `N` vectors of [`rows3`], each step applied to all `N` before the next.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn vectors<const N: usize>(c: &Constants, x: [__m512d; N], zv: __m512d) -> [__m512d; N] {
    let yv = c.y;
    let (pxv, pyv, pzv) = (
        _mm512_set1_epi64(PX as i64),
        _mm512_set1_epi64(PY as i64),
        _mm512_set1_epi64(PZ as i64),
    );
    let (half, one, zero) = (
        _mm512_set1_pd(0.5),
        _mm512_set1_pd(1.0),
        _mm512_setzero_pd(),
    );
    let (f3, g3, g3_2, g3_3) = (
        _mm512_set1_pd(F3),
        _mm512_set1_pd(G3),
        _mm512_set1_pd(G3_2),
        _mm512_set1_pd(G3_3),
    );
    let scale = _mm512_set1_pd(SIMPLEX3_SCALE);
    let (gx, gy, gz) = (c.gx, c.gy, c.gz);
    let add = |a, b| _mm512_add_pd(a, b);
    let sub = |a, b| _mm512_sub_pd(a, b);
    let mul = |a, b| _mm512_mul_pd(a, b);
    let each = |f: &mut dyn FnMut(usize) -> __m512d| -> [__m512d; N] { core::array::from_fn(f) };
    let each_i = |f: &mut dyn FnMut(usize) -> __m512i| -> [__m512i; N] { core::array::from_fn(f) };
    let each_m =
        |f: &mut dyn FnMut(usize) -> __mmask8| -> [__mmask8; N] { core::array::from_fn(f) };
    // The scalar `a - one(m) + c`: `a − 1` where `m` is set, `a` itself elsewhere (the
    // scalar's `a − 0.0`, which is `a` bit for bit: coordinates are finite, and −0 − 0 is
    // −0), then `+ c`.
    let offset = |a, m: __mmask8, c| add(_mm512_mask_sub_pd(a, m, a, one), c);
    let step = |h, m: __mmask8, k| _mm512_mask_add_epi64(h, m, h, k);
    let xor3 = |a, b, c| _mm512_xor_si512(_mm512_xor_si512(a, b), c);
    let s = each(&mut |i| mul(add(add(x[i], yv), zv), f3));
    let fi = each(&mut |i| _mm512_roundscale_pd::<FLOOR>(add(x[i], s[i])));
    let fj = each(&mut |i| _mm512_roundscale_pd::<FLOOR>(add(yv, s[i])));
    let fk = each(&mut |i| _mm512_roundscale_pd::<FLOOR>(add(zv, s[i])));
    let t = each(&mut |i| mul(add(add(fi[i], fj[i]), fk[i]), g3));
    let x0 = each(&mut |i| add(sub(x[i], fi[i]), t[i]));
    let y0 = each(&mut |i| add(sub(yv, fj[i]), t[i]));
    let z0 = each(&mut |i| add(sub(zv, fk[i]), t[i]));
    let xy = each_m(&mut |i| _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x0[i], y0[i]));
    let xz = each_m(&mut |i| _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x0[i], z0[i]));
    let yz = each_m(&mut |i| _mm512_cmp_pd_mask::<_CMP_GE_OQ>(y0[i], z0[i]));
    // Lattice coordinates are integral and below 2^51 (fills check 2^50): exact.
    let hxi = each_i(&mut |i| _mm512_mullo_epi64(_mm512_cvttpd_epi64(fi[i]), pxv));
    let hyj = each_i(&mut |i| _mm512_mullo_epi64(_mm512_cvttpd_epi64(fj[i]), pyv));
    let hzk = each_i(&mut |i| _mm512_mullo_epi64(_mm512_cvttpd_epi64(fk[i]), pzv));
    // The second and third corners' 0/1 steps along x, y, z, as the scalar code ranks them.
    let steps1 =
        core::array::from_fn::<_, N, _>(|i| [xy[i] & xz[i], !xy[i] & yz[i], !xz[i] & !yz[i]]);
    let steps2 =
        core::array::from_fn::<_, N, _>(|i| [xy[i] | xz[i], !xy[i] | yz[i], !xz[i] | !yz[i]]);
    let stepped = |m: &[[__mmask8; 3]; N]| {
        each_i(&mut |i| {
            let [mi, mj, mk] = m[i];
            let a = xor3(
                step(hxi[i], mi, pxv),
                step(hyj[i], mj, pyv),
                step(hzk[i], mk, pzv),
            );
            hash(c.seed, a)
        })
    };
    let h0 = each_i(&mut |i| hash(c.seed, xor3(hxi[i], hyj[i], hzk[i])));
    let (h1, h2) = (stepped(&steps1), stepped(&steps2));
    let h3 = each_i(&mut |i| {
        let a = xor3(
            _mm512_add_epi64(hxi[i], pxv),
            _mm512_add_epi64(hyj[i], pyv),
            _mm512_add_epi64(hzk[i], pzv),
        );
        hash(c.seed, a)
    });
    let corner = |h: __m512i, x: __m512d, y: __m512d, z: __m512d| {
        let k = _mm512_srli_epi64::<60>(h);
        let t = sub(sub(sub(half, mul(x, x)), mul(y, y)), mul(z, z));
        let t = _mm512_max_pd(t, zero);
        let t = mul(t, t);
        let dot = add(add(mul(gx.at(k), x), mul(gy.at(k), y)), mul(gz.at(k), z));
        mul(mul(t, t), dot)
    };
    let stepped_corner = |h: &[__m512i; N], m: &[[__mmask8; 3]; N], g| {
        each(&mut |i| {
            let [mi, mj, mk] = m[i];
            let (x, y, z) = (
                offset(x0[i], mi, g),
                offset(y0[i], mj, g),
                offset(z0[i], mk, g),
            );
            corner(h[i], x, y, z)
        })
    };
    let k0 = each(&mut |i| corner(h0[i], x0[i], y0[i], z0[i]));
    let k1 = stepped_corner(&h1, &steps1, g3);
    let k2 = stepped_corner(&h2, &steps2, g3_2);
    let k3 = each(&mut |i| {
        let far = |a| add(sub(a, one), g3_3);
        corner(h3[i], far(x0[i]), far(y0[i]), far(z0[i]))
    });
    each(&mut |i| mul(add(add(add(k0[i], k1[i]), k2[i]), k3[i]), scale))
}
