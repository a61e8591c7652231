//! The `features` status body: decoration in fixed steps, each feature with a global index
//! that seeds its random (`feature_seed(decoration_seed(world, block x, block z), index,
//! step)`). Writes inside the chunk apply to its own copy of the blocks; writes into a
//! neighbour (features reach at most one chunk out) are recorded as a patch for that
//! neighbour, decided against the neighbour's *terrain* snapshot only, so the result never
//! depends on which chunk decorated first.
//!
//! Steps: 0 structure pieces (placed by `structure`), 1 boulders, 2 ores, 3 trees,
//! 4 vegetation. Vegetation points come from a Poisson-disk set that is a pure function of
//! position (see [`poisson_points`]), so it is seamless across borders without reading any
//! neighbour output.

use alloc::vec;
use alloc::vec::Vec;

use crate::engine::ladder::ChunkPos;
use crate::util::math::floor_i64;
use crate::util::random::{decoration_seed, feature_seed, position_hash, JavaRandom};
use crate::world::biome::{self, BiomeId};
use crate::world::block::{self, BlockId};
use crate::world::dims::Dims;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::terrain::TerrainChunk;

/// A block entity: a chest or spawner placed by a structure piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlockEntity {
    /// Block position (world coordinates).
    pub pos: [i32; 3],
    /// The block (`CHEST`, `SPAWNER`).
    pub kind: BlockId,
    /// Loot table id for chests, creature kind for spawners.
    pub data: u32,
}

/// The output of `features` for one chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureChunk {
    /// The chunk's blocks after its own feature writes.
    pub blocks: Vec<BlockId>,
    /// Writes for each neighbour (the centre, the chunk itself, stays empty):
    /// `(block index in the target chunk, block)`, applied in list order.
    pub outbound: Neighbourhood<Vec<(u32, BlockId)>>,
    /// Sorted block indices of this chunk written by structure pieces: inbound patches never
    /// overwrite them.
    pub protected: Vec<u32>,
    /// Block entities inside this chunk.
    pub block_entities: Vec<BlockEntity>,
    /// XXH64 of the body's intermediate floats (blob centres and radii), so a one-ulp change
    /// shows even where no block changes.
    pub witness: u64,
}

/// The global, sorted feature list: (name, step). A feature's index in this list seeds it.
pub const FEATURES: [(&str, i32); 12] = [
    ("boulder", 1),
    ("ore_coal", 2),
    ("ore_copper", 2),
    ("ore_diamond", 2),
    ("ore_gold", 2),
    ("ore_iron", 2),
    ("tree", 3),
    ("cactus", 3),
    ("grass", 4),
    ("flowers", 4),
    ("dead_bush", 4),
    ("structure_pieces", 0),
];

fn feature_index(name: &str) -> i32 {
    FEATURES.iter().position(|f| f.0 == name).unwrap_or(0) as i32
}

/// Block access for one decorating chunk: its own blocks (mutable) and its neighbours'
/// terrain (read-only), plus the outbound patches.
pub struct Writer<'a> {
    dims: Dims,
    pos: ChunkPos,
    own: Vec<BlockId>,
    neighbours: Neighbourhood<Option<&'a TerrainChunk>>,
    outbound: Neighbourhood<Vec<(u32, BlockId)>>,
    protected: Vec<u32>,
    protect: bool,
    witness: crate::util::digest::Digest,
}

impl<'a> Writer<'a> {
    /// A writer over `own` (a copy of the chunk's terrain blocks) and the 3 × 3 terrain
    /// snapshots.
    pub fn new(
        dims: Dims,
        pos: ChunkPos,
        own: Vec<BlockId>,
        neighbours: Neighbourhood<Option<&'a TerrainChunk>>,
    ) -> Self {
        Writer {
            dims,
            pos,
            own,
            neighbours,
            outbound: Default::default(),
            protected: Vec::new(),
            protect: false,
            witness: crate::util::digest::Digest::new(),
        }
    }

    /// Record an intermediate float in the body's witness digest.
    pub fn witness(&mut self, v: f64) {
        self.witness.write_f64(v);
    }

    fn locate(&self, x: i32, y: i32, z: i32) -> Option<(usize, usize)> {
        if y < self.dims.min_y || y > self.dims.max_y() {
            return None;
        }
        let dx = (x >> 4) - self.pos.x;
        let dz = (z >> 4) - self.pos.z;
        if !(-1..=1).contains(&dx) || !(-1..=1).contains(&dz) {
            return None;
        }
        let slot = Neighbourhood::<()>::slot(dx, dz);
        Some((
            slot,
            self.dims.index((x & 15) as usize, y, (z & 15) as usize),
        ))
    }

    /// The block at world position `(x, y, z)`: the chunk's own current block, or the
    /// neighbour's terrain block; `None` outside the 3 × 3 chunks or the world's height.
    pub fn get(&self, x: i32, y: i32, z: i32) -> Option<BlockId> {
        let (slot, i) = self.locate(x, y, z)?;
        if slot == Neighbourhood::<()>::CENTRE {
            self.own.get(i).copied()
        } else {
            self.neighbours
                .at(slot)
                .and_then(|t| t.blocks.get(i).copied())
        }
    }

    /// Write a block (own chunk directly, a neighbour through its patch). Outside the 3 × 3
    /// chunks or the height range the write is dropped (features are sized never to reach).
    pub fn set(&mut self, x: i32, y: i32, z: i32, b: BlockId) {
        if let Some((slot, i)) = self.locate(x, y, z) {
            if slot == Neighbourhood::<()>::CENTRE {
                self.own[i] = b;
                if self.protect {
                    self.protected.push(i as u32);
                }
            } else {
                self.outbound.at_mut(slot).push((i as u32, b));
            }
        }
    }

    /// Write `b` where the current block satisfies `pred`.
    pub fn set_if(&mut self, x: i32, y: i32, z: i32, b: BlockId, pred: impl Fn(BlockId) -> bool) {
        if self.get(x, y, z).map_or(false, pred) {
            self.set(x, y, z, b);
        }
    }

    /// Mark subsequent own-chunk writes as structure writes (kept against inbound patches).
    pub fn protect_writes(&mut self, on: bool) {
        self.protect = on;
    }

    /// Finish: the output, with protected indices sorted and deduplicated.
    pub fn finish(mut self, block_entities: Vec<BlockEntity>) -> FeatureChunk {
        self.protected.sort_unstable();
        self.protected.dedup();
        FeatureChunk {
            blocks: self.own,
            outbound: self.outbound,
            protected: self.protected,
            block_entities,
            witness: self.witness.finish(),
        }
    }

    /// Highest block y of the world.
    pub fn max_y(&self) -> i32 {
        self.dims.max_y()
    }

    /// y of the top non-air, non-plant block of column `(x, z)` (own chunk's current state or
    /// neighbour terrain), scanning down from `from`.
    pub fn top(&self, x: i32, z: i32, from: i32) -> Option<i32> {
        let mut y = core::cmp::min(from, self.dims.max_y());
        while y >= self.dims.min_y {
            let b = self.get(x, y, z)?;
            if b != block::AIR && !block::props(b).replaceable {
                return Some(y);
            }
            if block::props(b).liquid {
                return Some(y);
            }
            y -= 1;
        }
        None
    }
}

fn is_air_or_plant(b: BlockId) -> bool {
    b == block::AIR || (block::props(b).replaceable && !block::props(b).liquid)
}

fn is_stoneish(b: BlockId) -> bool {
    b == block::STONE || b == block::DEEPSLATE
}

/// Ores: (feature name, ore block, attempts per chunk, y range, max radius).
const ORES: [(&str, BlockId, i32, i32, i32, f64); 5] = [
    ("ore_coal", block::COAL_ORE, 16, 0, 128, 2.2),
    ("ore_copper", block::COPPER_ORE, 8, -16, 96, 1.9),
    ("ore_diamond", block::DIAMOND_ORE, 3, -64, 16, 1.4),
    ("ore_gold", block::GOLD_ORE, 3, -64, 32, 1.5),
    ("ore_iron", block::IRON_ORE, 12, -24, 72, 1.8),
];

fn blob(
    w: &mut Writer<'_>,
    cx: f64,
    cy: f64,
    cz: f64,
    r: f64,
    b: BlockId,
    pred: fn(BlockId) -> bool,
) {
    for v in [cx, cy, cz, r] {
        w.witness(v);
    }
    let ri = r.ceil_int();
    let (x0, y0, z0) = (
        floor_i64(cx) as i32,
        floor_i64(cy) as i32,
        floor_i64(cz) as i32,
    );
    for dy in -ri..=ri {
        for dz in -ri..=ri {
            for dx in -ri..=ri {
                let (x, y, z) = (x0 + dx, y0 + dy, z0 + dz);
                let (fx, fy, fz) = (
                    f64::from(x) + 0.5 - cx,
                    f64::from(y) + 0.5 - cy,
                    f64::from(z) + 0.5 - cz,
                );
                if fx * fx + fy * fy + fz * fz < r * r {
                    w.set_if(x, y, z, b, pred);
                }
            }
        }
    }
}

trait CeilInt {
    fn ceil_int(self) -> i32;
}
impl CeilInt for f64 {
    fn ceil_int(self) -> i32 {
        -(floor_i64(-self) as i32)
    }
}

/// Tree shapes by species.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tree {
    Oak,
    Birch,
    Spruce,
    Jungle,
    Acacia,
}

fn tree_for(biome_id: BiomeId) -> Option<(Tree, i32)> {
    // (species, trees per chunk × 4: quarter-trees so sparse biomes get fractions)
    match biome_id {
        biome::FOREST => Some((Tree::Oak, 28)),
        biome::BIRCH_FOREST => Some((Tree::Birch, 28)),
        biome::TAIGA => Some((Tree::Spruce, 24)),
        biome::JUNGLE => Some((Tree::Jungle, 24)),
        biome::SAVANNA => Some((Tree::Acacia, 4)),
        biome::SWAMP => Some((Tree::Oak, 8)),
        biome::PLAINS => Some((Tree::Oak, 1)),
        biome::SNOWY_PLAINS => Some((Tree::Spruce, 2)),
        biome::MOUNTAINS => Some((Tree::Spruce, 2)),
        _ => None,
    }
}

fn place_tree(w: &mut Writer<'_>, r: &mut JavaRandom, kind: Tree, x: i32, y: i32, z: i32) {
    let (log, leaves, height) = match kind {
        Tree::Oak => (block::OAK_LOG, block::OAK_LEAVES, 4 + r.next_int_bounded(3)),
        Tree::Birch => (
            block::BIRCH_LOG,
            block::BIRCH_LEAVES,
            5 + r.next_int_bounded(3),
        ),
        Tree::Spruce => (
            block::SPRUCE_LOG,
            block::SPRUCE_LEAVES,
            6 + r.next_int_bounded(4),
        ),
        Tree::Jungle => (
            block::JUNGLE_LOG,
            block::JUNGLE_LEAVES,
            8 + r.next_int_bounded(5),
        ),
        Tree::Acacia => (
            block::ACACIA_LOG,
            block::ACACIA_LEAVES,
            5 + r.next_int_bounded(2),
        ),
    };
    // Room to grow: the trunk column must be free.
    for k in 1..=height {
        if !w.get(x, y + k, z).map_or(false, is_air_or_plant) {
            return;
        }
    }
    w.set(x, y, z, block::DIRT);
    let top = y + height;
    let leaf = |w: &mut Writer<'_>, lx: i32, ly: i32, lz: i32| {
        w.set_if(lx, ly, lz, leaves, is_air_or_plant);
    };
    match kind {
        Tree::Oak | Tree::Birch => {
            for ly in top - 3..=top {
                let rad: i32 = if ly >= top - 1 { 1 } else { 2 };
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        let corner = dx.abs() == rad && dz.abs() == rad;
                        if corner && (ly == top || r.next_int_bounded(2) == 0) {
                            continue;
                        }
                        leaf(w, x + dx, ly, z + dz);
                    }
                }
            }
        }
        Tree::Spruce => {
            let mut rad: i32 = 0;
            for ly in (y + 3..=top + 1).rev() {
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        if dx.abs() + dz.abs() <= rad + 1 {
                            leaf(w, x + dx, ly, z + dz);
                        }
                    }
                }
                rad = if rad >= 2 { 1 } else { rad + 1 };
            }
        }
        Tree::Jungle => {
            for ly in top - 2..=top + 1 {
                let rad = if ly > top { 2 } else { 3 };
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        if dx * dx + dz * dz <= rad * rad + 1 {
                            leaf(w, x + dx, ly, z + dz);
                        }
                    }
                }
            }
        }
        Tree::Acacia => {
            let (bx, bz) = if r.next_bool() { (1, 0) } else { (0, 1) };
            for ly in top..=top + 1 {
                let rad: i32 = if ly > top { 1 } else { 3 };
                for dz in -rad..=rad {
                    for dx in -rad..=rad {
                        if dx.abs() + dz.abs() <= rad + 1 {
                            leaf(w, x + bx * 2 + dx, ly, z + bz * 2 + dz);
                        }
                    }
                }
            }
            for k in 1..=height {
                let off = if k > height - 2 { 2 } else { 0 };
                w.set(x + bx * off, y + k, z + bz * off, log);
            }
            return;
        }
    }
    for k in 1..=height {
        w.set(x, y + k, z, log);
    }
}

/// The Poisson-disk vegetation points with minimum distance `radius` (blocks) inside the
/// block box `[x0, x1) × [z0, z1)`, for the layer `salt`.
///
/// Candidates: one per cell of side `radius / √2` (a pure hash of the cell), at a hashed
/// position inside the cell, with a hashed priority. A candidate is kept when no other
/// candidate within `radius` has a higher priority. Two kept points are therefore never
/// closer than `radius` (the nearer one would have lost to the other), and whether a point is
/// kept depends only on candidates within `radius` of it: the set is the same whichever chunk
/// asks, with no neighbour output read.
pub fn poisson_points(
    seed: i64,
    salt: i64,
    radius: f64,
    x0: i32,
    z0: i32,
    x1: i32,
    z1: i32,
) -> Vec<(i32, i32)> {
    let cell = radius / core::f64::consts::SQRT_2;
    let reach = (radius / cell).ceil_int() + 1;
    let cand = |cx: i64, cz: i64| -> (f64, f64, u64) {
        let h = crate::util::random::mix_stafford13(
            (seed ^ salt.wrapping_mul(0x9E37_79B9)) as u64
                ^ (cx as u64).wrapping_mul(0x9E37_79B1_85EB_CA87)
                ^ (cz as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
        );
        let fx = ((h >> 40) & 0xFF_FFFF) as f64 / 16_777_216.0;
        let fz = ((h >> 16) & 0xFF_FFFF) as f64 / 16_777_216.0;
        (
            (cx as f64 + fx) * cell,
            (cz as f64 + fz) * cell,
            crate::util::random::mix_stafford13(h),
        )
    };
    let c0x = floor_i64(f64::from(x0) / cell);
    let c1x = floor_i64(f64::from(x1) / cell);
    let c0z = floor_i64(f64::from(z0) / cell);
    let c1z = floor_i64(f64::from(z1) / cell);
    let mut out = Vec::new();
    for cz in c0z..=c1z {
        for cx in c0x..=c1x {
            let (px, pz, pr) = cand(cx, cz);
            let (bx, bz) = (floor_i64(px) as i32, floor_i64(pz) as i32);
            if bx < x0 || bx >= x1 || bz < z0 || bz >= z1 {
                continue;
            }
            let mut kept = true;
            'n: for nz in cz - i64::from(reach)..=cz + i64::from(reach) {
                for nx in cx - i64::from(reach)..=cx + i64::from(reach) {
                    if (nx, nz) == (cx, cz) {
                        continue;
                    }
                    let (qx, qz, qr) = cand(nx, nz);
                    let d2 = (qx - px) * (qx - px) + (qz - pz) * (qz - pz);
                    if d2 < radius * radius && (qr, nx, nz) > (pr, cx, cz) {
                        kept = false;
                        break 'n;
                    }
                }
            }
            if kept {
                out.push((bx, bz));
            }
        }
    }
    out
}

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

/// Run the decoration steps after structure pieces (which the caller placed through `w`).
pub fn decorate(inp: &FeatureInput<'_>, pos: ChunkPos, w: &mut Writer<'_>) {
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let deco = decoration_seed(inp.seed, bx, bz);
    let rng = |name: &str| {
        let i = feature_index(name);
        JavaRandom::new(feature_seed(deco, i, FEATURES[i as usize].1))
    };
    let biome_at = |x: i32, z: i32| inp.biomes[(((z - bz) >> 2) * 4 + ((x - bx) >> 2)) as usize];
    // Scan columns from just above the terrain surface (trees add at most 16 blocks).
    let own = *inp.terrain.centre();
    let from = |x: i32, z: i32| match own {
        Some(t) => t.world_surface[(((z - bz) & 15) * 16 + ((x - bx) & 15)) as usize] + 16,
        None => inp.dims.max_y(),
    };
    let max_y = inp.dims.max_y();

    // Step 1: boulders in cold, rugged biomes.
    {
        let mut r = rng("boulder");
        if r.next_int_bounded(4) == 0 {
            let (x, z) = (bx + r.next_int_bounded(16), bz + r.next_int_bounded(16));
            let rad = 1.5 + r.next_float_f64();
            let b = biome_at(x, z);
            if matches!(b, biome::TAIGA | biome::SNOWY_PLAINS | biome::MOUNTAINS) {
                if let Some(y) = w.top(x, z, from(x, z)) {
                    if w.get(x, y, z).map_or(false, |b| !block::props(b).liquid) {
                        blob(
                            w,
                            f64::from(x) + 0.5,
                            f64::from(y) + 0.5,
                            f64::from(z) + 0.5,
                            rad,
                            block::MOSSY_COBBLESTONE,
                            |b| {
                                b == block::AIR
                                    || block::props(b).replaceable && !block::props(b).liquid
                                    || b == block::GRASS_BLOCK
                                    || b == block::DIRT
                                    || b == block::STONE
                            },
                        );
                    }
                }
            }
        }
    }
    // Step 2: ores (blobs that may cross into neighbours).
    for (name, ore, count, ylo, yhi, rmax) in ORES {
        let mut r = rng(name);
        let (ylo, yhi) = (
            core::cmp::max(ylo, inp.dims.min_y + 5),
            core::cmp::min(yhi, max_y),
        );
        if ylo >= yhi {
            continue;
        }
        for _ in 0..count {
            let x = f64::from(bx + r.next_int_bounded(16)) + 0.5;
            let z = f64::from(bz + r.next_int_bounded(16)) + 0.5;
            let y = f64::from(ylo + r.next_int_bounded(yhi - ylo)) + 0.5;
            let rad = 0.9 + r.next_float_f64() * (rmax - 0.9);
            blob(w, x, y, z, rad, ore, is_stoneish);
        }
    }
    // Step 3: trees by biome (canopies cross borders), cactus in deserts.
    {
        let mut r = rng("tree");
        let (x, z) = (bx + 8, bz + 8);
        if let Some((kind, quarters)) = tree_for(biome_at(x, z)) {
            let count = quarters / 4 + i32::from(r.next_int_bounded(4) < quarters % 4);
            for _ in 0..count {
                let (tx, tz) = (bx + r.next_int_bounded(16), bz + r.next_int_bounded(16));
                let seed_draw = r.next_int();
                let mut tr = JavaRandom::new(i64::from(seed_draw));
                if let Some(y) = w.top(tx, tz, from(tx, tz)) {
                    let g = w.get(tx, y, tz);
                    if (g == Some(block::GRASS_BLOCK) || g == Some(block::DIRT)) && y + 14 < max_y {
                        place_tree(w, &mut tr, kind, tx, y, tz);
                    }
                }
            }
        }
        let mut r = rng("cactus");
        for _ in 0..3 {
            let (x, z) = (bx + r.next_int_bounded(16), bz + r.next_int_bounded(16));
            let h = 1 + r.next_int_bounded(3);
            if biome_at(x, z) != biome::DESERT {
                continue;
            }
            if let Some(y) = w.top(x, z, from(x, z)) {
                if w.get(x, y, z) == Some(block::SAND) {
                    for k in 1..=h {
                        w.set_if(x, y + k, z, block::CACTUS, |b| b == block::AIR);
                    }
                }
            }
        }
    }
    // Step 4: vegetation from seamless Poisson-disk sets, inside the chunk only.
    for (name, radius, salt) in [
        ("grass", 2.0, 1i64),
        ("flowers", 5.0, 2),
        ("dead_bush", 6.0, 3),
    ] {
        let _ = rng(name); // the index is reserved; positions come from the Poisson set
        for (x, z) in poisson_points(inp.seed, salt, radius, bx, bz, bx + 16, bz + 16) {
            let b = biome_at(x, z);
            let plant = match (name, b) {
                (
                    "grass",
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
                ("flowers", biome::PLAINS | biome::FOREST | biome::BIRCH_FOREST) => {
                    if position_hash(x, 0, z) & 1 == 0 {
                        block::DANDELION
                    } else {
                        block::POPPY
                    }
                }
                ("dead_bush", biome::DESERT) => block::DEAD_BUSH,
                _ => continue,
            };
            if let Some(y) = w.top(x, z, from(x, z)) {
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

/// The merge of `initialize_light`: the chunk's own feature blocks, then the eight inbound
/// patches in (dz, dx) order, skipping positions structure pieces wrote. `inbound` holds the
/// patch list each neighbour wrote for this chunk.
pub fn merge(
    own: &FeatureChunk,
    inbound: Neighbourhood<Option<&[(u32, BlockId)]>>,
) -> Vec<BlockId> {
    let mut blocks = own.blocks.clone();
    for patch in inbound.iter().flatten() {
        for &(i, b) in patch.iter() {
            if own.protected.binary_search(&i).is_err() {
                if let Some(slot) = blocks.get_mut(i as usize) {
                    *slot = b;
                }
            }
        }
    }
    blocks
}

/// A fresh vector of `n` air blocks (used by tests and tools).
pub fn air(n: usize) -> Vec<BlockId> {
    vec![block::AIR; n]
}
