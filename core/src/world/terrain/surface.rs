//! Surface rules by biome on the topmost solid block of each column; ice and snow in cold
//! biomes.

use crate::util::random::position_hash;
use crate::world::biome::{self, BiomeId};
use crate::world::block::{self, BlockId};
use crate::world::dims::Dims;

/// Surface rules on the topmost solid block of one column.
#[allow(clippy::too_many_arguments)]
pub(super) fn surface_column(
    blocks: &mut [BlockId],
    dims: &Dims,
    x: usize,
    z: usize,
    top: i32,
    biome_id: BiomeId,
    slope: f64,
    wx: i32,
    wz: i32,
) {
    // Only a stone top gets a surface (not bedrock-only or empty columns).
    if top < dims.min_y {
        return;
    }
    let t = blocks[dims.index(x, top, z)];
    if t != block::STONE && t != block::DEEPSLATE {
        return;
    }
    let sea = dims.sea_level;
    let above = if top < dims.max_y() {
        blocks[dims.index(x, top + 1, z)]
    } else {
        block::AIR
    };
    let jitter = ((position_hash(wx, 1, wz) >> 28) & 1) as i32;
    let info = biome::info(biome_id);
    let underwater = above == block::WATER;
    let (top_block, under, depth) = if underwater {
        match biome_id {
            biome::DEEP_OCEAN => (block::GRAVEL, block::GRAVEL, 3),
            biome::SWAMP => (block::CLAY, block::DIRT, 3),
            biome::RIVER => {
                if jitter == 0 {
                    (block::SAND, block::SAND, 3)
                } else {
                    (block::CLAY, block::GRAVEL, 2)
                }
            }
            biome::OCEAN if top < sea - 18 => (block::GRAVEL, block::GRAVEL, 3),
            _ => (block::SAND, block::SAND, 3),
        }
    } else {
        match biome_id {
            biome::DESERT => (block::SAND, block::SANDSTONE, 6),
            biome::BEACH => (block::SAND, block::SANDSTONE, 4),
            biome::MOUNTAINS if slope > 1.0 || top > sea + 95 => {
                if top > sea + 110 {
                    (block::SNOW_BLOCK, block::STONE, 1)
                } else {
                    (block::STONE, block::STONE, 0)
                }
            }
            _ if slope > 2.0 => (block::STONE, block::STONE, 0),
            _ => (block::GRASS_BLOCK, block::DIRT, 3),
        }
    };
    let depth = depth + jitter;
    for k in 0..depth {
        let y = top - k;
        if y <= dims.min_y + 4 {
            break;
        }
        let i = dims.index(x, y, z);
        if blocks[i] != block::STONE && blocks[i] != block::DEEPSLATE {
            break;
        }
        blocks[i] = if k == 0 { top_block } else { under };
    }
    if info.cold {
        if !underwater && top < dims.max_y() && above == block::AIR && top_block != block::STONE {
            blocks[dims.index(x, top + 1, z)] = block::SNOW;
        }
        if top < sea && sea < dims.max_y() {
            let i = dims.index(x, sea, z);
            if blocks[i] == block::WATER && blocks[dims.index(x, sea + 1, z)] == block::AIR {
                blocks[i] = block::ICE;
            }
        }
    }
}
