//! The SIMD128 kernel of the `f64` 2D simplex fill (wasm32 built with `simd128`): a row of
//! samples along x at one y, two samples per vector, [`U`] vectors side by side. Each lane
//! goes through the operations of [`simplex2`](crate::noise::simplex2) in the same order
//! (determinism rule 5), spelt as the AVX2 kernel (`noise::simd::simplex`) spells them: the
//! floor is `f64x2.floor`, its integer comes from the mantissa (exact below 2^51; fills check
//! coordinates against 2^50), `hx(i + 1)` is `hx(i) + PX` and the 0/1 steps are lane masks.
//! The gradients are built from magnitudes and signs rather than read from the table, and
//! `max(t, 0)` clears negative lanes: each gives the scalar bits with the instructions
//! engines run fastest on x86. The npm package's tests compare this module's fills with the
//! baseline module's byte for byte, over many grids.
//!
//! The compiler vectorises the lattice and `f32` fills by itself; this row it leaves scalar
//! (a floor to `i64` and three 64-bit hashes per sample). Every intrinsic used is a safe
//! function on wasm32: no `unsafe` here.

use core::arch::wasm32::*;

use crate::noise::def::Noise;
use crate::noise::fill::{fill2_simplex_with, Grid2, Sample, SimplexRow2, TILE};
use crate::noise::fractal::Shape;
use crate::noise::lattice::{HM, PX, PY};
use crate::noise::simplex::{simplex2, F2, G2, G2_2, SIMPLEX2_SCALE};

/// Vectors in flight, so that the long hash → kernel chains of independent samples overlap
/// (1, 2 and 4 measure within noise of each other in Node on a Xeon).
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

/// The `i64` of an integral `f64` of magnitude below 2^51.
#[inline(always)]
fn to_int(v: V) -> V {
    let magic = f64x2_splat(TO_INT);
    each!(i => i64x2_sub(f64x2_add(v[i], magic), magic))
}

/// `a * k` in each 64-bit lane, wrapping.
#[inline(always)]
fn mul64(a: V, k: u64) -> V {
    let kv = u64x2_splat(k);
    each!(i => i64x2_mul(a[i], kv))
}

#[inline(always)]
fn xor(a: V, b: V) -> V {
    each!(i => v128_xor(a[i], b[i]))
}

/// `noise::hash(seed, a)`.
#[inline(always)]
fn hash(seed: v128, a: V) -> V {
    let h = mul64(each!(i => v128_xor(seed, a[i])), HM);
    mul64(each!(i => v128_xor(h[i], u64x2_shr(h[i], 32))), PX)
}

/// `h + (k & mask)`: `hx(i + step)` for a 0/1 step given as a lane mask.
#[inline(always)]
fn step(h: V, mask: V, k: u64) -> V {
    let kv = u64x2_splat(k);
    each!(i => i64x2_add(h[i], v128_and(mask[i], kv)))
}

/// `h + k`: `hx(i + 1)`.
#[inline(always)]
fn next(h: V, k: u64) -> V {
    let kv = u64x2_splat(k);
    each!(i => i64x2_add(h[i], kv))
}

/// `(a − b) + c` lane by lane.
#[inline(always)]
fn offset(a: V, b: V, c: f64) -> V {
    let cv = f64x2_splat(c);
    each!(i => f64x2_add(f64x2_sub(a[i], b[i]), cv))
}

/// All ones in a 64-bit lane whose bit `63 − shift` is set, zeros elsewhere: the bit moved to
/// the top of the lane's high 32-bit half, spread by an arithmetic 32-bit shift, and the high
/// half copied to the low one. Engines run each step as one x86 instruction; a 64-bit
/// arithmetic shift or compare, which LLVM would otherwise pick, takes several without
/// AVX-512.
#[inline(always)]
fn bit_mask(v: v128, shift: u32) -> v128 {
    let high = i32x4_shr(i32x4_shl(v, shift), 31);
    i32x4_shuffle::<1, 1, 3, 3>(high, high)
}

/// `noise::g2`: entry `k = h >> 61` of the eight gradients (45° steps) as magnitudes and
/// signs: odd k is (±1, ±1), even k is (±√2, 0) when bit 62 is clear and (0, ±√2) when it is
/// set; x is negative for k = 3, 4, 5 and y for k = 5, 6, 7. No zero is ever negated, so each
/// component has the table's bits.
#[inline(always)]
fn grad(h: V) -> (V, V) {
    let zero = i64x2_splat(0);
    let one = f64x2_splat(1.0);
    let r2 = f64x2_splat(core::f64::consts::SQRT_2);
    let sign = f64x2_splat(-0.0);
    let mut gx = [zero; U];
    let mut gy = [zero; U];
    for i in 0..U {
        let (b2, b1, b0) = (bit_mask(h[i], 0), bit_mask(h[i], 1), bit_mask(h[i], 2));
        // |gx|: 1 for odd k, √2 for even k with b1 clear, 0 otherwise; |gy| likewise.
        let mx = v128_bitselect(one, v128_andnot(r2, b1), b0);
        let my = v128_bitselect(one, v128_and(r2, b1), b0);
        // Negative x: odd k with b2 ≠ b1 (3, 5), even k with b2 and not b1 (4). Negative y:
        // b2 with b1 or b0 (5, 6, 7).
        let nx = v128_bitselect(v128_xor(b2, b1), v128_andnot(b2, b1), b0);
        gx[i] = v128_xor(mx, v128_and(nx, sign));
        gy[i] = v128_xor(my, v128_and(v128_and(b2, v128_or(b1, b0)), sign));
    }
    (gx, gy)
}

/// One corner's contribution: `max(0.5 − x² − y², 0)⁴ (gx x + gy y)`, as `simplex2_kernels`.
#[inline(always)]
fn corner(h: V, x: V, y: V) -> V {
    let (gx, gy) = grad(h);
    let half = f64x2_splat(0.5);
    each!(i => {
        let t = f64x2_sub(f64x2_sub(half, f64x2_mul(x[i], x[i])), f64x2_mul(y[i], y[i]));
        // `simplex::pos`: `t` cleared where its sign is set (a zero of either sign squares
        // to +0). `f64x2.max`, which a compare would become, orders zeros and NaNs: a longer
        // sequence.
        let t = v128_andnot(t, bit_mask(t, 0));
        let t = f64x2_mul(t, t);
        f64x2_mul(
            f64x2_mul(t, t),
            f64x2_add(f64x2_mul(gx[i], x[i]), f64x2_mul(gy[i], y[i])),
        )
    })
}

/// 2D simplex at `(xs[t], y)` into `out[t]` for every `t` (`xs.len()` a multiple of
/// [`GROUP`], `out` as long): the bits of [`simplex2`].
#[inline(always)]
fn row2(seed: u64, xs: &[f64], y: f64, out: &mut [f64]) {
    let yv = f64x2_splat(y);
    let seedv = u64x2_splat(seed);
    let (f2, g2, scale) = (
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
        let t = each!(i => f64x2_mul(f64x2_add(fi[i], fj[i]), g2));
        let x0 = each!(i => f64x2_add(f64x2_sub(x[i], fi[i]), t[i]));
        let y0 = each!(i => f64x2_add(f64x2_sub(yv, fj[i]), t[i]));
        let step_x = each!(i => f64x2_gt(x0[i], y0[i]));
        let step_y = each!(i => v128_not(step_x[i]));
        let hxi = mul64(to_int(fi), PX);
        let hyj = mul64(to_int(fj), PY);
        let h0 = hash(seedv, xor(hxi, hyj));
        let h1 = hash(seedv, xor(step(hxi, step_x, PX), step(hyj, step_y, PY)));
        let h2 = hash(seedv, xor(next(hxi, PX), next(hyj, PY)));
        // `simplex2_kernels`.
        let x1 = offset(x0, each!(i => v128_and(step_x[i], one)), G2);
        let y1 = offset(y0, each!(i => v128_and(step_y[i], one)), G2);
        let x2 = offset(x0, [one; U], G2_2);
        let y2 = offset(y0, [one; U], G2_2);
        let (k0, k1, k2) = (corner(h0, x0, y0), corner(h1, x1, y1), corner(h2, x2, y2));
        for i in 0..U {
            let n = f64x2_mul(f64x2_add(f64x2_add(k0[i], k1[i]), k2[i]), scale);
            out[LANES * i] = f64x2_extract_lane::<0>(n);
            out[LANES * i + 1] = f64x2_extract_lane::<1>(n);
        }
    }
}
