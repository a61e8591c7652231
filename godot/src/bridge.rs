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

/// A [`TaskPool`] of std threads, one per job element: for hosts without an engine pool, the
/// engine-free tests and the harness.
#[derive(Default)]
pub struct ThreadPool {
    handles: Vec<std::thread::JoinHandle<()>>,
}

impl TaskPool for ThreadPool {
    fn spawn(&mut self, job: Arc<dyn Job>) {
        for i in 0..job.len() {
            let job = job.clone();
            self.handles.push(std::thread::spawn(move || job.run(i)));
        }
    }

    fn reap(&mut self) {
        let (done, running): (Vec<_>, Vec<_>) =
            self.handles.drain(..).partition(|h| h.is_finished());
        self.handles = running;
        for h in done {
            // A panicking element already left its job's result empty; nothing to report.
            let _ = h.join();
        }
    }

    fn wait_all(&mut self) {
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}
