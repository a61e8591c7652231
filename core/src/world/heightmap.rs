//! The four heightmaps of a merged chunk ([`Heightmap`] names them, [`Heightmaps`] holds them),
//! as in Minecraft: each column's `y + 1` of the top block of a kind, `min_y` if none.

use core::ops::Index;

use crate::world::block::{self, BlockId, BlockProps};
use crate::world::dims::Dims;
use crate::world::palette::Palette;
use crate::world::terrain::heightmaps_by;

/// A heightmap kind. The numbers are the C API's `sg_heightmap` values and the order in which
/// digests feed the maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
pub enum Heightmap {
    /// Top non-air block.
    WorldSurface = 0,
    /// Top solid block.
    OceanFloor = 1,
    /// Top block that blocks motion (solid or liquid).
    MotionBlocking = 2,
    /// [`Heightmap::MotionBlocking`] ignoring leaves.
    MotionBlockingNoLeaves = 3,
}

impl Heightmap {
    /// Every kind, in number order.
    pub const ALL: [Heightmap; 4] = [
        Heightmap::WorldSurface,
        Heightmap::OceanFloor,
        Heightmap::MotionBlocking,
        Heightmap::MotionBlockingNoLeaves,
    ];

    /// The kind with this number.
    pub fn from_index(i: usize) -> Option<Heightmap> {
        Self::ALL.get(i).copied()
    }

    /// Whether block `b` of `palette` counts for this kind.
    pub fn counts(self, palette: &Palette, b: BlockId) -> bool {
        self.counts_with(b, palette.props(b))
    }

    /// Whether block `b` counts for each kind, in [`Heightmap::ALL`] order (its properties
    /// looked up once).
    pub fn counts_all(palette: &Palette, b: BlockId) -> [bool; 4] {
        let p = palette.props(b);
        Heightmap::ALL.map(|k| k.counts_with(b, p))
    }

    /// [`Heightmap::counts`] with the block's properties already looked up.
    pub(crate) fn counts_with(self, b: BlockId, p: &BlockProps) -> bool {
        match self {
            Heightmap::WorldSurface => b != block::AIR,
            Heightmap::OceanFloor => p.solid,
            Heightmap::MotionBlocking => p.solid || p.liquid,
            Heightmap::MotionBlockingNoLeaves => (p.solid && !p.leaves) || p.liquid,
        }
    }
}

/// The four heightmaps of a chunk, per column (index `z * 16 + x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heightmaps {
    maps: [[i32; 256]; 4],
}

impl Heightmaps {
    /// Every heightmap of `blocks` (ids of `palette`), in one scan from the top.
    pub fn of(dims: &Dims, palette: &Palette, blocks: &[BlockId]) -> Heightmaps {
        Heightmaps {
            maps: heightmaps_by(dims, blocks, |b| Heightmap::counts_all(palette, b)),
        }
    }

    /// Every column at `y` (`min_y` means "no block of that kind").
    pub const fn filled(y: i32) -> Heightmaps {
        Heightmaps {
            maps: [[y; 256]; 4],
        }
    }

    /// The maps in [`Heightmap::ALL`] order.
    pub fn iter(&self) -> core::slice::Iter<'_, [i32; 256]> {
        self.maps.iter()
    }
}

impl Index<Heightmap> for Heightmaps {
    type Output = [i32; 256];

    fn index(&self, kind: Heightmap) -> &[i32; 256] {
        &self.maps[kind as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// A hand-built column: bedrock at min_y, water up to y 5, oak leaves at y 9 and a plant
    /// on them at y 10. World surface sees the plant; ocean floor and motion blocking the
    /// leaves (solid in the block table); without leaves, the water.
    #[test]
    fn kinds_on_a_known_column() {
        let dims = Dims {
            min_y: 0,
            height: 16,
            sea_level: 5,
        };
        let mut blocks = vec![block::AIR; dims.volume()];
        blocks[dims.index(3, 0, 2)] = block::BEDROCK;
        for y in 1..=5 {
            blocks[dims.index(3, y, 2)] = block::WATER;
        }
        blocks[dims.index(3, 9, 2)] = block::OAK_LEAVES;
        blocks[dims.index(3, 10, 2)] = block::SHORT_GRASS;
        let h = Heightmaps::of(&dims, &Palette::builtin(), &blocks);
        let col = 2 * 16 + 3;
        assert_eq!(h[Heightmap::WorldSurface][col], 11);
        assert_eq!(h[Heightmap::OceanFloor][col], 10);
        assert_eq!(h[Heightmap::MotionBlocking][col], 10);
        assert_eq!(h[Heightmap::MotionBlockingNoLeaves][col], 6);
        assert_eq!(h[Heightmap::WorldSurface][0], 0, "empty column reads min_y");
    }
}
