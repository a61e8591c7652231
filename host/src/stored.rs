//! Reading a region back from a chunk store instead of generating it, with the store's edits.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_core::world::edit::{EditLayer, Edits};
use stratagen_core::world::{Definition, WorldGen};
use stratagen_store::edits::load_edits;
use stratagen_store::sqlite::ChunkStore;
use stratagen_store::WorldIdentity;

use crate::error::{at, HostError};
use crate::region::{generate_world, Region};

/// Open the store at `path` read-only with the world definition it was written with: the
/// generator of its settings and `world`, refused ([`StoreError::ForeignWorld`], field
/// `definition`) when `world` is another definition.
///
/// [`StoreError::ForeignWorld`]: stratagen_store::sqlite::StoreError::ForeignWorld
pub fn open_store(
    path: &Path,
    world: Arc<Definition>,
) -> Result<(ChunkStore, WorldGen), HostError> {
    let store = ChunkStore::open_read_only(path).map_err(at(path))?;
    let generator = WorldGen::with_definition(store.identity().settings(), world)?;
    if let Some(m) = store.identity().mismatch(&WorldIdentity::of(&generator)) {
        return Err(at(path)(m.into()));
    }
    Ok((store, generator))
}

/// Apply every edit record of `store` (at `path`) to `edits`, after those already made; the
/// first refused record stops the load and names its chunk. The edited chunks, in order.
pub fn load_store_edits(
    store: &ChunkStore,
    path: &Path,
    generator: &WorldGen,
    edits: &mut Edits,
) -> Result<Vec<ChunkPos>, HostError> {
    let records = store.edits().map_err(at(path))?;
    let mut loaded = Vec::with_capacity(records.len());
    for (pos, bytes) in records {
        load_edits(generator, edits, &bytes).map_err(|source| HostError::EditRecord {
            path: path.to_path_buf(),
            pos,
            source,
        })?;
        loaded.push(pos);
    }
    Ok(loaded)
}

/// The full chunks of `region` from the store at `path`, decoded and checked, with the
/// store's edits. Without edits every chunk must be stored at `full`. With edits (a store
/// may hold only edits) chunks it does not hold are generated, and the rectangle's edited
/// chunks are lit over a ring of neighbours read or generated with them. The structure
/// starts the chunks reference are recomputed (they are a function of position).
pub fn read_region(
    path: &Path,
    region: ChunkRect,
    world: Arc<Definition>,
) -> Result<Region, HostError> {
    let (store, generator) = open_store(path, world)?;
    let mut layer = EditLayer::new(&generator);
    load_store_edits(&store, path, &generator, layer.edits_mut())?;
    let edited = layer.edits().sequence() > 0;
    let t0 = std::time::Instant::now();
    let around = if edited { region.grown(1) } else { region };
    let mut chunks = BTreeMap::new();
    let mut missing = Vec::new();
    for p in around.positions() {
        match store.full_chunk(&generator, p).map_err(at(path))? {
            Some(d) => {
                chunks.insert(p, d);
            }
            None if edited => missing.push(p),
            None => {
                return Err(HostError::NotStored {
                    path: path.to_path_buf(),
                    pos: p,
                })
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
        for p in region.positions() {
            chunks.insert(p, layer.full(&around, p)?);
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
