//! A whole definition document: the top-level keys, `base` presets merged underneath, and the
//! two passes that report every problem (the document's shape and names, then the values
//! `core` checks).

use stratagen_core::world::palette::Palette;
use stratagen_core::world::Definition;

use crate::blocks::{names, read_biomes, read_blocks, write_biomes, write_blocks};
use crate::build::{array, string, T};
use crate::climate::{read_climate, write_climate};
use crate::features::{
    read_features, read_structure_blocks, read_structures, read_trees, write_features,
    write_structure_blocks, write_structures, write_trees,
};
use crate::node::{Node, Value};
use crate::problem::{Problem, Problems};
use crate::reader::Reader;
use crate::scatter::{read_scatter, write_scatter};
use crate::terrain::{read_terrain, write_terrain};

/// The document format this library reads and writes.
pub const FORMAT: i64 = 1;
/// How many `base` presets may stand under one another.
const MAX_BASE_DEPTH: usize = 4;

/// The presets a document may stand on: a preset's tree by name (`None`: no such preset).
pub type Bases<'a> = &'a dyn Fn(&str) -> Option<Result<Node, Problems>>;

/// The document `node` with its `base` preset (if any, from `bases`) merged underneath.
pub fn with_base(node: Node, depth: usize, bases: Bases<'_>) -> Result<Node, Problems> {
    let base = match node.get("base") {
        None => return Ok(node),
        Some(b) => b.clone(),
    };
    let name = match &base.value {
        Value::Str(s) => s.clone(),
        _ => {
            return Err(Problem {
                path: "base".into(),
                at: base.at,
                message: format!("expected a preset name, found {}", base.kind()),
            }
            .into())
        }
    };
    let under = match bases(&name) {
        Some(t) if depth < MAX_BASE_DEPTH => t?,
        Some(_) => {
            return Err(Problem {
                path: "base".into(),
                at: base.at,
                message: "presets stand on one another too deeply".into(),
            }
            .into())
        }
        None => {
            return Err(Problem {
                path: "base".into(),
                at: base.at,
                message: format!(
                    "unknown preset {:?} (one of: {})",
                    name,
                    crate::PRESETS.join(", ")
                ),
            }
            .into())
        }
    };
    let mut under = with_base(under, depth + 1, bases)?;
    place_at(&mut under, base.at);
    let mut merged = merge(under, node);
    if let Value::Table(t) = &mut merged.value {
        t.retain(|(k, _)| k != "base");
    }
    Ok(merged)
}

/// Values that come from a preset are placed, in the user's text, at the `base` key that
/// brought them in: a problem in one points there.
fn place_at(n: &mut Node, at: Option<crate::problem::Pos>) {
    n.at = at;
    match &mut n.value {
        Value::Array(a) => a.iter_mut().for_each(|v| place_at(v, at)),
        Value::Table(t) => t.iter_mut().for_each(|(_, v)| place_at(v, at)),
        _ => {}
    }
}

fn name_of(n: &Node) -> Option<&str> {
    match n.get("name").map(|v| &v.value) {
        Some(Value::Str(s)) => Some(s),
        _ => None,
    }
}

/// `over` laid on `under`: tables merge key by key, arrays of named tables merge by name (a
/// known name updates that item, a new one is appended, so ids stay stable; an item of
/// `over` without a usable name is appended too, and reported when read), anything else is
/// replaced. Keys and names are found through an index, so a merge costs O(n log n).
fn merge(under: Node, over: Node) -> Node {
    match (under.value, over.value) {
        (Value::Table(mut u), Value::Table(o)) => {
            let mut index: std::collections::BTreeMap<String, usize> = u
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect();
            for (k, v) in o {
                match index.get(&k) {
                    Some(&i) => {
                        let old = std::mem::replace(&mut u[i].1, Node::new(Value::Bool(false)));
                        u[i].1 = merge(old, v);
                    }
                    None => {
                        index.insert(k.clone(), u.len());
                        u.push((k, v));
                    }
                }
            }
            Node {
                value: Value::Table(u),
                at: over.at,
            }
        }
        (Value::Array(mut u), Value::Array(o))
            if !u.is_empty() && u.iter().all(|n| name_of(n).is_some()) =>
        {
            let mut index: std::collections::BTreeMap<String, usize> = u
                .iter()
                .enumerate()
                .filter_map(|(i, n)| name_of(n).map(|s| (s.to_string(), i)))
                .collect();
            let mut seen = std::collections::BTreeSet::new();
            for item in o {
                // A name written twice in the document stays twice (and is reported as a
                // duplicate) instead of merging into one item.
                let target = name_of(&item)
                    .filter(|name| seen.insert(name.to_string()))
                    .and_then(|name| index.get(name).copied());
                match target {
                    Some(i) => {
                        let old = std::mem::replace(&mut u[i], Node::new(Value::Bool(false)));
                        u[i] = merge(old, item);
                    }
                    None => {
                        if let Some(name) = name_of(&item) {
                            index.entry(name.to_string()).or_insert(u.len());
                        }
                        u.push(item);
                    }
                }
            }
            Node {
                value: Value::Array(u),
                at: over.at,
            }
        }
        (_, value) => Node { value, at: over.at },
    }
}

/// Read a whole document (its base already merged).
pub fn read(root: &Node) -> Result<Definition, Problems> {
    let mut r = Reader::default();
    let mut t = r.table(root, "");
    let format: i64 = t.req(&mut r, "format");
    if format != FORMAT {
        let n = root.get("format").unwrap_or(root);
        if matches!(n.value, Value::Int(_)) {
            r.problem(
                "format",
                n,
                format!(
                    "format {} is not read by this library (it reads {})",
                    format, FORMAT
                ),
            );
        }
    }
    let name: String = t.req(&mut r, "name");
    let blocks_node = t.node(&mut r, "blocks");
    let biomes_node = t.node(&mut r, "biomes");
    let trees_node = t.node(&mut r, "trees");
    let block_names = names(&mut r, blocks_node, "blocks");
    let biome_names = names(&mut r, biomes_node, "biomes");
    let tree_names = names(&mut r, trees_node, "trees");
    let creatures: Vec<String> = t.req(&mut r, "creatures");
    r.names.blocks = index(&block_names);
    r.names.biomes = index(&biome_names);
    r.names.trees = index(&tree_names);
    r.names.creatures = index(&creatures);
    let blocks = read_blocks(&mut r, blocks_node, "blocks", &block_names);
    let biomes = read_biomes(&mut r, biomes_node, "biomes", &biome_names);
    let trees = read_trees(&mut r, trees_node, "trees", &tree_names);
    let climate_node = t.node(&mut r, "climate");
    let climate = read_climate(&mut r, climate_node, "climate");
    let terrain_node = t.node(&mut r, "terrain");
    let terrain = read_terrain(&mut r, terrain_node, "terrain");
    let features_node = t.node(&mut r, "features");
    let features = read_features(&mut r, features_node, "features");
    let structures = match t.opt_node("structures") {
        Some(n) => read_structures(&mut r, n, "structures"),
        None => Vec::new(),
    };
    let sb_node = t.node(&mut r, "structure_blocks");
    let structure_blocks = read_structure_blocks(&mut r, sb_node, "structure_blocks");
    let scatter = match t.opt_node("scatter") {
        Some(n) => read_scatter(&mut r, n, "scatter"),
        None => Vec::new(),
    };
    t.end(&mut r);

    // A covered path always comes with a problem; a reader that covered one silently would
    // accept a document holding a stand-in.
    if r.problems.is_empty() && r.covered_any() {
        debug_assert!(false, "a value was covered without a problem");
        r.problem("", root, "the document could not be read");
    }
    let palette = Palette::new(blocks);
    // Values checked by core: a problem under a path that already has a problem is a
    // consequence, not news; and once a whole table or list was missing or unreadable, the
    // definition holds an empty stand-in whose consequences can appear anywhere (a climate
    // read as empty selects no biome), so core's checks wait until the document has its shape.
    let skip_core = r.lost_structure();
    for path in r
        .problems
        .iter()
        .map(|p| p.path.clone())
        .collect::<Vec<_>>()
    {
        r.cover(&path);
    }
    if let Ok(blocks) = palette {
        let d = Definition {
            name,
            blocks,
            biomes,
            climate,
            terrain,
            features,
            trees,
            structures,
            structure_blocks,
            creatures,
            scatter,
        };
        for e in d.check().into_iter().filter(|_| !skip_core) {
            let at = root.find(&e.path);
            r.problem(&e.path, at, e.problem);
        }
        if r.problems.is_empty() {
            return Ok(d);
        }
    } else if r.problems.is_empty() {
        // The checks above mirror Palette::new's; this is a fallback message.
        r.problem("blocks", blocks_node, "the block list was refused");
    }
    // In the order they are written (a problem without a position, which no document path
    // gives, last).
    let mut list = r.problems;
    list.sort_by_key(|p| p.at.map_or((usize::MAX, 0), |a| (a.line, a.column)));
    Err(Problems { list, more: r.more })
}

fn index<I: TryFrom<usize> + Copy>(names: &[String]) -> std::collections::HashMap<String, I> {
    names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| I::try_from(i).ok().map(|i| (n.clone(), i)))
        .collect()
}

/// The full document of a definition (no `base`: every value written; `scatter` when the
/// definition has layers).
pub fn write(d: &Definition) -> Node {
    let t = T::new()
        .i("format", FORMAT)
        .s("name", &d.name)
        .n("creatures", array(d.creatures.iter().map(|c| string(c))))
        .n("blocks", write_blocks(d))
        .n("biomes", write_biomes(d))
        .n("climate", write_climate(d))
        .n("terrain", write_terrain(d))
        .n("features", write_features(d))
        .n("trees", write_trees(d))
        .n("structures", write_structures(d))
        .n("structure_blocks", write_structure_blocks(d));
    if d.scatter.is_empty() {
        t.done()
    } else {
        t.n("scatter", write_scatter(d)).done()
    }
}
