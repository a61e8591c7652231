//! The AVX-512 fine octaves of the 2D value and Perlin fills (x86-64 CPUs with AVX-512 F and
//! DQ; built with the `avx512` feature): the AVX2 [`octave`](super::octave) eight samples per
//! vector, each lane through the same operations in the same order, so the same bits
//! (`simd_fill_matches_portable_fill` compares them). What AVX-512 adds: the hash's 64-bit
//! multiplies are one native `vpmullq` each (AVX2 emulates them with `vpmulld` +
//! `vpmuludq`, slow on Intel cores, which therefore ran fine octaves scalar), and the eight
//! gradients are read with one `vpermpd` per component.

use core::arch::x86_64::*;

use super::simplex512::hash;
use super::{Acc, OctaveRow};
use crate::noise::fractal::{Shape, ShapeKind};
use crate::noise::lattice::{hy, Axis, Lattice, GX2, GY2, PX};

/// `math::lerp`: `a + t * (b - a)`.
#[inline(always)]
unsafe fn lerp(t: __m512d, a: __m512d, b: __m512d) -> __m512d {
    _mm512_add_pd(a, _mm512_mul_pd(t, _mm512_sub_pd(b, a)))
}

/// What every vector of an octave row shares: the row's y work and the tables.
struct RowConstants {
    /// `seed ^ hy(iy)` and `seed ^ hy(iy + 1)`: the part of each corner's
    /// `seed ^ (hx ^ hy)` that the row fixes.
    sy0: __m512i,
    sy1: __m512i,
    /// The y fade, fraction and fraction − 1.
    v: __m512d,
    fy0: __m512d,
    fy1: __m512d,
    gx: __m512d,
    gy: __m512d,
}

/// One x side of a cell from its two corners' hashes (y0, y1), as the AVX2 `side`: `(p, q)`
/// of `Perlin::cell2`, or `(0, q)` of `Value::cell2`.
#[inline(always)]
unsafe fn side<L: Lattice>(r: &RowConstants, h0: __m512i, h1: __m512i) -> (__m512d, __m512d) {
    if L::GRADIENT {
        // `noise::g2`: entry `h >> 61` of the eight gradients.
        let (k0, k1) = (_mm512_srli_epi64::<61>(h0), _mm512_srli_epi64::<61>(h1));
        let (a, b) = (
            _mm512_permutexvar_pd(k0, r.gx),
            _mm512_permutexvar_pd(k0, r.gy),
        );
        let (c, d) = (
            _mm512_permutexvar_pd(k1, r.gx),
            _mm512_permutexvar_pd(k1, r.gy),
        );
        let p = lerp(r.v, a, c);
        let q = lerp(r.v, _mm512_mul_pd(b, r.fy0), _mm512_mul_pd(d, r.fy1));
        (p, q)
    } else {
        // `noise::value_of`: the high 32 bits as `i32` (exact in `f64`), times 2^-31.
        let scale = _mm512_set1_pd(1.0 / 2_147_483_648.0);
        let value = |h| _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_srai_epi64::<32>(h)), scale);
        (_mm512_setzero_pd(), lerp(r.v, value(h0), value(h1)))
    }
}

/// `Shape::apply`, with `math::abs` as clearing the sign bit.
#[inline(always)]
unsafe fn shape<S: Shape>(n: __m512d) -> __m512d {
    let (one, two) = (_mm512_set1_pd(1.0), _mm512_set1_pd(2.0));
    let abs = |n| {
        _mm512_castsi512_pd(_mm512_andnot_si512(
            _mm512_castpd_si512(_mm512_set1_pd(-0.0)),
            _mm512_castpd_si512(n),
        ))
    };
    match S::KIND {
        ShapeKind::Fbm => n,
        ShapeKind::Ridged => _mm512_sub_pd(one, _mm512_mul_pd(two, abs(n))),
        ShapeKind::Billow => _mm512_sub_pd(_mm512_mul_pd(two, abs(n)), one),
    }
}

/// One fine octave of one tile row added into `acc[..lanes]` (`lanes` a multiple of 8):
/// `acc += S::apply(noise) * amp`, as the AVX2 `octave`.
///
/// # Safety
/// The CPU must have AVX-512 F and DQ with the OS saving their state
/// ([`super::avx512_available`]).
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn octave<L: Lattice, S: Shape>(r: &OctaveRow, acc: &mut Acc, lanes: usize) {
    let (c, o) = (r.c, r.o);
    assert!(lanes.is_multiple_of(8) && lanes <= acc.0.len());
    let ay = Axis::new(r.y);
    let row = RowConstants {
        sy0: _mm512_set1_epi64((r.seed ^ hy(ay.i)) as i64),
        sy1: _mm512_set1_epi64((r.seed ^ hy(ay.i.wrapping_add(1))) as i64),
        v: _mm512_set1_pd(ay.s),
        fy0: _mm512_set1_pd(ay.f),
        fy1: _mm512_set1_pd(ay.f1),
        gx: _mm512_loadu_pd(GX2.as_ptr()),
        gy: _mm512_loadu_pd(GY2.as_ptr()),
    };
    let amp = _mm512_set1_pd(r.amp);
    let px = _mm512_set1_epi64(PX as i64);
    let one = _mm512_set1_pd(1.0);
    let mut q = 0;
    while q < lanes {
        let x0 = _mm512_loadu_si512(c.hx0[o][q..].as_ptr() as *const _);
        let x1 = _mm512_add_epi64(x0, px);
        let side0 = side::<L>(&row, hash(row.sy0, x0), hash(row.sy1, x0));
        let side1 = side::<L>(&row, hash(row.sy0, x1), hash(row.sy1, x1));
        let s = _mm512_loadu_pd(c.s[o][q..].as_ptr());
        let value = if L::GRADIENT {
            // As `Perlin::eval`.
            let fx = _mm512_loadu_pd(c.f[o][q..].as_ptr());
            let fx1 = _mm512_sub_pd(fx, one);
            let lo = _mm512_add_pd(_mm512_mul_pd(fx, side0.0), side0.1);
            let hi = _mm512_add_pd(_mm512_mul_pd(fx1, side1.0), side1.1);
            lerp(s, lo, hi)
        } else {
            // As `Value::eval`.
            lerp(s, side0.1, side1.1)
        };
        let a = acc.0[q..].as_mut_ptr();
        _mm512_storeu_pd(
            a,
            _mm512_add_pd(_mm512_loadu_pd(a), _mm512_mul_pd(shape::<S>(value), amp)),
        );
        q += 8;
    }
}
