//! Positions: the CPU's `f64` lattice coordinates, carried in `f32` terms. Each value the
//! CPU holds as an `f64` is an unevaluated sum of `f32` ([`Double`]), built with exact
//! two-sums and Dekker products and rounded to 53 bits where the CPU rounds.

use alloc::vec::Vec;

use super::ir::{Builder, V};

/// `k` as three `f32` whose sum is `k` to about 72 bits.
pub(super) fn parts(k: f64) -> [f32; 3] {
    let a = k as f32;
    let r = k - f64::from(a);
    let b = r as f32;
    [a, b, (r - f64::from(b)) as f32]
}

/// Veltkamp's splitting constant for `f32`: `2^12 + 1`.
pub(super) const VELTKAMP: f32 = 4097.0;

/// An `f32` as two halves of 12 significant bits each (their products are exact).
pub(super) fn halves_const(x: f32) -> (f32, f32) {
    let t = x * VELTKAMP;
    let hi = t - (t - x);
    (hi, x - hi)
}

/// Knuth's two-sum: `a + c` as `(s, e)` with `s + e` exactly the sum. (Every operation is
/// behind [`ir::Builder::opaque`], so no compiler reads `(a + c) − a` as `c`.)
pub(super) fn two_sum(b: &mut Builder, a: V, c: V) -> (V, V) {
    let s = b.add(a, c);
    let bb = b.sub(s, a);
    let sb = b.sub(s, bb);
    let ea = b.sub(a, sb);
    let eb = b.sub(c, bb);
    (s, b.add(ea, eb))
}

/// Dekker's two-product of `a` and the constant `k`: `(p, e)` with `p + e` exactly `a · k`.
/// Every product in it is exact, so fusing multiply-adds there changes nothing.
pub(super) fn two_prod(b: &mut Builder, a: V, k: f32) -> (V, V) {
    let (kh, kl) = halves_const(k);
    let t = b.mulk(a, VELTKAMP);
    let d = b.sub(t, a);
    let ah = b.sub(t, d);
    let al = b.sub(a, ah);
    let p = b.mulk(a, k);
    let hh = b.mulk(ah, kh);
    let e = b.sub(hh, p);
    let hl = b.mulk(ah, kl);
    let e = b.add(e, hl);
    let lh = b.mulk(al, kh);
    let e = b.add(e, lh);
    let ll = b.mulk(al, kl);
    (p, b.add(e, ll))
}

/// A value the CPU holds as an `f64`, held exactly as `s + q[0] + q[1]` (`q` far below
/// `s`; absent: zero).
#[derive(Clone)]
pub(super) struct Double {
    /// The leading term.
    pub(super) s: V,
    /// The terms below it, largest first.
    pub(super) q: Vec<V>,
}

/// The terms (largest first) as `(s, r1, r2)`: a cascade of two-sums leaves `s` within an
/// `f32` unit of the sum, then the errors are summed the same way into `r1`, and what is
/// left of them into `r2`.
pub(super) fn renormalise(b: &mut Builder, terms: &[V]) -> (V, V, V) {
    let mut s = terms[0];
    let mut errs = Vec::new();
    for t in &terms[1..] {
        let (n, e) = two_sum(b, s, *t);
        s = n;
        errs.push(e);
    }
    let mut r1 = errs[0];
    let mut r2 = b.lf(0.0);
    for e in &errs[1..] {
        let (n, r) = two_sum(b, r1, *e);
        r1 = n;
        r2 = b.add(r2, r);
    }
    (s, r1, r2)
}

/// The sum of `terms` rounded to 53 significant bits, as the CPU's `f64` arithmetic
/// rounds it. With `u` the `f64` unit of `s` (`2^(exponent(s) − 52)`), `r1 + r2` is
/// rounded to a multiple of `u` by adding and subtracting `1.5 · 2^23 · 2^8 u` (which
/// rounds `r1` to a multiple of `2^8 u`: `|r1|` is below `2^30 u`), then the same with
/// `1.5 · 2^23 · u` on what is left. Both constants are made from `s`'s exponent bits.
pub(super) fn round53(b: &mut Builder, terms: &[V]) -> Double {
    let (s, r1, r2) = renormalise(b, terms);
    let bits = b.bits(s);
    let shifted = b.shr(bits, 23);
    let exponent = b.andk(shifted, 0xFF);
    // Below 2^-97 the constant would not be a normal float; such an `s` keeps its rest.
    let tiny = b.ultk(exponent, 30);
    let magic = |b: &mut Builder, extra: u32| {
        let e = b.uaddk(exponent, extra.wrapping_sub(29));
        let e = b.shl(e, 23);
        let c = b.uaddk(e, 0x0040_0000);
        b.float(c)
    };
    let coarse = magic(b, 8);
    let fine = magic(b, 0);
    let t = b.add(r1, coarse);
    let q1 = b.sub(t, coarse);
    let left = b.sub(r1, q1);
    let left = b.add(left, r2);
    let t = b.add(left, fine);
    let q2 = b.sub(t, fine);
    let q1 = b.sel(tiny, r1, q1);
    let q2 = b.sel(tiny, r2, q2);
    Double {
        s,
        q: alloc::vec![q1, q2],
    }
}

/// `x + offset` as the CPU's `f64` (`x` is exact in `f32`).
pub(super) fn position(b: &mut Builder, x: V, offset: f64) -> Double {
    if offset == 0.0 {
        return Double {
            s: x,
            q: Vec::new(),
        };
    }
    let [oh, ol, oll] = parts(offset);
    let ov = b.lf(oh);
    let (s, e) = two_sum(b, x, ov);
    let mut terms = alloc::vec![s, e];
    for k in [ol, oll] {
        if k != 0.0 {
            terms.push(b.lf(k));
        }
    }
    round53(b, &terms)
}

/// `d · k` as an unevaluated sum of `f32` terms: the leading product, then terms up to
/// about 2^-24 of it, then terms below 2^-48 of it. Products of the value's and the
/// constant's leading parts are exact (Dekker), so the sum holds about 72 significant bits,
/// more than the CPU's 53.
pub(super) fn product(b: &mut Builder, d: &Double, k: f64) -> Vec<V> {
    let [kh, kl, kll] = parts(k);
    let (hi, e) = two_prod(b, d.s, kh);
    let (mut mid, mut tiny) = (alloc::vec![e], Vec::new());
    if kl != 0.0 {
        let (q, qe) = two_prod(b, d.s, kl);
        mid.push(q);
        tiny.push(qe);
    }
    if kll != 0.0 {
        tiny.push(b.mulk(d.s, kll));
    }
    if let Some(q1) = d.q.first() {
        let (a, ae) = two_prod(b, *q1, kh);
        mid.push(a);
        tiny.push(ae);
        if kl != 0.0 {
            tiny.push(b.mulk(*q1, kl));
        }
    }
    for q in d.q.iter().skip(1) {
        tiny.push(b.mulk(*q, kh));
    }
    let mut terms = alloc::vec![hi];
    terms.append(&mut mid);
    terms.append(&mut tiny);
    terms
}

/// `a + d` rounded to `f64`.
pub(super) fn add_doubles(b: &mut Builder, a: &Double, d: &Double) -> Double {
    let (s, e) = two_sum(b, a.s, d.s);
    let mut terms = alloc::vec![s, e];
    terms.extend_from_slice(&a.q);
    terms.extend_from_slice(&d.q);
    round53(b, &terms)
}

/// `p · k` rounded to `f64` as the CPU holds it: a lattice coordinate, a simplex skew
/// term, a warp position. (The rounding matters even right before a fraction is rounded to
/// `f32`: where the exact product lies within half an `f64` unit of an `f32` midpoint, the
/// CPU's value *is* the midpoint, and the tie goes to the even neighbour. Grid positions
/// meet such ties far more often than chance would.)
pub(super) fn scale(b: &mut Builder, p: &Double, k: f64) -> Double {
    let terms = product(b, p, k);
    round53(b, &terms)
}

/// A lattice coordinate's cell (wrapping `u32`) and fraction, as [`crate::noise::single`]'s
/// `split` makes them from the `f64` coordinate `c`: `s − floor(s)` and `q[0]` summed
/// exactly (two-sums) into a fraction and a remainder far below its last bit, `q[1]` added
/// to the remainder, then rounded once.
pub(super) fn split(b: &mut Builder, c: Double) -> (V, V) {
    let cell = b.floor(c.s);
    let neg_cell = b.ksub(0.0, cell);
    // `s − cell` is exact but for a negative `s` above −1 (bits below the fraction's
    // last): its error joins the remainder.
    let (mut d, mut small) = two_sum(b, c.s, neg_cell);
    let (near, far) = c.q.split_at(c.q.len().min(1));
    for m in near {
        let (n, e) = two_sum(b, d, *m);
        d = n;
        small = b.add(small, e);
    }
    for t in far {
        small = b.add(small, *t);
    }
    // `d + small` may leave [0, 1): the cell moves, and the fraction is taken from there.
    let room = b.ksub(1.0, d);
    let up = b.ge(small, room);
    let zero = b.lf(0.0);
    let neg_d = b.sub(zero, d);
    let down = b.lt(small, neg_d);
    let d_up = b.subk(d, 1.0);
    let f_up = b.add(d_up, small);
    // `d − 1` is exact (Sterbenz); `d + 1` is not where `d` is a little below 0, so its
    // error joins `small` before the one rounding.
    let one = b.lf(1.0);
    let (d_down, e_down) = two_sum(b, d, one);
    let small_down = b.add(e_down, small);
    let f_down = b.add(d_down, small_down);
    let f_mid = b.add(d, small);
    let f_other = b.sel(down, f_down, f_mid);
    let frac = b.sel(up, f_up, f_other);
    let c_up = b.addk(cell, 1.0);
    let c_down = b.subk(cell, 1.0);
    let c_other = b.sel(down, c_down, cell);
    let cf = b.sel(up, c_up, c_other);
    (b.cell(cf), frac)
}
