//! The threaded driver. `threads` is the number of threads that run status bodies:
//!
//! - `0`: inline — take one task, run it, finish it, on this thread; no queue, no lock.
//! - `N ≥ 1`: this thread (the owner) and `N − 1` helper threads. The owner finishes what
//!   helpers ran, refills one shared queue from the scheduler, and, when it has nothing to
//!   finish, runs a queued task itself instead of idling. So one thread is the inline loop
//!   plus the queue's bookkeeping, and two threads use both cores for bodies.
//!
//! Hand-offs cost one uncontended lock per task on each side; a helper sleeps only when the
//! queue is empty and the owner only when nothing is left to run or finish. Helpers free a
//! task's inputs after running it, so that work stays off the owner thread.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

use stratagen_core::engine::{
    BodyError, ChunkPos, ChunkStatus, Finished, Pipeline, Scheduler, Task,
};

use crate::error::HostError;

/// Run every task of `s` to completion on `threads` threads (see the module docs; 0:
/// inline). `progress` is called on the owner thread after each finished task with the count
/// so far.
pub fn drive<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    progress: impl FnMut(usize),
) -> Result<usize, HostError> {
    drive_timed(s, threads, progress, &Mutex::new([0.0; ChunkStatus::COUNT]))
}

/// [`drive`], adding the seconds spent in each status body (summed over threads) to `times`.
pub fn drive_timed<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    mut progress: impl FnMut(usize),
    times: &Mutex<[f64; ChunkStatus::COUNT]>,
) -> Result<usize, HostError> {
    drive_hooked(
        s,
        threads,
        |_, _, _, done| {
            progress(done);
            Ok(())
        },
        times,
    )
}

/// What runs on the owner thread after each finished task: the scheduler (to request or
/// release), the task's position and status, and the count of tasks finished so far. New
/// requests made here are driven too; an error stops the drive.
pub trait OnFinish<P: Pipeline>:
    FnMut(&mut Scheduler<P>, ChunkPos, ChunkStatus, usize) -> Result<(), HostError>
{
}
impl<P: Pipeline, F> OnFinish<P> for F where
    F: FnMut(&mut Scheduler<P>, ChunkPos, ChunkStatus, usize) -> Result<(), HostError>
{
}

/// [`drive_timed`] with a hook after each finished task (see [`OnFinish`]): the drive ends
/// when nothing is ready or running after the last hook.
pub fn drive_hooked<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    on_finish: impl OnFinish<P>,
    times: &Mutex<[f64; ChunkStatus::COUNT]>,
) -> Result<usize, HostError> {
    let timed_run = |t: &Task<P>, scratch: &mut P::Scratch| {
        let t0 = Instant::now();
        let r = t.run_in(scratch);
        if let Ok(mut g) = times.lock() {
            g[t.status().index()] += t0.elapsed().as_secs_f64();
        }
        r
    };
    if threads == 0 {
        drive_inline(s, on_finish, timed_run)
    } else {
        drive_pool(s, threads, on_finish, &timed_run)
    }
}

/// A finished task's outcome: a failed body stops the drive.
fn check(f: Finished) -> Result<(), HostError> {
    match f {
        Finished::Failed(e) => Err(HostError::Body(e)),
        _ => Ok(()),
    }
}

type RunResult<P> = Result<<P as Pipeline>::Output, BodyError>;

/// Take, run and finish one task at a time on this thread.
fn drive_inline<P: Pipeline>(
    s: &mut Scheduler<P>,
    mut on_finish: impl OnFinish<P>,
    run: impl Fn(&Task<P>, &mut P::Scratch) -> RunResult<P>,
) -> Result<usize, HostError> {
    let mut scratch = P::Scratch::default();
    let mut done = 0usize;
    loop {
        let tasks = s.take_tasks(1);
        if tasks.is_empty() {
            return Ok(done);
        }
        for t in tasks {
            let r = run(&t, &mut scratch);
            let (pos, status) = (t.pos(), t.status());
            check(s.finish(t, r)?)?;
            done += 1;
            on_finish(s, pos, status, done)?;
        }
    }
}

/// Run a task in this thread's `scratch` and free its inputs on this thread (they may hold
/// the last reference to a superseded output, so the owner thread does not pay for freeing
/// it).
fn run_freeing<P: Pipeline>(
    run: &impl Fn(&Task<P>, &mut P::Scratch) -> RunResult<P>,
    mut t: Task<P>,
    scratch: &mut P::Scratch,
) -> (Task<P>, RunResult<P>) {
    let r = run(&t, scratch);
    t.drop_inputs();
    (t, r)
}

/// What the owner and the helpers share.
struct Shared<P: Pipeline> {
    /// Tasks taken from the scheduler, not yet started.
    queue: VecDeque<Task<P>>,
    /// Tasks run by helpers, waiting for the owner to finish them.
    results: Vec<(Task<P>, RunResult<P>)>,
    /// Set by the owner when everything is done: helpers exit.
    closed: bool,
    /// The owner sleeps until a result arrives.
    owner_waiting: bool,
}

struct Pool<P: Pipeline> {
    shared: Mutex<Shared<P>>,
    /// Signalled when tasks are queued or the pool closes.
    work: Condvar,
    /// Signalled when a result arrives and the owner waits.
    result: Condvar,
}

impl<P: Pipeline> Pool<P> {
    fn lock(&self) -> MutexGuard<'_, Shared<P>> {
        // A helper panicking inside a body would be a bug; the queue itself stays consistent.
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A helper: run queued tasks, in one scratch of its own, until the pool closes.
    fn help(&self, run: &impl Fn(&Task<P>, &mut P::Scratch) -> RunResult<P>) {
        let mut scratch = P::Scratch::default();
        let mut g = self.lock();
        loop {
            if let Some(t) = g.queue.pop_front() {
                drop(g);
                let done = run_freeing(run, t, &mut scratch);
                g = self.lock();
                g.results.push(done);
                if g.owner_waiting {
                    g.owner_waiting = false;
                    self.result.notify_one();
                }
            } else if g.closed {
                return;
            } else {
                g = self.work.wait(g).unwrap_or_else(|e| e.into_inner());
            }
        }
    }
}

/// Tasks kept queued per thread.
const QUEUE_PER_THREAD: usize = 16;

/// The owner thread plus `threads − 1` helpers (see the module docs).
fn drive_pool<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    mut on_finish: impl OnFinish<P>,
    run: &(impl Fn(&Task<P>, &mut P::Scratch) -> RunResult<P> + Sync),
) -> Result<usize, HostError> {
    let pool = Pool {
        shared: Mutex::new(Shared {
            queue: VecDeque::new(),
            results: Vec::new(),
            closed: false,
            owner_waiting: false,
        }),
        work: Condvar::new(),
        result: Condvar::new(),
    };
    // Enough queued work that no helper waits while the owner runs a task of its own: most
    // tasks take microseconds (empty, structure starts) and a light task milliseconds, so
    // the depth is counted generously in tasks.
    let target = QUEUE_PER_THREAD * threads;
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let pool = &pool;
            scope.spawn(move || pool.help(run));
        }
        let mut scratch = P::Scratch::default();
        let mut done = 0usize;
        // Tasks taken from the scheduler and not yet finished.
        let mut outstanding = 0usize;
        let mut finish = |s: &mut Scheduler<P>, t: Task<P>, r: RunResult<P>| {
            let (pos, status) = (t.pos(), t.status());
            check(s.finish(t, r)?)?;
            done += 1;
            on_finish(s, pos, status, done)
        };
        let result = loop {
            let finished = std::mem::take(&mut pool.lock().results);
            outstanding -= finished.len();
            if let Some(e) = finished
                .into_iter()
                .map(|(t, r)| finish(s, t, r))
                .find_map(Result::err)
            {
                break Err(e);
            }
            // Take tasks outside the lock, so helpers can hand results back meanwhile.
            let queued = pool.lock().queue.len();
            let fresh = s.take_tasks(target.saturating_sub(queued));
            outstanding += fresh.len();
            let woken = fresh.len().min(threads - 1);
            let mut g = pool.lock();
            g.queue.extend(fresh);
            for _ in 0..woken {
                pool.work.notify_one();
            }
            if outstanding == 0 {
                break Ok(done);
            }
            // Nothing to finish: run a queued task here rather than idle.
            if let Some(t) = g.queue.pop_front() {
                drop(g);
                let (t, r) = run_freeing(run, t, &mut scratch);
                outstanding -= 1;
                if let Err(e) = finish(s, t, r) {
                    break Err(e);
                }
                continue;
            }
            // Everything outstanding runs on helpers: sleep until one of them finishes.
            while g.results.is_empty() {
                g.owner_waiting = true;
                g = pool.result.wait(g).unwrap_or_else(|e| e.into_inner());
            }
        };
        pool.lock().closed = true;
        pool.work.notify_all();
        result
    })
}
