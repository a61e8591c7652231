//! Chunk holders: one per chunk position, one output slot per status, plus the bookkeeping
//! the scheduler keeps per chunk. Stored in a sparse grid of 16 × 16-chunk regions so a
//! neighbourhood scan is a handful of map lookups.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;

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
    /// Snapshot of the completed outputs: filled in place while no task holds it, replaced
    /// (never changed under a reader) while one does.
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

/// The outputs of the *wide* statuses (those some status reads at distance 2 or more: here
/// `empty` and `structure_starts`, read at radius 8) of one region, indexed
/// `status * 256 + local`. A task whose window is wide shares the (at most 2 × 2) layers it
/// spans instead of holding one reference per chunk: 4 reference counts instead of 289.
pub struct Layer<O> {
    out: Vec<Option<Arc<O>>>,
    count: usize,
}

impl<O> Clone for Layer<O> {
    fn clone(&self) -> Self {
        Layer {
            out: self.out.clone(),
            count: self.count,
        }
    }
}

impl<O> Layer<O> {
    /// The output of wide status `status` at `p` (which must lie in this layer's region).
    pub(crate) fn get(&self, p: ChunkPos, status: usize) -> Option<&Arc<O>> {
        let (_, i) = split(p);
        self.out
            .get(status * REGION * REGION + i)
            .and_then(|o| o.as_ref())
    }
}

/// The layers of every region holding a holder. Copy-on-write: a layer some task still
/// holds is cloned before it is changed, so a task's inputs never change under it.
pub(crate) struct Layers<O> {
    map: BTreeMap<(i32, i32), Arc<Layer<O>>>,
    /// Number of wide statuses (they are statuses `0..wide`).
    wide: usize,
    /// The ring requirement counted per chunk, `(status, radius)`: instead of a counter per
    /// waiting holder, decremented by a scan of (2r + 1)² holders per completion, every chunk
    /// position keeps how many chunks around it have reached `status`, in compact per-region
    /// arrays that a completion updates in a few cache lines.
    ring: Option<(ChunkStatus, i32)>,
    /// Per region: the ring count of each chunk and how many of them are nonzero.
    counts: BTreeMap<(i32, i32), Box<RingCounts>>,
}

type RingCounts = ([u16; REGION * REGION], usize);

impl<O> Layers<O> {
    pub fn new(wide: usize, ring: Option<(ChunkStatus, i32)>) -> Self {
        Layers {
            map: BTreeMap::new(),
            wide,
            ring,
            counts: BTreeMap::new(),
        }
    }

    /// Whether `status` is kept in layers.
    pub fn is_wide(&self, status: ChunkStatus) -> bool {
        status.index() < self.wide
    }

    /// Record the output of wide status `status` at `p`. Chunks whose ring just became
    /// complete are pushed to `completed`.
    pub fn set(
        &mut self,
        p: ChunkPos,
        status: ChunkStatus,
        out: Arc<O>,
        completed: &mut Vec<ChunkPos>,
    ) {
        let (k, i) = split(p);
        let n = self.wide * REGION * REGION;
        let layer = self.map.entry(k).or_insert_with(|| {
            Arc::new(Layer {
                out: (0..n).map(|_| None).collect(),
                count: 0,
            })
        });
        let layer = Arc::make_mut(layer);
        let slot = &mut layer.out[status.index() * REGION * REGION + i];
        let fresh = slot.is_none();
        if fresh {
            layer.count += 1;
        }
        *slot = Some(out);
        if fresh && self.ring.map_or(false, |(x, _)| x == status) {
            self.add_ring(p, 1, completed);
        }
    }

    /// Forget every wide output at `p` (its holder was dropped).
    pub fn clear(&mut self, p: ChunkPos) {
        let (k, i) = split(p);
        let layer = match self.map.get_mut(&k) {
            Some(l) => l,
            None => return,
        };
        if (0..self.wide).all(|s| layer.out[s * REGION * REGION + i].is_none()) {
            return;
        }
        let layer_mut = Arc::make_mut(layer);
        let mut had_ring = false;
        for s in 0..self.wide {
            if layer_mut.out[s * REGION * REGION + i].take().is_some() {
                layer_mut.count -= 1;
                had_ring |= self.ring.map_or(false, |(x, _)| x.index() == s);
            }
        }
        if layer_mut.count == 0 {
            self.map.remove(&k);
        }
        if had_ring {
            self.add_ring(p, -1, &mut Vec::new());
        }
    }

    /// Add `delta` to the ring count of every chunk within the ring radius of `p`.
    fn add_ring(&mut self, p: ChunkPos, delta: i32, completed: &mut Vec<ChunkPos>) {
        let (r, full) = match self.ring {
            Some((_, r)) => (r, ((2 * r + 1) * (2 * r + 1)) as u16),
            None => return,
        };
        for z in p.z - r..=p.z + r {
            let lz = (z & (REGION as i32 - 1)) as usize * REGION;
            let mut x = p.x - r;
            while x <= p.x + r {
                let end = core::cmp::min(p.x + r, x | (REGION as i32 - 1));
                let key = (x >> REGION_SHIFT, z >> REGION_SHIFT);
                let c = self
                    .counts
                    .entry(key)
                    .or_insert_with(|| Box::new(([0; REGION * REGION], 0)));
                for xx in x..=end {
                    let v = &mut c.0[lz + (xx & (REGION as i32 - 1)) as usize];
                    let was = *v;
                    *v = (i32::from(*v) + delta) as u16;
                    c.1 = c.1 + usize::from(was == 0) - usize::from(*v == 0);
                    if *v == full {
                        completed.push(ChunkPos::new(xx, z));
                    }
                }
                if c.1 == 0 {
                    self.counts.remove(&key);
                }
                x = end + 1;
            }
        }
    }

    /// The ring count of a chunk whose whole ring is done.
    pub fn ring_full(&self) -> u32 {
        self.ring
            .map_or(0, |(_, r)| ((2 * r + 1) * (2 * r + 1)) as u32)
    }

    /// How many chunks within the ring radius of `q` have reached the ring status.
    pub fn ring_count(&self, q: ChunkPos) -> u32 {
        let (k, i) = split(q);
        self.counts.get(&k).map_or(0, |c| u32::from(c.0[i]))
    }

    /// The layers covering the square of radius `r` around `q`, row-major from the region
    /// of `(q.x - r, q.z - r)`, and that region's key.
    pub fn window(&self, q: ChunkPos, r: i32) -> LayerWindow<O> {
        let k0 = ((q.x - r) >> REGION_SHIFT, (q.z - r) >> REGION_SHIFT);
        let k1 = ((q.x + r) >> REGION_SHIFT, (q.z + r) >> REGION_SHIFT);
        let mut layers = Vec::with_capacity(((k1.0 - k0.0 + 1) * (k1.1 - k0.1 + 1)) as usize);
        for kz in k0.1..=k1.1 {
            for kx in k0.0..=k1.0 {
                layers.push(self.map.get(&(kx, kz)).cloned());
            }
        }
        LayerWindow {
            origin: k0,
            width: k1.0 - k0.0 + 1,
            layers,
        }
    }
}

/// The layers a task shares (see [`Layers::window`]).
pub struct LayerWindow<O> {
    origin: (i32, i32),
    width: i32,
    layers: Vec<Option<Arc<Layer<O>>>>,
}

impl<O> LayerWindow<O> {
    pub(crate) fn empty() -> Self {
        LayerWindow {
            origin: (0, 0),
            width: 0,
            layers: Vec::new(),
        }
    }

    /// The output of wide status `status` at `p`, if the window covers `p` and it is done.
    pub(crate) fn get(&self, p: ChunkPos, status: usize) -> Option<&Arc<O>> {
        let (kx, kz) = (
            (p.x >> REGION_SHIFT) - self.origin.0,
            (p.z >> REGION_SHIFT) - self.origin.1,
        );
        if kx < 0 || kz < 0 || kx >= self.width {
            return None;
        }
        self.layers
            .get((kz * self.width + kx) as usize)
            .and_then(|l| l.as_ref())
            .and_then(|l| l.get(p, status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Xoroshiro128PlusPlus;
    use alloc::collections::btree_map::Entry;

    /// Ring counts and layer reads against a brute-force set, through sets and clears that
    /// cross region borders on both sides of zero, with a task-held snapshot left unchanged.
    #[test]
    fn layers_match_brute_force() {
        let ring = (ChunkStatus::StructureStarts, 3);
        let mut layers: Layers<u32> = Layers::new(2, Some(ring));
        let mut done = BTreeMap::new();
        let mut rng = Xoroshiro128PlusPlus::from_seed(7);
        let pick = |rng: &mut Xoroshiro128PlusPlus| rng.next_long().rem_euclid(40) as i32 - 20;
        let mut snapshot = None;
        for step in 0..4000u32 {
            if step == 2000 {
                snapshot = Some((layers.window(ChunkPos::new(0, 0), 8), done.clone()));
            }
            let p = ChunkPos::new(pick(&mut rng), pick(&mut rng));
            let mut completed = Vec::new();
            match done.entry(p) {
                Entry::Occupied(e) if step % 3 == 0 => {
                    layers.clear(p);
                    e.remove();
                }
                Entry::Occupied(_) => {}
                Entry::Vacant(e) => {
                    let out = Arc::new(step);
                    layers.set(p, ChunkStatus::StructureStarts, out, &mut completed);
                    e.insert(step);
                }
            }
            let q = ChunkPos::new(pick(&mut rng), pick(&mut rng));
            let brute = (-3..=3)
                .flat_map(|dz| (-3..=3).map(move |dx| (dx, dz)))
                .filter(|&(dx, dz)| done.contains_key(&q.offset(dx, dz)))
                .count() as u32;
            assert_eq!(layers.ring_count(q), brute, "step {} at {:?}", step, q);
            for c in completed {
                assert_eq!(layers.ring_count(c), layers.ring_full());
            }
            let w = layers.window(q, 8);
            for (dz, dx) in [(-8, -8), (0, 0), (8, 3), (-5, 8)] {
                let r = q.offset(dx, dz);
                let got = w.get(r, ChunkStatus::StructureStarts.index()).map(|a| **a);
                assert_eq!(got, done.get(&r).copied());
            }
        }
        // A window taken midway still shows what was done then.
        let (w, then) = snapshot.unwrap();
        for dz in -8..=8 {
            for dx in -8..=8 {
                let p = ChunkPos::new(dx, dz);
                assert_eq!(w.get(p, 1).map(|a| **a), then.get(&p).copied());
            }
        }
        for p in done.keys().copied().collect::<Vec<_>>() {
            layers.clear(p);
        }
        assert!(layers.map.is_empty() && layers.counts.is_empty());
    }
}
