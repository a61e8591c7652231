//! The fills against their references: every lane width gives the portable bits, a fill in
//! the noise's own precision equals the typed fill, an `f32` noise's `f64` fills are its
//! widened point samples, and narrow 3D lattice fills (rows in lanes) equal point samples.

use super::*;

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
