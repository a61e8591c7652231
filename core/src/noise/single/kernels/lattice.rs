//! The lattice kernels, value and Perlin: each x lattice point of a row reduces to a pair
//! `(P, Q)` ([`Lattice`]), which the samples of a cell share, and the rows of one y and z cell
//! share their points' corners ([`Corners`]).

use super::*;

/// The parts of the simplex kernel's `grad2_1` a lattice point splits: the gradient's x
/// component, and its y component times `fy` (signs by [`F::flip`], so no addition of a zero
/// decides a sign).
#[inline(always)]
fn grad2_parts<const N: usize>(h: U<N>, fy: F<N>) -> (F<N>, F<N>) {
    let sign_a = (h << 1) & SIGN;
    let sign_b = h & SIGN;
    let (diagonal, along_y) = (h.has(1 << 29), h.has(1 << 30));
    let zero = F::splat(0.0);
    let gx = diagonal.select(
        F::splat(1.0).flip(sign_a),
        along_y.select(zero, F::splat(SQRT_2).flip(sign_b)),
    );
    let gy = diagonal.select(
        fy.flip(sign_b),
        along_y.select((fy * SQRT_2).flip(sign_b), zero),
    );
    (gx, gy)
}

/// The top four bits of a hash, which pick one of Perlin's sixteen 3D gradients, with
/// the masks [`grad3_parts`] uses.
struct Pick3<const N: usize> {
    /// `k < 8`: u is x (else y).
    u_is_x: M<N>,
    /// `k < 4`: v is y.
    v_is_y: M<N>,
    /// `k` is 12 or 14: v is x.
    v_is_x: M<N>,
    sign_u: U<N>,
    sign_v: U<N>,
}

#[inline(always)]
fn pick3<const N: usize>(h: U<N>) -> Pick3<N> {
    let k = h >> 28;
    Pick3 {
        u_is_x: k.lt(8),
        v_is_y: k.lt(4),
        v_is_x: (k & 13).eq(12),
        sign_u: (k & 1) << 31,
        sign_v: (k & 2) << 30,
    }
}

/// The parts of the simplex kernel's `grad3_1` a lattice point splits: the gradient's x component, and
/// `gy · fy + gz · fz`.
#[inline(always)]
fn grad3_parts<const N: usize>(h: U<N>, fy: F<N>, fz: F<N>) -> (F<N>, F<N>) {
    let k = pick3(h);
    let one = F::splat(1.0);
    let zero = F::splat(0.0);
    // u = x: gx from u, the rest is v (y or z). u = y, v = x: gx from v, the rest is u.
    // u = y, v = z: no x; the rest is both.
    let u_rest = fy.flip(k.sign_u);
    let v_rest = k.v_is_y.select(fy, fz).flip(k.sign_v);
    let gx = k.u_is_x.select(
        one.flip(k.sign_u),
        k.v_is_x.select(one.flip(k.sign_v), zero),
    );
    let rest = k
        .u_is_x
        .select(v_rest, k.v_is_x.select(u_rest, u_rest + v_rest));
    (gx, rest)
}

/// [`value`] per lane.
#[inline(always)]
fn values<const N: usize>(h: U<N>) -> F<N> {
    h.sar(8).signed_float() * SIGNED24
}

/// The seed xored with the primed corners of a 2D row (`y0`, `y1`) or a 3D row (`y0 z0`,
/// `y1 z0`, `y0 z1`, `y1 z1`).
#[inline(always)]
fn row_seeds(o: &Octave, r: &Col, d3: bool) -> [u32; 4] {
    let (y0, z0) = (r.i[0], if d3 { r.i[1] } else { 0 });
    let (y1, z1) = (
        y0.wrapping_add(PY),
        if d3 { z0.wrapping_add(PZ) } else { 0 },
    );
    [
        o.seed ^ y0 ^ z0,
        o.seed ^ y1 ^ z0,
        o.seed ^ y0 ^ z1,
        o.seed ^ y1 ^ z1,
    ]
}

/// A lattice noise (value, Perlin) factored the way its fills share work: a *row* fixes y
/// (and z); each x lattice point of the row reduces to a pair `(P, Q)` (its corners
/// interpolated along y and z); a sample at x fraction `f` (fade `s`) in the cell between
/// points 0 and 1 is `mix(f, s, P0, Q0, P1, Q1)`. Every sample, shared or not, is computed
/// this way, so sharing a point between the samples of a cell changes no bit.
pub(crate) trait Lattice {
    /// `(P, Q)` of the 2D lattice points with primed x `xp` in the row of `seeds`
    /// ([`row_seeds`]) and data `r`.
    fn point2<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>) -> (F<N>, F<N>);
    /// `(P, Q)` of 3D lattice points.
    fn point3<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>) -> (F<N>, F<N>);
    /// The samples from their cells' two points.
    fn mix<const N: usize>(f: F<N>, s: F<N>, p0: F<N>, q0: F<N>, p1: F<N>, q1: F<N>) -> F<N>;
    /// What [`Lattice::point3`] of the points `k0..k0 + N` shares with every row of the
    /// same y and z cell, into `c`.
    fn corners3<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>, k0: usize, c: &mut Corners);
    /// [`Lattice::point3`] of the points `k0..k0 + N` from their [`Corners`].
    fn point3_from<const N: usize>(r: &Col, c: &Corners, k0: usize) -> (F<N>, F<N>);
    /// [`Lattice::point3_from`] of point `k` for `N` rows of one y, one per lane: the z data
    /// and z cell vary by lane instead of the x cell.
    fn point3_rows<const N: usize>(
        y: &Col,
        z: &RowsZ<N>,
        c: &RowCells<N>,
        k: usize,
    ) -> (F<N>, F<N>);
}

/// The z data of `N` rows of one y, one row per lane: fraction and fade.
#[derive(Clone, Copy)]
pub(crate) struct RowsZ<const N: usize> {
    pub f: F<N>,
    pub s: F<N>,
}

/// The z cells of `N` rows of one y, one row per lane: `corners[run[l]]` are lane `l`'s
/// ([`Corners`]); with no `run`, every lane's are `corners[0]`.
pub(crate) struct RowCells<'a, const N: usize> {
    pub corners: &'a [Corners],
    pub run: Option<&'a [usize; N]>,
}

impl<const N: usize> RowCells<'_, N> {
    /// `f` of each lane's corners.
    #[inline(always)]
    fn lanes(&self, f: impl Fn(&Corners) -> f32) -> F<N> {
        match self.run {
            None => F::splat(f(&self.corners[0])),
            Some(run) => {
                let mut v = [0.0; N];
                for (v, r) in v.iter_mut().zip(run) {
                    *v = f(&self.corners[*r]);
                }
                F(v)
            }
        }
    }

    /// [`RowCells::lanes`] of hashes.
    #[inline(always)]
    fn hashes(&self, corner: usize, k: usize) -> U<N> {
        match self.run {
            None => U::splat(self.corners[0].h[corner][k]),
            Some(run) => {
                let mut v = [0; N];
                for (v, r) in v.iter_mut().zip(run) {
                    *v = self.corners[*r].h[corner][k];
                }
                U(v)
            }
        }
    }
}

/// `a + (b − a) · t` with a weight per lane: [`lerp1`] of each lane's own row.
#[inline(always)]
fn lerp_rows<const N: usize>(t: F<N>, a: F<N>, b: F<N>) -> F<N> {
    a + (b - a) * t
}

/// Points of a 3D row whose common part a fill keeps ([`Kernel::corners3`]): rows wider
/// than this compute their points whole.
pub(crate) const CORNER_POINTS: usize = 32;

/// The common part of the points of the 3D rows of one y and z cell ([`Kernel::corners3`]):
/// per point the y-interpolated `P` pairs and the corners' hashes. Which y and z cell it
/// holds is the caller's to know.
#[derive(Clone, Copy)]
pub(crate) struct Corners {
    /// `P` along y at z's lower and upper corners (value noise: `Q` along y).
    pub lo: [f32; CORNER_POINTS],
    pub hi: [f32; CORNER_POINTS],
    /// The four corners' hashes (`y0 z0`, `y1 z0`, `y0 z1`, `y1 z1`).
    pub h: [[u32; CORNER_POINTS]; 4],
}

impl Default for Corners {
    fn default() -> Self {
        Corners {
            lo: [0.0; CORNER_POINTS],
            hi: [0.0; CORNER_POINTS],
            h: [[0; CORNER_POINTS]; 4],
        }
    }
}

/// Lanes `k0..k0 + N` of `table`.
#[inline(always)]
fn load<const N: usize>(table: &[f32; CORNER_POINTS], k0: usize) -> F<N> {
    let mut v = [0.0; N];
    v.copy_from_slice(&table[k0..k0 + N]);
    F(v)
}

/// [`load`] of hashes.
#[inline(always)]
fn load_u<const N: usize>(table: &[u32; CORNER_POINTS], k0: usize) -> U<N> {
    let mut v = [0; N];
    v.copy_from_slice(&table[k0..k0 + N]);
    U(v)
}

/// Value noise: a random value per lattice point, quintic interpolation.
pub(crate) struct Value;
/// Gradient (Perlin) noise, improved: quintic fade, eight 2D and twelve 3D gradients.
pub(crate) struct Perlin;

impl Lattice for Value {
    /// `Q` is the value interpolated along y (and z); `P` is unused.
    #[inline(always)]
    fn point2<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>) -> (F<N>, F<N>) {
        let v0 = values(hashes(xp ^ seeds[0]));
        let v1 = values(hashes(xp ^ seeds[1]));
        (F::splat(0.0), lerp1(r.f[1], v0, v1))
    }
    #[inline(always)]
    fn point3<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>) -> (F<N>, F<N>) {
        let v0 = values(hashes(xp ^ seeds[0]));
        let v1 = values(hashes(xp ^ seeds[1]));
        let v2 = values(hashes(xp ^ seeds[2]));
        let v3 = values(hashes(xp ^ seeds[3]));
        let (sy, sz) = (r.f[1], r.f[3]);
        let q = lerp1(sz, lerp1(sy, v0, v1), lerp1(sy, v2, v3));
        (F::splat(0.0), q)
    }
    #[inline(always)]
    fn mix<const N: usize>(_f: F<N>, s: F<N>, _p0: F<N>, q0: F<N>, _p1: F<N>, q1: F<N>) -> F<N> {
        lerp(s, q0, q1)
    }
    #[inline(always)]
    fn corners3<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>, k0: usize, c: &mut Corners) {
        let v0 = values(hashes(xp ^ seeds[0]));
        let v1 = values(hashes(xp ^ seeds[1]));
        let v2 = values(hashes(xp ^ seeds[2]));
        let v3 = values(hashes(xp ^ seeds[3]));
        let sy = r.f[1];
        c.lo[k0..k0 + N].copy_from_slice(&lerp1(sy, v0, v1).0);
        c.hi[k0..k0 + N].copy_from_slice(&lerp1(sy, v2, v3).0);
    }
    #[inline(always)]
    fn point3_from<const N: usize>(r: &Col, c: &Corners, k0: usize) -> (F<N>, F<N>) {
        let q = lerp1(r.f[3], load(&c.lo, k0), load(&c.hi, k0));
        (F::splat(0.0), q)
    }
    #[inline(always)]
    fn point3_rows<const N: usize>(
        _y: &Col,
        z: &RowsZ<N>,
        c: &RowCells<N>,
        k: usize,
    ) -> (F<N>, F<N>) {
        let q = lerp_rows(z.s, c.lanes(|c| c.lo[k]), c.lanes(|c| c.hi[k]));
        (F::splat(0.0), q)
    }
}

impl Lattice for Perlin {
    /// The dot product `g · (fx, fy)` is `gx · fx + gy · fy`: `P` is `gx` interpolated along
    /// y, `Q` the `gy · fy` part interpolated along y.
    #[inline(always)]
    fn point2<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>) -> (F<N>, F<N>) {
        let (fy, sy) = (r.f[0], r.f[1]);
        let (a0, b0) = grad2_parts(hashes(xp ^ seeds[0]), F::splat(fy));
        let (a1, b1) = grad2_parts(hashes(xp ^ seeds[1]), F::splat(fy - 1.0));
        (lerp1(sy, a0, a1), lerp1(sy, b0, b1))
    }
    #[inline(always)]
    fn point3<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>) -> (F<N>, F<N>) {
        let (fy, sy, fz, sz) = (r.f[0], r.f[1], r.f[2], r.f[3]);
        let (fy0, fy1) = (F::splat(fy), F::splat(fy - 1.0));
        let (fz0, fz1) = (F::splat(fz), F::splat(fz - 1.0));
        let (a0, b0) = grad3_parts(hashes(xp ^ seeds[0]), fy0, fz0);
        let (a1, b1) = grad3_parts(hashes(xp ^ seeds[1]), fy1, fz0);
        let (a2, b2) = grad3_parts(hashes(xp ^ seeds[2]), fy0, fz1);
        let (a3, b3) = grad3_parts(hashes(xp ^ seeds[3]), fy1, fz1);
        let p = lerp1(sz, lerp1(sy, a0, a1), lerp1(sy, a2, a3));
        let q = lerp1(sz, lerp1(sy, b0, b1), lerp1(sy, b2, b3));
        (p, q)
    }
    #[inline(always)]
    fn mix<const N: usize>(f: F<N>, s: F<N>, p0: F<N>, q0: F<N>, p1: F<N>, q1: F<N>) -> F<N> {
        lerp(s, f * p0 + q0, (f - 1.0) * p1 + q1)
    }
    /// `P`'s y interpolations (the gradients' x components do not depend on z) and the
    /// hashes; `Q`'s parts depend on the row's z fraction.
    #[inline(always)]
    fn corners3<const N: usize>(seeds: &[u32; 4], r: &Col, xp: U<N>, k0: usize, c: &mut Corners) {
        let sy = r.f[1];
        let mut a = [F::splat(0.0); 4];
        for (k, seed) in seeds.iter().enumerate() {
            let h = hashes(xp ^ *seed);
            c.h[k][k0..k0 + N].copy_from_slice(&h.0);
            a[k] = grad3_parts(h, F::splat(0.0), F::splat(0.0)).0;
        }
        c.lo[k0..k0 + N].copy_from_slice(&lerp1(sy, a[0], a[1]).0);
        c.hi[k0..k0 + N].copy_from_slice(&lerp1(sy, a[2], a[3]).0);
    }
    #[inline(always)]
    fn point3_from<const N: usize>(r: &Col, c: &Corners, k0: usize) -> (F<N>, F<N>) {
        let (fy, sy, fz, sz) = (r.f[0], r.f[1], r.f[2], r.f[3]);
        let (fy0, fy1) = (F::splat(fy), F::splat(fy - 1.0));
        let (fz0, fz1) = (F::splat(fz), F::splat(fz - 1.0));
        let b0 = grad3_parts(load_u(&c.h[0], k0), fy0, fz0).1;
        let b1 = grad3_parts(load_u(&c.h[1], k0), fy1, fz0).1;
        let b2 = grad3_parts(load_u(&c.h[2], k0), fy0, fz1).1;
        let b3 = grad3_parts(load_u(&c.h[3], k0), fy1, fz1).1;
        let p = lerp1(sz, load(&c.lo, k0), load(&c.hi, k0));
        let q = lerp1(sz, lerp1(sy, b0, b1), lerp1(sy, b2, b3));
        (p, q)
    }
    /// As [`Lattice::point3_from`]: `fy` and `sy` are every lane's (the rows share their y),
    /// `fz`, `sz` and the corners' hashes are each lane's row's.
    #[inline(always)]
    fn point3_rows<const N: usize>(
        y: &Col,
        z: &RowsZ<N>,
        c: &RowCells<N>,
        k: usize,
    ) -> (F<N>, F<N>) {
        let (fy, sy) = (y.f[0], y.f[1]);
        let (fy0, fy1) = (F::splat(fy), F::splat(fy - 1.0));
        let (fz0, fz1) = (z.f, z.f - 1.0);
        let b0 = grad3_parts(c.hashes(0, k), fy0, fz0).1;
        let b1 = grad3_parts(c.hashes(1, k), fy1, fz0).1;
        let b2 = grad3_parts(c.hashes(2, k), fy0, fz1).1;
        let b3 = grad3_parts(c.hashes(3, k), fy1, fz1).1;
        let p = lerp_rows(z.s, c.lanes(|c| c.lo[k]), c.lanes(|c| c.hi[k]));
        let q = lerp_rows(z.s, lerp1(sy, b0, b1), lerp1(sy, b2, b3));
        (p, q)
    }
}

/// A sample of a lattice noise on its own: its cell's two points, then the mix.
#[inline(always)]
fn lattice_eval<L: Lattice, const N: usize, const D3: bool>(
    o: &Octave,
    c: &Cols<N>,
    r: &Col,
) -> F<N> {
    let seeds = row_seeds(o, r, D3);
    let (x0, x1) = (c.i[0], c.i[0] + PX);
    let ((p0, q0), (p1, q1)) = if D3 {
        (L::point3(&seeds, r, x0), L::point3(&seeds, r, x1))
    } else {
        (L::point2(&seeds, r, x0), L::point2(&seeds, r, x1))
    };
    L::mix(c.f[0], c.f[1], p0, q0, p1, q1)
}

/// The cells `first`, `first + 1`, … `first + N − 1` of a row's points, one per lane.
#[inline(always)]
fn lane_cells<const N: usize>(first: u32) -> U<N> {
    let mut cells = U::<N>::splat(first);
    for l in 0..N {
        cells.0[l] = cells.0[l].wrapping_add(l as u32);
    }
    cells
}

macro_rules! lattice_kernel {
    ($t:ty) => {
        impl Kernel for $t {
            const SHARED: bool = true;
            lattice_axes!();
            #[inline(always)]
            fn eval<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N> {
                lattice_eval::<$t, N, false>(o, c, r)
            }
            #[inline(always)]
            fn eval3<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N> {
                lattice_eval::<$t, N, true>(o, c, r)
            }
            #[inline(always)]
            fn points<const N: usize, const D3: bool>(
                o: &Octave,
                r: &Col,
                first: u32,
                pq: &mut Points,
            ) {
                let seeds = row_seeds(o, r, D3);
                let cells = lane_cells::<N>(first);
                for k0 in (0..pq.count).step_by(N) {
                    let xp = (cells + k0 as u32) * PX;
                    let (p, q) = if D3 {
                        <$t as Lattice>::point3(&seeds, r, xp)
                    } else {
                        <$t as Lattice>::point2(&seeds, r, xp)
                    };
                    pq.p[k0..k0 + N].copy_from_slice(&p.0);
                    pq.q[k0..k0 + N].copy_from_slice(&q.0);
                }
            }
            const CORNERS3: bool = true;
            #[inline(always)]
            fn corners3<const N: usize>(
                o: &Octave,
                r: &Col,
                first: u32,
                count: usize,
                c: &mut Corners,
            ) {
                let seeds = row_seeds(o, r, true);
                let cells = lane_cells::<N>(first);
                for k0 in (0..count).step_by(N) {
                    let xp = (cells + k0 as u32) * PX;
                    <$t as Lattice>::corners3(&seeds, r, xp, k0, c);
                }
            }
            #[inline(always)]
            fn points3<const N: usize>(r: &Col, c: &Corners, pq: &mut Points) {
                for k0 in (0..pq.count).step_by(N) {
                    let (p, q) = <$t as Lattice>::point3_from::<N>(r, c, k0);
                    pq.p[k0..k0 + N].copy_from_slice(&p.0);
                    pq.q[k0..k0 + N].copy_from_slice(&q.0);
                }
            }
            #[inline(always)]
            fn point3_rows<const N: usize>(
                y: &Col,
                z: &RowsZ<N>,
                c: &RowCells<N>,
                k: usize,
            ) -> (F<N>, F<N>) {
                <$t as Lattice>::point3_rows::<N>(y, z, c, k)
            }
            #[inline(always)]
            fn mix_rows<const N: usize>(
                f: f32,
                s: f32,
                (p0, q0): (F<N>, F<N>),
                (p1, q1): (F<N>, F<N>),
            ) -> F<N> {
                <$t as Lattice>::mix(F::splat(f), F::splat(s), p0, q0, p1, q1)
            }
            #[inline(always)]
            fn mix_shared<const N: usize, T: Lookup<N>>(
                c: &Cols<N>,
                pq: &Points,
                at: usize,
                slots: &U<N>,
            ) -> F<N> {
                let next = *slots + 1;
                let (p, q) = (window2(&pq.p, at), window2(&pq.q, at));
                let (p0, q0) = (T::lookup(p.0, p.1, slots), T::lookup(q.0, q.1, slots));
                let (p1, q1) = (T::lookup(p.0, p.1, &next), T::lookup(q.0, q.1, &next));
                <$t as Lattice>::mix(c.f[0], c.f[1], p0, q0, p1, q1)
            }
        }
    };
}

lattice_kernel!(Value);
lattice_kernel!(Perlin);
