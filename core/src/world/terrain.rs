//! The `terrain` status body (Minecraft's noise + surface + carvers in one pure function).
//!
//! 1. **Shape.** Per column corner of the 4 × 4 cells: the climate gives a target surface
//!    height and a vertical "jag" scale (splines of continentalness, erosion and
//!    peaks-and-valleys; rivers where valleys cut inland). Per cell corner (4 × 8 × 4 blocks):
//!    `base = (height − y) / jag + n3`, where `n3` is 3D fBm; and `final = min(base, caves)`
//!    with noise caves (wide "cheese" chambers and "spaghetti" tunnels) faded out near the
//!    surface. Both are interpolated trilinearly inside the cell.
//! 2. **Classify.** `final > 0` is stone (deepslate below y 0, dithered); `base <= 0` above
//!    the column's floor is open air or sea; the rest is cave.
//! 3. **Fluids.** Cave blocks become lava below `min_y + 10`, water where the column is
//!    submerged (floor below sea level) and at or below sea level, water at or below the
//!    column's aquifer level (a smooth 2D noise), air otherwise. So no air ever lies below
//!    water in a column.
//! 4. **Surface rules** by biome, on the topmost solid block of each column; ice and snow in
//!    cold biomes; bedrock floor with a noisy top.
//! 5. **Carvers:** worm tunnels started by chunks up to 5 away, each a seeded random walk
//!    (at most 70 steps, so it never reaches farther than it is simulated), carving with the
//!    cave fluid rules. Every chunk replays the same walks, so tunnels cross borders whole.
//! 6. **Heightmaps:** world surface (top non-air) and ocean floor (top solid), as `y + 1`.
//!
//! The structure "beard" (terrain adaptation) enters as density boxes in step 1.

use alloc::vec;
use alloc::vec::Vec;

use crate::engine::ladder::ChunkPos;
use crate::noise::{Grid3, Noise, NoiseDef, NoiseError};
use crate::util::math::{clamp, cos, lerp, sin, sqrt};
use crate::util::random::{large_feature_seed, position_hash, JavaRandom};
use crate::world::biome::{self, BiomeId, ClimateSampler};
use crate::world::block::{self, BlockId};

/// World dimensions and sea level, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Lowest block y.
    pub min_y: i32,
    /// Height in blocks (a multiple of 16).
    pub height: u32,
    /// Sea level (top water block y).
    pub sea_level: i32,
}

impl Dims {
    /// Blocks per chunk.
    pub fn volume(&self) -> usize {
        self.height as usize * 256
    }

    /// Index of block `(x, y, z)` (chunk-local x, z in 0..16; world y).
    #[inline]
    pub fn index(&self, x: usize, y: i32, z: usize) -> usize {
        (((y - self.min_y) as usize * 16 + z) * 16) + x
    }

    /// Highest block y.
    pub fn max_y(&self) -> i32 {
        self.min_y + self.height as i32 - 1
    }
}

/// A box around a surface structure piece that terrain adapts to: solid up to `floor_y`
/// inside the footprint, cleared above it up to `top_y`, blending out over `falloff` blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BeardBox {
    /// Footprint minimum (block x, z), inclusive.
    pub min: [i32; 2],
    /// Footprint maximum (block x, z), inclusive.
    pub max: [i32; 2],
    /// Top solid y under the piece.
    pub floor_y: i32,
    /// Highest y cleared above the floor.
    pub top_y: i32,
}

/// The beard's horizontal falloff in blocks.
pub const BEARD_FALLOFF: i32 = 8;

/// The terrain output of one chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainChunk {
    /// Block ids, index `((y - min_y) * 16 + z) * 16 + x`.
    pub blocks: Vec<BlockId>,
    /// Per column (index `z * 16 + x`): y + 1 of the top non-air block (`min_y` if none).
    pub world_surface: [i32; 256],
    /// Per column: y + 1 of the top solid block.
    pub ocean_floor: [i32; 256],
    /// XXH64 of every intermediate float of the body (corner heights, jag, densities, carver
    /// positions and radii) and the aquifer levels: a one-ulp change anywhere in the arithmetic
    /// changes it even where the blocks do not, so the parity corpus catches it.
    pub witness: u64,
}

/// The noises of terrain, built once per world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TerrainNoises {
    density: Noise,
    cheese: Noise,
    spag_a: Noise,
    spag_b: Noise,
    aquifer: Noise,
}

impl TerrainNoises {
    /// The terrain noises of a world seed.
    pub fn new(seed: i64) -> Result<Self, NoiseError> {
        Ok(TerrainNoises {
            density: NoiseDef::perlin_fbm(seed, 0x0D35_1770, 1.0 / 110.0, 3)?,
            cheese: NoiseDef::perlin_fbm(seed, 0x0C4E_E5E0, 1.0 / 72.0, 2)?,
            spag_a: NoiseDef::perlin_fbm(seed, 0x05BA_6E71, 1.0 / 56.0, 1)?,
            spag_b: NoiseDef::perlin_fbm(seed, 0x05BA_6E72, 1.0 / 56.0, 1)?,
            aquifer: NoiseDef::perlin_fbm(seed, 0x0A9F_1E70, 1.0 / 160.0, 2)?,
        })
    }
}

/// Piecewise-linear spline through `(x, y)` knots sorted by x; clamped at the ends.
fn spline(x: f64, knots: &[(f64, f64)]) -> f64 {
    let mut prev = knots[0];
    if x <= prev.0 {
        return prev.1;
    }
    for &k in &knots[1..] {
        if x <= k.0 {
            return lerp((x - prev.0) / (k.0 - prev.0), prev.1, k.1);
        }
        prev = k;
    }
    prev.1
}

/// Target surface height and vertical noise scale (blocks) of a column from its climate.
pub fn column_shape(c: &biome::Climate, sea: f64) -> (f64, f64) {
    let cont = c.continentalness;
    let base = spline(
        cont,
        &[
            (-1.0, sea - 43.0),
            (-0.45, sea - 27.0),
            (-0.19, sea - 9.0),
            (-0.16, sea - 2.0),
            (-0.11, sea + 1.5),
            (-0.05, sea + 3.0),
            (0.2, sea + 9.0),
            (0.5, sea + 17.0),
            (1.0, sea + 27.0),
        ],
    );
    let inland = clamp((cont + 0.1) / 0.4, 0.0, 1.0);
    let e = c.erosion;
    let mountain = spline(
        e,
        &[
            (-1.0, 150.0),
            (-0.45, 75.0),
            (0.0, 22.0),
            (0.5, 8.0),
            (1.0, 3.0),
        ],
    );
    let pv = c.peaks_valleys();
    let mut h = base + mountain * inland * (pv + 1.0) * 0.5;
    // Rivers: valley floors (pv near −1) inland, where erosion allows, cut to below sea level.
    let valley = clamp((-0.72 - pv) / 0.2, 0.0, 1.0);
    let river = valley * clamp((cont + 0.11) / 0.06, 0.0, 1.0) * clamp((e + 0.3) / 0.2, 0.0, 1.0);
    h = lerp(river, h, sea - 4.0);
    let jag = lerp(
        inland,
        6.0,
        spline(e, &[(-1.0, 26.0), (0.0, 10.0), (1.0, 4.0)]),
    );
    (h, jag)
}

const SOLID: u8 = 0;
const CAVE: u8 = 1;
const OPEN: u8 = 2;

fn beard_adjust(boxes: &[BeardBox], x: f64, y: f64, z: f64, d: f64) -> f64 {
    let mut d = d;
    for b in boxes {
        let dx = clamp(f64::from(b.min[0]) - x, 0.0, f64::INFINITY)
            + clamp(x - f64::from(b.max[0]), 0.0, f64::INFINITY);
        let dz = clamp(f64::from(b.min[1]) - z, 0.0, f64::INFINITY)
            + clamp(z - f64::from(b.max[1]), 0.0, f64::INFINITY);
        let dist = sqrt(dx * dx + dz * dz);
        let w = clamp(1.0 - dist / f64::from(BEARD_FALLOFF), 0.0, 1.0);
        if w <= 0.0 || y > f64::from(b.top_y) + 4.0 {
            continue;
        }
        // Solid below the floor, air above, blended in by the falloff weight.
        let target = clamp((f64::from(b.floor_y) + 0.5 - y) * 0.5, -1.0, 1.0);
        d = lerp(w * w * (3.0 - 2.0 * w), d, target);
    }
    d
}

/// Whether block `(x, y, z)` of a bedrock layer is bedrock: always at `min_y`, then with
/// probability 4/5, 3/5, 2/5, 1/5 for the next four layers.
fn is_bedrock(seed: i64, x: i32, y: i32, z: i32, min_y: i32) -> bool {
    let k = y - min_y;
    if k == 0 {
        return true;
    }
    if k > 4 {
        return false;
    }
    let h = position_hash(x, y, z) ^ seed;
    ((h >> 20) & 0xFF) as i32 % 5 < 5 - k
}

/// The fluid (or air) that fills a cave block.
#[inline]
fn cave_fill(y: i32, dims: &Dims, submerged: bool, aquifer: i32) -> BlockId {
    if y < dims.min_y + 10 {
        block::LAVA
    } else if (submerged && y <= dims.sea_level) || y <= aquifer {
        block::WATER
    } else {
        block::AIR
    }
}

/// Inputs of the terrain body besides the position: the world's noises and the biomes of
/// the chunk's 4 × 4 cells (index `cz * 4 + cx`).
pub struct TerrainInput<'a> {
    /// World seed.
    pub seed: i64,
    /// Dimensions.
    pub dims: Dims,
    /// Climate noises.
    pub climate: &'a ClimateSampler,
    /// Terrain noises.
    pub noises: &'a TerrainNoises,
    /// Biomes of the chunk's cells.
    pub biomes: &'a [BiomeId; 16],
    /// Structure boxes the terrain adapts to (may be empty).
    pub beard: &'a [BeardBox],
}

/// The shape of a chunk before blocks are chosen: what each block is (solid, cave, open),
/// each column's floor (top solid of the cave-free density) and the corner heights.
pub struct Shape {
    kind: Vec<u8>,
    floor: [i32; 256],
    col_h: [f64; 25],
    witness: u64,
}

/// Generate the terrain of chunk `pos`: [`shape`], [`resolve`], [`carve`], [`heightmaps`].
pub fn generate(inp: &TerrainInput<'_>, pos: ChunkPos) -> TerrainChunk {
    let sh = shape(inp, pos);
    let (mut blocks, aquifer) = resolve(inp, pos, &sh);
    let witness = carve(inp, pos, &sh, &aquifer, &mut blocks);
    let mut t = heightmaps(&inp.dims, blocks);
    t.witness = witness;
    t
}

/// Phase 1: density and noise caves at cell corners, interpolated and classified.
pub fn shape(inp: &TerrainInput<'_>, pos: ChunkPos) -> Shape {
    let dims = inp.dims;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let sea = f64::from(dims.sea_level);
    let ny = dims.height as usize / 8 + 1;

    // Column corners: height and jag.
    let mut col_h = [0.0f64; 25];
    let mut col_j = [0.0f64; 25];
    for k in 0..5 {
        for i in 0..5 {
            let c = inp
                .climate
                .sample(f64::from(bx + 4 * i as i32), f64::from(bz + 4 * k as i32));
            let (h, j) = column_shape(&c, sea);
            col_h[k * 5 + i] = h;
            col_j[k * 5 + i] = j;
        }
    }

    // Cell-corner noises, filled in one pass each (y outermost, then z, then x).
    let n = 25 * ny;
    let grid = Grid3 {
        origin: [f64::from(bx), f64::from(dims.min_y), f64::from(bz)],
        step: [4.0, 8.0, 4.0],
        width: 5,
        height: ny,
        depth: 5,
    };
    let stretched = |s: f64| Grid3 {
        origin: [grid.origin[0], grid.origin[1] * s, grid.origin[2]],
        step: [4.0, 8.0 * s, 4.0],
        ..grid
    };
    let mut n3 = vec![0.0f64; n];
    let mut cheese = vec![0.0f64; n];
    let mut sa = vec![0.0f64; n];
    let mut sb = vec![0.0f64; n];
    // The grids are in range for every valid chunk position: errors cannot occur, and if
    // they did the samples would stay 0 (flat terrain), never a panic.
    let _ = inp.noises.density.fill_3d(&grid, &mut n3);
    let _ = inp.noises.cheese.fill_3d(&stretched(1.6), &mut cheese);
    let _ = inp.noises.spag_a.fill_3d(&stretched(1.5), &mut sa);
    let _ = inp.noises.spag_b.fill_3d(&stretched(1.5), &mut sb);

    let mut base = vec![0.0f64; n];
    let mut fin = vec![0.0f64; n];
    for j in 0..ny {
        let y = f64::from(dims.min_y) + 8.0 * j as f64;
        for c in 0..25 {
            let idx = j * 25 + c;
            let h = col_h[c];
            let mut d = (h - y) / col_j[c] + n3[idx];
            if !inp.beard.is_empty() {
                let (x, z) = (
                    f64::from(bx + 4 * (c % 5) as i32),
                    f64::from(bz + 4 * (c / 5) as i32),
                );
                d = beard_adjust(inp.beard, x, y, z, d);
            }
            let carve_c = (0.42 - cheese[idx]) * 5.0;
            let carve_s = (sqrt(sa[idx] * sa[idx] + sb[idx] * sb[idx]) - 0.06) * 10.0;
            let fade = clamp((h - 14.0 - y) / 16.0, 0.0, 1.0)
                * clamp((y - f64::from(dims.min_y) - 6.0) / 8.0, 0.0, 1.0);
            let cave = if carve_c < carve_s { carve_c } else { carve_s };
            let cave = cave + (1.0 - fade) * 4.0;
            base[idx] = d;
            fin[idx] = if cave < d { cave } else { d };
        }
    }

    // Interpolate and classify.
    let vol = dims.volume();
    let mut kind = vec![SOLID; vol];
    let mut floor = [dims.min_y - 1; 256];
    const TX: [f64; 4] = [0.0, 0.25, 0.5, 0.75];
    const TY: [f64; 8] = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875];
    for cy in 0..ny - 1 {
        for cz in 0..4 {
            for cx in 0..4 {
                let at = |v: &[f64], dy: usize, dz: usize, dx: usize| {
                    v[(cy + dy) * 25 + (cz + dz) * 5 + cx + dx]
                };
                let mut b8 = [0.0; 8];
                let mut f8 = [0.0; 8];
                for (k, (dy, dz, dx)) in [
                    (0, 0, 0),
                    (0, 0, 1),
                    (0, 1, 0),
                    (0, 1, 1),
                    (1, 0, 0),
                    (1, 0, 1),
                    (1, 1, 0),
                    (1, 1, 1),
                ]
                .iter()
                .enumerate()
                {
                    b8[k] = at(&base, *dy, *dz, *dx);
                    f8[k] = at(&fin, *dy, *dz, *dx);
                }
                for (ly, &ty) in TY.iter().enumerate() {
                    let y = dims.min_y + (cy * 8 + ly) as i32;
                    // Edges along y: (z0,x0) (z0,x1) (z1,x0) (z1,x1).
                    let be = [
                        lerp(ty, b8[0], b8[4]),
                        lerp(ty, b8[1], b8[5]),
                        lerp(ty, b8[2], b8[6]),
                        lerp(ty, b8[3], b8[7]),
                    ];
                    let fe = [
                        lerp(ty, f8[0], f8[4]),
                        lerp(ty, f8[1], f8[5]),
                        lerp(ty, f8[2], f8[6]),
                        lerp(ty, f8[3], f8[7]),
                    ];
                    for (lz, &tz) in TX.iter().enumerate() {
                        let (b0, b1) = (lerp(tz, be[0], be[2]), lerp(tz, be[1], be[3]));
                        let (f0, f1) = (lerp(tz, fe[0], fe[2]), lerp(tz, fe[1], fe[3]));
                        let z = cz * 4 + lz;
                        for (lx, &tx) in TX.iter().enumerate() {
                            let x = cx * 4 + lx;
                            let bv = lerp(tx, b0, b1);
                            let fv = lerp(tx, f0, f1);
                            let i = dims.index(x, y, z);
                            kind[i] = if fv > 0.0 {
                                SOLID
                            } else if bv > 0.0 {
                                CAVE
                            } else {
                                OPEN
                            };
                            if bv > 0.0 {
                                let f = &mut floor[z * 16 + x];
                                if y > *f {
                                    *f = y;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let mut w = crate::util::digest::Digest::new();
    w.write_f64_slice(&col_h);
    w.write_f64_slice(&col_j);
    w.write_f64_slice(&base);
    w.write_f64_slice(&fin);
    Shape {
        kind,
        floor,
        col_h,
        witness: w.finish(),
    }
}

/// Phase 2: fluids, surface rules, bedrock. Returns the blocks and the aquifer levels.
pub fn resolve(inp: &TerrainInput<'_>, pos: ChunkPos, sh: &Shape) -> (Vec<BlockId>, [i32; 256]) {
    let dims = inp.dims;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let (kind, floor, col_h) = (&sh.kind, &sh.floor, &sh.col_h);
    let vol = dims.volume();

    // Aquifer levels per column.
    let mut aquifer = [0i32; 256];
    for z in 0..16 {
        for x in 0..16 {
            let a = inp
                .noises
                .aquifer
                .sample_2d(f64::from(bx + x as i32), f64::from(bz + z as i32));
            aquifer[z * 16 + x] = dims.sea_level - 44 + (a * 30.0) as i32;
        }
    }

    // Resolve blocks in block order (cache friendly), with per-column facts precomputed.
    let mut submerged = [false; 256];
    let mut dither = [0i32; 256];
    for z in 0..16 {
        for x in 0..16 {
            let col = z * 16 + x;
            submerged[col] = floor[col] < dims.sea_level;
            dither[col] = -((position_hash(bx + x as i32, 0, bz + z as i32) >> 24) & 7) as i32;
        }
    }
    let mut blocks = vec![block::AIR; vol];
    let mut top_solid = [dims.min_y - 1; 256];
    for y in dims.min_y..=dims.max_y() {
        let layer = (y - dims.min_y) as usize * 256;
        for col in 0..256 {
            let i = layer + col;
            blocks[i] = match kind[i] {
                SOLID => {
                    top_solid[col] = y;
                    if y < dither[col] {
                        block::DEEPSLATE
                    } else {
                        block::STONE
                    }
                }
                OPEN if y > floor[col] => {
                    if y <= dims.sea_level {
                        block::WATER
                    } else {
                        block::AIR
                    }
                }
                _ => cave_fill(y, &dims, submerged[col], aquifer[col]),
            };
        }
    }
    for y in dims.min_y..=core::cmp::min(dims.min_y + 4, dims.max_y()) {
        for z in 0..16 {
            for x in 0..16 {
                if is_bedrock(inp.seed, bx + x as i32, y, bz + z as i32, dims.min_y) {
                    blocks[dims.index(x, y, z)] = block::BEDROCK;
                }
            }
        }
    }
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
                &mut blocks,
                &dims,
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

    (blocks, aquifer)
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
    let mut w = crate::util::digest::Digest::new();
    w.write_u64(sh.witness);
    for a in aquifer {
        w.write_i32(*a);
    }
    carve_worms(inp.seed, &inp.dims, pos, blocks, &sh.floor, aquifer, &mut w);
    w.finish()
}

/// Phase 4: the world-surface and ocean-floor heightmaps.
pub fn heightmaps(dims: &Dims, blocks: Vec<BlockId>) -> TerrainChunk {
    let [world_surface, ocean_floor] =
        heightmaps_by(dims, &blocks, |b| [b != block::AIR, block::props(b).solid]);
    TerrainChunk {
        blocks,
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
/// are skipped with one comparison per block, without per-column work.
pub fn top_non_air_layer(dims: &Dims, blocks: &[BlockId]) -> i32 {
    let mut y = dims.max_y();
    while y >= dims.min_y {
        let layer = (y - dims.min_y) as usize * 256;
        if blocks[layer..layer + 256].iter().any(|&b| b != block::AIR) {
            return y;
        }
        y -= 1;
    }
    y
}

/// Surface rules on the topmost solid block of one column.
#[allow(clippy::too_many_arguments)]
fn surface_column(
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

/// How far (in chunks) tunnel starts are simulated; a tunnel's reach is below `16 * R`.
const WORM_RANGE: i32 = 5;
const WORM_STEPS: i32 = 70;

fn carve_worms(
    seed: i64,
    dims: &Dims,
    pos: ChunkPos,
    blocks: &mut [BlockId],
    floor: &[i32; 256],
    aquifer: &[i32; 256],
    witness: &mut crate::util::digest::Digest,
) {
    let (bx, bz) = (f64::from(pos.block_x()), f64::from(pos.block_z()));
    let ylo = f64::from(dims.min_y + 6);
    let yhi = f64::from(dims.max_y() - 2);
    for sz in -WORM_RANGE..=WORM_RANGE {
        for sx in -WORM_RANGE..=WORM_RANGE {
            let (cx, cz) = (pos.x.wrapping_add(sx), pos.z.wrapping_add(sz));
            let mut r = JavaRandom::new(large_feature_seed(seed.wrapping_add(1), cx, cz));
            if r.next_int_bounded(6) != 0 {
                continue;
            }
            let tunnels = 1 + r.next_int_bounded(2);
            for _ in 0..tunnels {
                let mut x = f64::from(cx.wrapping_mul(16) + r.next_int_bounded(16));
                let mut z = f64::from(cz.wrapping_mul(16) + r.next_int_bounded(16));
                let span = (dims.height as i32 - 20).clamp(1, 120);
                let mut y = f64::from(dims.min_y + 10 + r.next_int_bounded(span));
                let mut yaw = r.next_float_f64() * core::f64::consts::TAU;
                let mut pitch = (r.next_float_f64() - 0.5) * 0.5;
                let width = r.next_float_f64() * 2.0 + 1.0;
                let (mut dyaw, mut dpitch) = (0.0f64, 0.0f64);
                for step in 0..WORM_STEPS {
                    let rad = 1.5
                        + sin(f64::from(step) * core::f64::consts::PI / f64::from(WORM_STEPS))
                            * width;
                    let cp = cos(pitch);
                    x += cos(yaw) * cp;
                    y += sin(pitch);
                    z += sin(yaw) * cp;
                    pitch *= 0.7;
                    pitch += dpitch * 0.1;
                    yaw += dyaw * 0.1;
                    dpitch *= 0.9;
                    dyaw *= 0.75;
                    dpitch += (r.next_float_f64() - r.next_float_f64()) * r.next_float_f64() * 2.0;
                    dyaw += (r.next_float_f64() - r.next_float_f64()) * r.next_float_f64() * 4.0;
                    witness.write_f64(x);
                    witness.write_f64(y);
                    witness.write_f64(z);
                    witness.write_f64(rad);
                    // Skip spheres that miss this chunk (cheap box test).
                    if x + rad < bx || x - rad > bx + 16.0 || z + rad < bz || z - rad > bz + 16.0 {
                        continue;
                    }
                    let vr = rad * 0.7;
                    let x0 = core::cmp::max(0, crate::util::math::floor_i64(x - rad - bx) as i32);
                    let x1 = core::cmp::min(15, crate::util::math::floor_i64(x + rad - bx) as i32);
                    let z0 = core::cmp::max(0, crate::util::math::floor_i64(z - rad - bz) as i32);
                    let z1 = core::cmp::min(15, crate::util::math::floor_i64(z + rad - bz) as i32);
                    let y0 = crate::util::math::floor_i64(clamp(y - vr, ylo, yhi)) as i32;
                    let y1 = crate::util::math::floor_i64(clamp(y + vr, ylo, yhi)) as i32;
                    for lz in z0..=z1 {
                        for lx in x0..=x1 {
                            let col = (lz * 16 + lx) as usize;
                            let ddx = (bx + f64::from(lx) + 0.5 - x) / rad;
                            let ddz = (bz + f64::from(lz) + 0.5 - z) / rad;
                            for ly in y0..=y1 {
                                let ddy = (f64::from(ly) + 0.5 - y) / vr;
                                if ddx * ddx + ddy * ddy + ddz * ddz >= 1.0 {
                                    continue;
                                }
                                let i = dims.index(lx as usize, ly, lz as usize);
                                let b = blocks[i];
                                if b == block::BEDROCK || block::props(b).liquid || b == block::AIR
                                {
                                    continue;
                                }
                                blocks[i] =
                                    cave_fill(ly, dims, floor[col] < dims.sea_level, aquifer[col]);
                            }
                        }
                    }
                }
            }
        }
    }
}
