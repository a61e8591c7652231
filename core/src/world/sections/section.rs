//! One section of a [`Sections`], found once: its width, palette and packed entries, and
//! the reads and decodes over them.

use super::*;

/// One section of a [`Sections`] ([`Sections::section`]): its width, palette and packed
/// entries, found once. Entry `k` is entry `s * 4096 + k` of the array. Two sections that
/// compare equal hold the same entries (the converse need not hold: equal entries may be
/// stored differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    /// As [`Head::bits`].
    pub(super) bits: u8,
    /// Entries held (4096, fewer in a partial last section).
    pub(super) len: usize,
    /// The palette (padded as stored), or the values of a direct section.
    pub(super) palette: &'a [u16],
    /// The packed entries.
    pub(super) words: &'a [u64],
}

impl Section<'_> {
    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of every entry, if the section holds one value.
    #[inline]
    pub fn uniform(&self) -> Option<u16> {
        if self.bits == 0 {
            Some(self.palette[0])
        } else {
            None
        }
    }

    /// The first `dst.len()` entries (at most `len()`) into `dst`.
    #[inline]
    pub fn decode_into(&self, dst: &mut [u16]) {
        self.decode_mapped_into(|v| v, dst);
    }

    /// The first `dst.len()` entries (at most `len()`) through `map` into `dst`, the palette
    /// mapped once: the indices unpack straight to mapped values.
    #[inline]
    pub fn decode_mapped_into(&self, map: impl Fn(u16) -> u16, dst: &mut [u16]) {
        assert!(dst.len() <= self.len, "decode past the section's end");
        let words = self.words;
        match self.bits {
            0 => dst.fill(map(self.palette[0])),
            1 | 2 | 4 => {
                let small = mapped(self.small(), &map);
                match self.bits {
                    1 => unpack_small::<1>(words, &small, dst),
                    2 => unpack_small::<2>(words, &small, dst),
                    _ => unpack_small::<4>(words, &small, dst),
                }
            }
            8 => {
                let large = mapped(self.large(), &map);
                unpack::<8, MAX_PALETTE>(words, &large, 0, dst);
            }
            _ => {
                for (d, &v) in dst.iter_mut().zip(self.palette) {
                    *d = map(v);
                }
            }
        }
    }

    /// Entry `k` (`k < len()`).
    #[inline]
    pub fn value(&self, k: usize) -> u16 {
        assert!(k < self.len, "section index out of range");
        if self.bits == DIRECT_BITS {
            return self.palette[k];
        }
        self.palette[packed_index(self.words, self.bits, k)]
    }

    /// The 16 entries from `k` (a multiple of 16, `k + 16 <= len()`) into `out`.
    #[inline]
    pub fn row(&self, k: usize, out: &mut [u16; ROW]) {
        assert!(
            k % ROW == 0 && k + ROW <= self.len,
            "row index out of range"
        );
        let words = self.words;
        match self.bits {
            0 => out.fill(self.palette[0]),
            1 => unpack::<1, SMALL_PALETTE>(&words[k / 64..k / 64 + 1], self.small(), k % 64, out),
            2 => unpack::<2, SMALL_PALETTE>(&words[k / 32..k / 32 + 1], self.small(), k % 32, out),
            4 => unpack::<4, SMALL_PALETTE>(&words[k / 16..k / 16 + 1], self.small(), 0, out),
            8 => unpack::<8, MAX_PALETTE>(&words[k / 8..k / 8 + 2], self.large(), 0, out),
            _ => out.copy_from_slice(&self.palette[k..k + ROW]),
        }
    }

    /// Rows `first`, `first + step`, … (row `r` is entries `16 r .. 16 r + 16`) into the
    /// 16-entry rows of `out` (`out.len()` a multiple of 16): the same row of each layer of
    /// a section, say, with the width matched once and, at 1, 2 and 4 bits, the shuffles of
    /// the bulk unpack.
    pub fn rows_into(&self, first: usize, step: usize, out: &mut [u16]) {
        assert!(out.len() % ROW == 0, "rows into a partial row");
        let n = out.len() / ROW;
        self.rows_mapped_to((first, step, n), |v| v, out, |i| i * ROW);
    }

    /// `n` rows `first`, `first + step`, … through `map` into `out`, row `i` at
    /// `out[place(i)..][..16]`: what a reader that lays the rows out in an array of its own
    /// (a row of a wider grid, say) calls, so the rows need no copy afterwards. The palette is
    /// mapped once; at 1, 2 and 4 bits the rows unpack with the bulk unpack's shuffles.
    #[inline]
    pub fn rows_mapped_to(
        &self,
        (first, step, n): (usize, usize, usize),
        map: impl Fn(u16) -> u16,
        out: &mut [u16],
        place: impl Fn(usize) -> usize,
    ) {
        assert!(
            n == 0 || (first + (n - 1) * step) * ROW + ROW <= self.len,
            "rows out of range"
        );
        let words = self.words;
        match self.bits {
            0 => {
                let v = map(self.palette[0]);
                for i in 0..n {
                    placed_row(out, place(i)).fill(v);
                }
            }
            1 | 2 | 4 => {
                let small = mapped(self.small(), &map);
                #[cfg(target_arch = "x86_64")]
                {
                    let rows = (first, step, n);
                    let done = match self.bits {
                        1 => ssse3::unpack_rows::<1>(words, &small, rows, out, &place),
                        2 => ssse3::unpack_rows::<2>(words, &small, rows, out, &place),
                        _ => ssse3::unpack_rows::<4>(words, &small, rows, out, &place),
                    };
                    if done {
                        return;
                    }
                }
                let rows = (first, step, n);
                match self.bits {
                    1 => unpack_rows::<1>(words, &small, rows, out, place),
                    2 => unpack_rows::<2>(words, &small, rows, out, place),
                    _ => unpack_rows::<4>(words, &small, rows, out, place),
                }
            }
            8 => {
                let large = mapped(self.large(), &map);
                for i in 0..n {
                    let k = (first + i * step) * ROW;
                    unpack::<8, MAX_PALETTE>(
                        &words[k / 8..k / 8 + 2],
                        &large,
                        0,
                        placed_row(out, place(i)),
                    );
                }
            }
            _ => {
                for i in 0..n {
                    let k = (first + i * step) * ROW;
                    for (o, &v) in placed_row(out, place(i))
                        .iter_mut()
                        .zip(&self.palette[k..k + ROW])
                    {
                        *o = map(v);
                    }
                }
            }
        }
    }

    /// Entry `x` of every row (`x < 16`; 256 rows, fewer in a partial section) into the
    /// front of `out`: a column of the section, for a reader that needs one cell of each
    /// row (the edge of a neighbouring chunk).
    pub fn column(&self, x: usize, out: &mut [u16; SECTION_ROWS]) {
        self.column_mapped_to((x, self.len / ROW), |v| v, out, |r| r);
    }

    /// Entry `x` of the first `rows` rows through `map` into `out`, row `r`'s at
    /// `out[place(r)]`: what a reader that lays the column out in an array of its own (the
    /// edge of a wider grid) calls, so it needs no copy afterwards. The palette is mapped
    /// once.
    #[inline]
    pub fn column_mapped_to(
        &self,
        (x, rows): (usize, usize),
        map: impl Fn(u16) -> u16,
        out: &mut [u16],
        place: impl Fn(usize) -> usize,
    ) {
        assert!(x < ROW, "column out of range");
        assert!(rows <= self.len / ROW, "rows out of range");
        match self.bits {
            0 => {
                let v = map(self.palette[0]);
                for r in 0..rows {
                    out[place(r)] = v;
                }
            }
            DIRECT_BITS => {
                for r in 0..rows {
                    out[place(r)] = map(self.palette[r * ROW + x]);
                }
            }
            1 | 2 | 4 => {
                let small = mapped(self.small(), &map);
                match self.bits {
                    1 => column_packed::<1, SMALL_PALETTE>(self.words, &small, x, rows, out, place),
                    2 => column_packed::<2, SMALL_PALETTE>(self.words, &small, x, rows, out, place),
                    _ => column_packed::<4, SMALL_PALETTE>(self.words, &small, x, rows, out, place),
                }
            }
            _ => {
                let large = mapped(self.large(), &map);
                column_packed::<8, MAX_PALETTE>(self.words, &large, x, rows, out, place)
            }
        }
    }

    /// The value of the 16 entries from `k` (as [`Section::row`]) if they are all one,
    /// found from the packed indices without decoding them: most rows are one block or one
    /// light level.
    #[inline]
    pub fn uniform_row(&self, k: usize) -> Option<u16> {
        assert!(
            k % ROW == 0 && k + ROW <= self.len,
            "row index out of range"
        );
        let words = self.words;
        let index = match self.bits {
            0 => return Some(self.palette[0]),
            1 => same_indices::<1>((words[k / 64] >> (k % 64)) & 0xffff)?,
            2 => same_indices::<2>((words[k / 32] >> (2 * (k % 32))) & 0xffff_ffff)?,
            4 => same_indices::<4>(words[k / 16])?,
            8 => {
                let (a, b) = (words[k / 8], words[k / 8 + 1]);
                if a != b {
                    return None;
                }
                same_indices::<8>(a)?
            }
            _ => {
                let row = &self.palette[k..k + ROW];
                return if all_equal(row, row[0]) {
                    Some(row[0])
                } else {
                    None
                };
            }
        };
        Some(self.palette[index])
    }

    /// The 16-entry palette of a 1-, 2- or 4-bit section.
    #[inline]
    fn small(&self) -> &[u16; SMALL_PALETTE] {
        self.palette
            .try_into()
            .expect("small palettes are padded to 16 entries")
    }

    /// The 256-entry palette of an 8-bit section.
    #[inline]
    fn large(&self) -> &[u16; MAX_PALETTE] {
        self.palette
            .try_into()
            .expect("8-bit palettes hold 256 entries")
    }
}
