//! Bad records are refused with an error naming the problem, and the world is untouched:
//! truncated, damaged (checksum), another version, another world, a position out of range,
//! a status the body does not match, a chunk already resident at that status or higher, a
//! chunk with a task in flight. Then ≥ 10,000 random truncations and bit flips, every one
//! refused; and forged bodies with a valid checksum that never panic, and that re-encode to
//! the same bytes when they decode (one record has one body).

use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, RestoreError, Scheduler};
use stratagen_core::util::digest::Digest;
use stratagen_core::util::random::JavaRandom;
use stratagen_core::world::{chunk_digest, ChunkData, World, WorldGen, WorldSettings};
use stratagen_store::record::{
    decode, encode, load_chunk, save_chunk, RecordError, WorldIdentity, CHECKSUM_LEN, HEADER_LEN,
};

fn world(def: WorldSettings) -> Scheduler<World> {
    Scheduler::new(Arc::new(World::new(WorldGen::new(def).unwrap())))
}

fn def() -> WorldSettings {
    WorldSettings {
        seed: 3,
        ..WorldSettings::default()
    }
}

/// Records of the chunks around (17, -15), generated to full: the centre at full, the ring
/// around it at lower statuses, so every status has records.
/// A saved chunk: position, status, record.
type Saved = (ChunkPos, ChunkStatus, Vec<u8>);

fn records() -> Vec<Saved> {
    let mut s = world(def());
    s.request(ChunkPos::new(17, -15), ChunkStatus::Full, Priority::Soon)
        .unwrap();
    while s.run_inline(1000) > 0 {}
    s.resident()
        .into_iter()
        .map(|p| (p, s.status(p).unwrap(), save_chunk(&s, p).unwrap()))
        .collect()
}

/// Re-seal a record after editing: `edit` gets the header and the decompressed body; the
/// lengths and the checksum are then made right again.
fn forge(record: &[u8], edit: impl FnOnce(&mut [u8], &mut Vec<u8>)) -> Vec<u8> {
    let mut header = record[..HEADER_LEN].to_vec();
    let raw_len = u32::from_le_bytes(header[44..48].try_into().unwrap()) as usize;
    let packed = &record[HEADER_LEN..record.len() - CHECKSUM_LEN];
    let mut body = lz4_flex::block::decompress(packed, raw_len).unwrap();
    edit(&mut header, &mut body);
    let packed = lz4_flex::block::compress(&body);
    header[44..48].copy_from_slice(&(body.len() as u32).to_le_bytes());
    header[48..52].copy_from_slice(&(packed.len() as u32).to_le_bytes());
    let mut out = header;
    out.extend_from_slice(&packed);
    let mut d = Digest::new();
    d.write_bytes(&out);
    out.extend_from_slice(&d.finish().to_le_bytes());
    out
}

/// A world's observable state, to show a refusal changed nothing.
fn state(s: &Scheduler<World>) -> (usize, usize, usize, Vec<(ChunkPos, Option<ChunkStatus>)>) {
    let resident = s.resident().into_iter().map(|p| (p, s.status(p))).collect();
    (
        s.holder_count(),
        s.pending_count(),
        s.ready_count(),
        resident,
    )
}

#[test]
fn each_kind_of_bad_record_is_refused_by_name() {
    let recs = records();
    let find = |want: &dyn Fn(ChunkPos, ChunkStatus) -> bool| {
        recs.iter()
            .find(|(p, st, _)| want(*p, *st))
            .map(|(_, _, r)| r.clone())
            .expect("a record of that kind")
    };
    let full = &find(&|p, _| p == ChunkPos::new(17, -15));
    let generator = WorldGen::new(def()).unwrap();
    assert!(decode(&generator, full).is_ok());

    let mut target = world(def());
    target
        .request(ChunkPos::new(17, -15), ChunkStatus::Terrain, Priority::Soon)
        .unwrap();
    while target.run_inline(1000) > 0 {}
    let before = state(&target);
    let refuse =
        |target: &mut Scheduler<World>, bytes: &[u8], expect: &dyn Fn(&RecordError) -> bool| {
            let e = load_chunk(target, bytes).unwrap_err();
            assert!(expect(&e), "unexpected error {:?}", e);
            assert!(!e.to_string().is_empty());
            assert_eq!(state(target), before, "refusal changed the world: {}", e);
        };
    let t = &mut target;

    refuse(t, &full[..full.len() - 1], &|e| {
        matches!(e, RecordError::Truncated { .. })
    });
    refuse(t, &full[..10], &|e| {
        matches!(e, RecordError::Truncated { .. })
    });
    refuse(t, &[full.as_slice(), &[0]].concat(), &|e| {
        matches!(e, RecordError::TrailingBytes { extra: 1 })
    });
    let mut flipped = full.clone();
    flipped[HEADER_LEN + 5] ^= 0x10;
    refuse(t, &flipped, &|e| matches!(e, RecordError::Checksum { .. }));
    let mut magic = full.clone();
    magic[0] = b'X';
    refuse(t, &magic, &|e| matches!(e, RecordError::NotARecord(_)));
    let v2 = forge(full, |h, _| h[4..6].copy_from_slice(&2u16.to_le_bytes()));
    refuse(t, &v2, &|e| {
        matches!(e, RecordError::UnsupportedVersion { found: 2 })
    });
    for (at, field) in [
        (8, "seed"),
        (16, "min_y"),
        (20, "height"),
        (24, "sea_level"),
        (28, "definition"),
    ] {
        let other = forge(full, |h, _| h[at] ^= 0x10);
        refuse(
            t,
            &other,
            &|e| matches!(e, RecordError::ForeignWorld { field: f } if *f == field),
        );
    }
    let far = forge(full, |h, _| {
        h[36..40].copy_from_slice(&(1i32 << 21).to_le_bytes())
    });
    refuse(t, &far, &|e| matches!(e, RecordError::OutOfRange { .. }));
    let no_status = forge(full, |h, _| h[6] = 10);
    refuse(t, &no_status, &|e| matches!(e, RecordError::BadStatus(10)));
    // The header claims less or more than the body holds.
    for claimed in [ChunkStatus::Light, ChunkStatus::Biomes] {
        let lower = forge(full, |h, _| h[6] = claimed as u8);
        refuse(t, &lower, &|e| matches!(e, RecordError::Body(_)));
    }
    let merged_rec = find(&|_, st| st == ChunkStatus::InitializeLight);
    let higher = forge(&merged_rec, |h, _| h[6] = ChunkStatus::Light as u8);
    refuse(t, &higher, &|e| matches!(e, RecordError::Body(_)));
    // The last byte of a full body is the last spawn request's group (1..=4).
    let bad_group = forge(full, |_, body| *body.last_mut().unwrap() = 9);
    refuse(t, &bad_group, &|e| matches!(e, RecordError::Body(_)));
    let undecompressable = {
        let mut r = full[..HEADER_LEN].to_vec();
        r[44..48].copy_from_slice(&1000u32.to_le_bytes());
        r[48..52].copy_from_slice(&4u32.to_le_bytes());
        r.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        let mut d = Digest::new();
        d.write_bytes(&r);
        r.extend_from_slice(&d.finish().to_le_bytes());
        r
    };
    refuse(t, &undecompressable, &|e| {
        matches!(e, RecordError::Compression(_))
    });

    // A chunk already resident at the record's status or higher.
    let resident = find(&|p, st| st <= ChunkStatus::Terrain && t.status(p) >= Some(st));
    refuse(t, &resident, &|e| {
        matches!(
            e,
            RecordError::Restore(RestoreError::AlreadyResident { .. })
        )
    });
    // A chunk with a task in flight.
    t.request(
        ChunkPos::new(17, -15),
        ChunkStatus::Features,
        Priority::Soon,
    )
    .unwrap();
    let task = t.take_tasks(1).pop().expect("a ready task");
    let busy = find(&|p, _| p == task.pos());
    let before = state(t);
    let e = load_chunk(t, &busy).unwrap_err();
    assert!(
        matches!(e, RecordError::Restore(RestoreError::InFlight)),
        "{:?}",
        e
    );
    assert_eq!(state(t), before);
    let r = task.run();
    t.finish(task, r).unwrap();
}

#[test]
fn ten_thousand_truncations_and_bit_flips_are_all_refused() {
    let recs = records();
    let generator = WorldGen::new(def()).unwrap();
    let mut rng = JavaRandom::new(21);
    let mut target = world(def());
    let mut refused = 0;
    for i in 0..12_000 {
        let (_, _, rec) = &recs[i % recs.len()];
        let mut bad = rec.clone();
        if i % 3 == 0 {
            bad.truncate(rng.next_int_bounded(rec.len() as i32) as usize);
        } else {
            for _ in 0..=rng.next_int_bounded(3) {
                let bit = rng.next_int_bounded(rec.len() as i32 * 8) as usize;
                bad[bit / 8] ^= 1 << (bit % 8);
            }
        }
        if bad == *rec {
            continue; // two flips of the same bit
        }
        // Decode every one; load every tenth into a world that must stay empty.
        let e = decode(&generator, &bad);
        assert!(e.is_err(), "mutation {} accepted", i);
        if i % 10 == 0 {
            assert!(load_chunk(&mut target, &bad).is_err());
            assert_eq!((target.holder_count(), target.pending_count()), (0, 0));
        }
        refused += 1;
    }
    assert!(refused >= 10_000, "{} mutations", refused);
}

/// Records whose body was changed and re-sealed (a valid checksum over wrong data) decode to
/// an error or to data the checks accept — never a panic.
#[test]
fn forged_bodies_never_panic() {
    let recs = records();
    let generator = WorldGen::new(def()).unwrap();
    let mut rng = JavaRandom::new(5);
    let (mut errors, mut accepted) = (0, 0);
    for i in 0..3000 {
        let (_, _, rec) = &recs[i % recs.len()];
        let forged = forge(rec, |_, body| {
            if body.is_empty() {
                return;
            }
            match i % 3 {
                0 => body.truncate(rng.next_int_bounded(body.len() as i32) as usize),
                _ => {
                    let at = rng.next_int_bounded(body.len() as i32) as usize;
                    body[at] = rng.next_int() as u8;
                }
            }
        });
        match decode(&generator, &forged) {
            Err(RecordError::Body(_)) => errors += 1,
            Err(e) => panic!("forged body refused for another reason: {}", e),
            Ok(r) => {
                accepted += 1;
                let _ = r.outputs.last().map(|d| chunk_digest(d));
                let again = encode(&WorldIdentity::of(&generator), r.pos, &r.outputs).unwrap();
                assert!(again == forged, "forgery {i} decoded to a different record");
            }
        }
    }
    assert!(errors > 500, "{} errors, {} accepted", errors, accepted);
}

/// A block patch (the `initialize_light` section) that sets a block to what it already is has
/// no encoding of its own: refused, so a record that decodes has one body.
#[test]
fn a_patch_that_changes_nothing_is_refused() {
    let generator = WorldGen::new(def()).unwrap();
    let mut tried = 0;
    for (_, status, rec) in records() {
        if status != ChunkStatus::InitializeLight {
            continue;
        }
        let r = decode(&generator, &rec).unwrap();
        let ChunkData::Features(f) = &*r.outputs[ChunkStatus::Features.index()] else {
            panic!("no features output");
        };
        let before = f.blocks();
        // The section is last: `n: u32` then n × (index: u32, block: u16). Turn the last patch
        // into one that changes nothing, or add one if there is none.
        let forged = forge(&rec, |_, body| {
            let tail = body.len() - 6;
            let n_at = body.len() - 4;
            if body[n_at..] == [0, 0, 0, 0] {
                body.truncate(n_at);
                body.extend_from_slice(&1u32.to_le_bytes());
                body.extend_from_slice(&0u32.to_le_bytes());
                body.extend_from_slice(&before[0].to_le_bytes());
            } else {
                let i = u32::from_le_bytes(body[tail..tail + 4].try_into().unwrap());
                let same = before[i as usize].to_le_bytes();
                body[tail + 4..].copy_from_slice(&same);
            }
        });
        match decode(&generator, &forged) {
            Err(RecordError::Body(e)) => assert!(e.to_string().contains("changes nothing"), "{e}"),
            other => panic!("a no-op patch was not refused: {:?}", other.map(|r| r.pos)),
        }
        tried += 1;
    }
    assert!(tried > 0, "no record at initialize_light");
}
