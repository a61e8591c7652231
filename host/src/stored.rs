//! Reading a region back from a chunk store instead of generating it, with the store's edits.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::edit::EditLayer;
use stratagen_core::world::{ChunkData, Definition, WorldGen};
use stratagen_store::edits::load_edits;
use stratagen_store::record;
use stratagen_store::sqlite::ChunkStore;

use crate::error::HostError;
use crate::region::{generate_world, rect, Region};

/// Open the store at `path` read-only with the world definition it was written with: the
/// generator of its settings and `world`, refused when `world` is another definition.
pub fn open_store(
    path: &Path,
    world: Arc<Definition>,
) -> Result<(ChunkStore, WorldGen), HostError> {
    let store = ChunkStore::open_read_only(path)?;
    let generator = WorldGen::with_definition(store.identity().settings(), world)?;
    if store.identity().definition != generator.definition_digest() {
        return Err(HostError::Store(format!(
            "{} holds chunks of another world definition (digest {:016x}; world {} has {:016x}): open it with the definition it was written with",
            path.display(),
            store.identity().definition,
            generator.definition().name,
            generator.definition_digest()
        )));
    }
    Ok((store, generator))
}

/// The full chunks of the inclusive rectangle `region` from the store at `path`, decoded and
/// checked, with the store's edits. Without edits every chunk must be stored at `full`. With
/// edits (a store may hold only edits) chunks it does not hold are generated, and the
/// rectangle's edited chunks are lit over a ring of neighbours read or generated with them.
/// The structure starts the chunks reference are recomputed (they are a function of
/// position).
pub fn read_region(
    path: &Path,
    region: (i32, i32, i32, i32),
    world: Arc<Definition>,
) -> Result<Region, HostError> {
    let (store, generator) = open_store(path, world)?;
    let mut layer = EditLayer::new(&generator);
    for (p, bytes) in store.edits()? {
        load_edits(&generator, layer.edits_mut(), &bytes).map_err(|e| {
            HostError::Store(format!(
                "edits of chunk ({}, {}) in {}: {e}",
                p.x,
                p.z,
                path.display()
            ))
        })?;
    }
    let edited = layer.edits().sequence() > 0;
    let (x0, z0, x1, z1) = region;
    let t0 = std::time::Instant::now();
    let ring = if edited { 1 } else { 0 };
    let mut chunks = BTreeMap::new();
    let mut missing = Vec::new();
    for p in rect(x0 - ring, z0 - ring, x1 + ring, z1 + ring) {
        match store.get(p)? {
            Some(bytes) => {
                chunks.insert(p, stored_full(&generator, path, p, &bytes)?);
            }
            None if edited => missing.push(p),
            None => {
                return Err(HostError::Store(format!(
                    "chunk ({}, {}) is not in {}",
                    p.x,
                    p.z,
                    path.display()
                )))
            }
        }
    }
    let mut tasks = 0;
    if !missing.is_empty() {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let made = generate_world(
            generator.clone(),
            &missing,
            ChunkStatus::Full,
            threads,
            |_, _| {},
        )?;
        tasks = made.tasks;
        chunks.extend(made.chunks);
    }
    if edited {
        let around = std::mem::take(&mut chunks);
        for p in rect(x0, z0, x1, z1) {
            let d = layer
                .full(&around, p)
                .map_err(|e| HostError::Store(e.to_string()))?;
            chunks.insert(p, d);
        }
    }
    let refs: std::collections::BTreeSet<_> = chunks
        .values()
        .filter_map(|d| d.full())
        .flat_map(|f| f.structures.iter().map(|s| (s.start, s.kind)))
        .collect();
    let starts = refs
        .into_iter()
        .flat_map(|(start, kind)| {
            generator
                .structure_starts(start)
                .into_iter()
                .filter(move |s| s.kind == kind)
        })
        .collect();
    Ok(Region {
        generator,
        chunks,
        tasks,
        seconds: t0.elapsed().as_secs_f64(),
        status_seconds: [0.0; ChunkStatus::COUNT],
        status_tasks: [0; ChunkStatus::COUNT],
        starts,
        peak_holders: 0,
    })
}

/// The full chunk of a stored record, checked to be the chunk `p` at `full`.
fn stored_full(
    generator: &WorldGen,
    path: &Path,
    p: ChunkPos,
    bytes: &[u8],
) -> Result<Arc<ChunkData>, HostError> {
    let bad = |e: record::RecordError| {
        HostError::Store(format!(
            "chunk ({}, {}) in {}: {e}",
            p.x,
            p.z,
            path.display()
        ))
    };
    let mut r = record::decode(generator, bytes).map_err(bad)?;
    if r.pos != p || r.status != ChunkStatus::Full {
        return Err(HostError::Store(format!(
            "the row of chunk ({}, {}) holds chunk ({}, {}) at {}",
            p.x,
            p.z,
            r.pos.x,
            r.pos.z,
            r.status.name()
        )));
    }
    Ok(r.outputs.pop().expect("a full record has every output"))
}
