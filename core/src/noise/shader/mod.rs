//! The `f32` noise as GPU shader source: WGSL (WebGPU), GLSL ES 3.0 (WebGL2) and Godot's
//! shading language, one function `sg_noise_2d(p)` / `sg_noise_3d(p)` with the noise's
//! constants (seeds, frequencies, amplitudes) baked in.
//!
//! **One description.** `describe` writes the noise once as a straight-line program
//! (module `ir`) that mirrors the `f32` kernels operation for operation; `emit` prints it in
//! each language, and the same program runs on the CPU in the tests, where it is compared
//! with [`Noise::sample_2d`] bit for bit.
//!
//! **Far positions without `f64`.** GPUs have no `f64`, and the CPU splits `x · frequency`
//! into a cell and a fraction in `f64`. The shader carries each lattice coordinate as an
//! unevaluated sum of two `f32` (the exact product of the position and the frequency's
//! leading `f32`, by Dekker's splitting, plus the rest), so the cell and fraction come out
//! as the CPU's, bar a rounding of the last fraction bit. Every product in the splitting is
//! exact, so a compiler that fuses multiply-adds there changes nothing.
//!
//! Every noise type, fractal and domain warp of the `f32` noise has a shader form.

mod emit;
pub(crate) mod ir;
mod kernel;
mod position;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::noise::def::{Noise, NoiseType, Precision};
use crate::noise::single::kernels::{F2, F3};
use crate::noise::FractalType;
use ir::{Builder, Program, V};
use kernel::*;
use position::*;

/// The language a shader is printed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderLanguage {
    /// WGSL, for WebGPU (`wgpu`, three.js `wgslFn`).
    Wgsl,
    /// GLSL ES 3.0, for WebGL2 (three.js `ShaderMaterial`). The function needs `highp`
    /// floats and integers: declare `precision highp float; precision highp int;` before
    /// it (three.js `ShaderMaterial` does).
    Glsl,
    /// Godot 4's shading language (a `.gdshader` include).
    Godot,
}

/// Why a noise has no shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderError {
    /// Shaders are generated from `precision = "f32"` noises only (GPUs have no `f64`).
    NotF32,
    /// A position of other than 2 or 3 components (the value asked for).
    Dims(u32),
}

impl core::fmt::Display for ShaderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ShaderError::NotF32 => write!(f, "shaders need a noise of precision f32"),
            ShaderError::Dims(d) => write!(f, "dims {}: a shader takes 2 or 3", d),
        }
    }
}

/// The name of the generated function for a position of `dims` components:
/// `sg_noise_2d` or `sg_noise_3d`.
pub fn function_name(dims: u8) -> &'static str {
    if dims == 3 {
        "sg_noise_3d"
    } else {
        "sg_noise_2d"
    }
}

impl Noise {
    /// The noise as a shader function of a `dims`-component position (2:
    /// `sg_noise_2d(p)`, 3: `sg_noise_3d(p)`) in `lang`: `p` is the world position (what
    /// [`Noise::sample_2d`] / [`Noise::sample_3d`] take), the result the `f32` sample.
    pub fn shader(&self, lang: ShaderLanguage, dims: u32) -> Result<String, ShaderError> {
        let dims = match dims {
            2 => 2,
            3 => 3,
            d => return Err(ShaderError::Dims(d)),
        };
        Ok(emit::function(
            lang,
            &describe(self, dims)?,
            &header(self, lang),
        ))
    }

    /// [`Noise::shader`] of a 2D position: `sg_noise_2d(p)`.
    pub fn shader_2d(&self, lang: ShaderLanguage) -> Result<String, ShaderError> {
        self.shader(lang, 2)
    }

    /// [`Noise::shader`] of a 3D position: `sg_noise_3d(p)`.
    pub fn shader_3d(&self, lang: ShaderLanguage) -> Result<String, ShaderError> {
        self.shader(lang, 3)
    }
}

fn header(n: &Noise, lang: ShaderLanguage) -> Vec<String> {
    let mut lines = alloc::vec![
        format!(
            "Stratagen noise: {:?} {:?}, {} octave(s), precision f32.",
            n.noise_type, n.fractal, n.octaves
        ),
        String::from("Generated: the same operations as the CPU's f32 noise, in order."),
    ];
    if lang == ShaderLanguage::Glsl {
        lines.push(String::from(
            "Needs highp: precision highp float; precision highp int;",
        ));
    }
    lines
}

/// The noise as a [`Program`] of `dims` (2 or 3) position components.
pub(crate) fn describe(n: &Noise, dims: u8) -> Result<Program, ShaderError> {
    if n.precision != Precision::F32 {
        return Err(ShaderError::NotF32);
    }
    let mut b = Builder::new(dims);
    let args: Vec<V> = (0..dims).map(|k| b.arg(k)).collect();
    b.guard(args[0]);
    let mut pos: Vec<Double> = (0..dims as usize)
        .map(|k| position(&mut b, args[k], n.offset[k]))
        .collect();
    if n.warp_amplitude > 0.0 {
        pos = warp(&mut b, n, &pos);
    }
    let mut acc = b.lf(0.0);
    for o in 0..n.octaves {
        let seed = b.lu((n.seeds[o] >> 32) as u32);
        let f = n.freq[o];
        let v = match n.noise_type {
            NoiseType::Simplex => {
                let scaled: Vec<Double> = pos.iter().map(|p| scale(&mut b, p, f)).collect();
                simplex(&mut b, seed, &scaled)
            }
            t => {
                let coords: Vec<Double> = pos.iter().map(|p| scale(&mut b, p, f)).collect();
                if t == NoiseType::Cellular {
                    cellular(&mut b, n, seed, coords)
                } else {
                    lattice(&mut b, t == NoiseType::Perlin, seed, coords)
                }
            }
        };
        let shaped = shape(&mut b, n.fractal, v);
        let term = b.mulk(shaped, n.amp[o] as f32);
        acc = b.add(acc, term);
    }
    let out = b.mulk(acc, n.norm as f32);
    b.prog.result = Some(out);
    Ok(b.prog)
}

/// Simplex at the scaled (rounded) position: each axis's skew terms, then the kernel.
fn simplex(b: &mut Builder, seed: V, scaled: &[Double]) -> V {
    if scaled.len() == 2 {
        let parts = [
            scale(b, &scaled[0], 1.0 + F2),
            scale(b, &scaled[0], F2),
            scale(b, &scaled[1], 1.0 + F2),
            scale(b, &scaled[1], F2),
        ];
        return simplex2(b, seed, parts);
    }
    let parts = [
        scale(b, &scaled[0], 1.0 + F3),
        scale(b, &scaled[0], F3),
        scale(b, &scaled[1], 1.0 + F3),
        scale(b, &scaled[1], F3),
        scale(b, &scaled[2], 1.0 + F3),
        scale(b, &scaled[2], F3),
    ];
    simplex3(b, seed, parts)
}

/// Domain warp (`warp2`/`warp3` of the `f32` noise): each axis moves by `amplitude ·` a
/// simplex of its own seed at the warp frequency, every step rounded to `f64` as the CPU
/// rounds it.
fn warp(b: &mut Builder, n: &Noise, pos: &[Double]) -> Vec<Double> {
    let scaled: Vec<Double> = pos.iter().map(|p| scale(b, p, n.warp_frequency)).collect();
    let mut out = Vec::new();
    for (k, p) in pos.iter().enumerate() {
        let seed = b.lu((n.warp_seeds[k] >> 32) as u32);
        let v = simplex(b, seed, &scaled);
        let moved = Double {
            s: v,
            q: Vec::new(),
        };
        let d = scale(b, &moved, n.warp_amplitude);
        out.push(add_doubles(b, p, &d));
    }
    out
}

/// The fractal's shaping of one octave ([`crate::noise::fractal::Shape::apply32`]).
fn shape(b: &mut Builder, fractal: FractalType, v: V) -> V {
    match fractal {
        FractalType::None | FractalType::Fbm => v,
        FractalType::Ridged => {
            let a = abs(b, v);
            let t = b.mulk(a, 2.0);
            b.ksub(1.0, t)
        }
        FractalType::Billow => {
            let a = abs(b, v);
            let t = b.mulk(a, 2.0);
            b.subk(t, 1.0)
        }
    }
}

#[cfg(test)]
mod tests;
