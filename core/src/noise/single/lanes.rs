//! Lane vectors for the `f32` kernels: `[f32; N]` and `[u32; N]` with one operation per
//! method, each a loop of one operation over the lanes.
//!
//! Why one operation per loop: the compiler unrolls a loop of a constant `N` before it
//! vectorises, and then packs the unrolled lanes back into vector instructions. A loop of one
//! operation packs into exactly one instruction every time; a loop holding a whole lattice
//! kernel comes out partly 8 lanes wide with shuffles between, at about twice the time
//! (measured on AVX-512). Each lane still runs exactly the scalar operations, in the
//! kernel's order.

use core::ops::{Add, BitAnd, BitXor, Mul, Shl, Shr, Sub};

/// `N` `f32` lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F<const N: usize>(pub [f32; N]);

/// `N` `u32` lanes (integer arithmetic wraps).
#[derive(Clone, Copy, Debug)]
pub(crate) struct U<const N: usize>(pub [u32; N]);

/// `N` lane conditions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct M<const N: usize>(pub [bool; N]);

impl<const N: usize> F<N> {
    #[inline(always)]
    pub fn splat(v: f32) -> Self {
        F([v; N])
    }
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(f32, f32) -> f32) -> Self {
        let mut out = [0.0; N];
        for l in 0..N {
            out[l] = f(self.0[l], o.0[l]);
        }
        F(out)
    }
    /// The bits of each lane.
    #[inline(always)]
    pub fn bits(self) -> U<N> {
        let mut out = [0; N];
        for l in 0..N {
            out[l] = self.0[l].to_bits();
        }
        U(out)
    }
    /// Each lane with its sign bit xored by `sign`'s lane (0 or `1 << 31`).
    #[inline(always)]
    pub fn flip(self, sign: U<N>) -> Self {
        (self.bits() ^ sign).float()
    }
}

impl<const N: usize> U<N> {
    #[inline(always)]
    pub fn splat(v: u32) -> Self {
        U([v; N])
    }
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        let mut out = [0; N];
        for l in 0..N {
            out[l] = f(self.0[l], o.0[l]);
        }
        U(out)
    }
    /// Each lane's bits as an `f32`.
    #[inline(always)]
    pub fn float(self) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            out[l] = f32::from_bits(self.0[l]);
        }
        F(out)
    }
    /// Each lane as a signed integer converted to `f32` (exact below 2^24).
    #[inline(always)]
    pub fn signed_float(self) -> F<N> {
        let mut out = [0.0; N];
        for l in 0..N {
            out[l] = self.0[l] as i32 as f32;
        }
        F(out)
    }
    /// Arithmetic shift right (as `i32`).
    #[inline(always)]
    pub fn sar(self, k: u32) -> Self {
        let mut out = [0; N];
        for l in 0..N {
            out[l] = ((self.0[l] as i32) >> k) as u32;
        }
        U(out)
    }
    /// Lanes where `self < o`.
    #[inline(always)]
    pub fn lt(self, o: u32) -> M<N> {
        let mut out = [false; N];
        for l in 0..N {
            out[l] = self.0[l] < o;
        }
        M(out)
    }
    /// Lanes where `self == o`.
    #[inline(always)]
    pub fn eq(self, o: u32) -> M<N> {
        let mut out = [false; N];
        for l in 0..N {
            out[l] = self.0[l] == o;
        }
        M(out)
    }
    /// Lanes where `self & bit` is set.
    #[inline(always)]
    pub fn has(self, bit: u32) -> M<N> {
        let mut out = [false; N];
        for l in 0..N {
            out[l] = self.0[l] & bit != 0;
        }
        M(out)
    }
}

impl<const N: usize> M<N> {
    /// `a` where the condition holds, else `b`.
    #[inline(always)]
    pub fn select<T: Lane<N>>(self, a: T, b: T) -> T {
        T::select(self, a, b)
    }
}

/// A lane vector a condition can select between.
pub(crate) trait Lane<const N: usize>: Copy {
    fn select(m: M<N>, a: Self, b: Self) -> Self;
}

impl<const N: usize> Lane<N> for F<N> {
    #[inline(always)]
    fn select(m: M<N>, a: Self, b: Self) -> Self {
        let mut out = [0.0; N];
        for l in 0..N {
            out[l] = if m.0[l] { a.0[l] } else { b.0[l] };
        }
        F(out)
    }
}

impl<const N: usize> Lane<N> for U<N> {
    #[inline(always)]
    fn select(m: M<N>, a: Self, b: Self) -> Self {
        let mut out = [0; N];
        for l in 0..N {
            out[l] = if m.0[l] { a.0[l] } else { b.0[l] };
        }
        U(out)
    }
}

macro_rules! float_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<const N: usize> $tr for F<N> {
            type Output = F<N>;
            #[inline(always)]
            fn $f(self, o: F<N>) -> F<N> {
                self.zip(o, |a, b| a $op b)
            }
        }
        impl<const N: usize> $tr<f32> for F<N> {
            type Output = F<N>;
            #[inline(always)]
            fn $f(self, o: f32) -> F<N> {
                self.zip(F::splat(o), |a, b| a $op b)
            }
        }
    };
}
float_op!(Add, add, +);
float_op!(Sub, sub, -);
float_op!(Mul, mul, *);

macro_rules! int_op {
    ($tr:ident, $f:ident, $g:expr) => {
        impl<const N: usize> $tr for U<N> {
            type Output = U<N>;
            #[inline(always)]
            fn $f(self, o: U<N>) -> U<N> {
                self.zip(o, $g)
            }
        }
        impl<const N: usize> $tr<u32> for U<N> {
            type Output = U<N>;
            #[inline(always)]
            fn $f(self, o: u32) -> U<N> {
                self.zip(U::splat(o), $g)
            }
        }
    };
}
int_op!(Add, add, |a: u32, b: u32| a.wrapping_add(b));
int_op!(Mul, mul, |a: u32, b: u32| a.wrapping_mul(b));
int_op!(BitXor, bitxor, |a: u32, b: u32| a ^ b);
int_op!(BitAnd, bitand, |a: u32, b: u32| a & b);

impl<const N: usize> Shr<u32> for U<N> {
    type Output = U<N>;
    #[inline(always)]
    fn shr(self, k: u32) -> U<N> {
        self.zip(U::splat(k), |a, k| a >> k)
    }
}

impl<const N: usize> Shl<u32> for U<N> {
    type Output = U<N>;
    #[inline(always)]
    fn shl(self, k: u32) -> U<N> {
        self.zip(U::splat(k), |a, k| a << k)
    }
}
