//! What a mesher reads: the meshed area plus a one-block apron from the chunks around it,
//! seen through padded coordinates (`x + 1`, `y + 1`, `z + 1`). Nothing is copied but one
//! pair of bit masks per padded row (occluders, other drawn blocks), made in one pass over
//! the chunks' rows; blocks and light are read from the chunks themselves, and only at
//! faces.
//!
//! Outside the world the apron is fixed: below the lowest block is [`BELOW_WORLD`] (an
//! occluder: the world's floor is never drawn), above the highest is air with sky light 15.
//! A missing chunk is filled according to [`MissingNeighbour`].

use alloc::vec;
use alloc::vec::Vec;

use crate::world::block::{self, BlockId};
use crate::world::chunk::FullChunk;
use crate::world::dims::Dims;
use crate::world::heightmap::Heightmap;
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
    /// Per padded row (`py * (sz + 2) + pz`), bit `px` set where the block is an occluder.
    pub occ: Vec<u128>,
    /// Per padded row, bit `px` set where the block is drawn and not an occluder.
    pub other: Vec<u128>,
    /// Per padded row, bit `px` set where the block is drawn, not an occluder, and hidden on
    /// every side by the same block (cutout and translucent cubes, fluids).
    pub hides_same: Vec<u128>,
    /// Blocks, sky and block light of the area's chunks (`None`: missing), in area order.
    chunks: Vec<Option<ChunkArrays<'a>>>,
    /// Chunks per row of `chunks`.
    cw: usize,
    /// Block of a missing chunk.
    filler: BlockId,
    /// Light of a missing chunk.
    missing_light: (u8, u8),
}

#[derive(Clone, Copy)]
struct ChunkArrays<'a> {
    blocks: &'a [BlockId],
    sky: &'a [u8],
    block_light: &'a [u8],
}

/// The widest area, in chunks, whose padded rows fit the row masks.
pub const MAX_AREA_WIDTH: usize = 7;

/// A block's row-mask class: bit 0 occluder, bit 1 drawn and not an occluder, bit 2 hidden
/// by the same block on every side.
fn class(b: BlockId) -> u8 {
    let p = block::props(b);
    let hides_same = match p.shape {
        block::Shape::Fluid => true,
        block::Shape::Cube => p.surface != block::Surface::Opaque,
        _ => false,
    };
    if p.is_occluder() {
        1
    } else if p.shape != block::Shape::None {
        2 | if hides_same { 4 } else { 0 }
    } else {
        0
    }
}

/// Row masks under construction.
#[derive(Clone, Copy, Default)]
struct Masks {
    occ: u128,
    other: u128,
    hides: u128,
}

impl Masks {
    /// Add the class `c` at bits `bits`.
    #[inline]
    fn add(&mut self, c: u8, bits: u128) {
        if c & 1 != 0 {
            self.occ |= bits;
        }
        if c & 2 != 0 {
            self.other |= bits;
        }
        if c & 4 != 0 {
            self.hides |= bits;
        }
    }

    /// Add the blocks of `run` starting at bit `x`.
    #[inline]
    fn add_run(&mut self, run: &[BlockId], x: usize, classes: &[u8]) {
        let first = run[0];
        // Rows are mostly one block (stone, air, water): one lookup for a uniform run.
        let diff = run.iter().fold(0u16, |acc, &b| acc | (b ^ first));
        if diff == 0 {
            let c = classes.get(first as usize).copied().unwrap_or(0);
            self.add(c, ((1u128 << run.len()) - 1) << x);
        } else {
            // Class bits spread into three 32-bit masks, shifted into place once.
            let (mut occ, mut other, mut hides) = (0u32, 0u32, 0u32);
            for (k, &b) in run.iter().enumerate() {
                let c = classes.get(b as usize).copied().unwrap_or(0) as u32;
                occ |= (c & 1) << k;
                other |= ((c >> 1) & 1) << k;
                hides |= ((c >> 2) & 1) << k;
            }
            self.occ |= (occ as u128) << x;
            self.other |= (other as u128) << x;
            self.hides |= (hides as u128) << x;
        }
    }
}

impl<'a> Volume<'a> {
    /// Make the row masks of the area. Every present chunk must hold `dims.volume()`
    /// blocks and as much light.
    pub fn gather(
        area: ChunkArea<'a>,
        dims: Dims,
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
        let (sx, sz, height) = (area.width * 16, area.depth * 16, dims.height as usize);
        // Layers above the highest block of every chunk around are air: scan up to one
        // layer above it (the front layer of the topmost faces), no further.
        let top = area
            .chunks
            .iter()
            .flatten()
            .flat_map(|c| c.heightmaps()[Heightmap::WorldSurface].iter())
            .map(|&y| (y - dims.min_y).max(0) as usize)
            .max()
            .unwrap_or(0);
        let ny = core::cmp::min(height, top + 1);
        let zrows = sz + 2;
        let filler = match missing {
            MissingNeighbour::Emit => block::AIR,
            MissingNeighbour::Cull => MISSING_CULL,
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
        let classes: Vec<u8> = (0..block::count()).map(|b| class(b as BlockId)).collect();
        let rows = (ny + 2) * zrows;
        let mut occ = vec![0u128; rows];
        let mut other = vec![0u128; rows];
        let mut hides_same = vec![0u128; rows];
        let below = ((1u128 << (sx + 2)) - 1) * (class(BELOW_WORLD) & 1) as u128;
        occ[..zrows].fill(below);
        let filler_class = classes[filler as usize];
        for crow in 0..area.depth + 2 {
            // Padded rows of this chunk row: the last z of the chunk north of the area, all
            // 16 of an interior chunk, or the first of the chunk south of it.
            let (pz0, lz0, n) = match crow {
                0 => (0, 15, 1),
                c if c <= area.depth => (1 + (c - 1) * 16, 0, 16),
                _ => (sz + 1, 0, 1),
            };
            let row_chunks = &chunks[crow * cw..(crow + 1) * cw];
            for y in 0..ny {
                for k in 0..n {
                    let (pz, lz) = (pz0 + k, lz0 + k);
                    let src = (y * 16 + lz) * 16;
                    let mut m = Masks::default();
                    // The west apron cell, the interior chunks' rows, the east apron cell.
                    let edge = |c: Option<ChunkArrays<'_>>, x: usize| {
                        c.map_or(filler_class, |c| classes[c.blocks[src + x] as usize])
                    };
                    m.add(edge(row_chunks[0], 15), 1);
                    for (ccol, c) in row_chunks[1..cw - 1].iter().enumerate() {
                        let x = 1 + ccol * 16;
                        match c {
                            Some(c) => m.add_run(&c.blocks[src..src + 16], x, &classes),
                            None => m.add(filler_class, 0xffff << x),
                        }
                    }
                    m.add(edge(row_chunks[cw - 1], 0), 1 << (sx + 1));
                    let r = (y + 1) * zrows + pz;
                    occ[r] = m.occ;
                    other[r] = m.other;
                    hides_same[r] = m.hides;
                }
            }
        }
        Ok(Volume {
            sx,
            sz,
            ny,
            height,
            min_y: dims.min_y,
            occ,
            other,
            hides_same,
            chunks,
            cw,
            filler,
            missing_light: match missing {
                MissingNeighbour::Emit => (OPEN_SKY, 0),
                MissingNeighbour::Cull => (0, 0),
            },
        })
    }

    /// Whether the block at padded coordinates is an occluder.
    #[inline]
    pub fn occluder(&self, px: usize, py: usize, pz: usize) -> bool {
        (self.occ[py * (self.sz + 2) + pz] >> px) & 1 == 1
    }

    /// The chunk arrays and the block index of padded `(px, py, pz)` (`py` in
    /// `1..=height`).
    #[inline]
    fn locate(&self, px: usize, py: usize, pz: usize) -> (Option<ChunkArrays<'a>>, usize) {
        // Padded coordinate p is block p - 1: chunk (p + 15) / 16 of the area's grid.
        let (ccol, lx) = ((px + 15) >> 4, (px + 15) & 15);
        let (crow, lz) = ((pz + 15) >> 4, (pz + 15) & 15);
        (
            self.chunks[crow * self.cw + ccol],
            ((py - 1) * 16 + lz) * 16 + lx,
        )
    }

    /// The block at padded coordinates.
    #[inline]
    pub fn block(&self, px: usize, py: usize, pz: usize) -> BlockId {
        if py == 0 {
            return BELOW_WORLD;
        }
        if py > self.ny {
            return block::AIR;
        }
        match self.locate(px, py, pz) {
            (Some(c), j) => c.blocks[j],
            (None, _) => self.filler,
        }
    }

    /// (sky, block) light of the cell at padded coordinates.
    #[inline]
    pub fn light(&self, px: usize, py: usize, pz: usize) -> (u8, u8) {
        if py == 0 {
            return (0, 0);
        }
        if py == self.height + 1 {
            return (OPEN_SKY, 0);
        }
        match self.locate(px, py, pz) {
            (Some(c), j) => {
                let shift = (j & 1) * 4;
                (
                    (c.sky[j >> 1] >> shift) & 15,
                    (c.block_light[j >> 1] >> shift) & 15,
                )
            }
            (None, _) => self.missing_light,
        }
    }
}
