//! The SIMD128 kernel of the `f64` 2D simplex fill (wasm32 built with `simd128`): a row of
//! samples along x at one y, two samples per vector, [`U`] vectors side by side. Each sample
//! goes through the operations of [`simplex2`](crate::noise::simplex2) in the same order
//! (determinism rule 5): the skew, the offsets and the corner kernels in vectors, the floor
//! as `f64x2.floor` with its integer from the mantissa (exact below 2^51; fills check
//! coordinates against 2^50), and the lattice stage (hashes, gradients) per sample in scalar
//! code. `max(t, 0)` clears the lanes whose sign is set. The npm package's tests compare this
//! module's fills with the baseline module's byte for byte, over many grids.
//!
//! The compiler vectorises the lattice and `f32` fills by itself; this row it leaves scalar
//! (a floor to `i64` and three 64-bit hashes per sample). Every intrinsic used is a safe
//! function on wasm32: no `unsafe` here.

use core::arch::wasm32::*;

use crate::noise::def::Noise;
use crate::noise::fill::{fill2_simplex_with, Grid2, Sample, SimplexRow2, TILE};
use crate::noise::fractal::Shape;
use crate::noise::lattice::{g2, hash, hx, hy, PX, PY};
use crate::noise::simplex::{simplex2, F2, G2, G2_2, SIMPLEX2_SCALE};

/// Vectors in flight, so that the long hash → kernel chains of independent samples overlap
/// (2 and 4 measure within noise of each other in Node on a Xeon).
pub(crate) const U: usize = 2;
/// Samples per vector.
const LANES: usize = 2;
/// Samples per group of [`U`] vectors: a simplex tile row is computed in whole groups.
pub(crate) const GROUP: usize = U * LANES;
const _: () = assert!(TILE % GROUP == 0);

/// Added to an integral `f64` below 2^51 in magnitude, leaves its integer in the low
/// mantissa bits: 1.5 × 2^52.
const TO_INT: f64 = 6_755_399_441_055_744.0;

type V = [v128; U];

/// An array of `U` vectors, element `$i` computed by `$e`.
macro_rules! each {
    ($i:ident => $e:expr) => {{
        let mut r = [i64x2_splat(0); U];
        for $i in 0..U {
            r[$i] = $e;
        }
        r
    }};
}

/// [`crate::noise::fill::fill2_simplex`] around the SIMD128 row.
pub(crate) fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    fill2_simplex_with::<Row2, S, T>(&Row2, n, g, out)
}

/// [`row2`] as a fill's row kernel.
struct Row2;
impl SimplexRow2 for Row2 {
    #[inline(always)]
    fn row(&self, seed: u64, xs: &[f64; TILE], y: f64, lanes: usize, v: &mut [f64; TILE]) {
        let whole = lanes / GROUP * GROUP;
        row2(seed, &xs[..whole], y, &mut v[..whole]);
        for (o, &x) in v[whole..lanes].iter_mut().zip(&xs[whole..lanes]) {
            *o = simplex2(seed, x, y);
        }
    }
}

/// The `i64`s of an integral `f64` vector of magnitude below 2^51, lane by lane.
#[inline(always)]
fn to_ints(v: v128) -> [i64; LANES] {
    let magic = f64x2_splat(TO_INT);
    let i = i64x2_sub(f64x2_add(v, magic), magic);
    [i64x2_extract_lane::<0>(i), i64x2_extract_lane::<1>(i)]
}

/// `(a − b) + c` lane by lane.
#[inline(always)]
fn offset(a: V, b: V, c: f64) -> V {
    let cv = f64x2_splat(c);
    each!(i => f64x2_add(f64x2_sub(a[i], b[i]), cv))
}

/// All ones in a 64-bit lane whose sign bit is set, zeros elsewhere: the sign spread by an
/// arithmetic 32-bit shift and the high half copied to the low one. Engines run each step
/// as one x86 instruction; a 64-bit arithmetic shift or compare, which LLVM would otherwise
/// pick, takes several without AVX-512.
#[inline(always)]
fn sign_mask(v: v128) -> v128 {
    let high = i32x4_shr(v, 31);
    i32x4_shuffle::<1, 1, 3, 3>(high, high)
}

/// One corner's contribution, `max(0.5 − x² − y², 0)⁴ (gx x + gy y)`, as
/// `simplex2_kernels`.
#[inline(always)]
fn corner(gx: V, gy: V, x: V, y: V) -> V {
    let half = f64x2_splat(0.5);
    each!(i => {
        let t = f64x2_sub(f64x2_sub(half, f64x2_mul(x[i], x[i])), f64x2_mul(y[i], y[i]));
        // `simplex::pos`: `t` cleared where its sign is set (a zero of either sign squares
        // to +0). `f64x2.max`, which a compare would become, orders zeros and NaNs: a longer
        // sequence.
        let t = v128_andnot(t, sign_mask(t));
        let t = f64x2_mul(t, t);
        f64x2_mul(
            f64x2_mul(t, t),
            f64x2_add(f64x2_mul(gx[i], x[i]), f64x2_mul(gy[i], y[i])),
        )
    })
}

/// 2D simplex at `(xs[t], y)` into `out[t]` for every `t` (`xs.len()` a multiple of
/// [`GROUP`], `out` as long): the bits of [`simplex2`].
///
/// The lattice stage (corner hashes and gradients) runs per sample in scalar code, where a
/// 64-bit multiply is one instruction: as a vector lane it is several (x86 has no 64-bit
/// lane multiply before AVX-512), and the stage takes eight of them. The skew, the offsets
/// and the kernels run two samples per vector.
#[inline(always)]
fn row2(seed: u64, xs: &[f64], y: f64, out: &mut [f64]) {
    let yv = f64x2_splat(y);
    let (f2, g2v, scale) = (
        f64x2_splat(F2),
        f64x2_splat(G2),
        f64x2_splat(SIMPLEX2_SCALE),
    );
    let one = f64x2_splat(1.0);
    for (xs, out) in xs.chunks_exact(GROUP).zip(out.chunks_exact_mut(GROUP)) {
        // `simplex2_cell`.
        let x = each!(i => f64x2(xs[LANES * i], xs[LANES * i + 1]));
        let s = each!(i => f64x2_mul(f64x2_add(x[i], yv), f2));
        let fi = each!(i => f64x2_floor(f64x2_add(x[i], s[i])));
        let fj = each!(i => f64x2_floor(f64x2_add(yv, s[i])));
        let t = each!(i => f64x2_mul(f64x2_add(fi[i], fj[i]), g2v));
        let x0 = each!(i => f64x2_add(f64x2_sub(x[i], fi[i]), t[i]));
        let y0 = each!(i => f64x2_add(f64x2_sub(yv, fj[i]), t[i]));
        let step_x = each!(i => f64x2_gt(x0[i], y0[i]));
        let step_y = each!(i => v128_not(step_x[i]));
        // The corners' gradients, sample by sample: `simplex2_cell`'s hashes and `g2`.
        let mut gx = [[0.0f64; GROUP]; 3];
        let mut gy = [[0.0f64; GROUP]; 3];
        for v in 0..U {
            let (is, js) = (to_ints(fi[v]), to_ints(fj[v]));
            let steps = [
                i64x2_extract_lane::<0>(step_x[v]) as u64,
                i64x2_extract_lane::<1>(step_x[v]) as u64,
            ];
            for l in 0..LANES {
                let (hxi, hyj) = (hx(is[l]), hy(js[l]));
                let corners = [
                    hxi ^ hyj,
                    hxi.wrapping_add(PX & steps[l]) ^ hyj.wrapping_add(PY & !steps[l]),
                    hxi.wrapping_add(PX) ^ hyj.wrapping_add(PY),
                ];
                for (k, &c) in corners.iter().enumerate() {
                    let (a, b) = g2(hash(seed, c));
                    gx[k][LANES * v + l] = a;
                    gy[k][LANES * v + l] = b;
                }
            }
        }
        let grads = |g: &[f64; GROUP]| each!(i => f64x2(g[LANES * i], g[LANES * i + 1]));
        // `simplex2_kernels`.
        let x1 = offset(x0, each!(i => v128_and(step_x[i], one)), G2);
        let y1 = offset(y0, each!(i => v128_and(step_y[i], one)), G2);
        let x2 = offset(x0, [one; U], G2_2);
        let y2 = offset(y0, [one; U], G2_2);
        let k0 = corner(grads(&gx[0]), grads(&gy[0]), x0, y0);
        let k1 = corner(grads(&gx[1]), grads(&gy[1]), x1, y1);
        let k2 = corner(grads(&gx[2]), grads(&gy[2]), x2, y2);
        for i in 0..U {
            let n = f64x2_mul(f64x2_add(f64x2_add(k0[i], k1[i]), k2[i]), scale);
            out[LANES * i] = f64x2_extract_lane::<0>(n);
            out[LANES * i + 1] = f64x2_extract_lane::<1>(n);
        }
    }
}
