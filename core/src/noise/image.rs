//! Noise images: a noise's samples through contrast, brightness and a palette of 2 to 6
//! colour stops into 8-bit RGB, and tileable images sampled on a 4D torus. Every host
//! renders through this one function, so the command line's PNG and a page's canvas hold
//! the same pixels.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::noise::def::{FractalType, NoiseDef, NoiseError, NoiseType, Precision};
use crate::noise::fill::{Grid2, OwnSamples};
use crate::noise::lattice::perlin4;
use crate::util::math::{abs, clamp, cos, floor, round, sin};
use crate::util::random::mix_stafford13;

/// Largest image side, in pixels.
pub const MAX_IMAGE_SIDE: usize = 8192;
/// Fewest colour stops a palette has.
pub const MIN_STOPS: usize = 2;
/// Most colour stops a palette has.
pub const MAX_STOPS: usize = 6;
/// Largest contrast (1: unchanged).
pub const MAX_CONTRAST: f64 = 10.0;
/// Largest brightness shift, either way (0: unchanged).
pub const MAX_BRIGHTNESS: f64 = 1.0;
/// The named palettes, as [`named_palette`] knows them.
pub const PALETTE_NAMES: [&str; 5] = ["gray", "terrain", "fire", "ice", "magma"];

/// How a noise's samples become colours. [`ImageDef::default`] is an unchanged grey ramp.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageDef {
    /// Contrast around mid-grey, `0..=10`. Default 1 (unchanged).
    pub contrast: f64,
    /// Brightness shift, `-1..=1`. Default 0.
    pub brightness: f64,
    /// Colour stops from the lowest sample to the highest, 2 to 6, interpolated linearly.
    /// Default black to white.
    pub palette: Vec<[u8; 3]>,
    /// Wrap seamlessly on both axes: the image is sampled on a 4D torus whose circles are
    /// the image's sides (value and Perlin noise, `f64` only). Default false.
    pub tileable: bool,
}

impl Default for ImageDef {
    fn default() -> Self {
        ImageDef {
            contrast: 1.0,
            brightness: 0.0,
            palette: GRAY.to_vec(),
            tileable: false,
        }
    }
}

/// Why an image was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ImageError {
    /// A side outside `1..=MAX_IMAGE_SIDE`.
    Size {
        /// Width asked for, in pixels.
        width: usize,
        /// Height asked for, in pixels.
        height: usize,
    },
    /// Contrast outside `0..=10` or not finite.
    Contrast(f64),
    /// Brightness outside `-1..=1` or not finite.
    Brightness(f64),
    /// A palette that is not 2 to 6 `rrggbb` colours nor a named palette.
    Palette(String),
    /// A tileable image of a noise other than value or Perlin, or of `f32` precision.
    Tileable(&'static str),
    /// The noise was refused.
    Noise(NoiseError),
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::Size { width, height } => write!(
                f,
                "size {width}x{height}: each side must be 1..={MAX_IMAGE_SIDE}"
            ),
            ImageError::Contrast(c) => write!(f, "contrast {c}: must be in 0..={MAX_CONTRAST}"),
            ImageError::Brightness(b) => write!(
                f,
                "brightness {b}: must be in -{MAX_BRIGHTNESS}..={MAX_BRIGHTNESS}"
            ),
            ImageError::Palette(why) => f.write_str(why),
            ImageError::Tileable(why) => f.write_str(why),
            ImageError::Noise(e) => write!(f, "{e}"),
        }
    }
}

impl From<NoiseError> for ImageError {
    fn from(e: NoiseError) -> Self {
        ImageError::Noise(e)
    }
}

const GRAY: [[u8; 3]; 2] = [[0, 0, 0], [255, 255, 255]];

/// The stops of a named palette (`gray` or `grey`, `terrain`, `fire`, `ice`, `magma`).
pub fn named_palette(name: &str) -> Option<&'static [[u8; 3]]> {
    Some(match name {
        "gray" | "grey" => &GRAY,
        "terrain" => &[
            [20, 40, 120],
            [40, 90, 200],
            [230, 220, 160],
            [70, 150, 60],
            [120, 100, 80],
            [250, 250, 250],
        ],
        "fire" => &[
            [0, 0, 0],
            [150, 20, 0],
            [240, 120, 0],
            [255, 220, 60],
            [255, 255, 230],
        ],
        "ice" => &[[10, 20, 60], [40, 140, 200], [200, 240, 255]],
        "magma" => &[
            [0, 0, 4],
            [80, 18, 123],
            [183, 55, 121],
            [252, 137, 97],
            [252, 253, 191],
        ],
        _ => return None,
    })
}

/// A palette from its name or from 2 to 6 colours `rrggbb,rrggbb,...` (each may start
/// with `#`).
pub fn parse_palette(text: &str) -> Result<Vec<[u8; 3]>, ImageError> {
    if let Some(stops) = named_palette(text) {
        return Ok(stops.to_vec());
    }
    let names = PALETTE_NAMES.join(", ");
    let mut stops = Vec::new();
    for h in text.split(',') {
        let h = h.trim().trim_start_matches('#');
        let v = match u32::from_str_radix(h, 16) {
            Ok(v) if h.len() == 6 => v,
            _ => {
                return Err(ImageError::Palette(alloc::format!(
                    "palette colour {h:?}: expected rrggbb (or use {names})"
                )))
            }
        };
        stops.push([(v >> 16) as u8, (v >> 8) as u8, v as u8]);
    }
    if !(MIN_STOPS..=MAX_STOPS).contains(&stops.len()) {
        return Err(ImageError::Palette(alloc::format!(
            "palette {text:?}: {MIN_STOPS} to {MAX_STOPS} colours, or {names}"
        )));
    }
    Ok(stops)
}

/// The colour of `t` (clamped to `[0, 1]`) between the stops.
fn shade(stops: &[[u8; 3]], t: f64) -> [u8; 3] {
    let t = clamp(t, 0.0, 1.0) * (stops.len() - 1) as f64;
    let i = core::cmp::min(floor(t) as usize, stops.len() - 2);
    let f = t - i as f64;
    let mut c = [0u8; 3];
    for k in 0..3 {
        let (a, b) = (f64::from(stops[i][k]), f64::from(stops[i + 1][k]));
        c[k] = round(a + (b - a) * f) as u8;
    }
    c
}

/// The `width × height` image of the noise `noise` (pixel `(x, y)` sampled at `(x, y)`, so
/// `noise.frequency` is one over the feature size in pixels) as 8-bit RGB, row by row. Each
/// sample `v` in `[-1, 1]` maps to `t = (v + 1) / 2`, then to
/// `clamp((t − 0.5) · contrast + 0.5 + brightness, 0, 1)`, then to the palette.
pub fn noise_image(
    noise: &NoiseDef,
    width: usize,
    height: usize,
    image: &ImageDef,
) -> Result<Vec<u8>, ImageError> {
    if !(1..=MAX_IMAGE_SIDE).contains(&width) || !(1..=MAX_IMAGE_SIDE).contains(&height) {
        return Err(ImageError::Size { width, height });
    }
    if !(image.contrast.is_finite() && (0.0..=MAX_CONTRAST).contains(&image.contrast)) {
        return Err(ImageError::Contrast(image.contrast));
    }
    if !(image.brightness.is_finite() && abs(image.brightness) <= MAX_BRIGHTNESS) {
        return Err(ImageError::Brightness(image.brightness));
    }
    if !(MIN_STOPS..=MAX_STOPS).contains(&image.palette.len()) {
        return Err(ImageError::Palette(alloc::format!(
            "a palette of {} colours: {MIN_STOPS} to {MAX_STOPS}",
            image.palette.len()
        )));
    }
    let samples = if image.tileable {
        torus_samples(noise, width, height)?
    } else {
        // In the noise's own precision, then widened (exactly, as `fill_2d` widens an `f32`
        // noise's samples): an image links no fill of the other precision.
        let (noise, grid) = (noise.build()?, Grid2::pixels(width, height));
        match noise.precision() {
            Precision::F64 => {
                let mut samples = vec![0.0f64; width * height];
                noise.fill_2d_own(&grid, OwnSamples::F64(&mut samples))?;
                samples
            }
            Precision::F32 => {
                let mut narrow = vec![0.0f32; width * height];
                noise.fill_2d_own(&grid, OwnSamples::F32(&mut narrow))?;
                narrow.into_iter().map(f64::from).collect()
            }
        }
    };
    let mut rgb = vec![0u8; samples.len() * 3];
    for (c, v) in rgb.chunks_exact_mut(3).zip(&samples) {
        let t = ((v + 1.0) * 0.5 - 0.5) * image.contrast + 0.5 + image.brightness;
        c.copy_from_slice(&shade(&image.palette, t));
    }
    Ok(rgb)
}

/// Samples of a tileable image: a torus in 4D, each image axis a circle whose circumference
/// is the image side in noise cells, so both axes wrap exactly (Perlin 4D octaves).
fn torus_samples(noise: &NoiseDef, width: usize, height: usize) -> Result<Vec<f64>, ImageError> {
    if !matches!(noise.noise_type, NoiseType::Perlin | NoiseType::Value) {
        return Err(ImageError::Tileable(
            "a tileable image is of value or Perlin noise",
        ));
    }
    if noise.precision == Precision::F32 {
        return Err(ImageError::Tileable(
            "a tileable image samples the 4D f64 noise: it has no f32 precision",
        ));
    }
    noise.build()?;
    let tau = core::f64::consts::TAU;
    let f0 = noise.frequency;
    let (rx, ry) = (width as f64 * f0 / tau, height as f64 * f0 / tau);
    let octaves = if noise.fractal == FractalType::None {
        1
    } else {
        noise.octaves
    };
    let (mut amp, mut total) = (1.0, 0.0);
    let mut weights = Vec::new();
    for _ in 0..octaves {
        weights.push(amp);
        total += amp;
        amp *= noise.gain;
    }
    let mut samples = vec![0.0f64; width * height];
    for j in 0..height {
        let phi = tau * (j as f64 + noise.offset[1]) / height as f64;
        for i in 0..width {
            let th = tau * (i as f64 + noise.offset[0]) / width as f64;
            let mut acc = 0.0;
            let mut scale = 1.0;
            for (o, w) in weights.iter().enumerate() {
                let seed = mix_stafford13(noise.seed as u64 ^ (o as u64 + 1));
                let p = [
                    rx * cos(th) * scale,
                    rx * sin(th) * scale,
                    ry * cos(phi) * scale,
                    ry * sin(phi) * scale,
                ];
                let v = perlin4(seed, p[0], p[1], p[2], p[3]);
                let v = match noise.fractal {
                    FractalType::Ridged => 1.0 - 2.0 * abs(v),
                    FractalType::Billow => 2.0 * abs(v) - 1.0,
                    _ => v,
                };
                acc += v * w;
                scale *= noise.lacunarity;
            }
            samples[j * width + i] = acc / total;
        }
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_interpolate_and_clamp() {
        let gray = named_palette("gray").unwrap();
        assert_eq!(shade(gray, 0.0), [0, 0, 0]);
        assert_eq!(shade(gray, 1.0), [255, 255, 255]);
        // 127.5 rounds half away from zero.
        assert_eq!(shade(gray, 0.5), [128, 128, 128]);
        assert_eq!(shade(gray, -3.0), [0, 0, 0]);
        assert_eq!(shade(gray, 7.0), [255, 255, 255]);
        let three = [[0, 0, 0], [10, 20, 30], [255, 255, 255]];
        assert_eq!(shade(&three, 0.5), [10, 20, 30]);
        assert_eq!(shade(&three, 0.25), [5, 10, 15]);
    }

    #[test]
    fn palettes_parse_or_are_refused() {
        assert_eq!(
            parse_palette("#ff0000, 00ff00").unwrap(),
            vec![[255, 0, 0], [0, 255, 0]]
        );
        assert_eq!(parse_palette("grey").unwrap(), GRAY.to_vec());
        for name in PALETTE_NAMES {
            let stops = named_palette(name).unwrap();
            assert!((MIN_STOPS..=MAX_STOPS).contains(&stops.len()), "{name}");
        }
        let seven = ["aabbcc"; 7].join(",");
        for bad in ["mauve", "000000", "12345g,000000", "0,1", seven.as_str()] {
            assert!(
                matches!(parse_palette(bad), Err(ImageError::Palette(_))),
                "{bad}"
            );
        }
    }

    /// With contrast 0 every sample maps to mid-grey plus the brightness: a known image.
    #[test]
    fn zero_contrast_is_flat() {
        let noise = NoiseDef::default();
        let image = ImageDef {
            contrast: 0.0,
            brightness: 0.25,
            ..ImageDef::default()
        };
        let rgb = noise_image(&noise, 7, 5, &image).unwrap();
        assert_eq!(rgb.len(), 7 * 5 * 3);
        // 0.75 × 255 = 191.25.
        assert!(rgb.iter().all(|&c| c == 191));
    }

    #[test]
    fn bad_images_are_refused() {
        let n = NoiseDef::default();
        let d = ImageDef::default();
        let with = |f: fn(&mut ImageDef)| {
            let mut d = ImageDef::default();
            f(&mut d);
            noise_image(&n, 4, 4, &d)
        };
        assert!(matches!(
            noise_image(&n, 0, 4, &d),
            Err(ImageError::Size { .. })
        ));
        assert!(matches!(
            noise_image(&n, MAX_IMAGE_SIDE + 1, 4, &d),
            Err(ImageError::Size { .. })
        ));
        assert!(matches!(
            with(|d| d.contrast = f64::NAN),
            Err(ImageError::Contrast(_))
        ));
        assert!(matches!(
            with(|d| d.brightness = 1.5),
            Err(ImageError::Brightness(_))
        ));
        assert!(matches!(
            with(|d| d.palette.truncate(1)),
            Err(ImageError::Palette(_))
        ));
        let simplex = NoiseDef {
            noise_type: NoiseType::Simplex,
            ..NoiseDef::default()
        };
        let tiled = ImageDef {
            tileable: true,
            ..ImageDef::default()
        };
        assert!(matches!(
            noise_image(&simplex, 4, 4, &tiled),
            Err(ImageError::Tileable(_))
        ));
        let nan = NoiseDef {
            frequency: f64::NAN,
            ..NoiseDef::default()
        };
        assert!(matches!(
            noise_image(&nan, 4, 4, &d),
            Err(ImageError::Noise(_))
        ));
    }
}
