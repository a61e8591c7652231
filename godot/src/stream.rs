//! The streaming policy: the chunks the viewers need, requested nearest first within a
//! per-frame budget, and released only once they are a hysteresis ring beyond every viewer's
//! view distance (a viewer walking back and forth across a chunk border does not make chunks
//! flicker in and out).
//!
//! Distances are between chunk positions, `dx² + dz²` in chunks²: a chunk is *in view* when
//! it is within some viewer's `view_distance` of that viewer's chunk. The chunks in view and
//! the ring touching them (the apron) are requested, so every chunk in view is meshed once
//! with all eight neighbours; a chunk is released when neither it nor a neighbour is within
//! `view_distance + hysteresis` of any viewer. The union of the viewers' discs is kept
//! loaded; at any moment at most [`max_resident`] chunks hold a ticket.

use std::collections::{BTreeMap, BTreeSet};

use stratagen_core::engine::{
    ChunkPos, ChunkStatus, Pipeline, Priority, Scheduler, SchedulerError, Ticket,
};

/// Streaming settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamSettings {
    /// Radius in chunks of the disc kept loaded around a viewer that names none. Default 8.
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
    /// The most chunks that can hold a ticket at once for one viewer at the default view
    /// distance: every chunk of the disc of radius `view_distance + hysteresis` and its
    /// apron (requests happen only inside the view disc's apron, releases outside the larger
    /// one's).
    pub fn max_resident(&self) -> usize {
        with_apron(self.view_distance + self.hysteresis).len()
    }
}

/// The most chunks that can hold a ticket at once for `viewers`: the sum of their discs of
/// radius `view_distance + hysteresis` with their aprons.
pub fn max_resident(settings: &StreamSettings, viewers: &[Viewer]) -> usize {
    viewers
        .iter()
        .map(|v| with_apron(v.view_distance + settings.hysteresis).len())
        .sum()
}

/// One point the world streams around: a camera or a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewer {
    /// The chunk the viewer is in.
    pub chunk: ChunkPos,
    /// Radius in chunks of the disc kept loaded around it.
    pub view_distance: u32,
}

/// The offsets of the disc of radius `r` around the origin, nearest first (ties by z, then
/// x, so the order is fixed).
#[cfg(test)]
fn disc(r: u32) -> Vec<(i32, i32)> {
    let r = r as i32;
    let mut v: Vec<(i32, i32)> = (-r..=r)
        .flat_map(|dz| (-r..=r).map(move |dx| (dx, dz)))
        .filter(|&(dx, dz)| dx * dx + dz * dz <= r * r)
        .collect();
    v.sort_by_key(|&(dx, dz)| (dx * dx + dz * dz, dz, dx));
    v
}

/// The disc of radius `r` and the ring of chunks touching it (its 3 × 3 dilation), nearest
/// first: what is requested so that every chunk of the disc has its eight neighbours and is
/// meshed once, with its final neighbourhood.
fn with_apron(r: u32) -> Vec<(i32, i32)> {
    let r = r as i32 + 1;
    let mut v: Vec<(i32, i32)> = (-r..=r)
        .flat_map(|dz| (-r..=r).map(move |dx| (dx, dz)))
        .filter(|&(dx, dz)| touches(dx, dz, r - 1))
        .collect();
    v.sort_by_key(|&(dx, dz)| (dx * dx + dz * dz, dz, dx));
    v
}

/// Whether offset (dx, dz) or one of its eight neighbours lies within radius `r`.
fn touches(dx: i32, dz: i32, r: i32) -> bool {
    let near = |d: i32| (d.abs() - 1).max(0) as i64;
    let (x, z) = (near(dx), near(dz));
    x * x + z * z <= i64::from(r) * i64::from(r)
}

/// What one frame of the policy changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamChanges {
    /// Chunks requested this frame, nearest to a viewer first.
    pub requested: Vec<ChunkPos>,
    /// Chunks released this frame (beyond every viewer's hysteresis ring), in position order.
    pub released: Vec<ChunkPos>,
}

/// The chunks held for the viewers: one ticket (to `full`) per chunk.
pub struct Streamer {
    settings: StreamSettings,
    /// View discs by radius, nearest first.
    discs: BTreeMap<u32, Vec<(i32, i32)>>,
    tickets: BTreeMap<ChunkPos, Ticket>,
    /// The viewers' chunks at the last update (the scheduler's focus points).
    focus: Vec<ChunkPos>,
}

impl Streamer {
    /// A streamer holding nothing yet.
    pub fn new(settings: StreamSettings) -> Streamer {
        Streamer {
            settings,
            discs: BTreeMap::new(),
            tickets: BTreeMap::new(),
            focus: Vec::new(),
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

    /// Whether `p` holds a ticket.
    pub fn holds(&self, p: ChunkPos) -> bool {
        self.tickets.contains_key(&p)
    }

    /// Number of chunks holding a ticket.
    pub fn held_count(&self) -> usize {
        self.tickets.len()
    }

    /// One frame with `viewers`: release what lies beyond every viewer's hysteresis ring,
    /// point the scheduler's order at the viewers' chunks when one of them changed chunk,
    /// then request up to the per-frame budget of the chunks in view that hold no ticket,
    /// nearest to a viewer first. Owner thread (it calls the scheduler). Positions out of the
    /// world's range are skipped, never requested.
    pub fn update<P: Pipeline>(
        &mut self,
        sched: &mut Scheduler<P>,
        viewers: &[Viewer],
    ) -> Result<StreamChanges, SchedulerError> {
        let mut changes = StreamChanges::default();
        let h = i64::from(self.settings.hysteresis);
        let kept = |p: ChunkPos| {
            viewers.iter().any(|v| {
                let keep = i64::from(v.view_distance) + h;
                let (dx, dz) = (
                    i64::from(p.x) - i64::from(v.chunk.x),
                    i64::from(p.z) - i64::from(v.chunk.z),
                );
                let near = |d: i64| (d.abs() - 1).max(0);
                near(dx) * near(dx) + near(dz) * near(dz) <= keep * keep
            })
        };
        let far: Vec<ChunkPos> = self
            .tickets
            .keys()
            .filter(|p| !kept(**p))
            .copied()
            .collect();
        for p in far {
            if let Some(t) = self.tickets.remove(&p) {
                sched.release(t)?;
                changes.released.push(p);
            }
        }
        let focus: Vec<ChunkPos> = viewers.iter().map(|v| v.chunk).collect();
        if focus != self.focus {
            sched.set_focus(&focus);
            self.focus = focus;
        }
        // The nearest missing chunks of every viewer's disc, merged by distance.
        let budget = self.settings.max_requests_per_frame;
        let mut wanted: BTreeSet<(i64, i32, i32)> = BTreeSet::new();
        for v in viewers {
            let disc = self
                .discs
                .entry(v.view_distance)
                .or_insert_with(|| with_apron(v.view_distance));
            let mut found = 0;
            for &(dx, dz) in disc.iter() {
                if found >= budget {
                    break;
                }
                let p = match (v.chunk.x.checked_add(dx), v.chunk.z.checked_add(dz)) {
                    (Some(x), Some(z)) => ChunkPos::new(x, z),
                    _ => continue,
                };
                if self.tickets.contains_key(&p) || !p.is_valid() {
                    continue;
                }
                let d = i64::from(dx) * i64::from(dx) + i64::from(dz) * i64::from(dz);
                wanted.insert((d, p.z, p.x));
                found += 1;
            }
        }
        for (d, z, x) in wanted {
            if changes.requested.len() >= budget {
                break;
            }
            let p = ChunkPos::new(x, z);
            if self.tickets.contains_key(&p) {
                continue;
            }
            // A viewer's own chunk first of all; the rest by their distance (the focus).
            let priority = if d == 0 {
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

    #[test]
    fn the_apron_is_the_disc_dilated_by_one_chunk() {
        for r in [0u32, 1, 4, 12] {
            let d = disc(r);
            let a = with_apron(r);
            let dilated: std::collections::BTreeSet<(i32, i32)> = d
                .iter()
                .flat_map(|&(x, z)| {
                    (-1..=1).flat_map(move |dz| (-1..=1).map(move |dx| (x + dx, z + dz)))
                })
                .collect();
            let ours: std::collections::BTreeSet<(i32, i32)> = a.iter().copied().collect();
            assert_eq!(ours, dilated, "radius {r}");
            assert_eq!(a.len(), ours.len());
        }
        assert_eq!(with_apron(0).len(), 9);
    }
}
