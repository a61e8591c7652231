//! Memory over long walks: an endless walk keeps the holders bounded, and full-chunk
//! retention keeps only the finished outputs inside the requested area, through walks that
//! turn back.

use super::*;

/// Walk east forever (here 120 steps) with a view radius of 3, requesting the new column and
/// releasing the old one: resident holders stay at the bound the step table implies.
#[test]
fn endless_walk_keeps_memory_bounded() {
    let p = Arc::new(Hashing::new(None));
    let mut s = Scheduler::with_id(p.clone(), 13);
    let r = 3;
    let reach = 12; // accumulated radius of full
    let mut tickets: BTreeMap<ChunkPos, _> = BTreeMap::new();
    let steady = ((2 * (r + reach) + 1) * (2 * (r + reach) + 1)) as usize;
    let transient = ((2 * (r + reach) + 2) * (2 * (r + reach) + 1)) as usize;
    let mut peak = 0;
    for step in 0..120 {
        for dz in -r..=r {
            for dx in -r..=r {
                let pos = ChunkPos::new(step + dx, dz);
                if let std::collections::btree_map::Entry::Vacant(e) = tickets.entry(pos) {
                    e.insert(s.request(pos, ChunkStatus::Full, Priority::Soon).unwrap());
                }
            }
        }
        peak = peak.max(s.holder_count());
        let behind: Vec<ChunkPos> = tickets.keys().filter(|p| p.x < step - r).copied().collect();
        for pos in behind {
            s.release(tickets.remove(&pos).unwrap()).unwrap();
        }
        s.run_inline(usize::MAX);
        for dz in -r..=r {
            for dx in -r..=r {
                assert_eq!(
                    s.status(ChunkPos::new(step + dx, dz)),
                    Some(ChunkStatus::Full)
                );
            }
        }
        if step > 0 {
            assert_eq!(s.holder_count(), steady, "step {step}");
        }
    }
    println!("walk: peak resident holders {peak}, steady {steady}, bound {transient}");
    assert!(peak <= transient);
    assert_eq!(s.stats().peak_holders, peak);
}

/// Under `Retention::FullChunks` a full chunk whose eight neighbours have passed every status
/// that reads its outputs keeps only what is not transient (here: the wide statuses and its
/// full output); one on the edge of the request keeps everything, and so does every chunk
/// under the default retention. The bodies read every declared input, so a drop too early
/// would fail a task.
#[test]
fn full_chunk_retention_keeps_the_finished_output_only_inside() {
    let table = StepTable::new();
    let mut memo = BTreeMap::new();
    for retention in [Retention::AllStatuses, Retention::FullChunks] {
        let mut s = Scheduler::with_id(Arc::new(Hashing::transient()), 14);
        s.set_retention(retention);
        for p in region(5, -2, -2) {
            s.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
        }
        s.run_inline(usize::MAX);
        assert_eq!(s.stats().failed, 0);
        for p in region(5, -2, -2) {
            let want = reference(&table, &mut memo, p, ChunkStatus::Full);
            assert_eq!(s.output(p, ChunkStatus::Full).as_deref(), Some(&want));
            assert_eq!(s.status(p), Some(ChunkStatus::Full));
            let inside = p.x.abs() <= 1 && p.z.abs() <= 1;
            let compact = inside && retention == Retention::FullChunks;
            assert_eq!(s.is_compact(p), compact, "{p:?} {retention:?}");
            assert_eq!(s.outputs(p).len(), if compact { 0 } else { 10 }, "{p:?}");
            assert!(s.output(p, ChunkStatus::StructureStarts).is_some());
            for st in [
                ChunkStatus::Biomes,
                ChunkStatus::Terrain,
                ChunkStatus::Spawn,
            ] {
                assert_eq!(s.output(p, st).is_none(), compact, "{p:?} {st:?}");
            }
        }
    }
}

/// Walk east with a view of radius 2 (requesting the new column, releasing the old), then
/// turn back west over the same ground, driving the scheduler with `drive` after each step.
/// Every requested chunk's full digest must equal the reference at every step, no body may
/// fail, and resident holders stay within the bound of the default retention. Returns the
/// scheduler and the most compact chunks seen in the view at once.
fn walk_and_turn_back(
    retention: Retention,
    drive: impl Fn(&mut Scheduler<Hashing>),
) -> (Scheduler<Hashing>, Arc<Hashing>, usize) {
    let table = StepTable::new();
    let mut memo = BTreeMap::new();
    let p = Arc::new(Hashing::transient());
    let mut s = Scheduler::with_id(p.clone(), 15);
    s.set_retention(retention);
    let r = 2;
    let mut tickets: BTreeMap<ChunkPos, _> = BTreeMap::new();
    let path: Vec<i32> = (0..30).chain((0..30).rev()).collect();
    let mut compact_seen = 0;
    for (i, &at) in path.iter().enumerate() {
        let view = region(2 * r + 1, at - r, -r);
        for pos in &view {
            if !tickets.contains_key(pos) {
                let t = s.request(*pos, ChunkStatus::Full, Priority::Soon).unwrap();
                tickets.insert(*pos, t);
            }
        }
        let gone: Vec<ChunkPos> = tickets
            .keys()
            .filter(|q| (q.x - at).abs() > r)
            .copied()
            .collect();
        for q in gone {
            s.release(tickets.remove(&q).unwrap()).unwrap();
        }
        drive(&mut s);
        assert!(s.is_idle(), "step {i}");
        assert_eq!(s.stats().failed, 0, "step {i}");
        for pos in &view {
            let want = reference(&table, &mut memo, *pos, ChunkStatus::Full);
            assert_eq!(
                s.output(*pos, ChunkStatus::Full).as_deref(),
                Some(&want),
                "step {i} {pos:?}"
            );
        }
        compact_seen = compact_seen.max(view.iter().filter(|q| s.is_compact(**q)).count());
        assert!(s.holder_count() <= ((2 * (r + 12) + 2) * (2 * (r + 12) + 1)) as usize);
    }
    (s, p, compact_seen)
}

/// Under `Retention::FullChunks`, chunks generated again beside compact ones (after a
/// release on the way out) wait while the outputs they read are refilled, in every
/// completion order and on threads.
#[test]
fn full_chunk_retention_survives_a_walk_that_turns_back() {
    let (s, p, compact_seen) = walk_and_turn_back(Retention::FullChunks, |s| {
        s.run_inline(usize::MAX);
    });
    // The view's three middle rows were compact: the rows on either side are requested.
    // Walking back over ground still full, all five columns are (chunks released on the
    // way out stay full while a request reaches them).
    assert_eq!(compact_seen, 15);
    let refilled = s.stats().refilled;
    assert!(refilled > 0);
    // Every other body ran once per holder lifetime: the runs beyond the first are the
    // refills plus the chunks released and generated again, as under the default retention.
    let extra = |p: &Hashing| -> u64 {
        p.runs
            .lock()
            .unwrap()
            .values()
            .map(|&n| u64::from(n) - 1)
            .sum()
    };
    let (plain, plain_p, none) = walk_and_turn_back(Retention::AllStatuses, |s| {
        s.run_inline(usize::MAX);
    });
    assert_eq!((none, plain.stats().refilled), (0, 0));
    assert_eq!(extra(&p), extra(&plain_p) + refilled);
    for c in [Completion::Lifo, Completion::Random(5)] {
        walk_and_turn_back(Retention::FullChunks, |s| drive_single(s, 16, c));
    }
    walk_and_turn_back(Retention::FullChunks, |s| drive_threads(s, 2));
}
