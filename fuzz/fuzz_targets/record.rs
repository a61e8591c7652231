//! Chunk records, as a save file someone sent would hold them: decoded, loaded into a world,
//! re-encoded.
//!
//! Input: the first byte picks the form. `0`: the rest is a whole record (framing, checksum
//! and identity checks). Otherwise: byte 1 is the status, bytes 2 and 3 the chunk position,
//! and the rest an uncompressed body, framed with a valid checksum (the body decoder).
//!
//! Properties: nothing panics; a refused record leaves the world as it was; a record that
//! decodes re-encodes to the same body (to the same bytes, for the framed form, whose
//! compression is the encoder's own).
#![no_main]

use libfuzzer_sys::fuzz_target;
use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_fuzz::{body_of, frame, small_pipeline, small_world};
use stratagen_store::record::{decode, encode, load_chunk};
use stratagen_store::WorldIdentity;

fuzz_target!(|data: &[u8]| {
    let generator = small_world();
    let record = match data {
        [0, rest @ ..] => rest.to_vec(),
        [_, status, x, z, body @ ..] => frame(
            generator,
            ChunkPos::new(*x as i8 as i32, *z as i8 as i32),
            *status,
            body,
        ),
        _ => return,
    };
    let framed = data[0] != 0;

    let identity = WorldIdentity::of(generator);
    if let Ok(r) = decode(generator, &record) {
        let again = encode(&identity, r.pos, &r.outputs).expect("a decoded record encodes");
        if framed {
            assert_eq!(again, record, "a decoded body re-encodes to the same bytes");
        } else {
            assert_eq!(
                body_of(&again),
                body_of(&record),
                "re-encodes to the same body"
            );
        }
    }

    // Into a world with a request near the origin: a refused record changes nothing.
    let mut sched = Scheduler::new(small_pipeline().clone());
    sched
        .request(ChunkPos::new(0, 0), ChunkStatus::Biomes, Priority::Soon)
        .expect("a request in range");
    let before = (
        sched.resident(),
        sched.pending_count(),
        sched.ready_count(),
        sched.holder_count(),
    );
    if load_chunk(&mut sched, &record).is_err() {
        let after = (
            sched.resident(),
            sched.pending_count(),
            sched.ready_count(),
            sched.holder_count(),
        );
        assert_eq!(before, after, "a refused record changed the world");
    }
});
