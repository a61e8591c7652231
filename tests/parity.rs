//! The parity corpus (golden digests of noise and of every status of a fixed set of chunks,
//! pinned in a snapshot). The same lines are printed by the cross-architecture harness
//! (`.ci/cross.sh`) and must be identical there; this test also checks them against a second
//! generation path (the threaded CLI driver) so each golden is paired with the property that
//! the value does not depend on how it was produced.
#[path = "parity/corpus.rs"]
mod corpus;

use stratagen_cli::generate;
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::{status_digest, WorldSettings};

/// The preset encodings the corpus (and the cross-architecture harness, which has no text
/// parser) reads are those of today's preset documents. `STRATAGEN_BLESS_PRESETS=1` rewrites
/// them; the snapshot then shows what changed.
#[test]
fn corpus_preset_bytes_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parity/presets");
    for (name, bytes, _) in corpus::PRESETS {
        let want = stratagen_worldfile::load(name).unwrap().to_bytes();
        if std::env::var_os("STRATAGEN_BLESS_PRESETS").is_some() {
            std::fs::write(dir.join(format!("{name}.bin")), &want).unwrap();
        } else {
            assert!(
                bytes == want.as_slice(),
                "tests/parity/presets/{name}.bin is stale: run with STRATAGEN_BLESS_PRESETS=1"
            );
        }
    }
}

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
            WorldSettings {
                seed,
                ..WorldSettings::default()
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
    // The presets' chunks from their text (stratagen-worldfile), on the threaded driver, equal the
    // corpus lines made from the canonical bytes inline.
    for (name, _, chunks) in corpus::PRESETS {
        let world = std::sync::Arc::new(stratagen_worldfile::load(name).unwrap());
        for (seed, x, z) in chunks {
            let p = ChunkPos::new(x, z);
            let generator = stratagen_core::world::WorldGen::with_definition(
                WorldSettings {
                    seed,
                    ..WorldSettings::default()
                },
                world.clone(),
            )
            .unwrap();
            let r = stratagen_cli::generate_world(generator, &[p], ChunkStatus::Full, 2, |_, _| {})
                .unwrap();
            let want = format!(
                "preset {name} seed {seed} ({x}, {z}) full {:016x}",
                status_digest(&r.chunks[&p])
            );
            assert!(lines.contains(&want), "{want}");
        }
    }
}

/// The corpus chunks generated together, in three request orders and with inline, 1, 2, 4 and 8
/// threads: every status digest equals the corpus line.
#[test]
fn corpus_is_independent_of_order_and_threads() {
    use std::sync::Arc;
    use stratagen_cli::drive;
    use stratagen_core::engine::{Priority, Scheduler};
    use stratagen_core::world::{World, WorldGen};
    let lines = corpus::lines();
    let seeds: std::collections::BTreeSet<i64> = corpus::CHUNKS.iter().map(|c| c.1).collect();
    for seed in seeds {
        let chunks: Vec<_> = corpus::CHUNKS
            .iter()
            .filter(|c| c.1 == seed)
            .copied()
            .collect();
        let mut orders = vec![chunks.clone()];
        let mut rev = chunks.clone();
        rev.reverse();
        orders.push(rev);
        let mut shuffled = chunks.clone();
        shuffled.rotate_left(chunks.len() / 2);
        shuffled.swap(0, chunks.len() - 1);
        orders.push(shuffled);
        for (oi, order) in orders.iter().enumerate() {
            for threads in [0usize, 1, 2, 4, 8] {
                if oi > 0 && threads != 2 && threads != 0 {
                    continue; // every order inline and on 2 threads; every thread count row-major
                }
                let generator = WorldGen::new(WorldSettings {
                    seed,
                    ..WorldSettings::default()
                })
                .unwrap();
                let mut s = Scheduler::with_id(Arc::new(World::new(generator)), 9);
                for (_, _, x, z) in order {
                    s.request(ChunkPos::new(*x, *z), ChunkStatus::Full, Priority::Soon)
                        .unwrap();
                }
                drive(&mut s, threads, |_| {}).unwrap();
                for (label, seed, x, z) in order {
                    for st in ChunkStatus::ALL {
                        let d = status_digest(&s.output(ChunkPos::new(*x, *z), st).unwrap());
                        let want = format!(
                            "chunk {label} seed {seed} ({x}, {z}) {} {d:016x}",
                            st.name()
                        );
                        assert!(
                            lines.contains(&want),
                            "order {oi}, {threads} threads: {want}"
                        );
                    }
                }
            }
        }
    }
}
