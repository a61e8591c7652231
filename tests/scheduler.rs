//! Scheduler evidence with a synthetic pipeline whose bodies hash everything they read:
//! the digests must equal an independent recursive reference computed without the scheduler,
//! for every request order, completion order and thread count; each (chunk, status) body runs
//! exactly once; reads outside the window fail; an endless walk keeps memory bounded.
mod common;
#[path = "scheduler/memory.rs"]
mod memory;
use common::shuffled;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use stratagen_core::engine::step_table::StepTable;
use stratagen_core::engine::{
    BodyError, Finished, Pipeline, Priority, Retention, Scheduler, SchedulerError, Task, View,
};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::util::digest::Digest;
use stratagen_core::util::random::Xoroshiro128PlusPlus;

/// Each body: XXH64 of (status, position, every declared input in window order).
struct Hashing {
    table: StepTable,
    runs: Mutex<BTreeMap<(ChunkPos, ChunkStatus), u32>>,
    /// If set, this status also reads one chunk beyond its window.
    overreach: Option<ChunkStatus>,
    /// Whether every status is transient (the scheduler may drop any it can).
    transient: bool,
    total: AtomicU64,
}

impl Hashing {
    fn new(overreach: Option<ChunkStatus>) -> Self {
        Hashing {
            table: StepTable::new(),
            runs: Mutex::new(BTreeMap::new()),
            overreach,
            transient: false,
            total: AtomicU64::new(0),
        }
    }

    fn transient() -> Self {
        Hashing {
            transient: true,
            ..Hashing::new(None)
        }
    }
}

fn body_hash(
    table: &StepTable,
    status: ChunkStatus,
    pos: ChunkPos,
    mut read: impl FnMut(i32, i32, ChunkStatus) -> Result<u64, BodyError>,
) -> Result<u64, BodyError> {
    let mut h = Digest::new();
    h.write_u8(status as u8);
    h.write_i32(pos.x);
    h.write_i32(pos.z);
    let r = table.direct_radius(status) as i32;
    for dz in -r..=r {
        for dx in -r..=r {
            let d = dx.unsigned_abs().max(dz.unsigned_abs());
            if let Some(decl) = table.direct_at(status, d) {
                for s in ChunkStatus::ALL.iter().filter(|s| **s <= decl) {
                    h.write_u64(read(dx, dz, *s)?);
                }
            }
        }
    }
    Ok(h.finish())
}

impl Pipeline for Hashing {
    type Output = u64;
    type Scratch = ();
    fn run(
        &self,
        status: ChunkStatus,
        pos: ChunkPos,
        view: &View<'_, u64>,
        _: &mut (),
    ) -> Result<u64, BodyError> {
        *self.runs.lock().unwrap().entry((pos, status)).or_insert(0) += 1;
        self.total.fetch_add(1, Ordering::Relaxed);
        if self.overreach == Some(status) {
            let r = self.table.direct_radius(status) as i32;
            view.get(r + 1, 0, ChunkStatus::Empty)?;
        }
        body_hash(&self.table, status, pos, |dx, dz, s| {
            view.get(dx, dz, s).copied()
        })
    }

    fn transient(&self, _: ChunkStatus) -> bool {
        self.transient
    }
}

/// The same digests by direct recursion, memoised: no scheduler, no view.
fn reference(
    table: &StepTable,
    memo: &mut BTreeMap<(ChunkPos, ChunkStatus), u64>,
    pos: ChunkPos,
    status: ChunkStatus,
) -> u64 {
    if let Some(v) = memo.get(&(pos, status)) {
        return *v;
    }
    let mut reads = Vec::new();
    let _ = body_hash(table, status, pos, |dx, dz, s| {
        reads.push((dx, dz, s));
        Ok(0)
    });
    let vals: Vec<u64> = reads
        .iter()
        .map(|&(dx, dz, s)| reference(table, memo, pos.offset(dx, dz), s))
        .collect();
    let mut it = vals.into_iter();
    let v = body_hash(table, status, pos, |_, _, _| Ok(it.next().unwrap())).unwrap();
    memo.insert((pos, status), v);
    v
}

fn region(n: i32, x0: i32, z0: i32) -> Vec<ChunkPos> {
    stratagen_cli::rect(x0, z0, x0 + n - 1, z0 + n - 1)
}

#[derive(Clone, Copy, Debug)]
enum Completion {
    Fifo,
    Lifo,
    Random(i64),
}

/// Drive the scheduler on this thread: take a batch, run it, finish in the given order.
fn drive_single(s: &mut Scheduler<Hashing>, batch: usize, order: Completion) {
    let mut r = Xoroshiro128PlusPlus::from_seed(match order {
        Completion::Random(x) => x,
        _ => 0,
    });
    loop {
        let tasks = s.take_tasks(batch);
        if tasks.is_empty() {
            break;
        }
        let mut done: Vec<(Task<Hashing>, Result<u64, BodyError>)> = tasks
            .into_iter()
            .map(|t| {
                let r = t.run();
                (t, r)
            })
            .collect();
        match order {
            Completion::Fifo => {}
            Completion::Lifo => done.reverse(),
            Completion::Random(_) => {
                for i in (1..done.len()).rev() {
                    let j = r.next_int_bounded(i as i32 + 1) as usize;
                    done.swap(i, j);
                }
            }
        }
        for (t, res) in done {
            assert_eq!(s.finish(t, res), Ok(Finished::Done));
        }
    }
}

/// Drive with `n` std worker threads: the owner takes tasks, workers run them, the owner
/// finishes them in completion order.
fn drive_threads(s: &mut Scheduler<Hashing>, n: usize) {
    type Job = Task<Hashing>;
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(Job, Result<u64, BodyError>)>();
    std::thread::scope(|scope| {
        for _ in 0..n {
            let rx = job_rx.clone();
            let tx = done_tx.clone();
            scope.spawn(move || loop {
                let job = match rx.lock().unwrap().recv() {
                    Ok(j) => j,
                    Err(_) => break,
                };
                let r = job.run();
                if tx.send((job, r)).is_err() {
                    break;
                }
            });
        }
        let mut outstanding = 0usize;
        loop {
            for t in s.take_tasks(2 * n - outstanding.min(2 * n)) {
                job_tx.send(t).unwrap();
                outstanding += 1;
            }
            if outstanding == 0 {
                break;
            }
            let (t, r) = done_rx.recv().unwrap();
            outstanding -= 1;
            assert_eq!(s.finish(t, r), Ok(Finished::Done));
        }
        drop(job_tx);
    });
}

fn run_case(
    order: &[ChunkPos],
    drive: impl FnOnce(&mut Scheduler<Hashing>),
) -> (BTreeMap<ChunkPos, u64>, Arc<Hashing>) {
    let p = Arc::new(Hashing::new(None));
    let mut s = Scheduler::with_id(p.clone(), 1);
    for (i, pos) in order.iter().enumerate() {
        let prio = [Priority::Immediate, Priority::Soon, Priority::Idle][i % 3];
        s.request(*pos, ChunkStatus::Full, prio).unwrap();
    }
    drive(&mut s);
    assert!(s.is_idle());
    let mut out = BTreeMap::new();
    for pos in order {
        assert_eq!(s.status(*pos), Some(ChunkStatus::Full));
        out.insert(*pos, *s.output(*pos, ChunkStatus::Full).unwrap());
    }
    (out, p)
}

#[test]
fn digests_are_independent_of_order_completion_and_threads() {
    let table = StepTable::new();
    let base = region(9, -4, -4);
    let mut memo = BTreeMap::new();
    let want: BTreeMap<ChunkPos, u64> = base
        .iter()
        .map(|p| (*p, reference(&table, &mut memo, *p, ChunkStatus::Full)))
        .collect();
    let mut rev = base.clone();
    rev.reverse();
    let orders = [
        ("row-major", base.clone()),
        ("reversed", rev),
        ("shuffled", shuffled(&base, 99)),
    ];
    let completions = [Completion::Fifo, Completion::Lifo, Completion::Random(7)];
    for (oname, order) in &orders {
        for c in completions {
            let (got, p) = run_case(order, |s| drive_single(s, 16, c));
            assert_eq!(got, want, "{oname} {c:?}");
            // Exactly once: every (chunk, status) body ran one time.
            let runs = p.runs.lock().unwrap();
            assert!(
                runs.values().all(|&n| n == 1),
                "{oname} {c:?}: a body ran twice"
            );
            // And exactly the chunks the step table says: a radius-12 ring around the region
            // at the accumulated levels.
            let expected: usize = memo.len();
            assert_eq!(runs.len(), expected, "{oname} {c:?}");
        }
        let (got, _) = run_case(order, |s| {
            let n = s.run_inline(usize::MAX);
            assert!(n > 0);
        });
        assert_eq!(got, want, "{oname} inline");
        for threads in [1, 2, 4, 8] {
            let (got, p) = run_case(order, |s| drive_threads(s, threads));
            assert_eq!(got, want, "{oname} {threads} threads");
            assert!(p.runs.lock().unwrap().values().all(|&n| n == 1));
        }
    }
}

#[test]
fn budget_priority_and_distance_order() {
    let p = Arc::new(Hashing::new(None));
    let mut s = Scheduler::with_id(p, 3);
    // Two soon requests and one idle request whose windows (radius 8 for
    // structure_references) do not overlap.
    let soon = [ChunkPos::new(0, 0), ChunkPos::new(20, 3)];
    let idle = ChunkPos::new(-60, 0);
    for q in soon {
        s.request(q, ChunkStatus::StructureReferences, Priority::Soon)
            .unwrap();
    }
    let far = s
        .request(idle, ChunkStatus::StructureReferences, Priority::Idle)
        .unwrap();
    let r = s
        .table()
        .accumulated_radius(ChunkStatus::StructureReferences);
    assert_eq!(r, 8);
    // The order the scheduler promises: priority, then distance to the nearest request of
    // that priority.
    let key = |p: ChunkPos| {
        let d_soon = soon.iter().map(|q| q.distance(p)).min().unwrap();
        if d_soon <= r {
            (Priority::Soon, d_soon)
        } else {
            (Priority::Idle, idle.distance(p))
        }
    };
    // Budget: at most the number asked for, and the best first.
    let first = s.take_tasks(1);
    assert_eq!(first.len(), 1);
    assert_eq!(key(first[0].pos()), (Priority::Soon, 0));
    // Every `empty` task is ready now: they come in key order, all 3 × 17² of them.
    let rest = s.take_tasks(usize::MAX);
    let keys: Vec<_> = first.iter().chain(&rest).map(|t| key(t.pos())).collect();
    assert_eq!(keys.len(), 3 * 17 * 17);
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    assert!(keys.iter().any(|k| k.0 == Priority::Soon && k.1 == 8));
    assert_eq!(keys.last(), Some(&(Priority::Idle, 8)));
    for t in first.into_iter().chain(rest) {
        let r = t.run();
        s.finish(t, r).unwrap();
    }
    s.run_inline(usize::MAX);
    assert!(s.is_ready(far).unwrap());
}

#[test]
fn focus_points_order_ready_tasks_and_change_no_output() {
    let p = Arc::new(Hashing::new(None));
    let mut s = Scheduler::with_id(p.clone(), 4);
    let centre = ChunkPos::new(0, 0);
    s.request(centre, ChunkStatus::StructureReferences, Priority::Soon)
        .unwrap();
    // Focus on the window's east edge: every `empty` task of the 17 × 17 window is ready, and
    // they come nearest to (8, 0) first, by squared Euclidean distance, ties by position.
    let focus = [ChunkPos::new(8, 0)];
    s.set_focus(&focus);
    assert_eq!(s.focus(), &focus);
    let d2 = |q: ChunkPos, f: ChunkPos| {
        let (dx, dz) = (i64::from(q.x - f.x), i64::from(q.z - f.z));
        dx * dx + dz * dz
    };
    let first = s.take_tasks(20);
    let keys: Vec<i64> = first.iter().map(|t| d2(t.pos(), focus[0])).collect();
    assert_eq!(first[0].pos(), focus[0]);
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    // Moving the focus re-keys what is still ready: now the west edge comes first.
    let west = [ChunkPos::new(-8, 0), ChunkPos::new(-8, 5)];
    s.set_focus(&west);
    let next = s.take_tasks(usize::MAX);
    assert_eq!(first.len() + next.len(), 17 * 17);
    assert_eq!(next[0].pos(), west[0]);
    let near = |q: ChunkPos| west.iter().map(|&f| d2(q, f)).min().unwrap();
    let keys: Vec<i64> = next.iter().map(|t| near(t.pos())).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    for t in first.into_iter().chain(next) {
        let r = t.run();
        s.finish(t, r).unwrap();
    }
    // An empty focus restores the request order; the outputs equal the reference whatever
    // the focus did to the order.
    s.set_focus(&[]);
    s.run_inline(usize::MAX);
    let mut memo = BTreeMap::new();
    let out = s
        .output(centre, ChunkStatus::StructureReferences)
        .expect("structure_references at the centre");
    assert_eq!(
        *out,
        reference(
            &p.table,
            &mut memo,
            centre,
            ChunkStatus::StructureReferences
        )
    );
}

#[test]
fn reading_outside_the_window_fails_the_task() {
    let p = Arc::new(Hashing::new(Some(ChunkStatus::Terrain)));
    let mut s = Scheduler::with_id(p, 5);
    s.request(
        ChunkPos::new(0, 0),
        ChunkStatus::Terrain,
        Priority::Immediate,
    )
    .unwrap();
    let mut failure = None;
    loop {
        let tasks = s.take_tasks(8);
        if tasks.is_empty() {
            break;
        }
        for t in tasks {
            let r = t.run();
            if let Ok(Finished::Failed(e)) = s.finish(t, r) {
                failure = Some(e);
            }
        }
    }
    let e = failure.expect("the overreaching terrain task must fail");
    assert_eq!(
        e,
        BodyError::OutsideWindow {
            running: ChunkStatus::Terrain,
            dx: 9,
            dz: 0,
            requested: ChunkStatus::Empty,
            declared: None
        }
    );
    assert_eq!(
        e.to_string(),
        "terrain read empty at offset (9, 0) outside its window: declared nothing there"
    );
    assert_eq!(s.status(ChunkPos::new(0, 0)), Some(ChunkStatus::Biomes));
    assert!(s.failure(ChunkPos::new(0, 0)).is_some());
    assert!(s.is_idle());
    // The control: the same request without the overreach completes.
    let mut s = Scheduler::with_id(Arc::new(Hashing::new(None)), 6);
    s.request(
        ChunkPos::new(0, 0),
        ChunkStatus::Terrain,
        Priority::Immediate,
    )
    .unwrap();
    s.run_inline(usize::MAX);
    assert_eq!(s.status(ChunkPos::new(0, 0)), Some(ChunkStatus::Terrain));
    assert!(s.failure(ChunkPos::new(0, 0)).is_none());
    // A status above what the distance declares is refused too.
    struct Peek;
    impl Pipeline for Peek {
        type Output = u64;
        type Scratch = ();
        fn run(
            &self,
            st: ChunkStatus,
            _: ChunkPos,
            v: &View<'_, u64>,
            _: &mut (),
        ) -> Result<u64, BodyError> {
            if st == ChunkStatus::Biomes {
                v.get(1, 1, ChunkStatus::StructureReferences)?;
            }
            Ok(0)
        }
    }
    let mut s = Scheduler::with_id(Arc::new(Peek), 8);
    s.request(ChunkPos::new(0, 0), ChunkStatus::Biomes, Priority::Soon)
        .unwrap();
    s.run_inline(usize::MAX);
    let (st, e) = s.failure(ChunkPos::new(0, 0)).unwrap();
    assert_eq!(st, ChunkStatus::Biomes);
    assert_eq!(
        e.to_string(),
        "biomes read structure_references at offset (1, 1) outside its window: declared structure_starts there"
    );
}

#[test]
fn misuse_is_an_error_value() {
    let mut a = Scheduler::with_id(Arc::new(Hashing::new(None)), 10);
    let mut b = Scheduler::with_id(Arc::new(Hashing::new(None)), 11);
    let mut b_same_id = Scheduler::with_id(Arc::new(Hashing::new(None)), 10);
    assert_eq!(
        a.request(ChunkPos::new(1 << 21, 0), ChunkStatus::Full, Priority::Soon),
        Err(SchedulerError::OutOfRange(ChunkPos::new(1 << 21, 0)))
    );
    assert!(a
        .request(
            ChunkPos::new(0, -(1 << 21)),
            ChunkStatus::Full,
            Priority::Soon
        )
        .is_err());
    let t = a
        .request(
            ChunkPos::new(0, 0),
            ChunkStatus::StructureReferences,
            Priority::Soon,
        )
        .unwrap();
    assert_eq!(b.release(t), Err(SchedulerError::ForeignTicket));
    let mut tasks = a.take_tasks(2);
    let t1 = tasks.pop().unwrap();
    let r = t1.run();
    assert_eq!(b.finish(t1, r), Err(SchedulerError::ForeignTask));
    let t0 = tasks.pop().unwrap();
    let r = t0.run();
    // Same id, but the task was never handed out there: detected as unknown.
    assert_eq!(b_same_id.finish(t0, r), Err(SchedulerError::UnknownTask));
    assert_eq!(a.release(t), Ok(()));
    assert_eq!(a.release(t), Err(SchedulerError::UnknownTicket));
    assert_eq!(a.holder_count(), 0);
}

#[test]
fn released_work_is_cancelled_or_dropped() {
    let p = Arc::new(Hashing::new(None));
    let mut s = Scheduler::with_id(p, 12);
    let t = s
        .request(ChunkPos::new(0, 0), ChunkStatus::Full, Priority::Soon)
        .unwrap();
    let taken = s.take_tasks(4);
    assert!(!taken.is_empty());
    s.release(t).unwrap();
    assert_eq!(s.holder_count(), 0);
    assert_eq!(s.ready_count(), 0, "untaken tasks are cancelled");
    // Re-request before the taken tasks come back: their results must not land in the new
    // holders.
    s.request(ChunkPos::new(0, 0), ChunkStatus::Full, Priority::Soon)
        .unwrap();
    for t in taken {
        let r = t.run();
        assert_eq!(s.finish(t, r), Ok(Finished::Dropped));
    }
    s.run_inline(usize::MAX);
    assert_eq!(s.status(ChunkPos::new(0, 0)), Some(ChunkStatus::Full));
    let mut memo = BTreeMap::new();
    let want = reference(
        &StepTable::new(),
        &mut memo,
        ChunkPos::new(0, 0),
        ChunkStatus::Full,
    );
    assert_eq!(
        *s.output(ChunkPos::new(0, 0), ChunkStatus::Full).unwrap(),
        want
    );
}
