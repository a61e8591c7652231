//! Row masks: for every padded row of a volume, which cells are occluders, other drawn
//! blocks, blocks hidden by the same block, and plants, as bit masks (bit `px` is the cell at
//! padded x `px`), and whether the row holds one block. They are made in one pass over the
//! padded rows ([`RowSource::rows`]); the scan finds visible faces by mask arithmetic on
//! them and reads blocks and light only at faces.

use alloc::vec::Vec;

use crate::mesh::lanes;
use crate::mesh::padded::Shape;
use crate::mesh::volume::CHUNK_SIDE;
use crate::world::block::{self, BlockId, BlockProps};
use crate::world::palette::Palette;

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
    /// Occluders of row `i` (the tests compare them with the blocks).
    #[cfg(test)]
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
/// operation is one instruction, or `u128` for the widest padded row (`MAX_AREA_WIDTH` chunks and two apron cells).
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
    /// Cells `i..i + 3` as bits 0..3.
    fn three(self, i: usize) -> u32;
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
            #[inline(always)]
            fn three(self, i: usize) -> u32 {
                ((self >> i) & 7) as u32
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
pub(crate) struct Spread([u64; 2]);

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
pub(crate) struct RowSource<'s> {
    /// The padded blocks ([`crate::mesh::padded`]).
    pub(crate) blocks: &'s [BlockId],
    pub(crate) shape: Shape,
    /// Chunks per row of the area's ring grid.
    pub(crate) cw: usize,
    /// Layers scanned.
    pub(crate) ny: usize,
    /// Occluder bits of the row below the world.
    pub(crate) below: u128,
    /// Per block id, its class spread ([`spread`]).
    pub(crate) spreads: &'s [Spread],
}

impl RowSource<'_> {
    /// The row masks of every padded row, `M` wide enough for a padded row.
    pub(crate) fn rows<M: Mask>(&self) -> Vec<RowMasks<M>> {
        let RowSource {
            blocks,
            shape,
            cw,
            ny,
            below,
            spreads,
        } = *self;
        let (n, zrows) = (shape.xrow, shape.zrows);
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
        let first = shape.layer_cells();
        let scanned = &blocks[first..first + ny * shape.layer_cells()];
        for row in scanned.chunks_exact(n) {
            // The west apron cell, the chunks' runs, the east apron cell, as packed class
            // fields; the row is uniform if all hold the west cell's block.
            let (west, east) = (row[0], row[n - 1]);
            let mut same = east == west;
            // Pushed in each branch: merging the branches' masks first sent them through
            // the stack.
            let uniform = |same: bool| if same { west } else { MIXED_ROW };
            if cw == 3 {
                // One chunk wide (every chunk mesh): 18 cells, every field built at once
                // (west at bit 0, the chunk's run at 1..=16, east at 17).
                let (acc, first) = run_fields(&row[1..], spreads);
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
                m.place(spread_of(east), n - 1);
                for ccol in 0..cw - 2 {
                    let at = 1 + ccol * CHUNK_SIDE;
                    let (acc, first) = run_fields(&row[at..], spreads);
                    same &= first == Some(west);
                    m.place(acc, at);
                }
                m.uniform = uniform(same);
                masks.push(m);
            }
        }
        masks.resize(rows, RowMasks::AIR);
        masks
    }
}

/// Per block id of `palette`, its class spread ([`spread`]), for [`RowSource::spreads`].
pub(crate) fn spreads(palette: &Palette) -> Vec<Spread> {
    palette.iter().map(|(_, p)| spread(class(p))).collect()
}

/// The occluder mask of the row below the world, `cells` wide: every cell if `below_world`
/// is an occluder.
pub(crate) fn below_world_occluders(palette: &Palette, below_world: BlockId, cells: usize) -> u128 {
    let occludes = class(palette.props(below_world)) & CLASS_OCCLUDER != 0;
    ((1u128 << cells) - 1) * u128::from(occludes)
}
