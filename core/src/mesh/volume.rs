//! What a mesher reads: the meshed area plus a one-block apron from the chunks around it,
//! seen through padded coordinates (`x + 1`, `y + 1`, `z + 1`). The meshed chunks' layers up
//! to the highest block around are decoded from their paletted sections ([`Decoded`]); the
//! ring around them is read from its sections, one section per row at most. Besides that,
//! one set of bit masks per padded row (occluders, other drawn blocks), made in one pass
//! over the chunks' rows; blocks and light are read only at faces.
//!
//! Outside the world the apron is fixed: below the lowest block is the palette's first
//! occluder (the world's floor is never drawn), above the highest is air with sky light 15.
//! A missing chunk is filled according to [`MissingNeighbour`].

use alloc::vec::Vec;

use crate::mesh::rows::{self, RowSource, Rows};
use crate::mesh::window::packed;
use crate::mesh::MeshError;
use crate::world::block::{self, BlockId};
use crate::world::chunk::FullChunk;
use crate::world::dims::Dims;
use crate::world::heightmap::Heightmap;
use crate::world::palette::Palette;
use crate::world::sections::{Sections, ROW};

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

/// The arrays of one full chunk that the mesher reads: its paletted blocks and light, and for
/// the meshed chunks (not the ring around them) the layers the mesh reads decoded
/// ([`Decoded`]), since every face of the mesh reads them and a slice read costs less than
/// a palette lookup.
#[derive(Clone, Copy)]
pub(crate) struct ChunkArrays<'a> {
    /// Blocks, in block-index order.
    pub(crate) blocks: &'a Sections,
    /// Sky light.
    sky: &'a Sections,
    /// Block light.
    block_light: &'a Sections,
    /// The first entries of `blocks` decoded (none for a ring chunk).
    pub(crate) dense_blocks: &'a [BlockId],
    /// The [`packed`] light of the first entries (as many as `dense_blocks`).
    dense_light: &'a [u16],
}

impl<'a> ChunkArrays<'a> {
    /// The arrays of `c`, with the decoded first entries of a meshed chunk.
    fn new(c: &'a FullChunk, dense: Option<&'a DecodedChunk>) -> ChunkArrays<'a> {
        let (dense_blocks, dense_light) =
            dense.map_or((&[][..], &[][..]), |d| (&d.blocks[..], &d.light[..]));
        ChunkArrays {
            blocks: c.blocks(),
            sky: &c.light().sky,
            block_light: &c.light().block,
            dense_blocks,
            dense_light,
        }
    }

    /// Block of block index `j`.
    #[inline(always)]
    pub(crate) fn block(&self, j: usize) -> BlockId {
        match self.dense_blocks.get(j) {
            Some(&b) => b,
            None => self.blocks.value(j),
        }
    }

    /// The 16 blocks from block index `j` (a row's first) into `out`.
    #[inline(always)]
    fn block_row(&self, j: usize, out: &mut [BlockId]) {
        match self.dense_blocks.get(j..j + ROW) {
            Some(d) => out.copy_from_slice(d),
            None => self.blocks.row(j, out.try_into().expect("a chunk's row")),
        }
    }

    /// The [`packed`] light of block index `j`.
    #[inline(always)]
    pub(crate) fn packed_light(&self, j: usize) -> u16 {
        match self.dense_light.get(j) {
            Some(&l) => l,
            None => packed_of(self.sky.value(j), self.block_light.value(j)),
        }
    }

    /// The [`packed`] light of the 16 cells from block index `j` (a row's first) into `out`.
    #[inline(always)]
    fn light_row(&self, j: usize, out: &mut [u16]) {
        match self.dense_light.get(j..j + ROW) {
            Some(d) => out.copy_from_slice(d),
            None => {
                let (mut sky, mut block) = ([0u16; ROW], [0u16; ROW]);
                self.sky.row(j, &mut sky);
                self.block_light.row(j, &mut block);
                for ((d, s), b) in out.iter_mut().zip(sky).zip(block) {
                    *d = packed_of(s, b);
                }
            }
        }
    }
}

/// [`packed`] light from the stored sky and block light values.
#[inline(always)]
fn packed_of(sky: u16, block: u16) -> u16 {
    (sky & 15) | (block & 15) << 8
}

/// The decoded layers of one meshed chunk ([`ChunkArrays`]).
pub(crate) struct DecodedChunk {
    blocks: Vec<BlockId>,
    light: Vec<u16>,
}

/// The meshed chunks of an area with the layers a mesh reads decoded, in area order (`None`
/// for the ring and for missing chunks): what [`Volume::gather`] borrows.
pub(crate) struct Decoded(Vec<Option<DecodedChunk>>);

impl Decoded {
    /// Decode the layers up to one above the highest block around (the highest a face's
    /// light window reads) of the area's meshed chunks. A chunk of another height than
    /// `dims` is decoded as far as it goes (the gather refuses it).
    pub(crate) fn new(area: &ChunkArea<'_>, dims: Dims) -> Decoded {
        let layers = core::cmp::min(dims.height as usize, top_layer(area, dims) + 2);
        let cw = area.width + 2;
        let chunks = area
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (x, z) = (i % cw, i / cw);
                let meshed = (1..=area.width).contains(&x) && (1..=area.depth).contains(&z);
                let c = c.filter(|_| meshed)?;
                let n = [c.blocks().len(), c.light().sky.len(), c.light().block.len()]
                    .into_iter()
                    .fold(layers * LAYER_STRIDE, core::cmp::min);
                let mut blocks = alloc::vec![0; n];
                c.blocks().decode_prefix_into(&mut blocks);
                let mut light = alloc::vec![0; n];
                c.light().sky.decode_prefix_into(&mut light);
                let mut block_light = alloc::vec![0; n];
                c.light().block.decode_prefix_into(&mut block_light);
                for (l, &b) in light.iter_mut().zip(&block_light) {
                    *l = packed_of(*l, b);
                }
                Some(DecodedChunk { blocks, light })
            })
            .collect();
        Decoded(chunks)
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

/// Refuse an area wider than the row masks hold, and chunks whose arrays do not match the
/// world's height.
fn check_area(area: &ChunkArea<'_>, dims: Dims) -> Result<(), MeshError> {
    if area.width > MAX_AREA_WIDTH {
        return Err(MeshError::BadArea);
    }
    let volume = dims.volume();
    for c in area.chunks.iter().flatten() {
        let l = c.light();
        if c.blocks().len() != volume || l.sky.len() != volume || l.block.len() != volume {
            return Err(MeshError::HeightMismatch);
        }
    }
    Ok(())
}

/// The layer (from the world's bottom) of the highest block of every chunk of the area and
/// its ring, by their world-surface heightmaps; 0 if there is none. Each chunk's highest
/// first: a plain maximum over a slice, which the compiler vectorises.
fn top_layer(area: &ChunkArea<'_>, dims: Dims) -> usize {
    area.chunks
        .iter()
        .flatten()
        .filter_map(|c| {
            c.heightmaps()[Heightmap::WorldSurface]
                .iter()
                .copied()
                .max()
        })
        .max()
        .map_or(0, |y| (y - dims.min_y).max(0) as usize)
}

impl<'a> Volume<'a> {
    /// Make the row masks of the area. Every present chunk must hold `dims.volume()`
    /// blocks and as much light.
    pub fn gather(
        area: ChunkArea<'a>,
        decoded: &'a Decoded,
        dims: Dims,
        palette: &'a Palette,
        missing: MissingNeighbour,
    ) -> Result<Volume<'a>, MeshError> {
        check_area(&area, dims)?;
        let cw = area.width + 2;
        let (sx, sz, height) = (
            area.width * CHUNK_SIDE,
            area.depth * CHUNK_SIDE,
            dims.height as usize,
        );
        // Layers above the highest block of every chunk around are air: scan up to one
        // layer above it (the front layer of the topmost faces), no further.
        let ny = core::cmp::min(height, top_layer(&area, dims) + 1);
        let zrows = sz + 2;
        let below_world = outside_block(palette);
        let filler = match missing {
            MissingNeighbour::Emit => block::AIR,
            MissingNeighbour::Cull => below_world,
        };
        let chunks: Vec<Option<ChunkArrays<'a>>> = area
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| c.map(|c| ChunkArrays::new(c, decoded.0.get(i).and_then(Option::as_ref))))
            .collect();
        let spreads = rows::spreads(palette);
        let below = rows::below_world_occluders(palette, below_world, sx + 2);
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
            (Some(c), j) => c.block(j),
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
            |c, j| c.block(j),
            |c, src, dst| c.block_row(src, dst),
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
                return (c.block(j), c.block(n));
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
            |c, j| c.packed_light(j),
            |c, src, dst| c.light_row(src, dst),
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
            (Some(c), j) => {
                let l = c.packed_light(j);
                (l as u8, (l >> 8) as u8)
            }
            (None, _) => self.missing_light,
        }
    }
}
