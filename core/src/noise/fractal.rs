//! Fractal point sampling: how octaves combine (`Shape`: fBm, ridged, billow), the base
//! noises as point functions (`Base`), and [`Noise::sample_2d`] / [`Noise::sample_3d`].

use crate::noise::cellular::{self, CellularParams};
use crate::noise::def::{Noise, Precision};
use crate::noise::lattice::{self, Perlin, Value};
use crate::noise::simplex;
use crate::noise::single;
use crate::noise::single::F;
use crate::util::math::abs;

/// Which [`Shape`] a type is, for the AVX2 kernel to pick at compile time.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShapeKind {
    Fbm,
    Ridged,
    Billow,
}

/// How one octave's value enters the sum.
pub(crate) trait Shape {
    const KIND: ShapeKind;
    fn apply(n: f64) -> f64;
    /// [`Shape::apply`] in `f32` (the `f32` precision's octaves).
    fn apply32(n: f32) -> f32;
    /// [`Shape::apply32`] per lane, one operation per loop.
    fn apply_lanes<const N: usize>(n: F<N>) -> F<N>;
}
pub(crate) struct Fbm;
pub(crate) struct Ridged;
pub(crate) struct Billow;
impl Shape for Fbm {
    const KIND: ShapeKind = ShapeKind::Fbm;
    #[inline(always)]
    fn apply(n: f64) -> f64 {
        n
    }
    #[inline(always)]
    fn apply32(n: f32) -> f32 {
        n
    }
    #[inline(always)]
    fn apply_lanes<const N: usize>(n: F<N>) -> F<N> {
        n
    }
}
impl Shape for Ridged {
    const KIND: ShapeKind = ShapeKind::Ridged;
    #[inline(always)]
    fn apply(n: f64) -> f64 {
        1.0 - 2.0 * abs(n)
    }
    #[inline(always)]
    fn apply32(n: f32) -> f32 {
        1.0 - 2.0 * abs32(n)
    }
    #[inline(always)]
    fn apply_lanes<const N: usize>(n: F<N>) -> F<N> {
        F::splat(1.0) - abs_lanes(n) * 2.0
    }
}
impl Shape for Billow {
    const KIND: ShapeKind = ShapeKind::Billow;
    #[inline(always)]
    fn apply(n: f64) -> f64 {
        2.0 * abs(n) - 1.0
    }
    #[inline(always)]
    fn apply32(n: f32) -> f32 {
        2.0 * abs32(n) - 1.0
    }
    #[inline(always)]
    fn apply_lanes<const N: usize>(n: F<N>) -> F<N> {
        abs_lanes(n) * 2.0 - 1.0
    }
}

/// [`abs32`] per lane.
#[inline(always)]
fn abs_lanes<const N: usize>(n: F<N>) -> F<N> {
    (n.bits() & !(1u32 << 31)).float()
}

/// `|n|` by clearing the sign bit (no branch, no libm call).
#[inline(always)]
fn abs32(n: f32) -> f32 {
    f32::from_bits(n.to_bits() & !(1 << 31))
}

/// A base noise as a point function (all four types).
pub(crate) trait Base {
    fn at2(seed: u64, c: &CellularParams, x: f64, y: f64) -> f64;
    fn at3(seed: u64, c: &CellularParams, x: f64, y: f64, z: f64) -> f64;
}
impl Base for Value {
    #[inline(always)]
    fn at2(s: u64, _: &CellularParams, x: f64, y: f64) -> f64 {
        lattice::value2(s, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, _: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        lattice::value3(s, x, y, z)
    }
}
impl Base for Perlin {
    #[inline(always)]
    fn at2(s: u64, _: &CellularParams, x: f64, y: f64) -> f64 {
        lattice::perlin2(s, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, _: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        lattice::perlin3(s, x, y, z)
    }
}
pub(crate) struct Simplex;
impl Base for Simplex {
    #[inline(always)]
    fn at2(s: u64, _: &CellularParams, x: f64, y: f64) -> f64 {
        simplex::simplex2(s, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, _: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        simplex::simplex3(s, x, y, z)
    }
}
pub(crate) struct Cellular;
impl Base for Cellular {
    #[inline(always)]
    fn at2(s: u64, c: &CellularParams, x: f64, y: f64) -> f64 {
        cellular::cellular2(s, c, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, c: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        cellular::cellular3(s, c, x, y, z)
    }
}

#[inline(always)]
pub(crate) fn point2<B: Base, S: Shape>(n: &Noise, x: f64, y: f64) -> f64 {
    let (mut x, mut y) = (x + n.offset[0], y + n.offset[1]);
    if n.warp_amplitude > 0.0 {
        let (wx, wy) = (x * n.warp_frequency, y * n.warp_frequency);
        let dx = n.warp_amplitude * simplex::simplex2(n.warp_seeds[0], wx, wy);
        let dy = n.warp_amplitude * simplex::simplex2(n.warp_seeds[1], wx, wy);
        x += dx;
        y += dy;
    }
    let mut acc = 0.0;
    for o in 0..n.octaves {
        let f = n.freq[o];
        acc += S::apply(B::at2(n.seeds[o], &n.cellular, x * f, y * f)) * n.amp[o];
    }
    acc * n.norm
}

#[inline(always)]
pub(crate) fn point3<B: Base, S: Shape>(n: &Noise, x: f64, y: f64, z: f64) -> f64 {
    let (mut x, mut y, mut z) = (x + n.offset[0], y + n.offset[1], z + n.offset[2]);
    if n.warp_amplitude > 0.0 {
        let (wx, wy, wz) = (
            x * n.warp_frequency,
            y * n.warp_frequency,
            z * n.warp_frequency,
        );
        let dx = n.warp_amplitude * simplex::simplex3(n.warp_seeds[0], wx, wy, wz);
        let dy = n.warp_amplitude * simplex::simplex3(n.warp_seeds[1], wx, wy, wz);
        let dz = n.warp_amplitude * simplex::simplex3(n.warp_seeds[2], wx, wy, wz);
        x += dx;
        y += dy;
        z += dz;
    }
    let mut acc = 0.0;
    for o in 0..n.octaves {
        let f = n.freq[o];
        acc += S::apply(B::at3(n.seeds[o], &n.cellular, x * f, y * f, z * f)) * n.amp[o];
    }
    acc * n.norm
}
pub(crate) fn do_sample2<B: Base, S: Shape>(n: &Noise, x: f64, y: f64) -> f64 {
    point2::<B, S>(n, x, y)
}
pub(crate) fn do_sample3<B: Base, S: Shape>(n: &Noise, x: f64, y: f64, z: f64) -> f64 {
    point3::<B, S>(n, x, y, z)
}

impl Noise {
    /// Sample at a 2D world position. Range about `[-1, 1]` for every type (see the
    /// documented table in ARCHITECTURE.md). NaN in gives NaN out; never panics.
    pub fn sample_2d(&self, x: f64, y: f64) -> f64 {
        if self.precision == Precision::F32 {
            return f64::from(single::sample2(self, x, y));
        }
        dispatch!(self, do_sample2(self, x, y))
    }

    /// Sample at a 3D world position.
    pub fn sample_3d(&self, x: f64, y: f64, z: f64) -> f64 {
        if self.precision == Precision::F32 {
            return f64::from(single::sample3(self, x, y, z));
        }
        dispatch!(self, do_sample3(self, x, y, z))
    }
}
