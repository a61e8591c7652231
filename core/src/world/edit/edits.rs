//! [`Edits`]: every edit of a world, kept per chunk, with the sequence numbers that order them
//! and the record of which chunks each edit reaches.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use crate::engine::ChunkPos;
use crate::world::block::BlockId;
use crate::world::dims::{Dims, CHUNK_SIDE};
use crate::world::edit::diff::ChunkEdits;
use crate::world::neighbourhood::Neighbourhood;

/// How far, in blocks along x plus z, an edit can change what a chunk shows: light travels at
/// most 14 blocks from the edited column (a removed block opens the column below it to the
/// sky, and sky and block light then spread sideways losing at least 1 per block), and a
/// mesh reads blocks and light one block beyond its chunk.
pub const EDIT_REACH: i32 = 15;

/// One block edit: world block coordinates and the block to put there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockEdit {
    /// World block x.
    pub x: i32,
    /// World block y (`min_y ..= max_y`).
    pub y: i32,
    /// World block z.
    pub z: i32,
    /// The block (an id of the world's palette).
    pub block: BlockId,
}

/// Why an edit or an edited read was refused. A refused edit changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The position is outside the world: y outside `min_y ..= max_y`, or a chunk outside
    /// `|x|, |z| < 2^21`.
    OutOfRange {
        /// World block x.
        x: i32,
        /// World block y.
        y: i32,
        /// World block z.
        z: i32,
    },
    /// The block id is not in the world's palette.
    UnknownBlock(BlockId),
    /// The chunk (or a neighbour whose blocks its light reads) is not generated far enough.
    NotReady(ChunkPos),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::OutOfRange { x, y, z } => {
                write!(f, "block ({x}, {y}, {z}) is outside the world")
            }
            EditError::UnknownBlock(b) => write!(f, "block id {b} is not in the world's palette"),
            EditError::NotReady(p) => write!(
                f,
                "chunk ({}, {}) is not generated far enough to read its edited blocks",
                p.x, p.z
            ),
        }
    }
}

/// Where an edit lands: its chunk, its block index there and its chunk-local column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditSite {
    /// The chunk.
    pub chunk: ChunkPos,
    /// Block index in the chunk, `((y - min_y) * 16 + z) * 16 + x`.
    pub index: u32,
    /// Chunk-local x.
    pub lx: u8,
    /// Chunk-local z.
    pub lz: u8,
}

/// One chunk's edits and what they reach.
#[derive(Clone, Debug, Default)]
struct ChunkState {
    diff: ChunkEdits,
    /// Per neighbour slot ([`Neighbourhood`] order, the centre being this chunk), the sequence
    /// number of the latest edit here that reaches it (0: none).
    reach: [u64; 9],
    /// Neighbour slots reached since the changed chunks were last taken.
    unreported: u16,
}

/// Every edit of one world. Edits to different positions commute; of two edits to one
/// position, the one with the higher sequence number (the later call) wins. Owner thread.
#[derive(Clone, Debug)]
pub struct Edits {
    dims: Dims,
    blocks: usize,
    chunks: BTreeMap<ChunkPos, ChunkState>,
    /// The sequence number of the latest edit (0: none yet).
    seq: u64,
    /// Chunks with unreported reach bits.
    dirty: Vec<ChunkPos>,
}

impl Edits {
    /// No edits, for a world of `dims` whose palette has `blocks` blocks.
    pub fn new(dims: Dims, blocks: usize) -> Edits {
        Edits {
            dims,
            blocks,
            chunks: BTreeMap::new(),
            seq: 0,
            dirty: Vec::new(),
        }
    }

    /// The world dimensions edits are checked against.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Where block (x, y, z) lives, or why it is outside the world.
    pub fn site(&self, x: i32, y: i32, z: i32) -> Result<EditSite, EditError> {
        let chunk = ChunkPos::new(x.div_euclid(16), z.div_euclid(16));
        if !chunk.is_valid() || y < self.dims.min_y || y > self.dims.max_y() {
            return Err(EditError::OutOfRange { x, y, z });
        }
        let (lx, lz) = (x.rem_euclid(16) as usize, z.rem_euclid(16) as usize);
        Ok(EditSite {
            chunk,
            index: self.dims.index(lx, y, lz) as u32,
            lx: lx as u8,
            lz: lz as u8,
        })
    }

    /// [`Edits::site`] of an edit whose block is also checked.
    pub fn check(&self, e: &BlockEdit) -> Result<EditSite, EditError> {
        let site = self.site(e.x, e.y, e.z)?;
        if usize::from(e.block) >= self.blocks {
            return Err(EditError::UnknownBlock(e.block));
        }
        Ok(site)
    }

    /// Put `e.block` at (e.x, e.y, e.z). Returns the edit's sequence number.
    pub fn set_block(&mut self, e: BlockEdit) -> Result<u64, EditError> {
        let site = self.check(&e)?;
        Ok(self.apply(site, e.block))
    }

    /// Apply every edit of `edits` in order, or none: the first refused edit (its index in
    /// `edits` and why) leaves the world unchanged.
    pub fn set_blocks(&mut self, edits: &[BlockEdit]) -> Result<(), (usize, EditError)> {
        for (k, e) in edits.iter().enumerate() {
            self.check(e).map_err(|err| (k, err))?;
        }
        for e in edits {
            // Checked above; the check is repeated rather than the sites kept, so a batch
            // needs no allocation.
            if let Ok(site) = self.check(e) {
                self.apply(site, e.block);
            }
        }
        Ok(())
    }

    /// Apply the chunk `pos`'s entries of an edit record (block index, block), in order. Every
    /// entry is checked first; a refused entry (its position in `entries`) changes nothing.
    pub fn import(
        &mut self,
        pos: ChunkPos,
        entries: &[(u32, BlockId)],
    ) -> Result<(), (usize, EditError)> {
        let volume = self.dims.volume();
        for (k, &(i, b)) in entries.iter().enumerate() {
            if !pos.is_valid() || i as usize >= volume {
                let (x, z) = (pos.x.wrapping_mul(16), pos.z.wrapping_mul(16));
                return Err((k, EditError::OutOfRange { x, y: i32::MIN, z }));
            }
            if usize::from(b) >= self.blocks {
                return Err((k, EditError::UnknownBlock(b)));
            }
        }
        for &(index, b) in entries {
            let column = index as usize % (CHUNK_SIDE * CHUNK_SIDE);
            let site = EditSite {
                chunk: pos,
                index,
                lx: (column % CHUNK_SIDE) as u8,
                lz: (column / CHUNK_SIDE) as u8,
            };
            self.apply(site, b);
        }
        Ok(())
    }

    fn apply(&mut self, site: EditSite, block: BlockId) -> u64 {
        self.seq += 1;
        let seq = self.seq;
        let state = self.chunks.entry(site.chunk).or_default();
        state.diff.set(site.index, block);
        let mask = reach_mask(site.lx, site.lz);
        for (k, r) in state.reach.iter_mut().enumerate() {
            if mask & (1 << k) != 0 {
                *r = seq;
            }
        }
        if state.unreported == 0 {
            self.dirty.push(site.chunk);
        }
        state.unreported |= mask;
        seq
    }

    /// The block edited at (x, y, z), if that position has an edit.
    pub fn get(&self, x: i32, y: i32, z: i32) -> Option<BlockId> {
        let site = self.site(x, y, z).ok()?;
        self.chunks.get(&site.chunk)?.diff.get(site.index)
    }

    /// The edits of chunk `pos`, sorted by block index, one per index (empty if none).
    pub fn chunk(&mut self, pos: ChunkPos) -> &[(u32, BlockId)] {
        match self.chunks.get_mut(&pos) {
            Some(s) => s.diff.entries(),
            None => &[],
        }
    }

    /// The chunks that hold edits, in position order.
    pub fn edited_chunks(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        self.chunks.keys().copied()
    }

    /// The sequence number of the latest edit (0 before the first).
    pub fn sequence(&self) -> u64 {
        self.seq
    }

    /// The sequence number of the latest edit of chunk `pos` (0: none).
    pub fn revision(&self, pos: ChunkPos) -> u64 {
        self.chunks
            .get(&pos)
            .map_or(0, |s| s.reach[Neighbourhood::<()>::CENTRE])
    }

    /// What chunk `pos` shows depends on: per neighbour slot, the sequence number of that
    /// neighbour's latest edit that reaches `pos` (all 0: no edit reaches it).
    pub fn stamp(&self, pos: ChunkPos) -> [u64; 9] {
        let mut stamp = [0u64; 9];
        for (k, &(dx, dz)) in Neighbourhood::<()>::OFFSETS.iter().enumerate() {
            if let Some(s) = self.chunks.get(&pos.offset(dx, dz)) {
                stamp[k] = s.reach[Neighbourhood::<()>::opposite(k)];
            }
        }
        stamp
    }

    /// The chunks whose blocks, light or border faces edits may have changed since the last
    /// call, in position order: each edited chunk and the neighbours its edits reach.
    pub fn take_changed(&mut self) -> Vec<ChunkPos> {
        let mut changed = BTreeSet::new();
        for pos in core::mem::take(&mut self.dirty) {
            if let Some(s) = self.chunks.get_mut(&pos) {
                for (k, &(dx, dz)) in Neighbourhood::<()>::OFFSETS.iter().enumerate() {
                    if s.unreported & (1 << k) != 0 {
                        changed.insert(pos.offset(dx, dz));
                    }
                }
                s.unreported = 0;
            }
        }
        changed.into_iter().filter(|p| p.is_valid()).collect()
    }
}

/// The neighbour slots (bit `k` for [`Neighbourhood`] slot `k`) an edit in chunk-local column
/// (lx, lz) reaches: those whose nearest column is at most [`EDIT_REACH`] blocks away along x
/// plus z. The centre is always reached.
pub fn reach_mask(lx: u8, lz: u8) -> u16 {
    let side = CHUNK_SIDE as i32;
    let gap = |l: i32, d: i32| match d {
        -1 => l + 1,
        1 => side - l,
        _ => 0,
    };
    let mut mask = 0u16;
    for (k, &(dx, dz)) in Neighbourhood::<()>::OFFSETS.iter().enumerate() {
        if gap(i32::from(lx), dx) + gap(i32::from(lz), dz) <= EDIT_REACH {
            mask |= 1 << k;
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims() -> Dims {
        Dims {
            min_y: -64,
            height: 384,
            sea_level: 62,
        }
    }

    #[test]
    fn reach_of_known_columns() {
        let c = 1 << Neighbourhood::<()>::CENTRE;
        let slot = |dx, dz| 1u16 << Neighbourhood::<()>::slot(dx, dz);
        // The middle reaches the four sides (8 blocks) but no corner (16 blocks).
        assert_eq!(
            reach_mask(8, 8),
            c | slot(-1, 0) | slot(1, 0) | slot(0, -1) | slot(0, 1)
        );
        // A column on the west edge is 16 blocks from the east neighbour.
        assert_eq!(reach_mask(0, 8) & slot(1, 0), 0);
        assert_ne!(reach_mask(1, 8) & slot(1, 0), 0);
        // The corner column is 2 blocks from the diagonal chunk.
        assert_ne!(reach_mask(0, 0) & slot(-1, -1), 0);
        assert_eq!(reach_mask(0, 0) & slot(1, 1), 0);
    }

    #[test]
    fn refused_edits_change_nothing() {
        let mut e = Edits::new(dims(), 10);
        let ok = BlockEdit {
            x: 3,
            y: 70,
            z: -5,
            block: 1,
        };
        let bad_y = BlockEdit { y: 320, ..ok };
        let bad_block = BlockEdit { block: 10, ..ok };
        let far = BlockEdit { x: 1 << 25, ..ok };
        assert_eq!(
            e.set_block(bad_y),
            Err(EditError::OutOfRange {
                x: 3,
                y: 320,
                z: -5
            })
        );
        assert_eq!(e.set_block(bad_block), Err(EditError::UnknownBlock(10)));
        assert!(matches!(
            e.set_block(far),
            Err(EditError::OutOfRange { .. })
        ));
        assert_eq!(
            e.set_blocks(&[ok, ok, bad_block]),
            Err((2, EditError::UnknownBlock(10)))
        );
        assert_eq!(e.sequence(), 0);
        assert_eq!(e.edited_chunks().count(), 0);
        assert!(e.take_changed().is_empty());
        assert_eq!(e.set_block(ok), Ok(1));
        assert_eq!(e.get(3, 70, -5), Some(1));
        assert_eq!(e.get(3, 71, -5), None);
        // The lowest and highest layers are inside the world.
        assert!(e.set_block(BlockEdit { y: -64, ..ok }).is_ok());
        assert!(e.set_block(BlockEdit { y: 319, ..ok }).is_ok());
    }

    #[test]
    fn changed_chunks_are_reported_once() {
        let mut e = Edits::new(dims(), 10);
        // Column (8, 8) of chunk (0, -1): the chunk and its four side neighbours.
        e.set_block(BlockEdit {
            x: 8,
            y: 0,
            z: -8,
            block: 2,
        })
        .unwrap();
        let want = [(-1, -1), (0, -2), (0, -1), (0, 0), (1, -1)].map(|(x, z)| ChunkPos::new(x, z));
        assert_eq!(e.take_changed(), want.to_vec());
        assert!(e.take_changed().is_empty());
        assert_eq!(
            e.stamp(ChunkPos::new(1, -1))[Neighbourhood::<()>::slot(-1, 0)],
            1
        );
        assert_eq!(e.stamp(ChunkPos::new(1, 0)), [0; 9]);
    }
}
