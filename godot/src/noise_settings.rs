//! The settings of `StratagenNoise` as Godot stores them (enums as integers), and the noise
//! built from them, kept until a setting changes: a script calling `get_noise_2d` in a loop
//! pays for one sample, not for validating and building the noise each time.

use stratagen_core::noise::{
    CellularDistance, CellularReturn, FractalType, Noise, NoiseDef, NoiseType, Precision,
    ShaderLanguage,
};

/// `StratagenNoise`'s exported properties.
#[derive(Clone, Copy, Debug)]
pub struct NoiseSettings {
    /// 0 value, 1 Perlin, 2 simplex, 3 cellular.
    pub noise_type: i32,
    /// Seed.
    pub seed: i64,
    /// 0 none, 1 fBm, 2 ridged, 3 billow.
    pub fractal: i32,
    /// Octaves, 1..=16.
    pub octaves: i32,
    /// Cycles per unit.
    pub frequency: f64,
    /// Frequency multiplier per octave.
    pub lacunarity: f64,
    /// Amplitude multiplier per octave.
    pub gain: f64,
    /// Domain-warp amplitude (0: none).
    pub warp_amplitude: f64,
    /// Domain-warp frequency.
    pub warp_frequency: f64,
    /// 0 Euclidean, 1 Manhattan.
    pub cellular_distance: i32,
    /// 0 F1, 1 F2, 2 F2 − F1, 3 cell value.
    pub cellular_return: i32,
    /// Cellular jitter, 0..=1.
    pub cellular_jitter: f64,
    /// 0 double precision, 1 single (its own noise, about twice as fast to fill).
    pub precision: i32,
}

/// The defaults of `StratagenNoise`'s properties (its `#[init]` values): Perlin fBm, 4
/// octaves, frequency 0.01.
impl Default for NoiseSettings {
    fn default() -> Self {
        NoiseSettings {
            noise_type: 1,
            seed: 0,
            fractal: 1,
            octaves: 4,
            frequency: 0.01,
            lacunarity: 2.0,
            gain: 0.5,
            warp_amplitude: 0.0,
            warp_frequency: 0.01,
            cellular_distance: 0,
            cellular_return: 0,
            cellular_jitter: 1.0,
            precision: 0,
        }
    }
}

impl NoiseSettings {
    /// Whether `other` is the same settings, floats compared by their bits (so a NaN setting
    /// equals itself and is not rebuilt, and refused, on every sample).
    fn same(&self, other: &NoiseSettings) -> bool {
        let ints = |s: &NoiseSettings| {
            (
                s.noise_type,
                s.seed,
                s.fractal,
                s.octaves,
                s.cellular_distance,
                s.cellular_return,
                s.precision,
            )
        };
        let floats = |s: &NoiseSettings| {
            [
                s.frequency,
                s.lacunarity,
                s.gain,
                s.warp_amplitude,
                s.warp_frequency,
                s.cellular_jitter,
            ]
            .map(f64::to_bits)
        };
        ints(self) == ints(other) && floats(self) == floats(other)
    }

    /// The core noise for these settings, or the reason they are refused.
    pub fn build(&self) -> Result<Noise, String> {
        let pick = |v: i32, n: usize| usize::try_from(v).ok().filter(|&k| k < n);
        let noise_type = pick(self.noise_type, 4)
            .map(|k| {
                [
                    NoiseType::Value,
                    NoiseType::Perlin,
                    NoiseType::Simplex,
                    NoiseType::Cellular,
                ][k]
            })
            .ok_or("noise_type must be 0..=3")?;
        let fractal = pick(self.fractal, 4)
            .map(|k| {
                [
                    FractalType::None,
                    FractalType::Fbm,
                    FractalType::Ridged,
                    FractalType::Billow,
                ][k]
            })
            .ok_or("fractal must be 0..=3")?;
        let cellular_distance = pick(self.cellular_distance, 2)
            .map(|k| [CellularDistance::Euclidean, CellularDistance::Manhattan][k])
            .ok_or("cellular_distance must be 0 or 1")?;
        let cellular_return = pick(self.cellular_return, 4)
            .map(|k| {
                [
                    CellularReturn::F1,
                    CellularReturn::F2,
                    CellularReturn::F2MinusF1,
                    CellularReturn::CellValue,
                ][k]
            })
            .ok_or("cellular_return must be 0..=3")?;
        let precision = pick(self.precision, 2)
            .map(|k| [Precision::F64, Precision::F32][k])
            .ok_or("precision must be 0 or 1")?;
        NoiseDef {
            seed: self.seed,
            noise_type,
            fractal,
            octaves: u32::try_from(self.octaves).map_err(|_| "octaves must be 1..=16")?,
            frequency: self.frequency,
            lacunarity: self.lacunarity,
            gain: self.gain,
            warp_amplitude: self.warp_amplitude,
            warp_frequency: self.warp_frequency,
            cellular_distance,
            cellular_return,
            cellular_jitter: self.cellular_jitter,
            precision,
            ..NoiseDef::default()
        }
        .build()
        .map_err(|e| e.to_string())
    }
}

/// The noise built from the last settings asked for.
#[derive(Default)]
pub struct NoiseCache {
    built: Option<(NoiseSettings, Result<Noise, String>)>,
}

impl NoiseCache {
    /// The noise for `settings`: the one built before if they are the same, else built now.
    pub fn get(&mut self, settings: &NoiseSettings) -> Result<&Noise, &str> {
        let fresh = match &self.built {
            Some((s, _)) => !s.same(settings),
            None => true,
        };
        if fresh {
            self.built = Some((*settings, settings.build()));
        }
        match &self.built {
            Some((_, Ok(n))) => Ok(n),
            Some((_, Err(e))) => Err(e),
            None => Err("no settings"),
        }
    }
}

/// The Godot shading language function of the settings' noise (`sg_noise_2d(vec2)` or, with
/// `dims` 3, `sg_noise_3d(vec3)`); single precision only.
pub fn shader_code(
    cache: &mut NoiseCache,
    settings: &NoiseSettings,
    dims: u32,
) -> Result<String, String> {
    let noise = cache.get(settings).map_err(str::to_string)?;
    noise
        .shader(ShaderLanguage::Godot, dims)
        .map_err(|e| format!("{e} (set precision to 1 for a shader)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shader text is the library's for the same settings; a double-precision noise is
    /// refused with the reason.
    #[test]
    fn shader_code_is_the_librarys() {
        let mut cache = NoiseCache::default();
        let mut s = NoiseSettings::default();
        let err = shader_code(&mut cache, &s, 2).unwrap_err();
        assert!(err.contains("f32") && err.contains("precision"), "{err}");
        s.precision = 1;
        let noise = s.build().unwrap();
        for dims in [2, 3] {
            let want = if dims == 3 {
                noise.shader_3d(ShaderLanguage::Godot)
            } else {
                noise.shader_2d(ShaderLanguage::Godot)
            };
            assert_eq!(shader_code(&mut cache, &s, dims), Ok(want.unwrap()));
        }
    }

    /// The cached noise gives the samples of a noise built from the same settings; a changed
    /// setting gives the new noise's samples; refused settings stay refused.
    #[test]
    fn cached_noise_follows_the_settings() {
        let mut cache = NoiseCache::default();
        let mut s = NoiseSettings::default();
        let direct = s.build().unwrap();
        for (x, y) in [(0.5, 0.25), (1e5, -3.0), (-77.0, 12.5)] {
            let got = cache.get(&s).unwrap().sample_2d(x, y);
            assert_eq!(got.to_bits(), direct.sample_2d(x, y).to_bits());
        }
        s.seed = 9;
        let reseeded = s.build().unwrap();
        let got = cache.get(&s).unwrap().sample_2d(3.5, 4.5);
        assert_eq!(got.to_bits(), reseeded.sample_2d(3.5, 4.5).to_bits());
        assert_ne!(got.to_bits(), direct.sample_2d(3.5, 4.5).to_bits());
        s.octaves = 0;
        assert!(cache.get(&s).is_err());
        s.frequency = f64::NAN;
        assert!(cache.get(&s).is_err());
        assert!(cache.get(&s).is_err(), "a NaN setting stays refused");
        s = NoiseSettings::default();
        assert_eq!(
            cache.get(&s).unwrap().sample_2d(0.5, 0.25).to_bits(),
            direct.sample_2d(0.5, 0.25).to_bits()
        );
        // Switching precision rebuilds: the f32 noise's samples, not the cached f64 ones.
        s.precision = 1;
        let single = NoiseDef {
            precision: Precision::F32,
            ..NoiseDef::default()
        }
        .build()
        .unwrap();
        let got = cache.get(&s).unwrap();
        assert_eq!(got.precision(), Precision::F32);
        assert_eq!(
            got.sample_2d(0.5, 0.25).to_bits(),
            single.sample_2d(0.5, 0.25).to_bits()
        );
        s.precision = 2;
        assert!(cache.get(&s).is_err());
    }
}
