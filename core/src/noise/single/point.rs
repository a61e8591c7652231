//! Point samples: one sample through the fill's operations on one lane, so that a point
//! sample and any fill give the same bits.

use super::*;

/// The warp displacement of a position (already offset): `amplitude ·` an `f32` simplex
/// per axis, at the warp frequency.
#[inline(always)]
fn warp2(n: &Noise, x: f64, y: f64) -> (f64, f64) {
    let (wx, wy) = (x * n.warp_frequency, y * n.warp_frequency);
    let (c, r) = (Simplex::col(wx), Simplex::row(wy));
    let d = |seed: u64| {
        let o = Octave {
            seed: seed32(seed),
            ..Octave::default()
        };
        f64::from(Simplex::eval::<1>(&o, &Cols::one(&c), &r).0[0]) * n.warp_amplitude
    };
    (d(n.warp_seeds[0]), d(n.warp_seeds[1]))
}

#[inline(always)]
fn warp3(n: &Noise, x: f64, y: f64, z: f64) -> (f64, f64, f64) {
    let f = n.warp_frequency;
    let c = Simplex::col3(x * f);
    let r = Simplex::row3(&Simplex::layer_y(y * f), &Simplex::layer_z(z * f));
    let d = |seed: u64| {
        let o = Octave {
            seed: seed32(seed),
            ..Octave::default()
        };
        f64::from(Simplex::eval3::<1>(&o, &Cols::one(&c), &r).0[0]) * n.warp_amplitude
    };
    (d(n.warp_seeds[0]), d(n.warp_seeds[1]), d(n.warp_seeds[2]))
}

/// One 2D sample: the fill's operations on one lane.
pub(super) fn point2<K: Kernel, S: Shape>(n: &Noise, x: f64, y: f64) -> f32 {
    let (mut x, mut y) = (x + n.offset[0], y + n.offset[1]);
    if n.warp_amplitude > 0.0 {
        let (dx, dy) = warp2(n, x, y);
        x += dx;
        y += dy;
    }
    let oct = octaves(n);
    let mut acc = 0.0f32;
    for (o, oc) in oct.iter().enumerate().take(n.octaves) {
        let f = n.freq[o];
        let (c, r) = (Cols::one(&K::col(x * f)), K::row(y * f));
        acc += S::apply32(K::eval::<1>(oc, &c, &r).0[0]) * oc.amp;
    }
    acc * n.norm as f32
}

/// One 3D sample: the fill's operations on one lane.
pub(super) fn point3<K: Kernel, S: Shape>(n: &Noise, x: f64, y: f64, z: f64) -> f32 {
    let (mut x, mut y, mut z) = (x + n.offset[0], y + n.offset[1], z + n.offset[2]);
    if n.warp_amplitude > 0.0 {
        let (dx, dy, dz) = warp3(n, x, y, z);
        x += dx;
        y += dy;
        z += dz;
    }
    let oct = octaves(n);
    let mut acc = 0.0f32;
    for (o, oc) in oct.iter().enumerate().take(n.octaves) {
        let f = n.freq[o];
        let c = Cols::one(&K::col3(x * f));
        let r = K::row3(&K::layer_y(y * f), &K::layer_z(z * f));
        acc += S::apply32(K::eval3::<1>(oc, &c, &r).0[0]) * oc.amp;
    }
    acc * n.norm as f32
}
