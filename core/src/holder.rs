//! Chunk holders: one per chunk position, one output slot per status, plus the bookkeeping
//! the scheduler keeps per chunk. Stored in a sparse grid of 16 × 16-chunk regions so a
//! neighbourhood scan is a handful of map lookups.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;

use crate::ladder::{ChunkPos, ChunkStatus};
use crate::step_table::MAX_RADIUS;

/// The completed outputs of one chunk, shared read-only by every task that reads them.
#[derive(Debug)]
pub struct Slots<O> {
    pub(crate) out: [Option<Arc<O>>; ChunkStatus::COUNT],
}

impl<O> Slots<O> {
    pub(crate) fn empty() -> Self {
        Slots {
            out: Default::default(),
        }
    }

    /// The output of `status`, if complete.
    pub fn get(&self, status: ChunkStatus) -> Option<&Arc<O>> {
        self.out[status.index()].as_ref()
    }
}

/// Number of request priorities.
pub(crate) const PRIORITIES: usize = 3;

/// Order of a ready task: priority, then distance to the nearest request of that priority.
pub(crate) type ReadyKey = (u8, u32);

pub(crate) struct Holder<O> {
    /// Distinguishes this holder from an earlier one at the same position, so a task taken
    /// before a release cannot land in a holder created after it.
    pub gen: u64,
    /// Statuses completed: 0 = none, 10 = full.
    pub done: u8,
    /// Snapshot of the completed outputs (replaced, never mutated, when a status completes).
    pub slots: Arc<Slots<O>>,
    /// Tickets needing this chunk at each level.
    pub need: [u32; ChunkStatus::COUNT],
    /// Tickets covering this chunk, per priority and distance.
    pub cover: [[u32; MAX_RADIUS + 1]; PRIORITIES],
    /// Unmet direct requirements of the next status (valid while `active`).
    pub missing: u32,
    /// Whether the next status is wanted and waiting (not in flight, not failed).
    pub active: bool,
    pub in_flight: bool,
    pub failed: bool,
    pub ready_key: Option<ReadyKey>,
}

impl<O> Holder<O> {
    pub fn new(gen: u64) -> Self {
        Holder {
            gen,
            done: 0,
            slots: Arc::new(Slots::empty()),
            need: [0; ChunkStatus::COUNT],
            cover: [[0; MAX_RADIUS + 1]; PRIORITIES],
            missing: 0,
            active: false,
            in_flight: false,
            failed: false,
            ready_key: None,
        }
    }

    /// The highest status some ticket needs here.
    pub fn need_level(&self) -> Option<ChunkStatus> {
        self.need
            .iter()
            .rposition(|&n| n > 0)
            .and_then(ChunkStatus::from_index)
    }

    /// The next status to run, if any remains.
    pub fn next(&self) -> Option<ChunkStatus> {
        ChunkStatus::from_index(self.done as usize)
    }

    /// The highest completed status.
    pub fn status(&self) -> Option<ChunkStatus> {
        (self.done as usize)
            .checked_sub(1)
            .and_then(ChunkStatus::from_index)
    }

    pub fn has_reached(&self, s: ChunkStatus) -> bool {
        self.done as usize > s.index()
    }

    /// Whether the next status should run.
    pub fn wants_next(&self) -> bool {
        match self.next() {
            Some(n) => !self.in_flight && !self.failed && self.need_level() >= Some(n),
            None => false,
        }
    }

    pub fn key(&self) -> ReadyKey {
        for (p, dists) in self.cover.iter().enumerate() {
            if let Some(d) = dists.iter().position(|&c| c > 0) {
                return (p as u8, d as u32);
            }
        }
        (PRIORITIES as u8, 0)
    }

    pub fn unneeded(&self) -> bool {
        self.need.iter().all(|&n| n == 0)
    }
}

const REGION_SHIFT: i32 = 4;
const REGION: usize = 1 << REGION_SHIFT;

struct Region<T> {
    slots: [Option<T>; REGION * REGION],
    count: usize,
}

/// A sparse map from chunk positions to values, in regions of 16 × 16 chunks.
pub(crate) struct ChunkMap<T> {
    regions: BTreeMap<(i32, i32), Box<Region<T>>>,
    len: usize,
}

fn split(p: ChunkPos) -> ((i32, i32), usize) {
    let key = (p.x >> REGION_SHIFT, p.z >> REGION_SHIFT);
    let lx = (p.x & (REGION as i32 - 1)) as usize;
    let lz = (p.z & (REGION as i32 - 1)) as usize;
    (key, lz * REGION + lx)
}

impl<T> ChunkMap<T> {
    pub fn new() -> Self {
        ChunkMap {
            regions: BTreeMap::new(),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn get(&self, p: ChunkPos) -> Option<&T> {
        let (k, i) = split(p);
        self.regions.get(&k).and_then(|r| r.slots[i].as_ref())
    }

    pub fn get_mut(&mut self, p: ChunkPos) -> Option<&mut T> {
        let (k, i) = split(p);
        self.regions.get_mut(&k).and_then(|r| r.slots[i].as_mut())
    }

    /// Call `f(x, value)` for `x` in `x0..=x1` on row `z`, with one region lookup per 16 cells.
    pub fn row(&self, z: i32, x0: i32, x1: i32, mut f: impl FnMut(i32, Option<&T>)) {
        let lz = (z & (REGION as i32 - 1)) as usize * REGION;
        let mut x = x0;
        while x <= x1 {
            let region = self.regions.get(&(x >> REGION_SHIFT, z >> REGION_SHIFT));
            let end = core::cmp::min(x1, x | (REGION as i32 - 1));
            for xx in x..=end {
                let i = lz + (xx & (REGION as i32 - 1)) as usize;
                f(xx, region.and_then(|r| r.slots[i].as_ref()));
            }
            x = end + 1;
        }
    }

    /// Call `f(x, value)` for `x` in `x0..=x1` on row `z`, inserting `make(x)` where empty.
    pub fn row_insert(
        &mut self,
        z: i32,
        x0: i32,
        x1: i32,
        mut make: impl FnMut(i32) -> T,
        mut f: impl FnMut(i32, &mut T),
    ) {
        let lz = (z & (REGION as i32 - 1)) as usize * REGION;
        let mut x = x0;
        while x <= x1 {
            let end = core::cmp::min(x1, x | (REGION as i32 - 1));
            let r = self
                .regions
                .entry((x >> REGION_SHIFT, z >> REGION_SHIFT))
                .or_insert_with(|| {
                    Box::new(Region {
                        slots: [(); REGION * REGION].map(|_| None),
                        count: 0,
                    })
                });
            for xx in x..=end {
                let slot = &mut r.slots[lz + (xx & (REGION as i32 - 1)) as usize];
                if slot.is_none() {
                    r.count += 1;
                    self.len += 1;
                }
                f(xx, slot.get_or_insert_with(|| make(xx)));
            }
            x = end + 1;
        }
    }

    /// [`ChunkMap::row`] with mutable access to the present values.
    pub fn row_mut(&mut self, z: i32, x0: i32, x1: i32, mut f: impl FnMut(i32, &mut T)) {
        let lz = (z & (REGION as i32 - 1)) as usize * REGION;
        let mut x = x0;
        while x <= x1 {
            let end = core::cmp::min(x1, x | (REGION as i32 - 1));
            if let Some(r) = self
                .regions
                .get_mut(&(x >> REGION_SHIFT, z >> REGION_SHIFT))
            {
                for xx in x..=end {
                    let i = lz + (xx & (REGION as i32 - 1)) as usize;
                    if let Some(v) = r.slots[i].as_mut() {
                        f(xx, v);
                    }
                }
            }
            x = end + 1;
        }
    }

    pub fn remove(&mut self, p: ChunkPos) -> Option<T> {
        let (k, i) = split(p);
        let r = self.regions.get_mut(&k)?;
        let v = r.slots[i].take()?;
        r.count -= 1;
        self.len -= 1;
        if r.count == 0 {
            self.regions.remove(&k);
        }
        Some(v)
    }
}
