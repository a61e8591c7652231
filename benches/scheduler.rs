//! Scheduler overhead per task: request a region at `full`, then take + run (an empty body) +
//! finish every task inline. Criterion times the whole fill; the summary line divides the
//! take + run + finish time by the number of tasks (`per_task_us`) and shows the requests'
//! time per task apart.
use criterion::{black_box, Criterion};
use std::sync::Arc;
use std::time::{Duration, Instant};
use stratagen_core::engine::{BodyError, Pipeline, Priority, Scheduler, View};
use stratagen_core::engine::{ChunkPos, ChunkStatus};

struct Nothing;
impl Pipeline for Nothing {
    type Output = ();
    type Scratch = ();
    fn run(
        &self,
        _: ChunkStatus,
        _: ChunkPos,
        _: &View<'_, ()>,
        _: &mut (),
    ) -> Result<(), BodyError> {
        Ok(())
    }
}

fn requested(n: i32) -> Scheduler<Nothing> {
    let mut s = Scheduler::with_id(Arc::new(Nothing), 1);
    for z in 0..n {
        for x in 0..n {
            s.request(ChunkPos::new(x, z), ChunkStatus::Full, Priority::Soon)
                .unwrap();
        }
    }
    s
}

fn fill(n: i32) -> usize {
    execute(&mut requested(n))
}

fn execute(s: &mut Scheduler<Nothing>) -> usize {
    let mut tasks = 0;
    loop {
        let batch = s.take_tasks(8);
        if batch.is_empty() {
            break;
        }
        for t in batch {
            let r = t.run();
            black_box(s.finish(t, r).unwrap());
            tasks += 1;
        }
    }
    tasks
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("scheduler_fill_16x16_full", |b| b.iter(|| fill(16)));
    // Summary: medians of 5 timed fills, split into requests and take + run + finish.
    let (mut req, mut exec) = (Vec::new(), Vec::new());
    let mut tasks = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let mut s = requested(16);
        let t1 = Instant::now();
        tasks = execute(&mut s);
        let t2 = Instant::now();
        req.push((t1 - t).as_secs_f64() * 1e6 / tasks as f64);
        exec.push((t2 - t1).as_secs_f64() * 1e6 / tasks as f64);
    }
    req.sort_by(|a, b| a.partial_cmp(b).unwrap());
    exec.sort_by(|a, b| a.partial_cmp(b).unwrap());
    // The per-task cost is take + run + finish; the requests' share is printed apart.
    println!(
        "scheduler tasks={} per_task_us={:.2} (take+run+finish; requests add {:.2} per task)",
        tasks, exec[2], req[2]
    );
}
