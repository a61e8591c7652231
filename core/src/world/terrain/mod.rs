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

use crate::engine::ChunkPos;
use crate::noise::{Noise, NoiseError};
use crate::world::biome::{world_noise, BiomeId, ClimateSampler};
use crate::world::block::{self, BlockId};
use crate::world::definition::{Definition, TerrainDef};
use crate::world::dims::Dims;
use crate::world::sections::Sections;

mod beard;
mod carvers;
mod column;
mod density;
mod resolve;
mod surface;
mod top_scan;

pub use beard::{BeardBox, BEARD_FALLOFF};
pub use column::column_shape;
pub use density::{shape, shape_in, Shape};
pub use resolve::{carve, resolve, resolve_in};
pub use top_scan::{heightmaps, heightmaps_by, heightmaps_of, top_non_air_layer};

/// The terrain output of one chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainChunk {
    /// Block ids, index `((y - min_y) * 16 + z) * 16 + x`, paletted per section.
    pub blocks: Sections,
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
    pub(crate) density: Noise,
    pub(crate) cheese: Noise,
    pub(crate) spag_a: Noise,
    pub(crate) spag_b: Noise,
    pub(crate) aquifer: Noise,
}

impl TerrainNoises {
    /// The terrain noises of a world seed under `def`.
    pub fn new(seed: i64, def: &TerrainDef) -> Result<Self, NoiseError> {
        Ok(TerrainNoises {
            density: world_noise(seed, &def.density)?,
            cheese: world_noise(seed, &def.caves.cheese)?,
            spag_a: world_noise(seed, &def.caves.spaghetti_a)?,
            spag_b: world_noise(seed, &def.caves.spaghetti_b)?,
            aquifer: world_noise(seed, &def.aquifer.noise)?,
        })
    }
}

/// The fluid (or air) that fills a cave block.
#[inline]
pub(crate) fn cave_fill(
    t: &TerrainDef,
    y: i32,
    dims: &Dims,
    submerged: bool,
    aquifer: i32,
) -> BlockId {
    if y < dims.min_y + t.deep_fluid_layers {
        t.deep_fluid
    } else if (submerged && y <= dims.sea_level) || y <= aquifer {
        t.sea_fluid
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
    /// The world definition.
    pub definition: &'a Definition,
    /// Climate noises.
    pub climate: &'a ClimateSampler,
    /// Terrain noises.
    pub noises: &'a TerrainNoises,
    /// Biomes of the chunk's cells.
    pub biomes: &'a [BiomeId; 16],
    /// Structure boxes the terrain adapts to (may be empty).
    pub beard: &'a [BeardBox],
}

use alloc::vec::Vec;

/// Generate the terrain of chunk `pos`: [`shape`], [`resolve`], [`carve`], [`heightmaps`].
pub fn generate(inp: &TerrainInput<'_>, pos: ChunkPos) -> TerrainChunk {
    generate_in(inp, pos, &mut TerrainScratch::default())
}

/// The chunk-sized arrays the terrain body works in (block kinds, blocks), kept between
/// calls so a thread that generates many chunks allocates them once. Every entry is written
/// before it is read: what a call leaves here never changes the next one's terrain.
#[derive(Debug, Default)]
pub struct TerrainScratch {
    kind: Vec<u8>,
    blocks: Vec<BlockId>,
}

/// [`generate`] working in `scratch`.
pub fn generate_in(
    inp: &TerrainInput<'_>,
    pos: ChunkPos,
    scratch: &mut TerrainScratch,
) -> TerrainChunk {
    let sh = shape_in(inp, pos, core::mem::take(&mut scratch.kind));
    let (mut blocks, aquifer) = resolve_in(inp, pos, &sh, core::mem::take(&mut scratch.blocks));
    let witness = carve(inp, pos, &sh, &aquifer, &mut blocks);
    let mut t = heightmaps_of(&inp.dims, &inp.definition.blocks, &blocks);
    t.witness = witness;
    scratch.kind = sh.into_kind();
    scratch.blocks = blocks;
    t
}
