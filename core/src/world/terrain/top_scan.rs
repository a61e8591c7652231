//! Heightmaps from blocks: one scan from the top non-air layer down.

use alloc::vec::Vec;

use crate::world::block::{self, BlockId};
use crate::world::dims::Dims;
use crate::world::heightmap::Heightmap;
use crate::world::palette::Palette;
use crate::world::sections::{all_equal, Sections};
use crate::world::terrain::TerrainChunk;

/// Phase 4: the world-surface and ocean-floor heightmaps.
pub fn heightmaps(dims: &Dims, palette: &Palette, blocks: Vec<BlockId>) -> TerrainChunk {
    heightmaps_of(dims, palette, &blocks)
}

/// [`heightmaps`] of borrowed blocks.
pub fn heightmaps_of(dims: &Dims, palette: &Palette, blocks: &[BlockId]) -> TerrainChunk {
    let [world_surface, ocean_floor] = heightmaps_by(dims, blocks, |b| {
        let p = palette.props(b);
        [
            Heightmap::WorldSurface.counts_with(b, p),
            Heightmap::OceanFloor.counts_with(b, p),
        ]
    });
    TerrainChunk {
        blocks: Sections::from_dense(blocks),
        world_surface,
        ocean_floor,
        witness: 0,
    }
}

/// Per predicate `k` and column: one above the highest block for which `test(block)[k]`
/// holds (`min_y` if none). Scans whole layers from the top non-air one down until every
/// column has every height; one loop for every heightmap kind.
#[inline]
pub fn heightmaps_by<const K: usize>(
    dims: &Dims,
    blocks: &[BlockId],
    test: impl Fn(BlockId) -> [bool; K],
) -> [[i32; 256]; K] {
    let mut hm = [[dims.min_y; 256]; K];
    let mut missing = K * 256;
    let mut y = top_non_air_layer(dims, blocks);
    while y >= dims.min_y && missing > 0 {
        let layer = (y - dims.min_y) as usize * 256;
        for col in 0..256 {
            for (k, t) in test(blocks[layer + col]).iter().enumerate() {
                // A height is at least min_y + 1, so min_y marks "not found yet".
                if *t && hm[k][col] == dims.min_y {
                    hm[k][col] = y + 1;
                    missing -= 1;
                }
            }
        }
        y -= 1;
    }
    hm
}

/// The highest y whose layer holds a non-air block (`min_y - 1` if none). Whole air layers
/// are skipped with one vectorised comparison per block, without per-column work: most of a
/// chunk's height is air above the surface.
pub fn top_non_air_layer(dims: &Dims, blocks: &[BlockId]) -> i32 {
    let mut y = dims.max_y();
    while y >= dims.min_y {
        let layer = (y - dims.min_y) as usize * 256;
        if !all_equal(&blocks[layer..layer + 256], block::AIR) {
            return y;
        }
        y -= 1;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// Against the plain definition (the first layer from the top with any non-air block), for
    /// one non-air block at every layer and at a spread of columns, and for an all-air chunk.
    #[test]
    fn top_layer_matches_the_plain_scan() {
        let dims = Dims {
            min_y: -8,
            height: 40,
            sea_level: 0,
        };
        let plain = |blocks: &[BlockId]| {
            (dims.min_y..=dims.max_y())
                .rev()
                .find(|&y| {
                    let at = (y - dims.min_y) as usize * 256;
                    blocks[at..at + 256].iter().any(|&b| b != block::AIR)
                })
                .unwrap_or(dims.min_y - 1)
        };
        let mut blocks = vec![block::AIR; dims.volume()];
        assert_eq!(top_non_air_layer(&dims, &blocks), dims.min_y - 1);
        for y in dims.min_y..=dims.max_y() {
            for col in [0usize, 1, 15, 16, 127, 200, 255] {
                let i = (y - dims.min_y) as usize * 256 + col;
                blocks[i] = block::STONE;
                assert_eq!(top_non_air_layer(&dims, &blocks), plain(&blocks));
                assert_eq!(top_non_air_layer(&dims, &blocks), y);
                blocks[i] = block::AIR;
            }
        }
    }
}
