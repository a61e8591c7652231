//! Evidence for the noise layer: fills equal point samples bit for bit, documented ranges over
//! 10^6 samples, seamless heightmap chunks, no lattice period, precision far from the origin,
//! validation errors, and golden digests (regression guards) paired with those properties.
mod common;
#[path = "noise/paths.rs"]
mod paths;
#[path = "noise/validation.rs"]
mod validation;

use stratagen_core::noise::{
    cellular2, cellular3, perlin2, perlin3, simplex2, simplex3, value2, value3, CellularDistance,
    CellularParams, CellularReturn,
};
use stratagen_core::noise::{
    FractalType, Grid2, Grid3, Noise, NoiseDef, NoiseError, NoiseType, Precision,
};
use stratagen_core::util::digest::Digest;
use stratagen_core::util::random::Xoroshiro128PlusPlus;

const TYPES: [NoiseType; 4] = [
    NoiseType::Value,
    NoiseType::Perlin,
    NoiseType::Simplex,
    NoiseType::Cellular,
];
const FRACTALS: [FractalType; 4] = [
    FractalType::None,
    FractalType::Fbm,
    FractalType::Ridged,
    FractalType::Billow,
];

fn def(t: NoiseType, f: FractalType) -> NoiseDef {
    NoiseDef {
        seed: 0x5EED,
        noise_type: t,
        fractal: f,
        octaves: 5,
        frequency: 0.037,
        offset: [3.25, -7.5, 11.0],
        ..NoiseDef::default()
    }
}

fn all_defs() -> Vec<(String, NoiseDef)> {
    let mut v = Vec::new();
    for t in TYPES {
        for f in FRACTALS {
            v.push((format!("{t:?}-{f:?}"), def(t, f)));
            v.push((
                format!("{t:?}-{f:?}-warp"),
                NoiseDef {
                    warp_amplitude: 9.0,
                    warp_frequency: 0.02,
                    ..def(t, f)
                },
            ));
        }
    }
    for d in [CellularDistance::Euclidean, CellularDistance::Manhattan] {
        for r in [
            CellularReturn::F1,
            CellularReturn::F2,
            CellularReturn::F2MinusF1,
            CellularReturn::CellValue,
        ] {
            v.push((
                format!("Cellular-{d:?}-{r:?}"),
                NoiseDef {
                    cellular_distance: d,
                    cellular_return: r,
                    fractal: FractalType::None,
                    ..def(NoiseType::Cellular, FractalType::None)
                },
            ));
        }
    }
    // The same definitions in f32 precision: their own noise, under the same properties.
    let singles: Vec<_> = v
        .iter()
        .map(|(name, d)| {
            (
                format!("{name}-f32"),
                NoiseDef {
                    precision: Precision::F32,
                    ..*d
                },
            )
        })
        .collect();
    v.extend(singles);
    v
}

#[test]
fn fills_equal_point_samples_bit_for_bit() {
    let grids2 = [
        Grid2 {
            x0: -40.5,
            y0: 17.25,
            dx: 0.75,
            dy: 1.5,
            width: 70,
            height: 9,
        },
        Grid2 {
            x0: 1000.0,
            y0: -3.0,
            dx: -2.0,
            dy: 0.1,
            width: 33,
            height: 4,
        },
        Grid2 {
            x0: 5.0,
            y0: 5.0,
            dx: 0.0,
            dy: 0.0,
            width: 1,
            height: 1,
        },
    ];
    let grids3 = [
        Grid3 {
            origin: [-8.0, -64.0, 31.5],
            step: [1.0, 2.0, 0.5],
            width: 37,
            height: 6,
            depth: 3,
        },
        Grid3 {
            origin: [16.0, 0.0, -16.0],
            step: [-0.25, 1.0, 1.0],
            width: 5,
            height: 2,
            depth: 7,
        },
        // Deeper than a block of z rows (16), crossing z cells going down, far out.
        Grid3 {
            origin: [-3.0e6, 7.5, 1.2e7],
            step: [0.75, 3.0, -0.7],
            width: 19,
            height: 2,
            depth: 41,
        },
    ];
    for (name, d) in all_defs() {
        // Every 2D fill path this CPU has: portable, AVX2, AVX-512, and this CPU's default
        // (where a path does not run, its entry repeats an earlier one).
        let built = d.build().unwrap();
        let paths = [
            built.with_simd(false),
            built.with_simd(true).with_avx512(false),
            built.with_simd(true).with_avx512(true),
            built.with_simd(true),
        ];
        for n in paths {
            for g in &grids2 {
                let mut out = vec![0.0f64; g.width * g.height];
                n.fill_2d(g, &mut out).unwrap();
                let mut out32 = vec![0.0f32; g.width * g.height];
                n.fill_2d_f32(g, &mut out32).unwrap();
                for j in 0..g.height {
                    for i in 0..g.width {
                        let p = n.sample_2d(g.x0 + i as f64 * g.dx, g.y0 + j as f64 * g.dy);
                        assert_eq!(
                            out[j * g.width + i].to_bits(),
                            p.to_bits(),
                            "{name} 2d ({i},{j})"
                        );
                        assert_eq!(out32[j * g.width + i].to_bits(), (p as f32).to_bits());
                    }
                }
            }
        }
        // Every 3D path likewise.
        for n in paths {
            for g in &grids3 {
                let mut out = vec![0.0f64; g.width * g.height * g.depth];
                n.fill_3d(g, &mut out).unwrap();
                for j in 0..g.height {
                    for k in 0..g.depth {
                        for i in 0..g.width {
                            let p = n.sample_3d(
                                g.origin[0] + i as f64 * g.step[0],
                                g.origin[1] + j as f64 * g.step[1],
                                g.origin[2] + k as f64 * g.step[2],
                            );
                            let got = out[(j * g.depth + k) * g.width + i];
                            assert_eq!(got.to_bits(), p.to_bits(), "{name} 3d ({i},{j},{k})");
                        }
                    }
                }
            }
        }
    }
}

struct Stats {
    min: f64,
    max: f64,
    mean: f64,
    std: f64,
}

fn stats(f: impl FnMut(&mut Xoroshiro128PlusPlus) -> f64) -> Stats {
    let [min, max, mean, std] = common::noise_stats(f);
    Stats {
        min,
        max,
        mean,
        std,
    }
}

/// The sanity table: min, max, mean, std over 10^6 random positions per base noise, each
/// checked against its documented range. Printed with `--nocapture`.
#[test]
fn base_noise_ranges_over_a_million_samples() {
    let c = CellularParams {
        distance: CellularDistance::Euclidean,
        ret: CellularReturn::F1,
        jitter: 0.65,
    };
    let cv = CellularParams {
        ret: CellularReturn::CellValue,
        ..c
    };
    let p = |r: &mut Xoroshiro128PlusPlus| r.next_double() * 2000.0 - 1000.0;
    type F = Box<dyn Fn(u64, f64, f64, f64) -> f64>;
    // (name, function, documented lower bound, upper bound, expected mean, mean tolerance)
    let table: Vec<(&str, F, f64, f64, f64)> = vec![
        (
            "value2",
            Box::new(|s, x, y, _| value2(s, x, y)),
            -1.0,
            1.0,
            0.0,
        ),
        (
            "perlin2",
            Box::new(|s, x, y, _| perlin2(s, x, y)),
            -1.0,
            1.0,
            0.0,
        ),
        (
            "simplex2",
            Box::new(|s, x, y, _| simplex2(s, x, y)),
            -1.0,
            1.0,
            0.0,
        ),
        (
            "cellular2 F1",
            Box::new(move |s, x, y, _| cellular2(s, &c, x, y)),
            -1.0,
            0.2,
            -0.6,
        ),
        (
            "cellular2 value",
            Box::new(move |s, x, y, _| cellular2(s, &cv, x, y)),
            -1.0,
            1.0,
            0.0,
        ),
        ("value3", Box::new(value3), -1.0, 1.0, 0.0),
        ("perlin3", Box::new(perlin3), -1.0, 1.0, 0.0),
        ("simplex3", Box::new(simplex3), -1.0, 1.0, 0.0),
        (
            "cellular3 F1",
            Box::new(move |s, x, y, z| cellular3(s, &c, x, y, z)),
            -1.0,
            0.2,
            -0.5,
        ),
    ];
    println!(
        "{:<16} {:>8} {:>8} {:>8} {:>8}",
        "noise", "min", "max", "mean", "std"
    );
    for (name, f, lo, hi, mean) in table {
        let s = stats(|r| {
            let seed = r.next_u64();
            f(seed, p(r), p(r), p(r))
        });
        println!(
            "{name:<16} {:>8.4} {:>8.4} {:>8.4} {:>8.4}",
            s.min, s.max, s.mean, s.std
        );
        assert!(s.min >= lo && s.max <= hi, "{name} outside [{lo}, {hi}]");
        // The range is used, not collapsed: extremes reach at least 60% of the bound.
        assert!(s.max - s.min > 0.6 * (hi - lo), "{name} range collapsed");
        assert!((s.mean - mean).abs() < 0.05, "{name} mean {}", s.mean);
        assert!(s.std > 0.1, "{name} std {}", s.std);
    }
    // Fractals are normalised by the sum of amplitudes, so they stay within [-1, 1] too.
    for t in TYPES {
        for f in FRACTALS {
            let n = def(t, f).build().unwrap();
            let s = stats(|r| n.sample_2d(p(r) * 10.0, p(r) * 10.0));
            assert!(s.min >= -1.0 && s.max <= 1.0, "{t:?} {f:?}");
        }
    }
}

#[test]
fn heightmap_chunks_tile_without_seams() {
    for t in TYPES {
        let n = NoiseDef {
            noise_type: t,
            frequency: 1.0 / 48.0,
            ..def(t, FractalType::Fbm)
        }
        .build()
        .unwrap();
        let res = 32;
        let (mut a, mut b, mut c) = (
            vec![0f32; res * res],
            vec![0f32; res * res],
            vec![0f32; res * res],
        );
        n.heightmap_chunk(-3, 7, res, &mut a).unwrap();
        n.heightmap_chunk(-2, 7, res, &mut b).unwrap(); // east neighbour
        n.heightmap_chunk(-3, 8, res, &mut c).unwrap(); // south neighbour
        let mut inside = 0f32;
        for j in 0..res {
            for i in 0..res - 1 {
                inside = inside.max((a[j * res + i + 1] - a[j * res + i]).abs());
                inside = inside.max((a[(i + 1) * res + j] - a[i * res + j]).abs());
            }
        }
        let mut border = 0f32;
        for k in 0..res {
            border = border.max((b[k * res] - a[k * res + res - 1]).abs());
            border = border.max((c[k] - a[(res - 1) * res + k]).abs());
        }
        assert!(inside > 0.0);
        assert!(
            border <= inside,
            "{t:?}: border jump {border} > inside jump {inside}"
        );
        // And the neighbour's samples are the same function: its first column equals a
        // point sample at its block position.
        assert_eq!(b[0], n.sample_2d(-32.0, 112.0) as f32);
    }
}

/// A 256-cell period (a permutation table's) would make every sample equal its shifted twin.
/// Equalities happen by chance where a single lattice corner carries the whole value (near
/// simplex vertices) and the shifted corner draws the same gradient (measured: under 1% of
/// points for lattice-aligned shifts), so the test counts: a period gives 200 of 200.
#[test]
fn no_lattice_period() {
    for (t, precision) in TYPES
        .iter()
        .flat_map(|&t| [(t, Precision::F64), (t, Precision::F32)])
    {
        let n = NoiseDef {
            frequency: 1.0,
            precision,
            ..def(t, FractalType::None)
        }
        .build()
        .unwrap();
        for k in 1..=8 {
            let s = 256.0 * k as f64;
            let mut r = Xoroshiro128PlusPlus::from_seed(3);
            let (mut ex, mut ey, mut ez) = (0, 0, 0);
            for _ in 0..200 {
                let x = r.next_double() * 1000.0;
                let y = r.next_double() * 1000.0;
                let a = n.sample_2d(x, y);
                ex += (a == n.sample_2d(x + s, y)) as u32;
                ey += (a == n.sample_2d(x, y + s)) as u32;
                ez += (n.sample_3d(x, y, 0.5) == n.sample_3d(x, y, 0.5 + s)) as u32;
            }
            assert!(
                ex <= 10 && ey <= 10 && ez <= 10,
                "{t:?} {precision:?} repeats at +{s}: {ex} {ey} {ez} of 200"
            );
        }
    }
}

#[test]
fn no_precision_collapse_far_from_origin() {
    // At 2^24 blocks the noise must be as smooth and as varied as near the origin: the largest
    // step between samples one block apart is comparable, and samples keep varying.
    let far = 16_777_216.0;
    for t in [NoiseType::Value, NoiseType::Perlin, NoiseType::Simplex] {
        let n = NoiseDef {
            frequency: 1.0 / 32.0,
            ..def(t, FractalType::Fbm)
        }
        .build()
        .unwrap();
        let max_step = |x0: f64| {
            let mut m = 0f64;
            let mut distinct = std::collections::BTreeSet::new();
            for i in 0..4096 {
                let x = x0 + i as f64 * 0.25;
                let a = n.sample_2d(x, x0);
                m = m.max((n.sample_2d(x + 0.25, x0) - a).abs());
                distinct.insert(a.to_bits());
            }
            (m, distinct.len())
        };
        let (near, dn) = max_step(0.0);
        let (faraway, df) = max_step(far);
        let (neg, dg) = max_step(-far);
        assert!(
            dn > 4000 && df > 4000 && dg > 4000,
            "{t:?} samples collapsed"
        );
        for m in [faraway, neg] {
            assert!(
                m < near * 2.0 && m > near * 0.5,
                "{t:?}: step {m} vs {near} near origin"
            );
        }
    }
}

/// Golden digests of a fixed grid per configuration: XXH64 over the `to_bits()` of each f64
/// sample, little-endian. A regression guard; the properties above say why the values are
/// right, this says they have not moved (and the same file is checked in debug and release).
#[test]
fn golden_noise_digests() {
    let mut lines = String::new();
    for (name, d) in all_defs() {
        let n = d.build().unwrap();
        let g = Grid2 {
            x0: -100.0,
            y0: 250.0,
            dx: 1.5,
            dy: 1.5,
            width: 48,
            height: 48,
        };
        let mut out = vec![0.0f64; 48 * 48];
        n.fill_2d(&g, &mut out).unwrap();
        let mut h = Digest::new();
        h.write_f64_slice(&out);
        let g3 = Grid3 {
            origin: [-8.0, -64.0, 8.0],
            step: [1.0; 3],
            width: 16,
            height: 24,
            depth: 16,
        };
        let mut out3 = vec![0.0f64; 16 * 24 * 16];
        n.fill_3d(&g3, &mut out3).unwrap();
        let mut h3 = Digest::new();
        h3.write_f64_slice(&out3);
        lines.push_str(&format!(
            "{name:<36} 2d {:016x} 3d {:016x}\n",
            h.finish(),
            h3.finish()
        ));
    }
    insta::assert_snapshot!("noise_digests", lines);
}

/// An apron that reaches past the lattice is refused and writes nothing (every row is
/// checked before any is filled), though its chunk alone may still fill; an apron of the last
/// `i32` chunks reaches past `i32` positions without wrapping, its inner samples the chunk's.
#[test]
fn aprons_at_the_edges() {
    let far = NoiseDef {
        frequency: 6e197,
        fractal: stratagen_core::noise::FractalType::None,
        ..NoiseDef::default()
    }
    .build()
    .unwrap();
    let sentinel = -1234.5f32;
    let mut apron = vec![sentinel; 4 * 4];
    assert!(far.heightmap_apron(0, 0, 1, &mut apron).is_err());
    assert!(apron.iter().all(|&v| v == sentinel));
    let mut tile = [sentinel; 1];
    assert!(far.heightmap_chunk(0, 0, 1, &mut tile).is_ok());

    let n = NoiseDef::default().build().unwrap();
    for (cx, cz) in [(i32::MAX, 0), (0, i32::MIN), (i32::MIN, i32::MAX)] {
        let mut apron = vec![sentinel; 7 * 7];
        n.heightmap_apron(cx, cz, 4, &mut apron).unwrap();
        let mut tile = [0f32; 16];
        n.heightmap_chunk(cx, cz, 4, &mut tile).unwrap();
        for j in 0..4 {
            for i in 0..4 {
                let inner = apron[(j + 1) * 7 + i + 1];
                assert_eq!(inner.to_bits(), tile[j * 4 + i].to_bits(), "({cx}, {cz})");
            }
        }
    }
}
