//! The noise configuration: [`NoiseDef`] (plain data with documented defaults), its
//! validation into the immutable [`Noise`], and the settings enums.

use crate::noise::cellular::{CellularDistance, CellularParams, CellularReturn};
use crate::util::random::mix_stafford13;

/// The SIMD paths this machine runs, detected once per process: CPUID is slow under
/// virtualisation (several microseconds per query, and a build asks several), while the
/// answer never changes within a process and never changes an output (every path gives the
/// same bits). The only state `core` keeps.
#[derive(Clone, Copy)]
struct Paths {
    /// AVX2 fills.
    simd: bool,
    /// AVX-512 kernels (implies `simd`).
    avx512: bool,
    /// Fine octaves vectorised (see [`Noise::vector_fine_octaves`]).
    vector_fine: bool,
    /// 3D value/Perlin f64 fills in 512-bit vectors (see [`Noise::wide_lattice_3d`]).
    wide_lattice_3d: bool,
    /// SSSE3 byte shuffles (the paletted sections' unpack on x86-64, [`ssse3`]; with `alloc`).
    #[cfg_attr(not(all(feature = "alloc", target_arch = "x86_64")), allow(dead_code))]
    ssse3: bool,
}

#[cfg(target_arch = "x86_64")]
fn paths() -> Paths {
    use core::sync::atomic::{AtomicU8, Ordering};
    const KNOWN: u8 = 1 << 7;
    static DETECTED: AtomicU8 = AtomicU8::new(0);
    let mut bits = DETECTED.load(Ordering::Relaxed);
    if bits & KNOWN == 0 {
        // Two threads may both detect: they store the same answer.
        let avx512 = avx512_available();
        bits = KNOWN
            | u8::from(super::simd::available())
            | u8::from(avx512) << 1
            | u8::from(super::simd::fast_lane_multiply() || avx512) << 2
            | u8::from(avx512 && !super::simd::one_fma512_unit()) << 3
            | u8::from(super::simd::ssse3_available()) << 4;
        DETECTED.store(bits, Ordering::Relaxed);
    }
    Paths {
        simd: bits & 1 != 0,
        avx512: bits & 2 != 0,
        vector_fine: bits & 4 != 0,
        wide_lattice_3d: bits & 8 != 0,
        ssse3: bits & 16 != 0,
    }
}

/// Whether this machine runs SSSE3 code, from the process's one CPU check: what the
/// paletted sections' unpack (`world::sections`) asks before taking its shuffle path.
#[cfg_attr(not(all(feature = "alloc", target_arch = "x86_64")), allow(dead_code))]
pub(crate) fn ssse3() -> bool {
    paths().ssse3
}

#[cfg(not(target_arch = "x86_64"))]
fn paths() -> Paths {
    Paths {
        simd: false,
        avx512: false,
        vector_fine: false,
        wide_lattice_3d: false,
        ssse3: false,
    }
}

/// Whether this machine runs the AVX-512 kernels (and this build has them).
#[cfg(target_arch = "x86_64")]
fn avx512_available() -> bool {
    #[cfg(feature = "avx512")]
    {
        super::simd::avx512_available()
    }
    #[cfg(not(feature = "avx512"))]
    {
        false
    }
}

/// The maximum number of octaves.
pub const MAX_OCTAVES: u32 = 16;

/// Base noise type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum NoiseType {
    /// Value noise: random values on the lattice, quintic interpolation.
    Value = 0,
    /// Improved Perlin gradient noise.
    Perlin = 1,
    /// Simplex gradient noise.
    Simplex = 2,
    /// Cellular (Worley) noise; see the `cellular_*` fields of [`NoiseDef`].
    Cellular = 3,
}

/// How octaves are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FractalType {
    /// One octave of the base noise (the octave settings are ignored).
    None = 0,
    /// Fractional Brownian motion: the sum of octaves.
    Fbm = 1,
    /// Ridged: each octave contributes `1 − 2|n|` (sharp ridges where the noise crosses zero).
    Ridged = 2,
    /// Billow (turbulence): each octave contributes `2|n| − 1`.
    Billow = 3,
}

/// The arithmetic a noise is computed in. Each precision is its own noise (different bits,
/// the same character and ranges); both are bit-exact on every platform and lane width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Precision {
    /// IEEE binary64 throughout: the default, and the precision of the built-in worlds.
    F64 = 0,
    /// IEEE binary32 after each axis is split into an integer cell and an `f32` fraction
    /// (so far coordinates keep their precision), with 32-bit lattice hashes: twice the
    /// samples per vector instruction.
    F32 = 1,
}

/// Noise settings, plain data with documented defaults ([`NoiseDef::default`]).
///
/// Validate into a [`Noise`] with [`NoiseDef::build`]. Coordinates are in world units (blocks);
/// the sample position of octave `o` is `(p + offset) * frequency * lacunarity^o`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoiseDef {
    /// Seed. Default 0. Every octave and the warp derive their own seeds from it.
    pub seed: i64,
    /// Base noise. Default [`NoiseType::Perlin`].
    pub noise_type: NoiseType,
    /// Fractal. Default [`FractalType::Fbm`].
    pub fractal: FractalType,
    /// Octaves, `1..=16`. Default 4.
    pub octaves: u32,
    /// Base frequency in cycles per world unit, finite and `> 0`. Default 0.01.
    pub frequency: f64,
    /// Frequency multiplier between octaves, finite and `> 0`. Default 2.0.
    pub lacunarity: f64,
    /// Amplitude multiplier between octaves (persistence), finite and `>= 0`. Default 0.5.
    pub gain: f64,
    /// Added to every input coordinate before scaling (world units), finite. Default 0.
    pub offset: [f64; 3],
    /// Cellular distance function. Default Euclidean.
    pub cellular_distance: CellularDistance,
    /// Cellular output. Default F1.
    pub cellular_return: CellularReturn,
    /// Cellular feature-point jitter in `[0, 1]`. Default 0.65 (F1 is exact up to about 0.65
    /// with the 3 × 3 search; larger values can show small creases).
    pub cellular_jitter: f64,
    /// Domain warp displacement in world units, finite and `>= 0`; 0 disables the warp.
    /// Default 0. The input position is moved by `amplitude` times a simplex noise per axis.
    pub warp_amplitude: f64,
    /// Domain warp frequency in cycles per world unit, finite and `> 0`. Default 0.01.
    pub warp_frequency: f64,
    /// Arithmetic precision. Default [`Precision::F64`].
    pub precision: Precision,
}

impl Default for NoiseDef {
    fn default() -> Self {
        NoiseDef {
            seed: 0,
            noise_type: NoiseType::Perlin,
            fractal: FractalType::Fbm,
            octaves: 4,
            frequency: 0.01,
            lacunarity: 2.0,
            gain: 0.5,
            offset: [0.0; 3],
            cellular_distance: CellularDistance::Euclidean,
            cellular_return: CellularReturn::F1,
            cellular_jitter: 0.65,
            warp_amplitude: 0.0,
            warp_frequency: 0.01,
            precision: Precision::F64,
        }
    }
}

/// Why a definition, grid or buffer was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoiseError {
    /// A float setting is NaN or infinite (names the field).
    NotFinite(&'static str),
    /// `octaves` outside `1..=16`.
    OctavesOutOfRange(u32),
    /// A setting that must be positive is not (names the field).
    NotPositive(&'static str),
    /// A setting outside its documented range (names the field).
    OutOfRange(&'static str),
    /// A grid with a zero dimension, or one whose sample count overflows.
    EmptyGrid,
    /// A fill larger than a host allocates for one call ([`MAX_FILL_SAMPLES`]).
    ///
    /// [`MAX_FILL_SAMPLES`]: crate::noise::budget::MAX_FILL_SAMPLES
    FillTooLarge,
    /// The output buffer holds fewer samples than the grid.
    BufferTooSmall {
        /// Samples the grid needs.
        needed: usize,
        /// Samples the buffer holds.
        got: usize,
    },
    /// A grid coordinate, scaled by the highest octave frequency, exceeds 2^50 lattice cells
    /// (beyond which cell indices would lose exactness).
    CoordinateOutOfRange,
    /// A buffer of the other precision given to a fill in the noise's own precision (names
    /// the noise's).
    WrongPrecision(Precision),
}

impl core::fmt::Display for NoiseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NoiseError::NotFinite(n) => write!(f, "{} is NaN or infinite", n),
            NoiseError::OctavesOutOfRange(o) => write!(f, "octaves is {}, must be 1..=16", o),
            NoiseError::NotPositive(n) => write!(f, "{} must be > 0", n),
            NoiseError::OutOfRange(n) => write!(f, "{} is out of its documented range", n),
            NoiseError::EmptyGrid => write!(f, "grid has a zero or overflowing size"),
            NoiseError::FillTooLarge => write!(
                f,
                "a fill of more than {} samples is too large",
                crate::noise::budget::MAX_FILL_SAMPLES
            ),
            NoiseError::BufferTooSmall { needed, got } => {
                write!(f, "buffer holds {} samples, grid needs {}", got, needed)
            }
            NoiseError::CoordinateOutOfRange => {
                write!(f, "grid coordinates times frequency exceed 2^50 cells")
            }
            NoiseError::WrongPrecision(p) => {
                let name = match p {
                    Precision::F64 => "f64",
                    Precision::F32 => "f32",
                };
                write!(f, "the noise is {name}: its own fill writes {name} samples")
            }
        }
    }
}

/// The largest lattice coordinate a grid may reach.
pub(crate) const MAX_LATTICE: f64 = 1_125_899_906_842_624.0; // 2^50

/// A validated, immutable noise configuration. Cheap to copy; sample from any thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    pub(crate) precision: Precision,
    pub(crate) noise_type: NoiseType,
    pub(crate) fractal: FractalType,
    pub(crate) octaves: usize,
    pub(crate) freq: [f64; MAX_OCTAVES as usize],
    pub(crate) amp: [f64; MAX_OCTAVES as usize],
    pub(crate) seeds: [u64; MAX_OCTAVES as usize],
    pub(crate) norm: f64,
    pub(crate) offset: [f64; 3],
    pub(crate) cellular: CellularParams,
    pub(crate) warp_amplitude: f64,
    pub(crate) warp_frequency: f64,
    pub(crate) warp_seeds: [u64; 3],
    /// Fills take the AVX2 paths (only ever true where AVX2 runs).
    pub(crate) simd: bool,
    /// With `simd`: simplex fills take the AVX-512 rows and fine octaves of 2D value/Perlin
    /// fills the AVX-512 kernel (only ever true where it runs).
    pub(crate) avx512: bool,
    /// With `simd`: fine octaves of 2D value/Perlin fills run vectorised (eight samples per
    /// AVX-512 instruction with `avx512`, four per AVX2 instruction without; true) or scalar
    /// per sample (false).
    pub(crate) vector_fine: bool,
    /// With `avx512`: 3D value/Perlin f64 fills run their per-sample loops in 512-bit
    /// vectors (true) or 256-bit ones (false).
    pub(crate) wide_lattice_3d: bool,
}

pub(crate) fn finite(x: f64, name: &'static str) -> Result<f64, NoiseError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(NoiseError::NotFinite(name))
    }
}

pub(crate) fn positive(x: f64, name: &'static str) -> Result<f64, NoiseError> {
    if finite(x, name)? > 0.0 {
        Ok(x)
    } else {
        Err(NoiseError::NotPositive(name))
    }
}

/// Seed of octave (or stream) `k` derived from the definition seed.
pub(crate) fn derive_seed(seed: i64, stream: u64) -> u64 {
    mix_stafford13((seed as u64) ^ mix_stafford13(stream.wrapping_add(0x5EED)))
}

impl NoiseDef {
    /// The world generator's building block: Perlin fBm (lacunarity 2, gain 0.5) with seed
    /// `seed ^ salt`, validated.
    pub fn perlin_fbm(
        seed: i64,
        salt: i64,
        frequency: f64,
        octaves: u32,
    ) -> Result<Noise, NoiseError> {
        NoiseDef {
            seed: seed ^ salt,
            noise_type: NoiseType::Perlin,
            fractal: FractalType::Fbm,
            octaves,
            frequency,
            ..NoiseDef::default()
        }
        .build()
    }

    /// Validate into an immutable [`Noise`].
    pub fn build(&self) -> Result<Noise, NoiseError> {
        let octaves = match self.fractal {
            FractalType::None => 1,
            _ => self.octaves,
        };
        if !(1..=MAX_OCTAVES).contains(&self.octaves) {
            return Err(NoiseError::OctavesOutOfRange(self.octaves));
        }
        let f0 = positive(self.frequency, "frequency")?;
        let lac = positive(self.lacunarity, "lacunarity")?;
        let gain = finite(self.gain, "gain")?;
        if gain < 0.0 {
            return Err(NoiseError::OutOfRange("gain"));
        }
        for o in self.offset {
            finite(o, "offset")?;
        }
        let jitter = finite(self.cellular_jitter, "cellular_jitter")?;
        if !(0.0..=1.0).contains(&jitter) {
            return Err(NoiseError::OutOfRange("cellular_jitter"));
        }
        let warp_amplitude = finite(self.warp_amplitude, "warp_amplitude")?;
        if warp_amplitude < 0.0 {
            return Err(NoiseError::OutOfRange("warp_amplitude"));
        }
        let warp_frequency = positive(self.warp_frequency, "warp_frequency")?;

        let mut freq = [0.0; MAX_OCTAVES as usize];
        let mut amp = [0.0; MAX_OCTAVES as usize];
        let mut seeds = [0u64; MAX_OCTAVES as usize];
        let (mut f, mut a, mut total) = (f0, 1.0f64, 0.0f64);
        for o in 0..octaves as usize {
            if !(f.is_finite() && f > 0.0) {
                return Err(NoiseError::OutOfRange("frequency * lacunarity^(octaves-1)"));
            }
            freq[o] = f;
            amp[o] = a;
            seeds[o] = derive_seed(self.seed, o as u64);
            total += a;
            f *= lac;
            a *= gain;
        }
        let paths = paths();
        Ok(Noise {
            precision: self.precision,
            noise_type: self.noise_type,
            fractal: self.fractal,
            octaves: octaves as usize,
            freq,
            amp,
            seeds,
            norm: 1.0 / total,
            offset: self.offset,
            cellular: CellularParams {
                distance: self.cellular_distance,
                ret: self.cellular_return,
                jitter,
            },
            warp_amplitude,
            warp_frequency,
            warp_seeds: [
                derive_seed(self.seed, 1001),
                derive_seed(self.seed, 1002),
                derive_seed(self.seed, 1003),
            ],
            simd: paths.simd,
            // Implies `simd`: the AVX-512 check includes the AVX2 one.
            avx512: paths.avx512,
            // AVX-512's native 64-bit lane multiply makes the vector hash cheap on every CPU
            // that has it; AVX2's emulated one only on AMD Zen.
            vector_fine: paths.vector_fine,
            // Where AVX-512 has one FMA unit, 256-bit vectors do as much arithmetic per cycle
            // and the plain-arithmetic 3D lattice loops gain nothing from wider ones.
            wide_lattice_3d: paths.wide_lattice_3d,
        })
    }
}

impl Noise {
    /// The arithmetic precision.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The base noise type.
    pub fn noise_type(&self) -> NoiseType {
        self.noise_type
    }

    /// The fractal type.
    pub fn fractal(&self) -> FractalType {
        self.fractal
    }

    /// Octaves in use (1 for [`FractalType::None`]).
    pub fn octaves(&self) -> usize {
        self.octaves
    }

    /// Whether fills use the AVX2 paths: true after [`NoiseDef::build`] on an x86-64 CPU
    /// with AVX2. Either path gives the same bits. 2D value and Perlin fills share each
    /// lattice cell's hashing among the samples in it where at least 4 fall in one along x,
    /// and run finer octaves per sample ([`Noise::vector_fine_octaves`]); 3D value and
    /// Perlin fills share a cell's corners down z and run their per-sample loops four lanes
    /// wide; simplex fills run four samples per vector along each row (eight with
    /// [`Noise::avx512`]).
    pub fn simd(&self) -> bool {
        self.simd
    }

    /// This noise with the AVX2 fill path on (`true`, where the CPU has AVX2; elsewhere it
    /// stays off) or off (`false`: the portable path, which shares cells the same way and
    /// is scalar throughout). The output bits are the same
    /// either way; this exists to test that and to compare speeds.
    pub fn with_simd(mut self, on: bool) -> Noise {
        let paths = paths();
        self.simd = on && paths.simd;
        self.avx512 = self.simd && paths.avx512;
        self.wide_lattice_3d = self.avx512 && paths.wide_lattice_3d;
        self
    }

    /// Whether simplex fills and the fine octaves of 2D value/Perlin fills run eight samples
    /// per AVX-512 vector: true after
    /// [`NoiseDef::build`] on an x86-64 CPU with AVX-512 F and DQ (when `core` is built with
    /// its default `avx512` feature). The bits are those of the AVX2 and portable paths.
    pub fn avx512(&self) -> bool {
        self.avx512
    }

    /// This noise with every AVX-512 kernel on (`true`, where the CPU has them and the AVX2
    /// path is on; [`Noise::wide_lattice_3d`] included, whatever the CPU's default) or off
    /// (`false`: the AVX2 kernels); same bits, for tests and speed comparisons.
    pub fn with_avx512(mut self, on: bool) -> Noise {
        self.avx512 = on && self.simd && paths().avx512;
        self.wide_lattice_3d = self.avx512;
        self
    }

    /// Whether 3D value and Perlin f64 fills run their per-sample loops in 512-bit vectors
    /// (eight lanes): true with [`Noise::avx512`] except on Intel client cores whose AVX-512
    /// has one FMA unit (Ice Lake, Tiger Lake, Rocket Lake), where 256-bit vectors do as
    /// much arithmetic per cycle (measured on Rocket Lake, CPUID family 6 model 167: AVX2
    /// 4% faster on 3D Perlin; AVX-512 faster by 3–14% on a Xeon with two FMA units, Zen 4
    /// and Zen 5). Chosen from CPUID when the noise is built; either way the bits are the
    /// same.
    pub fn wide_lattice_3d(&self) -> bool {
        self.wide_lattice_3d
    }

    /// Whether fine octaves of 2D value/Perlin fills (under 4 samples per lattice cell along
    /// x) run vectorised: true on CPUs with AVX-512 F and DQ (eight samples per instruction,
    /// native 64-bit lane multiplies; [`Noise::avx512`]) and on AMD Zen with AVX2 only (four
    /// per instruction: Zen's emulated 64-bit lane multiply is cheap); false, scalar per
    /// sample, on other CPUs (an Intel Xeon runs the AVX2 vector hash about 20% slower than
    /// scalar at 4 and 8 octaves). Chosen from CPUID when the noise is built; either way the
    /// bits are the same.
    pub fn vector_fine_octaves(&self) -> bool {
        self.simd && self.vector_fine
    }

    /// This noise with fine octaves forced to the AVX2 kernel (`true`) or to scalar code
    /// (`false`), whatever the CPU (for tests and speed comparisons; same bits).
    pub fn with_vector_fine_octaves(mut self, on: bool) -> Noise {
        self.vector_fine = on;
        self
    }

    /// The highest octave frequency (cycles per world unit).
    pub fn max_frequency(&self) -> f64 {
        let mut m = 0.0f64;
        for &f in &self.freq[..self.octaves] {
            m = if f > m { f } else { m };
        }
        m
    }
}
