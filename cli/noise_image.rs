//! Noise images: palettes, contrast and brightness, tileable images on a 4D torus.

use stratagen_core::noise::{perlin4, FractalType, Grid2, NoiseType};
use stratagen_core::util::random::mix_stafford13;

use crate::error::{usage, CliError};
use crate::map::Image;

/// A colour palette of 2 to 6 stops, interpolated linearly.
pub fn palette(name: &str) -> Result<Vec<[u8; 3]>, CliError> {
    let named: &[[u8; 3]] = match name {
        "gray" | "grey" => &[[0, 0, 0], [255, 255, 255]],
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
        _ => &[],
    };
    if !named.is_empty() {
        return Ok(named.to_vec());
    }
    let stops: Result<Vec<[u8; 3]>, CliError> = name
        .split(',')
        .map(|h| {
            let h = h.trim().trim_start_matches('#');
            if h.len() != 6 {
                return Err(usage(format!("palette colour {h:?}: expected rrggbb")));
            }
            let v = u32::from_str_radix(h, 16)
                .map_err(|_| usage(format!("palette colour {h:?}: not hexadecimal")))?;
            Ok([(v >> 16) as u8, (v >> 8) as u8, v as u8])
        })
        .collect();
    let stops =
        stops.map_err(|e| usage(format!("{e} (or use gray, terrain, fire, ice, magma)")))?;
    if !(2..=6).contains(&stops.len()) {
        return Err(usage(format!(
            "palette {name:?}: 2 to 6 colours, or gray, terrain, fire, ice, magma"
        )));
    }
    Ok(stops)
}

fn shade(stops: &[[u8; 3]], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (t.floor() as usize).min(stops.len() - 2);
    let f = t - i as f64;
    let mut c = [0u8; 3];
    for k in 0..3 {
        c[k] =
            (stops[i][k] as f64 + (stops[i + 1][k] as f64 - stops[i][k] as f64) * f).round() as u8;
    }
    c
}

/// Settings of a noise image.
#[derive(Clone, Debug)]
pub struct NoiseImage {
    /// Base noise and fractal settings (frequency = 1 / scale, offset in pixels).
    pub def: stratagen_core::noise::NoiseDef,
    /// Contrast multiplier around mid-grey, 0..=10 (1: unchanged).
    pub contrast: f64,
    /// Brightness shift, -1..=1 (0: unchanged).
    pub brightness: f64,
    /// Colour stops.
    pub palette: Vec<[u8; 3]>,
    /// Image size.
    pub width: usize,
    /// Image size.
    pub height: usize,
    /// Wrap on both axes by sampling a 4D torus (value and Perlin only).
    pub tileable: bool,
}

/// An image size: each side 1..=8192 pixels.
pub fn check_size(width: usize, height: usize) -> Result<(), CliError> {
    if !(1..=8192).contains(&width) || !(1..=8192).contains(&height) {
        return Err(usage(format!(
            "size {width}x{height}: each side must be 1..=8192"
        )));
    }
    Ok(())
}

/// Render a noise image. Each sample `v` in `[-1, 1]` maps to `t = (v + 1) / 2`, then
/// `t' = clamp((t − 0.5) · contrast + 0.5 + brightness, 0, 1)`, then the palette.
pub fn noise_image(n: &NoiseImage) -> Result<Image, CliError> {
    check_size(n.width, n.height)?;
    if !(n.contrast.is_finite() && (0.0..=10.0).contains(&n.contrast)) {
        return Err(usage(format!("contrast {}: must be in 0..=10", n.contrast)));
    }
    if !(n.brightness.is_finite() && (-1.0..=1.0).contains(&n.brightness)) {
        return Err(usage(format!(
            "brightness {}: must be in -1..=1",
            n.brightness
        )));
    }
    let vals = if n.tileable {
        torus_samples(n)?
    } else {
        let g = Grid2 {
            x0: 0.0,
            y0: 0.0,
            dx: 1.0,
            dy: 1.0,
            width: n.width,
            height: n.height,
        };
        let mut vals = vec![0.0f64; n.width * n.height];
        n.def.build()?.fill_2d(&g, &mut vals)?;
        vals
    };
    let mut rgb = vec![0u8; vals.len() * 3];
    for (k, v) in vals.iter().enumerate() {
        let t = ((v + 1.0) * 0.5 - 0.5) * n.contrast + 0.5 + n.brightness;
        rgb[k * 3..k * 3 + 3].copy_from_slice(&shade(&n.palette, t));
    }
    Ok(Image {
        width: n.width,
        height: n.height,
        rgb,
    })
}

/// Samples of a tileable image: a torus in 4D, each image axis a circle whose circumference
/// is the image side in noise cells, so both axes wrap exactly (Perlin 4D octaves).
fn torus_samples(n: &NoiseImage) -> Result<Vec<f64>, CliError> {
    if !matches!(n.def.noise_type, NoiseType::Perlin | NoiseType::Value) {
        return Err(usage("--tileable supports --type perlin and value"));
    }
    n.def.build()?;
    let tau = std::f64::consts::TAU;
    let f0 = n.def.frequency;
    let (rx, ry) = (n.width as f64 * f0 / tau, n.height as f64 * f0 / tau);
    let octaves = if n.def.fractal == FractalType::None {
        1
    } else {
        n.def.octaves
    };
    let (mut amp, mut total) = (1.0, 0.0);
    let mut weights = Vec::new();
    for _ in 0..octaves {
        weights.push(amp);
        total += amp;
        amp *= n.def.gain;
    }
    let mut vals = vec![0.0f64; n.width * n.height];
    for j in 0..n.height {
        let phi = tau * (j as f64 + n.def.offset[1]) / n.height as f64;
        for i in 0..n.width {
            let th = tau * (i as f64 + n.def.offset[0]) / n.width as f64;
            let mut acc = 0.0;
            let mut scale = 1.0;
            for (o, w) in weights.iter().enumerate() {
                let seed = mix_stafford13(n.def.seed as u64 ^ (o as u64 + 1));
                let p = [
                    rx * th.cos() * scale,
                    rx * th.sin() * scale,
                    ry * phi.cos() * scale,
                    ry * phi.sin() * scale,
                ];
                let v = perlin4(seed, p[0], p[1], p[2], p[3]);
                let v = match n.def.fractal {
                    FractalType::Ridged => 1.0 - 2.0 * v.abs(),
                    FractalType::Billow => 2.0 * v.abs() - 1.0,
                    _ => v,
                };
                acc += v * w;
                scale *= n.def.lacunarity;
            }
            vals[j * n.width + i] = acc / total;
        }
    }
    Ok(vals)
}
