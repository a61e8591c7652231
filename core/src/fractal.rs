//! Fractal noise: the [`NoiseDef`] configuration, its validated form [`Noise`], point sampling
//! and allocation-free batch fills (2D grids, heightmap chunks, 3D grids).
//!
//! Each (noise type, fractal type) pair has its own monomorphic fill loop: the type is matched
//! once per call, never per sample or per octave. Value and Perlin fills share all y/z lattice
//! work across a row and all x work across rows, and run the same arithmetic as the point
//! sampler, so `fill_2d` output equals `sample_2d` at every grid position, bit for bit.

use crate::math::abs;
use crate::noise::{
    self, Axis, Cell, CellularDistance, CellularParams, CellularReturn, Lattice, Perlin, Value,
};
use crate::random::mix_stafford13;

#[cfg(target_arch = "x86_64")]
mod simd;

/// Whether this machine runs the AVX2 fills.
fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        simd::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
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

/// How 2D value and Perlin fills spend their time (warp off). Both give the same bits as
/// [`Noise::sample_2d`]; 3D fills, simplex, cellular and warped noise are not affected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FillStrategy {
    /// Every sample hashes its own four lattice corners at every octave, four samples per
    /// AVX2 instruction: a fill costs the same per sample and octave at any frequency
    /// (8 octaves cost 8 × one). Needs AVX2 (x86-64, checked when the noise is built);
    /// elsewhere it runs as [`FillStrategy::Adaptive`] (see [`Noise::simd`]).
    Vectorized = 0,
    /// Per octave: where at least 4 samples fall in a lattice cell along x, they share the
    /// cell's hashing (scalar); finer octaves run as [`FillStrategy::Vectorized`]. Fastest for
    /// coarse noise (64² samples of a 16-block heightmap chunk at a 128-block base
    /// wavelength: 2–4× faster than `Vectorized`), but the cost grows with the frequency.
    Adaptive = 1,
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
    /// How 2D value/Perlin fills are computed (same bits either way). Default
    /// [`FillStrategy::Vectorized`].
    pub fill: FillStrategy,
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
            fill: FillStrategy::Vectorized,
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
}

impl core::fmt::Display for NoiseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NoiseError::NotFinite(n) => write!(f, "{} is NaN or infinite", n),
            NoiseError::OctavesOutOfRange(o) => write!(f, "octaves is {}, must be 1..=16", o),
            NoiseError::NotPositive(n) => write!(f, "{} must be > 0", n),
            NoiseError::OutOfRange(n) => write!(f, "{} is out of its documented range", n),
            NoiseError::EmptyGrid => write!(f, "grid has a zero or overflowing size"),
            NoiseError::BufferTooSmall { needed, got } => {
                write!(f, "buffer holds {} samples, grid needs {}", got, needed)
            }
            NoiseError::CoordinateOutOfRange => {
                write!(f, "grid coordinates times frequency exceed 2^50 cells")
            }
        }
    }
}

/// The largest lattice coordinate a grid may reach.
const MAX_LATTICE: f64 = 1_125_899_906_842_624.0; // 2^50

/// A validated, immutable noise configuration. Cheap to copy; sample from any thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    noise_type: NoiseType,
    fractal: FractalType,
    octaves: usize,
    freq: [f64; MAX_OCTAVES as usize],
    amp: [f64; MAX_OCTAVES as usize],
    seeds: [u64; MAX_OCTAVES as usize],
    norm: f64,
    offset: [f64; 3],
    cellular: CellularParams,
    warp_amplitude: f64,
    warp_frequency: f64,
    warp_seeds: [u64; 3],
    /// 2D value/Perlin fills take the AVX2 path (only ever true where AVX2 runs).
    simd: bool,
    /// With `simd`: whether the AVX2 path shares cells at coarse octaves.
    fill: FillStrategy,
}

fn finite(x: f64, name: &'static str) -> Result<f64, NoiseError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(NoiseError::NotFinite(name))
    }
}

fn positive(x: f64, name: &'static str) -> Result<f64, NoiseError> {
    if finite(x, name)? > 0.0 {
        Ok(x)
    } else {
        Err(NoiseError::NotPositive(name))
    }
}

/// Seed of octave (or stream) `k` derived from the definition seed.
fn derive_seed(seed: i64, stream: u64) -> u64 {
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
        Ok(Noise {
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
            simd: simd_available(),
            fill: self.fill,
        })
    }
}

/// A 2D grid of sample positions: sample `(i, j)` is at `(x0 + i*dx, y0 + j*dy)` and is stored
/// at index `j * width + i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid2 {
    /// First sample's x (world units).
    pub x0: f64,
    /// First sample's y (world units).
    pub y0: f64,
    /// Spacing along x.
    pub dx: f64,
    /// Spacing along y.
    pub dy: f64,
    /// Samples per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// A 3D grid: sample `(i, j, k)` is at `(x0 + i*dx, y0 + j*dy, z0 + k*dz)` and is stored at
/// index `(j * depth + k) * width + i` (y outermost, then z, then x: the block order of a chunk).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid3 {
    /// First sample's position (world units).
    pub origin: [f64; 3],
    /// Spacing along x, y, z.
    pub step: [f64; 3],
    /// Samples along x.
    pub width: usize,
    /// Samples along y.
    pub height: usize,
    /// Samples along z.
    pub depth: usize,
}

/// A sample type a fill can write.
pub trait Sample: Copy {
    /// Convert from the internal `f64` (rounding to nearest).
    fn from_f64(x: f64) -> Self;
}
impl Sample for f32 {
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
}
impl Sample for f64 {
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x
    }
}

/// Which [`Shape`] a type is, for the AVX2 kernel to pick at compile time.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ShapeKind {
    Fbm,
    Ridged,
    Billow,
}

/// How one octave's value enters the sum.
trait Shape {
    const KIND: ShapeKind;
    fn apply(n: f64) -> f64;
}
struct Fbm;
struct Ridged;
struct Billow;
impl Shape for Fbm {
    const KIND: ShapeKind = ShapeKind::Fbm;
    #[inline(always)]
    fn apply(n: f64) -> f64 {
        n
    }
}
impl Shape for Ridged {
    const KIND: ShapeKind = ShapeKind::Ridged;
    #[inline(always)]
    fn apply(n: f64) -> f64 {
        1.0 - 2.0 * abs(n)
    }
}
impl Shape for Billow {
    const KIND: ShapeKind = ShapeKind::Billow;
    #[inline(always)]
    fn apply(n: f64) -> f64 {
        2.0 * abs(n) - 1.0
    }
}

/// A base noise as a point function (all four types).
trait Base {
    fn at2(seed: u64, c: &CellularParams, x: f64, y: f64) -> f64;
    fn at3(seed: u64, c: &CellularParams, x: f64, y: f64, z: f64) -> f64;
}
impl Base for Value {
    #[inline(always)]
    fn at2(s: u64, _: &CellularParams, x: f64, y: f64) -> f64 {
        noise::value2(s, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, _: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        noise::value3(s, x, y, z)
    }
}
impl Base for Perlin {
    #[inline(always)]
    fn at2(s: u64, _: &CellularParams, x: f64, y: f64) -> f64 {
        noise::perlin2(s, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, _: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        noise::perlin3(s, x, y, z)
    }
}
struct Simplex;
impl Base for Simplex {
    #[inline(always)]
    fn at2(s: u64, _: &CellularParams, x: f64, y: f64) -> f64 {
        noise::simplex2(s, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, _: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        noise::simplex3(s, x, y, z)
    }
}
struct Cellular;
impl Base for Cellular {
    #[inline(always)]
    fn at2(s: u64, c: &CellularParams, x: f64, y: f64) -> f64 {
        noise::cellular2(s, c, x, y)
    }
    #[inline(always)]
    fn at3(s: u64, c: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
        noise::cellular3(s, c, x, y, z)
    }
}

/// Expands `$body` once per (noise type, fractal type) pair with `B` and `S` bound to types
/// (and any extra type arguments given after them).
macro_rules! dispatch {
    ($self:expr, $body:ident $(::<$($extra:ty),*>)? ( $($arg:expr),* )) => {
        match ($self.noise_type, $self.fractal) {
            (NoiseType::Value, FractalType::None | FractalType::Fbm) => $body::<Value, Fbm $($(, $extra)*)?>($($arg),*),
            (NoiseType::Value, FractalType::Ridged) => $body::<Value, Ridged $($(, $extra)*)?>($($arg),*),
            (NoiseType::Value, FractalType::Billow) => $body::<Value, Billow $($(, $extra)*)?>($($arg),*),
            (NoiseType::Perlin, FractalType::None | FractalType::Fbm) => $body::<Perlin, Fbm $($(, $extra)*)?>($($arg),*),
            (NoiseType::Perlin, FractalType::Ridged) => $body::<Perlin, Ridged $($(, $extra)*)?>($($arg),*),
            (NoiseType::Perlin, FractalType::Billow) => $body::<Perlin, Billow $($(, $extra)*)?>($($arg),*),
            (NoiseType::Simplex, FractalType::None | FractalType::Fbm) => $body::<Simplex, Fbm $($(, $extra)*)?>($($arg),*),
            (NoiseType::Simplex, FractalType::Ridged) => $body::<Simplex, Ridged $($(, $extra)*)?>($($arg),*),
            (NoiseType::Simplex, FractalType::Billow) => $body::<Simplex, Billow $($(, $extra)*)?>($($arg),*),
            (NoiseType::Cellular, FractalType::None | FractalType::Fbm) => $body::<Cellular, Fbm $($(, $extra)*)?>($($arg),*),
            (NoiseType::Cellular, FractalType::Ridged) => $body::<Cellular, Ridged $($(, $extra)*)?>($($arg),*),
            (NoiseType::Cellular, FractalType::Billow) => $body::<Cellular, Billow $($(, $extra)*)?>($($arg),*),
        }
    };
}

/// The offset x of sample `i` of a row starting at `x0` with spacing `dx`, before the octave
/// frequency: every 2D fill computes it here so that all give the bits of [`point2`].
#[inline(always)]
fn sample_x(n: &Noise, x0: f64, dx: f64, i: usize) -> f64 {
    (x0 + i as f64 * dx) + n.offset[0]
}

/// Samples per tile of a lattice fill: bounds the stack scratch (about 20 KiB).
const TILE: usize = 32;

#[inline(always)]
fn point2<B: Base, S: Shape>(n: &Noise, x: f64, y: f64) -> f64 {
    let (mut x, mut y) = (x + n.offset[0], y + n.offset[1]);
    if n.warp_amplitude > 0.0 {
        let (wx, wy) = (x * n.warp_frequency, y * n.warp_frequency);
        let dx = n.warp_amplitude * noise::simplex2(n.warp_seeds[0], wx, wy);
        let dy = n.warp_amplitude * noise::simplex2(n.warp_seeds[1], wx, wy);
        x += dx;
        y += dy;
    }
    let mut acc = 0.0;
    for o in 0..n.octaves {
        let f = n.freq[o];
        acc += S::apply(B::at2(n.seeds[o], &n.cellular, x * f, y * f)) * n.amp[o];
    }
    acc * n.norm
}

#[inline(always)]
fn point3<B: Base, S: Shape>(n: &Noise, x: f64, y: f64, z: f64) -> f64 {
    let (mut x, mut y, mut z) = (x + n.offset[0], y + n.offset[1], z + n.offset[2]);
    if n.warp_amplitude > 0.0 {
        let (wx, wy, wz) = (
            x * n.warp_frequency,
            y * n.warp_frequency,
            z * n.warp_frequency,
        );
        let dx = n.warp_amplitude * noise::simplex3(n.warp_seeds[0], wx, wy, wz);
        let dy = n.warp_amplitude * noise::simplex3(n.warp_seeds[1], wx, wy, wz);
        let dz = n.warp_amplitude * noise::simplex3(n.warp_seeds[2], wx, wy, wz);
        x += dx;
        y += dy;
        z += dz;
    }
    let mut acc = 0.0;
    for o in 0..n.octaves {
        let f = n.freq[o];
        acc += S::apply(B::at3(n.seeds[o], &n.cellular, x * f, y * f, z * f)) * n.amp[o];
    }
    acc * n.norm
}

/// Fill with the point sampler (simplex, cellular, or any warped noise).
fn fill2_point<B: Base, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    for j in 0..g.height {
        let y = g.y0 + j as f64 * g.dy;
        let row = &mut out[j * g.width..(j + 1) * g.width];
        for (i, o) in row.iter_mut().enumerate() {
            *o = T::from_f64(point2::<B, S>(n, g.x0 + i as f64 * g.dx, y));
        }
    }
}

fn fill3_point<B: Base, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    let [x0, y0, z0] = g.origin;
    let [dx, dy, dz] = g.step;
    let mut idx = 0;
    for j in 0..g.height {
        let y = y0 + j as f64 * dy;
        for k in 0..g.depth {
            let z = z0 + k as f64 * dz;
            for i in 0..g.width {
                out[idx] = T::from_f64(point3::<B, S>(n, x0 + i as f64 * dx, y, z));
                idx += 1;
            }
        }
    }
}

/// The x-axis work of one tile, all octaves: per-sample axis values and runs of equal cells.
struct Columns {
    axis: [[Axis; TILE]; MAX_OCTAVES as usize],
    /// Per octave: (cell index, first sample, end sample) of each run.
    runs: [[(i64, u8, u8); TILE]; MAX_OCTAVES as usize],
    nruns: [usize; MAX_OCTAVES as usize],
    len: usize,
}

impl Columns {
    fn new(n: &Noise, x0: f64, dx: f64, first: usize, len: usize) -> Self {
        let mut c = Columns {
            axis: [[Axis::default(); TILE]; MAX_OCTAVES as usize],
            runs: [[(0, 0, 0); TILE]; MAX_OCTAVES as usize],
            nruns: [0; MAX_OCTAVES as usize],
            len,
        };
        for o in 0..n.octaves {
            let f = n.freq[o];
            let mut nr = 0usize;
            for t in 0..len {
                let a = Axis::new(sample_x(n, x0, dx, first + t) * f);
                c.axis[o][t] = a;
                if nr > 0 && c.runs[o][nr - 1].0 == a.i {
                    c.runs[o][nr - 1].2 = (t + 1) as u8;
                } else {
                    c.runs[o][nr] = (a.i, t as u8, (t + 1) as u8);
                    nr += 1;
                }
            }
            c.nruns[o] = nr;
        }
        c
    }

    /// Add one octave's shaped, weighted values for a row into `acc`.
    #[inline(always)]
    fn accumulate<L: Lattice, S: Shape>(
        &self,
        o: usize,
        amp: f64,
        cell: impl Fn(i64) -> Cell,
        acc: &mut [f64; TILE],
    ) {
        let runs = &self.runs[o][..self.nruns[o]];
        if runs.len() == self.len {
            // Every sample in its own cell (high octaves): no run loop to mispredict.
            for ((t, ax), &(ix, _, _)) in self.axis[o][..self.len].iter().enumerate().zip(runs) {
                acc[t] += S::apply(L::eval(&cell(ix), ax)) * amp;
            }
            return;
        }
        for &(ix, a, b) in runs {
            let c = cell(ix);
            let (a, b) = (a as usize, b as usize);
            for (t, ax) in self.axis[o][a..b].iter().enumerate() {
                acc[a + t] += S::apply(L::eval(&c, ax)) * amp;
            }
        }
    }
}

fn fill2_lattice<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return simd::fill2::<L, S, T>(n, g, out);
    }
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let cols = Columns::new(n, g.x0, g.dx, first, len);
        for j in 0..g.height {
            let y = (g.y0 + j as f64 * g.dy) + n.offset[1];
            let mut acc = [0.0f64; TILE];
            for o in 0..n.octaves {
                let row = L::row2(n.seeds[o], &Axis::new(y * n.freq[o]));
                cols.accumulate::<L, S>(o, n.amp[o], |ix| L::cell2(&row, ix), &mut acc);
            }
            let dst = &mut out[j * g.width + first..j * g.width + first + len];
            for (d, a) in dst.iter_mut().zip(acc.iter()) {
                *d = T::from_f64(*a * n.norm);
            }
        }
        first += len;
    }
}

fn fill3_lattice<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    let [x0, y0, z0] = g.origin;
    let [dx, dy, dz] = g.step;
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let cols = Columns::new(n, x0, dx, first, len);
        for j in 0..g.height {
            let y = (y0 + j as f64 * dy) + n.offset[1];
            let mut ay = [Axis::default(); MAX_OCTAVES as usize];
            for o in 0..n.octaves {
                ay[o] = Axis::new(y * n.freq[o]);
            }
            for k in 0..g.depth {
                let z = (z0 + k as f64 * dz) + n.offset[2];
                let mut acc = [0.0f64; TILE];
                for o in 0..n.octaves {
                    let row = L::row3(n.seeds[o], &ay[o], &Axis::new(z * n.freq[o]));
                    cols.accumulate::<L, S>(o, n.amp[o], |ix| L::cell3(&row, ix), &mut acc);
                }
                let base = (j * g.depth + k) * g.width + first;
                for (d, a) in out[base..base + len].iter_mut().zip(acc.iter()) {
                    *d = T::from_f64(*a * n.norm);
                }
            }
        }
        first += len;
    }
}

/// Simplex fill without warp, a tile row per batch: per sample the same sums as [`point2`]
/// in the same order, so the same bits.
fn fill2_simplex<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    const _: () = assert!(TILE <= noise::SIMPLEX_BATCH);
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let mut xs = [[0.0f64; TILE]; MAX_OCTAVES as usize];
        for o in 0..n.octaves {
            for (t, x) in xs[o][..len].iter_mut().enumerate() {
                *x = sample_x(n, g.x0, g.dx, first + t) * n.freq[o];
            }
        }
        for j in 0..g.height {
            let y = (g.y0 + j as f64 * g.dy) + n.offset[1];
            let mut acc = [0.0f64; TILE];
            let mut v = [0.0f64; TILE];
            for o in 0..n.octaves {
                noise::simplex2_batch(n.seeds[o], &xs[o][..len], y * n.freq[o], &mut v);
                for (a, v) in acc[..len].iter_mut().zip(&v) {
                    *a += S::apply(*v) * n.amp[o];
                }
            }
            let dst = &mut out[j * g.width + first..j * g.width + first + len];
            for (d, a) in dst.iter_mut().zip(acc.iter()) {
                *d = T::from_f64(*a * n.norm);
            }
        }
        first += len;
    }
}

/// Lattice fill for value/Perlin without warp, the point fill otherwise. The warp check is
/// the one branch per call.
trait Fill {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]);
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]);
}
impl<L: Lattice + Base> Fill for L {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill2_point::<L, S, T>(n, g, out)
        } else {
            fill2_lattice::<L, S, T>(n, g, out)
        }
    }
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill3_point::<L, S, T>(n, g, out)
        } else {
            fill3_lattice::<L, S, T>(n, g, out)
        }
    }
}
impl Fill for Simplex {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill2_point::<Simplex, S, T>(n, g, out)
        } else {
            fill2_simplex::<S, T>(n, g, out)
        }
    }
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
        fill3_point::<Simplex, S, T>(n, g, out)
    }
}
impl Fill for Cellular {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
        fill2_point::<Cellular, S, T>(n, g, out)
    }
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
        fill3_point::<Cellular, S, T>(n, g, out)
    }
}

fn do_sample2<B: Base, S: Shape>(n: &Noise, x: f64, y: f64) -> f64 {
    point2::<B, S>(n, x, y)
}
fn do_sample3<B: Base, S: Shape>(n: &Noise, x: f64, y: f64, z: f64) -> f64 {
    point3::<B, S>(n, x, y, z)
}
fn do_fill2<F: Fill, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    F::fill2::<S, T>(n, g, out)
}
fn do_fill3<F: Fill, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    F::fill3::<S, T>(n, g, out)
}

impl Noise {
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

    /// Whether 2D value and Perlin fills use the AVX2 path (as [`FillStrategy`] says): true
    /// after [`NoiseDef::build`] on an x86-64 CPU with AVX2. Either path gives the same bits.
    pub fn simd(&self) -> bool {
        self.simd
    }

    /// The fill strategy this noise was built with.
    pub fn fill_strategy(&self) -> FillStrategy {
        self.fill
    }

    /// This noise with the AVX2 fill path on (`true`, where the CPU has AVX2; elsewhere it
    /// stays off) or off (`false`: the portable path, which shares cells like
    /// [`FillStrategy::Adaptive`] and is scalar throughout). The output bits are the same
    /// either way; this exists to test that and to compare speeds.
    pub fn with_simd(mut self, on: bool) -> Noise {
        self.simd = on && simd_available();
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

    /// Sample at a 2D world position. Range about `[-1, 1]` for every type (see the
    /// documented table in ARCHITECTURE.md). NaN in gives NaN out; never panics.
    pub fn sample_2d(&self, x: f64, y: f64) -> f64 {
        dispatch!(self, do_sample2(self, x, y))
    }

    /// Sample at a 3D world position.
    pub fn sample_3d(&self, x: f64, y: f64, z: f64) -> f64 {
        dispatch!(self, do_sample3(self, x, y, z))
    }

    fn check_coord(&self, lo: f64, hi: f64, off: f64) -> Result<(), NoiseError> {
        let scale = self.max_frequency();
        let w = self.warp_amplitude;
        for c in [lo, hi] {
            if !c.is_finite() {
                return Err(NoiseError::NotFinite("grid coordinate"));
            }
            let m = (abs(c + off) + w) * scale;
            if m >= MAX_LATTICE {
                return Err(NoiseError::CoordinateOutOfRange);
            }
        }
        Ok(())
    }

    fn check2(&self, g: &Grid2, got: usize) -> Result<(), NoiseError> {
        let needed = g
            .width
            .checked_mul(g.height)
            .filter(|&n| n > 0)
            .ok_or(NoiseError::EmptyGrid)?;
        if got < needed {
            return Err(NoiseError::BufferTooSmall { needed, got });
        }
        let x1 = g.x0 + (g.width - 1) as f64 * g.dx;
        let y1 = g.y0 + (g.height - 1) as f64 * g.dy;
        finite(g.dx, "dx")?;
        finite(g.dy, "dy")?;
        self.check_coord(g.x0, x1, self.offset[0])?;
        self.check_coord(g.y0, y1, self.offset[1])
    }

    fn check3(&self, g: &Grid3, got: usize) -> Result<(), NoiseError> {
        let needed = g
            .width
            .checked_mul(g.height)
            .and_then(|n| n.checked_mul(g.depth))
            .filter(|&n| n > 0)
            .ok_or(NoiseError::EmptyGrid)?;
        if got < needed {
            return Err(NoiseError::BufferTooSmall { needed, got });
        }
        let counts = [g.width, g.height, g.depth];
        for a in 0..3 {
            finite(g.step[a], "step")?;
            let end = g.origin[a] + (counts[a] - 1) as f64 * g.step[a];
            self.check_coord(g.origin[a], end, self.offset[a])?;
        }
        Ok(())
    }

    /// Fill a 2D grid with `f64` samples, equal bit for bit to [`Noise::sample_2d`] at each
    /// sample's position. Writes `out[..width*height]` only on success.
    pub fn fill_2d(&self, g: &Grid2, out: &mut [f64]) -> Result<(), NoiseError> {
        self.check2(g, out.len())?;
        dispatch!(self, do_fill2::<f64>(self, g, out));
        Ok(())
    }

    /// [`Noise::fill_2d`] rounded to `f32`.
    pub fn fill_2d_f32(&self, g: &Grid2, out: &mut [f32]) -> Result<(), NoiseError> {
        self.check2(g, out.len())?;
        dispatch!(self, do_fill2::<f32>(self, g, out));
        Ok(())
    }

    /// Fill a 3D grid with `f64` samples (layout in [`Grid3`]), equal bit for bit to
    /// [`Noise::sample_3d`].
    pub fn fill_3d(&self, g: &Grid3, out: &mut [f64]) -> Result<(), NoiseError> {
        self.check3(g, out.len())?;
        dispatch!(self, do_fill3::<f64>(self, g, out));
        Ok(())
    }

    /// [`Noise::fill_3d`] rounded to `f32`.
    pub fn fill_3d_f32(&self, g: &Grid3, out: &mut [f32]) -> Result<(), NoiseError> {
        self.check3(g, out.len())?;
        dispatch!(self, do_fill3::<f32>(self, g, out));
        Ok(())
    }

    /// The grid of a heightmap chunk: `res × res` samples of chunk `(cx, cz)` (16 × 16 blocks),
    /// sample `(i, j)` at block position `(16*cx + i*16/res, 16*cz + j*16/res)`. Neighbouring
    /// chunks continue the same lattice of positions, so their heightmaps tile with no seam.
    pub fn heightmap_grid(cx: i32, cz: i32, res: usize) -> Grid2 {
        let step = 16.0 / res as f64;
        Grid2 {
            x0: f64::from(cx) * 16.0,
            y0: f64::from(cz) * 16.0,
            dx: step,
            dy: step,
            width: res,
            height: res,
        }
    }

    /// Fill a heightmap chunk (see [`Noise::heightmap_grid`]); `res` in `1..=4096`. At long
    /// wavelengths (many samples per lattice cell) build the noise with
    /// [`FillStrategy::Adaptive`]: 2–4× faster, same output.
    pub fn heightmap_chunk(
        &self,
        cx: i32,
        cz: i32,
        res: usize,
        out: &mut [f32],
    ) -> Result<(), NoiseError> {
        if !(1..=4096).contains(&res) {
            return Err(NoiseError::OutOfRange("res"));
        }
        self.fill_2d_f32(&Self::heightmap_grid(cx, cz, res), out)
    }
}
