//! How large a fill a host allocates for one call: the bound the Python and JavaScript
//! packages share.

use crate::noise::def::NoiseError;

/// The most samples a host fills into memory it allocates for one call (2^28: 2 GiB of
/// `f64`); the Python and JavaScript packages refuse larger fills.
pub const MAX_FILL_SAMPLES: usize = 1 << 28;

/// The sample count of a fill of `dims` that a host allocates for: [`NoiseError::EmptyGrid`]
/// when a dimension is zero, [`NoiseError::FillTooLarge`] above [`MAX_FILL_SAMPLES`] (or when
/// the count overflows).
pub fn fill_samples(dims: &[usize]) -> Result<usize, NoiseError> {
    if dims.contains(&0) {
        return Err(NoiseError::EmptyGrid);
    }
    dims.iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= MAX_FILL_SAMPLES)
        .ok_or(NoiseError::FillTooLarge)
}
