//! Stratagen's noise against the peer crates, in one run.
//!
//! Workloads: 2D fBm chunks of 64², 128², 256² samples at 1, 4, 8 octaves, each chunk spanning
//! 4 base cells (frequency 4/N with unit sample spacing), for value, Perlin and simplex; and a
//! 16 × 384 × 16 block of single-octave 3D Perlin and simplex at frequency 1/16.
//!
//! Two passes: criterion groups (one per workload, every crate in the group), then an
//! interleaved pass that rotates through the crates round by round so machine drift hits all
//! alike, prints a compact table of medians and one `ratio <workload> <peer> <x>` line per
//! comparison (stratagen time / peer time; below 1 means Stratagen is faster).
//! simdnoise has no value or Perlin noise: its simplex fBm stands in for those rows.
#[path = "noise_peers/paths.rs"]
mod paths;

use criterion::{black_box, Criterion};
use noise::{MultiFractal, NoiseFn};
use paths::{precisions, strategies};
use std::time::{Duration, Instant};
use stratagen_core::noise::{FractalType, Grid2, Grid3, Noise, NoiseDef, NoiseType, Precision};

type Job = Box<dyn FnMut()>;

struct Workload {
    name: String,
    jobs: Vec<(&'static str, Job)>,
}

fn ours_2d(kind: NoiseType, n: usize, oct: u32) -> Job {
    ours_2d_at(kind, n, oct, 4.0 / n as f64, true)
}

/// Stratagen's 2D fill on the default path; `simd: false` forces the portable path (same
/// bits).
fn ours_2d_at(kind: NoiseType, n: usize, oct: u32, frequency: f64, simd: bool) -> Job {
    ours_2d_with(kind, n, 1.0, oct, frequency, None, simd, true)
}

/// The paths of one precision: (simd, avx512) as in [`ours_2d_with`].
fn ours_2d_in(precision: Precision, kind: NoiseType, oct: u32, simd: bool, avx512: bool) -> Job {
    let n = 128;
    noise_2d_job(
        NoiseDef {
            precision,
            ..chunk_def(kind, oct, 4.0 / n as f64)
        },
        n,
        1.0,
        None,
        simd,
        avx512,
    )
}

/// The 2D definition of the workloads: seed 1337, fBm.
fn chunk_def(kind: NoiseType, oct: u32, frequency: f64) -> NoiseDef {
    NoiseDef {
        seed: 1337,
        noise_type: kind,
        fractal: FractalType::Fbm,
        octaves: oct,
        frequency,
        ..NoiseDef::default()
    }
}

/// `n × n` samples `step` apart, fine octaves forced to the vector (`Some(true)`) or scalar
/// kernel (`Some(false)`) or left to the CPU (`None`); `avx512` false keeps the AVX-512
/// kernels off where the CPU has them.
#[allow(clippy::too_many_arguments)]
fn ours_2d_with(
    kind: NoiseType,
    n: usize,
    step: f64,
    oct: u32,
    frequency: f64,
    vector_fine: Option<bool>,
    simd: bool,
    avx512: bool,
) -> Job {
    noise_2d_job(
        chunk_def(kind, oct, frequency),
        n,
        step,
        vector_fine,
        simd,
        avx512,
    )
}

/// `n × n` samples of `def`, `step` apart, on the chosen path.
fn noise_2d_job(
    def: NoiseDef,
    n: usize,
    step: f64,
    vector_fine: Option<bool>,
    simd: bool,
    avx512: bool,
) -> Job {
    let noise = def.build().unwrap().with_simd(simd).with_avx512(avx512);
    let noise = match vector_fine {
        Some(v) => noise.with_vector_fine_octaves(v),
        None => noise,
    };
    let grid = Grid2 {
        x0: 0.0,
        y0: 0.0,
        dx: step,
        dy: step,
        width: n,
        height: n,
    };
    let mut out = vec![0f32; n * n];
    Box::new(move || {
        noise.fill_2d_f32(&grid, &mut out).unwrap();
        black_box(&out);
    })
}

fn fnl_2d(kind: fastnoise_lite::NoiseType, n: usize, oct: u32) -> Job {
    let mut f = fastnoise_lite::FastNoiseLite::with_seed(1337);
    f.set_noise_type(Some(kind));
    f.set_fractal_type(Some(fastnoise_lite::FractalType::FBm));
    f.set_fractal_octaves(Some(oct as i32));
    f.set_frequency(Some(4.0 / n as f32));
    let mut out = vec![0f32; n * n];
    Box::new(move || {
        for j in 0..n {
            for i in 0..n {
                out[j * n + i] = f.get_noise_2d(i as f32, j as f32);
            }
        }
        black_box(&out);
    })
}

fn bracket_2d(kind: bracket_noise::prelude::NoiseType, n: usize, oct: u32) -> Job {
    let mut f = bracket_noise::prelude::FastNoise::seeded(1337);
    f.set_noise_type(kind);
    f.set_fractal_type(bracket_noise::prelude::FractalType::FBM);
    f.set_fractal_octaves(oct as i32);
    f.set_frequency(4.0 / n as f32);
    let mut out = vec![0f32; n * n];
    Box::new(move || {
        for j in 0..n {
            for i in 0..n {
                out[j * n + i] = f.get_noise(i as f32, j as f32);
            }
        }
        black_box(&out);
    })
}

fn noisers_2d<T: NoiseFn<f64, 2> + Default + noise::Seedable + Clone + 'static>(
    n: usize,
    oct: u32,
) -> Job {
    let f = noise::Fbm::<T>::new(1337)
        .set_octaves(oct as usize)
        .set_frequency(4.0 / n as f64);
    let mut out = vec![0f32; n * n];
    Box::new(move || {
        for j in 0..n {
            for i in 0..n {
                out[j * n + i] = f.get([i as f64, j as f64]) as f32;
            }
        }
        black_box(&out);
    })
}

fn simd_2d(n: usize, oct: u32) -> Job {
    Box::new(move || {
        let v = simdnoise::NoiseBuilder::fbm_2d(n, n)
            .with_seed(1337)
            .with_freq(4.0 / n as f32)
            .with_octaves(oct as u8)
            .generate()
            .0;
        black_box(v);
    })
}

fn ours_3d(kind: NoiseType) -> Job {
    ours_3d_in(Precision::F64, kind, Path::Default)
}

/// One of our fill paths: this CPU's default, or one forced (each gives the same bits).
#[derive(Clone, Copy)]
enum Path {
    Default,
    Avx512,
    Avx2,
    Portable,
}

impl Path {
    fn apply(self, noise: Noise) -> Noise {
        match self {
            Path::Default => noise,
            Path::Avx512 => noise.with_avx512(true),
            Path::Avx2 => noise.with_avx512(false),
            Path::Portable => noise.with_simd(false),
        }
    }
}

/// [`ours_3d`] in a chosen precision, on a chosen path.
fn ours_3d_in(precision: Precision, kind: NoiseType, path: Path) -> Job {
    let noise = path.apply(
        NoiseDef {
            seed: 1337,
            noise_type: kind,
            fractal: FractalType::None,
            frequency: 1.0 / 16.0,
            precision,
            ..NoiseDef::default()
        }
        .build()
        .unwrap(),
    );
    let grid = Grid3 {
        origin: [0.0; 3],
        step: [1.0; 3],
        width: 16,
        height: 384,
        depth: 16,
    };
    let mut out = vec![0f32; 16 * 384 * 16];
    Box::new(move || {
        noise.fill_3d_f32(&grid, &mut out).unwrap();
        black_box(&out);
    })
}

fn fnl_3d(kind: fastnoise_lite::NoiseType) -> Job {
    let mut f = fastnoise_lite::FastNoiseLite::with_seed(1337);
    f.set_noise_type(Some(kind));
    f.set_frequency(Some(1.0 / 16.0));
    let mut out = vec![0f32; 16 * 384 * 16];
    Box::new(move || {
        let mut idx = 0;
        for y in 0..384 {
            for z in 0..16 {
                for x in 0..16 {
                    out[idx] = f.get_noise_3d(x as f32, y as f32, z as f32);
                    idx += 1;
                }
            }
        }
        black_box(&out);
    })
}

fn bracket_3d(kind: bracket_noise::prelude::NoiseType) -> Job {
    let mut f = bracket_noise::prelude::FastNoise::seeded(1337);
    f.set_noise_type(kind);
    f.set_frequency(1.0 / 16.0);
    let mut out = vec![0f32; 16 * 384 * 16];
    Box::new(move || {
        let mut idx = 0;
        for y in 0..384 {
            for z in 0..16 {
                for x in 0..16 {
                    out[idx] = f.get_noise3d(x as f32, y as f32, z as f32);
                    idx += 1;
                }
            }
        }
        black_box(&out);
    })
}

fn noisers_3d<T: NoiseFn<f64, 3> + 'static>(f: T) -> Job {
    let mut out = vec![0f32; 16 * 384 * 16];
    Box::new(move || {
        let mut idx = 0;
        for y in 0..384 {
            for z in 0..16 {
                for x in 0..16 {
                    let p = [x as f64 / 16.0, y as f64 / 16.0, z as f64 / 16.0];
                    out[idx] = f.get(p) as f32;
                    idx += 1;
                }
            }
        }
        black_box(&out);
    })
}

fn simd_3d() -> Job {
    Box::new(|| {
        let v = simdnoise::NoiseBuilder::gradient_3d(16, 384, 16)
            .with_seed(1337)
            .with_freq(1.0 / 16.0)
            .generate()
            .0;
        black_box(v);
    })
}

fn workloads() -> Vec<Workload> {
    use bracket_noise::prelude::NoiseType as B;
    use fastnoise_lite::NoiseType as F;
    let mut w = Vec::new();
    for (kname, ours, fnl, br) in [
        ("value", NoiseType::Value, F::Value, B::ValueFractal),
        ("perlin", NoiseType::Perlin, F::Perlin, B::PerlinFractal),
        (
            "simplex",
            NoiseType::Simplex,
            F::OpenSimplex2,
            B::SimplexFractal,
        ),
    ] {
        for n in [64usize, 128, 256] {
            for oct in [1u32, 4, 8] {
                let rs: Job = match ours {
                    NoiseType::Value => noisers_2d::<noise::Value>(n, oct),
                    NoiseType::Perlin => noisers_2d::<noise::Perlin>(n, oct),
                    _ => noisers_2d::<noise::Simplex>(n, oct),
                };
                w.push(Workload {
                    name: format!("{kname}2d_fbm{oct}_{n}"),
                    jobs: vec![
                        ("stratagen", ours_2d(ours, n, oct)),
                        ("fastnoise-lite", fnl_2d(fnl, n, oct)),
                        ("noise-rs", rs),
                        ("bracket-noise", bracket_2d(br, n, oct)),
                        ("simdnoise", simd_2d(n, oct)),
                    ],
                });
            }
        }
    }
    w.push(Workload {
        name: "perlin3d_16x384x16".into(),
        jobs: vec![
            ("stratagen", ours_3d(NoiseType::Perlin)),
            ("fastnoise-lite", fnl_3d(F::Perlin)),
            ("noise-rs", noisers_3d(noise::Perlin::new(1337))),
            ("bracket-noise", bracket_3d(B::Perlin)),
            ("simdnoise", simd_3d()),
        ],
    });
    w.push(Workload {
        name: "simplex3d_16x384x16".into(),
        jobs: vec![
            ("stratagen", ours_3d(NoiseType::Simplex)),
            ("fastnoise-lite", fnl_3d(F::OpenSimplex2)),
            ("noise-rs", noisers_3d(noise::Simplex::new(1337))),
            ("bracket-noise", bracket_3d(B::Simplex)),
            ("simdnoise", simd_3d()),
        ],
    });
    w
}

/// Median seconds per call of each job, over rounds that rotate through the jobs.
fn interleaved(w: &mut Workload, rounds: usize) -> Vec<f64> {
    let k = w.jobs.len();
    let mut iters = vec![1usize; k];
    for (j, (_, job)) in w.jobs.iter_mut().enumerate() {
        job();
        let t = Instant::now();
        job();
        let one = t.elapsed().as_secs_f64().max(1e-7);
        iters[j] = ((0.004 / one) as usize).clamp(1, 10_000);
    }
    let mut times = vec![Vec::with_capacity(rounds); k];
    for r in 0..rounds {
        for s in 0..k {
            let j = (r + s) % k;
            let job = &mut w.jobs[j].1;
            let t = Instant::now();
            for _ in 0..iters[j] {
                job();
            }
            times[j].push(t.elapsed().as_secs_f64() / iters[j] as f64);
        }
    }
    times
        .into_iter()
        .map(|mut v| {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        })
        .collect()
}

fn main() {
    println!("cpu {}", stratagen_cli::cpu_model());
    let quick = std::env::var_os("STRATAGEN_BENCH_QUICK").is_some();
    // `STRATAGEN_BENCH_ONLY=precision` or `=strategy`: only those lines.
    let only = std::env::var("STRATAGEN_BENCH_ONLY").unwrap_or_default();
    match only.as_str() {
        "precision" => return precisions(if quick { 5 } else { 31 }),
        "strategy" => return strategies(if quick { 5 } else { 31 }),
        _ => {}
    }
    let mut ws = workloads();
    if !quick {
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(100))
            .measurement_time(Duration::from_millis(300))
            .configure_from_args();
        for w in ws.iter_mut() {
            let mut g = c.benchmark_group(&w.name);
            for (crate_name, job) in w.jobs.iter_mut() {
                g.bench_function(*crate_name, |b| b.iter(&mut *job));
            }
            g.finish();
        }
    }
    let rounds = if quick { 5 } else { 31 };
    let mut lines = Vec::new();
    println!(
        "\n{:<24} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "workload (median µs)", "stratagen", "fnl", "noise-rs", "bracket", "simdnoise"
    );
    for w in ws.iter_mut() {
        let t = interleaved(w, rounds);
        print!("{:<24}", w.name);
        for x in &t {
            print!(" {:>12.1}", x * 1e6);
        }
        println!();
        for (j, (peer, _)) in w.jobs.iter().enumerate().skip(1) {
            lines.push(format!("ratio {} {} {:.3}", w.name, peer, t[0] / t[j]));
        }
    }
    println!();
    for l in lines {
        println!("{l}");
    }
    octave_scaling(rounds);
    strategies(rounds);
    precisions(rounds);
}

/// Where the octaves' time goes at 128²: fBm with 1 and 8 octaves, and each of the 8
/// octaves alone (one octave at that octave's frequency), interleaved in one run.
/// `fbm8/fbm1` is the octave-scaling figure; `fbm8/sum_alone` near 1 shows that an
/// octave costs inside the fBm what it costs alone (no branch-predictor trap). The
/// `_portable` lines force the portable 2D path where the default one is AVX2.
fn octave_scaling(rounds: usize) {
    let n = 128;
    let simd = NoiseDef::default().build().unwrap().simd();
    println!();
    println!(
        "path 2d value/perlin fills: {}",
        match (simd, NoiseDef::default().build().unwrap().avx512()) {
            (false, _) => "portable",
            (true, false) => "avx2",
            (true, true) => "avx2, fine octaves avx512",
        }
    );
    let mut cases = vec![
        ("value", NoiseType::Value, true),
        ("perlin", NoiseType::Perlin, true),
        ("simplex", NoiseType::Simplex, true),
    ];
    if simd {
        cases.push(("value", NoiseType::Value, false));
        cases.push(("perlin", NoiseType::Perlin, false));
    }
    for (name, kind, simd) in cases {
        let f0 = 4.0 / n as f64;
        let mut w = Workload {
            name: format!("{name}2d_{n}{}", if simd { "" } else { "_portable" }),
            jobs: vec![
                ("fbm1", ours_2d_at(kind, n, 1, f0, simd)),
                ("fbm8", ours_2d_at(kind, n, 8, f0, simd)),
            ],
        };
        for k in 0..8 {
            let f = f0 * f64::from(1u32 << k);
            w.jobs.push(("alone", ours_2d_at(kind, n, 1, f, simd)));
        }
        let t = interleaved(&mut w, rounds);
        let alone: Vec<String> = t[2..].iter().map(|x| format!("{:.1}", x * 1e6)).collect();
        println!(
            "scaling {} fbm8/fbm1 {:.2} fbm8/sum_alone {:.2} alone_us {} fbm1_us {:.1} fbm8_us {:.1}",
            w.name,
            t[1] / t[0],
            t[1] / t[2..].iter().sum::<f64>(),
            alone.join(" "),
            t[0] * 1e6,
            t[1] * 1e6
        );
    }
}
