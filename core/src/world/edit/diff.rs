//! [`ChunkEdits`]: one chunk's edits as a sorted diff over its generated blocks.
//!
//! The diff is a vector of (block index, block) sorted by index, one entry per edited
//! position, plus a short unsorted tail of the newest edits. Appending to the tail keeps an
//! edit O(1) whatever the diff's size; the tail is merged into the sorted part (the newer
//! entry winning) when it reaches a fraction of it, so the merge costs O(1) per edit amortised.
//! Every entry is kept, even one that sets the generated block: the diff is then a function of
//! the edits alone, whether or not the chunk was generated when they were made.

use alloc::vec::Vec;

use crate::world::block::BlockId;

/// Fewest tail entries before a merge.
const MIN_TAIL: usize = 32;
/// A merge happens once the tail holds more than `1 / TAIL_SHARE` of the sorted entries.
const TAIL_SHARE: usize = 8;

/// One chunk's edits: the block each edited position holds, by block index
/// `((y - min_y) * 16 + z) * 16 + x`.
#[derive(Clone, Debug, Default)]
pub struct ChunkEdits {
    /// Sorted by index, one entry per index.
    sorted: Vec<(u32, BlockId)>,
    /// The newest edits in the order they were made.
    tail: Vec<(u32, BlockId)>,
}

impl ChunkEdits {
    /// No edits.
    pub fn new() -> ChunkEdits {
        ChunkEdits::default()
    }

    /// Set block index `index` to `block`; a later edit of the same index replaces it.
    pub fn set(&mut self, index: u32, block: BlockId) {
        self.tail.push((index, block));
        if self.tail.len() > core::cmp::max(MIN_TAIL, self.sorted.len() / TAIL_SHARE) {
            self.merge();
        }
    }

    /// The block edited at `index`, if any.
    pub fn get(&self, index: u32) -> Option<BlockId> {
        if let Some(&(_, b)) = self.tail.iter().rev().find(|e| e.0 == index) {
            return Some(b);
        }
        self.sorted
            .binary_search_by_key(&index, |e| e.0)
            .ok()
            .map(|k| self.sorted[k].1)
    }

    /// Number of edited positions.
    pub fn len(&mut self) -> usize {
        self.merge();
        self.sorted.len()
    }

    /// Whether no position is edited.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty() && self.tail.is_empty()
    }

    /// The edits, sorted by index, one per index.
    pub fn entries(&mut self) -> &[(u32, BlockId)] {
        self.merge();
        &self.sorted
    }

    /// Write the edits over `blocks` (a chunk's blocks); indices beyond it are ignored (the
    /// layer validates them on entry).
    pub fn apply(&mut self, blocks: &mut [BlockId]) {
        for &(i, b) in self.entries() {
            if let Some(slot) = blocks.get_mut(i as usize) {
                *slot = b;
            }
        }
    }

    /// Fold the tail into the sorted entries: the tail sorted by index (stable, so the newest
    /// of equal indices comes last and is kept), then merged with the newer side winning.
    fn merge(&mut self) {
        if self.tail.is_empty() {
            return;
        }
        let mut tail = core::mem::take(&mut self.tail);
        tail.sort_by_key(|e| e.0);
        tail.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                *earlier = *later;
                true
            } else {
                false
            }
        });
        let old = core::mem::take(&mut self.sorted);
        let mut merged = Vec::with_capacity(old.len() + tail.len());
        let (mut a, mut b) = (old.iter().peekable(), tail.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if x.0 < y.0 => a.next(),
                (Some(x), Some(y)) if x.0 == y.0 => {
                    a.next();
                    b.next()
                }
                (_, Some(_)) => b.next(),
                (Some(_), None) => a.next(),
                (None, None) => break,
            };
            if let Some(&e) = next {
                merged.push(e);
            }
        }
        self.sorted = merged;
        tail.clear();
        self.tail = tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::Xoroshiro128PlusPlus;
    use alloc::collections::BTreeMap;

    /// Random edits into a few hundred positions, compared after every step with a map that
    /// keeps the last value per position (the definition of "later wins").
    #[test]
    fn agrees_with_a_map_of_last_values() {
        let mut rng = Xoroshiro128PlusPlus::from_seed(7);
        let mut edits = ChunkEdits::new();
        let mut model = BTreeMap::new();
        for step in 0..5000 {
            let i = (rng.next_u64() % 600) as u32;
            let b = (rng.next_u64() % 40) as BlockId;
            edits.set(i, b);
            model.insert(i, b);
            let probe = (rng.next_u64() % 600) as u32;
            assert_eq!(edits.get(probe), model.get(&probe).copied(), "step {step}");
            if step % 997 == 0 {
                let want: Vec<_> = model.iter().map(|(&i, &b)| (i, b)).collect();
                assert_eq!(edits.entries(), &want[..]);
            }
        }
        let want: Vec<_> = model.iter().map(|(&i, &b)| (i, b)).collect();
        assert_eq!(edits.entries(), &want[..]);
        assert_eq!(edits.len(), model.len());
    }

    #[test]
    fn apply_writes_the_edited_positions_only() {
        let mut edits = ChunkEdits::new();
        edits.set(3, 9);
        edits.set(1, 4);
        edits.set(3, 2);
        edits.set(50, 1);
        let mut blocks = [7 as BlockId; 8];
        edits.apply(&mut blocks);
        assert_eq!(blocks, [7, 4, 7, 2, 7, 7, 7, 7]);
    }
}
