//! A second implementation of the `f32` base noises, written from their definitions in the
//! textbook form and computed in `f64`: floor of the whole (skewed) position, offsets from the
//! cell's corners, the same hash and gradient rules. The `f32` code gets the same values by
//! splitting axes, combining per-axis skew terms with carries and working in `f32`; the two
//! must agree to `f32` rounding everywhere, at the origin and 10^7 cells out.

use super::{hash, PX, PY, PZ};
use crate::noise::cellular::{CellularDistance, CellularReturn};
use crate::noise::def::{derive_seed, FractalType, NoiseDef, NoiseType, Precision};
use crate::util::random::Xoroshiro128PlusPlus;

const R2: f64 = core::f64::consts::SQRT_2;

fn corner(seed: u32, i: i64, j: i64, k: i64) -> u32 {
    hash(
        seed ^ (i as u32).wrapping_mul(PX)
            ^ (j as u32).wrapping_mul(PY)
            ^ (k as u32).wrapping_mul(PZ),
    )
}

fn floor(x: f64) -> i64 {
    libm::floor(x) as i64
}

fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

fn lerp(t: f64, a: f64, b: f64) -> f64 {
    a + t * (b - a)
}

fn value(h: u32) -> f64 {
    f64::from((h as i32) >> 8) / 8_388_608.0
}

/// The eight 2D gradients: `(±1, ±1)` for odd `k = h >> 29`, else `±√2` along x (`k & 2`
/// clear) or y; bit 1 of `k` is the sign of x in the diagonal ones, bit 2 the other sign.
fn grad2(h: u32) -> (f64, f64) {
    let k = h >> 29;
    let (sa, sb) = (
        if k & 2 != 0 { -1.0 } else { 1.0 },
        if k & 4 != 0 { -1.0 } else { 1.0 },
    );
    match (k & 1, k & 2) {
        (1, _) => (sa, sb),
        (_, 0) => (sb * R2, 0.0),
        _ => (0.0, sb * R2),
    }
}

/// Perlin's sixteen 3D gradients (the twelve cube edges and four repeats).
fn grad3(h: u32) -> (f64, f64, f64) {
    const G: [(f64, f64, f64); 16] = [
        (1.0, 1.0, 0.0),
        (-1.0, 1.0, 0.0),
        (1.0, -1.0, 0.0),
        (-1.0, -1.0, 0.0),
        (1.0, 0.0, 1.0),
        (-1.0, 0.0, 1.0),
        (1.0, 0.0, -1.0),
        (-1.0, 0.0, -1.0),
        (0.0, 1.0, 1.0),
        (0.0, -1.0, 1.0),
        (0.0, 1.0, -1.0),
        (0.0, -1.0, -1.0),
        (1.0, 1.0, 0.0),
        (0.0, -1.0, 1.0),
        (-1.0, 1.0, 0.0),
        (0.0, -1.0, -1.0),
    ];
    G[(h >> 28) as usize]
}

fn lattice2(seed: u32, x: f64, y: f64, perlin: bool) -> f64 {
    let (i, j) = (floor(x), floor(y));
    let (fx, fy) = (x - i as f64, y - j as f64);
    let at = |a: i64, b: i64| {
        let h = corner(seed, i + a, j + b, 0);
        if perlin {
            let (gx, gy) = grad2(h);
            gx * (fx - a as f64) + gy * (fy - b as f64)
        } else {
            value(h)
        }
    };
    let (sx, sy) = (fade(fx), fade(fy));
    lerp(
        sy,
        lerp(sx, at(0, 0), at(1, 0)),
        lerp(sx, at(0, 1), at(1, 1)),
    )
}

fn lattice3(seed: u32, x: f64, y: f64, z: f64, perlin: bool) -> f64 {
    let (i, j, k) = (floor(x), floor(y), floor(z));
    let (fx, fy, fz) = (x - i as f64, y - j as f64, z - k as f64);
    let at = |a: i64, b: i64, c: i64| {
        let h = corner(seed, i + a, j + b, k + c);
        if perlin {
            let (gx, gy, gz) = grad3(h);
            gx * (fx - a as f64) + gy * (fy - b as f64) + gz * (fz - c as f64)
        } else {
            value(h)
        }
    };
    let (sx, sy, sz) = (fade(fx), fade(fy), fade(fz));
    let plane = |c: i64| {
        lerp(
            sy,
            lerp(sx, at(0, 0, c), at(1, 0, c)),
            lerp(sx, at(0, 1, c), at(1, 1, c)),
        )
    };
    lerp(sz, plane(0), plane(1))
}

fn simplex2(seed: u32, x: f64, y: f64) -> f64 {
    let f2 = (libm::sqrt(3.0) - 1.0) / 2.0;
    let g2 = (3.0 - libm::sqrt(3.0)) / 6.0;
    let s = (x + y) * f2;
    let (i, j) = (floor(x + s), floor(y + s));
    let t = (i + j) as f64 * g2;
    let (x0, y0) = (x - (i as f64 - t), y - (j as f64 - t));
    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };
    let mut n = 0.0;
    for (a, b) in [(0, 0), (i1, j1), (1, 1)] {
        let (dx, dy) = (
            x0 - a as f64 + (a + b) as f64 * g2,
            y0 - b as f64 + (a + b) as f64 * g2,
        );
        let r = (0.5 - dx * dx - dy * dy).max(0.0);
        let (gx, gy) = grad2(corner(seed, i + a, j + b, 0));
        n += r * r * r * r * (gx * dx + gy * dy);
    }
    n * 70.0
}

fn simplex3(seed: u32, x: f64, y: f64, z: f64) -> f64 {
    let (f3, g3) = (1.0 / 3.0, 1.0 / 6.0);
    let s = (x + y + z) * f3;
    let (i, j, k) = (floor(x + s), floor(y + s), floor(z + s));
    let t = (i + j + k) as f64 * g3;
    let (x0, y0, z0) = (x - (i as f64 - t), y - (j as f64 - t), z - (k as f64 - t));
    // The simplex: step along the axes from the largest offset to the smallest.
    let mut order = [(x0, 0usize), (y0, 1), (z0, 2)];
    order.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
    let mut corners = [[0i64; 3]; 4];
    for s in 1..4 {
        corners[s] = corners[s - 1];
        corners[s][order[s - 1].1] += 1;
    }
    let mut n = 0.0;
    for (s, c) in corners.iter().enumerate() {
        let d = [
            x0 - c[0] as f64 + s as f64 * g3,
            y0 - c[1] as f64 + s as f64 * g3,
            z0 - c[2] as f64 + s as f64 * g3,
        ];
        let r = (0.5 - d[0] * d[0] - d[1] * d[1] - d[2] * d[2]).max(0.0);
        let (gx, gy, gz) = grad3(corner(seed, i + c[0], j + c[1], k + c[2]));
        n += r * r * r * r * (gx * d[0] + gy * d[1] + gz * d[2]);
    }
    n * 75.0
}

fn cellular2_f1(seed: u32, jitter: f64, x: f64, y: f64) -> f64 {
    let (i, j) = (floor(x), floor(y));
    let (fx, fy) = (x - i as f64, y - j as f64);
    let half = 0.5 - 0.5 * jitter;
    let mut best = f64::INFINITY;
    for b in -1..=1 {
        for a in -1..=1 {
            let h = corner(seed, i + a, j + b, 0);
            let u = f64::from(h >> 8) / 16_777_216.0;
            let v = f64::from(hash(h ^ 0x68E3_1DA4) >> 8) / 16_777_216.0;
            let px = a as f64 + half + u * jitter - fx;
            let py = b as f64 + half + v * jitter - fy;
            best = best.min(px * px + py * py);
        }
    }
    libm::sqrt(best) - 1.0
}

#[test]
fn f32_noises_equal_the_textbook_f64_reference() {
    let mut r = Xoroshiro128PlusPlus::from_seed(0x7E57);
    for t in [
        NoiseType::Value,
        NoiseType::Perlin,
        NoiseType::Simplex,
        NoiseType::Cellular,
    ] {
        let d = NoiseDef {
            seed: 4242,
            noise_type: t,
            fractal: FractalType::None,
            frequency: 1.0,
            cellular_distance: CellularDistance::Euclidean,
            cellular_return: CellularReturn::F1,
            precision: Precision::F32,
            ..NoiseDef::default()
        };
        let n = d.build().unwrap();
        let seed = (derive_seed(d.seed, 0) >> 32) as u32;
        let mut worst = 0.0f64;
        for k in 0..20_000 {
            let far = if k % 2 == 0 { 0.0 } else { 1.0e7 };
            let mut p = || far + r.next_double() * 2000.0 - 1000.0;
            let (x, y, z) = (p(), p(), p());
            let (want2, want3) = match t {
                NoiseType::Value => (lattice2(seed, x, y, false), lattice3(seed, x, y, z, false)),
                NoiseType::Perlin => (lattice2(seed, x, y, true), lattice3(seed, x, y, z, true)),
                NoiseType::Simplex => (simplex2(seed, x, y), simplex3(seed, x, y, z)),
                NoiseType::Cellular => (cellular2_f1(seed, 0.65, x, y), f64::NAN),
            };
            let got2 = n.sample_2d(x, y);
            worst = worst.max((got2 - want2).abs());
            assert!(
                (got2 - want2).abs() < 2e-5,
                "{t:?} 2d ({x}, {y}): {got2} vs {want2}"
            );
            if !want3.is_nan() {
                let got3 = n.sample_3d(x, y, z);
                worst = worst.max((got3 - want3).abs());
                assert!(
                    (got3 - want3).abs() < 2e-5,
                    "{t:?} 3d ({x}, {y}, {z}): {got3} vs {want3}"
                );
            }
        }
        // Agreement to f32 rounding, not merely close: the largest difference is tiny.
        assert!(worst > 0.0 && worst < 2e-5, "{t:?}: worst {worst}");
    }
}
