//! [`Streaming`]: the engine-free core of `StratagenWorld`. Each frame the main thread
//! follows the viewers (releases and requests, the order of the work), collects the meshes
//! the workers built, and starts workers when there is work and fewer than the pool's
//! threads are running; everything else (generation, relighting edited chunks, meshes,
//! collision faces) runs on the workers through the [`Feed`]. Edits go through the world's
//! [`EditLayer`] and are saved to and loaded from a SQLite store as edit records.
//!
//! The main thread holds the feed's lock only to copy in or out: a query that needs an
//! edited chunk relit takes its inputs under the lock, relights outside it and hands the
//! result back ([`EditLayer::prepare`], [`EditedFull::build`], [`EditLayer::keep`]); edit
//! records are encoded and decoded outside it.

use std::path::Path;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, Retention, Scheduler};
use stratagen_core::mesh::MeshOptions;
use stratagen_core::world::block::BlockId;
use stratagen_core::world::edit::{BlockEdit, EditError, EditLayer, EditedFull};
use stratagen_core::world::{ChunkData, World, WorldGen};
use stratagen_store::edits::{apply_edits, decode_edits, encode_edits};
use stratagen_store::sqlite::ChunkStore;
use stratagen_store::WorldIdentity;

use crate::bridge::TaskPool;
use crate::error::StreamError;
use crate::feed::{around, ChunkMesh, Event, Feed, FeedStats, Mesher, Shared, Workers};
use crate::stream::{StreamSettings, Streamer, Viewer};

/// What one frame hands the engine.
#[derive(Default)]
pub struct Frame {
    /// New meshes of shown chunks (a chunk's first, or a rebuild after a neighbour or an
    /// edit changed it), nearest to a viewer first.
    pub meshes: Vec<(ChunkPos, ChunkMesh)>,
    /// Chunks whose mesh leaves the scene (released), in position order.
    pub unloaded: Vec<ChunkPos>,
    /// Chunks requested this frame.
    pub requested: Vec<ChunkPos>,
}

/// A world streamed around viewers, its work on the host's pool. Main thread.
pub struct Streaming {
    generator: WorldGen,
    feed: Arc<Feed>,
    streamer: Streamer,
    threads: usize,
}

impl Streaming {
    /// A world of `generator` streamed with `settings`, meshed with `options` (the scatter
    /// layers' props placed with each mesh), on a pool of `threads` threads (at least one).
    pub fn new(
        generator: WorldGen,
        settings: StreamSettings,
        options: MeshOptions,
        threads: usize,
    ) -> Streaming {
        Self::with_props(generator, settings, options, threads, true)
    }

    /// [`Streaming::new`], placing the scatter layers' props with each mesh or not.
    pub fn with_props(
        generator: WorldGen,
        settings: StreamSettings,
        options: MeshOptions,
        threads: usize,
        props: bool,
    ) -> Streaming {
        let mut sched = Scheduler::new(Arc::new(World::new(generator.clone())));
        // The node saves edits, never chunk records: a shown chunk keeps its full output only.
        sched.set_retention(Retention::FullChunks);
        let layer = EditLayer::new(&generator);
        let mesher = Mesher {
            dims: generator.dims(),
            definition: generator.definition_arc().clone(),
            options,
            seed: generator.settings().seed,
            props,
        };
        Streaming {
            feed: Arc::new(Feed::new(Shared::new(sched, layer), mesher)),
            generator,
            streamer: Streamer::new(settings),
            threads: threads.max(1),
        }
    }

    /// The world's generator.
    pub fn generator(&self) -> &WorldGen {
        &self.generator
    }

    /// The streaming policy's state.
    pub fn streamer(&self) -> &Streamer {
        &self.streamer
    }

    /// One frame with `viewers`: follow them, collect the built meshes, keep the workers
    /// busy. A task or mesh failure is reported once, by the frame after it happened.
    pub fn frame(
        &mut self,
        viewers: &[Viewer],
        pool: &mut impl TaskPool,
    ) -> Result<Frame, StreamError> {
        let mut frame = Frame::default();
        pool.reap();
        self.follow_viewers(viewers, &mut frame)?;
        self.collect_meshes(&mut frame)?;
        self.keep_workers_busy(pool);
        Ok(frame)
    }

    /// Release what no viewer needs, request what they see (and the apron around it), and
    /// forget the released chunks' meshes.
    fn follow_viewers(&mut self, viewers: &[Viewer], frame: &mut Frame) -> Result<(), StreamError> {
        let mut g = self.feed.lock_main();
        let s = &mut *g;
        let changes = self.streamer.update(&mut s.sched, viewers)?;
        for p in &changes.released {
            s.record(Event::Released(*p));
            if s.released(*p) {
                frame.unloaded.push(*p);
            }
        }
        for p in &changes.requested {
            s.record(Event::Requested(*p));
            s.held.insert(*p);
        }
        s.note_busy();
        frame.requested = changes.requested;
        let released = &changes.released;
        if !released.is_empty() {
            s.built.retain(|(p, _)| !released.contains(p));
            let held = &s.held;
            // Edited chunks stay cached while a held chunk's mesh may read them.
            s.layer.retain(|p| around(p).any(|q| held.contains(&q)));
        }
        Ok(())
    }

    /// Take the meshes the workers built, nearest to a viewer first.
    fn collect_meshes(&mut self, frame: &mut Frame) -> Result<(), StreamError> {
        let mut g = self.feed.lock_main();
        if let Some(e) = g.failure.take() {
            return Err(e);
        }
        let mut built = std::mem::take(&mut g.built);
        let focus = g.sched.focus().to_vec();
        drop(g);
        built.sort_by_key(|(p, _)| {
            let d = focus
                .iter()
                .map(|f| {
                    let (dx, dz) = (i64::from(p.x - f.x), i64::from(p.z - f.z));
                    dx * dx + dz * dz
                })
                .min()
                .unwrap_or(0);
            (d, *p)
        });
        frame.meshes = built;
        Ok(())
    }

    /// Start worker loops up to the pool's threads when there is work.
    fn keep_workers_busy(&mut self, pool: &mut impl TaskPool) {
        let n = {
            let mut g = self.feed.lock_main();
            if g.has_work() {
                g.reserve_workers(self.threads)
            } else {
                0
            }
        };
        self.feed.notify();
        if n > 0 {
            pool.spawn(Arc::new(Workers {
                feed: self.feed.clone(),
                n,
            }));
        }
    }

    /// Put `block` at (x, y, z); the meshes it changes are rebuilt on the workers from the
    /// next frame.
    pub fn set_block(&mut self, x: i32, y: i32, z: i32, block: BlockId) -> Result<(), EditError> {
        self.set_blocks(&[BlockEdit { x, y, z, block }])
            .map_err(|(_, e)| e)
    }

    /// Apply every edit of `edits` in order, or none (the first refused one and why).
    pub fn set_blocks(&mut self, edits: &[BlockEdit]) -> Result<(), (usize, EditError)> {
        let mut g = self.feed.lock_main();
        g.layer.edits_mut().set_blocks(edits)?;
        Self::mark_changed(&mut g);
        drop(g);
        self.feed.notify();
        Ok(())
    }

    /// Every chunk the new edits reach gets a new mesh.
    fn mark_changed(s: &mut Shared) {
        for p in s.layer.edits_mut().take_changed() {
            if s.shown.contains(&p) {
                s.stale.insert(p);
            }
        }
    }

    /// The block at (x, y, z) as edited; [`EditError::NotReady`] where its chunk is not
    /// generated.
    pub fn block(&self, x: i32, y: i32, z: i32) -> Result<BlockId, EditError> {
        let g = self.feed.lock_main();
        g.layer.block(&g.sched, x, y, z)
    }

    /// Read the scheduler and the edit layer under the feed's lock (short reads only: the
    /// workers wait meanwhile).
    pub fn read<R>(&self, f: impl FnOnce(&Scheduler<World>, &EditLayer) -> R) -> R {
        let g = self.feed.lock_main();
        f(&g.sched, &g.layer)
    }

    /// Read the edited finished chunk at `pos` (relit on this thread, outside the feed's
    /// lock, if an edit reached it and no mesh has relit it yet).
    pub fn full(&self, pos: ChunkPos) -> Result<Arc<ChunkData>, EditError> {
        let prepared: EditedFull = {
            let mut g = self.feed.lock_main();
            let s = &mut *g;
            s.layer.prepare(&s.sched, pos)?
        };
        let (chunk, built) = prepared.build();
        if let Some(b) = built {
            self.feed.lock_main().layer.keep(&b);
        }
        Ok(chunk)
    }

    /// The edit records of every edited chunk, by position: the diffs copied under the feed's
    /// lock, the records encoded outside it.
    pub fn edit_records(&self) -> Vec<(ChunkPos, Vec<u8>)> {
        let diffs: Vec<(ChunkPos, Vec<(u32, BlockId)>)> = {
            let mut g = self.feed.lock_main();
            let edits = g.layer.edits_mut();
            let chunks: Vec<ChunkPos> = edits.edited_chunks().collect();
            chunks
                .into_iter()
                .map(|p| (p, edits.chunk(p).to_vec()))
                .collect()
        };
        let identity = WorldIdentity::of(&self.generator);
        diffs
            .into_iter()
            .map(|(p, entries)| (p, encode_edits(&identity, p, &entries)))
            .collect()
    }

    /// Apply edit records (each all or nothing; the first refused one stops the load and
    /// names its chunk, the ones before it applied); the meshes they change are rebuilt.
    /// Decoded outside the feed's lock, applied under it.
    pub fn load_edit_records(
        &mut self,
        records: &[(ChunkPos, Vec<u8>)],
    ) -> Result<(), StreamError> {
        let mut decoded = Vec::with_capacity(records.len());
        let mut refused = None;
        for (pos, bytes) in records {
            match decode_edits(&self.generator, bytes) {
                Ok(r) => decoded.push((*pos, r)),
                Err(source) => {
                    refused = Some(StreamError::EditRecord { pos: *pos, source });
                    break;
                }
            }
        }
        let mut g = self.feed.lock_main();
        for (pos, r) in &decoded {
            if let Err(source) = apply_edits(g.layer.edits_mut(), r) {
                refused = Some(StreamError::EditRecord { pos: *pos, source });
                break;
            }
        }
        Self::mark_changed(&mut g);
        drop(g);
        self.feed.notify();
        refused.map_or(Ok(()), Err)
    }

    /// Save the edits to the SQLite store at `path` (created for this world if missing; a
    /// store of another world, or someone else's database, is refused). Chunk records stay
    /// as they are.
    pub fn save(&self, path: &Path) -> Result<usize, StreamError> {
        let store_error = |source| StreamError::Store {
            path: path.to_path_buf(),
            source,
        };
        let mut store =
            ChunkStore::open(path, &WorldIdentity::of(&self.generator)).map_err(store_error)?;
        let records = self.edit_records();
        store.put_edits(&records).map_err(store_error)?;
        Ok(records.len())
    }

    /// Load the edits of the SQLite store at `path`, after those already made (the loaded
    /// ones win where both edit a block). A store of another world is refused.
    pub fn load(&mut self, path: &Path) -> Result<usize, StreamError> {
        let store_error = |source| StreamError::Store {
            path: path.to_path_buf(),
            source,
        };
        let store = ChunkStore::open_read_only(path).map_err(store_error)?;
        if let Some(m) = store
            .identity()
            .mismatch(&WorldIdentity::of(&self.generator))
        {
            return Err(store_error(m.into()));
        }
        let records = store.edits().map_err(store_error)?;
        self.load_edit_records(&records)?;
        Ok(records.len())
    }

    /// Record what the workers take and finish ([`Event`]), from now on (`false`: stop and
    /// forget).
    pub fn record_events(&self, on: bool) {
        self.feed.lock_main().events = on.then(Vec::new);
    }

    /// The events recorded since the last call.
    pub fn take_events(&self) -> Vec<Event> {
        self.feed
            .lock()
            .events
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// The feed's counters.
    pub fn stats(&self) -> FeedStats {
        self.feed.stats()
    }

    /// Chunks shown (full, with their eight neighbours full) now, in position order.
    pub fn shown(&self) -> Vec<ChunkPos> {
        self.feed.lock_main().shown.iter().copied().collect()
    }

    /// Whether nothing is ready, stale or running.
    pub fn is_idle(&self) -> bool {
        self.feed.lock_main().is_idle()
    }

    /// Stop the workers (each hands back what it runs), wait for the pool, and release every
    /// chunk: afterwards no task of this world runs or waits.
    pub fn shut_down(&mut self, pool: &mut impl TaskPool) -> Result<(), StreamError> {
        self.feed.close();
        pool.wait_all();
        let mut g = self.feed.lock_main();
        let s = &mut *g;
        self.streamer.clear(&mut s.sched)?;
        s.held.clear();
        s.full.clear();
        s.shown.clear();
        s.stale.clear();
        s.built.clear();
        Ok(())
    }
}
