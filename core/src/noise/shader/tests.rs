use super::*;
use crate::noise::{CellularDistance, CellularReturn, NoiseDef};
use alloc::vec::Vec;

/// A reproducible stream of positions (xorshift64*), as `f32` (what a shader receives).
struct Points(u64);

impl Points {
    fn next(&mut self, scale: f32) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let u = (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / 16_777_216.0;
        (u * 2.0 - 1.0) * scale
    }
}

fn def(t: NoiseType, fractal: FractalType, octaves: u32) -> NoiseDef {
    NoiseDef {
        seed: 20_261_203,
        noise_type: t,
        fractal,
        octaves,
        frequency: 0.013_7,
        offset: [3.25, -17.5, 0.1],
        precision: Precision::F32,
        ..NoiseDef::default()
    }
}

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

/// Every noise the tests cover: each type with each fractal, cellular with each distance
/// and return, and each type under domain warp.
fn cases() -> Vec<NoiseDef> {
    let mut out = Vec::new();
    for t in TYPES {
        for fractal in FRACTALS {
            let octaves = if fractal == FractalType::None { 1 } else { 3 };
            out.push(def(t, fractal, octaves));
        }
        out.push(NoiseDef {
            warp_amplitude: 7.5,
            warp_frequency: 0.031,
            ..def(t, FractalType::Fbm, 2)
        });
    }
    for distance in [CellularDistance::Euclidean, CellularDistance::Manhattan] {
        for ret in [
            CellularReturn::F1,
            CellularReturn::F2,
            CellularReturn::F2MinusF1,
            CellularReturn::CellValue,
        ] {
            out.push(NoiseDef {
                cellular_distance: distance,
                cellular_return: ret,
                cellular_jitter: 0.8,
                ..def(NoiseType::Cellular, FractalType::None, 1)
            });
        }
    }
    out
}

/// The program of every case, run on the CPU, against the `f32` noise at positions near the
/// origin and 10^6 blocks out: the same bits everywhere (the program rounds every `f64`
/// step of the coordinates as the CPU does).
#[test]
fn the_program_is_the_f32_noise() {
    let mut pts = Points(0x9E37_79B9_7F4A_7C15);
    for d in cases() {
        let (t, fractal) = (d.noise_type, d.fractal);
        {
            let n = d.build().unwrap();
            for dims in [2u8, 3] {
                let prog = describe(&n, dims).unwrap();
                let (mut same, mut total, mut worst) = (0u32, 0u32, 0f32);
                for scale in [1000.0f32, 1.0e6] {
                    for _ in 0..2000 {
                        let p = [pts.next(scale), pts.next(scale), pts.next(scale)];
                        let (x, y, z) = (f64::from(p[0]), f64::from(p[1]), f64::from(p[2]));
                        let cpu = if dims == 2 {
                            n.sample_2d(x, y)
                        } else {
                            n.sample_3d(x, y, z)
                        } as f32;
                        let got = prog.eval(&p);
                        total += 1;
                        same += u32::from(got.to_bits() == cpu.to_bits());
                        worst = worst.max((got - cpu).abs());
                    }
                }
                assert!(
                    same == total,
                    "{t:?} {fractal:?} {:?} warp {} {dims}D: {same}/{total} identical, \
                     max |diff| {worst}",
                    d.cellular_return,
                    d.warp_amplitude
                );
            }
        }
    }
}

#[test]
fn only_f32_noises_have_a_shader() {
    let f64_noise = NoiseDef::default().build().unwrap();
    assert_eq!(
        f64_noise.shader_2d(ShaderLanguage::Wgsl),
        Err(ShaderError::NotF32)
    );
    assert_eq!(
        f64_noise.shader_3d(ShaderLanguage::Godot),
        Err(ShaderError::NotF32)
    );
}
