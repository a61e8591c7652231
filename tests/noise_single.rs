//! Evidence for the `f32` precision: every lane width gives the portable bits over random
//! definitions and grids (`fills`), the documented ranges hold over 10^6 samples, Perlin
//! vanishes on the lattice, and a fill at 10^7 blocks is as smooth as one at the origin.
mod common;
#[path = "noise_single/fills.rs"]
mod fills;

use stratagen_core::noise::{
    FractalType, Grid2, Grid3, Noise, NoiseDef, NoiseError, NoiseType, OwnSamples, Precision,
};
use stratagen_core::util::random::Xoroshiro128PlusPlus;

const TYPES: [NoiseType; 4] = [
    NoiseType::Value,
    NoiseType::Perlin,
    NoiseType::Simplex,
    NoiseType::Cellular,
];
const SHAPES: [FractalType; 3] = [FractalType::Fbm, FractalType::Ridged, FractalType::Billow];

fn single(d: NoiseDef) -> Noise {
    NoiseDef {
        precision: Precision::F32,
        ..d
    }
    .build()
    .unwrap()
}

/// One octave at one cycle per unit: the base noise itself.
fn base(t: NoiseType, seed: i64) -> Noise {
    single(NoiseDef {
        seed,
        noise_type: t,
        fractal: FractalType::None,
        frequency: 1.0,
        ..NoiseDef::default()
    })
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The documented ranges (ARCHITECTURE.md, noise table) hold in `f32` as in `f64`, and are
/// used rather than collapsed. Printed with `--nocapture`.
#[test]
fn base_noise_ranges_over_a_million_samples() {
    let p = |r: &mut Xoroshiro128PlusPlus| r.next_double() * 2000.0 - 1000.0;
    // (type, lower bound, upper bound, expected mean)
    let table = [
        (NoiseType::Value, -1.0, 1.0, 0.0),
        (NoiseType::Perlin, -1.0, 1.0, 0.0),
        (NoiseType::Simplex, -1.0, 1.0, 0.0),
        (NoiseType::Cellular, -1.0, 0.2, -0.55),
    ];
    for (t, lo, hi, mean) in table {
        let n = base(t, 77);
        for dims in [2, 3] {
            let [min, max, m, std] = common::noise_stats(|r| {
                let (x, y, z) = (p(r), p(r), p(r));
                if dims == 2 {
                    n.sample_2d(x, y)
                } else {
                    n.sample_3d(x, y, z)
                }
            });
            println!("{t:?} {dims}d f32 min {min:.4} max {max:.4} mean {m:.4} std {std:.4}");
            assert!(min >= lo && max <= hi, "{t:?} {dims}d outside [{lo}, {hi}]");
            assert!(max - min > 0.6 * (hi - lo), "{t:?} {dims}d range collapsed");
            assert!((m - mean).abs() < 0.06, "{t:?} {dims}d mean {m}");
            assert!(std > 0.1, "{t:?} {dims}d std {std}");
        }
    }
    // Fractals are normalised by the sum of amplitudes: within [-1, 1] too.
    for t in TYPES {
        for f in SHAPES {
            let n = single(NoiseDef {
                noise_type: t,
                fractal: f,
                octaves: 6,
                frequency: 0.05,
                ..NoiseDef::default()
            });
            let [min, max, _, _] = common::noise_stats(|r| n.sample_2d(p(r) * 10.0, p(r) * 10.0));
            assert!(min >= -1.0 && max <= 1.0, "{t:?} {f:?}");
        }
    }
}

/// A known answer: gradient noise is zero at every lattice point (each corner's gradient is
/// dotted with a zero offset and the other corners are faded out exactly), at the origin and
/// 10^7 cells out, in 2D and 3D.
#[test]
fn perlin_vanishes_on_the_lattice() {
    let n = base(NoiseType::Perlin, -5);
    let mut r = Xoroshiro128PlusPlus::from_seed(9);
    for k in 0..2000 {
        let far = if k % 2 == 0 { 0.0 } else { 1.0e7 };
        let mut cell = || far + (r.next_double() * 2000.0 - 1000.0).floor();
        let (x, y, z) = (cell(), cell(), cell());
        assert_eq!(n.sample_2d(x, y), 0.0, "({x}, {y})");
        assert_eq!(n.sample_3d(x, y, z), 0.0, "({x}, {y}, {z})");
    }
    // And it is not zero between lattice points.
    assert_ne!(n.sample_2d(0.5, 0.25), 0.0);
}

/// Neighbour differences of a row of samples: mean |Δ|, max |Δ|, and the share of distinct
/// values.
fn smoothness(values: &[f32]) -> (f64, f64, f64) {
    let d: Vec<f64> = values
        .windows(2)
        .map(|w| (f64::from(w[1]) - f64::from(w[0])).abs())
        .collect();
    let mut distinct: Vec<u32> = values.iter().map(|v| v.to_bits()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    (
        d.iter().sum::<f64>() / d.len() as f64,
        d.iter().cloned().fold(0.0, f64::max),
        distinct.len() as f64 / values.len() as f64,
    )
}

/// At 10^7 blocks an `f32` fill is as smooth as at the origin: the statistics of differences
/// between neighbouring samples (a quarter block apart, 2D and 3D, fBm of 4 octaves) agree.
/// An `f32` position would have a resolution of one block there: steps and repeated values.
#[test]
fn far_coordinates_are_as_smooth_as_the_origin() {
    for t in [NoiseType::Value, NoiseType::Perlin, NoiseType::Simplex] {
        let n = single(NoiseDef {
            noise_type: t,
            frequency: 1.0 / 32.0,
            ..NoiseDef::default()
        });
        let row2 = |x0: f64| {
            let g = Grid2 {
                x0,
                y0: x0 * 0.5 + 0.3,
                dx: 0.25,
                dy: 0.25,
                width: 4096,
                height: 4,
            };
            let mut v = vec![0.0f32; 4096 * 4];
            n.fill_2d_f32(&g, &mut v).unwrap();
            v
        };
        let row3 = |x0: f64| {
            let g = Grid3 {
                origin: [x0, 40.0, -x0],
                step: [0.25, 1.0, 1.0],
                width: 4096,
                height: 2,
                depth: 2,
            };
            let mut v = vec![0.0f32; 4096 * 4];
            n.fill_3d_f32(&g, &mut v).unwrap();
            v
        };
        for (dims, near, far) in [
            (2, row2(0.0), row2(1.0e7)),
            (3, row3(0.0), row3(1.0e7)),
            (2, row2(0.0), row2(-1.0e7)),
        ] {
            let (near_mean, near_max, near_distinct) = smoothness(&near[..4096]);
            let (far_mean, far_max, far_distinct) = smoothness(&far[..4096]);
            println!(
                "{t:?} {dims}d mean |Δ| {near_mean:.5} / {far_mean:.5}, max {near_max:.4} / {far_max:.4}, distinct {near_distinct:.3} / {far_distinct:.3}"
            );
            assert!(
                far_mean > 0.75 * near_mean && far_mean < 1.33 * near_mean,
                "{t:?} {dims}d: mean step {far_mean} far, {near_mean} near"
            );
            assert!(
                far_max < 2.0 * near_max,
                "{t:?} {dims}d: largest step {far_max} far, {near_max} near"
            );
            assert!(
                far_distinct > 0.98 && near_distinct > 0.98,
                "{t:?} {dims}d: values repeat ({far_distinct} far, {near_distinct} near)"
            );
        }
    }
}

/// The two precisions are different noises with the same character: over one grid their
/// values differ (no accidental aliasing of one onto the other) while mean and spread agree.
/// (The spread bound is loose: Perlin's spread differs with its gradient set.)
#[test]
fn the_precisions_are_different_noises_of_one_character() {
    for t in TYPES {
        let d = NoiseDef {
            noise_type: t,
            frequency: 0.05,
            ..NoiseDef::default()
        };
        let g = Grid2 {
            x0: -300.0,
            y0: 1000.0,
            dx: 1.0,
            dy: 1.0,
            width: 256,
            height: 256,
        };
        let moments = |n: Noise| {
            let mut v = vec![0.0f64; 256 * 256];
            n.fill_2d(&g, &mut v).unwrap();
            let m = v.iter().sum::<f64>() / v.len() as f64;
            let s = (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt();
            (v, m, s)
        };
        let (a, ma, sa) = moments(d.build().unwrap());
        let (b, mb, sb) = moments(single(d));
        // Perlin is zero on the lattice in both (every 20th sample here): those agree.
        let same = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| x == y && **x != 0.0)
            .count();
        assert!(same < 100, "{t:?}: {same} equal samples");
        assert!((ma - mb).abs() < 0.1, "{t:?}: means {ma} and {mb}");
        assert!(
            sb > 0.6 * sa && sb < 1.6 * sa,
            "{t:?}: spreads {sa} and {sb}"
        );
    }
}

/// An f32 definition validates exactly as an f64 one (NaN, octaves, frequency).
#[test]
fn f32_definitions_are_validated_alike() {
    for bad in [
        NoiseDef {
            frequency: f64::NAN,
            ..NoiseDef::default()
        },
        NoiseDef {
            octaves: 17,
            ..NoiseDef::default()
        },
        NoiseDef {
            gain: -1.0,
            ..NoiseDef::default()
        },
    ] {
        let a = bad.build().unwrap_err();
        let b = NoiseDef {
            precision: Precision::F32,
            ..bad
        }
        .build()
        .unwrap_err();
        assert_eq!(a, b);
    }
    let n = base(NoiseType::Simplex, 1);
    assert_eq!(n.precision(), Precision::F32);
    let mut v = [0.0f32; 4];
    assert!(n
        .fill_2d_f32(
            &Grid2 {
                x0: f64::NAN,
                y0: 0.0,
                dx: 1.0,
                dy: 1.0,
                width: 2,
                height: 2
            },
            &mut v
        )
        .is_err());
}

/// Point samples at hostile positions (NaN, infinities, 10^300, the edges of `i64`) never
/// panic, in every type and shape (this test runs with overflow checks on); NaN in gives
/// what it gives in `f64`.
#[test]
fn hostile_positions_never_panic() {
    let hostile = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.0e300,
        -1.0e300,
        9.3e18,
        -9.3e18,
        f64::MIN_POSITIVE,
    ];
    for t in TYPES {
        for f in SHAPES {
            for warp in [0.0, 4.0] {
                let n = single(NoiseDef {
                    noise_type: t,
                    fractal: f,
                    warp_amplitude: warp,
                    ..NoiseDef::default()
                });
                for &x in &hostile {
                    let _ = n.sample_2d(x, 1.5);
                    let _ = n.sample_3d(2.5, x, -x);
                    assert!(n.point_2d(x, 0.0).is_err() || x == f64::MIN_POSITIVE);
                }
                // As in f64: NaN for the gradient and value noises; cellular finds no feature
                // point nearer than infinity.
                let double = NoiseDef {
                    precision: Precision::F64,
                    ..NoiseDef {
                        noise_type: t,
                        fractal: f,
                        warp_amplitude: warp,
                        ..NoiseDef::default()
                    }
                }
                .build()
                .unwrap();
                let (a, b) = (n.sample_2d(f64::NAN, 0.0), double.sample_2d(f64::NAN, 0.0));
                assert!(
                    a.is_nan() == b.is_nan() && a.is_finite() == b.is_finite(),
                    "{t:?} {f:?}: {a} vs {b}"
                );
            }
        }
    }
}
