//! The `spawn` status body: deterministic spawn requests (creature kind, position, group
//! size) from per-biome tables, placed on valid surface blocks, drawn from a random seeded by
//! the chunk's decoration seed (so a chunk's requests depend on nothing else).

use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::random::{decoration_seed, JavaRandom};
use crate::world::biome::BiomeId;
use crate::world::definition::Definition;
use crate::world::dims::Dims;
use crate::world::sections::Sections;

/// A creature kind id.
pub type CreatureId = u16;

/// One spawn request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SpawnRequest {
    /// Creature kind (index into the definition's creatures).
    pub kind: CreatureId,
    /// Block position of the first creature (world coordinates; standing in this block).
    pub pos: [i32; 3],
    /// Group size, 1..=4.
    pub group: u8,
}

/// Spawn requests of chunk `pos` from its merged blocks and motion-blocking heightmap.
pub fn generate(
    seed: i64,
    world: &Definition,
    dims: &Dims,
    pos: ChunkPos,
    biomes: &[BiomeId; 16],
    blocks: &Sections,
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
        let biome = match world.biomes.get(b as usize) {
            Some(biome) => biome,
            None => continue,
        };
        let (entries, ground) = (&biome.spawns[..], biome.spawn_ground);
        let total: i32 = entries.iter().map(|e| e.weight).sum();
        if total == 0 {
            continue;
        }
        let y = motion[(z * 16 + x) as usize];
        if y <= dims.min_y || y > dims.max_y() {
            continue;
        }
        let below = blocks.value(dims.index(x as usize, y - 1, z as usize));
        if below != ground {
            continue;
        }
        let mut k = pick % total;
        let mut kind = entries[0].creature;
        for e in entries {
            if k < e.weight {
                kind = e.creature;
                break;
            }
            k -= e.weight;
        }
        // Creatures of a fluid ground (fish) are placed in it, the others on it.
        let y = if world.blocks.props(ground).liquid {
            y - 1
        } else {
            y
        };
        out.push(SpawnRequest {
            kind,
            pos: [pos.block_x() + x, y, pos.block_z() + z],
            group,
        });
    }
    out
}
