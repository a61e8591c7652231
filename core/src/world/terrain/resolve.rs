//! Phases 2 and 3 of terrain: fluids, surface rules and bedrock on the classified shape,
//! then the worm carvers.

use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::digest::Digest;
use crate::util::random::position_hash;
use crate::world::block::{self, BlockId};
use crate::world::definition::TerrainDef;
use crate::world::dims::Dims;
use crate::world::terrain::carvers::carve_worms;
use crate::world::terrain::density::{Shape, OPEN, SOLID};
use crate::world::terrain::surface::surface_column;
use crate::world::terrain::{cave_fill, TerrainInput};

/// Whether block `(x, y, z)` of a bedrock layer is bedrock: always at `min_y`, then with
/// probability `(L+1−k)/(L+1)` for the layer `k` of the next `L = layers` (4/5, 3/5, 2/5, 1/5
/// in the built-in world).
fn is_bedrock(seed: i64, layers: i32, x: i32, y: i32, z: i32, min_y: i32) -> bool {
    let k = y - min_y;
    if k == 0 {
        return true;
    }
    if k > layers {
        return false;
    }
    let h = position_hash(x, y, z) ^ seed;
    ((h >> 20) & 0xFF) as i32 % (layers + 1) < layers + 1 - k
}

/// Phase 2: fluids, surface rules, bedrock. Returns the blocks and the aquifer levels.
pub fn resolve(inp: &TerrainInput<'_>, pos: ChunkPos, sh: &Shape) -> (Vec<BlockId>, [i32; 256]) {
    resolve_in(inp, pos, sh, Vec::new())
}

/// [`resolve`], the blocks written into `blocks` (an earlier call's, whatever it holds:
/// every entry is written).
pub fn resolve_in(
    inp: &TerrainInput<'_>,
    pos: ChunkPos,
    sh: &Shape,
    blocks: Vec<BlockId>,
) -> (Vec<BlockId>, [i32; 256]) {
    let aquifer = aquifer_levels(inp, pos);
    let (mut blocks, top_solid) = fill_blocks(inp, pos, sh, &aquifer, blocks);
    place_bedrock(inp, pos, &mut blocks);
    apply_surface(inp, pos, sh, &top_solid, &mut blocks);
    (blocks, aquifer)
}

/// The aquifer level of each column (a smooth 2D noise around sea level).
fn aquifer_levels(inp: &TerrainInput<'_>, pos: ChunkPos) -> [i32; 256] {
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let mut aquifer = [0i32; 256];
    for z in 0..16 {
        for x in 0..16 {
            let a = inp
                .noises
                .aquifer
                .sample_2d(f64::from(bx + x as i32), f64::from(bz + z as i32));
            let def = &inp.definition.terrain.aquifer;
            aquifer[z * 16 + x] = inp.dims.sea_level - def.below_sea + (a * def.spread) as i32;
        }
    }
    aquifer
}

/// Blocks from the classified shape, in block order (cache friendly) with per-column facts
/// precomputed; also each column's top solid y.
fn fill_blocks(
    inp: &TerrainInput<'_>,
    pos: ChunkPos,
    sh: &Shape,
    aquifer: &[i32; 256],
    blocks: Vec<BlockId>,
) -> (Vec<BlockId>, [i32; 256]) {
    let t = &inp.definition.terrain;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let dither_mask = (1i64 << t.deep_stone_dither_bits) - 1;
    let mut dither = [0i32; 256];
    for z in 0..16 {
        for x in 0..16 {
            let h = position_hash(bx + x as i32, 0, bz + z as i32);
            dither[z * 16 + x] = t.deep_stone_below - ((h >> 24) & dither_mask) as i32;
        }
    }
    let columns = Columns {
        floor: &sh.floor,
        aquifer,
        dither: &dither,
    };
    fill_layers::<true>(t, &inp.dims, &sh.kind, &columns, blocks)
}

/// The per-column facts [`fill_layers`] reads: the floor (top of the cave-free density),
/// the aquifer level and the deep stone line.
struct Columns<'a> {
    floor: &'a [i32; 256],
    aquifer: &'a [i32; 256],
    dither: &'a [i32; 256],
}

/// The blocks of the block kinds `kind`, layer by layer, and each column's top solid y. With
/// `SKIP_SURE`, a layer of one kind that is the same block in every column is filled whole
/// (most layers: deep stone, stone, air or sea above every floor).
fn fill_layers<const SKIP_SURE: bool>(
    t: &TerrainDef,
    dims: &Dims,
    kind: &[u8],
    columns: &Columns<'_>,
    mut blocks: Vec<BlockId>,
) -> (Vec<BlockId>, [i32; 256]) {
    let Columns {
        floor,
        aquifer,
        dither,
    } = *columns;
    let mut submerged = [false; 256];
    for (s, f) in submerged.iter_mut().zip(floor) {
        *s = *f < dims.sea_level;
    }
    let highest_floor = floor.iter().copied().max().unwrap_or(i32::MIN);
    let lowest_dither = dither.iter().copied().min().unwrap_or(i32::MIN);
    let highest_dither = dither.iter().copied().max().unwrap_or(i32::MAX);
    blocks.clear();
    blocks.resize(dims.volume(), block::AIR);
    let mut top_solid = [dims.min_y - 1; 256];
    for y in dims.min_y..=dims.max_y() {
        let layer = (y - dims.min_y) as usize * 256;
        if SKIP_SURE {
            let kinds = &kind[layer..layer + 256];
            let first = kinds[0];
            if kinds.iter().all(|&k| k == first) {
                let whole = match first {
                    SOLID if y < lowest_dither => Some(t.deep_stone),
                    SOLID if y >= highest_dither => Some(t.stone),
                    OPEN if y > highest_floor && y <= dims.sea_level => Some(t.sea_fluid),
                    OPEN if y > highest_floor => Some(block::AIR),
                    _ => None,
                };
                if let Some(b) = whole {
                    blocks[layer..layer + 256].fill(b);
                    if first == SOLID {
                        top_solid = [y; 256];
                    }
                    continue;
                }
            }
        }
        for col in 0..256 {
            let i = layer + col;
            blocks[i] = match kind[i] {
                SOLID => {
                    top_solid[col] = y;
                    if y < dither[col] {
                        t.deep_stone
                    } else {
                        t.stone
                    }
                }
                OPEN if y > floor[col] => {
                    if y <= dims.sea_level {
                        t.sea_fluid
                    } else {
                        block::AIR
                    }
                }
                _ => cave_fill(t, y, dims, submerged[col], aquifer[col]),
            };
        }
    }
    (blocks, top_solid)
}

/// The bedrock floor with a noisy top.
fn place_bedrock(inp: &TerrainInput<'_>, pos: ChunkPos, blocks: &mut [BlockId]) {
    let dims = inp.dims;
    let t = &inp.definition.terrain;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    for y in dims.min_y..=core::cmp::min(dims.min_y + t.bedrock_layers, dims.max_y()) {
        for z in 0..16 {
            for x in 0..16 {
                let (wx, wz) = (bx + x as i32, bz + z as i32);
                if is_bedrock(inp.seed, t.bedrock_layers, wx, y, wz, dims.min_y) {
                    blocks[dims.index(x, y, z)] = t.bedrock;
                }
            }
        }
    }
}

/// Surface rules on every column, with the local slope from the cell's corner heights.
fn apply_surface(
    inp: &TerrainInput<'_>,
    pos: ChunkPos,
    sh: &Shape,
    top_solid: &[i32; 256],
    blocks: &mut [BlockId],
) {
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let col_h = &sh.col_h;
    for z in 0..16 {
        for x in 0..16 {
            let (cx, cz) = (x >> 2, z >> 2);
            let hs = [
                col_h[cz * 5 + cx],
                col_h[cz * 5 + cx + 1],
                col_h[(cz + 1) * 5 + cx],
                col_h[(cz + 1) * 5 + cx + 1],
            ];
            let (mut lo, mut hi) = (hs[0], hs[0]);
            for h in hs {
                lo = if h < lo { h } else { lo };
                hi = if h > hi { h } else { hi };
            }
            let slope = (hi - lo) / 4.0;
            let (wx, wz) = (bx + x as i32, bz + z as i32);
            let biome = inp.biomes[cz * 4 + cx];
            surface_column(
                inp.definition,
                blocks,
                &inp.dims,
                x,
                z,
                top_solid[z * 16 + x],
                biome,
                slope,
                wx,
                wz,
            );
        }
    }
}

/// Phase 3: worm carvers. Returns the body's float witness (the shape's, the aquifer levels,
/// and every carver step's position and radius).
pub fn carve(
    inp: &TerrainInput<'_>,
    pos: ChunkPos,
    sh: &Shape,
    aquifer: &[i32; 256],
    blocks: &mut [BlockId],
) -> u64 {
    let mut w = Digest::new();
    w.write_u64(sh.witness);
    for a in aquifer {
        w.write_i32(*a);
    }
    carve_worms(
        inp.seed,
        &inp.definition.terrain,
        &inp.definition.blocks,
        &inp.dims,
        pos,
        blocks,
        &sh.floor,
        aquifer,
        &mut w,
    );
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::JavaRandom;
    use crate::world::definition::Definition;
    use crate::world::terrain::density::CAVE;

    /// Filling layers of one kind whole gives the blocks and top solids of filling every
    /// block: layers solid, cave or open throughout or mixed, against floors, aquifer levels
    /// and deep stone lines that lie below, among and above the layers.
    #[test]
    fn filling_sure_layers_whole_equals_filling_every_block() {
        let t = Definition::builtin().terrain;
        let dims = Dims {
            min_y: -32,
            height: 64,
            sea_level: 0,
        };
        let mut rng = JavaRandom::new(3);
        let mut layers = [0usize; 2];
        for case in 0..400 {
            // Per-column lines spread over a window of the world's height, so some layers
            // lie below all of them, some above, some among them.
            let around = |rng: &mut JavaRandom, spread: i32| -> [i32; 256] {
                let centre = rng.next_int_bounded(80) - 40;
                core::array::from_fn(|_| centre + rng.next_int_bounded(spread + 1) - spread / 2)
            };
            let spread = [0, 1, 4, 20][case % 4];
            let floor = around(&mut rng, spread);
            let aquifer = around(&mut rng, spread);
            let dither = around(&mut rng, spread);
            let mut kind = alloc::vec![SOLID; dims.volume()];
            for layer in kind.chunks_mut(256) {
                let k = [SOLID, CAVE, OPEN][rng.next_int_bounded(3) as usize];
                let mixed = rng.next_int_bounded(4) == 0;
                for v in layer.iter_mut() {
                    *v = if mixed {
                        [SOLID, CAVE, OPEN][rng.next_int_bounded(3) as usize]
                    } else {
                        k
                    };
                }
                layers[mixed as usize] += 1;
            }
            let columns = Columns {
                floor: &floor,
                aquifer: &aquifer,
                dither: &dither,
            };
            let fast = fill_layers::<true>(&t, &dims, &kind, &columns, Vec::new());
            let plain = fill_layers::<false>(&t, &dims, &kind, &columns, alloc::vec![7; 3]);
            assert_eq!(fast, plain, "case {case}");
        }
        assert!(layers.iter().all(|&n| n > 5000), "{layers:?}");
    }
}
