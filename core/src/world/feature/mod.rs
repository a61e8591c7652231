//! The `features` status body: decoration in fixed steps, each feature with a global index (its
//! position in the definition's feature list) that seeds its random
//! (`feature_seed(decoration_seed(world, block x, block z), index, step)`). Writes inside the chunk apply to its own copy of the blocks; writes into a
//! neighbour (features reach at most one chunk out) are recorded as a patch for that
//! neighbour, decided against the neighbour's *terrain* snapshot only, so the result never
//! depends on which chunk decorated first.
//!
//! Steps: 0 structure pieces (placed by `structure`), 1 boulders, 2 ores, 3 trees,
//! 4 vegetation. Vegetation points come from a Poisson-disk set that is a pure function of
//! position (see [`poisson_points`]), so it is seamless across borders without reading any
//! neighbour output.

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use crate::world::block::{self, BlockId};
use crate::world::chunk::ChunkData;
use crate::world::neighbourhood::Neighbourhood;

mod decorate;
mod ores;
mod poisson;
mod trees;
mod writer;

pub use decorate::{decorate, FeatureInput};
pub use poisson::poisson_points;
pub use writer::Writer;

/// A block entity: a chest or spawner placed by a structure piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlockEntity {
    /// Block position (world coordinates).
    pub pos: [i32; 3],
    /// The block (`CHEST`, `SPAWNER`).
    pub kind: BlockId,
    /// Loot table id for chests, creature kind for spawners.
    pub data: u32,
}

/// The output of `features` for one chunk. Its blocks are the terrain's with `changes`
/// applied: the terrain output is shared, not copied (a copy would be 192 KiB per resident chunk).
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureChunk {
    /// The chunk's own terrain output (a `ChunkData::Terrain`).
    pub terrain: Arc<ChunkData>,
    /// The chunk's own feature writes, as the final block at each changed index, sorted by
    /// index.
    pub changes: Vec<(u32, BlockId)>,
    /// Writes for each neighbour (the centre, the chunk itself, stays empty):
    /// `(block index in the target chunk, block)`, applied in list order.
    pub outbound: Neighbourhood<Vec<(u32, BlockId)>>,
    /// Sorted block indices of this chunk written by structure pieces: inbound patches never
    /// overwrite them.
    pub protected: Vec<u32>,
    /// Block entities inside this chunk.
    pub block_entities: Vec<BlockEntity>,
    /// XXH64 of the body's intermediate floats (blob centres and radii), so a one-ulp change
    /// shows even where no block changes.
    pub witness: u64,
}

impl FeatureChunk {
    /// The chunk's blocks after its own feature writes (the terrain's with `changes` applied).
    pub fn blocks(&self) -> Vec<BlockId> {
        let mut blocks = self
            .terrain
            .terrain()
            .map_or(Vec::new(), |t| t.blocks.to_vec());
        for &(i, b) in &self.changes {
            if let Some(slot) = blocks.get_mut(i as usize) {
                *slot = b;
            }
        }
        blocks
    }
}

/// The merge of `initialize_light`: the chunk's own feature blocks, then the eight inbound
/// patches in (dz, dx) order, skipping positions structure pieces wrote. `inbound` holds the
/// patch list each neighbour wrote for this chunk.
pub fn merge(
    own: &FeatureChunk,
    inbound: Neighbourhood<Option<&[(u32, BlockId)]>>,
) -> Vec<BlockId> {
    let mut blocks = own.blocks();
    for patch in inbound.iter().flatten() {
        for &(i, b) in patch.iter() {
            if own.protected.binary_search(&i).is_err() {
                if let Some(slot) = blocks.get_mut(i as usize) {
                    *slot = b;
                }
            }
        }
    }
    blocks
}

/// A fresh vector of `n` air blocks (used by tests and tools).
pub fn air(n: usize) -> Vec<BlockId> {
    vec![block::AIR; n]
}
