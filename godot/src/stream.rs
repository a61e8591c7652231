//! The streaming policy: the chunks a viewer needs, requested nearest first within a
//! per-frame budget, and released only once they are a hysteresis ring beyond the view
//! distance (a viewer walking back and forth across a chunk border does not make chunks
//! flicker in and out).
//!
//! Distances are between chunk positions, `dx² + dz²` in chunks²: a chunk is *in view* when
//! it is within `view_distance` of the viewer's chunk, and is released when it is farther
//! than `view_distance + hysteresis`. At any moment at most [`StreamSettings::max_resident`]
//! chunks hold a ticket.

use std::collections::BTreeMap;

use stratagen_core::engine::{
    ChunkPos, ChunkStatus, Pipeline, Priority, Scheduler, SchedulerError, Ticket,
};

/// Streaming settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamSettings {
    /// Radius in chunks of the disc kept loaded around the viewer. Default 8.
    pub view_distance: u32,
    /// Extra ring, in chunks, before a chunk is released. Default 2.
    pub hysteresis: u32,
    /// New requests per frame at most (the nearest missing chunks go first). Default 16.
    pub max_requests_per_frame: usize,
}

impl Default for StreamSettings {
    fn default() -> Self {
        StreamSettings {
            view_distance: 8,
            hysteresis: 2,
            max_requests_per_frame: 16,
        }
    }
}

impl StreamSettings {
    /// The most chunks that can hold a ticket at once: every chunk of the disc of radius
    /// `view_distance + hysteresis` (requests happen only inside the view disc, releases
    /// outside the larger one).
    pub fn max_resident(&self) -> usize {
        disc(self.view_distance + self.hysteresis).len()
    }
}

/// The offsets of the disc of radius `r` around the origin, nearest first (ties by z, then
/// x, so the order is fixed).
fn disc(r: u32) -> Vec<(i32, i32)> {
    let r = r as i32;
    let mut v: Vec<(i32, i32)> = (-r..=r)
        .flat_map(|dz| (-r..=r).map(move |dx| (dx, dz)))
        .filter(|&(dx, dz)| dx * dx + dz * dz <= r * r)
        .collect();
    v.sort_by_key(|&(dx, dz)| (dx * dx + dz * dz, dz, dx));
    v
}

/// What one frame of the policy changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamChanges {
    /// Chunks requested this frame, nearest first.
    pub requested: Vec<ChunkPos>,
    /// Chunks released this frame (beyond the hysteresis ring), in position order.
    pub released: Vec<ChunkPos>,
}

/// The chunks held for a viewer: one ticket (to `full`) per chunk.
pub struct Streamer {
    settings: StreamSettings,
    /// The view disc's offsets, nearest first.
    view: Vec<(i32, i32)>,
    tickets: BTreeMap<ChunkPos, Ticket>,
}

impl Streamer {
    /// A streamer holding nothing yet.
    pub fn new(settings: StreamSettings) -> Streamer {
        Streamer {
            settings,
            view: disc(settings.view_distance),
            tickets: BTreeMap::new(),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &StreamSettings {
        &self.settings
    }

    /// Chunks holding a ticket.
    pub fn held(&self) -> impl Iterator<Item = &ChunkPos> {
        self.tickets.keys()
    }

    /// Number of chunks holding a ticket.
    pub fn held_count(&self) -> usize {
        self.tickets.len()
    }

    /// One frame with the viewer in chunk `viewer`: release what lies beyond the hysteresis
    /// ring, then request up to the per-frame budget of the nearest chunks in view that hold
    /// no ticket. Owner thread (it calls the scheduler). Positions out of the world's range
    /// are skipped, never requested.
    pub fn update<P: Pipeline>(
        &mut self,
        sched: &mut Scheduler<P>,
        viewer: ChunkPos,
    ) -> Result<StreamChanges, SchedulerError> {
        let mut changes = StreamChanges::default();
        let keep = i64::from(self.settings.view_distance + self.settings.hysteresis);
        let far: Vec<ChunkPos> = self
            .tickets
            .keys()
            .filter(|p| {
                let (dx, dz) = (i64::from(p.x - viewer.x), i64::from(p.z - viewer.z));
                dx * dx + dz * dz > keep * keep
            })
            .copied()
            .collect();
        for p in far {
            if let Some(t) = self.tickets.remove(&p) {
                sched.release(t)?;
                changes.released.push(p);
            }
        }
        for &(dx, dz) in &self.view {
            if changes.requested.len() >= self.settings.max_requests_per_frame {
                break;
            }
            let (x, z) = (viewer.x.checked_add(dx), viewer.z.checked_add(dz));
            let p = match (x, z) {
                (Some(x), Some(z)) => ChunkPos::new(x, z),
                _ => continue,
            };
            if self.tickets.contains_key(&p) || !p.is_valid() {
                continue;
            }
            // The viewer's own chunk first of all; the rest as the view distance.
            let priority = if (dx, dz) == (0, 0) {
                Priority::Immediate
            } else {
                Priority::Soon
            };
            let t = sched.request(p, ChunkStatus::Full, priority)?;
            self.tickets.insert(p, t);
            changes.requested.push(p);
        }
        Ok(changes)
    }

    /// Release every ticket (the node leaves the tree).
    pub fn clear<P: Pipeline>(&mut self, sched: &mut Scheduler<P>) -> Result<(), SchedulerError> {
        for (_, t) in std::mem::take(&mut self.tickets) {
            sched.release(t)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_is_nearest_first_and_round() {
        let d = disc(8);
        assert_eq!(d[0], (0, 0));
        for w in d.windows(2) {
            let n = |(x, z): (i32, i32)| x * x + z * z;
            assert!(n(w[0]) <= n(w[1]));
        }
        // Known count of lattice points in a disc of radius 8: 197.
        assert_eq!(d.len(), 197);
        assert_eq!(disc(0), vec![(0, 0)]);
        assert_eq!(disc(1).len(), 5);
    }
}
