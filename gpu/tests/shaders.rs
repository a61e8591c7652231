//! The generated noise shaders against the CPU `f32` noise: WGSL run as a compute shader
//! through wgpu (lavapipe on a machine without a GPU), WGSL, GLSL and Godot text through
//! naga's validator. Every noise type and fractal, domain warp, every cellular distance and
//! return, 2D and 3D.

use stratagen_core::noise::{
    CellularDistance, CellularReturn, FractalType, Noise, NoiseDef, NoiseType, Precision,
    ShaderError, ShaderLanguage,
};
use stratagen_gpu::{validate, Gpu};

#[path = "../../tests/common/mod.rs"]
mod common;

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
const LANGUAGES: [ShaderLanguage; 3] = [
    ShaderLanguage::Wgsl,
    ShaderLanguage::Glsl,
    ShaderLanguage::Godot,
];

/// A noise of the kind the tests cover: a frequency that is not a power of two (so
/// `position · frequency` is inexact in `f32`) and an offset on every axis.
fn def(t: NoiseType, fractal: FractalType) -> NoiseDef {
    NoiseDef {
        seed: -7_031_977,
        noise_type: t,
        fractal,
        octaves: if fractal == FractalType::None { 1 } else { 4 },
        frequency: 0.021_3,
        offset: [0.75, -12.5, 3.1],
        precision: Precision::F32,
        ..NoiseDef::default()
    }
}

/// Every type with every fractal; every type under domain warp; cellular with each
/// distance and return. With a name for the reports.
fn cases() -> Vec<(String, Noise)> {
    let mut out = Vec::new();
    let mut add = |name: String, d: NoiseDef| out.push((name, d.build().expect("valid")));
    for t in TYPES {
        for fractal in FRACTALS {
            add(format!("{t:?} {fractal:?}"), def(t, fractal));
        }
        let warped = NoiseDef {
            warp_amplitude: 7.5,
            warp_frequency: 0.031,
            ..def(t, FractalType::Fbm)
        };
        add(format!("{t:?} Fbm, warped"), warped);
    }
    for distance in [CellularDistance::Euclidean, CellularDistance::Manhattan] {
        for ret in [
            CellularReturn::F1,
            CellularReturn::F2,
            CellularReturn::F2MinusF1,
            CellularReturn::CellValue,
        ] {
            let d = NoiseDef {
                cellular_distance: distance,
                cellular_return: ret,
                cellular_jitter: 0.8,
                ..def(NoiseType::Cellular, FractalType::None)
            };
            add(format!("Cellular {distance:?} {ret:?}"), d);
        }
    }
    out
}

/// Grid positions (exact in `f32`): near the origin at a fractional step, and around
/// 10^6 blocks out at whole blocks.
fn points(dims: u8) -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    let (side, depth) = if dims == 3 { (24, 24) } else { (96, 1) };
    for (origin, step) in [
        ([-40.0f32, -40.0, -40.0], 0.37f32),
        ([1.0e6, -1.0e6, 1.0e6], 1.0),
    ] {
        for k in 0..depth {
            for j in 0..side {
                for i in 0..side {
                    out.push([
                        origin[0] + i as f32 * step,
                        origin[1] + j as f32 * step,
                        origin[2] + k as f32 * step,
                    ]);
                }
            }
        }
    }
    out
}

fn cpu(n: &Noise, dims: u8, p: &[f32; 3]) -> f32 {
    let [x, y, z] = p.map(f64::from);
    (if dims == 3 {
        n.sample_3d(x, y, z)
    } else {
        n.sample_2d(x, y)
    }) as f32
}

fn shader(n: &Noise, dims: u8, lang: ShaderLanguage) -> String {
    n.shader(lang, u32::from(dims))
        .expect("a shader for every type and fractal covered")
}

#[test]
fn generated_shaders_pass_naga_validation() {
    for (name, n) in cases() {
        for dims in [2, 3] {
            for lang in LANGUAGES {
                if let Err(e) = validate(lang, &shader(&n, dims, lang), dims) {
                    panic!("{name} {dims}D {lang:?}: {e}");
                }
            }
        }
    }
}

/// On the GPU, every sample within 1e-5 of the CPU's and at least 99% bit-identical.
/// Prints the distribution of differences per case.
#[test]
fn gpu_samples_match_the_cpu() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => {
            let message = e.to_string();
            let missing = message.contains("no Vulkan adapter");
            let test = "gpu_samples_match_the_cpu";
            let install = "a Vulkan driver; without a GPU, Debian's mesa-vulkan-drivers";
            if missing && !common::tool_present(test, "Vulkan adapter", false, install) {
                return;
            }
            panic!("{message}")
        }
    };
    println!("adapter: {}", gpu.adapter);
    println!("case: identical / ≤1e-7 / ≤1e-6 / ≤1e-5 / over, of N; max |diff|");
    for (name, n) in cases() {
        for dims in [2u8, 3] {
            let pts = points(dims);
            let got = gpu
                .run(&shader(&n, dims, ShaderLanguage::Wgsl), dims, &pts)
                .unwrap_or_else(|e| panic!("{name} {dims}D: {e}"));
            assert_eq!(got.len(), pts.len());
            let mut bins = [0usize; 5];
            let mut worst = 0f32;
            for (p, g) in pts.iter().zip(&got) {
                let c = cpu(&n, dims, p);
                let d = (g - c).abs();
                worst = worst.max(if d.is_nan() { f32::INFINITY } else { d });
                let bin = if g.to_bits() == c.to_bits() {
                    0
                } else if d <= 1e-7 {
                    1
                } else if d <= 1e-6 {
                    2
                } else if d <= 1e-5 {
                    3
                } else {
                    4
                };
                bins[bin] += 1;
            }
            println!(
                "{name} {dims}D: {} / {} / {} / {} / {} of {}; max {worst:e}",
                bins[0],
                bins[1],
                bins[2],
                bins[3],
                bins[4],
                pts.len()
            );
            assert!(
                worst <= 1e-5 && bins[0] * 100 >= pts.len() * 99,
                "{name} {dims}D: {bins:?} of {}, max |diff| {worst:e}",
                pts.len()
            );
        }
    }
}

#[test]
fn double_precision_noises_have_no_shader() {
    let f64_noise = NoiseDef::default().build().unwrap();
    assert_eq!(
        f64_noise.shader_2d(ShaderLanguage::Wgsl),
        Err(ShaderError::NotF32)
    );
}
