//! Region layers: the outputs of the *wide* statuses kept per 16 × 16-chunk region, shared
//! copy-on-write by tasks with wide windows, and the per-position ring counts.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::chunk_map::{split, RegionKey, REGION, REGION_CHUNKS, REGION_SHIFT};
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::plan::Ring;

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
            .get(status * REGION_CHUNKS + i)
            .and_then(|o| o.as_ref())
    }
}

/// The layers of every region holding a holder. Copy-on-write: a layer some task still
/// holds is cloned before it is changed, so a task's inputs never change under it.
pub(crate) struct Layers<O> {
    map: BTreeMap<RegionKey, Arc<Layer<O>>>,
    /// Number of wide statuses (they are statuses `0..wide`).
    wide: usize,
    /// The ring requirement counted per chunk, `(status, radius)`: instead of a counter per
    /// waiting holder, decremented by a scan of (2r + 1)² holders per completion, every chunk
    /// position keeps how many chunks around it have reached `status`, in compact per-region
    /// arrays that a completion updates in a few cache lines.
    ring: Option<Ring>,
    /// Per region: the ring count of each chunk.
    counts: BTreeMap<RegionKey, Box<RingCounts>>,
}

/// The ring counts of one region's chunks.
struct RingCounts {
    /// Per chunk (region-local index): chunks within the ring radius that reached the ring
    /// status.
    count: [u16; REGION_CHUNKS],
    /// How many entries of `count` are nonzero (the region's entry is dropped at zero).
    nonzero: usize,
}

impl<O> Layers<O> {
    pub fn new(wide: usize, ring: Option<Ring>) -> Self {
        Layers {
            map: BTreeMap::new(),
            wide,
            ring,
            counts: BTreeMap::new(),
        }
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
        let n = self.wide * REGION_CHUNKS;
        let layer = self.map.entry(k).or_insert_with(|| {
            Arc::new(Layer {
                out: (0..n).map(|_| None).collect(),
                count: 0,
            })
        });
        let layer = Arc::make_mut(layer);
        let slot = &mut layer.out[status.index() * REGION_CHUNKS + i];
        let fresh = slot.is_none();
        if fresh {
            layer.count += 1;
        }
        *slot = Some(out);
        if fresh && self.ring.map_or(false, |r| r.status == status) {
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
        if (0..self.wide).all(|s| layer.out[s * REGION_CHUNKS + i].is_none()) {
            return;
        }
        let layer_mut = Arc::make_mut(layer);
        let mut had_ring = false;
        for s in 0..self.wide {
            if layer_mut.out[s * REGION_CHUNKS + i].take().is_some() {
                layer_mut.count -= 1;
                had_ring |= self.ring.map_or(false, |r| r.status.index() == s);
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
            Some(ring) => (ring.radius, ring.full_count() as u16),
            None => return,
        };
        for z in p.z - r..=p.z + r {
            let lz = (z & (REGION as i32 - 1)) as usize * REGION;
            let mut x = p.x - r;
            while x <= p.x + r {
                let end = core::cmp::min(p.x + r, x | (REGION as i32 - 1));
                let key = (x >> REGION_SHIFT, z >> REGION_SHIFT);
                let c = self.counts.entry(key).or_insert_with(|| {
                    Box::new(RingCounts {
                        count: [0; REGION_CHUNKS],
                        nonzero: 0,
                    })
                });
                for xx in x..=end {
                    let v = &mut c.count[lz + (xx & (REGION as i32 - 1)) as usize];
                    let was = *v;
                    *v = (i32::from(*v) + delta) as u16;
                    c.nonzero = c.nonzero + usize::from(was == 0) - usize::from(*v == 0);
                    if *v == full {
                        completed.push(ChunkPos::new(xx, z));
                    }
                }
                if c.nonzero == 0 {
                    self.counts.remove(&key);
                }
                x = end + 1;
            }
        }
    }

    /// How many chunks within the ring radius of `q` have reached the ring status.
    pub fn ring_count(&self, q: ChunkPos) -> u32 {
        let (k, i) = split(q);
        self.counts.get(&k).map_or(0, |c| u32::from(c.count[i]))
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

/// The layers a task shares (see `Layers::window`).
pub struct LayerWindow<O> {
    origin: RegionKey,
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
    use crate::util::random::Xoroshiro128PlusPlus;
    use alloc::collections::btree_map::Entry;

    /// Ring counts and layer reads against a brute-force set, through sets and clears that
    /// cross region borders on both sides of zero, with a task-held snapshot left unchanged.
    #[test]
    fn layers_match_brute_force() {
        let ring = Ring {
            status: ChunkStatus::StructureStarts,
            radius: 3,
        };
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
                assert_eq!(layers.ring_count(c), ring.full_count());
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
