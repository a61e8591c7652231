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

mod packing;
mod section;
#[cfg(target_arch = "x86_64")]
mod ssse3;

use packing::*;
pub use section::Section;

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

/// `sections[i]` is entry `i`, as [`Sections::value`].
impl core::ops::Index<usize> for Sections {
    type Output = u16;
    #[inline]
    fn index(&self, i: usize) -> &u16 {
        &self.palettes[self.slot(i)]
    }
}

#[cfg(test)]
mod tests;
