//! The one math backend (determinism rules 1–2 in ARCHITECTURE.md).
//!
//! Every float function the crate uses goes through here, so the choice of implementation is
//! made once: `libm` for anything that is not an exactly rounded IEEE operation, plain `+ - * /`
//! otherwise, and never a fused multiply-add. `libm` is pure Rust and gives the same bits on
//! every target, which `std`'s platform libm does not promise.

/// Square root (IEEE correctly rounded, so every implementation agrees).
#[inline]
pub fn sqrt(x: f64) -> f64 {
    libm::sqrt(x)
}

/// Square root of an `f32` (IEEE correctly rounded, like [`sqrt`]).
#[inline]
pub fn sqrtf(x: f32) -> f32 {
    libm::sqrtf(x)
}

/// `e^x` from `libm`.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Natural logarithm from `libm`.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Sine from `libm`.
#[inline]
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}

/// Cosine from `libm`.
#[inline]
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}

/// `x^y` from `libm`.
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// Absolute value (clears the sign bit; exact).
#[inline]
pub fn abs(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & !(1u64 << 63))
}

/// Largest integer `<= x`, as `i64`. Exact for |x| < 2^62; the caller keeps coordinates far
/// inside that (the world is bounded by about 2^25 blocks).
#[inline]
pub fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    t.wrapping_sub((x < t as f64) as i64)
}

/// Smallest integer `>= x`, as `i32` (for small positive lengths such as radii).
#[inline]
pub fn ceil_i32(x: f64) -> i32 {
    -(floor_i64(-x) as i32)
}

/// Largest integer `<= x`, as `f64` (exact for the same range as [`floor_i64`]).
#[inline]
pub fn floor(x: f64) -> f64 {
    floor_i64(x) as f64
}

/// Linear interpolation `a + t * (b - a)`, written out so no FMA can be formed.
#[inline]
pub fn lerp(t: f64, a: f64, b: f64) -> f64 {
    a + t * (b - a)
}

/// Clamp `x` into `[lo, hi]`. A NaN `x` comes out as `lo`.
#[inline]
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    if x >= lo {
        if x > hi {
            hi
        } else {
            x
        }
    } else {
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_matches_libm_on_edges() {
        let xs = [
            -2.5,
            -2.0,
            -1.0,
            -0.5,
            -0.0,
            0.0,
            0.5,
            1.0,
            2.0,
            2.5,
            -1e-300,
            1e-300,
            16777216.5,
            -16777216.5,
            4.5e15,
            -4.5e15,
            0.9999999999999999,
            -0.9999999999999999,
        ];
        for &x in xs.iter() {
            assert_eq!(
                floor(x).to_bits() | (1 << 63),
                libm::floor(x).to_bits() | (1 << 63),
                "{x}"
            );
        }
    }

    #[test]
    fn clamp_and_abs() {
        assert_eq!(clamp(f64::NAN, 0.0, 1.0), 0.0);
        assert_eq!(clamp(2.0, 0.0, 1.0), 1.0);
        assert_eq!(abs(-0.0).to_bits(), 0);
        assert_eq!(abs(-3.5), 3.5);
    }
}
