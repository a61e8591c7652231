//! A world that keeps what it generated: one scheduler per world, run inline, holding a
//! ticket on the last [`CachedWorld::capacity`] finished chunks asked for. A chunk asked for
//! again is handed back at once, and the neighbours a nearby chunk shares are generated
//! once: a viewer walking chunk by chunk pays about what one large region costs per chunk,
//! not the whole neighbourhood each call. What the cache holds changes how long a call takes,
//! never its bytes (the scheduler's outputs do not depend on order or history).
//!
//! The world's edits ([`EditLayer`]) lie over what it generates: every chunk handed out is
//! the edited one, relit, and edits stay when the chunks they changed are released.

use std::collections::VecDeque;
use std::sync::Arc;

use stratagen_core::engine::{
    ChunkPos, ChunkRect, ChunkStatus, Priority, Retention, Scheduler, Ticket,
};
use stratagen_core::world::block::BlockId;
use stratagen_core::world::edit::{BlockEdit, EditError, EditLayer, Edits};
use stratagen_core::world::{ChunkData, World, WorldGen};

/// Finished chunks a world keeps between calls unless told otherwise.
pub const DEFAULT_CAPACITY: usize = 128;

/// A world, its scheduler and the finished chunks it keeps.
pub struct CachedWorld {
    generator: WorldGen,
    scheduler: Scheduler<World>,
    edits: EditLayer,
    /// Tickets on kept chunks, least recently asked for first.
    kept: VecDeque<(ChunkPos, Ticket)>,
    capacity: usize,
}

impl CachedWorld {
    /// A world of `generator` keeping [`DEFAULT_CAPACITY`] chunks.
    pub fn new(generator: WorldGen) -> CachedWorld {
        let mut scheduler = Scheduler::with_id(Arc::new(World::new(generator.clone())), 1);
        // Full chunks drop what only their neighbours' generation read: the cache holds
        // finished chunks, not every status of them.
        scheduler.set_retention(Retention::FullChunks);
        CachedWorld {
            edits: EditLayer::new(&generator),
            generator,
            scheduler,
            kept: VecDeque::new(),
            capacity: DEFAULT_CAPACITY,
        }
    }

    /// The world's generator.
    pub fn generator(&self) -> &WorldGen {
        &self.generator
    }

    /// Finished chunks kept between calls.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Keep at most `chunks` finished chunks between calls (0: none), releasing the least
    /// recently asked for at once.
    pub fn set_capacity(&mut self, chunks: usize) {
        self.capacity = chunks;
        self.trim(chunks);
    }

    /// Chunks the scheduler holds at any status (kept ones and what they stand on).
    pub fn resident(&self) -> usize {
        self.scheduler.holder_count()
    }

    /// The finished chunks of `region`, row-major, generated on the calling thread where not
    /// kept.
    pub fn finished(&mut self, region: ChunkRect) -> Result<Vec<Arc<ChunkData>>, String> {
        for p in region.positions() {
            self.ask(p)?;
        }
        self.scheduler.run_inline(usize::MAX);
        let (edits, scheduler) = (&mut self.edits, &self.scheduler);
        let chunks = region
            .positions()
            .map(|p| edits.full(scheduler, p).map_err(|e| e.to_string()))
            .collect();
        // This call's chunks are the most recent: the region is kept whole while it is
        // handed out, then only what the capacity allows.
        self.trim(self.capacity);
        chunks
    }

    /// Put `block` at world block (`x`, `y`, `z`); refused edits change nothing. Chunks handed
    /// out later show it, and their light is computed again.
    pub fn set_block(&mut self, x: i32, y: i32, z: i32, block: BlockId) -> Result<(), String> {
        self.edits
            .set_block(BlockEdit { x, y, z, block })
            .map(drop)
            .map_err(|e| e.to_string())
    }

    /// The block at world block (`x`, `y`, `z`), edits included, generating its chunk when
    /// neither an edit nor the chunk is known.
    pub fn block(&mut self, x: i32, y: i32, z: i32) -> Result<BlockId, String> {
        match self.edits.block(&self.scheduler, x, y, z) {
            Err(EditError::NotReady(pos)) => {
                self.finished(ChunkRect::of(pos).map_err(|e| e.to_string())?)?;
                self.edits.block(&self.scheduler, x, y, z)
            }
            other => other,
        }
        .map_err(|e| e.to_string())
    }

    /// The world's edits, as records are written from and read into them.
    pub fn edits_mut(&mut self) -> &mut Edits {
        self.edits.edits_mut()
    }

    /// Mark `p` most recently asked for, requesting it when not kept.
    fn ask(&mut self, p: ChunkPos) -> Result<(), String> {
        let kept = match self.kept.iter().position(|(q, _)| *q == p) {
            Some(i) => self.kept.remove(i),
            None => None,
        };
        let entry = match kept {
            Some(e) => e,
            None => {
                let t = self
                    .scheduler
                    .request(p, ChunkStatus::Full, Priority::Soon)
                    .map_err(|e| e.to_string())?;
                (p, t)
            }
        };
        self.kept.push_back(entry);
        Ok(())
    }

    /// Release the least recently asked for chunks until at most `keep` are kept.
    fn trim(&mut self, keep: usize) {
        while self.kept.len() > keep {
            if let Some((_, t)) = self.kept.pop_front() {
                // The ticket came from this scheduler and is released once: cannot fail.
                let _ = self.scheduler.release(t);
            }
        }
        // Edited chunks computed for released positions go; the edits stay.
        let scheduler = &self.scheduler;
        self.edits.retain(|p| scheduler.status(p).is_some());
    }
}
