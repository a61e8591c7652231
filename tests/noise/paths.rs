//! Every fill path gives the portable bits: the AVX2 and AVX-512 lattice and simplex fills
//! against the portable ones over random definitions and grids (the fine-octave kernels and
//! lane widths included).

use super::*;

/// A random definition for the SIMD-vs-portable tests: 1–16 octaves, and either the given
/// lattice-aligned frequency with lacunarity 2 or a random frequency and odd lacunarity.
fn random_def(
    r: &mut Xoroshiro128PlusPlus,
    noise_type: NoiseType,
    fractal: FractalType,
    aligned_frequency: Option<f64>,
) -> NoiseDef {
    let seed = r.next_long();
    let octaves = 1 + (r.next_double() * 16.0) as u32;
    let (frequency, lacunarity) = match aligned_frequency {
        Some(f) => (f, 2.0),
        None => (0.001 + r.next_double() * 0.3, 1.5 + r.next_double()),
    };
    NoiseDef {
        seed,
        noise_type,
        fractal,
        octaves,
        frequency,
        lacunarity,
        gain: r.next_double(),
        ..NoiseDef::default()
    }
}

/// The AVX2 2D fill (determinism rule 5), fine octaves on the vector and on the scalar kernel,
/// against the portable one over random
/// definitions and grids: value and Perlin, every shape, 1–16 octaves, odd lacunarities, widths that leave
/// partial vectors, negative and far coordinates, and lattice-aligned grids (fractions of
/// exactly 0, where Perlin is zero).
#[test]
fn simd_fill_matches_portable_fill() {
    let built = def(NoiseType::Perlin, FractalType::Fbm).build().unwrap();
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        built.simd(),
        std::is_x86_feature_detected!("avx2"),
        "Noise::simd disagrees with std's AVX2 detection"
    );
    if !built.simd() {
        eprintln!("no AVX2 here: the portable fill is compared with itself");
    }
    let mut r = Xoroshiro128PlusPlus::from_seed(0xA1F2);
    let shapes = [FractalType::Fbm, FractalType::Ridged, FractalType::Billow];
    let mut zeros = 0;
    for case in 0..600 {
        let aligned = (case / 2) % 4 == 0;
        let kind = [NoiseType::Value, NoiseType::Perlin][case % 2];
        let base = random_def(
            &mut r,
            kind,
            shapes[(case / 2) % 3],
            aligned.then_some(0.25),
        );
        let d = NoiseDef {
            offset: [
                if aligned {
                    0.0
                } else {
                    r.next_double() * 50.0 - 25.0
                },
                if aligned {
                    8.0
                } else {
                    r.next_double() * 50.0 - 25.0
                },
                0.0,
            ],
            ..base
        };
        let n = d.build().unwrap();
        let far = if case % 5 == 0 { 3.0e7 } else { 1.0 };
        let g = Grid2 {
            x0: if aligned {
                -64.0
            } else {
                (r.next_double() - 0.5) * 2000.0 * far
            },
            y0: if aligned {
                32.0
            } else {
                (r.next_double() - 0.5) * 2000.0 * far
            },
            dx: if aligned {
                4.0
            } else {
                (r.next_double() - 0.3) * 3.0
            },
            dy: if aligned { 4.0 } else { r.next_double() * 3.0 },
            width: 1 + (r.next_double() * 150.0) as usize,
            height: 1 + (r.next_double() * 4.0) as usize,
        };
        let len = g.width * g.height;
        // The default (this CPU's fine-octave kernel: AVX-512 where it runs), each kernel
        // forced, and portable.
        let (mut a, mut b, mut c) = (vec![0.0; len], vec![0.0; len], vec![0.0; len]);
        n.fill_2d(&g, &mut a).unwrap();
        n.with_simd(false).fill_2d(&g, &mut b).unwrap();
        n.with_vector_fine_octaves(true)
            .fill_2d(&g, &mut c)
            .unwrap();
        let mut e = vec![0.0; len];
        n.with_vector_fine_octaves(false)
            .fill_2d(&g, &mut e)
            .unwrap();
        assert!(
            e.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
            "case {case}: scalar fine octaves differ"
        );
        // The AVX2 vector kernel where the default is the AVX-512 one.
        n.with_avx512(false)
            .with_vector_fine_octaves(true)
            .fill_2d(&g, &mut e)
            .unwrap();
        assert!(
            e.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
            "case {case}: AVX2 vector fine octaves differ"
        );
        for (i, ((x, y), z)) in a.iter().zip(&b).zip(&c).enumerate() {
            assert_eq!(
                x.to_bits(),
                y.to_bits(),
                "case {case} {d:?} {g:?} sample {i}"
            );
            assert_eq!(
                z.to_bits(),
                y.to_bits(),
                "vector fine octaves, case {case} {g:?} sample {i}"
            );
        }
        let (mut a32, mut b32) = (vec![0.0f32; len], vec![0.0f32; len]);
        n.fill_2d_f32(&g, &mut a32).unwrap();
        n.with_simd(false).fill_2d_f32(&g, &mut b32).unwrap();
        assert!(a32
            .iter()
            .zip(&b32)
            .all(|(x, y)| x.to_bits() == y.to_bits()));
        if aligned && d.noise_type == NoiseType::Perlin && d.fractal == FractalType::Fbm {
            assert!(
                b.iter().all(|v| *v == 0.0),
                "Perlin fBm on lattice points is zero"
            );
            zeros += len;
        }
    }
    assert!(
        zeros > 1000,
        "lattice-aligned Perlin cases ran ({zeros} samples)"
    );
}

/// The AVX2 and AVX-512 simplex rows (determinism rule 5; AVX-512 where the CPU has it, 3D)
/// against the portable fills over random
/// definitions and grids, 2D and 3D: every shape, 1–16 octaves, odd lacunarities, widths
/// that leave partial vectors and several tiles, negative steps, far coordinates (the
/// kernel's integers come from the mantissa) and lattice-aligned grids.
#[test]
fn simd_simplex_fill_matches_portable_fill() {
    let mut r = Xoroshiro128PlusPlus::from_seed(0x51_3A);
    let shapes = [FractalType::Fbm, FractalType::Ridged, FractalType::Billow];
    let mut compared = 0usize;
    for case in 0..300 {
        let aligned = case % 7 == 0;
        let far = [1.0, 3.0e7, 1.0e12][case % 3];
        let coord = |r: &mut Xoroshiro128PlusPlus| {
            if aligned {
                // Quarter-block positions: ties between the offsets (x0 == y0 …) occur.
                (r.next_double() * 80.0).floor() / 4.0 - 10.0
            } else {
                (r.next_double() - 0.5) * 2000.0 * far
            }
        };
        let d = random_def(
            &mut r,
            NoiseType::Simplex,
            shapes[case % 3],
            aligned.then_some(1.0),
        );
        // Far grids at 16 octaves leave the lattice range: keep the frequency in reach.
        let d = NoiseDef {
            octaves: match far {
                f if f > 1.0e9 => 1,
                f if f > 1.0 => d.octaves.min(3),
                _ => d.octaves,
            },
            ..d
        };
        let n = d.build().unwrap();
        let step = |r: &mut Xoroshiro128PlusPlus| {
            if aligned {
                [0.25, -0.25, 0.5][(r.next_double() * 3.0) as usize]
            } else {
                (r.next_double() - 0.3) * 3.0
            }
        };
        let g2 = Grid2 {
            x0: coord(&mut r),
            y0: coord(&mut r),
            dx: step(&mut r),
            dy: step(&mut r),
            width: 1 + (r.next_double() * 90.0) as usize,
            height: 1 + (r.next_double() * 3.0) as usize,
        };
        let g3 = Grid3 {
            origin: [coord(&mut r), coord(&mut r), coord(&mut r)],
            step: [step(&mut r), step(&mut r), step(&mut r)],
            width: 1 + (r.next_double() * 70.0) as usize,
            height: 1 + (r.next_double() * 3.0) as usize,
            // Past 8 and 16: fills batch eight rows of z per kernel call.
            depth: 1 + (r.next_double() * 19.0) as usize,
        };
        // 2D and 3D: the default path, the AVX-512 path where the CPU has it and the AVX2
        // path, each against the portable one.
        let mut b = vec![0.0; g2.width * g2.height];
        n.with_simd(false).fill_2d(&g2, &mut b).unwrap();
        for (path, n) in [
            ("default", n),
            ("avx512", n.with_avx512(true)),
            ("avx2", n.with_avx512(false)),
        ] {
            let mut a = vec![0.0; g2.width * g2.height];
            n.fill_2d(&g2, &mut a).unwrap();
            same_bits(
                a.iter().map(|x| x.to_bits()),
                b.iter().map(|x| x.to_bits()),
                |i| format!("2d {path} case {case} {d:?} {g2:?} sample {i}"),
            );
        }
        let len3 = g3.width * g3.height * g3.depth;
        let mut b = vec![0.0f32; len3];
        n.with_simd(false).fill_3d_f32(&g3, &mut b).unwrap();
        for (path, n) in [
            ("default", n),
            ("avx512", n.with_avx512(true)),
            ("avx2", n.with_avx512(false)),
        ] {
            let mut a = vec![0.0f32; len3];
            n.fill_3d_f32(&g3, &mut a).unwrap();
            same_bits(
                a.iter().map(|x| x.to_bits().into()),
                b.iter().map(|x| x.to_bits().into()),
                |i| format!("3d {path} case {case} {d:?} {g3:?} sample {i}"),
            );
        }
        compared += g2.width * g2.height + len3;
    }
    assert!(compared > 20_000, "{compared} samples compared");
}

/// Panics at the first sample whose bits differ (`what` names it).
fn same_bits(
    a: impl ExactSizeIterator<Item = u64>,
    b: impl ExactSizeIterator<Item = u64>,
    what: impl Fn(usize) -> String,
) {
    assert_eq!(a.len(), b.len(), "{}", what(0));
    for (i, (x, y)) in a.zip(b).enumerate() {
        assert_eq!(x, y, "{}", what(i));
    }
}
