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

/// Sine and cosine of one angle from `libm`, with one argument reduction: bit for bit
/// `(sin(x), cos(x))` (`libm`'s `sincos` runs the same reduction and kernels as its `sin`
/// and `cos`; a test compares their bits).
#[inline]
pub fn sin_cos(x: f64) -> (f64, f64) {
    libm::sincos(x)
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

/// `x` rounded to the nearest integer, halves away from zero (as `f64::round`).
#[inline]
pub fn round(x: f64) -> f64 {
    libm::round(x)
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

    /// `sin_cos` is `(sin, cos)` bit for bit: at the thresholds where `sin`, `cos` and
    /// `sincos` each choose their path (|x| below 2^-27·√2, 2^-26, π/4), at multiples of π/4
    /// and far out where the argument reduction changes method, at signed zeros, infinities
    /// and NaN, and at a million random bit patterns spread over every exponent.
    #[test]
    fn sin_cos_is_sin_and_cos_bit_for_bit() {
        let check = |x: f64| {
            let (s, c) = sin_cos(x);
            assert_eq!(
                s.to_bits(),
                sin(x).to_bits(),
                "sin {x:e} ({:016x})",
                x.to_bits()
            );
            assert_eq!(
                c.to_bits(),
                cos(x).to_bits(),
                "cos {x:e} ({:016x})",
                x.to_bits()
            );
        };
        let both = |x: f64| {
            check(x);
            check(-x);
        };
        for high in [
            0x3e46_a09e_u64,
            0x3e50_0000,
            0x3fe9_21fb,
            0x4002_d97c,
            0x4139_21fb,
        ] {
            for d in 0..64_u64 {
                both(f64::from_bits((high << 32).wrapping_add(d << 26)));
                both(f64::from_bits((high << 32).wrapping_sub(d << 26)));
            }
        }
        for k in 0..=64 {
            let x = f64::from(k) * core::f64::consts::FRAC_PI_4;
            both(x);
            both(f64::from_bits(x.to_bits() + 1));
            if x != 0.0 {
                both(f64::from_bits(x.to_bits() - 1));
            }
        }
        for x in [
            0.0,
            1e-300,
            1e300,
            1e6,
            1e22,
            f64::INFINITY,
            f64::MIN_POSITIVE,
            f64::MAX,
        ] {
            both(x);
        }
        let (s, c) = sin_cos(f64::NAN);
        assert!(s.is_nan() && c.is_nan());
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..1_000_000 {
            // splitmix64: every exponent and mantissa pattern, both signs.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            let x = f64::from_bits(z ^ (z >> 31));
            if !x.is_nan() {
                check(x);
            }
        }
        // The ranges the worm carvers walk: yaw over many turns, pitch about ±2.
        for i in 0..200_000 {
            check(f64::from(i) * 0.000_731 - 40.0);
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
