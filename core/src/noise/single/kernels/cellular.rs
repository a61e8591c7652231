//! The cellular kernel: a 3 × 3 (3 × 3 × 3) search per lane (see [`Cellular`]).

use super::*;

/// Cellular (Worley) noise: one jittered feature point per cell, the 3 × 3 (3 × 3 × 3)
/// neighbourhood searched.
pub(crate) struct Cellular;

/// The running F1, F2 and nearest point's hash of a cellular search.
struct Nearest {
    f1: f32,
    f2: f32,
    best: u32,
}

impl Nearest {
    const START: Nearest = Nearest {
        f1: f32::INFINITY,
        f2: f32::INFINITY,
        best: 0,
    };

    #[inline(always)]
    fn visit(&mut self, d: f32, h: u32) {
        self.f2 = if d < self.f2 { d } else { self.f2 };
        if d < self.f1 {
            self.f2 = self.f1;
            self.f1 = d;
            self.best = h;
        }
    }

    #[inline(always)]
    fn finish(&self, o: &Octave) -> f32 {
        let (d1, d2) = match o.distance {
            CellularDistance::Euclidean => (sqrtf(self.f1), sqrtf(self.f2)),
            CellularDistance::Manhattan => (self.f1, self.f2),
        };
        match o.ret {
            CellularReturn::F1 => d1 - 1.0,
            CellularReturn::F2 => d2 - 1.0,
            CellularReturn::F2MinusF1 => d2 - d1 - 1.0,
            CellularReturn::CellValue => value(hash(self.best ^ CELL_VALUE)),
        }
    }
}

#[inline(always)]
fn distance(o: &Octave, a: f32, b: f32, c: f32) -> f32 {
    match o.distance {
        CellularDistance::Euclidean => a * a + b * b + c * c,
        CellularDistance::Manhattan => {
            f32::from_bits(a.to_bits() & !(1 << 31))
                + f32::from_bits(b.to_bits() & !(1 << 31))
                + f32::from_bits(c.to_bits() & !(1 << 31))
        }
    }
}

/// The feature point's offset along one axis of the cell `d` cells from the sample's, seen
/// from the sample (`f` its fraction): `d + half + jitter · u − f`.
#[inline(always)]
fn feature(o: &Octave, d: i32, u: f32, f: f32) -> f32 {
    let half = 0.5 - 0.5 * o.jitter;
    (d as f32 + half + u * o.jitter) - f
}

impl Kernel for Cellular {
    lattice_axes!();
    #[inline(always)]
    fn eval<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            let (x, fx, fy) = (c.i[0].0[l], c.f[0].0[l], r.f[0]);
            let mut near = Nearest::START;
            for dy in -1i32..=1 {
                let yp = r.i[0].wrapping_add((dy as u32).wrapping_mul(PY));
                for dx in -1i32..=1 {
                    let h = hash(o.seed ^ x.wrapping_add((dx as u32).wrapping_mul(PX)) ^ yp);
                    let px = feature(o, dx, unit(h), fx);
                    let py = feature(o, dy, unit(hash(h ^ CELL_Y)), fy);
                    near.visit(distance(o, px, py, 0.0), h);
                }
            }
            out[l] = near.finish(o);
        }
        F(out)
    }
    #[inline(always)]
    fn eval3<const N: usize>(o: &Octave, c: &Cols<N>, r: &Col) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            let (x, fx, fy, fz) = (c.i[0].0[l], c.f[0].0[l], r.f[0], r.f[2]);
            let mut near = Nearest::START;
            for dz in -1i32..=1 {
                let zp = r.i[1].wrapping_add((dz as u32).wrapping_mul(PZ));
                for dy in -1i32..=1 {
                    let yzp = r.i[0].wrapping_add((dy as u32).wrapping_mul(PY)) ^ zp;
                    for dx in -1i32..=1 {
                        let h = hash(o.seed ^ x.wrapping_add((dx as u32).wrapping_mul(PX)) ^ yzp);
                        let px = feature(o, dx, unit(h), fx);
                        let py = feature(o, dy, unit(hash(h ^ CELL_Y)), fy);
                        let pz = feature(o, dz, unit(hash(h ^ CELL_Z)), fz);
                        near.visit(distance(o, px, py, pz), h);
                    }
                }
            }
            out[l] = near.finish(o);
        }
        F(out)
    }
}
