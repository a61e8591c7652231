//! What a mesher reads: the meshed area plus a one-block apron from the chunks around it,
//! seen through padded coordinates (`x + 1`, `y + 1`, `z + 1`), its layers up to the
//! highest block around decoded once from the chunks' paletted sections into dense arrays
//! ([`padded`]). Besides that, one set of bit masks per padded row (occluders, other drawn
//! blocks), made in one pass over the rows; blocks and light are read only at faces.
//!
//! Outside the world the apron is fixed: below the lowest block is the palette's first
//! occluder (the world's floor is never drawn), above the highest is air with sky light 15.
//! A missing chunk is filled according to [`MissingNeighbour`].

use alloc::vec::Vec;

use crate::mesh::padded::{self, Shape};
use crate::mesh::rows::{self, RowSource, Rows};
use crate::mesh::window::packed;
use crate::mesh::MeshError;
use crate::world::block::{self, BlockId};
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

/// The meshed area in padded coordinates: its blocks and light decoded into padded arrays
/// ([`padded`]), and its row masks.
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
    /// The shape of `blocks` and `light`: padded layers `0..=ny + 1`.
    shape: Shape,
    /// Blocks of the padded cells held: the floor below the world, the area's layers up to
    /// `ny`, one layer of air.
    blocks: Vec<BlockId>,
    /// [`packed`] light of the padded cells held.
    light: Vec<u16>,
    /// The area's chunks, for light above the layers held.
    chunks: &'a [Option<&'a FullChunk>],
    /// Chunks per row of `chunks`.
    cw: usize,
    /// The world's blocks.
    pub palette: &'a Palette,
    /// Light of a missing chunk.
    missing_light: (u8, u8),
}

pub(crate) use crate::world::dims::CHUNK_SIDE;

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
    /// Decode the area and make its row masks. Every present chunk must hold
    /// `dims.volume()` blocks and as much light.
    pub fn gather(
        area: ChunkArea<'a>,
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
        let below_world = outside_block(palette);
        let (filler, missing_light) = match missing {
            MissingNeighbour::Emit => (block::AIR, (OPEN_SKY, 0)),
            MissingNeighbour::Cull => (below_world, (0, 0)),
        };
        // Held: the layer below the world, the scanned layers, and the layer above them,
        // which faces on the top layer look at.
        let shape = Shape {
            xrow: sx + 2,
            zrows: sz + 2,
            layers: ny + 2,
        };
        let source = padded::Source {
            chunks: area.chunks,
            cw,
            shape,
        };
        let blocks = source.blocks(&padded::Layers {
            decoded: ny,
            missing: filler,
            below: below_world,
            above: block::AIR,
        });
        // Light of the layer above the scanned ones is the chunks' own (a lamp's light
        // rises above the highest block) unless it is above the world.
        let light = source.light(&padded::Layers {
            decoded: core::cmp::min(ny + 1, height),
            missing: packed(missing_light),
            below: packed((0, 0)),
            above: packed((OPEN_SKY, 0)),
        });
        let spreads = rows::spreads(palette);
        let below = rows::below_world_occluders(palette, below_world, sx + 2);
        let rows_source = RowSource {
            blocks: &blocks,
            shape,
            cw,
            ny,
            below,
            spreads: &spreads,
        };
        let rows = if cw == 3 {
            Rows::Narrow(rows_source.rows())
        } else {
            Rows::Wide(rows_source.rows())
        };
        Ok(Volume {
            sx,
            sz,
            ny,
            height,
            min_y: dims.min_y,
            rows,
            shape,
            blocks,
            light,
            chunks: area.chunks,
            cw,
            palette,
            missing_light,
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

    /// The block at padded coordinates.
    #[inline]
    pub fn block(&self, px: usize, py: usize, pz: usize) -> BlockId {
        // Above the layers held is air.
        self.blocks
            .get(self.shape.index(px, py, pz))
            .copied()
            .unwrap_or(block::AIR)
    }

    /// The blocks of padded row `(py, pz)` (`py` at most `ny + 1`) and the rows after it:
    /// the row is the first `sx + 2` (a reader of whole 16-cell groups finds more after a
    /// row, but for the last rows).
    #[inline]
    pub fn row_blocks(&self, py: usize, pz: usize) -> &[BlockId] {
        &self.blocks[self.shape.index(0, py, pz)..]
    }

    /// The block at interior padded `(px, py, pz)` (`py <= ny`) and the one its axis face
    /// `F` looks at: two reads a fixed step apart.
    #[inline(always)]
    pub fn block_and_facing<const F: usize>(
        &self,
        px: usize,
        py: usize,
        pz: usize,
    ) -> (BlockId, BlockId) {
        let [nx, ny, nz] = super::faces::towards::<F>([px, py, pz]);
        (self.block(px, py, pz), self.block(nx, ny, nz))
    }

    /// The [`packed`] light of padded row `(py, pz)` (`py` at most `ny + 1`), `sx + 2`
    /// cells, as [`Volume::light`] gives it.
    #[inline]
    pub fn light_cells(&self, py: usize, pz: usize) -> &[u16] {
        let at = self.shape.index(0, py, pz);
        &self.light[at..at + self.shape.xrow]
    }

    /// The [`packed`] light of padded `(px, py, pz)` (`py` in `1..=height`) read from its
    /// chunk: for the layers above those held, which no face reads.
    fn chunk_light(&self, px: usize, py: usize, pz: usize) -> u16 {
        let (ccol, lx) = ring_chunk_and_local(px);
        let (crow, lz) = ring_chunk_and_local(pz);
        match self.chunks[crow * self.cw + ccol] {
            Some(c) => {
                let j = chunk_index(lx, py - 1, lz);
                padded::packed_of(c.light().sky.value(j), c.light().block.value(j))
            }
            None => packed(self.missing_light),
        }
    }

    /// (sky, block) light of the cell at padded coordinates.
    #[inline]
    pub fn light(&self, px: usize, py: usize, pz: usize) -> (u8, u8) {
        let l = match self.light.get(self.shape.index(px, py, pz)) {
            Some(&l) => l,
            None if py > self.height => packed((OPEN_SKY, 0)),
            None => self.chunk_light(px, py, pz),
        };
        (l as u8, (l >> 8) as u8)
    }
}
