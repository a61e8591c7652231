//! The AVX-512 3D simplex row (x86-64 CPUs with AVX-512 F and DQ; built with the `avx512`
//! feature, which needs Rust 1.89 — the Rust 1.63 build of `core` leaves it out). Eight
//! samples per vector; each lane goes through [`simplex3`](crate::noise::simplex3)'s
//! operations in the same order, as the AVX2 row does, so the bits are the same. What AVX-512
//! adds: a native 64-bit lane multiply (`vpmullq`, where AVX2 needs three instructions), lane
//! masks as `k` registers (the 0/1 steps are masked adds and subtracts), and the 16-entry gradient
//! table read by one `vpermt2pd` per component. The kernel is bound by instruction count, so
//! halving the instructions per sample is what counts (issue #19).

use core::arch::x86_64::*;

use crate::noise::lattice::{GX3, GY3, GZ3, HM, PX, PY, PZ};
use crate::noise::simplex::{F3, G3, G3_2, G3_3, SIMPLEX3_SCALE};

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

/// `noise::hash(seed, a)`.
#[inline(always)]
unsafe fn hash(seed: __m512i, a: __m512i) -> __m512i {
    let h = _mm512_mullo_epi64(_mm512_xor_si512(seed, a), _mm512_set1_epi64(HM as i64));
    _mm512_mullo_epi64(
        _mm512_xor_si512(h, _mm512_srli_epi64::<32>(h)),
        _mm512_set1_epi64(PX as i64),
    )
}

/// 3D simplex at `(xs[t], y, z)` into `out[t]` for `t < samples` (a multiple of 8; `xs` and
/// `out` at least that long): the bits of [`simplex3`](crate::noise::simplex3).
///
/// # Safety
/// The CPU must have AVX-512 F and DQ with the OS saving their state
/// ([`super::avx512_available`]).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn row3(
    seed: u64,
    xs: &[f64],
    (y, z): (f64, f64),
    out: &mut [f64],
    samples: usize,
) {
    assert!(samples.is_multiple_of(8) && xs.len() >= samples && out.len() >= samples);
    let (yv, zv) = (_mm512_set1_pd(y), _mm512_set1_pd(z));
    let seedv = _mm512_set1_epi64(seed as i64);
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
    let (gx, gy, gz) = (Table::of(&GX3), Table::of(&GY3), Table::of(&GZ3));
    let add = |a, b| _mm512_add_pd(a, b);
    let sub = |a, b| _mm512_sub_pd(a, b);
    let mul = |a, b| _mm512_mul_pd(a, b);
    // The scalar `a - one(m) + c`: `a − 1` where `m` is set, `a` itself elsewhere (the
    // scalar's `a − 0.0`, which is `a` bit for bit: coordinates are finite, and −0 − 0 is
    // −0), then `+ c`.
    let offset = |a, m: __mmask8, c| add(_mm512_mask_sub_pd(a, m, a, one), c);
    let step = |h, m: __mmask8, k| _mm512_mask_add_epi64(h, m, h, k);
    let corner = |h: __m512i, x: __m512d, y: __m512d, z: __m512d| {
        let k = _mm512_srli_epi64::<60>(h);
        let t = sub(sub(sub(half, mul(x, x)), mul(y, y)), mul(z, z));
        let t = _mm512_max_pd(t, zero);
        let t = mul(t, t);
        let dot = add(add(mul(gx.at(k), x), mul(gy.at(k), y)), mul(gz.at(k), z));
        mul(mul(t, t), dot)
    };
    let mut q = 0;
    while q < samples {
        let x = _mm512_loadu_pd(xs[q..].as_ptr());
        let s = mul(add(add(x, yv), zv), f3);
        let fi = _mm512_roundscale_pd::<FLOOR>(add(x, s));
        let fj = _mm512_roundscale_pd::<FLOOR>(add(yv, s));
        let fk = _mm512_roundscale_pd::<FLOOR>(add(zv, s));
        let t = mul(add(add(fi, fj), fk), g3);
        let x0 = add(sub(x, fi), t);
        let y0 = add(sub(yv, fj), t);
        let z0 = add(sub(zv, fk), t);
        let xy = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x0, y0);
        let xz = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x0, z0);
        let yz = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(y0, z0);
        let (i1, j1, k1) = (xy & xz, !xy & yz, !xz & !yz);
        let (i2, j2, k2) = (xy | xz, !xy | yz, !xz | !yz);
        // Lattice coordinates are integral and below 2^51 (fills check 2^50): exact.
        let hxi = _mm512_mullo_epi64(_mm512_cvttpd_epi64(fi), pxv);
        let hyj = _mm512_mullo_epi64(_mm512_cvttpd_epi64(fj), pyv);
        let hzk = _mm512_mullo_epi64(_mm512_cvttpd_epi64(fk), pzv);
        let xor3 = |a, b, c| _mm512_xor_si512(_mm512_xor_si512(a, b), c);
        let h0 = hash(seedv, xor3(hxi, hyj, hzk));
        let h1 = hash(
            seedv,
            xor3(step(hxi, i1, pxv), step(hyj, j1, pyv), step(hzk, k1, pzv)),
        );
        let h2 = hash(
            seedv,
            xor3(step(hxi, i2, pxv), step(hyj, j2, pyv), step(hzk, k2, pzv)),
        );
        let h3 = hash(
            seedv,
            xor3(
                _mm512_add_epi64(hxi, pxv),
                _mm512_add_epi64(hyj, pyv),
                _mm512_add_epi64(hzk, pzv),
            ),
        );
        let k0 = corner(h0, x0, y0, z0);
        let k1 = corner(
            h1,
            offset(x0, i1, g3),
            offset(y0, j1, g3),
            offset(z0, k1, g3),
        );
        let k2 = corner(
            h2,
            offset(x0, i2, g3_2),
            offset(y0, j2, g3_2),
            offset(z0, k2, g3_2),
        );
        let k3 = corner(
            h3,
            add(sub(x0, one), g3_3),
            add(sub(y0, one), g3_3),
            add(sub(z0, one), g3_3),
        );
        let n = add(add(add(k0, k1), k2), k3);
        _mm512_storeu_pd(out[q..].as_mut_ptr(), mul(n, scale));
        q += 8;
    }
}
