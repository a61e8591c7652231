//! Edit records, as a saved game someone sent would hold them: decoded, applied to a world's
//! edits, re-encoded, and read through the edit layer.
//!
//! Input: the first byte picks the form. `0`: the rest is a whole record (framing, checksum
//! and identity checks). Otherwise: bytes 1 and 2 are the chunk position and the rest an
//! uncompressed body, framed with a valid checksum (the body decoder).
//!
//! Properties: nothing panics; a refused record leaves the edits as they were; a record that
//! decodes re-encodes to the same bytes (framed form) or body, and applying it gives the
//! chunk exactly its entries; the edited chunk reads through the layer.
#![no_main]

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_core::world::edit::{EditLayer, Edits};
use stratagen_core::world::ChunkData;
use stratagen_fuzz::{body_of, frame_with, small_pipeline, small_world};
use stratagen_store::edits::{decode_edits, encode_edits, load_edits, EDIT_MAGIC};
use stratagen_store::WorldIdentity;

/// The small world's full chunks around the origin, generated once per process.
fn chunks() -> &'static BTreeMap<ChunkPos, Arc<ChunkData>> {
    static CHUNKS: OnceLock<BTreeMap<ChunkPos, Arc<ChunkData>>> = OnceLock::new();
    CHUNKS.get_or_init(|| {
        let mut sched = Scheduler::new(small_pipeline().clone());
        let around: Vec<ChunkPos> = (-1..=1)
            .flat_map(|z| (-1..=1).map(move |x| ChunkPos::new(x, z)))
            .collect();
        for &p in &around {
            sched.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
        }
        while sched.run_inline(usize::MAX) > 0 {}
        around
            .into_iter()
            .map(|p| (p, sched.output(p, ChunkStatus::Full).unwrap()))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let generator = small_world();
    let record = match data {
        [0, rest @ ..] => rest.to_vec(),
        [_, x, z, body @ ..] => frame_with(
            &EDIT_MAGIC,
            generator,
            ChunkPos::new(*x as i8 as i32, *z as i8 as i32),
            0,
            body,
        ),
        _ => return,
    };
    let framed = data[0] != 0;

    if let Ok(r) = decode_edits(generator, &record) {
        let again = encode_edits(&WorldIdentity::of(generator), r.pos, &r.entries);
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

    let blocks = generator.definition().blocks.len();
    let mut edits = Edits::new(generator.dims(), blocks);
    match load_edits(generator, &mut edits, &record) {
        Err(_) => {
            assert_eq!(edits.sequence(), 0, "a refused record changed the edits");
            assert_eq!(edits.edited_chunks().count(), 0);
        }
        Ok(pos) => {
            let r = decode_edits(generator, &record).expect("a loaded record decodes");
            assert_eq!(
                edits.chunk(pos),
                &r.entries[..],
                "the chunk holds the record's edits"
            );
            if pos == ChunkPos::new(0, 0) {
                let mut layer = EditLayer::new(generator);
                load_edits(generator, layer.edits_mut(), &record).expect("loads again");
                let d = layer.full(chunks(), pos).expect("the centre chunk reads");
                let f = d.full().expect("a full chunk");
                for &(i, b) in &r.entries {
                    assert_eq!(f.blocks()[i as usize], b, "the edit shows");
                }
            }
        }
    }
});
