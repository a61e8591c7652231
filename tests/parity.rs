//! The parity corpus (golden digests of noise and of every status of a fixed set of chunks,
//! pinned in a snapshot). The same lines are printed by the cross-architecture harness
//! (`.ci/cross.sh`) and must be identical there; this test also checks them against a second
//! generation path (the threaded CLI driver) so each golden is paired with the property that
//! the value does not depend on how it was produced.
#[path = "parity/corpus.rs"]
mod corpus;

use stratagen::generate;
use stratagen_core::ladder::{ChunkPos, ChunkStatus};
use stratagen_core::world::{status_digest, WorldDef};

#[test]
fn parity_corpus_snapshot() {
    let lines = corpus::lines().join("\n") + "\n";
    insta::assert_snapshot!("parity_corpus", lines);
}

#[test]
fn corpus_chunks_are_the_same_through_the_threaded_driver() {
    let lines = corpus::lines();
    for (label, seed, x, z) in corpus::CHUNKS {
        let p = ChunkPos::new(x, z);
        let r = generate(
            WorldDef {
                seed,
                ..WorldDef::default()
            },
            &[p],
            ChunkStatus::Full,
            2,
            |_, _| {},
        )
        .unwrap();
        let want = format!(
            "chunk {label} seed {seed} ({x}, {z}) full {:016x}",
            status_digest(&r.chunks[&p])
        );
        assert!(lines.contains(&want), "{want}");
    }
}
