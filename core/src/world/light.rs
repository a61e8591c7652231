//! The `light` status body: sky light and block light (0..=15) flood-filled over the merged
//! blocks of the chunk and its eight neighbours, so light crosses borders.
//!
//! Rules (per block): sky light is 15 in a column from the top down through blocks with
//! opacity 0, losing `opacity` per block through filtering blocks (water, leaves), and stops
//! at an opaque block; block light starts at each emitter's emission. Both then spread to the
//! six neighbours, losing `1 + opacity(target)` per step; opaque blocks (opacity 15) take no
//! light. The fill runs over the 3 × 3 chunks (48 × 48 columns) up to 15 blocks above their
//! highest block: every source that can reach the centre chunk lies inside (light travels at
//! most 14 blocks). Paths that would leave the 3 × 3 area and come back are not followed
//! (documented limitation; they need a wall across the whole neighbourhood).

use alloc::vec::Vec;

use crate::world::block::BlockId;
use crate::world::chunk::Merged;
use crate::world::dims::Dims;
use crate::world::heightmap::Heightmap;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::palette::Palette;
use crate::world::sections::{Sections, ROW, SECTION_SIDE, SECTION_VOLUME};

/// Sky and block light of one chunk (0..=15 per block, index as the blocks), paletted per
/// section: a section all dark or all lit costs one entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LightData {
    /// Sky light.
    pub sky: Sections,
    /// Block light.
    pub block: Sections,
}

impl LightData {
    /// Sky light of block index `i` (0 past the end).
    #[inline]
    pub fn sky_at(&self, i: usize) -> u8 {
        level(&self.sky, i)
    }
    /// Block light of block index `i` (0 past the end).
    #[inline]
    pub fn block_at(&self, i: usize) -> u8 {
        level(&self.block, i)
    }
    /// Sky light nibble-packed (block index `i` is byte `i / 2`, low nibble for even `i`):
    /// the layout of the C copies, records and digests.
    pub fn sky_nibbles(&self) -> Vec<u8> {
        to_nibbles(&self.sky)
    }
    /// Block light nibble-packed, as [`LightData::sky_nibbles`].
    pub fn block_nibbles(&self) -> Vec<u8> {
        to_nibbles(&self.block)
    }
    /// Light of `volume` blocks from nibble-packed sky and block light (`(volume + 1) / 2`
    /// bytes each).
    pub fn from_nibbles(volume: usize, sky: &[u8], block: &[u8]) -> LightData {
        LightData {
            sky: from_nibbles(volume, sky),
            block: from_nibbles(volume, block),
        }
    }
}

#[inline]
fn level(s: &Sections, i: usize) -> u8 {
    s.get(i).map_or(0, |v| v as u8)
}

fn to_nibbles(s: &Sections) -> Vec<u8> {
    let mut out = Vec::with_capacity((s.len() + 1) / 2);
    for_each_nibble_run(s, |b| out.extend_from_slice(b));
    out
}

/// Light levels nibble-packed, a section at a time (sections hold an even count, so no byte
/// straddles two): `f(bytes)` with up to 2048 bytes each, in order.
pub fn for_each_nibble_run(s: &Sections, mut f: impl FnMut(&[u8])) {
    let mut levels = [0u16; SECTION_VOLUME];
    let mut bytes = [0u8; SECTION_VOLUME / 2];
    for k in 0..s.section_count() {
        let section = s.section(k);
        let n = section.len();
        let packed = &mut bytes[..(n + 1) / 2];
        if let Some(v) = section.uniform() {
            // Sky above the terrain and darkness below it: most sections are one level.
            let nibble = v as u8 & 15;
            packed.fill(nibble | nibble << 4);
            if n % 2 == 1 {
                packed[n / 2] = nibble;
            }
        } else {
            let levels = &mut levels[..n];
            section.decode_into(levels);
            let pairs = levels.chunks_exact(2);
            let odd = pairs.remainder().first().copied();
            for (b, p) in packed.iter_mut().zip(pairs) {
                *b = (p[0] as u8 & 15) | (p[1] as u8 & 15) << 4;
            }
            if let Some(v) = odd {
                packed[n / 2] = v as u8 & 15;
            }
        }
        f(packed);
    }
}

fn from_nibbles(volume: usize, packed: &[u8]) -> Sections {
    Sections::from_fn(volume, |s, out| {
        let base = s * SECTION_VOLUME;
        for (k, o) in out.iter_mut().enumerate() {
            let i = base + k;
            let b = packed.get(i / 2).copied().unwrap_or(0);
            *o = u16::from(if i % 2 == 0 { b & 15 } else { b >> 4 });
        }
    })
}

const W: usize = 48;

/// Columns tested together for sky seeds (divides `W * W`).
const SEED_GROUP: usize = 32;

/// Below this many open columns in a layer (an eighth of the region's), sky columns are
/// stepped one open column at a time rather than a whole layer at once.
const SPARSE_BELOW: usize = W * W / 8;

struct Region<'a> {
    dims: Dims,
    top: i32,
    chunks: Neighbourhood<Option<&'a Sections>>,
}

impl<'a> Region<'a> {
    fn ny(&self) -> usize {
        (self.top - self.dims.min_y + 1) as usize
    }
    fn idx(&self, x: usize, y: usize, z: usize) -> usize {
        (y * W + z) * W + x
    }
}

fn flood(r: &Region<'_>, light: &mut [u8], opacity: &[u8], queue: &mut Vec<u32>) {
    let ny = r.ny();
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head] as usize;
        head += 1;
        let l = light[c];
        if l <= 1 {
            continue;
        }
        let x = c % W;
        let z = (c / W) % W;
        let y = c / (W * W);
        let mut visit = |n: usize| {
            let o = opacity[n];
            if o >= 15 {
                return;
            }
            let nl = l.saturating_sub(1 + o);
            if nl > light[n] {
                light[n] = nl;
                queue.push(n as u32);
            }
        };
        if x > 0 {
            visit(c - 1);
        }
        if x + 1 < W {
            visit(c + 1);
        }
        if z > 0 {
            visit(c - W);
        }
        if z + 1 < W {
            visit(c + W);
        }
        if y > 0 {
            visit(c - W * W);
        }
        if y + 1 < ny {
            visit(c + W * W);
        }
    }
}

/// The region-sized arrays the light body works in, kept between calls so a thread that
/// lights many chunks allocates them once. Every array is reset before it is read: what a
/// call leaves here never changes the next one's light.
#[derive(Debug, Default)]
pub struct LightScratch {
    opacity: Vec<u8>,
    emission: Vec<(u32, u8)>,
    sky: Vec<u8>,
    block: Vec<u8>,
    first_block: Vec<u16>,
    lit_bottom: Vec<u16>,
    level: Vec<u8>,
    open: Vec<u16>,
    seed_top: Vec<u16>,
    lift_cost: Vec<u8>,
    lift_need: Vec<u8>,
    queue: Vec<u32>,
}

/// `v` holding `n` copies of `value`, its allocation kept.
fn reset<T: Copy>(v: &mut Vec<T>, n: usize, value: T) -> &mut [T] {
    v.clear();
    v.resize(n, value);
    v
}

/// The light of the centre chunk of a 3 × 3 neighbourhood of merged chunks: the `light`
/// status body, and the light of an edited chunk over its edited neighbourhood.
pub fn of_merged(dims: &Dims, palette: &Palette, m: Neighbourhood<Option<&Merged>>) -> LightData {
    of_merged_in(dims, palette, m, &mut LightScratch::default())
}

/// [`of_merged`] working in `scratch`.
pub fn of_merged_in(
    dims: &Dims,
    palette: &Palette,
    m: Neighbourhood<Option<&Merged>>,
    scratch: &mut LightScratch,
) -> LightData {
    let mut highest = dims.min_y;
    for c in m.iter().flatten() {
        for h in c.heightmaps[Heightmap::WorldSurface].iter() {
            highest = core::cmp::max(highest, h - 1);
        }
    }
    compute_in(
        dims,
        palette,
        m.map(|c| c.map(|c| &c.blocks)),
        highest,
        scratch,
    )
}

/// Light the centre chunk of a 3 × 3 neighbourhood of merged blocks (a missing chunk counts
/// as solid stone). `highest` is the highest non-air block y in the neighbourhood (from the
/// world-surface heightmaps): nothing above it needs work.
pub fn compute(
    dims: &Dims,
    palette: &Palette,
    chunks: Neighbourhood<Option<&Sections>>,
    highest: i32,
) -> LightData {
    compute_in(dims, palette, chunks, highest, &mut LightScratch::default())
}

/// [`compute`] working in `scratch`.
pub fn compute_in(
    dims: &Dims,
    palette: &Palette,
    chunks: Neighbourhood<Option<&Sections>>,
    highest: i32,
    scratch: &mut LightScratch,
) -> LightData {
    let top = core::cmp::min(dims.max_y(), highest + 15);
    let r = Region {
        dims: *dims,
        top,
        chunks,
    };
    let table = palette.light_table();
    // Palettes of up to 256 blocks (the built-in one) read a fixed-size table, where the mask
    // removes the bounds check; larger ones a masked slice.
    let s = scratch;
    match <&[u16; 256]>::try_from(table) {
        Ok(small) => opacity_and_emitters(&r, |b| small[b as usize & 255], s),
        Err(_) => {
            let mask = table.len() - 1;
            opacity_and_emitters(&r, |b| table[b as usize & mask], s)
        }
    }
    sky_columns(&r, s);
    sky_seeds(&r, s);
    flood(&r, &mut s.sky, &s.opacity, &mut s.queue);
    // Block light from emitters. Most neighbourhoods have none: then it is 0 everywhere and
    // the region-sized array (a third of the body's memory traffic) is never filled.
    if s.emission.is_empty() {
        return pack_centre(&r, &s.sky, None);
    }
    let bl = reset(&mut s.block, s.opacity.len(), 0);
    s.queue.clear();
    for &(i, e) in &s.emission {
        bl[i as usize] = e;
        s.queue.push(i);
    }
    flood(&r, bl, &s.opacity, &mut s.queue);
    pack_centre(&r, &s.sky, Some(bl))
}

/// The opacity of every cell of the region and the emitters (cell, emission, in cell order),
/// a 16³ section of each chunk at a time. One table lookup per block gives both (opacity in
/// the low byte, emission in the high byte). A uniform section is one lookup and a fill, or
/// nothing at all when it is opaque without light (the array starts opaque): most of the
/// region is solid stone or open air. A mixed section is decoded once straight to properties
/// (its palette looked up, not every block) and read row by row; a row is scanned again for
/// its emitters only when it has one, so the common row is a branch-free copy. `props` reads
/// the palette's light table. Into `s.opacity` and `s.emission`.
#[inline(always)]
fn opacity_and_emitters(r: &Region<'_>, props: impl Fn(BlockId) -> u16, s: &mut LightScratch) {
    const OPAQUE: u16 = 15;
    let ny = r.ny();
    let opacity = reset(&mut s.opacity, W * W * ny, OPAQUE as u8);
    let emission = &mut s.emission;
    emission.clear();
    let mut buf = [0; SECTION_VOLUME];
    for cz in 0..3 {
        for cx in 0..3 {
            let blocks = match r.chunks.get(cx as i32 - 1, cz as i32 - 1) {
                Some(b) => b,
                None => continue,
            };
            for s in 0..(ny + SECTION_SIDE - 1) / SECTION_SIDE {
                let layers = s * SECTION_SIDE..core::cmp::min(ny, (s + 1) * SECTION_SIDE);
                let uniform = blocks.uniform(s).map(&props);
                if uniform == Some(OPAQUE) {
                    continue;
                }
                // Light properties per block, the palette mapped once per section.
                let section: &[u16] = match uniform {
                    Some(_) => &[],
                    None => blocks.section_mapped_into(s, &props, &mut buf),
                };
                for y in layers.clone() {
                    for lz in 0..SECTION_SIDE {
                        let dst = r.idx(cx * 16, y, cz * 16 + lz);
                        let row = &mut opacity[dst..dst + ROW];
                        if let Some(p) = uniform {
                            row.fill(p as u8);
                            let e = (p >> 8) as u8;
                            if e > 0 {
                                emission.extend((dst..dst + ROW).map(|c| (c as u32, e)));
                            }
                            continue;
                        }
                        let at = ((y - layers.start) * SECTION_SIDE + lz) * ROW;
                        let src = &section[at..at + ROW];
                        if copy_row(row, src) {
                            for (k, &p) in src.iter().enumerate() {
                                let e = (p >> 8) as u8;
                                if e > 0 {
                                    emission.push(((dst + k) as u32, e));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    emission.sort_unstable_by_key(|&(cell, _)| cell);
}

/// Copy a row of light properties' opacity bytes (the low bytes) into `dst`; whether any
/// has an emission (a high byte). On x86-64, SSE2 (always present there): mask the low
/// bytes, pack the two halves of the row with unsigned saturation (exact, every value is
/// below 256 once masked) and test the high bytes of both halves at once.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
#[inline(always)]
fn copy_row(dst: &mut [u8], src: &[u16]) -> bool {
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
fn copy_row(dst: &mut [u8], src: &[u16]) -> bool {
    copy_row_portable(dst, src)
}

/// The portable [`copy_row`] (the x86-64 one is tested against it).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn copy_row_portable(dst: &mut [u8], src: &[u16]) -> bool {
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

/// Sky light one block further down a column: an opaque block stops it, any other takes
/// its opacity off.
#[inline(always)]
fn sky_step(level: u8, opacity: u8) -> u8 {
    if opacity >= 15 {
        0
    } else {
        level.saturating_sub(opacity)
    }
}

/// Sky straight down each column, layer by layer so memory is read in order. While many
/// columns are open the whole layer is stepped at once (a branch-free pass over byte rows
/// that the compiler vectorises; a closed column stays at level 0, so stepping it again
/// changes nothing); once few are left, only the columns still lit from above are visited
/// (a closed column leaves the list; their order within a layer does not matter, each is
/// independent). Into `s.sky`, with per column the first block's layer (`s.first_block`:
/// the highest layer of non-zero opacity, `ny` for none) and the lowest lit layer
/// (`s.lit_bottom`; `ny` for none).
fn sky_columns(r: &Region<'_>, s: &mut LightScratch) {
    let ny = r.ny();
    // Layers fit in u16: a world is at most 4096 blocks high.
    let ny16 = ny as u16;
    let opacity = &s.opacity[..];
    let sky = reset(&mut s.sky, W * W * ny, 0);
    let first_block = reset(&mut s.first_block, W * W, ny16);
    let lit_bottom = reset(&mut s.lit_bottom, W * W, ny16);
    let level = reset(&mut s.level, W * W, 15);
    let mut y = ny;
    let mut open_columns = W * W;
    while y > 0 && open_columns > SPARSE_BELOW {
        y -= 1;
        let base = y * W * W;
        let y16 = y as u16;
        let o_layer = &opacity[base..base + W * W];
        let sky_layer = &mut sky[base..base + W * W];
        // Two passes, one over bytes and one over layers, so each is a plain vector loop.
        for ((&o, lit), l) in o_layer
            .iter()
            .zip(sky_layer.iter_mut())
            .zip(level.iter_mut())
        {
            let nl = sky_step(*l, o);
            *l = nl;
            *lit = nl;
        }
        // Counted in u32, which vectorises where a usize sum would not.
        let mut still_open = 0u32;
        let columns = first_block.iter_mut().zip(lit_bottom.iter_mut());
        for ((&o, &l), (fb, lb)) in o_layer.iter().zip(level.iter()).zip(columns) {
            *fb = if o > 0 && *fb == ny16 { y16 } else { *fb };
            *lb = if l > 0 { y16 } else { *lb };
            still_open += u32::from(l > 0);
        }
        open_columns = still_open as usize;
    }
    let open = &mut s.open;
    open.clear();
    open.extend((0..(W * W) as u16).filter(|&c| level[usize::from(c)] > 0));
    while y > 0 && !open.is_empty() {
        y -= 1;
        let base = y * W * W;
        let mut k = 0;
        while k < open.len() {
            let col = usize::from(open[k]);
            let o = opacity[base + col];
            if o > 0 && first_block[col] == ny16 {
                first_block[col] = y as u16;
            }
            let nl = sky_step(level[col], o);
            level[col] = nl;
            if nl == 0 {
                open.swap_remove(k);
            } else {
                sky[base + col] = nl;
                lit_bottom[col] = y as u16;
                k += 1;
            }
        }
    }
}

/// Where sky light spreads sideways: the lit cells of each column up to the highest first
/// block among its horizontal neighbours (they may be darker there) that are bright enough to
/// lift one of those neighbours. Sky columns are already lit from above, so only a sideways
/// step can raise a cell, and a cell that lifts no neighbour now never will (levels only
/// rise); if the flood raises it later, the flood queues it then. Under open water and in wide
/// shafts nearly every lit cell is level with its neighbours: those cells would be queued and
/// spread for nothing. The flood relaxes to the same fixpoint whatever the seeds' order. Into
/// `s.queue`.
fn sky_seeds(r: &Region<'_>, s: &mut LightScratch) {
    let ny = r.ny();
    let (first_block, lit_bottom, sky, opacity) =
        (&s.first_block, &s.lit_bottom, &s.sky, &s.opacity);
    let seed_top = reset(&mut s.seed_top, W * W, 0);
    for z in 0..W {
        for x in 0..W {
            let mut hi = usize::from(first_block[z * W + x]);
            for (dx, dz) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (nx, nz) = (x as i32 + dx, z as i32 + dz);
                if nx >= 0 && nz >= 0 && (nx as usize) < W && (nz as usize) < W {
                    hi =
                        core::cmp::max(hi, usize::from(first_block[nz as usize * W + nx as usize]));
                }
            }
            // At most `ny`, which fits in u16.
            seed_top[z * W + x] = core::cmp::min(ny, hi + 2) as u16;
        }
    }
    let lo = lit_bottom.iter().copied().min().map_or(ny, usize::from);
    let hi = seed_top.iter().copied().max().map_or(0, usize::from);
    let cost = reset(&mut s.lift_cost, W * W, 0);
    let need = reset(&mut s.lift_need, W * W, 0);
    let queue = &mut s.queue;
    queue.clear();
    // Seeds are a thin band under each column's neighbours' first blocks: a group of columns
    // is tested at once (a branch-free fold that vectorises) and walked only when it holds
    // one. Cells go in in index order.
    for y in lo..hi {
        let base = y * W * W;
        let y16 = y as u16;
        let layer = &sky[base..base + W * W];
        let in_band = |(&top, &l): (&u16, &u8)| (y16 < top) & (l > 1);
        if !seed_top
            .iter()
            .zip(layer)
            .fold(false, |any, c| any | in_band(c))
        {
            continue;
        }
        lift_needs(layer, &opacity[base..base + W * W], cost, need);
        let groups = seed_top
            .chunks_exact(SEED_GROUP)
            .zip(layer.chunks_exact(SEED_GROUP))
            .zip(need.chunks_exact(SEED_GROUP));
        for (g, ((tops, lit), needs)) in groups.enumerate() {
            // `need` is at least 1, so a seed is lit above 1 as the flood requires.
            let seeds = |((&top, &l), &n): ((&u16, &u8), &u8)| (y16 < top) & (l > n);
            let cells = || tops.iter().zip(lit).zip(needs);
            if !cells().fold(false, |any, c| any | seeds(c)) {
                continue;
            }
            for (k, c) in cells().enumerate() {
                if seeds(c) {
                    queue.push((base + g * SEED_GROUP + k) as u32);
                }
            }
        }
    }
}

/// For each cell of a layer, the level above which it lifts a horizontal neighbour: the least,
/// over its neighbours in the region, of the neighbour's level plus one plus its opacity (a
/// step sideways costs one level and the opacity of the cell entered; an opaque neighbour, 15,
/// can never be lifted). `u8::MAX` with no neighbour to lift. `cost` is scratch.
fn lift_needs(level: &[u8], opacity: &[u8], cost: &mut [u8], need: &mut [u8]) {
    for ((c, &l), &o) in cost.iter_mut().zip(level).zip(opacity) {
        *c = l.saturating_add(1).saturating_add(o);
    }
    fn min_into(into: &mut [u8], from: &[u8]) {
        for (a, &b) in into.iter_mut().zip(from) {
            *a = core::cmp::min(*a, b);
        }
    }
    need.fill(u8::MAX);
    for z in 0..W {
        let row = z * W..(z + 1) * W;
        if z > 0 {
            min_into(&mut need[row.clone()], &cost[row.start - W..row.start]);
        }
        if z + 1 < W {
            min_into(&mut need[row.clone()], &cost[row.end..row.end + W]);
        }
        min_into(
            &mut need[row.start + 1..row.end],
            &cost[row.start..row.end - 1],
        );
        min_into(
            &mut need[row.start..row.end - 1],
            &cost[row.start + 1..row.end],
        );
    }
}

/// Keep the centre chunk, section by section; above the computed range the sky is open (15)
/// and block light 0 (everywhere 0 when `bl` is `None`).
fn pack_centre(r: &Region<'_>, sky: &[u8], bl: Option<&[u8]>) -> LightData {
    let (dims, ny) = (r.dims, r.ny());
    let vol = dims.volume();
    let centre = |levels: &[u8], above: u16| {
        Sections::from_fn(vol, |s, out| {
            for (k, row) in out.chunks_mut(ROW).enumerate() {
                let i = s * SECTION_VOLUME + k * ROW;
                let (y, z) = (i / 256, (i / 16) % 16);
                if y >= ny {
                    row.fill(above);
                } else {
                    let src = r.idx(16, y, 16 + z);
                    for (o, &l) in row.iter_mut().zip(&levels[src..src + ROW]) {
                        *o = u16::from(l & 15);
                    }
                }
            }
        })
    };
    LightData {
        sky: centre(sky, 15),
        block: match bl {
            Some(bl) => centre(bl, 0),
            None => Sections::filled(vol, 0),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::JavaRandom;
    use alloc::vec;

    /// The section-wise packing equals packing the dense levels two to a byte, low nibble
    /// first, a lone last level in a byte of its own: uniform and mixed sections, even and
    /// odd lengths.
    #[test]
    fn nibble_runs_pack_the_dense_levels() {
        let mut rng = JavaRandom::new(3);
        for case in 0..40 {
            let n = SECTION_VOLUME * (1 + rng.next_int_bounded(3) as usize)
                + rng.next_int_bounded(SECTION_VOLUME as i32) as usize;
            let levels: Vec<u16> = (0..n)
                .map(|i| match (i / SECTION_VOLUME + case) % 3 {
                    0 => 15,
                    1 => 0,
                    _ => rng.next_int_bounded(16) as u16,
                })
                .collect();
            let plain: Vec<u8> = levels
                .chunks(2)
                .map(|p| p[0] as u8 | p.get(1).map_or(0, |&v| v as u8) << 4)
                .collect();
            let mut packed = Vec::new();
            for_each_nibble_run(&Sections::from_dense(&levels), |b| {
                packed.extend_from_slice(b)
            });
            assert_eq!(packed, plain, "case {}", case);
        }
    }

    /// A region of no chunks (the tests fill its arrays themselves), lit up to `top`.
    fn empty_region(min_y: i32, height: u32, top: i32) -> Region<'static> {
        let dims = Dims {
            min_y,
            height,
            sea_level: min_y,
        };
        Region {
            dims,
            top,
            chunks: Neighbourhood::from_array([None; 9]),
        }
    }

    /// One column stepped down from the top by the rules alone: (first block's layer,
    /// lowest lit layer, levels from the bottom), `ny` for none.
    fn column_by_rule(opacity: &[u8], col: usize, ny: usize) -> (usize, usize, Vec<u8>) {
        let (mut first, mut lit, mut level) = (ny, ny, 15u8);
        let mut levels = vec![0; ny];
        for y in (0..ny).rev() {
            let o = opacity[y * W * W + col];
            if o > 0 && first == ny {
                first = y;
            }
            level = if o >= 15 { 0 } else { level.saturating_sub(o) };
            if level == 0 {
                break;
            }
            levels[y] = level;
            lit = y;
        }
        (first, lit, levels)
    }

    /// Whole-layer and one-column-at-a-time stepping together give every column what the
    /// rules give it alone: regions where all, some or few columns stay open deep down (so
    /// the switch between the two falls at different layers, or never), with filtering
    /// blocks (opacity 1..=3) and solid ones.
    #[test]
    fn sky_columns_follow_the_rules_per_column() {
        let r = empty_region(-64, 128, 40);
        let ny = r.ny();
        let mut rng = JavaRandom::new(11);
        let mut s = LightScratch::default();
        for case in 0..12 {
            // Out of 64 columns, this many are shafts: open down to the bottom but for a few
            // filtering blocks in the lowest third (met after most other columns closed),
            // which close some of them on the way.
            let shafts = [0, 1, 8, 64][case % 4];
            s.opacity.clear();
            s.opacity.resize(W * W * ny, 0);
            for col in 0..W * W {
                let shaft = (rng.next_int_bounded(64) as usize) < shafts;
                let ground = rng.next_int_bounded(ny as i32) as usize;
                for y in 0..ny {
                    s.opacity[y * W * W + col] = match rng.next_int_bounded(8) {
                        0 if shaft && y < ny / 3 => 1,
                        _ if shaft => 0,
                        0 => rng.next_int_bounded(4) as u8,
                        _ if y < ground => 15,
                        _ => 0,
                    };
                }
            }
            sky_columns(&r, &mut s);
            for col in 0..W * W {
                let (first, lit, levels) = column_by_rule(&s.opacity, col, ny);
                assert_eq!(
                    usize::from(s.first_block[col]),
                    first,
                    "case {case} col {col}"
                );
                assert_eq!(usize::from(s.lit_bottom[col]), lit, "case {case} col {col}");
                for (y, &l) in levels.iter().enumerate() {
                    assert_eq!(s.sky[y * W * W + col], l, "case {case} col {col} y {y}");
                }
            }
        }
    }

    /// Sky seeds are, in index order, the cells lit above level 1 below two layers over the
    /// highest first block of the column and its four neighbours that would raise a
    /// horizontal neighbour by one flood step, from the rules applied cell by cell: columns
    /// of random first blocks and lit ranges, random levels and opacities.
    #[test]
    fn sky_seeds_follow_the_rule_cell_by_cell() {
        let r = empty_region(0, 64, 63);
        let ny = r.ny();
        let mut rng = JavaRandom::new(17);
        let mut s = LightScratch::default();
        for case in 0..8 {
            s.first_block = (0..W * W)
                .map(|_| rng.next_int_bounded(ny as i32 + 1) as u16)
                .collect();
            s.lit_bottom = s
                .first_block
                .iter()
                .map(|&f| f.saturating_sub(rng.next_int_bounded(3) as u16))
                .collect();
            s.sky = vec![0; W * W * ny];
            for col in 0..W * W {
                for y in usize::from(s.lit_bottom[col])..ny {
                    s.sky[y * W * W + col] = 1 + rng.next_int_bounded(15) as u8;
                }
            }
            s.opacity = (0..W * W * ny)
                .map(|_| match rng.next_int_bounded(4) {
                    0 => 15,
                    1 => rng.next_int_bounded(16) as u8,
                    _ => 0,
                })
                .collect();
            let fb = |x: i32, z: i32| -> usize {
                if (0..W as i32).contains(&x) && (0..W as i32).contains(&z) {
                    usize::from(s.first_block[z as usize * W + x as usize])
                } else {
                    0
                }
            };
            let sides = [(-1, 0), (1, 0), (0, -1), (0, 1)];
            let mut expected = Vec::new();
            for y in 0..ny {
                for z in 0..W as i32 {
                    for x in 0..W as i32 {
                        let highest = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
                            .iter()
                            .map(|&(dx, dz)| fb(x + dx, z + dz))
                            .max()
                            .unwrap_or(0);
                        let cell = y * W * W + z as usize * W + x as usize;
                        let l = s.sky[cell];
                        let lifts = sides.iter().any(|&(dx, dz)| {
                            let (nx, nz) = (x + dx, z + dz);
                            if !(0..W as i32).contains(&nx) || !(0..W as i32).contains(&nz) {
                                return false;
                            }
                            let n = y * W * W + nz as usize * W + nx as usize;
                            let o = s.opacity[n];
                            o < 15 && l.saturating_sub(1 + o) > s.sky[n]
                        });
                        if y < core::cmp::min(ny, highest + 2) && l > 1 && lifts {
                            expected.push(cell as u32);
                        }
                    }
                }
            }
            sky_seeds(&r, &mut s);
            assert!(!s.queue.is_empty(), "case {case}");
            assert_eq!(s.queue, expected, "case {case}");
        }
    }

    /// Flooding from the sky seeds gives the light that flooding from every lit cell gives
    /// (the fixpoint itself), over terrain with overhangs, water and filtering blocks.
    #[test]
    fn sky_seeds_reach_the_fixpoint_of_every_lit_cell() {
        let r = empty_region(0, 48, 47);
        let ny = r.ny();
        let mut rng = JavaRandom::new(23);
        let mut s = LightScratch::default();
        for case in 0..6 {
            s.opacity.clear();
            s.opacity.resize(W * W * ny, 0);
            for col in 0..W * W {
                let ground = 8 + rng.next_int_bounded(16) as usize;
                let water = if case % 2 == 0 { 28 } else { 0 };
                for y in 0..ny {
                    s.opacity[y * W * W + col] = match rng.next_int_bounded(16) {
                        // Overhangs and floating filters: sky reaches under them sideways.
                        0 if y > ground => 15,
                        1 if y > ground => 1 + rng.next_int_bounded(3) as u8,
                        _ if y < ground => 15,
                        _ if y < water => 1,
                        _ => 0,
                    };
                }
            }
            sky_columns(&r, &mut s);
            let columns = s.sky.clone();
            sky_seeds(&r, &mut s);
            let seeds = s.queue.len();
            flood(&r, &mut s.sky, &s.opacity, &mut s.queue);
            let mut every: Vec<u32> = (0..columns.len() as u32)
                .filter(|&c| columns[c as usize] > 0)
                .collect();
            let mut fixpoint = columns.clone();
            flood(&r, &mut fixpoint, &s.opacity, &mut every);
            assert!(
                seeds > 0 && fixpoint != columns,
                "case {case}: light spreads sideways"
            );
            assert!(s.sky == fixpoint, "case {case}");
        }
    }

    /// A row's opacity bytes are its properties' low bytes, and it has an emitter exactly
    /// when one property has a high byte.
    #[test]
    fn copy_row_takes_low_bytes_and_sees_any_high_byte() {
        let mut rng = JavaRandom::new(5);
        for case in 0..200 {
            let src: Vec<u16> = (0..ROW)
                .map(|_| match (case % 3, rng.next_int_bounded(16)) {
                    (0, _) => rng.next_int_bounded(16) as u16,
                    (1, 0) => rng.next_int_bounded(1 << 16) as u16,
                    _ => rng.next_int_bounded(256) as u16,
                })
                .collect();
            let low: Vec<u8> = src.iter().map(|&p| (p & 0xFF) as u8).collect();
            let high = src.iter().any(|&p| p > 0xFF);
            for copy in [copy_row, copy_row_portable] {
                let mut dst = [0xAA; ROW];
                let emits = copy(&mut dst, &src);
                assert_eq!(dst.to_vec(), low, "case {case}");
                assert_eq!(emits, high, "case {case}");
            }
        }
    }
}
