//! The AVX2 path of the 2D value and Perlin fills (x86-64 only): four samples per
//! instruction, each sample through the portable path's operations in the same order
//! (determinism rule 5), so the bits are those of [`super::point2`]; the test
//! `simd_fill_matches_portable_fill` compares them.
//!
//! Octaves with at least 4 samples per lattice cell along x share each cell's hashing
//! (scalar, as the portable path does); finer octaves run vectorised where
//! [`fast_lane_multiply`] says the CPU is quick at it, scalar per sample (a run of one sample
//! per cell) elsewhere. Running coarse octaves per sample too would hash the same corners
//! again for every sample of a cell.
//!
//! AVX2 has no 64-bit multiply: each of the hash's two multiplies is one `vpmulld` (both
//! cross products, of which only the low 32 bits matter) and one `vpmuludq` (the low
//! product). Gradients are picked by blends on the hash's top three bits. The kernel runs
//! [`U`] vectors side by side so that the long hash → interpolation chains overlap.
//!
//! `unsafe` is confined here: the intrinsics, and the AVX2 functions, which run only when
//! [`available`] said the CPU and the OS support AVX2 (a [`Noise`] records that when built).
//! Stack use: about 27 KiB (a tile's column data: x hashes, fractions and fades for 16 octaves;
//! `hx(i + 1)` and `f − 1` are recomputed rather than stored, which costs under 3%).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::noise::def::Noise;
use crate::noise::fill::{sample_x, Grid2, Grid3, Sample};
use crate::noise::fractal::{Shape, ShapeKind};
use crate::noise::lattice::{hx, hy, Axis, Lattice, HM, PX};

/// Samples per tile row.
const TILE: usize = 64;

/// Whether this CPU and OS run AVX2 code (CPUID leaf 7 and the OS's XSAVE state for ymm).
pub(super) fn available() -> bool {
    if cfg!(target_feature = "avx2") {
        return true;
    }
    // SAFETY: CPUID exists on every x86-64 CPU; XGETBV is only executed when CPUID says the
    // OS enabled it (OSXSAVE).
    unsafe {
        if __cpuid(0).eax < 7 {
            return false;
        }
        let ecx = __cpuid(1).ecx;
        let (osxsave, avx) = (ecx & (1 << 27) != 0, ecx & (1 << 28) != 0);
        osxsave && avx && xcr0() & 6 == 6 && __cpuid_count(7, 0).ebx & (1 << 5) != 0
    }
}

/// Whether this CPU runs SSSE3 code (CPUID leaf 1, ECX bit 9).
pub(super) fn ssse3_available() -> bool {
    const SSSE3: u32 = 1 << 9;
    if cfg!(target_feature = "ssse3") {
        return true;
    }
    // SAFETY: CPUID exists on every x86-64 CPU. (Newer Rust declares `__cpuid` safe;
    // Rust 1.63, which core supports, does not.)
    #[allow(unused_unsafe)]
    let ecx = unsafe { __cpuid(1).ecx };
    ecx & SSSE3 != 0
}

/// Whether this CPU and OS run the AVX-512 kernels: AVX2 ([`available`]), AVX-512 F and DQ
/// (CPUID leaf 7), and the OS saving the opmask and all 512-bit registers (XCR0 bits 5–7).
#[cfg(feature = "avx512")]
pub(super) fn avx512_available() -> bool {
    // SAFETY: as in `available`, which has checked CPUID leaf 7 and OSXSAVE before XGETBV.
    available()
        && unsafe { xcr0() & 0xe6 == 0xe6 && __cpuid_count(7, 0).ebx & 0x3_0000 == 0x3_0000 }
}

/// Whether the AVX2 kernel's emulated 64-bit lane multiply (`vpmulld` + `vpmuludq` per
/// multiply) is cheap enough to beat scalar code per sample: AMD family 17h and later (Zen;
/// measured on Zen 3) and Hygon (Zen-based). Intel cores measured slower on the vector hash
/// than scalar (a Xeon, family 6 model 207), and other vendors are unmeasured, so
/// they run fine octaves scalar.
pub(super) fn fast_lane_multiply() -> bool {
    // "AuthenticAMD" and "HygonGenuine" as CPUID leaf 0 returns them in (ebx, edx, ecx).
    const AMD: [u32; 3] = [0x6874_7541, 0x6974_6e65, 0x444d_4163];
    const HYGON: [u32; 3] = [0x6f67_7948, 0x6e65_476e, 0x656e_6975];
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 1 exists on every one. (Newer Rust
    // declares `__cpuid` safe; Rust 1.63, which core supports, does not.)
    #[allow(unused_unsafe)]
    let (vendor, eax) = unsafe {
        let l0 = __cpuid(0);
        ([l0.ebx, l0.edx, l0.ecx], __cpuid(1).eax)
    };
    let base = (eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((eax >> 20) & 0xff)
    } else {
        base
    };
    (vendor == AMD || vendor == HYGON) && family >= 0x17
}

/// Whether this is an Intel client core whose AVX-512 issues one 512-bit FMA per cycle (the
/// two 256-bit FMA units fused): Ice Lake (CPUID family 6, models 0x7D, 0x7E), Tiger Lake
/// (0x8C, 0x8D) and Rocket Lake (0xA7, measured). There 256-bit vectors do as much
/// arithmetic per cycle as 512-bit ones.
pub(super) fn one_fma512_unit() -> bool {
    // "GenuineIntel" as CPUID leaf 0 returns it in (ebx, edx, ecx).
    const INTEL: [u32; 3] = [0x756e_6547, 0x4965_6e69, 0x6c65_746e];
    const MODELS: [u32; 5] = [0x7d, 0x7e, 0x8c, 0x8d, 0xa7];
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 1 exists on every one.
    #[allow(unused_unsafe)]
    let (vendor, eax) = unsafe {
        let l0 = __cpuid(0);
        ([l0.ebx, l0.edx, l0.ecx], __cpuid(1).eax)
    };
    let family = (eax >> 8) & 0xf;
    let model = ((eax >> 4) & 0xf) | ((eax >> 12) & 0xf0);
    vendor == INTEL && family == 6 && MODELS.contains(&model)
}

#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    _xgetbv(0)
}

/// Fill `out` with the same bits as the portable lattice fill. The caller has checked the
/// grid and the buffer.
pub(super) fn fill2<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    assert!(n.simd, "AVX2 fill without AVX2");
    // SAFETY: `n.simd` is only true when `available()` returned true on this machine.
    unsafe { fill2_avx2::<L, S, T>(n, g, out) }
}

/// The 3D value/Perlin fill compiled for AVX2 or, with [`Noise::wide_lattice_3d`], for
/// AVX-512 (`fill::fill3_lattice_body`: the compiler vectorizes its per-sample loops four or
/// eight lanes wide; same operations, same bits). The caller has checked the grid and the
/// buffer.
pub(super) fn fill3<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    assert!(n.simd, "AVX2 fill without AVX2");
    #[cfg(feature = "avx512")]
    if n.wide_lattice_3d {
        // SAFETY: `n.wide_lattice_3d` implies `n.avx512`, only true where
        // `avx512_available()` returned true.
        return unsafe { fill3_avx512::<L, S, T>(n, g, out) };
    }
    // SAFETY: `n.simd` is only true when `available()` returned true on this machine.
    unsafe { fill3_avx2::<L, S, T>(n, g, out) }
}

#[target_feature(enable = "avx2")]
unsafe fn fill3_avx2<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    crate::noise::fill::fill3_lattice_body::<L, S, T>(n, g, out)
}

#[cfg(feature = "avx512")]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn fill3_avx512<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    crate::noise::fill::fill3_lattice_body::<L, S, T>(n, g, out)
}

/// The x-axis work of one tile for all octaves, structure of arrays; samples `len..lanes`
/// repeat the last sample (padding lanes are computed and never stored).
struct Columns {
    hx0: [[u64; TILE]; MAX],
    f: [[f64; TILE]; MAX],
    s: [[f64; TILE]; MAX],
    /// Octaves whose samples share cells (at least 4
    /// samples per cell), with their runs of samples in one cell: (first, end).
    shared: [bool; MAX],
    runs: [[(u8, u8); TILE]; MAX],
    nruns: [usize; MAX],
}

const MAX: usize = super::MAX_OCTAVES as usize;

impl Columns {
    fn new(n: &Noise, x0: f64, dx: f64, first: usize, len: usize, lanes: usize) -> Self {
        let mut c = Columns {
            hx0: [[0; TILE]; MAX],
            f: [[0.0; TILE]; MAX],
            s: [[0.0; TILE]; MAX],
            shared: [false; MAX],
            runs: [[(0, 0); TILE]; MAX],
            nruns: [0; MAX],
        };
        for o in 0..n.octaves {
            let fr = n.freq[o];
            c.shared[o] = crate::util::math::abs(dx) * fr <= 0.25 || !n.vector_fine;
            for t in 0..lanes {
                let u = core::cmp::min(t, len - 1);
                let a = Axis::new(sample_x(n, x0, dx, first + u) * fr);
                c.hx0[o][t] = hx(a.i);
                c.f[o][t] = a.f;
                c.s[o][t] = a.s;
            }
            if c.shared[o] {
                let mut nr = 0usize;
                for t in 0..len {
                    if nr > 0 && c.hx0[o][t] == c.hx0[o][t - 1] {
                        c.runs[o][nr - 1].1 = (t + 1) as u8;
                    } else {
                        c.runs[o][nr] = (t as u8, (t + 1) as u8);
                        nr += 1;
                    }
                }
                c.nruns[o] = nr;
            }
        }
        c
    }
}

#[target_feature(enable = "avx2")]
unsafe fn fill2_avx2<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        // Whole groups of `U` vectors; lanes past `len` repeat the last sample and are not stored.
        let vecs = (len + 4 * U - 1) / (4 * U) * U;
        let cols = Columns::new(n, g.x0, g.dx, first, len, 4 * vecs);
        for j in 0..g.height {
            let y = (g.y0 + j as f64 * g.dy) + n.offset[1];
            let mut acc = Acc([0.0; TILE]);
            for o in 0..n.octaves {
                let row = OctaveRow {
                    c: &cols,
                    o,
                    seed: n.seeds[o],
                    y: y * n.freq[o],
                    amp: n.amp[o],
                };
                if cols.shared[o] {
                    shared_octave::<L, S>(&row, &mut acc);
                } else {
                    fine_octave::<L, S>(n, &row, &mut acc, vecs);
                }
            }
            let mut sums = [0.0f64; TILE];
            let norm = _mm256_set1_pd(n.norm);
            for q in 0..vecs {
                let a = _mm256_load_pd(acc.0[4 * q..].as_ptr());
                _mm256_storeu_pd(sums[4 * q..].as_mut_ptr(), _mm256_mul_pd(a, norm));
            }
            let dst = &mut out[j * g.width + first..j * g.width + first + len];
            for (d, s) in dst.iter_mut().zip(&sums) {
                *d = T::from_f64(*s);
            }
        }
        first += len;
    }
}

/// Vectors in flight: the kernel runs each step on `U` independent vectors side by side, so
/// the long hash → interpolation chains overlap (one vector at a time leaves the core
/// waiting on latency).
pub(crate) const U: usize = 2;
const _: () = assert!(TILE % (4 * U) == 0);

type Ints = [__m256i; U];
type Doubles = [__m256d; U];

/// An array of `U` vectors, element `$i` computed by `$e`.
macro_rules! each {
    ($zero:expr, $i:ident => $e:expr) => {{
        let mut r = [$zero; U];
        for $i in 0..U {
            r[$i] = $e;
        }
        r
    }};
}

pub(crate) mod simplex;
// Behind the `avx512` feature, which the Rust 1.63 build leaves out: its MSRV is that of
// the AVX-512 intrinsics.
#[cfg(feature = "avx512")]
#[clippy::msrv = "1.89"]
mod lattice512;
#[cfg(feature = "avx512")]
#[clippy::msrv = "1.89"]
mod simplex512;

/// One octave of one tile row: the tile's column data, the octave, its seed, the row's
/// lattice y and the octave's amplitude.
struct OctaveRow<'a> {
    c: &'a Columns,
    o: usize,
    seed: u64,
    y: f64,
    amp: f64,
}

/// A tile row's sums, aligned for vector loads and stores.
#[repr(align(32))]
struct Acc([f64; TILE]);

/// One coarse octave of one tile row added into `acc`, scalar, one cell per run of samples:
/// `Lattice::cell2` and `Lattice::eval` as in the portable fill.
///
/// Deliberately not an AVX2 function, and never inlined into one: compiled with AVX2
/// enabled, this scalar loop runs 20–45% slower per octave (Zen 3) than the same loop
/// compiled for baseline x86-64 (fewer instructions, worse schedule), enough to make the
/// portable path beat the AVX2 path at 2–4 octaves.
#[inline(never)]
fn shared_octave<L: Lattice, S: Shape>(r: &OctaveRow, acc: &mut Acc) {
    let (c, o, amp) = (r.c, r.o, r.amp);
    let row = L::row2(r.seed, &Axis::new(r.y));
    for &(a, b) in &c.runs[o][..c.nruns[o]] {
        let (a, b) = (a as usize, b as usize);
        let cell = L::cell2_hashed(&row, c.hx0[o][a], c.hx0[o][a].wrapping_add(PX));
        // Slices of the run: one bounds check per run, none per sample.
        let (sums, f, s) = (&mut acc.0[a..b], &c.f[o][a..b], &c.s[o][a..b]);
        for ((sum, &f), &s) in sums.iter_mut().zip(f).zip(s) {
            let x = Axis {
                i: 0, // `eval` reads only the fraction and fade
                f,
                f1: f - 1.0,
                s,
            };
            *sum += S::apply(L::eval(&cell, &x)) * amp;
        }
    }
}

/// One fine octave of one tile row added into `acc`: eight samples per AVX-512 vector where
/// the noise runs AVX-512 ([`lattice512`]), four per AVX2 vector otherwise.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn fine_octave<L: Lattice, S: Shape>(n: &Noise, r: &OctaveRow, acc: &mut Acc, vecs: usize) {
    #[cfg(feature = "avx512")]
    if n.avx512 {
        // SAFETY: `n.avx512` is only true where `avx512_available()` returned true.
        return lattice512::octave::<L, S>(r, acc, 4 * vecs);
    }
    let _ = n;
    octave::<L, S>(r, acc, vecs)
}

/// One octave of one tile row added into `acc`: `acc += S::apply(noise) * amp`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn octave<L: Lattice, S: Shape>(r: &OctaveRow, acc: &mut Acc, vecs: usize) {
    let (c, o, seed, y) = (r.c, r.o, r.seed, r.y);
    // The row, as in `Lattice::row2`; `seed ^ hy` is the part of each
    // corner's `seed ^ (hx ^ hy)` that the row fixes.
    let ay = Axis::new(y);
    let sy0 = _mm256_set1_epi64x((seed ^ hy(ay.i)) as i64);
    let sy1 = _mm256_set1_epi64x((seed ^ hy(ay.i.wrapping_add(1))) as i64);
    let v = _mm256_set1_pd(ay.s);
    let (fy0, fy1) = (_mm256_set1_pd(ay.f), _mm256_set1_pd(ay.f1));
    let amp = _mm256_set1_pd(r.amp);
    let zi = _mm256_setzero_si256();
    let zd = _mm256_setzero_pd();
    let px = _mm256_set1_epi64x(PX as i64);
    let one = _mm256_set1_pd(1.0);
    let mut q = 0;
    while q < vecs {
        // One x side at a time (two corners, then their lerps), to keep few vectors live.
        let x0: Ints = each!(zi, i => load_u64(&c.hx0[o], q + i));
        let h00 = hash(each!(zi, i => _mm256_xor_si256(sy0, x0[i])));
        let h01 = hash(each!(zi, i => _mm256_xor_si256(sy1, x0[i])));
        let side0 = side::<L>(h00, h01, v, fy0, fy1);
        let x1: Ints = each!(zi, i => _mm256_add_epi64(x0[i], px));
        let h10 = hash(each!(zi, i => _mm256_xor_si256(sy0, x1[i])));
        let h11 = hash(each!(zi, i => _mm256_xor_si256(sy1, x1[i])));
        let side1 = side::<L>(h10, h11, v, fy0, fy1);
        let s: Doubles = each!(zd, i => _mm256_loadu_pd(c.s[o][4 * (q + i)..].as_ptr()));
        let value: Doubles = if L::GRADIENT {
            // As `Perlin::eval`.
            let fx: Doubles = each!(zd, i => _mm256_loadu_pd(c.f[o][4 * (q + i)..].as_ptr()));
            let fx1: Doubles = each!(zd, i => _mm256_sub_pd(fx[i], one));
            let lo: Doubles = each!(zd, i => add(mul(fx[i], side0.0[i]), side0.1[i]));
            let hi: Doubles = each!(zd, i => add(mul(fx1[i], side1.0[i]), side1.1[i]));
            each!(zd, i => lerp1(s[i], lo[i], hi[i]))
        } else {
            // As `Value::eval`.
            each!(zd, i => lerp1(s[i], side0.1[i], side1.1[i]))
        };
        for i in 0..U {
            let a = acc.0[4 * (q + i)..].as_mut_ptr();
            _mm256_store_pd(a, add(_mm256_load_pd(a), mul(shape::<S>(value[i]), amp)));
        }
        q += U;
    }
}

/// One x side of a cell from its two corners' hashes (y0, y1): `(p, q)` of `Perlin::cell2`
/// (`p = lerp(v, gx0, gx1)`, `q = lerp(v, gy0·fy, gy1·(fy − 1))`), or `(0, q)` of
/// `Value::cell2` (`q = lerp(v, value0, value1)`).
#[inline(always)]
unsafe fn side<L: Lattice>(
    h0: Ints,
    h1: Ints,
    v: __m256d,
    fy0: __m256d,
    fy1: __m256d,
) -> (Doubles, Doubles) {
    if L::GRADIENT {
        let (a, b) = grad(h0);
        let (c, d) = grad(h1);
        let p = lerp(v, a, c);
        let q = lerp(
            v,
            each!(v, i => mul(b[i], fy0)),
            each!(v, i => mul(d[i], fy1)),
        );
        (p, q)
    } else {
        // Value noise has no `p`.
        let zero: Doubles = [_mm256_setzero_pd(); U];
        (zero, lerp(v, value_of(h0), value_of(h1)))
    }
}

#[inline(always)]
unsafe fn load_u64(a: &[u64; TILE], q: usize) -> __m256i {
    _mm256_loadu_si256(a[4 * q..].as_ptr() as *const __m256i)
}

#[inline(always)]
unsafe fn add(a: __m256d, b: __m256d) -> __m256d {
    _mm256_add_pd(a, b)
}

#[inline(always)]
unsafe fn mul(a: __m256d, b: __m256d) -> __m256d {
    _mm256_mul_pd(a, b)
}

/// `math::lerp`: `a + t * (b - a)`.
#[inline(always)]
unsafe fn lerp1(t: __m256d, a: __m256d, b: __m256d) -> __m256d {
    _mm256_add_pd(a, _mm256_mul_pd(t, _mm256_sub_pd(b, a)))
}

/// [`lerp1`] on `U` vectors with one `t`.
#[inline(always)]
unsafe fn lerp(t: __m256d, a: Doubles, b: Doubles) -> Doubles {
    let d: Doubles = each!(t, i => _mm256_sub_pd(b[i], a[i]));
    let m: Doubles = each!(t, i => _mm256_mul_pd(t, d[i]));
    each!(t, i => _mm256_add_pd(a[i], m[i]))
}

/// `Shape::apply`, with `math::abs` as clearing the sign bit.
#[inline(always)]
unsafe fn shape<S: Shape>(n: __m256d) -> __m256d {
    let (one, two) = (_mm256_set1_pd(1.0), _mm256_set1_pd(2.0));
    match S::KIND {
        ShapeKind::Fbm => n,
        ShapeKind::Ridged => _mm256_sub_pd(one, mul(two, abs(n))),
        ShapeKind::Billow => _mm256_sub_pd(mul(two, abs(n)), one),
    }
}

/// `math::abs`: the sign bit cleared.
#[inline(always)]
unsafe fn abs(n: __m256d) -> __m256d {
    _mm256_andnot_pd(_mm256_set1_pd(-0.0), n)
}

/// The low 64 bits of `a * k` in each lane, from 32-bit halves:
/// `lo(a)·lo(k) + ((lo(a)·hi(k) + hi(a)·lo(k)) << 32)`. One `vpmulld` forms both cross
/// products (only their low 32 bits matter), one `vpmuludq` the full low product.
#[inline(always)]
unsafe fn mul64(a: Ints, k: u64) -> Ints {
    let swapped = _mm256_set1_epi64x(k.rotate_left(32) as i64);
    let low_k = _mm256_set1_epi64x((k & 0xFFFF_FFFF) as i64);
    let cross: Ints = each!(swapped, i => _mm256_mullo_epi32(a[i], swapped));
    let low: Ints = each!(swapped, i => _mm256_mul_epu32(a[i], low_k));
    let cross: Ints =
        each!(swapped, i => _mm256_add_epi64(cross[i], _mm256_srli_epi64(cross[i], 32)));
    each!(swapped, i => _mm256_add_epi64(low[i], _mm256_slli_epi64(cross[i], 32)))
}

/// `noise::hash` of `seed ^ a` already xored.
#[inline(always)]
unsafe fn hash(x: Ints) -> Ints {
    let h = mul64(x, HM);
    mul64(
        each!(x[0], i => _mm256_xor_si256(h[i], _mm256_srli_epi64(h[i], 32))),
        PX,
    )
}

/// `noise::value_of`: the high 32 bits as `i32`, times 2^-31.
#[inline(always)]
unsafe fn value_of(h: Ints) -> Doubles {
    let odd = _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7);
    let scale = _mm256_set1_pd(1.0 / 2_147_483_648.0);
    each!(scale, i => {
        let high = _mm256_permutevar8x32_epi32(h[i], odd);
        _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(high)), scale)
    })
}

/// `noise::g2`: entry `k = h >> 61` of the eight gradients (45° steps), by blends on k's
/// bits moved to the sign bit (b2 = bit 63, b1, b0). Even k gives (±√2, 0) or (0, ±√2), odd
/// k gives (±1, ±1); every zero is +0.0 as in the table.
#[inline(always)]
unsafe fn grad(h: Ints) -> (Doubles, Doubles) {
    let (zero, one, minus_one) = (
        _mm256_setzero_pd(),
        _mm256_set1_pd(1.0),
        _mm256_set1_pd(-1.0),
    );
    let (r2, minus_r2) = (
        _mm256_set1_pd(core::f64::consts::SQRT_2),
        _mm256_set1_pd(-core::f64::consts::SQRT_2),
    );
    let b2: Doubles = each!(zero, i => _mm256_castsi256_pd(h[i]));
    let b1: Doubles = each!(zero, i => _mm256_castsi256_pd(_mm256_slli_epi64(h[i], 1)));
    let b0: Doubles = each!(zero, i => _mm256_castsi256_pd(_mm256_slli_epi64(h[i], 2)));
    // Even k: ±√2 by b2, on x when b1 is clear, on y when it is set.
    let r: Doubles = each!(zero, i => _mm256_blendv_pd(r2, minus_r2, b2[i]));
    let even_x: Doubles = each!(zero, i => _mm256_blendv_pd(r[i], zero, b1[i]));
    let even_y: Doubles = each!(zero, i => _mm256_blendv_pd(zero, r[i], b1[i]));
    // Odd k: x is negative for k = 3, 5 (b2 ≠ b1), y for k = 5, 7 (b2 set).
    let odd_x: Doubles =
        each!(zero, i => _mm256_blendv_pd(one, minus_one, _mm256_xor_pd(b2[i], b1[i])));
    let odd_y: Doubles = each!(zero, i => _mm256_blendv_pd(one, minus_one, b2[i]));
    (
        each!(zero, i => _mm256_blendv_pd(even_x[i], odd_x[i], b0[i])),
        each!(zero, i => _mm256_blendv_pd(even_y[i], odd_y[i], b0[i])),
    )
}
