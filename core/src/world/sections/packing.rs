//! Palette indices packed into `u64` words, and unpacked again: the bit-level helpers of
//! [`Sections`] and [`Section`].

use super::*;

/// `palette` through `map`, each entry mapped once: what a decode through a mapping reads.
#[inline(always)]
pub(super) fn mapped<const N: usize>(palette: &[u16; N], map: impl Fn(u16) -> u16) -> [u16; N] {
    let mut out = [0u16; N];
    for (m, &v) in out.iter_mut().zip(palette) {
        *m = map(v);
    }
    out
}

/// The 16 entries of `out` from `at`.
#[inline(always)]
pub(super) fn placed_row(out: &mut [u16], at: usize) -> &mut [u16; ROW] {
    (&mut out[at..at + ROW]).try_into().expect("a row")
}

/// The palette index of entry `k` of a packed section (`bits` below 16) whose words start
/// `words`. The same steps for every width, a uniform section's included (no bits, an empty
/// mask, whatever word stands there): reads that alternate between sections of different
/// widths, as the mesher's and the light pass's do, take no branch on the width.
#[inline(always)]
pub(super) fn packed_index(words: &[u64], bits: u8, k: usize) -> usize {
    let bit = k * bits as usize;
    let w = words.get(bit / 64).copied().unwrap_or(0);
    ((w >> (bit % 64)) & ((1u64 << bits) - 1)) as usize
}

/// Entry `x` of each of the first `rows` rows of a `BITS`-bit section through its palette
/// (`N`, a power of two, above every index) into `out`, row `r`'s at `out[place(r)]`. Word
/// by word, the width fixed: a word holds `64 / (16 BITS)` whole rows (half a row at 8
/// bits), so entry `x` of each is one shift by a constant step.
#[inline]
pub(super) fn column_packed<const BITS: usize, const N: usize>(
    words: &[u64],
    palette: &[u16; N],
    x: usize,
    rows: usize,
    out: &mut [u16],
    place: impl Fn(usize) -> usize,
) {
    let mask = (1u64 << BITS) - 1;
    let lookup = |w: u64, shift: usize| palette[((w >> shift) & mask) as usize & (N - 1)];
    if BITS * ROW > 64 {
        // A row spans two words: entry x lies in the second when past the first's fields.
        let (skip, shift) = ((x * BITS) / 64, (x * BITS) % 64);
        for (r, pair) in words.chunks_exact(2).take(rows).enumerate() {
            out[place(r)] = lookup(pair[skip], shift);
        }
        return;
    }
    if BITS * ROW == 64 {
        // One row per word (4 bits): the common case, a plain loop.
        let shift = x * BITS;
        for (r, &w) in words.iter().take(rows).enumerate() {
            out[place(r)] = lookup(w, shift);
        }
        return;
    }
    let rows_per_word = 64 / (BITS * ROW);
    for r in 0..rows {
        let w = words[r / rows_per_word];
        out[place(r)] = lookup(w, ((r % rows_per_word) * ROW + x) * BITS);
    }
}

/// The index every `BITS`-bit field of `fields` (its low `64 / BITS * BITS` bits, 16 fields
/// for widths up to 4, 8 for 8 bits) holds, if they all hold one: the fields equal the first
/// one repeated.
#[inline(always)]
pub(super) fn same_indices<const BITS: usize>(fields: u64) -> Option<usize> {
    let n = core::cmp::min(ROW, 64 / BITS);
    let field = (1u64 << BITS) - 1;
    let span = if BITS * n == 64 {
        u64::MAX
    } else {
        (1u64 << (BITS * n)) - 1
    };
    let repeat = span / field;
    let first = fields & field;
    if fields == first * repeat {
        Some(first as usize)
    } else {
        None
    }
}

/// The palette index of `v`, added if new (`table` caches the index of ids below
/// [`TABLE_IDS`]); `None` when the palette is full.
#[inline]
pub(super) fn index_of(v: u16, palette: &mut Vec<u16>, table: &mut [u16; TABLE_IDS]) -> Option<u8> {
    let k = match table.get(usize::from(v)) {
        Some(&k) if k != NOT_SEEN => return Some(k as u8),
        Some(_) => None,
        None => palette.iter().position(|&p| p == v),
    };
    match k {
        Some(k) => Some(k as u8),
        None if palette.len() < MAX_PALETTE => {
            palette.push(v);
            let k = palette.len() - 1;
            if let Some(t) = table.get_mut(usize::from(v)) {
                *t = k as u16;
            }
            Some(k as u8)
        }
        None => None,
    }
}

/// Pack `index` (each below `1 << BITS`) into words, `64 / BITS` per word, low bits first.
#[inline]
pub(super) fn pack<const BITS: usize>(index: &[u8], words: &mut Vec<u64>) {
    let per_word = 64 / BITS;
    words.reserve((index.len() + per_word - 1) / per_word);
    let mut whole = index.chunks_exact(per_word);
    for q in &mut whole {
        let mut w = 0u64;
        for (j, &k) in q.iter().enumerate() {
            w |= u64::from(k) << (BITS * j);
        }
        words.push(w);
    }
    let rest = whole.remainder();
    if !rest.is_empty() {
        let mut w = 0u64;
        for (j, &k) in rest.iter().enumerate() {
            w |= u64::from(k) << (BITS * j);
        }
        words.push(w);
    }
}

/// Unpack the first `out.len()` entries of a 1-, 2- or 4-bit section from its `words`
/// through its 16-entry palette: whole rows with SSSE3 shuffles where the CPU has them
/// (several times faster), the rest one lookup per entry.
#[inline]
pub(super) fn unpack_small<const BITS: usize>(
    words: &[u64],
    palette: &[u16; SMALL_PALETTE],
    out: &mut [u16],
) {
    let whole = out.len() / ROW * ROW;
    #[cfg(target_arch = "x86_64")]
    if whole > 0
        && ssse3::unpack_rows::<BITS>(words, palette, (0, 1, whole / ROW), out, |i| i * ROW)
    {
        if whole < out.len() {
            // The partial row lies in one word: whole rows end on a word's field boundary.
            let bit = whole * BITS;
            unpack::<BITS, SMALL_PALETTE>(
                &words[bit / 64..],
                palette,
                bit % 64 / BITS,
                &mut out[whole..],
            );
        }
        return;
    }
    let _ = whole;
    unpack::<BITS, SMALL_PALETTE>(words, palette, 0, out);
}

/// Unpack `n` rows `first`, `first + step`, … of a 1-, 2- or 4-bit section's `words`
/// through its 16-entry `palette` into `out`, row `i` at `out[place(i)..][..16]`: one lookup
/// per entry (what CPUs without SSSE3 run).
#[inline]
pub(super) fn unpack_rows<const BITS: usize>(
    words: &[u64],
    palette: &[u16; SMALL_PALETTE],
    (first, step, n): (usize, usize, usize),
    out: &mut [u16],
    place: impl Fn(usize) -> usize,
) {
    // A row is whole in one word: skip the entries before it there.
    let per_word = 64 / BITS;
    for i in 0..n {
        let k = (first + i * step) * ROW;
        let row = placed_row(out, place(i));
        unpack::<BITS, SMALL_PALETTE>(&words[k / per_word..], palette, k % per_word, row);
    }
}

/// Unpack `out.len()` entries from `words`, starting at entry `skip` of the first word,
/// through `palette` (`N`, a power of two, above every index: the masked index needs no
/// bounds check). With `skip > 0` the entries lie in the first word.
#[inline]
pub(super) fn unpack<const BITS: usize, const N: usize>(
    words: &[u64],
    palette: &[u16; N],
    skip: usize,
    out: &mut [u16],
) {
    let per_word = 64 / BITS;
    let mask = (1u64 << BITS) - 1;
    let lookup = |w: u64, j: usize| palette[((w >> (BITS * j)) & mask) as usize & (N - 1)];
    if skip > 0 || out.len() < per_word {
        let w = words[0] >> (BITS * skip);
        for (j, slot) in out.iter_mut().enumerate() {
            *slot = lookup(w, j);
        }
        return;
    }
    let mut whole = out.chunks_exact_mut(per_word);
    let mut ws = words.iter();
    for (c, &w) in (&mut whole).zip(&mut ws) {
        for (j, slot) in c.iter_mut().enumerate() {
            *slot = lookup(w, j);
        }
    }
    let rest = whole.into_remainder();
    if let (false, Some(&w)) = (rest.is_empty(), ws.next()) {
        for (j, slot) in rest.iter_mut().enumerate() {
            *slot = lookup(w, j);
        }
    }
}
