//! Pregeneration into a chunk store: generate a rectangle of chunks to full and store one
//! record per chunk, resuming where a killed run stopped.
//!
//! - What is stored already (at `full`) is skipped; stored chunks next to missing ones are
//!   loaded as records so their outputs are not generated again for the neighbours.
//! - Requests go out in bands of rows, a few bands ahead, so memory stays bounded on any
//!   region; a chunk's request is released as soon as it is full and handed to the writer.
//! - One writer thread encodes records and commits them in batches of [`BATCH_CHUNKS`]: a
//!   kill loses at most the batches not yet committed, which the next run generates again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler, Ticket};
use stratagen_core::world::{ChunkData, World, WorldGen};
use stratagen_store::record::{self, RecordError, WorldIdentity};
use stratagen_store::sqlite::{ChunkStore, StoreError};

use crate::driver::drive_hooked;
use crate::error::HostError;
use crate::region::rect;

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

/// Generate the chunks of the inclusive rectangle `region` that `store` does not hold yet and
/// store them. `progress(done, total)` runs on this thread after each stored chunk.
pub fn pregen(
    generator: WorldGen,
    region: (i32, i32, i32, i32),
    store_path: &Path,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<PregenReport, HostError> {
    let identity = WorldIdentity::of(&generator);
    let store = ChunkStore::open(store_path, &identity)?;
    let stored = store.positions_in(region, ChunkStatus::Full)?;
    let reader = ChunkStore::open_existing(store_path)?;
    let (x0, z0, x1, z1) = region;
    let width = (x1 - x0 + 1) as usize;
    let rows_per_band = (BAND_CHUNKS / width).max(1) as i32;
    let bands: Vec<Vec<ChunkPos>> = (z0..=z1)
        .step_by(rows_per_band as usize)
        .map(|bz| rect(x0, bz, x1, (bz + rows_per_band - 1).min(z1)))
        .map(|band| band.into_iter().filter(|p| !stored.contains(p)).collect())
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
                    if let Some(bytes) = reader.get(p)? {
                        match record::load_chunk(s, &bytes) {
                            // The chunk is being generated already (a task in flight): skip.
                            Ok(_) | Err(RecordError::Restore(_)) => {}
                            Err(e) => {
                                return Err(HostError::Store(format!(
                                    "stored chunk ({}, {}): {e}",
                                    p.x, p.z
                                )))
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
            if status != ChunkStatus::Full {
                return Ok(());
            }
            if let Some(t) = tickets.remove(&pos) {
                let outputs = s.outputs(pos);
                s.release(t)?;
                send.send((pos, outputs))
                    .map_err(|_| HostError::Store("the record writer stopped".into()))?;
                done += 1;
                progress(done, total);
                request_bands(s, &mut tickets)?;
            }
            Ok(())
        },
        &Mutex::new([0.0; ChunkStatus::COUNT]),
    );
    drop(send);
    let written = writer
        .join()
        .map_err(|_| HostError::Store("the record writer panicked".into()))?;
    report.tasks = drive?;
    report.record_bytes = written?;
    report.generated = done;
    report.loaded = loaded.len();
    report.seconds = t0.elapsed().as_secs_f64();
    report.peak_holders = s.stats().peak_holders;
    if done != total {
        return Err(HostError::Store(format!(
            "{} of {} chunks were generated",
            done, total
        )));
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

/// The writer thread: encode each chunk's record and commit them in batches. Returns the
/// bytes of records written.
fn write_records(
    mut store: ChunkStore,
    identity: &WorldIdentity,
    recv: mpsc::Receiver<(ChunkPos, Vec<Arc<ChunkData>>)>,
) -> Result<u64, HostError> {
    let mut batch = Vec::with_capacity(BATCH_CHUNKS);
    let mut bytes = 0u64;
    let mut commit = |batch: &mut Vec<(ChunkPos, ChunkStatus, Vec<u8>)>| {
        bytes += batch.iter().map(|(_, _, r)| r.len() as u64).sum::<u64>();
        store.put_batch(batch)?;
        batch.clear();
        Ok::<(), StoreError>(())
    };
    let mut encoder = record::Encoder::default();
    for (pos, outputs) in recv {
        let r = encoder
            .encode(identity, pos, &outputs)
            .map_err(|e| HostError::Store(format!("chunk ({}, {}): {e}", pos.x, pos.z)))?;
        drop(outputs);
        batch.push((pos, ChunkStatus::Full, r));
        if batch.len() >= BATCH_CHUNKS {
            commit(&mut batch)?;
        }
    }
    commit(&mut batch)?;
    Ok(bytes)
}
