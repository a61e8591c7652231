//! The threaded driver: the owner thread takes and finishes tasks, worker threads run them.

use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use stratagen_core::engine::{BodyError, ChunkStatus, Finished, Pipeline, Scheduler, Task};

use crate::error::CliError;

/// Run every task of `s` to completion on `threads` worker threads (0: inline on this
/// thread). The owner (this thread) takes tasks, workers run them, the owner finishes them.
/// `progress` is called on the owner thread after each finished task with the count so far.
pub fn drive<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    progress: impl FnMut(usize),
) -> Result<usize, CliError> {
    drive_timed(s, threads, progress, &Mutex::new([0.0; ChunkStatus::COUNT]))
}

/// [`drive`], adding the seconds spent in each status body (summed over threads) to `times`.
pub fn drive_timed<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    progress: impl FnMut(usize),
    times: &Mutex<[f64; ChunkStatus::COUNT]>,
) -> Result<usize, CliError> {
    let timed_run = |t: &Task<P>| {
        let t0 = Instant::now();
        let r = t.run();
        if let Ok(mut g) = times.lock() {
            g[t.status().index()] += t0.elapsed().as_secs_f64();
        }
        r
    };
    if threads == 0 {
        drive_inline(s, progress, timed_run)
    } else {
        drive_workers(s, threads, progress, &timed_run)
    }
}

/// A finished task's outcome: a failed body stops the drive.
fn check(f: Finished) -> Result<(), CliError> {
    match f {
        Finished::Failed(e) => Err(CliError::Body(e)),
        _ => Ok(()),
    }
}

type RunResult<P> = Result<<P as Pipeline>::Output, BodyError>;

/// Take, run and finish one task at a time on this thread.
fn drive_inline<P: Pipeline>(
    s: &mut Scheduler<P>,
    mut progress: impl FnMut(usize),
    run: impl Fn(&Task<P>) -> RunResult<P>,
) -> Result<usize, CliError> {
    let mut done = 0usize;
    loop {
        let tasks = s.take_tasks(1);
        if tasks.is_empty() {
            return Ok(done);
        }
        for t in tasks {
            let r = run(&t);
            check(s.finish(t, r)?)?;
            done += 1;
            progress(done);
        }
    }
}

/// The owner thread takes tasks (keeping up to two per worker in flight) and finishes them;
/// `threads` scoped workers run them and drop their inputs.
fn drive_workers<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    mut progress: impl FnMut(usize),
    run: &(impl Fn(&Task<P>) -> RunResult<P> + Sync),
) -> Result<usize, CliError> {
    let (job_tx, job_rx) = mpsc::channel::<Task<P>>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(Task<P>, RunResult<P>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let rx = job_rx.clone();
            let tx = done_tx.clone();
            scope.spawn(move || loop {
                let job = match rx.lock() {
                    Ok(g) => match g.recv() {
                        Ok(j) => j,
                        Err(_) => break,
                    },
                    Err(_) => break,
                };
                let r = run(&job);
                let mut job = job;
                job.drop_inputs();
                if tx.send((job, r)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut outstanding = 0usize;
        let mut done = 0usize;
        let result = loop {
            let want = (2 * threads).saturating_sub(outstanding);
            for t in s.take_tasks(want) {
                if job_tx.send(t).is_err() {
                    break;
                }
                outstanding += 1;
            }
            if outstanding == 0 {
                break Ok(done);
            }
            let (t, r) = match done_rx.recv() {
                Ok(x) => x,
                Err(_) => break Err(CliError::WorkersStopped),
            };
            outstanding -= 1;
            if let Err(e) = s.finish(t, r).map_err(CliError::from).and_then(check) {
                break Err(e);
            }
            done += 1;
            progress(done);
        };
        drop(job_tx);
        result
    })
}
