//! What the engine-free core needs of a thread pool the host owns: start a job's elements on
//! its threads, and wait for them before the world is dropped. In Godot the pool is the
//! `WorkerThreadPool` (one native group task per job); in the tests and the harness it is
//! std threads.

use std::sync::Arc;

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

/// A thread pool the host owns. Main thread.
pub trait TaskPool {
    /// Start running every element of `job` on the pool, without waiting for jobs started
    /// before it.
    fn spawn(&mut self, job: Arc<dyn Job>);
    /// Forget the jobs that have completed (frees what the pool keeps for them). Called once
    /// per frame; never blocks.
    fn reap(&mut self) {}
    /// Block until every job started has run completely (before the world is dropped:
    /// nothing may outlive it).
    fn wait_all(&mut self);
}
