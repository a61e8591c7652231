//! `[[features]]`, `[[trees]]`, `[[structures]]` and `[structure_blocks]`: reading and writing.

use stratagen_core::world::definition::{
    BoulderDef, ColumnDef, FeatureDef, FeatureKind, OreDef, PlantRule, StructureBlocks,
    StructureDef, TreeDef, TreeShape, TreeSpawn, TreesDef, VegetationDef,
};
use stratagen_core::world::structure::StructureKind;
use stratagen_core::world::Definition;

use crate::blocks::block_name;
use crate::build::{array, name_of, string, T};
use crate::node::Node;
use crate::reader::{Reader, Table};

const KINDS: [(&str, u8); 6] = [
    ("structure_pieces", 0),
    ("boulder", 1),
    ("ore", 2),
    ("trees", 3),
    ("column", 4),
    ("vegetation", 5),
];
const SHAPES: [(&str, TreeShape); 4] = [
    ("round", TreeShape::Round),
    ("cone", TreeShape::Cone),
    ("blob", TreeShape::Blob),
    ("flat", TreeShape::Flat),
];
const STRUCTURES: [(&str, StructureKind); 2] = [
    ("dungeon", StructureKind::Dungeon),
    ("watchtower", StructureKind::Watchtower),
];

fn names_of(d: &Definition, ids: &[u16]) -> Node {
    array(ids.iter().map(|&b| string(block_name(d, b))))
}

fn biome_names(d: &Definition, ids: &[u8]) -> Node {
    array(
        ids.iter()
            .map(|&b| string(d.biomes.get(b as usize).map_or("", |b| b.name.as_str()))),
    )
}

/// The features, in their global order.
pub fn read_features(r: &mut Reader, list: &Node, path: &str) -> Vec<FeatureDef> {
    r.each(list, path, |r, item, p| {
        let mut t = r.table(item, p);
        let name = t.req(r, "name");
        let kind = t.choice(r, "kind", &KINDS, 0);
        let step = if kind == 0 {
            t.or(r, "step", 0)
        } else {
            t.req(r, "step")
        };
        let kind = read_kind(r, &mut t, kind);
        t.end(r);
        FeatureDef { name, step, kind }
    })
}

fn read_kind(r: &mut Reader, t: &mut Table<'_>, kind: u8) -> FeatureKind {
    match kind {
        1 => FeatureKind::Boulder(BoulderDef {
            block: t.block(r, "block"),
            chance: t.req(r, "chance"),
            radius: t.req(r, "radius"),
            radius_spread: t.req(r, "radius_spread"),
            biomes: t.biomes(r, "biomes"),
            replaces: t.blocks(r, "replaces"),
        }),
        2 => FeatureKind::Ore(OreDef {
            block: t.block(r, "block"),
            attempts: t.req(r, "attempts"),
            min_y: t.req(r, "min_y"),
            max_y: t.req(r, "max_y"),
            min_radius: t.req(r, "min_radius"),
            max_radius: t.req(r, "max_radius"),
            replaces: t.blocks(r, "replaces"),
            biomes: match t.opt_node("biomes") {
                Some(n) => r.each(n, &t.path_of("biomes"), |r, n, p| r.biome(n, p)),
                None => Vec::new(),
            },
        }),
        3 => {
            let list = t.node(r, "trees");
            let biomes = r.each(list, &t.path_of("trees"), |r, item, p| {
                let mut s = r.table(item, p);
                let b = s.node(r, "biome");
                let biome = r.biome(b, &s.path_of("biome"));
                let k = s.node(r, "tree");
                let tree = r.tree(k, &s.path_of("tree"));
                let spawn = TreeSpawn {
                    biome,
                    tree,
                    per_chunk_quarters: s.req(r, "per_chunk_quarters"),
                };
                s.end(r);
                spawn
            });
            FeatureKind::Trees(TreesDef {
                biomes,
                soil: t.blocks(r, "soil"),
                ground: t.block(r, "ground"),
            })
        }
        4 => FeatureKind::Column(ColumnDef {
            block: t.block(r, "block"),
            attempts: t.req(r, "attempts"),
            max_height: t.req(r, "max_height"),
            biomes: t.biomes(r, "biomes"),
            ground: t.block(r, "ground"),
        }),
        5 => {
            let radius = t.req(r, "radius");
            let salt = t.req(r, "salt");
            let list = t.node(r, "rules");
            let rules = r.each(list, &t.path_of("rules"), |r, item, p| {
                let mut s = r.table(item, p);
                let rule = PlantRule {
                    biomes: s.biomes(r, "biomes"),
                    plants: s.blocks(r, "plants"),
                    ground: s.block(r, "ground"),
                };
                s.end(r);
                rule
            });
            FeatureKind::Vegetation(VegetationDef {
                radius,
                salt,
                rules,
            })
        }
        _ => FeatureKind::StructurePieces,
    }
}

/// `[[features]]` of a definition.
pub fn write_features(d: &Definition) -> Node {
    array(d.features.iter().map(|f| {
        let t = T::new().s("name", &f.name).i("step", i64::from(f.step));
        match &f.kind {
            FeatureKind::StructurePieces => t.s("kind", "structure_pieces"),
            FeatureKind::Boulder(b) => t
                .s("kind", "boulder")
                .s("block", block_name(d, b.block))
                .i("chance", i64::from(b.chance))
                .f("radius", b.radius)
                .f("radius_spread", b.radius_spread)
                .n("biomes", biome_names(d, &b.biomes))
                .n("replaces", names_of(d, &b.replaces)),
            FeatureKind::Ore(o) => {
                let t = t
                    .s("kind", "ore")
                    .s("block", block_name(d, o.block))
                    .i("attempts", i64::from(o.attempts))
                    .i("min_y", i64::from(o.min_y))
                    .i("max_y", i64::from(o.max_y))
                    .f("min_radius", o.min_radius)
                    .f("max_radius", o.max_radius)
                    .n("replaces", names_of(d, &o.replaces));
                if o.biomes.is_empty() {
                    t
                } else {
                    t.n("biomes", biome_names(d, &o.biomes))
                }
            }
            FeatureKind::Trees(k) => t
                .s("kind", "trees")
                .n("soil", names_of(d, &k.soil))
                .s("ground", block_name(d, k.ground))
                .n(
                    "trees",
                    array(k.biomes.iter().map(|s| {
                        T::new()
                            .s(
                                "biome",
                                d.biomes
                                    .get(s.biome as usize)
                                    .map_or("", |b| b.name.as_str()),
                            )
                            .s(
                                "tree",
                                d.trees.get(s.tree as usize).map_or("", |t| t.name.as_str()),
                            )
                            .i("per_chunk_quarters", i64::from(s.per_chunk_quarters))
                            .done()
                    })),
                ),
            FeatureKind::Column(c) => t
                .s("kind", "column")
                .s("block", block_name(d, c.block))
                .i("attempts", i64::from(c.attempts))
                .i("max_height", i64::from(c.max_height))
                .n("biomes", biome_names(d, &c.biomes))
                .s("ground", block_name(d, c.ground)),
            FeatureKind::Vegetation(v) => t
                .s("kind", "vegetation")
                .f("radius", v.radius)
                .i("salt", v.salt)
                .n(
                    "rules",
                    array(v.rules.iter().map(|rule| {
                        T::new()
                            .n("biomes", biome_names(d, &rule.biomes))
                            .n("plants", names_of(d, &rule.plants))
                            .s("ground", block_name(d, rule.ground))
                            .done()
                    })),
                ),
        }
        .done()
    }))
}

/// The tree kinds.
pub fn read_trees(r: &mut Reader, list: &Node, path: &str, names: &[String]) -> Vec<TreeDef> {
    r.each_named(list, path, names, |r, t, name| {
        let shape = t.choice(r, "shape", &SHAPES, TreeShape::Round);
        TreeDef {
            name,
            shape,
            log: t.block(r, "log"),
            leaves: t.block(r, "leaves"),
            base_height: t.req(r, "base_height"),
            random_height: t.req(r, "random_height"),
        }
    })
}

/// `[[trees]]` of a definition.
pub fn write_trees(d: &Definition) -> Node {
    array(d.trees.iter().map(|t| {
        T::new()
            .s("name", &t.name)
            .s("shape", name_of(&SHAPES, t.shape))
            .s("log", block_name(d, t.log))
            .s("leaves", block_name(d, t.leaves))
            .i("base_height", i64::from(t.base_height))
            .i("random_height", i64::from(t.random_height))
            .done()
    }))
}

/// The structures.
pub fn read_structures(r: &mut Reader, list: &Node, path: &str) -> Vec<StructureDef> {
    r.each(list, path, |r, item, p| {
        let mut t = r.table(item, p);
        let kind = t.choice(r, "kind", &STRUCTURES, StructureKind::Dungeon);
        let s = StructureDef {
            kind,
            spacing: t.req(r, "spacing"),
            separation: t.req(r, "separation"),
            salt: t.req(r, "salt"),
            biomes: t.biomes(r, "biomes"),
        };
        t.end(r);
        s
    })
}

/// `[[structures]]` of a definition.
pub fn write_structures(d: &Definition) -> Node {
    array(d.structures.iter().map(|s| {
        T::new()
            .s("kind", name_of(&STRUCTURES, s.kind))
            .i("spacing", i64::from(s.spacing))
            .i("separation", i64::from(s.separation))
            .i("salt", i64::from(s.salt))
            .n("biomes", biome_names(d, &s.biomes))
            .done()
    }))
}

/// `[structure_blocks]`.
pub fn read_structure_blocks(r: &mut Reader, node: &Node, path: &str) -> StructureBlocks {
    let mut t = r.table(node, path);
    let b = StructureBlocks {
        wall: t.block(r, "wall"),
        mossy_wall: t.block(r, "mossy_wall"),
        planks: t.block(r, "planks"),
        bricks: t.block(r, "bricks"),
        torch: t.block(r, "torch"),
        path: t.block(r, "path"),
        chest: t.block(r, "chest"),
        spawner: t.block(r, "spawner"),
        path_ground: t.blocks(r, "path_ground"),
    };
    t.end(r);
    b
}

/// `[structure_blocks]` of a definition.
pub fn write_structure_blocks(d: &Definition) -> Node {
    let b = &d.structure_blocks;
    T::new()
        .s("wall", block_name(d, b.wall))
        .s("mossy_wall", block_name(d, b.mossy_wall))
        .s("planks", block_name(d, b.planks))
        .s("bricks", block_name(d, b.bricks))
        .s("torch", block_name(d, b.torch))
        .s("path", block_name(d, b.path))
        .s("chest", block_name(d, b.chest))
        .s("spawner", block_name(d, b.spawner))
        .n("path_ground", names_of(d, &b.path_ground))
        .done()
}
