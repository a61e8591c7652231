//! The unpack of 1-, 2- and 4-bit sections with SSSE3 byte shuffles: each row's 16 indices
//! as nibbles, then the palette's low and high bytes looked up by `pshufb`, 16 entries in
//! about ten instructions where the portable unpack takes a load and a store per entry.
//! Chosen at run time (the process's one CPU check, [`crate::noise::def::ssse3`]); the
//! portable unpack gives the same values (`every_width_unpacks_the_same_both_ways`).
//!
//! `unsafe` is confined to this file: the intrinsics, and unaligned loads and stores of
//! whole rows inside slices.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::SMALL_PALETTE;

/// Nibbles of every field: the mask that keeps the low nibble of each byte.
const LOW_NIBBLES: i8 = 0x0f;

/// The 16 indices of row `r` (entries `16 r .. 16 r + 16`) of a `BITS`-bit section's
/// `words`, as 16 nibbles (entry `j` at bits `4 j`): fields spread apart by shifts and masks.
#[inline(always)]
pub(super) fn row_nibbles<const BITS: usize>(words: &[u64], r: usize) -> u64 {
    match BITS {
        4 => words[r],
        2 => {
            // 16 two-bit fields of one half word, each moved into a nibble.
            let mut x = (words[r / 2] >> (32 * (r % 2))) & 0xffff_ffff;
            x = (x | x << 16) & 0x0000_ffff_0000_ffff;
            x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
            x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
            (x | x << 2) & 0x3333_3333_3333_3333
        }
        _ => {
            // 16 one-bit fields of a quarter word, each moved into a nibble.
            let mut x = (words[r / 4] >> (16 * (r % 4))) & 0xffff;
            x = (x | x << 24) & 0x0000_00ff_0000_00ff;
            x = (x | x << 12) & 0x000f_000f_000f_000f;
            x = (x | x << 6) & 0x0303_0303_0303_0303;
            (x | x << 3) & 0x1111_1111_1111_1111
        }
    }
}

/// Unpack `n` rows `first`, `first + step`, … of a `BITS`-bit section's `words` through its
/// 16-entry `palette` into `out`, row `i` at `out[place(i)..][..16]`, if the CPU runs
/// SSSE3; whether it did.
#[inline]
pub(super) fn unpack_rows<const BITS: usize>(
    words: &[u64],
    palette: &[u16; SMALL_PALETTE],
    (first, step, n): (usize, usize, usize),
    out: &mut [u16],
    place: impl Fn(usize) -> usize,
) -> bool {
    if !crate::noise::def::ssse3() {
        return false;
    }
    // SAFETY: the CPU runs SSSE3 (the check just above).
    unsafe { unpack_rows_ssse3::<BITS>(words, palette, (first, step, n), out, place) };
    true
}

/// [`unpack_rows`] on a CPU with SSSE3.
///
/// # Safety
/// The CPU must run SSSE3.
#[target_feature(enable = "ssse3")]
unsafe fn unpack_rows_ssse3<const BITS: usize>(
    words: &[u64],
    palette: &[u16; SMALL_PALETTE],
    (first, step, n): (usize, usize, usize),
    out: &mut [u16],
    place: impl Fn(usize) -> usize,
) {
    let (mut low, mut high) = ([0u8; SMALL_PALETTE], [0u8; SMALL_PALETTE]);
    for ((l, h), &v) in low.iter_mut().zip(high.iter_mut()).zip(palette) {
        let [a, b] = v.to_le_bytes();
        *l = a;
        *h = b;
    }
    // SAFETY: 16-byte arrays; `loadu` has no alignment requirement.
    let low = _mm_loadu_si128(low.as_ptr() as *const __m128i);
    // SAFETY: as above.
    let high = _mm_loadu_si128(high.as_ptr() as *const __m128i);
    let mask = _mm_set1_epi8(LOW_NIBBLES);
    for i in 0..n {
        let row = super::placed_row(out, place(i));
        let nibbles = _mm_cvtsi64_si128(row_nibbles::<BITS>(words, first + i * step) as i64);
        // Byte b holds entries 2b (low nibble) and 2b + 1 (high): interleaved back into
        // entry order, one index per byte.
        let index = _mm_unpacklo_epi8(
            _mm_and_si128(nibbles, mask),
            _mm_and_si128(_mm_srli_epi16(nibbles, 4), mask),
        );
        let (l, h) = (_mm_shuffle_epi8(low, index), _mm_shuffle_epi8(high, index));
        let p = row.as_mut_ptr() as *mut __m128i;
        // SAFETY: `row` is 16 `u16`s, 32 writable bytes; `storeu` has no alignment
        // requirement.
        _mm_storeu_si128(p, _mm_unpacklo_epi8(l, h));
        // SAFETY: as above, its second half.
        _mm_storeu_si128(p.add(1), _mm_unpackhi_epi8(l, h));
    }
}
