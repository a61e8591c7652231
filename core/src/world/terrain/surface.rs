//! Surface rules on the topmost solid block of each column (the biome's own rules, then the
//! terrain's shared ones; the first that matches wins); snow and ice in cold biomes.

use crate::util::random::position_hash;
use crate::world::biome::BiomeId;
use crate::world::block::{self, BlockId};
use crate::world::definition::Definition;
use crate::world::dims::Dims;

/// Surface rules on the topmost solid block of one column.
#[allow(clippy::too_many_arguments)]
pub(super) fn surface_column(
    world: &Definition,
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
    let t = &world.terrain;
    // Only a stone top gets a surface (not bedrock-only or empty columns).
    if top < dims.min_y {
        return;
    }
    let top_id = blocks[dims.index(x, top, z)];
    if top_id != t.stone && top_id != t.deep_stone {
        return;
    }
    let sea = dims.sea_level;
    let above = if top < dims.max_y() {
        blocks[dims.index(x, top + 1, z)]
    } else {
        block::AIR
    };
    let jitter = ((position_hash(wx, 1, wz) >> 28) & 1) as i32;
    let biome = match world.biomes.get(biome_id as usize) {
        Some(b) => b,
        None => return,
    };
    let underwater = above == t.sea_fluid;
    let rule = biome
        .surface
        .iter()
        .chain(t.surface.iter())
        .find(|r| r.matches(underwater, slope, top, sea, jitter));
    // No rule: the top stays bare stone.
    let (top_block, under, depth) = match rule {
        Some(r) => (r.top, r.under, r.depth + jitter),
        None => (t.stone, t.stone, 0),
    };
    for k in 0..depth {
        let y = top - k;
        if y <= dims.min_y + 4 {
            break;
        }
        let i = dims.index(x, y, z);
        if blocks[i] != t.stone && blocks[i] != t.deep_stone {
            break;
        }
        blocks[i] = if k == 0 { top_block } else { under };
    }
    if let Some(snow) = biome.snow {
        if !underwater && top < dims.max_y() && above == block::AIR && top_block != t.stone {
            blocks[dims.index(x, top + 1, z)] = snow;
        }
    }
    if let Some(ice) = biome.ice {
        if top < sea && sea < dims.max_y() {
            let i = dims.index(x, sea, z);
            if blocks[i] == t.sea_fluid && blocks[dims.index(x, sea + 1, z)] == block::AIR {
                blocks[i] = ice;
            }
        }
    }
}
