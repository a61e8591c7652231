//! What a fill fills: grids of sample positions and the sample types a fill writes.

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

impl Grid2 {
    /// The grid of an image: sample `(i, j)` at `(i, j)`, one per pixel.
    pub fn pixels(width: usize, height: usize) -> Grid2 {
        Grid2 {
            x0: 0.0,
            y0: 0.0,
            dx: 1.0,
            dy: 1.0,
            width,
            height,
        }
    }
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

/// A buffer of samples in one precision, which [`Noise::fill_2d_own`] and
/// [`Noise::fill_3d_own`] fill in the noise's own precision, with no conversion.
///
/// [`Noise::fill_2d_own`]: crate::noise::Noise::fill_2d_own
/// [`Noise::fill_3d_own`]: crate::noise::Noise::fill_3d_own
#[derive(Debug)]
pub enum OwnSamples<'a> {
    /// Samples of an `f64` noise.
    F64(&'a mut [f64]),
    /// Samples of an `f32` noise.
    F32(&'a mut [f32]),
}

/// A sample type a fill can write.
pub trait Sample: Copy {
    /// Convert from the internal `f64` (rounding to nearest).
    fn from_f64(x: f64) -> Self;
    /// Convert from an `f32` sample (exact).
    fn from_f32(x: f32) -> Self;
}
impl Sample for f32 {
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn from_f32(x: f32) -> Self {
        x
    }
}
impl Sample for f64 {
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn from_f32(x: f32) -> Self {
        f64::from(x)
    }
}
