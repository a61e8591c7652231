//! World definition documents (TOML or JSON, as a mod or a server's user would send them),
//! through the full reader and its checks.
//!
//! Properties: nothing panics; every problem has a position and is listed once; a document
//! that passes prints to TOML and JSON documents with the same digest; and a world built from
//! it generates a chunk to `full` without a body failing.
#![no_main]

use std::collections::BTreeSet;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_core::world::{World, WorldGen};
use stratagen_fuzz::small_settings;
use stratagen_worldfile::{parse, parse_bytes, print, Format};

fuzz_target!(|data: &[u8]| {
    let d = match parse_bytes(data) {
        Ok(d) => d,
        Err(problems) => {
            let mut seen = BTreeSet::new();
            for p in &problems.list {
                assert!(p.at.is_some(), "a problem without a position: {p}");
                assert!(seen.insert(p.to_string()), "listed twice: {p}");
            }
            return;
        }
    };
    for format in [Format::Toml, Format::Json] {
        let text = print(&d, format);
        let again = parse(&text).unwrap_or_else(|p| panic!("printed {format:?} refused:\n{p}"));
        assert_eq!(again.digest(), d.digest(), "{format:?} round trip");
    }
    let generator = WorldGen::with_definition(small_settings(), Arc::new(d))
        .expect("a definition that passed its checks builds a world");
    let mut sched = Scheduler::new(Arc::new(World::new(generator)));
    let pos = ChunkPos::new(1, -1);
    sched
        .request(pos, ChunkStatus::Full, Priority::Immediate)
        .expect("a request in range");
    while sched.run_inline(64) > 0 {}
    assert_eq!(sched.status(pos), Some(ChunkStatus::Full));
    for p in sched.resident() {
        assert!(
            sched.failure(p).is_none(),
            "a body failed at {p:?}: {:?}",
            sched.failure(p)
        );
    }
});
