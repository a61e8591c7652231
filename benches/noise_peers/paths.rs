//! Our own noise's paths side by side, in the same run: `f32` against `f64` on every lane
//! width (`precision` lines), and the fill strategies and instruction sets of each noise
//! (`strategy` lines); every path gives the same bits.

use super::*;

/// The two precisions side by side: `precision <workload> f64 <µs> f32 <µs> f32_avx2 <µs>
/// f32_portable <µs> f32_vs_f64 <ratio> default_vs_best <ratio>`. `f64` and `f32` are each
/// precision's default path on this CPU; `f32_avx2` forces the 8-lane kernels where the
/// default is 16, `f32_portable` the 4-lane portable loops (the same bits on every path).
/// `default_vs_best` compares the f32 default with the fastest f32 path.
pub(super) fn precisions(rounds: usize) {
    println!();
    let single = NoiseDef {
        precision: Precision::F32,
        ..NoiseDef::default()
    }
    .build()
    .unwrap();
    println!(
        "default f32 lanes: {}",
        if single.avx512() {
            "16 (avx512)"
        } else if single.simd() {
            "8 (avx2)"
        } else {
            "4 (portable)"
        }
    );
    let mut ws = Vec::new();
    for (name, kind) in [
        ("value", NoiseType::Value),
        ("perlin", NoiseType::Perlin),
        ("simplex", NoiseType::Simplex),
    ] {
        for oct in [1u32, 4, 8] {
            let job = |p, simd, avx512| ours_2d_in(p, kind, oct, simd, avx512);
            ws.push(Workload {
                name: format!("{name}2d_fbm{oct}_128"),
                jobs: vec![
                    ("f64", job(Precision::F64, true, true)),
                    ("f32", job(Precision::F32, true, true)),
                    ("f32_avx2", job(Precision::F32, true, false)),
                    ("f32_portable", job(Precision::F32, false, false)),
                ],
            });
        }
    }
    for (name, kind) in [
        ("value", NoiseType::Value),
        ("perlin", NoiseType::Perlin),
        ("simplex", NoiseType::Simplex),
    ] {
        let job = |p, path| ours_3d_in(p, kind, path);
        ws.push(Workload {
            name: format!("{name}3d_16x384x16"),
            jobs: vec![
                ("f64", job(Precision::F64, Path::Default)),
                ("f32", job(Precision::F32, Path::Default)),
                ("f32_avx2", job(Precision::F32, Path::Avx2)),
                ("f32_portable", job(Precision::F32, Path::Portable)),
            ],
        });
    }
    for w in ws.iter_mut() {
        let t = interleaved(w, rounds);
        let best = t[1..].iter().cloned().fold(f64::INFINITY, f64::min);
        print!("precision {}", w.name);
        for ((label, _), x) in w.jobs.iter().zip(&t) {
            print!(" {label} {:.1}", x * 1e6);
        }
        println!(
            " f32_vs_f64 {:.3} default_vs_best {:.3}",
            t[1] / t[0],
            t[1] / best
        );
    }
}

/// The fill paths side by side (same bits): 2D Perlin on terrain-like chunks (4 base cells per
/// chunk) and heightmap chunks (64² samples over 16 blocks at a 128-block base wavelength),
/// `strategy <workload> default <µs> vector_fine <µs> avx2_fine <µs> scalar_fine <µs>
/// portable <µs> default_vs_best <ratio>` (the default is this CPU's choice of fine-octave
/// kernel; `vector_fine` is AVX-512 where the CPU has it, `avx2_fine` forces AVX2), then
/// simplex 2D, default against AVX2 and portable, and simplex, value and Perlin 3D, default
/// against AVX-512, AVX2 and portable. The ratio is the default's time over the fastest
/// path's (1.00 when the default is the fastest).
pub(super) fn strategies(rounds: usize) {
    println!();
    let built = NoiseDef::default().build().unwrap();
    println!(
        "default 2d fine octaves: {}",
        if !built.simd() {
            "portable"
        } else if built.vector_fine_octaves() && built.avx512() {
            "avx512"
        } else if built.vector_fine_octaves() {
            "avx2"
        } else {
            "scalar"
        }
    );
    println!(
        "default 3d value/perlin vectors: {}",
        if built.wide_lattice_3d() {
            "512-bit"
        } else if built.simd() {
            "256-bit"
        } else {
            "portable"
        }
    );
    println!(
        "default simplex rows (2d, 3d): {}",
        if built.avx512() {
            "avx512"
        } else if built.simd() {
            "avx2"
        } else {
            "portable"
        }
    );
    for (name, n, step, freq) in [
        ("perlin2d_%_128", 128, 1.0, 4.0 / 128.0),
        ("perlin2d_%_heightmap64", 64, 0.25, 1.0 / 128.0),
    ] {
        for oct in [1u32, 4, 8] {
            let k = NoiseType::Perlin;
            let job = |fine: Option<bool>, simd: bool, avx512: bool| {
                ours_2d_with(k, n, step, oct, freq, fine, simd, avx512)
            };
            let mut w = Workload {
                name: name.replace('%', &format!("fbm{oct}")),
                jobs: vec![
                    ("default", job(None, true, true)),
                    ("vector_fine", job(Some(true), true, true)),
                    ("avx2_fine", job(Some(true), true, false)),
                    ("scalar_fine", job(Some(false), true, true)),
                    ("portable", job(None, false, false)),
                ],
            };
            print_strategy(&mut w, rounds);
        }
    }
    // Simplex 2D and 3D have AVX-512 rows, the default where the CPU has them (`avx2`
    // forces the AVX2 rows), and the portable path.
    for oct in [1u32, 4, 8] {
        let job = |simd, avx512| {
            ours_2d_with(
                NoiseType::Simplex,
                128,
                1.0,
                oct,
                4.0 / 128.0,
                None,
                simd,
                avx512,
            )
        };
        let mut w = Workload {
            name: format!("simplex2d_fbm{oct}_128"),
            jobs: vec![
                ("default", job(true, true)),
                ("avx2", job(true, false)),
                ("portable", job(false, false)),
            ],
        };
        print_strategy(&mut w, rounds);
    }
    for (name, kind) in [
        ("simplex3d_16x384x16", NoiseType::Simplex),
        ("value3d_16x384x16", NoiseType::Value),
        ("perlin3d_16x384x16", NoiseType::Perlin),
    ] {
        let job = |path| ours_3d_in(Precision::F64, kind, path);
        let mut w = Workload {
            name: name.into(),
            jobs: vec![
                ("default", job(Path::Default)),
                ("avx512", job(Path::Avx512)),
                ("avx2", job(Path::Avx2)),
                ("portable", job(Path::Portable)),
            ],
        };
        print_strategy(&mut w, rounds);
    }
}

/// One `strategy` line: each path's median µs (the first job is the default) and how the
/// default compares with the fastest.
fn print_strategy(w: &mut Workload, rounds: usize) {
    let t = interleaved(w, rounds);
    let best = t.iter().cloned().fold(f64::INFINITY, f64::min);
    print!("strategy {}", w.name);
    for ((label, _), x) in w.jobs.iter().zip(&t) {
        print!(" {label} {:.1}", x * 1e6);
    }
    println!(" default_vs_best {:.3}", t[0] / best);
}
