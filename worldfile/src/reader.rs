//! Reading a [`Node`] tree into plain values: every problem is recorded with its path and
//! position and reading goes on with a fallback value, so one pass reports them all. A value
//! that is missing or cannot be read *covers* its path: problems found later under it are
//! consequences of the fallback, not news, and are not reported, so one mistake gives one
//! problem.

use std::collections::{BTreeSet, HashMap};

use crate::node::{Node, Value};
use crate::problem::{Problem, MAX_PROBLEMS};

/// Collects problems while a document is read.
#[derive(Default)]
pub struct Reader {
    pub problems: Vec<Problem>,
    pub more: usize,
    /// Names of blocks, biomes, trees and creatures in the document, with their ids.
    pub names: Names,
    /// Paths whose value is missing or unreadable.
    covered: BTreeSet<String>,
    /// Whether a whole table, list or list item was missing or unreadable.
    lost_structure: bool,
}

/// The names a document defines, by kind.
#[derive(Default)]
pub struct Names {
    pub blocks: HashMap<String, u16>,
    pub biomes: HashMap<String, u8>,
    pub trees: HashMap<String, u16>,
    pub creatures: HashMap<String, u16>,
}

impl Reader {
    /// Record a problem at `path`, written at `node`, unless a covered path holds it or the
    /// same problem is already recorded.
    pub fn problem(&mut self, path: &str, node: &Node, message: impl Into<String>) {
        if self.is_covered(path) {
            return;
        }
        let p = Problem {
            path: path.to_string(),
            at: node.at,
            message: message.into(),
        };
        if self.problems.contains(&p) {
            return;
        }
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(p);
        } else {
            self.more += 1;
        }
    }

    /// The value at `path` is missing or unreadable: problems at or under it from now on are
    /// consequences, not reported.
    pub fn cover(&mut self, path: &str) {
        if !path.is_empty() {
            self.covered.insert(path.to_string());
        }
    }

    /// [`Reader::cover`] for a whole table, list or list item: what stands in for it (an
    /// empty table or list) has consequences beyond its path.
    pub fn cover_structure(&mut self, path: &str) {
        self.cover(path);
        self.lost_structure = true;
    }

    /// Whether some path is covered: then a problem was reported, and the document must be
    /// refused even if that problem was the one dropped as a repeat.
    pub fn covered_any(&self) -> bool {
        !self.covered.is_empty()
    }

    /// Whether a whole table, list or list item was missing or unreadable, so that the
    /// definition read holds an empty stand-in whose consequences can appear anywhere.
    pub fn lost_structure(&self) -> bool {
        self.lost_structure
    }

    /// Whether `path` or a path above it (`a.b` above `a.b.c` and `a.b[2]`) is covered.
    fn is_covered(&self, path: &str) -> bool {
        if self.covered.is_empty() {
            return false;
        }
        let cuts = path.match_indices(['.', '[']).map(|(i, _)| i);
        cuts.chain([path.len()])
            .any(|end| self.covered.contains(&path[..end]))
    }

    /// `node` as a table, with its keys to be consumed.
    pub fn table<'n>(&mut self, node: &'n Node, path: &str) -> Table<'n> {
        let entries: &'n [(String, Node)] = match &node.value {
            Value::Table(t) => t,
            _ => {
                self.problem(
                    path,
                    node,
                    format!("expected a table, found {}", node.kind()),
                );
                self.cover_structure(path);
                &[]
            }
        };
        Table {
            node,
            entries,
            path: path.to_string(),
            used: Vec::new(),
        }
    }

    /// Read `node` as a `T`, or record why not and give the fallback.
    pub fn read<T: FromNode>(&mut self, node: &Node, path: &str) -> T {
        T::from_node(self, node, path).unwrap_or_else(|| {
            self.cover(path);
            T::default()
        })
    }

    /// The id of a named thing of `kind` among `ids`, or a problem (fallback 0).
    fn lookup<I: Copy + Default>(
        &mut self,
        node: &Node,
        path: &str,
        kind: &str,
        ids: impl Fn(&Names, &str) -> Option<I>,
    ) -> I {
        match &node.value {
            Value::Str(s) => match ids(&self.names, s) {
                Some(id) => id,
                None => {
                    self.problem(path, node, format!("unknown {} {:?}", kind, s));
                    self.cover(path);
                    I::default()
                }
            },
            _ => {
                self.problem(
                    path,
                    node,
                    format!("expected a {} name, found {}", kind, node.kind()),
                );
                self.cover(path);
                I::default()
            }
        }
    }

    /// A block named by `node`.
    pub fn block(&mut self, node: &Node, path: &str) -> u16 {
        self.lookup(node, path, "block", |n, s| n.blocks.get(s).copied())
    }

    /// A biome named by `node`.
    pub fn biome(&mut self, node: &Node, path: &str) -> u8 {
        self.lookup(node, path, "biome", |n, s| n.biomes.get(s).copied())
    }

    /// A tree kind named by `node`.
    pub fn tree(&mut self, node: &Node, path: &str) -> u16 {
        self.lookup(node, path, "tree", |n, s| n.trees.get(s).copied())
    }

    /// A creature named by `node`.
    pub fn creature(&mut self, node: &Node, path: &str) -> u16 {
        self.lookup(node, path, "creature", |n, s| n.creatures.get(s).copied())
    }

    /// Each table of a list of named tables, read by `f` with its name (from `names`, read
    /// beforehand so that references resolve in any order); unknown keys are reported after.
    pub fn each_named<T>(
        &mut self,
        list: &Node,
        path: &str,
        names: &[String],
        mut f: impl FnMut(&mut Reader, &mut Table<'_>, String) -> T,
    ) -> Vec<T> {
        let mut k = 0;
        self.each(list, path, |r, item, p| {
            let mut t = r.table(item, p);
            t.opt_node("name");
            let name = names.get(k).cloned().unwrap_or_default();
            k += 1;
            let v = f(r, &mut t, name);
            t.end(r);
            v
        })
    }

    /// Each element of an array node, read by `f` with its path.
    pub fn each<T>(
        &mut self,
        node: &Node,
        path: &str,
        mut f: impl FnMut(&mut Reader, &Node, &str) -> T,
    ) -> Vec<T> {
        match &node.value {
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, n)| f(self, n, &format!("{}[{}]", path, i)))
                .collect(),
            _ => {
                self.problem(
                    path,
                    node,
                    format!("expected an array, found {}", node.kind()),
                );
                self.cover_structure(path);
                Vec::new()
            }
        }
    }
}

/// A table being read: keys are taken one by one; [`Table::end`] reports the rest as unknown.
pub struct Table<'n> {
    node: &'n Node,
    entries: &'n [(String, Node)],
    path: String,
    used: Vec<&'static str>,
}

/// The node standing in for a missing value (so a missing table reads as an empty one).
static EMPTY_TABLE: Node = Node {
    value: Value::Table(Vec::new()),
    at: None,
};

impl<'n> Table<'n> {
    /// This table's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// This table's node.
    pub fn node_ref(&self) -> &'n Node {
        self.node
    }

    /// The path of a key of this table.
    pub fn path_of(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{}", self.path, key)
        }
    }

    /// The node of `key`, if written.
    pub fn opt_node(&mut self, key: &'static str) -> Option<&'n Node> {
        self.used.push(key);
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The node of `key`; a missing key is a problem (and reads as an empty table).
    pub fn node(&mut self, r: &mut Reader, key: &'static str) -> &'n Node {
        match self.opt_node(key) {
            Some(n) => n,
            None => {
                self.missing(r, key);
                r.cover_structure(&self.path_of(key));
                &EMPTY_TABLE
            }
        }
    }

    /// A required value.
    pub fn req<T: FromNode>(&mut self, r: &mut Reader, key: &'static str) -> T {
        match self.opt_node(key) {
            Some(n) => r.read(n, &self.path_of(key)),
            None => {
                self.missing(r, key);
                T::default()
            }
        }
    }

    /// Report a missing required key at this table, and cover the key's path.
    fn missing(&self, r: &mut Reader, key: &str) {
        r.problem(&self.path, self.node, format!("missing key `{}`", key));
        r.cover(&self.path_of(key));
    }

    /// An optional value.
    pub fn opt<T: FromNode>(&mut self, r: &mut Reader, key: &'static str) -> Option<T> {
        let n = self.opt_node(key)?;
        Some(r.read(n, &self.path_of(key)))
    }

    /// A value with a default.
    pub fn or<T: FromNode>(&mut self, r: &mut Reader, key: &'static str, default: T) -> T {
        self.opt(r, key).unwrap_or(default)
    }

    /// A required block name.
    pub fn block(&mut self, r: &mut Reader, key: &'static str) -> u16 {
        let n = self.node(r, key);
        r.block(n, &self.path_of(key))
    }

    /// An optional block name.
    pub fn opt_block(&mut self, r: &mut Reader, key: &'static str) -> Option<u16> {
        let n = self.opt_node(key)?;
        Some(r.block(n, &self.path_of(key)))
    }

    /// A list of block names.
    pub fn blocks(&mut self, r: &mut Reader, key: &'static str) -> Vec<u16> {
        let n = self.node(r, key);
        r.each(n, &self.path_of(key), |r, n, p| r.block(n, p))
    }

    /// A list of biome names.
    pub fn biomes(&mut self, r: &mut Reader, key: &'static str) -> Vec<u8> {
        let n = self.node(r, key);
        r.each(n, &self.path_of(key), |r, n, p| r.biome(n, p))
    }

    /// A required name among `(name, value)` choices.
    pub fn choice<E: Copy>(
        &mut self,
        r: &mut Reader,
        key: &'static str,
        choices: &[(&str, E)],
        fallback: E,
    ) -> E {
        let n = self.node(r, key);
        crate::build::choice(r, n, &self.path_of(key), choices, fallback)
    }

    /// An optional name among `(name, value)` choices, `default` when absent.
    pub fn choice_or<E: Copy>(
        &mut self,
        r: &mut Reader,
        key: &'static str,
        choices: &[(&str, E)],
        default: E,
    ) -> E {
        match self.opt_node(key) {
            Some(n) => crate::build::choice(r, n, &self.path_of(key), choices, default),
            None => default,
        }
    }

    /// Report every key not taken.
    pub fn end(self, r: &mut Reader) {
        for (k, v) in self.entries {
            if !self.used.contains(&k.as_str()) {
                let known = self.used.join(", ");
                r.problem(
                    &self.path_of(k),
                    v,
                    format!("unknown key `{}` (known here: {})", k, known),
                );
            }
        }
    }
}

/// A value read from a node.
pub trait FromNode: Sized + Default {
    /// `Some` if `node` holds a `Self`; otherwise records why not.
    fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self>;
}

impl FromNode for String {
    fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self> {
        match &node.value {
            Value::Str(s) => Some(s.clone()),
            _ => {
                r.problem(
                    path,
                    node,
                    format!("expected a string, found {}", node.kind()),
                );
                None
            }
        }
    }
}

impl FromNode for bool {
    fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self> {
        match node.value {
            Value::Bool(b) => Some(b),
            _ => {
                r.problem(
                    path,
                    node,
                    format!("expected true or false, found {}", node.kind()),
                );
                None
            }
        }
    }
}

impl FromNode for f64 {
    fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self> {
        match node.value {
            Value::Float(f) => Some(f),
            // Integers up to 2^53 are exact as floats.
            Value::Int(i) if i.unsigned_abs() <= 1 << 53 => Some(i as f64),
            _ => {
                r.problem(
                    path,
                    node,
                    format!("expected a number, found {}", node.kind()),
                );
                None
            }
        }
    }
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl FromNode for $t {
            fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self> {
                match node.value {
                    Value::Int(i) => match <$t>::try_from(i) {
                        Ok(v) => Some(v),
                        Err(_) => {
                            r.problem(
                                path,
                                node,
                                format!(
                                    "{} is out of range {}..={}",
                                    i,
                                    <$t>::MIN,
                                    <$t>::MAX
                                ),
                            );
                            None
                        }
                    },
                    _ => {
                        r.problem(path, node, format!("expected an integer, found {}", node.kind()));
                        None
                    }
                }
            }
        }
    )*};
}
integer!(i64, i32, u32, u16, u8);

impl<T: FromNode> FromNode for Vec<T> {
    fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self> {
        Some(r.each(node, path, |r, n, p| r.read(n, p)))
    }
}

impl<T: FromNode + Copy, const N: usize> FromNode for [T; N]
where
    [T; N]: Default,
{
    fn from_node(r: &mut Reader, node: &Node, path: &str) -> Option<Self> {
        let v: Vec<T> = r.each(node, path, |r, n, p| r.read(n, p));
        match <[T; N]>::try_from(v) {
            Ok(a) => Some(a),
            Err(v) => {
                if matches!(node.value, Value::Array(_)) {
                    r.problem(
                        path,
                        node,
                        format!("expected {} values, found {}", N, v.len()),
                    );
                }
                None
            }
        }
    }
}
