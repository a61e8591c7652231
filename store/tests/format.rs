//! The record format is a contract (stores written today must stay readable): the documented
//! header layout checked field by field against the world and chunk it came from, the
//! checksum recomputed independently, and a golden digest of one full record as the
//! regression guard for the whole byte string (blessed from this implementation; the layout
//! checks above and the resume tests are what show it is right).

use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::{Definition, World, WorldGen, WorldSettings};
use stratagen_store::record::{
    decode, save_chunk, Encoder, WorldIdentity, HEADER_LEN, LEGACY_BUILTIN_DEFINITION,
};

fn xxh64(b: &[u8]) -> u64 {
    let mut d = Digest::new();
    d.write_bytes(b);
    d.finish()
}

#[test]
fn header_fields_sit_where_the_format_says() {
    let def = WorldSettings {
        seed: -77,
        min_y: -32,
        height: 256,
        sea_level: 40,
    };
    let generator = WorldGen::new(def).unwrap();
    let mut s = Scheduler::new(Arc::new(World::new(generator.clone())));
    let pos = ChunkPos::new(-3, 5);
    s.request(pos, ChunkStatus::Full, Priority::Soon).unwrap();
    while s.run_inline(1000) > 0 {}
    let r = save_chunk(&s, pos).unwrap();
    let le32 = |at: usize| i32::from_le_bytes(r[at..at + 4].try_into().unwrap());
    assert_eq!(&r[0..4], b"SGCR");
    assert_eq!(u16::from_le_bytes([r[4], r[5]]), 1);
    assert_eq!(r[6], ChunkStatus::Full as u8);
    assert_eq!(r[7], 0);
    assert_eq!(i64::from_le_bytes(r[8..16].try_into().unwrap()), -77);
    assert_eq!((le32(16), le32(20), le32(24)), (-32, 256, 40));
    assert_eq!(
        u64::from_le_bytes(r[28..36].try_into().unwrap()),
        Definition::builtin().digest()
    );
    assert_eq!((le32(36), le32(40)), (-3, 5));
    let packed = le32(48) as usize;
    assert_eq!(r.len(), HEADER_LEN + packed + 8);
    let end = HEADER_LEN + packed;
    assert_eq!(
        u64::from_le_bytes(r[end..].try_into().unwrap()),
        xxh64(&r[..end])
    );
    // A reused encoder writes the same bytes as a fresh one.
    let mut e = Encoder::default();
    let other = e
        .encode(
            &WorldIdentity::of(&generator),
            ChunkPos::new(-3, 4),
            &s.outputs(ChunkPos::new(-3, 4)),
        )
        .unwrap();
    assert!(decode(&generator, &other).is_ok());
    assert_eq!(
        e.encode(&WorldIdentity::of(&generator), pos, &s.outputs(pos))
            .unwrap(),
        r
    );
}

#[test]
fn a_full_record_of_the_default_world_is_byte_stable() {
    let mut s = Scheduler::new(Arc::new(World::new(
        WorldGen::new(WorldSettings::default()).unwrap(),
    )));
    s.request(ChunkPos::new(0, 0), ChunkStatus::Full, Priority::Soon)
        .unwrap();
    while s.run_inline(1000) > 0 {}
    let r = save_chunk(&s, ChunkPos::new(0, 0)).unwrap();
    assert_eq!(
        (r.len(), format!("{:016x}", xxh64(&r))),
        (6764, "0d379060d373b359".to_string()),
        "record format 1 changed: bump FORMAT_VERSION (old stores must stay readable)"
    );
    // The record written before definitions existed (digest field 0, the legacy placeholder)
    // differs only in that field and the checksum: it is byte for byte the golden of then,
    // and it still loads into the default world.
    let mut legacy = r.clone();
    legacy[28..36].copy_from_slice(&LEGACY_BUILTIN_DEFINITION.to_le_bytes());
    let end = legacy.len() - 8;
    let sum = xxh64(&legacy[..end]);
    legacy[end..].copy_from_slice(&sum.to_le_bytes());
    assert_eq!(format!("{:016x}", xxh64(&legacy)), "8a26d1984761946d");
    let generator = WorldGen::new(WorldSettings::default()).unwrap();
    assert_eq!(decode(&generator, &legacy).unwrap().outputs.len(), 10);
}
