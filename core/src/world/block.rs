//! Block properties ([`BlockProps`]) and the built-in block table ([`BUILTIN`], the `default`
//! world's palette): `u16` ids with the properties the pipeline needs and the ones an engine
//! needs to draw them. Ids are part of the output format (digests hash them): never renumber,
//! only append. Id 0 ([`AIR`]) is the empty block in every palette, built-in or not; the other
//! constants name built-in ids and are used only by the built-in definition and by tests.
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
//! | `tinted` | maps and exported meshes use its biome's colour instead (grass) |

/// A block id.
pub type BlockId = u16;

/// Properties of one block (its name lives beside it in the [`Palette`]).
///
/// [`Palette`]: crate::world::palette::Palette
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockProps {
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
    /// Maps and exported meshes draw it in its biome's colour instead (grass).
    pub tinted: bool,
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

impl BlockProps {
    /// A full opaque cube that stops light: hides the faces of its neighbours that touch it
    /// and darkens ambient occlusion. (Chests and walls are drawn opaque but let light
    /// through, so faces behind them stay.)
    pub const fn is_occluder(&self) -> bool {
        matches!(self.shape, Shape::Cube)
            && matches!(self.surface, Surface::Opaque)
            && self.opacity == 15
    }
    const fn rgb(self, r: u8, g: u8, b: u8) -> BlockProps {
        BlockProps {
            colour: [r, g, b, 255],
            ..self
        }
    }
    const fn rgba(self, r: u8, g: u8, b: u8, a: u8) -> BlockProps {
        BlockProps {
            colour: [r, g, b, a],
            ..self
        }
    }
    const fn tinted(self) -> BlockProps {
        BlockProps {
            tinted: true,
            ..self
        }
    }
    const fn drawn(self, shape: Shape, surface: Surface) -> BlockProps {
        BlockProps {
            shape,
            surface,
            ..self
        }
    }
}

const fn b(solid: bool, opacity: u8) -> BlockProps {
    BlockProps {
        solid,
        liquid: false,
        emission: 0,
        opacity,
        replaceable: false,
        leaves: false,
        shape: Shape::Cube,
        surface: Surface::Opaque,
        colour: [110, 110, 110, 255],
        tinted: false,
    }
}
const fn plant() -> BlockProps {
    BlockProps {
        replaceable: true,
        ..b(false, 0)
    }
    .drawn(Shape::Cross, Surface::Cutout)
}
const fn leaves() -> BlockProps {
    BlockProps {
        leaves: true,
        ..b(true, 1)
    }
    .drawn(Shape::Cube, Surface::Cutout)
}
const fn fluid(emission: u8, surface: Surface) -> BlockProps {
    BlockProps {
        liquid: true,
        replaceable: true,
        emission,
        ..b(false, 1)
    }
    .drawn(Shape::Fluid, surface)
}

macro_rules! blocks {
    ($($id:literal $konst:ident = $name:literal, $info:expr;)*) => {
        $(
            #[doc = concat!("Block id ", stringify!($id), " of the built-in palette: `", $name, "`.")]
            pub const $konst: BlockId = $id;
        )*
        /// The built-in palette (the `default` world's blocks): name and properties, indexed by
        /// id.
        pub static BUILTIN: &[(&str, BlockProps)] = &[$(($name, $info)),*];
        // Ids are the row numbers, by construction.
        const _: () = {
            let mut row = 0;
            $(
                assert!($id == row, "block ids must be 0, 1, 2, ... in table order");
                row += 1;
            )*
            let _ = row;
        };
    };
}

blocks! {
    0 AIR = "air", BlockProps { replaceable: true, ..b(false, 0) }.drawn(Shape::None, Surface::Opaque).rgba(0, 0, 0, 0);
    1 STONE = "stone", b(true, 15).rgb(125, 125, 125);
    2 DEEPSLATE = "deepslate", b(true, 15).rgb(80, 80, 85);
    3 DIRT = "dirt", b(true, 15).rgb(134, 96, 67);
    4 GRASS_BLOCK = "grass_block", b(true, 15).rgb(110, 170, 70).tinted();
    5 SAND = "sand", b(true, 15).rgb(219, 207, 163);
    6 SANDSTONE = "sandstone", b(true, 15).rgb(200, 185, 140);
    7 GRAVEL = "gravel", b(true, 15).rgb(136, 126, 126);
    8 CLAY = "clay", b(true, 15).rgb(160, 166, 179);
    9 SNOW_BLOCK = "snow_block", b(true, 15).rgb(248, 250, 252);
    10 ICE = "ice", b(true, 1).drawn(Shape::Cube, Surface::Translucent).rgba(160, 190, 250, 200);
    11 WATER = "water", fluid(0, Surface::Translucent).rgba(50, 90, 200, 160);
    12 LAVA = "lava", fluid(15, Surface::Opaque).rgb(230, 90, 20);
    13 BEDROCK = "bedrock", b(true, 15).rgb(60, 60, 60);
    14 OAK_LOG = "oak_log", b(true, 15).rgb(110, 85, 50);
    15 OAK_LEAVES = "oak_leaves", leaves().rgb(60, 120, 40);
    16 BIRCH_LOG = "birch_log", b(true, 15).rgb(215, 210, 195);
    17 BIRCH_LEAVES = "birch_leaves", leaves().rgb(60, 120, 40);
    18 SPRUCE_LOG = "spruce_log", b(true, 15).rgb(80, 60, 40);
    19 SPRUCE_LEAVES = "spruce_leaves", leaves().rgb(40, 80, 50);
    20 JUNGLE_LOG = "jungle_log", b(true, 15).rgb(100, 80, 45);
    21 JUNGLE_LEAVES = "jungle_leaves", leaves().rgb(60, 120, 40);
    22 ACACIA_LOG = "acacia_log", b(true, 15).rgb(105, 100, 90);
    23 ACACIA_LEAVES = "acacia_leaves", leaves().rgb(60, 120, 40);
    24 CACTUS = "cactus", b(true, 0).drawn(Shape::Cube, Surface::Cutout).rgb(80, 140, 60);
    25 SHORT_GRASS = "short_grass", plant().rgb(110, 170, 70).tinted();
    26 DANDELION = "dandelion", plant().rgb(230, 210, 60);
    27 POPPY = "poppy", plant().rgb(200, 40, 40);
    28 DEAD_BUSH = "dead_bush", plant().rgb(140, 105, 60);
    29 COAL_ORE = "coal_ore", b(true, 15).rgb(105, 105, 105);
    30 IRON_ORE = "iron_ore", b(true, 15).rgb(150, 135, 120);
    31 GOLD_ORE = "gold_ore", b(true, 15).rgb(160, 150, 100);
    32 DIAMOND_ORE = "diamond_ore", b(true, 15).rgb(120, 160, 160);
    33 COBBLESTONE = "cobblestone", b(true, 15).rgb(125, 125, 125);
    34 MOSSY_COBBLESTONE = "mossy_cobblestone", b(true, 15).rgb(100, 120, 100);
    35 PLANKS = "planks", b(true, 15).rgb(160, 130, 80);
    36 TORCH = "torch", BlockProps { emission: 14, ..plant() }.rgb(255, 200, 80);
    37 GLOWSTONE = "glowstone", BlockProps { emission: 15, ..b(true, 15) }.rgb(250, 215, 120);
    38 SPAWNER = "spawner", b(true, 0).drawn(Shape::Cube, Surface::Cutout).rgb(40, 50, 60);
    39 CHEST = "chest", b(true, 0).rgb(150, 110, 50);
    40 DIRT_PATH = "dirt_path", b(true, 15).rgb(134, 96, 67);
    41 SNOW = "snow", plant().drawn(Shape::Layer, Surface::Opaque).rgb(248, 250, 252);
    42 FERN = "fern", plant().rgb(110, 170, 70).tinted();
    43 COPPER_ORE = "copper_ore", b(true, 15).rgb(150, 110, 90);
    44 STONE_BRICKS = "stone_bricks", b(true, 15).rgb(120, 120, 120);
    45 COBBLESTONE_WALL = "cobblestone_wall", b(true, 0).rgb(115, 115, 115);
}
