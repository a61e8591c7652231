//! What a mesher reads: the meshed area plus a one-block apron from the chunks around it,
//! seen through padded coordinates (`x + 1`, `y + 1`, `z + 1`). Nothing is copied but one
//! pair of bit masks per padded row (occluders, other drawn blocks), made in one pass over
//! the chunks' rows; blocks and light are read from the chunks themselves, and only at
//! faces.
//!
//! Outside the world the apron is fixed: below the lowest block is the palette's first
//! occluder (the world's floor is never drawn), above the highest is air with sky light 15.
//! A missing chunk is filled according to [`MissingNeighbour`].

use alloc::vec::Vec;

use crate::mesh::lanes;
use crate::mesh::window::packed;
use crate::mesh::MeshError;
use crate::world::block::{self, BlockId, BlockProps};
use crate::world::chunk::FullChunk;
use crate::world::dims::Dims;
use crate::world::heightmap::Heightmap;
use crate::world::palette::Palette;

/// What stands in for a chunk that is not there (not generated yet, or outside the copy the
/// host made). Either way the border is never a hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MissingNeighbour {
    /// Treat it as air with full sky light: faces towards it are emitted (a wall at the edge
    /// of what is loaded; mesh the chunk again when the neighbour arrives to drop them).
    Emit = 0,
    /// Treat it as an opaque block without light: faces towards it are culled (nothing is
    /// drawn at the edge until the chunk is meshed again).
    Cull = 1,
}

/// The block that stands below the world and, in [`MissingNeighbour::Cull`] mode, for a missing
/// chunk: the palette's first occluder (any occluder hides and shades the same), or air in a
/// palette without one (then the floor is drawn).
pub fn outside_block(palette: &Palette) -> BlockId {
    palette
        .iter()
        .position(|(_, p)| p.is_occluder())
        .map_or(block::AIR, |i| i as BlockId)
}
/// Sky light above the world and in missing chunks under [`MissingNeighbour::Emit`].
pub const OPEN_SKY: u8 = 15;

/// A rectangle of chunks to mesh, `width × depth` chunks, with the ring of chunks around it:
/// `chunks[(cz + 1) * (width + 2) + (cx + 1)]` for `cx` in `-1..=width`, `cz` in
/// `-1..=depth` (`None`: missing).
#[derive(Clone, Copy, Debug)]
pub struct ChunkArea<'a> {
    /// Meshed chunks along x.
    pub width: usize,
    /// Meshed chunks along z.
    pub depth: usize,
    /// The `(width + 2) × (depth + 2)` chunks, row by row (z), then x.
    pub chunks: &'a [Option<&'a FullChunk>],
}

/// The meshed area in padded coordinates, with its row masks.
pub(crate) struct Volume<'a> {
    /// Interior size in blocks (x, z).
    pub sx: usize,
    pub sz: usize,
    /// Layers scanned: up to one above the highest block around (the rest is air).
    pub ny: usize,
    /// World height in layers.
    height: usize,
    pub min_y: i32,
    /// The masks of each padded row (`py * (sz + 2) + pz`).
    pub rows: Rows,
    /// Blocks, sky and block light of the area's chunks (`None`: missing), in area order.
    chunks: Vec<Option<ChunkArrays<'a>>>,
    /// Chunks per row of `chunks`.
    cw: usize,
    /// Block of a missing chunk.
    filler: BlockId,
    /// Block below the world.
    below_world: BlockId,
    /// The world's blocks.
    pub palette: &'a Palette,
    /// Light of a missing chunk.
    missing_light: (u8, u8),
}

/// One padded row's masks: bit `px` of each is the cell at padded x `px`. One struct per row
/// (not one vector per mask) so that the gather writes a row with one push.
#[derive(Clone, Copy)]
pub(crate) struct RowMasks<M> {
    /// Occluders.
    pub occ: M,
    /// Drawn and not an occluder.
    pub other: M,
    /// Drawn, not an occluder, and hidden on every side by the same block (cutout and
    /// translucent cubes, fluids).
    pub hides_same: M,
    /// Plants (drawn as crossed quads).
    pub plants: M,
    /// The row's block if every cell holds the same one, else [`MIXED_ROW`].
    pub uniform: BlockId,
}

impl<M: Mask> RowMasks<M> {
    /// A row of air (the layers above the highest block).
    const AIR: RowMasks<M> = RowMasks {
        occ: M::ZERO,
        other: M::ZERO,
        hides_same: M::ZERO,
        plants: M::ZERO,
        uniform: MIXED_ROW,
    };
}

/// The row masks of a volume, as narrow as its rows allow: 32 bits for one chunk's padded
/// rows (18 cells: every chunk mesh), 128 bits for wider areas. Narrow rows take a quarter
/// of the memory (20 bytes a row, not 80: a chunk's rows are about 2500) and one
/// instruction per mask operation in the scan.
pub(crate) enum Rows {
    Narrow(Vec<RowMasks<u32>>),
    Wide(Vec<RowMasks<u128>>),
}

impl Rows {
    /// Occluders of row `i`.
    #[inline(always)]
    pub fn occ(&self, i: usize) -> u128 {
        match self {
            Rows::Narrow(r) => r[i].occ.wide(),
            Rows::Wide(r) => r[i].occ,
        }
    }

    /// Every mask of row `i`, widened (the tests compare them with the blocks' classes).
    #[cfg(test)]
    pub fn masks(&self, i: usize) -> RowMasks<u128> {
        let wide = |m: &RowMasks<u32>| RowMasks {
            occ: m.occ.wide(),
            other: m.other.wide(),
            hides_same: m.hides_same.wide(),
            plants: m.plants.wide(),
            uniform: m.uniform,
        };
        match self {
            Rows::Narrow(r) => wide(&r[i]),
            Rows::Wide(r) => r[i],
        }
    }

    /// Plants of row `i`.
    #[inline(always)]
    pub fn plants(&self, i: usize) -> u128 {
        match self {
            Rows::Narrow(r) => r[i].plants.wide(),
            Rows::Wide(r) => r[i].plants,
        }
    }
}

#[derive(Clone, Copy)]
struct ChunkArrays<'a> {
    blocks: &'a [BlockId],
    sky: &'a [u8],
    block_light: &'a [u8],
}

impl ChunkArrays<'_> {
    /// (sky, block) light of block index `j`: two nibbles per byte, low nibble first.
    #[inline(always)]
    fn light(&self, j: usize) -> (u8, u8) {
        let shift = (j & 1) * 4;
        (
            (self.sky[j >> 1] >> shift) & 15,
            (self.block_light[j >> 1] >> shift) & 15,
        )
    }
}

pub(crate) use crate::world::dims::{CHUNK_SIDE, LAYER_BLOCKS as LAYER_STRIDE};

/// The index of block `(x, y, z)` in a chunk's arrays (`y` from the chunk's bottom layer).
#[inline(always)]
pub(crate) fn chunk_index(x: usize, y: usize, z: usize) -> usize {
    (y * CHUNK_SIDE + z) * CHUNK_SIDE + x
}

/// Padded x or z `p` as the index of its chunk in the area's ring (0 is the neighbour before
/// the area) and its local coordinate in that chunk: padded `p` is block `p - 1` of the area.
#[inline(always)]
pub(crate) fn ring_chunk_and_local(p: usize) -> (usize, usize) {
    let q = p + CHUNK_SIDE - 1;
    (q / CHUNK_SIDE, q % CHUNK_SIDE)
}

/// The widest area, in chunks, whose padded rows fit the row masks.
pub const MAX_AREA_WIDTH: usize = 7;
/// Cells in the widest padded row: the area's rows and one apron cell at each end.
pub const PADDED_ROW: usize = CHUNK_SIDE * MAX_AREA_WIDTH + 2;

/// A decoded cell of [`Volume::light_row`] that is an occluder: this bit, no light (its light
/// is never averaged).
pub const OCCLUDER_CELL: u16 = 1 << 15;

/// Bit `i` of a 16-cell group: the lane constants of [`Volume::light_row`]'s select.
const LANE_BITS: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// Bit `i` set where `a[i] == b[i]`, for `i < n` (`n <= 128`): sixteen cells at a time
/// ([`lanes::equal`]). A chunk's padded row (17 or 18 cells, in arrays that hold 32 or more)
/// is two whole groups with the bits from `n` on dropped, not a cell-by-cell tail.
pub fn equal_mask(a: &[BlockId], b: &[BlockId], n: usize) -> u128 {
    if n <= 32 && a.len() >= 32 && b.len() >= 32 {
        let m = u32::from(lanes::equal(run16(a), run16(b)))
            | u32::from(lanes::equal(run16(&a[16..]), run16(&b[16..]))) << 16;
        let held = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        return u128::from(m & held);
    }
    let (a, b) = (&a[..n], &b[..n]);
    let whole = n / 16 * 16;
    let mut mask = 0u128;
    for (k, at) in (0..whole).step_by(16).enumerate() {
        mask |= u128::from(lanes::equal(run16(&a[at..]), run16(&b[at..]))) << (16 * k);
    }
    for i in whole..n {
        mask |= u128::from(a[i] == b[i]) << i;
    }
    mask
}

/// The first sixteen cells of `a` (which holds at least sixteen).
#[inline(always)]
fn run16(a: &[BlockId]) -> &[BlockId; 16] {
    a[..16].try_into().expect("sixteen cells")
}

/// Row-mask class bit ([`class`]): an occluder (hides its neighbours' faces, darkens AO).
pub(crate) const CLASS_OCCLUDER: u8 = 1 << 0;
/// Row-mask class bit: drawn, and not an occluder.
pub(crate) const CLASS_DRAWN_OTHER: u8 = 1 << 1;
/// Row-mask class bit: hidden by the same block on every side (fluids, see-through cubes).
pub(crate) const CLASS_HIDES_SAME: u8 = 1 << 2;
/// Row-mask class bit: a plant (crossed quads, no axis faces).
pub(crate) const CLASS_PLANT: u8 = 1 << 3;

/// A block's row-mask class: a combination of the `CLASS_*` bits.
pub(crate) fn class(p: &BlockProps) -> u8 {
    let hides_same = match p.shape {
        block::Shape::Fluid => true,
        block::Shape::Cube => p.surface != block::Surface::Opaque,
        _ => false,
    };
    if p.is_occluder() {
        CLASS_OCCLUDER
    } else if p.shape == block::Shape::Cross {
        CLASS_DRAWN_OTHER | CLASS_PLANT
    } else if p.shape != block::Shape::None {
        CLASS_DRAWN_OTHER | if hides_same { CLASS_HIDES_SAME } else { 0 }
    } else {
        0
    }
}

/// A row mask type ([`Rows`]): `u32` for one chunk's padded rows (18 cells), where each
/// operation is one instruction, or `u128` for up to [`PADDED_ROW`] cells.
pub(crate) trait Mask:
    Copy
    + Eq
    + core::ops::BitAnd<Output = Self>
    + core::ops::BitOr<Output = Self>
    + core::ops::Not<Output = Self>
    + core::ops::Shl<u32, Output = Self>
    + core::ops::Shr<u32, Output = Self>
    + core::ops::BitAndAssign
    + core::ops::BitOrAssign
{
    /// No cell.
    const ZERO: Self;
    /// The low bits of a wider mask (the row's cells all lie there).
    fn of(m: u128) -> Self;
    /// The mask widened.
    fn wide(self) -> u128;
    /// The lowest set cell.
    fn trailing_zeros(self) -> u32;
    /// The mask without its lowest set cell.
    fn without_lowest(self) -> Self;
    /// Whether cell `i` is set.
    fn bit(self, i: usize) -> bool;
}

macro_rules! mask_impl {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn of(m: u128) -> Self {
                m as $t
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn bit(self, i: usize) -> bool {
                (self >> i) & 1 == 1
            }
        }
    };
}
mask_impl!(u32);
mask_impl!(u128);

/// `uniform` of a row that holds more than one block id.
pub const MIXED_ROW: BlockId = BlockId::MAX;

/// A block class's bits placed for packing a run of cells with one multiplication by the
/// cells' mask: occluder at bit 0, drawn-other at bit 32, hidden-by-same at bit 64, plant at
/// 96. Fields 32 bits apart, so that one chunk's padded row (18 cells) is built whole in them
/// and each mask is one 32-bit part of the result; kept as two 64-bit halves ([`Spread`]),
/// which take one instruction per operation where a `u128` takes two or three.
fn spread(class: u8) -> Spread {
    let has = |bit: u8| u64::from(class & bit != 0);
    Spread([
        has(CLASS_OCCLUDER) | has(CLASS_DRAWN_OTHER) << FIELD_BITS,
        has(CLASS_HIDES_SAME) | has(CLASS_PLANT) << FIELD_BITS,
    ])
}

/// The width of one [`Spread`] field: a one-chunk padded row (18 cells) fits.
const FIELD_BITS: u32 = 32;

/// Block `b`'s spread from the per-id table (an id outside the palette: no class bits).
#[inline(always)]
fn spread_of(spreads: &[Spread], b: BlockId) -> Spread {
    spreads.get(b as usize).copied().unwrap_or_default()
}

/// Four 32-bit mask fields in two 64-bit halves (see [`spread`]): occluders and drawn-other
/// in the first, hidden-by-same and plants in the second.
#[derive(Clone, Copy, Default)]
struct Spread([u64; 2]);

impl Spread {
    /// Each field times `m` (a spread times a cell mask: the mask in every set field).
    #[inline(always)]
    fn times(self, m: u64) -> Spread {
        Spread([self.0[0] * m, self.0[1] * m])
    }
    /// Each field shifted left by `k` (no field reaches 32 bits).
    #[inline(always)]
    fn shl(self, k: u32) -> Spread {
        Spread([self.0[0] << k, self.0[1] << k])
    }
    #[inline(always)]
    fn or(self, o: Spread) -> Spread {
        Spread([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }
    /// Field `k`: 0 occluders, 1 drawn-other, 2 hidden-by-same, 3 plants.
    #[inline(always)]
    fn field(self, k: usize) -> u32 {
        (self.0[k / 2] >> (FIELD_BITS as usize * (k % 2))) as u32
    }
}

impl<M: Mask> RowMasks<M> {
    /// Add packed class fields (up to 16 cells each, see [`spread`]) at bit `x`.
    #[inline(always)]
    fn place(&mut self, acc: Spread, x: usize) {
        let field = |k: usize| M::of(u128::from(acc.field(k)) << x);
        self.occ |= field(0);
        self.other |= field(1);
        self.hides_same |= field(2);
        self.plants |= field(3);
    }
}

/// [`run_fields`] of the 16 blocks at `src` of chunk `c` (a missing chunk is `filler`).
#[inline(always)]
fn run_of(
    c: Option<ChunkArrays<'_>>,
    src: usize,
    filler: BlockId,
    spreads: &[Spread],
) -> (Spread, Option<BlockId>) {
    match c {
        Some(c) => run_fields(&c.blocks[src..src + 16], spreads),
        None => (spread_of(spreads, filler).times(0xffff), Some(filler)),
    }
}

/// The packed class fields of a 16-block run, and its block if the run is one block.
#[inline(always)]
fn run_fields(run: &[BlockId], spreads: &[Spread]) -> (Spread, Option<BlockId>) {
    let run = run16(run);
    let spread_of = |b: BlockId| spread_of(spreads, b);
    // Rows are mostly one block (stone, air, water): one compare and one lookup for a
    // uniform run. Each block's single-bit fields are widened over its cells by one
    // multiplication with their mask; a mixed run takes one compare per distinct block
    // (stone and ore, grass and dirt: two or three), not one lookup per cell.
    let first = run[0];
    let cells = lanes::equal_to(run, first);
    if cells == 0xffff {
        return (spread_of(first).times(0xffff), Some(first));
    }
    let mut acc = spread_of(first).times(u64::from(cells));
    let mut left = !cells;
    while left != 0 {
        let b = run[left.trailing_zeros() as usize];
        let cells = lanes::equal_to(run, b) & left;
        acc = acc.or(spread_of(b).times(u64::from(cells)));
        left &= !cells;
    }
    (acc, None)
}

/// What the gather reads rows from.
struct RowSource<'s, 'a> {
    chunks: &'s [Option<ChunkArrays<'a>>],
    cw: usize,
    sx: usize,
    ny: usize,
    zrows: usize,
    filler: BlockId,
    /// Occluder bits of the row below the world.
    below: u128,
    /// Per block id, its class spread ([`spread`]).
    spreads: &'s [Spread],
}

impl RowSource<'_, '_> {
    /// The row masks of every padded row, `M` wide enough for a padded row.
    fn rows<M: Mask>(&self) -> Vec<RowMasks<M>> {
        let RowSource {
            chunks,
            cw,
            sx,
            ny,
            zrows,
            filler,
            below,
            spreads,
        } = *self;
        let spread_of = |b: BlockId| spread_of(spreads, b);
        // Padded layers 0..=ny + 1, and one more: the 3 × 3 window in front of a top face
        // on the world's highest layer reaches two layers above it. Rows are pushed in
        // order (layer, then z).
        let rows = (ny + 3) * zrows;
        let mut masks = Vec::with_capacity(rows);
        masks.resize(
            zrows,
            RowMasks {
                occ: M::of(below),
                ..RowMasks::AIR
            },
        );
        for y in 0..ny {
            for pz in 0..zrows {
                let (crow, lz) = ring_chunk_and_local(pz);
                let row_chunks = &chunks[crow * cw..(crow + 1) * cw];
                let src = chunk_index(0, y, lz);
                let edge =
                    |c: Option<ChunkArrays<'_>>, x: usize| c.map_or(filler, |c| c.blocks[src + x]);
                // The west apron cell, the interior chunks' rows, the east apron cell, as
                // packed class fields; the row is uniform if all hold the west cell's block.
                let (west, east) = (
                    edge(row_chunks[0], CHUNK_SIDE - 1),
                    edge(row_chunks[cw - 1], 0),
                );
                let mut same = east == west;
                let run = |c: &Option<ChunkArrays<'_>>| run_of(*c, src, filler, spreads);
                // Pushed in each branch: merging the branches' masks first sent them
                // through the stack.
                let uniform = |same: bool| if same { west } else { MIXED_ROW };
                if cw == 3 {
                    // One chunk wide (every chunk mesh): 18 cells, every field built at once
                    // (west at bit 0, the chunk's run at 1..=16, east at 17).
                    let (acc, first) = run(&row_chunks[1]);
                    same &= first == Some(west);
                    let fields = spread_of(west).or(acc.shl(1)).or(spread_of(east).shl(17));
                    let field = |k: usize| M::of(u128::from(fields.field(k)));
                    masks.push(RowMasks {
                        occ: field(0),
                        other: field(1),
                        hides_same: field(2),
                        plants: field(3),
                        uniform: uniform(same),
                    });
                } else {
                    let mut m = RowMasks::AIR;
                    m.place(spread_of(west), 0);
                    m.place(spread_of(east), sx + 1);
                    for (ccol, c) in row_chunks[1..cw - 1].iter().enumerate() {
                        let (acc, first) = run(c);
                        same &= first == Some(west);
                        m.place(acc, 1 + ccol * CHUNK_SIDE);
                    }
                    m.uniform = uniform(same);
                    masks.push(m);
                }
            }
        }
        masks.resize(rows, RowMasks::AIR);
        masks
    }
}

impl<'a> Volume<'a> {
    /// Make the row masks of the area. Every present chunk must hold `dims.volume()`
    /// blocks and as much light.
    pub fn gather(
        area: ChunkArea<'a>,
        dims: Dims,
        palette: &'a Palette,
        missing: MissingNeighbour,
    ) -> Result<Volume<'a>, MeshError> {
        let cw = area.width + 2;
        if area.width > MAX_AREA_WIDTH {
            return Err(MeshError::BadArea);
        }
        let light_bytes = (dims.volume() + 1) / 2;
        for c in area.chunks.iter().flatten() {
            let l = c.light();
            if c.blocks().len() != dims.volume()
                || l.sky.len() != light_bytes
                || l.block.len() != light_bytes
            {
                return Err(MeshError::HeightMismatch);
            }
        }
        let (sx, sz, height) = (
            area.width * CHUNK_SIDE,
            area.depth * CHUNK_SIDE,
            dims.height as usize,
        );
        // Layers above the highest block of every chunk around are air: scan up to one
        // layer above it (the front layer of the topmost faces), no further.
        // (Each chunk's highest first: a plain maximum over a slice, which the compiler
        // vectorises; the layer is monotonic in y.)
        let top = area
            .chunks
            .iter()
            .flatten()
            .filter_map(|c| {
                c.heightmaps()[Heightmap::WorldSurface]
                    .iter()
                    .copied()
                    .max()
            })
            .max()
            .map_or(0, |y| (y - dims.min_y).max(0) as usize);
        let ny = core::cmp::min(height, top + 1);
        let zrows = sz + 2;
        let below_world = outside_block(palette);
        let filler = match missing {
            MissingNeighbour::Emit => block::AIR,
            MissingNeighbour::Cull => below_world,
        };
        let chunks: Vec<Option<ChunkArrays<'a>>> = area
            .chunks
            .iter()
            .map(|c| {
                c.map(|c| ChunkArrays {
                    blocks: c.blocks(),
                    sky: &c.light().sky,
                    block_light: &c.light().block,
                })
            })
            .collect();
        let spreads: Vec<Spread> = palette.iter().map(|(_, p)| spread(class(p))).collect();
        let below_occludes = class(palette.props(below_world)) & CLASS_OCCLUDER != 0;
        let below = ((1u128 << (sx + 2)) - 1) * u128::from(below_occludes);
        let source = RowSource {
            chunks: &chunks,
            cw,
            sx,
            ny,
            zrows,
            filler,
            below,
            spreads: &spreads,
        };
        let rows = if cw == 3 {
            Rows::Narrow(source.rows())
        } else {
            Rows::Wide(source.rows())
        };
        Ok(Volume {
            sx,
            sz,
            ny,
            height,
            min_y: dims.min_y,
            rows,
            chunks,
            cw,
            filler,
            below_world,
            palette,
            missing_light: match missing {
                MissingNeighbour::Emit => (OPEN_SKY, 0),
                MissingNeighbour::Cull => (0, 0),
            },
        })
    }

    /// The mask bits of the interior cells of a padded row (`1..=sx`; the apron excluded).
    #[inline]
    pub fn interior(&self) -> u128 {
        ((1u128 << self.sx) - 1) << 1
    }

    /// Whether the block at padded coordinates is an occluder.
    #[cfg(test)]
    pub fn occluder(&self, px: usize, py: usize, pz: usize) -> bool {
        (self.rows.occ(py * (self.sz + 2) + pz) >> px) & 1 == 1
    }

    /// The chunk arrays and the block index of padded `(px, py, pz)` (`py` in
    /// `1..=height`).
    #[inline]
    fn locate(&self, px: usize, py: usize, pz: usize) -> (Option<ChunkArrays<'a>>, usize) {
        // Padded coordinate p is block p - 1: chunk (p + 15) / 16 of the area's grid.
        let (ccol, lx) = ring_chunk_and_local(px);
        let (crow, lz) = ring_chunk_and_local(pz);
        (
            self.chunks[crow * self.cw + ccol],
            chunk_index(lx, py - 1, lz),
        )
    }

    /// The block at padded coordinates.
    #[inline]
    pub fn block(&self, px: usize, py: usize, pz: usize) -> BlockId {
        if py == 0 {
            return self.below_world;
        }
        if py > self.ny {
            return block::AIR;
        }
        match self.locate(px, py, pz) {
            (Some(c), j) => c.blocks[j],
            (None, _) => self.filler,
        }
    }

    /// The blocks of padded row `(py, pz)` into `out[..sx + 2]` (as [`Volume::block`] gives
    /// them: the floor below the world, air above the layers held, `filler` for a missing
    /// chunk).
    pub fn row_blocks(&self, py: usize, pz: usize, out: &mut [BlockId; PADDED_ROW]) {
        let n = self.sx + 2;
        if py == 0 || py > self.ny {
            let b = if py == 0 {
                self.below_world
            } else {
                block::AIR
            };
            out[..n].fill(b);
            return;
        }
        self.chunk_row(
            py,
            pz,
            out,
            self.filler,
            |c, j| c.blocks[j],
            |c, src, dst| dst.copy_from_slice(&c.blocks[src..src + 16]),
        );
    }

    /// Padded row `(py, pz)` (`py` in `1..=height`) into `out[..sx + 2]` from the chunks:
    /// padded x 0 is the west chunk's last cell (`cell(chunk, index)`), then 16 cells per
    /// chunk (`run(chunk, index of the first, the 16 cells)`), then the east chunk's first
    /// cell; a missing chunk's cells are `missing`.
    #[inline(always)]
    fn chunk_row<T: Copy>(
        &self,
        py: usize,
        pz: usize,
        out: &mut [T; PADDED_ROW],
        missing: T,
        cell: impl Fn(&ChunkArrays<'a>, usize) -> T,
        run: impl Fn(&ChunkArrays<'a>, usize, &mut [T]),
    ) {
        let n = self.sx + 2;
        let (crow, lz) = ring_chunk_and_local(pz);
        let src = chunk_index(0, py - 1, lz);
        let row = &self.chunks[crow * self.cw..(crow + 1) * self.cw];
        out[0] = row[0]
            .as_ref()
            .map_or(missing, |c| cell(c, src + CHUNK_SIDE - 1));
        for (k, c) in row[1..self.cw - 1].iter().enumerate() {
            let dst = &mut out[1 + CHUNK_SIDE * k..1 + CHUNK_SIDE * (k + 1)];
            match c {
                Some(c) => run(c, src, dst),
                None => dst.fill(missing),
            }
        }
        out[n - 1] = row[self.cw - 1].as_ref().map_or(missing, |c| cell(c, src));
    }

    /// The block at padded `(px, py, pz)` and the one its axis face `F` looks at. When both
    /// lie in one chunk (most cells), one chunk lookup and two reads with a fixed step.
    #[inline(always)]
    pub fn block_and_facing<const F: usize>(
        &self,
        px: usize,
        py: usize,
        pz: usize,
    ) -> (BlockId, BlockId) {
        let ((_, lx), (_, lz)) = (ring_chunk_and_local(px), ring_chunk_and_local(pz));
        const LAST: usize = CHUNK_SIDE - 1;
        const ROW: isize = CHUNK_SIDE as isize;
        const LAYER: isize = LAYER_STRIDE as isize;
        // Whether the faced cell leaves the chunk (or the layers held), and the index step.
        let (leaves, step): (bool, isize) = match F {
            0 => (lx == 0, -1),
            1 => (lx == LAST, 1),
            2 => (py < 2, -LAYER),
            3 => (py >= self.ny, LAYER),
            4 => (lz == 0, -ROW),
            _ => (lz == LAST, ROW),
        };
        if !leaves && py >= 1 && py <= self.ny {
            if let (Some(c), j) = self.locate(px, py, pz) {
                let n = (j as isize + step) as usize;
                return (c.blocks[j], c.blocks[n]);
            }
        }
        let [nx, ny, nz] = super::faces::towards::<F>([px, py, pz]);
        (self.block(px, py, pz), self.block(nx, ny, nz))
    }

    /// The cells of padded row `(py, pz)` into `out[..sx + 2]`: [`OCCLUDER_CELL`] for an
    /// occluder, else the [`packed`] light that [`Volume::light`] gives.
    pub fn light_row(&self, py: usize, pz: usize, out: &mut [u16; PADDED_ROW]) {
        let n = self.sx + 2;
        if py == 0 || py > self.height {
            // Below or above the world: the same light in every cell.
            out[..n].fill(packed(self.light(1, py, pz)));
        } else {
            self.chunk_light_row(py, pz, out);
        }
        // Occluders, 16 cells at a time with a fixed trip count and no branch (a lane mask
        // from the cell's bit, which the compiler makes one vector compare and select; a
        // branch per cell mispredicts at every surface). The last cells as a whole group
        // too where the array holds one (a chunk's 18-cell row: the cells past `n` are never
        // read, and their bits are clear).
        let select = |cells: &mut [u16; 16], bits: u16| {
            for (cell, lane) in cells.iter_mut().zip(LANE_BITS) {
                let m = u16::from(bits & lane != 0).wrapping_neg();
                *cell = (*cell & !m) | (OCCLUDER_CELL & m);
            }
        };
        let mut occ = self.rows.occ(py * (self.sz + 2) + pz);
        let whole = n / 16 * 16;
        for cells in out[..whole].chunks_exact_mut(16) {
            select(cells.try_into().expect("16"), occ as u16);
            occ >>= 16;
        }
        if whole < n {
            let tail = occ as u16;
            if whole + 16 <= PADDED_ROW {
                select((&mut out[whole..whole + 16]).try_into().expect("16"), tail);
            } else {
                for (i, cell) in out[whole..n].iter_mut().enumerate() {
                    let m = ((tail >> i) & 1).wrapping_neg();
                    *cell = (*cell & !m) | (OCCLUDER_CELL & m);
                }
            }
        }
    }

    /// The [`packed`] light of padded row `(py, pz)` (`py` in `1..=height`) from the chunks.
    fn chunk_light_row(&self, py: usize, pz: usize, out: &mut [u16; PADDED_ROW]) {
        self.chunk_row(
            py,
            pz,
            out,
            packed(self.missing_light),
            |c, j| packed(c.light(j)),
            |c, src, dst| {
                // A chunk row is 8 bytes of each light, low nibble first.
                let bytes = |l: &'a [u8]| -> &'a [u8; 8] {
                    l[src / 2..src / 2 + 8].try_into().expect("eight bytes")
                };
                dst.copy_from_slice(&lanes::light(bytes(c.sky), bytes(c.block_light)));
            },
        );
    }

    /// (sky, block) light of the cell at padded coordinates.
    #[inline]
    pub fn light(&self, px: usize, py: usize, pz: usize) -> (u8, u8) {
        if py == 0 {
            return (0, 0);
        }
        if py > self.height {
            return (OPEN_SKY, 0);
        }
        match self.locate(px, py, pz) {
            (Some(c), j) => c.light(j),
            (None, _) => self.missing_light,
        }
    }
}
