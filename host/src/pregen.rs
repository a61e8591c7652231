//! Pregeneration into a chunk store: generate a rectangle of chunks to full and store one
//! record per chunk, resuming where a killed run stopped.
//!
//! - What is stored already (at `full`) is skipped; stored chunks next to missing ones are
//!   loaded as records so their outputs are not generated again for the neighbours.
//! - Requests go out in bands of rows, a few bands ahead, so memory stays bounded on any
//!   region; a chunk's request is released as soon as it is full and handed to the writer.
//! - One writer thread encodes records and commits them in batches of [`BATCH_CHUNKS`]: a
//!   kill loses at most the batches not yet committed, which the next run generates again.
//!   When the writer fails (a full disk), its error is the run's error.
//! - The caller's progress callback runs after every finished task and may stop the run:
//!   what was generated is committed, and a rerun resumes there.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus, Priority, Scheduler, Ticket};
use stratagen_core::world::{ChunkData, World, WorldGen};
use stratagen_store::record::{self, RecordError, WorldIdentity};
use stratagen_store::sqlite::{ChunkStore, StoreError};

use crate::driver::drive_hooked;
use crate::error::{at, HostError};

/// Records per committed transaction.
pub const BATCH_CHUNKS: usize = 64;
/// Chunks per band of requests (whole rows; at least one row).
const BAND_CHUNKS: usize = 256;
/// Requests outstanding at most, in bands: enough that every thread has work while the
/// oldest band finishes.
const BANDS_AHEAD: usize = 3;
/// Stored chunks this close to a missing one are loaded rather than generated again: the
/// statuses a full chunk reads from its neighbours reach this far (`features` at 1 reads
/// `terrain` at 2, which reads `biomes` at 3).
const LOAD_RADIUS: i32 = 3;

/// What a pregeneration did.
#[derive(Clone, Copy, Debug, Default)]
pub struct PregenReport {
    /// Chunks generated and stored by this run.
    pub generated: usize,
    /// Chunks of the region found stored already.
    pub skipped: usize,
    /// Stored chunks loaded as neighbours.
    pub loaded: usize,
    /// Tasks run.
    pub tasks: usize,
    /// Wall time in seconds, from the first request to the last commit.
    pub seconds: f64,
    /// Bytes of the records written.
    pub record_bytes: u64,
    /// Most holders resident at once.
    pub peak_holders: usize,
}

/// Generate the chunks of `region` that the store at `store_path` does not hold yet and
/// store them. `progress(stored, total)` runs on this thread after every finished task
/// (micro- to milliseconds apart) with the chunks stored so far and the chunks to store;
/// [`ControlFlow::Break`] stops the run with [`HostError::Stopped`], everything generated
/// so far committed.
pub fn pregen(
    generator: WorldGen,
    region: ChunkRect,
    store_path: &Path,
    threads: usize,
    mut progress: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<PregenReport, HostError> {
    let identity = WorldIdentity::of(&generator);
    let store = ChunkStore::open(store_path, &identity).map_err(at(store_path))?;
    let stored = store
        .positions_in(region, ChunkStatus::Full)
        .map_err(at(store_path))?;
    let reader = ChunkStore::open_existing(store_path).map_err(at(store_path))?;
    let width = region.width() as usize;
    let rows_per_band = (BAND_CHUNKS / width).max(1) as u32;
    let (_, z0, _, z1) = region.bounds();
    let bands: Vec<Vec<ChunkPos>> = (z0..=z1)
        .step_by(rows_per_band as usize)
        .filter_map(|z| region.rows(z, rows_per_band))
        .map(|band| band.positions().filter(|p| !stored.contains(p)).collect())
        .collect();
    let total: usize = bands.iter().map(Vec::len).sum();
    let mut report = PregenReport {
        skipped: stored.len(),
        ..PregenReport::default()
    };

    let (send, recv) = mpsc::channel::<(ChunkPos, Vec<Arc<ChunkData>>)>();
    let t0 = Instant::now();
    let writer = std::thread::spawn(move || write_records(store, &identity, recv));

    let mut s = Scheduler::with_id(Arc::new(World::new(generator)), 1);
    let mut tickets: BTreeMap<ChunkPos, Ticket> = BTreeMap::new();
    let mut next_band = 0;
    let mut loaded: BTreeSet<ChunkPos> = BTreeSet::new();
    let mut request_bands = |s: &mut Scheduler<World>,
                             tickets: &mut BTreeMap<ChunkPos, Ticket>|
     -> Result<(), HostError> {
        let limit = BANDS_AHEAD * BAND_CHUNKS.max(width);
        while next_band < bands.len() && tickets.len() + bands[next_band].len() <= limit {
            let band = &bands[next_band];
            next_band += 1;
            for p in stored_neighbours(band, &stored) {
                if s.status(p).is_none() && loaded.insert(p) {
                    if let Some(bytes) = reader.get(p).map_err(at(store_path))? {
                        match record::load_chunk(s, &bytes) {
                            // The chunk is being generated already (a task in flight): skip.
                            Ok(_) | Err(RecordError::Restore(_)) => {}
                            Err(source) => {
                                return Err(at(store_path)(StoreError::Record {
                                    x: p.x,
                                    z: p.z,
                                    source,
                                }))
                            }
                        }
                    }
                }
            }
            for &p in band {
                tickets.insert(p, s.request(p, ChunkStatus::Full, Priority::Soon)?);
            }
        }
        Ok(())
    };
    request_bands(&mut s, &mut tickets)?;
    let mut done = 0usize;
    let drive = drive_hooked(
        &mut s,
        threads,
        |s, pos, status, _| {
            if status == ChunkStatus::Full {
                if let Some(t) = tickets.remove(&pos) {
                    let outputs = s.outputs(pos);
                    s.release(t)?;
                    // The writer hung up only by failing: its own error is the run's (below).
                    send.send((pos, outputs))
                        .map_err(|_| HostError::WriterPanicked)?;
                    done += 1;
                    request_bands(s, &mut tickets)?;
                }
            }
            match progress(done, total) {
                ControlFlow::Continue(()) => Ok(()),
                ControlFlow::Break(()) => Err(HostError::Stopped {
                    stored: done,
                    total,
                }),
            }
        },
        &Mutex::new([0.0; ChunkStatus::COUNT]),
    );
    drop(send);
    // The writer's error first: when it fails, the drive stops only because it hung up.
    let written = writer.join().map_err(|_| HostError::WriterPanicked)?;
    report.record_bytes = written.map_err(|e| match e {
        WriteError::Store(source) => at(store_path)(source),
        WriteError::Record(e) => e,
    })?;
    report.tasks = drive?;
    report.generated = done;
    report.loaded = loaded.len();
    report.seconds = t0.elapsed().as_secs_f64();
    report.peak_holders = s.stats().peak_holders;
    if done != total {
        return Err(HostError::Incomplete {
            stored: done,
            total,
        });
    }
    Ok(report)
}

/// Stored chunks within [`LOAD_RADIUS`] of a chunk of `band`.
fn stored_neighbours(band: &[ChunkPos], stored: &BTreeSet<ChunkPos>) -> BTreeSet<ChunkPos> {
    let mut near = BTreeSet::new();
    for p in band {
        for dz in -LOAD_RADIUS..=LOAD_RADIUS {
            for dx in -LOAD_RADIUS..=LOAD_RADIUS {
                let q = p.offset(dx, dz);
                if stored.contains(&q) {
                    near.insert(q);
                }
            }
        }
    }
    near
}

/// Why the writer thread stopped.
enum WriteError {
    Store(StoreError),
    Record(HostError),
}

/// The writer thread: encode each chunk's record and commit them in batches. Returns the
/// bytes of records written.
fn write_records(
    mut store: ChunkStore,
    identity: &WorldIdentity,
    recv: mpsc::Receiver<(ChunkPos, Vec<Arc<ChunkData>>)>,
) -> Result<u64, WriteError> {
    let mut batch = Vec::with_capacity(BATCH_CHUNKS);
    let mut bytes = 0u64;
    let mut commit = |batch: &mut Vec<(ChunkPos, ChunkStatus, Vec<u8>)>| {
        bytes += batch.iter().map(|(_, _, r)| r.len() as u64).sum::<u64>();
        store.put_batch(batch).map_err(WriteError::Store)?;
        batch.clear();
        Ok::<(), WriteError>(())
    };
    let mut encoder = record::Encoder::default();
    for (pos, outputs) in recv {
        let r = encoder
            .encode(identity, pos, &outputs)
            .map_err(|source| WriteError::Record(HostError::Record { pos, source }))?;
        drop(outputs);
        batch.push((pos, ChunkStatus::Full, r));
        if batch.len() >= BATCH_CHUNKS {
            commit(&mut batch)?;
        }
    }
    commit(&mut batch)?;
    Ok(bytes)
}
