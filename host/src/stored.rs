//! Reading a region back from a chunk store instead of generating it.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::{Definition, WorldGen};
use stratagen_store::record;
use stratagen_store::sqlite::ChunkStore;

use crate::error::HostError;
use crate::region::{rect, Region};

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
/// checked; every chunk must be stored at `full`. The structure starts the chunks reference
/// are recomputed (they are a function of position).
pub fn read_region(
    path: &Path,
    region: (i32, i32, i32, i32),
    world: Arc<Definition>,
) -> Result<Region, HostError> {
    let (store, generator) = open_store(path, world)?;
    let (x0, z0, x1, z1) = region;
    let t0 = std::time::Instant::now();
    let mut chunks = BTreeMap::new();
    let mut refs = std::collections::BTreeSet::new();
    for p in rect(x0, z0, x1, z1) {
        let bytes = store.get(p)?.ok_or_else(|| {
            HostError::Store(format!(
                "chunk ({}, {}) is not in {}",
                p.x,
                p.z,
                path.display()
            ))
        })?;
        let bad = |e: record::RecordError| {
            HostError::Store(format!(
                "chunk ({}, {}) in {}: {e}",
                p.x,
                p.z,
                path.display()
            ))
        };
        let mut r = record::decode(&generator, &bytes).map_err(bad)?;
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
        let full = r.outputs.pop().expect("a full record has every output");
        if let Some(f) = full.full() {
            refs.extend(f.structures.iter().map(|s| (s.start, s.kind)));
        }
        chunks.insert(p, full);
    }
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
        tasks: 0,
        seconds: t0.elapsed().as_secs_f64(),
        status_seconds: [0.0; ChunkStatus::COUNT],
        status_tasks: [0; ChunkStatus::COUNT],
        starts,
        peak_holders: 0,
    })
}
