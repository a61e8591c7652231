//! The built-in definition: the `default` world. The golden digests and the parity corpus
//! pin its output, and the `default` preset document parses to it bit for bit.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::noise::{FractalType, NoiseDef, NoiseType};
use crate::world::biome::{self, BiomeId};
use crate::world::block::{self as b, BlockId};
use crate::world::definition::*;
use crate::world::palette::Palette;
use crate::world::scatter::{ScatterKind, ScatterLayer};
use crate::world::structure::StructureKind;

/// Continentalness below which the sea is deep ocean.
const DEEP_OCEAN_MAX: f64 = -0.45;
/// Continentalness below which the sea is ocean (above it: the coast).
const OCEAN_MAX: f64 = -0.16;
/// Continentalness below which the coast is beach (above it: land).
const COAST_MAX: f64 = -0.11;

/// A Perlin fBm noise with the default lacunarity and gain; `salt` is XORed with the seed.
fn perlin_fbm(salt: i64, frequency: f64, octaves: u32) -> NoiseDef {
    NoiseDef {
        seed: salt,
        noise_type: NoiseType::Perlin,
        fractal: FractalType::Fbm,
        octaves,
        frequency,
        ..NoiseDef::default()
    }
}

fn rule(underwater: bool, top: BlockId, under: BlockId, depth: i32) -> SurfaceRule {
    SurfaceRule {
        underwater: Some(underwater),
        min_slope: None,
        above_sea: None,
        below_sea: None,
        jitter: None,
        top,
        under,
        depth,
    }
}

struct BiomeRow {
    name: &'static str,
    colour: [u8; 3],
    cold: bool,
    surface: Vec<SurfaceRule>,
    ground: BlockId,
    spawns: &'static [(u16, i32)],
}

fn biome_rows() -> Vec<BiomeRow> {
    let row = |name, colour, cold, surface, ground, spawns| BiomeRow {
        name,
        colour,
        cold,
        surface,
        ground,
        spawns,
    };
    let grass = b::GRASS_BLOCK;
    let fish: &[(u16, i32)] = &[(10, 10)];
    vec![
        row(
            "ocean",
            [30, 70, 170],
            false,
            vec![SurfaceRule {
                below_sea: Some(18),
                ..rule(true, b::GRAVEL, b::GRAVEL, 3)
            }],
            b::WATER,
            fish,
        ),
        row(
            "deep_ocean",
            [20, 40, 120],
            false,
            vec![rule(true, b::GRAVEL, b::GRAVEL, 3)],
            b::WATER,
            fish,
        ),
        row(
            "beach",
            [235, 220, 160],
            false,
            vec![rule(false, b::SAND, b::SANDSTONE, 4)],
            b::AIR,
            &[],
        ),
        row(
            "river",
            [60, 110, 220],
            false,
            vec![
                SurfaceRule {
                    jitter: Some(0),
                    ..rule(true, b::SAND, b::SAND, 3)
                },
                rule(true, b::CLAY, b::GRAVEL, 2),
            ],
            b::WATER,
            fish,
        ),
        row(
            "plains",
            [140, 190, 90],
            false,
            vec![],
            grass,
            &[(0, 12), (1, 8), (2, 10), (3, 10), (9, 5)],
        ),
        row(
            "forest",
            [50, 130, 50],
            false,
            vec![],
            grass,
            &[(0, 12), (2, 10), (3, 10), (5, 5)],
        ),
        row(
            "birch_forest",
            [100, 160, 80],
            false,
            vec![],
            grass,
            &[(0, 12), (2, 10), (3, 10), (5, 5)],
        ),
        row(
            "taiga",
            [50, 100, 80],
            false,
            vec![],
            grass,
            &[(5, 8), (4, 4), (6, 8)],
        ),
        row(
            "snowy_plains",
            [240, 245, 250],
            true,
            vec![],
            grass,
            &[(5, 8), (4, 4), (6, 8)],
        ),
        row(
            "desert",
            [220, 200, 120],
            false,
            vec![rule(false, b::SAND, b::SANDSTONE, 6)],
            b::SAND,
            &[(4, 4)],
        ),
        row(
            "savanna",
            [180, 170, 90],
            false,
            vec![],
            grass,
            &[(9, 1), (8, 1), (1, 8), (0, 12)],
        ),
        row(
            "jungle",
            [40, 150, 30],
            false,
            vec![],
            grass,
            &[(7, 40), (3, 10)],
        ),
        row(
            "swamp",
            [80, 100, 70],
            false,
            vec![rule(true, b::CLAY, b::DIRT, 3)],
            grass,
            &[(11, 10), (0, 12)],
        ),
        row(
            "mountains",
            [140, 140, 140],
            true,
            vec![
                SurfaceRule {
                    above_sea: Some(110),
                    ..rule(false, b::SNOW_BLOCK, b::STONE, 1)
                },
                SurfaceRule {
                    min_slope: Some(1.0),
                    ..rule(false, b::STONE, b::STONE, 0)
                },
                SurfaceRule {
                    above_sea: Some(95),
                    ..rule(false, b::STONE, b::STONE, 0)
                },
            ],
            grass,
            &[(8, 5), (0, 12)],
        ),
    ]
}

/// A closed interval of a climate parameter.
type Iv = Interval;
const ANY: Iv = (-2.0, 2.0);
const LAND: Iv = (COAST_MAX, 2.0);
const LAND_E: Iv = (-0.45, 2.0);
const LAND_PV: Iv = (-0.8, 2.0);

fn climate_box(biome: BiomeId, t: Iv, h: Iv, c: Iv, e: Iv, pv: Iv) -> ClimateBox {
    ClimateBox {
        biome,
        t,
        h,
        c,
        e,
        pv,
    }
}

/// The climate boxes, nearest wins (ties to the earlier row). Land biomes split temperature ×
/// humidity; oceans and beaches are claimed by continentalness, rivers by valley floors,
/// mountains by low erosion on ridges; forest has a second box (warm and wet but not flat
/// enough for swamp).
fn climate_boxes() -> Vec<ClimateBox> {
    use biome::*;
    vec![
        climate_box(OCEAN, ANY, ANY, (DEEP_OCEAN_MAX, OCEAN_MAX), ANY, ANY),
        climate_box(DEEP_OCEAN, ANY, ANY, (-2.0, DEEP_OCEAN_MAX), ANY, ANY),
        climate_box(BEACH, (-0.45, 2.0), ANY, (OCEAN_MAX, COAST_MAX), ANY, ANY),
        climate_box(RIVER, ANY, ANY, LAND, (-0.3, 2.0), (-2.0, -0.8)),
        climate_box(PLAINS, (-0.15, 0.2), (-2.0, 0.0), LAND, LAND_E, LAND_PV),
        climate_box(FOREST, (-0.15, 0.2), (0.0, 0.35), LAND, LAND_E, LAND_PV),
        climate_box(
            BIRCH_FOREST,
            (-0.15, 0.2),
            (0.35, 2.0),
            LAND,
            LAND_E,
            LAND_PV,
        ),
        climate_box(TAIGA, (-0.45, -0.15), ANY, LAND, LAND_E, LAND_PV),
        climate_box(SNOWY_PLAINS, (-2.0, -0.45), ANY, LAND, LAND_E, LAND_PV),
        climate_box(DESERT, (0.55, 2.0), (-2.0, 0.1), LAND, LAND_E, LAND_PV),
        climate_box(SAVANNA, (0.2, 0.55), (-2.0, 0.3), LAND, LAND_E, LAND_PV),
        climate_box(JUNGLE, (0.55, 2.0), (0.1, 2.0), LAND, LAND_E, LAND_PV),
        climate_box(SWAMP, (0.2, 0.55), (0.3, 2.0), LAND, (0.3, 2.0), LAND_PV),
        climate_box(MOUNTAINS, ANY, ANY, (0.0, 2.0), (-2.0, -0.45), (0.0, 2.0)),
        climate_box(FOREST, (0.2, 0.55), (0.3, 2.0), LAND, (-0.45, 0.3), LAND_PV),
    ]
}

fn spline(knots: &[(f64, f64)]) -> Spline {
    Spline {
        knots: knots.to_vec(),
    }
}

fn terrain() -> TerrainDef {
    TerrainDef {
        stone: b::STONE,
        deep_stone: b::DEEPSLATE,
        deep_stone_below: 0,
        deep_stone_dither_bits: 3,
        bedrock: b::BEDROCK,
        bedrock_layers: 4,
        sea_fluid: b::WATER,
        deep_fluid: b::LAVA,
        deep_fluid_layers: 10,
        density: perlin_fbm(0x0D35_1770, 1.0 / 110.0, 3),
        height: spline(&[
            (-1.0, -43.0),
            (DEEP_OCEAN_MAX, -27.0),
            (-0.19, -9.0),
            (OCEAN_MAX, -2.0),
            (COAST_MAX, 1.5),
            (-0.05, 3.0),
            (0.2, 9.0),
            (0.5, 17.0),
            (1.0, 27.0),
        ]),
        mountains: spline(&[
            (-1.0, 150.0),
            (-0.45, 75.0),
            (0.0, 22.0),
            (0.5, 8.0),
            (1.0, 3.0),
        ]),
        inland: Ramp {
            from: -0.1,
            width: 0.4,
        },
        river: RiverDef {
            valley: -0.72,
            valley_width: 0.2,
            coast: Ramp {
                from: COAST_MAX,
                width: 0.06,
            },
            erosion: Ramp {
                from: -0.3,
                width: 0.2,
            },
            depth: 4.0,
        },
        coast_jag: 6.0,
        jag: spline(&[(-1.0, 26.0), (0.0, 10.0), (1.0, 4.0)]),
        surface: vec![
            rule(true, b::SAND, b::SAND, 3),
            SurfaceRule {
                min_slope: Some(2.0),
                ..rule(false, b::STONE, b::STONE, 0)
            },
            rule(false, b::GRASS_BLOCK, b::DIRT, 3),
        ],
        caves: CaveDef {
            cheese: perlin_fbm(0x0C4E_E5E0, 1.0 / 72.0, 2),
            spaghetti_a: perlin_fbm(0x05BA_6E71, 1.0 / 56.0, 1),
            spaghetti_b: perlin_fbm(0x05BA_6E72, 1.0 / 56.0, 1),
            cheese_y_stretch: 1.6,
            spaghetti_y_stretch: 1.5,
            cheese_threshold: 0.42,
            cheese_sharpness: 5.0,
            spaghetti_radius: 0.06,
            spaghetti_sharpness: 10.0,
            surface_margin: 14.0,
            surface_fade: 16.0,
            floor_margin: 6.0,
            floor_fade: 8.0,
            fade_close: 4.0,
        },
        aquifer: AquiferDef {
            noise: perlin_fbm(0x0A9F_1E70, 1.0 / 160.0, 2),
            below_sea: 44,
            spread: 30.0,
        },
        carvers: CarverDef {
            chance: 6,
            max_tunnels: 2,
            start_min: 10,
            start_span: 120,
            min_radius: 1.5,
            vertical_scale: 0.7,
            floor_margin: 6,
            top_margin: 2,
        },
    }
}

fn ore(block: BlockId, attempts: i32, min_y: i32, max_y: i32, max_radius: f64) -> FeatureKind {
    FeatureKind::Ore(OreDef {
        block,
        attempts,
        min_y,
        max_y,
        min_radius: 0.9,
        max_radius,
        replaces: vec![b::STONE, b::DEEPSLATE],
        biomes: Vec::new(),
    })
}

fn feature(name: &str, step: i32, kind: FeatureKind) -> FeatureDef {
    FeatureDef {
        name: String::from(name),
        step,
        kind,
    }
}

fn features() -> Vec<FeatureDef> {
    use biome::*;
    let trees = [
        (FOREST, 0, 28),
        (BIRCH_FOREST, 1, 28),
        (TAIGA, 2, 24),
        (JUNGLE, 3, 24),
        (SAVANNA, 4, 4),
        (SWAMP, 0, 8),
        (PLAINS, 0, 1),
        (SNOWY_PLAINS, 2, 2),
        (MOUNTAINS, 2, 2),
    ];
    vec![
        feature(
            "boulder",
            1,
            FeatureKind::Boulder(BoulderDef {
                block: b::MOSSY_COBBLESTONE,
                chance: 4,
                radius: 1.5,
                radius_spread: 1.0,
                biomes: vec![TAIGA, SNOWY_PLAINS, MOUNTAINS],
                replaces: vec![b::GRASS_BLOCK, b::DIRT, b::STONE],
            }),
        ),
        feature("ore_coal", 2, ore(b::COAL_ORE, 16, 0, 128, 2.2)),
        feature("ore_copper", 2, ore(b::COPPER_ORE, 8, -16, 96, 1.9)),
        feature("ore_diamond", 2, ore(b::DIAMOND_ORE, 3, -64, 16, 1.4)),
        feature("ore_gold", 2, ore(b::GOLD_ORE, 3, -64, 32, 1.5)),
        feature("ore_iron", 2, ore(b::IRON_ORE, 12, -24, 72, 1.8)),
        feature(
            "tree",
            3,
            FeatureKind::Trees(TreesDef {
                biomes: trees
                    .iter()
                    .map(|&(biome, tree, per_chunk_quarters)| TreeSpawn {
                        biome,
                        tree,
                        per_chunk_quarters,
                    })
                    .collect(),
                soil: vec![b::GRASS_BLOCK, b::DIRT],
                ground: b::DIRT,
            }),
        ),
        feature(
            "cactus",
            3,
            FeatureKind::Column(ColumnDef {
                block: b::CACTUS,
                attempts: 3,
                max_height: 3,
                biomes: vec![DESERT],
                ground: b::SAND,
            }),
        ),
        feature(
            "grass",
            4,
            FeatureKind::Vegetation(VegetationDef {
                radius: 2.0,
                salt: 1,
                rules: vec![
                    PlantRule {
                        biomes: vec![PLAINS, FOREST, BIRCH_FOREST, SAVANNA, SWAMP],
                        plants: vec![b::SHORT_GRASS],
                        ground: b::GRASS_BLOCK,
                    },
                    PlantRule {
                        biomes: vec![TAIGA, JUNGLE],
                        plants: vec![b::FERN],
                        ground: b::GRASS_BLOCK,
                    },
                ],
            }),
        ),
        feature(
            "flowers",
            4,
            FeatureKind::Vegetation(VegetationDef {
                radius: 5.0,
                salt: 2,
                rules: vec![PlantRule {
                    biomes: vec![PLAINS, FOREST, BIRCH_FOREST],
                    plants: vec![b::DANDELION, b::POPPY],
                    ground: b::GRASS_BLOCK,
                }],
            }),
        ),
        feature(
            "dead_bush",
            4,
            FeatureKind::Vegetation(VegetationDef {
                radius: 6.0,
                salt: 3,
                rules: vec![PlantRule {
                    biomes: vec![DESERT],
                    plants: vec![b::DEAD_BUSH],
                    ground: b::SAND,
                }],
            }),
        ),
        feature("structure_pieces", 0, FeatureKind::StructurePieces),
    ]
}

fn tree(
    name: &str,
    shape: TreeShape,
    log: BlockId,
    leaves: BlockId,
    base: i32,
    random: i32,
) -> TreeDef {
    TreeDef {
        name: String::from(name),
        shape,
        log,
        leaves,
        base_height: base,
        random_height: random,
    }
}

/// The creature kinds of the built-in world (spawn request ids).
pub const CREATURES: [&str; 12] = [
    "sheep", "cow", "pig", "chicken", "rabbit", "wolf", "fox", "parrot", "llama", "horse", "cod",
    "frog",
];

impl Definition {
    /// The `default` world: the built-in blocks, biomes, terrain, features and structures.
    pub fn builtin() -> Definition {
        use biome::*;
        let biomes = biome_rows()
            .into_iter()
            .map(|r| BiomeDef {
                name: String::from(r.name),
                colour: r.colour,
                surface: r.surface,
                snow: if r.cold { Some(b::SNOW) } else { None },
                ice: if r.cold { Some(b::ICE) } else { None },
                spawn_ground: r.ground,
                spawns: r
                    .spawns
                    .iter()
                    .map(|&(creature, weight)| SpawnEntry { creature, weight })
                    .collect(),
            })
            .collect();
        Definition {
            name: String::from("default"),
            blocks: Palette::builtin(),
            biomes,
            climate: ClimateDef {
                noises: [
                    perlin_fbm(0x7E3A_11C0, 1.0 / 2200.0, 4),
                    perlin_fbm(0x4B1D_0A70, 1.0 / 1800.0, 4),
                    perlin_fbm(0x0C0A_57A1, 1.0 / 2400.0, 6),
                    perlin_fbm(0x0E05_1011, 1.0 / 1100.0, 4),
                    perlin_fbm(0x0771_1D00, 1.0 / 700.0, 4),
                ],
                stretch: 2.2,
                boxes: climate_boxes(),
            },
            terrain: terrain(),
            features: features(),
            trees: vec![
                tree("oak", TreeShape::Round, b::OAK_LOG, b::OAK_LEAVES, 4, 3),
                tree(
                    "birch",
                    TreeShape::Round,
                    b::BIRCH_LOG,
                    b::BIRCH_LEAVES,
                    5,
                    3,
                ),
                tree(
                    "spruce",
                    TreeShape::Cone,
                    b::SPRUCE_LOG,
                    b::SPRUCE_LEAVES,
                    6,
                    4,
                ),
                tree(
                    "jungle",
                    TreeShape::Blob,
                    b::JUNGLE_LOG,
                    b::JUNGLE_LEAVES,
                    8,
                    5,
                ),
                tree(
                    "acacia",
                    TreeShape::Flat,
                    b::ACACIA_LOG,
                    b::ACACIA_LEAVES,
                    5,
                    2,
                ),
            ],
            structures: vec![
                StructureDef {
                    kind: StructureKind::Dungeon,
                    spacing: 10,
                    separation: 3,
                    salt: 10_387_319,
                    biomes: vec![
                        PLAINS,
                        FOREST,
                        BIRCH_FOREST,
                        TAIGA,
                        SNOWY_PLAINS,
                        DESERT,
                        SAVANNA,
                        JUNGLE,
                        SWAMP,
                        MOUNTAINS,
                    ],
                },
                StructureDef {
                    kind: StructureKind::Watchtower,
                    spacing: 16,
                    separation: 6,
                    salt: 14_357_617,
                    biomes: vec![PLAINS, SAVANNA, DESERT, TAIGA, SNOWY_PLAINS],
                },
            ],
            structure_blocks: StructureBlocks {
                wall: b::COBBLESTONE,
                mossy_wall: b::MOSSY_COBBLESTONE,
                planks: b::PLANKS,
                bricks: b::STONE_BRICKS,
                torch: b::TORCH,
                path: b::DIRT_PATH,
                chest: b::CHEST,
                spawner: b::SPAWNER,
                path_ground: vec![b::GRASS_BLOCK, b::DIRT, b::SAND, b::SNOW_BLOCK, b::STONE],
            },
            creatures: CREATURES.iter().map(|s| String::from(*s)).collect(),
            scatter: scatter_layers(),
        }
    }
}

/// A kind of a scatter layer.
fn kind(name: &str, weight: u32) -> ScatterKind {
    ScatterKind {
        name: String::from(name),
        weight,
    }
}

/// The built-in props: trees in the wooded biomes, rocks on open ground, grass tufts and
/// flowers on grassland. Models are the host's: the kinds only name them.
fn scatter_layers() -> Vec<ScatterLayer> {
    use biome::*;
    let mut trees = ScatterLayer::new("trees", 7.0);
    trees.biomes = vec![FOREST, BIRCH_FOREST, TAIGA, JUNGLE, SWAMP];
    trees.on = vec![b::GRASS_BLOCK, b::DIRT];
    trees.max_slope = 2;
    trees.kinds = vec![kind("broadleaf", 3), kind("conifer", 2), kind("dead", 1)];
    trees.scale = (0.8, 1.3);
    let mut rocks = ScatterLayer::new("rocks", 12.0);
    rocks.density = 0.5;
    rocks.on = vec![b::STONE, b::GRASS_BLOCK, b::GRAVEL, b::SAND, b::SNOW_BLOCK];
    rocks.kinds = vec![kind("boulder", 1), kind("pebbles", 3)];
    rocks.scale = (0.6, 1.6);
    rocks.align_to_normal = true;
    let mut grass = ScatterLayer::new("grass", 1.5);
    grass.density = 0.6;
    grass.biomes = vec![PLAINS, FOREST, BIRCH_FOREST, SAVANNA, SWAMP];
    grass.on = vec![b::GRASS_BLOCK];
    grass.max_slope = 1;
    grass.kinds = vec![kind("tuft", 4), kind("flower", 1)];
    grass.scale = (0.7, 1.2);
    vec![trees, rocks, grass]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_definition_checks_clean() {
        assert_eq!(Definition::builtin().check(), Vec::new());
    }

    /// The built-in feature list (every feature's seed depends on its index): (name, step)
    /// in index order.
    #[test]
    fn feature_order_and_steps_are_the_contract() {
        let expected = [
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
        let d = Definition::builtin();
        let got: Vec<(&str, i32)> = d
            .features
            .iter()
            .map(|f| (f.name.as_str(), f.step))
            .collect();
        assert_eq!(got, expected);
        assert_eq!(d.biomes.len(), biome::BUILTIN_COUNT);
        for (b, name) in d.biomes.iter().zip(biome::BUILTIN_NAMES) {
            assert_eq!(b.name, name);
        }
    }

    /// The canonical encoding reads back to the same definition (so the digest, which hashes
    /// that encoding, covers every field), and any truncation or trailing byte is refused.
    #[test]
    fn canonical_bytes_round_trip() {
        let d = Definition::builtin();
        let bytes = d.to_bytes();
        assert_eq!(Definition::from_bytes(&bytes), Ok(d.clone()));
        for n in (0..bytes.len()).step_by(7) {
            assert!(Definition::from_bytes(&bytes[..n]).is_err(), "{} bytes", n);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Definition::from_bytes(&longer).is_err());
        // A value the check refuses (bedrock layers 200) decodes but is refused.
        let mut bad = d;
        bad.terrain.bedrock_layers = 200;
        assert!(matches!(
            Definition::from_bytes(&bad.to_bytes()),
            Err(DecodeError::Invalid(_))
        ));
    }

    /// The digest ignores the name and sees every other change, however small.
    #[test]
    fn digest_sees_every_field_but_the_name() {
        let base = Definition::builtin();
        let d0 = base.digest();
        let mut renamed = base.clone();
        renamed.name = String::from("mine");
        assert_eq!(renamed.digest(), d0);
        let mutations: Vec<fn(&mut Definition)> = vec![
            |d| d.climate.stretch = f64::from_bits(d.climate.stretch.to_bits() + 1),
            |d| d.climate.boxes.swap(0, 1),
            |d| d.terrain.height.knots[0].1 += 1.0,
            |d| d.terrain.caves.cheese.seed ^= 1,
            |d| d.terrain.carvers.chance += 1,
            |d| d.biomes[3].surface[0].jitter = None,
            |d| d.biomes[0].colour[0] ^= 1,
            |d| d.features.swap(1, 2),
            |d| d.trees[0].base_height += 1,
            |d| d.structures[0].salt += 1,
            |d| d.structure_blocks.path_ground.pop().map_or((), |_| ()),
            |d| d.creatures[0].push('s'),
            |d| d.biomes[0].snow = Some(b::SNOW),
        ];
        for (k, m) in mutations.iter().enumerate() {
            let mut d = base.clone();
            m(&mut d);
            assert_ne!(d.digest(), d0, "mutation {} left the digest unchanged", k);
        }
    }
}
