//! Resume equals uninterrupted: generation stopped after a task of every status, every
//! resident chunk saved as a record, the world destroyed, a new world given the records and
//! the same requests, finishes with the digests of a run that never stopped — and runs only
//! the statuses the records did not hold.
//!
//! The region (seed 3, chunks 16..19 × −16..−13) holds a watchtower spanning chunks, torches,
//! trees whose leaves cross borders as patches, water and lava.

use std::collections::BTreeMap;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Restored, Scheduler};
use stratagen_core::world::{chunk_digest, World, WorldGen, WorldSettings};
use stratagen_store::record::{load_chunk, save_chunk};

const SEED: i64 = 3;

fn region() -> Vec<ChunkPos> {
    (-16..=-13)
        .flat_map(|z| (16..=19).map(move |x| ChunkPos::new(x, z)))
        .collect()
}

fn world() -> Scheduler<World> {
    let def = WorldSettings {
        seed: SEED,
        ..WorldSettings::default()
    };
    Scheduler::new(Arc::new(World::new(WorldGen::new(def).unwrap())))
}

fn request_region(s: &mut Scheduler<World>) {
    for p in region() {
        s.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
    }
}

/// Take, run and finish one task at a time until idle, or until `stop` says so after a
/// finish.
fn run(s: &mut Scheduler<World>, mut stop: impl FnMut(&Scheduler<World>) -> bool) {
    loop {
        let tasks = s.take_tasks(1);
        if tasks.is_empty() {
            return;
        }
        for t in tasks {
            let r = t.run();
            s.finish(t, r).unwrap();
        }
        if stop(s) {
            return;
        }
    }
}

fn digests(s: &Scheduler<World>) -> BTreeMap<ChunkPos, u64> {
    region()
        .into_iter()
        .map(|p| {
            let d = s
                .output(p, ChunkStatus::Full)
                .expect("region chunk is full");
            (p, chunk_digest(&d))
        })
        .collect()
}

/// Save every resident chunk: (position, status, record).
fn save_all(s: &Scheduler<World>) -> Vec<(ChunkPos, ChunkStatus, Vec<u8>)> {
    s.resident()
        .into_iter()
        .map(|p| (p, s.status(p).unwrap(), save_chunk(s, p).unwrap()))
        .collect()
}

#[test]
fn resume_after_a_task_of_every_status_equals_an_uninterrupted_run() {
    let mut whole = world();
    request_region(&mut whole);
    run(&mut whole, |_| false);
    let expected = digests(&whole);
    let total = whole.stats().done;
    assert!(total.iter().all(|&n| n > 0));

    for stop_status in ChunkStatus::ALL {
        let k = total[stop_status.index()].div_ceil(2);
        let mut first = world();
        request_region(&mut first);
        run(&mut first, |s| s.stats().done[stop_status.index()] >= k);
        let saved = save_all(&first);
        drop(first);

        // Half the records before the requests (they wait), half after (they go straight
        // into the requested holders).
        let mut second = world();
        let mut stored = [0u64; ChunkStatus::COUNT];
        for (i, (p, status, bytes)) in saved.iter().enumerate() {
            for s in stored.iter_mut().take(status.index() + 1) {
                *s += 1;
            }
            if i % 2 == 0 {
                let (h, loaded) = load_chunk(&mut second, bytes).unwrap();
                assert_eq!((h.pos, h.status, loaded), (*p, *status, Restored::Pending));
            }
        }
        request_region(&mut second);
        for (p, status, bytes) in saved.iter().skip(1).step_by(2) {
            let (h, loaded) = load_chunk(&mut second, bytes).unwrap();
            assert_eq!((h.pos, h.status, loaded), (*p, *status, Restored::Resident));
        }
        assert_eq!(second.pending_count(), 0, "every record was claimed");
        run(&mut second, |_| false);
        assert_eq!(
            digests(&second),
            expected,
            "stop after {:?} #{}",
            stop_status,
            k
        );
        // Nothing stored ran again: the resumed run did exactly the rest.
        let ran = second.stats().done;
        for s in ChunkStatus::ALL {
            assert_eq!(
                ran[s.index()] + stored[s.index()],
                total[s.index()],
                "{:?} after a stop at {:?}",
                s,
                stop_status
            );
        }
    }
}

/// Records loaded into a world that is itself part-way through generation (neighbours
/// already waiting on counted requirements) raise those chunks in place and wake their
/// neighbours, and the result is still the uninterrupted one.
#[test]
fn records_load_into_a_world_in_the_middle_of_generation() {
    let mut whole = world();
    request_region(&mut whole);
    run(&mut whole, |_| false);
    let expected = digests(&whole);
    let tasks: u64 = whole.stats().done.iter().sum();

    // A later snapshot from one run, loaded into an earlier moment of another.
    let mut later = world();
    request_region(&mut later);
    let mut n = 0u64;
    run(&mut later, |_| {
        n += 1;
        n >= tasks * 2 / 3
    });
    let saved = save_all(&later);

    let mut earlier = world();
    request_region(&mut earlier);
    let mut n = 0u64;
    run(&mut earlier, |_| {
        n += 1;
        n >= tasks / 3
    });
    let mut raised = 0;
    for (p, status, bytes) in &saved {
        match earlier.status(*p) {
            Some(has) if has >= *status => {
                assert!(
                    load_chunk(&mut earlier, bytes).is_err(),
                    "duplicate refused"
                );
            }
            _ => {
                load_chunk(&mut earlier, bytes).unwrap();
                assert_eq!(earlier.status(*p), Some(*status));
                raised += 1;
            }
        }
    }
    assert!(raised > 10, "the test raised {} chunks", raised);
    run(&mut earlier, |_| false);
    assert_eq!(digests(&earlier), expected);
    assert_eq!(earlier.pending_count(), 0);
}
