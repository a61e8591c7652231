//! The built-in block table (the palette): `u16` ids with the properties the pipeline needs
//! and the ones an engine needs to draw them. Ids are part of the output format (digests hash
//! them): never renumber, only append.
//!
//! | property | meaning |
//! |---|---|
//! | `solid` | blocks motion (counts for the ocean-floor and motion-blocking heightmaps) |
//! | `liquid` | a fluid (water, lava): motion-blocking heightmap counts it, ocean floor does not |
//! | `emission` | block light emitted, 0..=15 |
//! | `opacity` | light lost passing through, 0..=15 (15: opaque; water and leaves 1) |
//! | `replaceable` | features may overwrite it (air, fluids, plants, snow layers) |
//! | `shape` | how it is drawn: nothing, a cube, crossed quads, a lowered fluid, a thin layer |
//! | `surface` | which mesh surface it goes to: opaque, cutout (alpha-tested), translucent |
//! | `colour` | sRGB + alpha, the map colour and the vertex colour of exported meshes |

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
    /// How the block is drawn.
    pub shape: Shape,
    /// The mesh surface it belongs to.
    pub surface: Surface,
    /// sRGB colour and alpha (255 opaque).
    pub colour: [u8; 4],
}

/// How a block is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    /// Not drawn (air).
    None = 0,
    /// A unit cube.
    Cube = 1,
    /// Two crossed vertical quads (plants, torches), drawn from both sides.
    Cross = 2,
    /// A fluid: a cube whose top is lowered to [`FLUID_TOP`] unless the same fluid lies above.
    Fluid = 3,
    /// A thin layer on the floor, [`LAYER_TOP`] high (snow).
    Layer = 4,
}

/// Which mesh surface a block's faces go to (engines draw them with different materials).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Surface {
    /// Drawn without blending or alpha test.
    Opaque = 0,
    /// Alpha-tested (leaves, plants).
    Cutout = 1,
    /// Alpha-blended (water, ice), drawn after the others.
    Translucent = 2,
}

/// Height of a fluid's top face, in blocks, when the block above is not the same fluid
/// (14/16, exact in binary).
pub const FLUID_TOP: f32 = 0.875;
/// Height of a [`Shape::Layer`] block, in blocks (2/16).
pub const LAYER_TOP: f32 = 0.125;

impl BlockInfo {
    /// A full opaque cube that stops light: hides the faces of its neighbours that touch it
    /// and darkens ambient occlusion. (Chests and walls are drawn opaque but let light
    /// through, so faces behind them stay.)
    pub const fn is_occluder(&self) -> bool {
        matches!(self.shape, Shape::Cube)
            && matches!(self.surface, Surface::Opaque)
            && self.opacity == 15
    }
    const fn rgb(self, r: u8, g: u8, b: u8) -> BlockInfo {
        BlockInfo {
            colour: [r, g, b, 255],
            ..self
        }
    }
    const fn rgba(self, r: u8, g: u8, b: u8, a: u8) -> BlockInfo {
        BlockInfo {
            colour: [r, g, b, a],
            ..self
        }
    }
    const fn drawn(self, shape: Shape, surface: Surface) -> BlockInfo {
        BlockInfo {
            shape,
            surface,
            ..self
        }
    }
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
        shape: Shape::Cube,
        surface: Surface::Opaque,
        colour: [110, 110, 110, 255],
    }
}
const fn plant(name: &'static str) -> BlockInfo {
    BlockInfo {
        replaceable: true,
        ..b(name, false, 0)
    }
    .drawn(Shape::Cross, Surface::Cutout)
}
const fn leaves(name: &'static str) -> BlockInfo {
    BlockInfo {
        leaves: true,
        ..b(name, true, 1)
    }
    .drawn(Shape::Cube, Surface::Cutout)
}
const fn fluid(name: &'static str, emission: u8, surface: Surface) -> BlockInfo {
    BlockInfo {
        liquid: true,
        replaceable: true,
        emission,
        ..b(name, false, 1)
    }
    .drawn(Shape::Fluid, surface)
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
    0 AIR = BlockInfo { replaceable: true, ..b("air", false, 0) }.drawn(Shape::None, Surface::Opaque).rgba(0, 0, 0, 0);
    1 STONE = b("stone", true, 15).rgb(125, 125, 125);
    2 DEEPSLATE = b("deepslate", true, 15).rgb(80, 80, 85);
    3 DIRT = b("dirt", true, 15).rgb(134, 96, 67);
    4 GRASS_BLOCK = b("grass_block", true, 15).rgb(110, 170, 70);
    5 SAND = b("sand", true, 15).rgb(219, 207, 163);
    6 SANDSTONE = b("sandstone", true, 15).rgb(200, 185, 140);
    7 GRAVEL = b("gravel", true, 15).rgb(136, 126, 126);
    8 CLAY = b("clay", true, 15).rgb(160, 166, 179);
    9 SNOW_BLOCK = b("snow_block", true, 15).rgb(248, 250, 252);
    10 ICE = b("ice", true, 1).drawn(Shape::Cube, Surface::Translucent).rgba(160, 190, 250, 200);
    11 WATER = fluid("water", 0, Surface::Translucent).rgba(50, 90, 200, 160);
    12 LAVA = fluid("lava", 15, Surface::Opaque).rgb(230, 90, 20);
    13 BEDROCK = b("bedrock", true, 15).rgb(60, 60, 60);
    14 OAK_LOG = b("oak_log", true, 15).rgb(110, 85, 50);
    15 OAK_LEAVES = leaves("oak_leaves").rgb(60, 120, 40);
    16 BIRCH_LOG = b("birch_log", true, 15).rgb(215, 210, 195);
    17 BIRCH_LEAVES = leaves("birch_leaves").rgb(60, 120, 40);
    18 SPRUCE_LOG = b("spruce_log", true, 15).rgb(80, 60, 40);
    19 SPRUCE_LEAVES = leaves("spruce_leaves").rgb(40, 80, 50);
    20 JUNGLE_LOG = b("jungle_log", true, 15).rgb(100, 80, 45);
    21 JUNGLE_LEAVES = leaves("jungle_leaves").rgb(60, 120, 40);
    22 ACACIA_LOG = b("acacia_log", true, 15).rgb(105, 100, 90);
    23 ACACIA_LEAVES = leaves("acacia_leaves").rgb(60, 120, 40);
    24 CACTUS = b("cactus", true, 0).drawn(Shape::Cube, Surface::Cutout).rgb(80, 140, 60);
    25 SHORT_GRASS = plant("short_grass").rgb(110, 170, 70);
    26 DANDELION = plant("dandelion").rgb(230, 210, 60);
    27 POPPY = plant("poppy").rgb(200, 40, 40);
    28 DEAD_BUSH = plant("dead_bush").rgb(140, 105, 60);
    29 COAL_ORE = b("coal_ore", true, 15).rgb(105, 105, 105);
    30 IRON_ORE = b("iron_ore", true, 15).rgb(150, 135, 120);
    31 GOLD_ORE = b("gold_ore", true, 15).rgb(160, 150, 100);
    32 DIAMOND_ORE = b("diamond_ore", true, 15).rgb(120, 160, 160);
    33 COBBLESTONE = b("cobblestone", true, 15).rgb(125, 125, 125);
    34 MOSSY_COBBLESTONE = b("mossy_cobblestone", true, 15).rgb(100, 120, 100);
    35 PLANKS = b("planks", true, 15).rgb(160, 130, 80);
    36 TORCH = BlockInfo { emission: 14, ..plant("torch") }.rgb(255, 200, 80);
    37 GLOWSTONE = BlockInfo { emission: 15, ..b("glowstone", true, 15) }.rgb(250, 215, 120);
    38 SPAWNER = b("spawner", true, 0).drawn(Shape::Cube, Surface::Cutout).rgb(40, 50, 60);
    39 CHEST = b("chest", true, 0).rgb(150, 110, 50);
    40 DIRT_PATH = b("dirt_path", true, 15).rgb(134, 96, 67);
    41 SNOW = plant("snow").drawn(Shape::Layer, Surface::Opaque).rgb(248, 250, 252);
    42 FERN = plant("fern").rgb(110, 170, 70);
    43 COPPER_ORE = b("copper_ore", true, 15).rgb(150, 110, 90);
    44 STONE_BRICKS = b("stone_bricks", true, 15).rgb(120, 120, 120);
    45 COBBLESTONE_WALL = b("cobblestone_wall", true, 0).rgb(115, 115, 115);
}

/// Number of block ids.
pub fn count() -> usize {
    BLOCKS.len()
}

/// Properties of `id` (`None` for an id outside the table).
pub fn info(id: BlockId) -> Option<&'static BlockInfo> {
    BLOCKS.get(id as usize)
}

/// The id of the block named `name` (`None` for an unknown name).
pub fn by_name(name: &str) -> Option<BlockId> {
    BLOCKS
        .iter()
        .position(|b| b.name == name)
        .map(|i| i as BlockId)
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
        assert_eq!(by_name("oak_leaves"), Some(OAK_LEAVES));
        assert_eq!(by_name("unobtainium"), None);
    }

    #[test]
    fn drawing_agrees_with_light_and_motion() {
        for (id, a) in BLOCKS.iter().enumerate() {
            // A block that stops all light is drawn as an opaque cube (so the faces it
            // hides are never lit ones), and what is not drawn lets light through.
            if a.opacity == 15 {
                assert!(a.is_occluder(), "{}", a.name);
            }
            if a.shape == Shape::None {
                assert_eq!(a.opacity, 0);
            }
            assert_eq!(a.shape == Shape::None, id == AIR as usize, "{}", a.name);
            assert_eq!(a.shape == Shape::Fluid, a.liquid, "{}", a.name);
            // Blended surfaces carry alpha; the others are opaque colours.
            assert_eq!(
                a.surface == Surface::Translucent,
                a.colour[3] < 255 && id != 0
            );
            if a.leaves {
                assert_eq!(a.surface, Surface::Cutout);
            }
        }
    }
}
