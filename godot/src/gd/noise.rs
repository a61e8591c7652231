//! `StratagenNoise`: the noise definition as a `Resource` with the fields of the C
//! `sg_noise_def`. It extends `Resource`, not Godot's `Noise`: `Noise` exposes no virtual
//! methods to extensions (godot-rust generates it as a final class), so a subclass could not
//! supply its samples.

use std::cell::RefCell;

use godot::classes::image::Format;
use godot::classes::{IResource, Image, Resource};
use godot::prelude::*;
use stratagen_core::noise::{Grid2, Noise};

use crate::noise_settings::{shader_code, NoiseCache, NoiseSettings};

/// Stratagen noise as a resource: deterministic on every machine, the same numbers as the C
/// and Rust APIs for the same settings.
/// The `#[init]` values are those of `NoiseSettings::default()`: keep the two equal.
#[derive(GodotClass)]
#[class(init, base = Resource)]
pub struct StratagenNoise {
    /// 0 value, 1 Perlin, 2 simplex, 3 cellular (`sg_noise_type`).
    #[export]
    #[init(val = 1)]
    noise_type: i32,
    /// Seed.
    #[export]
    seed: i64,
    /// 0 none, 1 fBm, 2 ridged, 3 billow (`sg_fractal`).
    #[export]
    #[init(val = 1)]
    fractal: i32,
    /// Octaves, 1..=16.
    #[export]
    #[init(val = 4)]
    octaves: i32,
    /// Cycles per unit.
    #[export]
    #[init(val = 0.01)]
    frequency: f64,
    /// Frequency multiplier per octave.
    #[export]
    #[init(val = 2.0)]
    lacunarity: f64,
    /// Amplitude multiplier per octave.
    #[export]
    #[init(val = 0.5)]
    gain: f64,
    /// Domain-warp amplitude (0: none).
    #[export]
    warp_amplitude: f64,
    /// Domain-warp frequency.
    #[export]
    #[init(val = 0.01)]
    warp_frequency: f64,
    /// 0 Euclidean, 1 Manhattan.
    #[export]
    cellular_distance: i32,
    /// 0 F1, 1 F2, 2 F2 − F1, 3 cell value.
    #[export]
    cellular_return: i32,
    /// Cellular jitter, 0..=1.
    #[export]
    #[init(val = 1.0)]
    cellular_jitter: f64,
    /// 0 double precision, 1 single (`sg_precision`): its own noise, about twice as fast to
    /// fill, as exact far from the origin.
    #[export]
    precision: i32,
    /// The noise of the last settings sampled, rebuilt when a property changes.
    cache: RefCell<NoiseCache>,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for StratagenNoise {}

#[godot_api]
impl StratagenNoise {
    /// The exported properties.
    fn settings(&self) -> NoiseSettings {
        NoiseSettings {
            noise_type: self.noise_type,
            seed: self.seed,
            fractal: self.fractal,
            octaves: self.octaves,
            frequency: self.frequency,
            lacunarity: self.lacunarity,
            gain: self.gain,
            warp_amplitude: self.warp_amplitude,
            warp_frequency: self.warp_frequency,
            cellular_distance: self.cellular_distance,
            cellular_return: self.cellular_return,
            cellular_jitter: self.cellular_jitter,
            precision: self.precision,
        }
    }

    /// The noise at (x, y), or 0 with an error printed if the settings are invalid.
    #[func]
    fn get_noise_2d(&self, x: f64, y: f64) -> f64 {
        self.sample(|n| n.sample_2d(x, y))
    }

    /// The noise at (x, y, z), or 0 with an error printed if the settings are invalid.
    #[func]
    fn get_noise_3d(&self, x: f64, y: f64, z: f64) -> f64 {
        self.sample(|n| n.sample_3d(x, y, z))
    }

    /// The noise as a Godot shader function `float sg_noise_2d(vec2 p)` that gives the same
    /// samples as `get_noise_2d` (single precision only: set `precision` to 1); an empty
    /// string with an error printed otherwise.
    #[func]
    fn get_shader_code(&self) -> GString {
        self.shader(2)
    }

    /// As `get_shader_code`, for `float sg_noise_3d(vec3 p)`.
    #[func]
    fn get_shader_code_3d(&self) -> GString {
        self.shader(3)
    }

    fn shader(&self, dims: u32) -> GString {
        match shader_code(&mut self.cache.borrow_mut(), &self.settings(), dims) {
            Ok(code) => GString::from(code.as_str()),
            Err(e) => {
                godot_error!("StratagenNoise: {e}");
                GString::new()
            }
        }
    }

    fn sample(&self, f: impl FnOnce(&Noise) -> f64) -> f64 {
        match self.cache.borrow_mut().get(&self.settings()) {
            Ok(n) => f(n),
            Err(e) => {
                godot_error!("StratagenNoise: {e}");
                0.0
            }
        }
    }

    /// A `width × height` grey image of the noise over (x0, y0) with `step` units per pixel,
    /// mapped from [-1, 1] to [0, 1]; null with an error printed on invalid settings.
    #[func]
    fn make_image(
        &self,
        width: i32,
        height: i32,
        x0: f64,
        y0: f64,
        step: f64,
    ) -> Option<Gd<Image>> {
        let mut cache = self.cache.borrow_mut();
        let n = match cache.get(&self.settings()) {
            Ok(n) => n,
            Err(e) => {
                godot_error!("StratagenNoise: {e}");
                return None;
            }
        };
        let (w, h) = (usize::try_from(width).ok()?, usize::try_from(height).ok()?);
        if w == 0 || h == 0 || w > 16384 || h > 16384 {
            godot_error!("StratagenNoise: image size must be 1..=16384");
            return None;
        }
        let mut v = vec![0f32; w * h];
        let g = Grid2 {
            x0,
            y0,
            dx: step,
            dy: step,
            width: w,
            height: h,
        };
        if let Err(e) = n.fill_2d_f32(&g, &mut v) {
            godot_error!("StratagenNoise: {e}");
            return None;
        }
        let mut img = Image::create(width, height, false, Format::L8)?;
        for (i, s) in v.iter().enumerate() {
            let g = ((f64::from(*s) + 1.0) * 0.5).clamp(0.0, 1.0) as f32;
            img.set_pixel((i % w) as i32, (i / w) as i32, Color::from_rgb(g, g, g));
        }
        Some(img)
    }
}
