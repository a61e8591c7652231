//! A sparse map from chunk positions to values, stored in regions of 16 × 16 chunks so a
//! neighbourhood scan is a handful of map lookups.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;

use crate::engine::ladder::ChunkPos;

/// log2 of a region's side in chunks.
pub(crate) const REGION_SHIFT: i32 = 4;
/// A region's side in chunks.
pub(crate) const REGION: usize = 1 << REGION_SHIFT;
/// Chunks per region.
pub(crate) const REGION_CHUNKS: usize = REGION * REGION;

/// A region's coordinates (chunk coordinates shifted right by [`REGION_SHIFT`]).
pub(crate) type RegionKey = (i32, i32);

struct Region<T> {
    slots: [Option<T>; REGION * REGION],
    count: usize,
}

/// A sparse map from chunk positions to values, in regions of 16 × 16 chunks.
pub(crate) struct ChunkMap<T> {
    regions: BTreeMap<RegionKey, Box<Region<T>>>,
    len: usize,
}

/// The region of `p` and `p`'s index inside it (row-major by z, then x).
pub(crate) fn split(p: ChunkPos) -> (RegionKey, usize) {
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

    /// Every position with a value, by region, then row-major inside the region.
    pub fn positions(&self) -> alloc::vec::Vec<ChunkPos> {
        let mut v = alloc::vec::Vec::with_capacity(self.len);
        for (&(kx, kz), r) in &self.regions {
            for (i, slot) in r.slots.iter().enumerate() {
                if slot.is_some() {
                    v.push(ChunkPos::new(
                        (kx << REGION_SHIFT) + (i % REGION) as i32,
                        (kz << REGION_SHIFT) + (i / REGION) as i32,
                    ));
                }
            }
        }
        v
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
