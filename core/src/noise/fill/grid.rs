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

/// Fill `out` with `f32` samples widened to `f64`: `fill` writes `out.len()` samples into the
/// front of `out`'s own memory, which are then widened in place, last first. Sample `i`'s
/// `f64` takes the memory of `f32`s `2i` and `2i + 1`, which are at or after `i`, so every
/// sample is read before anything overwrites it. The `f32` fills are compiled for one
/// output type only; widening is exact, so the values are those an `f64`-writing fill gave.
pub(crate) fn widened_in_place(out: &mut [f64], fill: impl FnOnce(&mut [f32])) {
    let n = out.len();
    fill(&mut f32_words(out)[..n]);
    let words = u32_words(out);
    for i in (0..n).rev() {
        let b = f64::from(f32::from_bits(words[i])).to_ne_bytes();
        words[2 * i] = u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
        words[2 * i + 1] = u32::from_ne_bytes([b[4], b[5], b[6], b[7]]);
    }
}

/// The memory of `out` as `2 · out.len()` `f32`s.
#[allow(unsafe_code)]
fn f32_words(out: &mut [f64]) -> &mut [f32] {
    // SAFETY: the pointer and length cover exactly `out`'s bytes (an `f64` is two `f32`s),
    // `f32` needs no more alignment than `f64`, every bit pattern is an `f32`, and the result
    // borrows `out` mutably for its whole life, so nothing else touches that memory.
    unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<f32>(), out.len() * 2) }
}

/// The memory of `out` as `2 · out.len()` `u32`s.
#[allow(unsafe_code)]
fn u32_words(out: &mut [f64]) -> &mut [u32] {
    // SAFETY: as in `f32_words`; every bit pattern is a `u32`, and any `u32`s written make a
    // valid `f64`.
    unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u32>(), out.len() * 2) }
}
