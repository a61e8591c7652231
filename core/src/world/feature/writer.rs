//! Block access for one decorating chunk ([`Writer`]): its own blocks (mutable), its
//! neighbours' terrain (read-only), the outbound patches and the structure-protected set.

use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::digest::Digest;
use crate::world::block::{self, BlockId};
use crate::world::chunk::ChunkData;
use crate::world::dims::Dims;
use crate::world::feature::{BlockEntity, FeatureChunk};
use crate::world::neighbourhood::Neighbourhood;
use crate::world::palette::Palette;
use crate::world::terrain::TerrainChunk;

/// Block access for one decorating chunk: its own blocks (mutable) and its neighbours'
/// terrain (read-only), plus the outbound patches.
pub struct Writer<'a> {
    dims: Dims,
    palette: &'a Palette,
    pos: ChunkPos,
    own: Vec<BlockId>,
    neighbours: Neighbourhood<Option<&'a TerrainChunk>>,
    outbound: Neighbourhood<Vec<(u32, BlockId)>>,
    protected: Vec<u32>,
    protect: bool,
    /// Indices of own-chunk writes (with repeats), for the change list at the end.
    written: Vec<u32>,
    witness: Digest,
}

impl<'a> Writer<'a> {
    /// A writer over `own` (a copy of the chunk's terrain blocks) and the 3 × 3 terrain
    /// snapshots.
    pub fn new(
        dims: Dims,
        palette: &'a Palette,
        pos: ChunkPos,
        own: Vec<BlockId>,
        neighbours: Neighbourhood<Option<&'a TerrainChunk>>,
    ) -> Self {
        Writer {
            dims,
            palette,
            pos,
            own,
            neighbours,
            outbound: Default::default(),
            protected: Vec::new(),
            protect: false,
            written: Vec::new(),
            witness: Digest::new(),
        }
    }

    /// The world's blocks.
    pub fn palette(&self) -> &'a Palette {
        self.palette
    }

    /// Record an intermediate float in the body's witness digest.
    pub fn witness(&mut self, v: f64) {
        self.witness.write_f64(v);
    }

    fn locate(&self, x: i32, y: i32, z: i32) -> Option<(usize, usize)> {
        if y < self.dims.min_y || y > self.dims.max_y() {
            return None;
        }
        let dx = (x >> 4) - self.pos.x;
        let dz = (z >> 4) - self.pos.z;
        if !(-1..=1).contains(&dx) || !(-1..=1).contains(&dz) {
            return None;
        }
        let slot = Neighbourhood::<()>::slot(dx, dz);
        Some((
            slot,
            self.dims.index((x & 15) as usize, y, (z & 15) as usize),
        ))
    }

    /// The block at world position `(x, y, z)`: the chunk's own current block, or the
    /// neighbour's terrain block; `None` outside the 3 × 3 chunks or the world's height.
    pub fn get(&self, x: i32, y: i32, z: i32) -> Option<BlockId> {
        let (slot, i) = self.locate(x, y, z)?;
        if slot == Neighbourhood::<()>::CENTRE {
            self.own.get(i).copied()
        } else {
            self.neighbours.at(slot).and_then(|t| t.blocks.get(i))
        }
    }

    /// Write a block (own chunk directly, a neighbour through its patch). Outside the 3 × 3
    /// chunks or the height range the write is dropped (features are sized never to reach).
    pub fn set(&mut self, x: i32, y: i32, z: i32, b: BlockId) {
        if let Some((slot, i)) = self.locate(x, y, z) {
            if slot == Neighbourhood::<()>::CENTRE {
                self.own[i] = b;
                self.written.push(i as u32);
                if self.protect {
                    self.protected.push(i as u32);
                }
            } else {
                self.outbound.at_mut(slot).push((i as u32, b));
            }
        }
    }

    /// Write `b` where the current block satisfies `pred`.
    pub fn set_if(&mut self, x: i32, y: i32, z: i32, b: BlockId, pred: impl Fn(BlockId) -> bool) {
        if self.get(x, y, z).map_or(false, pred) {
            self.set(x, y, z, b);
        }
    }

    /// Run `f` with every own-chunk write marked as a structure write (kept against inbound
    /// patches); protection ends when `f` returns.
    pub fn protected<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let was = core::mem::replace(&mut self.protect, true);
        let r = f(self);
        self.protect = was;
        r
    }

    /// Finish: the output over `terrain` (this chunk's terrain output, whose blocks the
    /// writer started from), keeping only the blocks that differ from it; protected indices
    /// sorted and deduplicated.
    pub fn finish(
        mut self,
        terrain: Arc<ChunkData>,
        block_entities: Vec<BlockEntity>,
    ) -> FeatureChunk {
        self.protected.sort_unstable();
        self.protected.dedup();
        self.written.sort_unstable();
        self.written.dedup();
        let base = terrain.terrain().map(|t| &t.blocks);
        let own = &self.own;
        let changes = self
            .written
            .iter()
            .filter(|&&i| base.and_then(|b| b.get(i as usize)) != own.get(i as usize).copied())
            .map(|&i| (i, own[i as usize]))
            .collect();
        FeatureChunk {
            terrain,
            changes,
            outbound: self.outbound,
            protected: self.protected,
            block_entities,
            witness: self.witness.finish(),
        }
    }

    /// Highest block y of the world.
    pub fn max_y(&self) -> i32 {
        self.dims.max_y()
    }

    /// y of the top non-air, non-plant block of column `(x, z)` (own chunk's current state or
    /// neighbour terrain), scanning down from `from`.
    pub fn top(&self, x: i32, z: i32, from: i32) -> Option<i32> {
        let mut y = core::cmp::min(from, self.dims.max_y());
        while y >= self.dims.min_y {
            let b = self.get(x, y, z)?;
            let p = self.palette.props(b);
            if b != block::AIR && !p.replaceable {
                return Some(y);
            }
            if p.liquid {
                return Some(y);
            }
            y -= 1;
        }
        None
    }
}
