//! The decoration steps after structure pieces: the definition's features by step, then by
//! index (boulders, ores, trees and cactus, vegetation in the built-in world).

use crate::engine::ChunkPos;
use crate::util::random::{decoration_seed, feature_seed, position_hash, JavaRandom};
use crate::world::biome::BiomeId;
use crate::world::block;
use crate::world::definition::{
    BoulderDef, ColumnDef, Definition, FeatureKind, OreDef, TreesDef, VegetationDef, STEP_COUNT,
};
use crate::world::dims::Dims;
use crate::world::feature::ores::{blob, is_air_or_plant};
use crate::world::feature::poisson::poisson_points;
use crate::world::feature::trees::place_tree;
use crate::world::feature::Writer;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::terrain::TerrainChunk;

/// Inputs of the features body.
pub struct FeatureInput<'a> {
    /// World seed.
    pub seed: i64,
    /// Dimensions.
    pub dims: Dims,
    /// The world definition.
    pub definition: &'a Definition,
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
    /// The random of the feature at `index` in the definition, seeded by its index and step.
    fn rng(&self, index: usize, step: i32) -> JavaRandom {
        JavaRandom::new(feature_seed(self.deco, index as i32, step))
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

    /// A boulder in its biomes, with chance 1 in `chance`.
    fn boulder(&self, w: &mut Writer<'_>, mut r: JavaRandom, def: &BoulderDef) {
        let BoulderDef {
            block,
            chance,
            radius,
            radius_spread,
            ref biomes,
            ref replaces,
        } = *def;
        if r.next_int_bounded(chance) != 0 {
            return;
        }
        let (x, z) = (
            self.bx + r.next_int_bounded(16),
            self.bz + r.next_int_bounded(16),
        );
        let rad = radius + r.next_float_f64() * radius_spread;
        if !biomes.contains(&self.biome_at(x, z)) {
            return;
        }
        let y = match w.top(x, z, self.scan_from(x, z)) {
            Some(y) => y,
            None => return,
        };
        let palette = w.palette();
        if w.get(x, y, z).map_or(false, |b| !palette.props(b).liquid) {
            let centre = [f64::from(x) + 0.5, f64::from(y) + 0.5, f64::from(z) + 0.5];
            blob(w, centre, rad, block, |b| {
                is_air_or_plant(palette, b) || replaces.contains(&b)
            });
        }
    }

    /// Ore veins (blobs that may cross into neighbours).
    fn ore(&self, w: &mut Writer<'_>, mut r: JavaRandom, ore: &OreDef) {
        let dims = self.inp.dims;
        let (ylo, yhi) = (
            core::cmp::max(ore.min_y, dims.min_y + 5),
            core::cmp::min(ore.max_y, dims.max_y()),
        );
        if ylo >= yhi {
            return;
        }
        let replaces = &ore.replaces[..];
        for _ in 0..ore.attempts {
            let (xi, zi) = (
                self.bx + r.next_int_bounded(16),
                self.bz + r.next_int_bounded(16),
            );
            let y = f64::from(ylo + r.next_int_bounded(yhi - ylo)) + 0.5;
            let rad = ore.min_radius + r.next_float_f64() * (ore.max_radius - ore.min_radius);
            // Every draw is made first, so a biome filter never shifts the other veins.
            if !ore.biomes.is_empty() && !ore.biomes.contains(&self.biome_at(xi, zi)) {
                continue;
            }
            let (x, z) = (f64::from(xi) + 0.5, f64::from(zi) + 0.5);
            blob(w, [x, y, z], rad, ore.block, |b| replaces.contains(&b));
        }
    }

    /// Trees by the biome at the chunk's centre (canopies cross borders).
    fn trees(&self, w: &mut Writer<'_>, mut r: JavaRandom, def: &TreesDef) {
        let TreesDef {
            ref biomes,
            ref soil,
            ground,
        } = *def;
        let (bx, bz) = (self.bx, self.bz);
        let here = self.biome_at(bx + 8, bz + 8);
        let spawn = match biomes.iter().find(|t| t.biome == here) {
            Some(t) => t,
            None => return,
        };
        let kind = match self.inp.definition.trees.get(spawn.tree as usize) {
            Some(k) => k,
            None => return,
        };
        let quarters = spawn.per_chunk_quarters;
        let count = quarters / 4 + i32::from(r.next_int_bounded(4) < quarters % 4);
        for _ in 0..count {
            let (tx, tz) = (bx + r.next_int_bounded(16), bz + r.next_int_bounded(16));
            let seed_draw = r.next_int();
            let mut tr = JavaRandom::new(i64::from(seed_draw));
            if let Some(y) = w.top(tx, tz, self.scan_from(tx, tz)) {
                let on_soil = w.get(tx, y, tz).map_or(false, |g| soil.contains(&g));
                if on_soil && y + 14 < self.inp.dims.max_y() {
                    place_tree(w, &mut tr, kind, ground, tx, y, tz);
                }
            }
        }
    }

    /// Column plants (cactus) on their ground.
    fn column(&self, w: &mut Writer<'_>, mut r: JavaRandom, def: &ColumnDef) {
        let ColumnDef {
            block,
            attempts,
            max_height,
            ref biomes,
            ground,
        } = *def;
        for _ in 0..attempts {
            let (x, z) = (
                self.bx + r.next_int_bounded(16),
                self.bz + r.next_int_bounded(16),
            );
            let h = 1 + r.next_int_bounded(max_height);
            if !biomes.contains(&self.biome_at(x, z)) {
                continue;
            }
            if let Some(y) = w.top(x, z, self.scan_from(x, z)) {
                if w.get(x, y, z) == Some(ground) {
                    for k in 1..=h {
                        w.set_if(x, y + k, z, block, |b| b == block::AIR);
                    }
                }
            }
        }
    }

    /// Vegetation from a seamless Poisson-disk set, inside the chunk only (the feature's seed
    /// index is reserved; positions come from the point set).
    fn vegetation(&self, w: &mut Writer<'_>, def: &VegetationDef) {
        let VegetationDef {
            radius,
            salt,
            ref rules,
        } = *def;
        let (bx, bz) = (self.bx, self.bz);
        for (x, z) in poisson_points(self.inp.seed, salt, radius, bx, bz, bx + 16, bz + 16) {
            let b = self.biome_at(x, z);
            let rule = match rules.iter().find(|r| r.biomes.contains(&b)) {
                Some(r) => r,
                None => continue,
            };
            let plant = match rule.plants.len() {
                1 => rule.plants[0],
                n => rule.plants[(position_hash(x, 0, z) as u64 % n as u64) as usize],
            };
            if let Some(y) = w.top(x, z, self.scan_from(x, z)) {
                if w.get(x, y, z) == Some(rule.ground) {
                    w.set_if(x, y + 1, z, plant, |b| b == block::AIR);
                }
            }
        }
    }
}

/// Run the decoration steps after structure pieces (which the caller placed through `w`):
/// steps 1.. in order, each step's features in definition order.
pub fn decorate(inp: &FeatureInput<'_>, pos: ChunkPos, w: &mut Writer<'_>) {
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let steps = Steps {
        inp,
        bx,
        bz,
        deco: decoration_seed(inp.seed, bx, bz),
    };
    for step in 1..STEP_COUNT {
        for (index, f) in inp.definition.features.iter().enumerate() {
            if f.step != step {
                continue;
            }
            let r = steps.rng(index, step);
            match &f.kind {
                FeatureKind::StructurePieces => {}
                FeatureKind::Boulder(b) => steps.boulder(w, r, b),
                FeatureKind::Ore(o) => steps.ore(w, r, o),
                FeatureKind::Trees(t) => steps.trees(w, r, t),
                FeatureKind::Column(c) => steps.column(w, r, c),
                FeatureKind::Vegetation(v) => steps.vegetation(w, v),
            }
        }
    }
}
