//! The kernels, one lane of [`crate::noise::single::kernels`]: hashes, gradients and the
//! value, Perlin, simplex and cellular kernels as [`super::ir`] programs.

use alloc::vec::Vec;

use super::ir::{Builder, V};
use super::position::*;
use crate::noise::cellular::{CellularDistance, CellularReturn};
use crate::noise::def::Noise;
use crate::noise::single::kernels::{
    CELL_VALUE, CELL_Y, CELL_Z, G2, G2_2M1, G3, G3_2, G3_3M1, RADIUS2, SIGN, SIGNED24,
    SIMPLEX2_SCALE, SIMPLEX3_SCALE, SQRT_2, UNIT24,
};
use crate::noise::single::{HM, PX, PY, PZ};

pub(super) fn hash(b: &mut Builder, a: V) -> V {
    let s = b.shr(a, 15);
    let x = b.xor(a, s);
    b.umulk(x, HM)
}

pub(super) fn fade(b: &mut Builder, t: V) -> V {
    let t2 = b.mul(t, t);
    let t3 = b.mul(t2, t);
    let a = b.mulk(t, 6.0);
    let a = b.subk(a, 15.0);
    let a = b.mul(t, a);
    let a = b.addk(a, 10.0);
    b.mul(t3, a)
}

/// `a + (c − a) · t` ([`lerp1`](crate::noise::single::kernels)).
pub(super) fn lerp1(b: &mut Builder, t: V, a: V, c: V) -> V {
    let d = b.sub(c, a);
    let m = b.mul(d, t);
    b.add(a, m)
}

/// `a + t · (c − a)`.
pub(super) fn lerp(b: &mut Builder, t: V, a: V, c: V) -> V {
    let d = b.sub(c, a);
    let m = b.mul(t, d);
    b.add(a, m)
}

pub(super) fn flip(b: &mut Builder, x: V, sign: V) -> V {
    let bits = b.bits(x);
    let f = b.xor(bits, sign);
    b.float(f)
}

/// `|x|`: the sign bit cleared (`abs32` of the CPU's fractals and cellular distances).
pub(super) fn abs(b: &mut Builder, x: V) -> V {
    let bits = b.bits(x);
    let m = b.andk(bits, !SIGN);
    b.float(m)
}

pub(super) fn has(b: &mut Builder, h: V, bit: u32) -> V {
    let m = b.andk(h, bit);
    let z = b.ueqk(m, 0);
    b.not(z)
}

pub(super) fn value(b: &mut Builder, h: V) -> V {
    let v = b.sar_f(h, 8);
    b.mulk(v, SIGNED24)
}

/// A lattice axis: the primed cell, the cell, the fraction and its fade.
pub(super) struct Axis {
    primed: V,
    frac: V,
    fade: V,
}

pub(super) fn lattice_axis(b: &mut Builder, p: Double, prime: u32) -> Axis {
    let (cell, frac) = split(b, p);
    let primed = b.umulk(cell, prime);
    let fade = fade(b, frac);
    Axis { primed, frac, fade }
}

pub(super) fn grad2_parts(b: &mut Builder, h: V, fy: V) -> (V, V) {
    let sa = b.shl(h, 1);
    let sign_a = b.andk(sa, SIGN);
    let sign_b = b.andk(h, SIGN);
    let diagonal = has(b, h, 1 << 29);
    let along_y = has(b, h, 1 << 30);
    let zero = b.lf(0.0);
    let one = b.lf(1.0);
    let one_a = flip(b, one, sign_a);
    let root2 = b.lf(SQRT_2);
    let root2_b = flip(b, root2, sign_b);
    let gx_axis = b.sel(along_y, zero, root2_b);
    let gx = b.sel(diagonal, one_a, gx_axis);
    let fy_b = flip(b, fy, sign_b);
    let fy2 = b.mulk(fy, SQRT_2);
    let fy2_b = flip(b, fy2, sign_b);
    let gy_axis = b.sel(along_y, fy2_b, zero);
    let gy = b.sel(diagonal, fy_b, gy_axis);
    (gx, gy)
}

pub(super) fn grad3_parts(b: &mut Builder, h: V, fy: V, fz: V) -> (V, V) {
    let k = b.shr(h, 28);
    let u_is_x = b.ultk(k, 8);
    let v_is_y = b.ultk(k, 4);
    let k13 = b.andk(k, 13);
    let v_is_x = b.ueqk(k13, 12);
    let k1 = b.andk(k, 1);
    let sign_u = b.shl(k1, 31);
    let k2 = b.andk(k, 2);
    let sign_v = b.shl(k2, 30);
    let one = b.lf(1.0);
    let zero = b.lf(0.0);
    let u_rest = flip(b, fy, sign_u);
    let vy = b.sel(v_is_y, fy, fz);
    let v_rest = flip(b, vy, sign_v);
    let one_u = flip(b, one, sign_u);
    let one_v = flip(b, one, sign_v);
    let gx_v = b.sel(v_is_x, one_v, zero);
    let gx = b.sel(u_is_x, one_u, gx_v);
    let both = b.add(u_rest, v_rest);
    let rest_v = b.sel(v_is_x, u_rest, both);
    let rest = b.sel(u_is_x, v_rest, rest_v);
    (gx, rest)
}

/// `(P, Q)` of the lattice point with primed x `xp` in a row ([`Lattice::point2`] and
/// `point3` of `crate::noise::single::kernels`). `rows` are the row's seeds, `fy/sy/fz/sz`
/// its fractions and fades.
pub(super) fn point(b: &mut Builder, perlin: bool, xp: V, rows: &[V], r: &[V]) -> (V, V) {
    let hashes: Vec<V> = rows
        .iter()
        .map(|s| {
            let a = b.xor(xp, *s);
            hash(b, a)
        })
        .collect();
    let zero = b.lf(0.0);
    if !perlin {
        let v: Vec<V> = hashes.iter().map(|h| value(b, *h)).collect();
        let sy = r[1];
        if rows.len() == 2 {
            return (zero, lerp1(b, sy, v[0], v[1]));
        }
        let sz = r[3];
        let a = lerp1(b, sy, v[0], v[1]);
        let c = lerp1(b, sy, v[2], v[3]);
        return (zero, lerp1(b, sz, a, c));
    }
    let (fy, sy) = (r[0], r[1]);
    let fy1 = b.subk(fy, 1.0);
    if rows.len() == 2 {
        let (a0, b0) = grad2_parts(b, hashes[0], fy);
        let (a1, b1) = grad2_parts(b, hashes[1], fy1);
        let p = lerp1(b, sy, a0, a1);
        let q = lerp1(b, sy, b0, b1);
        return (p, q);
    }
    let (fz, sz) = (r[2], r[3]);
    let fz1 = b.subk(fz, 1.0);
    let (a0, b0) = grad3_parts(b, hashes[0], fy, fz);
    let (a1, b1) = grad3_parts(b, hashes[1], fy1, fz);
    let (a2, b2) = grad3_parts(b, hashes[2], fy, fz1);
    let (a3, b3) = grad3_parts(b, hashes[3], fy1, fz1);
    let pa = lerp1(b, sy, a0, a1);
    let pb = lerp1(b, sy, a2, a3);
    let p = lerp1(b, sz, pa, pb);
    let qa = lerp1(b, sy, b0, b1);
    let qb = lerp1(b, sy, b2, b3);
    let q = lerp1(b, sz, qa, qb);
    (p, q)
}

/// The lattice sample from its x axis and its row (`rows` seeds, `r` fractions).
pub(super) fn lattice_sample(b: &mut Builder, perlin: bool, x: &Axis, rows: &[V], r: &[V]) -> V {
    let x1 = b.uaddk(x.primed, PX);
    let (p0, q0) = point(b, perlin, x.primed, rows, r);
    let (p1, q1) = point(b, perlin, x1, rows, r);
    if !perlin {
        return lerp(b, x.fade, q0, q1);
    }
    let a = b.mul(x.frac, p0);
    let a = b.add(a, q0);
    let f1 = b.subk(x.frac, 1.0);
    let c = b.mul(f1, p1);
    let c = b.add(c, q1);
    lerp(b, x.fade, a, c)
}

pub(super) fn lattice(b: &mut Builder, perlin: bool, seed: V, coords: Vec<Double>) -> V {
    let primes = [PX, PY, PZ];
    let axes: Vec<Axis> = coords
        .into_iter()
        .zip(primes)
        .map(|(c, prime)| lattice_axis(b, c, prime))
        .collect();
    let (x, y) = (&axes[0], &axes[1]);
    let y1 = b.uaddk(y.primed, PY);
    if axes.len() == 2 {
        let s0 = b.xor(seed, y.primed);
        let s1 = b.xor(seed, y1);
        return lattice_sample(b, perlin, x, &[s0, s1], &[y.frac, y.fade]);
    }
    let z = &axes[2];
    let z1 = b.uaddk(z.primed, PZ);
    let mut rows = [V(0); 4];
    for (k, (yy, zz)) in [
        (y.primed, z.primed),
        (y1, z.primed),
        (y.primed, z1),
        (y1, z1),
    ]
    .iter()
    .enumerate()
    {
        let s = b.xor(seed, *yy);
        rows[k] = b.xor(s, *zz);
    }
    let r = [y.frac, y.fade, z.frac, z.fade];
    lattice_sample(b, perlin, x, &rows, &r)
}

/// A split coordinate: cell (unprimed) and fraction.
#[derive(Clone, Copy)]
pub(super) struct Part {
    i: V,
    f: V,
}

pub(super) fn part(b: &mut Builder, c: Double) -> Part {
    let (i, f) = split(b, c);
    Part { i, f }
}

/// The carried sum of two parts ([`crate::noise::single::combine`]).
pub(super) fn combine(b: &mut Builder, x: Part, y: Part) -> Part {
    let s = b.add(x.f, y.f);
    let carry = b.gek(s, 1.0);
    let one = b.lu(1);
    let zero = b.lu(0);
    let c = b.sel(carry, one, zero);
    let i = b.uadd(x.i, y.i);
    let i = b.uadd(i, c);
    let s1 = b.subk(s, 1.0);
    let f = b.sel(carry, s1, s);
    Part { i, f }
}

/// A column part and a row part of one skewed axis, carried (`skewed1`).
pub(super) fn skewed(b: &mut Builder, ci: V, cf: V, ri: V, rf: V, prime: u32) -> (V, V) {
    let s = b.add(cf, rf);
    let carry = b.gek(s, 1.0);
    let rp = b.uaddk(ri, prime);
    let r = b.sel(carry, rp, ri);
    let i = b.uadd(ci, r);
    let s1 = b.subk(s, 1.0);
    (i, b.sel(carry, s1, s))
}

pub(super) fn pos(b: &mut Builder, t: V) -> V {
    let zero = b.lf(0.0);
    let gt = b.gtk(t, 0.0);
    b.sel(gt, t, zero)
}

pub(super) fn falloff(b: &mut Builder, d: &[V]) -> V {
    let mut t = b.lf(RADIUS2);
    for x in d {
        let x2 = b.mul(*x, *x);
        t = b.sub(t, x2);
    }
    let t = pos(b, t);
    let t = b.mul(t, t);
    b.mul(t, t)
}

pub(super) fn grad2_1(b: &mut Builder, h: V, x: V, y: V) -> V {
    let sa = b.shl(h, 1);
    let sign_a = b.andk(sa, SIGN);
    let sign_b = b.andk(h, SIGN);
    let xa = flip(b, x, sign_a);
    let yb = flip(b, y, sign_b);
    let diagonal = b.add(xa, yb);
    let along_y = has(b, h, 1 << 30);
    let pick = b.sel(along_y, y, x);
    let pb = flip(b, pick, sign_b);
    let axis = b.mulk(pb, SQRT_2);
    let diag = has(b, h, 1 << 29);
    b.sel(diag, diagonal, axis)
}

pub(super) fn grad3_1(b: &mut Builder, h: V, x: V, y: V, z: V) -> V {
    let k = b.shr(h, 28);
    let lt8 = b.ultk(k, 8);
    let u = b.sel(lt8, x, y);
    let lt4 = b.ultk(k, 4);
    let k13 = b.andk(k, 13);
    let is12 = b.ueqk(k13, 12);
    let xz = b.sel(is12, x, z);
    let v = b.sel(lt4, y, xz);
    let k1 = b.andk(k, 1);
    let su = b.shl(k1, 31);
    let k2 = b.andk(k, 2);
    let sv = b.shl(k2, 30);
    let fu = flip(b, u, su);
    let fv = flip(b, v, sv);
    b.add(fu, fv)
}

pub(super) fn kernel2(b: &mut Builder, h: V, x: V, y: V) -> V {
    let t = falloff(b, &[x, y]);
    let g = grad2_1(b, h, x, y);
    b.mul(t, g)
}

pub(super) fn kernel3(b: &mut Builder, h: V, x: V, y: V, z: V) -> V {
    let t = falloff(b, &[x, y, z]);
    let g = grad3_1(b, h, x, y, z);
    b.mul(t, g)
}

pub(super) fn hash_of(b: &mut Builder, parts: &[V], seed: V) -> V {
    let mut a = parts[0];
    for p in &parts[1..] {
        a = b.xor(a, *p);
    }
    let a = b.xor(a, seed);
    hash(b, a)
}

/// 2D simplex from the split skew terms: `x·(1 + F2)`, `x·F2`, `y·(1 + F2)`, `y·F2`.
pub(super) fn simplex2(b: &mut Builder, seed: V, coords: [Double; 4]) -> V {
    // Column and row parts (Simplex::col / Simplex::row), then the carried sums.
    let [ca, cb, ra, rb] = coords.map(|c| part(b, c));
    let ci0 = b.umulk(ca.i, PX);
    let ci1 = b.umulk(cb.i, PY);
    let ri0 = b.umulk(rb.i, PX);
    let ri1 = b.umulk(ra.i, PY);
    let (xp, fx) = skewed(b, ci0, ca.f, ri0, rb.f, PX);
    let (yp, fy) = skewed(b, ci1, cb.f, ri1, ra.f, PY);
    // simplex2_lane
    let s = b.add(fx, fy);
    let t = b.mulk(s, G2);
    let x0 = b.sub(fx, t);
    let y0 = b.sub(fy, t);
    let step_x = b.gt(x0, y0);
    let not_x = b.not(step_x);
    let g_step = b.lf(G2 - 1.0);
    let g_stay = b.lf(G2);
    let ox = b.sel(step_x, g_step, g_stay);
    let oy = b.sel(not_x, g_step, g_stay);
    let x1 = b.add(x0, ox);
    let y1 = b.add(y0, oy);
    let x2 = b.addk(x0, G2_2M1);
    let y2 = b.addk(y0, G2_2M1);
    let h0 = hash_of(b, &[xp, yp], seed);
    let xs = b.uaddk(xp, PX);
    let ys = b.uaddk(yp, PY);
    let x1p = b.sel(step_x, xs, xp);
    let y1p = b.sel(not_x, ys, yp);
    let h1 = hash_of(b, &[x1p, y1p], seed);
    let h2 = hash_of(b, &[xs, ys], seed);
    let k0 = kernel2(b, h0, x0, y0);
    let k1 = kernel2(b, h1, x1, y1);
    let k2 = kernel2(b, h2, x2, y2);
    let n = b.add(k0, k1);
    let n = b.add(n, k2);
    b.mulk(n, SIMPLEX2_SCALE)
}

/// 3D simplex from the split skew terms of x, y and z (`·(1 + F3)` and `·F3` each).
pub(super) fn simplex3(b: &mut Builder, seed: V, coords: [Double; 6]) -> V {
    // Simplex::col3, layer_y, layer_z and row3.
    let [ca, cb, ya, yb, za, zb] = coords.map(|c| part(b, c));
    let rx = combine(b, yb, zb);
    let ry = combine(b, ya, zb);
    let rz = combine(b, za, yb);
    let ci0 = b.umulk(ca.i, PX);
    let ci1 = b.umulk(cb.i, PY);
    let ci2 = b.umulk(cb.i, PZ);
    let ri0 = b.umulk(rx.i, PX);
    let ri1 = b.umulk(ry.i, PY);
    let ri2 = b.umulk(rz.i, PZ);
    let (xp, fx) = skewed(b, ci0, ca.f, ri0, rx.f, PX);
    let (yp, fy) = skewed(b, ci1, cb.f, ri1, ry.f, PY);
    let (zp, fz) = skewed(b, ci2, cb.f, ri2, rz.f, PZ);
    // simplex3_lane
    let s = b.add(fx, fy);
    let s = b.add(s, fz);
    let t = b.mulk(s, G3);
    let x0 = b.sub(fx, t);
    let y0 = b.sub(fy, t);
    let z0 = b.sub(fz, t);
    let xy = b.ge(x0, y0);
    let xz = b.ge(x0, z0);
    let yz = b.ge(y0, z0);
    let (nxy, nxz, nyz) = (b.not(xy), b.not(xz), b.not(yz));
    let i1 = b.band(xy, xz);
    let j1 = b.band(nxy, yz);
    let k1 = b.band(nxz, nyz);
    let i2 = b.bor(xy, xz);
    let j2 = b.bor(nxy, yz);
    let k2 = b.bor(nxz, nyz);
    let offset = |b: &mut Builder, steps: V, g: f32, d: V| {
        let a = b.lf(g - 1.0);
        let c = b.lf(g);
        let o = b.sel(steps, a, c);
        b.add(d, o)
    };
    let x1 = offset(b, i1, G3, x0);
    let y1 = offset(b, j1, G3, y0);
    let z1 = offset(b, k1, G3, z0);
    let x2 = offset(b, i2, G3_2, x0);
    let y2 = offset(b, j2, G3_2, y0);
    let z2 = offset(b, k2, G3_2, z0);
    let x3 = b.addk(x0, G3_3M1);
    let y3 = b.addk(y0, G3_3M1);
    let z3 = b.addk(z0, G3_3M1);
    let xq = b.uaddk(xp, PX);
    let yq = b.uaddk(yp, PY);
    let zq = b.uaddk(zp, PZ);
    let h0 = hash_of(b, &[xp, yp, zp], seed);
    let (a, c, d) = (b.sel(i1, xq, xp), b.sel(j1, yq, yp), b.sel(k1, zq, zp));
    let h1 = hash_of(b, &[a, c, d], seed);
    let (a, c, d) = (b.sel(i2, xq, xp), b.sel(j2, yq, yp), b.sel(k2, zq, zp));
    let h2 = hash_of(b, &[a, c, d], seed);
    let h3 = hash_of(b, &[xq, yq, zq], seed);
    let k0 = kernel3(b, h0, x0, y0, z0);
    let k1 = kernel3(b, h1, x1, y1, z1);
    let k2 = kernel3(b, h2, x2, y2, z2);
    let k3 = kernel3(b, h3, x3, y3, z3);
    let n = b.add(k0, k1);
    let n = b.add(n, k2);
    let n = b.add(n, k3);
    b.mulk(n, SIMPLEX3_SCALE)
}

/// Cellular noise (`Cellular::eval`/`eval3` of the `f32` noise): the 3 × 3 (× 3) cells
/// around the sample, each with one jittered feature point, the nearest two distances kept.
pub(super) fn cellular(b: &mut Builder, n: &Noise, seed: V, coords: Vec<Double>) -> V {
    let primes = [PX, PY, PZ];
    let axes: Vec<(V, V)> = coords
        .into_iter()
        .zip(primes)
        .map(|(c, prime)| {
            let (cell, frac) = split(b, c);
            (b.umulk(cell, prime), frac)
        })
        .collect();
    let params = &n.cellular;
    let jitter = params.jitter as f32;
    let half = 0.5 - 0.5 * jitter;
    let three_d = axes.len() == 3;
    let (x, fx) = axes[0];
    let (y, fy) = axes[1];
    // The search starts from "no point yet": the CPU's infinity, here the largest float
    // (every distance is below it, and the first two visits replace it either way).
    let mut f1 = b.lf(f32::MAX);
    let mut f2 = b.lf(f32::MAX);
    let mut best = b.lu(0);
    let steps: &[i32] = if three_d { &[-1, 0, 1] } else { &[0] };
    for &dz in steps {
        let zp = if three_d {
            Some(b.uaddk(axes[2].0, (dz as u32).wrapping_mul(PZ)))
        } else {
            None
        };
        for dy in -1i32..=1 {
            let mut yp = b.uaddk(y, (dy as u32).wrapping_mul(PY));
            if let Some(zp) = zp {
                yp = b.xor(yp, zp);
            }
            for dx in -1i32..=1 {
                let xp = b.uaddk(x, (dx as u32).wrapping_mul(PX));
                let a = b.xor(seed, xp);
                let a = b.xor(a, yp);
                let h = hash(b, a);
                let feature = |b: &mut Builder, d: i32, h: V, f: V| {
                    let bits = b.shr(h, 8);
                    let u = b.u_to_f(bits);
                    let u = b.mulk(u, UNIT24);
                    let uj = b.mulk(u, jitter);
                    let base = b.lf(d as f32 + half);
                    let p = b.add(base, uj);
                    b.sub(p, f)
                };
                let px = feature(b, dx, h, fx);
                let hy = b.xork_u(h, CELL_Y);
                let hy = hash(b, hy);
                let py = feature(b, dy, hy, fy);
                let pz = if three_d {
                    let hz = b.xork_u(h, CELL_Z);
                    let hz = hash(b, hz);
                    feature(b, dz, hz, axes[2].1)
                } else {
                    b.lf(0.0)
                };
                let d = distance(b, params.distance, [px, py, pz]);
                // Nearest::visit
                let below2 = b.lt(d, f2);
                let f2_new = b.sel(below2, d, f2);
                let closer = b.lt(d, f1);
                f2 = b.sel(closer, f1, f2_new);
                f1 = b.sel(closer, d, f1);
                best = b.sel(closer, h, best);
            }
        }
    }
    // Nearest::finish
    let (d1, d2) = match params.distance {
        CellularDistance::Euclidean => (b.sqrt(f1), b.sqrt(f2)),
        CellularDistance::Manhattan => (f1, f2),
    };
    match params.ret {
        CellularReturn::F1 => b.subk(d1, 1.0),
        CellularReturn::F2 => b.subk(d2, 1.0),
        CellularReturn::F2MinusF1 => {
            let d = b.sub(d2, d1);
            b.subk(d, 1.0)
        }
        CellularReturn::CellValue => {
            let a = b.xork_u(best, CELL_VALUE);
            let h = hash(b, a);
            value(b, h)
        }
    }
}

/// The distance of a feature point's offset (`distance` of the `f32` cellular noise).
pub(super) fn distance(b: &mut Builder, kind: CellularDistance, d: [V; 3]) -> V {
    let terms: Vec<V> = match kind {
        CellularDistance::Euclidean => d.iter().map(|x| b.mul(*x, *x)).collect(),
        CellularDistance::Manhattan => d.iter().map(|x| abs(b, *x)).collect(),
    };
    let s = b.add(terms[0], terms[1]);
    b.add(s, terms[2])
}
