//! The noise library: lattice noises (value, Perlin), simplex, cellular, fractals and batch
//! fills in two precisions (`f64`, and `f32` in `single`), with the AVX2 and AVX-512 paths
//! (the only `unsafe` code in the crate). Depends on [`crate::util`] only; knows nothing of
//! worlds or chunks.
//!
//! The public surface is re-exported here: [`NoiseDef`] → [`NoiseDef::build`] → [`Noise`],
//! then [`Noise::sample_2d`] or [`Noise::fill_2d`] and their 3D and heightmap forms.

#[macro_use]
mod dispatch;

mod budget;
pub mod cellular;
pub mod def;
pub mod fill;
pub mod fractal;
#[cfg(feature = "alloc")]
pub mod image;
pub mod lattice;
pub mod names;
#[cfg(feature = "alloc")]
pub mod shader;
#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
pub mod simplex;
mod single;

pub use budget::{fill_samples, MAX_FILL_SAMPLES};
pub use cellular::{cellular2, cellular3};
pub use cellular::{CellularDistance, CellularParams, CellularReturn};
pub use def::{FractalType, Noise, NoiseDef, NoiseError, NoiseType, Precision, MAX_OCTAVES};
pub use fill::{Grid2, Grid3, OwnSamples, Sample, MAX_HEIGHTMAP_RES};
pub use lattice::{perlin2, perlin3, perlin4, value2, value3};
#[cfg(feature = "alloc")]
pub use shader::{ShaderError, ShaderLanguage};
pub use simplex::{simplex2, simplex3};
