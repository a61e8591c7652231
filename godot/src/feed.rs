//! The work feed the pool's workers drain: generation tasks and chunk meshes, taken one at a
//! time, best first, by whichever worker is free.
//!
//! The scheduler, the edit layer and the mesh queue live behind one lock that the workers
//! and the main thread share. Under it runs only bookkeeping (taking a job, handing back a
//! result, copying out what an edit or a query needs); bodies, relights of edited chunks,
//! meshes and edit record encoding all run outside it, so the main thread never waits for
//! a worker's work, only for a worker's bookkeeping ([`FeedStats::main_wait_max`] is the
//! longest such wait). A worker takes a job under the lock, runs it outside, and hands the
//! result back under the lock: a finished generation task makes its dependants
//! ready at once and the same worker takes the next one, so workers never wait for a frame.
//! Jobs are chosen when a worker is free, never queued ahead: a chunk the viewers left has
//! no job to cancel (its ticket is released and the scheduler hands out nothing for it),
//! and a task already running finishes and its result is dropped by the scheduler.
//!
//! Order: stale meshes of shown chunks first (they are what the player sees, and cost a
//! fraction of a generation task), nearest to a viewer first; then the scheduler's best
//! ready task, ordered by distance to the nearest viewer ([`Scheduler::set_focus`]). A
//! chunk is shown, and meshed, once it and its eight neighbours have reached `full`, so it
//! is meshed once, with its final neighbourhood; only an edit that reaches it remeshes it.
//!
//! A worker with nothing to take waits while another job runs (its result may make work
//! ready) and returns to the pool once nothing runs and nothing is ready; the main thread
//! starts workers again when its frame makes work (see [`crate::streaming`]).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use stratagen_core::engine::{BodyError, ChunkPos, ChunkStatus, Finished, Scheduler, Task};
use stratagen_core::world::edit::{EditLayer, EditedChunk};
use stratagen_core::world::{ChunkData, Neighbourhood, World, WorldScratch};

use crate::bridge::Job;
use crate::error::StreamError;
use mesher::MeshJob;
pub use mesher::{collision_faces, ChunkMesh, Mesher, PropSet};

mod mesher;

/// What the feed records for tests and reports, when asked to
/// ([`crate::streaming::Streaming::record_events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A worker took a generation task.
    Started(ChunkPos, ChunkStatus),
    /// A generation task's result was handed back.
    Finished(ChunkPos, ChunkStatus),
    /// A worker took a chunk's mesh.
    Meshing(ChunkPos),
    /// The main thread requested a chunk at `full`.
    Requested(ChunkPos),
    /// The main thread released a chunk's ticket.
    Released(ChunkPos),
}

/// Counters of the feed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FeedStats {
    /// Generation tasks finished.
    pub tasks: u64,
    /// Chunks that reached `full`.
    pub full: u64,
    /// Meshes built.
    pub meshes: u64,
    /// Generation tasks ready to be taken now.
    pub ready: usize,
    /// Jobs running on workers now.
    pub running: usize,
    /// Worker loops alive now.
    pub workers: usize,
    /// Generation tasks running on workers now.
    pub generating: usize,
    /// Wall time during which a generation task was ready or running, in seconds.
    pub busy_seconds: f64,
    /// Time spent running generation bodies, summed over workers, in seconds.
    pub body_seconds: f64,
    /// Time spent building meshes, summed over workers, in seconds.
    pub mesh_seconds: f64,
    /// The longest the main thread waited for the feed's lock, in seconds.
    pub main_wait_max: f64,
}

/// One job for a worker.
enum Work {
    Generate(Task<World>),
    Mesh(MeshJob),
}

/// A job's result, handed back under the lock.
enum Done {
    Generated(Task<World>, Result<ChunkData, BodyError>),
    Meshed(
        ChunkPos,
        Result<Box<ChunkMesh>, StreamError>,
        Vec<EditedChunk>,
    ),
}

/// A job's result and the seconds it ran.
struct Ran {
    done: Done,
    seconds: f64,
}

/// The 3 × 3 chunks around `p`.
pub(crate) fn around(p: ChunkPos) -> impl Iterator<Item = ChunkPos> {
    Neighbourhood::<()>::OFFSETS
        .into_iter()
        .map(move |(dx, dz)| p.offset(dx, dz))
}

/// What the main thread and the workers share.
pub(crate) struct Shared {
    pub(crate) sched: Scheduler<World>,
    pub(crate) layer: EditLayer,
    /// Chunks the streamer holds.
    pub(crate) held: BTreeSet<ChunkPos>,
    /// Held chunks that have reached `full`.
    pub(crate) full: BTreeSet<ChunkPos>,
    /// Full chunks whose eight neighbours are full too: the chunks with a mesh.
    pub(crate) shown: BTreeSet<ChunkPos>,
    /// Shown chunks whose mesh is stale.
    pub(crate) stale: BTreeSet<ChunkPos>,
    /// Chunks a worker is meshing now (one job per chunk at a time, so results arrive in
    /// the order their inputs were taken).
    meshing: BTreeSet<ChunkPos>,
    /// Meshes built and not yet collected by the main thread.
    pub(crate) built: Vec<(ChunkPos, ChunkMesh)>,
    /// The first task failure, reported by the next frame.
    pub(crate) failure: Option<StreamError>,
    pub(crate) events: Option<Vec<Event>>,
    stats: FeedStats,
    /// Set when the world shuts down: workers return.
    closed: bool,
    /// Since when a generation task has been ready or running, if one is.
    busy_since: Option<Instant>,
}

impl Shared {
    pub(crate) fn new(sched: Scheduler<World>, layer: EditLayer) -> Shared {
        Shared {
            sched,
            layer,
            held: BTreeSet::new(),
            full: BTreeSet::new(),
            shown: BTreeSet::new(),
            stale: BTreeSet::new(),
            meshing: BTreeSet::new(),
            built: Vec::new(),
            failure: None,
            events: None,
            stats: FeedStats::default(),
            closed: false,
            busy_since: None,
        }
    }

    /// Account the time generation work waits or runs (after anything that may change it).
    pub(crate) fn note_busy(&mut self) {
        let busy = self.sched.ready_count() > 0 || self.stats.generating > 0;
        match (busy, self.busy_since) {
            (true, None) => self.busy_since = Some(Instant::now()),
            (false, Some(t)) => {
                self.stats.busy_seconds += t.elapsed().as_secs_f64();
                self.busy_since = None;
            }
            _ => {}
        }
    }

    /// The counters, the busy time up to now included.
    pub(crate) fn stats(&self) -> FeedStats {
        FeedStats {
            ready: self.sched.ready_count(),
            busy_seconds: self.stats.busy_seconds
                + self.busy_since.map_or(0.0, |t| t.elapsed().as_secs_f64()),
            ..self.stats
        }
    }

    pub(crate) fn record(&mut self, e: Event) {
        if let Some(v) = &mut self.events {
            v.push(e);
        }
    }

    /// Whether a worker could take a job now.
    pub(crate) fn has_work(&self) -> bool {
        self.sched.ready_count() > 0 || self.stale.iter().any(|p| self.can_mesh(*p))
    }

    /// Whether `p`'s mesh may be built now: no worker meshes it already.
    fn can_mesh(&self, p: ChunkPos) -> bool {
        !self.meshing.contains(&p)
    }

    /// Nothing ready, stale, running or waiting to be collected.
    pub(crate) fn is_idle(&self) -> bool {
        !self.has_work() && self.stats.running == 0 && self.built.is_empty()
    }

    /// Count up to `threads` worker loops as alive (fewer if some are); the number the
    /// caller must start.
    pub(crate) fn reserve_workers(&mut self, threads: usize) -> usize {
        let n = threads.saturating_sub(self.stats.workers);
        self.stats.workers += n;
        n
    }

    /// `p` reached `full`: it and the chunks around it whose neighbourhood is now complete
    /// are shown, and get their mesh.
    fn arrived(&mut self, p: ChunkPos) {
        self.full.insert(p);
        for q in around(p) {
            if !self.shown.contains(&q) && around(q).all(|n| self.full.contains(&n)) {
                self.shown.insert(q);
                self.stale.insert(q);
            }
        }
    }

    /// `p` was released: it leaves the scene. Its neighbours keep their meshes (built from
    /// the complete neighbourhood, they do not change when it goes).
    pub(crate) fn released(&mut self, p: ChunkPos) -> bool {
        self.held.remove(&p);
        self.full.remove(&p);
        self.stale.remove(&p);
        self.shown.remove(&p)
    }

    /// The best job, if any (see the module docs for the order).
    fn next_job(&mut self) -> Option<Work> {
        let focus = self.sched.focus();
        let near = |p: &ChunkPos| {
            focus
                .iter()
                .map(|f| {
                    let (dx, dz) = (i64::from(p.x - f.x), i64::from(p.z - f.z));
                    dx * dx + dz * dz
                })
                .min()
                .unwrap_or(0)
        };
        let mesh = self
            .stale
            .iter()
            .filter(|p| self.can_mesh(**p))
            .min_by_key(|p| (near(p), **p))
            .copied();
        if let Some(pos) = mesh {
            self.stale.remove(&pos);
            self.meshing.insert(pos);
            self.record(Event::Meshing(pos));
            let (sched, layer) = (&self.sched, &mut self.layer);
            let chunks = Neighbourhood::<()>::OFFSETS
                .map(|(dx, dz)| layer.prepare(sched, pos.offset(dx, dz)).ok());
            return Some(Work::Mesh(MeshJob { pos, chunks }));
        }
        let t = self.sched.take_tasks(1).pop()?;
        self.record(Event::Started(t.pos(), t.status()));
        self.stats.generating += 1;
        Some(Work::Generate(t))
    }

    /// Take back a job's result.
    fn accept(&mut self, ran: Ran) {
        match &ran.done {
            Done::Generated(..) => self.stats.body_seconds += ran.seconds,
            Done::Meshed(..) => self.stats.mesh_seconds += ran.seconds,
        }
        match ran.done {
            Done::Generated(task, result) => {
                let (pos, status) = (task.pos(), task.status());
                self.record(Event::Finished(pos, status));
                self.stats.tasks += 1;
                self.stats.generating -= 1;
                match self.sched.finish(task, result) {
                    Ok(Finished::Done) if status == ChunkStatus::Full => {
                        self.stats.full += 1;
                        if self.held.contains(&pos) {
                            self.arrived(pos);
                        }
                    }
                    Ok(Finished::Failed(error)) => {
                        self.failure
                            .get_or_insert(StreamError::Task { pos, status, error });
                    }
                    Ok(_) => {}
                    Err(e) => {
                        self.failure.get_or_insert(StreamError::Scheduler(e));
                    }
                }
            }
            Done::Meshed(pos, result, kept) => {
                self.meshing.remove(&pos);
                for k in &kept {
                    self.layer.keep(k);
                }
                self.stats.meshes += 1;
                match result {
                    Ok(m) if self.shown.contains(&pos) => self.built.push((pos, *m)),
                    Ok(_) => {}
                    Err(e) => {
                        self.failure.get_or_insert(e);
                    }
                }
            }
        }
    }
}

thread_local! {
    /// This worker's working memory for status bodies, reused by every task it runs: the
    /// pool's threads are long-lived, and the memory goes with the thread.
    static SCRATCH: RefCell<WorldScratch> = RefCell::new(WorldScratch::default());
}

/// Run `t` in this thread's scratch, or in fresh working memory while the thread's is not
/// available (the thread is exiting).
fn run_in_thread_scratch(t: &Task<World>) -> Result<ChunkData, BodyError> {
    SCRATCH
        .try_with(|s| match s.try_borrow_mut() {
            Ok(mut s) => t.run_in(&mut s),
            Err(_) => t.run(),
        })
        .unwrap_or_else(|_| t.run())
}

/// The lock and the signal the workers wait on.
pub struct Feed {
    shared: Mutex<Shared>,
    /// Signalled when work may have appeared or the feed closed.
    wake: Condvar,
    mesher: Mesher,
    /// The longest the main thread waited for `shared`, in nanoseconds.
    main_wait_max: AtomicU64,
}

impl Feed {
    pub(crate) fn new(shared: Shared, mesher: Mesher) -> Feed {
        Feed {
            shared: Mutex::new(shared),
            wake: Condvar::new(),
            mesher,
            main_wait_max: AtomicU64::new(0),
        }
    }

    /// The shared state. A worker panicking inside a body would be a bug; the state itself
    /// stays consistent, so a poisoned lock is taken over.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// [`Feed::lock`] from the main thread: the wait is measured
    /// ([`FeedStats::main_wait_max`]).
    pub(crate) fn lock_main(&self) -> MutexGuard<'_, Shared> {
        let t = Instant::now();
        let g = self.lock();
        let waited = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.main_wait_max.fetch_max(waited, Ordering::Relaxed);
        g
    }

    /// Wake every waiting worker (work may have appeared, or the feed closed).
    pub(crate) fn notify(&self) {
        self.wake.notify_all();
    }

    /// The mesher.
    pub fn mesher(&self) -> &Mesher {
        &self.mesher
    }

    /// Counters.
    pub fn stats(&self) -> FeedStats {
        FeedStats {
            main_wait_max: self.main_wait_max.load(Ordering::Relaxed) as f64 * 1e-9,
            ..self.lock_main().stats()
        }
    }

    /// Close the feed: every worker returns after handing back what it runs.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.notify();
    }

    /// One worker loop: take, run and hand back jobs until nothing runs and nothing is ready
    /// (or the feed closes). Any thread.
    pub fn work(&self) {
        let mut g = self.lock();
        let mut done: Option<Ran> = None;
        loop {
            if let Some(d) = done.take() {
                g.accept(d);
                g.stats.running -= 1;
                g.note_busy();
                self.notify();
            }
            if g.closed {
                break;
            }
            if let Some(job) = g.next_job() {
                g.stats.running += 1;
                g.note_busy();
                drop(g);
                done = Some(self.run(job));
                g = self.lock();
                continue;
            }
            if g.stats.running == 0 {
                break;
            }
            g = self.wake.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        // Under the lock: a frame that makes work after this sees one worker fewer and
        // starts another.
        g.stats.workers = g.stats.workers.saturating_sub(1);
    }

    /// Run one job outside the lock.
    fn run(&self, job: Work) -> Ran {
        let t = Instant::now();
        let done = self.run_job(job);
        Ran {
            done,
            seconds: t.elapsed().as_secs_f64(),
        }
    }

    /// A panicking job (a bug) is reported as failed, never lost: its worker hands the
    /// result back like any other, so nothing waits for it forever.
    fn run_job(&self, job: Work) -> Done {
        match job {
            Work::Generate(mut t) => {
                let r = catch_unwind(AssertUnwindSafe(|| run_in_thread_scratch(&t)))
                    .unwrap_or(Err(BodyError::Failed("the status body panicked")));
                // The inputs may hold the last reference to a superseded output: free them
                // here, not under the lock.
                t.drop_inputs();
                Done::Generated(t, r)
            }
            Work::Mesh(m) => {
                let pos = m.pos;
                catch_unwind(AssertUnwindSafe(|| self.mesher.build(m))).unwrap_or(Done::Meshed(
                    pos,
                    Err(StreamError::MeshPanicked { pos }),
                    Vec::new(),
                ))
            }
        }
    }
}

/// `n` worker loops over one feed, as a pool job of `n` elements.
pub(crate) struct Workers {
    pub(crate) feed: Arc<Feed>,
    pub(crate) n: usize,
}

impl Job for Workers {
    fn len(&self) -> usize {
        self.n
    }
    fn run(&self, _i: usize) {
        self.feed.work();
    }
}
