//! `stratagen shader`: a noise as GPU shader source (WGSL, GLSL ES 3.0, Godot).

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use stratagen_core::noise::{NoiseDef, Precision, ShaderLanguage};
use stratagen_core::world::biome::world_noise;

use crate::args::finite;
use crate::commands::noise::{FractalArg, NoiseArg};
use crate::error::{usage, CliError};
use crate::files::write_atomic;

/// Shader languages.
#[derive(Clone, Copy, ValueEnum)]
pub enum LangArg {
    /// WGSL (WebGPU, three.js `wgslFn`).
    Wgsl,
    /// GLSL ES 3.0 (WebGL2, three.js `ShaderMaterial`; needs `precision highp float/int`).
    Glsl,
    /// Godot 4 shading language.
    Godot,
}

impl From<LangArg> for ShaderLanguage {
    fn from(a: LangArg) -> ShaderLanguage {
        match a {
            LangArg::Wgsl => ShaderLanguage::Wgsl,
            LangArg::Glsl => ShaderLanguage::Glsl,
            LangArg::Godot => ShaderLanguage::Godot,
        }
    }
}

/// Arguments of `stratagen shader`.
#[derive(Args)]
pub struct ShaderArgs {
    /// Language.
    #[arg(long, value_enum, default_value = "wgsl")]
    pub lang: LangArg,
    /// Dimensions of the position the function takes: 2 (`sg_noise_2d(vec2)`) or 3.
    #[arg(long, default_value_t = 2)]
    pub dims: u8,
    /// A world's noise instead of the flags below: its path in the definition document
    /// (`climate.temperature`, `terrain.caves.cheese`, ...), seeded with `--seed` as the
    /// world seeds it. The noise must have `precision = "f32"`.
    #[arg(long, value_name = "PATH")]
    pub noise: Option<String>,
    /// World definition for `--noise`: a preset (default, archipelago, caverns) or a
    /// TOML/JSON file.
    #[arg(long, default_value = "default", value_name = "PRESET|FILE")]
    pub world: String,
    /// Base noise.
    #[arg(long = "type", value_enum, default_value = "perlin")]
    pub noise_type: NoiseArg,
    /// Fractal.
    #[arg(long, value_enum, default_value = "fbm")]
    pub fractal: FractalArg,
    /// Octaves, 1..=16.
    #[arg(long, default_value_t = 4)]
    pub octaves: u32,
    /// Frequency of the first octave, per block (> 0).
    #[arg(long, default_value_t = 0.01)]
    pub frequency: f64,
    /// Frequency multiplier per octave (> 0).
    #[arg(long, default_value_t = 2.0)]
    pub lacunarity: f64,
    /// Amplitude multiplier per octave (>= 0).
    #[arg(long, default_value_t = 0.5)]
    pub persistence: f64,
    /// Seed (with `--noise`: the world seed).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// Output file; standard output if absent.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Run `stratagen shader`.
pub fn run(a: ShaderArgs) -> Result<(), CliError> {
    if a.dims != 2 && a.dims != 3 {
        return Err(usage(format!("--dims {}: must be 2 or 3", a.dims)));
    }
    let noise = match &a.noise {
        Some(path) => {
            let def = stratagen_worldfile::load(&a.world)
                .map_err(|e| CliError::Definition(e.to_string()))?;
            let names = def.noises();
            let Some((_, nd)) = names.iter().find(|(p, _)| p == path) else {
                let known: Vec<&str> = names.iter().map(|(p, _)| *p).collect();
                return Err(usage(format!(
                    "--noise {path}: no such noise in {}; one of {}",
                    a.world,
                    known.join(", ")
                )));
            };
            if nd.precision != Precision::F32 {
                return Err(usage(format!(
                    "--noise {path}: the noise is f64 in {}; shaders need precision = \"f32\" \
                     (a world definition may choose it per noise)",
                    a.world
                )));
            }
            world_noise(a.seed, nd)?
        }
        None => NoiseDef {
            seed: a.seed,
            noise_type: a.noise_type.into(),
            fractal: a.fractal.into(),
            octaves: a.octaves,
            frequency: finite("frequency", a.frequency)?,
            lacunarity: finite("lacunarity", a.lacunarity)?,
            gain: finite("persistence", a.persistence)?,
            precision: Precision::F32,
            ..NoiseDef::default()
        }
        .build()?,
    };
    let source = noise
        .shader(a.lang.into(), u32::from(a.dims))
        .map_err(|e| usage(e.to_string()))?;
    match &a.out {
        Some(path) => {
            write_atomic(path, source.as_bytes())?;
            println!(
                "wrote {} ({} lines)",
                path.display(),
                source.lines().count()
            );
        }
        None => {
            use std::io::Write;
            // A reader that stops early (`| head`) is not an error.
            match std::io::stdout().lock().write_all(source.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(usage(format!("writing standard output: {e}")));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
