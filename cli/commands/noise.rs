//! `stratagen noise`: render a noise image.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use stratagen_core::noise::{FractalType, Grid2, NoiseDef, NoiseType, Precision};

use crate::args::{finite, parse_fpair, parse_size};
use crate::error::{usage, CliError};
use crate::files::{encode_png, write_atomic};
use crate::noise_image::{check_size, noise_image, palette, NoiseImage};

/// Base noise names.
#[derive(Clone, Copy, ValueEnum)]
pub enum NoiseArg {
    /// Value noise.
    Value,
    /// Perlin noise.
    Perlin,
    /// Simplex noise.
    Simplex,
    /// Cellular noise.
    Cellular,
}

impl From<NoiseArg> for NoiseType {
    fn from(a: NoiseArg) -> NoiseType {
        match a {
            NoiseArg::Value => NoiseType::Value,
            NoiseArg::Perlin => NoiseType::Perlin,
            NoiseArg::Simplex => NoiseType::Simplex,
            NoiseArg::Cellular => NoiseType::Cellular,
        }
    }
}

/// Fractal names.
#[derive(Clone, Copy, ValueEnum)]
pub enum FractalArg {
    /// One octave.
    None,
    /// fBm.
    Fbm,
    /// Ridged.
    Ridged,
    /// Billow.
    Billow,
}

impl From<FractalArg> for FractalType {
    fn from(a: FractalArg) -> FractalType {
        match a {
            FractalArg::None => FractalType::None,
            FractalArg::Fbm => FractalType::Fbm,
            FractalArg::Ridged => FractalType::Ridged,
            FractalArg::Billow => FractalType::Billow,
        }
    }
}

/// Precision names.
#[derive(Clone, Copy, ValueEnum)]
pub enum PrecisionArg {
    /// Double precision (the default).
    F64,
    /// Single precision: its own noise, about twice as fast, as exact far out.
    F32,
}

impl From<PrecisionArg> for Precision {
    fn from(a: PrecisionArg) -> Precision {
        match a {
            PrecisionArg::F64 => Precision::F64,
            PrecisionArg::F32 => Precision::F32,
        }
    }
}

/// Arguments of `stratagen noise`.
#[derive(Args)]
pub struct NoiseArgs {
    /// Base noise.
    #[arg(long = "type", value_enum, default_value = "perlin")]
    pub noise_type: NoiseArg,
    /// Fractal.
    #[arg(long, value_enum, default_value = "fbm")]
    pub fractal: FractalArg,
    /// Octaves, 1..=16.
    #[arg(long, default_value_t = 5)]
    pub octaves: u32,
    /// Frequency multiplier per octave (> 0).
    #[arg(long, default_value_t = 2.0)]
    pub lacunarity: f64,
    /// Amplitude multiplier per octave (>= 0).
    #[arg(long, default_value_t = 0.5)]
    pub persistence: f64,
    /// Feature size in pixels (frequency = 1 / scale), > 0.
    #[arg(long, default_value_t = 64.0)]
    pub scale: f64,
    /// Sampling offset in pixels, X,Y.
    #[arg(long, default_value = "0,0", value_parser = parse_fpair, allow_hyphen_values = true)]
    pub offset: (f64, f64),
    /// Seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// Contrast around mid-grey, 0..=10 (1: unchanged).
    #[arg(long, default_value_t = 1.0)]
    pub contrast: f64,
    /// Brightness shift, -1..=1.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub brightness: f64,
    /// Palette: gray, terrain, fire, ice, magma, or 2-6 colours "rrggbb,rrggbb,...".
    #[arg(long, default_value = "gray")]
    pub palette: String,
    /// Image size WxH, each side 1..=8192.
    #[arg(long, default_value = "256x256", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Wrap seamlessly on both axes (value and perlin; f64 only).
    #[arg(long)]
    pub tileable: bool,
    /// Arithmetic precision.
    #[arg(long, value_enum, default_value = "f64")]
    pub precision: PrecisionArg,
    /// Output: a PNG image, or `.raw` for the samples themselves (little-endian `f32`, row
    /// by row, pixel (x, y) sampled at (x, y)).
    #[arg(long, default_value = "noise.png")]
    pub out: PathBuf,
}

/// Run `stratagen noise`.
pub fn run(a: NoiseArgs) -> Result<(), CliError> {
    let scale = finite("scale", a.scale)?;
    if scale <= 0.0 {
        return Err(usage(format!("--scale {scale}: must be > 0")));
    }
    let def = NoiseDef {
        seed: a.seed,
        noise_type: a.noise_type.into(),
        fractal: a.fractal.into(),
        octaves: a.octaves,
        lacunarity: finite("lacunarity", a.lacunarity)?,
        gain: finite("persistence", a.persistence)?,
        frequency: 1.0 / scale,
        offset: [a.offset.0, a.offset.1, 0.0],
        precision: a.precision.into(),
        ..NoiseDef::default()
    };
    if a.tileable && def.precision == Precision::F32 {
        return Err(usage(
            "--tileable samples the 4D f64 noise; it has no --precision f32".to_string(),
        ));
    }
    if a.out.extension().and_then(|e| e.to_str()) == Some("raw") {
        return write_raw(&def, a.size, a.tileable, &a.out);
    }
    let img = noise_image(&NoiseImage {
        def,
        contrast: finite("contrast", a.contrast)?,
        brightness: finite("brightness", a.brightness)?,
        palette: palette(&a.palette)?,
        width: a.size.0,
        height: a.size.1,
        tileable: a.tileable,
    })?;
    write_atomic(
        &a.out,
        &encode_png(img.width, img.height, 3, false, &img.rgb)?,
    )?;
    println!(
        "wrote {} ({}x{} px)",
        a.out.display(),
        img.width,
        img.height
    );
    Ok(())
}

/// The samples of a `width × height` image as little-endian `f32`, row by row.
fn write_raw(
    def: &NoiseDef,
    (width, height): (usize, usize),
    tileable: bool,
    out: &std::path::Path,
) -> Result<(), CliError> {
    if tileable {
        return Err(usage("--tileable writes images only, not .raw".to_string()));
    }
    check_size(width, height)?;
    let mut samples = vec![0f32; width * height];
    def.build()?
        .fill_2d_f32(&Grid2::pixels(width, height), &mut samples)?;
    let bytes: Vec<u8> = samples.iter().flat_map(|v| v.to_le_bytes()).collect();
    write_atomic(out, &bytes)?;
    println!("wrote {} ({width}x{height} f32 samples)", out.display());
    Ok(())
}
