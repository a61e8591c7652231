//! [`Sections`]: a chunk-sized array of `u16` values (block ids, light levels) stored per
//! 16³ section as a palette and packed indices. A uniform section costs its one palette
//! entry; a section of up to 2, 4, 16 or 256 distinct values packs 1, 2, 4 or 8 bits per
//! entry; more are stored as plain values. Most of a chunk is stone below and air above, so a
//! resident chunk holds a fraction of its dense bytes.
//!
//! Widths are powers of two so a row of 16 entries never straddles words: a row is a quarter,
//! half, one, two or four `u64`s, which keeps [`Sections::row`] (what the light body and the
//! mesher read) a handful of shifts. Encoding is deterministic (palette in first-seen order),
//! so equal arrays give equal storage and the derived equality compares values.

use alloc::vec::Vec;

/// Entries along each side of a section.
pub const SECTION_SIDE: usize = 16;
/// Entries in a full section (16 layers of 16 × 16).
pub const SECTION_VOLUME: usize = SECTION_SIDE * SECTION_SIDE * SECTION_SIDE;
/// Entries in a row (one `(y, z)` line along x).
pub const ROW: usize = SECTION_SIDE;
/// Rows in a full section.
pub const SECTION_ROWS: usize = SECTION_VOLUME / ROW;
/// Entries compared per step of the uniform-section check (16 rows).
const UNIFORM_CHECK: usize = 16 * ROW;
/// Largest palette a packed section holds; a section with more distinct values stores them
/// directly (16 bits each).
const MAX_PALETTE: usize = 256;
/// Width of a section stored without palette.
const DIRECT_BITS: u8 = 16;
/// Ids the encoder looks up in a table (larger ones search the palette).
const TABLE_IDS: usize = 256;
/// A table entry for an id not in the palette yet.
const NOT_SEEN: u16 = u16::MAX;
/// Palettes of 1, 2 and 4 bits are padded to 16 entries: every read indexes a fixed-size
/// array with a masked index (no bounds check), for at most 28 bytes more per section.
const SMALL_PALETTE: usize = 16;

#[cfg(target_arch = "x86_64")]
mod ssse3;

/// Where one section lives in the shared arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    /// Bits per entry: 0 (uniform), 1, 2, 4, 8, or [`DIRECT_BITS`] (no palette: the
    /// values themselves stand in the palette array, one per entry).
    bits: u8,
    /// First palette entry (a packed palette is padded to 16 entries, 256 for 8 bits, so
    /// any index a word can hold reads inside it).
    palette: u32,
    /// First word of the packed entries.
    words: u32,
}

/// A chunk-sized array of `u16`, paletted per section. Index `i` is entry `i` of the dense
/// array it was made from (`((y - min_y) * 16 + z) * 16 + x` for blocks and light), section
/// `i / 4096`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sections {
    len: usize,
    heads: Vec<Head>,
    palettes: Vec<u16>,
    words: Vec<u64>,
}

impl Sections {
    /// No entries (what a chunk without blocks or light reads as).
    pub const EMPTY: Sections = Sections {
        len: 0,
        heads: Vec::new(),
        palettes: Vec::new(),
        words: Vec::new(),
    };
}

/// The width that holds indices into a palette of `n` entries.
fn bits_for(n: usize) -> u8 {
    match n {
        0 | 1 => 0,
        2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        17..=MAX_PALETTE => 8,
        _ => DIRECT_BITS,
    }
}

/// Whether every value equals `v`: a plain loop over a slice, which the compiler vectorises
/// (an `any`/`all` stops at each entry and does not).
#[inline]
pub(crate) fn all_equal(s: &[u16], v: u16) -> bool {
    s.iter().fold(true, |ok, &x| ok & (x == v))
}

impl Sections {
    /// Store `values` (any length; the last section may be partial, whole rows of 16 or
    /// not).
    pub fn from_dense(values: &[u16]) -> Sections {
        let mut out = Sections::with_len(values.len());
        let mut index = [0u8; SECTION_VOLUME];
        for section in values.chunks(SECTION_VOLUME) {
            out.push_section(section, &mut index);
        }
        out.finish()
    }

    /// No sections yet, room for those of `len` entries.
    fn with_len(len: usize) -> Sections {
        Sections {
            len,
            heads: Vec::with_capacity((len + SECTION_VOLUME - 1) / SECTION_VOLUME),
            palettes: Vec::new(),
            words: Vec::new(),
        }
    }

    /// Every section pushed: give back the spare room.
    fn finish(mut self) -> Sections {
        self.palettes.shrink_to_fit();
        self.words.shrink_to_fit();
        self
    }

    /// Store `len` entries written section by section: `fill(s, out)` writes the entries of
    /// section `s` (4096, fewer for a partial last one) into `out`. No dense copy of the whole
    /// array is made.
    pub fn from_fn(len: usize, mut fill: impl FnMut(usize, &mut [u16])) -> Sections {
        let mut out = Sections::with_len(len);
        let mut buf = [0u16; SECTION_VOLUME];
        let mut index = [0u8; SECTION_VOLUME];
        for s in 0..(len + SECTION_VOLUME - 1) / SECTION_VOLUME {
            let n = core::cmp::min(SECTION_VOLUME, len - s * SECTION_VOLUME);
            fill(s, &mut buf[..n]);
            out.push_section(&buf[..n], &mut index);
        }
        out.finish()
    }

    /// A chunk of `len` entries, every one `value`.
    pub fn filled(len: usize, value: u16) -> Sections {
        let n_sections = (len + SECTION_VOLUME - 1) / SECTION_VOLUME;
        let head = Head {
            bits: 0,
            palette: 0,
            words: 0,
        };
        Sections {
            len,
            heads: alloc::vec![head; n_sections],
            palettes: if n_sections > 0 {
                alloc::vec![value]
            } else {
                Vec::new()
            },
            words: Vec::new(),
        }
    }

    fn push_section(&mut self, s: &[u16], index: &mut [u8; SECTION_VOLUME]) {
        let first = s[0];
        let words_at = self.words.len() as u32;
        // Checked a block of rows at a time: a mixed section stops at its first block that
        // differs instead of comparing all 4096 entries.
        if s.chunks(UNIFORM_CHECK).all(|b| all_equal(b, first)) {
            // Uniform sections with the value of the previous uniform section share its entry.
            let palette = match self.heads.last() {
                Some(h) if h.bits == 0 && self.palettes[h.palette as usize] == first => h.palette,
                _ => {
                    self.palettes.push(first);
                    (self.palettes.len() - 1) as u32
                }
            };
            self.heads.push(Head {
                bits: 0,
                palette,
                words: words_at,
            });
            return;
        }
        // Palette in first-seen order, indices into `index`. Most rows are one value (stone,
        // air, water), so a row equal to the last value seen is filled without a lookup; ids
        // below 256 (every id of small block lists) find their index in a table, larger ones
        // by a search of the palette.
        let mut palette: Vec<u16> = Vec::with_capacity(SMALL_PALETTE);
        let mut table = [NOT_SEEN; TABLE_IDS];
        palette.push(first);
        if let Some(t) = table.get_mut(usize::from(first)) {
            *t = 0;
        }
        let mut last = (first, 0u8);
        let mut direct = false;
        let whole = s.len() / ROW * ROW;
        let (rows, tail) = s.split_at(whole);
        let (index_rows, index_tail) = index.split_at_mut(whole);
        for (row, idx) in rows.chunks_exact(ROW).zip(index_rows.chunks_exact_mut(ROW)) {
            if all_equal(row, last.0) {
                idx.fill(last.1);
                continue;
            }
            let small = row.iter().fold(0, |m, &v| core::cmp::max(m, v)) < TABLE_IDS as u16;
            for (&v, slot) in row.iter().zip(idx.iter_mut()) {
                // A row of small ids: one table read per entry, its bounds known.
                let seen = if small {
                    table[usize::from(v) & (TABLE_IDS - 1)]
                } else {
                    NOT_SEEN
                };
                let k = match seen {
                    NOT_SEEN => match index_of(v, &mut palette, &mut table) {
                        Some(k) => k,
                        None => {
                            direct = true;
                            break;
                        }
                    },
                    k => k as u8,
                };
                *slot = k;
            }
            if direct {
                break;
            }
            last = (row[ROW - 1], idx[ROW - 1]);
        }
        if !direct {
            // A partial last row (a section of a length that is not a whole number of rows).
            for (&v, slot) in tail.iter().zip(index_tail.iter_mut()) {
                match index_of(v, &mut palette, &mut table) {
                    Some(k) => *slot = k,
                    None => {
                        direct = true;
                        break;
                    }
                }
            }
        }
        let palette_at = self.palettes.len() as u32;
        if direct {
            self.palettes.extend_from_slice(s);
            self.heads.push(Head {
                bits: DIRECT_BITS,
                palette: palette_at,
                words: words_at,
            });
            return;
        }
        let bits = bits_for(palette.len());
        palette.resize(core::cmp::max(1 << bits, SMALL_PALETTE), 0);
        self.palettes.extend_from_slice(&palette);
        let index = &index[..s.len()];
        match bits {
            1 => pack::<1>(index, &mut self.words),
            2 => pack::<2>(index, &mut self.words),
            4 => pack::<4>(index, &mut self.words),
            _ => pack::<8>(index, &mut self.words),
        }
        self.heads.push(Head {
            bits,
            palette: palette_at,
            words: words_at,
        });
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u16> {
        if i < self.len {
            Some(self.value(i))
        } else {
            None
        }
    }

    /// Entry `i` (`i < len()`; panics otherwise, like indexing a slice).
    #[inline]
    pub fn value(&self, i: usize) -> u16 {
        self.palettes[self.slot(i)]
    }

    /// Where entry `i` stands in the palette array.
    #[inline]
    fn slot(&self, i: usize) -> usize {
        assert!(i < self.len, "section index out of range");
        let h = self.heads[i / SECTION_VOLUME];
        let k = i % SECTION_VOLUME;
        let at = h.palette as usize;
        if h.bits == DIRECT_BITS {
            return at + k;
        }
        at + packed_index(&self.words[h.words as usize..], h.bits, k)
    }

    /// The value of every entry of section `s` if the section is uniform.
    pub fn uniform(&self, s: usize) -> Option<u16> {
        let h = self.heads.get(s)?;
        if h.bits == 0 {
            Some(self.palettes[h.palette as usize])
        } else {
            None
        }
    }

    /// The 16 entries from `i` (a multiple of 16, `i + 16 <= len()`) into `out`.
    #[inline]
    pub fn row(&self, i: usize, out: &mut [u16; ROW]) {
        assert!(
            i % ROW == 0 && i + ROW <= self.len,
            "row index out of range"
        );
        self.section(i / SECTION_VOLUME)
            .row(i % SECTION_VOLUME, out);
    }

    /// Sections held (the last may be partial).
    pub fn section_count(&self) -> usize {
        self.heads.len()
    }

    /// Section `s` (`s < section_count()`), its head read once: what a reader of many rows
    /// or entries of one section holds.
    #[inline]
    pub fn section(&self, s: usize) -> Section<'_> {
        let h = self.heads[s];
        let len = core::cmp::min(SECTION_VOLUME, self.len - s * SECTION_VOLUME);
        let at = h.palette as usize;
        let (palette, words) = match h.bits {
            0 => (1, 0),
            DIRECT_BITS => (len, 0),
            8 => (MAX_PALETTE, (len * 8 + 63) / 64),
            bits => (SMALL_PALETTE, (len * bits as usize + 63) / 64),
        };
        let w = h.words as usize;
        Section {
            bits: h.bits,
            len,
            palette: &self.palettes[at..at + palette],
            words: &self.words[w..w + words],
        }
    }

    /// Every entry into `out` (`out.len() == len()`).
    pub fn decode_into(&self, out: &mut [u16]) {
        assert_eq!(out.len(), self.len, "decode into a slice of another length");
        self.decode_prefix_into(out);
    }

    /// The first `out.len()` entries (at most `len()`) into `out`.
    pub fn decode_prefix_into(&self, out: &mut [u16]) {
        assert!(out.len() <= self.len, "decode past the end");
        for (s, dst) in out.chunks_mut(SECTION_VOLUME).enumerate() {
            self.decode_section(s, dst);
        }
    }

    /// The first `dst.len()` entries of section `s` into `dst`.
    fn decode_section(&self, s: usize, dst: &mut [u16]) {
        self.decode_section_mapped(s, |v| v, dst);
    }

    /// The first `dst.len()` entries of section `s` through `map` into `dst`, the palette
    /// mapped once.
    #[inline]
    fn decode_section_mapped(&self, s: usize, map: impl Fn(u16) -> u16, dst: &mut [u16]) {
        self.section(s).decode_mapped_into(map, dst);
    }

    /// The entries of section `s` through `map` into `buf` (the filled prefix, as
    /// [`Sections::section_into`]): each palette entry is mapped once, then the indices unpack
    /// straight to mapped values, so a per-entry lookup the caller would make after decoding
    /// (a block's light properties, say) costs nothing more.
    pub fn section_mapped_into<'b>(
        &self,
        s: usize,
        map: impl Fn(u16) -> u16,
        buf: &'b mut [u16; SECTION_VOLUME],
    ) -> &'b [u16] {
        let n = core::cmp::min(SECTION_VOLUME, self.len - s * SECTION_VOLUME);
        self.decode_section_mapped(s, map, &mut buf[..n]);
        &buf[..n]
    }

    /// The entries of section `s` decoded into `buf`: the filled prefix (4096 entries, fewer
    /// for a partial last section).
    pub fn section_into<'b>(&self, s: usize, buf: &'b mut [u16; SECTION_VOLUME]) -> &'b [u16] {
        let n = core::cmp::min(SECTION_VOLUME, self.len - s * SECTION_VOLUME);
        self.decode_section(s, &mut buf[..n]);
        &buf[..n]
    }

    /// Every entry, a section at a time: `f(entries)` with the 4096 entries of each section in
    /// order (fewer for a partial last one). Streams the array without a dense copy.
    pub fn for_each_section(&self, mut f: impl FnMut(&[u16])) {
        let mut buf = [0u16; SECTION_VOLUME];
        for s in 0..self.heads.len() {
            let n = core::cmp::min(SECTION_VOLUME, self.len - s * SECTION_VOLUME);
            self.decode_section(s, &mut buf[..n]);
            f(&buf[..n]);
        }
    }

    /// Every entry, in a new vector.
    pub fn to_vec(&self) -> Vec<u16> {
        let mut v = alloc::vec![0u16; self.len];
        self.decode_into(&mut v);
        v
    }

    /// The heap bytes held (allocated capacity).
    pub fn heap_bytes(&self) -> usize {
        use core::mem::size_of;
        self.heads.capacity() * size_of::<Head>()
            + self.palettes.capacity() * size_of::<u16>()
            + self.words.capacity() * size_of::<u64>()
    }
}

/// One section of a [`Sections`] ([`Sections::section`]): its width, palette and packed
/// entries, found once. Entry `k` is entry `s * 4096 + k` of the array. Two sections that
/// compare equal hold the same entries (the converse need not hold: equal entries may be
/// stored differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    /// As [`Head::bits`].
    bits: u8,
    /// Entries held (4096, fewer in a partial last section).
    len: usize,
    /// The palette (padded as stored), or the values of a direct section.
    palette: &'a [u16],
    /// The packed entries.
    words: &'a [u64],
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

/// `palette` through `map`, each entry mapped once: what a decode through a mapping reads.
#[inline(always)]
fn mapped<const N: usize>(palette: &[u16; N], map: impl Fn(u16) -> u16) -> [u16; N] {
    let mut out = [0u16; N];
    for (m, &v) in out.iter_mut().zip(palette) {
        *m = map(v);
    }
    out
}

/// The 16 entries of `out` from `at`.
#[inline(always)]
fn placed_row(out: &mut [u16], at: usize) -> &mut [u16; ROW] {
    (&mut out[at..at + ROW]).try_into().expect("a row")
}

/// The palette index of entry `k` of a packed section (`bits` below 16) whose words start
/// `words`. The same steps for every width, a uniform section's included (no bits, an empty
/// mask, whatever word stands there): reads that alternate between sections of different
/// widths, as the mesher's and the light pass's do, take no branch on the width.
#[inline(always)]
fn packed_index(words: &[u64], bits: u8, k: usize) -> usize {
    let bit = k * bits as usize;
    let w = words.get(bit / 64).copied().unwrap_or(0);
    ((w >> (bit % 64)) & ((1u64 << bits) - 1)) as usize
}

/// Entry `x` of each of the first `rows` rows of a `BITS`-bit section through its palette
/// (`N`, a power of two, above every index) into `out`, row `r`'s at `out[place(r)]`. Word
/// by word, the width fixed: a word holds `64 / (16 BITS)` whole rows (half a row at 8
/// bits), so entry `x` of each is one shift by a constant step.
#[inline]
fn column_packed<const BITS: usize, const N: usize>(
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
fn same_indices<const BITS: usize>(fields: u64) -> Option<usize> {
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
fn index_of(v: u16, palette: &mut Vec<u16>, table: &mut [u16; TABLE_IDS]) -> Option<u8> {
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
fn pack<const BITS: usize>(index: &[u8], words: &mut Vec<u64>) {
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
fn unpack_small<const BITS: usize>(words: &[u64], palette: &[u16; SMALL_PALETTE], out: &mut [u16]) {
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
fn unpack_rows<const BITS: usize>(
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
fn unpack<const BITS: usize, const N: usize>(
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

/// `sections[i]` is entry `i`, as [`Sections::value`].
impl core::ops::Index<usize> for Sections {
    type Output = u16;
    #[inline]
    fn index(&self, i: usize) -> &u16 {
        &self.palettes[self.slot(i)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency): xorshift64*.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    /// Sections of every width: uniform, 2, 3, 4, 5, 16, 17, 256 and 257+ distinct values,
    /// in runs and scattered, over a partial last section.
    fn sample(len: usize) -> Vec<u16> {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let distinct = [1usize, 2, 3, 4, 5, 16, 17, 256, 257, 4096];
        let mut v = Vec::with_capacity(len);
        for (s, chunk) in (0..len)
            .collect::<Vec<_>>()
            .chunks(SECTION_VOLUME)
            .enumerate()
        {
            let d = distinct[s % distinct.len()];
            let runs = s % 3 == 0 && d <= MAX_PALETTE;
            for &i in chunk {
                let k = if runs {
                    (i / 37) % d
                } else {
                    (rng.next() % d as u64) as usize
                };
                // Ids below 256 (found in the encoder's table) in every other pass over the
                // widths, arbitrary ids (found by search) in the others.
                v.push(if (s / distinct.len()) % 2 == 0 {
                    (k as u16).wrapping_mul(7919) ^ (s as u16)
                } else {
                    (k as u16 + s as u16) % 256 + (k as u16 / 256) * 256
                });
            }
        }
        v
    }

    #[test]
    fn every_width_unpacks_the_same_both_ways() {
        // Random words decode through the shuffles (on a CPU with SSSE3) and one lookup per
        // entry alike, over whole rows and partial ones.
        let mut rng = Rng(0x0123_4567_89AB_CDEF);
        let words: Vec<u64> = (0..SECTION_VOLUME / 16).map(|_| rng.next()).collect();
        let mut palette = [0u16; SMALL_PALETTE];
        for p in palette.iter_mut() {
            *p = rng.next() as u16;
        }
        for &n in &[1, 16, 21, 48, 63, 64, 65, 4096 - 11, 4096] {
            let (mut fast, mut portable) = (alloc::vec![0u16; n], alloc::vec![0u16; n]);
            unpack_small::<1>(&words, &palette, &mut fast);
            unpack::<1, SMALL_PALETTE>(&words, &palette, 0, &mut portable);
            assert_eq!(fast, portable, "1 bit, {} entries", n);
            unpack_small::<2>(&words, &palette, &mut fast);
            unpack::<2, SMALL_PALETTE>(&words, &palette, 0, &mut portable);
            assert_eq!(fast, portable, "2 bits, {} entries", n);
            unpack_small::<4>(&words, &palette, &mut fast);
            unpack::<4, SMALL_PALETTE>(&words, &palette, 0, &mut portable);
            assert_eq!(fast, portable, "4 bits, {} entries", n);
        }
        // Rows placed apart, every second row from 3 in reverse order.
        let (rows, place) = ((3, 2, 120), |i: usize| (119 - i) * 20);
        let section = |bits: u8| Section {
            bits,
            len: SECTION_VOLUME,
            palette: &palette,
            words: &words,
        };
        for &bits in &[1u8, 2, 4] {
            let (mut fast, mut portable) = (alloc::vec![0u16; 2400], alloc::vec![0u16; 2400]);
            section(bits).rows_mapped_to(rows, |v| v, &mut fast, place);
            match bits {
                1 => unpack_rows::<1>(&words, &palette, rows, &mut portable, place),
                2 => unpack_rows::<2>(&words, &palette, rows, &mut portable, place),
                _ => unpack_rows::<4>(&words, &palette, rows, &mut portable, place),
            }
            assert_eq!(fast, portable, "{} bits, placed rows", bits);
        }
    }

    #[test]
    fn every_width_reads_back_what_was_stored() {
        for &len in &[0, 16, 4096, 4096 * 23 + 256 * 5, 4096 * 24, 4096 * 40] {
            let dense = sample(len);
            let s = Sections::from_dense(&dense);
            assert_eq!(s.len(), len);
            let direct = s.heads.iter().filter(|h| h.bits == DIRECT_BITS).count();
            assert!(
                len < 4096 * 9 || direct > 0,
                "the sample has direct sections"
            );
            assert_eq!(s.to_vec(), dense, "decode, len {}", len);
            for n in [0, len / 3, core::cmp::min(len, len / 2 + 5)] {
                let mut prefix = alloc::vec![0u16; n];
                s.decode_prefix_into(&mut prefix);
                assert_eq!(prefix, dense[..n], "prefix {} of {}", n, len);
            }
            let mut buf = [0u16; SECTION_VOLUME];
            for (k, want) in dense.chunks(SECTION_VOLUME).enumerate() {
                let got = s.section_mapped_into(k, |v| v ^ 0x5A5A, &mut buf);
                assert!(
                    got.iter().zip(want).all(|(&g, &w)| g == w ^ 0x5A5A),
                    "mapped {}",
                    k
                );
            }
            for (i, &v) in dense.iter().enumerate() {
                assert_eq!(s.value(i), v, "value {} of {}", i, len);
                assert_eq!(s.get(i), Some(v));
                assert_eq!(s[i], v);
            }
            let mut row = [0u16; ROW];
            for i in (0..len / ROW).map(|r| r * ROW) {
                s.row(i, &mut row);
                assert_eq!(&row[..], &dense[i..i + ROW], "row {} of {}", i, len);
            }
            assert_eq!(s.section_count(), (len + 4095) / 4096);
            for (k, want) in dense.chunks(SECTION_VOLUME).enumerate() {
                let sec = s.section(k);
                assert_eq!(sec.len(), want.len());
                for (j, &v) in want.iter().enumerate() {
                    assert_eq!(sec.value(j), v, "section {} entry {}", k, j);
                }
                for r in (0..want.len() / ROW).map(|r| r * ROW) {
                    sec.row(r, &mut row);
                    assert_eq!(&row[..], &want[r..r + ROW]);
                }
            }
        }
    }

    #[test]
    fn rows_and_columns_read_back_in_every_width() {
        // Per width, every third row one value (each palette index in turn), the others
        // mixed, one of them differing only in its last entry.
        for &d in &[1usize, 2, 3, 5, 17, 300] {
            let dense: Vec<u16> = (0..SECTION_VOLUME)
                .map(|i| {
                    let (r, j) = (i / ROW, i % ROW);
                    let v = if r % 3 == 0 {
                        r / 3 % d
                    } else if r % 3 == 1 {
                        (r + usize::from(j == ROW - 1)) % d
                    } else {
                        (r + j) % d
                    };
                    1000 + v as u16
                })
                .collect();
            let s = Sections::from_dense(&dense);
            let sec = s.section(0);
            let mut column = [0u16; SECTION_ROWS];
            for x in 0..ROW {
                sec.column(x, &mut column);
                for (r, &v) in column.iter().enumerate() {
                    assert_eq!(v, dense[r * ROW + x], "{} values, column {}", d, x);
                }
                // The first 200 rows mapped and placed in reverse, the rest left as it was.
                let mut placed = [0xdead_u16; SECTION_ROWS];
                sec.column_mapped_to((x, 200), |v| v ^ 0x5a5a, &mut placed, |r| 255 - r);
                for (r, &v) in placed.iter().rev().enumerate() {
                    let want = if r < 200 {
                        dense[r * ROW + x] ^ 0x5a5a
                    } else {
                        0xdead
                    };
                    assert_eq!(v, want, "{} values, placed column {}, row {}", d, x, r);
                }
            }
            for (r, row) in dense.chunks(ROW).enumerate() {
                let want = if row.iter().all(|&v| v == row[0]) {
                    Some(row[0])
                } else {
                    None
                };
                assert_eq!(sec.uniform_row(r * ROW), want, "{} values, row {}", d, r);
            }
            // The same row of every layer, and runs of consecutive rows.
            for &(first, step, n) in &[(0, 16, 16), (15, 16, 16), (7, 16, 3), (5, 1, 40)] {
                let mut rows = alloc::vec![0u16; n * ROW];
                sec.rows_into(first, step, &mut rows);
                for (i, row) in rows.chunks(ROW).enumerate() {
                    let at = (first + i * step) * ROW;
                    assert_eq!(
                        row,
                        &dense[at..at + ROW],
                        "{} values, rows from {}",
                        d,
                        first
                    );
                }
                // Mapped and placed in reverse order 24 entries apart, the 8 between rows
                // left as they were.
                const GAP: u16 = 0xdead;
                let stride = ROW + 8;
                let mut placed = alloc::vec![GAP; n * stride];
                let place = |i: usize| (n - 1 - i) * stride + 8;
                sec.rows_mapped_to((first, step, n), |v| v ^ 0x5a5a, &mut placed, place);
                for i in 0..n {
                    let at = (first + i * step) * ROW;
                    let want: Vec<u16> = dense[at..at + ROW].iter().map(|v| v ^ 0x5a5a).collect();
                    let p = place(i);
                    assert_eq!(
                        &placed[p..p + ROW],
                        &want[..],
                        "{} values, placed row {}",
                        d,
                        i
                    );
                    assert!(placed[p - 8..p].iter().all(|&g| g == GAP), "{} values", d);
                }
            }
        }
    }

    #[test]
    fn widths_follow_the_palette_size() {
        let dense = sample(4096 * 10);
        let s = Sections::from_dense(&dense);
        let bits: Vec<u8> = s.heads.iter().map(|h| h.bits).collect();
        assert_eq!(bits, [0, 1, 2, 2, 4, 4, 8, 8, 16, 16]);
    }

    #[test]
    fn uniform_sections_cost_one_shared_entry() {
        let mut dense = alloc::vec![1u16; 4096 * 12];
        dense.extend(core::iter::repeat(0).take(4096 * 12));
        let s = Sections::from_dense(&dense);
        assert_eq!(s.palettes, [1, 0]);
        assert!(s.words.is_empty());
        assert_eq!(s, Sections::from_dense(&dense), "encoding is deterministic");
        assert_eq!(s.uniform(0), Some(1));
        assert_eq!(s.uniform(23), Some(0));
        assert_eq!(s.uniform(24), None);
        let f = Sections::filled(4096 * 24, 0);
        assert_eq!(f.to_vec(), alloc::vec![0u16; 4096 * 24]);
    }

    #[test]
    fn a_value_first_seen_after_uniform_rows_gets_its_own_index() {
        // Rows of one value, then rows that start with another: both keep their values, for
        // ids the encoder finds in its table and ids it searches for.
        for base in [5u16, 5000] {
            let dense: Vec<u16> = (0..4096)
                .map(|i| {
                    if i < 256 || i % 2 == 1 {
                        base
                    } else {
                        base + 4
                    }
                })
                .collect();
            assert_eq!(
                Sections::from_dense(&dense).to_vec(),
                dense,
                "ids from {}",
                base
            );
        }
    }

    #[test]
    fn heap_bytes_count_heads_palettes_and_words() {
        // A uniform section (one palette entry) and one of two alternating values (a palette
        // of two, one bit per entry: 64 words).
        let mut dense = alloc::vec![7u16; 4096];
        dense.extend((0..4096).map(|i| 1 + (i % 2) as u16));
        let s = Sections::from_dense(&dense);
        let head = core::mem::size_of::<Head>();
        // Palettes: 7, then 1 and 2 padded to 16 entries.
        assert_eq!(s.heap_bytes(), 2 * head + 17 * 2 + 64 * 8);
    }

    #[test]
    fn packed_sections_are_a_fraction_of_dense() {
        // Two values in a section: 1 bit each, 512 bytes instead of 8 KiB.
        let dense: Vec<u16> = (0..4096).map(|i| (i % 2) as u16 * 5).collect();
        let s = Sections::from_dense(&dense);
        assert_eq!(s.words.len() * 8, 512);
        assert_eq!(s.to_vec(), dense);
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn reads_past_the_end_panic_like_a_slice() {
        let s = Sections::from_dense(&[1, 2, 3]);
        assert_eq!(s.get(3), None);
        s.value(3);
    }
}
