//! The bridge between the scheduler (main thread) and a thread pool the host owns. Each
//! frame the main thread finishes the batch the pool has completed, hands the pool the next
//! batch of ready tasks, and applies the streaming policy; task bodies are pure Rust and
//! touch nothing of the engine. In Godot the pool is the `WorkerThreadPool` (one group task
//! per batch, one element per task); in the tests it is std threads in random order.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard};

use stratagen_core::engine::{
    BodyError, ChunkPos, ChunkStatus, Pipeline, Scheduler, SchedulerError, Task,
};

use crate::stream::{StreamSettings, Streamer};

/// One task of a batch and, once run, its result.
struct Slot<P: Pipeline> {
    task: Option<Task<P>>,
    result: Option<Result<P::Output, BodyError>>,
}

/// Tasks handed to the pool together. [`Batch::run`] may be called for every index from any
/// thread, in any order, concurrently; each index exactly once.
pub struct Batch<P: Pipeline> {
    slots: Vec<Mutex<Slot<P>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<P: Pipeline> Batch<P> {
    fn new(tasks: Vec<Task<P>>) -> Batch<P> {
        Batch {
            slots: tasks
                .into_iter()
                .map(|t| {
                    Mutex::new(Slot {
                        task: Some(t),
                        result: None,
                    })
                })
                .collect(),
        }
    }

    /// Run task `i` (a pure function of its inputs; no engine object is touched). Any
    /// thread. An index out of range or run twice does nothing.
    pub fn run(&self, i: usize) {
        if let Some(slot) = self.slots.get(i) {
            let mut s = lock(slot);
            if s.result.is_none() {
                if let Some(t) = &s.task {
                    let r = t.run();
                    s.result = Some(r);
                }
            }
        }
    }
}

/// Work for a pool: `len()` independent elements, `run(i)` callable for each index from any
/// thread, in any order, concurrently, each index once. Pure Rust; no engine object.
pub trait Job: Send + Sync {
    /// Number of elements.
    fn len(&self) -> usize;
    /// Whether there is no element.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Run element `i`.
    fn run(&self, i: usize);
}

/// A thread pool the host owns, running one job at a time (a host may keep several pools,
/// for example one for generation tasks and one for meshes).
pub trait TaskPool {
    /// Start running every element of `job` on the pool.
    fn start(&mut self, job: Arc<dyn Job>);
    /// Whether the job started last has been run completely.
    fn is_done(&mut self) -> bool;
    /// Block until the job started last has been run completely (before the world is
    /// dropped: nothing may outlive it).
    fn wait(&mut self);
}

impl<P> Job for Batch<P>
where
    P: Pipeline + Send + Sync,
    P::Output: Send,
{
    fn len(&self) -> usize {
        self.slots.len()
    }
    fn run(&self, i: usize) {
        Batch::run(self, i)
    }
}

/// Per-frame limits of the main thread's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameBudget {
    /// Tasks handed to the pool per batch. Default 64.
    pub batch_size: usize,
    /// Chunks reported loaded per frame at most (each becomes a mesh in the scene, the
    /// expensive part of a frame); the rest wait for the next frames. Default 8.
    pub max_loaded_per_frame: usize,
}

impl Default for FrameBudget {
    fn default() -> Self {
        FrameBudget {
            batch_size: 64,
            max_loaded_per_frame: 8,
        }
    }
}

/// What one frame did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameReport {
    /// Chunks that became full and are reported loaded this frame (position order).
    pub loaded: Vec<ChunkPos>,
    /// Loaded chunks released this frame.
    pub unloaded: Vec<ChunkPos>,
    /// Tasks finished this frame.
    pub finished: usize,
    /// Tasks handed to the pool this frame.
    pub started: usize,
}

/// A world streamed around a viewer: the scheduler, the streaming policy, the batch in
/// flight and the set of chunks reported loaded. Main thread only.
pub struct StreamDriver<P: Pipeline> {
    sched: Scheduler<P>,
    streamer: Streamer,
    budget: FrameBudget,
    in_flight: Option<Arc<Batch<P>>>,
    loaded: BTreeSet<ChunkPos>,
}

impl<P> StreamDriver<P>
where
    P: Pipeline + Send + Sync + 'static,
    P::Output: Send,
{
    /// A driver over `sched` with the given policy and budget.
    pub fn new(sched: Scheduler<P>, settings: StreamSettings, budget: FrameBudget) -> Self {
        StreamDriver {
            sched,
            streamer: Streamer::new(settings),
            budget: FrameBudget {
                batch_size: budget.batch_size.max(1),
                max_loaded_per_frame: budget.max_loaded_per_frame.max(1),
            },
            in_flight: None,
            loaded: BTreeSet::new(),
        }
    }

    /// The scheduler (read access for block queries and meshes).
    pub fn scheduler(&self) -> &Scheduler<P> {
        &self.sched
    }

    /// The streaming policy's state.
    pub fn streamer(&self) -> &Streamer {
        &self.streamer
    }

    /// Chunks reported loaded and not unloaded since.
    pub fn loaded(&self) -> &BTreeSet<ChunkPos> {
        &self.loaded
    }

    /// One frame with the viewer in chunk `viewer`.
    pub fn frame(
        &mut self,
        viewer: ChunkPos,
        pool: &mut impl TaskPool,
    ) -> Result<FrameReport, SchedulerError> {
        let mut report = FrameReport::default();
        // 1. Finish the batch the pool has completed.
        if self.in_flight.is_some() && pool.is_done() {
            if let Some(batch) = self.in_flight.take() {
                report.finished = self.finish(&batch)?;
            }
        }
        // 2. The policy: release far chunks, request near ones.
        let changes = self.streamer.update(&mut self.sched, viewer)?;
        for p in changes.released {
            if self.loaded.remove(&p) {
                report.unloaded.push(p);
            }
        }
        // 3. Hand the pool the next batch.
        if self.in_flight.is_none() {
            let tasks = self.sched.take_tasks(self.budget.batch_size);
            if !tasks.is_empty() {
                report.started = tasks.len();
                let batch = Arc::new(Batch::new(tasks));
                self.in_flight = Some(batch.clone());
                pool.start(batch);
            }
        }
        // 4. Report chunks that became full, within the budget.
        for p in self.streamer.held() {
            if report.loaded.len() >= self.budget.max_loaded_per_frame {
                break;
            }
            if !self.loaded.contains(p) && self.sched.status(*p) == Some(ChunkStatus::Full) {
                report.loaded.push(*p);
            }
        }
        self.loaded.extend(report.loaded.iter().copied());
        Ok(report)
    }

    /// Finish every task of a batch the pool has run; the number finished.
    fn finish(&mut self, batch: &Batch<P>) -> Result<usize, SchedulerError> {
        let mut n = 0;
        for slot in &batch.slots {
            let mut s = lock(slot);
            if let (Some(task), Some(result)) = (s.task.take(), s.result.take()) {
                self.sched.finish(task, result)?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// Wait for the batch in flight, finish it, and release every chunk (the node leaves the
    /// tree): afterwards no task of this world is running or pending.
    pub fn shut_down(&mut self, pool: &mut impl TaskPool) -> Result<(), SchedulerError> {
        if let Some(batch) = self.in_flight.take() {
            pool.wait();
            self.finish(&batch)?;
        }
        self.streamer.clear(&mut self.sched)?;
        self.loaded.clear();
        Ok(())
    }
}
