//! Evidence for the `f32` precision: every lane width gives the portable bits over random
//! definitions and grids, the documented ranges hold over 10^6 samples, Perlin vanishes on
//! the lattice, and a fill at 10^7 blocks is as smooth as one at the origin.
mod common;

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

/// The 16-lane (AVX-512), 8-lane (AVX2) and 4-lane (portable) fills over random definitions
/// (every type and shape, 1–16 octaves, odd lacunarities, offsets) and random grids (widths
/// that leave partial lane groups, negative and far coordinates, negative steps).
#[test]
fn every_lane_width_gives_the_portable_bits() {
    let mut r = Xoroshiro128PlusPlus::from_seed(0xF32);
    let mut compared = 0usize;
    for case in 0..400 {
        let mut unit = || r.next_double();
        let d = NoiseDef {
            seed: (unit() * 1e12) as i64,
            noise_type: TYPES[case % 4],
            fractal: SHAPES[(case / 4) % 3],
            octaves: 1 + (unit() * 16.0) as u32,
            frequency: 0.002 + unit() * 0.3,
            lacunarity: 1.5 + unit(),
            gain: unit(),
            offset: [unit() * 50.0 - 25.0, unit() * 50.0 - 25.0, unit() * 9.0],
            warp_amplitude: if case % 7 == 0 { 5.0 } else { 0.0 },
            ..NoiseDef::default()
        };
        let n = single(d);
        let far = if case % 5 == 0 { 1.0e7 } else { 1.0 };
        let g = Grid2 {
            x0: (unit() - 0.5) * 2000.0 * far,
            y0: (unit() - 0.5) * 2000.0 * far,
            dx: (unit() - 0.3) * 3.0,
            dy: unit() * 3.0,
            width: 1 + (unit() * 150.0) as usize,
            height: 1 + (unit() * 4.0) as usize,
        };
        let len = g.width * g.height;
        let fill = |n: Noise| {
            let mut v = vec![0.0f32; len];
            n.fill_2d_f32(&g, &mut v).unwrap();
            bits(&v)
        };
        let portable = fill(n.with_simd(false));
        assert_eq!(fill(n), portable, "case {case} {d:?} {g:?}: default lanes");
        assert_eq!(
            fill(n.with_avx512(false)),
            portable,
            "case {case} {d:?} {g:?}: 8 lanes"
        );
        let g3 = Grid3 {
            origin: [
                (unit() - 0.5) * 500.0 * far,
                (unit() - 0.5) * 500.0,
                (unit() - 0.5) * 500.0 * far,
            ],
            step: [unit() + 0.1, -(unit() + 0.1), unit() * 2.0],
            width: 1 + (unit() * 40.0) as usize,
            height: 1 + (unit() * 3.0) as usize,
            depth: 1 + (unit() * 20.0) as usize,
        };
        let len3 = g3.width * g3.height * g3.depth;
        let fill3 = |n: Noise| {
            let mut v = vec![0.0f32; len3];
            n.fill_3d_f32(&g3, &mut v).unwrap();
            bits(&v)
        };
        let portable3 = fill3(n.with_simd(false));
        assert_eq!(
            fill3(n),
            portable3,
            "case {case} {d:?} {g3:?}: default lanes"
        );
        assert_eq!(
            fill3(n.with_avx512(false)),
            portable3,
            "case {case} {d:?} {g3:?}: 8 lanes"
        );
        compared += len + len3;
    }
    assert!(compared > 20_000, "{compared} samples compared");
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

/// A fill in the noise's own precision writes the bits of the fill of that type (2D and 3D,
/// both precisions, every type), refuses a buffer of the other precision without writing it,
/// and checks its grid as the other fills do.
#[test]
fn own_precision_fills_equal_the_typed_fills() {
    let g2 = Grid2 {
        x0: -40.25,
        y0: 7.5,
        dx: 0.75,
        dy: -1.5,
        width: 37,
        height: 5,
    };
    let g3 = Grid3 {
        origin: [3.0, -60.0, 11.5],
        step: [1.0, 0.5, 2.0],
        width: 19,
        height: 6,
        depth: 3,
    };
    let (n2, n3) = (37 * 5, 19 * 6 * 3);
    for t in TYPES {
        for precision in [Precision::F64, Precision::F32] {
            let noise = NoiseDef {
                seed: 99,
                noise_type: t,
                precision,
                ..NoiseDef::default()
            }
            .build()
            .unwrap();
            let (mut wide2, mut wide3) = (vec![0.0f64; n2], vec![0.0f64; n3]);
            let (mut narrow2, mut narrow3) = (vec![0.0f32; n2], vec![0.0f32; n3]);
            noise.fill_2d(&g2, &mut wide2).unwrap();
            noise.fill_3d(&g3, &mut wide3).unwrap();
            noise.fill_2d_f32(&g2, &mut narrow2).unwrap();
            noise.fill_3d_f32(&g3, &mut narrow3).unwrap();
            let (mut own2, mut own3) = (vec![f64::NAN; n2], vec![f64::NAN; n3]);
            let (mut own2_f32, mut own3_f32) = (vec![f32::NAN; n2], vec![f32::NAN; n3]);
            let (mine2, other2, mine3, other3) = match precision {
                Precision::F64 => (
                    noise.fill_2d_own(&g2, OwnSamples::F64(&mut own2)),
                    noise.fill_2d_own(&g2, OwnSamples::F32(&mut own2_f32)),
                    noise.fill_3d_own(&g3, OwnSamples::F64(&mut own3)),
                    noise.fill_3d_own(&g3, OwnSamples::F32(&mut own3_f32)),
                ),
                Precision::F32 => (
                    noise.fill_2d_own(&g2, OwnSamples::F32(&mut own2_f32)),
                    noise.fill_2d_own(&g2, OwnSamples::F64(&mut own2)),
                    noise.fill_3d_own(&g3, OwnSamples::F32(&mut own3_f32)),
                    noise.fill_3d_own(&g3, OwnSamples::F64(&mut own3)),
                ),
            };
            assert_eq!((mine2, mine3), (Ok(()), Ok(())));
            let refused = Err(NoiseError::WrongPrecision(precision));
            assert_eq!((other2, other3), (refused, refused), "{t:?} {precision:?}");
            let wide_bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            match precision {
                Precision::F64 => {
                    assert_eq!(wide_bits(&own2), wide_bits(&wide2));
                    assert_eq!(wide_bits(&own3), wide_bits(&wide3));
                    assert!(own2_f32.iter().chain(&own3_f32).all(|v| v.is_nan()));
                }
                Precision::F32 => {
                    assert_eq!(bits(&own2_f32), bits(&narrow2));
                    assert_eq!(bits(&own3_f32), bits(&narrow3));
                    assert!(own2.iter().chain(&own3).all(|v| v.is_nan()));
                }
            }
            let empty = Grid2 { width: 0, ..g2 };
            let mut one = [0.0f64; 1];
            let mut one_f32 = [0.0f32; 1];
            let small = match precision {
                Precision::F64 => noise.fill_2d_own(&g2, OwnSamples::F64(&mut one)),
                Precision::F32 => noise.fill_2d_own(&g2, OwnSamples::F32(&mut one_f32)),
            };
            assert_eq!(
                small,
                Err(NoiseError::BufferTooSmall { needed: n2, got: 1 })
            );
            let empty = match precision {
                Precision::F64 => noise.fill_2d_own(&empty, OwnSamples::F64(&mut wide2)),
                Precision::F32 => noise.fill_2d_own(&empty, OwnSamples::F32(&mut narrow2)),
            };
            assert_eq!(empty, Err(NoiseError::EmptyGrid));
        }
    }
}

/// An `f32` noise's `f64` fills are its point samples, widened: every sample of odd-sized 2D
/// and 3D grids (one sample, a partial lane group, several tiles) equals `sample_2d`/`sample_3d`
/// at its position bit for bit, and the buffer past the grid keeps its contents.
#[test]
fn f64_fills_of_an_f32_noise_are_its_widened_samples() {
    const SENTINEL: f64 = -1234.5;
    const TAIL: usize = 5;
    for t in TYPES {
        let noise = single(NoiseDef {
            seed: -7,
            noise_type: t,
            octaves: 3,
            frequency: 1.0 / 9.0,
            ..NoiseDef::default()
        });
        for (w, h) in [(1, 1), (3, 1), (37, 5), (130, 2)] {
            let g = Grid2 {
                x0: -20.5,
                y0: 3.25,
                dx: 0.75,
                dy: 1.5,
                width: w,
                height: h,
            };
            let mut out = vec![SENTINEL; w * h + TAIL];
            noise.fill_2d(&g, &mut out).unwrap();
            for j in 0..h {
                for i in 0..w {
                    let (x, y) = (g.x0 + i as f64 * g.dx, g.y0 + j as f64 * g.dy);
                    let want = noise.sample_2d(x, y);
                    assert_eq!(out[j * w + i].to_bits(), want.to_bits(), "{t:?} {w}x{h}");
                }
            }
            assert!(out[w * h..].iter().all(|v| *v == SENTINEL), "{t:?} {w}x{h}");
        }
        for (w, h, d) in [(1, 1, 1), (5, 3, 2), (19, 4, 3)] {
            let g = Grid3 {
                origin: [2.5, -30.0, 7.0],
                step: [1.0, 0.5, 1.25],
                width: w,
                height: h,
                depth: d,
            };
            let mut out = vec![SENTINEL; w * h * d + TAIL];
            noise.fill_3d(&g, &mut out).unwrap();
            for j in 0..h {
                for k in 0..d {
                    for i in 0..w {
                        let p = [0, 1, 2].map(|a| g.origin[a] + [i, j, k][a] as f64 * g.step[a]);
                        let want = noise.sample_3d(p[0], p[1], p[2]);
                        let got = out[(j * d + k) * w + i];
                        assert_eq!(got.to_bits(), want.to_bits(), "{t:?} {w}x{h}x{d}");
                    }
                }
            }
            assert!(out[w * h * d..].iter().all(|v| *v == SENTINEL));
        }
    }
}

/// Narrow 3D grids of value and Perlin noise at low frequencies, where the fills compute
/// blocks of z rows at once (their lanes run along z, then a transpose), equal the point
/// samples bit for bit on every lane width: blocks in one z cell and spanning several,
/// partial blocks and tiles, negative steps, every shape, one to three octaves.
#[test]
fn narrow_3d_lattice_fills_equal_point_samples() {
    let mut r = Xoroshiro128PlusPlus::from_seed(0x3D);
    for case in 0..48 {
        let mut unit = || r.next_double();
        let noise = single(NoiseDef {
            seed: (unit() * 1e9) as i64,
            noise_type: [NoiseType::Value, NoiseType::Perlin][case % 2],
            fractal: SHAPES[(case / 2) % 3],
            octaves: 1 + (case / 6 % 3) as u32,
            frequency: 1.0 / [16.0, 9.0, 40.0, 5.0][case / 3 % 4],
            ..NoiseDef::default()
        });
        let g = Grid3 {
            origin: [
                unit() * 300.0 - 150.0,
                unit() * 60.0,
                unit() * 300.0 - 150.0,
            ],
            step: [
                [1.0, 0.5, -0.75][case % 3],
                1.0,
                [1.0, -1.0, 0.25, 3.0][case / 2 % 4],
            ],
            width: [16, 5, 32, 9][case % 4],
            height: 2,
            depth: [16, 40, 8, 13][case / 4 % 4],
        };
        let (w, d) = (g.width, g.depth);
        let point = |i: usize, j: usize, k: usize| {
            let p = [i, j, k];
            let at = |a: usize| g.origin[a] + p[a] as f64 * g.step[a];
            noise.sample_3d(at(0), at(1), at(2)) as f32
        };
        let mut want = vec![0u32; w * g.height * d];
        for j in 0..g.height {
            for k in 0..d {
                for i in 0..w {
                    want[(j * d + k) * w + i] = point(i, j, k).to_bits();
                }
            }
        }
        for (lanes, n) in [
            ("default", noise),
            ("8", noise.with_avx512(false)),
            ("4", noise.with_simd(false)),
        ] {
            let mut got = vec![0.0f32; want.len()];
            n.fill_3d_f32(&g, &mut got).unwrap();
            assert_eq!(bits(&got), want, "case {case} {lanes} lanes {g:?}");
        }
    }
}
