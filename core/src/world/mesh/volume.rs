//! What a mesher reads: the blocks of the meshed area plus a one-block apron from the chunks
//! around it, copied into one padded array, and light looked up in the chunks themselves
//! (light is read only at faces, a few thousand cells, so it is not copied).
//!
//! Outside the world the apron is fixed: below the lowest block is [`BELOW_WORLD`] (an
//! occluder: the world's floor is never drawn), above the highest is air with sky light 15.
//! A missing chunk is filled according to [`MissingNeighbour`].

use alloc::vec;
use alloc::vec::Vec;

use crate::world::block::{self, BlockId};
use crate::world::chunk::FullChunk;
use crate::world::dims::Dims;
use crate::world::mesh::MeshError;

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

/// The block below the world (an occluder).
pub const BELOW_WORLD: BlockId = block::BEDROCK;
/// Block standing in for a missing chunk in [`MissingNeighbour::Cull`] mode (an occluder).
pub const MISSING_CULL: BlockId = block::STONE;
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

/// The padded block array of a [`ChunkArea`].
pub(crate) struct Volume<'a> {
    /// Interior size in blocks.
    pub sx: usize,
    pub sz: usize,
    pub ny: usize,
    pub min_y: i32,
    /// Row stride (`sx + 2`) and layer stride (`(sx + 2) * (sz + 2)`).
    pub row: usize,
    pub layer: usize,
    /// Padded blocks, index `((y + 1) * (sz + 2) + (z + 1)) * (sx + 2) + (x + 1)` for `x` in
    /// `-1..=sx`, `y` in `-1..=ny`, `z` in `-1..=sz`.
    pub blocks: Vec<BlockId>,
    area: ChunkArea<'a>,
    missing: MissingNeighbour,
}

impl<'a> Volume<'a> {
    /// Copy the area's blocks. Every present chunk must hold `dims.volume()` blocks and as
    /// much light.
    pub fn gather(
        area: ChunkArea<'a>,
        dims: Dims,
        missing: MissingNeighbour,
    ) -> Result<Volume<'a>, MeshError> {
        let cw = area.width + 2;
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
        let (sx, sz, ny) = (area.width * 16, area.depth * 16, dims.height as usize);
        let (row, layer) = (sx + 2, (sx + 2) * (sz + 2));
        let filler = match missing {
            MissingNeighbour::Emit => block::AIR,
            MissingNeighbour::Cull => MISSING_CULL,
        };
        let mut blocks = vec![block::AIR; layer * (ny + 2)];
        blocks[..layer].fill(BELOW_WORLD);
        for y in 0..ny {
            for pz in 0..sz + 2 {
                // Padded z `pz` is block z `pz - 1`: chunk row `(pz + 15) / 16`, local z
                // `(pz + 15) % 16`.
                let (crow, lz) = ((pz + 15) / 16, (pz + 15) % 16);
                let base = (y + 1) * layer + pz * row;
                let src_row = (y * 16 + lz) * 16;
                let dst = &mut blocks[base..base + row];
                let chunk = |ccol: usize| area.chunks[crow * cw + ccol];
                // The west apron cell, the interior chunks' rows, the east apron cell.
                dst[0] = chunk(0).map_or(filler, |c| c.blocks()[src_row + 15]);
                for ccol in 1..=area.width {
                    let out = &mut dst[1 + (ccol - 1) * 16..1 + ccol * 16];
                    match chunk(ccol) {
                        Some(c) => out.copy_from_slice(&c.blocks()[src_row..src_row + 16]),
                        None => out.fill(filler),
                    }
                }
                dst[row - 1] = chunk(cw - 1).map_or(filler, |c| c.blocks()[src_row]);
            }
        }
        Ok(Volume {
            sx,
            sz,
            ny,
            min_y: dims.min_y,
            row,
            layer,
            blocks,
            area,
            missing,
        })
    }

    /// Padded index of block `(x, y, z)` (interior coordinates, each may be −1 or the size).
    #[inline]
    pub fn index(&self, x: isize, y: isize, z: isize) -> usize {
        ((y + 1) as usize * (self.sz + 2) + (z + 1) as usize) * self.row + (x + 1) as usize
    }

    /// (sky, block) light of the cell at padded index `i`.
    pub fn light(&self, i: usize) -> (u8, u8) {
        let py = i / self.layer;
        let pz = (i % self.layer) / self.row;
        let px = i % self.row;
        if py == 0 {
            return (0, 0);
        }
        if py == self.ny + 1 {
            return (OPEN_SKY, 0);
        }
        let (crow, lz) = ((pz + 15) / 16, (pz + 15) % 16);
        let (ccol, lx) = ((px + 15) / 16, (px + 15) % 16);
        match self.area.chunks[crow * (self.area.width + 2) + ccol] {
            Some(c) => {
                let j = ((py - 1) * 16 + lz) * 16 + lx;
                (c.light().sky_at(j), c.light().block_at(j))
            }
            None => match self.missing {
                MissingNeighbour::Emit => (OPEN_SKY, 0),
                MissingNeighbour::Cull => (0, 0),
            },
        }
    }
}
