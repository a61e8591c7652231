//! `[[blocks]]` and `[[biomes]]`: reading and writing.

use stratagen_core::world::block::{BlockProps, Shape, Surface};
use stratagen_core::world::definition::{BiomeDef, SpawnEntry, SurfaceRule};
use stratagen_core::world::palette::{is_empty_block, props_problem, valid_name, MAX_BLOCKS};
use stratagen_core::world::Definition;

use crate::build::{ints, name_of, string, T};
use crate::node::Node;
use crate::reader::Reader;

pub const SHAPES: [(&str, Shape); 5] = [
    ("none", Shape::None),
    ("cube", Shape::Cube),
    ("cross", Shape::Cross),
    ("fluid", Shape::Fluid),
    ("layer", Shape::Layer),
];
pub const SURFACES: [(&str, Surface); 3] = [
    ("opaque", Surface::Opaque),
    ("cutout", Surface::Cutout),
    ("translucent", Surface::Translucent),
];

/// The names of a list of named tables (for resolving references before the tables are
/// read), with a problem for each missing, invalid or repeated name.
pub fn names(r: &mut Reader, list: &Node, path: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    r.each(list, path, |r, item, p| {
        let name_path = format!("{}.name", p);
        let name = match item.get("name") {
            Some(n) => match &n.value {
                crate::node::Value::Str(s) => s.clone(),
                _ => {
                    r.read::<String>(n, &name_path);
                    unidentified(r, p)
                }
            },
            None => {
                if matches!(item.value, crate::node::Value::Table(_)) {
                    r.problem(p, item, "missing key `name`");
                } else {
                    r.problem(p, item, format!("expected a table, found {}", item.kind()));
                }
                unidentified(r, p)
            }
        };
        if let Some(n) = item.get("name") {
            if !valid_name(&name) {
                r.problem(
                    &name_path,
                    n,
                    format!("name {:?} must be lower-case letters, digits and _", name),
                );
            } else if !seen.insert(name.clone()) {
                r.problem(&name_path, n, format!("duplicate name {:?}", name));
            }
        }
        name
    })
}

/// An item without a name cannot be identified: the problem just reported is the only one
/// it gives (its path is covered), and it reads with the empty name. Call it only after
/// reporting that problem.
fn unidentified(r: &mut Reader, path: &str) -> String {
    r.cover_structure(path);
    String::new()
}

/// The blocks, in id order (`names` from [`names`]).
pub fn read_blocks(
    r: &mut Reader,
    list: &Node,
    path: &str,
    names: &[String],
) -> Vec<(String, BlockProps)> {
    let blocks: Vec<(String, BlockProps)> = r.each_named(list, path, names, |r, t, name| {
        let colour = match t.opt_node("colour") {
            Some(n) if matches!(&n.value, crate::node::Value::Array(a) if a.len() == 3) => {
                let c: [u8; 3] = r.read(n, &t.path_of("colour"));
                [c[0], c[1], c[2], 255]
            }
            Some(n) => r.read::<[u8; 4]>(n, &t.path_of("colour")),
            None => {
                r.problem(
                    t.path(),
                    t.node_ref(),
                    "missing key `colour` ([r, g, b] or [r, g, b, a])",
                );
                [0; 4]
            }
        };
        let shape = t.choice_or(r, "shape", &SHAPES, Shape::Cube);
        let surface = t.choice_or(r, "surface", &SURFACES, Surface::Opaque);
        let props = BlockProps {
            solid: t.or(r, "solid", true),
            liquid: t.or(r, "fluid", false),
            emission: t.or(r, "emission", 0),
            opacity: t.or(r, "opacity", 15),
            replaceable: t.or(r, "replaceable", false),
            leaves: t.or(r, "leaves", false),
            shape,
            surface,
            colour,
            tinted: t.or(r, "tinted", false),
        };
        if let Some(why) = props_problem(&props) {
            r.problem(t.path(), t.node_ref(), why);
        }
        (name, props)
    });
    if blocks.is_empty() || blocks.len() > MAX_BLOCKS {
        r.problem(
            path,
            list,
            format!(
                "{} blocks: a world has 1..={} blocks",
                blocks.len(),
                MAX_BLOCKS
            ),
        );
    } else {
        if !is_empty_block(&blocks[0].1) {
            r.problem(
                &format!("{}[0]", path),
                list.find("[0]"),
                "the first block is the empty block (air): shape \"none\", not solid, not a fluid, opacity 0",
            );
        }
    }
    blocks
}

/// `[[blocks]]` of a definition: the name, the colour (`[r, g, b]` when opaque) and every
/// property that differs from its default (a solid opaque cube).
pub fn write_blocks(d: &Definition) -> Node {
    crate::build::array(d.blocks.iter().map(|(name, p)| {
        let mut t = T::new().s("name", name);
        if p.shape != Shape::Cube {
            t = t.s("shape", name_of(&SHAPES, p.shape));
        }
        if p.surface != Surface::Opaque {
            t = t.s("surface", name_of(&SURFACES, p.surface));
        }
        for (key, v, default) in [
            ("solid", p.solid, true),
            ("fluid", p.liquid, false),
            ("replaceable", p.replaceable, false),
            ("leaves", p.leaves, false),
            ("tinted", p.tinted, false),
        ] {
            if v != default {
                t = t.b(key, v);
            }
        }
        if p.opacity != 15 {
            t = t.i("opacity", i64::from(p.opacity));
        }
        if p.emission != 0 {
            t = t.i("emission", i64::from(p.emission));
        }
        let c = p.colour.map(i64::from);
        t.n("colour", ints(if c[3] == 255 { &c[..3] } else { &c[..] }))
            .done()
    }))
}

/// A list of surface rules.
pub fn read_rules(r: &mut Reader, list: &Node, path: &str) -> Vec<SurfaceRule> {
    r.each(list, path, |r, item, p| {
        let mut t = r.table(item, p);
        let rule = SurfaceRule {
            underwater: t.opt(r, "underwater"),
            min_slope: t.opt(r, "min_slope"),
            above_sea: t.opt(r, "above_sea"),
            below_sea: t.opt(r, "below_sea"),
            jitter: t.opt(r, "jitter"),
            top: t.block(r, "top"),
            under: t.block(r, "under"),
            depth: t.req(r, "depth"),
        };
        t.end(r);
        rule
    })
}

/// Surface rules as written.
pub fn write_rules(d: &Definition, rules: &[SurfaceRule]) -> Node {
    crate::build::array(rules.iter().map(|rule| {
        let mut t = T::new();
        if let Some(u) = rule.underwater {
            t = t.b("underwater", u);
        }
        if let Some(s) = rule.min_slope {
            t = t.f("min_slope", s);
        }
        if let Some(a) = rule.above_sea {
            t = t.i("above_sea", i64::from(a));
        }
        if let Some(a) = rule.below_sea {
            t = t.i("below_sea", i64::from(a));
        }
        if let Some(j) = rule.jitter {
            t = t.i("jitter", i64::from(j));
        }
        t.s("top", block_name(d, rule.top))
            .s("under", block_name(d, rule.under))
            .i("depth", i64::from(rule.depth))
            .done()
    }))
}

/// The name of block `id` in `d`.
pub fn block_name(d: &Definition, id: u16) -> &str {
    d.blocks.name(id).unwrap_or("")
}

/// The biomes, in id order (`names` from [`names`]).
pub fn read_biomes(r: &mut Reader, list: &Node, path: &str, names: &[String]) -> Vec<BiomeDef> {
    r.each_named(list, path, names, |r, t, name| {
        let colour = t.req(r, "colour");
        let surface = match t.opt_node("surface") {
            Some(n) => read_rules(r, n, &t.path_of("surface")),
            None => Vec::new(),
        };
        let snow = t.opt_block(r, "snow");
        let ice = t.opt_block(r, "ice");
        let spawn_ground = t.opt_block(r, "spawn_ground").unwrap_or(0);
        let spawns = match t.opt_node("spawns") {
            Some(n) => r.each(n, &t.path_of("spawns"), |r, item, p| {
                let mut s = r.table(item, p);
                let creature_node = s.node(r, "creature");
                let e = SpawnEntry {
                    creature: r.creature(creature_node, &s.path_of("creature")),
                    weight: s.req(r, "weight"),
                };
                s.end(r);
                e
            }),
            None => Vec::new(),
        };
        BiomeDef {
            name,
            colour,
            surface,
            snow,
            ice,
            spawn_ground,
            spawns,
        }
    })
}

/// `[[biomes]]` of a definition.
pub fn write_biomes(d: &Definition) -> Node {
    crate::build::array(d.biomes.iter().map(|b| {
        let mut t = T::new()
            .s("name", &b.name)
            .n("colour", ints(&b.colour.map(i64::from)));
        if let Some(s) = b.snow {
            t = t.s("snow", block_name(d, s));
        }
        if let Some(s) = b.ice {
            t = t.s("ice", block_name(d, s));
        }
        t.s("spawn_ground", block_name(d, b.spawn_ground))
            .n(
                "spawns",
                crate::build::array(b.spawns.iter().map(|s| {
                    T::new()
                        .n(
                            "creature",
                            string(d.creatures.get(s.creature as usize).map_or("", |c| c)),
                        )
                        .i("weight", i64::from(s.weight))
                        .done()
                })),
            )
            .n("surface", write_rules(d, &b.surface))
            .done()
    }))
}
