//! The simplex kernel: per-lane scalar code over the skewed lattice (see [`Simplex`]).

use super::*;

/// Simplex gradient noise: skewed triangular (2D) and tetrahedral (3D) lattice, radius²
/// 0.5 kernels.
///
/// The skewed coordinate `X = x + (x + y)·F2` is `x·(1 + F2) + y·F2`: a column holds
/// `x·(1 + F2)` (for `X`) and `x·F2` (for `Y`) split, a row `y·F2` (for `X`) and
/// `y·(1 + F2)` (for `Y`), and a sample adds its column's and its row's parts with
/// [`combine`]'s carry (3D alike, with three terms per axis and `F3 = 1/3`).
pub(crate) struct Simplex;

// Simplex kernels run per lane as scalar code: measured faster than the vector-per-operation
// form, whose many masks the compiler keeps in vector registers and converts back and forth.

/// The carried sum of a column part (`ci`, `cf`) and a row part (`ri`, `rf`) of one skewed
/// axis, in primed units (`prime` added on a carry).
#[inline(always)]
fn skewed1(ci: u32, cf: f32, ri: u32, rf: f32, prime: u32) -> (u32, f32) {
    let s = cf + rf;
    let carry = s >= 1.0;
    (
        ci.wrapping_add(if carry { ri.wrapping_add(prime) } else { ri }),
        if carry { s - 1.0 } else { s },
    )
}

/// The offset of a simplex corner along one axis from the first corner's: `g` (the unskew
/// of the corner's step count), minus 1 where the corner steps along this axis.
#[inline(always)]
fn step_offset(steps: bool, g: f32) -> f32 {
    if steps {
        g - 1.0
    } else {
        g
    }
}

/// A primed cell index, plus one cell where `steps`.
#[inline(always)]
fn step_prime(steps: bool, p: u32, prime: u32) -> u32 {
    p.wrapping_add(if steps { prime } else { 0 })
}

/// `far` where the corner steps along this axis, else `near`.
#[inline(always)]
fn pick(steps: bool, near: u32, far: u32) -> u32 {
    if steps {
        far
    } else {
        near
    }
}

/// `max(t, 0)` as a selection (so a negative zero never reaches the output bits).
#[inline(always)]
fn pos1(t: f32) -> f32 {
    if t > 0.0 {
        t
    } else {
        0.0
    }
}

/// `x` with its sign bit xored by `sign` (0 or `1 << 31`).
#[inline(always)]
fn flip1(x: f32, sign: u32) -> f32 {
    f32::from_bits(x.to_bits() ^ sign)
}

/// [`grad2`] of one lane.
#[inline(always)]
fn grad2_1(h: u32, x: f32, y: f32) -> f32 {
    let sign_a = (h << 1) & SIGN;
    let sign_b = h & SIGN;
    let diagonal = flip1(x, sign_a) + flip1(y, sign_b);
    let axis = flip1(if h & (1 << 30) != 0 { y } else { x }, sign_b) * SQRT_2;
    if h & (1 << 29) != 0 {
        diagonal
    } else {
        axis
    }
}

/// [`grad3`] of one lane.
#[inline(always)]
fn grad3_1(h: u32, x: f32, y: f32, z: f32) -> f32 {
    let k = h >> 28;
    let u = if k < 8 { x } else { y };
    let v = if k < 4 {
        y
    } else if k & 13 == 12 {
        x
    } else {
        z
    };
    flip1(u, (k & 1) << 31) + flip1(v, (k & 2) << 30)
}

/// One simplex kernel: `max(r² − d², 0)^4 · (g · d)`.
#[inline(always)]
fn kernel2(h: u32, x: f32, y: f32) -> f32 {
    let t = pos1(RADIUS2 - x * x - y * y);
    let t = t * t;
    t * t * grad2_1(h, x, y)
}

#[inline(always)]
fn kernel3(h: u32, x: f32, y: f32, z: f32) -> f32 {
    let t = pos1(RADIUS2 - x * x - y * y - z * z);
    let t = t * t;
    t * t * grad3_1(h, x, y, z)
}

/// 2D simplex at in-cell skewed fractions `(fx, fy)` of the cell with primed indices
/// `(xp, yp)`.
#[inline(always)]
fn simplex2_lane(seed: u32, xp: u32, fx: f32, yp: u32, fy: f32) -> f32 {
    let t = (fx + fy) * G2;
    let (x0, y0) = (fx - t, fy - t);
    let step_x = x0 > y0;
    let x1 = x0 + step_offset(step_x, G2);
    let y1 = y0 + step_offset(!step_x, G2);
    let (x2, y2) = (x0 + G2_2M1, y0 + G2_2M1);
    let h0 = hash(xp ^ yp ^ seed);
    let h1 = hash(step_prime(step_x, xp, PX) ^ step_prime(!step_x, yp, PY) ^ seed);
    let h2 = hash(xp.wrapping_add(PX) ^ yp.wrapping_add(PY) ^ seed);
    let n = kernel2(h0, x0, y0) + kernel2(h1, x1, y1) + kernel2(h2, x2, y2);
    n * SIMPLEX2_SCALE
}

/// 3D simplex at in-cell skewed fractions `f` of the cell with primed indices `p`.
#[inline(always)]
fn simplex3_lane(seed: u32, p: [u32; 3], f: [f32; 3]) -> f32 {
    let [xp, yp, zp] = p;
    let [fx, fy, fz] = f;
    let t = (fx + fy + fz) * G3;
    let (x0, y0, z0) = (fx - t, fy - t, fz - t);
    // Rank the offsets: the first step goes along the largest axis, the second along the
    // two largest.
    let (xy, xz, yz) = (x0 >= y0, x0 >= z0, y0 >= z0);
    let (i1, j1, k1) = (xy & xz, !xy & yz, !xz & !yz);
    let (i2, j2, k2) = (xy | xz, !xy | yz, !xz | !yz);
    let (x1, y1, z1) = (
        x0 + step_offset(i1, G3),
        y0 + step_offset(j1, G3),
        z0 + step_offset(k1, G3),
    );
    let (x2, y2, z2) = (
        x0 + step_offset(i2, G3_2),
        y0 + step_offset(j2, G3_2),
        z0 + step_offset(k2, G3_2),
    );
    let (x3, y3, z3) = (x0 + G3_3M1, y0 + G3_3M1, z0 + G3_3M1);
    // The far corner's cells, from which the middle corners pick per axis.
    let (xq, yq, zq) = (
        xp.wrapping_add(PX),
        yp.wrapping_add(PY),
        zp.wrapping_add(PZ),
    );
    let h0 = hash(xp ^ yp ^ zp ^ seed);
    let h1 = hash(pick(i1, xp, xq) ^ pick(j1, yp, yq) ^ pick(k1, zp, zq) ^ seed);
    let h2 = hash(pick(i2, xp, xq) ^ pick(j2, yp, yq) ^ pick(k2, zp, zq) ^ seed);
    let h3 = hash(xq ^ yq ^ zq ^ seed);
    let n = kernel3(h0, x0, y0, z0)
        + kernel3(h1, x1, y1, z1)
        + kernel3(h2, x2, y2, z2)
        + kernel3(h3, x3, y3, z3);
    n * SIMPLEX3_SCALE
}

impl Kernel for Simplex {
    #[inline(always)]
    fn col(px: f64) -> Col {
        let (a, b) = (split(px * (1.0 + F2)), split(px * F2));
        Col {
            i: [a.i.wrapping_mul(PX), b.i.wrapping_mul(PY), 0],
            f: [a.f, b.f, 0.0, 0.0],
        }
    }
    #[inline(always)]
    fn row(py: f64) -> Col {
        let (a, b) = (split(py * (1.0 + F2)), split(py * F2));
        Col {
            i: [b.i.wrapping_mul(PX), a.i.wrapping_mul(PY), 0],
            f: [b.f, a.f, 0.0, 0.0],
        }
    }
    #[inline(always)]
    fn eval<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            let (xp, fx) = skewed1(c.i[0].0[l], c.f[0].0[l], r.i[0], r.f[0], PX);
            let (yp, fy) = skewed1(c.i[1].0[l], c.f[1].0[l], r.i[1], r.f[1], PY);
            out[l] = simplex2_lane(o.seed, xp, fx, yp, fy);
        }
        F(out)
    }
    #[inline(always)]
    fn col3(px: f64) -> Col {
        let (a, b) = (split(px * (1.0 + F3)), split(px * F3));
        Col {
            i: [
                a.i.wrapping_mul(PX),
                b.i.wrapping_mul(PY),
                b.i.wrapping_mul(PZ),
            ],
            f: [a.f, b.f, 0.0, 0.0],
        }
    }
    /// The y terms, unprimed: `y·(1 + F3)` (for `Y`) and `y·F3` (for `X` and `Z`).
    #[inline(always)]
    fn layer_y(py: f64) -> Col {
        let (a, b) = (split(py * (1.0 + F3)), split(py * F3));
        Col {
            i: [a.i, b.i, 0],
            f: [a.f, b.f, 0.0, 0.0],
        }
    }
    /// The z terms, unprimed: `z·(1 + F3)` (for `Z`) and `z·F3` (for `X` and `Y`).
    #[inline(always)]
    fn layer_z(pz: f64) -> Col {
        Self::layer_y(pz)
    }
    #[inline(always)]
    fn row3(y: &Col, z: &Col) -> Col {
        let part = |c: &Col, k: usize| Split {
            i: c.i[k],
            f: c.f[k],
        };
        let x = combine(part(y, 1), part(z, 1));
        let yy = combine(part(y, 0), part(z, 1));
        let zz = combine(part(z, 0), part(y, 1));
        Col {
            i: [
                x.i.wrapping_mul(PX),
                yy.i.wrapping_mul(PY),
                zz.i.wrapping_mul(PZ),
            ],
            f: [x.f, yy.f, zz.f, 0.0],
        }
    }
    #[inline(always)]
    fn eval3<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            let (xp, fx) = skewed1(c.i[0].0[l], c.f[0].0[l], r.i[0], r.f[0], PX);
            let (yp, fy) = skewed1(c.i[1].0[l], c.f[1].0[l], r.i[1], r.f[1], PY);
            let (zp, fz) = skewed1(c.i[2].0[l], c.f[1].0[l], r.i[2], r.f[2], PZ);
            out[l] = simplex3_lane(o.seed, [xp, yp, zp], [fx, fy, fz]);
        }
        F(out)
    }
}
