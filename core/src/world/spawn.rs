//! The `spawn` status body: deterministic spawn requests (creature kind, position, group
//! size) from per-biome tables, placed on valid surface blocks, drawn from a random seeded by
//! the chunk's decoration seed (so a chunk's requests depend on nothing else).

use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::random::{decoration_seed, JavaRandom};
use crate::world::biome::{self, BiomeId};
use crate::world::block::{self, BlockId};
use crate::world::dims::Dims;

/// A creature kind id.
pub type CreatureId = u16;

/// Creature kinds (ids are part of the output format; only append).
pub const CREATURES: [&str; 12] = [
    "sheep", "cow", "pig", "chicken", "rabbit", "wolf", "fox", "parrot", "llama", "horse", "cod",
    "frog",
];

/// One spawn request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SpawnRequest {
    /// Creature kind (index into [`CREATURES`]).
    pub kind: CreatureId,
    /// Block position of the first creature (world coordinates; standing in this block).
    pub pos: [i32; 3],
    /// Group size, 1..=4.
    pub group: u8,
}

/// (kind, weight) per biome, and the block the creature must stand on.
fn table(b: BiomeId) -> (&'static [(CreatureId, i32)], BlockId) {
    match b {
        biome::PLAINS => (
            &[(0, 12), (1, 8), (2, 10), (3, 10), (9, 5)],
            block::GRASS_BLOCK,
        ),
        biome::FOREST | biome::BIRCH_FOREST => {
            (&[(0, 12), (2, 10), (3, 10), (5, 5)], block::GRASS_BLOCK)
        }
        biome::TAIGA | biome::SNOWY_PLAINS => (&[(5, 8), (4, 4), (6, 8)], block::GRASS_BLOCK),
        biome::DESERT => (&[(4, 4)], block::SAND),
        biome::SAVANNA => (&[(9, 1), (8, 1), (1, 8), (0, 12)], block::GRASS_BLOCK),
        biome::JUNGLE => (&[(7, 40), (3, 10)], block::GRASS_BLOCK),
        biome::SWAMP => (&[(11, 10), (0, 12)], block::GRASS_BLOCK),
        biome::MOUNTAINS => (&[(8, 5), (0, 12)], block::GRASS_BLOCK),
        biome::OCEAN | biome::DEEP_OCEAN | biome::RIVER => (&[(10, 10)], block::WATER),
        _ => (&[], block::AIR),
    }
}

/// Spawn requests of chunk `pos` from its merged blocks and motion-blocking heightmap.
pub fn generate(
    seed: i64,
    dims: &Dims,
    pos: ChunkPos,
    biomes: &[BiomeId; 16],
    blocks: &[BlockId],
    motion: &[i32; 256],
) -> Vec<SpawnRequest> {
    let mut r = JavaRandom::new(decoration_seed(seed, pos.block_x(), pos.block_z()) ^ 0x5EA_5EED);
    let mut out = Vec::new();
    for _ in 0..3 {
        // About one group in three chunks per attempt, as for Minecraft's chunk-generation
        // spawns.
        let go = r.next_int_bounded(10) < 3;
        let (x, z) = (r.next_int_bounded(16), r.next_int_bounded(16));
        let pick = r.next_int_bounded(1000);
        let group = 1 + r.next_int_bounded(4) as u8;
        if !go {
            continue;
        }
        let b = biomes[((z >> 2) * 4 + (x >> 2)) as usize];
        let (entries, ground) = table(b);
        let total: i32 = entries.iter().map(|e| e.1).sum();
        if total == 0 {
            continue;
        }
        let y = motion[(z * 16 + x) as usize];
        if y <= dims.min_y || y > dims.max_y() {
            continue;
        }
        let below = blocks[dims.index(x as usize, y - 1, z as usize)];
        let ok = if ground == block::WATER {
            below == block::WATER
        } else {
            below == ground
        };
        if !ok {
            continue;
        }
        let mut k = pick % total;
        let mut kind = entries[0].0;
        for e in entries {
            if k < e.1 {
                kind = e.0;
                break;
            }
            k -= e.1;
        }
        let y = if ground == block::WATER { y - 1 } else { y };
        out.push(SpawnRequest {
            kind,
            pos: [pos.block_x() + x, y, pos.block_z() + z],
            group,
        });
    }
    out
}
