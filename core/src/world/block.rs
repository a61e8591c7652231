//! The built-in block table: `u16` ids with the properties the pipeline needs. Ids are part
//! of the output format (digests hash them): never renumber, only append.
//!
//! | property | meaning |
//! |---|---|
//! | `solid` | blocks motion (counts for the ocean-floor and motion-blocking heightmaps) |
//! | `liquid` | a fluid (water, lava): motion-blocking heightmap counts it, ocean floor does not |
//! | `emission` | block light emitted, 0..=15 |
//! | `opacity` | light lost passing through, 0..=15 (15: opaque; water and leaves 1) |
//! | `replaceable` | features may overwrite it (air, fluids, plants, snow layers) |

/// A block id.
pub type BlockId = u16;

/// Properties of one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// Lower-case name (`grass_block`).
    pub name: &'static str,
    /// Blocks motion.
    pub solid: bool,
    /// Is a fluid.
    pub liquid: bool,
    /// Emitted block light 0..=15.
    pub emission: u8,
    /// Light lost passing through, 0..=15.
    pub opacity: u8,
    /// May be overwritten by features.
    pub replaceable: bool,
    /// A leaves block (excluded from the motion-blocking-no-leaves heightmap).
    pub leaves: bool,
}

const fn b(name: &'static str, solid: bool, opacity: u8) -> BlockInfo {
    BlockInfo {
        name,
        solid,
        liquid: false,
        emission: 0,
        opacity,
        replaceable: false,
        leaves: false,
    }
}
const fn plant(name: &'static str) -> BlockInfo {
    BlockInfo {
        replaceable: true,
        ..b(name, false, 0)
    }
}
const fn leaves(name: &'static str) -> BlockInfo {
    BlockInfo {
        leaves: true,
        ..b(name, true, 1)
    }
}

macro_rules! blocks {
    ($($id:literal $konst:ident = $info:expr;)*) => {
        $(
            #[doc = concat!("Block id ", stringify!($id), ".")]
            pub const $konst: BlockId = $id;
        )*
        /// The table, indexed by id.
        pub static BLOCKS: &[BlockInfo] = &[$($info),*];
    };
}

blocks! {
    0 AIR = BlockInfo { replaceable: true, ..b("air", false, 0) };
    1 STONE = b("stone", true, 15);
    2 DEEPSLATE = b("deepslate", true, 15);
    3 DIRT = b("dirt", true, 15);
    4 GRASS_BLOCK = b("grass_block", true, 15);
    5 SAND = b("sand", true, 15);
    6 SANDSTONE = b("sandstone", true, 15);
    7 GRAVEL = b("gravel", true, 15);
    8 CLAY = b("clay", true, 15);
    9 SNOW_BLOCK = b("snow_block", true, 15);
    10 ICE = b("ice", true, 1);
    11 WATER = BlockInfo { liquid: true, replaceable: true, ..b("water", false, 1) };
    12 LAVA = BlockInfo { liquid: true, emission: 15, replaceable: true, ..b("lava", false, 1) };
    13 BEDROCK = b("bedrock", true, 15);
    14 OAK_LOG = b("oak_log", true, 15);
    15 OAK_LEAVES = leaves("oak_leaves");
    16 BIRCH_LOG = b("birch_log", true, 15);
    17 BIRCH_LEAVES = leaves("birch_leaves");
    18 SPRUCE_LOG = b("spruce_log", true, 15);
    19 SPRUCE_LEAVES = leaves("spruce_leaves");
    20 JUNGLE_LOG = b("jungle_log", true, 15);
    21 JUNGLE_LEAVES = leaves("jungle_leaves");
    22 ACACIA_LOG = b("acacia_log", true, 15);
    23 ACACIA_LEAVES = leaves("acacia_leaves");
    24 CACTUS = b("cactus", true, 0);
    25 SHORT_GRASS = plant("short_grass");
    26 DANDELION = plant("dandelion");
    27 POPPY = plant("poppy");
    28 DEAD_BUSH = plant("dead_bush");
    29 COAL_ORE = b("coal_ore", true, 15);
    30 IRON_ORE = b("iron_ore", true, 15);
    31 GOLD_ORE = b("gold_ore", true, 15);
    32 DIAMOND_ORE = b("diamond_ore", true, 15);
    33 COBBLESTONE = b("cobblestone", true, 15);
    34 MOSSY_COBBLESTONE = b("mossy_cobblestone", true, 15);
    35 PLANKS = b("planks", true, 15);
    36 TORCH = BlockInfo { emission: 14, ..plant("torch") };
    37 GLOWSTONE = BlockInfo { emission: 15, ..b("glowstone", true, 15) };
    38 SPAWNER = b("spawner", true, 0);
    39 CHEST = b("chest", true, 0);
    40 DIRT_PATH = b("dirt_path", true, 15);
    41 SNOW = plant("snow");
    42 FERN = plant("fern");
    43 COPPER_ORE = b("copper_ore", true, 15);
    44 STONE_BRICKS = b("stone_bricks", true, 15);
    45 COBBLESTONE_WALL = b("cobblestone_wall", true, 0);
}

/// Number of block ids.
pub fn count() -> usize {
    BLOCKS.len()
}

/// Properties of `id` (`None` for an id outside the table).
pub fn info(id: BlockId) -> Option<&'static BlockInfo> {
    BLOCKS.get(id as usize)
}

/// Properties of `id`, treating unknown ids as air (never produced by the generator).
#[inline]
pub fn props(id: BlockId) -> &'static BlockInfo {
    match BLOCKS.get(id as usize) {
        Some(i) => i,
        None => &BLOCKS[0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        assert_eq!(info(STONE).unwrap().name, "stone");
        assert_eq!(info(COBBLESTONE_WALL).unwrap().name, "cobblestone_wall");
        assert!(info(count() as BlockId).is_none());
        for (i, a) in BLOCKS.iter().enumerate() {
            assert!(a.emission <= 15 && a.opacity <= 15);
            assert!(!(a.solid && a.liquid));
            for c in a.name.bytes() {
                assert!(c.is_ascii_lowercase() || c == b'_', "{}", a.name);
            }
            for bb in &BLOCKS[i + 1..] {
                assert_ne!(a.name, bb.name);
            }
        }
        assert!(props(WATER).liquid && props(LAVA).emission == 15);
        assert!(props(OAK_LEAVES).leaves && props(OAK_LEAVES).opacity == 1);
        assert_eq!(props(9999).name, "air");
    }
}
