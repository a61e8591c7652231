//! The decoration steps after structure pieces: boulders, ores, trees and cactus,
//! vegetation.

use crate::engine::ChunkPos;
use crate::util::random::{decoration_seed, feature_seed, position_hash, JavaRandom};
use crate::world::biome::{self, BiomeId};
use crate::world::block::{self, BlockId};
use crate::world::dims::Dims;
use crate::world::feature::ids::FeatureId;
use crate::world::feature::ores::{blob, is_stoneish, ORES};
use crate::world::feature::poisson::poisson_points;
use crate::world::feature::trees::{place_tree, tree_for};
use crate::world::feature::Writer;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::terrain::TerrainChunk;

/// Inputs of the features body.
pub struct FeatureInput<'a> {
    /// World seed.
    pub seed: i64,
    /// Dimensions.
    pub dims: Dims,
    /// Biomes of the chunk's cells.
    pub biomes: &'a [BiomeId; 16],
    /// Terrain of the 3 × 3 chunks around.
    pub terrain: Neighbourhood<Option<&'a TerrainChunk>>,
}

/// What every step needs: the input, the chunk's corner and its decoration seed.
struct Steps<'i, 'a> {
    inp: &'i FeatureInput<'a>,
    bx: i32,
    bz: i32,
    deco: i64,
}

impl Steps<'_, '_> {
    /// The feature's own random, seeded by its index and step.
    fn rng(&self, f: FeatureId) -> JavaRandom {
        JavaRandom::new(feature_seed(self.deco, f.index(), f.step()))
    }

    /// The biome of the cell holding block column `(x, z)` (inside the chunk).
    fn biome_at(&self, x: i32, z: i32) -> BiomeId {
        self.inp.biomes[(((z - self.bz) >> 2) * 4 + ((x - self.bx) >> 2)) as usize]
    }

    /// Where a column scan starts: just above the terrain surface (trees add at most 16
    /// blocks), or the world top without terrain.
    fn scan_from(&self, x: i32, z: i32) -> i32 {
        match self.inp.terrain.centre() {
            Some(t) => {
                t.world_surface[(((z - self.bz) & 15) * 16 + ((x - self.bx) & 15)) as usize] + 16
            }
            None => self.inp.dims.max_y(),
        }
    }

    /// Step 1: boulders in cold, rugged biomes.
    fn boulders(&self, w: &mut Writer<'_>) {
        let mut r = self.rng(FeatureId::Boulder);
        if r.next_int_bounded(4) != 0 {
            return;
        }
        let (x, z) = (
            self.bx + r.next_int_bounded(16),
            self.bz + r.next_int_bounded(16),
        );
        let rad = 1.5 + r.next_float_f64();
        let b = self.biome_at(x, z);
        if !matches!(b, biome::TAIGA | biome::SNOWY_PLAINS | biome::MOUNTAINS) {
            return;
        }
        let y = match w.top(x, z, self.scan_from(x, z)) {
            Some(y) => y,
            None => return,
        };
        if w.get(x, y, z).map_or(false, |b| !block::props(b).liquid) {
            let centre = [f64::from(x) + 0.5, f64::from(y) + 0.5, f64::from(z) + 0.5];
            blob(w, centre, rad, block::MOSSY_COBBLESTONE, |b| {
                b == block::AIR
                    || block::props(b).replaceable && !block::props(b).liquid
                    || b == block::GRASS_BLOCK
                    || b == block::DIRT
                    || b == block::STONE
            });
        }
    }

    /// Step 2: ores (blobs that may cross into neighbours).
    fn ores(&self, w: &mut Writer<'_>) {
        let dims = self.inp.dims;
        for ore in ORES {
            let mut r = self.rng(ore.feature);
            let (ylo, yhi) = (
                core::cmp::max(ore.min_y, dims.min_y + 5),
                core::cmp::min(ore.max_y, dims.max_y()),
            );
            if ylo >= yhi {
                continue;
            }
            for _ in 0..ore.attempts {
                let x = f64::from(self.bx + r.next_int_bounded(16)) + 0.5;
                let z = f64::from(self.bz + r.next_int_bounded(16)) + 0.5;
                let y = f64::from(ylo + r.next_int_bounded(yhi - ylo)) + 0.5;
                let rad = 0.9 + r.next_float_f64() * (ore.max_radius - 0.9);
                blob(w, [x, y, z], rad, ore.block, is_stoneish);
            }
        }
    }

    /// Step 3a: trees by biome (canopies cross borders).
    fn trees(&self, w: &mut Writer<'_>) {
        let mut r = self.rng(FeatureId::Tree);
        let (bx, bz) = (self.bx, self.bz);
        let (kind, quarters) = match tree_for(self.biome_at(bx + 8, bz + 8)) {
            Some(t) => t,
            None => return,
        };
        let count = quarters / 4 + i32::from(r.next_int_bounded(4) < quarters % 4);
        for _ in 0..count {
            let (tx, tz) = (bx + r.next_int_bounded(16), bz + r.next_int_bounded(16));
            let seed_draw = r.next_int();
            let mut tr = JavaRandom::new(i64::from(seed_draw));
            if let Some(y) = w.top(tx, tz, self.scan_from(tx, tz)) {
                let g = w.get(tx, y, tz);
                let on_soil = g == Some(block::GRASS_BLOCK) || g == Some(block::DIRT);
                if on_soil && y + 14 < self.inp.dims.max_y() {
                    place_tree(w, &mut tr, kind, tx, y, tz);
                }
            }
        }
    }

    /// Step 3b: cactus in deserts.
    fn cactus(&self, w: &mut Writer<'_>) {
        let mut r = self.rng(FeatureId::Cactus);
        for _ in 0..3 {
            let (x, z) = (
                self.bx + r.next_int_bounded(16),
                self.bz + r.next_int_bounded(16),
            );
            let h = 1 + r.next_int_bounded(3);
            if self.biome_at(x, z) != biome::DESERT {
                continue;
            }
            if let Some(y) = w.top(x, z, self.scan_from(x, z)) {
                if w.get(x, y, z) == Some(block::SAND) {
                    for k in 1..=h {
                        w.set_if(x, y + k, z, block::CACTUS, |b| b == block::AIR);
                    }
                }
            }
        }
    }

    /// Step 4: vegetation from seamless Poisson-disk sets, inside the chunk only. The
    /// features' seed indices are reserved; positions come from the Poisson sets.
    fn vegetation(&self, w: &mut Writer<'_>) {
        let (bx, bz) = (self.bx, self.bz);
        for (feature, radius, salt) in VEGETATION {
            for (x, z) in poisson_points(self.inp.seed, salt, radius, bx, bz, bx + 16, bz + 16) {
                let plant = match plant_for(feature, self.biome_at(x, z), x, z) {
                    Some(p) => p,
                    None => continue,
                };
                if let Some(y) = w.top(x, z, self.scan_from(x, z)) {
                    let ground = w.get(x, y, z);
                    let ok = if plant == block::DEAD_BUSH {
                        ground == Some(block::SAND)
                    } else {
                        ground == Some(block::GRASS_BLOCK)
                    };
                    if ok {
                        w.set_if(x, y + 1, z, plant, |b| b == block::AIR);
                    }
                }
            }
        }
    }
}

/// Vegetation features: (feature, Poisson radius in blocks, salt of its point set).
const VEGETATION: [(FeatureId, f64, i64); 3] = [
    (FeatureId::Grass, 2.0, 1),
    (FeatureId::Flowers, 5.0, 2),
    (FeatureId::DeadBush, 6.0, 3),
];

/// The plant a vegetation feature puts on column `(x, z)` of biome `b`, if any.
fn plant_for(feature: FeatureId, b: BiomeId, x: i32, z: i32) -> Option<BlockId> {
    Some(match (feature, b) {
        (
            FeatureId::Grass,
            biome::PLAINS
            | biome::FOREST
            | biome::BIRCH_FOREST
            | biome::SAVANNA
            | biome::JUNGLE
            | biome::SWAMP
            | biome::TAIGA,
        ) => {
            if b == biome::TAIGA || b == biome::JUNGLE {
                block::FERN
            } else {
                block::SHORT_GRASS
            }
        }
        (FeatureId::Flowers, biome::PLAINS | biome::FOREST | biome::BIRCH_FOREST) => {
            if position_hash(x, 0, z) & 1 == 0 {
                block::DANDELION
            } else {
                block::POPPY
            }
        }
        (FeatureId::DeadBush, biome::DESERT) => block::DEAD_BUSH,
        _ => return None,
    })
}

/// Run the decoration steps after structure pieces (which the caller placed through `w`).
pub fn decorate(inp: &FeatureInput<'_>, pos: ChunkPos, w: &mut Writer<'_>) {
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let steps = Steps {
        inp,
        bx,
        bz,
        deco: decoration_seed(inp.seed, bx, bz),
    };
    steps.boulders(w);
    steps.ores(w);
    steps.trees(w);
    steps.cactus(w);
    steps.vegetation(w);
}
