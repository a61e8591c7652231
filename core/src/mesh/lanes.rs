//! Sixteen-cell lane work for the mesher's rows: which cells of a 16-block run equal another
//! run's or one block id, as a 16-bit mask (bit `i` for cell `i`). The compiler makes a fair vector compare of the portable loops but no movemask,
//! so they cost about 50 instructions each; on x86-64 targets with SSE2 (every hosted x86-64
//! target; a `-none` target such as `x86_64-unknown-none` may leave it out) the same results
//! come from SSE2 in five to fifteen, chosen at compile time (`target_feature = "sse2"`), so
//! there is no run-time check. Integer work: both ways give the same bits
//! (`lanes_match_portable` tests every lane pattern that matters).
//!
//! `unsafe` is confined to the SSE2 functions: the intrinsics, and unaligned loads from
//! references to sixteen `u16`s.

#![allow(unsafe_code)]

use crate::world::block::BlockId;

/// Bit `i` set where `a[i] == b[i]`.
#[inline(always)]
pub fn equal(a: &[BlockId; 16], b: &[BlockId; 16]) -> u16 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::equal(a, b)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::equal(a, b)
    }
}

/// Bit `i` set where `a[i] == id`.
#[inline(always)]
pub fn equal_to(a: &[BlockId; 16], id: BlockId) -> u16 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::equal_to(a, id)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::equal_to(a, id)
    }
}

/// The loops the compiler vectorises itself (every target without the SSE2 path, and the
/// reference the SSE2 path is tested against: unused there outside the tests).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
pub(crate) mod portable {
    use crate::world::block::BlockId;

    /// [`super::equal`], cell by cell.
    #[inline(always)]
    pub fn equal(a: &[BlockId; 16], b: &[BlockId; 16]) -> u16 {
        let mut m = 0u16;
        for i in 0..16 {
            m |= u16::from(a[i] == b[i]) << i;
        }
        m
    }

    /// [`super::equal_to`], cell by cell.
    #[inline(always)]
    pub fn equal_to(a: &[BlockId; 16], id: BlockId) -> u16 {
        equal(a, &[id; 16])
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod sse2 {
    use core::arch::x86_64::*;

    use crate::world::block::BlockId;

    /// The two halves of a run as vectors.
    #[inline(always)]
    fn load(a: &[BlockId; 16]) -> (__m128i, __m128i) {
        let p = a.as_ptr() as *const __m128i;
        // SAFETY: `a` is 32 readable bytes; `loadu` has no alignment requirement; SSE2 is part
        // of x86-64.
        unsafe { (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) }
    }

    /// Sixteen 16-bit lane masks (all ones or zero) as one bit each.
    #[inline(always)]
    fn bits(lo: __m128i, hi: __m128i) -> u16 {
        // SAFETY: SSE2 is part of x86-64. Saturating packing keeps 0 and -1 as they are.
        unsafe { _mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u16 }
    }

    /// [`super::equal`].
    #[inline(always)]
    pub fn equal(a: &[BlockId; 16], b: &[BlockId; 16]) -> u16 {
        let ((a0, a1), (b0, b1)) = (load(a), load(b));
        // SAFETY: SSE2 is part of x86-64.
        unsafe { bits(_mm_cmpeq_epi16(a0, b0), _mm_cmpeq_epi16(a1, b1)) }
    }

    /// [`super::equal_to`].
    #[inline(always)]
    pub fn equal_to(a: &[BlockId; 16], id: BlockId) -> u16 {
        let (a0, a1) = load(a);
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let x = _mm_set1_epi16(id as i16);
            bits(_mm_cmpeq_epi16(a0, x), _mm_cmpeq_epi16(a1, x))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every single-lane difference, every alternating and random pattern, ids at both ends
    /// of the range (the sign bit of a 16-bit lane is where a signed compare or pack would go
    /// wrong): the dispatched path equals the portable loops.
    #[test]
    fn lanes_match_portable() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let ids = [0u16, 1, 2, 0x7fff, 0x8000, 0xfffe, 0xffff];
        for &base in &ids {
            let a = [base; 16];
            for lane in 0..16 {
                for &other in &ids {
                    let mut b = a;
                    b[lane] = other;
                    assert_eq!(equal(&a, &b), portable::equal(&a, &b));
                    assert_eq!(equal_to(&b, base), portable::equal_to(&b, base));
                    let want = if other == base {
                        0xffff
                    } else {
                        !(1u16 << lane)
                    };
                    assert_eq!(equal(&a, &b), want);
                }
            }
        }
        for _ in 0..10_000 {
            let r = next();
            let mut a = [0u16; 16];
            let mut b = [0u16; 16];
            for i in 0..16 {
                a[i] = ids[((r >> (3 * i)) % 7) as usize];
                b[i] = if (r >> (48 + i % 16)) & 1 == 1 {
                    a[i]
                } else {
                    next() as u16
                };
            }
            assert_eq!(equal(&a, &b), portable::equal(&a, &b));
            assert_eq!(equal_to(&a, a[3]), portable::equal_to(&a, a[3]));
            let expect = (0..16).fold(0u16, |m, i| m | u16::from(a[i] == b[i]) << i);
            assert_eq!(equal(&a, &b), expect);
        }
    }
}
