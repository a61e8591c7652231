//! Light properties' opacity bytes, a row of cells at a time: SSE2 on x86-64, a portable
//! `u64` form elsewhere (tested against each other).

use crate::world::sections::ROW;

/// Copy a row of light properties' opacity bytes (the low bytes) into `dst`; whether any
/// has an emission (a high byte). On x86-64, SSE2 (always present there): mask the low
/// bytes, pack the two halves of the row with unsigned saturation (exact, every value is
/// below 256 once masked) and test the high bytes of both halves at once.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
#[inline(always)]
pub(super) fn copy_row(dst: &mut [u8], src: &[u16]) -> bool {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_packus_epi16, _mm_set1_epi16, _mm_setzero_si128,
        _mm_storeu_si128,
    };
    let dst: &mut [u8; ROW] = dst.try_into().expect("a row of cells");
    let src: &[u16; ROW] = src.try_into().expect("a row of cells");
    // SAFETY: SSE2 is enabled for this build (the `cfg` above). The loads read the 16 `u16`s
    // of `src` (32 bytes, two unaligned 16-byte loads) and the store writes the 16 bytes of
    // `dst`, both arrays of exactly that size.
    unsafe {
        let lo = _mm_loadu_si128(src.as_ptr() as *const __m128i);
        let hi = _mm_loadu_si128(src.as_ptr().add(ROW / 2) as *const __m128i);
        let low_bytes = _mm_set1_epi16(0x00FF);
        let packed = _mm_packus_epi16(_mm_and_si128(lo, low_bytes), _mm_and_si128(hi, low_bytes));
        _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, packed);
        let high = _mm_andnot_si128(low_bytes, _mm_or_si128(lo, hi));
        _mm_movemask_epi8(_mm_cmpeq_epi8(high, _mm_setzero_si128())) != 0xFFFF
    }
}

/// [`copy_row`] on every other target: four properties at a time in a `u64`, built and taken
/// apart arithmetically, so the bytes are the same on either endianness.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn copy_row(dst: &mut [u8], src: &[u16]) -> bool {
    copy_row_portable(dst, src)
}

/// The portable [`copy_row`] (the x86-64 one is tested against it).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn copy_row_portable(dst: &mut [u8], src: &[u16]) -> bool {
    const LOW: u64 = 0x00FF_00FF_00FF_00FF;
    let dst: &mut [u8; ROW] = dst.try_into().expect("a row of cells");
    let src: &[u16; ROW] = src.try_into().expect("a row of cells");
    let mut high = 0;
    for (d, p) in dst.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
        let w =
            u64::from(p[0]) | u64::from(p[1]) << 16 | u64::from(p[2]) << 32 | u64::from(p[3]) << 48;
        high |= w & !LOW;
        let low = w & LOW;
        let low = (low | low >> 8) & 0x0000_FFFF_0000_FFFF;
        let low = (low | low >> 16) as u32;
        d.copy_from_slice(&low.to_le_bytes());
    }
    high != 0
}
