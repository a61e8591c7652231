//! The x86-64 lane widths of the `f32` fills: the portable lane loops compiled with AVX-512
//! (16 lanes) or AVX2 (8 lanes) enabled. The code is the portable code, instantiated at a
//! wider `N` inside a function the compiler may use the wider registers in; no fused
//! multiply-add is enabled, so each lane runs exactly the portable operations.
//!
//! Shared lattice points are looked up with one register permute per vector (`vpermps`)
//! instead of per-lane loads: the same values the portable indexing reads.
//!
//! `unsafe` here is the call into a `#[target_feature]` function, made where the [`Noise`]
//! recorded at build time that this CPU and OS run those instructions, and the permutes,
//! which only the fills of their instruction set instantiate.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::kernels::{Kernel, Lookup, Transpose};
use super::lanes::{F, U};
use super::{fill2_lanes, fill3_lanes};
use crate::noise::def::Noise;
use crate::noise::fill::{Grid2, Grid3};
use crate::noise::fractal::Shape;

/// Lanes per AVX-512 register of `f32`.
#[cfg(feature = "avx512")]
const AVX512_LANES: usize = 16;
/// Lanes per AVX2 register of `f32`.
const AVX2_LANES: usize = 8;

/// The 2D fill at this CPU's widest lane count (the caller checked `n.simd`).
pub(super) fn fill2<K: Kernel, S: Shape>(n: &Noise, g: &Grid2, out: &mut [f32]) {
    #[cfg(feature = "avx512")]
    if n.avx512 {
        // SAFETY: `n.avx512` is only true where the CPU and OS run AVX-512 F (and DQ).
        return unsafe { fill2_avx512::<K, S>(n, g, out) };
    }
    // SAFETY: `n.simd` is only true where the CPU and OS run AVX2.
    unsafe { fill2_avx2::<K, S>(n, g, out) }
}

/// The 3D fill at this CPU's widest lane count (the caller checked `n.simd`).
pub(super) fn fill3<K: Kernel, S: Shape>(n: &Noise, g: &Grid3, out: &mut [f32]) {
    #[cfg(feature = "avx512")]
    if n.avx512 {
        // SAFETY: as in `fill2`.
        return unsafe { fill3_avx512::<K, S>(n, g, out) };
    }
    // SAFETY: as in `fill2`.
    unsafe { fill3_avx2::<K, S>(n, g, out) }
}

#[cfg(feature = "avx512")]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn fill2_avx512<K: Kernel, S: Shape>(n: &Noise, g: &Grid2, out: &mut [f32]) {
    fill2_lanes::<K, S, Permute16, AVX512_LANES>(n, g, out)
}

#[target_feature(enable = "avx2")]
unsafe fn fill2_avx2<K: Kernel, S: Shape>(n: &Noise, g: &Grid2, out: &mut [f32]) {
    fill2_lanes::<K, S, Permute8, AVX2_LANES>(n, g, out)
}

#[cfg(feature = "avx512")]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn fill3_avx512<K: Kernel, S: Shape>(n: &Noise, g: &Grid3, out: &mut [f32]) {
    fill3_lanes::<K, S, Permute16, AVX512_LANES>(n, g, out)
}

#[target_feature(enable = "avx2")]
unsafe fn fill3_avx2<K: Kernel, S: Shape>(n: &Noise, g: &Grid3, out: &mut [f32]) {
    fill3_lanes::<K, S, Permute8, AVX2_LANES>(n, g, out)
}

/// [`Lookup`] over 16 lanes by one AVX-512 two-table permute. Only the AVX-512 fills use it.
#[cfg(feature = "avx512")]
struct Permute16;

#[cfg(feature = "avx512")]
impl Lookup<AVX512_LANES> for Permute16 {
    #[inline(always)]
    fn lookup(
        lo: &[f32; AVX512_LANES],
        hi: &[f32; AVX512_LANES],
        idx: &U<AVX512_LANES>,
    ) -> F<AVX512_LANES> {
        // SAFETY: `Permute16` is only instantiated inside `fill2_avx512`/`fill3_avx512`,
        // which run where the CPU has AVX-512 F.
        F(unsafe { permute16(lo, hi, &idx.0) })
    }
}

#[cfg(feature = "avx512")]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn permute16(
    lo: &[f32; AVX512_LANES],
    hi: &[f32; AVX512_LANES],
    idx: &[u32; AVX512_LANES],
) -> [f32; AVX512_LANES] {
    let mut out = [0.0f32; AVX512_LANES];
    // Each pointer covers the 16 elements of its array; the loads and stores are unaligned.
    let (a, b) = (_mm512_loadu_ps(lo.as_ptr()), _mm512_loadu_ps(hi.as_ptr()));
    let i = _mm512_loadu_epi32(idx.as_ptr() as *const i32);
    _mm512_storeu_ps(out.as_mut_ptr(), _mm512_permutex2var_ps(a, i, b));
    out
}

/// [`Lookup`] over 8 lanes: a permute of each table and a blend. Only the AVX2 fills use it.
struct Permute8;

impl Lookup<AVX2_LANES> for Permute8 {
    #[inline(always)]
    fn lookup(
        lo: &[f32; AVX2_LANES],
        hi: &[f32; AVX2_LANES],
        idx: &U<AVX2_LANES>,
    ) -> F<AVX2_LANES> {
        // SAFETY: `Permute8` is only instantiated inside `fill2_avx2`/`fill3_avx2`, which run
        // where the CPU has AVX2.
        F(unsafe { permute8(lo, hi, &idx.0) })
    }
}

#[target_feature(enable = "avx2")]
#[inline]
unsafe fn permute8(
    lo: &[f32; AVX2_LANES],
    hi: &[f32; AVX2_LANES],
    idx: &[u32; AVX2_LANES],
) -> [f32; AVX2_LANES] {
    let mut out = [0.0f32; AVX2_LANES];
    // Each pointer covers the 8 elements of its array; the loads and stores are unaligned.
    let i = _mm256_loadu_si256(idx.as_ptr() as *const __m256i);
    let a = _mm256_permutevar8x32_ps(_mm256_loadu_ps(lo.as_ptr()), i);
    let b = _mm256_permutevar8x32_ps(_mm256_loadu_ps(hi.as_ptr()), i);
    // Lanes with an index of 8 or more take the second table (bit 3 of the index, moved to
    // the sign bit that `blendv` reads).
    let upper = _mm256_castsi256_ps(_mm256_slli_epi32(i, 28));
    _mm256_storeu_ps(out.as_mut_ptr(), _mm256_blendv_ps(a, b, upper));
    out
}

#[cfg(feature = "avx512")]
impl Transpose for Permute16 {
    #[inline(always)]
    fn transpose8(src: [&[f32; 8]; 8], m: &mut [[f32; 8]; 8]) {
        // SAFETY: `Permute16` is only instantiated inside the AVX-512 fills, which run where
        // the CPU has AVX-512 F and therefore AVX.
        unsafe { transpose8(src, m) }
    }
}

impl Transpose for Permute8 {
    #[inline(always)]
    fn transpose8(src: [&[f32; 8]; 8], m: &mut [[f32; 8]; 8]) {
        // SAFETY: `Permute8` is only instantiated inside the AVX2 fills, which run where the
        // CPU has AVX2 and therefore AVX.
        unsafe { transpose8(src, m) }
    }
}

/// [`Transpose::transpose8`] in eight 256-bit registers: pairs of rows interleaved, then
/// pairs of pairs, then the 128-bit halves exchanged.
#[target_feature(enable = "avx")]
#[inline]
unsafe fn transpose8(src: [&[f32; 8]; 8], m: &mut [[f32; 8]; 8]) {
    // Each pointer covers the 8 elements of its row; the loads and stores are unaligned.
    let r: [__m256; 8] = core::array::from_fn(|k| _mm256_loadu_ps(src[k].as_ptr()));
    let t = [
        _mm256_unpacklo_ps(r[0], r[1]),
        _mm256_unpackhi_ps(r[0], r[1]),
        _mm256_unpacklo_ps(r[2], r[3]),
        _mm256_unpackhi_ps(r[2], r[3]),
        _mm256_unpacklo_ps(r[4], r[5]),
        _mm256_unpackhi_ps(r[4], r[5]),
        _mm256_unpacklo_ps(r[6], r[7]),
        _mm256_unpackhi_ps(r[6], r[7]),
    ];
    let u = [
        _mm256_shuffle_ps::<0x44>(t[0], t[2]),
        _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
        _mm256_shuffle_ps::<0x44>(t[1], t[3]),
        _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
        _mm256_shuffle_ps::<0x44>(t[4], t[6]),
        _mm256_shuffle_ps::<0xEE>(t[4], t[6]),
        _mm256_shuffle_ps::<0x44>(t[5], t[7]),
        _mm256_shuffle_ps::<0xEE>(t[5], t[7]),
    ];
    let rows = [
        _mm256_permute2f128_ps::<0x20>(u[0], u[4]),
        _mm256_permute2f128_ps::<0x20>(u[1], u[5]),
        _mm256_permute2f128_ps::<0x20>(u[2], u[6]),
        _mm256_permute2f128_ps::<0x20>(u[3], u[7]),
        _mm256_permute2f128_ps::<0x31>(u[0], u[4]),
        _mm256_permute2f128_ps::<0x31>(u[1], u[5]),
        _mm256_permute2f128_ps::<0x31>(u[2], u[6]),
        _mm256_permute2f128_ps::<0x31>(u[3], u[7]),
    ];
    for (row, v) in m.iter_mut().zip(rows) {
        _mm256_storeu_ps(row.as_mut_ptr(), v);
    }
}
