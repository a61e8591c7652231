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

mod rows;
use rows::copy_row;

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
mod tests;
